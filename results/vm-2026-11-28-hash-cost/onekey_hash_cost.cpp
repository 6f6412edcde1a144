// Measurement only: one-key add variants interleaved window by window; p10 of windows.
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <boost/bloom.hpp>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>
#include <string>
#include <time.h>
using F = boost::bloom::filter<std::uint64_t, 1, boost::bloom::fast_multiblock32<8>>;
static double now_s() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static inline uint64_t mix64(uint64_t x) { x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 27; x *= 0x94d049bb133111ebULL; return x ^ (x >> 31); }
volatile uint64_t sink;
static inline void pair64(uint64_t h, uint64_t* h1, uint64_t* h2) { *h1 = h & 0xffffffff00000000ULL; *h2 = (uint64_t)(uint32_t)h * 0x100000001ULL; }
static inline uint64_t h_mix13(uint64_t z) { z ^= 0x9E3779B97F4A7C15ULL; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
static inline uint64_t h_mulx(uint64_t k) { unsigned __int128 m = (unsigned __int128)(k ^ 0x9E3779B97F4A7C15ULL) * 0xD6E8FEB86659FD93ULL; return (uint64_t)m ^ (uint64_t)(m >> 64); }
struct Var { std::string name; std::function<uint64_t(const uint64_t*, size_t)> run; std::function<void()> clr; std::vector<double> t; };
int main() {
  for (size_t bytes : {size_t(16) << 10, size_t(256) << 10}) {
    const size_t n = bytes * 8 / 10;
    F f(bytes * 8);
    sbf_filter* fl[2]; sbf_view v[2];
    for (int L = 0; L < 2; L++) { sbf_params p = {}; p.layout = L ? SBF_SPLIT_BLOCK : SBF_BLOCKED; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01; sbf_create(&fl[L], &p); sbf_view_get_writable(fl[L], &v[L]); }
    std::vector<uint64_t> fresh(1 << 22);
    for (size_t i = 0; i < fresh.size(); i++) fresh[i] = mix64((1ULL << 61) + i);
    std::vector<Var> vs;
    vs.push_back({"boost insert", [&](const uint64_t* k, size_t m) { for (size_t i = 0; i < m; i++) f.insert(k[i]); return (uint64_t)0; }, [&] { f.reset(); }, {}});
    vs.push_back({"boost contains", [&](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += f.may_contain(k[i] ^ 1); return s; }, [&] {}, {}});
    for (int L = 0; L < 2; L++) {
      const sbf_view* V = &v[L]; sbf_filter* FL = fl[L]; std::string nm = L ? "split   " : "blocked ";
      vs.push_back({nm + "view add (counts)", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_add_u64(V, k[i]); return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "view add, no count", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) {
          uint64_t h1; sbf_inl_h2 h2 = sbf_inl_view_hash8(V, k[i], &h1);
          uint64_t* blk = V->words + sbf_block_index(h1, V->nblocks) * (L ? 4 : 8);
          s += (L ? sbf_inl_split8_add(blk, V->salt, h2) : sbf_inl_blocked_add(blk, V->salt, V->k, V->lanes, h2)); } return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "view add, no count, ret ignored", [=](const uint64_t* k, size_t m) { for (size_t i = 0; i < m; i++) {
          uint64_t h1; sbf_inl_h2 h2 = sbf_inl_view_hash8(V, k[i], &h1);
          uint64_t* blk = V->words + sbf_block_index(h1, V->nblocks) * (L ? 4 : 8);
          (void)(L ? sbf_inl_split8_add(blk, V->salt, h2) : sbf_inl_blocked_add(blk, V->salt, V->k, V->lanes, h2)); } return (uint64_t)0; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "sbf_add", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_add(FL, &k[i], 8); return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "view contains", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_contains_u64(V, k[i] ^ 1); return s; }, [=] {}, {}});
      vs.push_back({nm + "sbf_contains", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) { uint64_t x = k[i] ^ 1; s += sbf_contains(FL, &x, 8); } return s; }, [=] {}, {}});
      vs.push_back({nm + "mulx view add, no count", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) {
          uint64_t h1, h2; pair64(h_mulx(k[i]), &h1, &h2);
          uint64_t* blk = V->words + sbf_block_index(h1, V->nblocks) * (L ? 4 : 8);
          s += (L ? sbf_inl_split8_add(blk, V->salt, sbf_inl_h2_of(h2)) : sbf_inl_blocked_add(blk, V->salt, V->k, V->lanes, sbf_inl_h2_of(h2))); } return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "mulx view contains", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) {
          uint64_t h1, h2; pair64(h_mulx(k[i] ^ 1), &h1, &h2); s += sbf_view_contains_hash(V, h1, h2); } return s; }, [=] {}, {}});
      vs.push_back({nm + "mix13 view add, no count", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) {
          uint64_t h1, h2; pair64(h_mix13(k[i]), &h1, &h2);
          uint64_t* blk = V->words + sbf_block_index(h1, V->nblocks) * (L ? 4 : 8);
          s += (L ? sbf_inl_split8_add(blk, V->salt, sbf_inl_h2_of(h2)) : sbf_inl_blocked_add(blk, V->salt, V->k, V->lanes, sbf_inl_h2_of(h2))); } return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "mix13 view contains", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) {
          uint64_t h1, h2; pair64(h_mix13(k[i] ^ 1), &h1, &h2); s += sbf_view_contains_hash(V, h1, h2); } return s; }, [=] {}, {}});
    }
    const size_t W = n; // a window adds n fresh keys into a cleared filter
    for (int rep = 0; rep < 40; rep++) {
      size_t off = (rep * 7919 * 64) % (fresh.size() - W);
      for (auto& x : vs) { x.clr(); double t0 = now_s(); sink += x.run(&fresh[off], W); x.t.push_back((now_s() - t0) * 1e9 / W); }
    }
    printf("%zuK (k blocked %u), ns/key p10 [p50]\n", bytes >> 10, v[0].k);
    for (auto& x : vs) { std::sort(x.t.begin(), x.t.end()); printf("  %-40s %6.2f [%6.2f]\n", x.name.c_str(), x.t[x.t.size() / 10], x.t[x.t.size() / 2]); }
  }
}
