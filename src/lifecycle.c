/*
 * A filter's life: the one constructor every filter comes to be through
 * (sbf_create, sbf_load, sbf_map, sbf_import_guava, sbf_deserialize,
 * sbf_copy all end in sbfi_make), the one destructor (sbf_free), and the one
 * owner of a filter's memory. Who owns the words is one field, f->mem:
 *
 *   SBFI_MEM_HEAP    aligned_alloc (the library's, below 2 MiB)
 *   SBFI_MEM_HUGE    an anonymous mapping, 2 MiB aligned, huge-page advised
 *   SBFI_MEM_CALLER  the caller's sbf_allocator, 64-byte aligned inside
 *   SBFI_MEM_FILE    a read-only file mapping made by sbf_map (src/file.c)
 *
 * and mem_base / mem_len say what to give back. The struct itself (with the
 * keys_added stripes of a concurrent filter inside it) comes from the
 * caller's allocator when there is one, else from malloc. Also here: the
 * information and copy calls that read a whole filter, and
 * sbf_memory_usage.
 */
#define _GNU_SOURCE 1
#include "sbf_internal.h"

#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

#define STRIPES_BYTES (SBFI_NSTRIPES * SBFI_STRIPE * sizeof(uint64_t))

/* ------------------------------------------------------------------ memory */

static void *raw_alloc(const sbf_allocator *a, size_t n)
{
    return a->alloc ? a->alloc(a->opaque, n) : malloc(n);
}

static void raw_free(const sbf_allocator *a, void *p)
{
    if (p == NULL)
        return;
    if (a->alloc)
        a->free(a->opaque, p);
    else
        free(p);
}

static unsigned char *align_up(void *p, size_t to)
{
    const uintptr_t u = (uintptr_t)p;
    return (unsigned char *)(uintptr_t)((u + to - 1) & ~(uintptr_t)(to - 1));
}

/* The library's own words: 2 MiB aligned anonymous memory from 2 MiB, so
 * transparent huge pages can back all of it. A fresh mapping reads as zero:
 * nothing is written (the kernel zeroes each page when first touched). */
static int words_huge(sbf_filter *f)
{
    const size_t len = (f->bytes + SBFI_HUGE - 1) / SBFI_HUGE * SBFI_HUGE;
    SBFI_RETURN_IF(len < f->bytes || len + SBFI_HUGE < len, SBF_E_NOMEM);
    unsigned char *raw = mmap(NULL, len + SBFI_HUGE, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SBFI_RETURN_IF(raw == MAP_FAILED, SBF_E_NOMEM);
    unsigned char *p = align_up(raw, SBFI_HUGE);
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + SBFI_HUGE)
        munmap(p + len, (size_t)(raw + len + SBFI_HUGE - (p + len)));
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, len, MADV_HUGEPAGE); /* advice only; may be refused */
#endif
    f->mem = SBFI_MEM_HUGE;
    f->mem_base = p;
    f->mem_len = len;
    f->words = (uint64_t *)(void *)p;
    return SBF_OK;
}

/* Zeroed, 64-byte aligned words for f->bytes, from whoever owns them;
 * zeroed: the caller's allocator gave zeroed memory (SBF_ZEROED). */
static int words_alloc(sbf_filter *f, int zeroed)
{
    if (f->alloc.alloc == NULL && f->bytes >= SBFI_HUGE)
        return words_huge(f);
    if (f->alloc.alloc == NULL) {
        void *p = aligned_alloc(SBFI_LINE, f->bytes);
        SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
        f->mem = SBFI_MEM_HEAP;
        f->mem_base = p;
        f->mem_len = f->bytes;
    } else {
        /* Whatever the caller's alloc aligns to, the words are aligned. */
        SBFI_RETURN_IF(f->bytes > SIZE_MAX - (SBFI_LINE - 1), SBF_E_NOMEM);
        const size_t n = f->bytes + SBFI_LINE - 1;
        void *p = f->alloc.alloc(f->alloc.opaque, n);
        SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
        f->mem = SBFI_MEM_CALLER;
        f->mem_base = p;
        f->mem_len = n;
    }
    f->words = (uint64_t *)(void *)align_up(f->mem_base, SBFI_LINE);
    if (!(zeroed && f->mem == SBFI_MEM_CALLER))
        memset(f->words, 0, f->bytes);
    return SBF_OK;
}

