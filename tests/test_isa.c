/*
 * Cross-ISA equivalence: every kernel table compiled in and supported by
 * this CPU must give the scalar reference's hashes, filter bytes and answers,
 * for every layout, batch lengths 0..70, 1e6 keys, keys arrays at every
 * offset from a cache line, seeds 0 and nonzero. Also the ISA controls:
 * forcing, unknown names, the SBF_ISA environment variable.
 *
 * Each Criterion test runs in its own process, so the global ISA choice a
 * test makes does not leak into the next one. The per-ISA tests are
 * parameterised over the registry (sbf_isa_list), so a new ISA is tested
 * without a line here; an ISA this build or CPU lacks is skipped.
 */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "sbf_internal.h"
#include "equiv.h"

/* n random keys in a 64-byte aligned buffer, plus slack for offsets. */
static uint64_t *random_keys(size_t n, uint64_t seed)
{
    uint64_t *k = equiv_keys(n, seed);
    cr_assert_not_null(k);
    return k;
}

/* The registry's ISAs into out[16] as Criterion parameters; without scalar
 * when `vector_only` (comparing the reference with itself proves nothing).
 * Each parameterised test has its own static array. */
static size_t registry_params(int *out, int vector_only)
{
    int all[16];
    const size_t n = sbf_isa_list(all, 16);
    size_t m = 0;
    for (size_t i = 0; i < n && i < 16; i++)
        if (!vector_only || all[i] != SBF_ISA_SCALAR)
            out[m++] = all[i];
    return m;
}

static void skip_unless_available(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s is not compiled in or not supported by this CPU",
                     sbf_isa_name(isa));
}

/* ------------------------------------------------------------------ hash */

static void check_hash(int isa)
{
    skip_unless_available(isa);
    cr_assert_eq(sbf_isa_set(isa), SBF_OK);
    cr_assert_eq(sbf_isa_active(), isa);
    const sbfi_kernels *kt = sbfi_kernels_for(isa);
    cr_assert_not_null(kt);
    cr_assert_eq(kt->isa, isa);

    static const uint32_t seeds[] = { 0, 1, 0x7fffffffu, 0xdeadbeefu };
    const size_t big = 100000;
    uint64_t *keys = random_keys(big, 42);
    uint64_t *h1 = malloc((big + 8) * 8), *h2 = malloc((big + 8) * 8);
    cr_assert(h1 && h2);
    keys[0] = 0;
    keys[1] = UINT64_MAX;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        /* every length 0..70, keys and outputs at every 8-byte offset */
        for (size_t n = 0; n <= 70; n++) {
            const size_t ko = n % 8, ho = (n / 8) % 8;
            for (size_t i = 0; i < n + 2; i++)
                h1[ho + i] = h2[ho + i] = UINT64_C(0x5a5a5a5a5a5a5a5a);
            kt->hash_u64(keys + ko, n, seeds[s], h1 + ho, h2 + ho);
            for (size_t i = 0; i < n; i++) {
                uint64_t r[2];
                sbf_murmur3_x64_128(&keys[ko + i], 8, seeds[s], r);
                cr_assert_eq(h1[ho + i], r[0], "%s seed %u n %zu lane %zu h1",
                             kt->name, seeds[s], n, i);
                cr_assert_eq(h2[ho + i], r[1], "%s seed %u n %zu lane %zu h2",
                             kt->name, seeds[s], n, i);
            }
            /* nothing written past the n outputs */
            cr_assert_eq(h1[ho + n], UINT64_C(0x5a5a5a5a5a5a5a5a), "%s n %zu", kt->name, n);
            cr_assert_eq(h2[ho + n], UINT64_C(0x5a5a5a5a5a5a5a5a), "%s n %zu", kt->name, n);
        }
        /* 1e5 keys through the public entry point */
        sbf_murmur3_x64_128_u64(keys + 1, big, seeds[s], h1, h2);
        for (size_t i = 0; i < big; i++) {
            uint64_t a, b;
            sbfi_murmur3_u64(keys[1 + i], seeds[s], &a, &b);
            if (h1[i] != a || h2[i] != b)
                cr_assert_fail("%s seed %u key %zu differs", kt->name, seeds[s], i);
        }
    }
    free(keys);
    free(h1);
    free(h2);
}

