/*
 * False-positive formulas (src/fpr.c) and sizing (src/size.c).
 *
 * Reference values marked "mpmath" were computed at 80 significant digits
 * by an independent algorithm: binomial weights from log-gamma at that
 * precision, and the exact blocked term by inclusion-exclusion over the
 * distinct query bits (sum_j S2(k,j) B!/(B-j)!/B^k sum_l (-1)^l C(j,l)
 * (1-l/B)^t), which is only usable at such precision. Everything else is
 * recomputed here by brute force with a method different from the
 * library's. Guava values come from Guava 31.1 itself (BloomFilter's
 * optimalNumOfBits / optimalNumOfHashFunctions by reflection, and
 * BloomFilter.create's real header; see tests/vectors/guava_sizing.txt).
 */
#include <criterion/criterion.h>

#include "simdbloom.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define assert_rel(got, want, tol)                                          \
    do {                                                                    \
        const double g_ = (got), w_ = (want);                               \
        cr_assert(fabs(g_ - w_) <= (tol) * fabs(w_),                        \
                  "%s = %.17g, want %.17g (rel err %.3g > %.3g)", #got, g_, \
                  w_, fabs(g_ - w_) / fabs(w_), (double)(tol));             \
    } while (0)

/* ------------------------------------------------------- brute-force helpers */

/* Binomial(n, p) pmf for all i in 0..n (n small), by direct products. */
static void binom_all(unsigned n, long double p, long double *w)
{
    for (unsigned i = 0; i <= n; i++) {
        long double c = 1.0L;
        for (unsigned j = 0; j < i; j++)
            c = c * (long double)(n - j) / (long double)(j + 1);
        w[i] = c * powl(p, (long double)i) * powl(1.0L - p, (long double)(n - i));
    }
}

/*
 * Exact E[(S/B)^k] for B = 8 by a Markov chain over the 256 subsets of set
 * bits, with the query's k positions enumerated explicitly (no occupancy
 * counts, no symmetry argument). f[t] for t = 0..tmax.
 */
static void enum_b8(unsigned k, unsigned tmax, long double *f)
{
    long double p[256] = {0}, q[256];
    p[0] = 1.0L;
    unsigned tuples = 1;
    for (unsigned j = 0; j < k; j++)
        tuples *= 8;
    for (unsigned t = 0;; t++) {
        long double s = 0.0L;
        for (unsigned mask = 0; mask < 256; mask++) {
            if (p[mask] == 0.0L)
                continue;
            unsigned hit = 0;
            for (unsigned tup = 0; tup < tuples; tup++) {
                unsigned x = tup, all = 1;
                for (unsigned j = 0; j < k; j++, x /= 8)
                    all &= (mask >> (x % 8)) & 1u;
                hit += all;
            }
            s += p[mask] * hit / (long double)tuples;
        }
        f[t] = s;
        if (t == tmax)
            break;
        for (unsigned mask = 0; mask < 256; mask++)
            q[mask] = 0.0L;
        for (unsigned mask = 0; mask < 256; mask++)
            for (unsigned b = 0; b < 8; b++)
                q[mask | (1u << b)] += p[mask] / 8.0L;
        for (unsigned mask = 0; mask < 256; mask++)
            p[mask] = q[mask];
    }
}

/*
 * Binomial(n, 1/nb) weights over lo..hi by the ratio recurrence from the
 * mode, normalised by their sum (long double). Returns lo; w has hi-lo+1.
 */
static uint64_t binom_window(uint64_t n, uint64_t nb, uint64_t *hi_out,
                             long double **w_out)
{
    const long double p = 1.0L / (long double)nb, r = p / (1.0L - p);
    const double mu = (double)n / (double)nb;
    const uint64_t lo = mu > 400 ? (uint64_t)(mu - 20 * sqrt(mu)) : 0;
    uint64_t hi = (uint64_t)(mu + 20 * sqrt(mu) + 200);
    if (hi > n)
        hi = n;
    uint64_t mode = (uint64_t)((long double)(n + 1) * p);
    if (mode > hi)
        mode = hi;
    if (mode < lo)
        mode = lo;
    long double *w = malloc((size_t)(hi - lo + 1) * sizeof *w);
    cr_assert_not_null(w);
    w[mode - lo] = 1.0L;
    for (uint64_t i = mode; i < hi; i++)
        w[i + 1 - lo] = w[i - lo] * (long double)(n - i) / (long double)(i + 1) * r;
    for (uint64_t i = mode; i > lo; i--)
        w[i - 1 - lo] = w[i - lo] * (long double)i / ((long double)(n - i + 1) * r);
    long double s = 0.0L;
    for (uint64_t i = lo; i <= hi; i++)
        s += w[i - lo];
    for (uint64_t i = lo; i <= hi; i++)
        w[i - lo] /= s;
    *hi_out = hi;
    *w_out = w;
    return lo;
}

