/*
 * libFuzzer target: sbf_import_parquet (a BloomFilterHeader + bitset, the
 * form Parquet files embed). A refused buffer leaves *out NULL with a
 * documented code; an accepted one answers queries alike on the scalar
 * reference and the detected ISA, and exports to the canonical header
 * followed by exactly the input's bitset, which imports back to the same
 * filter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbf_filter *f = (sbf_filter *)&f;
    const int rc = sbf_import_parquet(&f, data, size);
    if (rc != SBF_OK) {
        FUZZ_CHECK(f == NULL);
        FUZZ_CHECK(rc == SBF_E_TRUNCATED || rc == SBF_E_TRAILING || rc == SBF_E_FORMAT ||
                   rc == SBF_E_UNSUPPORTED || rc == SBF_E_NOMEM);
        return 0;
    }
    fuzz_exercise(f, data, size);
    fuzz_differential(sbf_import_parquet, data, size);
    size_t dlen;
    const unsigned char *d = sbf_data(f, &dlen);
    struct sbf_info in;
    FUZZ_CHECK(sbf_info(f, &in) == SBF_OK && in.layout == SBF_PARQUET && in.k == 8);
    const size_t nb = (size_t)(in.bits / 8);
    FUZZ_CHECK(nb <= size && memcmp(d, data + size - nb, nb) == 0);
    void *buf;
    size_t len;
    FUZZ_CHECK(sbf_export_parquet(f, &buf, &len) == SBF_OK);
    FUZZ_CHECK(len >= nb && memcmp((unsigned char *)buf + len - nb, d, nb) == 0);
    sbf_filter *g;
    FUZZ_CHECK(sbf_import_parquet(&g, buf, len) == SBF_OK);
    FUZZ_CHECK(fuzz_same_bytes(f, g));
    sbf_free(g);
    sbf_buffer_free(buf);
    sbf_free(f);
    return 0;
}
