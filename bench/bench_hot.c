/*
 * The hot path as callers use it, `--suite hot`:
 *
 *  single   single-key add/contains beside batched ones and beside the hash
 *           alone (the layout's own: MurmurHash3, XXH64 for parquet), per
 *           layout and ISA, on an L2-resident filter (u64 keys; string keys
 *           with the default kernels);
 *  roof     the memory roofline as the best of a sweep of prefetch
 *           distances (sliding window) on a filter's own bytes, with the
 *           winning distance, and batched contains (blocked, split-block)
 *           beside it; also the sweep run by 2 threads;
 *  threads  SBF_CONCURRENT adds and shared read-only queries (blocked) by
 *           1..nproc threads: aggregate Mkeys/s, at L2 and the largest size;
 *  conc     the cost of SBF_CONCURRENT with one thread: plain vs concurrent
 *           add (batched and single) and batched contains, per layout.
 *
 * Timing: CLOCK_MONOTONIC, best of max(reps, 5) repetitions; adds are timed
 * from a cleared filter to the design load (opts.bits_per_key), so every rep
 * adds new keys. Ratios are of numbers taken in the same run.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_hot.h"
#include "simdbloom_inline.h" /* sbf_view, sbf_parquet_pair */

static volatile uint64_t g_hot_sink;

static hot_row *row(sbfb_results *r, const char *table, int layout, int isa, int si,
                    size_t bytes, const char *what)
{
    hot_row *h = sbfb_ext_add(r, &sbfb_sec_hot, sizeof *h);
    h->table = table;
    h->layout = layout;
    h->isa = isa;
    h->size_idx = si;
    h->bytes = bytes;
    snprintf(h->what, sizeof h->what, "%s", what);
    h->threads = 1;
    return h;
}

/* A row of the single-key table. */
static void put(sbfb_results *r, int layout, int isa, int si, size_t bytes,
                const char *what, double ns, double ratio)
{
    hot_row *h = row(r, "single", layout, isa, si, bytes, what);
    h->ns = ns;
    h->ratio = ratio;
}

static int reps_of(const sbfb_opts *o)
{
    return o->reps < 5 ? 5 : o->reps;
}

/* The index of the L2 size (else the smallest) and of the largest. */
static int size_l2(const sbfb_opts *o)
{
    for (int i = 0; i < o->nsizes; i++)
        if (strcmp(o->sizes[i].label, "L2") == 0)
            return i;
    int best = 0;
    for (int i = 1; i < o->nsizes; i++)
        if (o->sizes[i].bytes < o->sizes[best].bytes)
            best = i;
    return best;
}

static int size_big(const sbfb_opts *o)
{
    int best = 0;
    for (int i = 1; i < o->nsizes; i++)
        if (o->sizes[i].bytes > o->sizes[best].bytes)
            best = i;
    return best;
}

static sbf_filter *make(int isa, int layout, size_t bytes, uint32_t flags,
                        uint64_t *n_out)
{
    uint64_t bits, n;
    uint32_t k;
    sbfb_geometry(layout, bytes, 10.0, &bits, &n, &k);
    sbf_params p = { 0 };
    p.layout = layout;
    p.bits = bits;
    p.k = k;
    p.expected_n = n;
    p.flags = flags;
    sbf_filter *f = NULL;
    if (sbf_isa_set(isa) != SBF_OK || sbf_create(&f, &p) != SBF_OK)
        return NULL;
    sbf_isa_set(SBF_ISA_AUTO);
    if (n_out)
        *n_out = n;
    return f;
}

/* ---------------------------------------------------------- timed loops */

/* T_HASH*: MurmurHash3, the hash of the layouts named without a hash;
 * T_XXH*: XXH64, parquet's; T_XXH3*: XXH3_64bits, the *-xxh3 layouts';
 * T_FMIX: the *-fmix layouts' fmix64 of an 8-byte key (their strings are
 * XXH3's, T_XXH3_STR) (chosen when the job is made: nothing in a timed
 * window but the hash). */
/* T_V*: through a view of f, inline (bench/inline/loops.c): contains and
 * add of u64 keys, contains of hash pairs given (keys holds n pairs);
 * T_VN*: contains and add through the view narrowed to its probe
 * (sbf_view_split / _blocked / _parquet); T_CONTH: the library's
 * sbf_contains_hash of those pairs. */
