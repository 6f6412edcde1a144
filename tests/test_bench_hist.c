/*
 * The harness's latency arithmetic (bench/bench_hist.c, bench/bench_util.c),
 * which the histograms of results/REPORT.md rest on: the log-linear bucket
 * of every value, and the clock's usual step that decides whether calls are
 * timed alone or in groups. The two files are compiled into this test as
 * they are into sbf-bench (nothing here is timed).
 */
#include "../bench/bench_hist.c"
#include "../bench/bench_util.c"

#include <criterion/criterion.h>

Test(bench_hist, exact_below_two_octaves,
     .description = "values below 2 * SBFB_LAT_SUB (128) have a bucket of their own")
{
    cr_assert_eq(SBFB_LAT_SUB, 64u);
    for (uint64_t v = 0; v < 2 * SBFB_LAT_SUB; v++) {
        double lo, hi;
        const unsigned b = sbfb_hist_bucket(v);
        sbfb_hist_range(b, &lo, &hi);
        cr_assert_eq(b, (unsigned)v);
        cr_assert(lo == (double)v && hi == (double)v + 1, "v %llu: [%g, %g)",
                  (unsigned long long)v, lo, hi);
    }
}

Test(bench_hist, known_buckets, .description = "64 linear steps per power of two above 128")
{
    double lo, hi;
    /* 128 = 64 << 1: the first bucket two units wide */
    cr_assert_eq(sbfb_hist_bucket(128), 128u);
    cr_assert_eq(sbfb_hist_bucket(129), 128u);
    cr_assert_eq(sbfb_hist_bucket(130), 129u);
    sbfb_hist_range(128, &lo, &hi);
    cr_assert(lo == 128 && hi == 130);
    /* 1000 = 125 << 3: octave 2^9, step 8, sub-bucket 125 - 64 = 61 */
    cr_assert_eq(sbfb_hist_bucket(1000), 64u * 4 + 61);
    sbfb_hist_range(64 * 4 + 61, &lo, &hi);
    cr_assert(lo == 1000 && hi == 1008, "[%g, %g)", lo, hi);
    cr_assert_eq(sbfb_hist_bucket(1007), 64u * 4 + 61);
    cr_assert_eq(sbfb_hist_bucket(1008), 64u * 4 + 62);
    /* UINT64_MAX: octave 2^63 (shift 57), the last sub-bucket; inside the array */
    cr_assert_eq(sbfb_hist_bucket(UINT64_MAX), 64u * 58 + 63);
    cr_assert(64u * 58 + 63 < SBFB_LAT_BUCKETS);
}

Test(bench_hist, contiguous_and_narrow,
     .description = "every value lies in its bucket, buckets follow each other, "
                    "none is wider than 1/64 of its lower edge")
{
    unsigned prev = 0;
    for (uint64_t v = 1; v < (UINT64_C(1) << 50); v = v < 100000 ? v + 1 : v + v / 4099 + 1) {
        double lo, hi;
        const unsigned b = sbfb_hist_bucket(v);
        sbfb_hist_range(b, &lo, &hi);
        cr_assert(b < SBFB_LAT_BUCKETS);
        cr_assert((double)v >= lo && (double)v < hi, "v %llu in [%g, %g)",
                  (unsigned long long)v, lo, hi);
        cr_assert(b >= 2 * SBFB_LAT_SUB || hi - lo == 1);
        cr_assert(hi - lo <= lo / 64 || b < 2 * SBFB_LAT_SUB, "bucket %u: [%g, %g)", b, lo, hi);
        if (v < 100000)
            cr_assert(b == prev || b == prev + 1, "v %llu: bucket %u after %u",
                      (unsigned long long)v, b, prev);
        prev = b;
    }
}

static uint64_t usual_step_of(const unsigned (*spec)[2], int nspec)
{
    static uint64_t d[100000];
    size_t n = 0;
    for (int i = 0; i < nspec; i++)
        for (unsigned c = 0; c < spec[i][1]; c++) {
            cr_assert(n < sizeof d / sizeof d[0]);
            d[n++] = spec[i][0];
        }
    return sbfb_usual_step(d, n);
}

Test(bench_clock, kvm_phase_steps_are_not_the_resolution,
     .description = "26/52-tick steps with ~5% of 1 and 25 (KVM on AMD): the step is 26")
{
    static const unsigned spec[][2] = { { 52, 46980 }, { 1, 2700 }, { 26, 47600 },
                                        { 25, 2700 }, { 78, 20 } };
    cr_assert_eq(usual_step_of(spec, 5), 26u);
}

Test(bench_clock, coarse_counter, .description = "mostly equal reads, non-zero steps of 1")
{
    static const unsigned spec[][2] = { { 0, 90000 }, { 1, 9990 }, { 2, 10 } };
    cr_assert_eq(usual_step_of(spec, 3), 1u);
}

Test(bench_clock, fine_counter_read_cost,
     .description = "a fine counter whose reads cost 24-26 cycles: the smallest usual step")
{
    static const unsigned spec[][2] = { { 25, 40000 }, { 26, 30000 }, { 24, 29000 },
                                        { 3, 900 } };
    cr_assert_eq(usual_step_of(spec, 4), 24u);
}

Test(bench_clock, frozen_counter, .description = "a clock that never moves gives 1, not 0")
{
    static const unsigned spec[][2] = { { 0, 1000 } };
    cr_assert_eq(usual_step_of(spec, 1), 1u);
}
