/*
 * Sizing (src/size.c): sbf_size and what sbf_create chooses, per layout.
 * The formulas it sizes against are tested in tests/test_fpr.c. Guava
 * values come from Guava 31.1 itself (BloomFilter's optimalNumOfBits /
 * optimalNumOfHashFunctions by reflection, and BloomFilter.create's real
 * header; see tests/vectors/guava_sizing.txt).
 */
#include <criterion/criterion.h>

#include "simdbloom.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ------------------------------------------------------------ classic sizing */

/* tests/vectors/guava_sizing.txt (Guava 31.1 BloomFilter.create), and points
 * drawn at random, computed with Guava 31.1 by reflection. */
static const struct { uint64_t n; double fpp; uint32_t k; uint64_t bits; } guava[] = {
    {0, 0.5, 1, 64}, {0, 0.1, 3, 64}, {0, 0.03, 5, 64}, {0, 0.01, 6, 64},
    {0, 0.001, 10, 64}, {0, 1.0E-6, 19, 64}, {0, 1.0E-9, 30, 64},
    {1, 0.5, 1, 64}, {1, 0.1, 3, 64}, {1, 0.03, 5, 64}, {1, 0.01, 6, 64},
    {1, 0.001, 10, 64}, {1, 1.0E-6, 19, 64}, {1, 1.0E-9, 30, 64},
    {10, 0.5, 1, 64}, {10, 0.1, 3, 64}, {10, 0.03, 5, 128}, {10, 0.01, 7, 128},
    {10, 0.001, 10, 192}, {10, 1.0E-6, 20, 320}, {10, 1.0E-9, 30, 448},
    {100, 0.5, 1, 192}, {100, 0.1, 3, 512}, {100, 0.03, 5, 768}, {100, 0.01, 7, 960},
    {100, 0.001, 10, 1472}, {100, 1.0E-6, 20, 2880}, {100, 1.0E-9, 30, 4352},
    {1000, 0.5, 1, 1472}, {1000, 0.1, 3, 4800}, {1000, 0.03, 5, 7360},
    {1000, 0.01, 7, 9600}, {1000, 0.001, 10, 14400}, {1000, 1.0E-6, 20, 28800},
    {1000, 1.0E-9, 30, 43136},
    {12345, 0.5, 1, 17856}, {12345, 0.1, 3, 59200}, {12345, 0.03, 5, 90112},
    {12345, 0.01, 7, 118336}, {12345, 0.001, 10, 177536},
    {12345, 1.0E-6, 20, 355008}, {12345, 1.0E-9, 30, 532480},
    {1000000, 0.5, 1, 1442752}, {1000000, 0.1, 3, 4792576},
    {1000000, 0.03, 5, 7298496}, {1000000, 0.01, 7, 9585088},
    {1000000, 0.001, 10, 14377600}, {1000000, 1.0E-6, 20, 28755200},
    {1000000, 1.0E-9, 30, 43132800},
    {100000000, 0.5, 1, 144269504}, {100000000, 0.1, 3, 479252928},
    {100000000, 0.03, 5, 729844096}, {100000000, 0.01, 7, 958505856},
    {100000000, 0.001, 10, 1437758784}, {100000000, 1.0E-6, 20, 2875517568},
    {100000000, 1.0E-9, 30, 4313276288},
    {109080, 6.369101595963948E-12, 37, 5852928},
    {3931824, 0.006553266651233171, 7, 41145344},
    {231382, 5.7190881318355745E-6, 17, 5813632},
    {62, 3.817449670976947E-11, 35, 3136},
    {38, 9.24032626647481E-4, 10, 576},
    {811876, 2.6621043944861734E-12, 38, 45036800},
    {720754, 9.986833612512589E-5, 13, 13818944},
    {1, 0.010390050400600037, 6, 64},
    {24, 5.921899267030489E-8, 24, 832},
    {492086, 1.2936747079195908E-7, 23, 16244672},
    {499861, 0.2170943970461577, 2, 1589184},
    {81, 3.8795729136022316E-76, 251, 29312},
    {21, 2.7469847333862126E-4, 12, 384},
    {954065, 8.760898342060495E-12, 37, 50558976},
    {22933173, 4.751158848428216E-11, 34, 1134601344},
    {10557866, 1.6524563907229222E-12, 39, 596149440},
    {554030246, 2.5014003911814592E-11, 35, UINT64_C(28150008896)},
    {11361287, 4.504056002963207E-5, 14, 236658240},
    {97473, 5.883612856609449E-6, 17, 2443328},
};

