/*
 * XXH3_64bits_withSeed of byte strings on AVX-512 (F, BW, DQ): the table's
 * xxh3_bytes for simd/avx512.c, bit-exact with libxxhash. Part of
 * simd/lanes.h (included from lanes_avx512.h after lanes_mm512.h, whose
 * transposition it shares; lanes_avx512.h sets LANES_X3_NATIVE so
 * lanes_xxh3.h leaves lanes_xxh3_bytes to this file). lanes_xxh3.h says
 * the algorithm and computes it (lanes_x3_hash); this file reads the keys.
 *
 * Every key of up to 128 bytes is two byte-masked 64-byte loads: its
 * first min(len, 64) bytes (zero-padded) and its last min(len, 64) bytes
 * ending at its end (zero below); when no key of the group has more than
 * 64 bytes (counting those up to 128), two 32-byte ones (10% faster on
 * 8..64-byte keys than 64-byte loads). Those hold every block of xxHash's
 * 17-128 byte form (the front blocks at 16 r, the back blocks ending 16 r
 * before the end), the first and last 8 bytes of the 9-16 byte form and
 * the bytes of the 1-8 byte forms: each length class in lanes, no scalar
 * code below 129 bytes. A masked-off byte is never read (the architecture
 * suppresses its fault), so nothing outside a key is read; the mask is
 * the key's length's low byte compared with the byte positions (a length
 * of 256 or more gives a shorter mask, still inside the key: such keys are
 * hashed in scalar code anyway). The load of a key's end starts up to 64
 * bytes before the key: when that lies in an unmapped page (a key at the
 * start of a mapping) the suppressed fault may cost a microcode assist,
 * never a wrong byte or a signal; an empty key (maybe NULL) reads nothing. Rows of 8 keys are transposed in
 * registers into their blocks (lanes5_t4's shuffles).
 *
 * Measured on this VM's Zen 5 (loaded; 4096 keys of 8..64 bytes, 32 a
 * call): 1.9 ns/key against 2.3 for libxxhash's XXH3_64bits_withSeed
 * inlined per key and 2.7-3.4 for the scalar table entries; 80..120
 * bytes 3.2 against 4.5. About 25 instructions a key for 8..64 bytes:
 * eight per key to read it (two masked loads, their masks), four to
 * transpose, and four 64x64->128 multiplies per lane (a group runs round
 * 1 when any of its keys has more than 32 bytes), each about 16 vector
 * operations for 8 lanes.
 * Where a batched contains of such keys spends its 2.9 ns (split-block-
 * xxh3, 256 KiB, loaded VM): the probe 0.6, the NULL check of the
 * pointers 0.2, this hash 2.0, of which the arithmetic 0.9 (0.27 the two
 * multiplies of round 1), the masked loads 0.26 more than plain ones.
 * Tried and slower: masks by bzhi + kmov (+5%), lengths replicated in
 * words and broadcast by loads (+4%), two keys a 64-byte row by
 * merge-masked loads (8 shuffles fewer per 8 keys, +11%), fetching and
 * hashing one group at a time (equal on 8..64 bytes, +7% on 80..120).
 */
#ifndef SBFI_LANES_XXH3_512_H_5E0B7A2C
#define SBFI_LANES_XXH3_512_H_5E0B7A2C

#if !defined(LANES_X3_NATIVE) || !defined(SBFI_LANES_MM512_H_91C4E2B7)
#  error "simd/lanes_xxh3_512.h is included by simd/lanes_avx512.h after lanes_mm512.h"
#endif

/* Masks of a key's first / last min(len, 64) bytes of a 64-byte row. */
static inline __mmask64 lanes_x3m_first(const uint64_t *len)
{
    return lanes5_mask0(len);
}

static inline __mmask64 lanes_x3m_last(const uint64_t *len)
{
    const lv rpos = simde_mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                         30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                                         44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
                                         58, 59, 60, 61, 62, 63);
    uint8_t b;
    memcpy(&b, len, 1); /* little-endian: the low byte */
    return _mm512_cmplt_epu8_mask(rpos, simde_mm512_set1_epi8((char)b));
}

