/*
 * Crash-safe saves of a filter in any form (sbf_save, sbf_save_as): a
 * temporary file beside the target is written, fsync'd and renamed over
 * it, then the directory is fsync'd. The save keeps the file as the user
 * knows it: through a symbolic link it writes the file the link points to
 * (the link stays a link); over an existing file it keeps its mode and, as
 * far as the caller's rights allow, its owner and group.
 *
 * Temporary names are "." + the target's name (cut to fit NAME_MAX) +
 * ".sbf-tmp-" + a slot digit, in the target's directory. A save holds an
 * exclusive flock on its temporary file from creation to rename, so a
 * temporary file nobody holds was left by a save that died (SIGKILL, power
 * loss): the next save of that target removes it. One that another user
 * owns is left alone (we could not tell it is ours), and when every slot is
 * taken the save fails with SBF_E_IO, errno EEXIST. On SBF_E_IO, errno is
 * the failed call's.
 */
#define _GNU_SOURCE 1
#include "persist.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_CHUNK (1u << 30) /* write at most 1 GiB per call */
#define TMP_TAG ".sbf-tmp-"
#define TMP_SLOTS 8         /* concurrent saves of one target, and stale files */
#define MAX_LINKS 40        /* symbolic links followed, as the kernel's limit */

/* Runs a cleanup call keeping errno (the error reported is an earlier one). */
#define KEEP_ERRNO(call) do { const int e_ = errno; (void)(call); errno = e_; } while (0)

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

/* The target of a symbolic link at path, as a path (relative links are
 * relative to the link's directory). malloc'd, or NULL with errno. */
static char *link_target(const char *path, size_t hint)
{
    size_t cap = hint + 1 > 64 ? hint + 1 : 64;
    for (;;) {
        char *buf = malloc(cap);
        if (buf == NULL)
            return NULL;
        const ssize_t n = readlink(path, buf, cap);
        if (n < 0) {
            KEEP_ERRNO(free(buf));
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            const char *slash = strrchr(path, '/');
            if (buf[0] == '/' || slash == NULL)
                return buf;
            const size_t dl = (size_t)(slash - path) + 1;
            char *full = malloc(dl + (size_t)n + 1);
            if (full != NULL) {
                memcpy(full, path, dl);
                memcpy(full + dl, buf, (size_t)n + 1);
            }
            KEEP_ERRNO(free(buf));
            return full;
        }
        free(buf); /* the link grew: try again with room */
        cap *= 2;
    }
}

/* The file a save of path writes: path, or the file its chain of symbolic
 * links ends at (which need not exist yet). malloc'd, or NULL with errno. */
static char *save_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur != NULL; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT)
                return cur; /* a new file; a missing directory fails later */
            KEEP_ERRNO(free(cur));
            return NULL;
        }
        if (!S_ISLNK(st.st_mode))
            return cur;
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char *next = link_target(cur, (size_t)st.st_size);
        KEEP_ERRNO(free(cur));
        cur = next;
    }
    return NULL;
}

/* The temporary name of `slot` for target `base`, within name_max bytes. */
static void temp_name(char *out, size_t cap, const char *base, long name_max, int slot)
{
    const long room = name_max - (long)(sizeof TMP_TAG - 1) - 2; /* ".", digit */
    const size_t len = strlen(base);
    const int keep = room <= 0 ? 0 : (size_t)room < len ? (int)room : (int)len;
    snprintf(out, cap, ".%.*s" TMP_TAG "%d", keep, base, slot);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Removes the temporary file `name` if a dead save left it: ours (same
 * owner, a regular file) and held by no save (its flock is free). */
static void clean_stale(int dfd, const char *name)
{
    const int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat a, b;
    if (fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && a.st_uid == geteuid() &&
        flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        fstatat(dfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&a, &b))
        (void)unlinkat(dfd, name, 0);
    (void)close(fd);
}

/* Creates and locks a temporary file for target `base` in dfd; its name
 * goes to `name`. The fd, or -1 with errno. */
static int open_temp(int dfd, const char *base, mode_t mode, char *name, size_t cap)
{
    long name_max = fpathconf(dfd, _PC_NAME_MAX);
    if (name_max <= 0 || name_max > NAME_MAX)
        name_max = NAME_MAX;
    const int e = errno;
    for (int slot = 0; slot < TMP_SLOTS; slot++) {
        temp_name(name, cap, base, name_max, slot);
        clean_stale(dfd, name);
    }
    errno = e;
    for (int slot = 0; slot < TMP_SLOTS; slot++) {
        temp_name(name, cap, base, name_max, slot);
        const int fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0) {
            if (errno == EEXIST)
                continue; /* a live save's, or another user's: next slot */
            return -1;
        }
        /* Locked, and still ours: a cleaner may have taken it in between. */
        struct stat a, b;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &a) == 0 &&
            fstatat(dfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&a, &b))
            return fd;
        (void)close(fd);
    }
    errno = EEXIST;
    return -1;
}

