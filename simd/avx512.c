/*
 * AVX-512 kernels (F, BW, DQ, VL), written with SIMDe's prefixed intrinsics
 * and compiled with -mavx512f -mavx512bw -mavx512dq -mavx512vl -mbmi2.
 *
 * Hash: eight 64-bit lanes with the native vpmullq and vprolq.
 * Probes (one key at a time, its 16 32-bit positions in one register):
 *   blocked/counting contains: vpermd fetches, for every lane i, the 32-bit
 *     word of the block that holds position i (index = top 4 bits of the
 *     product); a variable rotate (blocked) or a nibble mask (counting)
 *     tests it; a k-lane mask limits the test to the key's k positions.
 *     Batches with k <= 8 take 8 lanes of 256-bit registers instead (vpermt2d
 *     over the block's halves) where sbfi_probe8() says the CPU gains
 *     (src/dispatch.c: not on Zen 5; doc/performance.md, "On Intel").
 *   split-block: one multiply, shift by 27, variable shift of 1, vptestnm.
 */
#include "sbf_internal.h"

#include <simde/x86/avx512.h>

#if !defined(SBFI_KERNEL_AVX512)
#  error "define SBFI_KERNEL_AVX512"
#endif
/* The registry entry requires SBFI_FEAT_AVX512: every feature in it a
 * compiler can enable is checked here, and the assertion fails when one is
 * added there without a check. */
#if !defined(__AVX512F__) || !defined(__AVX512DQ__) || !defined(__AVX512VL__) || \
    !defined(__AVX512BW__) || !defined(__AVX2__) || !defined(__BMI2__)
#  error "the avx512 kernels must be compiled with -mavx512f -mavx512bw -mavx512dq -mavx512vl -mbmi2 (SBFI_FEAT_AVX512)"
#endif
_Static_assert((SBFI_FEAT_AVX512 & ~SBFI_CPU_OS_STATE) ==
                   (SBFI_CPU_AVX2 | SBFI_CPU_BMI2 | SBFI_CPU_AVX512F | SBFI_CPU_AVX512DQ |
                    SBFI_CPU_AVX512BW | SBFI_CPU_AVX512VL),
               "simd/avx512.c checks every compiler feature of SBFI_FEAT_AVX512");

typedef simde__m512i v512;
typedef simde__m256i v256;


/* ------------------------------------------------------------- hashing */

static inline v512 c64(uint64_t x)
{
    return simde_mm512_set1_epi64((int64_t)x);
}

static inline v512 xorshift33(v512 x)
{
    return simde_mm512_xor_si512(x, simde_mm512_srli_epi64(x, 33));
}

/* MurmurHash3's multipliers, read through a pointer the optimizer cannot
 * see into: each becomes a broadcast memory operand of its vpmullq, where
 * gcc otherwise rebuilds it per use from a 64-bit immediate (movabs +
 * vpbroadcastq: 8 instructions per 8 keys). */
static const uint64_t murmur_k[4] = { SBFI_C1, SBFI_C2, SBF_MURMUR3_F1, SBF_MURMUR3_F2 };

static inline v512 fmix(v512 x, const uint64_t *k)
{
    x = xorshift33(x);
    x = simde_mm512_mullo_epi64(x, c64(k[2]));
    x = xorshift33(x);
    x = simde_mm512_mullo_epi64(x, c64(k[3]));
    return xorshift33(x);
}

/* sbfi_murmur3_u64 in eight lanes; s8 = seed ^ 8 in every lane. */
static inline void hash8(v512 key, v512 s8, v512 *h1o, v512 *h2o)
{
    const uint64_t *k = murmur_k;
    SBF_INL_OPAQUE(k);
    v512 k1 = simde_mm512_mullo_epi64(key, c64(k[0]));
    k1 = simde_mm512_rol_epi64(k1, 31);
    k1 = simde_mm512_mullo_epi64(k1, c64(k[1]));
    v512 h1 = simde_mm512_add_epi64(simde_mm512_xor_si512(k1, s8), s8);
    v512 h2 = simde_mm512_add_epi64(h1, s8);
    h1 = fmix(h1, k);
    h2 = fmix(h2, k);
    h1 = simde_mm512_add_epi64(h1, h2);
    h2 = simde_mm512_add_epi64(h2, h1);
    *h1o = h1;
    *h2o = h2;
}

