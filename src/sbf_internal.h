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
/* The layouts' facts (salts, shifts, block index, the 8-byte hashes, the
 * portable probes and masks) are written once, in
 * include/simdbloom_layout.h, which the inline header includes too: the
 * sbfi_ names below that are one line are those, with this library's
 * assertions. simd/ also probes with the inline header's vector code
 * (include/simdbloom_inline_x86.h). */
#define SBF__LAYOUT_LIBRARY 1
#include "simdbloom_layout.h"
#include "simdbloom_inline.h"
#include "layout.h"

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
#define SBFI_NSTRIPES 16u          /* keys_added counters of a concurrent filter */
#define SBFI_STRIPE 8u             /* words per stripe: one cache line each */

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

/*
 * Debug assertions on internal invariants (never on inputs: those get error
 * codes). On with -DSBF_DEBUG, which the SAN=1 build sets; there a failed
 * one prints where to stderr and aborts, the one place the library may.
 * Otherwise the condition is not evaluated (sizeof keeps its variables
 * "used").
 */
#if defined(SBF_DEBUG)
#  include <stdio.h>
#  include <stdlib.h>
static inline void sbfi_assert_fail(const char *cond, const char *file, int line)
{
    fprintf(stderr, "simdbloom: %s:%d: internal invariant failed: %s\n", file, line, cond);
    abort();
}
#  define SBFI_ASSERT(c) ((c) ? (void)0 : sbfi_assert_fail(#c, __FILE__, __LINE__))
#else
#  define SBFI_ASSERT(c) ((void)sizeof((c) ? 1 : 0))
#endif

/* zstd-style early returns for src/. */
#define SBFI_RETURN_IF(cond, err) do { if (cond) return (err); } while (0)
#define SBFI_FORWARD_IF_ERROR(expr) \
    do { int sbfi_e_ = (expr); if (sbfi_e_ < 0) return sbfi_e_; } while (0)

/* ------------------------------------------------------------ kernel table */

typedef struct sbfi_kernels sbfi_kernels;
typedef struct sbfi_ops sbfi_ops;

/* A batch of keys, in one of the forms the public batch functions take
 * (sbf_keys): the one pipeline (simd/pipeline.h) reads every form. */
enum {
    SBFI_KEYS_U64 = 0,    /* u64[i]: its 8 little-endian bytes */
    SBFI_KEYS_PTRS = 1,   /* ptrs[i], lens[i] bytes (ptrs[i] NULL only if 0) */
    SBFI_KEYS_OFF64 = 2,  /* data + off64[i] .. data + off64[i + 1] (Arrow large binary) */
    SBFI_KEYS_OFF32 = 3   /* the same with 32-bit offsets (Arrow binary) */
};
typedef struct sbfi_keys {
    int kind;                 /* SBFI_KEYS_* */
    const uint64_t *u64;
    const void *const *ptrs;
    const size_t *lens;
    const unsigned char *data;
    const uint64_t *off64;
    const uint32_t *off32;
} sbfi_keys;

/* Who owns a filter's words (src/lifecycle.c, the one owner). */
enum {
    SBFI_MEM_HEAP = 1,   /* aligned_alloc: the library's, below SBFI_HUGE */
    SBFI_MEM_HUGE = 2,   /* anonymous mmap, 2 MiB aligned, huge-page advised */
    SBFI_MEM_CALLER = 3, /* the caller's sbf_allocator (alloc's copy below) */
    SBFI_MEM_FILE = 4    /* a read-only file mapping (sbf_map): refuses writes */
};

/* The fields the one-key entries read (sbf_contains, sbf_add: the bound
 * entry, words, the block count or shift, k, the probe's lanes, the 64-bit
 * stages' constants) are the struct's first cache line, its salts the
 * second, and the struct starts on a line (src/lifecycle.c's self_alloc):
 * one line and one aligned 64-byte load of salts per key, where they were
 * five lines and a load across two. */
struct sbf_filter {
    /* --- line 0: the one-key path --- */
    /* What this filter runs, bound at creation (sbfi_bind): add1 and
     * contains1 are its one-key entries (ops->add_key / contains_key, or
     * an entry with k or the geometry a constant), so that sbf_add and
     * sbf_contains load one pointer, not two. */
    int (*contains1)(const sbf_filter *f, const void *key, size_t len);
    int (*add1)(sbf_filter *f, const void *key, size_t len);
    uint64_t *words;        /* filter data, 64-byte aligned, `bytes` long */
    uint64_t nblocks;       /* bits / granule (classic: 64-bit words) */
    uint64_t fmix_s;        /* sbfi_fmix_s(seed): the fmix layouts' constant
                             * for an 8-byte key */
    uint64_t xxh3_flip8;    /* sbfi_xxh3_flip8(seed): XXH3's state for an
                             * 8-byte key (the XXH3 layouts) */
    uint32_t k;
    uint32_t block_shift;   /* 64 - j for nblocks = 2^j >= 2, else 0: the
                             * XXH3 and fmix layouts' block is then
                             * h >> block_shift (their multiply's block, one
                             * shift), which sbfi_bind's SBFI_MODE_POW2 ops use */
    uint32_t lanes;         /* (1 << min(k, 16)) - 1: the blocked probe's lanes */
    uint32_t seed;
    /* --- line 1 --- */
    uint32_t salt[SBFI_NSALT]; /* lay->salt, copied: the probes read them
                             * next to the other fields, one load fewer */
    /* --- line 2 on --- */
    uint64_t s8add[2];      /* [s8, 2 s8], s8 = seed ^ 8: MurmurHash3's state
                             * for an 8-byte key, as the one-key hash adds it */
    uint64_t added;         /* keys_added, mod 2^64 (above INT64_MAX reads 0) */
    const sbfi_ops *ops;    /* (*kt->ops)[hash][family][mode] (sbfi_bind) */
    size_t bytes;           /* whole blocks / lines; padding stays zero */
    uint64_t bits;          /* m (classic: multiple of 64; counting: 4/counter) */
    uint64_t bits_magic;    /* classic: m's reciprocal for sbfi_classic_bit_recip */
    uint32_t bits_shift;    /* and its shift */
    int layout;             /* sbf_layout */
    const sbfi_layout *lay; /* its descriptor (src/layout.h) */
    uint32_t block_bytes;   /* 64; 32 for split-block with k = 8; 8 classic */
    uint32_t block_log2;    /* log2(block_bytes) */
    int hash;               /* lay->hash: SBFI_HASH_* */
    int added_unknown;      /* keys_added is not known (Guava import, union) */
    const sbfi_kernels *kt; /* kernels chosen at creation */
    uint32_t flags;         /* sbf_params.flags */
    uint64_t *stripes;      /* SBF_CONCURRENT: per-thread keys_added counts */
    /* --- memory (src/lifecycle.c): one owner, one encoding --- */
    int mem;                /* SBFI_MEM_*: who owns words */
    void *mem_base;         /* what releases them (aligned_alloc/mmap/alloc's pointer) */
    size_t mem_len;         /* its length in bytes */
    void *self_base;        /* what releases this struct (it starts on the
                             * first line boundary of that block) */
    size_t self_len;        /* bytes of this struct's own block (stripes inside) */
    sbf_allocator alloc;    /* alloc.alloc == NULL: the library's own memory */
};
_Static_assert(offsetof(struct sbf_filter, salt) == 64, "the salts are the second line");

