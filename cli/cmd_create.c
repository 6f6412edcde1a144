/* sbf create: a new empty filter, sized by the library's formulas. */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char *const help_create =
    "usage: sbf create FILE [--layout classic|blocked|split-block|counting|\n"
    "                         blocked-xxh3|split-block-xxh3|counting-xxh3|\n"
    "                         blocked-fmix|split-block-fmix|...]\n"
    "                  [-n N] [--fpp P] [--bits B] [--k K] [--seed S] [--force]\n"
    "\n"
    "Creates an empty filter in FILE, sized for N keys (default 1000000) at a\n"
    "false-positive rate P (default 0.01) by the layout's exact formula, or of\n"
    "B bits when --bits is given: then k is --k K, else the layout's k for N\n"
    "keys when -n is given, else the k for as many keys as B bits hold at P.\n"
    "Layout: blocked by default. --seed: the hash's seed (MurmurHash3's; XXH3's\n"
    "for the *-xxh3 layouts and the *-fmix ones' constant; 0, Guava's).\n"
    "N and B may be written 5000, 1e6, 2.5e6 or with a suffix: 10k, 10M, 2G,\n"
    "1T (powers of 1000) or Ki, Mi, Gi, Ti (powers of 1024: --bits 64Mi);\n"
    "-n5000 and -n=5000 work too. Other numbers are decimal; P is above 0 and\n"
    "below 1 (0.01, .5, 1e-3). --bits rounds up to whole blocks (64-bit words\n"
    "for classic) and k comes from that size.\n"
    "A filter folds (sbf fold) while its block count is even: sized by -n it\n"
    "may fold only a few times or not at all; a power-of-two --bits (64Mi,\n"
    "1Gi) folds furthest.\n"
    "An existing FILE is kept, and a filter above 1 GiB is not written,\n"
    "unless --force (the message says how big it would be). No filter is\n"
    "above 16 GiB (2^37 bits), --force or not.\n";

/* The library's layout names (sbf_layout_name), and split_block / splitblock. */
static int layout_from_name(const char *s)
{
    const int l = sbf_layout_from_name(s);
    if (l >= 0)
        return l;
    if (strcmp(s, "split_block") == 0 || strcmp(s, "splitblock") == 0)
        return SBF_SPLIT_BLOCK;
    char names[256] = "";
    for (int i = 0; i < 32; i++)
        if (strcmp(sbf_layout_name(i), "unknown") != 0) {
            if (names[0] != '\0')
                strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, sbf_layout_name(i), sizeof names - strlen(names) - 1);
        }
    usage_error("create: unknown layout '%s' (%s)", show_text(s, strlen(s)), names);
}

static uint64_t parse_count(const char *opt, const char *s)
{
    uint64_t v;
    const int rc = num_size(s, &v);
    if (rc == -1)
        usage_error("%s: out of range (above 18446744073709551615): '%s'", opt, s);
    if (rc == -2)
        usage_error("%s: not a whole number: '%s'", opt, s);
    if (rc != 1)
        usage_error("%s: not a count (5000, 1e6, 10M, 64Mi): '%s'", opt, show_text(s, strlen(s)));
    return v;
}

/* --bits alone: k is the layout's for the most keys `bits` bits hold at
 * fpp (sbf_size's inverse, at k0 when not 0), not for the default -n. 1
 * when none fits. */
