/*
 * simdbloom_layout.h: where a key's bits live, written once.
 *
 * Part of simdbloom_inline.h (include that; alone this file stops with
 * #error). It is installed beside it because that header and the library
 * (src/sbf_internal.h, which defines SBF__LAYOUT_LIBRARY first) both
 * include it: the format's facts exist in this file only. Every name here
 * is internal (sbf__*, SBF__*), not API; simdbloom_inline.h gives the
 * documented ones (SBF_SALT, SBF_SHIFT_*, sbf_block_index,
 * sbf_murmur3_u64, sbf_parquet_pair, sbf_xxh3_flip8 ...) on top of them.
 *
 *   the hash of a key: MurmurHash3_x64_128 (h1, h2), or a 64-bit hash h
 *     (XXH64 seed 0: parquet; XXH3_64bits_withSeed: the XXH3 layouts;
 *     for 8-byte keys fmix64(key ^ sbf__fmix_s(seed)): the fmix layouts)
 *     mapped to h1 = h's high 32 bits in place, every 32-bit lane of
 *     h2 = h's low 32 bits (sbf__pair64)
 *   block = (h1 * nblocks) >> 64                      (sbf__block_index)
 *   x_i   = 32-bit lane i of h2: low half for even i, high half for odd i
 *   p_i   = (uint32_t)(x_i * salt[i]) >> shift         for i < k
 *   blocked:     bit p_i of the 512-bit block          (shift 23: 0..511)
 *   split-block: bit p_i of 32-bit word i              (shift 27: 0..31)
 *   counting:    4-bit counter p_i of the block        (shift 25: 0..127)
 * Bit p of a block is byte p / 8, bit p % 8 (little endian: word p / 64,
 * bit p % 64); counter c is byte c / 2, low nibble for even c. A position
 * a key names twice is set (counted) once.
 *
 * These are the file format: tests/vectors/layouts_kat.inc pins them on
 * every ISA, and a change is a new layout id, never an edit. It compiles
 * as C99 and later and as C++11 and later, warning-free with -Wall -Wextra.
 */
#ifndef SIMDBLOOM_LAYOUT_H_7C4D20B8
#define SIMDBLOOM_LAYOUT_H_7C4D20B8

#if !defined(SIMDBLOOM_INLINE_H_5B0E77D1) && !defined(SBF__LAYOUT_LIBRARY)
#  error "simdbloom_layout.h is part of simdbloom_inline.h: #include <simdbloom_inline.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* SBF__INL: always inlined (the hashes, the index, a position); the
 * probes and masks are plain static inline (SBF__PROBE): the compiler
 * weighs them in each caller (forced, the library's scalar and simde
 * kernels counted 1-5% more instructions in bench-check). */
#if defined(__GNUC__)
#  define SBF__INL static inline __attribute__((always_inline))
#  define SBF__ALIGNED_CONST __attribute__((unused, aligned(64)))
#else
#  define SBF__INL static inline
#  define SBF__ALIGNED_CONST
#endif
#define SBF__PROBE static inline

#if defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------------ constants */

/* MurmurHash3_x64_128 (SMHasher): the two block multipliers, fmix64's two */
#define SBF__MURMUR3_C1 UINT64_C(0x87c37b91114253d5)
#define SBF__MURMUR3_C2 UINT64_C(0x4cf5ad432745937f)
#define SBF__MURMUR3_F1 UINT64_C(0xff51afd7ed558ccd)
#define SBF__MURMUR3_F2 UINT64_C(0xc4ceb9fe1a85ec53)

/* XXH64's primes (xxHash's specification) */
#define SBF__XXH64_P1 UINT64_C(0x9E3779B185EBCA87)
#define SBF__XXH64_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define SBF__XXH64_P3 UINT64_C(0x165667B19E3779F9)
#define SBF__XXH64_P4 UINT64_C(0x85EBCA77C2B2AE63)
#define SBF__XXH64_P5 UINT64_C(0x27D4EB2F165667C5)

