/*
 * The scalar reference kernels: the definition of correct for every layout.
 * Every other kernel must leave the same bytes and give the same answers.
 *
 * Batched forms are software-pipelined: hash a batch of SBFI_BATCH keys and
 * prefetch their blocks, then probe the previous batch while those loads
 * are in flight.
 */
#include "sbf_internal.h"

/* The SBF_CONCURRENT per-key operations below stay whole functions, called
 * by the one-key entries: inlined into them, gcc split them (partial
 * inlining) and the concurrent split-block add took 6 instructions more
 * (bench-check). */
#if defined(__GNUC__)
#  define SCALAR_OP static __attribute__((noinline))
#else
#  define SCALAR_OP static
#endif

/* ------------------------------------------------------------- per key */

static int add_hashed_classic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    int changed = 0;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        const uint64_t bit = UINT64_C(1) << (b & 63);
        changed |= (f->words[b >> 6] & bit) == 0;
        f->words[b >> 6] |= bit;
        c += h2;
    }
    return changed;
}

static int contains_hashed_classic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        if ((f->words[b >> 6] & (UINT64_C(1) << (b & 63))) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

static int add_hashed_blocked(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    uint64_t *blk = sbfi_block_ptr(f, h1);
    uint64_t m[8], missing = 0;
    sbfi_blocked_mask(f->salt, h2, f->k, m);
    for (int w = 0; w < 8; w++) {
        missing |= m[w] & ~blk[w];
        blk[w] |= m[w];
    }
    return missing != 0;
}

/* The queries are include/simdbloom_layout.h's portable probes
 * (sbf__blocked_has ...: no early exit, a negative key's first clear bit is
 * at an unpredictable position, and the mispredicted branch costs more than
 * the k tests), which the inline header's portable path runs too. */
static int contains_hashed_blocked(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return sbf__blocked_has(sbfi_block_ptr(f, h1), f->salt, f->k, h2);
}

static int add_hashed_split(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    uint32_t *blk = (uint32_t *)sbfi_block_ptr(f, h1);
    uint32_t m[16], missing = 0;
    sbfi_split_mask(f->salt, h2, f->k, m);
    for (uint32_t w = 0; w < f->k; w++) {
        missing |= m[w] & ~blk[w];
        blk[w] |= m[w];
    }
    return missing != 0;
}

static int contains_hashed_split(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return sbf__split_has(sbfi_block_ptr(f, h1), f->salt, f->k, h2);
}

/* Each distinct counter of the key once: walk the set bits of its mask. */
static int add_hashed_counting(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    unsigned char *blk = (unsigned char *)sbfi_block_ptr(f, h1);
    uint64_t m[2];
    int changed = 0;
    sbfi_counting_mask(f->salt, h2, f->k, m);
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = m[half]; bits; bits &= bits - 1) {
            const uint32_t c = (uint32_t)(half * 64 + __builtin_ctzll(bits));
            const unsigned v = sbfi_nibble(blk, c);
            changed |= v == 0;
            if (v < SBFI_COUNTER_MAX)
                blk[c >> 1] = (unsigned char)(blk[c >> 1] + (1u << SBFI_NIB_SHIFT(c)));
        }
    }
    return changed;
}

static int contains_hashed_counting(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return sbf__counting_has(sbfi_block_ptr(f, h1), f->salt, f->k, h2);
}

/* Called by sbf_remove after sbfi_contains_hashed said "maybe". */
void sbfi_counting_remove(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    unsigned char *blk = (unsigned char *)sbfi_block_ptr(f, h1);
    uint64_t m[2];
    sbfi_counting_mask(f->salt, h2, f->k, m);
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = m[half]; bits; bits &= bits - 1) {
            const uint32_t c = (uint32_t)(half * 64 + __builtin_ctzll(bits));
            const unsigned v = sbfi_nibble(blk, c);
            SBFI_ASSERT(v > 0); /* sbf_remove checked the key is "maybe" */
            if (v > 0 && v < SBFI_COUNTER_MAX)
                blk[c >> 1] = (unsigned char)(blk[c >> 1] - (1u << SBFI_NIB_SHIFT(c)));
        }
    }
}

