/*
 * The one batch pipeline: every batched add and contains, of every key form
 * (u64 keys, byte strings as pointer + length arrays, Arrow-style packed
 * strings with 64- or 32-bit offsets), plain and SBF_CONCURRENT, on every
 * ISA. Each ISA file includes it once, after defining its hooks, so every
 * copy is compiled with that file's target flags and has internal linkage
 * (simdjson-style generic code); src/scalar.c includes it too, with the
 * scalar reference's hooks. Nothing here is shared at link time between
 * files built with different -m flags.
 *
 * A batch runs in steps of PIPE_BATCH keys. Steps s+1 .. s+d are hashed
 * (and their blocks addressed) before step s is probed, and key j of step
 * s+d is prefetched when key j of step s is probed: the prefetch distance
 * is d * PIPE_BATCH keys for every key form, d = 1 for a filter the caches
 * hold and PIPE_DEPTH_MAX beyond (pipe_depth).
 * The hash stage is the layout's (f->hash): MurmurHash3 (u64 keys in the
 * ISA's fused pipe_stage; byte strings through the table's hash_bytes
 * kernel, SIMD lanes where the ISA has them), or a 64-bit stage: XXH64
 * (xxh64_u64, xxh64_bytes), XXH3 (xxh3_u64, xxh3_bytes) or fmix
 * (fmix_u64, fmix_bytes), then
 * sbfi_xxh64_pair. It writes (h1, h2) per key; the
 * block addresses come from h1 in one vector pass (pipe_address).
 *
 * The including file defines, before including this header:
 *   pipe_ctx          per-call constants (salts, k lane mask, nblocks, ...)
 *   pipe_ctx_init(c, f)
 *   pipe_ctx_init_key(c, f)   what the probes need, for one key (cheap)
 *   pipe_stage(c, keys, len, a, h2, classic)
 *       MurmurHash3 of len <= PIPE_BATCH u64 keys in lanes; writes h2[], and
 *       a[] = h1 (classic) or the address of the key's block (other
 *       layouts). May write whole vectors past len (the arrays have room).
 *   pipe_address(c, h1, len, a)  a[i] = address of the block of h1[i]; may
 *       read and write whole vectors past len (h1 is zero-padded to them)
 *   pipe_products(c, h2, prod)   prod[i] = lane32(h2, i) * salt[i], i < 16,
 *       with the layout's salts (f->salt, a copy of f->lay->salt)
 *   pipe_blocked_contains(c, blk, h2)
 *   pipe_split_contains(c, blk, h2)
 *   pipe_split_add(c, blk, h2)  returns whether a bit was clear
 *   pipe_counting_contains(c, blk, h2)
 * and may define its own pipe_mask_words + pipe_counting_add
 * (PIPE_HAVE_MASK), pipe_copy_block_atomic (PIPE_HAVE_COPY), pipe_blocked_set
 * + pipe_blocked_add (PIPE_HAVE_BLOCKED_ADD), pipe_blocked_miss,
 * pipe_split_miss, pipe_counting_miss + pipe_miss_answers (PIPE_HAVE_MISS:
 * a step's queries answered from each key's missing lanes); simd/pipe_ops.h
 * has the defaults. An ISA file that includes its lanes (simd/lanes.h)
 * before this header gets the 64-bit stages fused, like MurmurHash3's
 * pipe_stage ("64-bit stages in lanes" below).
 */
#ifndef SBFI_PIPELINE_H
#define SBFI_PIPELINE_H

#include "pipe_ops.h"

/* Keys per pipeline step (32 measured as good as 16 or 64 on an L2-resident
 * filter, and it covers DRAM latency at ~15 ns per key). */
#ifndef PIPE_BATCH
#  define PIPE_BATCH 32
#endif
_Static_assert(PIPE_BATCH % 8 == 0, "whole vectors per step");

/* Block indices are computed in 32x64-bit lanes: nblocks must fit 32 bits.
 * The smallest block is 256 bits. */
_Static_assert(SBF_MAX_BITS / 256 <= UINT32_MAX, "nblocks fits 32 bits");

typedef struct pipe_step {
    PIPE_ALIGN(64) uint64_t a[PIPE_BATCH];  /* block address, or h1 (classic) */
    PIPE_ALIGN(64) uint64_t h2[PIPE_BATCH];
    uint64_t bit[PIPE_BATCH][PIPE_CLASSIC_PF]; /* classic only */
} pipe_step;

/* ------------------------------------------------------------ hash stage */

/* Pointers and lengths of keys [base, base + len) of a string batch: the
 * caller's arrays themselves, or (packed forms) built in p[] and l[]. */