/* The first n < 8 keys, zero-padded (this SIMDe has no masked loads). */
static inline v512 load_tail(const uint64_t *keys, size_t n)
{
    uint64_t t[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    memcpy(t, keys, n * 8);
    return simde_mm512_loadu_si512((const void *)t);
}

static void hash_u64(const uint64_t *keys, size_t n, uint32_t seed,
                     uint64_t *h1, uint64_t *h2)
{
    const v512 s8 = c64((uint64_t)seed ^ 8);
    v512 a, b;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        hash8(simde_mm512_loadu_si512((const void *)(keys + i)), s8, &a, &b);
        simde_mm512_storeu_si512((void *)(h1 + i), a);
        simde_mm512_storeu_si512((void *)(h2 + i), b);
    }
    if (i < n) {
        uint64_t t[2][8];
        hash8(load_tail(keys + i, n - i), s8, &a, &b);
        simde_mm512_storeu_si512((void *)t[0], a);
        simde_mm512_storeu_si512((void *)t[1], b);
        memcpy(h1 + i, t[0], (n - i) * 8);
        memcpy(h2 + i, t[1], (n - i) * 8);
    }
}

/* ------------------------------------------------------------ pipeline */

typedef struct pipe_ctx {
    v512 salt;             /* the layout's 16 salts */
    v512 s8, nb, base, shift;
    simde__mmask16 km;     /* lanes i < k */
    uint32_t k;
    int narrow;            /* blocked and counting queries: 8 lanes (k <= 8) */
} pipe_ctx;

static inline void pipe_ctx_init_key(pipe_ctx *c, const sbf_filter *f)
{
    c->salt = simde_mm512_loadu_si512((const void *)f->salt);
    c->km = (simde__mmask16)f->lanes;
    c->k = f->k;
    c->narrow = 0;
}

static inline void pipe_ctx_init(pipe_ctx *c, const sbf_filter *f)
{
    c->salt = simde_mm512_loadu_si512((const void *)f->salt);
    c->s8 = c64((uint64_t)f->seed ^ 8);
    c->nb = c64(f->nblocks);
    c->base = c64((uint64_t)(uintptr_t)f->words);
    c->shift = c64(f->block_log2);
    /* Lanes i < k of the 16 (f->lanes: k clamped to 16, as a classic
     * filter's k goes up to 255 and a shift by 32 or more is undefined,
     * issue 13, finding 1; only the blocked and counting probes use it). */
    c->km = (simde__mmask16)f->lanes;
    c->k = f->k;
    c->narrow = f->k <= 8 && sbfi_probe8(); /* the CPU's form (src/dispatch.c) */
}

/* (h1 * nb) >> 64 per lane, for nb < 2^32. */
static inline v512 block_index(v512 h1, v512 nb)
{
    const v512 lo = simde_mm512_mul_epu32(h1, nb);
    const v512 hi = simde_mm512_mul_epu32(simde_mm512_srli_epi64(h1, 32), nb);
    return simde_mm512_srli_epi64(
        simde_mm512_add_epi64(hi, simde_mm512_srli_epi64(lo, 32)), 32);
}

static inline void pipe_stage(const pipe_ctx *c, const uint64_t *keys,
                              size_t len, uint64_t *a, uint64_t *h2,
                              int classic)
{
    for (size_t i = 0; i < len; i += 8) {
        v512 x1, x2;
        const v512 key = i + 8 <= len
                       ? simde_mm512_loadu_si512((const void *)(keys + i))
                       : load_tail(keys + i, len - i);
        hash8(key, c->s8, &x1, &x2);
        simde_mm512_store_si512((void *)(h2 + i), x2);
        if (!classic) {
            const v512 off = simde_mm512_sllv_epi64(block_index(x1, c->nb), c->shift);
            x1 = simde_mm512_add_epi64(c->base, off);
        }
        simde_mm512_store_si512((void *)(a + i), x1);
    }
}

