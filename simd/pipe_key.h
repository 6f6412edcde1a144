/*
 * Single keys (sbf_add, sbf_contains; plain and SBF_CONCURRENT) on the
 * vector probes of the including ISA file, which includes it after
 * simd/pipeline.h (whose hooks and simd/pipe_ops.h it uses). Batches are
 * simd/pipeline.h's; this file is the one-key path only.
 */
#ifndef SBFI_PIPE_KEY_H
#define SBFI_PIPE_KEY_H

#include "pipe_ops.h"

/* The keys pipe_key8 and pipe_keyn (below) do not take: every key of
 * classic, SBF_CONCURRENT and parquet filters, counting filters' keys that
 * are not 8 bytes long, and every key on ISAs without the header's vector
 * probes. The hash stage (sbfi_key_hash: MurmurHash3, the u64 path inline
 * for 8-byte keys; or a 64-bit stage's h mapped to (h1, h2)), the
 * block from one multiply-shift, the ISA's vector probe; an add first asks
 * whether every bit is already set (its return value, and no store when
 * it is), except a counting add, which tells from the words it loads.
 * Where a blocked add's time went (AVX-512, 256 KiB filter, k = 7, u64 keys,
 * best of 41 runs per 2048-key chunk): contains 6.05 ns, add 13.1; a mask
 * of masked byte broadcasts 14.2, of per-position vpermd/vpsllvd 17.8. What
 * won (include/simdbloom_inline_x86.h, sbf_inl_blocked_put): each position
 * broadcast from memory and shifted into its 32-bit word by one vpsllvd
 * against the words' base offsets, three instructions a position, one store
 * (peer driver, 16 KiB: one-key fresh add 6.99 -> 6.02 ns with AVX-512, 7.60
 * -> 5.89 with AVX2; 5.34 and 5.96 with the hash's later cuts). The AVX2
 * batch keeps its probe and stores: the mask in two halves measured slower
 * there (5.5 -> 6.8 ns).
 * pipe_hashed is the probe after the hash, pipe_key the hash and it;
 * sbf_add_hash / sbf_contains_hash take pipe_hashed through the table's
 * *_hashed entries (below).
 * `f` is const for the reasons simd/pipe_ops.h gives: an add writes f->words.
 */
PIPE_INLINE int pipe_hashed(const sbf_filter *f, uint64_t h1, uint64_t h2,
                            const int fam, const int is_add, const int atomic)
{
    if (fam == SBFI_KERN_CLASSIC) /* k divisions, none computed ahead */
        return is_add ? pipe_classic_add(f, h1, h2, NULL, 0, atomic)
                      : pipe_classic_contains(f, h1, h2, NULL, 0, atomic);
    pipe_ctx c;
    pipe_ctx_init_key(&c, f);
    void *blk = sbfi_block_ptr(f, h1);
    const void *q = blk;
    if (is_add && fam == SBFI_KERN_COUNTING) /* it tells from the words it loads */
        return atomic ? pipe_counting_add_atomic(&c, blk, h2, f->k)
                      : pipe_counting_add(&c, blk, h2, f->k);
    PIPE_ALIGN(64) sbfi_u64_alias copy[8];
    if (atomic) {
        pipe_copy_block_atomic(copy, (const uint64_t *)blk, f->block_bytes / 8);
        q = copy;
    }
    int present;
    switch (fam) {
    case SBFI_KERN_BLOCKED: present = pipe_blocked_contains(&c, q, h2); break;
    case SBFI_KERN_SPLIT: present = pipe_split_contains(&c, q, h2); break;
    default: present = pipe_counting_contains(&c, q, h2); break;
    }
    if (!is_add)
        return present;
    if (present)
        return 0;
    if (fam == SBFI_KERN_BLOCKED) {
        if (atomic)
            (void)pipe_blocked_add_atomic(&c, blk, h2, f->k);
        else
            pipe_blocked_set(&c, blk, h2, f->k);
    } else {
        if (atomic)
            (void)pipe_split_add_atomic(&c, blk, h2, f->k);
        else
            (void)pipe_split_add(&c, blk, h2);
    }
    return 1;
}

/* An 8-byte key on a plain blocked or split-block filter: the probes of
 * include/simdbloom_inline.h, compiled with this file's flags (the code the
 * inline path runs; on AVX-512 the hash in the form pipe_hash8 takes),
 * blocked adds unrolled by k. Taken where that header has vector probes for
 * these flags (AVX2, AVX-512); elsewhere pipe_key serves every key.
 * Measured (peer driver, 16 KiB filter, AVX-512, busy machine): one-key
 * contains split-block 3.95 -> 3.2 ns, blocked 4.27 -> 3.8; at 1 GiB
 * 54 -> 34 ns (fewer instructions per call: more calls in flight).
 * Counting filters take it too, with this file's counting probe and add
 * (sbf-bench --suite tput, L2, three interleaved runs: contains 4.21-4.38
 * -> 3.29-3.49 ns on AVX-512, 4.35 -> 3.87 on AVX2). Their add keeps the
 * scalar hash: it is bound by vector instructions (mask and saturating add),
 * and the vector hash's six more made it slower (5.51-5.63 -> 5.75-5.99),
 * the scalar one runs beside them on the integer multiplier (5.56-5.65);
 * blocked adds measured the same either way (5.30 / 5.31), split-block adds
 * slower with the scalar hash (3.24 -> 3.64). Tried: one-key blocked and
 * counting adds jumping once on k to a copy of the mask unrolled for it
 * (no odd-k branch, no second jump into the pairs; tput, L2, three
 * interleaved runs): blocked 5.47-5.53 -> 5.39-5.54 ns on AVX-512 and
 * 6.16-6.24 -> 5.94-6.01 on AVX2, counting 5.82-5.92 -> 6.05-6.12 on
 * AVX-512 and the same on AVX2; not kept for 1-4% on one ISA. The same
 * switch inside sbf_inl_blocked_put made batched adds slower (2.99-3.06
 * -> 3.39-3.44). */
