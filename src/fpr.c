/*
 * False-positive mathematics. (Sizing, which uses it, is src/size.c.)
 *
 * Every formula here is a mixture over the load of one block (or, for
 * Putze's approximation, a Poisson load) of a per-load probability f(i):
 *
 *     FPR = sum_i P(load = i) * f(i)
 *
 * Two pieces make that both exact and cheap at any n:
 *
 *  - Load weights come from the saddle-point form of the binomial and
 *    Poisson probabilities (Loader, "Fast and accurate computation of
 *    binomial probabilities", 2000): log P = -stirlerr terms - deviance
 *    terms - log sqrt(2 pi x ...). Unlike lgamma(n+1) - lgamma(n-i+1), whose
 *    rounding error grows with lgamma itself (about 4e-6 absolute at
 *    n = 1e9), every term here is small, so a weight is accurate to a few
 *    ulps at any n. Only the window mean +- 12 sqrt(mean) (+ a constant) is
 *    summed: the mass left out is below 1e-30. Windows wider than
 *    SAMPLE_CAP points are sampled with a fixed stride (a trapezoid rule on
 *    a smooth, bell-shaped sum: with the stride far below the standard
 *    deviation its error is far below rounding), and the sum is normalised by
 *    the sampled weight, so that huge loads cost no more than moderate ones.
 *
 *  - The exact blocked term E[(S/B)^k] (S = bits set by t = i*k uniform
 *    throws into B bits) is computed "query first": the k query positions
 *    cover J distinct bits (an occupancy distribution over J <= min(k, B)),
 *    and then the t throws must hit each of those J bits. Let u be the number
 *    of the query's bits still clear; each throw clears one of them with
 *    probability u/B. u is a Markov chain on 0..K (K = min(k, B)) whose
 *    transition matrix T (T[u][u] = 1 - u/B, T[u-1][u] = u/B) does not depend
 *    on J, so f(t) = P(u_t = 0) = (T^t pi)[0]. T is upper bidiagonal with
 *    non-negative entries; its powers are upper triangular and non-negative,
 *    so repeated squaring and matrix-vector products add only non-negative
 *    terms: no cancellation, relative error a few ulps even at FPRs of
 *    1e-40. One key is one application of P = T^k ((K+1)(K+2)/2 multiplies,
 *    36 for k = 7), independent of B and of the load, which makes one
 *    evaluation O(window * K^2) -- about 15 us at n = 1e6, m = 1e7, k = 7,
 *    B = 512. This is the same quantity as the occupancy recursion
 *    P_{t+1}(s) = P_t(s) s/B + P_t(s-1) (B-s+1)/B summed against (s/B)^k
 *    (tests/test_fpr.c checks the two against each other), only cheaper:
 *    K^2/2 per key instead of k*B.
 *
 *  - Bounded work, for any argument. A call sums at most SAMPLE_CAP load
 *    values; the blocked chain adds matrix powers whose exponents (k, the
 *    first load, the stride) grow with the arguments. But f is 1 to double
 *    precision once i k / B exceeds about 45, and such loads never touch the
 *    chain: it is built only when a sampled load below that needs it, and a
 *    window that starts there returns 1 at once, however large k or n.
 *    What remains is estimated from the arguments (chain_work) and refused
 *    with NaN above CHAIN_BUDGET multiply-adds: about 10 ms at worst.
 *    Skipping work never changes a result: the values computed are the
 *    same, bit for bit (tri_mul and tri_apply keep their order of adds).
 *
 * Nothing is cached between calls; all state lives on the stack or in a
 * malloc'd scratch block freed before return, so everything is thread safe.
 */
#include "sbf_internal.h"

#include <math.h>
#include <stdlib.h>

/* -------------------------------------------------------------- constants */

#define SAMPLE_CAP (UINT64_C(1) << 16)   /* most load values summed per call */
#define CHAIN_MAX_K 256u                 /* largest min(k, B) for the chain */
/* Most multiply-adds one blocked evaluation may take (about 10 ms at 1 ns
 * each, the rate of the (K+1)^2 matrices that spill out of L1). The
 * layouts' own arguments (K <= 32, B <= 512) stay below a tenth of it. */
