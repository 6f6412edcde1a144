/*
 * sbf-bench: the benchmark harness. Internal to bench/; calls only the public
 * API of include/simdbloom.h (plus libbloom as a peer when it is installed).
 *
 * Files (bench/README.md has the table):
 *   bench_main.c     options, default sizes, output directory
 *   bench_section.c  the list of sections; runs and outputs them in order
 *   bench_util.c     keys (fixed-seed PRNG), clocks, progress, machine info
 *   bench_tput.c     throughput, batched hash
 *   bench_timer.c    timing windows, the machine's disturbance
 *   bench_roof.c     the memory roofline loop
 *   bench_libbloom.c libbloom as a peer
 *   bench_lat.c      latency timing (cycle counter)
 *   bench_hist.c     the latency histogram: buckets, percentiles, ASCII bars
 *   bench_fpr.c      false-positive rate against the formulas
 *   bench_store.c    result storage, lookups, derived speedups and ratios
 *   bench_table.c    the tables, as aligned text or Markdown
 *   bench_json.c     the JSON file (schema in bench/README.md)
 *   bench_report.c   REPORT.md and the text on stdout
 *   bench_plot.c     the data files the gnuplot scripts read
 *   bench_check.c    the deterministic suite of `make bench-check`
 */
#ifndef SBFB_BENCH_H_3C94E71B
#define SBFB_BENCH_H_3C94E71B

#include "simdbloom.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#  define SBFB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#  define SBFB_NOINLINE __attribute__((noinline))
#else
#  define SBFB_PRINTF(a, b)
#  define SBFB_NOINLINE
#endif

#define SBFB_MAX_LAYOUTS 16  /* room for the layouts the library names */
#define SBFB_MAX_ISA 8
#define SBFB_MAX_SIZES 12
#define SBFB_MAX_SECTIONS 24

struct sbfb_section;

/* Suites, as bits of sbfb_opts.suites. */
enum {
    SBFB_S_TPUT = 1 << 0,     /* add/contains throughput per layout, ISA, size */
    SBFB_S_HASH = 1 << 1,     /* batched hash alone */
    SBFB_S_ROOF = 1 << 2,     /* memory roofline loop */
    SBFB_S_LIBBLOOM = 1 << 3, /* libbloom peer */
    SBFB_S_LAT = 1 << 4,      /* latency histograms */
    SBFB_S_FPR = 1 << 5,      /* false-positive rate table */
    SBFB_S_HOT = 1 << 6,      /* single keys, SBF_CONCURRENT, threads, roofline sweep */
    SBFB_S_LANES = 1 << 7,    /* hashes of many keys in SIMD lanes (bench_lanes.c) */
    SBFB_S_KEYS = 1 << 8,     /* FPR on structured keys (bench_keys.c) */
    /* a new section takes the next bit here (bench/README.md, "Adding a section") */
};
#define SBFB_S_ALL (~0u)

typedef struct sbfb_size {
    size_t bytes;
    char label[16];  /* "L1", "L2", "L3", "DRAM", or the size as given */
} sbfb_size;

typedef struct sbfb_opts {
    int quick;
    unsigned suites;
    unsigned layouts;            /* bit per sbf_layout */
    int isas[SBFB_MAX_ISA];      /* ISAs to measure, scalar first if present */
    int nisa;
    sbfb_size sizes[SBFB_MAX_SIZES];
    int nsizes;
    double bits_per_key;         /* throughput fill (memory bits per key) */
    double min_time;             /* seconds per timed repetition */
    int reps;                    /* repetitions, the best is kept */
    int fpr_lo, fpr_hi;          /* bits/key range */
    uint64_t fpr_n;              /* keys per FPR filter */
    double fpr_time;             /* seconds for all FPR probes */
    uint64_t fpr_max_probes;     /* cap per row (all its filters) */
    int fpr_threads;             /* 0: every online CPU */
    int fpr_filters;             /* key sets per FPR row (0: 32, quick 8) */
    uint64_t lat_samples;        /* timed samples per histogram */
    unsigned lat_group;          /* calls per sample: 0 = chosen per row */
    size_t lat_group_max;        /* larger filters: single calls (the L2 size) */
    uint64_t seed;
    const char *json_path;
    const char *outdir;
    const char *commit;
    const char *cflags;
    int progress;                /* 0 off, 1 plain lines, 2 redrawing line */
    int check;                   /* the bench-check suite instead */
    int check_insn;              /* bench-check: callgrind workload only */
    int check_ratios;            /* bench-check: timing ratios only */
} sbfb_opts;

