/*
 * Block-load distributions and the mixture over them, for src/fpr.c and
 * src/fpr_blocked.c. Every formula is a mixture over the load of one block
 * (or, for Putze's approximation, a Poisson load) of a per-load probability
 * f(i):
 *
 *     FPR = sum_i P(load = i) * f(i)
 *
 * Load weights come from the saddle-point form of the binomial and Poisson
 * probabilities (Loader, "Fast and accurate computation of binomial
 * probabilities", 2000): log P = -stirlerr terms - deviance terms - log
 * sqrt(2 pi x ...). Unlike lgamma(n+1) - lgamma(n-i+1), whose rounding error
 * grows with lgamma itself (about 4e-6 absolute at n = 1e9), every term here
 * is small, so a weight is accurate to a few ulps at any n. Only the window
 * mean +- 12 sqrt(mean) (+ a constant) is summed: the mass left out is below
 * 1e-30. Windows wider than SAMPLE_CAP points are sampled with a fixed stride
 * (a trapezoid rule on a smooth, bell-shaped sum: with the stride far below
 * the standard deviation its error is far below rounding), and the sum is
 * normalised by the sampled weight, so that huge loads cost no more than
 * moderate ones.
 */
#include "sbf_internal.h"
#include "fpr_internal.h"

#include <math.h>

#define SAMPLE_CAP (UINT64_C(1) << 16)   /* most load values summed per call */
#define LN_SQRT_2PI 0.91893853320467274178032973640562 /* log(sqrt(2 pi)) */
#define LN_2PI 1.8378770664093454835606594728112       /* log(2 pi) */

/*
 * stirlerr(n) = log(n!) - log(sqrt(2 pi n) (n/e)^n) for n = 1..15, computed
 * with mpmath at 50 digits.
 */
static const double STIRLERR_SMALL[16] = {
    0.0, /* unused: n = 0 never reaches stirlerr() */
    0.08106146679532725822,
    0.041340695955409294094,
    0.027677925684998339149,
    0.020790672103765093112,
    0.016644691189821192163,
    0.013876128823070747999,
    0.011896709945891770095,
    0.010411265261972096497,
    0.0092554621827127329177,
    0.0083305634333628712565,
    0.007573675487951840795,
    0.0069428401072095298657,
    0.0064089941880042070684,
    0.0059513701127588477356,
    0.005554733551962801371,
};

/* ------------------------------------------------ saddle-point log weights */

/* stirlerr(x) for x >= 1 (an integer as a double): the Stirling series,
 * truncated where the next term is below 3e-16 absolute. */
static double stirlerr(double x)
{
    if (x <= 15.0)
        return STIRLERR_SMALL[(int)x];
    const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260,
                 s3 = 1.0 / 1680, s4 = 1.0 / 1188;
    const double xx = x * x;
    if (x > 500.0)
        return (s0 - s1 / xx) / x;
    if (x > 80.0)
        return (s0 - (s1 - s2 / xx) / xx) / x;
    if (x > 35.0)
        return (s0 - (s1 - (s2 - s3 / xx) / xx) / xx) / x;
    return (s0 - (s1 - (s2 - (s3 - s4 / xx) / xx) / xx) / xx) / x;
}

/*
 * The deviance x log(x/mu) + mu - x >= 0 for x > 0, mu > 0, given d = x - mu
 * computed accurately by the caller. Near x = mu it is a series in
 * v = d/(x+mu) whose terms are all of one sign, so it never cancels.
 */
static double bd0(double x, double mu, double d)
{
    if (fabs(d) < 0.1 * (x + mu)) {
        const double v = d / (x + mu);
        const double v2 = v * v;
        double s = d * v;
        double ej = 2.0 * x * v;
        for (int j = 1; j < 200; j++) {
            ej *= v2;
            const double s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                break;
            s = s1;
        }
        return s;
    }
    return x * log(x / mu) - d;
}

/* log P(X = x) for X ~ Binomial(n, p), with q = 1 - p supplied accurately
 * and 0 < p <= 1. */
double sbfi_binom_logpmf(uint64_t x, uint64_t n, double p, double q)
{
    if (x > n)
        return -HUGE_VAL;
    if (q <= 0.0)
        return x == n ? 0.0 : -HUGE_VAL;
    if (x == 0)
        return (double)n * (p < 0.5 ? log1p(-p) : log(q));
    if (x == n)
        return (double)n * log(p);
    const double xd = (double)x, nd = (double)n, yd = (double)(n - x);
    const double d = xd - nd * p; /* (n - x) - n q == -d exactly */
    const double lc = stirlerr(nd) - stirlerr(xd) - stirlerr(yd) -
                      bd0(xd, nd * p, d) - bd0(yd, nd * q, -d);
    return lc - 0.5 * (LN_2PI + log(xd) + log1p(-xd / nd));
}

