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
#define MAX_GROWTH 32768
#define FILE_MAX_GROWTH 1024 /* format 3 */
#define CHUNK 512     /* keys hashed at once on the stack */
#define AHEAD 8       /* keys prefetched ahead of the probe */
#define FLAGS_KNOWN (SBF_SCALABLE_NONSCALING | SBF_SCALABLE_FORMULA | SBF_ZEROED)
#define SPREAD_Z 3.0  /* standard deviations of a sub-filter's spread budgeted */

int sbfi_scalable_check(const sbf_scalable_params *p)
{
    SBFI_RETURN_IF((p->flags & ~(uint32_t)FLAGS_KNOWN) != 0, SBF_E_FLAGS);
    struct sbf_layout_info li;
    SBFI_FORWARD_IF_ERROR(sbf_layout_info(p->layout, 0, &li));
    SBFI_RETURN_IF(li.cell_bits != 1 && !(p->flags & SBF_SCALABLE_NONSCALING),
                   SBF_E_UNSUPPORTED);
    SBFI_RETURN_IF(!(p->fpp > 0 && p->fpp < 1), SBF_E_FPP);
    SBFI_RETURN_IF(p->growth < 1 || p->growth > MAX_GROWTH, SBF_E_PARAM);
    SBFI_RETURN_IF(!(p->tightening > 0 && p->tightening < 1), SBF_E_PARAM);
    SBFI_RETURN_IF(p->initial_n == 0, SBF_E_PARAM);
    SBFI_RETURN_IF(p->schedule != SBF_SCHEDULE_GEOMETRIC && p->schedule != SBF_SCHEDULE_SHARED,
                   SBF_E_PARAM);
    SBFI_RETURN_IF(p->allocator != NULL &&
                   (p->allocator->alloc == NULL || p->allocator->free == NULL), SBF_E_PARAM);
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

/* Whether (bits, k) keeps rate e with its spread budgeted at n keys. */
static int within(int layout, uint64_t n, double e, uint64_t bits, uint32_t k, double *over)
{
    const double f = sbf_fpp_layout(layout, n, bits, k);
    double sd = sbf_fpp_spread(layout, n, bits, k);
    if (!(sd >= 0))
        sd = 0; /* a spread past its formula's bounds: the formula alone */
    *over = f + SPREAD_Z * sd;
    return *over <= e; /* NaN (a formula refused): not within */
}

/* One step of the search: the size sbf_size gives rate t (in *b); if it
 * keeps e, t is the new lowest rate that fits and (*bits, *k) its size,
 * else t is the new highest refused. */
static int try_rate(const sbf_scalable_params *p, uint64_t capacity, double e, double t,
                    uint64_t *b, double *over, double *ok_t, double *bad_t, uint64_t *bits,
                    uint32_t *k)
{
    uint32_t kk = 0;
    SBFI_FORWARD_IF_ERROR(sbf_size(p->layout, capacity, t, b, &kk));
    if (within(p->layout, capacity, e, *b, kk, over)) {
        *ok_t = t;
        *bits = *b;
        *k = kk;
    } else {
        *bad_t = t;
    }
    return SBF_OK;
}

int sbfi_scalable_size(const sbf_scalable_params *p, uint64_t capacity, double e,
                       uint64_t *bits, uint32_t *k)
{
    *k = 0;
    SBFI_FORWARD_IF_ERROR(sbf_size(p->layout, capacity, e, bits, k));
    if (p->flags & SBF_SCALABLE_FORMULA)
        return SBF_OK;
    /* The formula is the mean over filters; one filter's rate spreads around
     * it (18% at 1000 keys). Ask sbf_size for a lower rate t until the
     * formula plus SPREAD_Z of the spread fits e, then take the largest t
     * that still fits, within 1/256 of the last one refused. */
    double over, ok_t = 0, bad_t = e;
    uint64_t b = *bits;
    uint32_t kk = *k;
    if (within(p->layout, capacity, e, b, kk, &over))
        return SBF_OK;
    uint64_t prev = 0;
    for (int it = 0; it < 200 && ok_t == 0; it++) {
        /* sbf_size's sizes are steps (granules, k): where a rate gave the
         * same size as the one before, halve it */
        double r = e / over;
        r = !(r == r) || b == prev ? 0.5 : r < 0.5 ? 0.5 : r > 0.98 ? 0.98 : r;
        prev = b;
        const double t = bad_t * r;
        SBFI_RETURN_IF(!(t > 0), SBF_E_K);
        SBFI_FORWARD_IF_ERROR(try_rate(p, capacity, e, t, &b, &over, &ok_t, &bad_t, bits, k));
    }
    SBFI_RETURN_IF(ok_t == 0, SBF_E_K);
    while (bad_t - ok_t > bad_t / 256) {
        const double t = (ok_t + bad_t) / 2;
        SBFI_FORWARD_IF_ERROR(try_rate(p, capacity, e, t, &b, &over, &ok_t, &bad_t, bits, k));
    }
    return SBF_OK;
}

int sbfi_scalable_geometry(const sbf_scalable_params *p, uint32_t i, uint64_t *bits,
                           uint32_t *k)
{
    uint64_t c;
    double e;
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_sub_params(p, i, &c, &e));
    return sbfi_scalable_size(p, c, e, bits, k);
}