/* Issue 33: Guava's size is kept, bit for bit, wherever it keeps the asked
 * rate by the classic bound (sbf_fpp_layout: Guava's double hashing repeats
 * and aligns positions at small bit counts); where it does not, the size is
 * a larger multiple of 64 bits whose bound is <= fpp. (Guava's rounding of
 * k leaves it up to 0.7% above fpp by any formula at every size: 1% is let
 * through, src/size.c GUAVA_SLACK.) */
Test(fpr, size_classic_guava,
     .description = "classic sizing is Guava 31.1's, bit for bit, where Guava's keeps the rate; "
                    "else larger, and the bound <= fpp")
{
    unsigned kept = 0, grown = 0;
    for (unsigned i = 0; i < sizeof guava / sizeof *guava; i++) {
        uint64_t bits = 0;
        uint32_t k = 0;
        const uint64_t n = guava[i].n ? guava[i].n : 1;
        const int rc = sbf_size(SBF_CLASSIC, guava[i].n, guava[i].fpp, &bits, &k);
        if (sbf_fpp_layout(SBF_CLASSIC, n, guava[i].bits, guava[i].k) <= guava[i].fpp * 1.01) {
            cr_assert_eq(rc, SBF_OK);
            cr_assert(bits == guava[i].bits && k == guava[i].k,
                      "n=%lu fpp=%.17g: got k=%u bits=%lu, Guava k=%u bits=%lu",
                      (unsigned long)guava[i].n, guava[i].fpp, k, (unsigned long)bits,
                      guava[i].k, (unsigned long)guava[i].bits);
            kept++;
            continue;
        }
        if (rc == SBF_E_TOO_LARGE) /* below the floor any classic filter has */
            continue;
        cr_assert_eq(rc, SBF_OK);
        cr_assert(bits > guava[i].bits && bits % 64 == 0,
                  "n=%lu fpp=%.17g: %lu bits, Guava's %lu", (unsigned long)guava[i].n,
                  guava[i].fpp, (unsigned long)bits, (unsigned long)guava[i].bits);
        cr_assert(sbf_fpp_layout(SBF_CLASSIC, n, bits, k) <= guava[i].fpp,
                  "n=%lu fpp=%.17g: %lu bits k=%u bound %.3g", (unsigned long)guava[i].n,
                  guava[i].fpp, (unsigned long)bits, k, sbf_fpp_layout(SBF_CLASSIC, n, bits, k));
        grown++;
    }
    cr_log_info("classic sizing: %u of Guava's sizes kept, %u grown", kept, grown);
    /* Guava's large filters keep the rate and their size */
    cr_assert_geq(kept, 20);
    uint64_t bits = 0;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9585088 && k == 7);
    /* and small ones that do not are grown: 1 key at 1e-4 took 64 bits,
     * k = 13 (measured 4.95e-3) */
    k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1, 1e-4, &bits, &k), SBF_OK);
    cr_assert(bits > 64 && sbf_fpp_layout(SBF_CLASSIC, 1, bits, k) <= 1e-4);
}

Test(fpr, size_classic_guava_refusals,
     .description = "where Guava 31.1 throws: 0 bits, k > 255, > 2^31-1 words")
{
    uint64_t bits = 0;
    uint32_t k = 0;
    /* Guava: "data length is zero"; we give the smallest filter */
    cr_assert_eq(sbf_size(SBF_CLASSIC, 3, 0.8523035636249425, &bits, &k), SBF_OK);
    cr_assert(bits == 64 && k == 1);
    k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1, 0.7, &bits, &k), SBF_OK);
    cr_assert(bits == 64 && k == 1);
    /* Guava: numHashFunctions (260) must be <= 255 */
    k = 0;
    bits = 123;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 28, 4.0135526342036277E-79, &bits, &k), SBF_E_K);
    cr_assert(bits == 123 && k == 0);
    /* ... and with k given, no classic filter reaches the rate: 2 n / m^2
     * of the queries follow a key's progression (issue 33), 4e-79 would
     * take 10^40 bits */
    k = 20;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 28, 4.0135526342036277E-79, &bits, &k), SBF_E_TOO_LARGE);
    k = 20;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 28, 1e-6, &bits, &k), SBF_OK);
    cr_assert(k == 20 && sbf_fpp_layout(SBF_CLASSIC, 28, bits, k) <= 1e-6);
    /* Guava: Ints.checkedCast of the word count fails */
    static const struct { uint64_t n; double fpp; } big[] = {
        {1850062259, 6.029378726501181E-51}, {UINT64_C(74069646243049), 2.4795782869499346E-5},
        {UINT64_C(524627865535), 5.768119137052283E-10}, {UINT64_C(879053861605666421), 0.5},
        {UINT64_MAX, 0.999},
    };
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++) {
        k = 0;
        cr_assert_eq(sbf_size(SBF_CLASSIC, big[i].n, big[i].fpp, &bits, &k), SBF_E_TOO_LARGE);
    }
    /* past Guava's limit of 64 * (2^31 - 1) bits */
    k = 0;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000000000, 1e-64, &bits, &k), SBF_E_TOO_LARGE);
}

