/*
 * The lane operations of simd/lanes.h for NEON (AdvSIMD): two 64-bit lanes.
 * NEON has no 64-bit multiply; a * c is built from 32-bit products as
 * simd/neon.c's hash does: lo(a) lo(c) widening (vmlal_u32) plus the two
 * cross products (one vmulq_u32 against c with its halves swapped),
 * pairwise added and shifted up 32. Included by simd/neon.c.
 *
 * Speed cannot be timed here (qemu); instructions executed per key under
 * qemu-aarch64 -singlestep, 4096 keys, against the scalar references:
 *   XXH64 of u64 keys                  21 vs 56   (lanes)
 *   MurmurHash3, 8..64 bytes          153 vs 149  (lanes, body blocks scalar:
 *   MurmurHash3, 80..120 bytes        229 vs 229   173 and 272 with them in
 *                                                  lanes; the scalar tail
 *                                                  switch mispredicts on
 *                                                  mixed lengths, the lanes
 *                                                  have no such branch)
 *   MurmurHash3, all 5 / all 8 bytes  140 / 115 vs 93 / 32  (scalar then)
 *   XXH64, 80..120 bytes              399 vs 174  (scalar: simd/neon.c)
 */
#ifndef SBFI_LANES_NEON_H_1F8C3B57
#define SBFI_LANES_NEON_H_1F8C3B57

#include <simde/arm/neon.h>

#define LANES 2
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

typedef simde_uint64x2_t lv;
typedef simde_uint64x2_t lm; /* all ones in a lane that is set */

static inline lv lv_set1(uint64_t x)
{
    return simde_vdupq_n_u64(x);
}

static inline lv lv_load(const uint64_t *p)
{
    return simde_vld1q_u64(p);
}

static inline lv lv_set(const uint64_t w[2])
{
    return simde_vcombine_u64(simde_vcreate_u64(w[0]), simde_vcreate_u64(w[1]));
}

static inline void lv_store(uint64_t *p, lv v)
{
    simde_vst1q_u64(p, v);
}

static inline lv lv_add(lv a, lv b)
{
    return simde_vaddq_u64(a, b);
}

static inline lv lv_sub(lv a, lv b)
{
    return simde_vsubq_u64(a, b);
}

static inline lv lv_xor(lv a, lv b)
{
    return simde_veorq_u64(a, b);
}

static inline lv lv_or(lv a, lv b)
{
    return simde_vorrq_u64(a, b);
}

static inline lv lv_and(lv a, lv b)
{
    return simde_vandq_u64(a, b);
}

static inline lv lv_mulc(lv a, uint64_t c)
{
    const simde_uint32x4_t swap = simde_vreinterpretq_u32_u64(simde_vdupq_n_u64(c << 32 | c >> 32));
    const simde_uint32x4_t cross = simde_vmulq_u32(simde_vreinterpretq_u32_u64(a), swap);
    const lv hi = simde_vshlq_n_u64(simde_vpaddlq_u32(cross), 32);
    return simde_vmlal_u32(hi, simde_vmovn_u64(a), simde_vdup_n_u32((uint32_t)c));
}

/* The low 32 bits of a times those of b, a 64-bit product per lane
 * (xtn, umull). */
static inline lv lv_mul32(lv a, lv b)
{
    return simde_vmull_u32(simde_vmovn_u64(a), simde_vmovn_u64(b));
}

/* Each lane's low 32 bits in both of its halves (trn1). */
static inline lv lv_dup32(lv a)
{
    const simde_uint32x4_t w = simde_vreinterpretq_u32_u64(a);
    return simde_vreinterpretq_u64_u32(simde_vtrn1q_u32(w, w));
}

/* rotate: shift left, then insert the bits shifted out (VSRI). The count is
 * parenthesised: SIMDe 0.7.4's portable simde_vsriq_n_u64 uses its n
 * unparenthesised (64 - n), so "64 - r" there would compute 64 - 64 - r. */
#define LV_ROTL(a, r) simde_vsriq_n_u64(simde_vshlq_n_u64((a), (r)), (a), (64 - (r)))
#define LV_SRL(a, r) simde_vshrq_n_u64((a), (r))
#define LV_SLL(a, r) simde_vshlq_n_u64((a), (r))

/* USHL shifts left by a signed count (right when negative) taken from the
 * count's low byte; counts outside 0..63 are made to give 0 explicitly. */
static inline lv lv_sllv(lv a, lv c)
{
    const lv r = simde_vshlq_u64(a, simde_vreinterpretq_s64_u64(c));
    return simde_vbicq_u64(r, simde_vcgtq_u64(c, simde_vdupq_n_u64(63)));
}

static inline lv lv_srlv(lv a, lv c)
{
    const lv r = simde_vshlq_u64(a, simde_vnegq_s64(simde_vreinterpretq_s64_u64(c)));
    return simde_vbicq_u64(r, simde_vcgtq_u64(c, simde_vdupq_n_u64(63)));
}

static inline lm lv_gt(lv a, lv b)
{
    return simde_vcgtq_s64(simde_vreinterpretq_s64_u64(a), simde_vreinterpretq_s64_u64(b));
}

static inline lv lv_blend(lm m, lv a, lv b)
{
    return simde_vbslq_u64(m, b, a);
}

static inline unsigned lv_bits(lm m)
{
    return (unsigned)(simde_vgetq_lane_u64(m, 0) & 1) |
           (unsigned)(simde_vgetq_lane_u64(m, 1) & 1) << 1;
}

static inline simde_uint64x2_t lanes_ld128(uint64_t addr)
{
    return simde_vreinterpretq_u64_u8(simde_vld1q_u8((const uint8_t *)(uintptr_t)addr));
}

/* 16 bytes per lane, the low words zipped and the high words zipped. */
static inline void lv_blocks(const uint64_t a[2], lv *lo, lv *hi)
{
    const lv x = lanes_ld128(a[0]), y = lanes_ld128(a[1]);
    *lo = simde_vzip1q_u64(x, y);
    *hi = simde_vzip2q_u64(x, y);
}

static inline lv lv_words(const uint64_t a[2])
{
    return simde_vcombine_u64(
        simde_vreinterpret_u64_u8(simde_vld1_u8((const uint8_t *)(uintptr_t)a[0])),
        simde_vreinterpret_u64_u8(simde_vld1_u8((const uint8_t *)(uintptr_t)a[1])));
}

#include "lanes.h"

#endif /* SBFI_LANES_NEON_H_1F8C3B57 */
