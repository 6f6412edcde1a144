/*
 * The memory roofline: a loop that reads one random 64-byte line per key
 * from an array of the filter's size, prefetching in a sliding window, the
 * best over a sweep of prefetch distances. No hash, no mask: only the
 * memory system. Also run on each filter's own bytes (bench_tput.c).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t g_sink;

typedef struct roofctx {
    const uint64_t *mem;
    uint64_t lines;
    const uint64_t *keys;
    size_t n;
    size_t dist;            /* prefetch distance, keys */
} roofctx;

static void op_roof(void *c, size_t off, size_t len)
{
    roofctx *x = c;
    g_sink += sbfb_roofline_loop(x->mem, x->lines, x->keys + off, len, x->dist);
}

const int sbfb_roof_dists[SBFB_NROOF_DISTS] = { 8, 16, 32, 64, 128 };

/*
 * One random 64-byte line per key, a sliding window: the line of key i + dist
 * is prefetched when key i's line is read. The keys are random already, so
 * the line is their multiply-shift: no hash, no mask, only the memory system.
 */
SBFB_NOINLINE uint64_t sbfb_roofline_loop(const uint64_t *mem, uint64_t lines,
                                          const uint64_t *keys, size_t n, size_t dist)
{
    uint64_t acc = 0;
    const size_t pre = dist < n ? dist : n;
    for (size_t i = 0; i < pre; i++)
        __builtin_prefetch(&mem[(uint64_t)(((unsigned __int128)keys[i] * lines) >> 64) * 8], 0, 3);
    for (size_t i = 0; i < n; i++) {
        if (i + dist < n)
            __builtin_prefetch(
                &mem[(uint64_t)(((unsigned __int128)keys[i + dist] * lines) >> 64) * 8], 0, 3);
        acc += mem[(uint64_t)(((unsigned __int128)keys[i] * lines) >> 64) * 8];
    }
    return acc;
}

/* The roofline: the best over the prefetch distances; *dist the winner. */
double sbfb_roofline_swept(const sbfb_opts *o, const uint64_t *mem, uint64_t lines,
                           const uint64_t *keys, size_t n, int *dist)
{
    double best = INFINITY;
    for (int d = 0; d < SBFB_NROOF_DISTS; d++) {
        roofctx x = { mem, lines, keys, n, (size_t)sbfb_roof_dists[d] };
        const double ns = sbfb_time_best(o, op_roof, &x, n);
        if (ns < best) {
            best = ns;
            *dist = sbfb_roof_dists[d];
        }
    }
    return best;
}

void sbfb_run_roofline(const sbfb_opts *o, sbfb_results *r)
{
    for (int si = 0; si < o->nsizes; si++) {
        const size_t bytes = o->sizes[si].bytes;
        sbfb_progress("roofline %s", o->sizes[si].label);
        /* Allocated like a filter: 2 MiB aligned, huge pages advised. */
        uint64_t *mem = sbfb_alloc_huge(bytes);
        if (mem == NULL) {
            sbfb_note("roofline %s: out of memory", o->sizes[si].label);
            continue;
        }
        memset(mem, 1, bytes);
        uint64_t bits, n;
        uint32_t k;
        sbfb_geometry(SBF_BLOCKED, bytes, o->bits_per_key, &bits, &n, &k);
        const size_t P = sbfb_probe_count(o, n);
        uint64_t *keys = sbfb_xmalloc(P * sizeof *keys);
        sbfb_keys_random(o->seed, 3, SBFB_NEG_BASE, UINT64_MAX / 4, P, keys);
        sbfb_roof *rf = &r->roof[r->nroof++];
        rf->size_idx = si;
        rf->bytes = bytes;
        rf->ns = sbfb_roofline_swept(o, mem, bytes / 64, keys, P, &rf->dist);
        free(keys);
        sbfb_free_huge(mem, bytes);
    }
}

