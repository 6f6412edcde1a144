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
 * layout's exact formula and that formula's spread over filters
 * (SBF_SCALABLE_FORMULA below), for the rate
 *     fpp_i = fpp * (1 - tightening) * tightening^i.
 * A key is in the filter when any sub-filter has it; a new key goes into the
 * newest sub-filter, and a new sub-filter is started when the newest holds
 * capacity_i keys. The rate of the whole is at most the sum of the
 * sub-filters' rates, fpp * (1 - tightening^n) < fpp for n sub-filters,
 * however many keys are added (another schedule: SBF_SCHEDULE_SHARED): the
 * asked rate holds at every size and for each filter, as
 * tests/test_scalable.c measures. tightening 0.5 with growth 2 is
 * RedisBloom's chain (the first sub-filter gets half the rate).
 *
 * Every sub-filter has the same layout and seed, so a key has one hash
 * (sbf_scalable_hash) whichever sub-filter it is probed in: batches hash
 * once and probe every sub-filter from the hashes. Layouts: the 1-bit ones;
 * counting only when the filter does not grow (SBF_SCALABLE_NONSCALING:
 * a remove needs to know the sub-filter).
 *
 * Thread safety as sbf_filter: any number of threads may query one
 * scalable filter at once; adds (which may start a sub-filter) and union
 * need exclusive access. A mapped one (sbf_scalable_map) is read-only.
 * File form: format versions 3 and 4, doc/format.md.
 */
typedef struct sbf_scalable sbf_scalable;

/* What sbf_scalable_next and sbf_scalable_sub_info tell of one sub-filter, and
 * what a growth check (sbf_scalable_params.grow_check) is asked about. */
struct sbf_scalable_sub {
    const sbf_filter *filter; /* NULL for one not made yet (sbf_scalable_next) */
    uint32_t index;           /* its place, from 0 */
    int layout;
    uint32_t k, seed;
    uint64_t bits;
    uint64_t capacity;        /* keys it takes before the next starts */
    double fpp;               /* the rate it was sized for */
    uint64_t keys;            /* keys counted into it */
    uint64_t bits_before;     /* sum of the bits of sub-filters 0..index-1
                                 (with those an sbf_scalable_add_all makes
                                 in advance) */
};

/* Rate schedules (sbf_scalable_params.schedule): how the asked rate is
 * shared among sub-filters.
 *  SBF_SCHEDULE_GEOMETRIC (0): Almeida's, fpp_i = fpp (1 - t) t^i (t the
 *      tightening); format 3 files hold only this one (format 4 both).
 *  SBF_SCHEDULE_SHARED: sub-filter i gets what the earlier ones left,
 *      divided by i + 2: (fpp - sum_{j<i} fpp_j) / (i + 2), which is
 *      fpp / ((i + 1)(i + 2)) (1/2, 1/6, 1/12, ...) for a filter made with
 *      it (the sum after n is fpp (1 - 1/(n + 1)) < fpp), and continues within
 *      the budget of adopted sub-filters of any rates; where nothing is left
 *      (an adopted chain that used it all), half the previous one. Deep
 *      sub-filters ask far less of a filter than t^i does (the Redis
 *      module's chain: its 60th asks fpp / 3660, not fpp / 2^60). */
#define SBF_SCHEDULE_GEOMETRIC 0
#define SBF_SCHEDULE_SHARED 1

/* sbf_scalable_params.flags: SBF_SCALABLE_NONSCALING, one sub-filter that
 * never grows (it gets the whole rate; an add of a new key to a full one
 * returns SBF_E_FULL; the counting layouts are accepted only so, as
 * multisets: every add counts, sbf_scalable_remove takes keys out);
 * SBF_ZEROED (simdbloom.h), with an allocator whose memory reads as zero:
 * sub-filters are made without a pass over their memory. */
