/*
 * The sections of the harness (bench.h, "sections"): what each measures
 * and what it adds to the text, REPORT.md, the JSON file and the plots.
 * SBFB_SECTIONS (bench.h) gives the order; this file defines the existing
 * sections, the registry, --suite names and the run plan.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <string.h>

/* The headline: batched contains per layout and size beside the roofline
 * and libbloom, and per ISA; output only (the throughput suite fills it). */
const sbfb_section sbfb_sec_headline = {
    .name = "headline", .suite = 0, .run = NULL,
    .text = sbfb_text_headline, .markdown = sbfb_md_headline,
};

const sbfb_section sbfb_sec_hash = {
    .name = "hash", .suite = SBFB_S_HASH, .run = sbfb_run_hash,
    .text = sbfb_text_hash, .markdown = sbfb_md_hash, .json = sbfb_json_hash,
};

/* Its table holds libbloom's rows too: both set simdbloom against a peer. */
const sbfb_section sbfb_sec_roofline = {
    .name = "roofline", .suite = SBFB_S_ROOF, .run = sbfb_run_roofline,
    .text = sbfb_text_peer, .markdown = sbfb_md_peer, .json = sbfb_json_roofline,
};

const sbfb_section sbfb_sec_tput = {
    .name = "tput", .suite = SBFB_S_TPUT, .run = sbfb_run_filters,
    .text = sbfb_text_tput, .markdown = sbfb_md_tput, .json = sbfb_json_tput,
    .plot = sbfb_plot_tput, .gnuplot = "throughput",
};

const sbfb_section sbfb_sec_libbloom = {
    .name = "libbloom", .suite = SBFB_S_LIBBLOOM, .run = sbfb_run_libbloom,
    .json = sbfb_json_peer,
};

/* Shares the filled filters of the throughput suite (one run of both). */
const sbfb_section sbfb_sec_latency = {
    .name = "latency", .suite = SBFB_S_LAT, .run = sbfb_run_filters,
    .text = sbfb_text_lat, .markdown = sbfb_md_lat, .json = sbfb_json_lat,
    .plot = sbfb_plot_lat, .gnuplot = "latency",
};

const sbfb_section sbfb_sec_fpr = {
    .name = "fpr", .suite = SBFB_S_FPR, .run = sbfb_run_fpr,
    .text = sbfb_text_fpr, .markdown = sbfb_md_fpr, .json = sbfb_json_fpr,
    .plot = sbfb_plot_fpr, .gnuplot = "fpr",
};

#define SBFB_SECTION_ENTRY(name) &sbfb_sec_##name,
const sbfb_section *const sbfb_sections[] = { SBFB_SECTIONS(SBFB_SECTION_ENTRY) NULL };
#undef SBFB_SECTION_ENTRY

_Static_assert(sizeof sbfb_sections / sizeof sbfb_sections[0] <= SBFB_MAX_SECTIONS + 1,
               "raise SBFB_MAX_SECTIONS");

unsigned sbfb_suite_bit(const char *name)
{
    if (strcmp(name, "all") == 0)
        return SBFB_S_ALL;
    for (int i = 0; sbfb_sections[i]; i++)
        if (sbfb_sections[i]->suite && strcmp(sbfb_sections[i]->name, name) == 0)
            return sbfb_sections[i]->suite;
    return 0;
}

void sbfb_run_sections(const sbfb_opts *o, sbfb_results *r)
{
    void (*done[SBFB_MAX_SECTIONS])(const sbfb_opts *, sbfb_results *);
    int ndone = 0;
    (void)sbfb_clock_get();   /* frequency, granularity, overhead: at start-up */
    for (int i = 0; sbfb_sections[i]; i++) {
        const sbfb_section *s = sbfb_sections[i];
        if (!s->run || !(o->suites & s->suite))
            continue;
        int ran = 0;
        for (int d = 0; d < ndone; d++)
            ran |= done[d] == s->run;
        if (ran)
            continue;
        done[ndone++] = s->run;
        s->run(o, r);
    }
}
