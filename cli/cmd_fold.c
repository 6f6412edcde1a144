/* sbf fold: halve a filter's blocks as often as a target rate allows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char *const help_fold =
    "usage: sbf fold FILE (--fpp P | --times N) [--out OUT]\n"
    "\n"
    "Folds the filter: blocks 2i and 2i+1 merge into block i, halving its\n"
    "size, which gives exactly the filter the same keys would have built at\n"
    "half the size (blocked, split-block, counting and parquet layouts; not\n"
    "classic). --fpp folds as many times as keeps the rate estimated from the\n"
    "filter's own bits at or below P; --times folds N times (each needs an even\n"
    "block count). The result replaces FILE (crash-safe), or goes to OUT.\n";

int cmd_fold(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --fpp= --times= --out= ", help_fold, 1, 1, &a);
    const char *fpp_s = opt_val(&a, "--fpp"), *times_s = opt_val(&a, "--times");
    if ((fpp_s == NULL) == (times_s == NULL))
        usage_error("fold: give exactly one of --fpp and --times");
    const char *out = opt_val(&a, "--out") ? opt_val(&a, "--out") : a.pos[0];
    const uint64_t t = times_s != NULL ? parse_u64_arg("--times", times_s) : 0;
    if (times_s != NULL && t == 0)
        usage_error("--times: must be at least 1 (each fold halves the filter)");
    const double p = fpp_s != NULL ? parse_rate_arg("--fpp", fpp_s) : 0;
    struct stat st;
    /* OUT is FILE by default: a read-modify-write, locked as sbf add's, so
     * that a fold and an add one beside the other lose neither */
    sbf_file_lock *lock = stat(out, &st) == 0 ? lock_path(out) : NULL;
    sbf_filter *f = open_own(a.pos[0]), *g = NULL;
    const double before = sbf_fpp_estimate(f);
    uint32_t times = 0;
    int rc;
    if (fpp_s != NULL) {
        rc = sbf_fold_to(&g, f, p, &times);
    } else {
        times = t > 64 ? 64 : (uint32_t)t;
        rc = sbf_fold(&g, f, times);
    }
    struct sbf_info in;
    (void)sbf_info(f, &in);
    const uint64_t blocks = in.block_bits ? in.bits / in.block_bits : 1;
    if (rc == SBF_E_ODD_BLOCKS)
        fail("%s: cannot fold: its block count is odd (%llu block%s; a fold merges pairs of "
             "blocks); a filter created with a power-of-two --bits (64Mi, 1Gi) folds furthest; "
             "nothing written", a.pos[0], (unsigned long long)blocks, blocks == 1 ? "" : "s");
    if (rc != SBF_OK)
        fail("%s: cannot fold: %s; nothing written", a.pos[0], sbf_strerror(rc));
    if (times == 0 && fpp_s != NULL) {
        sbf_filter *once = NULL;
        const int r1 = sbf_fold(&once, f, 1);
        const double after = r1 == SBF_OK ? sbf_fpp_estimate(once) : NAN;
        sbf_free(once);
        sbf_free(g);
        if (r1 == SBF_E_ODD_BLOCKS)
            fail("%s: cannot fold: its block count is odd (%llu blocks; a fold merges pairs of "
                 "blocks); a filter created with a power-of-two --bits (64Mi, 1Gi) folds "
                 "furthest; nothing written", a.pos[0], (unsigned long long)blocks);
        if (before > p)
            fail("%s: folded 0 times: its estimated rate %.6g is already above --fpp %s; "
                 "nothing written", a.pos[0], before, fpp_s);
        fail("%s: folded 0 times: one fold would raise the estimated rate from %.6g to %.6g, "
             "above --fpp %s; nothing written", a.pos[0], before, after, fpp_s);
    }
    size_t b0, b1;
    (void)sbf_data(f, &b0);
    (void)sbf_data(g, &b1);
    save(g, out);
    printf("folded %u time%s: %zu -> %zu bytes, estimated rate %.6g -> %.6g\n", times,
           times == 1 ? "" : "s", b0, b1, before, sbf_fpp_estimate(g));
    sbf_filter *probe = NULL;
    if (fpp_s != NULL && sbf_fold(&probe, g, 1) == SBF_E_ODD_BLOCKS)
        printf("(the block count is now odd: a filter folds down from an even count; "
               "powers of two fold furthest)\n");
    sbf_free(probe);
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    sbf_free(g);
    sbf_free(f);
    sbf_unlock_file(lock);
    return 0;
}
