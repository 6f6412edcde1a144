/*
 * simdbloom_inline_x86.h: the AVX2 and AVX-512 probes of simdbloom_inline.h,
 * which includes this file when the compiler's flags enable them (include
 * that one, not this). Internal names only (sbf_inl_*); the layouts' facts
 * come from simdbloom_inline.h.
 */
#ifndef SIMDBLOOM_INLINE_X86_H_2F61A9C3
#define SIMDBLOOM_INLINE_X86_H_2F61A9C3

#if !defined(SIMDBLOOM_INLINE_H_5B0E77D1)
#  error "simdbloom_inline_x86.h is part of simdbloom_inline.h: #include <simdbloom_inline.h> instead"
#endif

/* GCC 12 (before 12.3), C++: its AVX-512 intrinsics start from
 * _mm512_undefined_epi32 and warn -Wmaybe-uninitialized where they are
 * inlined (GCC bug 105593); quiet for the code defined here, whoever
 * included <immintrin.h> first. */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#  define SBF_INL_X86_QUIET 1
#endif

/* A block's words written as what they are, uint64_t (a vector of them
 * without may_alias, unlike __m256i): the compiler then knows that an add
 * writes none of the view's pointers and 32-bit fields, and keeps them in
 * registers across the caller's loop (keys_added's address among them, so
 * that each add's count is not a load, an add and a store waiting on the
 * one before). The words are uint64_t, so this is their own type. */
#if defined(__GNUC__)
typedef uint64_t sbf_inl_w256 __attribute__((vector_size(32), aligned(32)));
SBF_INL void sbf_inl_store256(uint64_t *blk, __m256i x)
{
    *(sbf_inl_w256 *)(void *)blk = (sbf_inl_w256)x;
}
#else
SBF_INL void sbf_inl_store256(uint64_t *blk, __m256i x)
{
    _mm256_store_si256((__m256i *)(void *)blk, x);
}
#endif

/* Split-block: the bit of each 32-bit word, 1 << (prod >> 27), from the
 * salt products; a 256-bit block's query (1: every bit of mask m set) and
 * add (m OR-ed in with one store; 1 if a bit was clear). The library's
 * AVX-512 split-block probes are these too (simd/avx512.c). */
SBF_INL __m256i sbf_inl_split_bits8(__m256i prod)
{
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(prod, SBF_SHIFT_SPLIT));
}

SBF_INL int sbf_inl_split8_test(const uint64_t *blk, __m256i m)
{
    return _mm256_testc_si256(_mm256_load_si256((const __m256i *)(const void *)blk), m);
}

SBF_INL int sbf_inl_split8_put(uint64_t *blk, __m256i m)
{
    const __m256i b = _mm256_load_si256((const __m256i *)(void *)blk);
    sbf_inl_store256(blk, _mm256_or_si256(b, m));
    return !_mm256_testc_si256(b, m);
}

#if SBF_INL_AVX512
SBF_INL __m512i sbf_inl_split_bits16(__m512i prod)
{
    return _mm512_sllv_epi32(_mm512_set1_epi32(1), _mm512_srli_epi32(prod, SBF_SHIFT_SPLIT));
}

#  if defined(__GNUC__)
typedef uint64_t sbf_inl_w512 __attribute__((vector_size(64), aligned(64)));
SBF_INL void sbf_inl_store512(uint64_t *blk, __m512i x)
{
    *(sbf_inl_w512 *)(void *)blk = (sbf_inl_w512)x;
}
#  else
SBF_INL void sbf_inl_store512(uint64_t *blk, __m512i x)
{
    _mm512_store_si512(blk, x);
}
#  endif

/* h2 broadcast to every 64-bit lane, the form the probes multiply with the
 * salts: made where h2 is made, one broadcast. A 64-bit stage's h2 (both
 * 32-bit lanes x) is one vpbroadcastd from its register; as an xmm
 * (vpbroadcastd) later broadcast again by the probe (vpbroadcastq) it cost
 * one instruction a key more. */
typedef __m512i sbf_inl_h2;

SBF_INL sbf_inl_h2 sbf_inl_h2_of(uint64_t h2)
{
    return _mm512_set1_epi64((long long)h2);
}

/* h2 with both 32-bit lanes x (sbf_parquet_pair's): one broadcast */
SBF_INL sbf_inl_h2 sbf_inl_h2_of32(uint32_t x)
{
    return _mm512_set1_epi32((int)x);
}

