/*
 * Result storage: growing arrays of rows (one per kind of result, plus one
 * per section that keeps rows of its own type), the lookups the outputs
 * share, and the figures derived once everything is measured (speedups
 * against scalar, ratios to the roofline).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <stdlib.h>
#include <string.h>

/* Makes room for one more element of `size` bytes; exits when out of memory. */
static void *grow(void *arr, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return arr;
    const size_t nc = *cap ? *cap * 2 : 64;
    void *np = realloc(arr, nc * size);
    if (np == NULL) {
        fprintf(stderr, "sbf-bench: out of memory\n");
        exit(2);
    }
    *cap = nc;
    return np;
}

#define PUSH(arr, n, cap)                                                    \
    ((arr) = grow((arr), (n), &(cap), sizeof *(arr)),                        \
     memset(&(arr)[(n)], 0, sizeof *(arr)), &(arr)[(n)++])

sbfb_tput *sbfb_add_tput(sbfb_results *r) { return PUSH(r->tput, r->ntput, r->captput); }
sbfb_peer *sbfb_add_peer(sbfb_results *r) { return PUSH(r->peer, r->npeer, r->cappeer); }
sbfb_lat *sbfb_add_lat(sbfb_results *r) { return PUSH(r->lat, r->nlat, r->caplat); }
sbfb_fpr *sbfb_add_fpr(sbfb_results *r) { return PUSH(r->fpr, r->nfpr, r->capfpr); }

void sbfb_add_metric(sbfb_results *r, const char *name, double v, const char *unit)
{
    sbfb_metric *m = PUSH(r->met, r->nmet, r->capmet);
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    m->value = v;
}

static int section_index(const sbfb_section *sec)
{
    for (int i = 0; sbfb_sections[i]; i++)
        if (sbfb_sections[i] == sec)
            return i < SBFB_MAX_SECTIONS ? i : -1;
    return -1;
}

void *sbfb_ext_add(sbfb_results *r, const sbfb_section *sec, size_t size)
{
    const int i = section_index(sec);
    if (i < 0) {
        fprintf(stderr, "sbf-bench: section %s is not in SBFB_SECTIONS\n", sec->name);
        exit(2);
    }
    struct sbfb_ext *e = &r->ext[i];
    if (e->size && e->size != size) {
        fprintf(stderr, "sbf-bench: section %s stores rows of two sizes\n", sec->name);
        exit(2);
    }
    e->size = size;
    e->rows = grow(e->rows, e->n, &e->cap, size);
    void *row = (char *)e->rows + e->n++ * size;
    memset(row, 0, size);
    return row;
}

const void *sbfb_ext_rows(const sbfb_results *r, const sbfb_section *sec, size_t *n)
{
    const int i = section_index(sec);
    *n = i < 0 ? 0 : r->ext[i].n;
    return i < 0 ? NULL : r->ext[i].rows;
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
    for (int i = 0; i < SBFB_MAX_SECTIONS; i++)
        free(r->ext[i].rows);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ lookups */

const sbfb_tput *sbfb_find_tput(const sbfb_results *r, int layout, int isa, int si,
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

const sbfb_peer *sbfb_find_peer(const sbfb_results *r, int si, const char *op,
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

double sbfb_roof_ns(const sbfb_results *r, int si)
{
    for (int i = 0; i < r->nroof; i++)
        if (r->roof[i].size_idx == si)
            return r->roof[i].ns;
    return 0;
}

int sbfb_default_isa_of(const sbfb_results *r)
{
    /* the ISA of the string rows: the default kernels */
    for (size_t i = 0; i < r->ntput; i++)
        if (strcmp(r->tput[i].keys, "str") == 0)
            return r->tput[i].isa;
    int isa = sbf_isa_set(SBF_ISA_AUTO) == SBF_OK ? sbf_isa_active() : SBF_ISA_SCALAR;
    return isa < 0 ? SBF_ISA_SCALAR : isa;
}

void sbfb_derive(sbfb_results *r)
{
    for (size_t i = 0; i < r->ntput; i++) {
        sbfb_tput *t = &r->tput[i];
        const sbfb_tput *s = sbfb_find_tput(r, t->layout, SBF_ISA_SCALAR, t->size_idx, t->op,
                                            t->mode, t->keys, t->lookup);
        t->speedup = s && t->ns > 0 ? s->ns / t->ns : 0;
        const double rf = r->roof_at[t->layout][t->size_idx] > 0
                              ? r->roof_at[t->layout][t->size_idx]
                              : sbfb_roof_ns(r, t->size_idx);
        t->roof_ratio = rf > 0 && strcmp(t->mode, "batch") == 0 &&
                                strcmp(t->keys, "u64") == 0 && strcmp(t->op, "contains") == 0
                            ? t->ns / rf
                            : 0;
    }
}