/* ------------------------------------------- SBF_CONCURRENT, per key
 *
 * The same bits as above, set with word fetch-or (counters: CAS of a whole
 * word, saturating with the SWAR of sbf_internal.h) and read with relaxed
 * atomic loads. The return of an add is "some bit/counter was clear before",
 * exactly as the plain kernels say, from this thread's view.
 */

SCALAR_OP int add_hashed_classic_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    int changed = 0;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        const uint64_t bit = UINT64_C(1) << (b & 63);
        uint64_t *w = &f->words[b >> 6];
        if ((__atomic_load_n(w, __ATOMIC_RELAXED) & bit) == 0)
            changed |= (__atomic_fetch_or(w, bit, __ATOMIC_RELAXED) & bit) == 0;
        c += h2;
    }
    return changed;
}

SBFI_ALWAYS_INLINE int contains_hashed_classic_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = sbfi_classic_bit(c, m);
        if ((__atomic_load_n(&f->words[b >> 6], __ATOMIC_RELAXED) &
             (UINT64_C(1) << (b & 63))) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

/* The counting increments: the low bit of each distinct counter's nibble. */
static void counting_inc(const sbf_filter *f, uint64_t h2, uint64_t inc[8])
{
    for (int w = 0; w < 8; w++)
        inc[w] = 0;
    SBF__FOR_POS(i, f->k) {
        const uint32_t c = sbfi_pos(f->salt, h2, i, SBFI_SHIFT_COUNTING);
        inc[c >> 4] |= UINT64_C(1) << ((c & 15) * SBFI_COUNTER_BITS);
    }
}

/* The plain probe of a block family on a copy of the block taken with
 * relaxed loads. */
SBFI_ALWAYS_INLINE int block_contains_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                 int (*probe)(const uint64_t *, const uint32_t *,
                                              uint32_t, uint64_t))
{
    _Alignas(64) sbfi_u64_alias copy[8];
    sbfi_load_words_atomic(copy, sbfi_block_ptr(f, h1), f->block_bytes / 8);
    return probe((const uint64_t *)copy, f->salt, f->k, h2);
}

SBFI_ALWAYS_INLINE int contains_hashed_blocked_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return block_contains_atomic(f, h1, h2, sbf__blocked_has);
}

SBFI_ALWAYS_INLINE int contains_hashed_split_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return block_contains_atomic(f, h1, h2, sbf__split_has);
}

SBFI_ALWAYS_INLINE int contains_hashed_counting_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return block_contains_atomic(f, h1, h2, sbf__counting_has);
}

SCALAR_OP int add_hashed_blocked_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    if (contains_hashed_blocked_atomic(f, h1, h2))
        return 0;
    uint64_t m[8];
    sbfi_blocked_mask(f->salt, h2, f->k, m);
    sbfi_or_words_atomic(sbfi_block_ptr(f, h1), m, 8);
    return 1;
}

/* The split-block bits as whole words: k/2 of them. */
SCALAR_OP int add_hashed_split_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    if (contains_hashed_split_atomic(f, h1, h2))
        return 0;
    uint32_t s[16];
    uint64_t m[8];
    sbfi_split_mask(f->salt, h2, f->k, s);
    for (uint32_t w = 0; w < f->k / 2; w++)
        m[w] = s[2 * w] | (uint64_t)s[2 * w + 1] << 32;
    sbfi_or_words_atomic(sbfi_block_ptr(f, h1), m, f->k / 2);
    return 1;
}

SCALAR_OP int add_hashed_counting_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const int present = contains_hashed_counting_atomic(f, h1, h2);
    uint64_t inc[8];
    counting_inc(f, h2, inc);
    sbfi_inc_words_atomic(sbfi_block_ptr(f, h1), inc);
    return !present;
}

void sbfi_counting_remove_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    uint64_t *blk = sbfi_block_ptr(f, h1);
    uint64_t dec[8];
    counting_inc(f, h2, dec);
    for (unsigned i = 0; i < 8; i++) {
        if (dec[i] == 0)
            continue;
        uint64_t old = __atomic_load_n(&blk[i], __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&blk[i], &old, sbfi_nib_dec(old, dec[i]),
                                            1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
    }
}

