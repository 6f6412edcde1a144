/*
 * MurmurHash3 of byte strings, a former commit's lane kernels against this
 * tree's, in one process (interleaved, best of many passes): the numbers of
 * issue 16 item 2's notes. Not part of make test (x86-64 with AVX-512 only):
 *   make && sh tests/gen/lanes_ab.sh [REV]
 * builds both (REV's simd/ from git archive into build/lanes_old) and runs.
 * Keys: 4096 (L2-resident) of each length set, random bytes, one arena,
 * hashed in calls of 32 (the pipeline's step; LANES_AB_BATCH=n to change);
 * ns/key from rdtsc at the rate measured against CLOCK_MONOTONIC. Every
 * result is checked against sbf_murmur3_x64_128 first.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "simdbloom.h"

typedef void kern_fn(const void *const *, const size_t *, size_t, uint32_t, uint64_t *,
                     uint64_t *);
kern_fn old_avx512, new_avx512, old_avx2, new_avx2;

#define NK 4096

static const void *g_ptr[NK];
static size_t g_len[NK];
static uint64_t g_h1[NK], g_h2[NK];
static unsigned char g_arena[NK * 1001];
static size_t g_batch = 32;

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ z >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ z >> 27) * UINT64_C(0x94d049bb133111eb);
    return z ^ z >> 31;
}

static void make_keys(size_t lo, size_t hi, uint64_t seed)
{
    size_t at = 0;
    for (size_t i = 0; i < NK; i++) {
        g_len[i] = lo + next(&seed) % (hi - lo + 1);
        g_ptr[i] = g_arena + at;
        for (size_t j = 0; j < g_len[i]; j++)
            g_arena[at + j] = (unsigned char)next(&seed);
        at += g_len[i];
    }
}

static int check(kern_fn *f)
{
    f(g_ptr, g_len, NK, 7, g_h1, g_h2);
    for (size_t i = 0; i < NK; i++) {
        uint64_t r[2];
        sbf_murmur3_x64_128(g_ptr[i], g_len[i], 7, r);
        if (r[0] != g_h1[i] || r[1] != g_h2[i])
            return 1;
    }
    return 0;
}

/* Ticks for all NK keys, best of 50 passes. */
static uint64_t pass(kern_fn *f)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < 50; r++) {
        const uint64_t t = __rdtsc();
        for (size_t i = 0; i < NK; i += g_batch)
            f(g_ptr + i, g_len + i, NK - i < g_batch ? NK - i : g_batch, 7, g_h1 + i, g_h2 + i);
        const uint64_t d = __rdtsc() - t;
        best = d < best ? d : best;
    }
    return best;
}

static double tsc_ghz(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    const uint64_t t = __rdtsc();
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9 < 0.2);
    return (double)(__rdtsc() - t) /
           (((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9) * 1e9);
}

int main(void)
{
    static const size_t sets[][2] = { { 8, 64 }, { 80, 120 }, { 0, 8 }, { 0, 16 }, { 0, 1000 },
                                      { 8, 8 },  { 9, 9 },    { 15, 15 }, { 16, 16 }, { 17, 17 },
                                      { 24, 24 }, { 31, 31 }, { 32, 32 }, { 48, 48 }, { 64, 64 },
                                      { 100, 100 }, { 128, 128 }, { 256, 256 }, { 1000, 1000 } };
    kern_fn *const fn[4] = { old_avx512, new_avx512, old_avx2, new_avx2 };
    const char *const name[4] = { "avx512 old", "avx512 new", "avx2 old", "avx2 new" };
    if (getenv("LANES_AB_BATCH") != NULL)
        g_batch = (size_t)atoi(getenv("LANES_AB_BATCH"));
    if (g_batch == 0)
        g_batch = 32;
    const double ghz = tsc_ghz();
    printf("MurmurHash3 of %d keys in calls of %zu, ns/key (best of 3 x 50 passes)\n", NK,
           g_batch);
    printf("%-10s %11s %11s %7s %11s %11s %7s\n", "keys", name[0], name[1], "ratio", name[2],
           name[3], "ratio");
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        make_keys(sets[s][0], sets[s][1], 42 + s);
        for (int k = 0; k < 4; k++)
            if (check(fn[k]) && getenv("LANES_AB_NOCHECK") == NULL) {
                printf("%s: wrong hash for lengths %zu..%zu\n", name[k], sets[s][0], sets[s][1]);
                return 1;
            }
        uint64_t best[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
        for (int round = 0; round < 3; round++)
            for (int k = 0; k < 4; k++) {
                const uint64_t t = pass(fn[k]);
                best[k] = t < best[k] ? t : best[k];
            }
        char label[24];
        if (sets[s][0] == sets[s][1])
            snprintf(label, sizeof label, "%zu", sets[s][0]);
        else
            snprintf(label, sizeof label, "%zu..%zu", sets[s][0], sets[s][1]);
        double ns[4];
        for (int k = 0; k < 4; k++)
            ns[k] = (double)best[k] / ghz / NK;
        printf("%-10s %11.2f %11.2f %6.2fx %11.2f %11.2f %6.2fx\n", label, ns[0], ns[1],
               ns[0] / ns[1], ns[2], ns[3], ns[2] / ns[3]);
    }
    return 0;
}
