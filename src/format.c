/*
 * The serialized forms a filter can take, in one table: simdbloom's own
 * (doc/format.md), Guava's BloomFilter.writeTo, and any form added later
 * (Parquet's header + bitset) as one more sbfi_format entry (src/persist.h).
 * Detection asks the entries in table order, so forms with a magic come
 * before Guava's, which has none. Files of any form: src/file.c, src/save.c.
 */
#include "persist.h"

/* Detection order: magic first, Guava's (no magic) last. */
static const sbfi_format *const forms[] = {
    &sbfi_format_sbf,
    &sbfi_format_parquet, /* a header that parses and sizes the whole buffer */
    &sbfi_format_guava,
};
#define NFORMS (sizeof forms / sizeof forms[0])

const sbfi_format *sbfi_format_get(int id)
{
    for (size_t i = 0; i < NFORMS; i++)
        if (forms[i]->id == id)
            return forms[i];
    return NULL;
}

int sbfi_format_detect(const unsigned char *head, size_t avail, uint64_t total)
{
    SBFI_RETURN_IF(total == 0 || avail == 0, SBF_E_TRUNCATED);
    for (size_t i = 0; i < NFORMS; i++)
        if (forms[i]->detect(head, avail, total))
            return forms[i]->id;
    /* A short buffer that begins like our magic is a cut-off file. */
    if (avail < 4 && memcmp(head, "SBF1", avail) == 0)
        return SBF_E_TRUNCATED;
    return SBF_E_FORMAT;
}

const char *sbf_format_name(int format)
{
    const sbfi_format *e = sbfi_format_get(format);
    return e ? e->name : "unknown";
}

int sbf_format_from_name(const char *name)
{
    SBFI_RETURN_IF(name == NULL, SBF_E_PARAM);
    for (size_t i = 0; i < NFORMS; i++)
        if (strcmp(forms[i]->name, name) == 0)
            return forms[i]->id;
    return SBF_E_PARAM;
}

int sbf_format_detect(const void *buf, size_t len)
{
    SBFI_RETURN_IF(buf == NULL && len != 0, SBF_E_NULL);
    const size_t avail = len < SBFI_DETECT_HEAD ? len : SBFI_DETECT_HEAD;
    return sbfi_format_detect(buf, avail, len);
}

int sbf_encode(const sbf_filter *f, int format, void **buf, size_t *len)
{
    if (buf != NULL)
        *buf = NULL;
    if (len != NULL)
        *len = 0;
    const sbfi_format *e = sbfi_format_get(format);
    SBFI_RETURN_IF(e == NULL, SBF_E_PARAM);
    return e->encode(f, buf, len);
}

int sbf_decode(sbf_filter **out, const void *buf, size_t len, int format,
               const sbf_allocator *allocator)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || buf == NULL, SBF_E_NULL);
    if (format == 0) {
        format = sbf_format_detect(buf, len);
        SBFI_FORWARD_IF_ERROR(format);
    }
    const sbfi_format *e = sbfi_format_get(format);
    SBFI_RETURN_IF(e == NULL, SBF_E_PARAM);
    return e->decode(out, buf, len, allocator);
}
