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
 *  - The file format: doc/format.md (normative).
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
#define SBF_E_ODD_BLOCKS      -24  /* sbf_fold: the filter's block count is odd */
#define SBF_E_LOCKED          -25  /* sbf_lock_file: another holds the lock */

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
    SBF_COUNTING = 3,    /* 4-bit saturating counters, 128 per 64-byte block */
    SBF_PARQUET = 4      /* Parquet's split-block filter: XXH64, the spec's salts, k = 8 */
} sbf_layout;

/* Largest bit count accepted for any layout (16 GiB of filter). The classic
 * layout is further limited to 64 * INT32_MAX bits, Guava's maximum. */
#define SBF_MAX_BITS (UINT64_C(1) << 37)
#define SBF_BLOCK_BITS 512
#define SBF_MAX_K_CLASSIC 255
#define SBF_MAX_K_BLOCKED 16   /* also the counting layout */

/* A layout's name: "classic", "blocked", "split-block", "counting";
 * "unknown" for any other number. Thread safe. */
SBF_API const char *sbf_layout_name(int layout);
/* The sbf_layout for a name as above (exact, case-sensitive), or
 * SBF_E_LAYOUT (NULL too). Thread safe. */
SBF_API int sbf_layout_from_name(const char *name);

/*
 * A caller's allocator (sbf_params.allocator, sbf_deserialize_ex,
 * sbf_import_guava_ex): a filter made with one takes every byte it holds
 * from it (the filter object, its words, its SBF_CONCURRENT counters) and
 * gives them back through free, with the same opaque, in sbf_free. alloc is
 * malloc-like: at least 16-byte aligned, NULL for failure; the filter's
 * words are still 64-byte aligned (the library asks for up to 63 bytes
 * more and aligns inside). free is never called with NULL. The filter keeps
 * a copy of the struct (it need not outlive the call); the functions and
 * opaque must stay valid until the filter is freed. sbf_copy uses the
 * source's allocator. Without one (NULL) the library uses aligned_alloc,
 * and anonymous 2 MiB-aligned, huge-page advised mappings from 2 MiB.
 */
typedef struct sbf_allocator {
    void *(*alloc)(void *opaque, size_t size);
    void (*free)(void *opaque, void *ptr);
    void *opaque;
} sbf_allocator;

/*
 * Creation parameters. Zero means "default" for every field but fpp, so the
 * struct can grow: initialise it with `sbf_params p = {0};`.
 *  layout      sbf_layout. 0, a zeroed struct's, is SBF_CLASSIC and stays so
 *              (ids are frozen and stored in files; changing what 0 means
 *              would silently change existing programs' filters). Classic
 *              is the Guava-compatible and slowest layout: name SBF_BLOCKED
 *              or SBF_SPLIT_BLOCK for speed (README "Layouts").
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
 *  allocator   NULL: the library's memory; else a caller's sbf_allocator,
 *              whose alloc and free must both be set (else SBF_E_PARAM)
 */
