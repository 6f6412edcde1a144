// Measurement only: Boost.Bloom fast_multiblock32<8> (the peer, its own code and its default hash) on structured u64 keys.
#include <boost/bloom.hpp>
#include <simdbloom.h>
#include <cstdio>
#include <cstdint>
#include <initializer_list>
using F = boost::bloom::filter<std::uint64_t, 1, boost::bloom::fast_multiblock32<8>>;
static uint64_t key(int kind, uint64_t i) {
  switch (kind) { case 0: return i; case 1: return i << 32; case 2: return i * 1000003; case 3: return i << 12; default: { uint64_t x = i + 0x9E3779B97F4A7C15ULL * 7; x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 27; x *= 0x94d049bb133111ebULL; return x ^ (x >> 31);} }
}
int main() {
  const char* kn[] = {"seq", "i<<32", "i*1000003", "i<<12", "random"};
  for (size_t bytes : {size_t(16) << 10, size_t(1) << 20, size_t(64) << 20, size_t(1) << 30}) {
    const uint64_t n = bytes * 8 / 10;
    for (int kind = 0; kind < 5; kind++) {
      F f(bytes * 8);
      sbf_params p = {}; p.layout = SBF_SPLIT_BLOCK; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01; sbf_filter* s; sbf_create(&s, &p);
      for (uint64_t i = 0; i < n; i++) { uint64_t k = key(kind, i); f.insert(k); sbf_add(s, &k, 8); }
      const uint64_t Q = 4000000; uint64_t fp = 0, fs = 0;
      for (uint64_t i = n; i < n + Q; i++) { uint64_t k = key(kind, i); fp += f.may_contain(k); fs += sbf_contains(s, &k, 8) == 1; }
      printf("%8zuK %-10s boost fmb32<8> FPR %7.3f%%   simdbloom split-block %.3f%%\n", bytes >> 10, kn[kind], 100.0 * fp / Q, 100.0 * fs / Q);
      sbf_free(s);
    }
  }
}
