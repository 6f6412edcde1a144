/*
 * The one batch pipeline (simd/pipeline.h): every key form (u64, pointer +
 * length, Arrow-style data + 64- or 32-bit offsets), plain and
 * SBF_CONCURRENT, on every ISA, gives the filter bytes and answers of
 * sbf_add / sbf_contains key by key; sbf_add_keys counts exactly the keys
 * whose sbf_add would return 1 and, asked, says which (changed[i] = that
 * return); the XXH64 hash stage (the parquet layout's) and the XXH3
 * stage (the XXH3 layouts') map every key as sbfi_xxh64_pair says; and every refused argument is
 * refused before anything changes.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "sbf_internal.h"
#include "equiv.h"

/* String keys: lengths 0..64 (every tail length, every body count up to
 * four blocks), bytes from a generator; packed back to back in `data`.
 * With dup, key i is a copy of key i - 1 when i % 9 == 1. */
typedef struct strs {
    size_t n;
    unsigned char *data;
    uint64_t *off;      /* n + 1, starting at `skew` (a sliced Arrow array) */
    uint32_t *off32;
    const void **ptr;
    size_t *len;
} strs;

static void strs_make_max(strs *s, size_t n, uint64_t seed, size_t skew, int dup, size_t max);

static void strs_make(strs *s, size_t n, uint64_t seed, size_t skew, int dup)
{
    strs_make_max(s, n, seed, skew, dup, 64);
}

/* The same with lengths 0..max. */
static void strs_make_max(strs *s, size_t n, uint64_t seed, size_t skew, int dup, size_t max)
{
    s->n = n;
    s->off = malloc((n + 1) * sizeof *s->off);
    s->off32 = malloc((n + 1) * sizeof *s->off32);
    s->ptr = malloc((n + 1) * sizeof *s->ptr);
    s->len = malloc((n + 1) * sizeof *s->len);
    s->data = malloc(skew + n * max + 1);
    cr_assert(s->off && s->off32 && s->ptr && s->len && s->data);
    uint64_t at = skew;
    for (size_t i = 0; i < n; i++) {
        s->off[i] = at;
        const size_t len = dup && i % 9 == 1 ? (size_t)(at - s->off[i - 1])
                                             : (size_t)(equiv_splitmix(&seed) % (max + 1));
        for (size_t b = 0; b < len; b++)
            s->data[at + b] = dup && i % 9 == 1 ? s->data[s->off[i - 1] + b]
                                                : (unsigned char)equiv_splitmix(&seed);
        at += len;
    }
    s->off[n] = at;
    for (size_t i = 0; i <= n; i++)
        s->off32[i] = (uint32_t)s->off[i];
    for (size_t i = 0; i < n; i++) {
        s->ptr[i] = s->data + s->off[i];
        s->len[i] = (size_t)(s->off[i + 1] - s->off[i]);
    }
}

static void strs_free(strs *s)
{
    free(s->data);
    free(s->off);
    free(s->off32);
    free(s->ptr);
    free(s->len);
}

