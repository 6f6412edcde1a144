/*
 * include/simdbloom_inline.h against the library, key by key: every vector
 * path of the header (portable, AVX2, AVX-512 with either form of the
 * 8-byte hash: tests/inline_ops.c built once per path) on filters of every
 * layout, k, ISA and flag, adds and queries of u64 keys, byte strings and given hashes through a view must
 * return what sbf_add / sbf_contains return on a scalar filter, and leave
 * the same bytes and keys_added. Also sbf_add_hash / sbf_contains_hash, the
 * hashes, and what views refuse.
 */
#include "testutil.h"
#include "inline_ops.h"

#include <stddef.h>
#include <unistd.h>

/* The compiled-in vector paths this CPU runs; NULL past the end. */
static const inline_ops *variant(int i)
{
    const inline_ops *all[5] = { &inline_ops_portable, &inline_ops_auto, &inline_ops_avx2,
                                 &inline_ops_avx512, &inline_ops_avx512v };
    int seen = 0;
    for (int j = 0; j < 5; j++) {
        if (all[j] == NULL || !sbf_isa_available(all[j]->isa))
            continue;
        if (seen++ == i)
            return all[j];
    }
    return NULL;
}

/* Key i as bytes: the 8 little-endian bytes of a u64 (i % 3 == 0, added
 * with the u64 form), or 0..40 bytes of a stream (added as bytes when
 * i % 3 == 1, as its hash when i % 3 == 2). */
static size_t key_of(size_t i, const unsigned char *stream, unsigned char u[8],
                     const void **key, uint64_t *x)
{
    if (i % 3 == 0) {
        memcpy(x, stream + (i * 8) % 4000, 8);
        for (int b = 0; b < 8; b++)
            u[b] = (unsigned char)(*x >> (8 * b));
        *key = u;
        return 8;
    }
    *key = stream + (i * 13) % 4000;
    return i % 41;
}

static int is_xxh3(int layout)
{
    return layout == SBF_SPLIT_BLOCK_XXH3 || layout == SBF_BLOCKED_XXH3 ||
           layout == SBF_COUNTING_XXH3;
}

/* The (h1, h2) pair a layout's hash makes of a key: MurmurHash3, or for
 * SBF_PARQUET its XXH64 and for the XXH3 layouts their seeded XXH3, each
 * through sbf_parquet_pair. */
static void pair_of(int layout, const void *key, size_t len, uint32_t seed, uint64_t h[2])
{
    if (layout == SBF_PARQUET)
        sbf_parquet_pair(sbf_xxh64(key, len), &h[0], &h[1]);
    else if ((layout == SBF_SPLIT_BLOCK_FMIX || layout == SBF_BLOCKED_FMIX) && len == 8)
        sbf_parquet_pair(sbf_fmix_u64_inline(sbf__load64((const unsigned char *)key), seed),
                         &h[0], &h[1]);
    else if (is_xxh3(layout) || layout == SBF_SPLIT_BLOCK_FMIX || layout == SBF_BLOCKED_FMIX)
        sbf_parquet_pair(sbf_xxh3_64(key, len, seed), &h[0], &h[1]);
    else
        sbf_murmur3_x64_128(key, len, seed, h);
}

/* Which narrowing takes a view of the filter: the plain split-block (k = 8),
 * blocked, parquet and counting ones, whose narrowed views probe and add
 * inline, or none. */
enum { NARROW_NONE, NARROW_SPLIT, NARROW_BLOCKED, NARROW_PARQUET, NARROW_COUNTING };
static int narrowing_of(const geometry *g, uint32_t flags)
{
    if (flags & SBF_CONCURRENT)
        return NARROW_NONE;
    if (g->layout == SBF_SPLIT_BLOCK && g->k == 8)
        return NARROW_SPLIT;
    if (g->layout == SBF_BLOCKED)
        return NARROW_BLOCKED;
    if (g->layout == SBF_COUNTING)
        return NARROW_COUNTING;
    return g->layout == SBF_PARQUET ? NARROW_PARQUET : NARROW_NONE;
}

static int via_view(const inline_calls *o, const sbf_view *v, int add, size_t i,
                    const void *key, size_t len, uint64_t x, uint32_t seed)
{
    if (i % 3 == 0)
        return add ? o->add_u64(v, x) : o->contains_u64(v, x);
    if (i % 3 == 1)
        return add ? o->add(v, key, len) : o->contains(v, key, len);
    uint64_t h[2];
    pair_of(v->layout, key, len, seed, h);
    return add ? o->add_hash(v, h[0], h[1]) : o->contains_hash(v, h[0], h[1]);
}

