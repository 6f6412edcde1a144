/*
 * Bytes from outside: random and mutated buffers fed to the importers never
 * crash, never read past the buffer (ASan runs this too), and come back
 * either as a usable filter or as one of the documented codes.
 */
#include "testutil.h"

static int guava_code_ok(int rc)
{
    return rc == SBF_OK || rc == SBF_E_TRUNCATED || rc == SBF_E_TRAILING ||
           rc == SBF_E_STRATEGY || rc == SBF_E_K || rc == SBF_E_WORDCOUNT ||
           rc == SBF_E_NOMEM;
}

Test(robust, guava_random_buffers, .description = "200,000 random buffers into sbf_import_guava: documented codes only")
{
    uint64_t s = 12345;
    unsigned char buf[300];
    size_t oks = 0;
    for (int t = 0; t < 200000; t++) {
        const size_t len = (size_t)(tu_splitmix64(&s) % sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)tu_splitmix64(&s);
        /* Half the time, a plausible header, so the deeper checks run too. */
        if (len >= 6 && (t & 1)) {
            buf[0] = 1;
            buf[2] = buf[3] = buf[4] = 0;
            buf[5] = (unsigned char)((len - 6) / 8 + (tu_splitmix64(&s) % 3) - 1);
        }
        sbf_filter *f = (sbf_filter *)buf;
        const int rc = sbf_import_guava(&f, buf, len);
        cr_assert(guava_code_ok(rc), "len %zu: code %d (%s)", len, rc, sbf_strerror(rc));
        if (rc == SBF_OK) {
            oks++;
            cr_assert_eq(len, 6 + 8 * (size_t)buf[5]);
            cr_assert_geq(sbf_contains(f, "probe", 5), 0);
            void *out;
            size_t olen;
            cr_assert_eq(sbf_export_guava(f, &out, &olen), SBF_OK);
            cr_assert_eq(olen, len);
            cr_assert_eq(memcmp(out, buf, len), 0, "a Guava file round-trips byte for byte");
            sbf_buffer_free(out);
            sbf_free(f);
        } else {
            cr_assert_null(f);
        }
    }
    cr_assert_gt(oks, 1000, "the plausible headers exercised the success path (%zu)", oks);
}

Test(robust, own_format_every_byte_flip, .description = "flipping any bit of a serialized filter is detected, never a silently wrong filter")
{
    const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING };
    for (int li = 0; li < 4; li++) {
        sbf_filter *f = tu_make(layouts[li], 40, 0.05, 0, 0, 99);
        for (int i = 0; i < 40; i++)
            sbf_add(f, &i, sizeof i);
        void *buf;
        size_t len;
        cr_assert_eq(sbf_serialize(f, &buf, &len), SBF_OK);
        unsigned char *b = buf;
        for (size_t i = 0; i < len; i++) {
            for (int bit = 0; bit < 8; bit++) {
                b[i] ^= (unsigned char)(1u << bit);
                sbf_filter *g = (sbf_filter *)b;
                const int rc = sbf_deserialize(&g, b, len);
                cr_assert_lt(rc, 0, "layout %d: byte %zu bit %d flipped, accepted", layouts[li], i, bit);
                cr_assert_null(g);
                b[i] ^= (unsigned char)(1u << bit);
            }
        }
        sbf_filter *g;
        cr_assert_eq(sbf_deserialize(&g, b, len), SBF_OK);
        sbf_free(g);
        sbf_buffer_free(buf);
        sbf_free(f);
    }
}

Test(robust, own_format_random_buffers, .description = "random buffers, with and without the magic, into sbf_deserialize: refused with a code")
{
    uint64_t s = 777;
    unsigned char buf[256];
    for (int t = 0; t < 100000; t++) {
        const size_t len = (size_t)(tu_splitmix64(&s) % sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)tu_splitmix64(&s);
        if (len >= 8 && (t & 1)) {
            memcpy(buf, "SBF1", 4);
            buf[4] = 1;
            buf[5] = buf[6] = buf[7] = 0;
        }
        sbf_filter *f = (sbf_filter *)buf;
        const int rc = sbf_deserialize(&f, buf, len);
        cr_assert_lt(rc, 0, "random bytes accepted");
        cr_assert_null(f);
        cr_assert_str_neq(sbf_strerror(rc), "unknown error code");
    }
}

