/* Every bad input is refused with its exact code, and changes nothing. */
#include <math.h>

#include "testutil.h"

static sbf_params classic_params(void)
{
    sbf_params p = { 0 };
    p.layout = SBF_CLASSIC;
    p.expected_n = 1000;
    p.fpp = 0.01;
    return p;
}

static int create_rc(sbf_params p)
{
    sbf_filter *f = (sbf_filter *)&p; /* must be overwritten with NULL */
    const int rc = sbf_create(&f, &p);
    if (rc != SBF_OK)
        cr_assert_null(f, "a refused sbf_create leaves *out NULL");
    sbf_free(f);
    return rc;
}

Test(errors, create_null_out, .description = "sbf_create(NULL, p) is SBF_E_NULL")
{
    sbf_params p = classic_params();
    cr_assert_eq(sbf_create(NULL, &p), SBF_E_NULL);
}

Test(errors, create_null_params, .description = "sbf_create(&f, NULL) is SBF_E_NULL")
{
    sbf_filter *f = (sbf_filter *)1;
    cr_assert_eq(sbf_create(&f, NULL), SBF_E_NULL);
    cr_assert_null(f);
}

Test(errors, fpp_zero, .description = "fpp 0 is SBF_E_FPP")
{
    sbf_params p = classic_params();
    p.fpp = 0.0;
    cr_assert_eq(create_rc(p), SBF_E_FPP);
}

Test(errors, fpp_one, .description = "fpp 1 is SBF_E_FPP")
{
    sbf_params p = classic_params();
    p.fpp = 1.0;
    cr_assert_eq(create_rc(p), SBF_E_FPP);
}

Test(errors, fpp_negative, .description = "fpp -0.5 is SBF_E_FPP")
{
    sbf_params p = classic_params();
    p.fpp = -0.5;
    cr_assert_eq(create_rc(p), SBF_E_FPP);
}

Test(errors, fpp_above_one, .description = "fpp 1.5 is SBF_E_FPP")
{
    sbf_params p = classic_params();
    p.fpp = 1.5;
    cr_assert_eq(create_rc(p), SBF_E_FPP);
}

Test(errors, fpp_nan, .description = "fpp NaN is SBF_E_FPP, for every layout")
{
    for (int l = SBF_CLASSIC; l <= SBF_COUNTING; l++) {
        sbf_params p = classic_params();
        p.layout = l;
        p.fpp = NAN;
        cr_assert_eq(create_rc(p), SBF_E_FPP, "layout %d", l);
    }
}

Test(errors, fpp_infinite, .description = "fpp +inf is SBF_E_FPP")
{
    sbf_params p = classic_params();
    p.fpp = INFINITY;
    cr_assert_eq(create_rc(p), SBF_E_FPP);
}

Test(errors, unknown_layout, .description = "layouts -1 and 10 are SBF_E_LAYOUT")
{
    sbf_params p = classic_params();
    p.layout = 10; /* the first id after blocked-fmix */
    cr_assert_eq(create_rc(p), SBF_E_LAYOUT);
    p.layout = -1;
    cr_assert_eq(create_rc(p), SBF_E_LAYOUT);
}

Test(errors, bits_overflow, .description = "explicit bits UINT64_MAX (would overflow rounding) is SBF_E_TOO_LARGE")
{
    for (int l = SBF_CLASSIC; l <= SBF_COUNTING; l++) {
        sbf_params p = classic_params();
        p.layout = l;
        p.bits = UINT64_MAX;
        cr_assert_eq(create_rc(p), SBF_E_TOO_LARGE, "layout %d", l);
    }
}

Test(errors, bits_above_max, .description = "bits above SBF_MAX_BITS (classic: above Guava's 64*INT32_MAX)")
{
    sbf_params p = classic_params();
    p.bits = UINT64_C(64) * INT32_MAX + 1;
    cr_assert_eq(create_rc(p), SBF_E_TOO_LARGE);
    p.layout = SBF_BLOCKED;
    p.bits = SBF_MAX_BITS + 1;
    cr_assert_eq(create_rc(p), SBF_E_TOO_LARGE);
}

