/*
 * Sizing: the geometry rules of every layout (which k it accepts, the
 * granule its bit count is a multiple of, its largest size) and the choice
 * of bits and k for a target false-positive rate.
 *
 * The flow is one way: src/filter.c asks this file for a geometry
 * (sbfi_geometry), and this file asks src/fpr.c's formulas how good a
 * candidate is (sbf_fpp_layout). src/fpr.c holds only mathematics and knows
 * nothing of these rules.
 */
#include "sbf_internal.h"

#include <math.h>

/* ------------------------------------------------------- geometry rules */

int sbfi_check_k(int layout, uint32_t k)
{
    switch (layout) {
    case SBF_CLASSIC: return k >= 1 && k <= SBF_MAX_K_CLASSIC ? SBF_OK : SBF_E_K;
    case SBF_SPLIT_BLOCK: return k == 8 || k == 16 ? SBF_OK : SBF_E_K;
    default: return k >= 1 && k <= SBF_MAX_K_BLOCKED ? SBF_OK : SBF_E_K;
    }
}

uint64_t sbfi_granule_bits(int layout, uint32_t k)
{
    switch (layout) {
    case SBF_CLASSIC: return 64;
    case SBF_SPLIT_BLOCK: return 32u * (uint64_t)k;
    default: return SBF_BLOCK_BITS;
    }
}

uint64_t sbfi_max_bits(int layout)
{
    return layout == SBF_CLASSIC ? UINT64_C(64) * INT32_MAX : SBF_MAX_BITS;
}

/* The largest k a layout accepts. */
static uint32_t k_max(int layout)
{
    switch (layout) {
    case SBF_CLASSIC: return SBF_MAX_K_CLASSIC;
    case SBF_SPLIT_BLOCK: return SBFI_MAX_K_SPLIT;
    default: return SBF_MAX_K_BLOCKED;
    }
}

int sbfi_check_geometry(int layout, uint64_t bits, uint32_t k)
{
    SBFI_RETURN_IF(layout < SBF_CLASSIC || layout > SBF_COUNTING, SBF_E_LAYOUT);
    SBFI_FORWARD_IF_ERROR(sbfi_check_k(layout, k));
    SBFI_RETURN_IF(bits > sbfi_max_bits(layout), SBF_E_TOO_LARGE);
    SBFI_RETURN_IF(bits == 0 || bits % sbfi_granule_bits(layout, k) != 0,
                   SBF_E_PARAM);
    return SBF_OK;
}

size_t sbfi_data_bytes(uint64_t bits)
{
    return (size_t)((bits / 8 + SBFI_LINE - 1) / SBFI_LINE * SBFI_LINE);
}

/* Guava's optimalNumOfHashFunctions for explicit sizes. */
static uint32_t derive_k(int layout, uint64_t n, uint64_t bits)
{
    if (layout == SBF_SPLIT_BLOCK)
        return 8;
    const double cells = layout == SBF_COUNTING ? (double)bits / 4 : (double)bits;
    const double kk = floor(cells / (double)(n ? n : 1) * log(2.0) + 0.5);
    const uint32_t cap = k_max(layout);
    return kk < 1 ? 1 : kk > cap ? cap : (uint32_t)kk;
}

int sbfi_geometry(const sbf_params *p, uint64_t *bits_out, uint32_t *k_out)
{
    SBFI_RETURN_IF(p->layout < SBF_CLASSIC || p->layout > SBF_COUNTING, SBF_E_LAYOUT);
    const int layout = p->layout;
    uint64_t bits;
    uint32_t k = p->k;
    if (k != 0)
        SBFI_FORWARD_IF_ERROR(sbfi_check_k(layout, k));
    if (p->bits == 0) {
        SBFI_RETURN_IF(!(p->fpp > 0.0 && p->fpp < 1.0), SBF_E_FPP);
        SBFI_FORWARD_IF_ERROR(sbf_size(layout, p->expected_n, p->fpp, &bits, &k));
    } else {
        SBFI_RETURN_IF(p->bits > sbfi_max_bits(layout), SBF_E_TOO_LARGE);
        if (k == 0)
            k = derive_k(layout, p->expected_n, p->bits);
        const uint64_t g = sbfi_granule_bits(layout, k);
        bits = (p->bits + g - 1) / g * g;
        SBFI_RETURN_IF(bits > sbfi_max_bits(layout), SBF_E_TOO_LARGE);
    }
    *bits_out = bits;
    *k_out = k;
    return SBF_OK;
}