Test(robust, hostile_params, .description = "sbf_create with every corner of the parameter space: a filter or a code, never a crash")
{
    const uint64_t ns[] = { 0, 1, 2, 1000, UINT64_C(1) << 40, UINT64_MAX };
    const double fpps[] = { 1e-300, 1e-12, 0.5, 0.999999, 5e-324 };
    const uint64_t bitss[] = { 0, 1, 63, 64, 511, 513, UINT64_C(1) << 36 };
    const uint32_t ks[] = { 0, 1, 8, 16, 17, 255, 256, UINT32_MAX };
    for (int l = -1; l <= 4; l++)
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (size_t b = 0; b < sizeof fpps / sizeof fpps[0]; b++)
                for (size_t c = 0; c < sizeof bitss / sizeof bitss[0]; c++)
                    for (size_t d = 0; d < sizeof ks / sizeof ks[0]; d++) {
                        /* Skip the ones that legitimately allocate gigabytes. */
                        if (bitss[c] > (UINT64_C(1) << 30))
                            continue;
                        sbf_params p = { 0 };
                        p.layout = l;
                        p.expected_n = ns[a];
                        p.fpp = fpps[b];
                        p.bits = bitss[c];
                        p.k = ks[d];
                        if (p.bits == 0 && p.expected_n > 1000)
                            continue; /* derived sizes beyond memory: tested in test_errors */
                        sbf_filter *f = NULL;
                        const int rc = sbf_create(&f, &p);
                        if (rc == SBF_OK) {
                            struct sbf_info in;
                            cr_assert_eq(sbf_info(f, &in), SBF_OK);
                            cr_assert_geq(in.bits, 64);
                            cr_assert_eq(sbf_add(f, "x", 1) >= 0, 1);
                            cr_assert_eq(sbf_contains(f, "x", 1), 1);
                            sbf_free(f);
                        } else {
                            cr_assert_lt(rc, 0);
                            cr_assert_null(f);
                            cr_assert_str_neq(sbf_strerror(rc), "unknown error code");
                        }
                    }
}

/* ------------------------------------------------------------ threads */

#include <pthread.h>

typedef struct {
    const sbf_filter *f;
    const uint64_t *keys;
    size_t n;
    size_t found;
    int isa;
} reader;

static void *read_filter(void *arg)
{
    reader *r = arg;
    r->isa = sbf_isa_active(); /* racing first resolution */
    r->found = 0;
    for (int rep = 0; rep < 20; rep++)
        r->found += sbf_contains_u64(r->f, r->keys, r->n, NULL);
    return NULL;
}

Test(robust, concurrent_readers, .description = "8 threads resolve the ISA at once and query one filter: same ISA, all keys found")
{
    const size_t n = 20000;
    uint64_t *keys = malloc(n * sizeof *keys), s = 5;
    for (size_t i = 0; i < n; i++)
        keys[i] = tu_splitmix64(&s);
    /* Build with the scalar kernels so resolution stays unresolved for the
       readers: sbf_isa_set(AUTO) resets the cached choice. */
    sbf_isa_set(SBF_ISA_SCALAR);
    sbf_filter *f = tu_make(SBF_BLOCKED, n, 0.01, 0, 0, 0);
    sbf_add_u64(f, keys, n);
    sbf_isa_set(SBF_ISA_AUTO);
    pthread_t t[8];
    reader r[8];
    for (int i = 0; i < 8; i++) {
        r[i] = (reader){ f, keys, n, 0, -1 };
        cr_assert_eq(pthread_create(&t[i], NULL, read_filter, &r[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        cr_assert_eq(r[i].found, 20 * n, "thread %d lost keys", i);
        cr_assert_eq(r[i].isa, r[0].isa, "threads resolved different ISAs");
    }
    cr_assert_geq(r[0].isa, SBF_ISA_SCALAR);
    sbf_free(f);
    free(keys);
}
