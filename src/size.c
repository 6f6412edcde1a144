/*
 * Sizing: the choice of bits and k for a target false-positive rate, by the
 * rule the layout's descriptor names (src/layout.h: Guava's formulas, or a
 * search over block counts with the layout's own formula).
 *
 * The flow is one way: src/filter.c asks this file for a geometry
 * (sbfi_geometry), this file asks the descriptor for the layout's rules
 * (k range, granule, largest size) and src/fpr.c's formulas how good a
 * candidate is (sbf_fpp_layout). src/fpr.c holds only mathematics.
 */
#include "sbf_internal.h"
#include "fpr_internal.h"
#include "parquet_int.h"

#include <math.h>

/* Guava's optimalNumOfHashFunctions for explicit sizes, over the layout's
 * cells (counters count bits / SBFI_COUNTER_BITS). A layout whose k sets
 * its block size (k_step > 1: split-block) takes its smallest k. */
static uint32_t derive_k(const sbfi_layout *d, uint64_t n, uint64_t bits)
{
    if (d->k_step > 1 || d->k_min == d->k_max)
        return d->k_min;
    const double cells = (double)bits / d->cell_bits;
    const double kk = floor(cells / (double)(n ? n : 1) * log(2.0) + 0.5);
    const uint32_t cap = d->k_max;
    return kk < 1 ? 1 : kk > cap ? cap : (uint32_t)kk;
}