ParameterizedTestParameters(isa, hash)
{
    static int isas[16];
    const size_t n = registry_params(isas, 0);
    return cr_make_param_array(int, isas, n);
}
ParameterizedTest(int *isa, isa, hash, .description = "each ISA's batched murmur3 (scalar: the batch) equals the one-key hash") { check_hash(*isa); }

/* ----------------------------------------------------------- equivalence */

static sbf_filter *make(int isa, const geometry *g)
{
    sbf_filter *f = NULL;
    const int rc = equiv_make(isa, g, &f);
    cr_assert_eq(rc, SBF_OK, "create layout %d k %u bits %llu: %s", g->layout, g->k,
                 (unsigned long long)g->bits, sbf_strerror(rc));
    struct sbf_info info;
    cr_assert_eq(sbf_info(f, &info), SBF_OK);
    cr_assert_eq(info.isa, isa);
    return f;
}

static void same_bytes(const sbf_filter *a, const sbf_filter *b, const char *what,
                       const geometry *g)
{
    cr_assert(equiv_same_bytes(a, b), "%s: filter bytes differ (layout %d k %u bits %llu seed %u)",
              what, g->layout, g->k, (unsigned long long)g->bits, g->seed);
}

/* Same answers (and counts, with and without out) for n probes; present
   keys are also checked one by one. */
static void same_answers(const sbf_filter *ref, const sbf_filter *f,
                         const uint64_t *probe, size_t n, int must_be_present,
                         const geometry *g)
{
    cr_assert_eq(equiv_same_answers(ref, f, probe, n, must_be_present), 1,
                 "answers or counts differ%s (layout %d k %u bits %llu seed %u)",
                 must_be_present ? ", or a false negative" : "", g->layout, g->k,
                 (unsigned long long)g->bits, g->seed);
    if (must_be_present)
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(sbf_contains(f, &probe[i], 8), 1);
}

/* Batches of every length 0..70, at every 8-byte offset from a line. */
static void check_batches(int isa, const geometry *g)
{
    sbf_filter *ref = make(SBF_ISA_SCALAR, g), *f = make(isa, g);
    const size_t total = 71 * 70 / 2;
    uint64_t *keys = random_keys(total + 8, g->seed + g->k + (uint64_t)g->layout * 1000);
    uint64_t *absent = random_keys(total + 8, 7777);
    size_t at = 0;
    for (size_t n = 0; n <= 70; n++) {
        const size_t off = n % 8;
        /* copy so the batch starts `off` words past a cache line */
        uint64_t *buf = aligned_alloc(64, ((n + 8) * 8 + 63) / 64 * 64);
        cr_assert_not_null(buf);
        memcpy(buf + off, keys + at, n * 8);
        cr_assert_eq(sbf_add_u64(ref, buf + off, n), SBF_OK);
        cr_assert_eq(sbf_add_u64(f, buf + off, n), SBF_OK);
        same_bytes(ref, f, "batch add", g);
        same_answers(ref, f, buf + off, n, 1, g);
        memcpy(buf + off, absent + at, n * 8);
        same_answers(ref, f, buf + off, n, 0, g);
        free(buf);
        at += n;
    }
    same_answers(ref, f, absent, total, 0, g);
    free(keys);
    free(absent);
    sbf_free(ref);
    sbf_free(f);
}

/* Many keys in one call, then probes of a disjoint set. */
static void check_bulk(int isa, const geometry *g, size_t n)
{
    sbf_filter *ref = make(SBF_ISA_SCALAR, g), *f = make(isa, g);
    uint64_t *keys = random_keys(n, 1 + g->seed * 31 + g->k);
    uint64_t *absent = random_keys(n, 99 + g->k);
    cr_assert_eq(sbf_add_u64(ref, keys, n), SBF_OK);
    cr_assert_eq(sbf_add_u64(f, keys, n), SBF_OK);
    same_bytes(ref, f, "bulk add", g);
    same_answers(ref, f, keys, n, 1, g);
    same_answers(ref, f, absent, n, 0, g);
    /* odd offsets and lengths */
    same_answers(ref, f, absent + 3, n - 5, 0, g);
    free(keys);
    free(absent);
    sbf_free(ref);
    sbf_free(f);
}

