/*
 * Time and counted work of the public formula and sizing functions over
 * sweeps of extreme arguments (issue 13, finding 4; issue 20: about 10 ms
 * for any argument on a quiet machine). The pass/fail test is
 * tests/test_fpr_bounds.c, which bounds the counted work (src/fpr_internal.h,
 * SBFI_FPR_WORK_MAX) and never a time; this tool is where the times live:
 *
 *   make fpr-timing && build/fpr-timing [quick|size]
 *
 * Per function: calls, total CPU time, the three slowest calls with their
 * arguments and counted work, the most work any call did; then the time one
 * work unit took (median and worst over the calls above 0.2 ms), which times
 * SBFI_FPR_WORK_MAX gives the worst time the work bound allows on this
 * machine. `size` runs only the sizing grid of issue 20 (4 layouts x 20 key
 * counts x 30 rates 2^-1..2^-117 x 4 k = 9,600 calls) and counts the calls
 * over 10 ms; `quick` only the inputs issues 13 and 20 reported.
 * Thread CPU time, so a busy machine inflates it less than wall time; it is
 * still inflated when another process shares the core's caches.
 */
#define _GNU_SOURCE 1
#include "simdbloom.h"
#include "fpr_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct worst {
    double t;
    uint64_t work;
    char what[160];
} worst;

typedef struct stat {
    const char *name;
    unsigned long calls, bad, over10;
    double total;
    uint64_t max_work;
    char max_work_what[160];
    worst w[3];
} stat;

/* ns per work unit of the calls long enough to time (> 0.2 ms) */
static double unit_ns[1 << 16];
static size_t n_unit;

static void note(stat *s, double t, uint64_t work, double r, const char *what)
{
    s->calls++;
    s->total += t;
    s->over10 += t > 0.010;
    if (!isnan(r) && !(r >= 0.0 && r <= 1.0)) {
        s->bad++;
        printf("OUT OF RANGE %s %s = %g\n", s->name, what, r);
    }
    if (work > s->max_work) {
        s->max_work = work;
        snprintf(s->max_work_what, sizeof s->max_work_what, "%s", what);
    }
    if (t > 2e-4 && work > 0 && n_unit < sizeof unit_ns / sizeof unit_ns[0])
        unit_ns[n_unit++] = t * 1e9 / (double)work;
    for (int i = 0; i < 3; i++) {
        if (t > s->w[i].t) {
            memmove(&s->w[i + 1], &s->w[i], (size_t)(2 - i) * sizeof s->w[0]);
            s->w[i].t = t;
            s->w[i].work = work;
            snprintf(s->w[i].what, sizeof s->w[i].what, "%s", what);
            break;
        }
    }
}

