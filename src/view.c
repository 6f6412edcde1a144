/*
 * The view of a filter that include/simdbloom_inline.h probes inline, and
 * the single-key calls that take a MurmurHash3 the caller computed already.
 */
#include "sbf_internal.h"
#include "simdbloom_inline.h"

/* The inline probe of a plain filter of f's kernel family and hash, if any
 * (the header hashes with MurmurHash3, XXH64 for parquet, XXH3 for
 * the XXH3 layouts and fmix64 for the fmix layouts' 8-byte keys). A new kind
 * of the header is one more case here. */
static unsigned inline_kind(const sbf_filter *f)
{
    if (f->flags & SBF_CONCURRENT)
        return SBF_VIEW_CALL; /* atomics: the library's kernels */
    if (f->lay->hash == SBFI_HASH_XXH64) /* parquet: split-block, k = 8 */
        return f->lay->kernel == SBFI_KERN_SPLIT && f->k == 8 ? SBF_VIEW_PARQUET
                                                              : SBF_VIEW_CALL;
    if (f->lay->hash == SBFI_HASH_XXH3) { /* XXH3: the same probes */
        switch (f->lay->kernel) {
        case SBFI_KERN_BLOCKED: return SBF_VIEW_BLOCKED_XXH3;
        case SBFI_KERN_SPLIT: return f->k == 8 ? SBF_VIEW_SPLIT8_XXH3 : SBF_VIEW_SPLIT16_XXH3;
        case SBFI_KERN_COUNTING: return f->k <= 16 ? SBF_VIEW_COUNTING_XXH3 : SBF_VIEW_CALL;
        default: return SBF_VIEW_CALL;
        }
    }
    if (f->lay->hash == SBFI_HASH_FMIX) { /* fmix: the same probes */
        switch (f->lay->kernel) {
        case SBFI_KERN_BLOCKED: return SBF_VIEW_BLOCKED_FMIX;
        case SBFI_KERN_SPLIT: return f->k == 8 ? SBF_VIEW_SPLIT8_FMIX : SBF_VIEW_SPLIT16_FMIX;
        default: return SBF_VIEW_CALL;
        }
    }
    if (f->lay->hash != SBFI_HASH_MURMUR3)
        return SBF_VIEW_CALL;
    switch (f->lay->kernel) {
    case SBFI_KERN_BLOCKED: return SBF_VIEW_BLOCKED;
    case SBFI_KERN_SPLIT: return f->k == 8 ? SBF_VIEW_SPLIT8 : SBF_VIEW_SPLIT16;
    case SBFI_KERN_COUNTING: return f->k <= 16 ? SBF_VIEW_COUNTING : SBF_VIEW_CALL;
    default: return SBF_VIEW_CALL; /* classic */
    }
}

static void fill(const sbf_filter *f, sbf_view *v)
{
    memset(v, 0, sizeof *v);
    v->words = f->words;
    v->nblocks = f->nblocks;
    v->block_shift = f->block_shift; /* 2^j blocks: the XXH3 kinds' block is h's top j bits */
    v->salt = f->salt;  /* the layout's salts */
    v->filter = (sbf_filter *)(uintptr_t)f; /* adds only through writable views */
    v->k = f->k;
    v->seed = f->seed;
    /* once here, not per key: the fmix layouts' s in the same field */
    v->xxh3_flip = f->hash == SBFI_HASH_FMIX ? sbf_fmix_s(f->seed) : sbf_xxh3_flip8(f->seed);
    v->lanes = f->lanes;
    v->layout = f->layout;
    v->query = inline_kind(f);
    v->add = SBF_VIEW_CALL;
    v->key_contains = f->contains1; /* builds without vector flags call them, and
                                       every view of a kind not inline */
    /* a plain filter counts its adds in f->added (a concurrent one in
     * stripes): inline adds raise it, and sbf_view_counting takes only a
     * view that has it */
    v->added = (f->flags & SBF_CONCURRENT) ? NULL : &v->filter->added;
}

int sbf_view_get(const sbf_filter *f, sbf_view *out)
{
    SBFI_RETURN_IF(f == NULL || out == NULL, SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    fill(f, out);
    return SBF_OK;
}

int sbf_view_get_writable(sbf_filter *f, sbf_view *out)
{
    SBFI_RETURN_IF(out == NULL, SBF_E_NULL);
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f)); /* NULL, or a file mapping */
    SBFI_ASSERT(sbfi_filter_ok(f));
    fill(f, out);
    out->writable = 1;
    out->add = out->query;
    out->key_add = f->add1; /* sbf_add's kernel: blocked filters' add with k a constant */
    return SBF_OK;
}

int sbf_add_hash(sbf_filter *f, uint64_t h1, uint64_t h2)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f)); /* NULL, or a file mapping */
    SBFI_ASSERT(sbfi_filter_ok(f));
    const int r = f->ops->add_hashed(f, h1, h2); /* the probe of f's ISA, family, mode */
    sbfi_count_added(f, (uint64_t)r); /* keys_added: adds that changed the filter */
    return r;
}

int sbf_contains_hash(const sbf_filter *f, uint64_t h1, uint64_t h2)
{
    SBFI_RETURN_IF(f == NULL, SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    return f->ops->contains_hashed(f, h1, h2);
}
