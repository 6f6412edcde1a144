/*
 * Raw access to a filter's data for moving it in chunks (sbf_write_data):
 * general, not tied to any transport; the Redis module's BF.LOADCHUNK is one
 * user. Reading needs nothing new: sbf_data returns the bytes.
 */
#include "sbf_internal.h"

#include <string.h>

int sbf_write_data(sbf_filter *f, uint64_t offset, const void *buf, size_t len)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_RETURN_IF(buf == NULL && len > 0, SBF_E_NULL);
    /* Only the used bytes: the padding past bits / 8 stays zero, as every
     * loader checks (a filter with a padding bit set is corrupt). */
    const uint64_t used = f->bits / 8;
    SBFI_RETURN_IF(offset > used || len > used - offset, SBF_E_PARAM);
    if (len > 0)
        memcpy((unsigned char *)f->words + offset, buf, len);
    return SBF_OK;
}
