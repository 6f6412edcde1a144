/*
 * MurmurHash3_x64_128, scalar, bit-exact with SMHasher's reference: the
 * functions of include/simdbloom_inline.h (written once, there), exported.
 */
#include "sbf_internal.h"

void sbf_murmur3_x64_128(const void *key, size_t len, uint32_t seed,
                         uint64_t out[2])
{
    if (out == NULL)
        return;
    if (key == NULL)
        len = 0;
    if (len == 8) { /* the common u64 key: one load, no tail */
        sbf_murmur3_u64(sbf__load64((const unsigned char *)key), seed, out);
        return;
    }
    /* other lengths in their own function: inlined here, its registers
     * made this 8-byte path save and restore two (6 more instructions) */
    sbfi_murmur3(key, len, seed, &out[0], &out[1]);
}

/* key may be NULL only when len is 0 (never read then). */
void sbfi_murmur3(const void *key, size_t len, uint32_t seed, uint64_t *h1o,
                  uint64_t *h2o)
{
    uint64_t h[2];
    sbf_murmur3_bytes(key, len, seed, h);
    *h1o = h[0];
    *h2o = h[1];
}

void sbfi_hash_u64_scalar(const uint64_t *keys, size_t n, uint32_t seed,
                          uint64_t *h1, uint64_t *h2)
{
    for (size_t i = 0; i < n; i++)
        sbfi_murmur3_u64(keys[i], seed, &h1[i], &h2[i]);
}
