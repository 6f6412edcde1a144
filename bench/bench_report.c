/*
 * The report: REPORT.md (Markdown) and the text tables on stdout. Each
 * section's part is a function here (heading, prose, its tables from
 * bench_table.c); the drivers at the end write the header, then every
 * section's part in the order of SBFB_SECTIONS.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ header */

void sbfb_print_header(FILE *out, const sbfb_opts *o, const sbfb_machine *m, int md)
{
    char isas[128] = "";
    for (int i = 0; i < o->nisa; i++) {
        strncat(isas, sbf_isa_name(o->isas[i]), sizeof isas - strlen(isas) - 2);
        strncat(isas, " ", sizeof isas - strlen(isas) - 1);
    }
    const char *dash = md ? "- " : "  ";
    char cache[3][24];
    const size_t sizes[3] = { m->l1d, m->l2, m->l3 };
    for (int i = 0; i < 3; i++) {
        if (sizes[i])
            snprintf(cache[i], sizeof cache[i], "%zu KiB", sizes[i] >> 10);
        else
            snprintf(cache[i], sizeof cache[i], "unknown");
    }
    fprintf(out, "%shost %s, %s, %d CPUs (L1d %s, L2 %s, L3 %s%s)\n", dash, m->host, m->cpu,
            m->cpus, cache[0], cache[1], cache[2],
            m->cache_from_cpuid ? "; no cache sizes in sysfs: L1d and L2 from CPUID" : "");
    fprintf(out, "%s%s; transparent huge pages: %s\n", dash, m->kernel, m->thp);
    fprintf(out, "%scompiler %s, CFLAGS %s; simdbloom %s, commit %s\n", dash, m->compiler,
            o->cflags ? o->cflags : "?", sbf_version_string(), o->commit ? o->commit : "?");
    fprintf(out, "%sISAs measured: %s(default: %s)\n", dash, isas,
            sbf_isa_name(sbf_isa_active()));
    const sbfb_clock *c = sbfb_clock_get();
    fprintf(out, "%stimer %s at %.3f GHz (measured); granularity %llu ticks = %.2f ns (smallest "
                 "usual step of back-to-back reads); a timed region costs %llu ticks = %.2f ns "
                 "(median of empty ones; min %llu)\n", dash, sbfb_timer_name(), c->hz * 1e-9,
            (unsigned long long)c->gran_ticks, (double)c->gran_ticks * c->tick_ns,
            (unsigned long long)c->ovh_ticks, (double)c->ovh_ticks * c->tick_ns,
            (unsigned long long)c->ovh_min_ticks);
    fprintf(out, "%s%s run, %s\n", dash, o->quick ? "quick" : "full", m->date);
}

/* ---------------------------------------------------------- REPORT.md */

/* REPORT.md is written in three passes over the sections, so that a reader
 * meets the answers first: the summary (headline tables and plots), then the
 * method of each section, then the raw tables. Each markdown callback writes
 * its part of the pass sbfb_md_part names. */
int sbfb_md_part = SBFB_MD_TABLES;

/* REPORT.md: the headline tables and the throughput plots. */
void sbfb_md_headline(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->ntput || sbfb_md_part != SBFB_MD_SUMMARY)
        return;
    fprintf(f, "\n### Batched throughput\n\n");
    sbfb_table_headline(f, o, r, 1);
    sbfb_table_isa_summary(f, o, r, 1, SBF_BLOCKED);
    sbfb_table_isa_summary(f, o, r, 1, SBF_SPLIT_BLOCK);
    fprintf(f, "\n![throughput, contains](throughput.png)\n\n"
               "![throughput, add](throughput_add.png)\n");
}

/* REPORT.md: the batched hash. */
void sbfb_md_hash(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    if (!r->nhash || sbfb_md_part == SBFB_MD_SUMMARY)
        return;
    if (sbfb_md_part == SBFB_MD_METHOD) {
        fprintf(f, "\n### Batched hash alone\n\n`sbf_murmur3_x64_128_u64` on 4096 u64 keys "
                   "(L1-resident), ns/key.\n");
        return;
    }
    fprintf(f, "\n### Batched hash alone\n\n");
    sbfb_table_hash(f, r, 1);
}

/* REPORT.md: the roofline and libbloom table. */
void sbfb_md_peer(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!(r->nroof || r->npeer) || sbfb_md_part == SBFB_MD_SUMMARY)
        return;
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(f, "\n### Memory roofline and libbloom\n\n");
        sbfb_table_peer(f, o, r, 1);
        return;
    }
    fprintf(f, "\n### Memory roofline and libbloom\n\nThe roofline loop reads one random "
               "64-byte line per key from an array of the filter's size (2 MiB aligned, "
               "huge pages advised), no hash and no mask: a sliding window prefetches the "
               "line of key i + d while key i's line is read, and the roofline is the "
               "best over d = 8, 16, 32, 64, 128 (the winner is in bench.json). libbloom (Debian libbloom-dev, "
               "murmur2, k bits anywhere) has no batch call; it is compared with "
               "simdbloom's blocked layout called one key at a time, same keys, same "
               "bits per key. ratio = libbloom / simdbloom (above 1: simdbloom faster).\n");
}

