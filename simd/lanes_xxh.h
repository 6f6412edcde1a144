/*
 * XXH64 with seed 0 in SIMD lanes (part of simd/lanes.h, which says how
 * lanes work): lanes_xxh64_u64 (each key's 8 little-endian bytes: a Parquet
 * INT64 value) and lanes_xxh64_bytes (byte strings), bit-exact with
 * libxxhash's XXH64(key, len, 0). The algorithm is xxHash's specification
 * (doc/xxhash_spec.md in Cyan4973/xxHash): 32-byte stripes into four
 * accumulators when len >= 32, then 8-byte words, a 4-byte word and single
 * bytes, then the avalanche.
 */
#ifndef SBFI_LANES_XXH_H_3B61F0C8
#define SBFI_LANES_XXH_H_3B61F0C8

/* XXH64's primes (include/simdbloom_layout.h). */
#define LANES_P1 SBF__XXH64_P1
#define LANES_P2 SBF__XXH64_P2
#define LANES_P3 SBF__XXH64_P3
#define LANES_P4 SBF__XXH64_P4
#define LANES_P5 SBF__XXH64_P5

/* round(acc, input) of the specification */
static inline lv lanes_xxh_round(lv acc, lv in)
{
    return lv_mulc(LV_ROTL(lv_add(acc, lv_mulc(in, LANES_P2)), 31), LANES_P1);
}

static inline uint64_t lanes_xxh_round1(uint64_t acc, uint64_t in)
{
    return sbf__rotl64(acc + in * LANES_P2, 31) * LANES_P1;
}

static inline lv lanes_xxh_avalanche(lv h)
{
    h = lv_xor(h, LV_SRL(h, 33));
    h = lv_mulc(h, LANES_P2);
    h = lv_xor(h, LV_SRL(h, 29));
    h = lv_mulc(h, LANES_P3);
    return lv_xor(h, LV_SRL(h, 32));
}

/* An 8-byte word k: h ^= round(0, k); h = rotl(h, 27) * P1 + P4. */
static inline lv lanes_xxh_word(lv h, lv k)
{
    const lv r = lv_mulc(LV_ROTL(lv_mulc(k, LANES_P2), 31), LANES_P1);
    return lv_add(lv_mulc(LV_ROTL(lv_xor(h, r), 27), LANES_P1), lv_set1(LANES_P4));
}

/* A u64 key is one 8-byte word after h = seed + P5 + len. */
LANES_ENTRY void lanes_xxh64_u64(const uint64_t *keys, size_t n, uint64_t *h)
{
    const lv init = lv_set1(LANES_P5 + 8);
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        lv_store(h + i, lanes_xxh_avalanche(lanes_xxh_word(init, lv_load(keys + i))));
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        sbfi_xxh64_u64_scalar(keys + i, m, h + i);
        return;
    }
    _Alignas(64) uint64_t t[LANES] = { 0 };
    memcpy(t, keys + i, m * 8);
    lv_store(t, lanes_xxh_avalanche(lanes_xxh_word(init, lv_load(t))));
    memcpy(h + i, t, m * 8);
}

/* The 32-byte stripes of a group, from the seed-0 accumulators, merged;
 * P5 in the lanes of keys under 32 bytes. */
static inline lv lanes_xxh_stripes(const lanes_grp *g)
{
    const lv ns = LV_SRL(g->len, 5), z = lanes_zero_addr();
    const uint64_t steps = lanes_steps(g->lens, 5);
    lv v[4] = { lv_set1(LANES_P1 + LANES_P2), lv_set1(LANES_P2), lv_set1(0),
                lv_set1(0 - LANES_P1) };
    lv at = g->p;
    for (uint64_t s = 0; s < steps; s++) {
        const lm m = lv_gt(ns, lv_set1(s));
        const lv a = lv_blend(m, z, at);
        lv w[4];
        lanes_blocks_at(a, &w[0], &w[1]);
        lanes_blocks_at(lv_add(a, lv_set1(16)), &w[2], &w[3]);
        for (int j = 0; j < 4; j++)
            v[j] = lv_blend(m, v[j], lanes_xxh_round(v[j], w[j]));
        at = lv_add(at, lv_set1(32));
    }
    if (lv_any(lv_gt(ns, lv_set1(steps)))) { /* the longest keys, in scalar code */
        _Alignas(64) uint64_t acc[4][LANES];
        for (int j = 0; j < 4; j++)
            lv_store(acc[j], v[j]);
        for (int i = 0; i < LANES; i++) {
            const unsigned char *key = g->keys[i];
            for (uint64_t s = steps; s < g->lens[i] >> 5; s++)
                for (int j = 0; j < 4; j++)
                    acc[j][i] = lanes_xxh_round1(acc[j][i], lanes_ld64(key + 32 * s + 8 * j));
        }
        for (int j = 0; j < 4; j++)
            v[j] = lv_set(acc[j]);
    }
    lv h = lv_add(lv_add(LV_ROTL(v[0], 1), LV_ROTL(v[1], 7)),
                  lv_add(LV_ROTL(v[2], 12), LV_ROTL(v[3], 18)));
    for (int j = 0; j < 4; j++) {
        h = lv_xor(h, lanes_xxh_round(lv_set1(0), v[j]));
        h = lv_add(lv_mulc(h, LANES_P1), lv_set1(LANES_P4));
    }
    return lv_blend(lv_gt(ns, lv_set1(0)), lv_set1(LANES_P5), h);
}

