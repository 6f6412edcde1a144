/*
 * Files: load into the library's own memory, a zero-copy read-only
 * mapping, the form of a file, loading any form, and the file lock for
 * read-modify-write. Saving is src/save.c; the format is doc/format.md.
 * Every header is checked before anything is allocated or mapped; a refused
 * file changes nothing and leaves *out NULL. Only regular files are read,
 * and opening never blocks (a FIFO is refused, not waited on). On
 * SBF_E_IO, errno is the failed system call's.
 */
#define _GNU_SOURCE 1
#include "persist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_CHUNK (1u << 30) /* read at most 1 GiB per call */

/* Closes fd keeping errno (the error being reported is an earlier one). */
static void close_keep_errno(int fd)
{
    const int e = errno;
    (void)close(fd);
    errno = e;
}

static int not_regular(const struct stat *st)
{
    if (S_ISREG(st->st_mode))
        return SBF_OK;
    errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
    return SBF_E_IO;
}

int sbfi_open_regular(const char *path, int *fd_out, uint64_t *size)
{
    struct stat st;
    /* Refused before open() when we can tell: opening a device may act. */
    SBFI_RETURN_IF(stat(path, &st) != 0, SBF_E_IO);
    SBFI_FORWARD_IF_ERROR(not_regular(&st));
    /* O_NONBLOCK: if path became a FIFO since, open() returns at once */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    SBFI_RETURN_IF(fd < 0, SBF_E_IO);
    int rc = fstat(fd, &st) != 0 ? SBF_E_IO : not_regular(&st);
    if (rc == SBF_OK && st.st_size < 0) {
        errno = EINVAL;
        rc = SBF_E_IO;
    }
    if (rc != SBF_OK) {
        close_keep_errno(fd);
        return rc;
    }
    *fd_out = fd;
    *size = (uint64_t)st.st_size;
    return SBF_OK;
}

int sbfi_read_at(int fd, void *buf, size_t n, uint64_t off)
{
    unsigned char *p = buf;
    while (n > 0) {
        const ssize_t r = pread(fd, p, n < IO_CHUNK ? n : IO_CHUNK, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return SBF_E_IO;
        }
        if (r == 0)
            return SBF_E_TRUNCATED; /* it shrank after fstat */
        p += r;
        off += (uint64_t)r;
        n -= (size_t)r;
    }
    return SBF_OK;
}

/* ------------------------------------------------------------- load, map */

/* The first bytes of an open file (up to SBFI_V2_HEADER = SBFI_DETECT_HEAD). */
static int read_head(int fd, uint64_t total, unsigned char *head, size_t *avail)
{
    _Static_assert(SBFI_DETECT_HEAD >= SBFI_V2_HEADER, "a detector's head holds a header");
    *avail = total < SBFI_V2_HEADER ? (size_t)total : SBFI_V2_HEADER;
    return sbfi_read_at(fd, head, *avail, 0);
}

/* Opens path (a regular file) and reads its head: *fd is then the open file
 * for the caller to close, or -1 when it could not be opened. */
static int open_head(const char *path, int *fd, uint64_t *total, unsigned char *head,
                     size_t *avail)
{
    *fd = -1;
    const int rc = sbfi_open_regular(path, fd, total);
    return rc == SBF_OK ? read_head(*fd, *total, head, avail) : rc;
}

/* Our format from an open file of `total` bytes whose head was read. */
static int load_own(sbf_filter **out, int fd, uint64_t total,
                    const unsigned char *head, size_t avail)
{
    sbfi_header h;
    SBFI_FORWARD_IF_ERROR(sbfi_header_parse(head, avail, total, &h));
    sbfi_make_args a;
    sbfi_args_from(&a, &h, NULL);
    sbf_filter *f;
    SBFI_FORWARD_IF_ERROR(sbfi_make(&f, &a));
    int rc = sbfi_read_at(fd, f->words, h.bytes, h.data_off);
    if (rc == SBF_OK)
        rc = sbfi_data_check(&h, head, f->words);
    if (rc != SBF_OK) {
        sbf_free(f);
        return rc;
    }
    *out = f;
    return SBF_OK;
}

