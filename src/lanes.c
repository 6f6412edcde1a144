/*
 * Hashes of many keys: the scalar references of the lane kernels (the
 * ISA table's hash_bytes, xxh64_u64 and xxh64_bytes; simd/lanes.h hashes in
 * SIMD lanes) and the public entry points that dispatch to the active ISA.
 *
 * MurmurHash3_x64_128 is ours (src/murmur3.c). XXH64 is Debian's
 * libxxhash-dev, compiled in as src/persist.c compiles XXH3 (XXH_INLINE_ALL:
 * internal linkage, no run-time dependency, nothing exported); the lanes are
 * our own code, bit-exact with it.
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
    for (size_t i = 0; i < n; i++)
        h[i] = (uint64_t)XXH64(keys[i] != NULL ? keys[i] : none, lens[i], 0);
}

/* ------------------------------------------------------- public entry points */

/* The active ISA's table; the scalar one when the ISA choice is an error
 * (the documented answer: these functions cannot fail on it). */
static const sbfi_kernels *active(void)
{
    const sbfi_kernels *k = &sbfi_kernels_scalar;
    (void)sbfi_kernels_current(&k);
    return k;
}

/* SBF_OK if every key with bytes has a pointer. */
static int keys_ok(const void *const *keys, const size_t *lens, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i] == NULL && lens[i] != 0)
            return SBF_E_NULL;
    return SBF_OK;
}

int sbf_murmur3_x64_128_batch(const void *const *keys, const size_t *lens, size_t n,
                              uint32_t seed, uint64_t *h1, uint64_t *h2)
{
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(keys == NULL || lens == NULL || h1 == NULL || h2 == NULL, SBF_E_NULL);
    SBFI_FORWARD_IF_ERROR(keys_ok(keys, lens, n));
    active()->hash_bytes(keys, lens, n, seed, h1, h2);
    return SBF_OK;
}

uint64_t sbf_xxh64(const void *key, size_t len)
{
    static const unsigned char none[1];
    return (uint64_t)XXH64(key != NULL ? key : none, key != NULL ? len : 0, 0);
}

void sbf_xxh64_u64(const uint64_t *keys, size_t n, uint64_t *h)
{
    if (n == 0 || keys == NULL || h == NULL)
        return;
    active()->xxh64_u64(keys, n, h);
}

int sbf_xxh64_batch(const void *const *keys, const size_t *lens, size_t n, uint64_t *h)
{
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(keys == NULL || lens == NULL || h == NULL, SBF_E_NULL);
    SBFI_FORWARD_IF_ERROR(keys_ok(keys, lens, n));
    active()->xxh64_bytes(keys, lens, n, h);
    return SBF_OK;
}