int sbfi_geometry(const sbf_params *p, uint64_t *bits_out, uint32_t *k_out)
{
    const sbfi_layout *d = sbfi_layout_of(p->layout);
    SBFI_RETURN_IF(d == NULL, SBF_E_LAYOUT);
    const int layout = p->layout;
    uint64_t bits;
    uint32_t k = p->k;
    if (k != 0)
        SBFI_FORWARD_IF_ERROR(sbfi_check_k(layout, k));
    if (p->bits == 0) {
        SBFI_RETURN_IF(!(p->fpp > 0.0 && p->fpp < 1.0), SBF_E_FPP);
        SBFI_FORWARD_IF_ERROR(sbf_size(layout, p->expected_n, p->fpp, &bits, &k));
    } else {
        SBFI_RETURN_IF(p->bits > d->max_bits, SBF_E_TOO_LARGE);
        if (k == 0)
            k = derive_k(d, p->expected_n, p->bits);
        const uint64_t g = sbfi_granule(d, k);
        bits = (p->bits + g - 1) / g * g;
        SBFI_RETURN_IF(bits > d->max_bits, SBF_E_TOO_LARGE);
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

/* How far above fpp Guava's own size may be, by the classic bound, and be
 * kept (tests/test_size.c uses the same). Decided (issue 33): kept, not 1.0.
 * A classic filter made from (n, fpp) is Guava's BloomFilter.create(n, fpp)
 * byte for byte (tests/test_guava.c: same bytes, Guava's own false
 * positives), which is what the layout is for; Guava's rounding of k puts
 * those sizes up to 0.7% above fpp by any formula (measured 1.007e-2 +-
 * 0.3e-4 at n = 1000, fpp = 1e-2), and a slack of 1.0 moves almost every
 * Guava size by a word and breaks that interchange. */
#define GUAVA_SLACK 1.01

/* The bound at m bits with kin when given, else at the k in 1..kmax where a
 * downhill walk from *khint stops (the bound is near-unimodal in k; a local
 * minimum that fits is as good an answer), which becomes the next hint. */
static double classic_best_k(const sbfi_layout *d, uint64_t n, uint64_t m, uint32_t kin,
                             uint32_t kmax, uint32_t *khint)
{
    sbfi_fpr_count.evals++;
    if (kin != 0) {
        *khint = kin;
        return sbf_fpp_layout(d->id, n, m, kin);
    }
    uint32_t k = *khint < 1 ? 1 : *khint > kmax ? kmax : *khint;
    double f = sbf_fpp_layout(d->id, n, m, k);
    int dir = 0; /* -1 down, +1 up, 0 not chosen yet */
    for (;;) {
        if (dir <= 0 && k > 1) {
            sbfi_fpr_count.evals++;
            const double g = sbf_fpp_layout(d->id, n, m, k - 1);
            if (g < f) {
                k--;
                f = g;
                dir = -1;
                continue;
            }
        }
        if (dir >= 0 && k < kmax) {
            sbfi_fpr_count.evals++;
            const double g = sbf_fpp_layout(d->id, n, m, k + 1);
            if (g < f) {
                k++;
                f = g;
                dir = 1;
                continue;
            }
        }
        break;
    }
    *khint = k;
    return f;
}

/*
 * Guava's sizing misses the rate (its double hashing repeats and aligns
 * positions at small bit counts, src/fpr.c guava_bound): a multiple of 64
 * bits from Guava's size up, with a k (Guava's + 2 at most, often fewer)
 * whose bound is <= fpp. No m below sqrt(2n / fpp) fits (the bound is at
 * least 2n/m^2: the queries that follow a key's progression), so the search
 * starts there; steps that double (from an eighth of the size) find a size
 * that fits, then a bisection between the last that failed and it, to
 * 1/256 of the size. The bound is not monotone in m (powers of two are
 * worse than their neighbours): the answer is the smallest the bisection
 * meets, and it always fits.
 */
static int size_classic_bound(const sbfi_layout *d, uint64_t n, double fpp, uint32_t kin,
                              uint32_t kguava, uint64_t *bits, uint32_t *k)
{
    const uint32_t kmax = kguava + 2 < d->k_max ? kguava + 2 : d->k_max;
    const double floor_m = sqrt(2.0 * (double)n / fpp);
    SBFI_RETURN_IF(!(floor_m < (double)d->max_bits), SBF_E_TOO_LARGE);
    uint64_t lo = *bits;
    if ((double)lo < floor_m)
        lo = (uint64_t)floor_m / 64 * 64;
    uint64_t hi = 0, step = lo / 8 / 64 * 64;
    uint32_t khi = 0, hint = kguava, kk;
    if (step < 64)
        step = 64;
    for (;;) {
        if (step > d->max_bits - lo) { /* the largest filter, last */
            SBFI_RETURN_IF(lo >= d->max_bits, SBF_E_TOO_LARGE);
            step = d->max_bits - lo;
        }
        const uint64_t t = lo + step;
        kk = hint;
        if (classic_best_k(d, n, t, kin, kmax, &kk) <= fpp) {
            hi = t;
            khi = kk;
            break;
        }
        hint = kk;
        lo = t;
        step *= 2;
    }
    hint = khi;
    while (hi - lo > 64 && hi - lo > hi / 256) {
        const uint64_t t = lo + (hi - lo) / 128 * 64;
        kk = hint;
        if (classic_best_k(d, n, t, kin, kmax, &kk) <= fpp) {
            hi = t;
            khi = kk;
        } else {
            lo = t;
        }
        hint = kk;
    }
    *bits = hi;
    *k = khi;
    return SBF_OK;
}

/*
 * Guava 31.1 BloomFilter.create:
 *   bits = (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2)))
 *   k = max(1, (int) Math.round((double) bits / n * Math.log(2)))
 *   words = ceil(bits / 64), which must fit an int.
 * Guava refuses bits == 0 (n = 1 with p > 0.618) and k > 255 (p < ~2^-255);
 * for the former we give the smallest filter (64 bits, k = 1), for the
 * latter SBF_E_K. Kept when its bound (sbf_fpp_layout) is <= fpp, else
 * size_classic_bound (issue 33).
 */
static int size_classic(const sbfi_layout *d, uint64_t n, double fpp, uint32_t kin,
                        uint64_t *bits, uint32_t *k)
{
    const double ln2 = log(2.0);
    const double x = -(double)n * log(fpp) / (ln2 * ln2);
    const double max_bits = (double)d->max_bits;
    SBFI_RETURN_IF(!(x <= max_bits), SBF_E_TOO_LARGE);
    const uint64_t raw = (uint64_t)x; /* Java's truncating long cast */
    double kd = java_round((double)raw / (double)n * ln2);
    if (kd < 1.0)
        kd = 1.0;
    SBFI_RETURN_IF(kin == 0 && kd > d->k_max, SBF_E_K);
    const uint64_t words = raw == 0 ? 1 : (raw + 63) / 64;
    *bits = words * 64;
    *k = kin != 0 ? kin : (uint32_t)kd;
    /* Guava's sizing keeps the rate: Guava's, bit for bit. Its rounding of
     * k leaves even the independent formula up to 0.7% above fpp at any
     * size (a difference no measurement sees); that much is let through. */
    if (sbf_fpp_layout(d->id, n, *bits, *k) <= fpp * GUAVA_SLACK)
        return SBF_OK;
    return size_classic_bound(d, n, fpp, kin, *k, bits, k);
}

/* What one sizing search looks at. */
typedef struct size_ctx {
    int layout;
    uint64_t n;
    double fpp;
    uint64_t granule; /* bits per block */
    uint32_t kmin, kmax;
    uint32_t khint;   /* the best k at the last size tried (0: none yet) */
    double fbest;     /* the lowest FPR size_fits saw at that size */
} size_ctx;

static double size_fpr(const size_ctx *c, uint64_t nb, uint32_t kk)
{
    sbfi_fpr_count.evals++;
    return sbf_fpp_layout(c->layout, c->n, nb * c->granule, kk);
}

/*
 * The smallest k in kmin..kmax with FPR(nb blocks, k) <= fpp, or 0. FPR is
 * unimodal in k at a fixed size, so the scan stops once it rises (every
 * later k is then worse still, and the previous one already failed). This
 * defines the answer; size_fits only answers whether it is 0, faster.
 */
static uint32_t size_scan(const size_ctx *c, uint64_t nb)
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
 * Whether some k fits at nb blocks (size_scan(c, nb) != 0), and the lowest
 * FPR seen in c->fbest. The best k moves little from one size to the next,
 * so instead of scanning from kmin this walks downhill from the last best
 * k (khint): a fit on the way answers at once, and a minimum that fails
 * answers no, since FPR is unimodal in k. About 3 evaluations instead of up
 * to 16. A NaN (a refused evaluation) anywhere falls back to the scan.
 */
static int size_fits(size_ctx *c, uint64_t nb)
{
    c->fbest = HUGE_VAL;
    if (nb == 0)
        return 0;
    uint32_t k = c->khint < c->kmin ? c->kmin : c->khint > c->kmax ? c->kmax : c->khint;
    double f = size_fpr(c, nb, k);
    int dir = 0; /* +1 up, -1 down, 0 not chosen yet */
    for (;;) {
        if (isnan(f))
            return size_scan(c, nb) != 0;
        c->fbest = f;
        c->khint = k;
        if (f <= c->fpp)
            return 1;
        uint32_t next;
        double g = HUGE_VAL;
        if (dir >= 0 && k < c->kmax) {
            g = size_fpr(c, nb, k + 1);
            if (isnan(g))
                return size_scan(c, nb) != 0;
            if (g < f) {
                dir = 1;
                k++;
                f = g;
                continue;
            }
            if (dir > 0)
                return 0; /* rose after falling: f is the minimum */
        }
        if (dir <= 0 && k > c->kmin) {
            next = k - 1;
            g = size_fpr(c, nb, next);
            if (isnan(g))
                return size_scan(c, nb) != 0;
            if (g < f) {
                dir = -1;
                k = next;
                f = g;
                continue;
            }
        }
        return 0; /* neither neighbour is lower: f is the minimum */
    }
}

/* Where the line through (log n1, log f1) and (log n2, log f2) crosses
 * log fpp: log FPR is near-linear in log size. NaN when the two points
 * cannot say (an FPR of 0 or 1, or not falling). */
static double size_cross(uint64_t n1, double f1, uint64_t n2, double f2, double fpp)
{
    if (n1 == 0 || n1 >= n2 || !(f1 > f2 && f2 > 0.0 && f1 < 1.0))
        return NAN;
    const double a = log((double)n1), b = log((double)n2);
    return exp(b + (b - a) * (log(f2) - log(fpp)) / (log(f1) - log(f2)));
}

/* The next size to try between lo (fails, or 0) and hi (fits): where the
 * FPRs at the two ends say it crosses fpp (size_cross); the midpoint when
 * they cannot say, and every other time, so the bracket at least halves
 * every two steps. The midpoint is geometric while hi > 4 lo, so a bracket
 * of many octaves shrinks to one in a few steps. */
static uint64_t size_next(const size_ctx *c, uint64_t lo, double flo, uint64_t hi,
                          double fhi, int interpolate)
{
    uint64_t mid = lo + (hi - lo) / 2;
    if (hi / 4 > lo) {
        const double g = sqrt((double)(lo ? lo : 1) * (double)hi);
        if (g > (double)lo + 1.0 && g < (double)hi - 1.0)
            mid = (uint64_t)g;
    }
    const double x = interpolate ? size_cross(lo, flo, hi, fhi, c->fpp) : NAN;
    if (isnan(x))
        return mid;
    if (!(x > (double)lo + 1.0))
        return lo + 1;
    if (!(x < (double)hi - 1.0))
        return hi - 1;
    return (uint64_t)(x + 0.5);
}

/* Bisect (with interpolation, size_next) down to neighbours: lo fails, hi
 * fits. */
static uint64_t size_bisect(size_ctx *c, uint64_t lo, double flo, uint64_t hi,
                            double fhi)
{
    int interpolate = 1;
    while (hi - lo > 1) {
        const uint64_t t = size_next(c, lo, flo, hi, fhi, interpolate);
        const uint64_t width = hi - lo;
        if (size_fits(c, t)) {
            hi = t;
            fhi = c->fbest;
        } else {
            lo = t;
            flo = c->fbest;
        }
        /* interpolate again only after a step that halved the bracket */
        interpolate = !interpolate || (hi - lo) * 2 <= width;
    }
    return hi;
}

/* From hi (fits) down to a size that fails, in steps that double, or
 * further when the last two sizes say the crossing is further (aiming 20%
 * below it). Sets *lo, *flo and moves *hi, *fhi. */
static void size_walk_down(size_ctx *c, uint64_t *hi, double *fhi, uint64_t *lo,
                           double *flo)
{
    uint64_t prev = 0;
    double fprev = NAN;
    for (uint64_t d = *hi / 8 + 1;; d *= 2) {
        uint64_t t = *hi > d ? *hi - d : 0;
        const double x = size_cross(*hi, *fhi, prev, fprev, c->fpp) / 1.25;
        if (x < (double)t)
            t = (uint64_t)x;
        if (!size_fits(c, t)) {
            *lo = t;
            *flo = c->fbest;
            return;
        }
        prev = *hi;
        fprev = *fhi;
        *hi = t;
        *fhi = c->fbest;
    }
}

/* From lo (fails) towards hi (fits) in up to four steps as size_walk_down
 * (the guess is usually close); then the bisection's geometric midpoints
 * close a wide bracket faster than more steps. */
static void size_walk_up(size_ctx *c, uint64_t *lo, double *flo, uint64_t *hi,
                         double *fhi)
{
    uint64_t prev = 0;
    double fprev = NAN;
    uint64_t d = *lo / 4 + 1;
    for (int step = 0; step < 4 && *hi - *lo > d; step++, d *= 2) {
        uint64_t t = *lo + d;
        const double x = size_cross(prev, fprev, *lo, *flo, c->fpp) * 1.25;
        if (x > (double)t)
            t = x < (double)*hi ? (uint64_t)x : *hi - 1;
        if (size_fits(c, t)) {
            *hi = t;
            *fhi = c->fbest;
            return;
        }
        prev = *lo;
        fprev = *flo;
        *lo = t;
        *flo = c->fbest;
    }
}

/*
 * Smallest number of blocks in 1..nbmax that fits (FPR decreases with the
 * number of blocks), starting from the guess nb0: walk away from it until
 * the answer is bracketed (or, upwards, the bracket up to nbmax is
 * narrowed), then bisect.
 */
static int size_search(size_ctx *c, uint64_t nb0, uint64_t nbmax,
                       uint64_t *nb_out, uint32_t *k_out)
{
    uint64_t lo, hi; /* lo fails (0 always does), hi fits */
    double flo, fhi;
    if (nb0 < 1)
        nb0 = 1;
    if (nb0 > nbmax)
        nb0 = nbmax;
    if (size_fits(c, nb0)) {
        hi = nb0;
        fhi = c->fbest;
        size_walk_down(c, &hi, &fhi, &lo, &flo);
    } else {
        /* FPR falls with the number of blocks: when the largest filter
         * fails, so does every step towards it (one check instead of up
         * to ~90 when no size fits). */
        lo = nb0;
        flo = c->fbest;
        SBFI_RETURN_IF(nb0 == nbmax || !size_fits(c, nbmax), SBF_E_TOO_LARGE);
        hi = nbmax;
        fhi = c->fbest;
        size_walk_up(c, &lo, &flo, &hi, &fhi);
    }
    *nb_out = size_bisect(c, lo, flo, hi, fhi);
    /* the answer's k as the scan defines it; khint fits there too (FPR is
     * unimodal in k, so the scan finds a fit wherever the walk did) */
    *k_out = size_scan(c, *nb_out);
    if (*k_out == 0)
        *k_out = c->khint;
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

/* A block-search layout: one search over k_min..k_max when the block is
 * fixed (the walk over k starts at log2(1/fpp), about the best k); one per
 * k when k sets the block size (the smallest result wins). */
static int size_blocks(const sbfi_layout *d, uint64_t n, double fpp, uint32_t kin,
                       uint64_t *bits, uint32_t *k)
{
    if (d->block_bits != 0) {
        const uint64_t block = d->block_bits;
        const double kg = floor(-log2(fpp) + 0.5);
        size_ctx c = {d->id, n, fpp, block, kin ? kin : d->k_min, kin ? kin : d->k_max,
                      kg < 1.0 ? 1 : kg > 255.0 ? 255 : (uint32_t)kg, 0.0};
        uint64_t nb;
        uint32_t kk;
        SBFI_FORWARD_IF_ERROR(size_search(
            &c, blocks_guess(classic_positions(n, fpp, kin), block / d->cell_bits),
            d->max_bits / block, &nb, &kk));
        *bits = nb * block;
        *k = kk;
        return SBF_OK;
    }
    uint64_t best_bits = 0;
    uint32_t best_k = 0;
    int err = SBF_E_TOO_LARGE;
    for (uint32_t kk = d->k_min; kk <= d->k_max; kk += d->k_step) {
        if (kin != 0 && kk != kin)
            continue;
        const uint64_t block = sbfi_granule(d, kk);
        size_ctx c = {d->id, n, fpp, block, kk, kk, 0, 0.0};
        uint64_t nb;
        uint32_t got;
        const int e = size_search(
            &c, blocks_guess(classic_positions(n, fpp, 0), block / d->cell_bits),
            d->max_bits / block, &nb, &got);
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

int sbf_size(int layout, uint64_t n, double fpp, uint64_t *bits, uint32_t *k)
{
    SBFI_RETURN_IF(bits == NULL || k == NULL, SBF_E_NULL);
    const sbfi_layout *d = sbfi_layout_of(layout);
    SBFI_RETURN_IF(d == NULL, SBF_E_LAYOUT);
    SBFI_RETURN_IF(!(fpp > 0.0 && fpp < 1.0), SBF_E_FPP);
    const uint32_t kin = *k;
    if (kin != 0)
        SBFI_RETURN_IF(!sbfi_k_ok(d, kin), SBF_E_K);
    if (n == 0)
        n = 1;
    if (d->sizing == SBFI_SIZE_GUAVA)
        return size_classic(d, n, fpp, kin, bits, k);
    if (d->sizing == SBFI_SIZE_PARQUET)
        return sbfi_size_parquet(n, fpp, bits, k);
    return size_blocks(d, n, fpp, kin, bits, k);
}