Test(errors, derived_size_too_large, .description = "n = 2^62 at fpp 1e-9 needs too many bits: SBF_E_TOO_LARGE")
{
    for (int l = SBF_CLASSIC; l <= SBF_COUNTING; l++) {
        sbf_params p = classic_params();
        p.layout = l;
        p.expected_n = UINT64_C(1) << 62;
        p.fpp = 1e-9;
        cr_assert_eq(create_rc(p), SBF_E_TOO_LARGE, "layout %d", l);
    }
}

Test(errors, k_out_of_range, .description = "k 256 classic, 17 blocked/counting, 7 split-block: SBF_E_K")
{
    sbf_params p = classic_params();
    p.k = 256;
    cr_assert_eq(create_rc(p), SBF_E_K);
    p.layout = SBF_BLOCKED;
    p.k = 17;
    cr_assert_eq(create_rc(p), SBF_E_K);
    p.layout = SBF_COUNTING;
    cr_assert_eq(create_rc(p), SBF_E_K);
    p.layout = SBF_SPLIT_BLOCK;
    p.k = 7;
    cr_assert_eq(create_rc(p), SBF_E_K);
    p.bits = 1 << 20;
    cr_assert_eq(create_rc(p), SBF_E_K);
}

Test(errors, ops_null_filter, .description = "every operation on a NULL filter is SBF_E_NULL (or SIZE_MAX/NaN)")
{
    uint64_t key = 1;
    uint8_t out[1];
    struct sbf_info info;
    cr_assert_eq(sbf_add(NULL, &key, 8), SBF_E_NULL);
    cr_assert_eq(sbf_contains(NULL, &key, 8), SBF_E_NULL);
    cr_assert_eq(sbf_remove(NULL, &key, 8), SBF_E_NULL);
    cr_assert_eq(sbf_add_u64(NULL, &key, 1), SBF_E_NULL);
    cr_assert_eq(sbf_contains_u64(NULL, &key, 1, out), SIZE_MAX);
    cr_assert_eq(sbf_info(NULL, &info), SBF_E_NULL);
    cr_assert_eq(sbf_clear(NULL), SBF_E_NULL);
    cr_assert(isnan(sbf_fpp_theory(NULL, 10)));
    sbf_free(NULL); /* accepted */
    sbf_buffer_free(NULL);
}

Test(errors, ops_null_key, .description = "NULL key with len > 0 is SBF_E_NULL and changes nothing; len 0 is a valid key")
{
    sbf_filter *f = tu_make(SBF_CLASSIC, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_add(f, NULL, 3), SBF_E_NULL);
    cr_assert_eq(sbf_contains(f, NULL, 3), SBF_E_NULL);
    cr_assert_eq(sbf_add_u64(f, NULL, 3), SBF_E_NULL);
    cr_assert_eq(sbf_contains_u64(f, NULL, 3, NULL), SIZE_MAX);
    struct sbf_info info;
    sbf_info(f, &info);
    cr_assert_eq(info.fill_ratio, 0.0);
    cr_assert_eq(info.keys_added, 0);
    cr_assert_eq(sbf_add(f, NULL, 0), 1);
    cr_assert_eq(sbf_contains(f, "", 0), 1);
    cr_assert_eq(sbf_add_u64(f, NULL, 0), SBF_OK);
    cr_assert_eq(sbf_contains_u64(f, NULL, 0, NULL), 0);
    sbf_free(f);
}

Test(errors, batch_null_entry, .description = "a NULL key inside a batch is refused before anything changes")
{
    sbf_filter *f = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
    const void *keys[3] = { "a", NULL, "c" };
    size_t lens[3] = { 1, 1, 1 };
    cr_assert_eq(sbf_add_batch(f, keys, lens, 3), SBF_E_NULL);
    cr_assert_eq(sbf_contains(f, "a", 1), 0, "first key was not inserted");
    cr_assert_eq(sbf_contains_batch(f, keys, lens, 3, NULL), SIZE_MAX);
    cr_assert_eq(sbf_add_batch(f, NULL, lens, 3), SBF_E_NULL);
    cr_assert_eq(sbf_add_batch(f, keys, NULL, 3), SBF_E_NULL);
    lens[1] = 0; /* NULL with length 0 is the empty key */
    cr_assert_eq(sbf_add_batch(f, keys, lens, 3), SBF_OK);
    uint8_t out[3];
    cr_assert_eq(sbf_contains_batch(f, keys, lens, 3, out), 3);
    sbf_free(f);
}

