/*
 * The four layouts: no false negatives, the measured FPR against each
 * layout's exact formula, sizing that keeps its promise, counting removal,
 * set operations, information and persistence.
 */
#include <math.h>

#include "testutil.h"

static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING };
static const char *const lname[] = { "classic", "blocked", "split-block", "counting" };

static uint64_t *random_keys(size_t n, uint64_t seed)
{
    uint64_t *k = malloc(n * sizeof *k);
    cr_assert_not_null(k);
    for (size_t i = 0; i < n; i++)
        k[i] = tu_splitmix64(&seed);
    return k;
}

Test(layouts, no_false_negatives_u64, .timeout = 120,
     .description = "1e6 random keys, batched and single, every layout: all present")
{
    const size_t n = 1000000;
    uint64_t *keys = random_keys(n, 1);
    uint8_t *out = malloc(n);
    for (int li = 0; li < 4; li++) {
        for (int single = 0; single < 2; single++) {
            sbf_filter *f = tu_make(layouts[li], n, 0.01, 0, 0, 0);
            if (single) {
                for (size_t i = 0; i < n; i++)
                    cr_assert_geq(sbf_add(f, &keys[i], 8), 0);
            } else {
                cr_assert_eq(sbf_add_u64(f, keys, n), SBF_OK);
            }
            memset(out, 0, n);
            cr_assert_eq(sbf_contains_u64(f, keys, n, out), n, "%s single=%d", lname[li], single);
            for (size_t i = 0; i < n; i += 997)
                cr_assert_eq(sbf_contains(f, &keys[i], 8), 1);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(out[i], 1);
            sbf_free(f);
        }
    }
    free(out);
    free(keys);
}

Test(layouts, single_and_batched_set_same_bits,
     .description = "sbf_add(&x, 8) and sbf_add_u64 give byte-identical filters")
{
    const size_t n = 5000;
    uint64_t *keys = random_keys(n, 2);
    for (int li = 0; li < 4; li++) {
        sbf_filter *a = tu_make(layouts[li], n, 0.01, 0, 0, 77);
        sbf_filter *b = tu_make(layouts[li], n, 0.01, 0, 0, 77);
        for (size_t i = 0; i < n; i++)
            sbf_add(a, &keys[i], 8);
        sbf_add_u64(b, keys, n);
        size_t la, lb;
        const void *da = sbf_data(a, &la), *db = sbf_data(b, &lb);
        cr_assert_eq(la, lb);
        cr_assert_eq(memcmp(da, db, la), 0, "%s", lname[li]);
        sbf_free(a);
        sbf_free(b);
    }
    free(keys);
}

Test(layouts, variable_length_unaligned,
     .description = "keys of every length 0..200 at 8 alignments, single and batched: no false negatives")
{
    static unsigned char buf[256 + 16];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    for (int li = 0; li < 4; li++) {
        sbf_filter *f = tu_make(layouts[li], 201 * 8, 0.01, 0, 0, 3);
        sbf_filter *g = tu_make(layouts[li], 201 * 8, 0.01, 0, 0, 3);
        const void *keys[201 * 8];
        size_t lens[201 * 8];
        size_t n = 0;
        for (size_t off = 0; off < 8; off++)
            for (size_t len = 0; len <= 200; len++) {
                cr_assert_geq(sbf_add(f, buf + off, len), 0);
                keys[n] = buf + off;
                lens[n++] = len;
            }
        cr_assert_eq(sbf_add_batch(g, keys, lens, n), SBF_OK);
        size_t dlen;
        const void *df = sbf_data(f, &dlen);
        cr_assert_eq(memcmp(df, sbf_data(g, NULL), dlen), 0, "%s: batch != single", lname[li]);
        uint8_t out[201 * 8];
        cr_assert_eq(sbf_contains_batch(f, keys, lens, n, out), n, "%s", lname[li]);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(sbf_contains(g, keys[i], lens[i]), 1);
        sbf_free(f);
        sbf_free(g);
    }
}

