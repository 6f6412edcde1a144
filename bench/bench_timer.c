/*
 * Throughput timing that knows when it was disturbed: every figure is a percentile of many short windows, and a
 * window that lost CPU time drops out.
 *
 *  - A window is one call of the operation over about WINDOW_S of keys,
 *    timed by the wall clock (CLOCK_MONOTONIC) and by this thread's CPU
 *    clock (CLOCK_THREAD_CPUTIME_ID, which stops while the thread is
 *    descheduled or its vCPU is stolen). When the wall time exceeds the CPU
 *    time by more than LOST_MAX of the window, the thread lost a time slice
 *    inside it: the window is dropped (counted, never used).
 *  - The figure is the SBFB_PCTL-th (10th) percentile of the kept windows'
 *    ns/key: what the operation costs when nothing else gets in its way,
 *    without resting on the single luckiest window; their spread
 *    (p75 - p25) / p50 is kept beside it.
 *  - Page faults (getrusage) inside the timed windows are counted; the
 *    callers touch every page before timing (first touches, huge-page
 *    faults), so this stays 0 and says so in the report.
 *  - Jobs can be timed interleaved, window by window, so that operations
 *    compared by a ratio see the same moments of the machine; each timed
 *    window is then preceded by an untimed call of the same job, so that it
 *    starts with its own working set in the caches, not its neighbour's.
 *
 * The run also records what the machine did meanwhile (load average, CPU
 * time of other processes, steal) for the report's warnings.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_S 0.001  /* target length of one timed window */
#define LOST_MAX 0.02   /* a window that lost more CPU time than this share drops out */
#define LOST_FLOOR 20e-6 /* ... and more than this (clock reads, interrupts) */

/* ------------------------------------------------------------ the run */