SBF_INL uint64_t sbf_inl_h2_u64(sbf_inl_h2 x)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x));
}

/* sbf_murmur3_u64 with the two fmix64 in the lanes of one vector (vpmullq):
 * bit-exact, and fewer instructions than two scalar fmix64 chains. The
 * fmix64 constants are memory operands (a 64-bit immediate costs a movabs
 * and a broadcast each); the end, h1 = F1 + F2 and h2 = h1 + F2, is two adds
 * with [F2, F1]. Lane 0 of the result is h2 (what the probes broadcast).
 * x: [h1, h2] before the fmix64s. */
SBF_INL sbf_inl_h2 sbf_inl_murmur3_end(__m128i x, uint64_t *h1)
{
    static const uint64_t fmix_c[4] = {SBF_MURMUR3_F1, SBF_MURMUR3_F1, SBF_MURMUR3_F2,
                                       SBF_MURMUR3_F2};
    const uint64_t *c = fmix_c;
    SBF_INL_OPAQUE(c); /* else the compiler makes the constants again */
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));
    x = _mm_mullo_epi64(x, _mm_loadu_si128((const __m128i *)(const void *)c));
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));
    x = _mm_mullo_epi64(x, _mm_loadu_si128((const __m128i *)(const void *)(c + 2)));
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));                   /* [F1, F2] */
    const __m128i t = _mm_shuffle_epi32(x, 0x4e);                  /* [F2, F1] */
    const __m128i s = _mm_add_epi64(x, t);                         /* h1, h1 */
    *h1 = (uint64_t)_mm_cvtsi128_si64(s);
    return sbf_inl_h2_of((uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(s, t))); /* lane 0: h2 */
}

SBF_INL sbf_inl_h2 sbf_inl_hash8_vec(uint64_t key, uint64_t s8, uint64_t *h1)
{
    const uint64_t k1 = sbf__rotl64(key * SBF_MURMUR3_C1, 31) * SBF_MURMUR3_C2;
    const uint64_t a = (k1 ^ s8) + s8;
    return sbf_inl_murmur3_end(_mm_set_epi64x((long long)(a + s8), (long long)a), h1);
}

/* The same with the seed's part in memory, s8add = [s8, 2 s8] (the
 * library's filters keep it): [h1, h2] = ([k1, k1] ^ s8) + s8add in the
 * vector, for a scalar add, a vmovq and a vpinsrq. */
SBF_INL sbf_inl_h2 sbf_inl_hash8s_vec(uint64_t key, const uint64_t *s8add, uint64_t *h1)
{
    const uint64_t k1 = sbf__rotl64(key * SBF_MURMUR3_C1, 31) * SBF_MURMUR3_C2;
    const __m128i x = _mm_xor_si128(_mm_set1_epi64x((long long)k1),
                                    _mm_set1_epi64x((long long)s8add[0]));
    return sbf_inl_murmur3_end(
        _mm_add_epi64(x, _mm_loadu_si128((const __m128i *)(const void *)s8add)), h1);
}

/* The 8-byte hash in the form SBF_INLINE_HASH8_VEC names. */
SBF_INL sbf_inl_h2 sbf_inl_hash8(uint64_t key, uint64_t s8, uint64_t *h1)
{
#if SBF_INLINE_HASH8_VEC
    return sbf_inl_hash8_vec(key, s8, h1);
#else
    return sbf_inl_h2_of(sbf_inl_hash8_u64(key, s8, h1));
#endif
}

/* Lane i: x_i * salt[i], 16 lanes (8: the low half). */
SBF_INL __m512i sbf_inl_prod16(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm512_mullo_epi32(h2, _mm512_loadu_si512(salt));
}

SBF_INL __m256i sbf_inl_prod8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_mullo_epi32(_mm512_castsi512_si256(h2),
                              _mm256_loadu_si256((const __m256i *)salt));
}

/* The blocked probe, the library's too (simd/avx512.c: its batch and
 * one-key queries): the lanes i < k (`lanes`) of a key with these salt
 * products whose bit is clear, as a mask, 0 when the key may be present.
 * vpermd fetches for each lane the block word holding its position (the
 * product's top 4 bits); a rotate brings the bit to bit 0 (count mod 32);
 * vptestnmd against `one` (1 in every lane: made by the caller where it
 * costs least, a register in the batch's loop, a broadcast from memory in
 * one key's probe). The forms tried and not kept are in results/. */
