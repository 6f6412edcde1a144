/*
 * NEON (AdvSIMD) kernels for aarch64, written with SIMDe's prefixed
 * intrinsics (native NEON on aarch64; elsewhere SIMDe emulates them, which
 * lets the kernels be compiled and checked on x86 too).
 *
 * Hash: two 64-bit lanes; NEON has no 64-bit multiply, so a * c is built
 * from 32-bit products: lo(a)*lo(c) widening (vmlal_u32) plus the two cross
 * products (one vmulq_u32 against c with its halves swapped), pairwise
 * added and shifted up 32.
 * Probes (one key at a time, 16 32-bit products in four registers):
 *   blocked/counting contains: TBL over the whole 64-byte block (vqtbl4q_u8)
 *     fetches, for each of the 16 lanes, the byte holding its bit/counter
 *     (byte = product >> 26); vtst tests the bit (or nibble) in place.
 *   split-block: one multiply, shift by 27, variable shift of 1, bic + max.
 */
#include "sbf_internal.h"

#include <simde/arm/neon.h>

#if !defined(SBFI_KERNEL_NEON)
#  error "define SBFI_KERNEL_NEON"
#endif
/* The registry entry requires SBFI_FEAT_NEON (AdvSIMD). On aarch64 the
 * compiler must enable it; elsewhere SIMDe emulates it (a test build: the
 * table is never chosen there, detection reads the aarch64 hwcaps). */
#if defined(__aarch64__) && !defined(__ARM_NEON)
#  error "the neon kernels need AdvSIMD (__ARM_NEON): SBFI_FEAT_NEON"
#endif
_Static_assert(SBFI_FEAT_NEON == SBFI_CPU_ASIMD,
               "simd/neon.c checks every compiler feature of SBFI_FEAT_NEON");

typedef simde_uint64x2_t u64x2;
typedef simde_uint32x4_t u32x4;
typedef simde_uint8x16_t u8x16;


/* ------------------------------------------------------------- hashing */

/* a * c mod 2^64 per lane from 32-bit products; cswap = c with the 32-bit
 * halves of each lane swapped. */
static inline u64x2 mul64(u64x2 a, simde_uint32x2_t clo, u32x4 cswap)
{
    const u32x4 cross = simde_vmulq_u32(simde_vreinterpretq_u32_u64(a), cswap);
    const u64x2 hi = simde_vshlq_n_u64(simde_vpaddlq_u32(cross), 32);
    return simde_vmlal_u32(hi, simde_vmovn_u64(a), clo);
}

typedef struct mconst {
    simde_uint32x2_t lo;
    u32x4 swap;
} mconst;

static inline mconst mc(uint64_t c)
{
    mconst r;
    r.lo = simde_vdup_n_u32((uint32_t)c);
    r.swap = simde_vreinterpretq_u32_u64(
        simde_vdupq_n_u64((c << 32) | (c >> 32)));
    return r;
}

static inline u64x2 xorshift33(u64x2 x)
{
    return simde_veorq_u64(x, simde_vshrq_n_u64(x, 33));
}

typedef struct hconst {
    mconst c1, c2, f1, f2;
    u64x2 s8;
} hconst;

static inline void hconst_init(hconst *h, uint32_t seed)
{
    h->c1 = mc(SBFI_C1);
    h->c2 = mc(SBFI_C2);
    h->f1 = mc(SBF_MURMUR3_F1);
    h->f2 = mc(SBF_MURMUR3_F2);
    h->s8 = simde_vdupq_n_u64((uint64_t)seed ^ 8);
}

static inline u64x2 fmix(const hconst *h, u64x2 x)
{
    x = xorshift33(x);
    x = mul64(x, h->f1.lo, h->f1.swap);
    x = xorshift33(x);
    x = mul64(x, h->f2.lo, h->f2.swap);
    return xorshift33(x);
}

