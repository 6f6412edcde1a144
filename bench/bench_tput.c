/*
 * Throughput: add and contains, single-key and batched, u64 and string keys,
 * per layout, ISA and filter size; the batched hash alone. Latency
 * histograms are taken here too, on the same filled filters (bench_lat.c
 * does the timing). The roofline is bench_roof.c, libbloom
 * bench_libbloom.c, the timing windows bench_timer.c.
 *
 * Every (layout, size) gets one "master" filter filled to the design load
 * (opts.bits_per_key) with the default kernels. Each ISA then gets a fresh
 * filter (sbf_isa_set before sbf_create): its add is timed on it, then it is
 * cleared and made a copy of the master with sbf_union, so every ISA probes
 * identical bits and a 1 GiB filter is filled once, not once per ISA.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)1 << 16)

/* A sink the optimiser cannot remove. */
static volatile uint64_t g_sink;

/* ---------------------------------------------------------------- filters */

void sbfb_geometry(int layout, size_t bytes, double bpk, uint64_t *bits,
                   uint64_t *n, uint32_t *k)
{
    *bits = (uint64_t)bytes * 8;
    /* Counting: bits count memory, 4 per counter; bpk counts counters. */
    const double cells_per_key = bpk;
    const double cells = (double)*bits / sbfb_cell_bits(layout);
    *n = (uint64_t)(cells / cells_per_key);
    if (*n < 1)
        *n = 1;
    *k = 0; /* the library derives it, as for a user */
}

int sbfb_create(sbf_filter **f, int isa, int layout, uint64_t bits, uint32_t k,
                uint64_t n)
{
    int rc = sbf_isa_set(isa);
    if (rc != SBF_OK)
        return rc;
    sbf_params p = {0};
    p.layout = layout;
    p.expected_n = n;
    p.fpp = 0.01; /* unused: bits is given */
    p.bits = bits;
    p.k = k;
    return sbf_create(f, &p);
}

/* Fills f with u64 keys [0, n) in chunks; returns ns per key. */
static double fill_u64(sbf_filter *f, uint64_t seed, uint64_t n, uint64_t *buf)
{
    const double t0 = sbfb_now();
    for (uint64_t i = 0; i < n; i += CHUNK) {
        const size_t len = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
        sbfb_keys(seed, i, len, buf);
        sbf_add_u64(f, buf, len);
    }
    return (sbfb_now() - t0) * 1e9 / (double)(n ? n : 1);
}

/*
 * Classic filters above SYNTH_MIN bytes: inserting n keys costs k random
 * cache misses each (minutes for 1 GiB). Each bit of a classic filter is set
 * with probability p = 1 - (1 - 1/m)^(kn), nearly independently, which is
 * what this builds (p to 1/256) and imports through Guava's serialized form,
 * the library's public import; the caller then inserts the probe keys.
 */
#define SYNTH_MIN ((size_t)64 << 20)

static int classic_synthetic(sbf_filter **out, uint64_t bits, uint64_t n, uint64_t seed)
{
    const uint64_t nwords = (bits + 63) / 64;
    const uint32_t k = (uint32_t)floor((double)bits / (double)n * log(2.0) + 0.5);
    if (nwords > (uint64_t)INT32_MAX || k < 1 || k > 255)
        return SBF_E_TOO_LARGE;
    const double p = -expm1((double)k * (double)n * log1p(-1.0 / (double)bits));
    const unsigned q = (unsigned)floor(p * 256 + 0.5);
    const size_t len = 6 + (size_t)nwords * 8;
    unsigned char *buf = sbfb_alloc_huge(len);
    if (buf == NULL)
        return SBF_E_NOMEM;
    buf[0] = 1; /* MURMUR128_MITZ_64 */
    buf[1] = (unsigned char)k;
    buf[2] = (unsigned char)(nwords >> 24);
    buf[3] = (unsigned char)(nwords >> 16);
    buf[4] = (unsigned char)(nwords >> 8);
    buf[5] = (unsigned char)nwords;
    sbfb_rng r;
    sbfb_rng_seed(&r, seed ^ UINT64_C(0x636c6173736963));
    for (uint64_t i = 0; i < nwords; i++) {
        /* bit j of q, from the least significant: w = b ? w | x : w & x
         * leaves every bit set with probability q / 256 */
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) {
            const uint64_t x = sbfb_rng_next(&r);
            w = (q >> j) & 1 ? w | x : w & x;
        }
        if (q >= 256)
            w = ~UINT64_C(0);
        memcpy(buf + 6 + i * 8, &w, 8); /* byte order: any, the bits are random */
    }
    sbf_isa_set(SBF_ISA_AUTO);
    const int rc = sbf_import_guava(out, buf, len);
    sbfb_free_huge(buf, len);
    return rc;
}