/* -------------------------------------------------------------- results */

typedef struct sbfb_tput {
    int layout;
    int isa;               /* sbf_isa, or -1: not dispatched (libbloom) */
    int size_idx;
    size_t bytes;
    uint64_t bits;
    uint32_t k;
    uint64_t n;            /* keys in the filter */
    const char *op;        /* "add", "contains" */
    const char *mode;      /* "single", "batch" */
    const char *keys;      /* "u64", "str" */
    const char *lookup;    /* "positive", "negative", or "" for add */
    double ns;             /* per key, best of reps */
    double speedup;        /* scalar ns / this ns (0: n/a) */
    double roof_ratio;     /* this ns / roofline ns (0: n/a) */
    double spread;         /* (p75 - p25) / p50 of its timed windows */
    int windows, dropped;  /* timed windows; dropped (lost CPU time) */
} sbfb_tput;

typedef struct sbfb_hash {
    int isa;
    double ns;
    double speedup;
} sbfb_hash;

typedef struct sbfb_roof {
    int size_idx;
    size_t bytes;
    double ns;
    int dist;              /* the prefetch distance that won the sweep */
} sbfb_roof;

typedef struct sbfb_peer {
    int size_idx;
    size_t bytes;
    uint64_t n;
    int k;
    const char *op, *keys, *lookup;
    double ns;
    const char *note;      /* NULL, or why it was not measured */
} sbfb_peer;

#define SBFB_LAT_SUB_LOG2 6
#define SBFB_LAT_SUB (1u << SBFB_LAT_SUB_LOG2)  /* linear steps per power of two */
#define SBFB_LAT_BUCKETS (64 * SBFB_LAT_SUB)

typedef struct sbfb_lat {
    char name[80];
    int layout, isa, size_idx;
    size_t bytes;
    const char *op;        /* "contains" */
    const char *mode;      /* "single", "batch" */
    const char *lookup;    /* "positive", "negative", "alternating" */
    const char *timing;    /* "chain": the next key derived from the previous
                            * answer (latency); "independent" (throughput) */
    unsigned batch;        /* keys per timed call */
    unsigned group;        /* G: calls per timed sample (a sample is their mean) */
    uint64_t samples;
    double overhead_ns;    /* one timed region's cost, subtracted per sample */
    double unit_ns;        /* ns per histogram unit: tick / G */
    double resolution_ns;  /* clock granularity / G */
    double min, p50, p90, p99, p999, p9999, max, mean;   /* ns per call */
    uint64_t *counts;      /* SBFB_LAT_BUCKETS, in units of unit_ns */
} sbfb_lat;

typedef struct sbfb_fpr {
    int layout;
    int bits_per_key;      /* memory bits per key (counting: counters) */
    uint64_t bits;
    uint32_t k;
    uint64_t n;
    int filters;           /* independent filters (key sets) pooled */
    uint64_t probes, fp;   /* over all filters */
    double measured;       /* pooled rate */
    double lo, hi;         /* 95% Wilson interval of the pooled probes */
    double flo, fhi;       /* 95% interval across the filters (Student t) */
    double classic, putze, exact;
    int outside;           /* exact formula outside [flo, fhi] */
    int outside_wilson;    /* exact formula outside [lo, hi] */
    double expected_fp;    /* exact * probes */
    int low_res;           /* fewer than 10^4 expected: --fpr-max-probes stopped it */
    double wilson_rel;     /* Wilson half-width / measured */
    double filters_rel;    /* half-width across filters / measured */
    double seconds;        /* wall time of the row */
} sbfb_fpr;

typedef struct sbfb_metric {
    char name[96];
    double value;
    char unit[32];
} sbfb_metric;

