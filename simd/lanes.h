/*
 * Hashes of many keys in SIMD lanes, written once for every ISA:
 *   lanes_hash_bytes   MurmurHash3_x64_128 of byte strings (simd/lanes_mm.h)
 *   lanes_xxh64_u64    XXH64, seed 0, of each u64 key's 8 LE bytes (lanes_xxh.h)
 *   lanes_xxh64_bytes  XXH64, seed 0, of byte strings (lanes_xxh.h)
 *   lanes_xxh3_u64     XXH3_64bits_withSeed of u64 keys (lanes_xxh3.h)
 *   lanes_xxh3_bytes   XXH3_64bits_withSeed of byte strings (AVX-512:
 *                      lanes_xxh3.h and lanes_xxh3_512.h)
 *   lanes_fmix_u64     the fmix layouts' fmix64(key ^ s) (lanes_fmix.h)
 *   lanes_fmix_bytes   their byte strings (AVX-512: XXH3's lanes, then
 *                      fmix for 8-byte keys; lanes_fmix.h)
 * bit-exact with the scalar references in src/lanes.c (sbf_murmur3_x64_128,
 * libxxhash's XXH64). They fill the ISA table's hash_bytes, xxh64_u64 and
 * xxh64_bytes.
 *
 * Included once by simd/lanes_<isa>.h, which defines first (every function
 * static inline, so each copy is compiled with its file's target flags):
 *   LANES                 64-bit lanes per vector (8, 4, 2)
 *   LANES_SCALAR_MAX      how many long keys of a group finish in scalar code
 *   LANES_MIN_GROUP       a last group of fewer keys is hashed in scalar code
 *   LANES_VECTOR_BODY     0: every body block in scalar code (lanes only for
 *                         tails and finalisation), where vector blocks lose
 *   LANES_SCALAR_SHORT    MurmurHash3 of a group whose keys are all shorter
 *   LANES_SCALAR_TAIL     than SHORT, or all of one length with fewer than
 *                         TAIL tail bytes (len & 15), stays scalar (SHORT 0:
 *                         never)
 *   lv, lm                a vector of LANES uint64_t; a lane mask
 *   lv_set1(x)            x in every lane
 *   lv_load(p) lv_store(p, v)   LANES words at p (any alignment)
 *   lv_set(w)             lanes from LANES scalars just computed (kept in
 *                         registers: a vector load of words stored one by
 *                         one waits until the stores retire)
 *   lv_add lv_sub lv_xor lv_or lv_and
 *   lv_mulc(a, c)         a * c mod 2^64 per lane (c a constant)
 *   lv_mul32(a, b)        the 64-bit product of a's and b's low 32 bits
 *   lv_dup32(a)           each lane's low 32 bits in both of its halves
 *   lv_mulfold(a, b)      the 128-bit a * b, high word xor low word (XXH3's
 *   lv_bswap(a)           mult128_fold64); each lane's 8 bytes reversed
 *                         (AVX-512 only: lanes_xxh3_bytes)
 *   LV_ROTL(a, r) LV_SRL(a, r) LV_SLL(a, r)   by a constant r
 *   lv_srlv(a, c) lv_sllv(a, c)   by c per lane, read as signed: 0 when a
 *                         count is negative or 64 and more
 *   lv_gt(a, b)           lanes where a > b (signed; our values are small)
 *   lv_blend(m, a, b)     b where m, a elsewhere
 *   lv_bits(m)            the lanes set in m, as bits 0 .. LANES-1
 *   lv_blocks(a, lo, hi)  lane i of lo / hi: the words at addresses a[i],
 *                         a[i] + 8 (a: LANES addresses as uint64_t)
 *   lv_words(a)           lane i: the word at address a[i]
 *
 * Addresses are computed in lanes and stored for the loads: a lane with
 * nothing to read at a step reads lanes_zero. Lanes only ever read their own
 * key's bytes (and lanes_zero): a key's tail is read with loads that end at
 * its end, never past it.
 *
 * Keys of different lengths share a vector: a group of LANES keys runs the
 * body (16-byte blocks, 32-byte stripes) for as many steps as its
 * (LANES_SCALAR_MAX + 1)-th longest key needs, a lane whose key has no
 * block left at a step keeps its state (lane mask + blend), and a lane
 * whose key is longer still finishes its body in scalar code, so one long
 * key does not hold seven short ones for its whole length.
 */
#ifndef SBFI_LANES_H_8E2B5C13
#define SBFI_LANES_H_8E2B5C13

#include "sbf_internal.h"

