/*
 * Worst-case CPU time of the public formula and sizing functions over a
 * sweep of extreme arguments (issue 13, finding 4: about 10 ms for any
 * argument). Not part of the suite (tests/test_fpr_bounds.c asserts a
 * generous bound there); a measuring tool:
 *
 *   make lib && cc -O2 -Iinclude tests/fpr_timing.c build/libsimdbloom.a -lm \
 *       -o build/fpr-timing && build/fpr-timing [quick]
 *
 * Prints, per function, the calls, their total and the three slowest with
 * their arguments (thread CPU time, so a busy machine inflates it less than
 * wall time), and any result outside [0, 1] that is not NaN. `quick` times
 * only the inputs the issue reported.
 */
#define _GNU_SOURCE 1
#include "simdbloom.h"
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

typedef struct worst { double t; char what[160]; } worst;
typedef struct stat { const char *name; unsigned long calls, bad; double total; worst w[3]; } stat;

static void note(stat *s, double t, double r, const char *what)
{
    s->calls++;
    s->total += t;
    if (!isnan(r) && !(r >= 0.0 && r <= 1.0)) {
        s->bad++;
        printf("OUT OF RANGE %s %s = %g\n", s->name, what, r);
    }
    for (int i = 0; i < 3; i++) {
        if (t > s->w[i].t) {
            memmove(&s->w[i + 1], &s->w[i], (size_t)(2 - i) * sizeof s->w[0]);
            s->w[i].t = t;
            snprintf(s->w[i].what, sizeof s->w[i].what, "%s", what);
            break;
        }
    }
}

static void report(const stat *s)
{
    printf("%-24s calls %7lu total %9.1f ms  out-of-range %lu  worst:", s->name, s->calls, s->total * 1e3, s->bad);
    for (int i = 0; i < 3 && s->w[i].t > 0; i++)
        printf(" %.3f ms %s;", s->w[i].t * 1e3, s->w[i].what);
    printf("\n");
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
static const uint64_t U64[] = {0, 1, 2, 3, 7, 64, 127, 128, 511, 512, 513, 1000, 10000, 1000000,
    4294967295u, 4294967296u, 4278221319u, 1ULL << 37, 1ULL << 53, 1ULL << 63, UINT64_MAX};
static const uint32_t U32[] = {0, 1, 2, 7, 8, 16, 17, 32, 33, 64, 128, 255, 256, 257, 512, 1024,
    65536, 1u << 24, 1u << 31, 4278221319u, UINT32_MAX};

#define TIME(st, expr, ...) do { char w_[160]; snprintf(w_, sizeof w_, __VA_ARGS__); \
    const double t0_ = now(); const double r_ = (expr); note(&(st), now() - t0_, r_, w_); } while (0)