/* SBF_OK if f may be modified; SBF_E_NULL, or SBF_E_READONLY for a file
 * mapping: the one read-only gate of every modifying call. */
static inline int sbfi_writable(const sbf_filter *f)
{
    if (f == NULL)
        return SBF_E_NULL;
    return f->mem == SBFI_MEM_FILE ? SBF_E_READONLY : SBF_OK;
}

typedef void (*sbfi_hash_fn)(const uint64_t *keys, size_t n, uint32_t seed,
                             uint64_t *h1, uint64_t *h2);
/* Batches (simd/pipeline.h): n >= 1 keys of any form; add returns how many
 * changed the filter (changed[i] = whether key i did, when changed is not
 * NULL), contains how many may be present (out[i] too, when out is not
 * NULL). */
typedef size_t (*sbfi_add_fn)(sbf_filter *f, const sbfi_keys *keys, size_t n,
                              uint8_t *changed);
typedef size_t (*sbfi_contains_fn)(const sbf_filter *f, const sbfi_keys *keys,
                                   size_t n, uint8_t *out);
typedef int (*sbfi_key_add_fn)(sbf_filter *f, const void *key, size_t len);
typedef int (*sbfi_key_contains_fn)(const sbf_filter *f, const void *key,
                                    size_t len);
typedef int (*sbfi_hashed_add_fn)(sbf_filter *f, uint64_t h1, uint64_t h2);
typedef int (*sbfi_hashed_contains_fn)(const sbf_filter *f, uint64_t h1, uint64_t h2);
/* Hash kernels over many keys (lanes: simd/lanes.h). keys[i] points at
 * lens[i] bytes and may be NULL only when lens[i] is 0; exactly n results
 * are written; only the keys' own bytes are read. */
typedef void (*sbfi_hash_bytes_fn)(const void *const *keys, const size_t *lens,
                                   size_t n, uint32_t seed, uint64_t *h1,
                                   uint64_t *h2);
typedef void (*sbfi_xxh64_u64_fn)(const uint64_t *keys, size_t n, uint64_t *h);
/* XXH3_64bits_withSeed(key, len, seed) of many keys: u64 keys (8 LE bytes,
 * given as flip = sbfi_xxh3_flip8(seed)), byte strings (as sbfi_hash_bytes_fn) */
typedef void (*sbfi_xxh3_u64_fn)(const uint64_t *keys, size_t n, uint64_t flip,
                                 uint64_t *h);
typedef void (*sbfi_xxh3_bytes_fn)(const void *const *keys, const size_t *lens,
                                   size_t n, uint32_t seed, uint64_t *h);
/* The fmix stage: u64 keys fmix64(key ^ s), s = sbfi_fmix_s(seed) (as
 * sbfi_xxh3_u64_fn with s for flip); byte strings (as sbfi_xxh3_bytes_fn):
 * 8-byte keys the same, others XXH3_64bits_withSeed. */
typedef void (*sbfi_xxh64_bytes_fn)(const void *const *keys, const size_t *lens,
                                    size_t n, uint64_t *h);

/*
 * What a filter runs: one set of operations per (ISA, hash stage, kernel
 * family, mode). sbfi_bind (src/filter.c) points f->ops at one of them and
 * every public call goes through it: sbf_add -> f->ops->add_key, sbf_add_u64
 * and every batch -> f->ops->add_batch, sbf_add_hash -> f->ops->add_hashed.
 * The functions are named <op>_<family>[_<hash>][_atomic|_vh|_pow2]; each ISA's
 * sets are listed once, in simd/pipe_table.h (the scalar reference's too),
 * and each name there is defined by one line that names it in full
 * (simd/pipeline.h, simd/pipe_key.h, src/scalar.c).
 */
struct sbfi_ops {
    sbfi_key_add_fn add_key;             /* one key: hash stage + probe; counts keys_added */
    sbfi_key_contains_fn contains_key;
    sbfi_add_fn add_batch;               /* n >= 1 keys of any form: the one pipeline */
    sbfi_contains_fn contains_batch;
    sbfi_hashed_add_fn add_hashed;       /* the key's (h1, h2) given: the probe alone; */
    sbfi_hashed_contains_fn contains_hashed; /* adds do not count keys_added */
};