static const geometry small_geoms[] = {
    { SBF_CLASSIC, 7, 64 * 1001, 0 },
    { SBF_CLASSIC, 3, 64 * 13, 12345 },
    { SBF_BLOCKED, 1, 512 * 37, 0 },
    { SBF_BLOCKED, 5, 512 * 37, 9 },
    { SBF_BLOCKED, 8, 512 * 64, 0 },
    { SBF_BLOCKED, 9, 512 * 21, 0x7fffffffu },
    { SBF_BLOCKED, 16, 512 * 3, 0 },
    { SBF_SPLIT_BLOCK, 8, 256 * 41, 0 },
    { SBF_SPLIT_BLOCK, 8, 256 * 3, 77 },
    { SBF_SPLIT_BLOCK, 16, 512 * 41, 0 },
    { SBF_SPLIT_BLOCK, 16, 512 * 2, 5 },
    { SBF_COUNTING, 1, 512 * 10, 0 },
    { SBF_COUNTING, 6, 512 * 40, 3 },
    { SBF_COUNTING, 13, 512 * 2, 0 },  /* saturates: every counter reaches 15 */
    { SBF_COUNTING, 16, 512 * 100, 0xffffffffu },
    /* the XXH3 layouts: the same kernels on the XXH3 stage */
    { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 41, 0 },
    { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 41, 5 },
    { SBF_BLOCKED_XXH3, 1, 512 * 37, 0 },
    { SBF_BLOCKED_XXH3, 9, 512 * 21, 0x7fffffffu },
    { SBF_COUNTING_XXH3, 6, 512 * 40, 3 },
    { SBF_COUNTING_XXH3, 13, 512 * 2, 0 },
    /* the fmix layouts */
    { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 41, 0 },
    { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 32, 5 },
    { SBF_BLOCKED_FMIX, 1, 512 * 37, 0 },
    { SBF_BLOCKED_FMIX, 9, 512 * 16, 0x7fffffffu },
};

/* One-key calls of 8-byte keys against the scalar reference: adds (their
 * returns and the bytes), then queries of present and absent keys, on
 * power-of-two block counts (where a block could be one shift of h1) and
 * others. */
static void check_one_key(int isa, const geometry *g)
{
    sbf_filter *ref = make(SBF_ISA_SCALAR, g), *f = make(isa, g);
    uint64_t *keys = random_keys(3000, g->seed + 4242);
    for (size_t i = 0; i < 1000; i++)
        cr_assert_eq(sbf_add(f, &keys[i], 8), sbf_add(ref, &keys[i], 8),
                     "one-key add %zu (layout %d bits %llu)", i, g->layout,
                     (unsigned long long)g->bits);
    same_bytes(ref, f, "one-key add", g);
    size_t hits = 0;
    for (size_t i = 0; i < 3000; i++) {
        const int a = sbf_contains(f, &keys[i], 8);
        cr_assert_eq(a, sbf_contains(ref, &keys[i], 8), "one-key contains %zu (layout %d)", i,
                     g->layout);
        hits += (size_t)a;
    }
    cr_assert_lt(hits, 2900u, "the probes must include negatives");
    /* other lengths: the entries' out-of-line half (1..24 bytes of the
     * same keys), adds then queries */
    for (size_t i = 0; i < 300; i++) {
        const size_t len = 1 + i % 24;
        const unsigned char *p = (const unsigned char *)&keys[i];
        cr_assert_eq(sbf_add(f, p, len), sbf_add(ref, p, len), "add of %zu bytes (layout %d)",
                     len, g->layout);
    }
    same_bytes(ref, f, "one-key add of other lengths", g);
    for (size_t i = 0; i < 600; i++) {
        const size_t len = 1 + (i * 7) % 24;
        const unsigned char *p = (const unsigned char *)&keys[i];
        cr_assert_eq(sbf_contains(f, p, len), sbf_contains(ref, p, len),
                     "contains of %zu bytes (layout %d)", len, g->layout);
    }
    free(keys);
    sbf_free(ref);
    sbf_free(f);
}