#define CHAIN_BUDGET 1e7
#define TINY 1e-300                      /* flushed to 0 (avoids denormals) */
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
static double binom_logpmf(uint64_t x, uint64_t n, double p, double q)
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

/* Binomial(n, p) (poisson == 0) or Poisson(mean) block loads, and the window
 * of loads summed: lo, lo + step, ..., up to hi. */
typedef struct load_dist {
    int poisson;
    uint64_t n;
    double p, q, mean;
    uint64_t lo, hi, step;
} load_dist;

static void load_window(load_dist *L, uint64_t nmax)
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
static void load_binomial(load_dist *L, uint64_t n, uint64_t nb)
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
static void load_poisson(load_dist *L, double lambda)
{
    L->poisson = 1;
    L->n = 0;
    L->p = L->q = 0.0;
    L->mean = lambda;
    /* Far beyond any finite double lambda's window; keeps i*k finite. */
    load_window(L, UINT64_C(18000000000000000000));
}

static double load_logpmf(const load_dist *L, uint64_t i)
{
    if (L->poisson)
        return L->mean > 0.0 ? poisson_logpmf(i, L->mean)
                             : (i == 0 ? 0.0 : -HUGE_VAL);
    return binom_logpmf(i, L->n, L->p, L->q);
}

/*
 * sum_i P(load = i) f(i) / sum_i P(load = i) over the window. f is called
 * with increasing i (lo, lo + step, ...) and must be non-decreasing in i
 * with values in [0, 1]; once it is within 1e-15 of 1 (a few ulps: the
 * probabilities it sums carry rounding) it is taken as 1 and no longer
 * called, an error below 1e-15 relative.
 * A NaN from f (out of memory, say) is returned as NaN.
 */
typedef double (*load_fn)(void *ctx, uint64_t i);

/* Also E[f(L) L] into *cross when cross is not NULL. */
static double mixture_x(const load_dist *L, load_fn f, void *ctx, double *cross)
{
    double sw = 0.0, swf = 0.0, swfi = 0.0;
    int saturated = 0;
    for (uint64_t i = L->lo;; i += L->step) {
        double fi = 1.0;
        if (!saturated) {
            fi = f(ctx, i);
            if (isnan(fi))
                return fi;
            if (fi >= 1.0 - 1e-15) {
                fi = 1.0;
                saturated = 1;
                /* 1 at the lowest load: 1 at every load, so the mean is 1
                 * (exactly what the sum gives) without the weights */
                if (i == L->lo && cross == NULL)
                    return 1.0;
            }
        }
        const double w = exp(load_logpmf(L, i));
        sw += w;
        swf += w * fi;
        swfi += w * fi * (double)i;
        if (L->hi - i < L->step)
            break;
    }
    if (cross != NULL)
        *cross = sw > 0.0 ? swfi / sw : 0.0;
    return sw > 0.0 ? swf / sw : 0.0;
}

static double mixture(const load_dist *L, load_fn f, void *ctx)
{
    return mixture_x(L, f, ctx, NULL);
}

/* ----------------------------------------------- upper-triangular matrices
 * (K+1) x (K+1), row-major, only entries with column >= row are used. All
 * entries are probabilities (non-negative, columns sum to at most 1).
 */

/* c = a * b (c distinct from a and b). Entry (r, col) is the sum over
 * j = r..col of a[r][j] b[j][col], added in increasing j: the loops run
 * j-outer so that the inner loop is contiguous (and vectorises), which keeps
 * that order, and zero entries of a (low powers of T are banded) are
 * skipped, which adds nothing: every result is bit-identical to the dot
 * products taken one entry at a time. */
static void tri_mul(double *restrict c, const double *a, const double *b,
                    size_t d)
{
    for (size_t r = 0; r < d; r++) {
        double *restrict cr = c + r * d;
        for (size_t col = r; col < d; col++)
            cr[col] = 0.0;
        for (size_t j = r; j < d; j++) {
            const double arj = a[r * d + j];
            if (arj == 0.0)
                continue;
            const double *bj = b + j * d;
            for (size_t col = j; col < d; col++)
                cr[col] += arj * bj[col];
        }
        for (size_t col = r; col < d; col++)
            if (cr[col] < TINY)
                cr[col] = 0.0;
    }
}