static void same_state(const sbf_filter *ref, const sbf_filter *f, const char *what)
{
    struct sbf_info a, b;
    (void)what; /* only messages use it, and tests/tsan/crshim.h drops those */
    cr_assert(equiv_same_bytes(ref, f), "%s: bytes differ", what);
    cr_assert_eq(sbf_info(ref, &a), SBF_OK);
    cr_assert_eq(sbf_info(f, &b), SBF_OK);
    cr_assert_eq(a.keys_added, b.keys_added, "%s: keys_added %llu, reference %llu", what,
                 (unsigned long long)b.keys_added, (unsigned long long)a.keys_added);
}

/* check_one's modes: which of the ops' call sets */
enum { VIA_VIEW, VIA_NARROWED, VIA_AS, VIA_AS_OTHER, VIA_MODES };

static void check_one(const inline_ops *io, int isa, const geometry *g, uint32_t flags,
                      int mode)
{
    const inline_calls *o = mode == VIA_NARROWED ? &io->narrowed
                            : mode == VIA_AS     ? &io->as
                            : mode == VIA_AS_OTHER ? &io->as_other
                                                 : &io->view;
    const int narrowed = mode == VIA_NARROWED;
    static const char *const mode_name[VIA_MODES] = { "", " narrowed", " _as", " _as other" };
    unsigned char stream[4096], u[8];
    uint64_t s = 0x1e5 + g->k + (uint64_t)g->layout * 131 + flags;
    for (size_t i = 0; i < sizeof stream; i++)
        stream[i] = (unsigned char)equiv_splitmix(&s);
    char what[160];
    snprintf(what, sizeof what, "%s%s on %s, layout %d k %u bits %llu flags %u", io->name,
             mode_name[mode], sbf_isa_name(isa), g->layout, g->k,
             (unsigned long long)g->bits, flags);
    sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, g, 0);
    sbf_filter *f = tu_make_on(isa, g, flags);
    sbf_view v;
    cr_assert_eq(sbf_view_get_writable(f, &v), SBF_OK);
    if (narrowed && narrowing_of(g, flags) == NARROW_NONE) {
        /* no narrowing (split, blocked, parquet, counting) takes it */
        cr_assert_eq(o->contains_u64(&v, 1), INLINE_OPS_NOT_NARROWED, "%s", what);
        cr_assert_eq(o->add(&v, stream, 3), INLINE_OPS_NOT_NARROWED, "%s", what);
        sbf_free(f);
        sbf_free(ref);
        return;
    }
    /* 600 adds into a small filter: many find their bits set already */
    for (size_t i = 0; i < 600; i++) {
        const void *key;
        uint64_t x = 0;
        const size_t len = key_of(i, stream, u, &key, &x);
        const int a = sbf_add(ref, key, len);
        const int b = via_view(o, &v, 1, i, key, len, x, g->seed);
        cr_assert_eq(a, b, "%s: add %zu (len %zu) returned %d, reference %d", what, i, len, b, a);
    }
    same_state(ref, f, what);
    sbf_view q;
    cr_assert_eq(sbf_view_get(f, &q), SBF_OK);
    size_t hits = 0;
    for (size_t i = 0; i < 3000; i++) {
        const void *key;
        uint64_t x = 0;
        const size_t len = key_of(i, stream, u, &key, &x);
        const int a = sbf_contains(ref, key, len);
        const int b = via_view(o, i & 1 ? &v : &q, 0, i, key, len, x, g->seed);
        cr_assert_eq(a, b, "%s: contains %zu (len %zu) %d, reference %d", what, i, len, b, a);
        hits += (size_t)b;
        if (i < 600)
            cr_assert_eq(b, 1, "%s: added key %zu not found", what, i);
    }
    cr_assert_lt(hits, 3000, "%s: the probes must include negatives", what);
    /* a view for queries adds nothing */
    cr_assert_eq(o->add_u64(&q, 12345), SBF_E_READONLY, "%s", what);
    cr_assert_eq(o->add(&q, stream, 5), SBF_E_READONLY, "%s", what);
    cr_assert_eq(o->add_hash(&q, 1, 2), SBF_E_READONLY, "%s", what);
    cr_assert_eq(o->add(&v, NULL, 3), SBF_E_NULL, "%s", what);
    cr_assert_eq(o->contains(&q, NULL, 3), SBF_E_NULL, "%s", what);
    same_state(ref, f, what);
    sbf_free(f);
    sbf_free(ref);
}