SBF_INL __mmask16 sbf_inl_blocked_miss(const uint64_t *blk, __m512i prod, uint32_t lanes,
                                       __m512i one)
{
    const __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(prod, SBF__SHIFT_WORD32),
                                                  _mm512_load_si512(blk));
    const __m512i rot = _mm512_rorv_epi32(word, _mm512_srli_epi32(prod, SBF_SHIFT_BLOCKED));
    return _mm512_mask_testn_epi32_mask((__mmask16)lanes, rot, one);
}

SBF_INL int sbf_inl_blocked_has(const uint64_t *blk, const uint32_t *salt,
                                uint32_t k, uint32_t lanes, sbf_inl_h2 h2)
{
    static const uint32_t one = 1;
    const uint32_t *o = &one;
    SBF_INL_OPAQUE(o);
    (void)k;
    return sbf_inl_blocked_miss(blk, sbf_inl_prod16(salt, h2), lanes,
                                _mm512_set1_epi32((int)*o)) == 0;
}

/* The 512-bit mask of k bit positions (lane i of pos: p_i < 512, i < k):
 * p sets, in 32-bit word j, 1 << (p - 32 j), which vpsllvd makes 0 unless
 * 0 <= p - 32 j < 32. Each p_i is broadcast from memory, a load, where a
 * vpermd per position queues on the shuffle unit; positions are OR-ed in
 * pairs, one vpternlogd for two. The mask is about half of a fresh add's
 * time, and every other form tried (one-hot rows from a table, lane
 * compares, vpermd broadcasts, scalar read-modify-writes; on AMD and on
 * Intel) was slower: results/ keeps them. Blocked adds and the library's
 * counting masks (simd/avx512.c) use it.
 * The last position (k >= 1) is taken first with no test on k's parity:
 * for an even k the last pair ORs it in again (the same bits), which cost
 * less than the test and its branch did (peer driver, blocked-xxh3 fresh
 * add, Zen 5, 256 KiB: 3.41 -> 3.20 ns). Tried to bind k once instead
 * (same run, k = 7): a jump on k to a copy unrolled for it (gcc then left
 * the add out of line: 3.80 ns), a per-k function from a table (an
 * indirect call per key: 3.63), a test for one k ahead of the jump
 * (3.21 for that k); the add with k a constant ran 2.92. What is left of
 * the jump is about 9 instructions a key: gcc keeps the bound test of the
 * table even when told k <= 16. */
#define SBF_INL_BIT(i)                                                          \
    _mm512_sllv_epi32(one, _mm512_sub_epi32(_mm512_set1_epi32((int)u.p[i]), base))
#define SBF_INL_PAIR(i) m = _mm512_ternarylogic_epi32(m, SBF_INL_BIT(2 * (i) + 1), \
                                                      SBF_INL_BIT(2 * (i)), 0xFE)
SBF_INL __m512i sbf_inl_mask512(__m512i pos, uint32_t k)
{
    union { __m512i v; uint32_t p[16]; } u; /* the positions, 64-byte aligned */
    _mm512_store_si512((void *)u.p, pos);
    SBF_INL_IN_MEMORY(u);
    __m512i one = _mm512_set1_epi32(1);
    const __m512i base = _mm512_set_epi32(480, 448, 416, 384, 352, 320, 288, 256,
                                          224, 192, 160, 128, 96, 64, 32, 0);
    SBF_INL_IN_REGISTER(one); /* made once, not again per position */
    __m512i m = SBF_INL_BIT(k - 1); /* k >= 1 (the layouts' least) */
    switch (k >> 1) { /* k <= 16: eight pairs at most */
    case 8: SBF_INL_PAIR(7); SBF__FALLTHROUGH;
    case 7: SBF_INL_PAIR(6); SBF__FALLTHROUGH;
    case 6: SBF_INL_PAIR(5); SBF__FALLTHROUGH;
    case 5: SBF_INL_PAIR(4); SBF__FALLTHROUGH;
    case 4: SBF_INL_PAIR(3); SBF__FALLTHROUGH;
    case 3: SBF_INL_PAIR(2); SBF__FALLTHROUGH;
    case 2: SBF_INL_PAIR(1); SBF__FALLTHROUGH;
    case 1: SBF_INL_PAIR(0); SBF__FALLTHROUGH;
    default: break;
    }
    return m;
}
#undef SBF_INL_PAIR
#undef SBF_INL_BIT