PIPE_INLINE void pipe_strings(const sbfi_keys *src, size_t base, size_t len,
                              const void **p, size_t *l,
                              const void *const **pp, const size_t **ll)
{
    if (src->kind == SBFI_KEYS_PTRS) {
        *pp = src->ptrs + base;
        *ll = src->lens + base;
        return;
    }
    for (size_t j = 0; j < len; j++) {
        const size_t i = base + j;
        const uint64_t lo = src->kind == SBFI_KEYS_OFF64 ? src->off64[i] : src->off32[i];
        const uint64_t hi = src->kind == SBFI_KEYS_OFF64 ? src->off64[i + 1] : src->off32[i + 1];
        p[j] = src->data != NULL ? src->data + lo : NULL; /* NULL: every key empty */
        l[j] = (size_t)(hi - lo);
    }
    *pp = p;
    *ll = l;
}

/* The u64 keys two steps ahead of `keys`, prefetched (4 lines; past the
 * caller's array a prefetch is harmless, and the address is formed as an
 * integer). Without it XXH64's out-of-line lanes waited on the key stream
 * whenever the keys came from memory: parquet, AVX-512, 8 MiB filter, 4M
 * keys per call: 2.74 -> 1.31 ns/key (split-block's fused MurmurHash3 stage
 * 1.21; that stage, inlined, measured no gain from it: 1.20 -> 1.24). */
PIPE_INLINE void pipe_keys_ahead(const uint64_t *keys)
{
    const uintptr_t ahead = (uintptr_t)keys + 2 * PIPE_BATCH * sizeof(uint64_t);
    for (uintptr_t o = 0; o < PIPE_BATCH * sizeof(uint64_t); o += 64)
        SBFI_PREFETCH((const void *)(ahead + o));
}

#if defined(LANES)
/* ------------------------------------------- 64-bit stages in lanes
 *
 * With the ISA's lanes (simd/lanes.h, which the ISA file includes before
 * this header), a 64-bit stage runs fused, as MurmurHash3's pipe_stage
 * does: a vector of keys -> the stage's lanes -> the (h1, h2) map ->
 * the block address, in registers, stored once into the step (no pass
 * over an array of h, none of pairs, none of addresses). The map is
 * sbf__pair64 and sbf__block_index64 (nblocks < 2^32, asserted above):
 * h2 = h's low half twice, the block (h >> 32) * nblocks >> 32, one
 * 32x32->64 multiply; a classic step keeps h1 = h's high half.
 *
 * A stage plugs in with its lanes of one vector of u64 keys (a case in
 * pipe_lanes_u64, its per-filter word in pipe_hash's line that calls
 * pipe_fused_u64); its byte strings take the lanes' table entry and
 * pipe_map_pass, or a fused form like XXH3's on AVX-512 (pipe_x3_bytes). */
typedef struct pipe_map {
    lv nb, base, shift;
} pipe_map;

PIPE_INLINE pipe_map pipe_map_of(const sbf_filter *f)
{
    pipe_map m;
    m.nb = lv_set1(f->nblocks);
    m.base = lv_set1((uint64_t)(uintptr_t)f->words);
    m.shift = lv_set1(f->block_log2);
    return m;
}

/* The probes' words of LANES keys from their h: a[] (the block's address,
 * or h1 when classic), h2[]. */
PIPE_INLINE void pipe_map_put(const pipe_map *m, lv h, uint64_t *a, uint64_t *h2,
                              const int classic)
{
    lv_store(h2, lv_dup32(h));
    if (classic) {
        lv_store(a, lv_and(h, lv_set1(UINT64_C(0xffffffff00000000))));
        return;
    }
    const lv blk = LV_SRL(lv_mul32(LV_SRL(h, 32), m->nb), 32);
    lv_store(a, lv_add(m->base, lv_sllv(blk, m->shift)));
}

/* The same for len hashes h[] (the lanes' table entries wrote them; h
 * zero-padded to whole vectors). */
PIPE_INLINE void pipe_map_pass(const sbf_filter *f, const uint64_t *h, size_t len,
                               pipe_step *s, const int classic)
{
    const pipe_map m = pipe_map_of(f);
    for (size_t i = 0; i < len; i += LANES)
        pipe_map_put(&m, lv_load(h + i), s->a + i, s->h2 + i, classic);
}

/* One vector of u64 keys through the 64-bit stage `hash` (a constant),
 * with its per-filter word `arg`: one line per stage. */
PIPE_INLINE lv pipe_lanes_u64(const int hash, lv key, lv arg)
{
    if (hash == SBFI_HASH_XXH64) /* seed 0: no word */
        return lanes_xxh_avalanche(lanes_xxh_word(lv_set1(LANES_P5 + 8), key));
    if (hash == SBFI_HASH_FMIX)
        return lanes_fmix_8(key, arg); /* arg: f->fmix_s */
    SBFI_ASSERT(hash == SBFI_HASH_XXH3);
    return lanes_xxh3_8(key, arg); /* arg: f->xxh3_flip8 */
}

