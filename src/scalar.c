/*
 * The scalar reference kernels: the definition of correct for every layout.
 * Every other kernel must leave the same bytes and give the same answers.
 *
 * Batched forms are software-pipelined: hash a batch of SBFI_BATCH keys and
 * prefetch their blocks, then probe the previous batch while those loads
 * are in flight.
 */
#include "sbf_internal.h"

/* ------------------------------------------------------------- per key */

static int classic_add(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    int changed = 0;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        const uint64_t bit = UINT64_C(1) << (b & 63);
        changed |= (f->words[b >> 6] & bit) == 0;
        f->words[b >> 6] |= bit;
        c += h2;
    }
    return changed;
}

static int classic_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        if ((f->words[b >> 6] & (UINT64_C(1) << (b & 63))) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

static int blocked_add(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    uint64_t *blk = sbfi_block_ptr(f, h1);
    uint64_t m[8], missing = 0;
    sbfi_blocked_mask(h2, f->k, m);
    for (int w = 0; w < 8; w++) {
        missing |= m[w] & ~blk[w];
        blk[w] |= m[w];
    }
    return missing != 0;
}

/* No early exit: a negative key's first clear bit is at an unpredictable
 * position, and the mispredicted branch costs more than the k tests. */
static int blocked_probe(const uint64_t *blk, uint32_t k, uint64_t h2)
{
    uint64_t all = 1;
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t p = sbfi_hashbits(h2, i, 23);
        all &= blk[p >> 6] >> (p & 63);
    }
    return (int)(all & 1);
}

static int blocked_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return blocked_probe(sbfi_block_ptr(f, h1), f->k, h2);
}

static int split_add(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    uint32_t *blk = (uint32_t *)sbfi_block_ptr(f, h1);
    uint32_t m[16], missing = 0;
    sbfi_split_mask(h2, f->k, m);
    for (uint32_t w = 0; w < f->k; w++) {
        missing |= m[w] & ~blk[w];
        blk[w] |= m[w];
    }
    return missing != 0;
}

static int split_probe(const uint64_t *blk64, uint32_t k, uint64_t h2)
{
    const uint32_t *blk = (const uint32_t *)blk64;
    uint32_t all = 1;
    for (uint32_t i = 0; i < k; i++)
        all &= blk[i] >> sbfi_hashbits(h2, i, 27);
    return (int)(all & 1);
}

static int split_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return split_probe(sbfi_block_ptr(f, h1), f->k, h2);
}

/* Each distinct counter of the key once: walk the set bits of its mask. */
static int counting_add(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    unsigned char *blk = (unsigned char *)sbfi_block_ptr(f, h1);
    uint64_t m[2];
    int changed = 0;
    sbfi_counting_mask(h2, f->k, m);
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = m[half]; bits; bits &= bits - 1) {
            const uint32_t c = (uint32_t)(half * 64 + __builtin_ctzll(bits));
            const unsigned v = sbfi_nibble(blk, c);
            changed |= v == 0;
            if (v < 15)
                blk[c >> 1] = (unsigned char)(blk[c >> 1] + (1u << ((c & 1u) * 4)));
        }
    }
    return changed;
}

static int counting_probe(const uint64_t *blk64, uint32_t k, uint64_t h2)
{
    const unsigned char *blk = (const unsigned char *)blk64;
    int all = 1;
    for (uint32_t i = 0; i < k; i++)
        all &= sbfi_nibble(blk, sbfi_hashbits(h2, i, 25)) != 0;
    return all;
}

static int counting_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    return counting_probe(sbfi_block_ptr(f, h1), f->k, h2);
}

/* Called by sbf_remove after sbfi_contains_hashed said "maybe". */
void sbfi_counting_remove(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    unsigned char *blk = (unsigned char *)sbfi_block_ptr(f, h1);
    uint64_t m[2];
    sbfi_counting_mask(h2, f->k, m);
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = m[half]; bits; bits &= bits - 1) {
            const uint32_t c = (uint32_t)(half * 64 + __builtin_ctzll(bits));
            const unsigned v = sbfi_nibble(blk, c);
            SBFI_ASSERT(v > 0); /* sbf_remove checked the key is "maybe" */
            if (v > 0 && v < 15)
                blk[c >> 1] = (unsigned char)(blk[c >> 1] - (1u << ((c & 1u) * 4)));
        }
    }
}

/* ------------------------------------------------------- hashed entries */

int sbfi_add_hashed(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    switch (f->layout) {
    case SBF_CLASSIC: return classic_add(f, h1, h2);
    case SBF_BLOCKED: return blocked_add(f, h1, h2);
    case SBF_SPLIT_BLOCK: return split_add(f, h1, h2);
    default: return counting_add(f, h1, h2);
    }
}