/* sbfi_murmur3_u64 in two lanes. */
static inline void hash2(const hconst *h, u64x2 key, u64x2 *h1o, u64x2 *h2o)
{
    u64x2 k1 = mul64(key, h->c1.lo, h->c1.swap);
    k1 = simde_vsriq_n_u64(simde_vshlq_n_u64(k1, 31), k1, 33); /* rotl 31 */
    k1 = mul64(k1, h->c2.lo, h->c2.swap);
    u64x2 h1 = simde_vaddq_u64(simde_veorq_u64(k1, h->s8), h->s8);
    u64x2 h2 = simde_vaddq_u64(h1, h->s8);
    h1 = fmix(h, h1);
    h2 = fmix(h, h2);
    h1 = simde_vaddq_u64(h1, h2);
    h2 = simde_vaddq_u64(h2, h1);
    *h1o = h1;
    *h2o = h2;
}

static void hash_u64(const uint64_t *keys, size_t n, uint32_t seed,
                     uint64_t *h1, uint64_t *h2)
{
    hconst hc;
    u64x2 a, b;
    size_t i = 0;
    hconst_init(&hc, seed);
    for (; i + 2 <= n; i += 2) {
        hash2(&hc, simde_vld1q_u64(keys + i), &a, &b);
        simde_vst1q_u64(h1 + i, a);
        simde_vst1q_u64(h2 + i, b);
    }
    if (i < n) {
        const uint64_t t[2] = { keys[i], 0 };
        hash2(&hc, simde_vld1q_u64(t), &a, &b);
        h1[i] = simde_vgetq_lane_u64(a, 0);
        h2[i] = simde_vgetq_lane_u64(b, 0);
    }
}

/* ------------------------------------------------------------ pipeline */

typedef struct pipe_ctx {
    hconst hc;
    u32x4 salt[4];        /* the layout's salts [4j .. 4j+3] */
    u8x16 off;            /* 0xff in lanes i >= k: those always pass */
    uint64_t nb;
    uintptr_t base;
    unsigned shift;
    uint32_t k;
} pipe_ctx;

static inline void pipe_ctx_init(pipe_ctx *c, const sbf_filter *f)
{
    uint8_t off[16];
    hconst_init(&c->hc, f->seed);
    for (int j = 0; j < 4; j++)
        c->salt[j] = simde_vld1q_u32(f->salt + 4 * j);
    for (uint32_t i = 0; i < 16; i++)
        off[i] = i < f->k ? 0 : 0xff;
    c->off = simde_vld1q_u8(off);
    c->nb = f->nblocks;
    c->base = (uintptr_t)f->words;
    c->shift = f->block_log2;
    c->k = f->k;
}

/* What the probes read (salts, the lanes i >= k, k); the hash constants are
 * left out. */
static inline void pipe_ctx_init_key(pipe_ctx *c, const sbf_filter *f)
{
    static const uint8_t iota[16] = { 0, 1, 2, 3, 4, 5, 6, 7,
                                      8, 9, 10, 11, 12, 13, 14, 15 };
    for (int j = 0; j < 4; j++)
        c->salt[j] = simde_vld1q_u32(f->salt + 4 * j);
    c->off = simde_vcgeq_u8(simde_vld1q_u8(iota), simde_vdupq_n_u8((uint8_t)f->k));
    c->k = f->k;
}

static inline void pipe_stage(const pipe_ctx *c, const uint64_t *keys,
                              size_t len, uint64_t *a, uint64_t *h2,
                              int classic)
{
    for (size_t i = 0; i < len; i += 2) {
        u64x2 x1, x2;
        const uint64_t t[2] = { keys[i], i + 1 < len ? keys[i + 1] : 0 };
        hash2(&c->hc, simde_vld1q_u64(t), &x1, &x2);
        simde_vst1q_u64(h2 + i, x2);
        simde_vst1q_u64(a + i, x1);
        if (!classic) {
            /* umulh is one instruction here; no vector form needed. */
            a[i] = c->base + (sbfi_block_index(a[i], c->nb) << c->shift);
            a[i + 1] = c->base + (sbfi_block_index(a[i + 1], c->nb) << c->shift);
        }
    }
}