/* Where the probe of a key in sub-filter t reads: its block (words), or
 * NULL when the view calls the library (classic). */
static inline const void *block_of(const sbfi_sub *t, uint64_t h1)
{
    if (t->block_words == 0)
        return NULL;
    return t->v.words + sbf_block_index(h1, t->v.nblocks) * t->block_words;
}

/* The filter's own memory: the caller's allocator, or malloc. */
static void *mem_alloc(const sbf_scalable_params *p, size_t n)
{
    return p->allocator != NULL ? p->allocator->alloc(p->allocator->opaque, n) : malloc(n);
}

static void mem_free(const sbf_scalable_params *p, void *q)
{
    if (q == NULL)
        return;
    if (p->allocator != NULL)
        p->allocator->free(p->allocator->opaque, q);
    else
        free(q);
}

/* Room for one more entry in subs. */
static int reserve_one(sbf_scalable *s)
{
    const uint32_t used = s->n + s->nspare;
    SBFI_RETURN_IF(used >= SBF_SCALABLE_MAX_FILTERS, SBF_E_TOO_LARGE);
    if (used < s->cap)
        return SBF_OK;
    const uint32_t cap = used + 1; /* growth is rare: no slack kept */
    sbfi_sub *t = mem_alloc(&s->p, cap * sizeof *t);
    SBFI_RETURN_IF(t == NULL, SBF_E_NOMEM);
    if (used > 0)
        memcpy(t, s->subs, used * sizeof *t);
    mem_free(&s->p, s->subs);
    s->subs = t;
    s->cap = cap;
    return SBF_OK;
}

/* Fills entry subs[n + nspare] with f; counted as a sub-filter when !spare. */
static int put_sub(sbf_scalable *s, sbf_filter *f, uint64_t items, uint64_t capacity,
                   double fpp, int spare)
{
    SBFI_FORWARD_IF_ERROR(reserve_one(s));
    sbfi_sub *t = &s->subs[s->n + s->nspare];
    const int rc = s->readonly ? sbf_view_get(f, &t->v) : sbf_view_get_writable(f, &t->v);
    SBFI_FORWARD_IF_ERROR(rc);
    t->f = f;
    t->items = items;
    t->capacity = capacity;
    t->fpp = fpp;
    t->block_words = t->v.query == SBF_VIEW_CALL ? 0
                   : t->v.query == SBF_VIEW_SPLIT8 || t->v.query == SBF_VIEW_PARQUET ||
                       t->v.query == SBF_VIEW_SPLIT8_XXH3 ||
                       t->v.query == SBF_VIEW_SPLIT8_FMIX ? 4 : 8;
    if (spare)
        s->nspare++;
    else
        s->n++;
    return SBF_OK;
}

int sbfi_scalable_attach(sbf_scalable *s, sbf_filter *f, uint64_t items, uint64_t capacity,
                         double fpp)
{
    return put_sub(s, f, items, capacity, fpp, 0);
}

/* Sub-filter i as growth would make it, after subs[0..i) (spares too):
 * capacity the previous one's times growth, the rate by the schedule, the
 * geometry by sbf_size. */