/* ------------------------------------------------------------------ sizing */

/* Java's Math.round for the values used here: nearest, ties toward +inf. */
static double java_round(double x)
{
    const double f = floor(x);
    return x - f >= 0.5 ? f + 1.0 : f;
}

/*
 * Guava 31.1 BloomFilter.create:
 *   bits = (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2)))
 *   k = max(1, (int) Math.round((double) bits / n * Math.log(2)))
 *   words = ceil(bits / 64), which must fit an int.
 * Guava refuses bits == 0 (n = 1 with p > 0.618) and k > 255 (p < ~2^-255);
 * for the former we give the smallest filter (64 bits, k = 1), for the
 * latter SBF_E_K.
 */
static int size_classic(uint64_t n, double fpp, uint32_t kin, uint64_t *bits,
                        uint32_t *k)
{
    const double ln2 = log(2.0);
    const double x = -(double)n * log(fpp) / (ln2 * ln2);
    const double max_bits = (double)sbfi_max_bits(SBF_CLASSIC);
    SBFI_RETURN_IF(!(x <= max_bits), SBF_E_TOO_LARGE);
    const uint64_t raw = (uint64_t)x; /* Java's truncating long cast */
    double kd = java_round((double)raw / (double)n * ln2);
    if (kd < 1.0)
        kd = 1.0;
    SBFI_RETURN_IF(kin == 0 && kd > k_max(SBF_CLASSIC), SBF_E_K);
    const uint64_t words = raw == 0 ? 1 : (raw + 63) / 64;
    *bits = words * 64;
    *k = kin != 0 ? kin : (uint32_t)kd;
    return SBF_OK;
}

/* What one sizing search looks at. */
typedef struct size_ctx {
    int layout;
    uint64_t n;
    double fpp;
    uint64_t granule; /* bits per block */
    uint32_t kmin, kmax;
} size_ctx;

static double size_fpr(const size_ctx *c, uint64_t nb, uint32_t kk)
{
    return sbf_fpp_layout(c->layout, c->n, nb * c->granule, kk);
}

/*
 * The smallest k in kmin..kmax with FPR(nb blocks, k) <= fpp, or 0. FPR is
 * unimodal in k at a fixed size, so the scan stops once it rises (every
 * later k is then worse still, and the previous one already failed).
 */
static uint32_t size_fits(const size_ctx *c, uint64_t nb)
{
    if (nb == 0)
        return 0;
    double prev = HUGE_VAL;
    for (uint32_t kk = c->kmin; kk <= c->kmax; kk++) {
        const double f = size_fpr(c, nb, kk);
        if (f <= c->fpp)
            return kk;
        if (f > prev)
            break;
        prev = f;
    }
    return 0;
}

/*
 * Smallest number of blocks in 1..nbmax that fits (FPR decreases with the
 * number of blocks), starting from the guess nb0: step away from it
 * geometrically until the answer is bracketed, then bisect.
 */
static int size_search(const size_ctx *c, uint64_t nb0, uint64_t nbmax,
                       uint64_t *nb_out, uint32_t *k_out)
{
    uint64_t lo, hi; /* lo fails (0 always does), hi fits */
    if (nb0 < 1)
        nb0 = 1;
    if (nb0 > nbmax)
        nb0 = nbmax;
    if (size_fits(c, nb0)) {
        hi = nb0;
        lo = 0;
        for (;;) {
            const uint64_t d = hi / 8 + 1;
            const uint64_t t = hi > d ? hi - d : 0;
            if (!size_fits(c, t)) {
                lo = t;
                break;
            }
            hi = t;
        }
    } else {
        /* FPR falls with the number of blocks: when the largest filter
         * fails, so does every step towards it (one check instead of up
         * to ~90 when no size fits). */
        SBFI_RETURN_IF(nb0 < nbmax && !size_fits(c, nbmax), SBF_E_TOO_LARGE);
        lo = nb0;
        for (;;) {
            SBFI_RETURN_IF(lo == nbmax, SBF_E_TOO_LARGE);
            const uint64_t d = lo / 4 + 1;
            const uint64_t t = nbmax - lo > d ? lo + d : nbmax;
            if (size_fits(c, t)) {
                hi = t;
                break;
            }
            lo = t;
        }
    }
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (size_fits(c, mid))
            hi = mid;
        else
            lo = mid;
    }
    *nb_out = hi;
    *k_out = size_fits(c, hi);
    return SBF_OK;
}

