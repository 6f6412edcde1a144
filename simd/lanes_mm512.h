/*
 * MurmurHash3_x64_128 of byte strings on AVX-512 (F, BW, DQ): the table's
 * hash_bytes for simd/avx512.c, bit-exact with sbf_murmur3_x64_128. Part of
 * simd/lanes.h (included from lanes_avx512.h after it, which sets
 * LANES_MM_NATIVE so lanes_mm.h leaves lanes_hash_bytes to this file).
 *
 * Native intrinsics for what SIMDe 0.7.4 lacks: byte-masked loads
 * (vmovdqu8 with a mask register) and _mm512_reduce_max_epu64. A
 * masked-off byte is never read (the architecture suppresses its fault),
 * so a key is read in 64-byte chunks with the bytes past its end masked
 * off: its blocks and its tail (zero-padded, as MurmurHash3 reads it) come
 * from one load per chunk, whatever its length, with no branch on it.
 *
 * A chunk of 8 keys (8 rows of 64 bytes) is transposed in registers (8
 * unpacks, 16 128-bit lane shuffles) into four (lo, hi) pairs, lane i
 * holding key i's block. Step b mixes block b into every lane: a lane with
 * b < len / 16 runs MurmurHash3's body round; any other lane xors the
 * mixed words into (h1, h2), which is MurmurHash3's tail when
 * b = len / 16 and changes nothing past it (the words are 0 there and mix
 * to 0). So a group needs ceil(maxlen / 16) steps and no tail pass.
 *
 * Four groups (32 keys, the pipeline's step) run together: first every
 * group's chunk is loaded and transposed into memory (independent work),
 * then the steps, the groups interleaved: one group's rounds are a chain
 * of dependent operations (about 16 cycles a block on Zen 5) that leaves
 * the machine idle; four chains fill it. Measured on this VM's EPYC (Zen 5,
 * 4096 keys of 8..64 bytes, 32 a call): 2.0 ns/key against 3.3 for the
 * lanes.h kernel (8 16-byte loads and inserts per step, the tail from the
 * key's last 16 bytes, keys under 16 bytes partly in scalar code).
 * Byte-masked 512-bit loads cost about twice plain ones here, so a chunk
 * the keys fill completely (long keys) is read with plain loads.
 *
 * When some key needs more than LANES_STEPS_ALL steps, each group's
 * blocks run in lanes up to its (LANES_SCALAR_MAX + 1)-th longest key
 * (lanes.h's policy; the groups together to the largest of those), and
 * the longer keys finish in scalar code from there (lanes_mm_rest).
 */
#ifndef SBFI_LANES_MM512_H_91C4E2B7
#define SBFI_LANES_MM512_H_91C4E2B7

#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512DQ__) || \
    !defined(__BMI2__) || LANES != 8
#  error "simd/lanes_mm512.h needs AVX-512 F, BW, DQ and BMI2 (simd/avx512.c's flags)"
#endif

#include <immintrin.h>

/* Loops over groups and rows fully unrolled: their vectors then stay in
 * registers (rolled, gcc keeps each group's state in memory, a store and a
 * reload in the chain of every step). */
#if defined(__clang__) && defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#    define LANES5_ROLLED 1 /* clang -fsanitize: unrolled, this file took
                               minutes to compile (16 s rolled); speed is
                               not what a sanitized build is for */
#  endif
#endif
#ifdef LANES5_ROLLED
#  define LANES5_UNROLL
#else
#  define LANES5_UNROLL _Pragma("GCC unroll 8")
#endif

/* Groups hashed together (32 keys). */
#define LANES5_GROUPS 4

/* Four 128-bit lanes each of a, b, c, d (rows 0-1, 2-3, 4-5, 6-7; lane j =
 * block j) into out[j] = lane j of a, b, c, d, for j < n (n = 1, 2, 4: a
 * constant after inlining; 8 shuffles for 4, 3 for 1). */
