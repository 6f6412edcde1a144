/*
 * The inline header's functions as a table (tests/inline_ops.h). Built once
 * per vector path: INLINE_OPS names the table, SBF_INLINE_ISA picks the
 * path (the Makefile passes the path's -m flags too).
 */
#include "inline_ops.h"

#if !defined(INLINE_OPS)
#  define INLINE_OPS inline_ops_portable
#endif
#if SBF_INL_KERNELS
#  define OPS_ISA SBF_ISA_SCALAR /* runs anywhere: the filter's kernels */
#  define OPS_NAME "inline auto (the library's kernels)"
#elif SBF_INLINE_ISA == 4
#  define OPS_ISA SBF_ISA_AVX512
#  define OPS_NAME "inline avx512"
#elif SBF_INLINE_ISA == 3
#  define OPS_ISA SBF_ISA_AVX2
#  define OPS_NAME "inline avx2"
#else
#  define OPS_ISA SBF_ISA_SCALAR
#  define OPS_NAME "inline portable"
#endif

static int contains_u64(const sbf_view *v, uint64_t key) { return sbf_view_contains_u64(v, key); }
static int add_u64(const sbf_view *v, uint64_t key) { return sbf_view_add_u64(v, key); }
static int contains(const sbf_view *v, const void *key, size_t len) { return sbf_view_contains(v, key, len); }
static int add(const sbf_view *v, const void *key, size_t len) { return sbf_view_add(v, key, len); }
static int contains_hash(const sbf_view *v, uint64_t h1, uint64_t h2) { return sbf_view_contains_hash(v, h1, h2); }
static int add_hash(const sbf_view *v, uint64_t h1, uint64_t h2) { return sbf_view_add_hash(v, h1, h2); }
static void murmur3_u64(uint64_t key, uint32_t seed, uint64_t out[2]) { sbf_murmur3_u64(key, seed, out); }
static void murmur3_bytes(const void *key, size_t len, uint32_t seed, uint64_t out[2])
{
    sbf_murmur3_bytes(key, len, seed, out);
}
static void hash8(uint64_t key, uint32_t seed, uint64_t out[2])
{
    out[1] = sbf_inl_h2_u64(sbf_inl_hash8(key, (uint64_t)seed ^ 8, &out[0]));
}

static uint64_t xxh64_u64(uint64_t key) { return sbf_xxh64_u64_inline(key); }
static uint64_t xxh3_u64(uint64_t key, uint32_t seed) { return sbf_xxh3_u64_inline(key, seed); }

/* The narrowed view's call, or INLINE_OPS_NOT_NARROWED. */
#define NARROWED(CALL, ...)                                                       \
    do {                                                                        \
        sbf_split_view s_;                                                      \
        sbf_blocked_view b_;                                                    \
        sbf_parquet_view p_;                                                    \
        sbf_counting_view c_;                                                   \
        if (sbf_view_split(v, &s_) == SBF_OK)                                   \
            return sbf_split_view_##CALL(&s_, __VA_ARGS__);                     \
        if (sbf_view_blocked(v, &b_) == SBF_OK)                                 \
            return sbf_blocked_view_##CALL(&b_, __VA_ARGS__);                   \
        if (sbf_view_parquet(v, &p_) == SBF_OK)                                 \
            return sbf_parquet_view_##CALL(&p_, __VA_ARGS__);                   \
        if (sbf_view_counting(v, &c_) == SBF_OK)                                \
            return sbf_counting_view_##CALL(&c_, __VA_ARGS__);                  \
        return INLINE_OPS_NOT_NARROWED;                                         \
    } while (0)

static int n_contains_u64(const sbf_view *v, uint64_t key) { NARROWED(contains_u64, key); }
static int n_add_u64(const sbf_view *v, uint64_t key) { NARROWED(add_u64, key); }
static int n_contains(const sbf_view *v, const void *key, size_t len) { NARROWED(contains, key, len); }
static int n_add(const sbf_view *v, const void *key, size_t len) { NARROWED(add, key, len); }
static int n_contains_hash(const sbf_view *v, uint64_t h1, uint64_t h2) { NARROWED(contains_hash, h1, h2); }
static int n_add_hash(const sbf_view *v, uint64_t h1, uint64_t h2) { NARROWED(add_hash, h1, h2); }

/* _as with the layout a constant in each case */
#define AS_CASES(CALL, v, key)                                                   \
    switch ((v)->layout) {                                                      \
    case SBF_BLOCKED: return CALL(v, key, SBF_BLOCKED);                         \
    case SBF_SPLIT_BLOCK: return CALL(v, key, SBF_SPLIT_BLOCK);                 \
    case SBF_COUNTING: return CALL(v, key, SBF_COUNTING);                       \
    case SBF_PARQUET: return CALL(v, key, SBF_PARQUET);                         \
    case SBF_SPLIT_BLOCK_XXH3: return CALL(v, key, SBF_SPLIT_BLOCK_XXH3);       \
    case SBF_BLOCKED_XXH3: return CALL(v, key, SBF_BLOCKED_XXH3);               \
    case SBF_COUNTING_XXH3: return CALL(v, key, SBF_COUNTING_XXH3);             \
    case SBF_SPLIT_BLOCK_FMIX: return CALL(v, key, SBF_SPLIT_BLOCK_FMIX);       \
    case SBF_BLOCKED_FMIX: return CALL(v, key, SBF_BLOCKED_FMIX);               \
    default: return CALL(v, key, SBF_CLASSIC);                                  \
    }

static int as_contains_u64(const sbf_view *v, uint64_t key) { AS_CASES(sbf_view_contains_u64_as, v, key); }
static int as_add_u64(const sbf_view *v, uint64_t key) { AS_CASES(sbf_view_add_u64_as, v, key); }

static int fmix_layout(const sbf_view *v)
{
    return v->layout == SBF_SPLIT_BLOCK_FMIX || v->layout == SBF_BLOCKED_FMIX;
}

static int other_contains_u64(const sbf_view *v, uint64_t key)
{
    return fmix_layout(v) ? sbf_view_contains_u64_as(v, key, SBF_BLOCKED)
                          : sbf_view_contains_u64_as(v, key, SBF_SPLIT_BLOCK_FMIX);
}

static int other_add_u64(const sbf_view *v, uint64_t key)
{
    return fmix_layout(v) ? sbf_view_add_u64_as(v, key, SBF_BLOCKED)
                          : sbf_view_add_u64_as(v, key, SBF_SPLIT_BLOCK_FMIX);
}

const inline_ops INLINE_OPS = {
    OPS_NAME,
    OPS_ISA,
    { contains_u64, add_u64, contains, add, contains_hash, add_hash },
    { n_contains_u64, n_add_u64, n_contains, n_add, n_contains_hash, n_add_hash },
    { as_contains_u64, as_add_u64, contains, add, contains_hash, add_hash },
    { other_contains_u64, other_add_u64, contains, add, contains_hash, add_hash },
    murmur3_u64,
    murmur3_bytes,
    hash8,
    xxh64_u64,
    xxh3_u64,
};