/* Block addresses of len hashes h1 (umulh is one instruction here). */
static inline void pipe_address(const pipe_ctx *c, const uint64_t *h1, size_t len,
                                uint64_t *a)
{
    for (size_t i = 0; i < len; i++)
        a[i] = c->base + (sbfi_block_index(h1[i], c->nb) << c->shift);
}

static inline u32x4 bcast_h2(uint64_t h2)
{
    return simde_vreinterpretq_u32_u64(simde_vdupq_n_u64(h2));
}

static inline void pipe_products(const pipe_ctx *c, uint64_t h2, uint32_t prod[16])
{
    const u32x4 x = bcast_h2(h2);
    for (int j = 0; j < 4; j++)
        simde_vst1q_u32(prod + 4 * j, simde_vmulq_u32(x, c->salt[j]));
}

/* The 16 products, as bits 16..31 of lanes 0..7 and 8..15. */
typedef struct halves {
    simde_uint16x8_t lo, hi;
} halves;

static inline halves top_halves(const pipe_ctx *c, uint64_t h2)
{
    const u32x4 x = bcast_h2(h2);
    halves r;
    r.lo = simde_vuzp2q_u16(simde_vreinterpretq_u16_u32(simde_vmulq_u32(x, c->salt[0])),
                            simde_vreinterpretq_u16_u32(simde_vmulq_u32(x, c->salt[1])));
    r.hi = simde_vuzp2q_u16(simde_vreinterpretq_u16_u32(simde_vmulq_u32(x, c->salt[2])),
                            simde_vreinterpretq_u16_u32(simde_vmulq_u32(x, c->salt[3])));
    return r;
}

/* Bits 24..31 of each product (TOP_SHIFT); the block byte of lane i is
 * prod >> SBFI_SHIFT_BYTE = top >> (SBFI_SHIFT_BYTE - TOP_SHIFT). */
#define TOP_SHIFT 24
#define HALF_SHIFT 16 /* the halves hold bits 16..31 */
static inline u8x16 top_bytes(halves t)
{
    return simde_vuzp2q_u8(simde_vreinterpretq_u8_u16(t.lo),
                           simde_vreinterpretq_u8_u16(t.hi));
}

static inline int all_lanes(const pipe_ctx *c, u8x16 ok)
{
    return simde_vminvq_u8(simde_vorrq_u8(ok, c->off)) == 0xff;
}

static inline int pipe_blocked_contains(const pipe_ctx *c, const void *blk,
                                        uint64_t h2)
{
    const halves t = top_halves(c, h2);
    const u8x16 byte = simde_vshrq_n_u8(top_bytes(t), SBFI_SHIFT_BYTE - TOP_SHIFT);
    /* position p = prod >> SBFI_SHIFT_BLOCKED = (bits 16..31) >> 7; its bit
     * in the byte is p & 7 (vshrn keeps the low 8 bits) */
    const u8x16 p = simde_vcombine_u8(simde_vshrn_n_u16(t.lo, SBFI_SHIFT_BLOCKED - HALF_SHIFT),
                                      simde_vshrn_n_u16(t.hi, SBFI_SHIFT_BLOCKED - HALF_SHIFT));
    const u8x16 bit = simde_vshlq_u8(simde_vdupq_n_u8(1),
                                     simde_vreinterpretq_s8_u8(simde_vandq_u8(p, simde_vdupq_n_u8(7))));
    const u8x16 v = simde_vqtbl4q_u8(simde_vld1q_u8_x4((const uint8_t *)blk), byte);
    return all_lanes(c, simde_vtstq_u8(v, bit));
}