static int plan(const sbf_scalable *s, uint32_t i, struct sbf_scalable_sub *o)
{
    const sbf_scalable_params *p = &s->p;
    memset(o, 0, sizeof *o);
    o->index = i;
    o->layout = p->layout;
    o->seed = p->seed;
    for (uint32_t j = 0; j < i && j < s->n + s->nspare; j++)
        o->bits_before += s->subs[j].f->bits;
    SBFI_RETURN_IF(i > 0 && (p->flags & SBF_SCALABLE_NONSCALING), SBF_E_FULL);
    SBFI_RETURN_IF(i >= SBF_SCALABLE_MAX_FILTERS, SBF_E_TOO_LARGE);
    const sbfi_sub *prev = i > 0 ? &s->subs[i - 1] : NULL;
    if (prev != NULL) {
        SBFI_RETURN_IF(prev->capacity > UINT64_MAX / p->growth, SBF_E_TOO_LARGE);
        o->capacity = prev->capacity * p->growth;
        SBFI_RETURN_IF(p->max_capacity != 0 && o->capacity > p->max_capacity, SBF_E_TOO_LARGE);
    } else {
        o->capacity = p->initial_n;
    }
    double e;
    if (p->flags & SBF_SCALABLE_NONSCALING) {
        e = p->fpp;
    } else if (p->schedule == SBF_SCHEDULE_SHARED) {
        double used = 0;
        for (uint32_t j = 0; j < i; j++)
            used += s->subs[j].fpp;
        e = (p->fpp - used) / ((double)i + 2.0);
        if (!(e > 0 && e < 1))
            e = (prev != NULL ? prev->fpp : p->fpp) * 0.5;
    } else {
        e = p->fpp * (1 - p->tightening) * pow(p->tightening, (double)i);
    }
    o->fpp = e;
    SBFI_RETURN_IF(!(e > 0), SBF_E_K);
    uint64_t bits = 0;
    uint32_t k = 0;
    SBFI_FORWARD_IF_ERROR(sbfi_scalable_size(p, o->capacity, e, &bits, &k));
    o->bits = bits;
    o->k = k;
    return SBF_OK;
}

/* Makes sub-filter n + nspare: a sub-filter (spare 0) or a spare. */
static int make_sub(sbf_scalable *s, int spare)
{
    struct sbf_scalable_sub o;
    const int planned = plan(s, s->n + s->nspare, &o);
    if (s->p.grow_check != NULL) {
        const int rc = s->p.grow_check(s->p.grow_arg, &o, planned);
        SBFI_FORWARD_IF_ERROR(planned);
        SBFI_FORWARD_IF_ERROR(rc);
    }
    SBFI_FORWARD_IF_ERROR(planned);
    sbf_params fp = { 0 };
    fp.layout = s->p.layout;
    fp.bits = o.bits;
    fp.k = o.k;
    fp.seed = s->p.seed;
    fp.allocator = s->p.allocator;
    if (s->p.allocator != NULL)
        fp.flags = s->p.flags & SBF_ZEROED; /* no pass over the new memory */
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbf_create(&f, &fp));
    const int rc = put_sub(s, f, 0, o.capacity, o.fpp, spare);
    if (rc != SBF_OK)
        sbf_free(f);
    return rc;
}

/* A new empty sub-filter at the end: the next spare, or a new one. */
static int grow(sbf_scalable *s)
{
    if (s->nspare > 0) {
        s->nspare--;
        s->n++;
        return SBF_OK;
    }
    return make_sub(s, 0);
}

static void drop_spares(sbf_scalable *s)
{
    for (uint32_t i = s->n; i < s->n + s->nspare; i++)
        sbf_free(s->subs[i].f);
    s->nspare = 0;
}

sbf_scalable *sbfi_scalable_new(const sbf_scalable_params *p, int readonly)
{
    sbf_scalable *s = mem_alloc(p, sizeof *s);
    if (s != NULL) {
        memset(s, 0, sizeof *s);
        s->p = *p;
        s->readonly = readonly;
        struct sbf_layout_info li;
        s->counting = sbf_layout_info(p->layout, 0, &li) == SBF_OK && li.cell_bits != 1;
    }
    return s;
}

static int resolve(sbf_scalable_params *q, const sbf_scalable_params *p)
{
    SBFI_RETURN_IF(p == NULL, SBF_E_NULL);
    *q = *p;
    q->initial_n = q->initial_n ? q->initial_n : DEFAULT_INITIAL;
    q->growth = q->growth ? q->growth : DEFAULT_GROWTH;
    q->tightening = q->tightening != 0 ? q->tightening : DEFAULT_TIGHTENING;
    return sbfi_scalable_check(q);
}

int sbf_scalable_create_empty(sbf_scalable **out, const sbf_scalable_params *p)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || p == NULL, SBF_E_NULL);
    sbf_scalable_params q;
    SBFI_FORWARD_IF_ERROR(resolve(&q, p));
    sbf_scalable *s = sbfi_scalable_new(&q, 0);
    SBFI_RETURN_IF(s == NULL, SBF_E_NOMEM);
    *out = s;
    return SBF_OK;
}

int sbf_scalable_create(sbf_scalable **out, const sbf_scalable_params *p)
{
    SBFI_FORWARD_IF_ERROR(sbf_scalable_create_empty(out, p));
    const int rc = grow(*out);
    if (rc != SBF_OK) {
        sbf_scalable_free(*out);
        *out = NULL;
    }
    return rc;
}

void sbf_scalable_free(sbf_scalable *s)
{
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->n + s->nspare; i++)
        sbf_free(s->subs[i].f);
    const sbf_scalable_params p = s->p;
    mem_free(&p, s->subs);
    mem_free(&p, s);
}

