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

/*
 * Work counter: what the formulas and the sizing search did on
 * this thread, so that tests bound work, not time (tests/test_fpr_bounds.c;
 * tests/fpr_timing.c measures what a unit costs). The library only adds to
 * it. Every loop of the formulas is counted here or is bounded by a
 * constant per counted item (a load weight's series: at most 200 trips).
 */
typedef struct sbfi_fpr_counts {
    uint64_t points; /* load values weighed: exp, log weight, f(i) call */
    uint64_t madds;  /* multiply-adds of the blocked chain's matrices */
    uint64_t trips;  /* loop trips of the counting layout's tail series */
    uint64_t evals;  /* formula evaluations of the sizing search */
} sbfi_fpr_counts;
extern _Thread_local sbfi_fpr_counts sbfi_fpr_count;

/*
 * The counts as one figure in multiply-add equivalents of the blocked
 * chain: a load value (exp, logs, the deviance series) costs about as much
 * as SBFI_WORK_POINT of them, a tail trip
 * SBFI_WORK_TRIP, a sizing evaluation's set-up (window, logs, the chain's
 * first matrices) SBFI_WORK_EVAL. tests/fpr_timing.c prints the time per
 * unit it measures over every kind of call.
 */
#define SBFI_WORK_POINT 128u
#define SBFI_WORK_TRIP 8u
#define SBFI_WORK_EVAL 2048u
/* What any one public formula or sbf_size call may do: about 10 ms. */
#define SBFI_FPR_WORK_MAX UINT64_C(40000000)

static inline uint64_t sbfi_fpr_work(const sbfi_fpr_counts *c)
{
    return c->points * SBFI_WORK_POINT + c->madds + c->trips * SBFI_WORK_TRIP +
           c->evals * SBFI_WORK_EVAL;
}

#endif
