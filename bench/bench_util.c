/*
 * Keys, clocks, progress and machine information for the harness.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>

/* ------------------------------------------------------------------ keys */

/* splitmix64's output function: a bijection of 64-bit words. */
uint64_t sbfb_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* i -> i * odd + c is a bijection, and so is the mix: distinct i give
 * distinct keys, which is what "negative lookup" relies on. */
uint64_t sbfb_key(uint64_t seed, uint64_t i)
{
    return sbfb_mix(i * GOLDEN + sbfb_mix(seed));
}

void sbfb_keys(uint64_t seed, uint64_t first, size_t n, uint64_t *out)
{
    const uint64_t c = sbfb_mix(seed);
    for (size_t i = 0; i < n; i++)
        out[i] = sbfb_mix((first + i) * GOLDEN + c);
}

void sbfb_keys_random(uint64_t seed, uint64_t stream, uint64_t lo, uint64_t range,
                      size_t n, uint64_t *out)
{
    sbfb_rng r;
    sbfb_rng_seed(&r, seed ^ sbfb_mix(stream + 0x5bd1e995u));
    const uint64_t c = sbfb_mix(seed);
    for (size_t i = 0; i < n; i++) {
        const uint64_t j = (uint64_t)(((unsigned __int128)sbfb_rng_next(&r) * range) >> 64);
        out[i] = sbfb_mix((lo + j) * GOLDEN + c);
    }
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void sbfb_rng_seed(sbfb_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = sbfb_mix(seed + (uint64_t)(i + 1) * GOLDEN);
}

uint64_t sbfb_rng_next(sbfb_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t out = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* String i: 8..64 bytes, all drawn from a generator seeded by key(i). */
int sbfb_strs_make(sbfb_strs *s, uint64_t seed, uint64_t first, size_t n)
{
    memset(s, 0, sizeof *s);
    const uint64_t sseed = seed ^ UINT64_C(0x737472696e677321);
    size_t total = 0;
    s->len = sbfb_xmalloc(n * sizeof *s->len);
    s->ptr = sbfb_xmalloc(n * sizeof *s->ptr);
    for (size_t i = 0; i < n; i++) {
        s->len[i] = 8 + (size_t)(sbfb_key(sseed, first + i) % 57);
        total += s->len[i];
    }
    s->arena = sbfb_xmalloc(total + 8);
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        sbfb_rng r;
        sbfb_rng_seed(&r, sbfb_key(sseed ^ 1, first + i));
        for (size_t j = 0; j < s->len[i]; j += 8) {
            const uint64_t w = sbfb_rng_next(&r);
            memcpy(s->arena + off + j, &w, 8); /* arena has 8 spare bytes */
        }
        s->ptr[i] = s->arena + off;
        off += s->len[i];
    }
    s->n = n;
    return 0;
}

void sbfb_strs_free(sbfb_strs *s)
{
    free(s->arena);
    free(s->ptr);
    free(s->len);
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- memory */

int sbfb_isas(int *out, int cap, int available_only)
{
    int all[32];
    size_t n = sbf_isa_list(all, sizeof all / sizeof all[0]);
    if (n > sizeof all / sizeof all[0])
        n = sizeof all / sizeof all[0];
    int k = 0;
    for (size_t i = n; i-- > 0 && k < cap;)
        if (!available_only || sbf_isa_available(all[i]))
            out[k++] = all[i];
    return k;
}

void *sbfb_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "sbf-bench: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

#define HUGE_SZ ((size_t)2 << 20)

void *sbfb_alloc_huge(size_t bytes)
{
    const size_t len = (bytes + HUGE_SZ - 1) / HUGE_SZ * HUGE_SZ;
    unsigned char *raw = mmap(NULL, len + HUGE_SZ, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    unsigned char *p = (unsigned char *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + HUGE_SZ)
        munmap(p + len, (size_t)(raw + len + HUGE_SZ - (p + len)));
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void sbfb_free_huge(void *p, size_t bytes)
{
    if (p)
        munmap(p, (bytes + HUGE_SZ - 1) / HUGE_SZ * HUGE_SZ);
}

/* ---------------------------------------------------------------- clocks */

double sbfb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_MONOTONIC_RAW)
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Begin/end pairs follow Intel's recipe: fences keep the timed operation
 * from leaking outside the two reads. What the fences themselves cost is
 * the overhead the latency suite measures and subtracts.
 */
#if defined(__x86_64__)
uint64_t sbfb_ticks_begin(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
uint64_t sbfb_ticks_end(void)
{
    uint32_t lo, hi, aux;
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    (void)aux;
    return ((uint64_t)hi << 32) | lo;
}
const char *sbfb_timer_name(void) { return "rdtsc"; }
#elif defined(__aarch64__)
uint64_t sbfb_ticks_begin(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
    return v;
}
uint64_t sbfb_ticks_end(void) { return sbfb_ticks_begin(); }
const char *sbfb_timer_name(void) { return "cntvct_el0"; }
#else
uint64_t sbfb_ticks_begin(void) { return mono_ns(); }
uint64_t sbfb_ticks_end(void) { return mono_ns(); }
const char *sbfb_timer_name(void) { return "clock_gettime"; }
#endif

/* Ticks per second, measured against CLOCK_MONOTONIC_RAW: the median of
 * three 20 ms windows (aarch64's CNTFRQ is not trusted blindly either). */
double sbfb_ticks_hz(void)
{
    static double hz;
    if (hz > 0)
        return hz;
    double f[3];
    for (int rep = 0; rep < 3; rep++) {
        const uint64_t t0 = sbfb_ticks_begin(), n0 = mono_ns();
        uint64_t n1;
        do
            n1 = mono_ns();
        while (n1 - n0 < 20000000u);
        const uint64_t t1 = sbfb_ticks_end();
        f[rep] = (double)(t1 - t0) / ((double)(n1 - n0) * 1e-9);
    }
    const double lo = f[0] < f[1] ? f[0] : f[1], hi = f[0] < f[1] ? f[1] : f[0];
    hz = f[2] < lo ? lo : f[2] > hi ? hi : f[2];
    return hz;
}

/* Two reads with nothing between them, no fences: what the counter itself
 * resolves (the fenced pair of sbfb_ticks_begin/end costs more). */
static uint64_t ticks_raw(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
#else
    return sbfb_ticks_begin();
#endif
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t sbfb_timer_overhead(uint64_t *min_out)
{
    enum { N = 20001 };
    uint64_t *s = sbfb_xmalloc(N * sizeof *s);
    for (int i = 0; i < 1000; i++) {
        const uint64_t t0 = sbfb_ticks_begin();
        s[0] = sbfb_ticks_end() - t0;
    }
    for (int i = 0; i < N; i++) {
        const uint64_t t0 = sbfb_ticks_begin();
        s[i] = sbfb_ticks_end() - t0;
    }
    qsort(s, N, sizeof *s, cmp_u64);
    const uint64_t med = s[N / 2];
    if (min_out)
        *min_out = s[0];
    free(s);
    return med;
}

/*
 * The clock's granularity: the smallest non-zero difference of back-to-back
 * reads that is usual, i.e. makes up at least 10% of the non-zero
 * differences of 100,000 pairs. Under KVM most pairs differ by one step of
 * many ticks (or two), but a few by 1 (the virtual counter's phase): the
 * literal minimum, 1, would claim a resolution the clock does not have.
 * A coarse counter (aarch64's, 24-100 MHz) reads equal most of the time; its
 * non-zero steps are single ticks.
 */
uint64_t sbfb_usual_step(uint64_t *d, size_t n)
{
    qsort(d, n, sizeof *d, cmp_u64);
    size_t nz = 0;
    while (nz < n && d[nz] == 0)
        nz++;
    for (size_t i = nz; i < n;) {
        size_t j = i;
        while (j < n && d[j] == d[i])
            j++;
        if ((j - i) * 10 >= n - nz)
            return d[i];
        i = j;
    }
    return 1;
}

static uint64_t timer_granularity(void)
{
    enum { N = 100000 };
    uint64_t *d = sbfb_xmalloc(N * sizeof *d);
    memset(d, 0, N * sizeof *d);   /* no page faults inside the loop */
    uint64_t prev = ticks_raw();
    for (int i = 0; i < N; i++) {
        const uint64_t t = ticks_raw();
        d[i] = t - prev;
        prev = t;
    }
    const uint64_t g = sbfb_usual_step(d, N);
    free(d);
    return g;
}

const sbfb_clock *sbfb_clock_get(void)
{
    static sbfb_clock c;
    if (c.hz > 0)
        return &c;
    const double hz = sbfb_ticks_hz();
    c.gran_ticks = timer_granularity();
    c.ovh_ticks = sbfb_timer_overhead(&c.ovh_min_ticks);
    c.tick_ns = 1e9 / hz;
    c.hz = hz;
    return &c;
}

/* -------------------------------------------------------------- progress */

static int g_pmode;
static int g_ptotal, g_pcount;
static double g_pstart;
static int g_pdirty;

void sbfb_progress_init(int mode, int total)
{
    g_pmode = mode;
    g_ptotal = total;
    g_pcount = 0;
    g_pstart = sbfb_now();
}

void sbfb_progress(const char *fmt, ...)
{
    g_pcount++;
    if (g_pmode == 0)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const double el = sbfb_now() - g_pstart;
    if (g_pmode == 2) {
        fprintf(stderr, "\r\033[K[%6.1fs] %s", el, msg);
        g_pdirty = 1;
    } else {
        fprintf(stderr, "[%6.1fs] %s\n", el, msg);
    }
    fflush(stderr);
}

void sbfb_progress_done(void)
{
    if (g_pmode == 2 && g_pdirty) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        g_pdirty = 0;
    }
}

void sbfb_note(const char *fmt, ...)
{
    sbfb_progress_done();
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "sbf-bench: %s\n", msg);
}

/* ---------------------------------------------------------------- machine */

static void read_line(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)cap, f) == NULL)
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

static size_t parse_size(const char *s)
{
    char *end;
    const unsigned long long v = strtoull(s, &end, 10);
    if (*end == 'K')
        return (size_t)v << 10;
    if (*end == 'M')
        return (size_t)v << 20;
    return (size_t)v;
}

static void cpu_model(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model\t", 6) == 0 ||
            strncmp(line, "CPU part", 8) == 0) {
            const char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t')
                    c++;
                snprintf(buf, cap, "%s", c);
                buf[strcspn(buf, "\n")] = '\0';
                if (strncmp(line, "model name", 10) == 0)
                    break;
            }
        }
    }
    fclose(f);
}

