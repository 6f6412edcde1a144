/*
 * Latency timing with the cycle counter (TSC on x86, CNTVCT on aarch64),
 * converted to ns with the measured frequency, into the histogram of
 * bench_hist.c.
 *
 * What the clock resolves decides how calls are timed. The clock steps by
 * gran ticks (sbfb_clock_get; a virtual machine's TSC and aarch64's generic
 * counter step by several ns, longer than a cached call), and a timed
 * region costs a few steps. A call shorter than 20 steps would be a
 * staircase of steps, so such calls are timed in groups of G consecutive
 * calls, G chosen so that a group spans at least 50 steps, and each sample
 * is the group's time / G: a per-call mean that resolves gran / G. Filters
 * larger than the L2 cache keep G = 1 (each call timed alone) whatever
 * their length: their tails are what those rows are for.
 *
 * Two kinds of single-key rows:
 *   chain        the index of the next key is computed from the previous
 *                answer (i += 1 + answer), as in a pointer chase: a call
 *                cannot start before the previous answer is known (except
 *                as far as the CPU predicts it): the latency a caller waits;
 *   independent  consecutive keys, as a hot loop runs them: calls overlap
 *                in the CPU, so this is the cost per call of a stream.
 * The batched rows time sbf_contains_u64 on 256 keys (batches of present
 * and absent keys alternating), with the same choice of G.
 *
 * The cost of an empty timed region (median of empty begin/end pairs) is
 * subtracted from each sample (once per group) and reported.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LAT_BATCH 256u
#define GROUP_BELOW 20   /* clock steps: shorter calls are grouped */
#define GROUP_SPAN 50    /* clock steps a group spans at least */
#define GROUP_MAX 4096u

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

/* The q-quantile in histogram units: the bucket's midpoint (exact buckets:
 * the value), clamped to the exact minimum and maximum. */
static double percentile_units(const acc *a, double q)
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

static void finish(sbfb_lat *l, const acc *a, double ovh_ticks)
{
    const sbfb_clock *c = sbfb_clock_get();
    const double u = c->tick_ns / l->group;
    l->samples = a->n;
    l->overhead_ns = ovh_ticks * c->tick_ns;
    l->unit_ns = u;
    l->resolution_ns = (double)c->gran_ticks * c->tick_ns / l->group;
    l->min = (double)a->min * u;
    l->max = (double)a->max * u;
    l->mean = a->sum / (double)a->n * u;
    l->p50 = percentile_units(a, 0.50) * u;
    l->p90 = percentile_units(a, 0.90) * u;
    l->p99 = percentile_units(a, 0.99) * u;
    l->p999 = percentile_units(a, 0.999) * u;
    l->p9999 = percentile_units(a, 0.9999) * u;
    l->counts = a->counts;
}

static volatile uint64_t g_lat_sink;

/* What one histogram times: calls on keys[0..P) of f. */
typedef struct latjob {
    const sbf_filter *f;
    const uint64_t *keys;
    size_t P;
    int chain;          /* single keys: the next index from the answer */
    unsigned batch;     /* keys per call: 1 (sbf_contains) or LAT_BATCH */
    uint8_t *out;       /* LAT_BATCH answers */
} latjob;

/* G consecutive calls from key index *pos; returns the hits. */
static inline uint64_t run_calls(const latjob *j, size_t *pos, unsigned G)
{
    size_t i = *pos;
    uint64_t hits = 0;
    if (j->batch > 1) {
        for (unsigned g = 0; g < G; g++) {
            hits += sbf_contains_u64(j->f, &j->keys[i], j->batch, j->out);
            i += j->batch;
            if (i + j->batch > j->P)
                i = 0;
        }
    } else if (j->chain) {
        for (unsigned g = 0; g < G; g++) {
            const int h = sbf_contains(j->f, &j->keys[i], 8);
            hits += (uint64_t)(h & 1);
            i += 1 + (size_t)(h & 1);   /* data-dependent on the answer */
            if (i >= j->P)
                i -= j->P;
        }
    } else {
        for (unsigned g = 0; g < G; g++) {
            hits += (uint64_t)sbf_contains(j->f, &j->keys[i], 8);
            if (++i == j->P)
                i = 0;
        }
    }
    *pos = i;
    return hits;
}

/* Ticks of one call, estimated from 15 timed runs of 64 calls (batches: 4):
 * the median, the timed region's cost taken off. */
