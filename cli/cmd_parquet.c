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
    "usage: sbf parquet list FILE.parquet [--json] [--max-filter-bytes SIZE]\n"
    "       sbf parquet extract FILE.parquet COLUMN --row-group N OUT.sbf\n"
    "       sbf parquet query FILE.parquet COLUMN " KEY_SYNOPSIS " [KEYFILE|-]\n"
    "COLUMN is --column NAME or --column-index I.\n"
    "\n"
    "list: every column chunk with a Bloom filter: row group, column name,\n"
    "offset and bytes of the filter (header + bitset) in the file, the fill\n"
    "(set bits / bits) and the false-positive rate estimated from its bits.\n"
    "A name is the column's schema path joined with '.', a '.' or '\\' in one\n"
    "segment escaped with '\\' and control bytes as \\xHH: the top-level column\n"
    "\"a.b\" is a\\.b, field b of struct a is a.b. --column takes that form; a\n"
    "NAME that could mean two columns is refused (give --column-index I, the\n"
    "column's place in its row group, which the message and --json show).\n"
    "extract: one chunk's filter as a parquet-layout filter in our format.\n"
    "query: one line per key, in input order: the row groups whose filter may\n"
    "hold it, in brackets, joined by ',' ([0,2]; [] when none may): what a\n"
    "reader's row-group pruning keeps (a row group without a filter for the\n"
    "column may hold anything; a column with no filter at all is refused).\n"
    "--type defaults to the column's physical type (INT32 int32, INT64 int64,\n"
    "FLOAT float, DOUBLE double, BYTE_ARRAY string); keys are hashed once\n"
    "(XXH64 of the PLAIN encoding, as Parquet writers do) and probed in every\n"
    "row group. A filter above 128 MiB (Parquet writers' cap) is refused unless\n"
    "--max-filter-bytes SIZE (e.g. 1Gi) allows it; filters several chunks\n"
    "share are read once, and filters that overlap in the file are refused.\n"
    KEY_HELP;

#define MAX_FILTER_DEFAULT (UINT64_C(128) << 20) /* parquet-java's, Arrow's cap */
#define NO_FILTER UINT32_MAX                     /* a row group that may hold anything */
#define RES_BUDGET ((size_t)1 << 20)             /* bytes of answers per step */

/* The file being read, and what a failure must still reach at exit (file
 * scope: nothing a failing exit leaves behind is a leak). */
static struct pqctx {
    sbf_parquet *pq;
    const char *path;
    const sbf_parquet_column *c;
    size_t n;
    uint32_t groups;
    uint64_t max_filter;
    size_t *sel;        /* chunks chosen */
    uint32_t *fid;      /* per chosen chunk: its filter's id */
    struct ext *ext;    /* distinct filters */
    size_t nsel, nd;
    size_t col_chunk;   /* a chunk of the chosen column (for its name) */
} q;

typedef struct ext {
    uint64_t off, bytes;
    size_t j;           /* the chosen chunk (index into q.sel) */
} ext;

static void pq_close(void)
{
    free(q.sel);
    free(q.fid);
    free(q.ext);
    sbf_parquet_close(q.pq);
    memset(&q, 0, sizeof q);
}

/* The file, or a clear reason (the library's sentence, not a filter's). */
static void open_pq(const char *path, const args *a)
{
    const char *why = NULL;
    const char *mf = opt_val(a, "--max-filter-bytes");
    q.max_filter = mf != NULL ? parse_size_arg("--max-filter-bytes", mf) : MAX_FILTER_DEFAULT;
    q.path = path;
    const int rc = sbf_parquet_open(&q.pq, path, &why);
    if (rc == SBF_E_IO)
        fail_code(path, rc);
    if (rc != SBF_OK)
        fail("%s: %s%s", path,
             why != NULL && strncmp(why, "thrift:", 7) == 0 ? "malformed Parquet footer: " : "",
             why != NULL ? why : sbf_strerror(rc));
    q.n = sbf_parquet_columns(q.pq, &q.c);
    q.groups = sbf_parquet_row_groups(q.pq);
}

