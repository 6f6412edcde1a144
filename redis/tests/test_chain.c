/*
 * The Redis module's chain and dump form without a server (redis/chain.c,
 * redis/dump.c): the host allocator is libc's, counted, so every test also
 * shows that what the chain allocates it frees.
 */
#include "chain.h"
#include "dump.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ the host allocator */

static long live; /* chain structures allocated and not yet freed */

long sbfr_test_live(void);
long sbfr_test_live(void)
{
    return live;
}

void *sbfr_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    cr_assert_not_null(p);
    live++;
    return p;
}

void *sbfr_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    cr_assert_not_null(p);
    live++;
    return p;
}

void *sbfr_realloc(void *p, size_t n)
{
    if (p == NULL)
        return sbfr_alloc(n);
    p = realloc(p, n ? n : 1);
    cr_assert_not_null(p);
    return p;
}

void sbfr_free(void *p)
{
    if (p != NULL)
        live--;
    free(p);
}

static sbfr_settings saved;

static void setup(void)
{
    live = 0;
    saved = sbfr_cfg;
}

static void teardown(void)
{
    sbfr_cfg = saved;
    cr_expect_eq(live, 0, "chain structures leaked: %ld", live);
}

TestSuite(chain, .init = setup, .fini = teardown);

static void item(char *buf, size_t cap, const char *prefix, int i)
{
    snprintf(buf, cap, "%s%d", prefix, i);
}

/* Adds distinct items until the chain holds `want` new ones; returns how
 * many were tried. */
static int fill(sbfr_chain *c, const char *prefix, uint64_t want)
{
    char b[32];
    const char *why = "";
    int i = 0;
    while (c->items < want) {
        item(b, sizeof b, prefix, i++);
        int rv = sbfr_chain_add1(c, b, strlen(b), SBFR_NO_CAP, &why);
        cr_assert(rv == SBFR_ADD_NEW || rv == SBFR_ADD_PRESENT, "add %d: %d (%s)", i, rv, why);
    }
    return i;
}

/* The library's own chain for a key's parameters (chain.c params: shared
 * schedule, growth EXPANSION, 2^40 items a sub-filter), with these flags. */
static sbf_scalable *lib_chain(int layout, uint64_t cap, double err, uint32_t expansion,
                               uint32_t flags)
{
    sbf_scalable_params p = {0};
    p.layout = layout;
    p.initial_n = cap;
    p.fpp = err;
    p.growth = expansion ? expansion : 2;
    p.flags = flags | (expansion ? 0 : SBF_SCALABLE_NONSCALING);
    p.schedule = SBF_SCHEDULE_SHARED;
    p.max_capacity = SBFR_MAX_LINK_CAPACITY;
    sbf_scalable *s = NULL;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    return s;
}

/* Adds the first `tries` items of fill(prefix) to a library chain. */
static void lib_fill(sbf_scalable *s, const char *prefix, int tries)
{
    char b[32];
    for (int i = 0; i < tries; i++) {
        item(b, sizeof b, prefix, i);
        cr_assert_geq(sbf_scalable_add(s, b, strlen(b)), 0);
    }
}

/* How many of the chain's sub-filters have the library chain's geometry
 * (bits, k, capacity, rate, items); asserts the counts of both agree. */
static uint32_t same_geometry(const sbfr_chain *c, const sbf_scalable *s)
{
    uint32_t same = 0;
    cr_assert_eq(sbf_scalable_filters(s), c->nlinks);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        struct sbf_scalable_sub u;
        cr_assert_eq(sbf_scalable_sub_info(s, i, &u), SBF_OK);
        const sbfr_link l = sbfr_chain_link(c, i);
        same += l.bits == u.bits && l.k == u.k && l.capacity == u.capacity && l.error == u.fpp &&
                l.items == u.keys;
    }
    return same;
}

/* ------------------------------------------------------------ creation */

