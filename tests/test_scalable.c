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
        cr_assert(!sbf_is_error(r), "%s", sbf_strerror((int)(ptrdiff_t)r));
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
        /* the formula plus three of its spread at capacity within the rate,
         * which takes more bits than the formula alone (sbf_size's) */
        const double fr = sbf_fpp_layout(SBF_BLOCKED, cap, fi.bits, fi.k);
        const double sd = sbf_fpp_spread(SBF_BLOCKED, cap, fi.bits, fi.k);
        cr_assert(fr + 3 * sd <= e && sd > 0, "sub-filter %u: %g + 3 x %g > %g", i, fr, sd, e);
        cr_assert_gt(fi.bits, bits, "sub-filter %u", i);
        cr_assert_lt(fi.bits, bits * 1.5, "sub-filter %u", i);
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
                                   SBF_SPLIT_BLOCK_XXH3, SBF_BLOCKED_XXH3, SBF_BLOCKED_FMIX };
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

/* The same sub-filters, counts and bytes. */
static void same_bits(const sbf_scalable *a, const sbf_scalable *b)
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
}

/* ... and b holds keys 0..4999 (add_range). */
static void same_answers(const sbf_scalable *a, const sbf_scalable *b)
{
    same_bits(a, b);
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
    cr_assert_eq(memcmp(buf, "SBF1\4\0\0\0", 8), 0, "spread-budgeted sub-filters: format 4");
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

/* ------------------------------------------- what the Redis module uses */

static sbf_scalable *make_p(int layout, uint64_t initial, double fpp, uint32_t growth,
                            int schedule, uint32_t flags)
{
    sbf_scalable_params p = { 0 };
    p.layout = layout;
    p.initial_n = initial;
    p.fpp = fpp;
    p.growth = growth;
    p.schedule = schedule;
    p.flags = flags;
    sbf_scalable *s;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    return s;
}

Test(scalable, shared_schedule, .description = "SBF_SCHEDULE_SHARED: sub-filter i is sized "
     "for fpp/((i+1)(i+2)), the sum stays below fpp at every depth, growth 1 and 2 keep the "
     "measured rate under the asked one", .timeout = 120)
{
    static const uint32_t growths[] = { 1, 2 };
    for (size_t g = 0; g < 2; g++) {
        sbf_scalable *s = make_p(SBF_BLOCKED, 100, 0.01, growths[g], SBF_SCHEDULE_SHARED,
                                 SBF_SCALABLE_FORMULA);
        add_range(s, 0, growths[g] == 1 ? 6000 : 100000);
        const uint32_t n = sbf_scalable_filters(s);
        cr_assert_geq(n, growths[g] == 1 ? 55 : 9, "%u sub-filters", n);
        double sum = 0;
        uint64_t cap = 100;
        for (uint32_t i = 0; i < n; i++) {
            struct sbf_scalable_sub u;
            cr_assert_eq(sbf_scalable_sub_info(s, i, &u), SBF_OK);
            cr_assert_float_eq(u.fpp, 0.01 / ((i + 1.0) * (i + 2.0)), 1e-12 * u.fpp, "sub %u", i);
            cr_assert_eq(u.capacity, cap);
            uint64_t bits;
            uint32_t k = 0;
            cr_assert_eq(sbf_size(SBF_BLOCKED, cap, u.fpp, &bits, &k), SBF_OK);
            cr_assert(u.bits == bits && u.k == k, "sub %u: geometry by sbf_size", i);
            sum += u.fpp;
            cr_assert_lt(sum, 0.01);
            cap *= growths[g];
        }
        struct sbf_scalable_info in;
        sbf_scalable_info(s, &in);
        cr_assert_leq(in.fpp_bound, 0.01);
        const uint64_t probes = 400000;
        const uint64_t fp = probe_range(s, UINT64_C(1) << 41, probes);
        /* 0.01 is about 9 sigma above any rate the bound allows */
        cr_assert_lt((double)fp / probes, 0.01, "growth %u: %llu of %llu", growths[g],
                     (unsigned long long)fp, (unsigned long long)probes);
        cr_assert_lt(fabs((double)fp / probes - in.fpp_bound), 0.002);
        struct sbf_scalable_sub nx;
        cr_assert_eq(sbf_scalable_next(s, &nx), SBF_OK);
        cr_assert_eq(nx.index, n);
        cr_assert_null(nx.filter);
        cr_assert_float_eq(nx.fpp, 0.01 / ((n + 1.0) * (n + 2.0)), 1e-12 * nx.fpp);
        sbf_scalable_free(s);
    }
}

Test(scalable, nonscaling, .description = "SBF_SCALABLE_NONSCALING: one sub-filter with the "
     "whole rate; a new key past its capacity is SBF_E_FULL, a present one still 0")
{
    sbf_scalable *s = make_p(SBF_BLOCKED, 100, 0.01, 0, SBF_SCHEDULE_SHARED,
                             SBF_SCALABLE_NONSCALING);
    struct sbf_scalable_sub u;
    cr_assert_eq(sbf_scalable_sub_info(s, 0, &u), SBF_OK);
    cr_assert_eq(u.fpp, 0.01);
    cr_assert_eq(sbf_scalable_sub_info(s, 1, &u), SBF_E_PARAM);
    uint64_t fresh = 0, x = 0;
    while (fresh < 100) {
        const int r = sbf_scalable_add(s, &x, 8);
        cr_assert(r == 0 || r == 1);
        fresh += (uint64_t)r;
        x++;
    }
    cr_assert_eq(sbf_scalable_add(s, &x, 8), SBF_E_FULL);
    cr_assert_eq(sbf_scalable_count(s), 100);
    const uint64_t old = 0;
    cr_assert_eq(sbf_scalable_add(s, &old, 8), 0);
    cr_assert_eq(sbf_scalable_filters(s), 1);
    cr_assert_eq(sbf_scalable_next(s, &u), SBF_E_FULL);
    cr_assert_str_neq(sbf_strerror(SBF_E_FULL), sbf_strerror(-9999));
    cr_assert_eq(sbf_scalable_save(s, "/nonexistent/x"), SBF_E_IO, "format 4 holds it");
    sbf_scalable_free(s);
}

Test(scalable, counting_multiset, .description = "a non-scaling counting filter counts every "
     "add, says whether a key was new, takes removes; refused when it may grow")
{
    sbf_scalable *s = make_p(SBF_COUNTING, 10, 0.01, 0, 0, SBF_SCALABLE_NONSCALING);
    cr_assert_eq(sbf_scalable_add(s, "a", 1), 1);
    cr_assert_eq(sbf_scalable_add(s, "a", 1), 0);
    cr_assert_eq(sbf_scalable_count(s), 2, "a multiset: both adds count");
    cr_assert_eq(sbf_scalable_remove(s, "a", 1), SBF_OK);
    cr_assert_eq(sbf_scalable_contains(s, "a", 1), 1, "one add left");
    cr_assert_eq(sbf_scalable_remove(s, "a", 1), SBF_OK);
    cr_assert_eq(sbf_scalable_contains(s, "a", 1), 0);
    cr_assert_eq(sbf_scalable_remove(s, "a", 1), SBF_E_NOT_PRESENT);
    cr_assert_eq(sbf_scalable_count(s), 0);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(sbf_scalable_add(s, "b", 1), i == 0);
    cr_assert_eq(sbf_scalable_add(s, "b", 1), 0, "present: counted past capacity");
    cr_assert_eq(sbf_scalable_add(s, "new", 3), SBF_E_FULL);
    sbf_scalable *t = make_p(SBF_BLOCKED, 10, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_scalable_remove(t, "a", 1), SBF_E_UNSUPPORTED);
    sbf_scalable_free(t);
    sbf_scalable_free(s);
    sbf_scalable_params p = { 0 };
    p.layout = SBF_COUNTING;
    p.fpp = 0.01;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_UNSUPPORTED);
    p.flags = SBF_SCALABLE_NONSCALING | 4;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_E_FLAGS);
}

