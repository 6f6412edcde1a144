/*
 * sbf-bench: options and the run plan. See bench/README.md.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(SBFB_CFLAGS)
#  define SBFB_CFLAGS "?"
#endif

static void usage(FILE *out)
{
    fputs(
"usage: sbf-bench [options]\n"
"\n"
"Measures simdbloom on this machine: throughput (add/contains, single and\n"
"batched, u64 and string keys) per layout, ISA and filter size; the batched\n"
"hash alone; a memory roofline loop; libbloom as a peer; latency histograms;\n"
"and the false-positive rate against the formulas. Tables go to stdout,\n"
"progress to stderr.\n"
"\n"
"  --quick              a short run (about a minute): fewer probes, shorter timings,\n"
"                       the DRAM size capped at 256 MiB\n"
"  --suite LIST         any of tput,hash,lanes,roofline,libbloom,latency,hot,fpr,keys\n"
"                       (default: all)\n"
"  --layout LIST        any of the layouts the library names: classic, blocked,\n"
"                       split-block, counting, ... (default: all)\n"
"  --isa LIST           any of scalar,simde,avx2,avx512,neon, or auto (the default\n"
"                       kernels only); default: every ISA available here\n"
"  --sizes LIST         filter sizes: L1,L2,L3,DRAM (chosen from this machine's caches)\n"
"                       or bytes with K/M/G, e.g. 32K,512K,32M,1G\n"
"  --bits-per-key X     load of the throughput filters (default 10; counting:\n"
"                       counters per key)\n"
"  --min-time S         a throughput row is timed for reps x S seconds in windows\n"
"                       of about 1 ms (default 0.05, quick 0.02)\n"
"  --reps N             see --min-time (default 3, quick 2)\n"
"  --fpr-bits A-B       bits per key for the FPR table (default 4-24)\n"
"  --fpr-n N            keys per FPR filter (default 1000000)\n"
"  --fpr-time S         seconds for FPR probes beyond each row's minimum of 10^4\n"
"                       expected false positives (default 60, quick 12)\n"
"  --fpr-max-probes N   cap per FPR row; a row it stops short of its minimum is\n"
"                       marked low-resolution (default 2e9, quick 2e7)\n"
"  --fpr-threads N      threads building and probing FPR filters (default: CPUs)\n"
"  --fpr-filters N      filters (key sets) per FPR row, 2..1024 (default 32, quick 8)\n"
"  --lat-samples N      timed samples per latency histogram (default 1000000)\n"
"  --lat-group auto|N   calls per latency sample: auto (the default) groups calls\n"
"                       shorter than 20 clock steps on filters within the L2\n"
"                       cache; N forces it (1: every call timed alone)\n"
"  --seed N             key generator seed (default 42)\n"
"  --json FILE          write every result as JSON (schema: bench/README.md)\n"
"  --outdir DIR         write bench.json, REPORT.md and plot data into DIR\n"
"  --commit ID          recorded in the output (scripts pass git's)\n"
"  --progress MODE      auto, line (redrawn), plain, none (default auto)\n"
"  --quiet              no tables on stdout\n"
"  --check-insn         bench-check: the fixed workload for callgrind\n"
"  --check-ratios       bench-check: ISA/scalar time ratios (writes --json)\n"
"  -h, --help           this text\n"
"\n"
"The environment variable SBF_ISA is read by the library; with it set, only\n"
"that ISA is available to --isa.\n", out);
}

static int parse_bytes(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || v <= 0)
        return -1;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1048576.0; end++; break;
    case 'g': case 'G': mul = 1073741824.0; end++; break;
    default: break;
    }
    if (*end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        return -1;
    *out = (size_t)(v * mul);
    return 0;
}

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x && p * 2 != 0)
        p *= 2;
    return p;
}

/* The machine's L1/L2/L3/DRAM sizes: a power of two well inside each level. */
static void level_sizes(const sbfb_machine *m, int quick, sbfb_size lv[4])
{
    const size_t l1 = m->l1d ? m->l1d : 32768, l2 = m->l2 ? m->l2 : 1 << 20;
    const size_t l3 = m->l3 ? m->l3 : 16 << 20;
    lv[0].bytes = pow2_floor(l1 * 3 / 4);
    lv[1].bytes = pow2_floor(l2 / 4);
    if (lv[1].bytes <= lv[0].bytes)
        lv[1].bytes = lv[0].bytes * 4;
    lv[2].bytes = pow2_floor(l3 / 4);
    if (lv[2].bytes > ((size_t)32 << 20))
        lv[2].bytes = (size_t)32 << 20;
    if (lv[2].bytes <= lv[1].bytes)
        lv[2].bytes = lv[1].bytes * 4;
    size_t dram = quick ? (size_t)256 << 20 : (size_t)1 << 30;
    /* A master filter, one ISA copy and the roofline array at once, plus slack. */
    if (m->mem_avail && dram > m->mem_avail / 4) {
        dram = pow2_floor(m->mem_avail / 4);
        sbfb_note("only %zu MiB of memory available: the DRAM size is %zu MiB, not 1 GiB",
                  m->mem_avail >> 20, dram >> 20);
    }
    lv[3].bytes = dram;
    snprintf(lv[0].label, sizeof lv[0].label, "L1");
    snprintf(lv[1].label, sizeof lv[1].label, "L2");
    snprintf(lv[2].label, sizeof lv[2].label, "L3");
    snprintf(lv[3].label, sizeof lv[3].label, "DRAM");
}