/* A step of len u64 keys through stage `hash`, fused (above). */
PIPE_INLINE void pipe_fused_u64(const sbf_filter *f, const uint64_t *keys, size_t len,
                                pipe_step *s, const int classic, const int hash,
                                uint64_t arg)
{
    const pipe_map m = pipe_map_of(f);
    const lv w = lv_set1(arg);
    size_t i = 0;
    for (; i + LANES <= len; i += LANES)
        pipe_map_put(&m, pipe_lanes_u64(hash, lv_load(keys + i), w), s->a + i, s->h2 + i,
                     classic);
    if (i < len) { /* the batch's last keys: a vector's worth, zero-padded */
        PIPE_ALIGN(64) uint64_t t[LANES] = { 0 };
        memcpy(t, keys + i, (len - i) * sizeof t[0]);
        pipe_map_put(&m, pipe_lanes_u64(hash, lv_load(t), w), s->a + i, s->h2 + i, classic);
    }
}

/* The stages' fused steps out of line, for the steps filled before a
 * batch's loop (inlined at those sites too they added 5 KB to every batch
 * kernel) and concurrent filters (pipe_fill's `hot`); the loops of plain
 * filters inline them (out of line there: about one more instruction a
 * key, the constants set up per call). One block for the three stages in
 * pipe_hash (a chain on f->hash, one shared prefetch and one noinline
 * twin) gave avx512.o 3.5% less text but not the same steps: bench-check
 * counted +0.9% instructions for blocked-xxh3's batched contains, +1.4%
 * parquet's, +0.6% blocked's add (AVX2); so one line per stage stays. */
__attribute__((noinline)) static void pipe_fused_xxh3(const sbf_filter *f,
                                                      const uint64_t *keys, size_t len,
                                                      pipe_step *s)
{
    pipe_fused_u64(f, keys, len, s, 0, SBFI_HASH_XXH3, f->xxh3_flip8);
}

__attribute__((noinline)) static void pipe_fused_xxh64(const sbf_filter *f,
                                                       const uint64_t *keys, size_t len,
                                                       pipe_step *s)
{
    pipe_fused_u64(f, keys, len, s, 0, SBFI_HASH_XXH64, 0);
}

__attribute__((noinline)) static void pipe_fused_fmix(const sbf_filter *f,
                                                      const uint64_t *keys, size_t len,
                                                      pipe_step *s)
{
    pipe_fused_u64(f, keys, len, s, 0, SBFI_HASH_FMIX, f->fmix_s);
}

#  if defined(LANES_X3_NATIVE)
/* XXH3 (or the fmix stage) of a whole step's byte strings, keys [base,
 * base + 32) (simd/lanes_xxh3_512.h's four groups of 8 keys in registers),
 * fused with the map. Out of line, once: the lanes are about 15 KB of code, and every
 * batch kernel inlines pipe_hash. (A shorter step, a batch's last, takes
 * the table's entry and pipe_map_pass.) */
__attribute__((noinline)) static void pipe_x3_bytes(const sbf_filter *f, const sbfi_keys *src,
                                                    size_t base, pipe_step *s)
{
    _Static_assert(PIPE_BATCH == 32, "a step is four groups of 8 keys");
    const void *p[PIPE_BATCH];
    size_t l[PIPE_BATCH];
    const void *const *keys = NULL;
    const size_t *lens = NULL;
    pipe_strings(src, base, PIPE_BATCH, p, l, &keys, &lens);
    const pipe_map m = pipe_map_of(f);
    lanes_x3k k;
    if (f->hash == SBFI_HASH_FMIX)
        lanes_x3_keys_fmix(&k, f->seed);
    else
        lanes_x3_keys(&k, f->seed);
    lv h[4];
    lanes_x3_block(&k, keys, (const uint64_t *)(const void *)lens, h, 4);
    for (int g = 0; g < 4; g++)
        pipe_map_put(&m, h[g], s->a + 8 * g, s->h2 + 8 * g, 0);
}
#  endif
#endif /* LANES */

/* (h1, h2) of keys [base, base + len) into the step: a[] = h1 (classic) or
 * block addresses, h2[]. */