/* ------------------------------------------------------------- operations */

typedef struct opctx {
    sbf_filter *f;
    const uint64_t *keys;
    uint8_t *out;
    const sbfb_strs *s;
} opctx;

static void op_add_batch(void *c, size_t off, size_t len)
{
    opctx *x = c;
    sbf_add_u64(x->f, x->keys + off, len);
}

static void op_add_single(void *c, size_t off, size_t len)
{
    opctx *x = c;
    for (size_t i = off; i < off + len; i++)
        sbf_add(x->f, &x->keys[i], 8);
}

static void op_contains_batch(void *c, size_t off, size_t len)
{
    opctx *x = c;
    g_sink += sbf_contains_u64(x->f, x->keys + off, len, x->out);
}

static void op_contains_single(void *c, size_t off, size_t len)
{
    opctx *x = c;
    uint64_t hits = 0;
    for (size_t i = off; i < off + len; i++)
        hits += (uint64_t)sbf_contains(x->f, &x->keys[i], 8);
    g_sink += hits;
}

static void op_str_add_batch(void *c, size_t off, size_t len)
{
    opctx *x = c;
    sbf_add_batch(x->f, x->s->ptr + off, x->s->len + off, len);
}

static void op_str_add_single(void *c, size_t off, size_t len)
{
    opctx *x = c;
    for (size_t i = off; i < off + len; i++)
        sbf_add(x->f, x->s->ptr[i], x->s->len[i]);
}

static void op_str_contains_batch(void *c, size_t off, size_t len)
{
    opctx *x = c;
    g_sink += sbf_contains_batch(x->f, x->s->ptr + off, x->s->len + off, len, x->out);
}

static void op_str_contains_single(void *c, size_t off, size_t len)
{
    opctx *x = c;
    uint64_t hits = 0;
    for (size_t i = off; i < off + len; i++)
        hits += (uint64_t)sbf_contains(x->f, x->s->ptr[i], x->s->len[i]);
    g_sink += hits;
}

/* One (size, layout): its geometry, probe keys and the filled master filter
 * every ISA copies. */
typedef struct fset {
    int si, layout;
    size_t bytes;
    const char *slabel;
    uint64_t bits, n;
    uint32_t k;
    size_t P;              /* probe keys per timed pass */
    size_t S;              /* string keys (part of the n) */
    uint64_t nu;           /* u64 keys inserted */
    uint64_t *addk, *pos, *neg;
    uint8_t *out;
    sbfb_strs spos, sneg;
    sbf_filter *master;
} fset;

static sbfb_tput *record(sbfb_results *r, const fset *fs, int isa, const char *op,
                         const char *mode, const char *keys, const char *lookup, double ns)
{
    sbfb_tput *t = sbfb_add_tput(r);
    t->layout = fs->layout;
    t->isa = isa;
    t->size_idx = fs->si;
    t->bytes = fs->bytes;
    t->bits = fs->bits;
    t->k = fs->k;
    t->n = fs->n;
    t->op = op;
    t->mode = mode;
    t->keys = keys;
    t->lookup = lookup;
    t->ns = ns;
    return t;
}

/* Times a job (bench_timer.c) and records it as a row with its spread. */
static void measure(const sbfb_opts *o, sbfb_results *r, const fset *fs, int isa,
                    const char *op, const char *mode, const char *keys, const char *lookup,
                    const sbfb_job *j)
{
    sbfb_timing *t = sbfb_xmalloc(sizeof *t);
    sbfb_time_job(o, j, t);
    sbfb_tput *row = record(r, fs, isa, op, mode, keys, lookup, t->ns);
    row->spread = t->spread;
    row->windows = t->windows;
    row->dropped = t->dropped;
    free(t);
}

/* ---------------------------------------------------------------- driver */

/* Keys per timed pass: enough to spread over a DRAM filter, few enough to
 * keep a pass short. */