/*
 * XXH64 of a group. After the stripes, a key's r = len & 31 bytes are
 * c8 = r / 8 words, a 4-byte word if r & 4, then r & 3 bytes. The words run
 * end-aligned: at step t = 0, 1, 2 a lane with c8 >= 3 - t takes its word
 * that ends 8 (2 - t) + d bytes before its end (d = r & 7), so the words of
 * a step lie at one place of every lane's last 32 bytes (lanes_end32), and
 * a lane with fewer words starts later (keeping its state until then).
 */
static inline void lanes_xxh_group(const lanes_grp *g, uint64_t *out)
{
    const lv len = g->len;
    lv h = lv_any(lv_gt(len, lv_set1(31))) ? lanes_xxh_stripes(g) : lv_set1(LANES_P5);
    h = lv_add(h, len);
    lv w[4];
    lanes_end32(g, w);
    const lv r = lv_and(len, lv_set1(31)), c8 = LV_SRL(r, 3);
    const lv f = LV_SLL(lv_and(r, lv_set1(7)), 3), e = lv_sub(lv_set1(64), f);
    for (int t = 0; t < 3; t++) {
        const lm m = lv_gt(c8, lv_set1((uint64_t)(2 - t)));
        if (!lv_any(m))
            continue;
        const lv word = lv_or(lv_srlv(w[t], e), lv_sllv(w[t + 1], f));
        h = lv_blend(m, h, lanes_xxh_word(h, word));
    }
    /* the last d bytes: the 4-byte word, then the single bytes */
    lv last = lv_srlv(w[3], e);
    const lv c4 = lv_and(r, lv_set1(4));
    const lm m4 = lv_gt(c4, lv_set1(0));
    if (lv_any(m4)) {
        const lv x = lv_xor(h, lv_mulc(lv_and(last, lv_set1(0xffffffffu)), LANES_P1));
        h = lv_blend(m4, h, lv_add(lv_mulc(LV_ROTL(x, 23), LANES_P2), lv_set1(LANES_P3)));
        last = lv_srlv(last, LV_SLL(c4, 3));
    }
    const lv c1 = lv_and(r, lv_set1(3));
    for (uint64_t j = 0; j < 3; j++) {
        const lm m = lv_gt(c1, lv_set1(j));
        if (!lv_any(m))
            break;
        const lv x = lv_xor(h, lv_mulc(lv_and(last, lv_set1(0xff)), LANES_P5));
        h = lv_blend(m, h, lv_mulc(LV_ROTL(x, 11), LANES_P1));
        last = LV_SRL(last, 8);
    }
    lv_store(out, lanes_xxh_avalanche(h));
}

LANES_ENTRY void lanes_xxh64_bytes(const void *const *keys, const size_t *lens, size_t n,
                              uint64_t *h)
{
    size_t i = 0;
    while (i + LANES <= n) {
        const lanes_grp g = lanes_group(keys + i, (const uint64_t *)(lens + i));
        if (!lv_any(lv_gt(lv_set1(8), g.len))) {
            lanes_xxh_group(&g, h + i);
            i += LANES;
            continue;
        }
        /* a key under 8 bytes: the scalar XXH64 is faster for such groups
         * (one call for the run of them) */
        size_t j = i + LANES;
        while (j + LANES <= n &&
               lv_any(lv_gt(lv_set1(8), lv_load((const uint64_t *)(lens + j)))))
            j += LANES;
        sbfi_xxh64_bytes_scalar(keys + i, lens + i, j - i, h + i);
        i = j;
    }
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        sbfi_xxh64_bytes_scalar(keys + i, lens + i, m, h + i);
        return;
    }
    const void *k[LANES] = { 0 };
    _Alignas(64) uint64_t l[LANES] = { 0 }, t[LANES];
    memcpy(k, keys + i, m * sizeof k[0]);
    memcpy(l, lens + i, m * sizeof l[0]);
    const lanes_grp g = lanes_group(k, l);
    lanes_xxh_group(&g, t);
    memcpy(h + i, t, m * 8);
}

#endif /* SBFI_LANES_XXH_H_3B61F0C8 */
