/*
 * Reading .parquet files: the footer (Thrift compact FileMetaData) walked to
 * every column chunk's path, physical type and Bloom filter location
 * (ColumnMetaData fields 14 and 15), and a chunk's filter bytes (header +
 * bitset) read and checked. Nothing else of the file is interpreted.
 *
 * The walk is bounded: the footer is at most PQ_MAX_FOOTER bytes, Thrift
 * nesting at most SBFI_TR_MAX_DEPTH, every list at most the bytes left. It
 * runs twice over the same bytes: the first pass counts chunks and path
 * bytes, the second fills one allocation of exactly that size, so memory is
 * bounded by the footer's length.
 */
#define _GNU_SOURCE 1
#include "sbf_internal.h"
#include "sbf_endian.h"
#include "parquet_int.h"
#include "persist.h"
#include "thrift.h"

#include <stdlib.h>
#include <unistd.h>

#define PQ_MAX_FOOTER (UINT32_C(1) << 30)
#define PQ_MAGIC_LEN 4u
#define PQ_TAIL 8u          /* footer length + "PAR1" */
#define PQ_HEADER_WINDOW 256u /* bytes read to parse a BloomFilterHeader */

struct sbf_parquet {
    int fd;                     /* -1: the file is the memory below */
    const unsigned char *mem;
    uint64_t size;              /* file bytes */
    size_t ncols;
    uint32_t nrow_groups;
    sbf_parquet_column *cols;   /* one allocation: cols, names, then the paths */
    const char **names;         /* per chunk: the escaped path (sbf_parquet_column_name) */
};

static int fail(const char **why, const char *s, int code)
{
    if (why != NULL)
        *why = s;
    return code;
}

/* ------------------------------------------------------------ footer walk */

typedef struct walk {
    sbfi_tr r;
    int fill;                   /* second pass: write cols and paths */
    size_t ncols, path_bytes;
    uint32_t rg;                /* row group being read */
    sbf_parquet_column *cols;
    const char **names;
    char *paths;
} walk;

/* A path segment's byte as the escaped name writes it: '.' and '\\' after
 * a backslash, control bytes as \xHH, the rest as is. Returns the length
 * written (out may be NULL: counting only). */
static size_t escape_byte(char *out, unsigned char c)
{
    if (c == '.' || c == '\\') {
        if (out != NULL) {
            out[0] = '\\';
            out[1] = (char)c;
        }
        return 2;
    }
    if (c < 0x20 || c == 0x7f) {
        static const char hex[] = "0123456789abcdef";
        if (out != NULL) {
            out[0] = '\\';
            out[1] = 'x';
            out[2] = hex[c >> 4];
            out[3] = hex[c & 15];
        }
        return 4;
    }
    if (out != NULL)
        out[0] = (char)c;
    return 1;
}

/* Reads a field's value only if it has the expected type, else fails. */
static int want(walk *w, const sbfi_tr_field *f, int type)
{
    if (f->type == type)
        return 0;
    return sbfi_tr_fail(&w->r, "parquet: a footer field has an unexpected Thrift type");
}

/* path_in_schema: list<string>, joined with '.' (c->path), and the escaped
 * form that names it alone (a '.' or '\\' inside a segment escaped). */
static int read_path(walk *w, sbf_parquet_column *c)
{
    int et;
    uint32_t n;
    if (sbfi_tr_list(&w->r, &et, &n) != 0)
        return -1;
    if (et != SBFI_TT_BINARY)
        return sbfi_tr_fail(&w->r, "parquet: path_in_schema is not a list of strings");
    const unsigned char *const at = w->r.p;
    char *out = w->fill ? w->paths + w->path_bytes : NULL;
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *s;
        size_t len;
        if (sbfi_tr_binary(&w->r, &s, &len) != 0)
            return -1;
        if (memchr(s, 0, len) != NULL)
            return sbfi_tr_fail(&w->r, "parquet: a column name holds a NUL byte");
        if (out != NULL) {
            if (i > 0)
                out[used] = '.';
            memcpy(out + used + (i > 0), s, len);
        }
        used += len + (i > 0);
    }
    if (out != NULL) {
        out[used] = '\0';
        c->path = out;
    }
    w->path_bytes += used + 1;
    /* again over the same bytes (already checked): the escaped form */
    sbfi_tr again = w->r;
    again.p = at;
    char *esc = w->fill ? w->paths + w->path_bytes : NULL;
    used = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *s;
        size_t len;
        if (sbfi_tr_binary(&again, &s, &len) != 0)
            return -1;
        if (i > 0) {
            if (esc != NULL)
                esc[used] = '.';
            used++;
        }
        for (size_t j = 0; j < len; j++)
            used += escape_byte(esc != NULL ? esc + used : NULL, s[j]);
    }
    if (esc != NULL) {
        esc[used] = '\0';
        w->names[w->ncols] = esc;
    }
    w->path_bytes += used + 1;
    return 0;
}

