/*
 * The deterministic suite behind `make bench-check` (scripts/bench-check.sh).
 *
 * --check-insn: a fixed workload (fixed keys, fixed filters) for the ISA the
 *   library runs now (SBF_ISA in the environment), meant to run under
 *   valgrind --tool=callgrind. Each phase is bracketed by callgrind client
 *   requests: the counters are zeroed before it and dumped after it under the
 *   phase's name, "insn.<isa>.<op>[.<layout>] <keys>". The script divides
 *   each dump's instruction count by <keys>.
 * --check-ratios: runs natively and times each ISA against scalar on the
 *   same L2-resident workload, interleaved, the best of many rounds; the
 *   metric is time(isa) / time(scalar), lower is better.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#  if __has_include(<valgrind/callgrind.h>)
#    include <valgrind/callgrind.h>
#    define SBFB_HAVE_CALLGRIND 1
#  endif
#endif

#define INSN_N ((size_t)1 << 15)

static volatile uint64_t g_chk_sink;

#if defined(SBFB_HAVE_CALLGRIND)
#  define PHASE_BEGIN() CALLGRIND_ZERO_STATS
#  define PHASE_END(name) CALLGRIND_DUMP_STATS_AT(name)
#  define UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#  define PHASE_BEGIN() ((void)0)
#  define PHASE_END(name) ((void)(name))
#  define UNDER_VALGRIND() 0
#endif

static void phase_done(sbfb_results *r, const char *isa, const char *op,
                       const char *layout, size_t keys)
{
    char name[128];
    if (layout)
        snprintf(name, sizeof name, "insn.%s.%s.%s %zu", isa, op, layout, keys);
    else
        snprintf(name, sizeof name, "insn.%s.%s %zu", isa, op, keys);
    PHASE_END(name);
    /* Also listed on stdout, so the script knows every phase that ran. */
    printf("phase %s\n", name);
    (void)r;
}

/* The phases of one layout (the filter's kernels of the active ISA). */
static int insn_layout(const sbfb_opts *o, sbfb_results *r, int isa, int layout,
                       const uint64_t *keys, const uint64_t *neg, uint8_t *out,
                       const sbfb_strs *sneg)
{
    (void)o;
    const char *in = sbf_isa_name(isa);
    const size_t NS = sneg->n;
    const char *ln = sbfb_layout_name(layout);
    sbf_params p = {0};
    p.layout = layout;
    p.expected_n = INSN_N;
    p.fpp = 0.01;
    p.bits = (uint64_t)INSN_N * 10 * sbfb_cell_bits(layout);
    sbf_filter *f;
    const int rc = sbf_create(&f, &p);
    if (rc != SBF_OK) {
        sbfb_note("sbf_create: %s", sbf_strerror(rc));
        return 2;
    }
    PHASE_BEGIN();
    sbf_add_u64(f, keys, INSN_N);
    phase_done(r, in, "add_u64", ln, INSN_N);
    PHASE_BEGIN();
    g_chk_sink += sbf_contains_u64(f, keys, INSN_N, out);
    phase_done(r, in, "contains_u64_pos", ln, INSN_N);
    PHASE_BEGIN();
    g_chk_sink += sbf_contains_u64(f, neg, INSN_N, out);
    phase_done(r, in, "contains_u64_neg", ln, INSN_N);
    /* Single keys: each filter's kernel of its ISA (dispatched). */
    uint64_t hits = 0;
    PHASE_BEGIN();
    for (size_t i = 0; i < INSN_N; i++)
        hits += (uint64_t)sbf_contains(f, &neg[i], 8);
    phase_done(r, in, "contains_single_neg", ln, INSN_N);
    if (isa == SBF_ISA_SCALAR) {
        /* Counted once, in the scalar run (string batches reach every
         * ISA's pipeline now, but the baseline holds the scalar metric). */
        PHASE_BEGIN();
        hits += sbf_contains_batch(f, sneg->ptr, sneg->len, NS, out);
        phase_done(r, in, "contains_str_batch_neg", ln, NS);
    }
    sbf_clear(f);
    PHASE_BEGIN();
    for (size_t i = 0; i < INSN_N; i++)
        hits += (uint64_t)sbf_add(f, &keys[i], 8);
    phase_done(r, in, "add_single", ln, INSN_N);
    sbf_free(f);
    /* SBF_CONCURRENT: the atomic kernels (one thread). */
    p.flags = SBF_CONCURRENT;
    if (sbf_create(&f, &p) != SBF_OK)
        return 2;
    PHASE_BEGIN();
    sbf_add_u64(f, keys, INSN_N);
    phase_done(r, in, "add_u64_concurrent", ln, INSN_N);
    PHASE_BEGIN();
    g_chk_sink += sbf_contains_u64(f, neg, INSN_N, out);
    phase_done(r, in, "contains_u64_neg_concurrent", ln, INSN_N);
    sbf_clear(f);
    PHASE_BEGIN();
    for (size_t i = 0; i < INSN_N; i++)
        hits += (uint64_t)sbf_add(f, &keys[i], 8);
    phase_done(r, in, "add_single_concurrent", ln, INSN_N);
    g_chk_sink += hits;
    sbf_free(f);
    return 0;
}

