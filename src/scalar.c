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
static int blocked_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint64_t *blk = sbfi_block_ptr(f, h1);
    uint64_t all = 1;
    for (uint32_t i = 0; i < f->k; i++) {
        const uint32_t p = sbfi_hashbits(h2, i, 23);
        all &= blk[p >> 6] >> (p & 63);
    }
    return (int)(all & 1);
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

static int split_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const uint32_t *blk = (const uint32_t *)sbfi_block_ptr(f, h1);
    uint32_t all = 1;
    for (uint32_t i = 0; i < f->k; i++)
        all &= blk[i] >> sbfi_hashbits(h2, i, 27);
    return (int)(all & 1);
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

static int counting_contains(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    const unsigned char *blk = (const unsigned char *)sbfi_block_ptr(f, h1);
    int all = 1;
    for (uint32_t i = 0; i < f->k; i++)
        all &= sbfi_nibble(blk, sbfi_hashbits(h2, i, 25)) != 0;
    return all;
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

/* ------------------------------------------------------ batched, u64 keys */

typedef int (*op_fn)(sbf_filter *, uint64_t, uint64_t);

/* Pipeline: batch b+1 is hashed and prefetched before batch b is probed. */
static inline size_t pipeline(sbf_filter *f, const uint64_t *keys, size_t n,
                              uint8_t *out, int is_add)
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
                sbfi_add_hashed(f, h1[cur][j], h2[cur][j]);
            } else {
                const int r = sbfi_contains_hashed(f, h1[cur][j], h2[cur][j]);
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
    (void)pipeline(f, keys, n, NULL, 1);
}

size_t sbfi_contains_u64_scalar(const sbf_filter *f, const uint64_t *keys,
                                size_t n, uint8_t *out)
{
    /* The contains path never writes through f. */
    return pipeline((sbf_filter *)(uintptr_t)f, keys, n, out, 0);
}

const sbfi_kernels sbfi_kernels_scalar = {
    SBFI_ID_SCALAR,
    .hash_u64 = sbfi_hash_u64_scalar,
    .add_u64 = { sbfi_add_u64_scalar, sbfi_add_u64_scalar, sbfi_add_u64_scalar,
                 sbfi_add_u64_scalar },
    .contains_u64 = { sbfi_contains_u64_scalar, sbfi_contains_u64_scalar,
                      sbfi_contains_u64_scalar, sbfi_contains_u64_scalar },
};
