// Measurement only: fastfilter's SimdBlockFilter (Impala split block, fmix64 hash with a seed) beside
// simdbloom's split-block probe fed the same kind of hash, to attribute the one-key gap.
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
    vs.push_back({"sbf_view_contains_hash, fmix64 pair", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) { uint64_t a, b; sbf_parquet_pair(fmix(k[i] + SEED), &a, &b); s += sbf_view_contains_hash(vp, a, b); } return s; }, {}});
    vs.push_back({"split8 probe, fields in registers, fmix64", [=](const uint64_t* k, size_t m) {
        const uint64_t* w = vp->words; const uint64_t nb = vp->nblocks; const uint32_t* salt = vp->salt; uint64_t s = 0;
        for (size_t i = 0; i < m; i++) { uint64_t a, b; sbf_parquet_pair(fmix(k[i] + SEED), &a, &b);
          s += sbf_inl_split8_has(w + sbf_block_index(a, nb) * 4, salt, sbf_inl_h2_of(b)); } return s; }, {}});
    vs.push_back({"same, block = h & (nb - 1) (not the format)", [=](const uint64_t* k, size_t m) {
        const uint64_t* w = vp->words; const uint64_t nb = vp->nblocks; const uint32_t* salt = vp->salt; uint64_t s = 0;
        for (size_t i = 0; i < m; i++) { uint64_t h = fmix(k[i] + SEED);
          s += sbf_inl_split8_has(w + (h & (nb - 1)) * 4, salt, sbf_inl_h2_of((h >> 32) * 0x100000001ULL)); } return s; }, {}});
    vs.push_back({"same, salts as constants (set1 of h >> 32)", [=](const uint64_t* k, size_t m) {
        const uint64_t* w = vp->words; const uint64_t nb = vp->nblocks; uint64_t s = 0;
        const __m256i salt = _mm256_setr_epi32(0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU, 0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U);
        for (size_t i = 0; i < m; i++) { uint64_t h = fmix(k[i] + SEED);
          __m256i x = _mm256_srli_epi32(_mm256_mullo_epi32(salt, _mm256_set1_epi32((int)(h >> 32))), 27);
          __m256i msk = _mm256_sllv_epi32(_mm256_set1_epi32(1), x);
          s += _mm256_testc_si256(_mm256_load_si256((const __m256i*)(w + sbf_block_index(h & 0xffffffff00000000ULL, nb) * 4)), msk); } return s; }, {}});
    for (int r = 0; r < 40; r++) {
      size_t off = ((size_t)r * 7919 * 64) % (keys.size() - n);
      for (auto& x : vs) { double t0 = now_s(); sink += x.run(&keys[off], n); x.t.push_back((now_s() - t0) * 1e9 / n); }
    }
    printf("%zu KiB, ns per one-key contains (mostly absent), p10 [p50]\n", bytes >> 10);
    for (auto& x : vs) { std::sort(x.t.begin(), x.t.end()); printf("  %-48s %6.2f [%6.2f]\n", x.name.c_str(), x.t[4], x.t[20]); }
    sbf_free(f);
  }
}
