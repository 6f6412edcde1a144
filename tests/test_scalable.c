/*
 * Scalable filters (issue 35): growth in order, the asked rate kept at
 * every size measured with enough probes to tell, no false negative,
 * batches that answer as single adds, union, the version-3 file form
 * (round trips through buffer, file and mapping; every corrupt byte
 * refused).
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <math.h>
#include <unistd.h>

static sbf_scalable *make(int layout, uint64_t initial, double fpp)
{
    sbf_scalable_params p = { 0 };
    p.layout = layout;
    p.initial_n = initial;
    p.fpp = fpp;
    sbf_scalable *s;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    return s;
}

/* n distinct u64 keys from `from` on, added in batches of 1000. */
static uint64_t add_range(sbf_scalable *s, uint64_t from, uint64_t n)
{
    uint64_t keys[1000], fresh = 0;
    for (uint64_t at = 0; at < n; at += 1000) {
        const size_t m = n - at < 1000 ? (size_t)(n - at) : 1000;
        for (size_t i = 0; i < m; i++)
            keys[i] = (from + at + i) * 0x9E3779B97F4A7C15ull;
        const size_t r = sbf_scalable_add_u64(s, keys, m, NULL);
        cr_assert(!sbf_is_error(r));
        fresh += r;
    }
    return fresh;
}

static uint64_t probe_range(const sbf_scalable *s, uint64_t from, uint64_t n)
{
    uint64_t keys[1000], hits = 0;
    for (uint64_t at = 0; at < n; at += 1000) {
        const size_t m = n - at < 1000 ? (size_t)(n - at) : 1000;
        for (size_t i = 0; i < m; i++)
            keys[i] = (from + at + i) * 0x9E3779B97F4A7C15ull;
        const size_t r = sbf_scalable_contains_u64(s, keys, m, NULL);
        cr_assert(!sbf_is_error(r));
        hits += r;
    }
    return hits;
}

Test(scalable, grows_in_order, .description = "sub-filter i: capacity n0*s^i, sized for "
     "fpp(1-r)r^i; a new one starts exactly when the newest is full")
{
    sbf_scalable_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.initial_n = 1000;
    p.fpp = 0.01;
    p.growth = 3;
    p.tightening = 0.8;
    sbf_scalable *s;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    struct sbf_scalable_info in;
    cr_assert_eq(sbf_scalable_info(s, &in), SBF_OK);
    cr_assert_eq(in.filters, 1);
    cr_assert_eq(in.keys, 0);
    cr_assert_eq(in.fpp_bound, 0);
    const uint64_t fresh = add_range(s, 0, 50000);
    cr_assert_eq(sbf_scalable_info(s, &in), SBF_OK);
    cr_assert_eq(in.keys, fresh);
    cr_assert(fresh > 49000 && fresh <= 50000, "%llu new", (unsigned long long)fresh);
    /* 1000 + 3000 + 9000 + 27000 = 40000 < fresh <= 121000: five */
    cr_assert_eq(in.filters, 5);
    uint64_t cap = 1000, sum = 0;
    double e = 0.01 * 0.2;
    for (uint32_t i = 0; i < in.filters; i++) {
        const sbf_filter *f = sbf_scalable_filter(s, i);
        cr_assert_not_null(f);
        struct sbf_info fi;
        sbf_info(f, &fi);
        uint64_t bits;
        uint32_t k = 0;
        cr_assert_eq(sbf_size(SBF_BLOCKED, cap, e, &bits, &k), SBF_OK);
        cr_assert_eq(fi.bits, bits, "sub-filter %u", i);
        cr_assert_eq(fi.k, k);
        if (i + 1 < in.filters)
            cr_assert_eq(fi.keys_added, cap, "sub-filter %u is full", i);
        else
            cr_assert_eq(fi.keys_added, fresh - sum);
        sum += fi.keys_added;
        cap *= 3;
        e *= 0.8;
    }
    cr_assert_null(sbf_scalable_filter(s, in.filters));
    cr_assert(in.fpp_bound > 0 && in.fpp_bound < 0.01, "%g", in.fpp_bound);
    cr_assert_eq(probe_range(s, 0, 50000), 50000, "no false negative");
    sbf_scalable_free(s);
}

