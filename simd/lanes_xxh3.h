/*
 * XXH3_64bits_withSeed in SIMD lanes (part of simd/lanes.h), bit-exact with
 * libxxhash:
 *   lanes_xxh3_u64    u64 keys, each as its 8 little-endian bytes (the
 *                     scalar sbfi_xxh3_u64, src/sbf_internal.h, says the
 *                     algorithm: xxHash's 4-8 byte case). Two 64-bit
 *                     multiplies a key: native on AVX-512 (vpmullq), three
 *                     32x32->64 products on AVX2 and NEON (lv_mulc). The
 *                     seed comes in as flip = sbfi_xxh3_flip8(seed).
 *   lanes_xxh3_bytes  byte strings (AVX-512; below, why not AVX2 and NEON).
 *                     Every length class of 0..128 bytes runs in lanes,
 *                     the classes mixed in one vector: xxHash's 0, 1-3,
 *                     4-8, 9-16 and 17-128 byte forms are computed where
 *                     some lane needs them and blended; keys of more than
 *                     128 bytes (XXH3's 129-240 and long forms) are hashed
 *                     in scalar code. lanes_xxh3_512.h reads the keys
 *                     (byte-masked loads) and loops over groups.
 *
 * The 17-128 byte form is len * P1 plus, for round r = 0 .. 3 (r = 0
 * always, r > 0 when len > 32 r), mix16B of the block at 16 r and of the
 * block ending 16 r bytes before the key's end, then XXH3's avalanche.
 * mix16B multiplies the two words of a block, each xored with a secret
 * word plus or minus the seed, as one 64x64->128 product and xors its
 * halves (lv_mulfold). The 9-16 byte form is one such product (of the
 * first and last 8 bytes) with other secret words; it shares round 0's
 * first product (its inputs blended) and the avalanche. The fmix layouts'
 * strings run the same lanes (lanes_x3_keys_fmix): their 8-byte keys take
 * fmix64 where the 4-8 byte form is blended in, no second pass.
 */
#ifndef SBFI_LANES_XXH3_H_6D0A2E91
#define SBFI_LANES_XXH3_H_6D0A2E91

static inline lv lanes_xxh3_8(lv key, lv flip)
{
    lv h = lv_xor(LV_ROTL(key, 32), flip);
    h = lv_xor(h, lv_xor(LV_ROTL(h, 49), LV_ROTL(h, 24)));
    h = lv_mulc(h, SBF__XXH3_MX2);
    h = lv_xor(h, lv_add(LV_SRL(h, 35), lv_set1(8)));
    h = lv_mulc(h, SBF__XXH3_MX2);
    return lv_xor(h, LV_SRL(h, 28));
}

/* The fmix layouts' 8-byte kernel (lanes_fmix.h): fmix64(key ^ s). Here
 * because the XXH3 string lanes use it for their 8-byte keys. */
static inline lv lanes_fmix_8(lv key, lv s)
{
    lv h = lv_xor(key, s);
    h = lv_xor(h, LV_SRL(h, 33));
    h = lv_mulc(h, SBF__MURMUR3_F1);
    h = lv_xor(h, LV_SRL(h, 33));
    h = lv_mulc(h, SBF__MURMUR3_F2);
    return lv_xor(h, LV_SRL(h, 33));
}

/* n u64 keys through a 64-bit stage's vector kernel k8 (lanes_xxh3_8,
 * lanes_fmix_8) with its per-filter word w; the last keys of a batch,
 * fewer than LANES_MIN_GROUP, through its scalar reference. Both a
 * constant where it is inlined: each entry keeps its own kernel. */
static inline __attribute__((always_inline)) void
lanes_u64_stage(const uint64_t *keys, size_t n, uint64_t w, uint64_t *h, lv (*k8)(lv, lv),
                void (*scalar)(const uint64_t *, size_t, uint64_t, uint64_t *))
{
    const lv wv = lv_set1(w);
    size_t i = 0;
    for (; i + 2 * LANES <= n; i += 2 * LANES) { /* two chains in flight */
        const lv a = k8(lv_load(keys + i), wv);
        const lv b = k8(lv_load(keys + i + LANES), wv);
        lv_store(h + i, a);
        lv_store(h + i + LANES, b);
    }
    for (; i + LANES <= n; i += LANES)
        lv_store(h + i, k8(lv_load(keys + i), wv));
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        scalar(keys + i, m, w, h + i);
        return;
    }
    _Alignas(64) uint64_t t[LANES] = { 0 };
    memcpy(t, keys + i, m * 8);
    lv_store(t, k8(lv_load(t), wv));
    memcpy(h + i, t, m * 8);
}

LANES_ENTRY void lanes_xxh3_u64(const uint64_t *keys, size_t n, uint64_t flip,
                                uint64_t *h)
{
    lanes_u64_stage(keys, n, flip, h, lanes_xxh3_8, sbfi_xxh3_u64_scalar);
}


