/*
 * Tables: a small table builder that prints aligned text (stdout) or
 * Markdown (REPORT.md), and the tables of the existing sections, each of
 * which writes nothing when its rows are absent.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ tables */

sbfb_tbl *sbfb_tbl_new(int ncol)
{
    sbfb_tbl *t = calloc(1, sizeof *t);
    if (!t)
        exit(2);
    /* never more columns than the cells hold: print reads ncol of them */
    t->ncol = ncol < SBFB_TBL_COLS ? ncol : SBFB_TBL_COLS;
    return t;
}

void sbfb_tbl_set(sbfb_tbl *t, int row, int col, const char *fmt, ...)
{
    if (row >= SBFB_TBL_ROWS || col >= SBFB_TBL_COLS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cells[row][col], sizeof t->cells[row][col], fmt, ap);
    va_end(ap);
    if (row + 1 > t->nrow)
        t->nrow = row + 1;
}

void sbfb_tbl_print(const sbfb_tbl *t, FILE *out, int md)
{
    int w[SBFB_TBL_COLS] = {0}, ncol = 0;
    for (int r = 0; r < t->nrow; r++)
        for (int c = 0; c < t->ncol; c++) {
            const int l = (int)strlen(t->cells[r][c]);
            if (l > w[c])
                w[c] = l;
            if (l && c + 1 > ncol)
                ncol = c + 1;
        }
    for (int r = 0; r < t->nrow; r++) {
        char line[1024];
        size_t len = 0;
        line[0] = '\0';
        for (int c = 0; c < ncol && len < sizeof line; c++) {
            const char *cell = t->cells[r][c];
            if (md)
                len += (size_t)snprintf(line + len, sizeof line - len, "%s %s |", c ? "" : "|",
                                        cell);
            else if (t->right[c])
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%*s", c ? "  " : "",
                                        w[c], cell);
            else
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%-*s", c ? "  " : "",
                                        w[c], cell);
        }
        while (len > 0 && len < sizeof line && line[len - 1] == ' ')
            line[--len] = '\0';
        fprintf(out, "%s\n", line);
        if (md && r == 0) {
            fputc('|', out);
            for (int c = 0; c < ncol; c++)
                fputs(t->right[c] ? "---:|" : "---|", out);
            fputc('\n', out);
        }
    }
}

void sbfb_fmt_ns(char *buf, size_t cap, double ns)
{
    if (!(ns > 0) || !isfinite(ns))
        snprintf(buf, cap, "-");
    else if (ns < 10)
        snprintf(buf, cap, "%.2f", ns);
    else if (ns < 100)
        snprintf(buf, cap, "%.1f", ns);
    else
        snprintf(buf, cap, "%.0f", ns);
}

static const char *op_label(const char *op, const char *mode, const char *lookup,
                            char *buf, size_t cap)
{
    snprintf(buf, cap, "%s %s%s%s", op, mode, lookup[0] ? " " : "", lookup);
    return buf;
}

#define NVARIANTS 8
static const char *const variants[NVARIANTS][3] = {
    { "add", "batch", "fresh" },
    { "add", "batch", "present" },
    { "add", "single", "fresh" },
    { "add", "single", "present" },
    { "contains", "batch", "positive" },
    { "contains", "batch", "negative" },
    { "contains", "single", "positive" },
    { "contains", "single", "negative" },
};

/* One row of a layout's throughput table (size si, keys, variant v) at
 * row; 0 when no ISA measured it (no row). */
static int tput_row(sbfb_tbl *t, int row, const sbfb_opts *o, const sbfb_results *r,
                    int layout, int def, int si, const char *keys, int v)
{
    const char *op = variants[v][0], *mode = variants[v][1], *lookup = variants[v][2];
    int have = 0;
    for (int i = 0; i < o->nisa; i++)
        have |= sbfb_find_tput(r, layout, o->isas[i], si, op, mode, keys, lookup) != NULL;
    if (!have)
        return 0;
    char lab[64], b[32];
    int c = 0;
    sbfb_tbl_set(t, row, c++, "%s", o->sizes[si].label);
    sbfb_tbl_set(t, row, c++, "%s", keys);
    sbfb_tbl_set(t, row, c++, "%s", op_label(op, mode, lookup, lab, sizeof lab));
    for (int i = 0; i < o->nisa; i++) {
        const sbfb_tput *x = sbfb_find_tput(r, layout, o->isas[i], si, op, mode, keys, lookup);
        sbfb_fmt_ns(b, sizeof b, x ? x->ns : 0);
        sbfb_tbl_set(t, row, c++, "%s", b);
    }
    const sbfb_tput *d = sbfb_find_tput(r, layout, def, si, op, mode, keys, lookup);
    if (d && d->speedup > 0)
        sbfb_tbl_set(t, row, c++, "%.2fx", d->speedup);
    else
        sbfb_tbl_set(t, row, c++, "-");
    if (d && d->roof_ratio > 0)
        sbfb_tbl_set(t, row, c++, "%.2f", d->roof_ratio);
    else
        sbfb_tbl_set(t, row, c++, "-");
    return 1;
}