int sbfi_contains_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    switch (f->layout) {
    case SBF_CLASSIC: return classic_contains(f, h1, h2);
    case SBF_BLOCKED: return blocked_contains(f, h1, h2);
    case SBF_SPLIT_BLOCK: return split_contains(f, h1, h2);
    default: return counting_contains(f, h1, h2);
    }
}

void sbfi_prefetch_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    if (f->layout != SBF_CLASSIC) {
        SBFI_PREFETCH(sbfi_block_ptr(f, h1));
        return;
    }
    /* Classic: the first few of the k lines (each costs a division). */
    const uint32_t kp = f->k < 4 ? f->k : 4;
    uint64_t c = h1;
    for (uint32_t i = 0; i < kp; i++) {
        SBFI_PREFETCH(&f->words[((c & (uint64_t)INT64_MAX) % f->bits) >> 6]);
        c += h2;
    }
}

/* ------------------------------------------- SBF_CONCURRENT, per key
 *
 * The same bits as above, set with word fetch-or (counters: CAS of a whole
 * word, saturating with the SWAR of sbf_internal.h) and read with relaxed
 * atomic loads. The return of an add is "some bit/counter was clear before",
 * exactly as the plain kernels say, from this thread's view.
 */

static int classic_add_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    int changed = 0;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        const uint64_t bit = UINT64_C(1) << (b & 63);
        uint64_t *w = &f->words[b >> 6];
        if ((__atomic_load_n(w, __ATOMIC_RELAXED) & bit) == 0)
            changed |= (__atomic_fetch_or(w, bit, __ATOMIC_RELAXED) & bit) == 0;
        c += h2;
    }
    return changed;
}

static int classic_contains_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t m = f->bits;
    uint64_t c = h1;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        if ((__atomic_load_n(&f->words[b >> 6], __ATOMIC_RELAXED) &
             (UINT64_C(1) << (b & 63))) == 0)
            return 0;
        c += h2;
    }
    return 1;
}

/* The key's bits as whole words: blocked 8 words; split-block k/2 words. */
static unsigned key_words(const sbf_filter *f, uint64_t h2, uint64_t m[8])
{
    if (f->layout == SBF_BLOCKED) {
        sbfi_blocked_mask(h2, f->k, m);
        return 8;
    }
    uint32_t s[16];
    sbfi_split_mask(h2, f->k, s);
    for (uint32_t w = 0; w < f->k / 2; w++)
        m[w] = s[2 * w] | (uint64_t)s[2 * w + 1] << 32;
    return f->k / 2;
}

/* The counting increments: the low bit of each distinct counter's nibble. */
static void counting_inc(const sbf_filter *f, uint64_t h2, uint64_t inc[8])
{
    for (int w = 0; w < 8; w++)
        inc[w] = 0;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint32_t c = sbfi_hashbits(h2, i, 25);
        inc[c >> 4] |= UINT64_C(1) << ((c & 15) * 4);
    }
}

int sbfi_add_hashed_atomic(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    if (f->layout == SBF_CLASSIC)
        return classic_add_atomic(f, h1, h2);
    uint64_t *blk = sbfi_block_ptr(f, h1);
    uint64_t m[8];
    const int present = sbfi_contains_hashed_atomic(f, h1, h2);
    if (f->layout == SBF_COUNTING) {
        counting_inc(f, h2, m);
        sbfi_inc_words_atomic(blk, m);
        return !present;
    }
    if (present)
        return 0;
    sbfi_or_words_atomic(blk, m, key_words(f, h2, m));
    return 1;
}

/* The plain probe on a copy of the block taken with relaxed loads. */
int sbfi_contains_hashed_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    if (f->layout == SBF_CLASSIC)
        return classic_contains_atomic(f, h1, h2);
    _Alignas(64) sbfi_u64_alias copy[8];
    sbfi_load_words_atomic(copy, sbfi_block_ptr(f, h1), f->block_bytes / 8);
    switch (f->layout) {
    case SBF_BLOCKED: return blocked_probe(copy, f->k, h2);
    case SBF_SPLIT_BLOCK: return split_probe(copy, f->k, h2);
    default: return counting_probe(copy, f->k, h2);
    }
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

/* ------------------------------------------------------------ single keys
 * Table entries: hash (the u64 path for 8-byte keys) and the layout's probe,
 * with no switch on the layout. */

#define KEY_ENTRIES(name, add_op, contains_op)                                 \
    static int add_key_##name(sbf_filter *f, const void *key, size_t len)     \
    {                                                                          \
        uint64_t h1, h2;                                                       \
        sbfi_hash_key(key, len, f->seed, &h1, &h2);                            \
        return add_op(f, h1, h2);                                              \
    }                                                                          \
    static int contains_key_##name(const sbf_filter *f, const void *key,       \
                                   size_t len)                                 \
    {                                                                          \
        uint64_t h1, h2;                                                       \
        sbfi_hash_key(key, len, f->seed, &h1, &h2);                            \
        return contains_op(f, h1, h2);                                         \
    }

