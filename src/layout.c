/*
 * The layout table (src/layout.h says what a descriptor holds) and the
 * geometry rules every constructor and loader asks: which k a layout takes,
 * the granule its bit count is a multiple of, its largest size, and the
 * block geometry of a filter. Adding a layout: HACKING.md.
 */
#include "sbf_internal.h"

/* The salts of the blocked, split-block and counting layouts are sbf__salt
 * (SBF_SALT), written once in include/simdbloom_layout.h with the rest of the format's
 * facts (the multiply-shift block index, the shifts): changing any of them
 * is a new layout id, never an edit (tests/vectors/layouts_kat.inc pins
 * them on every ISA). */
_Static_assert(sizeof sbf__salt / sizeof sbf__salt[0] == SBFI_NSALT, "16 salts");

/* Parquet's salts are sbf__salt_parquet (include/simdbloom_layout.h, with
 * the XXH64 -> (h1, h2) map sbf__pair64): the format's facts, once. */

/* Parquet readers take any block count z < 2^31 (BloomFilter.md). */
#define PARQUET_MAX_BITS (UINT64_C(256) * INT32_MAX)

/* Classic uses no salts. The pipelines load a layout's salts when they set
 * up, for every family: a row of zeros keeps those loads valid. */
static const uint32_t salt_none[SBFI_NSALT];

/* Guava limits a filter to INT32_MAX 64-bit words. */
#define CLASSIC_MAX_BITS (UINT64_C(64) * INT32_MAX)

