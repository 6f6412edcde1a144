/*
 * simdbloom: Bloom filters for the hot path.
 *
 * One public header. Only <stddef.h>, <stdint.h> and <stdbool.h>; no
 * intrinsics, no vector types. Every exported name starts with sbf_ / SBF_.
 *
 * Conventions
 *  - Functions that can fail return int: SBF_OK (0) or a negative SBF_E_*
 *    code; sbf_strerror() names every code. A refused call changes nothing.
 *  - The library never prints, aborts or exits.
 *  - Thread safety: a filter is a plain object. Any number of threads may
 *    call the const (query) functions on one filter at once; a call that
 *    modifies a filter needs exclusive access to it, unless the filter was
 *    created with SBF_CONCURRENT (see there). The ISA functions and
 *    sbf_create are safe to call from any thread.
 *  - A filter mapped by sbf_map is read-only: every call that would modify
 *    it returns SBF_E_READONLY and changes nothing.
 *  - Buffers returned through a void ** are allocated with malloc(); release
 *    them with sbf_buffer_free() (or free()).
 */
#ifndef SIMDBLOOM_H_8A31F0C2
#define SIMDBLOOM_H_8A31F0C2

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(SBF_STATIC_DEFINE)
#  define SBF_API
#elif defined(__GNUC__) && (__GNUC__ >= 4)
#  define SBF_API __attribute__((visibility("default")))
#else
#  define SBF_API
#endif

#define SBF_VERSION_MAJOR 0
#define SBF_VERSION_MINOR 1
#define SBF_VERSION_RELEASE 0
#define SBF_VERSION_NUMBER \
    (SBF_VERSION_MAJOR * 10000 + SBF_VERSION_MINOR * 100 + SBF_VERSION_RELEASE)

/* The version the library was built as (SBF_VERSION_NUMBER), and as text. */
SBF_API unsigned sbf_version(void);
SBF_API const char *sbf_version_string(void);

/* ------------------------------------------------------------------ errors */

/* Stable, explicitly numbered; a number is never reused. */
#define SBF_OK                  0
#define SBF_E_NULL             -1  /* a required pointer argument is NULL */
#define SBF_E_FPP              -2  /* fpp is NaN or outside (0, 1) */
#define SBF_E_LAYOUT           -3  /* unknown layout */
#define SBF_E_TOO_LARGE        -4  /* bit count overflows or exceeds SBF_MAX_BITS */
#define SBF_E_K                -5  /* number of hash functions out of range */
#define SBF_E_NOMEM            -6  /* out of memory */
#define SBF_E_TRUNCATED        -7  /* serialized bytes end early */
#define SBF_E_TRAILING         -8  /* serialized bytes continue past the end */
#define SBF_E_STRATEGY         -9  /* unknown Guava strategy ordinal */
#define SBF_E_WORDCOUNT       -10  /* serialized (Guava) word count is <= 0 */
#define SBF_E_INCOMPATIBLE    -11  /* filters differ in layout, size, k or seed */
#define SBF_E_UNSUPPORTED     -12  /* operation not defined for this layout */
#define SBF_E_NOT_PRESENT     -13  /* remove: the filter says the key is surely absent */
#define SBF_E_ISA_UNKNOWN     -14  /* unknown ISA number or name (also SBF_ISA) */
#define SBF_E_ISA_UNAVAILABLE -15  /* ISA not compiled in or not supported by this CPU */
#define SBF_E_PARAM           -16  /* other invalid argument (named in the doc) */
#define SBF_E_FORMAT          -17  /* serialized bytes are corrupt (bad magic, checksum) */
#define SBF_E_VERSION         -18  /* serialized by a newer, unknown format version */
/* files (sbf_save, sbf_load, sbf_map; format 2) */
#define SBF_E_READONLY        -19  /* the filter is a read-only mapping (sbf_map) */
#define SBF_E_IO              -20  /* a system call on a file failed; errno says which */
#define SBF_E_ENDIAN          -21  /* format 2 is little endian and this host is not */
#define SBF_E_FLAGS           -23  /* sbf_params.flags has an unknown bit */