/* Adds keys [from, from+n) one by one to a and as one all-or-nothing batch
 * to b; checks the answers agree. */
static size_t all_vs_single(sbf_scalable *a, sbf_scalable *b, int from, int n)
{
    char (*buf)[16] = malloc((size_t)n * 16);
    const void **ptr = malloc((size_t)n * sizeof *ptr);
    size_t *len = malloc((size_t)n * sizeof *len);
    uint8_t *added = malloc((size_t)n);
    cr_assert(buf != NULL && ptr != NULL && len != NULL && added != NULL);
    for (int i = 0; i < n; i++) {
        len[i] = (size_t)snprintf(buf[i], 16, "k%d", from + (i % (n - n / 5 + 1)));
        ptr[i] = buf[i];
    }
    const size_t r = sbf_scalable_add_all(b, ptr, len, (size_t)n, added);
    if (!sbf_is_error(r))
        for (int i = 0; i < n; i++)
            cr_assert_eq(added[i], sbf_scalable_add(a, ptr[i], len[i]), "key %d", i);
    free(buf);
    free(ptr);
    free(len);
    free(added);
    return r;
}

static void *track_alloc(void *opaque, size_t size);
static void track_free(void *opaque, void *ptr);
static long long live_allocs, live_bytes;
static int refuse_after;
static int check_calls;
static int refusing_check(void *arg, const struct sbf_scalable_sub *nx, int rc)
{
    uint64_t *bits_before = arg; /* of the filter asking */
    check_calls++;
    if (rc != SBF_OK)
        return rc;
    cr_assert_eq(nx->bits_before, *bits_before, "sub %u: bits before it", nx->index);
    if ((int)nx->index >= refuse_after)
        return SBF_E_NOMEM;
    *bits_before += nx->bits;
    return SBF_OK;
}