/*
 * The exact blocked FPR by the occupancy recursion over the number of set
 * bits, P_{t+1}(s) = P_t(s) s/B + P_t(s-1) (B-s+1)/B, summed against
 * (s/B)^k, one throw at a time (the library uses a different, query-first
 * chain), with recurrence binomial weights.
 */
static double occupancy_blocked(uint64_t n, uint64_t m, unsigned k, unsigned B)
{
    uint64_t hi;
    long double *w;
    const uint64_t lo = binom_window(n, m / B, &hi, &w);
    long double *P = calloc(B + 1, sizeof *P), *pw = calloc(B + 1, sizeof *pw);
    cr_assert(P && pw);
    for (unsigned s = 0; s <= B; s++)
        pw[s] = powl((long double)s / B, (long double)k);
    P[0] = 1.0L;
    long double sum = 0.0L;
    for (uint64_t i = 0; i <= hi; i++) {
        if (i >= lo) {
            long double f = 0.0L;
            for (unsigned s = 0; s <= B; s++)
                f += P[s] * pw[s];
            sum += w[i - lo] * f;
        }
        for (unsigned rep = 0; rep < k; rep++) {
            for (unsigned s = B; s > 0; s--)
                P[s] = P[s] * s / B + P[s - 1] * (B - s + 1) / B;
            P[0] = 0.0L;
        }
    }
    free(P);
    free(pw);
    free(w);
    return (double)sum;
}

/* Putze's sum by brute force: Poisson weights by recurrence from i = 0. */
static double brute_putze(uint64_t n, uint64_t m, unsigned k, unsigned B)
{
    const long double lam = (long double)n * B / (long double)m;
    long double w = expl(-lam), s = 0.0L;
    const unsigned imax = (unsigned)(lam + 40 * sqrtl(lam) + 200);
    for (unsigned i = 0; i <= imax; i++) {
        if (i > 0)
            w *= lam / i;
        s += w * powl(1.0L - powl(1.0L - 1.0L / B, (long double)i * k), k);
    }
    return (double)s;
}

/* ------------------------------------------------------------------ classic */

Test(fpr, classic_formula,
     .description = "(1 - e^(-kn/m))^k against mpmath values, edge arguments")
{
    assert_rel(sbf_fpp_classic(1000, 10000, 7), 0.0081937220658624174277, 1e-12);
    assert_rel(sbf_fpp_classic(1000000, 9585088, 7), 0.010039070213003915036, 1e-12);
    /* k = 1: 1 - e^(-n/m) */
    assert_rel(sbf_fpp_classic(1, 1000, 1), -expm1(-0.001), 1e-15);
    cr_assert_eq(sbf_fpp_classic(0, 100, 3), 0.0);
    cr_assert(isnan(sbf_fpp_classic(10, 0, 3)));
    cr_assert(isnan(sbf_fpp_classic(10, 100, 0)));
    /* no overflow for huge n: every bit set */
    cr_assert_eq(sbf_fpp_classic(UINT64_MAX, 64, 3), 1.0);
}

Test(fpr, classic_layout_exact,
     .description = "layout formula (1 - (1 - 1/m)^(kn))^k, not the e^ form")
{
    assert_rel(sbf_fpp_layout(SBF_CLASSIC, 1000, 10000, 7),
               0.0081957025967687332951, 1e-12);
    assert_rel(sbf_fpp_layout(SBF_CLASSIC, 1000000, 9585088, 7),
               0.010039072701712636402, 1e-12);
    /* one bit: any key sets it */
    cr_assert_eq(sbf_fpp_layout(SBF_CLASSIC, 1, 1, 3), 1.0);
    cr_assert_eq(sbf_fpp_layout(SBF_CLASSIC, 0, 1, 3), 0.0);
    cr_assert(isnan(sbf_fpp_layout(SBF_CLASSIC, 5, 0, 3)));
    cr_assert(isnan(sbf_fpp_layout(SBF_CLASSIC, 5, 64, 0)));
}

/* ------------------------------------------------------------------- Putze */

Test(fpr, putze_vs_brute_force,
     .description = "Putze's Poisson sum against direct summation")
{
    static const struct { uint64_t n, m; unsigned k, B; } c[] = {
        {1000000, 10000000, 7, 512}, {1000, 51200, 8, 512}, {10, 512, 3, 512},
        {1000, 1000, 2, 64},         {50000, 12800, 3, 128}, {7, 16, 2, 16},
        {1000000, 64000000, 16, 512}, {3, 100000, 4, 8},
    };
    for (unsigned i = 0; i < sizeof c / sizeof *c; i++)
        assert_rel(sbf_fpp_putze(c[i].n, c[i].m, c[i].k, c[i].B),
                   brute_putze(c[i].n, c[i].m, c[i].k, c[i].B), 1e-12);
    /* mpmath */
    assert_rel(sbf_fpp_putze(1000000, 10000000, 7, 512), 0.0095712134599469715814, 1e-13);
    assert_rel(sbf_fpp_putze(1000, 51200, 8, 512), 1.0268781422476495601e-6, 1e-13);
    /* n = 1e9 has the same block load as n = 1e6 at the same bits per key */
    assert_rel(sbf_fpp_putze(1000000000, 10000000000, 7, 512),
               0.0095712134599469715814, 1e-13);
}

