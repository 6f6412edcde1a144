/*
 * simdbloom_inline_x86.h: the AVX2 and AVX-512 probes of simdbloom_inline.h,
 * which includes this file (include that one, not this). Internal names
 * only (sbf_inl_*); the layouts' facts come from simdbloom_inline.h.
 */
#ifndef SIMDBLOOM_INLINE_X86_H_2F61A9C3
#define SIMDBLOOM_INLINE_X86_H_2F61A9C3

#if !defined(SIMDBLOOM_INLINE_H_5B0E77D1)
#  error "include simdbloom_inline.h, not simdbloom_inline_x86.h"
#endif

#if SBF_INL_AVX512
typedef __m128i sbf_inl_h2;

SBF_INL sbf_inl_h2 sbf_inl_h2_of(uint64_t h2)
{
    return _mm_set1_epi64x((long long)h2);
}

SBF_INL uint64_t sbf_inl_h2_u64(sbf_inl_h2 x)
{
    return (uint64_t)_mm_cvtsi128_si64(x);
}

/* sbf_murmur3_u64 with the two fmix64 in the lanes of one vector (vpmullq):
 * bit-exact, and fewer instructions than two scalar fmix64 chains. */
SBF_INL sbf_inl_h2 sbf_inl_hash8(uint64_t key, uint64_t s8, uint64_t *h1)
{
    const uint64_t k1 = sbf_inl_rotl64(key * SBF_MURMUR3_C1, 31) * SBF_MURMUR3_C2;
    const uint64_t a = (k1 ^ s8) + s8;
    __m128i x = _mm_add_epi64(_mm_set1_epi64x((long long)a),
                              _mm_set_epi64x((long long)s8, 0)); /* [h1, h2] */
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));
    x = _mm_mullo_epi64(x, _mm_set1_epi64x((long long)UINT64_C(0xff51afd7ed558ccd)));
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));
    x = _mm_mullo_epi64(x, _mm_set1_epi64x((long long)UINT64_C(0xc4ceb9fe1a85ec53)));
    x = _mm_xor_si128(x, _mm_srli_epi64(x, 33));                  /* [F1, F2] */
    const __m128i s = _mm_add_epi64(x, _mm_shuffle_epi32(x, 0x4e)); /* F1 + F2 */
    const __m128i h = _mm_add_epi64(s, _mm_unpackhi_epi64(_mm_setzero_si128(), x));
    *h1 = (uint64_t)_mm_cvtsi128_si64(h);
    return _mm_unpackhi_epi64(h, h);
}

/* Lane i: x_i * salt[i], 16 lanes. */
SBF_INL __m512i sbf_inl_prod16(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm512_mullo_epi32(_mm512_broadcastq_epi64(h2), _mm512_loadu_si512(salt));
}

SBF_INL __m256i sbf_inl_prod8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_mullo_epi32(_mm256_broadcastq_epi64(h2),
                              _mm256_loadu_si256((const __m256i *)salt));
}

/* vpermd fetches for each lane the block word holding its position (the
 * product's top 4 bits); a rotate brings the bit to bit 0 (count mod 32);
 * only lanes i < k count. */
SBF_INL int sbf_inl_blocked_has(const uint64_t *blk, const uint32_t *salt,
                                uint32_t k, uint32_t lanes, sbf_inl_h2 h2)
{
    const __m512i prod = sbf_inl_prod16(salt, h2);
    const __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(prod, 28),
                                                  _mm512_load_si512(blk));
    const __m512i rot = _mm512_rorv_epi32(word, _mm512_srli_epi32(prod, SBF_SHIFT_BLOCKED));
    const __mmask16 km = (__mmask16)lanes;
    (void)k;
    return _mm512_mask_test_epi32_mask(km, rot, _mm512_set1_epi32(1)) == km;
}

SBF_INL int sbf_inl_blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    const __m512i prod = sbf_inl_prod16(salt, h2);
    const __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(prod, 28),
                                                  _mm512_load_si512(blk));
    const __m512i pos = _mm512_srli_epi32(prod, SBF_SHIFT_BLOCKED);
    const __mmask16 km = (__mmask16)lanes;
    if (_mm512_mask_test_epi32_mask(km, _mm512_rorv_epi32(word, pos),
                                    _mm512_set1_epi32(1)) == km)
        return 0;
    /* per position: its 32-bit word's byte offset (p >> 5) * 4, and its
     * bit, 1 rotated by p (the count is taken mod 32) */
    uint32_t off[16], bits[16];
    _mm512_storeu_si512(off, _mm512_slli_epi32(_mm512_srli_epi32(pos, 5), 2));
    _mm512_storeu_si512(bits, _mm512_rolv_epi32(_mm512_set1_epi32(1), pos));
    SBF_INL_IN_MEMORY(off);
    SBF_INL_IN_MEMORY(bits);
    sbf_inl_blocked_or(blk, off, bits, k);
    return 1;
}

