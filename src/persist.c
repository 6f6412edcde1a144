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
 *  off  size  field (little-endian)
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
 */
#define OWN_HEADER 56
#define OWN_VERSION 1

static uint64_t own_checksum(const unsigned char *hdr, const void *data, size_t len)
{
    uint64_t a[2], b[2];
    sbf_murmur3_x64_128(hdr, 48, 0, a);
    sbf_murmur3_x64_128(data, len, (uint32_t)a[0], b);
    return b[0] ^ a[1];
}

int sbf_serialize(const sbf_filter *f, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    SBFI_RETURN_IF(f == NULL || buf == NULL || len == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(f->bytes > SIZE_MAX - OWN_HEADER, SBF_E_NOMEM);
    unsigned char *p = malloc(OWN_HEADER + f->bytes);
    SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
    memcpy(p, "SBF1", 4);
    put_le32(p + 4, OWN_VERSION);
    put_le32(p + 8, (uint32_t)f->layout);
    put_le32(p + 12, f->k);
    put_le32(p + 16, f->seed);
    put_le32(p + 20, 0);
    put_le64(p + 24, f->bits);
    put_le64(p + 32, f->added);
    put_le64(p + 40, f->bytes);
    memcpy(p + OWN_HEADER, f->words, f->bytes);
    put_le64(p + 48, own_checksum(p, f->words, f->bytes));
    *buf = p;
    *len = OWN_HEADER + f->bytes;
    return SBF_OK;
}

/*
 * The data bytes of a filter of this geometry, derived from the layout's
 * rules alone (the same as sbf_create and sbfi_make), so that a header is
 * checked against the buffer before anything is allocated.
 */
static int own_geometry(uint32_t layout, uint64_t bits, uint32_t k, size_t *bytes)
{
    uint64_t granule, max;
    switch (layout) {
    case SBF_CLASSIC:
        SBFI_RETURN_IF(k < 1 || k > SBF_MAX_K_CLASSIC, SBF_E_K);
        granule = 64;
        max = UINT64_C(64) * INT32_MAX;
        break;
    case SBF_SPLIT_BLOCK:
        SBFI_RETURN_IF(k != 8 && k != 16, SBF_E_K);
        granule = UINT64_C(32) * k;
        max = SBF_MAX_BITS;
        break;
    case SBF_BLOCKED:
    case SBF_COUNTING:
        SBFI_RETURN_IF(k < 1 || k > SBF_MAX_K_BLOCKED, SBF_E_K);
        granule = SBF_BLOCK_BITS;
        max = SBF_MAX_BITS;
        break;
    default:
        return SBF_E_LAYOUT;
    }
    SBFI_RETURN_IF(bits == 0 || bits % granule != 0, SBF_E_FORMAT);
    SBFI_RETURN_IF(bits > max, SBF_E_TOO_LARGE);
    *bytes = (size_t)((bits / 8 + SBFI_LINE - 1) / SBFI_LINE * SBFI_LINE);
    return SBF_OK;
}

/* The bytes past bits / 8 are padding: no kernel, set operation or import
 * ever sets them, so a buffer with a non-zero padding byte is corrupt. */
static int own_padding_zero(const unsigned char *data, uint64_t bits, size_t bytes)
{
    for (size_t i = (size_t)(bits / 8); i < bytes; i++)
        SBFI_RETURN_IF(data[i] != 0, SBF_E_FORMAT);
    return SBF_OK;
}

int sbf_deserialize(sbf_filter **out, const void *buf, size_t len)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    const unsigned char *p = buf;
    SBFI_RETURN_IF(len < OWN_HEADER, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(memcmp(p, "SBF1", 4) != 0, SBF_E_FORMAT);
    SBFI_RETURN_IF(get_le32(p + 4) != OWN_VERSION, SBF_E_VERSION);
    const uint32_t layout = get_le32(p + 8), k = get_le32(p + 12);
    const uint64_t bits = get_le64(p + 24), dlen = get_le64(p + 40);
    SBFI_RETURN_IF(dlen > len - OWN_HEADER, SBF_E_TRUNCATED);
    SBFI_RETURN_IF(dlen < len - OWN_HEADER, SBF_E_TRAILING);
    SBFI_RETURN_IF(get_le64(p + 48) != own_checksum(p, p + OWN_HEADER, dlen), SBF_E_FORMAT);
    SBFI_RETURN_IF(get_le32(p + 20) != 0, SBF_E_FORMAT);
    /* Geometry, data length and padding, all before any allocation. */
    size_t bytes;
    SBFI_FORWARD_IF_ERROR(own_geometry(layout, bits, k, &bytes));
    SBFI_RETURN_IF(dlen != bytes, SBF_E_FORMAT);
    SBFI_FORWARD_IF_ERROR(own_padding_zero(p + OWN_HEADER, bits, bytes));
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, (int)layout, bits, k, get_le32(p + 16), kt));
    if (f->bytes != bytes) { /* cannot happen: own_geometry mirrors sbfi_make */
        sbf_free(f);
        return SBF_E_FORMAT;
    }
    memcpy(f->words, p + OWN_HEADER, bytes);
    f->added = get_le64(p + 32);
    *out = f;
    return SBF_OK;
}
