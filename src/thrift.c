/*
 * Thrift compact protocol, the bounded subset src/parquet*.c needs
 * (src/thrift.h says what is checked).
 */
#include "thrift.h"

#include <string.h>

void sbfi_tr_init(sbfi_tr *r, const void *p, size_t len)
{
    r->p = (const unsigned char *)p;
    r->end = r->p + len;
    r->depth = 0;
    r->eof = 0;
    r->why = NULL;
}

int sbfi_tr_fail(sbfi_tr *r, const char *why)
{
    if (r->why == NULL)
        r->why = why;
    r->p = r->end; /* sticky: nothing more is read */
    return -1;
}

/* A failure for lack of bytes (the caller may say "truncated"). */
static int tr_short(sbfi_tr *r, const char *why)
{
    if (r->why == NULL)
        r->eof = 1;
    return sbfi_tr_fail(r, why);
}

static size_t left(const sbfi_tr *r)
{
    return (size_t)(r->end - r->p);
}

int sbfi_tr_varint(sbfi_tr *r, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (r->why != NULL || r->p == r->end)
            return tr_short(r, "thrift: truncated integer");
        const unsigned char b = *r->p++;
        if (shift == 63 && (b & 0x7e) != 0)
            return sbfi_tr_fail(r, "thrift: integer overflows 64 bits");
        x |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *v = x;
            return 0;
        }
    }
    return sbfi_tr_fail(r, "thrift: integer longer than 10 bytes");
}

static int64_t unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

int sbfi_tr_i64(sbfi_tr *r, int64_t *v)
{
    uint64_t z;
    if (sbfi_tr_varint(r, &z) != 0)
        return -1;
    *v = unzigzag(z);
    return 0;
}

int sbfi_tr_i32(sbfi_tr *r, int32_t *v)
{
    uint64_t z;
    if (sbfi_tr_varint(r, &z) != 0)
        return -1;
    if (z > UINT32_MAX)
        return sbfi_tr_fail(r, "thrift: i32 value out of range");
    *v = (int32_t)unzigzag(z);
    return 0;
}

int sbfi_tr_binary(sbfi_tr *r, const unsigned char **s, size_t *len)
{
    uint64_t n;
    if (sbfi_tr_varint(r, &n) != 0)
        return -1;
    if (n > INT32_MAX || n > left(r))
        return tr_short(r, "thrift: string longer than the bytes left");
    *s = r->p;
    *len = (size_t)n;
    r->p += n;
    return 0;
}

int sbfi_tr_field_next(sbfi_tr *r, sbfi_tr_field *f)
{
    if (r->why != NULL || r->p == r->end)
        return tr_short(r, "thrift: struct not terminated");
    const unsigned char b = *r->p++;
    f->type = b & 15;
    if (f->type == SBFI_TT_STOP) {
        if (b != 0)
            return sbfi_tr_fail(r, "thrift: bad stop byte");
        return 0;
    }
    if (f->type > SBFI_TT_UUID)
        return sbfi_tr_fail(r, "thrift: unknown field type");
    const unsigned delta = b >> 4;
    if (delta != 0) {
        const int id = f->last + (int)delta;
        if (id > INT16_MAX)
            return sbfi_tr_fail(r, "thrift: field id out of range");
        f->id = (int16_t)id;
    } else {
        int32_t id;
        if (sbfi_tr_i32(r, &id) != 0)
            return -1;
        if (id < INT16_MIN || id > INT16_MAX)
            return sbfi_tr_fail(r, "thrift: field id out of range");
        f->id = (int16_t)id;
    }
    f->last = f->id;
    return 0;
}

int sbfi_tr_list(sbfi_tr *r, int *etype, uint32_t *n)
{
    if (r->why != NULL || r->p == r->end)
        return tr_short(r, "thrift: truncated list header");
    const unsigned char b = *r->p++;
    uint64_t count = b >> 4;
    *etype = b & 15;
    if (count == 15 && sbfi_tr_varint(r, &count) != 0)
        return -1;
    if (*etype == SBFI_TT_STOP || *etype > SBFI_TT_UUID)
        return sbfi_tr_fail(r, "thrift: unknown list element type");
    if (count > INT32_MAX || count > left(r))
        return tr_short(r, "thrift: list longer than the bytes left");
    *n = (uint32_t)count;
    return 0;
}

