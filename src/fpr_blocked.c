/*
 * The exact blocked term E[(S/B)^k] (S = bits set by t = i*k uniform throws
 * into B bits), for src/fpr.c, computed "query first": the k query positions
 * cover J distinct bits (an occupancy distribution over J <= min(k, B)), and
 * then the t throws must hit each of those J bits. Let u be the number of
 * the query's bits still clear; each throw clears one of them with
 * probability u/B. u is a Markov chain on 0..K (K = min(k, B)) whose
 * transition matrix T (T[u][u] = 1 - u/B, T[u-1][u] = u/B) does not depend
 * on J, so f(t) = P(u_t = 0) = (T^t pi)[0]. T is upper bidiagonal with
 * non-negative entries; its powers are upper triangular and non-negative, so
 * repeated squaring and matrix-vector products add only non-negative terms:
 * no cancellation, relative error a few ulps even at FPRs of 1e-40. One key
 * is one application of P = T^k ((K+1)(K+2)/2 multiplies, 36 for k = 7),
 * independent of B and of the load, which makes one evaluation
 * O(window * K^2) -- about 15 us at n = 1e6, m = 1e7, k = 7, B = 512. This
 * is the same quantity as the occupancy recursion
 * P_{t+1}(s) = P_t(s) s/B + P_t(s-1) (B-s+1)/B summed against (s/B)^k
 * (tests/test_fpr.c checks the two against each other), only cheaper:
 * K^2/2 per key instead of k*B.
 *
 * Bounded work, for any argument. A call sums at most SAMPLE_CAP load
 * values (src/fpr_load.c); the chain adds matrix powers whose exponents (k,
 * the first load, the stride) grow with the arguments. But f is 1 to double
 * precision once i k / B exceeds about 45, and such loads never touch the
 * chain: it is built only when a sampled load below that needs it, and a
 * window that starts there returns 1 at once, however large k or n. What
 * remains is estimated from the arguments (chain_work) and refused with NaN
 * above CHAIN_BUDGET multiply-adds: about 10 ms at worst. Skipping work
 * never changes a result: the values computed are the same, bit for bit
 * (tri_mul and tri_apply keep their order of adds).
 *
 * Nothing is cached between calls; all state lives on the stack or in a
 * malloc'd scratch block freed before return, so everything is thread safe.
 */
#include "sbf_internal.h"
#include "fpr_internal.h"

#include <math.h>
#include <stdlib.h>

#define CHAIN_MAX_K 256u                 /* largest min(k, B) for the chain */
/* Most multiply-adds one blocked evaluation may take (about 10 ms at 1 ns
 * each, the rate of the (K+1)^2 matrices that spill out of L1). The
 * layouts' own arguments (K <= 32, B <= 512) stay below a tenth of it. */
#define CHAIN_BUDGET 1e7
#define TINY 1e-300                      /* flushed to 0 (avoids denormals) */

/* ----------------------------------------------- upper-triangular matrices
 * (K+1) x (K+1), row-major, only entries with column >= row are used. All
 * entries are probabilities (non-negative, columns sum to at most 1).
 */

/* c = a * b (c distinct from a and b). Entry (r, col) is the sum over
 * j = r..col of a[r][j] b[j][col], added in increasing j: the loops run
 * j-outer so that the inner loop is contiguous (and vectorises), which keeps
 * that order, and zero entries of a (low powers of T are banded) are
 * skipped, which adds nothing: every result is bit-identical to the dot
 * products taken one entry at a time. */
static void tri_mul(double *restrict c, const double *a, const double *b,
                    size_t d)
{
    uint64_t madds = 0;
    for (size_t r = 0; r < d; r++) {
        double *restrict cr = c + r * d;
        for (size_t col = r; col < d; col++)
            cr[col] = 0.0;
        madds += d - r; /* the zeroing and the flush below */
        for (size_t j = r; j < d; j++) {
            const double arj = a[r * d + j];
            if (arj == 0.0)
                continue;
            madds += d - j;
            const double *bj = b + j * d;
            for (size_t col = j; col < d; col++)
                cr[col] += arj * bj[col];
        }
        for (size_t col = r; col < d; col++)
            if (cr[col] < TINY)
                cr[col] = 0.0;
    }
    sbfi_fpr_count.madds += madds;
}

/* Multiply-adds of one tri_apply of dimension d. */
static uint64_t apply_madds(size_t d)
{
    return (uint64_t)d * (d + 1) / 2;
}

