/* The one-key view calls of simdbloom._core, per instruction set. */
#ifndef SIMDBLOOM_PY_VIEW_ISA_H
#define SIMDBLOOM_PY_VIEW_ISA_H
#include "simdbloom_inline.h"

typedef struct view_ops {
    int (*add_u64)(const sbf_view *v, uint64_t key);
    int (*has_u64)(const sbf_view *v, uint64_t key);
    int (*add)(const sbf_view *v, const void *key, size_t len);
    int (*has)(const sbf_view *v, const void *key, size_t len);
} view_ops;

extern const view_ops view_ops_avx2, view_ops_avx512;
#endif
