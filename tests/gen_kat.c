/*
 * Writes tests/vectors/layouts_kat.inc (`make kat`): the known-answer
 * vectors of every bit layout, built with the scalar reference, which
 * defines correct. Not part of `make test`; the committed file is what the
 * tests check. Regenerating it may only ADD settings: a changed value means
 * a layout changed, which is a new layout id, never an edit (see kat.h).
 *
 * usage: sbf-gen-kat > tests/vectors/layouts_kat.inc
 */
#include <inttypes.h>
#include <stdio.h>

#include "kat.h"

typedef struct setting {
    int layout;
    uint64_t bits;
    uint32_t k;
    uint32_t seed;
    size_t nkeys;
} setting;

/* Small filters: every byte is written out. Each runs with u64 keys and
 * with byte-string keys. The k values reach every SBFI_SALT entry (k = 16)
 * and the single-word cases (k = 1); counting includes a saturated filter. */
static const setting exact[] = {
    { SBF_CLASSIC, 64 * 21, 7, 0, 48 },
    { SBF_CLASSIC, 64 * 5, 3, 12345, 48 },
    { SBF_CLASSIC, 64 * 40, 20, 0xdeadbeefu, 48 },
    { SBF_BLOCKED, 512 * 3, 1, 0, 48 },
    { SBF_BLOCKED, 512 * 3, 6, 7, 48 },
    { SBF_BLOCKED, 512 * 4, 16, 0xffffffffu, 48 },
    { SBF_SPLIT_BLOCK, 256 * 5, 8, 0, 48 },
    { SBF_SPLIT_BLOCK, 256 * 3, 8, 99, 48 },
    { SBF_SPLIT_BLOCK, 512 * 3, 16, 0, 48 },
    { SBF_SPLIT_BLOCK, 512 * 2, 16, 5, 48 },
    { SBF_COUNTING, 512 * 4, 3, 0, 48 },
    { SBF_COUNTING, 512 * 4, 8, 11, 48 },
    { SBF_COUNTING, 512 * 2, 16, 0x7fffffffu, 48 },
    { SBF_COUNTING, 512 * 1, 16, 3, 160 }, /* most counters saturate at 15 */
    /* parquet (issue 18): XXH64 and the spec's salts; 1 block, 5 blocks */
    { SBF_PARQUET, 256 * 1, 8, 0, 12 },
    { SBF_PARQUET, 256 * 5, 8, 0, 48 },
    /* the XXH3 layouts (issue 32): seeded XXH3_64bits, split-block k = 8
     * and 16, blocked k = 1, 6, 16, counting with a saturated filter */
    { SBF_SPLIT_BLOCK_XXH3, 256 * 5, 8, 0, 48 },
    { SBF_SPLIT_BLOCK_XXH3, 512 * 3, 16, 99, 48 },
    { SBF_BLOCKED_XXH3, 512 * 3, 1, 0, 48 },
    { SBF_BLOCKED_XXH3, 512 * 3, 6, 7, 48 },
    { SBF_BLOCKED_XXH3, 512 * 4, 16, 0xffffffffu, 48 },
    { SBF_COUNTING_XXH3, 512 * 4, 3, 0, 48 },
    { SBF_COUNTING_XXH3, 512 * 2, 16, 0x7fffffffu, 48 },
    { SBF_COUNTING_XXH3, 512 * 1, 16, 3, 160 },
    /* the fmix layouts: 8-byte keys fmix64(key ^ s), others XXH3;
     * split-block k = 8 and 16, blocked k = 1, 6, 16; 4 blocks (2^j: the
     * shift form) and 3 or 5 (the multiply) */
    { SBF_SPLIT_BLOCK_FMIX, 256 * 5, 8, 0, 48 },
    { SBF_SPLIT_BLOCK_FMIX, 256 * 4, 8, 0x2545f491u, 48 },
    { SBF_SPLIT_BLOCK_FMIX, 512 * 3, 16, 99, 48 },
    { SBF_BLOCKED_FMIX, 512 * 3, 1, 0, 48 },
    { SBF_BLOCKED_FMIX, 512 * 4, 6, 7, 48 },
    { SBF_BLOCKED_FMIX, 512 * 3, 16, 0xffffffffu, 48 },
};

/* Larger filters (about 4 MiB, sizes that are not powers of two, so the
 * multiply-shift block index is exercised): a digest of the bytes. */