/* Measured false positives against the asked rate: the measurement must not
 * show a rate above fpp (its 99.9% Wilson lower bound stays below fpp), and
 * it must agree with the bound the filter computes (within 5 sigma of
 * binomial noise and the sub-filters' own spread). */
static void check_rate(int layout, uint64_t n, uint64_t probes, double fpp)
{
    sbf_scalable *s = make(layout, 1000, fpp);
    add_range(s, 0, n);
    cr_assert_eq(probe_range(s, 0, n), n, "%s: false negative", sbf_layout_name(layout));
    const uint64_t fp = probe_range(s, UINT64_C(1) << 40, probes);
    const double rate = (double)fp / (double)probes;
    struct sbf_scalable_info in;
    sbf_scalable_info(s, &in);
    const double z = 3.29, pn = rate, N = (double)probes;
    const double lower = (pn + z * z / (2 * N) -
                          z * sqrt(pn * (1 - pn) / N + z * z / (4 * N * N))) /
                         (1 + z * z / N);
    double var = in.fpp_bound * (1 - in.fpp_bound) / N;
    for (uint32_t i = 0; i < in.filters; i++) {
        struct sbf_info fi;
        sbf_info(sbf_scalable_filter(s, i), &fi);
        if (fi.keys_added == 0)
            continue;
        const double sp = sbf_fpp_spread(layout, fi.keys_added, fi.bits, fi.k);
        if (sp == sp)
            var += sp * sp;
    }
    cr_log_info("%s n=%llu: %u sub-filters, measured %.5f (%llu of %llu), bound %.5f, asked %g",
                sbf_layout_name(layout), (unsigned long long)n, in.filters, rate,
                (unsigned long long)fp, (unsigned long long)probes, in.fpp_bound, fpp);
    cr_assert(in.fpp_bound <= fpp, "bound %g above %g", in.fpp_bound, fpp);
    cr_assert(lower <= fpp, "%s n=%llu: measured %g (lower %g) above the asked %g",
              sbf_layout_name(layout), (unsigned long long)n, rate, lower, fpp);
    cr_assert(fabs(rate - in.fpp_bound) <= 5 * sqrt(var) + 1e-9,
              "%s n=%llu: measured %g, bound %g, sigma %g", sbf_layout_name(layout),
              (unsigned long long)n, rate, in.fpp_bound, sqrt(var));
    sbf_scalable_free(s);
}

Test(scalable, keeps_the_rate, .description = "blocked, 10^3..10^6 keys from 1000: "
     "measured rate never above the asked one", .timeout = 120)
{
    for (uint64_t n = 1000; n <= 1000000; n *= 10)
        check_rate(SBF_BLOCKED, n, 1000000, 0.01);
    check_rate(SBF_BLOCKED, 300000, 1000000, 0.001);
}

Test(scalable, every_layout, .description = "classic, split-block, parquet keep the "
     "rate and find every key", .timeout = 120)
{
    check_rate(SBF_CLASSIC, 100000, 300000, 0.01);
    check_rate(SBF_SPLIT_BLOCK, 100000, 300000, 0.01);
    check_rate(SBF_PARQUET, 100000, 300000, 0.02);
}

Test(scalable, batches_as_single, .description = "added[i] is sbf_scalable_add's answer "
     "in order; repeats within a batch are new once; strings and u64 agree")
{
    static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_PARQUET,
                                   SBF_SPLIT_BLOCK_XXH3, SBF_BLOCKED_XXH3 };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        sbf_scalable *a = make(layouts[l], 50, 0.05), *b = make(layouts[l], 50, 0.05);
        enum { N = 3000 };
        char buf[N][24];
        const void *ptr[N];
        size_t len[N];
        uint8_t added[N];
        for (size_t i = 0; i < N; i++) {
            len[i] = (size_t)snprintf(buf[i], sizeof buf[i], "key-%zu", (i * 7) % 1200);
            ptr[i] = buf[i];
        }
        const size_t fresh = sbf_scalable_add_batch(a, ptr, len, N, added);
        cr_assert(!sbf_is_error(fresh));
        size_t ones = 0;
        for (size_t i = 0; i < N; i++) {
            const int r = sbf_scalable_add(b, ptr[i], len[i]);
            cr_assert(r == 0 || r == 1);
            cr_assert_eq(added[i], r, "%s key %zu", sbf_layout_name(layouts[l]), i);
            ones += (size_t)r;
            if (i >= 1200)
                cr_assert_eq(added[i], 0, "a repeat is never new");
        }
        cr_assert_eq(ones, fresh);
        cr_assert_eq(sbf_scalable_count(a), fresh);
        cr_assert(fresh > 1100 && fresh <= 1200, "%zu", fresh);
        cr_assert_eq(sbf_scalable_contains_batch(a, ptr, len, N, NULL), N);
        for (size_t i = 0; i < N; i++)
            cr_assert_eq(sbf_scalable_contains(b, ptr[i], len[i]), 1);
        /* a u64 key is its 8 little-endian bytes */
        const uint64_t x = 0x0102030405060708ull;
        cr_assert_eq(sbf_scalable_add_u64(a, &x, 1, NULL), 1);
        cr_assert_eq(sbf_scalable_contains(a, &x, 8), 1);
        cr_assert_eq(sbf_scalable_add(a, &x, 8), 0);
        sbf_scalable_free(a);
        sbf_scalable_free(b);
    }
}

