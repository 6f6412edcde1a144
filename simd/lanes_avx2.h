/*
 * The lane operations of simd/lanes.h for AVX2: four 64-bit lanes. AVX2 has
 * no 64-bit multiply; a * c is built from three 32x32->64 products (the
 * high half of a times c, a times the high half of c, low halves), as
 * simd/avx2.c's hash does. Included by simd/avx2.c, which is compiled twice:
 * native (-mavx2) and as the portable `simde` kernel, where SIMDe lowers
 * each operation to what the target has (SSE2 on x86-64, NEON on aarch64).
 */
#ifndef SBFI_LANES_AVX2_H_62D4A90F
#define SBFI_LANES_AVX2_H_62D4A90F

#include <simde/x86/avx2.h>

#define LANES 4
#ifndef LANES_SCALAR_MAX
#  define LANES_SCALAR_MAX 1
#endif
#ifndef LANES_MIN_GROUP
#  define LANES_MIN_GROUP 2
#endif
#ifndef LANES_SCALAR_SHORT
#  define LANES_SCALAR_SHORT 9
#endif
#ifndef LANES_SCALAR_TAIL
#  define LANES_SCALAR_TAIL 3
#endif
#ifndef LANES_VECTOR_BODY
#  define LANES_VECTOR_BODY 0
#endif

typedef simde__m256i lv;
typedef simde__m256i lm; /* all ones in a lane that is set */

static inline lv lv_set1(uint64_t x)
{
    return simde_mm256_set1_epi64x((int64_t)x);
}

static inline lv lv_load(const uint64_t *p)
{
    return simde_mm256_loadu_si256((const void *)p);
}

static inline lv lv_set(const uint64_t w[4])
{
    return simde_mm256_set_epi64x((int64_t)w[3], (int64_t)w[2], (int64_t)w[1], (int64_t)w[0]);
}

static inline void lv_store(uint64_t *p, lv v)
{
    simde_mm256_storeu_si256((void *)p, v);
}

static inline lv lv_add(lv a, lv b)
{
    return simde_mm256_add_epi64(a, b);
}

static inline lv lv_sub(lv a, lv b)
{
    return simde_mm256_sub_epi64(a, b);
}

static inline lv lv_xor(lv a, lv b)
{
    return simde_mm256_xor_si256(a, b);
}

static inline lv lv_or(lv a, lv b)
{
    return simde_mm256_or_si256(a, b);
}

static inline lv lv_and(lv a, lv b)
{
    return simde_mm256_and_si256(a, b);
}

/* a * c mod 2^64 = lo(a) lo(c) + ((lo(a) hi(c) + hi(a) lo(c)) << 32). Native:
 * the cross terms are the two 32-bit products of a and c with its halves
 * swapped (one vpmulld), summed (measured 1.12x the three-vpmuludq form for
 * XXH64 of u64 keys). The portable build keeps three unsigned 32x32->64
 * multiplies: SIMDe 0.7.4 emulates _mm256_mullo_epi32 with a signed multiply
 * that overflows (simd/avx2.c's mullo32). */
static inline lv lv_mulc(lv a, uint64_t c)
{
#if defined(SBFI_KERNEL_AVX2)
    const lv x = simde_mm256_mullo_epi32(a, lv_set1(c << 32 | c >> 32));
    const lv cross = simde_mm256_slli_epi64(simde_mm256_add_epi64(x, simde_mm256_srli_epi64(x, 32)), 32);
#else
    const lv cross = simde_mm256_slli_epi64(
        simde_mm256_add_epi64(simde_mm256_mul_epu32(simde_mm256_srli_epi64(a, 32), lv_set1(c)),
                              simde_mm256_mul_epu32(a, lv_set1(c >> 32))), 32);
#endif
    return simde_mm256_add_epi64(simde_mm256_mul_epu32(a, lv_set1(c)), cross);
}

/* The low 32 bits of a times those of b, a 64-bit product per lane
 * (vpmuludq). */
static inline lv lv_mul32(lv a, lv b)
{
    return simde_mm256_mul_epu32(a, b);
}

/* Each lane's low 32 bits in both of its halves (vpshufd). */
static inline lv lv_dup32(lv a)
{
    return simde_mm256_shuffle_epi32(a, 0xa0);
}

#define LV_ROTL(a, r) \
    simde_mm256_or_si256(simde_mm256_slli_epi64((a), (r)), simde_mm256_srli_epi64((a), 64 - (r)))
#define LV_SRL(a, r) simde_mm256_srli_epi64((a), (r))
#define LV_SLL(a, r) simde_mm256_slli_epi64((a), (r))

/* vpsrlvq / vpsllvq: a count of 64 or more (a negative one read unsigned)
 * gives 0; SIMDe's emulation does the same. */
static inline lv lv_srlv(lv a, lv c)
{
    return simde_mm256_srlv_epi64(a, c);
}

static inline lv lv_sllv(lv a, lv c)
{
    return simde_mm256_sllv_epi64(a, c);
}

static inline lm lv_gt(lv a, lv b)
{
    return simde_mm256_cmpgt_epi64(a, b);
}

static inline lv lv_blend(lm m, lv a, lv b)
{
    return simde_mm256_blendv_epi8(a, b, m);
}

static inline unsigned lv_bits(lm m)
{
    return (unsigned)simde_mm256_movemask_pd(simde_mm256_castsi256_pd(m));
}

static inline simde__m128i lanes_ld128(uint64_t addr)
{
    return simde_mm_loadu_si128((const void *)(uintptr_t)addr);
}

/* 16 bytes per lane: lanes 0, 2 in x and 1, 3 in y (a 128-bit lane each),
 * then the low and high words interleaved. */
static inline void lv_blocks(const uint64_t a[4], lv *lo, lv *hi)
{
    const lv x = simde_mm256_inserti128_si256(simde_mm256_castsi128_si256(lanes_ld128(a[0])),
                                              lanes_ld128(a[2]), 1);
    const lv y = simde_mm256_inserti128_si256(simde_mm256_castsi128_si256(lanes_ld128(a[1])),
                                              lanes_ld128(a[3]), 1);
    *lo = simde_mm256_unpacklo_epi64(x, y);
    *hi = simde_mm256_unpackhi_epi64(x, y);
}

/* 8 bytes per lane: two lanes per 128-bit register (movq, movhpd). */
static inline simde__m128i lanes_ld2x64(uint64_t a, uint64_t b)
{
    const simde__m128d lo =
        simde_mm_castsi128_pd(simde_mm_loadl_epi64((const void *)(uintptr_t)a));
    return simde_mm_castpd_si128(simde_mm_loadh_pd(lo, (const double *)(uintptr_t)b));
}

static inline lv lv_words(const uint64_t a[4])
{
    return simde_mm256_inserti128_si256(simde_mm256_castsi128_si256(lanes_ld2x64(a[0], a[1])),
                                        lanes_ld2x64(a[2], a[3]), 1);
}

#include "lanes.h"

#endif /* SBFI_LANES_AVX2_H_62D4A90F */