static int read_column_meta(walk *w, sbf_parquet_column *c)
{
    sbfi_tr *r = &w->r;
    sbfi_tr_field f = {0, 0, 0};
    int have_path = 0;
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        int32_t v32;
        int64_t v64;
        switch (f.id) {
        case 1: /* type */
            if (want(w, &f, SBFI_TT_I32) || sbfi_tr_i32(r, &v32))
                return -1;
            c->type = v32 >= 0 && v32 <= 7 ? v32 : -1;
            break;
        case 3: /* path_in_schema */
            if (want(w, &f, SBFI_TT_LIST) || read_path(w, c))
                return -1;
            have_path++;
            break;
        case 5: /* num_values */
            if (want(w, &f, SBFI_TT_I64) || sbfi_tr_i64(r, &c->num_values))
                return -1;
            break;
        case 14: /* bloom_filter_offset */
            if (want(w, &f, SBFI_TT_I64) || sbfi_tr_i64(r, &v64))
                return -1;
            c->bloom_offset = v64 < 0 ? -1 : v64;
            break;
        case 15: /* bloom_filter_length */
            if (want(w, &f, SBFI_TT_I32) || sbfi_tr_i32(r, &v32))
                return -1;
            c->bloom_length = v32 < 0 ? -1 : v32;
            break;
        default:
            if (sbfi_tr_skip(r, f.type, 0) != 0)
                return -1;
        }
    }
    sbfi_tr_struct_end(r);
    if (have_path != 1)
        return sbfi_tr_fail(r, "parquet: a column chunk has no single path_in_schema");
    return 0;
}

static int read_column_chunk(walk *w)
{
    sbfi_tr *r = &w->r;
    sbf_parquet_column scratch, *c = w->fill ? &w->cols[w->ncols] : &scratch;
    memset(c, 0, sizeof *c);
    c->row_group = w->rg;
    c->type = -1;
    c->path = "";
    c->bloom_offset = -1;
    c->bloom_length = -1;
    int have_meta = 0;
    sbfi_tr_field f = {0, 0, 0};
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        if (f.id == 3) {
            if (want(w, &f, SBFI_TT_STRUCT) || read_column_meta(w, c))
                return -1;
            have_meta++;
        } else if (sbfi_tr_skip(r, f.type, 0) != 0) {
            return -1;
        }
    }
    sbfi_tr_struct_end(r);
    if (have_meta != 1) /* encrypted column metadata (field 9) or none */
        return sbfi_tr_fail(r, "parquet: a column chunk has no plaintext metadata (encrypted?)");
    w->ncols++;
    return 0;
}

static int read_row_group(walk *w)
{
    sbfi_tr *r = &w->r;
    sbfi_tr_field f = {0, 0, 0};
    uint32_t index = 0;
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        if (f.id != 1) {
            if (sbfi_tr_skip(r, f.type, 0) != 0)
                return -1;
            continue;
        }
        int et;
        uint32_t n;
        if (want(w, &f, SBFI_TT_LIST) || sbfi_tr_list(r, &et, &n))
            return -1;
        if (et != SBFI_TT_STRUCT)
            return sbfi_tr_fail(r, "parquet: RowGroup.columns is not a list of structs");
        for (uint32_t i = 0; i < n; i++) {
            const size_t before = w->ncols;
            if (read_column_chunk(w) != 0)
                return -1;
            if (w->fill)
                w->cols[before].column = index;
            index++;
        }
    }
    sbfi_tr_struct_end(r);
    return 0;
}

static int read_file_meta(walk *w)
{
    sbfi_tr *r = &w->r;
    sbfi_tr_field f = {0, 0, 0};
    int have_groups = 0;
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        if (f.id != 4) {
            if (sbfi_tr_skip(r, f.type, 0) != 0)
                return -1;
            continue;
        }
        int et;
        uint32_t n;
        if (want(w, &f, SBFI_TT_LIST) || sbfi_tr_list(r, &et, &n))
            return -1;
        if (et != SBFI_TT_STRUCT)
            return sbfi_tr_fail(r, "parquet: FileMetaData.row_groups is not a list of structs");
        for (w->rg = 0; w->rg < n; w->rg++)
            if (read_row_group(w) != 0)
                return -1;
        have_groups++;
    }
    sbfi_tr_struct_end(r);
    if (have_groups != 1)
        return sbfi_tr_fail(r, "parquet: the footer has no single row_groups list");
    return 0;
}