PIPE_INLINE void pipe_hash(const pipe_ctx *c, const sbf_filter *f, const sbfi_keys *src,
                           size_t base, size_t len, pipe_step *s, const int classic,
                           const int hot)
{
    (void)hot; /* without lanes */
    if (SBFI_LIKELY(f->hash == SBFI_HASH_MURMUR3) && src->kind == SBFI_KEYS_U64) {
        pipe_stage(c, src->u64 + base, len, s->a, s->h2, classic);
        return;
    }
#if defined(LANES)
    /* 64-bit stages of u64 keys, fused (above): one line per stage */
    if (f->hash == SBFI_HASH_XXH3 && src->kind == SBFI_KEYS_U64 && !classic) {
        pipe_keys_ahead(src->u64 + base);
        if (hot)
            pipe_fused_u64(f, src->u64 + base, len, s, 0, SBFI_HASH_XXH3, f->xxh3_flip8);
        else
            pipe_fused_xxh3(f, src->u64 + base, len, s);
        return;
    }
    if (f->hash == SBFI_HASH_XXH64 && src->kind == SBFI_KEYS_U64 && !classic) {
        pipe_keys_ahead(src->u64 + base);
        if (hot)
            pipe_fused_u64(f, src->u64 + base, len, s, 0, SBFI_HASH_XXH64, 0);
        else
            pipe_fused_xxh64(f, src->u64 + base, len, s);
        return;
    }
    if (f->hash == SBFI_HASH_FMIX && src->kind == SBFI_KEYS_U64 && !classic) {
        pipe_keys_ahead(src->u64 + base);
        if (hot)
            pipe_fused_u64(f, src->u64 + base, len, s, 0, SBFI_HASH_FMIX, f->fmix_s);
        else
            pipe_fused_fmix(f, src->u64 + base, len, s);
        return;
    }
#endif
#if defined(LANES_X3_NATIVE)
    if ((f->hash == SBFI_HASH_XXH3 || f->hash == SBFI_HASH_FMIX) && len == PIPE_BATCH &&
        !classic) { /* strings, fused (the fmix stage's are XXH3's but for 8 bytes) */
        pipe_x3_bytes(f, src, base, s);
        return;
    }
#endif
    PIPE_ALIGN(64) uint64_t h1[PIPE_BATCH];
    uint64_t *const d1 = classic ? s->a : h1;
    const void *p[PIPE_BATCH];
    size_t l[PIPE_BATCH];
    const void *const *pp = NULL;
    const size_t *ll = NULL;
#if defined(__GNUC__)
    if (len == 0) /* never (a step has keys): tells gcc 12 that p, l are set */
        __builtin_unreachable();
#endif
    if (src->kind != SBFI_KEYS_U64)
        pipe_strings(src, base, len, p, l, &pp, &ll);
    if (f->hash == SBFI_HASH_MURMUR3) {
        f->kt->hash_bytes(pp, ll, len, f->seed, d1, s->h2);
    } else {
        /* a 64-bit stage: its lanes, then the (h1, h2) map */
        if (src->kind == SBFI_KEYS_U64)
            pipe_keys_ahead(src->u64 + base);
        if (f->hash == SBFI_HASH_XXH3) {
            if (src->kind == SBFI_KEYS_U64)
                f->kt->xxh3_u64(src->u64 + base, len, f->xxh3_flip8, d1);
            else
                f->kt->xxh3_bytes(pp, ll, len, f->seed, d1);
        } else if (f->hash == SBFI_HASH_FMIX) {
            if (src->kind == SBFI_KEYS_U64)
                f->kt->fmix_u64(src->u64 + base, len, f->fmix_s, d1);
            else
                f->kt->fmix_bytes(pp, ll, len, f->seed, d1);
        } else if (src->kind == SBFI_KEYS_U64) {
            f->kt->xxh64_u64(src->u64 + base, len, d1);
        } else {
            f->kt->xxh64_bytes(pp, ll, len, d1);
        }
#if defined(LANES)
        /* the map and the addresses in one vector pass */
        for (size_t j = len; j < PIPE_BATCH && (j % LANES) != 0; j++)
            d1[j] = 0;
        pipe_map_pass(f, d1, len, s, classic);
        return;
#else
        for (size_t j = 0; j < len; j++)
            sbfi_xxh64_pair(d1[j], &d1[j], &s->h2[j]);
#endif
    }
    if (classic)
        return;
    for (size_t j = len; j < PIPE_BATCH && (j & 7) != 0; j++)
        h1[j] = 0; /* whole vectors for pipe_address */
    pipe_address(c, h1, len, s->a);
}

/* Hashes a step; prefetches it too when `pf` (classic always: its
 * prefetch computes the bit indices). hot: the fused 64-bit stages inlined
 * (the loops of plain filters), else called out of line (the steps filled
 * before a loop, and SBF_CONCURRENT filters: inlined in those kernels too
 * they cost MurmurHash3's concurrent contains 2.5% more instructions). */
