/*
 * Known-answer vectors of the bit layouts (tests/kat.h): on every ISA the
 * registry lists and this CPU runs, every layout must produce exactly the
 * committed filter bytes (tests/vectors/layouts_kat.inc, made by
 * tests/gen_kat.c with the scalar reference), whichever way the keys go in:
 * one batched call, one key at a time, ragged batches, sbf_add_batch.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>

#include "kat.h"
#include "vectors/layouts_kat.inc"

#define NEXACT (sizeof kat_exact_vectors / sizeof kat_exact_vectors[0])
#define NDIGEST (sizeof kat_digest_vectors / sizeof kat_digest_vectors[0])

ParameterizedTestParameters(kat, exact)
{
    static int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    return cr_make_param_array(int, isas, n < 16 ? n : 16);
}

ParameterizedTestParameters(kat, digest)
{
    static int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    return cr_make_param_array(int, isas, n < 16 ? n : 16);
}

static void use_isa(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s is not compiled in or not supported by this CPU",
                     sbf_isa_name(isa));
    cr_assert_eq(sbf_isa_set(isa), SBF_OK);
}

ParameterizedTest(int *isa, kat, exact, .description = "every layout's exact filter bytes after u64 and byte-string keys, all insertion paths") {
    use_isa(*isa);
    for (size_t i = 0; i < NEXACT; i++) {
        const kat_exact *v = &kat_exact_vectors[i];
        for (int how = 0; how < 3; how++) {
            sbf_filter *f = NULL;
            const int rc = kat_build(v->layout, v->bits, v->k, v->seed, v->keys, v->nkeys,
                                     how, &f);
            cr_assert_eq(rc, SBF_OK, "vector %zu: %s", i, sbf_strerror(rc));
            struct sbf_info info;
            cr_assert_eq(sbf_info(f, &info), SBF_OK);
            cr_assert_eq(info.isa, *isa);
            size_t len;
            const void *d = sbf_data(f, &len);
            cr_assert_eq(len, v->len, "vector %zu: %zu bytes, expected %zu", i, len, v->len);
            const size_t at = kat_first_diff(d, len, v->hex);
            cr_assert_eq(at, len, "%s: %s bits %" PRIu64 " k %u seed %u %s keys (way %d): "
                         "byte %zu differs from the known answer", sbf_isa_name(*isa),
                         kat_layout_name(v->layout), v->bits, v->k, v->seed,
                         v->keys == KAT_U64 ? "u64" : "byte-string", how, at);
            cr_assert_eq(kat_present(f, v->keys, v->nkeys), v->nkeys,
                         "vector %zu: a false negative", i);
            sbf_free(f);
        }
    }
}

ParameterizedTest(int *isa, kat, digest, .description = "every layout's filter digest after 1e5 u64 and byte-string keys (about 4 MiB filters)") {
    use_isa(*isa);
    for (size_t i = 0; i < NDIGEST; i++) {
        const kat_digest *v = &kat_digest_vectors[i];
        sbf_filter *f = NULL;
        const int rc = kat_build(v->layout, v->bits, v->k, v->seed, v->keys, v->nkeys, 0, &f);
        cr_assert_eq(rc, SBF_OK, "vector %zu: %s", i, sbf_strerror(rc));
        size_t len;
        const void *d = sbf_data(f, &len);
        cr_assert_eq(len, v->len, "vector %zu: %zu bytes, expected %zu", i, len, v->len);
        uint64_t h[2];
        sbf_murmur3_x64_128(d, len, 0, h);
        cr_assert(h[0] == v->d1 && h[1] == v->d2,
                  "%s: %s bits %" PRIu64 " k %u seed %u, %zu %s keys: digest %016" PRIx64
                  "%016" PRIx64 " is not the known answer", sbf_isa_name(*isa),
                  kat_layout_name(v->layout), v->bits, v->k, v->seed, v->nkeys,
                  v->keys == KAT_U64 ? "u64" : "byte-string", h[0], h[1]);
        sbf_free(f);
    }
}

Test(kat, vectors_cover_every_layout, .description = "the committed vectors cover every layout, both key kinds, split-block k = 8 and 16, k = 16 for every blocked layout") {
    unsigned seen = 0;
    for (size_t i = 0; i < NEXACT; i++) {
        const kat_exact *v = &kat_exact_vectors[i];
        const unsigned slot = (unsigned)v->layout * 2 + (unsigned)v->keys;
        seen |= 1u << slot;
        if (v->layout == SBF_SPLIT_BLOCK)
            seen |= 1u << (v->k == 8 ? 8 : 9);
        if (v->layout != SBF_CLASSIC && v->k == 16)
            seen |= 1u << (9 + v->layout); /* bits 10..12 */
    }
    cr_assert_eq(seen, 0x1fffu, "coverage mask %#x", seen);
    unsigned dl = 0;
    for (size_t i = 0; i < NDIGEST; i++) {
        dl |= 1u << (kat_digest_vectors[i].layout * 2 + kat_digest_vectors[i].keys);
        cr_assert_geq(kat_digest_vectors[i].nkeys, 100000);
        cr_assert_geq(kat_digest_vectors[i].len, (size_t)4 << 20 >> 1);
    }
    cr_assert_eq(dl, 0xffu);
}