/* Block addresses of len hashes h1 (whole vectors; h1 zero-padded). */
static inline void pipe_address(const pipe_ctx *c, const uint64_t *h1, size_t len,
                                uint64_t *a)
{
    for (size_t i = 0; i < len; i += 8) {
        const v512 off = simde_mm512_sllv_epi64(
            block_index(simde_mm512_load_si512((const void *)(h1 + i)), c->nb), c->shift);
        simde_mm512_store_si512((void *)(a + i), simde_mm512_add_epi64(c->base, off));
    }
}

static inline v512 bcast_h2(uint64_t h2)
{
    return simde_mm512_set1_epi64((int64_t)h2);
}

static inline void pipe_products(const pipe_ctx *c, uint64_t h2, uint32_t prod[16])
{
    simde_mm512_store_si512((void *)prod, simde_mm512_mullo_epi32(bcast_h2(h2), c->salt));
}

/* Queries answer with the key's lanes that miss: those whose bit
 * (blocked) or counter (counting) is clear, as a 16-bit mask, 0 when the
 * key may be present. The batch stores each mask as it is (kmovw to
 * memory) and makes the answers and their count after, 32 keys per vector
 * (pipe_miss_answers): two instructions a key fewer than a kmovw to a
 * register, a compare with k's lanes and a setcc per key, and the count's
 * own pass. Peer driver, AVX-512, absent keys, three interleaved runs,
 * ns/key, blocked / split-block: 16 KiB 0.98-0.99 / 0.89 -> 0.84-0.85 /
 * 0.75; 256 KiB 1.01-1.04 / 0.91-0.92 -> 0.86-0.87 / 0.76-0.77; 8 MiB
 * 1.25-1.30 / 1.31 -> 1.16-1.20 / 1.12-1.19; 1 GiB 3.88 / 3.71-3.73 ->
 * 3.64-3.71 / 3.55-3.57 (its floor 3.33-3.37). (vptestnmd + kortestw, a
 * setcc per key, had measured slower than the compare: 1.07 -> 1.21.) */
#define PIPE_HAVE_MISS 1
#define PIPE_HAVE_NARROW 1 /* pipe_ctx.narrow: pipe_probe loops per form */
/* The blocked probe is include/simdbloom_inline_x86.h's (the inline
 * view's), with the 1s in a register. (This SIMDe has no
 * mask_testn_epi32_mask, nor the masked 16- and 8-bit loads and stores
 * below: the native intrinsics, which this file's flags provide.) */
static inline uint16_t blocked_miss16(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return sbf_inl_blocked_miss((const uint64_t *)blk,
                                simde_mm512_mullo_epi32(bcast_h2(h2), c->salt), c->km,
                                simde_mm512_set1_epi32(1));
}

/* The 8-lane queries (k <= 8, 256-bit registers): the key's 8 products
 * (one vpmulld of 8 lanes, not 16) and, per lane, the 32-bit word of the
 * block its product picks (vpermt2d over the block's two halves). */
static inline v256 miss8_words(const pipe_ctx *c, const void *blk, uint64_t h2, v256 *prod)
{
    *prod = simde_mm256_mullo_epi32(simde_mm256_set1_epi64x((int64_t)h2),
                                    simde_mm512_castsi512_si256(c->salt));
    return _mm256_permutex2var_epi32(
        simde_mm256_load_si256(blk), simde_mm256_srli_epi32(*prod, SBF__SHIFT_WORD32),
        simde_mm256_load_si256((const void *)((const char *)blk + 32)));
}

/* The batch's blocked query for k <= 8: miss8_words, then the rotate and
 * the test of sbf_inl_blocked_miss. */