static const sbfi_layout layouts[SBFI_NLAYOUTS] = {
    [SBF_CLASSIC] = {
        .id = SBF_CLASSIC, .name = "classic",
        .kernel = SBFI_KERN_CLASSIC, .hash = SBFI_HASH_MURMUR3,
        .salt = salt_none, .shift = 0, .cell_bits = 1,
        .block_bits = 64, .multiply_shift = 0,
        .k_min = 1, .k_max = SBF_MAX_K_CLASSIC, .k_step = 1,
        .max_bits = CLASSIC_MAX_BITS,
        .fpr = SBFI_FPR_CLASSIC, .sizing = SBFI_SIZE_GUAVA,
    },
    [SBF_BLOCKED] = {
        .id = SBF_BLOCKED, .name = "blocked",
        .kernel = SBFI_KERN_BLOCKED, .hash = SBFI_HASH_MURMUR3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_BLOCKED, .cell_bits = 1,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_SPLIT_BLOCK] = {
        .id = SBF_SPLIT_BLOCK, .name = "split-block",
        .kernel = SBFI_KERN_SPLIT, .hash = SBFI_HASH_MURMUR3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_SPLIT, .cell_bits = 1,
        .block_bits = 0 /* k words of 32 bits: 256 or 512 */, .multiply_shift = 1,
        .k_min = 8, .k_max = 16, .k_step = 8,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_SPLIT, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_COUNTING] = {
        .id = SBF_COUNTING, .name = "counting",
        .kernel = SBFI_KERN_COUNTING, .hash = SBFI_HASH_MURMUR3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_COUNTING,
        .cell_bits = SBFI_COUNTER_BITS,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
    /* Parquet's split-block filter: the split kernels with the spec's salts
     * and shift 27, fed XXH64 (seed 0) mapped to (h1, h2) as TEAM.md
     * "Parquet as a layout" says, so the multiply-shift block is the spec's
     * ((h >> 32) * z) >> 32 and every 32-bit lane of h2 is its x. */
    [SBF_PARQUET] = {
        .id = SBF_PARQUET, .name = "parquet",
        .kernel = SBFI_KERN_SPLIT, .hash = SBFI_HASH_XXH64,
        .salt = sbf__salt_parquet, .shift = SBFI_SHIFT_SPLIT, .cell_bits = 1,
        .block_bits = 256, .multiply_shift = 1,
        .k_min = 8, .k_max = 8, .k_step = 1,
        .max_bits = PARQUET_MAX_BITS,
        .fpr = SBFI_FPR_SPLIT, .sizing = SBFI_SIZE_PARQUET,
    },
    /* The XXH3 layouts: split-block's, blocked's and counting's kernels,
     * salts, shifts and geometry, fed XXH3_64bits_withSeed(key, len, seed)
     * mapped as parquet's XXH64 (sbfi_xxh64_pair): the block from the high
     * 32 bits, every position from the low 32 bits times its salt
     * (doc/format.md "XXH3 layouts"). */
    [SBF_SPLIT_BLOCK_XXH3] = {
        .id = SBF_SPLIT_BLOCK_XXH3, .name = "split-block-xxh3",
        .kernel = SBFI_KERN_SPLIT, .hash = SBFI_HASH_XXH3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_SPLIT, .cell_bits = 1,
        .block_bits = 0 /* k words of 32 bits: 256 or 512 */, .multiply_shift = 1,
        .k_min = 8, .k_max = 16, .k_step = 8,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_SPLIT, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_BLOCKED_XXH3] = {
        .id = SBF_BLOCKED_XXH3, .name = "blocked-xxh3",
        .kernel = SBFI_KERN_BLOCKED, .hash = SBFI_HASH_XXH3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_BLOCKED, .cell_bits = 1,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_COUNTING_XXH3] = {
        .id = SBF_COUNTING_XXH3, .name = "counting-xxh3",
        .kernel = SBFI_KERN_COUNTING, .hash = SBFI_HASH_XXH3,
        .salt = sbf__salt, .shift = SBFI_SHIFT_COUNTING,
        .cell_bits = SBFI_COUNTER_BITS,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
    /* The fmix layouts: split-block-xxh3's and blocked-xxh3's geometry,
     * salts and mapping (the block from h's high 32 bits, every position
     * from its low 32 bits), fed h = fmix64(key ^ sbf__fmix_s(seed)) for an
     * 8-byte key and XXH3_64bits_withSeed for any other length
     * (doc/format.md "fmix layouts"). No counting-fmix: counting filters
     * are rarely on the one-key hot path this hash is for. */
    [SBF_SPLIT_BLOCK_FMIX] = {
        .id = SBF_SPLIT_BLOCK_FMIX, .name = "split-block-fmix",
        .kernel = SBFI_KERN_SPLIT, .hash = SBFI_HASH_FMIX,
        .salt = sbf__salt, .shift = SBFI_SHIFT_SPLIT, .cell_bits = 1,
        .block_bits = 0 /* k words of 32 bits: 256 or 512 */, .multiply_shift = 1,
        .k_min = 8, .k_max = 16, .k_step = 8,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_SPLIT, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_BLOCKED_FMIX] = {
        .id = SBF_BLOCKED_FMIX, .name = "blocked-fmix",
        .kernel = SBFI_KERN_BLOCKED, .hash = SBFI_HASH_FMIX,
        .salt = sbf__salt, .shift = SBFI_SHIFT_BLOCKED, .cell_bits = 1,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
};
/* The XXH3 and fmix layouts' block index is the high 32 bits of h times nblocks:
 * every block is reachable while nblocks fits 32 bits. */
_Static_assert(SBF_MAX_BITS / 256 <= UINT32_MAX, "the XXH3 layouts' blocks fit 32 bits");

_Static_assert(SBFI_BLOCK512 == SBF_BLOCK_BITS, "512-bit blocks");
_Static_assert(SBFI_BLOCK512 / SBFI_COUNTER_BITS == 1u << (SBFI_PROD_BITS - SBFI_SHIFT_COUNTING),
               "the counting shift picks one of a block's counters");
_Static_assert(SBFI_BLOCK512 == 1u << (SBFI_PROD_BITS - SBFI_SHIFT_BLOCKED),
               "the blocked shift picks one of a block's bits");
_Static_assert(SBFI_WORD32_BITS == 1u << (SBFI_PROD_BITS - SBFI_SHIFT_SPLIT),
               "the split-block shift picks one bit of a word");
_Static_assert(SBFI_BLOCK512 / SBFI_WORD32_BITS == 1u << (SBFI_PROD_BITS - SBFI_SHIFT_WORD32),
               "16 32-bit words per block");
_Static_assert(SBFI_BLOCK512 / 8 == 1u << (SBFI_PROD_BITS - SBFI_SHIFT_BYTE),
               "64 bytes per block");

const sbfi_layout *sbfi_layout_of(int id)
{
    if (id < 0 || id >= SBFI_NLAYOUTS || layouts[id].name == NULL)
        return NULL;
    return &layouts[id];
}

const char *sbf_layout_name(int layout)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    return d ? d->name : "unknown";
}

int sbf_layout_from_name(const char *name)
{
    if (name == NULL)
        return SBF_E_LAYOUT;
    for (int i = 0; i < SBFI_NLAYOUTS; i++)
        if (layouts[i].name != NULL && strcmp(layouts[i].name, name) == 0)
            return i;
    return SBF_E_LAYOUT;
}

int sbf_layout_info(int layout, uint32_t k, struct sbf_layout_info *out)
{
    SBFI_RETURN_IF(out == NULL, SBF_E_NULL);
    const sbfi_layout *d = sbfi_layout_of(layout);
    SBFI_RETURN_IF(d == NULL, SBF_E_LAYOUT);
    if (k == 0)
        k = d->k_min;
    SBFI_RETURN_IF(!sbfi_k_ok(d, k), SBF_E_K);
    out->name = d->name;
    out->cell_bits = d->cell_bits;
    /* as sbf_info's: the block a key's cells lie in; 0 when they lie anywhere */
    out->block_bits = d->multiply_shift ? (uint32_t)sbfi_granule(d, k) : 0;
    out->k_min = d->k_min;
    out->k_max = d->k_max;
    out->k_step = d->k_step;
    return SBF_OK;
}

/* ------------------------------------------------------- geometry rules */

int sbfi_check_k(int layout, uint32_t k)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    SBFI_RETURN_IF(d == NULL, SBF_E_LAYOUT);
    return sbfi_k_ok(d, k) ? SBF_OK : SBF_E_K;
}

uint64_t sbfi_granule_bits(int layout, uint32_t k)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    return d ? sbfi_granule(d, k) : 0;
}

