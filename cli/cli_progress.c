/*
 * sbf: the progress line, on stderr when it is a terminal and the work has
 * taken over a second, refreshed four times a second.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(progress *pg)
{
    pg->tty = isatty(STDERR_FILENO);
    pg->t0 = pg->last = now_s();
    pg->shown = 0;
}

/* Whether a line is due (stderr a terminal, the work over a second old,
 * the last line a quarter of a second ago); *t is now. */
static int due(progress *pg, double *t)
{
    if (!pg->tty)
        return 0;
    *t = now_s();
    if (*t - pg->t0 < 1.0 || *t - pg->last < 0.25)
        return 0;
    pg->last = *t;
    pg->shown = 1;
    return 1;
}

/* A line on stderr when it is a terminal and the work took over a second. */
void progress_tick(progress *pg, const keyreader *kr, const char *verb)
{
    double t;
    if (!due(pg, &t))
        return;
    if (kr->total)
        fprintf(stderr, "\r%s: %s %llu keys, %.0f%% of %s (%.1f M keys/s)  ", prog, verb,
                (unsigned long long)kr->line, 100.0 * (double)kr->bytes_in / (double)kr->total,
                kr->name, (double)kr->line / (t - pg->t0) / 1e6);
    else
        fprintf(stderr, "\r%s: %s %llu keys (%.1f M keys/s)  ", prog, verb,
                (unsigned long long)kr->line, (double)kr->line / (t - pg->t0) / 1e6);
}

void progress_bytes(progress *pg, uint64_t done, uint64_t total, const char *verb,
                    const char *name)
{
    double t;
    if (!due(pg, &t))
        return;
    fprintf(stderr, "\r%s: %s %.0f%% of %s (%.2f GB of %.2f GB, %.2f GB/s)  ", prog, verb,
            total ? 100.0 * (double)done / (double)total : 100.0, name, (double)done / 1e9,
            (double)total / 1e9, (double)done / (t - pg->t0) / 1e9);
}

void progress_end(progress *pg)
{
    if (pg->shown)
        fputc('\n', stderr);
}