static int registry_params(int *out)
{
    int all[16];
    const size_t n = sbf_isa_list(all, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        out[i] = all[i];
    return (int)n;
}

static const geometry geoms[] = {
    { SBF_CLASSIC, 7, 64 * 3001, 0 },
    { SBF_BLOCKED, 7, 512 * 97, 1 },
    { SBF_BLOCKED, 16, 512 * 33, 0 },
    { SBF_SPLIT_BLOCK, 8, 256 * 101, 5 },
    { SBF_SPLIT_BLOCK, 16, 512 * 50, 0 },
    { SBF_COUNTING, 5, 512 * 64, 9 },
    { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 101, 5 },
    { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 50, 0 },
    { SBF_BLOCKED_XXH3, 7, 512 * 97, 0xffffffffu },
    { SBF_COUNTING_XXH3, 5, 512 * 64, 9 },
    { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 101, 5 },
    { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 64, 0 },
    { SBF_BLOCKED_FMIX, 7, 512 * 97, 0xffffffffu },
};

static sbf_filter *make(int isa, const geometry *g, uint32_t flags)
{
    sbf_params p = { .layout = g->layout, .bits = g->bits, .k = g->k, .seed = g->seed,
                     .flags = flags };
    sbf_filter *f = NULL;
    cr_assert_eq(sbf_isa_set(isa), SBF_OK);
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    return f;
}

/* The forms of keys [at, at + n) of s (u64: the u64 keys instead). */
static sbf_keys form(const strs *s, const uint64_t *u, int which, size_t at, size_t n)
{
    sbf_keys k = { .n = n };
    switch (which) {
    case 0: k.u64 = u + at; break;
    case 1: k.ptrs = s->ptr + at; k.lens = s->len + at; break;
    case 2: k.data = s->data; k.offsets = s->off + at; break;
    default: k.data = s->data; k.offsets32 = s->off32 + at; break;
    }
    return k;
}

/* One (ISA, geometry, flags): a reference filter built key by key with
 * sbf_add on the scalar ISA, then every form in batches of 0..70 keys and
 * one of 1000, on this ISA; bytes, the changed counts, the per-key changed
 * bytes (every other batch asks for them: both instances of the add run)
 * and the answers. Each key set is added twice over (the second pass of
 * keys already present, and the first has keys repeated within a batch), so
 * changed holds 0s and 1s in every batch. */
static void check_forms(int isa, const geometry *g, uint32_t flags)
{
    const size_t n = 1500;
    strs s;
    strs_make(&s, n, 42 + g->layout, 3, 1); /* repeats inside a batch */
    uint64_t *u = equiv_keys(n, 7 + g->layout);
    for (size_t i = 1; i < n; i += 9)
        u[i] = u[i - 1];
    uint8_t *want1 = malloc(n), *changed = malloc(n + 1);
    cr_assert(want1 && changed);
    for (int which = 0; which < 4; which++) {
        sbf_filter *ref = make(SBF_ISA_SCALAR, g, 0);
        sbf_filter *f = make(isa, g, flags);
        size_t at = 0, len = 0, ones = 0, zeros = 0;
        while (at < 2 * n) { /* every key twice */
            const size_t m = len <= 70 ? len : 1000, from = at % n;
            const size_t take = m < n - from ? m : n - from;
            size_t want = 0;
            for (size_t i = from; i < from + take; i++) {
                want1[i] = (uint8_t)(which == 0 ? sbf_add(ref, &u[i], 8)
                                                : sbf_add(ref, s.ptr[i], s.len[i]));
                want += want1[i];
            }
            const sbf_keys k = form(&s, u, which, from, take);
            const int ask = len % 2 == 1;
            memset(changed, 0xee, take + 1);
            const size_t got = sbf_add_keys(f, &k, ask ? changed : NULL);
            cr_assert_eq(got, want, "%s layout %d form %d batch %zu at %zu: %zu changed, %zu by sbf_add",
                         sbf_isa_name(isa), g->layout, which, take, at, got, want);
            for (size_t i = 0; ask && i < take; i++) {
                cr_assert_eq(changed[i], want1[from + i], "%s layout %d form %d batch %zu at "
                             "%zu: key %zu changed %u, sbf_add %u", sbf_isa_name(isa), g->layout,
                             which, take, at, i, changed[i], want1[from + i]);
                ones += changed[i];
                zeros += !changed[i];
            }
            cr_assert_eq(changed[ask ? take : 0], 0xee, "written past the batch, or without asking");
            at += take;
            len++;
        }
        cr_assert(ones > 100 && zeros > 100, "changed saw %zu ones, %zu zeros", ones, zeros);
        cr_assert(equiv_same_bytes(ref, f), "%s layout %d form %d: bytes differ",
                  sbf_isa_name(isa), g->layout, which);
        /* answers: the added keys (all present) and other keys */
        strs q;
        strs_make(&q, 700, 1000 + (uint64_t)which, 0, 0);
        uint64_t *v = equiv_keys(700, 99);
        uint8_t out[700];
        for (int half = 0; half < 2; half++) {
            const strs *src = half ? &q : &s;
            const uint64_t *uk = half ? v : u;
            const sbf_keys k = form(src, uk, which, 0, 700);
            memset(out, 0xee, sizeof out);
            const size_t hits = sbf_contains_keys(f, &k, out);
            size_t want = 0;
            for (size_t i = 0; i < 700; i++) {
                const int r = which == 0 ? sbf_contains(ref, &uk[i], 8)
                                         : sbf_contains(ref, src->ptr[i], src->len[i]);
                cr_assert_eq(out[i], r, "%s layout %d form %d key %zu", sbf_isa_name(isa),
                             g->layout, which, i);
                cr_assert(half || r == 1, "a false negative");
                want += (size_t)r;
            }
            cr_assert_eq(hits, want);
            cr_assert_eq(sbf_contains_keys(f, &k, NULL), want);
        }
        strs_free(&q);
        free(v);
        sbf_free(ref);
        sbf_free(f);
    }
    free(want1);
    free(changed);
    strs_free(&s);
    free(u);
}

ParameterizedTestParameters(batch, forms)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, forms, .description = "every key form, plain: sbf_add's bytes, answers and changed counts, every layout") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        check_forms(*isa, &geoms[i], 0);
}

