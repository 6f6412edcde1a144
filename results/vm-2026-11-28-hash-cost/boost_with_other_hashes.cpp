// Measurement only (not part of the project): Boost.Bloom fast_multiblock32<8>, inlined, with
// its default u64 hash (identity, then one 64x64->128 multiply folded) and with hashes that keep
// the FPR on structured keys, beside simdbloom's one-key calls; windows interleaved, p10.
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <boost/bloom.hpp>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>
#include <time.h>
static double now_s() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static inline uint64_t mix13(uint64_t z) { z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
struct Mix13H { using is_avalanching = std::true_type; size_t operator()(uint64_t x) const { return mix13(x ^ 0x9E3779B97F4A7C15ULL); } };
struct Murmur3H { using is_avalanching = std::true_type; size_t operator()(uint64_t x) const { uint64_t o[2]; sbf_murmur3_u64(x, 0, o); return o[0]; } };
using FD = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>>;
using FX = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0, Mix13H>;
using FM = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0, Murmur3H>;
volatile uint64_t sink;
struct Var { std::string name; std::function<uint64_t(const uint64_t*, size_t)> run; std::function<void()> clr; std::vector<double> t; };
static uint64_t key(int kind, uint64_t i) { return kind == 0 ? mix13(i + 12345) : i * 1000003; }
int main(int argc, char** argv) {
  if (argc > 1) { // FPR of the three Boost hashes on keys i * 1000003 at 64 MiB (the default's failing case)
    const size_t bytes = size_t(64) << 20; const uint64_t n = bytes * 8 / 10, Q = 4000000;
    FD fd(bytes * 8); FX fx(bytes * 8); FM fm(bytes * 8);
    for (uint64_t i = 0; i < n; i++) { uint64_t k = key(1, i); fd.insert(k); fx.insert(k); fm.insert(k); }
    uint64_t a = 0, b = 0, c = 0;
    for (uint64_t i = n; i < n + Q; i++) { uint64_t k = key(1, i); a += fd.may_contain(k); b += fx.may_contain(k); c += fm.may_contain(k); }
    printf("64 MiB, keys i*1000003: FPR boost default %.3f%%, boost+mix13 %.3f%%, boost+murmur3 %.3f%%\n", 100.0 * a / Q, 100.0 * b / Q, 100.0 * c / Q);
    return 0;
  }
  for (size_t bytes : {size_t(16) << 10, size_t(256) << 10}) {
    const size_t n = bytes * 8 / 10;
    FD fd(bytes * 8); FX fx(bytes * 8); FM fm(bytes * 8);
    sbf_filter* fl[2]; sbf_view v[2];
    for (int L = 0; L < 2; L++) { sbf_params p = {}; p.layout = L ? SBF_SPLIT_BLOCK : SBF_BLOCKED; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01; sbf_create(&fl[L], &p); sbf_view_get_writable(fl[L], &v[L]); }
    std::vector<uint64_t> fresh(1 << 22);
    for (size_t i = 0; i < fresh.size(); i++) fresh[i] = key(0, (1ULL << 40) + i);
    std::vector<Var> vs;
#define BOOSTV(nm, F) \
    vs.push_back({nm " contains", [&](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += F.may_contain(k[i] ^ 1); return s; }, [&] {}, {}}); \
    vs.push_back({nm " insert", [&](const uint64_t* k, size_t m) { for (size_t i = 0; i < m; i++) F.insert(k[i]); return (uint64_t)0; }, [&] { F.reset(); }, {}});
    BOOSTV("boost default (1 multiply)", fd)
    BOOSTV("boost + mix13 (2 multiplies)", fx)
    BOOSTV("boost + murmur3 h1", fm)
    for (int L = 0; L < 2; L++) {
      const sbf_view* V = &v[L]; sbf_filter* FL = fl[L]; std::string nm = L ? "split-block " : "blocked ";
      vs.push_back({nm + "sbf_view_contains_u64", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_contains_u64(V, k[i] ^ 1); return s; }, [=] {}, {}});
      vs.push_back({nm + "sbf_view_add_u64", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_add_u64(V, k[i]); return s; }, [=] { sbf_clear(FL); }, {}});
      vs.push_back({nm + "sbf_contains", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) { uint64_t x = k[i] ^ 1; s += sbf_contains(FL, &x, 8); } return s; }, [=] {}, {}});
      vs.push_back({nm + "sbf_add", [=](const uint64_t* k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_add(FL, &k[i], 8); return s; }, [=] { sbf_clear(FL); }, {}});
    }
    for (int rep = 0; rep < 40; rep++) {
      size_t off = (rep * 7919 * 64) % (fresh.size() - n);
      for (auto& x : vs) { x.clr(); double t0 = now_s(); sink += x.run(&fresh[off], n); x.t.push_back((now_s() - t0) * 1e9 / n); }
    }
    printf("%zu KiB filter, n = %zu fresh keys per window (adds into a cleared filter; contains of absent keys), ns/key p10 [p50]\n", bytes >> 10, n);
    for (auto& x : vs) { std::sort(x.t.begin(), x.t.end()); printf("  %-42s %6.2f [%6.2f]\n", x.name.c_str(), x.t[x.t.size() / 10], x.t[x.t.size() / 2]); }
  }
}