/* Measured FPR of a filter holding n random keys, over `probes` absent keys. */
static double measure(sbf_filter *f, const uint64_t *keys, size_t n, size_t probes,
                      uint64_t seed, double *x)
{
    cr_assert_eq(sbf_add_u64(f, keys, n), SBF_OK);
    const size_t chunk = 1 << 20;
    uint64_t *q = malloc(chunk * sizeof *q);
    size_t yes = 0;
    for (size_t done = 0; done < probes; done += chunk) {
        const size_t len = probes - done < chunk ? probes - done : chunk;
        for (size_t i = 0; i < len; i++)
            q[i] = tu_splitmix64(&seed); /* a different stream: absent w.h.p. */
        yes += sbf_contains_u64(f, q, len, NULL);
    }
    free(q);
    *x = (double)yes;
    return (double)yes / (double)probes;
}

/* The exact rate of one blocked/split filter, from its bits: a uniform query
   hits block b with probability 1/nb and then needs its k positions set. */
static double realized_fpr(const sbf_filter *f)
{
    struct sbf_info in;
    sbf_info(f, &in);
    size_t len;
    const uint32_t *w = sbf_data(f, &len);
    const size_t words = in.block_bits / 32, nb = in.bits / in.block_bits;
    double sum = 0;
    for (size_t b = 0; b < nb; b++) {
        const uint32_t *blk = w + b * words;
        double p = 1;
        if (in.layout == SBF_SPLIT_BLOCK) {
            for (size_t i = 0; i < words; i++)
                p *= __builtin_popcount(blk[i]) / 32.0;
        } else {
            unsigned set = 0;
            for (size_t i = 0; i < words; i++)
                set += (unsigned)__builtin_popcount(blk[i]);
            p = pow(set / (double)in.block_bits, in.k);
        }
        sum += p;
    }
    return sum / (double)nb;
}

static void fpr_case(int layout, double bits_per_key, uint32_t k)
{
    const size_t n = 1000000, probes = 10000000;
    uint64_t *keys = random_keys(n, 11);
    /* The counting layout spends 4 bits per counter: bits/key means counters/key. */
    const double mem = layout == SBF_COUNTING ? 4 * bits_per_key : bits_per_key;
    sbf_filter *f = tu_make(layout, n, 0, (uint64_t)(mem * (double)n), k, 0);
    double x;
    const double got = measure(f, keys, n, probes, 0xabcdef, &x);
    const double theory = sbf_fpp_theory(f, n);
    struct sbf_info info;
    sbf_info(f, &info);
    /* 99.9% Wilson interval of the probes, widened by the spread between
       filters (which keys went in): at 1e6 keys that spread is as large as
       the noise of 1e7 probes, and a probes-only interval would reject the
       exact formula for an unlucky filter about 1 time in 20. */
    const double z = 3.2905, spread = sbf_fpp_spread(layout, n, info.bits, info.k);
    double lo, hi;
    tu_wilson(x, (double)probes, z, &lo, &hi);
    lo -= z * spread;
    hi += z * spread;
    cr_log_info("%s %.0f bits/key k=%u: measured %.6g [%.6g, %.6g], exact %.6g", lname[layout],
                bits_per_key, info.k, got, lo, hi, theory);
    cr_assert(theory >= lo && theory <= hi,
              "%s at %.0f bits/key (k=%u): exact %.6g outside the 99.9%% interval [%.6g, %.6g] "
              "of the measured %.6g", lname[layout], bits_per_key, info.k, theory, lo, hi, got);
    /* Without probe noise: the filter's own exact rate, from its bits, is
       within the spread of the formula, and that resolves Putze's textbook
       approximation (1-3% low at 10-16 bits/key) from the exact formula. */
    if (layout == SBF_BLOCKED || layout == SBF_SPLIT_BLOCK) {
        const double real = realized_fpr(f);
        cr_assert(fabs(real - theory) <= z * spread, "%s: the filter's own rate %.7g, exact %.7g, "
                  "spread %.3g", lname[layout], real, theory, spread);
        if (layout == SBF_BLOCKED && bits_per_key >= 10) {
            const double putze = sbf_fpp_putze(n, info.bits, info.k, 512);
            cr_assert(real - putze > z * spread, "Putze %.7g is not resolved from %.7g (spread %.3g)",
                      putze, real, spread);
        }
    }
    sbf_free(f);
    free(keys);
}

