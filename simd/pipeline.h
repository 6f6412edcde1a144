/*
 * The software pipeline shared by the vector kernels (simdjson-style generic
 * code): each simd/ file includes it once, after defining its own lane code,
 * so every copy is compiled with that file's target flags and has internal
 * linkage. Nothing here is shared at link time between files built with
 * different -m flags.
 *
 * The including file defines, before including this header:
 *   pipe_ctx          per-call constants (salts, k lane mask, nblocks, ...)
 *   pipe_ctx_init(c, f)
 *   pipe_stage(c, keys, len, a, h2, classic)
 *       hashes len <= PIPE_BATCH keys in lanes; writes h2[], and a[] = h1
 *       (classic) or the address of the key's block (other layouts). May
 *       write whole vectors past len (the arrays have room).
 *   pipe_products(c, h2, prod)   prod[i] = lane32(h2, i) * SBFI_SALT[i], i < 16
 *   pipe_blocked_contains(c, blk, h2)
 *   pipe_split_contains(c, blk, h2)
 *   pipe_split_add(c, blk, h2)
 *   pipe_counting_contains(c, blk, h2)
 */
#ifndef SBFI_PIPELINE_H
#define SBFI_PIPELINE_H

#include "sbf_internal.h"

#if defined(__GNUC__)
#  define PIPE_INLINE static inline __attribute__((always_inline))
#  define PIPE_ALIGN(n) __attribute__((aligned(n)))
#else
#  define PIPE_INLINE static inline
#  define PIPE_ALIGN(n)
#endif

/* Keys per pipeline step. Step s+1 is hashed before step s is probed, and
 * key j of step s+1 is prefetched when key j of step s is probed: the
 * prefetch distance is PIPE_BATCH keys (32 measured as good as 16 or 64 on
 * an L2-resident filter, and it covers DRAM latency at ~15 ns per key). */
#ifndef PIPE_BATCH
#  define PIPE_BATCH 32
#endif
_Static_assert(PIPE_BATCH % 8 == 0, "whole vectors per step");

/* Block indices are computed in 32x64-bit lanes: nblocks must fit 32 bits.
 * The smallest block is 256 bits. */
_Static_assert(SBF_MAX_BITS / 256 <= UINT32_MAX, "nblocks fits 32 bits");

/* Classic: the first PIPE_CLASSIC_PF bit indices of each key are computed
 * (one division each) when the step is filled, prefetched, and reused by
 * the probe, so prefetching costs no extra division. */
#define PIPE_CLASSIC_PF 4

typedef struct pipe_step {
    PIPE_ALIGN(64) uint64_t a[PIPE_BATCH];  /* block address, or h1 (classic) */
    PIPE_ALIGN(64) uint64_t h2[PIPE_BATCH];
    uint64_t bit[PIPE_BATCH][PIPE_CLASSIC_PF]; /* classic only */
} pipe_step;

/* ---------------------------------------- adds that finish in scalar code */

/* Blocked add: the k positions come from one vector multiply; OR-ing them
 * into the (cached) block costs one store each. */
PIPE_INLINE void pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                  uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    uint64_t *w = (uint64_t *)blk;
    pipe_products(c, h2, prod);
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t p = prod[i] >> 23;
        w[p >> 6] |= UINT64_C(1) << (p & 63);
    }
}

/* Counting add: each distinct counter of the key goes up by one unless it
 * is 15 (two positions that coincide count once). Branch-free over the k
 * positions: a loop over the set bits mispredicts on every key. */
PIPE_INLINE void pipe_counting_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                   uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    unsigned char *b = (unsigned char *)blk;
    uint64_t seen[2] = { 0, 0 };
    pipe_products(c, h2, prod);
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t ctr = prod[i] >> 25;
        const uint64_t bit = UINT64_C(1) << (ctr & 63);
        const unsigned first = (seen[ctr >> 6] & bit) == 0;
        seen[ctr >> 6] |= bit;
        const unsigned sh = (ctr & 1u) * 4;
        const unsigned v = b[ctr >> 1];
        const unsigned inc = first & (((v >> sh) & 15u) != 15u);
        b[ctr >> 1] = (unsigned char)(v + (inc << sh));
    }
}

