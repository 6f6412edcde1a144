/*
 * Saves that keep the file (issue 20): mode and owner kept, symbolic links
 * written through, any legal name, stale temporary files of killed saves
 * removed; loaders that refuse FIFOs without blocking; the file lock for
 * read-modify-write; formats detected and saved in any form (issue 16).
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void tmpdir(char *dir, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, cap, "%s/sbf-save-XXXXXX", t && *t ? t : "/tmp");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char p[PATH_MAX + 300];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* Entries of dir (not . and ..), their names joined by '/' into out. */
static int entries(const char *dir, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    if (out)
        out[0] = '\0';
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        if (out && strlen(out) + strlen(e->d_name) + 2 < cap) {
            strcat(out, "/");
            strcat(out, e->d_name);
        }
    }
    closedir(d);
    return n;
}

static sbf_filter *small_filter(uint64_t salt)
{
    sbf_filter *f = tu_make(SBF_CLASSIC, 1000, 0.01, 0, 0, 0);
    for (uint64_t i = 0; i < 100; i++) {
        const uint64_t k = i * 31 + salt;
        sbf_add(f, &k, 8);
    }
    return f;
}

/* 1 if path holds f in form `format`. */
static int holds(const char *path, const sbf_filter *f, int format)
{
    sbf_filter *g;
    int found;
    if (sbf_load_as(&g, path, 0, &found) != SBF_OK)
        return 0;
    const int same = found == format && equiv_same_bytes(f, g);
    sbf_free(g);
    return same;
}

static const int forms[] = { SBF_FORMAT_SBF, SBF_FORMAT_GUAVA };

/* ------------------------------------------------------- mode and owner */

Test(save, keeps_mode_and_owner,
     .description = "sbf_save and the Guava form's save keep an existing file's mode and owner; a new file gets 0666 minus the umask")
{
    char dir[256], path[512];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.sbf", dir);
    sbf_filter *f = small_filter(1);
    static const mode_t modes[] = { 0600, 0640, 0755, 0444, 02750 };
    for (size_t fi = 0; fi < 2; fi++) {
        for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
            cr_assert_eq(sbf_save_as(f, path, forms[fi]), SBF_OK);
            cr_assert_eq(chmod(path, modes[mi]), 0);
            cr_assert_eq(sbf_save_as(f, path, forms[fi]), SBF_OK);
            struct stat st;
            cr_assert_eq(stat(path, &st), 0);
            cr_assert_eq(st.st_mode & 07777, modes[mi], "form %d: mode %o became %o",
                         forms[fi], modes[mi], st.st_mode & 07777);
            cr_assert(holds(path, f, forms[fi]));
        }
        unlink(path);
        const mode_t old = umask(027);
        cr_assert_eq(sbf_save_as(f, path, forms[fi]), SBF_OK);
        umask(old);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_eq(st.st_mode & 07777, 0640, "a new file: 0666 & ~umask");
        unlink(path);
    }
    /* Owner: root can give the file away and gets it back; others can
     * keep a group they are in (tried when they have a second one). */
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    uid_t uid = geteuid();
    gid_t gid = (gid_t)-1;
    if (uid == 0) {
        uid = 65534;
        gid = 65534;
    } else {
        gid_t groups[64];
        const int n = getgroups(64, groups);
        for (int i = 0; i < n; i++)
            if (groups[i] != getegid())
                gid = groups[i];
        if (gid == (gid_t)-1)
            uid = (uid_t)-1;
    }
    if (gid != (gid_t)-1) {
        cr_assert_eq(chown(path, uid, gid), 0);
        for (size_t fi = 0; fi < 2; fi++) {
            cr_assert_eq(sbf_save_as(f, path, forms[fi]), SBF_OK);
            struct stat st;
            cr_assert_eq(stat(path, &st), 0);
            cr_assert_eq(st.st_gid, gid, "group kept");
            if (uid != (uid_t)-1)
                cr_assert_eq(st.st_uid, uid, "owner kept");
        }
    }
    sbf_free(f);
    rm_tree(dir);
}

/* ------------------------------------------------------- symbolic links */

