/*
 * Known-answer vectors of the bit layouts (test code only).
 *
 * A filter's bit layout (which bits or counters a key touches) is part of
 * the format: a filter saved today must answer the same after any change to
 * the code. tests/gen_kat.c builds filters with the scalar reference and
 * writes tests/vectors/layouts_kat.inc: for a few (layout, bits, k, seed)
 * settings the exact filter bytes after a fixed key sequence, and for
 * larger filters a digest of the bytes. tests/test_kat.c (every ISA) and
 * tests/conformance.c (under qemu-aarch64) rebuild them and compare.
 *
 * This header holds what the generator and the checks share: the key
 * sequences and the way a filter is built. The settings live only in the
 * generated file. Every function reports (returns a code) instead of
 * asserting, so each caller fails its own way.
 */
#ifndef SBF_KAT_H_0C5B7E21
#define SBF_KAT_H_0C5B7E21

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom.h"

enum { KAT_U64 = 0, KAT_BYTES = 1 };
#define KAT_MAX_KEY 40 /* longest byte-string key */

/* One setting and its expected filter bytes (hex, sbf_data order). */
typedef struct kat_exact {
    int layout;
    uint64_t bits;
    uint32_t k;
    uint32_t seed;
    int keys;           /* KAT_U64 or KAT_BYTES */
    size_t nkeys;
    size_t len;         /* bytes of filter data */
    const char *hex;    /* 2 * len hex digits */
} kat_exact;

/* One setting and the digest of its filter bytes: sbf_murmur3_x64_128 of
 * the len bytes with seed 0. */
typedef struct kat_digest {
    int layout;
    uint64_t bits;
    uint32_t k;
    uint32_t seed;
    int keys;
    size_t nkeys;
    size_t len;
    uint64_t d1, d2;
} kat_digest;

/* splitmix64's finaliser of a counter: the keys are a function of their
 * index alone. */