static inline uint16_t blocked_miss8(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    v256 prod;
    const v256 word = miss8_words(c, blk, h2, &prod);
    const v256 rot = _mm256_rorv_epi32(word, simde_mm256_srli_epi32(prod, SBFI_SHIFT_BLOCKED));
    return _mm256_mask_testn_epi32_mask((simde__mmask8)c->km, rot, simde_mm256_set1_epi32(1));
}

static inline uint16_t pipe_blocked_miss(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    if (c->narrow)
        return blocked_miss8(c, blk, h2);
    return blocked_miss16(c, blk, h2);
}

static inline int pipe_blocked_contains(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return blocked_miss16(c, blk, h2) == 0;
}

/* Blocked adds: include/simdbloom_inline_x86.h's mask of the k positions,
 * OR-ed into the block with one store, and only when a bit was clear
 * (peer driver, 16 KiB filter, fresh keys: batched 3.98 -> 3.35 ns/key
 * against the default's probe and OR into memory per position); the
 * library's form (sbf_inl_blocked_put_test), not the views' masked store. */
#define PIPE_HAVE_BLOCKED_ADD 1
static inline int pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2, uint32_t k)
{
    return sbf_inl_blocked_put_test((uint64_t *)blk,
                                    simde_mm512_mullo_epi32(bcast_h2(h2), c->salt), k);
}

static inline void pipe_blocked_set(const pipe_ctx *c, void *blk, uint64_t h2, uint32_t k)
{
    (void)pipe_blocked_add(c, blk, h2, k);
}

/* Counting queries and adds: include/simdbloom_inline_x86.h's probes,
 * which the inline header's counting views use too. */
static inline uint16_t counting_miss16(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return sbf_inl_counting_miss((const uint64_t *)blk,
                                 simde_mm512_mullo_epi32(bcast_h2(h2), c->salt), c->km);
}

/* The same in 256-bit registers for k <= 8 (as blocked_miss8). */
static inline uint16_t counting_miss8(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    v256 prod;
    const v256 word = miss8_words(c, blk, h2, &prod);
    const v256 sh = simde_mm256_and_si256(simde_mm256_srli_epi32(prod, SBFI_SHIFT_COUNTING - 2),
                                          simde_mm256_set1_epi32(28));
    const v256 nib = simde_mm256_sllv_epi32(simde_mm256_set1_epi32(15), sh);
    return _mm256_mask_testn_epi32_mask((simde__mmask8)c->km, word, nib);
}

static inline uint16_t pipe_counting_miss(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    if (c->narrow)
        return counting_miss8(c, blk, h2);
    return counting_miss16(c, blk, h2);
}

static inline int pipe_counting_contains(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return counting_miss16(c, blk, h2) == 0;
}

/* Split-block masks: one bit in each 32-bit word (k = 8: 256-bit blocks),
 * the inline header's, from the salts in the context. */
static inline v512 split_mask16(const pipe_ctx *c, uint64_t h2)
{
    return sbf_inl_split_bits16(simde_mm512_mullo_epi32(bcast_h2(h2), c->salt));
}

static inline v256 split_mask8(const pipe_ctx *c, uint64_t h2)
{
    return sbf_inl_split_bits8(simde_mm256_mullo_epi32(simde_mm256_set1_epi64x((int64_t)h2),
                                                       simde_mm512_castsi512_si256(c->salt)));
}

/* (a word without its bit is a lane of the mask) */
static inline uint16_t pipe_split_miss(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    if (c->k > 8)
        return sbf_inl_split16_miss((const uint64_t *)blk, split_mask16(c, h2));
    return _mm256_testn_epi32_mask(simde_mm256_load_si256(blk), split_mask8(c, h2));
}

/* The queries and adds of the inline header (sbf_inl_split8_test ...). */
static inline int pipe_split_contains(const pipe_ctx *c, const void *blk,
                                      uint64_t h2)
{
    if (c->k > 8)
        return sbf_inl_split16_miss((const uint64_t *)blk, split_mask16(c, h2)) == 0;
    return sbf_inl_split8_test((const uint64_t *)blk, split_mask8(c, h2));
}