Test(chain, new_first_link_has_half_the_rate,
     .description = "a scaling chain's first sub-filter is sized for rate/2 (RedisBloom 2.6 too); "
                    "a NONSCALING one for the whole rate")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 1000, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(c->nlinks, 1);
    cr_assert_eq(sbfr_chain_link(c, 0).capacity, 1000);
    cr_assert_eq(sbfr_chain_link(c, 0).error, 0.005);
    cr_assert_eq(c->expansion, 2);
    cr_assert_eq(c->error, 0.01);
    /* the sub-filter is what the library's default rule gives for (1000,
     * 0.005): more bits than the formula alone (sbf_size) asks */
    sbf_scalable *lib = lib_chain(SBF_BLOCKED, 1000, 0.01, 2, 0);
    struct sbf_scalable_sub u;
    cr_assert_eq(sbf_scalable_sub_info(lib, 0, &u), SBF_OK);
    struct sbf_info inf;
    cr_assert_eq(sbf_info(sbfr_chain_link(c, 0).f, &inf), SBF_OK);
    cr_assert_eq(inf.bits, u.bits);
    cr_assert_eq(inf.k, u.k);
    uint64_t bits = 0;
    uint32_t k = 0; /* in: 0 derives k */
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000, 0.005, &bits, &k), SBF_OK);
    cr_assert_gt(inf.bits, bits, "the spread rule, not the formula alone");
    cr_assert_eq(c->rule, SBFR_RULE_DEFAULT);
    sbf_scalable_free(lib);
    sbfr_chain_free(c);

    cr_assert_eq(sbfr_chain_new(&c, SBF_CLASSIC, 1000, 0.01, 0, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_link(c, 0).error, 0.01);
    cr_assert_eq(c->expansion, 0);
    sbfr_chain_free(c);
}

Test(chain, counting_never_scales)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_COUNTING, 10, 0.01, 4, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(c->expansion, 0);
    cr_assert_eq(sbfr_chain_link(c, 0).error, 0.01);
    sbfr_chain_free(c);
}

Test(chain, max_bytes_refused_before_allocating,
     .description = "a sub-filter above MAX_BYTES is refused from sbf_size, nothing allocated")
{
    const char *why = "";
    sbfr_chain *c = NULL;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100000, 0.01, 2, 1000, &why), SBF_E_TOO_LARGE);
    cr_assert_null(c);
    cr_assert_str_eq(why, "the filter would exceed the module's MAX_BYTES");
    cr_assert_eq(live, 0);
}

Test(chain, layout_names)
{
    cr_assert_eq(sbfr_layout_from_name("Classic", 7), SBF_CLASSIC);
    cr_assert_eq(sbfr_layout_from_name("blocked", 7), SBF_BLOCKED);
    cr_assert_eq(sbfr_layout_from_name("split-block", 11), SBF_SPLIT_BLOCK);
    cr_assert_eq(sbfr_layout_from_name("split", 5), SBF_SPLIT_BLOCK);
    cr_assert_eq(sbfr_layout_from_name("COUNTING", 8), SBF_COUNTING);
    cr_assert_eq(sbfr_layout_from_name("blocked-fmix", 12), SBF_BLOCKED_FMIX);
    cr_assert_eq(sbfr_layout_from_name("Split-Block-Fmix", 16), SBF_SPLIT_BLOCK_FMIX);
    cr_assert_eq(sbfr_layout_from_name("parquet", 7), -1);
    cr_assert_eq(sbfr_layout_from_name("blocke", 6), -1);
    cr_assert_eq(sbfr_layout_from_name("blockedx", 8), -1);
}

/* -------------------------------------------------------------- growth */

Test(chain, grows_at_the_capacity_plus_first_new_item,
     .description = "capacities 100, 200, 400; rates 0.01/2, 0.01/6, 0.01/12; every item found")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "g", 100);
    cr_assert_eq(c->nlinks, 1, "full, not grown yet");
    fill(c, "g", 101);
    cr_assert_eq(c->nlinks, 2);
    cr_assert_eq(sbfr_chain_link(c, 1).capacity, 200);
    cr_assert_float_eq(sbfr_chain_link(c, 1).error, 0.01 / 6, 1e-17);
    cr_assert_eq(sbfr_chain_link(c, 1).items, 1);
    int tried = fill(c, "g", 301);
    cr_assert_eq(c->nlinks, 3);
    cr_assert_eq(sbfr_chain_link(c, 2).capacity, 400);
    cr_assert_float_eq(sbfr_chain_link(c, 2).error, 0.01 / 12, 1e-17);
    cr_assert_eq(sbfr_chain_capacity(c), 700);
    cr_assert_eq(sbfr_chain_link(c, 0).items + sbfr_chain_link(c, 1).items + sbfr_chain_link(c, 2).items, c->items);
    char b[32];
    for (int i = 0; i < tried; i++) {
        item(b, sizeof b, "g", i);
        cr_assert_eq(sbfr_chain_add1(c, b, strlen(b), SBFR_NO_CAP, &why), SBFR_ADD_PRESENT, "item %d", i);
    }
    cr_assert_eq(c->items, 301, "present items are not counted");
    sbfr_chain_free(c);
}

