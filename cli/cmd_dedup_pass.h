/*
 * sbf dedup's deciding loops (cli/cmd_dedup_pass.c): the keys of a chunk,
 * from their hashes, added to or probed in a filter through views, with
 * the blocks of keys further on asked for ahead. The file is compiled once
 * without vector flags and, on x86-64, once more per ISA (AVX2, AVX-512),
 * so that the inline probes of simdbloom_inline.h are that ISA's (without
 * vector flags they are portable C, 2-3 times the instructions); cmd_dedup.c
 * takes the set of the ISA the library runs (dedup_pass_pick). Every set
 * gives the same verdicts and filter bytes (the inline probes of every ISA
 * set the same bits as the library's kernels).
 */
#ifndef SBF_CMD_DEDUP_PASS_H
#define SBF_CMD_DEDUP_PASS_H

#include <stddef.h>
#include <stdint.h>

struct sbf_view; /* simdbloom_inline.h */

typedef struct dedup_pass {
    const char *name;
    /* The keys ix[a..b) (ix NULL: a..b), in that order: each added through
     * v, added[j] = 1 when it changed the filter (new); probe_only: not
     * added, added[j] = 1 when v lacks it. bw: v's block in 64-bit words
     * (0: nothing asked for ahead). 0, or the add's error code. */
    int (*add)(const struct sbf_view *v, uint32_t bw, const uint64_t *h1, const uint64_t *h2,
               const size_t *ix, size_t a, size_t b, uint8_t *added, int probe_only);
    /* A growing filter's keys ix[a..b) (ix NULL: a..b) when none can start
     * a sub-filter: a key is seen when the newest sub-filter (v, as it
     * stood) or an older one (old[0..nold)) holds it, else added to the
     * newest, new (added[j] = 1) when that changed it. In groups of `group`
     * keys, a pass a sub-filter (newest first, then older ones newest
     * first, over the keys not found yet, then the adds in input order):
     * each pass one block a key, asked for ahead. miss: room for b indexes.
     * 0, or the add's error code. */
    int (*grow)(const struct sbf_view *v, const struct sbf_view *old, uint32_t nold, uint32_t bw,
                size_t group, const uint64_t *h1, const uint64_t *h2, const size_t *ix,
                size_t a, size_t b, size_t *miss, uint8_t *added);
} dedup_pass;

/* The set for the ISA the library runs (sbf_isa_active): AVX-512 or AVX2
 * where compiled in, else the portable one. */
const dedup_pass *dedup_pass_pick(void);

#endif
