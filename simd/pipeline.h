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
 *   pipe_ctx_init_key(c, f)   what the probes need, for one key (cheap)
 *   pipe_stage(c, keys, len, a, h2, classic)
 *       hashes len <= PIPE_BATCH keys in lanes; writes h2[], and a[] = h1
 *       (classic) or the address of the key's block (other layouts). May
 *       write whole vectors past len (the arrays have room).
 *   pipe_products(c, h2, prod)   prod[i] = lane32(h2, i) * salt[i], i < 16, with
 *                                the layout's salts (f->salt, a copy of f->lay->salt)
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

/* Blocked add: the k positions come from one vector multiply; OR-ing them
 * into the (cached) block costs one store each (measured faster than OR-ing a mask built in registers:
 * 5.96 vs 7.97 ns/key with AVX-512, 7.0 vs 8.1 with AVX2, L2, one run). */
PIPE_INLINE void pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2,
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
PIPE_INLINE void pipe_counting_add(const pipe_ctx *c, void *blk, uint64_t h2,
                                   uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    unsigned char *b = (unsigned char *)blk;
    uint64_t seen[2] = { 0, 0 };
    pipe_products(c, h2, prod);
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t ctr = prod[i] >> SBFI_SHIFT_COUNTING;
        const uint64_t bit = UINT64_C(1) << (ctr & 63);
        const unsigned first = (seen[ctr >> 6] & bit) == 0;
        seen[ctr >> 6] |= bit;
        const unsigned sh = SBFI_NIB_SHIFT(ctr);
        const unsigned v = b[ctr >> 1];
        const unsigned inc = first & (((v >> sh) & SBFI_COUNTER_MAX) != SBFI_COUNTER_MAX);
        b[ctr >> 1] = (unsigned char)(v + (inc << sh));
    }
}
#endif

/* ------------------------------------------ SBF_CONCURRENT adds (atomic)
 * The key's mask is computed as in the plain kernels (vector products),
 * then OR-ed into the block word by word with fetch-or (counters: CAS). */

PIPE_INLINE void pipe_blocked_add_atomic(const pipe_ctx *c, void *blk,
                                         uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint64_t m[8];
    pipe_mask_words(c, h2, k, SBFI_SHIFT_BLOCKED, 0, m);
    sbfi_or_words_atomic((uint64_t *)blk, m, 8);
}

PIPE_INLINE void pipe_split_add_atomic(const pipe_ctx *c, void *blk,
                                       uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint32_t prod[16];
    uint64_t m[8];
    pipe_products(c, h2, prod);
    for (uint32_t w = 0; w < k / 2; w++)
        m[w] = (uint64_t)(UINT32_C(1) << (prod[2 * w] >> SBFI_SHIFT_SPLIT)) |
               (uint64_t)(UINT32_C(1) << (prod[2 * w + 1] >> SBFI_SHIFT_SPLIT)) << 32;
    sbfi_or_words_atomic((uint64_t *)blk, m, k / 2);
}

PIPE_INLINE void pipe_counting_add_atomic(const pipe_ctx *c, void *blk,
                                          uint64_t h2, uint32_t k)
{
    PIPE_ALIGN(64) uint64_t inc[8];
    pipe_mask_words(c, h2, k, SBFI_SHIFT_COUNTING, SBFI_NIB_SCALE, inc);
    sbfi_inc_words_atomic((uint64_t *)blk, inc);
}

/* Classic (Guava): k bits anywhere in m, bit ((h1 + i*h2) & INT64_MAX) mod m (sbfi_classic_bit).
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
        bit[i] = sbfi_classic_bit(c, f->bits);
        SBFI_PREFETCH(&f->words[bit[i] >> 6]);
        c += h2;
    }
}

/* Word i of a filter: a relaxed atomic load for concurrent filters. */
PIPE_INLINE uint64_t pipe_word(const uint64_t *w, uint64_t i, const int atomic)
{
    return atomic ? __atomic_load_n(&w[i], __ATOMIC_RELAXED) : w[i];
}