static const char *name_of(size_t i)
{
    return sbf_parquet_column_name(q.pq, i);
}

__attribute__((noreturn))
static void chunk_fail(size_t i, const char *why, int rc)
{
    fail("%s: row group %u, column %s: %s", q.path, q.c[i].row_group, name_of(i),
         why != NULL ? why : sbf_strerror(rc));
}

static int by_offset(const void *x, const void *y)
{
    const ext *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off ? 1 : a->j < b->j ? -1 : a->j > b->j;
}

/* The filters of the chosen chunks (q.sel, each with a filter): their
 * extents checked against the limit, sorted, shared ones counted once
 * (q.fid), overlapping ones refused; q.ext[0..q.nd) the distinct filters.
 * Returns the bytes they take in the file. */
static uint64_t plan_filters(void)
{
    q.ext = malloc((q.nsel ? q.nsel : 1) * sizeof *q.ext);
    q.fid = malloc((q.nsel ? q.nsel : 1) * sizeof *q.fid);
    if (q.ext == NULL || q.fid == NULL)
        fail("out of memory");
    for (size_t j = 0; j < q.nsel; j++) {
        const size_t i = q.sel[j];
        const char *why = NULL;
        const int rc = sbf_parquet_bloom_extent(q.pq, i, &q.ext[j].off, &q.ext[j].bytes, &why);
        if (rc != SBF_OK)
            chunk_fail(i, why, rc);
        if (q.ext[j].bytes > q.max_filter)
            fail("%s: row group %u, column %s: a Bloom filter of %llu bytes, above the limit of "
                 "%llu bytes (Parquet writers make at most 128 MiB); --max-filter-bytes SIZE "
                 "lifts it", q.path, q.c[i].row_group, name_of(i),
                 (unsigned long long)q.ext[j].bytes, (unsigned long long)q.max_filter);
        q.ext[j].j = j;
    }
    qsort(q.ext, q.nsel, sizeof *q.ext, by_offset);
    uint64_t total = 0;
    size_t nd = 0;
    for (size_t k = 0; k < q.nsel; k++) {
        const ext e = q.ext[k];
        if (nd > 0 && e.off == q.ext[nd - 1].off) { /* the same filter again */
            q.fid[e.j] = (uint32_t)(nd - 1);
            continue;
        }
        if (nd > 0 && e.off < q.ext[nd - 1].off + q.ext[nd - 1].bytes)
            fail("%s: the Bloom filters of row group %u, column %s and row group %u, column "
                 "%s overlap in the file (a writer never does that: corrupt or forged)", q.path,
                 q.c[q.sel[q.ext[nd - 1].j]].row_group, name_of(q.sel[q.ext[nd - 1].j]),
                 q.c[q.sel[e.j]].row_group, name_of(q.sel[e.j]));
        q.fid[e.j] = (uint32_t)nd;
        q.ext[nd++] = e;
        total += e.bytes;
    }
    q.nd = nd;
    return total;
}

static sbf_filter *load_filter(size_t d)
{
    sbf_filter *f;
    const char *why = NULL;
    const size_t i = q.sel[q.ext[d].j];
    const int rc = sbf_parquet_filter(&f, q.pq, i, &why);
    if (rc != SBF_OK)
        chunk_fail(i, why, rc);
    return f;
}

