/*
 * Parquet pieces: the Thrift compact-protocol reader and writer, the
 * BloomFilterHeader, the footer walk, and the filters of a file DuckDB
 * wrote (tests/vectors/duckdb_small.parquet, made by
 * `node tests/duckdb/write.mjs DIR small`; its .values file lists each
 * chunk's distinct values in their PLAIN encoding). The spec's algorithm is
 * written out here once more, independently of the library, as the
 * reference the DuckDB bytes are compared with.
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include "parquet_int.h"
#include "thrift.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ------------------------------------------------------------------ Thrift */

Test(thrift, varints, .description = "varints, zigzag i32/i64, their limits")
{
    const unsigned char b[] = {0xdf, 0x89, 0x03,                 /* 50399 */
                               0x01, 0x02,                       /* -1, 1 */
                               0xfe, 0xff, 0xff, 0xff, 0x0f,     /* INT32_MAX */
                               0xff, 0xff, 0xff, 0xff, 0x0f,     /* INT32_MIN */
                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    sbfi_tr r;
    sbfi_tr_init(&r, b, sizeof b);
    uint64_t v;
    int32_t i;
    int64_t l;
    cr_assert_eq(sbfi_tr_varint(&r, &v), 0);
    cr_assert_eq(v, 50399);
    cr_assert_eq(sbfi_tr_i32(&r, &i), 0);
    cr_assert_eq(i, -1);
    cr_assert_eq(sbfi_tr_i32(&r, &i), 0);
    cr_assert_eq(i, 1);
    cr_assert_eq(sbfi_tr_i32(&r, &i), 0);
    cr_assert_eq(i, INT32_MAX);
    cr_assert_eq(sbfi_tr_i32(&r, &i), 0);
    cr_assert_eq(i, INT32_MIN);
    cr_assert_eq(sbfi_tr_i64(&r, &l), 0);
    cr_assert_eq(l, INT64_MIN);
    cr_assert_eq(r.p, r.end);
    cr_assert_eq(sbfi_tr_varint(&r, &v), -1);
    cr_assert(r.eof);

    const unsigned char big[] = {0x80, 0x80, 0x80, 0x80, 0x10}; /* 2^32: too big for i32 */
    sbfi_tr_init(&r, big, sizeof big);
    cr_assert_eq(sbfi_tr_i32(&r, &i), -1);
    cr_assert(!r.eof && r.why != NULL);
    const unsigned char over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    sbfi_tr_init(&r, over, sizeof over);
    cr_assert_eq(sbfi_tr_varint(&r, &v), -1);
    const unsigned char eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                    0x80, 0x00};
    sbfi_tr_init(&r, eleven, sizeof eleven);
    cr_assert_eq(sbfi_tr_varint(&r, &v), -1);
}

Test(thrift, writer_round_trip, .description = "fields short and long form, i32s")
{
    unsigned char buf[64];
    int16_t last = 0;
    size_t at = sbfi_tw_field(buf, 0, sizeof buf, &last, 1, SBFI_TT_I32);
    at = sbfi_tw_i32(buf, at, sizeof buf, -123456);
    at = sbfi_tw_field(buf, at, sizeof buf, &last, 40, SBFI_TT_I32); /* delta 39: long form */
    at = sbfi_tw_i32(buf, at, sizeof buf, INT32_MAX);
    at = sbfi_tw_field(buf, at, sizeof buf, &last, 41, SBFI_TT_TRUE);
    at = sbfi_tw_byte(buf, at, sizeof buf, 0);
    cr_assert_neq(at, SIZE_MAX);
    sbfi_tr r;
    sbfi_tr_init(&r, buf, at);
    sbfi_tr_field f = {0, 0, 0};
    int32_t v;
    cr_assert_eq(sbfi_tr_field_next(&r, &f), 0);
    cr_assert(f.id == 1 && f.type == SBFI_TT_I32);
    cr_assert_eq(sbfi_tr_i32(&r, &v), 0);
    cr_assert_eq(v, -123456);
    cr_assert_eq(sbfi_tr_field_next(&r, &f), 0);
    cr_assert(f.id == 40 && f.type == SBFI_TT_I32);
    cr_assert_eq(sbfi_tr_i32(&r, &v), 0);
    cr_assert_eq(v, INT32_MAX);
    cr_assert_eq(sbfi_tr_field_next(&r, &f), 0);
    cr_assert(f.id == 41 && f.type == SBFI_TT_TRUE);
    cr_assert_eq(sbfi_tr_field_next(&r, &f), 0);
    cr_assert_eq(f.type, SBFI_TT_STOP);
    /* a writer that runs out of room says so */
    last = 0;
    cr_assert_eq(sbfi_tw_i32(buf, sbfi_tw_field(buf, 0, 1, &last, 1, SBFI_TT_I32), 1, 1000),
                 SIZE_MAX);
}