/* Returns whether a bit was clear (tested on the words it loads anyway). */
static inline int pipe_split_add(const pipe_ctx *c, void *blk, uint64_t h2)
{
    if (c->k > 8)
        return sbf_inl_split16_put((uint64_t *)blk, split_mask16(c, h2));
    return sbf_inl_split8_put((uint64_t *)blk, split_mask8(c, h2));
}

/* out[j] = (miss[j] == 0) for the len <= 32 keys of a step; returns how
 * many are 1. */
static inline size_t pipe_miss_answers(const uint16_t *miss, size_t len, uint8_t *out)
{
    const simde__mmask32 live = len >= 32 ? ~(simde__mmask32)0
                                          : ((simde__mmask32)1 << len) - 1;
    const v512 m = _mm512_maskz_loadu_epi16(live, miss);
    const simde__mmask32 hit = _mm512_mask_testn_epi16_mask(live, m, m);
    _mm256_mask_storeu_epi8(out, live, simde_mm256_maskz_mov_epi8(hit, simde_mm256_set1_epi8(1)));
    return (size_t)__builtin_popcount((unsigned)hit);
}

/* The block of a concurrent filter: eight relaxed atomic loads gathered in
 * a register, stored as one vector (see pipeline.h). */
#define PIPE_HAVE_COPY 1
static inline void pipe_copy_block_atomic(void *dst, const uint64_t *src, unsigned n)
{
    uint64_t w[8];
    for (unsigned i = 0; i < 8; i++)
        w[i] = i < n ? __atomic_load_n(&src[i], __ATOMIC_RELAXED) : 0;
    simde_mm512_store_si512(dst, simde_mm512_set_epi64((int64_t)w[7], (int64_t)w[6],
                                                       (int64_t)w[5], (int64_t)w[4],
                                                       (int64_t)w[3], (int64_t)w[2],
                                                       (int64_t)w[1], (int64_t)w[0]));
}

/* The key's 512-bit mask in one register (sbf_inl_mask512, the blocked
 * add's: each position shifted into its 32-bit word by one vpsllvd). No
 * store-to-load round trip through a mask array in memory. */
#define PIPE_HAVE_MASK 1
static inline v512 mask512(const pipe_ctx *c, uint64_t h2, uint32_t k, int shift,
                           int scale)
{
    const v512 prod = simde_mm512_mullo_epi32(bcast_h2(h2), c->salt);
    return sbf_inl_mask512(simde_mm512_slli_epi32(simde_mm512_srli_epi32(prod, shift), scale),
                           k);
}

static inline void pipe_mask_words(const pipe_ctx *c, uint64_t h2, uint32_t k,
                                   int shift, int scale, uint64_t m[8])
{
    simde_mm512_storeu_si512((void *)m, mask512(c, h2, k, shift, scale));
}

static inline int pipe_counting_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                    uint32_t k)
{
    return sbf_inl_counting_put((uint64_t *)blk,
                                mask512(c, h2, k, SBFI_SHIFT_COUNTING, SBFI_NIB_SCALE));
}

#include "lanes_avx512.h" /* before pipeline.h: its fused 64-bit stages */
#include "pipeline.h"
#include "pipe_key.h"
#include "pipe_table.h"

const sbfi_kernels sbfi_kernels_avx512 = {
    SBFI_ID_AVX512,
    .hash_u64 = hash_u64,
    .ops = &pipe_ops,  /* simd/pipe_table.h */
    .add_key_k = PIPE_ADD_K_TABLE,
    .split_key = PIPE_SPLIT_KEY_TABLE,
    /* hashes of many keys in lanes (simd/lanes.h) */
    .hash_bytes = lanes_hash_bytes,
    .xxh64_u64 = lanes_xxh64_u64,
    .xxh64_bytes = lanes_xxh64_bytes,
    .xxh3_u64 = lanes_xxh3_u64,
    .xxh3_bytes = lanes_xxh3_bytes,
    .fmix_u64 = lanes_fmix_u64,
    .fmix_bytes = lanes_fmix_bytes,
};
