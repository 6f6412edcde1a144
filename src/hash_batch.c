/*
 * The public batched hashes of byte strings and XXH64 (sbf_murmur3_x64_128_batch,
 * sbf_xxh64, sbf_xxh64_u64, sbf_xxh64_batch): they dispatch to the active
 * ISA's lane kernels (scalar references in src/lanes.c, SIMD in
 * simd/lanes.h). Moved from src/lanes.c unchanged, so that no two src/
 * files call each other in a circle (make cycles).
 */
#include "sbf_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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

uint64_t sbf_xxh3_64(const void *key, size_t len, uint32_t seed)
{
    return sbfi_xxh3_64(key != NULL ? key : "", key != NULL ? len : 0, seed);
}

/* The layout's hash stage for callers that probe with sbf_*_hash: the
 * filter's kernel table, as its own batches hash. */
int sbf_hash_pairs(const sbf_filter *f, const void *const *keys, const size_t *lens,
                   const uint64_t *keys_u64, size_t n, uint64_t *h1, uint64_t *h2)
{
    SBFI_RETURN_IF(f == NULL, SBF_E_NULL);
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(h1 == NULL || h2 == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(keys_u64 == NULL && (keys == NULL || lens == NULL), SBF_E_NULL);
    if (keys_u64 == NULL)
        SBFI_FORWARD_IF_ERROR(keys_ok(keys, lens, n));
    if (keys_u64 != NULL) /* the filter's stage, as its batches hash */
        sbfi_stage_u64(f->kt, f, f->lay->hash, keys_u64, n, h1, h2);
    else
        sbfi_stage_bytes(f->kt, f, f->lay->hash, keys, lens, n, h1, h2);
    return SBF_OK;
}
