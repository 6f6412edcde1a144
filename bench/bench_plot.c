/*
 * Plot data: plotvars.gp (what was measured, for the gnuplot scripts in
 * the scripts/ *.gp) and the .dat files of each section. The driver writes the
 * common variables, then calls each section's plot callback in the order of
 * SBFB_SECTIONS, and lists the scripts to run in `plots` (scripts/bench.sh
 * runs scripts/<name>.gp for each word).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <string.h>

FILE *sbfb_open_in(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        sbfb_note("cannot write %s", path);
    return f;
}

/* tput_<layout>_<contains|add>.dat: bytes, one column per ISA (batched u64;
 * contains of absent keys), the roofline and libbloom. Widens [*lo, *hi] to
 * every value written, so that all panels of a figure share one y range. */
static void widen(double *lo, double *hi, double v)
{
    if (!(v > 0))
        return;
    *lo = *lo > 0 && *lo < v ? *lo : v;
    *hi = *hi > v ? *hi : v;
}

static void tput_file(const char *dir, const sbfb_opts *o, const sbfb_results *r, int layout,
                      int add, double *lo, double *hi)
{
    char name[64];
    snprintf(name, sizeof name, "tput_%s_%s.dat", sbfb_layout_name(layout),
             add ? "add" : "contains");
    FILE *f = sbfb_open_in(dir, name);
    if (!f)
        return;
    fprintf(f, "bytes");
    for (int i = 0; i < o->nisa; i++)
        fprintf(f, " %s", sbf_isa_name(o->isas[i]));
    fprintf(f, " roofline libbloom\n");
    for (int si = 0; si < o->nsizes; si++) {
        fprintf(f, "%zu", o->sizes[si].bytes);
        for (int i = 0; i < o->nisa; i++) {
            const sbfb_tput *x =
                add ? sbfb_find_tput(r, layout, o->isas[i], si, "add", "batch", "u64", "fresh")
                    : sbfb_find_tput(r, layout, o->isas[i], si, "contains", "batch", "u64",
                                     "negative");
            fprintf(f, " %.6g", x ? x->ns : NAN);
            widen(lo, hi, x ? x->ns : NAN);
        }
        const sbfb_peer *p = add ? sbfb_find_peer(r, si, "add", "u64", "fresh")
                                 : sbfb_find_peer(r, si, "contains", "u64", "negative");
        const double roof = sbfb_roof_ns(r, si);
        fprintf(f, " %.6g %.6g\n", add ? NAN : roof > 0 ? roof : NAN, p ? p->ns : NAN);
        widen(lo, hi, add ? NAN : roof);
        widen(lo, hi, p ? p->ns : NAN);
    }
    fclose(f);
}

int sbfb_plot_tput(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r)
{
    fprintf(vars, "have_tput = %d\n", r->ntput > 0);
    if (r->ntput == 0)
        return 0;
    double lo[2] = { 0, 0 }, hi[2] = { 0, 0 };
    for (int l = 0; l < sbfb_nlayouts(); l++) {
        if (!(o->layouts & (1u << l)))
            continue;
        tput_file(dir, o, r, l, 0, &lo[0], &hi[0]);
        tput_file(dir, o, r, l, 1, &lo[1], &hi[1]);
    }
    /* one y range per figure, a little beyond the extreme points */
    for (int add = 0; add < 2; add++)
        if (hi[add] > 0)
            fprintf(vars, "tput_%s_ymin = %.6g\ntput_%s_ymax = %.6g\n", add ? "add" : "contains",
                    lo[add] / 1.25, add ? "add" : "contains", hi[add] * 1.25);
    return 1;
}