#define SBF_SCALABLE_NONSCALING (UINT32_C(1) << 8)
/* How a sub-filter of capacity c and rate fpp_i is sized. By default its
 * layout's formula plus three standard deviations of one filter's spread
 * around it (sbf_fpp_spread), both at c keys, must be <= fpp_i: the formula
 * is the mean over filters, and a small sub-filter's rate spreads (18%
 * above it at 1000 keys), so the whole stays under fpp for each filter,
 * not only on average (tests/test_scalable.c `per_filter`; format 4
 * files). SBF_SCALABLE_FORMULA: the formula alone (sbf_size of c, fpp_i),
 * the rule of format-3 files (a loaded one keeps it as it grows) and of
 * the Redis module's older chains; 1.5% fewer bits at 10^6 keys, but 12 filters
 * in 40 of Almeida's schedule at 0.1% (blocked) above fpp there. */
#define SBF_SCALABLE_FORMULA (UINT32_C(1) << 9)

/* Zero means "default" for every field but fpp: `sbf_scalable_params p = {0};` */
typedef struct sbf_scalable_params {
    int layout;          /* a 1-bit sbf_layout (0: classic, as sbf_params); a
                            counting one with SBF_SCALABLE_NONSCALING */
    uint64_t initial_n;  /* capacity of the first sub-filter; 0: 1000 */
    double fpp;          /* the rate of the whole, in (0, 1) */
    uint32_t growth;     /* capacity ratio of successive sub-filters, 1..32768
                            (files: 2..1024); 0: 2 */
    double tightening;   /* rate ratio of the geometric schedule, in (0, 1); 0: 0.5 */
    uint32_t seed;       /* as sbf_params.seed */
    uint32_t flags;      /* 0 or SBF_SCALABLE_NONSCALING, SBF_SCALABLE_FORMULA,
                            SBF_ZEROED (another bit: SBF_E_FLAGS) */
    int schedule;        /* SBF_SCHEDULE_GEOMETRIC (0) or SBF_SCHEDULE_SHARED */
    uint64_t max_capacity; /* the largest capacity growth may give a sub-filter
                              (SBF_E_TOO_LARGE past it); 0: no limit */
    const sbf_allocator *allocator; /* sub-filters' memory and the filter's own
                                       (NULL: the library's), as sbf_params */
    /* Asked before every sub-filter the library makes (creation's first,
     * growth's, sbf_scalable_add_all's in advance; not adopted ones), rc
     * SBF_OK once it is sized (next: its place, capacity, rate, bits, k):
     * SBF_OK makes it, another code is what the add or create returns
     * (nothing changes). Also told, with rc the error, of one that cannot be
     * made (the index past the limit, the capacity, the sizing: the fields
     * computed so far are set; fpp 0 when the capacity was refused), its
     * return then ignored: the caller may say why. NULL: none. A memory or
     * size limit of the caller's (the Redis module: MAX_BYTES, maxmemory). */
    int (*grow_check)(void *arg, const struct sbf_scalable_sub *next, int rc);
    void *grow_arg;
} sbf_scalable_params;

#define SBF_SCALABLE_MAX_FILTERS 256 /* sub-filters one scalable filter may have */
#define SBF_SCALABLE_FILE_MAX_FILTERS 64 /* ... that a format-3 file holds */

/*
 * A scalable filter with one empty sub-filter. Returns SBF_OK, SBF_E_NULL,
 * SBF_E_LAYOUT, SBF_E_UNSUPPORTED (counting that may grow), SBF_E_FPP,
 * SBF_E_PARAM (growth, tightening or schedule out of range, an allocator
 * without alloc or free), SBF_E_FLAGS, SBF_E_TOO_LARGE,
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
 * A non-scaling filter: SBF_E_FULL for a new key when its one sub-filter
 * holds its capacity. The grow_check's code when it refuses a sub-filter.
 * Counting (non-scaling) filters are multisets: every add is counted (a key
 * present already too); the return says whether the key was new.
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
 * All or nothing: adds keys 0..n-1 in order, as sbf_scalable_add_batch
 * would (added[i], when not NULL, 1 for a key new at its turn, 0 for one
 * present), when every one fits; else changes nothing and returns the
 * error as size_t (sbf_is_error). Fitting means: a growing filter can make
 * (in advance, before the first add) every sub-filter the new keys may need
 * (grow_check asked for each; its refusal, SBF_E_TOO_LARGE, SBF_E_K,
 * SBF_E_NOMEM); a non-scaling one has room for the new keys exactly as
 * the adds in order would find it (a key that an earlier one of the batch
 * made present needs none; else SBF_E_FULL). Keys are counted as new
 * once per distinct hash. Returns the count of new keys (counting: n).
 * Also SBF_E_NULL, SBF_E_READONLY, SBF_E_NOMEM (scratch memory).
 */
