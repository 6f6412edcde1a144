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
        int rv = sbfr_chain_add1(c, b, strlen(b), &why);
        cr_assert(rv == SBFR_ADD_NEW || rv == SBFR_ADD_PRESENT, "add %d: %d (%s)", i, rv, why);
    }
    return i;
}

/* ------------------------------------------------------------ creation */

Test(chain, new_first_link_has_half_the_rate,
     .description = "a scaling chain's first sub-filter is sized for rate/2 (RedisBloom 2.6 too); "
                    "a NONSCALING one for the whole rate")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 1000, 0.01, 2, &why), SBF_OK);
    cr_assert_eq(c->nlinks, 1);
    cr_assert_eq(c->links[0].capacity, 1000);
    cr_assert_eq(c->links[0].error, 0.005);
    cr_assert_eq(c->expansion, 2);
    cr_assert_eq(c->error, 0.01);
    /* the sub-filter is exactly what sbf_size gives for (1000, 0.005) */
    uint64_t bits = 0;
    uint32_t k = 0; /* in: 0 derives k */
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000, 0.005, &bits, &k), SBF_OK);
    struct sbf_info inf;
    cr_assert_eq(sbf_info(c->links[0].f, &inf), SBF_OK);
    cr_assert_eq(inf.bits, bits);
    cr_assert_eq(inf.k, k);
    sbfr_chain_free(c);

    cr_assert_eq(sbfr_chain_new(&c, SBF_CLASSIC, 1000, 0.01, 0, &why), SBF_OK);
    cr_assert_eq(c->links[0].error, 0.01);
    cr_assert_eq(c->expansion, 0);
    sbfr_chain_free(c);
}

Test(chain, counting_never_scales)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_COUNTING, 10, 0.01, 4, &why), SBF_OK);
    cr_assert_eq(c->expansion, 0);
    cr_assert_eq(c->links[0].error, 0.01);
    sbfr_chain_free(c);
}

Test(chain, max_bytes_refused_before_allocating,
     .description = "a sub-filter above MAX_BYTES is refused from sbf_size, nothing allocated")
{
    const char *why = "";
    sbfr_chain *c = NULL;
    sbfr_cfg.max_bytes = 1000;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100000, 0.01, 2, &why), SBF_E_TOO_LARGE);
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
    cr_assert_eq(sbfr_layout_from_name("blocke", 6), -1);
    cr_assert_eq(sbfr_layout_from_name("blockedx", 8), -1);
}

/* -------------------------------------------------------------- growth */

Test(chain, grows_at_the_capacity_plus_first_new_item,
     .description = "capacities 100, 200, 400; rates 0.005, 0.0025, 0.00125; every item found")
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, &why), SBF_OK);
    fill(c, "g", 100);
    cr_assert_eq(c->nlinks, 1, "full, not grown yet");
    fill(c, "g", 101);
    cr_assert_eq(c->nlinks, 2);
    cr_assert_eq(c->links[1].capacity, 200);
    cr_assert_eq(c->links[1].error, 0.0025);
    cr_assert_eq(c->links[1].items, 1);
    int tried = fill(c, "g", 301);
    cr_assert_eq(c->nlinks, 3);
    cr_assert_eq(c->links[2].capacity, 400);
    cr_assert_eq(c->links[2].error, 0.00125);
    cr_assert_eq(sbfr_chain_capacity(c), 700);
    cr_assert_eq(c->links[0].items + c->links[1].items + c->links[2].items, c->items);
    char b[32];
    for (int i = 0; i < tried; i++) {
        item(b, sizeof b, "g", i);
        cr_assert_eq(sbfr_chain_add1(c, b, strlen(b), &why), SBFR_ADD_PRESENT, "item %d", i);
    }
    cr_assert_eq(c->items, 301, "present items are not counted");
    sbfr_chain_free(c);
}

Test(chain, nonscaling_full)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 3, 0.01, 0, &why), SBF_OK);
    fill(c, "n", 3);
    cr_assert_eq(sbfr_chain_add1(c, "n0", 2, &why), SBFR_ADD_PRESENT);
    cr_assert_eq(sbfr_chain_add1(c, "other", 5, &why), SBFR_ADD_FULL);
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
    sbfr_cfg.max_bytes = 4096;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 64, &why), SBF_OK);
    fill(c, "m", 100);
    char b[32];
    int i = 0;
    do /* an item the full sub-filter does not hold */
        item(b, sizeof b, "absent", i++);
    while (sbf_contains(c->links[0].f, b, strlen(b)) == 1);
    cr_assert_eq(sbfr_chain_add1(c, b, strlen(b), &why), SBFR_ADD_FAILED);
    cr_assert_str_eq(why, "the filter would exceed the module's MAX_BYTES");
    cr_assert_eq(c->nlinks, 1);
    cr_assert_eq(c->items, 100);
    sbfr_chain_free(c);
}

Test(chain, counting_is_a_multiset)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_COUNTING, 10, 0.01, 0, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_add1(c, "a", 1, &why), SBFR_ADD_NEW);
    cr_assert_eq(sbfr_chain_add1(c, "a", 1, &why), SBFR_ADD_PRESENT);
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
    cr_assert_eq(sbfr_chain_new(&c, SBF_SPLIT_BLOCK, 50, 0.05, 2, &why), SBF_OK);
    fill(c, "b", 400);
    cr_assert_geq(c->nlinks, 3);
    enum { N = 1000 };
    static char store[N][16];
    const void *ptr[N];
    size_t len[N];
    uint8_t out[N], tmp[N];
    for (int i = 0; i < N; i++) {
        item(store[i], sizeof store[i], "b", i); /* 0..~420 added, the rest absent */
        ptr[i] = store[i];
        len[i] = strlen(store[i]);
    }
    sbfr_links_contains_batch(c, c->nlinks, ptr, len, N, out, tmp);
    int found = 0;
    for (int i = 0; i < N; i++) {
        int one = 0;
        for (uint32_t l = 0; l < c->nlinks; l++)
            one |= sbf_contains(c->links[l].f, ptr[i], len[i]) == 1;
        cr_assert_eq(out[i], one, "item %d", i);
        found += out[i];
    }
    cr_assert_geq(found, 400);
    /* only the older sub-filters */
    sbfr_links_contains_batch(c, 1, ptr, len, N, out, tmp);
    for (int i = 0; i < N; i++)
        cr_assert_eq(out[i], sbf_contains(c->links[0].f, ptr[i], len[i]) == 1, "item %d", i);
    sbfr_chain_free(c);
}

Test(chain, mem_counts_every_sub_filter)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, SBF_BLOCKED, 100, 0.01, 2, &why), SBF_OK);
    fill(c, "x", 350);
    size_t data = 0;
    for (uint32_t l = 0; l < c->nlinks; l++) {
        size_t n;
        sbf_data(c->links[l].f, &n);
        data += n;
    }
    cr_assert_eq(sbfr_chain_mem(c), sizeof *c + c->nlinks * sizeof *c->links + data);
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
    cr_assert(sbfr_valid_link(1, 0.5, 0));
    cr_assert(!sbfr_valid_link(0, 0.5, 0), "capacity 0");
    cr_assert(!sbfr_valid_link(SBFR_MAX_LINK_CAPACITY + 1, 0.5, 0));
    cr_assert(!sbfr_valid_link(1, 0.0, 0), "rate 0");
}
