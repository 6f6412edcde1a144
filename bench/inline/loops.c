/*
 * The inline header's one-key calls in loops, for `--suite hot`
 * (bench_hot.c): this file is compiled once per vector path of
 * include/simdbloom_inline.h (the Makefile's INLINE_PATHS, each with that
 * path's flags, as tests/inline_ops.c is), the function named
 * SBFB_INLINE_LOOPS = sbfb_inline_loops_<path>. The loops are what a
 * caller writes: one sbf_view_* call per key, the view's fields read
 * through the pointer; or one call per key through the view narrowed to
 * its probe, a local variable of the loop's function (the form
 * simdbloom_inline.h recommends for such loops).
 */
#include <stddef.h>
#include <stdint.h>

#include "simdbloom.h"
#include "simdbloom_inline.h"

#include "../bench_hot.h"

/* bench/inline/twice.c's loops: the view copied to a local */
#define SBFB_INL_L_CONTAINS 100
#define SBFB_INL_L_ADD 101

#if !defined(SBFB_INLINE_LOOPS)
#  error "build with -DSBFB_INLINE_LOOPS=sbfb_inline_loops_<path> (the Makefile does)"
#endif

uint64_t SBFB_INLINE_LOOPS(int op, const sbf_view *v, const uint64_t *keys, size_t n);

/* The form simdbloom_inline.h recommends: the view a local of the loop's
 * function (bench/inline/twice.c's SBFB_INL_L_*: contains, or adds). */
static uint64_t local_view(int add, const sbf_view *vp, const uint64_t *keys, size_t n)
{
    const sbf_view v = *vp;
    uint64_t s = 0;
    if (add)
        for (size_t i = 0; i < n; i++)
            s += (uint64_t)sbf_view_add_u64(&v, keys[i]);
    else
        for (size_t i = 0; i < n; i++)
            s += (uint64_t)sbf_view_contains_u64(&v, keys[i]);
    return s;
}

/* The narrowed loops: contains (add 0) or adds of the n keys. */
static uint64_t narrowed(int add, const sbf_view *v, const uint64_t *keys, size_t n)
{
    uint64_t s = 0;
    sbf_split_view sv;
    sbf_blocked_view bv;
    sbf_parquet_view pv;
    sbf_counting_view cv;
    if (sbf_view_split(v, &sv) == SBF_OK) {
        if (add)
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_split_view_add_u64(&sv, keys[i]);
        else
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_split_view_contains_u64(&sv, keys[i]);
        return s;
    }
    if (sbf_view_blocked(v, &bv) == SBF_OK) {
        if (add)
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_blocked_view_add_u64(&bv, keys[i]);
        else
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_blocked_view_contains_u64(&bv, keys[i]);
        return s;
    }
    if (sbf_view_parquet(v, &pv) == SBF_OK) {
        if (add)
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_parquet_view_add_u64(&pv, keys[i]);
        else
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_parquet_view_contains_u64(&pv, keys[i]);
        return s;
    }
    if (sbf_view_counting(v, &cv) == SBF_OK) {
        if (add)
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_counting_view_add_u64(&cv, keys[i]);
        else
            for (size_t i = 0; i < n; i++)
                s += (uint64_t)sbf_counting_view_contains_u64(&cv, keys[i]);
        return s;
    }
    /* The XXH3 and fmix layouts have no narrowed view: their loops with
     * the kind a constant (the header's per-kind calls), which is what
     * sbf_view_contains_u64_as / sbf_view_add_u64_as compile to. */
#define SBFB_XXH3_LOOP(KIND)                                                    \
    do {                                                                        \
        if (add)                                                                \
            for (size_t i = 0; i < n; i++)                                      \
                s += (uint64_t)sbf__put_u64(v, KIND, keys[i]);                  \
        else                                                                    \
            for (size_t i = 0; i < n; i++)                                      \
                s += (uint64_t)sbf__has_u64(v, KIND, keys[i]);                  \
        return s;                                                               \
    } while (0)
    if ((add ? v->add : v->query) == SBF_VIEW_SPLIT8_XXH3)
        SBFB_XXH3_LOOP(SBF_VIEW_SPLIT8_XXH3);
    if ((add ? v->add : v->query) == SBF_VIEW_BLOCKED_XXH3)
        SBFB_XXH3_LOOP(SBF_VIEW_BLOCKED_XXH3);
    if ((add ? v->add : v->query) == SBF_VIEW_COUNTING_XXH3)
        SBFB_XXH3_LOOP(SBF_VIEW_COUNTING_XXH3);
    if ((add ? v->add : v->query) == SBF_VIEW_SPLIT8_FMIX)
        SBFB_XXH3_LOOP(SBF_VIEW_SPLIT8_FMIX);
    if ((add ? v->add : v->query) == SBF_VIEW_BLOCKED_FMIX)
        SBFB_XXH3_LOOP(SBF_VIEW_BLOCKED_FMIX);
#undef SBFB_XXH3_LOOP
    return SBFB_INL_NOT_NARROWED;
}

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
    case SBFB_INL_N_CONTAINS:
    case SBFB_INL_N_ADD:
        return narrowed(op == SBFB_INL_N_ADD, v, keys, n);
    case SBFB_INL_L_CONTAINS:
    case SBFB_INL_L_ADD:
        return local_view(op == SBFB_INL_L_ADD, v, keys, n);
    default:
        break;
    }
    return s;
}
