/*
 * The lane hash kernels (simd/lanes.h; the ISA table's hash_bytes,
 * xxh64_u64, xxh64_bytes, xxh3_u64, xxh3_bytes) on every compiled-in ISA, skipped where the CPU
 * lacks it: known vectors (SMHasher, Guava, xxHash's published XXH64
 * values), and against the one-key definitions (sbf_murmur3_x64_128,
 * libxxhash's XXH64) for every length 0..300, random lengths 0..1000 at
 * every alignment, mixed batches of every size 0..45 and large, and keys at
 * the edge of unreadable pages (tests/lanes_check.h). Also the public entry
 * points sbf_murmur3_x64_128_batch, sbf_xxh64, sbf_xxh64_u64, sbf_xxh64_batch.
 */
#define _DEFAULT_SOURCE 1
#include "testutil.h" /* criterion.h before parameterized.h */
#include <criterion/parameterized.h>

#include "lanes_check.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static size_t isa_params(int *out)
{
    return sbf_isa_list(out, 16);
}

static const sbfi_kernels *table(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s is not compiled in or not supported by this CPU",
                     sbf_isa_name(isa));
    const sbfi_kernels *kt = sbfi_kernels_for(isa);
    cr_assert_not_null(kt);
    cr_assert(kt->hash_bytes && kt->xxh64_u64 && kt->xxh64_bytes && kt->xxh3_u64 &&
              kt->xxh3_bytes && kt->fmix_u64 && kt->fmix_bytes,
              "%s: a NULL lane hash entry", kt->name);
    return kt;
}

#define LANES_TEST(name, desc, body)                                         \
    ParameterizedTestParameters(lanes, name)                                 \
    {                                                                        \
        static int isas[16];                                                 \
        return cr_make_param_array(int, isas, isa_params(isas));             \
    }                                                                        \
    ParameterizedTest(int *isa, lanes, name, .description = desc)            \
    {                                                                        \
        const sbfi_kernels *kt = table(*isa);                                \
        char why[LC_WHY] = "";                                               \
        (void)why; /* (tests whose body does not use it) */                  \
        body;                                                                \
    }