static inline __attribute__((always_inline)) void lanes5_t4(lv a, lv b, lv c, lv d, lv out[4],
                                                            int n)
{
    const lv v0 = simde_mm512_shuffle_i64x2(a, b, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    const lv w0 = simde_mm512_shuffle_i64x2(c, d, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[0] = simde_mm512_shuffle_i64x2(v0, w0, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
    if (n > 1)
        out[1] = simde_mm512_shuffle_i64x2(v0, w0, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
    if (n > 2) {
        const lv v1 = simde_mm512_shuffle_i64x2(a, b, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
        const lv w1 = simde_mm512_shuffle_i64x2(c, d, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
        out[2] = simde_mm512_shuffle_i64x2(v1, w1, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
        out[3] = simde_mm512_shuffle_i64x2(v1, w1, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
    }
}

/* The mask of a key's bytes off .. off + 63 (bits below min(len - off,
 * 64)), made in a vector register: the length broadcast from the
 * caller's array (a load), limited, spread to every byte, compared with the
 * byte positions. A mask register written this way costs less than one
 * loaded from memory or moved from a general register (Zen 5: 1.5 against
 * 1.9 cycles a load). */
static inline __mmask64 lanes5_mask(const uint64_t *len, uint64_t off)
{
    lv rem = lv_set1(*len);
    if (off != 0) {
        const lv o = lv_set1(off);
        rem = lv_sub(simde_mm512_max_epu64(rem, o), o);
    }
    const lv lim = simde_mm512_shuffle_epi8(simde_mm512_min_epu64(rem, lv_set1(64)),
                                            simde_mm512_setzero_si512());
    const lv pos = simde_mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50,
                                        49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36,
                                        35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
                                        21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7,
                                        6, 5, 4, 3, 2, 1, 0);
    return _mm512_cmplt_epu8_mask(pos, lim);
}

/* The same for the first chunk of a key shorter than 256 bytes: its
 * length's low byte broadcast from the caller's array (one load) is the
 * limit itself. */
static inline __mmask64 lanes5_mask0(const uint64_t *len)
{
    const lv pos = simde_mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50,
                                        49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36,
                                        35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
                                        21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7,
                                        6, 5, 4, 3, 2, 1, 0);
    uint8_t b;
    memcpy(&b, len, 1); /* little-endian: the low byte */
    return _mm512_cmplt_epu8_mask(pos, simde_mm512_set1_epi8((char)b));
}

/* Where key i's chunk at off is read: the key itself for the first chunk
 * (an empty key, maybe NULL, has mask 0 and is not read: no byte of a
 * masked-off load is accessed), lanes_zero for a key with nothing left
 * at off (its address could lie past the end of its mapping; read nothing
 * anyway, it would be fault-suppressed, which may cost an assist). */
static inline const void *lanes5_at(const void *key, uint64_t len, uint64_t off)
{
    if (off == 0)
        return key;
    return len > off ? (const unsigned char *)key + off : lanes_zero;
}

/* Bytes off .. off + 63 of 8 keys as blocks: lo[j] / hi[j] lane i = the
 * low / high word of block j of that piece of key i, 0 past its end. When
 * every key has 64 bytes there: plain loads. Else one byte-masked load a
 * key (lanes5_mask). Addresses come from the caller's arrays: made in
 * lanes and read back from the stack they cost 10% (Zen 5 does not forward
 * a vector store to the scalar loads). */
static inline __attribute__((always_inline)) void
lanes5_chunk(const void *const *keys, const uint64_t *lens, uint64_t off, lv lo[4], lv hi[4],
             int n, int short0)
{
    lv r[8];
    if (lv_bits(lv_gt(lv_load(lens), lv_set1(off + 63))) == 0xff) {
        LANES5_UNROLL
        for (int i = 0; i < 8; i++)
            r[i] = simde_mm512_loadu_si512((const unsigned char *)keys[i] + off);
    } else if (short0) {
        LANES5_UNROLL
        for (int i = 0; i < 8; i++)
            r[i] = _mm512_maskz_loadu_epi8(lanes5_mask0(lens + i), keys[i]);
    } else {
        LANES5_UNROLL
        for (int i = 0; i < 8; i++)
            r[i] = _mm512_maskz_loadu_epi8(lanes5_mask(lens + i, off),
                                           lanes5_at(keys[i], lens[i], off));
    }
    lv t[8];
    LANES5_UNROLL
    for (int i = 0; i < 8; i += 2) {
        t[i] = simde_mm512_unpacklo_epi64(r[i], r[i + 1]);
        t[i + 1] = simde_mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    lanes5_t4(t[0], t[2], t[4], t[6], lo, n);
    lanes5_t4(t[1], t[3], t[5], t[7], hi, n);
}

/* Block b in every lane: the body round where body is set, else h ^= the
 * mixed words (the tail, or nothing: words past the end are 0). The
 * blend is folded into the round's last add. */
static inline void lanes5_step(lv *h1, lv *h2, lv lo, lv hi, simde__mmask8 body)
{
    const lv t1 = lv_xor(*h1, lanes_mm_k1(lo));
    const lv x = lv_add(LV_ROTL(t1, 27), *h2);
    *h1 = simde_mm512_mask_add_epi64(t1, body, lv_add(LV_SLL(x, 2), x), lv_set1(0x52dce729));
    const lv t2 = lv_xor(*h2, lanes_mm_k2(hi));
    const lv y = lv_add(LV_ROTL(t2, 31), *h1);
    *h2 = simde_mm512_mask_add_epi64(t2, body, lv_add(LV_SLL(y, 2), y), lv_set1(0x38495ab5));
}

/* ceil(len / 16): the steps a key needs (its blocks and tail). */
static inline uint64_t lanes5_need(uint64_t len)
{
    return (len + 15) >> 4;
}

/* One group's chunk as blocks, kept in memory between the two phases. */
typedef struct lanes5_blk {
    lv lo[4], hi[4];
} lanes5_blk;

/*
 * ng groups (a constant after inlining: 1 .. LANES5_GROUPS) of 8 keys,
 * `steps` steps each (a key needing more is finished by the caller), the
 * states left in h1[], h2[]. Each chunk in two phases: every group's rows
 * loaded and transposed into memory, then the steps, the groups
 * interleaved step by step.
 */
static inline __attribute__((always_inline)) void
lanes5_run(const void *const *keys, const uint64_t *lens, int ng, uint64_t steps,
           uint64_t max_len, uint32_t seed, lv h1[LANES5_GROUPS], lv h2[LANES5_GROUPS])
{
    lv nb[LANES5_GROUPS];
    lanes5_blk blk[LANES5_GROUPS];
    LANES5_UNROLL
    for (int g = 0; g < ng; g++) {
        nb[g] = LV_SRL(lv_load(lens + 8 * g), 4);
        h1[g] = h2[g] = lv_set1(seed);
    }
    for (uint64_t b = 0; b < steps; b += 4) {
        const uint64_t n = steps - b < 4 ? steps - b : 4;
        /* the first chunk of keys under 256 bytes: cheaper masks */
        const int short0 = b == 0 && max_len < 256;
        /* the blocks the chunk's steps read (short keys: fewer shuffles) */
        LANES5_UNROLL
        for (int g = 0; g < ng; g++) {
            if (n == 1)
                lanes5_chunk(keys + 8 * g, lens + 8 * g, 16 * b, blk[g].lo, blk[g].hi, 1, short0);
            else if (n == 2)
                lanes5_chunk(keys + 8 * g, lens + 8 * g, 16 * b, blk[g].lo, blk[g].hi, 2, short0);
            else
                lanes5_chunk(keys + 8 * g, lens + 8 * g, 16 * b, blk[g].lo, blk[g].hi, 4, short0);
        }
        /* the steps, unrolled (a whole chunk's four the common case) */
        lv at = lv_set1(b);
        const lv one = lv_set1(1);
        LANES5_UNROLL
        for (int s = 0; s < 4; s++) {
            if ((uint64_t)s == n)
                break;
            LANES5_UNROLL
            for (int g = 0; g < ng; g++)
                lanes5_step(&h1[g], &h2[g], blk[g].lo[s], blk[g].hi[s], lv_gt(nb[g], at));
            at = lv_add(at, one);
        }
    }
}

/* Lanes' steps for ng groups whose longest key needs more than
 * LANES_STEPS_ALL: lanes.h's policy per group, the largest of them. */
static inline __attribute__((always_inline)) uint64_t
lanes5_policy(const uint64_t *lens, int ng)
{
    uint64_t steps = 0;
    for (int g = 0; g < ng; g++) {
        uint64_t need[8];
        for (int i = 0; i < 8; i++)
            need[i] = lanes5_need(lens[8 * g + i]);
        const uint64_t s = lanes_steps(need, 0);
        steps = s > steps ? s : steps;
    }
    return steps;
}

/* ng groups of keys: 8 ng addresses and lengths, 8 ng results. */
static inline __attribute__((always_inline)) void
lanes5_block(const void *const *keys, const uint64_t *lens, int ng, uint32_t seed,
             uint64_t *h1o, uint64_t *h2o)
{
    lv m = lv_load(lens);
    LANES5_UNROLL
    for (int g = 1; g < ng; g++)
        m = simde_mm512_max_epu64(m, lv_load(lens + 8 * g));
    const uint64_t max_len = _mm512_reduce_max_epu64(m), max = lanes5_need(max_len);
    const uint64_t steps = max <= LANES_STEPS_ALL ? max : lanes5_policy(lens, ng);
    lv h1[LANES5_GROUPS], h2[LANES5_GROUPS];
    lanes5_run(keys, lens, ng, steps, max_len, seed, h1, h2);
    if (SBFI_LIKELY(steps == max)) {
        LANES5_UNROLL
        for (int g = 0; g < ng; g++)
            lanes_mm_final(h1[g], h2[g], lv_load(lens + 8 * g), h1o + 8 * g, h2o + 8 * g);
        return;
    }
    /* keys needing more than `steps`: their states after `steps` body
     * blocks, finished in scalar code */
    _Alignas(64) uint64_t a[8 * LANES5_GROUPS], c[8 * LANES5_GROUPS];
    for (int g = 0; g < ng; g++) {
        lv_store(a + 8 * g, h1[g]);
        lv_store(c + 8 * g, h2[g]);
        lanes_mm_final(h1[g], h2[g], lv_load(lens + 8 * g), h1o + 8 * g, h2o + 8 * g);
    }
    for (int i = 0; i < 8 * ng; i++)
        if (lanes5_need(lens[i]) > steps)
            lanes_mm_rest(a[i], c[i], keys[i], lens[i], steps, &h1o[i], &h2o[i]);
}

LANES_ENTRY void lanes_hash_bytes(const void *const *keys, const size_t *lens, size_t n,
                                  uint32_t seed, uint64_t *h1, uint64_t *h2)
{
    const uint64_t *len = (const uint64_t *)(const void *)lens;
    size_t i = 0;
    for (; i + 8 * LANES5_GROUPS <= n; i += 8 * LANES5_GROUPS)
        lanes5_block(keys + i, len + i, LANES5_GROUPS, seed, h1 + i, h2 + i);
    switch ((n - i) / 8) { /* whole groups left */
    case 3: lanes5_block(keys + i, len + i, 3, seed, h1 + i, h2 + i); i += 24; break;
    case 2: lanes5_block(keys + i, len + i, 2, seed, h1 + i, h2 + i); i += 16; break;
    case 1: lanes5_block(keys + i, len + i, 1, seed, h1 + i, h2 + i); i += 8; break;
    default: break;
    }
    const size_t m = n - i;
    if (m == 0)
        return;
    if (m < LANES_MIN_GROUP) {
        sbfi_hash_bytes_scalar(keys + i, lens + i, m, seed, h1 + i, h2 + i);
        return;
    }
    /* the last m < 8 keys, padded with empty ones (read nothing) */
    const void *k[8] = { lanes_zero, lanes_zero, lanes_zero, lanes_zero,
                         lanes_zero, lanes_zero, lanes_zero, lanes_zero };
    _Alignas(64) uint64_t l[8] = { 0 }, a[8], b[8];
    memcpy(k, keys + i, m * sizeof k[0]);
    memcpy(l, lens + i, m * sizeof l[0]);
    lanes5_block(k, l, 1, seed, a, b);
    memcpy(h1 + i, a, m * 8);
    memcpy(h2 + i, b, m * 8);
}

#endif /* SBFI_LANES_MM512_H_91C4E2B7 */