/* v = a v, in place (row r reads only v[r..], so ascending rows are safe). */
static void tri_apply(const double *a, double *v, size_t d)
{
    size_t r = 0;
    /* Four rows at a time: four independent sums instead of one chain of
     * dependent adds, each still added in increasing j (bit-identical to one
     * row at a time). Every row reads the old v[r..] only, and v[r..r+3]
     * are written after the four sums, so in place is still safe. */
    for (; r + 4 <= d; r += 4) {
        const double *a0 = a + r * d, *a1 = a0 + d, *a2 = a1 + d, *a3 = a2 + d;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        s0 += a0[r] * v[r];
        s0 += a0[r + 1] * v[r + 1];
        s1 += a1[r + 1] * v[r + 1];
        s0 += a0[r + 2] * v[r + 2];
        s1 += a1[r + 2] * v[r + 2];
        s2 += a2[r + 2] * v[r + 2];
        for (size_t j = r + 3; j < d; j++) {
            const double vj = v[j];
            s0 += a0[j] * vj;
            s1 += a1[j] * vj;
            s2 += a2[j] * vj;
            s3 += a3[j] * vj;
        }
        v[r] = s0 < TINY ? 0.0 : s0;
        v[r + 1] = s1 < TINY ? 0.0 : s1;
        v[r + 2] = s2 < TINY ? 0.0 : s2;
        v[r + 3] = s3 < TINY ? 0.0 : s3;
    }
    for (; r < d; r++) {
        double s = 0.0;
        for (size_t j = r; j < d; j++)
            s += a[r * d + j] * v[j];
        v[r] = s < TINY ? 0.0 : s;
    }
}

/* v = base^e v. base is destroyed (it ends as a power of itself); tmp holds
 * d*d doubles. */
static void tri_pow_apply(double *v, double *base, uint64_t e, size_t d,
                          double *tmp)
{
    while (e) {
        if (e & 1) {
            tri_apply(base, v, d);
            sbfi_fpr_count.madds += apply_madds(d);
        }
        e >>= 1;
        if (e) {
            tri_mul(tmp, base, base, d);
            memcpy(base, tmp, d * d * sizeof *base);
        }
    }
}

/* out = base^e. base is destroyed; tmp holds d*d doubles. */
static void tri_pow(double *out, double *base, uint64_t e, size_t d,
                    double *tmp)
{
    memset(out, 0, d * d * sizeof *out);
    for (size_t r = 0; r < d; r++)
        out[r * d + r] = 1.0;
    while (e) {
        if (e & 1) {
            tri_mul(tmp, out, base, d);
            memcpy(out, tmp, d * d * sizeof *out);
        }
        e >>= 1;
        if (e) {
            tri_mul(tmp, base, base, d);
            memcpy(base, tmp, d * d * sizeof *base);
        }
    }
}

/* ------------------------------------------------ the chain at each load */

typedef struct blocked_ctx {
    double *step_m; /* P^step: advances the chain by `step` keys */
    double *v;      /* distribution of u (query bits still clear) */
    size_t d;       /* K + 1 */
    uint64_t applied; /* tri_apply calls (counted, not read) */
    double log_full; /* log(K) + i k log(1 - 1/B) below this: f = 1 */
    double log_k;
    double k_log_miss; /* k log(1 - 1/B) */
} blocked_ctx;

/* E[(S/B)^k] at the current load; then advance to the next sampled load.
 * 1 - f <= E[u] <= K (1 - 1/B)^(ik): once that is below 1e-17, f is 1 to
 * double precision, and saying so exactly keeps the rounding of the long
 * chain of products (a few ulps) out of FPRs near 1. */
static int blocked_saturated(const blocked_ctx *c, uint64_t i)
{
    return c->log_k + (double)i * c->k_log_miss < c->log_full;
}

static double blocked_f(void *ctx, uint64_t i)
{
    blocked_ctx *c = ctx;
    if (blocked_saturated(c, i))
        return 1.0;
    const double f = c->v[0];
    if (c->step_m != NULL) { /* NULL: no later load needs the chain */
        tri_apply(c->step_m, c->v, c->d);
        c->applied++;
    }
    return f;
}

/* Multiply-adds of tri_pow (prod = cube) or tri_pow_apply (prod = sq) with
 * exponent e: a squaring per bit above the top one, a product per set bit. */
static double pow_work(uint64_t e, double cube, double prod)
{
    if (e == 0)
        return 0.0;
    return (double)(63 - __builtin_clzll(e)) * cube +
           (double)__builtin_popcountll(e) * prod;
}

/* Multiply-adds blocked_moment will spend on the chain: building it, and
 * one matrix-vector product per unsaturated sampled load. An estimate
 * from the arguments only, so the refusal it leads to is deterministic. */
static double chain_work(const blocked_ctx *c, const sbfi_load_dist *L,
                         uint32_t k, uint64_t q, int more)
{
    const double d = (double)c->d, cube = d * d * d / 6, sq = d * d / 2;
    /* loads above i_lim are saturated (k_log_miss < 0) */
    const double i_lim = (c->log_full - c->log_k) / c->k_log_miss;
    const double top = (double)L->hi < i_lim ? (double)L->hi : i_lim;
    const double loads = top < (double)L->lo ? 1.0
                       : floor((top - (double)L->lo) / (double)L->step) + 1.0;
    return pow_work(q, cube, sq) + pow_work(k, cube, cube) +
           (more ? pow_work(L->step, cube, cube) : 0.0) +
           pow_work(L->lo, cube, sq) + loads * sq;
}

