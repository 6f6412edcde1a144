/*
 * Files of any form (issue 16): detection from bytes and from files, any
 * form encoded, decoded, saved and loaded by number. Loaders that refuse
 * FIFOs and devices without blocking, and the file lock for
 * read-modify-write (issue 20).
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void tmpdir(char *dir, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, cap, "%s/sbf-forms-XXXXXX", t && *t ? t : "/tmp");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void rm_flat(const char *dir, const char *const *names, size_t n)
{
    char p[600];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(p, 1, n, fp), n);
    cr_assert_eq(fclose(fp), 0);
}

/* ------------------------------------------------------------- detection */

Test(forms, detect_bytes,
     .description = "sbf_format_detect: ours by magic, Guava's by its strategy byte, empty and cut-off magic truncated, others unknown")
{
    size_t len;
    unsigned char *own = tu_read_vector("sbf_v2_blocked.bin", &len);
    cr_assert_eq(sbf_format_detect(own, len), SBF_FORMAT_SBF);
    cr_assert_eq(sbf_format_detect(own, 4), SBF_FORMAT_SBF, "the magic decides");
    cr_assert_eq(sbf_format_detect(own, 3), SBF_E_TRUNCATED, "\"SBF\": a cut-off file");
    free(own);
    own = tu_read_vector("sbf_v1_counting.bin", &len);
    cr_assert_eq(sbf_format_detect(own, len), SBF_FORMAT_SBF, "version 1 too");
    free(own);
    unsigned char *gv = tu_read_vector("guava_long1k.bin", &len);
    cr_assert_eq(sbf_format_detect(gv, len), SBF_FORMAT_GUAVA);
    free(gv);
    const unsigned char mitz32[8] = { 0, 3, 0, 0, 0, 1, 0, 0 };
    cr_assert_eq(sbf_format_detect(mitz32, 8), SBF_FORMAT_GUAVA,
                 "ordinal 0: Guava's, its loader names the strategy");
    sbf_filter *f = (sbf_filter *)1;
    cr_assert_eq(sbf_decode(&f, mitz32, 8, 0, NULL), SBF_E_STRATEGY);
    cr_assert_null(f);
    cr_assert_eq(sbf_format_detect("", 0), SBF_E_TRUNCATED);
    cr_assert_eq(sbf_format_detect(NULL, 0), SBF_E_TRUNCATED);
    cr_assert_eq(sbf_format_detect(NULL, 5), SBF_E_NULL);
    cr_assert_eq(sbf_format_detect("\x15\x02hello", 7), SBF_E_FORMAT);
    cr_assert_eq(sbf_format_detect("PK\x03\x04", 4), SBF_E_FORMAT);
    cr_assert_eq(sbf_decode(&f, "PK\x03\x04", 4, 0, NULL), SBF_E_FORMAT);
    /* names */
    cr_assert_str_eq(sbf_format_name(SBF_FORMAT_SBF), "sbf");
    cr_assert_str_eq(sbf_format_name(SBF_FORMAT_GUAVA), "guava");
    cr_assert_str_eq(sbf_format_name(0), "unknown");
    cr_assert_str_eq(sbf_format_name(99), "unknown");
    cr_assert_eq(sbf_format_from_name("sbf"), SBF_FORMAT_SBF);
    cr_assert_eq(sbf_format_from_name("guava"), SBF_FORMAT_GUAVA);
    cr_assert_eq(sbf_format_from_name("Guava"), SBF_E_PARAM);
    cr_assert_eq(sbf_format_from_name(NULL), SBF_E_PARAM);
}