int sbfi_scalable_hash_ok(const sbf_scalable_params *p, int layout)
{
    struct sbf_layout_info li, own_li;
    if (sbf_layout_info(layout, 0, &li) != SBF_OK ||
        sbf_layout_info(p->layout, 0, &own_li) != SBF_OK)
        return 0;
    if (layout == p->layout)
        return 1;
    const sbfi_layout *own = sbfi_layout_of(p->layout), *other = sbfi_layout_of(layout);
    return own_li.cell_bits == 1 && li.cell_bits == 1 && own != NULL && other != NULL &&
           own->hash == other->hash;
}

/* Whether f hashes keys as s's sub-filters do. */
static int same_hash(const sbf_scalable *s, const sbf_filter *f)
{
    return f->seed == s->p.seed && sbfi_scalable_hash_ok(&s->p, f->layout);
}

int sbfi_scalable_append(sbf_scalable *s, sbf_filter *f, uint64_t items, uint64_t capacity,
                         double fpp)
{
    /* custom says only whether format 3 holds s: its parameters must allow
     * it first (and the check is then one sbf_size, not the spread rule's
     * search for each sub-filter of a file being read) */
    if (!sbfi_scalable_file_params(&s->p))
        return sbfi_scalable_attach(s, f, items, capacity, fpp);
    struct sbf_scalable_sub o;
    const int planned = plan(s, s->n, &o) == SBF_OK;
    const int rc = sbfi_scalable_attach(s, f, items, capacity, fpp);
    if (rc == SBF_OK && !(planned && o.capacity == capacity && o.fpp == fpp &&
                          o.bits == f->bits && o.k == f->k && f->layout == s->p.layout))
        s->custom = 1;
    return rc;
}