/* Byte strings: AVX-512 only (LANES_X3_NATIVE, simd/lanes_xxh3_512.h reads
 * the keys). The same core with loads inside each key for AVX2 (4 lanes)
 * and NEON (2) was built and measured slower than the scalar form those
 * tables keep (sbfi_xxh3_bytes_flat): AVX2 3.9 against 2.7-3.4 ns/key for
 * 8..64-byte keys on this VM's Zen 5, NEON 148 against 55 instructions a
 * key under qemu-aarch64. An emulated 64x64->128 multiply costs about 17
 * vector operations; four or two lanes do not pay for it where the scalar
 * code has mulx / umulh. */
#if defined(LANES_X3_NATIVE)
/* kSecret's first 128 bytes (xxhash.h), as little-endian words. */
static const uint64_t lanes_x3_secret[16] = {
    UINT64_C(0xbe4ba423396cfeb8), UINT64_C(0x1cad21f72c81017c),
    UINT64_C(0xdb979083e96dd4de), UINT64_C(0x1f67b3b7a4a44072),
    UINT64_C(0x78e5c0cc4ee679cb), UINT64_C(0x2172ffcc7dd05a82),
    UINT64_C(0x8e2443f7744608b8), UINT64_C(0x4c263a81e69035e0),
    UINT64_C(0xcb00c391bb52283c), UINT64_C(0xa32e531b8b65d088),
    UINT64_C(0x4ef90da297486471), UINT64_C(0xd8acdea946ef1938),
    UINT64_C(0x3f349ce33f76faa8), UINT64_C(0x1d4f0bc7c7bbdcf9),
    UINT64_C(0x3159b4cd4be0518a), UINT64_C(0x647378d9c97e9fc8),
};
#define LANES_X3_P1 SBF__XXH64_P1                 /* XXH_PRIME64_1 */
#define LANES_X3_AVAL UINT64_C(0x165667919E3779F9) /* XXH3_avalanche's multiplier */

/* The words a call's seed makes, computed once a call. */
typedef struct lanes_x3k {
    uint64_t k[16];      /* mix16B's: secret word i + seed (i even), - seed (odd) */
    uint64_t lo916, hi916; /* 9-16 bytes: the first / last word's bitflip */
    uint64_t flip48;     /* 4-8 bytes (sbfi_xxh3_flip8) */
    uint64_t flip13;     /* 1-3 bytes */
    uint64_t h0;         /* the hash of the empty key */
    uint64_t fmix_s;     /* fmix: sbfi_fmix_s(seed) */
    uint32_t seed;
    int fmix;            /* the fmix layouts' stage: 8-byte keys fmix64(key ^ fmix_s) */
} lanes_x3k;

static inline void lanes_x3_keys(lanes_x3k *k, uint32_t seed)
{
    const uint64_t *s = lanes_x3_secret;
    for (int i = 0; i < 16; i++)
        k->k[i] = i & 1 ? s[i] - seed : s[i] + seed;
    k->lo916 = (s[3] ^ s[4]) + seed;
    k->hi916 = (s[5] ^ s[6]) - seed;
    k->flip48 = sbfi_xxh3_flip8(seed);
    k->flip13 = ((uint32_t)s[0] ^ (uint32_t)(s[0] >> 32)) + (uint64_t)seed;
    uint64_t h0 = seed ^ (s[7] ^ s[8]); /* XXH64's avalanche of it */
    h0 ^= h0 >> 33;
    h0 *= LANES_P2;
    h0 ^= h0 >> 29;
    h0 *= LANES_P3;
    k->h0 = h0 ^ (h0 >> 32);
    k->seed = seed;
    k->fmix = 0;
    k->fmix_s = 0;
}

/* The fmix layouts' stage (src/lanes.c sbfi_fmix_bytes_scalar): XXH3 but
 * for 8-byte keys, which the same lanes hash as fmix64(key ^ s). */
static inline void lanes_x3_keys_fmix(lanes_x3k *k, uint32_t seed)
{
    lanes_x3_keys(k, seed);
    k->fmix = 1;
    k->fmix_s = sbfi_fmix_s(seed);
}

static inline lv lanes_x3_mix(const lanes_x3k *k, int i, lv lo, lv hi)
{
    return lv_mulfold(lv_xor(lo, lv_set1(k->k[i])), lv_xor(hi, lv_set1(k->k[i + 1])));
}

/* A group's blocks: f[r] the block at 16 r, b[r] the block ending 16 r
 * bytes before the key's end (lo, hi words), in the lanes of keys that
 * have round r of the 17-128 byte form (r = 0: 16 bytes and more). Also
 * f[0].lo the first and b[0].hi the last 8 bytes of a key of 8..16 bytes
 * (of 0..7 bytes, where the fetch reads them: zero-padded, the last ones
 * at the top). */
