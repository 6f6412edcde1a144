/*
 * sbf_write_data: a filter moved in chunks of raw data answers as the one it
 * came from; the padding past bits / 8 cannot be written; mappings refuse.
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <unistd.h>

static sbf_filter *make(int layout, uint64_t n, double fpp, uint32_t seed)
{
    sbf_params p = {0};
    p.layout = layout;
    p.expected_n = n;
    p.fpp = fpp;
    p.seed = seed;
    sbf_filter *f;
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    return f;
}

/* An empty filter of f's geometry, as a receiver would make it. */
static sbf_filter *same_geometry(const sbf_filter *f)
{
    struct sbf_info inf;
    sbf_info(f, &inf);
    sbf_params p = {0};
    p.layout = inf.layout;
    p.bits = inf.bits;
    p.k = inf.k;
    p.seed = inf.seed;
    sbf_filter *g;
    cr_assert_eq(sbf_create(&g, &p), SBF_OK);
    return g;
}

Test(rawdata, chunks_rebuild_every_layout,
     .description = "the used bytes of a filter written in chunks of 1, 7 and 4096 bytes, in any "
                    "order, give the same data and the same answers")
{
    static const int layouts[] = {SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING};
    static const size_t chunks[] = {1, 7, 4096};
    for (size_t li = 0; li < 4; li++) {
        sbf_filter *a = make(layouts[li], 3000, 0.01, 77);
        for (uint64_t i = 0; i < 3000; i++)
            sbf_add_u64(a, &i, 1);
        struct sbf_info inf;
        sbf_info(a, &inf);
        const uint64_t used = inf.bits / 8;
        size_t alen;
        const unsigned char *ad = sbf_data(a, &alen);
        cr_assert_leq(used, alen);
        for (size_t ci = 0; ci < 3; ci++) {
            sbf_filter *b = same_geometry(a);
            /* back to front, so order does not matter */
            for (uint64_t end = used; end > 0;) {
                const uint64_t off = end > chunks[ci] ? end - chunks[ci] : 0;
                cr_assert_eq(sbf_write_data(b, off, ad + off, (size_t)(end - off)), SBF_OK);
                end = off;
            }
            size_t blen;
            const void *bd = sbf_data(b, &blen);
            cr_assert_eq(blen, alen);
            cr_assert_eq(memcmp(ad, bd, alen), 0, "layout %d chunk %zu", layouts[li], chunks[ci]);
            for (uint64_t i = 0; i < 3000; i++)
                cr_assert_eq(sbf_contains(b, &i, 8), 1, "key %llu", (unsigned long long)i);
            struct sbf_info binf;
            sbf_info(b, &binf);
            cr_assert_eq(binf.keys_added, 0, "keys_added is not written");
            sbf_free(b);
        }
        sbf_free(a);
    }
}

Test(rawdata, padding_cannot_be_written,
     .description = "classic 64 bits: 8 used bytes in a 64-byte line; bytes 8.. are SBF_E_PARAM "
                    "and nothing is written, so the filter still serializes and loads")
{
    sbf_params p = {0};
    p.layout = SBF_CLASSIC;
    p.bits = 64;
    p.k = 1;
    sbf_filter *f;
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    size_t len;
    const unsigned char *d = sbf_data(f, &len);
    cr_assert_eq(len, 64);
    const unsigned char ones[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    cr_assert_eq(sbf_write_data(f, 8, ones, 1), SBF_E_PARAM);
    cr_assert_eq(sbf_write_data(f, 0, ones, 9), SBF_E_PARAM);
    cr_assert_eq(sbf_write_data(f, UINT64_MAX, ones, 1), SBF_E_PARAM);
    cr_assert_eq(sbf_write_data(f, 1, ones, SIZE_MAX), SBF_E_PARAM);
    for (size_t i = 0; i < len; i++)
        cr_assert_eq(d[i], 0, "byte %zu changed by a refused write", i);
    cr_assert_eq(sbf_write_data(f, 0, ones, 8), SBF_OK);
    cr_assert_eq(sbf_write_data(f, 8, ones, 0), SBF_OK, "an empty write at the end");
    void *buf;
    size_t blen;
    cr_assert_eq(sbf_serialize(f, &buf, &blen), SBF_OK);
    sbf_filter *g;
    cr_assert_eq(sbf_deserialize(&g, buf, blen), SBF_OK, "zero padding: loads");
    sbf_buffer_free(buf);
    sbf_free(g);
    sbf_free(f);
}

Test(rawdata, null_and_readonly)
{
    sbf_filter *f = make(SBF_BLOCKED, 100, 0.01, 0);
    cr_assert_eq(sbf_write_data(NULL, 0, "x", 1), SBF_E_NULL);
    cr_assert_eq(sbf_write_data(f, 0, NULL, 1), SBF_E_NULL);
    cr_assert_eq(sbf_write_data(f, 0, NULL, 0), SBF_OK);
    char path[] = "/tmp/sbf-rawdata-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    sbf_filter *m;
    cr_assert_eq(sbf_map(&m, path, 0), SBF_OK);
    cr_assert_eq(sbf_write_data(m, 0, "x", 1), SBF_E_READONLY);
    sbf_free(m);
    unlink(path);
    sbf_free(f);
}