Test(fpr, putze_huge_load_window,
     .description = "Putze with a load of ~1.2e8 per block (strided window)")
{
    /* mpmath, all 2.6e5 Poisson terms summed */
    assert_rel(sbf_fpp_putze(1000000000, UINT64_C(137438953472), 7, 1u << 24),
               7.4455825668486016678e-10, 1e-12);
}

Test(fpr, putze_bad_args, .description = "NaN for m=0, k=0, B=0, m<B; 0 for n=0")
{
    cr_assert(isnan(sbf_fpp_putze(10, 0, 7, 512)));
    cr_assert(isnan(sbf_fpp_putze(10, 1024, 0, 512)));
    cr_assert(isnan(sbf_fpp_putze(10, 1024, 7, 0)));
    cr_assert(isnan(sbf_fpp_putze(10, 511, 7, 512)));
    cr_assert_eq(sbf_fpp_putze(0, 1024, 7, 512), 0.0);
}

/* ----------------------------------------------------------- blocked exact */

Test(fpr, blocked_vs_subset_enumeration,
     .description = "B = 8: exact FPR by a Markov chain over all 256 bit sets, "
                    "query tuples enumerated, exact binomial loads")
{
    for (unsigned k = 1; k <= 3; k++) {
        long double f[64];
        enum_b8(k, 12 * k, f);
        for (unsigned n = 0; n <= 12; n++) {
            for (unsigned nb = 1; nb <= 4; nb++) {
                long double w[13];
                binom_all(n, 1.0L / nb, w);
                long double want = 0.0L;
                for (unsigned i = 0; i <= n; i++)
                    want += w[i] * f[i * k];
                const double got = sbf_fpp_blocked(n, 8u * nb, k, 8);
                if (n == 0)
                    cr_assert_eq(got, 0.0);
                else
                    assert_rel(got, (double)want, 1e-13);
                /* m is rounded down to whole blocks */
                cr_assert_eq(sbf_fpp_blocked(n, 8u * nb + 7, k, 8), got);
            }
        }
    }
}

Test(fpr, blocked_single_key_single_block,
     .description = "one key, one block: E[(S/B)^k] after exactly k throws")
{
    /* k = 2: S = 1 w.p. 1/B, else 2: E = (1/B)(1/B)^2 + (1-1/B)(2/B)^2 */
    const double B = 16.0;
    const double want = (1 / B) * (1 / B) * (1 / B) + (1 - 1 / B) * (2 / B) * (2 / B);
    assert_rel(sbf_fpp_blocked(1, 16, 2, 16), want, 1e-14);
}

Test(fpr, blocked_vs_occupancy_recursion,
     .description = "blocked exact against the occupancy DP over set-bit counts")
{
    static const struct { uint64_t n, m; unsigned k, B; } c[] = {
        {1000000, 10000000, 7, 512}, {1000, 51200, 8, 512}, {100, 1024, 3, 16},
        {2000, 16384, 5, 128},       {10, 512, 16, 512},    {30000, 512000, 12, 512},
        {300, 3000, 40, 64}, /* k > 16, and k > B handled too: */
        {200, 640, 70, 32},
    };
    for (unsigned i = 0; i < sizeof c / sizeof *c; i++)
        assert_rel(sbf_fpp_blocked(c[i].n, c[i].m, c[i].k, c[i].B),
                   occupancy_blocked(c[i].n, c[i].m, c[i].k, c[i].B), 1e-12);
}

Test(fpr, blocked_mpmath_values,
     .description = "blocked exact against mpmath inclusion-exclusion, n up to 1e9, "
                    "FPR down to 1e-8")
{
    assert_rel(sbf_fpp_blocked(1000000, 10000000, 7, 512), 0.0096865397714689796723, 1e-13);
    assert_rel(sbf_fpp_blocked(1000000000, 10000000000, 7, 512),
               0.0096860485135948412, 1e-13);
    assert_rel(sbf_fpp_blocked(1000000, 64000000, 16, 512), 1.2042271222689156e-08, 1e-13);
    assert_rel(sbf_fpp_blocked(1000000000, 40000000000, 16, 512),
               7.6805982532962601e-07, 1e-13);
    assert_rel(sbf_fpp_blocked(1000, 51200, 8, 512), 1.0356630177791240374e-6, 1e-13);
    assert_rel(sbf_fpp_blocked(1000, 2048, 7, 512), 0.79090414346310633, 1e-13);
    assert_rel(sbf_fpp_blocked(50000, 12800, 3, 128), 0.99997349053765496331, 1e-13);
}