/* REPORT.md: the throughput tables. */
void sbfb_md_tput(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->ntput || sbfb_md_part == SBFB_MD_SUMMARY)
        return;
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(f, "\n### Throughput\n");
        sbfb_table_tput(f, o, r, 1);
        return;
    }
    fprintf(f, "\n### Throughput\n\nns per key: the 10th percentile of short timed windows (about "
               "1 ms each, at least 16, %.2f s per row in all). Each window is timed by the "
               "wall clock and by the thread's CPU clock; a window whose wall time exceeds "
               "its CPU time by more than 2%% lost a time slice (preempted, or its vCPU "
               "stolen) and is left out, so a busy machine costs windows, not accuracy "
               "(bench.json: `windows`, `dropped`, `spread` = (p75 - p25) / p50 of the kept "
               "windows). Every page a timed window touches was written before timing. "
               "\"add fresh\": keys never added, into a filter cleared (untimed) whenever a "
               "pass reaches the design load; \"add present\": re-adds of keys the filter "
               "holds (`sbf_add` answers without storing). Each ISA's filter is a copy of one filled filter (sbf_union), so "
               "all probe identical bits. \"positive\": keys that were inserted; "
               "\"negative\": keys that were not. String keys are 8..64 random bytes, "
               "measured with the default kernels only (batches hash them in that ISA's "
               "lanes; `--suite lanes` compares every ISA's lanes with the scalar "
               "hash). \"/ roofline\": the default kernels' batched "
               "contains divided by the roofline loop run on that filter's own memory "
               "(`sbf_data`) with the same absent keys, right after it (so both see the "
               "same pages and the same machine); the other ISAs' ratios use the same "
               "denominator.\n", o->reps * o->min_time);
}

/* The grouping rule and the filters it applied to, in words. */
static void md_lat_method(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    const sbfb_clock *c = sbfb_clock_get();
    const double gran_ns = (double)c->gran_ticks * c->tick_ns;
    unsigned gmin = 0, gmax = 0;
    for (size_t i = 0; i < r->nlat; i++)
        if (r->lat[i].group > 1) {
            gmin = gmin && gmin < r->lat[i].group ? gmin : r->lat[i].group;
            gmax = gmax > r->lat[i].group ? gmax : r->lat[i].group;
        }
    fprintf(f, "\n### Latency\n\nTimer: %s at %.3f GHz (measured against CLOCK_MONOTONIC_RAW). "
               "It resolves %.2f ns: back-to-back reads step by %llu ticks; a timed region "
               "(fenced begin/end) costs %.2f ns, measured per filter (median of empty "
               "regions), subtracted from each sample and shown as \"overhead\".\n\n",
            sbfb_timer_name(), c->hz * 1e-9, gran_ns, (unsigned long long)c->gran_ticks,
            (double)c->ovh_ticks * c->tick_ns);
    fprintf(f, "A call shorter than 20 clock steps (%.0f ns) is not timed alone, since a "
               "histogram of it would be a staircase of %.1f ns steps: groups of G "
               "consecutive calls are timed, G chosen per row so that a group spans at least "
               "50 steps, and each sample is the group's time / G, a per-call mean that "
               "resolves %.2f ns / G. ", 20 * gran_ns, gran_ns, gran_ns);
    if (o->lat_group)
        fprintf(f, "This run forced G = %u (`--lat-group`). ", o->lat_group);
    else if (gmax)
        fprintf(f, "Here G is %u to %u. ", gmin, gmax);
    else
        fprintf(f, "No row needed it here. ");
    fprintf(f, "Filters larger than the L2 cache (%zu KiB) keep G = 1 (every call timed "
               "alone, however short): their tails are what those rows are for.\n\n"
               "**What a grouped tail means.** With G > 1, p99.9, p99.99 and max are "
               "percentiles of G-call means, not of single calls: one slow call (a miss, an "
               "interrupt) is diluted by G, and the grouped max is at least the single-call "
               "max / G. They say how often a run of G calls was slow, not how slow one call "
               "can be; single-call tails are in the G = 1 rows (the L3 and DRAM sizes). The "
               "grouped min, p50 and p90 are per-call costs to a fraction of a ns.\n\n",
            o->lat_group_max >> 10);
    fprintf(f, "\"timing\": **chain** rows compute the index of the next key from the previous "
               "answer (i += 1 + answer), so a call cannot start before the previous answer "
               "is known (except as far as the CPU predicts it): the latency a caller waits "
               "for one answer. **independent** rows call on consecutive keys as a hot loop "
               "does, so calls overlap in the CPU: the cost per call of a stream (with G = 1 the "
               "timer's fences keep calls apart, so both kinds measure the same). Batched rows "
               "time one `sbf_contains_u64` call of 256 keys, alternating batches of present "
               "and absent keys. Buckets are log-linear, 64 per power of two. The plots' x axes are "
               "logarithmic in every panel, each with its own range.\n");
}

