/*
 * simdbloom_inline.h: one-key queries and adds compiled into the caller.
 *
 * The second public header (header only; it includes simdbloom.h). A call of
 * sbf_contains() costs a function call, an indirect call into the filter's
 * kernel, and argument checks; at a few nanoseconds per key that is a large
 * share. Here the same work is inlined where it is used, in the manner of
 * RocksDB's util/bloom_impl.h. One struct, one getter, six calls (two more
 * for one layout known when the loop is written), for every
 * layout:
 *
 *     sbf_view v;                        (a local of the loop's function)
 *     if (sbf_view_get(f, &v) != SBF_OK) ...   (sbf_view_get_writable: adds)
 *     for (...) hits += sbf_view_contains_u64(&v, key);
 *
 * sbf_view_contains_u64 / sbf_view_add_u64 (8-byte keys), sbf_view_contains
 * / sbf_view_add (bytes), sbf_view_contains_hash / sbf_view_add_hash (a
 * hash computed already). A loop whose filter's layout is known when it is
 * written names it, a constant, for that layout's code alone:
 *
 *     hits += sbf_view_contains_u64_as(&v, key, SBF_SPLIT_BLOCK_FMIX);
 *
 * (sbf_view_add_u64_as the same; a view of another layout gets the
 * generic call's answer). Answers, return values, filter bytes and
 * keys_added are exactly those of sbf_contains and sbf_add on every layout:
 * blocked, split-block, parquet and counting filters are probed inline;
 * classic and SBF_CONCURRENT filters (and anything a view cannot do inline)
 * are passed to the library's functions, so a view works for every filter.
 *
 * The vector code: with the compiler's flags for AVX-512 (F/BW/DQ/VL) or
 * AVX2 (-march=native, -mavx2 ...) the probe is inlined into the loop.
 * Without them on x86-64 (gcc -O2, as most programs are built) each call is
 * one direct call of the library's one-key kernel of the filter, the code
 * sbf_contains runs for the ISA the library chose (CPU detection, SBF_ISA)
 * without sbf_contains' checks; elsewhere portable C is inlined. Define
 * SBF_INLINE_ISA to SBF_ISA_SCALAR (1), SBF_ISA_AVX2 (3) or SBF_ISA_AVX512
 * (4) before including to choose yourself (1: portable C inlined), or
 * SBF_INLINE_NO_KERNELS for portable C instead of the kernels. It compiles
 * as C99 and later and as C++11 and later, warning-free with -Wall -Wextra.
 *
 * The bit layouts' facts (the MurmurHash3_x64_128 constants, the salts,
 * shifts and block index, the 8-byte hashes, the portable probes) are
 * written once, in simdbloom_layout.h, which this header includes and the
 * library includes too; the documented names (SBF_SALT, SBF_SHIFT_*,
 * sbf_block_index, sbf_murmur3_u64 ...) are defined here on top of it.
 * They are the file format: tests/vectors/layouts_kat.inc pins them, and a
 * change is a new layout id, never an edit.
 *
 * A view holds pointers into the filter: it is valid until sbf_free(f); it
 * survives sbf_clear, sbf_union and sbf_intersect (they keep the memory).
 * Internal names start sbf_inl_, sbf__, SBF_INL_ or SBF__: they are not API.
 */
#ifndef SIMDBLOOM_INLINE_H_5B0E77D1
#define SIMDBLOOM_INLINE_H_5B0E77D1

#include "simdbloom.h"
#include "simdbloom_layout.h" /* the layouts' facts, probes and 8-byte hashes */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------- which vectors */

#if !defined(SBF_INLINE_ISA)
#  if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
      defined(__AVX512VL__)
#    define SBF_INLINE_ISA 4
#  elif defined(__AVX2__)
#    define SBF_INLINE_ISA 3
#  else
#    define SBF_INLINE_ISA 1
/* No vector flags on x86-64: the library's kernels (see sbf__has_u64) */
#    if !defined(SBF_INLINE_NO_KERNELS) && (defined(__x86_64__) || defined(_M_X64))
#      define SBF_INL_KERNELS 1
#    endif
#  endif
#endif
#if !defined(SBF_INL_KERNELS)
#  define SBF_INL_KERNELS 0
#endif
#if SBF_INLINE_ISA == 4
#  define SBF_INL_AVX512 1
#  define SBF_INL_AVX2 0
#elif SBF_INLINE_ISA == 3
#  define SBF_INL_AVX512 0
#  define SBF_INL_AVX2 1
#elif SBF_INLINE_ISA == 1
#  define SBF_INL_AVX512 0
#  define SBF_INL_AVX2 0
#else
#  error "SBF_INLINE_ISA: 1 (portable), 3 (AVX2) or 4 (AVX-512)"
#endif
/* AVX-512 only: how the 8-byte hash's two fmix64 run. 1: in the two lanes
 * of one vector (vpmullq), where vpmullq is one micro-op (AMD Zen 4 and 5);
 * 0: as two scalar chains for filters the caches hold, in the vector above
 * SBF_INL_HASH8_VEC_BYTES. On Intel vpmullq is three micro-ops with 15
 * cycles of latency: there the vector form is slower on cached filters,
 * and the scalar one on large filters, where a call's fewer micro-ops leave
 * more misses in flight. Both are bit-exact. The default follows the
 * compiler's target: 1 when it targets an AMD Zen with AVX-512, else 0;
 * define it to 0 or 1 to choose. The library makes the same choice at run
 * time (CPUID, the filter's size). */
#define SBF_INL_HASH8_VEC_BYTES (UINT64_C(2) << 20)
#if !defined(SBF_INLINE_HASH8_VEC)
#  if SBF_INL_AVX512 && (defined(__znver3__) || defined(__znver4__) || defined(__znver5__))
#    define SBF_INLINE_HASH8_VEC 1
#  else
#    define SBF_INLINE_HASH8_VEC 0
#  endif
#endif

#if SBF_INL_AVX512 || SBF_INL_AVX2
/* GCC 12 (before 12.3) warns in its own AVX-512 headers, C++ only, from
 * -O1 with -Wall ("__Y may be used uninitialized": GCC bug 105593); quiet
 * there for the code these headers define. */
#  if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#    include <immintrin.h>
#    pragma GCC diagnostic pop
#  else
#    include <immintrin.h>
#  endif
#endif

#if defined(__GNUC__)
#  define SBF_INL static inline __attribute__((always_inline))
#  define SBF_INL_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#  define SBF_INL static inline
#  define SBF_INL_LIKELY(x) (x)
#endif
/* A case of a switch that goes on into the next (-Wimplicit-fallthrough) */
#if defined(__has_attribute)
#  if __has_attribute(fallthrough)
#    define SBF__FALLTHROUGH __attribute__((fallthrough))
#  endif
#endif
#if !defined(SBF__FALLTHROUGH)
#  define SBF__FALLTHROUGH ((void)0)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------ the layouts' facts
 * Written once, in simdbloom_layout.h (the library includes it too); the
 * documented names below are those. Where a key's bits live:
 *   block = (h1 * nblocks) >> 64                      (sbf_block_index)
 *   x_i   = 32-bit lane i of h2: low half for even i, high half for odd i
 *   p_i   = (uint32_t)(x_i * SBF_SALT[i]) >> shift    for i < k
 *   blocked:     bit p_i of the 512-bit block         (shift 23: 0..511)
 *   split-block: bit p_i of 32-bit word i             (shift 27: 0..31)
 *   counting:    4-bit counter p_i of the block       (shift 25: 0..127)
 * Bit p of a block is byte p / 8, bit p % 8 (little endian: word p / 64, bit
 * p % 64); counter c is byte c / 2, low nibble for even c.
 */

/* MurmurHash3_x64_128 (SMHasher): the two block multipliers, fmix64's two */
#define SBF_MURMUR3_C1 SBF__MURMUR3_C1
#define SBF_MURMUR3_C2 SBF__MURMUR3_C2
#define SBF_MURMUR3_F1 SBF__MURMUR3_F1
#define SBF_MURMUR3_F2 SBF__MURMUR3_F2