Test(chain, nonscaling_full)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 3, 0.01, 0, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "n", 3);
    cr_assert_eq(sbfr_chain_add1(c, "n0", 2, SBFR_NO_CAP, &why), SBFR_ADD_PRESENT);
    cr_assert_eq(sbfr_chain_add1(c, "other", 5, SBFR_NO_CAP, &why), SBFR_ADD_FULL);
    cr_assert_eq(c->items, 3);
    cr_assert_eq(c->nlinks, 1);
    sbfr_chain_free(c);
}

Test(chain, growth_refused_by_max_bytes,
     .description = "a sub-filter that would pass MAX_BYTES is refused with a reason; the chain "
                    "stays as it was")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 64, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "m", 100);
    char b[32];
    int i = 0;
    do /* an item the full sub-filter does not hold */
        item(b, sizeof b, "absent", i++);
    while (sbf_contains(sbfr_chain_link(c, 0).f, b, strlen(b)) == 1);
    cr_assert_eq(sbfr_chain_add1(c, b, strlen(b), 4096, &why), SBFR_ADD_FAILED);
    cr_assert_str_eq(why, "the filter would exceed the module's MAX_BYTES");
    cr_assert_eq(c->nlinks, 1);
    cr_assert_eq(c->items, 100);
    sbfr_chain_free(c);
}

static uint64_t room_asked;
static int room_below_8k(uint64_t bytes)
{
    room_asked = bytes;
    return bytes < 8192;
}

Test(chain, room_refuses_before_allocating,
     .description = "issue 33: the host's room (maxmemory in the module) is asked the new "
                    "sub-filter's bytes and refuses it with its reason, for a new key and for "
                    "growth; a replicated or loading command (no cap) is not asked")
{
    const char *why = "";
    sbfr_chain *c;
    sbfr_cfg.room = room_below_8k;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100000, 0.01, 2, UINT64_C(1) << 40, &why),
                 SBF_E_NOMEM);
    cr_assert_str_eq(why, "used memory plus the new sub-filter would exceed 'maxmemory'");
    cr_assert_geq(room_asked, 100000, "asked the filter's bytes: %llu",
                  (unsigned long long)room_asked);
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100000, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK,
                 "no cap: not asked");
    sbfr_chain_free(c);
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 1000, 0.01, 64, UINT64_C(1) << 40, &why), SBF_OK);
    fill(c, "r", 1000);
    char b[32];
    int i = 0;
    do /* an item the full sub-filter does not hold */
        item(b, sizeof b, "absent", i++);
    while (sbf_contains(sbfr_chain_link(c, 0).f, b, strlen(b)) == 1);
    cr_assert_eq(sbfr_chain_add1(c, b, strlen(b), UINT64_C(1) << 40, &why), SBFR_ADD_FAILED);
    cr_assert_str_eq(why, "used memory plus the new sub-filter would exceed 'maxmemory'");
    cr_assert_eq(c->nlinks, 1, "the chain stays as it was");
    sbfr_chain_free(c);
}

Test(chain, counting_is_a_multiset)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_COUNTING, 10, 0.01, 0, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_add1(c, "a", 1, SBFR_NO_CAP, &why), SBFR_ADD_NEW);
    cr_assert_eq(sbfr_chain_add1(c, "a", 1, SBFR_NO_CAP, &why), SBFR_ADD_PRESENT);
    cr_assert_eq(c->items, 2, "both adds counted, so that a delete removes only one");
    sbfr_chain_free(c);
}

/* ------------------------------------------------------ batched queries */

Test(chain, batch_equals_one_by_one,
     .description = "sbfr_links_contains_batch answers what sbf_contains over every sub-filter "
                    "does, for items in each sub-filter and absent ones")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_SPLIT_BLOCK, 50, 0.05, 2, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "b", 400);
    cr_assert_geq(c->nlinks, 3);
    enum { N = 1000 };
    static char store[N][16];
    const void *ptr[N];
    size_t len[N];
    uint8_t out[N];
    for (int i = 0; i < N; i++) {
        item(store[i], sizeof store[i], "b", i); /* 0..~420 added, the rest absent */
        ptr[i] = store[i];
        len[i] = strlen(store[i]);
    }
    sbfr_chain_contains_batch(c, ptr, len, N, out);
    int found = 0;
    for (int i = 0; i < N; i++) {
        int one = 0;
        for (uint32_t l = 0; l < c->nlinks; l++)
            one |= sbf_contains(sbfr_chain_link(c, l).f, ptr[i], len[i]) == 1;
        cr_assert_eq(out[i], one, "item %d", i);
        found += out[i];
    }
    cr_assert_geq(found, 400);
    sbfr_chain_free(c);
}

