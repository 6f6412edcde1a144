/* sbf info: a filter's geometry, fill and estimates, as text or JSON. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const help_info =
    "usage: sbf info FILE [--json] [--verify]\n"
    "\n"
    "Layout, bits, bytes, k, seed, keys added, fill, estimated cardinality,\n"
    "theoretical false-positive rate now (at the keys added) and at the\n"
    "estimated cardinality, and the ISA in use. Keys added counts the adds\n"
    "that set a bit; it is \"unknown\" (JSON null) for a Guava file or import\n"
    "and after a union, and the rate now is then the one at the estimate.\n"
    "FILE may be our format or Guava's; ours is mapped read-only and its data\n"
    "checksum is not checked unless --verify (see sbf verify). The fill and\n"
    "what is estimated from it come from a 1 MiB sample of a bigger filter\n"
    "(\"sampled\"), so a big file is not read whole; --verify reads it all,\n"
    "and counts exactly.\n"
    "--json: one object; a file name that is not UTF-8 has its stray bytes\n"
    "replaced by U+FFFD in \"file\" and is given exactly, in hex, in \"file_hex\".\n";

static void print_json(const char *path, int fmt, const struct sbf_info *in, int sampled)
{
    printf("{\"file\": ");
    if (json_string(path)) {
        printf(", \"file_hex\": \"");
        for (const unsigned char *p = (const unsigned char *)path; *p; p++)
            printf("%02x", *p);
        putchar('"');
    }
    printf(", \"format\": \"%s\", \"layout\": \"%s\", \"bits\": %llu, \"bytes\": %zu, "
           "\"k\": %u, \"block_bits\": %u, \"seed\": %u, \"keys_added\": ",
           format_names[fmt], sbf_layout_name(in->layout), (unsigned long long)in->bits,
           in->bytes, in->k, in->block_bits, in->seed);
    if (in->keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
        printf("null, ");
    else
        printf("%llu, ", (unsigned long long)in->keys_added);
    printf("\"sampled\": %s, \"fill\": ", sampled ? "true" : "false");
    json_double(in->fill_ratio);
    printf(", \"est_cardinality\": ");
    json_double(in->est_cardinality);
    printf(", \"fpp_now\": ");
    json_double(in->fpp_now);
    printf(", \"fpp_at_estimate\": ");
    json_double(in->fpp_estimated);
    printf(", \"saturated\": %llu, \"isa\": \"%s\"}\n", (unsigned long long)in->saturated,
           sbf_isa_name(in->isa));
}

static void print_text(const char *path, int fmt, const struct sbf_info *in, int sampled)
{
    printf("file             %s\n", path);
    printf("format           %s\n", format_names[fmt]);
    printf("layout           %s\n", sbf_layout_name(in->layout));
    printf("bits             %llu\n", (unsigned long long)in->bits);
    printf("bytes            %zu\n", in->bytes);
    printf("k                %u\n", in->k);
    printf("block bits       %u\n", in->block_bits);
    printf("seed             %u\n", in->seed);
    if (in->keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
        printf("keys added       unknown\n");
    else
        printf("keys added       %llu\n", (unsigned long long)in->keys_added);
    printf("fill             %.6f%s\n", in->fill_ratio, sampled ? " (sampled)" : "");
    printf("est. cardinality %.0f\n", in->est_cardinality);
    printf("fpp now          %.6g\n", in->fpp_now);
    printf("fpp at estimate  %.6g\n", in->fpp_estimated);
    struct sbf_layout_info li;
    if (sbf_layout_info(in->layout, in->k, &li) == SBF_OK && li.cell_bits > 1) /* counters */
        printf("saturated        %llu\n", (unsigned long long)in->saturated);
    printf("isa              %s\n", sbf_isa_name(in->isa));
}