/* Classic (Guava): k bits anywhere in m, bit ((h1 + i*h2) & INT64_MAX) mod m.
 * Scalar, one 64-bit division per bit, as in src/scalar.c.
 * How many bit indices to compute ahead and prefetch: none for a filter
 * below 2 MiB, which the caches hold: there the divisions are the cost, and
 * computing 4 ahead made a negative lookup (which stops at its first clear
 * bit, after 2 on average) 1.7x slower than the scalar reference. */
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
        bit[i] = (c & (uint64_t)INT64_MAX) % f->bits;
        SBFI_PREFETCH(&f->words[bit[i] >> 6]);
        c += h2;
    }
}

PIPE_INLINE int pipe_classic_contains(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                      const uint64_t bit[PIPE_CLASSIC_PF])
{
    const uint64_t *w = f->words;
    const uint64_t m = f->bits;
    const uint32_t kp = pipe_classic_kp(f), k = f->k;
    for (uint32_t i = 0; i < kp; i++)
        if (((w[bit[i] >> 6] >> (bit[i] & 63)) & 1) == 0)
            return 0;
    uint64_t c = h1 + kp * h2;
    for (uint32_t i = kp; i < k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        if (((w[b >> 6] >> (b & 63)) & 1) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

PIPE_INLINE void pipe_classic_add(sbf_filter *f, uint64_t h1, uint64_t h2,
                                  const uint64_t bit[PIPE_CLASSIC_PF])
{
    uint64_t *w = f->words;
    const uint32_t kp = pipe_classic_kp(f);
    for (uint32_t i = 0; i < kp; i++)
        w[bit[i] >> 6] |= UINT64_C(1) << (bit[i] & 63);
    uint64_t c = h1 + kp * h2;
    for (uint32_t i = kp; i < f->k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % f->bits;
        w[b >> 6] |= UINT64_C(1) << (b & 63);
        c += h2;
    }
}

/* ------------------------------------------------------------ the pipeline */

/* Hashes a step; prefetches it too when `pf` (classic always: its
 * prefetch computes the bit indices). */
PIPE_INLINE void pipe_fill(const pipe_ctx *c, const sbf_filter *f,
                           const uint64_t *keys, size_t len, pipe_step *s,
                           const int layout, const int is_add, const int pf)
{
    pipe_stage(c, keys, len, s->a, s->h2, layout == SBF_CLASSIC);
    if (!pf && layout != SBF_CLASSIC)
        return;
    if (layout == SBF_CLASSIC) {
        for (size_t j = 0; j < len; j++)
            pipe_classic_prefetch(f, s->a[j], s->h2[j], s->bit[j]);
    } else if (is_add) {
        for (size_t j = 0; j < len; j++)
            SBFI_PREFETCH_W((const void *)(uintptr_t)s->a[j]);
    } else {
        for (size_t j = 0; j < len; j++)
            SBFI_PREFETCH((const void *)(uintptr_t)s->a[j]);
    }
}

/* Probes step s; prefetches the blocks of the next step (nx, nlen <= len)
 * on the way, one per key, so no separate prefetch loop is needed. */
PIPE_INLINE size_t pipe_probe(const pipe_ctx *c, sbf_filter *f,
                              const pipe_step *s, size_t len, uint8_t *out,
                              const pipe_step *nx, size_t nlen,
                              const int layout, const int is_add)
{
    size_t found = 0;
    const uint32_t k = f->k;
    for (size_t j = 0; j < len; j++) {
        if (layout != SBF_CLASSIC && j < nlen) {
            if (is_add)
                SBFI_PREFETCH_W((const void *)(uintptr_t)nx->a[j]);
            else
                SBFI_PREFETCH((const void *)(uintptr_t)nx->a[j]);
        }
        void *blk = (void *)(uintptr_t)s->a[j];
        const uint64_t h2 = s->h2[j];
        SBFI_ASSERT(layout == SBF_CLASSIC ||
                    (s->a[j] - (uintptr_t)f->words < f->bytes &&
                     (s->a[j] - (uintptr_t)f->words) % f->block_bytes == 0));
        if (is_add) {
            switch (layout) {
            case SBF_CLASSIC: pipe_classic_add(f, s->a[j], h2, s->bit[j]); break;
            case SBF_BLOCKED: pipe_blocked_add(c, blk, h2, k); break;
            case SBF_SPLIT_BLOCK: pipe_split_add(c, blk, h2); break;
            default: pipe_counting_add(c, blk, h2, k); break;
            }
        } else {
            int r;
            switch (layout) {
            case SBF_CLASSIC: r = pipe_classic_contains(f, s->a[j], h2, s->bit[j]); break;
            case SBF_BLOCKED: r = pipe_blocked_contains(c, blk, h2); break;
            case SBF_SPLIT_BLOCK: r = pipe_split_contains(c, blk, h2); break;
            default: r = pipe_counting_contains(c, blk, h2); break;
            }
            found += (size_t)r;
            out[j] = (uint8_t)r;
        }
    }
    return found;
}

/* Step s+1 is hashed before step s is probed, and its blocks are
 * prefetched while step s is probed. */
PIPE_INLINE size_t pipe_run(sbf_filter *f, const uint64_t *keys, size_t n,
                            uint8_t *out, const int layout, const int is_add)
{
    pipe_ctx c;
    pipe_step st[2];
    uint8_t sink[PIPE_BATCH];
    size_t found = 0, cur = 0;
    if (n == 0)
        return 0;
    pipe_ctx_init(&c, f);
    size_t len = n < PIPE_BATCH ? n : PIPE_BATCH;
    pipe_fill(&c, f, keys, len, &st[0], layout, is_add, 1);
    for (size_t base = 0; base < n; base += PIPE_BATCH) {
        const size_t next = base + PIPE_BATCH;
        const size_t nlen = next >= n ? 0
                          : (n - next < PIPE_BATCH ? n - next : PIPE_BATCH);
        if (nlen)
            pipe_fill(&c, f, keys + next, nlen, &st[cur ^ 1], layout, is_add, 0);
        found += pipe_probe(&c, f, &st[cur], len, out ? out + base : sink,
                            &st[cur ^ 1], nlen, layout, is_add);
        cur ^= 1;
        len = nlen;
    }
    return found;
}

/* The table entries. */
#define PIPE_ENTRIES(layout, name)                                             \
    static void add_##name(sbf_filter *f, const uint64_t *keys, size_t n)     \
    {                                                                          \
        (void)pipe_run(f, keys, n, NULL, layout, 1);                           \
    }                                                                          \
    static size_t contains_##name(const sbf_filter *f, const uint64_t *keys,  \
                                  size_t n, uint8_t *out)                      \
    {                                                                          \
        /* The contains path never writes through f. */                       \
        return pipe_run((sbf_filter *)(uintptr_t)f, keys, n, out, layout, 0); \
    }

PIPE_ENTRIES(SBF_CLASSIC, classic)
PIPE_ENTRIES(SBF_BLOCKED, blocked)
PIPE_ENTRIES(SBF_SPLIT_BLOCK, split)
PIPE_ENTRIES(SBF_COUNTING, counting)

/* The kernels above, named in each file's table (written out there, after
 * this header, with designated initializers):
 *   .add_u64 = { add_classic, add_blocked, add_split, add_counting },
 *   .contains_u64 = { contains_classic, contains_blocked, contains_split,
 *                     contains_counting }, */

#endif /* SBFI_PIPELINE_H */
