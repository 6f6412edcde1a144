#define _POSIX_C_SOURCE 200809L
/*
 * make bench-scalable: a growing filter (sbf_scalable) fed 10^3 .. N keys
 * (default 10^8) keeps its measured false-positive rate under the asked
 * one at every size. At each power of ten it probes P absent keys (default
 * 10^7) and prints the measured rate, its 99.9% Wilson interval, the
 * filter's own exact bound (1 - prod(1 - f_i) over its sub-filters' exact
 * formulas: sbf_scalable_fpp) and the asked rate; a row whose interval lies
 * wholly above the asked rate, or above the bound by more than the
 * sub-filters' spread, is marked FAIL and the exit status is 1.
 *
 * Not in CI (10^8 keys: about 1 GB and a few minutes).
 *   sbf-bench-scalable [--keys N] [--probes P] [--fpp a,b] [--layout NAME]
 *                      [--schedule geometric|shared|both] [--seed S]
 *                      [--rule spread|formula|both]
 * --rule: sub-filters sized with their spread budgeted (the default) or by
 * the formula alone (SBF_SCALABLE_FORMULA, format 3's rule); bits/key is
 * the memory each costs.
 * One filter per row set: its measured rate is that filter's (its bits as
 * they fell), which spreads around the formula by the sub-filters' spread;
 * --seed draws another filter from the same keys.
 */
#include <simdbloom.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Distinct keys: a bijection of the index (SplitMix64's finaliser), added
 * keys from index 0 up, absent ones from 2^62 up. */
static uint64_t key(uint64_t i)
{
    uint64_t z = i + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void wilson(double k, double n, double z, double *lo, double *hi)
{
    const double p = k / n, d = 1 + z * z / n;
    const double c = p + z * z / (2 * n), r = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n));
    *lo = (c - r) / d;
    *hi = (c + r) / d;
}

static uint32_t g_seed;

static int run(int layout, double fpp, int schedule, uint32_t flags, uint64_t nkeys,
               uint64_t probes)
{
    sbf_scalable_params p = { 0 };
    p.seed = g_seed;
    p.layout = layout;
    p.fpp = fpp;
    p.initial_n = 1000;
    p.schedule = schedule;
    p.flags = flags;
    sbf_scalable *s;
    int rc = sbf_scalable_create(&s, &p);
    if (rc != SBF_OK) {
        fprintf(stderr, "create: %s\n", sbf_strerror(rc));
        return 1;
    }
    printf("\n%s, fpp %g, %s schedule, %s, initial 1000, growth 2, seed %u\n",
           sbf_layout_name(layout), fpp,
           schedule == SBF_SCHEDULE_SHARED ? "shared (1/((i+1)(i+2)))" : "geometric (Almeida, r=0.5)",
           flags & SBF_SCALABLE_FORMULA ? "formula rule" : "spread rule", g_seed);
    printf("%12s %4s %10s %8s %12s %9s %22s %10s %8s %6s %7s %7s\n", "keys", "subs", "MiB",
           "bits/key",
           "false pos", "measured", "99.9% interval", "bound", "asked", "verdict", "add s",
           "probe s");
    static uint64_t buf[BATCH];
    uint64_t added = 0;
    int failed = 0;
    double t_add = 0;
    for (uint64_t next = 1000; next <= nkeys; next *= 10) {
        double t0 = now();
        while (added < next) {
            const size_t m = next - added < BATCH ? (size_t)(next - added) : BATCH;
            for (size_t i = 0; i < m; i++)
                buf[i] = key(added + i);
            const size_t r = sbf_scalable_add_u64(s, buf, m, NULL);
            if (sbf_is_error(r)) {
                fprintf(stderr, "add: %s\n", sbf_strerror(-(int)(SIZE_MAX - r) - 1));
                sbf_scalable_free(s);
                return 1;
            }
            added += m;
        }
        t_add += now() - t0;
        t0 = now();
        uint64_t fp = 0;
        for (uint64_t at = 0; at < probes; at += BATCH) {
            const size_t m = probes - at < BATCH ? (size_t)(probes - at) : BATCH;
            for (size_t i = 0; i < m; i++)
                buf[i] = key((UINT64_C(1) << 62) + at + i);
            fp += sbf_scalable_contains_u64(s, buf, m, NULL);
        }
        const double t_probe = now() - t0;
        struct sbf_scalable_info in;
        sbf_scalable_info(s, &in);
        /* the bound's spread: the sub-filters' own (per-filter variance) */
        double var = 0;
        for (uint32_t i = 0; i < in.filters; i++) {
            struct sbf_info fi;
            sbf_info(sbf_scalable_filter(s, i), &fi);
            const double sp = fi.keys_added ? sbf_fpp_spread(layout, fi.keys_added, fi.bits, fi.k)
                                            : 0;
            if (sp == sp)
                var += sp * sp;
        }
        double lo, hi;
        wilson((double)fp, (double)probes, 3.29, &lo, &hi);
        const double rate = (double)fp / (double)probes;
        const int over_asked = lo > fpp, over_bound = lo > in.fpp_bound + 3.29 * sqrt(var);
        const char *verdict = over_asked || over_bound ? "FAIL" : "ok";
        failed |= over_asked || over_bound;
        printf("%12llu %4u %10.1f %8.2f %12llu %9.6f [%9.6f, %9.6f] %10.6f %8g %6s %7.2f %7.2f\n",
               (unsigned long long)added, in.filters, (double)in.bytes / 1048576.0,
               (double)in.bits / (double)added,
               (unsigned long long)fp, rate, lo, hi, in.fpp_bound, fpp, verdict, t_add, t_probe);
        fflush(stdout);
    }
    sbf_scalable_free(s);
    return failed;
}

int main(int argc, char **argv)
{
    uint64_t nkeys = 100000000, probes = 10000000;
    const char *fpps = "0.01,0.001", *sched = "both", *rule = "spread";
    int layout = SBF_BLOCKED;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--keys"))
            nkeys = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--probes"))
            probes = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--fpp"))
            fpps = argv[i + 1];
        else if (!strcmp(argv[i], "--seed"))
            g_seed = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--schedule"))
            sched = argv[i + 1];
        else if (!strcmp(argv[i], "--rule"))
            rule = argv[i + 1];
        else if (!strcmp(argv[i], "--layout") && (layout = sbf_layout_from_name(argv[i + 1])) < 0) {
            fprintf(stderr, "unknown layout %s\n", argv[i + 1]);
            return 2;
        } else if (strcmp(argv[i], "--layout")) {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    printf("sbf-bench-scalable: %llu keys, %llu absent probes per size, ISA %s\n",
           (unsigned long long)nkeys, (unsigned long long)probes, sbf_isa_name(sbf_isa_active()));
    int failed = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", fpps);
    for (char *tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
        const double fpp = atof(tok);
        for (int r = 0; r < 2; r++) {
            if (strcmp(rule, "both") != 0 && strcmp(rule, r ? "formula" : "spread") != 0)
                continue;
            const uint32_t fl = r ? SBF_SCALABLE_FORMULA : 0;
            if (strcmp(sched, "shared") != 0)
                failed |= run(layout, fpp, SBF_SCHEDULE_GEOMETRIC, fl, nkeys, probes);
            if (strcmp(sched, "geometric") != 0)
                failed |= run(layout, fpp, SBF_SCHEDULE_SHARED, fl, nkeys, probes);
        }
    }
    printf("\n%s\n", failed ? "FAIL: a measured rate above the asked one or the bound"
                            : "every size under the asked rate and within the bound");
    return failed;
}