Test(forms, encode_decode_save_load_any,
     .description = "every form: sbf_encode = the form's writer, sbf_decode detects it, sbf_save_as writes those bytes, sbf_load_as finds the form")
{
    char dir[256], path[512];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f", dir);
    sbf_filter *f = tu_make(SBF_CLASSIC, 5000, 0.01, 0, 0, 0);
    uint64_t *keys = equiv_keys(3000, 12);
    cr_assert_eq(sbf_add_u64(f, keys, 3000), SBF_OK);
    static const int forms[] = { SBF_FORMAT_SBF, SBF_FORMAT_GUAVA };
    for (int i = 0; i < 2; i++) {
        void *buf, *ref;
        size_t len, rlen;
        cr_assert_eq(sbf_encode(f, forms[i], &buf, &len), SBF_OK);
        cr_assert_eq(i == 0 ? sbf_serialize(f, &ref, &rlen) : sbf_export_guava(f, &ref, &rlen),
                     SBF_OK);
        cr_assert_eq(len, rlen);
        cr_assert_eq(memcmp(buf, ref, len), 0, "form %d: the form's own writer", forms[i]);
        cr_assert_eq(sbf_format_detect(buf, len), forms[i]);
        sbf_filter *g;
        cr_assert_eq(sbf_decode(&g, buf, len, 0, NULL), SBF_OK);
        cr_assert(equiv_same_bytes(f, g));
        sbf_free(g);
        cr_assert_eq(sbf_save_as(f, path, forms[i]), SBF_OK);
        cr_assert_eq(sbf_file_format(path), forms[i]);
        size_t flen;
        FILE *fp = fopen(path, "rb");
        unsigned char *fb = malloc(len + 1);
        flen = fread(fb, 1, len + 1, fp);
        fclose(fp);
        cr_assert_eq(flen, len);
        cr_assert_eq(memcmp(fb, buf, len), 0, "the file is the form's bytes");
        free(fb);
        int found = -1;
        cr_assert_eq(sbf_load_as(&g, path, 0, &found), SBF_OK);
        cr_assert_eq(found, forms[i]);
        cr_assert(equiv_same_bytes(f, g));
        cr_assert_eq(sbf_contains_u64(g, keys, 3000, NULL), 3000);
        sbf_free(g);
        cr_assert_eq(sbf_load_as(&g, path, forms[i], NULL), SBF_OK, "the form given");
        sbf_free(g);
        g = (sbf_filter *)1;
        cr_assert_lt(sbf_load_as(&g, path, forms[1 - i], &found), 0, "the wrong form given");
        cr_assert_null(g);
        sbf_buffer_free(buf);
        sbf_buffer_free(ref);
    }
    /* refusals */
    void *buf = (void *)1;
    size_t len = 1;
    cr_assert_eq(sbf_encode(f, 0, &buf, &len), SBF_E_PARAM);
    cr_assert_null(buf);
    cr_assert_eq(sbf_encode(f, 77, &buf, &len), SBF_E_PARAM);
    cr_assert_eq(sbf_save_as(f, path, 77), SBF_E_PARAM);
    cr_assert_eq(sbf_save_as(f, path, 0), SBF_E_PARAM);
    sbf_filter *g = (sbf_filter *)1;
    cr_assert_eq(sbf_load_as(&g, path, 77, NULL), SBF_E_PARAM);
    cr_assert_null(g);
    cr_assert_eq(sbf_decode(&g, "x", 1, 77, NULL), SBF_E_PARAM);
    sbf_filter *seeded = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 4);
    cr_assert_eq(sbf_save_as(seeded, path, SBF_FORMAT_GUAVA), SBF_E_UNSUPPORTED);
    sbf_free(seeded);
    write_file(path, "garbage!", 8);
    int found = -1;
    cr_assert_eq(sbf_file_format(path), SBF_E_FORMAT);
    cr_assert_eq(sbf_load_as(&g, path, 0, &found), SBF_E_FORMAT);
    cr_assert_eq(found, 0);
    write_file(path, "", 0);
    cr_assert_eq(sbf_file_format(path), SBF_E_TRUNCATED);
    free(keys);
    sbf_free(f);
    const char *names[] = { "f" };
    rm_flat(dir, names, 1);
}

/* ------------------------------------------------------- not regular files */