/* The modes of a filter's ops: plain, SBF_CONCURRENT (word fetch-or / CAS,
 * relaxed loads), and plain with 8-byte keys hashed in the vector form
 * (AVX-512 MurmurHash3, SBF_INLINE_HASH8_VEC: sbfi_bind takes it where the
 * CPU or the filter's size asks for it; elsewhere it is the plain set), and
 * plain with a power-of-two block count (f->block_shift != 0: the XXH3
 * blocked and split-block one-key entries take the block as one shift, not
 * the multiply, where the ISA has the header's probes; elsewhere, and for
 * every other stage and family, it is the plain set). The form is chosen
 * here once, not tested per key. */
enum { SBFI_MODE_PLAIN = 0, SBFI_MODE_CONCURRENT = 1, SBFI_MODE_HASH8_VEC = 2,
       SBFI_MODE_POW2 = 3, SBFI_NMODES = 4 };

/*
 * One table per ISA: its identity (name, sbf_isa, the CPU features it
 * needs), its ops, indexed [hash stage][kernel family][mode] (layouts of
 * one family and hash share them), and the hashes of many keys in lanes.
 * Every entry is non-NULL (an ISA without a special kernel points at the
 * scalar one). The identity comes from the SBFI_ID_* macros below, which
 * the registry in src/dispatch.c also uses for an ISA that is not compiled
 * into this build (a table with no kernels: it has a name, and forcing it
 * is SBF_E_ISA_UNAVAILABLE).
 */
typedef const sbfi_ops *const sbfi_ops_table[SBFI_NHASH][SBFI_NKERNELS][SBFI_NMODES];
/* [hash][family][mode]: NULL, or the blocked or counting family's add_key
 * with k a constant, [k] for k = 1..SBF_MAX_K_BLOCKED (the mask unrolled
 * for k, no jump on k): the same answers and bytes as that set's add_key */
typedef const sbfi_key_add_fn *const sbfi_add_k_table[SBFI_NHASH][SBFI_NKERNELS][SBFI_NMODES];
/* [hash][mode][geo]: NULL, or the split family's one-key add and contains
 * with the geometry a constant, geo 0 for k = 8 (256-bit blocks), 1 for
 * k = 16 (512-bit): the same answers and bytes as that set's entries */
typedef struct sbfi_key1 {
    sbfi_key_add_fn add;
    sbfi_key_contains_fn contains;
} sbfi_key1;
typedef const sbfi_key1 *const sbfi_split_key_table[SBFI_NHASH][SBFI_NMODES];
struct sbfi_kernels {
    const char *name;        /* sbf_isa_name() of isa */
    int isa;                 /* sbf_isa */
    uint32_t features;       /* SBFI_CPU_* bits it requires of the CPU (and OS) */
    sbfi_hash_fn hash_u64;   /* NULL only in a not-compiled-in placeholder */
    const sbfi_ops_table *ops; /* (*ops)[hash][family][mode]: simd/pipe_table.h */
    const sbfi_add_k_table *add_key_k; /* the one entry that may be NULL (ISAs
                                          without them): sbfi_bind's f->add1 */
    const sbfi_split_key_table *split_key; /* may be NULL too: sbfi_bind's
                                          add1 / contains1 of split filters */
    /* --- hashes of many keys in SIMD lanes --- */
    sbfi_hash_bytes_fn hash_bytes;   /* MurmurHash3_x64_128 of byte strings */
    sbfi_xxh64_u64_fn xxh64_u64;     /* XXH64, seed 0, of 8 LE bytes each */
    sbfi_xxh64_bytes_fn xxh64_bytes; /* XXH64, seed 0, of byte strings */
    sbfi_xxh3_u64_fn xxh3_u64;       /* XXH3_64bits_withSeed of 8 LE bytes each */
    sbfi_xxh3_bytes_fn xxh3_bytes;   /* XXH3_64bits_withSeed of byte strings */
    sbfi_xxh3_u64_fn fmix_u64;       /* fmix64(key ^ s) of u64 keys */
    sbfi_xxh3_bytes_fn fmix_bytes;   /* the fmix stage of byte strings */
};

/* CPU features a table may require; src/dispatch.c detects them once
 * (CPUID + XGETBV on x86-64, hwcaps on aarch64). */
#define SBFI_CPU_AVX2      (1u << 0)  /* CPUID.7.0:EBX[5] */
#define SBFI_CPU_BMI2      (1u << 1)  /* CPUID.7.0:EBX[8] */
#define SBFI_CPU_OS_YMM    (1u << 2)  /* AVX, OSXSAVE, XCR0 saves XMM+YMM */
#define SBFI_CPU_AVX512F   (1u << 3)  /* CPUID.7.0:EBX[16] */
#define SBFI_CPU_AVX512DQ  (1u << 4)  /* CPUID.7.0:EBX[17] */
#define SBFI_CPU_AVX512BW  (1u << 5)  /* CPUID.7.0:EBX[30] */
#define SBFI_CPU_AVX512VL  (1u << 6)  /* CPUID.7.0:EBX[31] */
#define SBFI_CPU_OS_ZMM    (1u << 7)  /* XCR0 saves opmask, ZMM_Hi256, Hi16_ZMM */
#define SBFI_CPU_ASIMD     (1u << 8)  /* aarch64 HWCAP_ASIMD */

/* What each ISA's table requires of the CPU and OS. The features match the
 * flags its object is compiled with (Makefile FLAGS_<name>), and each
 * simd/ file checks at compile time (#error, _Static_assert) that its
 * compiler enables every one of them that a compiler can: all but the OS
 * state bits, which only detection can know. */
#define SBFI_CPU_OS_STATE  (SBFI_CPU_OS_YMM | SBFI_CPU_OS_ZMM)
#define SBFI_FEAT_AVX2     (SBFI_CPU_AVX2 | SBFI_CPU_BMI2 | SBFI_CPU_OS_YMM)
#define SBFI_FEAT_AVX512   (SBFI_FEAT_AVX2 | SBFI_CPU_AVX512F | SBFI_CPU_AVX512DQ | \
                            SBFI_CPU_AVX512BW | SBFI_CPU_AVX512VL | SBFI_CPU_OS_ZMM)