static struct {
    uint64_t windows, dropped;
    long faults;
    double *spreads;
    size_t nspread, capspread;
} g_run;

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long thread_faults(void)
{
    struct rusage u;
#if defined(RUSAGE_THREAD)
    if (getrusage(RUSAGE_THREAD, &u) != 0)
#endif
        if (getrusage(RUSAGE_SELF, &u) != 0)
            return 0;
    return u.ru_minflt + u.ru_majflt;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The p-th percentile (0..100) of v[0..n), sorted in place; NaN when n = 0. */
static double pctl(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    const double x = p / 100.0 * (double)(n - 1);
    const size_t i = (size_t)x;
    return i + 1 < n ? v[i] + (x - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

static void note_spread(double s)
{
    if (!(s >= 0))
        return;
    if (g_run.nspread == g_run.capspread) {
        g_run.capspread = g_run.capspread ? 2 * g_run.capspread : 256;
        double *p = realloc(g_run.spreads, g_run.capspread * sizeof *p);
        if (p == NULL)
            return;
        g_run.spreads = p;
    }
    g_run.spreads[g_run.nspread++] = s;
}

/* ----------------------------------------------------------- one window */

typedef struct jstate {
    const sbfb_job *job;
    size_t len, off;
} jstate;

/* Calibrates the call length to about WINDOW_S (these calls also warm
 * caches, predictors and page tables), then starts a pass. */
static void jstate_init(jstate *s, const sbfb_job *j)
{
    s->job = j;
    size_t len = j->total < 64 ? j->total : 64;
    double dt = 0;
    for (;;) {
        const double t0 = thread_cpu();
        j->fn(j->ctx, 0, len);
        dt = thread_cpu() - t0;
        if (dt >= WINDOW_S / 4 || len >= j->total)
            break;
        len = j->total / 4 < len ? j->total : len * 4;
    }
    if (dt > 0 && len < j->total) {
        const double want = (double)len * WINDOW_S / dt;
        len = want >= (double)j->total ? j->total : want < 1 ? 1 : (size_t)want;
    }
    s->len = len;
    s->off = 0;
    if (j->wrap)
        j->wrap(j->ctx);
}

/* One timed window: ns per key, or NaN when it lost CPU time. */
static double window(jstate *s, long *faults)
{
    const sbfb_job *j = s->job;
    if (s->off + s->len > j->total) {
        s->off = 0;
        if (j->wrap)
            j->wrap(j->ctx); /* untimed: a new pass over the keys */
    }
    const long f0 = thread_faults();
    const double c0 = thread_cpu(), t0 = sbfb_now();
    j->fn(j->ctx, s->off, s->len);
    const double t1 = sbfb_now(), c1 = thread_cpu();
    *faults += thread_faults() - f0;
    s->off += s->len;
    const double wall = t1 - t0, lost = wall - (c1 - c0);
    if (lost > LOST_FLOOR && lost > LOST_MAX * wall)
        return NAN;
    return wall * 1e9 / (double)s->len;
}

/* An untimed call of the job's next keys (as a window, not timed). */
static void warm(jstate *s)
{
    const sbfb_job *j = s->job;
    if (s->off + s->len > j->total) {
        s->off = 0;
        if (j->wrap)
            j->wrap(j->ctx);
    }
    j->fn(j->ctx, s->off, s->len);
    s->off += s->len;
}

/* ---------------------------------------------------------------- jobs */

static void summarise(sbfb_timing *t)
{
    double v[SBFB_MAX_WINDOWS];
    size_t n = 0;
    for (int i = 0; i < t->windows; i++)
        if (!isnan(t->win[i]))
            v[n++] = t->win[i];
    t->dropped = t->windows - (int)n;
    t->ns = pctl(v, n, SBFB_PCTL);
    const double p25 = pctl(v, n, 25), p50 = pctl(v, n, 50), p75 = pctl(v, n, 75);
    t->spread = n >= 4 && p50 > 0 ? (p75 - p25) / p50 : NAN;
    g_run.windows += (uint64_t)t->windows;
    g_run.dropped += (uint64_t)t->dropped;
    g_run.faults += t->faults;
    note_spread(t->spread);
}

void sbfb_time_jobs(const sbfb_opts *o, const sbfb_job *jobs, int n, sbfb_timing *t)
{
    jstate st[16];
    if (n > 16)
        n = 16;
    for (int i = 0; i < n; i++) {
        memset(&t[i], 0, sizeof t[i]);
        jstate_init(&st[i], &jobs[i]);
    }
    /* the time of reps windows of min_time each, per job, as before */
    const double budget = o->min_time * o->reps * n;
    const int min_rounds = 16;
    const double t0 = sbfb_now();
    for (int r = 0; r < SBFB_MAX_WINDOWS; r++) {
        if (r >= min_rounds && sbfb_now() - t0 >= budget)
            break;
        for (int i = 0; i < n; i++) {
            if (n > 1)
                warm(&st[i]); /* the job's own working set back in the caches */
            t[i].win[r] = window(&st[i], &t[i].faults);
            t[i].windows++;
        }
    }
    for (int i = 0; i < n; i++)
        summarise(&t[i]);
}

void sbfb_time_job(const sbfb_opts *o, const sbfb_job *j, sbfb_timing *t)
{
    sbfb_time_jobs(o, j, 1, t);
}

double sbfb_time_best(const sbfb_opts *o, sbfb_op fn, void *ctx, size_t total)
{
    const sbfb_job j = { fn, ctx, total, NULL };
    sbfb_timing *t = sbfb_xmalloc(sizeof *t);
    sbfb_time_job(o, &j, t);
    const double ns = t->ns;
    free(t);
    return ns;
}

double sbfb_timing_ratio(const sbfb_timing *a, const sbfb_timing *b)
{
    return a->ns / b->ns;
}

/* ------------------------------------------------------- the machine */

/* 1-, 5- and 15-minute load averages. */
static void loadavg(double l[3])
{
    l[0] = l[1] = l[2] = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
            l[0] = l[1] = l[2] = NAN;
        fclose(f);
    }
}

/* CPU time of the whole machine (busy, steal) and of this process, s. */
typedef struct cpu_snap {
    double busy, steal, self, wall;
    int ok;
} cpu_snap;

static void cpu_snap_get(cpu_snap *s)
{
    memset(s, 0, sizeof *s);
    s->wall = sbfb_now();
    const double hz = (double)sysconf(_SC_CLK_TCK);
    unsigned long long u, ni, sy, id, io, irq, sirq, st;
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni, &sy, &id, &io,
                   &irq, &sirq, &st) == 8) {
            s->busy = (double)(u + ni + sy + irq + sirq) / hz;
            s->steal = (double)st / hz;
            s->ok = 1;
        }
        fclose(f);
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        s->self = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                  (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static cpu_snap g_start;

void sbfb_disturb_start(sbfb_disturb *d)
{
    memset(d, 0, sizeof *d);
    loadavg(d->load_start);
    cpu_snap_get(&g_start);
}

void sbfb_disturb_finish(sbfb_disturb *d, int cpus)
{
    cpu_snap end;
    cpu_snap_get(&end);
    loadavg(d->load_end);
    const double wall = end.wall - g_start.wall;
    if (end.ok && g_start.ok && wall > 0) {
        const double others = (end.busy - g_start.busy) - (end.self - g_start.self);
        d->others_cpu = others > 0 ? others / wall : 0;
        d->steal = (end.steal - g_start.steal) / wall;
    } else {
        d->others_cpu = d->steal = NAN;
    }
    d->windows = g_run.windows;
    d->dropped = g_run.dropped;
    d->faults = g_run.faults;
    d->measurements = (int)g_run.nspread;
    double *s = g_run.spreads;
    d->spread_median = pctl(s, g_run.nspread, 50);
    d->spread_p90 = pctl(s, g_run.nspread, 90);
    /* The warnings (bench/README.md, "A disturbed machine"). */
    const double dropped = d->windows ? (double)d->dropped / (double)d->windows : 0;
    d->busy = d->load_start[0] > (double)cpus || d->others_cpu > SBFB_BUSY_OTHERS ||
              d->steal > SBFB_BUSY_STEAL || dropped > SBFB_BUSY_DROPPED;
    d->wide = d->spread_median > SBFB_WIDE_MEDIAN || d->spread_p90 > SBFB_WIDE_P90;
    free(g_run.spreads);
    memset(&g_run, 0, sizeof g_run);
}

/* The warnings of d in words (Markdown bold when md), "" when quiet. */
void sbfb_disturb_print(FILE *out, const sbfb_disturb *d, int md)
{
    const char *b = md ? "**" : "";
    const double dropped = d->windows ? 100.0 * (double)d->dropped / (double)d->windows : 0;
    fprintf(out, "%smachine: load average %.2f at the start, %.2f at the end; other processes "
                 "used %.2f CPUs on average, steal %.1f%%; ",
            md ? "- " : "  ", d->load_start[0], d->load_end[0], d->others_cpu,
            100.0 * d->steal);
    if (d->windows == 0) /* the suites run count, not time (fpr, keys) */
        fprintf(out, "no timed windows\n");
    else
        fprintf(out, "%llu timed windows, %.1f%% dropped (lost CPU time), %ld page faults "
                     "inside them; spread (p75 - p25) / p50 of a measurement's windows: "
                     "median %.1f%%, p90 %.1f%%\n",
                (unsigned long long)d->windows, dropped, d->faults, 100.0 * d->spread_median,
                100.0 * d->spread_p90);
    if (d->busy)
        fprintf(out, "%s%sWARNING: the machine was busy during this run%s (load %.1f, others "
                     "%.2f CPUs, steal %.1f%%, %.1f%% of windows lost CPU time): absolute "
                     "times are inflated; compare ratios within the run%s\n",
                md ? "- " : "  ", b, md ? "" : ":", d->load_start[0], d->others_cpu,
                100.0 * d->steal, dropped, b);
    if (d->wide)
        fprintf(out, "%s%sWARNING: wide run-to-run spread%s (median %.1f%%, p90 %.1f%% between "
                     "a measurement's windows): differences below that are noise%s\n",
                md ? "- " : "  ", b, md ? "" : ":", 100.0 * d->spread_median,
                100.0 * d->spread_p90, b);
}