static void words_release(sbf_filter *f)
{
    switch (f->mem) {
    case SBFI_MEM_HEAP: free(f->mem_base); break;
    case SBFI_MEM_CALLER: f->alloc.free(f->alloc.opaque, f->mem_base); break;
    case SBFI_MEM_HUGE: /* fall through: both are mappings */
    case SBFI_MEM_FILE: (void)munmap(f->mem_base, f->mem_len); break;
    default: break; /* no words yet (a constructor that failed early) */
    }
    f->words = NULL;
    f->mem = 0;
}

void sbf_free(sbf_filter *f)
{
    if (f == NULL)
        return;
    words_release(f);
    const sbf_allocator a = f->alloc; /* the struct goes with it */
    raw_free(&a, f->self_base);
}

void sbf_buffer_free(void *buf) { free(buf); }

size_t sbf_memory_usage(const sbf_filter *f)
{
    return f == NULL ? 0 : f->self_len + f->mem_len;
}

/* ------------------------------------------------------------ constructor */

/* The struct, on a cache line (its first line is the one-key path's:
 * src/sbf_internal.h), with a concurrent filter's stripes (one cache line
 * each) inside the same block. The library's memory is aligned_alloc'd;
 * a caller's block is taken as it comes when it starts on a line (jemalloc's
 * size classes of 64-byte multiples do), else asked again 63 bytes longer. */
static int self_alloc(sbf_filter **out, const sbf_allocator *a, uint32_t flags)
{
    size_t n = sizeof(sbf_filter) +
               ((flags & SBF_CONCURRENT) ? SBFI_LINE - 1 + STRIPES_BYTES : 0);
    unsigned char *p;
    if (a->alloc == NULL) {
        n = (n + SBFI_LINE - 1) & ~(size_t)(SBFI_LINE - 1);
        p = aligned_alloc(SBFI_LINE, n);
    } else {
        p = raw_alloc(a, n);
        if (p != NULL && ((uintptr_t)p & (SBFI_LINE - 1)) != 0) {
            raw_free(a, p);
            n += SBFI_LINE - 1;
            p = raw_alloc(a, n);
        }
    }
    SBFI_RETURN_IF(p == NULL, SBF_E_NOMEM);
    memset(p, 0, n);
    sbf_filter *f = (sbf_filter *)(void *)align_up(p, SBFI_LINE);
    f->self_base = p;
    f->self_len = n;
    f->alloc = *a;
    if (flags & SBF_CONCURRENT)
        f->stripes = (uint64_t *)(void *)align_up((unsigned char *)f + sizeof *f, SBFI_LINE);
    *out = f;
    return SBF_OK;
}

static void unmap_given(const sbfi_make_args *a)
{
    if (a->map != NULL)
        (void)munmap(a->map, a->map_len);
}

