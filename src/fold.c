/*
 * Fold (halve a filter's block count by merging blocks 2i and 2i+1) and the
 * false-positive rate a filter gives, estimated from its own bits.
 *
 * Why fold is exact: every layout but classic picks block
 * b(z) = floor(h1 * z / 2^64) of z blocks, and for even z,
 * floor(b(z) / 2) = b(z / 2); a key's bits inside its block do not depend
 * on z. So OR-ing blocks 2i and 2i+1 (2^t consecutive blocks for t folds)
 * gives the filter built at z / 2^t from the same keys, bit for bit. For
 * counting filters the counters add, saturating at 15: min(15, a + b) of
 * already saturated counts is min(15, the true count), as a direct build.
 */
#include "sbf_internal.h"

#include <math.h>

/* Word i of f, read with a relaxed atomic load on a concurrent filter. */
static inline uint64_t word_at(const sbf_filter *f, size_t i)
{
    if (f->flags & SBF_CONCURRENT)
        return __atomic_load_n(&f->words[i], __ATOMIC_RELAXED);
    return f->words[i];
}

/* Counters of two words added per nibble, saturating at 15 (SWAR: the
 * nibble sums fit 5 bits, computed in two halves of alternating nibbles). */
static uint64_t nib_add_sat(uint64_t a, uint64_t b)
{
    const uint64_t lo = UINT64_C(0x0f0f0f0f0f0f0f0f);
    uint64_t r = 0;
    for (int half = 0; half < 2; half++) {
        const uint64_t x = (a >> (4 * half)) & lo, y = (b >> (4 * half)) & lo;
        uint64_t s = x + y;                                  /* 0..30 per byte */
        const uint64_t over = (s + UINT64_C(0x7070707070707070)) & UINT64_C(0x8080808080808080);
        s |= (over >> 7) * 15;                               /* > 15: all ones */
        r |= (s & lo) << (4 * half);
    }
    return r;
}

static int foldable(const sbf_filter *f, uint32_t times)
{
    SBFI_RETURN_IF(!f->lay->multiply_shift, SBF_E_UNSUPPORTED);
    SBFI_RETURN_IF(times == 0, SBF_E_PARAM);
    SBFI_RETURN_IF(times >= 63 || (f->nblocks >> times) == 0, SBF_E_ODD_BLOCKS);
    SBFI_RETURN_IF((f->nblocks & ((UINT64_C(1) << times) - 1)) != 0, SBF_E_ODD_BLOCKS);
    return SBF_OK;
}

int sbf_fold(sbf_filter **out, const sbf_filter *f, uint32_t times)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || f == NULL, SBF_E_NULL);
    SBFI_FORWARD_IF_ERROR(foldable(f, times));
    const uint64_t span = UINT64_C(1) << times;
    sbf_filter *g;
    sbfi_make_args a;
    sbfi_args_like(&a, f); /* its kernels, flags, allocator and count */
    a.bits = f->bits >> times;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&g, &a));
    SBFI_ASSERT(g->nblocks * span == f->nblocks && g->block_bytes == f->block_bytes);
    const size_t wpb = f->block_bytes / 8; /* 64-bit words per block (4 or 8) */
    const int counts = sbfi_counts(f->lay);
    for (uint64_t b = 0; b < g->nblocks; b++) {
        uint64_t *d = g->words + b * wpb;
        for (uint64_t j = 0; j < span; j++) {
            const size_t s = (size_t)((b * span + j) * wpb);
            for (size_t w = 0; w < wpb; w++)
                d[w] = counts ? nib_add_sat(d[w], word_at(f, s + w))
                                                 : d[w] | word_at(f, s + w);
        }
    }
    *out = g;
    return SBF_OK;
}

/* ---------------------------------------------------------------- estimate */

static unsigned nonzero_nibbles(uint64_t v)
{
    return (unsigned)__builtin_popcountll(sbfi_nibnz(v));
}

/* The chance that a probe of block b finds all its bits (counters) set. */
static double block_hit(const sbf_filter *f, uint64_t b)
{
    const size_t wpb = f->block_bytes / 8;
    const size_t base = (size_t)(b * wpb);
    if (f->lay->kernel == SBFI_KERN_SPLIT) { /* one bit per 32-bit word */
        double p = 1.0;
        for (size_t w = 0; w < wpb; w++) {
            const uint64_t v = word_at(f, base + w);
            p *= (double)__builtin_popcount((uint32_t)v) / 32.0;
            p *= (double)__builtin_popcount((uint32_t)(v >> 32)) / 32.0;
        }
        return p;
    }
    const int counts = sbfi_counts(f->lay);
    unsigned set = 0;
    for (size_t w = 0; w < wpb; w++) {
        const uint64_t v = word_at(f, base + w);
        set += counts ? nonzero_nibbles(v) : (unsigned)__builtin_popcountll(v);
    }
    const double cells = (double)f->lay->block_bits / f->lay->cell_bits;
    return pow((double)set / cells, (double)f->k);
}

double sbf_fpp_estimate(const sbf_filter *f)
{
    if (f == NULL)
        return NAN;
    if (!f->lay->multiply_shift) { /* classic: one block of m bits */
        uint64_t set = 0;
        for (size_t i = 0; i < (size_t)(f->bits / 64); i++)
            set += (uint64_t)__builtin_popcountll(word_at(f, i));
        return pow((double)set / (double)f->bits, (double)f->k);
    }
    double sum = 0.0;
    for (uint64_t b = 0; b < f->nblocks; b++)
        sum += block_hit(f, b);
    return sum / (double)f->nblocks;
}

int sbf_fold_to(sbf_filter **out, const sbf_filter *f, double fpp, uint32_t *times_out)
{
    if (out != NULL)
        *out = NULL;
    if (times_out != NULL)
        *times_out = 0;
    SBFI_RETURN_IF(out == NULL || f == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(!(fpp > 0.0 && fpp < 1.0), SBF_E_FPP);
    SBFI_RETURN_IF(!f->lay->multiply_shift, SBF_E_UNSUPPORTED);
    sbf_filter *cur;
    SBFI_FORWARD_IF_ERROR(sbf_copy(&cur, f));
    uint32_t t = 0;
    while (foldable(cur, 1) == SBF_OK) {
        sbf_filter *next;
        const int e = sbf_fold(&next, cur, 1);
        if (e != SBF_OK) {
            sbf_free(cur);
            return e;
        }
        if (!(sbf_fpp_estimate(next) <= fpp)) {
            sbf_free(next);
            break;
        }
        sbf_free(cur);
        cur = next;
        t++;
    }
    *out = cur;
    if (times_out != NULL)
        *times_out = t;
    return SBF_OK;
}
