/* sbf convert (between the forms the library has), sbf union. */
#define _GNU_SOURCE 1
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char *const help_convert =
    "usage: sbf convert --to sbf|guava|parquet IN OUT\n"
    "\n"
    "Reads IN (its form detected from its bytes: ours, version 1 or 2,\n"
    "Guava's BloomFilter.writeTo, Parquet's header + bitset) and writes OUT in\n"
    "the form named (crash-safe; an existing OUT keeps its mode and owner, and\n"
    "a symbolic link stays one). Guava's form holds classic filters with seed\n"
    "0 only, Parquet's the parquet layout only. The forms this build has are\n"
    "listed when --to names another.\n";

static const char *const help_union =
    "usage: sbf union OUT A B\n"
    "\n"
    "Writes to OUT the union of the filters A and B, which must have the same\n"
    "layout, size, k and seed (counting: counters add, saturating at 15).\n"
    "Growing filters (sbf dedup without --expected) join growing ones made with\n"
    "the same parameters, sub-filter by sub-filter.\n";

/* "sbf, guava" and so on: the forms this library has. */
static const char *form_list(void)
{
    static char list[128];
    list[0] = '\0';
    for (int i = 1; i < 32; i++)
        if (strcmp(sbf_format_name(i), "unknown") != 0) {
            if (list[0] != '\0')
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, sbf_format_name(i), sizeof list - strlen(list) - 1);
        }
    return list;
}

int cmd_convert(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --to= ", help_convert, 2, 2, &a);
    const char *to = opt_val(&a, "--to");
    if (to == NULL)
        usage_error("convert: --to %s is required", form_list());
    const int form = sbf_format_from_name(to);
    if (form < 0)
        usage_error("convert: --to must be one of %s, not '%s'", form_list(),
                    show_text(to, strlen(to)));
    struct stat st;
    /* OUT may be IN: a read-modify-write, locked as sbf add's */
    sbf_file_lock *lock = stat(a.pos[1], &st) == 0 ? lock_path(a.pos[1]) : NULL;
    sbf_filter *f = open_filter(a.pos[0], OPEN_WRITABLE, NULL);
    const int rc = sbf_save_as(f, a.pos[1], form);
    if (rc == SBF_E_UNSUPPORTED || rc == SBF_E_PARAM) { /* the input is the cause */
        struct sbf_info in;
        (void)sbf_info(f, &in);
        fail("%s: a %s filter (seed %u) has no %s form: %s; %s not written", a.pos[0],
             sbf_layout_name(in.layout), in.seed, form_title(form),
             form == SBF_FORMAT_GUAVA ? "Guava's holds classic filters with seed 0 only"
             : form == SBF_FORMAT_PARQUET ? "Parquet's holds the parquet layout only"
             : sbf_strerror(rc), a.pos[1]);
    }
    if (rc != SBF_OK)
        fail_save(f, a.pos[1], form, rc);
    sbf_free(f);
    sbf_unlock_file(lock);
    return 0;
}

int cmd_union(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " ", help_union, 3, 3, &a);
    struct stat st;
    /* OUT may be A or B: a read-modify-write, locked as sbf add's */
    sbf_file_lock *lock = stat(a.pos[0], &st) == 0 ? lock_path(a.pos[0]) : NULL;
    if (is_scalable_file(a.pos[1]) || is_scalable_file(a.pos[2])) { /* growing filters */
        sbf_scalable *sx = open_scalable(a.pos[1]), *sy = open_scalable(a.pos[2]);
        int rc = sbf_scalable_union(sx, sy);
        if (rc == SBF_E_INCOMPATIBLE)
            fail("%s, %s: growing filters made with other parameters (layout, seed, first "
                 "size, rate, growth, schedule or sizing: `sbf info` shows them)",
                 a.pos[1], a.pos[2]);
        if (rc != SBF_OK)
            fail("%s, %s: %s", a.pos[1], a.pos[2], sbf_strerror(rc));
        if ((rc = sbf_scalable_save(sx, a.pos[0])) != SBF_OK)
            fail_code(a.pos[0], rc);
        sbf_scalable_free(sx);
        sbf_scalable_free(sy);
        sbf_unlock_file(lock);
        return 0;
    }
    sbf_filter *x = open_filter(a.pos[1], OPEN_WRITABLE, NULL);
    sbf_filter *y = open_filter(a.pos[2], OPEN_VERIFY, NULL);
    const int rc = sbf_union(x, y);
    if (rc != SBF_OK)
        fail("%s, %s: %s", a.pos[1], a.pos[2], sbf_strerror(rc));
    save(x, a.pos[0]);
    sbf_free(x);
    sbf_free(y);
    sbf_unlock_file(lock);
    return 0;
}
