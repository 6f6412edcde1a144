/*
 * Output: result storage, text tables (stdout), the JSON file (schema in
 * bench/README.md), the Markdown report and the data files the gnuplot
 * gnuplot scripts (scripts/, *.gp) read.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- storage */

#define GROW(arr, n, cap)                                                    \
    do {                                                                     \
        if ((n) == (cap)) {                                                  \
            (cap) = (cap) ? (cap) * 2 : 64;                                  \
            void *np_ = realloc((arr), (cap) * sizeof *(arr));               \
            if (np_ == NULL) {                                               \
                fprintf(stderr, "sbf-bench: out of memory\n");               \
                exit(2);                                                     \
            }                                                                \
            (arr) = np_;                                                     \
        }                                                                    \
    } while (0)

sbfb_tput *sbfb_add_tput(sbfb_results *r)
{
    GROW(r->tput, r->ntput, r->captput);
    sbfb_tput *t = &r->tput[r->ntput++];
    memset(t, 0, sizeof *t);
    return t;
}

sbfb_peer *sbfb_add_peer(sbfb_results *r)
{
    GROW(r->peer, r->npeer, r->cappeer);
    sbfb_peer *t = &r->peer[r->npeer++];
    memset(t, 0, sizeof *t);
    return t;
}

sbfb_lat *sbfb_add_lat(sbfb_results *r)
{
    GROW(r->lat, r->nlat, r->caplat);
    sbfb_lat *t = &r->lat[r->nlat++];
    memset(t, 0, sizeof *t);
    return t;
}

sbfb_fpr *sbfb_add_fpr(sbfb_results *r)
{
    GROW(r->fpr, r->nfpr, r->capfpr);
    sbfb_fpr *t = &r->fpr[r->nfpr++];
    memset(t, 0, sizeof *t);
    return t;
}

