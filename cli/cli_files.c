/*
 * sbf: filters in and out of files. Ours through sbf_load / sbf_map /
 * sbf_save; Guava's through sbf_import_guava / sbf_export_guava, written
 * with sbf_save's temporary-file-and-rename discipline. Also the lock a
 * read-modify-write holds, and the guard that turns a mapped file cut short
 * by another process into an error instead of SIGBUS.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char *const layout_names[4] = { "classic", "blocked", "split-block", "counting" };
const char *const format_names[5] = { "", "sbf-v1", "sbf-v2", "guava", "parquet" };

static unsigned char *read_whole(const char *path, size_t *len)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        fail("%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        fail("%s: not a regular file", path);
    const size_t n = (size_t)st.st_size;
    unsigned char *buf = malloc(n ? n : 1);
    if (buf == NULL)
        fail("%s: out of memory (%zu bytes)", path, n);
    size_t got = 0;
    while (got < n) {
        const ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            fail("%s: %s", path, strerror(errno));
        if (r == 0)
            fail("%s: file shrank while being read", path);
        got += (size_t)r;
    }
    close(fd);
    *len = n;
    return buf;
}

/* The format of a file, from its first bytes: ours ("SBF1" and the version
 * word) or else Guava's. */
static int detect(const char *path)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("%s: %s", path, strerror(errno));
    unsigned char b[8] = { 0 };
    const ssize_t r = read(fd, b, sizeof b);
    close(fd);
    if (r < 0)
        fail("%s: %s", path, strerror(errno));
    if (r >= 4 && memcmp(b, "SBF1", 4) == 0)
        return r == 8 && b[4] == 1 && !b[5] && !b[6] && !b[7] ? FMT_SBF1 : FMT_SBF2;
    return FMT_GUAVA;
}

/* ------------------------------------------------------- mapped files */

/* The one mapping whose pages may vanish under us (a file truncated in
 * place by another process: the kernel raises SIGBUS on the next touch). */
static const unsigned char *guard_lo;
static size_t guard_len;
static char guard_msg[512];
static size_t guard_msg_len;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    const unsigned char *a = si->si_addr;
    if (guard_lo != NULL && a >= guard_lo && a < guard_lo + guard_len) {
        ssize_t w = write(STDERR_FILENO, guard_msg, guard_msg_len);
        (void)w;
        _exit(EXIT_FAILURE);
    }
    signal(sig, SIG_DFL); /* not ours: the default action on return */
}