static const geometry geoms[] = {
    { SBF_CLASSIC, 7, 64 * 50, 11 },   { SBF_CLASSIC, 1, 64 * 3, 0 },
    { SBF_BLOCKED, 1, 512 * 9, 11 },   { SBF_BLOCKED, 2, 512 * 9, 0 },
    { SBF_BLOCKED, 3, 512 * 9, 7 },    { SBF_BLOCKED, 5, 512 * 9, 11 },
    { SBF_BLOCKED, 7, 512 * 9, 0 },    { SBF_BLOCKED, 7, 512 * 9, 0x9747b28cu },
    { SBF_BLOCKED, 8, 512 * 9, 11 },   { SBF_BLOCKED, 9, 512 * 9, 11 },
    { SBF_BLOCKED, 12, 512 * 9, 3 },   { SBF_BLOCKED, 15, 512 * 9, 11 },
    { SBF_BLOCKED, 16, 512 * 9, UINT32_MAX },
    { SBF_SPLIT_BLOCK, 8, 256 * 19, 11 }, { SBF_SPLIT_BLOCK, 8, 256 * 19, 0 },
    { SBF_SPLIT_BLOCK, 16, 512 * 9, 11 },
    { SBF_COUNTING, 7, 512 * 40, 11 }, { SBF_COUNTING, 16, 512 * 40, 0 },
    { SBF_PARQUET, 8, 256 * 19, 0 },   { SBF_PARQUET, 8, 256 * 64, 0 },
    /* 2 MiB: AVX-512 hashes 8-byte keys in the vector form from this size */
    { SBF_BLOCKED, 7, UINT64_C(8) << 21, 11 }, { SBF_SPLIT_BLOCK, 8, UINT64_C(8) << 21, 0 },
    /* the XXH3 layouts (view kinds SBF_VIEW_*_XXH3), seeds that differ in
     * every byte (the hash swaps the seed's bytes) */
    { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 19, 11 }, { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 19, 0 },
    { SBF_SPLIT_BLOCK_XXH3, 16, 512 * 9, 0x9747b28cu },
    { SBF_BLOCKED_XXH3, 1, 512 * 9, 0 },  { SBF_BLOCKED_XXH3, 7, 512 * 9, 0x01020304u },
    { SBF_BLOCKED_XXH3, 8, 512 * 9, 11 }, { SBF_BLOCKED_XXH3, 16, 512 * 9, UINT32_MAX },
    { SBF_COUNTING_XXH3, 7, 512 * 40, 11 }, { SBF_COUNTING_XXH3, 16, 512 * 40, 0 },
    { SBF_SPLIT_BLOCK_XXH3, 8, UINT64_C(8) << 21, 5 }, { SBF_BLOCKED_XXH3, 7, UINT64_C(8) << 21, 5 },
    /* powers of two: the block is one shift of h1 (block_shift) */
    { SBF_SPLIT_BLOCK_XXH3, 8, 256 * 128, 3 }, { SBF_BLOCKED_XXH3, 7, 512 * 64, 3 },
    { SBF_BLOCKED, 7, 512 * 64, 3 }, { SBF_SPLIT_BLOCK, 8, 256 * 128, 3 },
    /* the fmix layouts (SBF_VIEW_*_FMIX): other and power-of-two block
     * counts, 2 MiB */
    { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 19, 11 }, { SBF_SPLIT_BLOCK_FMIX, 8, 256 * 128, 0 },
    { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 9, 0x9747b28cu }, { SBF_SPLIT_BLOCK_FMIX, 16, 512 * 16, 1 },
    { SBF_BLOCKED_FMIX, 1, 512 * 9, 0 },  { SBF_BLOCKED_FMIX, 7, 512 * 64, 0x01020304u },
    { SBF_BLOCKED_FMIX, 8, 512 * 9, 11 }, { SBF_BLOCKED_FMIX, 16, 512 * 9, UINT32_MAX },
    { SBF_SPLIT_BLOCK_FMIX, 8, UINT64_C(8) << 21, 5 }, { SBF_BLOCKED_FMIX, 7, UINT64_C(8) << 21, 5 },
};

/* The view kind the library gives a plain filter of g, which the header
 * must probe inline (not SBF_VIEW_CALL). */