Test(chain, mem_counts_every_sub_filter)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "x", 350);
    size_t held = 0;
    for (uint32_t l = 0; l < c->nlinks; l++) {
        size_t n;
        sbf_data(sbfr_chain_link(c, l).f, &n);
        cr_assert_geq(sbf_memory_usage(sbfr_chain_link(c, l).f), n);
        held += sbf_memory_usage(sbfr_chain_link(c, l).f);
    }
    cr_assert_eq(sbfr_chain_mem(c), sizeof *c + sbf_scalable_memory_usage(c->s),
                 "no copy of the sub-filters' list of its own");
    cr_assert_gt(sbf_scalable_memory_usage(c->s), held);
    cr_assert_eq(c->memory, held, "the sub-filters' memory, as INFO counts it");
    uint64_t used = 0;
    for (uint32_t l = 0; l < c->nlinks; l++)
        used += sbfr_chain_link(c, l).bits / 8;
    cr_assert_eq(c->bytes, used, "bytes: what caps count, bits / 8 of every sub-filter");
    sbfr_chain_free(c);
}

Test(chain, validity_rules)
{
    cr_assert(sbfr_valid_chain(SBF_BLOCKED, 2, 0.01, 3));
    cr_assert(!sbfr_valid_chain(4, 2, 0.01, 3), "unknown layout");
    cr_assert(!sbfr_valid_chain(SBF_COUNTING, 2, 0.01, 1), "scaling counting chain");
    cr_assert(!sbfr_valid_chain(SBF_BLOCKED, 0, 0.01, 2), "NONSCALING with two sub-filters");
    cr_assert(!sbfr_valid_chain(SBF_BLOCKED, 2, 1.0, 1), "rate 1");
    cr_assert(!sbfr_valid_chain(SBF_BLOCKED, 2, 0.01, 0), "no sub-filter");
    cr_assert(!sbfr_valid_chain(SBF_BLOCKED, 2, 0.01, SBFR_MAX_LINKS + 1));
    cr_assert(!sbfr_valid_chain(SBF_BLOCKED, SBFR_MAX_EXPANSION + 1, 0.01, 1));
    cr_assert(sbfr_valid_link(1, 0.5));
    cr_assert(!sbfr_valid_link(0, 0.5), "capacity 0");
    cr_assert(!sbfr_valid_link(SBFR_MAX_LINK_CAPACITY + 1, 0.5));
    cr_assert(!sbfr_valid_link(1, 0.0), "rate 0");
}

/* ------------------------------------------------------------- the floor */

Test(chain, small_links_stay_blocked_and_rates_sum_below_the_asked,
     .description = "issue 33: blocked, 10 items at 1%, expansion 1, 943 distinct items: the "
                    "sub-filters' rates are 1%/((i+1)(i+2)), sum below 1% at every depth, and "
                    "none is classic (a small classic filter misses its formula by 4-50x)")
{
    const char *why = "";
    sbfr_chain *c, *ref;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 10, 0.01, 1, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_new(&ref, SBF_CLASSIC, 10, 0.01, 1, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "f", 943);
    fill(ref, "f", 943);
    cr_assert_geq(c->nlinks, 90);
    double sum = 0;
    for (uint32_t l = 0; l < c->nlinks; l++) {
        const sbfr_link xv = sbfr_chain_link(c, l), *x = &xv;
        cr_assert_float_eq(x->error, 0.01 / ((l + 1.0) * (l + 2.0)), 1e-12 * x->error,
                           "link %u rate %g", l, x->error);
        cr_assert_eq(x->layout, SBF_BLOCKED, "link %u: layout %d", l, x->layout);
        sum += x->error;
        cr_assert_lt(sum, 0.01, "depth %u", l);
    }
    cr_assert_lt(c->bytes, 1 << 20, "not 1.9 GB");
    sbfr_chain_free(c);
    sbfr_chain_free(ref);
}

Test(chain, large_links_keep_the_key_layout,
     .description = "2^17 items at 1e-12: blocked needs 3.5x classic's memory, and stays "
                    "blocked (a classic sub-filter would have its own floor of false positives)")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, UINT64_C(1) << 17, 2e-12, 2, SBFR_NO_CAP, &why),
                 SBF_OK);
    cr_assert_eq(sbfr_chain_link(c, 0).layout, SBF_BLOCKED);
    uint64_t bits = 0;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, UINT64_C(1) << 17, 1e-12, &bits, &k), SBF_OK);
    cr_assert_geq(sbfr_chain_link(c, 0).bits, bits, "the formula's, or more (its spread)");
    sbf_scalable *lib = lib_chain(SBF_BLOCKED, UINT64_C(1) << 17, 2e-12, 2, 0);
    cr_assert_eq(same_geometry(c, lib), 1, "the library's default rule");
    sbf_scalable_free(lib);
    sbfr_chain_free(c);
}

