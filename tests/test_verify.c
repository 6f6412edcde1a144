/*
 * Big files without reading them whole (issue 20): sbf_info_ex with
 * SBF_INFO_SAMPLE reads at most 1 MiB of a filter; sbf_verify_file checks a
 * file completely in pieces, with progress, and agrees with sbf_load on
 * every corruption.
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static void tmpfile_path(char *dir, size_t cap, char *path, size_t pcap)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, cap, "%s/sbf-verify-XXXXXX", t && *t ? t : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, pcap, "%s/f.sbf", dir);
}

/* ------------------------------------------------------------ sampled info */

Test(verify, info_sample_small_is_exact,
     .description = "SBF_INFO_SAMPLE on filters of 1 MiB or less is sbf_info exactly; unknown flags are SBF_E_PARAM")
{
    static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING };
    uint64_t *keys = equiv_keys(50000, 8);
    for (int li = 0; li < 4; li++) {
        sbf_filter *f = tu_make(layouts[li], 0, 0, UINT64_C(1) << 23, layouts[li] == 2 ? 8 : 5, 0);
        cr_assert_eq(sbf_add_u64(f, keys, 50000), SBF_OK);
        struct sbf_info a, b;
        cr_assert_eq(sbf_info(f, &a), SBF_OK);
        cr_assert_eq(sbf_info_ex(f, &b, SBF_INFO_SAMPLE), SBF_OK);
        cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "layout %d", layouts[li]);
        cr_assert_eq(sbf_info_ex(f, &b, 2), SBF_E_PARAM);
        cr_assert_eq(sbf_info_ex(NULL, &b, 0), SBF_E_NULL);
        sbf_free(f);
    }
    free(keys);
}

Test(verify, info_sample_big_estimates,
     .description = "SBF_INFO_SAMPLE on 64 MiB filters: fill within 1% and the cardinality estimate within 2% of the full count")
{
    static const int layouts[] = { SBF_CLASSIC, SBF_BLOCKED, SBF_SPLIT_BLOCK, SBF_COUNTING };
    const size_t n = 4000000;
    uint64_t *keys = equiv_keys(n, 9);
    for (int li = 0; li < 4; li++) {
        sbf_filter *f = tu_make(layouts[li], 0, 0, UINT64_C(1) << 29, layouts[li] == 2 ? 16 : 5, 0);
        cr_assert_eq(sbf_add_u64(f, keys, n), SBF_OK);
        struct sbf_info a, b;
        cr_assert_eq(sbf_info(f, &a), SBF_OK);
        cr_assert_eq(sbf_info_ex(f, &b, SBF_INFO_SAMPLE), SBF_OK);
        cr_assert(fabs(b.fill_ratio / a.fill_ratio - 1) < 0.01, "layout %d fill %g vs %g",
                  layouts[li], b.fill_ratio, a.fill_ratio);
        cr_assert(fabs(b.est_cardinality / a.est_cardinality - 1) < 0.02, "layout %d: %g vs %g",
                  layouts[li], b.est_cardinality, a.est_cardinality);
        cr_assert_eq(b.keys_added, a.keys_added);
        cr_assert_eq(b.fpp_now, a.fpp_now, "from the count, not the sample");
        cr_assert_neq(b.fill_ratio, a.fill_ratio, "layout %d: a sample, not the whole", layouts[li]);
        sbf_free(f);
    }
    free(keys);
}

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* A 1 GiB sparse blocked file (header valid, data checksum not). */
static void sparse_gib(const char *path)
{
    const uint64_t bytes = UINT64_C(1) << 30;
    unsigned char hdr[4096] = { 0 };
    memcpy(hdr, "SBF1", 4);
    hdr[4] = 2;
    hdr[8] = SBF_BLOCKED;
    hdr[12] = 7;
    le64(hdr + 24, bytes * 8);
    le64(hdr + 40, bytes);
    le64(hdr + 48, 4096);
    le64(hdr + 64, XXH3_64bits(hdr, 64));
    const int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, hdr, sizeof hdr), (ssize_t)sizeof hdr);
    cr_assert_eq(ftruncate(fd, (off_t)(4096 + bytes)), 0);
    close(fd);
}