static int cmd_list(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --json --max-filter-bytes= ", help_parquet, 1, 1, &a);
    const int json = opt_flag(&a, "--json");
    open_pq(a.pos[0], &a);
    q.sel = malloc((q.n ? q.n : 1) * sizeof *q.sel);
    if (q.sel == NULL)
        fail("out of memory");
    for (size_t i = 0; i < q.n; i++)
        if (q.c[i].bloom_offset >= 0)
            q.sel[q.nsel++] = i;
    if (q.nsel == 0)
        fail("%s: no column chunk has a Bloom filter (%zu chunk%s in %u row group%s): nothing "
             "to list", q.path, q.n, q.n == 1 ? "" : "s", q.groups, q.groups == 1 ? "" : "s");
    (void)plan_filters();
    /* each distinct filter read once, one at a time */
    static struct stat1 { double fill, est; uint64_t bits; } *st; /* static: see q */
    st = malloc(q.nd * sizeof *st);
    if (st == NULL)
        fail("out of memory");
    for (size_t d = 0; d < q.nd; d++) {
        sbf_filter *f = load_filter(d);
        struct sbf_info in;
        (void)sbf_info(f, &in);
        st[d].fill = in.fill_ratio;
        st[d].est = sbf_fpp_estimate(f);
        st[d].bits = in.bits;
        sbf_free(f);
    }
    if (json)
        printf("[");
    else
        printf("%-9s %-24s %12s %10s %8s %12s\n", "row_group", "column", "offset", "bytes",
               "fill", "est_fpp");
    for (size_t j = 0; j < q.nsel; j++) {
        const size_t i = q.sel[j];
        const struct stat1 *s = &st[q.fid[j]];
        const unsigned long long bytes = (unsigned long long)q.ext[q.fid[j]].bytes;
        if (json) {
            printf("%s\n {\"row_group\": %u, \"column\": ", j == 0 ? "" : ",", q.c[i].row_group);
            json_string(q.c[i].path);
            printf(", \"name\": ");
            json_string(name_of(i));
            printf(", \"column_index\": %u, \"offset\": %lld, \"bytes\": %llu, "
                   "\"bitset_bytes\": %llu, \"fill\": ", q.c[i].column,
                   (long long)q.c[i].bloom_offset, bytes, (unsigned long long)(s->bits / 8));
            json_double(s->fill);
            printf(", \"est_fpp\": ");
            json_double(s->est);
            printf("}");
        } else {
            printf("%-9u %-24s %12lld %10llu %8.4f %12.4g\n", q.c[i].row_group, name_of(i),
                   (long long)q.c[i].bloom_offset, bytes, s->fill, s->est);
        }
    }
    if (json)
        printf("\n]\n");
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    free(st);
    pq_close();
    return 0;
}

/* The column --column NAME or --column-index I names, without ambiguity:
 * NAME is a chunk's escaped name or its raw path; if it names two columns
 * (places in the row group) it is refused. Its physical type in *type. */
static uint32_t resolve_column(const args *a, int *type)
{
    const char *name = opt_val(a, "--column"), *idx_s = opt_val(a, "--column-index");
    if ((name == NULL) == (idx_s == NULL))
        usage_error("parquet: give --column NAME or --column-index I (one of them)");
    if (idx_s != NULL) {
        const uint64_t want = parse_u64_arg("--column-index", idx_s);
        for (size_t i = 0; i < q.n; i++)
            if (q.c[i].column == want) {
                *type = q.c[i].type;
                q.col_chunk = i;
                return q.c[i].column;
            }
        fail("%s: no column index %llu", q.path, (unsigned long long)want);
    }
    size_t hit = SIZE_MAX, other = SIZE_MAX;
    for (size_t i = 0; i < q.n; i++) {
        if (strcmp(name_of(i), name) != 0 && strcmp(q.c[i].path, name) != 0)
            continue;
        if (hit == SIZE_MAX)
            hit = i;
        else if (q.c[i].column != q.c[hit].column && other == SIZE_MAX)
            other = i;
    }
    if (hit == SIZE_MAX)
        fail("%s: no column '%s' ('sbf parquet list' shows the names)", q.path,
             show_text(name, strlen(name)));
    if (other != SIZE_MAX)
        fail("%s: column name '%s' is ambiguous: it names column %u ('%s', path %s) and column "
             "%u ('%s', path %s); give the escaped name or --column-index", q.path,
             show_text(name, strlen(name)), q.c[hit].column, name_of(hit),
             show_text(q.c[hit].path, strlen(q.c[hit].path)), q.c[other].column,
             name_of(other), show_text(q.c[other].path, strlen(q.c[other].path)));
    *type = q.c[hit].type;
    q.col_chunk = hit;
    return q.c[hit].column;
}