/* v = a v, in place (row r reads only v[r..], so ascending rows are safe). */
static void tri_apply(const double *a, double *v, size_t d)
{
    size_t r = 0;
    /* Four rows at a time: four independent sums instead of one chain of
     * dependent adds, each still added in increasing j (bit-identical to one
     * row at a time). Every row reads the old v[r..] only, and v[r..r+3]
     * are written after the four sums, so in place is still safe. */
    for (; r + 4 <= d; r += 4) {
        const double *a0 = a + r * d, *a1 = a0 + d, *a2 = a1 + d, *a3 = a2 + d;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        s0 += a0[r] * v[r];
        s0 += a0[r + 1] * v[r + 1];
        s1 += a1[r + 1] * v[r + 1];
        s0 += a0[r + 2] * v[r + 2];
        s1 += a1[r + 2] * v[r + 2];
        s2 += a2[r + 2] * v[r + 2];
        for (size_t j = r + 3; j < d; j++) {
            const double vj = v[j];
            s0 += a0[j] * vj;
            s1 += a1[j] * vj;
            s2 += a2[j] * vj;
            s3 += a3[j] * vj;
        }
        v[r] = s0 < TINY ? 0.0 : s0;
        v[r + 1] = s1 < TINY ? 0.0 : s1;
        v[r + 2] = s2 < TINY ? 0.0 : s2;
        v[r + 3] = s3 < TINY ? 0.0 : s3;
    }
    for (; r < d; r++) {
        double s = 0.0;
        for (size_t j = r; j < d; j++)
            s += a[r * d + j] * v[j];
        v[r] = s < TINY ? 0.0 : s;
    }
}

/* v = base^e v. base is destroyed (it ends as a power of itself); tmp holds
 * d*d doubles. */
static void tri_pow_apply(double *v, double *base, uint64_t e, size_t d,
                          double *tmp)
{
    while (e) {
        if (e & 1)
            tri_apply(base, v, d);
        e >>= 1;
        if (e) {
            tri_mul(tmp, base, base, d);
            memcpy(base, tmp, d * d * sizeof *base);
        }
    }
}

/* out = base^e. base is destroyed; tmp holds d*d doubles. */
static void tri_pow(double *out, double *base, uint64_t e, size_t d,
                    double *tmp)
{
    memset(out, 0, d * d * sizeof *out);
    for (size_t r = 0; r < d; r++)
        out[r * d + r] = 1.0;
    while (e) {
        if (e & 1) {
            tri_mul(tmp, out, base, d);
            memcpy(out, tmp, d * d * sizeof *out);
        }
        e >>= 1;
        if (e) {
            tri_mul(tmp, base, base, d);
            memcpy(base, tmp, d * d * sizeof *base);
        }
    }
}

/* ------------------------------------------------------ per-load functions */

typedef struct blocked_ctx {
    double *step_m; /* P^step: advances the chain by `step` keys */
    double *v;      /* distribution of u (query bits still clear) */
    size_t d;       /* K + 1 */
    double log_full; /* log(K) + i k log(1 - 1/B) below this: f = 1 */
    double log_k;
    double k_log_miss; /* k log(1 - 1/B) */
} blocked_ctx;

/* E[(S/B)^k] at the current load; then advance to the next sampled load.
 * 1 - f <= E[u] <= K (1 - 1/B)^(ik): once that is below 1e-17, f is 1 to
 * double precision, and saying so exactly keeps the rounding of the long
 * chain of products (a few ulps) out of FPRs near 1. */
static int blocked_saturated(const blocked_ctx *c, uint64_t i)
{
    return c->log_k + (double)i * c->k_log_miss < c->log_full;
}

static double blocked_f(void *ctx, uint64_t i)
{
    blocked_ctx *c = ctx;
    if (blocked_saturated(c, i))
        return 1.0;
    const double f = c->v[0];
    if (c->step_m != NULL) /* NULL: no later load needs the chain */
        tri_apply(c->step_m, c->v, c->d);
    return f;
}

