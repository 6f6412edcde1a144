/*
 * sbf: filters in and out of files. Ours through sbf_load / sbf_map /
 * sbf_save; Guava's through sbf_import_guava / sbf_export_guava, written
 * with sbf_save's temporary-file-and-rename discipline.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char *const layout_names[4] = { "classic", "blocked", "split-block", "counting" };
const char *const format_names[4] = { "", "sbf-v1", "sbf-v2", "guava" };

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

sbf_filter *open_filter(const char *path, int writable, int *fmt_out)
{
    const int fmt = detect(path);
    sbf_filter *f = NULL;
    int rc;
    if (fmt == FMT_GUAVA) {
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        rc = sbf_import_guava(&f, buf, len);
        free(buf);
        if (rc != SBF_OK)
            fail("%s: not a simdbloom filter, and as a Guava filter: %s", path,
                 sbf_strerror(rc));
    } else {
        rc = writable || fmt == FMT_SBF1 ? sbf_load(&f, path) : sbf_map(&f, path, 0);
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
    sbf_filter *f = open_filter(path, 1, &fmt);
    if (fmt == FMT_GUAVA)
        fail("%s: a Guava filter; 'sbf convert --to sbf' it first", path);
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
