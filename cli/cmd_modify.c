/* sbf add, sbf remove: keys from a reader, in batches, then one save. */
#include <stdio.h>

#include "cli.h"

static const char *const help_add =
    "usage: sbf add FILE [KEYFILE|-] [--u64]\n"
    "\n"
    "Adds the keys of KEYFILE (standard input when - or absent), one per line,\n"
    "to the filter in FILE, then saves FILE. With --u64 each line is a decimal\n"
    "64-bit integer, hashed as its 8 little-endian bytes (sbf_add_u64). A bad\n"
    "line stops the command before FILE is touched.\n";

static const char *const help_remove =
    "usage: sbf remove FILE [KEYFILE|-] [--u64]\n"
    "\n"
    "Removes one insertion of each key from a counting filter and saves FILE.\n"
    "Keys the filter says are surely absent are skipped and counted on stderr.\n";

static int modify(int argc, char **argv, int is_remove)
{
    args a;
    parse_args(argc, argv, " --u64 --parse-only ", is_remove ? help_remove : help_add, 1, 2,
               &a);
    const int as_u64 = opt_flag(&a, "--u64"), parse_only = opt_flag(&a, "--parse-only");
    const char *path = a.pos[0];
    sbf_filter *f = parse_only ? NULL : open_own(path);
    if (is_remove && f != NULL) {
        struct sbf_info in;
        sbf_info(f, &in);
        if (in.layout != SBF_COUNTING)
            fail("%s: remove needs a counting filter (this one is %s)", path,
                 layout_names[in.layout]);
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL);
    const void **keys = kr.keys;
    const size_t *lens = kr.lens;
    const uint64_t *u = kr.u;
    progress pg;
    progress_start(&pg);
    uint64_t absent = 0, sum = 0;
    size_t n;
    while ((n = kr_lines(&kr)) > 0) {
        if (as_u64)
            parse_batch_u64(&kr, n);
        if (parse_only) { /* hidden: measures reading and parsing alone */
            for (size_t i = 0; i < n; i++)
                sum += as_u64 ? u[i] : lens[i];
        } else if (!is_remove) {
            const int rc = as_u64 ? sbf_add_u64(f, u, n) : sbf_add_batch(f, keys, lens, n);
            if (rc < 0)
                fail_code(path, rc);
        } else {
            for (size_t i = 0; i < n; i++) {
                const int rc = as_u64 ? sbf_remove(f, &u[i], 8) : sbf_remove(f, keys[i], lens[i]);
                if (rc == SBF_E_NOT_PRESENT)
                    absent++;
                else if (rc < 0)
                    fail_code(path, rc);
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
        if (absent)
            fprintf(stderr, "%s: %s: %llu of %llu keys were not in the filter (skipped)\n",
                    prog, path, (unsigned long long)absent, (unsigned long long)kr.line);
    }
    kr_close(&kr);
    sbf_free(f);
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
