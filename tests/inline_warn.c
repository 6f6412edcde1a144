/*
 * `make check-inline-warnings` (part of check-cxx): every call of
 * include/simdbloom_inline.h in one function, compiled (not run) as C and
 * as C++ by gcc and clang with -O3 -Wall -Wextra -Werror, with and without
 * -march=native: a program that includes the header gets no warning, also
 * when it included <immintrin.h> first (g++ 12 warns inside its AVX-512
 * intrinsics, inlined into the header's code, unless the header quiets it).
 */
#if defined(__x86_64__)
#  include <immintrin.h>
#endif
#include "simdbloom_inline.h"

int inline_warn_probe(sbf_filter *f, const uint64_t *k, int n, const char *s);

int inline_warn_probe(sbf_filter *f, const uint64_t *k, int n, const char *s)
{
    sbf_view v;
    int hits = 0;
    if (sbf_view_get_writable(f, &v) != SBF_OK)
        return -1;
    for (int i = 0; i < n; i++)
        hits += sbf_view_contains_u64(&v, k[i]) + sbf_view_add_u64(&v, k[i]) +
                sbf_view_contains(&v, s, (size_t)i) + sbf_view_add(&v, s, (size_t)i) +
                sbf_view_contains_hash(&v, k[i], k[i] + 1) +
                sbf_view_add_hash(&v, k[i], k[i] + 1) +
                sbf_view_contains_u64_as(&v, k[i], SBF_SPLIT_BLOCK_FMIX) +
                sbf_view_add_u64_as(&v, k[i], SBF_BLOCKED) +
                sbf_view_contains_u64_as(&v, k[i], SBF_CLASSIC) +
                sbf_view_add_u64_as(&v, k[i], n); /* not a constant */
    sbf_split_view sv;
    sbf_blocked_view bv;
    sbf_parquet_view pv;
    sbf_counting_view cv;
    if (sbf_view_split(&v, &sv) == SBF_OK)
        hits += sbf_split_view_contains_u64(&sv, 1) + sbf_split_view_add(&sv, s, 3);
    if (sbf_view_blocked(&v, &bv) == SBF_OK)
        hits += sbf_blocked_view_contains_u64(&bv, 1) + sbf_blocked_view_add_u64(&bv, 3);
    if (sbf_view_parquet(&v, &pv) == SBF_OK)
        hits += sbf_parquet_view_contains(&pv, s, 5) + sbf_parquet_view_add_hash(&pv, 1, 2);
    if (sbf_view_counting(&v, &cv) == SBF_OK)
        hits += sbf_counting_view_contains_hash(&cv, 1, 2) + sbf_counting_view_add_u64(&cv, 3);
    return hits;
}