Test(scalable, add_all, .description = "all or nothing: growth made in advance answers as "
     "single adds; a refused growth (grow_check) or a full non-scaling filter changes nothing; "
     "a non-scaling filter takes exactly what fits, repeats counted once")
{
    sbf_scalable_params p = { 0 };
    p.layout = SBF_SPLIT_BLOCK;
    p.initial_n = 30;
    p.fpp = 0.05;
    p.schedule = SBF_SCHEDULE_SHARED;
    p.grow_check = refusing_check;
    static const sbf_allocator al = { track_alloc, track_free, NULL };
    p.allocator = &al;
    refuse_after = 1000;
    check_calls = 0;
    uint64_t before_a = 0, before_b = 0;
    sbf_scalable *a, *b;
    p.grow_arg = &before_a;
    cr_assert_eq(sbf_scalable_create(&a, &p), SBF_OK);
    cr_assert_eq(check_calls, 1, "asked for the first sub-filter too");
    p.grow_arg = &before_b;
    cr_assert_eq(sbf_scalable_create(&b, &p), SBF_OK);
    const size_t r = all_vs_single(a, b, 0, 500);
    cr_assert(!sbf_is_error(r) && r > 300, "%zu", r);
    cr_assert_eq(sbf_scalable_filters(a), sbf_scalable_filters(b));
    for (uint32_t i = 0; i < sbf_scalable_filters(a); i++) {
        size_t la, lb;
        const void *da = sbf_data(sbf_scalable_filter(a, i), &la);
        const void *db = sbf_data(sbf_scalable_filter(b, i), &lb);
        cr_assert(la == lb && memcmp(da, db, la) == 0, "sub %u: same bytes", i);
    }
    /* growth refused half-way: nothing changes */
    const uint32_t n = sbf_scalable_filters(b);
    struct sbf_scalable_sub last;
    sbf_scalable_sub_info(b, n - 1, &last);
    before_b = last.bits_before + last.bits; /* the spares made and dropped before */
    const uint64_t count = sbf_scalable_count(b);
    const long long filters_live = live_allocs;
    refuse_after = (int)n + 1;
    const size_t e = all_vs_single(a, b, 1000, 2000);
    cr_assert(sbf_is_error(e));
    cr_assert_eq(-(int)(SIZE_MAX - e) - 1, SBF_E_NOMEM);
    cr_assert_eq(sbf_scalable_filters(b), n);
    cr_assert_eq(sbf_scalable_count(b), count);
    cr_assert_eq(live_allocs, filters_live, "spares freed");
    cr_assert_eq(sbf_scalable_contains(b, "k1500", 5), 0);
    sbf_scalable_free(a);
    sbf_scalable_free(b);
    cr_assert_eq(live_allocs, 0);

    /* non-scaling: 3 distinct of 5 fit a capacity of 3 exactly */
    sbf_scalable *c = make_p(SBF_BLOCKED, 3, 0.01, 0, 0, SBF_SCALABLE_NONSCALING);
    const void *ks[5] = { "a", "b", "c", "d", "e" };
    size_t ls[5] = { 1, 1, 1, 1, 1 };
    uint8_t out[5];
    size_t x = sbf_scalable_add_all(c, ks, ls, 5, out);
    cr_assert(sbf_is_error(x) && -(int)(SIZE_MAX - x) - 1 == SBF_E_FULL);
    cr_assert_eq(sbf_scalable_count(c), 0);
    ks[3] = "a";
    ks[4] = "b";
    cr_assert_eq(sbf_scalable_add_all(c, ks, ls, 5, out), 3);
    cr_assert(out[0] && out[1] && out[2] && !out[3] && !out[4]);
    cr_assert_eq(sbf_scalable_add_all(c, ks, ls, 3, out), 0, "present keys need no room");
    cr_assert_eq(sbf_scalable_add_all(c, ks, ls, 0, out), 0);
    cr_assert(sbf_is_error(sbf_scalable_add_all(NULL, ks, ls, 1, out)));
    sbf_scalable_free(c);
}