static char *next_item(char **s)
{
    char *p = *s;
    if (p == NULL || *p == '\0')
        return NULL;
    char *c = strchr(p, ',');
    if (c) {
        *c = '\0';
        *s = c + 1;
    } else {
        *s = p + strlen(p);
    }
    return p;
}

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "sbf-bench: %s: %s (see --help)\n", what, arg ? arg : "");
    exit(1);
}

/* What the command line gave beyond sbfb_opts. */
typedef struct cli {
    const char *isa_arg, *size_arg;
    int quiet;
} cli;

static int mkdir_p(const char *dir)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void set_defaults(sbfb_opts *o)
{
    memset(o, 0, sizeof *o);
    o->suites = SBFB_S_ALL;
    o->layouts = (1u << sbfb_nlayouts()) - 1;
    o->bits_per_key = 10;
    o->min_time = -1;
    o->reps = 3;
    o->fpr_lo = 4;
    o->fpr_hi = 24;
    o->fpr_n = 1000000;
    o->fpr_time = -1;
    o->fpr_max_probes = 0;
    o->lat_samples = 0;
    o->seed = 42;
    o->progress = -1;
    o->cflags = SBFB_CFLAGS;
}

/* What was left to depend on --quick and the terminal. */
static void finish_defaults(sbfb_opts *o)
{
    if (o->progress == -1)
        o->progress = isatty(2) ? 2 : 1;
    if (o->min_time < 0)
        o->min_time = o->quick ? 0.02 : 0.05;
    if (o->quick && o->reps == 3)
        o->reps = 2;
    if (o->fpr_time < 0)
        o->fpr_time = o->quick ? 12 : 60;
    if (o->fpr_max_probes == 0)
        o->fpr_max_probes = o->quick ? 20000000 : 2000000000;
    if (o->fpr_filters == 0)
        o->fpr_filters = o->quick ? 8 : 32;
    if (o->lat_samples == 0)
        o->lat_samples = o->quick ? 100000 : 1000000;
}

static unsigned layout_bit(const char *name)
{
    const int l = sbfb_layout_from_name(name);
    return l < 0 ? 0 : 1u << l;
}

/* A comma list of names, each mapped to bits by bit_of (0: unknown, which
 * stops the run with `what`); the union of the bits. */
static unsigned parse_bits(const char *v, unsigned (*bit_of)(const char *), const char *what)
{
    char buf[256], *s = buf, *it;
    snprintf(buf, sizeof buf, "%s", v);
    unsigned bits = 0;
    while ((it = next_item(&s))) {
        const unsigned bit = bit_of(it);
        if (bit == 0)
            die(what, it);
        bits |= bit;
    }
    return bits;
}

/* Option a is `name`, and has a value (else the run stops). */
static int needv(const char *a, const char *v)
{
    if (v == NULL)
        die("missing value for", a);
    return 1;
}
#define IS(name) (!strcmp(a, (name)) && needv(a, v))

