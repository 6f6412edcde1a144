/*
 * The comparison of a kernel table against the scalar reference, shared by
 * the Criterion suite (tests/test_isa.c) and the plain-C conformance program
 * that runs under qemu-aarch64 (tests/conformance.c). Test code only; every
 * function reports instead of asserting, so each caller fails its own way.
 */
#ifndef SBF_EQUIV_H_6D02C8F1
#define SBF_EQUIV_H_6D02C8F1

#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"

typedef struct geometry {
    int layout;
    uint32_t k;
    uint64_t bits;
    uint32_t seed;
} geometry;

static inline uint64_t equiv_splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* n random keys (plus 8 of slack for offsets) in a 64-byte aligned buffer;
 * NULL when out of memory. */
static inline uint64_t *equiv_keys(size_t n, uint64_t seed)
{
    uint64_t *k = aligned_alloc(64, ((n + 8) * 8 + 63) / 64 * 64);
    if (k != NULL)
        for (size_t i = 0; i < n + 8; i++)
            k[i] = equiv_splitmix(&seed);
    return k;
}

/* A filter of this geometry on this ISA's kernels; an sbf error code. */
static inline int equiv_make(int isa, const geometry *g, sbf_filter **out)
{
    sbf_params p = { 0 };
    p.layout = g->layout;
    p.bits = g->bits;
    p.k = g->k;
    p.seed = g->seed;
    p.expected_n = 1000;
    const int rc = sbf_isa_set(isa);
    return rc != SBF_OK ? rc : sbf_create(out, &p);
}

static inline int equiv_same_bytes(const sbf_filter *a, const sbf_filter *b)
{
    size_t la, lb;
    const void *da = sbf_data(a, &la), *db = sbf_data(b, &lb);
    return la == lb && memcmp(da, db, la) == 0;
}

/* 1 if f answers exactly as ref on the n probes, with the same counts with
 * and without an out array; with all_present, also every answer "maybe".
 * -1 when out of memory. */
static inline int equiv_same_answers(const sbf_filter *ref, const sbf_filter *f,
                                     const uint64_t *probe, size_t n, int all_present)
{
    uint8_t *o1 = malloc(n + 1), *o2 = malloc(n + 1);
    int ok = -1;
    if (o1 != NULL && o2 != NULL) {
        const size_t c1 = sbf_contains_u64(ref, probe, n, o1);
        const size_t c2 = sbf_contains_u64(f, probe, n, o2);
        const size_t c3 = sbf_contains_u64(f, probe, n, NULL);
        ok = c1 == c2 && c2 == c3 && (n == 0 || memcmp(o1, o2, n) == 0);
        if (all_present)
            ok &= c2 == n;
    }
    free(o1);
    free(o2);
    return ok;
}

#endif