typedef struct sbf_params {
    int layout;
    uint64_t expected_n;
    double fpp;
    uint64_t bits;
    uint32_t k;
    uint32_t seed;
    uint32_t flags;
    const sbf_allocator *allocator;
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
 * SBF_E_TOO_LARGE, SBF_E_NOMEM, SBF_E_FLAGS, SBF_E_PARAM (an allocator
 * without alloc or free), or the ISA error of the forced ISA
 * (SBF_E_ISA_UNKNOWN / SBF_E_ISA_UNAVAILABLE, see sbf_isa_set).
 * Without an allocator, filters of 2 MiB and more are 2 MiB aligned and
 * advised to use huge pages.
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
 * SBF_E_NULL, SBF_E_READONLY (a mapped filter).
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
 * saturated and stay 15, so removing a key that was added never causes a
 * false negative. Removing a key that was never added but tests present (a
 * false positive) decrements counters other keys set; those keys may then
 * test absent. No filter can detect this: remove only keys that were added,
 * once per add.
 * Returns SBF_OK; SBF_E_NOT_PRESENT (the filter says the key is surely
 * absent; nothing changes); SBF_E_UNSUPPORTED for other layouts; SBF_E_NULL;
 * SBF_E_READONLY (a mapped filter).
 */
SBF_API int sbf_remove(sbf_filter *f, const void *key, size_t len);

/*
 * Batched 64-bit keys. Each key is hashed as its 8 little-endian bytes, so
 * sbf_add_u64(f, &x, 1) and sbf_add(f, &x, 8) set the same bits.
 * sbf_add_u64 returns SBF_OK, SBF_E_NULL (keys may be NULL when n is 0) or
 * SBF_E_READONLY (a mapped filter).
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
 * checked before anything is changed; SBF_E_READONLY for sbf_add_batch on a
 * mapped filter).
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

/* The same hash of n byte strings (keys[i] points at lens[i] bytes and may
 * be NULL when lens[i] is 0), batched in SIMD lanes by the active ISA:
 * h1[i], h2[i] are sbf_murmur3_x64_128(keys[i], lens[i], seed)'s out[0],
 * out[1]. Only the keys' own bytes are read. Returns SBF_OK, or SBF_E_NULL
 * (keys, lens, h1 or h2 NULL with n > 0, or a NULL keys[i] with lens[i] > 0:
 * checked before anything is written). The active ISA as for
 * sbf_murmur3_x64_128_u64. Thread safe. */
SBF_API int sbf_murmur3_x64_128_batch(const void *const *keys, const size_t *lens,
                                      size_t n, uint32_t seed, uint64_t *h1,
                                      uint64_t *h2);

/* XXH64 with seed 0, bit-exact with xxHash's XXH64(key, len, 0): the hash of
 * Parquet's Bloom filters. key may be NULL if len is 0 (a NULL key hashes as
 * the empty string). Thread safe. */
SBF_API uint64_t sbf_xxh64(const void *key, size_t len);

/* XXH64 (seed 0) of each key's 8 little-endian bytes (a Parquet INT64
 * value), batched in SIMD lanes by the active ISA: h receives n values;
 * nothing is written when n is 0 or a pointer is NULL. Every ISA gives the
 * same values; the active ISA as for sbf_murmur3_x64_128_u64. Thread safe. */
SBF_API void sbf_xxh64_u64(const uint64_t *keys, size_t n, uint64_t *h);

/* XXH64 (seed 0) of n byte strings, batched in SIMD lanes: h[i] is
 * sbf_xxh64(keys[i], lens[i]). Keys, reads and returns as for
 * sbf_murmur3_x64_128_batch (SBF_OK or SBF_E_NULL). Thread safe. */
SBF_API int sbf_xxh64_batch(const void *const *keys, const size_t *lens, size_t n,
                            uint64_t *h);

/* ------------------------------------------------------------- persistence
 * A filter's serialized forms. Ours is described, normatively and field by
 * field, in doc/format.md; Guava's below. Loaders check every byte from
 * outside before they allocate: a refused buffer changes nothing and leaves
 * *out NULL (when out is not NULL). Writers only read f and are thread
 * safe, but not while another thread adds to an SBF_CONCURRENT f (the bytes
 * and their checksum must be one snapshot). Loaders make plain filters
 * (flags 0) on the current ISA's kernels.
 */

/* The forms, numbered once (0 means "detect" where a function says so). */
#define SBF_FORMAT_SBF      1  /* simdbloom's own, doc/format.md */
#define SBF_FORMAT_GUAVA    2  /* Guava's BloomFilter.writeTo */
#define SBF_FORMAT_PARQUET  3  /* Parquet's BloomFilterHeader + bitset */

/*
 * Guava's BloomFilter.writeTo form (classic layout with seed 0 only): one
 * byte strategy (1 = MURMUR128_MITZ_64), one byte k, big-endian int32 word
 * count, big-endian int64 words. It carries no key count: an imported
 * filter's keys_added is SBF_KEYS_UNKNOWN.
 * sbf_export_guava returns SBF_OK, SBF_E_NULL, SBF_E_UNSUPPORTED (not a
 * seed-0 classic filter), SBF_E_NOMEM.
 * sbf_import_guava returns SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED (shorter than
 * the header, or than the words it announces), SBF_E_TRAILING (bytes after
 * the last word), SBF_E_STRATEGY, SBF_E_K (k = 0), SBF_E_WORDCOUNT (count
 * <= 0), SBF_E_NOMEM, SBF_E_ISA_UNKNOWN, SBF_E_ISA_UNAVAILABLE (the forced
 * ISA, as sbf_create). sbf_import_guava_ex takes an allocator for the new
 * filter (NULL: the library's; see sbf_allocator) and returns the same
 * codes, and SBF_E_PARAM for an allocator without alloc or free.
 */
SBF_API int sbf_export_guava(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_import_guava(sbf_filter **out, const void *buf, size_t len);
SBF_API int sbf_import_guava_ex(sbf_filter **out, const void *buf, size_t len,
                                const sbf_allocator *allocator);

/*
 * simdbloom's own portable form, for every layout (doc/format.md): format
 * version 2, a 4096-byte little-endian header, then the filter bytes,
 * sbf_data's, at offset 4096. sbf_serialize's buffer is byte for byte what
 * sbf_save writes to a file; it is page aligned (free() or sbf_buffer_free
 * releases it). sbf_deserialize reads versions 1 and 2 at any alignment,
 * checking everything (header, geometry against the data length, both
 * checksums, zero padding) before it allocates.
 * sbf_serialize returns SBF_OK, SBF_E_NULL, SBF_E_NOMEM, SBF_E_ENDIAN.
 * sbf_deserialize returns SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED,
 * SBF_E_TRAILING, SBF_E_FORMAT (bad magic or checksum, inconsistent
 * parameters, non-zero padding or reserved bytes), SBF_E_VERSION,
 * SBF_E_LAYOUT, SBF_E_K, SBF_E_TOO_LARGE, SBF_E_ENDIAN, SBF_E_NOMEM,
 * SBF_E_ISA_UNKNOWN, SBF_E_ISA_UNAVAILABLE. sbf_deserialize_ex takes an
 * allocator (as sbf_import_guava_ex) and returns the same codes, and
 * SBF_E_PARAM for an allocator without alloc or free.
 */
SBF_API int sbf_serialize(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_deserialize(sbf_filter **out, const void *buf, size_t len);
SBF_API int sbf_deserialize_ex(sbf_filter **out, const void *buf, size_t len,
                               const sbf_allocator *allocator);

/* "sbf", "guava", "parquet" for a form built into this library, "unknown"
 * otherwise; sbf_format_from_name is the reverse, or SBF_E_PARAM (NULL or
 * unknown name). */
SBF_API const char *sbf_format_name(int format);
SBF_API int sbf_format_from_name(const char *name);

/*
 * The form of len bytes at buf, from their first bytes (ours and Parquet's
 * by their magic; Guava's, which has none, by a first byte that is one of
 * its strategy ordinals, 0 or 1: its loader then says what else is wrong).
 * Returns SBF_FORMAT_*, SBF_E_NULL (buf NULL, len > 0), SBF_E_TRUNCATED
 * (len 0, or the start of our magic), SBF_E_FORMAT (no form it knows).
 * It recognises a form; only the form's loader checks the bytes.
 */
SBF_API int sbf_format_detect(const void *buf, size_t len);

/*
 * Any form by number: sbf_encode writes f in `format` (a buffer that
 * sbf_buffer_free releases), sbf_decode reads one (format 0: detect it as
 * sbf_format_detect) with an allocator for the new filter (NULL: the
 * library's). Both return SBF_E_PARAM for a format this library does not
 * have, and otherwise the codes of the form's functions: sbf_serialize /
 * sbf_export_guava, sbf_deserialize_ex / sbf_import_guava_ex; sbf_decode
 * also SBF_E_NULL and, when detecting, sbf_format_detect's codes.
 */
SBF_API int sbf_encode(const sbf_filter *f, int format, void **buf, size_t *len);
SBF_API int sbf_decode(sbf_filter **out, const void *buf, size_t len, int format,
                       const sbf_allocator *allocator);

/* ------------------------------------------------------------------- files
 * Files hold the forms above; sbf_save, sbf_load and sbf_map use ours
 * (byte for byte what sbf_serialize returns), sbf_save_as and sbf_load_as
 * any. On SBF_E_IO, errno is the failed call's. Loaders read regular files
 * only, and never block on opening one: a directory is SBF_E_IO with errno
 * EISDIR, a FIFO, device or socket SBF_E_IO with EINVAL. A refused file
 * changes nothing and leaves *out NULL. All are thread safe (savers only
 * read f; see "persistence" for SBF_CONCURRENT filters).
 */

/*
 * Writes f to path in our form, crash-safe: a temporary file beside the
 * target (same directory) is written, fsync'd and renamed over it, then the
 * directory is fsync'd. A save killed at any moment leaves at path either
 * the old file or the new one. The file stays the user's:
 *  - through a symbolic link (a chain of them), the file the link points to
 *    is written and the link stays a link;
 *  - over an existing file, its mode (permission bits) is kept, and its
 *    owner and group as far as the caller's rights allow (another user's
 *    file saved by a non-root caller becomes the caller's, with the group
 *    kept if the caller is in it); ACLs, extended attributes and other
 *    hard links to the old file are not carried over. A new file gets mode
 *    0666 minus the umask, as open() gives;
 *  - the temporary name is "." + the target's name (cut to fit NAME_MAX,
 *    so any legal name saves) + ".sbf-tmp-" + a digit. A save holds a lock
 *    on it until the rename, so the temporary file of a save that died
 *    (SIGKILL, power loss) is recognised and removed by the next save of
 *    that file (when the same user owns it). Eight saves of one file may
 *    run at once; a failed save removes its temporary file.
 * Readers that mapped the old file keep it.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (empty path), SBF_E_NOMEM,
 * SBF_E_ENDIAN, SBF_E_IO: the old file is untouched when open, write,
 * fsync or rename failed, when the target is not a regular file (EISDIR,
 * EINVAL), or when every temporary name is taken by live saves or other
 * users' files (EEXIST); when only the directory fsync (or the close) failed
 * after the rename, the new file is in place but may not survive a power
 * loss.
 */
SBF_API int sbf_save(const sbf_filter *f, const char *path);

/*
 * sbf_save in any form (format SBF_FORMAT_*, never 0), with the same
 * promises: the bytes are sbf_encode's. Returns sbf_save's codes and
 * sbf_encode's (SBF_E_PARAM for an unknown form, SBF_E_UNSUPPORTED for a
 * filter the form cannot hold).
 */
SBF_API int sbf_save_as(const sbf_filter *f, const char *path, int format);

/*
 * Reads a file of our format (version 1 or 2) into the library's own memory
 * (2 MiB aligned, huge-page advised from 2 MiB, as sbf_create). Header,
 * geometry and lengths are checked before allocating; both checksums and
 * the padding before returning. Returns SBF_OK, SBF_E_NULL, SBF_E_IO (open,
 * fstat, read; not a regular file), SBF_E_NOMEM, and every code of
 * sbf_deserialize.
 */
SBF_API int sbf_load(sbf_filter **out, const char *path);

/*
 * Reads a file of any form: format SBF_FORMAT_*, or 0 to detect it from the
 * file's first bytes and size (as sbf_format_detect; the file is opened
 * once, so detection and reading see one file). *found (when not NULL)
 * receives the form read, 0 on failure before it was known. Our form is
 * read as sbf_load does; another form is read whole into a buffer, then
 * decoded (so it needs twice its size for a moment). Returns sbf_load's
 * codes, sbf_decode's, and SBF_E_PARAM for an unknown format number.
 */
SBF_API int sbf_load_as(sbf_filter **out, const char *path, int format, int *found);

/* The form of a file from its first bytes and size: sbf_format_detect's
 * returns, SBF_E_NULL, SBF_E_IO (open, fstat, read; not a regular file). */
SBF_API int sbf_file_format(const char *path);

/*
 * Checks a file of our format completely without keeping it: everything
 * sbf_load checks (header, geometry, lengths, both checksums, the padding),
 * reading the data in 16 MiB pieces (no filter made, nothing mapped), and
 * calls progress(opaque, data bytes checked, data bytes) after each piece
 * (progress may be NULL). A version-1 file is loaded whole, then dropped.
 * Returns SBF_OK, or the code sbf_load would return for the file (SBF_E_NOMEM
 * for the 16 MiB buffer). Thread safe.
 */
typedef void (*sbf_progress_fn)(void *opaque, uint64_t done, uint64_t total);
SBF_API int sbf_verify_file(const char *path, sbf_progress_fn progress, void *opaque);

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
 * them, with the kernel's usual read-around. Every query works on the
 * mapping (single, batched, sbf_info, sbf_data, sbf_copy: the copy is
 * writable); every modifying call (sbf_add*, sbf_remove, sbf_clear,
 * sbf_union / sbf_intersect into it) returns SBF_E_READONLY and changes
 * nothing. sbf_free unmaps. sbf_save replaces files by rename, which is
 * safe: the mapping keeps the old file.
 * A file truncated in place while mapped is not safe: a query (or sbf_info,
 * sbf_copy, a save) that touches a page past the new end gets SIGBUS from
 * the kernel, which the library does not catch (it never installs signal
 * handlers). A caller that must survive that either loads the file
 * (sbf_load: a truncation then is SBF_E_TRUNCATED), or handles SIGBUS itself
 * (a handler that siglongjmp's out of the query, then sbf_free and re-map).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags), SBF_E_VERSION
 * (also for a version-1 file, whose data is not page aligned: sbf_load it),
 * SBF_E_IO (open, fstat, read, mmap; not a regular file), SBF_E_NOMEM, every
 * code of sbf_deserialize, and the forced-ISA errors of sbf_create.
 */
SBF_API int sbf_map(sbf_filter **out, const char *path, unsigned flags);

/*
 * An exclusive lock on a file for a read-modify-write (load, change, save)
 * among processes (and threads) that all take it: two `sbf add` runs on one
 * file keep both key sets. flock(2) on the file, re-checked after it is
 * granted: a save replaces the file by rename, so a lock granted on the file
 * a finished save just replaced is dropped and taken again on the file path
 * names now (the file written last). Hold it from before the load until
 * after the save: another process then takes it on the new file. flags 0
 * waits for the lock; SBF_LOCK_NOWAIT returns SBF_E_LOCKED at once when
 * another holds it. The lock is advisory (plain loads and saves ignore it),
 * per open file (released by sbf_unlock_file, by exit and by a crash), and
 * for local file systems (over NFS, flock is emulated by byte-range locks).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags), SBF_E_LOCKED,
 * SBF_E_NOMEM, SBF_E_IO (open, fstat, flock; not a regular file, ENOENT for a
 * missing one; EAGAIN when the file was replaced 1000 times while we waited).
 * sbf_unlock_file releases it (NULL is ignored). Thread safe.
 */
#define SBF_LOCK_NOWAIT 1u
typedef struct sbf_file_lock sbf_file_lock;
SBF_API int sbf_lock_file(sbf_file_lock **out, const char *path, unsigned flags);
SBF_API void sbf_unlock_file(sbf_file_lock *lock);

/* ------------------------------------------------- life cycle and set ops */

/* sbf_info.keys_added of a filter whose key count is not known: imported
 * from Guava (whose form carries no count), made by sbf_union or
 * sbf_intersect (keys may be in both), or loaded from a file saved so. It
 * stays unknown through adds and removes until sbf_clear. */
#define SBF_KEYS_UNKNOWN UINT64_MAX

/* Information about a filter. keys_added counts the calls that changed
 * their key's answer: +1 for each add that set a bit (for counting, left a
 * counter zero: sbf_add's 1; adding a key again does not count), -1 for each
 * removal after which its key tests absent; the same on plain and
 * SBF_CONCURRENT filters, and 0 if removals outnumber adds. Distinct keys
 * added is at least this (a key whose bits were all set already, a false
 * positive, is not counted). */
struct sbf_info {
    int layout;                 /* sbf_layout */
    uint64_t bits;              /* m: bits (counting: 4 per counter) */
    size_t bytes;               /* bytes of filter data */
    uint32_t k;                 /* bits (counters) per key */
    uint32_t block_bits;        /* 512, 256 for 8-word split-block, 0 classic */
    uint32_t seed;
    uint64_t keys_added;        /* as above, or SBF_KEYS_UNKNOWN */
    double fill_ratio;          /* set bits / bits (counting: non-zero counters) */
    double est_cardinality;     /* Swamidass-Baldi estimate of distinct keys
                                   (INFINITY when every bit is set) */
    double fpp_now;             /* sbf_fpp_theory(f, keys_added); when the
                                   count is unknown, fpp_estimated */
    uint64_t saturated;         /* counting: counters stuck at 15; else 0 */
    int isa;                    /* sbf_isa of the kernels this filter uses */
    double fpp_estimated;       /* sbf_fpp_theory at est_cardinality (1 if
                                   infinite): the rate judged from the bits */
};

/* Fills *out. Returns SBF_OK or SBF_E_NULL. O(size of the filter); safe
 * during concurrent adds to an SBF_CONCURRENT filter (relaxed loads). */
SBF_API int sbf_info(const sbf_filter *f, struct sbf_info *out);

/* sbf_info with flags: 0 is sbf_info; SBF_INFO_SAMPLE reads 256 evenly
 * spaced runs of 4 KiB (1 MiB; on a mapping one page each, asked for
 * together, so a big mapped file is not read whole: 12 ms against 0.7 s for
 * a cold 1 GiB file) and estimates fill_ratio, saturated, est_cardinality
 * and fpp_estimated from them (exact for filters of 1 MiB or less; within
 * about 1% of the fill for a filter whose keys are spread as hashes spread
 * them).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags). Thread safe as
 * sbf_info. */
#define SBF_INFO_SAMPLE 1u
SBF_API int sbf_info_ex(const sbf_filter *f, struct sbf_info *out, unsigned flags);

/* Clears every bit/counter; keys_added becomes 0 (known). Returns SBF_OK,
 * SBF_E_NULL, SBF_E_READONLY. */
SBF_API int sbf_clear(sbf_filter *f);

/* *out becomes an independent, writable copy (same flags, kernels and
 * allocator, keys_added included). Safe during concurrent adds to an
 * SBF_CONCURRENT f (relaxed loads: the copy holds every key whose add
 * returned before sbf_copy was called). Returns SBF_OK, SBF_E_NULL,
 * SBF_E_NOMEM. */
SBF_API int sbf_copy(sbf_filter **out, const sbf_filter *f);

/*
 * dst becomes the union (intersection) of dst and src, which must have the
 * same layout, bits, k and seed. Counting filters add counters (saturating)
 * for union and take the minimum for intersection. dst's keys_added becomes
 * SBF_KEYS_UNKNOWN (keys may be in both; sbf_info estimates it).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_READONLY (dst mapped), SBF_E_INCOMPATIBLE
 * (dst unchanged).
 */
SBF_API int sbf_union(sbf_filter *dst, const sbf_filter *src);
SBF_API int sbf_intersect(sbf_filter *dst, const sbf_filter *src);

/* Raw filter bytes (read-only), for comparison and hashing of filters. */
SBF_API const void *sbf_data(const sbf_filter *f, size_t *len);

/* Every byte f holds: the filter object, its words as allocated (with the
 * alignment slack, or the whole 2 MiB-rounded mapping; a file mapping's
 * length for sbf_map), and its SBF_CONCURRENT counters. What an allocator
 * (sbf_allocator) was asked for, in total. 0 for NULL. Thread safe. */
SBF_API size_t sbf_memory_usage(const sbf_filter *f);

/*
 * Writes len raw bytes at byte `offset` of the filter's data (the bytes
 * sbf_data returns), to move a filter in chunks (the Redis module's
 * BF.LOADCHUNK, a copy over a network): once a filter of the same layout,
 * bits, k and seed has had every chunk of another's data written, it answers
 * as that one. Only the first bits / 8 bytes (sbf_info's bits) carry the
 * filter; the rest is padding that stays zero, so offset + len must be
 * <= bits / 8. keys_added is not changed. Not safe during concurrent adds,
 * SBF_CONCURRENT filters included.
 * Returns SBF_OK, SBF_E_NULL (f NULL, or buf NULL with len > 0), SBF_E_PARAM
 * (past bits / 8; nothing written), SBF_E_READONLY (a mapping, sbf_map).
 */
SBF_API int sbf_write_data(sbf_filter *f, uint64_t offset, const void *buf, size_t len);

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

/* ------------------------------------------------------- fold and estimate */

/*
 * Folds f into a new filter *out with half as many blocks, `times` times
 * over (1 halves, 2 quarters, ...): blocks 2i and 2i+1 are OR-ed into block
 * i (counting: counters added, saturating at 15). For every layout whose
 * block index is a multiply-shift (blocked, split-block, counting) this is
 * exact: the result is bit for bit the filter of the same keys built at the
 * smaller size, since floor(floor(h*z/2^64)/2) = floor(h*(z/2)/2^64). Keys
 * added, seed, k and flags carry over. f is unchanged.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (times is 0), SBF_E_UNSUPPORTED
 * (classic layout), SBF_E_ODD_BLOCKS (a block count met on the way is odd,
 * or would fall below one block), SBF_E_NOMEM. Thread safe (f only read,
 * unless it is concurrent and being added to: then the copy may miss
 * those adds, as sbf_copy may).
 */
SBF_API int sbf_fold(sbf_filter **out, const sbf_filter *f, uint32_t times);

/*
 * The false-positive rate f gives now, estimated from its own bits: the
 * mean over blocks of the chance that a probe finds all its bits set
 * (split-block: the product over the k words of set bits / 32; blocked:
 * (set bits / 512)^k; counting: (non-zero counters / 128)^k; classic, one
 * block: (set bits / m)^k). It needs no key count, so it holds for a filter
 * read from elsewhere. NaN when f is NULL. O(size of the filter).
 */
SBF_API double sbf_fpp_estimate(const sbf_filter *f);

/*
 * Folds f as many times as keeps sbf_fpp_estimate(result) <= fpp, and no
 * more (0 times when even one fold exceeds it: *out is then a copy of f).
 * *times_out (may be NULL) gets how many folds were made.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_FPP, SBF_E_UNSUPPORTED (classic),
 * SBF_E_NOMEM.
 */
SBF_API int sbf_fold_to(sbf_filter **out, const sbf_filter *f, double fpp,
                        uint32_t *times_out);

/* ------------------------------------------------------------ Parquet files
 * The split-block Bloom filters inside .parquet files (apache/parquet-format
 * BloomFilter.md). Reading a file walks only its footer (Thrift compact
 * FileMetaData -> row groups -> column chunks -> ColumnMetaData path, type,
 * bloom_filter_offset 14 and bloom_filter_length 15), bounded in nesting
 * depth, lengths and list sizes. Files it does not understand are refused
 * with a code and, through `why` (may be NULL), a static sentence naming the
 * reason (encrypted footer, truncated footer, malformed Thrift, ...).
 */

/* Parquet physical types (parquet.thrift `Type`). */
#define SBF_PQ_BOOLEAN 0
#define SBF_PQ_INT32 1
#define SBF_PQ_INT64 2
#define SBF_PQ_INT96 3
#define SBF_PQ_FLOAT 4
#define SBF_PQ_DOUBLE 5
#define SBF_PQ_BYTE_ARRAY 6
#define SBF_PQ_FIXED_LEN_BYTE_ARRAY 7

/* One column chunk of a file. */
typedef struct sbf_parquet_column {
    uint32_t row_group;     /* index of the row group in the footer */
    uint32_t column;        /* index of the chunk in its row group */
    int type;               /* SBF_PQ_*, or -1 when absent or unknown */
    const char *path;       /* path_in_schema joined with '.'; owned by the file */
    int64_t num_values;
    int64_t bloom_offset;   /* bloom_filter_offset, -1 when there is no filter */
    int32_t bloom_length;   /* bloom_filter_length, -1 when not recorded */
} sbf_parquet_column;

typedef struct sbf_parquet sbf_parquet;

/*
 * Opens a .parquet file and reads its footer (the file stays open for
 * sbf_parquet_read_bloom). sbf_parquet_open_mem reads a whole file image
 * in memory, which must outlive the object.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_IO (open, fstat, read; not a regular
 * file), SBF_E_TRUNCATED, SBF_E_FORMAT (no PAR1 magic, malformed footer),
 * SBF_E_UNSUPPORTED (encrypted footer or column metadata), SBF_E_TOO_LARGE
 * (footer over 1 GiB), SBF_E_NOMEM. Thread safe.
 */
SBF_API int sbf_parquet_open(sbf_parquet **out, const char *path, const char **why);
SBF_API int sbf_parquet_open_mem(sbf_parquet **out, const void *buf, size_t len,
                                 const char **why);
/* Closes the file; NULL is accepted. */
SBF_API void sbf_parquet_close(sbf_parquet *pq);
/* Every column chunk, row group by row group: the count, *cols the array
 * (valid until sbf_parquet_close). 0 and NULL for NULL. */
SBF_API size_t sbf_parquet_columns(const sbf_parquet *pq, const sbf_parquet_column **cols);
SBF_API uint32_t sbf_parquet_row_groups(const sbf_parquet *pq);
/*
 * Reads column chunk i's Bloom filter as stored: the Thrift BloomFilterHeader
 * followed by its bitset (*buf malloc'd, *len bytes). The header is parsed
 * and its size checked against the file and bloom_filter_length before the
 * bitset is allocated. Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (no such
 * chunk, or it has no filter), SBF_E_TRUNCATED, SBF_E_FORMAT,
 * SBF_E_UNSUPPORTED (not split-block / XXHASH / uncompressed), SBF_E_IO,
 * SBF_E_NOMEM. Safe from several threads on one file.
 */
SBF_API int sbf_parquet_read_bloom(const sbf_parquet *pq, size_t i, void **buf,
                                   size_t *len, const char **why);
/* sbf_parquet_read_bloom, then sbf_import_parquet: chunk i's filter as an
 * SBF_PARQUET filter. The codes of both. */
SBF_API int sbf_parquet_filter(sbf_filter **out, const sbf_parquet *pq, size_t i,
                               const char **why);

/*
 * A parquet-layout filter in the form Parquet writers embed in a file: the
 * Thrift compact BloomFilterHeader {numBytes, BLOCK, XXHASH, UNCOMPRESSED}
 * (fields in order, short form, as parquet-java, Arrow and DuckDB write it)
 * followed by the bitset, byte for byte.
 * sbf_export_parquet returns SBF_OK, SBF_E_NULL, SBF_E_UNSUPPORTED (not the
 * parquet layout), SBF_E_NOMEM.
 * sbf_import_parquet checks the header (unknown fields are skipped) and the
 * length before it allocates, and returns SBF_OK, SBF_E_NULL,
 * SBF_E_TRUNCATED, SBF_E_TRAILING, SBF_E_FORMAT (malformed Thrift, numBytes
 * not a positive multiple of 32), SBF_E_UNSUPPORTED (another algorithm, hash
 * or a compression), SBF_E_NOMEM, and the forced-ISA errors of sbf_create.
 * Keys added is 0 after import (the form does not carry it). Thread safe.
 */
SBF_API int sbf_export_parquet(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_import_parquet(sbf_filter **out, const void *buf, size_t len);

/*
 * Parquet layout only: add or probe values by their XXH64 hash (seed 0, of
 * the PLAIN encoding), as a Parquet engine that already hashed them would
 * (Arrow's InsertHash / FindHash): hash once, probe many filters (one per
 * row group). sbf_add_xxh64(f, &h, 1) sets the bits sbf_add(f, value, len)
 * sets when h is the value's XXH64. Returns as sbf_add_u64 /
 * sbf_contains_u64, and SBF_E_UNSUPPORTED (as (size_t) for contains) for
 * other layouts; sbf_add_xxh64 also SBF_E_READONLY.
 */
SBF_API int sbf_add_xxh64(sbf_filter *f, const uint64_t *h, size_t n);
SBF_API size_t sbf_contains_xxh64(const sbf_filter *f, const uint64_t *h, size_t n,
                                  uint8_t *out);

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
