/*
 * MurmurHash3_x64_128 of byte strings in SIMD lanes (part of simd/lanes.h,
 * which says how lanes work): lanes_hash_bytes, bit-exact with
 * sbf_murmur3_x64_128 for every length.
 *
 * Per group of LANES keys: the 16-byte body blocks (steps as lanes.h says),
 * then the tail, the last len & 15 bytes, taken from the key's last 16
 * bytes (lanes_end16) by a 128-bit shift, then the finalisation. A tail
 * word that is 0 mixes to 0 and leaves the state as it is, so no lane needs
 * a mask for the tail.
 */
#ifndef SBFI_LANES_MM_H_5D0E7A21
#define SBFI_LANES_MM_H_5D0E7A21

static inline lv lanes_mm_k1(lv k)
{
    return lv_mulc(LV_ROTL(lv_mulc(k, SBFI_C1), 31), SBFI_C2);
}

static inline lv lanes_mm_k2(lv k)
{
    return lv_mulc(LV_ROTL(lv_mulc(k, SBFI_C2), 33), SBFI_C1);
}

static inline lv lanes_fmix(lv x)
{
    x = lv_xor(x, LV_SRL(x, 33));
    x = lv_mulc(x, SBF_MURMUR3_F1);
    x = lv_xor(x, LV_SRL(x, 33));
    x = lv_mulc(x, SBF_MURMUR3_F2);
    return lv_xor(x, LV_SRL(x, 33));
}

/* x * 5 + c */
static inline lv lanes_mul5_add(lv x, uint64_t c)
{
    return lv_add(lv_add(LV_SLL(x, 2), x), lv_set1(c));
}

/* One 16-byte body block in every lane where m is set. */
static inline void lanes_mm_block(lv *h1p, lv *h2p, lv k1, lv k2, lm m)
{
    lv h1 = lv_xor(*h1p, lanes_mm_k1(k1));
    h1 = lanes_mul5_add(lv_add(LV_ROTL(h1, 27), *h2p), 0x52dce729);
    lv h2 = lv_xor(*h2p, lanes_mm_k2(k2));
    h2 = lanes_mul5_add(lv_add(LV_ROTL(h2, 31), h1), 0x38495ab5);
    *h1p = lv_blend(m, *h1p, h1);
    *h2p = lv_blend(m, *h2p, h2);
}

/* The same block in scalar code (a long key's last blocks). */
static inline void lanes_mm_block1(uint64_t *h1p, uint64_t *h2p, const unsigned char *b)
{
    uint64_t k1 = lanes_ld64(b), k2 = lanes_ld64(b + 8), h1 = *h1p, h2 = *h2p;
    k1 = sbf__rotl64(k1 * SBFI_C1, 31) * SBFI_C2;
    h1 = (sbf__rotl64(h1 ^ k1, 27) + h2) * 5 + 0x52dce729;
    k2 = sbf__rotl64(k2 * SBFI_C2, 33) * SBFI_C1;
    h2 = (sbf__rotl64(h2 ^ k2, 31) + h1) * 5 + 0x38495ab5;
    *h1p = h1;
    *h2p = h2;
}

/* A key's hash from the state (h1, h2) after its first `from` blocks, in
 * scalar code: the other blocks, the tail, the finalisation. */
static inline void lanes_mm_rest(uint64_t h1, uint64_t h2, const void *key, uint64_t len,
                                 uint64_t from, uint64_t *h1o, uint64_t *h2o)
{
    const unsigned char *p = key;
    for (uint64_t s = from; s < len >> 4; s++)
        lanes_mm_block1(&h1, &h2, p + 16 * s);
    unsigned char t[16] = { 0 };
    memcpy(t, p + (len & ~(uint64_t)15), len & 15);
    const uint64_t k1 = lanes_ld64(t), k2 = lanes_ld64(t + 8);
    h1 ^= sbf__rotl64(k1 * SBFI_C1, 31) * SBFI_C2;
    h2 ^= sbf__rotl64(k2 * SBFI_C2, 33) * SBFI_C1;
    uint64_t out[2];
    sbf_inl_murmur3_finish(h1, h2, len, out);
    *h1o = out[0];
    *h2o = out[1];
}

/* MurmurHash3_x64_128's finalisation of LANES lanes (states after body and
 * tail, the keys' lengths), stored to h1o[], h2o[]. */
static inline void lanes_mm_final(lv h1, lv h2, lv len, uint64_t *h1o, uint64_t *h2o)
{
    h1 = lv_xor(h1, len);
    h2 = lv_xor(h2, len);
    h1 = lv_add(h1, h2);
    h2 = lv_add(h2, h1);
    h1 = lanes_fmix(h1);
    h2 = lanes_fmix(h2);
    h1 = lv_add(h1, h2);
    h2 = lv_add(h2, h1);
    lv_store(h1o, h1);
    lv_store(h2o, h2);
}