#define FPR_TEST(name, layout, bpk, k)                                               \
    Test(fpr_measured, name, .timeout = 120,                                         \
         .description = #layout " at " #bpk " bits/key (k " #k ", 0 = derived), 1e6 "  \
                        "keys, 1e7 probes: inside the 99.9% Wilson interval of the "    \
                        "exact formula")                                              \
    {                                                                                \
        fpr_case(layout, bpk, k);                                                    \
    }
FPR_TEST(classic_8, SBF_CLASSIC, 8, 0)
FPR_TEST(classic_10, SBF_CLASSIC, 10, 0)
FPR_TEST(classic_16, SBF_CLASSIC, 16, 0)
FPR_TEST(blocked_8, SBF_BLOCKED, 8, 0)
FPR_TEST(blocked_10, SBF_BLOCKED, 10, 0)
FPR_TEST(blocked_16, SBF_BLOCKED, 16, 0)
FPR_TEST(split_8, SBF_SPLIT_BLOCK, 8, 8)
FPR_TEST(split_10, SBF_SPLIT_BLOCK, 10, 8)
FPR_TEST(split_16, SBF_SPLIT_BLOCK, 16, 8)
FPR_TEST(split512_16, SBF_SPLIT_BLOCK, 16, 16)
FPR_TEST(counting_8, SBF_COUNTING, 8, 0)
FPR_TEST(counting_10, SBF_COUNTING, 10, 0)
FPR_TEST(counting_16, SBF_COUNTING, 16, 0)

static void sizing_case(int layout, double fpp)
{
    const size_t n = 1000000;
    const size_t probes = fpp < 0.005 ? 20000000 : 5000000;
    uint64_t *keys = random_keys(n, 21);
    sbf_filter *f = tu_make(layout, n, fpp, 0, 0, 0);
    double x;
    const double got = measure(f, keys, n, probes, 0x5eed, &x);
    double lo, hi;
    tu_wilson(x, (double)probes, 3.2905, &lo, &hi);
    const double theory = sbf_fpp_theory(f, n);
    /* The classic layout follows Guava's sizing, which rounds k to an integer
       and may land a hair above the target (1.0039% at 1%); allow it 5%. */
    const double slack = layout == SBF_CLASSIC ? 1.05 : 1.0;
    cr_assert_leq(theory, fpp * slack * (1 + 1e-9), "%s: sized for %g, its exact FPR is %g",
                  lname[layout], fpp, theory);
    struct sbf_info info;
    sbf_info(f, &info);
    const double spread = sbf_fpp_spread(layout, n, info.bits, info.k);
    lo -= 3.2905 * spread;
    cr_assert_leq(lo, fpp * slack, "%s asked %g: measured %g [%g, %g]", lname[layout], fpp,
                  got, lo, hi);
    sbf_free(f);
    free(keys);
}

Test(sizing, keeps_promise_1pct, .timeout = 120,
     .description = "asked for 1%, every layout measures not significantly above 1%")
{
    for (int li = 0; li < 4; li++)
        sizing_case(layouts[li], 0.01);
}

Test(sizing, keeps_promise_01pct, .timeout = 120,
     .description = "asked for 0.1%, every layout measures not significantly above 0.1%")
{
    for (int li = 0; li < 4; li++)
        sizing_case(layouts[li], 0.001);
}

