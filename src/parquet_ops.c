/*
 * The parquet layout's hot paths: XXH64 (seed 0) of the key in the ISA
 * table's lanes (xxh64_u64, xxh64_bytes), mapped to (h1, h2) as TEAM.md
 * "Parquet as a layout" says, then the split-block family's probes with the
 * filter's salts (the spec's). Until the batch pipeline has an XXH64 hash
 * stage, batches are hashed here in lanes and probed with prefetch, one key
 * at a time (src/scalar.c's family functions).
 */
#include "sbf_internal.h"
#include "parquet_int.h"

#define PQ_CHUNK 256u /* keys hashed per lane call */

/* The spec's block ((h >> 32) * z) >> 32 is the multiply-shift (h1 * z) >> 64
 * of h1 = h's high half in place; every 32-bit lane of h2 is the spec's
 * x = (uint32_t)h. */
static inline void pq_pair(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    *h1 = h & UINT64_C(0xffffffff00000000);
    *h2 = (uint64_t)(uint32_t)h * UINT64_C(0x100000001);
}

/* n hashes: add them, or probe them into out (may be NULL). */
size_t sbfi_pq_by_hash(sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out, int is_add)
{
    const int atomic = (f->flags & SBF_CONCURRENT) != 0;
    size_t found = 0;
    for (size_t base = 0; base < n; base += SBFI_BATCH) {
        const size_t len = n - base < SBFI_BATCH ? n - base : SBFI_BATCH;
        uint64_t h1[SBFI_BATCH], h2[SBFI_BATCH];
        for (size_t j = 0; j < len; j++) {
            pq_pair(h[base + j], &h1[j], &h2[j]);
            sbfi_prefetch_hashed(f, h1[j], h2[j]);
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                (void)(atomic ? sbfi_add_hashed_atomic(f, h1[j], h2[j])
                              : sbfi_add_hashed(f, h1[j], h2[j]));
                continue;
            }
            const int r = atomic ? sbfi_contains_hashed_atomic(f, h1[j], h2[j])
                                 : sbfi_contains_hashed(f, h1[j], h2[j]);
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
