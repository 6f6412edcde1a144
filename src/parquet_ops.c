/*
 * Parquet filters by hash: adds and probes of XXH64 values the caller
 * already has (src/parquet_hash.c), mapped to (h1, h2) as TEAM.md "Parquet
 * as a layout" says, then the split-block family's probes with the
 * filter's salts (the spec's). Keys (single, batches of every form) go
 * through the layout's XXH64 hash stage in the one batch pipeline
 * (simd/pipeline.h) and, one at a time, the ISA's add_key_split_xxh64 /
 * contains_key_split_xxh64 (and _atomic) entries (simd/pipe_key.h).
 */
#include "sbf_internal.h"
#include "parquet_int.h"

/* The spec's block ((h >> 32) * z) >> 32 is the multiply-shift (h1 * z) >> 64
 * of h1 = h's high half in place; every 32-bit lane of h2 is the spec's
 * x = (uint32_t)h. */
static inline void pq_pair(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    sbf_parquet_pair(h, h1, h2); /* include/simdbloom_inline.h */
}

/* block_check / block_insert of BloomFilter.md on x = (uint32_t)h, with the
 * filter's salts (the spec's); the same bits as the split family's. */
static inline int pq_check(const uint32_t *blk, const uint32_t *salt, uint32_t x)
{
    uint32_t all = 1;
    for (int i = 0; i < 8; i++)
        all &= blk[i] >> ((uint32_t)(x * salt[i]) >> SBFI_SHIFT_SPLIT);
    return (int)(all & 1);
}

static inline void pq_insert(uint32_t *blk, const uint32_t *salt, uint32_t x)
{
    for (int i = 0; i < 8; i++)
        blk[i] |= UINT32_C(1) << ((uint32_t)(x * salt[i]) >> SBFI_SHIFT_SPLIT);
}

#define PQ_AHEAD 16u /* blocks prefetched ahead of the probe */

/* The spec's block of h, ((h >> 32) * z) >> 32, in a bitset of z = nblocks
 * 32-byte blocks, as 8 32-bit words. */
static inline uint32_t *pq_block_of(uint32_t *words, uint64_t nblocks, uint64_t h)
{
    return words + (((h >> 32) * nblocks) >> 32) * 8;
}

/* Plain filters (and bare bitsets): each block prefetched PQ_AHEAD keys
 * before its probe. */
static size_t by_hash_words(uint32_t *words, uint64_t nb, const uint32_t *salt,
                            const uint64_t *h, size_t n, uint8_t *out, int is_add)
{
    size_t found = 0;
    for (size_t i = 0; i < n && i < PQ_AHEAD; i++)
        SBFI_PREFETCH(pq_block_of(words, nb, h[i]));
    for (size_t i = 0; i < n; i++) {
        if (i + PQ_AHEAD < n)
            SBFI_PREFETCH(pq_block_of(words, nb, h[i + PQ_AHEAD]));
        uint32_t *blk = pq_block_of(words, nb, h[i]);
        if (is_add) { /* found: how many keys changed the filter (keys_added) */
            found += (size_t)!pq_check(blk, salt, (uint32_t)h[i]);
            pq_insert(blk, salt, (uint32_t)h[i]);
            continue;
        }
        const int r = pq_check(blk, salt, (uint32_t)h[i]);
        found += (size_t)r;
        if (out != NULL)
            out[i] = (uint8_t)r;
    }
    return found;
}

static size_t by_hash_plain(sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out,
                            int is_add)
{
    SBFI_ASSERT(f->block_bytes == 32);
    return by_hash_words((uint32_t *)(void *)f->words, f->nblocks, f->salt, h, n, out, is_add);
}

size_t sbf_parquet_bitset_contains(const void *bitset, size_t bytes, const uint64_t *h,
                                   size_t n, uint8_t *out)
{
    if (bitset == NULL || (h == NULL && n != 0))
        return (size_t)SBF_E_NULL;
    if (bytes == 0 || bytes % 32 != 0 || bytes / 32 > UINT32_MAX ||
        (uintptr_t)bitset % sizeof(uint32_t) != 0)
        return (size_t)SBF_E_PARAM;
    const sbfi_layout *d = sbfi_layout_of(SBF_PARQUET);
    /* probes only read: the cast serves the shared loop */
    return by_hash_words((uint32_t *)(uintptr_t)bitset, bytes / 32, d->salt, h, n, out, 0);
}

/* n hashes: add them (returns how many changed the filter), or probe them
 * into out (may be NULL; returns how many may be present). */
size_t sbfi_pq_by_hash(sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out, int is_add)
{
    if (!(f->flags & SBF_CONCURRENT))
        return by_hash_plain(f, h, n, out, is_add);
    size_t found = 0; /* concurrent: the family's atomic operations */
    for (size_t base = 0; base < n; base += SBFI_BATCH) {
        const size_t len = n - base < SBFI_BATCH ? n - base : SBFI_BATCH;
        uint64_t h1[SBFI_BATCH], h2[SBFI_BATCH];
        for (size_t j = 0; j < len; j++) {
            pq_pair(h[base + j], &h1[j], &h2[j]);
            SBFI_PREFETCH(sbfi_block_ptr(f, h1[j]));
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                found += (size_t)sbfi_add_hashed_atomic(f, h1[j], h2[j]);
                continue;
            }
            const int r = sbfi_contains_hashed_atomic(f, h1[j], h2[j]);
            found += (size_t)r;
            if (out != NULL)
                out[base + j] = (uint8_t)r;
        }
    }
    return found;
}
