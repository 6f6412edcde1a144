/*
 * A small, bounded reader and writer of Thrift's compact protocol
 * (apache/thrift doc/specs/thrift-compact-protocol.md), enough for
 * Parquet's BloomFilterHeader and for walking a footer (FileMetaData).
 * Not installed; src/ only.
 *
 * Bounds: every read checks the bytes left; a list or map announces at most
 * as many elements as bytes remain (each element takes at least one byte,
 * so skipping is linear in the input); nesting is limited to
 * SBFI_TR_MAX_DEPTH; varints are at most 10 bytes and integers are
 * range-checked for their Thrift type. The first failure is sticky: it sets
 * `why` (a static sentence) and every later call fails at once.
 */
#ifndef SBF_THRIFT_H_6E0B3F57
#define SBF_THRIFT_H_6E0B3F57

#include <stddef.h>
#include <stdint.h>

#define SBFI_TR_MAX_DEPTH 32

/* Compact-protocol type ids (field types; list elements use the same ids,
 * a boolean element is a byte, id 1 or 2). */
enum {
    SBFI_TT_STOP = 0,
    SBFI_TT_TRUE = 1,
    SBFI_TT_FALSE = 2,
    SBFI_TT_I8 = 3,
    SBFI_TT_I16 = 4,
    SBFI_TT_I32 = 5,
    SBFI_TT_I64 = 6,
    SBFI_TT_DOUBLE = 7,
    SBFI_TT_BINARY = 8,
    SBFI_TT_LIST = 9,
    SBFI_TT_SET = 10,
    SBFI_TT_MAP = 11,
    SBFI_TT_STRUCT = 12,
    SBFI_TT_UUID = 13
};

typedef struct sbfi_tr {
    const unsigned char *p, *end;
    unsigned depth;        /* structs/containers open */
    int eof;               /* the failure was running out of bytes */
    const char *why;       /* NULL while all is well */
} sbfi_tr;

/* Field headers of one struct: `last` carries the previous field id. */
typedef struct sbfi_tr_field {
    int16_t last;
    int16_t id;
    int type;              /* SBFI_TT_*, SBFI_TT_STOP at the end */
} sbfi_tr_field;

void sbfi_tr_init(sbfi_tr *r, const void *p, size_t len);
/* 0 on success, -1 on failure (r->why says why). */
int sbfi_tr_fail(sbfi_tr *r, const char *why);
int sbfi_tr_varint(sbfi_tr *r, uint64_t *v);
int sbfi_tr_i32(sbfi_tr *r, int32_t *v);     /* zigzag varint in int32 range */
int sbfi_tr_i64(sbfi_tr *r, int64_t *v);
int sbfi_tr_binary(sbfi_tr *r, const unsigned char **s, size_t *len);
/* Next field header of the current struct; f->type == STOP ends it. */
int sbfi_tr_field_next(sbfi_tr *r, sbfi_tr_field *f);
/* A list/set header: element type and count (<= bytes left). */
int sbfi_tr_list(sbfi_tr *r, int *etype, uint32_t *n);
/* Struct nesting: begin before reading a struct's fields, end after STOP. */
int sbfi_tr_struct_begin(sbfi_tr *r);
void sbfi_tr_struct_end(sbfi_tr *r);
/* Skips one value of the type (field type or list element type, `elem`
 * set for the latter: booleans are then one byte). */
int sbfi_tr_skip(sbfi_tr *r, int type, int elem);

/* Writer: appends to buf (at most cap bytes); returns the new length, or
 * SIZE_MAX when it does not fit. */
size_t sbfi_tw_field(unsigned char *buf, size_t at, size_t cap, int16_t *last,
                     int16_t id, int type);
size_t sbfi_tw_i32(unsigned char *buf, size_t at, size_t cap, int32_t v);
size_t sbfi_tw_byte(unsigned char *buf, size_t at, size_t cap, unsigned char b);

#endif