#define SBF_SHIFT_BLOCKED SBF__SHIFT_BLOCKED   /* 23 */
#define SBF_SHIFT_SPLIT SBF__SHIFT_SPLIT       /* 27 */
#define SBF_SHIFT_COUNTING SBF__SHIFT_COUNTING /* 25 */

/* SBF_SALT: the 16 salts of the blocked, split-block and counting layouts;
 * SBF_SALT_PARQUET: SBF_PARQUET's (the spec's eight, then zeros), whose
 * h = XXH64(value) becomes the pair of sbf_parquet_pair, so the spec's
 * block ((h >> 32) * z) >> 32 is the multiply-shift of h1 and each 32-bit
 * lane of h2 is the spec's x. */
#define SBF_SALT sbf__salt
#define SBF_SALT_PARQUET sbf__salt_parquet

SBF_INL void sbf_parquet_pair(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    sbf__pair64(h, h1, h2);
}

/* The block of a key: the high 64 bits of h1 * nblocks (multiply-shift). */
SBF_INL uint64_t sbf_block_index(uint64_t h1, uint64_t nblocks)
{
    return sbf__block_index(h1, nblocks);
}

/* ---------------------------------------------------------- MurmurHash3 */

/* The finalisation of every length: h1, h2 after the blocks and tail. */
SBF_INL void sbf_inl_murmur3_finish(uint64_t h1, uint64_t h2, uint64_t len,
                                    uint64_t out[2])
{
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = sbf__fmix64(h1);
    h2 = sbf__fmix64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
}

/*
 * MurmurHash3_x64_128 of the 8 little-endian bytes of key (out[0] = h1,
 * out[1] = h2), what sbf_murmur3_x64_128(&key, 8, seed, out) returns on a
 * little-endian machine. With len = 8 there is no 16-byte block and only
 * k1 of the tail: with s8 = seed ^ 8 the finalisation's first steps are
 * h1 = (k1 ^ s8) + s8 and h2 = h1 + s8. Six 64-bit multiplies in all.
 */
SBF_INL void sbf_murmur3_u64(uint64_t key, uint32_t seed, uint64_t out[2])
{
    sbf__murmur3_u64(key, seed, out);
}

SBF_INL uint64_t sbf_inl_load32(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24;
#endif
}

/*
 * MurmurHash3_x64_128 of len bytes at key (key may be NULL when len is 0),
 * bit-exact with SMHasher's MurmurHash3_x64_128 and sbf_murmur3_x64_128.
 * The reference reads its tail (len % 16 bytes) a byte at a time through a
 * 16-way switch: on keys of mixed lengths that switch's jump is mispredicted
 * about every key, and a mispredict costs more than the hash. Here the tail
 * comes from at most two 8-byte loads that end at the key's last byte, with
 * no branch on its length (k1 and k2 are the tail's first 8 and next 7 bytes,
 * zero-padded, as the switch builds them; mixing a zero k1 or k2 is the
 * identity, so both are always mixed). Keys of 1..7 bytes take two overlapping
 * 4-byte loads, or three bytes. Nothing is read outside [key, key + len).
 */
SBF_INL void sbf_murmur3_bytes(const void *key, size_t len, uint32_t seed,
                               uint64_t out[2])
{
    const unsigned char *data = (const unsigned char *)key;
    const uint64_t c1 = SBF_MURMUR3_C1, c2 = SBF_MURMUR3_C2;
    uint64_t h1 = seed, h2 = seed, k1, k2 = 0;
    if (SBF_INL_LIKELY(len >= 8)) {
        const size_t nblocks = len / 16;
        for (size_t i = 0; i < nblocks; i++) {
            k1 = sbf__load64(data + i * 16);
            k2 = sbf__load64(data + i * 16 + 8);
            k1 *= c1; k1 = sbf__rotl64(k1, 31); k1 *= c2; h1 ^= k1;
            h1 = sbf__rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
            k2 *= c2; k2 = sbf__rotl64(k2, 33); k2 *= c1; h2 ^= k2;
            h2 = sbf__rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
        }
        /* t tail bytes end at end, and len >= 8 bytes precede end: with
         * t > 8, k1 is the 8 bytes at end - t and k2 the last 8 bytes shifted
         * down to their last t - 8; with t <= 8, k1 is the last 8 bytes
         * shifted down to their last t and k2 is 0. */
        const unsigned char *end = data + len;
        const unsigned t = (unsigned)(len & 15);
        if (t == 0) { /* a multiple of 16 bytes, no tail: a branch fixed
                       * lengths predict, and mixed ones 15 times in 16 */
            sbf_inl_murmur3_finish(h1, h2, (uint64_t)len, out);
            return;
        }
        /* (t > 8 is a branch here: it resolves as soon as len is known;
         * both loads made always and chosen by masks measured slower) */
        const uint64_t last = sbf__load64(end - 8);
        k1 = t > 8 ? sbf__load64(end - t) : last >> (8 * (8 - t));
        k2 = (last >> ((8 * (16 - t)) & 63)) & ((uint64_t)0 - (t > 8));
    } else if (len >= 4) {
        k1 = sbf_inl_load32(data) | sbf_inl_load32(data + len - 4) << (8 * (len - 4));
    } else if (len > 0) {
        k1 = (uint64_t)data[0] | (uint64_t)data[len / 2] << (8 * (len / 2)) |
             (uint64_t)data[len - 1] << (8 * (len - 1));
    } else {
        k1 = 0;
    }
    k1 *= c1; k1 = sbf__rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    k2 *= c2; k2 = sbf__rotl64(k2, 33); k2 *= c1; h2 ^= k2;
    sbf_inl_murmur3_finish(h1, h2, (uint64_t)len, out);
}

/* XXH64 (seed 0) of the 8 little-endian bytes of key: what sbf_xxh64(&key,
 * 8) returns on a little-endian machine. */
SBF_INL uint64_t sbf_xxh64_u64_inline(uint64_t key)
{
    return sbf__xxh64_u64(key);
}

/* XXH3_64bits_withSeed of the 8 little-endian bytes of key with seed:
 * what sbf_xxh3_64(&key, 8, seed) returns on a little-endian machine, as
 * sbf_xxh3_u64_flip(key, sbf_xxh3_flip8(seed)): flip depends on the seed
 * alone, so a loop over keys computes it once. */
SBF_INL uint64_t sbf_xxh3_flip8(uint32_t seed)
{
    return sbf__xxh3_flip8(seed);
}

SBF_INL uint64_t sbf_xxh3_u64_flip(uint64_t key, uint64_t flip)
{
    return sbf__xxh3_u64(key, flip);
}

SBF_INL uint64_t sbf_xxh3_u64_inline(uint64_t key, uint32_t seed)
{
    return sbf__xxh3_u64(key, sbf__xxh3_flip8(seed));
}

/* The fmix layouts' h of the 8 little-endian bytes of key: fmix64(key ^ s)
 * with s = sbf_fmix_s(seed), a constant of the seed (a loop over keys
 * computes it once). Other lengths hash as sbf_xxh3_64. */
SBF_INL uint64_t sbf_fmix_s(uint32_t seed)
{
    return sbf__fmix_s(seed);
}

SBF_INL uint64_t sbf_fmix_u64_s(uint64_t key, uint64_t s)
{
    return sbf__fmix_u64(key, s);
}

SBF_INL uint64_t sbf_fmix_u64_inline(uint64_t key, uint32_t seed)
{
    return sbf__fmix_u64(key, sbf__fmix_s(seed));
}

/* --------------------------------------------------------------- the view */

