/*
 * include/simdbloom_inline.h compiled once per vector path (tests/inline_ops.c
 * built with each path's flags), as a table tests/test_inline.c calls.
 */
#ifndef SBF_INLINE_OPS_H_7C21D0E5
#define SBF_INLINE_OPS_H_7C21D0E5

#include "simdbloom_inline.h"

/* The six one-key calls of a vector path. */
typedef struct inline_calls {
    int (*contains_u64)(const sbf_view *v, uint64_t key);
    int (*add_u64)(const sbf_view *v, uint64_t key);
    int (*contains)(const sbf_view *v, const void *key, size_t len);
    int (*add)(const sbf_view *v, const void *key, size_t len);
    int (*contains_hash)(const sbf_view *v, uint64_t h1, uint64_t h2);
    int (*add_hash)(const sbf_view *v, uint64_t h1, uint64_t h2);
} inline_calls;

typedef struct inline_ops {
    const char *name;
    int isa;  /* the sbf_isa whose CPU features the code needs (SCALAR: none) */
    inline_calls view;      /* sbf_view_contains_u64 and the rest */
    /* the same through the view narrowed to its probe (sbf_view_split,
     * sbf_view_blocked, sbf_view_parquet or sbf_view_counting, made for
     * each call):
     * INLINE_OPS_NOT_NARROWED when none takes the view */
    inline_calls narrowed;
    /* sbf_view_contains_u64_as / add_u64_as given the view's layout (a
     * constant in each call), and given another one (split-block-fmix, or
     * blocked for the fmix layouts); the other calls are the view's */
    inline_calls as;
    inline_calls as_other;
    void (*murmur3_u64)(uint64_t key, uint32_t seed, uint64_t out[2]);
    void (*murmur3_bytes)(const void *key, size_t len, uint32_t seed, uint64_t out[2]);
    /* the 8-byte hash the probes use (on AVX-512 partly in vector lanes) */
    void (*hash8)(uint64_t key, uint32_t seed, uint64_t out[2]);
    uint64_t (*xxh64_u64)(uint64_t key);
    uint64_t (*xxh3_u64)(uint64_t key, uint32_t seed); /* sbf_xxh3_u64_inline */
} inline_ops;

#define INLINE_OPS_NOT_NARROWED 1000

/* Weak: a variant not built for this target is NULL. */
extern const inline_ops inline_ops_portable;
/* no vector flags: the header's target-attribute copies where it has them */
extern const inline_ops inline_ops_auto __attribute__((weak));
extern const inline_ops inline_ops_avx2 __attribute__((weak));
extern const inline_ops inline_ops_avx512 __attribute__((weak));
/* AVX-512 with the 8-byte hash's fmix64s in one vector (SBF_INLINE_HASH8_VEC) */
extern const inline_ops inline_ops_avx512v __attribute__((weak));

#endif
