/*
 * Fold and the bit-based FPR estimate (src/fold.c). The fold tests build the
 * same keys at z blocks and at z / 2^t blocks and require the folded filter
 * to be the smaller one byte for byte, on every ISA this machine runs.
 */
#include "testutil.h"

#include <math.h>

typedef struct fold_case {
    int layout;
    uint32_t k;
    uint64_t block_bits;
} fold_case;

static const fold_case cases[] = {
    {SBF_BLOCKED, 7, 512},
    {SBF_BLOCKED, 16, 512},
    {SBF_SPLIT_BLOCK, 8, 256},
    {SBF_SPLIT_BLOCK, 16, 512},
    {SBF_COUNTING, 4, 512},
    {SBF_BLOCKED_XXH3, 7, 512},
    {SBF_SPLIT_BLOCK_XXH3, 8, 256},
    {SBF_SPLIT_BLOCK_XXH3, 16, 512},
    {SBF_COUNTING_XXH3, 4, 512},
    {SBF_BLOCKED_FMIX, 7, 512},
    {SBF_SPLIT_BLOCK_FMIX, 8, 256},
    {SBF_SPLIT_BLOCK_FMIX, 16, 512},
};

static sbf_filter *make_z(const fold_case *c, uint64_t z)
{
    return tu_make(c->layout, 0, 0, z * c->block_bits, c->k, 0);
}

static void add_keys(sbf_filter *f, uint64_t seed, size_t n)
{
    uint64_t keys[512];
    while (n > 0) {
        const size_t m = n < 512 ? n : 512;
        for (size_t i = 0; i < m; i++)
            keys[i] = tu_splitmix64(&seed);
        cr_assert_eq(sbf_add_u64(f, keys, m), SBF_OK);
        n -= m;
    }
}

static void assert_same(const sbf_filter *a, const sbf_filter *b, const char *what)
{
    size_t la, lb;
    const void *da = sbf_data(a, &la), *db = sbf_data(b, &lb);
    cr_assert_eq(la, lb, "%s: lengths", what);
    cr_assert_arr_eq(da, db, la, "%s: bytes differ", what);
}

Test(fold, exact, .description = "fold t times = built at z/2^t, every layout and ISA")
{
    int isas[8];
    const size_t nisa = sbf_isa_list(isas, 8);
    const uint64_t zs[] = {2, 6, 64, 1000, 4096};
    for (size_t ii = 0; ii < nisa; ii++) {
        if (!sbf_isa_available(isas[ii]))
            continue;
        cr_assert_eq(sbf_isa_set(isas[ii]), SBF_OK);
        for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++)
            for (size_t zi = 0; zi < sizeof zs / sizeof *zs; zi++) {
                const fold_case *c = &cases[ci];
                const uint64_t z = zs[zi];
                /* counting: enough keys that counters saturate in small filters */
                const size_t n = (size_t)(z * (c->layout != SBF_COUNTING ? 12 : z < 64 ? 400 : 40));
                sbf_filter *big = make_z(c, z);
                add_keys(big, z * 31 + ci, n);
                for (uint32_t t = 1; (z >> t) << t == z && (z >> t) > 0; t++) {
                    sbf_filter *small = make_z(c, z >> t), *folded;
                    add_keys(small, z * 31 + ci, n);
                    cr_assert_eq(sbf_fold(&folded, big, t), SBF_OK);
                    char what[96];
                    snprintf(what, sizeof what, "%s layout %d k %u z %llu t %u",
                             sbf_isa_name(isas[ii]), c->layout, c->k, (unsigned long long)z, t);
                    assert_same(folded, small, what);
                    struct sbf_info a, b;
                    cr_assert_eq(sbf_info(folded, &a), SBF_OK);
                    cr_assert_eq(sbf_info(small, &b), SBF_OK);
                    struct sbf_info bi;
                    cr_assert_eq(sbf_info(big, &bi), SBF_OK);
                    cr_assert(a.keys_added == bi.keys_added && a.bits == b.bits && a.k == b.k,
                              "%s: the fold keeps the count", what);
                    if (c->layout == SBF_COUNTING)
                        cr_assert(z > 6 || b.saturated > 0, "%s: no counter saturated",
                                  what);
                    sbf_free(folded);
                    sbf_free(small);
                }
                sbf_free(big);
            }
    }
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
}