#if SBF_INL_AVX512 || SBF_INL_AVX2
#  define PIPE_KEY8 1
PIPE_INLINE int pipe_keyb(const sbf_filter *f, uint64_t b, sbf_inl_h2 h2,
                          const int fam, const int is_add, const int geo)
{
    uint64_t *const w = f->words;
    if (fam == SBFI_KERN_BLOCKED)
        return is_add ? sbf_inl_blocked_add_test(w + b * 8, f->salt, f->k, f->lanes, h2)
                      : sbf_inl_blocked_has(w + b * 8, f->salt, f->k, f->lanes, h2);
    if (geo == 8 || (geo == 0 && SBFI_LIKELY(f->k == 8))) /* geo 0: f->k tells */
        return is_add ? sbf_inl_split8_add(w + b * 4, f->salt, h2)
                      : sbf_inl_split8_has(w + b * 4, f->salt, h2);
    return is_add ? sbf_inl_split16_add(w + b * 8, f->salt, h2)
                  : sbf_inl_split16_has(w + b * 8, f->salt, h2);
}

PIPE_INLINE int pipe_keyh(const sbf_filter *f, uint64_t h1, sbf_inl_h2 h2,
                          const int fam, const int is_add, const int geo)
{
    return pipe_keyb(f, sbf_block_index(h1, f->nblocks), h2, fam, is_add, geo);
}

/* The 8-byte key's hash (s8add: the filter's seed state): with vh (AVX-512
 * only: the *_key_vh entries, which sbfi_bind gives the filters whose CPU or
 * size asks for it; include/simdbloom_inline.h's SBF_INLINE_HASH8_VEC says
 * why) in the vector form, else two scalar chains. */
PIPE_INLINE sbf_inl_h2 pipe_hash8(const sbf_filter *f, uint64_t key, uint64_t *h1,
                                  const int vh)
{
#if SBF_INL_AVX512
    if (vh)
        return sbf_inl_hash8s_vec(key, f->s8add, h1);
#else
    (void)vh;
#endif
    return sbf_inl_h2_of(sbf_inl_hash8_u64(key, f->s8add[0], h1));
}

PIPE_INLINE int pipe_key8(const sbf_filter *f, uint64_t key, const int fam,
                          const int is_add, const int vh, const int geo)
{
    uint64_t h1;
    if (fam == SBFI_KERN_COUNTING) { /* the header has no counting probes */
        pipe_ctx c;
        pipe_ctx_init_key(&c, f);
        if (is_add) { /* the scalar hash: see above */
            uint64_t h2;
            sbfi_murmur3_u64(key, f->seed, &h1, &h2);
            return pipe_counting_add(&c, sbfi_block_ptr(f, h1), h2, f->k);
        }
        const sbf_inl_h2 h2 = pipe_hash8(f, key, &h1, vh);
        return pipe_counting_contains(&c, sbfi_block_ptr(f, h1), sbf_inl_h2_u64(h2));
    }
    const sbf_inl_h2 h2 = pipe_hash8(f, key, &h1, vh);
    return pipe_keyh(f, h1, h2, fam, is_add, geo);
}

/* Keys of any other length: MurmurHash3 of the bytes in registers (the
 * header's sbf_murmur3_bytes, no call), then the same probes, in functions
 * of their own (PIPE_KEY_STR_ATTR) so the 8-byte entries keep their small
 * frames. Measured (AVX-512, 256 KiB filter, 4096 keys of 8..64 random
 * bytes, best of 30, against pipe_key's out-of-line hash and probes):
 * contains blocked 9.2 -> 8.6 ns, split-block 8.4 -> 7.6; fresh add
 * blocked 11.7 -> 10.6, split-block 9.2 -> 8.8; re-adding a present key
 * blocked 9.5 -> 10.1, as 8-byte keys: the add builds its mask without
 * probing first (sbf_inl_blocked_add), split-block 8.7 -> 8.4. */
#  define PIPE_KEY_STR_ATTR __attribute__((noinline))
PIPE_INLINE int pipe_keyn(const sbf_filter *f, const void *key, size_t len,
                          const int fam, const int is_add)
{
    uint64_t h[2];
    sbf_murmur3_bytes(key, len, f->seed, h);
    return pipe_keyh(f, h[0], sbf_inl_h2_of(h[1]), fam, is_add, 0);
}

/* An XXH3 or fmix key (hash, a constant) on a plain blocked or split-block
 * filter (pipe_key's form, below). pow2, a constant: the filter's block count is 2^j (sbfi_bind
 * gives such filters the _pow2 entries, SBFI_MODE_POW2), so the block
 * ((h >> 32) * 2^j) >> 32 is h >> block_shift: one shift for the multiply,
 * no test per key (a test there cost every other block count 3
 * instructions a key). */
