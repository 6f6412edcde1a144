/*
 * The JSON file (schema in bench/README.md): a small streaming writer, the
 * "meta" object, each existing section's member, and the driver, which
 * writes the members of every section in the order of SBFB_SECTIONS.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <string.h>

/* -------------------------------------------------------------- writer */

static void jw_sep(sbfb_jw *j)
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

void sbfb_jw_key(sbfb_jw *j, const char *k)
{
    jw_sep(j);
    if (k) {
        jw_esc(j->f, k);
        fputs(": ", j->f);
    }
}

void sbfb_jw_open(sbfb_jw *j, const char *k, char c, int inl)
{
    sbfb_jw_key(j, k);
    fputc(c, j->f);
    j->depth++;
    j->count[j->depth] = 0;
    j->inline_[j->depth] = inl || (j->depth > 0 && j->inline_[j->depth - 1]);
}

void sbfb_jw_close(sbfb_jw *j, char c)
{
    const int had = j->count[j->depth], inl = j->inline_[j->depth];
    j->depth--;
    if (had && !inl)
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    fputc(c, j->f);
}

void sbfb_jw_str(sbfb_jw *j, const char *k, const char *v)
{
    sbfb_jw_key(j, k);
    if (v)
        jw_esc(j->f, v);
    else
        fputs("null", j->f);
}

void sbfb_jw_num(sbfb_jw *j, const char *k, double v)
{
    sbfb_jw_key(j, k);
    if (isfinite(v))
        fprintf(j->f, "%.6g", v);
    else
        fputs("null", j->f);
}