/* Any other form: the whole file in a buffer, then its decoder. */
static int load_other(sbf_filter **out, int fd, uint64_t total, int format)
{
    const sbfi_format *e = sbfi_format_get(format);
    SBFI_RETURN_IF(e == NULL, SBF_E_PARAM);
    SBFI_RETURN_IF(total > SIZE_MAX, SBF_E_NOMEM);
    unsigned char *buf = malloc(total ? (size_t)total : 1);
    SBFI_RETURN_IF(buf == NULL, SBF_E_NOMEM);
    int rc = sbfi_read_at(fd, buf, (size_t)total, 0);
    if (rc == SBF_OK)
        rc = e->decode(out, buf, (size_t)total, NULL);
    free(buf);
    return rc;
}

int sbf_load_as(sbf_filter **out, const char *path, int format, int *found)
{
    if (out != NULL)
        *out = NULL;
    if (found != NULL)
        *found = 0;
    SBFI_RETURN_IF(out == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(format != 0 && sbfi_format_get(format) == NULL, SBF_E_PARAM);
    unsigned char *head = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(head == NULL, SBF_E_NOMEM);
    int fd;
    uint64_t total = 0;
    size_t avail = 0;
    int rc = open_head(path, &fd, &total, head, &avail);
    if (rc == SBF_OK && format == 0) {
        rc = sbfi_format_detect(head, avail, total); /* one open: one file */
        format = rc > 0 ? rc : 0;
        rc = rc > 0 ? SBF_OK : rc;
    }
    if (rc == SBF_OK && found != NULL)
        *found = format;
    if (rc == SBF_OK)
        rc = format == SBF_FORMAT_SBF ? load_own(out, fd, total, head, avail)
                                      : load_other(out, fd, total, format);
    if (fd >= 0)
        close_keep_errno(fd);
    free(head);
    return rc;
}

int sbf_load(sbf_filter **out, const char *path)
{
    return sbf_load_as(out, path, SBF_FORMAT_SBF, NULL);
}

int sbf_file_format(const char *path)
{
    SBFI_RETURN_IF(path == NULL, SBF_E_NULL);
    unsigned char head[SBFI_DETECT_HEAD];
    int fd;
    uint64_t total = 0;
    size_t avail = 0;
    const int rc = open_head(path, &fd, &total, head, &avail);
    if (fd >= 0)
        close_keep_errno(fd);
    return rc == SBF_OK ? sbfi_format_detect(head, avail, total) : rc;
}

#define VERIFY_PIECE (16u << 20) /* sbf_verify_file reads 16 MiB at a time */

static int read_piece(void *ctx, void *buf, size_t n, uint64_t off)
{
    return sbfi_read_at(*(const int *)ctx, buf, n, off);
}

/* Version 2 in pieces; version 1 (one checksum over header and data, small
 * files of old) loaded whole and dropped. */
static int verify_open(int fd, uint64_t total, const unsigned char *head, size_t avail,
                       sbf_progress_fn progress, void *opaque)
{
    sbfi_header h;
    SBFI_FORWARD_IF_ERROR(sbfi_header_parse(head, avail, total, &h));
    if (h.version == 1) {
        sbf_filter *f;
        SBFI_FORWARD_IF_ERROR(load_own(&f, fd, total, head, avail));
        sbf_free(f);
        if (progress != NULL)
            progress(opaque, h.bytes, h.bytes);
        return SBF_OK;
    }
    const size_t cap = h.bytes < VERIFY_PIECE ? h.bytes : VERIFY_PIECE;
    unsigned char *buf = malloc(cap);
    SBFI_RETURN_IF(buf == NULL, SBF_E_NOMEM);
    const int rc = sbfi_data_check_pieces(&h, buf, cap, read_piece, &fd, progress, opaque);
    free(buf);
    return rc;
}

int sbf_verify_file(const char *path, sbf_progress_fn progress, void *opaque)
{
    SBFI_RETURN_IF(path == NULL, SBF_E_NULL);
    unsigned char *head = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(head == NULL, SBF_E_NOMEM);
    int fd;
    uint64_t total = 0;
    size_t avail = 0;
    int rc = open_head(path, &fd, &total, head, &avail);
    if (rc == SBF_OK)
        rc = verify_open(fd, total, head, avail, progress, opaque);
    if (fd >= 0)
        close_keep_errno(fd);
    free(head);
    return rc;
}

/* The mapping of a checked format-2 file's data. */
static int map_data(int fd, const sbfi_header *h, unsigned flags, sbfi_make_args *a)
{
    /* Version 1 keeps its data at byte 56, which cannot be mapped. */
    SBFI_RETURN_IF(h->version != 2, SBF_E_VERSION);
    /* The data offset, 4096, is a page boundary on 4 KiB-page systems; with
     * larger pages the mapping starts at the page below it. */
    const long page = sysconf(_SC_PAGESIZE);
    const size_t off = page > 0 && (size_t)page <= h->data_off
                           ? h->data_off / (size_t)page * (size_t)page : 0;
    const size_t skip = h->data_off - off, len = skip + h->bytes;
    unsigned char *base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
    SBFI_RETURN_IF(base == MAP_FAILED, SBF_E_IO);
    /* No madvise: MADV_RANDOM made a cold 1 GiB mapping take 26 s for 1e6
     * probes (one 4 KiB read per fault) against 1.2 s with the kernel's
     * read-around; verification reads every page once anyway. */
    if (!(flags & SBF_MAP_NO_VERIFY)) {
        const int rc = sbfi_data_check(h, NULL, base + skip); /* v2: no head */
        if (rc != SBF_OK) {
            (void)munmap(base, len);
            return rc;
        }
    }
    a->map = base;
    a->map_len = len;
    a->map_data = base + skip;
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
    sbfi_make_args a;
    int fd = -1;
    uint64_t total = 0;
    size_t avail = 0;
    int rc = sbfi_open_regular(path, &fd, &total);
    if (rc == SBF_OK)
        rc = read_head(fd, total, head, &avail);
    if (rc == SBF_OK)
        rc = sbfi_header_parse(head, avail, total, &h);
    if (rc == SBF_OK) {
        sbfi_args_from(&a, &h, NULL);
        a.kt = kt;
        rc = map_data(fd, &h, flags, &a);
    }
    if (fd >= 0)
        close_keep_errno(fd); /* the mapping keeps the file */
    free(head);
    /* A valid file of another form is not corrupt: it is not ours to map */
    if (rc == SBF_E_FORMAT) {
        const int form = sbf_file_format(path);
        if (form == SBF_FORMAT_GUAVA || form == SBF_FORMAT_PARQUET)
            rc = SBF_E_UNSUPPORTED;
    }
    /* The filter owns the mapping from here; sbf_free unmaps it. */
    return rc == SBF_OK ? sbfi_make(out, &a) : rc;
}

/* ------------------------------------------------------------------- lock */

struct sbf_file_lock {
    int fd; /* holds the flock; closing it releases the lock */
};

/* Gives up after this many replacements of the file while we waited. */
#define LOCK_RETRIES 1000

/* flock on fd, waiting unless nowait; SBF_E_LOCKED when another holds it. */
static int take_flock(int fd, int nowait)
{
    while (flock(fd, LOCK_EX | (nowait ? LOCK_NB : 0)) != 0) {
        if (errno == EINTR && !nowait)
            continue;
        return errno == EWOULDBLOCK ? SBF_E_LOCKED : SBF_E_IO;
    }
    return SBF_OK;
}

int sbf_lock_file(sbf_file_lock **out, const char *path, unsigned flags)
{
    if (out != NULL)
        *out = NULL;
    SBFI_RETURN_IF(out == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF((flags & ~(unsigned)SBF_LOCK_NOWAIT) != 0, SBF_E_PARAM);
    const int nowait = (flags & SBF_LOCK_NOWAIT) != 0;
    for (int tries = 0; tries < LOCK_RETRIES; tries++) {
        int fd;
        uint64_t size;
        SBFI_FORWARD_IF_ERROR(sbfi_open_regular(path, &fd, &size));
        const int rc = take_flock(fd, nowait);
        if (rc != SBF_OK) {
            close_keep_errno(fd);
            return rc;
        }
        /* A save replaces the file by rename: the lock we waited for may be
         * on a file path no longer names. It guards only the one path names. */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            sbf_file_lock *lk = malloc(sizeof *lk);
            if (lk == NULL) {
                (void)close(fd);
                return SBF_E_NOMEM;
            }
            lk->fd = fd;
            *out = lk;
            return SBF_OK;
        }
        (void)close(fd); /* replaced or removed: the next open says which */
    }
    errno = EAGAIN;
    return SBF_E_IO;
}

void sbf_unlock_file(sbf_file_lock *lk)
{
    if (lk == NULL)
        return;
    (void)close(lk->fd);
    free(lk);
}
