/*
 * Hashes of many keys: the scalar references of the lane kernels (the
 * ISA table's hash_bytes, xxh64_u64, xxh64_bytes, xxh3_u64, xxh3_bytes,
 * fmix_u64 and fmix_bytes;
 * simd/lanes.h hashes in
 * SIMD lanes). The public entry points that dispatch to the active ISA are
 * src/hash_batch.c (here they closed a circle lanes.c -> dispatch.c ->
 * scalar.c -> lanes.c).
 *
 * MurmurHash3_x64_128 is ours (src/murmur3.c). XXH64 is Debian's
 * libxxhash-dev, compiled in as src/persist.c compiles XXH3 (XXH_INLINE_ALL:
 * internal linkage, no run-time dependency, nothing exported); the lanes are
 * our own code, bit-exact with it. XXH3_64bits_withSeed (the XXH3 layouts)
 * likewise; its 8-byte case is sbfi_xxh3_u64 (src/sbf_internal.h).
 */
#include "sbf_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

void sbfi_hash_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h1, uint64_t *h2)
{
    for (size_t i = 0; i < n; i++)
        sbfi_hash_key(keys[i], lens[i], seed, &h1[i], &h2[i]);
}

void sbfi_xxh64_u64_scalar(const uint64_t *keys, size_t n, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        h[i] = (uint64_t)XXH64(&keys[i], 8, 0); /* little-endian target */
}

void sbfi_xxh64_bytes_scalar(const void *const *keys, const size_t *lens,
                             size_t n, uint64_t *h)
{
    static const unsigned char none[1];
    for (size_t i = 0; i < n; i++) {
        const void *k = keys[i];
        const size_t len = lens[i];
        h[i] = (uint64_t)XXH64(len != 0 ? k : none, len, 0);
    }
}

static inline uint64_t lanes_load8(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8); /* little-endian target */
    return v;
}

uint64_t sbfi_xxh3_64(const void *key, size_t len, uint32_t seed)
{
    static const unsigned char none[1];
    return (uint64_t)XXH3_64bits_withSeed(len != 0 ? key : none, len, seed);
}

void sbfi_xxh3_u64_scalar(const uint64_t *keys, size_t n, uint64_t flip, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        h[i] = sbfi_xxh3_u64(keys[i], flip); /* = XXH3_64bits_withSeed(&keys[i], 8, seed) */
}

void sbfi_xxh3_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        h[i] = lens[i] == 8 ? sbfi_xxh3_u64(lanes_load8(keys[i]), sbfi_xxh3_flip8(seed))
                            : sbfi_xxh3_64(keys[i], lens[i], seed);
}

/* XXH3_64bits_withSeed of 17..64 bytes with no branch on the length:
 * libxxhash's XXH3_len_17to128_64b takes the pair of 16-byte mixes at
 * offsets 16 and len - 32 when len > 32; here it is always computed, from
 * offsets that stay inside the key (0 when len <= 32), and added under a
 * mask. Keys of random length 8..64 mispredicted that branch about every
 * other key. */
static inline uint64_t xxh3_17to64(const xxh_u8 *p, size_t len, uint64_t seed)
{
    const xxh_u8 *s = XXH3_kSecret;
    const uint64_t m = 0 - (uint64_t)(len > 32);
    uint64_t acc = len * XXH_PRIME64_1;
    acc += XXH3_mix16B(p, s, seed) + XXH3_mix16B(p + len - 16, s + 16, seed);
    acc += m & (XXH3_mix16B(p + (m & 16), s + 32, seed) +
                XXH3_mix16B(p + (m & (len - 32)), s + 48, seed));
    return XXH3_avalanche(acc);
}

/* XXH3 of n keys, or the fmix stage's (fmix a constant where inlined:
 * 8-byte keys fmix64(key ^ sbfi_fmix_s(seed)), in the same pass). */
static inline __attribute__((always_inline)) void
xxh3_flat(const void *const *keys, const size_t *lens, size_t n, uint32_t seed, uint64_t *h,
          const int fmix)
{
    const uint64_t w8 = fmix ? sbfi_fmix_s(seed) : sbfi_xxh3_flip8(seed);
    for (size_t i = 0; i < n; i++) {
        const xxh_u8 *p = keys[i];
        const size_t len = lens[i];
        if (len - 17 <= 64 - 17)
            h[i] = xxh3_17to64(p, len, seed);
        else if (len - 9 <= 16 - 9)
            h[i] = XXH3_len_9to16_64b(p, len, XXH3_kSecret, seed);
        else if (len == 8)
            h[i] = fmix ? sbfi_fmix_u64(lanes_load8(p), w8) : sbfi_xxh3_u64(lanes_load8(p), w8);
        else
            h[i] = sbfi_xxh3_64(p, len, seed);
    }
}

void sbfi_xxh3_bytes_flat(const void *const *keys, const size_t *lens, size_t n,
                          uint32_t seed, uint64_t *h)
{
    xxh3_flat(keys, lens, n, seed, h, 0);
}

/* The fmix layouts' stage (doc/format.md "fmix layouts"): an 8-byte key
 * (little endian) hashes as fmix64(key ^ s), fmix64 MurmurHash3's 64-bit
 * finalizer (SMHasher's fmix64, written out here as the definition) and
 * s = fmix64(seed + 0x9E3779B97F4A7C15); any other length as
 * XXH3_64bits_withSeed(key, len, seed). */
static uint64_t ref_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return k;
}

void sbfi_fmix_u64_scalar(const uint64_t *keys, size_t n, uint64_t s, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        h[i] = ref_fmix64(keys[i] ^ s);
}

void sbfi_fmix_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h)
{
    const uint64_t s = ref_fmix64((uint64_t)seed + UINT64_C(0x9E3779B97F4A7C15));
    for (size_t i = 0; i < n; i++)
        h[i] = lens[i] == 8 ? ref_fmix64(lanes_load8(keys[i]) ^ s)
                            : sbfi_xxh3_64(keys[i], lens[i], seed);
}

void sbfi_fmix_bytes_flat(const void *const *keys, const size_t *lens, size_t n,
                          uint32_t seed, uint64_t *h)
{
    xxh3_flat(keys, lens, n, seed, h, 1);
}