static unsigned kind_of(const geometry *g)
{
    switch (g->layout) {
    case SBF_SPLIT_BLOCK_XXH3: return g->k == 8 ? SBF_VIEW_SPLIT8_XXH3 : SBF_VIEW_SPLIT16_XXH3;
    case SBF_BLOCKED_XXH3: return SBF_VIEW_BLOCKED_XXH3;
    case SBF_COUNTING_XXH3: return SBF_VIEW_COUNTING_XXH3;
    case SBF_SPLIT_BLOCK_FMIX: return g->k == 8 ? SBF_VIEW_SPLIT8_FMIX : SBF_VIEW_SPLIT16_FMIX;
    case SBF_BLOCKED_FMIX: return SBF_VIEW_BLOCKED_FMIX;
    case SBF_SPLIT_BLOCK: return g->k == 8 ? SBF_VIEW_SPLIT8 : SBF_VIEW_SPLIT16;
    case SBF_BLOCKED: return SBF_VIEW_BLOCKED;
    case SBF_COUNTING: return SBF_VIEW_COUNTING;
    case SBF_PARQUET: return SBF_VIEW_PARQUET;
    default: return SBF_VIEW_CALL;
    }
}

Test(inline, kinds, .description = "views of the plain filters of every layout probe inline with their kind; SBF_CONCURRENT ones call") {
    for (size_t gi = 0; gi < sizeof geoms / sizeof geoms[0]; gi++) {
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
            sbf_filter *f = tu_make_on(SBF_ISA_AUTO, &geoms[gi], flags);
            sbf_view v;
            cr_assert_eq(sbf_view_get_writable(f, &v), SBF_OK);
            const unsigned want = flags ? SBF_VIEW_CALL : kind_of(&geoms[gi]);
            cr_assert_eq(v.query, want, "layout %d k %u flags %u: kind %u, want %u",
                         geoms[gi].layout, geoms[gi].k, flags, v.query, want);
            cr_assert_eq(v.add, want);
            /* the XXH3 layouts' 8-byte hash takes the flip the library
             * made once: xxHash's, from the filter's seed; the fmix
             * layouts' their s in the same field */
            const int fmix = geoms[gi].layout == SBF_SPLIT_BLOCK_FMIX ||
                             geoms[gi].layout == SBF_BLOCKED_FMIX;
            cr_assert_eq(v.xxh3_flip, fmix ? sbf_fmix_s(geoms[gi].seed)
                                           : sbf_xxh3_flip8(geoms[gi].seed));
            /* a power-of-two block count: the block is one shift of h1 */
            const int pow2 = v.nblocks >= 2 && (v.nblocks & (v.nblocks - 1)) == 0;
            cr_assert_eq(v.block_shift, pow2 ? 64u - (uint32_t)__builtin_ctzll(v.nblocks) : 0u,
                         "nblocks %llu: block_shift %u", (unsigned long long)v.nblocks, v.block_shift);
            uint64_t h1 = UINT64_MAX;
            for (int i = 0; pow2 && i < 64; i++, h1 = h1 * 6364136223846793005u + 1442695040888963407u)
                cr_assert_eq(h1 >> v.block_shift, sbf_block_index(h1, v.nblocks));
            uint64_t key = 0x0123456789abcdefu;
            if (geoms[gi].layout >= SBF_SPLIT_BLOCK_XXH3 && geoms[gi].layout <= SBF_COUNTING_XXH3)
                cr_assert_eq(sbf_xxh3_u64_flip(key, v.xxh3_flip),
                             sbf_xxh3_64(&key, 8, geoms[gi].seed));
            if (fmix) /* the 8-byte form, and the pair sbf_add_hash takes */
                for (int i = 0; i < 64; i++, key = key * 6364136223846793005u + 1) {
                    cr_assert_eq(sbf_fmix_u64_s(key, v.xxh3_flip),
                                 sbf_fmix_u64_inline(key, geoms[gi].seed));
                    uint64_t p1, p2;
                    sbf_parquet_pair(sbf_fmix_u64_s(key, v.xxh3_flip), &p1, &p2);
                    sbf_filter *g = tu_make_on(SBF_ISA_SCALAR, &geoms[gi], 0);
                    cr_assert_eq(sbf_add_hash(g, p1, p2), 1);
                    cr_assert_eq(sbf_contains(g, &key, 8), 1);
                    sbf_free(g);
                }
            sbf_free(f);
        }
    }
    sbf_isa_set(SBF_ISA_AUTO);
}

Test(inline, one_block, .description = "one block: no shift (block_shift 0, the multiply), every key in block 0") {
    const geometry g[] = { { SBF_SPLIT_BLOCK_XXH3, 8, 256, 3 }, { SBF_BLOCKED, 7, 512, 3 } };
    for (size_t gi = 0; gi < 2; gi++) {
        sbf_filter *f = tu_make_on(SBF_ISA_AUTO, &g[gi], 0);
        sbf_view v;
        cr_assert_eq(sbf_view_get_writable(f, &v), SBF_OK);
        cr_assert_eq(v.nblocks, 1u);
        cr_assert_eq(v.block_shift, 0u);
        cr_assert_eq(sbf_view_add_u64(&v, 42), 1);
        cr_assert_eq(sbf_view_contains_u64(&v, 42), 1);
        uint64_t key = 42;
        cr_assert_eq(sbf_contains(f, &key, 8), 1);
        sbf_free(f);
    }
    sbf_isa_set(SBF_ISA_AUTO);
}

