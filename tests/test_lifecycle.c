/*
 * A filter's life: the caller's allocator (issue 19) for every way a filter
 * comes to be, sbf_memory_usage, key counts that are not known (Guava
 * import, union, intersect), and sbf_info / sbf_copy while other threads add
 * to an SBF_CONCURRENT filter. Also run under ThreadSanitizer by
 * tests/tsan/runner.c (`make test-tsan`): only the Criterion macros the shim
 * has are used here.
 */
#define _GNU_SOURCE 1 /* mkstemp */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "sbf_internal.h"
#include "testutil.h"

static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING };

/* ------------------------------------------------- a tracking allocator */

typedef struct tracker {
    long live_blocks;
    size_t live_bytes;
    long allocs, frees;
    long fail_at;      /* fail the fail_at-th alloc (1-based); 0 never */
    size_t misalign;   /* returned pointers are this much past a 64-byte boundary */
} tracker;

/* Each block: [raw ... | size, raw | user bytes], user = 64k + misalign,
 * filled with 0xa5 so unzeroed memory shows. */
static void *t_alloc(void *opaque, size_t size)
{
    tracker *t = opaque;
    t->allocs++;
    if (t->fail_at != 0 && t->allocs == t->fail_at)
        return NULL;
    unsigned char *raw = malloc(size + 64 + 64 + 16);
    if (raw == NULL)
        return NULL;
    uintptr_t u = ((uintptr_t)raw + 16 + 63) & ~(uintptr_t)63;
    unsigned char *p = (unsigned char *)u + t->misalign;
    memcpy(p - 16, &size, sizeof size);
    memcpy(p - 8, &raw, sizeof raw);
    memset(p, 0xa5, size);
    t->live_blocks++;
    t->live_bytes += size;
    return p;
}

static void t_free(void *opaque, void *ptr)
{
    tracker *t = opaque;
    cr_assert_not_null(ptr, "free is never called with NULL");
    unsigned char *p = ptr, *raw;
    size_t size;
    memcpy(&size, p - 16, sizeof size);
    memcpy(&raw, p - 8, sizeof raw);
    t->frees++;
    t->live_blocks--;
    t->live_bytes -= size;
    free(raw);
}

static sbf_allocator tracking(tracker *t, size_t misalign)
{
    memset(t, 0, sizeof *t);
    t->misalign = misalign;
    sbf_allocator a = { t_alloc, t_free, t };
    return a;
}

static int all_zero(const sbf_filter *f)
{
    size_t len;
    const unsigned char *d = sbf_data(f, &len);
    for (size_t i = 0; i < len; i++)
        if (d[i] != 0)
            return 0;
    return 1;
}

static sbf_params params(int layout, uint64_t bits, uint32_t flags, const sbf_allocator *a)
{
    sbf_params p = { 0 };
    p.layout = layout;
    p.bits = bits;
    p.k = layout == SBF_SPLIT_BLOCK ? 8 : 6;
    p.seed = 3;
    p.flags = flags;
    p.allocator = a;
    return p;
}

Test(lifecycle, allocator_takes_every_byte,
     .description = "issue 19: a caller's allocator serves struct, words and stripes; words 64-byte aligned at any misalignment; usage exact; all given back")
{
    static const uint64_t sizes[] = { 1024 * 8, UINT64_C(3) << 23 }; /* 1 KiB, 3 MiB */
    static const size_t misaligns[] = { 16, 48 };
    uint64_t keys[500];
    for (int i = 0; i < 500; i++)
        keys[i] = (uint64_t)i * 0x9e3779b97f4a7c15u;
    for (size_t li = 0; li < 4; li++)
        for (size_t si = 0; si < 2; si++)
            for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++)
                for (size_t mi = 0; mi < 2; mi++) {
                    tracker t;
                    const sbf_allocator a = tracking(&t, misaligns[mi]);
                    sbf_params p = params(layouts[li], sizes[si], flags, &a);
                    sbf_filter *f, *c;
                    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
                    size_t len;
                    const void *d = sbf_data(f, &len);
                    cr_assert_eq((uintptr_t)d % 64, 0, "words 64-byte aligned");
                    cr_assert(all_zero(f), "words zeroed whatever alloc returned");
                    cr_assert_geq(t.allocs, 2, "struct and words from the allocator");
                    cr_assert_eq(sbf_memory_usage(f), t.live_bytes);
                    cr_assert_geq(sbf_memory_usage(f), len);
                    cr_assert_eq(sbf_add_u64(f, keys, 250), SBF_OK);
                    cr_assert_eq(sbf_contains_u64(f, keys, 250, NULL), 250);
                    cr_assert_eq(sbf_copy(&c, f), SBF_OK);
                    cr_assert_eq(t.live_bytes, 2 * sbf_memory_usage(f), "the copy uses it too");
                    cr_assert_eq(sbf_contains_u64(c, keys, 250, NULL), 250);
                    sbf_free(f);
                    cr_assert_eq(t.live_bytes, sbf_memory_usage(c));
                    sbf_free(c);
                    cr_assert_eq(t.live_blocks, 0);
                    cr_assert_eq(t.live_bytes, 0);
                    cr_assert_eq(t.allocs, t.frees);
                }
}

