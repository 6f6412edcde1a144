/*
 * sbf dedup's deciding loops (cmd_dedup_pass.h), compiled once per ISA:
 * DEDUP_PASS_ISA undefined, the portable set and dedup_pass_pick; avx2 or
 * avx512 (the Makefile adds that ISA's flags), the set of that name.
 *
 * Measured at 50M lines, one thread, on the loaded 2-vCPU AMD EPYC Zen 5
 * VM (CPU s of deciding): the AVX-512 set decides a fixed filter in
 * 0.28-0.37 s against 0.57-0.58 s before, and a growing one (5 sub-filters)
 * in 0.65-0.72 s against 1.32-1.39 s: the portable probes' arithmetic, not
 * the memory, was the cost.
 */
#define SBF_INLINE_NO_KERNELS 1 /* the inline probes: an add counts into the view's counter */
#include "cmd_dedup_pass.h"
#include "simdbloom_inline.h"

/* the block of the key this many places ahead is asked for: a filter larger
 * than the caches costs a memory latency a key, and keys in flight hide it
 * (fixed filter, 62 MB, 50M keys, one thread, loaded VM: AVX-512 probes,
 * 64 ahead 0.28-0.30 s of deciding, 32 0.39-0.49 s, 128 0.29-0.30 s;
 * portable, 64 0.58 s, 32 0.60-0.64 s; before, portable: 8 ahead 1.12-1.14
 * s, 16 0.79-1.07 s, 32 0.67-0.72 s) */
#define AHEAD 64
/* a growing filter's passes, one block a key: 64 keys ahead (32: 1.43-1.52
 * s of deciding at 50M lines, 64 1.31-1.38 s, 128 1.33-1.35 s; portable) */
#define PASS_AHEAD 64

#if defined(__GNUC__)
#define PASS_INLINE static inline __attribute__((always_inline))
#else
#define PASS_INLINE static inline
#endif

static const uint64_t *block_of(const sbf_view *v, uint32_t bw, uint64_t h1)
{
    return v->words + sbf_block_index(h1, v->nblocks) * bw;
}

/* AVX2's inline add branches on whether the key was new, which half of a
 * dedup's keys are, at random: the AVX2 set adds with the portable loop
 * (a fixed filter, 50M lines, one thread: deciding 0.69-0.84 s against
 * 0.53-0.61 s), and decides growing filters with its own (0.81-0.84 s
 * against 1.33-1.46 s: its adds are of keys no sub-filter has) */
#if defined(DEDUP_PASS_ISA) && defined(__AVX2__) && !defined(__AVX512F__)
#define PASS_ADD NULL
#define PASS_OWN_ADD 0
#else
#define PASS_ADD add_keys
#define PASS_OWN_ADD 1
#endif

/* the q-th key's index (ix NULL: q; a constant in each instance below) */
#define IX(q) (ix != NULL ? ix[q] : (q))

#if PASS_OWN_ADD
PASS_INLINE int add_impl(const sbf_view *v, uint32_t bw, const uint64_t *h1, const uint64_t *h2,
                         const size_t *ix, size_t a, size_t b, uint8_t *added, int probe_only)
{
    for (size_t q = a; q < b; q++) {
        if (bw && q + AHEAD < b)
            __builtin_prefetch(block_of(v, bw, h1[IX(q + AHEAD)]), 1, 3);
        const size_t j = IX(q);
        int r;
        if (probe_only) {
            r = !sbf_view_contains_hash(v, h1[j], h2[j]);
        } else {
            r = sbf_view_add_hash(v, h1[j], h2[j]);
            if (r < 0)
                return r;
        }
        added[j] = (uint8_t)r;
    }
    return 0;
}

static int add_keys(const sbf_view *v, uint32_t bw, const uint64_t *h1, const uint64_t *h2,
                    const size_t *ix, size_t a, size_t b, uint8_t *added, int probe_only)
{
    if (ix == NULL)
        return probe_only ? add_impl(v, bw, h1, h2, NULL, a, b, added, 1)
                          : add_impl(v, bw, h1, h2, NULL, a, b, added, 0);
    return probe_only ? add_impl(v, bw, h1, h2, ix, a, b, added, 1)
                      : add_impl(v, bw, h1, h2, ix, a, b, added, 0);
}
#endif

