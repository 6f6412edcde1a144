/*
 * Classic filters with k >= 16 on every ISA (issue 13, finding 1).
 *
 * The classic layout takes k up to 255 (a Guava file carries k in a byte),
 * far above the 16 lanes a vector kernel holds. The AVX-512 kernels built
 * their lane mask as (1 << k) - 1, a shift by 32 or more for such filters:
 * undefined behaviour, which the SAN=1 build (-fno-sanitize-recover) turns
 * into an abort. Each case here runs on every ISA compiled in and supported
 * by this CPU and must give exactly the bytes and answers of Guava's
 * algorithm, recomputed below from the one-key hash, and of the scalar
 * reference.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "equiv.h"

/* Guava's MURMUR128_MITZ_64 put, on a test-owned word array. */
static void guava_put(uint64_t *words, uint64_t m, uint32_t k, const void *key,
                      size_t len)
{
    uint64_t h[2];
    sbf_murmur3_x64_128(key, len, 0, h);
    uint64_t c = h[0];
    for (uint32_t i = 0; i < k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        words[b / 64] |= UINT64_C(1) << (b % 64);
        c += h[1];
    }
}

static int guava_test(const uint64_t *words, uint64_t m, uint32_t k,
                      const void *key, size_t len)
{
    uint64_t h[2];
    sbf_murmur3_x64_128(key, len, 0, h);
    uint64_t c = h[0];
    for (uint32_t i = 0; i < k; i++) {
        const uint64_t b = (c & (uint64_t)INT64_MAX) % m;
        if (!(words[b / 64] >> (b % 64) & 1))
            return 0;
        c += h[1];
    }
    return 1;
}