static inline uint64_t kat_mix(uint64_t j)
{
    uint64_t z = j * UINT64_C(0x9e3779b97f4a7c15) + UINT64_C(0x5bf03635f0b7a1c3);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Index i of n keys names distinct key j: the last sixth of the sequence
 * repeats its first keys, so counting filters see counts above one. */
static inline uint64_t kat_distinct(size_t i, size_t n)
{
    const size_t d = n - n / 6;
    return (uint64_t)(i < d ? i : i - d);
}

/* The i-th u64 key of n: 0 and UINT64_MAX first, then mixed values. */
static inline uint64_t kat_u64(size_t i, size_t n)
{
    const uint64_t j = kat_distinct(i, n);
    return j == 0 ? 0 : j == 1 ? UINT64_MAX : kat_mix(j);
}

/* The i-th byte-string key of n into buf (KAT_MAX_KEY bytes); returns its
 * length, 0..40, so MurmurHash3's tail and body paths all occur. */
static inline size_t kat_bytes(size_t i, size_t n, unsigned char *buf)
{
    const uint64_t j = kat_distinct(i, n);
    const size_t len = (size_t)(j * 7 % (KAT_MAX_KEY + 1));
    for (size_t t = 0; t < len; t++)
        buf[t] = (unsigned char)(kat_mix((UINT64_C(1) << 40) + j * 8 + t / 8) >> (8 * (t % 8)));
    return len;
}

static inline int kat_create(int layout, uint64_t bits, uint32_t k, uint32_t seed,
                             sbf_filter **out)
{
    sbf_params p = { 0 };
    p.layout = layout;
    p.bits = bits;
    p.k = k;
    p.seed = seed;
    p.expected_n = 1000;
    return sbf_create(out, &p);
}

/*
 * Builds a setting's filter on the active ISA. how 0 is the way the
 * generator builds it: u64 keys in one sbf_add_u64 call, byte strings one
 * sbf_add at a time. how 1: u64 keys one sbf_add(&key, 8) at a time, byte
 * strings in one sbf_add_batch call. how 2: u64 keys through sbf_add_u64
 * in batches of 1, 2, 3, ... keys (byte strings as how 1).
 * Returns an sbf code (SBF_E_NOMEM also for the test's own buffers).
 */
static inline int kat_build(int layout, uint64_t bits, uint32_t k, uint32_t seed,
                            int keys, size_t n, int how, sbf_filter **out)
{
    int rc = kat_create(layout, bits, k, seed, out);
    if (rc != SBF_OK)
        return rc;
    if (keys == KAT_U64) {
        uint64_t *v = malloc((n + 1) * sizeof *v);
        if (v == NULL)
            rc = SBF_E_NOMEM;
        for (size_t i = 0; v != NULL && i < n; i++)
            v[i] = kat_u64(i, n);
        if (v != NULL && how == 0) {
            rc = sbf_add_u64(*out, v, n);
        } else if (v != NULL && how == 1) {
            for (size_t i = 0; i < n && rc >= 0; i++)
                rc = sbf_add(*out, &v[i], 8);
        } else if (v != NULL) {
            for (size_t at = 0, len = 1; at < n && rc >= 0; at += len, len++)
                rc = sbf_add_u64(*out, v + at, len < n - at ? len : n - at);
        }
        free(v);
    } else {
        unsigned char *buf = malloc(n * KAT_MAX_KEY + 1);
        const void **ptr = malloc((n + 1) * sizeof *ptr);
        size_t *lens = malloc((n + 1) * sizeof *lens);
        if (buf == NULL || ptr == NULL || lens == NULL)
            rc = SBF_E_NOMEM;
        for (size_t i = 0; rc >= 0 && i < n; i++) {
            ptr[i] = buf + i * KAT_MAX_KEY;
            lens[i] = kat_bytes(i, n, buf + i * KAT_MAX_KEY);
        }
        if (rc >= 0 && how == 0) {
            for (size_t i = 0; i < n && rc >= 0; i++)
                rc = sbf_add(*out, ptr[i], lens[i]);
        } else if (rc >= 0) {
            rc = sbf_add_batch(*out, ptr, lens, n);
        }
        free(buf);
        free(ptr);
        free(lens);
    }
    if (rc < 0) {
        sbf_free(*out);
        *out = NULL;
        return rc;
    }
    return SBF_OK;
}

/* How many of the n keys the filter answers "maybe" for (all of them, for
 * a Bloom filter); SIZE_MAX when out of memory. */
static inline size_t kat_present(const sbf_filter *f, int keys, size_t n)
{
    size_t found = 0;
    if (keys == KAT_U64) {
        uint64_t *v = malloc((n + 1) * sizeof *v);
        if (v == NULL)
            return SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            v[i] = kat_u64(i, n);
        found = sbf_contains_u64(f, v, n, NULL);
        free(v);
    } else {
        unsigned char buf[KAT_MAX_KEY];
        for (size_t i = 0; i < n; i++)
            found += sbf_contains(f, buf, kat_bytes(i, n, buf)) == 1;
    }
    return found;
}

static inline int kat_hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The first byte of data that differs from the hex string (len if none;
 * a malformed or short hex string differs where it goes wrong). */
static inline size_t kat_first_diff(const void *data, size_t len, const char *hex)
{
    const unsigned char *d = (const unsigned char *)data;
    for (size_t i = 0; i < len; i++) {
        const int hi = kat_hexval(hex[2 * i]);
        const int lo = hi < 0 ? -1 : kat_hexval(hex[2 * i + 1]);
        if (lo < 0 || d[i] != (unsigned)(hi << 4 | lo))
            return i;
    }
    return hex[2 * len] == '\0' ? len : 0;
}

/* What rebuilding one vector on the active ISA gave. */
typedef struct kat_result {
    int rc;          /* SBF_OK, or the code that stopped the build */
    int isa;         /* sbf_info's isa of the filter */
    size_t len;      /* bytes of filter data */
    size_t at;       /* exact: first byte differing from the answer (len: none) */
    size_t present;  /* keys answered "maybe" (all nkeys, or a false negative) */
    uint64_t h[2];   /* digest: sbf_murmur3_x64_128 of the bytes, seed 0 */
} kat_result;

static inline kat_result kat_measure(sbf_filter *f, int rc, int keys, size_t n,
                                     const char *hex)
{
    kat_result r;
    memset(&r, 0, sizeof r);
    r.rc = rc;
    if (rc != SBF_OK)
        return r;
    struct sbf_info info;
    r.isa = sbf_info(f, &info) == SBF_OK ? info.isa : -1;
    const void *d = sbf_data(f, &r.len);
    if (hex != NULL)
        r.at = kat_first_diff(d, r.len, hex);
    else
        sbf_murmur3_x64_128(d, r.len, 0, r.h);
    r.present = kat_present(f, keys, n);
    sbf_free(f);
    return r;
}

/* Rebuilds an exact vector the `how` way (see kat_build). It matches when
 * rc == SBF_OK, len == v->len, at == len and present == v->nkeys. */
static inline kat_result kat_run_exact(const kat_exact *v, int how)
{
    sbf_filter *f = NULL;
    const int rc = kat_build(v->layout, v->bits, v->k, v->seed, v->keys, v->nkeys, how, &f);
    return kat_measure(f, rc, v->keys, v->nkeys, v->hex);
}

/* Rebuilds a digest vector the generator's way. It matches when
 * rc == SBF_OK, len == v->len, h == (d1, d2) and present == v->nkeys. */
static inline kat_result kat_run_digest(const kat_digest *v)
{
    sbf_filter *f = NULL;
    const int rc = kat_build(v->layout, v->bits, v->k, v->seed, v->keys, v->nkeys, 0, &f);
    return kat_measure(f, rc, v->keys, v->nkeys, NULL);
}

static inline const char *kat_layout_name(int layout)
{
    switch (layout) {
    case SBF_CLASSIC: return "classic";
    case SBF_BLOCKED: return "blocked";
    case SBF_SPLIT_BLOCK: return "split-block";
    case SBF_COUNTING: return "counting";
    case SBF_PARQUET: return "parquet";
    case SBF_SPLIT_BLOCK_XXH3: return "split-block-xxh3";
    case SBF_BLOCKED_XXH3: return "blocked-xxh3";
    case SBF_COUNTING_XXH3: return "counting-xxh3";
    case SBF_SPLIT_BLOCK_FMIX: return "split-block-fmix";
    case SBF_BLOCKED_FMIX: return "blocked-fmix";
    default: return "?";
    }
}

#endif