#define SBFI_FEAT_NEON     SBFI_CPU_ASIMD

/* Each ISA's identity, written once. */
#define SBFI_ID_SCALAR .name = "scalar", .isa = SBF_ISA_SCALAR, .features = 0
#define SBFI_ID_SIMDE  .name = "simde", .isa = SBF_ISA_SIMDE, .features = 0
#define SBFI_ID_AVX2   .name = "avx2", .isa = SBF_ISA_AVX2, .features = SBFI_FEAT_AVX2
#define SBFI_ID_AVX512 .name = "avx512", .isa = SBF_ISA_AVX512, .features = SBFI_FEAT_AVX512
#define SBFI_ID_NEON   .name = "neon", .isa = SBF_ISA_NEON, .features = SBFI_FEAT_NEON

extern const sbfi_kernels sbfi_kernels_scalar;  /* src/scalar.c */
extern const sbfi_kernels sbfi_kernels_simde;   /* simd/avx2.c, no flags */
extern const sbfi_kernels sbfi_kernels_avx2;    /* simd/avx2.c, -mavx2 */
extern const sbfi_kernels sbfi_kernels_avx512;  /* simd/avx512.c */
extern const sbfi_kernels sbfi_kernels_neon;    /* simd/neon.c */

/* Scalar reference kernels (src/scalar.c), usable as table entries. */
void sbfi_hash_u64_scalar(const uint64_t *keys, size_t n, uint32_t seed,
                          uint64_t *h1, uint64_t *h2);
/* The scalar references of the lane hash kernels (src/lanes.c): the
 * definition every ISA's hash_bytes, xxh64_u64 and xxh64_bytes reproduce. */
void sbfi_hash_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h1, uint64_t *h2);
void sbfi_xxh64_u64_scalar(const uint64_t *keys, size_t n, uint64_t *h);
void sbfi_xxh64_bytes_scalar(const void *const *keys, const size_t *lens,
                             size_t n, uint64_t *h);
void sbfi_xxh3_u64_scalar(const uint64_t *keys, size_t n, uint64_t flip, uint64_t *h);
void sbfi_xxh3_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h);
/* The fmix stage's references: fmix64(keys[i] ^ s); byte strings of 8
 * bytes the same (s = sbfi_fmix_s(seed)), others sbfi_xxh3_64. */
void sbfi_fmix_u64_scalar(const uint64_t *keys, size_t n, uint64_t s, uint64_t *h);
void sbfi_fmix_bytes_scalar(const void *const *keys, const size_t *lens,
                            size_t n, uint32_t seed, uint64_t *h);
/* sbfi_xxh3_bytes_flat's pass with the 8-byte keys fmix's (the vector
 * ISAs' entry where XXH3 strings are not in lanes) */
void sbfi_fmix_bytes_flat(const void *const *keys, const size_t *lens,
                          size_t n, uint32_t seed, uint64_t *h);
/* The same as sbfi_xxh3_bytes_scalar (the reference) with 17..64-byte keys
 * mixed without a branch on their length: the vector ISAs' entry. */
void sbfi_xxh3_bytes_flat(const void *const *keys, const size_t *lens,
                          size_t n, uint32_t seed, uint64_t *h);
/* XXH3_64bits_withSeed of one key of any length (libxxhash's, inlined in
 * src/lanes.c). */
uint64_t sbfi_xxh3_64(const void *key, size_t len, uint32_t seed);
/* Operations on hashes (used by the variable-length paths). */
int sbfi_add_hashed(sbf_filter *f, uint64_t h1, uint64_t h2);
int sbfi_contains_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2);

void sbfi_counting_remove(sbf_filter *f, uint64_t h1, uint64_t h2);

/* SBF_CONCURRENT. Atomic twins of the per-key operations, the
 * scalar definition the atomic kernels of every ISA reproduce. */
int sbfi_add_hashed_atomic(sbf_filter *f, uint64_t h1, uint64_t h2);
int sbfi_contains_hashed_atomic(const sbf_filter *f, uint64_t h1, uint64_t h2);
void sbfi_counting_remove_atomic(sbf_filter *f, uint64_t h1, uint64_t h2);
/* Binds f->ops for `flags` from f->kt (src/filter.c).
 * Allocates nothing: sbfi_make gives a concurrent filter its keys_added
 * stripes (SBF_E_FLAGS without them). */
int sbfi_bind(sbf_filter *f, uint32_t flags);
/* keys_added: exact for plain filters, approximate under concurrency. */
uint64_t sbfi_keys_added(const sbf_filter *f);
void sbfi_count_added(sbf_filter *f, uint64_t n);
/* One add that returned r (1: it changed the filter) counted in keys_added,
 * by the add_key kernels themselves (so sbf_add stays one tail call): plain
 * filters in f->added, concurrent ones in the calling thread's stripe. */
static inline int sbfi_count_plain(sbf_filter *f, int r)
{
    f->added += (uint64_t)r;
    return r;
}
static inline int sbfi_count_atomic(sbf_filter *f, int r)
{
    if (r)
        sbfi_count_added(f, 1);
    return r;
}
/* The generic-length MurmurHash3 without the argument checks. */
void sbfi_murmur3(const void *key, size_t len, uint32_t seed, uint64_t *h1,
                  uint64_t *h2);

/* Dispatch (src/dispatch.c): the table for new filters, or an error code. */
int sbfi_kernels_current(const sbfi_kernels **out);
/* How the AVX-512 one-key paths hash an 8-byte key (SBF_INLINE_HASH8_VEC in
 * include/simdbloom_inline.h says why there are two forms): 1 for the two
 * fmix64 in one vector on every filter, 0 for two scalar chains below
 * SBF_INL_HASH8_VEC_BYTES. Detection sets it with the CPU's features (1 on
 * AMD family 19h and later, whose AVX-512 parts do vpmullq in one
 * micro-op); sbfi_bind reads it when it binds a filter's kernels. Both
 * forms are bit-exact, so a filter bound with the 0 it starts as is only
 * slower. */