/* What the machine did during the run (bench_timer.c). */
typedef struct sbfb_disturb {
    double load_start[3], load_end[3]; /* /proc/loadavg: 1, 5, 15 minutes */
    double others_cpu;     /* CPUs' worth of time other processes used, on average */
    double steal;          /* share of a CPU's time the hypervisor took */
    uint64_t windows, dropped;  /* timed windows, and those that lost CPU time */
    long faults;           /* page faults inside timed windows */
    int measurements;
    double spread_median, spread_p90;  /* of the measurements' window spreads */
    int busy, wide;        /* the report's warnings */
} sbfb_disturb;

typedef struct sbfb_results {
    sbfb_tput *tput; size_t ntput, captput;
    sbfb_hash hash[SBFB_MAX_ISA]; int nhash;
    sbfb_roof roof[SBFB_MAX_SIZES]; int nroof;
    /* the roofline loop run on each filter's own bytes (sbf_data), right
     * after the default kernels' contains: the ratio's denominator */
    double roof_at[SBFB_MAX_LAYOUTS][SBFB_MAX_SIZES];
    int roof_at_dist[SBFB_MAX_LAYOUTS][SBFB_MAX_SIZES];   /* its winning distance */
    sbfb_peer *peer; size_t npeer, cappeer;
    sbfb_lat *lat; size_t nlat, caplat;
    sbfb_fpr *fpr; size_t nfpr, capfpr;
    sbfb_metric *met; size_t nmet, capmet;
    /* rows of sections with a type of their own (sbfb_ext_add), by
     * position in sbfb_sections */
    struct sbfb_ext { void *rows; size_t n, cap, size; } ext[SBFB_MAX_SECTIONS];
    sbfb_disturb disturb;  /* the machine meanwhile (sbfb_disturb_*) */
    char skipped[256];     /* bench-check: ISAs not measured here */
    double seconds;        /* wall time of the whole run */
} sbfb_results;

/* ---------------------------------------------------------------- utils */

/* Keys: key(i) = a bijective mix of i, so key(i) for i < n are n distinct
 * keys and key(i) for i >= n are surely not among them. */
uint64_t sbfb_mix(uint64_t x);
uint64_t sbfb_key(uint64_t seed, uint64_t i);
void sbfb_keys(uint64_t seed, uint64_t first, size_t n, uint64_t *out);
/* n keys drawn uniformly (with repetition) from key(lo .. lo+range-1). */
void sbfb_keys_random(uint64_t seed, uint64_t stream, uint64_t lo, uint64_t range,
                      size_t n, uint64_t *out);

/* Variable-length keys (8..64 random bytes) in one arena. */
typedef struct sbfb_strs {
    unsigned char *arena;
    const void **ptr;
    size_t *len;
    size_t n;
} sbfb_strs;
int sbfb_strs_make(sbfb_strs *s, uint64_t seed, uint64_t first, size_t n);
void sbfb_strs_free(sbfb_strs *s);

/* xoshiro256** for everything that is not a key. */
typedef struct sbfb_rng { uint64_t s[4]; } sbfb_rng;
void sbfb_rng_seed(sbfb_rng *r, uint64_t seed);
uint64_t sbfb_rng_next(sbfb_rng *r);

double sbfb_now(void);                 /* seconds, monotonic */
void *sbfb_alloc_huge(size_t bytes);   /* 2 MiB aligned, THP advised, zeroed */
void sbfb_free_huge(void *p, size_t bytes);
void *sbfb_xmalloc(size_t bytes);      /* exits on failure */
/* The ISAs of the library's registry (sbf_isa_list), the reference (scalar)
 * first and the best last; only the available ones when `available_only`. */
int sbfb_isas(int *out, int cap, int available_only);

/* Cycle counter (TSC / CNTVCT; clock_gettime ns elsewhere). */
uint64_t sbfb_ticks_begin(void);
uint64_t sbfb_ticks_end(void);
double sbfb_ticks_hz(void);            /* measured once, cached */
const char *sbfb_timer_name(void);
/* What the clock resolves, measured once (at start-up: sbfb_run_sections). */
typedef struct sbfb_clock {
    double hz, tick_ns;
    uint64_t gran_ticks;     /* smallest usual non-zero step of back-to-back reads */
    uint64_t ovh_ticks;      /* median cost of an empty timed region (begin/end) */
    uint64_t ovh_min_ticks;  /* its minimum */
} sbfb_clock;
const sbfb_clock *sbfb_clock_get(void);
/* The smallest non-zero value among d[0..n) that makes up at least 10% of
 * the non-zero values (1 when none is): the clock's usual step, given
 * differences of back-to-back reads. Sorts d. */
