/*
 * Latency timing: every call timed on its own with the cycle counter
 * (TSC on x86, CNTVCT on aarch64), converted to ns with the measured
 * frequency, into the histogram of bench_hist.c. The cost of the timer
 * itself (the median of empty begin/end pairs) is subtracted from every
 * sample and reported.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LAT_BATCH 256u

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Median cost of an empty timed region, in ticks. */
static uint64_t timer_overhead(void)
{
    enum { N = 20001 };
    uint64_t *s = sbfb_xmalloc(N * sizeof *s);
    for (int i = 0; i < 1000; i++) {
        const uint64_t t0 = sbfb_ticks_begin();
        s[0] = sbfb_ticks_end() - t0;
    }
    for (int i = 0; i < N; i++) {
        const uint64_t t0 = sbfb_ticks_begin();
        s[i] = sbfb_ticks_end() - t0;
    }
    qsort(s, N, sizeof *s, cmp_u64);
    const uint64_t med = s[N / 2];
    free(s);
    return med;
}

typedef struct acc {
    uint64_t *counts;
    uint64_t n, min, max;
    double sum;
} acc;

static inline void acc_add(acc *a, uint64_t d)
{
    a->counts[sbfb_hist_bucket(d)]++;
    a->n++;
    a->sum += (double)d;
    if (d < a->min)
        a->min = d;
    if (d > a->max)
        a->max = d;
}

static double percentile_ticks(const acc *a, double q)
{
    const double rank = ceil(q * (double)a->n);
    uint64_t cum = 0;
    for (unsigned i = 0; i < SBFB_LAT_BUCKETS; i++) {
        cum += a->counts[i];
        if ((double)cum >= rank && a->counts[i]) {
            double lo, hi;
            sbfb_hist_range(i, &lo, &hi);
            double v = i < 2 * SBFB_LAT_SUB ? lo : (lo + hi) / 2;
            if (v < (double)a->min)
                v = (double)a->min;
            if (v > (double)a->max)
                v = (double)a->max;
            return v;
        }
    }
    return (double)a->max;
}

static void finish(sbfb_lat *l, const acc *a, double ovh_ticks, double hz)
{
    const double ns = 1e9 / hz;
    l->samples = a->n;
    l->overhead_ns = ovh_ticks * ns;
    l->min = (double)a->min * ns;
    l->max = (double)a->max * ns;
    l->mean = a->sum / (double)a->n * ns;
    l->p50 = percentile_ticks(a, 0.50) * ns;
    l->p90 = percentile_ticks(a, 0.90) * ns;
    l->p99 = percentile_ticks(a, 0.99) * ns;
    l->p999 = percentile_ticks(a, 0.999) * ns;
    l->p9999 = percentile_ticks(a, 0.9999) * ns;
    l->counts = a->counts;
}

static volatile uint64_t g_lat_sink;

static void time_single(const sbf_filter *f, const uint64_t *keys, size_t P,
                        uint64_t samples, uint64_t ovh, acc *a)
{
    uint64_t hits = 0;
    for (size_t i = 0; i < P && i < 20000; i++)  /* warm */
        hits += (uint64_t)sbf_contains(f, &keys[i], 8);
    for (uint64_t i = 0; i < samples; i++) {
        const uint64_t *kp = &keys[i % P];
        const uint64_t t0 = sbfb_ticks_begin();
        hits += (uint64_t)sbf_contains(f, kp, 8);
        const uint64_t d = sbfb_ticks_end() - t0;
        acc_add(a, d > ovh ? d - ovh : 0);
    }
    g_lat_sink += hits;
}

static void time_batch(const sbf_filter *f, const uint64_t *keys, size_t P,
                       uint64_t samples, uint64_t ovh, acc *a)
{
    uint8_t out[LAT_BATCH];
    const size_t span = P > LAT_BATCH ? P - LAT_BATCH : 1;
    uint64_t hits = 0;
    for (uint64_t i = 0; i < samples / 8 + 1; i++)  /* warm */
        hits += sbf_contains_u64(f, &keys[(i * LAT_BATCH) % span], LAT_BATCH, out);
    for (uint64_t i = 0; i < samples; i++) {
        const uint64_t *kp = &keys[(i * LAT_BATCH) % span];
        const uint64_t t0 = sbfb_ticks_begin();
        hits += sbf_contains_u64(f, kp, LAT_BATCH, out);
        const uint64_t d = sbfb_ticks_end() - t0;
        acc_add(a, d > ovh ? d - ovh : 0);
    }
    g_lat_sink += hits;
}

void sbfb_latency_filter(const sbfb_opts *o, sbfb_results *r, const sbf_filter *f,
                         int isa, int layout, int size_idx, size_t bytes,
                         const uint64_t *pos, const uint64_t *neg, size_t P)
{
    const double hz = sbfb_ticks_hz();
    const uint64_t ovh = timer_overhead();
    if (P < LAT_BATCH + 1)
        return;
    static const char *const what[3] = { "positive", "negative", "mixed" };
    for (int w = 0; w < 3; w++) {
        const int batch = w == 2;
        acc a = { calloc(SBFB_LAT_BUCKETS, sizeof(uint64_t)), 0, UINT64_MAX, 0, 0 };
        if (a.counts == NULL)
            return;
        if (!batch) {
            time_single(f, w == 0 ? pos : neg, P, o->lat_samples, ovh, &a);
        } else {
            /* Batches mix the two halves: positives then negatives. */
            const uint64_t ns = o->lat_samples / 64 < 2000 ? 2000 : o->lat_samples / 64;
            uint64_t *mix = sbfb_xmalloc(P * sizeof *mix);
            for (size_t i = 0; i < P; i++)
                mix[i] = (i / LAT_BATCH) % 2 ? neg[i] : pos[i];
            time_batch(f, mix, P, ns, ovh, &a);
            free(mix);
        }
        sbfb_lat *l = sbfb_add_lat(r);
        l->layout = layout;
        l->isa = isa;
        l->size_idx = size_idx;
        l->bytes = bytes;
        l->op = "contains";
        l->mode = batch ? "batch" : "single";
        l->lookup = batch ? "alternating" : what[w];
        l->batch = batch ? LAT_BATCH : 1;
        snprintf(l->name, sizeof l->name, "%s %s %s %s", sbfb_layout_name(layout),
                 o->sizes[size_idx].label, batch ? "batch256" : "single",
                 batch ? "alternating" : what[w]);
        finish(l, &a, (double)ovh, hz);
    }
}