Test(lifecycle, allocator_for_loaders,
     .description = "issue 19: sbf_deserialize_ex, sbf_import_guava_ex, sbf_decode allocate through the hook")
{
    sbf_filter *src = tu_make(SBF_CLASSIC, 2000, 0.01, 0, 0, 0);
    uint64_t keys[300];
    for (int i = 0; i < 300; i++)
        keys[i] = (uint64_t)i * 7919;
    cr_assert_eq(sbf_add_u64(src, keys, 300), SBF_OK);
    void *own, *gv;
    size_t own_len, gv_len;
    cr_assert_eq(sbf_serialize(src, &own, &own_len), SBF_OK);
    cr_assert_eq(sbf_export_guava(src, &gv, &gv_len), SBF_OK);
    tracker t;
    const sbf_allocator a = tracking(&t, 16);
    sbf_filter *f[4];
    cr_assert_eq(sbf_deserialize_ex(&f[0], own, own_len, &a), SBF_OK);
    cr_assert_eq(sbf_import_guava_ex(&f[1], gv, gv_len, &a), SBF_OK);
    cr_assert_eq(sbf_decode(&f[2], own, own_len, 0, &a), SBF_OK);
    cr_assert_eq(sbf_decode(&f[3], gv, gv_len, SBF_FORMAT_GUAVA, &a), SBF_OK);
    size_t sum = 0;
    for (int i = 0; i < 4; i++) {
        cr_assert(equiv_same_bytes(src, f[i]), "loader %d", i);
        cr_assert_eq((uintptr_t)sbf_data(f[i], NULL) % 64, 0);
        sum += sbf_memory_usage(f[i]);
    }
    cr_assert_eq(t.live_bytes, sum);
    for (int i = 0; i < 4; i++)
        sbf_free(f[i]);
    cr_assert_eq(t.live_blocks, 0);
    /* per filter: its words and its struct, whose first block (16 bytes
     * past a line here) is freed and asked again 63 bytes longer */
    cr_assert_eq(t.allocs, 12);
    cr_assert_eq(t.frees, 12);
    /* NULL allocator: the library's memory, as sbf_deserialize */
    cr_assert_eq(sbf_deserialize_ex(&f[0], own, own_len, NULL), SBF_OK);
    sbf_free(f[0]);
    sbf_buffer_free(own);
    sbf_buffer_free(gv);
    sbf_free(src);
}

Test(lifecycle, allocator_failures,
     .description = "issue 19: a failing alloc is SBF_E_NOMEM at each step with nothing kept; alloc or free missing is SBF_E_PARAM")
{
    for (size_t li = 0; li < 4; li++)
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++)
            for (long at = 1; at <= 2; at++) {
                tracker t;
                const sbf_allocator a = tracking(&t, 16);
                t.fail_at = at;
                sbf_params p = params(layouts[li], 4096 * 8, flags, &a);
                sbf_filter *f = (sbf_filter *)&t;
                cr_assert_eq(sbf_create(&f, &p), SBF_E_NOMEM, "fail at alloc %ld", at);
                cr_assert_null(f);
                cr_assert_eq(t.live_blocks, 0, "nothing kept");
                cr_assert_eq(t.allocs, at, "stopped at the failure");
            }
    tracker t;
    sbf_allocator a = tracking(&t, 16);
    a.free = NULL;
    sbf_params p = params(SBF_BLOCKED, 4096, 0, &a);
    sbf_filter *f = (sbf_filter *)&t;
    cr_assert_eq(sbf_create(&f, &p), SBF_E_PARAM);
    cr_assert_null(f);
    a.free = t_free;
    a.alloc = NULL;
    cr_assert_eq(sbf_create(&f, &p), SBF_E_PARAM);
    cr_assert_eq(t.allocs, 0);
}

