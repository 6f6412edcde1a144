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
    case SBF_E_FLAGS: return "unknown bit in sbf_params.flags";
    case SBF_E_ODD_BLOCKS: return "fold: the filter's block count is odd (or one block)";
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
    sbfi_set_geometry(f, layout, bits, k);
    f->seed = seed;
    f->kt = kt;
    f->words = sbfi_alloc_filter(f->bytes, &f->map_bytes);
    if (f->words == NULL) {
        free(f);
        return SBF_E_NOMEM;
    }
    (void)sbfi_bind(f, 0); /* plain: allocates nothing, cannot fail */
    SBFI_ASSERT(sbfi_filter_ok(f));
    *out = f;
    return SBF_OK;
}

/* ------------------------------------- hot-path binding, SBF_CONCURRENT */

#define SBFI_NSTRIPES 16u  /* keys_added counters of a concurrent filter */
#define SBFI_STRIPE 8u     /* words per stripe: one cache line each */

int sbfi_bind(sbf_filter *f, uint32_t flags)
{
    const int l = f->lay->kernel; /* the kernels of the layout's family */
    const sbfi_kernels *kt = f->kt;
    if (flags & SBF_CONCURRENT) {
        if (f->stripes == NULL) {
            const size_t sz = SBFI_NSTRIPES * SBFI_STRIPE * sizeof(uint64_t);
            f->stripes = aligned_alloc(SBFI_LINE, sz);
            SBFI_RETURN_IF(f->stripes == NULL, SBF_E_NOMEM);
            memset(f->stripes, 0, sz);
        }
        f->add1 = kt->add_key_atomic[l];
        f->contains1 = kt->contains_key_atomic[l];
        f->addn = kt->add_u64_atomic[l];
        f->containsn = kt->contains_u64_atomic[l];
    } else {
        f->add1 = kt->add_key[l];
        f->contains1 = kt->contains_key[l];
        f->addn = kt->add_u64[l];
        f->containsn = kt->contains_u64[l];
    }
    f->flags = flags;
    return SBF_OK;
}

/* Each thread counts into one stripe (its slot, given on first use), so
 * threads adding at once do not share a cache line for the count. */
static unsigned stripe_slot(void)
{
    static unsigned next;
#if defined(__GNUC__)
    static _Thread_local unsigned slot __attribute__((tls_model("initial-exec")));
#else
    static _Thread_local unsigned slot;
#endif
    if (SBFI_UNLIKELY(slot == 0))
        slot = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % SBFI_NSTRIPES + 1;
    return slot - 1;
}

void sbfi_count_added(sbf_filter *f, uint64_t n)
{
    if (f->stripes == NULL)
        f->added += n;
    else
        (void)__atomic_fetch_add(&f->stripes[stripe_slot() * SBFI_STRIPE], n,
                                 __ATOMIC_RELAXED);
}

/* Removes count -1 (mod 2^64); a sum below zero reads as 0. */
uint64_t sbfi_keys_added(const sbf_filter *f)
{
    uint64_t sum = f->added;
    if (f->stripes == NULL)
        return sum;
    for (unsigned i = 0; i < SBFI_NSTRIPES; i++)
        sum += __atomic_load_n(&f->stripes[i * SBFI_STRIPE], __ATOMIC_RELAXED);
    return sum > (uint64_t)INT64_MAX ? 0 : sum;
}

/* Folds the stripes into f->added (exclusive access only). */
static void fold_added(sbf_filter *f, uint64_t value)
{
    f->added = value;
    if (f->stripes)
        memset(f->stripes, 0, SBFI_NSTRIPES * SBFI_STRIPE * sizeof(uint64_t));
}

int sbf_create(sbf_filter **out, const sbf_params *p)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || p == NULL, SBF_E_NULL);
    uint64_t bits;
    uint32_t k;
    SBFI_FORWARD_IF_ERROR(sbfi_geometry(p, &bits, &k));
    SBFI_RETURN_IF((p->flags & ~SBF_CONCURRENT) != 0, SBF_E_FLAGS);
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, p->layout, bits, k, p->seed, kt));
    const int e = sbfi_bind(f, p->flags);
    if (e != SBF_OK) {
        sbf_free(f);
        return e;
    }
    *out = f;
    return SBF_OK;
}

void sbf_free(sbf_filter *f)
{
    if (f == NULL)
        return;
    if (f->file_map != NULL) /* files: sbf_map */
        sbfi_unmap_file(f);
    else
        sbfi_free_filter(f->words, f->bytes, f->map_bytes);
    free(f->stripes);
    free(f);
}

void sbf_buffer_free(void *buf) { free(buf); }

/* ------------------------------------------------------------ single keys */

/* One indirect call to the kernel bound at creation: hash and probe, no
 * switch on the layout. */
int sbf_add(sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    if (SBFI_UNLIKELY(f->stripes != NULL))
        sbfi_count_added(f, 1);
    else
        f->added++;
    return f->add1(f, key, len);
}

int sbf_contains(const sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_ASSERT(sbfi_filter_ok(f));
    return f->contains1(f, key, len);
}

int sbf_remove(sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    SBFI_RETURN_IF(!sbfi_counts(f->lay), SBF_E_UNSUPPORTED);
    uint64_t h1, h2;
    sbfi_hash_key(key, len, f->seed, &h1, &h2);
    if (f->flags & SBF_CONCURRENT) {
        SBFI_RETURN_IF(!sbfi_contains_hashed_atomic(f, h1, h2), SBF_E_NOT_PRESENT);
        sbfi_counting_remove_atomic(f, h1, h2);
        sbfi_count_added(f, UINT64_MAX); /* -1 mod 2^64 */
        return SBF_OK;
    }
    SBFI_RETURN_IF(!sbfi_contains_hashed(f, h1, h2), SBF_E_NOT_PRESENT);
    sbfi_counting_remove(f, h1, h2);
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
        f->addn(f, keys, n);
    sbfi_count_added(f, n);
    return SBF_OK;
}

