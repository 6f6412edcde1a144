/*
 * What the false-positive formulas share between src/fpr.c (the public
 * formulas), src/fpr_load.c (block-load distributions and the mixture over
 * them) and src/fpr_blocked.c (the exact blocked term). Not installed.
 */
#ifndef SBF_FPR_INTERNAL_H_5821
#define SBF_FPR_INTERNAL_H_5821

#include <stdint.h>

/* Binomial(n, p) (poisson == 0) or Poisson(mean) block loads, and the window
 * of loads summed: lo, lo + step, ..., up to hi. */
typedef struct sbfi_load_dist {
    int poisson;
    uint64_t n;
    double p, q, mean;
    uint64_t lo, hi, step;
} sbfi_load_dist;

/* Block load of n keys spread uniformly over nb >= 1 blocks. */
void sbfi_load_binomial(sbfi_load_dist *L, uint64_t n, uint64_t nb);
/* Poisson(lambda) load, lambda >= 0. */
void sbfi_load_poisson(sbfi_load_dist *L, double lambda);

/* log P(X = x) for X ~ Binomial(n, p), with q = 1 - p supplied accurately
 * and 0 < p <= 1. */
double sbfi_binom_logpmf(uint64_t x, uint64_t n, double p, double q);

/*
 * sum_i P(load = i) f(i) / sum_i P(load = i) over the window. f is called
 * with increasing i (lo, lo + step, ...) and must be non-decreasing in i
 * with values in [0, 1]; once it is within 1e-15 of 1 (a few ulps: the
 * probabilities it sums carry rounding) it is taken as 1 and no longer
 * called, an error below 1e-15 relative.
 * A NaN from f (out of memory, say) is returned as NaN.
 * sbfi_mixture_x also gives E[f(L) L] in *cross when cross is not NULL.
 */
typedef double (*sbfi_load_fn)(void *ctx, uint64_t i);
double sbfi_mixture_x(const sbfi_load_dist *L, sbfi_load_fn f, void *ctx, double *cross);
double sbfi_mixture(const sbfi_load_dist *L, sbfi_load_fn f, void *ctx);

/*
 * E over blocks of P(q uniform query positions all set) when each key makes
 * k uniform throws into its block of block_bits bits (m bits in all, n keys).
 * q = k is the false-positive rate; q = 2k is the mean of its square. NaN for
 * arguments without meaning or beyond the work bound. *cross (when not NULL):
 * E[f(L) L]; *all_one (when not NULL): 1 when f is 1 at every load.
 */
double sbfi_blocked_moment(uint64_t n, uint64_t m, uint32_t k, uint64_t q,
                           uint32_t block_bits, double *cross, int *all_one);

#endif
