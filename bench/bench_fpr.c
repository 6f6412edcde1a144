/*
 * False-positive rate against the mathematics. For each layout and bits per
 * key: R independent filters, each with n distinct keys inserted, probed with
 * distinct keys that were never inserted (batched contains, default
 * kernels). The pooled rate is set beside the classic formula, Putze's
 * approximation and the layout's exact formula (sbf_fpp_theory).
 *
 * Why several filters: the formulas give the EXPECTED rate over random key
 * sets, while one filter has its own rate, which varies around it (a blocked
 * filter of 10^6 keys at 11 bits/key by about 0.25% from one key set to the
 * next, sbf_fpp_spread: the block loads differ). A Wilson interval counts
 * only the probes' sampling noise, so on one filter with 10^8 probes it would
 * be narrower than that variation and flag a correct formula. Two intervals
 * are reported: the 95% Wilson interval of the pooled probes, and the 95%
 * interval of the pooled rate across the R filters, which holds both sources
 * of noise; the mark is made against the latter.
 *
 * The interval across filters: the pooled rate is the ratio sum fp / sum
 * probes, a mean of the per-filter rates weighted by their probes (filters
 * get different probe counts: the extras are time-based), so its spread is
 * estimated with the same weights, around the same centre (the ratio
 * estimator's variance, R/(R-1) sum w_i^2 (r_i - pooled)^2, w_i = probes_i /
 * sum probes), with a Student t quantile on R - 1 degrees of freedom. (It
 * was the pooled centre with the unweighted spread, over 8 or 16 filters:
 * too narrow where the time-based extras gave some filters many more probes
 * than others. The formulas were not at fault: the 20 rows of 210 one report
 * marked, rerun over 128 key sets of equal probes, measured 0.9992 to 1.0013
 * of them (19 within 2 se, one 2.8 se); doc/promises.md.) R = --fpr-filters
 * (32, quick 8) for every row.
 *
 * Probes: every row gets enough for MIN_FP = 10^4 expected false
 * positives (so its rate is resolved to about +-2%), unless that would pass
 * --fpr-max-probes: then it stops there and is marked low-resolution. Beyond
 * that, up to 10^6 expected false positives, within a time share of
 * --fpr-time: 8, 10 and 16 bits/key (the table) get four shares,
 * the others one. The minimum is a number of
 * probes, not of seconds, so it does not depend on the machine's mood; only
 * the extra depends on time. Each row's filters are built and probed on all
 * CPUs at once (counting, not timing: nothing here is timed).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK ((size_t)1 << 16)
#define PROBE_BASE (UINT64_C(1) << 61)
#define MIN_FP 1e4
#define TARGET_FP 1e6
#define MIN_PROBES ((uint64_t)1 << 22)
#define MAX_THREADS 8

void sbfb_wilson(uint64_t x, uint64_t n, double z, double *lo, double *hi)
{
    const double N = (double)n, p = (double)x / N;
    const double z2 = z * z, den = 1 + z2 / N;
    const double c = (p + z2 / (2 * N)) / den;
    const double h = z / den * sqrt(p * (1 - p) / N + z2 / (4 * N * N));
    *lo = c - h < 0 ? 0 : c - h;
    *hi = c + h > 1 ? 1 : c + h;
}

/* Two-sided 95% Student t quantile for df degrees of freedom: the table to
 * 20, then the Cornish-Fisher series in 1/df (within 1e-4 of the quantile
 * from df = 21 on: 2.0395 at 31, 1.9983 at 63). */
static double t975(int df)
{
    static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                2.120, 2.110, 2.101, 2.093, 2.086 };
    if (df < 1)
        return INFINITY;
    if (df <= 20)
        return t[df];
    const double z = 1.959963984540054, z3 = z * z * z, z5 = z3 * z * z, v = df;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

static int weight(int b) { return b == 8 || b == 10 || b == 16 ? 4 : 1; }

/* One row of the table: a layout and a bits/key, R filters. */
typedef struct fpr_row {
    const sbfb_opts *o;
    int layout, b, R, nthreads;
    sbf_params p;
    uint64_t min_each, max_each;   /* probes per filter: the minimum, the most */
    double t0, budget;             /* the extra probes' time share */
    /* per filter (R of each) */
    uint64_t *probes, *fp;
    int *rc;
} fpr_row;

typedef struct fpr_worker {
    fpr_row *row;
    int first;                     /* filters first, first + nthreads, ... */
} fpr_worker;

