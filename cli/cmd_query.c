/* sbf query: one answer per key, in input order, or their count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const help_query =
    "usage: sbf query FILE [KEYFILE|-] [--u64] [--count]\n"
    "\n"
    "Prints one line per key, in input order: 1 if the key may be present, 0\n"
    "if it is surely absent. --count prints only the number of 1s. FILE may be\n"
    "our format (mapped read-only, checksums verified) or Guava's.\n";

int cmd_query(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --u64 --count ", help_query, 1, 2, &a);
    const int as_u64 = opt_flag(&a, "--u64"), count = opt_flag(&a, "--count");
    sbf_filter *f = open_filter(a.pos[0], 0, NULL);
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL);
    const void **keys = kr.keys;
    const size_t *lens = kr.lens;
    const uint64_t *u = kr.u;
    uint8_t *res = malloc(BATCH);
    char *out = malloc(2 * BATCH);
    if (!res || !out)
        fail("out of memory");
    progress pg;
    progress_start(&pg);
    uint64_t yes = 0;
    size_t n;
    while ((n = kr_lines(&kr)) > 0) {
        size_t c;
        if (as_u64) {
            parse_batch_u64(&kr, n);
            c = sbf_contains_u64(f, u, n, count ? NULL : res);
        } else {
            c = sbf_contains_batch(f, keys, lens, n, count ? NULL : res);
        }
        if (c == SIZE_MAX)
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
    return 0;
}
