/*
 * False-positive rate against the mathematics. For each layout and bits per
 * key: R independent filters, each with n distinct keys inserted, probed with
 * distinct keys that were never inserted (batched contains, default
 * kernels). The pooled rate is set beside the classic formula, Putze's
 * approximation and the layout's exact formula (sbf_fpp_theory).
 *
 * Why several filters: the formulas give the EXPECTED rate over random key
 * sets, while one filter has its own rate, which varies around it (a blocked
 * filter of 10^6 keys at 10 bits/key by about 0.7% from one key set to the
 * next: the block loads differ). A Wilson interval counts only the probes'
 * sampling noise, so on one filter with 10^8 probes it would be narrower than
 * that variation and flag a correct formula. Two intervals are reported:
 * the 95% Wilson interval of the pooled probes, and the 95% interval of the
 * mean across the R filters (Student t on the per-filter rates), which holds
 * both sources of noise; the mark is made against the latter.
 *
 * Probes: enough for ~1e6 expected false positives in all, capped by a time
 * share: 8, 10 and 16 bits/key (the table) get four shares and 16
 * filters, the others one share and 8 filters.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define CHUNK ((size_t)1 << 16)
#define PROBE_BASE (UINT64_C(1) << 61)
#define TARGET_FP 1e6
#define MIN_PROBES ((uint64_t)1 << 22)

static void wilson(uint64_t x, uint64_t n, double *lo, double *hi)
{
    const double z = 1.959963984540054, N = (double)n, p = (double)x / N;
    const double z2 = z * z, den = 1 + z2 / N;
    const double c = (p + z2 / (2 * N)) / den;
    const double h = z / den * sqrt(p * (1 - p) / N + z2 / (4 * N * N));
    *lo = c - h < 0 ? 0 : c - h;
    *hi = c + h > 1 ? 1 : c + h;
}

/* Two-sided 95% Student t quantile for df degrees of freedom. */
static double t975(int df)
{
    static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                2.120, 2.110, 2.101, 2.093, 2.086 };
    if (df < 1)
        return INFINITY;
    return df <= 20 ? t[df] : 1.96 + 2.4 / df;
}

static int weight(int b) { return b == 8 || b == 10 || b == 16 ? 4 : 1; }

void sbfb_run_fpr(const sbfb_opts *o, sbfb_results *r)
{
    sbf_isa_set(SBF_ISA_AUTO);
    int nl = 0, wsum = 0;
    for (int l = 0; l < SBFB_NLAYOUTS; l++)
        nl += (o->layouts >> l) & 1;
    for (int b = o->fpr_lo; b <= o->fpr_hi; b++)
        wsum += weight(b);
    if (nl == 0 || wsum == 0)
        return;
    const double share = o->fpr_time / (double)(nl * wsum);
    uint64_t *keys = sbfb_xmalloc(CHUNK * sizeof *keys);
    const uint64_t n = o->fpr_n;
    for (int layout = 0; layout < SBFB_NLAYOUTS; layout++) {
        if (!(o->layouts & (1u << layout)))
            continue;
        for (int b = o->fpr_lo; b <= o->fpr_hi; b++) {
            /* bits/key counts memory; counting: counters per key */
            const uint64_t bits = (uint64_t)b * n * (layout == SBF_COUNTING ? 4 : 1);
            const int R = (weight(b) > 1 ? 16 : 8) / (o->quick ? 2 : 1);
            const double budget = share * weight(b);
            sbfb_fpr *e = NULL;
            double rates[16], exact = NAN;
            int nr = 0;
            uint64_t want = 0, fp = 0, done = 0;
            const double t0 = sbfb_now();
            for (int inst = 0; inst < R; inst++) {
                sbf_params p = {0};
                p.layout = layout;
                p.expected_n = n;
                p.fpp = 0.01;
                p.bits = bits;
                sbf_filter *f;
                const int rc = sbf_create(&f, &p);
                if (rc != SBF_OK) {
                    sbfb_note("fpr %s %d bits/key: %s", sbfb_layout_name(layout), b,
                              sbf_strerror(rc));
                    break;
                }
                /* an independent key set per filter, and probes of its own */
                const uint64_t seed = sbfb_mix(o->seed ^ (uint64_t)(b * 131 + layout * 7919) ^
                                               ((uint64_t)inst << 40));
                for (uint64_t i = 0; i < n; i += CHUNK) {
                    const size_t len = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
                    sbfb_keys(seed, i, len, keys);
                    sbf_add_u64(f, keys, len);
                }
                if (inst == 0) {
                    struct sbf_info info;
                    sbf_info(f, &info);
                    exact = sbf_fpp_theory(f, n);
                    want = exact > 0 ? (uint64_t)fmin(TARGET_FP / exact, 1e15)
                                     : o->fpr_max_probes;
                    if (want < MIN_PROBES)
                        want = MIN_PROBES;
                    if (want > o->fpr_max_probes)
                        want = o->fpr_max_probes;
                    sbfb_progress("fpr %s %d bits/key (k=%u): %d filters, up to %.3g probes",
                                  sbfb_layout_name(layout), b, info.k, R, (double)want);
                    e = sbfb_add_fpr(r);
                    e->layout = layout;
                    e->bits_per_key = b;
                    e->bits = info.bits;
                    e->k = info.k;
                    e->n = n;
                    const double cells = layout == SBF_COUNTING ? (double)info.bits / 4
                                                                : (double)info.bits;
                    e->classic = sbf_fpp_classic(n, (uint64_t)cells, info.k);
                    switch (layout) {
                    case SBF_CLASSIC: e->putze = NAN; break;
                    case SBF_COUNTING:
                        e->putze = sbf_fpp_putze(n, (uint64_t)cells, info.k, 128);
                        break;
                    default:
                        e->putze = sbf_fpp_putze(n, info.bits, info.k, info.block_bits);
                        break;
                    }
                    e->exact = exact;
                }
                /* this filter's share of the probes and of the time */
                const uint64_t mine = want / (uint64_t)R + 1;
                const double tend = t0 + budget * (inst + 1) / R;
                uint64_t d = 0, x = 0;
                while (d < mine) {
                    const size_t len = mine - d < CHUNK ? (size_t)(mine - d) : CHUNK;
                    sbfb_keys(seed, PROBE_BASE + d, len, keys);
                    x += sbf_contains_u64(f, keys, len, NULL);
                    d += len;
                    if (d >= MIN_PROBES / (uint64_t)R && (d & ((1u << 20) - 1)) == 0 &&
                        sbfb_now() > tend)
                        break;
                }
                rates[nr++] = (double)x / (double)d;
                fp += x;
                done += d;
                sbf_free(f);
            }
            if (e == NULL || nr == 0)
                continue;
            e->filters = nr;
            e->probes = done;
            e->fp = fp;
            e->measured = (double)fp / (double)done;
            wilson(fp, done, &e->lo, &e->hi);
            double mean = 0, var = 0;
            for (int i = 0; i < nr; i++)
                mean += rates[i];
            mean /= nr;
            for (int i = 0; i < nr; i++)
                var += (rates[i] - mean) * (rates[i] - mean);
            var = nr > 1 ? var / (nr - 1) : INFINITY;
            const double h = t975(nr - 1) * sqrt(var / nr);
            e->flo = e->measured - h < 0 ? 0 : e->measured - h;
            e->fhi = e->measured + h;
            e->outside = !(exact >= e->flo && exact <= e->fhi);
            e->outside_wilson = !(exact >= e->lo && exact <= e->hi);
        }
    }
    free(keys);
}