extern int sbfi_hash8_vec_flag __attribute__((visibility("hidden")));
static inline int sbfi_hash8_vec(void)
{
    return __atomic_load_n(&sbfi_hash8_vec_flag, __ATOMIC_RELAXED);
}
/* Tests: forces the form (0 or 1), or -1 for the detected one. */
void sbfi_hash8_vec_force(int v);
/* The form of the AVX-512 batch queries of blocked and counting filters
 * with k <= 8 (simd/avx512.c, blocked_miss8): 1 for 8 lanes in 256-bit
 * registers, 0 for all 16 lanes in 512-bit ones. Detection sets it from the
 * CPU (0 on AMD Zen 5, 1 elsewhere: on Intel 512-bit vpmulld and shifts
 * share one port) or from SBF_PROBE=narrow|wide; each batch call reads it
 * once. Both forms give the same answers. */
extern int sbfi_probe8_flag __attribute__((visibility("hidden")));
static inline int sbfi_probe8(void)
{
    return __atomic_load_n(&sbfi_probe8_flag, __ATOMIC_RELAXED);
}
/* Tests: forces the form (0 or 1), or -1 for the detected one. */
void sbfi_probe8_force(int v);
const sbfi_kernels *sbfi_kernels_for(int isa); /* NULL if not compiled in */
/* The registry: every ISA this library knows, best first (the order
 * detection tries them), *n of them. Entries with hash_u64 == NULL are
 * placeholders for ISAs not compiled in. */
const sbfi_kernels *const *sbfi_registry(size_t *n);

/* The one constructor (src/lifecycle.c): every filter comes to be through
 * sbfi_make (sbf_create, load, map, import, deserialize, copy) and goes
 * through sbf_free. */
typedef struct sbfi_make_args {
    int layout;
    uint64_t bits;                  /* a valid geometry: sbfi_check_geometry */
    uint32_t k, seed;
    uint32_t flags;                 /* sbf_params.flags (SBF_CONCURRENT) */
    uint64_t added;                 /* keys_added to start with */
    int added_unknown;              /* ... or 1: not known */
    const sbf_allocator *allocator; /* NULL: the library's own memory */
    const sbfi_kernels *kt;         /* NULL: sbfi_kernels_current() */
    /* A read-only file mapping to adopt instead of allocating words: the
     * filter's data at map_data (sbfi_data_bytes(bits) long) inside the
     * mapping [map, map + map_len). From the call on the filter owns it:
     * a failed sbfi_make unmaps it. */
    void *map;
    size_t map_len;
    void *map_data;
} sbfi_make_args;
/* SBF_OK, or the geometry's code (sbfi_check_geometry), SBF_E_PARAM (an
 * allocator without alloc or free), SBF_E_FLAGS, SBF_E_NOMEM, the ISA
 * errors; *out is NULL on failure. Words are zeroed unless mapped. */
int sbfi_make(sbf_filter **out, const sbfi_make_args *a);
/* The arguments for a filter like f: its geometry, seed, flags, kernels,
 * allocator and keys_added (copy, fold). */
void sbfi_args_like(sbfi_make_args *a, const sbf_filter *f);

/* Geometry rules (src/layout.c, from the descriptor): which k a layout
 * accepts, its granule and its largest size. */
int sbfi_check_k(int layout, uint32_t k);            /* SBF_OK or SBF_E_K */
uint64_t sbfi_granule_bits(int layout, uint32_t k);  /* bits are a multiple */
uint64_t sbfi_max_bits(int layout);
/* SBF_OK if a filter of exactly (layout, bits, k) may exist: SBF_E_LAYOUT,
 * SBF_E_K, SBF_E_TOO_LARGE, or SBF_E_PARAM (bits 0 or not a granule
 * multiple) otherwise. Cheap: loaders call it before allocating. */
int sbfi_check_geometry(int layout, uint64_t bits, uint32_t k);
/* Bytes of filter data for a valid bit count (whole 64-byte lines). */
size_t sbfi_data_bytes(uint64_t bits);
/* Sets f's geometry fields (layout, lay, bits, k, block_bytes, block_log2,
 * nblocks, bytes) from a checked geometry: the one place they are derived. */
void sbfi_set_geometry(sbf_filter *f, int layout, uint64_t bits, uint32_t k);
void sbfi_classic_recip(uint64_t m, uint64_t *magic, uint32_t *shift);
/* sbf_create's bits and k from its parameters (layout, k, bits or n + fpp),
 * with sbf_create's codes; p is not NULL (src/size.c). */
int sbfi_geometry(const sbf_params *p, uint64_t *bits, uint32_t *k);

/* ------------------------------------------------------ MurmurHash3 pieces */

#define SBFI_C1 SBF__MURMUR3_C1
#define SBFI_C2 SBF__MURMUR3_C2

/* MurmurHash3_x64_128 of the 8 little-endian bytes of `key`
 * (simdbloom_layout.h's sbf__murmur3_u64). */
static inline void sbfi_murmur3_u64(uint64_t key, uint32_t seed,
                                    uint64_t *h1o, uint64_t *h2o)
{
    uint64_t h[2];
    sbf__murmur3_u64(key, seed, h);
    *h1o = h[0];
    *h2o = h[1];
}

/* ------------------------------------------------------ XXH3 of 8 bytes
 *
 * XXH3_64bits_withSeed(&key, 8, seed) (xxHash's XXH3_len_4to8_64b, the
 * specification's "4-8 bytes" case): the key's two 32-bit halves swapped,
 * XOR-ed with a constant of the secret less the seed, then rrmxmx (two
 * 64-bit multiplies). The seed's part is computed once per filter
 * (f->xxh3_flip8). tests/test_lanes.c holds it to libxxhash's on every
 * ISA. */