size_t sbfb_probe_count(const sbfb_opts *o, uint64_t n)
{
    const size_t cap = o->quick ? (size_t)1 << 20 : (size_t)1 << 22;
    size_t p = n < cap ? (size_t)n : cap;
    return p < 4096 ? 4096 : p;
}

static int default_isa(void)
{
    sbf_isa_set(SBF_ISA_AUTO);
    return sbf_isa_active();
}

static void fset_free(fset *fs)
{
    free(fs->addk);
    free(fs->pos);
    free(fs->neg);
    free(fs->out);
    sbfb_strs_free(&fs->spos);
    sbfb_strs_free(&fs->sneg);
    sbf_free(fs->master);
    memset(fs, 0, sizeof *fs);
}

/* Geometry, probe keys and the master filter, filled to the design load
 * (u64 keys, then the string keys); 0, or -1 when the filter cannot be made. */
static int fset_make(const sbfb_opts *o, fset *fs, int si, int layout, uint64_t *buf)
{
    memset(fs, 0, sizeof *fs);
    fs->si = si;
    fs->layout = layout;
    fs->bytes = o->sizes[si].bytes;
    fs->slabel = o->sizes[si].label;
    sbfb_geometry(layout, fs->bytes, o->bits_per_key, &fs->bits, &fs->n, &fs->k);
    fs->P = sbfb_probe_count(o, fs->n);
    /* Strings: a share of the keys, the rest are u64. */
    fs->S = (o->suites & SBFB_S_TPUT) ? (size_t)(fs->n / 8 < 65536 ? fs->n / 8 : 65536) : 0;
    fs->nu = fs->n - fs->S;
    const size_t P = fs->P;
    fs->addk = sbfb_xmalloc(P * sizeof *fs->addk);
    fs->pos = sbfb_xmalloc(P * sizeof *fs->pos);
    fs->neg = sbfb_xmalloc(P * sizeof *fs->neg);
    fs->out = sbfb_xmalloc(P > fs->S ? P : fs->S);
    memset(fs->out, 0, P > fs->S ? P : fs->S); /* touched before any timing */
    sbfb_keys(o->seed, 0, P, fs->addk);
    sbfb_keys_random(o->seed, 1, 0, fs->nu, P, fs->pos);
    sbfb_keys_random(o->seed, 2, SBFB_NEG_BASE, fs->nu, P, fs->neg);

    const char *lname = sbfb_layout_name(layout);
    const int synth = layout == SBF_CLASSIC && fs->bytes > SYNTH_MIN;
    sbfb_progress("%s %s: filling %llu keys%s", lname, fs->slabel, (unsigned long long)fs->n,
                  synth ? " (random bits)" : "");
    const int rc = synth ? classic_synthetic(&fs->master, fs->bits, fs->n, o->seed)
                         : sbfb_create(&fs->master, SBF_ISA_AUTO, layout, fs->bits, fs->k, fs->n);
    if (rc != SBF_OK) {
        sbfb_note("%s %s: sbf_create: %s (skipped)", lname, fs->slabel, sbf_strerror(rc));
        fs->master = NULL;
        fset_free(fs);
        return -1;
    }
    struct sbf_info info;
    sbf_info(fs->master, &info);
    fs->k = info.k;
    double fill_ns;
    if (synth) {
        /* the probe keys must be present */
        fill_ns = sbfb_now();
        sbf_add_u64(fs->master, fs->pos, P);
        fill_ns = (sbfb_now() - fill_ns) * 1e9 / (double)P;
    } else {
        fill_ns = fill_u64(fs->master, o->seed, fs->nu, buf);
    }
    if (fs->S) {
        sbfb_strs_make(&fs->spos, o->seed, 0, fs->S);
        sbfb_strs_make(&fs->sneg, o->seed, SBFB_NEG_BASE, fs->S);
        sbf_add_batch(fs->master, fs->spos.ptr, fs->spos.len, fs->spos.n);
    }
    sbfb_progress("%s %s: filled (%.1f ns/key)", lname, fs->slabel, fill_ns);
    return 0;
}

/* Before each pass of fresh adds: an empty filter again (untimed). */
static void wrap_clear(void *c)
{
    sbf_clear(((opctx *)c)->f);
}

/* Adds of fresh keys into a cleared filter: each pass adds keys never added
 * since the last clear, up to the design load (or the P probe keys), then
 * the filter is cleared outside the timed windows. */
