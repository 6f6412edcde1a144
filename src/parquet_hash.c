/*
 * Probing a parquet-layout filter by XXH64 hashes (the public half of
 * src/parquet_ops.c, apart so that src/filter.c -> parquet_ops.c stays one
 * way: this file counts keys_added through src/filter.c).
 */
#include "sbf_internal.h"
#include "parquet_int.h"

int sbf_add_xxh64(sbf_filter *f, const uint64_t *h, size_t n)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_RETURN_IF(h == NULL && n != 0, SBF_E_NULL);
    SBFI_RETURN_IF(f->lay->hash != SBFI_HASH_XXH64, SBF_E_UNSUPPORTED);
    sbfi_count_added(f, sbfi_pq_by_hash(f, h, n, NULL, 1)); /* adds that changed it */
    return SBF_OK;
}

size_t sbf_contains_xxh64(const sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out)
{
    if (f == NULL || (h == NULL && n != 0))
        return (size_t)SBF_E_NULL;
    if (f->lay->hash != SBFI_HASH_XXH64)
        return (size_t)SBF_E_UNSUPPORTED;
    return sbfi_pq_by_hash((sbf_filter *)(uintptr_t)f, h, n, out, 0);
}