PIPE_INLINE int pipe_key_xxh3(const sbf_filter *f, const void *key, size_t len,
                              const int fam, const int is_add, const int pow2,
                              const int hash, const int geo)
{
    const uint64_t h = sbfi_h64_one(f, hash, key, len);
    return pipe_keyb(f, pow2 ? h >> f->block_shift : sbf__block_index64(h, f->nblocks),
                     sbf_inl_h2_of32((uint32_t)h), fam, is_add, geo);
}
#else
#  define PIPE_KEY8 0
PIPE_INLINE int pipe_key8(const sbf_filter *f, uint64_t key, const int fam,
                          const int is_add, const int vh, const int geo)
{
    (void)f; (void)key; (void)fam; (void)is_add; (void)vh; (void)geo;
    return 0; /* never called: PIPE_KEY8 is 0 */
}
#  define PIPE_KEY_STR_ATTR
PIPE_INLINE int pipe_keyn(const sbf_filter *f, const void *key, size_t len,
                          const int fam, const int is_add)
{
    (void)f; (void)key; (void)len; (void)fam; (void)is_add;
    return 0; /* never called: PIPE_KEY8 is 0 */
}
#endif

/* the families whose plain filters take the header's probes (FAST8: for
 * 8-byte MurmurHash3 keys, counting too, pipe_key8) */
#define PIPE_KEY_FAST(fam) \
    (PIPE_KEY8 && ((fam) == SBFI_KERN_BLOCKED || (fam) == SBFI_KERN_SPLIT))
#define PIPE_KEY_FAST8(fam) (PIPE_KEY_FAST(fam) || (PIPE_KEY8 && (fam) == SBFI_KERN_COUNTING))

/* One key: hash -> (block, bits) -> probe. Its hash stage (`hash`, a
 * constant: the two cases of src/sbf_internal.h's sbfi_key_hash), then the
 * probe: the header's (pipe_keyh) for plain
 * blocked and split-block filters where this ISA has it, pipe_hashed
 * otherwise. Tried: XXH3 of 8 bytes in a vector on AVX-512
 * (vpternlogq, two vpmullq, h2 one vpshufd, as MurmurHash3's vector form):
 * interleaved A/B on Zen 5, 256 KiB, sbf_contains, best of 400 rounds:
 * split-block-xxh3 2.41-2.49 ns scalar vs 2.71-2.78 vector, blocked-xxh3
 * 2.91-2.98 vs 3.19-3.25; not kept. */
PIPE_INLINE int pipe_key(const sbf_filter *f, const void *key, size_t len,
                         const int fam, const int is_add, const int atomic,
                         const int hash)
{
    uint64_t h1, h2;
    if (hash == SBFI_HASH_MURMUR3) {
        sbfi_hash_key(key, len, f->seed, &h1, &h2);
        return pipe_hashed(f, h1, h2, fam, is_add, atomic);
    }
#if PIPE_KEY8
    if ((hash == SBFI_HASH_XXH3 || hash == SBFI_HASH_FMIX) && !atomic && PIPE_KEY_FAST(fam)) {
        /* the inline view's form (include/simdbloom_inline.h,
         * sbf_inl_key8): sbf_block_index of h's high half with nblocks <
         * 2^32 (src/layout.c asserts it) is ((h >> 32) * nblocks) >> 32,
         * a 64-bit multiply, not the 128-bit one; h2 one 32-bit broadcast.
         * AVX-512 contains, split-block k = 8: 43 -> 39 instructions a key,
         * the inline view's loop body plus the call. bench-inline (Zen 5,
         * loaded, 16 KiB-8 MiB): no-march/native split-block-xxh3 add
         * 1.27-1.30x -> 1.19-1.22x, blocked-xxh3 contains 1.14-1.26x ->
         * 1.06-1.14x. Tried, no change measured: the salts as the
         * constant SBF_SALT (the view's) instead of f->salt, and the
         * k = 8 split-block branch laid out as the fall-through. */
        return pipe_key_xxh3(f, key, len, fam, is_add, 0, hash, 0);
    }
#endif
    sbfi_xxh64_pair(sbfi_h64_one(f, hash, key, len), &h1, &h2);
#if PIPE_KEY8
    if (!atomic && PIPE_KEY_FAST(fam))
        return pipe_keyh(f, h1, sbf_inl_h2_of(h2), fam, is_add, 0);
#endif
    return pipe_hashed(f, h1, h2, fam, is_add, atomic);
}

/* ---------------------------------------------------------- the entries
 * The one-key and hashed entries of the ops (simd/pipe_table.h), named
 * <op>_<family>_<hash>[_atomic|_vh|_pow2]. Each line below defines the functions
 * it names, for one (family, hash stage, mode): all of them are pipe_key
 * (or pipe_hashed) with those three constants.
 *
 * A plain entry whose 8-byte keys have an inline path (PIPE_KEY_SPLIT: the
 * 64-bit stages, and MurmurHash3 where this ISA has the header's probes)
 * takes them with the length a constant (no call, no stack frame) and
 * tail-calls its keyn_ half for other lengths (PIPE_KEY_STR_ATTR: out of
 * line, so the 8-byte path keeps its small frame). The others are pipe_key
 * whole. SBF_CONCURRENT entries (_atomic) are pipe_key with atomic = 1. */

/* 8-byte keys of a plain entry: MurmurHash3 through pipe_key8 (the header's
 * probes, vh: the hash's vector form) where the family has it, else
 * pipe_key with the length a constant. */
PIPE_INLINE int pipe_key8_entry(const sbf_filter *f, const void *key, const int fam,
                                const int hash, const int is_add, const int vh)
{
    if (hash == SBFI_HASH_MURMUR3 && PIPE_KEY_FAST8(fam))
        return pipe_key8(f, sbf__load64((const unsigned char *)key), fam, is_add, vh, 0);
    return pipe_key(f, key, 8, fam, is_add, 0, hash);
}