/* ------------------------------------------------------- hashed entries
 * One row per kernel family (the descriptor's `kernel`): no switch on the
 * layout. */

static const struct {
    sbfi_hashed_add_fn add, add_atomic;
    sbfi_hashed_contains_fn contains, contains_atomic;
} family[SBFI_NKERNELS] = {
    [SBFI_KERN_CLASSIC] = { add_hashed_classic, add_hashed_classic_atomic, contains_hashed_classic,
                            contains_hashed_classic_atomic },
    [SBFI_KERN_BLOCKED] = { add_hashed_blocked, add_hashed_blocked_atomic, contains_hashed_blocked,
                            contains_hashed_blocked_atomic },
    [SBFI_KERN_SPLIT] = { add_hashed_split, add_hashed_split_atomic, contains_hashed_split,
                          contains_hashed_split_atomic },
    [SBFI_KERN_COUNTING] = { add_hashed_counting, add_hashed_counting_atomic, contains_hashed_counting,
                             contains_hashed_counting_atomic },
};

int sbfi_add_hashed(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return family[f->lay->kernel].add(f, h1, h2);
}

int sbfi_contains_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return family[f->lay->kernel].contains(f, h1, h2);
}

int sbfi_add_hashed_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return family[f->lay->kernel].add_atomic(f, h1, h2);
}

int sbfi_contains_hashed_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return family[f->lay->kernel].contains_atomic(f, h1, h2);
}

/* ------------------------------------------------------------ single keys
 * The one-key entries of the ops (simd/pipe_table.h): the hash stage
 * (sbfi_key_hash, `hash` a constant) and the family's probe above. Each
 * line defines the two functions it names. */

#define SCALAR_KEY_PAIR(add_name, contains_name, add_op, contains_op, hash, count) \
    static int add_name(sbf_filter *f, const void *key, size_t len)            \
    {                                                                          \
        uint64_t h1, h2;                                                       \
        sbfi_key_hash(f, hash, key, len, &h1, &h2);                            \
        return count(f, add_op(f, h1, h2)); /* keys_added */                   \
    }                                                                          \
    static int contains_name(const sbf_filter *f, const void *key, size_t len) \
    {                                                                          \
        uint64_t h1, h2;                                                       \
        sbfi_key_hash(f, hash, key, len, &h1, &h2);                            \
        return contains_op(f, h1, h2);                                         \
    }

