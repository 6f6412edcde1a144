/*
 * The "lanes" section: hashes of many keys in SIMD lanes, per ISA, against
 * the scalar references, in one run (bench/README.md, "Adding a section").
 *
 *   xxh64 u64:     sbf_xxh64_u64 of 8-byte keys (a Parquet INT64 value), and
 *                  the peer: libxxhash's XXH64(&key, 8, 0) called per key
 *                  from here (XXH_INLINE_ALL, so the compiler sees len = 8:
 *                  the best the scalar function can do).
 *   murmur3 str:   sbf_murmur3_x64_128_batch of byte strings, and the peer:
 *                  sbf_murmur3_x64_128 called per key.
 *   xxh64 str:     sbf_xxh64_batch of byte strings, peer XXH64 per key.
 *   xxh3 str:      sbf_hash_pairs of byte strings on a split-block-xxh3
 *                  filter made under that ISA (its xxh3_bytes kernel, then
 *                  the (h1, h2) map), peer libxxhash's XXH3_64bits_withSeed
 *                  per key (inlined).
 * Strings: 8..64 bytes and 80..120 bytes (URL-sized), lengths uniform and
 * mixed in each batch, 4096 keys (L1/L2 resident), in calls of 256 keys (the
 * public functions' dispatch is then shared by 256 keys; the pipeline calls
 * the table entry directly). Each ISA and peer is timed in
 * turn, o->reps rounds interleaved, the best kept: the ratios are in-run.
 *
 * SBFB_LANES=sweep in the environment adds strings of one length each (0, 1,
 * 4, 7, 8, 9, 15, 16, 17, 24, 31, 32, 48, 64, 100, 256, 1000 bytes) and the
 * mixes 0..8, 0..16, 0..1000: where a kernel would lose to the scalar hash.
 *
 * Under valgrind (callgrind) the section times nothing: it runs each
 * workload once per ISA the emulated CPU has, each bracketed by callgrind
 * client requests, dumped as "lanes.<isa>.<what> <keys>" (instructions per
 * key: divide the dump's Ir by <keys>).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#if defined(__has_include)
#  if __has_include(<valgrind/callgrind.h>)
#    include <valgrind/callgrind.h>
#    define LANES_CALLGRIND 1
#  endif
#endif

#define LN_KEYS 4096
#define LN_BATCH 256

typedef struct lanes_row {
    const char *hash;      /* "xxh64", "murmur3" */
    char keys[24];         /* "u64", "str 8..64", "str 80..120", "str 16" */
    int isa;               /* sbf_isa, or -1: the peer (one-key function) */
    double ns, ratio;      /* per key; peer ns / this ns */
} lanes_row;

typedef struct lanes_ctx {
    int kind;              /* 0 xxh64 u64, 1 murmur3 str, 2 xxh64 str, 3 xxh3 str;
                              + LN_PEER: the peer */
    const uint64_t *u;
    const void *const *ptr;
    const size_t *len;
    uint64_t *h1, *h2;
    sbf_filter *f;         /* xxh3: a split-block-xxh3 filter of the ISA timed */
} lanes_ctx;

#define LN_PEER 4
#define LN_XXH3_SEED 0x9747b28cu

static volatile uint64_t g_lanes_sink;

static void lanes_op(void *c, size_t off, size_t len)
{
    const lanes_ctx *x = c;
    for (size_t i = off; i < off + len; i += LN_BATCH) {
        const size_t m = off + len - i < LN_BATCH ? off + len - i : LN_BATCH;
        switch (x->kind) {
        case 0: sbf_xxh64_u64(x->u + i, m, x->h1 + i); break;
        case 1: (void)sbf_murmur3_x64_128_batch(x->ptr + i, x->len + i, m, 0, x->h1 + i,
                                                x->h2 + i); break;
        case 2: (void)sbf_xxh64_batch(x->ptr + i, x->len + i, m, x->h1 + i); break;
        case 3: (void)sbf_hash_pairs(x->f, x->ptr + i, x->len + i, NULL, m, x->h1 + i,
                                     x->h2 + i); break;
        case LN_PEER + 0:
            for (size_t j = i; j < i + m; j++)
                x->h1[j] = XXH64(&x->u[j], 8, 0);
            break;
        case LN_PEER + 3:
            for (size_t j = i; j < i + m; j++)
                x->h1[j] = XXH3_64bits_withSeed(x->ptr[j], x->len[j], LN_XXH3_SEED);
            break;
        case LN_PEER + 1:
            for (size_t j = i; j < i + m; j++) {
                uint64_t o[2];
                sbf_murmur3_x64_128(x->ptr[j], x->len[j], 0, o);
                x->h1[j] = o[0];
                x->h2[j] = o[1];
            }
            break;
        default:
            for (size_t j = i; j < i + m; j++)
                x->h1[j] = XXH64(x->ptr[j], x->len[j], 0);
            break;
        }
    }
    g_lanes_sink += x->h1[off];
}

