/*
 * The scalable chain (chain.h): creation, growth, adds (one, or all of a
 * command's or none) and batched queries over simdbloom filters, and the
 * module's totals. No Redis: the host supplies sbfr_alloc & co.
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
                                          SBF_COUNTING_XXH3};

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

/* Every byte a sub-filter holds. */
static size_t filter_memory(const sbf_filter *f)
{
    return sbf_memory_usage(f);
}

uint64_t sbfr_link_bytes(const sbfr_link *l)
{
    return l->bits / 8;
}

/* ------------------------------------------------------------- life cycle */

sbfr_chain *sbfr_chain_alloc(uint32_t nlinks_hint)
{
    sbfr_chain *c = sbfr_calloc(1, sizeof *c);
    c->links = sbfr_calloc(nlinks_hint ? nlinks_hint : 1, sizeof *c->links);
    stat_add(&g_keys, 1);
    return c;
}

static void link_free(sbfr_link *l)
{
    sbf_free(l->f);
    l->f = NULL;
}

void sbfr_chain_free(sbfr_chain *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; i < c->nlinks; i++) {
        stat_add(&g_filters, -1);
        stat_add(&g_bytes, -(long long)sbfr_link_bytes(&c->links[i]));
        stat_add(&g_memory, -(long long)filter_memory(c->links[i].f));
        link_free(&c->links[i]);
    }
    for (uint32_t i = c->spare_used; i < c->nspare; i++)
        link_free(&c->spare[i]);
    stat_add(&g_items, -(long long)c->items);
    stat_add(&g_keys, -1);
    sbfr_free(c->spare);
    sbfr_free(c->links);
    sbfr_free(c);
}

void sbfr_chain_attach(sbfr_chain *c, const sbfr_link *l)
{
    c->links = sbfr_realloc(c->links, (c->nlinks + 1) * sizeof *c->links);
    c->links[c->nlinks++] = *l;
    c->bytes += sbfr_link_bytes(l);
    c->items += l->items;
    stat_add(&g_filters, 1);
    stat_add(&g_bytes, (long long)sbfr_link_bytes(l));
    stat_add(&g_memory, (long long)filter_memory(l->f));
    stat_add(&g_items, (long long)l->items);
}

void sbfr_chain_count(sbfr_chain *c, uint32_t l, long long n)
{
    c->links[l].items += (uint64_t)n;
    c->items += (uint64_t)n;
    stat_add(&g_items, n);
}

/* ------------------------------------------------------------ sub-filters */

/* made: a new sub-filter whose geometry sbf_size chose (so the library makes
 * it as it is: no sbf_info, a pass over the data, to check), in memory that
 * reads as zero and is not cleared (SBF_ZEROED); else a geometry read from
 * a dump or an RDB record, checked, in memory its data will fill. */
static int link_make(sbfr_link *l, int layout, uint64_t bits, uint32_t k, uint32_t seed,
                     int made, const char **why)
{
    sbf_params p = {0};
    p.layout = layout;
    p.bits = bits;
    p.k = k;
    p.seed = seed;
    p.allocator = sbfr_cfg.alloc;
    if (made && sbfr_cfg.alloc_zeroed != NULL) {
        p.allocator = sbfr_cfg.alloc_zeroed;
        p.flags = SBF_ZEROED; /* no pass over the new filter's memory */
    }
    memset(l, 0, sizeof *l);
    int rc = sbf_create(&l->f, &p);
    struct sbf_info inf;
    if (rc == SBF_OK && !made &&
        (sbf_info(l->f, &inf) != SBF_OK || inf.bits != bits || inf.k != k)) {
        rc = SBF_E_PARAM; /* not a geometry the library makes as it is */
        link_free(l);
    }
    if (rc != SBF_OK) {
        *why = sbf_strerror(rc);
        return rc;
    }
    l->layout = layout;
    l->bits = bits;
    l->k = k;
    l->seed = seed;
    return SBF_OK;
}

int sbfr_link_make(sbfr_link *l, int layout, uint64_t bits, uint32_t k, uint32_t seed,
                   const char **why)
{
    return link_make(l, layout, bits, k, seed, 0, why);
}

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

