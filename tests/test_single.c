/*
 * Single-key calls (sbf_add / sbf_contains / sbf_remove) go through the
 * per-filter kernel of the filter's ISA, plain or SBF_CONCURRENT. Each must
 * return what the scalar reference returns, key by key, and leave the same
 * bytes: 8-byte keys (the inline u64 hash) and string keys of every tail
 * length, every layout and k.
 */
#include "testutil.h"
#include "sbf_internal.h"

static sbf_filter *make1(int isa, int layout, uint32_t k, uint64_t bits,
                         uint32_t seed, uint32_t flags)
{
    const geometry g = { layout, k, bits, seed };
    return tu_make_on(isa, &g, flags);
}

/* Key i: 8 bytes for even i, else 0..40 bytes of a byte stream. */
static size_t single_key_of(size_t i, const unsigned char *bytes, const void **key)
{
    if ((i & 1) == 0) {
        *key = bytes + (i * 8) % 4000;
        return 8;
    }
    *key = bytes + (i * 13) % 4000;
    return i % 41;
}

static void check_single_one(int isa, int layout, uint32_t k, uint64_t bits, uint32_t flags)
{
    unsigned char bytes[4096];
    uint64_t s = 0x51e + k + (uint64_t)layout * 100;
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)equiv_splitmix(&s);
    sbf_filter *ref = make1(SBF_ISA_SCALAR, layout, k, bits, 11, 0);
    sbf_filter *f = make1(isa, layout, k, bits, 11, flags);
    /* 600 adds into a small filter: many keys find their bits set already. */
    for (size_t i = 0; i < 600; i++) {
        const void *key;
        const size_t len = single_key_of(i, bytes, &key);
        const int a = sbf_add(ref, key, len), b = sbf_add(f, key, len);
        cr_assert_eq(a, b, "%s layout %d k %u flags %u: add %zu (len %zu) returned %d, scalar %d",
                     sbf_isa_name(isa), layout, k, flags, i, len, b, a);
    }
    cr_assert(equiv_same_bytes(ref, f), "%s layout %d k %u flags %u: bytes differ",
              sbf_isa_name(isa), layout, k, flags);
    /* every kernel counts the adds that changed the filter, as the reference
     * (each ISA's one-key entries count after their probe: sbfi_count_plain,
     * sbfi_count_atomic) */
    struct sbf_info ir, iff;
    sbf_info(ref, &ir);
    sbf_info(f, &iff);
    cr_assert_eq(iff.keys_added, ir.keys_added, "%s layout %d k %u flags %u: keys_added %llu, "
                 "scalar %llu", sbf_isa_name(isa), layout, k, flags,
                 (unsigned long long)iff.keys_added, (unsigned long long)ir.keys_added);
    size_t hits = 0;
    for (size_t i = 0; i < 3000; i++) {
        const void *key;
        const size_t len = single_key_of(i, bytes, &key);
        const int a = sbf_contains(ref, key, len), b = sbf_contains(f, key, len);
        cr_assert_eq(a, b, "%s layout %d k %u: contains %zu differs", sbf_isa_name(isa), layout, k, i);
        hits += (size_t)b;
        if (i < 600)
            cr_assert_eq(b, 1, "added key %zu not found", i);
    }
    cr_assert_lt(hits, 3000, "the probes must include negatives");
    if (layout == SBF_COUNTING) {
        for (size_t i = 0; i < 600; i += 3) {
            const void *key;
            const size_t len = single_key_of(i, bytes, &key);
            cr_assert_eq(sbf_remove(ref, key, len), sbf_remove(f, key, len));
        }
        cr_assert(equiv_same_bytes(ref, f), "%s k %u: bytes differ after removes",
                  sbf_isa_name(isa), k);
    }
    sbf_free(f);
    sbf_free(ref);
}

static void check_single(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s not available here", sbf_isa_name(isa));
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
        check_single_one(isa, SBF_CLASSIC, 7, 64 * 50, flags);
        check_single_one(isa, SBF_CLASSIC, 1, 64 * 3, flags);
        for (uint32_t k = 1; k <= 16; k++) {
            check_single_one(isa, SBF_BLOCKED, k, 512 * 9, flags);
            check_single_one(isa, SBF_COUNTING, k, 512 * 40, flags);
        }
        check_single_one(isa, SBF_SPLIT_BLOCK, 8, 256 * 19, flags);
        check_single_one(isa, SBF_SPLIT_BLOCK, 16, 512 * 9, flags);
    }
}

