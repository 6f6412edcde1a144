/*
 * Scalable filters (include/simdbloom_scalable.h): a list of sub-filters of
 * growing capacity and tightening rate (Almeida et al. 2007). A key is
 * hashed once (every sub-filter has the same layout and seed) and probed in
 * each sub-filter from its hash, inline through the filters' views (the
 * classic layout's view calls the library), with the blocks of the keys a
 * few places ahead prefetched. The files: src/scalable_file.c.
 */
#include "scalable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_INITIAL 1000
#define DEFAULT_GROWTH 2
#define DEFAULT_TIGHTENING 0.5
#define MAX_GROWTH 1024
#define CHUNK 512     /* keys hashed at once on the stack */
#define AHEAD 8       /* keys prefetched ahead of the probe */

int sbfi_scalable_check(const sbf_scalable_params *p)
{
    SBFI_RETURN_IF(p->flags != 0, SBF_E_FLAGS);
    struct sbf_layout_info li;
    SBFI_FORWARD_IF_ERROR(sbf_layout_info(p->layout, 0, &li));
    SBFI_RETURN_IF(li.cell_bits != 1, SBF_E_UNSUPPORTED);
    SBFI_RETURN_IF(!(p->fpp > 0 && p->fpp < 1), SBF_E_FPP);
    SBFI_RETURN_IF(p->growth < 2 || p->growth > MAX_GROWTH, SBF_E_PARAM);
    SBFI_RETURN_IF(!(p->tightening > 0 && p->tightening < 1), SBF_E_PARAM);
    SBFI_RETURN_IF(p->initial_n == 0, SBF_E_PARAM);
    return SBF_OK;
}

int sbfi_scalable_sub_params(const sbf_scalable_params *p, uint32_t i, uint64_t *capacity,
                             double *fpp)
{
    SBFI_RETURN_IF(i >= SBF_SCALABLE_MAX_FILTERS, SBF_E_TOO_LARGE);
    uint64_t c = p->initial_n;
    for (uint32_t j = 0; j < i; j++) {
        SBFI_RETURN_IF(c > UINT64_MAX / p->growth, SBF_E_TOO_LARGE);
        c *= p->growth;
    }
    const double e = p->fpp * (1 - p->tightening) * pow(p->tightening, (double)i);
    SBFI_RETURN_IF(!(e > 0), SBF_E_K);
    *capacity = c;
    *fpp = e;
    return SBF_OK;
}

int sbfi_scalable_geometry(const sbf_scalable_params *p, uint32_t i, uint64_t *bits,
                           uint32_t *k)
{
    uint64_t c;
    double e;
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_sub_params(p, i, &c, &e));
    *k = 0;
    return sbf_size(p->layout, c, e, bits, k);
}

/* Where the probe of a key in sub-filter t reads: its block (words), or
 * NULL when the view calls the library (classic). */
static inline const void *block_of(const sbfi_sub *t, uint64_t h1)
{
    if (t->block_words == 0)
        return NULL;
    return t->v.words + sbf_block_index(h1, t->v.nblocks) * t->block_words;
}

int sbfi_scalable_attach(sbf_scalable *s, sbf_filter *f, uint64_t items)
{
    SBFI_RETURN_IF(s->n >= SBF_SCALABLE_MAX_FILTERS, SBF_E_TOO_LARGE);
    sbfi_sub *t = &s->subs[s->n];
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_sub_params(&s->p, s->n, &t->capacity, &t->fpp));
    const int rc = s->readonly ? sbf_view_get(f, &t->v) : sbf_view_get_writable(f, &t->v);
    SBFI_FORWARD_IF_ERROR(rc);
    t->f = f;
    t->items = items;
    t->block_words = t->v.query == SBF_VIEW_CALL ? 0
                   : t->v.query == SBF_VIEW_SPLIT8 || t->v.query == SBF_VIEW_PARQUET ||
                       t->v.query == SBF_VIEW_SPLIT8_XXH3 ? 4 : 8;
    s->n++;
    return SBF_OK;
}