/* A blocked add of the key with these salt products, one key at a time
 * (the views, the library's one-key adds): the block OR the mask, stored
 * by one masked store into the words it changed (none when every bit was
 * set: nothing is written); 1 if a word changed. No branch: the count is
 * the compare's mask (peer driver, blocked-xxh3 fresh add, Zen 5, 256 KiB:
 * 3.20 -> 3.11 ns against a test, a branch and a whole store). */
SBF_INL int sbf_inl_blocked_put(uint64_t *blk, __m512i prod, uint32_t k)
{
    const __m512i m = sbf_inl_mask512(_mm512_srli_epi32(prod, SBF_SHIFT_BLOCKED), k);
    const __m512i b = _mm512_load_si512(blk);
    const __m512i n = _mm512_or_si512(b, m);
    const __mmask16 changed = _mm512_cmpneq_epi32_mask(n, b);
    _mm512_mask_store_epi32(blk, changed, n);
    return changed != 0;
}

/* The same for the library's adds (simd/avx512.c's batches, simd/pipe_key.h's
 * one-key adds): the mask OR-ed in with one whole store, only when a bit
 * was clear. The masked store made the library's rows slower (peer driver,
 * 256 KiB, batched fresh adds 2.98-2.99 -> 3.06 ns; sbf-bench tput, 256 KiB,
 * sbf_add of present keys blocked-xxh3 4.07 -> 4.47, blocked 4.91 -> 5.20:
 * a masked store with no lane set still costs there; fresh sbf_add rows no
 * change), where the views' own loop gained (re-adds 3.21 -> 3.12 ns). */
SBF_INL int sbf_inl_blocked_put_test(uint64_t *blk, __m512i prod, uint32_t k)
{
    const __m512i m = sbf_inl_mask512(_mm512_srli_epi32(prod, SBF_SHIFT_BLOCKED), k);
    const __m512i b = _mm512_load_si512(blk);
    const __m512i fresh = _mm512_andnot_si512(b, m);
    if (_mm512_test_epi32_mask(fresh, fresh) == 0)
        return 0; /* every bit was set: no store */
    sbf_inl_store512(blk, _mm512_or_si512(b, m));
    return 1;
}

SBF_INL int sbf_inl_blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    (void)lanes;
    return sbf_inl_blocked_put(blk, sbf_inl_prod16(salt, h2), k);
}

/* The library's one-key add (sbf_inl_blocked_put_test's form) */
SBF_INL int sbf_inl_blocked_add_test(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                     uint32_t lanes, sbf_inl_h2 h2)
{
    (void)lanes;
    return sbf_inl_blocked_put_test(blk, sbf_inl_prod16(salt, h2), k);
}

/* Counting: for each lane the 32-bit word holding its counter (vpermd by
 * the product's top 4 bits, as the blocked probe), tested under 15 shifted
 * to the counter's nibble ((p & 7) * 4 = (prod >> 23) & 28): the lanes
 * i < k whose counter is 0, as a 16-bit mask. The library's counting
 * queries (simd/avx512.c) use it. */
SBF_INL __mmask16 sbf_inl_counting_miss(const uint64_t *blk, __m512i prod, uint32_t lanes)
{
    const __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(prod, 28),
                                                  _mm512_load_si512(blk));
    const __m512i sh = _mm512_and_si512(_mm512_srli_epi32(prod, SBF_SHIFT_COUNTING - 2),
                                        _mm512_set1_epi32(28));
    const __m512i nib = _mm512_sllv_epi32(_mm512_set1_epi32(15), sh);
    return _mm512_mask_testn_epi32_mask((__mmask16)lanes, word, nib);
}

SBF_INL int sbf_inl_counting_has(const uint64_t *blk, const uint32_t *salt,
                                 uint32_t k, uint32_t lanes, sbf_inl_h2 h2)
{
    (void)k;
    return sbf_inl_counting_miss(blk, sbf_inl_prod16(salt, h2), lanes) == 0;
}

/* SWAR on the whole block: +1 where inc has a nibble's low bit, unless the
 * counter is 15. Returns whether one of those counters was 0 (the
 * saturation test's shifts, OR-ed). Written as plain ANDs and ORs: explicit
 * vpternlogq forms, fewer instructions, measured slower. The library's
 * counting adds (simd/avx512.c) use it. */
