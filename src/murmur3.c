/*
 * MurmurHash3_x64_128, scalar, bit-exact with SMHasher's reference.
 * Blocks are read with memcpy, so any alignment is fine.
 */
#include "sbf_internal.h"

static inline uint64_t load_le64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v); /* little-endian target (sbf_internal.h) */
    return v;
}

void sbf_murmur3_x64_128(const void *key, size_t len, uint32_t seed,
                         uint64_t out[2])
{
    if (out == NULL)
        return;
    static const unsigned char empty[1];
    if (key == NULL) {
        key = empty;
        len = 0;
    }
    if (len == 8) { /* the common u64 key: one load, no tail switch */
        sbfi_murmur3_u64(load_le64(key), seed, &out[0], &out[1]);
        return;
    }
    sbfi_murmur3(key, len, seed, &out[0], &out[1]);
}

/* key may be NULL only when len is 0 (never read then). */
void sbfi_murmur3(const void *key, size_t len, uint32_t seed, uint64_t *h1o,
                  uint64_t *h2o)
{
    static const unsigned char none[1];
    const unsigned char *data = key != NULL ? (const unsigned char *)key : none;
    const size_t nblocks = len / 16;
    uint64_t h1 = seed, h2 = seed;

    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k1 = load_le64(data + i * 16);
        uint64_t k2 = load_le64(data + i * 16 + 8);
        k1 *= SBFI_C1; k1 = sbfi_rotl64(k1, 31); k1 *= SBFI_C2; h1 ^= k1;
        h1 = sbfi_rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= SBFI_C2; k2 = sbfi_rotl64(k2, 33); k2 *= SBFI_C1; h2 ^= k2;
        h2 = sbfi_rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }

    const unsigned char *tail = data + nblocks * 16;
    uint64_t k1 = 0, k2 = 0;
    switch (len & 15) {
    case 15: k2 ^= (uint64_t)tail[14] << 48; /* fall through */
    case 14: k2 ^= (uint64_t)tail[13] << 40; /* fall through */
    case 13: k2 ^= (uint64_t)tail[12] << 32; /* fall through */
    case 12: k2 ^= (uint64_t)tail[11] << 24; /* fall through */
    case 11: k2 ^= (uint64_t)tail[10] << 16; /* fall through */
    case 10: k2 ^= (uint64_t)tail[9] << 8;   /* fall through */
    case 9:
        k2 ^= (uint64_t)tail[8];
        k2 *= SBFI_C2; k2 = sbfi_rotl64(k2, 33); k2 *= SBFI_C1; h2 ^= k2;
        /* fall through */
    case 8: k1 ^= (uint64_t)tail[7] << 56; /* fall through */
    case 7: k1 ^= (uint64_t)tail[6] << 48; /* fall through */
    case 6: k1 ^= (uint64_t)tail[5] << 40; /* fall through */
    case 5: k1 ^= (uint64_t)tail[4] << 32; /* fall through */
    case 4: k1 ^= (uint64_t)tail[3] << 24; /* fall through */
    case 3: k1 ^= (uint64_t)tail[2] << 16; /* fall through */
    case 2: k1 ^= (uint64_t)tail[1] << 8;  /* fall through */
    case 1:
        k1 ^= (uint64_t)tail[0];
        k1 *= SBFI_C1; k1 = sbfi_rotl64(k1, 31); k1 *= SBFI_C2; h1 ^= k1;
        break;
    default:
        break;
    }

    sbfi_murmur3_finish(h1, h2, (uint64_t)len, h1o, h2o);
}

void sbfi_hash_u64_scalar(const uint64_t *keys, size_t n, uint32_t seed,
                          uint64_t *h1, uint64_t *h2)
{
    for (size_t i = 0; i < n; i++)
        sbfi_murmur3_u64(keys[i], seed, &h1[i], &h2[i]);
}
