/*
 * Persistence: simdbloom's own form (doc/format.md, the normative
 * description) and Guava's BloomFilter.writeTo form, each an sbfi_format
 * entry (src/persist.h). Every byte from outside is checked before anything
 * is allocated, and a refused buffer leaves *out NULL.
 */
#include "persist.h"
#include "sbf_endian.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ Guava */

#define GUAVA_HEADER 6
#define GUAVA_MITZ_64 1

int sbf_export_guava(const sbf_filter *f, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    SBFI_RETURN_IF(f == NULL || buf == NULL || len == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(f->layout != SBF_CLASSIC || f->seed != 0, SBF_E_UNSUPPORTED);
    const uint64_t nwords = f->bits / 64; /* <= INT32_MAX, checked at creation */
    const size_t total = GUAVA_HEADER + (size_t)nwords * 8;
    unsigned char *p = malloc(total);
    SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
    p[0] = GUAVA_MITZ_64;
    p[1] = (unsigned char)f->k;
    sbfi_put_be32(p + 2, (uint32_t)nwords);
    for (uint64_t i = 0; i < nwords; i++)
        sbfi_put_be64(p + GUAVA_HEADER + i * 8, f->words[i]);
    *buf = p;
    *len = total;
    return SBF_OK;
}

int sbf_import_guava_ex(sbf_filter **out, const void *buf, size_t len,
                        const sbf_allocator *allocator)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    const unsigned char *p = buf;
    SBFI_RETURN_IF(len < GUAVA_HEADER, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(p[0] != GUAVA_MITZ_64, SBF_E_STRATEGY);
    const uint32_t k = p[1];
    SBFI_RETURN_IF(k == 0, SBF_E_K);
    const int32_t nwords = (int32_t)sbfi_get_be32(p + 2);
    SBFI_RETURN_IF(nwords <= 0, SBF_E_WORDCOUNT);
    const uint64_t need = GUAVA_HEADER + (uint64_t)nwords * 8;
    SBFI_RETURN_IF(len < need, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(len > need, SBF_E_TRAILING);
    sbfi_make_args a = { 0 };
    a.layout = SBF_CLASSIC;
    a.bits = (uint64_t)nwords * 64;
    a.k = k;
    a.added_unknown = 1; /* Guava's form carries no count */
    a.allocator = allocator;
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, &a));
    for (int32_t i = 0; i < nwords; i++)
        f->words[i] = sbfi_get_be64(p + GUAVA_HEADER + (size_t)i * 8);
    *out = f;
    return SBF_OK;
}

int sbf_import_guava(sbf_filter **out, const void *buf, size_t len)
{
    return sbf_import_guava_ex(out, buf, len, NULL);
}

/* Guava's form has no magic: its first byte is a strategy ordinal (0
 * MURMUR128_MITZ_32, 1 MURMUR128_MITZ_64). Asked last; the decoder says
 * what is wrong with anything else that starts so. */
static int guava_detect(const unsigned char *head, size_t avail, uint64_t total)
{
    (void)total;
    return avail >= 1 && head[0] <= GUAVA_MITZ_64;
}

const sbfi_format sbfi_format_guava = {
    .id = SBF_FORMAT_GUAVA,
    .name = "guava",
    .detect = guava_detect,
    .encode = sbf_export_guava,
    .decode = sbf_import_guava_ex,
};

/* ------------------------------------------------------------- own format
 *
 * doc/format.md is the normative description: versions 1 (read only) and
 * 2 (written), field by field, what a reader checks and in which order, and
 * what SBF_KEYS_UNKNOWN in the keys-added field means. Offsets used below
 * are its table's.
 */
#define OWN_MAGIC "SBF1"

/* XXH3 from Debian's libxxhash-dev, compiled in (XXH_INLINE_ALL: internal
 * linkage, no run-time dependency, nothing exported). */
#define XXH_INLINE_ALL
#include <xxhash.h>

static uint64_t xxh3(const void *p, size_t n)
{
    return (uint64_t)XXH3_64bits(p, n);
}

/* The data of the file is native uint64_t words: only a little-endian host
 * reads and writes them as the format says. (sbf_internal.h refuses to build
 * for big-endian targets today; this keeps the files safe if that changes.) */
static int host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static uint64_t v1_checksum(const unsigned char *hdr, const void *data, size_t len)
{
    uint64_t a[2], b[2];
    sbf_murmur3_x64_128(hdr, 48, 0, a);
    sbf_murmur3_x64_128(data, len, (uint32_t)a[0], b);
    return b[0] ^ a[1];
}

/*
 * The data bytes of a filter of this geometry, from src/size.c's rules
 * alone (those of sbf_create and sbfi_make), so that a header is checked
 * against the buffer before anything is allocated. A bit count that is not
 * a granule multiple is a corrupt header here (SBF_E_FORMAT).
 */