static int hexval(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* The 272 Guava 31.1 vectors (seed, bytes, h1, h2) of murmur3_guava.txt,
 * each hashed in a batch of 11 keys: the key at three alignments between
 * other records' keys, so every lane position sees it. */
static void guava_vectors(const sbfi_kernels *kt)
{
    FILE *fp = tu_open_vector("murmur3_guava.txt", "r");
    static char line[4096], hex[2100];
    static unsigned char key[11][1024 + 8];
    int records = 0;
    while (tu_next_line(fp, line, sizeof line)) {
        unsigned seed;
        size_t len;
        unsigned long long e1, e2;
        cr_assert_eq(sscanf(line, "%u %zu %2099s %llx %llx", &seed, &len, hex, &e1, &e2), 5);
        const void *keys[11];
        size_t lens[11];
        uint64_t h1[11], h2[11];
        for (int k = 0; k < 11; k++) {
            for (size_t i = 0; i < len; i++)
                key[k][k % 3 + i] = (unsigned char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
            keys[k] = key[k] + k % 3;
            lens[k] = len;
        }
        kt->hash_bytes(keys, lens, 11, seed, h1, h2);
        for (int k = 0; k < 11; k++) {
            cr_assert_eq(h1[k], (uint64_t)e1, "%s: seed %u len %zu lane %d h1", kt->name, seed, len, k);
            cr_assert_eq(h2[k], (uint64_t)e2, "%s: seed %u len %zu lane %d h2", kt->name, seed, len, k);
        }
        records++;
    }
    fclose(fp);
    cr_assert_eq(records, 272);
}

/* SMHasher's VerificationTest through the batch: key i (bytes 0..i-1) with
 * seed 256 - i, in a batch of 9 copies whose hashes must agree. */
static void smhasher(const sbfi_kernels *kt)
{
    unsigned char key[256], hashes[256 * 16];
    for (int i = 0; i < 256; i++) {
        const void *keys[9];
        size_t lens[9];
        uint64_t h1[9], h2[9];
        key[i] = (unsigned char)i;
        for (int k = 0; k < 9; k++) {
            keys[k] = key;
            lens[k] = (size_t)i;
        }
        kt->hash_bytes(keys, lens, 9, (uint32_t)(256 - i), h1, h2);
        for (int k = 1; k < 9; k++)
            cr_assert(h1[k] == h1[0] && h2[k] == h2[0], "%s: len %d lane %d", kt->name, i, k);
        memcpy(hashes + i * 16, h1, 8);
        memcpy(hashes + i * 16 + 8, h2, 8);
    }
    const void *all = hashes;
    const size_t len = sizeof hashes;
    uint64_t f1, f2;
    kt->hash_bytes(&all, &len, 1, 0, &f1, &f2);
    cr_assert_eq((uint32_t)f1, 0x6384BA69u, "%s: got 0x%08x", kt->name, (uint32_t)f1);
}

LANES_TEST(known_vectors, "murmur3: 272 Guava vectors in every lane, SMHasher's 0x6384BA69; "
                          "XXH64: xxHash's published values",
           guava_vectors(kt); smhasher(kt);
           cr_assert_eq(lc_xxh_published(kt, why), 0, "%s", why))

LANES_TEST(xxh64_u64, "xxh64_u64 equals XXH64 of the 8 LE bytes: batches 0..70 at offsets, 1e5 keys",
           cr_assert_eq(lc_xxh_u64(kt, 100000, why), 0, "%s", why))

LANES_TEST(xxh3_u64, "xxh3_u64 equals XXH3_64bits_withSeed of the 8 LE bytes: six seeds, "
                     "batches 0..70 at offsets, 1e5 keys",
           cr_assert_eq(lc_xxh3_u64(kt, 100000, why), 0, "%s", why))

LANES_TEST(fmix_u64, "fmix_u64 equals the reference fmix64(key ^ s) and the 8-byte string form: "
                     "six seeds, batches 0..70 at offsets, 1e5 keys",
           cr_assert_eq(lc_fmix_u64(kt, 100000, why), 0, "%s", why))

/* The fmix reference is MurmurHash3's fmix64: SMHasher's finalizer of
 * known values (fmix64(0) = 0; the constant s of seed 0 is fmix64 of the
 * golden ratio), and s is a constant of the seed alone. */
Test(lanes, fmix_reference, .description = "the fmix stage's reference: fmix64(0) = 0, "
                                           "s of seed 0, the inline header's form equal") {
    uint64_t h;
    const uint64_t zero = 0;
    sbfi_fmix_u64_scalar(&zero, 1, 0, &h);
    cr_assert_eq(h, 0u);
    const uint64_t one = 1;
    sbfi_fmix_u64_scalar(&one, 1, 0, &h);
    cr_assert_eq(h, UINT64_C(0xb456bcfc34c2cb2c)); /* fmix64(1), computed apart */
    cr_assert_eq(sbfi_fmix_s(0), UINT64_C(0x9ca066f1a4ab2eea)); /* fmix64(golden ratio) */
    cr_assert_neq(sbfi_fmix_s(0), sbfi_fmix_s(1));
    uint64_t k = UINT64_C(0x0123456789abcdef);
    for (uint32_t seed = 0; seed < 2000; seed += 37) {
        sbfi_fmix_u64_scalar(&k, 1, sbfi_fmix_s(seed), &h);
        cr_assert_eq(h, sbf__fmix_u64(k, sbfi_fmix_s(seed)), "seed %u", seed);
        k = k * UINT64_C(6364136223846793005) + 1442695040888963407u;
    }
}

/* sbf_xxh3_64 (the reference the lanes are held to) is libxxhash's
 * XXH3_64bits_withSeed, and the 8-byte form sbfi_xxh3_u64 is too. */
Test(lanes, xxh3_reference, .description = "sbf_xxh3_64 is XXH3_64bits_withSeed for lengths "
                                           "0..300 and five seeds; sbfi_xxh3_u64 for 8 bytes") {
    static const uint32_t seeds[] = { 0, 1, 0x80000000u, 0xffffffffu, 0x9747b28cu };
    unsigned char buf[300];
    uint64_t rng = 77;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)equiv_splitmix(&rng);
    for (size_t si = 0; si < 5; si++)
        for (size_t len = 0; len <= sizeof buf; len++)
            cr_assert_eq(sbf_xxh3_64(buf, len, seeds[si]),
                         (uint64_t)XXH3_64bits_withSeed(buf, len, seeds[si]), "len %zu seed %u",
                         len, seeds[si]);
    cr_assert_eq(sbf_xxh3_64(NULL, 0, 5), (uint64_t)XXH3_64bits_withSeed("", 0, 5));
    for (int i = 0; i < 10000; i++) {
        const uint64_t k = equiv_splitmix(&rng);
        const uint32_t seed = (uint32_t)equiv_splitmix(&rng);
        cr_assert_eq(sbfi_xxh3_u64(k, sbfi_xxh3_flip8(seed)),
                     (uint64_t)XXH3_64bits_withSeed(&k, 8, seed), "key %llx seed %u",
                     (unsigned long long)k, seed);
    }
}

/* xxh3_bytes against libxxhash's XXH3_64bits_withSeed itself: every length
 * 0..300 (every XXH3 length class, each in lanes and in the scalar
 * finish), random bytes and random 32-bit seeds, batches of 1..37 keys (no
 * multiple of a vector's width needed), each key at a random misalignment
 * and, every other batch, ending at an unreadable page. */
static void xxh3_direct(const sbfi_kernels *kt)
{
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    cr_assert(m != MAP_FAILED);
    unsigned char *heap = malloc(37 * 384);
    cr_assert_not_null(heap);
    uint64_t rng = 2026;
    for (size_t i = 0; i < pg; i++)
        m[i] = (unsigned char)equiv_splitmix(&rng);
    for (size_t i = 0; i < 37 * 384; i++)
        heap[i] = (unsigned char)equiv_splitmix(&rng);
    cr_assert_eq(mprotect(m + pg, pg, PROT_NONE), 0);
    size_t n = 1;
    for (size_t first = 0; first <= 300; first += 3) {
        const void *keys[37];
        size_t lens[37];
        uint64_t h[38];
        const uint32_t seed = (uint32_t)equiv_splitmix(&rng);
        for (size_t i = 0; i < n; i++) {
            lens[i] = i == 0 ? first : equiv_splitmix(&rng) % 301;
            keys[i] = first & 1 ? m + pg - lens[i]
                                : heap + 384 * i + 1 + equiv_splitmix(&rng) % 63;
        }
        h[n] = LC_SENTINEL;
        kt->xxh3_bytes(keys, lens, n, seed, h);
        cr_assert_eq(h[n], LC_SENTINEL, "%s: written past %zu keys", kt->name, n);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(h[i], (uint64_t)XXH3_64bits_withSeed(keys[i], lens[i], seed),
                         "%s: key %zu of %zu, %zu bytes, seed %u%s", kt->name, i, n, lens[i],
                         seed, first & 1 ? ", at a page end" : "");
        n = n % 37 + 1;
    }
    /* every length 0..300 in one batch of each seed, lengths in order */
    for (int s = 0; s < 4; s++) {
        static const void *keys[301];
        static size_t lens[301];
        static uint64_t h[301];
        const uint32_t seed = s == 0 ? 0 : s == 1 ? 0xffffffffu : (uint32_t)equiv_splitmix(&rng);
        for (size_t len = 0; len <= 300; len++) {
            lens[len] = len;
            keys[len] = m + pg - len;
        }
        kt->xxh3_bytes(keys, lens, 301, seed, h);
        for (size_t len = 0; len <= 300; len++)
            cr_assert_eq(h[len], (uint64_t)XXH3_64bits_withSeed(keys[len], len, seed),
                         "%s: %zu bytes, seed %u", kt->name, len, seed);
    }
    /* empty keys given as NULL (the API allows it) among others */
    const void *keys[19];
    size_t lens[19];
    uint64_t h[19];
    for (size_t i = 0; i < 19; i++) {
        lens[i] = i % 3 == 0 ? 0 : 8 + i * 3;
        keys[i] = i % 3 == 0 ? NULL : heap + 384 * i;
    }
    kt->xxh3_bytes(keys, lens, 19, 77, h);
    for (size_t i = 0; i < 19; i++)
        cr_assert_eq(h[i], (uint64_t)XXH3_64bits_withSeed(keys[i] ? keys[i] : "", lens[i], 77),
                     "%s: key %zu (%zu bytes%s)", kt->name, i, lens[i], keys[i] ? "" : ", NULL");
    free(heap);
    munmap(m, 2 * pg);
}

LANES_TEST(xxh3_bytes, "xxh3_bytes equals libxxhash's XXH3_64bits_withSeed: lengths 0..300, "
                       "random seeds, batches of 1..37, misaligned keys, keys ending at an "
                       "unreadable page, NULL empty keys",
           xxh3_direct(kt); (void)why)

LANES_TEST(batch_sizes, "batches of every size 0..45, 63..65, 100, 1000: lengths 0..20, 8..64, "
                        "80..120, 0..300",
           cr_assert_eq(lc_batches(kt, 0, 20, why), 0, "%s", why);
           cr_assert_eq(lc_batches(kt, 8, 64, why), 0, "%s", why);
           cr_assert_eq(lc_batches(kt, 80, 120, why), 0, "%s", why);
           cr_assert_eq(lc_batches(kt, 0, 300, why), 0, "%s", why))

LANES_TEST(alignments, "random lengths 0..1000 starting at every offset 0..63 of a line",
           cr_assert_eq(lc_alignments(kt, why), 0, "%s", why))

LANES_TEST(every_length, "every length 0..600 (37 keys of it), and 0..600 in one mixed batch",
           cr_assert_eq(lc_every_length(kt, 600, why), 0, "%s", why))

LANES_TEST(page_edges, "keys of 0..600 bytes (mixed, and one length a batch) ending at an "
                       "unreadable page, or starting after one: nothing read outside a key",
           cr_assert_eq(lc_page_edges(kt, 600, why), 0, "%s", why))

LANES_TEST(boundaries, "lengths at every path boundary (16, 64, 128, 256 bytes and around) "
                       "mixed in batches of 37, ending at an unreadable page or not",
           cr_assert_eq(lc_boundaries(kt, why), 0, "%s", why))

/* One 100 KB key among short ones (it finishes in scalar code), then all long. */
static void long_keys(const sbfi_kernels *kt, char *why)
{
    lc_space s;
    uint64_t rng = 31;
    unsigned char *big = malloc(100000);
    cr_assert(big != NULL && lc_alloc(&s, 20, 64));
    lc_fill(&s, 20, 0, 64, -1, &rng);
    for (size_t i = 0; i < 100000; i++)
        big[i] = (unsigned char)equiv_splitmix(&rng);
    s.keys[5] = big;
    s.lens[5] = 100000;
    cr_assert_eq(lc_compare(kt, s.keys, s.lens, 20, 9, s.h1, s.h2, s.x, "one long key", why),
                 0, "%s", why);
    for (int i = 0; i < 20; i++) {
        s.keys[i] = big + i * 1000;
        s.lens[i] = 50000 + (size_t)i * 997;
    }
    cr_assert_eq(lc_compare(kt, s.keys, s.lens, 20, 9, s.h1, s.h2, s.x, "all long", why), 0,
                 "%s", why);
    free(big);
    lc_free(&s);
}

LANES_TEST(long_keys, "a batch with one 100 KB key among short ones (scalar finish), and all long",
           long_keys(kt, why))

/* ------------------------------------------------------------ public API */

Test(lanes, one_key_murmur3, .description = "sbf_murmur3_x64_128 and the header's sbf_murmur3_bytes "
     "equal SMHasher's byte-at-a-time definition: every length 0..300 at 16 alignments, 3 seeds, "
     "and ending at / starting after an unreadable page")
{
    char why[LC_WHY];
    cr_assert_eq(lc_murmur3_scalar(300, why), 0, "%s", why);
}

Test(lanes, public_api, .description = "sbf_murmur3_x64_128_batch, sbf_xxh64, sbf_xxh64_u64, "
                                       "sbf_xxh64_batch: values, NULL handling, nothing written on error")
{
    const char *words[] = { "", "a", "hello", "http://example.com/some/long/path?q=1" };
    const void *keys[4];
    size_t lens[4];
    uint64_t h1[4], h2[4], x[4];
    for (int i = 0; i < 4; i++) {
        keys[i] = words[i];
        lens[i] = strlen(words[i]);
    }
    cr_assert_eq(sbf_murmur3_x64_128_batch(keys, lens, 4, 0, h1, h2), SBF_OK);
    cr_assert_eq(h1[2], UINT64_C(0xcbd8a7b341bd9b02)); /* test_hash.c's "hello" */
    cr_assert_eq(h2[2], UINT64_C(0x5b1e906a48ae1d19));
    cr_assert_eq(sbf_xxh64_batch(keys, lens, 4, x), SBF_OK);
    cr_assert_eq(x[0], UINT64_C(0xEF46DB3751D8E999)); /* XXH64 of "" */
    for (int i = 0; i < 4; i++)
        cr_assert_eq(x[i], sbf_xxh64(words[i], lens[i]));
    cr_assert_eq(sbf_xxh64(NULL, 0), UINT64_C(0xEF46DB3751D8E999));
    cr_assert_eq(sbf_xxh64(NULL, 5), UINT64_C(0xEF46DB3751D8E999));
    /* NULL key pointers are fine for empty keys, an error otherwise */
    keys[0] = NULL;
    cr_assert_eq(sbf_murmur3_x64_128_batch(keys, lens, 4, 0, h1, h2), SBF_OK);
    cr_assert_eq(sbf_xxh64_batch(keys, lens, 4, x), SBF_OK);
    cr_assert_eq(x[0], UINT64_C(0xEF46DB3751D8E999));
    keys[3] = NULL;
    h1[0] = h2[0] = x[0] = 42;
    cr_assert_eq(sbf_murmur3_x64_128_batch(keys, lens, 4, 0, h1, h2), SBF_E_NULL);
    cr_assert_eq(sbf_xxh64_batch(keys, lens, 4, x), SBF_E_NULL);
    cr_assert(h1[0] == 42 && h2[0] == 42 && x[0] == 42, "nothing written on error");
    cr_assert_eq(sbf_murmur3_x64_128_batch(NULL, lens, 4, 0, h1, h2), SBF_E_NULL);
    cr_assert_eq(sbf_murmur3_x64_128_batch(keys, NULL, 4, 0, h1, h2), SBF_E_NULL);
    cr_assert_eq(sbf_murmur3_x64_128_batch(keys, lens, 4, 0, NULL, h2), SBF_E_NULL);
    cr_assert_eq(sbf_xxh64_batch(keys, lens, 4, NULL), SBF_E_NULL);
    cr_assert_eq(sbf_murmur3_x64_128_batch(NULL, NULL, 0, 0, NULL, NULL), SBF_OK);
    cr_assert_eq(sbf_xxh64_batch(NULL, NULL, 0, NULL), SBF_OK);
    /* u64 keys: the 8 LE bytes; NULL or n = 0 writes nothing */
    const uint64_t k[3] = { 0, 1, UINT64_C(0x0123456789abcdef) };
    x[0] = x[1] = x[2] = x[3] = 7;
    sbf_xxh64_u64(k, 3, x);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(x[i], sbf_xxh64(&k[i], 8));
    cr_assert_eq(x[3], 7);
    sbf_xxh64_u64(NULL, 3, x);
    sbf_xxh64_u64(k, 3, NULL);
    sbf_xxh64_u64(k, 0, x + 3);
    cr_assert_eq(x[3], 7);
}

Test(lanes, public_api_every_isa, .description = "the public batch functions give the same values "
                                                 "under every available ISA")
{
    lc_space s;
    uint64_t rng = 8, ref1[200], ref2[200], refx[200], refu[200];
    uint64_t u[200];
    cr_assert(lc_alloc(&s, 200, 150));
    lc_fill(&s, 200, 0, 150, -1, &rng);
    for (int i = 0; i < 200; i++)
        u[i] = equiv_splitmix(&rng);
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    cr_assert_eq(sbf_isa_set(SBF_ISA_SCALAR), SBF_OK);
    cr_assert_eq(sbf_murmur3_x64_128_batch(s.keys, s.lens, 200, 5, ref1, ref2), SBF_OK);
    cr_assert_eq(sbf_xxh64_batch(s.keys, s.lens, 200, refx), SBF_OK);
    sbf_xxh64_u64(u, 200, refu);
    for (size_t i = 0; i < n; i++) {
        if (!sbf_isa_available(isas[i]))
            continue;
        cr_assert_eq(sbf_isa_set(isas[i]), SBF_OK);
        cr_assert_eq(sbf_murmur3_x64_128_batch(s.keys, s.lens, 200, 5, s.h1, s.h2), SBF_OK);
        cr_assert_eq(sbf_xxh64_batch(s.keys, s.lens, 200, s.x), SBF_OK);
        cr_assert_arr_eq(s.h1, ref1, sizeof ref1, "%s", sbf_isa_name(isas[i]));
        cr_assert_arr_eq(s.h2, ref2, sizeof ref2, "%s", sbf_isa_name(isas[i]));
        cr_assert_arr_eq(s.x, refx, sizeof refx, "%s", sbf_isa_name(isas[i]));
        sbf_xxh64_u64(u, 200, s.x);
        cr_assert_arr_eq(s.x, refu, sizeof refu, "%s", sbf_isa_name(isas[i]));
    }
    cr_assert_eq(sbf_isa_set(SBF_ISA_AUTO), SBF_OK);
    lc_free(&s);
}
