/* MurmurHash3_x64_128: the SMHasher verification value and Guava's bytes. */
#include "testutil.h"

Test(hash, smhasher_verification,
     .description = "SMHasher's VerificationTest for MurmurHash3_x64_128 gives 0x6384BA69")
{
    unsigned char key[256], hashes[256 * 16];
    for (int i = 0; i < 256; i++) {
        key[i] = (unsigned char)i;
        uint64_t h[2];
        sbf_murmur3_x64_128(key, (size_t)i, (uint32_t)(256 - i), h);
        memcpy(hashes + i * 16, h, 16); /* little-endian target */
    }
    uint64_t fin[2];
    sbf_murmur3_x64_128(hashes, sizeof hashes, 0, fin);
    cr_assert_eq((uint32_t)fin[0], 0x6384BA69u, "got 0x%08x", (uint32_t)fin[0]);
}

Test(hash, known_reference_values,
     .description = "empty key with seed 0 and 1, and 'hello' with seed 0")
{
    uint64_t h[2];
    sbf_murmur3_x64_128(NULL, 0, 0, h);
    cr_assert_eq(h[0], 0);
    cr_assert_eq(h[1], 0);
    sbf_murmur3_x64_128("", 0, 1, h);
    cr_assert_eq(h[0], UINT64_C(0x4610abe56eff5cb5));
    cr_assert_eq(h[1], UINT64_C(0x51622daa78f83583));
    sbf_murmur3_x64_128("hello", 5, 0, h);
    cr_assert_eq(h[0], UINT64_C(0xcbd8a7b341bd9b02));
    cr_assert_eq(h[1], UINT64_C(0x5b1e906a48ae1d19));
}

static int hexval(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

Test(hash, guava_vectors_all_lengths_and_seeds,
     .description = "every record of tests/vectors/murmur3_guava.txt (Guava 31.1), at 4 alignments")
{
    FILE *fp = tu_open_vector("murmur3_guava.txt", "r");
    static char line[4096];
    static unsigned char key[1024 + 8];
    int records = 0;
    while (tu_next_line(fp, line, sizeof line)) {
        unsigned seed;
        size_t len;
        static char hex[2100];
        unsigned long long e1, e2;
        cr_assert_eq(sscanf(line, "%u %zu %2099s %llx %llx", &seed, &len, hex, &e1, &e2), 5);
        for (size_t off = 0; off < 4; off++) {
            for (size_t i = 0; i < len; i++)
                key[off + i] = (unsigned char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
            uint64_t h[2];
            sbf_murmur3_x64_128(key + off, len, seed, h);
            cr_assert_eq(h[0], (uint64_t)e1, "seed %u len %zu off %zu h1", seed, len, off);
            cr_assert_eq(h[1], (uint64_t)e2, "seed %u len %zu off %zu h2", seed, len, off);
        }
        records++;
    }
    fclose(fp);
    cr_assert_eq(records, 272);
}

Test(hash, guava_u64_vectors_batched_and_single,
     .description = "Guava hashLong(v) == sbf_murmur3_x64_128 of 8 LE bytes == the batched u64 hash")
{
    FILE *fp = tu_open_vector("murmur3_guava_u64.txt", "r");
    char line[256];
    uint64_t keys[400], e1[400], e2[400];
    uint32_t seeds[400];
    int n = 0;
    while (tu_next_line(fp, line, sizeof line)) {
        unsigned seed;
        unsigned long long v, a, b;
        cr_assert_eq(sscanf(line, "%u %llx %llx %llx", &seed, &v, &a, &b), 4);
        cr_assert_lt(n, 400);
        seeds[n] = seed; keys[n] = v; e1[n] = a; e2[n] = b;
        n++;
    }
    fclose(fp);
    cr_assert_eq(n, 400);
    for (int i = 0; i < n; i++) {
        uint64_t h[2];
        sbf_murmur3_x64_128(&keys[i], 8, seeds[i], h);
        cr_assert_eq(h[0], e1[i]);
        cr_assert_eq(h[1], e2[i]);
    }
    /* Batched, per seed block of 200, at every batch length up to 200. */
    for (int blk = 0; blk < 2; blk++) {
        for (size_t len = 0; len <= 200; len += (len < 40 ? 1 : 17)) {
            uint64_t h1[200], h2[200];
            sbf_murmur3_x64_128_u64(keys + blk * 200, len, seeds[blk * 200], h1, h2);
            for (size_t i = 0; i < len; i++) {
                cr_assert_eq(h1[i], e1[blk * 200 + i], "batch len %zu lane %zu", len, i);
                cr_assert_eq(h2[i], e2[blk * 200 + i], "batch len %zu lane %zu", len, i);
            }
        }
    }
}

Test(hash, seed_is_zero_extended,
     .description = "seeds >= 2^31 follow the reference (zero-extended), unlike Guava's int")
{
    /* Reference: h1 = h2 = seed as uint64; with seed 0x80000000 and an empty key
       the result equals fmix of the zero-extended value, distinct from the
       sign-extended 0xffffffff80000000 variant. */
    uint64_t a[2], b[2];
    sbf_murmur3_x64_128("", 0, 0x80000000u, a);
    sbf_murmur3_x64_128("", 0, 0x7fffffffu, b);
    cr_assert_neq(a[0], b[0]);
    /* Recompute the zero-length case by hand: h1 = h2 = seed; h1 += h2; h2 += h1;
       fmix both; h1 += h2; h2 += h1. */
    uint64_t h1 = 0x80000000u, h2 = 0x80000000u;
    h1 += h2; h2 += h1;
    uint64_t *hs[2] = { &h1, &h2 };
    for (int i = 0; i < 2; i++) {
        uint64_t k = *hs[i];
        k ^= k >> 33; k *= UINT64_C(0xff51afd7ed558ccd);
        k ^= k >> 33; k *= UINT64_C(0xc4ceb9fe1a85ec53);
        k ^= k >> 33;
        *hs[i] = k;
    }
    h1 += h2; h2 += h1;
    cr_assert_eq(a[0], h1);
    cr_assert_eq(a[1], h2);
}
