/*
 * The layout table (src/layout.h says what a descriptor holds) and the
 * geometry rules every constructor and loader asks: which k a layout takes,
 * the granule its bit count is a multiple of, its largest size, and the
 * block geometry of a filter. Adding a layout: HACKING.md.
 */
#include "sbf_internal.h"

/*
 * The salts of the blocked, split-block and counting layouts: 16 odd 32-bit
 * multipliers (odd, so x -> x * salt is a bijection mod 2^32 and the top
 * bits of the product mix all of x). They have been these values since the
 * first commit (75070ee), which records no derivation: treat them as
 * arbitrary constants, not as the output of a formula in this tree. They,
 * the multiply-shift block index and the shifts of src/layout.h are the
 * file format (tests/vectors/layouts_kat.inc pins them on every ISA):
 * changing any of them is a new layout id, never an edit.
 */
static const uint32_t salt_sbf[SBFI_NSALT] = {
    0xb3315ad9u, 0xa977c1a5u, 0xe6b33c3bu, 0xa63e4075u,
    0x74d5a45fu, 0x1d1525d3u, 0x2bbbf131u, 0xbe1e4ffdu,
    0x5b33921fu, 0xc0aacef7u, 0xf51ac6a3u, 0x12e2ddf5u,
    0x51030813u, 0x2dfafb9fu, 0x5994d00du, 0xfd11614du,
};

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
        .salt = salt_sbf, .shift = SBFI_SHIFT_BLOCKED, .cell_bits = 1,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_SPLIT_BLOCK] = {
        .id = SBF_SPLIT_BLOCK, .name = "split-block",
        .kernel = SBFI_KERN_SPLIT, .hash = SBFI_HASH_MURMUR3,
        .salt = salt_sbf, .shift = SBFI_SHIFT_SPLIT, .cell_bits = 1,
        .block_bits = 0 /* k words of 32 bits: 256 or 512 */, .multiply_shift = 1,
        .k_min = 8, .k_max = 16, .k_step = 8,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_SPLIT, .sizing = SBFI_SIZE_SEARCH,
    },
    [SBF_COUNTING] = {
        .id = SBF_COUNTING, .name = "counting",
        .kernel = SBFI_KERN_COUNTING, .hash = SBFI_HASH_MURMUR3,
        .salt = salt_sbf, .shift = SBFI_SHIFT_COUNTING,
        .cell_bits = SBFI_COUNTER_BITS,
        .block_bits = SBFI_BLOCK512, .multiply_shift = 1,
        .k_min = 1, .k_max = SBF_MAX_K_BLOCKED, .k_step = 1,
        .max_bits = SBF_MAX_BITS,
        .fpr = SBFI_FPR_BLOCKED, .sizing = SBFI_SIZE_SEARCH,
    },
};

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
    f->k = k;
    f->block_bytes = (uint32_t)(g / 8);
    f->block_log2 = (uint32_t)__builtin_ctzll(g / 8);
    f->nblocks = bits / g;
    f->bytes = sbfi_data_bytes(bits);
}
