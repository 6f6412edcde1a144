/*
 * AVX2 kernels, written with SIMDe's prefixed intrinsics and compiled twice:
 *   -mavx2 -mbmi2 -DSBFI_KERNEL_AVX2   the native AVX2 kernels;
 *   -DSBFI_KERNEL_SIMDE (no ISA flags)  the portable `simde` kernels: SIMDe
 *                                       lowers each intrinsic to what the
 *                                       target has (SSE2 on x86-64, NEON
 *                                       on aarch64, plain C elsewhere).
 *
 * Hash: four 64-bit lanes; the 64-bit multiply is built from three 32x32->64
 * products (AVX2 has no 64-bit multiply).
 * Probes (one key at a time, its 16 32-bit positions in two 8-lane halves):
 *   blocked/counting contains: the 512-bit block is two registers; vpermd
 *     fetches, for every lane i, the 32-bit word that holds position i (the
 *     word index is the top 4 bits of the product; bit 3 picks the half via
 *     a sign-bit blend), then a variable shift isolates the bit/nibble.
 *     Testing the k positions in place needs no mask build at all.
 *   split-block: one multiply, shift by 27, variable shift of 1, vptest.
 */
#include "sbf_internal.h"

/* Without -mavx the 256-bit vector arguments of SIMDe's (and our) static
 * functions draw ABI notes; none of them crosses a library boundary.
 * (GCC ignores the pragma for these notes: the Makefile adds -Wno-psabi.) */
#if defined(__GNUC__)
#  pragma GCC diagnostic ignored "-Wpsabi"
#endif
#include <simde/x86/avx2.h>

#if defined(SBFI_KERNEL_SIMDE)
/* defines sbfi_kernels_simde (at the end) */
#elif defined(SBFI_KERNEL_AVX2)
/* defines sbfi_kernels_avx2 (at the end). Its registry entry requires
 * SBFI_FEAT_AVX2: every feature in it a compiler can enable is checked
 * here, and the assertion fails when one is added there without a check. */
#  if !defined(__AVX2__) || !defined(__BMI2__)
#    error "the avx2 kernels must be compiled with -mavx2 -mbmi2 (SBFI_FEAT_AVX2)"
#  endif
_Static_assert((SBFI_FEAT_AVX2 & ~SBFI_CPU_OS_STATE) == (SBFI_CPU_AVX2 | SBFI_CPU_BMI2),
               "simd/avx2.c checks every compiler feature of SBFI_FEAT_AVX2");
#else
#  error "define SBFI_KERNEL_AVX2 or SBFI_KERNEL_SIMDE"
#endif

typedef simde__m256i v256;


/* ------------------------------------------------------------- hashing */

/* a * c mod 2^64 per lane, chi = c >> 32 in each lane. */
static inline v256 mul64(v256 a, v256 c, v256 chi)
{
    const v256 lolo = simde_mm256_mul_epu32(a, c);
    const v256 hilo = simde_mm256_mul_epu32(simde_mm256_srli_epi64(a, 32), c);
    const v256 lohi = simde_mm256_mul_epu32(a, chi);
    const v256 cross = simde_mm256_add_epi64(hilo, lohi);
    return simde_mm256_add_epi64(lolo, simde_mm256_slli_epi64(cross, 32));
}

static inline v256 c64(uint64_t x)
{
    return simde_mm256_set1_epi64x((int64_t)x);
}

static inline v256 xorshift33(v256 x)
{
    return simde_mm256_xor_si256(x, simde_mm256_srli_epi64(x, 33));
}

static inline v256 fmix(v256 x)
{
    x = xorshift33(x);
    x = mul64(x, c64(SBF_MURMUR3_F1), c64(SBF_MURMUR3_F1 >> 32));
    x = xorshift33(x);
    x = mul64(x, c64(SBF_MURMUR3_F2), c64(SBF_MURMUR3_F2 >> 32));
    return xorshift33(x);
}