/* The options of the FPR suite; 1 when a was one of them. */
static int parse_fpr_option(sbfb_opts *o, const char *a, const char *v)
{
    if (IS("--fpr-bits")) {
        if (sscanf(v, "%d-%d", &o->fpr_lo, &o->fpr_hi) != 2)
            o->fpr_lo = o->fpr_hi = atoi(v);
        if (o->fpr_lo < 1 || o->fpr_hi > 64 || o->fpr_lo > o->fpr_hi)
            die("bad --fpr-bits", v);
    } else if (IS("--fpr-n")) {
        o->fpr_n = (uint64_t)atof(v);
        if (o->fpr_n < 1000)
            die("--fpr-n must be at least 1000", v);
    } else if (IS("--fpr-time")) {
        o->fpr_time = atof(v);
    } else if (IS("--fpr-max-probes")) {
        o->fpr_max_probes = (uint64_t)atof(v);
    } else if (IS("--fpr-threads")) {
        o->fpr_threads = atoi(v);
        if (o->fpr_threads < 1 || o->fpr_threads > 8)
            die("--fpr-threads takes 1..8", v);
    } else if (IS("--fpr-filters")) {
        o->fpr_filters = atoi(v);
        if (o->fpr_filters < 2 || o->fpr_filters > 1024)
            die("--fpr-filters takes 2..1024", v);
    } else {
        return 0;
    }
    return 1;
}

/* Options that take a value (v, NULL when none follows); 1 when a was one
 * of them. */
static int parse_valued(sbfb_opts *o, cli *c, const char *a, const char *v)
{
    if (IS("--suite")) {
        o->suites = parse_bits(v, sbfb_suite_bit, "unknown suite");
    } else if (IS("--layout")) {
        o->layouts = parse_bits(v, layout_bit, "unknown layout");
    } else if (IS("--isa")) {
        c->isa_arg = v;
    } else if (IS("--sizes")) {
        c->size_arg = v;
    } else if (IS("--bits-per-key")) {
        o->bits_per_key = atof(v);
        if (!(o->bits_per_key >= 1 && o->bits_per_key <= 64))
            die("bits per key must be in 1..64", v);
    } else if (IS("--min-time")) {
        o->min_time = atof(v);
    } else if (IS("--reps")) {
        o->reps = atoi(v);
        if (o->reps < 1)
            die("bad --reps", v);
    } else if (parse_fpr_option(o, a, v)) {
        /* done */
    } else if (IS("--lat-samples")) {
        o->lat_samples = (uint64_t)atof(v);
    } else if (IS("--lat-group")) {
        o->lat_group = !strcmp(v, "auto") ? 0 : (unsigned)atoi(v);
        if (strcmp(v, "auto") != 0 && (o->lat_group < 1 || o->lat_group > 4096))
            die("--lat-group takes auto or 1..4096", v);
    } else if (IS("--seed")) {
        o->seed = strtoull(v, NULL, 0);
    } else if (IS("--json")) {
        o->json_path = v;
    } else if (IS("--outdir")) {
        o->outdir = v;
    } else if (IS("--commit")) {
        o->commit = v;
    } else if (IS("--progress")) {
        o->progress = !strcmp(v, "none") ? 0 : !strcmp(v, "plain") ? 1
                    : !strcmp(v, "line") ? 2 : !strcmp(v, "auto") ? -1 : -2;
        if (o->progress == -2)
            die("bad --progress", v);
    } else {
        return 0;
    }
    return 1;
}

#undef IS

static void parse_args(int argc, char **argv, sbfb_opts *o, cli *c)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--quiet")) {
            c->quiet = 1;
        } else if (!strcmp(a, "--check-insn")) {
            o->check = o->check_insn = 1;
        } else if (!strcmp(a, "--check-ratios")) {
            o->check = o->check_ratios = 1;
        } else if (parse_valued(o, c, a, i + 1 < argc ? argv[i + 1] : NULL)) {
            i++;
        } else {
            die("unknown option", a);
        }
    }
    finish_defaults(o);
}