void sbfb_add_metric(sbfb_results *r, const char *name, double v, const char *unit)
{
    GROW(r->met, r->nmet, r->capmet);
    sbfb_metric *m = &r->met[r->nmet++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    m->value = v;
}

void sbfb_results_free(sbfb_results *r)
{
    for (size_t i = 0; i < r->nlat; i++)
        free(r->lat[i].counts);
    free(r->tput);
    free(r->peer);
    free(r->lat);
    free(r->fpr);
    free(r->met);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ lookups */

static const sbfb_tput *find_tput(const sbfb_results *r, int layout, int isa, int si,
                                  const char *op, const char *mode, const char *keys,
                                  const char *lookup)
{
    for (size_t i = 0; i < r->ntput; i++) {
        const sbfb_tput *t = &r->tput[i];
        if (t->layout == layout && t->isa == isa && t->size_idx == si &&
            strcmp(t->op, op) == 0 && strcmp(t->mode, mode) == 0 &&
            strcmp(t->keys, keys) == 0 && strcmp(t->lookup, lookup) == 0)
            return t;
    }
    return NULL;
}

static const sbfb_peer *find_peer(const sbfb_results *r, int si, const char *op,
                                  const char *keys, const char *lookup)
{
    for (size_t i = 0; i < r->npeer; i++) {
        const sbfb_peer *p = &r->peer[i];
        if (p->size_idx == si && !p->note && strcmp(p->op, op) == 0 &&
            strcmp(p->keys, keys) == 0 && strcmp(p->lookup, lookup) == 0)
            return p;
    }
    return NULL;
}

static double roof_ns(const sbfb_results *r, int si)
{
    for (int i = 0; i < r->nroof; i++)
        if (r->roof[i].size_idx == si)
            return r->roof[i].ns;
    return 0;
}

/* Speedups against scalar and ratios to the roofline, once all is measured. */
static void derive(sbfb_results *r)
{
    for (size_t i = 0; i < r->ntput; i++) {
        sbfb_tput *t = &r->tput[i];
        const sbfb_tput *s = find_tput(r, t->layout, SBF_ISA_SCALAR, t->size_idx, t->op,
                                       t->mode, t->keys, t->lookup);
        t->speedup = s && t->ns > 0 ? s->ns / t->ns : 0;
        const double rf = r->roof_at[t->layout][t->size_idx] > 0
                              ? r->roof_at[t->layout][t->size_idx]
                              : roof_ns(r, t->size_idx);
        t->roof_ratio = rf > 0 && strcmp(t->mode, "batch") == 0 &&
                                strcmp(t->keys, "u64") == 0 && strcmp(t->op, "contains") == 0
                            ? t->ns / rf
                            : 0;
    }
}

/* ------------------------------------------------------------ tables */

/* A table printed either aligned (text) or as Markdown. */
typedef struct tbl {
    int ncol, nrow;
    char cells[512][12][48];
    int right[12];
} tbl;

static tbl *tbl_new(int ncol)
{
    tbl *t = calloc(1, sizeof *t);
    if (!t)
        exit(2);
    t->ncol = ncol;
    return t;
}

static void tbl_set(tbl *t, int row, int col, const char *fmt, ...) SBFB_PRINTF(4, 5);
static void tbl_set(tbl *t, int row, int col, const char *fmt, ...)
{
    if (row >= 512 || col >= 12)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cells[row][col], sizeof t->cells[row][col], fmt, ap);
    va_end(ap);
    if (row + 1 > t->nrow)
        t->nrow = row + 1;
}

static void tbl_print(const tbl *t, FILE *out, int md)
{
    int w[12] = {0}, ncol = 0;
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

static void fmt_ns(char *buf, size_t cap, double ns)
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

static const char *const variants[6][3] = {
    { "add", "batch", "" },
    { "add", "single", "" },
    { "contains", "batch", "positive" },
    { "contains", "batch", "negative" },
    { "contains", "single", "positive" },
    { "contains", "single", "negative" },
};

static int default_isa_of(const sbfb_results *r)
{
    /* the ISA of the string rows: the default kernels */
    for (size_t i = 0; i < r->ntput; i++)
        if (strcmp(r->tput[i].keys, "str") == 0)
            return r->tput[i].isa;
    int isa = sbf_isa_set(SBF_ISA_AUTO) == SBF_OK ? sbf_isa_active() : SBF_ISA_SCALAR;
    return isa < 0 ? SBF_ISA_SCALAR : isa;
}

/* Per layout: rows size x operation, one ns/key column per ISA. */
static void print_tput(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    const int def = default_isa_of(r);
    for (int layout = 0; layout < SBFB_NLAYOUTS; layout++) {
        int any = 0;
        uint32_t k = 0;
        for (size_t i = 0; i < r->ntput; i++)
            if (r->tput[i].layout == layout) {
                any = 1;
                k = r->tput[i].k;
            }
        if (!any)
            continue;
        if (md)
            fprintf(out, "\n#### %s (k = %u, %g %s per key)\n\n", sbfb_layout_name(layout), k,
                    o->bits_per_key, layout == SBF_COUNTING ? "counters" : "bits");
        else
            fprintf(out, "\n%s (k = %u, %g %s/key), ns/key:\n", sbfb_layout_name(layout), k,
                    o->bits_per_key, layout == SBF_COUNTING ? "counters" : "bits");
        tbl *t = tbl_new(5 + o->nisa);
        int c = 0;
        tbl_set(t, 0, c++, "size");
        tbl_set(t, 0, c++, "keys");
        tbl_set(t, 0, c++, "operation");
        for (int i = 0; i < o->nisa; i++) {
            t->right[c] = 1;
            tbl_set(t, 0, c++, "%s", sbf_isa_name(o->isas[i]));
        }
        t->right[c] = 1;
        tbl_set(t, 0, c++, "%s vs scalar", sbf_isa_name(def));
        t->right[c] = 1;
        tbl_set(t, 0, c++, "/ roofline");
        int row = 1;
        for (int si = 0; si < o->nsizes; si++) {
            for (int kk = 0; kk < 2; kk++) {
                const char *keys = kk ? "str" : "u64";
                for (int v = 0; v < 6; v++) {
                    int have = 0;
                    for (int i = 0; i < o->nisa; i++)
                        have |= find_tput(r, layout, o->isas[i], si, variants[v][0],
                                          variants[v][1], keys, variants[v][2]) != NULL;
                    if (!have)
                        continue;
                    char lab[64], b[32];
                    c = 0;
                    tbl_set(t, row, c++, "%s", o->sizes[si].label);
                    tbl_set(t, row, c++, "%s", keys);
                    tbl_set(t, row, c++, "%s",
                            op_label(variants[v][0], variants[v][1], variants[v][2], lab,
                                     sizeof lab));
                    for (int i = 0; i < o->nisa; i++) {
                        const sbfb_tput *x = find_tput(r, layout, o->isas[i], si, variants[v][0],
                                                       variants[v][1], keys, variants[v][2]);
                        fmt_ns(b, sizeof b, x ? x->ns : 0);
                        tbl_set(t, row, c++, "%s", b);
                    }
                    const sbfb_tput *d = find_tput(r, layout, def, si, variants[v][0],
                                                   variants[v][1], keys, variants[v][2]);
                    if (d && d->speedup > 0)
                        tbl_set(t, row, c++, "%.2fx", d->speedup);
                    else
                        tbl_set(t, row, c++, "-");
                    if (d && d->roof_ratio > 0)
                        tbl_set(t, row, c++, "%.2f", d->roof_ratio);
                    else
                        tbl_set(t, row, c++, "-");
                    row++;
                }
            }
        }
        tbl_print(t, out, md);
        free(t);
    }
}

/* The headline: batched contains per layout and size with the default ISA,
 * beside the roofline and libbloom. */
static void print_headline(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    const int def = default_isa_of(r);
    tbl *t = tbl_new(3 + 2 * SBFB_NLAYOUTS);
    int c = 0;
    tbl_set(t, 0, c++, "size");
    tbl_set(t, 0, c++, "bytes");
    for (int l = 0; l < SBFB_NLAYOUTS; l++) {
        if (!(o->layouts & (1u << l)))
            continue;
        t->right[c] = 1;
        tbl_set(t, 0, c++, "%s", sbfb_layout_name(l));
    }
    t->right[c] = 1;
    tbl_set(t, 0, c++, "roofline");
    t->right[c] = 1;
    tbl_set(t, 0, c++, "libbloom (single)");
    int row = 1;
    for (int si = 0; si < o->nsizes; si++) {
        char b[32];
        c = 0;
        tbl_set(t, row, c++, "%s", o->sizes[si].label);
        sbfb_fmt_bytes(o->sizes[si].bytes, b, sizeof b);
        tbl_set(t, row, c++, "%s", b);
        for (int l = 0; l < SBFB_NLAYOUTS; l++) {
            if (!(o->layouts & (1u << l)))
                continue;
            const sbfb_tput *x = find_tput(r, l, def, si, "contains", "batch", "u64", "negative");
            fmt_ns(b, sizeof b, x ? x->ns : 0);
            tbl_set(t, row, c++, "%s", b);
        }
        fmt_ns(b, sizeof b, roof_ns(r, si));
        tbl_set(t, row, c++, "%s", b);
        const sbfb_peer *p = find_peer(r, si, "contains", "u64", "negative");
        fmt_ns(b, sizeof b, p ? p->ns : 0);
        tbl_set(t, row, c++, "%s", b);
        row++;
    }
    if (md)
        fprintf(out, "Batched contains of absent u64 keys, ns/key, %s kernels "
                     "(libbloom has no batch: single calls):\n\n", sbf_isa_name(def));
    else
        fprintf(out, "\nHeadline: batched contains, absent u64 keys, ns/key (%s kernels):\n",
                sbf_isa_name(def));
    tbl_print(t, out, md);
    free(t);
}

/* Per ISA, one layout: batched contains of absent keys at every size, with
 * the speedup against scalar and, at the largest size, the roofline ratio. */
static void print_isa_summary(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md,
                              int layout)
{
    if (!(o->layouts & (1u << layout)) || r->ntput == 0)
        return;
    tbl *t = tbl_new(2 + o->nsizes + 1);
    int c = 0;
    tbl_set(t, 0, c++, "isa");
    for (int si = 0; si < o->nsizes; si++) {
        char b[32];
        sbfb_fmt_bytes(o->sizes[si].bytes, b, sizeof b);
        t->right[c] = 1;
        if (strcmp(b, o->sizes[si].label) == 0)
            tbl_set(t, 0, c++, "%s", b);
        else
            tbl_set(t, 0, c++, "%s %s", o->sizes[si].label, b);
    }
    t->right[c] = 1;
    tbl_set(t, 0, c++, "%s / roofline", o->sizes[o->nsizes - 1].label);
    int row = 1;
    for (int i = 0; i < o->nisa; i++) {
        c = 0;
        tbl_set(t, row, c++, "%s", sbf_isa_name(o->isas[i]));
        const sbfb_tput *last = NULL;
        for (int si = 0; si < o->nsizes; si++) {
            const sbfb_tput *x = find_tput(r, layout, o->isas[i], si, "contains", "batch", "u64",
                                           "negative");
            char b[32];
            fmt_ns(b, sizeof b, x ? x->ns : 0);
            if (x && x->speedup > 0 && o->isas[i] != SBF_ISA_SCALAR)
                tbl_set(t, row, c++, "%s (%.2fx)", b, x->speedup);
            else
                tbl_set(t, row, c++, "%s", b);
            last = x;
        }
        if (last && last->roof_ratio > 0)
            tbl_set(t, row, c++, "%.2f", last->roof_ratio);
        else
            tbl_set(t, row, c++, "-");
        row++;
    }
    if (md)
        fprintf(out, "\n%s layout, batched contains of absent u64 keys, ns/key per ISA "
                     "(speedup against scalar):\n\n", sbfb_layout_name(layout));
    else
        fprintf(out, "\n%s, batched contains, absent u64 keys, ns/key (x scalar):\n",
                sbfb_layout_name(layout));
    tbl_print(t, out, md);
    free(t);
}

static void print_hash(FILE *out, const sbfb_results *r, int md)
{
    if (r->nhash == 0)
        return;
    tbl *t = tbl_new(4);
    tbl_set(t, 0, 0, "isa");
    tbl_set(t, 0, 1, "ns/key");
    tbl_set(t, 0, 2, "Mkeys/s");
    tbl_set(t, 0, 3, "vs scalar");
    t->right[1] = t->right[2] = t->right[3] = 1;
    for (int i = 0; i < r->nhash; i++) {
        char b[32];
        tbl_set(t, i + 1, 0, "%s", sbf_isa_name(r->hash[i].isa));
        fmt_ns(b, sizeof b, r->hash[i].ns);
        tbl_set(t, i + 1, 1, "%s", b);
        tbl_set(t, i + 1, 2, "%.0f", 1e3 / r->hash[i].ns);
        if (r->hash[i].speedup > 0)
            tbl_set(t, i + 1, 3, "%.2fx", r->hash[i].speedup);
        else
            tbl_set(t, i + 1, 3, "-");
    }
    fprintf(out, md ? "\n" : "\nBatched hash (sbf_murmur3_x64_128_u64, 4096 keys):\n");
    tbl_print(t, out, md);
    free(t);
}

static void print_peer(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    if (r->npeer == 0 && r->nroof == 0)
        return;
    const int def = default_isa_of(r);
    tbl *t = tbl_new(7);
    const char *h[7] = { "size", "roofline", "keys", "operation", "libbloom",
                         "simdbloom blocked", "ratio" };
    for (int c = 0; c < 7; c++) {
        tbl_set(t, 0, c, "%s", h[c]);
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
            tbl_set(t, row, 0, "%s", o->sizes[si].label);
            fmt_ns(b, sizeof b, roof_ns(r, si));
            tbl_set(t, row, 1, "%s", shown ? "" : b);
            if (p->note) {
                tbl_set(t, row, 2, "-");
                tbl_set(t, row, 3, "%s", p->note);
                row++;
                shown = 1;
                continue;
            }
            char lab[64];
            tbl_set(t, row, 2, "%s", p->keys);
            tbl_set(t, row, 3, "%s", op_label(p->op, "single", p->lookup, lab, sizeof lab));
            fmt_ns(b, sizeof b, p->ns);
            tbl_set(t, row, 4, "%s", b);
            const sbfb_tput *x = find_tput(r, SBF_BLOCKED, def, si, p->op, "single", p->keys,
                                           p->lookup);
            fmt_ns(b, sizeof b, x ? x->ns : 0);
            tbl_set(t, row, 5, "%s", b);
            if (x && p->ns > 0)
                tbl_set(t, row, 6, "%.2fx", p->ns / x->ns);
            row++;
            shown = 1;
        }
        if (!shown && roof_ns(r, si) > 0) {
            tbl_set(t, row, 0, "%s", o->sizes[si].label);
            fmt_ns(b, sizeof b, roof_ns(r, si));
            tbl_set(t, row, 1, "%s", b);
            row++;
        }
    }
    fprintf(out, md ? "\n" : "\nRoofline (one random line per key, batched prefetch) and libbloom "
                             "(single calls; ratio = libbloom / simdbloom), ns/key:\n");
    tbl_print(t, out, md);
    free(t);
}

static void print_lat(FILE *out, const sbfb_opts *o, const sbfb_results *r, int md)
{
    if (r->nlat == 0)
        return;
    tbl *t = tbl_new(12);
    const char *h[12] = { "layout", "size", "call", "lookup", "overhead", "min", "p50",
                          "p90", "p99", "p99.9", "p99.99", "max" };
    for (int c = 0; c < 12; c++) {
        tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c >= 4;
    }
    for (size_t i = 0; i < r->nlat && i < 500; i++) {
        const sbfb_lat *l = &r->lat[i];
        const double v[8] = { l->overhead_ns, l->min, l->p50, l->p90, l->p99, l->p999,
                              l->p9999, l->max };
        tbl_set(t, (int)i + 1, 0, "%s", sbfb_layout_name(l->layout));
        tbl_set(t, (int)i + 1, 1, "%s", o->sizes[l->size_idx].label);
        tbl_set(t, (int)i + 1, 2, "%s", l->batch > 1 ? "batch of 256" : "single");
        tbl_set(t, (int)i + 1, 3, "%s", l->lookup);
        for (int c = 0; c < 8; c++) {
            char b[32];
            if (c > 0 && v[c] == 0)
                snprintf(b, sizeof b, "0");
            else
                fmt_ns(b, sizeof b, v[c]);
            tbl_set(t, (int)i + 1, 4 + c, "%s", b);
        }
    }
    if (!md)
        fprintf(out, "\nLatency per call, ns (timer %s at %.3f GHz, overhead subtracted):\n",
                sbfb_timer_name(), sbfb_ticks_hz() * 1e-9);
    tbl_print(t, out, md);
    free(t);
}

static void print_fpr(FILE *out, const sbfb_results *r, int md)
{
    if (r->nfpr == 0)
        return;
    tbl *t = tbl_new(11);
    const char *h[11] = { "layout", "bits/key", "k", "filters x probes", "measured",
                          "95% Wilson", "95% across filters", "exact", "putze", "classic", "" };
    for (int c = 0; c < 11; c++) {
        tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c == 1 || c == 2 || (c >= 4 && c <= 9);
    }
    tbl_set(t, 0, 10, md ? "exact outside" : "");
    for (size_t i = 0; i < r->nfpr && i < 500; i++) {
        const sbfb_fpr *e = &r->fpr[i];
        const int row = (int)i + 1;
        tbl_set(t, row, 0, "%s", sbfb_layout_name(e->layout));
        tbl_set(t, row, 1, "%d", e->bits_per_key);
        tbl_set(t, row, 2, "%u", e->k);
        tbl_set(t, row, 3, "%d x %.3g", e->filters, (double)e->probes / e->filters);
        tbl_set(t, row, 4, "%.5g", e->measured);
        tbl_set(t, row, 5, "[%.5g, %.5g]", e->lo, e->hi);
        tbl_set(t, row, 6, "[%.5g, %.5g]", e->flo, e->fhi);
        tbl_set(t, row, 7, "%.5g", e->exact);
        if (isnan(e->putze))
            tbl_set(t, row, 8, "-");
        else
            tbl_set(t, row, 8, "%.5g", e->putze);
        tbl_set(t, row, 9, "%.5g", e->classic);
        tbl_set(t, row, 10, "%s%s", e->outside ? "*" : "", e->outside_wilson ? "w" : "");
    }
    if (!md)
        fprintf(out, "\nFalse-positive rate (n = %llu keys per filter; * = exact formula outside "
                     "the 95%% interval across filters, w = outside the Wilson interval):\n",
                (unsigned long long)r->fpr[0].n);
    tbl_print(t, out, md);
    free(t);
}

static void print_header(FILE *out, const sbfb_opts *o, const sbfb_machine *m, int md)
{
    char isas[128] = "";
    for (int i = 0; i < o->nisa; i++) {
        strncat(isas, sbf_isa_name(o->isas[i]), sizeof isas - strlen(isas) - 2);
        strncat(isas, " ", sizeof isas - strlen(isas) - 1);
    }
    const char *dash = md ? "- " : "  ";
    fprintf(out, "%shost %s, %s, %d CPUs (L1d %zu KiB, L2 %zu KiB, L3 %zu KiB)\n", dash, m->host,
            m->cpu, m->cpus, m->l1d >> 10, m->l2 >> 10, m->l3 >> 10);
    fprintf(out, "%s%s; transparent huge pages: %s\n", dash, m->kernel, m->thp);
    fprintf(out, "%scompiler %s, CFLAGS %s; simdbloom %s, commit %s\n", dash, m->compiler,
            o->cflags ? o->cflags : "?", sbf_version_string(), o->commit ? o->commit : "?");
    fprintf(out, "%sISAs measured: %s(default: %s); timer %s at %.3f GHz (measured)\n", dash,
            isas, sbf_isa_name(sbf_isa_active()), sbfb_timer_name(), sbfb_ticks_hz() * 1e-9);
    fprintf(out, "%s%s run, %s\n", dash, o->quick ? "quick" : "full", m->date);
}

void sbfb_print_tables(FILE *out, const sbfb_opts *o, const sbfb_results *r,
                       const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    derive(rw);
    fprintf(out, "simdbloom benchmark\n");
    print_header(out, o, m, 0);
    if (r->ntput) {
        print_headline(out, o, r, 0);
        print_isa_summary(out, o, r, 0, SBF_BLOCKED);
        print_isa_summary(out, o, r, 0, SBF_SPLIT_BLOCK);
    }
    print_hash(out, r, 0);
    print_peer(out, o, r, 0);
    print_tput(out, o, r, 0);
    if (r->nlat) {
        print_lat(out, o, r, 0);
        fprintf(out, "\nLatency histograms (blocked layout):\n");
        for (size_t i = 0; i < r->nlat; i++)
            if (r->lat[i].layout == SBF_BLOCKED)
                sbfb_lat_print_hist(out, &r->lat[i]);
    }
    print_fpr(out, r, 0);
    fflush(out);
}

/* ---------------------------------------------------------------- JSON */

typedef struct jw {
    FILE *f;
    int depth;
    int count[32];
    int inline_[32];
} jw;

static void jw_sep(jw *j)
{
    if (j->count[j->depth]++)
        fputc(',', j->f);
    if (j->depth > 0 && !j->inline_[j->depth])
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    else if (j->depth > 0 && j->count[j->depth] > 1)
        fputc(' ', j->f);
}

static void jw_esc(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void jw_key(jw *j, const char *k)
{
    jw_sep(j);
    if (k) {
        jw_esc(j->f, k);
        fputs(": ", j->f);
    }
}

static void jw_open(jw *j, const char *k, char c, int inl)
{
    jw_key(j, k);
    fputc(c, j->f);
    j->depth++;
    j->count[j->depth] = 0;
    j->inline_[j->depth] = inl || (j->depth > 0 && j->inline_[j->depth - 1]);
}

static void jw_close(jw *j, char c)
{
    const int had = j->count[j->depth], inl = j->inline_[j->depth];
    j->depth--;
    if (had && !inl)
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    fputc(c, j->f);
}

static void jw_str(jw *j, const char *k, const char *v)
{
    jw_key(j, k);
    if (v)
        jw_esc(j->f, v);
    else
        fputs("null", j->f);
}

static void jw_num(jw *j, const char *k, double v)
{
    jw_key(j, k);
    if (isfinite(v))
        fprintf(j->f, "%.6g", v);
    else
        fputs("null", j->f);
}

static void jw_u64(jw *j, const char *k, uint64_t v)
{
    jw_key(j, k);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

static void jw_int(jw *j, const char *k, long long v)
{
    jw_key(j, k);
    fprintf(j->f, "%lld", v);
}

static void json_meta(jw *j, const sbfb_opts *o, const sbfb_results *r, const sbfb_machine *m)
{
    jw_open(j, "meta", '{', 0);
    jw_str(j, "host", m->host);
    jw_str(j, "date", m->date);
    jw_str(j, "cpu", m->cpu);
    jw_int(j, "cpus", m->cpus);
    jw_u64(j, "l1d_bytes", m->l1d);
    jw_u64(j, "l2_bytes", m->l2);
    jw_u64(j, "l3_bytes", m->l3);
    jw_u64(j, "mem_available_bytes", m->mem_avail);
    jw_str(j, "kernel", m->kernel);
    jw_str(j, "thp", m->thp);
    jw_str(j, "compiler", m->compiler);
    jw_str(j, "cflags", o->cflags ? o->cflags : "");
#if defined(SBFB_ISA_FLAGS)
    jw_str(j, "isa_flags", SBFB_ISA_FLAGS);
#endif
    jw_str(j, "commit", o->commit ? o->commit : "");
    jw_str(j, "library_version", sbf_version_string());
#if defined(SBF_HAVE_LIBBLOOM)
    jw_int(j, "libbloom", 1);
#else
    jw_int(j, "libbloom", 0);
#endif
    jw_open(j, "isa_available", '[', 1);
    for (int isa = SBF_ISA_SCALAR; isa <= SBF_ISA_NEON; isa++)
        if (sbf_isa_available(isa))
            jw_str(j, NULL, sbf_isa_name(isa));
    jw_close(j, ']');
    jw_open(j, "isa_measured", '[', 1);
    for (int i = 0; i < o->nisa; i++)
        jw_str(j, NULL, sbf_isa_name(o->isas[i]));
    jw_close(j, ']');
    sbf_isa_set(SBF_ISA_AUTO);
    jw_str(j, "isa_default", sbf_isa_name(sbf_isa_active()));
    jw_str(j, "timer", sbfb_timer_name());
    jw_num(j, "timer_hz", sbfb_ticks_hz());
    jw_int(j, "quick", o->quick);
    jw_u64(j, "seed", o->seed);
    jw_num(j, "bits_per_key", o->bits_per_key);
    jw_num(j, "min_time_s", o->min_time);
    jw_int(j, "reps", o->reps);
    jw_num(j, "seconds", r->seconds);
    jw_open(j, "sizes", '[', 0);
    for (int i = 0; i < o->nsizes; i++) {
        jw_open(j, NULL, '{', 1);
        jw_str(j, "label", o->sizes[i].label);
        jw_u64(j, "bytes", o->sizes[i].bytes);
        jw_close(j, '}');
    }
    jw_close(j, ']');
    jw_close(j, '}');
}

int sbfb_write_json(const char *path, const sbfb_opts *o, const sbfb_results *r,
                    const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    derive(rw);
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return -1;
    jw j = { f, 0, {0}, {0} };
    jw_open(&j, NULL, '{', 0);
    jw_str(&j, "schema", o->check ? "simdbloom-bench-check/1" : "simdbloom-bench/1");
    json_meta(&j, o, r, m);
    if (o->check) {
        jw_str(&j, "skipped", r->skipped);
        jw_open(&j, "metrics", '{', 0);
        for (size_t i = 0; i < r->nmet; i++)
            jw_num(&j, r->met[i].name, r->met[i].value);
        jw_close(&j, '}');
        jw_open(&j, "units", '{', 0);
        for (size_t i = 0; i < r->nmet; i++)
            jw_str(&j, r->met[i].name, r->met[i].unit);
        jw_close(&j, '}');
    }
    jw_open(&j, "hash", '[', 0);
    for (int i = 0; i < r->nhash; i++) {
        jw_open(&j, NULL, '{', 1);
        jw_str(&j, "isa", sbf_isa_name(r->hash[i].isa));
        jw_num(&j, "ns_per_key", r->hash[i].ns);
        jw_num(&j, "mkeys_per_s", 1e3 / r->hash[i].ns);
        jw_num(&j, "speedup_vs_scalar", r->hash[i].speedup > 0 ? r->hash[i].speedup : NAN);
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_open(&j, "roofline", '[', 0);
    for (int i = 0; i < r->nroof; i++) {
        jw_open(&j, NULL, '{', 1);
        jw_str(&j, "size", o->sizes[r->roof[i].size_idx].label);
        jw_u64(&j, "bytes", r->roof[i].bytes);
        jw_num(&j, "ns_per_key", r->roof[i].ns);
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_open(&j, "roofline_on_filter", '[', 0);
    for (int l = 0; l < SBFB_NLAYOUTS; l++)
        for (int si = 0; si < o->nsizes; si++) {
            if (!(r->roof_at[l][si] > 0))
                continue;
            jw_open(&j, NULL, '{', 1);
            jw_str(&j, "layout", sbfb_layout_name(l));
            jw_str(&j, "size", o->sizes[si].label);
            jw_u64(&j, "bytes", o->sizes[si].bytes);
            jw_num(&j, "ns_per_key", r->roof_at[l][si]);
            jw_close(&j, '}');
        }
    jw_close(&j, ']');
    jw_open(&j, "throughput", '[', 0);
    for (size_t i = 0; i < r->ntput; i++) {
        const sbfb_tput *t = &r->tput[i];
        jw_open(&j, NULL, '{', 1);
        jw_str(&j, "layout", sbfb_layout_name(t->layout));
        jw_str(&j, "isa", sbf_isa_name(t->isa));
        jw_str(&j, "size", o->sizes[t->size_idx].label);
        jw_u64(&j, "bytes", t->bytes);
        jw_u64(&j, "bits", t->bits);
        jw_int(&j, "k", t->k);
        jw_u64(&j, "n", t->n);
        jw_str(&j, "op", t->op);
        jw_str(&j, "mode", t->mode);
        jw_str(&j, "keys", t->keys);
        jw_str(&j, "lookup", t->lookup[0] ? t->lookup : NULL);
        jw_num(&j, "ns_per_key", t->ns);
        jw_num(&j, "mkeys_per_s", 1e3 / t->ns);
        jw_num(&j, "speedup_vs_scalar", t->speedup > 0 ? t->speedup : NAN);
        jw_num(&j, "roofline_ratio", t->roof_ratio > 0 ? t->roof_ratio : NAN);
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_open(&j, "libbloom", '[', 0);
    for (size_t i = 0; i < r->npeer; i++) {
        const sbfb_peer *p = &r->peer[i];
        jw_open(&j, NULL, '{', 1);
        jw_str(&j, "size", o->sizes[p->size_idx].label);
        jw_u64(&j, "bytes", p->bytes);
        jw_u64(&j, "n", p->n);
        jw_int(&j, "k", p->k);
        jw_str(&j, "op", p->op);
        jw_str(&j, "mode", "single");
        jw_str(&j, "keys", p->keys);
        jw_str(&j, "lookup", p->lookup[0] ? p->lookup : NULL);
        jw_num(&j, "ns_per_key", p->ns);
        jw_num(&j, "mkeys_per_s", 1e3 / p->ns);
        jw_str(&j, "note", p->note);
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_open(&j, "latency", '[', 0);
    const double tick_ns = 1e9 / sbfb_ticks_hz();
    for (size_t i = 0; i < r->nlat; i++) {
        const sbfb_lat *l = &r->lat[i];
        jw_open(&j, NULL, '{', 0);
        jw_str(&j, "name", l->name);
        jw_str(&j, "layout", sbfb_layout_name(l->layout));
        jw_str(&j, "isa", sbf_isa_name(l->isa));
        jw_str(&j, "size", o->sizes[l->size_idx].label);
        jw_u64(&j, "bytes", l->bytes);
        jw_str(&j, "op", l->op);
        jw_str(&j, "mode", l->mode);
        jw_str(&j, "lookup", l->lookup);
        jw_int(&j, "keys_per_call", l->batch);
        jw_u64(&j, "samples", l->samples);
        jw_num(&j, "overhead_ns", l->overhead_ns);
        jw_num(&j, "min_ns", l->min);
        jw_num(&j, "p50_ns", l->p50);
        jw_num(&j, "p90_ns", l->p90);
        jw_num(&j, "p99_ns", l->p99);
        jw_num(&j, "p999_ns", l->p999);
        jw_num(&j, "p9999_ns", l->p9999);
        jw_num(&j, "max_ns", l->max);
        jw_num(&j, "mean_ns", l->mean);
        jw_open(&j, "buckets", '[', 1);
        for (unsigned b = 0; b < SBFB_LAT_BUCKETS; b++) {
            if (!l->counts[b])
                continue;
            double lo, hi;
            if (b < 2 * SBFB_LAT_SUB) {
                lo = b;
                hi = b + 1;
            } else {
                const unsigned e = b / SBFB_LAT_SUB + 3, sub = b % SBFB_LAT_SUB;
                lo = ldexp((double)(SBFB_LAT_SUB + sub), (int)e - 4);
                hi = lo + ldexp(1.0, (int)e - 4);
            }
            jw_open(&j, NULL, '[', 1);
            jw_num(&j, NULL, lo * tick_ns);
            jw_num(&j, NULL, hi * tick_ns);
            jw_u64(&j, NULL, l->counts[b]);
            jw_close(&j, ']');
        }
        jw_close(&j, ']');
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_open(&j, "fpr", '[', 0);
    for (size_t i = 0; i < r->nfpr; i++) {
        const sbfb_fpr *e = &r->fpr[i];
        jw_open(&j, NULL, '{', 1);
        jw_str(&j, "layout", sbfb_layout_name(e->layout));
        jw_int(&j, "bits_per_key", e->bits_per_key);
        jw_u64(&j, "bits", e->bits);
        jw_int(&j, "k", e->k);
        jw_u64(&j, "n", e->n);
        jw_int(&j, "filters", e->filters);
        jw_u64(&j, "probes", e->probes);
        jw_u64(&j, "false_positives", e->fp);
        jw_num(&j, "measured", e->measured);
        jw_num(&j, "wilson95_lo", e->lo);
        jw_num(&j, "wilson95_hi", e->hi);
        jw_num(&j, "filters95_lo", e->flo);
        jw_num(&j, "filters95_hi", e->fhi);
        jw_num(&j, "exact", e->exact);
        jw_num(&j, "putze", e->putze);
        jw_num(&j, "classic", e->classic);
        jw_key(&j, "exact_outside");
        fputs(e->outside ? "true" : "false", f);
        jw_key(&j, "exact_outside_wilson");
        fputs(e->outside_wilson ? "true" : "false", f);
        jw_close(&j, '}');
    }
    jw_close(&j, ']');
    jw_close(&j, '}');
    fputc('\n', f);
    if (f != stdout)
        return fclose(f) == 0 ? 0 : -1;
    fflush(f);
    return 0;
}

/* ------------------------------------------------- Markdown and plot data */

static FILE *open_in(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        sbfb_note("cannot write %s", path);
    return f;
}

/* Data for scripts/throughput.gp, fpr.gp and latency.gp; plotvars.gp tells
 * them which columns and files exist. */
static void write_plot_data(const char *dir, const sbfb_opts *o, const sbfb_results *r)
{
    const int def = default_isa_of(r);
    FILE *v = open_in(dir, "plotvars.gp");
    if (!v)
        return;
    fprintf(v, "# written by sbf-bench for scripts/*.gp\n");
    fprintf(v, "isas = \"");
    for (int i = 0; i < o->nisa; i++)
        fprintf(v, "%s%s", i ? " " : "", sbf_isa_name(o->isas[i]));
    fprintf(v, "\"\nnisa = %d\ndefisa = \"%s\"\n", o->nisa, sbf_isa_name(def));
    fprintf(v, "layouts = \"");
    int first = 1;
    for (int l = 0; l < SBFB_NLAYOUTS; l++)
        if (o->layouts & (1u << l)) {
            fprintf(v, "%s%s", first ? "" : " ", sbfb_layout_name(l));
            first = 0;
        }
    fprintf(v, "\"\nhave_tput = %d\nhave_fpr = %d\nhave_lat = %d\n", r->ntput > 0,
            r->nfpr > 0, r->nlat > 0);
    fprintf(v, "sizes = \"");
    for (int si = 0; si < o->nsizes; si++)
        fprintf(v, "%s%s", si ? " " : "", o->sizes[si].label);
    fprintf(v, "\"\n");

    /* tput_<layout>.dat: bytes, one column per ISA, roofline, libbloom. */
    for (int l = 0; l < SBFB_NLAYOUTS && r->ntput; l++) {
        if (!(o->layouts & (1u << l)))
            continue;
        for (int pass = 0; pass < 2; pass++) {
            char name[64];
            snprintf(name, sizeof name, "tput_%s_%s.dat", sbfb_layout_name(l),
                     pass ? "add" : "contains");
            FILE *f = open_in(dir, name);
            if (!f)
                continue;
            fprintf(f, "bytes");
            for (int i = 0; i < o->nisa; i++)
                fprintf(f, " %s", sbf_isa_name(o->isas[i]));
            fprintf(f, " roofline libbloom\n");
            for (int si = 0; si < o->nsizes; si++) {
                fprintf(f, "%zu", o->sizes[si].bytes);
                for (int i = 0; i < o->nisa; i++) {
                    const sbfb_tput *x = pass
                        ? find_tput(r, l, o->isas[i], si, "add", "batch", "u64", "")
                        : find_tput(r, l, o->isas[i], si, "contains", "batch", "u64", "negative");
                    fprintf(f, " %.6g", x ? x->ns : NAN);
                }
                const sbfb_peer *p = pass ? find_peer(r, si, "add", "u64", "")
                                          : find_peer(r, si, "contains", "u64", "negative");
                fprintf(f, " %.6g %.6g\n", pass ? NAN : roof_ns(r, si) > 0 ? roof_ns(r, si) : NAN,
                        p ? p->ns : NAN);
            }
            fclose(f);
        }
    }
    /* fpr_<layout>.dat */
    for (int l = 0; l < SBFB_NLAYOUTS && r->nfpr; l++) {
        char name[64];
        snprintf(name, sizeof name, "fpr_%s.dat", sbfb_layout_name(l));
        FILE *f = NULL;
        for (size_t i = 0; i < r->nfpr; i++) {
            const sbfb_fpr *e = &r->fpr[i];
            if (e->layout != l)
                continue;
            if (!f) {
                f = open_in(dir, name);
                if (!f)
                    break;
                fprintf(f, "bits_per_key measured lo hi exact putze classic wilson_lo wilson_hi\n");
            }
            fprintf(f, "%d %.8g %.8g %.8g %.8g %.8g %.8g %.8g %.8g\n", e->bits_per_key,
                    e->measured, e->flo, e->fhi, e->exact, e->putze, e->classic, e->lo, e->hi);
        }
        if (f)
            fclose(f);
    }
    /* lat_<i>.dat: the CDF (upper edge of each bucket, cumulative fraction). */
    const double tick_ns = 1e9 / sbfb_ticks_hz();
    for (int si = 0; si < o->nsizes && r->nlat; si++) {
        for (int batch = 0; batch < 2; batch++) {
            fprintf(v, "lat_%s_%d_files = \"", batch ? "batch" : "single", si + 1);
            first = 1;
            for (size_t i = 0; i < r->nlat; i++) {
                const sbfb_lat *l = &r->lat[i];
                if (l->size_idx != si || (l->batch > 1) != batch)
                    continue;
                fprintf(v, "%slat_%zu.dat", first ? "" : " ", i);
                first = 0;
            }
            fprintf(v, "\"\nlat_%s_%d_titles = \"", batch ? "batch" : "single", si + 1);
            first = 1;
            for (size_t i = 0; i < r->nlat; i++) {
                const sbfb_lat *l = &r->lat[i];
                if (l->size_idx != si || (l->batch > 1) != batch)
                    continue;
                fprintf(v, "%s%s%s", first ? "" : " ", sbfb_layout_name(l->layout),
                        batch ? "" : l->lookup[0] == 'p' ? "/pos" : "/neg");
                first = 0;
            }
            fprintf(v, "\"\n");
            /* x axis: up to the largest p99.99 of the panel, not the max */
            double xmax = 0;
            for (size_t i = 0; i < r->nlat; i++)
                if (r->lat[i].size_idx == si && (r->lat[i].batch > 1) == batch &&
                    r->lat[i].p9999 > xmax)
                    xmax = r->lat[i].p9999;
            fprintf(v, "lat_%s_%d_xmax = %.6g\n", batch ? "batch" : "single", si + 1,
                    xmax > 0 ? xmax * 1.5 : 1e6);
        }
    }
    for (size_t i = 0; i < r->nlat; i++) {
        const sbfb_lat *l = &r->lat[i];
        char name[64];
        snprintf(name, sizeof name, "lat_%zu.dat", i);
        FILE *f = open_in(dir, name);
        if (!f)
            continue;
        fprintf(f, "ns cdf\n");
        uint64_t cum = 0;
        for (unsigned b = 0; b < SBFB_LAT_BUCKETS; b++) {
            if (!l->counts[b])
                continue;
            cum += l->counts[b];
            double hi;
            if (b < 2 * SBFB_LAT_SUB) {
                hi = b + 1;
            } else {
                const unsigned e = b / SBFB_LAT_SUB + 3, sub = b % SBFB_LAT_SUB;
                hi = ldexp((double)(SBFB_LAT_SUB + sub + 1), (int)e - 4);
            }
            fprintf(f, "%.6g %.9g\n", hi * tick_ns, (double)cum / (double)l->samples);
        }
        fclose(f);
    }
    fclose(v);
}

int sbfb_write_report(const char *dir, const sbfb_opts *o, const sbfb_results *r,
                      const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    derive(rw);
    write_plot_data(dir, o, r);
    FILE *f = open_in(dir, "REPORT.md");
    if (!f)
        return -1;
    fprintf(f, "# simdbloom benchmark report\n\n");
    fprintf(f, "Written by `build/sbf-bench` (`make bench`); do not edit by hand. "
               "Raw numbers: [bench.json](bench.json) (schema in bench/README.md).\n\n");
    print_header(f, o, m, 1);
    fprintf(f, "- wall time of the run: %.0f s\n", r->seconds);
    if (r->ntput) {
        fprintf(f, "\n## Headline\n\n");
        print_headline(f, o, r, 1);
        print_isa_summary(f, o, r, 1, SBF_BLOCKED);
        print_isa_summary(f, o, r, 1, SBF_SPLIT_BLOCK);
        fprintf(f, "\n![throughput, contains](throughput.png)\n\n"
                   "![throughput, add](throughput_add.png)\n");
    }
    if (r->nhash) {
        fprintf(f, "\n## Batched hash alone\n\n`sbf_murmur3_x64_128_u64` on 4096 u64 keys "
                   "(L1-resident), ns/key:\n");
        print_hash(f, r, 1);
    }
    if (r->nroof || r->npeer) {
        fprintf(f, "\n## Memory roofline and libbloom\n\nThe roofline loop reads one random "
                   "64-byte line per key from an array of the filter's size (2 MiB aligned, "
                   "huge pages advised), with the library's pipeline: the lines of batch b+1 "
                   "are prefetched before batch b is read. libbloom (Debian libbloom-dev, "
                   "murmur2, k bits anywhere) has no batch call; it is compared with "
                   "simdbloom's blocked layout called one key at a time, same keys, same "
                   "bits per key. ratio = libbloom / simdbloom (above 1: simdbloom faster).\n");
        print_peer(f, o, r, 1);
    }
    if (r->ntput) {
        fprintf(f, "\n## Throughput\n\nns per key, the best of %d repetitions of at least "
                   "%.2f s. Each ISA's filter is a copy of one filled filter (sbf_union), so "
                   "all probe identical bits. \"positive\": keys that were inserted; "
                   "\"negative\": keys that were not. String keys are 8..64 random bytes, "
                   "hashed by the scalar MurmurHash3 on every ISA, so they are measured with "
                   "the default kernels only. \"/ roofline\": the default kernels' batched "
                   "contains divided by the roofline loop run on that filter's own memory "
                   "(`sbf_data`) with the same absent keys, right after it (so both see the "
                   "same pages and the same machine); the other ISAs' ratios use the same "
                   "denominator.\n", o->reps, o->min_time);
        print_tput(f, o, r, 1);
    }
    if (r->nlat) {
        fprintf(f, "\n## Latency\n\nEach call timed alone with %s at %.3f GHz (measured "
                   "against CLOCK_MONOTONIC_RAW); the timer's own cost (median of empty "
                   "timed regions) is subtracted and shown as \"overhead\". Buckets are "
                   "log-linear, 16 per power of two. Batched rows time one "
                   "`sbf_contains_u64` call of 256 keys, alternating batches of present and "
                   "absent keys. ns per call:\n\n", sbfb_timer_name(), sbfb_ticks_hz() * 1e-9);
        print_lat(f, o, r, 1);
        fprintf(f, "\n![latency CDF, single calls](latency.png)\n\n"
                   "![latency CDF, batches](latency_batch.png)\n\n");
        for (size_t i = 0; i < r->nlat; i++)
            if (r->lat[i].layout == SBF_BLOCKED && r->lat[i].batch == 1) {
                fprintf(f, "```\n");
                sbfb_lat_print_hist(f, &r->lat[i]);
                fprintf(f, "```\n\n");
            }
    }
    if (r->nfpr) {
        fprintf(f, "\n## False-positive rate\n\nFor each row, 8 or 16 independent filters "
                   "(16 at 8, 10 and 16 bits/key), each with n = %llu distinct keys, probed "
                   "with distinct absent keys (batched contains); \"measured\" pools them. "
                   "Bits/key counts memory; for the counting layout it counts 4-bit counters "
                   "(memory is 4 times that). \"exact\" is `sbf_fpp_theory`, the layout's "
                   "exact formula; \"putze\" is Putze, Sanders and Singler's blocked "
                   "approximation (`sbf_fpp_putze`, block = the layout's block); \"classic\" is "
                   "(1-e^(-kn/m))^k. The formulas give the expected rate over key sets, and "
                   "each filter's own rate varies around it, so two 95%% intervals are shown: "
                   "Wilson's, on the pooled probes (probe noise only), and the interval of the "
                   "mean across the filters (Student t; both noises). * marks an exact value "
                   "outside the interval across filters, w one outside the Wilson interval. "
                   "The plot's error bars are the interval across filters.\n\n",
                (unsigned long long)r->fpr[0].n);
        print_fpr(f, r, 1);
        fprintf(f, "\n![false-positive rate](fpr.png)\n");
    }
    fclose(f);
    return 0;
}