/* sbfi_murmur3_u64 in four lanes; s8 = seed ^ 8 in every lane. */
static inline void hash4(v256 key, v256 s8, v256 *h1o, v256 *h2o)
{
    v256 k1 = mul64(key, c64(SBFI_C1), c64(SBFI_C1 >> 32));
    k1 = simde_mm256_or_si256(simde_mm256_slli_epi64(k1, 31),
                              simde_mm256_srli_epi64(k1, 33));
    k1 = mul64(k1, c64(SBFI_C2), c64(SBFI_C2 >> 32));
    v256 h1 = simde_mm256_add_epi64(simde_mm256_xor_si256(k1, s8), s8);
    v256 h2 = simde_mm256_add_epi64(h1, s8);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 = simde_mm256_add_epi64(h1, h2);
    h2 = simde_mm256_add_epi64(h2, h1);
    *h1o = h1;
    *h2o = h2;
}

static inline v256 seed8(uint32_t seed)
{
    return c64((uint64_t)seed ^ 8);
}

#if defined(SBFI_KERNEL_AVX2)
static void hash_u64(const uint64_t *keys, size_t n, uint32_t seed,
                     uint64_t *h1, uint64_t *h2)
{
    const v256 s8 = seed8(seed);
    v256 a, b;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        hash4(simde_mm256_loadu_si256((const void *)(keys + i)), s8, &a, &b);
        simde_mm256_storeu_si256((void *)(h1 + i), a);
        simde_mm256_storeu_si256((void *)(h2 + i), b);
    }
    if (i < n) {
        uint64_t t[3][4] = { { 0 } };
        memcpy(t[0], keys + i, (n - i) * 8);
        hash4(simde_mm256_loadu_si256((const void *)t[0]), s8, &a, &b);
        simde_mm256_storeu_si256((void *)t[1], a);
        simde_mm256_storeu_si256((void *)t[2], b);
        memcpy(h1 + i, t[1], (n - i) * 8);
        memcpy(h2 + i, t[2], (n - i) * 8);
    }
}
#else
/* The portable build hashes with scalar 64-bit multiplies: SSE2 (and NEON)
 * have no 64-bit vector multiply, and the emulated four-lane hash measured
 * 0.52x the scalar one on x86-64. The lane code above is still compiled
 * into the native AVX2 kernel only. */
static void hash_u64(const uint64_t *keys, size_t n, uint32_t seed,
                     uint64_t *h1, uint64_t *h2)
{
    for (size_t i = 0; i < n; i++)
        sbfi_murmur3_u64(keys[i], seed, &h1[i], &h2[i]);
}
#endif

/* ------------------------------------------------------------ pipeline */

typedef struct pipe_ctx {
    v256 salt_lo, salt_hi; /* the layout's salts [0..7], [8..15] */
    const uint32_t *salt;  /* the same, for the portable build's scalar probes */
    v256 en_lo, en_hi;     /* all ones in lanes i < k */
    v256 s8, nb, base, shift;
    uint64_t nblocks;
    uintptr_t words;
    unsigned log2_block;
    uint32_t k, seed;
} pipe_ctx;

/* What the probes read: salts, the k-lane enables (lane i < k: i < k as a
 * signed compare, k <= 16), k. */
static inline void pipe_ctx_init_key(pipe_ctx *c, const sbf_filter *f)
{
    const v256 kk = simde_mm256_set1_epi32((int32_t)f->k);
    c->salt = f->salt;
    c->salt_lo = simde_mm256_loadu_si256((const void *)f->salt);
    c->salt_hi = simde_mm256_loadu_si256((const void *)(f->salt + 8));
    c->en_lo = simde_mm256_cmpgt_epi32(kk, simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    c->en_hi = simde_mm256_cmpgt_epi32(kk, simde_mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15));
    c->k = f->k;
}

static inline void pipe_ctx_init(pipe_ctx *c, const sbf_filter *f)
{
    pipe_ctx_init_key(c, f);
    c->s8 = seed8(f->seed);
    c->nb = c64(f->nblocks);
    c->base = c64((uint64_t)(uintptr_t)f->words);
    c->shift = c64(f->block_log2);
    c->nblocks = f->nblocks;
    c->words = (uintptr_t)f->words;
    c->log2_block = f->block_log2;
    c->k = f->k;
    c->seed = f->seed;
}

