/*
 * libFuzzer target: the file loaders. The input is written to a memfd and
 * opened by path (/proc/self/fd/N) with sbf_load, sbf_map (verified) and
 * sbf_map (SBF_MAP_NO_VERIFY). They must agree with sbf_deserialize: the
 * same code (sbf_map refuses version 1 with SBF_E_VERSION, and a file
 * detected as Guava's or Parquet's with SBF_E_UNSUPPORTED), the same bytes;
 * an unverified mapping of a file with a valid header may hold any data,
 * and must still answer queries without crashing.
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simdbloom.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        fd = memfd_create("sbf-fuzz", MFD_CLOEXEC);
        FUZZ_CHECK(fd >= 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    FUZZ_CHECK(ftruncate(fd, 0) == 0);
    FUZZ_CHECK(size == 0 || pwrite(fd, data, size, 0) == (ssize_t)size);

    sbf_filter *d = NULL, *l = (sbf_filter *)&l, *m = (sbf_filter *)&m, *n = (sbf_filter *)&n;
    const int rd = sbf_deserialize(&d, data, size);
    const int rl = sbf_load(&l, path);
    const int rm = sbf_map(&m, path, 0);
    const int rn = sbf_map(&n, path, SBF_MAP_NO_VERIFY);
    FUZZ_CHECK(rl == rd);
    /* sbf_map refuses version 1 once its header passed (its data is
     * checked by sbf_deserialize after the header) */
    const int v1 = size >= 8 && memcmp(data, "SBF1\1\0\0\0", 8) == 0;
    /* a file that detection calls Guava's or Parquet's is not ours to map:
     * sbf_map says so (SBF_E_UNSUPPORTED) where sbf_deserialize reads it or
     * names what is wrong with it */
    const int form = sbf_file_format(path);
    const int other = form == SBF_FORMAT_GUAVA || form == SBF_FORMAT_PARQUET;
    if (v1)
        FUZZ_CHECK(rm == SBF_E_VERSION || (rm == rd && rd != SBF_OK));
    else if (!(other && rm == SBF_E_UNSUPPORTED))
        FUZZ_CHECK(rm == rd);
    FUZZ_CHECK((rl == SBF_OK) == (l != NULL));
    FUZZ_CHECK((rm == SBF_OK) == (m != NULL));
    FUZZ_CHECK((rn == SBF_OK) == (n != NULL));
    if (rm == SBF_OK)
        FUZZ_CHECK(rn == SBF_OK); /* fewer checks never refuse more */
    if (rd == SBF_OK) {
        FUZZ_CHECK(fuzz_same_bytes(d, l));
        fuzz_exercise(l, data, size);
    }
    if (rm == SBF_OK) {
        FUZZ_CHECK(fuzz_same_bytes(d, m));
        FUZZ_CHECK(sbf_add(m, "x", 1) == SBF_E_READONLY);
        FUZZ_CHECK(sbf_clear(m) == SBF_E_READONLY);
        fuzz_exercise(m, data, size);
    }
    if (rn == SBF_OK)
        fuzz_exercise(n, data, size);
    else
        FUZZ_CHECK(fuzz_own_code(rn) || (other && rn == SBF_E_UNSUPPORTED));
    sbf_free(d);
    sbf_free(l);
    sbf_free(m);
    sbf_free(n);
    return 0;
}