/* XXH3 of 4..8 bytes: kSecret bytes 8..15 and 16..23 (little endian), and
 * rrmxmx's multiplier */
#define SBF__XXH3_SECRET8 UINT64_C(0x1cad21f72c81017c)
#define SBF__XXH3_SECRET16 UINT64_C(0xdb979083e96dd4de)
#define SBF__XXH3_MX2 UINT64_C(0x9fb21c651e98df25)

/* The shifts: the top log2(N) bits of a 32-bit product pick one of N */
#define SBF__SHIFT_BLOCKED 23   /* one of the 512 bits of a block */
#define SBF__SHIFT_SPLIT 27     /* one of the 32 bits of word i */
#define SBF__SHIFT_COUNTING 25  /* one of the 128 4-bit counters */
#define SBF__SHIFT_WORD32 28    /* which of a block's 16 32-bit words */

/* The salts of the blocked, split-block and counting layouts (all of
 * them, MurmurHash3 and XXH3): 16 odd 32-bit multipliers (odd, so
 * x -> x * salt is a bijection mod 2^32 and the product's top bits mix all
 * of x). They have been these values since the first commit (75070ee),
 * which records no derivation: arbitrary constants, not the output of a
 * formula in this tree. */
SBF__ALIGNED_CONST static const uint32_t sbf__salt[16] = {
    0xb3315ad9u, 0xa977c1a5u, 0xe6b33c3bu, 0xa63e4075u,
    0x74d5a45fu, 0x1d1525d3u, 0x2bbbf131u, 0xbe1e4ffdu,
    0x5b33921fu, 0xc0aacef7u, 0xf51ac6a3u, 0x12e2ddf5u,
    0x51030813u, 0x2dfafb9fu, 0x5994d00du, 0xfd11614du,
};

/* Parquet's split-block filter (apache/parquet-format BloomFilter.md): the
 * spec's eight salts, one per 32-bit word of a 256-bit block (k is 8: the
 * entries past 8 are never used), on XXH64 (seed 0). */
SBF__ALIGNED_CONST static const uint32_t sbf__salt_parquet[16] = {
    0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u,
    0, 0, 0, 0, 0, 0, 0, 0,
};

/* ---------------------------------------------------------- block index */

/* The block of a key: the high 64 bits of h1 * nblocks (multiply-shift). */
SBF__INL uint64_t sbf__block_index(uint64_t h1, uint64_t nblocks)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 sbf__u128;
    return (uint64_t)(((sbf__u128)h1 * nblocks) >> 64);
#else
    const uint64_t a = h1 >> 32, b = h1 & 0xffffffffu;
    const uint64_t c = nblocks >> 32, d = nblocks & 0xffffffffu;
    const uint64_t bd = b * d, ad = a * d, bc = b * c;
    const uint64_t mid = (bd >> 32) + (ad & 0xffffffffu) + (bc & 0xffffffffu);
    return a * c + (ad >> 32) + (bc >> 32) + (mid >> 32);
#endif
}

/* A 64-bit stage's h as the (h1, h2) every probe reads: (h1 * z) >> 64 is
 * Parquet's ((h >> 32) * z) >> 32, and every 32-bit lane of h2 is its x. */
SBF__INL void sbf__pair64(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    *h1 = h & UINT64_C(0xffffffff00000000);
    *h2 = (uint64_t)(uint32_t)h * UINT64_C(0x100000001);
}

/* The block of a 64-bit stage's h for nblocks < 2^32 (the XXH3 layouts'
 * limit): sbf__block_index of sbf__pair64's h1, exactly, with a 64-bit
 * multiply instead of the 128-bit one. */
SBF__INL uint64_t sbf__block_index64(uint64_t h, uint64_t nblocks)
{
    return ((h >> 32) * nblocks) >> 32;
}

/* ------------------------------------------------ the hashes of 8 bytes */

