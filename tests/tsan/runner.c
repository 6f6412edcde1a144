/*
 * Runs the concurrency suites (tests/test_concurrent.c, tests/test_single.c,
 * tests/test_lifecycle.c) and the inline header's (tests/test_inline.c, with
 * tests/inline_ops.c linked in) without Criterion, for ThreadSanitizer
 * (`make test-tsan`) and qemu (`make test-neon`). Optional argument: run only
 * tests whose "suite/name" contains it.
 */
#define _GNU_SOURCE 1 /* the suites included below use POSIX calls */
#include "crshim.h"

#include "../test_concurrent.c"
#include "../test_single.c"
#include "../test_lifecycle.c"
#include "../test_inline.c"

#define SHIM_MAX 64
static struct { const char *suite, *name; shim_fn fn; } tests[SHIM_MAX];
static int ntests;
jmp_buf shim_skip;

void shim_register(const char *suite, const char *name, shim_fn fn)
{
    if (ntests < SHIM_MAX) {
        tests[ntests].suite = suite;
        tests[ntests].name = name;
        tests[ntests].fn = fn;
        ntests++;
    }
}

int main(int argc, char **argv)
{
    volatile int run = 0, skipped = 0;
    for (volatile int i = 0; i < ntests; i++) {
        char full[128];
        snprintf(full, sizeof full, "%s/%s", tests[i].suite, tests[i].name);
        if (argc > 1 && strstr(full, argv[1]) == NULL)
            continue;
        if (setjmp(shim_skip) == 0) {
            tests[i].fn();
            printf("ok    %s\n", full);
            run++;
        } else {
            printf("skip  %s\n", full);
            skipped++;
        }
        sbf_isa_set(SBF_ISA_AUTO);
    }
    printf("%d passed, %d skipped\n", run, skipped);
    return run > 0 ? 0 : 1;
}