#if !defined(LANES) || !defined(LANES_SCALAR_MAX) || !defined(LANES_MIN_GROUP) || \
    !defined(LANES_VECTOR_BODY) || !defined(LANES_SCALAR_SHORT) || !defined(LANES_SCALAR_TAIL)
#  error "define the lane operations (simd/lanes_<isa>.h) before simd/lanes.h"
#endif
#ifndef LANES_SCALAR_SLACK
#  define LANES_SCALAR_SLACK 2
#endif
#ifndef LANES_STEPS_ALL
#  define LANES_STEPS_ALL 8
#endif
_Static_assert(LANES_SCALAR_MAX >= 0 && LANES_SCALAR_MAX < LANES, "lanes policy");
_Static_assert(sizeof(size_t) == 8 && sizeof(void *) == 8,
               "lengths and addresses load as 64-bit lanes");

/* The table entries; an ISA's table may keep a scalar reference where its
 * lanes lose, leaving one of them unused. */
#if defined(__GNUC__)
#  define LANES_ENTRY static __attribute__((unused))
#else
#  define LANES_ENTRY static
#endif

/* What a lane reads when its key has nothing to read at a step. */
static const unsigned char lanes_zero[32] __attribute__((aligned(32)));

static inline uint64_t lanes_ld64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8); /* little-endian target (sbf_internal.h) */
    return v;
}

static inline uint64_t lanes_ld32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline int lv_any(lm m)
{
    return lv_bits(m) != 0;
}

static inline lv lanes_zero_addr(void)
{
    return lv_set1((uint64_t)(uintptr_t)lanes_zero);
}

/* lo / hi: the two words at each lane's address. */
static inline void lanes_blocks_at(lv addr, lv *lo, lv *hi)
{
    _Alignas(64) uint64_t a[LANES];
    lv_store(a, addr);
    lv_blocks(a, lo, hi);
}

static inline lv lanes_words_at(lv addr)
{
    _Alignas(64) uint64_t a[LANES];
    lv_store(a, addr);
    return lv_words(a);
}

/*
 * How many body steps a group runs in lanes, from the lanes' block counts
 * (lens >> shift): all of them when the longest key has at most
 * LANES_STEPS_ALL blocks (common keys: the selection below costs more than
 * a few masked steps), else the (LANES_SCALAR_MAX + 1)-th largest count,
 * the longer keys finishing in scalar code, unless that saves no more than
 * LANES_SCALAR_SLACK steps (the scalar finish costs a round trip of the
 * state). Measured on AVX-512 (lanes_avx512.h).
 */
static inline uint64_t lanes_steps(const uint64_t *lens, int shift)
{
    if (!LANES_VECTOR_BODY)
        return 0;
    uint64_t max = 0;
    for (int i = 0; i < LANES; i++)
        max = lens[i] > max ? lens[i] : max;
    if ((max >> shift) <= LANES_STEPS_ALL)
        return max >> shift;
    uint64_t top[LANES_SCALAR_MAX + 1] = { 0 };
    for (int i = 0; i < LANES; i++) {
        uint64_t x = lens[i] >> shift;
        for (int j = 0; j <= LANES_SCALAR_MAX; j++) {
            const uint64_t hi = x > top[j] ? x : top[j];
            x = x > top[j] ? top[j] : x;
            top[j] = hi;
        }
    }
    return top[0] - top[LANES_SCALAR_MAX] > LANES_SCALAR_SLACK ? top[LANES_SCALAR_MAX] : top[0];
}

/* A group: its keys' addresses and lengths in lanes, and the same as the
 * arrays they came from (LANES of each). */
typedef struct lanes_grp {
    lv p, len;
    const void *const *keys;
    const uint64_t *lens;
} lanes_grp;

static inline lanes_grp lanes_group(const void *const *keys, const uint64_t *lens)
{
    lanes_grp g;
    g.p = lv_load((const uint64_t *)(const void *)keys);
    g.len = lv_load(lens);
    g.keys = keys;
    g.lens = lens;
    return g;
}

/*
 * The end of each key. lanes_end16 gives, per lane, the last 16 bytes of
 * the key as two little-endian words, right-aligned: lo holds bytes
 * len-16 .. len-9, hi bytes len-8 .. len-1, and a byte before the key's
 * start reads as 0 (a key shorter than 16). lanes_end32 gives the last 32
 * bytes the same way (w[0] .. w[3]). Every load lies inside the key: a key
 * of 16 bytes or more is read in 16-byte pieces ending at its end (and its
 * first 16 bytes, moved up, when it is shorter than 32); one of 8..15 bytes
 * as the words at its two ends; a shorter one in scalar code.
 */