typedef enum {
    T_HASH, T_HASH_STR, T_XXH, T_XXH_STR, T_XXH3, T_XXH3_STR, T_FMIX, T_ADD1, T_CONT1, T_ADDN, T_CONTN, T_CONT1_STR,
    T_ADD1_STR, T_VCONT1, T_VADD1, T_VCONTH, T_CONTH, T_VNCONT1, T_VNADD1
} hot_op;

static int op_adds(hot_op op)
{
    return op == T_ADD1 || op == T_ADDN || op == T_ADD1_STR || op == T_VADD1 ||
           op == T_VNADD1;
}

typedef struct loop_ctx {
    sbf_filter *f;
    const uint64_t *keys;
    const sbfb_strs *strs;
    size_t n;
    uint8_t *out;
    const sbf_view *view;      /* T_V*: a view of f */
    sbfb_inline_loops_fn inl;  /* T_V*: the header's path for the row's ISA */
} loop_ctx;

SBFB_NOINLINE static void run_op(hot_op op, const loop_ctx *c)
{
    uint64_t s = 0, h[2];
    switch (op) {
    case T_HASH:
        for (size_t i = 0; i < c->n; i++) {
            sbf_murmur3_x64_128(&c->keys[i], 8, 0, h);
            s += h[0] ^ h[1];
        }
        break;
    case T_HASH_STR:
        for (size_t i = 0; i < c->n; i++) {
            sbf_murmur3_x64_128(c->strs->ptr[i], c->strs->len[i], 0, h);
            s += h[0] ^ h[1];
        }
        break;
    case T_XXH:
        for (size_t i = 0; i < c->n; i++)
            s += sbf_xxh64(&c->keys[i], 8);
        break;
    case T_XXH_STR:
        for (size_t i = 0; i < c->n; i++)
            s += sbf_xxh64(c->strs->ptr[i], c->strs->len[i]);
        break;
    case T_XXH3:
        for (size_t i = 0; i < c->n; i++)
            s += sbf_xxh3_64(&c->keys[i], 8, 0);
        break;
    case T_XXH3_STR:
        for (size_t i = 0; i < c->n; i++)
            s += sbf_xxh3_64(c->strs->ptr[i], c->strs->len[i], 0);
        break;
    case T_FMIX:
        for (size_t i = 0; i < c->n; i++)
            s += sbf_fmix_u64_inline(c->keys[i], 0);
        break;
    case T_ADD1:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_add(c->f, &c->keys[i], 8);
        break;
    case T_ADD1_STR:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_add(c->f, c->strs->ptr[i], c->strs->len[i]);
        break;
    case T_CONT1:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_contains(c->f, &c->keys[i], 8);
        break;
    case T_CONT1_STR:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_contains(c->f, c->strs->ptr[i], c->strs->len[i]);
        break;
    case T_ADDN:
        for (size_t i = 0; i < c->n; i += 4096)
            (void)sbf_add_u64(c->f, c->keys + i, c->n - i < 4096 ? c->n - i : 4096);
        break;
    case T_CONTN:
        for (size_t i = 0; i < c->n; i += 4096)
            s += sbf_contains_u64(c->f, c->keys + i, c->n - i < 4096 ? c->n - i : 4096, c->out);
        break;
    case T_VCONT1:
        s += c->inl(SBFB_INL_CONTAINS, c->view, c->keys, c->n);
        break;
    case T_VADD1:
        s += c->inl(SBFB_INL_ADD, c->view, c->keys, c->n);
        break;
    case T_VCONTH:
        s += c->inl(SBFB_INL_CONTAINS_HASH, c->view, c->keys, c->n);
        break;
    case T_VNCONT1:
        s += c->inl(SBFB_INL_N_CONTAINS, c->view, c->keys, c->n);
        break;
    case T_VNADD1:
        s += c->inl(SBFB_INL_N_ADD, c->view, c->keys, c->n);
        break;
    case T_CONTH:
        for (size_t i = 0; i < c->n; i++)
            s += (uint64_t)sbf_contains_hash(c->f, c->keys[2 * i], c->keys[2 * i + 1]);
        break;
    }
    g_hot_sink += s;
}

/* Best ns per key of reps runs; adds start from a cleared filter. Kept for
 * the roofline rows' batched contains (one pass over 4 Mi keys). */
