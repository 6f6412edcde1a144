/*
 * Filter life cycle, argument checks, single-key and variable-length
 * operations, information and set operations.
 */
#define _GNU_SOURCE 1
#include "sbf_internal.h"

#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

_Static_assert(sizeof(uint64_t) * 8 == SBFI_LINE, "a block is 8 words");
_Static_assert(SBF_BLOCK_BITS == SBFI_LINE * 8, "512-bit blocks");

unsigned sbf_version(void) { return SBF_VERSION_NUMBER; }

#define SBFI_STR2(x) #x
#define SBFI_STR(x) SBFI_STR2(x)
const char *sbf_version_string(void)
{
    return SBFI_STR(SBF_VERSION_MAJOR) "." SBFI_STR(SBF_VERSION_MINOR) "."
           SBFI_STR(SBF_VERSION_RELEASE);
}

const char *sbf_strerror(int code)
{
    switch (code) {
    case SBF_OK: return "success";
    case SBF_E_NULL: return "a required pointer argument is NULL";
    case SBF_E_FPP: return "false-positive rate must be a number in (0, 1)";
    case SBF_E_LAYOUT: return "unknown filter layout";
    case SBF_E_TOO_LARGE: return "bit count overflows or exceeds the maximum filter size";
    case SBF_E_K: return "number of hash functions out of range for the layout";
    case SBF_E_NOMEM: return "out of memory";
    case SBF_E_TRUNCATED: return "serialized filter is truncated";
    case SBF_E_TRAILING: return "serialized filter has trailing bytes";
    case SBF_E_STRATEGY: return "unknown Guava strategy (only MURMUR128_MITZ_64 = 1)";
    case SBF_E_WORDCOUNT: return "serialized word count is not positive";
    case SBF_E_INCOMPATIBLE: return "filters differ in layout, size, k or seed";
    case SBF_E_UNSUPPORTED: return "operation not supported by this filter's layout";
    case SBF_E_NOT_PRESENT: return "key is not in the filter";
    case SBF_E_ISA_UNKNOWN: return "unknown instruction set name or number";
    case SBF_E_ISA_UNAVAILABLE: return "instruction set not compiled in or not supported by this CPU";
    case SBF_E_PARAM: return "invalid argument";
    case SBF_E_FORMAT: return "serialized filter is corrupt";
    case SBF_E_VERSION: return "serialized filter has an unknown format version";
    case SBF_E_READONLY: return "filter is a read-only mapping";
    case SBF_E_IO: return "file input/output failed";
    case SBF_E_ENDIAN: return "file format is little endian and this host is not";
    default: return "unknown error code";
    }
}

/* ------------------------------------------------------------------ memory */

void *sbfi_alloc_filter(size_t bytes, size_t *map_bytes)
{
    *map_bytes = 0;
    if (bytes < SBFI_HUGE) {
        void *p = aligned_alloc(SBFI_LINE, bytes);
        if (p)
            memset(p, 0, bytes);
        return p;
    }
    /* 2 MiB aligned so transparent huge pages can back all of it. */
    const size_t len = (bytes + SBFI_HUGE - 1) / SBFI_HUGE * SBFI_HUGE;
    if (len < bytes || len + SBFI_HUGE < len)
        return NULL;
    unsigned char *raw = mmap(NULL, len + SBFI_HUGE, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    const uintptr_t a = ((uintptr_t)raw + SBFI_HUGE - 1) & ~(uintptr_t)(SBFI_HUGE - 1);
    unsigned char *p = (unsigned char *)a;
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + SBFI_HUGE)
        munmap(p + len, (size_t)(raw + len + SBFI_HUGE - (p + len)));
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, len, MADV_HUGEPAGE); /* advice only; may be refused */
#endif
    *map_bytes = len;
    return p;
}

void sbfi_free_filter(void *p, size_t bytes, size_t map_bytes)
{
    (void)bytes;
    if (p == NULL)
        return;
    if (map_bytes)
        munmap(p, map_bytes);
    else
        free(p);
}

/* Makes a filter of exactly this geometry (bits already a granule multiple).
 * A geometry the layout does not allow never reaches a kernel. */
int sbfi_make(sbf_filter **out, int layout, uint64_t bits, uint32_t k,
              uint32_t seed, const sbfi_kernels *kt)
{
    SBFI_FORWARD_IF_ERROR(sbfi_check_geometry(layout, bits, k));
    sbf_filter *f = calloc(1, sizeof *f);
    SBFI_RETURN_IF(f == NULL, SBF_E_NOMEM);
    f->layout = layout;
    f->bits = bits;
    f->k = k;
    f->seed = seed;
    f->kt = kt;
    if (layout == SBF_CLASSIC) {
        f->block_bytes = 8;
        f->nblocks = bits;
    } else {
        f->block_bytes = (uint32_t)(sbfi_granule_bits(layout, k) / 8);
        f->nblocks = bits / sbfi_granule_bits(layout, k);
    }
    f->bytes = sbfi_data_bytes(bits);
    f->words = sbfi_alloc_filter(f->bytes, &f->map_bytes);
    if (f->words == NULL) {
        free(f);
        return SBF_E_NOMEM;
    }
    SBFI_ASSERT(sbfi_filter_ok(f));
    *out = f;
    return SBF_OK;
}

