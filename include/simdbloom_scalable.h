/*
 * simdbloom_scalable.h: the scalable (growing) filter section of
 * simdbloom.h, for key sets whose size is not known in advance.
 *
 * Part of the one public header, not a header of its own: users write
 * #include <simdbloom.h>, which includes this file at its end. Included
 * alone it stops with #error.
 */
#ifndef SIMDBLOOM_SCALABLE_H_5D20C9E1
#define SIMDBLOOM_SCALABLE_H_5D20C9E1

#if !defined(SIMDBLOOM_H_8A31F0C2)
#  error "simdbloom_scalable.h is part of simdbloom.h: #include <simdbloom.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ---------------------------------------------------------- scalable filters
 * Almeida, Baquero, Preguica, Hutchison, "Scalable Bloom Filters" (2007): a
 * list of sub-filters. Sub-filter i (from 0) holds up to
 *     capacity_i = initial_n * growth^i        keys and is sized, by its
 * layout's exact formula (sbf_size), for the rate
 *     fpp_i = fpp * (1 - tightening) * tightening^i.
 * A key is in the filter when any sub-filter has it; a new key goes into the
 * newest sub-filter, and a new sub-filter is started when the newest holds
 * capacity_i keys. The rate of the whole is at most the sum of the
 * sub-filters' rates, fpp * (1 - tightening^n) < fpp for n sub-filters,
 * however many keys are added: the asked rate holds at every size, as
 * tests/test_scalable.c measures. tightening 0.5 with growth 2 is
 * RedisBloom's chain (the first sub-filter gets half the rate).
 *
 * Every sub-filter has the same layout and seed, so a key has one hash
 * (sbf_scalable_hash) whichever sub-filter it is probed in: batches hash
 * once and probe every sub-filter from the hashes. Layouts: the 1-bit ones
 * (classic, blocked, split-block, parquet); counting is SBF_E_UNSUPPORTED
 * (a remove would need to know the sub-filter).
 *
 * Thread safety as sbf_filter: any number of threads may query one
 * scalable filter at once; adds (which may start a sub-filter) and union
 * need exclusive access. A mapped one (sbf_scalable_map) is read-only.
 * File form: format version 3, doc/format.md.
 */
typedef struct sbf_scalable sbf_scalable;

/* Zero means "default" for every field but fpp: `sbf_scalable_params p = {0};` */
typedef struct sbf_scalable_params {
    int layout;          /* a 1-bit sbf_layout (0: classic, as sbf_params) */
    uint64_t initial_n;  /* capacity of the first sub-filter; 0: 1000 */
    double fpp;          /* the rate of the whole, in (0, 1) */
    uint32_t growth;     /* capacity ratio of successive sub-filters, 2..1024; 0: 2 */
    double tightening;   /* rate ratio, in (0, 1); 0: 0.5 */
    uint32_t seed;       /* as sbf_params.seed */
    uint32_t flags;      /* 0 (another bit: SBF_E_FLAGS) */
} sbf_scalable_params;

#define SBF_SCALABLE_MAX_FILTERS 64  /* sub-filters one scalable filter may have */

/*
 * A scalable filter with one empty sub-filter. Returns SBF_OK, SBF_E_NULL,
 * SBF_E_LAYOUT, SBF_E_UNSUPPORTED (counting), SBF_E_FPP, SBF_E_PARAM
 * (growth or tightening out of range), SBF_E_FLAGS, SBF_E_TOO_LARGE,
 * SBF_E_K, SBF_E_NOMEM, the forced-ISA errors of sbf_create. *out is NULL
 * on failure. sbf_scalable_free accepts NULL.
 */
SBF_API int sbf_scalable_create(sbf_scalable **out, const sbf_scalable_params *p);
SBF_API void sbf_scalable_free(sbf_scalable *s);

/*
 * Adds a key: 1 when it was new (no sub-filter had it; it is added to the
 * newest), 0 when a sub-filter had it already (a duplicate, or a false
 * positive), or SBF_E_NULL, SBF_E_READONLY (a mapping), and when a new
 * sub-filter cannot be made: SBF_E_TOO_LARGE (SBF_SCALABLE_MAX_FILTERS
 * reached, or the next size exceeds SBF_MAX_BITS), SBF_E_K, SBF_E_NOMEM
 * (the key is then not added).
 * sbf_scalable_contains: 1 may be present, 0 surely absent, SBF_E_NULL.
 */
SBF_API int sbf_scalable_add(sbf_scalable *s, const void *key, size_t len);
SBF_API int sbf_scalable_contains(const sbf_scalable *s, const void *key, size_t len);

/* The hash every sub-filter uses for a key: MurmurHash3_x64_128 with the
 * seed (sbf_murmur3_x64_128_batch); for the parquet layout the pair
 * sbf_parquet_pair makes of XXH64. keys[i] is lens[i] bytes (NULL only when
 * 0); u64 keys (keys_u64 non-NULL, keys and lens NULL) are their 8
 * little-endian bytes. Returns SBF_OK, SBF_E_NULL. Thread safe, also while
 * another thread adds to s (it reads only what creation fixed). */
SBF_API int sbf_scalable_hash(const sbf_scalable *s, const void *const *keys,
                              const size_t *lens, const uint64_t *keys_u64, size_t n,
                              uint64_t *h1, uint64_t *h2);