/* (h1 * nb) >> 64 per lane, for nb < 2^32. */
static inline v256 block_index(v256 h1, v256 nb)
{
    const v256 lo = simde_mm256_mul_epu32(h1, nb);
    const v256 hi = simde_mm256_mul_epu32(simde_mm256_srli_epi64(h1, 32), nb);
    return simde_mm256_srli_epi64(
        simde_mm256_add_epi64(hi, simde_mm256_srli_epi64(lo, 32)), 32);
}

static inline void pipe_stage(const pipe_ctx *c, const uint64_t *keys,
                              size_t len, uint64_t *a, uint64_t *h2,
                              int classic)
{
#if !defined(SBFI_KERNEL_AVX2)
    for (size_t i = 0; i < len; i++) {
        uint64_t x1;
        sbfi_murmur3_u64(keys[i], c->seed, &x1, &h2[i]);
        a[i] = classic ? x1
                       : c->words + (sbfi_block_index(x1, c->nblocks) << c->log2_block);
    }
#else
    for (size_t i = 0; i < len; i += 4) {
        v256 key, x1, x2;
        if (i + 4 <= len) {
            key = simde_mm256_loadu_si256((const void *)(keys + i));
        } else {
            uint64_t t[4] = { 0, 0, 0, 0 };
            memcpy(t, keys + i, (len - i) * 8);
            key = simde_mm256_loadu_si256((const void *)t);
        }
        hash4(key, c->s8, &x1, &x2);
        simde_mm256_store_si256((void *)(h2 + i), x2);
        if (!classic) {
            const v256 off = simde_mm256_sllv_epi64(block_index(x1, c->nb), c->shift);
            x1 = simde_mm256_add_epi64(c->base, off);
        }
        simde_mm256_store_si256((void *)(a + i), x1);
    }
#endif
}

/* Block addresses of len hashes h1 (whole vectors; h1 zero-padded). */
static inline void pipe_address(const pipe_ctx *c, const uint64_t *h1, size_t len,
                                uint64_t *a)
{
#if !defined(SBFI_KERNEL_AVX2)
    for (size_t i = 0; i < len; i++)
        a[i] = c->words + (sbfi_block_index(h1[i], c->nblocks) << c->log2_block);
#else
    for (size_t i = 0; i < len; i += 4) {
        const v256 off = simde_mm256_sllv_epi64(
            block_index(simde_mm256_load_si256((const void *)(h1 + i)), c->nb), c->shift);
        simde_mm256_store_si256((void *)(a + i), simde_mm256_add_epi64(c->base, off));
    }
#endif
}

static inline v256 bcast_h2(uint64_t h2)
{
    return simde_mm256_set1_epi64x((int64_t)h2);
}

/* Low 32 bits of the 32x32 products. Native: vpmulld. The portable build
 * uses two unsigned 32x32->64 multiplies instead: SIMDe 0.7.4 emulates
 * _mm256_mullo_epi32 with a signed int multiply (undefined on overflow,
 * which UBSan reports), and pmuludq is what SSE2 has anyway. */
static inline v256 mullo32(v256 a, v256 b)
{
#if defined(SBFI_KERNEL_AVX2)
    return simde_mm256_mullo_epi32(a, b);
#else
    const v256 even = simde_mm256_mul_epu32(a, b);
    const v256 odd = simde_mm256_mul_epu32(simde_mm256_srli_epi64(a, 32),
                                           simde_mm256_srli_epi64(b, 32));
    return simde_mm256_blend_epi32(even, simde_mm256_slli_epi64(odd, 32), 0xaa);
#endif
}

static inline void pipe_products(const pipe_ctx *c, uint64_t h2, uint32_t prod[16])
{
    const v256 x = bcast_h2(h2);
    simde_mm256_store_si256((void *)prod, mullo32(x, c->salt_lo));
    simde_mm256_store_si256((void *)(prod + 8), mullo32(x, c->salt_hi));
}

