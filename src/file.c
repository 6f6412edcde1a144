/*
 * Files: crash-safe save, load into the library's own memory, and a
 * zero-copy read-only mapping. The format is src/persist.c's (version 2 for
 * everything written; the README's "File format"). Every header is checked
 * before anything is allocated or mapped; a refused file changes nothing and
 * leaves *out NULL. On SBF_E_IO, errno is the failed system call's.
 */
#define _GNU_SOURCE 1
#include "sbf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define IO_CHUNK (1u << 30) /* read/write at most 1 GiB per call */

/* Closes fd keeping errno (the error being reported is an earlier one). */
static void close_keep_errno(int fd)
{
    const int e = errno;
    (void)close(fd);
    errno = e;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        const ssize_t w = write(fd, p, n < IO_CHUNK ? n : IO_CHUNK);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return SBF_E_IO;
        }
        if (w == 0) { /* no progress and no error: treat as a full disk */
            errno = ENOSPC;
            return SBF_E_IO;
        }
        p += w;
        n -= (size_t)w;
    }
    return SBF_OK;
}

/* Reads exactly n bytes at off; SBF_E_TRUNCATED when the file ends first
 * (it shrank after fstat). */
static int read_all(int fd, void *buf, size_t n, off_t off)
{
    unsigned char *p = buf;
    while (n > 0) {
        const ssize_t r = pread(fd, p, n < IO_CHUNK ? n : IO_CHUNK, off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return SBF_E_IO;
        }
        if (r == 0)
            return SBF_E_TRUNCATED;
        p += r;
        off += r;
        n -= (size_t)r;
    }
    return SBF_OK;
}

/* ------------------------------------------------------------------- save */

/* The directory part of path ("." when there is none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* A new temporary file beside path, created exclusively with mode 0666
 * minus the umask (as the final file would be). */