int sbf_create(sbf_filter **out, const sbf_params *p)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || p == NULL, SBF_E_NULL);
    uint64_t bits;
    uint32_t k;
    SBFI_FORWARD_IF_ERROR(sbfi_geometry(p, &bits, &k));
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    return sbfi_make(out, p->layout, bits, k, p->seed, kt);
}

void sbf_free(sbf_filter *f)
{
    if (f == NULL)
        return;
    if (f->file_map != NULL) /* files: sbf_map */
        sbfi_unmap_file(f);
    else
        sbfi_free_filter(f->words, f->bytes, f->map_bytes);
    free(f);
}

void sbf_buffer_free(void *buf) { free(buf); }

/* ------------------------------------------------------------ single keys */

int sbf_add(sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    uint64_t h[2];
    sbf_murmur3_x64_128(key, len, f->seed, h);
    f->added++;
    return sbfi_add_hashed(f, h[0], h[1]);
}

int sbf_contains(const sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    uint64_t h[2];
    sbf_murmur3_x64_128(key, len, f->seed, h);
    return sbfi_contains_hashed(f, h[0], h[1]);
}

int sbf_remove(sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_RETURN_IF(f->layout != SBF_COUNTING, SBF_E_UNSUPPORTED);
    uint64_t h[2];
    sbf_murmur3_x64_128(key, len, f->seed, h);
    SBFI_RETURN_IF(!sbfi_contains_hashed(f, h[0], h[1]), SBF_E_NOT_PRESENT);
    sbfi_counting_remove(f, h[0], h[1]);
    if (f->added)
        f->added--;
    return SBF_OK;
}

/* ---------------------------------------------------------------- batches */

int sbf_add_u64(sbf_filter *f, const uint64_t *keys, size_t n)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL || (keys == NULL && n != 0), SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    if (n)
        f->kt->add_u64[f->layout](f, keys, n);
    f->added += n;
    return SBF_OK;
}

size_t sbf_contains_u64(const sbf_filter *f, const uint64_t *keys, size_t n,
                        uint8_t *out)
{
    if (f == NULL || (keys == NULL && n != 0))
        return SIZE_MAX;
    SBFI_ASSERT(sbfi_filter_ok(f));
    return n ? f->kt->contains_u64[f->layout](f, keys, n, out) : 0;
}

int sbf_is_error(size_t r)
{
    return r >= (size_t)-255;
}

static int check_batch(const void *const *keys, const size_t *lens, size_t n)
{
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(keys == NULL || lens == NULL, SBF_E_NULL);
    for (size_t i = 0; i < n; i++)
        SBFI_RETURN_IF(keys[i] == NULL && lens[i] != 0, SBF_E_NULL);
    return SBF_OK;
}

/* Variable-length keys: scalar hashing, pipelined memory accesses. */
static size_t batch(sbf_filter *f, const void *const *keys, const size_t *lens,
                    size_t n, uint8_t *out, int is_add)
{
    uint64_t h1[SBFI_BATCH], h2[SBFI_BATCH];
    size_t found = 0;
    for (size_t base = 0; base < n; base += SBFI_BATCH) {
        const size_t len = n - base < SBFI_BATCH ? n - base : SBFI_BATCH;
        for (size_t j = 0; j < len; j++) {
            uint64_t h[2];
            sbf_murmur3_x64_128(keys[base + j], lens[base + j], f->seed, h);
            h1[j] = h[0];
            h2[j] = h[1];
            sbfi_prefetch_hashed(f, h[0], h[1]);
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                sbfi_add_hashed(f, h1[j], h2[j]);
            } else {
                const int r = sbfi_contains_hashed(f, h1[j], h2[j]);
                found += (size_t)r;
                if (out)
                    out[base + j] = (uint8_t)r;
            }
        }
    }
    return found;
}

int sbf_add_batch(sbf_filter *f, const void *const *keys, const size_t *lens,
                  size_t n)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL, SBF_E_NULL);
    SBFI_FORWARD_IF_ERROR(check_batch(keys, lens, n));
    (void)batch(f, keys, lens, n, NULL, 1);
    f->added += n;
    return SBF_OK;
}

size_t sbf_contains_batch(const sbf_filter *f, const void *const *keys,
                          const size_t *lens, size_t n, uint8_t *out)
{
    if (f == NULL || check_batch(keys, lens, n) != SBF_OK)
        return SIZE_MAX;
    return batch((sbf_filter *)(uintptr_t)f, keys, lens, n, out, 0);
}

