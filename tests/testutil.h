/* Helpers shared by the test suites (header-only, test code only). */
#ifndef SBF_TESTUTIL_H_3E9D41B7
#define SBF_TESTUTIL_H_3E9D41B7

#if defined(SBF_TEST_SHIM)
#  include "tsan/crshim.h" /* ThreadSanitizer runner: no Criterion */
#else
#  include <criterion/criterion.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"
#include "equiv.h"

#ifndef SBF_SOURCE_DIR
#  define SBF_SOURCE_DIR "."
#endif

/* Opens tests/vectors/<name>; fails the test when missing. */
static inline FILE *tu_open_vector(const char *name, const char *mode)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/vectors/%s", SBF_SOURCE_DIR, name);
    FILE *f = fopen(path, mode);
    cr_assert_not_null(f, "cannot open %s", path);
    return f;
}

/* Reads a whole vector file into malloc'd memory. */
static inline unsigned char *tu_read_vector(const char *name, size_t *len)
{
    FILE *f = tu_open_vector(name, "rb");
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    cr_assert_not_null(buf);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Next non-comment line (without newline) into line; 0 at end of file. */
static inline int tu_next_line(FILE *f, char *line, size_t cap)
{
    while (fgets(line, (int)cap, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        return 1;
    }
    return 0;
}

/* splitmix64: the tests' deterministic key source. */
static inline uint64_t tu_splitmix64(uint64_t *s)
{
    return equiv_splitmix(s);
}

static inline sbf_filter *tu_make(int layout, uint64_t n, double fpp, uint64_t bits,
                                  uint32_t k, uint32_t seed)
{
    sbf_params p = { 0 };
    p.layout = layout;
    p.expected_n = n;
    p.fpp = fpp;
    p.bits = bits;
    p.k = k;
    p.seed = seed;
    sbf_filter *f = NULL;
    int rc = sbf_create(&f, &p);
    cr_assert_eq(rc, SBF_OK, "sbf_create: %s", sbf_strerror(rc));
    return f;
}

/* A filter of geometry g on this ISA's kernels with these sbf_params.flags
 * (the single-key and SBF_CONCURRENT suites); fails the test on an error. */
static inline sbf_filter *tu_make_on(int isa, const geometry *g, uint32_t flags)
{
    sbf_params p = { 0 };
    p.layout = g->layout;
    p.bits = g->bits;
    p.k = g->k;
    p.seed = g->seed;
    p.flags = flags;
    cr_assert_eq(sbf_isa_set(isa), SBF_OK);
    sbf_filter *f = NULL;
    const int rc = sbf_create(&f, &p);
    cr_assert_eq(rc, SBF_OK, "sbf_create: %s", sbf_strerror(rc));
    return f;
}

/* Wilson score interval for x successes in n trials at z. */
static inline void tu_wilson(double x, double n, double z, double *lo, double *hi)
{
    const double p = x / n, z2 = z * z;
    const double c = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double h = z / (1 + z2 / n) * __builtin_sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    *lo = c - h;
    *hi = c + h;
}

#endif