/* REPORT.md: the latency tables, plots and ASCII histograms. */
void sbfb_md_lat(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->nlat || sbfb_md_part == SBFB_MD_SUMMARY)
        return;
    if (sbfb_md_part == SBFB_MD_METHOD) {
        md_lat_method(f, o, r);
        return;
    }
    fprintf(f, "\n### Latency\n\nns per call:\n\n");
    sbfb_table_lat(f, o, r, 1);
    fprintf(f, "\n![latency CDF, dependent chain](latency.png)\n\n"
               "![per-call time CDF, independent calls](latency_indep.png)\n\n"
               "![time per call, batches](latency_batch.png)\n\n");
    for (size_t i = 0; i < r->nlat; i++)
        if (r->lat[i].layout == SBF_BLOCKED && r->lat[i].batch == 1 &&
            r->lat[i].timing[0] == 'c') {
            fprintf(f, "```\n");
            sbfb_lat_print_hist(f, &r->lat[i]);
            fprintf(f, "```\n\n");
        }
}

/* The central 95% range [*lo, *hi] of a binomial(n, q) count: how many
 * rows chance alone puts outside a 95% interval. */
static void binom_range(int n, double q, int *lo, int *hi)
{
    double p = pow(1 - q, n), cdf = 0;
    *lo = -1;
    *hi = n;
    for (int k = 0; k <= n; k++) {
        cdf += p;
        if (*lo < 0 && cdf >= 0.025)
            *lo = k;
        if (cdf >= 0.975) {
            *hi = k;
            break;
        }
        p *= (double)(n - k) / (k + 1) * q / (1 - q);
    }
    if (*lo < 0)
        *lo = 0;
}

/* REPORT.md: the false-positive summary, method, table and plot. */
void sbfb_md_fpr(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->nfpr)
        return;
    int low = 0, marked = 0, marked_w = 0, n = (int)r->nfpr;
    double worst = 0, secs = 0, lo_ratio = 0, hi_ratio = 0;
    for (size_t i = 0; i < r->nfpr; i++) {
        const sbfb_fpr *e = &r->fpr[i];
        low += e->low_res;
        marked += e->outside;
        marked_w += e->outside_wilson;
        worst = e->wilson_rel > worst ? e->wilson_rel : worst;
        secs += e->seconds;
        const double q = e->exact > 0 ? e->measured / e->exact : 0;
        lo_ratio = i == 0 || q < lo_ratio ? q : lo_ratio;
        hi_ratio = i == 0 || q > hi_ratio ? q : hi_ratio;
    }
    int clo, chi;
    binom_range(n, 0.05, &clo, &chi);
    if (sbfb_md_part == SBFB_MD_SUMMARY) {
        fprintf(f, "\n### False-positive rate against the exact formulas\n\n%d rows (layouts x "
                   "bits per key): measured / exact between %.4f and %.4f. %d row%s marked * "
                   "(the exact formula outside the row's 95%% interval across filters); chance "
                   "alone marks about 5%% of rows, %.1f of %d, and between %d and %d in 95%% of "
                   "runs, so %s.\n\n![false-positive rate, measured / exact](fpr.png)\n",
                n, lo_ratio, hi_ratio, marked, marked == 1 ? " is" : "s are", 0.05 * n, n, clo,
                chi, marked <= chi ? "this many says nothing against the formulas"
                                   : "**more rows than chance predicts miss: look at them**");
        return;
    }
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(f, "\n### False-positive rate\n\n");
        sbfb_table_fpr(f, r, 1);
        return;
    }
    fprintf(f, "\n### False-positive rate\n\nFor each row, %d independent filters "
               "(`--fpr-filters`), each with n = %llu distinct keys, probed "
               "with distinct absent keys (batched contains); \"measured\" pools them. "
               "Bits/key counts memory; for the counting layout it counts 4-bit counters "
               "(memory is 4 times that). \"exact\" is `sbf_fpp_theory`, the layout's "
               "exact formula (classic: an upper bound on Guava's double hashing, "
               "doc/promises.md, equal to \"classic\" for large filters); \"putze\" is "
               "Putze, Sanders and Singler's blocked approximation (`sbf_fpp_putze`, "
               "block = the layout's block); \"classic\" is "
               "(1-e^(-kn/m))^k. The formulas give the expected rate over key sets, and "
               "each filter's own rate varies around it, so two 95%% intervals are shown: "
               "Wilson's, on the pooled probes (probe noise only), and the interval of the "
               "pooled rate across the filters (Student t on R - 1 degrees of freedom, the "
               "per-filter rates weighted by their probes as the pooled rate weights them; "
               "both noises). * marks an exact value "
               "outside the interval across filters, w one outside the Wilson interval. "
               "A 95%% interval misses the true value in 1 row of 20 by chance: with %d "
               "rows, about %.1f * (between %d and %d in 95%% of runs); here %d. The Wilson "
               "interval leaves out the filters' own spread, so w marks (%d here) can be more "
               "frequent than that. The plot shows measured / exact with the interval across "
               "filters divided by exact, and Putze's and the classic formula divided by exact "
               "(they leave the plot where they are far off).\n\n",
            o->fpr_filters, (unsigned long long)r->fpr[0].n,
            n, 0.05 * n, clo, chi, marked, marked_w);
    fprintf(f, "**Resolution.** Every row is given probes for at least 10^4 expected false "
               "positives (exact rate x probes, \"expected FP\"), which resolves its rate to "
               "about +-2%% (Wilson); beyond that, up to 10^6 within a time share of "
               "`--fpr-time` (%.0f s; 8, 10 and 16 bits/key count four times). A row that "
               "`--fpr-max-probes` (%.3g per row) stops short of 10^4 is marked ~ (low "
               "resolution): %d row%s here. \"+- Wilson / filters\" is each interval's "
               "half-width relative to the measured rate; the widest Wilson half-width here "
               "is %.2g%%. The table took %.0f s.\n",
            o->fpr_time, (double)o->fpr_max_probes, low, low == 1 ? "" : "s", worst * 100,
            secs);
}