static size_t resident_pages(const void *p, size_t len)
{
    const size_t pages = len / 4096;
    unsigned char *vec = malloc(pages);
    cr_assert_eq(mincore((void *)(uintptr_t)p, len, vec), 0);
    size_t r = 0;
    for (size_t i = 0; i < pages; i++)
        r += vec[i] & 1;
    free(vec);
    return r;
}

Test(verify, info_sample_reads_1mib_of_a_mapping, .timeout = 60,
     .description = "sbf_info_ex(SBF_INFO_SAMPLE) of a 1 GiB unverified mapping touches at most 256 of its 262144 pages (1 MiB)")
{
    char dir[256], path[512];
    tmpfile_path(dir, sizeof dir, path, sizeof path);
    sparse_gib(path);
    sbf_filter *m;
    cr_assert_eq(sbf_map(&m, path, SBF_MAP_NO_VERIFY), SBF_OK);
    size_t len;
    const void *d = sbf_data(m, &len);
    /* one page per fault, so the count is the pages read, not read-around */
    cr_assert_eq(madvise((void *)(uintptr_t)d, len, MADV_RANDOM), 0);
    struct sbf_info in;
    cr_assert_eq(sbf_info_ex(m, &in, SBF_INFO_SAMPLE), SBF_OK);
    cr_assert_eq(in.fill_ratio, 0.0);
    const size_t r = resident_pages(d, len);
    cr_assert(r > 0 && r <= 256, "%zu pages read (256 runs of one page)", r);
    sbf_free(m);
    unlink(path);
    rmdir(dir);
}

/* ---------------------------------------------------------- verify a file */

typedef struct prog {
    uint64_t last, total;
    int calls, backwards;
} prog;

static void on_progress(void *opaque, uint64_t done, uint64_t total)
{
    prog *p = opaque;
    p->backwards += done < p->last;
    p->last = done;
    p->total = total;
    p->calls++;
}