Test(fpr, size_classic_given_k,
     .description = "given k: Guava's bits with that k where they keep the rate, else more")
{
    uint64_t bits = 0;
    uint32_t k = 7; /* Guava's own k: its 9600 bits keep 1% */
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9600 && k == 7);
    k = 3; /* 9600 bits with k = 3 give 2%: more bits, k kept */
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_OK);
    cr_assert(k == 3 && bits > 9600 && bits % 64 == 0);
    cr_assert_leq(sbf_fpp_layout(SBF_CLASSIC, 1000, bits, 3), 0.01);
    cr_assert_gt(sbf_fpp_layout(SBF_CLASSIC, 1000, bits - 64, 3), 0.01);
    k = 255;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_OK);
    cr_assert(k == 255 && sbf_fpp_layout(SBF_CLASSIC, 1000, bits, 255) <= 0.01);
    k = 256;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 1000, 0.01, &bits, &k), SBF_E_K);
}

/* ----------------------------------------------------- blocked-layout sizing */

static double layout_fpr(int layout, uint64_t n, uint64_t bits, uint32_t k)
{
    return sbf_fpp_layout(layout, n, bits, k);
}

/* The size meets fpp with the returned k, no k in range meets it with one
 * block less, and no smaller k meets it at the returned size. */
static void check_minimal(int layout, uint64_t n, double fpp, uint32_t kgiven)
{
    uint64_t bits = 0;
    uint32_t k = kgiven;
    cr_assert_eq(sbf_size(layout, n, fpp, &bits, &k), SBF_OK,
                 "layout %d n=%lu fpp=%g", layout, (unsigned long)n, fpp);
    const uint64_t nn = n ? n : 1;
    uint64_t granule = SBF_BLOCK_BITS;
    uint32_t klo = 1, khi = SBF_MAX_K_BLOCKED, kstep = 1;
    if (layout == SBF_SPLIT_BLOCK) {
        granule = 32u * k;
        klo = 8, khi = 16, kstep = 8;
    }
    if (kgiven)
        klo = khi = kgiven;
    cr_assert(bits % granule == 0 && bits > 0 && bits <= SBF_MAX_BITS);
    cr_assert(k >= klo && k <= khi);
    cr_assert(layout_fpr(layout, nn, bits, k) <= fpp,
              "layout %d n=%lu fpp=%g bits=%lu k=%u: %g", layout, (unsigned long)n,
              fpp, (unsigned long)bits, k, layout_fpr(layout, nn, bits, k));
    for (uint32_t kk = klo; kk <= khi; kk += kstep) {
        const uint64_t g = layout == SBF_SPLIT_BLOCK ? 32u * kk : granule;
        /* the largest size of this k's granule below `bits` */
        const uint64_t smaller = (bits - 1) / g * g;
        if (smaller > 0)
            cr_assert(layout_fpr(layout, nn, smaller, kk) > fpp,
                      "layout %d n=%lu fpp=%g: k=%u fits in %lu < %lu bits",
                      layout, (unsigned long)n, fpp, kk, (unsigned long)smaller,
                      (unsigned long)bits);
        if (kk < k && layout != SBF_SPLIT_BLOCK)
            cr_assert(layout_fpr(layout, nn, bits, kk) > fpp, "smaller k %u fits too", kk);
    }
}

Test(fpr, size_blocked_minimal,
     .description = "blocked/counting/split sizes meet fpp; one block fewer does not")
{
    static const uint64_t ns[] = {0, 1, 10, 1000, 12345, 1000000, 1000000000};
    static const double fpps[] = {0.5, 0.1, 0.01, 1e-3, 1e-6, 1e-9};
    for (unsigned a = 0; a < sizeof ns / sizeof *ns; a++)
        for (unsigned b = 0; b < sizeof fpps / sizeof *fpps; b++) {
            const uint64_t n = ns[a];
            const double fpp = fpps[b];
            /* layouts whose sizes would pass SBF_MAX_BITS are checked below */
            if (n < 1000000000 || fpp >= 1e-6) {
                check_minimal(SBF_BLOCKED, n, fpp, 0);
                check_minimal(SBF_SPLIT_BLOCK, n, fpp, 0);
            }
            if (n < 1000000000 || fpp >= 1e-3)
                check_minimal(SBF_COUNTING, n, fpp, 0);
        }
    check_minimal(SBF_BLOCKED, 100000, 0.01, 3);
    check_minimal(SBF_BLOCKED, 100000, 0.001, 16);
    check_minimal(SBF_COUNTING, 100000, 0.01, 4);
    check_minimal(SBF_SPLIT_BLOCK, 100000, 0.01, 16);
    check_minimal(SBF_SPLIT_BLOCK, 100000, 1e-6, 8);
}

