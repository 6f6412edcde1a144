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

/*
 * The registry: every ISA this library knows, best first. Detection takes
 * the first one the CPU runs; forcing, naming and sbf_isa_list walk the same
 * list, and so do tests/test_isa.c, tests/conformance.c and the harness
 * (through sbf_isa_list). An ISA not compiled into this build keeps its
 * place as a placeholder table with no kernels.
 */
#if !defined(SBFI_HAVE_AVX512)
static const sbfi_kernels absent_avx512 = { SBFI_ID_AVX512 };
#endif
#if !defined(SBFI_HAVE_AVX2)
static const sbfi_kernels absent_avx2 = { SBFI_ID_AVX2 };
#endif
#if !defined(SBFI_HAVE_NEON)
static const sbfi_kernels absent_neon = { SBFI_ID_NEON };
#endif
#if !defined(SBFI_HAVE_SIMDE)
static const sbfi_kernels absent_simde = { SBFI_ID_SIMDE };
#endif

static const sbfi_kernels *const registry[] = {
#if defined(SBFI_HAVE_AVX512)
    &sbfi_kernels_avx512,
#else
    &absent_avx512,
#endif
#if defined(SBFI_HAVE_AVX2)
    &sbfi_kernels_avx2,
#else
    &absent_avx2,
#endif
#if defined(SBFI_HAVE_NEON)
    &sbfi_kernels_neon,
#else
    &absent_neon,
#endif
#if defined(SBFI_HAVE_SIMDE)
    &sbfi_kernels_simde,
#else
    &absent_simde,
#endif
    &sbfi_kernels_scalar,
};
#define NREG (sizeof registry / sizeof registry[0])

const sbfi_kernels *const *sbfi_registry(size_t *n)
{
    *n = NREG;
    return registry;
}

size_t sbf_isa_list(int *out, size_t cap)
{
    for (size_t i = 0; out != NULL && i < cap && i < NREG; i++)
        out[i] = registry[i]->isa;
    return NREG;
}

/* The registry entry of an ISA number (compiled in or not), else NULL. */
static const sbfi_kernels *entry(int isa)
{
    for (size_t i = 0; i < NREG; i++)
        if (registry[i]->isa == isa)
            return registry[i];
    return NULL;
}

const sbfi_kernels *sbfi_kernels_for(int isa)
{
    const sbfi_kernels *e = entry(isa);
    return e != NULL && e->hash_u64 != NULL ? e : NULL;
}

/* ------------------------------------------------------ CPU features */

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* The CPU's family when it is an AMD one (cpuid leaf 1, base + extended
 * family: 19h Zen 3/4, 1Ah Zen 5), 0 for any other vendor or machine. */