ParameterizedTestParameters(batch, forms_concurrent)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, forms_concurrent, .description = "every key form, SBF_CONCURRENT (one thread): the same bytes, answers and changed counts") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        check_forms(*isa, &geoms[i], SBF_CONCURRENT);
}

/* The AVX-512 batch queries of blocked and counting filters with k <= 8
 * take one of two forms, chosen from the CPU (sbfi_probe8: 8 lanes on
 * Intel, 16 on AMD); this CPU runs one of them by itself, so each is forced
 * here, at every k of the narrow form and one past it, plain and
 * SBF_CONCURRENT. */
static void check_probe_form(int narrow)
{
    if (!sbf_isa_available(SBF_ISA_AVX512))
        cr_skip_test("avx512 not available here");
    sbfi_probe8_force(narrow);
    cr_assert_eq(sbfi_probe8(), narrow);
    static const int lays[] = { SBF_BLOCKED, SBF_COUNTING, SBF_BLOCKED_XXH3,
                                SBF_COUNTING_XXH3, SBF_BLOCKED_FMIX };
    for (size_t l = 0; l < sizeof lays / sizeof lays[0]; l++)
        for (uint32_t k = 1; k <= 9; k++) {
            if (l > 1 && k != 3 && k != 8) /* the other hashes: two k */
                continue;
            const geometry g = { lays[l], k, 512 * (uint64_t)(61 + 8 * k), 3 + k };
            check_forms(SBF_ISA_AVX512, &g, 0);
            if (k == 6)
                check_forms(SBF_ISA_AVX512, &g, SBF_CONCURRENT);
        }
    /* past 256 KiB: pipe_probe's prefetching loop, a loop per form */
    for (size_t l = 0; l < 2; l++) {
        const geometry g = { lays[l], 6, 512 * (uint64_t)4801, 11 };
        check_forms(SBF_ISA_AVX512, &g, 0);
    }
    sbfi_probe8_force(-1);
}

Test(batch, avx512_probe_wide, .description = "avx512 batch queries of blocked and counting filters, k 1..9, in 16 lanes equal the reference") { check_probe_form(0); }
Test(batch, avx512_probe_narrow, .description = "avx512 batch queries of blocked and counting filters, k 1..9, in 8 lanes (k <= 8) equal the reference") { check_probe_form(1); }

/* ------------------------------------------------------ the XXH64 stage */

/* The bits the XXH64 stage must set: the scalar kernels on sbfi_xxh64_pair
 * of sbf_xxh64 of each key (the reference of TEAM.md's mapping). */
static void xxh64_reference(sbf_filter *ref, const strs *s, const uint64_t *u, int which,
                            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t h = which == 0 ? sbf_xxh64(&u[i], 8) : sbf_xxh64(s->ptr[i], s->len[i]);
        uint64_t h1, h2;
        sbfi_xxh64_pair(h, &h1, &h2);
        /* the Parquet spec's block ((h >> 32) * z) >> 32 and x = (uint32)h in every lane */
        cr_assert_eq(sbfi_block_index(h1, ref->nblocks), ((h >> 32) * ref->nblocks) >> 32);
        for (uint32_t l = 0; l < 8; l++)
            cr_assert_eq(sbfi_lane32(h2, l), (uint32_t)h);
        (void)sbfi_add_hashed(ref, h1, h2);
    }
}