Test(errors, remove_wrong_layout, .description = "sbf_remove on a non-counting filter is SBF_E_UNSUPPORTED")
{
    for (int l = SBF_CLASSIC; l <= SBF_SPLIT_BLOCK; l++) {
        sbf_filter *f = tu_make(l, 100, 0.01, 0, 0, 0);
        sbf_add(f, "x", 1);
        cr_assert_eq(sbf_remove(f, "x", 1), SBF_E_UNSUPPORTED);
        cr_assert_eq(sbf_contains(f, "x", 1), 1);
        sbf_free(f);
    }
}

Test(errors, remove_absent, .description = "removing a surely-absent key is SBF_E_NOT_PRESENT and changes nothing")
{
    sbf_filter *f = tu_make(SBF_COUNTING, 1000, 0.01, 0, 0, 0);
    for (int i = 0; i < 100; i++)
        sbf_add(f, &i, sizeof i);
    size_t len;
    const void *d = sbf_data(f, &len);
    unsigned char *before = malloc(len);
    memcpy(before, d, len);
    int absent = -1;
    for (int i = 1000; i < 100000 && absent < 0; i++)
        if (!sbf_contains(f, &i, sizeof i))
            absent = i;
    cr_assert_geq(absent, 0);
    cr_assert_eq(sbf_remove(f, &absent, sizeof absent), SBF_E_NOT_PRESENT);
    cr_assert_eq(memcmp(before, sbf_data(f, NULL), len), 0);
    free(before);
    sbf_free(f);
}

Test(errors, export_non_classic, .description = "Guava export of a blocked filter or a seeded classic is SBF_E_UNSUPPORTED")
{
    void *buf = (void *)1;
    size_t len = 7;
    sbf_filter *f = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_export_guava(f, &buf, &len), SBF_E_UNSUPPORTED);
    cr_assert_null(buf);
    cr_assert_eq(len, 0);
    sbf_free(f);
    f = tu_make(SBF_CLASSIC, 100, 0.01, 0, 0, 7);
    cr_assert_eq(sbf_export_guava(f, &buf, &len), SBF_E_UNSUPPORTED);
    cr_assert_eq(sbf_export_guava(f, NULL, &len), SBF_E_NULL);
    cr_assert_eq(sbf_export_guava(NULL, &buf, &len), SBF_E_NULL);
    sbf_free(f);
}

/* A valid Guava buffer: k = 3, 2 words. */
static const unsigned char good[6 + 16] = {
    1, 3, 0, 0, 0, 2,
    0x80, 0, 0, 0, 0, 0, 0, 1,
    0, 0, 0, 0, 0, 0, 0x10, 0,
};

static int import_rc(const unsigned char *b, size_t len)
{
    sbf_filter *f = (sbf_filter *)1;
    const int rc = sbf_import_guava(&f, b, len);
    if (rc != SBF_OK)
        cr_assert_null(f);
    sbf_free(f);
    return rc;
}

Test(errors, guava_good_buffer, .description = "the control buffer imports, with its bits in place")
{
    sbf_filter *f;
    cr_assert_eq(sbf_import_guava(&f, good, sizeof good), SBF_OK);
    size_t len;
    const uint64_t *w = sbf_data(f, &len);
    cr_assert_eq(w[0], UINT64_C(0x8000000000000001));
    cr_assert_eq(w[1], UINT64_C(0x1000));
    struct sbf_info info;
    sbf_info(f, &info);
    cr_assert_eq(info.k, 3);
    cr_assert_eq(info.bits, 128);
    sbf_free(f);
}

Test(errors, guava_null, .description = "NULL buffer or out is SBF_E_NULL")
{
    sbf_filter *f;
    cr_assert_eq(sbf_import_guava(&f, NULL, 22), SBF_E_NULL);
    cr_assert_eq(sbf_import_guava(NULL, good, sizeof good), SBF_E_NULL);
}

Test(errors, guava_truncated_header, .description = "every length below the 6-byte header is SBF_E_TRUNCATED")
{
    for (size_t len = 0; len < 6; len++)
        cr_assert_eq(import_rc(good, len), SBF_E_TRUNCATED, "len %zu", len);
}