static unsigned amd_family(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    const int amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* AuthenticAMD */
    if (!amd || !__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned base = (a >> 8) & 0xf;
    return base == 0xf ? base + ((a >> 20) & 0xff) : base;
#else
    return 0;
#endif
}

int sbfi_hash8_vec_flag; /* src/sbf_internal.h */

/* AMD family 19h (Zen 3, 4) and later: their AVX-512 parts (Zen 4, 5)
 * multiply 64-bit lanes (vpmullq) in one micro-op; Intel's take three. */
static int detect_hash8_vec(void)
{
    return amd_family() >= 0x19;
}

void sbfi_hash8_vec_force(int v)
{
    __atomic_store_n(&sbfi_hash8_vec_flag, v < 0 ? detect_hash8_vec() : v != 0,
                     __ATOMIC_RELAXED);
}

int sbfi_probe8_flag; /* src/sbf_internal.h */

/* SBF_PROBE: 1 narrow, 0 wide, -1 unset or auto (the vendor's), -2 a
 * value it does not know (resolve_auto refuses it). */
static int probe8_env(void)
{
    const char *env = getenv("SBF_PROBE");
    if (env == NULL || env[0] == '\0' || strcmp(env, "auto") == 0)
        return -1;
    if (strcmp(env, "narrow") == 0)
        return 1;
    return strcmp(env, "wide") == 0 ? 0 : -2;
}

/* The batch queries' form for k <= 8 (sbfi_probe8): 16 lanes in 512-bit
 * registers on AMD family 1Ah (Zen 5), which runs 512-bit operations at
 * full width and measured the 8 lanes 1-3% slower; 8 lanes in 256-bit
 * registers everywhere else: on Intel a 512-bit vpmulld is two micro-ops,
 * and it, the shifts and the rotate of 512-bit registers all queue on port
 * 0 (llvm-mca's Sapphire Rapids model: 5.0 -> 2.7 cycles a key; Zen 4's,
 * 5.8 -> 3.5; doc/performance.md "On Intel": a model, not measured). */
static int detect_probe8(void)
{
    const int env = probe8_env();
    if (env >= 0)
        return env;
    return amd_family() < 0x1a; /* not AMD: 0 */
}

void sbfi_probe8_force(int v)
{
    __atomic_store_n(&sbfi_probe8_flag, v < 0 ? detect_probe8() : v != 0, __ATOMIC_RELAXED);
}

/* The SBFI_CPU_* features this CPU and OS provide (and, beside them, the
 * 8-byte hash's and the batch queries' forms). */
static uint32_t detect_features(void)
{
    uint32_t have = 0;
    sbfi_hash8_vec_force(-1);
    sbfi_probe8_force(-1);
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    const uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    if (avx && (xcr0 & 0x6) == 0x6) /* XMM and YMM state */
        have |= SBFI_CPU_OS_YMM;
    if ((have & SBFI_CPU_OS_YMM) && (xcr0 & 0xe0) == 0xe0)
        have |= SBFI_CPU_OS_ZMM;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return have;
    have |= ((b >> 5) & 1) ? SBFI_CPU_AVX2 : 0;
    have |= ((b >> 8) & 1) ? SBFI_CPU_BMI2 : 0;
    have |= ((b >> 16) & 1) ? SBFI_CPU_AVX512F : 0;
    have |= ((b >> 17) & 1) ? SBFI_CPU_AVX512DQ : 0;
    have |= ((b >> 30) & 1) ? SBFI_CPU_AVX512BW : 0;
    have |= ((b >> 31) & 1) ? SBFI_CPU_AVX512VL : 0;
#elif defined(__aarch64__)
    if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
        have |= SBFI_CPU_ASIMD;
#endif
    return have;
}

/* Detected once; racing first calls compute the same value. */
#define FEATURES_KNOWN (1u << 31)
static _Atomic uint32_t g_features;

static uint32_t cpu_features(void)
{
    uint32_t f = atomic_load_explicit(&g_features, memory_order_relaxed);
    if (!(f & FEATURES_KNOWN)) {
        f = detect_features() | FEATURES_KNOWN;
        atomic_store_explicit(&g_features, f, memory_order_relaxed);
    }
    return f;
}

static int runs_here(const sbfi_kernels *e)
{
    return e != NULL && e->hash_u64 != NULL && (e->features & ~cpu_features()) == 0;
}

int sbf_isa_available(int isa)
{
    if (isa == SBF_ISA_AUTO)
        return 1;
    return runs_here(entry(isa));
}

const char *sbf_isa_name(int isa)
{
    if (isa == SBF_ISA_AUTO)
        return "auto";
    const sbfi_kernels *e = entry(isa);
    return e != NULL ? e->name : "unknown";
}

int sbf_isa_from_name(const char *name)
{
    if (name == NULL)
        return SBF_E_ISA_UNKNOWN;
    if (strcmp(name, "auto") == 0)
        return SBF_ISA_AUTO;
    for (size_t i = 0; i < NREG; i++)
        if (strcmp(name, registry[i]->name) == 0)
            return registry[i]->isa;
    return SBF_E_ISA_UNKNOWN;
}

/* The first ISA of the registry this CPU runs (scalar runs everywhere). */
static int best_isa(void)
{
    for (size_t i = 0; i < NREG; i++)
        if (runs_here(registry[i]))
            return registry[i]->isa;
    return SBF_ISA_SCALAR;
}

/* From the environment, else the best the CPU has; or an error code. */
static int resolve_auto(void)
{
    if (probe8_env() == -2) /* SBF_PROBE names no form */
        return SBF_E_ISA_UNKNOWN;
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
    if (isa != SBF_ISA_AUTO && entry(isa) == NULL)
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
    SBFI_ASSERT(k->isa == c && k->hash_u64 != NULL && runs_here(k));
    *out = k;
    return SBF_OK;
}

void sbf_murmur3_x64_128_u64(const uint64_t *keys, size_t n, uint32_t seed,
                             uint64_t *h1, uint64_t *h2)
{
    if (n == 0 || keys == NULL || h1 == NULL || h2 == NULL)
        return;
    /* When the ISA choice is an error (SBF_ISA names an unknown or
     * unavailable ISA), the scalar reference computes the same values: the
     * documented answer (simdbloom.h), as the function cannot fail. */
    const sbfi_kernels *k = &sbfi_kernels_scalar;
    (void)sbfi_kernels_current(&k);
    k->hash_u64(keys, n, seed, h1, h2);
}
