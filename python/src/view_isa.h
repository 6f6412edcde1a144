/* The one-key calls of simdbloom._core, per instruction set, and what
 * _core.c shares with view_isa.inc (Python.h comes first). */
#ifndef SIMDBLOOM_PY_VIEW_ISA_H
#define SIMDBLOOM_PY_VIEW_ISA_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "simdbloom_inline.h"

typedef struct {
    PyObject_HEAD
    sbf_filter *f;
    PyObject *map_path; /* bytes (fs-encoded) for a mapped filter, else NULL */
    int map_flags;
    int readers; /* batches querying without the GIL */
    int writer;  /* a batch modifying without the GIL */
    int has_view;
    sbf_view view; /* one-key adds and queries inlined (simdbloom_inline.h);
                      a mapping's view refuses adds with SBF_E_READONLY */
} FilterObject;

typedef struct view_ops {
    int (*add_u64)(const sbf_view *v, uint64_t key);
    int (*has_u64)(const sbf_view *v, uint64_t key);
    int (*add)(const sbf_view *v, const void *key, size_t len);
    int (*has)(const sbf_view *v, const void *key, size_t len);
    /* Filter.add and `key in f` whole, this ISA's view code inlined (no
     * per-call dispatch); keys other than int, bytes and str go to the
     * generic calls below */
    PyObject *(*py_add)(PyObject *self, PyObject *key);
    int (*py_contains)(PyObject *self, PyObject *key);
} view_ops;

extern const view_ops view_ops_avx2, view_ops_avx512;

/* _core.c's, for view_isa.inc */
int int_value_slow(PyObject *o, uint64_t *u);
void wait_slow(FilterObject *s, int write);
PyObject *raise_sbf(int rc, int saved_errno, PyObject *where);
PyObject *Filter_add(FilterObject *self, PyObject *key);
int Filter_contains(FilterObject *self, PyObject *key);

/* An int's 64-bit two's-complement value; the common ints read from the
 * object directly (CPython's own int layout), others by int_value_slow. */
static inline int int_value(PyObject *o, uint64_t *u)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_CheckExact(o) && PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *u = (uint64_t)(int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 0;
    }
#elif PY_VERSION_HEX >= 0x030B0000 && PyLong_SHIFT == 30
    /* up to three 30-bit digits: every key below 2**64 (random 64-bit keys
     * take three digits, which PyLong_AsLongLongAndOverflow reads in ~45
     * instructions more than this) */
    if (PyLong_CheckExact(o)) {
        const Py_ssize_t size = Py_SIZE(o);
        const digit *d = ((PyLongObject *)o)->ob_digit;
        const Py_ssize_t n = size < 0 ? -size : size;
        if (n <= 3) {
            uint64_t v = 0;
            switch (n) {
            case 3:
                if (d[2] >> 4) /* |value| >= 2**64 */
                    return int_value_slow(o, u);
                v = (uint64_t)d[2] << (2 * PyLong_SHIFT);
                /* fall through */
            case 2:
                v |= (uint64_t)d[1] << PyLong_SHIFT;
                /* fall through */
            case 1:
                v |= d[0];
                break;
            default:
                break;
            }
            if (size >= 0) {
                *u = v;
                return 0;
            }
            if (v <= (UINT64_C(1) << 63)) { /* -2**63 .. -1 */
                *u = (uint64_t)0 - v;
                return 0;
            }
        }
    }
#endif
    return int_value_slow(o, u);
}

/* Waits until no batch running without the GIL conflicts with a call that
 * queries (write 0) or modifies (write 1) the filter: one test when none. */
static inline void guard(FilterObject *s, int write)
{
    if (s->writer || (write && s->readers))
        wait_slow(s, write);
}
#endif