static const setting digest[] = {
    { SBF_CLASSIC, 64 * 500009, 7, 0, 100000 },
    { SBF_BLOCKED, 512 * 65521, 8, 0, 100000 },
    { SBF_BLOCKED, 512 * 65521, 16, 0x9747b28cu, 100000 },
    { SBF_SPLIT_BLOCK, 256 * 131071, 8, 3, 100000 },
    { SBF_SPLIT_BLOCK, 512 * 65521, 16, 0, 100000 },
    { SBF_COUNTING, 512 * 65521, 6, 0, 100000 },
    { SBF_PARQUET, 256 * 131071, 8, 0, 100000 },
    { SBF_SPLIT_BLOCK_XXH3, 256 * 131071, 8, 3, 100000 },
    { SBF_SPLIT_BLOCK_XXH3, 512 * 65521, 16, 0, 100000 },
    { SBF_BLOCKED_XXH3, 512 * 65521, 8, 0x9747b28cu, 100000 },
    { SBF_COUNTING_XXH3, 512 * 65521, 6, 5, 100000 },
    { SBF_SPLIT_BLOCK_FMIX, 256 * 131071, 8, 3, 100000 },
    { SBF_SPLIT_BLOCK_FMIX, 512 * 65536, 16, 0, 100000 },
    { SBF_BLOCKED_FMIX, 512 * 65521, 8, 0x9747b28cu, 100000 },
    { SBF_BLOCKED_FMIX, 512 * 65536, 7, 1, 100000 },
};

static const char *layout_macro(int layout)
{
    switch (layout) {
    case SBF_CLASSIC: return "SBF_CLASSIC";
    case SBF_BLOCKED: return "SBF_BLOCKED";
    case SBF_SPLIT_BLOCK: return "SBF_SPLIT_BLOCK";
    case SBF_PARQUET: return "SBF_PARQUET";
    case SBF_SPLIT_BLOCK_XXH3: return "SBF_SPLIT_BLOCK_XXH3";
    case SBF_BLOCKED_XXH3: return "SBF_BLOCKED_XXH3";
    case SBF_COUNTING_XXH3: return "SBF_COUNTING_XXH3";
    case SBF_SPLIT_BLOCK_FMIX: return "SBF_SPLIT_BLOCK_FMIX";
    case SBF_BLOCKED_FMIX: return "SBF_BLOCKED_FMIX";
    default: return "SBF_COUNTING";
    }
}

static const sbf_filter *build(const setting *s, int keys)
{
    sbf_filter *f = NULL;
    const int rc = kat_build(s->layout, s->bits, s->k, s->seed, keys, s->nkeys, 0, &f);
    if (rc != SBF_OK) {
        fprintf(stderr, "gen_kat: %s bits %" PRIu64 " k %u: %s\n", kat_layout_name(s->layout),
                s->bits, s->k, sbf_strerror(rc));
        exit(1);
    }
    return f;
}

static void head(const setting *s, int keys, size_t len)
{
    printf("    { %s, %" PRIu64 ", %u, 0x%08" PRIx32 "u, %s, %zu, %zu,\n",
           layout_macro(s->layout), s->bits, s->k, s->seed,
           keys == KAT_U64 ? "KAT_U64" : "KAT_BYTES", s->nkeys, len);
}

int main(void)
{
    if (sbf_isa_set(SBF_ISA_SCALAR) != SBF_OK)
        return 1;
    printf("/* Known-answer vectors of simdbloom's bit layouts: generated by\n"
           " * tests/gen_kat.c (make kat) with the scalar reference. Do not edit:\n"
           " * these bytes are the format. A layout that places keys differently is\n"
           " * a new layout id; settings may only be added. Checked by tests/test_kat.c\n"
           " * on every ISA and by tests/conformance.c under qemu-aarch64. */\n\n");
    printf("static const kat_exact kat_exact_vectors[] = {\n");
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        for (int keys = KAT_U64; keys <= KAT_BYTES; keys++) {
            const sbf_filter *f = build(&exact[i], keys);
            size_t len;
            const unsigned char *d = sbf_data(f, &len);
            head(&exact[i], keys, len);
            for (size_t at = 0; at < len; at += 32) {
                printf("      \"");
                for (size_t j = at; j < len && j < at + 32; j++)
                    printf("%02x", d[j]);
                printf("\"%s\n", at + 32 < len ? "" : " },");
            }
            sbf_free((sbf_filter *)(uintptr_t)f);
        }
    printf("};\n\n");
    printf("static const kat_digest kat_digest_vectors[] = {\n");
    for (size_t i = 0; i < sizeof digest / sizeof digest[0]; i++)
        for (int keys = KAT_U64; keys <= KAT_BYTES; keys++) {
            const sbf_filter *f = build(&digest[i], keys);
            size_t len;
            const void *d = sbf_data(f, &len);
            uint64_t h[2];
            sbf_murmur3_x64_128(d, len, 0, h);
            head(&digest[i], keys, len);
            printf("      UINT64_C(0x%016" PRIx64 "), UINT64_C(0x%016" PRIx64 ") },\n",
                   h[0], h[1]);
            sbf_free((sbf_filter *)(uintptr_t)f);
        }
    printf("};\n");
    return ferror(stdout) ? 1 : 0;
}