static double ticks_per_call(const latjob *j, size_t *pos, uint64_t ovh)
{
    const unsigned n = j->batch > 1 ? 4 : 64;
    double t[15];
    uint64_t hits = 0;
    for (int r = 0; r < 15; r++) {
        const uint64_t t0 = sbfb_ticks_begin();
        hits += run_calls(j, pos, n);
        const uint64_t d = sbfb_ticks_end() - t0;
        t[r] = d > ovh ? (double)(d - ovh) / n : 0;
    }
    g_lat_sink += hits;
    for (int a = 1; a < 15; a++)   /* insertion sort */
        for (int b = a; b > 0 && t[b - 1] > t[b]; b--) {
            const double x = t[b];
            t[b] = t[b - 1];
            t[b - 1] = x;
        }
    return t[7];
}

/* G for one row: 1 unless the call spans fewer than GROUP_BELOW clock
 * steps on a filter that fits the L2 cache. */
static unsigned choose_group(const sbfb_opts *o, size_t bytes, double call_ticks)
{
    if (o->lat_group)
        return o->lat_group;
    const double gran = (double)sbfb_clock_get()->gran_ticks;
    if (bytes > o->lat_group_max || call_ticks >= GROUP_BELOW * gran)
        return 1;
    const double g = ceil(GROUP_SPAN * gran / (call_ticks > 0.1 ? call_ticks : 0.1));
    return g > GROUP_MAX ? GROUP_MAX : g < 1 ? 1 : (unsigned)g;
}

/* One histogram: warm, choose G, then `samples` timed groups of G calls;
 * each sample is the group's ticks less the overhead, counted in units of
 * tick / G. */
static unsigned time_job(const sbfb_opts *o, const latjob *j, size_t bytes, uint64_t samples,
                         uint64_t ovh, acc *a)
{
    size_t pos = 0;
    const size_t warm = j->batch > 1 ? (j->P / j->batch < 2000 ? j->P / j->batch : 2000)
                                     : (j->P < 20000 ? j->P : 20000);
    uint64_t hits = run_calls(j, &pos, (unsigned)warm);
    const unsigned G = choose_group(o, bytes, ticks_per_call(j, &pos, ovh));
    for (uint64_t s = 0; s < samples; s++) {
        const uint64_t t0 = sbfb_ticks_begin();
        hits += run_calls(j, &pos, G);
        const uint64_t d = sbfb_ticks_end() - t0;
        acc_add(a, d > ovh ? d - ovh : 0);
    }
    g_lat_sink += hits;
    return G;
}

/* The rows of one filter: single keys (chain and independent, present and
 * absent keys apart), then batches. */
static const struct {
    const char *mode, *timing, *lookup;
} rows[] = {
    { "single", "chain", "positive" },
    { "single", "chain", "negative" },
    { "single", "independent", "positive" },
    { "single", "independent", "negative" },
    { "batch", "independent", "alternating" },
};

void sbfb_latency_filter(const sbfb_opts *o, sbfb_results *r, const sbf_filter *f,
                         int isa, int layout, int size_idx, size_t bytes,
                         const uint64_t *pos, const uint64_t *neg, size_t P)
{
    const uint64_t ovh = sbfb_timer_overhead(NULL);
    if (P < LAT_BATCH + 1)
        return;
    uint8_t out[LAT_BATCH];
    uint64_t *mix = sbfb_xmalloc(P * sizeof *mix);
    for (size_t i = 0; i < P; i++)   /* batches of present, then absent keys */
        mix[i] = (i / LAT_BATCH) % 2 ? neg[i] : pos[i];
    for (size_t w = 0; w < sizeof rows / sizeof rows[0]; w++) {
        const int batch = rows[w].mode[0] == 'b';
        const latjob j = { f, batch ? mix : rows[w].lookup[0] == 'p' ? pos : neg, P,
                           rows[w].timing[0] == 'c', batch ? LAT_BATCH : 1, out };
        acc a = { calloc(SBFB_LAT_BUCKETS, sizeof(uint64_t)), 0, UINT64_MAX, 0, 0 };
        if (a.counts == NULL)
            break;
        const uint64_t samples =
            !batch ? o->lat_samples : o->lat_samples / 64 < 2000 ? 2000 : o->lat_samples / 64;
        const unsigned G = time_job(o, &j, bytes, samples, ovh, &a);
        sbfb_lat *l = sbfb_add_lat(r);
        l->layout = layout;
        l->isa = isa;
        l->size_idx = size_idx;
        l->bytes = bytes;
        l->op = "contains";
        l->mode = rows[w].mode;
        l->timing = rows[w].timing;
        l->lookup = rows[w].lookup;
        l->batch = j.batch;
        l->group = G;
        snprintf(l->name, sizeof l->name, "%s %s %s %s %s", sbfb_layout_name(layout),
                 o->sizes[size_idx].label, batch ? "batch256" : "single", rows[w].timing,
                 rows[w].lookup);
        finish(l, &a, (double)ovh);
    }
    free(mix);
}