static const geometry one_key_geoms[] = {
    { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 1024, 3 },   { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 1000, 3 },
    { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 512, 0 },   { SBF_BLOCKED_XXH3, 7, 512 * 512, 9 },
    { SBF_BLOCKED_XXH3, 7, 512 * 500, 9 },        { SBF_BLOCKED, 7, 512 * 512, 1 },
    { SBF_SPLIT_BLOCK, 8, 256 * 1024, 1 },        { SBF_SPLIT_BLOCK, 8, 256 * 1000, 1 },
    { SBF_COUNTING_XXH3, 7, 512 * 512, 5 },
    { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 1024, 3 },   { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 1000, 3 },
    { SBF_BLOCKED_FMIX, 7, 512 * 512, 9 },        { SBF_BLOCKED_FMIX, 7, 512 * 500, 9 },
    /* the split family's entries with the geometry a constant (split_key):
     * k = 8 and 16, every hash, 2^j blocks and not; MurmurHash3's also with
     * the vector 8-byte hash (check_isa runs these in both forms) */
    { SBF_SPLIT_BLOCK, 16, 512 * 512, 2 },        { SBF_SPLIT_BLOCK, 16, 512 * 500, 2 },
    { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 500, 6 },
    { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 512, 4 },   { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 500, 4 },
};

static void check_isa(int isa)
{
    skip_unless_available(isa);
    for (size_t i = 0; i < sizeof small_geoms / sizeof small_geoms[0]; i++) {
        check_batches(isa, &small_geoms[i]);
        check_bulk(isa, &small_geoms[i], 5000);
    }
    for (size_t i = 0; i < sizeof one_key_geoms / sizeof one_key_geoms[0]; i++)
        check_one_key(isa, &one_key_geoms[i]);
    /* MurmurHash3's 8-byte hash in both forms (sbfi_bind's mode: plain or
     * SBFI_MODE_HASH8_VEC), the reference the same either way */
    for (int vec = 0; vec <= 1; vec++) {
        sbfi_hash8_vec_force(vec);
        for (size_t i = 0; i < sizeof one_key_geoms / sizeof one_key_geoms[0]; i++)
            if (sbfi_layout_of(one_key_geoms[i].layout)->hash == SBFI_HASH_MURMUR3)
                check_one_key(isa, &one_key_geoms[i]);
    }
    sbfi_hash8_vec_force(-1);
    for (uint32_t k = 1; k <= 16; k++) {
        const geometry b = { SBF_BLOCKED, k, 512 * 50, k * 3 };
        const geometry c = { SBF_COUNTING, k, 512 * 50, 0 };
        const geometry x = { SBF_BLOCKED_XXH3, k, 512 * 50, k * 5 };
        check_bulk(isa, &b, 3000);
        check_bulk(isa, &c, 3000);
        check_bulk(isa, &x, 3000);
        /* one-key adds with k a constant (the add_key_k entries of the
         * blocked and counting families): every k, every hash, 2^j blocks
         * and not */
        const geometry one[] = {
            { SBF_BLOCKED, k, 512 * 64, k * 7 },
            { SBF_BLOCKED_XXH3, k, 512 * 64, k * 11 },
            { SBF_BLOCKED_XXH3, k, 512 * 50, k * 13 },
            { SBF_BLOCKED_FMIX, k, 512 * 64, k * 17 },
            { SBF_BLOCKED_FMIX, k, 512 * 50, k * 19 },
            { SBF_COUNTING, k, 512 * 64, k * 23 },
            { SBF_COUNTING_XXH3, k, 512 * 64, k * 29 },
            { SBF_COUNTING_XXH3, k, 512 * 50, k * 31 },
        };
        for (size_t g = 0; g < sizeof one / sizeof one[0]; g++)
            check_one_key(isa, &one[g]);
    }
}