ParameterizedTestParameters(batch, xxh64_stage)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, xxh64_stage, .description = "a layout whose hash is XXH64: every form and sbf_add set the bits of (h & ~0 << 32, (uint32)h * 0x100000001)") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    const geometry g = { SBF_SPLIT_BLOCK, 8, 256 * 77, 0 };
    const size_t n = 600;
    strs s;
    strs_make(&s, n, 5, 0, 0);
    uint64_t *u = equiv_keys(n, 3);
    for (int which = 0; which < 4; which++) {
        sbf_filter *ref = make(SBF_ISA_SCALAR, &g, 0);
        sbf_filter *f = make(*isa, &g, 0), *one = make(*isa, &g, 0);
        f->hash = one->hash = SBFI_HASH_XXH64; /* the parquet layout's stage */
        cr_assert_eq(sbfi_bind(one, 0), SBF_OK);
        xxh64_reference(ref, &s, u, which, n);
        const sbf_keys k = form(&s, u, which, 0, n);
        uint8_t changed[600];
        const size_t got = sbf_add_keys(f, &k, changed);
        size_t want = 0;
        for (size_t i = 0; i < n; i++) {
            const int r = which == 0 ? sbf_add(one, &u[i], 8) : sbf_add(one, s.ptr[i], s.len[i]);
            cr_assert_eq(changed[i], r, "%s form %d key %zu", sbf_isa_name(*isa), which, i);
            want += (size_t)r;
        }
        cr_assert_eq(got, want);
        cr_assert(equiv_same_bytes(ref, f), "%s form %d: batch bits differ",
                  sbf_isa_name(*isa), which);
        cr_assert(equiv_same_bytes(ref, one), "%s form %d: one-key bits differ",
                  sbf_isa_name(*isa), which);
        cr_assert_eq(sbf_contains_keys(f, &k, NULL), n);
        sbf_free(ref);
        sbf_free(f);
        sbf_free(one);
    }
    strs_free(&s);
    free(u);
}

/* ------------------------------------------------------- the XXH3 stage */

/* Byte strings of 0..300 bytes (XXH3's every length class: the lanes' 0-128
 * byte forms and the longer keys finished in scalar code, mixed in every
 * group of 8) in batches of 1..71 keys (every tail of a step), each form:
 * the bits of the scalar reference, and every answer the reference's. */
ParameterizedTestParameters(batch, xxh3_long_strings)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, xxh3_long_strings, .description = "the XXH3 layouts: strings of 0..300 bytes in batches of 1..71 keys set the reference's bits and get its answers") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    const geometry gs[] = {
        { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 61, 11 },
        { SBF_BLOCKED_XXH3, 7, 512 * 37, 0x9747b28cu },
    };
    const size_t n = 907;
    strs s, q;
    strs_make_max(&s, n, 17, 0, 0, 300);
    strs_make_max(&q, n, 18, 3, 0, 300);
    for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; gi++)
        for (int which = 1; which < 4; which++) {
            const geometry *g = &gs[gi];
            sbf_filter *ref = make(SBF_ISA_SCALAR, g, 0), *f = make(*isa, g, 0);
            for (size_t i = 0; i < n; i++) {
                uint64_t h1, h2;
                sbf_parquet_pair(sbf_xxh3_64(s.ptr[i], s.len[i], g->seed), &h1, &h2);
                cr_assert_geq(sbf_add_hash(ref, h1, h2), 0);
            }
            size_t step = 1;
            for (size_t at = 0; at < n; at += step, step = step % 71 + 1) {
                const size_t m = n - at < step ? n - at : step;
                const sbf_keys k = form(&s, NULL, which, at, m);
                cr_assert_geq(sbf_add_keys(f, &k, NULL), 0);
            }
            cr_assert(equiv_same_bytes(ref, f), "%s %s form %d: batch bits differ",
                      sbf_isa_name(*isa), sbf_layout_name(g->layout), which);
            uint8_t out[71];
            step = 5;
            for (size_t at = 0; at < n; at += step, step = step % 71 + 1) {
                const size_t m = n - at < step ? n - at : step;
                const sbf_keys k = form(&q, NULL, which, at, m);
                cr_assert_geq(sbf_contains_keys(f, &k, out), 0);
                for (size_t i = 0; i < m; i++)
                    cr_assert_eq(out[i], sbf_contains(ref, q.ptr[at + i], q.len[at + i]),
                                 "%s form %d key %zu", sbf_isa_name(*isa), which, at + i);
            }
            const sbf_keys all = form(&s, NULL, which, 0, n);
            cr_assert_eq(sbf_contains_keys(f, &all, NULL), n);
            sbf_free(ref);
            sbf_free(f);
        }
    strs_free(&s);
    strs_free(&q);
}


/* A 64-bit stage's layouts (geometries gs): every form and sbf_add set the
 * bits the scalar probes set for sbfi_xxh64_pair of hash(key, len, seed),
 * given through sbf_add_hash; the batch and one-key answers agree. */