/* One layout: rows size x keys x operation, one ns/key column per ISA. */
static void tput_layout(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md,
                        int layout, int def, uint32_t k)
{
    const char *per = sbfb_cell_bits(layout) > 1 ? "counters" : "bits";
    if (md)
        fprintf(out, "\n#### %s (k = %u, %g %s per key)\n\n", sbfb_layout_name(layout), k,
                o->bits_per_key, per);
    else
        fprintf(out, "\n%s (k = %u, %g %s/key), ns/key:\n", sbfb_layout_name(layout), k,
                o->bits_per_key, per);
    sbfb_tbl *t = sbfb_tbl_new(5 + o->nisa);
    int c = 0;
    sbfb_tbl_set(t, 0, c++, "size");
    sbfb_tbl_set(t, 0, c++, "keys");
    sbfb_tbl_set(t, 0, c++, "operation");
    for (int i = 0; i < o->nisa; i++) {
        t->right[c] = 1;
        sbfb_tbl_set(t, 0, c++, "%s", sbf_isa_name(o->isas[i]));
    }
    t->right[c] = 1;
    sbfb_tbl_set(t, 0, c++, "%s vs scalar", sbf_isa_name(def));
    t->right[c] = 1;
    sbfb_tbl_set(t, 0, c++, "/ roofline");
    int row = 1;
    for (int si = 0; si < o->nsizes; si++)
        for (int kk = 0; kk < 2; kk++)
            for (int v = 0; v < NVARIANTS; v++)
                row += tput_row(t, row, o, r, layout, def, si, kk ? "str" : "u64", v);
    sbfb_tbl_print(t, out, md);
    free(t);
}

void sbfb_table_tput(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    const int def = sbfb_default_isa_of(r);
    for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
        int any = 0;
        uint32_t k = 0;
        for (size_t i = 0; i < r->ntput; i++)
            if (r->tput[i].layout == layout) {
                any = 1;
                k = r->tput[i].k;
            }
        if (any)
            tput_layout(out, o, r, md, layout, def, k);
    }
}

/* The headline: batched contains per layout and size with the default ISA,
 * beside the roofline and libbloom. */
void sbfb_table_headline(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    const int def = sbfb_default_isa_of(r);
    int nl = 0; /* the layouts measured: a column each */
    for (int l = 0; l < sbfb_nlayouts(); l++)
        nl += (o->layouts & (1u << l)) != 0;
    sbfb_tbl *t = sbfb_tbl_new(2 + nl + 2);
    int c = 0;
    sbfb_tbl_set(t, 0, c++, "size");
    sbfb_tbl_set(t, 0, c++, "bytes");
    for (int l = 0; l < sbfb_nlayouts(); l++) {
        if (!(o->layouts & (1u << l)))
            continue;
        t->right[c] = 1;
        sbfb_tbl_set(t, 0, c++, "%s", sbfb_layout_name(l));
    }
    t->right[c] = 1;
    sbfb_tbl_set(t, 0, c++, "roofline");
    t->right[c] = 1;
    sbfb_tbl_set(t, 0, c++, "libbloom (single)");
    int row = 1;
    for (int si = 0; si < o->nsizes; si++) {
        char b[32];
        c = 0;
        sbfb_tbl_set(t, row, c++, "%s", o->sizes[si].label);
        sbfb_fmt_bytes(o->sizes[si].bytes, b, sizeof b);
        sbfb_tbl_set(t, row, c++, "%s", b);
        for (int l = 0; l < sbfb_nlayouts(); l++) {
            if (!(o->layouts & (1u << l)))
                continue;
            const sbfb_tput *x =
                sbfb_find_tput(r, l, def, si, "contains", "batch", "u64", "negative");
            sbfb_fmt_ns(b, sizeof b, x ? x->ns : 0);
            sbfb_tbl_set(t, row, c++, "%s", b);
        }
        sbfb_fmt_ns(b, sizeof b, sbfb_roof_ns(r, si));
        sbfb_tbl_set(t, row, c++, "%s", b);
        const sbfb_peer *p = sbfb_find_peer(r, si, "contains", "u64", "negative");
        sbfb_fmt_ns(b, sizeof b, p ? p->ns : 0);
        sbfb_tbl_set(t, row, c++, "%s", b);
        row++;
    }
    if (md)
        fprintf(out, "Batched contains of absent u64 keys, ns/key, %s kernels "
                     "(libbloom has no batch: single calls):\n\n", sbf_isa_name(def));
    else
        fprintf(out, "\nHeadline: batched contains, absent u64 keys, ns/key (%s kernels):\n",
                sbf_isa_name(def));
    sbfb_tbl_print(t, out, md);
    free(t);
}