static void check_isa_large(int isa)
{
    skip_unless_available(isa);
    const size_t n = 1000000;
    const geometry g[] = {
        { SBF_CLASSIC, 7, 64 * 150000, 0 },
        { SBF_BLOCKED, 8, 512 * 20000, 0 },
        { SBF_BLOCKED, 16, 512 * 4000, 11 }, /* dense: many maybes */
        { SBF_SPLIT_BLOCK, 8, 256 * 40000, 0 },
        { SBF_SPLIT_BLOCK, 16, 512 * 20000, 3 },
        { SBF_COUNTING, 7, 512 * 60000, 0 },
        { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 40000, 0 },
        { SBF_BLOCKED_XXH3, 8, 512 * 20000, 7 },
        { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 40000, 0 },
        { SBF_BLOCKED_FMIX, 8, 512 * 16384, 7 },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
        check_bulk(isa, &g[i], n);
}

ParameterizedTestParameters(isa, equiv)
{
    static int isas[16];
    const size_t n = registry_params(isas, 1);
    return cr_make_param_array(int, isas, n);
}
ParameterizedTest(int *isa, isa, equiv, .description = "each vector ISA's kernels equal scalar: bytes and answers, all layouts, batches 0..70") { check_isa(*isa); }

ParameterizedTestParameters(isa, equiv_1e6)
{
    static int isas[16];
    const size_t n = registry_params(isas, 1);
    return cr_make_param_array(int, isas, n);
}
ParameterizedTest(int *isa, isa, equiv_1e6, .description = "each vector ISA equals scalar on 1e6 keys, every layout") { check_isa_large(*isa); }

/* The kernels themselves accept n = 0 and never touch out then. */
Test(isa, empty_batches, .description = "every compiled kernel accepts n = 0") {
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n; i++) {
        const int isa = isas[i];
        if (!sbf_isa_available(isa))
            continue;
        const sbfi_kernels *kt = sbfi_kernels_for(isa);
        for (int layout = SBF_CLASSIC; layout <= SBF_BLOCKED_FMIX; layout++) {
            if (layout == SBF_PARQUET)
                continue;
            const int split = sbfi_layout_of(layout)->kernel == SBFI_KERN_SPLIT;
            const geometry g = { layout, split ? 8 : 4, 512 * 4, 0 };
            sbf_filter *f = make(isa, &g);
            uint64_t key = 1;
            uint8_t out = 0xee;
            const sbfi_layout *d = sbfi_layout_of(layout);
            const sbfi_ops *o = (*kt->ops)[d->hash][d->kernel][SBFI_MODE_PLAIN];
            { const sbfi_keys none = { .kind = SBFI_KEYS_U64, .u64 = &key }; o->add_batch(f, &none, 0, &out);
            cr_assert_eq(o->contains_batch(f, &none, 0, &out), 0); }
            cr_assert_eq(out, 0xee);
            cr_assert_eq(sbf_contains_u64(f, &key, 1, &out), 0);
            cr_assert_eq(out, 0);
            sbf_free(f);
        }
    }
}

/* ---------------------------------------------------------- ISA control */

Test(isa, names, .description = "ISA names round-trip; unknown names and numbers are errors") {
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    cr_assert_eq(n, 5, "scalar, simde, avx2, avx512, neon are known to every build");
    cr_assert_eq(sbf_isa_from_name(sbf_isa_name(SBF_ISA_AUTO)), SBF_ISA_AUTO);
    cr_assert_str_eq(sbf_isa_name(SBF_ISA_AUTO), "auto");
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(sbf_isa_from_name(sbf_isa_name(isas[i])), isas[i]);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(sbf_isa_name(isas[i]), sbf_isa_name(isas[j]));
    }
    for (int isa = SBF_ISA_AUTO; isa <= SBF_ISA_NEON; isa++)
        cr_assert_eq(sbf_isa_from_name(sbf_isa_name(isa)), isa);
    cr_assert_str_eq(sbf_isa_name(-1), "unknown");
    cr_assert_str_eq(sbf_isa_name(6), "unknown");
    cr_assert_eq(sbf_isa_from_name(NULL), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_from_name(""), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_from_name("AVX2"), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_from_name("sse2"), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_set(-1), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_set(6), SBF_E_ISA_UNKNOWN);
    cr_assert_eq(sbf_isa_set(1000), SBF_E_ISA_UNKNOWN);
}