Test(forms, fifo_refused_without_blocking, .timeout = 60,
     .description = "issue 20: every loader (and the lock) answers SBF_E_IO/EINVAL for a FIFO at once, where open() used to block; saves never replace one")
{
    char dir[256], fifo[512], link[512];
    tmpdir(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/p", dir);
    snprintf(link, sizeof link, "%s/l", dir);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    cr_assert_eq(symlink("p", link), 0);
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        alarm(30); /* a blocked open() ends the child by SIGALRM */
        const char *paths[] = { fifo, link };
        int bad = 0;
        for (int i = 0; i < 2; i++) {
            sbf_filter *f = NULL;
            sbf_file_lock *lk = NULL;
            errno = 0;
            bad |= (sbf_load(&f, paths[i]) != SBF_E_IO || errno != EINVAL) << 0;
            errno = 0;
            bad |= (sbf_map(&f, paths[i], 0) != SBF_E_IO || errno != EINVAL) << 1;
            errno = 0;
            bad |= (sbf_load_as(&f, paths[i], 0, NULL) != SBF_E_IO || errno != EINVAL) << 2;
            errno = 0;
            bad |= (sbf_file_format(paths[i]) != SBF_E_IO || errno != EINVAL) << 3;
            errno = 0;
            bad |= (sbf_lock_file(&lk, paths[i], 0) != SBF_E_IO || errno != EINVAL) << 4;
            sbf_filter *g = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
            errno = 0;
            bad |= (sbf_save(g, paths[i]) != SBF_E_IO || errno != EINVAL) << 5;
            sbf_free(g);
        }
        _exit(bad);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st), "the child was killed (signal %d): a loader blocked",
              WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    cr_assert_eq(WEXITSTATUS(st), 0, "failed checks (bit per call): %#x", WEXITSTATUS(st));
    struct stat s;
    cr_assert_eq(lstat(fifo, &s), 0);
    cr_assert(S_ISFIFO(s.st_mode), "the FIFO is still a FIFO");
    /* a device */
    sbf_filter *f = (sbf_filter *)1;
    errno = 0;
    cr_assert_eq(sbf_load_as(&f, "/dev/zero", 0, NULL), SBF_E_IO);
    cr_assert_eq(errno, EINVAL);
    cr_assert_null(f);
    cr_assert_eq(sbf_map(&f, "/dev/zero", SBF_MAP_NO_VERIFY), SBF_E_IO);
    const char *names[] = { "p", "l" };
    rm_flat(dir, names, 2);
}

/* ------------------------------------------------------------------ lock */

/* A child that takes the lock, says so on `ready`, waits for a byte on
 * `go`, optionally saves `save` over path, then unlocks and exits. */
static pid_t locker(const char *path, int ready, int go, const sbf_filter *save)
{
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid != 0)
        return pid;
    alarm(60);
    sbf_file_lock *lk;
    if (sbf_lock_file(&lk, path, 0) != SBF_OK)
        _exit(1);
    if (write(ready, "r", 1) != 1)
        _exit(2);
    char c;
    if (read(go, &c, 1) != 1)
        _exit(3);
    /* time for the parent to open the file and wait on its lock (if it is
     * slower, the test still passes, checking less) */
    usleep(300000);
    if (save != NULL && sbf_save(save, path) != SBF_OK)
        _exit(4);
    sbf_unlock_file(lk);
    _exit(0);
}

static void wait_ok(pid_t pid)
{
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
}