/* (simdbloom_layout.h's sbf__xxh3_flip8, sbf__xxh3_u64) */
static inline uint64_t sbfi_xxh3_flip8(uint32_t seed)
{
    return sbf__xxh3_flip8(seed);
}

static inline uint64_t sbfi_xxh3_u64(uint64_t key, uint64_t flip)
{
    return sbf__xxh3_u64(key, flip);
}

/* ------------------------------------------------------ fmix of 8 bytes
 *
 * The fmix layouts' hash of an 8-byte key: fmix64(key ^ s) with
 * s = fmix64(seed + 0x9E3779B97F4A7C15), made once per filter (f->fmix_s).
 * (simdbloom_layout.h's sbf__fmix_s, sbf__fmix_u64) */
static inline uint64_t sbfi_fmix_s(uint32_t seed)
{
    return sbf__fmix_s(seed);
}

static inline uint64_t sbfi_fmix_u64(uint64_t key, uint64_t s)
{
    return sbf__fmix_u64(key, s);
}

/* ------------------------------------------- where a key's bits live
 *
 * This is the definition every kernel must reproduce bit for bit.
 *
 * classic (Guava MURMUR128_MITZ_64): c = h1; for i < k:
 *     bit sbfi_classic_bit(c, m) = (c & INT64_MAX) mod m; c += h2.
 *     Bit b is word b/64, bit b%64.
 * multiply-shift layouts: block = (h1 * nblocks) >> 64.
 *     x_i = low 32 bits of h2 for even i, high 32 bits for odd i, i.e. the
 *     i-th 32-bit lane of h2 broadcast over a vector; with the layout's
 *     salts s = f->salt (a copy of f->lay->salt) and shift (src/layout.h):
 *     blocked:     position i = (x_i * s[i]) >> SBFI_SHIFT_BLOCKED  (0..511)
 *     split-block: word i, bit (x_i * s[i]) >> SBFI_SHIFT_SPLIT     (0..31)
 *     counting:    counter i = (x_i * s[i]) >> SBFI_SHIFT_COUNTING  (0..127)
 * Bit p of a block is byte p/8, bit p%8 (so word p/64 bit p%64 on our
 * little-endian targets). Counter c is byte c/2, low nibble for even c.
 * Repeated positions of one key touch their bit/counter once.
 * The salts, the block index, the shifts, the positions and the portable
 * probes and masks are the file format, written once in
 * include/simdbloom_layout.h (sbf__salt, sbf__block_index, SBF__SHIFT_*,
 * sbf__pos, sbf__blocked_has, sbf__blocked_mask ...); src/layout.c's rows
 * point at them; tests/vectors/layouts_kat.inc pins them on every ISA.
 * (SBF__FOR_POS(i, k) is the loop over a key's k positions, unrolled.)
 */
static inline uint64_t sbfi_block_index(uint64_t h1, uint64_t nblocks)
{
    return sbf__block_index(h1, nblocks);
}

static inline uint32_t sbfi_lane32(uint64_t h2, uint32_t i)
{
    return sbf__lane(h2, i);
}

/* Position i of a key: the top bits of lane i times salt i. */
static inline uint32_t sbfi_pos(const uint32_t *salt, uint64_t h2, uint32_t i,
                                uint32_t shift)
{
    SBFI_ASSERT(i < SBFI_NSALT);
    return sbf__pos(salt, h2, i, (int)shift);
}

/* Block of a multiply-shift key. */
static inline uint64_t *sbfi_block_ptr(const sbf_filter *f, uint64_t h1)
{
    const uint64_t b = sbfi_block_index(h1, f->nblocks);
    SBFI_ASSERT(b < f->nblocks && (b + 1) * f->block_bytes <= f->bytes);
    return (uint64_t *)((unsigned char *)f->words + (b << f->block_log2));
}

/* The 512-bit mask of a blocked key, as 8 words. */
static inline void sbfi_blocked_mask(const uint32_t *salt, uint64_t h2, uint32_t k,
                                     uint64_t m[8])
{
    SBFI_ASSERT(k >= 1 && k <= SBF_MAX_K_BLOCKED);
    sbf__blocked_mask(salt, h2, k, m);
}

/* The split-block mask: one bit in each of k (8 or 16) 32-bit words. */
static inline void sbfi_split_mask(const uint32_t *salt, uint64_t h2, uint32_t k,
                                   uint32_t m[16])
{
    SBFI_ASSERT(k == 8 || k == 16);
    sbf__split_mask(salt, h2, k, m);
}

/* The set of counters (0..127) a counting key touches, as a 128-bit mask. */
static inline void sbfi_counting_mask(const uint32_t *salt, uint64_t h2, uint32_t k,
                                      uint64_t m[2])
{
    SBFI_ASSERT(k >= 1 && k <= SBF_MAX_K_BLOCKED);
    sbf__counting_mask(salt, h2, k, m);
}

/* The invariants of a filter object, for SBFI_ASSERT (sbfi_make makes
 * them true; nothing after it changes the geometry). */
static inline int sbfi_filter_ok(const sbf_filter *f)
{
    const sbfi_layout *d = f->lay;
    if (d == NULL || d != sbfi_layout_of(f->layout) || !sbfi_k_ok(d, f->k) ||
        f->kt == NULL || f->kt->hash_u64 == NULL || f->words == NULL ||
        ((uintptr_t)f->words & (SBFI_LINE - 1)) != 0 || f->bytes % SBFI_LINE != 0 ||
        f->bits == 0 || f->bits % 64 != 0 || f->bits > (uint64_t)f->bytes * 8 ||
        f->bytes - f->bits / 8 >= SBFI_LINE || f->bits > d->max_bits)
        return 0;
    const uint64_t g = sbfi_granule(d, f->k);
    return f->bits % g == 0 && f->nblocks == f->bits / g && f->block_bytes * 8 == g &&
           (UINT64_C(1) << f->block_log2) == f->block_bytes && d->salt != NULL &&
           f->lanes == (UINT32_C(1) << (f->k < 16 ? f->k : 16)) - 1 &&
           f->s8add[0] == ((uint64_t)f->seed ^ 8) && f->s8add[1] == 2 * f->s8add[0] &&
           f->xxh3_flip8 == sbfi_xxh3_flip8(f->seed) && f->fmix_s == sbfi_fmix_s(f->seed);
}

