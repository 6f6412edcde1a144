/*
 * The checks of the lane hash kernels (an ISA table's hash_bytes,
 * xxh64_u64, xxh64_bytes) against the one-key definitions
 * (sbf_murmur3_x64_128, sbf_xxh64 = libxxhash's XXH64), shared by the
 * Criterion suite (tests/test_lanes.c) and the plain-C conformance program
 * that runs under qemu-aarch64 (tests/conformance.c). Test code only; each
 * check returns 0 or fills `why` with its first mismatch and returns 1, so
 * each caller fails its own way.
 */
#ifndef SBF_LANES_CHECK_H_47A1D9E2
#define SBF_LANES_CHECK_H_47A1D9E2

#define _DEFAULT_SOURCE 1 /* mmap's MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simdbloom.h"
#include "sbf_internal.h"
#include "equiv.h"

#define LC_WHY 256
#define LC_SENTINEL UINT64_C(0x5a5a5a5a5a5a5a5a)

/* XXH64 (seed 0) of xxHash's sanity buffer (cli/xsum_sanity_check.c:
 * byte i is the top byte of PRIME32 * PRIME64^i), as xxHash publishes them. */
static const struct { size_t len; uint64_t h; } lc_xxh64_published[] = {
    { 0, UINT64_C(0xEF46DB3751D8E999) },   { 1, UINT64_C(0xE934A84ADB052768) },
    { 4, UINT64_C(0x9136A0DCA57457EE) },   { 14, UINT64_C(0x8282DCC4994E35C8) },
    { 222, UINT64_C(0xB641AE8CB691C174) },
};

static inline void lc_sanity_buffer(unsigned char *b, size_t len)
{
    uint64_t g = 2654435761u;
    for (size_t i = 0; i < len; i++) {
        b[i] = (unsigned char)(g >> 56);
        g *= UINT64_C(11400714785074694797);
    }
}

/* Hashes keys[0..n) with kt's three kernels (h1/h2/x have n + 1 entries: the
 * last must keep its sentinel) and compares with the one-key definitions. */
