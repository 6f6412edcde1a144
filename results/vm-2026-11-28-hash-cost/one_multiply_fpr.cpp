// Measurement only: FPR of the mulx-fold hash (+ Parquet's pair map) vs MurmurHash3 on structured keys.
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <cstdio>
#include <cstdint>
#include <initializer_list>
static inline void pair64(uint64_t h, uint64_t* h1, uint64_t* h2) { *h1 = h & 0xffffffff00000000ULL; *h2 = (uint64_t)(uint32_t)h * 0x100000001ULL; }
static inline uint64_t h_mulx(uint64_t k, uint64_t C) { unsigned __int128 m = (unsigned __int128)(k ^ 0x9E3779B97F4A7C15ULL) * C; return (uint64_t)m ^ (uint64_t)(m >> 64); }
static inline uint64_t h_boost(uint64_t k) { unsigned __int128 m = (unsigned __int128)k * 0x9E3779B97F4A7C15ULL; return (uint64_t)m ^ (uint64_t)(m >> 64); }
static uint64_t key(int kind, uint64_t i) {
  switch (kind) { case 0: return i; case 1: return i << 32; case 2: return i * 1000003; case 3: return i << 12; default: { uint64_t x = i + 0x9E3779B97F4A7C15ULL * 7; x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 27; x *= 0x94d049bb133111ebULL; return x ^ (x >> 31);} }
}
int main() {
  const char* kn[] = {"seq", "i<<32", "i*1000003", "i<<12", "random"};
  for (size_t bytes : {size_t(16) << 10, size_t(1) << 20, size_t(64) << 20}) for (int L = 0; L < 2; L++) {
    const uint64_t n = bytes * 8 / 10;
    for (int kind = 0; kind < 5; kind++) {
      sbf_filter* f[4]; sbf_view v[4];
      for (int H = 0; H < 4; H++) { sbf_params p = {}; p.layout = L ? SBF_SPLIT_BLOCK : SBF_BLOCKED; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01; sbf_create(&f[H], &p); sbf_view_get_writable(f[H], &v[H]); }
      for (uint64_t i = 0; i < n; i++) { uint64_t k = key(kind, i), a, b;
        sbf_view_add_u64(&v[0], k);
        pair64(h_mulx(k, 0xD6E8FEB86659FD93ULL), &a, &b); sbf_view_add_hash(&v[1], a, b);
        pair64(h_boost(k), &a, &b); sbf_view_add_hash(&v[2], a, b);
        pair64(h_mulx(k, 0x9E3779B97F4A7C15ULL), &a, &b); sbf_view_add_hash(&v[3], a, b); }
      const uint64_t Q = 4000000; uint64_t fp[4] = {0};
      for (uint64_t i = n; i < n + Q; i++) { uint64_t k = key(kind, i), a, b;
        fp[0] += sbf_view_contains_u64(&v[0], k);
        pair64(h_mulx(k, 0xD6E8FEB86659FD93ULL), &a, &b); fp[1] += sbf_view_contains_hash(&v[1], a, b);
        pair64(h_boost(k), &a, &b); fp[2] += sbf_view_contains_hash(&v[2], a, b);
        pair64(h_mulx(k, 0x9E3779B97F4A7C15ULL), &a, &b); fp[3] += sbf_view_contains_hash(&v[3], a, b); }
      struct sbf_info inf; sbf_info(f[0], &inf);
      printf("%6zuK %-7s %-10s formula %.3f%%  murmur3 %.3f%%  xor-K0,D6E8 %.3f%%  boost-style %.3f%%  xor-K0,golden %.3f%%\n", bytes >> 10, L ? "split" : "blocked", kn[kind],
             100 * sbf_fpp_layout(L ? SBF_SPLIT_BLOCK : SBF_BLOCKED, n, inf.bits, inf.k), 100.0 * fp[0] / Q, 100.0 * fp[1] / Q, 100.0 * fp[2] / Q, 100.0 * fp[3] / Q);
      for (int H = 0; H < 4; H++) sbf_free(f[H]);
    }
  }
}
