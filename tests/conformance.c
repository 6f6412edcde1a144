/*
 * Conformance of the vector kernels against the scalar reference, as a
 * plain C program (no Criterion), so it can be cross-compiled and run under
 * qemu-aarch64 by scripts/test-neon.sh. On any machine it checks every ISA
 * that is compiled in and supported, other than scalar: the batched hash
 * (every length 0..70 and SBF_CONF_KEYS keys, several seeds), and for every
 * layout the filter bytes after batched adds of every length 0..70, and the
 * answers (with and without an out array) on present and absent keys; and
 * per key, plain and SBF_CONCURRENT, whether a batched add changed the
 * filter (sbf_add_keys' changed array against sbf_add's returns).
 *
 * Every ISA, scalar included, must also reproduce the known-answer vectors
 * of the bit layouts (tests/kat.h): the bytes a filter built on x86-64 has,
 * an aarch64 build must have too; and its lane hash kernels (hash_bytes,
 * xxh64_u64, xxh64_bytes) must give the one-key MurmurHash3 and XXH64 of
 * every key (tests/lanes_check.h: every length, alignment, batch size,
 * keys at the edge of unreadable pages).
 *
 * Output: one line per kernel tested, then "neon: N passed, F failed"
 * (the name is the ISA the dispatcher picks by itself). Exit status 0 only
 * when nothing failed.
 */
#define _DEFAULT_SOURCE 1 /* mmap flags for lanes_check.h */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "sbf_internal.h"
#include "equiv.h"
#include "kat.h"
#include "vectors/layouts_kat.inc"
#include "lanes_check.h"

#ifndef SBF_CONF_KEYS
#  define SBF_CONF_KEYS 20000
#endif

static unsigned long g_pass, g_fail;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (cond) {                                                           \
            g_pass++;                                                         \
        } else {                                                              \
            g_fail++;                                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                       \
            printf(__VA_ARGS__);                                              \
            printf("\n");                                                     \
        }                                                                     \
    } while (0)

static uint64_t *random_keys(size_t n, uint64_t seed)
{
    uint64_t *k = equiv_keys(n, seed);
    if (k == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    return k;
}

/* --------------------------------------------------------------- hashes */

static void conf_hash(const sbfi_kernels *kt)
{
    static const uint32_t seeds[] = { 0, 1, 0x7fffffffu, 0xdeadbeefu };
    const size_t big = SBF_CONF_KEYS;
    uint64_t *keys = random_keys(big, 42);
    uint64_t *h1 = malloc((big + 16) * 8), *h2 = malloc((big + 16) * 8);
    if (h1 == NULL || h2 == NULL)
        exit(2);
    keys[0] = 0;
    keys[1] = UINT64_MAX;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        for (size_t n = 0; n <= 70; n++) {
            const size_t ko = n % 8, ho = (n / 8) % 8;
            int ok = 1;
            for (size_t i = 0; i < n + 2; i++)
                h1[ho + i] = h2[ho + i] = UINT64_C(0x5a5a5a5a5a5a5a5a);
            kt->hash_u64(keys + ko, n, seeds[s], h1 + ho, h2 + ho);
            for (size_t i = 0; i < n; i++) {
                uint64_t a, b;
                sbfi_murmur3_u64(keys[ko + i], seeds[s], &a, &b);
                ok &= h1[ho + i] == a && h2[ho + i] == b;
            }
            ok &= h1[ho + n] == UINT64_C(0x5a5a5a5a5a5a5a5a) &&
                  h2[ho + n] == UINT64_C(0x5a5a5a5a5a5a5a5a);
            CHECK(ok, "%s: hash of %zu keys, seed %u", kt->name, n, seeds[s]);
        }
        kt->hash_u64(keys, big, seeds[s], h1, h2);
        int ok = 1;
        for (size_t i = 0; i < big; i++) {
            uint64_t r[2];
            sbf_murmur3_x64_128(&keys[i], 8, seeds[s], r);
            ok &= h1[i] == r[0] && h2[i] == r[1];
        }
        CHECK(ok, "%s: hash of %zu keys, seed %u", kt->name, big, seeds[s]);
    }
    free(keys);
    free(h1);
    free(h2);
}

/* ------------------------------------------------------- lane hashes */

static void conf_lanes(int isa)
{
    const sbfi_kernels *kt = sbfi_kernels_for(isa);
    char why[LC_WHY] = "";
    const int bad = lc_all(kt, why);
    CHECK(bad == 0, "%s: %d lane hash check(s) failed, last: %s", kt->name, bad, why);
    printf("kernel %-6s lane hashes (murmur3 of strings, XXH64 and XXH3 of u64 keys and strings): %s\n",
           kt->name, bad == 0 ? "ok" : "FAILED");
}

/* -------------------------------------------------------------- filters */