SBF_INL int sbf_inl_counting_put(uint64_t *blk, __m512i inc)
{
    const __m512i v = _mm512_load_si512(blk);
    const __m512i s1 = _mm512_srli_epi64(v, 1), s2 = _mm512_srli_epi64(v, 2),
                  s3 = _mm512_srli_epi64(v, 3);
    const __m512i sat = _mm512_and_si512(_mm512_and_si512(v, s1), _mm512_and_si512(s2, s3));
    const __m512i nz = _mm512_or_si512(_mm512_or_si512(v, s1), _mm512_or_si512(s2, s3));
    /* inc & ~sat (inc has only nibble low bits, so no mask constant) */
    sbf_inl_store512(blk, _mm512_add_epi64(v, _mm512_andnot_si512(sat, inc)));
    return _mm512_test_epi64_mask(_mm512_andnot_si512(nz, inc), inc) != 0;
}

/* A counting add: the low bit of each counter's nibble (bit 4 p_i of the
 * block) by sbf_inl_mask512, then sbf_inl_counting_put. */
SBF_INL int sbf_inl_counting_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                 sbf_inl_h2 h2)
{
    const __m512i prod = sbf_inl_prod16(salt, h2);
    return sbf_inl_counting_put(
        blk, sbf_inl_mask512(_mm512_slli_epi32(_mm512_srli_epi32(prod, SBF_SHIFT_COUNTING), 2), k));
}

SBF_INL __m256i sbf_inl_split_mask8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split_bits8(sbf_inl_prod8(salt, h2));
}

SBF_INL __m512i sbf_inl_split_mask16(const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split_bits16(sbf_inl_prod16(salt, h2));
}

SBF_INL int sbf_inl_split8_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_test(blk, sbf_inl_split_mask8(salt, h2));
}

SBF_INL int sbf_inl_split8_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_put(blk, sbf_inl_split_mask8(salt, h2));
}

/* A 512-bit block's split-block query as the words that miss their bit
 * (0: the key may be present), and its add (1 if a bit was clear); the
 * library's too (simd/avx512.c). */
SBF_INL __mmask16 sbf_inl_split16_miss(const uint64_t *blk, __m512i m)
{
    return _mm512_testn_epi32_mask(_mm512_load_si512(blk), m);
}

SBF_INL int sbf_inl_split16_put(uint64_t *blk, __m512i m)
{
    const __m512i b = _mm512_load_si512(blk);
    sbf_inl_store512(blk, _mm512_or_si512(b, m));
    return _mm512_test_epi32_mask(_mm512_andnot_si512(b, m), m) != 0;
}

SBF_INL int sbf_inl_split16_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split16_miss(blk, sbf_inl_split_mask16(salt, h2)) == 0;
}

SBF_INL int sbf_inl_split16_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split16_put(blk, sbf_inl_split_mask16(salt, h2));
}

#endif /* SBF_INL_AVX512 */

#if SBF_INL_AVX2
/* h2 broadcast to every 64-bit lane, as on AVX-512 (above) in 256 bits: a
 * 64-bit stage's h2 is one vpbroadcastd, and a probe of two halves (k > 8)
 * multiplies the same register twice. */
typedef __m256i sbf_inl_h2;

SBF_INL sbf_inl_h2 sbf_inl_h2_of(uint64_t h2)
{
    return _mm256_set1_epi64x((long long)h2);
}

/* h2 with both 32-bit lanes x (sbf_parquet_pair's): one broadcast */
SBF_INL sbf_inl_h2 sbf_inl_h2_of32(uint32_t x)
{
    return _mm256_set1_epi32((int)x);
}

SBF_INL uint64_t sbf_inl_h2_u64(sbf_inl_h2 x)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(x));
}

SBF_INL sbf_inl_h2 sbf_inl_hash8(uint64_t key, uint64_t s8, uint64_t *h1)
{
    return sbf_inl_h2_of(sbf_inl_hash8_u64(key, s8, h1));
}

SBF_INL __m256i sbf_inl_prod8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_mullo_epi32(h2, _mm256_loadu_si256((const __m256i *)salt));
}

/* For each lane the 32-bit word of the block (halves lo, hi) holding its
 * position: word index = prod >> 28, whose bit 3 (the sign of prod) picks
 * the half. */
SBF_INL __m256i sbf_inl_word8(__m256i lo, __m256i hi, __m256i prod)
{
    const __m256i w = _mm256_srli_epi32(prod, 28);
    const __m256 a = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, w));
    const __m256 b = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, w));
    return _mm256_castps_si256(_mm256_blendv_ps(a, b, _mm256_castsi256_ps(prod)));
}

