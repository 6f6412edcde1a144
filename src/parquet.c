/*
 * Parquet's split-block Bloom filter on disk: the Thrift BloomFilterHeader
 * (apache/parquet-format parquet.thrift, BloomFilter.md "File Format"),
 * followed by numBytes of bitset.
 */
#include "sbf_internal.h"
#include "parquet_int.h"
#include "persist.h"
#include "thrift.h"

#include <stdlib.h>

/* Which member of a one-member union the header names. */
enum { PQ_ALGORITHM = 2, PQ_HASH = 3, PQ_COMPRESSION = 4 };

static int set_why(const char **why, const char *s, int code)
{
    if (why != NULL)
        *why = s;
    return code;
}

/*
 * A union of parquet.thrift whose only known member is field 1, an empty
 * struct (SplitBlockAlgorithm, XxHash, Uncompressed). 1 when it is that
 * member, 0 when another one (unsupported), -1 when malformed.
 */
static int read_union_one(sbfi_tr *r)
{
    if (sbfi_tr_struct_begin(r) != 0)
        return -1;
    sbfi_tr_field f = {0, 0, 0};
    int members = 0, known = 0;
    for (;;) {
        if (sbfi_tr_field_next(r, &f) != 0)
            return -1;
        if (f.type == SBFI_TT_STOP)
            break;
        members++;
        known = f.id == 1 && f.type == SBFI_TT_STRUCT;
        if (sbfi_tr_skip(r, f.type, 0) != 0)
            return -1;
    }
    sbfi_tr_struct_end(r);
    if (members != 1) {
        (void)sbfi_tr_fail(r, "parquet: a union of the Bloom filter header has no single member");
        return -1;
    }
    return known;
}

static const char *const unsupported_why[] = {
    "", "", "parquet: Bloom filter algorithm is not BLOCK (split-block)",
    "parquet: Bloom filter hash is not XXHASH", "parquet: Bloom filter is compressed",
};

int sbfi_pq_header_parse(const void *p, size_t len, size_t *hdr_len,
                         uint32_t *num_bytes, const char **why)
{
    sbfi_tr r;
    sbfi_tr_init(&r, p, len);
    sbfi_tr_field f = {0, 0, 0};
    int32_t nb = 0;
    unsigned seen = 0, unsupported = 0;
    (void)sbfi_tr_struct_begin(&r);
    for (;;) {
        if (sbfi_tr_field_next(&r, &f) != 0 || f.type == SBFI_TT_STOP)
            break;
        if (f.id == 1 && f.type == SBFI_TT_I32) {
            if (sbfi_tr_i32(&r, &nb) != 0)
                break;
        } else if (f.id >= PQ_ALGORITHM && f.id <= PQ_COMPRESSION &&
                   f.type == SBFI_TT_STRUCT) {
            const int u = read_union_one(&r);
            if (u < 0)
                break;
            if (u == 0 && unsupported == 0)
                unsupported = (unsigned)f.id;
        } else if (f.id >= 1 && f.id <= PQ_COMPRESSION) {
            (void)sbfi_tr_fail(&r, "parquet: a Bloom filter header field has the wrong type");
            break;
        } else if (sbfi_tr_skip(&r, f.type, 0) != 0) {
            break;
        }
        if (f.id >= 1 && f.id <= PQ_COMPRESSION)
            seen |= 1u << f.id;
    }
    if (r.why != NULL)
        return set_why(why, r.why, r.eof ? SBF_E_TRUNCATED : SBF_E_FORMAT);
    if (seen != 0x1e)
        return set_why(why, "parquet: the Bloom filter header lacks a required field",
                       SBF_E_FORMAT);
    if (unsupported != 0)
        return set_why(why, unsupported_why[unsupported], SBF_E_UNSUPPORTED);
    if (nb <= 0 || nb % 32 != 0)
        return set_why(why, "parquet: Bloom filter size is not a positive multiple of 32 bytes",
                       SBF_E_FORMAT);
    *hdr_len = (size_t)(r.p - (const unsigned char *)p);
    *num_bytes = (uint32_t)nb;
    return SBF_OK;
}