size_t sbf_contains_u64(const sbf_filter *f, const uint64_t *keys, size_t n,
                        uint8_t *out)
{
    if (f == NULL || (keys == NULL && n != 0))
        return SIZE_MAX;
    SBFI_ASSERT(sbfi_filter_ok(f));
    return n ? f->containsn(f, keys, n, out) : 0;
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
    const int atomic = (f->flags & SBF_CONCURRENT) != 0;
    for (size_t base = 0; base < n; base += SBFI_BATCH) {
        const size_t len = n - base < SBFI_BATCH ? n - base : SBFI_BATCH;
        for (size_t j = 0; j < len; j++) {
            sbfi_hash_key(keys[base + j], lens[base + j], f->seed, &h1[j], &h2[j]);
            sbfi_prefetch_hashed(f, h1[j], h2[j]);
        }
        for (size_t j = 0; j < len; j++) {
            if (is_add) {
                if (atomic)
                    sbfi_add_hashed_atomic(f, h1[j], h2[j]);
                else
                    sbfi_add_hashed(f, h1[j], h2[j]);
            } else {
                const int r = atomic ? sbfi_contains_hashed_atomic(f, h1[j], h2[j])
                                     : sbfi_contains_hashed(f, h1[j], h2[j]);
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
    sbfi_count_added(f, n);
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
    out->block_bits = f->lay->multiply_shift ? f->block_bytes * 8 : 0;
    out->seed = f->seed;
    out->keys_added = sbfi_keys_added(f);
    out->isa = f->kt->isa;
    double cells, set;
    if (sbfi_counts(f->lay)) {
        const unsigned char *b = (const unsigned char *)f->words;
        uint64_t nz = 0, sat = 0;
        const uint64_t ncount = f->bits / SBFI_COUNTER_BITS;
        for (uint64_t i = 0; i < ncount / 2; i++) {
            const unsigned lo = sbfi_nibble(b + i, 0), hi = sbfi_nibble(b + i, 1);
            nz += (lo != 0) + (hi != 0);
            sat += (lo == SBFI_COUNTER_MAX) + (hi == SBFI_COUNTER_MAX);
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
    out->fpp_now = sbf_fpp_theory(f, out->keys_added);
    return SBF_OK;
}

int sbf_clear(sbf_filter *f)
{
    SBFI_RETURN_IF(f != NULL && f->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_RETURN_IF(f == NULL, SBF_E_NULL);
    memset(f->words, 0, f->bytes);
    fold_added(f, 0);
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
    c->added = sbfi_keys_added(f);
    const int e = sbfi_bind(c, f->flags);
    if (e != SBF_OK) {
        sbf_free(c);
        return e;
    }
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

/* Counters of two words added per nibble, saturating at 15. */
static uint64_t nib_add_sat(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (unsigned s = 0; s < 64; s += SBFI_COUNTER_BITS) {
        const uint64_t x = ((a >> s) & SBFI_COUNTER_MAX) + ((b >> s) & SBFI_COUNTER_MAX);
        r |= (x > SBFI_COUNTER_MAX ? SBFI_COUNTER_MAX : x) << s;
    }
    return r;
}

/* The smaller of each pair of counters. */
static uint64_t nib_min(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (unsigned s = 0; s < 64; s += SBFI_COUNTER_BITS) {
        const uint64_t x = (a >> s) & SBFI_COUNTER_MAX, y = (b >> s) & SBFI_COUNTER_MAX;
        r |= (x < y ? x : y) << s;
    }
    return r;
}

/* Union into a concurrent filter: word fetch-or / CAS, src read with
 * relaxed loads (it may be a concurrent filter being added to). */
static void union_atomic(sbf_filter *dst, const sbf_filter *src)
{
    const size_t nw = dst->bytes / 8;
    for (size_t i = 0; i < nw; i++) {
        const uint64_t s = __atomic_load_n(&src->words[i], __ATOMIC_RELAXED);
        if (s == 0)
            continue;
        if (!sbfi_counts(dst->lay)) {
            sbfi_or_words_atomic(&dst->words[i], &s, 1);
            continue;
        }
        uint64_t old = __atomic_load_n(&dst->words[i], __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&dst->words[i], &old, nib_add_sat(old, s), 1,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
    }
    sbfi_count_added(dst, sbfi_keys_added(src));
}

int sbf_union(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(dst != NULL && dst->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_FORWARD_IF_ERROR(compatible(dst, src));
    if (dst->flags & SBF_CONCURRENT) {
        union_atomic(dst, src);
        return SBF_OK;
    }
    if (sbfi_counts(dst->lay)) {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] = nib_add_sat(dst->words[i], src->words[i]);
    } else {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] |= src->words[i];
    }
    const uint64_t sa = sbfi_keys_added(src);
    dst->added = dst->added + sa < dst->added ? UINT64_MAX : dst->added + sa;
    return SBF_OK;
}

int sbf_intersect(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(dst != NULL && dst->readonly, SBF_E_READONLY); /* files: sbf_map */
    SBFI_FORWARD_IF_ERROR(compatible(dst, src));
    if (sbfi_counts(dst->lay)) {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] = nib_min(dst->words[i], src->words[i]);
    } else {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] &= src->words[i];
    }
    const uint64_t da = sbfi_keys_added(dst), sa = sbfi_keys_added(src);
    fold_added(dst, sa < da ? sa : da);
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