/* How a view probes a key inline (sbf_view.query / .add): the probe family
 * and the hash. A new layout the header probes (an XXH3 one, say) is one
 * more value here, its line in SBF__BY_KIND and SBF__ENTRIES, its hash in
 * sbf_inl_key8 and sbf__kind_keyn and, for a new way of placing bits, its
 * probe in sbf_inl_has / sbf_inl_put; src/view.c says which filters get
 * it (it runs out of line until it has a test in sbf__has_u64_any and
 * sbf__put_u64_any). Builds without vector flags need nothing new: they call the
 * library's kernels, which serve every layout. */
#define SBF_VIEW_CALL 0u     /* not inline: the library's sbf_contains / sbf_add */
#define SBF_VIEW_BLOCKED 1u  /* k of the 512 bits of a block */
#define SBF_VIEW_SPLIT8 2u   /* split-block, 8 words of 32 bits (256-bit blocks) */
#define SBF_VIEW_SPLIT16 3u  /* split-block, 16 words (512-bit blocks) */
#define SBF_VIEW_PARQUET 4u  /* SBF_PARQUET: SPLIT8 on XXH64 (sbf_parquet_pair) */
#define SBF_VIEW_COUNTING 5u /* k 4-bit counters of a 512-bit block */
/* The XXH3 layouts: the probes above on XXH3_64bits_withSeed(key, seed)
 * mapped by sbf_parquet_pair (block from its high 32 bits, positions from
 * its low 32 bits); sbf_inl_probe() gives the probe of each. */
#define SBF_VIEW_BLOCKED_XXH3 6u  /* SBF_BLOCKED_XXH3 */
#define SBF_VIEW_SPLIT8_XXH3 7u   /* SBF_SPLIT_BLOCK_XXH3, k = 8 */
#define SBF_VIEW_SPLIT16_XXH3 8u  /* SBF_SPLIT_BLOCK_XXH3, k = 16 */
#define SBF_VIEW_COUNTING_XXH3 9u /* SBF_COUNTING_XXH3 */
/* The fmix layouts: the same probes on h = sbf_fmix_u64_s(key, s) for an
 * 8-byte key (s: the view's xxh3_flip field), XXH3 for other lengths. */
#define SBF_VIEW_BLOCKED_FMIX 10u /* SBF_BLOCKED_FMIX */
#define SBF_VIEW_SPLIT8_FMIX 11u  /* SBF_SPLIT_BLOCK_FMIX, k = 8 */
#define SBF_VIEW_SPLIT16_FMIX 12u /* SBF_SPLIT_BLOCK_FMIX, k = 16 */
#define SBF__VIEW_LAST 12u   /* the last kind this header probes */

/* What the library hands out: read it, never write it (sbf_view_get). */
typedef struct sbf_view {
    uint64_t *words;        /* the filter's blocks */
    uint64_t nblocks;       /* block of a key: sbf_block_index(h1, nblocks) */
    const uint32_t *salt;   /* the layout's salts (SBF_SALT, SBF_SALT_PARQUET) */
    sbf_filter *filter;     /* the filter: calls for what is not inline */
    uint64_t *added;        /* its keys_added count, which inline adds raise;
                               NULL for an SBF_CONCURRENT filter (its count is
                               the library's) */
    uint32_t k;             /* bits per key */
    uint32_t seed;          /* MurmurHash3 seed */
    uint32_t lanes;         /* (1 << k) - 1 for the blocked probe (k <= 16) */
    int layout;             /* sbf_layout */
    unsigned query;         /* SBF_VIEW_*: how queries run */
    unsigned add;           /* SBF_VIEW_*: how adds run */
    int writable;           /* adds allowed (through the library if add is CALL) */
    uint32_t block_shift;   /* 64 - j when nblocks = 2^j >= 2: the block is then
                               h1 >> block_shift, the same block as
                               sbf_block_index's multiply, one shift (the XXH3
                               kinds use it); 0: the multiply (the struct's
                               padding, 0 in views of older libraries) */
    /* the filter's one-key kernels, which sbf_contains / sbf_add call
     * after their checks (key_add: NULL in a view for queries) */
    int (*key_contains)(const sbf_filter *f, const void *key, size_t len);
    int (*key_add)(sbf_filter *f, const void *key, size_t len);
    uint64_t xxh3_flip;     /* the 8-byte hash's constant of the seed:
                               sbf_xxh3_flip8(seed) (the XXH3 layouts and the
                               others), sbf_fmix_s(seed) for the fmix layouts */
} sbf_view;
/* The library fills a view and the caller's code reads it: its size and its
 * fields' places are part of the ABI, like the other public structs, and
 * change only with the soname (a new minor version while the major is 0:
 * see the Makefile). Version 0.2's view is 96 bytes, xxh3_flip last
 * (tests/test_inline.c pins both). */


/*
 * Fills *out with a view of f for queries only: adds through it return
 * SBF_E_READONLY. SBF_OK or SBF_E_NULL.
 */
SBF_API int sbf_view_get(const sbf_filter *f, sbf_view *out);

/*
 * A view for queries and adds. Inline adds count in keys_added as sbf_add
 * does (the adds that changed the filter); like sbf_add they need exclusive access to the filter (a filter
 * created with SBF_CONCURRENT is never modified inline: its view calls
 * the library, which keeps SBF_CONCURRENT's guarantees).
 * SBF_OK, SBF_E_NULL, SBF_E_READONLY (f is a read-only mapping, sbf_map).
 */
SBF_API int sbf_view_get_writable(sbf_filter *f, sbf_view *out);

/* Keeps an array that a vector store filled in memory: read back with
 * scalar (or broadcast) loads, not rebuilt lane by lane with vector
 * extracts (slower). */
#if defined(__GNUC__)
#  define SBF_INL_IN_MEMORY(a) __asm__("" : "+m"(a))
#else
#  define SBF_INL_IN_MEMORY(a) ((void)0)
#endif
/* Keeps a vector constant in the register it was made in (the compiler
 * otherwise makes it again before every use in an unrolled switch). */
#if defined(__GNUC__)
#  define SBF_INL_IN_REGISTER(v) __asm__("" : "+v"(v))
#else
#  define SBF_INL_IN_REGISTER(v) ((void)0)
#endif

/* Hides a pointer's value from the optimizer: the constants behind it are
 * then read as memory operands, not rebuilt from immediates. */
#if defined(__GNUC__)
#  define SBF_INL_OPAQUE(p) __asm__("" : "+r"(p))
#else
#  define SBF_INL_OPAQUE(p) ((void)0)
#endif

/* OP(i) for i = k-1 down to 0 (k <= 16): one jump on k instead of a loop
 * per key. */
#define SBF_INL_FOR_K(k, OP)                                                    \
    switch (k) {                                                                \
    case 16: OP(15); SBF__FALLTHROUGH;                                         \
    case 15: OP(14); SBF__FALLTHROUGH;                                         \
    case 14: OP(13); SBF__FALLTHROUGH;                                         \
    case 13: OP(12); SBF__FALLTHROUGH;                                         \
    case 12: OP(11); SBF__FALLTHROUGH;                                         \
    case 11: OP(10); SBF__FALLTHROUGH;                                         \
    case 10: OP(9);  SBF__FALLTHROUGH;                                         \
    case 9: OP(8);   SBF__FALLTHROUGH;                                         \
    case 8: OP(7);   SBF__FALLTHROUGH;                                         \
    case 7: OP(6);   SBF__FALLTHROUGH;                                         \
    case 6: OP(5);   SBF__FALLTHROUGH;                                         \
    case 5: OP(4);   SBF__FALLTHROUGH;                                         \
    case 4: OP(3);   SBF__FALLTHROUGH;                                         \
    case 3: OP(2);   SBF__FALLTHROUGH;                                         \
    case 2: OP(1);   SBF__FALLTHROUGH;                                         \
    case 1: OP(0);   SBF__FALLTHROUGH;                                         \
    default: break;                                                             \
    }

/* The 8-byte hash as two scalar fmix64 chains (sbf_murmur3_u64 with
 * s8 = seed ^ 8): h1 in *h1, h2 returned. */