#if defined(SBFI_KERNEL_AVX2)
/* The native build's queries are include/simdbloom_inline_x86.h's AVX2
 * probes (the inline view's), with the salts and the k-lane enables in the
 * context: for each lane the 32-bit word of the block (lo, hi halves) that
 * holds its position (sbf_inl_word8: vpermd of each half, the product's
 * sign bit picks one), tested at the lane's bit (sbf_inl_blocked_has8) or
 * nibble (sbf_inl_counting_zero8). */

/* 1 if v is all zero. (Not testz: SIMDe 0.7.4 emulates _mm256_testz_si256
 * wrongly without SSE4.1 (true if any 64-bit half is zero); testc is right.) */
static inline int all_zero(v256 v)
{
    return simde_mm256_testc_si256(simde_mm256_setzero_si256(), v);
}

static inline int pipe_blocked_contains(const pipe_ctx *c, const void *blk,
                                        uint64_t h2)
{
    const v256 x = bcast_h2(h2);
    const v256 lo = simde_mm256_load_si256((const void *)blk);
    const v256 hi = simde_mm256_load_si256((const void *)((const char *)blk + 32));
    int r = sbf_inl_blocked_has8(lo, hi, mullo32(x, c->salt_lo), c->en_lo);
    if (c->k > 8)
        r &= sbf_inl_blocked_has8(lo, hi, mullo32(x, c->salt_hi), c->en_hi);
    return r;
}

static inline v256 counting_zero(v256 prod, v256 lo, v256 hi)
{
    return sbf_inl_counting_zero8(lo, hi, prod);
}

static inline int pipe_counting_contains(const pipe_ctx *c, const void *blk,
                                         uint64_t h2)
{
    const v256 x = bcast_h2(h2);
    const v256 lo = simde_mm256_load_si256((const void *)blk);
    const v256 hi = simde_mm256_load_si256((const void *)((const char *)blk + 32));
    v256 zero = simde_mm256_and_si256(
        counting_zero(mullo32(x, c->salt_lo), lo, hi), c->en_lo);
    if (c->k > 8)
        zero = simde_mm256_or_si256(
            zero, simde_mm256_and_si256(
                      counting_zero(mullo32(x, c->salt_hi), lo, hi),
                      c->en_hi));
    return all_zero(zero);
}

#else /* the portable build */

/* SIMDe lowers vpermd and blendv to one scalar step per lane without AVX2,
 * which made these probes slower than the scalar reference; the portable
 * probes of include/simdbloom_layout.h (branch-free over the k positions)
 * are faster there. */
static inline int pipe_blocked_contains(const pipe_ctx *c, const void *blk,
                                        uint64_t h2)
{
    return sbf__blocked_has((const uint64_t *)blk, c->salt, c->k, h2);
}

static inline int pipe_counting_contains(const pipe_ctx *c, const void *blk,
                                         uint64_t h2)
{
    return sbf__counting_has((const uint64_t *)blk, c->salt, c->k, h2);
}
#endif

#if !defined(SBFI_KERNEL_AVX2)
/* The portable build's blocked add tests each word as it sets it: its probe
 * is the scalar loop above, and asking it first cost 80 instructions per
 * key (callgrind, k = 7). */
#define PIPE_HAVE_BLOCKED_ADD 1
static inline int pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2, uint32_t k)
{
    return sbf__blocked_add((uint64_t *)blk, c->salt, k, h2);
}

static inline void pipe_blocked_set(const pipe_ctx *c, void *blk, uint64_t h2, uint32_t k)
{
    (void)pipe_blocked_add(c, blk, h2, k);
}
#endif

/* Split-block: one bit per 32-bit word, bit = prod >> 27. */
static inline v256 split_mask(v256 x, v256 salt)
{
    return simde_mm256_sllv_epi32(simde_mm256_set1_epi32(1),
                                  simde_mm256_srli_epi32(mullo32(x, salt), SBFI_SHIFT_SPLIT));
}

#if !defined(SBFI_KERNEL_AVX2)
/* Without AVX2, SIMDe emulates the 32-bit multiply and the variable shift
 * lane by lane; the branch-free scalar test is faster (measured: 12.4 vs
 * 10.2 ns/key for k = 8 at 512 KiB against the scalar reference). */
