/*
 * Versions and error names, argument checks, single-key and variable-length
 * operations, keys_added, and set operations. A filter's life (constructor,
 * destructor, memory, info, copy) is src/lifecycle.c.
 */
#define _GNU_SOURCE 1
#include "sbf_internal.h"

#include <math.h>
#include <stdlib.h>

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
    case SBF_E_LOCKED: return "file is locked by another process";
    case SBF_E_FULL: return "the non-scaling filter holds its capacity";
    default: return "unknown error code";
    }
}

/* ------------------------------------- hot-path binding, SBF_CONCURRENT */

/* sbf_add of a read-only mapping (sbfi_bind binds it as f->add1) */
static int add1_readonly(sbf_filter *f, const void *key, size_t len)
{
    (void)f; (void)key; (void)len;
    return SBF_E_READONLY;
}

int sbfi_bind(sbf_filter *f, uint32_t flags)
{
    int mode = SBFI_MODE_PLAIN;
    if (flags & SBF_CONCURRENT) {
        SBFI_RETURN_IF(f->stripes == NULL, SBF_E_FLAGS); /* sbfi_make's */
        mode = SBFI_MODE_CONCURRENT;
    } else if ((f->hash == SBFI_HASH_XXH3 || f->hash == SBFI_HASH_FMIX) &&
               f->block_shift != 0) {
        mode = SBFI_MODE_POW2; /* the block one shift: chosen here, once */
    } else if (sbfi_hash8_vec() || f->bytes >= SBF_INL_HASH8_VEC_BYTES) {
        mode = SBFI_MODE_HASH8_VEC; /* where this CPU or this size asks for it */
    }
    /* the ISA's ops of the layout's hash stage and kernel family */
    f->ops = (*f->kt->ops)[f->hash][f->lay->kernel][mode];
    f->add1 = f->ops->add_key;
    if (mode != SBFI_MODE_CONCURRENT && f->kt->add_key_k != NULL &&
        (*f->kt->add_key_k)[f->hash][f->lay->kernel][mode] != NULL) {
        /* blocked and counting: k of 1..16 */
        SBFI_ASSERT(f->k >= 1 && f->k <= SBF_MAX_K_BLOCKED);
        f->add1 = (*f->kt->add_key_k)[f->hash][f->lay->kernel][mode][f->k]; /* k a constant */
    }
    f->contains1 = f->ops->contains_key;
    if (mode != SBFI_MODE_CONCURRENT && f->lay->kernel == SBFI_KERN_SPLIT &&
        f->kt->split_key != NULL && (*f->kt->split_key)[f->hash][mode] != NULL) {
        /* split-block, k = 8 or 16: the geometry a constant */
        SBFI_ASSERT(f->k == 8 || f->k == 16);
        const sbfi_key1 *g = &(*f->kt->split_key)[f->hash][mode][f->k == 16];
        f->add1 = g->add;
        f->contains1 = g->contains;
    }
    /* a read-only mapping's add is the refusal itself: sbf_add does not
     * test f->mem on its hot path */
    if (f->mem == SBFI_MEM_FILE)
        f->add1 = add1_readonly;
    f->flags = flags;
    return SBF_OK;
}

/* keys_added becomes value, or not known (exclusive access only). */
static void set_added(sbf_filter *f, uint64_t value, int unknown)
{
    f->added = value;
    __atomic_store_n(&f->added_unknown, unknown, __ATOMIC_RELAXED);
    if (f->stripes)
        memset(f->stripes, 0, SBFI_NSTRIPES * SBFI_STRIPE * sizeof(uint64_t));
}

/* ------------------------------------------------------------ single keys */

/* One indirect jump to the kernel bound at creation: hash and probe, no
 * switch on the layout. The hot path is the two pointer tests, both
 * predicted not taken, and the jump (a read-only mapping's f->add1 refuses
 * the add: sbfi_bind); every other case, a NULL key of length 0 too, goes
 * through the full checks of *_slow, which keep the codes and their order:
 * SBF_E_NULL for f, then SBF_E_READONLY, then SBF_E_NULL for the key. */
static int add_slow(sbf_filter *f, const void *key, size_t len)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_RETURN_IF(key == NULL && len != 0, SBF_E_NULL);
    return f->add1(f, key, len);
}

static int contains_slow(const sbf_filter *f, const void *key, size_t len)
{
    SBFI_RETURN_IF(f == NULL || (key == NULL && len != 0), SBF_E_NULL);
    return f->contains1(f, key, len);
}