/* ------------------------------------------------------- info and set ops */

static uint64_t popcount_words(const uint64_t *w, size_t nwords)
{
    uint64_t c = 0;
    for (size_t i = 0; i < nwords; i++)
        c += (uint64_t)__builtin_popcountll(w[i]);
    return c;
}

int sbf_info(const sbf_filter *f, struct sbf_info *out)
{
    SBFI_RETURN_IF(f == NULL || out == NULL, SBF_E_NULL);
    memset(out, 0, sizeof *out);
    out->layout = f->layout;
    out->bits = f->bits;
    out->bytes = f->bytes;
    out->k = f->k;
    out->block_bits = f->layout == SBF_CLASSIC ? 0 : f->block_bytes * 8;
    out->seed = f->seed;
    out->keys_added = f->added;
    out->isa = f->kt->isa;
    double cells, set;
    if (f->layout == SBF_COUNTING) {
        const unsigned char *b = (const unsigned char *)f->words;
        uint64_t nz = 0, sat = 0;
        const uint64_t ncount = f->bits / 4;
        for (uint64_t i = 0; i < ncount / 2; i++) {
            const unsigned lo = b[i] & 15u, hi = b[i] >> 4;
            nz += (lo != 0) + (hi != 0);
            sat += (lo == 15) + (hi == 15);
        }
        out->saturated = sat;
        cells = (double)ncount;
        set = (double)nz;
    } else {
        cells = (double)f->bits;
        /* the used words only: an unverified mapping may hold padding bits */
        set = (double)popcount_words(f->words, (size_t)(f->bits / 64));
    }
    out->fill_ratio = set / cells;
    out->est_cardinality = set >= cells ? INFINITY
                                        : -(cells / f->k) * log1p(-set / cells);
    out->fpp_now = sbf_fpp_theory(f, f->added);
    return SBF_OK;
}

int sbf_clear(sbf_filter *f)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL, SBF_E_NULL);
    memset(f->words, 0, f->bytes);
    f->added = 0;
    return SBF_OK;
}

int sbf_copy(sbf_filter **out, const sbf_filter *f)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || f == NULL, SBF_E_NULL);
    sbf_filter *c;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&c, f->layout, f->bits, f->k, f->seed, f->kt));
    memcpy(c->words, f->words, f->bytes);
    c->added = f->added;
    *out = c;
    return SBF_OK;
}

static int compatible(const sbf_filter *a, const sbf_filter *b)
{
    SBFI_RETURN_IF(a == NULL || b == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(a->layout != b->layout || a->bits != b->bits || a->k != b->k ||
                   a->seed != b->seed, SBF_E_INCOMPATIBLE);
    SBFI_ASSERT(sbfi_filter_ok(a) && sbfi_filter_ok(b) && a->bytes == b->bytes);
    return SBF_OK;
}

int sbf_union(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(dst != NULL && dst->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_FORWARD_IF_ERROR(compatible(dst, src));
    if (dst->layout == SBF_COUNTING) {
        unsigned char *d = (unsigned char *)dst->words;
        const unsigned char *s = (const unsigned char *)src->words;
        for (size_t i = 0; i < dst->bytes; i++) {
            unsigned lo = (d[i] & 15u) + (s[i] & 15u);
            unsigned hi = (unsigned)(d[i] >> 4) + (unsigned)(s[i] >> 4);
            d[i] = (unsigned char)((lo > 15 ? 15 : lo) | (hi > 15 ? 15 : hi) << 4);
        }
    } else {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] |= src->words[i];
    }
    dst->added = dst->added + src->added < dst->added ? UINT64_MAX
                                                      : dst->added + src->added;
    return SBF_OK;
}

int sbf_intersect(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(dst != NULL && dst->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_FORWARD_IF_ERROR(compatible(dst, src));
    if (dst->layout == SBF_COUNTING) {
        unsigned char *d = (unsigned char *)dst->words;
        const unsigned char *s = (const unsigned char *)src->words;
        for (size_t i = 0; i < dst->bytes; i++) {
            const unsigned lo = (d[i] & 15u) < (s[i] & 15u) ? (d[i] & 15u) : (s[i] & 15u);
            const unsigned hi = (d[i] >> 4) < (s[i] >> 4) ? (d[i] >> 4) : (s[i] >> 4);
            d[i] = (unsigned char)(lo | hi << 4);
        }
    } else {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] &= src->words[i];
    }
    if (src->added < dst->added)
        dst->added = src->added;
    return SBF_OK;
}

const void *sbf_data(const sbf_filter *f, size_t *len)
{
    if (f == NULL) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = f->bytes;
    return f->words;
}

double sbf_fpp_theory(const sbf_filter *f, uint64_t n)
{
    if (f == NULL)
        return NAN;
    return sbf_fpp_layout(f->layout, n, f->bits, f->k);
}