Test(fpr, size_known_points, .description = "sizes at familiar points")
{
    uint64_t bits;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 9918464 && k == 6, "bits %lu k %u", (unsigned long)bits, k);
    k = 0;
    cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 10529280 && k == 8, "bits %lu k %u", (unsigned long)bits, k);
    k = 0;
    cr_assert_eq(sbf_size(SBF_COUNTING, 1000000, 0.01, &bits, &k), SBF_OK);
    cr_assert(bits == 43389440 && k == 6, "bits %lu k %u", (unsigned long)bits, k);
    /* a blocked filter needs more than Guava's 9585088 bits for 1% */
    cr_assert(9918464 > 9585088);
    /* n = 1: one block is plenty */
    k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1, 0.5, &bits, &k), SBF_OK);
    cr_assert(bits == 512 && k == 1);
}

Test(fpr, size_too_large, .description = "sizes past SBF_MAX_BITS are SBF_E_TOO_LARGE")
{
    uint64_t bits = 7;
    uint32_t k = 0;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-300, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert(bits == 7 && k == 0);
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-12, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_COUNTING, 1000000000, 1e-6, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 1000000000, 1e-300, &bits, &k), SBF_E_TOO_LARGE);
    cr_assert_eq(sbf_size(SBF_CLASSIC, UINT64_C(100000000000), 0.01, &bits, &k),
                 SBF_E_TOO_LARGE);
    cr_assert(bits == 7 && k == 0);
    /* 1e9 keys at one in a million fit */
    cr_assert_eq(sbf_size(SBF_BLOCKED, 1000000000, 1e-6, &bits, &k), SBF_OK);
    cr_assert(bits <= SBF_MAX_BITS && k == 16);
}

Test(fpr, size_bad_arguments, .description = "exact error codes; outputs untouched")
{
    uint64_t bits = 99;
    uint32_t k = 0;
    static const double bad_fpp[] = {0.0, 1.0, -0.1, 1.5, -0.0, 2.0};
    for (int layout = 0; layout < 4; layout++) {
        cr_assert_eq(sbf_size(layout, 100, NAN, &bits, &k), SBF_E_FPP);
        cr_assert_eq(sbf_size(layout, 100, INFINITY, &bits, &k), SBF_E_FPP);
        for (unsigned i = 0; i < sizeof bad_fpp / sizeof *bad_fpp; i++)
            cr_assert_eq(sbf_size(layout, 100, bad_fpp[i], &bits, &k), SBF_E_FPP);
        cr_assert_eq(sbf_size(layout, 100, 0.01, NULL, &k), SBF_E_NULL);
        cr_assert_eq(sbf_size(layout, 100, 0.01, &bits, NULL), SBF_E_NULL);
    }
    cr_assert_eq(sbf_size(-1, 100, 0.01, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(10, 100, 0.01, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(10, 100, NAN, &bits, &k), SBF_E_LAYOUT);
    cr_assert_eq(sbf_size(-1, 100, 0.01, NULL, NULL), SBF_E_NULL);
    cr_assert(bits == 99 && k == 0);

    static const uint32_t split_bad[] = {1, 7, 9, 15, 17, 32};
    for (unsigned i = 0; i < sizeof split_bad / sizeof *split_bad; i++) {
        k = split_bad[i];
        cr_assert_eq(sbf_size(SBF_SPLIT_BLOCK, 100, 0.01, &bits, &k), SBF_E_K);
        cr_assert(k == split_bad[i] && bits == 99);
    }
    k = 17;
    cr_assert_eq(sbf_size(SBF_BLOCKED, 100, 0.01, &bits, &k), SBF_E_K);
    cr_assert_eq(sbf_size(SBF_COUNTING, 100, 0.01, &bits, &k), SBF_E_K);
    k = 256;
    cr_assert_eq(sbf_size(SBF_CLASSIC, 100, 0.01, &bits, &k), SBF_E_K);
    cr_assert(bits == 99 && k == 256);
}

Test(fpr, size_n_zero_is_one, .description = "n = 0 is sized as n = 1 in every layout")
{
    for (int layout = 0; layout < 4; layout++) {
        uint64_t b0, b1;
        uint32_t k0 = 0, k1 = 0;
        cr_assert_eq(sbf_size(layout, 0, 0.001, &b0, &k0), SBF_OK);
        cr_assert_eq(sbf_size(layout, 1, 0.001, &b1, &k1), SBF_OK);
        cr_assert(b0 == b1 && k0 == k1);
    }
}
