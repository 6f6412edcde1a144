/*
 * The latency histogram: log-linear buckets of timer ticks, exact below 32
 * ticks, then 16 linear steps per power of two (at most 6.25% wide), like
 * HdrHistogram; and its ASCII rendering. Shared by the timing
 * (bench_lat.c) and every output that shows buckets.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <string.h>

unsigned sbfb_hist_bucket(uint64_t v)
{
    if (v < 2 * SBFB_LAT_SUB)
        return (unsigned)v;
    const unsigned e = 63u - (unsigned)__builtin_clzll(v); /* >= 5 */
    return SBFB_LAT_SUB * (e - 3) + (unsigned)((v >> (e - 4)) & (SBFB_LAT_SUB - 1));
}

void sbfb_hist_range(unsigned idx, double *lo, double *hi)
{
    if (idx < 2 * SBFB_LAT_SUB) {
        *lo = idx;
        *hi = idx + 1;
        return;
    }
    const unsigned e = idx / SBFB_LAT_SUB + 3, sub = idx % SBFB_LAT_SUB;
    *lo = ldexp((double)(SBFB_LAT_SUB + sub), (int)e - 4);
    *hi = *lo + ldexp(1.0, (int)e - 4);
}

/* Coarse rows (a quarter of a power of two) from p0 to p99.99, then the tail. */
void sbfb_lat_print_hist(FILE *out, const sbfb_lat *l)
{
    const double tick_ns = 1e9 / sbfb_ticks_hz();
    uint64_t rows[SBFB_LAT_BUCKETS / 4];
    double rlo[SBFB_LAT_BUCKETS / 4], rhi[SBFB_LAT_BUCKETS / 4];
    int nrows = 0;
    uint64_t peak = 0, cum = 0, tail = 0;
    const double stop = l->p9999 / tick_ns;
    for (unsigned i = 0; i < SBFB_LAT_BUCKETS; i += 4) {
        uint64_t c = 0;
        for (unsigned j = i; j < i + 4; j++)
            c += l->counts[j];
        double lo, hi, lo2, hi2;
        sbfb_hist_range(i, &lo, &hi);
        sbfb_hist_range(i + 3, &lo2, &hi2);
        if (lo > stop) {
            tail += c;
            continue;
        }
        if (c == 0 && cum == 0)
            continue;
        cum += c;
        rows[nrows] = c;
        rlo[nrows] = lo * tick_ns;
        rhi[nrows] = hi2 * tick_ns;
        if (c > peak)
            peak = c;
        nrows++;
    }
    while (nrows > 0 && rows[nrows - 1] == 0)
        nrows--;
    fprintf(out, "  %s: n=%llu, timer overhead %.1f ns subtracted\n", l->name,
            (unsigned long long)l->samples, l->overhead_ns);
    fprintf(out, "  min %.1f  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f ns\n",
            l->min, l->p50, l->p90, l->p99, l->p999, l->p9999, l->max);
    for (int i = 0; i < nrows; i++) {
        const int w = peak ? (int)((double)rows[i] * 50.0 / (double)peak + 0.5) : 0;
        char bar[64];
        memset(bar, '#', (size_t)w);
        bar[w] = '\0';
        if (w == 0 && rows[i])
            snprintf(bar, sizeof bar, ".");
        fprintf(out, "  %9.1f - %9.1f ns %10llu %s\n", rlo[i], rhi[i],
                (unsigned long long)rows[i], bar);
    }
    if (tail)
        fprintf(out, "  %9s > %9.1f ns %10llu\n", "", l->p9999, (unsigned long long)tail);
}
