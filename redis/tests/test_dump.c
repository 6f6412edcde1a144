/*
 * The dump form of a chain (redis/dump.c) without a server: the header
 * round trip, refusals, and the chunked copy BF.SCANDUMP / BF.LOADCHUNK do,
 * with RedisBloom's iterator arithmetic. The host allocator is defined in
 * test_chain.c.
 */
#include "chain.h"
#include "dump.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

long sbfr_test_live(void); /* test_chain.c */

static long live0;

static void setup(void)
{
    live0 = sbfr_test_live();
}

static void teardown(void)
{
    cr_expect_eq(sbfr_test_live(), live0, "chain structures leaked");
}

TestSuite(dump, .init = setup, .fini = teardown);

static sbfr_chain *filled(int layout, uint64_t cap, uint32_t expansion, uint64_t n)
{
    const char *why = "";
    sbfr_chain *c;
    cr_assert_eq(sbfr_chain_new(&c, layout, cap, 0.01, expansion, SBFR_NO_CAP, &why), SBF_OK);
    char b[32];
    for (int i = 0; c->items < n; i++) {
        snprintf(b, sizeof b, "d%d", i);
        cr_assert_geq(sbfr_chain_add1(c, b, strlen(b), SBFR_NO_CAP, &why), 0);
    }
    return c;
}

static void same_chain(const sbfr_chain *a, const sbfr_chain *b)
{
    cr_assert_eq(a->nlinks, b->nlinks);
    cr_assert_eq(a->layout, b->layout);
    cr_assert_eq(a->expansion, b->expansion);
    cr_assert_eq(a->error, b->error);
    cr_assert_eq(a->items, b->items);
    cr_assert_eq(a->bytes, b->bytes);
    for (uint32_t l = 0; l < a->nlinks; l++) {
        const sbfr_link xv = sbfr_chain_link(a, l), yv = sbfr_chain_link(b, l), *x = &xv, *y = &yv;
        cr_assert_eq(x->layout, y->layout);
        cr_assert_eq(x->bits, y->bits);
        cr_assert_eq(x->k, y->k);
        cr_assert_eq(x->capacity, y->capacity);
        cr_assert_eq(x->error, y->error);
        cr_assert_eq(x->items, y->items);
        size_t na, nb;
        const void *da = sbf_data(x->f, &na), *db = sbf_data(y->f, &nb);
        cr_assert_eq(na, nb);
        cr_assert_eq(memcmp(da, db, na), 0, "sub-filter %u bytes", l);
    }
}

static sbfr_chain *from_header_of(const sbfr_chain *a)
{
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    const char *why = "";
    sbfr_chain *b = sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why);
    cr_assert_not_null(b, "%s", why);
    sbfr_free(h);
    return b;
}

Test(dump, scandump_then_loadchunk,
     .description = "the header makes an empty chain of the same geometry; the chunks, a "
                    "sub-filter each, in reverse order, make it the same chain")
{
    sbfr_chain *a = filled(SBF_BLOCKED, 100, 2, 700);
    cr_assert_eq(a->nlinks, 3);
    sbfr_chain *b = from_header_of(a);
    cr_assert_eq(b->items, a->items, "counts come with the header");
    const char *data[8];
    size_t len[8];
    long long it[8], next = 1;
    int n = 0;
    for (long long i = 1; (next = sbfr_dump_chunk(a, i, &data[n], &len[n])) != 0; i = next) {
        cr_assert_eq(len[n], sbfr_chain_link(a, n).bits / 8, "chunk %d: its sub-filter's used bytes", n);
        cr_assert_eq(data[n], sbf_data(sbfr_chain_link(a, n).f, NULL), "a pointer into the filter");
        it[n++] = next;
    }
    cr_assert_eq(n, 3);
    cr_assert_eq(len[n], 0);
    while (n-- > 0)
        cr_assert_null(sbfr_load_chunk(b, it[n], data[n], len[n]));
    same_chain(a, b);
    sbfr_chain_free(a);
    sbfr_chain_free(b);
}