Test(lifecycle, library_memory_usage,
     .description = "without an allocator: huge-page mappings from 2 MiB (whole 2 MiB units), the heap below; usage counts them")
{
    sbf_filter *small = tu_make(SBF_BLOCKED, 0, 0, 1024 * 8, 6, 0);
    sbf_filter *big = tu_make(SBF_BLOCKED, 0, 0, UINT64_C(3) << 23, 6, 0);
    const size_t us = sbf_memory_usage(small), ub = sbf_memory_usage(big);
    cr_assert(us > 1024 && us < 1024 + 4096, "small: %zu", us);
    cr_assert(ub > (UINT64_C(4) << 20) && ub < (UINT64_C(4) << 20) + 4096,
              "3 MiB in whole 2 MiB units: %zu", ub);
    cr_assert_eq((uintptr_t)sbf_data(big, NULL) % (2u << 20), 0, "2 MiB aligned");
    cr_assert_eq(sbf_memory_usage(NULL), 0);
    sbf_free(small);
    sbf_free(big);
}

/* Every way a filter comes to be: one constructor, so one set of
 * invariants, and who owns the words is one field (read-only = a file
 * mapping). White-box: sbf_internal.h. */
Test(lifecycle, every_way_one_owner,
     .description = "issue 16: create, copy, fold, deserialize, import, decode, load, map: valid filters whose f->mem says who owns the words; only a mapping refuses writes")
{
    char path[] = "/tmp/sbf-life-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    sbf_filter *f = tu_make(SBF_CLASSIC, 0, 0, 64 * 64, 5, 0);
    sbf_filter *huge = tu_make(SBF_BLOCKED, 0, 0, UINT64_C(4) << 23, 5, 0);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    void *own, *gv;
    size_t own_len, gv_len;
    cr_assert_eq(sbf_serialize(f, &own, &own_len), SBF_OK);
    cr_assert_eq(sbf_export_guava(f, &gv, &gv_len), SBF_OK);
    sbf_filter *w[9];
    int kind[9];
    cr_assert_eq(sbf_copy(&w[0], f), SBF_OK);
    cr_assert_eq(sbf_fold(&w[1], huge, 1), SBF_OK);
    cr_assert_eq(sbf_deserialize(&w[2], own, own_len), SBF_OK);
    cr_assert_eq(sbf_import_guava(&w[3], gv, gv_len), SBF_OK);
    cr_assert_eq(sbf_decode(&w[4], gv, gv_len, 0, NULL), SBF_OK);
    cr_assert_eq(sbf_load(&w[5], path), SBF_OK);
    cr_assert_eq(sbf_map(&w[6], path, 0), SBF_OK);
    cr_assert_eq(sbf_map(&w[7], path, SBF_MAP_NO_VERIFY), SBF_OK);
    cr_assert_eq(sbf_copy(&w[8], huge), SBF_OK);
    for (int i = 0; i < 9; i++)
        kind[i] = SBFI_MEM_HEAP;
    kind[1] = kind[8] = SBFI_MEM_HUGE; /* 2 MiB and 4 MiB: huge-page mappings */
    kind[6] = kind[7] = SBFI_MEM_FILE;
    for (int i = 0; i < 9; i++) {
        cr_assert(sbfi_filter_ok(w[i]), "way %d", i);
        cr_assert_eq(w[i]->mem, kind[i], "way %d", i);
        cr_assert_eq(sbfi_writable(w[i]), kind[i] == SBFI_MEM_FILE ? SBF_E_READONLY : SBF_OK);
        cr_assert_eq(sbf_memory_usage(w[i]), w[i]->self_len + w[i]->mem_len);
        sbf_free(w[i]);
    }
    cr_assert_eq(huge->mem, SBFI_MEM_HUGE);
    sbf_buffer_free(own);
    sbf_buffer_free(gv);
    sbf_free(f);
    sbf_free(huge);
    unlink(path);
}