SBF_INL uint64_t sbf_inl_hash8_u64(uint64_t key, uint64_t s8, uint64_t *h1)
{
    /* (the multipliers as loads through an opaque pointer, as the AVX-512
     * vector form does, measured slower here: scalar imul waits on the load) */
    const uint64_t k1 = sbf__rotl64(key * SBF_MURMUR3_C1, 31) * SBF_MURMUR3_C2;
    const uint64_t a = (k1 ^ s8) + s8;
    const uint64_t h2 = sbf__fmix64(a + s8);
    *h1 = sbf__fmix64(a) + h2;
    return h2 + *h1;
}

/* The 8 bytes sbf_contains(f, b, 8) hashes for the u64 key (little endian). */
SBF_INL void sbf_inl_store_le64(unsigned char b[8], uint64_t key)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(key >> (8 * i));
}

/* return the entry of kind: fn##split8 args ... (every kind the probes
 * know, SBF_VIEW_SPLIT16 last, the default); with kind a constant, one
 * call. A new kind is one more line here and one SBF__ENTRIES below. */
#define SBF__BY_KIND(fn, args)                                                  \
    do {                                                                        \
        if (kind == SBF_VIEW_SPLIT8)                                            \
            return fn##split8 args;                                             \
        if (kind == SBF_VIEW_BLOCKED)                                           \
            return fn##blocked args;                                            \
        if (kind == SBF_VIEW_PARQUET)                                           \
            return fn##parquet args;                                            \
        if (kind == SBF_VIEW_COUNTING)                                          \
            return fn##counting args;                                           \
        if (kind == SBF_VIEW_SPLIT8_XXH3)                                       \
            return fn##split8_xxh3 args;                                        \
        if (kind == SBF_VIEW_BLOCKED_XXH3)                                      \
            return fn##blocked_xxh3 args;                                       \
        if (kind == SBF_VIEW_SPLIT16_XXH3)                                      \
            return fn##split16_xxh3 args;                                       \
        if (kind == SBF_VIEW_COUNTING_XXH3)                                     \
            return fn##counting_xxh3 args;                                      \
        if (kind == SBF_VIEW_SPLIT8_FMIX)                                       \
            return fn##split8_fmix args;                                        \
        if (kind == SBF_VIEW_BLOCKED_FMIX)                                      \
            return fn##blocked_fmix args;                                       \
        if (kind == SBF_VIEW_SPLIT16_FMIX)                                      \
            return fn##split16_fmix args;                                       \
        return fn##split16 args;                                                \
    } while (0)

/* ------------------------------------------------------ the probes
 * sbf_inl_h2 carries h2 the way the probes want it: with AVX-512 or AVX2
 * broadcast to every 64-bit lane of a vector (a 512-bit one, a 256-bit
 * one; the probes multiply it with the salts as it is), else in a
 * register. */
#if !SBF_INL_AVX512 && !SBF_INL_AVX2 /* portable: h2 in a register */
typedef uint64_t sbf_inl_h2;

SBF_INL sbf_inl_h2 sbf_inl_h2_of(uint64_t h2)
{
    return h2;
}

SBF_INL uint64_t sbf_inl_h2_u64(sbf_inl_h2 x)
{
    return x;
}

/* h2 with both 32-bit lanes x (sbf_parquet_pair's) */
SBF_INL sbf_inl_h2 sbf_inl_h2_of32(uint32_t x)
{
    return (uint64_t)x * UINT64_C(0x100000001);
}

SBF_INL sbf_inl_h2 sbf_inl_hash8(uint64_t key, uint64_t s8, uint64_t *h1)
{
    return sbf_inl_hash8_u64(key, s8, h1);
}
#endif

#if !SBF_INL_AVX512 && !SBF_INL_AVX2

SBF_INL int sbf_inl_blocked_has(const uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    (void)lanes;
    return sbf__blocked_has(blk, salt, k, h2);
}

SBF_INL int sbf_inl_blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    (void)lanes;
    return sbf__blocked_add(blk, salt, k, h2);
}

SBF_INL int sbf_inl_counting_has(const uint64_t *blk, const uint32_t *salt, uint32_t k,
                                 uint32_t lanes, sbf_inl_h2 h2)
{
    (void)lanes;
    return sbf__counting_has(blk, salt, k, h2);
}

SBF_INL int sbf_inl_counting_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                 sbf_inl_h2 h2)
{
    return sbf__counting_add(blk, salt, k, h2);
}

SBF_INL int sbf_inl_split8_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf__split_has(blk, salt, 8, h2);
}

SBF_INL int sbf_inl_split8_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf__split_add(blk, salt, 8, h2);
}

SBF_INL int sbf_inl_split16_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf__split_has(blk, salt, 16, h2);
}

SBF_INL int sbf_inl_split16_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf__split_add(blk, salt, 16, h2);
}
#else
#  include "simdbloom_inline_x86.h"
#endif

/* MurmurHash3 of an 8-byte key for v's filter (half: 32-byte blocks) in
 * the form SBF_INLINE_HASH8_VEC chooses for its size. */
SBF_INL sbf_inl_h2 sbf_inl_hash8_sized(const sbf_view *v, uint64_t key, unsigned half,
                                       uint64_t *h1)
{
    const uint64_t s8 = (uint64_t)v->seed ^ 8;
    const int big = v->nblocks >= (SBF_INL_HASH8_VEC_BYTES / 64) << half;
#if SBF_INL_AVX512 && !SBF_INLINE_HASH8_VEC
    if (big)
        return sbf_inl_hash8_vec(key, s8, h1);
#else
    (void)big;
#endif
    return sbf_inl_hash8(key, s8, h1);
}

/* The block (*b) and h2 of an 8-byte key for kind: MurmurHash3, XXH64
 * (SBF_PARQUET) or XXH3 (the XXH3 kinds) mapped by sbf_parquet_pair. For
 * XXH3 the block is sbf_block_index(h1, nblocks) with h1's low half 0 and
 * nblocks < 2^32 (the XXH3 layouts' limit), which is ((h >> 32) * nblocks)
 * >> 32 exactly: a 64-bit multiply, not the 128-bit one; and h2's two
 * lanes are both the low 32 bits of h, one broadcast. */
/* The 64-bit h of an 8-byte key for an XXH3 or fmix kind (kind a constant
 * in each entry: one hash's code). */
SBF_INL uint64_t sbf__h8(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind >= SBF_VIEW_BLOCKED_FMIX)
        return sbf__fmix_u64(key, v->xxh3_flip);
    return sbf_xxh3_u64_flip(key, v->xxh3_flip);
}

SBF_INL sbf_inl_h2 sbf_inl_key8(const sbf_view *v, unsigned kind, uint64_t key,
                                uint64_t *b)
{
    uint64_t h1;
    if (kind > SBF_VIEW_COUNTING) { /* the XXH3 and fmix kinds */
        if (v->block_shift) {
            /* a power-of-two block count: the block is h >> block_shift
             * (>= 32: h's low half drops out as h1's zeros do). Tested
             * before the hash, the two paths kept apart (the empty asm), so
             * that gcc makes a loop of each; one path with the shift
             * computed beside the multiply cost other filters 9% */
            SBF_INL_OPAQUE(key);
            const uint64_t h = sbf__h8(v, kind, key);
            *b = h >> v->block_shift;
            return sbf_inl_h2_of32((uint32_t)h);
        }
        const uint64_t h = sbf__h8(v, kind, key);
        *b = sbf__block_index64(h, v->nblocks);
        return sbf_inl_h2_of32((uint32_t)h);
    }
    if (kind == SBF_VIEW_PARQUET) {
        uint64_t h2;
        sbf_parquet_pair(sbf_xxh64_u64_inline(key), &h1, &h2);
        *b = sbf_block_index(h1, v->nblocks);
        return sbf_inl_h2_of(h2);
    }
    const sbf_inl_h2 h2 = sbf_inl_hash8_sized(v, key, kind == SBF_VIEW_SPLIT8, &h1);
    *b = sbf_block_index(h1, v->nblocks);
    return h2;
}