Test(fpr, blocked_above_putze,
     .description = "blocked exact >= Putze once there are enough blocks; the "
                    "gap at n=1e6, m=1e7, k=7, B=512 is about 1.2%")
{
    const double e = sbf_fpp_blocked(1000000, 10000000, 7, 512);
    const double p = sbf_fpp_putze(1000000, 10000000, 7, 512);
    const double gap = e / p - 1.0;
    cr_assert(gap > 0.01, "gap %.6f", gap);
    assert_rel(gap, 0.0120493, 1e-5);

    static const unsigned Bs[] = {64, 128, 512};
    for (unsigned b = 0; b < 3; b++)
        for (uint64_t nb = 256; nb <= (1u << 20); nb *= 8)
            for (double bpk = 2; bpk <= 64; bpk *= 2)
                for (unsigned k = 1; k <= 16; k++) {
                    const uint64_t m = nb * Bs[b], n = (uint64_t)(m / bpk);
                    const double ex = sbf_fpp_blocked(n, m, k, Bs[b]);
                    const double pz = sbf_fpp_putze(n, m, k, Bs[b]);
                    cr_assert(ex >= pz, "n=%lu m=%lu k=%u B=%u: %.17g < %.17g",
                              (unsigned long)n, (unsigned long)m, k, Bs[b], ex, pz);
                }

    /* With very few blocks the binomial load (less spread than Poisson)
     * wins over the Jensen term: one key in one 8-bit block. */
    cr_assert(sbf_fpp_blocked(1, 8, 3, 8) < sbf_fpp_putze(1, 8, 3, 8));
}

Test(fpr, blocked_monotone,
     .description = "blocked exact rises with n and falls with m")
{
    double prev = 0.0;
    for (uint64_t n = 1000; n <= 2000000; n = n * 3 / 2) {
        const double f = sbf_fpp_blocked(n, 10000000, 7, 512);
        cr_assert(f > prev);
        prev = f;
    }
    prev = 1.0;
    for (uint64_t nb = 100; nb <= 100000; nb = nb * 5 / 4) {
        const double f = sbf_fpp_blocked(100000, nb * 512, 7, 512);
        cr_assert(f < prev);
        prev = f;
    }
}

Test(fpr, blocked_extremes,
     .description = "no NaN, overflow or slowness at extreme loads and sizes")
{
    /* every block overfull: FPR is 1 */
    cr_assert_eq(sbf_fpp_blocked(UINT64_C(1000000000000), 512 * 1000, 7, 512), 1.0);
    cr_assert_eq(sbf_fpp_blocked(UINT64_MAX, 512, 16, 512), 1.0);
    /* blocks of one bit: a false positive iff the block holds a key */
    assert_rel(sbf_fpp_blocked(5, 10, 3, 1), 1.0 - pow(0.9, 5), 1e-14);
    /* tiny FPRs, 5120 bits per key (mpmath) */
    assert_rel(sbf_fpp_blocked(1000, 1000 * 512, 16, 512), 1.474807226653843997e-15, 1e-12);
    assert_rel(sbf_fpp_blocked(100000, 512000000, 16, 512), 1.2566727365735926299e-20, 1e-12);
    /* huge blocks (strided window): close to Putze, Jensen term tiny */
    const double hb = sbf_fpp_blocked(1000000000, UINT64_C(137438953472), 7, 1u << 24);
    assert_rel(hb, 7.4455825668486016678e-10, 1e-5);
    cr_assert(hb >= 7.4455825668486016678e-10);
    /* bad arguments */
    cr_assert(isnan(sbf_fpp_blocked(10, 0, 7, 512)));
    cr_assert(isnan(sbf_fpp_blocked(10, 1024, 0, 512)));
    cr_assert(isnan(sbf_fpp_blocked(10, 1024, 7, 0)));
    cr_assert(isnan(sbf_fpp_blocked(10, 511, 7, 512)));
    cr_assert_eq(sbf_fpp_blocked(0, 1024, 7, 512), 0.0);
}

/* ------------------------------------------------------------- split block */