/* Other lengths of a plain entry: MurmurHash3 of the bytes in registers
 * (pipe_keyn) where the family has the header's probes, else pipe_key. */
PIPE_INLINE int pipe_keyn_entry(const sbf_filter *f, const void *key, size_t len,
                                const int fam, const int hash, const int is_add)
{
    if (hash == SBFI_HASH_MURMUR3 && PIPE_KEY_FAST(fam))
        return pipe_keyn(f, key, len, fam, is_add);
    return pipe_key(f, key, len, fam, is_add, 0, hash);
}

#define PIPE_KEY_SPLIT(fam, hash) ((hash) != SBFI_HASH_MURMUR3 || PIPE_KEY_FAST8(fam))
#if defined(__GNUC__)
#  define PIPE_MAYBE_UNUSED __attribute__((unused))
#else
#  define PIPE_MAYBE_UNUSED
#endif

/* name: the plain add; name_n: its other lengths */
#define PIPE_ADD_KEY(name, name_n, fam, hash)                                  \
    PIPE_KEY_STR_ATTR PIPE_MAYBE_UNUSED static int name_n(sbf_filter *f,       \
                                                          const void *key,     \
                                                          size_t len)          \
    {                                                                          \
        return sbfi_count_plain(f, pipe_keyn_entry(f, key, len, fam, hash, 1)); \
    }                                                                          \
    static int name(sbf_filter *f, const void *key, size_t len)                \
    {                                                                          \
        if (!PIPE_KEY_SPLIT(fam, hash))                                        \
            return sbfi_count_plain(f, pipe_key(f, key, len, fam, 1, 0, hash)); \
        if (SBFI_LIKELY(len == 8))                                             \
            return sbfi_count_plain(f, pipe_key8_entry(f, key, fam, hash, 1, 0)); \
        return name_n(f, key, len);                                            \
    }
#define PIPE_CONTAINS_KEY(name, name_n, fam, hash)                             \
    PIPE_KEY_STR_ATTR PIPE_MAYBE_UNUSED static int name_n(const sbf_filter *f, \
                                                          const void *key,     \
                                                          size_t len)          \
    {                                                                          \
        return pipe_keyn_entry(f, key, len, fam, hash, 0);                     \
    }                                                                          \
    static int name(const sbf_filter *f, const void *key, size_t len)          \
    {                                                                          \
        if (!PIPE_KEY_SPLIT(fam, hash))                                        \
            return pipe_key(f, key, len, fam, 0, 0, hash);                     \
        if (SBFI_LIKELY(len == 8))                                             \
            return pipe_key8_entry(f, key, fam, hash, 0, 0);                   \
        return name_n(f, key, len);                                            \
    }
#define PIPE_ADD_KEY_ATOMIC(name, fam, hash)                                   \
    static int name(sbf_filter *f, const void *key, size_t len)                \
    {                                                                          \
        return sbfi_count_atomic(f, pipe_key(f, key, len, fam, 1, 1, hash));   \
    }
#define PIPE_CONTAINS_KEY_ATOMIC(name, fam, hash)                              \
    static int name(const sbf_filter *f, const void *key, size_t len)          \
    {                                                                          \
        return pipe_key(f, key, len, fam, 0, 1, hash);                         \
    }