/* The XXH3 layouts, plain and concurrent, on 2^j blocks (a plain filter
 * binds the SBFI_MODE_POW2 set: its block one shift) and on other counts
 * (the plain set: the multiply); blocked 512 * 8 and 512 * 9 bits are 8 and
 * 9 blocks, split-block k = 8 256 * 16 and 256 * 19. Each filter's bound
 * ops are checked to be the set of its block count. */
static void check_single_xxh3(int isa, int layout, uint32_t k, uint64_t bits, uint32_t flags,
                              int keys)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s not available here", sbf_isa_name(isa));
    sbf_filter *f = make1(isa, layout, k, bits, 3, flags);
    const int pow2 = (f->nblocks & (f->nblocks - 1)) == 0 && f->nblocks >= 2;
    cr_assert_eq(f->block_shift, pow2 ? 64u - (uint32_t)__builtin_ctzll(f->nblocks) : 0u,
                 "nblocks %llu: block_shift %u", (unsigned long long)f->nblocks, f->block_shift);
    const int mode = (flags & SBF_CONCURRENT) ? SBFI_MODE_CONCURRENT
                     : pow2 ? SBFI_MODE_POW2 : SBFI_MODE_PLAIN;
    const sbfi_ops *want = (*f->kt->ops)[f->lay->hash][f->lay->kernel][mode];
    cr_assert(f->lay->hash == SBFI_HASH_XXH3 || f->lay->hash == SBFI_HASH_FMIX);
    cr_assert_eq(f->ops, want, "%s layout %d nblocks %llu flags %u: bound ops of mode %d expected",
                 sbf_isa_name(isa), layout, (unsigned long long)f->nblocks, flags, mode);
    /* blocked adds: the entry with k a constant where the ISA has them
     * (AVX2, AVX-512), the set's add_key elsewhere */
    const sbfi_key_add_fn *kadd = NULL;
    if (mode != SBFI_MODE_CONCURRENT && f->kt->add_key_k)
        kadd = (*f->kt->add_key_k)[f->lay->hash][f->lay->kernel][mode];
    if (f->lay->kernel == SBFI_KERN_BLOCKED && mode != SBFI_MODE_CONCURRENT &&
        (isa == SBF_ISA_AVX2 || isa == SBF_ISA_AVX512))
        cr_assert_not_null(kadd, "%s: no blocked adds with k a constant", sbf_isa_name(isa));
    /* split-block: the entries with the geometry a constant where the ISA
     * has them (AVX2, AVX-512), the set's elsewhere */
    const sbfi_key1 *g = NULL;
    if (f->lay->kernel == SBFI_KERN_SPLIT && mode != SBFI_MODE_CONCURRENT && f->kt->split_key)
        g = (*f->kt->split_key)[f->lay->hash][mode];
    if (f->lay->kernel == SBFI_KERN_SPLIT && mode != SBFI_MODE_CONCURRENT &&
        (isa == SBF_ISA_AVX2 || isa == SBF_ISA_AVX512))
        cr_assert_not_null(g, "%s: no split-block entries of one geometry", sbf_isa_name(isa));
    if (g != NULL)
        cr_assert(f->add1 == g[k == 16].add && f->contains1 == g[k == 16].contains);
    else
        cr_assert(f->add1 == (kadd ? kadd[k] : want->add_key) &&
                  f->contains1 == want->contains_key);
    sbf_free(f);
    if (keys)
        check_single_one(isa, layout, k, bits, flags);
}

static void check_xxh3(int isa)
{
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
        for (uint32_t k = 1; k <= 16; k += 5) {
            check_single_xxh3(isa, SBF_BLOCKED_XXH3, k, 512 * 8, flags, 1);
            check_single_xxh3(isa, SBF_BLOCKED_XXH3, k, 512 * 9, flags, 1);
            check_single_xxh3(isa, SBF_COUNTING_XXH3, k, 512 * 32, flags, 1);
            check_single_xxh3(isa, SBF_COUNTING_XXH3, k, 512 * 40, flags, 1);
        }
        check_single_xxh3(isa, SBF_BLOCKED_XXH3, 7, 512 * 64, flags, 1);
        /* two blocks: a shift of 63; one block: no shift, the multiply (too
         * small for the 600 keys: the binding only) */
        check_single_xxh3(isa, SBF_BLOCKED_XXH3, 7, 512 * 2, flags, 0);
        check_single_xxh3(isa, SBF_BLOCKED_XXH3, 7, 512 * 1, flags, 0);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_XXH3, 8, 256 * 16, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_XXH3, 8, 256 * 19, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_XXH3, 16, 512 * 8, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_XXH3, 16, 512 * 9, flags, 1);
        /* 2^16 blocks: keys spread over the high bits of h */
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_XXH3, 8, UINT64_C(256) << 16, flags, 1);
    }
}