Test(scalable, adopt_rebuilds, .description = "a filter rebuilt from copies of another's "
     "sub-filters (create_empty + adopt) answers as it, grows into the same sub-filters, and "
     "is refused what hashes otherwise")
{
    sbf_scalable *a = make_p(SBF_BLOCKED, 50, 0.01, 3, SBF_SCHEDULE_SHARED, 0);
    add_range(a, 0, 2000);
    sbf_scalable_params p;
    cr_assert_eq(sbf_scalable_params_of(a, &p), SBF_OK);
    sbf_scalable *b;
    cr_assert_eq(sbf_scalable_create_empty(&b, &p), SBF_OK);
    cr_assert_eq(sbf_scalable_contains(b, "x", 1), 0, "an empty one holds nothing");
    {
        const void *k1[1] = { "x" };
        const size_t l1[1] = { 1 };
        uint64_t h1[2], h2[2];
        cr_assert_eq(sbf_scalable_hash(b, k1, l1, NULL, 1, h1, h2), SBF_OK);
        cr_assert_eq(sbf_scalable_hash(a, k1, l1, NULL, 1, h1 + 1, h2 + 1), SBF_OK);
        cr_assert(h1[0] == h1[1] && h2[0] == h2[1], "an empty one hashes as its sub-filters will");
    }
    for (uint32_t i = 0; i < sbf_scalable_filters(a); i++) {
        struct sbf_scalable_sub u;
        sbf_scalable_sub_info(a, i, &u);
        sbf_filter *f;
        cr_assert_eq(sbf_copy(&f, u.filter), SBF_OK);
        cr_assert_eq(sbf_scalable_adopt(b, f, u.capacity, u.fpp, u.keys), SBF_OK);
    }
    cr_assert_eq(sbf_scalable_count(b), sbf_scalable_count(a));
    add_range(a, 5000, 20000);
    add_range(b, 5000, 20000);
    cr_assert_eq(sbf_scalable_filters(a), sbf_scalable_filters(b));
    for (uint32_t i = 0; i < sbf_scalable_filters(a); i++) {
        struct sbf_scalable_sub u, v;
        sbf_scalable_sub_info(a, i, &u);
        sbf_scalable_sub_info(b, i, &v);
        cr_assert(u.capacity == v.capacity && u.fpp == v.fpp && u.bits == v.bits &&
                  u.k == v.k && u.keys == v.keys, "sub %u", i);
        size_t la, lb;
        const void *da = sbf_data(u.filter, &la), *db = sbf_data(v.filter, &lb);
        cr_assert(la == lb && memcmp(da, db, la) == 0, "sub %u: same bytes", i);
    }
    /* a writable sub-filter is the same object */
    cr_assert_eq((const sbf_filter *)sbf_scalable_filter_writable(b, 0), sbf_scalable_filter(b, 0));
    cr_assert_null(sbf_scalable_filter_writable(b, 99));
    /* refusals */
    sbf_filter *f = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 5); /* another seed */
    cr_assert_eq(sbf_scalable_adopt(b, f, 100, 0.01, 0), SBF_E_INCOMPATIBLE);
    sbf_free(f);
    f = tu_make(SBF_BLOCKED_XXH3, 100, 0.01, 0, 0, 0); /* another hash */
    cr_assert_eq(sbf_scalable_adopt(b, f, 100, 0.01, 0), SBF_E_INCOMPATIBLE);
    cr_assert_eq(sbf_scalable_adopt(b, f, 0, 0.01, 0), SBF_E_PARAM);
    cr_assert_eq(sbf_scalable_adopt(b, f, 10, 1.0, 0), SBF_E_PARAM);
    sbf_free(f);
    f = tu_make(SBF_CLASSIC, 100, 0.01, 0, 0, 0); /* classic hashes as blocked: taken */
    cr_assert_eq(sbf_scalable_adopt(b, f, 100, 0.001, 0), SBF_OK);
    cr_assert_eq(sbf_scalable_add(b, "after-classic", 13), 1);
    cr_assert_eq(sbf_scalable_contains(b, "after-classic", 13), 1);
    void *buf;
    size_t len;
    struct sbf_info fi;
    cr_assert_eq(sbf_scalable_serialize(b, &buf, &len), SBF_OK, "format 4 holds it");
    cr_assert_eq(memcmp(buf, "SBF1\4\0\0\0", 8), 0);
    sbf_scalable *c;
    cr_assert_eq(sbf_scalable_deserialize(&c, buf, len), SBF_OK);
    same_bits(b, c);
    cr_assert_eq(sbf_scalable_contains(c, "after-classic", 13), 1);
    cr_assert_eq(sbf_info(sbf_scalable_filter(c, sbf_scalable_filters(c) - 1), &fi), SBF_OK);
    cr_assert_eq(fi.layout, SBF_CLASSIC, "the adopted classic sub-filter");
    cr_assert_eq(add_range(c, 1 << 20, 30000), add_range(b, 1 << 20, 30000),
                 "grows on as the original");
    same_bits(b, c);
    sbf_scalable_free(c);
    sbf_buffer_free(buf);
    sbf_scalable_free(a);
    sbf_scalable_free(b);
    /* a geometric filter rebuilt as the schedule made it still saves */
    sbf_scalable *g = make(SBF_BLOCKED, 100, 0.01), *h;
    add_range(g, 0, 500);
    cr_assert_eq(sbf_scalable_params_of(g, &p), SBF_OK);
    cr_assert_eq(sbf_scalable_create_empty(&h, &p), SBF_OK);
    for (uint32_t i = 0; i < sbf_scalable_filters(g); i++) {
        struct sbf_scalable_sub u;
        sbf_scalable_sub_info(g, i, &u);
        cr_assert_eq(sbf_copy(&f, u.filter), SBF_OK);
        cr_assert_eq(sbf_scalable_adopt(h, f, u.capacity, u.fpp, u.keys), SBF_OK);
    }
    void *b1, *b2;
    size_t l1, l2;
    cr_assert_eq(sbf_scalable_serialize(g, &b1, &l1), SBF_OK);
    cr_assert_eq(sbf_scalable_serialize(h, &b2, &l2), SBF_OK);
    cr_assert(l1 == l2 && memcmp(b1, b2, l1) == 0, "the same file bytes");
    sbf_buffer_free(b1);
    sbf_buffer_free(b2);
    sbf_scalable_free(g);
    sbf_scalable_free(h);
}

static void *track_alloc(void *opaque, size_t size)
{
    (void)opaque;
    char *p = calloc(1, size + 16); /* reads as zero: SBF_ZEROED holds */
    cr_assert_not_null(p);
    memcpy(p, &size, sizeof size);
    live_allocs++;
    live_bytes += (long long)size;
    return p + 16;
}
static void track_free(void *opaque, void *ptr)
{
    (void)opaque;
    size_t size;
    memcpy(&size, (char *)ptr - 16, sizeof size);
    live_allocs--;
    live_bytes -= (long long)size;
    free((char *)ptr - 16);
}

