/*
 * The parquet layout (SBF_PARQUET): bit-exact with apache/parquet-format
 * BloomFilter.md on every ISA, against the spec's algorithm written out
 * here with libxxhash's XXH64; sizing as Parquet writers do it; its exact
 * FPR; the Parquet form (header + bitset) in and out; DuckDB's filters
 * (tests/vectors/duckdb_small.*) rebuilt byte for byte by the library.
 */
#define _DEFAULT_SOURCE 1 /* mkstemp */
#include "testutil.h"

#include <math.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static const uint32_t spec_salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                      0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

/* BloomFilter.md filter_insert / filter_check on a bitset of z blocks. */
static void spec_insert(unsigned char *bits, uint64_t z, uint64_t h)
{
    const uint64_t block = ((h >> 32) * z) >> 32;
    for (int i = 0; i < 8; i++) {
        const uint32_t b = (uint32_t)((uint32_t)h * spec_salt[i]) >> 27;
        bits[block * 32 + (size_t)i * 4 + b / 8] |= (unsigned char)(1u << (b % 8));
    }
}

static int spec_check(const unsigned char *bits, uint64_t z, uint64_t h)
{
    const uint64_t block = ((h >> 32) * z) >> 32;
    for (int i = 0; i < 8; i++) {
        const uint32_t b = (uint32_t)((uint32_t)h * spec_salt[i]) >> 27;
        if (!(bits[block * 32 + (size_t)i * 4 + b / 8] & (1u << (b % 8))))
            return 0;
    }
    return 1;
}

static sbf_filter *make_pq(uint64_t bits)
{
    return tu_make(SBF_PARQUET, 0, 0, bits, 0, 0);
}

Test(parquet_layout, spec_exact, .description = "u64, byte-string, single and batched keys = the spec, every ISA")
{
    int isas[8];
    const size_t nisa = sbf_isa_list(isas, 8);
    const uint64_t zs[] = {1, 2, 3, 31, 1000, 4096};
    for (size_t ii = 0; ii < nisa; ii++) {
        if (!sbf_isa_available(isas[ii]))
            continue;
        cr_assert_eq(sbf_isa_set(isas[ii]), SBF_OK);
        for (size_t zi = 0; zi < sizeof zs / sizeof *zs; zi++) {
            const uint64_t z = zs[zi];
            const size_t n = (size_t)(z * 24 + 5);
            unsigned char *ref = calloc(z, 32);
            sbf_filter *fu = make_pq(z * 256), *fb = make_pq(z * 256), *fs = make_pq(z * 256);
            uint64_t *keys = malloc(n * sizeof *keys);
            char (*text)[24] = malloc(n * sizeof *text);
            const void **ptrs = malloc(n * sizeof *ptrs);
            size_t *lens = malloc(n * sizeof *lens);
            uint64_t s = z;
            for (size_t i = 0; i < n; i++) {
                keys[i] = tu_splitmix64(&s);
                lens[i] = (size_t)snprintf(text[i], sizeof text[i], "k%llu", (unsigned long long)(keys[i] % 100000 + i));
                ptrs[i] = text[i];
                spec_insert(ref, z, XXH64(&keys[i], 8, 0));            /* INT64 plain */
                spec_insert(ref, z, XXH64(text[i], lens[i], 0));       /* BYTE_ARRAY */
            }
            cr_assert_eq(sbf_add_u64(fu, keys, n), SBF_OK);
            cr_assert_eq(sbf_add_batch(fu, ptrs, lens, n), SBF_OK);
            for (size_t i = 0; i < n; i++) {
                cr_assert_geq(sbf_add(fs, &keys[i], 8), 0);
                cr_assert_geq(sbf_add(fs, text[i], lens[i]), 0);
            }
            cr_assert_eq(sbf_add_batch(fb, ptrs, lens, n), SBF_OK);
            cr_assert_eq(sbf_add_u64(fb, keys, n), SBF_OK);
            size_t len;
            const unsigned char *d = sbf_data(fu, &len);
            cr_assert_geq(len, z * 32);
            cr_assert_arr_eq(d, ref, z * 32, "%s z %llu: not the spec's bits",
                             sbf_isa_name(isas[ii]), (unsigned long long)z);
            for (size_t b = z * 32; b < len; b++)
                cr_assert_eq(d[b], 0, "padding");
            cr_assert_arr_eq(sbf_data(fs, NULL), d, len, "single keys differ");
            cr_assert_arr_eq(sbf_data(fb, NULL), d, len, "order differs");
            /* answers: the spec's check, batched and single, on other keys too */
            uint8_t *out = malloc(2 * n);
            uint64_t *probe = malloc(2 * n * sizeof *probe);
            for (size_t i = 0; i < 2 * n; i++)
                probe[i] = i < n ? keys[i] : tu_splitmix64(&s);
            (void)sbf_contains_u64(fu, probe, 2 * n, out);
            for (size_t i = 0; i < 2 * n; i++) {
                const int want = spec_check(ref, z, XXH64(&probe[i], 8, 0));
                cr_assert_eq(out[i], want, "%s: key %zu", sbf_isa_name(isas[ii]), i);
                cr_assert_eq(sbf_contains(fu, &probe[i], 8), want);
            }
            free(out);
            free(probe);
            free(ref);
            free(keys);
            free(text);
            free(ptrs);
            free(lens);
            sbf_free(fu);
            sbf_free(fb);
            sbf_free(fs);
        }
    }
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
}

