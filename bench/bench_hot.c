/*
 * The hot path as callers use it (issue 8), `--suite hot`:
 *
 *  single   single-key add/contains beside batched ones and beside the hash
 *           alone, per layout and ISA, on an L2-resident filter (u64 keys;
 *           string keys with the default kernels);
 *  roof     the memory roofline as the best of a sweep of prefetch
 *           distances (sliding window) on a filter's own bytes, with the
 *           winning distance, and batched contains (blocked, split-block)
 *           beside it; also the sweep run by 2 threads;
 *  threads  SBF_CONCURRENT adds and shared read-only queries (blocked) by
 *           1..nproc threads: aggregate Mkeys/s, at L2 and the largest size;
 *  conc     the cost of SBF_CONCURRENT with one thread: plain vs concurrent
 *           add (batched and single) and batched contains, per layout.
 *
 * Timing: CLOCK_MONOTONIC, best of max(reps, 5) repetitions; adds are timed
 * from a cleared filter to the design load (opts.bits_per_key), so every rep
 * adds new keys. Ratios are of numbers taken in the same run.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static volatile uint64_t g_hot_sink;

static hot_row *row(sbfb_results *r, const char *table, int layout, int isa, int si,
                    size_t bytes, const char *what)
{
    hot_row *h = sbfb_ext_add(r, &sbfb_sec_hot, sizeof *h);
    h->table = table;
    h->layout = layout;
    h->isa = isa;
    h->size_idx = si;
    h->bytes = bytes;
    snprintf(h->what, sizeof h->what, "%s", what);
    h->threads = 1;
    return h;
}

/* A row of the single-key table. */
static void put(sbfb_results *r, int layout, int isa, int si, size_t bytes,
                const char *what, double ns, double ratio)
{
    hot_row *h = row(r, "single", layout, isa, si, bytes, what);
    h->ns = ns;
    h->ratio = ratio;
}

static int reps_of(const sbfb_opts *o)
{
    return o->reps < 5 ? 5 : o->reps;
}

/* The index of the L2 size (else the smallest) and of the largest. */
static int size_l2(const sbfb_opts *o)
{
    for (int i = 0; i < o->nsizes; i++)
        if (strcmp(o->sizes[i].label, "L2") == 0)
            return i;
    int best = 0;
    for (int i = 1; i < o->nsizes; i++)
        if (o->sizes[i].bytes < o->sizes[best].bytes)
            best = i;
    return best;
}

static int size_big(const sbfb_opts *o)
{
    int best = 0;
    for (int i = 1; i < o->nsizes; i++)
        if (o->sizes[i].bytes > o->sizes[best].bytes)
            best = i;
    return best;
}

static sbf_filter *make(int isa, int layout, size_t bytes, uint32_t flags,
                        uint64_t *n_out)
{
    uint64_t bits, n;
    uint32_t k;
    sbfb_geometry(layout, bytes, 10.0, &bits, &n, &k);
    sbf_params p = { 0 };
    p.layout = layout;
    p.bits = bits;
    p.k = k;
    p.expected_n = n;
    p.flags = flags;
    sbf_filter *f = NULL;
    if (sbf_isa_set(isa) != SBF_OK || sbf_create(&f, &p) != SBF_OK)
        return NULL;
    sbf_isa_set(SBF_ISA_AUTO);
    if (n_out)
        *n_out = n;
    return f;
}

/* ---------------------------------------------------------- timed loops */

typedef enum {
    T_HASH, T_HASH_STR, T_ADD1, T_CONT1, T_ADDN, T_CONTN, T_CONT1_STR, T_ADD1_STR
} hot_op;

typedef struct loop_ctx {
    sbf_filter *f;
    const uint64_t *keys;
    const sbfb_strs *strs;
    size_t n;
    uint8_t *out;
} loop_ctx;