typedef struct power_ctx {
    double log_miss; /* log of the chance one throw misses a given bit */
    double throws;   /* throws per key */
    double power;    /* exponent: bits probed per query */
} power_ctx;

/* (1 - (1 - 1/w)^(i*throws))^power: Putze's term, and the exact split-block
 * term (one bit per word, each word probed once). */
static double power_f(void *ctx, uint64_t i)
{
    const power_ctx *c = ctx;
    if (i == 0)
        return 0.0;
    return pow(-expm1((double)i * c->throws * c->log_miss), c->power);
}

typedef struct tail_ctx {
    double q, r;      /* a key touches a counter with probability q; r = q/(1-q) */
    double one_minus_q;
    uint32_t level;   /* 15 */
} tail_ctx;

/* P(Binomial(i, q) >= level), summing positive terms only: the upper tail
 * directly when level is above the mean, else 1 - the lower part (which
 * is then at most about 0.6, so the subtraction loses nothing). */
static double tail_f(void *ctx, uint64_t i)
{
    const tail_ctx *c = ctx;
    const uint64_t lv = c->level;
    if (i < lv)
        return 0.0;
    if (c->one_minus_q <= 0.0)
        return 1.0;
    if ((double)i * c->q < (double)lv) {
        double term = exp(binom_logpmf(lv, i, c->q, c->one_minus_q));
        double sum = term;
        for (uint64_t x = lv; x < i; x++) {
            term *= (double)(i - x) / (double)(x + 1) * c->r;
            sum += term;
            if (term < sum * 1e-17)
                break;
        }
        return sum > 1.0 ? 1.0 : sum;
    }
    double term = exp(binom_logpmf(lv - 1, i, c->q, c->one_minus_q));
    double sum = term;
    for (uint64_t x = lv - 1; x > 0; x--) {
        term *= (double)x / ((double)(i - x + 1) * c->r);
        sum += term;
    }
    return sum >= 1.0 ? 0.0 : 1.0 - sum;
}

/* --------------------------------------------------------- public formulas */

double sbf_fpp_classic(uint64_t n, uint64_t m, uint32_t k)
{
    if (m == 0 || k == 0)
        return NAN;
    if (n == 0)
        return 0.0;
    const double x = (double)k * (double)n / (double)m;
    return pow(-expm1(-x), (double)k);
}

/* (1 - (1 - 1/m)^(k n))^k with log1p/expm1: exact for uniform positions. */
static double classic_exact(uint64_t n, uint64_t m, uint32_t k)
{
    if (m == 0 || k == 0)
        return NAN;
    if (n == 0)
        return 0.0;
    const double t = (double)k * (double)n * log1p(-1.0 / (double)m);
    return pow(-expm1(t), (double)k);
}

double sbf_fpp_putze(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits)
{
    if (m == 0 || k == 0 || block_bits == 0 || m < block_bits)
        return NAN;
    if (n == 0)
        return 0.0;
    load_dist L;
    load_poisson(&L, (double)n * (double)block_bits / (double)m);
    power_ctx c = {log1p(-1.0 / (double)block_bits), (double)k, (double)k};
    return mixture(&L, power_f, &c);
}

/* Multiply-adds of tri_pow (prod = cube) or tri_pow_apply (prod = sq) with
 * exponent e: a squaring per bit above the top one, a product per set bit. */
static double pow_work(uint64_t e, double cube, double prod)
{
    if (e == 0)
        return 0.0;
    return (double)(63 - __builtin_clzll(e)) * cube +
           (double)__builtin_popcountll(e) * prod;
}

/* Multiply-adds blocked_moment will spend on the chain: building it, and
 * one matrix-vector product per unsaturated sampled load. An estimate
 * from the arguments only, so the refusal it leads to is deterministic. */
static double chain_work(const blocked_ctx *c, const load_dist *L, uint32_t k,
                         uint64_t q, int more)
{
    const double d = (double)c->d, cube = d * d * d / 6, sq = d * d / 2;
    /* loads above i_lim are saturated (k_log_miss < 0) */
    const double i_lim = (c->log_full - c->log_k) / c->k_log_miss;
    const double top = (double)L->hi < i_lim ? (double)L->hi : i_lim;
    const double loads = top < (double)L->lo ? 1.0
                       : floor((top - (double)L->lo) / (double)L->step) + 1.0;
    return pow_work(q, cube, sq) + pow_work(k, cube, cube) +
           (more ? pow_work(L->step, cube, cube) : 0.0) +
           pow_work(L->lo, cube, sq) + loads * sq;
}