PIPE_INLINE void pipe_fill(const pipe_ctx *c, const sbf_filter *f,
                           const sbfi_keys *src, size_t base, size_t len,
                           pipe_step *s, const int fam, const int is_add, const int pf,
                           const int hot)
{
    pipe_hash(c, f, src, base, len, s, fam == SBFI_KERN_CLASSIC, hot);
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

/* ----------------------------------------------------------------- probe */

/* One key's add; returns whether it changed the filter (set a bit, or
 * raised a counter from 0): each add tells, from the words it reads anyway
 * (the blocked default asks the vector probe first, simd/pipe_ops.h). */
PIPE_INLINE int pipe_add_one(const pipe_ctx *c, const sbf_filter *f,
                             const pipe_step *s, size_t j, const int fam,
                             const int atomic)
{
    void *blk = (void *)(uintptr_t)s->a[j];
    const uint64_t h2 = s->h2[j];
    const uint32_t k = f->k;
    if (fam == SBFI_KERN_CLASSIC)
        return pipe_classic_add(f, s->a[j], h2, s->bit[j], pipe_classic_kp(f), atomic);
    if (atomic) {
        switch (fam) {
        case SBFI_KERN_BLOCKED: return pipe_blocked_add_atomic(c, blk, h2, k);
        case SBFI_KERN_SPLIT: return pipe_split_add_atomic(c, blk, h2, k);
        default: return pipe_counting_add_atomic(c, blk, h2, k);
        }
    }
    switch (fam) {
    case SBFI_KERN_BLOCKED: return pipe_blocked_add(c, blk, h2, k);
    case SBFI_KERN_SPLIT: return pipe_split_add(c, blk, h2); /* tests the words it loads */
    default: return pipe_counting_add(c, blk, h2, k);         /* the same */
    }
}

/* The block key j's query probes: the filter's, or for a concurrent filter
 * `copy` (64-byte aligned), filled with relaxed loads. */
PIPE_INLINE const void *pipe_query_block(const sbf_filter *f, const pipe_step *s, size_t j,
                                         sbfi_u64_alias *copy, const int atomic)
{
    const void *blk = (const void *)(uintptr_t)s->a[j];
    if (!atomic)
        return blk;
    pipe_copy_block_atomic(copy, (const uint64_t *)blk, f->block_bytes / 8);
    return copy;
}

/* One key's query. */
PIPE_INLINE int pipe_contains_one(const pipe_ctx *c, const sbf_filter *f,
                                  const pipe_step *s, size_t j, const int fam,
                                  const int atomic)
{
    const uint64_t h2 = s->h2[j];
    if (fam == SBFI_KERN_CLASSIC)
        return pipe_classic_contains(f, s->a[j], h2, s->bit[j], pipe_classic_kp(f), atomic);
    PIPE_ALIGN(64) sbfi_u64_alias copy[8];
    const void *blk = pipe_query_block(f, s, j, copy, atomic);
    switch (fam) {
    case SBFI_KERN_BLOCKED: return pipe_blocked_contains(c, blk, h2);
    case SBFI_KERN_SPLIT: return pipe_split_contains(c, blk, h2);
    default: return pipe_counting_contains(c, blk, h2);
    }
}

#if defined(PIPE_HAVE_MISS)
/* One key's query as the lanes that miss (0: it may be present), for an
 * ISA that answers a step's queries in one pass (PIPE_HAVE_MISS:
 * pipe_*_miss and pipe_miss_answers). */
PIPE_INLINE uint16_t pipe_miss_one(const pipe_ctx *c, const sbf_filter *f,
                                   const pipe_step *s, size_t j, const int fam,
                                   const int atomic)
{
    PIPE_ALIGN(64) sbfi_u64_alias copy[8];
    const void *blk = pipe_query_block(f, s, j, copy, atomic);
    switch (fam) {
    case SBFI_KERN_BLOCKED: return pipe_blocked_miss(c, blk, s->h2[j]);
    case SBFI_KERN_SPLIT: return pipe_split_miss(c, blk, s->h2[j]);
    default: return pipe_counting_miss(c, blk, s->h2[j]);
    }
}
/* the query of key j in pipe_probe's loops */
#  define PIPE_QUERY(j) (miss[j] = pipe_miss_one(c, f, s, j, fam, atomic))
#else
#  define PIPE_QUERY(j) (out[j] = (uint8_t)pipe_contains_one(c, f, s, j, fam, atomic))
#endif

/* Whether a is the address of one of f's blocks (assertions). */
PIPE_INLINE int pipe_block_ok(const sbf_filter *f, uint64_t a)
{
    return a - (uintptr_t)f->words < f->bytes &&
           (a - (uintptr_t)f->words) % f->block_bytes == 0;
}

/* is_add of the functions below: a query, an add, or an add that also
 * writes out[j] = whether key j changed the filter (its own instance, so
 * the adds that do not ask pay nothing). */
#define PIPE_ADD 1
#define PIPE_ADD_TELL 2

/* Probes step s; prefetches the blocks of the next step (nx, nlen <= len)
 * on the way, one per key, so no separate prefetch loop is needed. Returns
 * the keys that changed the filter (add) or may be present (contains);
 * out[j] is the answer (contains) or whether key j changed the filter
 * (PIPE_ADD_TELL). cached: called by pipe_run's loop for filters the
 * caches hold (its queries may take an unrolled loop). */
PIPE_INLINE size_t pipe_probe(const pipe_ctx *c, const sbf_filter *f,
                              const pipe_step *s, size_t len, uint8_t *out,
                              const pipe_step *nx, size_t nlen,
                              const int fam, const int is_add, const int atomic,
                              const int cached)
{
    size_t count = 0;
    if (!is_add && fam != SBFI_KERN_CLASSIC) {
        /* queries: the answers first, counted after in a second pass over
         * them (the compiler vectorizes it; two setcc and an add per key in
         * the probe loop measured slower), or, with PIPE_HAVE_MISS, each
         * key's missing lanes first, then the answers and their count from
         * them (simd/avx512.c). Classic keeps its count in the
         * loop below: its early exits leave the setcc cheap next to them.
         * Two keys per 512-bit probe (k <= 8: lanes 0-7 and 8-15, vpermt2d
         * over both blocks, or split blocks joined by vinserti64x4) cut an
         * instruction a key and measured slower (peer driver, 16 KiB,
         * AVX-512: blocked 1.03 -> 1.15, split-block 0.95 -> 1.06 ns/key);
         * so did split-block masks made for a whole step when it is hashed,
         * two keys per multiply, leaving a load and a vptest per key in this
         * loop (0.93 -> 1.05). */
#if defined(PIPE_HAVE_MISS)
        _Static_assert(PIPE_BATCH <= 32, "pipe_miss_answers answers 32 keys at most");
        PIPE_ALIGN(64) uint16_t miss[PIPE_BATCH];
#endif
        if (cached && nlen == 0) {
            /* a filter the caches hold, not prefetched: unrolled 8 times
             * (peer driver, 16 KiB, AVX-512, ns/key: blocked 1.03 -> 0.98,
             * split-block 0.95 -> 0.88; 4 times 1.00 / 0.89). Not with the
             * prefetch: blocked at 8 MiB went 1.26 -> 2.9; nor in the ring
             * of pipe_run's deep filters, whose loop it slowed at 1 GiB
             * (split-block 3.8 -> 5.1). The text of every ISA file grows
             * about 8%. */
#if defined(__GNUC__) && !defined(__clang__)
#  pragma GCC unroll 8
#endif
            for (size_t j = 0; j < len; j++) {
                SBFI_ASSERT(pipe_block_ok(f, s->a[j]));
                PIPE_QUERY(j);
            }
        } else {
#define PIPE_QUERY_PREFETCHING                                       \
            for (size_t j = 0; j < len; j++) {                       \
                if (j < nlen)                                        \
                    SBFI_PREFETCH((const void *)(uintptr_t)nx->a[j]); \
                SBFI_ASSERT(pipe_block_ok(f, s->a[j]));              \
                PIPE_QUERY(j);                                       \
            }
#if defined(PIPE_HAVE_NARROW)
            /* the ISA's two query forms (c->narrow) each in a loop of its
             * own: one test a step, not one a key (the cached loop above
             * gets the same from the compiler's unswitching) */
            if (fam != SBFI_KERN_SPLIT && c->narrow) {
                PIPE_QUERY_PREFETCHING
            } else
#endif
            {
                PIPE_QUERY_PREFETCHING
            }
#undef PIPE_QUERY_PREFETCHING
        }
#if defined(PIPE_HAVE_MISS)
        return pipe_miss_answers(miss, len, out);
#else
        for (size_t j = 0; j < len; j++)
            count += out[j];
        return count;
#endif
    }
    for (size_t j = 0; j < len; j++) {
        if (fam != SBFI_KERN_CLASSIC && j < nlen) {
            if (is_add)
                SBFI_PREFETCH_W((const void *)(uintptr_t)nx->a[j]);
            else
                SBFI_PREFETCH((const void *)(uintptr_t)nx->a[j]);
        }
        SBFI_ASSERT(fam == SBFI_KERN_CLASSIC || pipe_block_ok(f, s->a[j]));
        if (is_add) {
            const int r = pipe_add_one(c, f, s, j, fam, atomic);
            count += (size_t)r;
            if (is_add == PIPE_ADD_TELL)
                out[j] = (uint8_t)r;
        } else {
            const int r = pipe_contains_one(c, f, s, j, fam, atomic);
            count += (size_t)r;
            out[j] = (uint8_t)r;
        }
    }
    return count;
}

#undef PIPE_QUERY

/* ------------------------------------------------------------------- run */

/* How many steps ahead of the probe a block is prefetched: one step
 * (PIPE_BATCH keys) for a filter the caches hold, PIPE_DEPTH_MAX steps
 * beyond them, where DRAM wants more misses in flight than one step gives.
 * Peer driver (../shared/peers), 1 GiB, AVX-512, absent keys, ns/key: the
 * floor loop is 3.3 with 128 lines in flight, 5.0 with 32; batched contains
 * (blocked, split-block) was 6.0 / 5.8 at one step of 32 keys, 3.9 / 3.8
 * at three, 4.0 / 3.9 at four and six (Boost's bulk lookup 4.7); steps of
 * 64 or 128 keys instead of a deeper ring measured 4.2 and 4.1 and slowed
 * L1/L2 filters by 5%. Measured again against the sliding-window floor on
 * the filter's own bytes (bench/bench_roof.c's loop, d = 128; same process,
 * 1 GiB, 100% huge pages in both, AVX-512, ratio of p10s): depth 3 gives
 * blocked 1.07-1.10, split-block 1.03-1.05, blocked-xxh3 1.16-1.17,
 * split-block-xxh3 1.11-1.13; depth 2 1.23-1.29, 4 the same as 3, 6
 * 1.22-1.25, 8 1.26-1.29; steps of 8 keys 12 deep 1.25-1.31, of 16 keys 6
 * deep 1.14-1.16; a step's 32 prefetches issued when it is hashed (not one
 * per probe) 1.33-1.37; step s+depth hashed in parts of 8 keys between the
 * probes of step s 1.24 (of 16: no change); the prefetch after the probe,
 * or prefetchnta: no change; XXH3 without pipe_keys_ahead 1.14-1.19.
 * With the XXH3 stage fused (pipe_fused_u64; same measure, a loaded VM,
 * base and fused builds alternated): blocked-xxh3 1.15-1.17 -> 1.06-1.09,
 * split-block-xxh3 1.10-1.11 -> 1.03-1.04, MurmurHash3's within the
 * spread (split-block 1.05-1.06, blocked 1.08-1.12).
 * Where blocked's last 13-16% goes (1 GiB, 4M keys timed in windows of
 * 256K, each followed by bench/bench_roof.c's loop at d = 128 on the same
 * bytes, p10 of windows, builds alternated, loaded VM): the stage replaced
 * by a copy of the key (no hash) 1.11-1.14 (one run 1.21) against
 * 1.16-1.18; the probe replaced by a scalar test of the block's first word
 * 1.07-1.09 against 1.13-1.14: most of it is the vector probe after each
 * load. Tried, slower or no change: pipe_probe's loop unrolled twice
 * (1.14-1.16 against 1.13), two keys per 512-bit probe for k <= 8
 * (vpermt2d over both blocks, one multiply: 1.16-1.18 against 1.14-1.15),
 * the bit's mask made before the load (vprolvd of 1s) instead of rotating
 * the word after it (1.14-1.16 against 1.13-1.16). The roofline's loop
 * itself slows with work added per key: 8 independent adds +4%, 16 +9%. */
#define PIPE_DEPTH_MAX 3
#define PIPE_DEEP_BYTES ((size_t)64 << 20)
/* A filter of at most PIPE_PF_MIN_BYTES is not prefetched while it is
 * queried: every x86 L2 of the last decade holds it, and the prefetch (a
 * load of the address and the prefetch) costs more than it hides. Peer
 * driver, AVX-512, batched contains, ns/key (blocked, split-block): 16 KiB
 * 1.15 / 1.05 -> 1.07 / 0.99; 256 KiB 1.16 / 1.05 -> 1.10 / 0.99. Adds keep
 * it (a prefetch for writing: blocked adds ran 3% slower without). */
#ifndef PIPE_PF_MIN_BYTES
#  define PIPE_PF_MIN_BYTES ((size_t)256 << 10)
#endif
#define PIPE_PF_NEXT(f) ((f)->bytes > PIPE_PF_MIN_BYTES)

PIPE_INLINE unsigned pipe_depth(const sbf_filter *f)
{
    return f->bytes >= PIPE_DEEP_BYTES ? PIPE_DEPTH_MAX : 1;
}

/* Steps s+1 .. s+depth are hashed before step s is probed (a ring of
 * depth + 1 steps); the blocks of step s+depth are prefetched while step s
 * is probed, and the first depth steps when they are filled. */
PIPE_INLINE size_t pipe_run(const sbf_filter *f, const sbfi_keys *src, size_t n,
                            uint8_t *out, const int fam, const int is_add,
                            const int atomic)
{
    pipe_ctx c;
    pipe_step st[PIPE_DEPTH_MAX + 1];
    uint8_t sink[PIPE_BATCH];
    size_t count = 0;
    if (n == 0)
        return 0;
    pipe_ctx_init(&c, f);
    const size_t nsteps = (n + PIPE_BATCH - 1) / PIPE_BATCH;
    const unsigned depth = pipe_depth(f), ring = depth + 1;
#define PIPE_STEP_LEN(s) ((s) >= nsteps ? 0 : (n - (s) * PIPE_BATCH < PIPE_BATCH ? \
                                               n - (s) * PIPE_BATCH : PIPE_BATCH))
    if (depth == 1 && is_add != PIPE_ADD_TELL) {
        /* the caches hold the filter: two steps, the loop as it was (the
         * ring's bookkeeping costs 1-2 instructions per key: bench-check's
         * +2-4%); adds that tell per key take the ring (a second copy of
         * this loop would add 16 KB of code per kernel) */
        size_t len = PIPE_STEP_LEN(0), cur1 = 0;
        pipe_fill(&c, f, src, 0, len, &st[0], fam, is_add, 1, 0);
        for (size_t base = 0; base < n; base += PIPE_BATCH) {
            const size_t next = base + PIPE_BATCH;
            const size_t nlen = next >= n ? 0
                              : (n - next < PIPE_BATCH ? n - next : PIPE_BATCH);
            if (nlen)
                pipe_fill(&c, f, src, next, nlen, &st[cur1 ^ 1], fam, is_add, 0, !atomic);
            count += pipe_probe(&c, f, &st[cur1], len, out ? out + base : sink,
                                &st[cur1 ^ 1], is_add || PIPE_PF_NEXT(f) ? nlen : 0, fam,
                                is_add, atomic, 1);
            cur1 ^= 1;
            len = nlen;
        }
        return count;
    }
    for (size_t s = 0; s < depth && s < nsteps; s++)
        pipe_fill(&c, f, src, s * PIPE_BATCH, PIPE_STEP_LEN(s), &st[s], fam, is_add, 1, 0);
    unsigned cur = 0, ahead = depth; /* ring slots of steps s and s + depth */
    for (size_t s = 0; s < nsteps; s++) {
        const size_t alen = PIPE_STEP_LEN(s + depth);
        if (alen)
            pipe_fill(&c, f, src, (s + depth) * PIPE_BATCH, alen, &st[ahead], fam, is_add, 0,
                      !atomic);
        count += pipe_probe(&c, f, &st[cur], PIPE_STEP_LEN(s),
                            out ? out + s * PIPE_BATCH : sink, &st[ahead], alen, fam,
                            is_add, atomic, 0);
        cur = cur + 1 == ring ? 0 : cur + 1;
        ahead = ahead + 1 == ring ? 0 : ahead + 1;
    }
