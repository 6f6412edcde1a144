// make bench-peers-hash: simdbloom's one-key calls beside Boost.Bloom's
// fast_multiblock32<8> given three hashes, in one process, and what each
// hash does to the false-positive rate on structured keys.
//
// Boost's default for uint64_t keys is boost::hash (the identity) followed
// by its own mix, one 64x64 -> 128-bit multiply folded: the cheapest hash,
// and the one behind the one-key figures of the peer driver. Given a hash
// declared avalanching Boost adds no mix, so the same filter also runs with
// SplitMix64's finalizer (two multiplies) and with MurmurHash3_x64_128's h1
// (simdbloom's hash of an 8-byte key). Part 1 times one-key contains
// (absent keys) and inserts into a cleared filter, every variant one window
// after another, 40 rounds, p10 and p50 of the windows. Part 2 fills 64 MiB
// filters with 53,687,091 keys i * 1000003 and probes the next 4,000,000:
// the exact rate is 1.27% (split-block, k = 8, 10 bits per key).
//
// Built by the Makefile target against $(PEERS_DIR)/boost/include and
// build/libsimdbloom.a; Boost's headers stay in the peer folder. This file
// is ours and is not part of the library or its tests.
#include <simdbloom.h>
#include <simdbloom_inline.h>

#include <boost/bloom.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>
#include <time.h>