/* Positions (bits or counters) a classic filter with k hashes (0: the best
 * k) needs for fpp: the starting guess of the blocked searches. */
static double classic_positions(uint64_t n, double fpp, uint32_t k)
{
    const double ln2 = log(2.0);
    if (k == 0)
        return -(double)n * log(fpp) / (ln2 * ln2);
    /* (1 - e^(-kn/m))^k = fpp  <=>  m = -k n / log(1 - fpp^(1/k)) */
    return -(double)k * (double)n / log1p(-pow(fpp, 1.0 / k));
}

static uint64_t blocks_guess(double positions, uint64_t per_block)
{
    const double g = ceil(positions / (double)per_block);
    return g >= 1e18 ? UINT64_C(1000000000000000000) : g < 1.0 ? 1 : (uint64_t)g;
}

int sbf_size(int layout, uint64_t n, double fpp, uint64_t *bits, uint32_t *k)
{
    SBFI_RETURN_IF(bits == NULL || k == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(layout < 0 || layout >= SBFI_NLAYOUTS, SBF_E_LAYOUT);
    SBFI_RETURN_IF(!(fpp > 0.0 && fpp < 1.0), SBF_E_FPP);
    const uint32_t kin = *k;
    if (kin != 0)
        SBFI_FORWARD_IF_ERROR(sbfi_check_k(layout, kin));
    if (n == 0)
        n = 1;

    switch (layout) {
    case SBF_CLASSIC:
        return size_classic(n, fpp, kin, bits, k);

    case SBF_BLOCKED:
    case SBF_COUNTING: {
        const uint64_t per_block =
            layout == SBF_BLOCKED ? SBF_BLOCK_BITS : SBF_BLOCK_BITS / 4;
        const uint64_t block = sbfi_granule_bits(layout, kin);
        size_ctx c = {layout, n, fpp, block, kin ? kin : 1, kin ? kin : k_max(layout)};
        uint64_t nb;
        uint32_t kk;
        SBFI_FORWARD_IF_ERROR(size_search(
            &c, blocks_guess(classic_positions(n, fpp, kin), per_block),
            sbfi_max_bits(layout) / block, &nb, &kk));
        *bits = nb * block;
        *k = kk;
        return SBF_OK;
    }

    case SBF_SPLIT_BLOCK: {
        uint64_t best_bits = 0;
        uint32_t best_k = 0;
        int err = SBF_E_TOO_LARGE;
        for (uint32_t kk = 8; kk <= SBFI_MAX_K_SPLIT; kk += 8) {
            if (kin != 0 && kk != kin)
                continue;
            const uint64_t block = sbfi_granule_bits(layout, kk);
            size_ctx c = {layout, n, fpp, block, kk, kk};
            uint64_t nb;
            uint32_t got;
            const int e = size_search(
                &c, blocks_guess(classic_positions(n, fpp, 0), block),
                sbfi_max_bits(layout) / block, &nb, &got);
            if (e != SBF_OK)
                continue;
            err = SBF_OK;
            if (best_k == 0 || nb * block < best_bits) {
                best_bits = nb * block;
                best_k = kk;
            }
        }
        SBFI_FORWARD_IF_ERROR(err);
        *bits = best_bits;
        *k = best_k;
        return SBF_OK;
    }
    default:
        return SBF_E_LAYOUT;
    }
}
