/*
 * Persistence internals, shared by src/persist.c (simdbloom's own form and
 * Guava's), src/format.c (the table of forms, detection), src/file.c and
 * src/save.c (the file I/O) and a plugged-in form (Parquet's). Not
 * installed. doc/format.md is the normative description of our format.
 */
#ifndef SBF_PERSIST_H_2F6C81D0
#define SBF_PERSIST_H_2F6C81D0

#include "sbf_internal.h"

/* ------------------------------------------------ our format, versions 1, 2 */
#define SBFI_V1_HEADER 56u
#define SBFI_V2_HEADER 4096u    /* format 2: data at this page-aligned offset */

typedef struct sbfi_header {
    uint32_t version;       /* 1 or 2 */
    int layout;
    uint32_t k, seed;
    uint64_t bits, added;   /* added: SBF_KEYS_UNKNOWN when not known */
    size_t bytes;           /* data length, equal to the geometry's */
    size_t data_off;        /* SBFI_V1_HEADER or SBFI_V2_HEADER */
    uint64_t data_sum;      /* format 2: XXH3-64 of the data */
} sbfi_header;

/* Checks the header of a filter of `total` bytes whose first `avail` bytes
 * are at p (avail >= min(total, SBFI_V2_HEADER)): magic, version, header
 * checksum (format 2), geometry and lengths. Allocates nothing. */
int sbfi_header_parse(const unsigned char *p, size_t avail, uint64_t total,
                      sbfi_header *h);
/* Checks the data of a parsed header: checksum (format 1 needs the header
 * bytes `head`) and zero padding. SBF_OK or SBF_E_FORMAT. */
int sbfi_data_check(const sbfi_header *h, const unsigned char *head,
                    const void *data);
/* Reads n bytes at off into buf: SBF_OK, SBF_E_IO, SBF_E_TRUNCATED. */
typedef int (*sbfi_read_fn)(void *ctx, void *buf, size_t n, uint64_t off);
/* sbfi_data_check for a version-2 header whose data is read piece by
 * piece (cap bytes at a time, into buf) through read_fn, with progress
 * after each piece. SBF_E_PARAM for version 1 (one checksum over header
 * and data: sbfi_data_check it). */
int sbfi_data_check_pieces(const sbfi_header *h, unsigned char *buf, size_t cap,
                           sbfi_read_fn read_fn, void *ctx,
                           sbf_progress_fn progress, void *opaque);
/* The format-2 header of f (one pass over the data for its checksum). */
int sbfi_header_v2(const sbf_filter *f, unsigned char hdr[SBFI_V2_HEADER]);
/* sbfi_make's arguments for a header's filter (allocator: NULL = ours). */
void sbfi_args_from(sbfi_make_args *a, const sbfi_header *h,
                    const sbf_allocator *allocator);

/* ---------------------------------------------------------- the forms
 * One entry per serialized form; src/format.c lists them in the order
 * detection asks. A new form (Parquet's) defines one sbfi_format and adds
 * it to that table: detection, sbf_encode / sbf_decode, sbf_save_as and
 * sbf_load_as then handle it. */
#define SBFI_DETECT_HEAD 4096u  /* bytes of a file a detector is shown */

typedef struct sbfi_format {
    int id;                 /* SBF_FORMAT_* */
    const char *name;       /* sbf_format_name(id) */
    /* 1 if a buffer of `total` bytes whose first `avail` (at most
     * SBFI_DETECT_HEAD) are at head is of this form, else 0. Reads only
     * head; total may be larger than avail (a file's size). */
    int (*detect)(const unsigned char *head, size_t avail, uint64_t total);
    /* The form of f in a malloc'd buffer (sbf_buffer_free releases it). */
    int (*encode)(const sbf_filter *f, void **buf, size_t *len);
    /* A filter from a buffer of this form; every byte checked before any
     * allocation; *out NULL on failure. allocator NULL: the library's. */
    int (*decode)(sbf_filter **out, const void *buf, size_t len,
                  const sbf_allocator *allocator);
} sbfi_format;

extern const sbfi_format sbfi_format_sbf;    /* src/persist.c */
extern const sbfi_format sbfi_format_guava;  /* src/persist.c */
extern const sbfi_format sbfi_format_parquet; /* src/parquet.c */

/* The entry of a format id, or NULL. */
const sbfi_format *sbfi_format_get(int id);
/* The form of a buffer: SBF_FORMAT_*, SBF_E_TRUNCATED (empty, or a prefix
 * of a magic), or SBF_E_FORMAT (no form recognises it). */
int sbfi_format_detect(const unsigned char *head, size_t avail, uint64_t total);

/* -------------------------------------------------------------- file I/O */

/* Opens path read-only without blocking (a FIFO or device is refused,
 * not waited on): SBF_OK with *fd and *size, or SBF_E_IO (errno: open's,
 * fstat's, EISDIR for a directory, EINVAL for anything else not a regular
 * file). src/file.c. */
int sbfi_open_regular(const char *path, int *fd, uint64_t *size);
/* Reads exactly n bytes at off: SBF_OK, SBF_E_IO, or SBF_E_TRUNCATED (the
 * file ended first). */
int sbfi_read_at(int fd, void *buf, size_t n, uint64_t off);

/* One piece of a file being saved. */
typedef struct sbfi_piece {
    const void *p;
    size_t n;
} sbfi_piece;
/* Writes the pieces to path crash-safe (src/save.c; sbf_save's contract). */
int sbfi_save_pieces(const char *path, const sbfi_piece *pieces, size_t n);

#endif /* SBF_PERSIST_H_2F6C81D0 */