/*
 * E over blocks of P(q uniform query positions all set) when each key makes
 * k uniform throws into its block. q = k is the false-positive rate; q = 2k
 * is the mean of its square, which gives the spread between filters.
 */
static double blocked_moment(uint64_t n, uint64_t m, uint32_t k, uint64_t q,
                             uint32_t block_bits, double *cross, int *all_one)
{
    if (cross != NULL)
        *cross = 0.0;
    if (all_one != NULL)
        *all_one = 0;
    if (m == 0 || k == 0 || q == 0 || block_bits == 0 || m < block_bits)
        return NAN;
    if (n == 0)
        return 0.0;
    const uint32_t K = q < block_bits ? (uint32_t)q : block_bits;
    if (K > CHAIN_MAX_K)
        return NAN; /* (K+1)^3 work per squaring: refuse absurd sizes */
    const size_t d = (size_t)K + 1;
    const double B = (double)block_bits;

    load_dist L;
    load_binomial(&L, n, m / block_bits);
    blocked_ctx c = {NULL, NULL, d, log(1e-17), log((double)K),
                     (double)k * log1p(-1.0 / B)};

    /*
     * The chain is only needed at the sampled loads below the first
     * saturated one (f = 1 there without it), and the work of building it
     * grows with k, lo and step: build only what those loads read. A load
     * saturates once i k (1/B) exceeds about 45, so large exponents never
     * reach the matrices.
     *  - lo saturated: every f is 1, no chain at all;
     *  - only load 0 unsaturated: f(0) = 0 exactly (some query bit is
     *    clear in an empty block), no chain either;
     *  - else v at lo, and step_m only when a second load needs it.
     */
    const int more = L.hi - L.lo >= L.step && !blocked_saturated(&c, L.lo + L.step);
    double zero = 0.0;
    if (blocked_saturated(&c, L.lo) || (L.lo == 0 && !more)) {
        if (all_one != NULL) /* f = 1 at every load */
            *all_one = blocked_saturated(&c, L.lo);
        c.v = &zero; /* read only at load 0, where it is exact */
        return mixture_x(&L, blocked_f, &c, cross);
    }

    if (chain_work(&c, &L, k, q, more) > CHAIN_BUDGET)
        return NAN;

    /* The layouts' k <= 16 (32 for the second moment) fit on the stack:
     * sizing never allocates. */
    double local[4 * 33 * 33 + 2 * 33];
    const size_t need = 4 * d * d + 2 * d;
    double *mem = need <= sizeof local / sizeof *local ? local
                                                       : malloc(need * sizeof *mem);
    if (mem == NULL)
        return NAN;
    double *key_m = mem, *step_m = key_m + d * d, *base = step_m + d * d;
    double *tmp = base + d * d, *v = tmp + d * d, *w = v + d;

    /*
     * Distinct bits among the k query positions: y = K - J (J distinct), a
     * chain where y -> y - 1 with probability (B - J)/B and stays with J/B;
     * start at y = K (J = 0) and take k steps.
     */
    memset(base, 0, d * d * sizeof *base);
    for (size_t y = 0; y < d; y++) {
        const double j = (double)(K - y);
        base[y * d + y] = j / B;
        if (y > 0)
            base[(y - 1) * d + y] = (B - j) / B;
    }
    memset(w, 0, d * sizeof *w);
    w[K] = 1.0;
    tri_pow_apply(w, base, q, d, tmp);
    for (size_t u = 0; u < d; u++)
        v[u] = w[K - u]; /* u starts at J: all query bits clear */

    /* One throw: u -> u - 1 with probability u/B. key_m = T^k. */
    memset(base, 0, d * d * sizeof *base);
    for (size_t u = 0; u < d; u++) {
        base[u * d + u] = (B - (double)u) / B;
        if (u > 0)
            base[(u - 1) * d + u] = (double)u / B;
    }
    tri_pow(key_m, base, k, d, tmp);

    /* step_m = key_m^step; v = key_m^lo v. */
    if (more) {
        memcpy(base, key_m, d * d * sizeof *base);
        tri_pow(step_m, base, L.step, d, tmp);
        c.step_m = step_m;
    }
    memcpy(base, key_m, d * d * sizeof *base);
    tri_pow_apply(v, base, L.lo, d, tmp);

    c.v = v;
    const double r = mixture_x(&L, blocked_f, &c, cross);
    if (mem != local)
        free(mem);
    return r;
}