uint64_t sbfb_usual_step(uint64_t *d, size_t n);
/* The median cost of an empty timed region, measured now (min: its minimum,
 * may be NULL). */
uint64_t sbfb_timer_overhead(uint64_t *min);

/* Progress on stderr. */
void sbfb_progress_init(int mode, int total);
void sbfb_progress(const char *fmt, ...) SBFB_PRINTF(1, 2);
void sbfb_progress_done(void);
void sbfb_note(const char *fmt, ...) SBFB_PRINTF(1, 2);   /* plain line */

/* Machine and build. */
typedef struct sbfb_machine {
    char host[128];
    char date[32];          /* ISO 8601, local time */
    char cpu[160];
    char cpu_id[96];        /* vendor family/model/stepping (x86), else "" */
    int cpus;
    size_t l1d, l2, l3;     /* bytes, 0 when unknown */
    int cache_from_cpuid;   /* no sysfs cache directory: l1d, l2 from sysconf */
    size_t mem_avail;
    char compiler[128];
    char thp[64];
    char kernel[128];
} sbfb_machine;
void sbfb_machine_get(sbfb_machine *m);

/* The layouts: every id the library names (sbf_layout_name), 0..n-1, so a
 * layout added to the library is measured without a change here. */
int sbfb_nlayouts(void);
const char *sbfb_layout_name(int layout);
unsigned sbfb_cell_bits(int layout); /* 1, or 4 for counters */
int sbfb_layout_from_name(const char *s);
void sbfb_fmt_bytes(size_t bytes, char *buf, size_t cap);

/* ---------------------------------------------------------------- suites */

#define SBFB_NEG_BASE (UINT64_C(1) << 62)   /* key indices never inserted */
/* Probe keys per timed pass of a filter of n keys: enough to spread over a
 * DRAM filter, few enough to keep a pass short. */
size_t sbfb_probe_count(const sbfb_opts *o, uint64_t n);

/* Bits/k used for a throughput filter of `bytes` at opts->bits_per_key. */
void sbfb_geometry(int layout, size_t bytes, double bpk, uint64_t *bits,
                   uint64_t *n, uint32_t *k);
/* Creates a filter with the ISA forced (sbf_isa_set, then sbf_create). */
int sbfb_create(sbf_filter **f, int isa, int layout, uint64_t bits, uint32_t k,
                uint64_t n);

void sbfb_run_hash(const sbfb_opts *o, sbfb_results *r);
void sbfb_run_roofline(const sbfb_opts *o, sbfb_results *r);
/* Throughput and latency on filled filters, per (size, layout). */
void sbfb_run_filters(const sbfb_opts *o, sbfb_results *r);
void sbfb_run_libbloom(const sbfb_opts *o, sbfb_results *r);
/* Latency histograms of one filled filter (pos/neg: P probe keys). */
void sbfb_latency_filter(const sbfb_opts *o, sbfb_results *r, const sbf_filter *f,
                         int isa, int layout, int size_idx, size_t bytes,
                         const uint64_t *pos, const uint64_t *neg, size_t P);
void sbfb_run_fpr(const sbfb_opts *o, sbfb_results *r);
/* Wilson score interval of x successes in n trials at z, clamped to [0, 1]
 * (bench_fpr.c). */
void sbfb_wilson(uint64_t x, uint64_t n, double z, double *lo, double *hi);
int sbfb_run_check(const sbfb_opts *o, sbfb_results *r);
/* The roofline loop over `lines` 64-byte lines for n random keys, the line
 * of key i + dist prefetched when key i's is read (a sliding window). */
uint64_t sbfb_roofline_loop(const uint64_t *mem, uint64_t lines,
                            const uint64_t *keys, size_t n, size_t dist);