int sbf_scalable_adopt(sbf_scalable *s, sbf_filter *f, uint64_t capacity, double fpp,
                       uint64_t keys)
{
    SBFI_RETURN_IF(s == NULL || f == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(s->readonly, SBF_E_READONLY);
    SBFI_RETURN_IF(capacity == 0 || !(fpp > 0 && fpp < 1) || keys > (uint64_t)INT64_MAX,
                   SBF_E_PARAM);
    SBFI_RETURN_IF(!same_hash(s, f), SBF_E_INCOMPATIBLE);
    SBFI_RETURN_IF(s->n >= 1 && (s->p.flags & SBF_SCALABLE_NONSCALING), SBF_E_INCOMPATIBLE);
    drop_spares(s);
    return sbfi_scalable_append(s, f, keys, capacity, fpp);
}

int sbfi_scalable_file_params(const sbf_scalable_params *p)
{
    return (p->flags & ~(uint32_t)SBF_ZEROED) == SBF_SCALABLE_FORMULA &&
           p->schedule == SBF_SCHEDULE_GEOMETRIC && p->growth >= 2 &&
           p->growth <= FILE_MAX_GROWTH;
}

int sbfi_scalable_file_ok(const sbf_scalable *s)
{
    return !s->custom && sbfi_scalable_file_params(&s->p) && s->n >= 1 &&
           s->n <= SBF_SCALABLE_FILE_MAX_FILTERS;
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
    if (s->n == 0) { /* no sub-filter yet: a filter of the layout and seed hashes */
        sbf_params fp = { 0 };
        fp.layout = s->p.layout;
        fp.expected_n = 1;
        fp.fpp = 0.5;
        fp.seed = s->p.seed;
        sbf_filter *f;
        SBFI_FORWARD_IF_ERROR(sbf_create(&f, &fp));
        const int rc = sbf_hash_pairs(f, keys, lens, keys_u64, n, h1, h2);
        sbf_free(f);
        return rc;
    }
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
    if (s->n == 0)
        SBFI_FORWARD_IF_ERROR(grow(s));
    /* the older sub-filters, newest first (the larger hold more keys) */
    for (uint32_t j = s->n - 1; j-- > 0;)
        if (has(&s->subs[j], h1, h2))
            return 0;
    sbfi_sub *t = &s->subs[s->n - 1];
    if (s->counting) { /* a multiset of one sub-filter: every add counts */
        if (t->items >= t->capacity && !has(t, h1, h2))
            return SBF_E_FULL;
        const int r = sbf_view_add_hash(&t->v, h1, h2);
        if (r >= 0)
            t->items++;
        return r;
    }
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

/* Key batches go chunk by chunk through each sub-filter's own pipelined
 * batch (sbf_contains_keys, sbf_add_keys: the keys hashed in SIMD lanes in
 * the filter's kernels, blocks prefetched), newest first, rather than
 * hashing once and probing through the views key by key: fewer
 * instructions at every depth measured (a view's probe is a call per key
 * per sub-filter where the library is not built for the machine;
 * redis/README.md, bench-redis-insn). An add chunk takes that route when
 * the newest sub-filter has room for every key no older one holds, so that
 * no key can start a sub-filter; otherwise keys go one by one from their
 * hashes (add_one). */

/* The chunk's keys [at, at + m) as an sbf_keys, all or those with sel[i] == 0. */
static size_t chunk_keys(sbf_keys *k, const void *const *keys, const size_t *lens,
                         const uint64_t *u64, size_t at, size_t m, const uint8_t *sel,
                         const void **p, size_t *l, uint64_t *u)
{
    memset(k, 0, sizeof *k);
    if (sel == NULL) {
        k->n = m;
        if (u64 != NULL) {
            k->u64 = u64 + at;
        } else {
            k->ptrs = keys + at;
            k->lens = lens + at;
        }
        return m;
    }
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
        if (sel[i])
            continue;
        if (u64 != NULL) {
            u[j++] = u64[at + i];
        } else {
            p[j] = keys[at + i];
            l[j++] = lens[at + i];
        }
    }
    k->n = j;
    if (u64 != NULL)
        k->u64 = u;
    else {
        k->ptrs = p;
        k->lens = l;
    }
    return j;
}

/* out[i] = 1 when one of sub-filters [0, upto) may hold key i. */
static size_t any_of(const sbf_scalable *s, uint32_t upto, const sbf_keys *k, uint8_t *out,
                     uint8_t *tmp)
{
    memset(out, 0, k->n);
    for (uint32_t j = upto; j-- > 0;) {
        const size_t r = sbf_contains_keys(s->subs[j].f, k, tmp);
        if (sbf_is_error(r))
            return r;
        for (size_t i = 0; i < k->n; i++)
            out[i] |= tmp[i];
    }
    size_t hits = 0;
    for (size_t i = 0; i < k->n; i++)
        hits += out[i];
    return hits;
}

/* Adds the chunk [at, at + m) through the pipelines when it fits (see
 * above): the count of new keys, an error as size_t (sbf_is_error), or
 * NOT_PIPED when it must go key by key (nothing changed then). */
#define NOT_PIPED ((size_t)0 - (size_t)1000)
static size_t add_chunk_piped(sbf_scalable *s, const void *const *keys, const size_t *lens,
                              const uint64_t *u64, size_t at, size_t m, uint8_t *out)
{
    sbfi_sub *t = &s->subs[s->n - 1];
    const uint64_t room = t->items < t->capacity ? t->capacity - t->items : 0;
    if (m > room && (s->counting || s->n == 1))
        return NOT_PIPED; /* every key may need room (counting: each add counts) */
    uint8_t old[CHUNK], tmp[CHUNK];
    const void *p[CHUNK];
    size_t l[CHUNK];
    uint64_t u[CHUNK];
    sbf_keys k;
    size_t older = 0;
    if (s->n > 1) {
        chunk_keys(&k, keys, lens, u64, at, m, NULL, p, l, u);
        older = any_of(s, s->n - 1, &k, old, tmp);
        if (sbf_is_error(older))
            return older;
        if (m - older > room)
            return NOT_PIPED;
    } else {
        memset(old, 0, m);
    }
    chunk_keys(&k, keys, lens, u64, at, m, older ? old : NULL, p, l, u);
    const size_t r = sbf_add_keys(t->f, &k, tmp);
    if (sbf_is_error(r))
        return r;
    for (size_t i = 0, j = 0; i < m; i++) {
        const uint8_t a = old[i] ? 0 : tmp[j++];
        if (out != NULL)
            out[at + i] = a;
    }
    t->items += s->counting ? m : r;
    return r;
}

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
    if (n > 0 && s != NULL && s->n == 0) { /* an empty filter: sub-filter 0 first */
        const int rc = grow(s);
        if (rc != SBF_OK)
            return err_size(rc);
    }
    if (s == NULL && cs->n == 0) { /* nothing is in an empty filter */
        if (out != NULL && n > 0)
            memset(out, 0, n);
        return 0;
    }
    uint64_t h1[CHUNK], h2[CHUNK];
    uint8_t tmp[CHUNK];
    size_t total = 0;
    for (size_t at = 0; at < n; at += CHUNK) {
        const size_t m = n - at < CHUNK ? n - at : CHUNK;
        size_t r;
        if (s == NULL) { /* contains: each sub-filter's pipeline */
            const void *p[1];
            size_t l[1];
            uint64_t u[1];
            sbf_keys k;
            chunk_keys(&k, keys, lens, u64, at, m, NULL, p, l, u);
            uint8_t o[CHUNK];
            r = any_of(cs, cs->n, &k, o, tmp);
            if (!sbf_is_error(r) && out != NULL)
                memcpy(out + at, o, m);
        } else if ((r = add_chunk_piped(s, keys, lens, u64, at, m, out)) == NOT_PIPED) {
            const int rc = sbf_scalable_hash(cs, u64 ? NULL : keys + at, u64 ? NULL : lens + at,
                                             u64 ? u64 + at : NULL, m, h1, h2);
            if (rc != SBF_OK)
                return err_size(rc);
            r = sbf_scalable_add_hashes(s, h1, h2, m, out ? out + at : NULL);
        }
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
    size_t m = sizeof *s + s->cap * sizeof *s->subs;
    for (uint32_t i = 0; i < s->n + s->nspare; i++)
        m += sbf_memory_usage(s->subs[i].f);
    return m;
}

/* ---------------------------------------------------------------- union */

static int same_params(const sbf_scalable_params *a, const sbf_scalable_params *b)
{
    return a->layout == b->layout && a->seed == b->seed && a->initial_n == b->initial_n &&
           a->growth == b->growth && memcmp(&a->fpp, &b->fpp, sizeof a->fpp) == 0 &&
           a->flags == b->flags && a->schedule == b->schedule &&
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
    SBFI_RETURN_IF(dst->counting, SBF_E_UNSUPPORTED);
    const uint32_t common = dst->n < src->n ? dst->n : src->n;
    for (uint32_t i = 0; i < common; i++)
        SBFI_RETURN_IF(dst->subs[i].f->bits != src->subs[i].f->bits ||
                       dst->subs[i].f->k != src->subs[i].f->k ||
                       dst->subs[i].f->layout != src->subs[i].f->layout ||
                       dst->subs[i].capacity != src->subs[i].capacity ||
                       dst->subs[i].fpp != src->subs[i].fpp, SBF_E_INCOMPATIBLE);
    drop_spares(dst);
    if (dst->n + (src->n > common ? src->n - common : 0) > dst->cap) {
        /* room for the new entries first: nothing changes if it fails */
        sbfi_sub *t = mem_alloc(&dst->p, src->n * sizeof *t);
        SBFI_RETURN_IF(t == NULL, SBF_E_NOMEM);
        if (dst->n > 0)
            memcpy(t, dst->subs, dst->n * sizeof *t);
        mem_free(&dst->p, dst->subs);
        dst->subs = t;
        dst->cap = src->n;
    }
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
    for (uint32_t i = common; i < src->n; i++) /* cannot fail: room made above */
        (void)sbfi_scalable_attach(dst, extra[i], src->subs[i].items, src->subs[i].capacity,
                                   src->subs[i].fpp);
    dst->custom |= src->custom;
    return SBF_OK;
}

/* ------------------------------------------------- all or nothing */

typedef struct pair_ref {
    uint64_t h1, h2;
    size_t i;
} pair_ref;

static int pair_cmp(const void *a, const void *b)
{
    const pair_ref *x = a, *y = b;
    if (x->h1 != y->h1)
        return x->h1 < y->h1 ? -1 : 1;
    if (x->h2 != y->h2)
        return x->h2 < y->h2 ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* first[i] = 1 when key i is absent (present[i] == 0) and no earlier key
 * has its hash: the keys a batch can add. Returns their count, or
 * SIZE_MAX when out of memory. first may be present itself. */
static size_t first_absent(const uint64_t *h1, const uint64_t *h2, size_t n,
                           const uint8_t *present, uint8_t *first)
{
    pair_ref *r = malloc((n ? n : 1) * sizeof *r);
    if (r == NULL)
        return SIZE_MAX;
    size_t m = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        const int absent = !present[i];
        first[i] = 0;
        if (absent)
            r[m++] = (pair_ref){ h1[i], h2[i], i };
    }
    qsort(r, m, sizeof *r, pair_cmp);
    for (size_t j = 0; j < m; j++)
        if (j == 0 || r[j].h1 != r[j - 1].h1 || r[j].h2 != r[j - 1].h2) {
            first[r[j].i] = 1;
            count++;
        }
    free(r);
    return count;
}

/* Whether the keys fit the one sub-filter exactly: the adds replayed in
 * order on a copy of it (an earlier key of the batch may make a later one
 * present). 1 fits, 0 full, < 0 an error. */
static int replay_fits(const sbf_scalable *s, const uint64_t *h1, const uint64_t *h2, size_t n)
{
    const sbfi_sub *t = &s->subs[s->n - 1];
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbf_copy(&f, t->f));
    sbf_view v;
    int rc = sbf_view_get_writable(f, &v);
    uint64_t items = t->items;
    int fits = 1;
    for (size_t i = 0; rc == SBF_OK && i < n && fits; i++) {
        const int present = sbf_view_contains_hash(&v, h1[i], h2[i]) == 1;
        if (!present && items >= t->capacity)
            fits = 0;
        else if (sbf_view_add_hash(&v, h1[i], h2[i]) == 1 || s->counting)
            items++;
    }
    sbf_free(f);
    return rc != SBF_OK ? rc : fits;
}