namespace {

double now_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

uint64_t mix13(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct Mix13Hash {
    using is_avalanching = std::true_type;
    std::size_t operator()(uint64_t x) const { return mix13(x ^ 0x9E3779B97F4A7C15ULL); }
};

struct Murmur3Hash {
    using is_avalanching = std::true_type;
    std::size_t operator()(uint64_t x) const
    {
        uint64_t o[2];
        sbf_murmur3_u64(x, 0, o);
        return o[0];
    }
};

using BoostDefault = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>>;
using BoostMix13 = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0, Mix13Hash>;
using BoostMurmur3 = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0, Murmur3Hash>;

volatile uint64_t sink;

struct Variant {
    std::string name;
    std::function<uint64_t(const uint64_t *, size_t)> run;
    std::function<void()> clear;
    std::vector<double> ns;
};

sbf_filter *make(int layout, size_t bytes, size_t n)
{
    sbf_params p = {};
    p.layout = layout;
    p.bits = (uint64_t)bytes * 8;
    p.expected_n = n;
    p.fpp = 0.01;
    sbf_filter *f = nullptr;
    if (sbf_create(&f, &p) != SBF_OK) {
        fprintf(stderr, "sbf_create failed\n");
        exit(1);
    }
    return f;
}

template <class F> void boost_variants(std::vector<Variant> &vs, const char *name, F &f)
{
    vs.push_back({std::string("boost ") + name + ": contains",
                  [&f](const uint64_t *k, size_t m) {
                      uint64_t s = 0;
                      for (size_t i = 0; i < m; i++)
                          s += f.may_contain(k[i] ^ 1);
                      return s;
                  },
                  [] {}, {}});
    vs.push_back({std::string("boost ") + name + ": insert",
                  [&f](const uint64_t *k, size_t m) {
                      for (size_t i = 0; i < m; i++)
                          f.insert(k[i]);
                      return (uint64_t)0;
                  },
                  [&f] { f.reset(); }, {}});
}

// One-key contains of keys ^ 1 (absent) or adds of keys (Add) through v
// narrowed to its probe: split-block or blocked. (A template: with `add` a
// run-time argument gcc 12 kept the test in the loop.)
template <bool Add>
uint64_t narrowed_loop(const sbf_view *v, const uint64_t *k, size_t m)
{
    uint64_t s = 0;
    sbf_split_view sv;
    sbf_blocked_view bv;
    if (sbf_view_split(v, &sv) == SBF_OK) {
        for (size_t i = 0; i < m; i++)
            s += (uint64_t)(Add ? sbf_split_view_add_u64(&sv, k[i])
                                : sbf_split_view_contains_u64(&sv, k[i] ^ 1));
    } else if (sbf_view_blocked(v, &bv) == SBF_OK) {
        for (size_t i = 0; i < m; i++)
            s += (uint64_t)(Add ? sbf_blocked_view_add_u64(&bv, k[i])
                                : sbf_blocked_view_contains_u64(&bv, k[i] ^ 1));
    }
    return s;
}

void timing(size_t bytes)
{
    const size_t n = bytes * 8 / 10;
    BoostDefault fd(bytes * 8);
    BoostMix13 fx(bytes * 8);
    BoostMurmur3 fm(bytes * 8);
    sbf_filter *fl[2];
    sbf_view v[2];
    for (int l = 0; l < 2; l++) {
        fl[l] = make(l ? SBF_SPLIT_BLOCK : SBF_BLOCKED, bytes, n);
        sbf_view_get_writable(fl[l], &v[l]);
    }
    std::vector<uint64_t> keys(1 << 22);
    for (size_t i = 0; i < keys.size(); i++)
        keys[i] = mix13((1ULL << 40) + i + 12345);
    std::vector<Variant> vs;
    boost_variants(vs, "default hash (1 multiply)", fd);
    boost_variants(vs, "SplitMix64 finalizer", fx);
    boost_variants(vs, "MurmurHash3 h1", fm);
    for (int l = 0; l < 2; l++) {
        const sbf_view *V = &v[l];
        sbf_filter *F = fl[l];
        const std::string nm = l ? "simdbloom split-block " : "simdbloom blocked ";
        vs.push_back({nm + "sbf_view_contains_u64",
                      [V](const uint64_t *k, size_t m) {
                          uint64_t s = 0;
                          for (size_t i = 0; i < m; i++)
                              s += (uint64_t)sbf_view_contains_u64(V, k[i] ^ 1);
                          return s;
                      },
                      [] {}, {}});
        vs.push_back({nm + "sbf_view_add_u64",
                      [V](const uint64_t *k, size_t m) {
                          uint64_t s = 0;
                          for (size_t i = 0; i < m; i++)
                              s += (uint64_t)sbf_view_add_u64(V, k[i]);
                          return s;
                      },
                      [F] { sbf_clear(F); }, {}});
        // narrowed to the view's probe (a local of the loop's function)
        vs.push_back({nm + "narrowed view contains_u64",
                      [V](const uint64_t *k, size_t m) { return narrowed_loop<false>(V, k, m); },
                      [] {}, {}});
        vs.push_back({nm + "narrowed view add_u64",
                      [V](const uint64_t *k, size_t m) { return narrowed_loop<true>(V, k, m); },
                      [F] { sbf_clear(F); }, {}});
        vs.push_back({nm + "sbf_contains",
                      [F](const uint64_t *k, size_t m) {
                          uint64_t s = 0;
                          for (size_t i = 0; i < m; i++) {
                              const uint64_t x = k[i] ^ 1;
                              s += (uint64_t)sbf_contains(F, &x, 8);
                          }
                          return s;
                      },
                      [] {}, {}});
        vs.push_back({nm + "sbf_add",
                      [F](const uint64_t *k, size_t m) {
                          uint64_t s = 0;
                          for (size_t i = 0; i < m; i++)
                              s += (uint64_t)sbf_add(F, &k[i], 8);
                          return s;
                      },
                      [F] { sbf_clear(F); }, {}});
    }
    for (int round = 0; round < 40; round++) {
        const size_t off = ((size_t)round * 7919 * 64) % (keys.size() - n);
        for (auto &x : vs) {
            x.clear();
            const double t0 = now_s();
            sink += x.run(&keys[off], n);
            x.ns.push_back((now_s() - t0) * 1e9 / (double)n);
        }
    }
    printf("%zu KiB filters, windows of %zu keys (inserts into a cleared filter, contains of "
           "absent keys), ns per key, p10 [p50]\n", bytes >> 10, n);
    for (auto &x : vs) {
        std::sort(x.ns.begin(), x.ns.end());
        printf("  %-48s %6.2f [%6.2f]\n", x.name.c_str(), x.ns[x.ns.size() / 10],
               x.ns[x.ns.size() / 2]);
    }
    for (int l = 0; l < 2; l++)
        sbf_free(fl[l]);
}

void structured_fpr()
{
    const size_t bytes = size_t(64) << 20;
    const uint64_t n = bytes * 8 / 10, q = 4000000;
    BoostDefault fd(bytes * 8);
    BoostMix13 fx(bytes * 8);
    BoostMurmur3 fm(bytes * 8);
    sbf_filter *s = make(SBF_SPLIT_BLOCK, bytes, n);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t k = i * 1000003;
        fd.insert(k);
        fx.insert(k);
        fm.insert(k);
        sbf_add(s, &k, 8);
    }
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (uint64_t i = n; i < n + q; i++) {
        const uint64_t k = i * 1000003;
        a += fd.may_contain(k);
        b += fx.may_contain(k);
        c += fm.may_contain(k);
        d += sbf_contains(s, &k, 8) == 1;
    }
    printf("64 MiB, %llu keys i * 1000003, the next %llu probed: false-positive rate\n",
           (unsigned long long)n, (unsigned long long)q);
    printf("  boost default hash (1 multiply)  %7.3f%%\n", 100.0 * (double)a / (double)q);
    printf("  boost SplitMix64 finalizer       %7.3f%%\n", 100.0 * (double)b / (double)q);
    printf("  boost MurmurHash3 h1             %7.3f%%\n", 100.0 * (double)c / (double)q);
    printf("  simdbloom split-block            %7.3f%%\n", 100.0 * (double)d / (double)q);
    printf("  exact (split-block, k = 8)       %7.3f%%\n",
           100.0 * sbf_fpp_layout(SBF_SPLIT_BLOCK, n, (uint64_t)bytes * 8, 8));
    sbf_free(s);
}

} // namespace

int main()
{
    timing(size_t(16) << 10);
    timing(size_t(256) << 10);
    structured_fpr();
    return 0;
}