static double best_ns(const sbfb_opts *o, hot_op op, const loop_ctx *c)
{
    const int is_add = op_adds(op);
    double best = INFINITY;
    run_op(op, c); /* warm */
    for (int rep = 0; rep < reps_of(o); rep++) {
        if (is_add)
            sbf_clear(c->f);
        const double t0 = sbfb_now();
        run_op(op, c);
        const double ns = (sbfb_now() - t0) * 1e9 / (double)c->n;
        if (ns < best)
            best = ns;
    }
    return best;
}

/* An operation as a timing job (bench_timer.c): run_op on keys
 * [off, off + len) of the loop's; adds clear their filter (untimed) before
 * each pass, so every window adds fresh keys. */
typedef struct hot_job {
    hot_op op;
    loop_ctx c;
} hot_job;

static void job_fn(void *ctx, size_t off, size_t len)
{
    const hot_job *j = ctx;
    loop_ctx c = j->c;
    const int pairs = j->op == T_VCONTH || j->op == T_CONTH; /* keys: n pairs */
    c.keys = c.keys ? c.keys + (pairs ? 2 * off : off) : NULL;
    c.n = len;
    if (j->c.strs) {
        /* string keys: a view of the arena from off */
        static _Thread_local sbfb_strs view;
        view = *j->c.strs;
        view.ptr += off;
        view.len += off;
        c.strs = &view;
    }
    run_op(j->op, &c);
}

static void job_wrap(void *ctx)
{
    sbf_clear(((hot_job *)ctx)->c.f);
}

static sbfb_job job_of(hot_job *h)
{
    return (sbfb_job){ job_fn, h, h->c.n, op_adds(h->op) ? job_wrap : NULL };
}

/* Times n operations interleaved, window by window (bench_timer.c). */
static void time_hot(const sbfb_opts *o, hot_job *h, int n, sbfb_timing *t)
{
    sbfb_job jobs[11];
    for (int i = 0; i < n; i++) {
        if (op_adds(h[i].op))
            sbf_clear(h[i].c.f); /* pages written before any timing */
        jobs[i] = job_of(&h[i]);
    }
    sbfb_time_jobs(o, jobs, n, t);
}

/* ---------------------------------------------------------------- single */

/* The inline header's path that a row of this ISA measures: the one built
 * with that ISA's flags (avx512, avx2), portable C for scalar and NEON (the
 * header has no NEON probes); none for simde, which would repeat scalar's.
 * On AVX-512 the 8-byte hash's form a caller compiling for this CPU gets
 * (SBF_INLINE_HASH8_VEC: the vector one on AMD, as the library's own). */
static sbfb_inline_loops_fn inline_path(int isa)
{
#if defined(SBFB_INLINE_X86)
    if (isa == SBF_ISA_AVX512)
        return __builtin_cpu_is("amd") ? sbfb_inline_loops_avx512v : sbfb_inline_loops_avx512;
    if (isa == SBF_ISA_AVX2)
        return sbfb_inline_loops_avx2;
#endif
    if (isa == SBF_ISA_SCALAR || isa == SBF_ISA_NEON)
        return sbfb_inline_loops_portable;
    return NULL;
}

/* Whether a layout's name ends in suffix ("-xxh3": hashed by XXH3;
 * "-fmix": 8-byte keys by fmix64, strings by XXH3). */
static int named(int layout, const char *suffix)
{
    const char *name = sbf_layout_name(layout);
    const size_t len = strlen(name), sl = strlen(suffix);
    return len > sl && strcmp(name + len - sl, suffix) == 0;
}

static int is_xxh3(int layout)
{
    return named(layout, "-xxh3");
}

static int is_fmix(int layout)
{
    return named(layout, "-fmix");
}

/* The layout's hash pair (h1, h2) of each key, as sbf_view_contains_hash
 * takes it: MurmurHash3 with the filter's seed, or parquet's XXH64 pair, or
 * the XXH3 layouts' (the same map of XXH3_64bits), the fmix layouts' (of
 * their fmix64). */
static void hash_pairs(int layout, uint32_t seed, const uint64_t *keys, uint64_t n,
                       uint64_t *pairs)
{
    for (uint64_t i = 0; i < n; i++) {
        if (layout == SBF_PARQUET) {
            sbf_parquet_pair(sbf_xxh64(&keys[i], 8), &pairs[2 * i], &pairs[2 * i + 1]);
        } else if (is_xxh3(layout)) {
            sbf_parquet_pair(sbf_xxh3_64(&keys[i], 8, seed), &pairs[2 * i], &pairs[2 * i + 1]);
        } else if (is_fmix(layout)) {
            sbf_parquet_pair(sbf_fmix_u64_inline(keys[i], seed), &pairs[2 * i],
                             &pairs[2 * i + 1]);
        } else {
            uint64_t h[2];
            sbf_murmur3_x64_128(&keys[i], 8, seed, h);
            pairs[2 * i] = h[0];
            pairs[2 * i + 1] = h[1];
        }
    }
}

