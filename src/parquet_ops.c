/*
 * The parquet layout's hot paths: XXH64 (seed 0) of the key in the ISA
 * table's lanes (xxh64_u64, xxh64_bytes), mapped to (h1, h2) as TEAM.md
 * "Parquet as a layout" says, then the split-block family's probes with the
 * filter's salts (the spec's). Until the batch pipeline has an XXH64 hash
 * stage, batches are hashed here in lanes and probed here, scalar, each
 * block prefetched 16 keys ahead; concurrent filters use src/scalar.c's
 * atomic family functions.
 */
#include "sbf_internal.h"
#include "parquet_int.h"

#define PQ_CHUNK 1024u /* keys hashed per lane call */

/* The spec's block ((h >> 32) * z) >> 32 is the multiply-shift (h1 * z) >> 64
 * of h1 = h's high half in place; every 32-bit lane of h2 is the spec's
 * x = (uint32_t)h. */
static inline void pq_pair(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    *h1 = h & UINT64_C(0xffffffff00000000);
    *h2 = (uint64_t)(uint32_t)h * UINT64_C(0x100000001);
}

/* The spec's block of h: ((h >> 32) * z) >> 32, as 8 32-bit words. */
static inline uint32_t *pq_block(const sbf_filter *f, uint64_t h)
{
    const uint64_t b = ((h >> 32) * f->nblocks) >> 32;
    SBFI_ASSERT(b < f->nblocks && f->block_bytes == 32);
    return (uint32_t *)(void *)f->words + b * 8;
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

/* Plain filters: each block prefetched PQ_AHEAD keys before its probe. */
static size_t by_hash_plain(sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out,
                            int is_add)
{
    const uint32_t *salt = f->salt;
    size_t found = 0;
    for (size_t i = 0; i < n && i < PQ_AHEAD; i++)
        SBFI_PREFETCH(pq_block(f, h[i]));
    for (size_t i = 0; i < n; i++) {
        if (i + PQ_AHEAD < n)
            SBFI_PREFETCH(pq_block(f, h[i + PQ_AHEAD]));
        uint32_t *blk = pq_block(f, h[i]);
        if (is_add) {
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

/* n hashes: add them, or probe them into out (may be NULL). */
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
            sbfi_prefetch_hashed(f, h1[j], h2[j]);
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                (void)sbfi_add_hashed_atomic(f, h1[j], h2[j]);
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

static uint64_t hash_one(const sbf_filter *f, const void *key, size_t len)
{
    uint64_t h;
    if (len == 8) {
        uint64_t x;
        memcpy(&x, key, 8);
        f->kt->xxh64_u64(&x, 1, &h);
    } else {
        f->kt->xxh64_bytes(&key, &len, 1, &h);
    }
    return h;
}

static int add_key(sbf_filter *f, const void *key, size_t len)
{
    uint64_t h1, h2;
    pq_pair(hash_one(f, key, len), &h1, &h2);
    return f->flags & SBF_CONCURRENT ? sbfi_add_hashed_atomic(f, h1, h2)
                                     : sbfi_add_hashed(f, h1, h2);
}

static int contains_key(const sbf_filter *f, const void *key, size_t len)
{
    uint64_t h1, h2;
    pq_pair(hash_one(f, key, len), &h1, &h2);
    return f->flags & SBF_CONCURRENT ? sbfi_contains_hashed_atomic(f, h1, h2)
                                     : sbfi_contains_hashed(f, h1, h2);
}

static size_t u64_op(sbf_filter *f, const uint64_t *keys, size_t n, uint8_t *out, int is_add)
{
    uint64_t h[PQ_CHUNK];
    size_t found = 0;
    for (size_t at = 0; at < n; at += PQ_CHUNK) {
        const size_t m = n - at < PQ_CHUNK ? n - at : PQ_CHUNK;
        f->kt->xxh64_u64(keys + at, m, h);
        found += sbfi_pq_by_hash(f, h, m, out != NULL ? out + at : NULL, is_add);
    }
    return found;
}

static void add_u64(sbf_filter *f, const uint64_t *keys, size_t n)
{
    (void)u64_op(f, keys, n, NULL, 1);
}

static size_t contains_u64(const sbf_filter *f, const uint64_t *keys, size_t n, uint8_t *out)
{
    return u64_op((sbf_filter *)(uintptr_t)f, keys, n, out, 0);
}

void sbfi_pq_bind(sbf_filter *f)
{
    SBFI_ASSERT(f->lay->hash == SBFI_HASH_XXH64 && f->lay->kernel == SBFI_KERN_SPLIT);
    f->add1 = add_key; /* the atomic choice is made per call, from f->flags */
    f->contains1 = contains_key;
    f->addn = add_u64;
    f->containsn = contains_u64;
}

size_t sbfi_pq_batch(sbf_filter *f, const void *const *keys, const size_t *lens,
                     size_t n, uint8_t *out, int is_add)
{
    uint64_t h[PQ_CHUNK];
    size_t found = 0;
    for (size_t at = 0; at < n; at += PQ_CHUNK) {
        const size_t m = n - at < PQ_CHUNK ? n - at : PQ_CHUNK;
        f->kt->xxh64_bytes(keys + at, lens + at, m, h);
        found += sbfi_pq_by_hash(f, h, m, out != NULL ? out + at : NULL, is_add);
    }
    return found;
}
