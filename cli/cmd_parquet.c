/*
 * sbf parquet list|extract|query: the Bloom filters inside .parquet files.
 * The reading (footer walk, filter header checks) is the library's
 * (sbf_parquet_*); this file only prints.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const help_parquet =
    "usage: sbf parquet list FILE.parquet [--json]\n"
    "       sbf parquet extract FILE.parquet --column PATH --row-group N OUT.sbf\n"
    "       sbf parquet query FILE.parquet --column PATH " KEY_SYNOPSIS " [KEYFILE|-]\n"
    "\n"
    "list: every column chunk with a Bloom filter: row group, column path,\n"
    "offset and bytes of the filter (header + bitset) in the file, the fill\n"
    "(set bits / bits) and the false-positive rate estimated from its bits.\n"
    "extract: one chunk's filter as a parquet-layout filter in our format.\n"
    "query: one line per key, in input order: the row groups whose filter may\n"
    "hold it, joined by ',' ('-' when none may): what a reader's row-group\n"
    "pruning keeps (a row group without a filter may hold anything). --type\n"
    "defaults to the column's physical type (INT32 int32, INT64 int64, FLOAT\n"
    "float, DOUBLE double, BYTE_ARRAY string); keys are hashed once (XXH64 of\n"
    "the PLAIN encoding, as Parquet writers do) and probed in every row group.\n"
    KEY_HELP;

/* The file, or a clear reason. */
static sbf_parquet *open_pq(const char *path)
{
    sbf_parquet *pq;
    const char *why = NULL;
    const int rc = sbf_parquet_open(&pq, path, &why);
    if (rc == SBF_E_IO)
        fail("%s: %s", path, strerror(errno));
    if (rc != SBF_OK)
        fail("%s: %s (%s)", path, why ? why : "refused", sbf_strerror(rc));
    return pq;
}

static sbf_filter *chunk_filter(const sbf_parquet *pq, const char *path, size_t i)
{
    sbf_filter *f;
    const char *why = NULL;
    const int rc = sbf_parquet_filter(&f, pq, i, &why);
    if (rc != SBF_OK)
        fail("%s: chunk %zu: %s (%s)", path, i, why ? why : "refused", sbf_strerror(rc));
    return f;
}

static int cmd_list(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --json ", help_parquet, 1, 1, &a);
    const int json = opt_flag(&a, "--json");
    sbf_parquet *pq = open_pq(a.pos[0]);
    const sbf_parquet_column *c;
    const size_t n = sbf_parquet_columns(pq, &c);
    if (json)
        printf("[");
    else
        printf("%-9s %-24s %12s %10s %8s %12s\n", "row_group", "column", "offset", "bytes",
               "fill", "est_fpp");
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (c[i].bloom_offset < 0)
            continue;
        void *raw;
        size_t bytes;
        const char *why = NULL;
        sbf_filter *f;
        int rc = sbf_parquet_read_bloom(pq, i, &raw, &bytes, &why);
        if (rc == SBF_OK) {
            rc = sbf_import_parquet(&f, raw, bytes);
            free(raw);
        }
        if (rc != SBF_OK)
            fail("%s: row group %u, column %s: %s (%s)", a.pos[0], c[i].row_group, c[i].path,
                 why ? why : "refused", sbf_strerror(rc));
        struct sbf_info in;
        (void)sbf_info(f, &in);
        const double est = sbf_fpp_estimate(f);
        if (json) {
            printf("%s\n {\"row_group\": %u, \"column\": ", first ? "" : ",", c[i].row_group);
            json_string(c[i].path);
            printf(", \"offset\": %lld, \"bytes\": %zu, \"bitset_bytes\": %llu, \"fill\": ",
                   (long long)c[i].bloom_offset, bytes, (unsigned long long)(in.bits / 8));
            json_double(in.fill_ratio);
            printf(", \"est_fpp\": ");
            json_double(est);
            printf("}");
        } else {
            printf("%-9u %-24s %12lld %10zu %8.4f %12.4g\n", c[i].row_group, c[i].path,
                   (long long)c[i].bloom_offset, bytes, in.fill_ratio, est);
        }
        first = 0;
        sbf_free(f);
    }
    if (json)
        printf("%s]\n", first ? "" : "\n");
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    sbf_parquet_close(pq);
    return 0;
}

/* The chunks of `column` with a filter; row group r's index in *idx[r] or
 * SIZE_MAX. Exits when the column has no chunk at all. */
static size_t *column_chunks(const sbf_parquet *pq, const char *file, const char *column,
                             int *type)
{
    const sbf_parquet_column *c;
    const size_t n = sbf_parquet_columns(pq, &c);
    const uint32_t groups = sbf_parquet_row_groups(pq);
    size_t *idx = malloc((groups ? groups : 1) * sizeof *idx);
    if (idx == NULL)
        fail("out of memory");
    int found = 0;
    for (uint32_t r = 0; r < groups; r++)
        idx[r] = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (strcmp(c[i].path, column) == 0) {
            found = 1;
            *type = c[i].type;
            if (c[i].bloom_offset >= 0)
                idx[c[i].row_group] = i;
        }
    if (!found)
        fail("%s: no column '%s'", file, column);
    return idx;
}