static uint64_t keys_for_bits(int layout, uint64_t bits, double fpp, uint32_t k0)
{
    uint64_t lo = 1, hi = bits; /* no layout holds a key per bit at fpp < 1/2 */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        uint64_t b;
        uint32_t k = k0; /* in/out: 0 lets sbf_size choose */
        if (sbf_size(layout, mid, fpp, &b, &k) == SBF_OK && b <= bits)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Above the library's maximum no --force helps: say the maximum and what
 * to change (with -n: the most keys the maximum holds at this --fpp). */
static void too_large(const char *path, const sbf_params *p, const char *bits_s)
{
    const double max_gib = (double)SBF_MAX_BITS / 8 / (double)(1u << 30);
    if (bits_s != NULL)
        fail("%s: --bits %s is above the maximum filter size, %llu bits (%.0f GiB, --bits "
             "%lluGi); nothing written", path, show_text(bits_s, strlen(bits_s)),
             (unsigned long long)SBF_MAX_BITS, max_gib,
             (unsigned long long)(SBF_MAX_BITS >> 30));
    const uint64_t most = keys_for_bits(p->layout, SBF_MAX_BITS, p->fpp, p->k);
    fail("%s: %llu keys at --fpp %g need more than the maximum filter size, %.0f GiB (%llu "
         "bits), which holds at most %llu keys at that rate: lower -n or raise --fpp; nothing "
         "written", path, (unsigned long long)p->expected_n, p->fpp, max_gib,
         (unsigned long long)SBF_MAX_BITS, (unsigned long long)most);
}

/* A filter above 1 GiB needs --force: a typo in -n or --fpp should not fill
 * a disk without a word. One above the maximum is refused with the maximum
 * (--force could not help); other sizing errors are left to sbf_create. */
static void check_size(const char *path, const sbf_params *p, int force, const char *bits_s)
{
    uint64_t bits = p->bits;
    uint32_t k = p->k;
    const int rc = bits == 0 ? sbf_size(p->layout, p->expected_n, p->fpp, &bits, &k) : SBF_OK;
    if (rc == SBF_E_TOO_LARGE || (rc == SBF_OK && bits > SBF_MAX_BITS))
        too_large(path, p, p->bits != 0 ? bits_s : NULL);
    if (rc != SBF_OK)
        return;
    const double bytes = (double)bits / 8, gib = bytes / (double)(1u << 30);
    if (bytes <= (double)(1u << 30))
        return;
    if (!force)
        fail("%s: the filter would take %.1f GiB (%.0f bytes); add --force to write it", path,
             gib, bytes);
    fprintf(stderr, "%s: %s: writing %.1f GiB\n", prog, path, gib);
}

int cmd_create(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --layout= -n= --fpp= --bits= --k= --seed= --force ", help_create,
               1, 1, &a);
    const char *layout = opt_val(&a, "--layout"), *n = opt_val(&a, "-n");
    const char *fpp = opt_val(&a, "--fpp"), *bits = opt_val(&a, "--bits");
    const char *ks = opt_val(&a, "--k"), *seeds = opt_val(&a, "--seed");
    sbf_params p = { 0 };
    p.layout = layout ? layout_from_name(layout) : SBF_BLOCKED;
    p.expected_n = n ? parse_count("-n", n) : 1000000;
    p.fpp = fpp ? parse_rate_arg("--fpp", fpp) : 0.01;
    p.bits = bits ? parse_count("--bits", bits) : 0;
    if (bits && p.bits == 0)
        usage_error("--bits: must be positive");
    const uint64_t k = ks ? parse_u64_arg("--k", ks) : 0;
    const uint64_t seed = seeds ? parse_u64_arg("--seed", seeds) : 0;
    if (k > UINT32_MAX || (ks && k == 0))
        usage_error("--k: out of range: '%s'", ks);
    if (seed > UINT32_MAX)
        usage_error("--seed: out of range (0..4294967295): '%s'", seeds);
    p.k = (uint32_t)k;
    p.seed = (uint32_t)seed;
    struct sbf_layout_info li;
    if (bits && p.bits <= SBF_MAX_BITS && sbf_layout_info(p.layout, p.k, &li) == SBF_OK) {
        /* the size the filter will have (the library rounds up to whole
         * blocks, 64-bit words for classic): k comes from it, not from
         * the bits asked, which can be less than one block */
        const uint64_t g = li.block_bits ? li.block_bits : 64;
        p.bits = (p.bits + g - 1) / g * g;
    }
    if (bits && n == NULL && k == 0 && p.bits <= SBF_MAX_BITS) {
        uint64_t one;
        uint32_t k1 = 0;
        if (sbf_size(p.layout, 1, p.fpp, &one, &k1) != SBF_OK || one > p.bits)
            fail("%s: --bits %s (%llu bits as %s makes it) holds no key at --fpp %g; give "
                 "more --bits, a larger --fpp, or -n N / --k K for the k; nothing written",
                 a.pos[0], show_text(bits, strlen(bits)), (unsigned long long)p.bits,
                 sbf_layout_name(p.layout), p.fpp);
        p.expected_n = keys_for_bits(p.layout, p.bits, p.fpp, 0);
    }
    const char *path = a.pos[0];
    struct stat st;
    const int force = opt_flag(&a, "--force");
    check_size(path, &p, force, bits); /* first: --force cannot help above the maximum */
    if (!force && stat(path, &st) == 0)
        fail("%s: exists (use --force to replace it)", path);
    sbf_filter *f;
    const int rc = sbf_create(&f, &p);
    if (rc == SBF_E_TOO_LARGE)
        too_large(path, &p, bits);
    if (rc != SBF_OK)
        fail("%s: cannot create: %s", path, sbf_strerror(rc));
    save(f, path);
    sbf_free(f);
    return 0;
}