Test(sizing, blocked_needs_more_than_classic,
     .description = "a blocked filter sized for 1% is larger than the classic formula says, and meets 1% exactly")
{
    uint64_t cb, bb;
    uint32_t ck = 0, bk = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000000, 0.01, &cb, &ck), SBF_OK);
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000, 0.01, &bb, &bk), SBF_OK);
    cr_assert_gt(bb, cb);
    cr_assert_leq(sbf_fpp_layout(SBF_BLOCKED, 1000000, bb, bk), 0.01);
    cr_assert_gt(sbf_fpp_layout(SBF_BLOCKED, 1000000, bb - 512, bk), 0.01);
    /* The classic formula at the classic size promises 1%; the blocked layout at
       that size would deliver more than 1%. */
    cr_assert_gt(sbf_fpp_layout(SBF_BLOCKED, 1000000, (cb + 511) / 512 * 512, bk), 0.01);
}

Test(fpr_measured, spread_between_filters, .timeout = 60,
     .description = "sbf_fpp_spread matches the spread of 120 filters' exact rates within 25%")
{
    const int layouts2[] = { SBF_BLOCKED, SBF_SPLIT_BLOCK };
    for (int li = 0; li < 2; li++) {
        const size_t n = 20000, reps = 120;
        double s1 = 0, s2 = 0;
        uint64_t bits = 0;
        uint32_t k = 0;
        for (size_t r = 0; r < reps; r++) {
            uint64_t *keys = random_keys(n, 100 + r);
            sbf_filter *f = tu_make(layouts2[li], n, 0, 10 * n, layouts2[li] == SBF_SPLIT_BLOCK ? 8 : 7, 0);
            sbf_add_u64(f, keys, n);
            const double x = realized_fpr(f);
            s1 += x;
            s2 += x * x;
            struct sbf_info in;
            sbf_info(f, &in);
            bits = in.bits;
            k = in.k;
            sbf_free(f);
            free(keys);
        }
        const double mean = s1 / reps, sd = sqrt((s2 - s1 * s1 / reps) / (reps - 1));
        const double want = sbf_fpp_spread(layouts2[li], n, bits, k);
        const double exact = sbf_fpp_layout(layouts2[li], n, bits, k);
        cr_log_info("%s: 120 filters mean %.6g sd %.4g; exact %.6g spread %.4g", lname[layouts2[li]],
                    mean, sd, exact, want);
        cr_assert(sd > 0.75 * want && sd < 1.25 * want, "%s: sd %g vs spread %g",
                  lname[layouts2[li]], sd, want);
        cr_assert(fabs(mean - exact) < 4 * want / sqrt((double)reps), "%s: mean %g vs exact %g",
                  lname[layouts2[li]], mean, exact);
    }
}

/* ---------------------------------------------------------------- counting */

Test(counting, remove_half, .timeout = 60,
     .description = "remove half of 2e5 keys: the rest stay, the removed answer at about the FPR")
{
    const size_t n = 200000;
    uint64_t *keys = random_keys(n, 31);
    sbf_filter *f = tu_make(SBF_COUNTING, n, 0.01, 0, 0, 0);
    sbf_keys all = { 0 };
    all.n = n;
    all.u64 = keys;
    /* keys_added: the adds that changed it, less the removals after which
     * their key tests absent */
    uint64_t expect = sbf_add_keys(f, &all, NULL);
    for (size_t i = 0; i < n / 2; i++) {
        cr_assert_eq(sbf_remove(f, &keys[i], 8), SBF_OK, "key %zu", i);
        expect -= sbf_contains(f, &keys[i], 8) == 0;
    }
    uint8_t *out = malloc(n);
    sbf_contains_u64(f, keys, n, out);
    size_t still = 0;
    for (size_t i = 0; i < n / 2; i++)
        still += out[i];
    for (size_t i = n / 2; i < n; i++)
        cr_assert_eq(out[i], 1, "kept key %zu lost", i);
    const double fpr = (double)still / (double)(n / 2);
    const double theory = sbf_fpp_theory(f, n / 2);
    double lo, hi;
    tu_wilson((double)still, (double)(n / 2), 3.2905, &lo, &hi);
    cr_log_info("removed keys still present: %.5f, exact FPR at n/2 %.5f", fpr, theory);
    cr_assert(theory >= lo && theory <= hi, "removed keys answer %g [%g, %g], exact FPR %g",
              fpr, lo, hi, theory);
    struct sbf_info info;
    sbf_info(f, &info);
    cr_assert_eq(info.keys_added, expect);
    cr_assert(expect < n / 2 + n / 50, "about the n/2 kept: %llu", (unsigned long long)expect);
    free(out);
    free(keys);
    sbf_free(f);
}

