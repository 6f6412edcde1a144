/*
 * Every public formula and sizing function over extreme arguments (issue 13,
 * finding 4): each returns a value in [0, 1] or NaN (sbf_size: a documented
 * code, and a valid geometry on success), and each call does bounded work.
 *
 * Work, not time (issue 20: a clock in a pass/fail test fails on a busy
 * machine): the library counts what the formulas do on the calling thread
 * (sbfi_fpr_count in src/fpr_internal.h: load values weighed, multiply-adds
 * of the blocked chain, loop trips, sizing evaluations), and every call here
 * must stay within SBFI_FPR_WORK_MAX multiply-add equivalents, about 10 ms
 * on the dev VM; sbf_size within SIZE_EVALS formula evaluations. The times
 * themselves are measured by tests/fpr_timing.c (`make fpr-timing`).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "simdbloom.h"
#include "fpr_internal.h"

/* Most formula evaluations one sbf_size call may make: the search walks to
 * a bracket in doubling (or extrapolated) steps, then bisects geometrically
 * and interpolates: at most 65 over 480,000 random calls and this sweep (the search before
 * issue 20 made up to 1,568, a k scan per size and 25% steps: 6 ms). */
#define SIZE_EVALS 100u
#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t worst_work;
static char worst_what[400];

static sbfi_fpr_counts counts_since(const sbfi_fpr_counts *c0)
{
    sbfi_fpr_counts d = sbfi_fpr_count;
    d.points -= c0->points;
    d.madds -= c0->madds;
    d.trips -= c0->trips;
    d.evals -= c0->evals;
    return d;
}

static void note_work(uint64_t w, const char *what)
{
    if (w > worst_work) {
        worst_work = w;
        snprintf(worst_what, sizeof worst_what, "%s", what);
    }
}

