/* sbf verify: every checksum of a filter file, with a progress line. */
#include <stdio.h>

#include "cli.h"

static const char *const help_verify =
    "usage: sbf verify FILE\n"
    "\n"
    "Reads the whole of FILE and checks every checksum (header and data) and\n"
    "the padding, with a progress line when standard error is a terminal.\n"
    "Prints 'FILE: ok' and exits 0, or names the fault and exits 1. A Guava\n"
    "file has no checksum: it is parsed whole and reported as such. A growing\n"
    "filter (sbf dedup's) is checked sub-filter by sub-filter.\n"
    "(query and info check the header only, unless --verify.)\n";

int cmd_verify(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " ", help_verify, 1, 1, &a);
    const int grows = scalable_file_version(a.pos[0]);
    if (grows != 0) { /* every header, checksum and padding, as the map checks them */
        sbf_scalable *s;
        const int rc = sbf_scalable_map(&s, a.pos[0], 0);
        if (rc != SBF_OK)
            fail_code(a.pos[0], rc);
        struct sbf_scalable_info in;
        sbf_scalable_info(s, &in);
        printf("%s: ok (sbf-v%d, a growing filter of %u sub-filter%s, %zu bytes of data, "
               "checksums verified)\n", a.pos[0], grows, in.filters, in.filters == 1 ? "" : "s",
               in.bytes);
        sbf_scalable_free(s);
        return 0;
    }
    int fmt;
    sbf_filter *f = open_filter(a.pos[0], OPEN_VERIFY, &fmt);
    size_t len;
    sbf_data(f, &len);
    if (fmt == FMT_GUAVA || fmt == FMT_PARQUET)
        printf("%s: ok (a %s filter: no checksum; it parses, %zu bytes of data)\n",
               a.pos[0], format_names[fmt], len);
    else
        printf("%s: ok (%s, %zu bytes of data, checksums verified)\n", a.pos[0],
               format_names[fmt], len);
    sbf_free(f);
    return 0;
}
