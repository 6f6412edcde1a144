/*
 * The promise (issue 33, doc/promises.md): a filter sized for (n, rate)
 * delivers that rate. Every layout that keeps it, swept at small n (1, 10,
 * 100, 1000) and tight rates (1e-2 .. 1e-4) over many seeds: the measured
 * rate must lie in the formula's interval (a Wilson interval of the
 * probes, widened by the spread of one filter's rate over the key sets,
 * sbf_fpp_spread) and not above the asked rate. Classic's formula is an
 * upper bound (Guava's double hashing repeats and aligns positions at small
 * bit counts; src/fpr.c guava_bound, doc/promises.md): the measured rate must
 * not be above it, nor the bound more than 3 times the measured interval's
 * top (a bound that loose would size filters for nothing).
 */
#include "testutil.h"

#include <math.h>

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

#define Z 5.0 /* two-sided ~6e-7 per cell: 36 cells never flake */

/* Wilson interval of x successes in n trials. */
static void wilson(double x, double n, double *lo, double *hi)
{
    const double p = x / n, d = 1 + Z * Z / n;
    const double c = (p + Z * Z / (2 * n)) / d;
    const double h = Z * sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d;
    *lo = c - h > 0 ? c - h : 0;
    *hi = c + h < 1 ? c + h : 1;
}

Test(promise, small_filters_keep_the_asked_rate,
     .description = "every layout at n = 1, 10, 100, 1000 and rates 1e-2, 1e-3, 1e-4 (classic "
                    "also 1e-6), 2^22 "
                    "probes per cell over 64..1024 key sets: measured within the formula's "
                    "interval (classic: not above its bound, the bound within 3x) and not above "
                    "the asked rate", .timeout = 120)
{
    static const int layouts[] = {SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING};
    static const uint64_t ns[] = {1, 10, 100, 1000};
    /* 1e-6 for classic only (its sizing grows most there: Guava's size for
     * n = 1 measured 1.3e-2); ~4 false positives per cell catch only a
     * gross miss, the simulations of doc/promises.md do the rest */
    static const double rates[] = {1e-2, 1e-3, 1e-4, 1e-6};
    enum { PROBES = 1 << 22, BATCH = 4096 };
    uint64_t *keys = malloc(sizeof(uint64_t) * BATCH);
    cr_assert_not_null(keys);
    uint64_t st = 33;
    for (unsigned li = 0; li < sizeof layouts / sizeof *layouts; li++)
        for (unsigned ni = 0; ni < sizeof ns / sizeof *ns; ni++)
            for (unsigned ri = 0; ri < sizeof rates / sizeof *rates; ri++) {
                const int layout = layouts[li];
                if (rates[ri] < 1e-4 && layout != SBF_CLASSIC)
                    continue;
                const uint64_t n = ns[ni];
                const double rate = rates[ri];
                /* classic's rate depends on rare keys (an h2 with many
                 * factors of two): more filters, as many probes */
                const int classic = layout == SBF_CLASSIC;
                const unsigned seeds = n >= 1000 ? 64 << classic : 256 << (2 * classic);
                const unsigned per = PROBES / seeds;
                uint64_t fp = 0;
                double formula = 0, spread = 0;
                uint64_t bits = 0;
                uint32_t k = 0;
                for (unsigned s = 0; s < seeds; s++) {
                    sbf_params p = {0};
                    p.layout = layout;
                    p.expected_n = n;
                    p.fpp = rate;
                    sbf_filter *f = NULL;
                    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
                    for (uint64_t i = 0; i < n; i++) {
                        const uint64_t x = splitmix(&st);
                        cr_assert_eq(sbf_add_u64(f, &x, 1), SBF_OK);
                    }
                    struct sbf_info inf;
                    cr_assert_eq(sbf_info(f, &inf), SBF_OK);
                    bits = inf.bits;
                    k = inf.k;
                    for (unsigned q = 0; q < per; q += BATCH) {
                        const unsigned m = per - q < BATCH ? per - q : BATCH;
                        for (unsigned j = 0; j < m; j++)
                            keys[j] = splitmix(&st); /* absent: 64-bit random, never a key */
                        fp += sbf_contains_u64(f, keys, m, NULL);
                    }
                    formula = sbf_fpp_theory(f, n);
                    sbf_free(f);
                }
                spread = sbf_fpp_spread(layout, n, bits, k);
                if (isnan(spread))
                    spread = formula; /* one block: the rate of one filter varies by itself */
                const double total = (double)per * seeds, meas = (double)fp / total;
                double lo, hi;
                wilson((double)fp, total, &lo, &hi);
                const double widen = Z * spread / sqrt((double)seeds);
                cr_log_info("%-11s n=%-4lu rate=%g: %lu bits k=%u formula %.3g measured %.3g "
                            "(%lu/%.0f)", sbf_layout_name(layout), (unsigned long)n, rate,
                            (unsigned long)bits, k, formula, meas, (unsigned long)fp, total);
                /* classic keeps Guava's own size up to 1% above (its k
                 * rounding; src/size.c GUAVA_SLACK) */
                cr_expect(formula <= rate * (classic ? 1.01 : 1.0),
                          "%s n=%lu rate=%g: formula %.3g above the asked",
                          sbf_layout_name(layout), (unsigned long)n, rate, formula);
                if (classic)
                    cr_expect(lo - widen <= formula && formula <= 3 * (hi + widen),
                              "classic n=%lu rate=%g: measured %.3g, interval [%.3g, %.3g] +- "
                              "%.2g: the bound %.3g is below it or more than 3 times its top",
                              (unsigned long)n, rate, meas, lo, hi, widen, formula);
                else
                    cr_expect(lo - widen <= formula && formula <= hi + widen,
                              "%s n=%lu rate=%g: measured %.3g, interval [%.3g, %.3g] +- %.2g "
                              "misses the formula's %.3g", sbf_layout_name(layout),
                              (unsigned long)n, rate, meas, lo, hi, widen, formula);
                cr_expect(lo - widen <= rate, "%s n=%lu rate=%g: measured %.3g above the asked",
                          sbf_layout_name(layout), (unsigned long)n, rate, meas);
            }
    free(keys);
}