/* A new empty sub-filter at the end. */
static int grow(sbf_scalable *s)
{
    SBFI_RETURN_IF(s->n >= SBF_SCALABLE_MAX_FILTERS, SBF_E_TOO_LARGE);
    uint64_t c;
    double e;
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_sub_params(&s->p, s->n, &c, &e));
    sbf_params fp = { 0 };
    fp.layout = s->p.layout;
    fp.expected_n = c;
    fp.fpp = e;
    fp.seed = s->p.seed;
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbf_create(&f, &fp));
    const int rc = sbfi_scalable_attach(s, f, 0);
    if (rc != SBF_OK)
        sbf_free(f);
    return rc;
}

sbf_scalable *sbfi_scalable_new(const sbf_scalable_params *p, int readonly)
{
    sbf_scalable *s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->p = *p;
        s->readonly = readonly;
    }
    return s;
}

int sbf_scalable_create(sbf_scalable **out, const sbf_scalable_params *p)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || p == NULL, SBF_E_NULL);
    sbf_scalable_params q = *p;
    q.initial_n = q.initial_n ? q.initial_n : DEFAULT_INITIAL;
    q.growth = q.growth ? q.growth : DEFAULT_GROWTH;
    q.tightening = q.tightening != 0 ? q.tightening : DEFAULT_TIGHTENING;
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_check(&q));
    sbf_scalable *s = sbfi_scalable_new(&q, 0);
    SBFI_RETURN_IF(s == NULL, SBF_E_NOMEM);
    const int rc = grow(s);
    if (rc != SBF_OK) {
        sbf_scalable_free(s);
        return rc;
    }
    *out = s;
    return SBF_OK;
}

void sbf_scalable_free(sbf_scalable *s)
{
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->n; i++)
        sbf_free(s->subs[i].f);
    free(s);
}

/* ----------------------------------------------------------- hashing */

int sbf_scalable_hash(const sbf_scalable *s, const void *const *keys, const size_t *lens,
                      const uint64_t *keys_u64, size_t n, uint64_t *h1, uint64_t *h2)
{
    SBFI_RETURN_IF(s == NULL, SBF_E_NULL);
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(h1 == NULL || h2 == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(keys_u64 == NULL && (keys == NULL || lens == NULL), SBF_E_NULL);
    /* the layout's hash stage (every sub-filter has the layout and seed of
     * the first) */
    return sbf_hash_pairs(s->subs[0].f, keys, lens, keys_u64, n, h1, h2);
}

/* --------------------------------------------------- probes and adds */

static inline int has(const sbfi_sub *t, uint64_t h1, uint64_t h2)
{
    return sbf_view_contains_hash(&t->v, h1, h2);
}

static inline void prefetch(const sbf_scalable *s, uint64_t h1)
{
    for (uint32_t j = 0; j < s->n; j++) {
        const void *b = block_of(&s->subs[j], h1);
        if (b != NULL)
            __builtin_prefetch(b, 0, 3);
    }
}

/* One key: 1 new (added to the newest), 0 present, or an error. */
static int add_one(sbf_scalable *s, uint64_t h1, uint64_t h2)
{
    /* the older sub-filters, newest first (the larger hold more keys) */
    for (uint32_t j = s->n - 1; j-- > 0;)
        if (has(&s->subs[j], h1, h2))
            return 0;
    sbfi_sub *t = &s->subs[s->n - 1];
    if (t->items >= t->capacity) {
        if (has(t, h1, h2))
            return 0;
        SBFI_FORWARD_IF_ERROR(grow(s));
        t = &s->subs[s->n - 1];
    }
    const int r = sbf_view_add_hash(&t->v, h1, h2);
    if (r > 0)
        t->items++;
    return r;
}

static int contains_one(const sbf_scalable *s, uint64_t h1, uint64_t h2)
{
    for (uint32_t j = s->n; j-- > 0;)
        if (has(&s->subs[j], h1, h2))
            return 1;
    return 0;
}

/* Error codes as the size_t of sbf_is_error. */
static size_t err_size(int code)
{
    return (size_t)(ptrdiff_t)code;
}

size_t sbf_scalable_add_hashes(sbf_scalable *s, const uint64_t *h1, const uint64_t *h2,
                               size_t n, uint8_t *added)
{
    if (s == NULL || (n > 0 && (h1 == NULL || h2 == NULL)))
        return err_size(SBF_E_NULL);
    if (s->readonly)
        return err_size(SBF_E_READONLY);
    size_t fresh = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            prefetch(s, h1[i + AHEAD]);
        const int r = add_one(s, h1[i], h2[i]);
        if (r < 0)
            return err_size(r);
        if (added != NULL)
            added[i] = (uint8_t)r;
        fresh += (size_t)r;
    }
    return fresh;
}

