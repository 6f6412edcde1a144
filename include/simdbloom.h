/*
 * simdbloom: Bloom filters for the hot path.
 *
 * Start here: a first program is five calls (README.md has it whole).
 *
 *     sbf_params p = { .layout = SBF_BLOCKED, .expected_n = 1000000, .fpp = 0.01 };
 *     sbf_filter *f;
 *     int rc = sbf_create(&f, &p);         // SBF_OK, or a code: sbf_strerror(rc)
 *     sbf_add(f, "alice", 5);              // a key is any bytes
 *     if (sbf_contains(f, "alice", 5))     // 1: maybe present, 0: surely absent
 *         ...
 *     sbf_free(f);
 *
 * Then: sbf_params (the layouts and their sizing), the batched calls
 * (sbf_add_u64, sbf_contains_u64, sbf_add_batch), SBF_CONCURRENT for many
 * threads, simdbloom_inline.h for one key in a hot loop, and files
 * (simdbloom_files.h, included below).
 *
 * One public header: #include <simdbloom.h> and nothing else. Its file and
 * Parquet sections live in two parts it includes at its end,
 * simdbloom_files.h and simdbloom_parquet.h (installed beside it; each
 * refuses to be included alone). Only <stddef.h>, <stdint.h> and
 * <stdbool.h>; no intrinsics, no vector types. Every exported name starts
 * with sbf_ / SBF_.
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
#define SBF_VERSION_MINOR 2
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
#define SBF_E_FULL            -26  /* a non-scaling scalable filter holds its capacity */

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
    SBF_PARQUET = 4,     /* Parquet's split-block filter: XXH64, the spec's salts, k = 8 */
    /* The same geometries hashed by XXH3_64bits (seeded): the fast choice
     * when no other program reads the filter (doc/format.md "XXH3 layouts") */
    SBF_SPLIT_BLOCK_XXH3 = 5, /* split-block's geometry; k = 8 or 16 */
    SBF_BLOCKED_XXH3 = 6,     /* blocked's geometry; k = 1..16 */
    SBF_COUNTING_XXH3 = 7,    /* counting's geometry; k = 1..16 */
    /* The same geometries with an 8-byte key hashed by fmix64 (MurmurHash3's
     * 64-bit finalizer) of key ^ a constant of the seed, other lengths by
     * XXH3 as above: the fastest one-key path, for callers who choose speed
     * over a full hash of u64 keys (doc/format.md "fmix layouts") */
    SBF_SPLIT_BLOCK_FMIX = 8, /* split-block-xxh3's geometry and mapping; k = 8 or 16 */
    SBF_BLOCKED_FMIX = 9      /* blocked-xxh3's geometry and mapping; k = 1..16 */
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

/* What a layout is, for code that would otherwise compare layout ids:
 * asked for a layout and k (0: its smallest k), before any filter exists. */
struct sbf_layout_info {
    const char *name;       /* sbf_layout_name */
    uint32_t cell_bits;     /* bits per cell: 1, or 4 where cells are counters
                               (counting: sbf_remove works, every add counts) */
    uint32_t block_bits;    /* the block all of a key's cells lie in, at this
                               k, as sbf_info says: 512, 256 for 8-word
                               split-block; 0: anywhere in the filter (classic) */
    uint32_t k_min, k_max, k_step; /* the k it takes: k_min, k_min + k_step, .. */
};
/* Fills *out. Returns SBF_OK, SBF_E_NULL, SBF_E_LAYOUT (no such layout),
 * SBF_E_K (a k the layout does not take). Thread safe. */