/* Rows r[0..8) (a 64-byte piece of each of 8 keys) as blocks: lo[j], hi[j]
 * lane i = the words of block j of row i, for j < n. */
static inline __attribute__((always_inline)) void lanes_x3_rows(const lv r[8], lv lo[4],
                                                                lv hi[4], int n)
{
    lv t[8];
    LANES5_UNROLL
    for (int i = 0; i < 8; i += 2) {
        t[i] = simde_mm512_unpacklo_epi64(r[i], r[i + 1]);
        t[i + 1] = simde_mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    lanes5_t4(t[0], t[2], t[4], t[6], lo, n);
    lanes5_t4(t[1], t[3], t[5], t[7], hi, n);
}

/* The same for the last n blocks, from the top: lo[j] = block 3 - j. */
static inline __attribute__((always_inline)) void lanes_x3_rows_top(const lv r[8], lv lo[4],
                                                                    lv hi[4], int n)
{
    lv t[8];
    LANES5_UNROLL
    for (int i = 0; i < 8; i += 2) {
        t[i] = simde_mm512_unpacklo_epi64(r[i], r[i + 1]);
        t[i + 1] = simde_mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    LANES5_UNROLL
    for (int h = 0; h < 2; h++) {
        const lv a = t[h], b = t[h + 2], c = t[h + 4], d = t[h + 6];
        lv *out = h == 0 ? lo : hi;
        const lv v1 = simde_mm512_shuffle_i64x2(a, b, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
        const lv w1 = simde_mm512_shuffle_i64x2(c, d, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
        out[0] = simde_mm512_shuffle_i64x2(v1, w1, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
        if (n > 1)
            out[1] = simde_mm512_shuffle_i64x2(v1, w1, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
        if (n > 2) {
            const lv v0 = simde_mm512_shuffle_i64x2(a, b, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
            const lv w0 = simde_mm512_shuffle_i64x2(c, d, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
            out[2] = simde_mm512_shuffle_i64x2(v0, w0, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
            out[3] = simde_mm512_shuffle_i64x2(v0, w0, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
        }
    }
}

/* The blocks of rounds 0..3 (keys of up to 128 bytes counted): each key's
 * first and last min(len, 64) bytes, two byte-masked 64-byte loads. */
static inline __attribute__((always_inline)) void
lanes_x3_fetch512(const void *const *keys, const uint64_t *lens, lanes_x3b *x)
{
    lv rf[8], rb[8];
    LANES5_UNROLL
    for (int i = 0; i < 8; i++) {
        rf[i] = _mm512_maskz_loadu_epi8(lanes_x3m_first(lens + i), keys[i]);
        rb[i] = _mm512_maskz_loadu_epi8(lanes_x3m_last(lens + i),
                                        (const void *)((uintptr_t)keys[i] + lens[i] - 64));
    }
    lanes_x3_rows(rf, x->flo, x->fhi, 4);
    lanes_x3_rows_top(rb, x->blo, x->bhi, 4);
}

/* The blocks of rounds 0 and 1 (keys of up to 64 bytes counted): each key's
 * first and last min(len, 32) bytes, two byte-masked 32-byte loads. */
static inline __attribute__((always_inline)) void
lanes_x3_fetch256(const void *const *keys, const uint64_t *lens, lanes_x3b *x)
{
    const __m256i pos = _mm256_set_epi8(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
                                        17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                        1, 0);
    const __m256i rpos = _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                         30, 31);
    __m256i f[8], b[8];
    LANES5_UNROLL
    for (int i = 0; i < 8; i++) {
        uint8_t c;
        memcpy(&c, lens + i, 1); /* little-endian: the low byte */
        const __m256i lim = _mm256_set1_epi8((char)c);
        f[i] = _mm256_maskz_loadu_epi8(_mm256_cmplt_epu8_mask(pos, lim), keys[i]);
        b[i] = _mm256_maskz_loadu_epi8(_mm256_cmplt_epu8_mask(rpos, lim),
                                       (const void *)((uintptr_t)keys[i] + lens[i] - 32));
    }
    LANES5_UNROLL
    for (int side = 0; side < 2; side++) {
        const __m256i *r = side == 0 ? f : b;
        lv *lo = side == 0 ? x->flo : x->blo, *hi = side == 0 ? x->fhi : x->bhi;
        lv tl[2], th[2];
        LANES5_UNROLL
        for (int q = 0; q < 2; q++) {
            const int a = 4 * q;
            tl[q] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_unpacklo_epi64(r[a], r[a + 1])),
                                       _mm256_unpacklo_epi64(r[a + 2], r[a + 3]), 1);
            th[q] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_unpackhi_epi64(r[a], r[a + 1])),
                                       _mm256_unpackhi_epi64(r[a + 2], r[a + 3]), 1);
        }
        /* tl[q] 128-bit lanes: rows 4q..4q+1 block 0, block 1, rows 4q+2..4q+3
         * block 0, block 1 */
        const int i0 = side == 0 ? 0 : 1; /* the back row's last block first */
        lo[i0] = simde_mm512_shuffle_i64x2(tl[0], tl[1], SIMDE_MM_SHUFFLE(2, 0, 2, 0));
        lo[1 - i0] = simde_mm512_shuffle_i64x2(tl[0], tl[1], SIMDE_MM_SHUFFLE(3, 1, 3, 1));
        hi[i0] = simde_mm512_shuffle_i64x2(th[0], th[1], SIMDE_MM_SHUFFLE(2, 0, 2, 0));
        hi[1 - i0] = simde_mm512_shuffle_i64x2(th[0], th[1], SIMDE_MM_SHUFFLE(3, 1, 3, 1));
    }
}

/* ng groups of 8 keys (1, 2, 4) with nr rounds (constants after
 * inlining): every group's blocks first, then the hashes (the groups'
 * independent work side by side: two groups 4% faster than one at a time,
 * four 6% faster than two, on 8..64-byte keys). h[g]: group g's hashes. */
static inline __attribute__((always_inline)) void
lanes_x3_run(const lanes_x3k *k, const void *const *keys, const uint64_t *lens, lv h[4],
             int ng, int nr)
{
    lanes_x3b x[4];
    for (int g = 0; g < ng; g++) {
        if (nr <= 2)
            lanes_x3_fetch256(keys + 8 * g, lens + 8 * g, &x[g]);
        else
            lanes_x3_fetch512(keys + 8 * g, lens + 8 * g, &x[g]);
    }
    for (int g = 0; g < ng; g++) {
        const lv len = lv_load(lens + 8 * g);
        h[g] = lanes_x3_hash(k, len, &x[g], nr, lv_any(lv_gt(lv_set1(9), len)));
    }
}

/* ng groups (1, 2, 4) of 8 keys: lane i of h[g] = XXH3_64bits_withSeed(
 * keys[8 g + i], lens[8 g + i], seed), in registers (the table's entry
 * stores them; simd/pipeline.h's fused stage maps them to the probes'
 * words); keys of more than 128 bytes in scalar code, blended in. */
static inline __attribute__((always_inline)) void
lanes_x3_block(const lanes_x3k *k, const void *const *keys, const uint64_t *lens, lv h[4],
               int ng)
{
    lv m = lv_set1(0);
    unsigned big = 0;
    for (int g = 0; g < ng; g++) {
        const lv l = lv_load(lens + 8 * g);
        const __mmask8 b = _mm512_cmpgt_epu64_mask(l, lv_set1(128));
        m = simde_mm512_max_epu64(m, simde_mm512_maskz_mov_epi64((__mmask8)~b, l));
        big |= (unsigned)b << 8 * g;
    }
    switch (lanes_x3_rounds(_mm512_reduce_max_epu64(m))) {
    case 0: lanes_x3_run(k, keys, lens, h, ng, 0); break;
    case 1: lanes_x3_run(k, keys, lens, h, ng, 1); break;
    case 2: lanes_x3_run(k, keys, lens, h, ng, 2); break;
    case 3: lanes_x3_run(k, keys, lens, h, ng, 3); break;
    default: lanes_x3_run(k, keys, lens, h, ng, 4); break;
    }
    if (SBFI_UNLIKELY(big != 0)) {
        for (int g = 0; g < ng; g++) /* g a constant: h stays in registers */
            for (unsigned b = (big >> 8 * g) & 0xff; b != 0; b &= b - 1) {
                const int i = 8 * g + __builtin_ctz(b);
                h[g] = lv_blend((lm)(b & -b), h[g], lv_set1(sbfi_xxh3_64(keys[i], lens[i], k->seed)));
            }
    }
}

/* The same into h[0 .. 8 ng). */
static inline __attribute__((always_inline)) void
lanes_x3_store(const lanes_x3k *k, const void *const *keys, const uint64_t *lens, uint64_t *h,
               int ng)
{
    lv v[4];
    lanes_x3_block(k, keys, lens, v, ng);
    for (int g = 0; g < ng; g++)
        lv_store(h + 8 * g, v[g]);
}

/* n keys with the words of k (XXH3's or the fmix stage's), scalar for
 * fewer than LANES_MIN_GROUP keys. */
static inline __attribute__((always_inline)) void
lanes_x3_all(const lanes_x3k *kp, const void *const *keys, const size_t *lens, size_t n,
             uint64_t *h,
             void (*scalar)(const void *const *, const size_t *, size_t, uint32_t, uint64_t *))
{
    const uint64_t *len = (const uint64_t *)(const void *)lens;
    const uint32_t seed = kp->seed;
    if (n < LANES_MIN_GROUP) {
        scalar(keys, lens, n, seed, h);
        return;
    }
    const lanes_x3k k = *kp;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) /* the pipeline's step */
        lanes_x3_store(&k, keys + i, len + i, h + i, 4);
    if (i + 16 <= n) {
        lanes_x3_store(&k, keys + i, len + i, h + i, 2);
        i += 16;
    }
    if (i + 8 <= n) {
        lanes_x3_store(&k, keys + i, len + i, h + i, 1);
        i += 8;
    }
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        scalar(keys + i, lens + i, m, seed, h + i);
        return;
    }
    /* the last m < 8 keys, padded with empty ones (read nothing) */
    const void *pk[8] = { lanes_zero, lanes_zero, lanes_zero, lanes_zero,
                          lanes_zero, lanes_zero, lanes_zero, lanes_zero };
    _Alignas(64) uint64_t l[8] = { 0 }, t[8];
    memcpy(pk, keys + i, m * sizeof pk[0]);
    memcpy(l, lens + i, m * sizeof l[0]);
    lanes_x3_store(&k, pk, l, t, 1);
    memcpy(h + i, t, m * 8);
}

LANES_ENTRY void lanes_xxh3_bytes(const void *const *keys, const size_t *lens, size_t n,
                                  uint32_t seed, uint64_t *h)
{
    lanes_x3k k;
    lanes_x3_keys(&k, seed);
    lanes_x3_all(&k, keys, lens, n, h, sbfi_xxh3_bytes_scalar);
}

/* The fmix layouts' strings (lanes_fmix.h): the same lanes, their 8-byte
 * keys fmix64. */
LANES_ENTRY void lanes_fmix_bytes(const void *const *keys, const size_t *lens, size_t n,
                                  uint32_t seed, uint64_t *h)
{
    lanes_x3k k;
    lanes_x3_keys_fmix(&k, seed);
    lanes_x3_all(&k, keys, lens, n, h, sbfi_fmix_bytes_scalar);
}

#endif /* SBFI_LANES_XXH3_512_H_5E0B7A2C */
