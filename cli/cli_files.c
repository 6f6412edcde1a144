/*
 * sbf: filters in and out of files, through the library: the form of a
 * file from sbf_file_format, ours mapped (sbf_map) or loaded (sbf_load),
 * any form loaded by sbf_load_as and saved by sbf_save_as (crash-safe; the
 * file's mode, owner and links kept), the read-modify-write lock of
 * sbf_lock_file. Here only what a command line adds: messages, a progress
 * line, and the guard that turns a mapped file cut short by another
 * process into an error instead of SIGBUS.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char *const format_names[5] = { "", "sbf-v1", "sbf-v2", "guava", "parquet" };

/* A form's name in a sentence. */
const char *form_title(int format)
{
    return format == SBF_FORMAT_SBF ? "simdbloom" : format == SBF_FORMAT_GUAVA ? "Guava"
         : format == SBF_FORMAT_PARQUET ? "Parquet" : sbf_format_name(format);
}

/* ------------------------------------------------------- mapped files */
/* The mappings of the one file a command maps (a filter's data, or each
 * sub-filter of a growing one) whose pages may vanish under us (the file
 * truncated in place by another process: the kernel raises SIGBUS on the
 * next touch). */
#define GUARDS (SBF_SCALABLE_MAX_FILTERS + 1)
static struct { const unsigned char *lo; size_t len; } guards[GUARDS];
static size_t nguards;
static char guard_msg[512];
static size_t guard_msg_len;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    const unsigned char *a = si->si_addr;
    for (size_t i = 0; i < nguards; i++)
        if (a >= guards[i].lo && a < guards[i].lo + guards[i].len) {
            ssize_t w = write(STDERR_FILENO, guard_msg, guard_msg_len);
            (void)w;
            _exit(EXIT_FAILURE);
        }
    signal(sig, SIG_DFL); /* not ours: the default action on return */
}

static void guard_range(const void *data, size_t len, const char *path)
{
    if (data == NULL || nguards == GUARDS)
        return;
    if (nguards == 0) {
        const int n = snprintf(guard_msg, sizeof guard_msg,
                               "%s: %s: the file was cut short while mapped (truncated by "
                               "another program?); stopped\n", prog, path);
        guard_msg_len = n < 0 ? 0 : (size_t)n < sizeof guard_msg ? (size_t)n
                                                                 : sizeof guard_msg - 1;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
    }
    guards[nguards].lo = data;
    guards[nguards].len = len;
    nguards++;
}

static void guard_mapping(const sbf_filter *f, const char *path)
{
    size_t len;
    const void *data = sbf_data(f, &len);
    guard_range(data, len, path);
}

void guard_scalable(const sbf_scalable *s, const char *path)
{
    for (uint32_t i = 0; i < sbf_scalable_filters(s); i++)
        guard_mapping(sbf_scalable_filter(s, i), path);
}

typedef struct verify_ctx {
    progress pg;
    const char *path;
} verify_ctx;

static void on_progress(void *opaque, uint64_t done, uint64_t total)
{
    verify_ctx *v = opaque;
    progress_bytes(&v->pg, done, total, "verifying", v->path);
}

/* Every checksum of our form (sbf_verify_file), with a progress line on a
 * terminal: the file is read whole once. */
static void verify_ours(const char *path)
{
    verify_ctx v = { .path = path };
    progress_start(&v.pg);
    const int rc = sbf_verify_file(path, on_progress, &v);
    progress_end(&v.pg);
    if (rc != SBF_OK)
        fail_code(path, rc);
}

/* Our form, read-only: mapped, or loaded when it is version 1 (whose data
 * is not page aligned: sbf_map answers SBF_E_VERSION; sbf_load reads it, and
 * refuses a newer version with the same code). */
static sbf_filter *open_ours(const char *path, int mode, int *fmt)
{
    sbf_filter *f = NULL;
    if (mode == OPEN_VERIFY)
        verify_ours(path); /* then map it as checked: no second pass */
    int rc = sbf_map(&f, path, SBF_MAP_NO_VERIFY);
    *fmt = FMT_SBF2;
    if (rc == SBF_E_VERSION) {
        rc = sbf_load(&f, path); /* version 1: checks every checksum */
        *fmt = FMT_SBF1;
    }
    if (rc != SBF_OK)
        fail_code(path, rc);
    if (*fmt == FMT_SBF2)
        guard_mapping(f, path);
    return f;
}