/* Keys of 0..7 bytes, right-aligned in a word (the bytes at the top):
 * 4..7 bytes as two overlapping 4-byte loads, 1..3 as three bytes. */
static inline uint64_t lanes_small(const unsigned char *p, uint64_t len)
{
    if (len >= 4)
        return lanes_ld32(p + len - 4) << 32 | lanes_ld32(p) << (8 * (8 - len));
    if (len == 0)
        return 0;
    return (uint64_t)p[0] << (8 * (8 - len)) |
           (uint64_t)p[len >> 1] << (8 * (8 - len + (len >> 1))) |
           (uint64_t)p[len - 1] << 56;
}

/* Lanes whose key is shorter than 16 bytes get their lo, hi here. */
static inline void lanes_end_short(const lanes_grp *g, lv *lo, lv *hi)
{
    const lv z = lanes_zero_addr();
    const lm ge8 = lv_gt(g->len, lv_set1(7)), lt16 = lv_gt(lv_set1(16), g->len);
    const lv first = lv_blend(ge8, z, lv_blend(lt16, z, g->p));
    const lv last = lv_blend(ge8, z, lv_blend(lt16, z, lv_add(g->p, lv_sub(g->len, lv_set1(8)))));
    /* 8..15 bytes: hi = the last 8, lo = the first 8 moved up by 16 - len
     * bytes (and 0 for 0..7 bytes, which read lanes_zero) */
    *lo = lv_blend(lt16, *lo, lv_sllv(lanes_words_at(first),
                                      LV_SLL(lv_sub(lv_set1(16), g->len), 3)));
    *hi = lv_blend(lt16, *hi, lanes_words_at(last));
    /* 1..7 bytes (an empty key's lo, hi are 0 already) */
    unsigned tiny = lv_bits(lv_gt(lv_set1(8), g->len)) & lv_bits(lv_gt(g->len, lv_set1(0)));
    if (tiny != 0) {
        uint64_t w[LANES] = { 0 };
        for (; tiny != 0; tiny &= tiny - 1) { /* only those lanes */
            const int i = __builtin_ctz(tiny);
            w[i] = lanes_small(g->keys[i], g->lens[i]);
        }
        *hi = lv_or(*hi, lv_set(w)); /* hi is 0 in those lanes */
    }
}

static inline void lanes_end16(const lanes_grp *g, lv *lo, lv *hi)
{
    const lm ge16 = lv_gt(g->len, lv_set1(15));
    lanes_blocks_at(lv_blend(ge16, lanes_zero_addr(),
                             lv_add(g->p, lv_sub(g->len, lv_set1(16)))), lo, hi);
    if (lv_bits(lv_gt(lv_set1(16), g->len)) & lv_bits(lv_gt(g->len, lv_set1(0))))
        lanes_end_short(g, lo, hi); /* some key of 1..15 bytes */
}

static inline void lanes_end32(const lanes_grp *g, lv w[4])
{
    const lv z = lanes_zero_addr();
    const lm ge16 = lv_gt(g->len, lv_set1(15)), lt32 = lv_gt(lv_set1(32), g->len);
    const lv from16 = lv_add(g->p, lv_sub(g->len, lv_set1(16)));
    const lv first = lv_blend(ge16, z, lv_blend(lt32, lv_sub(from16, lv_set1(16)), g->p));
    lanes_blocks_at(first, &w[0], &w[1]);
    lanes_blocks_at(lv_blend(ge16, z, from16), &w[2], &w[3]);
    if (lv_any(lt32)) {
        /* under 32 bytes: w[0]:w[1] read the key's first 16 bytes (or
         * lanes_zero); move them up by u = 8 (32 - len) bits as one 128-bit
         * value */
        const lv u = LV_SLL(lv_sub(lv_set1(32), g->len), 3);
        const lv c64 = lv_set1(64);
        const lv hi = lv_or(lv_or(lv_sllv(w[1], u), lv_srlv(w[0], lv_sub(c64, u))),
                            lv_sllv(w[0], lv_sub(u, c64)));
        w[1] = lv_blend(lt32, w[1], hi);
        w[0] = lv_blend(lt32, w[0], lv_sllv(w[0], u));
        if (lv_bits(lv_gt(lv_set1(16), g->len)) & lv_bits(lv_gt(g->len, lv_set1(0))))
            lanes_end_short(g, &w[2], &w[3]); /* some key of 1..15 bytes */
    }
}

#include "lanes_mm.h"
#include "lanes_xxh.h"
#include "lanes_xxh3.h"
#include "lanes_fmix.h"

#endif /* SBFI_LANES_H_8E2B5C13 */
