/*
 * The latency histogram: log-linear buckets of a row's unit (a timer tick,
 * or a tick / G when each sample is the sum of G calls), exact below 128
 * units, then 64 linear steps per power of two (at most 1.6% wide), like
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
    const unsigned e = 63u - (unsigned)__builtin_clzll(v); /* > SBFB_LAT_SUB_LOG2 */
    const unsigned shift = e - SBFB_LAT_SUB_LOG2;
    return SBFB_LAT_SUB * (shift + 1) + (unsigned)((v >> shift) & (SBFB_LAT_SUB - 1));
}

void sbfb_hist_range(unsigned idx, double *lo, double *hi)
{
    if (idx < 2 * SBFB_LAT_SUB) {
        *lo = idx;
        *hi = idx + 1;
        return;
    }
    const unsigned shift = idx / SBFB_LAT_SUB - 1, sub = idx % SBFB_LAT_SUB;
    *lo = ldexp((double)(SBFB_LAT_SUB + sub), (int)shift);
    *hi = *lo + ldexp(1.0, (int)shift);
}

/* The body from the minimum to p99 in at most HIST_ROWS rows of equal
 * width, a whole number of clock resolutions (the samples are multiples of
 * it: finer rows would alternate full and empty), centred on them; then one
 * line for the 1% beyond (its percentiles are printed above the bars). */
#define HIST_ROWS 24

void sbfb_lat_print_hist(FILE *out, const sbfb_lat *l)
{
    fprintf(out, "  %s: n=%llu", l->name, (unsigned long long)l->samples);
    if (l->group > 1)
        fprintf(out, ", each sample the mean of G=%u calls", l->group);
    fprintf(out, "; timer overhead %.1f ns subtracted per sample; resolution %.2f ns\n",
            l->overhead_ns, l->resolution_ns);
    fprintf(out, "  min %.2f  p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %.2f ns\n",
            l->min, l->p50, l->p90, l->p99, l->p999, l->p9999, l->max);
    const double res = l->resolution_ns > 0 ? l->resolution_ns : l->unit_ns;
    const double w = res * ceil((l->p99 - l->min) / HIST_ROWS / res + 1e-9);
    const double start = l->min - res / 2;
    uint64_t rows[HIST_ROWS + 2] = {0}, peak = 0, tail = 0;
    int nrows = 0;
    for (unsigned i = 0; i < SBFB_LAT_BUCKETS; i++) {
        if (!l->counts[i])
            continue;
        double lo, hi;
        sbfb_hist_range(i, &lo, &hi);
        const double at = (lo + hi) / 2 * l->unit_ns;
        const int row = at <= start ? 0 : (int)((at - start) / w);
        if (at > l->p99 + res / 2 || row > HIST_ROWS) {
            tail += l->counts[i];
            continue;
        }
        rows[row] += l->counts[i];
        nrows = row + 1 > nrows ? row + 1 : nrows;
    }
    for (int i = 0; i < nrows; i++)
        peak = rows[i] > peak ? rows[i] : peak;
    for (int i = 0; i < nrows; i++) {
        const int bw = peak ? (int)((double)rows[i] * 50.0 / (double)peak + 0.5) : 0;
        char bar[64];
        memset(bar, '#', (size_t)bw);
        bar[bw] = '\0';
        if (bw == 0 && rows[i])
            snprintf(bar, sizeof bar, ".");
        fprintf(out, "  %9.2f - %9.2f ns %10llu %s\n", start + i * w, start + (i + 1) * w,
                (unsigned long long)rows[i], bar);
    }
    if (tail)
        fprintf(out, "  %9s > %9.2f ns %10llu\n", "", start + nrows * w,
                (unsigned long long)tail);
}