Test(chain, new_chains_grow_by_the_default_rule,
     .description = "a new chain's sub-filters, as it grows, are the library's default rule's "
                    "(formula plus three spreads) for the key's parameters, not the formula's; "
                    "one loaded without a rule (formula) grows by the formula")
{
    static const struct { int layout; uint64_t cap; double err; uint32_t exp; } cases[] = {
        { SBF_BLOCKED, 100, 0.01, 2 },       { SBF_SPLIT_BLOCK, 50, 0.001, 3 },
        { SBF_CLASSIC, 100, 0.01, 2 },       { SBF_BLOCKED_XXH3, 1000, 0.001, 1 },
        { SBF_SPLIT_BLOCK_XXH3, 200, 0.0001, 2 },
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        const char *why = "";
        sbfr_chain *c;
        cr_assert_eq(sbfr_chain_new(&c, cases[t].layout, cases[t].cap, cases[t].err, cases[t].exp,
                                    SBFR_NO_CAP, &why), SBF_OK);
        const int tries = fill(c, "rule", 12 * cases[t].cap);
        cr_assert_geq(c->nlinks, 3, "case %zu grew", t);
        sbf_scalable *dflt = lib_chain(cases[t].layout, cases[t].cap, cases[t].err, cases[t].exp, 0);
        sbf_scalable *form = lib_chain(cases[t].layout, cases[t].cap, cases[t].err, cases[t].exp,
                                       SBF_SCALABLE_FORMULA);
        lib_fill(dflt, "rule", tries);
        lib_fill(form, "rule", tries);
        cr_assert_eq(same_geometry(c, dflt), c->nlinks, "case %zu: the default rule's", t);
        if (sbf_scalable_filters(form) == c->nlinks)
            cr_assert_lt(same_geometry(c, form), c->nlinks, "case %zu: not the formula's", t);

        /* the formula chain rebuilt from its sub-filters (as a loader does,
         * rule unset: the formula) continues as the formula's */
        sbfr_chain *f = sbfr_chain_alloc(c->layout, c->expansion, c->error);
        cr_assert_eq(f->rule, SBFR_RULE_FORMULA);
        struct sbf_scalable_sub u;
        cr_assert_eq(sbf_scalable_sub_info(form, 0, &u), SBF_OK);
        sbf_filter *x;
        cr_assert_eq(sbfr_link_make(&x, u.layout, u.bits, u.k, u.seed, &why), SBF_OK);
        cr_assert_eq(sbfr_chain_attach(f, x, u.capacity, u.fpp, 0, &why), SBF_OK);
        sbf_scalable *form2 = lib_chain(cases[t].layout, cases[t].cap, cases[t].err,
                                        cases[t].exp, SBF_SCALABLE_FORMULA);
        const int tries2 = fill(f, "again", 12 * cases[t].cap);
        lib_fill(form2, "again", tries2);
        cr_assert_eq(same_geometry(f, form2), f->nlinks, "case %zu: a formula chain stays so", t);
        sbfr_chain *g = sbfr_chain_copy(f);
        cr_assert_eq(g->rule, SBFR_RULE_FORMULA, "COPY keeps the rule");
        sbfr_chain_free(g);
        g = sbfr_chain_copy(c);
        cr_assert_eq(g->rule, SBFR_RULE_DEFAULT, "COPY keeps the rule");
        sbfr_chain_free(g);
        sbf_scalable_free(form2);
        sbfr_chain_free(f);
        sbf_scalable_free(dflt);
        sbf_scalable_free(form);
        sbfr_chain_free(c);
    }
}

/* ------------------------------------------------------- all or none */

static void vec(const char *prefix, int from, int n, char (*store)[16], const void **ptr,
                size_t *len)
{
    for (int i = 0; i < n; i++) {
        item(store[i], sizeof store[i], prefix, from + i);
        ptr[i] = store[i];
        len[i] = strlen(store[i]);
    }
}