/* LN_KEYS strings of lo..hi random bytes in one arena. */
static void lanes_strings(uint64_t seed, size_t lo, size_t hi, unsigned char **arena,
                          const void **ptr, size_t *len)
{
    sbfb_rng g;
    sbfb_rng_seed(&g, seed);
    *arena = sbfb_xmalloc(LN_KEYS * hi + 1);
    size_t at = 0;
    for (size_t i = 0; i < LN_KEYS; i++) {
        len[i] = lo + sbfb_rng_next(&g) % (hi - lo + 1);
        ptr[i] = *arena + at;
        for (size_t j = 0; j < len[i]; j++)
            (*arena)[at + j] = (unsigned char)sbfb_rng_next(&g);
        at += len[i];
    }
}

/* x->f: a split-block-xxh3 filter bound to the ISA now set (want), or none. */
static void lanes_filter(lanes_ctx *x, int want)
{
    sbf_free(x->f);
    x->f = NULL;
    if (!want)
        return;
    sbf_params p = { 0 };
    p.layout = SBF_SPLIT_BLOCK_XXH3;
    p.bits = 1u << 15;
    p.seed = LN_XXH3_SEED;
    const int rc = sbf_create(&x->f, &p);
    if (rc != SBF_OK) {
        fprintf(stderr, "sbf-bench: lanes: split-block-xxh3 filter: %s\n", sbf_strerror(rc));
        exit(2);
    }
}

/* One workload: the available ISAs of o->isas and the peer, interleaved. */
static void lanes_measure(const sbfb_opts *o, sbfb_results *r, lanes_ctx *x, int kind,
                          const char *hash, const char *keys)
{
    int isas[SBFB_MAX_ISA + 1], n = 0;
    double best[SBFB_MAX_ISA + 1];
    for (int i = 0; i < o->nisa; i++)
        if (sbf_isa_available(o->isas[i]))
            isas[n++] = o->isas[i];
    isas[n++] = -1; /* the peer */
    for (int i = 0; i < n; i++)
        best[i] = INFINITY;
    sbfb_opts one = *o;
    one.reps = 1;
    for (int round = 0; round < o->reps; round++)
        for (int i = 0; i < n; i++) {
            sbfb_progress("lanes %s %s %s", hash, keys,
                          isas[i] < 0 ? "peer" : sbf_isa_name(isas[i]));
            x->kind = isas[i] < 0 ? kind + LN_PEER : kind;
            if (isas[i] >= 0)
                (void)sbf_isa_set(isas[i]);
            lanes_filter(x, kind == 3);
            const double ns = sbfb_time_best(&one, lanes_op, x, LN_KEYS);
            best[i] = ns < best[i] ? ns : best[i];
        }
    (void)sbf_isa_set(SBF_ISA_AUTO);
    lanes_filter(x, 0);
    for (int i = 0; i < n; i++) {
        lanes_row *row = sbfb_ext_add(r, &sbfb_sec_lanes, sizeof *row);
        row->hash = hash;
        snprintf(row->keys, sizeof row->keys, "%s", keys);
        row->isa = isas[i];
        row->ns = best[i];
        row->ratio = best[n - 1] / best[i];
    }
}