/* The probe of kind: an XXH3 or fmix kind's is its MurmurHash3 kind's. */
SBF_INL unsigned sbf_inl_probe(unsigned kind)
{
    if (kind == SBF_VIEW_COUNTING_XXH3)
        return SBF_VIEW_COUNTING;
    if (kind >= SBF_VIEW_BLOCKED_FMIX)
        return kind - (SBF_VIEW_BLOCKED_FMIX - SBF_VIEW_BLOCKED);
    return kind > SBF_VIEW_COUNTING ? kind - (SBF_VIEW_BLOCKED_XXH3 - SBF_VIEW_BLOCKED) : kind;
}

/* The salts of kind, what v->salt points to: constants, which the probes
 * read as memory operands with no load of the pointer. */
SBF_INL const uint32_t *sbf_inl_salt(unsigned kind)
{
    return kind == SBF_VIEW_PARQUET ? SBF_SALT_PARQUET : SBF_SALT;
}

/* Query / add of a hashed key in block b with kind's probe (tests, not a
 * switch, which compiles to a jump table). */
SBF_INL int sbf_inl_has(const sbf_view *v, unsigned kind, uint64_t b, sbf_inl_h2 h2)
{
    const uint32_t *salt = sbf_inl_salt(kind);
    kind = sbf_inl_probe(kind);
    const uint64_t *w = v->words;
    if (kind == SBF_VIEW_BLOCKED)
        return sbf_inl_blocked_has(w + b * 8, salt, v->k, v->lanes, h2);
    if (kind == SBF_VIEW_SPLIT16)
        return sbf_inl_split16_has(w + b * 8, salt, h2);
    if (kind == SBF_VIEW_COUNTING)
        return sbf_inl_counting_has(w + b * 8, salt, v->k, v->lanes, h2);
    return sbf_inl_split8_has(w + b * 4, salt, h2); /* SPLIT8, PARQUET */
}

SBF_INL int sbf_inl_put(const sbf_view *v, unsigned kind, uint64_t b, sbf_inl_h2 h2)
{
    const uint32_t *salt = sbf_inl_salt(kind);
    kind = sbf_inl_probe(kind);
    uint64_t *w = v->words;
    int r;
    if (kind == SBF_VIEW_BLOCKED)
        r = sbf_inl_blocked_add(w + b * 8, salt, v->k, v->lanes, h2);
    else if (kind == SBF_VIEW_SPLIT16)
        r = sbf_inl_split16_add(w + b * 8, salt, h2);
    else if (kind == SBF_VIEW_COUNTING) /* changed: a counter was 0 */
        r = sbf_inl_counting_add(w + b * 8, salt, v->k, h2);
    else
        r = sbf_inl_split8_add(w + b * 4, salt, h2); /* SPLIT8, PARQUET */
    *v->added += (uint64_t)r; /* keys_added counts adds that changed the filter */
    return r;
}

/* An 8-byte key, or the pair (h1, h2) of a key, with kind's probe: with
 * kind a constant, only that probe's code. */
SBF_INL int sbf_inl_has_u64_k(const sbf_view *v, unsigned kind, uint64_t key)
{
    uint64_t b;
    const sbf_inl_h2 h2 = sbf_inl_key8(v, kind, key, &b);
    return sbf_inl_has(v, kind, b, h2);
}

SBF_INL int sbf_inl_put_u64_k(const sbf_view *v, unsigned kind, uint64_t key)
{
    uint64_t b;
    const sbf_inl_h2 h2 = sbf_inl_key8(v, kind, key, &b);
    return sbf_inl_put(v, kind, b, h2);
}

SBF_INL int sbf_inl_has_pair_k(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    return sbf_inl_has(v, kind, sbf_block_index(h1, v->nblocks), sbf_inl_h2_of(h2));
}

SBF_INL int sbf_inl_put_pair_k(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    return sbf_inl_put(v, kind, sbf_block_index(h1, v->nblocks), sbf_inl_h2_of(h2));
}


/* One entry per kind and operation, with code for that kind alone (the
 * kind's tests spread through the hash and the probe cost more than the
 * probe): has_u64_split8 ... put_pair_split16. */
#define SBF__ENTRIES(sfx, KIND)                                                 \
    SBF_INL int sbf_inl_has_u64_##sfx(const sbf_view *v, uint64_t key)          \
    {                                                                           \
        return sbf_inl_has_u64_k(v, KIND, key);                                 \
    }                                                                           \
    SBF_INL int sbf_inl_put_u64_##sfx(const sbf_view *v, uint64_t key)          \
    {                                                                           \
        return sbf_inl_put_u64_k(v, KIND, key);                                 \
    }                                                                           \
    SBF_INL int sbf_inl_has_pair_##sfx(const sbf_view *v, uint64_t h1, uint64_t h2) \
    {                                                                           \
        return sbf_inl_has_pair_k(v, KIND, h1, h2);                             \
    }                                                                           \
    SBF_INL int sbf_inl_put_pair_##sfx(const sbf_view *v, uint64_t h1, uint64_t h2) \
    {                                                                           \
        return sbf_inl_put_pair_k(v, KIND, h1, h2);                             \
    }
SBF__ENTRIES(split8, SBF_VIEW_SPLIT8)
SBF__ENTRIES(blocked, SBF_VIEW_BLOCKED)
SBF__ENTRIES(parquet, SBF_VIEW_PARQUET)
SBF__ENTRIES(counting, SBF_VIEW_COUNTING)
SBF__ENTRIES(split16, SBF_VIEW_SPLIT16)
SBF__ENTRIES(split8_xxh3, SBF_VIEW_SPLIT8_XXH3)
SBF__ENTRIES(blocked_xxh3, SBF_VIEW_BLOCKED_XXH3)
SBF__ENTRIES(split16_xxh3, SBF_VIEW_SPLIT16_XXH3)
SBF__ENTRIES(counting_xxh3, SBF_VIEW_COUNTING_XXH3)
SBF__ENTRIES(split8_fmix, SBF_VIEW_SPLIT8_FMIX)
SBF__ENTRIES(blocked_fmix, SBF_VIEW_BLOCKED_FMIX)
SBF__ENTRIES(split16_fmix, SBF_VIEW_SPLIT16_FMIX)
#undef SBF__ENTRIES

/* The calls with the kind given (kind: v->query, v->add, or a constant
 * that equals it, which folds the code to that kind's). Built without
 * vector flags on x86-64 (SBF_INL_KERNELS), they call the library's
 * one-key kernels of the filter (v->key_contains ...), compiled for the
 * CPU: a direct call, as fast as the exported call without its checks,
 * where portable C here would be 2-3 times slower. */
#if SBF_INL_KERNELS
SBF_INL int sbf__has_u64(const sbf_view *v, unsigned kind, uint64_t key)
{
    (void)kind;
    return v->key_contains(v->filter, &key, 8);
}

SBF_INL int sbf__put_u64(const sbf_view *v, unsigned kind, uint64_t key)
{
    (void)kind;
    return v->key_add != NULL ? v->key_add(v->filter, &key, 8) : SBF_E_READONLY;
}

SBF_INL int sbf__has_pair(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    (void)kind;
    return sbf_contains_hash(v->filter, h1, h2);
}

SBF_INL int sbf__put_pair(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    (void)kind;
    return v->writable ? sbf_add_hash(v->filter, h1, h2) : SBF_E_READONLY;
}
#else
SBF_INL int sbf__has_u64(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind == SBF_VIEW_COUNTING) /* the likelier ones first */
        return sbf_inl_has_u64_counting(v, key);
    if (kind == SBF_VIEW_COUNTING_XXH3)
        return sbf_inl_has_u64_counting_xxh3(v, key);
    SBF__BY_KIND(sbf_inl_has_u64_, (v, key));
}

