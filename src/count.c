/*
 * keys_added: what it counts (the keys an add changed, less the removals
 * that made their key absent), kept per filter in f->added and, for an
 * SBF_CONCURRENT filter, in per-thread stripes. Its own file because every
 * add counts (src/filter.c, src/scalar.c and the simd/ kernels through
 * sbfi_count_plain / sbfi_count_atomic) and this calls nothing back.
 */
#include "sbf_internal.h"

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

/* keys_added counts the calls that changed their key's answer: +1 for an
 * add that set a bit or raised a counter from 0 (sbf_add's 1, the count
 * the pipeline's adds return), -1 for a removal after which its key tests
 * absent. Kept mod 2^64 in f->added (plain) or in f->added plus the stripes
 * (concurrent), so one sequence of calls gives one count on either kind; a
 * sum above INT64_MAX (more removals than adds) reads 0. */
void sbfi_count_added(sbf_filter *f, uint64_t n)
{
    if (f->stripes == NULL)
        f->added += n;
    else
        (void)__atomic_fetch_add(&f->stripes[stripe_slot() * SBFI_STRIPE], n,
                                 __ATOMIC_RELAXED);
}

/* SBF_KEYS_UNKNOWN when the count is not known (Guava import, union). */
uint64_t sbfi_keys_added(const sbf_filter *f)
{
    if (__atomic_load_n(&f->added_unknown, __ATOMIC_RELAXED))
        return SBF_KEYS_UNKNOWN;
    uint64_t sum = f->added;
    if (f->stripes != NULL)
        for (unsigned i = 0; i < SBFI_NSTRIPES; i++)
            sum += __atomic_load_n(&f->stripes[i * SBFI_STRIPE], __ATOMIC_RELAXED);
    return sum > (uint64_t)INT64_MAX ? 0 : sum;
}