/* Whether a one-sub-filter filter (non-scaling or counting) takes every
 * key. Counting each new key (first[]) is exact up to the first misfit when
 * no new key precedes it: the filter is unchanged at its turn. Otherwise an
 * earlier add might make it present (a false positive), and the adds are
 * replayed on a copy: once, when a batch crosses the capacity. */
static int one_fits(const sbf_scalable *s, const uint64_t *h1, const uint64_t *h2, size_t n,
                    const uint8_t *first)
{
    const sbfi_sub *t = &s->subs[s->n - 1];
    uint64_t items = t->items;
    size_t at = n, before = 0;
    for (size_t i = 0; i < n; i++) {
        if (first[i] && items >= t->capacity) {
            at = i;
            break;
        }
        items += first[i] || s->counting;
        before += first[i];
    }
    if (at == n)
        return SBF_OK;
    const int fits = before == 0 ? 0 : replay_fits(s, h1, h2, n);
    SBFI_FORWARD_IF_ERROR(fits);
    return fits ? SBF_OK : SBF_E_FULL;
}

/* The sub-filters `need` more new keys take, made in advance (spares). */
static int make_spares(sbf_scalable *s, uint64_t need)
{
    for (uint64_t rem = need; rem > 0;) {
        const int rc = make_sub(s, 1);
        if (rc != SBF_OK) {
            drop_spares(s);
            return rc;
        }
        const uint64_t c = s->subs[s->n + s->nspare - 1].capacity;
        rem -= rem < c ? rem : c;
    }
    return SBF_OK;
}

