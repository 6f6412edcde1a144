// Measurement only: Boost fast_multiblock32<8> given SplitMix64's finalizer (declared avalanching)
// on the structured keys of tests/test_key_patterns.c, against its default hash and the formula.
#include <boost/bloom.hpp>
#include <simdbloom.h>
#include <cstdio>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
static inline uint64_t mix13(uint64_t z) { z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
struct Mix13H { using is_avalanching = std::true_type; size_t operator()(uint64_t x) const { return mix13(x ^ 0x9E3779B97F4A7C15ULL); } };
using FD = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>>;
using FX = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0, Mix13H>;
static uint64_t key(int kind, uint64_t i) {
  switch (kind) { case 0: return i; case 1: return i << 32; case 2: return i * 1000003; case 3: return i << 12; default: return 0x8000000000000000ULL | i << 40; }
}
int main() {
  const char* kn[] = {"i", "i<<32", "i*1000003", "i<<12", "2^63+(i<<40)"};
  for (size_t bytes : {size_t(16) << 10, size_t(1) << 20, size_t(64) << 20}) {
    const uint64_t n = bytes * 8 / 10, Q = 4000000;
    for (int kind = 0; kind < 5; kind++) {
      FD fd(bytes * 8); FX fx(bytes * 8);
      for (uint64_t i = 0; i < n; i++) { uint64_t k = key(kind, i); fd.insert(k); fx.insert(k); }
      uint64_t a = 0, b = 0;
      for (uint64_t i = n; i < n + Q; i++) { uint64_t k = key(kind, i); a += fd.may_contain(k); b += fx.may_contain(k); }
      printf("%6zuK %-13s boost default %7.3f%%  boost+SplitMix64 %6.3f%%  (split-block formula %.3f%%)\n", bytes >> 10, kn[kind],
             100.0 * a / Q, 100.0 * b / Q, 100 * sbf_fpp_layout(SBF_SPLIT_BLOCK, n, bytes * 8, 8));
    }
  }
}