size_t sbf_scalable_contains_hashes(const sbf_scalable *s, const uint64_t *h1,
                                    const uint64_t *h2, size_t n, uint8_t *out)
{
    if (s == NULL || (n > 0 && (h1 == NULL || h2 == NULL)))
        return err_size(SBF_E_NULL);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            prefetch(s, h1[i + AHEAD]);
        const int r = contains_one(s, h1[i], h2[i]);
        if (out != NULL)
            out[i] = (uint8_t)r;
        hits += (size_t)r;
    }
    return hits;
}

/* Hashes chunk by chunk, then adds or probes from the hashes. */
static size_t batch(sbf_scalable *s, const sbf_scalable *cs, const void *const *keys,
                    const size_t *lens, const uint64_t *u64, size_t n, uint8_t *out)
{
    if (cs == NULL)
        return err_size(SBF_E_NULL);
    if (n > 0 && u64 == NULL && (keys == NULL || lens == NULL))
        return err_size(SBF_E_NULL);
    if (n > 0 && u64 == NULL)
        for (size_t i = 0; i < n; i++)
            if (keys[i] == NULL && lens[i] > 0)
                return err_size(SBF_E_NULL);
    if (s != NULL && s->readonly)
        return err_size(SBF_E_READONLY);
    uint64_t h1[CHUNK], h2[CHUNK];
    size_t total = 0;
    for (size_t at = 0; at < n; at += CHUNK) {
        const size_t m = n - at < CHUNK ? n - at : CHUNK;
        const int rc = sbf_scalable_hash(cs, u64 ? NULL : keys + at, u64 ? NULL : lens + at,
                                         u64 ? u64 + at : NULL, m, h1, h2);
        if (rc != SBF_OK)
            return err_size(rc);
        const size_t r = s != NULL
                             ? sbf_scalable_add_hashes(s, h1, h2, m, out ? out + at : NULL)
                             : sbf_scalable_contains_hashes(cs, h1, h2, m,
                                                            out ? out + at : NULL);
        if (sbf_is_error(r))
            return r;
        total += r;
    }
    return total;
}

size_t sbf_scalable_add_batch(sbf_scalable *s, const void *const *keys, const size_t *lens,
                              size_t n, uint8_t *added)
{
    return batch(s, s, keys, lens, NULL, n, added);
}

size_t sbf_scalable_add_u64(sbf_scalable *s, const uint64_t *keys, size_t n, uint8_t *added)
{
    if (n > 0 && keys == NULL)
        return err_size(SBF_E_NULL);
    return batch(s, s, NULL, NULL, keys, n, added);
}

size_t sbf_scalable_contains_batch(const sbf_scalable *s, const void *const *keys,
                                   const size_t *lens, size_t n, uint8_t *out)
{
    return batch(NULL, s, keys, lens, NULL, n, out);
}

size_t sbf_scalable_contains_u64(const sbf_scalable *s, const uint64_t *keys, size_t n,
                                 uint8_t *out)
{
    if (n > 0 && keys == NULL)
        return err_size(SBF_E_NULL);
    return batch(NULL, s, NULL, NULL, keys, n, out);
}

int sbf_scalable_add(sbf_scalable *s, const void *key, size_t len)
{
    SBFI_RETURN_IF(s == NULL || (key == NULL && len > 0), SBF_E_NULL);
    uint8_t r;
    const void *const ks[1] = { key };
    const size_t n = sbf_scalable_add_batch(s, ks, &len, 1, &r);
    if (sbf_is_error(n))
        return -(int)(SIZE_MAX - n) - 1;
    return r;
}

int sbf_scalable_contains(const sbf_scalable *s, const void *key, size_t len)
{
    SBFI_RETURN_IF(s == NULL || (key == NULL && len > 0), SBF_E_NULL);
    const void *const ks[1] = { key };
    const size_t n = sbf_scalable_contains_batch(s, ks, &len, 1, NULL);
    if (sbf_is_error(n))
        return -(int)(SIZE_MAX - n) - 1;
    return (int)n;
}

/* -------------------------------------------------------- information */

