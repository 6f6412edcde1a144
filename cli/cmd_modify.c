/* sbf add, sbf remove: keys from a reader, in batches, then one save. */
#include <stdio.h>

#include "cli.h"

static const char *const help_add =
    "usage: sbf add FILE [KEYFILE|-] " KEY_SYNOPSIS "\n"
    "\n"
    "Adds the keys of KEYFILE (standard input when - or absent), one per line,\n"
    "to the filter in FILE, then saves FILE. A bad line stops the command\n"
    "before FILE is touched. FILE is locked from load to save: another sbf\n"
    "add or remove on it waits, then adds to what this one saved.\n"
    "\n" KEY_HELP;

static const char *const help_remove =
    "usage: sbf remove FILE [KEYFILE|-] " KEY_SYNOPSIS "\n"
    "\n"
    "Removes one insertion of each key from a counting filter, saves FILE and\n"
    "says on stderr how many keys it removed. A key the filter says is surely\n"
    "absent is skipped (and counted).\n"
    "\n"
    "Remove only keys that were added, once per add. A key that was never\n"
    "added but tests present (a false positive) cannot be told from a member:\n"
    "removing it decrements counters that other keys set, and those keys may\n"
    "then test absent (false negatives). No filter can detect this. Running\n"
    "the same removal twice does exactly that: the second pass removes the\n"
    "keys' false positives and loses other keys.\n"
    "\n" KEY_HELP;

static int modify(int argc, char **argv, int is_remove)
{
    args a;
    parse_args(argc, argv, KEY_OPTS "--parse-only ", is_remove ? help_remove : help_add, 1, 2,
               &a);
    int binary;
    const int type = key_options(&a, &binary);
    const int parse_only = opt_flag(&a, "--parse-only");
    const char *path = a.pos[0];
    /* locked from before the load to after the save: a second sbf add on
     * this file waits, then loads what this one saved */
    sbf_file_lock *lock = parse_only ? NULL : lock_path(path);
    sbf_filter *f = parse_only ? NULL : open_own(path);
    if (is_remove && f != NULL) {
        struct sbf_info in;
        struct sbf_layout_info li;
        sbf_info(f, &in);
        if (sbf_layout_info(in.layout, in.k, &li) != SBF_OK || li.cell_bits == 1)
            fail("%s: remove needs a counting filter (this one is %s)", path,
                 sbf_layout_name(in.layout));
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL, type, binary);
    progress pg;
    progress_start(&pg);
    uint64_t absent = 0, removed = 0, sum = 0;
    size_t n;
    while ((n = kr_next(&kr)) > 0) {
        if (parse_only) { /* hidden: measures reading and parsing alone */
            for (size_t i = 0; i < n; i++)
                sum += key_sum(&kr, i);
        } else if (!is_remove) {
            const int rc = keys_add(f, &kr, n);
            if (rc < 0)
                fail_code(path, rc);
        } else {
            for (size_t i = 0; i < n; i++) {
                const int rc = key_remove(f, &kr, i);
                if (rc == SBF_E_NOT_PRESENT)
                    absent++;
                else if (rc < 0)
                    fail_code(path, rc);
                else
                    removed++;
            }
        }
        progress_tick(&pg, &kr, is_remove ? "removed" : "added");
    }
    progress_end(&pg);
    if (parse_only) {
        fprintf(stderr, "%s: parsed %llu keys (checksum %llu)\n", prog,
                (unsigned long long)kr.line, (unsigned long long)sum);
    } else {
        save(f, path);
        if (is_remove)
            fprintf(stderr, "%s: %s: removed %llu of %llu keys; %llu were not in the filter "
                    "(skipped)\n", prog, path, (unsigned long long)removed,
                    (unsigned long long)kr.line, (unsigned long long)absent);
    }
    kr_close(&kr);
    sbf_free(f);
    sbf_unlock_file(lock);
    return 0;
}

int cmd_add(int argc, char **argv)
{
    return modify(argc, argv, 0);
}

int cmd_remove(int argc, char **argv)
{
    return modify(argc, argv, 1);
}