SBFB_NOINLINE static void run_op(hot_op op, const loop_ctx *c)
{
    uint64_t s = 0, h[2];
    switch (op) {
    case T_HASH:
        for (size_t i = 0; i < c->n; i++) {
            sbf_murmur3_x64_128(&c->keys[i], 8, 0, h);
            s += h[0] ^ h[1];
        }
        break;
    case T_HASH_STR:
        for (size_t i = 0; i < c->n; i++) {
            sbf_murmur3_x64_128(c->strs->ptr[i], c->strs->len[i], 0, h);
            s += h[0] ^ h[1];
        }
        break;
    case T_ADD1:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_add(c->f, &c->keys[i], 8);
        break;
    case T_ADD1_STR:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_add(c->f, c->strs->ptr[i], c->strs->len[i]);
        break;
    case T_CONT1:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_contains(c->f, &c->keys[i], 8);
        break;
    case T_CONT1_STR:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_contains(c->f, c->strs->ptr[i], c->strs->len[i]);
        break;
    case T_ADDN:
        for (size_t i = 0; i < c->n; i += 4096)
            (void)sbf_add_u64(c->f, c->keys + i, c->n - i < 4096 ? c->n - i : 4096);
        break;
    case T_CONTN:
        for (size_t i = 0; i < c->n; i += 4096)
            s += sbf_contains_u64(c->f, c->keys + i, c->n - i < 4096 ? c->n - i : 4096, c->out);
        break;
    }
    g_hot_sink += s;
}

/* Best ns per key of reps runs; adds start from a cleared filter. */
static double best_ns(const sbfb_opts *o, hot_op op, const loop_ctx *c)
{
    const int is_add = op == T_ADD1 || op == T_ADDN || op == T_ADD1_STR;
    double best = INFINITY;
    run_op(op, c); /* warm */
    for (int rep = 0; rep < reps_of(o); rep++) {
        if (is_add)
            sbf_clear(c->f);
        const double t0 = sbfb_now();
        run_op(op, c);
        const double ns = (sbfb_now() - t0) * 1e9 / (double)c->n;
        if (ns < best)
            best = ns;
    }
    return best;
}

/* ---------------------------------------------------------------- single */

static void run_single(const sbfb_opts *o, sbfb_results *r)
{
    const int si = size_l2(o);
    const size_t bytes = o->sizes[si].bytes;
    for (int layout = 0; layout < SBFB_NLAYOUTS; layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        uint64_t n = 0;
        sbf_filter *probe = make(SBF_ISA_SCALAR, layout, bytes, 0, &n);
        if (probe == NULL)
            continue;
        sbf_free(probe);
        if (n > (1u << 20))
            n = 1u << 20;
        uint64_t *keys = sbfb_xmalloc(n * 8), *neg = sbfb_xmalloc(n * 8);
        uint8_t *out = sbfb_xmalloc(4096);
        sbfb_keys(o->seed, 0, n, keys);
        sbfb_keys(o->seed, UINT64_C(1) << 62, n, neg);
        for (int ii = 0; ii < o->nisa; ii++) {
            const int isa = o->isas[ii];
            sbfb_progress("hot single %s %s", sbfb_layout_name(layout), sbf_isa_name(isa));
            sbf_filter *f = make(isa, layout, bytes, 0, NULL);
            if (f == NULL)
                continue;
            loop_ctx a = { f, keys, NULL, n, out }, q = { f, neg, NULL, n, out };
            const double hash = best_ns(o, T_HASH, &q);
            const double add1 = best_ns(o, T_ADD1, &a);
            const double addn = best_ns(o, T_ADDN, &a);
            run_op(T_ADDN, &a); /* filled to the design load for the queries */
            const double cont1 = best_ns(o, T_CONT1, &q);
            const double contn = best_ns(o, T_CONTN, &q);
            put(r, layout, isa, si, bytes, "hash (u64)", hash, 1);
            put(r, layout, isa, si, bytes, "contains single (absent)", cont1, cont1 / hash);
            put(r, layout, isa, si, bytes, "add single", add1, add1 / cont1);
            put(r, layout, isa, si, bytes, "contains batch (absent)", contn, contn / hash);
            put(r, layout, isa, si, bytes, "add batch", addn, addn / contn);
            sbf_free(f);
        }
        /* String keys, default kernels. */
        sbfb_strs s;
        const size_t ns = n < 65536 ? n : 65536;
        if (sbfb_strs_make(&s, o->seed, 0, ns) == 0) {
            sbf_filter *f = make(SBF_ISA_AUTO, layout, bytes, 0, NULL);
            if (f != NULL) {
                loop_ctx c = { f, NULL, &s, ns, out };
                const double hash = best_ns(o, T_HASH_STR, &c);
                const double add1 = best_ns(o, T_ADD1_STR, &c);
                const double cont1 = best_ns(o, T_CONT1_STR, &c);
                const int isa = sbf_isa_active();
                put(r, layout, isa, si, bytes, "hash (str 8..64 B)", hash, 1);
                put(r, layout, isa, si, bytes, "contains single (str, present)", cont1,
                    cont1 / hash);
                put(r, layout, isa, si, bytes, "add single (str)", add1, add1 / cont1);
                sbf_free(f);
            }
            sbfb_strs_free(&s);
        }
        free(keys);
        free(neg);
        free(out);
    }
}