int sbf_scalable_info(const sbf_scalable *s, struct sbf_scalable_info *out)
{
    SBFI_RETURN_IF(s == NULL || out == NULL, SBF_E_NULL);
    memset(out, 0, sizeof *out);
    out->layout = s->p.layout;
    out->seed = s->p.seed;
    out->growth = s->p.growth;
    out->filters = s->n;
    out->fpp = s->p.fpp;
    out->tightening = s->p.tightening;
    out->initial_n = s->p.initial_n;
    double pass = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        const sbfi_sub *t = &s->subs[i];
        out->keys += t->items;
        out->capacity = t->capacity > UINT64_MAX - out->capacity ? UINT64_MAX
                                                                 : out->capacity + t->capacity;
        out->bits += t->f->bits;
        out->bytes += t->f->bytes;
        const double e = t->items ? sbf_fpp_theory(t->f, t->items) : 0;
        pass *= 1 - (e == e ? e : 1);
    }
    out->fpp_bound = 1 - pass;
    return SBF_OK;
}

uint64_t sbf_scalable_count(const sbf_scalable *s)
{
    struct sbf_scalable_info in;
    return sbf_scalable_info(s, &in) == SBF_OK ? in.keys : UINT64_MAX;
}

double sbf_scalable_fpp(const sbf_scalable *s)
{
    struct sbf_scalable_info in;
    return sbf_scalable_info(s, &in) == SBF_OK ? in.fpp_bound : NAN;
}

const sbf_filter *sbf_scalable_filter(const sbf_scalable *s, uint32_t i)
{
    return s != NULL && i < s->n ? s->subs[i].f : NULL;
}

size_t sbf_scalable_memory_usage(const sbf_scalable *s)
{
    if (s == NULL)
        return 0;
    size_t m = sizeof *s;
    for (uint32_t i = 0; i < s->n; i++)
        m += sbf_memory_usage(s->subs[i].f);
    return m;
}

/* ---------------------------------------------------------------- union */

static int same_params(const sbf_scalable_params *a, const sbf_scalable_params *b)
{
    return a->layout == b->layout && a->seed == b->seed && a->initial_n == b->initial_n &&
           a->growth == b->growth && memcmp(&a->fpp, &b->fpp, sizeof a->fpp) == 0 &&
           memcmp(&a->tightening, &b->tightening, sizeof a->tightening) == 0;
}

/* A sub-filter's key count judged from its bits. */
static uint64_t estimate(const sbf_filter *f)
{
    struct sbf_info in;
    if (sbf_info(f, &in) != SBF_OK || !(in.est_cardinality >= 0))
        return 0;
    return in.est_cardinality >= 9.2e18 ? (uint64_t)INT64_MAX
                                        : (uint64_t)llround(in.est_cardinality);
}

int sbf_scalable_union(sbf_scalable *dst, const sbf_scalable *src)
{
    SBFI_RETURN_IF(dst == NULL || src == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(dst->readonly, SBF_E_READONLY);
    SBFI_RETURN_IF(!same_params(&dst->p, &src->p), SBF_E_INCOMPATIBLE);
    const uint32_t common = dst->n < src->n ? dst->n : src->n;
    for (uint32_t i = 0; i < common; i++)
        SBFI_RETURN_IF(dst->subs[i].f->bits != src->subs[i].f->bits ||
                       dst->subs[i].f->k != src->subs[i].f->k, SBF_E_INCOMPATIBLE);
    /* copies of src's extra sub-filters first: nothing changes if one fails */
    sbf_filter *extra[SBF_SCALABLE_MAX_FILTERS] = { 0 };
    for (uint32_t i = common; i < src->n; i++) {
        const int rc = sbf_copy(&extra[i], src->subs[i].f);
        if (rc != SBF_OK) {
            for (uint32_t j = common; j < i; j++)
                sbf_free(extra[j]);
            return rc;
        }
    }
    for (uint32_t i = 0; i < common; i++) {
        if (src->subs[i].items == 0)
            continue;
        (void)sbf_union(dst->subs[i].f, src->subs[i].f); /* checked above */
        dst->subs[i].items = dst->subs[i].items == 0 ? src->subs[i].items
                                                     : estimate(dst->subs[i].f);
    }
    for (uint32_t i = common; i < src->n; i++)
        (void)sbfi_scalable_attach(dst, extra[i], src->subs[i].items); /* cannot fail */
    return SBF_OK;
}
