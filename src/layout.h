/*
 * The layout descriptor: every fact about a filter layout in one place.
 * Not installed; included by src/sbf_internal.h (so simd/ sees it too).
 *
 * A layout is one row of sbfi_layouts[] (src/layout.c): its public id and
 * name, which kernel family probes it, which hash feeds it and with which
 * salts, its block geometry and cell width, the k it accepts, its largest
 * size, and which false-positive formula and sizing rule apply. The core
 * (src/filter.c, src/size.c, src/fpr.c's dispatch, src/persist.c's
 * geometry), the kernels and the tools ask the descriptor; none of them
 * switches on the layout id. HACKING.md "Adding a layout" says how a new
 * row is added.
 *
 * Everything here is also part of the file format where it decides which
 * bits a key sets (salts, shifts, block index): tests/vectors/layouts_kat.inc
 * pins it, and a change is a new layout id, never an edit.
 */
#ifndef SBFI_LAYOUT_H_3E9A61C4
#define SBFI_LAYOUT_H_3E9A61C4

#include "simdbloom.h"
#include "simdbloom_layout.h"

#include <stdint.h>

/* ------------------------------------------------------ named constants
 *
 * Positions inside a block come from 32-bit products x_i * salt_i: the top
 * log2(N) bits of the product pick one of N places, so the shift is
 * 32 - log2(N). Each shift below says which N.
 */
#define SBFI_PROD_BITS 32u            /* the products are 32-bit */
#define SBFI_BLOCK512 512u            /* = SBF_BLOCK_BITS: one cache line */
#define SBFI_WORD32_BITS 32u          /* split-block: one bit per 32-bit word */
#define SBFI_COUNTER_BITS 4u          /* counting: a 4-bit saturating counter */
#define SBFI_COUNTER_MAX 15u          /* 2^SBFI_COUNTER_BITS - 1: saturated */
#define SBFI_NSALT 16u                /* salts per layout: one per lane i < 16 */

/* The three layout shifts are written once, in include/simdbloom_layout.h
 * (the format's facts); src/layout.c asserts each is SBFI_PROD_BITS -
 * log2(N) for its N. */
/* blocked: one of the 512 bits of a block (2^9) */
#define SBFI_SHIFT_BLOCKED ((uint32_t)SBF__SHIFT_BLOCKED)    /* 23 */
/* counting: one of the 128 4-bit counters of a 512-bit block (2^7) */
#define SBFI_SHIFT_COUNTING ((uint32_t)SBF__SHIFT_COUNTING)  /* 25 */
/* split-block: one of the 32 bits of word i (2^5) */
#define SBFI_SHIFT_SPLIT ((uint32_t)SBF__SHIFT_SPLIT)        /* 27 */
/* Derived, for the vector probes of a 512-bit block: */
/* which of its 16 32-bit words holds a blocked bit or counting counter (2^4) */
#define SBFI_SHIFT_WORD32 ((uint32_t)SBF__SHIFT_WORD32) /* 28 */
/* which of its 64 bytes (2^6) */
#define SBFI_SHIFT_BYTE (SBFI_PROD_BITS - 6u)       /* 26 */
/* a blocked bit's place in its 32-bit word: bits 23..27 of the product */
#define SBFI_BLOCKED_BIT_IN_WORD(p) (((p) >> SBFI_SHIFT_BLOCKED) & 31u)
/* 4 * (a counter's place among the 8 of its 32-bit word): the nibble's shift */
#define SBFI_COUNTING_NIB_SHIFT (SBFI_SHIFT_COUNTING - 2u)  /* 23: (p >> 23) & 28 */
#define SBFI_COUNTING_NIB_MASK 28u                          /* 7 << 2 */

/* classic (Guava MURMUR128_MITZ_64): bit ((h1 + i*h2) & Long.MAX_VALUE) mod m */
#define SBFI_CLASSIC_MASK ((uint64_t)INT64_MAX)

static inline uint64_t sbfi_classic_bit(uint64_t combined, uint64_t m)
{
    return (combined & SBFI_CLASSIC_MASK) % m;
}

/* The same bit without a division, for the ISA kernels (src/scalar.c, the
 * reference, divides; the tests compare the two on every ISA). Granlund
 * and Montgomery's exact division by an invariant (PLDI 1994, Theorem 4.2)
 * with N = 63 (a < 2^63) and l = ceil(log2 m): M = ceil(2^(63+l) / m) fits
 * in 64 bits (m > 2^(l-1)) and M m - 2^(63+l) < m <= 2^l, so
 * floor(a / m) = floor(a M / 2^(63+l)) = (high half of a M) >> (l - 1) for
 * every a < 2^63. A classic m is a multiple of 64, so l >= 6.
 * sbfi_classic_recip makes M and l - 1 (f->bits_magic, f->bits_shift). */
static inline uint64_t sbfi_classic_bit_recip(uint64_t combined, uint64_t m,
                                              uint64_t magic, uint32_t shift)
{
    const uint64_t a = combined & SBFI_CLASSIC_MASK;
    return a - (sbf__block_index(a, magic) >> shift) * m;
}