KEY_ENTRIES(classic, classic_add, classic_contains)
KEY_ENTRIES(blocked, blocked_add, blocked_contains)
KEY_ENTRIES(split, split_add, split_contains)
KEY_ENTRIES(counting, counting_add, counting_contains)
KEY_ENTRIES(atomic, sbfi_add_hashed_atomic, sbfi_contains_hashed_atomic)

/* ------------------------------------------------------ batched, u64 keys */

typedef int (*op_fn)(sbf_filter *, uint64_t, uint64_t);

/* Pipeline: batch b+1 is hashed and prefetched before batch b is probed. */
static inline size_t pipeline(sbf_filter *f, const uint64_t *keys, size_t n,
                              uint8_t *out, int is_add, const int atomic)
{
    uint64_t h1[2][SBFI_BATCH], h2[2][SBFI_BATCH];
    size_t found = 0, cur = 0;
    size_t len = n < SBFI_BATCH ? n : SBFI_BATCH;
    sbfi_hash_u64_scalar(keys, len, f->seed, h1[0], h2[0]);
    for (size_t j = 0; j < len; j++)
        sbfi_prefetch_hashed(f, h1[0][j], h2[0][j]);
    for (size_t base = 0; base < n; base += SBFI_BATCH) {
        const size_t next = base + SBFI_BATCH;
        const size_t nlen = next >= n ? 0 : (n - next < SBFI_BATCH ? n - next : SBFI_BATCH);
        if (nlen) {
            sbfi_hash_u64_scalar(keys + next, nlen, f->seed, h1[cur ^ 1], h2[cur ^ 1]);
            for (size_t j = 0; j < nlen; j++)
                sbfi_prefetch_hashed(f, h1[cur ^ 1][j], h2[cur ^ 1][j]);
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                if (atomic)
                    sbfi_add_hashed_atomic(f, h1[cur][j], h2[cur][j]);
                else
                    sbfi_add_hashed(f, h1[cur][j], h2[cur][j]);
            } else {
                const int r = atomic ? sbfi_contains_hashed_atomic(f, h1[cur][j], h2[cur][j])
                                     : sbfi_contains_hashed(f, h1[cur][j], h2[cur][j]);
                found += (size_t)r;
                if (out)
                    out[base + j] = (uint8_t)r;
            }
        }
        cur ^= 1;
        len = nlen;
    }
    return found;
}

void sbfi_add_u64_scalar(sbf_filter *f, const uint64_t *keys, size_t n)
{
    (void)pipeline(f, keys, n, NULL, 1, 0);
}

size_t sbfi_contains_u64_scalar(const sbf_filter *f, const uint64_t *keys,
                                size_t n, uint8_t *out)
{
    /* The contains path never writes through f. */
    return pipeline((sbf_filter *)(uintptr_t)f, keys, n, out, 0, 0);
}

static void add_u64_atomic(sbf_filter *f, const uint64_t *keys, size_t n)
{
    (void)pipeline(f, keys, n, NULL, 1, 1);
}

static size_t contains_u64_atomic(const sbf_filter *f, const uint64_t *keys,
                                  size_t n, uint8_t *out)
{
    return pipeline((sbf_filter *)(uintptr_t)f, keys, n, out, 0, 1);
}

const sbfi_kernels sbfi_kernels_scalar = {
    SBFI_ID_SCALAR,
    .hash_u64 = sbfi_hash_u64_scalar,
    .add_u64 = { sbfi_add_u64_scalar, sbfi_add_u64_scalar, sbfi_add_u64_scalar,
                 sbfi_add_u64_scalar },
    .contains_u64 = { sbfi_contains_u64_scalar, sbfi_contains_u64_scalar,
                      sbfi_contains_u64_scalar, sbfi_contains_u64_scalar },
    /* single keys and SBF_CONCURRENT (issue 8) */
    .add_key = { add_key_classic, add_key_blocked, add_key_split, add_key_counting },
    .contains_key = { contains_key_classic, contains_key_blocked, contains_key_split,
                      contains_key_counting },
    .add_key_atomic = { add_key_atomic, add_key_atomic, add_key_atomic, add_key_atomic },
    .contains_key_atomic = { contains_key_atomic, contains_key_atomic, contains_key_atomic,
                             contains_key_atomic },
    .add_u64_atomic = { add_u64_atomic, add_u64_atomic, add_u64_atomic, add_u64_atomic },
    .contains_u64_atomic = { contains_u64_atomic, contains_u64_atomic, contains_u64_atomic,
                             contains_u64_atomic },
    /* hashes of many keys (src/lanes.c) */
    .hash_bytes = sbfi_hash_bytes_scalar,
    .xxh64_u64 = sbfi_xxh64_u64_scalar,
    .xxh64_bytes = sbfi_xxh64_bytes_scalar,
};