/* Arrow's / parquet-java's rule, written out: bits per value
 * -8 / ln(1 - p^(1/8)), at least 256 bits, the next power of two. */
static uint64_t writers_bits(uint64_t n, double p)
{
    const double m = -8.0 * (double)n / log(1.0 - pow(p, 1.0 / 8));
    uint64_t bits = m < 256 ? 256 : (uint64_t)m;
    uint64_t pow2 = 256;
    while (pow2 < bits)
        pow2 *= 2;
    return pow2;
}

Test(parquet_layout, sizing, .description = "sizing as Parquet writers do, explicit bits, FPR formula")
{
    const uint64_t ns[] = {0, 1, 10, 1000, 100000, 1000000, 10000000};
    const double ps[] = {0.5, 0.1, 0.01, 0.001, 1e-6};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        for (size_t j = 0; j < sizeof ps / sizeof *ps; j++) {
            uint64_t bits;
            uint32_t k = 0;
            cr_assert_eq(sbf_size(SBF_PARQUET, ns[i], ps[j], &bits, &k), SBF_OK);
            cr_assert_eq(bits, writers_bits(ns[i] ? ns[i] : 1, ps[j]), "n %llu p %g",
                         (unsigned long long)ns[i], ps[j]);
            cr_assert_eq(k, 8);
        }
    uint64_t bits;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_PARQUET, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert_eq(bits, UINT64_C(1) << 24); /* 9.68 bits/value -> 2 MiB */
    /* beyond 128 MiB the writers cap; we refuse rather than miss the rate */
    k = 0;
    cr_assert_eq(sbf_size(SBF_PARQUET, 1000000000, 0.01, &bits, &k), SBF_E_TOO_LARGE);
    k = 16;
    cr_assert_eq(sbf_size(SBF_PARQUET, 1000, 0.01, &bits, &k), SBF_E_K);
    /* explicit bits: any whole number of 256-bit blocks */
    sbf_filter *f = make_pq(1000);
    struct sbf_info in;
    cr_assert_eq(sbf_info(f, &in), SBF_OK);
    cr_assert(in.bits == 1024 && in.k == 8 && in.block_bits == 256 && in.layout == SBF_PARQUET);
    cr_assert_float_eq(sbf_fpp_theory(f, 100), sbf_fpp_split_block(100, 1024, 8), 1e-15);
    cr_assert_float_eq(sbf_fpp_layout(SBF_PARQUET, 26214, 262144, 8),
                       sbf_fpp_split_block(26214, 262144, 8), 1e-15);
    /* BloomFilter.md: 1024 blocks, 26,214 values -> about 1.26% */
    cr_assert(fabs(sbf_fpp_layout(SBF_PARQUET, 26214, 262144, 8) - 0.0126) < 0.0005);
    sbf_free(f);
    cr_assert_str_eq(sbf_layout_name(SBF_PARQUET), "parquet");
    cr_assert_eq(sbf_layout_from_name("parquet"), SBF_PARQUET);
}