Test(inline, view_abi, .description = "sbf_view's size and fields' places, which programs compiled against this header read") {
    /* the library fills what the caller's code reads: a change here is an
     * ABI change (a new soname), never an edit that passes unnoticed */
    cr_assert_eq(sizeof(sbf_view), 96u);
    cr_assert_eq(offsetof(sbf_view, words), 0u);
    cr_assert_eq(offsetof(sbf_view, nblocks), 8u);
    cr_assert_eq(offsetof(sbf_view, salt), 16u);
    cr_assert_eq(offsetof(sbf_view, filter), 24u);
    cr_assert_eq(offsetof(sbf_view, added), 32u);
    cr_assert_eq(offsetof(sbf_view, k), 40u);
    cr_assert_eq(offsetof(sbf_view, seed), 44u);
    cr_assert_eq(offsetof(sbf_view, lanes), 48u);
    cr_assert_eq(offsetof(sbf_view, layout), 52u);
    cr_assert_eq(offsetof(sbf_view, query), 56u);
    cr_assert_eq(offsetof(sbf_view, add), 60u);
    cr_assert_eq(offsetof(sbf_view, writable), 64u);
    cr_assert_eq(offsetof(sbf_view, block_shift), 68u); /* was padding, 0 */
    cr_assert_eq(offsetof(sbf_view, key_contains), 72u);
    cr_assert_eq(offsetof(sbf_view, key_add), 80u);
    cr_assert_eq(offsetof(sbf_view, xxh3_flip), 88u);
}

static void check_variant(int which)
{
    const inline_ops *o = variant(which);
    if (o == NULL)
        cr_skip_test("no vector path %d of the inline header here", which);
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n && i < 16; i++) {
        if (!sbf_isa_available(isas[i]))
            continue;
        for (size_t gi = 0; gi < sizeof geoms / sizeof geoms[0]; gi++)
            for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT)
                for (int mode = 0; mode < VIA_MODES; mode++)
                    check_one(o, isas[i], &geoms[gi], flags, mode);
    }
    sbf_isa_set(SBF_ISA_AUTO);
}

Test(inline, path0, .description = "the first vector path of the inline header equals the library, key by key") { check_variant(0); }
Test(inline, path1, .description = "the second vector path of the inline header equals the library, key by key") { check_variant(1); }
Test(inline, path2, .description = "the third vector path of the inline header equals the library, key by key") { check_variant(2); }
Test(inline, path3, .description = "the fourth vector path of the inline header equals the library, key by key") { check_variant(3); }
Test(inline, path4, .description = "the fifth vector path of the inline header equals the library, key by key") { check_variant(4); }

/* Counters that reach 15 stay there: one- and two-block counting filters
 * take hundreds of adds through the narrowed view (u64 keys, bytes, given
 * hashes, and keys added again) and must match the scalar reference add by
 * add, bytes and keys_added; the key-by-key test above never fills a
 * counter that far. */