/* fpr_<layout>.dat: measured with both intervals, and the formulas. */
int sbfb_plot_fpr(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    fprintf(vars, "have_fpr = %d\n", r->nfpr > 0);
    for (int l = 0; l < sbfb_nlayouts() && r->nfpr; l++) {
        char name[64];
        snprintf(name, sizeof name, "fpr_%s.dat", sbfb_layout_name(l));
        FILE *f = NULL;
        for (size_t i = 0; i < r->nfpr; i++) {
            const sbfb_fpr *e = &r->fpr[i];
            if (e->layout != l)
                continue;
            if (!f) {
                f = sbfb_open_in(dir, name);
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
    return r->nfpr > 0;
}

/* The three latency figures: single-key chains, single-key independent
 * calls, batches. */
static const char *const lat_kinds[3] = { "chain", "indep", "batch" };

static int lat_in(const sbfb_lat *l, int si, int kind)
{
    if (l->size_idx != si)
        return 0;
    if (kind == 2)
        return l->batch > 1;
    return l->batch == 1 && (l->timing[0] == 'c') == (kind == 0);
}

/* The variables of one latency panel (size si, one kind): its files, their
 * titles (layout, and absent or present keys: words without spaces, which
 * scripts/latency.gp spells out) and the x range. */
static void lat_panel_vars(FILE *v, const sbfb_results *r, int si, int kind)
{
    const char *k = lat_kinds[kind];
    fprintf(v, "lat_%s_%d_files = \"", k, si + 1);
    int first = 1;
    for (size_t i = 0; i < r->nlat; i++) {
        if (!lat_in(&r->lat[i], si, kind))
            continue;
        fprintf(v, "%slat_%zu.dat", first ? "" : " ", i);
        first = 0;
    }
    fprintf(v, "\"\nlat_%s_%d_titles = \"", k, si + 1);
    first = 1;
    for (size_t i = 0; i < r->nlat; i++) {
        const sbfb_lat *l = &r->lat[i];
        if (!lat_in(l, si, kind))
            continue;
        fprintf(v, "%s%s%s", first ? "" : " ", sbfb_layout_name(l->layout),
                kind == 2 ? "" : l->lookup[0] == 'p' ? "/present" : "/absent");
        first = 0;
    }
    fprintf(v, "\"\n");
    /* x axis: the body and the tail that means something: up to p99 of
     * grouped rows (their tails are means of G calls), p99.9 of single calls */
    double xmin = 0, xmax = 0;
    for (size_t i = 0; i < r->nlat; i++) {
        const sbfb_lat *l = &r->lat[i];
        if (!lat_in(l, si, kind))
            continue;
        const double top = l->group > 1 ? l->p99 : l->p999;
        xmax = top > xmax ? top : xmax;
        if (l->min > 0 && (xmin == 0 || l->min < xmin))
            xmin = l->min;
    }
    fprintf(v, "lat_%s_%d_xmin = %.6g\n", k, si + 1, xmin > 0 ? xmin * 0.8 : 1);
    fprintf(v, "lat_%s_%d_xmax = %.6g\n", k, si + 1, xmax > 0 ? xmax * 1.5 : 1e6);
}

/* lat_<i>.dat: the CDF (upper edge of each bucket in ns per call,
 * cumulative fraction of the samples). */
static void lat_cdf_file(const char *dir, const sbfb_lat *l, size_t i)
{
    char name[64];
    snprintf(name, sizeof name, "lat_%zu.dat", i);
    FILE *f = sbfb_open_in(dir, name);
    if (!f)
        return;
    fprintf(f, "ns cdf\n");
    uint64_t cum = 0;
    for (unsigned b = 0; b < SBFB_LAT_BUCKETS; b++) {
        if (!l->counts[b])
            continue;
        cum += l->counts[b];
        double lo, hi;
        sbfb_hist_range(b, &lo, &hi);
        fprintf(f, "%.6g %.9g\n", hi * l->unit_ns, (double)cum / (double)l->samples);
    }
    fclose(f);
}

int sbfb_plot_lat(const char *dir, FILE *vars, const sbfb_opts *o, const sbfb_results *r)
{
    fprintf(vars, "have_lat = %d\n", r->nlat > 0);
    if (r->nlat == 0)
        return 0;
    for (int si = 0; si < o->nsizes; si++)
        for (int kind = 0; kind < 3; kind++)
            lat_panel_vars(vars, r, si, kind);
    for (size_t i = 0; i < r->nlat; i++)
        lat_cdf_file(dir, &r->lat[i], i);
    return 1;
}

void sbfb_write_plot_data(const char *dir, const sbfb_opts *o, const sbfb_results *r)
{
    FILE *v = sbfb_open_in(dir, "plotvars.gp");
    if (!v)
        return;
    fprintf(v, "# written by sbf-bench for scripts/*.gp\n");
    fprintf(v, "isas = \"");
    for (int i = 0; i < o->nisa; i++)
        fprintf(v, "%s%s", i ? " " : "", sbf_isa_name(o->isas[i]));
    fprintf(v, "\"\nnisa = %d\ndefisa = \"%s\"\n", o->nisa,
            sbf_isa_name(sbfb_default_isa_of(r)));
    fprintf(v, "layouts = \"");
    int first = 1;
    for (int l = 0; l < sbfb_nlayouts(); l++)
        if (o->layouts & (1u << l)) {
            fprintf(v, "%s%s", first ? "" : " ", sbfb_layout_name(l));
            first = 0;
        }
    fprintf(v, "\"\nsizes = \"");
    for (int si = 0; si < o->nsizes; si++)
        fprintf(v, "%s%s", si ? " " : "", o->sizes[si].label);
    fprintf(v, "\"\n");
    /* each section's data, then the scripts that draw what was written */
    char plots[256] = "";
    for (int i = 0; sbfb_sections[i]; i++) {
        const sbfb_section *s = sbfb_sections[i];
        if (s->plot && s->plot(dir, v, o, r) && s->gnuplot)
            snprintf(plots + strlen(plots), sizeof plots - strlen(plots), "%s%s",
                     plots[0] ? " " : "", s->gnuplot);
    }
    fprintf(v, "plots = \"%s\"\n", plots);
    fclose(v);
}