Test(scalable, allocator_copy_limits, .description = "every byte from the caller's allocator "
     "(SBF_ZEROED) and back; a copy is independent; max_capacity refuses growth past it")
{
    static const sbf_allocator al = { track_alloc, track_free, NULL };
    sbf_scalable_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.initial_n = 100;
    p.fpp = 0.01;
    p.growth = 4;
    p.allocator = &al;
    p.flags = SBF_ZEROED;
    p.max_capacity = 1600;
    sbf_scalable *s, *c;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    uint64_t k = 0, fresh = 0; /* 100 + 400 + 1600 = 2100 */
    int r = 0;
    while ((r = sbf_scalable_add(s, &k, 8)) >= 0 && k < 10000) {
        fresh += (uint64_t)r;
        k++;
    }
    cr_assert_eq(r, SBF_E_TOO_LARGE, "6400 > max_capacity");
    cr_assert_eq(fresh, 2100);
    cr_assert_eq(sbf_scalable_filters(s), 3);
    cr_assert_eq(live_bytes > 0 && (size_t)live_bytes <= sbf_scalable_memory_usage(s), 1);
    struct sbf_scalable_sub nx;
    cr_assert_eq(sbf_scalable_next(s, &nx), SBF_E_TOO_LARGE);
    cr_assert_eq(nx.capacity, 6400);
    cr_assert_eq(nx.fpp, 0, "not reached");
    cr_assert_eq(sbf_scalable_copy(&c, s), SBF_OK);
    cr_assert_eq(sbf_scalable_count(c), sbf_scalable_count(s));
    for (uint64_t i = 0; i < k; i++)
        cr_assert_eq(sbf_scalable_contains(c, &i, 8), 1);
    sbf_scalable_free(s);
    for (uint64_t i = 0; i < k; i++)
        cr_assert_eq(sbf_scalable_contains(c, &i, 8), 1, "the copy outlives its source");
    sbf_scalable_free(c);
    cr_assert_eq(live_allocs, 0);
    cr_assert_eq(live_bytes, 0);
}

/* ------------------------------------------------ the per-filter guarantee */

/* One filter's exact rate from its bits, for the layouts whose probe
 * positions are uniform within a block: blocked (the mean over blocks of
 * (bits set / 512)^k) and split-block (the product over a block's words of
 * bits set / 32). What a probe measures, without its noise. */
static double rate_from_bits(const sbf_filter *f)
{
    struct sbf_info in;
    cr_assert_eq(sbf_info(f, &in), SBF_OK);
    size_t len;
    const uint64_t *w = sbf_data(f, &len);
    double sum = 0;
    if (in.layout == SBF_BLOCKED) {
        const uint64_t nb = in.bits / 512;
        for (uint64_t b = 0; b < nb; b++) {
            int c = 0;
            for (int j = 0; j < 8; j++)
                c += __builtin_popcountll(w[b * 8 + j]);
            sum += pow(c / 512.0, in.k);
        }
        return sum / (double)nb;
    }
    cr_assert_eq(in.layout, SBF_SPLIT_BLOCK);
    const uint64_t nb = in.bits / (32 * in.k);
    for (uint64_t b = 0; b < nb; b++) {
        double p = 1;
        for (uint32_t j = 0; j < in.k; j++) {
            const uint64_t word = w[(b * in.k + j) / 2] >> (32 * ((b * in.k + j) % 2));
            p *= __builtin_popcount((uint32_t)word) / 32.0;
        }
        sum += p;
    }
    return sum / (double)nb;
}

static double chain_rate_from_bits(const sbf_scalable *s)
{
    double none = 1;
    for (uint32_t i = 0; i < sbf_scalable_filters(s); i++)
        none *= 1 - rate_from_bits(sbf_scalable_filter(s, i));
    return 1 - none;
}

Test(scalable, per_filter, .description = "every filter, not only the mean: 16 filters per "
     "layout and rate, 10^3..10^5 keys, their exact rates from their bits under the asked "
     "rate; with SBF_SCALABLE_FORMULA (the formula alone) filters go above it",
     .timeout = 200)
{
    static const int layouts[] = { SBF_BLOCKED, SBF_SPLIT_BLOCK };
    static const double rates[] = { 0.01, 0.001 };
    for (size_t l = 0; l < 2; l++)
        for (size_t r = 0; r < 2; r++)
            for (int rule = 0; rule < 2; rule++) {
                int over = 0;
                double most = 0;
                for (uint32_t seed = 0; seed < 16; seed++) {
                    sbf_scalable *s;
                    sbf_scalable_params p = { 0 };
                    p.layout = layouts[l];
                    p.initial_n = 1000;
                    p.fpp = rates[r];
                    p.seed = seed;
                    p.flags = rule ? SBF_SCALABLE_FORMULA : 0;
                    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
                    uint64_t at = 0;
                    for (uint64_t n = 1000; n <= 100000; n *= 10) {
                        add_range(s, ((uint64_t)seed << 32) + at, n - at);
                        at = n;
                        const double rate = chain_rate_from_bits(s);
                        most = rate > most ? rate : most;
                        over += rate > rates[r];
                        if (!rule)
                            cr_assert_leq(rate, rates[r], "%s seed %u n %llu: %g above %g",
                                          sbf_layout_name(layouts[l]), seed,
                                          (unsigned long long)n, rate, rates[r]);
                    }
                    sbf_scalable_free(s);
                }
                cr_log_info("%s %g %s: highest %g, %d of 48 above", sbf_layout_name(layouts[l]),
                            rates[r], rule ? "formula" : "spread", most, over);
                if (rule)
                    cr_assert_gt(over, 0, "%s %g: the formula alone never went above: the "
                                 "sweep cannot tell", sbf_layout_name(layouts[l]), rates[r]);
            }
}