/* ISAs: every available one (scalar first: the reference for speedups). */
static void pick_isas(sbfb_opts *o, const char *isa_arg)
{
    if (isa_arg == NULL || !strcmp(isa_arg, "all")) {
        o->nisa = sbfb_isas(o->isas, (int)(sizeof o->isas / sizeof o->isas[0]), 1);
        return;
    }
    char buf[256], *s = buf, *it;
    snprintf(buf, sizeof buf, "%s", isa_arg);
    while ((it = next_item(&s)) && o->nisa < SBFB_MAX_ISA) {
        int isa = sbf_isa_from_name(it);
        if (isa == SBF_ISA_AUTO) {
            sbf_isa_set(SBF_ISA_AUTO);
            isa = sbf_isa_active();
        }
        if (isa < 0)
            die("unknown ISA", it);
        if (!sbf_isa_available(isa)) {
            sbfb_note("ISA %s is not available here (skipped)", it);
            continue;
        }
        o->isas[o->nisa++] = isa;
    }
}

/* Sizes: the machine's four levels, or the list given (labels or bytes). */
static void pick_sizes(sbfb_opts *o, const sbfb_machine *m, const char *size_arg)
{
    sbfb_size lv[4];
    level_sizes(m, o->quick, lv);
    if (size_arg == NULL) {
        for (int i = 0; i < 4; i++)
            o->sizes[o->nsizes++] = lv[i];
        return;
    }
    char buf[256], *s = buf, *it;
    snprintf(buf, sizeof buf, "%s", size_arg);
    while ((it = next_item(&s)) && o->nsizes < SBFB_MAX_SIZES) {
        sbfb_size z;
        memset(&z, 0, sizeof z);
        int found = 0;
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(it, lv[i].label)) {
                z = lv[i];
                found = 1;
            }
        if (!found) {
            if (parse_bytes(it, &z.bytes) != 0 || z.bytes < 4096)
                die("bad size (at least 4K)", it);
            z.bytes = (z.bytes + 63) / 64 * 64;
            sbfb_fmt_bytes(z.bytes, z.label, sizeof z.label);
        }
        o->sizes[o->nsizes++] = z;
    }
}

/* bench.json, REPORT.md and the plot data into --outdir; --json FILE. */
static int write_outputs(const sbfb_opts *o, const sbfb_results *r, const sbfb_machine *m)
{
    if (o->outdir) {
        if (mkdir_p(o->outdir) != 0) {
            fprintf(stderr, "sbf-bench: cannot create %s\n", o->outdir);
            return 1;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/bench.json", o->outdir);
        if (sbfb_write_json(path, o, r, m) != 0 || sbfb_write_report(o->outdir, o, r, m) != 0) {
            fprintf(stderr, "sbf-bench: cannot write into %s\n", o->outdir);
            return 1;
        }
    }
    if (o->json_path && sbfb_write_json(o->json_path, o, r, m) != 0) {
        fprintf(stderr, "sbf-bench: cannot write %s\n", o->json_path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    sbfb_opts o;
    cli c = { NULL, NULL, 0 };
    set_defaults(&o);
    parse_args(argc, argv, &o, &c);
    pick_isas(&o, c.isa_arg);
    /* With SBF_ISA set, sbf_isa_active() fails if it names an unavailable ISA. */
    const int act = sbf_isa_active();
    if (act < 0 && !o.check_insn) {
        fprintf(stderr, "sbf-bench: SBF_ISA=%s: %s\n", getenv("SBF_ISA") ? getenv("SBF_ISA") : "",
                sbf_strerror(act));
        return 2;
    }
    sbfb_machine m;
    sbfb_machine_get(&m);
    pick_sizes(&o, &m, c.size_arg);
    o.lat_group_max = m.l2 ? m.l2 : (size_t)1 << 20;

    sbfb_results r;
    memset(&r, 0, sizeof r);
    const double t0 = sbfb_now();
    sbfb_disturb_start(&r.disturb);
    sbfb_progress_init(o.progress, 0);
    const int rc = o.check ? sbfb_run_check(&o, &r) : (sbfb_run_sections(&o, &r), 0);
    sbfb_progress_done();
    r.seconds = sbfb_now() - t0;
    sbfb_disturb_finish(&r.disturb, m.cpus);
    if (rc != 0)
        return rc;
    if (!c.quiet && !o.check)
        sbfb_print_tables(stdout, &o, &r, &m);
    if (write_outputs(&o, &r, &m) != 0)
        return 1;
    if (!o.check)
        sbfb_note("done in %.0f s", r.seconds);
    sbfb_results_free(&r);
    return 0;
}
