/*
 * libFuzzer target: sbf_deserialize (formats 1 and 2). A refused buffer
 * must leave *out NULL and return a documented code; an accepted one must
 * answer queries, report sane information, and serialize to a buffer that
 * deserializes to the same bytes.
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
    const int rc = sbf_deserialize(&f, data, size);
    if (rc != SBF_OK) {
        FUZZ_CHECK(f == NULL);
        FUZZ_CHECK(fuzz_own_code(rc));
        return 0;
    }
    fuzz_exercise(f, data, size);
    fuzz_differential(sbf_deserialize, data, size);
    void *buf;
    size_t len;
    FUZZ_CHECK(sbf_serialize(f, &buf, &len) == SBF_OK);
    sbf_filter *g;
    FUZZ_CHECK(sbf_deserialize(&g, buf, len) == SBF_OK);
    FUZZ_CHECK(fuzz_same_bytes(f, g));
    /* a version-2 input is exactly what we write */
    if (size >= 8 && data[4] == 2)
        FUZZ_CHECK(len == size && memcmp(buf, data, size) == 0);
    sbf_buffer_free(buf);
    sbf_free(g);
    sbf_free(f);
    return 0;
}