/* Per ISA, one layout: batched contains of absent keys at every size, with
 * the speedup against scalar and, at the largest size, the roofline ratio. */
void sbfb_table_isa_summary(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md,
                            int layout)
{
    if (!(o->layouts & (1u << layout)) || r->ntput == 0)
        return;
    sbfb_tbl *t = sbfb_tbl_new(2 + o->nsizes + 1);
    int c = 0;
    sbfb_tbl_set(t, 0, c++, "isa");
    for (int si = 0; si < o->nsizes; si++) {
        char b[32];
        sbfb_fmt_bytes(o->sizes[si].bytes, b, sizeof b);
        t->right[c] = 1;
        if (strcmp(b, o->sizes[si].label) == 0)
            sbfb_tbl_set(t, 0, c++, "%s", b);
        else
            sbfb_tbl_set(t, 0, c++, "%s %s", o->sizes[si].label, b);
    }
    t->right[c] = 1;
    sbfb_tbl_set(t, 0, c++, "%s / roofline", o->sizes[o->nsizes - 1].label);
    int row = 1;
    for (int i = 0; i < o->nisa; i++) {
        c = 0;
        sbfb_tbl_set(t, row, c++, "%s", sbf_isa_name(o->isas[i]));
        const sbfb_tput *last = NULL;
        for (int si = 0; si < o->nsizes; si++) {
            const sbfb_tput *x = sbfb_find_tput(r, layout, o->isas[i], si, "contains", "batch",
                                                "u64", "negative");
            char b[32];
            sbfb_fmt_ns(b, sizeof b, x ? x->ns : 0);
            if (x && x->speedup > 0 && o->isas[i] != SBF_ISA_SCALAR)
                sbfb_tbl_set(t, row, c++, "%s (%.2fx)", b, x->speedup);
            else
                sbfb_tbl_set(t, row, c++, "%s", b);
            last = x;
        }
        if (last && last->roof_ratio > 0)
            sbfb_tbl_set(t, row, c++, "%.2f", last->roof_ratio);
        else
            sbfb_tbl_set(t, row, c++, "-");
        row++;
    }
    if (md)
        fprintf(out, "\n%s layout, batched contains of absent u64 keys, ns/key per ISA "
                     "(speedup against scalar):\n\n", sbfb_layout_name(layout));
    else
        fprintf(out, "\n%s, batched contains, absent u64 keys, ns/key (x scalar):\n",
                sbfb_layout_name(layout));
    sbfb_tbl_print(t, out, md);
    free(t);
}

void sbfb_table_hash(FILE *out, const sbfb_results *r, int md)
{
    if (r->nhash == 0)
        return;
    sbfb_tbl *t = sbfb_tbl_new(4);
    sbfb_tbl_set(t, 0, 0, "isa");
    sbfb_tbl_set(t, 0, 1, "ns/key");
    sbfb_tbl_set(t, 0, 2, "Mkeys/s");
    sbfb_tbl_set(t, 0, 3, "vs scalar");
    t->right[1] = t->right[2] = t->right[3] = 1;
    for (int i = 0; i < r->nhash; i++) {
        char b[32];
        sbfb_tbl_set(t, i + 1, 0, "%s", sbf_isa_name(r->hash[i].isa));
        sbfb_fmt_ns(b, sizeof b, r->hash[i].ns);
        sbfb_tbl_set(t, i + 1, 1, "%s", b);
        sbfb_tbl_set(t, i + 1, 2, "%.0f", 1e3 / r->hash[i].ns);
        if (r->hash[i].speedup > 0)
            sbfb_tbl_set(t, i + 1, 3, "%.2fx", r->hash[i].speedup);
        else
            sbfb_tbl_set(t, i + 1, 3, "-");
    }
    fprintf(out, md ? "\n" : "\nBatched hash (sbf_murmur3_x64_128_u64, 4096 keys):\n");
    sbfb_tbl_print(t, out, md);
    free(t);
}