SBF_INL int sbf__put_u64(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind == SBF_VIEW_COUNTING) /* the likelier ones first */
        return sbf_inl_put_u64_counting(v, key);
    if (kind == SBF_VIEW_COUNTING_XXH3)
        return sbf_inl_put_u64_counting_xxh3(v, key);
    SBF__BY_KIND(sbf_inl_put_u64_, (v, key));
}

SBF_INL int sbf__has_pair(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    SBF__BY_KIND(sbf_inl_has_pair_, (v, h1, h2));
}

SBF_INL int sbf__put_pair(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    SBF__BY_KIND(sbf_inl_put_pair_, (v, h1, h2));
}
#endif

/* 1 for a kind this header probes inline (not CALL, nor a kind from a
 * newer library than this header); with the library's kernels, every kind
 * (they serve every filter). */
SBF_INL int sbf__inline_kind(unsigned kind)
{
#if SBF_INL_KERNELS
    (void)kind;
    return 1;
#else
    return kind - 1u < SBF__VIEW_LAST;
#endif
}

/* The pair of len bytes for kind: MurmurHash3, or XXH64 (SBF_PARQUET) or
 * XXH3 (the XXH3 kinds; the fmix kinds' keys of other than 8 bytes)
 * mapped by sbf_parquet_pair. */
SBF_INL void sbf__kind_keyn(const sbf_view *v, unsigned kind, const void *key, size_t len,
                            uint64_t h[2])
{
    if (kind == SBF_VIEW_PARQUET)
        sbf_parquet_pair(sbf_xxh64(key, len), &h[0], &h[1]);
    else if (kind >= SBF_VIEW_BLOCKED_FMIX && len == 8)
        sbf_parquet_pair(sbf__fmix_u64(sbf__load64((const unsigned char *)key), v->xxh3_flip),
                         &h[0], &h[1]);
    else if (kind > SBF_VIEW_COUNTING) /* the XXH3 kinds: the library's XXH3 */
        sbf_parquet_pair(sbf_xxh3_64(key, len, v->seed), &h[0], &h[1]);
    else
        sbf_murmur3_bytes(key, len, v->seed, h);
}

/* What a view does not do inline: the library's call; adds through a view
 * for queries only are refused. */
SBF_INL int sbf__call_add(const sbf_view *v, const void *key, size_t len)
{
    return v->writable ? sbf_add(v->filter, key, len) : SBF_E_READONLY;
}

/* sbf_view_contains / sbf_view_add with the kind given (kind: v->query,
 * v->add, or a constant that equals it). */
SBF_INL int sbf__contains(const sbf_view *v, unsigned kind, const void *key, size_t len)
{
    if (key == NULL && len != 0)
        return SBF_E_NULL;
    if (!sbf__inline_kind(kind))
        return sbf_contains(v->filter, key, len);
#if SBF_INL_KERNELS
    return v->key_contains(v->filter, key, len);
#endif
    if (len == 8)
        return sbf__has_u64(v, kind, sbf__load64((const unsigned char *)key));
    uint64_t h[2];
    sbf__kind_keyn(v, kind, key, len, h);
    return sbf__has_pair(v, kind, h[0], h[1]);
}

SBF_INL int sbf__add(const sbf_view *v, unsigned kind, const void *key, size_t len)
{
    if (key == NULL && len != 0)
        return SBF_E_NULL;
    if (!sbf__inline_kind(kind))
        return sbf__call_add(v, key, len);
#if SBF_INL_KERNELS
    return v->key_add != NULL ? v->key_add(v->filter, key, len) : SBF_E_READONLY;
#endif
    if (len == 8)
        return sbf__put_u64(v, kind, sbf__load64((const unsigned char *)key));
    uint64_t h[2];
    sbf__kind_keyn(v, kind, key, len, h);
    return sbf__put_pair(v, kind, h[0], h[1]);
}

/* The calls for a kind known only at run time (v->query, v->add). Inline,
 * with code for each kind alone, tested one compare a kind (the CPU
 * predicts them): for contains split-block-fmix (k = 8), blocked and
 * split-block (k = 8), then parquet, counting, split-block-xxh3 (k = 8),
 * blocked-xxh3 and blocked-fmix; for adds split-block-xxh3 (k = 8),
 * split-block-fmix (k = 8), blocked and split-block, then parquet,
 * counting, blocked-xxh3 and blocked-fmix. Every other kind (split-block
 * with k = 16, counting-xxh3, and what the library runs) in one function
 * out of line, so
 * that a caller's loop stays small enough to keep the view's fields in
 * registers. In a caller's loop of contains (nothing there writes memory)
 * gcc 12 threads the first test across the loop's back edge: that kind
 * runs in a loop of its own, at its constant form's speed, and only that
 * one (gcc threads one target through a loop's header; a switch becomes a
 * jump table and nothing is threaded, +5-50%). Every other kind pays the
 * tests before it and the view's fields loaded per key: 0.3-0.7 ns a key,
 * which sbf_view_contains_u64_as avoids (below). The order is measured
 * (peer driver, doc/inline.md): the fastest layout first, then the
 * MurmurHash3 kinds no later than they were before the fmix layouts. With
 * the library's kernels (SBF_INL_KERNELS) each call is one call of the
 * filter's kernel. */
#if SBF_INL_KERNELS
#  define sbf__has_u64_any sbf__has_u64
#  define sbf__put_u64_any sbf__put_u64
#else
#  if defined(__GNUC__)
#    define SBF__NOINLINE static __attribute__((noinline, unused))
#  else
#    define SBF__NOINLINE static
#  endif
/* A view for adds the header does not probe (classic, SBF_CONCURRENT): the
 * filter's kernel, the one sbf_add jumps to after its checks, from a small
 * frame of its own (sbf__put_u64_rest's first test, a tail call; contains
 * calls the kernel from the caller's loop, sbf__has_u64_any). */
SBF__NOINLINE int sbf__put_u64_call(const sbf_view *v, uint64_t key)
{
    unsigned char b[8];
    sbf_inl_store_le64(b, key);
    return v->key_add != NULL ? v->key_add(v->filter, b, 8) : SBF_E_READONLY;
}

SBF__NOINLINE int sbf__has_u64_rest(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind == SBF_VIEW_COUNTING) /* the likelier ones first, by tests */
        return sbf_inl_has_u64_counting(v, key);
    if (kind == SBF_VIEW_COUNTING_XXH3)
        return sbf_inl_has_u64_counting_xxh3(v, key);
    SBF_INL_OPAQUE(kind); /* (not the first cases of a jump table) */
    if (!sbf__inline_kind(kind)) {
        unsigned char b[8];
        sbf_inl_store_le64(b, key);
        return sbf_contains(v->filter, b, 8);
    }
    SBF__BY_KIND(sbf_inl_has_u64_, (v, key));
}

SBF__NOINLINE int sbf__put_u64_rest(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind == SBF_VIEW_CALL)
        return sbf__put_u64_call(v, key);
    if (kind == SBF_VIEW_COUNTING) /* the likelier ones first, by tests */
        return sbf_inl_put_u64_counting(v, key);
    if (kind == SBF_VIEW_COUNTING_XXH3)
        return sbf_inl_put_u64_counting_xxh3(v, key);
    SBF_INL_OPAQUE(kind); /* (not the first cases of a jump table) */
    if (!sbf__inline_kind(kind)) {
        unsigned char b[8];
        sbf_inl_store_le64(b, key);
        return sbf__call_add(v, b, 8);
    }
    SBF__BY_KIND(sbf_inl_put_u64_, (v, key));
}