Test(chain, add_all_nonscaling_is_all_or_none,
     .description = "distinct new items must fit a NONSCALING key: 5 into 3 refused with "
                    "nothing changed, duplicates counted once, present items free")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 3, 0.01, 0, SBFR_NO_CAP, &why), SBF_OK);
    static char s[8][16];
    const void *p[8];
    size_t n[8];
    uint8_t out[8];
    vec("a", 0, 5, s, p, n);
    cr_assert_eq(sbfr_chain_add_all(c, p, n, 5, out, SBFR_NO_CAP, &why), SBFR_ADD_FULL);
    cr_assert_eq(c->items, 0);
    size_t len;
    const unsigned char *d = sbf_data(sbfr_chain_link(c, 0).f, &len);
    for (size_t i = 0; i < len; i++)
        cr_assert_eq(d[i], 0, "nothing written");
    p[3] = p[0];
    n[3] = n[0]; /* a0 a1 a2 a0 */
    cr_assert_eq(sbfr_chain_add_all(c, p, n, 4, out, SBFR_NO_CAP, &why), 3);
    cr_assert_eq(out[0] + out[1] + out[2] + out[3], 3);
    cr_assert_eq(out[3], 0, "the duplicate");
    vec("a", 0, 3, s, p, n);
    cr_assert_eq(sbfr_chain_add_all(c, p, n, 3, out, SBFR_NO_CAP, &why), 0, "present");
    cr_assert_eq(c->items, 3);
    sbfr_chain_free(c);
}

Test(chain, add_all_crossing_the_capacity_is_exact,
     .description = "a command crossing a NONSCALING key's capacity is replayed on a copy: "
                    "accepted exactly when one by one would not meet a full filter, also when "
                    "an earlier item of the command makes a later one present")
{
    const char *why = "";
    int lucky = 0, full = 0;
    for (int trial = 0; trial < 300; trial++) {
        sbfr_chain *a, *b;
        cr_assert_eq(sbfr_chain_new(&a, SBF_BLOCKED, 20, 0.4, 0, SBFR_NO_CAP, &why), SBF_OK);
        cr_assert_eq(sbfr_chain_new(&b, SBF_BLOCKED, 20, 0.4, 0, SBFR_NO_CAP, &why), SBF_OK);
        fill(a, "pre", 14);
        fill(b, "pre", 14);
        /* seven items the key does not hold, into a room of six */
        static char s[7][16];
        const void *p[7];
        size_t n[7];
        uint8_t out[7];
        for (int i = 0, j = 0; i < 7; j++) {
            item(s[i], sizeof s[i], "t", trial * 1000 + j);
            if (sbf_contains(sbfr_chain_link(a, 0).f, s[i], strlen(s[i])) == 0) {
                p[i] = s[i];
                n[i] = strlen(s[i]);
                i++;
            }
        }
        long long got = sbfr_chain_add_all(a, p, n, 7, out, SBFR_NO_CAP, &why);
        int one_by_one = 0;
        for (int i = 0; i < 7 && one_by_one >= 0; i++) {
            int rv = sbfr_chain_add1(b, p[i], n[i], SBFR_NO_CAP, &why);
            one_by_one = rv < 0 ? rv : one_by_one + (rv == SBFR_ADD_NEW);
        }
        cr_assert_eq(got, one_by_one < 0 ? SBFR_ADD_FULL : one_by_one, "trial %d", trial);
        lucky += got >= 0;
        full += got < 0;
        if (got >= 0)
            cr_assert_eq(memcmp(sbf_data(sbfr_chain_link(a, 0).f, NULL), sbf_data(sbfr_chain_link(b, 0).f, NULL),
                                sbfr_chain_link(a, 0).bits / 8),
                         0);
        sbfr_chain_free(a);
        sbfr_chain_free(b);
    }
    cr_assert_gt(lucky, 0, "some commands fit because of a false positive (%d)", lucky);
    cr_assert_gt(full, 0, "others did not (%d)", full);
}