/* The 14-byte Guava buffer: strategy 1, k = 32, one zero word. */
static const unsigned char K32_BUF[14] = {
    0x01, 0x20, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Runs one classic geometry on one ISA and checks it against the model:
 * batched adds of the first half of the keys (every batch length 0..40),
 * single-key adds of a string key, then every query path. The model's
 * words are returned in *model (malloc'd, the caller frees). */
static void run_case(int isa, sbf_filter *f, uint64_t m, uint32_t k,
                     uint64_t **model_out)
{
    const size_t nkeys = 600;
    uint64_t *keys = equiv_keys(nkeys, 0x5eed0000u + k);
    uint64_t *model = calloc((size_t)(m / 64), 8);
    uint8_t *out = malloc(nkeys);
    cr_assert(keys && model && out);
    struct sbf_info info;
    cr_assert_eq(sbf_info(f, &info), SBF_OK);
    cr_assert_eq(info.isa, isa, "filter on %s", sbf_isa_name(isa));
    cr_assert_eq(info.k, k);
    cr_assert_eq(info.bits, m);

    /* batched adds of keys[0 .. nkeys/2), in batches of 0, 1, ..., 40 */
    size_t done = 0;
    for (size_t len = 0; done < nkeys / 2; len = (len + 1) % 41) {
        const size_t n = len < nkeys / 2 - done ? len : nkeys / 2 - done;
        cr_assert_eq(sbf_add_u64(f, keys + done, n), SBF_OK);
        for (size_t i = 0; i < n; i++)
            guava_put(model, m, k, &keys[done + i], 8);
        done += n;
    }
    static const char *const strs[] = { "", "a", "guava", "k >= 32 on avx512" };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        cr_assert_geq(sbf_add(f, strs[i], strlen(strs[i])), 0);
        guava_put(model, m, k, strs[i], strlen(strs[i]));
    }
    size_t len;
    const void *data = sbf_data(f, &len);
    cr_assert_geq(len, m / 8);
    cr_assert(memcmp(data, model, (size_t)(m / 8)) == 0,
              "%s k %u m %llu: filter bytes differ from Guava's algorithm",
              sbf_isa_name(isa), k, (unsigned long long)m);

    /* every key, added or not, through the batched and single-key paths */
    size_t want = 0;
    for (size_t i = 0; i < nkeys; i++)
        want += (size_t)guava_test(model, m, k, &keys[i], 8);
    cr_assert_eq(sbf_contains_u64(f, keys, nkeys, out), want, "%s k %u",
                 sbf_isa_name(isa), k);
    cr_assert_eq(sbf_contains_u64(f, keys, nkeys, NULL), want);
    for (size_t i = 0; i < nkeys; i++) {
        const int g = guava_test(model, m, k, &keys[i], 8);
        cr_assert_eq(out[i], g, "%s k %u key %zu", sbf_isa_name(isa), k, i);
        cr_assert_eq(sbf_contains(f, &keys[i], 8), g);
        if (i < nkeys / 2)
            cr_assert_eq(g, 1, "no false negative");
    }
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        cr_assert_eq(sbf_contains(f, strs[i], strlen(strs[i])), 1);
    free(keys);
    free(out);
    *model_out = model;
}

Test(wide_k, guava_k32_buffer,
     .description = "the issue's 14-byte Guava buffer (k = 32) on every ISA: bytes and answers as Guava's algorithm and scalar")
{
    uint64_t *ref = NULL;
    int tested = 0;
    for (int isa = SBF_ISA_SCALAR; isa <= SBF_ISA_NEON; isa++) {
        if (!sbf_isa_available(isa))
            continue;
        cr_assert_eq(sbf_isa_set(isa), SBF_OK);
        sbf_filter *f = NULL;
        cr_assert_eq(sbf_import_guava(&f, K32_BUF, sizeof K32_BUF), SBF_OK);
        uint64_t *model;
        run_case(isa, f, 64, 32, &model);
        /* and the same bytes back out in Guava's form */
        void *buf;
        size_t len;
        cr_assert_eq(sbf_export_guava(f, &buf, &len), SBF_OK);
        cr_assert_eq(len, sizeof K32_BUF);
        cr_assert(memcmp(buf, K32_BUF, 6) == 0);
        sbf_buffer_free(buf);
        if (ref == NULL) {
            ref = model; /* scalar comes first */
            cr_assert_eq(isa, SBF_ISA_SCALAR);
        } else {
            cr_assert(memcmp(ref, model, 8) == 0);
            cr_assert(memcmp(sbf_data(f, NULL), ref, 8) == 0, "%s differs from scalar",
                      sbf_isa_name(isa));
            free(model);
        }
        sbf_free(f);
        tested++;
    }
    free(ref);
    cr_assert_geq(tested, 1);
}

Test(wide_k, classic_k_every_isa,
     .description = "classic k = 15..17, 31, 32, 33, 64, 255 at several sizes on every ISA equal Guava's algorithm and scalar")
{
    static const uint32_t ks[] = { 15, 16, 17, 31, 32, 33, 64, 255 };
    static const uint64_t ms[] = { 64, 4096, 100032 };
    for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++) {
        for (size_t b = 0; b < sizeof ms / sizeof ms[0]; b++) {
            sbf_params p = { 0 };
            p.layout = SBF_CLASSIC;
            p.bits = ms[b];
            p.k = ks[a];
            sbf_filter *ref = NULL;
            for (int isa = SBF_ISA_SCALAR; isa <= SBF_ISA_NEON; isa++) {
                if (!sbf_isa_available(isa))
                    continue;
                cr_assert_eq(sbf_isa_set(isa), SBF_OK);
                sbf_filter *f = NULL;
                cr_assert_eq(sbf_create(&f, &p), SBF_OK);
                uint64_t *model;
                run_case(isa, f, ms[b], ks[a], &model);
                free(model);
                if (ref == NULL) {
                    ref = f;
                    continue;
                }
                cr_assert(equiv_same_bytes(ref, f), "%s k %u m %llu differs from scalar",
                          sbf_isa_name(isa), ks[a], (unsigned long long)ms[b]);
                sbf_free(f);
            }
            sbf_free(ref);
        }
    }
}

Test(wide_k, k_beyond_layout_refused,
     .description = "no filter with a k its layout does not allow is made: 0, 256 classic, 17 blocked/counting, 9 split")
{
    static const struct { int layout; uint32_t k; } bad[] = {
        { SBF_CLASSIC, 256 }, { SBF_CLASSIC, UINT32_MAX }, { SBF_BLOCKED, 17 },
        { SBF_BLOCKED, 32 }, { SBF_COUNTING, 17 }, { SBF_COUNTING, 255 },
        { SBF_SPLIT_BLOCK, 9 }, { SBF_SPLIT_BLOCK, 32 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sbf_params p = { 0 };
        p.layout = bad[i].layout;
        p.bits = 4096;
        p.k = bad[i].k;
        sbf_filter *f = (sbf_filter *)&p;
        cr_assert_eq(sbf_create(&f, &p), SBF_E_K, "layout %d k %u", p.layout, p.k);
        cr_assert_null(f);
        p.bits = 0;
        p.fpp = 0.01;
        p.expected_n = 100;
        cr_assert_eq(sbf_create(&f, &p), SBF_E_K, "layout %d k %u sized", p.layout, p.k);
    }
    /* k = 0 in a Guava buffer */
    unsigned char buf[14];
    memcpy(buf, K32_BUF, sizeof buf);
    buf[1] = 0;
    sbf_filter *f = NULL;
    cr_assert_eq(sbf_import_guava(&f, buf, sizeof buf), SBF_E_K);
    cr_assert_null(f);
}