SBF_INL __m256i sbf_inl_split_mask8(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_sllv_epi32(_mm256_set1_epi32(1),
                             _mm256_srli_epi32(sbf_inl_prod8(salt, h2), SBF_SHIFT_SPLIT));
}

SBF_INL __m512i sbf_inl_split_mask16(const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm512_sllv_epi32(_mm512_set1_epi32(1),
                             _mm512_srli_epi32(sbf_inl_prod16(salt, h2), SBF_SHIFT_SPLIT));
}

SBF_INL int sbf_inl_split8_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_testc_si256(_mm256_load_si256((const __m256i *)blk),
                              sbf_inl_split_mask8(salt, h2));
}

SBF_INL int sbf_inl_split8_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    const __m256i m = sbf_inl_split_mask8(salt, h2);
    const __m256i b = _mm256_load_si256((const __m256i *)blk);
    _mm256_store_si256((__m256i *)blk, _mm256_or_si256(b, m));
    return !_mm256_testc_si256(b, m);
}

SBF_INL int sbf_inl_split16_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    const __m512i m = sbf_inl_split_mask16(salt, h2);
    return _mm512_test_epi32_mask(_mm512_andnot_si512(_mm512_load_si512(blk), m), m) == 0;
}

SBF_INL int sbf_inl_split16_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    const __m512i m = sbf_inl_split_mask16(salt, h2);
    const __m512i b = _mm512_load_si512(blk);
    _mm512_store_si512(blk, _mm512_or_si512(b, m));
    return _mm512_test_epi32_mask(_mm512_andnot_si512(b, m), m) != 0;
}

#endif /* SBF_INL_AVX512 */

#if SBF_INL_AVX2
SBF_INL __m256i sbf_inl_prod8(const uint32_t *salt, uint64_t h2)
{
    return _mm256_mullo_epi32(_mm256_set1_epi64x((long long)h2),
                              _mm256_loadu_si256((const __m256i *)salt));
}

/* For each lane the 32-bit word of the block (halves lo, hi) holding its
 * position: word index = prod >> 28, whose bit 3 (the sign of prod) picks
 * the half; then the position's bit (prod >> 23) & 31 of it. */
SBF_INL int sbf_inl_blocked_has8(__m256i lo, __m256i hi, __m256i prod, __m256i en)
{
    const __m256i w = _mm256_srli_epi32(prod, 28);
    const __m256 a = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, w));
    const __m256 b = _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, w));
    const __m256i word = _mm256_castps_si256(_mm256_blendv_ps(a, b, _mm256_castsi256_ps(prod)));
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
    const __m256i one = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i l = _mm256_set1_epi32((int)lanes);
    const __m256i en_lo = _mm256_cmpeq_epi32(_mm256_and_si256(l, one), one);
    int r = sbf_inl_blocked_has8(lo, hi, sbf_inl_prod8(salt, h2), en_lo);
    if (lanes > 0xffu) {
        const __m256i one_hi = _mm256_slli_epi32(one, 8);
        const __m256i en_hi = _mm256_cmpeq_epi32(_mm256_and_si256(l, one_hi), one_hi);
        r &= sbf_inl_blocked_has8(lo, hi, sbf_inl_prod8(salt + 8, h2), en_hi);
    }
    return r;
}

SBF_INL int sbf_inl_blocked_add(uint64_t *blk, const uint32_t *salt, uint32_t k,
                                uint32_t lanes, sbf_inl_h2 h2)
{
    if (sbf_inl_blocked_has(blk, salt, k, lanes, h2))
        return 0;
    uint32_t p[16];
    _mm256_storeu_si256((__m256i *)p, _mm256_srli_epi32(sbf_inl_prod8(salt, h2),
                                                        SBF_SHIFT_BLOCKED));
    if (k > 8)
        _mm256_storeu_si256((__m256i *)(p + 8),
                            _mm256_srli_epi32(sbf_inl_prod8(salt + 8, h2), SBF_SHIFT_BLOCKED));
    SBF_INL_IN_MEMORY(p);
    sbf_inl_blocked_set(blk, p, k);
    return 1;
}

SBF_INL __m256i sbf_inl_split_mask8(const uint32_t *salt, uint64_t h2)
{
    return _mm256_sllv_epi32(_mm256_set1_epi32(1),
                             _mm256_srli_epi32(sbf_inl_prod8(salt, h2), SBF_SHIFT_SPLIT));
}

SBF_INL int sbf_inl_split8_has(const uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    return _mm256_testc_si256(_mm256_load_si256((const __m256i *)blk),
                              sbf_inl_split_mask8(salt, h2));
}

SBF_INL int sbf_inl_split8_add(uint64_t *blk, const uint32_t *salt, sbf_inl_h2 h2)
{
    const __m256i m = sbf_inl_split_mask8(salt, h2);
    const __m256i b = _mm256_load_si256((const __m256i *)blk);
    _mm256_store_si256((__m256i *)blk, _mm256_or_si256(b, m));
    return !_mm256_testc_si256(b, m);
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

#endif /* SIMDBLOOM_INLINE_X86_H_2F61A9C3 */