/*
 * The chain at the first sampled load (c->v) and its stride (c->step_m, when
 * `more` loads need it), in mem (4 d^2 + 2 d doubles).
 */
static void chain_build(blocked_ctx *c, const sbfi_load_dist *L, uint32_t k,
                        uint64_t q, uint32_t block_bits, int more, double *mem)
{
    const size_t d = c->d;
    const uint32_t K = (uint32_t)(d - 1);
    const double B = (double)block_bits;
    double *key_m = mem, *step_m = key_m + d * d, *base = step_m + d * d;
    double *tmp = base + d * d, *v = tmp + d * d, *w = v + d;

    /*
     * Distinct bits among the k query positions: y = K - J (J distinct), a
     * chain where y -> y - 1 with probability (B - J)/B and stays with J/B;
     * start at y = K (J = 0) and take k steps.
     */
    memset(base, 0, d * d * sizeof *base);
    for (size_t y = 0; y < d; y++) {
        const double j = (double)(K - y);
        base[y * d + y] = j / B;
        if (y > 0)
            base[(y - 1) * d + y] = (B - j) / B;
    }
    memset(w, 0, d * sizeof *w);
    w[K] = 1.0;
    tri_pow_apply(w, base, q, d, tmp);
    for (size_t u = 0; u < d; u++)
        v[u] = w[K - u]; /* u starts at J: all query bits clear */

    /* One throw: u -> u - 1 with probability u/B. key_m = T^k. */
    memset(base, 0, d * d * sizeof *base);
    for (size_t u = 0; u < d; u++) {
        base[u * d + u] = (B - (double)u) / B;
        if (u > 0)
            base[(u - 1) * d + u] = (double)u / B;
    }
    tri_pow(key_m, base, k, d, tmp);

    /* step_m = key_m^step; v = key_m^lo v. */
    if (more) {
        memcpy(base, key_m, d * d * sizeof *base);
        tri_pow(step_m, base, L->step, d, tmp);
        c->step_m = step_m;
    }
    memcpy(base, key_m, d * d * sizeof *base);
    tri_pow_apply(v, base, L->lo, d, tmp);
    c->v = v;
}

/*
 * E over blocks of P(q uniform query positions all set) when each key makes
 * k uniform throws into its block. q = k is the false-positive rate; q = 2k
 * is the mean of its square, which gives the spread between filters.
 */
double sbfi_blocked_moment(uint64_t n, uint64_t m, uint32_t k, uint64_t q,
                           uint32_t block_bits, double *cross, int *all_one)
{
    if (cross != NULL)
        *cross = 0.0;
    if (all_one != NULL)
        *all_one = 0;
    if (m == 0 || k == 0 || q == 0 || block_bits == 0 || m < block_bits)
        return NAN;
    if (n == 0)
        return 0.0;
    const uint32_t K = q < block_bits ? (uint32_t)q : block_bits;
    if (K > CHAIN_MAX_K)
        return NAN; /* (K+1)^3 work per squaring: refuse absurd sizes */
    const size_t d = (size_t)K + 1;
    const double B = (double)block_bits;

    sbfi_load_dist L;
    sbfi_load_binomial(&L, n, m / block_bits);
    blocked_ctx c = {NULL, NULL, d, 0, log(1e-17), log((double)K),
                     (double)k * log1p(-1.0 / B)};

    /*
     * The chain is only needed at the sampled loads below the first
     * saturated one (f = 1 there without it), and the work of building it
     * grows with k, lo and step: build only what those loads read. A load
     * saturates once i k (1/B) exceeds about 45, so large exponents never
     * reach the matrices.
     *  - lo saturated: every f is 1, no chain at all;
     *  - only load 0 unsaturated: f(0) = 0 exactly (some query bit is
     *    clear in an empty block), no chain either;
     *  - else v at lo, and step_m only when a second load needs it.
     */
    const int more = L.hi - L.lo >= L.step && !blocked_saturated(&c, L.lo + L.step);
    double zero = 0.0;
    if (blocked_saturated(&c, L.lo) || (L.lo == 0 && !more)) {
        if (all_one != NULL) /* f = 1 at every load */
            *all_one = blocked_saturated(&c, L.lo);
        c.v = &zero; /* read only at load 0, where it is exact */
        return sbfi_mixture_x(&L, blocked_f, &c, cross);
    }

    if (chain_work(&c, &L, k, q, more) > CHAIN_BUDGET)
        return NAN;

    /* The layouts' k <= 16 (32 for the second moment) fit on the stack:
     * sizing never allocates. */
    double local[4 * 33 * 33 + 2 * 33];
    const size_t need = 4 * d * d + 2 * d;
    double *mem = need <= sizeof local / sizeof *local ? local
                                                       : malloc(need * sizeof *mem);
    if (mem == NULL)
        return NAN;
    chain_build(&c, &L, k, q, block_bits, more, mem);
    const double r = sbfi_mixture_x(&L, blocked_f, &c, cross);
    sbfi_fpr_count.madds += c.applied * apply_madds(d);
    if (mem != local)
        free(mem);
    return r;
}