static inline int pipe_split_contains(const pipe_ctx *c, const void *blk,
                                      uint64_t h2)
{
    return sbf__split_has((const uint64_t *)blk, c->salt, c->k, h2);
}
#else
static inline int pipe_split_contains(const pipe_ctx *c, const void *blk,
                                      uint64_t h2)
{
    const v256 x = bcast_h2(h2);
    int r = simde_mm256_testc_si256(simde_mm256_load_si256((const void *)blk),
                                    split_mask(x, c->salt_lo));
    if (c->k > 8)
        r &= simde_mm256_testc_si256(
            simde_mm256_load_si256((const void *)((const char *)blk + 32)),
            split_mask(x, c->salt_hi));
    return r;
}
#endif

/* Returns whether a bit was clear (testc of the words it loads anyway). */
static inline int pipe_split_add(const pipe_ctx *c, void *blk, uint64_t h2)
{
    const v256 x = bcast_h2(h2);
    v256 *p = (v256 *)blk;
    const v256 m0 = split_mask(x, c->salt_lo), w0 = simde_mm256_load_si256(p);
    int all = simde_mm256_testc_si256(w0, m0);
    simde_mm256_store_si256(p, simde_mm256_or_si256(w0, m0));
    if (c->k > 8) {
        const v256 m1 = split_mask(x, c->salt_hi), w1 = simde_mm256_load_si256(p + 1);
        all &= simde_mm256_testc_si256(w1, m1);
        simde_mm256_store_si256(p + 1, simde_mm256_or_si256(w1, m1));
    }
    return !all;
}

#if defined(SBFI_KERNEL_AVX2)
/* The key's 512-bit mask in two registers (words 0..3, 4..7): for each
 * position p_i (i < k), lane w of sllv(1, p_i - 64 w) is bit p_i & 63 in its
 * word and 0 elsewhere (vpsllvq shifts a count above 63, negative ones
 * wrapping, to 0). No store-to-load round trip through a mask array; the
 * portable build keeps the scalar form (SIMDe emulates vpsllvq per lane). */
#define PIPE_HAVE_MASK 1
/* The block of a concurrent filter: relaxed atomic loads gathered in
 * registers, stored as whole vectors (see pipeline.h). */
#define PIPE_HAVE_COPY 1
static inline void pipe_copy_block_atomic(void *dst, const uint64_t *src, unsigned n)
{
    v256 *d = (v256 *)dst;
    for (unsigned h = 0; h < n; h += 4)
        simde_mm256_store_si256(d + h / 4, simde_mm256_set_epi64x(
            (int64_t)__atomic_load_n(&src[h + 3], __ATOMIC_RELAXED),
            (int64_t)__atomic_load_n(&src[h + 2], __ATOMIC_RELAXED),
            (int64_t)__atomic_load_n(&src[h + 1], __ATOMIC_RELAXED),
            (int64_t)__atomic_load_n(&src[h], __ATOMIC_RELAXED)));
}

static inline void mask512(const pipe_ctx *c, uint64_t h2, uint32_t k, int shift,
                           int scale, v256 *lo, v256 *hi)
{
    _Alignas(64) uint32_t pos[16];
    const v256 x = bcast_h2(h2);
    const v256 bl = simde_mm256_setr_epi64x(0, 64, 128, 192);
    const v256 bh = simde_mm256_setr_epi64x(256, 320, 384, 448);
    const v256 one = c64(1);
    simde_mm256_store_si256((void *)pos, simde_mm256_slli_epi32(
        simde_mm256_srli_epi32(mullo32(x, c->salt_lo), shift), scale));
    if (k > 8)
        simde_mm256_store_si256((void *)(pos + 8), simde_mm256_slli_epi32(
            simde_mm256_srli_epi32(mullo32(x, c->salt_hi), shift), scale));
    v256 ml = simde_mm256_setzero_si256(), mh = simde_mm256_setzero_si256();
    for (uint32_t i = 0; i < k; i++) {
        const v256 p = c64(pos[i]);
        ml = simde_mm256_or_si256(ml, simde_mm256_sllv_epi64(one, simde_mm256_sub_epi64(p, bl)));
        mh = simde_mm256_or_si256(mh, simde_mm256_sllv_epi64(one, simde_mm256_sub_epi64(p, bh)));
    }
    *lo = ml;
    *hi = mh;
}

