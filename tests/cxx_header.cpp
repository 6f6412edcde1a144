// The public header compiles as C++ (g++ -Wall -Wextra -Werror -pedantic,
// C++11 and C++17) and links through its extern "C" block: `make check-cxx`.
#include "simdbloom.h"

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
    int isas[8];
    const size_t n = sbf_isa_list(isas, 8);
    struct sbf_info info;
    if (sbf_info(f, &info) != SBF_OK)
        return 1;
    std::printf("C++ %ld: simdbloom %s, %zu ISAs known, filter on %s\n",
                static_cast<long>(__cplusplus), sbf_version_string(), n,
                sbf_isa_name(info.isa));
    sbf_free(f);
    return 0;
}
