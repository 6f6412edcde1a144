/*
 * `make bench-inline`: the inline header's one-key calls as most programs
 * are built (no -march: loops.c compiled without vector flags, the header's
 * target-attribute copies) and with -march=native (loops.c compiled again),
 * beside the exported sbf_contains / sbf_add of the same filter, in one
 * process: per layout and size the loops are timed interleaved, window by
 * window, and each figure is the 10th percentile of its windows (ns per
 * key, u64 keys, the hash inside). Ratios < 1: faster than the exported
 * call. The forms: "view" is sbf_view_*_u64 through a pointer to the view
 * (its fields read again each call), "local" the view a local of the
 * loop's function (the form simdbloom_inline.h recommends), "narrowed"
 * the older narrowed views (sbf_view_split ...; for the XXH3 layouts, which
 * have none, the loop with the view's kind a constant).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simdbloom.h"
#include "simdbloom_inline.h"

#include "../bench_hot.h"

#define SBFB_INL_L_CONTAINS 100 /* loops.c: the view a local */
#define SBFB_INL_L_ADD 101

uint64_t sbfb_inline_loops_auto(int op, const sbf_view *v, const uint64_t *keys, size_t n);
uint64_t sbfb_inline_loops_native(int op, const sbf_view *v, const uint64_t *keys, size_t n);

enum { WINDOW = 4096 };

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the exported calls, one key a call */
static uint64_t exported(int add, sbf_filter *f, const uint64_t *keys, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += (uint64_t)(add ? sbf_add(f, &keys[i], 8) : sbf_contains(f, &keys[i], 8));
    return s;
}

enum { NFORMS = 7 };
static const char *const form_name[NFORMS] = {
    "exported", "auto view", "auto local", "auto narrowed",
    "native view", "native local", "native narrowed" };

/* One form's window: the sum of its results (checked equal across forms). */
static uint64_t run(int form, int add, sbf_filter *f, const sbf_view *v, const uint64_t *keys)
{
    static const int ops_c[3] = { SBFB_INL_CONTAINS, SBFB_INL_L_CONTAINS, SBFB_INL_N_CONTAINS };
    static const int ops_a[3] = { SBFB_INL_ADD, SBFB_INL_L_ADD, SBFB_INL_N_ADD };
    if (form == 0)
        return exported(add, f, keys, WINDOW);
    const int op = (add ? ops_a : ops_c)[(form - 1) % 3];
    return form <= 3 ? sbfb_inline_loops_auto(op, v, keys, WINDOW)
                     : sbfb_inline_loops_native(op, v, keys, WINDOW);
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 60;
    static const struct { int layout; uint32_t k; const char *name; } lay[] = {
        { SBF_SPLIT_BLOCK, 8, "split-block" }, { SBF_BLOCKED, 7, "blocked" },
        { SBF_PARQUET, 8, "parquet" }, { SBF_COUNTING, 7, "counting" },
        { SBF_SPLIT_BLOCK_XXH3, 8, "split-block-xxh3" }, { SBF_BLOCKED_XXH3, 7, "blocked-xxh3" },
        { SBF_COUNTING_XXH3, 7, "counting-xxh3" } };
    static const uint64_t sizes[] = { 16 << 10, 256 << 10, 8 << 20 };
    uint64_t seed = 42;
    uint64_t *keys = malloc(sizeof(uint64_t) * WINDOW * 2);
    double *ns = malloc(sizeof(double) * (size_t)rounds * NFORMS);
    if (keys == NULL || ns == NULL || rounds < 1)
        return 1;
    printf("simdbloom_inline.h, no -march (auto) and -march=native, ns/key (p10 of %d "
           "windows of %d keys, interleaved); ratio: / exported\n", rounds, WINDOW);
    printf("%-16s %6s %-8s", "layout", "size", "op");
    for (int i = 0; i < NFORMS; i++)
        printf(" %15s", form_name[i]);
    printf("  auto/native\n");
    for (size_t li = 0; li < sizeof lay / sizeof lay[0]; li++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int add = 0; add < 2; add++) {
                sbf_filter *f;
                sbf_params p;
                memset(&p, 0, sizeof p);
                p.layout = lay[li].layout;
                p.bits = sizes[si] * 8;
                p.k = lay[li].k;
                if (sbf_create(&f, &p) != SBF_OK) {
                    printf("%s: cannot create\n", lay[li].name);
                    continue;
                }
                if (!add)
                    for (uint64_t i = 0; i < p.bits / 10; i++) {
                        const uint64_t x = mix(&seed);
                        sbf_add(f, &x, 8);
                    }
                sbf_view v;
                if (sbf_view_get_writable(f, &v) != SBF_OK)
                    return 1;
                uint64_t want = 0;
                int bad = 0;
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < WINDOW; i++)
                        keys[i] = mix(&seed);
                    for (int fo = 0; fo < NFORMS; fo++) {
                        const int form = (fo + r) % NFORMS; /* rotated each round */
                        if (add)
                            sbf_clear(f);
                        else
                            run(form, add, f, &v, keys); /* untimed: its working set */
                        const double t0 = now_ns();
                        const uint64_t s = run(form, add, f, &v, keys);
                        ns[(size_t)form * (size_t)rounds + (size_t)r] = (now_ns() - t0) / WINDOW;
                        if (fo == 0)
                            want = s;
                        else if (s != want)
                            bad = 1;
                    }
                }
                double p10[NFORMS];
                for (int fo = 0; fo < NFORMS; fo++) {
                    qsort(ns + (size_t)fo * (size_t)rounds, (size_t)rounds, sizeof(double), cmp_d);
                    p10[fo] = ns[(size_t)fo * (size_t)rounds + (size_t)rounds / 10];
                }
                printf("%-16s %5lluK %-8s", lay[li].name, (unsigned long long)(sizes[si] >> 10),
                       add ? "add" : "contains");
                for (int fo = 0; fo < NFORMS; fo++)
                    printf(" %6.2f (%5.2fx)", p10[fo], p10[fo] / p10[0]);
                printf("  %.2fx%s\n", p10[2] / p10[5], bad ? "  RESULTS DIFFER" : "");
                sbf_free(f);
            }
    free(keys);
    free(ns);
    return 0;
}