void sbfb_table_peer(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    if (r->npeer == 0 && r->nroof == 0)
        return;
    const int def = sbfb_default_isa_of(r);
    sbfb_tbl *t = sbfb_tbl_new(7);
    const char *h[7] = { "size", "roofline", "keys", "operation", "libbloom",
                         "simdbloom blocked", "ratio" };
    for (int c = 0; c < 7; c++) {
        sbfb_tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c == 1 || c >= 4;
    }
    int row = 1;
    for (int si = 0; si < o->nsizes; si++) {
        char b[32];
        int shown = 0;
        for (size_t i = 0; i < r->npeer; i++) {
            const sbfb_peer *p = &r->peer[i];
            if (p->size_idx != si)
                continue;
            sbfb_tbl_set(t, row, 0, "%s", o->sizes[si].label);
            sbfb_fmt_ns(b, sizeof b, sbfb_roof_ns(r, si));
            sbfb_tbl_set(t, row, 1, "%s", shown ? "" : b);
            if (p->note) {
                sbfb_tbl_set(t, row, 2, "-");
                sbfb_tbl_set(t, row, 3, "%s", p->note);
                row++;
                shown = 1;
                continue;
            }
            char lab[64];
            sbfb_tbl_set(t, row, 2, "%s", p->keys);
            sbfb_tbl_set(t, row, 3, "%s", op_label(p->op, "single", p->lookup, lab, sizeof lab));
            sbfb_fmt_ns(b, sizeof b, p->ns);
            sbfb_tbl_set(t, row, 4, "%s", b);
            const sbfb_tput *x = sbfb_find_tput(r, SBF_BLOCKED, def, si, p->op, "single",
                                                p->keys, p->lookup);
            sbfb_fmt_ns(b, sizeof b, x ? x->ns : 0);
            sbfb_tbl_set(t, row, 5, "%s", b);
            if (x && p->ns > 0)
                sbfb_tbl_set(t, row, 6, "%.2fx", p->ns / x->ns);
            row++;
            shown = 1;
        }
        if (!shown && sbfb_roof_ns(r, si) > 0) {
            sbfb_tbl_set(t, row, 0, "%s", o->sizes[si].label);
            sbfb_fmt_ns(b, sizeof b, sbfb_roof_ns(r, si));
            sbfb_tbl_set(t, row, 1, "%s", b);
            row++;
        }
    }
    fprintf(out, md ? "\n" : "\nRoofline (one random line per key, best prefetch distance of a sweep) and libbloom "
                             "(single calls; ratio = libbloom / simdbloom), ns/key:\n");
    sbfb_tbl_print(t, out, md);
    free(t);
}