/* clang's builtin: from the shifts, clang 14 made two multiplies of
 * rotl(x * c, r); gcc emits rorx from either. */
SBF__INL uint64_t sbf__rotl64(uint64_t x, int r)
{
#if defined(__has_builtin)
#  if __has_builtin(__builtin_rotateleft64)
    return __builtin_rotateleft64(x, (unsigned)r);
#  endif
#endif
    return (x << r) | (x >> (64 - r));
}

SBF__INL uint64_t sbf__fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= SBF__MURMUR3_F1;
    k ^= k >> 33;
    k *= SBF__MURMUR3_F2;
    k ^= k >> 33;
    return k;
}

/* The 8 bytes at p as a little-endian integer. */
SBF__INL uint64_t sbf__load64(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
#endif
}

/*
 * MurmurHash3_x64_128 of the 8 little-endian bytes of key (out[0] = h1,
 * out[1] = h2). With len = 8 there is no 16-byte block and only k1 of the
 * tail: with s8 = seed ^ 8 the finalisation's first steps are
 * h1 = (k1 ^ s8) + s8 and h2 = h1 + s8. Six 64-bit multiplies in all.
 */
SBF__INL void sbf__murmur3_u64(uint64_t key, uint32_t seed, uint64_t out[2])
{
    const uint64_t s8 = (uint64_t)seed ^ 8;
    const uint64_t k1 = sbf__rotl64(key * SBF__MURMUR3_C1, 31) * SBF__MURMUR3_C2;
    uint64_t h1 = (k1 ^ s8) + s8;
    uint64_t h2 = sbf__fmix64(h1 + s8);
    h1 = sbf__fmix64(h1) + h2;
    out[0] = h1;
    out[1] = h2 + h1;
}

/* XXH64 (seed 0) of the 8 little-endian bytes of key (the specification:
 * with len = 8 there is no stripe, one 8-byte lane, then the avalanche). */
SBF__INL uint64_t sbf__xxh64_u64(uint64_t key)
{
    uint64_t h = SBF__XXH64_P5 + 8;
    h ^= sbf__rotl64(key * SBF__XXH64_P2, 31) * SBF__XXH64_P1;
    h = sbf__rotl64(h, 27) * SBF__XXH64_P1 + SBF__XXH64_P4;
    h ^= h >> 33;
    h *= SBF__XXH64_P2;
    h ^= h >> 29;
    h *= SBF__XXH64_P3;
    return h ^ (h >> 32);
}

/* XXH3_64bits_withSeed of the 8 little-endian bytes of key (xxHash's
 * XXH3_len_4to8_64b: the key's 32-bit halves swapped, XOR-ed with
 * flip = sbf__xxh3_flip8(seed), then rrmxmx, two multiplies). flip
 * depends on the seed alone: made once per filter or view. */
SBF__INL uint64_t sbf__xxh3_flip8(uint32_t seed)
{
    const uint32_t sw = (seed >> 24) | ((seed >> 8) & 0xff00u) | ((seed << 8) & 0xff0000u) |
                        (seed << 24); /* bswap32 (gcc and clang emit bswap) */
    const uint64_t s = (uint64_t)seed ^ ((uint64_t)sw << 32);
    return (SBF__XXH3_SECRET8 ^ SBF__XXH3_SECRET16) - s;
}

SBF__INL uint64_t sbf__xxh3_u64(uint64_t key, uint64_t flip)
{
    uint64_t h = sbf__rotl64(key, 32) ^ flip;
    h ^= sbf__rotl64(h, 49) ^ sbf__rotl64(h, 24);
    h *= SBF__XXH3_MX2;
    h ^= (h >> 35) + 8; /* + len */
    h *= SBF__XXH3_MX2;
    return h ^ (h >> 28);
}

