/*
 * A minimal stand-in for the Criterion macros the concurrency suites use,
 * so they can run under ThreadSanitizer: Criterion's runner cannot start
 * there (its shared arena does not map beside TSan's shadow memory).
 * Test code only. A failed check prints and exits non-zero; a skip returns
 * to the runner (tests/tsan/runner.c).
 */
#ifndef SBF_CRSHIM_H_0B7A19E4
#define SBF_CRSHIM_H_0B7A19E4

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*shim_fn)(void);
void shim_register(const char *suite, const char *name, shim_fn fn);
extern jmp_buf shim_skip;

#define Test(suite, name, ...)                                                 \
    static void suite##_##name(void);                                          \
    __attribute__((constructor)) static void shim_reg_##suite##_##name(void)   \
    {                                                                          \
        shim_register(#suite, #name, suite##_##name);                          \
    }                                                                          \
    static void suite##_##name(void)

#define SHIM_CHECK(c, text)                                                    \
    do {                                                                       \
        if (!(c)) {                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, text); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

#define cr_assert(c, ...) SHIM_CHECK((c), #c)
#define cr_assert_eq(a, b, ...) SHIM_CHECK((a) == (b), #a " == " #b)
#define cr_assert_neq(a, b, ...) SHIM_CHECK((a) != (b), #a " != " #b)
#define cr_assert_geq(a, b, ...) SHIM_CHECK((a) >= (b), #a " >= " #b)
#define cr_assert_lt(a, b, ...) SHIM_CHECK((a) < (b), #a " < " #b)
#define cr_assert_leq(a, b, ...) SHIM_CHECK((a) <= (b), #a " <= " #b)
#define cr_assert_gt(a, b, ...) SHIM_CHECK((a) > (b), #a " > " #b)
#define cr_assert_null(p, ...) SHIM_CHECK((p) == NULL, #p " == NULL")
#define cr_assert_not_null(p, ...) SHIM_CHECK((p) != NULL, #p " != NULL")
#define cr_assert_str_neq(a, b, ...) SHIM_CHECK(strcmp((a), (b)) != 0, #a " != " #b)
#define cr_assert_fail(...) SHIM_CHECK(0, "cr_assert_fail")
#define cr_skip_test(...) longjmp(shim_skip, 1)

#endif