/* The fmix layouts: the same on their stage (2^j blocks bind the pow2 set) */
static void check_fmix(int isa)
{
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
        for (uint32_t k = 1; k <= 16; k += 5) {
            check_single_xxh3(isa, SBF_BLOCKED_FMIX, k, 512 * 8, flags, 1);
            check_single_xxh3(isa, SBF_BLOCKED_FMIX, k, 512 * 9, flags, 1);
        }
        check_single_xxh3(isa, SBF_BLOCKED_FMIX, 7, 512 * 64, flags, 1);
        check_single_xxh3(isa, SBF_BLOCKED_FMIX, 7, 512 * 2, flags, 0);
        check_single_xxh3(isa, SBF_BLOCKED_FMIX, 7, 512 * 1, flags, 0);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_FMIX, 8, 256 * 16, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_FMIX, 8, 256 * 19, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_FMIX, 16, 512 * 8, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_FMIX, 16, 512 * 9, flags, 1);
        check_single_xxh3(isa, SBF_SPLIT_BLOCK_FMIX, 8, UINT64_C(256) << 16, flags, 1);
    }
}

Test(single, fmix_scalar, .description = "scalar fmix one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_fmix(SBF_ISA_SCALAR); }
Test(single, fmix_simde, .description = "simde fmix one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_fmix(SBF_ISA_SIMDE); }
Test(single, fmix_avx2, .description = "avx2 fmix one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_fmix(SBF_ISA_AVX2); }
Test(single, fmix_avx512, .description = "avx512 fmix one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_fmix(SBF_ISA_AVX512); }
Test(single, fmix_neon, .description = "neon fmix one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_fmix(SBF_ISA_NEON); }

Test(single, xxh3_scalar, .description = "scalar XXH3 one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_xxh3(SBF_ISA_SCALAR); }
Test(single, xxh3_simde, .description = "simde XXH3 one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_xxh3(SBF_ISA_SIMDE); }
Test(single, xxh3_avx2, .description = "avx2 XXH3 one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_xxh3(SBF_ISA_AVX2); }
Test(single, xxh3_avx512, .description = "avx512 XXH3 one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_xxh3(SBF_ISA_AVX512); }
Test(single, xxh3_neon, .description = "neon XXH3 one-key kernels on 2^j and other block counts equal the reference, bound by block count") { check_xxh3(SBF_ISA_NEON); }

/* The AVX-512 one-key paths hash 8-byte keys in one of two forms, chosen
 * from the CPU (sbfi_hash8_vec); this CPU runs one of them by itself, so
 * each is forced here (after detection, which would set it again). */
static void check_hash8_form(int vec)
{
    if (!sbf_isa_available(SBF_ISA_AVX512))
        cr_skip_test("avx512 not available here");
    sbfi_hash8_vec_force(vec);
    cr_assert_eq(sbfi_hash8_vec(), vec);
    const uint32_t ks[] = { 1, 7, 8, 16 };
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        check_single_one(SBF_ISA_AVX512, SBF_BLOCKED, ks[i], 512 * 9, 0);
        check_single_one(SBF_ISA_AVX512, SBF_COUNTING, ks[i], 512 * 40, 0);
    }
    check_single_one(SBF_ISA_AVX512, SBF_SPLIT_BLOCK, 8, 256 * 19, 0);
    check_single_one(SBF_ISA_AVX512, SBF_SPLIT_BLOCK, 16, 512 * 9, 0);
    /* 2 MiB: the vector form whatever the CPU's */
    check_single_one(SBF_ISA_AVX512, SBF_BLOCKED, 7, UINT64_C(8) << 21, 0);
    check_single_one(SBF_ISA_AVX512, SBF_SPLIT_BLOCK, 8, UINT64_C(8) << 21, 0);
    sbfi_hash8_vec_force(-1);
}

Test(single, avx512_hash8_scalar, .description = "avx512 one-key kernels with the 8-byte hash's scalar form equal the reference") { check_hash8_form(0); }
Test(single, avx512_hash8_vector, .description = "avx512 one-key kernels with the 8-byte hash's vector form equal the reference") { check_hash8_form(1); }

Test(single, scalar, .description = "scalar single-key kernels (plain and concurrent) equal the reference") { check_single(SBF_ISA_SCALAR); }
Test(single, simde, .description = "simde single-key kernels (plain and concurrent) equal the reference, key by key") { check_single(SBF_ISA_SIMDE); }
Test(single, avx2, .description = "avx2 single-key kernels (plain and concurrent) equal the reference, key by key") { check_single(SBF_ISA_AVX2); }
Test(single, avx512, .description = "avx512 single-key kernels (plain and concurrent) equal the reference, key by key") { check_single(SBF_ISA_AVX512); }
Test(single, neon, .description = "neon single-key kernels (plain and concurrent) equal the reference, key by key") { check_single(SBF_ISA_NEON); }

Test(single, null_key, .description = "a NULL key of length 0 is the empty key on every path") {
    sbf_filter *a = make1(SBF_ISA_AUTO, SBF_BLOCKED, 7, 512 * 4, 0, 0);
    sbf_filter *b = make1(SBF_ISA_AUTO, SBF_BLOCKED, 7, 512 * 4, 0, SBF_CONCURRENT);
    const char empty[1] = { 0 };
    cr_assert_eq(sbf_add(a, NULL, 0), 1);
    cr_assert_eq(sbf_contains(a, empty, 0), 1);
    cr_assert_eq(sbf_add(b, empty, 0), 1);
    cr_assert_eq(sbf_contains(b, NULL, 0), 1);
    cr_assert(equiv_same_bytes(a, b));
    cr_assert_eq(sbf_add(a, NULL, 1), SBF_E_NULL);
    cr_assert_eq(sbf_contains(b, NULL, 3), SBF_E_NULL);
    sbf_free(a);
    sbf_free(b);
}

Test(single, tables, .description = "every compiled-in table fills every entry of its ops, for every hash stage, family and mode") {
    size_t n;
    const sbfi_kernels *const *reg = sbfi_registry(&n);
    cr_assert_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        const sbfi_kernels *kt = sbfi_kernels_for(reg[i]->isa);
        if (kt == NULL)
            continue; /* a placeholder, not compiled in */
        cr_assert_not_null(kt->ops, "%s: no ops", kt->name);
        for (int h = 0; h < SBFI_NHASH; h++)
            for (int l = 0; l < SBFI_NKERNELS; l++)
                for (int m = 0; m < SBFI_NMODES; m++) {
                    const sbfi_ops *o = (*kt->ops)[h][l][m];
                    cr_assert(o && o->add_key && o->contains_key && o->add_batch &&
                                  o->contains_batch && o->add_hashed && o->contains_hashed,
                              "%s hash %d family %d mode %d: a NULL entry", kt->name, h, l, m);
                    /* the power-of-two mode: the XXH3 and fmix blocked and split-block sets
                     * have their own one-key entries where the ISA has the header's
                     * probes (avx2, avx512), the plain set's batch and hashed ones;
                     * every other stage and family is the plain set */
                    if (m == SBFI_MODE_POW2) {
                        const sbfi_ops *p = (*kt->ops)[h][l][SBFI_MODE_PLAIN];
                        const int own = (h == SBFI_HASH_XXH3 || h == SBFI_HASH_FMIX) &&
                                        (l == SBFI_KERN_BLOCKED || l == SBFI_KERN_SPLIT) &&
                                        (kt->isa == SBF_ISA_AVX2 || kt->isa == SBF_ISA_AVX512);
                        if (own)
                            cr_assert(o != p && o->add_key != p->add_key &&
                                          o->contains_key != p->contains_key &&
                                          o->add_batch == p->add_batch &&
                                          o->contains_batch == p->contains_batch &&
                                          o->add_hashed == p->add_hashed &&
                                          o->contains_hashed == p->contains_hashed,
                                      "%s family %d: the pow2 set is not its own one-key "
                                      "entries over the plain batches", kt->name, l);
                        else
                            cr_assert_eq(o, p, "%s hash %d family %d: pow2 mode is not the plain set",
                                         kt->name, h, l);
                    }
                    /* the concurrent mode's ops are other functions than the plain ones */
                    if (m == SBFI_MODE_CONCURRENT)
                        cr_assert(o->add_key != (*kt->ops)[h][l][SBFI_MODE_PLAIN]->add_key &&
                                      o->add_batch != (*kt->ops)[h][l][SBFI_MODE_PLAIN]->add_batch,
                                  "%s hash %d family %d: concurrent ops are the plain ones",
                                  kt->name, h, l);
                }
    }
}
