/*
 * Measures real classic filters against their bound (doc/promises.md, the
 * over-hashed sweep): `build/classic-sim M K N SETS PROBES [SEED]` builds
 * SETS classic filters of M bits and K hashes (sbf_create with bits and k
 * given), each holding N uniform u64 keys of its own, probes each with
 * PROBES more (absent: 64-bit random, never a key), and prints the mean of
 * the per-filter rates, its standard error across the filters, the bound
 * (sbf_fpp_layout) and the textbook formula. Two threads; not in `make test`.
 */
#include "simdbloom.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BATCH 4096
#define THREADS 2

static uint64_t g_m, g_n, g_probes, g_seed;
static uint32_t g_k;
static int g_sets;
static double *g_rate;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void *run(void *arg)
{
    const long t = (long)arg;
    uint64_t buf[BATCH];
    for (int s = (int)t; s < g_sets; s += THREADS) {
        uint64_t st = g_seed * 1000003 + (uint64_t)s;
        sbf_params p = {0};
        p.layout = SBF_CLASSIC;
        p.bits = g_m;
        p.k = g_k;
        p.expected_n = g_n;
        sbf_filter *f;
        const int rc = sbf_create(&f, &p);
        if (rc != SBF_OK) {
            fprintf(stderr, "classic-sim: %s\n", sbf_strerror(rc));
            exit(1);
        }
        for (uint64_t i = 0; i < g_n; i += BATCH) {
            const size_t len = g_n - i < BATCH ? (size_t)(g_n - i) : BATCH;
            for (size_t j = 0; j < len; j++)
                buf[j] = splitmix(&st);
            sbf_add_u64(f, buf, len);
        }
        uint64_t x = 0;
        for (uint64_t d = 0; d < g_probes; d += BATCH) {
            const size_t len = g_probes - d < BATCH ? (size_t)(g_probes - d) : BATCH;
            for (size_t j = 0; j < len; j++)
                buf[j] = splitmix(&st);
            x += (uint64_t)sbf_contains_u64(f, buf, len, NULL);
        }
        g_rate[s] = (double)x / (double)g_probes;
        sbf_free(f);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: classic-sim M K N SETS PROBES [SEED]\n");
        return 2;
    }
    g_m = strtoull(argv[1], NULL, 0);
    g_k = (uint32_t)strtoul(argv[2], NULL, 0);
    g_n = strtoull(argv[3], NULL, 0);
    g_sets = atoi(argv[4]);
    g_probes = (uint64_t)atof(argv[5]);
    g_seed = argc > 6 ? strtoull(argv[6], NULL, 0) : 1;
    if (g_m == 0 || g_m % 64 != 0 || g_k == 0 || g_n == 0 || g_sets < 2 || g_probes == 0) {
        fprintf(stderr, "classic-sim: M a multiple of 64, K, N, PROBES >= 1, SETS >= 2\n");
        return 2;
    }
    g_rate = calloc((size_t)g_sets, sizeof *g_rate);
    if (g_rate == NULL)
        return 1;
    pthread_t th[THREADS];
    int started[THREADS] = {0};
    for (long t = 1; t < THREADS; t++)
        started[t] = pthread_create(&th[t], NULL, run, (void *)t) == 0;
    run((void *)0);
    for (long t = 1; t < THREADS; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            run((void *)t);
    }
    double mu = 0, var = 0;
    for (int i = 0; i < g_sets; i++)
        mu += g_rate[i];
    mu /= g_sets;
    for (int i = 0; i < g_sets; i++)
        var += (g_rate[i] - mu) * (g_rate[i] - mu);
    const double se = sqrt(var / (g_sets - 1) / g_sets);
    const double b = sbf_fpp_layout(SBF_CLASSIC, g_n, g_m, g_k);
    printf("m=%llu k=%u n=%llu sets=%d probes=%llu measured=%.7g se=%.3g bound=%.7g "
           "measured/bound=%.5f z=%.2f textbook=%.7g\n",
           (unsigned long long)g_m, g_k, (unsigned long long)g_n, g_sets,
           (unsigned long long)g_probes, mu, se, b, mu / b, (mu - b) / se,
           sbf_fpp_classic(g_n, g_m, g_k));
    free(g_rate);
    return 0;
}