/* The chunks of column col (q.sel, those with a filter) and per row group
 * the id of its filter or NO_FILTER (*ent, malloc'd; NULL when with_ent is 0). */
static uint64_t choose_chunks(uint32_t col, uint32_t **ent)
{
    q.sel = malloc((q.n ? q.n : 1) * sizeof *q.sel);
    if (q.sel == NULL)
        fail("out of memory");
    for (size_t i = 0; i < q.n; i++)
        if (q.c[i].column == col && q.c[i].bloom_offset >= 0)
            q.sel[q.nsel++] = i;
    const uint64_t total = plan_filters();
    if (ent == NULL)
        return total;
    *ent = malloc((q.groups ? q.groups : 1) * sizeof **ent);
    if (*ent == NULL)
        fail("out of memory");
    for (uint32_t r = 0; r < q.groups; r++)
        (*ent)[r] = NO_FILTER;
    for (size_t j = 0; j < q.nsel; j++)
        (*ent)[q.c[q.sel[j]].row_group] = q.fid[j];
    return total;
}

static int cmd_extract(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --column= --column-index= --row-group= --max-filter-bytes= ",
               help_parquet, 2, 2, &a);
    const char *rg_s = opt_val(&a, "--row-group");
    if (rg_s == NULL)
        usage_error("parquet extract: --row-group is required");
    const uint64_t rg = parse_u64_arg("--row-group", rg_s);
    open_pq(a.pos[0], &a);
    int type;
    const uint32_t col = resolve_column(&a, &type);
    if (rg >= q.groups)
        fail("%s: no row group %llu (the file has %u)", q.path, (unsigned long long)rg,
             q.groups);
    choose_chunks(col, NULL);
    size_t d = SIZE_MAX;
    for (size_t j = 0; j < q.nsel; j++)
        if (q.c[q.sel[j]].row_group == rg)
            d = q.fid[j];
    if (d == SIZE_MAX)
        fail("%s: column %s has no Bloom filter in row group %llu", q.path,
             name_of(q.col_chunk), (unsigned long long)rg);
    const size_t i = q.sel[q.ext[d].j];
    sbf_filter *f = load_filter(d);
    save(f, a.pos[1]);
    size_t bytes;
    (void)sbf_data(f, &bytes);
    printf("%s: row group %llu, column %s: %zu-byte filter, estimated rate %.4g\n", a.pos[1],
           (unsigned long long)rg, name_of(i), bytes, sbf_fpp_estimate(f));
    sbf_free(f);
    pq_close();
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

/* Answers go out through a bounded buffer: memory does not grow with the
 * number of row groups an answer lists. */
static char obuf[1 << 16];
static size_t oused;

static void out_flush(void)
{
    if (oused > 0 && fwrite(obuf, 1, oused, stdout) != oused)
        fail("standard output: %s", strerror(errno));
    oused = 0;
}

static void out_group(uint32_t r, int first)
{
    if (oused > sizeof obuf - 16)
        out_flush();
    oused += (size_t)sprintf(obuf + oused, first ? "%u" : ",%u", r);
}

static void out_bytes(const char *s, size_t n)
{
    if (oused > sizeof obuf - 16)
        out_flush();
    memcpy(obuf + oused, s, n);
    oused += n;
}