Test(fpr, split_block_exact,
     .description = "split-block FPR against mpmath and a direct binomial sum")
{
    assert_rel(sbf_fpp_split_block(1000000, 10000000, 8), 0.012649092211045014887, 1e-13);
    assert_rel(sbf_fpp_split_block(1000000, 16000000, 16), 0.0017520960846293307, 1e-13);
    assert_rel(sbf_fpp_split_block(1000, 51200, 16), 9.1680750124218204864e-8, 1e-13);
    assert_rel(sbf_fpp_split_block(12345, 100000, 8), 0.031738520224154564469, 1e-13);
    /* n small: every load */
    for (unsigned n = 1; n <= 12; n++) {
        long double w[13], want = 0.0L;
        binom_all(n, 1.0L / 3, w);
        for (unsigned i = 0; i <= n; i++)
            want += w[i] * powl(1.0L - powl(31.0L / 32.0L, i), 8);
        assert_rel(sbf_fpp_split_block(n, 3 * 256 + 100, 8), (double)want, 1e-13);
    }
    cr_assert(isnan(sbf_fpp_split_block(10, 0, 8)));
    cr_assert(isnan(sbf_fpp_split_block(10, 1024, 0)));
    cr_assert(isnan(sbf_fpp_split_block(10, 255, 8)));
    cr_assert_eq(sbf_fpp_split_block(0, 1024, 8), 0.0);
}

/* ------------------------------------------------------------------ layouts */

Test(fpr, layout_dispatch, .description = "sbf_fpp_layout picks each layout's formula")
{
    cr_assert_eq(sbf_fpp_layout(SBF_BLOCKED, 100000, 1000448, 7),
                 sbf_fpp_blocked(100000, 1000448, 7, 512));
    cr_assert_eq(sbf_fpp_layout(SBF_SPLIT_BLOCK, 100000, 1000448, 8),
                 sbf_fpp_split_block(100000, 1000448, 8));
    cr_assert_eq(sbf_fpp_layout(SBF_SPLIT_BLOCK, 100000, 1000448, 16),
                 sbf_fpp_split_block(100000, 1000448, 16));
    cr_assert_eq(sbf_fpp_layout(SBF_COUNTING, 100000, 4001792, 7),
                 sbf_fpp_blocked(100000, 4001792 / 4, 7, 128));
    cr_assert(isnan(sbf_fpp_layout(-1, 100, 1024, 7)));
    cr_assert(isnan(sbf_fpp_layout(5, 100, 1024, 7)));
}

/* ------------------------------------------------------ counting saturation */

Test(fpr, counting_saturation_values,
     .description = "saturation probability against mpmath; monotone; below Fan")
{
    /* 10 counters per key (40 bits of memory per key), k = 7 */
    assert_rel(sbf_counting_saturation(1000000, 40000000, 7), 1.3470861840526851e-08, 1e-12);
    /* 2.5 counters per key: saturation is likely */
    assert_rel(sbf_counting_saturation(1000000, 10000000, 7), 0.41469448537893816, 1e-12);
    assert_rel(sbf_counting_saturation(1000000, 20000000, 5), 1.2040007969277136e-06, 1e-12);
    assert_rel(sbf_counting_saturation(1000, 40960, 7), 8.9106081989035276438e-12, 1e-12);

    double prev = 0.0;
    for (uint64_t n = 100000; n <= 3000000; n += 100000) {
        const double s = sbf_counting_saturation(n, 40000000, 7);
        const double fan = sbf_counting_fan_bound(n, 40000000, 7);
        cr_assert(s > prev, "n=%lu %g <= %g", (unsigned long)n, s, prev);
        cr_assert(s <= fan, "n=%lu %g > Fan %g", (unsigned long)n, s, fan);
        prev = s;
    }
    cr_assert(sbf_counting_saturation(1000000, 40000000, 7) < 1e-7);
    cr_assert_eq(sbf_counting_saturation(0, 40000000, 7), 0.0);
    /* very overloaded: certain */
    cr_assert_eq(sbf_counting_saturation(100000000, 512, 7), 1.0);
    cr_assert(isnan(sbf_counting_saturation(10, 511, 7)));
    cr_assert(isnan(sbf_counting_saturation(10, 1024, 0)));
}

Test(fpr, counting_fan_bound, .description = "Fan's bound mc (e n k / 15 mc)^15, clamped")
{
    assert_rel(sbf_counting_fan_bound(1000000, 40000000, 7), 3.5442058895558354627e-7, 1e-12);
    cr_assert_eq(sbf_counting_fan_bound(1000000, 10000000, 7), 1.0);
    cr_assert_eq(sbf_counting_fan_bound(0, 10000000, 7), 0.0);
    cr_assert(isnan(sbf_counting_fan_bound(10, 3, 7)));
    cr_assert(isnan(sbf_counting_fan_bound(10, 1024, 0)));
}

/* ------------------------------------------------------------ classic sizing */

/* tests/vectors/guava_sizing.txt (Guava 31.1 BloomFilter.create), and points
 * drawn at random, computed with Guava 31.1 by reflection. */