Test(isa, availability, .description = "scalar and auto are always available; tables match their ISA") {
    cr_assert_eq(sbf_isa_available(SBF_ISA_AUTO), 1);
    cr_assert_eq(sbf_isa_available(SBF_ISA_SCALAR), 1);
    cr_assert_eq(sbf_isa_available(-1), 0);
    cr_assert_eq(sbf_isa_available(42), 0);
    size_t n;
    const sbfi_kernels *const *reg = sbfi_registry(&n);
    cr_assert_eq(n, sbf_isa_list(NULL, 0));
    for (size_t i = 0; i < n; i++) {
        const int isa = reg[i]->isa;
        cr_assert_str_eq(reg[i]->name, sbf_isa_name(isa));
        const sbfi_kernels *kt = sbfi_kernels_for(isa);
        if (kt == NULL) {
            /* a placeholder: a name and features, no kernels */
            cr_assert_null(reg[i]->hash_u64);
            cr_assert_null(reg[i]->ops);
            cr_assert_eq(sbf_isa_available(isa), 0);
            continue;
        }
        cr_assert_eq(kt, reg[i]);
        cr_assert_eq(kt->isa, isa);
        cr_assert_str_eq(kt->name, sbf_isa_name(isa));
        cr_assert_not_null(kt->hash_u64);
        cr_assert_not_null(kt->ops);
    }
#if defined(__x86_64__)
    cr_assert_eq(sbf_isa_available(SBF_ISA_NEON), 0);
#elif defined(__aarch64__)
    cr_assert_eq(sbf_isa_available(SBF_ISA_AVX2), 0);
    cr_assert_eq(sbf_isa_available(SBF_ISA_AVX512), 0);
#endif
}

Test(isa, forcing_unavailable, .description = "forcing an ISA this CPU lacks is SBF_E_ISA_UNAVAILABLE, choice unchanged") {
    int missing = -1, isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n; i++)
        if (!sbf_isa_available(isas[i]))
            missing = isas[i];
    if (missing < 0)
        cr_skip_test("every ISA is available here");
    cr_assert_eq(sbf_isa_set(SBF_ISA_SCALAR), SBF_OK);
    cr_assert_eq(sbf_isa_set(missing), SBF_E_ISA_UNAVAILABLE);
    cr_assert_eq(sbf_isa_active(), SBF_ISA_SCALAR, "a refused choice changes nothing");
    /* through the environment: sbf_create fails with the code */
    cr_assert_eq(setenv("SBF_ISA", sbf_isa_name(missing), 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), SBF_E_ISA_UNAVAILABLE);
    sbf_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.expected_n = 100;
    p.fpp = 0.01;
    sbf_filter *f = (sbf_filter *)(uintptr_t)64; /* must be reset to NULL */
    cr_assert_eq(sbf_create(&f, &p), SBF_E_ISA_UNAVAILABLE);
    cr_assert_null(f);
    /* the batched hash still answers (scalar reference) */
    uint64_t key = 5, h1 = 0, h2 = 0, r[2];
    sbf_murmur3_x64_128_u64(&key, 1, 0, &h1, &h2);
    sbf_murmur3_x64_128(&key, 8, 0, r);
    cr_assert(h1 == r[0] && h2 == r[1]);
    /* an explicit choice overrides the environment */
    cr_assert_eq(sbf_isa_set(SBF_ISA_SCALAR), SBF_OK);
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    sbf_free(f);
    unsetenv("SBF_ISA");
}