SBF_INL int sbf__has_u64_any(const sbf_view *v, unsigned kind, uint64_t key)
{
    if (kind == SBF_VIEW_SPLIT8_FMIX) /* the one gcc threads: the fastest */
        return sbf_inl_has_u64_split8_fmix(v, key);
    if (kind == SBF_VIEW_BLOCKED)
        return sbf_inl_has_u64_blocked(v, key);
    if (kind == SBF_VIEW_SPLIT8)
        return sbf_inl_has_u64_split8(v, key);
    SBF_INL_OPAQUE(kind); /* tests, not a jump table */
    if (kind == SBF_VIEW_PARQUET)
        return sbf_inl_has_u64_parquet(v, key);
    if (kind == SBF_VIEW_COUNTING)
        return sbf_inl_has_u64_counting(v, key);
    if (kind == SBF_VIEW_SPLIT8_XXH3)
        return sbf_inl_has_u64_split8_xxh3(v, key);
    if (kind == SBF_VIEW_BLOCKED_XXH3)
        return sbf_inl_has_u64_blocked_xxh3(v, key);
    if (kind == SBF_VIEW_BLOCKED_FMIX)
        return sbf_inl_has_u64_blocked_fmix(v, key);
    SBF_INL_OPAQUE(kind); /* (not a jump table with the tests above) */
    if (kind == SBF_VIEW_CALL) { /* the filter's kernel, as sbf_contains runs it */
        unsigned char b[8];
        sbf_inl_store_le64(b, key);
        return v->key_contains(v->filter, b, 8);
    }
    return sbf__has_u64_rest(v, kind, key);
}

SBF_INL int sbf__put_u64_any(const sbf_view *v, unsigned kind, uint64_t key)
{
    /* adds store into the filter, so the kind is read per key (no thread) */
    if (kind == SBF_VIEW_SPLIT8_XXH3)
        return sbf_inl_put_u64_split8_xxh3(v, key);
    if (kind == SBF_VIEW_SPLIT8_FMIX)
        return sbf_inl_put_u64_split8_fmix(v, key);
    if (kind == SBF_VIEW_BLOCKED)
        return sbf_inl_put_u64_blocked(v, key);
    if (kind == SBF_VIEW_SPLIT8)
        return sbf_inl_put_u64_split8(v, key);
    SBF_INL_OPAQUE(kind); /* tests, not a jump table */
    if (kind == SBF_VIEW_PARQUET) {
        int r = sbf_inl_put_u64_parquet(v, key);
        SBF_INL_OPAQUE(r); /* its own end: merged with split-block's, the
                              compiler loses that split-block's loop knows
                              its kind */
        return r;
    }
    if (kind == SBF_VIEW_COUNTING)
        return sbf_inl_put_u64_counting(v, key);
    if (kind == SBF_VIEW_BLOCKED_XXH3)
        return sbf_inl_put_u64_blocked_xxh3(v, key);
    if (kind == SBF_VIEW_BLOCKED_FMIX)
        return sbf_inl_put_u64_blocked_fmix(v, key);
    return sbf__put_u64_rest(v, kind, key); /* (an add's loop keeps one call:
        the filter's kernel called here cost every add kind 10-25%) */
}

/* The generic calls out of line: what the _as calls run for a view of
 * another layout than the one they were given. */
SBF__NOINLINE int sbf__has_u64_other(const sbf_view *v, uint64_t key)
{
    return sbf__has_u64_any(v, v->query, key);
}

SBF__NOINLINE int sbf__put_u64_other(const sbf_view *v, uint64_t key)
{
    return sbf__put_u64_any(v, v->add, key);
}
#endif

/* ----------------------------------------------------------- the API */

/* 1 if the 8-byte key (its little-endian bytes, as sbf_contains_u64 and
 * sbf_contains(f, &key, 8) hash it) may be present, 0 if surely absent. */
SBF_INL int sbf_view_contains_u64(const sbf_view *v, uint64_t key)
{
    return sbf__has_u64_any(v, v->query, key);
}

/* Adds the 8-byte key: 1 if the filter's answer for it changed, 0 if not,
 * SBF_E_READONLY through a view for queries (sbf_view_get), or sbf_add's
 * codes for a filter it calls. */
SBF_INL int sbf_view_add_u64(const sbf_view *v, uint64_t key)
{
    return sbf__put_u64_any(v, v->add, key);
}

/* The kind of the plain filters of a layout (split-block: k = 8), for the
 * _as calls; SBF_VIEW_CALL for a layout the header does not probe. */
SBF_INL unsigned sbf__layout_kind(int layout)
{
    switch (layout) {
    case SBF_BLOCKED: return SBF_VIEW_BLOCKED;
    case SBF_SPLIT_BLOCK: return SBF_VIEW_SPLIT8;
    case SBF_COUNTING: return SBF_VIEW_COUNTING;
    case SBF_PARQUET: return SBF_VIEW_PARQUET;
    case SBF_SPLIT_BLOCK_XXH3: return SBF_VIEW_SPLIT8_XXH3;
    case SBF_BLOCKED_XXH3: return SBF_VIEW_BLOCKED_XXH3;
    case SBF_COUNTING_XXH3: return SBF_VIEW_COUNTING_XXH3;
    case SBF_SPLIT_BLOCK_FMIX: return SBF_VIEW_SPLIT8_FMIX;
    case SBF_BLOCKED_FMIX: return SBF_VIEW_BLOCKED_FMIX;
    default: return SBF_VIEW_CALL;
    }
}

/*
 * sbf_view_contains_u64 / sbf_view_add_u64 for a filter of the given
 * layout (sbf_layout), which should be a constant: the compiler then keeps
 * only that layout's code in the caller's loop, as a template argument
 * would, at the speed of a view narrowed to it. One compare checks the
 * view (the CPU predicts it); for any other view (another layout,
 * split-block with k = 16, SBF_CONCURRENT, a view for queries' adds) they
 * run the generic call out of line, so the answer and return value are
 * always sbf_view_contains_u64's / sbf_view_add_u64's:
 *
 *     for (...) hits += sbf_view_contains_u64_as(&v, key, SBF_SPLIT_BLOCK_FMIX);
 */
SBF_INL int sbf_view_contains_u64_as(const sbf_view *v, uint64_t key, int layout)
{
#if SBF_INL_KERNELS
    (void)layout;
    return sbf__has_u64(v, v->query, key); /* the filter's kernel */
#else
    const unsigned kind = sbf__layout_kind(layout);
    if (SBF_INL_LIKELY(kind != SBF_VIEW_CALL && v->query == kind))
        return sbf__has_u64(v, kind, key);
    return sbf__has_u64_other(v, key);
#endif
}

SBF_INL int sbf_view_add_u64_as(const sbf_view *v, uint64_t key, int layout)
{
#if SBF_INL_KERNELS
    (void)layout;
    return sbf__put_u64(v, v->add, key);
#else
    const unsigned kind = sbf__layout_kind(layout);
    if (SBF_INL_LIKELY(kind != SBF_VIEW_CALL && v->add == kind))
        return sbf__put_u64(v, kind, key);
    return sbf__put_u64_other(v, key);
#endif
}

/* sbf_contains / sbf_add of len bytes at key (SBF_E_NULL for a NULL key
 * with len > 0). */
SBF_INL int sbf_view_contains(const sbf_view *v, const void *key, size_t len)
{
    return sbf__contains(v, v->query, key, len);
}

SBF_INL int sbf_view_add(const sbf_view *v, const void *key, size_t len)
{
    return sbf__add(v, v->add, key, len);
}

/* The same from a key's MurmurHash3_x64_128 (h1, h2) = out[0], out[1] of
 * sbf_murmur3_x64_128(key, len, seed): for callers that hashed already
 * (SBF_PARQUET: the pair sbf_parquet_pair makes of its XXH64; the XXH3
 * layouts: of sbf_xxh3_64(key, len, seed)). The
 * library's equivalents are sbf_contains_hash / sbf_add_hash. */
SBF_INL int sbf_view_contains_hash(const sbf_view *v, uint64_t h1, uint64_t h2)
{
    if (SBF_INL_LIKELY(sbf__inline_kind(v->query)))
        return sbf__has_pair(v, v->query, h1, h2);
    return sbf_contains_hash(v->filter, h1, h2);
}