double sbf_fpp_blocked(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits)
{
    return blocked_moment(n, m, k, k, block_bits, NULL, NULL);
}

double sbf_fpp_split_block(uint64_t n, uint64_t m, uint32_t words)
{
    if (m == 0 || words == 0)
        return NAN;
    const uint64_t block = (uint64_t)words * 32u;
    if (m < block)
        return NAN;
    if (n == 0)
        return 0.0;
    load_dist L;
    load_binomial(&L, n, m / block);
    power_ctx c = {log1p(-1.0 / 32.0), 1.0, (double)words};
    return mixture(&L, power_f, &c);
}

/* The formula the layout's descriptor names (src/layout.h), fed with its
 * geometry: a counting filter's 128 four-bit counters per 512-bit block
 * are non-zero exactly where a blocked key's bits would be set, so it is
 * the blocked formula over cells = bits / cell_bits. */
double sbf_fpp_layout(int layout, uint64_t n, uint64_t bits, uint32_t k)
{
    const sbfi_layout *d = sbfi_layout_of(layout);
    if (d == NULL)
        return NAN;
    switch (d->fpr) {
    case SBFI_FPR_CLASSIC:
        return classic_exact(n, bits, k);
    case SBFI_FPR_BLOCKED:
        return sbf_fpp_blocked(n, bits / d->cell_bits, k, d->block_bits / d->cell_bits);
    case SBFI_FPR_SPLIT:
        return sbf_fpp_split_block(n, bits, k);
    default:
        return NAN;
    }
}

/*
 * The spread of one filter's false-positive rate around sbf_fpp_layout:
 * which keys went in decides how full each block is, so a filter's real
 * rate r differs from the expectation even before any probe is counted.
 *  - blocked / counting: r = (1/nb) sum_b f_b with f_b = (S_b/B)^k. The
 *    block loads L_b are multinomial (they sum to n), so
 *    Var r ~= (Var f - Cov(f, L)^2 / Var L) / nb: the part of f that
 *    follows the load averages out. E[f^2] = E[(S/B)^2k] is the chance
 *    that 2k query positions are all set.
 *  - split-block: per block prod_w (S_w/32); E[(S_w/32)^2 | i keys] is the
 *    chance two uniform bits of a word are both set after i throws.
 *  - classic: r = (S/m)^k with S the set bits after kn throws; the delta
 *    method with the occupancy variance m e^-a (1 - (1 + a) e^-a), a = kn/m.
 * Probing N keys adds the binomial r(1-r)/N on top of this.
 */
typedef struct split2_ctx {
    double l31, l30; /* log(31/32), log(30/32) */
    double words;
} split2_ctx;

static double split2_f(void *ctx, uint64_t i)
{
    const split2_ctx *c = ctx;
    if (i == 0)
        return 0.0;
    const double a = exp((double)i * c->l31), b = exp((double)i * c->l30);
    const double both = 1.0 - 2.0 * a + a / 32.0 + b * 31.0 / 32.0;
    return pow(both < 0 ? 0 : both, c->words);
}