#if !defined(LANES_MM_NATIVE)
/* The body blocks of a group: lanes for `steps` blocks, the rest in scalar. */
static inline void lanes_mm_body(const lanes_grp *g, lv *h1, lv *h2)
{
    const lv nb = LV_SRL(g->len, 4), z = lanes_zero_addr();
    const uint64_t steps = lanes_steps(g->lens, 4);
    lv at = g->p;
    for (uint64_t s = 0; s < steps; s++) {
        const lm m = lv_gt(nb, lv_set1(s));
        lv k1, k2;
        lanes_blocks_at(lv_blend(m, z, at), &k1, &k2);
        lanes_mm_block(h1, h2, k1, k2, m);
        at = lv_add(at, lv_set1(16));
    }
    if (lv_any(lv_gt(nb, lv_set1(steps)))) {
        _Alignas(64) uint64_t a[LANES], b[LANES];
        lv_store(a, *h1);
        lv_store(b, *h2);
        for (int i = 0; i < LANES; i++) {
            const unsigned char *key = g->keys[i];
            for (uint64_t s = steps; s < g->lens[i] >> 4; s++)
                lanes_mm_block1(&a[i], &b[i], key + 16 * s);
        }
        *h1 = lv_set(a);
        *h2 = lv_set(b);
    }
}

/* MurmurHash3_x64_128 of LANES keys. */
static inline void lanes_mm_group(const lanes_grp *g, uint32_t seed, uint64_t *h1o,
                                  uint64_t *h2o)
{
    lv h1 = lv_set1(seed), h2 = h1;
    lanes_mm_body(g, &h1, &h2);
    /* the tail: its t = len & 15 bytes are the top t of the last 16, so
     * (hi:lo) >> (128 - 8t) as a 128-bit value */
    lv lo, hi;
    lanes_end16(g, &lo, &hi);
    const lv x = LV_SLL(lv_and(g->len, lv_set1(15)), 3), c64 = lv_set1(64);
    const lv r = lv_sub(lv_set1(128), x);
    const lv t1 = lv_or(lv_or(lv_srlv(lo, r), lv_sllv(hi, lv_sub(x, c64))),
                        lv_srlv(hi, lv_sub(c64, x)));
    h1 = lv_xor(h1, lanes_mm_k1(t1));
    h2 = lv_xor(h2, lanes_mm_k2(lv_srlv(hi, r)));
    lanes_mm_final(h1, h2, g->len, h1o, h2o);
}

LANES_ENTRY void lanes_hash_bytes(const void *const *keys, const size_t *lens, size_t n,
                             uint32_t seed, uint64_t *h1, uint64_t *h2)
{
    size_t i = 0;
    for (; i + LANES <= n; i += LANES) {
        const lanes_grp g = lanes_group(keys + i, (const uint64_t *)(lens + i));
#if LANES_SCALAR_SHORT > 0
        /* every key shorter than LANES_SCALAR_SHORT, or one length with a
         * tail of under LANES_SCALAR_TAIL bytes: the scalar hash is cheap
         * there and beats lanes on some ISAs */
        const lv first = lv_set1(lens[i]);
        if (lv_bits(lv_gt(g.len, lv_set1(LANES_SCALAR_SHORT - 1))) == 0 ||
            ((lens[i] & 15) + 1 <= LANES_SCALAR_TAIL &&
             (lv_bits(lv_gt(first, g.len)) | lv_bits(lv_gt(g.len, first))) == 0)) {
            for (size_t j = i; j < i + LANES; j++)
                sbfi_hash_key(keys[j], lens[j], seed, &h1[j], &h2[j]);
            continue;
        }
#endif
        lanes_mm_group(&g, seed, h1 + i, h2 + i);
    }
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        sbfi_hash_bytes_scalar(keys + i, lens + i, m, seed, h1 + i, h2 + i);
        return;
    }
    const void *k[LANES] = { 0 };
    _Alignas(64) uint64_t l[LANES] = { 0 }, a[LANES], b[LANES];
    memcpy(k, keys + i, m * sizeof k[0]);
    memcpy(l, lens + i, m * sizeof l[0]);
    const lanes_grp g = lanes_group(k, l);
    lanes_mm_group(&g, seed, a, b);
    memcpy(h1 + i, a, m * 8);
    memcpy(h2 + i, b, m * 8);
}
#endif /* !LANES_MM_NATIVE */

#endif /* SBFI_LANES_MM_H_5D0E7A21 */