/* "GenuineIntel 6/143/8": what a CPU's timing ratios depend on beyond its
 * model name (a VM's "AMD EPYC" covers several generations). */
static void cpu_id(char *buf, size_t cap)
{
    char vendor[32] = "", fam[16] = "", mod[16] = "", step[16] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    buf[0] = '\0';
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f) && line[0] != '\n') {
        const char *c = strchr(line, ':');
        if (!c)
            continue;
        c++;
        while (*c == ' ' || *c == '\t')
            c++;
        char v[64];
        snprintf(v, sizeof v, "%s", c);
        v[strcspn(v, "\n")] = '\0';
        if (strncmp(line, "vendor_id", 9) == 0)
            snprintf(vendor, sizeof vendor, "%.31s", v);
        else if (strncmp(line, "cpu family", 10) == 0)
            snprintf(fam, sizeof fam, "%.15s", v);
        else if (strncmp(line, "model\t", 6) == 0)
            snprintf(mod, sizeof mod, "%.15s", v);
        else if (strncmp(line, "stepping", 8) == 0)
            snprintf(step, sizeof step, "%.15s", v);
    }
    fclose(f);
    if (vendor[0])
        snprintf(buf, cap, "%s %s/%s/%s", vendor, fam, mod, step);
}

void sbfb_machine_get(sbfb_machine *m)
{
    memset(m, 0, sizeof *m);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        snprintf(m->host, sizeof m->host, "unknown");
    const time_t t = time(NULL);
    struct tm tmv;
    localtime_r(&t, &tmv);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%S%z", &tmv);
    cpu_model(m->cpu, sizeof m->cpu);
    cpu_id(m->cpu_id, sizeof m->cpu_id);
    m->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 0; i < 8; i++) {
        char path[128], lvl[16], type[32], size[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        read_line(path, lvl, sizeof lvl);
        if (!lvl[0])
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        read_line(path, type, sizeof type);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        read_line(path, size, sizeof size);
        const size_t sz = parse_size(size);
        if (lvl[0] == '1' && strcmp(type, "Instruction") != 0)
            m->l1d = sz;
        else if (lvl[0] == '2')
            m->l2 = sz;
        else if (lvl[0] == '3')
            m->l3 = sz;
    }
    /* Some VMs (Firecracker) have no cache directory in sysfs: glibc's
     * CPUID-derived L1d and L2 sizes then, which are the guest's. Its L3
     * stays unknown (the default size): a VM's CPUID gives the host's L3,
     * not this guest's share. */
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    if (m->l1d == 0 && m->l2 == 0 && m->l3 == 0) {
        const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
        m->l1d = l1 > 0 ? (size_t)l1 : 0;
        m->l2 = l2 > 0 ? (size_t)l2 : 0;
        m->cache_from_cpuid = m->l1d != 0 || m->l2 != 0;
    }
#endif
    const long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    m->mem_avail = pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz : 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "MemAvailable:", 13) == 0)
                m->mem_avail = (size_t)strtoull(line + 13, NULL, 10) << 10;
        fclose(f);
    }
