/*
 * The scalable chain (chain.h): the library's sbf_scalable with the
 * module's parameters, limits and memory checks, and the module's totals.
 * No Redis: the host supplies sbfr_alloc & co.
 */
#include "chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

sbfr_settings sbfr_cfg = {
    .capacity = 100,
    .error = 0.01,
    .expansion = 2,
    .layout = SBF_BLOCKED,
    .max_bytes = SBFR_MAX_KEY_BYTES,
};

const int sbfr_layouts[SBFR_NLAYOUTS] = {SBF_CLASSIC,          SBF_BLOCKED,      SBF_SPLIT_BLOCK,
                                          SBF_COUNTING,         SBF_BLOCKED_XXH3, SBF_SPLIT_BLOCK_XXH3,
                                          SBF_COUNTING_XXH3,    SBF_BLOCKED_FMIX, SBF_SPLIT_BLOCK_FMIX};

static const char WHY_CAP[] = "the filter would exceed the module's MAX_BYTES";
static const char WHY_LINKS[] = "the key holds 256 sub-filters, the most a chain has";
static const char WHY_LINK_CAPACITY[] =
    "the next sub-filter would hold more than 2^40 items, the most one holds";
static const char WHY_MAXMEMORY[] = "used memory plus the new sub-filter would exceed 'maxmemory'";

int sbfr_layout_from_name(const char *s, size_t n)
{
    for (int i = 0; i < SBFR_NLAYOUTS; i++) {
        const char *name = sbf_layout_name(sbfr_layouts[i]);
        if (strlen(name) == n && strncasecmp(s, name, n) == 0)
            return sbfr_layouts[i];
    }
    if (n == 5 && strncasecmp(s, "split", 5) == 0) /* short for split-block */
        return sbf_layout_from_name("split-block");
    return -1;
}

int sbfr_layout_ok(uint64_t layout)
{
    for (int i = 0; i < SBFR_NLAYOUTS; i++)
        if ((uint64_t)sbfr_layouts[i] == layout)
            return 1;
    return 0;
}

int sbfr_counts(int layout)
{
    struct sbf_layout_info li;
    return sbf_layout_info(layout, 0, &li) == SBF_OK && li.cell_bits > 1;
}

int sbfr_link_layout_ok(int key_layout, uint64_t link_layout)
{
    return link_layout == (uint64_t)key_layout ||
           (link_layout == SBFR_FLOOR_LAYOUT && !sbfr_counts(key_layout));
}

/* ------------------------------------------------------------------ totals
 * Updated wherever a chain, a sub-filter or an item comes or goes; atomic
 * because Redis may free a flushed database in a background thread. */

static long long g_keys, g_filters, g_items, g_bytes, g_memory;

static void stat_add(long long *v, long long d)
{
    __atomic_fetch_add(v, d, __ATOMIC_RELAXED);
}

void sbfr_stats_get(sbfr_stats *o)
{
    o->keys = __atomic_load_n(&g_keys, __ATOMIC_RELAXED);
    o->filters = __atomic_load_n(&g_filters, __ATOMIC_RELAXED);
    o->items = __atomic_load_n(&g_items, __ATOMIC_RELAXED);
    o->bytes = __atomic_load_n(&g_bytes, __ATOMIC_RELAXED);
    o->memory = __atomic_load_n(&g_memory, __ATOMIC_RELAXED);
}

uint64_t sbfr_link_bytes(const sbfr_link *l)
{
    return l->bits / 8;
}

/* ------------------------------------------------------ the library's view */

sbfr_link sbfr_chain_link(const sbfr_chain *c, uint32_t i)
{
    struct sbf_scalable_sub u;
    memset(&u, 0, sizeof u);
    (void)sbf_scalable_sub_info(c->s, i, &u); /* i < nlinks: cannot fail */
    return (sbfr_link){ u.filter, u.layout, u.k, u.seed, u.bits, u.capacity, u.fpp, u.keys };
}

/* The totals (the chain's and the module's) moved by what changed since
 * the last call: sub-filters from `from` on (the new ones: their bytes and
 * memory) and the items. */