sbf_filter *open_filter(const char *path, int mode, int *fmt_out)
{
    const int grows = scalable_file_version(path); /* else "unknown format version" */
    if (grows != 0)
        fail("%s: a growing filter (sbf-v%d, made by sbf dedup): this command takes a fixed "
             "one; 'sbf dedup --filter %s' adds lines to it, and info, query, verify and union "
             "read it", path, grows, path);
    const int form = sbf_file_format(path);
    if (form == SBF_E_FORMAT)
        fail("%s: not a simdbloom filter, nor a Guava or Parquet one", path);
    if (form < 0)
        fail_code(path, form);
    int fmt = FMT_SBF2;
    sbf_filter *f = NULL;
    if (form == SBF_FORMAT_SBF && mode != OPEN_WRITABLE) {
        f = open_ours(path, mode, &fmt);
    } else {
        int found = 0;
        const int rc = sbf_load_as(&f, path, form, &found);
        fmt = found == SBF_FORMAT_GUAVA ? FMT_GUAVA
            : found == SBF_FORMAT_PARQUET ? FMT_PARQUET : FMT_SBF2;
        if (rc != SBF_OK && fmt != FMT_SBF2 && rc != SBF_E_IO)
            fail("%s: not a simdbloom filter, and as a %s filter: %s", path, form_title(found),
                 sbf_strerror(rc));
        if (rc != SBF_OK)
            fail_code(path, rc);
    }
    if (fmt_out)
        *fmt_out = fmt;
    return f;
}

sbf_filter *open_own(const char *path)
{
    int fmt;
    sbf_filter *f = open_filter(path, OPEN_WRITABLE, &fmt);
    if (fmt != FMT_SBF2)
        fail("%s: a %s filter; 'sbf convert --to sbf' it first", path,
             form_title(fmt == FMT_GUAVA ? SBF_FORMAT_GUAVA : SBF_FORMAT_PARQUET));
    return f;
}

sbf_file_lock *lock_path(const char *path)
{
    sbf_file_lock *lk = NULL;
    int rc = sbf_lock_file(&lk, path, SBF_LOCK_NOWAIT);
    if (rc == SBF_E_LOCKED) {
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "%s: %s: waiting for another sbf to finish with it\n", prog, path);
        rc = sbf_lock_file(&lk, path, 0);
    }
    if (rc != SBF_OK)
        fail_code(path, rc);
    return lk;
}

/* A save that failed on permissions: when the directory is what refused
 * (a save writes a temporary file beside the target and renames it), say
 * so rather than blame a file that is writable. */
static void fail_save_io(const char *path)
{
    const int e = errno;
    if (e == EACCES || e == EPERM || e == EROFS) {
        char *copy = strdup(path);
        const char *dir = copy != NULL ? dirname(copy) : ".";
        if (access(dir, W_OK | X_OK) != 0) {
            const int de = errno;
            fail("%s: cannot save: its directory %s is not writable (%s): a save writes a "
                 "temporary file .NAME.sbf-tmp-N there and renames it over the file; nothing "
                 "written", path, dir, strerror(de == ENOENT ? e : de));
        }
        free(copy);
    }
    errno = e;
    fail_code(path, SBF_E_IO);
}

void fail_save(const sbf_filter *f, const char *path, int format, int rc)
{
    if (rc == SBF_E_UNSUPPORTED || rc == SBF_E_PARAM) {
        struct sbf_info in;
        (void)sbf_info(f, &in);
        fail("cannot write %s in %s's form: the filter is %s (seed %u), and %s; nothing "
             "written", path, form_title(format), sbf_layout_name(in.layout), in.seed,
             format == SBF_FORMAT_GUAVA ? "Guava's form holds classic filters with seed 0 only"
             : format == SBF_FORMAT_PARQUET ? "Parquet's form holds the parquet layout only"
             : sbf_strerror(rc));
    }
    if (rc == SBF_E_IO)
        fail_save_io(path);
    fail_code(path, rc);
}

void save_as(const sbf_filter *f, const char *path, int format)
{
    const int rc = sbf_save_as(f, path, format);
    if (rc != SBF_OK)
        fail_save(f, path, format, rc);
}

void save(const sbf_filter *f, const char *path)
{
    save_as(f, path, SBF_FORMAT_SBF);
}

int scalable_file_version(const char *path)
{
    unsigned char h[8];
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    const ssize_t r = read(fd, h, 8);
    close(fd);
    if (r != 8 || memcmp(h, "SBF1", 4) != 0 || memcmp(h + 5, "\0\0\0", 3) != 0)
        return 0;
    return h[4] == 3 || h[4] == 4 ? h[4] : 0;
}

int is_scalable_file(const char *path)
{
    return scalable_file_version(path) != 0;
}

sbf_scalable *open_scalable(const char *path)
{
    sbf_scalable *s;
    const int rc = sbf_scalable_load(&s, path);
    if (rc == SBF_E_VERSION)
        fail("%s: not a growing filter (a fixed one: it joins only fixed ones)", path);
    if (rc != SBF_OK)
        fail_code(path, rc);
    return s;
}
