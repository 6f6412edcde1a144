/*
 * libFuzzer target: sbf_scalable_deserialize (formats 3 and 4, growing filters). A
 * refused buffer must leave *out NULL and return a documented code; an
 * accepted one must answer queries, take adds, report a bound, and
 * serialize to a buffer that deserializes to the same sub-filters.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbf_scalable *s = (sbf_scalable *)&s;
    const int rc = sbf_scalable_deserialize(&s, data, size);
    if (rc != SBF_OK) {
        FUZZ_CHECK(s == NULL);
        FUZZ_CHECK(fuzz_own_code(rc) || rc == SBF_E_ENDIAN);
        return 0;
    }
    struct sbf_scalable_info in;
    FUZZ_CHECK(sbf_scalable_info(s, &in) == SBF_OK);
    FUZZ_CHECK(in.filters >= 1 && in.filters <= SBF_SCALABLE_MAX_FILTERS);
    FUZZ_CHECK(in.fpp_bound >= 0 && in.fpp_bound <= 1);
    void *buf;
    size_t len;
    FUZZ_CHECK(sbf_scalable_serialize(s, &buf, &len) == SBF_OK);
    sbf_scalable *t;
    FUZZ_CHECK(sbf_scalable_deserialize(&t, buf, len) == SBF_OK);
    for (uint32_t i = 0; i < in.filters; i++)
        FUZZ_CHECK(fuzz_same_bytes(sbf_scalable_filter(s, i), sbf_scalable_filter(t, i)));
    FUZZ_CHECK(sbf_scalable_count(t) == in.keys);
    sbf_buffer_free(buf);
    /* adds: a key added is found (growth may fail: a documented code) */
    for (uint64_t k = 0; k < 64; k++) {
        const int r = sbf_scalable_add(s, &k, sizeof k);
        FUZZ_CHECK(r == 0 || r == 1 || r == SBF_E_TOO_LARGE || r == SBF_E_K ||
                   r == SBF_E_NOMEM || r == SBF_E_FULL); /* FULL: non-scaling */
        if (r >= 0)
            FUZZ_CHECK(sbf_scalable_contains(s, &k, sizeof k) == 1);
    }
    sbf_scalable_free(t);
    sbf_scalable_free(s);
    return 0;
}