int sbf_add(sbf_filter *f, const void *key, size_t len)
{
    if (SBFI_UNLIKELY(f == NULL || key == NULL))
        return add_slow(f, key, len);
    SBFI_ASSERT(sbfi_filter_ok(f));
    return f->add1(f, key, len); /* f->ops->add_key: it counts keys_added */
}

int sbf_contains(const sbf_filter *f, const void *key, size_t len)
{
    if (SBFI_UNLIKELY(f == NULL || key == NULL))
        return contains_slow(f, key, len);
    SBFI_ASSERT(sbfi_filter_ok(f));
    return f->contains1(f, key, len); /* f->ops->contains_key */
}

int sbf_remove(sbf_filter *f, const void *key, size_t len)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_RETURN_IF(key == NULL && len != 0, SBF_E_NULL);
    SBFI_RETURN_IF(!sbfi_counts(f->lay), SBF_E_UNSUPPORTED);
    uint64_t h1, h2;
    sbfi_hash_one(f, key, len, &h1, &h2);
    if (f->flags & SBF_CONCURRENT) {
        SBFI_RETURN_IF(!sbfi_contains_hashed_atomic(f, h1, h2), SBF_E_NOT_PRESENT);
        sbfi_counting_remove_atomic(f, h1, h2);
        if (!sbfi_contains_hashed_atomic(f, h1, h2)) /* its answer changed */
            sbfi_count_added(f, UINT64_MAX);          /* -1 mod 2^64 */
        return SBF_OK;
    }
    SBFI_RETURN_IF(!sbfi_contains_hashed(f, h1, h2), SBF_E_NOT_PRESENT);
    sbfi_counting_remove(f, h1, h2);
    if (!sbfi_contains_hashed(f, h1, h2))
        f->added -= 1; /* mod 2^64, as a concurrent filter's stripes */
    return SBF_OK;
}

/* ---------------------------------------------------------------- batches
 * Every form goes to the one pipeline (simd/pipeline.h) bound at creation:
 * f->ops->add_batch / contains_batch: the filter's ISA, hash stage and
 * kernel family, atomic for SBF_CONCURRENT. */

int sbf_is_error(size_t r)
{
    return r >= (size_t)-255;
}

/* Adds through the pipeline; the count of keys that changed the filter
 * (and per key in out, when not NULL). */
static size_t add_keys(sbf_filter *f, const sbfi_keys *k, size_t n, uint8_t *out)
{
    SBFI_ASSERT(sbfi_filter_ok(f));
    const size_t changed = n ? f->ops->add_batch(f, k, n, out) : 0;
    sbfi_count_added(f, changed);
    return changed;
}

int sbf_add_u64(sbf_filter *f, const uint64_t *keys, size_t n)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_RETURN_IF(keys == NULL && n != 0, SBF_E_NULL);
    const sbfi_keys k = { .kind = SBFI_KEYS_U64, .u64 = keys };
    (void)add_keys(f, &k, n, NULL);
    return SBF_OK;
}

size_t sbf_contains_u64(const sbf_filter *f, const uint64_t *keys, size_t n,
                        uint8_t *out)
{
    if (f == NULL || (keys == NULL && n != 0))
        return SIZE_MAX;
    SBFI_ASSERT(sbfi_filter_ok(f));
    const sbfi_keys k = { .kind = SBFI_KEYS_U64, .u64 = keys };
    return n ? f->ops->contains_batch(f, &k, n, out) : 0;
}

static int check_ptrs(const void *const *keys, const size_t *lens, size_t n)
{
    if (n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(keys == NULL || lens == NULL, SBF_E_NULL);
    for (size_t i = 0; i < n; i++)
        SBFI_RETURN_IF(keys[i] == NULL && lens[i] != 0, SBF_E_NULL);
    return SBF_OK;
}

int sbf_add_batch(sbf_filter *f, const void *const *keys, const size_t *lens,
                  size_t n)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    SBFI_FORWARD_IF_ERROR(check_ptrs(keys, lens, n));
    const sbfi_keys k = { .kind = SBFI_KEYS_PTRS, .ptrs = keys, .lens = lens };
    (void)add_keys(f, &k, n, NULL);
    return SBF_OK;
}

size_t sbf_contains_batch(const sbf_filter *f, const void *const *keys,
                          const size_t *lens, size_t n, uint8_t *out)
{
    if (f == NULL || check_ptrs(keys, lens, n) != SBF_OK)
        return SIZE_MAX;
    const sbfi_keys k = { .kind = SBFI_KEYS_PTRS, .ptrs = keys, .lens = lens };
    return n ? f->ops->contains_batch(f, &k, n, out) : 0;
}