Test(scalable, refusals, .description = "arguments checked; a sub-filter that cannot be "
     "made fails the add and keeps the rest")
{
    sbf_scalable_params p = { 0 };
    sbf_scalable *s = (sbf_scalable *)1;
    cr_assert_eq(sbf_scalable_create(&s, NULL), SBF_E_NULL);
    cr_assert_null(s);
    cr_assert_eq(sbf_scalable_create(NULL, &p), SBF_E_NULL);
    p.layout = SBF_BLOCKED;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_FPP);
    p.fpp = 0.01;
    p.layout = SBF_COUNTING;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_UNSUPPORTED);
    p.layout = 99;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_LAYOUT);
    p.layout = SBF_BLOCKED;
    p.growth = 32769;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_PARAM);
    p.growth = 2;
    p.schedule = 2;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_PARAM);
    p.schedule = 0;
    p.tightening = 1;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_PARAM);
    p.tightening = 0.5;
    p.flags = 8;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_FLAGS);
    p.flags = 0;
    /* the second sub-filter's rate is below any the layout reaches */
    p.initial_n = 10;
    p.tightening = 1e-300;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    uint64_t keys[11];
    for (int i = 0; i < 11; i++)
        keys[i] = (uint64_t)i;
    uint8_t added[11];
    memset(added, 7, sizeof added);
    const size_t r = sbf_scalable_add_u64(s, keys, 11, added);
    cr_assert(sbf_is_error(r));
    cr_assert_eq(added[10], 7, "not written for the key that failed");
    cr_assert_eq(sbf_scalable_count(s), 10);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(sbf_scalable_contains(s, &keys[i], 8), 1);
    cr_assert(sbf_scalable_add(s, &keys[10], 8) < 0);
    sbf_scalable_free(s);
    sbf_scalable_free(NULL);
    cr_assert_eq(sbf_scalable_add(NULL, "a", 1), SBF_E_NULL);
    cr_assert_eq(sbf_scalable_contains(NULL, "a", 1), SBF_E_NULL);
    cr_assert(sbf_is_error(sbf_scalable_add_batch(NULL, NULL, NULL, 0, NULL)));
    cr_assert_eq(sbf_scalable_count(NULL), UINT64_MAX);
    cr_assert(isnan(sbf_scalable_fpp(NULL)));
}

Test(scalable, union_of_two, .description = "union holds both key sets; other "
     "parameters are incompatible")
{
    sbf_scalable *a = make(SBF_SPLIT_BLOCK, 1000, 0.01), *b = make(SBF_SPLIT_BLOCK, 1000, 0.01);
    add_range(a, 0, 3000);       /* two sub-filters */
    add_range(b, 3000, 20000);   /* five */
    cr_assert_eq(sbf_scalable_union(a, b), SBF_OK);
    cr_assert_eq(probe_range(a, 0, 23000), 23000);
    struct sbf_scalable_info in;
    sbf_scalable_info(a, &in);
    cr_assert_eq(in.filters, 5);
    cr_assert(in.keys > 21000 && in.keys < 25000, "estimated %llu",
              (unsigned long long)in.keys);
    sbf_scalable *c = make(SBF_SPLIT_BLOCK, 1000, 0.02);
    cr_assert_eq(sbf_scalable_union(a, c), SBF_E_INCOMPATIBLE);
    cr_assert_eq(sbf_scalable_union(a, NULL), SBF_E_NULL);
    sbf_scalable_free(a);
    sbf_scalable_free(b);
    sbf_scalable_free(c);
}