#if defined(__clang__)
    snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(m->compiler, sizeof m->compiler, "gcc %s", __VERSION__);
#else
    snprintf(m->compiler, sizeof m->compiler, "unknown");
#endif
    char thp[128];
    read_line("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
    const char *a = strchr(thp, '['), *b = a ? strchr(a, ']') : NULL;
    if (a && b)
        snprintf(m->thp, sizeof m->thp, "%.*s", (int)(b - a - 1), a + 1);
    else
        snprintf(m->thp, sizeof m->thp, "unknown");
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%.40s %.60s %.20s", u.sysname, u.release, u.machine);
}

/* ----------------------------------------------------------------- names */

int sbfb_nlayouts(void)
{
    static int n = -1;
    if (n < 0) {
        n = 0;
        while (n < SBFB_MAX_LAYOUTS && strcmp(sbf_layout_name(n), "unknown") != 0)
            n++;
    }
    return n;
}

const char *sbfb_layout_name(int layout)
{
    return layout >= 0 && layout < sbfb_nlayouts() ? sbf_layout_name(layout) : "?";
}

/* Bits per cell (1, or 4 where cells are counters), from the library's
 * descriptor rather than a layout id. */
unsigned sbfb_cell_bits(int layout)
{
    struct sbf_layout_info li;
    return sbf_layout_info(layout, 0, &li) == SBF_OK ? li.cell_bits : 1;
}

int sbfb_layout_from_name(const char *s)
{
    const int l = sbf_layout_from_name(s);
    if (l >= 0 && l < sbfb_nlayouts())
        return l;
    if (strcmp(s, "split") == 0)
        return SBF_SPLIT_BLOCK;
    return -1;
}

void sbfb_fmt_bytes(size_t bytes, char *buf, size_t cap)
{
    if (bytes >= ((size_t)1 << 30) && bytes % ((size_t)1 << 30) == 0)
        snprintf(buf, cap, "%zuG", bytes >> 30);
    else if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, cap, "%zuM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, cap, "%zuK", bytes >> 10);
    else
        snprintf(buf, cap, "%zu", bytes);
}