double sbf_fpp_spread(int layout, uint64_t n, uint64_t bits, uint32_t k)
{
    if (bits == 0 || k == 0)
        return NAN;
    if (n == 0)
        return 0.0;
    double r, cross, second, nb;
    const sbfi_layout *lay = sbfi_layout_of(layout);
    if (lay == NULL)
        return NAN;
    switch (lay->fpr) {
    case SBFI_FPR_CLASSIC: {
        const double m = (double)bits, a = (double)k * (double)n / m;
        const double fill = -expm1(-a);
        const double var_s = m * exp(-a) * (1.0 - (1.0 + a) * exp(-a));
        const double d = (double)k * pow(fill, (double)k - 1.0) / m;
        const double sd = d * sqrt(var_s > 0 ? var_s : 0);
        /* The delta method fails for tiny m and huge k (it gave 1.17 at
         * m = 127, k = 1024); a rate in [0, 1] never has an sd above 1/2. */
        return sd < 0.5 ? sd : 0.5;
    }
    case SBFI_FPR_BLOCKED: {
        const uint64_t cells = bits / lay->cell_bits;
        const uint32_t B = lay->block_bits / lay->cell_bits;
        /* the second moment first: when it is refused, so is the spread */
        int all_one;
        second = blocked_moment(n, cells, k, 2 * (uint64_t)k, B, NULL, &all_one);
        if (isnan(second))
            return NAN;
        nb = (double)(cells / B);
        /* Every block certainly full for 2k positions, so for k too: both
         * moments are exactly 1, and so is every filter's rate. (Computing r
         * would only sum the load weights for E[f L], to get 0 again.) */
        if (all_one)
            return nb < 2 ? NAN : 0.0;
        r = blocked_moment(n, cells, k, k, B, &cross, NULL);
        break;
    }
    case SBFI_FPR_SPLIT: {
        const uint64_t block = (uint64_t)k * SBFI_WORD32_BITS;
        if (bits < block)
            return NAN;
        load_dist L;
        load_binomial(&L, n, bits / block);
        power_ctx c1 = {log1p(-1.0 / 32.0), 1.0, (double)k};
        r = mixture_x(&L, power_f, &c1, &cross);
        split2_ctx c2 = {log1p(-1.0 / 32.0), log1p(-2.0 / 32.0), (double)k};
        second = mixture(&L, split2_f, &c2);
        nb = (double)(bits / block);
        break;
    }
    default:
        return NAN;
    }
    if (isnan(r) || isnan(second) || nb < 2)
        return NAN;
    /* The loads add up to n, so the part of f's variance that moves with
     * the load cancels across blocks: subtract its regression on the load. */
    const double mean_l = (double)n / nb, var_l = mean_l * (1.0 - 1.0 / nb);
    const double cov = cross - r * mean_l;
    const double var = (second - r * r - cov * cov / var_l) / nb;
    return var > 0 ? sqrt(var) : 0.0;
}

/*
 * Counters saturate at 15. A key touches the distinct set of its k uniform
 * counters in its block, so one counter is touched by each key of its block
 * with probability q = 1 - (1 - 1/128)^k, and its count after i keys in the
 * block is Binomial(i, q). E = expected number of saturated counters. Events
 * "counter c saturated" are rare and nearly independent, so the chance that
 * at least one saturates is 1 - e^(-E) (Poisson approximation; it is below
 * the union bound E and equals it to first order when E is small).
 */
double sbf_counting_saturation(uint64_t n, uint64_t bits, uint32_t k)
{
    const uint64_t nb = bits / SBF_BLOCK_BITS;
    if (nb == 0 || k == 0)
        return NAN;
    if (n == 0)
        return 0.0;
    const uint32_t counters = SBF_BLOCK_BITS / SBFI_COUNTER_BITS;
    tail_ctx c;
    const double lmiss = (double)k * log1p(-1.0 / counters);
    c.q = -expm1(lmiss);
    c.one_minus_q = exp(lmiss);
    c.r = c.one_minus_q > 0.0 ? c.q / c.one_minus_q : HUGE_VAL;
    c.level = SBFI_COUNTER_MAX;
    load_dist L;
    load_binomial(&L, n, nb);
    const double e = (double)nb * counters * mixture(&L, tail_f, &c);
    return -expm1(-e);
}

double sbf_counting_fan_bound(uint64_t n, uint64_t bits, uint32_t k)
{
    const uint64_t mc = bits / SBFI_COUNTER_BITS;
    if (mc == 0 || k == 0)
        return NAN;
    if (n == 0)
        return 0.0;
    const double lm = log((double)mc);
    const double l = lm + 15.0 * (1.0 + log((double)n) + log((double)k) -
                                  log(15.0) - lm);
    return l >= 0.0 ? 1.0 : exp(l);
}
