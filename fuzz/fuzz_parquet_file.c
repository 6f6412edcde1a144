/*
 * libFuzzer target: a .parquet file image through sbf_parquet_open_mem (the
 * footer walk) and sbf_parquet_read_bloom of every chunk (the
 * BloomFilterHeader). A refused input leaves *out NULL with a documented
 * code and a reason; an accepted one has sane chunks (paths terminated,
 * row groups in range), and a filter read is its header plus a bitset of
 * the announced size, inside the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int file_code(int rc)
{
    return rc == SBF_E_TRUNCATED || rc == SBF_E_FORMAT || rc == SBF_E_UNSUPPORTED ||
           rc == SBF_E_TOO_LARGE || rc == SBF_E_NOMEM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbf_parquet *pq = (sbf_parquet *)&pq;
    const char *why = NULL;
    const int rc = sbf_parquet_open_mem(&pq, data, size, &why);
    if (rc != SBF_OK) {
        FUZZ_CHECK(pq == NULL && file_code(rc) && why != NULL && why[0] != '\0');
        return 0;
    }
    const sbf_parquet_column *cols;
    const size_t n = sbf_parquet_columns(pq, &cols);
    const uint32_t groups = sbf_parquet_row_groups(pq);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(cols[i].row_group < groups);
        FUZZ_CHECK(cols[i].type >= -1 && cols[i].type <= 7);
        FUZZ_CHECK(strlen(cols[i].path) < size);
        /* the escaped name: no control byte, at most 4 bytes per path byte */
        const char *name = sbf_parquet_column_name(pq, i);
        FUZZ_CHECK(name != NULL && strlen(name) <= 4 * strlen(cols[i].path));
        for (const char *p = name; *p; p++)
            FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
        uint64_t xo, xb;
        const int rx = sbf_parquet_bloom_extent(pq, i, &xo, &xb, NULL);
        void *buf = (void *)&buf;
        size_t len = 1;
        why = NULL;
        const int r = sbf_parquet_read_bloom(pq, i, &buf, &len, &why);
        if (r != SBF_OK) {
            FUZZ_CHECK(buf == NULL && len == 0 && why != NULL);
            FUZZ_CHECK(r == SBF_E_PARAM || file_code(r));
            FUZZ_CHECK(r != SBF_E_PARAM || cols[i].bloom_offset < 0);
            FUZZ_CHECK(r == SBF_E_NOMEM || r == rx); /* the extent fails as the read */
            continue;
        }
        FUZZ_CHECK(cols[i].bloom_offset >= 0 && (uint64_t)cols[i].bloom_offset + len <= size);
        FUZZ_CHECK(memcmp(buf, data + cols[i].bloom_offset, len) == 0);
        FUZZ_CHECK(cols[i].bloom_length < 0 || (size_t)cols[i].bloom_length == len);
        FUZZ_CHECK(rx == SBF_OK && xo == (uint64_t)cols[i].bloom_offset && xb == len);
        free(buf);
    }
    FUZZ_CHECK(sbf_parquet_read_bloom(pq, n, (void **)&why, &(size_t){0}, NULL) == SBF_E_PARAM);
    FUZZ_CHECK(sbf_parquet_column_name(pq, n) == NULL);
    sbf_parquet_close(pq);
    return 0;
}