/* The existing target's owner, group and mode on the new file; a change of
 * owner or group the caller may not make is skipped (EPERM). */
static int keep_owner_mode(int fd, const struct stat *st)
{
    if (fchown(fd, st->st_uid, st->st_gid) != 0) {
        SBFI_RETURN_IF(errno != EPERM, SBF_E_IO);
        if (fchown(fd, (uid_t)-1, st->st_gid) != 0)
            SBFI_RETURN_IF(errno != EPERM, SBF_E_IO);
    }
    /* after fchown, which may clear set-user/group-ID bits */
    SBFI_RETURN_IF(fchmod(fd, st->st_mode & 07777) != 0, SBF_E_IO);
    return SBF_OK;
}

/* Writes, syncs and renames the temporary file fd (named tmp) over base. */
static int write_rename(int dfd, int fd, const char *tmp, const char *base,
                        const sbfi_piece *pieces, size_t n)
{
    for (size_t i = 0; i < n; i++)
        SBFI_FORWARD_IF_ERROR(write_all(fd, pieces[i].p, pieces[i].n));
    SBFI_RETURN_IF(fsync(fd) != 0, SBF_E_IO);
    SBFI_RETURN_IF(renameat(dfd, tmp, dfd, base) != 0, SBF_E_IO);
    return SBF_OK;
}

/* Saves into directory dfd under base (not a symbolic link). */
static int save_in(int dfd, const char *base, const sbfi_piece *pieces, size_t n)
{
    struct stat st;
    const int exists = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    SBFI_RETURN_IF(!exists && errno != ENOENT, SBF_E_IO);
    if (exists && !S_ISREG(st.st_mode)) { /* never replace a directory, FIFO, device */
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return SBF_E_IO;
    }
    char tmp[NAME_MAX + 1];
    /* New files get 0666 minus the umask, as open() gives; an existing
     * file's mode is set once the temporary file is ours alone (0600). */
    const int fd = open_temp(dfd, base, exists ? 0600 : 0666, tmp, sizeof tmp);
    SBFI_RETURN_IF(fd < 0, SBF_E_IO);
    int rc = exists ? keep_owner_mode(fd, &st) : SBF_OK;
    if (rc == SBF_OK)
        rc = write_rename(dfd, fd, tmp, base, pieces, n);
    if (rc != SBF_OK)
        KEEP_ERRNO(unlinkat(dfd, tmp, 0));
    /* closed only now: its lock kept cleaners of other saves away */
    if (rc == SBF_OK && close(fd) != 0)
        rc = SBF_E_IO;
    else if (rc != SBF_OK)
        KEEP_ERRNO(close(fd));
    /* The new name is durable only once the directory is. */
    if (rc == SBF_OK && fsync(dfd) != 0 && errno != EINVAL) /* EINVAL: no dir fsync */
        rc = SBF_E_IO;
    return rc;
}

int sbfi_save_pieces(const char *path, const sbfi_piece *pieces, size_t n)
{
    char *target = save_target(path);
    SBFI_RETURN_IF(target == NULL, SBF_E_IO);
    char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    const char *dir = slash == NULL ? "." : slash == target ? "/" : target;
    if (slash != NULL && slash != target)
        *slash = '\0';
    int rc = SBF_E_IO;
    if (*base == '\0') {
        errno = EISDIR; /* "dir/": names a directory */
    } else {
        const int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            rc = save_in(dfd, base, pieces, n);
            KEEP_ERRNO(close(dfd));
        }
    }
    KEEP_ERRNO(free(target));
    return rc;
}

int sbf_save(const sbf_filter *f, const char *path)
{
    SBFI_RETURN_IF(f == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(path[0] == '\0', SBF_E_PARAM);
    unsigned char *hdr = malloc(SBFI_V2_HEADER);
    SBFI_RETURN_IF(hdr == NULL, SBF_E_NOMEM);
    int rc = sbfi_header_v2(f, hdr);
    if (rc == SBF_OK) {
        /* the file is sbf_serialize's bytes without a second copy */
        const sbfi_piece pieces[2] = { { hdr, SBFI_V2_HEADER }, { f->words, f->bytes } };
        rc = sbfi_save_pieces(path, pieces, 2);
    }
    KEEP_ERRNO(free(hdr));
    return rc;
}

int sbf_save_as(const sbf_filter *f, const char *path, int format)
{
    SBFI_RETURN_IF(f == NULL || path == NULL, SBF_E_NULL);
    SBFI_RETURN_IF(path[0] == '\0', SBF_E_PARAM);
    if (format == SBF_FORMAT_SBF)
        return sbf_save(f, path);
    void *buf;
    size_t len;
    SBFI_FORWARD_IF_ERROR(sbf_encode(f, format, &buf, &len));
    const sbfi_piece piece = { buf, len };
    const int rc = sbfi_save_pieces(path, &piece, 1);
    KEEP_ERRNO(sbf_buffer_free(buf));
    return rc;
}