Test(thrift, skip_bounds, .description = "lists bounded by the bytes left, nesting by the depth limit")
{
    sbfi_tr r;
    /* a list announcing 1000 i32s in 3 bytes */
    const unsigned char longlist[] = {0xf5, 0xe8, 0x07, 0x00};
    sbfi_tr_init(&r, longlist, sizeof longlist);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_LIST, 0), -1);
    cr_assert(r.eof);
    /* a list of 3 bools (one byte each as elements), then an empty map, a double, a uuid */
    const unsigned char ok[] = {0x31, 1, 0, 2, 0x00, 1, 2, 3, 4, 5, 6, 7, 8,
                                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    sbfi_tr_init(&r, ok, sizeof ok);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_LIST, 0), 0);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_MAP, 0), 0);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_DOUBLE, 0), 0);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_UUID, 0), 0);
    cr_assert_eq(r.p, r.end);
    /* structs nested deeper than the limit: field 1 struct, field 1 struct, ... */
    unsigned char deep[2 * SBFI_TR_MAX_DEPTH + 8];
    memset(deep, 0x1c, sizeof deep);
    sbfi_tr_init(&r, deep, sizeof deep);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_STRUCT, 0), -1);
    cr_assert(!r.eof);
    cr_assert_str_eq(r.why, "thrift: nested deeper than the reader allows");
    /* nested exactly to the limit is fine */
    unsigned char edge[2 * SBFI_TR_MAX_DEPTH];
    memset(edge, 0x1c, SBFI_TR_MAX_DEPTH - 1);
    memset(edge + SBFI_TR_MAX_DEPTH - 1, 0, SBFI_TR_MAX_DEPTH);
    sbfi_tr_init(&r, edge, 2 * SBFI_TR_MAX_DEPTH - 1);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_STRUCT, 0), 0, "%s", r.why);
    /* a map announcing more pairs than bytes */
    const unsigned char bigmap[] = {0x64, 0x55, 0x02, 0x02};
    sbfi_tr_init(&r, bigmap, sizeof bigmap);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_MAP, 0), -1);
    /* unknown types */
    const unsigned char bad[] = {0x0e};
    sbfi_tr_init(&r, bad, sizeof bad);
    cr_assert_eq(sbfi_tr_skip(&r, SBFI_TT_STRUCT, 0), -1);
}

/* ------------------------------------------------------ BloomFilterHeader */

/* DuckDB's header for a 1024-byte bitset (tests/vectors/duckdb_small.parquet). */
static const unsigned char duck1024[] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                         0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};

Test(pq_header, write_matches_duckdb, .description = "our header bytes are DuckDB's")
{
    unsigned char h[SBFI_PQ_HEADER_MAX];
    cr_assert_eq(sbfi_pq_header_write(h, 1024), sizeof duck1024);
    cr_assert_arr_eq(h, duck1024, sizeof duck1024);
    const uint32_t sizes[] = {32, 256, 8192, 1u << 20, 128u << 20, 0x7fffffe0u};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const size_t n = sbfi_pq_header_write(h, sizes[i]);
        cr_assert(n <= SBFI_PQ_HEADER_MAX);
        size_t hl;
        uint32_t nb;
        cr_assert_eq(sbfi_pq_header_parse(h, n, &hl, &nb, NULL), SBF_OK);
        cr_assert(hl == n && nb == sizes[i]);
        /* every shorter prefix is truncated */
        for (size_t cut = 0; cut < n; cut++)
            cr_assert_eq(sbfi_pq_header_parse(h, cut, &hl, &nb, NULL), SBF_E_TRUNCATED,
                         "size %u cut %zu", sizes[i], cut);
    }
}

static int parse(const unsigned char *h, size_t n, const char **why)
{
    size_t hl;
    uint32_t nb;
    return sbfi_pq_header_parse(h, n, &hl, &nb, why);
}

