/*
 * Single keys (sbf_add, sbf_contains; plain and SBF_CONCURRENT) on the
 * vector probes of the including ISA file, which includes it after
 * simd/pipeline.h (whose hooks and simd/pipe_ops.h it uses). Batches are
 * simd/pipeline.h's; this file is the one-key path only.
 */
#ifndef SBFI_PIPE_KEY_H
#define SBFI_PIPE_KEY_H

#include "pipe_ops.h"

/* Hash (MurmurHash3, the u64 path inline for 8-byte keys: a layout with
 * another hash stage gets src/scalar.c's sbfi_*_key_any instead), the
 * block from one multiply-shift, the ISA's vector probe; an add first asks
 * whether every bit is already set (its return value, and no store when
 * it is).
 * Where a blocked add's time goes (AVX-512, 256 KiB filter, k = 7, u64 keys,
 * best of 41 runs per 2048-key chunk): contains 6.05 ns, add 13.1. The extra
 * ~7 ns are the k positions, whatever their form: the add with only its
 * probe (no bits set) ran 6.2 ns; without the probe 13.3; a 512-bit mask of
 * masked byte broadcasts OR-ed into the block with one load/compare/store
 * 14.2 (13.9 with no store at all); a mask of per-position vpermd/vpsllvd
 * 17.8; the positions unrolled by a switch on k 13.9. So the probe stays.
 * `f` is const for the reasons simd/pipe_ops.h gives: an add writes f->words.
 */
PIPE_INLINE int pipe_key(const sbf_filter *f, const void *key, size_t len,
                         const int fam, const int is_add, const int atomic)
{
    uint64_t h1, h2;
    sbfi_hash_key(key, len, f->seed, &h1, &h2);
    if (fam == SBFI_KERN_CLASSIC) /* k divisions, none computed ahead */
        return is_add ? pipe_classic_add(f, h1, h2, NULL, 0, atomic)
                      : pipe_classic_contains(f, h1, h2, NULL, 0, atomic);
    pipe_ctx c;
    pipe_ctx_init_key(&c, f);
    void *blk = sbfi_block_ptr(f, h1);
    const void *q = blk;
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
    if (fam == SBFI_KERN_COUNTING) {
        if (atomic)
            return pipe_counting_add_atomic(&c, blk, h2, f->k);
        (void)pipe_counting_add(&c, blk, h2, f->k);
        return !present;
    }
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

#define PIPE_KEY_ENTRIES(fam, name)                                            \
    static int add_key_##name(sbf_filter *f, const void *key, size_t len)     \
    {                                                                          \
        return sbfi_count_plain(f, pipe_key(f, key, len, fam, 1, 0));          \
    }                                                                          \
    static int contains_key_##name(const sbf_filter *f, const void *key,       \
                                   size_t len)                                 \
    {                                                                          \
        return pipe_key(f, key, len, fam, 0, 0);                               \
    }                                                                          \
    static int add_key_atomic_##name(sbf_filter *f, const void *key, size_t len) \
    {                                                                          \
        return sbfi_count_atomic(f, pipe_key(f, key, len, fam, 1, 1));         \
    }                                                                          \
    static int contains_key_atomic_##name(const sbf_filter *f, const void *key, \
                                          size_t len)                          \
    {                                                                          \
        return pipe_key(f, key, len, fam, 0, 1);                               \
    }

PIPE_KEY_ENTRIES(SBFI_KERN_CLASSIC, classic)
PIPE_KEY_ENTRIES(SBFI_KERN_BLOCKED, blocked)
PIPE_KEY_ENTRIES(SBFI_KERN_SPLIT, split)
PIPE_KEY_ENTRIES(SBFI_KERN_COUNTING, counting)

/* The single-key group of each file's table (issue 8). */
#define PIPE_HOT_ENTRIES                                                       \
    .add_key = PIPE_BY_FAMILY(add_key_),                                       \
    .contains_key = PIPE_BY_FAMILY(contains_key_),                             \
    .add_key_atomic = PIPE_BY_FAMILY(add_key_atomic_),                         \
    .contains_key_atomic = PIPE_BY_FAMILY(contains_key_atomic_)

#endif /* SBFI_PIPE_KEY_H */