Test(errors, guava_truncated_words, .description = "a buffer cut inside or between the words is SBF_E_TRUNCATED")
{
    for (size_t len = 6; len < sizeof good; len++)
        cr_assert_eq(import_rc(good, len), SBF_E_TRUNCATED, "len %zu", len);
}

Test(errors, guava_trailing, .description = "bytes after the last word are SBF_E_TRAILING")
{
    unsigned char b[sizeof good + 9];
    memcpy(b, good, sizeof good);
    memset(b + sizeof good, 0, 9);
    cr_assert_eq(import_rc(b, sizeof good + 1), SBF_E_TRAILING);
    cr_assert_eq(import_rc(b, sizeof good + 8), SBF_E_TRAILING);
    cr_assert_eq(import_rc(b, sizeof good + 9), SBF_E_TRAILING);
}

Test(errors, guava_unknown_strategy, .description = "strategy ordinals 0 (MURMUR128_MITZ_32) and 2..255 are SBF_E_STRATEGY")
{
    unsigned char b[sizeof good];
    memcpy(b, good, sizeof good);
    for (int s = 0; s < 256; s++) {
        if (s == 1)
            continue;
        b[0] = (unsigned char)s;
        cr_assert_eq(import_rc(b, sizeof b), SBF_E_STRATEGY, "strategy %d", s);
    }
}

Test(errors, guava_k_zero, .description = "k = 0 is SBF_E_K")
{
    unsigned char b[sizeof good];
    memcpy(b, good, sizeof good);
    b[1] = 0;
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_K);
}

Test(errors, guava_wordcount_not_positive, .description = "word count 0 and negative are SBF_E_WORDCOUNT")
{
    unsigned char b[sizeof good];
    memcpy(b, good, sizeof good);
    b[5] = 0;
    cr_assert_eq(import_rc(b, 6), SBF_E_WORDCOUNT);
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_WORDCOUNT);
    b[2] = 0x80; /* INT32_MIN */
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_WORDCOUNT);
    b[2] = b[3] = b[4] = b[5] = 0xff; /* -1 */
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_WORDCOUNT);
}

Test(errors, guava_wordcount_mismatch, .description = "a count larger than the buffer holds is SBF_E_TRUNCATED, smaller SBF_E_TRAILING")
{
    unsigned char b[sizeof good];
    memcpy(b, good, sizeof good);
    b[5] = 3;
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_TRUNCATED);
    b[2] = 0x7f; b[3] = b[4] = b[5] = 0xff; /* INT32_MAX words: no huge allocation */
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_TRUNCATED);
    memcpy(b, good, sizeof good);
    b[5] = 1;
    cr_assert_eq(import_rc(b, sizeof b), SBF_E_TRAILING);
}

Test(errors, union_incompatible, .description = "union/intersect of differing filters is SBF_E_INCOMPATIBLE, dst untouched")
{
    sbf_filter *a = tu_make(SBF_BLOCKED, 1000, 0.01, 0, 0, 0);
    sbf_filter *b = tu_make(SBF_BLOCKED, 2000, 0.01, 0, 0, 0);
    sbf_filter *c = tu_make(SBF_BLOCKED, 1000, 0.01, 0, 0, 5);
    sbf_filter *d = tu_make(SBF_SPLIT_BLOCK, 1000, 0.01, 0, 0, 0);
    sbf_filter *e = tu_make(SBF_BLOCKED, 1000, 0.01, 0, 3, 0);
    sbf_add(b, "x", 1);
    sbf_add(c, "x", 1);
    sbf_filter *others[] = { b, c, d, e };
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(sbf_union(a, others[i]), SBF_E_INCOMPATIBLE, "case %d", i);
        cr_assert_eq(sbf_intersect(a, others[i]), SBF_E_INCOMPATIBLE, "case %d", i);
    }
    struct sbf_info info;
    sbf_info(a, &info);
    cr_assert_eq(info.fill_ratio, 0.0);
    cr_assert_eq(sbf_union(a, NULL), SBF_E_NULL);
    cr_assert_eq(sbf_intersect(NULL, a), SBF_E_NULL);
    for (int i = 0; i < 4; i++)
        sbf_free(others[i]);
    sbf_free(a);
}