/* Adds of the keys into the cleared fv through va (add: SBFB_INL_ADD or
 * SBFB_INL_N_ADD) leave the bytes of fq. */
static int inline_bytes_agree(sbf_filter *fq, sbf_filter *fv, const sbf_view *va,
                              sbfb_inline_loops_fn inl, int add, const uint64_t *keys,
                              uint64_t n)
{
    size_t lq, lv;
    sbf_clear(fv);
    (void)inl(add, va, keys, n);
    const void *bq = sbf_data(fq, &lq), *bv = sbf_data(fv, &lv);
    return lq == lv && bq && bv && memcmp(bq, bv, lq) == 0;
}

/* Before the inline rows are timed, they must answer as the library:
 * the same hits on the absent keys (by key and by hash pair), and adds
 * through the view must make the filter's bytes that sbf_add_u64 made in
 * fq; the same through the narrowed view, when the view narrows (*narrow
 * says whether it does). The views' own tests are tests/test_inline.c;
 * this guards the rows. */
static int inline_agrees(sbf_filter *fq, sbf_filter *fv, const sbf_view *vq,
                         const sbf_view *va, sbfb_inline_loops_fn inl, const uint64_t *keys,
                         const uint64_t *neg, const uint64_t *pairs, uint64_t n, int *narrow)
{
    const uint64_t hits = (uint64_t)sbf_contains_u64(fq, neg, n, NULL);
    const uint64_t nh = inl(SBFB_INL_N_CONTAINS, vq, neg, n);
    *narrow = nh != SBFB_INL_NOT_NARROWED;
    return inline_bytes_agree(fq, fv, va, inl, SBFB_INL_ADD, keys, n) &&
           inl(SBFB_INL_CONTAINS, vq, neg, n) == hits &&
           inl(SBFB_INL_CONTAINS_HASH, vq, pairs, n) == hits &&
           (!*narrow ||
            (nh == hits && inline_bytes_agree(fq, fv, va, inl, SBFB_INL_N_ADD, keys, n)));
}

/* The rows of single_isa, in the order of its jobs: each one's ratio is to
 * job `den` (-1: none, the hash itself). */
static const struct {
    const char *what;
    int den;
} single_rows[11] = {
    { "hash (u64)", -1 },
    { "contains single (absent)", 0 },
    { "add single (fresh)", 1 },
    { "contains batch (absent)", 0 },
    { "add batch (fresh)", 3 },
    { "contains single, hash given", 1 },
    { "contains single, inline (absent)", 0 },
    { "add single, inline (fresh)", 6 },
    { "contains single, inline, hash given", 6 },
    { "contains single, narrowed view (absent)", 0 },
    { "add single, narrowed view (fresh)", 9 },
};

/* One ISA on the L2 filter: the hash, single and batched calls interleaved;
 * each add on a filter of its own, cleared before each pass; contains on a
 * filter filled to the design load; sbf_contains_hash of the keys' hash
 * pairs. With the ISA's inline path, the same one-key calls through a view
 * (simdbloom_inline.h), contains from the hash pairs through it, and where
 * the view narrows, contains and adds through the narrowed view. */
