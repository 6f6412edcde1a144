/*
 * Internal definitions shared by src/ and simd/. Not installed.
 *
 * This header holds the filter object, the kernel table, and the scalar
 * definition of where a key's bits live in every layout. Everything here is
 * `static inline` (internal linkage), so a copy compiled into a simd/ file
 * with -mavx512f can never be picked by the linker for the baseline code.
 */
#ifndef SBF_INTERNAL_H_51C7E2A9
#define SBF_INTERNAL_H_51C7E2A9

#include "simdbloom.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "simdbloom supports little-endian targets only"
#endif
#if UINTPTR_MAX != UINT64_MAX
#  error "simdbloom needs a 64-bit target"
#endif

#define SBFI_LINE 64u              /* bytes per block / cache line */
#define SBFI_HUGE (2u << 20)       /* 2 MiB: huge page size and threshold */
#define SBFI_BATCH 16u             /* keys hashed/prefetched per pipeline step */
#define SBFI_MAX_K_SPLIT 16u
#define SBFI_NLAYOUTS 4

#if defined(__GNUC__)
#  define SBFI_LIKELY(x) __builtin_expect(!!(x), 1)
#  define SBFI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define SBFI_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#  define SBFI_PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
#else
#  define SBFI_LIKELY(x) (x)
#  define SBFI_UNLIKELY(x) (x)
#  define SBFI_PREFETCH(p) ((void)(p))
#  define SBFI_PREFETCH_W(p) ((void)(p))
#endif

/* zstd-style early returns for src/. */
#define SBFI_RETURN_IF(cond, err) do { if (cond) return (err); } while (0)
#define SBFI_FORWARD_IF_ERROR(expr) \
    do { int sbfi_e_ = (expr); if (sbfi_e_ < 0) return sbfi_e_; } while (0)

/* ------------------------------------------------------------ kernel table */

typedef struct sbfi_kernels sbfi_kernels;

struct sbf_filter {
    uint64_t *words;        /* filter data, 64-byte aligned, `bytes` long */
    size_t bytes;           /* whole blocks / lines; padding stays zero */
    size_t map_bytes;       /* != 0: words came from mmap with this length */
    uint64_t bits;          /* m (classic: multiple of 64; counting: 4/counter) */
    uint64_t nblocks;       /* blocked layouts: number of blocks; classic: m */
    uint32_t k;
    uint32_t seed;
    int layout;
    uint32_t block_bytes;   /* 64; 32 for split-block with k = 8; 8 classic */
    uint64_t added;         /* adds minus removes since creation or clear */
    const sbfi_kernels *kt; /* kernels chosen at creation */
    /* --- files (src/file.c) --- */
    int readonly;           /* mapped by sbf_map: modifying calls refuse */
    void *file_map;         /* != NULL: words lie in this file mapping */
    size_t file_map_len;
};

typedef void (*sbfi_hash_fn)(const uint64_t *keys, size_t n, uint32_t seed,
                             uint64_t *h1, uint64_t *h2);
typedef void (*sbfi_add_fn)(sbf_filter *f, const uint64_t *keys, size_t n);
typedef size_t (*sbfi_contains_fn)(const sbf_filter *f, const uint64_t *keys,
                                   size_t n, uint8_t *out);

/*
 * One table per ISA. Entries indexed by sbf_layout. Every entry is non-NULL
 * (an ISA without a special kernel for a layout points at the scalar one).
 * `out` of contains may be NULL (count only).
 */
struct sbfi_kernels {
    const char *name;
    int isa;                 /* sbf_isa */
    sbfi_hash_fn hash_u64;
    sbfi_add_fn add_u64[SBFI_NLAYOUTS];
    sbfi_contains_fn contains_u64[SBFI_NLAYOUTS];
};

extern const sbfi_kernels sbfi_kernels_scalar;
extern const sbfi_kernels sbfi_kernels_simde;   /* simd/avx2.c, no flags */
extern const sbfi_kernels sbfi_kernels_avx2;    /* simd/avx2.c, -mavx2 */
extern const sbfi_kernels sbfi_kernels_avx512;  /* simd/avx512.c */
extern const sbfi_kernels sbfi_kernels_neon;    /* simd/neon.c */