uint64_t sbfi_max_bits(int layout)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    return d ? d->max_bits : 0;
}

int sbfi_check_geometry(int layout, uint64_t bits, uint32_t k)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    SBFI_RETURN_IF(d == NULL, SBF_E_LAYOUT);
    SBFI_RETURN_IF(!sbfi_k_ok(d, k), SBF_E_K);
    SBFI_RETURN_IF(bits > d->max_bits, SBF_E_TOO_LARGE);
    SBFI_RETURN_IF(bits == 0 || bits % sbfi_granule(d, k) != 0, SBF_E_PARAM);
    return SBF_OK;
}

size_t sbfi_data_bytes(uint64_t bits)
{
    return (size_t)((bits / 8 + SBFI_LINE - 1) / SBFI_LINE * SBFI_LINE);
}

/* M = ceil(2^(63+l) / m) and l - 1, l = ceil(log2 m), for
 * sbfi_classic_bit_recip (src/layout.h says why they give a % m). Any
 * m >= 2 works (l <= 64, so 2^(63+l) fits in 128 bits); the classic
 * layout's are multiples of 64, and sbfi_set_geometry makes them for every
 * layout, so no layout's m is left out by a row of its own. */
void sbfi_classic_recip(uint64_t m, uint64_t *magic, uint32_t *shift)
{
    SBFI_ASSERT(m >= 2);
    const uint32_t l = 64u - (uint32_t)__builtin_clzll(m - 1); /* ceil(log2 m) */
    __extension__ typedef unsigned __int128 u128;
    *magic = (uint64_t)((((u128)1 << (63 + l)) + m - 1) / m);
    *shift = l - 1;
}

/* The one derivation of a filter's geometry fields (sbfi_make, the
 * loaders): layout, descriptor, bits, k, block size and count, data bytes.
 * The geometry must have passed sbfi_check_geometry. */
void sbfi_set_geometry(sbf_filter *f, int layout, uint64_t bits, uint32_t k)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    SBFI_ASSERT(d != NULL && sbfi_check_geometry(layout, bits, k) == SBF_OK);
    const uint64_t g = sbfi_granule(d, k);
    f->layout = layout;
    f->lay = d;
    memcpy(f->salt, d->salt, sizeof f->salt);
    f->hash = d->hash;
    f->bits = bits;
    sbfi_classic_recip(bits, &f->bits_magic, &f->bits_shift);
    f->k = k;
    f->lanes = (UINT32_C(1) << (k < 16 ? k : 16)) - 1; /* a classic k goes up to 255 */
    f->block_bytes = (uint32_t)(g / 8);
    f->block_log2 = (uint32_t)__builtin_ctzll(g / 8);
    f->nblocks = bits / g;
    f->block_shift = f->nblocks >= 2 && (f->nblocks & (f->nblocks - 1)) == 0
                         ? 64u - (uint32_t)__builtin_ctzll(f->nblocks) : 0u;
    f->bytes = sbfi_data_bytes(bits);
}