static void single_isa(const sbfb_opts *o, sbfb_results *r, int layout, int isa, int si,
                       const uint64_t *keys, const uint64_t *neg, uint64_t n, uint8_t *out)
{
    const size_t bytes = o->sizes[si].bytes;
    sbf_filter *fq = make(isa, layout, bytes, 0, NULL), *f1 = make(isa, layout, bytes, 0, NULL);
    sbf_filter *fn = make(isa, layout, bytes, 0, NULL), *fv = make(isa, layout, bytes, 0, NULL);
    sbf_filter *fw = make(isa, layout, bytes, 0, NULL); /* narrowed adds */
    const sbfb_inline_loops_fn inl = inline_path(isa);
    sbf_view vq, va, vw;
    uint64_t *pairs = NULL;
    int nj = 6, narrow = 0;
    if (fq && f1 && fn && fv && fw && inl && sbf_view_get(fq, &vq) == SBF_OK &&
        sbf_view_get_writable(fv, &va) == SBF_OK && sbf_view_get_writable(fw, &vw) == SBF_OK)
        nj = 9;
    if (fq && sbf_view_get(fq, &vq) == SBF_OK) {
        pairs = sbfb_xmalloc(2 * n * sizeof *pairs);
        hash_pairs(layout, vq.seed, neg, n, pairs);
    }
    if (fq && f1 && fn && pairs) {
        run_op(T_ADDN, &(loop_ctx){ fq, keys, NULL, n, out, NULL, NULL });
        if (nj == 9 && !inline_agrees(fq, fv, &vq, &va, inl, keys, neg, pairs, n, &narrow)) {
            fprintf(stderr, "sbf-bench: %s %s: the inline path's answers or bytes differ "
                            "from the library's; its rows are left out\n",
                    sbfb_layout_name(layout), sbf_isa_name(isa));
            nj = 6;
        }
        if (nj == 9 && narrow)
            nj = 11; /* the view narrows (blocked, split-block k = 8, parquet, counting) */
        hot_job h[11] = {
            { layout == SBF_PARQUET ? T_XXH : is_xxh3(layout) ? T_XXH3
                                              : is_fmix(layout) ? T_FMIX : T_HASH,
              { fq, neg, NULL, n, out, NULL, NULL } },
            { T_CONT1, { fq, neg, NULL, n, out, NULL, NULL } },
            { T_ADD1, { f1, keys, NULL, n, out, NULL, NULL } },
            { T_CONTN, { fq, neg, NULL, n, out, NULL, NULL } },
            { T_ADDN, { fn, keys, NULL, n, out, NULL, NULL } },
            { T_CONTH, { fq, pairs, NULL, n, out, NULL, NULL } },
            { T_VCONT1, { fq, neg, NULL, n, out, &vq, inl } },
            { T_VADD1, { fv, keys, NULL, n, out, &va, inl } },
            { T_VCONTH, { fq, pairs, NULL, n, out, &vq, inl } },
            { T_VNCONT1, { fq, neg, NULL, n, out, &vq, inl } },
            { T_VNADD1, { fw, keys, NULL, n, out, &vw, inl } },
        };
        sbfb_timing *t = sbfb_xmalloc(11 * sizeof *t);
        time_hot(o, h, nj, t);
        for (int i = 0; i < nj; i++) {
            const int d = single_rows[i].den;
            put(r, layout, isa, si, bytes, single_rows[i].what, t[i].ns,
                d < 0 ? 1 : sbfb_timing_ratio(&t[i], &t[d]));
        }
        free(t);
    }
    free(pairs);
    sbf_free(fq);
    sbf_free(f1);
    sbf_free(fn);
    sbf_free(fv);
    sbf_free(fw);
}

/* String keys, default kernels: the hash, a fresh add, a present lookup. */
static void single_str(const sbfb_opts *o, sbfb_results *r, int layout, int si, uint64_t n,
                       uint8_t *out)
{
    const size_t bytes = o->sizes[si].bytes;
    sbfb_strs s;
    const size_t ns = n < 65536 ? n : 65536;
    if (sbfb_strs_make(&s, o->seed, 0, ns) != 0)
        return;
    sbf_filter *fq = make(SBF_ISA_AUTO, layout, bytes, 0, NULL);
    sbf_filter *fa = make(SBF_ISA_AUTO, layout, bytes, 0, NULL);
    if (fq && fa) {
        run_op(T_ADD1_STR, &(loop_ctx){ fq, NULL, &s, ns, out, NULL, NULL });
        hot_job h[3] = {
            { layout == SBF_PARQUET ? T_XXH_STR
              : is_xxh3(layout) || is_fmix(layout) ? T_XXH3_STR : T_HASH_STR,
              { fq, NULL, &s, ns, out, NULL, NULL } },
            { T_CONT1_STR, { fq, NULL, &s, ns, out, NULL, NULL } },
            { T_ADD1_STR, { fa, NULL, &s, ns, out, NULL, NULL } },
        };
        sbfb_timing *t = sbfb_xmalloc(3 * sizeof *t);
        time_hot(o, h, 3, t);
        const int isa = sbf_isa_active();
        put(r, layout, isa, si, bytes, "hash (str 8..64 B)", t[0].ns, 1);
        put(r, layout, isa, si, bytes, "contains single (str, present)", t[1].ns,
            sbfb_timing_ratio(&t[1], &t[0]));
        put(r, layout, isa, si, bytes, "add single (str, fresh)", t[2].ns,
            sbfb_timing_ratio(&t[2], &t[1]));
        free(t);
    }
    sbf_free(fq);
    sbf_free(fa);
    sbfb_strs_free(&s);
}