/* Sizes a sub-filter for (capacity, error) in the key's layout (chain.h:
 * no classic past a floor any more). Nothing is allocated. */
static int plan_link(sbfr_link *l, int layout, uint64_t capacity, double error, const char **why)
{
    uint64_t bits = 0;
    uint32_t k = 0;
    int rc = sbf_size(layout, capacity, error, &bits, &k);
    if (rc != SBF_OK) {
        *why = size_why(layout, rc, capacity, error);
        return rc;
    }
    memset(l, 0, sizeof *l);
    l->layout = layout;
    l->bits = bits;
    l->k = k;
    l->capacity = capacity;
    l->error = error;
    return SBF_OK;
}

/* Plans and makes a sub-filter, refusing one that takes the key's used
 * bytes (`bytes` now) past cap before anything is allocated. */
static int make_link(sbfr_link *l, int layout, uint64_t capacity, double error, uint64_t bytes,
                     uint64_t cap, const char **why)
{
    int rc = plan_link(l, layout, capacity, error, why);
    if (rc != SBF_OK)
        return rc;
    if (sbfr_link_bytes(l) > cap || bytes > cap - sbfr_link_bytes(l)) {
        *why = WHY_CAP;
        return SBF_E_TOO_LARGE;
    }
    if (cap != SBFR_NO_CAP && sbfr_cfg.room != NULL && !sbfr_cfg.room(sbfr_link_bytes(l))) {
        *why = WHY_MAXMEMORY;
        return SBF_E_NOMEM;
    }
    const uint64_t c = l->capacity;
    const double e = l->error;
    rc = link_make(l, l->layout, l->bits, l->k, 0, 1, why);
    l->capacity = c;
    l->error = e;
    return rc;
}

/* The first sub-filter's rate: the whole rate when the chain cannot grow,
 * half of it when later ones may add theirs. */
static double first_error(double error, uint32_t expansion)
{
    return expansion == 0 ? error : error * SBFR_TIGHTENING;
}

int sbfr_chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                   uint32_t expansion, uint64_t cap, const char **why)
{
    if (sbfr_counts(layout))
        expansion = 0; /* see README: deletion needs to know the sub-filter */
    sbfr_link l;
    int rc = make_link(&l, layout, capacity, first_error(error, expansion), 0, cap, why);
    if (rc != SBF_OK)
        return rc;
    sbfr_chain *c = sbfr_chain_alloc(1);
    c->layout = layout;
    c->expansion = expansion;
    c->error = error;
    sbfr_chain_attach(c, &l);
    *out = c;
    return SBF_OK;
}

/* The sub-filter after `prev`, which would be the chain's number `index`,
 * with the key at `bytes` used bytes before it. */
static int next_link(const sbfr_chain *c, const sbfr_link *prev, uint32_t index, uint64_t bytes,
                     sbfr_link *out, uint64_t cap, const char **why)
{
    if (index >= SBFR_MAX_LINKS) {
        *why = WHY_LINKS;
        return SBF_E_TOO_LARGE;
    }
    if (prev->capacity > SBFR_MAX_LINK_CAPACITY / c->expansion) {
        *why = WHY_LINK_CAPACITY;
        return SBF_E_TOO_LARGE;
    }
    /* The rate left to the chain, shared so that the sum of every sub-filter's
     * rate stays below the asked one at any depth: a new chain's sub-filter i
     * gets rate / ((i + 1)(i + 2)) (1/2, 1/6, 1/12, ...: the sum telescopes
     * to rate (1 - 1/(n + 1)) after n), not RedisBloom's rate / 2^(i+1),
     * whose 60th sub-filter would ask 1e-20 of a filter; a chain written
     * with halving rates continues within what it left. */
    double used = 0;
    for (uint32_t i = 0; i < c->nlinks; i++)
        used += c->links[i].error;
    for (uint32_t i = c->spare_used; i < c->nspare; i++)
        used += c->spare[i].error;
    double e = (c->error - used) / ((double)index + 2.0);
    if (!(e > 0) || !sbfr_valid_rate(e))
        e = prev->error * SBFR_TIGHTENING;
    return make_link(out, c->layout, prev->capacity * c->expansion, e, bytes, cap, why);
}