static void same_answers(const sbf_scalable *a, const sbf_scalable *b)
{
    struct sbf_scalable_info x, y;
    sbf_scalable_info(a, &x);
    sbf_scalable_info(b, &y);
    cr_assert_eq(x.filters, y.filters);
    cr_assert_eq(x.keys, y.keys);
    cr_assert_eq(x.bits, y.bits);
    cr_assert_eq(x.fpp_bound, y.fpp_bound);
    for (uint32_t i = 0; i < x.filters; i++) {
        size_t la, lb;
        const void *da = sbf_data(sbf_scalable_filter(a, i), &la);
        const void *db = sbf_data(sbf_scalable_filter(b, i), &lb);
        cr_assert_eq(la, lb);
        cr_assert_eq(memcmp(da, db, la), 0, "sub-filter %u", i);
    }
    cr_assert_eq(probe_range(b, 0, 5000), 5000);
}

Test(scalable, files, .description = "serialize, save, load and map give the same filter; "
     "a mapping refuses adds; a plain filter's file is another version")
{
    sbf_scalable *s = make(SBF_BLOCKED, 1000, 0.01);
    add_range(s, 0, 5000);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &len), SBF_OK);
    cr_assert_eq(len % 64, 0);
    cr_assert_eq(memcmp(buf, "SBF1\3\0\0\0", 8), 0);
    sbf_scalable *d;
    cr_assert_eq(sbf_scalable_deserialize(&d, buf, len), SBF_OK);
    same_answers(s, d);
    /* the reloaded filter keeps growing as the original would */
    cr_assert_eq(add_range(d, 5000, 3000), add_range(s, 5000, 3000));
    same_answers(s, d);
    sbf_scalable_free(d);

    char path[] = "/tmp/sbf-scalable-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(sbf_scalable_save(s, path), SBF_OK);
    void *buf2;
    size_t len2;
    cr_assert_eq(sbf_scalable_serialize(s, &buf2, &len2), SBF_OK);
    FILE *f = fopen(path, "rb");
    unsigned char *file = malloc(len2 + 1);
    cr_assert_eq(fread(file, 1, len2 + 1, f), len2, "the file is serialize's bytes");
    fclose(f);
    cr_assert_eq(memcmp(file, buf2, len2), 0);
    free(file);
    cr_assert_eq(sbf_scalable_load(&d, path), SBF_OK);
    same_answers(s, d);
    sbf_scalable_free(d);
    for (unsigned fl = 0; fl <= SBF_MAP_NO_VERIFY; fl++) {
        cr_assert_eq(sbf_scalable_map(&d, path, fl), SBF_OK);
        same_answers(s, d);
        const uint64_t k = 1;
        cr_assert_eq(sbf_scalable_add(d, &k, 8), SBF_E_READONLY);
        cr_assert_eq(sbf_scalable_add_u64(d, &k, 1, NULL), (size_t)SBF_E_READONLY);
        sbf_scalable_free(d);
    }
    sbf_filter *plain;
    cr_assert_eq(sbf_load(&plain, path), SBF_E_VERSION, "version 3 is not a plain filter");
    sbf_params pp = { 0 };
    pp.layout = SBF_BLOCKED;
    pp.fpp = 0.01;
    pp.expected_n = 100;
    cr_assert_eq(sbf_create(&plain, &pp), SBF_OK);
    cr_assert_eq(sbf_save(plain, path), SBF_OK);
    cr_assert_eq(sbf_scalable_load(&d, path), SBF_E_VERSION);
    cr_assert_null(d);
    sbf_free(plain);
    cr_assert_eq(sbf_scalable_load(&d, "/nonexistent/x"), SBF_E_IO);
    unlink(path);
    sbf_buffer_free(buf);
    sbf_buffer_free(buf2);
    sbf_scalable_free(s);
}

