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
    .name = "hot", .suite = SBFB_S_HOT, .run = sbfb_hot_run,
    .text = hot_text, .markdown = hot_md, .json = hot_json,
};