static void report(const stat *s)
{
    if (s->calls == 0)
        return;
    printf("%-24s calls %7lu total %9.1f ms, over 10 ms %lu, out of range %lu\n", s->name,
           s->calls, s->total * 1e3, s->over10, s->bad);
    for (int i = 0; i < 3 && s->w[i].t > 0; i++)
        printf("    %8.3f ms  work %10llu  %s\n", s->w[i].t * 1e3,
               (unsigned long long)s->w[i].work, s->w[i].what);
    printf("    most work %llu (%.1f%% of the bound) %s\n", (unsigned long long)s->max_work,
           100.0 * (double)s->max_work / (double)SBFI_FPR_WORK_MAX, s->max_work_what);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report_units(void)
{
    if (n_unit == 0)
        return;
    qsort(unit_ns, n_unit, sizeof unit_ns[0], cmp_double);
    const double med = unit_ns[n_unit / 2], hi = unit_ns[n_unit - 1];
    printf("one work unit: median %.3f ns, worst %.3f ns over %zu calls above 0.2 ms;"
           " the bound (%llu units) allows %.1f ms at the median, %.1f ms at the worst\n",
           med, hi, n_unit, (unsigned long long)SBFI_FPR_WORK_MAX,
           med * (double)SBFI_FPR_WORK_MAX * 1e-6, hi * (double)SBFI_FPR_WORK_MAX * 1e-6);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define ULL(x) ((unsigned long long)(x))
static const uint64_t U64[] = {0, 1, 2, 3, 7, 64, 127, 128, 511, 512, 513, 1000, 10000, 1000000,
    4294967295u, 4294967296u, 4278221319u, 1ULL << 37, 1ULL << 53, 1ULL << 63, UINT64_MAX};
static const uint32_t U32[] = {0, 1, 2, 7, 8, 16, 17, 32, 33, 64, 128, 255, 256, 257, 512, 1024,
    65536, 1u << 24, 1u << 31, 4278221319u, UINT32_MAX};

/* time and count one call */
#define TIME(st, expr, ...)                                                        \
    do {                                                                           \
        char w_[160];                                                              \
        snprintf(w_, sizeof w_, __VA_ARGS__);                                      \
        const sbfi_fpr_counts c0_ = sbfi_fpr_count;                                \
        const double t0_ = now();                                                  \
        const double r_ = (expr);                                                  \
        const double t_ = now() - t0_;                                             \
        sbfi_fpr_counts d_ = sbfi_fpr_count;                                       \
        d_.points -= c0_.points;                                                   \
        d_.madds -= c0_.madds;                                                     \
        d_.trips -= c0_.trips;                                                     \
        d_.evals -= c0_.evals;                                                     \
        note(&(st), t_, sbfi_fpr_work(&d_), r_, w_);                               \
    } while (0)

enum { S_CL, S_PU, S_BL, S_SP, S_LA, S_SD, S_SA, S_FA, S_SZ, S_TH, S_N };
static stat st[S_N] = {
    {.name = "sbf_fpp_classic"}, {.name = "sbf_fpp_putze"}, {.name = "sbf_fpp_blocked"},
    {.name = "sbf_fpp_split_block"}, {.name = "sbf_fpp_layout"}, {.name = "sbf_fpp_spread"},
    {.name = "sbf_counting_saturation"}, {.name = "sbf_counting_fan_bound"},
    {.name = "sbf_size"}, {.name = "sbf_fpp_theory"},
};

static double size_call(int l, uint64_t n, double fpp, uint32_t k)
{
    uint64_t bits = 0;
    const int rc = sbf_size(l, n, fpp, &bits, &k);
    return rc <= 0 ? 0.0 : 2.0; /* a positive code would be out of range */
}

static void quick(void)
{
    TIME(st[S_BL], sbf_fpp_blocked(1, 256, UINT32_MAX, 256), "(1, 256, UINT32_MAX, 256)");
    TIME(st[S_BL], sbf_fpp_blocked(1000, 10000, 4278221319u, 255), "(1000, 10000, 4278221319, 255)");
    TIME(st[S_BL], sbf_fpp_blocked(UINT64_MAX, 1ULL << 63, 16, UINT32_MAX),
         "(UINT64_MAX, 2^63, 16, UINT32_MAX)");
    TIME(st[S_LA], sbf_fpp_layout(SBF_BLOCKED, UINT64_MAX, 1ULL << 37, 16), "(BLOCKED, UINT64_MAX, 2^37, 16)");
    TIME(st[S_SD], sbf_fpp_spread(SBF_BLOCKED, 1000, 1ULL << 20, 255), "(BLOCKED, 1000, 2^20, 255)");
    TIME(st[S_PU], sbf_fpp_putze(UINT64_MAX, 1ULL << 37, 16, 512), "(UINT64_MAX, 2^37, 16, 512)");
    TIME(st[S_SZ], size_call(SBF_BLOCKED, 64, 1e-30, 0), "(BLOCKED, 64, 1e-30, k 0)");
    TIME(st[S_SZ], size_call(SBF_BLOCKED, 100, ldexp(1, -100), 0), "(BLOCKED, 100, 2^-100, k 0)");
    TIME(st[S_SZ], size_call(SBF_BLOCKED, 64, ldexp(1, -101), 0), "(BLOCKED, 64, 2^-101, k 0)");
    TIME(st[S_SZ], size_call(SBF_COUNTING, 100, ldexp(1, -69), 0), "(COUNTING, 100, 2^-69, k 0)");
}

/* the 9,600-call sizing grid of issue 20 */
static void size_grid(void)
{
    static const uint64_t ns[] = {1, 2, 3, 10, 30, 64, 100, 300, 1000, 10000, 100000, 1000000,
        10000000, 100000000, 1000000000, 10000000000ULL, 1000000000000ULL, 1ULL << 50,
        1ULL << 62, UINT64_MAX};
    static const uint32_t ks[] = {0, 1, 8, 16};
    for (int l = 0; l < 4; l++)
        for (size_t a = 0; a < N(ns); a++)
            for (int e = 1; e <= 120; e += 4)
                for (size_t c = 0; c < N(ks); c++)
                    TIME(st[S_SZ], size_call(l, ns[a], ldexp(1, -e), ks[c]),
                         "(%d, %llu, 2^-%d, k %u)", l, ULL(ns[a]), e, ks[c]);
}

/* every formula over extreme n, m, k (and block sizes) */
static void formula_sweep(void)
{
    for (size_t a = 0; a < N(U64); a++)
        for (size_t b = 0; b < N(U64); b++)
            for (size_t c = 0; c < N(U32); c++) {
                const uint64_t n = U64[a], m = U64[b];
                const uint32_t k = U32[c];
                TIME(st[S_CL], sbf_fpp_classic(n, m, k), "(%llu, %llu, %u)", ULL(n), ULL(m), k);
                TIME(st[S_SP], sbf_fpp_split_block(n, m, k), "(%llu, %llu, %u)", ULL(n), ULL(m), k);
                TIME(st[S_SA], sbf_counting_saturation(n, m, k), "(%llu, %llu, %u)", ULL(n), ULL(m), k);
                TIME(st[S_FA], sbf_counting_fan_bound(n, m, k), "(%llu, %llu, %u)", ULL(n), ULL(m), k);
                for (int l = -1; l <= 4; l++) {
                    TIME(st[S_LA], sbf_fpp_layout(l, n, m, k), "(%d, %llu, %llu, %u)", l, ULL(n), ULL(m), k);
                    TIME(st[S_SD], sbf_fpp_spread(l, n, m, k), "(%d, %llu, %llu, %u)", l, ULL(n), ULL(m), k);
                }
                for (size_t d = 0; d < N(U32); d++) {
                    TIME(st[S_PU], sbf_fpp_putze(n, m, k, U32[d]), "(%llu, %llu, %u, %u)", ULL(n),
                         ULL(m), k, U32[d]);
                    TIME(st[S_BL], sbf_fpp_blocked(n, m, k, U32[d]), "(%llu, %llu, %u, %u)", ULL(n),
                         ULL(m), k, U32[d]);
                }
            }
}

/* sbf_size over extreme rates, and sbf_fpp_theory (sbf_info) on real filters */
static int size_and_theory_sweep(void)
{
    static const double fpps[] = {NAN, INFINITY, -INFINITY, -0.5, 0.0, -0.0, 5e-324,
        2.2250738585072014e-308, 1e-300, 1e-100, 1e-30, 1e-12, 1e-6, 0.001, 0.01, 0.1, 0.5,
        0.9, 0.999999, 1.0 - 1e-16, 1.0, 2.0};
    for (int l = -1; l <= 4; l++)
        for (size_t a = 0; a < N(U64); a++)
            for (size_t b = 0; b < N(fpps); b++)
                for (size_t c = 0; c < N(U32); c++)
                    TIME(st[S_SZ], size_call(l, U64[a], fpps[b], U32[c]), "(%d, %llu, %g, k %u)", l,
                         ULL(U64[a]), fpps[b], U32[c]);
    for (int l = 0; l <= 3; l++)
        for (size_t a = 0; a < N(U64); a++) {
            sbf_params p = {0};
            p.layout = l;
            p.bits = 1 << 20;
            p.k = l == SBF_SPLIT_BLOCK ? 16 : l == SBF_CLASSIC ? 255 : 16;
            sbf_filter *f = NULL;
            if (sbf_create(&f, &p) != 0)
                return 1;
            TIME(st[S_TH], sbf_fpp_theory(f, U64[a]), "(layout %d, n %llu)", l, ULL(U64[a]));
            sbf_free(f);
        }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "quick") == 0) {
        quick();
    } else if (strcmp(mode, "size") == 0) {
        size_grid();
    } else {
        quick();
        formula_sweep();
        if (size_and_theory_sweep() != 0)
            return 1;
        size_grid();
    }
    for (int i = 0; i < S_N; i++)
        report(&st[i]);
    report_units();
    return 0;
}