/* A static, human-readable string for any int (unknown codes included). */
SBF_API const char *sbf_strerror(int code);

/* ----------------------------------------------------------------- layouts */

/* Each layout's bit layout (which bits or counters a key sets, given its
 * MurmurHash3 and the filter's size, k and seed) is part of the format:
 * filters built by any version and any ISA, and saved by sbf_serialize or
 * sbf_export_guava, answer the same everywhere. It is pinned by
 * known-answer tests (tests/vectors/layouts_kat.inc) and changes only with
 * a new layout id, never under an existing one. */

typedef enum sbf_layout {
    SBF_CLASSIC = 0,     /* Guava-compatible: k bits anywhere in m bits */
    SBF_BLOCKED = 1,     /* k bits inside one 512-bit cache-line block */
    SBF_SPLIT_BLOCK = 2, /* one bit in each 32-bit word of a block; k = words (8 or 16) */
    SBF_COUNTING = 3     /* 4-bit saturating counters, 128 per 64-byte block */
} sbf_layout;

/* Largest bit count accepted for any layout (16 GiB of filter). The classic
 * layout is further limited to 64 * INT32_MAX bits, Guava's maximum. */
#define SBF_MAX_BITS (UINT64_C(1) << 37)
#define SBF_BLOCK_BITS 512
#define SBF_MAX_K_CLASSIC 255
#define SBF_MAX_K_BLOCKED 16   /* also the counting layout */

/*
 * Creation parameters. Zero means "default" for every field but fpp, so the
 * struct can grow: initialise it with `sbf_params p = {0};`.
 *  layout      sbf_layout
 *  expected_n  keys you plan to insert (0 is treated as 1, as Guava does)
 *  fpp         target false-positive rate in (0, 1); ignored when bits != 0
 *  bits        0: derive from expected_n and fpp so that THIS layout's exact
 *              false-positive formula is <= fpp (classic: Guava's sizing);
 *              else the filter size in bits, rounded up to the layout's
 *              granule (classic 64, others 512; split-block 256 when k = 8).
 *              For the counting layout bits counts memory (4 per counter).
 *  k           0: derive; classic 1..255, blocked/counting 1..16,
 *              split-block 8 (256-bit blocks) or 16 (512-bit blocks)
 *  seed        MurmurHash3 seed; 0 is Guava's
 *  flags       0, or SBF_CONCURRENT (below); another bit is SBF_E_FLAGS
 */
typedef struct sbf_params {
    int layout;
    uint64_t expected_n;
    double fpp;
    uint64_t bits;
    uint32_t k;
    uint32_t seed;
    uint32_t flags;
} sbf_params;

/*
 * SBF_CONCURRENT: a filter created with this flag takes sbf_add,
 * sbf_add_u64, sbf_add_batch, sbf_remove and sbf_union (as dst) from any
 * number of threads at once, concurrently with any queries, with no lock:
 * bits are set with atomic fetch-or on 64-bit words, counters move by
 * compare-and-swap that keeps a counter at 15 once saturated, and queries
 * read with relaxed atomic loads (no data race).
 * Guarantees:
 *  - a key whose add has returned is found by every query that starts after
 *    it in the caller's happens-before order (a release/acquire pair, a
 *    thread join, a mutex: the library adds no ordering of its own);
 *  - a query concurrent with the key's add may answer either way; no key
 *    whose add returned is ever reported absent (no false negative);
 *  - once all adds have returned, the filter bytes equal those of a filter
 *    built by one thread from the same keys (OR and saturating +1 commute);
 *    for counting filters with concurrent removes, as any order of them;
 *  - sbf_add's return (did the answer change) is exact for the calling
 *    thread's view: two threads adding one key may both see 1;
 *  - keys_added (sbf_info, serialization) is summed from per-thread counts
 *    and may be approximate while adds run; it is exact once they return.
 * sbf_clear, sbf_intersect, sbf_union with this filter as src, sbf_free
 * and (de)serialization still need no concurrent modification. A plain
 * filter (no flag) keeps the faster non-atomic kernels.
 */