#if defined(__x86_64__)
Test(isa, neon_on_x86, .description = "neon on x86: sbf_isa_set and sbf_create give SBF_E_ISA_UNAVAILABLE") {
    cr_assert_eq(sbf_isa_set(SBF_ISA_NEON), SBF_E_ISA_UNAVAILABLE);
    cr_assert_eq(setenv("SBF_ISA", "neon", 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    sbf_params p = { 0 };
    p.layout = SBF_CLASSIC;
    p.expected_n = 10;
    p.fpp = 0.01;
    sbf_filter *f = NULL;
    cr_assert_eq(sbf_create(&f, &p), SBF_E_ISA_UNAVAILABLE);
    cr_assert_null(f);
    unsetenv("SBF_ISA");
}
#endif

/* An environment variable of the dispatch set to a value it does not know:
 * SBF_E_ISA_UNKNOWN from sbf_isa_active and from sbf_create, no filter.
 * The variable stays set (the caller unsets it). */
static void expect_env_refused(const char *var, const char *value, int layout)
{
    cr_assert_eq(setenv(var, value, 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), SBF_E_ISA_UNKNOWN, "%s=%s", var, value);
    sbf_params p = { 0 };
    p.layout = layout;
    p.expected_n = 10;
    p.fpp = 0.01;
    sbf_filter *f = NULL;
    cr_assert_eq(sbf_create(&f, &p), SBF_E_ISA_UNKNOWN, "%s=%s", var, value);
    cr_assert_null(f);
}

Test(isa, env_unknown, .description = "SBF_ISA with an unknown name: SBF_E_ISA_UNKNOWN from sbf_isa_active and sbf_create") {
    expect_env_refused("SBF_ISA", "avx1024", SBF_SPLIT_BLOCK);
    unsetenv("SBF_ISA");
}

Test(isa, env_probe_unknown, .description = "SBF_PROBE with an unknown form: SBF_E_ISA_UNKNOWN from sbf_isa_active and sbf_create; narrow, wide, auto accepted") {
    expect_env_refused("SBF_PROBE", "sideways", SBF_BLOCKED);
    static const char *const ok[] = { "narrow", "wide", "auto", "" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_assert_eq(setenv("SBF_PROBE", ok[i], 1), 0);
        cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
        cr_assert_geq(sbf_isa_active(), 0, "SBF_PROBE=%s", ok[i]);
        sbfi_probe8_force(-1); /* what detection makes of it */
        if (i < 2)
            cr_assert_eq(sbfi_probe8(), i == 0, "SBF_PROBE=%s", ok[i]);
    }
    unsetenv("SBF_PROBE");
    sbfi_probe8_force(-1);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
}

/* The best ISA this build and CPU have: the first available one of the
 * registry (whose order the test `priority` pins). */
static int best_available(void)
{
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n; i++)
        if (sbf_isa_available(isas[i]))
            return isas[i];
    return SBF_ISA_SCALAR;
}

Test(isa, priority, .description = "the registry's order: avx512, avx2, neon, simde, scalar; sbf_isa_list honours cap") {
    static const int want[] = { SBF_ISA_AVX512, SBF_ISA_AVX2, SBF_ISA_NEON,
                                SBF_ISA_SIMDE, SBF_ISA_SCALAR };
    int got[8];
    for (size_t i = 0; i < 8; i++)
        got[i] = -100;
    cr_assert_eq(sbf_isa_list(NULL, 0), 5);
    cr_assert_eq(sbf_isa_list(NULL, 3), 5);
    cr_assert_eq(sbf_isa_list(got, 2), 5);
    cr_assert_eq(got[0], SBF_ISA_AVX512);
    cr_assert_eq(got[1], SBF_ISA_AVX2);
    cr_assert_eq(got[2], -100, "nothing past cap");
    cr_assert_eq(sbf_isa_list(got, 8), 5);
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(got[i], want[i], "position %zu", i);
    cr_assert_eq(got[5], -100);
    /* a better ISA needs everything a worse one of its family needs */
    size_t n;
    const sbfi_kernels *const *reg = sbfi_registry(&n);
    cr_assert_eq(reg[0]->features & reg[1]->features, reg[1]->features,
                 "avx512 requires what avx2 requires");
    cr_assert_eq(reg[n - 1]->features, 0u, "scalar runs everywhere");
    cr_assert(sbf_isa_available(SBF_ISA_AVX512) <= sbf_isa_available(SBF_ISA_AVX2) ||
              sbfi_kernels_for(SBF_ISA_AVX2) == NULL);
}

Test(isa, hash_when_choice_is_error, .description = "sbf_murmur3_x64_128_u64 under an unknown or unavailable SBF_ISA: the scalar reference's values") {
    static const char *const bad[] = { "avx1024", "neon", "avx512" };
    uint64_t keys[37], h1[37], h2[37];
    for (size_t i = 0; i < 37; i++)
        keys[i] = (uint64_t)i * UINT64_C(0x9e3779b97f4a7c15);
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        const int isa = sbf_isa_from_name(bad[b]);
        if (isa > 0 && sbf_isa_available(isa))
            continue; /* not an error on this machine */
        cr_assert_eq(setenv("SBF_ISA", bad[b], 1), 0);
        cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
        cr_assert_lt(sbf_isa_active(), 0, "SBF_ISA=%s is an error", bad[b]);
        memset(h1, 0, sizeof h1);
        memset(h2, 0, sizeof h2);
        sbf_murmur3_x64_128_u64(keys, 37, 7, h1, h2);
        for (size_t i = 0; i < 37; i++) {
            uint64_t r[2];
            sbf_murmur3_x64_128(&keys[i], 8, 7, r);
            cr_assert(h1[i] == r[0] && h2[i] == r[1], "SBF_ISA=%s key %zu", bad[b], i);
        }
    }
    unsetenv("SBF_ISA");
}

