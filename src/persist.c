/*
 * Persistence: Guava's BloomFilter.writeTo form, and simdbloom's own form.
 * Every byte from outside is checked before anything is allocated, and a
 * refused buffer leaves *out NULL.
 */
#include "sbf_internal.h"

#include <stdlib.h>

static void put_be64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint64_t get_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint64_t get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

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
    p[2] = (unsigned char)(nwords >> 24);
    p[3] = (unsigned char)(nwords >> 16);
    p[4] = (unsigned char)(nwords >> 8);
    p[5] = (unsigned char)nwords;
    for (uint64_t i = 0; i < nwords; i++)
        put_be64(p + GUAVA_HEADER + i * 8, f->words[i]);
    *buf = p;
    *len = total;
    return SBF_OK;
}

int sbf_import_guava(sbf_filter **out, const void *buf, size_t len)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    const unsigned char *p = buf;
    SBFI_RETURN_IF(len < GUAVA_HEADER, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(p[0] != GUAVA_MITZ_64, SBF_E_STRATEGY);
    const uint32_t k = p[1];
    SBFI_RETURN_IF(k == 0, SBF_E_K);
    const int32_t nwords = (int32_t)((uint32_t)p[2] << 24 | (uint32_t)p[3] << 16 |
                                     (uint32_t)p[4] << 8 | p[5]);
    SBFI_RETURN_IF(nwords <= 0, SBF_E_WORDCOUNT);
    const uint64_t need = GUAVA_HEADER + (uint64_t)nwords * 8;
    SBFI_RETURN_IF(len < need, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(len > need, SBF_E_TRAILING);
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, SBF_CLASSIC, (uint64_t)nwords * 64, k, 0, kt));
    for (int32_t i = 0; i < nwords; i++)
        f->words[i] = get_be64(p + GUAVA_HEADER + (size_t)i * 8);
    *out = f;
    return SBF_OK;
}

/* ------------------------------------------------------------- own format
 *
 * Little-endian fields. Version 1 (read only):
 *
 *  off  size  field
 *    0     4  magic "SBF1"
 *    4     4  format version (1)
 *    8     4  layout
 *   12     4  k
 *   16     4  seed
 *   20     4  reserved, 0
 *   24     8  bits
 *   32     8  keys added
 *   40     8  data length in bytes (as sbf_data reports it)
 *   48     8  h1 of MurmurHash3_x64_128 (seed 0) of bytes 0..47 and the data
 *   56     -  the data
 *
 * Version 2 (written since 0.1; README "File format"): the same first 48
 * bytes with version 2 and a flags word at 20 (0), then
 *   48     8  data offset (4096)
 *   56     8  XXH3-64 (seed 0) of the data
 *   64     8  XXH3-64 (seed 0) of bytes 0..63
 *   72  4024  zero
 * 4096     -  the data, page aligned, so a mapped file can be probed in place
 *
 * In both versions the data bytes past bits / 8 are padding and must be 0.
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
static int own_geometry(uint32_t layout, uint64_t bits, uint32_t k, size_t *bytes,
                        uint64_t *granule)
{
    SBFI_RETURN_IF(layout > INT32_MAX, SBF_E_LAYOUT);
    const int rc = sbfi_check_geometry((int)layout, bits, k);
    SBFI_RETURN_IF(rc == SBF_E_PARAM, SBF_E_FORMAT);
    SBFI_FORWARD_IF_ERROR(rc);
    *granule = sbfi_granule_bits((int)layout, k);
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
    h->version = get_le32(p + 4);
    uint64_t dlen;
    if (h->version == 1) {
        SBFI_RETURN_IF(total < SBFI_V1_HEADER || avail < SBFI_V1_HEADER, SBF_E_TRUNCATED);
        dlen = get_le64(p + 40);
        /* lengths first: the checksum covers the data (sbfi_data_check) */
        SBFI_RETURN_IF(dlen > total - SBFI_V1_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(dlen < total - SBFI_V1_HEADER, SBF_E_TRAILING);
        SBFI_RETURN_IF(get_le32(p + 20) != 0, SBF_E_FORMAT);
        h->data_off = SBFI_V1_HEADER;
    } else if (h->version == 2) {
        SBFI_RETURN_IF(total < SBFI_V2_HEADER || avail < SBFI_V2_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(get_le64(p + 64) != xxh3(p, 64), SBF_E_FORMAT);
        SBFI_RETURN_IF(!host_little_endian(), SBF_E_ENDIAN);
        SBFI_RETURN_IF(get_le32(p + 20) != 0, SBF_E_FORMAT);
        SBFI_RETURN_IF(get_le64(p + 48) != SBFI_V2_HEADER, SBF_E_FORMAT);
        SBFI_RETURN_IF(!all_zero(p + 72, SBFI_V2_HEADER - 72), SBF_E_FORMAT);
        dlen = get_le64(p + 40);
        h->data_sum = get_le64(p + 56);
        h->data_off = SBFI_V2_HEADER;
    } else {
        return SBF_E_VERSION;
    }
    h->layout = (int)get_le32(p + 8);
    h->k = get_le32(p + 12);
    h->seed = get_le32(p + 16);
    h->bits = get_le64(p + 24);
    h->added = get_le64(p + 32);
    /* Geometry and data length, before anything is allocated. */
    SBFI_FORWARD_IF_ERROR(own_geometry(get_le32(p + 8), h->bits, h->k, &h->bytes,
                                       &h->granule));
    SBFI_RETURN_IF(dlen != h->bytes, SBF_E_FORMAT);
    if (h->version == 2) {
        SBFI_RETURN_IF(dlen > total - SBFI_V2_HEADER, SBF_E_TRUNCATED);
        SBFI_RETURN_IF(dlen < total - SBFI_V2_HEADER, SBF_E_TRAILING);
    }
    return SBF_OK;
}