int sbfi_make(sbf_filter **out, const sbfi_make_args *a)
{
    *out = NULL;
    static const sbf_allocator library = { NULL, NULL, NULL };
    const sbf_allocator *al = a->allocator ? a->allocator : &library;
    int rc = sbfi_check_geometry(a->layout, a->bits, a->k);
    if (rc == SBF_OK && al != &library && (al->alloc == NULL || al->free == NULL))
        rc = SBF_E_PARAM;
    if (rc == SBF_OK && (a->flags & ~(SBF_CONCURRENT | SBF_ZEROED)) != 0)
        rc = SBF_E_FLAGS;
    const uint32_t flags = a->flags & SBF_CONCURRENT; /* what the filter keeps */
    const sbfi_kernels *kt = a->kt;
    if (rc == SBF_OK && kt == NULL)
        rc = sbfi_kernels_current(&kt);
    sbf_filter *f = NULL;
    if (rc == SBF_OK)
        rc = self_alloc(&f, al, flags);
    if (rc != SBF_OK) {
        unmap_given(a);
        return rc;
    }
    sbfi_set_geometry(f, a->layout, a->bits, a->k); /* src/layout.c */
    f->seed = a->seed;
    f->s8add[0] = (uint64_t)a->seed ^ 8;
    f->s8add[1] = 2 * f->s8add[0];
    f->xxh3_flip8 = sbfi_xxh3_flip8(a->seed);
    f->fmix_s = sbfi_fmix_s(a->seed);
    f->kt = kt;
    f->added = a->added;
    f->added_unknown = a->added_unknown;
    if (a->map != NULL) {
        f->mem = SBFI_MEM_FILE;
        f->mem_base = a->map;
        f->mem_len = a->map_len;
        f->words = a->map_data;
    } else {
        rc = words_alloc(f, (a->flags & SBF_ZEROED) != 0);
    }
    if (rc == SBF_OK)
        rc = sbfi_bind(f, flags);
    if (rc != SBF_OK) {
        sbf_free(f);
        return rc;
    }
    SBFI_ASSERT(sbfi_filter_ok(f));
    *out = f;
    return SBF_OK;
}

int sbf_create(sbf_filter **out, const sbf_params *p)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || p == NULL, SBF_E_NULL);
    sbfi_make_args a = { 0 };
    SBFI_FORWARD_IF_ERROR(sbfi_geometry(p, &a.bits, &a.k));
    a.layout = p->layout;
    a.seed = p->seed;
    a.flags = p->flags;
    a.allocator = p->allocator;
    return sbfi_make(out, &a);
}

/* ---------------------------------------------------------- copy and info
 * Both are queries: on an SBF_CONCURRENT filter they run while other
 * threads add, so they read its words with relaxed atomic loads (no data
 * race; each word is some value it held). */

static void copy_words(uint64_t *dst, const sbf_filter *f)
{
    if (!(f->flags & SBF_CONCURRENT)) {
        memcpy(dst, f->words, f->bytes);
        return;
    }
    const size_t n = f->bytes / 8;
    for (size_t i = 0; i < n; i++)
        dst[i] = __atomic_load_n(&f->words[i], __ATOMIC_RELAXED);
}

void sbfi_args_like(sbfi_make_args *a, const sbf_filter *f)
{
    memset(a, 0, sizeof *a);
    a->layout = f->layout;
    a->bits = f->bits;
    a->k = f->k;
    a->seed = f->seed;
    a->flags = f->flags;
    a->kt = f->kt;
    a->allocator = f->alloc.alloc ? &f->alloc : NULL;
    const uint64_t added = sbfi_keys_added(f);
    a->added_unknown = added == SBF_KEYS_UNKNOWN;
    a->added = a->added_unknown ? 0 : added;
}

int sbf_copy(sbf_filter **out, const sbf_filter *f)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || f == NULL, SBF_E_NULL);
    sbfi_make_args a;
    sbfi_args_like(&a, f);
    sbf_filter *c;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&c, &a));
    copy_words(c->words, f);
    *out = c;
    return SBF_OK;
}

/* SBF_INFO_SAMPLE reads 256 evenly spaced runs of 64 lines (4 KiB: one
 * page of a mapping, so one fault each), 1 MiB in all. */
#define INFO_SAMPLE_RUNS 256u
#define INFO_RUN_LINES 64u
#define INFO_SAMPLE_LINES (INFO_SAMPLE_RUNS * INFO_RUN_LINES)

typedef struct cell_count {
    uint64_t set, sat; /* set bits (counting: non-zero counters), saturated */
    uint64_t words;    /* words looked at */
} cell_count;

/* Words [from, to) of f: set bits or, for counting, non-zero and saturated
 * counters. */
