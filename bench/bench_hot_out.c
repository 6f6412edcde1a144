/*
 * The hot-path section's outputs: its four tables (text and Markdown), its
 * prose and its JSON member; the measurements are bench_hot.c.
 */
#define _GNU_SOURCE 1
#include "bench_hot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void print_tables(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    size_t n;
    const hot_row *rows = sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    if (n == 0)
        return;
    static const char *const tables[4] = { "single", "conc", "roof", "threads" };
    static const char *const titles[4] = {
        "Single keys beside batches and the hash alone (ratio: contains / hash, add / contains on its path, hash given / contains on its path)",
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

/* The one-key summary: per layout, the default kernels' single-key calls
 * beside the batched ones, at the first size the single rows were run. */
static const char *const sum_ops[] = {
    "contains single (absent)",     "contains single, inline (absent)",
    "contains single, narrowed view (absent)", "contains batch (absent)",
    "add single (fresh)",           "add single, inline (fresh)",
    "add single, narrowed view (fresh)",       "add batch (fresh)",
};
static const char *const sum_heads[] = {
    "contains: sbf_contains", "inline view", "narrowed view", "batched",
    "add: sbf_add", "inline view", "narrowed view", "batched",
};
#define NSUM (int)(sizeof sum_ops / sizeof sum_ops[0])

static const hot_row *sum_find(const hot_row *rows, size_t n, int layout, int isa, int si,
                               const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].layout == layout && rows[i].isa == isa && rows[i].size_idx == si &&
            strcmp(rows[i].table, "single") == 0 && strcmp(rows[i].what, what) == 0)
            return &rows[i];
    return NULL;
}

/* The size and ISA of the summary: the default kernels' first single row. */
static int sum_where(const hot_row *rows, size_t n, const sbfb_results *r, int *si)
{
    const int isa = sbfb_default_isa_of(r);
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].table, "single") == 0 && rows[i].isa == isa) {
            *si = rows[i].size_idx;
            return isa;
        }
    return -1;
}

static void hot_summary(FILE *out, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    const hot_row *rows = sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    int si = 0;
    const int isa = sum_where(rows, n, r, &si);
    if (isa < 0)
        return;
    char bytes[32];
    sbfb_fmt_bytes(o->sizes[si].bytes, bytes, sizeof bytes);
    fprintf(out, "\n### One key at a time (the hot path)\n\n8-byte keys, %s filter (%s), "
                 "%s kernels, ns per key (absent keys for contains, fresh keys for add); "
                 "\"inline view\" is `sbf_view_contains_u64` / `sbf_view_add_u64` of "
                 "`simdbloom_inline.h` (the layout known at run time), \"narrowed view\" "
                 "its one-layout form (the layout a constant: `sbf_view_contains_u64_as` / "
                 "`sbf_view_add_u64_as`, or `sbf_view_split` ...), \"batched\" the per-key "
                 "cost of one call on many keys. "
                 "- : not offered for that layout.\n\n| layout |",
            o->sizes[si].label, bytes, sbf_isa_name(isa));
    for (int c = 0; c < NSUM; c++)
        fprintf(out, " %s |", sum_heads[c]);
    fprintf(out, "\n|---|");
    for (int c = 0; c < NSUM; c++)
        fprintf(out, "---:|");
    fprintf(out, "\n");
    for (int l = 0; l < sbfb_nlayouts(); l++) {
        if (!sum_find(rows, n, l, isa, si, sum_ops[0]))
            continue;
        fprintf(out, "| %s |", sbfb_layout_name(l));
        for (int c = 0; c < NSUM; c++) {
            const hot_row *x = sum_find(rows, n, l, isa, si, sum_ops[c]);
            char ns[32] = "-";
            if (x && x->ns > 0)
                sbfb_fmt_ns(ns, sizeof ns, x->ns);
            fprintf(out, " %s |", ns);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\n![one key at a time](hot.png)\n");
}

/* hot.dat: the summary's table for scripts/hot.gp (NaN: not measured). */
static int hot_plot(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    const hot_row *rows = sbfb_ext_rows(r, &sbfb_sec_hot, &n);
    int si = 0;
    const int isa = n ? sum_where(rows, n, r, &si) : -1;
    fprintf(vars, "have_hot = %d\n", isa >= 0);
    if (isa < 0)
        return 0;
    char bytes[32];
    sbfb_fmt_bytes(o->sizes[si].bytes, bytes, sizeof bytes);
    fprintf(vars, "hot_where = \"%s filter (%s), %s kernels\"\n", o->sizes[si].label, bytes,
            sbf_isa_name(isa));
    FILE *f = sbfb_open_in(dir, "hot.dat");
    if (!f)
        return 0;
    fprintf(f, "layout contains contains_inline contains_narrowed contains_batch add add_inline "
               "add_narrowed add_batch\n");
    for (int l = 0; l < sbfb_nlayouts(); l++) {
        if (!sum_find(rows, n, l, isa, si, sum_ops[0]))
            continue;
        fprintf(f, "%s", sbfb_layout_name(l));
        for (int c = 0; c < NSUM; c++) {
            const hot_row *x = sum_find(rows, n, l, isa, si, sum_ops[c]);
            fprintf(f, " %.6g", x && x->ns > 0 ? x->ns : NAN);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    return 1;
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
    if (sbfb_md_part == SBFB_MD_SUMMARY) {
        hot_summary(out, o, r);
        return;
    }
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(out, "\n### The hot path: single keys, SBF_CONCURRENT, threads, roofline sweep\n");
        print_tables(out, o, r, 1);
        return;
    }
    fprintf(out, "\n### The hot path: single keys, SBF_CONCURRENT, threads, roofline sweep\n\n"
                 "Single-key rows call `sbf_add`/`sbf_contains` on 8-byte keys (one indirect "
                 "call into the filter's kernel), \"hash given\" `sbf_contains_hash` of the "
                 "layout's hash pairs computed beforehand; the \"inline\" rows make the same calls "
                 "through a view, `sbf_view_contains_u64`/`sbf_view_add_u64` of "
                 "`simdbloom_inline.h` compiled with the row's ISA flags (avx512, avx2; portable "
                 "C for scalar and neon, none for simde), a loop of one call per key as a "
                 "caller writes it (classic and counting views call the library), and "
                 "`sbf_view_contains_hash` of the same pairs: with a hash given, the probe "
                 "without the hash. Adds are of fresh keys, each into a filter of "
                 "its own cleared (untimed) whenever a pass reaches the design load. The rows "
                 "of one layout and ISA (and each concurrent/plain pair) are timed interleaved, "
                 "window by window (about 1 ms each, each after an untimed warming call of the "
                 "same operation): the 10th percentile of the windows that lost no CPU time, so "
                 "a ratio's two sides see the same moments of the machine. The roofline is the best of prefetch distances 8..128 keys (sliding "
                 "window, one random 64-byte line per key) on the filter's own bytes. Thread "
                 "rows: wall time from the first thread's start to the last one's end over "
                 "all keys; queries share one read-only filter.\n");
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
    .name = "hot", .suite = SBFB_S_HOT, .run = sbfb_hot_run,
    .text = hot_text, .markdown = hot_md, .json = hot_json,
    .plot = hot_plot, .gnuplot = "hot",
};