#if defined(LANES_CALLGRIND)
/* One pass per ISA, each dumped by callgrind under its name. */
static void lanes_count(lanes_ctx *x, int kind, const char *what)
{
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i <= n; i++) {
        char name[96];
        if (i < n && (!sbf_isa_available(isas[i]) || sbf_isa_set(isas[i]) != SBF_OK))
            continue;
        snprintf(name, sizeof name, "lanes.%s.%s %d", i < n ? sbf_isa_name(isas[i]) : "peer",
                 what, LN_KEYS);
        x->kind = i < n ? kind : kind + LN_PEER;
        lanes_filter(x, kind == 3);
        lanes_op(x, 0, LN_KEYS); /* warm: the ISA choice, the code */
        CALLGRIND_ZERO_STATS;
        lanes_op(x, 0, LN_KEYS);
        CALLGRIND_DUMP_STATS_AT(name);
        printf("phase %s\n", name);
    }
    (void)sbf_isa_set(SBF_ISA_AUTO);
    lanes_filter(x, 0);
}
#endif

/* Strings of one length each, and a few mixes (SBFB_LANES=sweep). */
static void lanes_sweep(const sbfb_opts *o, sbfb_results *r, lanes_ctx *x, const void **ptr,
                        size_t *len)
{
    static const size_t one[] = { 0, 1, 4, 7, 8, 9, 15, 16, 17, 24, 31, 32, 48, 64, 100, 256,
                                  1000 };
    static const size_t mix[][2] = { { 0, 8 }, { 0, 16 }, { 0, 1000 } };
    const size_t n1 = sizeof one / sizeof one[0], n = n1 + sizeof mix / sizeof mix[0];
    for (size_t i = 0; i < n; i++) {
        const size_t lo = i < n1 ? one[i] : mix[i - n1][0], hi = i < n1 ? one[i] : mix[i - n1][1];
        char name[24];
        unsigned char *arena;
        if (lo == hi)
            snprintf(name, sizeof name, "str %zu", lo);
        else
            snprintf(name, sizeof name, "str %zu..%zu", lo, hi);
        lanes_strings(o->seed + 100 + i, lo, hi, &arena, ptr, len);
        lanes_measure(o, r, x, 1, "murmur3", name);
        lanes_measure(o, r, x, 2, "xxh64", name);
        lanes_measure(o, r, x, 3, "xxh3", name);
        free(arena);
    }
}

static void lanes_run(const sbfb_opts *o, sbfb_results *r)
{
    static const struct { size_t lo, hi; const char *name, *tag; } strs[2] = {
        { 8, 64, "str 8..64", "str8_64" }, { 80, 120, "str 80..120", "str80_120" } };
    uint64_t *u = sbfb_xmalloc(LN_KEYS * 8);
    uint64_t *h1 = sbfb_xmalloc(LN_KEYS * 8), *h2 = sbfb_xmalloc(LN_KEYS * 8);
    const void **ptr = sbfb_xmalloc(LN_KEYS * sizeof *ptr);
    size_t *len = sbfb_xmalloc(LN_KEYS * sizeof *len);
    sbfb_keys(o->seed, 0, LN_KEYS, u);
    lanes_ctx x = { 0, u, ptr, len, h1, h2, NULL };
#if defined(LANES_CALLGRIND)
    const int counting = RUNNING_ON_VALGRIND != 0;
#else
    const int counting = 0;
#endif
    if (counting) {
#if defined(LANES_CALLGRIND)
        lanes_count(&x, 0, "xxh64.u64");
#endif
    } else {
        lanes_measure(o, r, &x, 0, "xxh64", "u64");
    }
    const char *env = getenv("SBFB_LANES");
    if (!counting && env != NULL && strstr(env, "sweep") != NULL)
        lanes_sweep(o, r, &x, ptr, len);
    for (int s = 0; s < 2; s++) {
        unsigned char *arena;
        lanes_strings(o->seed + 1 + (uint64_t)s, strs[s].lo, strs[s].hi, &arena, ptr, len);
        if (counting) {
#if defined(LANES_CALLGRIND)
            char what[64];
            snprintf(what, sizeof what, "murmur3.%s", strs[s].tag);
            lanes_count(&x, 1, what);
            snprintf(what, sizeof what, "xxh64.%s", strs[s].tag);
            lanes_count(&x, 2, what);
            snprintf(what, sizeof what, "xxh3.%s", strs[s].tag);
            lanes_count(&x, 3, what);
#endif
        } else {
            lanes_measure(o, r, &x, 1, "murmur3", strs[s].name);
            lanes_measure(o, r, &x, 2, "xxh64", strs[s].name);
            lanes_measure(o, r, &x, 3, "xxh3", strs[s].name);
        }
        free(arena);
    }
    free(u);
    free(h1);
    free(h2);
    free(ptr);
    free(len);
}