PIPE_INLINE int pipe_classic_contains(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                      const uint64_t bit[PIPE_CLASSIC_PF],
                                      const int atomic)
{
    const uint64_t *w = f->words;
    const uint64_t m = f->bits;
    const uint32_t kp = pipe_classic_kp(f), k = f->k;
    for (uint32_t i = 0; i < kp; i++)
        if (((pipe_word(w, bit[i] >> 6, atomic) >> (bit[i] & 63)) & 1) == 0)
            return 0;
    uint64_t c = h1 + kp * h2;
    for (uint32_t i = kp; i < k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        if (((pipe_word(w, b >> 6, atomic) >> (b & 63)) & 1) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

/* m and k are read into locals: the stores through w may alias f, and a
 * division whose divisor is reloaded after every store waited for it
 * (the batched classic add ran 2.4x slower than the scalar kernel). */
PIPE_INLINE void pipe_classic_add(sbf_filter *f, uint64_t h1, uint64_t h2,
                                  const uint64_t bit[PIPE_CLASSIC_PF],
                                  const int atomic)
{
    uint64_t *const w = f->words;
    const uint64_t m = f->bits;
    const uint32_t kp = pipe_classic_kp(f), k = f->k;
    uint64_t c = h1 + kp * h2;
    if (atomic) {
        for (uint32_t i = 0; i < kp; i++)
            (void)__atomic_fetch_or(&w[bit[i] >> 6], UINT64_C(1) << (bit[i] & 63),
                                    __ATOMIC_RELAXED);
        for (uint32_t i = kp; i < k; i++) {
            const uint64_t b = sbfi_classic_bit(c, m);
            (void)__atomic_fetch_or(&w[b >> 6], UINT64_C(1) << (b & 63), __ATOMIC_RELAXED);
            c += h2;
        }
        return;
    }
    for (uint32_t i = 0; i < kp; i++)
        w[bit[i] >> 6] |= UINT64_C(1) << (bit[i] & 63);
    for (uint32_t i = kp; i < k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        w[b >> 6] |= UINT64_C(1) << (b & 63);
        c += h2;
    }
}

/* ------------------------------------------------------------ the pipeline */

/* Hashes a step; prefetches it too when `pf` (classic always: its
 * prefetch computes the bit indices). */
PIPE_INLINE void pipe_fill(const pipe_ctx *c, const sbf_filter *f,
                           const uint64_t *keys, size_t len, pipe_step *s,
                           const int fam, const int is_add, const int pf)
{
    pipe_stage(c, keys, len, s->a, s->h2, fam == SBFI_KERN_CLASSIC);
    if (!pf && fam != SBFI_KERN_CLASSIC)
        return;
    if (fam == SBFI_KERN_CLASSIC) {
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
                              const int fam, const int is_add, const int atomic)
{
    size_t found = 0;
    const uint32_t k = f->k;
    const unsigned bw = f->block_bytes / 8;
    PIPE_ALIGN(64) sbfi_u64_alias copy[8];
    for (size_t j = 0; j < len; j++) {
        if (fam != SBFI_KERN_CLASSIC && j < nlen) {
            if (is_add)
                SBFI_PREFETCH_W((const void *)(uintptr_t)nx->a[j]);
            else
                SBFI_PREFETCH((const void *)(uintptr_t)nx->a[j]);
        }
        void *blk = (void *)(uintptr_t)s->a[j];
        const uint64_t h2 = s->h2[j];
        SBFI_ASSERT(fam == SBFI_KERN_CLASSIC ||
                    (s->a[j] - (uintptr_t)f->words < f->bytes &&
                     (s->a[j] - (uintptr_t)f->words) % f->block_bytes == 0));
        if (is_add && atomic) {
            switch (fam) {
            case SBFI_KERN_CLASSIC: pipe_classic_add(f, s->a[j], h2, s->bit[j], 1); break;
            case SBFI_KERN_BLOCKED: pipe_blocked_add_atomic(c, blk, h2, k); break;
            case SBFI_KERN_SPLIT: pipe_split_add_atomic(c, blk, h2, k); break;
            default: pipe_counting_add_atomic(c, blk, h2, k); break;
            }
        } else if (is_add) {
            switch (fam) {
            case SBFI_KERN_CLASSIC: pipe_classic_add(f, s->a[j], h2, s->bit[j], 0); break;
            case SBFI_KERN_BLOCKED: pipe_blocked_add(c, blk, h2, k); break;
            case SBFI_KERN_SPLIT: pipe_split_add(c, blk, h2); break;
            default: pipe_counting_add(c, blk, h2, k); break;
            }
        } else {
            int r;
            if (atomic && fam != SBFI_KERN_CLASSIC) {
                /* Concurrent filter: probe a copy read with relaxed loads. */
                pipe_copy_block_atomic(copy, (const uint64_t *)blk, bw);
                blk = copy;
            }
            switch (fam) {
            case SBFI_KERN_CLASSIC: r = pipe_classic_contains(f, s->a[j], h2, s->bit[j], atomic); break;
            case SBFI_KERN_BLOCKED: r = pipe_blocked_contains(c, blk, h2); break;
            case SBFI_KERN_SPLIT: r = pipe_split_contains(c, blk, h2); break;
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
                            uint8_t *out, const int fam, const int is_add,
                            const int atomic)
{
    pipe_ctx c;
    pipe_step st[2];
    uint8_t sink[PIPE_BATCH];
    size_t found = 0, cur = 0;
    if (n == 0)
        return 0;
    pipe_ctx_init(&c, f);
    size_t len = n < PIPE_BATCH ? n : PIPE_BATCH;
    pipe_fill(&c, f, keys, len, &st[0], fam, is_add, 1);
    for (size_t base = 0; base < n; base += PIPE_BATCH) {
        const size_t next = base + PIPE_BATCH;
        const size_t nlen = next >= n ? 0
                          : (n - next < PIPE_BATCH ? n - next : PIPE_BATCH);
        if (nlen)
            pipe_fill(&c, f, keys + next, nlen, &st[cur ^ 1], fam, is_add, 0);
        found += pipe_probe(&c, f, &st[cur], len, out ? out + base : sink,
                            &st[cur ^ 1], nlen, fam, is_add, atomic);
        cur ^= 1;
        len = nlen;
    }
    return found;
}

/* ------------------------------------------------------------ single keys
 * Hash (the u64 path inline for 8-byte keys), the block from one
 * multiply-shift, the ISA's vector probe; an add first asks whether every
 * bit is already set (its return value, and no store when it is).
 * Where a blocked add's time goes (AVX-512, 256 KiB filter, k = 7, u64 keys,
 * best of 41 runs per 2048-key chunk): contains 6.05 ns, add 13.1. The extra
 * ~7 ns are the k positions, whatever their form: the add with only its
 * probe (no bits set) ran 6.2 ns; without the probe 13.3; a 512-bit mask of
 * masked byte broadcasts OR-ed into the block with one load/compare/store
 * 14.2 (13.9 with no store at all); a mask of per-position vpermd/vpsllvd
 * 17.8; the positions unrolled by a switch on k 13.9. So the probe stays.
 */
PIPE_INLINE int pipe_key(sbf_filter *f, const void *key, size_t len,
                         const int fam, const int is_add, const int atomic)
{
    uint64_t h1, h2;
    sbfi_hash_key(key, len, f->seed, &h1, &h2);
    if (fam == SBFI_KERN_CLASSIC) /* k divisions: the scalar kernel is it */
        return is_add ? (atomic ? sbfi_add_hashed_atomic(f, h1, h2) : sbfi_add_hashed(f, h1, h2))
                      : (atomic ? sbfi_contains_hashed_atomic(f, h1, h2)
                                : sbfi_contains_hashed(f, h1, h2));
    pipe_ctx c;
    pipe_ctx_init_key(&c, f);
    void *blk = sbfi_block_ptr(f, h1);
    const void *q = blk;
    PIPE_ALIGN(64) sbfi_u64_alias copy[8];
    if (atomic) {
        pipe_copy_block_atomic(copy, (const uint64_t *)blk, f->block_bytes / 8);
        q = copy;
    }
    int present;
    switch (fam) {
    case SBFI_KERN_BLOCKED: present = pipe_blocked_contains(&c, q, h2); break;
    case SBFI_KERN_SPLIT: present = pipe_split_contains(&c, q, h2); break;
    default: present = pipe_counting_contains(&c, q, h2); break;
    }
    if (!is_add)
        return present;
    if (fam == SBFI_KERN_COUNTING) {
        if (atomic)
            pipe_counting_add_atomic(&c, blk, h2, f->k);
        else
            pipe_counting_add(&c, blk, h2, f->k);
        return !present;
    }
    if (present)
        return 0;
    if (fam == SBFI_KERN_BLOCKED) {
        if (atomic)
            pipe_blocked_add_atomic(&c, blk, h2, f->k);
        else
            pipe_blocked_add(&c, blk, h2, f->k);
    } else {
        if (atomic)
            pipe_split_add_atomic(&c, blk, h2, f->k);
        else
            pipe_split_add(&c, blk, h2);
    }
    return 1;
}

/* The table entries. */
#define PIPE_ENTRIES(fam, name)                                             \
    static void add_##name(sbf_filter *f, const uint64_t *keys, size_t n)     \
    {                                                                          \
        (void)pipe_run(f, keys, n, NULL, fam, 1, 0);                        \
    }                                                                          \
    static size_t contains_##name(const sbf_filter *f, const uint64_t *keys,  \
                                  size_t n, uint8_t *out)                      \
    {                                                                          \
        /* The contains path never writes through f. */                       \
        return pipe_run((sbf_filter *)(uintptr_t)f, keys, n, out, fam, 0, 0); \
    }                                                                          \
    static void add_atomic_##name(sbf_filter *f, const uint64_t *keys, size_t n) \
    {                                                                          \
        (void)pipe_run(f, keys, n, NULL, fam, 1, 1);                        \
    }                                                                          \
    static size_t contains_atomic_##name(const sbf_filter *f,                  \
                                         const uint64_t *keys, size_t n,       \
                                         uint8_t *out)                         \
    {                                                                          \
        return pipe_run((sbf_filter *)(uintptr_t)f, keys, n, out, fam, 0, 1); \
    }                                                                          \
    static int add_key_##name(sbf_filter *f, const void *key, size_t len)     \
    {                                                                          \
        return pipe_key(f, key, len, fam, 1, 0);                            \
    }                                                                          \
    static int contains_key_##name(const sbf_filter *f, const void *key,       \
                                   size_t len)                                 \
    {                                                                          \
        return pipe_key((sbf_filter *)(uintptr_t)f, key, len, fam, 0, 0);   \
    }                                                                          \
    static int add_key_atomic_##name(sbf_filter *f, const void *key, size_t len) \
    {                                                                          \
        return pipe_key(f, key, len, fam, 1, 1);                            \
    }                                                                          \
    static int contains_key_atomic_##name(const sbf_filter *f, const void *key, \
                                          size_t len)                          \
    {                                                                          \
        return pipe_key((sbf_filter *)(uintptr_t)f, key, len, fam, 0, 1);   \
    }

PIPE_ENTRIES(SBFI_KERN_CLASSIC, classic)
PIPE_ENTRIES(SBFI_KERN_BLOCKED, blocked)
PIPE_ENTRIES(SBFI_KERN_SPLIT, split)
PIPE_ENTRIES(SBFI_KERN_COUNTING, counting)

/* The kernels above, named in each file's table (written out there, after
 * this header, with designated initializers):
 *   .add_u64 = { add_classic, add_blocked, add_split, add_counting },
 *   .contains_u64 = { contains_classic, contains_blocked, contains_split,
 *                     contains_counting },
 * and the single-key / SBF_CONCURRENT group (issue 8): PIPE_HOT_ENTRIES. */
#define PIPE_HOT_ENTRIES                                                       \
    .add_key = { add_key_classic, add_key_blocked, add_key_split,              \
                 add_key_counting },                                           \
    .contains_key = { contains_key_classic, contains_key_blocked,              \
                      contains_key_split, contains_key_counting },             \
    .add_key_atomic = { add_key_atomic_classic, add_key_atomic_blocked,        \
                        add_key_atomic_split, add_key_atomic_counting },       \
    .contains_key_atomic = { contains_key_atomic_classic,                      \
                             contains_key_atomic_blocked,                      \
                             contains_key_atomic_split,                        \
                             contains_key_atomic_counting },                   \
    .add_u64_atomic = { add_atomic_classic, add_atomic_blocked,                \
                        add_atomic_split, add_atomic_counting },               \
    .contains_u64_atomic = { contains_atomic_classic, contains_atomic_blocked, \
                             contains_atomic_split, contains_atomic_counting }

#endif /* SBFI_PIPELINE_H */
