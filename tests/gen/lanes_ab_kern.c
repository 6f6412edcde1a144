/*
 * One copy of an ISA's lane kernel lanes_hash_bytes under another name, for
 * tests/gen/lanes_ab.c (which says how to build it): compiled once with
 * -I build/lanes_old/simd (a former commit's kernels) and once with
 * -I simd (this tree's), with the ISA's flags.
 *   -DAB_NAME=name -DAB_HDR='"lanes_avx512.h"' (or "lanes_avx2.h")
 */
#include "sbf_internal.h"

#include AB_HDR

void AB_NAME(const void *const *keys, const size_t *lens, size_t n, uint32_t seed,
             uint64_t *h1, uint64_t *h2);

void AB_NAME(const void *const *keys, const size_t *lens, size_t n, uint32_t seed,
             uint64_t *h1, uint64_t *h2)
{
    lanes_hash_bytes(keys, lens, n, seed, h1, h2);
}