#define SBF_CONCURRENT (UINT32_C(1) << 0)

typedef struct sbf_filter sbf_filter;

/*
 * Creates a filter with every bit clear. On failure *out is set to NULL
 * (when out is not NULL).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_LAYOUT, SBF_E_FPP, SBF_E_K,
 * SBF_E_TOO_LARGE, SBF_E_NOMEM, SBF_E_FLAGS, or the ISA error of the forced ISA
 * (SBF_E_ISA_UNKNOWN / SBF_E_ISA_UNAVAILABLE, see sbf_isa_set).
 * Filters of 2 MiB and more are 2 MiB aligned and advised to use huge pages.
 */
SBF_API int sbf_create(sbf_filter **out, const sbf_params *p);

/* Releases a filter; NULL is accepted and ignored. */
SBF_API void sbf_free(sbf_filter *f);

/* Releases a buffer returned by sbf_export_guava / sbf_serialize. NULL ok. */
SBF_API void sbf_buffer_free(void *buf);

/*
 * Inserts a key (len bytes at key; key may be NULL only when len is 0).
 * Returns 1 when the filter's answer for the key changed (a bit was set, or
 * for counting a counter left zero: Guava's put), 0 when it did not,
 * SBF_E_NULL.
 */
SBF_API int sbf_add(sbf_filter *f, const void *key, size_t len);

/* Returns 1 if the key may be present, 0 if it is surely absent, SBF_E_NULL. */
SBF_API int sbf_contains(const sbf_filter *f, const void *key, size_t len);

/*
 * sbf_add / sbf_contains of a key whose MurmurHash3_x64_128 the caller
 * holds already: h1 = out[0], h2 = out[1] of sbf_murmur3_x64_128(key, len,
 * seed) with the filter's seed. Same answers, bits and returns (SBF_E_NULL,
 * SBF_E_READONLY) as the keyed calls. simdbloom_inline.h has inline forms.
 */
SBF_API int sbf_add_hash(sbf_filter *f, uint64_t h1, uint64_t h2);
SBF_API int sbf_contains_hash(const sbf_filter *f, uint64_t h1, uint64_t h2);

/*
 * Counting layout only: removes one insertion of a key. Counters at 15 are
 * saturated and stay 15, so a removal never causes a false negative.
 * Returns SBF_OK; SBF_E_NOT_PRESENT (the filter says the key is surely
 * absent; nothing changes); SBF_E_UNSUPPORTED for other layouts; SBF_E_NULL.
 */
SBF_API int sbf_remove(sbf_filter *f, const void *key, size_t len);

/*
 * Batched 64-bit keys. Each key is hashed as its 8 little-endian bytes, so
 * sbf_add_u64(f, &x, 1) and sbf_add(f, &x, 8) set the same bits.
 * sbf_add_u64 returns SBF_OK or SBF_E_NULL (keys may be NULL when n is 0).
 * sbf_contains_u64 writes out[i] = 1 (maybe) or 0 (no) when out is not NULL
 * and returns how many keys may be present; it returns SIZE_MAX (and writes
 * nothing) when f is NULL or keys is NULL with n > 0: that is
 * (size_t)SBF_E_NULL, and sbf_is_error() tells it from a count.
 */
SBF_API int sbf_add_u64(sbf_filter *f, const uint64_t *keys, size_t n);
SBF_API size_t sbf_contains_u64(const sbf_filter *f, const uint64_t *keys,
                                size_t n, uint8_t *out);

/*
 * Batched variable-length keys: keys[i] points at lens[i] bytes. Hashing is
 * scalar; memory accesses are pipelined as in the u64 forms. Same returns
 * as the u64 forms (a NULL keys[i] with lens[i] > 0 is SBF_E_NULL / SIZE_MAX,
 * checked before anything is changed).
 */
