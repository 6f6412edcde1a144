/*
 * libFuzzer target: sbf_import_guava. A refused buffer leaves *out NULL and
 * returns a documented code; an accepted one answers queries and exports
 * back to exactly the input bytes.
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
    const int rc = sbf_import_guava(&f, data, size);
    if (rc != SBF_OK) {
        FUZZ_CHECK(f == NULL);
        FUZZ_CHECK(rc == SBF_E_TRUNCATED || rc == SBF_E_TRAILING || rc == SBF_E_STRATEGY ||
                   rc == SBF_E_K || rc == SBF_E_WORDCOUNT || rc == SBF_E_NOMEM);
        return 0;
    }
    fuzz_exercise(f, data, size);
    fuzz_differential(sbf_import_guava, data, size);
    void *buf;
    size_t len;
    FUZZ_CHECK(sbf_export_guava(f, &buf, &len) == SBF_OK);
    FUZZ_CHECK(len == size && memcmp(buf, data, size) == 0);
    sbf_buffer_free(buf);
    sbf_free(f);
    return 0;
}