Test(inline, counting_saturates, .description = "narrowed counting adds saturate counters at 15 as the library does, on every path") {
    const geometry gs[] = { { SBF_COUNTING, 16, 512, 3 }, { SBF_COUNTING, 5, 1024, 0 },
                            { SBF_COUNTING, 9, 1024, 11 } };
    for (int w = 0; variant(w) != NULL; w++) {
        const inline_ops *o = variant(w);
        for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; gi++) {
            sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, &gs[gi], 0);
            sbf_filter *f = tu_make_on(SBF_ISA_SCALAR, &gs[gi], 0);
            sbf_view v;
            cr_assert_eq(sbf_view_get_writable(f, &v), SBF_OK);
            for (uint64_t i = 0; i < 400; i++) {
                const uint64_t key = i % 7 == 6 ? i / 2 : i * 0x9e3779b97f4a7c15u;
                unsigned char b[11];
                memcpy(b, &key, 8);
                b[8] = b[9] = b[10] = (unsigned char)i;
                uint64_t h[2];
                sbf_murmur3_x64_128(b, 11, gs[gi].seed, h);
                int a, r;
                if (i % 3 == 0) {
                    a = sbf_add(ref, &key, 8);
                    r = o->narrowed.add_u64(&v, key);
                } else if (i % 3 == 1) {
                    a = sbf_add(ref, b, 11);
                    r = o->narrowed.add(&v, b, 11);
                } else {
                    a = sbf_add(ref, b, 11);
                    r = o->narrowed.add_hash(&v, h[0], h[1]);
                }
                cr_assert_eq(r, a, "%s, geometry %zu: add %llu returned %d, reference %d",
                             o->name, gi, (unsigned long long)i, r, a);
                cr_assert_eq(o->narrowed.contains_u64(&v, key), sbf_contains(ref, &key, 8));
                cr_assert_eq(i % 3 ? o->narrowed.contains(&v, b, 11)
                                   : o->narrowed.contains_hash(&v, h[0], h[1]),
                             i % 3 ? 1 : sbf_contains(ref, b, 11));
            }
            same_state(ref, f, o->name);
            struct sbf_info in;
            cr_assert_eq(sbf_info(f, &in), SBF_OK);
            cr_assert_gt(in.saturated, 0, "%s, geometry %zu: no counter reached 15", o->name, gi);
            sbf_free(f);
            sbf_free(ref);
        }
    }
    sbf_isa_set(SBF_ISA_AUTO);
}

Test(inline, hashes, .description = "the inline MurmurHash3, XXH64 and XXH3 forms equal the library's on every path") {
    unsigned char bytes[200];
    uint64_t s = 77;
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)equiv_splitmix(&s);
    const uint32_t seeds[] = { 0, 1, 11, 0x9747b28cu, UINT32_MAX, 0x80000001u };
    for (int w = 0; variant(w) != NULL; w++) {
        const inline_ops *o = variant(w);
        for (size_t si = 0; si < sizeof seeds / sizeof seeds[0]; si++) {
            for (int i = 0; i < 5000; i++) {
                const uint64_t x = i < 4 ? (uint64_t)0 - (uint64_t)i : equiv_splitmix(&s);
                uint64_t ref[2], a[2], b[2];
                sbf_murmur3_x64_128(&x, 8, seeds[si], ref);
                o->murmur3_u64(x, seeds[si], a);
                o->hash8(x, seeds[si], b);
                cr_assert(a[0] == ref[0] && a[1] == ref[1], "%s: u64 hash of %llx", o->name,
                          (unsigned long long)x);
                cr_assert(b[0] == ref[0] && b[1] == ref[1], "%s: probe hash of %llx", o->name,
                          (unsigned long long)x);
                cr_assert_eq(o->xxh64_u64(x), sbf_xxh64(&x, 8), "%s: XXH64 of %llx", o->name,
                             (unsigned long long)x);
                cr_assert_eq(o->xxh3_u64(x, seeds[si]), sbf_xxh3_64(&x, 8, seeds[si]),
                             "%s: XXH3 of %llx seed %u", o->name, (unsigned long long)x,
                             seeds[si]);
            }
            for (size_t len = 0; len <= 80; len++) {
                uint64_t ref[2], a[2];
                sbf_murmur3_x64_128(bytes + len, len, seeds[si], ref);
                o->murmur3_bytes(bytes + len, len, seeds[si], a);
                cr_assert(a[0] == ref[0] && a[1] == ref[1], "%s: %zu bytes", o->name, len);
            }
            uint64_t ref[2], a[2];
            sbf_murmur3_x64_128(NULL, 0, seeds[si], ref);
            o->murmur3_bytes(NULL, 0, seeds[si], a);
            cr_assert(a[0] == ref[0] && a[1] == ref[1], "%s: the empty key", o->name);
        }
    }
}

/* The known vector of tests/test_hash.c, so the header is not only compared
 * with the library (which hashes with it): MurmurHash3_x64_128("hello",
 * seed 0) = cbd8a7b341bd9b02 5b1e906a48ae1d19 (h1, h2). */
Test(inline, known_vector, .description = "the inline MurmurHash3 gives a published digest") {
    uint64_t h[2];
    sbf_murmur3_bytes("hello", 5, 0, h);
    cr_assert_eq(h[0], UINT64_C(0xcbd8a7b341bd9b02));
    cr_assert_eq(h[1], UINT64_C(0x5b1e906a48ae1d19));
}