Test(counting, saturation_never_loses_keys,
     .description = "a key added 40 times saturates its counters; removing it 40 times keeps every other key")
{
    sbf_filter *f = tu_make(SBF_COUNTING, 0, 0, 512, 4, 0); /* one block, 128 counters */
    const uint64_t hot = 42;
    for (int i = 0; i < 40; i++)
        sbf_add(f, &hot, 8);
    struct sbf_info info;
    sbf_info(f, &info);
    cr_assert_geq(info.saturated, 1);
    cr_assert_leq(info.saturated, 4);
    uint64_t others[20];
    for (int i = 0; i < 20; i++) {
        others[i] = 1000 + (uint64_t)i;
        sbf_add(f, &others[i], 8);
    }
    for (int i = 0; i < 40; i++)
        cr_assert_eq(sbf_remove(f, &hot, 8), SBF_OK, "removal %d", i);
    for (int i = 0; i < 20; i++)
        cr_assert_eq(sbf_contains(f, &others[i], 8), 1, "key %d lost", i);
    /* Saturated counters stay at 15 through the removals. */
    sbf_info(f, &info);
    cr_assert_geq(info.saturated, 1);
    sbf_free(f);
}

Test(counting, add_return_value, .description = "add returns 1 the first time, 0 when already present")
{
    sbf_filter *f = tu_make(SBF_COUNTING, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_add(f, "k", 1), 1);
    cr_assert_eq(sbf_add(f, "k", 1), 0);
    cr_assert_eq(sbf_remove(f, "k", 1), SBF_OK);
    cr_assert_eq(sbf_contains(f, "k", 1), 1, "one insertion left");
    cr_assert_eq(sbf_remove(f, "k", 1), SBF_OK);
    cr_assert_eq(sbf_contains(f, "k", 1), 0);
    cr_assert_eq(sbf_remove(f, "k", 1), SBF_E_NOT_PRESENT);
    sbf_free(f);
}

Test(counting, saturation_math, .description = "saturation probability: tiny at 10 counters/key, below Fan's bound, grows with n")
{
    const uint64_t bits = 4 * 10 * UINT64_C(1000000);
    const double p1 = sbf_counting_saturation(1000000, bits, 7);
    const double p2 = sbf_counting_saturation(4000000, bits, 7);
    const double fan = sbf_counting_fan_bound(1000000, bits, 7);
    cr_assert(p1 >= 0 && p1 < 1e-6, "%g", p1);
    cr_assert_leq(p1, fan);
    cr_assert_gt(p2, p1);
}

/* ------------------------------------------------------------- set ops */

Test(setops, union_and_intersect, .description = "the union answers yes for both key sets; the intersection for the common keys")
{
    for (int li = 0; li < 4; li++) {
        const size_t n = 20000;
        uint64_t *ka = random_keys(n, 41), *kb = random_keys(n, 42);
        sbf_filter *a = tu_make(layouts[li], 2 * n, 0.01, 0, 0, 0);
        sbf_filter *b, *c;
        cr_assert_eq(sbf_copy(&b, a), SBF_OK);
        sbf_add_u64(a, ka, n);
        sbf_add_u64(b, kb, n);
        sbf_add_u64(a, kb, 100); /* shared keys */
        cr_assert_eq(sbf_copy(&c, a), SBF_OK);
        cr_assert_eq(sbf_union(a, b), SBF_OK);
        cr_assert_eq(sbf_contains_u64(a, ka, n, NULL), n, "%s", lname[li]);
        cr_assert_eq(sbf_contains_u64(a, kb, n, NULL), n, "%s", lname[li]);
        cr_assert_eq(sbf_intersect(c, b), SBF_OK);
        cr_assert_eq(sbf_contains_u64(c, kb, 100, NULL), 100, "%s", lname[li]);
        /* Most of a's own keys are gone from the intersection. */
        cr_assert_lt(sbf_contains_u64(c, ka, n, NULL), n / 5, "%s", lname[li]);
        sbf_free(a);
        sbf_free(b);
        sbf_free(c);
        free(ka);
        free(kb);
    }
}