/* A full newest sub-filter makes room: the next spare, or a new one. */
static int chain_grow(sbfr_chain *c, uint64_t cap, const char **why)
{
    if (c->spare_used < c->nspare) {
        sbfr_chain_attach(c, &c->spare[c->spare_used++]);
        return SBF_OK;
    }
    sbfr_link l;
    int rc = next_link(c, &c->links[c->nlinks - 1], c->nlinks, c->bytes, &l, cap, why);
    if (rc == SBF_OK)
        sbfr_chain_attach(c, &l);
    return rc;
}

/* ------------------------------------------------------------------ adds */

/* One item, exactly as RedisBloom orders it: present anywhere -> 0; else a
 * full newest sub-filter makes room (or the NONSCALING key is full), then
 * the item goes into the newest. Counting keys add every time (a multiset,
 * so that a later SBF.DEL cannot remove another item's counts). */
int sbfr_chain_add1(sbfr_chain *c, const void *s, size_t n, uint64_t cap, const char **why)
{
    sbfr_link *last = &c->links[c->nlinks - 1];
    int present = 0;
    for (uint32_t i = 0; i + 1 < c->nlinks && !present; i++)
        present = sbf_contains(c->links[i].f, s, n) == 1;
    if (sbfr_counts(c->layout)) {
        present = present || sbf_contains(last->f, s, n) == 1;
        if (!present && last->items >= last->capacity)
            return SBFR_ADD_FULL;
        if (sbf_add(last->f, s, n) < 0)
            return SBFR_ADD_FAILED;
        sbfr_chain_count(c, c->nlinks - 1, 1);
        return present ? SBFR_ADD_PRESENT : SBFR_ADD_NEW;
    }
    if (present)
        return SBFR_ADD_PRESENT;
    if (last->items >= last->capacity) {
        if (sbf_contains(last->f, s, n) == 1)
            return SBFR_ADD_PRESENT;
        if (c->expansion == 0)
            return SBFR_ADD_FULL;
        if (chain_grow(c, cap, why) != SBF_OK)
            return SBFR_ADD_FAILED;
        last = &c->links[c->nlinks - 1];
    }
    if (sbf_add(last->f, s, n) != 1)
        return SBFR_ADD_PRESENT;
    sbfr_chain_count(c, c->nlinks - 1, 1);
    return SBFR_ADD_NEW;
}

typedef struct item_ref {
    const void *p;
    size_t n, i;
} item_ref;

static int item_cmp(const void *a, const void *b)
{
    const item_ref *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    int d = x->n ? memcmp(x->p, y->p, x->n) : 0;
    return d ? d : x->i < y->i ? -1 : x->i > y->i;
}

/* first[i] = 1 when item i is absent (present[i] == 0) and no earlier item
 * has its bytes: the items a command can add. Returns their count. first
 * may be present itself. */
static size_t first_absent(const void *const *ptr, const size_t *len, size_t n,
                           const uint8_t *present, uint8_t *first)
{
    item_ref *r = sbfr_alloc((n ? n : 1) * sizeof *r);
    size_t m = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        const int absent = !present[i];
        first[i] = 0;
        if (absent)
            r[m++] = (item_ref){ptr[i], len[i], i};
    }
    qsort(r, m, sizeof *r, item_cmp);
    for (size_t j = 0; j < m; j++)
        if (j == 0 || r[j].n != r[j - 1].n || (r[j].n && memcmp(r[j].p, r[j - 1].p, r[j].n))) {
            first[r[j].i] = 1;
            count++;
        }
    sbfr_free(r);
    return count;
}

static void drop_spares(sbfr_chain *c)
{
    for (uint32_t i = c->spare_used; i < c->nspare; i++)
        link_free(&c->spare[i]);
    sbfr_free(c->spare);
    c->spare = NULL;
    c->nspare = c->spare_used = 0;
}

/* Makes the sub-filters `need` new items would take, in advance: the
 * newest has `room`. */