/*
 * Over-hashed classic filters (k far above the best k for m/n, which sizing
 * never makes): the bound holds there too. The textbook formula and the
 * model agree at large m, and the pairs of a query's positions whose lags
 * share factors of two with m are set together more often than fill^2 (src/fpr.c
 * guava_pairs). Measured by simulation of real classic filters (4096 key
 * sets x 2^16 probes each, uniform u64 keys, seed 7 of doc/promises.md's
 * sweep): the bound must not be below the measured rate, nor more than 1%
 * above it. The first row's bound before the pairs' term was 0.0565606,
 * 0.08% (1.8 se) below the measured 0.0566058.
 */
Test(promise, overhashed_classic_bound_holds,
     .description = "classic at k = 16..24, 8..11 bits per key, n = 8599: the bound is not "
                    "below the measured rate (4096 key sets each) and within 1% of it; a live "
                    "check of the first cell over 256 key sets", .timeout = 120)
{
    static const struct {
        uint64_t m, n;
        uint32_t k;
        double measured, se;
    } cells[] = {
        {94592, 8599, 24, 0.0566058, 2.49e-5},
        {68800, 8599, 16, 0.0976538, 3.53e-5},
        {94592, 8599, 16, 0.0142298, 8.51e-6},
    };
    for (unsigned i = 0; i < sizeof cells / sizeof *cells; i++) {
        const double b = sbf_fpp_layout(SBF_CLASSIC, cells[i].n, cells[i].m, cells[i].k);
        cr_log_info("classic m=%lu k=%u n=%lu: bound %.7g, measured %.7g +- %.2g",
                    (unsigned long)cells[i].m, cells[i].k, (unsigned long)cells[i].n, b,
                    cells[i].measured, cells[i].se);
        cr_expect(b >= cells[i].measured && b <= 1.01 * cells[i].measured,
                  "classic m=%lu k=%u n=%lu: bound %.7g, measured %.7g +- %.2g",
                  (unsigned long)cells[i].m, cells[i].k, (unsigned long)cells[i].n, b,
                  cells[i].measured, cells[i].se);
    }
    /* live: the first cell on this build's classic filters */
    enum { SETS = 256, PER = 1 << 16, BATCH = 4096 };
    uint64_t *keys = malloc(sizeof(uint64_t) * BATCH);
    cr_assert_not_null(keys);
    uint64_t st = 24;
    double sum = 0, sum2 = 0;
    for (unsigned s = 0; s < SETS; s++) {
        sbf_params p = {0};
        p.layout = SBF_CLASSIC;
        p.bits = cells[0].m;
        p.k = cells[0].k;
        p.expected_n = cells[0].n;
        sbf_filter *f = NULL;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK);
        for (uint64_t i = 0; i < cells[0].n; i += BATCH) {
            const unsigned m = cells[0].n - i < BATCH ? (unsigned)(cells[0].n - i) : BATCH;
            for (unsigned j = 0; j < m; j++)
                keys[j] = splitmix(&st);
            cr_assert_eq(sbf_add_u64(f, keys, m), SBF_OK);
        }
        struct sbf_info inf;
        cr_assert_eq(sbf_info(f, &inf), SBF_OK);
        cr_assert_eq(inf.bits, cells[0].m);
        cr_assert_eq(inf.k, cells[0].k);
        uint64_t fp = 0;
        for (unsigned q = 0; q < PER; q += BATCH) {
            for (unsigned j = 0; j < BATCH; j++)
                keys[j] = splitmix(&st);
            fp += sbf_contains_u64(f, keys, BATCH, NULL);
        }
        sbf_free(f);
        const double r = (double)fp / PER;
        sum += r;
        sum2 += r * r;
    }
    free(keys);
    const double mean = sum / SETS, se = sqrt((sum2 / SETS - mean * mean) / (SETS - 1));
    const double b = sbf_fpp_layout(SBF_CLASSIC, cells[0].n, cells[0].m, cells[0].k);
    cr_log_info("live: measured %.6g +- %.2g, bound %.6g", mean, se, b);
    cr_expect(mean - Z * se <= b && b <= mean + Z * se + 0.01 * mean,
              "classic m=%lu k=%u n=%lu: measured %.6g +- %.2g (%u key sets), bound %.6g",
              (unsigned long)cells[0].m, cells[0].k, (unsigned long)cells[0].n, mean, se,
              (unsigned)SETS, b);
}
