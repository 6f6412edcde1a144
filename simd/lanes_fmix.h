/*
 * The fmix layouts' stage in SIMD lanes (part of simd/lanes.h), bit-exact
 * with the scalar references in src/lanes.c:
 *   lanes_fmix_u64    u64 keys: fmix64(key ^ s), s = sbfi_fmix_s(seed)
 *                     (MurmurHash3's 64-bit finalizer: two 64-bit
 *                     multiplies, native on AVX-512 (vpmullq), three
 *                     32x32->64 products on AVX2 and NEON (lv_mulc)).
 *   lanes_fmix_bytes  byte strings (AVX-512): XXH3's lanes
 *                     (lanes_xxh3_bytes), then the 8-byte keys' h replaced
 *                     by fmix64 in one scalar pass over the group
 *                     (sbfi_fmix_fixup: reads only those keys' 8 bytes).
 *                     AVX2 and NEON take sbfi_fmix_bytes_flat (their XXH3
 *                     strings are scalar: lanes_xxh3.h says why).
 */
#ifndef SBFI_LANES_FMIX_H_41C7E0A2
#define SBFI_LANES_FMIX_H_41C7E0A2

static inline lv lanes_fmix_8(lv key, lv s)
{
    lv h = lv_xor(key, s);
    h = lv_xor(h, LV_SRL(h, 33));
    h = lv_mulc(h, SBF__MURMUR3_F1);
    h = lv_xor(h, LV_SRL(h, 33));
    h = lv_mulc(h, SBF__MURMUR3_F2);
    return lv_xor(h, LV_SRL(h, 33));
}

LANES_ENTRY void lanes_fmix_u64(const uint64_t *keys, size_t n, uint64_t s, uint64_t *h)
{
    lanes_u64_stage(keys, n, s, h, lanes_fmix_8, sbfi_fmix_u64_scalar); /* lanes_xxh3.h */
}

#if defined(LANES_X3_NATIVE)
LANES_ENTRY void lanes_xxh3_bytes(const void *const *keys, const size_t *lens, size_t n,
                                  uint32_t seed, uint64_t *h);
LANES_ENTRY void lanes_fmix_bytes(const void *const *keys, const size_t *lens, size_t n,
                                  uint32_t seed, uint64_t *h)
{
    lanes_xxh3_bytes(keys, lens, n, seed, h);
    sbfi_fmix_fixup(keys, lens, n, seed, h);
}
#endif

#endif /* SBFI_LANES_FMIX_H_41C7E0A2 */