typedef uint64_t (*stage_hash_fn)(const void *key, size_t len, uint32_t seed);

static void check_stage(int isa, const geometry *gs, size_t ngs, stage_hash_fn hash)
{
    const size_t n = 600;
    strs s;
    strs_make(&s, n, 6, 0, 0);
    uint64_t *u = equiv_keys(n, 4);
    for (size_t gi = 0; gi < ngs; gi++)
        for (int which = 0; which < 4; which++) {
            const geometry *g = &gs[gi];
            sbf_filter *ref = make(SBF_ISA_SCALAR, g, 0);
            sbf_filter *f = make(isa, g, 0), *one = make(isa, g, 0);
            for (size_t i = 0; i < n; i++) {
                const uint64_t h = which == 0 ? hash(&u[i], 8, g->seed)
                                              : hash(s.ptr[i], s.len[i], g->seed);
                uint64_t h1, h2;
                sbf_parquet_pair(h, &h1, &h2);
                cr_assert_geq(sbf_add_hash(ref, h1, h2), 0);
            }
            const sbf_keys k = form(&s, u, which, 0, n);
            uint8_t changed[600];
            const size_t got = sbf_add_keys(f, &k, changed);
            size_t want = 0;
            for (size_t i = 0; i < n; i++) {
                const int r = which == 0 ? sbf_add(one, &u[i], 8)
                                         : sbf_add(one, s.ptr[i], s.len[i]);
                cr_assert_eq(changed[i], r, "%s form %d key %zu", sbf_isa_name(isa), which, i);
                want += (size_t)r;
            }
            cr_assert_eq(got, want);
            cr_assert(equiv_same_bytes(ref, f), "%s %s form %d: batch bits differ",
                      sbf_isa_name(isa), sbf_layout_name(g->layout), which);
            cr_assert(equiv_same_bytes(ref, one), "%s %s form %d: one-key bits differ",
                      sbf_isa_name(isa), sbf_layout_name(g->layout), which);
            cr_assert_eq(sbf_contains_keys(f, &k, NULL), n);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(which == 0 ? sbf_contains(one, &u[i], 8)
                                        : sbf_contains(one, s.ptr[i], s.len[i]), 1);
            sbf_free(ref);
            sbf_free(f);
            sbf_free(one);
        }
    strs_free(&s);
    free(u);
}

/* The XXH3 layouts: every form and sbf_add set the bits the scalar probes
 * set for sbfi_xxh64_pair of XXH3_64bits_withSeed(key, len, seed)
 * (sbf_xxh3_64), given through sbf_add_hash. */
ParameterizedTestParameters(batch, xxh3_stage)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, xxh3_stage, .description = "the XXH3 layouts: every form and sbf_add set the bits of sbf_add_hash(pair of sbf_xxh3_64(key, len, seed))") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    const geometry gs[] = {
        { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 77, 0 },
        { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 31, 0x9747b28cu },
        { SBF_BLOCKED_XXH3, 11, 512 * 29, 3 },
        { SBF_COUNTING_XXH3, 4, 512 * 40, 1 },
    };
    check_stage(*isa, gs, sizeof gs / sizeof gs[0], sbf_xxh3_64);
}

/* ------------------------------------------------------- the fmix stage */

/* The fmix layouts' h, written out: an 8-byte key fmix64(key ^ s),
 * s = fmix64(seed + 0x9E3779B97F4A7C15); other lengths sbf_xxh3_64. */
static uint64_t fmix64_def(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    return k ^ (k >> 33);
}

static uint64_t fmix_h(const void *key, size_t len, uint32_t seed)
{
    if (len != 8)
        return sbf_xxh3_64(key, len, seed);
    uint64_t x;
    memcpy(&x, key, 8); /* little-endian target */
    return fmix64_def(x ^ fmix64_def((uint64_t)seed + UINT64_C(0x9E3779B97F4A7C15)));
}

/* The fmix layouts: every form and sbf_add set the bits the scalar probes
 * set for sbfi_xxh64_pair of fmix_h(key, len, seed), given through
 * sbf_add_hash. */