#define CHECK(expr, ...)                                                            \
    do {                                                                            \
        const sbfi_fpr_counts c0_ = sbfi_fpr_count;                                 \
        const double r_ = (expr);                                                   \
        const sbfi_fpr_counts d_ = counts_since(&c0_);                              \
        const uint64_t w_ = sbfi_fpr_work(&d_);                                     \
        char a_[200], e_[400];                                                      \
        snprintf(a_, sizeof a_, __VA_ARGS__);                                       \
        snprintf(e_, sizeof e_, "%s%s", #expr, a_);                                 \
        cr_assert(isnan(r_) || (r_ >= 0.0 && r_ <= 1.0), "%s = %.17g", e_, r_);     \
        note_work(w_, e_);                                                          \
        cr_assert(w_ <= SBFI_FPR_WORK_MAX, "%s: work %llu > %llu (points %llu, "    \
                  "multiply-adds %llu, trips %llu)", e_, (unsigned long long)w_,    \
                  (unsigned long long)SBFI_FPR_WORK_MAX,                            \
                  (unsigned long long)d_.points, (unsigned long long)d_.madds,      \
                  (unsigned long long)d_.trips);                                    \
    } while (0)

static const uint64_t U64[] = {
    0, 1, 2, 3, 64, 511, 512, 513, 10000, 1000000, UINT32_MAX, UINT64_C(1) << 32,
    UINT64_C(4278221319), UINT64_C(1) << 37, UINT64_C(1) << 53, UINT64_C(1) << 63, UINT64_MAX,
};
static const uint32_t U32[] = {
    0, 1, 2, 8, 16, 17, 33, 255, 256, 65536, 1u << 31, UINT32_MAX,
};
/* k and block sizes for the four-argument sweep (its cost is the product) */
static const uint32_t K4[] = { 0, 1, 16, 33, 255, 256, 1u << 31, UINT32_MAX };
static const uint32_t B4[] = { 0, 1, 32, 255, 512, 1u << 24, UINT32_MAX };

Test(fpr_bounds, issue_inputs,
     .description = "the stalling inputs of issue 13 return at once, with the right values")
{
    /* one key, one block, 2^32 - 1 throws: certainly a false positive */
    cr_assert_eq(sbf_fpp_blocked(1, 256, UINT32_MAX, 256), 1.0);
    /* every non-empty block is full: the chance a probe lands in one */
    const double p = sbf_fpp_blocked(1000, 10000, 4278221319u, 255);
    cr_assert(fabs(p - (1.0 - pow(38.0 / 39.0, 1000))) <= 1e-12, "%.17g", p);
    cr_assert_eq(sbf_fpp_layout(SBF_BLOCKED, UINT64_MAX, UINT64_C(1) << 37, 16), 1.0);
    cr_assert_eq(sbf_fpp_layout(SBF_COUNTING, 1, 512, UINT32_MAX), 1.0);
    cr_assert_eq(sbf_fpp_spread(SBF_BLOCKED, UINT64_MAX, UINT64_C(1) << 37, 16), 0.0);
    /* 2k = 510 positions: beyond the work bound, refused */
    cr_assert(isnan(sbf_fpp_spread(SBF_BLOCKED, 1000, 1u << 20, 255)));
    cr_assert(isnan(sbf_fpp_blocked(1000, 1u << 20, 192, 512)));
    /* but k = 128 in 512-bit blocks is still evaluated */
    cr_assert(sbf_fpp_blocked(1000, 1u << 20, 128, 512) > 0.0);
    /* the Poisson load beyond its window summed to 0/0 and gave 0 */
    cr_assert_eq(sbf_fpp_putze(UINT64_MAX, 512, 7, 512), 1.0);
    /* 2k overflowed 32 bits: q = 0 gave NaN */
    cr_assert(!isnan(sbf_fpp_spread(SBF_COUNTING, 1, 10000, 1u << 31)));
    /* the classic delta method stays a standard deviation of a rate */
    cr_assert_leq(sbf_fpp_spread(SBF_CLASSIC, 1, 127, 1024), 0.5);
}

Test(fpr_bounds, work_counter,
     .description = "the work counter counts: the load window of a known call, its chain, the tail's trips")
{
    /* n = 10^6 keys over 19,531 blocks of 512 bits: mean load 51.2, window
     * floor(51.2 - 12 sqrt(51.2) - 30) < 0 -> 0 .. ceil(51.2 + 12 sqrt(51.2)
     * + 40) = 178, so 179 load values weighed, and a chain of 8x8 matrices */
    sbfi_fpr_counts c0 = sbfi_fpr_count;
    cr_assert(fabs(sbf_fpp_blocked(1000000, 10000000, 7, 512) - 0.0096865397714689713) < 1e-15);
    sbfi_fpr_counts d = counts_since(&c0);
    cr_assert_eq(d.points, 179);
    cr_assert(d.madds >= 178 * 36, "one 8x8 triangular apply per load: %llu",
              (unsigned long long)d.madds);
    cr_assert_eq(d.evals, 0);
    /* the same Poisson(51.2) window; no chain */
    c0 = sbfi_fpr_count;
    (void)sbf_fpp_putze(1000000, 10000000, 7, 512);
    d = counts_since(&c0);
    cr_assert_eq(d.points, 179);
    cr_assert_eq(d.madds, 0);
    c0 = sbfi_fpr_count;
    (void)sbf_counting_saturation(1000000, 40000000, 7);
    d = counts_since(&c0);
    cr_assert(d.points > 0 && d.trips > 0);
}

Test(fpr_bounds, issue20_sizing,
     .description = "sbf_size(SBF_BLOCKED, 100, 2^-100, k 0) (44 ms in issue 20): same answer, few evaluations")
{
    uint64_t bits = 0;
    uint32_t k = 0;
    const sbfi_fpr_counts c0 = sbfi_fpr_count;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, ldexp(1.0, -100), &bits, &k), SBF_OK);
    const sbfi_fpr_counts d = counts_since(&c0);
    /* the answer of the scan over every k at every size tried, as before */
    cr_assert_eq(bits, UINT64_C(47411772928));
    cr_assert_eq(k, 16);
    cr_assert(d.evals <= 48, "%llu evaluations", (unsigned long long)d.evals);
    cr_assert(sbf_fpp_layout(SBF_BLOCKED, 100, bits, k) <= ldexp(1.0, -100));
    cr_assert(sbf_fpp_layout(SBF_BLOCKED, 100, bits - SBF_BLOCK_BITS, k) > ldexp(1.0, -100));
}

