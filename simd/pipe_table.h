/*
 * The ops of one ISA (src/sbf_internal.h's sbfi_ops): for every (hash stage,
 * kernel family, mode), the functions a filter of that kind runs, listed by
 * name. Included at the end of each ISA file (simd/avx512.c, avx2.c,
 * neon.c) and of src/scalar.c, after the lines that define those names:
 * simd/pipeline.h (add_batch_*, contains_batch_*) and simd/pipe_key.h
 * (add_key_*, contains_key_*, add_hashed_*, contains_hashed_*), or
 * src/scalar.c's own. The table's entry is `.ops = &pipe_ops`; sbfi_bind
 * (src/filter.c) points f->ops at pipe_ops[hash][family][mode].
 *
 * Every set is positional, in sbfi_ops' order: add_key, contains_key,
 * add_batch, contains_batch, add_hashed, contains_hashed. A new hash stage
 * is its four families' two sets here (plain, _atomic) and a row of
 * pipe_ops; a new family the same for every stage.
 */
#ifndef SBFI_PIPE_TABLE_H
#define SBFI_PIPE_TABLE_H

static const sbfi_ops ops_classic_murmur3 = {
    add_key_classic_murmur3, contains_key_classic_murmur3,
    add_batch_classic, contains_batch_classic, add_hashed_classic, contains_hashed_classic };
static const sbfi_ops ops_classic_murmur3_atomic = {
    add_key_classic_murmur3_atomic, contains_key_classic_murmur3_atomic,
    add_batch_classic_atomic, contains_batch_classic_atomic, add_hashed_classic_atomic,
    contains_hashed_classic_atomic };
