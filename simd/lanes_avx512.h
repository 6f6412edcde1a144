/*
 * The lane operations of simd/lanes.h for AVX-512 (F, DQ): eight 64-bit
 * lanes, the native 64-bit multiply (vpmullq) and rotate (vprolq), mask
 * registers for the per-lane steps. Included by simd/avx512.c (compiled
 * with -mavx512f -mavx512dq ...), which puts lanes_* in its table.
 */
#ifndef SBFI_LANES_AVX512_H_0C7A31E4
#define SBFI_LANES_AVX512_H_0C7A31E4

#include <simde/x86/avx512.h>

#define LANES 8
/* Measured (4096 keys, this VM's EPYC): the body to the longest key of the
 * group when it has at most 8 blocks; beyond that the two longest finish in
 * scalar code when that saves more than 2 steps. Against running every
 * group to its longest key: the same on 8..64 and 80..120-byte keys, 1.85x
 * faster on keys of 20..80 bytes with one in ten of 200..2000 (one lane
 * finishing in scalar code: 1.7x). */
#ifndef LANES_SCALAR_MAX
#  define LANES_SCALAR_MAX 2
#endif
#ifndef LANES_MIN_GROUP
#  define LANES_MIN_GROUP 2
#endif
#ifndef LANES_SCALAR_SHORT
#  define LANES_SCALAR_SHORT 0
#endif
#ifndef LANES_SCALAR_TAIL
#  define LANES_SCALAR_TAIL 0
#endif
#ifndef LANES_VECTOR_BODY
#  define LANES_VECTOR_BODY 1
#endif

typedef simde__m512i lv;
typedef simde__mmask8 lm;

static inline lv lv_set1(uint64_t x)
{
    return simde_mm512_set1_epi64((int64_t)x);
}

static inline lv lv_load(const uint64_t *p)
{
    return simde_mm512_loadu_si512((const void *)p);
}

/* Lanes from scalars the caller computed (kept in registers: a vector load
 * of values just stored one by one waits for the stores to retire). */
static inline lv lv_set(const uint64_t w[8])
{
    return simde_mm512_set_epi64((int64_t)w[7], (int64_t)w[6], (int64_t)w[5], (int64_t)w[4],
                                 (int64_t)w[3], (int64_t)w[2], (int64_t)w[1], (int64_t)w[0]);
}

static inline void lv_store(uint64_t *p, lv v)
{
    simde_mm512_storeu_si512((void *)p, v);
}

static inline lv lv_add(lv a, lv b)
{
    return simde_mm512_add_epi64(a, b);
}

static inline lv lv_sub(lv a, lv b)
{
    return simde_mm512_sub_epi64(a, b);
}

static inline lv lv_xor(lv a, lv b)
{
    return simde_mm512_xor_si512(a, b);
}

static inline lv lv_or(lv a, lv b)
{
    return simde_mm512_or_si512(a, b);
}

static inline lv lv_and(lv a, lv b)
{
    return simde_mm512_and_si512(a, b);
}

/* vpsrlvq / vpsllvq: a count of 64 or more (a negative one read unsigned)
 * gives 0. */
static inline lv lv_srlv(lv a, lv c)
{
    return simde_mm512_srlv_epi64(a, c);
}

static inline lv lv_sllv(lv a, lv c)
{
    return simde_mm512_sllv_epi64(a, c);
}

static inline lv lv_mulc(lv a, uint64_t c)
{
    return simde_mm512_mullo_epi64(a, lv_set1(c));
}

/* The low 32 bits of a times those of b, a 64-bit product per lane
 * (vpmuludq). */
static inline lv lv_mul32(lv a, lv b)
{
    return simde_mm512_mul_epu32(a, b);
}

/* Each lane's low 32 bits in both of its halves (vpshufd). */
static inline lv lv_dup32(lv a)
{
    return _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0xa0); /* (not in this SIMDe) */
}

/* XXH3's mult128_fold64 per lane: the 128-bit product of a and b, its
 * high and low words xored. The high word from four 32x32->64 products
 * (vpmuludq) and their carries, the low word from vpmullq (4% faster than
 * assembling it from the products: XXH3 of 8..64-byte keys, this VM). */