static int make_spares(sbfr_chain *c, uint64_t need, uint64_t room, uint64_t cap,
                       const char **why)
{
    uint64_t bytes = c->bytes;
    for (uint64_t rem = need - room; rem > 0;) {
        c->spare = sbfr_realloc(c->spare, (c->nspare + 1) * sizeof *c->spare);
        const sbfr_link *prev = c->nspare ? &c->spare[c->nspare - 1] : &c->links[c->nlinks - 1];
        sbfr_link *s = &c->spare[c->nspare];
        if (next_link(c, prev, c->nlinks + c->nspare, bytes, s, cap, why) != SBF_OK) {
            drop_spares(c);
            return SBFR_ADD_FAILED;
        }
        c->nspare++;
        bytes += sbfr_link_bytes(s);
        rem -= rem < s->capacity ? rem : s->capacity;
    }
    return 0;
}

/* Where the items stop fitting into a one-sub-filter key (NONSCALING or
 * counting), counting every item first[] marks as new: the index of the
 * first that finds no room, or n. Counting keys count every add. */
static size_t first_misfit(const sbfr_chain *c, const uint8_t *first, size_t n)
{
    const sbfr_link *l = &c->links[0];
    const int counting = sbfr_counts(c->layout);
    uint64_t items = l->items;
    for (size_t i = 0; i < n; i++) {
        if (first[i] && items >= l->capacity)
            return i;
        items += first[i] || counting;
    }
    return n;
}

/* Whether the items fit, exactly: the adds replayed in order on a copy of
 * the one sub-filter (an earlier item of the command may make a later one
 * present). 1 fits, 0 full, < 0 an SBF error. */
static int replay_fits(const sbfr_chain *c, const void *const *ptr, const size_t *len, size_t n)
{
    const sbfr_link *l = &c->links[0];
    sbf_filter *f;
    int rc = sbf_copy(&f, l->f);
    if (rc != SBF_OK)
        return rc;
    uint64_t items = l->items;
    const int counting = sbfr_counts(c->layout);
    int fits = 1;
    for (size_t i = 0; i < n && fits; i++) {
        const int present = sbf_contains(f, ptr[i], len[i]) == 1;
        if (!present && items >= l->capacity)
            fits = 0;
        else if (sbf_add(f, ptr[i], len[i]) == 1 || counting)
            items++;
    }
    sbf_free(f);
    return fits;
}

/* Whether a one-sub-filter key takes every item. Counting each new item
 * (absent from the key, bytes not seen earlier in the command) is exact up
 * to the first misfit when no new item precedes it: the key is unchanged
 * at its turn. Otherwise an earlier add might make it present (a false
 * positive), and the adds are replayed on a copy: that happens once, when a
 * command crosses the key's capacity. */
static int one_link_fits(const sbfr_chain *c, const void *const *ptr, const size_t *len, size_t n,
                         const uint8_t *first, const char **why)
{
    const size_t at = first_misfit(c, first, n);
    if (at == n)
        return 0;
    size_t before = 0;
    for (size_t i = 0; i < at; i++)
        before += first[i];
    int fits = before == 0 ? 0 : replay_fits(c, ptr, len, n);
    if (fits < 0) {
        *why = sbf_strerror(fits);
        return SBFR_ADD_FAILED;
    }
    return fits ? 0 : SBFR_ADD_FULL;
}

/* The adds of a command that needs no new sub-filter, in one batched pass
 * into the newest that tells per item whether it changed the filter: every
 * item (counting) or those in no older sub-filter (old[i] == 0, which is
 * out[] on entry). On return out[i] = 1 for an item absent at its turn, as
 * sbfr_chain_add1 answers one by one (an earlier item of the command may
 * have made it present: the pass adds in order). Returns the new items. */
static long long add_to_newest(sbfr_chain *c, const void *const *ptr, const size_t *len,
                               size_t n, uint8_t *out, uint8_t *tmp, const char **why)
{
    sbfr_link *last = &c->links[c->nlinks - 1];
    const int counting = sbfr_counts(c->layout);
    const int every = counting || memchr(out, 1, n) == NULL;
    sbf_keys k = {.n = n, .ptrs = ptr, .lens = len};
    const void **p2 = NULL;
    size_t *l2 = NULL;
    if (!every) { /* items an older sub-filter holds stay out of the newest */
        p2 = sbfr_alloc(n * sizeof *p2);
        l2 = sbfr_alloc(n * sizeof *l2);
        k.n = 0;
        for (size_t i = 0; i < n; i++)
            if (!out[i]) {
                p2[k.n] = ptr[i];
                l2[k.n++] = len[i];
            }
        k.ptrs = p2;
        k.lens = l2;
    }
    const size_t r = sbf_add_keys(last->f, &k, tmp);
    sbfr_free(p2);
    sbfr_free(l2);
    if (sbf_is_error(r)) { /* refused before any change */
        *why = sbf_strerror(-(int)(SIZE_MAX - r) - 1);
        return SBFR_ADD_FAILED;
    }
    long long added = 0;
    for (size_t i = 0, j = 0; i < n; i++) {
        const int old = out[i];
        out[i] = !old && tmp[every ? i : j];
        j += every || !old;
        added += out[i];
    }
    sbfr_chain_count(c, c->nlinks - 1, counting ? (long long)n : added);
    return added;
}

