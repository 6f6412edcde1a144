/*
 * The fmix layouts' stage in SIMD lanes (part of simd/lanes.h), bit-exact
 * with the scalar references in src/lanes.c:
 *   lanes_fmix_u64    u64 keys: fmix64(key ^ s), s = sbfi_fmix_s(seed)
 *                     (MurmurHash3's 64-bit finalizer: two 64-bit
 *                     multiplies, native on AVX-512 (vpmullq), three
 *                     32x32->64 products on AVX2 and NEON (lv_mulc)).
 *   lanes_fmix_bytes  byte strings (AVX-512, simd/lanes_xxh3_512.h):
 *                     XXH3's lanes with the 8-byte keys' fmix64 blended in
 *                     (lanes_x3_keys_fmix). AVX2 and NEON take
 *                     sbfi_fmix_bytes_flat (their XXH3 strings are
 *                     scalar: lanes_xxh3.h says why).
 * lanes_fmix_8, the kernel, is in lanes_xxh3.h (the string lanes use it).
 */
#ifndef SBFI_LANES_FMIX_H_41C7E0A2
#define SBFI_LANES_FMIX_H_41C7E0A2

LANES_ENTRY void lanes_fmix_u64(const uint64_t *keys, size_t n, uint64_t s, uint64_t *h)
{
    lanes_u64_stage(keys, n, s, h, lanes_fmix_8, sbfi_fmix_u64_scalar); /* lanes_xxh3.h */
}


#endif /* SBFI_LANES_FMIX_H_41C7E0A2 */