static void sync(sbfr_chain *c, uint32_t from)
{
    const uint32_t n = sbf_scalable_filters(c->s);
    for (uint32_t i = from > c->nlinks ? from : c->nlinks; i < n; i++) {
        const sbfr_link l = sbfr_chain_link(c, i); /* a new sub-filter */
        const uint64_t b = l.bits / 8;
        const size_t m = sbf_memory_usage(l.f);
        c->bytes += b;
        c->memory += m;
        stat_add(&g_filters, 1);
        stat_add(&g_bytes, (long long)b);
        stat_add(&g_memory, (long long)m);
    }
    const uint64_t items = n > 0 ? sbf_scalable_count(c->s) : 0;
    stat_add(&g_items, (long long)(items - c->items));
    c->items = items;
    c->nlinks = n;
}

/* The newest sub-filter's index (where a change starts), 0 when none. */
static uint32_t newest(const sbfr_chain *c)
{
    return c->nlinks ? c->nlinks - 1 : 0;
}

/* ------------------------------------------------------------- growth check
 * Asked by the library for every sub-filter it is about to make (the
 * first included), in the order the module has always refused them: the
 * library's own limits (256 sub-filters, 2^40 items, a rate no filter of
 * the layout gives), then MAX_BYTES, then maxmemory. The cap and the reason
 * are per command (Redis runs one at a time). */

static uint64_t g_cap = SBFR_NO_CAP;
static const char *g_why;

/* The refusal of a sub-filter no layout can make, naming the limit. */
static const char *size_why(int layout, int rc, uint64_t capacity, double error)
{
    static char buf[200];
    struct sbf_layout_info li;
    const unsigned kmax = sbf_layout_info(layout, 0, &li) == SBF_OK ? li.k_max : 0;
    if (rc == SBF_E_K)
        snprintf(buf, sizeof buf,
                 "a sub-filter of %llu items at rate %.3g would need more than %u hashes, "
                 "the most a %s sub-filter has", (unsigned long long)capacity, error, kmax,
                 sbf_layout_name(layout));
    else if (rc == SBF_E_TOO_LARGE)
        snprintf(buf, sizeof buf,
                 "a sub-filter of %llu items at rate %.3g would exceed the largest %s "
                 "filter the library makes", (unsigned long long)capacity, error,
                 sbf_layout_name(layout));
    else
        return sbf_strerror(rc);
    return buf;
}

static int grow_check(void *arg, const struct sbf_scalable_sub *nx, int rc)
{
    (void)arg;
    const uint64_t b = nx->bits / 8, before = nx->bits_before / 8;
    if (rc != SBF_OK) {
        if (rc == SBF_E_FULL)
            g_why = "";
        else if (nx->index >= SBFR_MAX_LINKS)
            g_why = WHY_LINKS;
        else if (rc == SBF_E_TOO_LARGE && nx->index > 0 && !(nx->fpp > 0))
            g_why = WHY_LINK_CAPACITY; /* no rate: the capacity was refused */
        else
            g_why = size_why(nx->layout, rc, nx->capacity, nx->fpp);
        return rc;
    }
    if (b > g_cap || before > g_cap - b) {
        g_why = WHY_CAP;
        return SBF_E_TOO_LARGE;
    }
    if (g_cap != SBFR_NO_CAP && sbfr_cfg.room != NULL && !sbfr_cfg.room(b)) {
        g_why = WHY_MAXMEMORY;
        return SBF_E_NOMEM;
    }
    return SBF_OK;
}

/* Before a library call that may make sub-filters. */
static void arm(uint64_t cap)
{
    g_cap = cap;
    g_why = NULL;
}

static const char *why_of(int rc)
{
    return g_why != NULL ? g_why : sbf_strerror(rc);
}

/* ------------------------------------------------------------- life cycle */

int sbfr_rule_ok(uint64_t rule)
{
    return rule == SBFR_RULE_DEFAULT || rule == SBFR_RULE_FORMULA;
}

const char *sbfr_rule_name(int rule)
{
    return rule == SBFR_RULE_FORMULA ? "formula" : "spread";
}