SCALAR_KEY_PAIR(add_key_classic_murmur3, contains_key_classic_murmur3,
                add_hashed_classic, contains_hashed_classic, SBFI_HASH_MURMUR3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_blocked_murmur3, contains_key_blocked_murmur3,
                add_hashed_blocked, contains_hashed_blocked, SBFI_HASH_MURMUR3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_split_murmur3, contains_key_split_murmur3,
                add_hashed_split, contains_hashed_split, SBFI_HASH_MURMUR3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_counting_murmur3, contains_key_counting_murmur3,
                add_hashed_counting, contains_hashed_counting, SBFI_HASH_MURMUR3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_classic_murmur3_atomic, contains_key_classic_murmur3_atomic,
                add_hashed_classic_atomic, contains_hashed_classic_atomic, SBFI_HASH_MURMUR3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_blocked_murmur3_atomic, contains_key_blocked_murmur3_atomic,
                add_hashed_blocked_atomic, contains_hashed_blocked_atomic, SBFI_HASH_MURMUR3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_split_murmur3_atomic, contains_key_split_murmur3_atomic,
                add_hashed_split_atomic, contains_hashed_split_atomic, SBFI_HASH_MURMUR3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_counting_murmur3_atomic, contains_key_counting_murmur3_atomic,
                add_hashed_counting_atomic, contains_hashed_counting_atomic, SBFI_HASH_MURMUR3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_classic_xxh64, contains_key_classic_xxh64,
                add_hashed_classic, contains_hashed_classic, SBFI_HASH_XXH64, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_blocked_xxh64, contains_key_blocked_xxh64,
                add_hashed_blocked, contains_hashed_blocked, SBFI_HASH_XXH64, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_split_xxh64, contains_key_split_xxh64,
                add_hashed_split, contains_hashed_split, SBFI_HASH_XXH64, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_counting_xxh64, contains_key_counting_xxh64,
                add_hashed_counting, contains_hashed_counting, SBFI_HASH_XXH64, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_classic_xxh64_atomic, contains_key_classic_xxh64_atomic,
                add_hashed_classic_atomic, contains_hashed_classic_atomic, SBFI_HASH_XXH64, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_blocked_xxh64_atomic, contains_key_blocked_xxh64_atomic,
                add_hashed_blocked_atomic, contains_hashed_blocked_atomic, SBFI_HASH_XXH64, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_split_xxh64_atomic, contains_key_split_xxh64_atomic,
                add_hashed_split_atomic, contains_hashed_split_atomic, SBFI_HASH_XXH64, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_counting_xxh64_atomic, contains_key_counting_xxh64_atomic,
                add_hashed_counting_atomic, contains_hashed_counting_atomic, SBFI_HASH_XXH64, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_classic_xxh3, contains_key_classic_xxh3,
                add_hashed_classic, contains_hashed_classic, SBFI_HASH_XXH3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_blocked_xxh3, contains_key_blocked_xxh3,
                add_hashed_blocked, contains_hashed_blocked, SBFI_HASH_XXH3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_split_xxh3, contains_key_split_xxh3,
                add_hashed_split, contains_hashed_split, SBFI_HASH_XXH3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_counting_xxh3, contains_key_counting_xxh3,
                add_hashed_counting, contains_hashed_counting, SBFI_HASH_XXH3, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_classic_xxh3_atomic, contains_key_classic_xxh3_atomic,
                add_hashed_classic_atomic, contains_hashed_classic_atomic, SBFI_HASH_XXH3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_blocked_xxh3_atomic, contains_key_blocked_xxh3_atomic,
                add_hashed_blocked_atomic, contains_hashed_blocked_atomic, SBFI_HASH_XXH3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_split_xxh3_atomic, contains_key_split_xxh3_atomic,
                add_hashed_split_atomic, contains_hashed_split_atomic, SBFI_HASH_XXH3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_counting_xxh3_atomic, contains_key_counting_xxh3_atomic,
                add_hashed_counting_atomic, contains_hashed_counting_atomic, SBFI_HASH_XXH3, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_classic_fmix, contains_key_classic_fmix,
                add_hashed_classic, contains_hashed_classic, SBFI_HASH_FMIX, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_blocked_fmix, contains_key_blocked_fmix,
                add_hashed_blocked, contains_hashed_blocked, SBFI_HASH_FMIX, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_split_fmix, contains_key_split_fmix,
                add_hashed_split, contains_hashed_split, SBFI_HASH_FMIX, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_counting_fmix, contains_key_counting_fmix,
                add_hashed_counting, contains_hashed_counting, SBFI_HASH_FMIX, sbfi_count_plain)
SCALAR_KEY_PAIR(add_key_classic_fmix_atomic, contains_key_classic_fmix_atomic,
                add_hashed_classic_atomic, contains_hashed_classic_atomic, SBFI_HASH_FMIX, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_blocked_fmix_atomic, contains_key_blocked_fmix_atomic,
                add_hashed_blocked_atomic, contains_hashed_blocked_atomic, SBFI_HASH_FMIX, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_split_fmix_atomic, contains_key_split_fmix_atomic,
                add_hashed_split_atomic, contains_hashed_split_atomic, SBFI_HASH_FMIX, sbfi_count_atomic)
SCALAR_KEY_PAIR(add_key_counting_fmix_atomic, contains_key_counting_fmix_atomic,
                add_hashed_counting_atomic, contains_hashed_counting_atomic, SBFI_HASH_FMIX, sbfi_count_atomic)

/* ------------------------------------------------------------- batches
 * The one pipeline (simd/pipeline.h) with the reference's probes as its
 * hooks: the scalar ISA's batches take the same steps, prefetches and hash
 * stage as every vector ISA's. */