static void run_single(const sbfb_opts *o, sbfb_results *r)
{
    const int si = size_l2(o);
    const size_t bytes = o->sizes[si].bytes;
    for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        uint64_t n = 0;
        sbf_filter *probe = make(SBF_ISA_SCALAR, layout, bytes, 0, &n);
        if (probe == NULL)
            continue;
        sbf_free(probe);
        if (n > (1u << 20))
            n = 1u << 20;
        uint64_t *keys = sbfb_xmalloc(n * 8), *neg = sbfb_xmalloc(n * 8);
        uint8_t *out = sbfb_xmalloc(n);
        memset(out, 0, n);
        sbfb_keys(o->seed, 0, n, keys);
        sbfb_keys(o->seed, UINT64_C(1) << 62, n, neg);
        for (int ii = 0; ii < o->nisa; ii++) {
            sbfb_progress("hot single %s %s", sbfb_layout_name(layout),
                          sbf_isa_name(o->isas[ii]));
            single_isa(o, r, layout, o->isas[ii], si, keys, neg, n, out);
        }
        single_str(o, r, layout, si, n, out);
        free(keys);
        free(neg);
        free(out);
    }
}

/* -------------------------------------------------------------- roofline */

typedef struct sweep_arg {
    const uint64_t *mem;
    uint64_t lines;
    const uint64_t *keys;
    size_t n, dist;
    double ns;
} sweep_arg;

static double time_sweep(const uint64_t *mem, uint64_t lines, const uint64_t *keys,
                         size_t n, size_t dist, int reps)
{
    double best = INFINITY;
    for (int rep = 0; rep < reps; rep++) {
        const double t0 = sbfb_now();
        g_hot_sink += sbfb_roofline_loop(mem, lines, keys, n, dist);
        const double ns = (sbfb_now() - t0) * 1e9 / (double)n;
        if (ns < best)
            best = ns;
    }
    return best;
}

static void *sweep_thread(void *p)
{
    sweep_arg *a = p;
    a->ns = time_sweep(a->mem, a->lines, a->keys, a->n, a->dist, 3);
    return NULL;
}

static void run_roof(const sbfb_opts *o, sbfb_results *r)
{
    const int sizes[2] = { size_l2(o), size_big(o) };
    for (int s = 0; s < 2; s++) {
        const int si = sizes[s];
        if (s == 1 && si == sizes[0])
            break;
        const size_t bytes = o->sizes[si].bytes;
        const size_t n = (size_t)1 << 22;
        uint64_t *keys = sbfb_xmalloc(n * 8 * 2);
        uint8_t *out = sbfb_xmalloc(4096);
        sbfb_keys(o->seed, UINT64_C(1) << 62, 2 * n, keys);
        for (int layout = SBF_BLOCKED; layout <= SBF_SPLIT_BLOCK; layout++) {
            if (!(o->layouts & (1u << layout)))
                continue;
            sbfb_progress("hot roofline %s %s", o->sizes[si].label, sbfb_layout_name(layout));
            sbf_filter *f = make(SBF_ISA_AUTO, layout, bytes, 0, NULL);
            if (f == NULL) {
                sbfb_note("hot roofline %s: cannot create the filter", o->sizes[si].label);
                continue;
            }
            /* Written once (real pages, not the shared zero page); a few keys. */
            sbf_clear(f);
            (void)sbf_add_u64(f, keys + n, n / 4);
            size_t len;
            const uint64_t *mem = sbf_data(f, &len);
            int dist = 0;
            const double roof = sbfb_roofline_swept(o, mem, len / 64, keys, n, &dist);
            loop_ctx q = { f, keys, NULL, n, out, NULL, NULL };
            const double cont = best_ns(o, T_CONTN, &q);
            hot_row *h = row(r, "roof", layout, sbf_isa_active(), si, len,
                             "roofline (swept)");
            h->ns = roof;
            h->dist = dist;
            h->ratio = 1;
            h = row(r, "roof", layout, sbf_isa_active(), si, len, "contains batch (absent)");
            h->ns = cont;
            h->ratio = cont / roof;
            if (layout == SBF_BLOCKED) {
                /* The same sweep from 2 threads on the same bytes. */
                pthread_t th[2];
                sweep_arg a[2];
                for (int t = 0; t < 2; t++) {
                    a[t] = (sweep_arg){ mem, len / 64, keys + (size_t)t * (n / 2), n / 2,
                                        (size_t)dist, 0 };
                    pthread_create(&th[t], NULL, sweep_thread, &a[t]);
                }
                for (int t = 0; t < 2; t++)
                    pthread_join(th[t], NULL);
                h = row(r, "roof", layout, sbf_isa_active(), si, len,
                        "roofline, 2 threads (aggregate)");
                h->threads = 2;
                h->dist = dist;
                h->ns = 1.0 / (1.0 / a[0].ns + 1.0 / a[1].ns);
                h->ratio = h->ns / roof;
            }
            sbf_free(f);
        }
        free(keys);
        free(out);
    }
}

