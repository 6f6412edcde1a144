// The public headers (simdbloom.h with the parts it includes, and
// simdbloom_inline.h) compile as C++ (g++ -Wall -Wextra -Werror -pedantic,
// C++11 and C++17) and link through their extern "C" blocks: `make check-cxx`
// builds this once per vector path of simdbloom_inline.h (SBF_INLINE_ISA).
#include "simdbloom.h"
#include "simdbloom_inline.h"

#include <cstdio>
#include <vector>

int main()
{
    sbf_params p = sbf_params();
    p.layout = SBF_SPLIT_BLOCK;
    p.expected_n = 1000;
    p.fpp = 0.01;
    sbf_filter *f = nullptr;
    if (sbf_create(&f, &p) != SBF_OK)
        return 1;
    std::vector<uint64_t> keys;
    for (uint64_t i = 0; i < 100; i++)
        keys.push_back(i * 0x9e3779b97f4a7c15u);
    if (sbf_add_u64(f, keys.data(), keys.size()) != SBF_OK)
        return 1;
    const size_t hits = sbf_contains_u64(f, keys.data(), keys.size(), nullptr);
    if (sbf_is_error(hits) || hits != keys.size())
        return 1;
    if (!sbf_is_error(sbf_contains_u64(nullptr, keys.data(), 1, nullptr)))
        return 1;
    // the inline path, where this CPU runs the path it was built for
    sbf_view v;
    if (sbf_view_get_writable(f, &v) != SBF_OK)
        return 1;
    if (SBF_INLINE_ISA == SBF_ISA_SCALAR || sbf_isa_available(SBF_INLINE_ISA)) {
        for (uint64_t k : keys)
            if (sbf_view_contains_u64(&v, k) != 1 || sbf_view_add_u64(&v, k) != 0)
                return 1;
        uint64_t h[2];
        sbf_murmur3_bytes("hello", 5, 0, h);
        if (h[0] != UINT64_C(0xcbd8a7b341bd9b02) || sbf_view_add(&v, "hello", 5) != 1 ||
            sbf_view_contains_hash(&v, h[0], h[1]) != 1)
            return 1;
        // narrowed to the split-block probe
        sbf_split_view s;
        sbf_blocked_view b;
        if (sbf_view_split(&v, &s) != SBF_OK || sbf_view_blocked(&v, &b) != SBF_E_UNSUPPORTED ||
            sbf_split_view_contains_u64(&s, keys[0]) != 1 || sbf_split_view_add(&s, "hello", 5) != 0 ||
            sbf_split_view_add_hash(&s, h[0], h[1]) != 0 || sbf_split_view_add_u64(&s, 7) != 1)
            return 1;
        sbf_parquet_view pq;
        sbf_counting_view cv;
        if (sbf_view_parquet(&v, &pq) != SBF_E_UNSUPPORTED ||
            sbf_view_counting(&v, &cv) != SBF_E_UNSUPPORTED)
            return 1;
        // a counting filter's narrowed view: every path's counting probes
        sbf_params cp = {};
        cp.layout = SBF_COUNTING;
        cp.expected_n = 1000;
        cp.fpp = 0.01;
        sbf_filter *c = nullptr;
        sbf_view cw;
        if (sbf_create(&c, &cp) != SBF_OK || sbf_view_get_writable(c, &cw) != SBF_OK ||
            sbf_view_counting(&cw, &cv) != SBF_OK || sbf_counting_view_add_u64(&cv, 5) != 1 ||
            sbf_counting_view_add(&cv, "hello", 5) != 1 ||
            sbf_counting_view_contains_u64(&cv, 5) != 1 ||
            sbf_counting_view_contains_hash(&cv, h[0], h[1]) != 1 ||
            sbf_counting_view_add_hash(&cv, h[0], h[1]) != 0 || sbf_contains(c, "hello", 5) != 1)
            return 1;
        sbf_free(c);
    }
    // one call from each part of simdbloom.h (simdbloom_files.h,
    // simdbloom_parquet.h, simdbloom_scalable.h): found, and linked through their extern "C"
    void *buf = nullptr;
    size_t len = 0;
    if (sbf_encode(f, SBF_FORMAT_SBF, &buf, &len) != SBF_OK ||
        sbf_format_detect(buf, len) != SBF_FORMAT_SBF)
        return 1;
    sbf_buffer_free(buf);
    if (sbf_export_parquet(f, &buf, &len) != SBF_E_UNSUPPORTED)
        return 1;
    // and simdbloom_scalable.h
    sbf_scalable_params sp = {};
    sp.layout = SBF_BLOCKED;
    sp.fpp = 0.01;
    sbf_scalable *sc = nullptr;
    if (sbf_scalable_create(&sc, &sp) != SBF_OK || sbf_scalable_add(sc, "k", 1) != 1 ||
        sbf_scalable_contains(sc, "k", 1) != 1)
        return 1;
    sbf_scalable_free(sc);
    sbf_parquet_close(nullptr);
    int isas[8];
    const size_t n = sbf_isa_list(isas, 8);
    struct sbf_info info;
    if (sbf_info(f, &info) != SBF_OK)
        return 1;
    std::printf("C++ %ld: simdbloom %s, %zu ISAs known, filter on %s, inline path %d\n",
                static_cast<long>(__cplusplus), sbf_version_string(), n,
                sbf_isa_name(info.isa), SBF_INLINE_ISA);
    sbf_free(f);
    return 0;
}