/* All ones in lane i of the eight from `first` whose bit is set in lanes
 * (the lanes i < k). */
SBF_INL __m256i sbf_inl_enable8(uint32_t lanes, int first)
{
    const __m256i one = _mm256_slli_epi32(_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128), first);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)lanes), one), one);
}

/* The blocked position's bit (prod >> 23) & 31 of its word. */
SBF_INL int sbf_inl_blocked_has8(__m256i lo, __m256i hi, __m256i prod, __m256i en)
{
    const __m256i word = sbf_inl_word8(lo, hi, prod);
    const __m256i sh = _mm256_srli_epi32(_mm256_slli_epi32(prod, 4), 27);
    const __m256i bit = _mm256_sllv_epi32(_mm256_set1_epi32(1), sh);
    return _mm256_testc_si256(word, _mm256_and_si256(bit, en));
}

SBF_INL int sbf_inl_blocked_has(const uint64_t *blk, const uint32_t *salt,
                                uint32_t k, uint32_t lanes, sbf_inl_h2 h2)
{
    const __m256i lo = _mm256_load_si256((const __m256i *)blk);
    (void)k;
    const __m256i hi = _mm256_load_si256((const __m256i *)(blk + 4));
    int r = sbf_inl_blocked_has8(lo, hi, sbf_inl_prod8(salt, h2), sbf_inl_enable8(lanes, 0));
    if (lanes > 0xffu)
        r &= sbf_inl_blocked_has8(lo, hi, sbf_inl_prod8(salt + 8, h2), sbf_inl_enable8(lanes, 8));
    return r;
}

/* Counting: all ones in the lanes whose counter (nibble (prod >> 23) & 28
 * of its word) is 0. */
SBF_INL __m256i sbf_inl_counting_zero8(__m256i lo, __m256i hi, __m256i prod)
{
    const __m256i sh = _mm256_and_si256(_mm256_srli_epi32(prod, SBF_SHIFT_COUNTING - 2),
                                        _mm256_set1_epi32(28));
    const __m256i nib = _mm256_sllv_epi32(_mm256_set1_epi32(15), sh);
    return _mm256_cmpeq_epi32(_mm256_and_si256(sbf_inl_word8(lo, hi, prod), nib),
                              _mm256_setzero_si256());
}

SBF_INL int sbf_inl_counting_has(const uint64_t *blk, const uint32_t *salt,
                                 uint32_t k, uint32_t lanes, sbf_inl_h2 h2)
{
    const __m256i lo = _mm256_load_si256((const __m256i *)blk);
    const __m256i hi = _mm256_load_si256((const __m256i *)(blk + 4));
    (void)k;
    __m256i zero = _mm256_and_si256(sbf_inl_counting_zero8(lo, hi, sbf_inl_prod8(salt, h2)),
                                    sbf_inl_enable8(lanes, 0));
    if (lanes > 0xffu)
        zero = _mm256_or_si256(zero, _mm256_and_si256(sbf_inl_counting_zero8(
                                                          lo, hi, sbf_inl_prod8(salt + 8, h2)),
                                                      sbf_inl_enable8(lanes, 8)));
    return _mm256_testz_si256(zero, zero);
}

/* The AVX-512 add's mask (sbf_inl_mask512) in two 256-bit halves m[0],
 * m[1]: bit (prod_i >> shift) << scale for i < k. */
#define SBF_INL_MASK2(i)                                                        \
    do {                                                                        \
        const __m256i t_ = _mm256_set1_epi32((int)u.p[i]);                      \
        m0 = _mm256_or_si256(m0, _mm256_sllv_epi32(one, _mm256_sub_epi32(t_, base0))); \
        m1 = _mm256_or_si256(m1, _mm256_sllv_epi32(one, _mm256_sub_epi32(t_, base1))); \
    } while (0)