static int cmd_extract(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --column= --row-group= ", help_parquet, 2, 2, &a);
    const char *column = opt_val(&a, "--column"), *rg_s = opt_val(&a, "--row-group");
    if (column == NULL || rg_s == NULL)
        usage_error("parquet extract: --column and --row-group are required");
    const uint64_t rg = parse_u64_arg("--row-group", rg_s);
    sbf_parquet *pq = open_pq(a.pos[0]);
    int type;
    size_t *idx = column_chunks(pq, a.pos[0], column, &type);
    if (rg >= sbf_parquet_row_groups(pq))
        fail("%s: no row group %llu (the file has %u)", a.pos[0], (unsigned long long)rg,
             sbf_parquet_row_groups(pq));
    if (idx[rg] == SIZE_MAX)
        fail("%s: column '%s' has no Bloom filter in row group %llu", a.pos[0], column,
             (unsigned long long)rg);
    sbf_filter *f = chunk_filter(pq, a.pos[0], idx[rg]);
    save(f, a.pos[1]);
    size_t bytes;
    (void)sbf_data(f, &bytes);
    printf("%s: row group %llu, column %s: %zu-byte filter, estimated rate %.4g\n", a.pos[1],
           (unsigned long long)rg, column, bytes, sbf_fpp_estimate(f));
    sbf_free(f);
    free(idx);
    sbf_parquet_close(pq);
    return 0;
}

/* ------------------------------------------------------------------ query */

/* The key type for a column's physical type, when --type is not given. */
static int key_type_of(int pq_type, const char *column)
{
    switch (pq_type) {
    case SBF_PQ_INT32: return KEY_INT32;
    case SBF_PQ_INT64: return KEY_INT64;
    case SBF_PQ_FLOAT: return KEY_FLOAT;
    case SBF_PQ_DOUBLE: return KEY_DOUBLE;
    case SBF_PQ_BYTE_ARRAY:
    case SBF_PQ_FIXED_LEN_BYTE_ARRAY: return KEY_STRING;
    default: fail("column '%s': no --type matches its physical type; give one", column);
    }
}

/* Appends one answer line (the row groups whose filter may hold key i, or
 * '-') to out, which has room for it. */
static size_t answer(char *out, const uint8_t *const *res, size_t i, uint32_t groups)
{
    char *p = out;
    for (uint32_t r = 0; r < groups; r++)
        if (res[r][i])
            p += sprintf(p, p == out ? "%u" : ",%u", r);
    if (p == out)
        *p++ = '-';
    *p++ = '\n';
    return (size_t)(p - out);
}

static int cmd_pq_query(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --column= " KEY_OPTS, help_parquet, 1, 2, &a);
    const char *column = opt_val(&a, "--column");
    if (column == NULL)
        usage_error("parquet query: --column is required");
    int binary;
    int type = key_options(&a, &binary);
    sbf_parquet *pq = open_pq(a.pos[0]);
    int pq_type = -1;
    size_t *idx = column_chunks(pq, a.pos[0], column, &pq_type);
    if (opt_val(&a, "--type") == NULL && !opt_flag(&a, "--u64"))
        type = key_type_of(pq_type, column);
    const uint32_t groups = sbf_parquet_row_groups(pq);
    sbf_filter **f = calloc(groups ? groups : 1, sizeof *f);
    uint8_t **res = calloc(groups ? groups : 1, sizeof *res);
    uint64_t *h = malloc(BATCH * sizeof *h);
    char *out = malloc(BATCH * ((size_t)groups * 11 + 2));
    if (!f || !res || !h || !out)
        fail("out of memory");
    for (uint32_t r = 0; r < groups; r++) {
        if ((res[r] = malloc(BATCH)) == NULL)
            fail("out of memory");
        if (idx[r] != SIZE_MAX)
            f[r] = chunk_filter(pq, a.pos[0], idx[r]);
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL, type, binary);
    progress pg;
    progress_start(&pg);
    size_t n;
    while ((n = kr_next(&kr)) > 0) {
        /* hash once (XXH64 in SIMD lanes), probe every row group's filter */
        if (kr.words)
            sbf_xxh64_u64(kr.u, n, h);
        else if (sbf_xxh64_batch(kr.keys, kr.lens, n, h) != SBF_OK)
            fail("%s: hashing failed", kr.name);
        for (uint32_t r = 0; r < groups; r++) {
            if (f[r] == NULL) /* no filter: the row group may hold anything */
                memset(res[r], 1, n);
            else if (sbf_is_error(sbf_contains_xxh64(f[r], h, n, res[r])))
                fail("%s: query failed", a.pos[0]);
        }
        size_t used = 0;
        for (size_t i = 0; i < n; i++)
            used += answer(out + used, (const uint8_t *const *)res, i, groups);
        if (fwrite(out, 1, used, stdout) != used)
            fail("standard output: %s", strerror(errno));
        progress_tick(&pg, &kr, "queried");
    }
    progress_end(&pg);
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    kr_close(&kr);
    for (uint32_t r = 0; r < groups; r++) {
        sbf_free(f[r]);
        free(res[r]);
    }
    free(f);
    free(res);
    free(h);
    free(out);
    free(idx);
    sbf_parquet_close(pq);
    return 0;
}

int cmd_parquet(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
        if (argc >= 3)
            print_help(help_parquet);
        usage_error("parquet: give list, extract or query");
    }
    /* the subcommand takes the place of the command's name */
    if (strcmp(argv[2], "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(argv[2], "extract") == 0)
        return cmd_extract(argc - 1, argv + 1);
    if (strcmp(argv[2], "query") == 0)
        return cmd_pq_query(argc - 1, argv + 1);
    usage_error("parquet: unknown subcommand '%s' (list, extract, query)", argv[2]);
}