/* -------------------------------------------------------------- roofline */

typedef struct sweep_arg {
    const uint64_t *mem;
    uint64_t lines;
    const uint64_t *keys;
    size_t n, dist;
    double ns;
} sweep_arg;

static double time_sweep(const uint64_t *mem, uint64_t lines, const uint64_t *keys,
                         size_t n, size_t dist, int reps)
{
    double best = INFINITY;
    for (int rep = 0; rep < reps; rep++) {
        const double t0 = sbfb_now();
        g_hot_sink += sbfb_roofline_loop(mem, lines, keys, n, dist);
        const double ns = (sbfb_now() - t0) * 1e9 / (double)n;
        if (ns < best)
            best = ns;
    }
    return best;
}

static void *sweep_thread(void *p)
{
    sweep_arg *a = p;
    a->ns = time_sweep(a->mem, a->lines, a->keys, a->n, a->dist, 3);
    return NULL;
}

static void run_roof(const sbfb_opts *o, sbfb_results *r)
{
    const int sizes[2] = { size_l2(o), size_big(o) };
    for (int s = 0; s < 2; s++) {
        const int si = sizes[s];
        if (s == 1 && si == sizes[0])
            break;
        const size_t bytes = o->sizes[si].bytes;
        const size_t n = (size_t)1 << 22;
        uint64_t *keys = sbfb_xmalloc(n * 8 * 2);
        uint8_t *out = sbfb_xmalloc(4096);
        sbfb_keys(o->seed, UINT64_C(1) << 62, 2 * n, keys);
        for (int layout = SBF_BLOCKED; layout <= SBF_SPLIT_BLOCK; layout++) {
            if (!(o->layouts & (1u << layout)))
                continue;
            sbfb_progress("hot roofline %s %s", o->sizes[si].label, sbfb_layout_name(layout));
            sbf_filter *f = make(SBF_ISA_AUTO, layout, bytes, 0, NULL);
            if (f == NULL) {
                sbfb_note("hot roofline %s: cannot create the filter", o->sizes[si].label);
                continue;
            }
            /* Written once (real pages, not the shared zero page); a few keys. */
            sbf_clear(f);
            (void)sbf_add_u64(f, keys + n, n / 4);
            size_t len;
            const uint64_t *mem = sbf_data(f, &len);
            int dist = 0;
            const double roof = sbfb_roofline_swept(o, mem, len / 64, keys, n, &dist);
            loop_ctx q = { f, keys, NULL, n, out };
            const double cont = best_ns(o, T_CONTN, &q);
            hot_row *h = row(r, "roof", layout, sbf_isa_active(), si, len,
                             "roofline (swept)");
            h->ns = roof;
            h->dist = dist;
            h->ratio = 1;
            h = row(r, "roof", layout, sbf_isa_active(), si, len, "contains batch (absent)");
            h->ns = cont;
            h->ratio = cont / roof;
            if (layout == SBF_BLOCKED) {
                /* The same sweep from 2 threads on the same bytes. */
                pthread_t th[2];
                sweep_arg a[2];
                for (int t = 0; t < 2; t++) {
                    a[t] = (sweep_arg){ mem, len / 64, keys + (size_t)t * (n / 2), n / 2,
                                        (size_t)dist, 0 };
                    pthread_create(&th[t], NULL, sweep_thread, &a[t]);
                }
                for (int t = 0; t < 2; t++)
                    pthread_join(th[t], NULL);
                h = row(r, "roof", layout, sbf_isa_active(), si, len,
                        "roofline, 2 threads (aggregate)");
                h->threads = 2;
                h->dist = dist;
                h->ns = 1.0 / (1.0 / a[0].ns + 1.0 / a[1].ns);
                h->ratio = h->ns / roof;
            }
            sbf_free(f);
        }
        free(keys);
        free(out);
    }
}

