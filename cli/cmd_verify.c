/* sbf verify: every checksum of a filter file, with a progress line. */
#include <stdio.h>

#include "cli.h"

static const char *const help_verify =
    "usage: sbf verify FILE\n"
    "\n"
    "Reads the whole of FILE and checks every checksum (header and data) and\n"
    "the padding, with a progress line when standard error is a terminal.\n"
    "Prints 'FILE: ok' and exits 0, or names the fault and exits 1. A Guava\n"
    "file has no checksum: it is parsed whole and reported as such.\n"
    "(query and info check the header only, unless --verify.)\n";

int cmd_verify(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " ", help_verify, 1, 1, &a);
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