/* The bytes past bits / 8 are padding: no kernel, set operation or import
 * ever sets them, so a filter with a non-zero padding byte is corrupt. */
int sbfi_padding_check(const sbfi_header *h, const void *data)
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
    SBFI_RETURN_IF(sum != (h->version == 1 ? get_le64(head + 48) : h->data_sum),
                   SBF_E_FORMAT);
    return sbfi_padding_check(h, data);
}

void sbfi_fill_from(sbf_filter *f, const sbfi_header *h)
{
    sbfi_set_geometry(f, h->layout, h->bits, h->k); /* src/layout.c */
    f->seed = h->seed;
    f->added = h->added;
}

int sbfi_make_from(sbf_filter **out, const sbfi_header *h)
{
    *out = NULL;
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, h->layout, h->bits, h->k, h->seed, kt));
    sbf_filter want = *f;
    sbfi_fill_from(&want, h);
    /* Cannot differ: own_geometry and sbfi_fill_from mirror sbfi_make. */
    if (f->bytes != want.bytes || f->nblocks != want.nblocks ||
        f->block_bytes != want.block_bytes) {
        sbf_free(f);
        return SBF_E_FORMAT;
    }
    f->added = h->added;
    *out = f;
    return SBF_OK;
}

int sbfi_header_v2(const sbf_filter *f, unsigned char hdr[SBFI_V2_HEADER])
{
    SBFI_RETURN_IF(!host_little_endian(), SBF_E_ENDIAN);
    memset(hdr, 0, SBFI_V2_HEADER);
    memcpy(hdr, OWN_MAGIC, 4);
    put_le32(hdr + 4, 2);
    put_le32(hdr + 8, (uint32_t)f->layout);
    put_le32(hdr + 12, f->k);
    put_le32(hdr + 16, f->seed);
    put_le32(hdr + 20, 0);
    put_le64(hdr + 24, f->bits);
    put_le64(hdr + 32, sbfi_keys_added(f));
    put_le64(hdr + 40, f->bytes);
    put_le64(hdr + 48, SBFI_V2_HEADER);
    put_le64(hdr + 56, xxh3(f->words, f->bytes));
    put_le64(hdr + 64, xxh3(hdr, 64));
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

int sbf_deserialize(sbf_filter **out, const void *buf, size_t len)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    const unsigned char *p = buf;
    sbfi_header h;
    /* Header, checksums and padding are all checked before allocating. */
    SBFI_FORWARD_IF_ERROR(sbfi_header_parse(p, len, len, &h));
    SBFI_FORWARD_IF_ERROR(sbfi_data_check(&h, p, p + h.data_off));
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make_from(&f, &h));
    memcpy(f->words, p + h.data_off, h.bytes);
    *out = f;
    return SBF_OK;
}