/* The roofline: the best of sbfb_roofline_loop over the distances
 * sbfb_roof_dists (each timed by sbfb_time_best); *dist gets the winner. */
#define SBFB_NROOF_DISTS 5
extern const int sbfb_roof_dists[SBFB_NROOF_DISTS];
double sbfb_roofline_swept(const sbfb_opts *o, const uint64_t *mem, uint64_t lines,
                           const uint64_t *keys, size_t n, int *dist);
/* An operation on keys [off, off + len) of a context's key array. */
typedef void (*sbfb_op)(void *ctx, size_t off, size_t len);

/* ------------------------------------------------------------- timing */
/* bench_timer.c (the method: its header comment, and bench/README.md). */
#define SBFB_MAX_WINDOWS 512
#define SBFB_PCTL 10           /* the percentile of the kept windows reported */
/* A run is "busy" (a bold warning in the report) when other processes used
 * more than SBFB_BUSY_OTHERS CPUs on average, the hypervisor stole more than
 * SBFB_BUSY_STEAL, more than SBFB_BUSY_DROPPED of the windows lost CPU time,
 * or the load average at the start exceeded the CPUs; its spread is "wide"
 * when the median (p90) measurement's windows spread by more than
 * SBFB_WIDE_MEDIAN (SBFB_WIDE_P90). */
#define SBFB_BUSY_OTHERS 0.25
#define SBFB_BUSY_STEAL 0.05
#define SBFB_BUSY_DROPPED 0.05
#define SBFB_WIDE_MEDIAN 0.05
#define SBFB_WIDE_P90 0.15

typedef struct sbfb_job {
    sbfb_op fn;
    void *ctx;
    size_t total;              /* keys the context holds */
    void (*wrap)(void *ctx);   /* untimed, before each pass over the keys; NULL: none */
} sbfb_job;

typedef struct sbfb_timing {
    double ns;                 /* ns per key: SBFB_PCTL-th percentile of the kept windows */
    double spread;             /* (p75 - p25) / p50 of the kept windows */
    int windows, dropped;      /* timed; left out (lost CPU time) */
    long faults;               /* page faults inside the windows */
    double win[SBFB_MAX_WINDOWS];   /* ns per key of each window, NaN: dropped */
} sbfb_timing;

/* Times a job in windows of about 1 ms (calls of a calibrated length
 * cycling through its keys) for reps * min_time, at least 16 windows. */
void sbfb_time_job(const sbfb_opts *o, const sbfb_job *j, sbfb_timing *t);
/* n jobs (at most 16) interleaved window by window, for n times as long. */
void sbfb_time_jobs(const sbfb_opts *o, const sbfb_job *jobs, int n, sbfb_timing *t);
/* a / b, of two jobs timed interleaved. */
double sbfb_timing_ratio(const sbfb_timing *a, const sbfb_timing *b);
/* sbfb_time_job of fn over `total` keys; its ns. */
double sbfb_time_best(const sbfb_opts *o, sbfb_op fn, void *ctx, size_t total);
/* The machine around the run: start before the first measurement. */
void sbfb_disturb_start(sbfb_disturb *d);
void sbfb_disturb_finish(sbfb_disturb *d, int cpus);
void sbfb_disturb_print(FILE *out, const sbfb_disturb *d, int md);

/* ------------------------------------------------------------- storage */
/* bench_store.c. The sbfb_add_* functions append a zeroed row and exit on
 * out of memory. */
sbfb_tput *sbfb_add_tput(sbfb_results *r);
sbfb_peer *sbfb_add_peer(sbfb_results *r);
sbfb_lat *sbfb_add_lat(sbfb_results *r);
sbfb_fpr *sbfb_add_fpr(sbfb_results *r);
void sbfb_add_metric(sbfb_results *r, const char *name, double v, const char *unit);
/* A zeroed row of `size` bytes in the growing array of a section of its own
 * (one that keeps rows of a type bench.h does not know); sbfb_ext_rows
 * gives them back. Freed by sbfb_results_free. */
void *sbfb_ext_add(sbfb_results *r, const struct sbfb_section *sec, size_t size);
const void *sbfb_ext_rows(const sbfb_results *r, const struct sbfb_section *sec,
                          size_t *n);
