/*
 * Every public formula and sizing function over extreme arguments (issue 13,
 * finding 4): each returns a value in [0, 1] or NaN (sbf_size: a documented
 * code, and a valid geometry on success), and each call returns quickly.
 *
 * The time bound is generous (50 ms of this thread's CPU time per call,
 * against about 10 ms at worst measured at -O3): it catches a call that
 * grows with its arguments, as sbf_fpp_blocked(1, 256, UINT32_MAX, 256)
 * once did (220 ms), not a slow machine. Sanitizer builds skip it.
 */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "simdbloom.h"

#if defined(__SANITIZE_ADDRESS__)
#  define FB_SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#    define FB_SANITIZED 1
#  endif
#endif
#ifndef FB_SANITIZED
#  define FB_SANITIZED 0
#endif

#define FB_LIMIT 0.050 /* seconds of CPU time per call */
#define N(a) (sizeof(a) / sizeof((a)[0]))

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double worst_t;
static char worst_what[400];

#define CHECK(expr, ...)                                                            \
    do {                                                                            \
        const double t0_ = cpu_now();                                               \
        const double r_ = (expr);                                                   \
        const double t_ = cpu_now() - t0_;                                          \
        char w_[200];                                                               \
        snprintf(w_, sizeof w_, __VA_ARGS__);                                       \
        cr_assert(isnan(r_) || (r_ >= 0.0 && r_ <= 1.0), "%s%s = %.17g", #expr, w_, r_); \
        if (t_ > worst_t) {                                                         \
            worst_t = t_;                                                           \
            snprintf(worst_what, sizeof worst_what, "%s%s", #expr, w_);             \
        }                                                                           \
        if (!FB_SANITIZED)                                                          \
            cr_assert(t_ < FB_LIMIT, "%s%s took %.1f ms", #expr, w_, t_ * 1e3);     \
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
    cr_log_info("slowest call: %.3f ms CPU, %s", worst_t * 1e3, worst_what);
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
    cr_log_info("slowest call: %.3f ms CPU, %s", worst_t * 1e3, worst_what);
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
                    const double t0 = cpu_now();
                    const int rc = sbf_size(l, U64[a], fpps[b], &bits, &k);
                    const double t = cpu_now() - t0;
                    if (!FB_SANITIZED)
                        cr_assert(t < FB_LIMIT, "sbf_size(%d, %llu, %g, k %u) took %.1f ms", l,
                                  (unsigned long long)U64[a], fpps[b], U32[c], t * 1e3);
                    if (t > worst_t)
                        worst_t = t;
                    cr_assert(rc == SBF_OK || rc == SBF_E_LAYOUT || rc == SBF_E_FPP ||
                                  rc == SBF_E_K || rc == SBF_E_TOO_LARGE,
                              "sbf_size(%d, %llu, %g, %u) = %d", l,
                              (unsigned long long)U64[a], fpps[b], U32[c], rc);
                    if (l < 0 || l > 3)
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
                    default:
                        cr_assert(k >= 1 && k <= SBF_MAX_K_BLOCKED);
                        cr_assert_eq(bits % SBF_BLOCK_BITS, 0);
                        break;
                    }
                    if (U32[c] != 0)
                        cr_assert_eq(k, U32[c], "a given k is kept");
                }
    cr_log_info("slowest sbf_size: %.3f ms CPU", worst_t * 1e3);
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
        const double t0 = cpu_now();
        cr_assert_eq(sbf_info(f, &in), SBF_OK);
        if (!FB_SANITIZED)
            cr_assert_lt(cpu_now() - t0, FB_LIMIT);
        cr_assert(in.fpp_now >= 0.0 && in.fpp_now <= 1.0);
        sbf_free(f);
    }
}