/* Counter c of a block: byte c/2, low nibble for even c (sbf__nibble). */
#define SBFI_NIB_SHIFT(c) (((c) & 1u) * SBFI_COUNTER_BITS)
static inline unsigned sbfi_nibble(const unsigned char *blk, uint32_t c)
{
    return sbf__nibble(blk, c);
}

/* ------------------------------------------- single keys, atomics */

/* The hash of one key: the u64 path for 8-byte keys, with no call. */
static inline void sbfi_hash_key(const void *key, size_t len, uint32_t seed,
                                 uint64_t *h1, uint64_t *h2)
{
    if (SBFI_LIKELY(len == 8)) {
        uint64_t x;
        memcpy(&x, key, 8);
        sbfi_murmur3_u64(x, seed, h1, h2);
    } else {
        sbfi_murmur3(key, len, seed, h1, h2);
    }
}

/* Parquet's XXH64 h as the (h1, h2) every multiply-shift kernel reads
 * (TEAM.md "Parquet as a layout"): (h1 * z) >> 64 is the spec's
 * ((h >> 32) * z) >> 32, and every 32-bit lane of h2 is the spec's x. */
static inline void sbfi_xxh64_pair(uint64_t h, uint64_t *h1, uint64_t *h2)
{
    sbf__pair64(h, h1, h2);
}

/* ------------------------------------------------------ the hash stages
 *
 * A hash stage turns keys into the (h1, h2) pairs every probe reads (h1:
 * the block, by multiply-shift; h2: the 32-bit lanes the salts multiply).
 * MurmurHash3 gives both; a 64-bit stage (XXH64, XXH3) gives one h, mapped
 * by sbfi_xxh64_pair. Each stage is written here and nowhere else: one case
 * in each of the functions below (one key: sbfi_h64_one / sbfi_key_hash;
 * many u64 keys: sbfi_stage_u64; many byte strings: sbfi_stage_bytes), on
 * its lanes (the table's entries: simd/lanes*.h, src/lanes.c). The one-key
 * kernels pass `hash` as a constant (one kernel per stage: simd/pipe_key.h,
 * src/scalar.c); sbf_hash_pairs passes f's. (simd/pipeline.h's pipe_hash
 * still has its own branch per stage: routed through these, the batch
 * kernels' code changed and bench-check counted 1-17% more instructions on
 * avx2, simde and scalar rows.)
 */
#if defined(__GNUC__)
#  define SBFI_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#  define SBFI_ALWAYS_INLINE static inline
#endif

/* The 64-bit h of one key under a 64-bit stage; 8-byte keys inline. */
static inline uint64_t sbfi_h64_one(const sbf_filter *f, int hash, const void *key,
                                    size_t len)
{
    if (hash == SBFI_HASH_XXH3) {
        if (SBFI_LIKELY(len == 8)) {
            uint64_t x;
            memcpy(&x, key, 8); /* little-endian target */
            return sbfi_xxh3_u64(x, f->xxh3_flip8);
        }
        return sbfi_xxh3_64(key, len, f->seed);
    }
    if (hash == SBFI_HASH_FMIX) {
        if (SBFI_LIKELY(len == 8)) {
            uint64_t x;
            memcpy(&x, key, 8); /* little-endian target */
            return sbfi_fmix_u64(x, f->fmix_s);
        }
        return sbfi_xxh3_64(key, len, f->seed);
    }
    SBFI_ASSERT(hash == SBFI_HASH_XXH64);
    if (len == 8)
        return sbf__xxh64_u64(sbf__load64((const unsigned char *)key));
    uint64_t h;
    sbfi_xxh64_bytes_scalar(&key, &len, 1, &h);
    return h;
}

/* One key: (h1, h2) under stage `hash` (MurmurHash3: the u64 path above
 * for 8-byte keys). */
SBFI_ALWAYS_INLINE void sbfi_key_hash(const sbf_filter *f, const int hash, const void *key,
                                      size_t len, uint64_t *h1, uint64_t *h2)
{
    if (hash == SBFI_HASH_MURMUR3) {
        sbfi_hash_key(key, len, f->seed, h1, h2);
        return;
    }
    sbfi_xxh64_pair(sbfi_h64_one(f, hash, key, len), h1, h2);
}

/* The same under the filter's own stage (f->hash, tested per call). */
static inline void sbfi_hash_one(const sbf_filter *f, const void *key, size_t len,
                                 uint64_t *h1, uint64_t *h2)
{
    if (SBFI_LIKELY(f->hash == SBFI_HASH_MURMUR3)) {
        sbfi_hash_key(key, len, f->seed, h1, h2);
        return;
    }
    sbfi_xxh64_pair(sbfi_h64_one(f, f->hash, key, len), h1, h2);
}

/* n >= 1 u64 keys (8 LE bytes each): (h1[i], h2[i]) under stage `hash`,
 * with the lanes of table kt. (The batch pipeline fuses MurmurHash3 of u64
 * keys with its addressing, pipe_stage; it calls this for the others.) */
static inline void sbfi_stage_u64(const sbfi_kernels *kt, const sbf_filter *f, int hash,
                                  const uint64_t *keys, size_t n, uint64_t *h1,
                                  uint64_t *h2)
{
    switch (hash) {
    case SBFI_HASH_MURMUR3: kt->hash_u64(keys, n, f->seed, h1, h2); return;
    case SBFI_HASH_XXH64: kt->xxh64_u64(keys, n, h1); break;
    case SBFI_HASH_FMIX: kt->fmix_u64(keys, n, f->fmix_s, h1); break;
    default: SBFI_ASSERT(hash == SBFI_HASH_XXH3);
             kt->xxh3_u64(keys, n, f->xxh3_flip8, h1); break;
    }
    for (size_t i = 0; i < n; i++) /* h1 held the 64-bit h */
        sbfi_xxh64_pair(h1[i], &h1[i], &h2[i]);
}