Test(chain, add_all_growth_equals_one_by_one,
     .description = "a scaling key grows in the middle of a command exactly as one by one, the "
                    "sub-filters made in advance; a growth past the cap refuses the whole "
                    "command and changes nothing")
{
    const char *why = "";
    sbfr_chain *a, *b;
    cr_assert_eq(sbfr_chain_new(&a, SBF_BLOCKED, 30, 0.05, 2, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_new(&b, SBF_BLOCKED, 30, 0.05, 2, SBFR_NO_CAP, &why), SBF_OK);
    enum { N = 200 };
    static char s[N][16];
    const void *p[N];
    size_t n[N];
    uint8_t out[N];
    vec("g", 0, N, s, p, n);
    cr_assert_gt(sbfr_chain_add_all(a, p, n, N, out, SBFR_NO_CAP, &why), 150);
    for (int i = 0; i < N; i++)
        cr_assert_eq(out[i], sbfr_chain_add1(b, p[i], n[i], SBFR_NO_CAP, &why) == SBFR_ADD_NEW,
                     "item %d", i);
    cr_assert_eq(a->nlinks, b->nlinks);
    cr_assert_eq(sbf_scalable_filters(a->s), a->nlinks, "the library's chain, as listed");
    const uint32_t links = a->nlinks;
    const uint64_t items = a->items, bytes = a->bytes;
    vec("h", 0, N, s, p, n);
    cr_assert_eq(sbfr_chain_add_all(a, p, n, N, out, bytes + 64, &why), SBFR_ADD_FAILED);
    cr_assert_str_eq(why, "the filter would exceed the module's MAX_BYTES");
    cr_assert_eq(a->nlinks, links);
    cr_assert_eq(a->items, items);
    sbfr_chain_free(a);
    sbfr_chain_free(b);
}

/* Whether two chains hold the same sub-filters, bytes and counts. */
static int same_chain(const sbfr_chain *a, const sbfr_chain *b)
{
    if (a->nlinks != b->nlinks || a->items != b->items)
        return 0;
    for (uint32_t l = 0; l < a->nlinks; l++) {
        size_t la, lb;
        const void *da = sbf_data(sbfr_chain_link(a, l).f, &la), *db = sbf_data(sbfr_chain_link(b, l).f, &lb);
        if (sbfr_chain_link(a, l).items != sbfr_chain_link(b, l).items || la != lb || memcmp(da, db, la) != 0)
            return 0;
    }
    return 1;
}

Test(chain, add_all_equals_add1_every_layout,
     .description = "commands of 1..40 items from a pool of 150 (repeats inside a command, items "
                    "an earlier command added, items only an older sub-filter holds) give the "
                    "replies, counts and bytes of sbfr_chain_add1 one by one, on every layout, "
                    "scaling and not; a refused command changes nothing")
{
    enum { POOL = 150, MAXN = 40 };
    static char s[POOL][16];
    for (int i = 0; i < POOL; i++)
        item(s[i], sizeof s[i], "q", i);
    const char *why = "";
    uint64_t seed = 5;
    for (int layout = SBF_CLASSIC; layout <= SBF_COUNTING; layout++)
        for (uint32_t expansion = 0; expansion <= 2; expansion += 2) {
            sbfr_chain *a, *b;
            cr_assert_eq(sbfr_chain_new(&a, layout, 25, 0.2, expansion, SBFR_NO_CAP, &why), 0);
            cr_assert_eq(sbfr_chain_new(&b, layout, 25, 0.2, expansion, SBFR_NO_CAP, &why), 0);
            int refused = 0, older = 0;
            for (int cmd = 0; cmd < 40; cmd++) {
                const void *p[MAXN];
                size_t n[MAXN];
                uint8_t out[MAXN];
                const size_t m = 1 + (size_t)(cmd * 7 % MAXN);
                for (size_t i = 0; i < m; i++) {
                    seed = seed * 6364136223846793005u + 1442695040888963407u;
                    p[i] = s[(seed >> 33) % (POOL / 2 + (uint64_t)cmd * 3 % (POOL / 2))];
                    n[i] = strlen(p[i]);
                    for (uint32_t l = 0; l + 1 < b->nlinks; l++)
                        older += sbf_contains(sbfr_chain_link(b, l).f, p[i], n[i]) == 1;
                }
                sbfr_chain *b2 = sbfr_chain_copy(b);
                long long want = 0;
                uint8_t one[MAXN];
                for (size_t i = 0; i < m && want >= 0; i++) {
                    const int rv = sbfr_chain_add1(b2, p[i], n[i], SBFR_NO_CAP, &why);
                    one[i] = rv == SBFR_ADD_NEW;
                    want = rv < 0 ? rv : want + one[i];
                }
                const long long got = sbfr_chain_add_all(a, p, n, m, out, SBFR_NO_CAP, &why);
                cr_assert_eq(got, want, "layout %d expansion %u command %d: %lld, one by one %lld",
                             layout, expansion, cmd, got, want);
                if (got < 0) {
                    refused++;
                    sbfr_chain_free(b2); /* one by one stopped half-way; a is unchanged */
                } else {
                    for (size_t i = 0; i < m; i++)
                        cr_assert_eq(out[i], one[i], "layout %d command %d item %zu", layout,
                                     cmd, i);
                    sbfr_chain_free(b);
                    b = b2;
                }
                cr_assert(same_chain(a, b), "layout %d expansion %u command %d: chains differ",
                          layout, expansion, cmd);
            }
            cr_assert(a->expansion ? refused == 0 && a->nlinks >= 3 && older > 20 : refused > 0,
                      "layout %d expansion %u: %d refused, %u links, %d items in older ones",
                      layout, expansion, refused, a->nlinks, older);
            sbfr_chain_free(a);
            sbfr_chain_free(b);
        }
}

/* ---------------------------------------------------------- totals, copy */

Test(chain, stats_follow_chains,
     .description = "the module's totals (INFO) move with creation, growth, adds, copies and "
                    "frees, and come back to where they were")
{
    sbfr_stats s0, s1;
    sbfr_stats_get(&s0);
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "s", 250);
    sbfr_chain *d = sbfr_chain_copy(c);
    cr_assert_not_null(d);
    sbfr_stats_get(&s1);
    cr_assert_eq(s1.keys - s0.keys, 2);
    cr_assert_eq(s1.filters - s0.filters, 2 * c->nlinks);
    cr_assert_eq(s1.items - s0.items, 500);
    cr_assert_eq(s1.bytes - s0.bytes, 2 * (long long)c->bytes);
    cr_assert_geq(s1.memory - s0.memory, s1.bytes - s0.bytes);
    sbfr_chain_free(c);
    sbfr_chain_free(d);
    sbfr_stats_get(&s1);
    cr_assert_eq(memcmp(&s0, &s1, sizeof s0), 0);
}

