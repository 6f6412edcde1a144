/*
 * False-positive formulas (src/fpr.c); sizing (src/size.c) is tested in
 * tests/test_size.c.
 *
 * Reference values marked "mpmath" were computed at 80 significant digits
 * by an independent algorithm: binomial weights from log-gamma at that
 * precision, and the exact blocked term by inclusion-exclusion over the
 * distinct query bits (sum_j S2(k,j) B!/(B-j)!/B^k sum_l (-1)^l C(j,l)
 * (1-l/B)^t), which is only usable at such precision. Everything else is
 * recomputed here by brute force with a method different from the
 * library's.
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
     .description = "layout formula: (1 - (1 - 1/m)^(kn))^k, not the e^ form, off Guava's "
                    "multiples of 64; on them Guava's bound, never below it (issue 33)")
{
    assert_rel(sbf_fpp_layout(SBF_CLASSIC, 1000, 10000, 7),
               0.0081957025967687332951, 1e-12);
    /* a large filter: the bound is that formula to 2e-5 */
    const double big = sbf_fpp_layout(SBF_CLASSIC, 1000000, 9585088, 7);
    assert_rel(big, 0.010039072701712636402, 2e-5);
    cr_assert_geq(big, 0.010039072701712636402);
    /* a small one: one key, 64 bits, k = 13 (Guava's size for 1e-4)
     * measured 4.95e-3 where the formula says 3e-10; the bound is above */
    const double small = sbf_fpp_layout(SBF_CLASSIC, 1, 64, 13);
    cr_assert(small >= 4.95e-3 && small < 2e-2, "bound %g", small);
    /* no k lowers the progression floor 2n/m^2 */
    cr_assert_geq(sbf_fpp_layout(SBF_CLASSIC, 1000, 1 << 20, 255), 2e3 / 0x1p40);
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
    cr_assert(isnan(sbf_fpp_layout(10, 100, 1024, 7)));
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