/* ----------------------------------------------------- unknown counts */

/* A classic seed-0 filter of n keys, through Guava's form and back;
 * *changed: the keys that changed the original. */
static sbf_filter *via_guava(uint64_t n, sbf_filter **orig, size_t *changed)
{
    sbf_filter *f = tu_make(SBF_CLASSIC, n, 0.01, 0, 0, 0);
    uint64_t *keys = equiv_keys((size_t)n, 5);
    sbf_keys k = { 0 };
    k.n = (size_t)n;
    k.u64 = keys;
    *changed = sbf_add_keys(f, &k, NULL);
    free(keys);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_export_guava(f, &buf, &len), SBF_OK);
    sbf_filter *g;
    cr_assert_eq(sbf_import_guava(&g, buf, len), SBF_OK);
    sbf_buffer_free(buf);
    *orig = f;
    return g;
}

Test(lifecycle, unknown_counts,
     .description = "issue 20: Guava imports, unions and intersections say their key count is unknown and report the estimate and the rate at it")
{
    sbf_filter *orig;
    size_t changed;
    sbf_filter *g = via_guava(100000, &orig, &changed);
    struct sbf_info a, b;
    cr_assert_eq(sbf_info(orig, &a), SBF_OK);
    cr_assert_eq(sbf_info(g, &b), SBF_OK);
    cr_assert_eq(a.keys_added, changed);
    cr_assert(changed > 99000 && changed <= 100000, "%zu", changed);
    cr_assert_eq(b.keys_added, SBF_KEYS_UNKNOWN, "Guava's form has no count");
    cr_assert(b.est_cardinality > 97000 && b.est_cardinality < 103000, "%g", b.est_cardinality);
    cr_assert_eq(b.fpp_now, b.fpp_estimated, "unknown: the rate at the estimate");
    cr_assert(b.fpp_now > 0.005 && b.fpp_now < 0.02, "%g: about the 1%% it was sized for",
              b.fpp_now);
    cr_assert_eq(a.fpp_now, sbf_fpp_theory(orig, changed));
    cr_assert_eq(a.fpp_estimated, b.fpp_estimated, "the same bits, the same estimate");
    /* stays unknown through adds, copies, files; sbf_clear knows again */
    cr_assert_geq(sbf_add(g, "x", 1), 0);
    sbf_filter *c;
    cr_assert_eq(sbf_copy(&c, g), SBF_OK);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_serialize(g, &buf, &len), SBF_OK);
    const unsigned char *hb = buf;
    for (int i = 32; i < 40; i++)
        cr_assert_eq(hb[i], 0xff, "header keys added: all ones (doc/format.md)");
    sbf_filter *d;
    cr_assert_eq(sbf_deserialize(&d, buf, len), SBF_OK);
    sbf_buffer_free(buf);
    sbf_filter *all[] = { g, c, d };
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(sbf_info(all[i], &b), SBF_OK);
        cr_assert_eq(b.keys_added, SBF_KEYS_UNKNOWN, "filter %d", i);
    }
    cr_assert_eq(sbf_clear(d), SBF_OK);
    cr_assert_eq(sbf_info(d, &b), SBF_OK);
    cr_assert_eq(b.keys_added, 0);
    cr_assert_eq(sbf_add(d, "y", 1), 1);
    cr_assert_eq(sbf_info(d, &b), SBF_OK);
    cr_assert_eq(b.keys_added, 1);
    /* union and intersection, plain and concurrent destinations */
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++) {
        for (int op = 0; op < 2; op++) {
            sbf_params p = params(SBF_BLOCKED, 1 << 16, flags, NULL);
            sbf_filter *x, *y;
            cr_assert_eq(sbf_create(&x, &p), SBF_OK);
            cr_assert_eq(sbf_create(&y, &p), SBF_OK);
            cr_assert_eq(sbf_add(x, "a", 1), 1);
            cr_assert_eq(sbf_add(y, "a", 1), 1);
            cr_assert_eq(op ? sbf_intersect(x, y) : sbf_union(x, y), SBF_OK);
            cr_assert_eq(sbf_info(x, &b), SBF_OK);
            cr_assert_eq(b.keys_added, SBF_KEYS_UNKNOWN, "op %d flags %u", op, flags);
            cr_assert(b.est_cardinality > 0.5 && b.est_cardinality < 1.5, "%g",
                      b.est_cardinality);
            sbf_free(x);
            sbf_free(y);
        }
    }
    sbf_free(orig);
    sbf_free(g);
    sbf_free(c);
    sbf_free(d);
}