Test(inline, hash_calls, .description = "sbf_add_hash / sbf_contains_hash equal the keyed calls and refuse as they do") {
    unsigned char bytes[64];
    uint64_t s = 5;
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)equiv_splitmix(&s);
    for (size_t gi = 0; gi < sizeof geoms / sizeof geoms[0]; gi++) {
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
            sbf_filter *a = tu_make_on(SBF_ISA_AUTO, &geoms[gi], flags);
            sbf_filter *b = tu_make_on(SBF_ISA_AUTO, &geoms[gi], flags);
            for (size_t i = 0; i < 400; i++) {
                uint64_t h[2];
                const size_t len = i % 33;
                const void *key = bytes + i % 31;
                pair_of(geoms[gi].layout, key, len, geoms[gi].seed, h);
                cr_assert_eq(sbf_add(a, key, len), sbf_add_hash(b, h[0], h[1]));
                pair_of(geoms[gi].layout, bytes + i % 29, len + 1, geoms[gi].seed, h);
                cr_assert_eq(sbf_contains(a, bytes + i % 29, len + 1),
                             sbf_contains_hash(b, h[0], h[1]));
            }
            same_state(a, b, "sbf_add_hash");
            sbf_free(a);
            sbf_free(b);
        }
    }
    sbf_isa_set(SBF_ISA_AUTO);
    cr_assert_eq(sbf_add_hash(NULL, 1, 2), SBF_E_NULL);
    cr_assert_eq(sbf_contains_hash(NULL, 1, 2), SBF_E_NULL);
    sbf_view v;
    cr_assert_eq(sbf_view_get(NULL, &v), SBF_E_NULL);
    cr_assert_eq(sbf_view_get_writable(NULL, &v), SBF_E_NULL);
}

Test(inline, mapped, .description = "a read-only mapping gives query views only; adds are refused, nothing changes") {
    char path[256];
    snprintf(path, sizeof path, "/tmp/sbf-inline-%ld.sbf", (long)getpid());
    const geometry g = { SBF_BLOCKED, 7, 512 * 16, 3 };
    sbf_filter *f = tu_make_on(SBF_ISA_AUTO, &g, 0);
    for (uint64_t i = 0; i < 300; i++)
        cr_assert_geq(sbf_add(f, &i, 8), 0);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    sbf_filter *m = NULL;
    cr_assert_eq(sbf_map(&m, path, 0), SBF_OK);
    unlink(path);
    sbf_view v;
    cr_assert_eq(sbf_view_get_writable(m, &v), SBF_E_READONLY);
    cr_assert_eq(sbf_view_get(m, &v), SBF_OK);
    for (int w = 0; variant(w) != NULL; w++) {
        const inline_ops *o = variant(w);
        for (uint64_t i = 0; i < 600; i++)
            cr_assert_eq(o->view.contains_u64(&v, i), sbf_contains(f, &i, 8), "%s key %llu", o->name,
                         (unsigned long long)i);
        cr_assert_eq(o->view.add_u64(&v, 1000), SBF_E_READONLY);
        cr_assert_eq(o->view.add_hash(&v, 1, 2), SBF_E_READONLY);
        /* narrowed: the same answers, the same refusals */
        for (uint64_t i = 0; i < 600; i++)
            cr_assert_eq(o->narrowed.contains_u64(&v, i), sbf_contains(f, &i, 8), "%s key %llu",
                         o->name, (unsigned long long)i);
        cr_assert_eq(o->narrowed.add_u64(&v, 1000), SBF_E_READONLY);
        cr_assert_eq(o->narrowed.add(&v, "abc", 3), SBF_E_READONLY);
        cr_assert_eq(o->narrowed.add_hash(&v, 1, 2), SBF_E_READONLY);
    }
    cr_assert_eq(sbf_add_hash(m, 1, 2), SBF_E_READONLY);
    cr_assert(equiv_same_bytes(f, m));
    sbf_free(m);
    sbf_free(f);
    sbf_isa_set(SBF_ISA_AUTO);
}

/* All fields zero: what a refused narrowing leaves. */
static int narrow_zeroed(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0)
            return 0;
    return 1;
}