/* Decides whether the keys fit, making what they need. */
static int prepare_all(sbf_scalable *s, const uint64_t *h1, const uint64_t *h2, size_t n,
                       uint8_t *tmp)
{
    const sbfi_sub *t = &s->subs[s->n - 1];
    const uint64_t room = t->items < t->capacity ? t->capacity - t->items : 0;
    const int one = s->counting || (s->p.flags & SBF_SCALABLE_NONSCALING);
    /* most batches fit with room to spare, which n <= room shows at once */
    if (n <= room)
        return SBF_OK;
    size_t absent = 0;
    for (size_t i = 0; i < n; i++) {
        tmp[i] = (uint8_t)contains_one(s, h1[i], h2[i]);
        absent += !tmp[i];
    }
    if (!s->counting && absent <= room)
        return SBF_OK;
    const size_t need = first_absent(h1, h2, n, tmp, tmp);
    SBFI_RETURN_IF(need == SIZE_MAX, SBF_E_NOMEM);
    if (s->counting || (one && need > room))
        return one_fits(s, h1, h2, n, tmp);
    if (need > room)
        return make_spares(s, need - room);
    return SBF_OK;
}

size_t sbf_scalable_add_all(sbf_scalable *s, const void *const *keys, const size_t *lens,
                            size_t n, uint8_t *added)
{
    if (s == NULL || (n > 0 && (keys == NULL || lens == NULL)))
        return err_size(SBF_E_NULL);
    for (size_t i = 0; i < n; i++)
        if (keys[i] == NULL && lens[i] > 0)
            return err_size(SBF_E_NULL);
    if (s->readonly)
        return err_size(SBF_E_READONLY);
    if (n == 0)
        return 0;
    if (s->n == 0) {
        const int rc = grow(s);
        if (rc != SBF_OK)
            return err_size(rc);
    }
    const sbfi_sub *t = &s->subs[s->n - 1];
    if (t->items < t->capacity && n <= t->capacity - t->items) /* fits, whatever the keys */
        return batch(s, s, keys, lens, NULL, n, added);
    uint64_t *h = malloc(n * 2 * sizeof *h);
    uint8_t *tmp = malloc(n);
    int rc = h != NULL && tmp != NULL ? SBF_OK : SBF_E_NOMEM;
    if (rc == SBF_OK)
        rc = sbf_scalable_hash(s, keys, lens, NULL, n, h, h + n);
    if (rc == SBF_OK)
        rc = prepare_all(s, h, h + n, n, tmp);
    size_t fresh = 0;
    if (rc == SBF_OK && s->nspare == 0) { /* the new keys fit the newest */
        free(h);
        free(tmp);
        return batch(s, s, keys, lens, NULL, n, added);
    }
    for (size_t i = 0; rc == SBF_OK && i < n; i++) {
        if (i + AHEAD < n)
            prefetch(s, h[i + AHEAD]);
        const int r = add_one(s, h[i], h[n + i]); /* cannot fail: it all fits */
        if (r < 0) {
            rc = r;
            break;
        }
        if (added != NULL)
            added[i] = (uint8_t)(r > 0);
        fresh += (size_t)(r > 0) || s->counting;
    }
    drop_spares(s); /* false positives may leave some unused */
    free(h);
    free(tmp);
    return rc == SBF_OK ? fresh : err_size(rc);
}

