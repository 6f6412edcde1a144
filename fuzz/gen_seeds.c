/*
 * Writes the seeds made from issue 13's findings into the seed corpus
 * (the other seeds are copies of tests/vectors files):
 *   gen_seeds DIR   ->  DIR/guava/issue13_f1, DIR/deserialize/issue13_f2 ...
 *  f1  the 14-byte Guava buffer, classic k = 32 (shift by 32 on AVX-512)
 *  f2  version 1, classic k=1 bits=64, data byte 8 (padding) = 1
 *  f3  the 56-byte version-1 header announcing 2^37 bits with no data
 *  f4  version 2, blocked k=16, 1 block, keys added = 2^64-1 (sbf_info
 *      evaluates the formula at extreme n; the formulas themselves are
 *      issue 13's finding 4)
 * f2..f4 go to both deserialize/ and file/.
 */
#define XXH_INLINE_ALL
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "simdbloom.h"

static void le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static int put(const char *dir, const char *sub, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static void v1_sum(unsigned char *p, size_t dlen)
{
    uint64_t a[2], b[2];
    sbf_murmur3_x64_128(p, 48, 0, a);
    sbf_murmur3_x64_128(p + 56, dlen, (uint32_t)a[0], b);
    le(p + 48, b[0] ^ a[1], 8);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const char *d = argv[1];
    int bad = 0;
    static const unsigned char f1[14] = { 1, 0x20, 0, 0, 0, 1 };
    bad |= put(d, "guava", "issue13_f1", f1, sizeof f1);

    unsigned char f2[56 + 64] = { 0 };
    memcpy(f2, "SBF1", 4);
    le(f2 + 4, 1, 4);
    le(f2 + 8, SBF_CLASSIC, 4);
    le(f2 + 12, 1, 4);
    le(f2 + 24, 64, 8);
    le(f2 + 40, 64, 8);
    f2[56 + 8] = 1;
    v1_sum(f2, 64);

    unsigned char f3[56] = { 0 };
    memcpy(f3, "SBF1", 4);
    le(f3 + 4, 1, 4);
    le(f3 + 8, SBF_BLOCKED, 4);
    le(f3 + 12, 1, 4);
    le(f3 + 24, UINT64_C(1) << 37, 8);
    v1_sum(f3, 0);

    static unsigned char f4[4096 + 64];
    memcpy(f4, "SBF1", 4);
    le(f4 + 4, 2, 4);
    le(f4 + 8, SBF_BLOCKED, 4);
    le(f4 + 12, 16, 4);
    le(f4 + 24, 512, 8);
    le(f4 + 32, UINT64_MAX, 8);
    le(f4 + 40, 64, 8);
    le(f4 + 48, 4096, 8);
    memset(f4 + 4096, 0xa5, 64);
    le(f4 + 56, XXH3_64bits(f4 + 4096, 64), 8);
    le(f4 + 64, XXH3_64bits(f4, 64), 8);

    for (int i = 0; i < 2; i++) {
        const char *sub = i ? "file" : "deserialize";
        bad |= put(d, sub, "issue13_f2", f2, sizeof f2);
        bad |= put(d, sub, "issue13_f3", f3, sizeof f3);
        bad |= put(d, sub, "issue13_f4", f4, sizeof f4);
    }
    return bad;
}