Test(errors, size_bad_args, .description = "sbf_size checks its arguments")
{
    uint64_t bits;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, 0.01, NULL, &k), SBF_E_NULL);
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, 0.01, &bits, NULL), SBF_E_NULL);
    cr_assert_eq(sbf_size(10, 100, 0.01, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, NAN, &bits, &k), SBF_E_FPP);
}

Test(errors, strerror_names_every_code, .description = "every code has its own message; unknown ones too")
{
    const char *seen[20] = { 0 };
    for (int c = 0; c >= SBF_E_VERSION; c--) {
        const char *s = sbf_strerror(c);
        cr_assert_not_null(s);
        cr_assert_str_neq(s, "unknown error code", "code %d", c);
        for (int j = 0; j < -c; j++)
            cr_assert_str_neq(s, seen[j], "codes %d and %d share a message", c, -j);
        seen[-c] = s;
    }
    cr_assert_str_eq(sbf_strerror(-999), "unknown error code");
    cr_assert_str_eq(sbf_strerror(42), "unknown error code");
}

Test(errors, deserialize_corrupt, .description = "own format: truncated, trailing, bad magic, flipped bit, bad version")
{
    sbf_filter *f = tu_make(SBF_SPLIT_BLOCK, 1000, 0.01, 0, 0, 9);
    sbf_add(f, "abc", 3);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_serialize(f, &buf, &len), SBF_OK);
    unsigned char *b = malloc(len + 1);
    memcpy(b, buf, len);
    sbf_filter *g = (sbf_filter *)1;
    cr_assert_eq(sbf_deserialize(&g, b, len - 1), SBF_E_TRUNCATED);
    cr_assert_null(g);
    cr_assert_eq(sbf_deserialize(&g, b, 10), SBF_E_TRUNCATED);
    b[len] = 0;
    cr_assert_eq(sbf_deserialize(&g, b, len + 1), SBF_E_TRAILING);
    b[0] = 'X';
    cr_assert_eq(sbf_deserialize(&g, b, len), SBF_E_FORMAT);
    b[0] = 'S';
    b[4] = 3;
    cr_assert_eq(sbf_deserialize(&g, b, len), SBF_E_VERSION);
    b[4] = 2;
    b[len - 1] ^= 0x40;
    cr_assert_eq(sbf_deserialize(&g, b, len), SBF_E_FORMAT);
    b[len - 1] ^= 0x40;
    cr_assert_eq(sbf_deserialize(&g, b, len), SBF_OK);
    cr_assert_eq(sbf_contains(g, "abc", 3), 1);
    cr_assert_eq(sbf_deserialize(NULL, b, len), SBF_E_NULL);
    sbf_free(g);
    free(b);
    sbf_buffer_free(buf);
    sbf_free(f);
}

Test(errors, size_results, .description = "sbf_is_error: SIZE_MAX and every (size_t)code are errors, counts are not; the code comes back out")
{
    cr_assert_eq(sbf_is_error(SIZE_MAX), 1);
    cr_assert_eq(sbf_is_error((size_t)SBF_E_NULL), 1);
    for (int c = -1; c >= -255; c--)
        cr_assert_eq(sbf_is_error((size_t)c), 1, "code %d", c);
    cr_assert_eq(sbf_is_error((size_t)-256), 0);
    cr_assert_eq(sbf_is_error(0), 0);
    cr_assert_eq(sbf_is_error(1), 0);
    cr_assert_eq(sbf_is_error(SIZE_MAX / 8), 0, "the most keys an array can hold");
    uint64_t key = 1;
    const size_t r = sbf_contains_u64(NULL, &key, 1, NULL);
    cr_assert_eq(sbf_is_error(r), 1);
    cr_assert_eq(-(int)(SIZE_MAX - r) - 1, SBF_E_NULL, "the documented way back to the code");
    const void *keys[1] = { NULL };
    const size_t lens[1] = { 3 };
    sbf_filter *f = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_is_error(sbf_contains_batch(f, keys, lens, 1, NULL)), 1);
    cr_assert_eq(sbf_is_error(sbf_contains_u64(f, &key, 1, NULL)), 0);
    cr_assert_eq(sbf_add_u64(f, &key, 1), SBF_OK);
    cr_assert_eq(sbf_contains_u64(f, &key, 1, NULL), 1);
    sbf_free(f);
}