/* ---------------------------------------------------------- thread scaling */

typedef struct thr_arg {
    sbf_filter *f;
    const uint64_t *keys;
    size_t n;
    int mode;            /* 0 batched add, 1 single add, 2 batched contains */
    pthread_barrier_t *bar;
    double t0, t1;
} thr_arg;

static void *thr_main(void *p)
{
    thr_arg *a = p;
    uint8_t out[1024];
    size_t s = 0;
    pthread_barrier_wait(a->bar);
    a->t0 = sbfb_now();
    for (size_t i = 0; i < a->n; i += 1024) {
        const size_t m = a->n - i < 1024 ? a->n - i : 1024;
        if (a->mode == 0)
            (void)sbf_add_u64(a->f, a->keys + i, m);
        else if (a->mode == 1)
            for (size_t j = 0; j < m; j++)
                s += (size_t)sbf_add(a->f, &a->keys[i + j], 8);
        else
            s += sbf_contains_u64(a->f, a->keys + i, m, out);
    }
    a->t1 = sbfb_now();
    g_hot_sink += s;
    return NULL;
}

/* Aggregate ns per key of T threads (first start to last finish). */
static double run_threads(sbf_filter *f, const uint64_t *keys, size_t per, int T,
                          int mode)
{
    pthread_t th[64];
    thr_arg a[64];
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, (unsigned)T);
    for (int t = 0; t < T; t++) {
        a[t] = (thr_arg){ f, keys + (size_t)t * per, per, mode, &bar, 0, 0 };
        pthread_create(&th[t], NULL, thr_main, &a[t]);
    }
    double t0 = INFINITY, t1 = 0;
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        t0 = a[t].t0 < t0 ? a[t].t0 : t0;
        t1 = a[t].t1 > t1 ? a[t].t1 : t1;
    }
    pthread_barrier_destroy(&bar);
    return (t1 - t0) * 1e9 / ((double)per * T);
}

static void run_scaling(const sbfb_opts *o, sbfb_results *r)
{
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    const int maxt = np < 1 ? 1 : np > 64 ? 64 : (int)np;
    const int sizes[2] = { size_l2(o), size_big(o) };
    for (int s = 0; s < 2; s++) {
        const int si = sizes[s];
        if (s == 1 && si == sizes[0])
            break;
        const size_t bytes = o->sizes[si].bytes;
        uint64_t n = 0;
        /* Adds: a concurrent filter. Queries: a plain one, filled, shared
         * read-only (what plain filters allow from any number of threads). */
        sbf_filter *fc = make(SBF_ISA_AUTO, SBF_BLOCKED, bytes, SBF_CONCURRENT, &n);
        sbf_filter *fp = make(SBF_ISA_AUTO, SBF_BLOCKED, bytes, 0, NULL);
        if (fc == NULL || fp == NULL) {
            sbf_free(fc);
            sbf_free(fp);
            continue;
        }
        const size_t per = (size_t)1 << (o->quick ? 19 : 21);
        uint64_t *keys = sbfb_xmalloc(per * (size_t)maxt * 8);
        sbfb_keys(o->seed, 0, per * (size_t)maxt, keys);
        (void)sbf_add_u64(fp, keys, per * (size_t)maxt < n ? per * (size_t)maxt : n);
        static const char *const what[3] = { "concurrent add batch", "concurrent add single",
                                              "plain contains batch (shared, read-only)" };
        for (int mode = 0; mode < 3; mode++) {
            for (int T = 1; T <= maxt; T++) {
                sbfb_progress("hot threads %s %s x%d", o->sizes[si].label, what[mode], T);
                double best = INFINITY;
                for (int rep = 0; rep < 3; rep++) {
                    if (mode < 2)
                        sbf_clear(fc);
                    const double ns = run_threads(mode < 2 ? fc : fp, keys, per, T, mode);
                    best = ns < best ? ns : best;
                }
                hot_row *h = row(r, "threads", SBF_BLOCKED, sbf_isa_active(), si, bytes,
                                 what[mode]);
                h->threads = T;
                h->ns = best;
            }
        }
        free(keys);
        sbf_free(fc);
        sbf_free(fp);
    }
}