static const struct { uint64_t n; double fpp; uint32_t k; uint64_t bits; } guava[] = {
    {0, 0.5, 1, 64}, {0, 0.1, 3, 64}, {0, 0.03, 5, 64}, {0, 0.01, 6, 64},
    {0, 0.001, 10, 64}, {0, 1.0E-6, 19, 64}, {0, 1.0E-9, 30, 64},
    {1, 0.5, 1, 64}, {1, 0.1, 3, 64}, {1, 0.03, 5, 64}, {1, 0.01, 6, 64},
    {1, 0.001, 10, 64}, {1, 1.0E-6, 19, 64}, {1, 1.0E-9, 30, 64},
    {10, 0.5, 1, 64}, {10, 0.1, 3, 64}, {10, 0.03, 5, 128}, {10, 0.01, 7, 128},
    {10, 0.001, 10, 192}, {10, 1.0E-6, 20, 320}, {10, 1.0E-9, 30, 448},
    {100, 0.5, 1, 192}, {100, 0.1, 3, 512}, {100, 0.03, 5, 768}, {100, 0.01, 7, 960},
    {100, 0.001, 10, 1472}, {100, 1.0E-6, 20, 2880}, {100, 1.0E-9, 30, 4352},
    {1000, 0.5, 1, 1472}, {1000, 0.1, 3, 4800}, {1000, 0.03, 5, 7360},
    {1000, 0.01, 7, 9600}, {1000, 0.001, 10, 14400}, {1000, 1.0E-6, 20, 28800},
    {1000, 1.0E-9, 30, 43136},
    {12345, 0.5, 1, 17856}, {12345, 0.1, 3, 59200}, {12345, 0.03, 5, 90112},
    {12345, 0.01, 7, 118336}, {12345, 0.001, 10, 177536},
    {12345, 1.0E-6, 20, 355008}, {12345, 1.0E-9, 30, 532480},
    {1000000, 0.5, 1, 1442752}, {1000000, 0.1, 3, 4792576},
    {1000000, 0.03, 5, 7298496}, {1000000, 0.01, 7, 9585088},
    {1000000, 0.001, 10, 14377600}, {1000000, 1.0E-6, 20, 28755200},
    {1000000, 1.0E-9, 30, 43132800},
    {100000000, 0.5, 1, 144269504}, {100000000, 0.1, 3, 479252928},
    {100000000, 0.03, 5, 729844096}, {100000000, 0.01, 7, 958505856},
    {100000000, 0.001, 10, 1437758784}, {100000000, 1.0E-6, 20, 2875517568},
    {100000000, 1.0E-9, 30, 4313276288},
    {109080, 6.369101595963948E-12, 37, 5852928},
    {3931824, 0.006553266651233171, 7, 41145344},
    {231382, 5.7190881318355745E-6, 17, 5813632},
    {62, 3.817449670976947E-11, 35, 3136},
    {38, 9.24032626647481E-4, 10, 576},
    {811876, 2.6621043944861734E-12, 38, 45036800},
    {720754, 9.986833612512589E-5, 13, 13818944},
    {1, 0.010390050400600037, 6, 64},
    {24, 5.921899267030489E-8, 24, 832},
    {492086, 1.2936747079195908E-7, 23, 16244672},
    {499861, 0.2170943970461577, 2, 1589184},
    {81, 3.8795729136022316E-76, 251, 29312},
    {21, 2.7469847333862126E-4, 12, 384},
    {954065, 8.760898342060495E-12, 37, 50558976},
    {22933173, 4.751158848428216E-11, 34, 1134601344},
    {10557866, 1.6524563907229222E-12, 39, 596149440},
    {554030246, 2.5014003911814592E-11, 35, UINT64_C(28150008896)},
    {11361287, 4.504056002963207E-5, 14, 236658240},
    {97473, 5.883612856609449E-6, 17, 2443328},
};

Test(fpr, size_classic_guava, .description = "classic sizing is Guava 31.1's, bit for bit")
{
    for (unsigned i = 0; i < sizeof guava / sizeof *guava; i++) {
        uint64_t bits = 0;
        uint32_t k = 0;
        cr_assert_eq(sbf_size(SBF_CLASSIC, guava[i].n, guava[i].fpp, &bits, &k), SBF_OK);
        cr_assert(bits == guava[i].bits && k == guava[i].k,
                  "n=%lu fpp=%.17g: got k=%u bits=%lu, Guava k=%u bits=%lu",
                  (unsigned long)guava[i].n, guava[i].fpp, k, (unsigned long)bits,
                  guava[i].k, (unsigned long)guava[i].bits);
    }
}

