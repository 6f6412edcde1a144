/*
 * The DuckDB oracle's C side (tests/duckdb/run.sh drives it).
 *
 *   sbf-duckdb-check BASE...
 *     For each BASE.parquet written by DuckDB and its BASE.values
 *     (tests/duckdb/write.mjs): every chunk's filter, built by us from the
 *     chunk's distinct values at DuckDB's size, is byte-identical to
 *     DuckDB's (header and bitset, through sbf_export_parquet); DuckDB's
 *     filter, read through sbf_parquet_filter, finds every value.
 *
 *   sbf-duckdb-check --overwrite IN.parquet ROWGROUP COLUMN TYPE KEYS OUT.parquet
 *     Copies IN to OUT with that chunk's bitset replaced by our filter of
 *     KEYS (one value per line, in TYPE's text form: int32, int64, double,
 *     string) at the same size, so DuckDB's parquet_bloom_probe can be asked
 *     about our bits.
 *
 * Exit 0 when everything holds; messages name the first difference.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"

static int failures;

#define CHECK(c, ...)                                                   \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "duckdb-check: " __VA_ARGS__);              \
            fputc('\n', stderr);                                        \
            failures++;                                                 \
        }                                                               \
    } while (0)

static void die(const char *what, int code, const char *why)
{
    fprintf(stderr, "duckdb-check: %s: %s (%s)\n", what, sbf_strerror(code), why ? why : "");
    exit(1);
}

static size_t unhex(const char *hex, unsigned char *out, size_t cap)
{
    size_t n = 0;
    if (strcmp(hex, "-") == 0)
        return 0;
    for (; hex[2 * n] && hex[2 * n + 1] && n < cap; n++) {
        unsigned v;
        if (sscanf(hex + 2 * n, "%2x", &v) != 1)
            break;
        out[n] = (unsigned char)v;
    }
    return n;
}

/* The chunk of pq at (row group, path), or SIZE_MAX. */
static size_t find_chunk(const sbf_parquet *pq, unsigned rg, const char *path)
{
    const sbf_parquet_column *c;
    const size_t n = sbf_parquet_columns(pq, &c);
    for (size_t i = 0; i < n; i++)
        if (c[i].row_group == rg && strcmp(c[i].path, path) == 0)
            return i;
    return SIZE_MAX;
}

typedef struct chunk_state {
    size_t index;
    sbf_filter *ours, *theirs;
    void *raw;                  /* DuckDB's header + bitset */
    size_t raw_len, values;
    char name[1024];
} chunk_state;

static void finish_chunk(chunk_state *s)
{
    if (s->ours == NULL)
        return;
    void *buf;
    size_t len;
    const int e = sbf_export_parquet(s->ours, &buf, &len);
    CHECK(e == SBF_OK, "%s: export: %s", s->name, sbf_strerror(e));
    if (e == SBF_OK) {
        CHECK(len == s->raw_len && memcmp(buf, s->raw, len) == 0,
              "%s: our filter of its %zu values differs from DuckDB's", s->name, s->values);
        sbf_buffer_free(buf);
    }
    sbf_free(s->ours);
    sbf_free(s->theirs);
    free(s->raw);
    s->ours = s->theirs = NULL;
}

static size_t check_file(const char *base)
{
    char path[1024];
    snprintf(path, sizeof path, "%s.parquet", base);
    sbf_parquet *pq;
    const char *why = NULL;
    int e = sbf_parquet_open(&pq, path, &why);
    if (e != SBF_OK)
        die(path, e, why);
    snprintf(path, sizeof path, "%s.values", base);
    FILE *vf = fopen(path, "r");
    if (vf == NULL) {
        fprintf(stderr, "duckdb-check: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    char line[4096];
    chunk_state s;
    memset(&s, 0, sizeof s);
    size_t chunks = 0;
    while (fgets(line, sizeof line, vf)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "chunk ", 6) == 0) {
            finish_chunk(&s);
            unsigned rg;
            char col[256];
            if (sscanf(line, "chunk %u %255s", &rg, col) != 2)
                die(line, SBF_E_FORMAT, "bad chunk line");
            snprintf(s.name, sizeof s.name, "%s rg %u %s", base, rg, col);
            s.index = find_chunk(pq, rg, col);
            if (s.index == SIZE_MAX)
                die(s.name, SBF_E_PARAM, "chunk not in the footer");
            e = sbf_parquet_read_bloom(pq, s.index, &s.raw, &s.raw_len, &why);
            if (e != SBF_OK)
                die(s.name, e, why);
            e = sbf_parquet_filter(&s.theirs, pq, s.index, &why);
            if (e != SBF_OK)
                die(s.name, e, why);
            size_t data_len;
            (void)sbf_data(s.theirs, &data_len);
            struct sbf_info in;
            (void)sbf_info(s.theirs, &in);
            sbf_params p = {0};
            p.layout = SBF_PARQUET;
            p.bits = in.bits;
            e = sbf_create(&s.ours, &p);
            if (e != SBF_OK)
                die(s.name, e, "create");
            s.values = 0;
            chunks++;
            continue;
        }
        char hex[4096];
        if (s.ours == NULL || sscanf(line, "v %4095s", hex) != 1)
            die(line, SBF_E_FORMAT, "bad value line");
        unsigned char v[2048];
        const size_t n = unhex(hex, v, sizeof v);
        CHECK(sbf_add(s.ours, v, n) >= 0, "%s: add", s.name);
        CHECK(sbf_contains(s.theirs, v, n) == 1, "%s: DuckDB's filter misses value %s",
              s.name, hex);
        s.values++;
    }
    finish_chunk(&s);
    fclose(vf);
    sbf_parquet_close(pq);
    return chunks;
}