/* Both passes over the footer; fills pq's columns. */
static int walk_footer(sbf_parquet *pq, const unsigned char *footer, size_t len,
                       const char **why)
{
    walk w;
    memset(&w, 0, sizeof w);
    sbfi_tr_init(&w.r, footer, len);
    if (read_file_meta(&w) != 0)
        return fail(why, w.r.why, w.r.eof ? SBF_E_TRUNCATED : SBF_E_FORMAT);
    const size_t ncols = w.ncols, path_bytes = w.path_bytes;
    /* every chunk took footer bytes, so this is bounded by the footer */
    const size_t names_at = ncols * sizeof(sbf_parquet_column);
    const size_t paths_at = names_at + ncols * sizeof(const char *);
    unsigned char *mem = malloc(paths_at + path_bytes + 1);
    if (mem == NULL)
        return fail(why, "out of memory", SBF_E_NOMEM);
    memset(&w, 0, sizeof w);
    sbfi_tr_init(&w.r, footer, len);
    w.fill = 1;
    w.cols = (sbf_parquet_column *)(void *)mem;
    w.names = (const char **)(void *)(mem + names_at);
    w.paths = (char *)(mem + paths_at);
    const int again = read_file_meta(&w);
    SBFI_ASSERT(again == 0 && w.ncols == ncols && w.path_bytes == path_bytes);
    (void)again;
    pq->cols = w.cols;
    pq->names = w.names;
    pq->ncols = ncols;
    pq->nrow_groups = w.rg;
    return SBF_OK;
}

/* ------------------------------------------------------------------- I/O */

static int read_at(const sbf_parquet *pq, void *buf, size_t n, uint64_t off)
{
    if (off > pq->size || n > pq->size - off)
        return SBF_E_TRUNCATED;
    if (pq->fd < 0) {
        memcpy(buf, pq->mem + off, n);
        return SBF_OK;
    }
    return sbfi_read_at(pq->fd, buf, n, off);
}

/* The tail and footer of pq (size known), then the walk. */
static int open_common(sbf_parquet *pq, const char **why)
{
    unsigned char head[PQ_MAGIC_LEN], tail[PQ_TAIL];
    if (pq->size < PQ_MAGIC_LEN + PQ_TAIL)
        return fail(why, "parquet: file shorter than its magic numbers", SBF_E_TRUNCATED);
    SBFI_FORWARD_IF_ERROR(read_at(pq, head, sizeof head, 0));
    SBFI_FORWARD_IF_ERROR(read_at(pq, tail, sizeof tail, pq->size - PQ_TAIL));
    if (memcmp(tail + 4, "PARE", 4) == 0)
        return fail(why, "parquet: encrypted footer (PARE) is not supported", SBF_E_UNSUPPORTED);
    if (memcmp(head, "PAR1", 4) != 0 || memcmp(tail + 4, "PAR1", 4) != 0)
        return fail(why, "parquet: not a Parquet file (no PAR1 magic)", SBF_E_FORMAT);
    const uint32_t flen = sbfi_get_le32(tail);
    if (flen > pq->size - PQ_MAGIC_LEN - PQ_TAIL)
        return fail(why, "parquet: footer length exceeds the file", SBF_E_FORMAT);
    if (flen > PQ_MAX_FOOTER)
        return fail(why, "parquet: footer larger than 1 GiB", SBF_E_TOO_LARGE);
    const uint64_t foff = pq->size - PQ_TAIL - flen;
    if (pq->fd < 0)
        return walk_footer(pq, pq->mem + foff, flen, why);
    unsigned char *footer = malloc(flen ? flen : 1);
    if (footer == NULL)
        return fail(why, "out of memory", SBF_E_NOMEM);
    int e = read_at(pq, footer, flen, foff);
    if (e == SBF_OK)
        e = walk_footer(pq, footer, flen, why);
    else
        (void)fail(why, "parquet: reading the footer failed", e);
    free(footer);
    return e;
}

int sbf_parquet_open_mem(sbf_parquet **out, const void *buf, size_t len,
                         const char **why)
{
    if (out != NULL)
        *out = NULL;
    if (out == NULL || (buf == NULL && len != 0))
        return fail(why, "a required pointer argument is NULL", SBF_E_NULL);
    sbf_parquet *pq = calloc(1, sizeof *pq);
    if (pq == NULL)
        return fail(why, "out of memory", SBF_E_NOMEM);
    pq->fd = -1;
    pq->mem = buf;
    pq->size = len;
    const int e = open_common(pq, why);
    if (e != SBF_OK) {
        sbf_parquet_close(pq);
        return e;
    }
    *out = pq;
    return SBF_OK;
}