Test(scalable, per_filter_probes, .description = "measured with probes at the 2-standard-error "
     "level, classic, blocked and split-block, 4 filters each at 10^3..10^5 keys: no measured "
     "rate wholly above the asked one; the rate from the bits is the measured one",
     .timeout = 200)
{
    static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK };
    const double fpp = 0.01;
    const uint64_t probes = 200000;
    for (size_t l = 0; l < 3; l++)
        for (uint32_t seed = 0; seed < 4; seed++) {
            sbf_scalable_params p = { 0 };
            p.layout = layouts[l];
            p.initial_n = 1000;
            p.fpp = fpp;
            p.seed = seed;
            sbf_scalable *s;
            cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
            uint64_t at = 0;
            for (uint64_t n = 1000; n <= 100000; n *= 10) {
                add_range(s, ((uint64_t)seed << 32) + at, n - at);
                at = n;
                const uint64_t fp = probe_range(s, (UINT64_C(1) << 44) + n * 7, probes);
                const double m = (double)fp / (double)probes;
                const double se = sqrt(fpp * (1 - fpp) / (double)probes);
                cr_assert_leq(m - 2 * se, fpp, "%s seed %u n %llu: measured %g, 2 SE %g, asked %g",
                              sbf_layout_name(layouts[l]), seed, (unsigned long long)n, m,
                              2 * se, fpp);
                if (layouts[l] != SBF_CLASSIC) {
                    const double exact = chain_rate_from_bits(s);
                    cr_assert_leq(fabs(m - exact), 4 * sqrt(exact / (double)probes),
                                  "%s: measured %g, from the bits %g",
                                  sbf_layout_name(layouts[l]), m, exact);
                }
            }
            sbf_scalable_free(s);
        }
}

/* ------------------------------------------------------------ format 4 */

static uint64_t get_le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void put_le64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t header_length(const unsigned char *b)
{
    return b[4] == 4 ? get_le64(b + 56) : 4096;
}

/* The header checksum recomputed after a field was changed on purpose. */
static void reseal(unsigned char *b, uint64_t hl)
{
    put_le64(b + hl - 8, sbf_xxh3_64(b, (size_t)hl - 8, 0));
}

/* Round trips of s (holding keys 0..n-1 of add_range, or none with n 0):
 * buffer, file, mapping; every changed header byte, cuts and a trailing
 * byte refused. Returns the buffer's copy (the caller frees it). */
static sbf_scalable *round_trip(const sbf_scalable *s, uint64_t n, uint32_t version)
{
    void *buf;
    size_t len;
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &len), SBF_OK);
    unsigned char *b = buf;
    cr_assert_eq(b[4], version);
    sbf_scalable *d;
    cr_assert_eq(sbf_scalable_deserialize(&d, b, len), SBF_OK);
    same_bits(s, d);
    cr_assert_eq(probe_range(d, 0, n), n);
    sbf_scalable_params ps, pd;
    sbf_scalable_params_of(s, &ps);
    sbf_scalable_params_of(d, &pd);
    cr_assert(ps.flags == pd.flags && ps.schedule == pd.schedule && ps.growth == pd.growth &&
              ps.layout == pd.layout, "parameters kept");
    char path[] = "/tmp/sbf-scalable4-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(sbf_scalable_save(s, path), SBF_OK);
    sbf_scalable *e;
    cr_assert_eq(sbf_scalable_load(&e, path), SBF_OK);
    same_bits(s, e);
    sbf_scalable_free(e);
    for (unsigned fl = 0; fl <= SBF_MAP_NO_VERIFY; fl++) {
        cr_assert_eq(sbf_scalable_map(&e, path, fl), SBF_OK);
        same_bits(s, e);
        cr_assert_eq(probe_range(e, 0, n), n);
        sbf_scalable_free(e);
    }
    unlink(path);
    const uint64_t hl = header_length(b);
    cr_assert_eq(hl, version == 3 ? 4096 : (64 + 48 * sbf_scalable_filters(s) + 8 + 4095) / 4096 * 4096);
    for (size_t i = 0; i < hl; i += i < 512 ? 1 : 7) {
        b[i] ^= 0x10;
        cr_assert(sbf_scalable_deserialize(&e, b, len) < 0, "header byte %zu changed, accepted", i);
        cr_assert_null(e);
        b[i] ^= 0x10;
    }
    for (size_t cut = 0; cut < len; cut += 97)
        cr_assert(sbf_scalable_deserialize(&e, b, cut) < 0, "cut at %zu accepted", cut);
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, b, len);
    longer[len] = 0;
    cr_assert_eq(sbf_scalable_deserialize(&e, longer, len + 1), SBF_E_TRAILING);
    free(longer);
    sbf_buffer_free(buf);
    return d;
}