typedef struct pipe_ctx {
    const uint32_t *salt;
    uintptr_t words;
    uint64_t nblocks;
    uint32_t log2_block, k, seed;
} pipe_ctx;

static inline void pipe_ctx_init_key(pipe_ctx *c, const sbf_filter *f)
{
    c->salt = f->salt;
    c->k = f->k;
}

static inline void pipe_ctx_init(pipe_ctx *c, const sbf_filter *f)
{
    pipe_ctx_init_key(c, f);
    c->words = (uintptr_t)f->words;
    c->nblocks = f->nblocks;
    c->log2_block = f->block_log2;
    c->seed = f->seed;
}

static inline void pipe_address(const pipe_ctx *c, const uint64_t *h1, size_t len,
                                uint64_t *a)
{
    for (size_t i = 0; i < len; i++)
        a[i] = c->words + (sbfi_block_index(h1[i], c->nblocks) << c->log2_block);
}

static inline void pipe_stage(const pipe_ctx *c, const uint64_t *keys, size_t len,
                              uint64_t *a, uint64_t *h2, int classic)
{
    for (size_t i = 0; i < len; i++) {
        uint64_t x1;
        sbfi_murmur3_u64(keys[i], c->seed, &x1, &h2[i]);
        a[i] = classic ? x1
                       : c->words + (sbfi_block_index(x1, c->nblocks) << c->log2_block);
    }
}

static inline void pipe_products(const pipe_ctx *c, uint64_t h2, uint32_t prod[16])
{
    for (uint32_t i = 0; i < SBFI_NSALT; i++)
        prod[i] = sbfi_lane32(h2, i) * c->salt[i];
}

static inline int pipe_blocked_contains(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return sbf__blocked_has((const uint64_t *)blk, c->salt, c->k, h2);
}

static inline int pipe_split_contains(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return sbf__split_has((const uint64_t *)blk, c->salt, c->k, h2);
}

static inline int pipe_counting_contains(const pipe_ctx *c, const void *blk, uint64_t h2)
{
    return sbf__counting_has((const uint64_t *)blk, c->salt, c->k, h2);
}

static inline int pipe_split_add(const pipe_ctx *c, void *blk, uint64_t h2)
{
    uint32_t *w = (uint32_t *)blk, m[16], miss = 0;
    sbfi_split_mask(c->salt, h2, c->k, m);
    for (uint32_t i = 0; i < c->k; i++) {
        miss |= m[i] & ~w[i];
        w[i] |= m[i];
    }
    return miss != 0;
}

/* The reference's blocked add: the key's mask, OR-ed in; whether a bit of
 * it was clear. */
#define PIPE_HAVE_BLOCKED_ADD 1
static inline int pipe_blocked_add(const pipe_ctx *c, void *blk, uint64_t h2, uint32_t k)
{
    uint64_t *w = (uint64_t *)blk, m[8], miss = 0;
    sbfi_blocked_mask(c->salt, h2, k, m);
    for (int i = 0; i < 8; i++) {
        miss |= m[i] & ~w[i];
        w[i] |= m[i];
    }
    return miss != 0;
}

#include "../simd/pipeline.h"

#include "../simd/pipe_table.h"

const sbfi_kernels sbfi_kernels_scalar = {
    SBFI_ID_SCALAR,
    .hash_u64 = sbfi_hash_u64_scalar,
    .ops = &pipe_ops, /* simd/pipe_table.h */
    /* hashes of many keys (src/lanes.c) */
    .hash_bytes = sbfi_hash_bytes_scalar,
    .xxh64_u64 = sbfi_xxh64_u64_scalar,
    .xxh64_bytes = sbfi_xxh64_bytes_scalar,
    .xxh3_u64 = sbfi_xxh3_u64_scalar,
    .xxh3_bytes = sbfi_xxh3_bytes_scalar,
    .fmix_u64 = sbfi_fmix_u64_scalar,
    .fmix_bytes = sbfi_fmix_bytes_scalar,
};