/* ---------------------------------------------------------- thread scaling */

typedef struct thr_arg {
    sbf_filter *f;
    const uint64_t *keys;
    size_t n;
    int mode;            /* 0 batched add, 1 single add, 2 batched contains */
    pthread_barrier_t *bar;
    double t0, t1;
} thr_arg;

static void *thr_main(void *p)
{
    thr_arg *a = p;
    uint8_t out[1024];
    size_t s = 0;
    pthread_barrier_wait(a->bar);
    a->t0 = sbfb_now();
    for (size_t i = 0; i < a->n; i += 1024) {
        const size_t m = a->n - i < 1024 ? a->n - i : 1024;
        if (a->mode == 0)
            (void)sbf_add_u64(a->f, a->keys + i, m);
        else if (a->mode == 1)
            for (size_t j = 0; j < m; j++)
                s += (size_t)sbf_add(a->f, &a->keys[i + j], 8);
        else
            s += sbf_contains_u64(a->f, a->keys + i, m, out);
    }
    a->t1 = sbfb_now();
    g_hot_sink += s;
    return NULL;
}

/* Aggregate ns per key of T threads (first start to last finish). */
static double run_threads(sbf_filter *f, const uint64_t *keys, size_t per, int T,
                          int mode)
{
    pthread_t th[64];
    thr_arg a[64];
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, (unsigned)T);
    for (int t = 0; t < T; t++) {
        a[t] = (thr_arg){ f, keys + (size_t)t * per, per, mode, &bar, 0, 0 };
        pthread_create(&th[t], NULL, thr_main, &a[t]);
    }
    double t0 = INFINITY, t1 = 0;
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        t0 = a[t].t0 < t0 ? a[t].t0 : t0;
        t1 = a[t].t1 > t1 ? a[t].t1 : t1;
    }
    pthread_barrier_destroy(&bar);
    return (t1 - t0) * 1e9 / ((double)per * T);
}

static void run_scaling(const sbfb_opts *o, sbfb_results *r)
{
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    const int maxt = np < 1 ? 1 : np > 64 ? 64 : (int)np;
    const int sizes[2] = { size_l2(o), size_big(o) };
    for (int s = 0; s < 2; s++) {
        const int si = sizes[s];
        if (s == 1 && si == sizes[0])
            break;
        const size_t bytes = o->sizes[si].bytes;
        uint64_t n = 0;
        /* Adds: a concurrent filter. Queries: a plain one, filled, shared
         * read-only (what plain filters allow from any number of threads). */
        sbf_filter *fc = make(SBF_ISA_AUTO, SBF_BLOCKED, bytes, SBF_CONCURRENT, &n);
        sbf_filter *fp = make(SBF_ISA_AUTO, SBF_BLOCKED, bytes, 0, NULL);
        if (fc == NULL || fp == NULL) {
            sbf_free(fc);
            sbf_free(fp);
            continue;
        }
        const size_t per = (size_t)1 << (o->quick ? 19 : 21);
        uint64_t *keys = sbfb_xmalloc(per * (size_t)maxt * 8);
        sbfb_keys(o->seed, 0, per * (size_t)maxt, keys);
        (void)sbf_add_u64(fp, keys, per * (size_t)maxt < n ? per * (size_t)maxt : n);
        static const char *const what[3] = { "concurrent add batch", "concurrent add single",
                                              "plain contains batch (shared, read-only)" };
        for (int mode = 0; mode < 3; mode++) {
            for (int T = 1; T <= maxt; T++) {
                sbfb_progress("hot threads %s %s x%d", o->sizes[si].label, what[mode], T);
                double best = INFINITY;
                for (int rep = 0; rep < 3; rep++) {
                    if (mode < 2)
                        sbf_clear(fc);
                    const double ns = run_threads(mode < 2 ? fc : fp, keys, per, T, mode);
                    best = ns < best ? ns : best;
                }
                hot_row *h = row(r, "threads", SBF_BLOCKED, sbf_isa_active(), si, bytes,
                                 what[mode]);
                h->threads = T;
                h->ns = best;
            }
        }
        free(keys);
        sbf_free(fc);
        sbf_free(fp);
    }
}