int sbf_scalable_remove(sbf_scalable *s, const void *key, size_t len)
{
    SBFI_RETURN_IF(s == NULL || (key == NULL && len > 0), SBF_E_NULL);
    SBFI_RETURN_IF(s->readonly, SBF_E_READONLY);
    SBFI_RETURN_IF(!s->counting, SBF_E_UNSUPPORTED);
    SBFI_RETURN_IF(s->n == 0, SBF_E_NOT_PRESENT);
    sbfi_sub *t = &s->subs[0];
    const int rc = sbf_remove(t->f, key, len);
    if (rc == SBF_OK && t->items > 0)
        t->items--;
    return rc;
}

/* ------------------------------------------------ sub-filters, copies */

int sbf_scalable_sub_info(const sbf_scalable *s, uint32_t i, struct sbf_scalable_sub *out)
{
    SBFI_RETURN_IF(s == NULL || out == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(i >= s->n, SBF_E_PARAM);
    const sbfi_sub *t = &s->subs[i];
    memset(out, 0, sizeof *out);
    out->filter = t->f;
    out->index = i;
    out->layout = t->f->layout;
    out->k = t->f->k;
    out->seed = t->f->seed;
    out->bits = t->f->bits;
    out->capacity = t->capacity;
    out->fpp = t->fpp;
    out->keys = t->items;
    for (uint32_t j = 0; j < i; j++)
        out->bits_before += s->subs[j].f->bits;
    return SBF_OK;
}

int sbf_scalable_next(const sbf_scalable *s, struct sbf_scalable_sub *out)
{
    SBFI_RETURN_IF(s == NULL || out == NULL, SBF_E_NULL);
    return plan(s, s->n, out); /* spares live only inside sbf_scalable_add_all */
}

uint32_t sbf_scalable_filters(const sbf_scalable *s)
{
    return s != NULL ? s->n : 0;
}

sbf_filter *sbf_scalable_filter_writable(sbf_scalable *s, uint32_t i)
{
    return s != NULL && !s->readonly && i < s->n ? s->subs[i].f : NULL;
}

int sbf_scalable_copy(sbf_scalable **out, const sbf_scalable *src)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || src == NULL, SBF_E_NULL);
    sbf_scalable *s = sbfi_scalable_new(&src->p, 0);
    SBFI_RETURN_IF(s == NULL, SBF_E_NOMEM);
    s->custom = src->custom;
    for (uint32_t i = 0; i < src->n; i++) {
        const sbfi_sub *t = &src->subs[i];
        sbf_filter *f;
        int rc = sbf_copy(&f, t->f);
        if (rc == SBF_OK && (rc = sbfi_scalable_attach(s, f, t->items, t->capacity, t->fpp)) != SBF_OK)
            sbf_free(f);
        if (rc != SBF_OK) {
            sbf_scalable_free(s);
            return rc;
        }
    }
    *out = s;
    return SBF_OK;
}

int sbf_scalable_params_of(const sbf_scalable *s, sbf_scalable_params *out)
{
    SBFI_RETURN_IF(s == NULL || out == NULL, SBF_E_NULL);
    *out = s->p;
    return SBF_OK;
}

/* ------------------------------------- deciding outside the library */

int sbf_scalable_room(const sbf_scalable *s, uint64_t *room)
{
    SBFI_RETURN_IF(s == NULL || room == NULL, SBF_E_NULL);
    *room = 0;
    if (s->n == 0)
        return SBF_OK;
    const sbfi_sub *t = &s->subs[s->n - 1];
    *room = t->items < t->capacity ? t->capacity - t->items : 0;
    return SBF_OK;
}

int sbf_scalable_count_adds(sbf_scalable *s, uint64_t n)
{
    SBFI_RETURN_IF(s == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(s->readonly, SBF_E_READONLY);
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(s->n == 0, SBF_E_FULL);
    sbfi_sub *t = &s->subs[s->n - 1];
    SBFI_RETURN_IF(t->items > t->capacity || n > t->capacity - t->items, SBF_E_FULL);
    t->items += n;
    sbfi_count_added(t->f, n);
    return SBF_OK;
}