Test(forms, lock_excludes_and_follows_renames, .timeout = 60,
     .description = "issue 20: SBF_LOCK_NOWAIT fails while another holds it; a waiter granted the replaced file re-locks the new one")
{
    char dir[256], path[512];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.sbf", dir);
    sbf_file_lock *lk = (sbf_file_lock *)1;
    cr_assert_eq(sbf_lock_file(&lk, path, 0), SBF_E_IO, "no file");
    cr_assert_eq(errno, ENOENT);
    cr_assert_null(lk);
    sbf_filter *a = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_save(a, path), SBF_OK);
    cr_assert_eq(sbf_lock_file(&lk, path, 2), SBF_E_PARAM);
    cr_assert_eq(sbf_lock_file(NULL, path, 0), SBF_E_NULL);
    cr_assert_eq(sbf_lock_file(&lk, path, SBF_LOCK_NOWAIT), SBF_OK);
    sbf_unlock_file(lk);
    sbf_unlock_file(NULL);
    /* A holds the lock and will save; B waits for it meanwhile (in this
     * process); once A saved (a new file by rename) and unlocked, B holds
     * the new file: a third process is refused. */
    int r[2], g[2];
    cr_assert_eq(pipe(r), 0);
    cr_assert_eq(pipe(g), 0);
    sbf_filter *b = tu_make(SBF_BLOCKED, 100, 0.01, 0, 0, 0);
    cr_assert_eq(sbf_add(b, "from A", 6), 1);
    const pid_t pa = locker(path, r[1], g[0], b);
    char c;
    cr_assert_eq(read(r[0], &c, 1), 1);
    cr_assert_eq(sbf_lock_file(&lk, path, SBF_LOCK_NOWAIT), SBF_E_LOCKED);
    cr_assert_eq(SBF_E_LOCKED, -25, "numbered once");
    cr_assert_str_neq(sbf_strerror(SBF_E_LOCKED), sbf_strerror(-9999));
    struct stat before;
    cr_assert_eq(stat(path, &before), 0);
    cr_assert_eq(write(g[1], "g", 1), 1); /* A: save and unlock, soon */
    cr_assert_eq(sbf_lock_file(&lk, path, 0), SBF_OK, "B waits, then holds");
    wait_ok(pa);
    struct stat after;
    cr_assert_eq(stat(path, &after), 0);
    cr_assert_neq(before.st_ino, after.st_ino, "A's save replaced the file");
    sbf_filter *seen;
    cr_assert_eq(sbf_load(&seen, path), SBF_OK);
    cr_assert_eq(sbf_contains(seen, "from A", 6), 1, "B reads what A wrote");
    sbf_free(seen);
    const pid_t pc = fork();
    cr_assert_geq(pc, 0);
    if (pc == 0) {
        sbf_file_lock *l2;
        _exit(sbf_lock_file(&l2, path, SBF_LOCK_NOWAIT) == SBF_E_LOCKED ? 0 : 1);
    }
    wait_ok(pc); /* B's lock is on the file path names now */
    sbf_unlock_file(lk);
    close(r[0]);
    close(r[1]);
    close(g[0]);
    close(g[1]);
    sbf_free(a);
    sbf_free(b);
    const char *names[] = { "f.sbf" };
    rm_flat(dir, names, 1);
}

#define RMW_PROCS 4
#define RMW_ROUNDS 15

Test(forms, lock_keeps_every_read_modify_write, .timeout = 120,
     .description = "issue 20: four processes each load, add their keys and save 15 times under the lock: every key of every process is in the file")
{
    char dir[256], path[512];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.sbf", dir);
    sbf_filter *f = tu_make(SBF_BLOCKED, 10000, 0.001, 0, 0, 0);
    cr_assert_eq(sbf_save(f, path), SBF_OK);
    sbf_free(f);
    pid_t pids[RMW_PROCS];
    for (int p = 0; p < RMW_PROCS; p++) {
        pids[p] = fork();
        cr_assert_geq(pids[p], 0);
        if (pids[p] != 0)
            continue;
        alarm(100);
        for (uint64_t round = 0; round < RMW_ROUNDS; round++) {
            sbf_file_lock *lk;
            sbf_filter *g;
            const uint64_t key = (uint64_t)p << 32 | round;
            if (sbf_lock_file(&lk, path, 0) != SBF_OK || sbf_load(&g, path) != SBF_OK)
                _exit(1);
            usleep(200); /* widen the window a lost update needs */
            if (sbf_add(g, &key, 8) < 0 || sbf_save(g, path) != SBF_OK)
                _exit(2);
            sbf_free(g);
            sbf_unlock_file(lk);
        }
        _exit(0);
    }
    for (int p = 0; p < RMW_PROCS; p++)
        wait_ok(pids[p]);
    cr_assert_eq(sbf_load(&f, path), SBF_OK);
    for (uint64_t p = 0; p < RMW_PROCS; p++)
        for (uint64_t round = 0; round < RMW_ROUNDS; round++) {
            const uint64_t key = p << 32 | round;
            cr_assert_eq(sbf_contains(f, &key, 8), 1, "process %llu round %llu lost",
                         (unsigned long long)p, (unsigned long long)round);
        }
    struct sbf_info in;
    cr_assert_eq(sbf_info(f, &in), SBF_OK);
    cr_assert_eq(in.keys_added, RMW_PROCS * RMW_ROUNDS);
    sbf_free(f);
    const char *names[] = { "f.sbf" };
    rm_flat(dir, names, 1);
}