/* The fmix layouts' hash of the 8 little-endian bytes of key:
 * fmix64(key ^ s) (MurmurHash3's 64-bit finalizer: two multiplies, three
 * xorshifts), s = sbf__fmix_s(seed) = fmix64(seed + the golden ratio),
 * made once per filter or view. Other lengths hash as the XXH3 layouts
 * (XXH3_64bits_withSeed). */
#define SBF__FMIX_GOLDEN UINT64_C(0x9E3779B97F4A7C15)

SBF__INL uint64_t sbf__fmix_s(uint32_t seed)
{
    return sbf__fmix64((uint64_t)seed + SBF__FMIX_GOLDEN);
}

SBF__INL uint64_t sbf__fmix_u64(uint64_t key, uint64_t s)
{
    return sbf__fmix64(key ^ s);
}

/* ---------------------------------------------------- portable probes
 * blk: the key's block (its words); salt: the layout's; k <= 16. */

/* Lane i of h2 and position i of a key. */
SBF__INL uint32_t sbf__lane(uint64_t h2, uint32_t i)
{
    return (i & 1u) ? (uint32_t)(h2 >> 32) : (uint32_t)h2;
}

SBF__INL uint32_t sbf__pos(const uint32_t *salt, uint64_t h2, uint32_t i, int shift)
{
    return (uint32_t)(sbf__lane(h2, i) * salt[i]) >> shift;
}

/* Loop over a key's k <= 16 positions: for (i = 0; i < k; i++), written
 * with a constant trip count and an exit at k, which compilers unroll
 * completely (each i's lane is then known and the salt loads fold into the
 * multiplies); a loop to the variable k stays rolled and cost the scalar
 * probes about 5 instructions per position (bench-check). Use as
 * `SBF__FOR_POS(i, k) { ... }`. */
#if defined(__GNUC__)
#  define SBF__UNROLL_POS _Pragma("GCC unroll 16")
#else
#  define SBF__UNROLL_POS
#endif
#define SBF__FOR_POS(i, k) \
    SBF__UNROLL_POS for (uint32_t i = 0; i < 16; i++) \
        if (i >= (k)) break; else

/* Counter c of a block: byte c / 2, low nibble for even c. */
SBF__INL unsigned sbf__nibble(const unsigned char *blk, uint32_t c)
{
    return (blk[c >> 1] >> ((c & 1u) * 4)) & 15u;
}

/* Queries: 1 if every position is set (counters: not 0). Branch-free over
 * the k positions: a key's first clear position is unpredictable, and an
 * early exit mispredicts more than the tests cost. */
SBF__PROBE int sbf__blocked_has(const uint64_t *blk, const uint32_t *salt, uint32_t k,
                              uint64_t h2)
{
    const uint32_t *w = (const uint32_t *)(const void *)blk; /* as sbf__split_has */
    uint32_t ok = 1;
    SBF__FOR_POS(i, k) {
        const uint32_t p = sbf__pos(salt, h2, i, SBF__SHIFT_BLOCKED);
        ok &= w[p >> 5] >> (p & 31);
    }
    return (int)(ok & 1);
}

SBF__PROBE int sbf__split_has(const uint64_t *blk, const uint32_t *salt, uint32_t k,
                            uint64_t h2)
{
    /* 32-bit word i (little endian: a half of 64-bit word i / 2), read as
     * uint32_t: through memcpy (a char access) the loads might alias the
     * caller's hash locals, which gcc then kept in memory, 2 instructions a
     * key (bench-check); as a half of the 64-bit word, 4 shifts more. */
    const uint32_t *w = (const uint32_t *)(const void *)blk;
    uint32_t ok = 1;
    SBF__FOR_POS(i, k)
        ok &= w[i] >> sbf__pos(salt, h2, i, SBF__SHIFT_SPLIT);
    return (int)(ok & 1);
}