static void lanes_table(FILE *out, const sbfb_results *r, int md)
{
    size_t n;
    const lanes_row *rows = sbfb_ext_rows(r, &sbfb_sec_lanes, &n);
    if (n == 0)
        return;
    sbfb_tbl *t = sbfb_tbl_new(5);
    sbfb_tbl_set(t, 0, 0, "hash");
    sbfb_tbl_set(t, 0, 1, "keys");
    sbfb_tbl_set(t, 0, 2, "isa");
    sbfb_tbl_set(t, 0, 3, "ns/key");
    sbfb_tbl_set(t, 0, 4, "x one-key");
    t->right[3] = t->right[4] = 1;
    for (size_t i = 0; i < n && i + 1 < SBFB_TBL_ROWS; i++) {
        char ns[32];
        sbfb_fmt_ns(ns, sizeof ns, rows[i].ns);
        sbfb_tbl_set(t, (int)i + 1, 0, "%s", rows[i].hash);
        sbfb_tbl_set(t, (int)i + 1, 1, "%s", rows[i].keys);
        sbfb_tbl_set(t, (int)i + 1, 2, "%s", rows[i].isa < 0
                                             ? (strcmp(rows[i].hash, "xxh64") == 0
                                                    ? "XXH64() per key"
                                                    : strcmp(rows[i].hash, "xxh3") == 0
                                                    ? "XXH3_64bits_withSeed per key"
                                                    : "sbf_murmur3_x64_128 per key")
                                             : sbf_isa_name(rows[i].isa));
        sbfb_tbl_set(t, (int)i + 1, 3, "%s", ns);
        sbfb_tbl_set(t, (int)i + 1, 4, "%.2fx", rows[i].ratio);
    }
    sbfb_tbl_print(t, out, md);
    free(t);
}

static void lanes_text(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    (void)o;
    (void)sbfb_ext_rows(r, &sbfb_sec_lanes, &n);
    if (n == 0)
        return;
    fprintf(f, "\nHashes in SIMD lanes, %d keys in batches of %d (x one-key: the one-key "
               "function's ns / this ns)\n", LN_KEYS, LN_BATCH);
    lanes_table(f, r, 0);
}

static void lanes_md(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    (void)o;
    (void)sbfb_ext_rows(r, &sbfb_sec_lanes, &n);
    if (n == 0 || sbfb_md_part == SBFB_MD_SUMMARY)
        return;
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(f, "\n### Hashes in SIMD lanes\n\n");
        lanes_table(f, r, 1);
        return;
    }
    fprintf(f, "\n### Hashes in SIMD lanes\n\n%d keys (L1/L2 resident) hashed in batches of %d "
               "through sbf_xxh64_u64, sbf_murmur3_x64_128_batch and sbf_xxh64_batch, per "
               "ISA, against the one-key function called per key (libxxhash's XXH64 "
               "inlined with the length known; sbf_murmur3_x64_128). String lengths are "
               "uniform in the range and mixed within each batch. Timed in turn, "
               "interleaved, best of the rounds.\n", LN_KEYS, LN_BATCH);
}

static void lanes_json(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    const lanes_row *rows = sbfb_ext_rows(r, &sbfb_sec_lanes, &n);
    (void)o;
    if (n == 0)
        return;
    sbfb_jw_open(j, "lanes", '[', 0);
    for (size_t i = 0; i < n; i++) {
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "hash", rows[i].hash);
        sbfb_jw_str(j, "keys", rows[i].keys);
        sbfb_jw_str(j, "isa", rows[i].isa < 0 ? "peer" : sbf_isa_name(rows[i].isa));
        sbfb_jw_num(j, "ns_per_key", rows[i].ns);
        sbfb_jw_num(j, "ratio_vs_one_key", rows[i].ratio);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

const sbfb_section sbfb_sec_lanes = {
    .name = "lanes", .suite = SBFB_S_LANES, .run = lanes_run,
    .text = lanes_text, .markdown = lanes_md, .json = lanes_json,
};