Test(isa, env_forces, .description = "SBF_ISA=<name> forces each available ISA; auto/empty/unset detect") {
    int isas[16];
    const size_t nisa = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < nisa; i++) {
        const int isa = isas[i];
        if (!sbf_isa_available(isa))
            continue;
        cr_assert_eq(setenv("SBF_ISA", sbf_isa_name(isa), 1), 0);
        cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
        cr_assert_eq(sbf_isa_active(), isa, "SBF_ISA=%s", sbf_isa_name(isa));
        sbf_params p = { 0 };
        p.layout = SBF_BLOCKED;
        p.expected_n = 10;
        p.fpp = 0.01;
        sbf_filter *f = NULL;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK);
        struct sbf_info info;
        cr_assert_eq(sbf_info(f, &info), SBF_OK);
        cr_assert_eq(info.isa, isa);
        sbf_free(f);
    }
    const int best = best_available();
    cr_assert_eq(setenv("SBF_ISA", "auto", 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), best);
    cr_assert_eq(setenv("SBF_ISA", "", 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), best);
    cr_assert_eq(unsetenv("SBF_ISA"), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), best);
}

Test(isa, env_read_once, .description = "the environment is read once per resolution") {
    cr_assert_eq(setenv("SBF_ISA", "scalar", 1), 0);
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), SBF_ISA_SCALAR);
    cr_assert_eq(setenv("SBF_ISA", "avx1024", 1), 0);
    cr_assert_eq(sbf_isa_active(), SBF_ISA_SCALAR, "cached until re-resolved");
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    cr_assert_eq(sbf_isa_active(), SBF_E_ISA_UNKNOWN);
    unsetenv("SBF_ISA");
}

Test(isa, existing_filters_keep_kernels, .description = "changing the ISA leaves existing filters on their kernels") {
    const int best = best_available();
    cr_assert_eq(sbf_isa_set(best), SBF_OK);
    sbf_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.expected_n = 1000;
    p.fpp = 0.01;
    sbf_filter *f = NULL;
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    cr_assert_eq(sbf_isa_set(SBF_ISA_SCALAR), SBF_OK);
    struct sbf_info info;
    cr_assert_eq(sbf_info(f, &info), SBF_OK);
    cr_assert_eq(info.isa, best);
    uint64_t keys[100];
    for (int i = 0; i < 100; i++)
        keys[i] = (uint64_t)i * 7919;
    cr_assert_eq(sbf_add_u64(f, keys, 100), SBF_OK);
    cr_assert_eq(sbf_contains_u64(f, keys, 100, NULL), 100);
    sbf_free(f);
}
