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
            const kat_result r = kat_run_exact(v, how);
            cr_assert_eq(r.rc, SBF_OK, "vector %zu: %s", i, sbf_strerror(r.rc));
            cr_assert_eq(r.isa, *isa);
            cr_assert_eq(r.len, v->len, "vector %zu: %zu bytes, expected %zu", i, r.len, v->len);
            cr_assert_eq(r.at, r.len, "%s: %s bits %" PRIu64 " k %u seed %u %s keys (way %d): "
                         "byte %zu differs from the known answer", sbf_isa_name(*isa),
                         kat_layout_name(v->layout), v->bits, v->k, v->seed,
                         v->keys == KAT_U64 ? "u64" : "byte-string", how, r.at);
            cr_assert_eq(r.present, v->nkeys, "vector %zu: a false negative", i);
        }
    }
}

ParameterizedTest(int *isa, kat, digest, .description = "every layout's filter digest after 1e5 u64 and byte-string keys (about 4 MiB filters)") {
    use_isa(*isa);
    for (size_t i = 0; i < NDIGEST; i++) {
        const kat_digest *v = &kat_digest_vectors[i];
        const kat_result r = kat_run_digest(v);
        cr_assert_eq(r.rc, SBF_OK, "vector %zu: %s", i, sbf_strerror(r.rc));
        cr_assert_eq(r.isa, *isa);
        cr_assert_eq(r.len, v->len, "vector %zu: %zu bytes, expected %zu", i, r.len, v->len);
        cr_assert(r.h[0] == v->d1 && r.h[1] == v->d2,
                  "%s: %s bits %" PRIu64 " k %u seed %u, %zu %s keys: digest %016" PRIx64
                  "%016" PRIx64 " is not the known answer", sbf_isa_name(*isa),
                  kat_layout_name(v->layout), v->bits, v->k, v->seed, v->nkeys,
                  v->keys == KAT_U64 ? "u64" : "byte-string", r.h[0], r.h[1]);
        cr_assert_eq(r.present, v->nkeys, "vector %zu: a false negative", i);
    }
}

Test(kat, vectors_cover_every_layout, .description = "the committed vectors cover every layout, both key kinds, split-block (MurmurHash3, XXH3, fmix) k = 8 and 16, k = 16 for every blocked layout") {
    /* every (layout, key kind); split-block k = 8 and 16; k = 16 for
     * blocked, split-block and counting */
    unsigned seen = 0, split = 0, k16 = 0;
    const unsigned all = (1u << (2 * (SBF_BLOCKED_FMIX + 1))) - 1;
    for (size_t i = 0; i < NEXACT; i++) {
        const kat_exact *v = &kat_exact_vectors[i];
        seen |= 1u << ((unsigned)v->layout * 2 + (unsigned)v->keys);
        if (v->layout == SBF_SPLIT_BLOCK)
            split |= v->k == 8 ? 1u : 2u;
        if (v->layout == SBF_SPLIT_BLOCK_XXH3)
            split |= v->k == 8 ? 4u : 8u;
        if (v->layout == SBF_SPLIT_BLOCK_FMIX)
            split |= v->k == 8 ? 16u : 32u;
        if (v->k == 16)
            k16 |= 1u << v->layout;
    }
    cr_assert_eq(seen, all, "coverage mask %#x", seen);
    cr_assert_eq(split, 63u);
    cr_assert_eq(k16, (1u << SBF_BLOCKED) | (1u << SBF_SPLIT_BLOCK) | (1u << SBF_COUNTING) |
                      (1u << SBF_SPLIT_BLOCK_XXH3) | (1u << SBF_BLOCKED_XXH3) |
                      (1u << SBF_COUNTING_XXH3) | (1u << SBF_SPLIT_BLOCK_FMIX) |
                      (1u << SBF_BLOCKED_FMIX));
    unsigned dl = 0;
    for (size_t i = 0; i < NDIGEST; i++) {
        dl |= 1u << (kat_digest_vectors[i].layout * 2 + kat_digest_vectors[i].keys);
        cr_assert_geq(kat_digest_vectors[i].nkeys, 100000);
        cr_assert_geq(kat_digest_vectors[i].len, (size_t)4 << 20 >> 1);
    }
    cr_assert_eq(dl, all);
}