/* Packed keys: offsets non-decreasing; data NULL only when all are empty. */
static int check_packed(const sbf_keys *p, size_t n)
{
    SBFI_RETURN_IF(p->offsets != NULL && p->offsets32 != NULL, SBF_E_PARAM);
    SBFI_RETURN_IF(p->offsets == NULL && p->offsets32 == NULL, SBF_E_NULL);
    for (size_t i = 0; i < n; i++) {
        const uint64_t lo = p->offsets ? p->offsets[i] : p->offsets32[i];
        const uint64_t hi = p->offsets ? p->offsets[i + 1] : p->offsets32[i + 1];
        SBFI_RETURN_IF(hi < lo, SBF_E_PARAM);
        SBFI_RETURN_IF(hi > lo && p->data == NULL, SBF_E_NULL);
    }
    return SBF_OK;
}

/* The public form as the pipeline's, checked: exactly one form, and every
 * pointer it needs. */
static int keys_form(const sbf_keys *p, sbfi_keys *k)
{
    SBFI_RETURN_IF(p == NULL, SBF_E_NULL);
    const int u = p->u64 != NULL, s = p->ptrs != NULL || p->lens != NULL,
              o = p->data != NULL || p->offsets != NULL || p->offsets32 != NULL;
    SBFI_RETURN_IF(u + s + o > 1, SBF_E_PARAM);
    memset(k, 0, sizeof *k);
    if (p->n == 0)
        return SBF_OK;
    SBFI_RETURN_IF(u + s + o == 0, SBF_E_NULL);
    if (u) {
        k->kind = SBFI_KEYS_U64;
        k->u64 = p->u64;
    } else if (s) {
        SBFI_FORWARD_IF_ERROR(check_ptrs(p->ptrs, p->lens, p->n));
        k->kind = SBFI_KEYS_PTRS;
        k->ptrs = p->ptrs;
        k->lens = p->lens;
    } else {
        SBFI_FORWARD_IF_ERROR(check_packed(p, p->n));
        k->kind = p->offsets ? SBFI_KEYS_OFF64 : SBFI_KEYS_OFF32;
        k->data = p->data;
        k->off64 = p->offsets;
        k->off32 = p->offsets32;
    }
    return SBF_OK;
}

size_t sbf_add_keys(sbf_filter *f, const sbf_keys *keys, uint8_t *changed)
{
    sbfi_keys k;
    int rc = sbfi_writable(f);
    if (rc == SBF_OK)
        rc = keys_form(keys, &k);
    if (rc != SBF_OK)
        return (size_t)rc;
    return add_keys(f, &k, keys->n, changed);
}

size_t sbf_contains_keys(const sbf_filter *f, const sbf_keys *keys, uint8_t *out)
{
    sbfi_keys k;
    const int rc = f == NULL ? SBF_E_NULL : keys_form(keys, &k);
    if (rc != SBF_OK)
        return (size_t)rc;
    SBFI_ASSERT(sbfi_filter_ok(f));
    return keys->n ? f->ops->contains_batch(f, &k, keys->n, out) : 0;
}

/* ------------------------------------------------------- info and set ops */

int sbf_clear(sbf_filter *f)
{
    SBFI_FORWARD_IF_ERROR(sbfi_writable(f));
    memset(f->words, 0, f->bytes);
    set_added(f, 0, 0);
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
    /* the union's count is not the sum: keys may be in both */
    __atomic_store_n(&dst->added_unknown, 1, __ATOMIC_RELAXED);
}

int sbf_union(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(sbfi_writable(dst) == SBF_E_READONLY, SBF_E_READONLY);
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
    set_added(dst, 0, 1); /* not the sum: keys may be in both */
    return SBF_OK;
}

int sbf_intersect(sbf_filter *dst, const sbf_filter *src)
{
    SBFI_RETURN_IF(sbfi_writable(dst) == SBF_E_READONLY, SBF_E_READONLY);
    SBFI_FORWARD_IF_ERROR(compatible(dst, src));
    if (sbfi_counts(dst->lay)) {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] = nib_min(dst->words[i], src->words[i]);
    } else {
        for (size_t i = 0; i < dst->bytes / 8; i++)
            dst->words[i] &= src->words[i];
    }
    set_added(dst, 0, 1); /* the keys in both: not known */
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