typedef struct lanes_x3b {
    lv flo[4], fhi[4], blo[4], bhi[4];
} lanes_x3b;

/*
 * XXH3 of a group of keys of 0..128 bytes from its blocks: rounds 0 ..
 * nr - 1 of the 17-128 byte form (nr = 0: no lane has more than 16 bytes),
 * the 9-16 byte form, and the forms of 0..8 bytes when `tiny` (some lane
 * has 8 bytes or fewer). Lanes of other lengths hold garbage.
 */
static inline lv lanes_x3_hash(const lanes_x3k *k, lv len, const lanes_x3b *x, int nr, int tiny)
{
    /* 9-16 bytes: (first ^ lo916) x (last ^ hi916); 17+: round 0's front
     * block (lo ^ k0) x (hi ^ k1) */
    const lm short16 = lv_gt(lv_set1(17), len);
    const lv a = lv_xor(x->flo[0], lv_blend(short16, lv_set1(k->k[0]), lv_set1(k->lo916)));
    const lv b = lv_xor(lv_blend(short16, x->fhi[0], x->bhi[0]),
                        lv_blend(short16, lv_set1(k->k[1]), lv_set1(k->hi916)));
    const lv f = lv_mulfold(a, b);
    lv acc = lv_add(lv_add(len, lv_bswap(a)), lv_add(b, f));
    if (nr > 0) {
        lv a17 = lv_add(lv_add(lv_mulc(len, LANES_X3_P1), f),
                        lanes_x3_mix(k, 2, x->blo[0], x->bhi[0]));
        for (int r = 1; r < nr; r++) {
            const lv t = lv_add(lanes_x3_mix(k, 4 * r, x->flo[r], x->fhi[r]),
                                lanes_x3_mix(k, 4 * r + 2, x->blo[r], x->bhi[r]));
            a17 = lv_blend(lv_gt(len, lv_set1(32 * (uint64_t)r)), a17, lv_add(a17, t));
        }
        acc = lv_blend(short16, a17, acc);
    }
    lv h = lv_xor(acc, LV_SRL(acc, 37)); /* XXH3_avalanche */
    h = lv_mulc(h, LANES_X3_AVAL);
    h = lv_xor(h, LV_SRL(h, 32));
    if (!tiny)
        return h;
    /* 4-8 bytes: (first 4 << 32 | last 4) ^ flip48, rrmxmx */
    const lv f0 = x->flo[0], l0 = x->bhi[0];
    lv r = lv_xor(lv_or(LV_SLL(f0, 32), LV_SRL(l0, 32)), lv_set1(k->flip48));
    r = lv_xor(r, lv_xor(LV_ROTL(r, 49), LV_ROTL(r, 24)));
    r = lv_mulc(r, SBF__XXH3_MX2);
    r = lv_xor(r, lv_add(LV_SRL(r, 35), len));
    r = lv_mulc(r, SBF__XXH3_MX2);
    r = lv_xor(r, LV_SRL(r, 28));
    if (k->fmix) /* the fmix stage's 8-byte keys (the same for every call of a filter) */
        r = lv_blend(lv_gt(len, lv_set1(7)), r, lanes_fmix_8(f0, lv_set1(k->fmix_s)));
    h = lv_blend(lv_gt(lv_set1(9), len), h, r);
    const lm lt4 = lv_gt(lv_set1(4), len);
    if (lv_any(lt4)) {
        /* 1-3 bytes: the bytes at 0, len / 2 and len - 1 and the length
         * as one 32-bit word, ^ flip13, XXH64's avalanche; 0: h0 */
        const lv ff = lv_set1(0xff);
        const lv c2 = lv_and(lv_srlv(f0, LV_SLL(LV_SRL(len, 1), 3)), ff);
        const lv w = lv_or(lv_or(LV_SLL(lv_and(f0, ff), 16), LV_SLL(c2, 24)),
                           lv_or(LV_SRL(l0, 56), LV_SLL(len, 8)));
        h = lv_blend(lt4, h, lanes_xxh_avalanche(lv_xor(w, lv_set1(k->flip13))));
        h = lv_blend(lv_gt(lv_set1(1), len), h, lv_set1(k->h0));
    }
    return h;
}

/* Rounds of the 17-128 byte form for a group whose longest key (up to
 * 128 bytes counted) has max bytes. */
static inline int lanes_x3_rounds(uint64_t max)
{
    return max <= 16 ? 0 : max <= 32 ? 1 : max <= 64 ? 2 : max <= 96 ? 3 : 4;
}

#endif /* LANES_X3_NATIVE */

#endif /* SBFI_LANES_XXH3_H_6D0A2E91 */