void sbfb_jw_u64(sbfb_jw *j, const char *k, uint64_t v)
{
    sbfb_jw_key(j, k);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

void sbfb_jw_int(sbfb_jw *j, const char *k, long long v)
{
    sbfb_jw_key(j, k);
    fprintf(j->f, "%lld", v);
}

void sbfb_jw_bool(sbfb_jw *j, const char *k, int v)
{
    sbfb_jw_key(j, k);
    fputs(v ? "true" : "false", j->f);
}

/* ------------------------------------------------------------ members */

static void json_meta(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r, const sbfb_machine *m)
{
    sbfb_jw_open(j, "meta", '{', 0);
    sbfb_jw_str(j, "host", m->host);
    sbfb_jw_str(j, "date", m->date);
    sbfb_jw_str(j, "cpu", m->cpu);
    sbfb_jw_str(j, "cpu_id", m->cpu_id);
    sbfb_jw_int(j, "cpus", m->cpus);
    sbfb_jw_u64(j, "l1d_bytes", m->l1d);
    sbfb_jw_u64(j, "l2_bytes", m->l2);
    sbfb_jw_u64(j, "l3_bytes", m->l3);
    sbfb_jw_u64(j, "mem_available_bytes", m->mem_avail);
    sbfb_jw_str(j, "kernel", m->kernel);
    sbfb_jw_str(j, "thp", m->thp);
    sbfb_jw_str(j, "compiler", m->compiler);
    sbfb_jw_str(j, "cflags", o->cflags ? o->cflags : "");
#if defined(SBFB_ISA_FLAGS)
    sbfb_jw_str(j, "isa_flags", SBFB_ISA_FLAGS);
#endif
    sbfb_jw_str(j, "commit", o->commit ? o->commit : "");
    sbfb_jw_str(j, "library_version", sbf_version_string());
#if defined(SBF_HAVE_LIBBLOOM)
    sbfb_jw_int(j, "libbloom", 1);
#else
    sbfb_jw_int(j, "libbloom", 0);
#endif
    sbfb_jw_open(j, "isa_available", '[', 1);
    int avail[32];
    const int navail = sbfb_isas(avail, 32, 1);
    for (int i = 0; i < navail; i++)
        sbfb_jw_str(j, NULL, sbf_isa_name(avail[i]));
    sbfb_jw_close(j, ']');
    sbfb_jw_open(j, "isa_measured", '[', 1);
    for (int i = 0; i < o->nisa; i++)
        sbfb_jw_str(j, NULL, sbf_isa_name(o->isas[i]));
    sbfb_jw_close(j, ']');
    sbf_isa_set(SBF_ISA_AUTO);
    sbfb_jw_str(j, "isa_default", sbf_isa_name(sbf_isa_active()));
    const sbfb_clock *clk = sbfb_clock_get();
    sbfb_jw_str(j, "timer", sbfb_timer_name());
    sbfb_jw_num(j, "timer_hz", clk->hz);
    sbfb_jw_u64(j, "timer_granularity_ticks", clk->gran_ticks);
    sbfb_jw_num(j, "timer_granularity_ns", (double)clk->gran_ticks * clk->tick_ns);
    sbfb_jw_u64(j, "timer_overhead_ticks", clk->ovh_ticks);
    sbfb_jw_num(j, "timer_overhead_ns", (double)clk->ovh_ticks * clk->tick_ns);
    sbfb_jw_int(j, "quick", o->quick);
    sbfb_jw_u64(j, "seed", o->seed);
    sbfb_jw_num(j, "bits_per_key", o->bits_per_key);
    sbfb_jw_num(j, "min_time_s", o->min_time);
    sbfb_jw_int(j, "reps", o->reps);
    sbfb_jw_num(j, "seconds", r->seconds);
    const sbfb_disturb *d = &r->disturb;
    sbfb_jw_open(j, "machine_state", '{', 0);
    sbfb_jw_open(j, "load_avg_start", '[', 1);
    for (int i = 0; i < 3; i++)
        sbfb_jw_num(j, NULL, d->load_start[i]);
    sbfb_jw_close(j, ']');
    sbfb_jw_open(j, "load_avg_end", '[', 1);
    for (int i = 0; i < 3; i++)
        sbfb_jw_num(j, NULL, d->load_end[i]);
    sbfb_jw_close(j, ']');
    sbfb_jw_num(j, "others_cpu", d->others_cpu);
    sbfb_jw_num(j, "steal", d->steal);
    sbfb_jw_u64(j, "windows", d->windows);
    sbfb_jw_u64(j, "windows_dropped", d->dropped);
    sbfb_jw_int(j, "faults_in_windows", d->faults);
    sbfb_jw_int(j, "measurements", d->measurements);
    sbfb_jw_num(j, "spread_median", d->spread_median);
    sbfb_jw_num(j, "spread_p90", d->spread_p90);
    sbfb_jw_bool(j, "busy", d->busy);
    sbfb_jw_bool(j, "wide_spread", d->wide);
    sbfb_jw_close(j, '}');
    sbfb_jw_open(j, "sizes", '[', 0);
    for (int i = 0; i < o->nsizes; i++) {
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "label", o->sizes[i].label);
        sbfb_jw_u64(j, "bytes", o->sizes[i].bytes);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
    sbfb_jw_close(j, '}');
}

/* bench-check's measurement: the metrics and their units. */
static void json_check(sbfb_jw *j, const sbfb_results *r)
{
    sbfb_jw_str(j, "skipped", r->skipped);
    sbfb_jw_open(j, "metrics", '{', 0);
    for (size_t i = 0; i < r->nmet; i++)
        sbfb_jw_num(j, r->met[i].name, r->met[i].value);
    sbfb_jw_close(j, '}');
    sbfb_jw_open(j, "units", '{', 0);
    for (size_t i = 0; i < r->nmet; i++)
        sbfb_jw_str(j, r->met[i].name, r->met[i].unit);
    sbfb_jw_close(j, '}');
}

/* "hash": the batched hash per ISA. */
void sbfb_json_hash(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    sbfb_jw_open(j, "hash", '[', 0);
    for (int i = 0; i < r->nhash; i++) {
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "isa", sbf_isa_name(r->hash[i].isa));
        sbfb_jw_num(j, "ns_per_key", r->hash[i].ns);
        sbfb_jw_num(j, "mkeys_per_s", 1e3 / r->hash[i].ns);
        sbfb_jw_num(j, "speedup_vs_scalar", r->hash[i].speedup > 0 ? r->hash[i].speedup : NAN);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

/* "roofline" (the standalone loop) and "roofline_on_filter". */
void sbfb_json_roofline(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_jw_open(j, "roofline", '[', 0);
    for (int i = 0; i < r->nroof; i++) {
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "size", o->sizes[r->roof[i].size_idx].label);
        sbfb_jw_u64(j, "bytes", r->roof[i].bytes);
        sbfb_jw_num(j, "ns_per_key", r->roof[i].ns);
        sbfb_jw_int(j, "distance", r->roof[i].dist);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
    sbfb_jw_open(j, "roofline_on_filter", '[', 0);
    for (int l = 0; l < sbfb_nlayouts(); l++)
        for (int si = 0; si < o->nsizes; si++) {
            if (!(r->roof_at[l][si] > 0))
                continue;
            sbfb_jw_open(j, NULL, '{', 1);
            sbfb_jw_str(j, "layout", sbfb_layout_name(l));
            sbfb_jw_str(j, "size", o->sizes[si].label);
            sbfb_jw_u64(j, "bytes", o->sizes[si].bytes);
            sbfb_jw_num(j, "ns_per_key", r->roof_at[l][si]);
            sbfb_jw_int(j, "distance", r->roof_at_dist[l][si]);
            sbfb_jw_close(j, '}');
        }
    sbfb_jw_close(j, ']');
}

/* "throughput". */
void sbfb_json_tput(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_jw_open(j, "throughput", '[', 0);
    for (size_t i = 0; i < r->ntput; i++) {
        const sbfb_tput *t = &r->tput[i];
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "layout", sbfb_layout_name(t->layout));
        sbfb_jw_str(j, "isa", sbf_isa_name(t->isa));
        sbfb_jw_str(j, "size", o->sizes[t->size_idx].label);
        sbfb_jw_u64(j, "bytes", t->bytes);
        sbfb_jw_u64(j, "bits", t->bits);
        sbfb_jw_int(j, "k", t->k);
        sbfb_jw_u64(j, "n", t->n);
        sbfb_jw_str(j, "op", t->op);
        sbfb_jw_str(j, "mode", t->mode);
        sbfb_jw_str(j, "keys", t->keys);
        sbfb_jw_str(j, "lookup", t->lookup[0] ? t->lookup : NULL);
        sbfb_jw_num(j, "ns_per_key", t->ns);
        sbfb_jw_num(j, "mkeys_per_s", 1e3 / t->ns);
        sbfb_jw_num(j, "speedup_vs_scalar", t->speedup > 0 ? t->speedup : NAN);
        sbfb_jw_num(j, "roofline_ratio", t->roof_ratio > 0 ? t->roof_ratio : NAN);
        sbfb_jw_num(j, "spread", t->spread);
        sbfb_jw_int(j, "windows", t->windows);
        sbfb_jw_int(j, "dropped", t->dropped);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

/* "libbloom". */
void sbfb_json_peer(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_jw_open(j, "libbloom", '[', 0);
    for (size_t i = 0; i < r->npeer; i++) {
        const sbfb_peer *p = &r->peer[i];
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "size", o->sizes[p->size_idx].label);
        sbfb_jw_u64(j, "bytes", p->bytes);
        sbfb_jw_u64(j, "n", p->n);
        sbfb_jw_int(j, "k", p->k);
        sbfb_jw_str(j, "op", p->op);
        sbfb_jw_str(j, "mode", "single");
        sbfb_jw_str(j, "keys", p->keys);
        sbfb_jw_str(j, "lookup", p->lookup[0] ? p->lookup : NULL);
        sbfb_jw_num(j, "ns_per_key", p->ns);
        sbfb_jw_num(j, "mkeys_per_s", 1e3 / p->ns);
        sbfb_jw_str(j, "note", p->note);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

/* "latency", with the non-empty buckets in ns. */
void sbfb_json_lat(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_jw_open(j, "latency", '[', 0);
    for (size_t i = 0; i < r->nlat; i++) {
        const sbfb_lat *l = &r->lat[i];
        sbfb_jw_open(j, NULL, '{', 0);
        sbfb_jw_str(j, "name", l->name);
        sbfb_jw_str(j, "layout", sbfb_layout_name(l->layout));
        sbfb_jw_str(j, "isa", sbf_isa_name(l->isa));
        sbfb_jw_str(j, "size", o->sizes[l->size_idx].label);
        sbfb_jw_u64(j, "bytes", l->bytes);
        sbfb_jw_str(j, "op", l->op);
        sbfb_jw_str(j, "mode", l->mode);
        sbfb_jw_str(j, "lookup", l->lookup);
        sbfb_jw_str(j, "timing", l->timing);
        sbfb_jw_int(j, "keys_per_call", l->batch);
        sbfb_jw_int(j, "group", l->group);
        sbfb_jw_str(j, "sample", l->group > 1 ? "group mean" : "call");
        sbfb_jw_u64(j, "samples", l->samples);
        sbfb_jw_num(j, "overhead_ns", l->overhead_ns);
        sbfb_jw_num(j, "resolution_ns", l->resolution_ns);
        sbfb_jw_num(j, "min_ns", l->min);
        sbfb_jw_num(j, "p50_ns", l->p50);
        sbfb_jw_num(j, "p90_ns", l->p90);
        sbfb_jw_num(j, "p99_ns", l->p99);
        sbfb_jw_num(j, "p999_ns", l->p999);
        sbfb_jw_num(j, "p9999_ns", l->p9999);
        sbfb_jw_num(j, "max_ns", l->max);
        sbfb_jw_num(j, "mean_ns", l->mean);
        sbfb_jw_open(j, "buckets", '[', 1);
        for (unsigned b = 0; b < SBFB_LAT_BUCKETS; b++) {
            if (!l->counts[b])
                continue;
            double lo, hi;
            sbfb_hist_range(b, &lo, &hi);
            sbfb_jw_open(j, NULL, '[', 1);
            sbfb_jw_num(j, NULL, lo * l->unit_ns);
            sbfb_jw_num(j, NULL, hi * l->unit_ns);
            sbfb_jw_u64(j, NULL, l->counts[b]);
            sbfb_jw_close(j, ']');
        }
        sbfb_jw_close(j, ']');
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

/* "fpr". */
void sbfb_json_fpr(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    sbfb_jw_open(j, "fpr", '[', 0);
    for (size_t i = 0; i < r->nfpr; i++) {
        const sbfb_fpr *e = &r->fpr[i];
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "layout", sbfb_layout_name(e->layout));
        sbfb_jw_int(j, "bits_per_key", e->bits_per_key);
        sbfb_jw_u64(j, "bits", e->bits);
        sbfb_jw_int(j, "k", e->k);
        sbfb_jw_u64(j, "n", e->n);
        sbfb_jw_int(j, "filters", e->filters);
        sbfb_jw_u64(j, "probes", e->probes);
        sbfb_jw_u64(j, "false_positives", e->fp);
        sbfb_jw_num(j, "measured", e->measured);
        sbfb_jw_num(j, "wilson95_lo", e->lo);
        sbfb_jw_num(j, "wilson95_hi", e->hi);
        sbfb_jw_num(j, "filters95_lo", e->flo);
        sbfb_jw_num(j, "filters95_hi", e->fhi);
        sbfb_jw_num(j, "exact", e->exact);
        sbfb_jw_num(j, "putze", e->putze);
        sbfb_jw_num(j, "classic", e->classic);
        sbfb_jw_bool(j, "exact_outside", e->outside);
        sbfb_jw_bool(j, "exact_outside_wilson", e->outside_wilson);
        sbfb_jw_num(j, "expected_false_positives", e->expected_fp);
        sbfb_jw_num(j, "wilson95_rel_halfwidth", e->wilson_rel);
        sbfb_jw_num(j, "filters95_rel_halfwidth", e->filters_rel);
        sbfb_jw_bool(j, "low_resolution", e->low_res);
        sbfb_jw_num(j, "seconds", e->seconds);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

int sbfb_write_json(const char *path, const sbfb_opts *o, const sbfb_results *r,
                    const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    sbfb_derive(rw);
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return -1;
    sbfb_jw j = { f, 0, {0}, {0} };
    sbfb_jw_open(&j, NULL, '{', 0);
    sbfb_jw_str(&j, "schema", o->check ? "simdbloom-bench-check/1" : "simdbloom-bench/1");
    json_meta(&j, o, r, m);
    if (o->check)
        json_check(&j, r);
    for (int i = 0; sbfb_sections[i]; i++)
        if (sbfb_sections[i]->json)
            sbfb_sections[i]->json(&j, o, r);
    sbfb_jw_close(&j, '}');
    fputc('\n', f);
    if (f != stdout)
        return fclose(f) == 0 ? 0 : -1;
    fflush(f);
    return 0;
}