/* ------------------------------------------------------ SBF_CONCURRENT cost */

/* One size; sz 1 (the large one): blocked and split-block, batched calls. */
static void conc_at(const sbfb_opts *o, sbfb_results *r, int si, int sz)
{
    const size_t bytes = o->sizes[si].bytes;
    for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        if (sz == 1 && layout != SBF_BLOCKED && layout != SBF_SPLIT_BLOCK)
            continue;
        sbfb_progress("hot concurrent cost %s %s", o->sizes[si].label,
                      sbfb_layout_name(layout));
        uint64_t n = 0;
        sbf_filter *p = make(SBF_ISA_AUTO, layout, bytes, 0, &n);
        sbf_filter *c = make(SBF_ISA_AUTO, layout, bytes, SBF_CONCURRENT, NULL);
        if (p == NULL || c == NULL) {
            sbf_free(p);
            sbf_free(c);
            continue;
        }
        if (n > (1u << 20))
            n = 1u << 20;
        uint64_t *keys = sbfb_xmalloc(n * 8), *neg = sbfb_xmalloc(n * 8);
        uint8_t *out = sbfb_xmalloc(n);
        memset(out, 0, n);
        sbfb_keys(o->seed, 0, n, keys);
        sbfb_keys(o->seed, UINT64_C(1) << 62, n, neg);
        static const hot_op ops[4] = { T_ADDN, T_ADD1, T_CONTN, T_CONT1 };
        static const char *const what[4] = { "add batch", "add single",
                                             "contains batch (absent)",
                                             "contains single (absent)" };
        for (int i = 0; i < 4; i++) {
            if (sz == 1 && (ops[i] == T_ADD1 || ops[i] == T_CONT1))
                continue;
            const int query = ops[i] == T_CONTN || ops[i] == T_CONT1;
            const uint64_t *k = query ? neg : keys;
            hot_job hj[2] = { { ops[i], { p, k, NULL, n, out, NULL, NULL } },
                              { ops[i], { c, k, NULL, n, out, NULL, NULL } } };
            if (query) {
                run_op(T_ADDN, &(loop_ctx){ p, keys, NULL, n, out, NULL, NULL });
                run_op(T_ADDN, &(loop_ctx){ c, keys, NULL, n, out, NULL, NULL });
            }
            sbfb_timing *t = sbfb_xmalloc(2 * sizeof *t);
            time_hot(o, hj, 2, t);
            hot_row *h = row(r, "conc", layout, sbf_isa_active(), si, bytes, what[i]);
            h->ns = t[1].ns;
            h->ratio = sbfb_timing_ratio(&t[1], &t[0]);
            free(t);
        }
        free(keys);
        free(neg);
        free(out);
        sbf_free(p);
        sbf_free(c);
    }
}

static void run_conc(const sbfb_opts *o, sbfb_results *r)
{
    conc_at(o, r, size_l2(o), 0);
    if (size_big(o) != size_l2(o))
        conc_at(o, r, size_big(o), 1);
}

/* SBFB_HOT=single,conc,roof,threads in the environment runs only those
 * parts (default: all). */
static int part(const char *name)
{
    const char *e = getenv("SBFB_HOT");
    return e == NULL || *e == '\0' || strstr(e, name) != NULL;
}

void sbfb_hot_run(const sbfb_opts *o, sbfb_results *r)
{
    if (part("single"))
        run_single(o, r);
    if (part("conc"))
        run_conc(o, r);
    if (part("roof"))
        run_roof(o, r);
    if (part("threads"))
        run_scaling(o, r);
}