/* Scalar reference kernels (src/scalar.c), usable as table entries. */
void sbfi_hash_u64_scalar(const uint64_t *keys, size_t n, uint32_t seed,
                          uint64_t *h1, uint64_t *h2);
void sbfi_add_u64_scalar(sbf_filter *f, const uint64_t *keys, size_t n);
size_t sbfi_contains_u64_scalar(const sbf_filter *f, const uint64_t *keys,
                                size_t n, uint8_t *out);
/* Operations on hashes (used by the variable-length paths). */
int sbfi_add_hashed(sbf_filter *f, uint64_t h1, uint64_t h2);
int sbfi_contains_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2);
void sbfi_prefetch_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2);
void sbfi_counting_remove(sbf_filter *f, uint64_t h1, uint64_t h2);

/* Dispatch (src/dispatch.c): the table for new filters, or an error code. */
int sbfi_kernels_current(const sbfi_kernels **out);
const sbfi_kernels *sbfi_kernels_for(int isa); /* NULL if not compiled in */

/* Memory (src/filter.c). */
void *sbfi_alloc_filter(size_t bytes, size_t *map_bytes);
void sbfi_free_filter(void *p, size_t bytes, size_t map_bytes);
/* A zeroed filter of exactly this geometry (bits a multiple of the granule). */
int sbfi_make(sbf_filter **out, int layout, uint64_t bits, uint32_t k,
              uint32_t seed, const sbfi_kernels *kt);

/* ------------------------------------------------ files: formats 1 and 2
 * (src/persist.c parses and checks, src/file.c does the I/O). */
#define SBFI_V1_HEADER 56u
#define SBFI_V2_HEADER 4096u    /* format 2: data at this page-aligned offset */

typedef struct sbfi_header {
    uint32_t version;       /* 1 or 2 */
    int layout;
    uint32_t k, seed;
    uint64_t bits, added;
    size_t bytes;           /* data length, equal to the geometry's */
    size_t data_off;        /* SBFI_V1_HEADER or SBFI_V2_HEADER */
    uint64_t granule;       /* bits per block (classic: 64), for sbfi_make's geometry */
    uint64_t data_sum;      /* format 2: XXH3-64 of the data */
} sbfi_header;

/* Checks the header of a filter of `total` bytes whose first `avail` bytes
 * are at p (avail >= min(total, SBFI_V2_HEADER)): magic, version, header
 * checksum (format 2), geometry and lengths. Allocates nothing. */
int sbfi_header_parse(const unsigned char *p, size_t avail, uint64_t total,
                      sbfi_header *h);
/* Checks the data of a parsed header: checksum (format 1 needs the header
 * bytes `head`) and zero padding. SBF_OK or SBF_E_FORMAT. */
int sbfi_data_check(const sbfi_header *h, const unsigned char *head,
                    const void *data);
/* Only the padding: SBF_OK or SBF_E_FORMAT. */
int sbfi_padding_check(const sbfi_header *h, const void *data);
/* The format-2 header of f (one pass over the data for its checksum). */
int sbfi_header_v2(const sbf_filter *f, unsigned char hdr[SBFI_V2_HEADER]);
/* Sets f's geometry fields (not words, kernels or memory) from a header. */
void sbfi_fill_from(sbf_filter *f, const sbfi_header *h);
/* Unmaps a filter made by sbf_map (src/file.c; sbf_free calls it). */
void sbfi_unmap_file(sbf_filter *f);
/* A zeroed filter of the header's geometry on the current kernels. */
int sbfi_make_from(sbf_filter **out, const sbfi_header *h);

/* ------------------------------------------------------ MurmurHash3 pieces */

#define SBFI_C1 UINT64_C(0x87c37b91114253d5)
#define SBFI_C2 UINT64_C(0x4cf5ad432745937f)

static inline uint64_t sbfi_rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t sbfi_fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return k;
}

/* The finalisation shared by every length. */
static inline void sbfi_murmur3_finish(uint64_t h1, uint64_t h2, uint64_t len,
                                       uint64_t *h1o, uint64_t *h2o)
{
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = sbfi_fmix64(h1);
    h2 = sbfi_fmix64(h2);
    h1 += h2;
    h2 += h1;
    *h1o = h1;
    *h2o = h2;
}