static int check_insn(const sbfb_opts *o, sbfb_results *r)
{
    const int isa = sbf_isa_active();
    if (isa < 0) {
        printf("unavailable %s\n", sbf_strerror(isa));
        return 3;
    }
    if (!UNDER_VALGRIND())
        sbfb_note("--check-insn: not running under callgrind; phases are listed only");
    const char *in = sbf_isa_name(isa);
    uint64_t *keys = sbfb_xmalloc(INSN_N * sizeof *keys);
    uint64_t *neg = sbfb_xmalloc(INSN_N * sizeof *neg);
    uint64_t *h1 = sbfb_xmalloc(INSN_N * sizeof *h1), *h2 = sbfb_xmalloc(INSN_N * sizeof *h2);
    uint8_t *out = sbfb_xmalloc(INSN_N);
    sbfb_keys(o->seed, 0, INSN_N, keys);
    sbfb_keys(o->seed, UINT64_C(1) << 62, INSN_N, neg);
    sbfb_strs sneg;
    const size_t NS = INSN_N / 4;
    sbfb_strs_make(&sneg, o->seed, UINT64_C(1) << 62, NS);

    PHASE_BEGIN();
    sbf_murmur3_x64_128_u64(keys, INSN_N, 0, h1, h2);
    phase_done(r, in, "hash_u64", NULL, INSN_N);
    if (isa == SBF_ISA_SCALAR) {
        /* One key per call: what single-key calls are measured against. */
        uint64_t acc = 0, h[2];
        PHASE_BEGIN();
        for (size_t i = 0; i < INSN_N; i++) {
            sbf_murmur3_x64_128(&neg[i], 8, 0, h);
            acc += h[0] ^ h[1];
        }
        phase_done(r, in, "hash_single", NULL, INSN_N);
        g_chk_sink += acc;
    }

    for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        const int rc = insn_layout(o, r, isa, layout, keys, neg, out, &sneg);
        if (rc != 0)
            return rc;
    }
    sbfb_strs_free(&sneg);
    free(keys);
    free(neg);
    free(h1);
    free(h2);
    free(out);
    return 0;
}

/* ------------------------------------------------------------ ratios */

typedef struct rctx {
    sbf_filter *f;
    const uint64_t *keys;
    size_t n;
    uint64_t *h1, *h2;
    uint8_t *out;
    int what; /* 0 hash, 1 contains, 2 add */
} rctx;

static void run_op(const rctx *x)
{
    switch (x->what) {
    case 0: sbf_murmur3_x64_128_u64(x->keys, x->n, 0, x->h1, x->h2); break;
    case 1: g_chk_sink += sbf_contains_u64(x->f, x->keys, x->n, x->out); break;
    default: sbf_add_u64(x->f, x->keys, x->n); break;
    }
}

/* Time of `calls` calls, seconds. */
static double time_calls(const rctx *x, int calls)
{
    const double t0 = sbfb_now();
    for (int i = 0; i < calls; i++)
        run_op(x);
    return sbfb_now() - t0;
}

/* ISAs this machine cannot measure: the checker skips their metrics. */
static void note_skipped(sbfb_results *r)
{
    r->skipped[0] = '\0';
    int all[32];
    const int nall = sbfb_isas(all, 32, 0);
    for (int i = 0; i < nall; i++) {
        const int isa = all[i];
        if (isa != SBF_ISA_SCALAR && !sbf_isa_available(isa)) {
            strncat(r->skipped, sbf_isa_name(isa), sizeof r->skipped - strlen(r->skipped) - 2);
            strncat(r->skipped, " ", sizeof r->skipped - strlen(r->skipped) - 1);
        }
    }
}

/* x's filter: an L2-resident one of the layout for the ISA, filled to the
 * design load; 0, or -1 when it cannot be made. */
