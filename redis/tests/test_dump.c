/*
 * The dump form of a chain (redis/dump.c) without a server: header round
 * trip, refusals, and the chunked rebuild BF.SCANDUMP / BF.LOADCHUNK do.
 * The host allocator is defined in test_chain.c.
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
    cr_assert_eq(sbfr_chain_new(&c, layout, cap, 0.01, expansion, &why), SBF_OK);
    char b[32];
    for (int i = 0; c->items < n; i++) {
        snprintf(b, sizeof b, "d%d", i);
        cr_assert_geq(sbfr_chain_add1(c, b, strlen(b), &why), 0);
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
    for (uint32_t l = 0; l < a->nlinks; l++) {
        cr_assert_eq(a->links[l].capacity, b->links[l].capacity);
        cr_assert_eq(a->links[l].error, b->links[l].error);
        cr_assert_eq(a->links[l].items, b->links[l].items);
        size_t na, nb;
        const void *da = sbf_data(a->links[l].f, &na), *db = sbf_data(b->links[l].f, &nb);
        cr_assert_eq(na, nb);
        cr_assert_eq(memcmp(da, db, na), 0, "sub-filter %u bytes", l);
    }
}

Test(dump, chunked_round_trip,
     .description = "header + every sub-filter in chunks rebuilds the same chain; a chunk out "
                    "of order is refused and changes nothing")
{
    sbfr_chain *a = filled(SBF_BLOCKED, 100, 2, 700);
    cr_assert_eq(a->nlinks, 3);
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    cr_assert_not_null(h);
    const char *why = "";
    sbfr_chain *b = sbfr_chain_from_header(h, hl, &why);
    cr_assert_not_null(b, "%s", why);
    cr_assert(b->loading);
    sbfr_free(h);
    for (uint32_t l = 0; l < a->nlinks; l++) {
        void *buf;
        size_t n;
        cr_assert_eq(sbfr_link_bytes(a, l, &buf, &n), SBF_OK);
        size_t half = n / 2;
        if (l == 1) /* the second half first: refused */
            cr_assert_not_null(sbfr_chain_load_chunk(b, l, n, (char *)buf + half, n - half));
        cr_assert_null(sbfr_chain_load_chunk(b, l, half, buf, half));
        cr_assert_eq(b->loading, 1);
        cr_assert_null(sbfr_chain_load_chunk(b, l, n, (char *)buf + half, n - half));
        sbf_buffer_free(buf);
    }
    cr_assert_eq(b->loading, 0);
    same_chain(a, b);
    cr_assert_str_eq(sbfr_chain_load_chunk(b, 0, 1, "x", 1), SBFR_ERR_EXISTS);
    sbfr_chain_free(a);
    sbfr_chain_free(b);
}

Test(dump, corrupt_header_refused,
     .description = "every single-bit flip of the header is refused (checksum), and so are "
                    "truncations")
{
    sbfr_chain *a = filled(SBF_CLASSIC, 50, 2, 120);
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    const char *why = "";
    for (size_t i = 0; i < hl * 8; i++) {
        h[i / 8] ^= (unsigned char)(1u << (i % 8));
        cr_assert_null(sbfr_chain_from_header(h, hl, &why), "bit %zu", i);
        h[i / 8] ^= (unsigned char)(1u << (i % 8));
    }
    for (size_t n = 0; n < hl; n++)
        cr_assert_null(sbfr_chain_from_header(h, n, &why), "length %zu", n);
    sbfr_chain *b = sbfr_chain_from_header(h, hl, &why);
    cr_assert_not_null(b);
    sbfr_chain_free(b);
    sbfr_free(h);
    sbfr_chain_free(a);
}

Test(dump, corrupt_chunk_refused)
{
    sbfr_chain *a = filled(SBF_BLOCKED, 100, 0, 60);
    size_t hl;
    unsigned char *h = sbfr_dump_header(a, &hl);
    const char *why = "";
    sbfr_chain *b = sbfr_chain_from_header(h, hl, &why);
    sbfr_free(h);
    void *buf;
    size_t n;
    cr_assert_eq(sbfr_link_bytes(a, 0, &buf, &n), SBF_OK);
    unsigned char *bad = buf;
    bad[n - 1] ^= 1; /* a data byte: the data checksum no longer matches */
    cr_assert_str_eq(sbfr_chain_load_chunk(b, 0, n, buf, n), SBFR_ERR_BAD_DATA);
    cr_assert_eq(b->stage_len, 0, "the refused chunk is dropped");
    bad[n - 1] ^= 1;
    cr_assert_null(sbfr_chain_load_chunk(b, 0, n, buf, n));
    same_chain(a, b);
    sbf_buffer_free(buf);
    sbfr_chain_free(a);
    sbfr_chain_free(b);
}