/*
 * Batches, in order: added[i] (when added is not NULL) is what
 * sbf_scalable_add would return for key i after keys 0..i-1 (a key repeated
 * within the batch is new once). Return the number of new keys, or an
 * error as size_t (sbf_is_error): SBF_E_NULL, SBF_E_READONLY, and the
 * growth errors of sbf_scalable_add, after which the keys before the one
 * that failed are added and added[] is written for them only.
 * The _hashes forms take sbf_scalable_hash's values (hash in one thread,
 * decide in another). contains: out[i] 1 or 0, returns the count present.
 */
SBF_API size_t sbf_scalable_add_batch(sbf_scalable *s, const void *const *keys,
                                      const size_t *lens, size_t n, uint8_t *added);
SBF_API size_t sbf_scalable_add_u64(sbf_scalable *s, const uint64_t *keys, size_t n,
                                    uint8_t *added);
SBF_API size_t sbf_scalable_add_hashes(sbf_scalable *s, const uint64_t *h1,
                                       const uint64_t *h2, size_t n, uint8_t *added);
SBF_API size_t sbf_scalable_contains_batch(const sbf_scalable *s, const void *const *keys,
                                           const size_t *lens, size_t n, uint8_t *out);
SBF_API size_t sbf_scalable_contains_u64(const sbf_scalable *s, const uint64_t *keys,
                                         size_t n, uint8_t *out);
SBF_API size_t sbf_scalable_contains_hashes(const sbf_scalable *s, const uint64_t *h1,
                                            const uint64_t *h2, size_t n, uint8_t *out);

/* What a scalable filter is and holds. */
struct sbf_scalable_info {
    int layout;
    uint32_t seed, growth, filters;  /* filters: sub-filters now */
    double fpp, tightening;          /* as created */
    uint64_t initial_n;
    uint64_t keys;        /* keys added (the adds that returned 1; after a
                             union, each sub-filter's estimate, summed) */
    uint64_t capacity;    /* keys the sub-filters take before the next starts */
    uint64_t bits;        /* sum of the sub-filters' bits */
    size_t bytes;         /* sum of their data bytes */
    double fpp_bound;     /* 1 - prod(1 - sbf_fpp_theory(sub i, its keys)):
                             the rate now, at most fpp */
};
/* Fills *out: SBF_OK or SBF_E_NULL. O(number of sub-filters). */
SBF_API int sbf_scalable_info(const sbf_scalable *s, struct sbf_scalable_info *out);
/* sbf_scalable_info's keys and fpp_bound; UINT64_MAX / NaN for NULL. */
SBF_API uint64_t sbf_scalable_count(const sbf_scalable *s);
SBF_API double sbf_scalable_fpp(const sbf_scalable *s);
/* Sub-filter i (0: the first, the oldest), read-only; NULL past the end. */
SBF_API const sbf_filter *sbf_scalable_filter(const sbf_scalable *s, uint32_t i);
/* Every byte s holds (sbf_memory_usage of its sub-filters and itself). */
SBF_API size_t sbf_scalable_memory_usage(const sbf_scalable *s);

/*
 * dst becomes the union of dst and src, made with the same parameters
 * (layout, seed, initial_n, fpp, growth, tightening): sub-filter i of each
 * is OR-ed (dst gains the sub-filters src has past its own). A sub-filter's
 * key count becomes its estimate from the bits (sbf_info's
 * est_cardinality), so fpp_bound stays honest when the two held the same
 * keys; two filters that each filled sub-filter i with different keys give
 * a sub-filter i with more keys than its capacity, and a fpp_bound above
 * fpp (it says so). Returns SBF_OK, SBF_E_NULL, SBF_E_READONLY,
 * SBF_E_INCOMPATIBLE, SBF_E_NOMEM (dst unchanged on every error).
 */
SBF_API int sbf_scalable_union(sbf_scalable *dst, const sbf_scalable *src);

/*
 * Files: format version 3 (doc/format.md): a 4096-byte header listing the
 * sub-filters, each a complete version-2 image at a page-aligned offset.
 * sbf_scalable_save is crash-safe as sbf_save (a temporary file renamed over
 * the target); sbf_scalable_serialize returns the same bytes (sbf_buffer_free).
 * Loaders check every header, sub-filter geometry against the parameters,
 * checksum and padding before returning (sbf_scalable_map with
 * SBF_MAP_NO_VERIFY reads headers only), and refuse with sbf_deserialize's
 * codes: SBF_E_TRUNCATED, SBF_E_TRAILING, SBF_E_FORMAT, SBF_E_VERSION (not
 * version 3: a plain filter's file), SBF_E_LAYOUT, SBF_E_K, SBF_E_TOO_LARGE,
 * SBF_E_ENDIAN, SBF_E_NOMEM, SBF_E_IO (files); *out NULL on failure.
 * A mapping is read-only: adds return SBF_E_READONLY.
 */
SBF_API int sbf_scalable_serialize(const sbf_scalable *s, void **buf, size_t *len);
SBF_API int sbf_scalable_deserialize(sbf_scalable **out, const void *buf, size_t len);
SBF_API int sbf_scalable_save(const sbf_scalable *s, const char *path);
SBF_API int sbf_scalable_load(sbf_scalable **out, const char *path);
SBF_API int sbf_scalable_map(sbf_scalable **out, const char *path, unsigned flags);

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_SCALABLE_H_5D20C9E1 */