static inline int pipe_counting_contains(const pipe_ctx *c, const void *blk,
                                         uint64_t h2)
{
    const u8x16 top = top_bytes(top_halves(c, h2));
    /* counter c = prod >> SBFI_SHIFT_COUNTING = top >> 1: byte top >> 2,
     * nibble shift SBFI_NIB_SHIFT(c) = 4 * (c & 1) = (top << 1) & 4 */
    const u8x16 sh = simde_vandq_u8(
        simde_vshlq_n_u8(top, SBFI_NIB_SCALE - (SBFI_SHIFT_COUNTING - TOP_SHIFT)),
        simde_vdupq_n_u8(SBFI_COUNTER_BITS));
    const u8x16 nib = simde_vshlq_u8(simde_vdupq_n_u8(SBFI_COUNTER_MAX),
                                     simde_vreinterpretq_s8_u8(sh));
    const u8x16 v = simde_vqtbl4q_u8(simde_vld1q_u8_x4((const uint8_t *)blk),
                                     simde_vshrq_n_u8(top, SBFI_SHIFT_BYTE - TOP_SHIFT));
    return all_lanes(c, simde_vtstq_u8(v, nib));
}

static inline u32x4 split_mask(u32x4 x, u32x4 salt)
{
    const u32x4 b = simde_vshrq_n_u32(simde_vmulq_u32(x, salt), SBFI_SHIFT_SPLIT);
    return simde_vshlq_u32(simde_vdupq_n_u32(1), simde_vreinterpretq_s32_u32(b));
}

static inline int pipe_split_contains(const pipe_ctx *c, const void *blk,
                                      uint64_t h2)
{
    const u32x4 x = bcast_h2(h2);
    const uint32_t *w = (const uint32_t *)blk;
    u32x4 miss = simde_vorrq_u32(simde_vbicq_u32(split_mask(x, c->salt[0]), simde_vld1q_u32(w)),
                                 simde_vbicq_u32(split_mask(x, c->salt[1]), simde_vld1q_u32(w + 4)));
    if (c->k > 8) {
        miss = simde_vorrq_u32(miss, simde_vbicq_u32(split_mask(x, c->salt[2]),
                                                     simde_vld1q_u32(w + 8)));
        miss = simde_vorrq_u32(miss, simde_vbicq_u32(split_mask(x, c->salt[3]),
                                                     simde_vld1q_u32(w + 12)));
    }
    return simde_vmaxvq_u32(miss) == 0;
}

/* Returns whether a bit was clear (bic of the words it loads anyway). */
static inline int pipe_split_add(const pipe_ctx *c, void *blk, uint64_t h2)
{
    const u32x4 x = bcast_h2(h2);
    uint32_t *w = (uint32_t *)blk;
    const int nv = c->k > 8 ? 4 : 2;
    u32x4 miss = simde_vdupq_n_u32(0);
    for (int j = 0; j < nv; j++) {
        const u32x4 m = split_mask(x, c->salt[j]), old = simde_vld1q_u32(w + 4 * j);
        miss = simde_vorrq_u32(miss, simde_vbicq_u32(m, old));
        simde_vst1q_u32(w + 4 * j, simde_vorrq_u32(old, m));
    }
    return simde_vmaxvq_u32(miss) != 0;
}

#include "lanes_neon.h" /* before pipeline.h: its fused 64-bit stages */
#include "pipeline.h"
#include "pipe_key.h"
#include "pipe_table.h"

const sbfi_kernels sbfi_kernels_neon = {
    SBFI_ID_NEON,
    .hash_u64 = hash_u64,
    .ops = &pipe_ops,  /* simd/pipe_table.h */
    /* hashes of many keys: lanes where they win (simd/lanes_neon.h) */
    .hash_bytes = lanes_hash_bytes,
    .xxh64_u64 = lanes_xxh64_u64,
    .xxh64_bytes = sbfi_xxh64_bytes_scalar,
    .xxh3_u64 = lanes_xxh3_u64,
    .xxh3_bytes = sbfi_xxh3_bytes_flat,
    .fmix_u64 = lanes_fmix_u64,
    .fmix_bytes = sbfi_fmix_bytes_flat,
};