int sbf_parquet_open(sbf_parquet **out, const char *path, const char **why)
{
    if (out != NULL)
        *out = NULL;
    if (out == NULL || path == NULL)
        return fail(why, "a required pointer argument is NULL", SBF_E_NULL);
    /* as every loader: a FIFO, device or socket is refused, never waited on */
    int fd;
    uint64_t size;
    if (sbfi_open_regular(path, &fd, &size) != SBF_OK)
        return fail(why, "cannot open the file, or it is not a regular file", SBF_E_IO);
    sbf_parquet *pq = calloc(1, sizeof *pq);
    if (pq == NULL) {
        (void)close(fd);
        return fail(why, "out of memory", SBF_E_NOMEM);
    }
    pq->fd = fd;
    pq->size = size;
    const int e = open_common(pq, why);
    if (e != SBF_OK) {
        sbf_parquet_close(pq);
        return e;
    }
    *out = pq;
    return SBF_OK;
}

void sbf_parquet_close(sbf_parquet *pq)
{
    if (pq == NULL)
        return;
    if (pq->fd >= 0)
        (void)close(pq->fd);
    free(pq->cols);
    free(pq);
}

size_t sbf_parquet_columns(const sbf_parquet *pq, const sbf_parquet_column **cols)
{
    if (cols != NULL)
        *cols = pq != NULL ? pq->cols : NULL;
    return pq != NULL ? pq->ncols : 0;
}

uint32_t sbf_parquet_row_groups(const sbf_parquet *pq)
{
    return pq != NULL ? pq->nrow_groups : 0;
}

/* ------------------------------------------------------- a chunk's filter */

const char *sbf_parquet_column_name(const sbf_parquet *pq, size_t i)
{
    return pq != NULL && i < pq->ncols ? pq->names[i] : NULL;
}

int sbf_parquet_bloom_extent(const sbf_parquet *pq, size_t i, uint64_t *offset,
                             uint64_t *bytes, const char **why)
{
    if (offset != NULL)
        *offset = 0;
    if (bytes != NULL)
        *bytes = 0;
    if (pq == NULL || offset == NULL || bytes == NULL)
        return fail(why, "a required pointer argument is NULL", SBF_E_NULL);
    if (i >= pq->ncols)
        return fail(why, "no such column chunk", SBF_E_PARAM);
    const sbf_parquet_column *c = &pq->cols[i];
    if (c->bloom_offset < 0)
        return fail(why, "parquet: this column chunk has no Bloom filter", SBF_E_PARAM);
    const uint64_t off = (uint64_t)c->bloom_offset;
    if (off >= pq->size)
        return fail(why, "parquet: bloom_filter_offset is past the end of the file",
                    SBF_E_FORMAT);
    /* the header: its first bytes (bloom_filter_length bounds them too) */
    uint64_t win = pq->size - off < PQ_HEADER_WINDOW ? pq->size - off : PQ_HEADER_WINDOW;
    if (c->bloom_length >= 0 && (uint64_t)c->bloom_length < win)
        win = (uint64_t)c->bloom_length;
    unsigned char head[PQ_HEADER_WINDOW];
    int e = read_at(pq, head, (size_t)win, off);
    if (e != SBF_OK)
        return fail(why, "parquet: reading the Bloom filter header failed", e);
    size_t hl;
    uint32_t nb;
    e = sbfi_pq_header_parse(head, (size_t)win, &hl, &nb, why);
    if (e != SBF_OK)
        return e;
    const uint64_t total = (uint64_t)hl + nb;
    if (total > pq->size - off)
        return fail(why, "parquet: the Bloom filter runs past the end of the file",
                    SBF_E_TRUNCATED);
    if (c->bloom_length >= 0 && (uint64_t)c->bloom_length != total)
        return fail(why, "parquet: bloom_filter_length disagrees with the filter's header",
                    SBF_E_FORMAT);
    *offset = off;
    *bytes = total;
    return SBF_OK;
}

int sbf_parquet_read_bloom(const sbf_parquet *pq, size_t i, void **buf, size_t *len,
                           const char **why)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    if (pq == NULL || buf == NULL || len == NULL)
        return fail(why, "a required pointer argument is NULL", SBF_E_NULL);
    uint64_t off, total;
    SBFI_FORWARD_IF_ERROR(sbf_parquet_bloom_extent(pq, i, &off, &total, why));
    unsigned char *p = malloc((size_t)total);
    if (p == NULL)
        return fail(why, "out of memory", SBF_E_NOMEM);
    const int e = read_at(pq, p, (size_t)total, off);
    if (e != SBF_OK) {
        free(p);
        return fail(why, "parquet: reading the Bloom filter failed", e);
    }
    *buf = p;
    *len = (size_t)total;
    return SBF_OK;
}

int sbf_parquet_filter(sbf_filter **out, const sbf_parquet *pq, size_t i, const char **why)
{
    if (out != NULL)
        *out = NULL;
    void *buf;
    size_t len;
    SBFI_FORWARD_IF_ERROR(sbf_parquet_read_bloom(pq, i, &buf, &len, why));
    const int e = sbfi_pq_import(out, buf, len, NULL, why);
    free(buf);
    return e;
}