static int own_geometry(uint32_t layout, uint64_t bits, uint32_t k, size_t *bytes)
{
    SBFI_RETURN_IF(layout > INT32_MAX, SBF_E_LAYOUT);
    const int rc = sbfi_check_geometry((int)layout, bits, k);
    SBFI_RETURN_IF(rc == SBF_E_PARAM, SBF_E_FORMAT);
    SBFI_FORWARD_IF_ERROR(rc);
    *bytes = sbfi_data_bytes(bits);
    return SBF_OK;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return 0;
    return 1;
}

int sbfi_header_parse(const unsigned char *p, size_t avail, uint64_t total,
                      sbfi_header *h)
{
    memset(h, 0, sizeof *h);
    SBFI_RETURN_IF(total < 8 || avail < 8, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(memcmp(p, OWN_MAGIC, 4) != 0, SBF_E_FORMAT);
    h->version = sbfi_get_le32(p + 4);
    uint64_t dlen;
    if (h->version == 1) {
        SBFI_RETURN_IF(total < SBFI_V1_HEADER || avail < SBFI_V1_HEADER, SBF_E_TRUNCATED);
        dlen = sbfi_get_le64(p + 40);
        /* lengths first: the checksum covers the data (sbfi_data_check) */
        SBFI_RETURN_IF(dlen > total - SBFI_V1_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(dlen < total - SBFI_V1_HEADER, SBF_E_TRAILING);
        SBFI_RETURN_IF(sbfi_get_le32(p + 20) != 0, SBF_E_FORMAT);
        h->data_off = SBFI_V1_HEADER;
    } else if (h->version == 2) {
        SBFI_RETURN_IF(total < SBFI_V2_HEADER || avail < SBFI_V2_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(sbfi_get_le64(p + 64) != xxh3(p, 64), SBF_E_FORMAT);
        SBFI_RETURN_IF(!host_little_endian(), SBF_E_ENDIAN);
        SBFI_RETURN_IF(sbfi_get_le32(p + 20) != 0, SBF_E_FORMAT);
        SBFI_RETURN_IF(sbfi_get_le64(p + 48) != SBFI_V2_HEADER, SBF_E_FORMAT);
        SBFI_RETURN_IF(!all_zero(p + 72, SBFI_V2_HEADER - 72), SBF_E_FORMAT);
        dlen = sbfi_get_le64(p + 40);
        h->data_sum = sbfi_get_le64(p + 56);
        h->data_off = SBFI_V2_HEADER;
    } else {
        return SBF_E_VERSION;
    }
    h->layout = (int)sbfi_get_le32(p + 8);
    h->k = sbfi_get_le32(p + 12);
    h->seed = sbfi_get_le32(p + 16);
    h->bits = sbfi_get_le64(p + 24);
    h->added = sbfi_get_le64(p + 32);
    /* Geometry and data length, before anything is allocated. */
    SBFI_FORWARD_IF_ERROR(own_geometry(sbfi_get_le32(p + 8), h->bits, h->k, &h->bytes));
    SBFI_RETURN_IF(dlen != h->bytes, SBF_E_FORMAT);
    if (h->version == 2) {
        SBFI_RETURN_IF(dlen > total - SBFI_V2_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(dlen < total - SBFI_V2_HEADER, SBF_E_TRAILING);
    }
    return SBF_OK;
}

/* The bytes past bits / 8 are padding: no kernel, set operation or import
 * ever sets them, so a filter with a non-zero padding byte is corrupt. */
static int padding_check(const sbfi_header *h, const void *data)
{
    const size_t used = (size_t)(h->bits / 8);
    SBFI_RETURN_IF(!all_zero((const unsigned char *)data + used, h->bytes - used),
                   SBF_E_FORMAT);
    return SBF_OK;
}

int sbfi_data_check(const sbfi_header *h, const unsigned char *head, const void *data)
{
    const uint64_t sum = h->version == 1 ? v1_checksum(head, data, h->bytes)
                                         : xxh3(data, h->bytes);
    SBFI_RETURN_IF(sum != (h->version == 1 ? sbfi_get_le64(head + 48) : h->data_sum),
                   SBF_E_FORMAT);
    return padding_check(h, data);
}

int sbfi_data_check_pieces(const sbfi_header *h, unsigned char *buf, size_t cap,
                           sbfi_read_fn read_fn, void *ctx,
                           sbf_progress_fn progress, void *opaque)
{
    SBFI_RETURN_IF(h->version != 2 || cap == 0, SBF_E_PARAM);
    XXH3_state_t st;
    SBFI_RETURN_IF(XXH3_64bits_reset(&st) != XXH_OK, SBF_E_NOMEM);
    const size_t used = (size_t)(h->bits / 8);
    for (size_t done = 0; done < h->bytes;) {
        const size_t n = h->bytes - done < cap ? h->bytes - done : cap;
        SBFI_FORWARD_IF_ERROR(read_fn(ctx, buf, n, h->data_off + done));
        (void)XXH3_64bits_update(&st, buf, n);
        if (done + n > used) { /* this piece holds padding */
            const size_t from = used > done ? used - done : 0;
            SBFI_RETURN_IF(!all_zero(buf + from, n - from), SBF_E_FORMAT);
        }
        done += n;
        if (progress != NULL)
            progress(opaque, done, h->bytes);
    }
    SBFI_RETURN_IF((uint64_t)XXH3_64bits_digest(&st) != h->data_sum, SBF_E_FORMAT);
    return SBF_OK;
}

void sbfi_args_from(sbfi_make_args *a, const sbfi_header *h,
                    const sbf_allocator *allocator)
{
    memset(a, 0, sizeof *a);
    a->layout = h->layout;
    a->bits = h->bits;
    a->k = h->k;
    a->seed = h->seed;
    a->added_unknown = h->added == SBF_KEYS_UNKNOWN;
    a->added = a->added_unknown ? 0 : h->added;
    a->allocator = allocator;
}

int sbfi_header_v2(const sbf_filter *f, unsigned char hdr[SBFI_V2_HEADER])
{
    SBFI_RETURN_IF(!host_little_endian(), SBF_E_ENDIAN);
    memset(hdr, 0, SBFI_V2_HEADER);
    memcpy(hdr, OWN_MAGIC, 4);
    sbfi_put_le32(hdr + 4, 2);
    sbfi_put_le32(hdr + 8, (uint32_t)f->layout);
    sbfi_put_le32(hdr + 12, f->k);
    sbfi_put_le32(hdr + 16, f->seed);
    sbfi_put_le32(hdr + 20, 0);
    sbfi_put_le64(hdr + 24, f->bits);
    sbfi_put_le64(hdr + 32, sbfi_keys_added(f)); /* SBF_KEYS_UNKNOWN as is */
    sbfi_put_le64(hdr + 40, f->bytes);
    sbfi_put_le64(hdr + 48, SBFI_V2_HEADER);
    sbfi_put_le64(hdr + 56, xxh3(f->words, f->bytes));
    sbfi_put_le64(hdr + 64, xxh3(hdr, 64));
    return SBF_OK;
}

int sbf_serialize(const sbf_filter *f, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    SBFI_RETURN_IF(f == NULL || buf == NULL || len == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(f->bytes > SIZE_MAX - 2 * SBFI_V2_HEADER, SBF_E_NOMEM);
    /* Page aligned (free() releases it), so the data is aligned as in a file. */
    const size_t cap = (SBFI_V2_HEADER + f->bytes + SBFI_V2_HEADER - 1) / SBFI_V2_HEADER *
                       SBFI_V2_HEADER;
    unsigned char *p = aligned_alloc(SBFI_V2_HEADER, cap);
    SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
    const int rc = sbfi_header_v2(f, p);
    if (rc != SBF_OK) {
        free(p);
        return rc;
    }
    memcpy(p + SBFI_V2_HEADER, f->words, f->bytes);
    *buf = p;
    *len = SBFI_V2_HEADER + f->bytes;
    return SBF_OK;
}

int sbf_deserialize_ex(sbf_filter **out, const void *buf, size_t len,
                       const sbf_allocator *allocator)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    const unsigned char *p = buf;
    sbfi_header h;
    /* Header, checksums and padding are all checked before allocating. */
    SBFI_FORWARD_IF_ERROR(sbfi_header_parse(p, len, len, &h));
    SBFI_FORWARD_IF_ERROR(sbfi_data_check(&h, p, p + h.data_off));
    sbfi_make_args a;
    sbfi_args_from(&a, &h, allocator);
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, &a));
    memcpy(f->words, p + h.data_off, h.bytes);
    *out = f;
    return SBF_OK;
}

int sbf_deserialize(sbf_filter **out, const void *buf, size_t len)
{
    return sbf_deserialize_ex(out, buf, len, NULL);
}

static int own_detect(const unsigned char *head, size_t avail, uint64_t total)
{
    (void)total;
    return avail >= 4 && memcmp(head, OWN_MAGIC, 4) == 0;
}

const sbfi_format sbfi_format_sbf = {
    .id = SBF_FORMAT_SBF,
    .name = "sbf",
    .detect = own_detect,
    .encode = sbf_serialize,
    .decode = sbf_deserialize_ex,
};