/* ------------------------------------------------------- the allocator */

static long long alloc_live, alloc_bytes;

static void *count_alloc(void *opaque, size_t size)
{
    (void)opaque;
    void *p = malloc(size + 16);
    cr_assert_not_null(p);
    memcpy(p, &size, sizeof size);
    alloc_live++;
    alloc_bytes += (long long)size;
    return (char *)p + 16;
}

static void count_free(void *opaque, void *ptr)
{
    (void)opaque;
    size_t size;
    memcpy(&size, (char *)ptr - 16, sizeof size);
    alloc_live--;
    alloc_bytes -= (long long)size;
    free((char *)ptr - 16);
}

Test(chain, filters_use_the_hosts_allocator,
     .description = "with sbfr_cfg.alloc set (the module sets Redis's), every byte of every "
                    "sub-filter comes from it: what it handed out is what the chain reports, "
                    "and it all comes back")
{
    static const sbf_allocator counting = {count_alloc, count_free, NULL};
    sbfr_cfg.alloc = &counting;
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "a", 700);
    sbfr_chain *d = sbfr_chain_copy(c);
    const size_t structs = 2 * sizeof *c;
    cr_assert_eq((size_t)alloc_bytes, sbfr_chain_mem(c) + sbfr_chain_mem(d) - structs);
    cr_assert_geq(alloc_live, 2 * c->nlinks);
    sbfr_chain_free(c);
    sbfr_chain_free(d);
    cr_assert_eq(alloc_live, 0);
    cr_assert_eq(alloc_bytes, 0);
}

Test(chain, is_the_librarys,
     .description = "a key's chain is an sbf_scalable with the module's settings (shared "
                    "schedule, growth = EXPANSION, NONSCALING flag, 2^40 items a sub-filter), "
                    "and the links list what the library holds")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_SPLIT_BLOCK, 50, 0.001, 3, SBFR_NO_CAP, &why), SBF_OK);
    fill(c, "lib", 800);
    sbf_scalable_params p;
    cr_assert_eq(sbf_scalable_params_of(c->s, &p), SBF_OK);
    cr_assert_eq(p.schedule, SBF_SCHEDULE_SHARED);
    cr_assert_eq(p.growth, 3);
    cr_assert_eq(p.flags & SBF_SCALABLE_NONSCALING, 0);
    cr_assert_eq(p.flags & SBF_SCALABLE_FORMULA, 0, "the library's default rule");
    cr_assert_eq(p.max_capacity, SBFR_MAX_LINK_CAPACITY);
    cr_assert_eq(p.layout, SBF_SPLIT_BLOCK);
    cr_assert_eq(sbf_scalable_filters(c->s), c->nlinks);
    cr_assert_geq(c->nlinks, 3);
    uint64_t items = 0;
    for (uint32_t i = 0; i < c->nlinks; i++) {
        struct sbf_scalable_sub u;
        cr_assert_eq(sbf_scalable_sub_info(c->s, i, &u), SBF_OK);
        const sbfr_link lv = sbfr_chain_link(c, i), *l = &lv;
        cr_assert(l->f == u.filter && l->bits == u.bits && l->k == u.k &&
                  l->capacity == u.capacity && l->error == u.fpp && l->items == u.keys,
                  "link %u", i);
        items += u.keys;
    }
    cr_assert_eq(c->items, items);
    cr_assert_eq(c->items, sbf_scalable_count(c->s));
    sbfr_chain_free(c);
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 50, 0.001, 0, SBFR_NO_CAP, &why), SBF_OK);
    cr_assert_eq(sbf_scalable_params_of(c->s, &p), SBF_OK);
    cr_assert_neq(p.flags & SBF_SCALABLE_NONSCALING, 0);
    sbfr_chain_free(c);
}