SBF_API int sbf_add_batch(sbf_filter *f, const void *const *keys,
                          const size_t *lens, size_t n);
SBF_API size_t sbf_contains_batch(const sbf_filter *f, const void *const *keys,
                                  const size_t *lens, size_t n, uint8_t *out);

/*
 * Functions that return a size_t (sbf_contains_u64, sbf_contains_batch)
 * follow zstd's convention: a count, or an error code c converted to
 * size_t, (size_t)c. Their only error today is SBF_E_NULL, i.e. SIZE_MAX.
 * sbf_is_error(r) returns 1 when r is such an error (r >= (size_t)-255:
 * codes run from -1 down, never below -255) and 0 for a count (a count is
 * at most n, and n keys fill 8n bytes of memory, so no count comes near).
 * Then -(int)(SIZE_MAX - r) - 1 is the code. Test with sbf_is_error rather
 * than against SIZE_MAX: an error added later keeps this form. Thread safe.
 *
 *     size_t hits = sbf_contains_u64(f, keys, n, NULL);
 *     if (sbf_is_error(hits))
 *         return -(int)(SIZE_MAX - hits) - 1;   (SBF_E_NULL)
 */
SBF_API int sbf_is_error(size_t r);

/* ----------------------------------------------------------------- hashing */

/* MurmurHash3_x64_128 (SMHasher), bit-exact: out[0] = h1, out[1] = h2, the
 * first and second 8 bytes of the digest read little-endian. Equals Guava's
 * Hashing.murmur3_128(seed) for seeds below 2^31. key may be NULL if len 0. */
SBF_API void sbf_murmur3_x64_128(const void *key, size_t len, uint32_t seed,
                                 uint64_t out[2]);

/* The same hash of each key's 8 little-endian bytes, batched in SIMD lanes
 * by the active ISA. h1 and h2 receive n values each; nothing is written
 * when n is 0 or a pointer is NULL. Every ISA gives the same values. When
 * the ISA choice is an error (SBF_ISA names an unknown or unavailable ISA:
 * sbf_isa_active() < 0), the scalar reference computes them; the error
 * shows in sbf_isa_active() and sbf_create(), never here. Thread safe. */
SBF_API void sbf_murmur3_x64_128_u64(const uint64_t *keys, size_t n,
                                     uint32_t seed, uint64_t *h1, uint64_t *h2);

/* ------------------------------------------------------------- persistence */

/*
 * Guava's BloomFilter.writeTo form (classic layout with seed 0 only): one
 * byte strategy (1 = MURMUR128_MITZ_64), one byte k, big-endian int32 word
 * count, big-endian int64 words.
 * sbf_export_guava returns SBF_OK, SBF_E_NULL, SBF_E_UNSUPPORTED (not a
 * seed-0 classic filter), SBF_E_NOMEM.
 * sbf_import_guava returns SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED (shorter than
 * the header, or than the words it announces), SBF_E_TRAILING (bytes after
 * the last word), SBF_E_STRATEGY, SBF_E_K (k = 0), SBF_E_WORDCOUNT (count
 * <= 0), SBF_E_NOMEM; and the forced-ISA errors of sbf_create.
 */