Test(verify, verify_file_agrees_with_load, .timeout = 120,
     .description = "sbf_verify_file: OK with progress on good files (v1, v2, 40 MiB in 3 pieces); every byte flip and truncation of a small file gives sbf_load's code")
{
    char dir[256], path[512];
    tmpfile_path(dir, sizeof dir, path, sizeof path);
    sbf_filter *big = tu_make(SBF_BLOCKED, 0, 0, UINT64_C(40) << 23, 7, 0);
    uint64_t *keys = equiv_keys(100000, 3);
    cr_assert_eq(sbf_add_u64(big, keys, 100000), SBF_OK);
    cr_assert_eq(sbf_save(big, path), SBF_OK);
    prog p = { 0, 0, 0, 0 };
    cr_assert_eq(sbf_verify_file(path, on_progress, &p), SBF_OK);
    cr_assert_eq(p.calls, 3, "40 MiB in 16 MiB pieces");
    cr_assert_eq(p.last, UINT64_C(40) << 20);
    cr_assert_eq(p.total, UINT64_C(40) << 20);
    cr_assert_eq(p.backwards, 0);
    cr_assert_eq(sbf_verify_file(path, NULL, NULL), SBF_OK);
    /* the last byte of the data flipped: caught by the checksum */
    const int fd = open(path, O_RDWR);
    unsigned char b;
    const off_t last = (off_t)(4096 + (UINT64_C(40) << 20) - 1);
    cr_assert_eq(pread(fd, &b, 1, last), 1);
    b ^= 1;
    cr_assert_eq(pwrite(fd, &b, 1, last), 1);
    close(fd);
    cr_assert_eq(sbf_verify_file(path, NULL, NULL), SBF_E_FORMAT);
    sbf_free(big);
    free(keys);
    /* a version-1 file */
    size_t vlen;
    unsigned char *v1 = tu_read_vector("sbf_v1_counting.bin", &vlen);
    FILE *fp = fopen(path, "wb");
    cr_assert_eq(fwrite(v1, 1, vlen, fp), vlen);
    fclose(fp);
    p.calls = 0;
    cr_assert_eq(sbf_verify_file(path, on_progress, &p), SBF_OK);
    cr_assert_eq(p.calls, 1);
    free(v1);
    /* every flip and truncation of a small file: sbf_load's answer */
    sbf_filter *f = tu_make(SBF_CLASSIC, 0, 0, 640, 4, 3);
    for (int i = 0; i < 30; i++)
        sbf_add(f, &i, sizeof i);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    const int w = open(path, O_RDWR);
    struct stat st;
    cr_assert_eq(fstat(w, &st), 0);
    const size_t len = (size_t)st.st_size;
    for (size_t i = 0; i < len; i++) {
        unsigned char c, x;
        cr_assert_eq(pread(w, &c, 1, (off_t)i), 1);
        x = c ^ 0x10;
        cr_assert_eq(pwrite(w, &x, 1, (off_t)i), 1);
        sbf_filter *g = NULL;
        const int rl = sbf_load(&g, path), rv = sbf_verify_file(path, NULL, NULL);
        sbf_free(g);
        cr_assert_lt(rv, 0, "byte %zu", i);
        cr_assert_eq(rv, rl, "byte %zu: verify %d, load %d", i, rv, rl);
        cr_assert_eq(pwrite(w, &c, 1, (off_t)i), 1);
    }
    for (size_t n = len; n-- > 0;) {
        cr_assert_eq(ftruncate(w, (off_t)n), 0);
        sbf_filter *g = NULL;
        const int rl = sbf_load(&g, path);
        sbf_free(g);
        cr_assert_eq(sbf_verify_file(path, NULL, NULL), rl, "truncated to %zu", n);
    }
    close(w);
    cr_assert_eq(sbf_verify_file(NULL, NULL, NULL), SBF_E_NULL);
    errno = 0;
    cr_assert_eq(sbf_verify_file(dir, NULL, NULL), SBF_E_IO);
    cr_assert_eq(errno, EISDIR);
    sbf_free(f);
    unlink(path);
    rmdir(dir);
}

/* ------------------------------------------------- a mapped file shrinks */

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
    (void)sig;
    siglongjmp(bus_jmp, 1);
}

Test(verify, shrunk_mapping_recipe, .timeout = 60,
     .description = "the header's recipe: a query of a mapping whose file was truncated raises SIGBUS, which a caller's handler can leave; sbf_load then says SBF_E_TRUNCATED")
{
    char dir[256], path[512];
    tmpfile_path(dir, sizeof dir, path, sizeof path);
    sbf_filter *f = tu_make(SBF_BLOCKED, 0, 0, UINT64_C(32) << 20, 7, 0); /* 4 MiB */
    uint64_t *keys = equiv_keys(10000, 4);
    cr_assert_eq(sbf_add_u64(f, keys, 10000), SBF_OK);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        sbf_filter *m;
        if (sbf_map(&m, path, SBF_MAP_NO_VERIFY) != SBF_OK || truncate(path, 4096) != 0)
            _exit(1);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigbus;
        sigaction(SIGBUS, &sa, NULL);
        if (sigsetjmp(bus_jmp, 1) == 0) {
            (void)sbf_contains_u64(m, keys, 10000, NULL);
            _exit(2); /* no signal: the pages were still there? */
        }
        sbf_free(m); /* unmapping after the signal is fine */
        sbf_filter *g = NULL;
        _exit(sbf_load(&g, path) == SBF_E_TRUNCATED ? 0 : 3);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st), "the child died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    cr_assert_eq(WEXITSTATUS(st), 0, "child exit %d", WEXITSTATUS(st));
    free(keys);
    sbf_free(f);
    unlink(path);
    rmdir(dir);
}