static inline void pipe_mask_words(const pipe_ctx *c, uint64_t h2, uint32_t k,
                                   int shift, int scale, uint64_t m[8])
{
    v256 lo, hi;
    mask512(c, h2, k, shift, scale, &lo, &hi);
    simde_mm256_storeu_si256((void *)m, lo);
    simde_mm256_storeu_si256((void *)(m + 4), hi);
}

/* Returns whether a counter rose from 0. */
static inline int pipe_counting_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                    uint32_t k)
{
    v256 lo, hi, zero = simde_mm256_setzero_si256();
    v256 *p = (v256 *)blk;
    mask512(c, h2, k, SBFI_SHIFT_COUNTING, SBFI_NIB_SCALE, &lo, &hi);
    /* +1 unless 15, SWAR: the inline header's sbf_inl_nib_inc8 */
    simde_mm256_store_si256(p, sbf_inl_nib_inc8(simde_mm256_load_si256(p), lo, &zero));
    simde_mm256_store_si256(p + 1, sbf_inl_nib_inc8(simde_mm256_load_si256(p + 1), hi, &zero));
    return !all_zero(zero);
}
#endif

/* Hashes of many keys in lanes (simd/lanes.h): native AVX2 only. The
 * portable build of them measured 1.3-5x slower than the scalar references
 * on x86-64 (SIMDe emulates the 64-bit lane arithmetic with SSE2), so its
 * table keeps the scalar ones; -DSBFI_SIMDE_LANES builds them in anyway
 * (to test or measure them). Before pipeline.h: its fused 64-bit stages. */
#if defined(SBFI_KERNEL_AVX2) || defined(SBFI_SIMDE_LANES)
#  include "lanes_avx2.h"
#endif
#include "pipeline.h"
#include "pipe_key.h"
#include "pipe_table.h"

#if defined(SBFI_KERNEL_AVX2)
const sbfi_kernels sbfi_kernels_avx2 = {
    SBFI_ID_AVX2,
    .hash_u64 = hash_u64,
    .ops = &pipe_ops,  /* simd/pipe_table.h */
    .add_key_k = PIPE_ADD_K_TABLE,
    .split_key = PIPE_SPLIT_KEY_TABLE,
    /* hashes of many keys: lanes where they win (simd/lanes_avx2.h) */
    .hash_bytes = lanes_hash_bytes,
    .xxh64_u64 = lanes_xxh64_u64,
    .xxh64_bytes = sbfi_xxh64_bytes_scalar,
    .xxh3_u64 = lanes_xxh3_u64,
    .xxh3_bytes = sbfi_xxh3_bytes_flat,
    .fmix_u64 = lanes_fmix_u64,
    .fmix_bytes = sbfi_fmix_bytes_flat,
};
#else
const sbfi_kernels sbfi_kernels_simde = {
    SBFI_ID_SIMDE,
    .hash_u64 = hash_u64,
    .ops = &pipe_ops,  /* simd/pipe_table.h */
#if defined(SBFI_SIMDE_LANES)
    .hash_bytes = lanes_hash_bytes,
    .xxh64_u64 = lanes_xxh64_u64,
    .xxh64_bytes = lanes_xxh64_bytes,
    .xxh3_u64 = lanes_xxh3_u64,
    .fmix_u64 = lanes_fmix_u64,
#else
    .hash_bytes = sbfi_hash_bytes_scalar,
    .xxh64_u64 = sbfi_xxh64_u64_scalar,
    .xxh64_bytes = sbfi_xxh64_bytes_scalar,
    .xxh3_u64 = sbfi_xxh3_u64_scalar,
    .fmix_u64 = sbfi_fmix_u64_scalar,
#endif
    .xxh3_bytes = sbfi_xxh3_bytes_flat,
    .fmix_bytes = sbfi_fmix_bytes_flat,
};
#endif