Test(pq_header, refused, .description = "hostile or foreign headers get their code and reason")
{
    unsigned char h[sizeof duck1024 + 8];
    const char *why = NULL;
    memcpy(h, duck1024, sizeof duck1024);
    h[4] = 0x2c; /* algorithm member 2, unknown */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_UNSUPPORTED);
    cr_assert_str_eq(why, "parquet: Bloom filter algorithm is not BLOCK (split-block)");
    memcpy(h, duck1024, sizeof duck1024);
    h[8] = 0x2c; /* hash member 2 */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_UNSUPPORTED);
    cr_assert_str_eq(why, "parquet: Bloom filter hash is not XXHASH");
    memcpy(h, duck1024, sizeof duck1024);
    h[12] = 0x2c; /* compression member 2 */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_UNSUPPORTED);
    memcpy(h, duck1024, sizeof duck1024);
    h[1] = 0x81; /* zigzag 1025 -> -513 */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_FORMAT);
    h[1] = 0x82; /* 1025: not a multiple of 32 */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_FORMAT);
    cr_assert_str_eq(why, "parquet: Bloom filter size is not a positive multiple of 32 bytes");
    memcpy(h, duck1024, sizeof duck1024);
    h[0] = 0x16; /* numBytes as i64: wrong type */
    cr_assert_eq(parse(h, sizeof duck1024, &why), SBF_E_FORMAT);
    /* a missing field: drop the compression member */
    const unsigned char three[] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                   0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(parse(three, sizeof three, &why), SBF_E_FORMAT);
    cr_assert_str_eq(why, "parquet: the Bloom filter header lacks a required field");
    /* an unknown extra field (id 9, binary "ab") is skipped */
    const unsigned char extra[] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00,
                                   0x00, 0x1c, 0x1c, 0x00, 0x00, 0x58, 0x02, 'a', 'b', 0x00};
    cr_assert_eq(parse(extra, sizeof extra, &why), SBF_OK);
    /* a union with two members */
    const unsigned char two[] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x1c, 0x00, 0x00, 0x1c,
                                 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(parse(two, sizeof two, &why), SBF_E_FORMAT);
}

/* ------------------------------------------------------------- the footer */

typedef struct expect_chunk {
    unsigned rg;
    char path[64], type[32];
    long long off, len;
} expect_chunk;

