/* Sizing of the parquet layout as Parquet writers do it (parquet_int.h). */
#include "sbf_internal.h"
#include "parquet_int.h"

#include <math.h>

#define PQ_MIN_BITS UINT64_C(256)              /* 32 bytes: one block */
#define PQ_MAX_BITS (UINT64_C(128) << 23)      /* 128 MiB */

int sbfi_size_parquet(uint64_t n, double fpp, uint64_t *bits, uint32_t *k)
{
    SBFI_ASSERT(n > 0 && fpp > 0.0 && fpp < 1.0);
    /* -8 / log(1 - p^(1/8)) bits per value, computed as the writers do (not
     * log1p), so a size at a power-of-two boundary rounds as theirs does */
    const double m = -8.0 * (double)n / log(1.0 - pow(fpp, 1.0 / 8));
    SBFI_RETURN_IF(!(m <= (double)PQ_MAX_BITS), SBF_E_TOO_LARGE);
    const uint64_t want = m < (double)PQ_MIN_BITS ? PQ_MIN_BITS : (uint64_t)m;
    uint64_t b = PQ_MIN_BITS;
    while (b < want)
        b <<= 1;
    *bits = b;
    *k = 8;
    return SBF_OK;
}
