/* sbf query: one answer per key, in input order, or their count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const help_query =
    "usage: sbf query FILE [KEYFILE|-] " KEY_SYNOPSIS " [--count] [--verify]\n"
    "\n"
    "Prints one line per key, in input order: 1 if the key may be present, 0\n"
    "if it is surely absent. --count prints only the number of 1s. FILE may be\n"
    "our format or Guava's. Ours is mapped read-only and only the pages the\n"
    "keys need are read (the header's checksum is checked, the data's is\n"
    "not: --verify checks it first, reading the whole file; see sbf verify).\n"
    "A growing filter (sbf dedup's, format 3 or 4) is mapped the same way.\n"
    "\n" KEY_HELP;

int cmd_query(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, KEY_OPTS "--count --verify ", help_query, 1, 2, &a);
    int binary;
    const int type = key_options(&a, &binary);
    const int count = opt_flag(&a, "--count");
    const int mode = opt_flag(&a, "--verify") ? OPEN_VERIFY : OPEN_QUERY;
    sbf_filter *f = NULL;
    sbf_scalable *s = NULL;
    if (is_scalable_file(a.pos[0])) {
        const int rc = sbf_scalable_map(&s, a.pos[0], mode == OPEN_VERIFY ? 0
                                                                            : SBF_MAP_NO_VERIFY);
        if (rc != SBF_OK)
            fail_code(a.pos[0], rc);
        guard_scalable(s, a.pos[0]);
    } else {
        f = open_filter(a.pos[0], mode, NULL);
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL, type, binary);
    uint8_t *res = malloc(BATCH);
    char *out = malloc(2 * BATCH);
    if (!res || !out)
        fail("out of memory");
    progress pg;
    progress_start(&pg);
    uint64_t yes = 0;
    size_t n;
    while ((n = kr_next(&kr)) > 0) {
        uint8_t *o = count ? NULL : res;
        const size_t c = s == NULL ? keys_contains(f, &kr, n, o)
                         : kr.words ? sbf_scalable_contains_u64(s, kr.u, n, o)
                                    : sbf_scalable_contains_batch(s, kr.keys, kr.lens, n, o);
        if (sbf_is_error(c))
            fail("%s: query failed", a.pos[0]);
        yes += c;
        if (!count) {
            for (size_t i = 0; i < n; i++) {
                out[2 * i] = (char)('0' + res[i]);
                out[2 * i + 1] = '\n';
            }
            if (fwrite(out, 1, 2 * n, stdout) != 2 * n)
                fail("standard output: %s", strerror(errno));
        }
        progress_tick(&pg, &kr, "queried");
    }
    progress_end(&pg);
    if (count)
        printf("%llu\n", (unsigned long long)yes);
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    kr_close(&kr);
    free(res);
    free(out);
    sbf_free(f);
    sbf_scalable_free(s);
    return 0;
}