size_t sbfi_pq_header_write(unsigned char *out, uint32_t num_bytes)
{
    const size_t cap = SBFI_PQ_HEADER_MAX;
    int16_t last = 0;
    size_t at = sbfi_tw_field(out, 0, cap, &last, 1, SBFI_TT_I32);
    at = sbfi_tw_i32(out, at, cap, (int32_t)num_bytes);
    for (int16_t id = PQ_ALGORITHM; id <= PQ_COMPRESSION; id++) {
        int16_t inner = 0;
        at = sbfi_tw_field(out, at, cap, &last, id, SBFI_TT_STRUCT);
        at = sbfi_tw_field(out, at, cap, &inner, 1, SBFI_TT_STRUCT);
        at = sbfi_tw_byte(out, at, cap, SBFI_TT_STOP); /* the empty struct */
        at = sbfi_tw_byte(out, at, cap, SBFI_TT_STOP); /* the union */
    }
    at = sbfi_tw_byte(out, at, cap, SBFI_TT_STOP);
    SBFI_ASSERT(at != SIZE_MAX);
    return at;
}

/* ------------------------------------------------ the Parquet form of a filter */

int sbf_export_parquet(const sbf_filter *f, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    SBFI_RETURN_IF(f == NULL || buf == NULL || len == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(f->layout != SBF_PARQUET, SBF_E_UNSUPPORTED);
    const uint64_t nb = f->bits / 8; /* whole 32-byte blocks, < 2^31 (max_bits) */
    SBFI_ASSERT(nb % 32 == 0 && nb <= INT32_MAX);
    unsigned char head[SBFI_PQ_HEADER_MAX];
    const size_t hl = sbfi_pq_header_write(head, (uint32_t)nb);
    unsigned char *p = malloc(hl + (size_t)nb);
    SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
    memcpy(p, head, hl);
    if (f->flags & SBF_CONCURRENT) { /* adds may run: relaxed loads */
        for (size_t i = 0; i < (size_t)nb / 8; i++) {
            const uint64_t w = __atomic_load_n(&f->words[i], __ATOMIC_RELAXED);
            memcpy(p + hl + i * 8, &w, 8);
        }
    } else {
        memcpy(p + hl, f->words, (size_t)nb); /* little-endian words: the spec's bytes */
    }
    *buf = p;
    *len = hl + (size_t)nb;
    return SBF_OK;
}

int sbfi_pq_import(sbf_filter **out, const void *buf, size_t len,
                   const sbf_allocator *allocator, const char **why)
{
    if (out != NULL)
        *out = NULL;
    if (out == NULL || (buf == NULL && len != 0))
        return set_why(why, "a required pointer argument is NULL", SBF_E_NULL);
    size_t hl;
    uint32_t nb;
    SBFI_FORWARD_IF_ERROR(sbfi_pq_header_parse(buf, len, &hl, &nb, why));
    if (len - hl < nb)
        return set_why(why, "parquet: the bitset is shorter than its header says",
                       SBF_E_TRUNCATED);
    if (len - hl > nb)
        return set_why(why, "parquet: bytes follow the bitset", SBF_E_TRAILING);
    sbfi_make_args a = { 0 };
    a.layout = SBF_PARQUET;
    a.bits = (uint64_t)nb * 8;
    a.k = 8;
    a.added_unknown = 1; /* the form carries no count */
    a.allocator = allocator;
    sbf_filter *f;
    const int e = sbfi_make(&f, &a);
    if (e != SBF_OK)
        return set_why(why, sbf_strerror(e), e);
    memcpy(f->words, (const unsigned char *)buf + hl, nb);
    *out = f;
    return SBF_OK;
}

int sbf_import_parquet(sbf_filter **out, const void *buf, size_t len)
{
    return sbfi_pq_import(out, buf, len, NULL, NULL);
}

static int pq_decode(sbf_filter **out, const void *buf, size_t len,
                     const sbf_allocator *allocator)
{
    return sbfi_pq_import(out, buf, len, allocator, NULL);
}

/* A BloomFilterHeader that parses, followed by exactly its bitset. */
static int pq_detect(const unsigned char *head, size_t avail, uint64_t total)
{
    size_t hl;
    uint32_t nb;
    return sbfi_pq_header_parse(head, avail, &hl, &nb, NULL) == SBF_OK &&
           total == (uint64_t)hl + nb;
}

const sbfi_format sbfi_format_parquet = {
    .id = SBF_FORMAT_PARQUET,
    .name = "parquet",
    .detect = pq_detect,
    .encode = sbf_export_parquet,
    .decode = pq_decode,
};
