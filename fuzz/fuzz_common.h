/* Shared by the fuzz targets: checks that abort (libFuzzer reports them as
 * crashes with the input), and the queries run on every accepted filter. */
#ifndef SBF_FUZZ_COMMON_H_2C6A0E17
#define SBF_FUZZ_COMMON_H_2C6A0E17

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"

#define FUZZ_CHECK(c)                                                       \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            abort();                                                        \
        }                                                                   \
    } while (0)

/* The codes sbf_deserialize / sbf_load / sbf_map may return for bad bytes. */
static inline int fuzz_own_code(int rc)
{
    return rc == SBF_E_TRUNCATED || rc == SBF_E_TRAILING || rc == SBF_E_FORMAT ||
           rc == SBF_E_VERSION || rc == SBF_E_LAYOUT || rc == SBF_E_K ||
           rc == SBF_E_TOO_LARGE || rc == SBF_E_NOMEM;
}

static inline int fuzz_same_bytes(const sbf_filter *a, const sbf_filter *b)
{
    size_t la, lb;
    const void *da = sbf_data(a, &la), *db = sbf_data(b, &lb);
    return la == lb && memcmp(da, db, la) == 0;
}

/* Queries of every kind, keys taken from the input itself. */
static inline void fuzz_exercise(const sbf_filter *f, const uint8_t *data, size_t size)
{
    struct sbf_info in;
    FUZZ_CHECK(sbf_info(f, &in) == SBF_OK);
    FUZZ_CHECK(in.fill_ratio >= 0.0 && in.fill_ratio <= 1.0);
    FUZZ_CHECK(in.bytes * 8 >= in.bits);
    uint64_t keys[16];
    uint8_t out[16];
    for (size_t i = 0; i < 16; i++) {
        keys[i] = 0;
        memcpy(&keys[i], data + (size > 8 ? (i * 131) % (size - 8) : 0), size < 8 ? size : 8);
    }
    const size_t c = sbf_contains_u64(f, keys, 16, out);
    FUZZ_CHECK(c <= 16);
    for (size_t i = 0; i < 16; i++)
        FUZZ_CHECK(sbf_contains(f, &keys[i], 8) == out[i]);
    FUZZ_CHECK(sbf_contains(f, data, size < 64 ? size : 64) >= 0);
}

/*
 * Differential: the same input loaded on the scalar reference and on the
 * detected ISA (load(&f) does it) must answer alike, and after the same
 * adds hold the same bytes. Both filters are modified; the caller frees.
 */
static inline void fuzz_differential(int (*load)(sbf_filter **, const void *, size_t),
                                     const uint8_t *data, size_t size)
{
    sbf_filter *a, *s;
    FUZZ_CHECK(sbf_isa_set(SBF_ISA_AUTO) == SBF_OK);
    FUZZ_CHECK(load(&a, data, size) == SBF_OK);
    FUZZ_CHECK(sbf_isa_set(SBF_ISA_SCALAR) == SBF_OK);
    FUZZ_CHECK(load(&s, data, size) == SBF_OK);
    FUZZ_CHECK(sbf_isa_set(SBF_ISA_AUTO) == SBF_OK);
    uint64_t keys[40];
    uint8_t oa[40], os[40];
    for (size_t i = 0; i < 40; i++) {
        keys[i] = i * UINT64_C(0x9e3779b97f4a7c15);
        if (size >= 8)
            memcpy(&keys[i], data + (i * 97) % (size - 7), 8);
    }
    FUZZ_CHECK(sbf_contains_u64(a, keys, 40, oa) == sbf_contains_u64(s, keys, 40, os));
    FUZZ_CHECK(memcmp(oa, os, 40) == 0);
    FUZZ_CHECK(sbf_add_u64(a, keys, 20) == SBF_OK && sbf_add_u64(s, keys, 20) == SBF_OK);
    FUZZ_CHECK(fuzz_same_bytes(a, s));
    FUZZ_CHECK(sbf_contains_u64(a, keys, 20, NULL) == 20);
    sbf_free(a);
    sbf_free(s);
}

#endif
