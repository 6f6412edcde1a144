/*
 * What bench_hot.c (the measurements of `--suite hot`) shares with
 * bench_hot_out.c (its tables, Markdown and JSON).
 */
#ifndef SBFB_BENCH_HOT_H_71D0
#define SBFB_BENCH_HOT_H_71D0

#include "bench.h"

typedef struct hot_row {
    const char *table;     /* "single", "roof", "threads", "conc" */
    int layout, isa, size_idx;
    size_t bytes;
    char what[48];         /* operation */
    int threads;           /* threads (threads, roof) */
    int dist;              /* prefetch distance that won (roof) */
    double ns;             /* ns per key (threads: wall ns / total keys) */
    double ratio;          /* single: / hash or / contains; roof: / roofline;
                              conc: concurrent / plain */
} hot_row;

/* bench/inline/loops.c, compiled once per vector path of
 * simdbloom_inline.h: loops of one sbf_view_* call per key (keys; for
 * SBFB_INL_CONTAINS_HASH, n pairs h1, h2). SBFB_INLINE_X86: the Makefile
 * built the avx2, avx512 and avx512v paths too. */
struct sbf_view;
enum { SBFB_INL_CONTAINS, SBFB_INL_ADD, SBFB_INL_CONTAINS_HASH, SBFB_INL_N_CONTAINS,
       SBFB_INL_N_ADD };
/* SBFB_INL_N_*: the same through the view narrowed to its probe
 * (sbf_view_split / _blocked / _parquet); SBFB_INL_NOT_NARROWED if none
 * takes the view. */
#define SBFB_INL_NOT_NARROWED UINT64_MAX
typedef uint64_t (*sbfb_inline_loops_fn)(int op, const struct sbf_view *v,
                                         const uint64_t *keys, size_t n);
uint64_t sbfb_inline_loops_portable(int op, const struct sbf_view *v, const uint64_t *keys,
                                    size_t n);
#if defined(SBFB_INLINE_X86)
uint64_t sbfb_inline_loops_avx2(int op, const struct sbf_view *v, const uint64_t *keys,
                                size_t n);
uint64_t sbfb_inline_loops_avx512(int op, const struct sbf_view *v, const uint64_t *keys,
                                  size_t n);
/* AVX-512 with the 8-byte hash's fmix64s in one vector (SBF_INLINE_HASH8_VEC) */
uint64_t sbfb_inline_loops_avx512v(int op, const struct sbf_view *v, const uint64_t *keys,
                                   size_t n);
#endif

/* Runs the parts SBFB_HOT names (single, conc, roof, threads; default all). */
void sbfb_hot_run(const sbfb_opts *o, sbfb_results *r);

#endif