Test(fold, refused, .description = "odd block counts, classic, times 0, NULL")
{
    sbf_filter *f = tu_make(SBF_BLOCKED, 0, 0, 6 * 512, 4, 0), *out = (sbf_filter *)&f;
    cr_assert_eq(sbf_fold(&out, f, 1), SBF_OK); /* 6 -> 3 */
    sbf_filter *three = out;
    cr_assert_eq(sbf_fold(&out, three, 1), SBF_E_ODD_BLOCKS);
    cr_assert_null(out);
    cr_assert_eq(sbf_fold(&out, f, 2), SBF_E_ODD_BLOCKS); /* 6 -> 3 -> no */
    cr_assert_eq(sbf_fold(&out, f, 0), SBF_E_PARAM);
    cr_assert_eq(sbf_fold(&out, f, 64), SBF_E_ODD_BLOCKS);
    cr_assert_eq(sbf_fold(NULL, f, 1), SBF_E_NULL);
    cr_assert_eq(sbf_fold(&out, NULL, 1), SBF_E_NULL);
    sbf_filter *one = tu_make(SBF_SPLIT_BLOCK, 0, 0, 256, 8, 0);
    cr_assert_eq(sbf_fold(&out, one, 1), SBF_E_ODD_BLOCKS);
    sbf_filter *classic = tu_make(SBF_CLASSIC, 0, 0, 1024, 3, 0);
    cr_assert_eq(sbf_fold(&out, classic, 1), SBF_E_UNSUPPORTED);
    cr_assert_eq(sbf_fold_to(&out, classic, 0.01, NULL), SBF_E_UNSUPPORTED);
    cr_assert_eq(sbf_fold_to(&out, f, 0.0, NULL), SBF_E_FPP);
    cr_assert_eq(sbf_fold_to(&out, f, NAN, NULL), SBF_E_FPP);
    cr_assert_str_eq(sbf_strerror(SBF_E_ODD_BLOCKS),
                     "fold: the filter's block count is odd (or one block)");
    sbf_free(f);
    sbf_free(three);
    sbf_free(one);
    sbf_free(classic);
}

Test(estimate, exact_small, .description = "empty, full and hand-set filters give the exact mean")
{
    sbf_filter *f = tu_make(SBF_SPLIT_BLOCK, 0, 0, 2 * 256, 8, 0);
    cr_assert_eq(sbf_fpp_estimate(f), 0.0);
    /* fill block 0 completely, and one bit per word in block 1 -> (1 + 32^-8) / 2 */
    sbf_filter *g;
    uint64_t x = 0;
    for (;;) { /* keys until both blocks have bits; then compare with a hand model */
        cr_assert_eq(sbf_add_u64(f, &x, 1), SBF_OK);
        x++;
        size_t len;
        const uint32_t *w = sbf_data(f, &len);
        int b0 = 0, b1 = 0;
        for (int i = 0; i < 8; i++) {
            b0 += w[i] != 0;
            b1 += w[8 + i] != 0;
        }
        if (b0 == 8 && b1 == 8)
            break;
    }
    size_t len;
    const uint32_t *w = sbf_data(f, &len);
    double want = 0;
    for (int b = 0; b < 2; b++) {
        double p = 1;
        for (int i = 0; i < 8; i++)
            p *= __builtin_popcount(w[b * 8 + i]) / 32.0;
        want += p / 2;
    }
    cr_assert_float_eq(sbf_fpp_estimate(f), want, 1e-15);
    cr_assert_eq(sbf_copy(&g, f), SBF_OK);
    sbf_free(g);
    sbf_free(f);
    /* every layout: all bits set -> 1 */
    const int layouts[] = {SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING};
    for (int i = 0; i < 4; i++) {
        sbf_filter *e = tu_make(layouts[i], 0, 0, 4096, layouts[i] == SBF_SPLIT_BLOCK ? 8 : 3, 0);
        cr_assert_eq(sbf_fpp_estimate(e), 0.0);
        add_keys(e, 7, 20000);
        cr_assert_float_eq(sbf_fpp_estimate(e), 1.0, 1e-12, "layout %d", layouts[i]);
        sbf_free(e);
    }
    cr_assert(isnan(sbf_fpp_estimate(NULL)));
}

Test(estimate, near_theory, .description = "on random keys the estimate is near the exact formula")
{
    const int layouts[] = {SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING};
    for (int i = 0; i < 4; i++) {
        sbf_filter *f = tu_make(layouts[i], 100000, 0.01, 0, 0, 0);
        add_keys(f, 99, 100000);
        const double est = sbf_fpp_estimate(f), th = sbf_fpp_theory(f, 100000);
        cr_assert(est > th * 0.9 && est < th * 1.1, "layout %d: estimate %g, theory %g",
                  layouts[i], est, th);
        sbf_free(f);
    }
}

Test(fold, to_target, .description = "sbf_fold_to stops at the last fold within the rate")
{
    /* sized for 10x the keys it gets */
    sbf_filter *f = tu_make(SBF_SPLIT_BLOCK, 0, 0, 256 * 4096, 8, 0), *g, *h;
    add_keys(f, 5, 4096 * 256 / 100); /* ~10 bits per key at z/16 */
    uint32_t t;
    cr_assert_eq(sbf_fold_to(&g, f, 0.01, &t), SBF_OK);
    cr_assert_geq(t, 1);
    cr_assert_leq(sbf_fpp_estimate(g), 0.01);
    cr_assert_eq(sbf_fold(&h, g, 1), SBF_OK);
    cr_assert_gt(sbf_fpp_estimate(h), 0.01);
    sbf_filter *direct;
    cr_assert_eq(sbf_fold(&direct, f, t), SBF_OK);
    assert_same(direct, g, "fold_to = fold t times");
    /* a rate it already misses: no fold, a copy */
    sbf_filter *same;
    cr_assert_eq(sbf_fold_to(&same, f, 1e-12, &t), SBF_OK);
    cr_assert_eq(t, 0);
    assert_same(same, f, "no fold");
    sbf_free(same);
    sbf_free(direct);
    sbf_free(h);
    sbf_free(g);
    sbf_free(f);
}