Test(inline, narrowing, .description = "sbf_view_split / _blocked / _parquet / _counting take exactly the plain split-block (k = 8), blocked, parquet and counting filters") {
    for (size_t gi = 0; gi < sizeof geoms / sizeof geoms[0]; gi++) {
        const geometry *g = &geoms[gi];
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags += SBF_CONCURRENT) {
            sbf_filter *f = tu_make_on(SBF_ISA_AUTO, g, flags);
            const int which = narrowing_of(g, flags);
            const int want_split = which == NARROW_SPLIT ? SBF_OK : SBF_E_UNSUPPORTED;
            const int want_blocked = which == NARROW_BLOCKED ? SBF_OK : SBF_E_UNSUPPORTED;
            const int want_parquet = which == NARROW_PARQUET ? SBF_OK : SBF_E_UNSUPPORTED;
            const int want_counting = which == NARROW_COUNTING ? SBF_OK : SBF_E_UNSUPPORTED;
            for (int writable = 0; writable < 2; writable++) {
                sbf_view v;
                cr_assert_eq(writable ? sbf_view_get_writable(f, &v) : sbf_view_get(f, &v),
                             SBF_OK);
                sbf_split_view s;
                sbf_blocked_view b;
                sbf_parquet_view pq;
                sbf_counting_view c;
                memset(&c, 0xa5, sizeof c);
                memset(&s, 0xa5, sizeof s);
                memset(&b, 0xa5, sizeof b);
                memset(&pq, 0xa5, sizeof pq);
                const int rs = sbf_view_split(&v, &s), rb = sbf_view_blocked(&v, &b);
                const int rp = sbf_view_parquet(&v, &pq), rc = sbf_view_counting(&v, &c);
                cr_assert_eq(rc, want_counting, "layout %d k %u flags %u writable %d: %d",
                             g->layout, g->k, flags, writable, rc);
                if (rc != SBF_OK)
                    cr_assert(narrow_zeroed(&c, sizeof c), "a refused narrowing leaves zeros");
                else
                    cr_assert(c.v.k == g->k && c.v.words == v.words &&
                              c.v.nblocks == v.nblocks && c.v.lanes == v.lanes &&
                              c.v.writable == writable);
                cr_assert_eq(rp, want_parquet, "layout %d k %u flags %u writable %d: %d",
                             g->layout, g->k, flags, writable, rp);
                if (rp != SBF_OK)
                    cr_assert(narrow_zeroed(&pq, sizeof pq), "a refused narrowing leaves zeros");
                else
                    cr_assert(pq.v.words == v.words && pq.v.writable == writable);
                cr_assert_eq(rs, want_split, "layout %d k %u flags %u writable %d: %d",
                             g->layout, g->k, flags, writable, rs);
                cr_assert_eq(rb, want_blocked, "layout %d k %u flags %u writable %d: %d",
                             g->layout, g->k, flags, writable, rb);
                if (rs != SBF_OK)
                    cr_assert(narrow_zeroed(&s, sizeof s), "a refused narrowing leaves zeros");
                else
                    cr_assert(s.v.words == v.words && s.v.nblocks == v.nblocks &&
                              s.v.writable == writable);
                if (rb != SBF_OK)
                    cr_assert(narrow_zeroed(&b, sizeof b), "a refused narrowing leaves zeros");
                else
                    cr_assert(b.v.k == g->k && b.v.words == v.words && b.v.writable == writable);
            }
            sbf_free(f);
        }
    }
    sbf_view v;
    sbf_split_view s;
    sbf_blocked_view b;
    sbf_filter *f = tu_make_on(SBF_ISA_AUTO, &geoms[2], 0);
    cr_assert_eq(sbf_view_get(f, &v), SBF_OK);
    cr_assert_eq(sbf_view_split(NULL, &s), SBF_E_NULL);
    cr_assert_eq(sbf_view_blocked(NULL, &b), SBF_E_NULL);
    cr_assert_eq(sbf_view_split(&v, NULL), SBF_E_NULL);
    cr_assert_eq(sbf_view_blocked(&v, NULL), SBF_E_NULL);
    sbf_parquet_view pq;
    cr_assert_eq(sbf_view_parquet(NULL, &pq), SBF_E_NULL);
    cr_assert_eq(sbf_view_parquet(&v, NULL), SBF_E_NULL);
    sbf_counting_view c;
    cr_assert_eq(sbf_view_counting(NULL, &c), SBF_E_NULL);
    cr_assert_eq(sbf_view_counting(&v, NULL), SBF_E_NULL);
    /* a counting view that calls the library (as views from older
     * libraries did): refused */
    sbf_filter *fc = tu_make_on(SBF_ISA_AUTO, &geoms[16], 0);
    cr_assert_eq(fc != NULL && geoms[16].layout == SBF_COUNTING, 1);
    cr_assert_eq(sbf_view_get(fc, &v), SBF_OK);
    cr_assert_eq(sbf_view_counting(&v, &c), SBF_OK);
    v.query = SBF_VIEW_CALL;
    cr_assert_eq(sbf_view_counting(&v, &c), SBF_E_UNSUPPORTED);
    cr_assert(narrow_zeroed(&c, sizeof c), "a refused narrowing leaves zeros");
    sbf_free(fc);
    sbf_free(f);
    sbf_isa_set(SBF_ISA_AUTO);
}