/* n >= 1 byte strings (keys[i], lens[i] bytes; NULL only when empty). */
static inline void sbfi_stage_bytes(const sbfi_kernels *kt, const sbf_filter *f, int hash,
                                    const void *const *keys, const size_t *lens, size_t n,
                                    uint64_t *h1, uint64_t *h2)
{
    switch (hash) {
    case SBFI_HASH_MURMUR3: kt->hash_bytes(keys, lens, n, f->seed, h1, h2); return;
    case SBFI_HASH_XXH64: kt->xxh64_bytes(keys, lens, n, h1); break;
    case SBFI_HASH_FMIX: kt->fmix_bytes(keys, lens, n, f->seed, h1); break;
    default: SBFI_ASSERT(hash == SBFI_HASH_XXH3);
             kt->xxh3_bytes(keys, lens, n, f->seed, h1); break;
    }
    for (size_t i = 0; i < n; i++)
        sbfi_xxh64_pair(h1[i], &h1[i], &h2[i]);
}

/* The 512-bit mask (8 words) with bit (prod[i] >> shift) << scale set for
 * i < k: blocked positions (SBFI_SHIFT_BLOCKED, scale 0) or counting
 * increments (SBFI_SHIFT_COUNTING, scale SBFI_NIB_SCALE: the low bit of
 * counter c's nibble, bit 4c of the block). One OR per position; repeated
 * positions set their bit once. */
#define SBFI_NIB_SCALE 2 /* log2(SBFI_COUNTER_BITS) */
static inline void sbfi_mask_from_products(const uint32_t prod[16], uint32_t k,
                                           int shift, int scale, uint64_t m[8])
{
    for (int w = 0; w < 8; w++)
        m[w] = 0;
    for (uint32_t i = 0; i < k; i++) {
        const uint32_t p = (prod[i] >> shift) << scale;
        m[p >> 6] |= UINT64_C(1) << (p & 63);
    }
}

/* The low bit of each of a word's 16 counters. */
#define SBFI_NIB_LOW UINT64_C(0x1111111111111111)
_Static_assert(1u << SBFI_NIB_SCALE == SBFI_COUNTER_BITS, "4-bit counters");

/* Low bit of every nibble that is 15 / that is not zero (SWAR). */
static inline uint64_t sbfi_nib15(uint64_t v)
{
    return v & (v >> 1) & (v >> 2) & (v >> 3) & SBFI_NIB_LOW;
}

static inline uint64_t sbfi_nibnz(uint64_t v)
{
    return (v | (v >> 1) | (v >> 2) | (v >> 3)) & SBFI_NIB_LOW;
}

/* Counters of a word: +1 where inc has a nibble's low bit, unless 15. */
static inline uint64_t sbfi_nib_inc(uint64_t v, uint64_t inc)
{
    return v + (inc & ~sbfi_nib15(v));
}

/* -1 where dec has a nibble's low bit, unless the counter is 0 or 15. */
static inline uint64_t sbfi_nib_dec(uint64_t v, uint64_t dec)
{
    return v - (dec & sbfi_nibnz(v) & ~sbfi_nib15(v));
}

/* OR m[i] into w[i] atomically (relaxed: the caller's own happens-before
 * orders an add before a query). A word that already holds its bits is
 * not written, so a shared line is not taken exclusive for nothing. Which
 * words need a fetch-or is decided first, branch-free, then only those are
 * visited: a test per word mispredicted about half the time. */
static inline int sbfi_or_words_atomic(uint64_t *w, const uint64_t *m,
                                       unsigned n)
{
    unsigned need = 0;
    for (unsigned i = 0; i < n; i++)
        need |= (unsigned)((__atomic_load_n(&w[i], __ATOMIC_RELAXED) & m[i]) != m[i]) << i;
    const int changed = need != 0; /* some bit was clear, in this thread's view */
    for (; need != 0; need &= need - 1) {
        const unsigned i = (unsigned)__builtin_ctz(need);
        (void)__atomic_fetch_or(&w[i], m[i], __ATOMIC_RELAXED);
    }
    return changed;
}

/* Saturating +1 (SWAR) of the counters in inc, word by word with CAS;
 * only the words with an increment are visited. Returns whether one of
 * them was 0 in the word each CAS replaced (a counter this call raised
 * from 0). */
static inline int sbfi_inc_words_atomic(uint64_t *w, const uint64_t *inc)
{
    unsigned todo = 0;
    uint64_t raised = 0;
    for (unsigned i = 0; i < 8; i++)
        todo |= (unsigned)(inc[i] != 0) << i;
    for (; todo != 0; todo &= todo - 1) {
        const unsigned i = (unsigned)__builtin_ctz(todo);
        uint64_t old = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&w[i], &old, sbfi_nib_inc(old, inc[i]),
                                            1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        raised |= inc[i] & ~sbfi_nibnz(old);
    }
    return raised != 0;
}


/* A copy of n words read with relaxed atomic loads: a query of a
 * concurrent filter races with adds, so it never reads with plain loads.
 * The probes read the copy as 32-bit words and bytes too: it is written
 * through a may_alias type so no access order is lost to type-based alias
 * analysis. */
#if defined(__GNUC__)
typedef uint64_t sbfi_u64_alias __attribute__((may_alias));
#else
typedef uint64_t sbfi_u64_alias;
#endif
static inline void sbfi_load_words_atomic(void *dst, const uint64_t *src,
                                          unsigned n)
{
    sbfi_u64_alias *d = (sbfi_u64_alias *)dst;
    for (unsigned i = 0; i < n; i++)
        d[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

#endif /* SBF_INTERNAL_H_51C7E2A9 */