long long sbfr_chain_add_all(sbfr_chain *c, const void *const *ptr, const size_t *len,
                             size_t n, uint8_t *out, uint8_t *tmp, uint64_t cap,
                             const char **why)
{
    sbfr_link *last = &c->links[c->nlinks - 1];
    const uint64_t room = last->items < last->capacity ? last->capacity - last->items : 0;
    const int counting = sbfr_counts(c->layout);
    /* out[i]: an older sub-filter holds item i, which is then not added */
    sbfr_links_contains_batch(c, c->nlinks - 1, ptr, len, n, out, tmp);
    /* Most commands fit with room to spare, which n <= room shows without
     * asking the newest sub-filter or sorting the items. */
    if (n > room) {
        sbf_contains_batch(last->f, ptr, len, n, tmp);
        size_t absent = 0;
        for (size_t i = 0; i < n; i++) {
            tmp[i] |= out[i]; /* present anywhere */
            absent += !tmp[i];
        }
        if (counting || absent > room) {
            const size_t need = first_absent(ptr, len, n, tmp, tmp);
            int rv = 0;
            if (counting || (c->expansion == 0 && need > room))
                rv = one_link_fits(c, ptr, len, n, tmp, why);
            else if (need > room)
                rv = make_spares(c, need, room, cap, why);
            if (rv < 0)
                return rv;
        }
    }
    if (c->nspare == 0)
        return add_to_newest(c, ptr, len, n, out, tmp, why);
    long long added = 0;
    for (size_t i = 0; i < n; i++) {
        /* cannot fail: the spares cover the worst case */
        int rv = sbfr_chain_add1(c, ptr[i], len[i], SBFR_NO_CAP, why);
        out[i] = rv == SBFR_ADD_NEW;
        added += out[i];
    }
    drop_spares(c);
    return added;
}

/* ---------------------------------------------------------------- queries */

/* One batched, pipelined pass per sub-filter, newest (largest) first. */
void sbfr_links_contains_batch(const sbfr_chain *c, uint32_t upto, const void *const *ptr,
                               const size_t *len, size_t n, uint8_t *out, uint8_t *tmp)
{
    memset(out, 0, n);
    for (uint32_t l = upto; l-- > 0;) {
        sbf_contains_batch(c->links[l].f, ptr, len, n, l + 1 == upto ? out : tmp);
        if (l + 1 != upto)
            for (size_t i = 0; i < n; i++)
                out[i] |= tmp[i];
    }
}

uint64_t sbfr_chain_capacity(const sbfr_chain *c)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < c->nlinks; i++)
        s += c->links[i].capacity;
    return s;
}

size_t sbfr_chain_mem(const sbfr_chain *c)
{
    size_t s = sizeof *c + c->nlinks * sizeof *c->links;
    for (uint32_t i = 0; i < c->nlinks; i++)
        s += filter_memory(c->links[i].f);
    return s;
}

sbfr_chain *sbfr_chain_copy(const sbfr_chain *src)
{
    sbfr_chain *c = sbfr_chain_alloc(src->nlinks);
    c->layout = src->layout;
    c->expansion = src->expansion;
    c->error = src->error;
    for (uint32_t i = 0; i < src->nlinks; i++) {
        sbfr_link l = src->links[i];
        if (sbf_copy(&l.f, src->links[i].f) != SBF_OK) {
            sbfr_chain_free(c);
            return NULL;
        }
        sbfr_chain_attach(c, &l);
    }
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