static int ratio_filter(const sbfb_opts *o, rctx *x, int isa, int layout)
{
    const size_t bytes = (size_t)256 << 10; /* L2 resident */
    uint64_t bits, n;
    uint32_t k;
    sbfb_geometry(layout, bytes, 10, &bits, &n, &k);
    if (sbfb_create(&x->f, isa, layout, bits, k, n) != SBF_OK) {
        sbfb_note("cannot create a %s filter", sbf_isa_name(isa));
        return -1;
    }
    uint64_t *buf = sbfb_xmalloc(4096 * sizeof *buf);
    for (uint64_t j = 0; j < n; j += 4096) {
        const size_t len = n - j < 4096 ? (size_t)(n - j) : 4096;
        sbfb_keys(o->seed, j, len, buf);
        sbf_add_u64(x->f, buf, len);
    }
    free(buf);
    return 0;
}

static int check_ratios(const sbfb_opts *o, sbfb_results *r)
{
    int isas[SBFB_MAX_ISA], ni = 0;
    isas[ni++] = SBF_ISA_SCALAR;
    for (int i = 0; i < o->nisa; i++)
        if (o->isas[i] != SBF_ISA_SCALAR && sbf_isa_available(o->isas[i]))
            isas[ni++] = o->isas[i];
    const size_t N = 4096;
    uint64_t *keys = sbfb_xmalloc(N * sizeof *keys), *neg = sbfb_xmalloc(N * sizeof *neg);
    uint64_t *h1 = sbfb_xmalloc(N * sizeof *h1), *h2 = sbfb_xmalloc(N * sizeof *h2);
    uint8_t *out = sbfb_xmalloc(N);
    sbfb_keys(o->seed, 0, N, keys);
    sbfb_keys_random(o->seed, 7, UINT64_C(1) << 62, UINT64_C(1) << 40, N, neg);
    const int rounds = o->quick ? 11 : 41;

    /* ops: hash; contains (absent keys) per layout; add (blocked) */
    for (int op = 0; op < 2 + sbfb_nlayouts(); op++) {
        const int layout = op >= 2 ? op - 2 : (op == 1 ? SBF_BLOCKED : -1);
        const int what = op == 0 ? 0 : op == 1 ? 2 : 1;
        if (layout >= 0 && !(o->layouts & (1u << layout)))
            continue;
        rctx x[SBFB_MAX_ISA];
        double best[SBFB_MAX_ISA];
        for (int i = 0; i < ni; i++) {
            memset(&x[i], 0, sizeof x[i]);
            x[i].what = what;
            x[i].keys = what == 1 ? neg : keys;
            x[i].n = N;
            x[i].h1 = h1;
            x[i].h2 = h2;
            x[i].out = out;
            best[i] = INFINITY;
            if (layout >= 0 && ratio_filter(o, &x[i], isas[i], layout) != 0)
                return 2;
        }
        /* The hash follows the active ISA: set it around each timing. */
        int calls = 1;
        sbf_isa_set(SBF_ISA_SCALAR);
        while (time_calls(&x[0], calls) < 0.002 && calls < (1 << 20))
            calls *= 2;
        for (int round = 0; round < rounds; round++)
            for (int i = 0; i < ni; i++) {
                sbf_isa_set(isas[i]);
                run_op(&x[i]);
                const double t = time_calls(&x[i], calls);
                if (t < best[i])
                    best[i] = t;
            }
        const char *opname = what == 0 ? "hash_u64" : what == 1 ? "contains_u64_neg" : "add_u64";
        for (int i = 1; i < ni; i++) {
            char name[96];
            if (layout >= 0)
                snprintf(name, sizeof name, "ratio.%s.%s.%s", sbf_isa_name(isas[i]), opname,
                         sbfb_layout_name(layout));
            else
                snprintf(name, sizeof name, "ratio.%s.%s", sbf_isa_name(isas[i]), opname);
            sbfb_add_metric(r, name, best[i] / best[0], "time / scalar time");
            printf("%-44s %.4f  (%s %.2f ns/key, scalar %.2f ns/key)\n", name, best[i] / best[0],
                   sbf_isa_name(isas[i]), best[i] * 1e9 / ((double)calls * (double)N),
                   best[0] * 1e9 / ((double)calls * (double)N));
        }
        for (int i = 0; i < ni; i++)
            sbf_free(x[i].f);
    }
    sbf_isa_set(SBF_ISA_AUTO);
    note_skipped(r);
    free(keys);
    free(neg);
    free(h1);
    free(h2);
    free(out);
    return 0;
}

int sbfb_run_check(const sbfb_opts *o, sbfb_results *r)
{
    if (o->check_insn)
        return check_insn(o, r);
    return check_ratios(o, r);
}