/* ---------------------------------------------------------- the descriptor */

/* Kernel families: each ISA table holds one set of ops per family and hash
 * stage (pipe_ops[hash][family][mode], simd/pipe_table.h). A layout names
 * its family and stage; two layouts of one family and stage share kernels
 * and differ in descriptor data (salts, k rule). */
enum {
    SBFI_KERN_CLASSIC = 0,  /* k bits anywhere, Guava's index (no block) */
    SBFI_KERN_BLOCKED = 1,  /* k of the 512 bits of one block */
    SBFI_KERN_SPLIT = 2,    /* one bit in each of k 32-bit words of a block */
    SBFI_KERN_COUNTING = 3, /* k of the 128 4-bit counters of one block */
    SBFI_NKERNELS = 4
};

/* The hash stage that turns a key into (h1, h2) (src/sbf_internal.h, "the
 * hash stages"): MurmurHash3's 128 bits,
 * or a 64-bit hash h mapped by sbfi_xxh64_pair (h1 = the high 32 bits of h
 * in place, the block; every 32-bit lane of h2 = the low 32 bits of h). */
enum {
    SBFI_HASH_MURMUR3 = 0,  /* MurmurHash3_x64_128 (seed = the filter's) */
    SBFI_HASH_XXH64 = 1,    /* XXH64 seed 0, mapped to (h1, h2): TEAM.md "Parquet" */
    SBFI_HASH_XXH3 = 2,     /* XXH3_64bits_withSeed (seed = the filter's), mapped
                             * as XXH64: doc/format.md "XXH3 layouts" */
    SBFI_HASH_FMIX = 3,     /* 8-byte keys fmix64(key ^ sbf__fmix_s(seed)),
                             * others XXH3_64bits_withSeed, mapped as XXH3:
                             * doc/format.md "fmix layouts" */
    SBFI_NHASH = 4
};

/* Which false-positive formula of src/fpr.c, fed from the geometry here. */
enum {
    SBFI_FPR_CLASSIC = 0,   /* Guava double hashing: an upper bound (fpr.c) */
    SBFI_FPR_BLOCKED = 1,   /* sbf_fpp_blocked over cells (bits / cell_bits) */
    SBFI_FPR_SPLIT = 2      /* sbf_fpp_split_block, k words per block */
};

/* How sbf_size picks bits and k for (n, fpp). */
enum {
    SBFI_SIZE_GUAVA = 0,    /* Guava 31.1 where its size keeps the bound */
    SBFI_SIZE_SEARCH = 1,   /* smallest block count whose own formula fits */
    SBFI_SIZE_PARQUET = 2   /* Parquet writers' rule (src/parquet_size.c) */
};

/* Number of layout ids (0 .. SBFI_NLAYOUTS - 1; every id has a row). */
#define SBFI_NLAYOUTS 10

typedef struct sbfi_layout {
    int id;                 /* sbf_layout: the frozen public number */
    const char *name;       /* sbf_layout_name() */
    int kernel;             /* SBFI_KERN_*: the kernels that probe it */
    int hash;               /* SBFI_HASH_*: the hash stage */
    const uint32_t *salt;   /* SBFI_NSALT multipliers (entries past k_max
                             * unused); classic: zeros, never used */
    uint32_t shift;         /* position = (x_i * salt[i]) >> shift; 0 classic */
    uint32_t cell_bits;     /* 1 (bits), or SBFI_COUNTER_BITS (counters) */
    uint32_t block_bits;    /* bits per block (the size granule; classic: a
                             * 64-bit word); 0: k words of 32 bits */
    int multiply_shift;     /* block = (h1 * nblocks) >> 64 (fold works);
                             * 0: Guava's modulo, no block */
    uint32_t k_min, k_max, k_step; /* k in k_min, k_min + k_step, .., k_max */
    uint64_t max_bits;      /* largest bit count */
    int fpr;                /* SBFI_FPR_* */
    int sizing;             /* SBFI_SIZE_* */
} sbfi_layout;

/* The descriptor of a layout id, or NULL when no such layout exists. */
const sbfi_layout *sbfi_layout_of(int id);

/* Bits per block of a layout with k hashes (the size granule). */
static inline uint64_t sbfi_granule(const sbfi_layout *d, uint32_t k)
{
    return d->block_bits ? d->block_bits : (uint64_t)SBFI_WORD32_BITS * k;
}

/* Whether k is one of the layout's. */
static inline int sbfi_k_ok(const sbfi_layout *d, uint32_t k)
{
    return k >= d->k_min && k <= d->k_max && (k - d->k_min) % d->k_step == 0;
}

/* Counters (not bits) per cell: remove and saturating union apply. */
static inline int sbfi_counts(const sbfi_layout *d)
{
    return d->cell_bits == SBFI_COUNTER_BITS;
}

#endif /* SBFI_LAYOUT_H_3E9A61C4 */
