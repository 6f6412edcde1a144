// Measurement only: fastfilter SimdBlockFilter (fmix64 + random seed) on the structured keys.
#include <stdexcept>
#include <cstring>
#include <cmath>
#include "bloom/simd-block.h"
#include <simdbloom.h>
#include <cstdio>
#include <initializer_list>
static uint64_t key(int kind, uint64_t i) {
  switch (kind) { case 0: return i; case 1: return i << 32; case 2: return i * 1000003; case 3: return i << 12; default: return 0x8000000000000000ULL | i << 40; }
}
int main() {
  const char* kn[] = {"i", "i<<32", "i*1000003", "i<<12", "2^63+(i<<40)"};
  for (size_t bytes : {size_t(16) << 10, size_t(1) << 20, size_t(64) << 20}) {
    const uint64_t n = bytes * 8 / 10, Q = 4000000;
    for (int kind = 0; kind < 5; kind++) {
      if (kind == 4 && n + Q > (1ULL << 23)) continue; /* keys would repeat */
      SimdBlockFilter<> ff((int)std::log2((double)bytes));
      for (uint64_t i = 0; i < n; i++) ff.Add(key(kind, i));
      uint64_t a = 0;
      for (uint64_t i = n; i < n + Q; i++) a += ff.Find(key(kind, i));
      printf("%6zuK %-13s fastfilter SimdBlockFilter %6.3f%%  (split-block formula %.3f%%)\n", bytes >> 10, kn[kind], 100.0 * a / Q,
             100 * sbf_fpp_layout(SBF_SPLIT_BLOCK, n, bytes * 8, 8));
    }
  }
}