Test(fpr_bounds, three_argument_sweep, .timeout = 120,
     .description = "classic, split-block, layout, spread, saturation, Fan over extreme n, m, k")
{
    for (size_t a = 0; a < N(U64); a++) {
        for (size_t b = 0; b < N(U64); b++) {
            for (size_t c = 0; c < N(U32); c++) {
                const uint64_t n = U64[a], m = U64[b];
                const uint32_t k = U32[c];
                CHECK(sbf_fpp_classic(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n,
                      (unsigned long long)m, k);
                CHECK(sbf_fpp_split_block(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n,
                      (unsigned long long)m, k);
                CHECK(sbf_counting_saturation(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n,
                      (unsigned long long)m, k);
                CHECK(sbf_counting_fan_bound(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n,
                      (unsigned long long)m, k);
                for (int l = -1; l <= 4; l++) {
                    CHECK(sbf_fpp_layout(l, n, m, k), " layout %d (%llu, %llu, %u)", l,
                          (unsigned long long)n, (unsigned long long)m, k);
                    CHECK(sbf_fpp_spread(l, n, m, k), " layout %d (%llu, %llu, %u)", l,
                          (unsigned long long)n, (unsigned long long)m, k);
                }
            }
        }
    }
    cr_log_info("most work: %llu units, %s", (unsigned long long)worst_work, worst_what);
}

Test(fpr_bounds, four_argument_sweep, .timeout = 240,
     .description = "blocked exact and Putze over extreme n, m, k and block sizes")
{
    for (size_t a = 0; a < N(U64); a++)
        for (size_t b = 0; b < N(U64); b++)
            for (size_t c = 0; c < N(K4); c++)
                for (size_t d = 0; d < N(B4); d++) {
                    const uint64_t n = U64[a], m = U64[b];
                    const uint32_t k = K4[c], B = B4[d];
                    CHECK(sbf_fpp_blocked(n, m, k, B), "(%llu, %llu, %u, %u)",
                          (unsigned long long)n, (unsigned long long)m, k, B);
                    CHECK(sbf_fpp_putze(n, m, k, B), "(%llu, %llu, %u, %u)",
                          (unsigned long long)n, (unsigned long long)m, k, B);
                }
    cr_log_info("most work: %llu units, %s", (unsigned long long)worst_work, worst_what);
}

Test(fpr_bounds, size_sweep, .timeout = 120,
     .description = "sbf_size over extreme n, fpp (NaN, inf, negative, denormal, 0, 1) and k: a documented code, a valid geometry")
{
    static const double fpps[] = {
        NAN, INFINITY, -INFINITY, -0.5, -0.0, 0.0, 4.9406564584124654e-324,
        2.2250738585072014e-308, 1e-300, 1e-30, 1e-12, 0.001, 0.01, 0.5,
        0.999999, 1.0 - 1e-16, 1.0, 2.0,
    };
    for (int l = -1; l <= 4; l++)
        for (size_t a = 0; a < N(U64); a++)
            for (size_t b = 0; b < N(fpps); b++)
                for (size_t c = 0; c < N(U32); c++) {
                    uint64_t bits = 0;
                    uint32_t k = U32[c];
                    const sbfi_fpr_counts c0 = sbfi_fpr_count;
                    const int rc = sbf_size(l, U64[a], fpps[b], &bits, &k);
                    const sbfi_fpr_counts d = counts_since(&c0);
                    char what[200];
                    snprintf(what, sizeof what, "sbf_size(%d, %llu, %g, k %u)", l,
                             (unsigned long long)U64[a], fpps[b], U32[c]);
                    note_work(sbfi_fpr_work(&d), what);
                    cr_assert(sbfi_fpr_work(&d) <= SBFI_FPR_WORK_MAX, "%s: work %llu", what,
                              (unsigned long long)sbfi_fpr_work(&d));
                    cr_assert(d.evals <= SIZE_EVALS, "%s: %llu evaluations", what,
                              (unsigned long long)d.evals);
                    cr_assert(rc == SBF_OK || rc == SBF_E_LAYOUT || rc == SBF_E_FPP ||
                                  rc == SBF_E_K || rc == SBF_E_TOO_LARGE,
                              "sbf_size(%d, %llu, %g, %u) = %d", l,
                              (unsigned long long)U64[a], fpps[b], U32[c], rc);
                    if (l < 0 || l > 4)
                        cr_assert_eq(rc, SBF_E_LAYOUT);
                    else if (!(fpps[b] > 0.0 && fpps[b] < 1.0))
                        cr_assert_eq(rc, SBF_E_FPP);
                    if (rc != SBF_OK)
                        continue;
                    /* the geometry sbf_create would accept */
                    cr_assert(bits > 0 && bits <= SBF_MAX_BITS);
                    switch (l) {
                    case SBF_CLASSIC:
                        cr_assert(bits % 64 == 0 && bits <= UINT64_C(64) * INT32_MAX);
                        cr_assert(k >= 1 && k <= SBF_MAX_K_CLASSIC);
                        break;
                    case SBF_SPLIT_BLOCK:
                        cr_assert(k == 8 || k == 16);
                        cr_assert_eq(bits % (32u * k), 0);
                        break;
                    case SBF_PARQUET: /* a power of two, 256 bits .. 128 MiB */
                        cr_assert(k == 8 && bits >= 256 && bits <= (UINT64_C(1) << 30));
                        cr_assert_eq(bits & (bits - 1), 0);
                        break;
                    default:
                        cr_assert(k >= 1 && k <= SBF_MAX_K_BLOCKED);
                        cr_assert_eq(bits % SBF_BLOCK_BITS, 0);
                        break;
                    }
                    if (U32[c] != 0)
                        cr_assert_eq(k, U32[c], "a given k is kept");
                }
    cr_log_info("most work: %llu units, %s", (unsigned long long)worst_work, worst_what);
}

Test(fpr_bounds, theory_of_filters,
     .description = "sbf_fpp_theory and sbf_info on real filters at extreme key counts")
{
    static const struct { int layout; uint32_t k; } g[] = {
        { SBF_CLASSIC, 1 }, { SBF_CLASSIC, 255 }, { SBF_BLOCKED, 1 }, { SBF_BLOCKED, 16 },
        { SBF_SPLIT_BLOCK, 8 }, { SBF_SPLIT_BLOCK, 16 }, { SBF_COUNTING, 1 }, { SBF_COUNTING, 16 },
    };
    for (size_t i = 0; i < N(g); i++) {
        sbf_params p = { 0 };
        p.layout = g[i].layout;
        p.k = g[i].k;
        p.bits = 1u << 16;
        sbf_filter *f = NULL;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK);
        for (size_t a = 0; a < N(U64); a++)
            CHECK(sbf_fpp_theory(f, U64[a]), " layout %d k %u n %llu", g[i].layout, g[i].k,
                  (unsigned long long)U64[a]);
        const uint64_t keys[3] = { 1, 2, 3 };
        cr_assert_eq(sbf_add_u64(f, keys, 3), SBF_OK);
        struct sbf_info in;
        const sbfi_fpr_counts c0 = sbfi_fpr_count;
        cr_assert_eq(sbf_info(f, &in), SBF_OK);
        const sbfi_fpr_counts d = counts_since(&c0);
        cr_assert_leq(sbfi_fpr_work(&d), SBFI_FPR_WORK_MAX);
        cr_assert(in.fpp_now >= 0.0 && in.fpp_now <= 1.0);
        sbf_free(f);
    }
}