SBF__PROBE int sbf__counting_has(const uint64_t *blk, const uint32_t *salt, uint32_t k,
                               uint64_t h2)
{
    const unsigned char *b = (const unsigned char *)blk;
    int ok = 1;
    SBF__FOR_POS(i, k)
        ok &= sbf__nibble(b, sbf__pos(salt, h2, i, SBF__SHIFT_COUNTING)) != 0;
    return ok;
}

/* Adds: 1 if a bit was clear (the key changed the filter). Each position is
 * OR-ed into its word as it is tested. */
SBF__PROBE int sbf__blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k, uint64_t h2)
{
    uint64_t fresh = 0;
    SBF__FOR_POS(i, k) {
        const uint32_t p = sbf__pos(salt, h2, i, SBF__SHIFT_BLOCKED);
        const uint64_t bit = (uint64_t)1 << (p & 63), old = blk[p >> 6];
        fresh |= bit & ~old;
        blk[p >> 6] = old | bit;
    }
    return fresh != 0;
}

SBF__PROBE int sbf__split_add(uint64_t *blk, const uint32_t *salt, uint32_t k, uint64_t h2)
{
    uint32_t fresh = 0;
    SBF__FOR_POS(i, k) {
        uint32_t w;
        unsigned char *at = (unsigned char *)blk + 4 * i;
        const uint32_t bit = UINT32_C(1) << sbf__pos(salt, h2, i, SBF__SHIFT_SPLIT);
        memcpy(&w, at, 4);
        fresh |= ~w & bit;
        w |= bit;
        memcpy(at, &w, 4);
    }
    return fresh != 0;
}

/* +1 on each distinct counter of the key (one the key names twice counts
 * once; a counter at 15 stays at 15); 1 if one of them was 0. */
SBF__PROBE int sbf__counting_add(uint64_t *blk, const uint32_t *salt, uint32_t k, uint64_t h2)
{
    unsigned char *b = (unsigned char *)blk;
    uint64_t seen[2] = { 0, 0 };
    int fresh = 0;
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t c = sbf__pos(salt, h2, i, SBF__SHIFT_COUNTING);
        const uint64_t bit = (uint64_t)1 << (c & 63);
        if (seen[c >> 6] & bit)
            continue;
        seen[c >> 6] |= bit;
        const unsigned v = sbf__nibble(b, c);
        fresh |= v == 0;
        if (v < 15)
            b[c >> 1] = (unsigned char)(b[c >> 1] + (1u << ((c & 1u) * 4)));
    }
    return fresh;
}

/* ------------------------------------------------------------- masks
 * A key's bits as words, for adds that OR (or count) them in whole words. */

/* The 512-bit mask of a blocked key, as 8 words. */
SBF__PROBE void sbf__blocked_mask(const uint32_t *salt, uint64_t h2, uint32_t k, uint64_t m[8])
{
    for (int w = 0; w < 8; w++)
        m[w] = 0;
    SBF__FOR_POS(i, k) {
        const uint32_t p = sbf__pos(salt, h2, i, SBF__SHIFT_BLOCKED);
        m[p >> 6] |= (uint64_t)1 << (p & 63);
    }
}

/* The split-block mask: one bit in each of k (8 or 16) 32-bit words. */
SBF__PROBE void sbf__split_mask(const uint32_t *salt, uint64_t h2, uint32_t k, uint32_t m[16])
{
    SBF__FOR_POS(i, k)
        m[i] = UINT32_C(1) << sbf__pos(salt, h2, i, SBF__SHIFT_SPLIT);
}

/* The set of counters (0..127) a counting key touches, as a 128-bit mask. */
SBF__PROBE void sbf__counting_mask(const uint32_t *salt, uint64_t h2, uint32_t k, uint64_t m[2])
{
    m[0] = m[1] = 0;
    SBF__FOR_POS(i, k) {
        const uint32_t c = sbf__pos(salt, h2, i, SBF__SHIFT_COUNTING);
        m[c >> 6] |= (uint64_t)1 << (c & 63);
    }
}

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_LAYOUT_H_7C4D20B8 */
