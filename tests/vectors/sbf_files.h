/* The filters of the known-answer files tests/vectors/sbf_v{1,2}_*.bin
 * (shared by tests/gen/gen_sbf_files.c and tests/test_persist.c). */
#ifndef SBF_FILES_H_0B7E5D21
#define SBF_FILES_H_0B7E5D21

#include <stdio.h>
#include "simdbloom.h"

static const struct {
    const char *name;
    int layout;
    uint64_t bits;  /* padding past bits/8 in classic and split-block */
    uint32_t k;
    uint32_t seed;
} sbf_files[] = {
    { "classic", SBF_CLASSIC, 640, 5, 0 },
    { "blocked", SBF_BLOCKED, 1024, 6, 7 },
    { "split_block", SBF_SPLIT_BLOCK, 768, 8, 1 },
    { "counting", SBF_COUNTING, 1024, 4, 2 },
};
#define SBF_FILES_N 4

/* Keys: the u64 values 0..99 (batched), then "key-0".."key-49" one by one. */
static inline int sbf_files_make(int i, sbf_filter **out)
{
    sbf_params p = { 0 };
    p.layout = sbf_files[i].layout;
    p.bits = sbf_files[i].bits;
    p.k = sbf_files[i].k;
    p.seed = sbf_files[i].seed;
    int rc = sbf_create(out, &p);
    if (rc != SBF_OK)
        return rc;
    uint64_t keys[100];
    for (uint64_t j = 0; j < 100; j++)
        keys[j] = j;
    rc = sbf_add_u64(*out, keys, 100);
    for (int j = 0; j < 50 && rc >= 0; j++) {
        char s[16];
        const int n = snprintf(s, sizeof s, "key-%d", j);
        rc = sbf_add(*out, s, (size_t)n);
    }
    return rc < 0 ? rc : SBF_OK;
}

#endif
