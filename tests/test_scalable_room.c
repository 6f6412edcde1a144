/*
 * A growing filter decided outside the library (sbf dedup --threads): the
 * newest sub-filter's room, and adds made through views counted back, give
 * the same filter, byte for byte, as the keys added one by one.
 */
#include "testutil.h"
#define SBF_INLINE_NO_KERNELS 1 /* the portable inline probes, counting into the view's counter */
#include "simdbloom_inline.h"

#include <stdlib.h>
#include <string.h>

static sbf_scalable *make(uint64_t initial)
{
    sbf_scalable_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.initial_n = initial;
    p.fpp = 0.01;
    sbf_scalable *s;
    cr_assert_eq(sbf_scalable_create(&s, &p), SBF_OK);
    return s;
}

static void hashes(const sbf_scalable *s, uint64_t from, size_t n, uint64_t *h1, uint64_t *h2)
{
    uint64_t *k = malloc(n * sizeof *k);
    cr_assert(k != NULL);
    for (size_t i = 0; i < n; i++)
        k[i] = (from + i) * 7919 % 2500; /* repeats: some keys seen before */
    cr_assert_eq(sbf_scalable_hash(s, NULL, NULL, k, n, h1, h2), SBF_OK);
    free(k);
}

Test(scalable_room, views_counted_back, .description = "keys decided through views of the "
     "sub-filters while they fit, counted back by sbf_scalable_count_adds: the same answers and "
     "serialized bytes as sbf_scalable_add_hashes")
{
    sbf_scalable *a = make(500), *b = make(500);
    uint64_t room = 0;
    cr_assert_eq(sbf_scalable_room(a, &room), SBF_OK);
    cr_assert_eq(room, 500);
    enum { N = 3000, STEP = 100 };
    uint64_t h1[N], h2[N];
    uint8_t want[N], got[N];
    hashes(a, 0, N, h1, h2);
    cr_assert(!sbf_is_error(sbf_scalable_add_hashes(a, h1, h2, N, want)));
    size_t by_views = 0;
    for (size_t at = 0; at < N; at += STEP) {
        cr_assert_eq(sbf_scalable_room(b, &room), SBF_OK);
        const uint32_t nf = sbf_scalable_filters(b);
        if (room < STEP) { /* may start a sub-filter: in order */
            cr_assert(!sbf_is_error(sbf_scalable_add_hashes(b, h1 + at, h2 + at, STEP, got + at)));
            continue;
        }
        sbf_view old[8], nv;
        cr_assert(nf >= 1 && nf <= 8);
        for (uint32_t i = 0; i + 1 < nf; i++)
            cr_assert_eq(sbf_view_get(sbf_scalable_filter(b, i), &old[i]), SBF_OK);
        cr_assert_eq(sbf_view_get_writable(sbf_scalable_filter_writable(b, nf - 1), &nv), SBF_OK);
        uint64_t mine = 0;
        nv.added = &mine;
        for (size_t i = at; i < at + STEP; i++) {
            int held = 0;
            for (uint32_t o = nf - 1; o-- > 0 && !held;)
                held = sbf_view_contains_hash(&old[o], h1[i], h2[i]);
            got[i] = (uint8_t)(held ? 0 : sbf_view_add_hash(&nv, h1[i], h2[i]));
        }
        cr_assert_eq(sbf_scalable_count_adds(b, mine), SBF_OK);
        cr_assert_eq(sbf_scalable_room(b, &room), SBF_OK);
        by_views++;
    }
    cr_assert(by_views > 5 && sbf_scalable_filters(b) >= 3, "%zu chunks by views, %u filters",
              by_views, sbf_scalable_filters(b));
    cr_assert(memcmp(want, got, N) == 0);
    cr_assert_eq(sbf_scalable_count(a), sbf_scalable_count(b));
    void *ba, *bb;
    size_t la, lb;
    cr_assert_eq(sbf_scalable_serialize(a, &ba, &la), SBF_OK);
    cr_assert_eq(sbf_scalable_serialize(b, &bb, &lb), SBF_OK);
    cr_assert(la == lb && memcmp(ba, bb, la) == 0, "the filters differ");
    free(ba);
    free(bb);
    sbf_scalable_free(a);
    sbf_scalable_free(b);
}

Test(scalable_room, refusals, .description = "count_adds past the room, on a mapping or NULL "
     "is refused and counts nothing")
{
    sbf_scalable *s = make(100);
    uint64_t room = 1;
    cr_assert_eq(sbf_scalable_room(NULL, &room), SBF_E_NULL);
    cr_assert_eq(sbf_scalable_room(s, NULL), SBF_E_NULL);
    cr_assert_eq(sbf_scalable_count_adds(NULL, 1), SBF_E_NULL);
    cr_assert_eq(sbf_scalable_count_adds(s, 101), SBF_E_FULL);
    cr_assert_eq(sbf_scalable_count(s), 0);
    cr_assert_eq(sbf_scalable_count_adds(s, 0), SBF_OK);
    cr_assert_eq(sbf_scalable_count_adds(s, 60), SBF_OK);
    cr_assert_eq(sbf_scalable_room(s, &room), SBF_OK);
    cr_assert_eq(room, 40);
    cr_assert_eq(sbf_scalable_count(s), 60);
    cr_assert_eq(sbf_scalable_count_adds(s, 41), SBF_E_FULL);
    cr_assert_eq(sbf_scalable_count_adds(s, 40), SBF_OK);
    cr_assert_eq(sbf_scalable_room(s, &room), SBF_OK);
    cr_assert_eq(room, 0);
    cr_assert_eq(sbf_scalable_count_adds(s, 1), SBF_E_FULL);
    sbf_scalable_free(s);
}