static int type_id(const char *name)
{
    static const char *const names[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT",
                                        "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    for (int i = 0; i < 8; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static const uint32_t spec_salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                      0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

/* BloomFilter.md's filter_insert, written out once more. */
static void spec_insert(unsigned char *bitset, uint32_t num_bytes, uint64_t h)
{
    const uint64_t z = num_bytes / 32;
    const uint64_t block = ((h >> 32) * z) >> 32;
    for (int i = 0; i < 8; i++) {
        const uint32_t bit = (uint32_t)((uint32_t)h * spec_salt[i]) >> 27;
        bitset[block * 32 + (size_t)i * 4 + bit / 8] |= (unsigned char)(1u << (bit % 8));
    }
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

Test(pq_file, duckdb_small, .description = "footer walk and every filter byte-exact against the spec")
{
    size_t flen;
    unsigned char *file = tu_read_vector("duckdb_small.parquet", &flen);
    sbf_parquet *pq;
    const char *why = "";
    cr_assert_eq(sbf_parquet_open_mem(&pq, file, flen, &why), SBF_OK, "%s", why);
    const sbf_parquet_column *cols;
    const size_t ncols = sbf_parquet_columns(pq, &cols);
    cr_assert_eq(ncols, 12);
    cr_assert_eq(sbf_parquet_row_groups(pq), 3);
    FILE *vf = tu_open_vector("duckdb_small.values", "r");
    char line[512];
    size_t ci = SIZE_MAX, chunks = 0, values = 0;
    unsigned char *bloom = NULL, *mine = NULL;
    size_t blen = 0;
    uint32_t nb = 0;
    for (int more = 1; more;) {
        more = tu_next_line(vf, line, sizeof line);
        if ((!more || strncmp(line, "chunk ", 6) == 0) && bloom != NULL) {
            cr_assert_arr_eq(bloom + blen - nb, mine, nb, "chunk %zu differs from the spec", ci);
            free(bloom);
            free(mine);
            bloom = NULL;
            chunks++;
        }
        if (!more)
            break;
        if (strncmp(line, "chunk ", 6) == 0) {
            expect_chunk e;
            cr_assert_eq(sscanf(line, "chunk %u %63s %31s %lld %lld", &e.rg, e.path, e.type,
                                &e.off, &e.len), 5);
            ci = chunks;
            cr_assert_lt(ci, ncols);
            cr_assert_eq(cols[ci].row_group, e.rg);
            cr_assert_eq(cols[ci].column, ci % 4);
            cr_assert_str_eq(cols[ci].path, e.path);
            cr_assert_eq(cols[ci].type, type_id(e.type));
            cr_assert_eq(cols[ci].bloom_offset, e.off);
            cr_assert_eq(cols[ci].bloom_length, e.len);
            cr_assert_str_eq(sbf_parquet_column_name(pq, ci), e.path); /* plain names */
            uint64_t xo, xb;
            cr_assert_eq(sbf_parquet_bloom_extent(pq, ci, &xo, &xb, &why), SBF_OK, "%s", why);
            cr_assert_eq(xo, (uint64_t)e.off);
            cr_assert_eq(xb, (uint64_t)e.len);
            void *b;
            cr_assert_eq(sbf_parquet_read_bloom(pq, ci, &b, &blen, &why), SBF_OK, "%s", why);
            bloom = b;
            size_t hl;
            cr_assert_eq(sbfi_pq_header_parse(bloom, blen, &hl, &nb, &why), SBF_OK);
            cr_assert_eq(hl + nb, (size_t)e.len);
            mine = calloc(1, nb);
            continue;
        }
        char hex[256];
        cr_assert_eq(sscanf(line, "v %255s", hex), 1);
        unsigned char v[128];
        const size_t n = unhex(hex, v, sizeof v);
        spec_insert(mine, nb, XXH64(v, n, 0));
        values++;
    }
    fclose(vf);
    cr_assert_eq(chunks, 12);
    cr_assert_gt(values, 1000);
    sbf_parquet_close(pq);
    free(file);
}

Test(pq_file, names_apart, .description = "a top-level 'a.b' and field b of struct a get "
     "different names; control bytes and backslashes are escaped")
{
    static const unsigned char foot[] = {
        0x49, 0x1c,                     /* FileMetaData 4: row_groups, 1 struct */
        0x19, 0x3c,                     /* RowGroup 1: columns, 3 structs */
        0x3c, 0x15, 0x0c, 0x29, 0x18, 3, 'a', '.', 'b', 0x00, 0x00,
        0x3c, 0x15, 0x0c, 0x29, 0x28, 1, 'a', 1, 'b', 0x00, 0x00,
        0x3c, 0x15, 0x0c, 0x29, 0x28, 3, 'x', '\n', 'y', 3, 'c', '\\', 'd', 0x00, 0x00,
        0x00, 0x00};
    unsigned char file[4 + sizeof foot + 8];
    memcpy(file, "PAR1", 4);
    memcpy(file + 4, foot, sizeof foot);
    const uint32_t fl = sizeof foot;
    memcpy(file + 4 + sizeof foot, &fl, 4); /* little-endian hosts only, as the library */
    memcpy(file + 8 + sizeof foot, "PAR1", 4);
    sbf_parquet *pq;
    const char *why = "";
    cr_assert_eq(sbf_parquet_open_mem(&pq, file, sizeof file, &why), SBF_OK, "%s", why);
    const sbf_parquet_column *c;
    cr_assert_eq(sbf_parquet_columns(pq, &c), 3);
    cr_assert_str_eq(c[0].path, "a.b");
    cr_assert_str_eq(c[1].path, "a.b"); /* the joined path collides ... */
    cr_assert_str_eq(sbf_parquet_column_name(pq, 0), "a\\.b"); /* ... the name does not */
    cr_assert_str_eq(sbf_parquet_column_name(pq, 1), "a.b");
    cr_assert_str_eq(c[2].path, "x\ny.c\\d");
    cr_assert_str_eq(sbf_parquet_column_name(pq, 2), "x\\x0ay.c\\\\d");
    cr_assert_null(sbf_parquet_column_name(pq, 3));
    cr_assert_null(sbf_parquet_column_name(NULL, 0));
    uint64_t off = 1, bytes = 1;
    cr_assert_eq(sbf_parquet_bloom_extent(pq, 0, &off, &bytes, &why), SBF_E_PARAM);
    cr_assert_eq(off, 0);
    cr_assert_eq(bytes, 0);
    cr_assert_eq(sbf_parquet_bloom_extent(pq, 0, NULL, &bytes, NULL), SBF_E_NULL);
    sbf_parquet_close(pq);
}

Test(pq_file, refused, .description = "files the reader does not understand are refused with a reason")
{
    size_t flen;
    unsigned char *file = tu_read_vector("duckdb_small.parquet", &flen);
    unsigned char *c = malloc(flen);
    sbf_parquet *pq = (sbf_parquet *)&pq;
    const char *why = NULL;
    cr_assert_eq(sbf_parquet_open_mem(&pq, file, 11, &why), SBF_E_TRUNCATED);
    cr_assert_null(pq);
    memcpy(c, file, flen);
    memcpy(c + flen - 4, "PARE", 4);
    cr_assert_eq(sbf_parquet_open_mem(&pq, c, flen, &why), SBF_E_UNSUPPORTED);
    cr_assert_str_eq(why, "parquet: encrypted footer (PARE) is not supported");
    memcpy(c, file, flen);
    c[0] = 'X';
    cr_assert_eq(sbf_parquet_open_mem(&pq, c, flen, &why), SBF_E_FORMAT);
    memcpy(c, file, flen);
    c[flen - 5] = 0x7f; /* footer length beyond the file */
    cr_assert_eq(sbf_parquet_open_mem(&pq, c, flen, &why), SBF_E_FORMAT);
    cr_assert_str_eq(why, "parquet: footer length exceeds the file");
    /* every single-byte change of the footer: refused or read, never a crash */
    const uint32_t fl = (uint32_t)file[flen - 8] | (uint32_t)file[flen - 7] << 8 |
                        (uint32_t)file[flen - 6] << 16 | (uint32_t)file[flen - 5] << 24;
    size_t refused = 0;
    for (size_t at = flen - 8 - fl; at < flen - 8; at++) {
        memcpy(c, file, flen);
        c[at] ^= 0x5a;
        const int e = sbf_parquet_open_mem(&pq, c, flen, &why);
        cr_assert(e == SBF_OK || e == SBF_E_FORMAT || e == SBF_E_TRUNCATED, "%d", e);
        if (e != SBF_OK) {
            refused++;
            cr_assert_null(pq);
            continue;
        }
        const sbf_parquet_column *cols;
        const size_t n = sbf_parquet_columns(pq, &cols);
        for (size_t i = 0; i < n; i++) {
            void *b;
            size_t len;
            const int r = sbf_parquet_read_bloom(pq, i, &b, &len, &why);
            cr_assert(r == SBF_OK || r == SBF_E_PARAM || r == SBF_E_FORMAT ||
                      r == SBF_E_TRUNCATED || r == SBF_E_UNSUPPORTED, "%d", r);
            free(b);
        }
        sbf_parquet_close(pq);
    }
    cr_assert_gt(refused, fl / 4);
    cr_assert_eq(sbf_parquet_open(&pq, "/nonexistent/x.parquet", &why), SBF_E_IO);
    cr_assert_eq(sbf_parquet_open(&pq, "/", &why), SBF_E_IO);
    free(c);
    free(file);
}

/* Child: sbf_parquet_open of each not-regular path answers at once with
 * SBF_E_IO, the errno, *out NULL and a reason; a bit per failed check. */
static int open_refused(const char *const *paths, const int *errnos, int n)
{
    alarm(30); /* a blocked open() ends the child by SIGALRM */
    int bad = 0;
    for (int i = 0; i < n; i++) {
        sbf_parquet *pq = (sbf_parquet *)&bad;
        const char *why = NULL;
        errno = 0;
        const int rc = sbf_parquet_open(&pq, paths[i], &why);
        bad |= (rc != SBF_E_IO || errno != errnos[i] || pq != NULL || why == NULL) << i;
        if (rc == SBF_OK)
            sbf_parquet_close(pq);
    }
    return bad;
}

Test(pq_file, fifo_refused_without_blocking, .timeout = 60,
     .description = "issue 20: sbf_parquet_open answers SBF_E_IO/EINVAL for a FIFO (and a link to one) at once, where open() blocked; EISDIR for a directory")
{
    char dir[256], fifo[512], link[512];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/sbf-pq-XXXXXX", t && *t ? t : "/tmp");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    snprintf(fifo, sizeof fifo, "%s/p.parquet", dir);
    snprintf(link, sizeof link, "%s/l.parquet", dir);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    cr_assert_eq(symlink("p.parquet", link), 0);
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        const char *const paths[] = { fifo, link, dir };
        const int errnos[] = { EINVAL, EINVAL, EISDIR };
        _exit(open_refused(paths, errnos, 3));
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    unlink(link);
    unlink(fifo);
    rmdir(dir);
    cr_assert(WIFEXITED(st), "the child was killed (signal %d): sbf_parquet_open blocked",
              WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    cr_assert_eq(WEXITSTATUS(st), 0, "failed checks (bit per path: fifo, link, dir): %#x",
                 WEXITSTATUS(st));
}