static const sbfi_ops ops_blocked_murmur3 = {
    add_key_blocked_murmur3, contains_key_blocked_murmur3,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_blocked_murmur3_atomic = {
    add_key_blocked_murmur3_atomic, contains_key_blocked_murmur3_atomic,
    add_batch_blocked_atomic, contains_batch_blocked_atomic, add_hashed_blocked_atomic,
    contains_hashed_blocked_atomic };
static const sbfi_ops ops_split_murmur3 = {
    add_key_split_murmur3, contains_key_split_murmur3,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_split_murmur3_atomic = {
    add_key_split_murmur3_atomic, contains_key_split_murmur3_atomic,
    add_batch_split_atomic, contains_batch_split_atomic, add_hashed_split_atomic,
    contains_hashed_split_atomic };
static const sbfi_ops ops_counting_murmur3 = {
    add_key_counting_murmur3, contains_key_counting_murmur3,
    add_batch_counting, contains_batch_counting, add_hashed_counting, contains_hashed_counting };
static const sbfi_ops ops_counting_murmur3_atomic = {
    add_key_counting_murmur3_atomic, contains_key_counting_murmur3_atomic,
    add_batch_counting_atomic, contains_batch_counting_atomic, add_hashed_counting_atomic,
    contains_hashed_counting_atomic };
static const sbfi_ops ops_classic_xxh64 = {
    add_key_classic_xxh64, contains_key_classic_xxh64,
    add_batch_classic, contains_batch_classic, add_hashed_classic, contains_hashed_classic };
static const sbfi_ops ops_classic_xxh64_atomic = {
    add_key_classic_xxh64_atomic, contains_key_classic_xxh64_atomic,
    add_batch_classic_atomic, contains_batch_classic_atomic, add_hashed_classic_atomic,
    contains_hashed_classic_atomic };
static const sbfi_ops ops_blocked_xxh64 = {
    add_key_blocked_xxh64, contains_key_blocked_xxh64,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_blocked_xxh64_atomic = {
    add_key_blocked_xxh64_atomic, contains_key_blocked_xxh64_atomic,
    add_batch_blocked_atomic, contains_batch_blocked_atomic, add_hashed_blocked_atomic,
    contains_hashed_blocked_atomic };
static const sbfi_ops ops_split_xxh64 = {
    add_key_split_xxh64, contains_key_split_xxh64,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_split_xxh64_atomic = {
    add_key_split_xxh64_atomic, contains_key_split_xxh64_atomic,
    add_batch_split_atomic, contains_batch_split_atomic, add_hashed_split_atomic,
    contains_hashed_split_atomic };
static const sbfi_ops ops_counting_xxh64 = {
    add_key_counting_xxh64, contains_key_counting_xxh64,
    add_batch_counting, contains_batch_counting, add_hashed_counting, contains_hashed_counting };
static const sbfi_ops ops_counting_xxh64_atomic = {
    add_key_counting_xxh64_atomic, contains_key_counting_xxh64_atomic,
    add_batch_counting_atomic, contains_batch_counting_atomic, add_hashed_counting_atomic,
    contains_hashed_counting_atomic };
static const sbfi_ops ops_classic_xxh3 = {
    add_key_classic_xxh3, contains_key_classic_xxh3,
    add_batch_classic, contains_batch_classic, add_hashed_classic, contains_hashed_classic };
static const sbfi_ops ops_classic_xxh3_atomic = {
    add_key_classic_xxh3_atomic, contains_key_classic_xxh3_atomic,
    add_batch_classic_atomic, contains_batch_classic_atomic, add_hashed_classic_atomic,
    contains_hashed_classic_atomic };
static const sbfi_ops ops_blocked_xxh3 = {
    add_key_blocked_xxh3, contains_key_blocked_xxh3,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_blocked_xxh3_atomic = {
    add_key_blocked_xxh3_atomic, contains_key_blocked_xxh3_atomic,
    add_batch_blocked_atomic, contains_batch_blocked_atomic, add_hashed_blocked_atomic,
    contains_hashed_blocked_atomic };
static const sbfi_ops ops_split_xxh3 = {
    add_key_split_xxh3, contains_key_split_xxh3,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_split_xxh3_atomic = {
    add_key_split_xxh3_atomic, contains_key_split_xxh3_atomic,
    add_batch_split_atomic, contains_batch_split_atomic, add_hashed_split_atomic,
    contains_hashed_split_atomic };
static const sbfi_ops ops_counting_xxh3 = {
    add_key_counting_xxh3, contains_key_counting_xxh3,
    add_batch_counting, contains_batch_counting, add_hashed_counting, contains_hashed_counting };
static const sbfi_ops ops_counting_xxh3_atomic = {
    add_key_counting_xxh3_atomic, contains_key_counting_xxh3_atomic,
    add_batch_counting_atomic, contains_batch_counting_atomic, add_hashed_counting_atomic,
    contains_hashed_counting_atomic };

static const sbfi_ops ops_classic_fmix = {
    add_key_classic_fmix, contains_key_classic_fmix,
    add_batch_classic, contains_batch_classic, add_hashed_classic, contains_hashed_classic };
static const sbfi_ops ops_classic_fmix_atomic = {
    add_key_classic_fmix_atomic, contains_key_classic_fmix_atomic,
    add_batch_classic_atomic, contains_batch_classic_atomic, add_hashed_classic_atomic,
    contains_hashed_classic_atomic };
static const sbfi_ops ops_blocked_fmix = {
    add_key_blocked_fmix, contains_key_blocked_fmix,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_blocked_fmix_atomic = {
    add_key_blocked_fmix_atomic, contains_key_blocked_fmix_atomic,
    add_batch_blocked_atomic, contains_batch_blocked_atomic, add_hashed_blocked_atomic,
    contains_hashed_blocked_atomic };
static const sbfi_ops ops_split_fmix = {
    add_key_split_fmix, contains_key_split_fmix,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_split_fmix_atomic = {
    add_key_split_fmix_atomic, contains_key_split_fmix_atomic,
    add_batch_split_atomic, contains_batch_split_atomic, add_hashed_split_atomic,
    contains_hashed_split_atomic };
static const sbfi_ops ops_counting_fmix = {
    add_key_counting_fmix, contains_key_counting_fmix,
    add_batch_counting, contains_batch_counting, add_hashed_counting, contains_hashed_counting };
static const sbfi_ops ops_counting_fmix_atomic = {
    add_key_counting_fmix_atomic, contains_key_counting_fmix_atomic,
    add_batch_counting_atomic, contains_batch_counting_atomic, add_hashed_counting_atomic,
    contains_hashed_counting_atomic };

/* MurmurHash3 with 8-byte keys hashed in the vector form (AVX-512:
 * PIPE_KEY_VH, simd/pipe_key.h); elsewhere that mode is the plain set. */
#if defined(PIPE_KEY_VH) && PIPE_KEY_VH
static const sbfi_ops ops_blocked_murmur3_vh = {
    add_key_blocked_murmur3_vh, contains_key_blocked_murmur3_vh,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_split_murmur3_vh = {
    add_key_split_murmur3_vh, contains_key_split_murmur3_vh,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_counting_murmur3_vh = {
    add_key_counting_murmur3_vh, contains_key_counting_murmur3_vh,
    add_batch_counting, contains_batch_counting, add_hashed_counting, contains_hashed_counting };
#  define PIPE_OPS_VH(vh, plain) (&(vh))
#else
#  define PIPE_OPS_VH(vh, plain) (&(plain))
#endif

/* XXH3 and fmix blocked and split-block filters with 2^j blocks (SBFI_MODE_POW2:
 * simd/pipe_key.h's _pow2 one-key entries, the block one shift; the batch
 * and hashed entries the plain set's); elsewhere that mode is the plain set. */
#if defined(PIPE_KEY_POW2) && PIPE_KEY_POW2
static const sbfi_ops ops_blocked_xxh3_pow2 = {
    add_key_blocked_xxh3_pow2, contains_key_blocked_xxh3_pow2,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
static const sbfi_ops ops_split_xxh3_pow2 = {
    add_key_split_xxh3_pow2, contains_key_split_xxh3_pow2,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_split_fmix_pow2 = {
    add_key_split_fmix_pow2, contains_key_split_fmix_pow2,
    add_batch_split, contains_batch_split, add_hashed_split, contains_hashed_split };
static const sbfi_ops ops_blocked_fmix_pow2 = {
    add_key_blocked_fmix_pow2, contains_key_blocked_fmix_pow2,
    add_batch_blocked, contains_batch_blocked, add_hashed_blocked, contains_hashed_blocked };
#  define PIPE_OPS_POW2(pow2, plain) (&(pow2))
#else
#  define PIPE_OPS_POW2(pow2, plain) (&(plain))
#endif

/* [hash][family][mode]: plain, SBF_CONCURRENT, plain with the vector 8-byte
 * hash, plain with 2^j blocks */
static const sbfi_ops *const pipe_ops[SBFI_NHASH][SBFI_NKERNELS][SBFI_NMODES] = {
    [SBFI_HASH_MURMUR3] = {
        [SBFI_KERN_CLASSIC] = { &ops_classic_murmur3, &ops_classic_murmur3_atomic,
                         &ops_classic_murmur3,
                         &ops_classic_murmur3 },
        [SBFI_KERN_BLOCKED] = { &ops_blocked_murmur3, &ops_blocked_murmur3_atomic,
                         PIPE_OPS_VH(ops_blocked_murmur3_vh, ops_blocked_murmur3),
                         &ops_blocked_murmur3 },
        [SBFI_KERN_SPLIT] = { &ops_split_murmur3, &ops_split_murmur3_atomic,
                         PIPE_OPS_VH(ops_split_murmur3_vh, ops_split_murmur3),
                         &ops_split_murmur3 },
        [SBFI_KERN_COUNTING] = { &ops_counting_murmur3, &ops_counting_murmur3_atomic,
                         PIPE_OPS_VH(ops_counting_murmur3_vh, ops_counting_murmur3),
                         &ops_counting_murmur3 },
    },
    [SBFI_HASH_XXH64] = {
        [SBFI_KERN_CLASSIC] = { &ops_classic_xxh64, &ops_classic_xxh64_atomic,
                         &ops_classic_xxh64,
                         &ops_classic_xxh64 },
        [SBFI_KERN_BLOCKED] = { &ops_blocked_xxh64, &ops_blocked_xxh64_atomic,
                         &ops_blocked_xxh64,
                         &ops_blocked_xxh64 },
        [SBFI_KERN_SPLIT] = { &ops_split_xxh64, &ops_split_xxh64_atomic,
                         &ops_split_xxh64,
                         &ops_split_xxh64 },
        [SBFI_KERN_COUNTING] = { &ops_counting_xxh64, &ops_counting_xxh64_atomic,
                         &ops_counting_xxh64,
                         &ops_counting_xxh64 },
    },
    [SBFI_HASH_XXH3] = {
        [SBFI_KERN_CLASSIC] = { &ops_classic_xxh3, &ops_classic_xxh3_atomic,
                         &ops_classic_xxh3,
                         &ops_classic_xxh3 },
        [SBFI_KERN_BLOCKED] = { &ops_blocked_xxh3, &ops_blocked_xxh3_atomic,
                         &ops_blocked_xxh3,
                         PIPE_OPS_POW2(ops_blocked_xxh3_pow2, ops_blocked_xxh3) },
        [SBFI_KERN_SPLIT] = { &ops_split_xxh3, &ops_split_xxh3_atomic,
                         &ops_split_xxh3,
                         PIPE_OPS_POW2(ops_split_xxh3_pow2, ops_split_xxh3) },
        [SBFI_KERN_COUNTING] = { &ops_counting_xxh3, &ops_counting_xxh3_atomic,
                         &ops_counting_xxh3,
                         &ops_counting_xxh3 },
    },
    [SBFI_HASH_FMIX] = {
        [SBFI_KERN_CLASSIC] = { &ops_classic_fmix, &ops_classic_fmix_atomic,
                         &ops_classic_fmix,
                         &ops_classic_fmix },
        [SBFI_KERN_BLOCKED] = { &ops_blocked_fmix, &ops_blocked_fmix_atomic,
                         &ops_blocked_fmix,
                         PIPE_OPS_POW2(ops_blocked_fmix_pow2, ops_blocked_fmix) },
        [SBFI_KERN_SPLIT] = { &ops_split_fmix, &ops_split_fmix_atomic,
                         &ops_split_fmix,
                         PIPE_OPS_POW2(ops_split_fmix_pow2, ops_split_fmix) },
        [SBFI_KERN_COUNTING] = { &ops_counting_fmix, &ops_counting_fmix_atomic,
                         &ops_counting_fmix,
                         &ops_counting_fmix },
    },
};

/* [hash][family][mode]: the blocked and counting families' adds with k a
 * constant (simd/pipe_key.h's PIPE_ADD_KEY_K), for the modes whose pipe_ops
 * set has the header's probes; NULL elsewhere (sbfi_bind keeps add_key). The ISA
 * table's .add_key_k = PIPE_ADD_K_TABLE. */
#if defined(PIPE_KEY8) && PIPE_KEY8
static const sbfi_add_k_table pipe_add_k = {
    [SBFI_HASH_MURMUR3] = {
        [SBFI_KERN_BLOCKED] = { [SBFI_MODE_PLAIN] = add_key_k_blocked_murmur3,
#  if PIPE_KEY_VH
                                [SBFI_MODE_HASH8_VEC] = add_key_k_blocked_murmur3_vh,
#  else
                                [SBFI_MODE_HASH8_VEC] = add_key_k_blocked_murmur3,
#  endif
                              },
        /* the _vh mode's counting add is the plain one (a scalar hash) */
        [SBFI_KERN_COUNTING] = { [SBFI_MODE_PLAIN] = add_key_k_counting_murmur3,
                                 [SBFI_MODE_HASH8_VEC] = add_key_k_counting_murmur3 },
    },
    [SBFI_HASH_XXH3] = {
        [SBFI_KERN_BLOCKED] = { [SBFI_MODE_PLAIN] = add_key_k_blocked_xxh3,
                                [SBFI_MODE_HASH8_VEC] = add_key_k_blocked_xxh3,
                                [SBFI_MODE_POW2] = add_key_k_blocked_xxh3_pow2 },
        /* (a counting filter's POW2 mode is its plain set) */
        [SBFI_KERN_COUNTING] = { [SBFI_MODE_PLAIN] = add_key_k_counting_xxh3,
                                 [SBFI_MODE_HASH8_VEC] = add_key_k_counting_xxh3,
                                 [SBFI_MODE_POW2] = add_key_k_counting_xxh3 },
    },
    [SBFI_HASH_FMIX] = {
        [SBFI_KERN_BLOCKED] = { [SBFI_MODE_PLAIN] = add_key_k_blocked_fmix,
                                [SBFI_MODE_HASH8_VEC] = add_key_k_blocked_fmix,
                                [SBFI_MODE_POW2] = add_key_k_blocked_fmix_pow2 },
    },
};
#  define PIPE_ADD_K_TABLE (&pipe_add_k)
#else
#  define PIPE_ADD_K_TABLE NULL
#endif

/* [hash][mode][geo]: the split family's one-key add and contains with the
 * geometry a constant (simd/pipe_key.h's PIPE_SPLIT_KEY; geo 0: k = 8,
 * 256-bit blocks, 1: k = 16, 512-bit), for the modes whose pipe_ops set
 * has the header's probes, each the same answers and bytes as that set's
 * add_key / contains_key; NULL elsewhere (XXH64: parquet keeps its set).
 * The ISA table's .split_key = PIPE_SPLIT_KEY_TABLE. */
#if defined(PIPE_KEY8) && PIPE_KEY8
#  if PIPE_KEY_VH
#    define PIPE_SPLIT_VH key_g_split_murmur3_vh
#  else
#    define PIPE_SPLIT_VH key_g_split_murmur3
#  endif
static const sbfi_split_key_table pipe_split_key = {
    [SBFI_HASH_MURMUR3] = { [SBFI_MODE_PLAIN] = key_g_split_murmur3,
                            [SBFI_MODE_HASH8_VEC] = PIPE_SPLIT_VH },
    [SBFI_HASH_XXH3] = { [SBFI_MODE_PLAIN] = key_g_split_xxh3,
                         [SBFI_MODE_HASH8_VEC] = key_g_split_xxh3,
                         [SBFI_MODE_POW2] = key_g_split_xxh3_pow2 },
    [SBFI_HASH_FMIX] = { [SBFI_MODE_PLAIN] = key_g_split_fmix,
                         [SBFI_MODE_HASH8_VEC] = key_g_split_fmix,
                         [SBFI_MODE_POW2] = key_g_split_fmix_pow2 },
};
#  define PIPE_SPLIT_KEY_TABLE (&pipe_split_key)
#else
#  define PIPE_SPLIT_KEY_TABLE NULL
#endif

#endif /* SBFI_PIPE_TABLE_H */