/* Filter inst of a row: its own key set, then its own probes: at least
 * min_each, more up to max_each while its slot of the time share lasts. */
static void fpr_filter(fpr_row *w, int inst, uint64_t *keys)
{
    const sbfb_opts *o = w->o;
    const uint64_t n = o->fpr_n;
    sbf_filter *f;
    w->rc[inst] = sbf_create(&f, &w->p);
    if (w->rc[inst] != SBF_OK)
        return;
    const uint64_t seed = sbfb_mix(o->seed ^ (uint64_t)(w->b * 131 + w->layout * 7919) ^
                                   ((uint64_t)inst << 40));
    for (uint64_t i = 0; i < n; i += CHUNK) {
        const size_t len = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
        sbfb_keys(seed, i, len, keys);
        sbf_add_u64(f, keys, len);
    }
    /* filters run nthreads at a time: slot s of them ends its extra probes
     * at (s + 1) / slots of the budget */
    const int slots = (w->R + w->nthreads - 1) / w->nthreads;
    const double tend = w->t0 + w->budget * (inst / w->nthreads + 1) / slots;
    uint64_t d = 0, x = 0;
    while (d < w->max_each) {
        const size_t len = w->max_each - d < CHUNK ? (size_t)(w->max_each - d) : CHUNK;
        sbfb_keys(seed, PROBE_BASE + d, len, keys);
        x += sbf_contains_u64(f, keys, len, NULL);
        d += len;
        if (d >= w->min_each && (d & ((1u << 20) - 1)) == 0 && sbfb_now() > tend)
            break;
    }
    w->probes[inst] = d;
    w->fp[inst] = x;
    sbf_free(f);
}

static void *fpr_worker_main(void *arg)
{
    const fpr_worker *wk = arg;
    uint64_t *keys = sbfb_xmalloc(CHUNK * sizeof *keys);
    for (int inst = wk->first; inst < wk->row->R; inst += wk->row->nthreads)
        fpr_filter(wk->row, inst, keys);
    free(keys);
    return NULL;
}

/* Builds and probes the row's R filters, nthreads at a time. */
static void fpr_run_filters(fpr_row *w)
{
    pthread_t th[MAX_THREADS];
    fpr_worker wk[MAX_THREADS];
    int started = 0;
    for (int t = 0; t < w->nthreads; t++) {
        wk[t].row = w;
        wk[t].first = t;
        if (t > 0 && pthread_create(&th[t], NULL, fpr_worker_main, &wk[t]) == 0)
            started |= 1 << t;
    }
    /* this thread is worker 0; a worker that could not start is run here too */
    fpr_worker_main(&wk[0]);
    for (int t = 1; t < w->nthreads; t++) {
        if (started & (1 << t))
            pthread_join(th[t], NULL);
        else
            fpr_worker_main(&wk[t]);
    }
}