Test(parquet_layout, form_round_trip, .description = "export = header + bitset; import refuses hostile headers first")
{
    sbf_filter *f = make_pq(8192), *g;
    for (uint64_t i = 0; i < 300; i++)
        cr_assert_geq(sbf_add(f, &i, 8), 0);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_export_parquet(f, &buf, &len), SBF_OK);
    const unsigned char head[] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                  0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(len, sizeof head + 1024);
    cr_assert_arr_eq(buf, head, sizeof head);
    cr_assert_arr_eq((unsigned char *)buf + sizeof head, sbf_data(f, NULL), 1024);
    cr_assert_eq(sbf_import_parquet(&g, buf, len), SBF_OK);
    cr_assert_arr_eq(sbf_data(g, NULL), sbf_data(f, NULL), 1024);
    for (uint64_t i = 0; i < 300; i++)
        cr_assert_eq(sbf_contains(g, &i, 8), 1);
    sbf_free(g);
    g = (sbf_filter *)&g;
    cr_assert_eq(sbf_import_parquet(&g, buf, len - 1), SBF_E_TRUNCATED);
    cr_assert_null(g);
    unsigned char *big = malloc(len + 1);
    memcpy(big, buf, len);
    big[len] = 0;
    cr_assert_eq(sbf_import_parquet(&g, big, len + 1), SBF_E_TRAILING);
    /* a header announcing 2^31 - 32 bytes over 1040 bytes: refused, nothing allocated */
    const unsigned char huge[] = {0x15, 0xc0, 0xff, 0xff, 0xff, 0x0f, 0x1c, 0x1c, 0x00, 0x00,
                                  0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(sbf_import_parquet(&g, huge, sizeof huge), SBF_E_TRUNCATED);
    cr_assert_eq(sbf_import_parquet(&g, huge, 5), SBF_E_TRUNCATED);
    cr_assert_eq(sbf_import_parquet(NULL, buf, len), SBF_E_NULL);
    cr_assert_eq(sbf_import_parquet(&g, NULL, 3), SBF_E_NULL);
    /* only the parquet layout exports this form */
    sbf_filter *s = tu_make(SBF_SPLIT_BLOCK, 0, 0, 8192, 8, 0);
    void *b2 = (void *)&b2;
    cr_assert_eq(sbf_export_parquet(s, &b2, &len), SBF_E_UNSUPPORTED);
    cr_assert_null(b2);
    sbf_free(s);
    free(big);
    sbf_buffer_free(buf);
    sbf_free(f);
}

static size_t unhex(const char *hex, unsigned char *out, size_t cap)
{
    size_t n = 0;
    if (strcmp(hex, "-") == 0)
        return 0;
    for (; hex[2 * n] && hex[2 * n + 1] && n < cap; n++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * n, "%2x", &v), 1);
        out[n] = (unsigned char)v;
    }
    return n;
}

