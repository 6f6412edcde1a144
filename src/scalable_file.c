/*
 * Scalable filters in files: format version 3 (doc/format.md, normative).
 * A 4096-byte header (parameters, the table of sub-filters, a checksum),
 * then each sub-filter as a complete version-2 image (src/persist.c's
 * header and data) at a page-aligned offset, zero bytes between. Buffers
 * (deserialize), files (load) and mappings (map) are read by one parser
 * that checks every header and every geometry before allocating anything.
 */
#define _GNU_SOURCE 1
#include "persist.h"
#include "sbf_endian.h"
#include "scalable.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define PAGE SBFI_V2_HEADER     /* 4096: the header, and the images' alignment */
#define TABLE 64u               /* offset of the table of sub-filters */
#define ENTRY 32u               /* bytes per table entry */
#define SUM_AT (PAGE - 8)       /* header checksum: XXH3-64 of bytes 0..4087 */

_Static_assert(TABLE + ENTRY * SBF_SCALABLE_FILE_MAX_FILTERS <= SUM_AT, "the table fits the header");

static uint64_t align_page(uint64_t x)
{
    return (x + PAGE - 1) / PAGE * PAGE;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Where sub-filter i's image starts, given the one before. */
static uint64_t image_len(const sbf_filter *f)
{
    return PAGE + f->bytes;
}

/* Format 4's flags field (doc/format.md). */
#define V4_NONSCALING 1u
#define V4_FORMULA 2u
#define V4_FLAGS (V4_NONSCALING | V4_FORMULA)
#define V4_ENTRY 48u /* offset, length, keys, capacity, rate, reserved */

/* The version a file of s has: 3 when format 3 holds it (its parameters,
 * the formula rule and the sub-filters as the geometric schedule makes
 * them: the bytes such a filter always had), else 4; 0: neither. */
static uint32_t version_of(const sbf_scalable *s)
{
    if (sbfi_scalable_file_ok(s))
        return 3;
    return s->n >= 1 && s->n <= SBF_SCALABLE_MAX_FILTERS ? 4 : 0;
}

/* Bytes of the header: one page for version 3; version 4's table of L
 * entries and the checksum, rounded up to pages. */
static uint64_t header_len(uint32_t version, uint32_t n)
{
    return version == 3 ? PAGE : align_page(TABLE + (uint64_t)V4_ENTRY * n + 8);
}

/* The header of s (table of offsets, lengths and key counts; version 4
 * also each sub-filter's capacity and rate). h holds header_len bytes. */
static void header_of(const sbf_scalable *s, uint32_t version, unsigned char *h,
                      uint64_t *total)
{
    const uint64_t hl = header_len(version, s->n);
    memset(h, 0, (size_t)hl);
    memcpy(h, "SBF1", 4);
    sbfi_put_le32(h + 4, version);
    sbfi_put_le32(h + 8, (uint32_t)s->p.layout);
    sbfi_put_le32(h + 12, s->p.seed);
    uint32_t fl = 0;
    if (version == 4) {
        fl |= (s->p.flags & SBF_SCALABLE_NONSCALING) ? V4_NONSCALING : 0;
        fl |= (s->p.flags & SBF_SCALABLE_FORMULA) ? V4_FORMULA : 0;
    }
    sbfi_put_le32(h + 16, fl);
    sbfi_put_le32(h + 20, s->p.growth);
    sbfi_put_le64(h + 24, s->p.initial_n);
    sbfi_put_le64(h + 32, f64_bits(s->p.fpp));
    sbfi_put_le64(h + 40, f64_bits(s->p.tightening));
    sbfi_put_le32(h + 48, s->n);
    if (version == 4) {
        sbfi_put_le32(h + 52, (uint32_t)s->p.schedule);
        sbfi_put_le64(h + 56, hl);
    }
    const uint32_t entry = version == 3 ? ENTRY : V4_ENTRY;
    uint64_t off = hl;
    for (uint32_t i = 0; i < s->n; i++) {
        unsigned char *e = h + TABLE + entry * i;
        off = align_page(off);
        sbfi_put_le64(e, off);
        sbfi_put_le64(e + 8, image_len(s->subs[i].f));
        sbfi_put_le64(e + 16, s->subs[i].items);
        if (version == 4) {
            sbfi_put_le64(e + 24, s->subs[i].capacity);
            sbfi_put_le64(e + 32, f64_bits(s->subs[i].fpp));
        }
        off += image_len(s->subs[i].f);
    }
    sbfi_put_le64(h + hl - 8, (uint64_t)XXH3_64bits(h, (size_t)hl - 8));
    *total = off;
}

static const unsigned char zeros[PAGE];

/* The pieces of the file: header, then per sub-filter its version-2
 * header, its data and the zeros up to the next page. hdrs holds
 * header_len + n pages. */
static int pieces_of(const sbf_scalable *s, uint32_t version, unsigned char *hdrs,
                     sbfi_piece *pc, size_t *np, uint64_t *total)
{
    const size_t hl = (size_t)header_len(version, s->n);
    header_of(s, version, hdrs, total);
    size_t k = 0;
    pc[k++] = (sbfi_piece){ hdrs, hl };
    for (uint32_t i = 0; i < s->n; i++) {
        const sbf_filter *f = s->subs[i].f;
        unsigned char *h = hdrs + hl + PAGE * (size_t)i;
        SBFI_FORWARD_IF_ERROR(sbfi_header_v2(f, h));
        pc[k++] = (sbfi_piece){ h, PAGE };
        pc[k++] = (sbfi_piece){ f->words, f->bytes };
        const size_t pad = (size_t)(align_page(f->bytes) - f->bytes);
        if (pad > 0 && i + 1 < s->n)
            pc[k++] = (sbfi_piece){ zeros, pad };
    }
    *np = k;
    return SBF_OK;
}

int sbf_scalable_serialize(const sbf_scalable *s, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    SBFI_RETURN_IF(s == NULL || buf == NULL || len == NULL, SBF_E_NULL);
    const uint32_t version = version_of(s);
    SBFI_RETURN_IF(version == 0, SBF_E_UNSUPPORTED);
    unsigned char *hdrs = malloc((size_t)header_len(version, s->n) + PAGE * (size_t)s->n);
    SBFI_RETURN_IF(hdrs == NULL, SBF_E_NOMEM);
    sbfi_piece pc[1 + 3 * SBF_SCALABLE_MAX_FILTERS];
    size_t np;
    uint64_t total;
    int rc = pieces_of(s, version, hdrs, pc, &np, &total);
    unsigned char *p = NULL;
    if (rc == SBF_OK && total > SIZE_MAX - PAGE)
        rc = SBF_E_NOMEM;
    if (rc == SBF_OK && (p = aligned_alloc(PAGE, (size_t)align_page(total))) == NULL)
        rc = SBF_E_NOMEM;
    if (rc == SBF_OK) {
        size_t at = 0;
        for (size_t i = 0; i < np; i++) {
            memcpy(p + at, pc[i].p, pc[i].n);
            at += pc[i].n;
        }
        *buf = p;
        *len = at;
    }
    free(hdrs);
    return rc;
}

int sbf_scalable_save(const sbf_scalable *s, const char *path)
{
    SBFI_RETURN_IF(s == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(path[0] == '\0', SBF_E_PARAM);
    const uint32_t version = version_of(s);
    SBFI_RETURN_IF(version == 0, SBF_E_UNSUPPORTED);
    unsigned char *hdrs = malloc((size_t)header_len(version, s->n) + PAGE * (size_t)s->n);
    SBFI_RETURN_IF(hdrs == NULL, SBF_E_NOMEM);
    sbfi_piece pc[1 + 3 * SBF_SCALABLE_MAX_FILTERS];
    size_t np;
    uint64_t total;
    int rc = pieces_of(s, version, hdrs, pc, &np, &total);
    if (rc == SBF_OK)
        rc = sbfi_save_pieces(path, pc, np);
    const int e = errno;
    free(hdrs);
    errno = e;
    return rc;
}

/* ------------------------------------------------------------- reading */

typedef struct source {
    const unsigned char *buf; /* a buffer, or NULL: the file fd */
    int fd;
    uint64_t total;
} source;

static int read_at(const source *r, void *dst, size_t n, uint64_t off)
{
    SBFI_RETURN_IF(off > r->total || n > r->total - off, SBF_E_TRUNCATED);
    if (r->buf != NULL) {
        memcpy(dst, r->buf + off, n);
        return SBF_OK;
    }
    return sbfi_read_at(r->fd, dst, n, off);
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return 0;
    return 1;
}

enum { MODE_LOAD, MODE_MAP };

/* What the header says of each sub-filter. */
typedef struct entry {
    uint64_t off, len, items, capacity;
    double fpp;
} entry;

/* The header of a version-3 or -4 file (hl bytes at h, its length already
 * checked against the version and L): parameters and table checked
 * against the total length. */
static int parse_header(const unsigned char *h, uint32_t version, uint64_t hl, uint64_t total,
                        sbf_scalable_params *p, uint32_t *n, entry *t)
{
    SBFI_RETURN_IF(sbfi_get_le64(h + hl - 8) != (uint64_t)XXH3_64bits(h, (size_t)hl - 8),
                   SBF_E_FORMAT);
    const uint16_t one = 1;
    SBFI_RETURN_IF(*(const unsigned char *)&one != 1, SBF_E_ENDIAN);
    memset(p, 0, sizeof *p);
    const uint32_t layout = sbfi_get_le32(h + 8);
    SBFI_RETURN_IF(layout > INT32_MAX, SBF_E_LAYOUT);
    p->layout = (int)layout;
    p->seed = sbfi_get_le32(h + 12);
    const uint32_t fl = sbfi_get_le32(h + 16);
    if (version == 3) {
        SBFI_RETURN_IF(fl != 0, SBF_E_FORMAT);
        p->flags = SBF_SCALABLE_FORMULA; /* format 3's rule, also for growth */
    } else {
        SBFI_RETURN_IF((fl & ~V4_FLAGS) != 0, SBF_E_FORMAT);
        p->flags = ((fl & V4_NONSCALING) ? SBF_SCALABLE_NONSCALING : 0) |
                   ((fl & V4_FORMULA) ? SBF_SCALABLE_FORMULA : 0);
        const uint32_t schedule = sbfi_get_le32(h + 52);
        SBFI_RETURN_IF(schedule > 1, SBF_E_FORMAT);
        p->schedule = (int)schedule;
    }
    p->growth = sbfi_get_le32(h + 20);
    p->initial_n = sbfi_get_le64(h + 24);
    p->fpp = bits_f64(sbfi_get_le64(h + 32));
    p->tightening = bits_f64(sbfi_get_le64(h + 40));
    const int rc = sbfi_scalable_check(p);
    SBFI_RETURN_IF(rc == SBF_E_LAYOUT, SBF_E_LAYOUT);
    SBFI_RETURN_IF(rc != SBF_OK, SBF_E_FORMAT);
    SBFI_RETURN_IF(version == 3 && (p->growth < 2 || p->growth > 1024), SBF_E_FORMAT);
    *n = sbfi_get_le32(h + 48); /* checked by the caller */
    SBFI_RETURN_IF((p->flags & SBF_SCALABLE_NONSCALING) && *n != 1, SBF_E_FORMAT);
    const uint32_t esz = version == 3 ? ENTRY : V4_ENTRY;
    const uint64_t fixed_end = version == 3 ? 52 : 64;
    SBFI_RETURN_IF(!all_zero(h + fixed_end, (size_t)(TABLE - fixed_end)), SBF_E_FORMAT);
    SBFI_RETURN_IF(!all_zero(h + TABLE + esz * *n, (size_t)(hl - 8 - TABLE - esz * *n)),
                   SBF_E_FORMAT);
    uint64_t at = hl;
    for (uint32_t i = 0; i < *n; i++) {
        const unsigned char *e = h + TABLE + esz * i;
        entry *x = &t[i];
        x->off = sbfi_get_le64(e);
        x->len = sbfi_get_le64(e + 8);
        x->items = sbfi_get_le64(e + 16);
        if (version == 3) {
            SBFI_RETURN_IF(sbfi_get_le64(e + 24) != 0, SBF_E_FORMAT);
            SBFI_RETURN_IF(sbfi_scalable_sub_params(p, i, &x->capacity, &x->fpp) != SBF_OK,
                           SBF_E_FORMAT);
        } else {
            x->capacity = sbfi_get_le64(e + 24);
            x->fpp = bits_f64(sbfi_get_le64(e + 32));
            SBFI_RETURN_IF(sbfi_get_le64(e + 40) != 0 || x->capacity == 0 ||
                           !(x->fpp > 0 && x->fpp < 1), SBF_E_FORMAT);
        }
        SBFI_RETURN_IF(x->off != align_page(at), SBF_E_FORMAT);
        SBFI_RETURN_IF(x->len < PAGE || x->len > (UINT64_C(1) << 40) ||
                       x->items > (uint64_t)INT64_MAX, SBF_E_FORMAT);
        at = x->off + x->len;
    }
    SBFI_RETURN_IF(at > total, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(at < total, SBF_E_TRAILING);
    return SBF_OK;
}

/* The data of sub-filter i mapped read-only into a->map. */
static int map_sub(int fd, uint64_t data_off, size_t bytes, sbfi_make_args *a)
{
    /* the data starts on a 4096-byte boundary; with larger pages the mapping
     * starts at the page below it */
    const long page = sysconf(_SC_PAGESIZE);
    const uint64_t pg = page > 0 ? (uint64_t)page : PAGE;
    const uint64_t off = data_off / pg * pg;
    const size_t skip = (size_t)(data_off - off), len = skip + bytes;
    unsigned char *base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
    SBFI_RETURN_IF(base == MAP_FAILED, SBF_E_IO);
    a->map = base;
    a->map_len = len;
    a->map_data = base + skip;
    return SBF_OK;
}

/* The version and header length of a file whose first page is h:
 * SBF_E_VERSION unless 3 or 4, SBF_E_FORMAT for a sub-filter count or
 * header length out of range. */
static int header_size(const unsigned char *h, uint32_t *version, uint64_t *hl)
{
    *version = sbfi_get_le32(h + 4);
    SBFI_RETURN_IF(*version != 3 && *version != 4, SBF_E_VERSION);
    const uint32_t n = sbfi_get_le32(h + 48);
    const uint32_t most = *version == 3 ? SBF_SCALABLE_FILE_MAX_FILTERS : SBF_SCALABLE_MAX_FILTERS;
    SBFI_RETURN_IF(n == 0 || n > most, SBF_E_FORMAT);
    *hl = header_len(*version, n);
    SBFI_RETURN_IF(*version == 4 && sbfi_get_le64(h + 56) != *hl, SBF_E_FORMAT);
    return SBF_OK;
}

#define MAX_HEADER (TABLE + V4_ENTRY * SBF_SCALABLE_MAX_FILTERS + 8 + PAGE)

static int read_all(const source *r, int mode, unsigned flags, sbf_scalable **out)
{
    *out = NULL;
    SBFI_RETURN_IF(r->total < 8, SBF_E_TRUNCATED);
    unsigned char *h = malloc(MAX_HEADER + PAGE);
    entry *t = malloc(SBF_SCALABLE_MAX_FILTERS * sizeof *t);
    sbfi_header *hd = malloc(SBF_SCALABLE_MAX_FILTERS * sizeof *hd);
    if (h == NULL || t == NULL || hd == NULL) {
        free(h);
        free(t);
        free(hd);
        return SBF_E_NOMEM;
    }
    unsigned char *sh = h + MAX_HEADER; /* a sub-filter's header, then padding */
    sbf_scalable_params p;
    uint32_t n = 0, version = 0;
    uint64_t hl = PAGE;
    sbf_scalable *s = NULL;
    int rc = read_at(r, h, 8, 0);
    if (rc == SBF_OK && memcmp(h, "SBF1", 4) != 0)
        rc = SBF_E_FORMAT;
    if (rc == SBF_OK && sbfi_get_le32(h + 4) != 3 && sbfi_get_le32(h + 4) != 4)
        rc = SBF_E_VERSION;
    if (rc == SBF_OK)
        rc = read_at(r, h, PAGE, 0);
    if (rc == SBF_OK)
        rc = header_size(h, &version, &hl);
    if (rc == SBF_OK && hl > PAGE)
        rc = read_at(r, h + PAGE, (size_t)(hl - PAGE), PAGE);
    if (rc == SBF_OK)
        rc = parse_header(h, version, hl, r->total, &p, &n, t);
    /* every sub-filter's header: format 3 against the geometry its place
     * gives, format 4 against the header's hash */
    for (uint32_t i = 0; rc == SBF_OK && i < n; i++) {
        rc = read_at(r, sh, PAGE, t[i].off);
        if (rc == SBF_OK)
            rc = sbfi_header_parse(sh, PAGE, t[i].len, &hd[i]);
        if (rc == SBF_E_TRUNCATED || rc == SBF_E_TRAILING)
            rc = SBF_E_FORMAT; /* the table's length and the image's disagree */
        uint64_t bits;
        uint32_t k;
        if (rc == SBF_OK && (hd[i].version != 2 || hd[i].seed != p.seed))
            rc = SBF_E_FORMAT;
        if (rc == SBF_OK && version == 3 &&
            (hd[i].layout != p.layout || sbfi_scalable_geometry(&p, i, &bits, &k) != SBF_OK ||
             bits != hd[i].bits || k != hd[i].k))
            rc = SBF_E_FORMAT;
        if (rc == SBF_OK && version == 4 && !sbfi_scalable_hash_ok(&p, hd[i].layout))
            rc = SBF_E_FORMAT;
        /* the zeros between this image and the next */
        const uint64_t end = t[i].off + t[i].len, pad = i + 1 < n ? t[i + 1].off - end : 0;
        if (rc == SBF_OK && pad > 0) {
            rc = read_at(r, sh, (size_t)pad, end);
            if (rc == SBF_OK && !all_zero(sh, (size_t)pad))
                rc = SBF_E_FORMAT;
        }
    }
    if (rc == SBF_OK && (s = sbfi_scalable_new(&p, mode == MODE_MAP)) == NULL)
        rc = SBF_E_NOMEM;
    for (uint32_t i = 0; rc == SBF_OK && i < n; i++) {
        sbfi_make_args a;
        sbfi_args_from(&a, &hd[i], NULL);
        const uint64_t data_off = t[i].off + PAGE;
        if (mode == MODE_MAP)
            rc = map_sub(r->fd, data_off, hd[i].bytes, &a);
        sbf_filter *f = NULL;
        if (rc == SBF_OK)
            rc = sbfi_make(&f, &a); /* owns the mapping from here */
        if (rc == SBF_OK && mode == MODE_LOAD)
            rc = read_at(r, f->words, hd[i].bytes, data_off);
        if (rc == SBF_OK && !(mode == MODE_MAP && (flags & SBF_MAP_NO_VERIFY)))
            rc = sbfi_data_check(&hd[i], NULL, f->words);
        if (rc == SBF_OK)
            rc = sbfi_scalable_append(s, f, t[i].items, t[i].capacity, t[i].fpp);
        if (rc != SBF_OK)
            sbf_free(f);
    }
    free(h);
    free(t);
    free(hd);
    if (rc != SBF_OK) {
        sbf_scalable_free(s);
        return rc;
    }
    *out = s;
    return SBF_OK;
}

int sbf_scalable_deserialize(sbf_scalable **out, const void *buf, size_t len)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || (buf == NULL && len > 0), SBF_E_NULL);
    const source r = { buf, -1, len };
    return read_all(&r, MODE_LOAD, 0, out);
}

static int open_read(sbf_scalable **out, const char *path, int mode, unsigned flags)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF((flags & ~(unsigned)SBF_MAP_NO_VERIFY) != 0, SBF_E_PARAM);
    source r = { NULL, -1, 0 };
    SBFI_FORWARD_IF_ERROR(sbfi_open_regular(path, &r.fd, &r.total));
    const int rc = read_all(&r, mode, flags, out);
    const int e = errno;
    close(r.fd); /* mappings keep the file */
    errno = e;
    return rc;
}

int sbf_scalable_load(sbf_scalable **out, const char *path)
{
    return open_read(out, path, MODE_LOAD, 0);
}

int sbf_scalable_map(sbf_scalable **out, const char *path, unsigned flags)
{
    return open_read(out, path, MODE_MAP, flags);
}