Test(fpr, size_classic_guava_refusals,
     .description = "where Guava 31.1 throws: 0 bits, k > 255, > 2^31-1 words")
{
    uint64_t bits = 0;
    uint32_t k = 0;
    /* Guava: "data length is zero"; we give the smallest filter */
    cr_assert_eq(sbf_size(SBF_CLASSIC, 3, 0.8523035636249425, &bits, &k), SBF_OK);
    cr_assert(bits == 64 && k == 1);
    k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1, 0.7, &bits, &k), SBF_OK);
    cr_assert(bits == 64 && k == 1);
    /* Guava: numHashFunctions (260) must be <= 255 */
    k = 0;
    bits = 123;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 28, 4.0135526342036277E-79, &bits, &k), SBF_E_K);
    cr_assert(bits == 123 && k == 0);
    /* ... unless k is given */
    k = 20;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 28, 4.0135526342036277E-79, &bits, &k), SBF_OK);
    cr_assert(bits == 10560 && k == 20);
    /* Guava: Ints.checkedCast of the word count fails */
    static const struct { uint64_t n; double fpp; } big[] = {
        {1850062259, 6.029378726501181E-51}, {UINT64_C(74069646243049), 2.4795782869499346E-5},
        {UINT64_C(524627865535), 5.768119137052283E-10}, {UINT64_C(879053861605666421), 0.5},
        {UINT64_MAX, 0.999},
    };
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++) {
        k = 0;
        cr_assert_eq(sbf_size(SBF_CLASSIC, big[i].n, big[i].fpp, &bits, &k), SBF_E_TOO_LARGE);
    }
    /* past Guava's limit of 64 * (2^31 - 1) bits */
    k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000000000, 1e-64, &bits, &k), SBF_E_TOO_LARGE);
}

Test(fpr, size_classic_given_k, .description = "given k: Guava's bits with that k")
{
    uint64_t bits = 0;
    uint32_t k = 3;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9600 && k == 3);
    k = 255;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9600 && k == 255);
    k = 256;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_E_K);
}

/* ----------------------------------------------------- blocked-layout sizing */

static double layout_fpr(int layout, uint64_t n, uint64_t bits, uint32_t k)
{
    return sbf_fpp_layout(layout, n, bits, k);
}

/* The size meets fpp with the returned k, no k in range meets it with one
 * block less, and no smaller k meets it at the returned size. */
static void check_minimal(int layout, uint64_t n, double fpp, uint32_t kgiven)
{
    uint64_t bits = 0;
    uint32_t k = kgiven;
    cr_assert_eq(sbf_size(layout, n, fpp, &bits, &k), SBF_OK,
                 "layout %d n=%lu fpp=%g", layout, (unsigned long)n, fpp);
    const uint64_t nn = n ? n : 1;
    uint64_t granule = SBF_BLOCK_BITS;
    uint32_t klo = 1, khi = SBF_MAX_K_BLOCKED, kstep = 1;
    if (layout == SBF_SPLIT_BLOCK) {
        granule = 32u * k;
        klo = 8, khi = 16, kstep = 8;
    }
    if (kgiven)
        klo = khi = kgiven;
    cr_assert(bits % granule == 0 && bits > 0 && bits <= SBF_MAX_BITS);
    cr_assert(k >= klo && k <= khi);
    cr_assert(layout_fpr(layout, nn, bits, k) <= fpp,
              "layout %d n=%lu fpp=%g bits=%lu k=%u: %g", layout, (unsigned long)n,
              fpp, (unsigned long)bits, k, layout_fpr(layout, nn, bits, k));
    for (uint32_t kk = klo; kk <= khi; kk += kstep) {
        const uint64_t g = layout == SBF_SPLIT_BLOCK ? 32u * kk : granule;
        /* the largest size of this k's granule below `bits` */
        const uint64_t smaller = (bits - 1) / g * g;
        if (smaller > 0)
            cr_assert(layout_fpr(layout, nn, smaller, kk) > fpp,
                      "layout %d n=%lu fpp=%g: k=%u fits in %lu < %lu bits",
                      layout, (unsigned long)n, fpp, kk, (unsigned long)smaller,
                      (unsigned long)bits);
        if (kk < k && layout != SBF_SPLIT_BLOCK)
            cr_assert(layout_fpr(layout, nn, bits, kk) > fpp, "smaller k %u fits too", kk);
    }
}

