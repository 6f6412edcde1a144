/*
 * What bench_hot.c (the measurements of `--suite hot`) shares with
 * bench_hot_out.c (its tables, Markdown and JSON).
 */
#ifndef SBFB_BENCH_HOT_H_71D0
#define SBFB_BENCH_HOT_H_71D0

#include "bench.h"

typedef struct hot_row {
    const char *table;     /* "single", "roof", "threads", "conc" */
    int layout, isa, size_idx;
    size_t bytes;
    char what[48];         /* operation */
    int threads;           /* threads (threads, roof) */
    int dist;              /* prefetch distance that won (roof) */
    double ns;             /* ns per key (threads: wall ns / total keys) */
    double ratio;          /* single: / hash or / contains; roof: / roofline;
                              conc: concurrent / plain */
} hot_row;

/* Runs the parts SBFB_HOT names (single, conc, roof, threads; default all). */
void sbfb_hot_run(const sbfb_opts *o, sbfb_results *r);

#endif
