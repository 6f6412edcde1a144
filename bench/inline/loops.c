/*
 * The inline header's one-key calls in loops, for `--suite hot`
 * (bench_hot.c): this file is compiled once per vector path of
 * include/simdbloom_inline.h (the Makefile's INLINE_PATHS, each with that
 * path's flags, as tests/inline_ops.c is), the function named
 * SBFB_INLINE_LOOPS = sbfb_inline_loops_<path>. The loops are what a
 * caller writes: one sbf_view_* call per key, the view's fields read
 * through the pointer.
 */
#include <stddef.h>
#include <stdint.h>

#include "simdbloom.h"
#include "simdbloom_inline.h"

#include "../bench_hot.h"

#if !defined(SBFB_INLINE_LOOPS)
#  error "build with -DSBFB_INLINE_LOOPS=sbfb_inline_loops_<path> (the Makefile does)"
#endif

uint64_t SBFB_INLINE_LOOPS(int op, const sbf_view *v, const uint64_t *keys, size_t n);

/* op: SBFB_INL_*; keys: n keys, or for SBFB_INL_CONTAINS_HASH n pairs
 * (h1, h2) one after the other. Returns the sum of the calls' results. */
uint64_t SBFB_INLINE_LOOPS(int op, const sbf_view *v, const uint64_t *keys, size_t n)
{
    uint64_t s = 0;
    switch (op) {
    case SBFB_INL_CONTAINS:
        for (size_t i = 0; i < n; i++)
            s += (uint64_t)sbf_view_contains_u64(v, keys[i]);
        break;
    case SBFB_INL_ADD:
        for (size_t i = 0; i < n; i++)
            s += (uint64_t)sbf_view_add_u64(v, keys[i]);
        break;
    case SBFB_INL_CONTAINS_HASH:
        for (size_t i = 0; i < n; i++)
            s += (uint64_t)sbf_view_contains_hash(v, keys[2 * i], keys[2 * i + 1]);
        break;
    default:
        break;
    }
    return s;
}