Test(scalable, corrupt_refused, .description = "every changed byte, every cut and any "
     "trailing byte of a version-3 buffer is refused", .timeout = 120)
{
    sbf_scalable *s = make(SBF_SPLIT_BLOCK, 200, 0.05);
    add_range(s, 0, 700); /* three sub-filters, padding between images */
    void *buf;
    size_t len;
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &len), SBF_OK);
    unsigned char *b = buf;
    sbf_scalable *d;
    /* every byte of the header page, then every third (sub-filter headers,
     * data, the zeros between images) */
    for (size_t i = 0; i < len; i += i < 4096 ? 1 : 3) {
        b[i] ^= 0x20;
        const int rc = sbf_scalable_deserialize(&d, b, len);
        cr_assert(rc < 0, "byte %zu changed and accepted", i);
        cr_assert_null(d);
        b[i] ^= 0x20;
    }
    for (size_t cut = 0; cut < len; cut += (cut < 8200 ? 1 : 61))
        cr_assert(sbf_scalable_deserialize(&d, b, cut) < 0, "cut at %zu accepted", cut);
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, b, len);
    longer[len] = 0;
    cr_assert_eq(sbf_scalable_deserialize(&d, longer, len + 1), SBF_E_TRAILING);
    cr_assert_eq(sbf_scalable_deserialize(&d, b, 3), SBF_E_TRUNCATED);
    cr_assert_eq(sbf_scalable_deserialize(&d, "SBF1\2\0\0\0", 8), SBF_E_VERSION);
    cr_assert_eq(sbf_scalable_deserialize(&d, "XXXXXXXXXX", 10), SBF_E_FORMAT);
    cr_assert_eq(sbf_scalable_deserialize(&d, b, len), SBF_OK);
    sbf_scalable_free(d);
    free(longer);
    sbf_buffer_free(buf);
    sbf_scalable_free(s);
}

Test(scalable, hashes_split_from_adds, .description = "sbf_scalable_hash then _add_hashes "
     "decides as sbf_scalable_add_batch; info and memory agree with the sub-filters")
{
    static const int layouts[] = { SBF_BLOCKED, SBF_PARQUET, SBF_BLOCKED_XXH3 };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        sbf_scalable *a = make(layouts[l], 100, 0.02), *b = make(layouts[l], 100, 0.02);
        enum { N = 1500 };
        uint64_t keys[N], h1[N], h2[N];
        uint8_t x[N], y[N], in[N];
        for (size_t i = 0; i < N; i++)
            keys[i] = (i * 37) % 700;
        cr_assert_eq(sbf_scalable_hash(a, NULL, NULL, keys, N, h1, h2), SBF_OK);
        const size_t fa = sbf_scalable_add_hashes(a, h1, h2, N, x);
        const size_t fb = sbf_scalable_add_u64(b, keys, N, y);
        cr_assert_eq(fa, fb);
        cr_assert_eq(memcmp(x, y, N), 0, "%s", sbf_layout_name(layouts[l]));
        cr_assert_eq(sbf_scalable_contains_hashes(b, h1, h2, N, in), N);
        struct sbf_scalable_info si;
        sbf_scalable_info(a, &si);
        cr_assert_eq(si.keys, fa);
        cr_assert(si.filters >= 3, "%u", si.filters);
        size_t bytes = 0;
        for (uint32_t i = 0; i < si.filters; i++) {
            struct sbf_info fi;
            sbf_info(sbf_scalable_filter(a, i), &fi);
            bytes += fi.bytes;
        }
        cr_assert_eq(si.bytes, bytes);
        cr_assert(sbf_scalable_memory_usage(a) >= bytes);
        cr_assert_eq(sbf_scalable_memory_usage(NULL), 0);
        cr_assert_eq(sbf_scalable_hash(a, NULL, NULL, NULL, 1, h1, h2), SBF_E_NULL);
        cr_assert_eq(sbf_scalable_hash(NULL, NULL, NULL, keys, 1, h1, h2), SBF_E_NULL);
        sbf_scalable_free(a);
        sbf_scalable_free(b);
    }
}