Test(dump, iterator_arithmetic,
     .description = "RedisBloom's: a chunk at iter covers bytes [iter-1-len, iter-1) of the "
                    "sub-filters' concatenated data; the errors of issue 19's table")
{
    sbfr_chain *c = filled(SBF_BLOCKED, 10, 2, 5);
    const uint64_t used = sbfr_chain_link(c, 0).bits / 8;
    cr_assert_eq(used, 64, "one block");
    cr_assert_null(sbfr_load_chunk(c, 5, "abc", 3));
    const unsigned char *d = sbf_data(sbfr_chain_link(c, 0).f, NULL);
    cr_assert_eq(memcmp(d + 1, "abc", 3), 0, "bytes 1..3");
    cr_assert_str_eq(sbfr_load_chunk(c, 1, "abc", 3), SBFR_ERR_BAD_DATA);
    cr_assert_str_eq(sbfr_load_chunk(c, 0, "abc", 3), SBFR_ERR_BAD_DATA);
    cr_assert_str_eq(sbfr_load_chunk(c, -1, "abc", 3), SBFR_ERR_BAD_DATA);
    cr_assert_str_eq(sbfr_load_chunk(c, 3, "abc", 3), SBFR_ERR_NO_LINK);
    cr_assert_str_eq(sbfr_load_chunk(c, 100000, "abc", 3), SBFR_ERR_NO_LINK);
    char big[80] = {0};
    cr_assert_str_eq(sbfr_load_chunk(c, 90, big, 80), SBFR_ERR_TOO_BIG);
    cr_assert_null(sbfr_load_chunk(c, (long long)used + 1, big, used), "the whole sub-filter");
    const char *data;
    size_t n;
    cr_assert_eq(sbfr_dump_chunk(c, (long long)used + 1, &data, &n), 0, "past the end");
    cr_assert_eq(n, 0);
    cr_assert_eq(sbfr_dump_chunk(c, 11, &data, &n), (long long)used + 1, "from byte 10");
    cr_assert_eq(n, used - 10);
    sbfr_chain_free(c);
}

Test(dump, corrupt_header_refused,
     .description = "every single-bit flip of the header is refused (checksum), and so are "
                    "truncations, a version-1 header and a cap below the data")
{
    sbfr_chain *a = filled(SBF_CLASSIC, 50, 2, 120);
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    const char *why = "";
    for (size_t i = 0; i < hl * 8; i++) {
        h[i / 8] ^= (unsigned char)(1u << (i % 8));
        cr_assert_null(sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why), "bit %zu", i);
        h[i / 8] ^= (unsigned char)(1u << (i % 8));
    }
    for (size_t n = 0; n < hl; n++)
        cr_assert_null(sbfr_chain_from_header(h, n, SBFR_NO_CAP, &why), "length %zu", n);
    cr_assert_null(sbfr_chain_from_header(h, hl, a->bytes - 1, &why));
    cr_assert_str_eq(why, "ERR the filter would exceed the module's MAX_BYTES");
    h[7] = '1';
    cr_assert_null(sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why));
    cr_assert_str_eq(why, SBFR_ERR_BAD_DATA);
    h[7] = '2';
    sbfr_chain *b = sbfr_chain_from_header(h, hl, a->bytes, &why);
    cr_assert_not_null(b, "exactly at the cap");
    sbfr_chain_free(b);
    sbfr_free(h);
    sbfr_chain_free(a);
}

Test(dump, floor_links_travel,
     .description = "a chain whose tail went classic past the floor (before issue 33) dumps and loads as it is")
{
    const char *why = "";
    sbfr_chain *a = filled(SBF_SPLIT_BLOCK, 10, 1, 30);
    sbf_filter *l; /* what an older module made past the floor */
    cr_assert_eq(sbfr_link_make(&l, SBFR_FLOOR_LAYOUT, 640, 20, 0, &why), SBF_OK);
    cr_assert_eq(sbfr_chain_attach(a, l, 10, 1e-7, 0, &why), SBF_OK);
    for (int i = 0; i < 5; i++) {
        char b[32];
        snprintf(b, sizeof b, "t%d", i);
        cr_assert_geq(sbfr_chain_add1(a, b, strlen(b), SBFR_NO_CAP, &why), 0);
    }
    cr_assert_eq(a->layout, SBF_SPLIT_BLOCK);
    cr_assert_eq(sbfr_chain_link(a, a->nlinks - 1).layout, SBF_CLASSIC);
    sbfr_chain *b = from_header_of(a);
    const char *data;
    size_t n;
    for (long long i = 1, next; (next = sbfr_dump_chunk(a, i, &data, &n)) != 0; i = next)
        cr_assert_null(sbfr_load_chunk(b, next, data, n));
    same_chain(a, b);
    sbfr_chain_free(a);
    sbfr_chain_free(b);
}

