/*
 * Scalable filters, shared by src/scalable.c (adds, probes, union) and
 * src/scalable_file.c (format version 3). Not installed.
 */
#ifndef SBF_SCALABLE_INT_H_61B0A3F4
#define SBF_SCALABLE_INT_H_61B0A3F4

#include "sbf_internal.h"
#include "simdbloom_inline.h"

typedef struct sbfi_sub {
    sbf_filter *f;
    sbf_view v;            /* its view: writable unless the whole is read-only */
    uint32_t block_words;  /* words of a block for the prefetch; 0: none (classic) */
    uint64_t items;        /* keys added to it (new keys, or union's estimate) */
    uint64_t capacity;     /* keys it takes before the next sub-filter starts */
    double fpp;            /* the rate it was sized for */
} sbfi_sub;

struct sbf_scalable {
    sbf_scalable_params p; /* defaults resolved */
    int readonly;          /* a mapping (sbf_scalable_map) */
    int counting;          /* counter cells: a multiset, never grows */
    int custom;            /* adopted sub-filters the schedule would not make */
    uint32_t n;            /* sub-filters */
    uint32_t nspare;       /* made in advance (sbf_scalable_add_all), after subs[n - 1] */
    uint32_t cap;          /* entries allocated in subs */
    sbfi_sub *subs;
};

/* Parameters with defaults resolved: SBF_OK or the create error. */
int sbfi_scalable_check(const sbf_scalable_params *p);
/* Capacity and rate of sub-filter i of the geometric schedule (what format
 * 3 holds): SBF_OK, SBF_E_TOO_LARGE, SBF_E_K. */
int sbfi_scalable_sub_params(const sbf_scalable_params *p, uint32_t i, uint64_t *capacity,
                             double *fpp);
/* Bits and k of a sub-filter of this capacity and rate by p's rule:
 * sbf_size, and unless SBF_SCALABLE_FORMULA its spread budgeted. */
int sbfi_scalable_size(const sbf_scalable_params *p, uint64_t capacity, double e,
                       uint64_t *bits, uint32_t *k);
/* Bits and k of sub-filter i of the geometric schedule (sbf_size of its
 * capacity and rate). */
int sbfi_scalable_geometry(const sbf_scalable_params *p, uint32_t i, uint64_t *bits,
                           uint32_t *k);
/* An empty scalable filter (no sub-filter), or NULL. */
sbf_scalable *sbfi_scalable_new(const sbf_scalable_params *p, int readonly);
/* Appends f (taken on success) with its capacity, rate and key count. */
int sbfi_scalable_attach(sbf_scalable *s, sbf_filter *f, uint64_t items, uint64_t capacity,
                         double fpp);
/* Appends f as sbf_scalable_adopt does (marks s custom when the schedule
 * would not have made it). */
int sbfi_scalable_append(sbf_scalable *s, sbf_filter *f, uint64_t items, uint64_t capacity,
                         double fpp);
/* Whether a sub-filter of this layout (and p's seed) hashes keys as p's
 * do: the same layout, or both 1-bit with the same hash stage. */
int sbfi_scalable_hash_ok(const sbf_scalable_params *p, int layout);
/* Whether format 3 holds filters of these parameters (the formula rule,
 * the geometric schedule, growth 2..1024, no other flag but SBF_ZEROED). */
int sbfi_scalable_file_params(const sbf_scalable_params *p);
/* Whether format 3 holds s (its parameters and sub-filters as the
 * geometric schedule makes them). */
int sbfi_scalable_file_ok(const sbf_scalable *s);

#endif
