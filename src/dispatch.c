/*
 * Run-time choice of kernels. Built for the baseline architecture: it must
 * never execute an instruction the CPU lacks, so it refuses vector flags.
 *
 * Detection is CPUID + XGETBV on x86 (the OS must save YMM/ZMM state, not
 * only the CPU support it) and hwcaps on aarch64. The choice is resolved
 * once, on first use, into an atomic; SBF_ISA in the environment or
 * sbf_isa_set() force one, and forcing an ISA the CPU lacks is an error.
 */
#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#  error "dispatch.c must be compiled for the baseline CPU (no -mavx*)"
#endif
#define _GNU_SOURCE 1
#include "sbf_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#  include <cpuid.h>
#elif defined(__aarch64__)
#  include <sys/auxv.h>
#  ifndef HWCAP_ASIMD
#    define HWCAP_ASIMD (1 << 1)
#  endif
#endif

static const char *const isa_names[] = {
    "auto", "scalar", "simde", "avx2", "avx512", "neon",
};
#define NISA ((int)(sizeof isa_names / sizeof isa_names[0]))

const sbfi_kernels *sbfi_kernels_for(int isa)
{
    switch (isa) {
    case SBF_ISA_SCALAR: return &sbfi_kernels_scalar;
#if defined(SBFI_HAVE_SIMDE)
    case SBF_ISA_SIMDE: return &sbfi_kernels_simde;
#endif
#if defined(SBFI_HAVE_AVX2)
    case SBF_ISA_AVX2: return &sbfi_kernels_avx2;
#endif
#if defined(SBFI_HAVE_AVX512)
    case SBF_ISA_AVX512: return &sbfi_kernels_avx512;
#endif
#if defined(SBFI_HAVE_NEON)
    case SBF_ISA_NEON: return &sbfi_kernels_neon;
#endif
    default: return NULL;
    }
}

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* Does this CPU (and OS) run the ISA's instructions? */
static int cpu_has(int isa)
{
    switch (isa) {
    case SBF_ISA_SCALAR:
    case SBF_ISA_SIMDE:
        return 1;
#if defined(__x86_64__)
    case SBF_ISA_AVX2:
    case SBF_ISA_AVX512: {
        unsigned a, b, c, d;
        if (!__get_cpuid(1, &a, &b, &c, &d))
            return 0;
        const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
        if (!osxsave || !avx)
            return 0;
        const uint64_t xcr0 = xgetbv0();
        if ((xcr0 & 0x6) != 0x6) /* XMM and YMM state */
            return 0;
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
            return 0;
        const int avx2 = (b >> 5) & 1, bmi2 = (b >> 8) & 1;
        if (isa == SBF_ISA_AVX2)
            return avx2 && bmi2;
        const int f = (b >> 16) & 1, dq = (b >> 17) & 1;
        const int bw = (b >> 30) & 1, vl = (b >> 31) & 1;
        return avx2 && bmi2 && f && dq && bw && vl &&
               (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM_Hi256, Hi16_ZMM */
    }
#endif
#if defined(__aarch64__)
    case SBF_ISA_NEON:
        return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#endif
    default:
        return 0;
    }
}

int sbf_isa_available(int isa)
{
    if (isa == SBF_ISA_AUTO)
        return 1;
    return sbfi_kernels_for(isa) != NULL && cpu_has(isa);
}

const char *sbf_isa_name(int isa)
{
    return isa >= 0 && isa < NISA ? isa_names[isa] : "unknown";
}

int sbf_isa_from_name(const char *name)
{
    if (name == NULL)
        return SBF_E_ISA_UNKNOWN;
    for (int i = 0; i < NISA; i++)
        if (strcmp(name, isa_names[i]) == 0)
            return i;
    return SBF_E_ISA_UNKNOWN;
}

static int best_isa(void)
{
    static const int order[] = { SBF_ISA_AVX512, SBF_ISA_AVX2, SBF_ISA_NEON,
                                 SBF_ISA_SIMDE, SBF_ISA_SCALAR };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (sbf_isa_available(order[i]))
            return order[i];
    return SBF_ISA_SCALAR;
}

/* From the environment, else the best the CPU has; or an error code. */
static int resolve_auto(void)
{
    const char *env = getenv("SBF_ISA");
    if (env == NULL || env[0] == '\0')
        return best_isa();
    const int isa = sbf_isa_from_name(env);
    if (isa < 0)
        return SBF_E_ISA_UNKNOWN;
    if (isa == SBF_ISA_AUTO)
        return best_isa();
    return sbf_isa_available(isa) ? isa : SBF_E_ISA_UNAVAILABLE;
}

#define UNRESOLVED INT32_MIN
static _Atomic int g_choice = UNRESOLVED; /* an sbf_isa, or an error code */

int sbf_isa_active(void)
{
    int c = atomic_load_explicit(&g_choice, memory_order_acquire);
    if (c == UNRESOLVED) {
        int expected = UNRESOLVED;
        const int r = resolve_auto();
        /* Racing first calls resolve to the same value; keep the first. */
        if (atomic_compare_exchange_strong(&g_choice, &expected, r))
            c = r;
        else
            c = expected;
    }
    return c;
}

int sbf_isa_set(int isa)
{
    if (isa < 0 || isa >= NISA)
        return SBF_E_ISA_UNKNOWN;
    if (isa == SBF_ISA_AUTO) {
        atomic_store_explicit(&g_choice, UNRESOLVED, memory_order_release);
        return SBF_OK;
    }
    if (!sbf_isa_available(isa))
        return SBF_E_ISA_UNAVAILABLE;
    atomic_store_explicit(&g_choice, isa, memory_order_release);
    return SBF_OK;
}

int sbfi_kernels_current(const sbfi_kernels **out)
{
    const int c = sbf_isa_active();
    if (c < 0)
        return c;
    const sbfi_kernels *k = sbfi_kernels_for(c);
    if (k == NULL)
        return SBF_E_ISA_UNAVAILABLE;
    *out = k;
    return SBF_OK;
}

void sbf_murmur3_x64_128_u64(const uint64_t *keys, size_t n, uint32_t seed,
                             uint64_t *h1, uint64_t *h2)
{
    if (n == 0 || keys == NULL || h1 == NULL || h2 == NULL)
        return;
    const sbfi_kernels *k = &sbfi_kernels_scalar;
    (void)sbfi_kernels_current(&k); /* on error: the scalar reference */
    k->hash_u64(keys, n, seed, h1, h2);
}