Test(lifecycle, full_filter_estimate,
     .description = "every bit set: the estimate is infinite and the rate 1, never a garbage count")
{
    unsigned char gv[6 + 8 * 4];
    memset(gv, 0xff, sizeof gv);
    gv[0] = 1;
    gv[1] = 3;
    gv[2] = gv[3] = gv[4] = 0;
    gv[5] = 4;
    sbf_filter *f;
    cr_assert_eq(sbf_import_guava(&f, gv, sizeof gv), SBF_OK);
    struct sbf_info in;
    cr_assert_eq(sbf_info(f, &in), SBF_OK);
    cr_assert(in.est_cardinality > 1e300, "infinite");
    cr_assert_eq(in.fpp_estimated, 1.0);
    cr_assert_eq(in.fpp_now, 1.0);
    sbf_free(f);
}

/* ------------------------------------------------------ what keys_added is */

Test(lifecycle, keys_added_counts_changes,
     .description = "issue 20: keys_added counts adds that changed the filter (re-adding keys counts nothing), on plain and concurrent filters, through every add call")
{
    uint64_t *keys = equiv_keys(3000, 21);
    for (size_t li = 0; li < 4; li++)
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++) {
            sbf_params p = params(layouts[li], 1 << 16, flags, NULL);
            sbf_filter *f;
            cr_assert_eq(sbf_create(&f, &p), SBF_OK);
            sbf_keys k = { 0 };
            k.n = 1000;
            k.u64 = keys;
            const size_t c1 = sbf_add_keys(f, &k, NULL);
            cr_assert(c1 > 900 && c1 <= 1000, "%zu", c1);
            size_t c2 = 0;
            for (int i = 1000; i < 2000; i++)
                c2 += (size_t)sbf_add(f, &keys[i], 8);
            cr_assert_eq(sbf_add_u64(f, keys + 2000, 1000), SBF_OK);
            struct sbf_info in;
            cr_assert_eq(sbf_info(f, &in), SBF_OK);
            const uint64_t once = in.keys_added;
            cr_assert(once >= c1 + c2 && once <= c1 + c2 + 1000);
            /* every key again, by every call: nothing changes, nothing counts */
            k.n = 3000;
            cr_assert_eq(sbf_add_keys(f, &k, NULL), 0);
            cr_assert_eq(sbf_add_u64(f, keys, 3000), SBF_OK);
            const void *ptrs[100];
            size_t lens[100];
            for (int i = 0; i < 100; i++) {
                ptrs[i] = &keys[i];
                lens[i] = 8;
            }
            cr_assert_eq(sbf_add_batch(f, ptrs, lens, 100), SBF_OK);
            for (int i = 0; i < 3000; i++)
                cr_assert_eq(sbf_add(f, &keys[i], 8), 0);
            cr_assert_eq(sbf_info(f, &in), SBF_OK);
            cr_assert_eq(in.keys_added, once, "layout %d flags %u: re-adding inflated it",
                         layouts[li], flags);
            sbf_free(f);
        }
    free(keys);
}

/* One sequence of adds and removals on a small counting filter (shared
 * counters, saturation, removals of false positives); the count keys_added
 * should have, replayed with sbf_contains before each add and after each
 * removal. */
static uint64_t count_sequence(sbf_filter *f, const uint64_t *keys, uint64_t seed)
{
    uint64_t expect = 0, s = seed;
    for (int step = 0; step < 3000; step++) {
        const uint64_t r = tu_splitmix64(&s);
        const uint64_t *key = &keys[r % 300];
        if ((r >> 32) % 3 != 0) {
            const int before = sbf_contains(f, key, 8);
            cr_assert_eq(sbf_add(f, key, 8), !before, "the add's return is the change");
            expect += (uint64_t)!before;
        } else if (sbf_remove(f, key, 8) == SBF_OK) {
            expect -= (uint64_t)(sbf_contains(f, key, 8) == 0);
        }
    }
    return expect;
}