static void guard_mapping(const sbf_filter *f, const char *path)
{
    size_t len;
    const void *data = sbf_data(f, &len);
    if (data == NULL || guard_lo != NULL)
        return;
    const int n = snprintf(guard_msg, sizeof guard_msg,
                           "%s: %s: the file was cut short while mapped (truncated by "
                           "another program?); stopped\n", prog, path);
    guard_msg_len = n < 0 ? 0 : (size_t)n < sizeof guard_msg ? (size_t)n : sizeof guard_msg - 1;
    guard_lo = data;
    guard_len = len;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

/* Reads a file through once (into the page cache) with a progress line,
 * when stderr is a terminal, so that the verifying map that follows, which
 * reads it all again from memory, does not sit silent for minutes on a big
 * file. (The library's verify has no progress hook.) */
static void read_through(const char *path)
{
    if (!isatty(STDERR_FILENO))
        return;
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        fail("%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return; /* the loader says what is wrong */
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    const size_t chunk = 8u << 20;
    unsigned char *buf = malloc(chunk);
    if (buf == NULL)
        fail("out of memory");
    progress pg;
    progress_start(&pg);
    uint64_t done = 0;
    ssize_t r;
    while ((r = read(fd, buf, chunk)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            fail("%s: %s", path, strerror(errno));
        done += (uint64_t)r;
        progress_bytes(&pg, done, (uint64_t)st.st_size, "verifying", path);
    }
    progress_end(&pg);
    free(buf);
    close(fd);
}

sbf_filter *open_filter(const char *path, int mode, int *fmt_out)
{
    int fmt = detect(path);
    sbf_filter *f = NULL;
    int rc;
    if (fmt == FMT_GUAVA) { /* or Parquet's header + bitset */
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        const int parquet = sbf_format_detect(buf, len) == SBF_FORMAT_PARQUET;
        rc = parquet ? sbf_import_parquet(&f, buf, len) : sbf_import_guava(&f, buf, len);
        free(buf);
        if (rc != SBF_OK)
            fail("%s: not a simdbloom filter, and as a Guava filter: %s", path,
                 sbf_strerror(rc));
        fmt = parquet ? FMT_PARQUET : FMT_GUAVA;
    } else if (mode == OPEN_WRITABLE || fmt == FMT_SBF1) {
        if (mode == OPEN_VERIFY)
            read_through(path);
        rc = sbf_load(&f, path); /* checks every checksum */
        if (rc != SBF_OK)
            fail_code(path, rc);
    } else {
        if (mode == OPEN_VERIFY)
            read_through(path);
        rc = sbf_map(&f, path, mode == OPEN_VERIFY ? 0 : SBF_MAP_NO_VERIFY);
        if (rc != SBF_OK)
            fail_code(path, rc);
        guard_mapping(f, path);
    }
    if (fmt_out)
        *fmt_out = fmt;
    return f;
}

/* ------------------------------------------------------------- locking */

int lock_path(const char *path)
{
    int waited = 0;
    for (;;) {
        const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            fail("%s: %s", path, strerror(errno));
        struct stat held, named;
        if (fstat(fd, &held) != 0)
            fail("%s: %s", path, strerror(errno));
        if (!S_ISREG(held.st_mode)) {
            close(fd);
            return -1; /* the loader refuses it with its own message */
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR)
                fail("%s: cannot lock: %s", path, strerror(errno));
            if (!waited && isatty(STDERR_FILENO))
                fprintf(stderr, "%s: %s: waiting for another sbf to finish with it\n", prog,
                        path);
            waited = 1;
            while (flock(fd, LOCK_EX) != 0)
                if (errno != EINTR)
                    fail("%s: cannot lock: %s", path, strerror(errno));
        }
        /* sbf_save replaces a file by rename: if the path now names another
         * file than the one locked, the lock guards nothing: take the new one's */
        if (stat(path, &named) == 0 && named.st_dev == held.st_dev &&
            named.st_ino == held.st_ino)
            return fd;
        close(fd);
    }
}

sbf_filter *open_own(const char *path)
{
    int fmt;
    sbf_filter *f = open_filter(path, OPEN_WRITABLE, &fmt);
    if (fmt == FMT_GUAVA || fmt == FMT_PARQUET)
        fail("%s: a %s filter; 'sbf convert --to sbf' it first", path, format_names[fmt]);
    return f;
}

void save(const sbf_filter *f, const char *path)
{
    const int rc = sbf_save(f, path);
    if (rc != SBF_OK)
        fail_code(path, rc);
}

/* Guava's form, with sbf_save's discipline: temporary file beside OUT,
 * fsync, rename, directory fsync; the temporary file removed on failure. */
void save_guava(const sbf_filter *f, const char *path)
{
    void *buf;
    size_t len;
    int rc = sbf_export_guava(f, &buf, &len);
    if (rc != SBF_OK)
        fail("%s: cannot write as Guava: %s", path, sbf_strerror(rc));
    const size_t cap = strlen(path) + 32;
    char *tmp = malloc(cap);
    if (tmp == NULL)
        fail("%s: out of memory", path);
    snprintf(tmp, cap, "%s.tmp-%ld", path, (long)getpid());
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        fail("%s: %s", tmp, strerror(errno));
    const unsigned char *p = buf;
    size_t left = len;
    int err = 0;
    while (left > 0 && !err) {
        const ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            err = w < 0 ? errno : ENOSPC;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        unlink(tmp);
        fail("%s: %s", path, strerror(err));
    }
    char *dir = strdup(path);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    const char *d = slash == NULL ? "." : slash == dir ? "/" : (*slash = '\0', dir);
    const int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        if (fsync(dfd) != 0 && errno != EINVAL)
            fail("%s: directory fsync: %s", path, strerror(errno));
        close(dfd);
    }
    free(dir);
    free(tmp);
    sbf_buffer_free(buf);
}