/* One row per histogram. G > 1: each sample is the mean of G calls. */
void sbfb_table_lat(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    if (r->nlat == 0)
        return;
    enum { NC = 14 };
    sbfb_tbl *t = sbfb_tbl_new(NC);
    const char *h[NC] = { "layout", "size", "call", "timing", "lookup", "G", "overhead", "min",
                          "p50", "p90", "p99", "p99.9", "p99.99", "max" };
    for (int c = 0; c < NC; c++) {
        sbfb_tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c >= 5;
    }
    for (size_t i = 0; i < r->nlat && i < SBFB_TBL_ROWS - 1; i++) {
        const sbfb_lat *l = &r->lat[i];
        const int row = (int)i + 1;
        const double v[8] = { l->overhead_ns, l->min, l->p50, l->p90, l->p99, l->p999,
                              l->p9999, l->max };
        sbfb_tbl_set(t, row, 0, "%s", sbfb_layout_name(l->layout));
        sbfb_tbl_set(t, row, 1, "%s", o->sizes[l->size_idx].label);
        sbfb_tbl_set(t, row, 2, "%s", l->batch > 1 ? "batch of 256" : "single");
        sbfb_tbl_set(t, row, 3, "%s", l->timing);
        sbfb_tbl_set(t, row, 4, "%s", l->lookup);
        sbfb_tbl_set(t, row, 5, "%u", l->group);
        for (int c = 0; c < 8; c++) {
            char b[32];
            if (v[c] == 0)
                snprintf(b, sizeof b, "0");
            else
                sbfb_fmt_ns(b, sizeof b, v[c]);
            sbfb_tbl_set(t, row, 6 + c, "%s", b);
        }
    }
    if (!md) {
        const sbfb_clock *c = sbfb_clock_get();
        fprintf(out, "\nLatency per call, ns (timer %s at %.3f GHz, steps of %.1f ns; overhead "
                     "subtracted per sample; G > 1: each sample is the mean of G calls):\n",
                sbfb_timer_name(), c->hz * 1e-9, (double)c->gran_ticks * c->tick_ns);
    }
    sbfb_tbl_print(t, out, md);
    free(t);
}

/* A relative half-width as a percentage with two significant digits. */
static void fmt_rel(char *buf, size_t cap, double rel)
{
    if (!isfinite(rel))
        snprintf(buf, cap, "-");
    else if (rel < 0.0995)
        snprintf(buf, cap, "%.2g%%", rel * 100);
    else
        snprintf(buf, cap, "%.0f%%", rel * 100);
}

void sbfb_table_fpr(FILE *out, const sbfb_results *r, int md)
{
    if (r->nfpr == 0)
        return;
    enum { NC = 13 };
    sbfb_tbl *t = sbfb_tbl_new(NC);
    const char *h[NC] = { "layout", "bits/key", "k", "filters x probes", "expected FP",
                          "measured", "95% Wilson", "95% across filters", "+- Wilson / filters",
                          "exact", "putze", "classic", "" };
    for (int c = 0; c < NC; c++) {
        sbfb_tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c == 1 || c == 2 || (c >= 4 && c <= 11);
    }
    sbfb_tbl_set(t, 0, NC - 1, md ? "marks" : "");
    for (size_t i = 0; i < r->nfpr && i < SBFB_TBL_ROWS - 1; i++) {
        const sbfb_fpr *e = &r->fpr[i];
        const int row = (int)i + 1;
        char a[16], b[16];
        sbfb_tbl_set(t, row, 0, "%s", sbfb_layout_name(e->layout));
        sbfb_tbl_set(t, row, 1, "%d", e->bits_per_key);
        sbfb_tbl_set(t, row, 2, "%u", e->k);
        sbfb_tbl_set(t, row, 3, "%d x %.3g", e->filters,
                     e->filters ? (double)e->probes / e->filters : 0.0);
        sbfb_tbl_set(t, row, 4, "%.3g", e->expected_fp);
        sbfb_tbl_set(t, row, 5, "%.5g", e->measured);
        sbfb_tbl_set(t, row, 6, "[%.5g, %.5g]", e->lo, e->hi);
        sbfb_tbl_set(t, row, 7, "[%.5g, %.5g]", e->flo, e->fhi);
        fmt_rel(a, sizeof a, e->wilson_rel);
        fmt_rel(b, sizeof b, e->filters_rel);
        sbfb_tbl_set(t, row, 8, "%s / %s", a, b);
        sbfb_tbl_set(t, row, 9, "%.5g", e->exact);
        if (isnan(e->putze))
            sbfb_tbl_set(t, row, 10, "-");
        else
            sbfb_tbl_set(t, row, 10, "%.5g", e->putze);
        sbfb_tbl_set(t, row, 11, "%.5g", e->classic);
        sbfb_tbl_set(t, row, 12, "%s%s%s", e->outside ? "*" : "", e->outside_wilson ? "w" : "",
                     e->low_res ? "~" : "");
    }
    if (!md)
        fprintf(out, "\nFalse-positive rate (n = %llu keys per filter; * = exact formula outside "
                     "the 95%% interval across filters, w = outside the Wilson interval, ~ = "
                     "low resolution: fewer than 10^4 expected false positives):\n",
                (unsigned long long)r->fpr[0].n);
    sbfb_tbl_print(t, out, md);
    free(t);
}