Test(lifecycle, keys_added_one_meaning,
     .description = "issue 20: the same calls give the same keys_added on a plain and an SBF_CONCURRENT filter, removals of saturated and false-positive keys included")
{
    /* a key added 16 times saturates its counter; removing it 20 times then
     * always succeeds and never makes it absent; a new key counts once */
    for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++) {
        sbf_params p = params(SBF_COUNTING, 512, flags, NULL);
        p.k = 1;
        sbf_filter *f;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK);
        const uint64_t a = 1;
        for (int i = 0; i < 16; i++)
            cr_assert_eq(sbf_add(f, &a, 8), i == 0);
        for (int i = 0; i < 20; i++)
            cr_assert_eq(sbf_remove(f, &a, 8), SBF_OK);
        uint64_t c = 2;
        while (sbf_contains(f, &c, 8))
            c++;
        cr_assert_eq(sbf_add(f, &c, 8), 1);
        struct sbf_info in;
        cr_assert_eq(sbf_info(f, &in), SBF_OK);
        cr_assert_eq(in.keys_added, 2, "flags %u", flags);
        sbf_free(f);
    }
    /* random sequences on every layout that removes */
    uint64_t *keys = equiv_keys(300, 33);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        uint64_t got[2], want[2];
        for (uint32_t flags = 0; flags <= SBF_CONCURRENT; flags++) {
            sbf_params p = params(SBF_COUNTING, 1024, flags, NULL);
            p.k = 3;
            sbf_filter *f;
            cr_assert_eq(sbf_create(&f, &p), SBF_OK);
            want[flags] = count_sequence(f, keys, seed);
            struct sbf_info in;
            cr_assert_eq(sbf_info(f, &in), SBF_OK);
            got[flags] = in.keys_added;
            sbf_free(f);
        }
        cr_assert_eq(want[0], want[1], "seed %llu: the same sequence", (unsigned long long)seed);
        cr_assert_eq(got[0], got[1], "seed %llu: plain %llu, concurrent %llu",
                     (unsigned long long)seed, (unsigned long long)got[0],
                     (unsigned long long)got[1]);
        cr_assert_eq(got[0], want[0] > (uint64_t)INT64_MAX ? 0 : want[0],
                     "seed %llu: the replayed count", (unsigned long long)seed);
    }
    free(keys);
}

/* ------------------------------------- info and copy during concurrent adds */

#define RACE_ADDERS 2
#define RACE_KEYS 20000

typedef struct race {
    sbf_filter *f;
    const uint64_t *keys;
    atomic_size_t done[RACE_ADDERS]; /* keys of adder t added so far */
    atomic_int adders_left;
    atomic_size_t changed;           /* what the adds returned, summed */
} race;

typedef struct racer {
    race *r;
    int id;
} racer;

static void *race_adder(void *arg)
{
    const racer *w = arg;
    const uint64_t *mine = w->r->keys + (size_t)w->id * RACE_KEYS;
    size_t changed = 0;
    for (size_t i = 0; i < RACE_KEYS; i += 50) {
        if ((i / 50) & 1) {
            sbf_keys k = { 0 };
            k.n = 50;
            k.u64 = mine + i;
            changed += sbf_add_keys(w->r->f, &k, NULL);
        } else {
            for (size_t j = i; j < i + 50; j++) {
                const int r = sbf_add(w->r->f, &mine[j], 8);
                cr_assert_geq(r, 0);
                changed += (size_t)r;
            }
        }
        atomic_store_explicit(&w->r->done[w->id], i + 50, memory_order_release);
    }
    atomic_fetch_add(&w->r->changed, changed);
    atomic_fetch_sub(&w->r->adders_left, 1);
    return NULL;
}

/* While the adders run: sbf_info and sbf_copy, each copy holding every key
 * published before it was taken. */