Test(scalable, format4_round_trips, .description = "format 4: the shared schedule, non-scaling "
     "(blocked, counting), 100 sub-filters (a two-page header), the spread rule: buffer, file and mapping give the "
     "same filter, which grows on as the original; every header byte, cut and trailing byte "
     "refused", .timeout = 200)
{
    /* the Redis module's kind: shared schedule, the formula rule */
    sbf_scalable *s = make_p(SBF_BLOCKED, 100, 0.01, 2, SBF_SCHEDULE_SHARED, SBF_SCALABLE_FORMULA);
    add_range(s, 0, 3000);
    sbf_scalable *d = round_trip(s, 3000, 4);
    cr_assert_eq(add_range(d, 3000, 5000), add_range(s, 3000, 5000));
    same_bits(s, d);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
    /* non-scaling: SBF_E_FULL after a trip */
    s = make_p(SBF_BLOCKED, 500, 0.01, 0, 0, SBF_SCALABLE_NONSCALING);
    add_range(s, 0, 400);
    d = round_trip(s, 400, 4);
    cr_assert_eq(add_range(d, 400, 50), add_range(s, 400, 50));
    uint64_t x = UINT64_C(1) << 50, fresh = 0;
    while (fresh < 200) {
        const int r = sbf_scalable_add(d, &x, 8);
        if (r == SBF_E_FULL)
            break;
        cr_assert(r == 0 || r == 1);
        fresh += (uint64_t)r;
        x++;
    }
    cr_assert_eq(sbf_scalable_add(d, &x, 8), SBF_E_FULL);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
    /* a counting multiset */
    s = make_p(SBF_COUNTING, 300, 0.01, 0, 0, SBF_SCALABLE_NONSCALING);
    add_range(s, 0, 200);
    add_range(s, 0, 50); /* counted again */
    cr_assert_eq(sbf_scalable_count(s), 250);
    d = round_trip(s, 200, 4);
    cr_assert_eq(sbf_scalable_count(d), 250);
    const uint64_t k0 = 0;
    cr_assert_eq(sbf_scalable_remove(d, &k0, 8), SBF_OK);
    cr_assert_eq(sbf_scalable_remove(s, &k0, 8), SBF_OK);
    same_bits(s, d);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
    /* more sub-filters than format 3 holds */
    s = make_p(SBF_SPLIT_BLOCK, 10, 0.05, 1, SBF_SCHEDULE_SHARED, 0);
    add_range(s, 0, 1000);
    cr_assert_geq(sbf_scalable_filters(s), 84, "a header of two pages");
    d = round_trip(s, 1000, 4);
    cr_assert_eq(add_range(d, 1000, 300), add_range(s, 1000, 300));
    same_bits(s, d);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
    /* the default: Almeida's schedule, the spread rule */
    s = make(SBF_PARQUET, 300, 0.02);
    add_range(s, 0, 3000);
    d = round_trip(s, 3000, 4);
    cr_assert_eq(add_range(d, 3000, 4000), add_range(s, 3000, 4000));
    same_bits(s, d);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
    /* the formula rule and Almeida's schedule: format 3, as always */
    s = make_p(SBF_BLOCKED, 300, 0.02, 0, 0, SBF_SCALABLE_FORMULA);
    add_range(s, 0, 1000);
    d = round_trip(s, 1000, 3);
    sbf_scalable_free(d);
    sbf_scalable_free(s);
}

/* The filter of tests/vectors/sbf_v4_shared.bin. */
static sbf_scalable *v4_vector_filter(void)
{
    sbf_scalable *s = make_p(SBF_BLOCKED, 100, 0.01, 2, SBF_SCHEDULE_SHARED, SBF_SCALABLE_FORMULA);
    add_range(s, 0, 250);
    return s;
}

Test(scalable, format4_fields, .description = "tests/vectors/sbf_v4_shared.bin: today's writer "
     "gives it byte for byte, every field pinned; fields changed (checksum resealed) are "
     "refused with their code")
{
    size_t len;
    unsigned char *v = tu_read_vector("sbf_v4_shared.bin", &len);
    sbf_scalable *s = v4_vector_filter();
    void *buf;
    size_t blen;
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &blen), SBF_OK);
    cr_assert(blen == len && memcmp(buf, v, len) == 0, "the writer's bytes are the vector's");
    sbf_buffer_free(buf);
    cr_assert_eq(memcmp(v, "SBF1\4\0\0\0", 8), 0);
    cr_assert_eq(get_le64(v + 8) & 0xffffffff, SBF_BLOCKED);
    cr_assert_eq(get_le64(v + 16) & 0xffffffff, 2, "flags: the formula rule");
    cr_assert_eq(get_le64(v + 16) >> 32, 2, "growth");
    cr_assert_eq(get_le64(v + 24), 100);
    cr_assert_eq(get_le64(v + 48) & 0xffffffff, 2, "two sub-filters");
    cr_assert_eq(get_le64(v + 48) >> 32, 1, "the shared schedule");
    cr_assert_eq(get_le64(v + 56), 4096, "header length");
    const double rates[2] = { 0.01 / 2, 0.01 / 2 / 3 };
    uint64_t at = 4096;
    for (int i = 0; i < 2; i++) {
        const unsigned char *e = v + 64 + 48 * i;
        cr_assert_eq(get_le64(e), at);
        cr_assert_eq(get_le64(e + 16), i == 0 ? 100 : 150, "keys");
        cr_assert_eq(get_le64(e + 24), i == 0 ? 100 : 200, "capacity");
        double r;
        const uint64_t rb = get_le64(e + 32);
        memcpy(&r, &rb, 8);
        cr_assert_float_eq(r, rates[i], 1e-15);
        cr_assert_eq(get_le64(e + 40), 0);
        at += get_le64(e + 8); /* the next image on the next page boundary */
        if (i == 0)
            at = (at + 4095) / 4096 * 4096;
    }
    cr_assert_eq(at, len, "the file ends with the last image");
    sbf_scalable *d;
    cr_assert_eq(sbf_scalable_deserialize(&d, v, len), SBF_OK);
    same_bits(s, d);
    sbf_scalable_free(d);
    /* each field changed, the checksum resealed: refused with its code */
    static const struct {
        size_t at;
        uint64_t value;
        int bytes, rc;
    } bad[] = {
        { 4, 5, 4, SBF_E_VERSION },    { 8, 99, 4, SBF_E_LAYOUT },
        { 8, SBF_COUNTING, 4, SBF_E_FORMAT }, /* counting that grows */
        { 16, 4, 4, SBF_E_FORMAT },    /* an unknown flag */
        { 16, 1, 4, SBF_E_FORMAT },    /* non-scaling with two sub-filters */
        { 20, 0, 4, SBF_E_FORMAT },    { 20, 40000, 4, SBF_E_FORMAT }, /* growth */
        { 24, 0, 8, SBF_E_FORMAT },    /* initial capacity */
        { 32, 0x3ff0000000000000, 8, SBF_E_FORMAT }, /* rate 1 */
        { 48, 0, 4, SBF_E_FORMAT },    { 48, 257, 4, SBF_E_FORMAT }, { 48, 3, 4, SBF_E_FORMAT },
        { 52, 2, 4, SBF_E_FORMAT },    /* schedule */
        { 56, 8192, 8, SBF_E_FORMAT }, /* header length */
        { 64, 8192, 8, SBF_E_FORMAT }, /* offset of entry 0 */
        { 64 + 24, 0, 8, SBF_E_FORMAT }, /* capacity 0 */
        { 64 + 32, 0, 8, SBF_E_FORMAT }, /* rate 0 */
        { 64 + 40, 1, 8, SBF_E_FORMAT }, /* reserved */
        { 64 + 16, UINT64_MAX, 8, SBF_E_FORMAT }, /* keys past 2^63 - 1 */
        { 200, 1, 1, SBF_E_FORMAT },   /* past the table */
    };
    unsigned char *c = malloc(len);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(c, v, len);
        for (int j = 0; j < bad[i].bytes; j++)
            c[bad[i].at + j] = (unsigned char)(bad[i].value >> (8 * j));
        reseal(c, 4096);
        cr_assert_eq(sbf_scalable_deserialize(&d, c, len), bad[i].rc, "field at %zu = %llu",
                     bad[i].at, (unsigned long long)bad[i].value);
        cr_assert_null(d);
    }
    /* a sub-filter of another hash */
    memcpy(c, v, len);
    c[4096 + 16] ^= 1; /* its seed (its own checksum then fails first: still refused) */
    cr_assert_eq(sbf_scalable_deserialize(&d, c, len), SBF_E_FORMAT);
    free(c);
    free(v);
    sbf_scalable_free(s);
}

