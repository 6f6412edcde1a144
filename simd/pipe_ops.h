/*
 * The per-key operations of the batch pipeline (simd/pipeline.h) and the
 * single-key kernels (simd/pipe_key.h) that are the same on every ISA:
 * adds finished in scalar code, the SBF_CONCURRENT (atomic) adds, and the
 * classic layout's k divisions. Included by simd/pipeline.h, after the ISA
 * file's hooks (see there); internal linkage, compiled with that file's
 * flags.
 *
 * The functions take a const sbf_filter: they read its fields, and an add
 * writes its words (f->words points at mutable memory; the const only
 * covers the struct). The entry points keep the API's types: an add takes
 * sbf_filter *, a query const sbf_filter *, and no cast is needed.
 */
#ifndef SBFI_PIPE_OPS_H
#define SBFI_PIPE_OPS_H

#include "sbf_internal.h"

#if defined(__GNUC__)
#  define PIPE_INLINE static inline __attribute__((always_inline))
#  define PIPE_ALIGN(n) __attribute__((aligned(n)))
#else
#  define PIPE_INLINE static inline
#  define PIPE_ALIGN(n)
#endif

/* Classic: the first PIPE_CLASSIC_PF bit indices of each key are computed
 * (one division each) when a step is filled, prefetched, and reused by the
 * probe, so prefetching costs no extra division. */
#define PIPE_CLASSIC_PF 4

/* ---------------------------------------- adds that finish in scalar code
 * An ISA that builds the 512-bit masks in registers defines PIPE_HAVE_MASK
 * and its own pipe_mask_words and pipe_counting_add. */

#if !defined(PIPE_HAVE_COPY)
/* A concurrent filter's block, read with relaxed atomic loads into an
 * aligned copy the probes then read (an ISA may define its own: the loads
 * gathered in registers and stored as one vector, so the probe's vector load
 * is forwarded from one store instead of waiting for eight). */
PIPE_INLINE void pipe_copy_block_atomic(void *dst, const uint64_t *src, unsigned n)
{
    sbfi_load_words_atomic(dst, src, n);
}
#endif

#if !defined(PIPE_HAVE_BLOCKED_ADD)
/* Blocked add: the k positions come from one vector multiply; OR-ing them
 * into the (cached) block costs one store each (measured faster than the
 * masks built in registers tried first: 5.96 vs 7.97 ns/key with AVX-512,
 * 7.0 vs 8.1 with AVX2, L2, one run; AVX-512 now builds its mask with
 * broadcast loads and wins, simd/avx512.c). */
PIPE_INLINE void pipe_blocked_set(const pipe_ctx *c, void *blk, uint64_t h2,
                                  uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    uint64_t *w = (uint64_t *)blk;
    pipe_products(c, h2, prod);
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t p = prod[i] >> SBFI_SHIFT_BLOCKED;
        w[p >> 6] |= UINT64_C(1) << (p & 63);
    }
}

/* The batch's add, which returns whether a bit was clear: the vector probe
 * first (callgrind, AVX2, k = 7: 109 instructions per key against 89 for
 * not knowing; testing each word as it is set took 141, the loop compiling
 * less tightly). */
PIPE_INLINE int pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                 uint32_t k)
{
    const int present = pipe_blocked_contains(c, blk, h2);
    pipe_blocked_set(c, blk, h2, k);
    return !present;
}
#endif

#if !defined(PIPE_HAVE_MASK)
/* The key's 512-bit mask as 8 words: bit (prod[i] >> shift) << scale for
 * i < k (sbfi_mask_from_products). */
PIPE_INLINE void pipe_mask_words(const pipe_ctx *c, uint64_t h2, uint32_t k,
                                 int shift, int scale, uint64_t m[8])
{
    PIPE_ALIGN(64) uint32_t prod[16];
    pipe_products(c, h2, prod);
    sbfi_mask_from_products(prod, k, shift, scale, m);
}

/* Counting add: each distinct counter of the key goes up by one unless it
 * is 15 (two positions that coincide count once). Branch-free over the k
 * positions: a loop over the set bits mispredicts on every key. (Kept for
 * the ISAs without PIPE_HAVE_MASK: measured against a SWAR form and a
 * register seen-set, this was the fastest with SIMDe: 21.4 vs 24.5 ns/key.) */
PIPE_INLINE int pipe_counting_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                  uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    unsigned char *b = (unsigned char *)blk;
    uint64_t seen[2] = { 0, 0 };
    unsigned raised = 0; /* a counter rose from 0 */
    pipe_products(c, h2, prod);
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t ctr = prod[i] >> SBFI_SHIFT_COUNTING;
        const uint64_t bit = UINT64_C(1) << (ctr & 63);
        const unsigned first = (seen[ctr >> 6] & bit) == 0;
        seen[ctr >> 6] |= bit;
        const unsigned sh = SBFI_NIB_SHIFT(ctr);
        const unsigned v = b[ctr >> 1], nib = (v >> sh) & SBFI_COUNTER_MAX;
        const unsigned inc = first & (nib != SBFI_COUNTER_MAX);
        raised |= nib == 0;
        b[ctr >> 1] = (unsigned char)(v + (inc << sh));
    }
    return (int)raised;
}
#endif

/* ------------------------------------------ SBF_CONCURRENT adds (atomic)
 * The key's mask is computed as in the plain kernels (vector products),
 * then OR-ed into the block word by word with fetch-or (counters: CAS).
 * Each returns whether the key changed the filter, in this thread's view. */

PIPE_INLINE int pipe_blocked_add_atomic(const pipe_ctx *c, void *blk,
                                        uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint64_t m[8];
    pipe_mask_words(c, h2, k, SBFI_SHIFT_BLOCKED, 0, m);
    return sbfi_or_words_atomic((uint64_t *)blk, m, 8);
}

