/*
 * XXH3_64bits_withSeed of u64 keys in SIMD lanes (part of simd/lanes.h):
 * lanes_xxh3_u64, each key's 8 little-endian bytes, bit-exact with
 * libxxhash and with the scalar sbfi_xxh3_u64 (src/sbf_internal.h says the
 * algorithm: xxHash's 4-8 byte case). Two 64-bit multiplies a key: native
 * on AVX-512 (vpmullq), three 32x32->64 products on AVX2 and NEON
 * (lv_mulc). The seed comes in as flip = sbfi_xxh3_flip8(seed).
 */
#ifndef SBFI_LANES_XXH3_H_6D0A2E91
#define SBFI_LANES_XXH3_H_6D0A2E91

static inline lv lanes_xxh3_8(lv key, lv flip)
{
    lv h = lv_xor(LV_ROTL(key, 32), flip);
    h = lv_xor(h, lv_xor(LV_ROTL(h, 49), LV_ROTL(h, 24)));
    h = lv_mulc(h, SBF_XXH3_MX2);
    h = lv_xor(h, lv_add(LV_SRL(h, 35), lv_set1(8)));
    h = lv_mulc(h, SBF_XXH3_MX2);
    return lv_xor(h, LV_SRL(h, 28));
}

LANES_ENTRY void lanes_xxh3_u64(const uint64_t *keys, size_t n, uint64_t flip,
                                uint64_t *h)
{
    const lv fl = lv_set1(flip);
    size_t i = 0;
    for (; i + 2 * LANES <= n; i += 2 * LANES) { /* two chains in flight */
        const lv a = lanes_xxh3_8(lv_load(keys + i), fl);
        const lv b = lanes_xxh3_8(lv_load(keys + i + LANES), fl);
        lv_store(h + i, a);
        lv_store(h + i + LANES, b);
    }
    for (; i + LANES <= n; i += LANES)
        lv_store(h + i, lanes_xxh3_8(lv_load(keys + i), fl));
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        sbfi_xxh3_u64_scalar(keys + i, m, flip, h + i);
        return;
    }
    _Alignas(64) uint64_t t[LANES] = { 0 };
    memcpy(t, keys + i, m * 8);
    lv_store(t, lanes_xxh3_8(lv_load(t), fl));
    memcpy(h + i, t, m * 8);
}

#endif /* SBFI_LANES_XXH3_H_6D0A2E91 */