SBF_API int sbf_layout_info(int layout, uint32_t k, struct sbf_layout_info *out);

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
 *              false-positive formula is <= fpp (classic: its bound, with
 *              Guava's size wherever that keeps the rate; sbf_size);
 *              else the filter size in bits, rounded up to the layout's
 *              granule (classic 64, others 512; split-block 256 when k = 8).
 *              For the counting layout bits counts memory (4 per counter).
 *  k           0: derive; classic 1..255, blocked/counting 1..16,
 *              split-block 8 (256-bit blocks) or 16 (512-bit blocks)
 *  seed        MurmurHash3 seed; 0 is Guava's
 *  flags       0, SBF_CONCURRENT and/or SBF_ZEROED (below); another bit is
 *              SBF_E_FLAGS
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

/*
 * SBF_ZEROED: the caller's sbf_allocator returns memory that reads as zero
 * (calloc, a fresh anonymous mapping, pages dropped with MADV_DONTNEED), so
 * sbf_create does not clear the words itself: creating a large filter then
 * costs no pass over its memory (the kernel zeroes pages when first
 * touched). Only sbf_create reads it, only with an allocator (the library's
 * own large filters are fresh mappings and never cleared twice); a filter
 * does not keep it (sbf_copy fills every word).
 */
#define SBF_ZEROED (UINT32_C(1) << 1)

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
 * sbf_add_u64 returns SBF_OK, SBF_E_NULL (f NULL, or keys NULL with n > 0),
 * SBF_E_READONLY (a mapping: sbf_map).
 * sbf_contains_u64 writes out[i] = 1 (maybe) or 0 (no) when out is not NULL
 * and returns how many keys may be present; it returns SIZE_MAX (and writes
 * nothing) when f is NULL or keys is NULL with n > 0: that is
 * (size_t)SBF_E_NULL, and sbf_is_error() tells it from a count.
 */
SBF_API int sbf_add_u64(sbf_filter *f, const uint64_t *keys, size_t n);
SBF_API size_t sbf_contains_u64(const sbf_filter *f, const uint64_t *keys,
                                size_t n, uint8_t *out);

/*
 * Batched variable-length keys: keys[i] points at lens[i] bytes (NULL only
 * when lens[i] is 0). Hashed in SIMD lanes where the ISA has them (every
 * ISA gives MurmurHash3_x64_128's exact values) and probed by the same
 * pipeline and vector kernels as the u64 forms; sbf_add_batch(f, &p, &len,
 * 1) sets the bits of sbf_add(f, p, len).
 * sbf_add_batch returns SBF_OK, SBF_E_NULL (f NULL; keys or lens NULL with
 * n > 0; a NULL keys[i] with lens[i] > 0: all checked before anything
 * changes), SBF_E_READONLY. sbf_contains_batch returns the count as
 * sbf_contains_u64, or SIZE_MAX ((size_t)SBF_E_NULL) in the same NULL cases.
 */
SBF_API int sbf_add_batch(sbf_filter *f, const void *const *keys,
                          const size_t *lens, size_t n);
SBF_API size_t sbf_contains_batch(const sbf_filter *f, const void *const *keys,
                                  const size_t *lens, size_t n, uint8_t *out);

/*
 * Every batch form in one pair of calls, and the count of keys that changed
 * the filter. Fill n and exactly one of the forms, leaving the others NULL:
 *  u64                n 64-bit keys, each hashed as its 8 little-endian bytes;
 *  ptrs, lens         key i is lens[i] bytes at ptrs[i] (sbf_add_batch's);
 *  data + offsets     Arrow's binary layouts: key i is the bytes
 *  (or offsets32)     data[offsets[i]] .. data[offsets[i + 1] - 1], so
 *                     offsets holds n + 1 non-decreasing values (64-bit:
 *                     large binary; offsets32, 32-bit: binary); data may be
 *                     NULL only when every key is empty.
 * The same key gives the same bits in every form (and in sbf_add).
 * sbf_add_keys returns how many keys changed the filter (set a bit, or for
 * counting raised a counter from 0: sbf_add's 1), at most n; on an
 * SBF_CONCURRENT filter as seen by the calling thread (two threads adding
 * one key may both count it). changed, when not NULL, gets n bytes:
 * changed[i] = 1 if key i changed the filter, else 0, as sbf_add would
 * return adding the keys one by one in order (a key that an earlier one of
 * the batch made present gets 0), in the same thread's view when
 * concurrent; NULL costs nothing; nothing is written on an error.
 * sbf_contains_keys returns how many may be
 * present and writes out[i] as sbf_contains_u64. Errors, as size_t (see
 * sbf_is_error), checked before anything changes: SBF_E_NULL (f or keys
 * NULL; n > 0 with no form, or a form's pointer NULL; a NULL ptrs[i] with
 * lens[i] > 0; NULL data with a key that is not empty), SBF_E_PARAM (more
 * than one form, offsets and offsets32 both, decreasing offsets),
 * SBF_E_READONLY (sbf_add_keys on a mapping). Thread safety as sbf_add /
 * sbf_contains.
 */
typedef struct sbf_keys {
    size_t n;
    const uint64_t *u64;
    const void *const *ptrs;
    const size_t *lens;
    const void *data;
    const uint64_t *offsets;
    const uint32_t *offsets32;
} sbf_keys;
SBF_API size_t sbf_add_keys(sbf_filter *f, const sbf_keys *keys,
                            uint8_t *changed);
SBF_API size_t sbf_contains_keys(const sbf_filter *f, const sbf_keys *keys,
                                 uint8_t *out);

/*
 * Functions that return a size_t (sbf_contains_u64, sbf_contains_batch,
 * sbf_add_keys, sbf_contains_keys) follow zstd's convention: a count, or an
 * error code c converted to size_t, (size_t)c: SBF_E_NULL is SIZE_MAX; the
 * _keys pair also returns SBF_E_PARAM and (add) SBF_E_READONLY.
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

/* XXH3_64bits_withSeed(key, len, seed), bit-exact with xxHash's: the hash of
 * the XXH3 layouts (SBF_SPLIT_BLOCK_XXH3, SBF_BLOCKED_XXH3,
 * SBF_COUNTING_XXH3), whose filters take seed = their sbf_params.seed. Their
 * (h1, h2) for sbf_add_hash / sbf_contains_hash is the h of this function
 * mapped as Parquet's (include/simdbloom_inline.h's sbf_parquet_pair). key
 * may be NULL if len is 0. Thread safe. */
SBF_API uint64_t sbf_xxh3_64(const void *key, size_t len, uint32_t seed);

/*
 * The (h1, h2) pairs that sbf_add_hash / sbf_contains_hash of filter f read
 * for n keys, whatever f's layout hashes with (MurmurHash3 with f's seed,
 * XXH64 mapped as Parquet's, XXH3 with f's seed mapped the same way), in
 * SIMD lanes: u64 keys when keys_u64 is not NULL (each its 8 little-endian
 * bytes), else the byte strings keys[i] of lens[i] bytes. Hash once, then
 * probe several filters of the same layout and seed with the pairs.
 * Returns SBF_OK, SBF_E_NULL. Thread safe.
 */
SBF_API int sbf_hash_pairs(const sbf_filter *f, const void *const *keys, const size_t *lens,
                           const uint64_t *keys_u64, size_t n, uint64_t *h1, uint64_t *h2);

/* Persistence and files (serialized forms, save, load, map, lock):
 * simdbloom_files.h, included at the end of this file. */

/* ------------------------------------------------- life cycle and set ops */

/* sbf_info.keys_added of a filter whose key count is not known: imported
 * from Guava (whose form carries no count), made by sbf_union or
 * sbf_intersect (keys may be in both), or loaded from a file saved so. It
 * stays unknown through adds and removes until sbf_clear. */
#define SBF_KEYS_UNKNOWN UINT64_MAX

/* Information about a filter. keys_added counts the calls that changed
 * their key's answer: +1 for each key an add changed (set a bit, or for
 * counting raised a counter from 0: sbf_add's 1, sbf_add_keys' count; the
 * same key added again does not count), -1 for each removal after which its
 * key tests absent. The same calls give the same count on plain and
 * SBF_CONCURRENT filters; 0 if removals outnumber adds. It is the number of
 * distinct keys added less those that were false positives when added (so
 * sbf_fpp_theory at it is the rate the filter gives). */
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
/* The exact formula of a layout; blocked and counting as sbf_fpp_blocked,
 * including its NaN for absurd k. Classic: an upper bound on Guava's double
 * hashing, which repeats and aligns positions at small m so that
 * (1-(1-1/m)^(kn))^k runs low by up to 10^7 (doc/promises.md); equal to
 * that formula for large m, within 1x-2.2x of measurements below. */
SBF_API double sbf_fpp_layout(int layout, uint64_t n, uint64_t bits, uint32_t k);
/* The layout's formula (sbf_fpp_layout) for this filter after n distinct
 * keys. */
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
 * used. The classic layout follows Guava 31.1 exactly wherever that keeps
 * the rate by sbf_fpp_layout's bound (up to 1% above fpp is let through:
 * Guava's rounding of k lands up to 0.7% above it at every size); else the
 * smallest multiple of 64 bits its search finds, from Guava's up, with a k
 * (often fewer than Guava's) whose bound is <= fpp. Below about
 * 2n(2k-1)/m^2 no classic filter goes (SBF_E_TOO_LARGE when that needs
 * more than its largest size). The others pick the smallest size whose
 * exact formula is <= fpp.
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
 * block index is a multiply-shift (blocked, split-block, counting, parquet) this is
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
 * (split-block and parquet: the product over the k words of set bits / 32; blocked:
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

/* Parquet files, the Parquet form, XXH64 adds and probes: simdbloom_parquet.h,
 * included at the end of this file. */

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

/* The rest of the API, by section (each part keeps its own extern "C"). */
#include "simdbloom_files.h"
#include "simdbloom_parquet.h"
#include "simdbloom_scalable.h"

#endif /* SIMDBLOOM_H_8A31F0C2 */
