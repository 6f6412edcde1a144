/* sbf info: a filter's geometry, fill and estimates, as text or JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const help_info =
    "usage: sbf info FILE [--json]\n"
    "\n"
    "Layout, bits, bytes, k, seed, keys added, fill, estimated cardinality,\n"
    "theoretical false-positive rate now (at the keys added) and at the\n"
    "estimated cardinality (Guava files carry no key count), and the ISA in\n"
    "use. FILE may be our format or Guava's.\n";

int cmd_info(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --json ", help_info, 1, 1, &a);
    int fmt;
    sbf_filter *f = open_filter(a.pos[0], 0, &fmt);
    struct sbf_info in;
    const int rc = sbf_info(f, &in);
    if (rc != SBF_OK)
        fail_code(a.pos[0], rc);
    if (opt_flag(&a, "--json")) {
        printf("{\"file\": ");
        json_string(a.pos[0]);
        printf(", \"format\": \"%s\", \"layout\": \"%s\", \"bits\": %llu, \"bytes\": %zu, "
               "\"k\": %u, \"block_bits\": %u, \"seed\": %u, \"keys_added\": ",
               format_names[fmt], layout_names[in.layout], (unsigned long long)in.bits, in.bytes, in.k,
               in.block_bits, in.seed);
        if (in.keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
            printf("null, \"fill\": ");
        else
            printf("%llu, \"fill\": ", (unsigned long long)in.keys_added);
        json_double(in.fill_ratio);
        printf(", \"est_cardinality\": ");
        json_double(in.est_cardinality);
        printf(", \"fpp_now\": ");
        json_double(in.fpp_now);
        printf(", \"fpp_at_estimate\": ");
        json_double(sbf_fpp_theory(f, (uint64_t)fmin(in.est_cardinality, 1.8e19)));
        printf(", \"saturated\": %llu, \"isa\": \"%s\"}\n", (unsigned long long)in.saturated,
               sbf_isa_name(in.isa));
    } else {
        printf("file             %s\n", a.pos[0]);
        printf("format           %s\n", format_names[fmt]);
        printf("layout           %s\n", layout_names[in.layout]);
        printf("bits             %llu\n", (unsigned long long)in.bits);
        printf("bytes            %zu\n", in.bytes);
        printf("k                %u\n", in.k);
        printf("block bits       %u\n", in.block_bits);
        printf("seed             %u\n", in.seed);
        if (in.keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
            printf("keys added       unknown\n");
        else
            printf("keys added       %llu\n", (unsigned long long)in.keys_added);
        printf("fill             %.6f\n", in.fill_ratio);
        printf("est. cardinality %.0f\n", in.est_cardinality);
        printf("fpp now          %.6g\n", in.fpp_now);
        printf("fpp at estimate  %.6g\n",
               sbf_fpp_theory(f, (uint64_t)fmin(in.est_cardinality, 1.8e19)));
        if (in.layout == SBF_COUNTING)
            printf("saturated        %llu\n", (unsigned long long)in.saturated);
        printf("isa              %s\n", sbf_isa_name(in.isa));
    }
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    sbf_free(f);
    return 0;
}