/* ------------------------------------------------------------ --overwrite */

/* A value's PLAIN encoding from its text form; 0 on a bad value. */
static size_t encode(const char *type, const char *text, unsigned char *out)
{
    char *end;
    errno = 0;
    if (strcmp(type, "string") == 0) {
        const size_t n = strlen(text);
        memcpy(out, text, n);
        return n == 0 ? (size_t)-1 : n; /* the empty string is a value too */
    }
    if (strcmp(type, "int64") == 0 || strcmp(type, "int32") == 0) {
        const long long v = strtoll(text, &end, 10);
        if (errno || *end || end == text)
            return 0;
        for (int i = 0; i < 8; i++)
            out[i] = (unsigned char)((unsigned long long)v >> (8 * i));
        return type[3] == '6' ? 8 : 4;
    }
    const double d = strtod(text, &end);
    if (errno || *end || end == text || strcmp(type, "double") != 0)
        return 0;
    memcpy(out, &d, 8);
    return 8;
}

static int overwrite(char **argv)
{
    const char *in = argv[0], *col = argv[2], *type = argv[3], *keys = argv[4], *out = argv[5];
    const unsigned rg = (unsigned)strtoul(argv[1], NULL, 10);
    sbf_parquet *pq;
    const char *why = NULL;
    int e = sbf_parquet_open(&pq, in, &why);
    if (e != SBF_OK)
        die(in, e, why);
    const size_t ci = find_chunk(pq, rg, col);
    if (ci == SIZE_MAX)
        die(col, SBF_E_PARAM, "no such chunk");
    const sbf_parquet_column *cols;
    (void)sbf_parquet_columns(pq, &cols);
    sbf_filter *theirs, *ours;
    if ((e = sbf_parquet_filter(&theirs, pq, ci, &why)) != SBF_OK)
        die(in, e, why);
    struct sbf_info info;
    (void)sbf_info(theirs, &info);
    sbf_params p = {0};
    p.layout = SBF_PARQUET;
    p.bits = info.bits;
    if ((e = sbf_create(&ours, &p)) != SBF_OK)
        die("create", e, NULL);
    FILE *kf = fopen(keys, "r");
    if (kf == NULL)
        die(keys, SBF_E_IO, strerror(errno));
    char line[4096];
    unsigned char v[4096];
    while (fgets(line, sizeof line, kf)) {
        line[strcspn(line, "\n")] = '\0';
        size_t n = encode(type, line, v);
        if (n == 0)
            die(line, SBF_E_PARAM, "bad value");
        (void)sbf_add(ours, v, n == (size_t)-1 ? 0 : n);
    }
    fclose(kf);
    void *form;
    size_t flen;
    if ((e = sbf_export_parquet(ours, &form, &flen)) != SBF_OK)
        die("export", e, NULL);
    /* the whole file, with our header + bitset at the chunk's offset */
    FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");
    if (fi == NULL || fo == NULL)
        die(out, SBF_E_IO, strerror(errno));
    int c;
    long pos = 0;
    while ((c = fgetc(fi)) != EOF) {
        const long at = pos - (long)cols[ci].bloom_offset;
        fputc(at >= 0 && (size_t)at < flen ? ((unsigned char *)form)[at] : c, fo);
        pos++;
    }
    fclose(fi);
    if (fclose(fo) != 0)
        die(out, SBF_E_IO, strerror(errno));
    sbf_buffer_free(form);
    sbf_free(ours);
    sbf_free(theirs);
    sbf_parquet_close(pq);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 8 && strcmp(argv[1], "--overwrite") == 0)
        return overwrite(argv + 2);
    if (argc < 2) {
        fprintf(stderr, "usage: sbf-duckdb-check BASE... | --overwrite IN RG COLUMN TYPE KEYS OUT\n");
        return 2;
    }
    size_t chunks = 0;
    for (int i = 1; i < argc; i++)
        chunks += check_file(argv[i]);
    printf("duckdb-check: %zu chunks: %s\n", chunks, failures ? "DIFFERENCES" : "our filters are "
           "byte-identical to DuckDB's, and DuckDB's find every value");
    return failures != 0;
}