SBF_API size_t sbf_scalable_add_all(sbf_scalable *s, const void *const *keys,
                                    const size_t *lens, size_t n, uint8_t *added);

/* A counting (non-scaling) filter: takes one add of the key out, as
 * sbf_remove (SBF_OK, SBF_E_NOT_PRESENT, SBF_E_NULL, SBF_E_READONLY;
 * SBF_E_UNSUPPORTED for 1-bit cells), and counts one key less. */
SBF_API int sbf_scalable_remove(sbf_scalable *s, const void *key, size_t len);

/*
 * Rebuilding a scalable filter from its sub-filters (the Redis module's
 * RDB, AOF and SCANDUMP forms; any store of the caller's own):
 * sbf_scalable_create_empty makes one with the parameters and no
 * sub-filter (SBF_OK or sbf_scalable_create's errors; an add on it makes
 * sub-filter 0, a query answers 0); sbf_scalable_adopt appends f as the
 * next sub-filter, with its capacity, rate and key count, whatever the
 * schedule would have given (growth continues from them: capacity times
 * growth, the shared schedule from the rates left). s takes f on success.
 * f must hash as s does: its layout's hash stage and seed those of
 * params.layout and params.seed, 1-bit cells when the layout is not
 * s's (an older classic sub-filter of a blocked chain), else
 * SBF_E_INCOMPATIBLE; a non-scaling filter takes one. Returns SBF_OK,
 * SBF_E_NULL, SBF_E_READONLY, SBF_E_PARAM (capacity 0, fpp outside (0, 1),
 * keys > INT64_MAX), SBF_E_TOO_LARGE (SBF_SCALABLE_MAX_FILTERS),
 * SBF_E_INCOMPATIBLE, SBF_E_NOMEM. A filter with adopted sub-filters that
 * the schedule would not have made saves as format 4 (each sub-filter's
 * capacity and rate recorded).
 */
SBF_API int sbf_scalable_create_empty(sbf_scalable **out, const sbf_scalable_params *p);
SBF_API int sbf_scalable_adopt(sbf_scalable *s, sbf_filter *f, uint64_t capacity, double fpp,
                               uint64_t keys);

/* Sub-filter i (0: the oldest) as struct sbf_scalable_sub: SBF_OK,
 * SBF_E_NULL, SBF_E_PARAM (i past the end). O(i). */
SBF_API int sbf_scalable_sub_info(const sbf_scalable *s, uint32_t i,
                                  struct sbf_scalable_sub *out);
/* The sub-filter growth would make next (filter NULL): SBF_OK, or the
 * error growth would return before grow_check (SBF_E_TOO_LARGE,
 * SBF_E_FULL, SBF_E_K, ...; capacity and fpp are filled whenever they were
 * computed, bits and k when sizing succeeded). */
SBF_API int sbf_scalable_next(const sbf_scalable *s, struct sbf_scalable_sub *out);
/* The number of sub-filters, O(1); 0 for NULL. */
SBF_API uint32_t sbf_scalable_filters(const sbf_scalable *s);
/* Sub-filter i writable (its data written through sbf_write_data, as a
 * SCANDUMP chunk is): NULL past the end and for a mapping. Writing data
 * changes no key count. */