SBF_INL int sbf_view_add_hash(const sbf_view *v, uint64_t h1, uint64_t h2)
{
    if (SBF_INL_LIKELY(sbf__inline_kind(v->add)))
        return sbf__put_pair(v, v->add, h1, h2);
    return v->writable ? sbf_add_hash(v->filter, h1, h2) : SBF_E_READONLY;
}

/* ------------------------------------------ narrowed views (older API)
 * Kept for programs written against them; new code needs only sbf_view.
 * sbf_view_split(), sbf_view_blocked(), sbf_view_parquet() and
 * sbf_view_counting() copy a view (the field v) when it probes inline with
 * that probe: SBF_OK; SBF_E_UNSUPPORTED for any other filter (and every
 * view of an SBF_CONCURRENT filter), SBF_E_NULL. Their calls are the
 * sbf_view calls with the probe a constant; a narrowed view of a view for
 * queries refuses adds (SBF_E_READONLY). */
typedef struct sbf_split_view { sbf_view v; } sbf_split_view;     /* split-block, k = 8 */
typedef struct sbf_parquet_view { sbf_view v; } sbf_parquet_view; /* SBF_PARQUET */
typedef struct sbf_blocked_view { sbf_view v; } sbf_blocked_view; /* SBF_BLOCKED */
typedef struct sbf_counting_view { sbf_view v; } sbf_counting_view; /* SBF_COUNTING */

SBF_INL int sbf__narrow(const sbf_view *v, sbf_view *out, unsigned kind)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (v == NULL || out == NULL)
        return SBF_E_NULL;
    if (v->query != kind || (v->writable && v->add != kind))
        return SBF_E_UNSUPPORTED;
    *out = *v;
    return SBF_OK;
}

SBF_INL int sbf__narrow_put_u64(const sbf_view *v, unsigned kind, uint64_t key)
{
    return SBF_INL_LIKELY(v->writable) ? sbf__put_u64(v, kind, key) : SBF_E_READONLY;
}

SBF_INL int sbf__narrow_add(const sbf_view *v, unsigned kind, const void *key, size_t len)
{
    if (key == NULL && len != 0)
        return SBF_E_NULL;
    return v->writable ? sbf__add(v, kind, key, len) : SBF_E_READONLY;
}

SBF_INL int sbf__narrow_put_pair(const sbf_view *v, unsigned kind, uint64_t h1, uint64_t h2)
{
    return SBF_INL_LIKELY(v->writable) ? sbf__put_pair(v, kind, h1, h2) : SBF_E_READONLY;
}

SBF_INL int sbf_view_split(const sbf_view *v, sbf_split_view *out)
{
    return sbf__narrow(v, out != NULL ? &out->v : NULL, SBF_VIEW_SPLIT8);
}

SBF_INL int sbf_split_view_contains_u64(const sbf_split_view *s, uint64_t key)
{
    return sbf__has_u64(&s->v, SBF_VIEW_SPLIT8, key);
}

SBF_INL int sbf_split_view_add_u64(const sbf_split_view *s, uint64_t key)
{
    return sbf__narrow_put_u64(&s->v, SBF_VIEW_SPLIT8, key);
}

SBF_INL int sbf_split_view_contains(const sbf_split_view *s, const void *key, size_t len)
{
    return sbf__contains(&s->v, SBF_VIEW_SPLIT8, key, len);
}

SBF_INL int sbf_split_view_add(const sbf_split_view *s, const void *key, size_t len)
{
    return sbf__narrow_add(&s->v, SBF_VIEW_SPLIT8, key, len);
}

SBF_INL int sbf_split_view_contains_hash(const sbf_split_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__has_pair(&s->v, SBF_VIEW_SPLIT8, h1, h2);
}

SBF_INL int sbf_split_view_add_hash(const sbf_split_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__narrow_put_pair(&s->v, SBF_VIEW_SPLIT8, h1, h2);
}
SBF_INL int sbf_view_parquet(const sbf_view *v, sbf_parquet_view *out)
{
    return sbf__narrow(v, out != NULL ? &out->v : NULL, SBF_VIEW_PARQUET);
}

SBF_INL int sbf_parquet_view_contains_u64(const sbf_parquet_view *s, uint64_t key)
{
    return sbf__has_u64(&s->v, SBF_VIEW_PARQUET, key);
}

SBF_INL int sbf_parquet_view_add_u64(const sbf_parquet_view *s, uint64_t key)
{
    return sbf__narrow_put_u64(&s->v, SBF_VIEW_PARQUET, key);
}

SBF_INL int sbf_parquet_view_contains(const sbf_parquet_view *s, const void *key, size_t len)
{
    return sbf__contains(&s->v, SBF_VIEW_PARQUET, key, len);
}

SBF_INL int sbf_parquet_view_add(const sbf_parquet_view *s, const void *key, size_t len)
{
    return sbf__narrow_add(&s->v, SBF_VIEW_PARQUET, key, len);
}

SBF_INL int sbf_parquet_view_contains_hash(const sbf_parquet_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__has_pair(&s->v, SBF_VIEW_PARQUET, h1, h2);
}

SBF_INL int sbf_parquet_view_add_hash(const sbf_parquet_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__narrow_put_pair(&s->v, SBF_VIEW_PARQUET, h1, h2);
}
SBF_INL int sbf_view_blocked(const sbf_view *v, sbf_blocked_view *out)
{
    return sbf__narrow(v, out != NULL ? &out->v : NULL, SBF_VIEW_BLOCKED);
}

SBF_INL int sbf_blocked_view_contains_u64(const sbf_blocked_view *s, uint64_t key)
{
    return sbf__has_u64(&s->v, SBF_VIEW_BLOCKED, key);
}

SBF_INL int sbf_blocked_view_add_u64(const sbf_blocked_view *s, uint64_t key)
{
    return sbf__narrow_put_u64(&s->v, SBF_VIEW_BLOCKED, key);
}

SBF_INL int sbf_blocked_view_contains(const sbf_blocked_view *s, const void *key, size_t len)
{
    return sbf__contains(&s->v, SBF_VIEW_BLOCKED, key, len);
}

SBF_INL int sbf_blocked_view_add(const sbf_blocked_view *s, const void *key, size_t len)
{
    return sbf__narrow_add(&s->v, SBF_VIEW_BLOCKED, key, len);
}

SBF_INL int sbf_blocked_view_contains_hash(const sbf_blocked_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__has_pair(&s->v, SBF_VIEW_BLOCKED, h1, h2);
}

SBF_INL int sbf_blocked_view_add_hash(const sbf_blocked_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__narrow_put_pair(&s->v, SBF_VIEW_BLOCKED, h1, h2);
}
SBF_INL int sbf_view_counting(const sbf_view *v, sbf_counting_view *out)
{
    return sbf__narrow(v, out != NULL ? &out->v : NULL, SBF_VIEW_COUNTING);
}

SBF_INL int sbf_counting_view_contains_u64(const sbf_counting_view *s, uint64_t key)
{
    return sbf__has_u64(&s->v, SBF_VIEW_COUNTING, key);
}

SBF_INL int sbf_counting_view_add_u64(const sbf_counting_view *s, uint64_t key)
{
    return sbf__narrow_put_u64(&s->v, SBF_VIEW_COUNTING, key);
}

SBF_INL int sbf_counting_view_contains(const sbf_counting_view *s, const void *key, size_t len)
{
    return sbf__contains(&s->v, SBF_VIEW_COUNTING, key, len);
}

SBF_INL int sbf_counting_view_add(const sbf_counting_view *s, const void *key, size_t len)
{
    return sbf__narrow_add(&s->v, SBF_VIEW_COUNTING, key, len);
}

SBF_INL int sbf_counting_view_contains_hash(const sbf_counting_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__has_pair(&s->v, SBF_VIEW_COUNTING, h1, h2);
}

SBF_INL int sbf_counting_view_add_hash(const sbf_counting_view *s, uint64_t h1, uint64_t h2)
{
    return sbf__narrow_put_pair(&s->v, SBF_VIEW_COUNTING, h1, h2);
}

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_INLINE_H_5B0E77D1 */