static void race_queries(race *r)
{
    long rounds = 0;
    while (atomic_load(&r->adders_left) > 0 || rounds < 2) {
        size_t seen[RACE_ADDERS];
        for (int t = 0; t < RACE_ADDERS; t++)
            seen[t] = atomic_load_explicit(&r->done[t], memory_order_acquire);
        struct sbf_info in;
        cr_assert_eq(sbf_info(r->f, &in), SBF_OK);
        cr_assert(in.fill_ratio >= 0 && in.fill_ratio <= 1);
        cr_assert_eq(sbf_info_ex(r->f, &in, SBF_INFO_SAMPLE), SBF_OK);
        cr_assert_geq(sbf_memory_usage(r->f), in.bytes);
        sbf_filter *c;
        cr_assert_eq(sbf_copy(&c, r->f), SBF_OK);
        for (int t = 0; t < RACE_ADDERS; t++)
            cr_assert_eq(sbf_contains_u64(c, r->keys + (size_t)t * RACE_KEYS, seen[t], NULL),
                         seen[t], "the copy lost a key added before it");
        sbf_free(c);
        rounds++;
    }
}

Test(lifecycle, info_and_copy_during_adds,
     .description = "issue 20: sbf_info, sbf_info_ex, sbf_copy, sbf_memory_usage of an SBF_CONCURRENT filter while threads add, every layout (TSan-clean in make test-tsan)")
{
    uint64_t *keys = equiv_keys(RACE_ADDERS * RACE_KEYS, 99);
    cr_assert_not_null(keys);
    for (size_t li = 0; li < 4; li++) {
        race r;
        sbf_params p = params(layouts[li], UINT64_C(1) << 20, SBF_CONCURRENT, NULL);
        cr_assert_eq(sbf_create(&r.f, &p), SBF_OK);
        r.keys = keys;
        for (int t = 0; t < RACE_ADDERS; t++)
            atomic_init(&r.done[t], 0);
        atomic_init(&r.adders_left, RACE_ADDERS);
        atomic_init(&r.changed, 0);
        pthread_t th[RACE_ADDERS];
        racer w[RACE_ADDERS];
        for (int t = 0; t < RACE_ADDERS; t++) {
            w[t].r = &r;
            w[t].id = t;
            cr_assert_eq(pthread_create(&th[t], NULL, race_adder, &w[t]), 0);
        }
        race_queries(&r);
        for (int t = 0; t < RACE_ADDERS; t++)
            pthread_join(th[t], NULL);
        struct sbf_info in;
        cr_assert_eq(sbf_info(r.f, &in), SBF_OK);
        cr_assert_eq(in.keys_added, atomic_load(&r.changed));
        sbf_free(r.f);
    }
    free(keys);
}

/* ------------------------------------------------------------ SBF_ZEROED */

Test(lifecycle, zeroed_flag_skips_the_clear,
     .description = "issue 33: with SBF_ZEROED sbf_create trusts the allocator's zeroes (the tracker's 0xa5 shows through, so no pass was made); without it every word is cleared; the flag is not kept (a copy is cleared and exact), needs no allocator, and the next bit is still SBF_E_FLAGS")
{
    tracker t;
    const sbf_allocator a = tracking(&t, 8);
    sbf_filter *f = NULL, *g = NULL;
    sbf_params p = params(SBF_BLOCKED, 4096, SBF_ZEROED, &a);
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    size_t len;
    const unsigned char *d = sbf_data(f, &len);
    cr_assert_eq(d[0], 0xa5, "not cleared: the allocator said its memory reads as zero");
    cr_assert_eq(d[len - 1], 0xa5);
    sbf_free(f);
    p = params(SBF_BLOCKED, 4096, 0, &a);
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    cr_assert(all_zero(f), "no flag: cleared");
    cr_assert_eq(sbf_add(f, "k", 1), 1);
    cr_assert_eq(sbf_copy(&g, f), SBF_OK);
    cr_assert_eq(sbf_contains(g, "k", 1), 1);
    size_t lf, lg;
    const void *df = sbf_data(f, &lf), *dg = sbf_data(g, &lg);
    cr_assert(lf == lg && memcmp(df, dg, lf) == 0, "the copy is exact");
    sbf_free(g);
    sbf_free(f);
    p = params(SBF_SPLIT_BLOCK, 4096, SBF_ZEROED | SBF_CONCURRENT, NULL);
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    cr_assert(all_zero(f), "the library's own memory is always zero");
    cr_assert_eq(sbf_add(f, "k", 1), 1, "concurrent kept");
    sbf_free(f);
    p = params(SBF_BLOCKED, 4096, SBF_ZEROED << 1, &a);
    cr_assert_eq(sbf_create(&f, &p), SBF_E_FLAGS);
    cr_assert_eq(t.live_blocks, 0, "all given back");
}