/* ------------------------------------------------------ SBF_CONCURRENT cost */

/* One size; sz 1 (the large one): blocked and split-block, batched calls. */
static void conc_at(const sbfb_opts *o, sbfb_results *r, int si, int sz)
{
    const size_t bytes = o->sizes[si].bytes;
    for (int layout = 0; layout < SBFB_NLAYOUTS; layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        if (sz == 1 && layout != SBF_BLOCKED && layout != SBF_SPLIT_BLOCK)
            continue;
        sbfb_progress("hot concurrent cost %s %s", o->sizes[si].label,
                      sbfb_layout_name(layout));
        uint64_t n = 0;
        sbf_filter *p = make(SBF_ISA_AUTO, layout, bytes, 0, &n);
        sbf_filter *c = make(SBF_ISA_AUTO, layout, bytes, SBF_CONCURRENT, NULL);
        if (p == NULL || c == NULL) {
            sbf_free(p);
            sbf_free(c);
            continue;
        }
        if (n > (1u << 20))
            n = 1u << 20;
        uint64_t *keys = sbfb_xmalloc(n * 8), *neg = sbfb_xmalloc(n * 8);
        uint8_t *out = sbfb_xmalloc(4096);
        sbfb_keys(o->seed, 0, n, keys);
        sbfb_keys(o->seed, UINT64_C(1) << 62, n, neg);
        static const hot_op ops[4] = { T_ADDN, T_ADD1, T_CONTN, T_CONT1 };
        static const char *const what[4] = { "add batch", "add single",
                                             "contains batch (absent)",
                                             "contains single (absent)" };
        for (int i = 0; i < 4; i++) {
            if (sz == 1 && (ops[i] == T_ADD1 || ops[i] == T_CONT1))
                continue;
            const int query = ops[i] == T_CONTN || ops[i] == T_CONT1;
            loop_ctx lp = { p, query ? neg : keys, NULL, n, out };
            loop_ctx lc = { c, query ? neg : keys, NULL, n, out };
            if (query) {
                run_op(T_ADDN, &(loop_ctx){ p, keys, NULL, n, out });
                run_op(T_ADDN, &(loop_ctx){ c, keys, NULL, n, out });
            }
            const double tp = best_ns(o, ops[i], &lp), tc = best_ns(o, ops[i], &lc);
            hot_row *h = row(r, "conc", layout, sbf_isa_active(), si, bytes, what[i]);
            h->ns = tc;
            h->ratio = tc / tp;
        }
        free(keys);
        free(neg);
        free(out);
        sbf_free(p);
        sbf_free(c);
    }
}

static void run_conc(const sbfb_opts *o, sbfb_results *r)
{
    conc_at(o, r, size_l2(o), 0);
    if (size_big(o) != size_l2(o))
        conc_at(o, r, size_big(o), 1);
}

/* SBFB_HOT=single,conc,roof,threads in the environment runs only those
 * parts (default: all). */
static int part(const char *name)
{
    const char *e = getenv("SBFB_HOT");
    return e == NULL || *e == '\0' || strstr(e, name) != NULL;
}

static void hot_run(const sbfb_opts *o, sbfb_results *r)
{
    if (part("single"))
        run_single(o, r);
    if (part("conc"))
        run_conc(o, r);
    if (part("roof"))
        run_roof(o, r);
    if (part("threads"))
        run_scaling(o, r);
}

/* ---------------------------------------------------------------- output */