Test(fpr, size_blocked_minimal,
     .description = "blocked/counting/split sizes meet fpp; one block fewer does not")
{
    static const uint64_t ns[] = {0, 1, 10, 1000, 12345, 1000000, 1000000000};
    static const double fpps[] = {0.5, 0.1, 0.01, 1e-3, 1e-6, 1e-9};
    for (unsigned a = 0; a < sizeof ns / sizeof *ns; a++)
        for (unsigned b = 0; b < sizeof fpps / sizeof *fpps; b++) {
            const uint64_t n = ns[a];
            const double fpp = fpps[b];
            /* layouts whose sizes would pass SBF_MAX_BITS are checked below */
            if (n < 1000000000 || fpp >= 1e-6) {
                check_minimal(SBF_BLOCKED, n, fpp, 0);
                check_minimal(SBF_SPLIT_BLOCK, n, fpp, 0);
            }
            if (n < 1000000000 || fpp >= 1e-3)
                check_minimal(SBF_COUNTING, n, fpp, 0);
        }
    check_minimal(SBF_BLOCKED, 100000, 0.01, 3);
    check_minimal(SBF_BLOCKED, 100000, 0.001, 16);
    check_minimal(SBF_COUNTING, 100000, 0.01, 4);
    check_minimal(SBF_SPLIT_BLOCK, 100000, 0.01, 16);
    check_minimal(SBF_SPLIT_BLOCK, 100000, 1e-6, 8);
}

Test(fpr, size_known_points, .description = "sizes at familiar points")
{
    uint64_t bits;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9918464 && k == 6, "bits %lu k %u", (unsigned long)bits, k);
    k = 0;
    cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 10529280 && k == 8, "bits %lu k %u", (unsigned long)bits, k);
    k = 0;
    cr_assert_eq(sbf_size(SBF_COUNTING, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 43389440 && k == 6, "bits %lu k %u", (unsigned long)bits, k);
    /* a blocked filter needs more than Guava's 9585088 bits for 1% */
    cr_assert(9918464 > 9585088);
    /* n = 1: one block is plenty */
    k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1, 0.5, &bits, &k), SBF_OK);
    cr_assert(bits == 512 && k == 1);
}

Test(fpr, size_too_large, .description = "sizes past SBF_MAX_BITS are SBF_E_TOO_LARGE")
{
    uint64_t bits = 7;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-300, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert(bits == 7 && k == 0);
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-12, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_COUNTING, 1000000000, 1e-6, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 1000000000, 1e-300, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_CLASSIC, UINT64_C(100000000000), 0.01, &bits, &k),
                 SBF_E_TOO_LARGE);
    cr_assert(bits == 7 && k == 0);
    /* 1e9 keys at one in a million fit */
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-6, &bits, &k), SBF_OK);
    cr_assert(bits <= SBF_MAX_BITS && k == 16);
}

Test(fpr, size_bad_arguments, .description = "exact error codes; outputs untouched")
{
    uint64_t bits = 99;
    uint32_t k = 0;
    static const double bad_fpp[] = {0.0, 1.0, -0.1, 1.5, -0.0, 2.0};
    for (int layout = 0; layout < 4; layout++) {
        cr_assert_eq(sbf_size(layout, 100, NAN, &bits, &k), SBF_E_FPP);
        cr_assert_eq(sbf_size(layout, 100, INFINITY, &bits, &k), SBF_E_FPP);
        for (unsigned i = 0; i < sizeof bad_fpp / sizeof *bad_fpp; i++)
            cr_assert_eq(sbf_size(layout, 100, bad_fpp[i], &bits, &k), SBF_E_FPP);
        cr_assert_eq(sbf_size(layout, 100, 0.01, NULL, &k), SBF_E_NULL);
        cr_assert_eq(sbf_size(layout, 100, 0.01, &bits, NULL), SBF_E_NULL);
    }
    cr_assert_eq(sbf_size(-1, 100, 0.01, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(5, 100, 0.01, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(5, 100, NAN, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(-1, 100, 0.01, NULL, NULL), SBF_E_NULL);
    cr_assert(bits == 99 && k == 0);

    static const uint32_t split_bad[] = {1, 7, 9, 15, 17, 32};
    for (unsigned i = 0; i < sizeof split_bad / sizeof *split_bad; i++) {
        k = split_bad[i];
        cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 100, 0.01, &bits, &k), SBF_E_K);
        cr_assert(k == split_bad[i] && bits == 99);
    }
    k = 17;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, 0.01, &bits, &k), SBF_E_K);
    cr_assert_eq(sbf_size(SBF_COUNTING, 100, 0.01, &bits, &k), SBF_E_K);
    k = 256;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 100, 0.01, &bits, &k), SBF_E_K);
    cr_assert(bits == 99 && k == 256);
}

Test(fpr, size_n_zero_is_one, .description = "n = 0 is sized as n = 1 in every layout")
{
    for (int layout = 0; layout < 4; layout++) {
        uint64_t b0, b1;
        uint32_t k0 = 0, k1 = 0;
        cr_assert_eq(sbf_size(layout, 0, 0.001, &b0, &k0), SBF_OK);
        cr_assert_eq(sbf_size(layout, 1, 0.001, &b1, &k1), SBF_OK);
        cr_assert(b0 == b1 && k0 == k1);
    }
}
