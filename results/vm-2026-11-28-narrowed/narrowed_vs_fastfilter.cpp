// Measurement only: fastfilter's SimdBlockFilter (Impala split block, fmix64 hash with a seed) beside
// simdbloom's one-key split-block contains through a view and through the view narrowed to its probe
// (sbf_view_split, a local of the loop), both on MurmurHash3, the layout's own hash.
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <stdexcept>
#include <cmath>
#include "bloom/simd-block.h"
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>
#include <initializer_list>
#include <time.h>
static double now_s() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static inline uint64_t fmix(uint64_t h) { h ^= h >> 33; h *= 0xff51afd7ed558ccdULL; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL; return h ^ (h >> 33); }
static inline uint64_t mix13(uint64_t z) { z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
static const uint64_t SEED = 0x1234567887654321ULL;
volatile uint64_t sink;
struct V { std::string name; std::function<uint64_t(const uint64_t*, size_t)> run; std::vector<double> t; };
int main() {
  for (size_t bytes : {size_t(16) << 10, size_t(256) << 10}) {
    const size_t n = bytes * 8 / 10;
    SimdBlockFilter<> ff((int)std::log2((double)bytes));
    sbf_params p = {}; p.layout = SBF_SPLIT_BLOCK; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01;
    sbf_filter* f; sbf_create(&f, &p); sbf_view v; sbf_view_get_writable(f, &v);
    std::vector<uint64_t> keys(1 << 22);
    for (size_t i = 0; i < keys.size(); i++) keys[i] = mix13(i + 777);
    for (size_t i = 0; i < n; i++) { ff.Add(keys[i]); uint64_t a, b; sbf_parquet_pair(fmix(keys[i] + SEED), &a, &b); sbf_view_add_hash(&v, a, b); }
    const sbf_view* vp = &v;
    std::vector<V> vs;
    vs.push_back({"fastfilter SimdBlockFilter Find (fmix64)", [&](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += ff.Find(k[i]); return s; }, {}});
    vs.push_back({"sbf_view_contains_u64 (MurmurHash3)", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_contains_u64(vp, k[i]); return s; }, {}});
    vs.push_back({"sbf_split_view_contains_u64 (narrowed, MurmurHash3)", [=](const uint64_t* k, size_t m) {
        uint64_t s = 0; sbf_split_view sv; if (sbf_view_split(vp, &sv) != SBF_OK) return s;
        for (size_t i = 0; i < m; i++) s += sbf_split_view_contains_u64(&sv, k[i]); return s; }, {}});
    for (int r = 0; r < 40; r++) {
      size_t off = ((size_t)r * 7919 * 64) % (keys.size() - n);
      for (auto& x : vs) { double t0 = now_s(); sink += x.run(&keys[off], n); x.t.push_back((now_s() - t0) * 1e9 / n); }
    }
    printf("%zu KiB, ns per one-key contains (mostly absent), p10 [p50]\n", bytes >> 10);
    for (auto& x : vs) { std::sort(x.t.begin(), x.t.end()); printf("  %-48s %6.2f [%6.2f]\n", x.name.c_str(), x.t[4], x.t[20]); }
    sbf_free(f);
  }
}