static void print_tables(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    size_t n;
    const hot_row *rows = sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    if (n == 0)
        return;
    static const char *const tables[4] = { "single", "conc", "roof", "threads" };
    static const char *const titles[4] = {
        "Single keys beside batches and the hash alone (ratio: contains / hash, add / contains)",
        "SBF_CONCURRENT with one thread (ratio: concurrent / plain, same kernels)",
        "Memory roofline: best prefetch distance of a sliding-window sweep on the filter's bytes (ratio: / roofline)",
        "Thread scaling, blocked layout (aggregate)",
    };
    for (int t = 0; t < 4; t++) {
        sbfb_tbl *tb = sbfb_tbl_new(8);
        int nr = 0;
        const char *h[8] = { "layout", "isa", "size", "operation", "threads", "ns/key",
                             "Mkeys/s", "ratio" };
        if (t == 2)
            h[4] = "distance";
        for (int c = 0; c < 8; c++)
            sbfb_tbl_set(tb, 0, c, "%s", h[c]);
        for (int c = 4; c < 8; c++)
            tb->right[c] = 1;
        for (size_t i = 0; i < n && nr + 1 < SBFB_TBL_ROWS; i++) {
            const hot_row *x = &rows[i];
            if (strcmp(x->table, tables[t]) != 0)
                continue;
            char ns[32];
            nr++;
            sbfb_fmt_ns(ns, sizeof ns, x->ns);
            sbfb_tbl_set(tb, nr, 0, "%s", sbfb_layout_name(x->layout));
            sbfb_tbl_set(tb, nr, 1, "%s", sbf_isa_name(x->isa));
            sbfb_tbl_set(tb, nr, 2, "%s", o->sizes[x->size_idx].label);
            sbfb_tbl_set(tb, nr, 3, "%s", x->what);
            if (t == 2)
                sbfb_tbl_set(tb, nr, 4, "%d", x->dist);
            else
                sbfb_tbl_set(tb, nr, 4, "%d", x->threads);
            sbfb_tbl_set(tb, nr, 5, "%s", ns);
            sbfb_tbl_set(tb, nr, 6, "%.1f", 1e3 / x->ns);
            if (x->ratio > 0)
                sbfb_tbl_set(tb, nr, 7, "%.2fx", x->ratio);
            else
                sbfb_tbl_set(tb, nr, 7, "-");
        }
        tb->nrow = nr + 1;
        if (nr > 0) {
            fprintf(out, md ? "\n#### %s\n\n" : "\n%s:\n\n", titles[t]);
            sbfb_tbl_print(tb, out, md);
        }
        free(tb);
    }
}

static void hot_text(FILE *out, const sbfb_opts *o, const sbfb_results *r)
{
    print_tables(out, o, r, 0);
}

static void hot_md(FILE *out, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    (void)sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    if (n == 0)
        return;
    fprintf(out, "\n### The hot path: single keys, SBF_CONCURRENT, threads, roofline sweep\n\n"
                 "Single-key rows call `sbf_add`/`sbf_contains` on 8-byte keys (one indirect "
                 "call into the filter's kernel); adds run from a cleared filter to the design "
                 "load. The roofline is the best of prefetch distances 8..128 keys (sliding "
                 "window, one random 64-byte line per key) on the filter's own bytes. Thread "
                 "rows: wall time from the first thread's start to the last one's end over "
                 "all keys; queries share one read-only filter.\n");
    print_tables(out, o, r, 1);
}

static void hot_json(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    const hot_row *rows = sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    if (n == 0)
        return;
    sbfb_jw_open(j, "hot", '[', 0);
    for (size_t i = 0; i < n; i++) {
        const hot_row *x = &rows[i];
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "table", x->table);
        sbfb_jw_str(j, "layout", sbfb_layout_name(x->layout));
        sbfb_jw_str(j, "isa", sbf_isa_name(x->isa));
        sbfb_jw_str(j, "size", o->sizes[x->size_idx].label);
        sbfb_jw_u64(j, "bytes", x->bytes);
        sbfb_jw_str(j, "op", x->what);
        sbfb_jw_int(j, "threads", x->threads);
        sbfb_jw_int(j, "distance", x->dist);
        sbfb_jw_num(j, "ns_per_key", x->ns);
        sbfb_jw_num(j, "mkeys_per_s", 1e3 / x->ns);
        sbfb_jw_num(j, "ratio", x->ratio > 0 ? x->ratio : NAN);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

const sbfb_section sbfb_sec_hot = {
    .name = "hot", .suite = SBFB_S_HOT, .run = hot_run,
    .text = hot_text, .markdown = hot_md, .json = hot_json,
};
