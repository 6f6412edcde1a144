/* sbf convert (between our format and Guava's), sbf union. */
#define _GNU_SOURCE 1
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *const help_convert =
    "usage: sbf convert --to sbf|guava|parquet IN OUT\n"
    "\n"
    "Reads IN (format detected from its bytes: ours, version 1 or 2, Guava's\n"
    "BloomFilter.writeTo, or Parquet's BloomFilterHeader + bitset) and writes\n"
    "OUT in the chosen format. Guava's form holds classic filters with seed 0\n"
    "only; Parquet's, parquet-layout filters (header + bitset exactly as a\n"
    "Parquet writer embeds them in a file).\n";

static const char *const help_union =
    "usage: sbf union OUT A B\n"
    "\n"
    "Writes to OUT the union of the filters A and B, which must have the same\n"
    "layout, size, k and seed (counting: counters add, saturating at 15).\n";

int cmd_convert(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --to= ", help_convert, 2, 2, &a);
    const char *to = opt_val(&a, "--to");
    if (to == NULL)
        usage_error("convert: --to sbf|guava|parquet is required");
    const int to_guava = strcmp(to, "guava") == 0, to_parquet = strcmp(to, "parquet") == 0;
    if (!to_guava && !to_parquet && strcmp(to, "sbf") != 0)
        usage_error("convert: --to must be sbf, guava or parquet, not '%s'", to);
    sbf_filter *f = open_filter(a.pos[0], OPEN_WRITABLE, NULL);
    if (to_guava) {
        save_guava(f, a.pos[1]);
    } else if (to_parquet) {
        const int rc = sbf_save_as(f, a.pos[1], SBF_FORMAT_PARQUET);
        if (rc == SBF_E_UNSUPPORTED)
            fail("%s: cannot write as Parquet: only parquet-layout filters "
                 "('sbf create --layout parquet')", a.pos[1]);
        if (rc != SBF_OK)
            fail_code(a.pos[1], rc);
    } else
        save(f, a.pos[1]);
    sbf_free(f);
    return 0;
}

int cmd_union(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " ", help_union, 3, 3, &a);
    struct stat st;
    /* OUT may be A or B: a read-modify-write, locked as sbf add's */
    const int lock = stat(a.pos[0], &st) == 0 ? lock_path(a.pos[0]) : -1;
    sbf_filter *x = open_filter(a.pos[1], OPEN_WRITABLE, NULL);
    sbf_filter *y = open_filter(a.pos[2], OPEN_VERIFY, NULL);
    const int rc = sbf_union(x, y);
    if (rc != SBF_OK)
        fail("%s, %s: %s", a.pos[1], a.pos[2], sbf_strerror(rc));
    save(x, a.pos[0]);
    sbf_free(x);
    sbf_free(y);
    if (lock >= 0)
        close(lock);
    return 0;
}