static int open_temp(const char *path, char **tmp_out)
{
    static atomic_uint counter;
    const size_t cap = strlen(path) + 64;
    char *tmp = malloc(cap);
    if (tmp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        struct timespec ts;
        (void)clock_gettime(CLOCK_MONOTONIC, &ts);
        snprintf(tmp, cap, "%s.tmp-%ld-%u-%lx", path, (long)getpid(),
                 atomic_fetch_add(&counter, 1u), (unsigned long)ts.tv_nsec);
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_out = tmp;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    const int e = errno;
    free(tmp);
    errno = e;
    return -1;
}

static int fsync_dir(const char *path)
{
    char *dir = dir_of(path);
    if (dir == NULL) {
        errno = ENOMEM;
        return SBF_E_IO;
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return SBF_E_IO;
    if (fsync(fd) != 0 && errno != EINVAL) { /* EINVAL: fs without dir fsync */
        close_keep_errno(fd);
        return SBF_E_IO;
    }
    (void)close(fd);
    return SBF_OK;
}

int sbf_save(const sbf_filter *f, const char *path)
{
    SBFI_RETURN_IF(f == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(path[0] == '\0', SBF_E_PARAM);
    unsigned char *hdr = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(hdr == NULL, SBF_E_NOMEM);
    int rc = sbfi_header_v2(f, hdr);
    if (rc != SBF_OK) {
        free(hdr);
        return rc;
    }
    char *tmp = NULL;
    const int fd = open_temp(path, &tmp);
    if (fd < 0) {
        free(hdr);
        return SBF_E_IO;
    }
    rc = write_all(fd, hdr, SBFI_V2_HEADER);
    if (rc == SBF_OK)
        rc = write_all(fd, f->words, f->bytes);
    if (rc == SBF_OK && fsync(fd) != 0)
        rc = SBF_E_IO;
    if (rc == SBF_OK) {
        if (close(fd) != 0)
            rc = SBF_E_IO;
    } else {
        close_keep_errno(fd);
    }
    if (rc == SBF_OK && rename(tmp, path) != 0)
        rc = SBF_E_IO;
    if (rc != SBF_OK) {
        const int e = errno;
        (void)unlink(tmp);
        errno = e;
    } else {
        /* The new name is durable only once the directory is. */
        rc = fsync_dir(path);
    }
    free(tmp);
    free(hdr);
    return rc;
}

/* ------------------------------------------------------------- load, map */

/* Opens path and checks its header; the file stays open on success. */
static int open_checked(const char *path, int *fd_out, unsigned char *head,
                        sbfi_header *h)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return SBF_E_IO;
    struct stat st;
    int rc = SBF_OK;
    if (fstat(fd, &st) != 0) {
        rc = SBF_E_IO;
    } else if (!S_ISREG(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        rc = SBF_E_IO;
    }
    const uint64_t total = rc == SBF_OK ? (uint64_t)st.st_size : 0;
    const size_t avail = total < SBFI_V2_HEADER ? (size_t)total : SBFI_V2_HEADER;
    if (rc == SBF_OK)
        rc = read_all(fd, head, avail, 0);
    if (rc == SBF_OK)
        rc = sbfi_header_parse(head, avail, total, h);
    if (rc != SBF_OK) {
        close_keep_errno(fd);
        return rc;
    }
    *fd_out = fd;
    return SBF_OK;
}

int sbf_load(sbf_filter **out, const char *path)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || path == NULL, SBF_E_NULL);
    unsigned char *head = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(head == NULL, SBF_E_NOMEM);
    sbfi_header h;
    int fd = -1;
    sbf_filter *f = NULL;
    int rc = open_checked(path, &fd, head, &h);
    if (rc == SBF_OK)
        rc = sbfi_make_from(&f, &h);
    if (rc == SBF_OK)
        rc = read_all(fd, f->words, h.bytes, (off_t)h.data_off);
    if (rc == SBF_OK)
        rc = sbfi_data_check(&h, head, f->words);
    if (fd >= 0)
        close_keep_errno(fd);
    free(head);
    if (rc != SBF_OK) {
        sbf_free(f);
        return rc;
    }
    *out = f;
    return SBF_OK;
}

int sbf_map(sbf_filter **out, const char *path, unsigned flags)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF((flags & ~(unsigned)SBF_MAP_NO_VERIFY) != 0, SBF_E_PARAM);
    const sbfi_kernels *kt;
    SBFI_FORWARD_IF_ERROR(sbfi_kernels_current(&kt));
    unsigned char *head = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(head == NULL, SBF_E_NOMEM);
    sbfi_header h;
    int fd = -1;
    int rc = open_checked(path, &fd, head, &h);
    /* Version 1 keeps its data at byte 56, which cannot be mapped. */
    if (rc == SBF_OK && h.version != 2)
        rc = SBF_E_VERSION;
    /* The data offset, 4096, is a page boundary on 4 KiB-page systems; with
     * larger pages the mapping starts at the page below it. */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t off = page > 0 && page <= h.data_off ? h.data_off / page * page : 0;
    const size_t skip = h.data_off - off, map_len = skip + h.bytes;
    unsigned char *base = MAP_FAILED, *data = NULL;
    if (rc == SBF_OK) {
        base = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, (off_t)off);
        if (base == MAP_FAILED)
            rc = SBF_E_IO;
        else
            data = base + skip;
    }
    if (fd >= 0)
        close_keep_errno(fd); /* the mapping keeps the file */
    free(head);
    /* No madvise: MADV_RANDOM made a cold 1 GiB mapping take 26 s for 1e6
     * probes (one 4 KiB read per fault) against 1.2 s with the kernel's
     * read-around; verification reads every page once anyway. */
    if (rc == SBF_OK && !(flags & SBF_MAP_NO_VERIFY))
        rc = sbfi_data_check(&h, NULL, data); /* version 2: head not needed */
    sbf_filter *f = NULL;
    if (rc == SBF_OK) {
        f = calloc(1, sizeof *f);
        if (f == NULL)
            rc = SBF_E_NOMEM;
    }
    if (rc != SBF_OK) {
        if (base != MAP_FAILED)
            (void)munmap(base, map_len);
        return rc;
    }
    sbfi_fill_from(f, &h);
    f->words = (uint64_t *)(void *)data;
    f->kt = kt;
    (void)sbfi_bind(f, 0); /* plain: allocates nothing, cannot fail */
    f->readonly = 1;
    f->file_map = base;
    f->file_map_len = map_len;
    *out = f;
    return SBF_OK;
}

void sbfi_unmap_file(sbf_filter *f)
{
    (void)munmap(f->file_map, f->file_map_len);
    f->file_map = NULL;
    f->words = NULL;
}
