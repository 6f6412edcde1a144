/*
 * Batches on filters the caches do not hold (PIPE_DEEP_BYTES, 64 MiB, and
 * more) run with blocks prefetched PIPE_DEPTH_MAX steps ahead: a ring of
 * steps instead of two (simd/pipeline.h, pipe_run). Every ISA's batched adds
 * and queries there must give the scalar reference's bytes, answers and
 * counts, for batch lengths around the ring's edges (fewer keys than one
 * step, than the depth, ragged last steps), every layout family and the
 * hash stages (u64 keys, byte strings, parquet's XXH64).
 */
#include "testutil.h"

#define DEEP_BYTES ((uint64_t)64 << 20)

/* Batch lengths: 1, around one step (32) and every multiple up to four
 * steps (the ring holds PIPE_DEPTH_MAX + 1 of them), then larger ragged
 * ones. */
static const size_t lens[] = { 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 161, 1000, 4097 };

static void run_one(int isa, int layout, uint32_t k, uint32_t flags)
{
    const geometry g = { layout, k, DEEP_BYTES * 8, 7 };
    sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, &g, 0);
    sbf_filter *f = tu_make_on(isa, &g, flags);
    uint64_t s = 0x5eed + (uint64_t)layout * 7 + k;
    size_t total = 0;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        const size_t n = lens[li];
        uint64_t *keys = malloc(n * sizeof *keys);
        uint8_t *a = malloc(n), *b = malloc(n);
        const void **ptr = malloc(n * sizeof *ptr);
        size_t *len = malloc(n * sizeof *len);
        cr_assert(keys && a && b && ptr && len);
        for (size_t i = 0; i < n; i++) {
            keys[i] = equiv_splitmix(&s);
            ptr[i] = &keys[i];
            len[i] = 1 + i % 8; /* byte strings: the keys' first bytes */
        }
        cr_assert_eq(sbf_add_u64(ref, keys, n), sbf_add_u64(f, keys, n));
        cr_assert_eq(sbf_add_batch(ref, ptr, len, n), sbf_add_batch(f, ptr, len, n));
        for (size_t i = 0; i < n; i++)
            keys[i] ^= (i & 1) ? 0 : UINT64_C(0x8000000000000001); /* half absent */
        const size_t ca = sbf_contains_u64(ref, keys, n, a), cb = sbf_contains_u64(f, keys, n, b);
        cr_assert_eq(ca, cb, "%s layout %d n %zu: %zu hits, reference %zu", sbf_isa_name(isa),
                     layout, n, cb, ca);
        cr_assert(memcmp(a, b, n) == 0, "%s layout %d n %zu: answers differ", sbf_isa_name(isa),
                  layout, n);
        cr_assert_eq(sbf_contains_batch(ref, ptr, len, n, a), sbf_contains_batch(f, ptr, len, n, b));
        cr_assert(memcmp(a, b, n) == 0);
        for (size_t i = 0; i < n; i++)
            if ((i & 1) == 1)
                cr_assert_eq(b[i], 1, "an added key is missing");
        total += ca;
        free(keys);
        free(a);
        free(b);
        free(ptr);
        free(len);
    }
    cr_assert_gt(total, 0);
    cr_assert(equiv_same_bytes(ref, f), "%s layout %d k %u flags %u: bytes differ",
              sbf_isa_name(isa), layout, k, flags);
    sbf_free(f);
    sbf_free(ref);
}

static void run_isa(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s not available here", sbf_isa_name(isa));
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
        run_one(isa, SBF_BLOCKED, 7, flags);
        run_one(isa, SBF_SPLIT_BLOCK, 8, flags);
        run_one(isa, SBF_COUNTING, 5, flags);
        run_one(isa, SBF_CLASSIC, 3, flags);
        run_one(isa, SBF_PARQUET, 8, flags);
    }
    sbf_isa_set(SBF_ISA_AUTO);
}

Test(deep, scalar, .description = "64 MiB filters, batches prefetched several steps ahead: scalar equals the reference") { run_isa(SBF_ISA_SCALAR); }
Test(deep, simde, .description = "64 MiB filters, batches prefetched several steps ahead: simde equals the reference") { run_isa(SBF_ISA_SIMDE); }
Test(deep, avx2, .description = "64 MiB filters, batches prefetched several steps ahead: avx2 equals the reference") { run_isa(SBF_ISA_AVX2); }
Test(deep, avx512, .description = "64 MiB filters, batches prefetched several steps ahead: avx512 equals the reference") { run_isa(SBF_ISA_AVX512); }
Test(deep, neon, .description = "64 MiB filters, batches prefetched several steps ahead: neon equals the reference") { run_isa(SBF_ISA_NEON); }