static void tput_add_fresh(const sbfb_opts *o, sbfb_results *r, const fset *fs, int isa,
                           sbf_filter *f)
{
    opctx x = { f, fs->addk, fs->out, NULL };
    const size_t pass = fs->n < fs->P ? (size_t)fs->n : fs->P;
    measure(o, r, fs, isa, "add", "batch", "u64", "fresh",
            &(sbfb_job){ op_add_batch, &x, pass, wrap_clear });
    measure(o, r, fs, isa, "add", "single", "u64", "fresh",
            &(sbfb_job){ op_add_single, &x, pass, wrap_clear });
}

/* One ISA on one (size, layout): fresh adds into its own filter, then, on a
 * copy of the master, re-adds of present keys and contains; for the default
 * kernels also the roofline loop on the filter's own memory. */
static void tput_isa(const sbfb_opts *o, sbfb_results *r, const fset *fs, int isa, int def_isa)
{
    const char *lname = sbfb_layout_name(fs->layout), *iname = sbf_isa_name(isa);
    sbf_filter *f;
    int rc = sbfb_create(&f, isa, fs->layout, fs->bits, fs->k, fs->n);
    if (rc != SBF_OK) {
        sbfb_note("%s %s %s: %s (skipped)", lname, fs->slabel, iname, sbf_strerror(rc));
        return;
    }
    sbf_clear(f); /* every page written once: no first touch in a timed window */
    const size_t P = fs->P;
    sbfb_progress("%s %s %s: add", lname, fs->slabel, iname);
    tput_add_fresh(o, r, fs, isa, f);
    sbf_clear(f);
    rc = sbf_union(f, fs->master);
    if (rc != SBF_OK) {
        sbfb_note("sbf_union: %s", sbf_strerror(rc));
        sbf_free(f);
        return;
    }
    opctx x = { f, fs->pos, fs->out, NULL };
    measure(o, r, fs, isa, "add", "batch", "u64", "present",
            &(sbfb_job){ op_add_batch, &x, P, NULL });
    measure(o, r, fs, isa, "add", "single", "u64", "present",
            &(sbfb_job){ op_add_single, &x, P, NULL });
    sbfb_progress("%s %s %s: contains", lname, fs->slabel, iname);
    x.keys = fs->pos;
    measure(o, r, fs, isa, "contains", "batch", "u64", "positive",
            &(sbfb_job){ op_contains_batch, &x, P, NULL });
    x.keys = fs->neg;
    measure(o, r, fs, isa, "contains", "batch", "u64", "negative",
            &(sbfb_job){ op_contains_batch, &x, P, NULL });
    x.keys = fs->pos;
    measure(o, r, fs, isa, "contains", "single", "u64", "positive",
            &(sbfb_job){ op_contains_single, &x, P, NULL });
    x.keys = fs->neg;
    measure(o, r, fs, isa, "contains", "single", "u64", "negative",
            &(sbfb_job){ op_contains_single, &x, P, NULL });
    if (isa == def_isa && (o->suites & SBFB_S_ROOF)) {
        /* the roofline on this very memory, same probes, now */
        size_t dlen;
        const uint64_t *data = sbf_data(f, &dlen);
        r->roof_at[fs->layout][fs->si] =
            sbfb_roofline_swept(o, data, dlen / 64, fs->neg, P,
                                &r->roof_at_dist[fs->layout][fs->si]);
    }
    sbf_free(f);
}

/* Strings hash with the scalar MurmurHash3 on every ISA: measured once, on
 * the master, with the default kernels. */