/* The header's checksum (dump.c: MurmurHash3_x64_128 h1, seed 0x5bf) redone
 * after an edit. */
static void resum(unsigned char *h, size_t hl)
{
    uint64_t sum[2];
    sbf_murmur3_x64_128(h, hl - 8, 0x5bf, sum);
    for (int i = 0; i < 8; i++)
        h[hl - 8 + i] = (unsigned char)(sum[0] >> (8 * i));
}

static void add_more(sbfr_chain *c, const char *prefix, int n)
{
    const char *why = "";
    char b[32];
    for (int i = 0; i < n; i++) {
        snprintf(b, sizeof b, "%s%d", prefix, i);
        cr_assert_geq(sbfr_chain_add1(c, b, strlen(b), SBFR_NO_CAP, &why), 0);
    }
}

Test(dump, rule_travels,
     .description = "a new chain (the library's default rule) dumps a version-3 header with "
                    "its rule and loads to a chain that grows the same; a formula chain "
                    "dumps version 2, as before, and loads as the formula; a version-3 "
                    "header naming the formula, or with its reserved word set, is refused")
{
    sbfr_chain *a = filled(SBF_BLOCKED, 100, 2, 700);
    cr_assert_eq(a->rule, SBFR_RULE_DEFAULT);
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    cr_assert_eq(h[8], 3, "version 3");
    cr_assert_eq(hl, 48 + 48 * (size_t)a->nlinks + 8);
    const char *why = "";
    sbfr_chain *b = sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why);
    cr_assert_not_null(b, "%s", why);
    cr_assert_eq(b->rule, SBFR_RULE_DEFAULT);
    const char *data;
    size_t n;
    for (long long i = 1, next; (next = sbfr_dump_chunk(a, i, &data, &n)) != 0; i = next)
        cr_assert_null(sbfr_load_chunk(b, next, data, n));
    same_chain(a, b);
    add_more(a, "more", 3000);
    add_more(b, "more", 3000);
    cr_assert_geq(a->nlinks, 5, "grew");
    same_chain(a, b); /* the same sub-filters: the same rule */
    sbfr_chain_free(b);

    /* the same chain as version 2 (the rule dropped): loads as the formula
     * rule, and its header is version 2 again, byte for byte */
    const size_t hl2 = hl - 8;
    unsigned char *h2 = sbfr_alloc(hl2);
    memcpy(h2, h, 40);
    memcpy(h2 + 40, h + 48, hl - 48);
    h2[8] = 2;
    resum(h2, hl2);
    sbfr_chain *f = sbfr_chain_from_header(h2, hl2, SBFR_NO_CAP, &why);
    cr_assert_not_null(f, "%s", why);
    cr_assert_eq(f->rule, SBFR_RULE_FORMULA);
    size_t fl;
    unsigned char *fh = sbfr_dump_header(f, &fl);
    cr_assert_eq(fl, hl2);
    cr_assert_eq(memcmp(fh, h2, fl), 0, "a formula chain's header is version 2");
    sbfr_free(fh);
    sbfr_chain *g = from_header_of(f); /* an empty copy: grows like f from here */
    cr_assert_eq(g->rule, SBFR_RULE_FORMULA);
    sbfr_chain_free(g);
    sbfr_chain_free(f);
    sbfr_free(h2);

    h[40] = 1; /* the formula is written as version 2 only */
    resum(h, hl);
    cr_assert_null(sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why));
    cr_assert_str_eq(why, SBFR_ERR_BAD_DATA);
    h[40] = 0;
    h[44] = 1;
    resum(h, hl);
    cr_assert_null(sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why));
    h[44] = 0;
    resum(h, hl);
    b = sbfr_chain_from_header(h, hl, SBFR_NO_CAP, &why);
    cr_assert_not_null(b, "restored");
    sbfr_chain_free(b);
    sbfr_free(h);
    sbfr_chain_free(a);
}