Test(parquet_layout, duckdb_byte_exact, .description = "the library rebuilds DuckDB's 12 filters byte for byte")
{
    size_t flen;
    unsigned char *file = tu_read_vector("duckdb_small.parquet", &flen);
    sbf_parquet *pq;
    const char *why = "";
    cr_assert_eq(sbf_parquet_open_mem(&pq, file, flen, &why), SBF_OK, "%s", why);
    FILE *vf = tu_open_vector("duckdb_small.values", "r");
    char line[512];
    size_t ci = 0, chunks = 0;
    sbf_filter *ours = NULL, *theirs = NULL;
    for (int more = 1; more;) {
        more = tu_next_line(vf, line, sizeof line);
        if ((!more || strncmp(line, "chunk ", 6) == 0) && ours != NULL) {
            void *mine, *raw;
            size_t ml, rl;
            cr_assert_eq(sbf_export_parquet(ours, &mine, &ml), SBF_OK);
            cr_assert_eq(sbf_parquet_read_bloom(pq, ci, &raw, &rl, &why), SBF_OK);
            cr_assert_eq(ml, rl);
            cr_assert_arr_eq(mine, raw, ml, "chunk %zu: ours differs from DuckDB's", ci);
            free(mine);
            free(raw);
            sbf_free(ours);
            sbf_free(theirs);
            ours = NULL;
            ci++;
            chunks++;
        }
        if (!more)
            break;
        if (strncmp(line, "chunk ", 6) == 0) {
            cr_assert_eq(sbf_parquet_filter(&theirs, pq, ci, &why), SBF_OK, "%s", why);
            struct sbf_info in;
            cr_assert_eq(sbf_info(theirs, &in), SBF_OK);
            ours = make_pq(in.bits);
            continue;
        }
        char hex[256];
        unsigned char v[128];
        cr_assert_eq(sscanf(line, "v %255s", hex), 1);
        const size_t n = unhex(hex, v, sizeof v);
        cr_assert_geq(sbf_add(ours, v, n), 0);
        cr_assert_eq(sbf_contains(theirs, v, n), 1, "DuckDB's filter misses %s", hex);
    }
    fclose(vf);
    cr_assert_eq(chunks, 12);
    sbf_parquet_close(pq);
    free(file);
}

Test(parquet_layout, fold_exact, .description = "fold of a parquet filter = built at half size")
{
    sbf_filter *big = make_pq(4096 * 256), *small = make_pq(1024 * 256), *folded;
    uint64_t s = 3, keys[4000];
    for (size_t i = 0; i < 4000; i++)
        keys[i] = tu_splitmix64(&s);
    cr_assert_eq(sbf_add_u64(big, keys, 4000), SBF_OK);
    cr_assert_eq(sbf_add_u64(small, keys, 4000), SBF_OK);
    cr_assert_eq(sbf_fold(&folded, big, 2), SBF_OK);
    size_t la, lb;
    const void *a = sbf_data(folded, &la), *b = sbf_data(small, &lb);
    cr_assert_eq(la, lb);
    cr_assert_arr_eq(a, b, la);
    sbf_free(folded);
    sbf_free(small);
    sbf_free(big);
}