int sbfi_tr_struct_begin(sbfi_tr *r)
{
    if (r->why != NULL)
        return -1;
    if (r->depth >= SBFI_TR_MAX_DEPTH)
        return sbfi_tr_fail(r, "thrift: nested deeper than the reader allows");
    r->depth++;
    return 0;
}

void sbfi_tr_struct_end(sbfi_tr *r)
{
    if (r->depth > 0)
        r->depth--;
}

static int skip_bytes(sbfi_tr *r, size_t n)
{
    if (r->why != NULL || n > left(r))
        return tr_short(r, "thrift: value longer than the bytes left");
    r->p += n;
    return 0;
}

static int skip_struct(sbfi_tr *r)
{
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    sbfi_tr_field f = {0, 0, 0};
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        if (sbfi_tr_skip(r, f.type, 0) != 0)
            return -1;
    }
    sbfi_tr_struct_end(r);
    return 0;
}

static int skip_container(sbfi_tr *r, int type)
{
    int kt, vt;
    uint32_t n;
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    if (type == SBFI_TT_MAP) {
        uint64_t count;
        if (sbfi_tr_varint(r, &count) != 0)
            return -1;
        kt = vt = SBFI_TT_I8;
        if (count != 0) {
            if (r->p == r->end)
                return tr_short(r, "thrift: truncated map header");
            const unsigned char b = *r->p++;
            kt = b >> 4;
            vt = b & 15;
            if (kt == 0 || kt > SBFI_TT_UUID || vt == 0 || vt > SBFI_TT_UUID)
                return sbfi_tr_fail(r, "thrift: unknown map element type");
        }
        if (count > left(r) / 2)
            return tr_short(r, "thrift: map longer than the bytes left");
        n = (uint32_t)count;
    } else {
        if (sbfi_tr_list(r, &kt, &n) != 0)
            return -1;
        vt = SBFI_TT_STOP;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (sbfi_tr_skip(r, kt, 1) != 0)
            return -1;
        if (vt != SBFI_TT_STOP && sbfi_tr_skip(r, vt, 1) != 0)
            return -1;
    }
    sbfi_tr_struct_end(r);
    return 0;
}

int sbfi_tr_skip(sbfi_tr *r, int type, int elem)
{
    uint64_t v;
    const unsigned char *s;
    size_t len;
    if (r->why != NULL)
        return -1;
    switch (type) {
    case SBFI_TT_TRUE:
    case SBFI_TT_FALSE:
        return elem ? skip_bytes(r, 1) : 0; /* a field's value is in its type */
    case SBFI_TT_I8: return skip_bytes(r, 1);
    case SBFI_TT_I16:
    case SBFI_TT_I32:
    case SBFI_TT_I64: return sbfi_tr_varint(r, &v);
    case SBFI_TT_DOUBLE: return skip_bytes(r, 8);
    case SBFI_TT_UUID: return skip_bytes(r, 16);
    case SBFI_TT_BINARY: return sbfi_tr_binary(r, &s, &len);
    case SBFI_TT_STRUCT: return skip_struct(r);
    case SBFI_TT_LIST:
    case SBFI_TT_SET:
    case SBFI_TT_MAP: return skip_container(r, type);
    default: return sbfi_tr_fail(r, "thrift: unknown type");
    }
}

/* ------------------------------------------------------------------ writer */

size_t sbfi_tw_byte(unsigned char *buf, size_t at, size_t cap, unsigned char b)
{
    if (at >= cap)
        return SIZE_MAX;
    buf[at] = b;
    return at + 1;
}

static size_t tw_varint(unsigned char *buf, size_t at, size_t cap, uint64_t v)
{
    do {
        const unsigned char b = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        at = sbfi_tw_byte(buf, at, cap, b);
        if (at == SIZE_MAX)
            return at;
        v >>= 7;
    } while (v != 0);
    return at;
}

size_t sbfi_tw_i32(unsigned char *buf, size_t at, size_t cap, int32_t v)
{
    const uint32_t z = ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
    return at == SIZE_MAX ? at : tw_varint(buf, at, cap, z);
}

size_t sbfi_tw_field(unsigned char *buf, size_t at, size_t cap, int16_t *last,
                     int16_t id, int type)
{
    if (at == SIZE_MAX)
        return at;
    const int delta = (int)id - (int)*last;
    *last = id;
    if (delta > 0 && delta <= 15)
        return sbfi_tw_byte(buf, at, cap, (unsigned char)(delta << 4 | type));
    at = sbfi_tw_byte(buf, at, cap, (unsigned char)type);
    return sbfi_tw_i32(buf, at, cap, id);
}