static sbf_scalable_params params(int layout, uint64_t capacity, double error,
                                  uint32_t expansion, uint32_t seed, int rule)
{
    sbf_scalable_params p = { 0 };
    p.layout = layout;
    p.initial_n = capacity ? capacity : 1;
    p.fpp = error;
    p.growth = expansion ? expansion : 2;
    p.seed = seed;
    /* the chain's rule: the library's default, or the formula alone
     * (SBF_SCALABLE_FORMULA) for chains stored before the rule was recorded */
    p.flags = (rule == SBFR_RULE_FORMULA ? SBF_SCALABLE_FORMULA : 0) |
              (expansion == 0 ? SBF_SCALABLE_NONSCALING : 0);
    p.schedule = SBF_SCHEDULE_SHARED;
    p.max_capacity = SBFR_MAX_LINK_CAPACITY;
    p.allocator = sbfr_cfg.alloc;
    if (sbfr_cfg.alloc_zeroed != NULL) {
        p.allocator = sbfr_cfg.alloc_zeroed;
        p.flags |= SBF_ZEROED; /* no pass over a new sub-filter's memory */
    }
    p.grow_check = grow_check;
    return p;
}

sbfr_chain *sbfr_chain_alloc(int layout, uint32_t expansion, double error)
{
    sbfr_chain *c = sbfr_calloc(1, sizeof *c);
    c->layout = layout;
    c->expansion = expansion;
    c->error = error;
    c->rule = SBFR_RULE_FORMULA;
    stat_add(&g_keys, 1);
    return c;
}

void sbfr_chain_free(sbfr_chain *c)
{
    if (c == NULL)
        return;
    stat_add(&g_filters, -(long long)c->nlinks);
    stat_add(&g_bytes, -(long long)c->bytes);
    stat_add(&g_memory, -(long long)c->memory);
    stat_add(&g_items, -(long long)c->items);
    stat_add(&g_keys, -1);
    sbf_scalable_free(c->s);
    sbfr_free(c);
}

int sbfr_chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                   uint32_t expansion, uint64_t cap, const char **why)
{
    if (sbfr_counts(layout))
        expansion = 0; /* see README: deletion needs to know the sub-filter */
    const sbf_scalable_params p = params(layout, capacity, error, expansion, 0,
                                         SBFR_RULE_DEFAULT);
    sbf_scalable *s;
    arm(cap);
    const int rc = sbf_scalable_create(&s, &p);
    if (rc != SBF_OK) {
        *why = why_of(rc);
        return rc;
    }
    sbfr_chain *c = sbfr_chain_alloc(layout, expansion, error);
    c->rule = SBFR_RULE_DEFAULT;
    c->s = s;
    sync(c, 0);
    *out = c;
    return SBF_OK;
}

int sbfr_link_make(sbf_filter **f, int layout, uint64_t bits, uint32_t k, uint32_t seed,
                   const char **why)
{
    sbf_params p = {0};
    p.layout = layout;
    p.bits = bits;
    p.k = k;
    p.seed = seed;
    p.allocator = sbfr_cfg.alloc;
    *f = NULL;
    int rc = sbf_create(f, &p);
    struct sbf_info inf;
    if (rc == SBF_OK && (sbf_info(*f, &inf) != SBF_OK || inf.bits != bits || inf.k != k)) {
        rc = SBF_E_PARAM; /* not a geometry the library makes as it is */
        sbf_free(*f);
        *f = NULL;
    }
    if (rc != SBF_OK)
        *why = sbf_strerror(rc);
    return rc;
}

int sbfr_chain_attach(sbfr_chain *c, sbf_filter *f, uint64_t capacity, double error,
                      uint64_t items, const char **why)
{
    int rc = SBF_OK;
    if (c->s == NULL) { /* the first: the chain takes its seed */
        struct sbf_info inf;
        rc = sbf_info(f, &inf);
        const sbf_scalable_params p = params(c->layout, capacity, c->error, c->expansion,
                                             rc == SBF_OK ? inf.seed : 0, c->rule);
        if (rc == SBF_OK)
            rc = sbf_scalable_create_empty(&c->s, &p);
    }
    if (rc == SBF_OK)
        rc = sbf_scalable_adopt(c->s, f, capacity, error, items);
    if (rc != SBF_OK) {
        *why = rc == SBF_E_INCOMPATIBLE ? "a sub-filter hashes unlike the chain"
                                        : sbf_strerror(rc);
        return rc;
    }
    sync(c, newest(c));
    return SBF_OK;
}