Test(parquet_layout, by_hash, .description = "sbf_add_xxh64 / sbf_contains_xxh64 = adding and probing the values")
{
    sbf_filter *a = make_pq(64 * 256), *b = make_pq(64 * 256);
    uint64_t h[500], probe[1000];
    char text[500][16];
    for (int i = 0; i < 500; i++) {
        const int len = snprintf(text[i], sizeof text[i], "v%d", i * 7);
        cr_assert_geq(sbf_add(a, text[i], (size_t)len), 0);
        h[i] = XXH64(text[i], (size_t)len, 0);
    }
    cr_assert_eq(sbf_add_xxh64(b, h, 500), SBF_OK);
    cr_assert_arr_eq(sbf_data(a, NULL), sbf_data(b, NULL), 64 * 32);
    uint64_t s = 11;
    for (int i = 0; i < 1000; i++)
        probe[i] = i < 500 ? h[i] : tu_splitmix64(&s);
    uint8_t out[1000];
    const size_t c = sbf_contains_xxh64(a, probe, 1000, out);
    size_t want = 0;
    for (int i = 0; i < 1000; i++) {
        cr_assert(i >= 500 || out[i] == 1);
        want += out[i];
    }
    cr_assert_eq(c, want);
    cr_assert_lt(c, 1000); /* some random probes are absent */
    /* the bare bitset answers the same, with no filter object */
    uint8_t out2[1000];
    cr_assert_eq(sbf_parquet_bitset_contains(sbf_data(a, NULL), 64 * 32, probe, 1000, out2), c);
    cr_assert_arr_eq(out, out2, 1000);
    cr_assert_eq(sbf_parquet_bitset_contains(sbf_data(a, NULL), 64 * 32, probe, 1000, NULL), c);
    cr_assert_eq(sbf_parquet_bitset_contains(sbf_data(a, NULL), 40, probe, 1, out2),
                 (size_t)SBF_E_PARAM);
    cr_assert_eq(sbf_parquet_bitset_contains(sbf_data(a, NULL), 0, probe, 1, out2),
                 (size_t)SBF_E_PARAM);
    cr_assert_eq(sbf_parquet_bitset_contains((const char *)sbf_data(a, NULL) + 1, 32, probe, 1,
                                             out2), (size_t)SBF_E_PARAM);
    cr_assert_eq(sbf_parquet_bitset_contains(NULL, 32, probe, 1, out2), (size_t)SBF_E_NULL);
    sbf_filter *s8 = tu_make(SBF_SPLIT_BLOCK, 0, 0, 64 * 256, 8, 0);
    cr_assert_eq(sbf_add_xxh64(s8, h, 1), SBF_E_UNSUPPORTED);
    cr_assert_eq(sbf_contains_xxh64(s8, h, 1, out), (size_t)SBF_E_UNSUPPORTED);
    cr_assert(sbf_is_error(sbf_contains_xxh64(NULL, h, 1, out)));
    sbf_free(s8);
    sbf_free(a);
    sbf_free(b);
}

Test(parquet_layout, format_table, .description = "the Parquet form through sbf_encode/decode, detection, save_as/load_as")
{
    sbf_filter *f = make_pq(32 * 256), *g;
    for (uint64_t i = 0; i < 100; i++)
        cr_assert_geq(sbf_add(f, &i, 8), 0);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_encode(f, SBF_FORMAT_PARQUET, &buf, &len), SBF_OK);
    cr_assert_eq(len, 16 + 1024); /* numBytes 1024: a two-byte varint */
    cr_assert_eq(sbf_format_detect(buf, len), SBF_FORMAT_PARQUET);
    cr_assert_eq(sbf_format_detect(buf, len - 1), SBF_E_FORMAT); /* no longer sized */
    cr_assert_eq(sbf_decode(&g, buf, len, 0, NULL), SBF_OK);
    cr_assert_arr_eq(sbf_data(g, NULL), sbf_data(f, NULL), 1024);
    sbf_free(g);
    sbf_buffer_free(buf);
    cr_assert_str_eq(sbf_format_name(SBF_FORMAT_PARQUET), "parquet");
    char path[] = "/tmp/sbf-pq-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(sbf_save_as(f, path, SBF_FORMAT_PARQUET), SBF_OK);
    int found = 0;
    cr_assert_eq(sbf_load_as(&g, path, 0, &found), SBF_OK);
    cr_assert_eq(found, SBF_FORMAT_PARQUET);
    for (uint64_t i = 0; i < 100; i++)
        cr_assert_eq(sbf_contains(g, &i, 8), 1);
    sbf_free(g);
    unlink(path);
    /* only parquet-layout filters take the form */
    sbf_filter *b = tu_make(SBF_BLOCKED, 0, 0, 4096, 4, 0);
    cr_assert_eq(sbf_encode(b, SBF_FORMAT_PARQUET, &buf, &len), SBF_E_UNSUPPORTED);
    cr_assert_null(buf);
    sbf_free(b);
    sbf_free(f);
}