void sbfb_results_free(sbfb_results *r);

/* Lookups over the stored rows (NULL / 0 when absent). */
const sbfb_tput *sbfb_find_tput(const sbfb_results *r, int layout, int isa, int si,
                                const char *op, const char *mode, const char *keys,
                                const char *lookup);
const sbfb_peer *sbfb_find_peer(const sbfb_results *r, int si, const char *op,
                                const char *keys, const char *lookup);
double sbfb_roof_ns(const sbfb_results *r, int si);
/* The ISA of the default kernels (that of the string rows when measured). */
int sbfb_default_isa_of(const sbfb_results *r);
/* Speedups against scalar and ratios to the roofline, once all is measured. */
void sbfb_derive(sbfb_results *r);

/* ---------------------------------------------------------- histogram */
/* bench_hist.c: log-linear buckets of ticks, exact below 2 * SBFB_LAT_SUB,
 * then SBFB_LAT_SUB linear steps per power of two. */
unsigned sbfb_hist_bucket(uint64_t ticks);
void sbfb_hist_range(unsigned bucket, double *lo, double *hi);   /* ticks */
void sbfb_lat_print_hist(FILE *out, const sbfb_lat *l);

/* -------------------------------------------------------------- tables */
/* bench_table.c: a table printed either aligned (text) or as Markdown. */
#define SBFB_TBL_ROWS 512
#define SBFB_TBL_COLS 24  /* the headline: size, bytes, 8 layouts, roofline, libbloom */
typedef struct sbfb_tbl {
    int ncol, nrow;
    char cells[SBFB_TBL_ROWS][SBFB_TBL_COLS][48];
    int right[SBFB_TBL_COLS];   /* right-aligned column */
} sbfb_tbl;
sbfb_tbl *sbfb_tbl_new(int ncol);   /* free() it */
void sbfb_tbl_set(sbfb_tbl *t, int row, int col, const char *fmt, ...) SBFB_PRINTF(4, 5);
void sbfb_tbl_print(const sbfb_tbl *t, FILE *out, int md);
/* ns with 3 significant digits, "-" when not a positive number */
void sbfb_fmt_ns(char *buf, size_t cap, double ns);

/* The existing sections' tables; md: Markdown, else aligned text. */
void sbfb_table_headline(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md);
void sbfb_table_isa_summary(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md,
                            int layout);
void sbfb_table_hash(FILE *out, const sbfb_results *r, int md);
void sbfb_table_peer(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md);
void sbfb_table_tput(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md);
void sbfb_table_lat(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md);
void sbfb_table_fpr(FILE *out, const sbfb_results *r, int md);

/* ---------------------------------------------------------------- JSON */
/* bench_json.c: a streaming writer; a NULL key writes an array element. */
typedef struct sbfb_jw {
    FILE *f;
    int depth;
    int count[32];
    int inline_[32];
} sbfb_jw;
void sbfb_jw_key(sbfb_jw *j, const char *k);
void sbfb_jw_open(sbfb_jw *j, const char *k, char c, int inl);  /* c: '{' or '[' */
void sbfb_jw_close(sbfb_jw *j, char c);
void sbfb_jw_str(sbfb_jw *j, const char *k, const char *v);    /* NULL: null */
void sbfb_jw_num(sbfb_jw *j, const char *k, double v);         /* not finite: null */
void sbfb_jw_u64(sbfb_jw *j, const char *k, uint64_t v);
void sbfb_jw_int(sbfb_jw *j, const char *k, long long v);
void sbfb_jw_bool(sbfb_jw *j, const char *k, int v);