ParameterizedTestParameters(batch, fmix_stage)
{
    static int isas[16];
    return cr_make_param_array(int, isas, (size_t)registry_params(isas));
}
ParameterizedTest(int *isa, batch, fmix_stage, .description = "the fmix layouts: every form and sbf_add set the bits of sbf_add_hash(pair of fmix64(key ^ s) for 8 bytes, sbf_xxh3_64 otherwise)") {
    if (!sbf_isa_available(*isa))
        cr_skip_test("%s not available here", sbf_isa_name(*isa));
    const geometry gs[] = {
        { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 77, 0 },
        { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 64, 5 },
        { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 31, 0x9747b28cu },
        { SBF_BLOCKED_FMIX, 11, 512 * 29, 3 },
        { SBF_BLOCKED_FMIX, 7, 512 * 32, 0xffffffffu },
    };
    check_stage(*isa, gs, sizeof gs / sizeof gs[0], fmix_h);
}

/* ---------------------------------------------------------------- refusals */

Test(batch, refused, .description = "sbf_add_keys / sbf_contains_keys refuse bad forms with their codes, before anything changes") {
    const geometry g = { SBF_BLOCKED, 7, 512 * 8, 0 };
    sbf_filter *f = make(SBF_ISA_AUTO, &g, 0);
    size_t len0;
    const unsigned char *before = sbf_data(f, &len0);
    unsigned char *copy = malloc(len0);
    memcpy(copy, before, len0);
    uint64_t u[2] = { 1, 2 };
    const void *ptr[2] = { "ab", NULL };
    size_t lens[2] = { 2, 1 };
    uint64_t off[3] = { 0, 2, 1 }; /* decreasing */
    uint32_t off32[3] = { 0, 2, 3 };
    uint8_t out[2] = { 7, 7 };
    const struct { sbf_keys k; int code; } bad[] = {
        { { .n = 2 }, SBF_E_NULL },                                     /* no form */
        { { .n = 2, .u64 = u, .ptrs = ptr, .lens = lens }, SBF_E_PARAM }, /* two forms */
        { { .n = 2, .u64 = u, .offsets32 = off32 }, SBF_E_PARAM },
        { { .n = 2, .ptrs = ptr, .lens = lens }, SBF_E_NULL },          /* ptr[1] NULL, len 1 */
        { { .n = 2, .ptrs = ptr }, SBF_E_NULL },                        /* lens NULL */
        { { .n = 2, .data = "abc", .offsets = off }, SBF_E_PARAM },     /* decreasing */
        { { .n = 2, .data = "abc", .offsets = off, .offsets32 = off32 }, SBF_E_PARAM },
        { { .n = 2, .data = "abc" }, SBF_E_NULL },                      /* no offsets */
        { { .n = 2, .offsets32 = off32 }, SBF_E_NULL },                 /* NULL data, keys not empty */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const size_t r = sbf_add_keys(f, &bad[i].k, out);
        cr_assert(sbf_is_error(r), "case %zu", i);
        cr_assert(out[0] == 7 && out[1] == 7, "case %zu: changed written on an error", i);
        cr_assert_eq(r, (size_t)bad[i].code, "case %zu: %zu", i, r);
        cr_assert_eq(sbf_contains_keys(f, &bad[i].k, out), (size_t)bad[i].code, "case %zu", i);
    }
    cr_assert_eq(out[0], 7);
    cr_assert_eq(memcmp(copy, sbf_data(f, NULL), len0), 0, "a refused call changed the filter");
    cr_assert_eq(sbf_add_keys(NULL, &(sbf_keys){ .n = 1, .u64 = u }, out), (size_t)SBF_E_NULL);
    cr_assert_eq(sbf_add_keys(f, NULL, out), (size_t)SBF_E_NULL);
    cr_assert_eq(sbf_contains_keys(NULL, &(sbf_keys){ .n = 1, .u64 = u }, out), (size_t)SBF_E_NULL);
    cr_assert_eq(sbf_contains_keys(f, NULL, out), (size_t)SBF_E_NULL);
    /* n = 0 and empty keys with no data are fine */
    cr_assert_eq(sbf_add_keys(f, &(sbf_keys){ .n = 0 }, out), 0);
    cr_assert_eq(out[0], 7);
    const uint32_t empty[3] = { 5, 5, 5 };
    cr_assert_eq(sbf_add_keys(f, &(sbf_keys){ .n = 2, .offsets32 = empty }, out), 1);
    cr_assert(out[0] == 1 && out[1] == 0, "the same empty key twice: %u %u", out[0], out[1]);
    cr_assert_eq(sbf_contains(f, "", 0), 1);
    free(copy);
    sbf_free(f);
}
