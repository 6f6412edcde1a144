/*
 * False-positive mathematics: the public formulas. (Sizing, which uses
 * them, is src/size.c.) Each is a mixture over the load of one block of a
 * per-load probability (src/fpr_load.c); the exact blocked term is
 * src/fpr_blocked.c.
 */
#include "sbf_internal.h"
#include "fpr_internal.h"

#include <math.h>

/* ------------------------------------------------------ per-load functions */

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
    uint64_t trips;   /* loop trips (counted, not read) */
} tail_ctx;

/* P(Binomial(i, q) >= level), summing positive terms only: the upper tail
 * directly when level is above the mean, else 1 - the lower part (which
 * is then at most about 0.6, so the subtraction loses nothing). */
static double tail_f(void *ctx, uint64_t i)
{
    tail_ctx *c = ctx;
    const uint64_t lv = c->level;
    if (i < lv)
        return 0.0;
    if (c->one_minus_q <= 0.0)
        return 1.0;
    if ((double)i * c->q < (double)lv) {
        double term = exp(sbfi_binom_logpmf(lv, i, c->q, c->one_minus_q));
        double sum = term;
        for (uint64_t x = lv; x < i; x++) {
            c->trips++;
            term *= (double)(i - x) / (double)(x + 1) * c->r;
            sum += term;
            if (term < sum * 1e-17)
                break;
        }
        return sum > 1.0 ? 1.0 : sum;
    }
    double term = exp(sbfi_binom_logpmf(lv - 1, i, c->q, c->one_minus_q));
    double sum = term;
    c->trips += lv - 1;
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

/*
 * Classic (Guava's MURMUR128_MITZ_64): bit i of a key is
 * ((h1 + i*h2) & INT64_MAX) mod m, m a multiple of 64. The positions are not
 * k independent ones, and classic_exact misses by up to 10^7 at small m
 * (issue 33, doc/promises.md). A model and an upper bound:
 *
 *  - m = 2^s * o (o odd, s >= 6). Mod 2^s the positions are exactly the
 *    progression (h1 + i*h2) mod 2^s, whatever the mask. With v the 2-adic
 *    valuation of h2 (P(v) = 2^-(v+1), v >= s pooled at 2^-s), it visits
 *    2^(s-v) residues; when k exceeds that, the c probes that share a
 *    residue spread over its o positions as random throws (the mod-o part
 *    of a masked, wrapping progression), o (1 - (1 - 1/o)^c) distinct.
 *    d_v distinct positions per class; a key sets D = E d_v of them, so
 *    a position is set with fill = 1 - (1 - D/m)^n, and the class part is
 *    sum_v P(v) fill^d_v.
 *  - A query whose progression is a key's (the same step, or its negation,
 *    and a start on it: about 2/m^2 per key) shares all but |j| of its
 *    positions when shifted by j steps: 2 n / m^2 * sum_j fill^|j|, at most
 *    2 n (2k - 1) / m^2. This is the floor that no k lowers.
 *  - The model measured 0.5x..8.9x of simulations of the exact rule
 *    (short of it most where k is large for m: at m = 64..2048, k = 4..40,
 *    n = 1..30, meas/model at most 1.29 for k = 12, 2.4 at 16, 3.4 at 24,
 *    8.9 at 40); the bound adds c times the model's distance to the
 *    independent formula, c = max(1/2, (k/8)^1.4 - 1), and is never below
 *    it: max(model, indep) + c |model - indep|. No simulated cell of that
 *    grid (446) nor of the sized sweep was above it by 2 standard errors.
 *    For large filters the two agree and the bound is the independent
 *    formula.
 * The bound is what sbf_fpp_layout reports for classic and what its sizing
 * keeps <= fpp; tests/test_promise.c checks it against the real filters.
 */
static double guava_spread(double o, double c)
{
    if (o <= 1.0)
        return 1.0;
    return o * -expm1(c * log1p(-1.0 / o));
}

/* The model's rate, and for sbf_fpp_spread its slope in the fill (*dr),
 * the distinct positions a key sets (*dmean) and their variance (*dvar). */
typedef struct guava_parts {
    double r, dr, dmean, dvar, fill;
} guava_parts;

static guava_parts guava_model_parts(uint64_t n, uint64_t m, uint32_t k)
{
    const int s = __builtin_ctzll(m);
    const double o = (double)(m >> s), kk = (double)k;
    double p[65], d[65], D = 0.0, D2 = 0.0;
    for (int v = 0; v <= s; v++) {
        p[v] = v < s ? ldexp(1.0, -(v + 1)) : ldexp(1.0, -s);
        if (s - v >= 32 || kk <= ldexp(1.0, s - v)) {
            d[v] = kk;
        } else {
            const uint32_t P = UINT32_C(1) << (s - v), c = k / P, rem = k % P;
            d[v] = rem * guava_spread(o, c + 1.0) + (P - rem) * guava_spread(o, c);
        }
        D += p[v] * d[v];
        D2 += p[v] * d[v] * d[v];
    }
    const double md = (double)m;
    const double fill = -expm1((double)n * log1p(-D / md));
    double r = 0.0, dr = 0.0;
    for (int v = 0; v <= s; v++) {
        r += p[v] * pow(fill, d[v]);
        dr += p[v] * d[v] * pow(fill, d[v] - 1.0);
    }
    const double cap = 2.0 * kk - 1.0, a = 2.0 * (double)n / (md * md);
    double S = fill < 1.0 ? (1.0 + fill) / (1.0 - fill) : cap;
    if (S > cap)
        S = cap;
    else
        dr += a * 2.0 / ((1.0 - fill) * (1.0 - fill));
    r += a * S;
    guava_parts g = {r < 1.0 ? r : 1.0, dr, D, D2 - D * D > 0 ? D2 - D * D : 0.0, fill};
    return g;
}

static double guava_model(uint64_t n, uint64_t m, uint32_t k)
{
    return guava_model_parts(n, m, k).r;
}

/* Euler's phi of d (d < 2^32), by trial division. */
static uint64_t phi(uint64_t d)
{
    uint64_t r = d;
    for (uint64_t p = 2; p * p <= d; p++)
        if (d % p == 0) {
            while (d % p == 0)
                d /= p;
            r -= r / p;
        }
    if (d > 1)
        r -= r / d;
    return r;
}

/*
 * The pairs' term: the first-order excess of the rate over fill^k from the
 * correlation of pairs of a query's positions. Two positions j apart on a
 * query (step B') are both covered by one key (step B) at lag j' when
 * j' B = +-j B' mod m, which for uniform B, B' has probability
 * gcd(j, j', m) / m: above the 1/m of unrelated positions whenever j and
 * j' share a factor with m (two: m is a multiple of 64). Per pair,
 * P(both set) - fill^2 = (1 - fill)^2 n (c - h^2), c the chance one key
 * covers both, h = k/m the chance it covers one; the rate gains
 * (1 - fill)^2 / fill^2 n sum over the query's pairs of (c - h^2). With
 * w_j = k - j (pairs at lag j), sum_{j,j'} w_j w_j' gcd(j, j', m) =
 * sum over divisors d < k of m of phi(d) (sum_{d | j} w_j)^2, so the sum
 * costs O(k). It counts the odd factors of m as if wraps never broke a
 * progression (a wrap shifts it by 2^63 mod m, a multiple of 2^s), which
 * only adds.
 */
static double guava_pairs(uint64_t n, uint64_t m, uint32_t k, double fill)
{
    /* past SBF_MAX_K_CLASSIC there is no classic filter to bound (and the
     * loop over d < k stays at most 254 trips for any argument) */
    if (k < 2 || k > SBF_MAX_K_CLASSIC || fill <= 0.0)
        return 0.0;
    const double md = (double)m, kk = (double)k;
    double sum = 0.0;
    for (uint64_t d = 1; d < k; d++) {
        if (m % d != 0)
            continue;
        const uint64_t t = (k - 1) / d; /* lags d, 2d, .. t d */
        const double sd = kk * (double)t - (double)d * (double)t * (double)(t + 1) / 2.0;
        sum += (double)phi(d) * sd * sd;
    }
    const double pairs = kk * (kk - 1.0) / 2.0;
    const double excess = (2.0 * sum - pairs * kk * kk) / (md * md);
    const double u = 1.0 - fill;
    return (double)n * u * u / (fill * fill) * excess;
}

static double guava_bound(uint64_t n, uint64_t m, uint32_t k)
{
    if (m == 0 || k == 0 || m % 64 != 0)
        return classic_exact(n, m, k);
    if (n == 0)
        return 0.0;
    const double ind = classic_exact(n, m, k), mod = guava_model(n, m, k);
    /* the model falls short by a factor that grows with k (up to 8.9x at
     * k = 40, m = 320: positions that fill whole cosets mod 2^s, which it
     * does not follow): the margin grows with it */
    double c = pow((double)k / 8.0, 1.4) - 1.0;
    if (c < 0.5)
        c = 0.5;
    const double base = mod > ind ? mod : ind;
    double b = base + c * fabs(mod - ind);
    /* Over-hashed filters (k past about 2.3 times the best k for m/n: a
     * fill above 0.8, which sizing never makes) lose the model's margin at
     * large m (model and textbook formula agree) while the pairs' term
     * stays: k = 24 at 11 bits per key measured 0.2% above the textbook
     * formula, the pairs' term says 0.075%. There it adds 4 times that term
     * (validated by the sweep in doc/promises.md), ramped in over fills
     * 0.8..0.85 so the bound stays continuous. Sized filters (fill about
     * 1/2) keep the bound they had, and so their sizes. */
    const double fill = -expm1((double)k * (double)n * log1p(-1.0 / (double)m));
    if (fill > 0.8) {
        const double ramp = fill >= 0.85 ? 1.0 : (fill - 0.8) / 0.05;
        const double pr = guava_pairs(n, m, k, fill);
        if (pr > 0.0)
            b += ramp * 4.0 * pr * base;
    }
    return b < 1.0 ? b : 1.0;
}

double sbf_fpp_putze(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits)
{
    if (m == 0 || k == 0 || block_bits == 0 || m < block_bits)
        return NAN;
    if (n == 0)
        return 0.0;
    sbfi_load_dist L;
    sbfi_load_poisson(&L, (double)n * (double)block_bits / (double)m);
    power_ctx c = {log1p(-1.0 / (double)block_bits), (double)k, (double)k};
    return sbfi_mixture(&L, power_f, &c);
}

double sbf_fpp_blocked(uint64_t n, uint64_t m, uint32_t k, uint32_t block_bits)
{
    return sbfi_blocked_moment(n, m, k, k, block_bits, NULL, NULL);
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
    sbfi_load_dist L;
    sbfi_load_binomial(&L, n, m / block);
    power_ctx c = {log1p(-1.0 / 32.0), 1.0, (double)words};
    return sbfi_mixture(&L, power_f, &c);
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
        return guava_bound(n, bits, k);
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
 *  - classic: the model under guava_bound as a function of the fill, by
 *    the delta method, plus the spread of its structured part (below).
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
        if (bits % 64 == 0) {
            /* The rate the bound follows is the model's function of the
             * fill F (guava_model_parts): sd = |dr/dF| sd(F), scaled as the
             * bound scales the model. The set bits S = m F vary by the
             * occupancy of n D throws (D the distinct positions a key sets)
             * and by the spread of D itself, which the keys' classes make
             * large in small filters (a key with h2 = 0 mod 64 sets one bit). */
            const guava_parts g = guava_model_parts(n, bits, k);
            const double m = (double)bits, a = (double)n * g.dmean / m, e = exp(-a);
            const double var_s = m * e * (1.0 - (1.0 + a) * e) + (double)n * g.dvar * e * e;
            const double bound = guava_bound(n, bits, k);
            /* The structured part of the rate (the model above the
             * independent formula) is a sum over the keys of what each
             * one's class and progression give the queries: it varies
             * with the keys drawn, up to about its own size / sqrt(n)
             * (measured 0.2x to 0.85x of that at n = 1 to 10). */
            const double st = g.r - classic_exact(n, bits, k);
            const double sd_f = g.dr * sqrt(var_s > 0 ? var_s : 0) / m;
            double sd = sqrt(sd_f * sd_f + (st > 0 ? st * st / (double)n : 0.0));
            if (g.r > 0 && bound > g.r)
                sd *= bound / g.r;
            return sd < 0.5 ? sd : 0.5;
        }
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
        second = sbfi_blocked_moment(n, cells, k, 2 * (uint64_t)k, B, NULL, &all_one);
        if (isnan(second))
            return NAN;
        nb = (double)(cells / B);
        /* Every block certainly full for 2k positions, so for k too: both
         * moments are exactly 1, and so is every filter's rate. (Computing r
         * would only sum the load weights for E[f L], to get 0 again.) */
        if (all_one)
            return nb < 2 ? NAN : 0.0;
        r = sbfi_blocked_moment(n, cells, k, k, B, &cross, NULL);
        break;
    }
    case SBFI_FPR_SPLIT: {
        const uint64_t block = (uint64_t)k * SBFI_WORD32_BITS;
        if (bits < block)
            return NAN;
        sbfi_load_dist L;
        sbfi_load_binomial(&L, n, bits / block);
        power_ctx c1 = {log1p(-1.0 / 32.0), 1.0, (double)k};
        r = sbfi_mixture_x(&L, power_f, &c1, &cross);
        split2_ctx c2 = {log1p(-1.0 / 32.0), log1p(-2.0 / 32.0), (double)k};
        second = sbfi_mixture(&L, split2_f, &c2);
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
    c.trips = 0;
    sbfi_load_dist L;
    sbfi_load_binomial(&L, n, nb);
    const double e = (double)nb * counters * sbfi_mixture(&L, tail_f, &c);
    sbfi_fpr_count.trips += c.trips;
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