Test(setops, clear_and_copy, .description = "clear empties, copy is independent")
{
    sbf_filter *a = tu_make(SBF_BLOCKED, 1000, 0.01, 0, 0, 0), *b;
    sbf_add(a, "x", 1);
    cr_assert_eq(sbf_copy(&b, a), SBF_OK);
    cr_assert_eq(sbf_clear(a), SBF_OK);
    cr_assert_eq(sbf_contains(a, "x", 1), 0);
    cr_assert_eq(sbf_contains(b, "x", 1), 1);
    sbf_free(a);
    sbf_free(b);
}

/* ---------------------------------------------------------------- info */

Test(info, fields_and_estimate, .description = "sbf_info reports geometry, fill and a cardinality estimate within 3%")
{
    for (int li = 0; li < 4; li++) {
        const size_t n = 100000;
        uint64_t *keys = random_keys(n, 51);
        sbf_filter *f = tu_make(layouts[li], n, 0.01, 0, 0, 0);
        sbf_keys all = { 0 };
        all.n = n;
        all.u64 = keys;
        const size_t changed = sbf_add_keys(f, &all, NULL);
        struct sbf_info in;
        cr_assert_eq(sbf_info(f, &in), SBF_OK);
        cr_assert_eq(in.layout, layouts[li]);
        cr_assert_eq(in.keys_added, changed, "the keys that changed the filter");
        cr_assert(changed <= n && changed > n - n / 50, "about 1%% were false positives: %zu",
                  changed);
        cr_assert_geq(in.bytes * 8, in.bits);
        cr_assert_eq(in.bytes % 64, 0);
        cr_assert_eq(in.block_bits, li == 0 ? 0u : li == 2 ? 32u * in.k : 512u);
        cr_assert(in.fill_ratio > 0.2 && in.fill_ratio < 0.8, "%g", in.fill_ratio);
        cr_assert(fabs(in.est_cardinality / (double)n - 1) < 0.03, "%s: estimate %g",
                  lname[li], in.est_cardinality);
        cr_assert(in.fpp_now > 0 && in.fpp_now <= 0.0105, "%s: %g", lname[li], in.fpp_now);
        cr_assert_eq(in.isa, sbf_isa_active());
        sbf_free(f);
        free(keys);
    }
}

Test(persist, roundtrip_every_layout, .description = "serialize/deserialize keeps bytes, answers and parameters")
{
    for (int li = 0; li < 4; li++) {
        uint64_t *keys = random_keys(3000, 61);
        sbf_filter *f = tu_make(layouts[li], 3000, 0.02, 0, 0, 1234), *g;
        sbf_add_u64(f, keys, 3000);
        void *buf;
        size_t len, l1, l2;
        cr_assert_eq(sbf_serialize(f, &buf, &len), SBF_OK);
        cr_assert_eq(sbf_deserialize(&g, buf, len), SBF_OK);
        const void *d1 = sbf_data(f, &l1), *d2 = sbf_data(g, &l2);
        cr_assert_eq(l1, l2);
        cr_assert_eq(memcmp(d1, d2, l1), 0);
        cr_assert_eq(sbf_contains_u64(g, keys, 3000, NULL), 3000);
        struct sbf_info a, b;
        sbf_info(f, &a);
        sbf_info(g, &b);
        cr_assert_eq(a.k, b.k);
        cr_assert_eq(a.seed, b.seed);
        cr_assert_eq(a.keys_added, b.keys_added);
        sbf_buffer_free(buf);
        sbf_free(f);
        sbf_free(g);
        free(keys);
    }
}
