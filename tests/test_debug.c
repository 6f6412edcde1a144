/*
 * The debug assertions (SBFI_ASSERT, on with -DSBF_DEBUG, which the SAN=1
 * build sets): a broken internal invariant stops the program there instead
 * of writing out of bounds. The tests break a filter object on purpose,
 * which only test code can do (sbf_internal.h).
 */
#include <criterion/criterion.h>

#include <signal.h>

#include "sbf_internal.h"
#include "testutil.h"

#if defined(SBF_DEBUG)
Test(debug, filter_invariant_fires, .signal = SIGABRT,
     .description = "SBF_DEBUG: a blocked filter whose k left 1..16 aborts at the next add") {
    sbf_filter *f = tu_make(SBF_BLOCKED, 1000, 0.01, 0, 0, 0);
    f->k = 40;
    uint64_t key = 7;
    (void)sbf_add_u64(f, &key, 1);
}

Test(debug, mask_invariant_fires, .signal = SIGABRT,
     .description = "SBF_DEBUG: the scalar mask refuses a split-block k other than 8 or 16") {
    uint32_t m[16];
    sbfi_split_mask(sbfi_layout_of(SBF_SPLIT_BLOCK)->salt, 12345, 9, m);
}

Test(debug, valid_filters_pass, .description = "SBF_DEBUG: every layout's filters satisfy the invariants through a life cycle") {
    for (int layout = SBF_CLASSIC; layout <= SBF_COUNTING; layout++) {
        sbf_filter *f = tu_make(layout, 5000, 0.01, 0, 0, 9);
        cr_assert(sbfi_filter_ok(f));
        uint64_t keys[300];
        for (int i = 0; i < 300; i++)
            keys[i] = (uint64_t)i * 0x9e3779b97f4a7c15u;
        cr_assert_eq(sbf_add_u64(f, keys, 300), SBF_OK);
        cr_assert_eq(sbf_contains_u64(f, keys, 300, NULL), 300);
        if (layout == SBF_COUNTING)
            for (int i = 0; i < 300; i++)
                cr_assert_eq(sbf_remove(f, &keys[i], 8), SBF_OK);
        sbf_filter *c = NULL;
        cr_assert_eq(sbf_copy(&c, f), SBF_OK);
        cr_assert_eq(sbf_union(c, f), SBF_OK);
        cr_assert(sbfi_filter_ok(c));
        sbf_free(c);
        sbf_free(f);
    }
}
#else
Test(debug, off_in_this_build, .description = "SBF_DEBUG is off: SBFI_ASSERT does not evaluate its condition") {
    int evaluated = 0;
    SBFI_ASSERT(++evaluated);
    cr_assert_eq(evaluated, 0);
}
#endif