SBF_API int sbf_export_guava(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_import_guava(sbf_filter **out, const void *buf, size_t len);

/*
 * simdbloom's own portable form, for every layout (README "File format"):
 * sbf_serialize writes format version 2: a 4096-byte little-endian header
 * (magic "SBF1", version, layout, k, seed, bits, keys added, data length,
 * XXH3-64 checksums of the data and of the header), then the filter bytes,
 * sbf_data's, at offset 4096. The buffer is byte for byte what sbf_save
 * writes to a file; it is page aligned (free() or sbf_buffer_free releases
 * it). sbf_deserialize reads versions 1 and 2 at any alignment.
 * sbf_serialize returns SBF_OK, SBF_E_NULL, SBF_E_NOMEM, SBF_E_ENDIAN.
 * sbf_deserialize checks everything (header, geometry against the data
 * length, both checksums, zero padding) before it allocates, and returns
 * SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED, SBF_E_TRAILING, SBF_E_FORMAT (bad
 * magic or checksum, inconsistent parameters, non-zero padding or reserved
 * bytes), SBF_E_VERSION, SBF_E_LAYOUT, SBF_E_K, SBF_E_TOO_LARGE,
 * SBF_E_ENDIAN, SBF_E_NOMEM; and the forced-ISA errors of sbf_create.
 * Both are thread safe (f is only read).
 */
SBF_API int sbf_serialize(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_deserialize(sbf_filter **out, const void *buf, size_t len);

/* ------------------------------------------------------------------- files
 * Files hold format version 2 (README "File format"), byte for byte what
 * sbf_serialize returns. On SBF_E_IO, errno is the failed call's. A refused
 * file changes nothing and leaves *out NULL. All three are thread safe
 * (sbf_save only reads f).
 */

/*
 * Writes f to path, crash-safe: a temporary file beside path (same
 * directory, mode 0666 minus the umask) is written, fsync'd and renamed over
 * path, then the directory is fsync'd. A save killed at any moment leaves at
 * path either the old file or the new one; a failed save removes its
 * temporary file. Readers that mapped the old file keep it.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (empty path), SBF_E_NOMEM,
 * SBF_E_ENDIAN, SBF_E_IO (open, write, fsync, close or rename failed: the
 * old file is untouched; or the directory fsync failed after the rename: the
 * new file is in place but may not survive a power loss).
 */
SBF_API int sbf_save(const sbf_filter *f, const char *path);

/*
 * Reads a file of format version 1 or 2 into the library's own memory (2 MiB
 * aligned, huge-page advised from 2 MiB, as sbf_create). Header, geometry and
 * lengths are checked before allocating; both checksums and the padding
 * before returning. Returns SBF_OK, SBF_E_NULL, SBF_E_IO (open, fstat, read;
 * not a regular file: EISDIR / EINVAL), SBF_E_NOMEM, and every code of
 * sbf_deserialize.
 */
SBF_API int sbf_load(sbf_filter **out, const char *path);

/* sbf_map flags */
#define SBF_MAP_NO_VERIFY 1u  /* check the header only; touch no data page */

/*
 * Maps a format-2 file's data read-only and shared (MAP_SHARED, PROT_READ):
 * zero copy, and every process mapping one file shares one copy in the page
 * cache. flags 0 verifies the data checksum and the padding (one pass over
 * the data); SBF_MAP_NO_VERIFY checks the header only (its checksum, the
 * geometry against the file size), so mapping costs a few system calls and
 * no data is read until queried: use it for files this program or sbf_save
 * wrote. A verified mapping has read every page into the page cache (and
 * mapped it) on the way; an unverified one faults pages in as probes touch
 * them, with the kernel's usual read-around. Every query works on the mapping (single, batched, sbf_info,
 * sbf_data, sbf_copy: the copy is writable); every modifying call (sbf_add*,
 * sbf_remove, sbf_clear, sbf_union / sbf_intersect into it) returns
 * SBF_E_READONLY and changes nothing. sbf_free unmaps. The file must not be
 * truncated while mapped (the kernel would raise SIGBUS); sbf_save replaces
 * files by rename, which is safe.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags), SBF_E_VERSION
 * (also for a version-1 file, whose data is not page aligned: sbf_load it),
 * SBF_E_IO (open, fstat, read, mmap), SBF_E_NOMEM, every code of
 * sbf_deserialize, and the forced-ISA errors of sbf_create.
 */
SBF_API int sbf_map(sbf_filter **out, const char *path, unsigned flags);

/* ------------------------------------------------- life cycle and set ops */

/* Information about a filter. */
struct sbf_info {
    int layout;                 /* sbf_layout */
    uint64_t bits;              /* m: bits (counting: 4 per counter) */
    size_t bytes;               /* bytes of filter data */
    uint32_t k;                 /* bits (counters) per key */
    uint32_t block_bits;        /* 512, 256 for 8-word split-block, 0 classic */
    uint32_t seed;
    uint64_t keys_added;        /* adds (minus removes) since creation/clear */
    double fill_ratio;          /* set bits / bits (counting: non-zero counters) */
    double est_cardinality;     /* Swamidass-Baldi estimate of distinct keys */
    double fpp_now;             /* sbf_fpp_theory(f, keys_added) */
    uint64_t saturated;         /* counting: counters stuck at 15; else 0 */
    int isa;                    /* sbf_isa of the kernels this filter uses */
};

/* Fills *out. Returns SBF_OK or SBF_E_NULL. O(size of the filter). */
SBF_API int sbf_info(const sbf_filter *f, struct sbf_info *out);

/* Clears every bit/counter. Returns SBF_OK or SBF_E_NULL. */
SBF_API int sbf_clear(sbf_filter *f);

/* *out becomes an independent copy. SBF_OK, SBF_E_NULL, SBF_E_NOMEM. */
SBF_API int sbf_copy(sbf_filter **out, const sbf_filter *f);

/*
 * dst becomes the union (intersection) of dst and src, which must have the
 * same layout, bits, k and seed. Counting filters add counters (saturating)
 * for union and take the minimum for intersection.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_INCOMPATIBLE (dst unchanged).
 */
SBF_API int sbf_union(sbf_filter *dst, const sbf_filter *src);
SBF_API int sbf_intersect(sbf_filter *dst, const sbf_filter *src);

/* Raw filter bytes (read-only), for comparison and hashing of filters. */
SBF_API const void *sbf_data(const sbf_filter *f, size_t *len);

/* ------------------------------------------------ false-positive mathematics
 * All return NaN for impossible arguments (m = 0, k = 0, ...), and otherwise
 * a value in [0, 1]. Every one returns within about 10 ms for ANY argument
 * (measured at -O3; most take microseconds): a result that is 1 to double
 * precision returns at once, and work that would grow past that bound is
 * refused with NaN (see sbf_fpp_blocked). Thread safe, no allocation kept.
 */

/* (1 - e^(-kn/m))^k */
SBF_API double sbf_fpp_classic(uint64_t n, uint64_t m, uint32_t k);
/* Putze, Sanders, Singler 2007: sum_i Poisson(i; n*B/m) (1-(1-1/B)^(ik))^k.
 * An approximation that runs low. */
SBF_API double sbf_fpp_putze(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits);
/* Exact blocked FPR: binomial block loads, and per block the chance that k
 * uniform query positions hit set bits after i*k uniform throws. NaN when
 * min(k, block_bits) > 256, or when the exact evaluation would take more
 * than 10^7 multiply-adds (about 10 ms): only arguments far from any
 * layout's, such as k in the hundreds with 512-bit blocks, or k >= 48 with
 * 2^24-bit blocks and 10^9 keys (the layouts, k <= 16 in 512- or 128-bit
 * blocks, and 2k for sbf_fpp_spread, stay below a tenth of that bound). */
SBF_API double sbf_fpp_blocked(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits);
/* Exact split-block FPR: words 32-bit words per block, one bit each. */
SBF_API double sbf_fpp_split_block(uint64_t n, uint64_t m, uint32_t words);
/* The exact formula of a layout (classic: (1-(1-1/m)^(kn))^k); blocked and
 * counting as sbf_fpp_blocked, including its NaN for absurd k. */
SBF_API double sbf_fpp_layout(int layout, uint64_t n, uint64_t bits, uint32_t k);
/* The layout's exact formula for this filter after n distinct keys. */
SBF_API double sbf_fpp_theory(const sbf_filter *f, uint64_t n);
/* The standard deviation of one filter's false-positive rate around
 * sbf_fpp_layout, over which n keys were inserted. A measurement with N
 * probes varies by sqrt(spread^2 + p(1-p)/N) around the formula; at 1e6
 * keys the spread is comparable to the noise of 1e7 probes. At most 1/2
 * (the classic delta method is capped there); blocked and counting need the
 * second moment (2k positions) within sbf_fpp_blocked's bounds, else NaN. */
SBF_API double sbf_fpp_spread(int layout, uint64_t n, uint64_t bits, uint32_t k);

/* Counting layout: probability that at least one counter reaches 15 after n
 * distinct keys (binomial block loads, exact per-counter tail), and Fan et
 * al.'s upper bound m_counters * (e*n*k / (15*m_counters))^15. */
SBF_API double sbf_counting_saturation(uint64_t n, uint64_t bits, uint32_t k);
SBF_API double sbf_counting_fan_bound(uint64_t n, uint64_t bits, uint32_t k);

/*
 * Sizing: the bits and k that sbf_create would choose for (layout, n, fpp).
 * Returns within about 10 ms for any argument: an fpp that is NaN or not
 * inside (0, 1) is SBF_E_FPP; one too small for any filter of the layout
 * (down to denormals) is SBF_E_K or SBF_E_TOO_LARGE.
 * *k is in/out: 0 on entry lets sbf_size choose k, otherwise that k is
 * used. The classic layout follows Guava 31.1 exactly (which may land a hair
 * above fpp, as k is rounded to an integer); the others pick the smallest
 * size whose exact formula is <= fpp.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_LAYOUT, SBF_E_FPP, SBF_E_TOO_LARGE,
 * SBF_E_K (k given out of range, or a classic k above 255 would be needed).
 */
SBF_API int sbf_size(int layout, uint64_t n, double fpp, uint64_t *bits,
                     uint32_t *k);

/* ---------------------------------------------------------------- ISA control */

typedef enum sbf_isa {
    SBF_ISA_AUTO = 0,   /* detect (the default); for sbf_isa_set only */
    SBF_ISA_SCALAR = 1, /* the portable reference */
    SBF_ISA_SIMDE = 2,  /* the AVX2 kernels through SIMDe, no native flags */
    SBF_ISA_AVX2 = 3,
    SBF_ISA_AVX512 = 4,
    SBF_ISA_NEON = 5
} sbf_isa;

/*
 * Forces the kernels that filters created from now on use (and the batched
 * hash). SBF_ISA_AUTO goes back to detection (the environment variable
 * SBF_ISA=scalar|simde|avx2|avx512|neon|auto, read once, then the CPU).
 * Returns SBF_OK, SBF_E_ISA_UNKNOWN, SBF_E_ISA_UNAVAILABLE (the choice
 * is unchanged). Existing filters keep their kernels. Thread safe.
 */
SBF_API int sbf_isa_set(int isa);
/* The ISA in use now (resolving detection on first call); negative error
 * code when SBF_ISA names an unknown or unavailable ISA. */
SBF_API int sbf_isa_active(void);
/* 1 if the ISA is compiled in and the CPU (and OS) support it, else 0. */
SBF_API int sbf_isa_available(int isa);
/* "auto", "scalar", "simde", "avx2", "avx512", "neon"; "unknown" otherwise. */
SBF_API const char *sbf_isa_name(int isa);
/* The sbf_isa for a name as above, or SBF_E_ISA_UNKNOWN (NULL too). */
SBF_API int sbf_isa_from_name(const char *name);
/*
 * The ISAs this library knows (every sbf_isa but AUTO), best first: the
 * order in which detection tries them, scalar last. Writes the first
 * min(count, cap) of them to out (out may be NULL) and returns the count.
 * Which of them run here: sbf_isa_available(). Thread safe.
 */
SBF_API size_t sbf_isa_list(int *out, size_t cap);

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_H_8A31F0C2 */