static void count_words(const sbf_filter *f, size_t from, size_t to, cell_count *c)
{
    const int counting = sbfi_counts(f->lay);
    for (size_t i = from; i < to; i++) {
        const uint64_t w = __atomic_load_n(&f->words[i], __ATOMIC_RELAXED);
        if (!counting) {
            c->set += (uint64_t)__builtin_popcountll(w);
            continue;
        }
        c->set += (uint64_t)__builtin_popcountll(sbfi_nibnz(w));
        c->sat += (uint64_t)__builtin_popcountll(sbfi_nib15(w));
    }
    c->words += to - from;
}

/* The used words (an unverified mapping may hold padding bits): all, or
 * with `sample` INFO_SAMPLE_RUNS evenly spaced runs when there are more
 * lines than they hold. Keys spread over blocks by hash, so neighbouring
 * lines are as good a sample as distant ones, and a run costs one page. */
static void count_cells(const sbf_filter *f, int sample, cell_count *c)
{
    memset(c, 0, sizeof *c);
    const size_t nw = (size_t)(f->bits / 64), lines = (nw + 7) / 8;
    if (!sample || lines <= INFO_SAMPLE_LINES) {
        count_words(f, 0, nw, c);
        return;
    }
    const size_t runs = lines / INFO_RUN_LINES; /* whole runs: > INFO_SAMPLE_RUNS */
    if (f->mem == SBFI_MEM_FILE) /* ask for every run's page at once: the reads overlap */
        for (size_t s = 0; s < INFO_SAMPLE_RUNS; s++) {
            const size_t run = (size_t)((unsigned __int128)s * runs / INFO_SAMPLE_RUNS);
            (void)madvise(f->words + run * INFO_RUN_LINES * 8, INFO_RUN_LINES * SBFI_LINE,
                          MADV_WILLNEED);
        }
    for (size_t s = 0; s < INFO_SAMPLE_RUNS; s++) {
        const size_t run = (size_t)((unsigned __int128)s * runs / INFO_SAMPLE_RUNS);
        const size_t from = run * INFO_RUN_LINES * 8;
        count_words(f, from, from + INFO_RUN_LINES * 8, c);
    }
}

int sbf_info_ex(const sbf_filter *f, struct sbf_info *out, unsigned flags)
{
    SBFI_RETURN_IF(f == NULL || out == NULL, SBF_E_NULL);
    SBFI_RETURN_IF((flags & ~SBF_INFO_SAMPLE) != 0, SBF_E_PARAM);
    memset(out, 0, sizeof *out);
    out->layout = f->layout;
    out->bits = f->bits;
    out->bytes = f->bytes;
    out->k = f->k;
    out->block_bits = f->lay->multiply_shift ? f->block_bytes * 8 : 0;
    out->seed = f->seed;
    out->keys_added = sbfi_keys_added(f);
    out->isa = f->kt->isa;
    cell_count c;
    count_cells(f, (flags & SBF_INFO_SAMPLE) != 0, &c);
    const double cells = (double)(f->bits / f->lay->cell_bits);
    const double seen = (double)c.words * (double)(64 / f->lay->cell_bits);
    out->fill_ratio = (double)c.set / seen;
    /* sampled: the counts scaled from the cells seen to all of them */
    out->saturated = c.words * 64 == f->bits ? c.sat
                                             : (uint64_t)llround((double)c.sat * cells / seen);
    out->est_cardinality = c.set >= (uint64_t)seen ? INFINITY
                                                   : -(cells / f->k) * log1p(-out->fill_ratio);
    /* The rate at the estimate: 1 when the estimate is infinite (full). */
    out->fpp_estimated = out->est_cardinality > 9e18
                             ? 1.0
                             : sbf_fpp_theory(f, (uint64_t)llround(out->est_cardinality));
    out->fpp_now = out->keys_added == SBF_KEYS_UNKNOWN ? out->fpp_estimated
                                                       : sbf_fpp_theory(f, out->keys_added);
    return SBF_OK;
}

int sbf_info(const sbf_filter *f, struct sbf_info *out)
{
    return sbf_info_ex(f, out, 0);
}