#undef PIPE_STEP_LEN
    return count;
}

/* The batch entries of the ops (simd/pipe_table.h): add (the keys that
 * changed the filter; changed[i] too when changed is not NULL) and
 * contains, per kernel family, plain and SBF_CONCURRENT (atomic). Each line
 * below defines the function it names. */
#define PIPE_ADD_BATCH(name, fam, atomic)                                      \
    static size_t name(sbf_filter *f, const sbfi_keys *keys, size_t n,         \
                       uint8_t *changed)                                       \
    {                                                                          \
        if (changed != NULL)                                                   \
            return pipe_run(f, keys, n, changed, fam, PIPE_ADD_TELL, atomic);  \
        return pipe_run(f, keys, n, NULL, fam, PIPE_ADD, atomic);              \
    }
#define PIPE_CONTAINS_BATCH(name, fam, atomic)                                 \
    static size_t name(const sbf_filter *f, const sbfi_keys *keys, size_t n,   \
                       uint8_t *out)                                           \
    {                                                                          \
        return pipe_run(f, keys, n, out, fam, 0, atomic);                      \
    }

PIPE_ADD_BATCH(add_batch_classic, SBFI_KERN_CLASSIC, 0)
PIPE_ADD_BATCH(add_batch_blocked, SBFI_KERN_BLOCKED, 0)
PIPE_ADD_BATCH(add_batch_split, SBFI_KERN_SPLIT, 0)
PIPE_ADD_BATCH(add_batch_counting, SBFI_KERN_COUNTING, 0)
PIPE_CONTAINS_BATCH(contains_batch_classic, SBFI_KERN_CLASSIC, 0)
PIPE_CONTAINS_BATCH(contains_batch_blocked, SBFI_KERN_BLOCKED, 0)
PIPE_CONTAINS_BATCH(contains_batch_split, SBFI_KERN_SPLIT, 0)
PIPE_CONTAINS_BATCH(contains_batch_counting, SBFI_KERN_COUNTING, 0)
PIPE_ADD_BATCH(add_batch_classic_atomic, SBFI_KERN_CLASSIC, 1)
PIPE_ADD_BATCH(add_batch_blocked_atomic, SBFI_KERN_BLOCKED, 1)
PIPE_ADD_BATCH(add_batch_split_atomic, SBFI_KERN_SPLIT, 1)
PIPE_ADD_BATCH(add_batch_counting_atomic, SBFI_KERN_COUNTING, 1)
PIPE_CONTAINS_BATCH(contains_batch_classic_atomic, SBFI_KERN_CLASSIC, 1)
PIPE_CONTAINS_BATCH(contains_batch_blocked_atomic, SBFI_KERN_BLOCKED, 1)
PIPE_CONTAINS_BATCH(contains_batch_split_atomic, SBFI_KERN_SPLIT, 1)
PIPE_CONTAINS_BATCH(contains_batch_counting_atomic, SBFI_KERN_COUNTING, 1)

#endif /* SBFI_PIPELINE_H */