SBF_API sbf_filter *sbf_scalable_filter_writable(sbf_scalable *s, uint32_t i);
/* An independent copy of s (a mapping's copy is writable): SBF_OK,
 * SBF_E_NULL, SBF_E_NOMEM; *out NULL on failure. */
SBF_API int sbf_scalable_copy(sbf_scalable **out, const sbf_scalable *s);
/* The parameters s was made with, defaults resolved: SBF_OK, SBF_E_NULL. */
SBF_API int sbf_scalable_params_of(const sbf_scalable *s, sbf_scalable_params *out);

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
 * Files (doc/format.md): a header listing the sub-filters, each a complete
 * version-2 image at a page-aligned offset. Format 3 when it describes s
 * (SBF_SCALABLE_FORMULA, the geometric schedule, growth 2..1024, at most
 * SBF_SCALABLE_FILE_MAX_FILTERS sub-filters as the schedule makes them: the
 * bytes such a filter always had), else format 4 (any parameters, flags,
 * schedule, up to SBF_SCALABLE_MAX_FILTERS sub-filters, each one's capacity
 * and rate; SBF_E_UNSUPPORTED only for a filter with no sub-filter). The
 * allocator, grow_check and max_capacity are not stored: a loaded filter
 * has none (SBF_ZEROED neither).
 * sbf_scalable_save is crash-safe as sbf_save (a temporary file renamed over
 * the target); sbf_scalable_serialize returns the same bytes (sbf_buffer_free).
 * Loaders check every header, sub-filter geometry against the parameters
 * (format 3) or the hash (format 4),
 * checksum and padding before returning (sbf_scalable_map with
 * SBF_MAP_NO_VERIFY reads headers only), and refuse with sbf_deserialize's
 * codes: SBF_E_TRUNCATED, SBF_E_TRAILING, SBF_E_FORMAT, SBF_E_VERSION (not
 * version 3 or 4: a plain filter's file), SBF_E_LAYOUT, SBF_E_K, SBF_E_TOO_LARGE,
 * SBF_E_ENDIAN, SBF_E_NOMEM, SBF_E_IO (files); *out NULL on failure.
 * A mapping is read-only: adds return SBF_E_READONLY.
 */
SBF_API int sbf_scalable_serialize(const sbf_scalable *s, void **buf, size_t *len);
SBF_API int sbf_scalable_deserialize(sbf_scalable **out, const void *buf, size_t len);
SBF_API int sbf_scalable_save(const sbf_scalable *s, const char *path);
SBF_API int sbf_scalable_load(sbf_scalable **out, const char *path);
SBF_API int sbf_scalable_map(sbf_scalable **out, const char *path, unsigned flags);

/*
 * Deciding keys outside the library, in parallel (sbf dedup --threads):
 * while the newest sub-filter has room for every key of a batch, no key of
 * it can start a sub-filter, so each key's verdict is "an older sub-filter
 * holds it" or else an add to the newest; keys may then be probed and added
 * through views (sbf_view_get of sbf_scalable_filter(s, i) for the older,
 * sbf_view_get_writable of sbf_scalable_filter_writable(s, newest) for the
 * newest, its added counter the caller's) by several threads at once, each
 * owning a range of the newest's blocks.
 *
 * sbf_scalable_room: *room = the keys the newest sub-filter takes before the
 * next one starts (its capacity less its key count; 0 when it is full or
 * there is none yet). SBF_OK, SBF_E_NULL.
 * sbf_scalable_count_adds: counts n adds that changed the newest sub-filter,
 * made through such a view whose counter was not the filter's: its key
 * count and keys_added rise by n, as n sbf_scalable_add calls that returned
 * 1 would have raised them (so a file saved after is the same bytes).
 * SBF_OK, SBF_E_NULL, SBF_E_READONLY, SBF_E_FULL (n > the room: nothing
 * counted).
 */
SBF_API int sbf_scalable_room(const sbf_scalable *s, uint64_t *room);
SBF_API int sbf_scalable_count_adds(sbf_scalable *s, uint64_t n);

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_SCALABLE_H_5D20C9E1 */