Test(save, writes_through_symlinks,
     .description = "saving to a link (relative, absolute, a chain, dangling) writes its target; the link stays a link; loops are ELOOP")
{
    char dir[256], sub[300], target[400], l1[400], l2[400], l3[400], buf[1024];
    tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/data", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    snprintf(target, sizeof target, "%s/t.sbf", sub);
    snprintf(l1, sizeof l1, "%s/rel.sbf", dir);
    snprintf(l2, sizeof l2, "%s/chain.sbf", dir);
    snprintf(l3, sizeof l3, "%s/abs.sbf", dir);
    sbf_filter *a = small_filter(1), *b = small_filter(2);
    cr_assert_eq(sbf_save(a, target), SBF_OK);
    cr_assert_eq(chmod(target, 0600), 0);
    cr_assert_eq(symlink("data/t.sbf", l1), 0);
    cr_assert_eq(symlink("rel.sbf", l2), 0);
    cr_assert_eq(symlink(target, l3), 0);
    const char *links[] = { l1, l2, l3 };
    for (size_t fi = 0; fi < 2; fi++) {
        for (int i = 0; i < 3; i++) {
            sbf_filter *w = (i + (int)fi) & 1 ? a : b;
            cr_assert_eq(sbf_save_as(w, links[i], forms[fi]), SBF_OK, "link %d", i);
            struct stat st;
            cr_assert_eq(lstat(links[i], &st), 0);
            cr_assert(S_ISLNK(st.st_mode), "link %d is still a link", i);
            cr_assert(holds(target, w, forms[fi]), "the target holds the save");
            cr_assert_eq(stat(target, &st), 0);
            cr_assert_eq(st.st_mode & 07777, 0600, "the target's mode kept");
            cr_assert_eq(entries(dir, buf, sizeof buf), 4, "%s", buf);
            cr_assert_eq(entries(sub, buf, sizeof buf), 1, "no temporary file: %s", buf);
        }
    }
    cr_assert_eq(readlink(l1, buf, sizeof buf), 10);
    cr_assert_eq(memcmp(buf, "data/t.sbf", 10), 0, "the link's text unchanged");
    /* a dangling link: the save creates its target */
    snprintf(l1, sizeof l1, "%s/dangling.sbf", dir);
    cr_assert_eq(symlink("data/new.sbf", l1), 0);
    cr_assert_eq(sbf_save(a, l1), SBF_OK);
    snprintf(target, sizeof target, "%s/new.sbf", sub);
    cr_assert(holds(target, a, SBF_FORMAT_SBF));
    /* a loop */
    snprintf(l1, sizeof l1, "%s/loop1", dir);
    snprintf(l2, sizeof l2, "%s/loop2", dir);
    cr_assert_eq(symlink("loop2", l1), 0);
    cr_assert_eq(symlink("loop1", l2), 0);
    errno = 0;
    cr_assert_eq(sbf_save(a, l1), SBF_E_IO);
    cr_assert_eq(errno, ELOOP);
    sbf_free(a);
    sbf_free(b);
    rm_tree(dir);
}

/* ---------------------------------------------------------------- names */

Test(save, any_legal_name,
     .description = "names up to NAME_MAX (255 bytes) save and load; the temporary name fits; nothing left over")
{
    char dir[256], path[600], name[300], list[2048];
    tmpdir(dir, sizeof dir);
    sbf_filter *f = small_filter(3);
    static const size_t lens[] = { 1, 200, 230, 244, 245, 254, 255 };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        memset(name, 'n', lens[i]);
        name[lens[i]] = '\0';
        snprintf(path, sizeof path, "%s/%s", dir, name);
        for (size_t fi = 0; fi < 2; fi++) {
            const int rc = sbf_save_as(f, path, forms[fi]);
            cr_assert_eq(rc, SBF_OK, "name of %zu bytes: %s (%s)", lens[i], sbf_strerror(rc),
                         strerror(errno));
            cr_assert(holds(path, f, forms[fi]));
            cr_assert_eq(entries(dir, list, sizeof list), 1, "%s", list);
        }
        unlink(path);
    }
    /* one byte more than the file system allows is the system's error */
    memset(name, 'n', 256);
    name[256] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    errno = 0;
    cr_assert_eq(sbf_save(f, path), SBF_E_IO);
    cr_assert_eq(errno, ENAMETOOLONG);
    cr_assert_eq(entries(dir, NULL, 0), 0);
    sbf_free(f);
    rm_tree(dir);
}