PASS_INLINE int grow_impl(const sbf_view *v, const sbf_view *old, uint32_t nold, uint32_t bw,
                          size_t group, const uint64_t *h1, const uint64_t *h2,
                          const size_t *ix, size_t a, size_t b, size_t *miss, uint8_t *added)
{
    if (nold == 0) {
        /* the newest alone: a key is new when adding it changes it (it
         * lacked a bit), which is what the passes decide */
        for (size_t q = a; q < b && q < a + PASS_AHEAD; q++)
            __builtin_prefetch(block_of(v, bw, h1[IX(q)]), 1, 3);
        for (size_t q = a; q < b; q++) {
            if (q + PASS_AHEAD < b)
                __builtin_prefetch(block_of(v, bw, h1[IX(q + PASS_AHEAD)]), 1, 3);
            const size_t j = IX(q);
            const int r = sbf_view_add_hash(v, h1[j], h2[j]);
            if (r < 0)
                return r;
            added[j] = (uint8_t)r;
        }
        return 0;
    }
    for (size_t q = a; q < b && q < a + PASS_AHEAD; q++)
        __builtin_prefetch(block_of(v, bw, h1[IX(q)]), 0, 3);
    for (size_t g = a; g < b; g += group) {
        /* the newest's blocks its first pass read are still in this
         * core's caches when the group's keys are added (the first pass
         * asks for the next group's first blocks) */
        const size_t gb = b - g < group ? b : g + group;
        size_t e = g;
        for (size_t q = g; q < gb; q++) {
            if (q + PASS_AHEAD < b)
                __builtin_prefetch(block_of(v, bw, h1[IX(q + PASS_AHEAD)]), 0, 3);
            const size_t j = IX(q);
            added[j] = 0;
            miss[e] = j;
            e += (size_t)!sbf_view_contains_hash(v, h1[j], h2[j]);
        }
        for (uint32_t o = nold; o-- > 0;) {
            const sbf_view *ov = &old[o];
            size_t k = g;
            for (size_t q = g; q < e && q < g + PASS_AHEAD; q++)
                __builtin_prefetch(block_of(ov, bw, h1[miss[q]]), 0, 3);
            for (size_t q = g; q < e; q++) {
                if (q + PASS_AHEAD < e)
                    __builtin_prefetch(block_of(ov, bw, h1[miss[q + PASS_AHEAD]]), 0, 3);
                const size_t j = miss[q];
                miss[k] = j;
                k += (size_t)!sbf_view_contains_hash(ov, h1[j], h2[j]);
            }
            e = k;
        }
        for (size_t q = g; q < e; q++) {
            const size_t j = miss[q];
            const int r = sbf_view_add_hash(v, h1[j], h2[j]);
            if (r < 0)
                return r;
            added[j] = (uint8_t)r;
        }
    }
    return 0;
}
#undef IX

static int grow_keys(const sbf_view *v, const sbf_view *old, uint32_t nold, uint32_t bw,
                     size_t group, const uint64_t *h1, const uint64_t *h2, const size_t *ix,
                     size_t a, size_t b, size_t *miss, uint8_t *added)
{
    if (group == 0)
        group = SIZE_MAX;
    if (ix == NULL)
        return grow_impl(v, old, nold, bw, group, h1, h2, NULL, a, b, miss, added);
    return grow_impl(v, old, nold, bw, group, h1, h2, ix, a, b, miss, added);
}

#define PASS_CAT2(a, b) a##b
#define PASS_CAT(a, b) PASS_CAT2(a, b)
#if defined(DEDUP_PASS_ISA)
#define PASS_SET PASS_CAT(dedup_pass_, DEDUP_PASS_ISA)
#define PASS_STR2(x) #x
#define PASS_STR(x) PASS_STR2(x)
#define PASS_NAME PASS_STR(DEDUP_PASS_ISA)
#else
#define PASS_SET dedup_pass_portable
#define PASS_NAME "portable"
#endif

extern const dedup_pass PASS_SET;
const dedup_pass PASS_SET = { PASS_NAME, PASS_ADD, grow_keys };

#if !defined(DEDUP_PASS_ISA)
#if defined(DEDUP_PASS_avx2)
extern const dedup_pass dedup_pass_avx2;
#endif
#if defined(DEDUP_PASS_avx512)
extern const dedup_pass dedup_pass_avx512;
#endif

const dedup_pass *dedup_pass_pick(void)
{
    static dedup_pass set; /* (called once, before any thread starts) */
    const int isa = sbf_isa_active();
    (void)isa;
    set = dedup_pass_portable;
#if defined(DEDUP_PASS_avx2)
    if (isa == SBF_ISA_AVX2 || isa == SBF_ISA_AVX512)
        set = dedup_pass_avx2;
#endif
#if defined(DEDUP_PASS_avx512)
    if (isa == SBF_ISA_AVX512)
        set = dedup_pass_avx512;
#endif
    if (set.add == NULL)
        set.add = dedup_pass_portable.add;
    return &set;
}
#endif