/* log P(X = x) for X ~ Poisson(lambda), lambda > 0. */
static double poisson_logpmf(uint64_t x, double lambda)
{
    if (x == 0)
        return -lambda;
    const double xd = (double)x;
    return -stirlerr(xd) - bd0(xd, lambda, xd - lambda) - LN_SQRT_2PI -
           0.5 * log(xd);
}

/* ------------------------------------------------------ load distributions */

static void load_window(sbfi_load_dist *L, uint64_t nmax)
{
    const double mu = L->mean, sd = sqrt(mu);
    const double lo = floor(mu - 12.0 * sd - 30.0);
    const double hi = ceil(mu + 12.0 * sd + 40.0);
    /* Clamp in double first: converting an out-of-range double is UB. */
    L->lo = lo <= 0.0 ? 0 : lo >= (double)nmax ? nmax : (uint64_t)lo;
    L->hi = hi >= (double)nmax ? nmax : (uint64_t)hi;
    if (L->lo > L->hi)
        L->lo = L->hi;
    L->step = 1 + (L->hi - L->lo) / SAMPLE_CAP;
}

/* Block load of n keys spread uniformly over nb >= 1 blocks. */
void sbfi_load_binomial(sbfi_load_dist *L, uint64_t n, uint64_t nb)
{
    L->poisson = 0;
    L->n = n;
    L->p = 1.0 / (double)nb;
    L->q = (double)(nb - 1) / (double)nb;
    L->mean = (double)n / (double)nb;
    if (nb == 1) {      /* every key in the one block */
        L->lo = L->hi = n;
        L->step = 1;
        return;
    }
    load_window(L, n);
}

/* Poisson(lambda) load, lambda >= 0. */
void sbfi_load_poisson(sbfi_load_dist *L, double lambda)
{
    L->poisson = 1;
    L->n = 0;
    L->p = L->q = 0.0;
    L->mean = lambda;
    /* Far beyond any finite double lambda's window; keeps i*k finite. */
    load_window(L, UINT64_C(18000000000000000000));
}

static double load_logpmf(const sbfi_load_dist *L, uint64_t i)
{
    if (L->poisson)
        return L->mean > 0.0 ? poisson_logpmf(i, L->mean)
                             : (i == 0 ? 0.0 : -HUGE_VAL);
    return sbfi_binom_logpmf(i, L->n, L->p, L->q);
}

/*
 * sum_i P(load = i) f(i) / sum_i P(load = i) over the window. f is called
 * with increasing i (lo, lo + step, ...) and must be non-decreasing in i
 * with values in [0, 1]; once it is within 1e-15 of 1 (a few ulps: the
 * probabilities it sums carry rounding) it is taken as 1 and no longer
 * called, an error below 1e-15 relative.
 * A NaN from f (out of memory, say) is returned as NaN.
 */

/* Also E[f(L) L] into *cross when cross is not NULL. */
_Thread_local sbfi_fpr_counts sbfi_fpr_count;

double sbfi_mixture_x(const sbfi_load_dist *L, sbfi_load_fn f, void *ctx, double *cross)
{
    double sw = 0.0, swf = 0.0, swfi = 0.0;
    int saturated = 0;
    uint64_t points = 1; /* the one being weighed */
    for (uint64_t i = L->lo;; i += L->step, points++) {
        double fi = 1.0;
        if (!saturated) {
            fi = f(ctx, i);
            if (isnan(fi)) {
                sbfi_fpr_count.points += points;
                return fi;
            }
            if (fi >= 1.0 - 1e-15) {
                fi = 1.0;
                saturated = 1;
                /* 1 at the lowest load: 1 at every load, so the mean is 1
                 * (exactly what the sum gives) without the weights */
                if (i == L->lo && cross == NULL) {
                    sbfi_fpr_count.points += points;
                    return 1.0;
                }
            }
        }
        const double w = exp(load_logpmf(L, i));
        sw += w;
        swf += w * fi;
        swfi += w * fi * (double)i;
        if (L->hi - i < L->step)
            break;
    }
    sbfi_fpr_count.points += points;
    if (cross != NULL)
        *cross = sw > 0.0 ? swfi / sw : 0.0;
    return sw > 0.0 ? swf / sw : 0.0;
}

double sbfi_mixture(const sbfi_load_dist *L, sbfi_load_fn f, void *ctx)
{
    return sbfi_mixture_x(L, f, ctx, NULL);
}