static sbf_filter *make(int isa, const geometry *g)
{
    sbf_filter *f = NULL;
    if (equiv_make(isa, g, &f) != SBF_OK) {
        printf("cannot create a %s filter (layout %d)\n", sbf_isa_name(isa), g->layout);
        exit(2);
    }
    return f;
}

#define same_bytes equiv_same_bytes
#define same_answers(ref, f, probe, n, all) (equiv_same_answers(ref, f, probe, n, all) == 1)

static void conf_filter(int isa, const geometry *g, size_t bulk)
{
    const char *name = sbf_isa_name(isa);
    sbf_filter *ref = make(SBF_ISA_SCALAR, g), *f = make(isa, g);
    const size_t total = 71 * 70 / 2;
    uint64_t *keys = random_keys(total + bulk, g->seed + g->k + (uint64_t)g->layout * 1000);
    uint64_t *absent = random_keys(total + bulk, 7777 + g->k);
    uint64_t *buf = aligned_alloc(64, 128 * 8);
    int bytes_ok = 1, ans_ok = 1;
    size_t at = 0;
    if (buf == NULL)
        exit(2);
    /* batches of every length 0..70, starting at every offset from a line */
    for (size_t n = 0; n <= 70; n++) {
        const size_t off = n % 8;
        memcpy(buf + off, keys + at, n * 8);
        sbf_add_u64(ref, buf + off, n);
        sbf_add_u64(f, buf + off, n);
        bytes_ok &= same_bytes(ref, f);
        ans_ok &= same_answers(ref, f, buf + off, n, 1);
        memcpy(buf + off, absent + at, n * 8);
        ans_ok &= same_answers(ref, f, buf + off, n, 0);
        at += n;
    }
    CHECK(bytes_ok, "%s: layout %d k %u: bytes after batches 0..70", name, g->layout, g->k);
    CHECK(ans_ok, "%s: layout %d k %u: answers for batches 0..70", name, g->layout, g->k);
    /* then many keys in one call */
    sbf_add_u64(ref, keys + at, bulk);
    sbf_add_u64(f, keys + at, bulk);
    CHECK(same_bytes(ref, f), "%s: layout %d k %u: bytes after %zu keys", name,
          g->layout, g->k, bulk);
    CHECK(same_answers(ref, f, keys, at + bulk, 1),
          "%s: layout %d k %u: present keys", name, g->layout, g->k);
    CHECK(same_answers(ref, f, absent + 1, total + bulk - 3, 0),
          "%s: layout %d k %u: absent keys", name, g->layout, g->k);
    free(buf);
    free(keys);
    free(absent);
    sbf_free(ref);
    sbf_free(f);
}

/* sbf_add_keys' changed[] against sbf_add's returns key by key on the
 * scalar reference: batches of 0..70 keys with repeats inside them, each
 * set added twice (so both answers occur), plain and SBF_CONCURRENT; then
 * the bytes. */
static void conf_changed(int isa, const geometry *g, uint32_t flags)
{
    const size_t total = 71 * 70 / 2;
    uint64_t *keys = random_keys(total, g->seed + 99 * g->k + (uint64_t)g->layout);
    for (size_t i = 1; i < total; i += 7)
        keys[i] = keys[i - 1];
    sbf_filter *ref = make(SBF_ISA_SCALAR, g), *f = NULL;
    const sbf_params p = { .layout = g->layout, .k = g->k, .bits = g->bits, .seed = g->seed,
                           .flags = flags };
    if (sbf_isa_set(isa) != SBF_OK || sbf_create(&f, &p) != SBF_OK)
        exit(2);
    uint8_t changed[71];
    int ok = 1;
    size_t ones = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t n = 0, at = 0; n <= 70; at += n, n++) {
            memset(changed, 0xee, sizeof changed);
            size_t want = 0;
            const size_t got = sbf_add_keys(f, &(sbf_keys){ .n = n, .u64 = keys + at }, changed);
            for (size_t i = 0; i < n; i++) {
                const int r = sbf_add(ref, &keys[at + i], 8);
                ok &= changed[i] == r;
                want += (size_t)r;
            }
            ok &= got == want && changed[n] == 0xee;
            ones += want;
        }
    CHECK(ok && ones > 0 && ones < 2 * total, "%s: layout %d k %u flags %u: changed[] of "
          "batched adds (%zu ones)", sbf_isa_name(isa), g->layout, g->k, flags, ones);
    CHECK(same_bytes(ref, f), "%s: layout %d k %u flags %u: bytes after adds telling changed",
          sbf_isa_name(isa), g->layout, g->k, flags);
    free(keys);
    sbf_free(ref);
    sbf_free(f);
}