static int fpr_threads(const sbfb_opts *o)
{
    long n = o->fpr_threads > 0 ? o->fpr_threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* The row's geometry, formulas and probe counts, from an empty filter of
 * its parameters (the formulas depend on the geometry and n only). */
static sbfb_fpr *fpr_row_begin(sbfb_results *r, fpr_row *w)
{
    const sbfb_opts *o = w->o;
    const uint64_t n = o->fpr_n;
    sbf_filter *f;
    const int rc = sbf_create(&f, &w->p);
    if (rc != SBF_OK) {
        sbfb_note("fpr %s %d bits/key: %s", sbfb_layout_name(w->layout), w->b, sbf_strerror(rc));
        return NULL;
    }
    struct sbf_info info;
    sbf_info(f, &info);
    const double exact = sbf_fpp_theory(f, n);
    sbf_free(f);
    sbfb_fpr *e = sbfb_add_fpr(r);
    e->layout = w->layout;
    e->bits_per_key = w->b;
    e->bits = info.bits;
    e->k = info.k;
    e->n = n;
    const double cells = (double)info.bits / sbfb_cell_bits(w->layout);
    e->classic = sbf_fpp_classic(n, (uint64_t)cells, info.k);
    /* Putze's blocked formula over cells: none for classic (no blocks) */
    if (info.block_bits == 0)
        e->putze = NAN;
    else
        e->putze = sbf_fpp_putze(n, (uint64_t)cells, info.k,
                                 info.block_bits / sbfb_cell_bits(w->layout));
    e->exact = exact;
    /* totals over the R filters: the minimum, the most */
    const double cap = (double)o->fpr_max_probes;
    double want_min = exact > 0 ? ceil(MIN_FP / exact) : cap;
    double want = exact > 0 ? TARGET_FP / exact : cap;
    want_min = fmin(fmax(want_min, (double)MIN_PROBES), cap);
    want = fmin(fmax(want, want_min), cap);
    w->min_each = (uint64_t)ceil(want_min / w->R);
    w->max_each = (uint64_t)ceil(want / w->R);
    sbfb_progress("fpr %s %d bits/key (k=%u): %d filters, %.3g to %.3g probes",
                  sbfb_layout_name(w->layout), w->b, info.k, w->R, want_min, want);
    return e;
}

/* Pools the filters: the rate, both intervals, their widths and marks. */
static void fpr_row_end(sbfb_fpr *e, const fpr_row *w)
{
    uint64_t fp = 0, done = 0;
    int nr = 0;
    for (int i = 0; i < w->R; i++) {
        if (w->rc[i] != SBF_OK || w->probes[i] == 0)
            continue;
        nr++;
        fp += w->fp[i];
        done += w->probes[i];
    }
    e->filters = nr;
    e->probes = done;
    e->fp = fp;
    if (nr == 0)
        return;
    e->measured = (double)fp / (double)done;
    sbfb_wilson(fp, done, 1.959963984540054, &e->lo, &e->hi); /* 95% */
    /* the pooled rate's variance across filters, with its own weights */
    double var = 0;
    for (int i = 0; i < w->R; i++) {
        if (w->rc[i] != SBF_OK || w->probes[i] == 0)
            continue;
        const double wi = (double)w->probes[i] / (double)done;
        const double d = (double)w->fp[i] / (double)w->probes[i] - e->measured;
        var += wi * wi * d * d;
    }
    var = nr > 1 ? var * nr / (nr - 1) : INFINITY;
    const double h = t975(nr - 1) * sqrt(var);
    e->flo = e->measured - h < 0 ? 0 : e->measured - h;
    e->fhi = e->measured + h;
    e->outside = !(e->exact >= e->flo && e->exact <= e->fhi);
    e->outside_wilson = !(e->exact >= e->lo && e->exact <= e->hi);
    e->expected_fp = e->exact * (double)done;
    e->low_res = e->expected_fp < MIN_FP * 0.999;
    e->wilson_rel = e->measured > 0 ? (e->hi - e->lo) / 2 / e->measured : INFINITY;
    e->filters_rel = e->measured > 0 ? h / e->measured : INFINITY;
}

void sbfb_run_fpr(const sbfb_opts *o, sbfb_results *r)
{
    sbf_isa_set(SBF_ISA_AUTO);
    int nl = 0, wsum = 0;
    for (int l = 0; l < sbfb_nlayouts(); l++)
        nl += (o->layouts >> l) & 1;
    for (int b = o->fpr_lo; b <= o->fpr_hi; b++)
        wsum += weight(b);
    if (nl == 0 || wsum == 0)
        return;
    const double share = o->fpr_time / (double)(nl * wsum);
    const int nthreads = fpr_threads(o);
    for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        for (int b = o->fpr_lo; b <= o->fpr_hi; b++) {
            fpr_row *w = calloc(1, sizeof *w);
            if (w == NULL)
                break;
            w->o = o;
            w->layout = layout;
            w->b = b;
            w->R = o->fpr_filters;
            w->probes = calloc((size_t)w->R, sizeof *w->probes);
            w->fp = calloc((size_t)w->R, sizeof *w->fp);
            w->rc = calloc((size_t)w->R, sizeof *w->rc);
            if (w->probes == NULL || w->fp == NULL || w->rc == NULL) {
                free(w->probes);
                free(w->fp);
                free(w->rc);
                free(w);
                break;
            }
            w->nthreads = nthreads < w->R ? nthreads : w->R;
            w->p.layout = layout;
            w->p.expected_n = o->fpr_n;
            w->p.fpp = 0.01;
            /* bits/key counts memory; counting: counters per key */
            w->p.bits = (uint64_t)b * o->fpr_n * sbfb_cell_bits(layout);
            sbfb_fpr *e = fpr_row_begin(r, w);
            if (e) {
                w->t0 = sbfb_now();
                w->budget = share * weight(b);
                fpr_run_filters(w);
                fpr_row_end(e, w);
                e->seconds = sbfb_now() - w->t0;
            }
            free(w->probes);
            free(w->fp);
            free(w->rc);
            free(w);
        }
    }
}