int main(int argc, char **argv)
{
    const int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    stat s_cl = {.name = "sbf_fpp_classic"}, s_pu = {.name = "sbf_fpp_putze"}, s_bl = {.name = "sbf_fpp_blocked"},
         s_sp = {.name = "sbf_fpp_split_block"}, s_la = {.name = "sbf_fpp_layout"}, s_sd = {.name = "sbf_fpp_spread"},
         s_sa = {.name = "sbf_counting_saturation"}, s_fa = {.name = "sbf_counting_fan_bound"}, s_sz = {.name = "sbf_size"},
         s_th = {.name = "sbf_fpp_theory"};
    if (quick) {
        TIME(s_bl, sbf_fpp_blocked(1, 256, UINT32_MAX, 256), "(1, 256, UINT32_MAX, 256)");
        TIME(s_bl, sbf_fpp_blocked(1000, 10000, 4278221319u, 255), "(1000, 10000, 4278221319, 255)");
        TIME(s_la, sbf_fpp_layout(SBF_BLOCKED, 1, 512, UINT32_MAX), "(BLOCKED, 1, 512, UINT32_MAX)");
        TIME(s_la, sbf_fpp_layout(SBF_BLOCKED, UINT64_MAX, 1ULL << 37, 16), "(BLOCKED, UINT64_MAX, 2^37, 16)");
        TIME(s_la, sbf_fpp_layout(SBF_COUNTING, 1, 512, UINT32_MAX), "(COUNTING, 1, 512, UINT32_MAX)");
        TIME(s_sd, sbf_fpp_spread(SBF_BLOCKED, 1000, 1ULL << 20, UINT32_MAX), "(BLOCKED, 1000, 2^20, UINT32_MAX)");
        TIME(s_sd, sbf_fpp_spread(SBF_BLOCKED, UINT64_MAX, 1ULL << 37, 16), "(BLOCKED, UINT64_MAX, 2^37, 16)");
        TIME(s_sd, sbf_fpp_spread(SBF_BLOCKED, 1000, 1ULL << 20, 255), "(BLOCKED, 1000, 2^20, 255)");
        TIME(s_pu, sbf_fpp_putze(UINT64_MAX, 1ULL << 37, 16, 512), "(UINT64_MAX, 2^37, 16, 512)");
        TIME(s_sp, sbf_fpp_split_block(UINT64_MAX, 1ULL << 37, 16), "(UINT64_MAX, 2^37, 16)");
        TIME(s_sa, sbf_counting_saturation(UINT64_MAX, 1ULL << 37, 16), "(UINT64_MAX, 2^37, 16)");
        const stat *all[] = {&s_bl, &s_la, &s_sd, &s_pu, &s_sp, &s_sa};
        for (size_t i = 0; i < N(all); i++)
            report(all[i]);
        return 0;
    }
    for (size_t a = 0; a < N(U64); a++)
        for (size_t b = 0; b < N(U64); b++)
            for (size_t c = 0; c < N(U32); c++) {
                const uint64_t n = U64[a], m = U64[b];
                const uint32_t k = U32[c];
                TIME(s_cl, sbf_fpp_classic(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n, (unsigned long long)m, k);
                TIME(s_sp, sbf_fpp_split_block(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n, (unsigned long long)m, k);
                TIME(s_sa, sbf_counting_saturation(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n, (unsigned long long)m, k);
                TIME(s_fa, sbf_counting_fan_bound(n, m, k), "(%llu, %llu, %u)", (unsigned long long)n, (unsigned long long)m, k);
                for (int l = -1; l <= 4; l++) {
                    TIME(s_la, sbf_fpp_layout(l, n, m, k), "(%d, %llu, %llu, %u)", l, (unsigned long long)n, (unsigned long long)m, k);
                    TIME(s_sd, sbf_fpp_spread(l, n, m, k), "(%d, %llu, %llu, %u)", l, (unsigned long long)n, (unsigned long long)m, k);
                }
                for (size_t d = 0; d < N(U32); d++) {
                    TIME(s_pu, sbf_fpp_putze(n, m, k, U32[d]), "(%llu, %llu, %u, %u)", (unsigned long long)n, (unsigned long long)m, k, U32[d]);
                    TIME(s_bl, sbf_fpp_blocked(n, m, k, U32[d]), "(%llu, %llu, %u, %u)", (unsigned long long)n, (unsigned long long)m, k, U32[d]);
                }
            }
    static const double fpps[] = {NAN, INFINITY, -INFINITY, -0.5, 0.0, -0.0, 5e-324, 2.2250738585072014e-308,
        1e-300, 1e-100, 1e-30, 1e-12, 1e-6, 0.001, 0.01, 0.1, 0.5, 0.9, 0.999999, 1.0 - 1e-16, 1.0, 2.0};
    for (int l = -1; l <= 4; l++)
        for (size_t a = 0; a < N(U64); a++)
            for (size_t b = 0; b < N(fpps); b++)
                for (size_t c = 0; c < N(U32); c += 1) {
                    uint64_t bits = 0;
                    uint32_t k = U32[c];
                    char w[160];
                    snprintf(w, sizeof w, "(%d, %llu, %g, %u)", l, (unsigned long long)U64[a], fpps[b], U32[c]);
                    const double t0 = now();
                    const int rc = sbf_size(l, U64[a], fpps[b], &bits, &k);
                    note(&s_sz, now() - t0, rc <= 0 ? 0.0 : 2.0, w);
                }
    /* sbf_fpp_theory (what sbf_info calls) on real filters, any key count */
    for (int l = 0; l <= 3; l++)
        for (size_t a = 0; a < N(U64); a++) {
            sbf_params p = {0};
            p.layout = l;
            p.bits = 1 << 20;
            p.k = l == SBF_SPLIT_BLOCK ? 16 : l == SBF_CLASSIC ? 255 : 16;
            sbf_filter *f = NULL;
            if (sbf_create(&f, &p) != 0)
                return 1;
            TIME(s_th, sbf_fpp_theory(f, U64[a]), "(layout %d, n %llu)", l, (unsigned long long)U64[a]);
            sbf_free(f);
        }
    const stat *all[] = {&s_cl, &s_pu, &s_bl, &s_sp, &s_la, &s_sd, &s_sa, &s_fa, &s_sz, &s_th};
    for (size_t i = 0; i < N(all); i++)
        report(all[i]);
    return 0;
}