sbf_filter *sbfr_link_writable(sbfr_chain *c, uint32_t i)
{
    return sbf_scalable_filter_writable(c->s, i);
}

/* ------------------------------------------------------------------ adds */

int sbfr_chain_add1(sbfr_chain *c, const void *s, size_t n, uint64_t cap, const char **why)
{
    const uint32_t from = newest(c);
    arm(cap);
    const int rc = sbf_scalable_add(c->s, s, n);
    if (rc >= 0) {
        sync(c, from);
        return rc == 1 ? SBFR_ADD_NEW : SBFR_ADD_PRESENT;
    }
    if (rc == SBF_E_FULL)
        return SBFR_ADD_FULL;
    *why = why_of(rc);
    return SBFR_ADD_FAILED;
}

long long sbfr_chain_add_all(sbfr_chain *c, const void *const *ptr, const size_t *len,
                             size_t n, uint8_t *out, uint64_t cap, const char **why)
{
    const uint32_t from = newest(c);
    arm(cap);
    const size_t r = sbf_scalable_add_all(c->s, ptr, len, n, out);
    if (!sbf_is_error(r)) {
        sync(c, from);
        long long added = 0; /* new items (counting keys: r counts every add) */
        for (size_t i = 0; i < n; i++)
            added += out[i];
        return added;
    }
    const int rc = -(int)(SIZE_MAX - r) - 1;
    if (rc == SBF_E_FULL)
        return SBFR_ADD_FULL;
    *why = why_of(rc);
    return SBFR_ADD_FAILED;
}

void sbfr_chain_contains_batch(const sbfr_chain *c, const void *const *ptr, const size_t *len,
                               size_t n, uint8_t *out)
{
    if (sbf_is_error(sbf_scalable_contains_batch(c->s, ptr, len, n, out)))
        memset(out, 0, n); /* not reached: the arguments are the module's */
}

int sbfr_chain_remove(sbfr_chain *c, const void *s, size_t n)
{
    const int rc = sbf_scalable_remove(c->s, s, n);
    if (rc == SBF_OK)
        sync(c, 0);
    return rc;
}

/* ---------------------------------------------------------------- queries */

uint64_t sbfr_chain_capacity(const sbfr_chain *c)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < c->nlinks; i++)
        s += sbfr_chain_link(c, i).capacity;
    return s;
}

size_t sbfr_chain_mem(const sbfr_chain *c)
{
    return sizeof *c + sbf_scalable_memory_usage(c->s);
}

sbfr_chain *sbfr_chain_copy(const sbfr_chain *src)
{
    sbfr_chain *c = sbfr_chain_alloc(src->layout, src->expansion, src->error);
    c->rule = src->rule;
    if (src->s != NULL && sbf_scalable_copy(&c->s, src->s) != SBF_OK) {
        sbfr_chain_free(c);
        return NULL;
    }
    sync(c, 0);
    return c;
}

int sbfr_valid_rate(double e)
{
    return e > 0 && e < 1;
}

int sbfr_valid_chain(uint64_t layout, uint64_t expansion, double error, uint64_t nlinks)
{
    return sbfr_layout_ok(layout) && expansion <= SBFR_MAX_EXPANSION && sbfr_valid_rate(error) &&
           nlinks >= 1 && nlinks <= SBFR_MAX_LINKS &&
           !(sbfr_counts((int)layout) && expansion != 0) && !(expansion == 0 && nlinks != 1);
}

int sbfr_valid_link(uint64_t capacity, double error)
{
    return capacity >= 1 && capacity <= SBFR_MAX_LINK_CAPACITY && sbfr_valid_rate(error);
}