void sbfb_json_hash(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
void sbfb_json_roofline(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
void sbfb_json_tput(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
void sbfb_json_peer(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
void sbfb_json_lat(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
void sbfb_json_fpr(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);

/* ------------------------------------------------------- Markdown, text */
/* bench_report.c: each section's part of REPORT.md (heading, prose, table). */
void sbfb_md_headline(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_md_hash(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_md_peer(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_md_tput(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_md_lat(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_md_fpr(FILE *f, const sbfb_opts *o, const sbfb_results *r);
/* ... and of the text on stdout */
void sbfb_text_headline(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_text_hash(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_text_peer(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_text_tput(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_text_lat(FILE *f, const sbfb_opts *o, const sbfb_results *r);
void sbfb_text_fpr(FILE *f, const sbfb_opts *o, const sbfb_results *r);

/* ---------------------------------------------------------- plot data */
/* bench_plot.c. Each writes its .dat files into dir and its variables into
 * vars (plotvars.gp, which the scripts/<gnuplot>.gp of its section loads);
 * returns 1 when it wrote data to draw, 0 when it had none. */
FILE *sbfb_open_in(const char *dir, const char *name);   /* notes failures */
int sbfb_plot_tput(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r);
int sbfb_plot_lat(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r);
int sbfb_plot_fpr(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r);

/* ------------------------------------------------------------ sections */
/*
 * A section of the harness: what it measures (run, selected by --suite
 * NAME) and what it adds to each output. Every member but name may be NULL:
 * run NULL is an output-only section (the headline); an output callback
 * NULL means the section adds nothing there. Output callbacks write nothing
 * when their rows are absent. Sections are listed once, in order, in
 * SBFB_SECTIONS (below): runs happen in that order (a run
 * function shared by two selected sections runs once), and every output
 * follows it too. bench/README.md, "Adding a section".
 */
typedef struct sbfb_section {
    const char *name;      /* --suite name; also the section's name in notes */
    unsigned suite;        /* its bit in sbfb_opts.suites; 0: always output */
    void (*run)(const sbfb_opts *o, sbfb_results *r);
    void (*text)(FILE *out, const sbfb_opts *o, const sbfb_results *r);
    void (*markdown)(FILE *out, const sbfb_opts *o, const sbfb_results *r);
    void (*json)(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r);
    int (*plot)(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r);
    const char *gnuplot;   /* scripts/<gnuplot>.gp draws what plot wrote */
} sbfb_section;

/*
 * The registry: every section, in order (runs and outputs follow it). Each
 * X(name) is a `const sbfb_section sbfb_sec_<name>` defined in the section's
 * own file (the existing ones: bench_section.c). A new section is one line.
 */
#define SBFB_SECTIONS(X)                                                     \
    X(headline)                                                              \
    X(hash)                                                                  \
    X(lanes)                                                                 \
    X(roofline)                                                              \
    X(tput)                                                                  \
    X(libbloom)                                                              \
    X(latency)                                                               \
    X(hot)                                                                   \
    X(fpr)                                                                   \
    X(keys)

#define SBFB_SECTION_DECLARE(name) extern const sbfb_section sbfb_sec_##name;
SBFB_SECTIONS(SBFB_SECTION_DECLARE)
#undef SBFB_SECTION_DECLARE

/* The registered sections, in order, NULL-terminated. */
extern const sbfb_section *const sbfb_sections[];
/* The suite bit of --suite NAME ("all": every one); 0 when unknown. */
unsigned sbfb_suite_bit(const char *name);
/* Runs the selected sections' measurements, in order. */
void sbfb_run_sections(const sbfb_opts *o, sbfb_results *r);

/* REPORT.md's parts, in order: each markdown callback writes only its part
 * of the one sbfb_md_part names (bench_report.c). */
enum { SBFB_MD_SUMMARY, SBFB_MD_METHOD, SBFB_MD_TABLES };
extern int sbfb_md_part;

/* Output drivers: header, then each section in order. */
void sbfb_print_header(FILE *out, const sbfb_opts *o, const sbfb_machine *m, int md);
void sbfb_print_tables(FILE *out, const sbfb_opts *o, const sbfb_results *r,
                       const sbfb_machine *m);
int sbfb_write_json(const char *path, const sbfb_opts *o, const sbfb_results *r,
                    const sbfb_machine *m);
int sbfb_write_report(const char *dir, const sbfb_opts *o, const sbfb_results *r,
                      const sbfb_machine *m);
void sbfb_write_plot_data(const char *dir, const sbfb_opts *o, const sbfb_results *r);

#endif /* SBFB_BENCH_H_3C94E71B */