SBF_INL void sbf_inl_mask2x256(const uint32_t *salt, uint32_t k, sbf_inl_h2 h2, int shift,
                               int scale, __m256i m[2])
{
    union { __m256i v[2]; uint32_t p[16]; } u; /* the positions, aligned */
    _mm256_store_si256((__m256i *)(void *)u.p, _mm256_slli_epi32(
        _mm256_srli_epi32(sbf_inl_prod8(salt, h2), shift), scale));
    if (k > 8)
        _mm256_store_si256((__m256i *)(void *)(u.p + 8), _mm256_slli_epi32(
            _mm256_srli_epi32(sbf_inl_prod8(salt + 8, h2), shift), scale));
    SBF_INL_IN_MEMORY(u);
    __m256i one = _mm256_set1_epi32(1);
    const __m256i base0 = _mm256_setr_epi32(0, 32, 64, 96, 128, 160, 192, 224);
    const __m256i base1 = _mm256_setr_epi32(256, 288, 320, 352, 384, 416, 448, 480);
    SBF_INL_IN_REGISTER(one);
    __m256i m0 = _mm256_setzero_si256(), m1 = _mm256_setzero_si256();
    SBF_INL_FOR_K(k, SBF_INL_MASK2)
    m[0] = m0;
    m[1] = m1;
}

SBF_INL int sbf_inl_blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    __m256i m[2];
    (void)lanes;
    sbf_inl_mask2x256(salt, k, h2, SBF_SHIFT_BLOCKED, 0, m);
    const __m256i b0 = _mm256_load_si256((const __m256i *)blk);
    const __m256i b1 = _mm256_load_si256((const __m256i *)(blk + 4));
    const __m256i fresh = _mm256_or_si256(_mm256_andnot_si256(b0, m[0]),
                                          _mm256_andnot_si256(b1, m[1]));
    if (_mm256_testz_si256(fresh, fresh))
        return 0; /* every bit was set: no store */
    sbf_inl_store256(blk, _mm256_or_si256(b0, m[0]));
    sbf_inl_store256(blk + 4, _mm256_or_si256(b1, m[1]));
    return 1;
}

SBF_INL int sbf_inl_blocked_add_test(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                     uint32_t lanes, sbf_inl_h2 h2)
{
    return sbf_inl_blocked_add(blk, salt, k, lanes, h2); /* one form on AVX2 */
}

/* Half of sbf_inl_counting_put (the AVX-512 form): v + (inc & ~saturated);
 * *zero gets inc's bits of counters that were 0. */
SBF_INL __m256i sbf_inl_nib_inc8(__m256i v, __m256i inc, __m256i *zero)
{
    const __m256i s1 = _mm256_srli_epi64(v, 1), s2 = _mm256_srli_epi64(v, 2),
                  s3 = _mm256_srli_epi64(v, 3);
    const __m256i sat = _mm256_and_si256(_mm256_and_si256(v, s1), _mm256_and_si256(s2, s3));
    const __m256i nz = _mm256_or_si256(_mm256_or_si256(v, s1), _mm256_or_si256(s2, s3));
    *zero = _mm256_or_si256(*zero, _mm256_andnot_si256(nz, inc));
    return _mm256_add_epi64(v, _mm256_andnot_si256(sat, inc));
}

SBF_INL int sbf_inl_counting_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                 sbf_inl_h2 h2)
{
    __m256i m[2], zero = _mm256_setzero_si256();
    sbf_inl_mask2x256(salt, k, h2, SBF_SHIFT_COUNTING, 2, m);
    __m256i *b = (__m256i *)blk;
    sbf_inl_store256(blk, sbf_inl_nib_inc8(_mm256_load_si256(b), m[0], &zero));
    sbf_inl_store256(blk + 4, sbf_inl_nib_inc8(_mm256_load_si256(b + 1), m[1], &zero));
    return !_mm256_testz_si256(zero, zero);
}
#undef SBF_INL_MASK2

SBF_INL __m256i sbf_inl_split_mask8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split_bits8(sbf_inl_prod8(salt, h2));
}

SBF_INL int sbf_inl_split8_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_test(blk, sbf_inl_split_mask8(salt, h2));
}

SBF_INL int sbf_inl_split8_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_put(blk, sbf_inl_split_mask8(salt, h2));
}

SBF_INL int sbf_inl_split16_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_has(blk, salt, h2) & sbf_inl_split8_has(blk + 4, salt + 8, h2);
}

SBF_INL int sbf_inl_split16_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return sbf_inl_split8_add(blk, salt, h2) | sbf_inl_split8_add(blk + 4, salt + 8, h2);
}

#endif /* SBF_INL_AVX2 */

#if defined(SBF_INL_X86_QUIET)
#  pragma GCC diagnostic pop
#  undef SBF_INL_X86_QUIET
#endif

#endif /* SIMDBLOOM_INLINE_X86_H_2F61A9C3 */