static inline int lc_compare(const sbfi_kernels *kt, const void *const *keys,
                             const size_t *lens, size_t n, uint32_t seed,
                             uint64_t *h1, uint64_t *h2, uint64_t *x,
                             const char *what, char *why)
{
    h1[n] = h2[n] = x[n] = LC_SENTINEL;
    kt->hash_bytes(keys, lens, n, seed, h1, h2);
    kt->xxh3_bytes(keys, lens, n, seed, x);
    if (x[n] != LC_SENTINEL) {
        snprintf(why, LC_WHY, "%s: %s: n %zu: an XXH3 result written past n", kt->name, what, n);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (x[i] != sbf_xxh3_64(keys[i], lens[i], seed)) {
            snprintf(why, LC_WHY, "%s: %s: xxh3 key %zu of %zu (len %zu, seed %u)", kt->name,
                     what, i, n, lens[i], seed);
            return 1;
        }
    /* the fmix stage: XXH3 but 8-byte keys fmix64(key ^ s) (the reference,
     * sbfi_fmix_bytes_scalar, one key at a time) */
    kt->fmix_bytes(keys, lens, n, seed, x);
    if (x[n] != LC_SENTINEL) {
        snprintf(why, LC_WHY, "%s: %s: n %zu: an fmix result written past n", kt->name, what, n);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t r;
        sbfi_fmix_bytes_scalar(&keys[i], &lens[i], 1, seed, &r);
        if (x[i] != r || (lens[i] != 8 && r != sbf_xxh3_64(keys[i], lens[i], seed))) {
            snprintf(why, LC_WHY, "%s: %s: fmix key %zu of %zu (len %zu, seed %u)", kt->name,
                     what, i, n, lens[i], seed);
            return 1;
        }
    }
    kt->xxh64_bytes(keys, lens, n, x);
    if (h1[n] != LC_SENTINEL || h2[n] != LC_SENTINEL || x[n] != LC_SENTINEL) {
        snprintf(why, LC_WHY, "%s: %s: n %zu: a result written past n", kt->name, what, n);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t r[2];
        sbf_murmur3_x64_128(keys[i], lens[i], seed, r);
        if (h1[i] != r[0] || h2[i] != r[1]) {
            snprintf(why, LC_WHY, "%s: %s: murmur3 key %zu of %zu (len %zu, seed %u)",
                     kt->name, what, i, n, lens[i], seed);
            return 1;
        }
        if (x[i] != sbf_xxh64(keys[i], lens[i])) {
            snprintf(why, LC_WHY, "%s: %s: xxh64 key %zu of %zu (len %zu)", kt->name,
                     what, i, n, lens[i]);
            return 1;
        }
    }
    return 0;
}

/* Work space for n keys of up to maxlen bytes each. */
typedef struct lc_space {
    unsigned char *buf;
    const void **keys;
    size_t *lens;
    uint64_t *h1, *h2, *x;
} lc_space;

static inline int lc_alloc(lc_space *s, size_t n, size_t maxlen)
{
    s->buf = malloc(n * (maxlen + 64) + 64);
    s->keys = malloc((n + 1) * sizeof *s->keys);
    s->lens = malloc((n + 1) * sizeof *s->lens);
    s->h1 = malloc((n + 1) * 8);
    s->h2 = malloc((n + 1) * 8);
    s->x = malloc((n + 1) * 8);
    return s->buf && s->keys && s->lens && s->h1 && s->h2 && s->x;
}

static inline void lc_free(lc_space *s)
{
    free(s->buf);
    free(s->keys);
    free(s->lens);
    free(s->h1);
    free(s->h2);
    free(s->x);
}

/* n keys of random lengths lo..hi, each starting at offset `align` from a
 * 64-byte boundary of the buffer (align < 0: random offsets), random bytes. */
static inline void lc_fill(lc_space *s, size_t n, size_t lo, size_t hi, int align,
                           uint64_t *rng)
{
    unsigned char *at = s->buf + (64 - (uintptr_t)s->buf % 64) % 64;
    for (size_t i = 0; i < n; i++) {
        const size_t len = lo + equiv_splitmix(rng) % (hi - lo + 1);
        const size_t off = align >= 0 ? (size_t)align : equiv_splitmix(rng) % 64;
        s->keys[i] = at + off;
        s->lens[i] = len;
        for (size_t j = 0; j < len; j++)
            at[off + j] = (unsigned char)equiv_splitmix(rng);
        at += (off + len + 63) / 64 * 64;
    }
}

/* Batches of every size 0 .. 40 and a few large ones, lengths lo..hi, with
 * random alignments; seeds 0 and 0xdeadbeef. */
static inline int lc_batches(const sbfi_kernels *kt, size_t lo, size_t hi, char *why)
{
    static const size_t big[] = { 63, 64, 65, 100, 1000 };
    lc_space s;
    uint64_t rng = 1234 + lo * 7 + hi;
    int bad = 0;
    if (!lc_alloc(&s, 1000, hi)) {
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    for (size_t n = 0; n <= 45 && !bad; n++) {
        lc_fill(&s, n, lo, hi, -1, &rng);
        bad = lc_compare(kt, s.keys, s.lens, n, (uint32_t)(n & 1 ? 0xdeadbeef : 0), s.h1,
                         s.h2, s.x, "batch sizes", why);
    }
    for (size_t b = 0; b < sizeof big / sizeof big[0] && !bad; b++) {
        lc_fill(&s, big[b], lo, hi, -1, &rng);
        bad = lc_compare(kt, s.keys, s.lens, big[b], 7, s.h1, s.h2, s.x, "large batch", why);
    }
    lc_free(&s);
    return bad;
}

/* Random lengths 0..1000 starting at every offset 0..63 from a line. */
static inline int lc_alignments(const sbfi_kernels *kt, char *why)
{
    lc_space s;
    uint64_t rng = 99;
    int bad = 0;
    if (!lc_alloc(&s, 40, 1000)) {
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    for (int a = 0; a < 64 && !bad; a++) {
        lc_fill(&s, 40, 0, 1000, a, &rng);
        bad = lc_compare(kt, s.keys, s.lens, 40, (uint32_t)a, s.h1, s.h2, s.x,
                         "every alignment", why);
    }
    lc_free(&s);
    return bad;
}

/* Every length 0..max, 37 keys of it in one batch (AVX-512 hashes 32 keys
 * together, then a partial group; 2, 4 lanes: 18, 9 groups and one key),
 * then every length in one mixed batch. */
static inline int lc_every_length(const sbfi_kernels *kt, size_t max, char *why)
{
    lc_space s;
    uint64_t rng = 5;
    int bad = 0;
    if (!lc_alloc(&s, max + 37, max)) {
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    for (size_t len = 0; len <= max && !bad; len++) {
        lc_fill(&s, 37, len, len, -1, &rng);
        bad = lc_compare(kt, s.keys, s.lens, 37, 1, s.h1, s.h2, s.x, "one length", why);
    }
    if (!bad) {
        lc_fill(&s, max + 1, 0, max, -1, &rng);
        for (size_t i = 0; i <= max; i++) /* lengths 0, 1, ..., max in order */
            s.lens[i] = i;
        bad = lc_compare(kt, s.keys, s.lens, max + 1, 2, s.h1, s.h2, s.x, "lengths in order",
                         why);
    }
    lc_free(&s);
    return bad;
}

/*
 * Keys that end where a page ends, with the next page unreadable, and keys
 * that start where a page starts after an unreadable one: a kernel that
 * reads a byte past a key's end (or before its start) faults here. Lengths
 * 0..max, mixed in batches of 37.
 */
static inline int lc_page_edges(const sbfi_kernels *kt, size_t max, char *why)
{
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    const size_t n = 37;
    unsigned char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    const void *keys[37];
    size_t lens[37];
    uint64_t h1[38], h2[38], x[38], rng = 77;
    int bad = 0;
    if (m == MAP_FAILED || max > pg) {
        snprintf(why, LC_WHY, "cannot map the guard pages");
        return 1;
    }
    for (size_t i = 0; i < pg; i++)
        m[pg + i] = (unsigned char)equiv_splitmix(&rng);
    if (mprotect(m, pg, PROT_NONE) != 0 || mprotect(m + 2 * pg, pg, PROT_NONE) != 0) {
        munmap(m, 3 * pg);
        snprintf(why, LC_WHY, "mprotect failed");
        return 1;
    }
    /* mixed lengths (first, first + 1, ...), then one length a batch (every
     * key of a group with 64 bytes left: plain loads up to the page end) */
    for (size_t first = 0; first <= 2 * max + 1 && !bad; first += first <= max ? n : 1) {
        for (size_t i = 0; i < n; i++) {
            lens[i] = first <= max ? (first + i) % (max + 1) : first - max - 1;
            keys[i] = m + 2 * pg - lens[i]; /* ends at the guard page */
        }
        bad = lc_compare(kt, keys, lens, n, 3, h1, h2, x, "keys ending at a page end", why);
        for (size_t i = 0; i < n && !bad; i++)
            keys[i] = m + pg; /* starts after the first guard page */
        if (!bad)
            bad = lc_compare(kt, keys, lens, n, 4, h1, h2, x, "keys at a page start", why);
    }
    munmap(m, 3 * pg);
    return bad;
}

/*
 * Lengths at the boundaries of the kernels' paths (16-byte blocks, 64-byte
 * chunks, AVX-512's 8 steps in lanes (128 bytes) and its cheaper masks
 * under 256 bytes), mixed at random in batches of 37, at random
 * alignments and ending at an unreadable page.
 */
static inline int lc_boundaries(const sbfi_kernels *kt, char *why)
{
    static const size_t at[] = { 0,   1,   7,   8,   9,   15,  16,  17,  31,  32,  33,  47,
                                 48,  49,  63,  64,  65,  127, 128, 129, 143, 144, 145, 255,
                                 256, 257, 319, 320, 321 };
    const size_t na = sizeof at / sizeof at[0], n = 37, pg = (size_t)sysconf(_SC_PAGESIZE);
    lc_space s;
    uint64_t rng = 4321;
    int bad = 0;
    unsigned char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    if (m == MAP_FAILED || !lc_alloc(&s, n, 321)) {
        if (m != MAP_FAILED)
            munmap(m, 2 * pg);
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    for (size_t i = 0; i < pg; i++)
        m[i] = (unsigned char)equiv_splitmix(&rng);
    if (mprotect(m + pg, pg, PROT_NONE) != 0) {
        snprintf(why, LC_WHY, "mprotect failed");
        bad = 1;
    }
    for (int round = 0; round < 300 && !bad; round++) {
        lc_fill(&s, n, 321, 321, -1, &rng); /* random bytes, random alignments */
        for (size_t i = 0; i < n; i++) {
            s.lens[i] = at[equiv_splitmix(&rng) % na];
            if (round & 1) /* ending at the unreadable page */
                s.keys[i] = m + pg - s.lens[i];
        }
        bad = lc_compare(kt, s.keys, s.lens, n, (uint32_t)round, s.h1, s.h2, s.x,
                         "boundary lengths", why);
    }
    lc_free(&s);
    munmap(m, 2 * pg);
    return bad;
}

/* xxh64_u64 against XXH64 of the 8 LE bytes: batches 0..70 at offsets, big. */
static inline int lc_xxh_u64(const sbfi_kernels *kt, size_t big, char *why)
{
    uint64_t *keys = equiv_keys(big, 4242), *h = malloc((big + 16) * 8);
    int bad = 0;
    if (keys == NULL || h == NULL) {
        free(keys);
        free(h);
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    keys[0] = 0;
    keys[1] = UINT64_MAX;
    for (size_t n = 0; n <= 70 && !bad; n++) {
        const size_t ko = n % 8, ho = (n / 8) % 8;
        h[ho + n] = LC_SENTINEL;
        kt->xxh64_u64(keys + ko, n, h + ho);
        bad = h[ho + n] != LC_SENTINEL;
        for (size_t i = 0; i < n && !bad; i++)
            bad = h[ho + i] != sbf_xxh64(&keys[ko + i], 8);
        if (bad)
            snprintf(why, LC_WHY, "%s: xxh64_u64 of %zu keys", kt->name, n);
    }
    if (!bad) {
        kt->xxh64_u64(keys, big, h);
        for (size_t i = 0; i < big && !bad; i++)
            if (h[i] != sbf_xxh64(&keys[i], 8)) {
                snprintf(why, LC_WHY, "%s: xxh64_u64 key %zu of %zu", kt->name, i, big);
                bad = 1;
            }
    }
    free(keys);
    free(h);
    return bad;
}

/* A 64-bit stage's u64 lanes (kernel fn, named name, with the per-seed
 * word word(seed)) against ref(key, seed, word, &r) one key at a time, for
 * seeds 0, 1, 2^31 and 2^32 - 1 and odd ones: batches 0..70 at offsets
 * (nothing written past a batch), then `big` keys. ref returns nonzero when
 * its own forms disagree. */
typedef int (*lc_u64_ref)(uint64_t key, uint32_t seed, uint64_t word, uint64_t *r);

static inline int lc_u64_stage(const sbfi_kernels *kt, sbfi_xxh3_u64_fn fn, const char *name,
                               uint64_t (*word)(uint32_t seed), lc_u64_ref ref,
                               uint64_t keys_seed, size_t big, char *why)
{
    static const uint32_t seeds[] = { 0, 1, 0x80000000u, 0xffffffffu, 0x9747b28cu, 12345 };
    uint64_t *keys = equiv_keys(big, keys_seed), *h = malloc((big + 16) * 8);
    int bad = 0;
    if (keys == NULL || h == NULL) {
        free(keys);
        free(h);
        snprintf(why, LC_WHY, "out of memory");
        return 1;
    }
    keys[0] = 0;
    keys[1] = UINT64_MAX;
    for (size_t si = 0; si < sizeof seeds / sizeof seeds[0] && !bad; si++) {
        const uint32_t seed = seeds[si];
        const uint64_t w = word(seed);
        for (size_t n = 0; n <= 70 && !bad; n++) {
            const size_t ko = n % 8, ho = (n / 8) % 8;
            h[ho + n] = LC_SENTINEL;
            fn(keys + ko, n, w, h + ho);
            bad = h[ho + n] != LC_SENTINEL;
            for (size_t i = 0; i < n && !bad; i++) {
                uint64_t r;
                bad = ref(keys[ko + i], seed, w, &r) || h[ho + i] != r;
            }
            if (bad)
                snprintf(why, LC_WHY, "%s: %s of %zu keys, seed %u", kt->name, name, n, seed);
        }
        if (!bad) {
            fn(keys, big, w, h);
            for (size_t i = 0; i < big && !bad; i++) {
                uint64_t r;
                if (ref(keys[i], seed, w, &r) || h[i] != r) {
                    snprintf(why, LC_WHY, "%s: %s key %zu of %zu, seed %u", kt->name, name, i,
                             big, seed);
                    bad = 1;
                }
            }
        }
    }
    free(keys);
    free(h);
    return bad;
}

/* fmix: the reference sbfi_fmix_u64_scalar, which must agree with the
 * 8-byte string form (sbfi_fmix_bytes_scalar). */
static inline uint64_t lc_fmix_word(uint32_t seed)
{
    return sbfi_fmix_s(seed);
}

static inline int lc_fmix_ref(uint64_t key, uint32_t seed, uint64_t s, uint64_t *r)
{
    uint64_t b;
    const void *kp = &key;
    const size_t eight = 8;
    sbfi_fmix_u64_scalar(&key, 1, s, r);
    sbfi_fmix_bytes_scalar(&kp, &eight, 1, seed, &b);
    return b != *r;
}

static inline int lc_fmix_u64(const sbfi_kernels *kt, size_t big, char *why)
{
    return lc_u64_stage(kt, kt->fmix_u64, "fmix_u64", lc_fmix_word, lc_fmix_ref, 4747, big, why);
}

/* xxh3: sbf_xxh3_64 of the 8 LE bytes (libxxhash's XXH3_64bits_withSeed). */
static inline uint64_t lc_xxh3_word(uint32_t seed)
{
    return sbfi_xxh3_flip8(seed);
}

static inline int lc_xxh3_ref(uint64_t key, uint32_t seed, uint64_t flip, uint64_t *r)
{
    (void)flip;
    *r = sbf_xxh3_64(&key, 8, seed);
    return 0;
}

static inline int lc_xxh3_u64(const sbfi_kernels *kt, size_t big, char *why)
{
    return lc_u64_stage(kt, kt->xxh3_u64, "xxh3_u64", lc_xxh3_word, lc_xxh3_ref, 4343, big, why);
}

/* The published XXH64 values, through xxh64_bytes (each length in a batch
 * of 9 copies) and, for 8-byte keys, xxh64_u64 of the same bytes. */
static inline int lc_xxh_published(const sbfi_kernels *kt, char *why)
{
    unsigned char buf[222];
    lc_sanity_buffer(buf, sizeof buf);
    for (size_t v = 0; v < sizeof lc_xxh64_published / sizeof lc_xxh64_published[0]; v++) {
        const void *keys[9];
        size_t lens[9];
        uint64_t x[9];
        for (int i = 0; i < 9; i++) {
            keys[i] = buf;
            lens[i] = lc_xxh64_published[v].len;
        }
        kt->xxh64_bytes(keys, lens, 9, x);
        for (int i = 0; i < 9; i++)
            if (x[i] != lc_xxh64_published[v].h) {
                snprintf(why, LC_WHY, "%s: published XXH64 of %zu bytes, lane %d", kt->name,
                         lens[i], i);
                return 1;
            }
    }
    return 0;
}

/* MurmurHash3_x64_128 transcribed from SMHasher's MurmurHash3.cpp, a byte
 * at a time (its getblock64 and tail switch as loops), with its constants
 * written out: the definition the one-key hash (wide tail loads, no switch:
 * include/simdbloom_inline.h) is held to. */
static inline uint64_t lc_rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t lc_fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    return k ^ (k >> 33);
}

static inline void lc_murmur3_ref(const unsigned char *d, size_t len, uint32_t seed,
                                  uint64_t out[2])
{
    const uint64_t c1 = UINT64_C(0x87c37b91114253d5), c2 = UINT64_C(0x4cf5ad432745937f);
    uint64_t h1 = seed, h2 = seed, k1 = 0, k2 = 0;
    const size_t nb = len / 16, t = len % 16;
    for (size_t i = 0; i < nb; i++) {
        k1 = k2 = 0;
        for (int j = 7; j >= 0; j--) {
            k1 = k1 << 8 | d[16 * i + (size_t)j];
            k2 = k2 << 8 | d[16 * i + 8 + (size_t)j];
        }
        k1 *= c1; k1 = lc_rotl(k1, 31); k1 *= c2; h1 ^= k1;
        h1 = lc_rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= c2; k2 = lc_rotl(k2, 33); k2 *= c1; h2 ^= k2;
        h2 = lc_rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    k1 = k2 = 0;
    for (size_t j = 0; j < t; j++) {
        if (j < 8)
            k1 |= (uint64_t)d[16 * nb + j] << (8 * j);
        else
            k2 |= (uint64_t)d[16 * nb + j] << (8 * (j - 8));
    }
    if (t > 8) {
        k2 *= c2; k2 = lc_rotl(k2, 33); k2 *= c1; h2 ^= k2;
    }
    if (t > 0) {
        k1 *= c1; k1 = lc_rotl(k1, 31); k1 *= c2; h1 ^= k1;
    }
    h1 ^= len; h2 ^= len;
    h1 += h2; h2 += h1;
    h1 = lc_fmix(h1); h2 = lc_fmix(h2);
    h1 += h2; h2 += h1;
    out[0] = h1;
    out[1] = h2;
}

/* sbf_murmur3_x64_128 and the header's sbf_murmur3_bytes against the
 * transcription: every length 0..max at every alignment 0..15, three seeds,
 * and every length ending at, and starting after, an unreadable page. */
static inline int lc_murmur3_scalar(size_t max, char *why)
{
    static const uint32_t seeds[] = { 0, 0x9747b28cu, 0xffffffffu };
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *buf = malloc(max + 16);
    unsigned char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    uint64_t rng = 99;
    int bad = 0;
    if (buf == NULL || m == MAP_FAILED || max > pg) {
        free(buf);
        if (m != MAP_FAILED)
            munmap(m, 3 * pg);
        snprintf(why, LC_WHY, "cannot map the guard pages");
        return 1;
    }
    for (size_t i = 0; i < max + 16; i++)
        buf[i] = (unsigned char)equiv_splitmix(&rng);
    for (size_t i = 0; i < pg; i++)
        m[pg + i] = (unsigned char)equiv_splitmix(&rng);
    if (mprotect(m, pg, PROT_NONE) != 0 || mprotect(m + 2 * pg, pg, PROT_NONE) != 0) {
        snprintf(why, LC_WHY, "mprotect failed");
        bad = 1;
    }
    for (size_t len = 0; len <= max && !bad; len++) {
        for (size_t place = 0; place < 18 && !bad; place++) {
            /* 0..15: alignments in the heap buffer; 16: ending at the
             * guard page; 17: starting after the first one */
            const unsigned char *key = place < 16 ? buf + place
                                       : place == 16 ? m + 2 * pg - len : m + pg;
            for (size_t si = 0; si < 3 && !bad; si++) {
                uint64_t r[2], a[2], b[2];
                lc_murmur3_ref(key, len, seeds[si], r);
                sbf_murmur3_x64_128(key, len, seeds[si], a);
                sbf_murmur3_bytes(key, len, seeds[si], b);
                if (a[0] != r[0] || a[1] != r[1] || b[0] != r[0] || b[1] != r[1]) {
                    const int lib = a[0] != r[0] || a[1] != r[1];
                    const uint64_t *g = lib ? a : b;
                    snprintf(why, LC_WHY, "murmur3 of %zu bytes (place %zu, seed %u): %s "
                             "%016llx %016llx, reference %016llx %016llx", len, place,
                             seeds[si], lib ? "sbf_murmur3_x64_128" : "sbf_murmur3_bytes",
                             (unsigned long long)g[0], (unsigned long long)g[1],
                             (unsigned long long)r[0], (unsigned long long)r[1]);
                    bad = 1;
                }
            }
        }
    }
    free(buf);
    munmap(m, 3 * pg);
    return bad;
}

/* Every check, for conformance.c: the number that failed (why: the last). */
static inline int lc_all(const sbfi_kernels *kt, char *why)
{
    return lc_murmur3_scalar(300, why) + lc_xxh_published(kt, why) + lc_xxh_u64(kt, 20000, why) +
           lc_xxh3_u64(kt, 20000, why) + lc_fmix_u64(kt, 20000, why) +
           lc_batches(kt, 0, 20, why) + lc_batches(kt, 8, 64, why) +
           lc_batches(kt, 0, 300, why) + lc_alignments(kt, why) +
           lc_every_length(kt, 300, why) + lc_page_edges(kt, 300, why) +
           lc_boundaries(kt, why);
}

#endif /* SBF_LANES_CHECK_H_47A1D9E2 */