Test(scalable, subfilters_are_the_layouts, .description = "every key a growing filter took "
     "is found by sbf_contains in one of its sub-filters, on every 1-bit layout: the "
     "sub-filters hold the bits of their layout's own hash (XXH3 layouts included)")
{
    for (int layout = 0; layout < 64; layout++) {
        struct sbf_layout_info li;
        if (sbf_layout_info(layout, 0, &li) != SBF_OK || li.cell_bits != 1)
            continue;
        sbf_scalable *s = make(layout, 64, 0.01);
        enum { N = 1000 };
        char buf[24];
        for (uint64_t i = 0; i < N; i++) {
            const size_t len = (size_t)snprintf(buf, sizeof buf, "k%llu", (unsigned long long)i);
            cr_assert(sbf_scalable_add(s, buf, len) >= 0);
            const uint64_t x = i * 0x9e3779b97f4a7c15ull;
            cr_assert(!sbf_is_error(sbf_scalable_add_u64(s, &x, 1, NULL)));
        }
        struct sbf_scalable_info si;
        sbf_scalable_info(s, &si);
        cr_assert(si.filters >= 3, "%s: %u sub-filters", sbf_layout_name(layout), si.filters);
        for (uint64_t i = 0; i < N; i++) {
            const size_t len = (size_t)snprintf(buf, sizeof buf, "k%llu", (unsigned long long)i);
            const uint64_t x = i * 0x9e3779b97f4a7c15ull;
            int in_str = 0, in_u64 = 0;
            for (uint32_t j = 0; j < si.filters; j++) {
                in_str |= sbf_contains(sbf_scalable_filter(s, j), buf, len) == 1;
                in_u64 |= sbf_contains(sbf_scalable_filter(s, j), &x, 8) == 1;
            }
            cr_assert(in_str && in_u64, "%s: key %llu not in any sub-filter",
                      sbf_layout_name(layout), (unsigned long long)i);
        }
        sbf_scalable_free(s);
    }
}

Test(scalable, hash_pairs_are_the_layouts, .description = "sbf_hash_pairs gives the pairs "
     "that sbf_add_hash turns into the bits sbf_add sets, on every layout, u64 and strings")
{
    for (int layout = 0; layout < 64; layout++) {
        struct sbf_layout_info li;
        if (sbf_layout_info(layout, 0, &li) != SBF_OK)
            continue;
        const sbf_params p = { .layout = layout, .expected_n = 500, .fpp = 0.01, .seed = 7 };
        sbf_filter *a, *b;
        cr_assert_eq(sbf_create(&a, &p), SBF_OK);
        cr_assert_eq(sbf_create(&b, &p), SBF_OK);
        enum { N = 300 };
        char buf[N][40];
        const void *ptr[N];
        size_t len[N];
        uint64_t u[N], h1[N], h2[N];
        for (size_t i = 0; i < N; i++) {
            len[i] = (size_t)snprintf(buf[i], sizeof buf[i], "%zu-%.*s", i, (int)(i % 30),
                                      "abcdefghijklmnopqrstuvwxyz0123");
            ptr[i] = buf[i];
            u[i] = i * 0x2545f4914f6cdd1dull;
            cr_assert(sbf_add(a, ptr[i], len[i]) >= 0);
            cr_assert(sbf_add(a, &u[i], 8) >= 0);
        }
        cr_assert_eq(sbf_hash_pairs(b, ptr, len, NULL, N, h1, h2), SBF_OK);
        for (size_t i = 0; i < N; i++)
            cr_assert(sbf_add_hash(b, h1[i], h2[i]) >= 0);
        cr_assert_eq(sbf_hash_pairs(b, NULL, NULL, u, N, h1, h2), SBF_OK);
        for (size_t i = 0; i < N; i++)
            cr_assert(sbf_add_hash(b, h1[i], h2[i]) >= 0);
        size_t la, lb;
        const void *da = sbf_data(a, &la), *db = sbf_data(b, &lb);
        cr_assert(la == lb && memcmp(da, db, la) == 0, "%s", sbf_layout_name(layout));
        cr_assert_eq(sbf_hash_pairs(NULL, ptr, len, NULL, 1, h1, h2), SBF_E_NULL);
        cr_assert_eq(sbf_hash_pairs(a, NULL, NULL, NULL, 1, h1, h2), SBF_E_NULL);
        cr_assert_eq(sbf_hash_pairs(a, ptr, len, NULL, 0, NULL, NULL), SBF_OK);
        sbf_free(a);
        sbf_free(b);
    }
}