static const geometry geoms[] = {
    { SBF_CLASSIC, 7, 64 * 3001, 0 },
    { SBF_CLASSIC, 3, 64 * 13, 12345 },
    { SBF_SPLIT_BLOCK, 8, 256 * 401, 0 },
    { SBF_SPLIT_BLOCK, 8, 256 * 3, 77 },
    { SBF_SPLIT_BLOCK, 16, 512 * 201, 0 },
    { SBF_SPLIT_BLOCK, 16, 512 * 2, 5 },
    { SBF_COUNTING, 13, 512 * 2, 0 }, /* every counter saturates */
    { SBF_CLASSIC, 32, 64, 0 },       /* k >= lanes: issue 13, finding 1 */
    { SBF_CLASSIC, 255, 64 * 101, 9 },
};

static void conf_isa(int isa, size_t bulk)
{
    const sbfi_kernels *kt = sbfi_kernels_for(isa);
    const unsigned long before = g_fail;
    conf_hash(kt);
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++) {
        conf_filter(isa, &geoms[i], bulk);
        conf_changed(isa, &geoms[i], 0);
        conf_changed(isa, &geoms[i], SBF_CONCURRENT);
    }
    for (uint32_t k = 1; k <= 16; k++) {
        const geometry b = { SBF_BLOCKED, k, 512 * (k * 40 + 1), k };
        const geometry c = { SBF_COUNTING, k, 512 * (k * 40 + 3), k * 7 };
        conf_filter(isa, &b, bulk);
        conf_filter(isa, &c, bulk);
        conf_changed(isa, &b, k % 2 ? 0 : SBF_CONCURRENT);
    }
    printf("kernel %-6s vs scalar: hash (n = 0..70, %zu keys, 4 seeds), classic, "
           "blocked k=1..16, split-block k=8/16, counting k=1..16, changed[]: %s\n", kt->name,
           bulk, g_fail == before ? "ok" : "FAILED");
}

/* ------------------------------------------------ known-answer vectors */

static void conf_kat(int isa)
{
    const char *name = sbf_isa_name(isa);
    const unsigned long before = g_fail;
    if (sbf_isa_set(isa) != SBF_OK) {
        CHECK(0, "%s: cannot force it", name);
        return;
    }
    const size_t nex = sizeof kat_exact_vectors / sizeof kat_exact_vectors[0];
    for (size_t i = 0; i < nex; i++) {
        const kat_exact *v = &kat_exact_vectors[i];
        for (int how = 0; how < 3; how++) {
            const kat_result r = kat_run_exact(v, how);
            CHECK(r.rc == SBF_OK && r.isa == isa && r.len == v->len && r.at == r.len &&
                  r.present == v->nkeys, "%s: known answer %zu (%s k %u, way %d)", name, i,
                  kat_layout_name(v->layout), v->k, how);
        }
    }
    const size_t ndg = sizeof kat_digest_vectors / sizeof kat_digest_vectors[0];
    for (size_t i = 0; i < ndg; i++) {
        const kat_digest *v = &kat_digest_vectors[i];
        const kat_result r = kat_run_digest(v);
        CHECK(r.rc == SBF_OK && r.isa == isa && r.len == v->len && r.h[0] == v->d1 &&
              r.h[1] == v->d2 && r.present == v->nkeys,
              "%s: known digest %zu (%s k %u)", name, i, kat_layout_name(v->layout), v->k);
    }
    printf("kernel %-6s known answers: %zu exact filters x 3 ways, %zu digests: %s\n",
           name, nex, ndg, g_fail == before ? "ok" : "FAILED");
}

int main(void)
{
    const int best = sbf_isa_active();
    printf("conformance against the scalar reference; dispatcher picks %s\n",
           sbf_isa_name(best));
    CHECK(best > 0, "dispatch resolved (%d)", best);
#if defined(__aarch64__)
    CHECK(best == SBF_ISA_NEON, "neon is the default on aarch64");
    CHECK(sbf_isa_set(SBF_ISA_AVX2) == SBF_E_ISA_UNAVAILABLE, "avx2 unavailable");
    CHECK(sbf_isa_set(SBF_ISA_AVX512) == SBF_E_ISA_UNAVAILABLE, "avx512 unavailable");
#endif
    int tested = 0, isas[16];
    const size_t nisa = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < nisa && i < 16; i++) {
        const int isa = isas[i];
        if (isa == SBF_ISA_SCALAR || !sbf_isa_available(isa))
            continue;
        conf_isa(isa, SBF_CONF_KEYS);
        tested++;
    }
    CHECK(tested > 0, "at least one vector kernel tested");
    for (size_t i = 0; i < nisa && i < 16; i++)
        if (sbf_isa_available(isas[i])) {
            conf_kat(isas[i]);
            conf_lanes(isas[i]);
        }
    printf("%s: %lu passed, %lu failed\n", sbf_isa_name(best), g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