/* MurmurHash3_x64_128 of the 8 little-endian bytes of `key`: the tail path
 * with len = 8 (k1 only, no body block). */
static inline void sbfi_murmur3_u64(uint64_t key, uint32_t seed,
                                    uint64_t *h1o, uint64_t *h2o)
{
    uint64_t k1 = key * SBFI_C1;
    k1 = sbfi_rotl64(k1, 31);
    k1 *= SBFI_C2;
    sbfi_murmur3_finish((uint64_t)seed ^ k1, seed, 8, h1o, h2o);
}

/* ------------------------------------------- where a key's bits live
 *
 * This is the definition every kernel must reproduce bit for bit.
 *
 * classic (Guava MURMUR128_MITZ_64): c = h1; for i < k:
 *     bit ((c & INT64_MAX) mod m); c += h2.   Bit b is word b/64, bit b%64.
 * blocked layouts: block = (h1 * nblocks) >> 64 (multiply-shift).
 *     x_i = low 32 bits of h2 for even i, high 32 bits for odd i, i.e. the
 *     i-th 32-bit lane of h2 broadcast over a vector.
 *     blocked:     position i = (x_i * SBFI_SALT[i]) >> 23   (0..511)
 *     split-block: word i, bit (x_i * SBFI_SALT[i]) >> 27    (0..31)
 *     counting:    counter i = (x_i * SBFI_SALT[i]) >> 25    (0..127)
 * Bit p of a block is byte p/8, bit p%8 (so word p/64 bit p%64 on our
 * little-endian targets). Counter c is byte c/2, low nibble for even c.
 * Repeated positions of one key touch their bit/counter once.
 */
static const uint32_t SBFI_SALT[16] = {
    0xb3315ad9u, 0xa977c1a5u, 0xe6b33c3bu, 0xa63e4075u,
    0x74d5a45fu, 0x1d1525d3u, 0x2bbbf131u, 0xbe1e4ffdu,
    0x5b33921fu, 0xc0aacef7u, 0xf51ac6a3u, 0x12e2ddf5u,
    0x51030813u, 0x2dfafb9fu, 0x5994d00du, 0xfd11614du,
};

static inline uint64_t sbfi_block_index(uint64_t h1, uint64_t nblocks)
{
    return (uint64_t)(((unsigned __int128)h1 * nblocks) >> 64);
}

static inline uint32_t sbfi_lane32(uint64_t h2, uint32_t i)
{
    return (i & 1u) ? (uint32_t)(h2 >> 32) : (uint32_t)h2;
}

static inline uint32_t sbfi_hashbits(uint64_t h2, uint32_t i, int shift)
{
    return (uint32_t)(sbfi_lane32(h2, i) * SBFI_SALT[i]) >> shift;
}

/* Block of a blocked-layout key. */
static inline uint64_t *sbfi_block_ptr(const sbf_filter *f, uint64_t h1)
{
    return (uint64_t *)((unsigned char *)f->words +
                        sbfi_block_index(h1, f->nblocks) * f->block_bytes);
}

/* The 512-bit mask of a blocked key, as 8 words. */
static inline void sbfi_blocked_mask(uint64_t h2, uint32_t k, uint64_t m[8])
{
    for (int w = 0; w < 8; w++)
        m[w] = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t p = sbfi_hashbits(h2, i, 23);
        m[p >> 6] |= UINT64_C(1) << (p & 63);
    }
}

/* The split-block mask: one bit in each of k (8 or 16) 32-bit words. */
static inline void sbfi_split_mask(uint64_t h2, uint32_t k, uint32_t m[16])
{
    for (uint32_t i = 0; i < k; i++)
        m[i] = UINT32_C(1) << sbfi_hashbits(h2, i, 27);
}

/* The set of counters (0..127) a counting key touches, as a 128-bit mask. */
static inline void sbfi_counting_mask(uint64_t h2, uint32_t k, uint64_t m[2])
{
    m[0] = m[1] = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t c = sbfi_hashbits(h2, i, 25);
        m[c >> 6] |= UINT64_C(1) << (c & 63);
    }
}

static inline unsigned sbfi_nibble(const unsigned char *blk, uint32_t c)
{
    return (blk[c >> 1] >> ((c & 1u) * 4)) & 15u;
}

#endif /* SBF_INTERNAL_H_51C7E2A9 */