/* A growing filter (format version 3 or 4): the whole, then each sub-filter. */
static void print_scalable(const char *path, int json)
{
    const int version = scalable_file_version(path);
    sbf_scalable *s = open_scalable(path);
    struct sbf_scalable_info in;
    sbf_scalable_info(s, &in);
    sbf_scalable_params p;
    sbf_scalable_params_of(s, &p);
    const char *sched = p.schedule == SBF_SCHEDULE_SHARED ? "shared" : "geometric";
    const char *sizing = (p.flags & SBF_SCALABLE_FORMULA) ? "formula" : "formula+3sd";
    const int fixed = (p.flags & SBF_SCALABLE_NONSCALING) != 0;
    if (json) {
        printf("{\"file\": ");
        json_string(path);
        printf(", \"format\": \"sbf-v%d\", \"schedule\": \"%s\", \"sizing\": \"%s\", "
               "\"nonscaling\": %s,", version, sched, sizing, fixed ? "true" : "false");
        printf(" \"layout\": \"%s\", \"growing\": true, "
               "\"filters\": %u, \"keys\": %llu, \"capacity\": %llu, \"bits\": %llu, "
               "\"bytes\": %zu, \"seed\": %u, \"initial\": %llu, \"growth\": %u, "
               "\"tightening\": ", sbf_layout_name(in.layout), in.filters,
               (unsigned long long)in.keys, (unsigned long long)in.capacity,
               (unsigned long long)in.bits, in.bytes, in.seed,
               (unsigned long long)in.initial_n, in.growth);
        json_double(in.tightening);
        printf(", \"fpp\": ");
        json_double(in.fpp);
        printf(", \"fpp_now\": ");
        json_double(in.fpp_bound);
        printf("}\n");
    } else {
        printf("file             %s\n", path);
        printf("format           sbf-v%d (growing%s)\n", version, fixed ? ", non-scaling" : "");
        printf("layout           %s\n", sbf_layout_name(in.layout));
        printf("rates            %s schedule, sized by the %s\n", sched,
               fixed || (p.flags & SBF_SCALABLE_FORMULA) ? "formula"
                                                         : "formula + 3 sd of its spread");
        printf("sub-filters      %u (first %llu keys, x%u each, rate x%g each)\n", in.filters,
               (unsigned long long)in.initial_n, in.growth, in.tightening);
        printf("keys             %llu of %llu before the next sub-filter\n",
               (unsigned long long)in.keys, (unsigned long long)in.capacity);
        printf("bits             %llu\n", (unsigned long long)in.bits);
        printf("bytes            %zu\n", in.bytes);
        printf("seed             %u\n", in.seed);
        printf("fpp asked        %.6g\n", in.fpp);
        printf("fpp now          %.6g\n", in.fpp_bound);
        for (uint32_t i = 0; i < in.filters; i++) {
            struct sbf_info fi;
            sbf_info(sbf_scalable_filter(s, i), &fi);
            printf("  sub-filter %-3u bits %llu, k %u, fill %.4f\n", i,
                   (unsigned long long)fi.bits, fi.k, fi.fill_ratio);
        }
    }
    sbf_scalable_free(s);
}

int cmd_info(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --json --verify ", help_info, 1, 1, &a);
    if (is_scalable_file(a.pos[0])) {
        print_scalable(a.pos[0], opt_flag(&a, "--json"));
        return 0;
    }
    int fmt;
    const int mode = opt_flag(&a, "--verify") ? OPEN_VERIFY : OPEN_QUERY;
    sbf_filter *f = open_filter(a.pos[0], mode, &fmt);
    struct sbf_info in;
    const int rc = sbf_info_ex(f, &in, mode == OPEN_VERIFY ? 0 : SBF_INFO_SAMPLE);
    if (rc != SBF_OK)
        fail_code(a.pos[0], rc);
    /* sbf_info_ex samples 16384 lines of 64 bytes: exact up to 1 MiB */
    const int sampled = mode != OPEN_VERIFY && in.bytes > ((size_t)1 << 20);
    if (opt_flag(&a, "--json"))
        print_json(a.pos[0], fmt, &in, sampled);
    else
        print_text(a.pos[0], fmt, &in, sampled);
    sbf_free(f);
    return 0;
}