static inline lv lv_mulfold(lv a, lv b)
{
    const lv ah = simde_mm512_srli_epi64(a, 32), bh = simde_mm512_srli_epi64(b, 32);
    const lv p00 = simde_mm512_mul_epu32(a, b), p01 = simde_mm512_mul_epu32(a, bh);
    const lv p10 = simde_mm512_mul_epu32(ah, b), p11 = simde_mm512_mul_epu32(ah, bh);
    const lv m32 = simde_mm512_set1_epi64(0xffffffff);
    const lv cross = simde_mm512_add_epi64(
        simde_mm512_add_epi64(simde_mm512_srli_epi64(p00, 32), simde_mm512_and_si512(p10, m32)),
        p01);
    const lv hi = simde_mm512_add_epi64(
        simde_mm512_add_epi64(p11, simde_mm512_srli_epi64(p10, 32)),
        simde_mm512_srli_epi64(cross, 32));
    return simde_mm512_xor_si512(simde_mm512_mullo_epi64(a, b), hi);
}

/* Each lane's bytes reversed (vpshufb). */
static inline lv lv_bswap(lv a)
{
    const lv idx = simde_mm512_set_epi64(0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f,
                                         0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607,
                                         0x08090a0b0c0d0e0f, 0x0001020304050607);
    return simde_mm512_shuffle_epi8(a, idx);
}

#define LV_ROTL(a, r) simde_mm512_rol_epi64((a), (r))
#define LV_SRL(a, r) simde_mm512_srli_epi64((a), (r))
#define LV_SLL(a, r) simde_mm512_slli_epi64((a), (r))

static inline lm lv_gt(lv a, lv b)
{
    return simde_mm512_cmpgt_epi64_mask(a, b);
}

static inline lv lv_blend(lm m, lv a, lv b)
{
    return simde_mm512_mask_blend_epi64(m, a, b);
}

static inline unsigned lv_bits(lm m)
{
    return m;
}

static inline simde__m128i lanes_ld128(uint64_t addr)
{
    return simde_mm_loadu_si128((const void *)(uintptr_t)addr);
}

/* 16 bytes per lane, transposed: even lanes' blocks in a, odd in b (one
 * 128-bit lane each), then the low and high words interleaved. */
static inline void lv_blocks(const uint64_t a[8], lv *lo, lv *hi)
{
    lv x = simde_mm512_castsi128_si512(lanes_ld128(a[0]));
    lv y = simde_mm512_castsi128_si512(lanes_ld128(a[1]));
    x = simde_mm512_inserti64x2(x, lanes_ld128(a[2]), 1);
    y = simde_mm512_inserti64x2(y, lanes_ld128(a[3]), 1);
    x = simde_mm512_inserti64x2(x, lanes_ld128(a[4]), 2);
    y = simde_mm512_inserti64x2(y, lanes_ld128(a[5]), 2);
    x = simde_mm512_inserti64x2(x, lanes_ld128(a[6]), 3);
    y = simde_mm512_inserti64x2(y, lanes_ld128(a[7]), 3);
    *lo = simde_mm512_unpacklo_epi64(x, y);
    *hi = simde_mm512_unpackhi_epi64(x, y);
}

/* 8 bytes per lane: two lanes per 128-bit register (movq, movhpd). */
static inline simde__m128i lanes_ld2x64(uint64_t a, uint64_t b)
{
    const simde__m128d lo =
        simde_mm_castsi128_pd(simde_mm_loadl_epi64((const void *)(uintptr_t)a));
    return simde_mm_castpd_si128(simde_mm_loadh_pd(lo, (const double *)(uintptr_t)b));
}

static inline lv lv_words(const uint64_t a[8])
{
    lv v = simde_mm512_castsi128_si512(lanes_ld2x64(a[0], a[1]));
    v = simde_mm512_inserti64x2(v, lanes_ld2x64(a[2], a[3]), 1);
    v = simde_mm512_inserti64x2(v, lanes_ld2x64(a[4], a[5]), 2);
    return simde_mm512_inserti64x2(v, lanes_ld2x64(a[6], a[7]), 3);
}

/* hash_bytes: simd/lanes_mm512.h (byte-masked loads), not lanes_mm.h's;
 * xxh3_bytes likewise: simd/lanes_xxh3_512.h */
#define LANES_MM_NATIVE 1
#define LANES_X3_NATIVE 1
#include "lanes.h"
#include "lanes_mm512.h"
#include "lanes_xxh3_512.h"

#endif /* SBFI_LANES_AVX512_H_0C7A31E4 */