/* ------------------------------------------------- stale temporary files */

/* The name a save of base uses in slot i (src/save.c; doc'd in the header). */
static void slot_name(char *out, size_t cap, const char *dir, const char *base, int i)
{
    snprintf(out, cap, "%s/.%s.sbf-tmp-%d", dir, base, i);
}

Test(save, killed_save_cleaned_by_next, .timeout = 120,
     .description = "a save SIGKILLed mid-write leaves a temporary file; the next save of that file removes it")
{
    char dir[256], path[512], list[2048];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.sbf", dir);
    sbf_filter *big = tu_make(SBF_BLOCKED, 0, 0, UINT64_C(256) << 20, 8, 1); /* 32 MiB */
    sbf_filter *f = small_filter(4);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    int stale = 0;
    uint64_t s = 7;
    for (int round = 0; round < 50 && stale < 3; round++) {
        const pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (pid == 0)
            for (;;)
                (void)sbf_save(big, path);
        struct timespec ts = { 0, (long)(tu_splitmix64(&s) % 40000) * 1000 };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        if (entries(dir, list, sizeof list) == 1)
            continue; /* killed between saves */
        stale++;
        cr_assert(strstr(list, "/.f.sbf.sbf-tmp-") != NULL, "%s", list);
        cr_assert_eq(sbf_save(f, path), SBF_OK);
        cr_assert_eq(entries(dir, list, sizeof list), 1, "left after the next save: %s", list);
        cr_assert(holds(path, f, SBF_FORMAT_SBF));
    }
    cr_assert_geq(stale, 1, "no kill landed inside a save in 50 tries");
    sbf_free(big);
    sbf_free(f);
    rm_tree(dir);
}

Test(save, live_and_foreign_temporaries_kept,
     .description = "a temporary file a live save holds is not removed (the save takes another slot); with every slot held the save fails EEXIST")
{
    char dir[256], path[512], tmp[600];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.sbf", dir);
    sbf_filter *f = small_filter(5);
    int fds[8];
    for (int i = 0; i < 8; i++) {
        slot_name(tmp, sizeof tmp, dir, "f.sbf", i);
        fds[i] = open(tmp, O_RDWR | O_CREAT | O_EXCL, 0600);
        cr_assert_geq(fds[i], 0);
        if (i < 7)
            cr_assert_eq(flock(fds[i], LOCK_EX), 0); /* a save in progress */
    }
    /* slot 7 is unlocked: stale, removed and used */
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    cr_assert_eq(entries(dir, NULL, 0), 1 + 7, "the seven held ones stay");
    cr_assert(holds(path, f, SBF_FORMAT_SBF));
    /* all eight held: nowhere to write, nothing changed */
    slot_name(tmp, sizeof tmp, dir, "f.sbf", 7);
    const int fd7 = open(tmp, O_RDWR | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd7, 0);
    cr_assert_eq(flock(fd7, LOCK_EX), 0);
    sbf_filter *g = small_filter(6);
    errno = 0;
    cr_assert_eq(sbf_save(g, path), SBF_E_IO);
    cr_assert_eq(errno, EEXIST);
    cr_assert(holds(path, f, SBF_FORMAT_SBF), "the old file untouched");
    /* released (their saves died): the next save clears them all */
    for (int i = 0; i < 8; i++)
        close(fds[i]);
    close(fd7);
    cr_assert_eq(sbf_save(g, path), SBF_OK);
    cr_assert_eq(entries(dir, NULL, 0), 1);
    if (geteuid() == 0) { /* another user's file is never taken for stale */
        slot_name(tmp, sizeof tmp, dir, "f.sbf", 0);
        const int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL, 0600);
        cr_assert_geq(fd, 0);
        cr_assert_eq(fchown(fd, 65534, 65534), 0);
        close(fd);
        cr_assert_eq(sbf_save(f, path), SBF_OK);
        cr_assert_eq(access(tmp, F_OK), 0, "another user's temporary file stays");
        cr_assert_eq(entries(dir, NULL, 0), 2);
    }
    sbf_free(f);
    sbf_free(g);
    rm_tree(dir);
}