static int cmd_pq_query(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --column= --column-index= --max-filter-bytes= " KEY_OPTS,
               help_parquet, 1, 2, &a);
    int binary;
    int type = key_options(&a, &binary);
    open_pq(a.pos[0], &a);
    int pq_type = -1;
    const uint32_t col = resolve_column(&a, &pq_type);
    if (opt_val(&a, "--type") == NULL && !opt_flag(&a, "--u64"))
        type = key_type_of(pq_type, name_of(q.col_chunk));
    if ((binary & KEY_HEX) && type != KEY_STRING)
        usage_error("--hex gives a key's bytes: it reads string (byte array) keys only");
    static uint32_t *ent;
    const uint64_t total = choose_chunks(col, &ent);
    if (q.nd == 0)
        fail("%s: column %s has no Bloom filter in any of the %u row groups: every row group "
             "may hold any key; nothing to query", q.path, name_of(q.col_chunk), q.groups);
    /* The distinct filters, each once, their bitsets packed in one buffer
     * (no filter object each: 10^5 row groups of 32-byte filters take 3.2 MB,
     * not 10^5 allocations); q.ext[d] becomes the place and size of filter d
     * there. Answers of `step` keys per filter. */
    static unsigned char *bits;
    static uint8_t *res;
    static uint64_t *h;
    const size_t step = RES_BUDGET / q.nd > BATCH ? BATCH
                      : RES_BUDGET / q.nd < 1 ? 1 : RES_BUDGET / q.nd;
    /* the bitsets take less than their extents in the file (headers) */
    if (total > SIZE_MAX)
        fail("out of memory");
    res = malloc(q.nd * step);
    h = malloc(BATCH * sizeof *h);
    bits = malloc(total ? (size_t)total : 1);
    if (!res || !h || !bits)
        fail("out of memory");
    const size_t cap = (size_t)total;
    size_t used = 0;
    for (size_t d = 0; d < q.nd; d++) {
        sbf_filter *f = load_filter(d);
        struct sbf_info in;
        (void)sbf_info(f, &in);
        const void *data = sbf_data(f, NULL);
        const size_t nb = (size_t)(in.bits / 8); /* sbf_data's bytes may hold padding */
        if (nb > cap - used)
            fail("%s: a filter's bitset is larger than its extent", q.path);
        memcpy(bits + used, data, nb);
        q.ext[d].off = used;
        q.ext[d].bytes = nb;
        used += nb;
        sbf_free(f);
    }
    if (used < cap) { /* give back the headers' bytes */
        unsigned char *p = realloc(bits, used);
        if (p != NULL)
            bits = p;
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL, type, binary);
    progress pg;
    progress_start(&pg);
    size_t n;
    while ((n = kr_next(&kr)) > 0) {
        /* hash once (XXH64 in SIMD lanes), probe every distinct filter */
        if (kr.words)
            sbf_xxh64_u64(kr.u, n, h);
        else if (sbf_xxh64_batch(kr.keys, kr.lens, n, h) != SBF_OK)
            fail("%s: hashing failed", kr.name);
        for (size_t s0 = 0; s0 < n; s0 += step) {
            const size_t m = n - s0 < step ? n - s0 : step;
            for (size_t d = 0; d < q.nd; d++)
                if (sbf_is_error(sbf_parquet_bitset_contains(bits + q.ext[d].off,
                                                             q.ext[d].bytes, h + s0, m,
                                                             res + d * step)))
                    fail("%s: query failed", q.path);
            for (size_t i = 0; i < m; i++) {
                int first = 1;
                out_bytes("[", 1);
                for (uint32_t r = 0; r < q.groups; r++)
                    if (ent[r] == NO_FILTER || res[(size_t)ent[r] * step + i]) {
                        out_group(r, first);
                        first = 0;
                    }
                out_bytes("]\n", 2);
            }
        }
        progress_tick(&pg, &kr, "queried");
    }
    progress_end(&pg);
    out_flush();
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    kr_close(&kr);
    free(bits);
    free(res);
    free(h);
    free(ent);
    pq_close();
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