static void tput_strings(const sbfb_opts *o, sbfb_results *r, fset *fs, int def_isa)
{
    const size_t S = fs->S;
    sbfb_progress("%s %s: string keys", sbfb_layout_name(fs->layout), fs->slabel);
    sbf_filter *f;
    if (sbfb_create(&f, SBF_ISA_AUTO, fs->layout, fs->bits, fs->k, fs->n) == SBF_OK) {
        sbf_clear(f); /* pages touched before timing */
        opctx y = { f, NULL, fs->out, &fs->spos };
        measure(o, r, fs, def_isa, "add", "batch", "str", "fresh",
                &(sbfb_job){ op_str_add_batch, &y, S, wrap_clear });
        measure(o, r, fs, def_isa, "add", "single", "str", "fresh",
                &(sbfb_job){ op_str_add_single, &y, S, wrap_clear });
        sbf_free(f);
    }
    opctx x = { fs->master, NULL, fs->out, &fs->spos };
    measure(o, r, fs, def_isa, "add", "batch", "str", "present",
            &(sbfb_job){ op_str_add_batch, &x, S, NULL });
    measure(o, r, fs, def_isa, "add", "single", "str", "present",
            &(sbfb_job){ op_str_add_single, &x, S, NULL });
    measure(o, r, fs, def_isa, "contains", "batch", "str", "positive",
            &(sbfb_job){ op_str_contains_batch, &x, S, NULL });
    measure(o, r, fs, def_isa, "contains", "single", "str", "positive",
            &(sbfb_job){ op_str_contains_single, &x, S, NULL });
    x.s = &fs->sneg;
    measure(o, r, fs, def_isa, "contains", "batch", "str", "negative",
            &(sbfb_job){ op_str_contains_batch, &x, S, NULL });
    measure(o, r, fs, def_isa, "contains", "single", "str", "negative",
            &(sbfb_job){ op_str_contains_single, &x, S, NULL });
}

void sbfb_run_filters(const sbfb_opts *o, sbfb_results *r)
{
    const int def_isa = default_isa();
    if (def_isa < 0) {
        sbfb_note("SBF_ISA: %s; set it to an available ISA or unset it",
                  sbf_strerror(def_isa));
        exit(2);
    }
    uint64_t *buf = sbfb_xmalloc(CHUNK * sizeof *buf);
    for (int si = 0; si < o->nsizes; si++) {
        for (int layout = 0; layout < sbfb_nlayouts(); layout++) {
            if (!(o->layouts & (1u << layout)))
                continue;
            fset fs;
            if (fset_make(o, &fs, si, layout, buf) != 0)
                continue;
            if (o->suites & SBFB_S_TPUT) {
                for (int ii = 0; ii < o->nisa; ii++)
                    tput_isa(o, r, &fs, o->isas[ii], def_isa);
                if (fs.S)
                    tput_strings(o, r, &fs, def_isa);
            }
            if (o->suites & SBFB_S_LAT) {
                sbfb_progress("%s %s: latency", sbfb_layout_name(layout), fs.slabel);
                sbfb_latency_filter(o, r, fs.master, def_isa, layout, si, fs.bytes, fs.pos,
                                    fs.neg, fs.P);
            }
            fset_free(&fs);
        }
    }
    free(buf);
    sbf_isa_set(SBF_ISA_AUTO);
}

/* ------------------------------------------------------------ batched hash */

typedef struct hashctx {
    const uint64_t *keys;
    size_t n;
    uint64_t *h1, *h2;
} hashctx;

static void op_hash(void *c, size_t off, size_t len)
{
    hashctx *x = c;
    sbf_murmur3_x64_128_u64(x->keys + off, len, 0, x->h1 + off, x->h2 + off);
    g_sink += x->h1[off];
}

void sbfb_run_hash(const sbfb_opts *o, sbfb_results *r)
{
    enum { N = 4096 }; /* 96 KiB of keys and hashes: L1/L2 resident */
    uint64_t *keys = sbfb_xmalloc(N * sizeof *keys);
    uint64_t *h1 = sbfb_xmalloc(N * sizeof *h1), *h2 = sbfb_xmalloc(N * sizeof *h2);
    sbfb_keys(o->seed, 0, N, keys);
    hashctx x = { keys, N, h1, h2 };
    double scalar_ns = 0;
    for (int ii = 0; ii < o->nisa; ii++) {
        const int isa = o->isas[ii];
        if (sbf_isa_set(isa) != SBF_OK)
            continue;
        sbfb_progress("hash %s", sbf_isa_name(isa));
        sbfb_hash *h = &r->hash[r->nhash++];
        h->isa = isa;
        h->ns = sbfb_time_best(o, op_hash, &x, N);
        if (isa == SBF_ISA_SCALAR)
            scalar_ns = h->ns;
    }
    for (int i = 0; i < r->nhash; i++)
        r->hash[i].speedup = scalar_ns > 0 ? scalar_ns / r->hash[i].ns : 0;
    sbf_isa_set(SBF_ISA_AUTO);
    free(keys);
    free(h1);
    free(h2);
}