/* ------------------------------------------------------------ stdout */

void sbfb_text_headline(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->ntput)
        return;
    sbfb_table_headline(f, o, r, 0);
    sbfb_table_isa_summary(f, o, r, 0, SBF_BLOCKED);
    sbfb_table_isa_summary(f, o, r, 0, SBF_SPLIT_BLOCK);
}

void sbfb_text_hash(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    sbfb_table_hash(f, r, 0);
}

void sbfb_text_peer(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_table_peer(f, o, r, 0);
}

void sbfb_text_tput(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    sbfb_table_tput(f, o, r, 0);
}

void sbfb_text_lat(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    if (!r->nlat)
        return;
    sbfb_table_lat(f, o, r, 0);
    fprintf(f, "\nLatency histograms (blocked layout):\n");
    for (size_t i = 0; i < r->nlat; i++)
        if (r->lat[i].layout == SBF_BLOCKED)
            sbfb_lat_print_hist(f, &r->lat[i]);
}

void sbfb_text_fpr(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    (void)o;
    sbfb_table_fpr(f, r, 0);
}

/* ------------------------------------------------------------- drivers */

void sbfb_print_tables(FILE *out, const sbfb_opts *o, const sbfb_results *r,
                       const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    sbfb_derive(rw);
    fprintf(out, "simdbloom benchmark\n");
    sbfb_print_header(out, o, m, 0);
    sbfb_disturb_print(out, &r->disturb, 0);
    for (int i = 0; sbfb_sections[i]; i++)
        if (sbfb_sections[i]->text)
            sbfb_sections[i]->text(out, o, r);
    fflush(out);
}

int sbfb_write_report(const char *dir, const sbfb_opts *o, const sbfb_results *r,
                      const sbfb_machine *m)
{
    sbfb_results *rw = (sbfb_results *)(uintptr_t)r;
    sbfb_derive(rw);
    sbfb_write_plot_data(dir, o, r);
    FILE *f = sbfb_open_in(dir, "REPORT.md");
    if (!f)
        return -1;
    fprintf(f, "# simdbloom benchmark report\n\n");
    fprintf(f, "Written by `build/sbf-bench` (`make bench`); do not edit by hand. "
               "Raw numbers: [bench.json](bench.json) (schema in bench/README.md). "
               "The summary comes first, then the machine and the method of each part, "
               "then the raw tables.\n\n");
    sbfb_print_header(f, o, m, 1);
    fprintf(f, "- wall time of the run: %.0f s\n", r->seconds);
    sbfb_disturb_print(f, &r->disturb, 1);
    static const char *const parts[3] = { "Summary", "Method", "Raw tables" };
    for (int part = SBFB_MD_SUMMARY; part <= SBFB_MD_TABLES; part++) {
        sbfb_md_part = part;
        fprintf(f, "\n## %s\n", parts[part]);
        for (int i = 0; sbfb_sections[i]; i++)
            if (sbfb_sections[i]->markdown)
                sbfb_sections[i]->markdown(f, o, r);
    }
    sbfb_md_part = SBFB_MD_TABLES;
    fclose(f);
    return 0;
}
