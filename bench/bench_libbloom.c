/*
 * libbloom (Debian libbloom-dev) as a peer: the same keys and bits per key
 * as simdbloom's blocked layout called one key at a time. Built in only when
 * <bloom.h> is installed (-DSBF_HAVE_LIBBLOOM, -lbloom).
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(SBF_HAVE_LIBBLOOM)
#  include <bloom.h>
#endif

#define CHUNK ((size_t)1 << 16)

static volatile uint64_t g_sink;

#if defined(SBF_HAVE_LIBBLOOM)
typedef struct lbctx {
    struct bloom *b;
    const uint64_t *keys;
    const sbfb_strs *s;
} lbctx;

static void op_lb_add(void *c, size_t off, size_t len)
{
    lbctx *x = c;
    for (size_t i = off; i < off + len; i++)
        bloom_add(x->b, &x->keys[i], 8);
}

static void wrap_reset(void *c)
{
    bloom_reset(((lbctx *)c)->b);
}

/* Adds u64 keys [0, nu) to b. */
static void lb_fill(const sbfb_opts *o, struct bloom *b, uint64_t nu)
{
    uint64_t *buf = sbfb_xmalloc(CHUNK * sizeof *buf);
    for (uint64_t i = 0; i < nu; i += CHUNK) {
        const size_t len = nu - i < CHUNK ? (size_t)(nu - i) : CHUNK;
        sbfb_keys(o->seed, i, len, buf);
        for (size_t j = 0; j < len; j++)
            bloom_add(b, &buf[j], 8);
    }
    free(buf);
}

static double time_job(const sbfb_opts *o, sbfb_op fn, lbctx *x, size_t total,
                       void (*wrap)(void *))
{
    const sbfb_job j = { fn, x, total, wrap };
    sbfb_timing *t = sbfb_xmalloc(sizeof *t);
    sbfb_time_job(o, &j, t);
    const double ns = t->ns;
    free(t);
    return ns;
}

static void op_lb_check(void *c, size_t off, size_t len)
{
    lbctx *x = c;
    uint64_t hits = 0;
    for (size_t i = off; i < off + len; i++)
        hits += (uint64_t)bloom_check(x->b, &x->keys[i], 8);
    g_sink += hits;
}

static void op_lb_str_add(void *c, size_t off, size_t len)
{
    lbctx *x = c;
    for (size_t i = off; i < off + len; i++)
        bloom_add(x->b, x->s->ptr[i], (int)x->s->len[i]);
}

static void op_lb_str_check(void *c, size_t off, size_t len)
{
    lbctx *x = c;
    uint64_t hits = 0;
    for (size_t i = off; i < off + len; i++)
        hits += (uint64_t)bloom_check(x->b, x->s->ptr[i], (int)x->s->len[i]);
    g_sink += hits;
}
#endif

static void peer(sbfb_results *r, int si, size_t bytes, uint64_t n, int k,
                 const char *op, const char *keys, const char *lookup, double ns,
                 const char *note)
{
    sbfb_peer *p = sbfb_add_peer(r);
    p->size_idx = si;
    p->bytes = bytes;
    p->n = n;
    p->k = k;
    p->op = op;
    p->keys = keys;
    p->lookup = lookup;
    p->ns = ns;
    p->note = note;
}

void sbfb_run_libbloom(const sbfb_opts *o, sbfb_results *r)
{
#if !defined(SBF_HAVE_LIBBLOOM)
    (void)o;
    for (int si = 0; si < o->nsizes; si++)
        peer(r, si, o->sizes[si].bytes, 0, 0, "contains", "u64", "negative", NAN,
             "built without libbloom (install libbloom-dev and rebuild)");
#else
    for (int si = 0; si < o->nsizes; si++) {
        const size_t bytes = o->sizes[si].bytes;
        uint64_t bits, n;
        uint32_t k;
        sbfb_geometry(SBF_CLASSIC, bytes, o->bits_per_key, &bits, &n, &k);
        /* libbloom keeps entries and bits in an int. */
        if (bits > (uint64_t)INT32_MAX || n < 1000) {
            peer(r, si, bytes, n, 0, "contains", "u64", "negative", NAN,
                 bits > (uint64_t)INT32_MAX ? "libbloom counts bits in an int: at most 256 MiB"
                                            : "libbloom needs at least 1000 entries");
            continue;
        }
        sbfb_progress("libbloom %s: filling %llu keys", o->sizes[si].label,
                      (unsigned long long)n);
        /* error chosen so that bits per entry = bits_per_key: same memory */
        struct bloom b;
        const double err = exp(-o->bits_per_key * log(2.0) * log(2.0));
        if (bloom_init(&b, (int)n, err) != 0) {
            peer(r, si, bytes, n, 0, "contains", "u64", "negative", NAN, "bloom_init failed");
            continue;
        }
        const size_t S = (size_t)(n / 8 < 65536 ? n / 8 : 65536);
        const uint64_t nu = n - S;
        lb_fill(o, &b, nu);
        sbfb_strs spos, sneg;
        sbfb_strs_make(&spos, o->seed, 0, S);
        sbfb_strs_make(&sneg, o->seed, SBFB_NEG_BASE, S);
        for (size_t j = 0; j < S; j++)
            bloom_add(&b, spos.ptr[j], (int)spos.len[j]);
        const size_t P = sbfb_probe_count(o, n);
        uint64_t *addk = sbfb_xmalloc(P * sizeof *addk);
        uint64_t *pos = sbfb_xmalloc(P * sizeof *pos);
        uint64_t *neg = sbfb_xmalloc(P * sizeof *neg);
        sbfb_keys(o->seed, 0, P, addk);
        sbfb_keys_random(o->seed, 1, 0, nu, P, pos);
        sbfb_keys_random(o->seed, 2, SBFB_NEG_BASE, nu, P, neg);
        sbfb_progress("libbloom %s: timing", o->sizes[si].label);
        /* adds: fresh keys into a second filter, reset (untimed) before each
         * pass, as simdbloom's "add fresh" rows */
        struct bloom b2;
        lbctx x = { &b2, addk, NULL };
        if (bloom_init(&b2, (int)n, err) == 0) {
            const size_t pass = n < P ? (size_t)n : P;
            peer(r, si, bytes, n, b.hashes, "add", "u64", "fresh",
                 time_job(o, op_lb_add, &x, pass, wrap_reset), NULL);
            x.s = &spos;
            peer(r, si, bytes, n, b.hashes, "add", "str", "fresh",
                 time_job(o, op_lb_str_add, &x, S, wrap_reset), NULL);
            bloom_free(&b2);
        }
        x.b = &b;
        x.keys = pos;
        peer(r, si, bytes, n, b.hashes, "contains", "u64", "positive",
             sbfb_time_best(o, op_lb_check, &x, P), NULL);
        x.keys = neg;
        peer(r, si, bytes, n, b.hashes, "contains", "u64", "negative",
             sbfb_time_best(o, op_lb_check, &x, P), NULL);
        x.s = &spos;
        peer(r, si, bytes, n, b.hashes, "contains", "str", "positive",
             sbfb_time_best(o, op_lb_str_check, &x, S), NULL);
        x.s = &sneg;
        peer(r, si, bytes, n, b.hashes, "contains", "str", "negative",
             sbfb_time_best(o, op_lb_str_check, &x, S), NULL);
        free(addk);
        free(pos);
        free(neg);
        sbfb_strs_free(&spos);
        sbfb_strs_free(&sneg);
        bloom_free(&b);
    }
#endif
}