Test(scalable, format3_vector, .description = "tests/vectors/sbf_v3_blocked.bin, written by the "
     "library before format 4: it loads, maps, answers, writes back byte for byte, and grows "
     "with format 3's rule (the formula alone), still a format-3 file")
{
    size_t len;
    unsigned char *v = tu_read_vector("sbf_v3_blocked.bin", &len);
    sbf_scalable *s;
    cr_assert_eq(sbf_scalable_deserialize(&s, v, len), SBF_OK);
    sbf_scalable_params p;
    cr_assert_eq(sbf_scalable_params_of(s, &p), SBF_OK);
    cr_assert_eq(p.flags, SBF_SCALABLE_FORMULA);
    cr_assert_eq(p.seed, 7);
    cr_assert_eq(sbf_scalable_filters(s), 3);
    cr_assert(sbf_scalable_count(s) > 690 && sbf_scalable_count(s) <= 700, "new keys");
    uint64_t keys[700];
    uint8_t out[700];
    for (uint64_t i = 0; i < 700; i++)
        keys[i] = i * 0x9E3779B97F4A7C15ull;
    cr_assert_eq(sbf_scalable_contains_u64(s, keys, 700, out), 700);
    void *buf;
    size_t blen;
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &blen), SBF_OK);
    cr_assert(blen == len && memcmp(buf, v, len) == 0, "written back byte for byte");
    sbf_buffer_free(buf);
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/vectors/sbf_v3_blocked.bin", SBF_SOURCE_DIR);
    sbf_scalable *m;
    cr_assert_eq(sbf_scalable_map(&m, path, 0), SBF_OK);
    same_bits(s, m);
    sbf_scalable_free(m);
    /* growth: sub-filter 3 holds 1600 keys at 0.01 x 0.5 x 0.5^3, sized by sbf_size */
    for (uint64_t i = 700; i < 1600; i++) {
        const uint64_t k = i * 0x9E3779B97F4A7C15ull;
        cr_assert_geq(sbf_scalable_add(s, &k, 8), 0);
    }
    cr_assert_eq(sbf_scalable_filters(s), 4);
    struct sbf_scalable_sub u;
    cr_assert_eq(sbf_scalable_sub_info(s, 3, &u), SBF_OK);
    uint64_t bits;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1600, 0.01 * 0.5 * 0.125, &bits, &k), SBF_OK);
    cr_assert(u.capacity == 1600 && u.bits == bits && u.k == k, "format 3's rule: %llu %llu "
              "%u, sbf_size %llu %u", (unsigned long long)u.capacity,
              (unsigned long long)u.bits, u.k, (unsigned long long)bits, k);
    cr_assert_eq(sbf_scalable_serialize(s, &buf, &blen), SBF_OK);
    cr_assert_eq(((unsigned char *)buf)[4], 3);
    sbf_buffer_free(buf);
    free(v);
    sbf_scalable_free(s);
}