PIPE_INLINE int pipe_split_add_atomic(const pipe_ctx *c, void *blk,
                                      uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    uint64_t m[8];
    pipe_products(c, h2, prod);
    for (uint32_t w = 0; w < k / 2; w++)
        m[w] = (uint64_t)(UINT32_C(1) << (prod[2 * w] >> SBFI_SHIFT_SPLIT)) |
               (uint64_t)(UINT32_C(1) << (prod[2 * w + 1] >> SBFI_SHIFT_SPLIT)) << 32;
    return sbfi_or_words_atomic((uint64_t *)blk, m, k / 2);
}

PIPE_INLINE int pipe_counting_add_atomic(const pipe_ctx *c, void *blk,
                                         uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint64_t inc[8];
    pipe_mask_words(c, h2, k, SBFI_SHIFT_COUNTING, SBFI_NIB_SCALE, inc);
    return sbfi_inc_words_atomic((uint64_t *)blk, inc);
}

/* ------------------------------------------------------------- classic
 * Guava: k bits anywhere in m, bit sbfi_classic_bit(h1 + i*h2, m). Scalar,
 * one 64-bit division per bit, as in src/scalar.c.
 * How many bit indices to compute ahead and prefetch: none for a filter
 * below 2 MiB, which the caches hold: there the divisions are the cost, and
 * computing 4 ahead made a negative lookup (which stops at its first clear
 * bit, after 2 on average) 1.7x slower than the scalar reference. The rule
 * holds for every key form: the hash stage is before it. */
PIPE_INLINE uint32_t pipe_classic_kp(const sbf_filter *f)
{
    if (f->bytes < SBFI_HUGE)
        return 0;
    return f->k < PIPE_CLASSIC_PF ? f->k : PIPE_CLASSIC_PF;
}

PIPE_INLINE void pipe_classic_prefetch(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                       uint64_t bit[PIPE_CLASSIC_PF])
{
    const uint32_t kp = pipe_classic_kp(f);
    uint64_t c = h1;
    for (uint32_t i = 0; i < kp; i++) {
        bit[i] = sbfi_classic_bit_recip(c, f->bits, f->bits_magic, f->bits_shift);
        SBFI_PREFETCH(&f->words[bit[i] >> 6]);
        c += h2;
    }
}

/* Word i of a filter: a relaxed atomic load for concurrent filters. */
PIPE_INLINE uint64_t pipe_word(const uint64_t *w, uint64_t i, const int atomic)
{
    return atomic ? __atomic_load_n(&w[i], __ATOMIC_RELAXED) : w[i];
}

/* bit[0 .. kp) are the first bit indices, computed ahead (kp may be 0). */
PIPE_INLINE int pipe_classic_contains(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                      const uint64_t *bit, uint32_t kp,
                                      const int atomic)
{
    const uint64_t *w = f->words;
    const uint64_t m = f->bits, r = f->bits_magic;
    const uint32_t sh = f->bits_shift;
    const uint32_t k = f->k;
    for (uint32_t i = 0; i < kp; i++)
        if (((pipe_word(w, bit[i] >> 6, atomic) >> (bit[i] & 63)) & 1) == 0)
            return 0;
    uint64_t c = h1 + kp * h2;
    if (f->bytes < SBFI_HUGE) { /* kp is 0: all k bits, no branch */
        uint64_t all = 1;
        for (uint32_t i = 0; i < k; i++) {
            const uint64_t b = sbfi_classic_bit_recip(c, m, r, sh);
            all &= pipe_word(w, b >> 6, atomic) >> (b & 63);
            c += h2;
        }
        return (int)(all & 1);
    }
    for (uint32_t i = kp; i < k; i++) {
        const uint64_t b = sbfi_classic_bit_recip(c, m, r, sh);
        if (((pipe_word(w, b >> 6, atomic) >> (b & 63)) & 1) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

/* Sets bit b; returns it if it was clear, else 0 (atomic: in this thread's
 * view, and a bit already set is not written, so its line is not taken
 * exclusive). The callers OR the results: two instructions per bit. */
PIPE_INLINE uint64_t pipe_classic_set(uint64_t *w, uint64_t b, const int atomic)
{
    const uint64_t bit = UINT64_C(1) << (b & 63);
    if (atomic) {
        if (__atomic_load_n(&w[b >> 6], __ATOMIC_RELAXED) & bit)
            return 0;
        (void)__atomic_fetch_or(&w[b >> 6], bit, __ATOMIC_RELAXED);
        return bit;
    }
    const uint64_t old = w[b >> 6];
    w[b >> 6] = old | bit;
    return bit & ~old;
}

/* m and k are read into locals: the stores through w may alias f, and a
 * division whose divisor is reloaded after every store waited for it
 * (the batched classic add ran 2.4x slower than the scalar kernel).
 * Returns whether a bit was clear. */
PIPE_INLINE int pipe_classic_add(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                 const uint64_t *bit, uint32_t kp, const int atomic)
{
    uint64_t *const w = f->words;
    const uint64_t m = f->bits, r = f->bits_magic;
    const uint32_t sh = f->bits_shift;
    const uint32_t k = f->k;
    uint64_t c = h1 + kp * h2, miss = 0;
    for (uint32_t i = 0; i < kp; i++)
        miss |= pipe_classic_set(w, bit[i], atomic);
    for (uint32_t i = kp; i < k; i++) {
        miss |= pipe_classic_set(w, sbfi_classic_bit_recip(c, m, r, sh), atomic);
        c += h2;
    }
    return miss != 0;
}

#endif /* SBFI_PIPE_OPS_H */