/* MurmurHash3_x64_128 (classic, blocked, split-block, counting) */
PIPE_ADD_KEY(add_key_classic_murmur3, add_keyn_classic_murmur3, SBFI_KERN_CLASSIC, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY(contains_key_classic_murmur3, contains_keyn_classic_murmur3, SBFI_KERN_CLASSIC, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY(add_key_blocked_murmur3, add_keyn_blocked_murmur3, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY(contains_key_blocked_murmur3, contains_keyn_blocked_murmur3, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY(add_key_split_murmur3, add_keyn_split_murmur3, SBFI_KERN_SPLIT, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY(contains_key_split_murmur3, contains_keyn_split_murmur3, SBFI_KERN_SPLIT, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY(add_key_counting_murmur3, add_keyn_counting_murmur3, SBFI_KERN_COUNTING, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY(contains_key_counting_murmur3, contains_keyn_counting_murmur3, SBFI_KERN_COUNTING, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY_ATOMIC(add_key_classic_murmur3_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_classic_murmur3_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY_ATOMIC(add_key_blocked_murmur3_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_blocked_murmur3_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY_ATOMIC(add_key_split_murmur3_atomic, SBFI_KERN_SPLIT, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_split_murmur3_atomic, SBFI_KERN_SPLIT, SBFI_HASH_MURMUR3)
PIPE_ADD_KEY_ATOMIC(add_key_counting_murmur3_atomic, SBFI_KERN_COUNTING, SBFI_HASH_MURMUR3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_counting_murmur3_atomic, SBFI_KERN_COUNTING, SBFI_HASH_MURMUR3)

/* XXH64 (parquet) */
PIPE_ADD_KEY(add_key_classic_xxh64, add_keyn_classic_xxh64, SBFI_KERN_CLASSIC, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY(contains_key_classic_xxh64, contains_keyn_classic_xxh64, SBFI_KERN_CLASSIC, SBFI_HASH_XXH64)
PIPE_ADD_KEY(add_key_blocked_xxh64, add_keyn_blocked_xxh64, SBFI_KERN_BLOCKED, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY(contains_key_blocked_xxh64, contains_keyn_blocked_xxh64, SBFI_KERN_BLOCKED, SBFI_HASH_XXH64)
PIPE_ADD_KEY(add_key_split_xxh64, add_keyn_split_xxh64, SBFI_KERN_SPLIT, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY(contains_key_split_xxh64, contains_keyn_split_xxh64, SBFI_KERN_SPLIT, SBFI_HASH_XXH64)
PIPE_ADD_KEY(add_key_counting_xxh64, add_keyn_counting_xxh64, SBFI_KERN_COUNTING, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY(contains_key_counting_xxh64, contains_keyn_counting_xxh64, SBFI_KERN_COUNTING, SBFI_HASH_XXH64)
PIPE_ADD_KEY_ATOMIC(add_key_classic_xxh64_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_classic_xxh64_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_XXH64)
PIPE_ADD_KEY_ATOMIC(add_key_blocked_xxh64_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_blocked_xxh64_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_XXH64)
PIPE_ADD_KEY_ATOMIC(add_key_split_xxh64_atomic, SBFI_KERN_SPLIT, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_split_xxh64_atomic, SBFI_KERN_SPLIT, SBFI_HASH_XXH64)
PIPE_ADD_KEY_ATOMIC(add_key_counting_xxh64_atomic, SBFI_KERN_COUNTING, SBFI_HASH_XXH64)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_counting_xxh64_atomic, SBFI_KERN_COUNTING, SBFI_HASH_XXH64)

/* XXH3_64bits (the *-xxh3 layouts) */
PIPE_ADD_KEY(add_key_classic_xxh3, add_keyn_classic_xxh3, SBFI_KERN_CLASSIC, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY(contains_key_classic_xxh3, contains_keyn_classic_xxh3, SBFI_KERN_CLASSIC, SBFI_HASH_XXH3)
PIPE_ADD_KEY(add_key_blocked_xxh3, add_keyn_blocked_xxh3, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY(contains_key_blocked_xxh3, contains_keyn_blocked_xxh3, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_ADD_KEY(add_key_split_xxh3, add_keyn_split_xxh3, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY(contains_key_split_xxh3, contains_keyn_split_xxh3, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_ADD_KEY(add_key_counting_xxh3, add_keyn_counting_xxh3, SBFI_KERN_COUNTING, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY(contains_key_counting_xxh3, contains_keyn_counting_xxh3, SBFI_KERN_COUNTING, SBFI_HASH_XXH3)
PIPE_ADD_KEY_ATOMIC(add_key_classic_xxh3_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_classic_xxh3_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_XXH3)
PIPE_ADD_KEY_ATOMIC(add_key_blocked_xxh3_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_blocked_xxh3_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_ADD_KEY_ATOMIC(add_key_split_xxh3_atomic, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_split_xxh3_atomic, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_ADD_KEY_ATOMIC(add_key_counting_xxh3_atomic, SBFI_KERN_COUNTING, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_counting_xxh3_atomic, SBFI_KERN_COUNTING, SBFI_HASH_XXH3)

/* fmix64 of 8 bytes, XXH3 of others (the *-fmix layouts) */
PIPE_ADD_KEY(add_key_classic_fmix, add_keyn_classic_fmix, SBFI_KERN_CLASSIC, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY(contains_key_classic_fmix, contains_keyn_classic_fmix, SBFI_KERN_CLASSIC, SBFI_HASH_FMIX)
PIPE_ADD_KEY(add_key_blocked_fmix, add_keyn_blocked_fmix, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY(contains_key_blocked_fmix, contains_keyn_blocked_fmix, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_ADD_KEY(add_key_split_fmix, add_keyn_split_fmix, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY(contains_key_split_fmix, contains_keyn_split_fmix, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
PIPE_ADD_KEY(add_key_counting_fmix, add_keyn_counting_fmix, SBFI_KERN_COUNTING, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY(contains_key_counting_fmix, contains_keyn_counting_fmix, SBFI_KERN_COUNTING, SBFI_HASH_FMIX)
PIPE_ADD_KEY_ATOMIC(add_key_classic_fmix_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_classic_fmix_atomic, SBFI_KERN_CLASSIC, SBFI_HASH_FMIX)
PIPE_ADD_KEY_ATOMIC(add_key_blocked_fmix_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_blocked_fmix_atomic, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_ADD_KEY_ATOMIC(add_key_split_fmix_atomic, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_split_fmix_atomic, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
PIPE_ADD_KEY_ATOMIC(add_key_counting_fmix_atomic, SBFI_KERN_COUNTING, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_ATOMIC(contains_key_counting_fmix_atomic, SBFI_KERN_COUNTING, SBFI_HASH_FMIX)

#if PIPE_KEY8
/* XXH3 entries of filters with 2^j blocks, j >= 1 (SBFI_MODE_POW2, which
 * sbfi_bind chooses once): pipe_key_xxh3 with pow2 = 1, every length; the
 * batch and hashed entries are the plain set's. Only where this ISA has the
 * header's probes (elsewhere that mode is the plain set). */
#  define PIPE_KEY_POW2 1
#  define PIPE_ADD_KEY_POW2(name, name_n, fam, hash)                           \
    PIPE_KEY_STR_ATTR static int name_n(sbf_filter *f, const void *key, size_t len) \
    {                                                                          \
        return sbfi_count_plain(f, pipe_key_xxh3(f, key, len, fam, 1, 1, hash, 0));     \
    }                                                                          \
    static int name(sbf_filter *f, const void *key, size_t len)                \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return sbfi_count_plain(f, pipe_key_xxh3(f, key, 8, fam, 1, 1, hash, 0));   \
        return name_n(f, key, len);                                            \
    }
#  define PIPE_CONTAINS_KEY_POW2(name, name_n, fam, hash)                      \
    PIPE_KEY_STR_ATTR static int name_n(const sbf_filter *f, const void *key,  \
                                        size_t len)                            \
    {                                                                          \
        return pipe_key_xxh3(f, key, len, fam, 0, 1, hash, 0);                          \
    }                                                                          \
    static int name(const sbf_filter *f, const void *key, size_t len)          \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return pipe_key_xxh3(f, key, 8, fam, 0, 1, hash, 0);                        \
        return name_n(f, key, len);                                            \
    }
PIPE_ADD_KEY_POW2(add_key_blocked_xxh3_pow2, add_keyn_blocked_xxh3_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_POW2(contains_key_blocked_xxh3_pow2, contains_keyn_blocked_xxh3_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3)
PIPE_ADD_KEY_POW2(add_key_split_xxh3_pow2, add_keyn_split_xxh3_pow2, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_CONTAINS_KEY_POW2(contains_key_split_xxh3_pow2, contains_keyn_split_xxh3_pow2, SBFI_KERN_SPLIT, SBFI_HASH_XXH3)
PIPE_ADD_KEY_POW2(add_key_blocked_fmix_pow2, add_keyn_blocked_fmix_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_POW2(contains_key_blocked_fmix_pow2, contains_keyn_blocked_fmix_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX)
PIPE_ADD_KEY_POW2(add_key_split_fmix_pow2, add_keyn_split_fmix_pow2, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
PIPE_CONTAINS_KEY_POW2(contains_key_split_fmix_pow2, contains_keyn_split_fmix_pow2, SBFI_KERN_SPLIT, SBFI_HASH_FMIX)
#else
#  define PIPE_KEY_POW2 0
#endif

#if SBF_INL_AVX512
/* MurmurHash3 entries with 8-byte keys hashed in the vector form
 * (pipe_hash8), other lengths as the plain entry's (name_n) */
#  define PIPE_KEY_VH 1
#  define PIPE_ADD_KEY_VH(name, name_n, fam)                                   \
    static int name(sbf_filter *f, const void *key, size_t len)                \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return sbfi_count_plain(                                           \
                f, pipe_key8(f, sbf__load64((const unsigned char *)key), fam, 1, 1, 0)); \
        return name_n(f, key, len);                                            \
    }
#  define PIPE_CONTAINS_KEY_VH(name, name_n, fam)                              \
    static int name(const sbf_filter *f, const void *key, size_t len)          \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return pipe_key8(f, sbf__load64((const unsigned char *)key), fam, 0, 1, 0); \
        return name_n(f, key, len);                                            \
    }
/* (classic hashes no 8-byte key differently: it has no _vh entries) */
PIPE_ADD_KEY_VH(add_key_blocked_murmur3_vh, add_keyn_blocked_murmur3, SBFI_KERN_BLOCKED)
PIPE_CONTAINS_KEY_VH(contains_key_blocked_murmur3_vh, contains_keyn_blocked_murmur3, SBFI_KERN_BLOCKED)
PIPE_ADD_KEY_VH(add_key_split_murmur3_vh, add_keyn_split_murmur3, SBFI_KERN_SPLIT)
PIPE_CONTAINS_KEY_VH(contains_key_split_murmur3_vh, contains_keyn_split_murmur3, SBFI_KERN_SPLIT)
PIPE_ADD_KEY_VH(add_key_counting_murmur3_vh, add_keyn_counting_murmur3, SBFI_KERN_COUNTING)
PIPE_CONTAINS_KEY_VH(contains_key_counting_murmur3_vh, contains_keyn_counting_murmur3, SBFI_KERN_COUNTING)
#else
#  define PIPE_KEY_VH 0
#endif

#if PIPE_KEY8
/* Blocked adds of 8-byte keys with k a constant (pipe_add_k in
 * simd/pipe_table.h, which sbfi_bind takes for the filter's k): the mask
 * unrolled for that k, no jump on k; other lengths the mode's plain entry
 * (`plain`). hash: the stage (MurmurHash3 with vh, the vector form, or
 * XXH3 or fmix with pow2, the block one shift); a new stage is its case here, one
 * PIPE_ADD_KEY_K line below and its row of pipe_add_k. Measured (AVX-512,
 * Zen 5, loaded; sbf_add of fresh u64 keys, k = 7, alternated against the
 * jump on k, 4 runs): blocked-xxh3 -6..-9% at 16 KiB, 256 KiB and 8 MiB,
 * blocked 0..-6%. */
PIPE_INLINE int pipe_add8_blocked_k(sbf_filter *f, const void *key, const int hash,
                                    const int vh, const int pow2, const uint32_t k)
{
    uint64_t b;
    sbf_inl_h2 h2;
    if (hash == SBFI_HASH_XXH3 || hash == SBFI_HASH_FMIX) { /* as pipe_key_xxh3 */
        const uint64_t h = sbfi_h64_one(f, hash, key, 8);
        b = pow2 ? h >> f->block_shift : sbf__block_index64(h, f->nblocks);
        h2 = sbf_inl_h2_of32((uint32_t)h);
    } else { /* MurmurHash3, as pipe_key8 */
        uint64_t h1;
        h2 = pipe_hash8(f, sbf__load64((const unsigned char *)key), &h1, vh);
        b = sbf_block_index(h1, f->nblocks);
    }
    return sbfi_count_plain(f, sbf_inl_blocked_add_test(f->words + b * 8, f->salt, k,
                                                        f->lanes, h2));
}

/* Counting adds of 8-byte keys with k a constant (pipe_add_k's counting
 * rows): the hash and block as the plain entry's (MurmurHash3 scalar, as
 * pipe_key8's counting add; a 64-bit stage's h mapped by sbfi_xxh64_pair,
 * as pipe_key), the ISA's counting add with its mask unrolled for k.
 * Measured (sbf-bench --suite hot, sbf_add of fresh u64 keys, k = 7,
 * alternated against the jump on k, 4 runs, loaded Zen 5): AVX-512
 * counting 0.96-0.97x at 16 KiB and 256 KiB, counting-xxh3 0.92x, 8 MiB
 * 0.99-1.00x (memory); AVX2 0.99-1.00x. */
PIPE_INLINE int pipe_add8_counting_k(sbf_filter *f, const void *key, const int hash,
                                     const uint32_t k)
{
    uint64_t h1, h2;
    pipe_ctx c;
    pipe_ctx_init_key(&c, f);
    if (hash == SBFI_HASH_MURMUR3)
        sbfi_murmur3_u64(sbf__load64((const unsigned char *)key), f->seed, &h1, &h2);
    else
        sbfi_xxh64_pair(sbfi_h64_one(f, hash, key, 8), &h1, &h2);
    return sbfi_count_plain(f, pipe_counting_add(&c, sbfi_block_ptr(f, h1), h2, k));
}

/* fam: SBFI_KERN_BLOCKED or SBFI_KERN_COUNTING (vh, pow2: blocked only) */
#  define PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, K)                 \
    static int name##_##K(sbf_filter *f, const void *key, size_t len)          \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return fam == SBFI_KERN_COUNTING                                   \
                       ? pipe_add8_counting_k(f, key, hash, K)                 \
                       : pipe_add8_blocked_k(f, key, hash, vh, pow2, K);       \
        return plain(f, key, len);                                             \
    }
/* name_1 .. name_16 and name[k], k = 1..16 (name[0] unused) */
#  define PIPE_ADD_KEY_K(name, plain, fam, hash, vh, pow2)                     \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 1)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 2)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 3)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 4)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 5)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 6)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 7)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 8)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 9)                            \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 10)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 11)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 12)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 13)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 14)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 15)                           \
    PIPE_ADD_KEY_K1(name, plain, fam, hash, vh, pow2, 16)                           \
    static const sbfi_key_add_fn name[SBF_MAX_K_BLOCKED + 1] = {               \
        NULL, name##_1, name##_2, name##_3, name##_4, name##_5, name##_6,      \
        name##_7, name##_8, name##_9, name##_10, name##_11, name##_12,         \
        name##_13, name##_14, name##_15, name##_16 };
_Static_assert(SBF_MAX_K_BLOCKED == 16, "PIPE_ADD_KEY_K lists k = 1..16");
PIPE_ADD_KEY_K(add_key_k_blocked_murmur3, add_key_blocked_murmur3, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3, 0, 0)
PIPE_ADD_KEY_K(add_key_k_blocked_xxh3, add_key_blocked_xxh3, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3, 0, 0)
PIPE_ADD_KEY_K(add_key_k_blocked_xxh3_pow2, add_key_blocked_xxh3_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_XXH3, 0, 1)
PIPE_ADD_KEY_K(add_key_k_blocked_fmix, add_key_blocked_fmix, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX, 0, 0)
PIPE_ADD_KEY_K(add_key_k_blocked_fmix_pow2, add_key_blocked_fmix_pow2, SBFI_KERN_BLOCKED, SBFI_HASH_FMIX, 0, 1)
#  if PIPE_KEY_VH
PIPE_ADD_KEY_K(add_key_k_blocked_murmur3_vh, add_key_blocked_murmur3_vh, SBFI_KERN_BLOCKED, SBFI_HASH_MURMUR3, 1, 0)
/* (counting's 8-byte adds hash in scalar in every mode: one set serves
 * the _vh mode, its other lengths the plain entry's) */
#  endif
PIPE_ADD_KEY_K(add_key_k_counting_murmur3, add_key_counting_murmur3, SBFI_KERN_COUNTING, SBFI_HASH_MURMUR3, 0, 0)
PIPE_ADD_KEY_K(add_key_k_counting_xxh3, add_key_counting_xxh3, SBFI_KERN_COUNTING, SBFI_HASH_XXH3, 0, 0)
#endif

#if PIPE_KEY8
/* Split-block one-key entries with the geometry a constant (pipe_split_key
 * in simd/pipe_table.h, which sbfi_bind takes for the filter's k: geo 8,
 * 256-bit blocks, or 16, 512-bit): the 8-byte key is a straight line, no
 * test of f->k, no jump to the other probe; other lengths the mode's
 * plain entry's out-of-line half (`add_n`, `contains_n`). hash and mode:
 * MurmurHash3 plain or with vh (its vector 8-byte hash), XXH3 and fmix
 * plain or pow2 (the block one shift), as the entries they replace. */
PIPE_INLINE int pipe_key8_geo(const sbf_filter *f, const void *key, const int hash,
                              const int is_add, const int vh, const int pow2,
                              const int geo)
{
    if (hash == SBFI_HASH_MURMUR3)
        return pipe_key8(f, sbf__load64((const unsigned char *)key), SBFI_KERN_SPLIT,
                         is_add, vh, geo);
    return pipe_key_xxh3(f, key, 8, SBFI_KERN_SPLIT, is_add, pow2, hash, geo);
}
#  define PIPE_SPLIT_KEY1(name, add_n, contains_n, hash, vh, pow2, G)          \
    static int add_##name##_##G(sbf_filter *f, const void *key, size_t len)    \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return sbfi_count_plain(f, pipe_key8_geo(f, key, hash, 1, vh, pow2, G)); \
        return add_n(f, key, len);                                             \
    }                                                                          \
    static int contains_##name##_##G(const sbf_filter *f, const void *key,     \
                                     size_t len)                               \
    {                                                                          \
        if (SBFI_LIKELY(len == 8))                                             \
            return pipe_key8_geo(f, key, hash, 0, vh, pow2, G);                \
        return contains_n(f, key, len);                                        \
    }
/* add_<name>_8, contains_<name>_8, the same _16, and <name>[2], their pairs */
#  define PIPE_SPLIT_KEY(name, add_n, contains_n, hash, vh, pow2)              \
    PIPE_SPLIT_KEY1(name, add_n, contains_n, hash, vh, pow2, 8)                \
    PIPE_SPLIT_KEY1(name, add_n, contains_n, hash, vh, pow2, 16)               \
    static const sbfi_key1 name[2] = {                                         \
        { add_##name##_8, contains_##name##_8 },                               \
        { add_##name##_16, contains_##name##_16 } };
PIPE_SPLIT_KEY(key_g_split_murmur3, add_keyn_split_murmur3, contains_keyn_split_murmur3, SBFI_HASH_MURMUR3, 0, 0)
PIPE_SPLIT_KEY(key_g_split_xxh3, add_keyn_split_xxh3, contains_keyn_split_xxh3, SBFI_HASH_XXH3, 0, 0)
PIPE_SPLIT_KEY(key_g_split_xxh3_pow2, add_keyn_split_xxh3_pow2, contains_keyn_split_xxh3_pow2, SBFI_HASH_XXH3, 0, 1)
PIPE_SPLIT_KEY(key_g_split_fmix, add_keyn_split_fmix, contains_keyn_split_fmix, SBFI_HASH_FMIX, 0, 0)
PIPE_SPLIT_KEY(key_g_split_fmix_pow2, add_keyn_split_fmix_pow2, contains_keyn_split_fmix_pow2, SBFI_HASH_FMIX, 0, 1)
#  if PIPE_KEY_VH
PIPE_SPLIT_KEY(key_g_split_murmur3_vh, add_keyn_split_murmur3, contains_keyn_split_murmur3, SBFI_HASH_MURMUR3, 1, 0)
#  endif
#endif

/* A key whose hash the caller holds (sbf_add_hash, sbf_contains_hash): the
 * probe alone, as the keyed entries make it after their hash (plain blocked
 * and split-block filters on AVX2/AVX-512 the header's probes, as 8-byte
 * keys). The library counts the add (src/view.c). */
PIPE_INLINE int pipe_hashed_plain(const sbf_filter *f, uint64_t h1, uint64_t h2,
                                  const int fam, const int is_add)
{
#if PIPE_KEY8
    if (PIPE_KEY_FAST(fam))
        return pipe_keyh(f, h1, sbf_inl_h2_of(h2), fam, is_add, 0);
#endif
    return pipe_hashed(f, h1, h2, fam, is_add, 0);
}

#define PIPE_ADD_HASHED(name, fam, atomic)                                     \
    static int name(sbf_filter *f, uint64_t h1, uint64_t h2)                   \
    {                                                                          \
        return atomic ? pipe_hashed(f, h1, h2, fam, 1, 1)                      \
                      : pipe_hashed_plain(f, h1, h2, fam, 1);                  \
    }
#define PIPE_CONTAINS_HASHED(name, fam, atomic)                                \
    static int name(const sbf_filter *f, uint64_t h1, uint64_t h2)             \
    {                                                                          \
        return atomic ? pipe_hashed(f, h1, h2, fam, 0, 1)                      \
                      : pipe_hashed_plain(f, h1, h2, fam, 0);                  \
    }

PIPE_ADD_HASHED(add_hashed_classic, SBFI_KERN_CLASSIC, 0)
PIPE_CONTAINS_HASHED(contains_hashed_classic, SBFI_KERN_CLASSIC, 0)
PIPE_ADD_HASHED(add_hashed_blocked, SBFI_KERN_BLOCKED, 0)
PIPE_CONTAINS_HASHED(contains_hashed_blocked, SBFI_KERN_BLOCKED, 0)
PIPE_ADD_HASHED(add_hashed_split, SBFI_KERN_SPLIT, 0)
PIPE_CONTAINS_HASHED(contains_hashed_split, SBFI_KERN_SPLIT, 0)
PIPE_ADD_HASHED(add_hashed_counting, SBFI_KERN_COUNTING, 0)
PIPE_CONTAINS_HASHED(contains_hashed_counting, SBFI_KERN_COUNTING, 0)
PIPE_ADD_HASHED(add_hashed_classic_atomic, SBFI_KERN_CLASSIC, 1)
PIPE_CONTAINS_HASHED(contains_hashed_classic_atomic, SBFI_KERN_CLASSIC, 1)
PIPE_ADD_HASHED(add_hashed_blocked_atomic, SBFI_KERN_BLOCKED, 1)
PIPE_CONTAINS_HASHED(contains_hashed_blocked_atomic, SBFI_KERN_BLOCKED, 1)
PIPE_ADD_HASHED(add_hashed_split_atomic, SBFI_KERN_SPLIT, 1)
PIPE_CONTAINS_HASHED(contains_hashed_split_atomic, SBFI_KERN_SPLIT, 1)
PIPE_ADD_HASHED(add_hashed_counting_atomic, SBFI_KERN_COUNTING, 1)
PIPE_CONTAINS_HASHED(contains_hashed_counting_atomic, SBFI_KERN_COUNTING, 1)

#endif /* SBFI_PIPE_KEY_H */
