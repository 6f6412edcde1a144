/*
 * sbf: simdbloom filters from a shell. A thin program over the public
 * header: every output filter goes through sbf_save (crash-safe), Guava
 * output through the same temporary-file-and-rename discipline.
 *
 *   sbf create FILE [--layout L] [-n N] [--fpp P] [--bits B] [--k K] [--seed S] [--force]
 *   sbf add FILE [KEYFILE|-] [--u64]
 *   sbf remove FILE [KEYFILE|-] [--u64]
 *   sbf query FILE [KEYFILE|-] [--u64] [--count]
 *   sbf info FILE [--json]
 *   sbf convert --to sbf|guava IN OUT
 *   sbf union OUT A B
 *
 * Exit status: 0 success, 1 failure (a message on stderr names the file and
 * the reason), 2 usage error.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "simdbloom.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "the --u64 parser reads 8 digits as a little-endian word"
#endif

#define EXIT_USAGE 2
#define BATCH 8192             /* keys per batched call */
#define READ_CHUNK (4u << 20)  /* bytes per read() of the key file */

/* ------------------------------------------------------------------ output */

static const char *prog = "sbf";

__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_FAILURE);
}

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see '%s --help')\n", prog);
    va_end(ap);
    exit(EXIT_USAGE);
}

/* An sbf_* error about a file: SBF_E_IO carries errno's reason. */
__attribute__((noreturn))
static void fail_code(const char *file, int code)
{
    if (code == SBF_E_IO)
        fail("%s: %s: %s", file, sbf_strerror(code), strerror(errno));
    fail("%s: %s", file, sbf_strerror(code));
}

static const char *const help_main =
    "usage: sbf COMMAND [ARGS]   (sbf COMMAND --help for each)\n"
    "\n"
    "Bloom filters in simdbloom's file format (README \"File format\").\n"
    "\n"
    "  create FILE [options]          a new empty filter\n"
    "  add FILE [KEYFILE|-]           add keys (one per line)\n"
    "  remove FILE [KEYFILE|-]        remove keys (counting layout only)\n"
    "  query FILE [KEYFILE|-]         1 (may be present) or 0 (absent) per key\n"
    "  info FILE [--json]             geometry, fill, estimates, ISA\n"
    "  convert --to sbf|guava IN OUT  between our format and Guava's writeTo\n"
    "  union OUT A B                  OUT = A | B\n"
    "\n"
    "Keys are read one per line from KEYFILE or standard input (- or none):\n"
    "the line's bytes without its newline, exactly what sbf_add(f, line, len)\n"
    "hashes; with --u64, decimal 64-bit integers hashed as sbf_add_u64 does.\n"
    "Output files are written crash-safely (temporary file, fsync, rename).\n"
    "Exit status: 0 success, 1 failure (message on stderr), 2 usage error.\n";

static const char *const help_create =
    "usage: sbf create FILE [--layout classic|blocked|split-block|counting]\n"
    "                  [-n N] [--fpp P] [--bits B] [--k K] [--seed S] [--force]\n"
    "\n"
    "Creates an empty filter in FILE, sized for N keys (default 1000000) at a\n"
    "false-positive rate P (default 0.01) by the layout's exact formula, or of\n"
    "B bits when --bits is given (k derived from N when --k is not).\n"
    "Layout: blocked by default. --seed: MurmurHash3 seed (0, Guava's).\n"
    "An existing FILE is kept unless --force.\n";

static const char *const help_add =
    "usage: sbf add FILE [KEYFILE|-] [--u64]\n"
    "\n"
    "Adds the keys of KEYFILE (standard input when - or absent), one per line,\n"
    "to the filter in FILE, then saves FILE. With --u64 each line is a decimal\n"
    "64-bit integer, hashed as its 8 little-endian bytes (sbf_add_u64). A bad\n"
    "line stops the command before FILE is touched.\n";

static const char *const help_remove =
    "usage: sbf remove FILE [KEYFILE|-] [--u64]\n"
    "\n"
    "Removes one insertion of each key from a counting filter and saves FILE.\n"
    "Keys the filter says are surely absent are skipped and counted on stderr.\n";

static const char *const help_query =
    "usage: sbf query FILE [KEYFILE|-] [--u64] [--count]\n"
    "\n"
    "Prints one line per key, in input order: 1 if the key may be present, 0\n"
    "if it is surely absent. --count prints only the number of 1s. FILE may be\n"
    "our format (mapped read-only, checksums verified) or Guava's.\n";

static const char *const help_info =
    "usage: sbf info FILE [--json]\n"
    "\n"
    "Layout, bits, bytes, k, seed, keys added, fill, estimated cardinality,\n"
    "theoretical false-positive rate now (at the keys added) and at the\n"
    "estimated cardinality (Guava files carry no key count), and the ISA in\n"
    "use. FILE may be our format or Guava's.\n";

static const char *const help_convert =
    "usage: sbf convert --to sbf|guava IN OUT\n"
    "\n"
    "Reads IN (format detected from its bytes: ours, version 1 or 2, or\n"
    "Guava's BloomFilter.writeTo) and writes OUT in the chosen format. Guava's\n"
    "form holds classic filters with seed 0 only.\n";

static const char *const help_union =
    "usage: sbf union OUT A B\n"
    "\n"
    "Writes to OUT the union of the filters A and B, which must have the same\n"
    "layout, size, k and seed (counting: counters add, saturating at 15).\n";

/* ------------------------------------------------------------- arguments */

typedef struct args {
    const char *pos[4];
    int npos;
    const char *layout, *n, *fpp, *bits, *k, *seed, *to;
    int u64, count, json, force, parse_only;
} args;

static uint64_t parse_u64_arg(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    if (s[0] == '-' || s[0] == '\0')
        usage_error("%s: not a non-negative integer: '%s'", opt, s);
    const unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0')
        usage_error("%s: not a non-negative integer: '%s'", opt, s);
    return (uint64_t)v;
}

/* Parses argv[2..]; `allowed` lists the accepted options, `help` is shown
 * by --help; nmin..nmax positionals. */
static void parse_args(int argc, char **argv, const char *allowed, const char *help,
                       int nmin, int nmax, args *a)
{
    memset(a, 0, sizeof *a);
    int only_pos = 0;
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (only_pos || s[0] != '-' || strcmp(s, "-") == 0) {
            if (a->npos == nmax)
                usage_error("%s: too many arguments ('%s')", argv[1], s);
            a->pos[a->npos++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(help, stdout);
            exit(EXIT_SUCCESS);
        }
        /* --name=value or --name value */
        char name[32];
        const char *val = NULL;
        const char *eq = strchr(s, '=');
        const size_t nl = eq ? (size_t)(eq - s) : strlen(s);
        if (nl >= sizeof name)
            usage_error("%s: unknown option '%s'", argv[1], s);
        memcpy(name, s, nl);
        name[nl] = '\0';
        char key[40];
        snprintf(key, sizeof key, " %s ", name);
        if (strstr(allowed, key) == NULL)
            usage_error("%s: unknown option '%s'", argv[1], s);
        static const char *const flags[] = { "--u64", "--count", "--json", "--force",
                                             "--parse-only" };
        int *const fptr[] = { &a->u64, &a->count, &a->json, &a->force, &a->parse_only };
        int is_flag = 0;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
            if (strcmp(name, flags[f]) == 0) {
                if (eq)
                    usage_error("%s: option '%s' takes no value", argv[1], name);
                *fptr[f] = 1;
                is_flag = 1;
            }
        if (is_flag)
            continue;
        if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc)
                usage_error("%s: option '%s' needs a value", argv[1], name);
            val = argv[++i];
        }
        if (strcmp(name, "--layout") == 0) a->layout = val;
        else if (strcmp(name, "-n") == 0) a->n = val;
        else if (strcmp(name, "--fpp") == 0) a->fpp = val;
        else if (strcmp(name, "--bits") == 0) a->bits = val;
        else if (strcmp(name, "--k") == 0) a->k = val;
        else if (strcmp(name, "--seed") == 0) a->seed = val;
        else if (strcmp(name, "--to") == 0) a->to = val;
    }
    if (a->npos < nmin)
        usage_error("%s: missing argument", argv[1]);
}

/* ----------------------------------------------------------------- files */

static const char *const layout_names[] = { "classic", "blocked", "split-block", "counting" };

enum { FMT_SBF1 = 1, FMT_SBF2 = 2, FMT_GUAVA = 3 };

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

/* Opens a filter of any format. writable: into our own memory (sbf_load),
 * else a verified read-only mapping when the file allows it. */
static sbf_filter *open_filter(const char *path, int writable, int *fmt_out)
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

/* Our own format, writable (add, remove). */
static sbf_filter *open_own(const char *path)
{
    int fmt;
    sbf_filter *f = open_filter(path, 1, &fmt);
    if (fmt == FMT_GUAVA)
        fail("%s: a Guava filter; 'sbf convert --to sbf' it first", path);
    return f;
}

static void save(const sbf_filter *f, const char *path)
{
    const int rc = sbf_save(f, path);
    if (rc != SBF_OK)
        fail_code(path, rc);
}

/* Guava's form, with sbf_save's discipline: temporary file beside OUT,
 * fsync, rename, directory fsync; the temporary file removed on failure. */
static void save_guava(const sbf_filter *f, const char *path)
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

/* ------------------------------------------------------------------ keys */

typedef struct keyreader {
    const char *name;   /* for messages */
    int fd;
    unsigned char *buf;
    size_t cap, start, end;
    int eof;
    uint64_t line;      /* lines consumed */
    uint64_t bytes_in, total; /* progress: bytes read, file size (0: unknown) */
    const void **keys;  /* one batch: line pointers, lengths, --u64 values */
    size_t *lens;
    uint64_t *u;
} keyreader;

static void kr_open(keyreader *kr, const char *path)
{
    memset(kr, 0, sizeof *kr);
    if (path == NULL || strcmp(path, "-") == 0) {
        kr->name = "standard input";
        kr->fd = STDIN_FILENO;
    } else {
        kr->name = path;
        kr->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (kr->fd < 0)
            fail("%s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(kr->fd, &st) == 0 && S_ISREG(st.st_mode))
        kr->total = (uint64_t)st.st_size;
    kr->cap = READ_CHUNK;
    kr->buf = malloc(kr->cap);
    kr->keys = malloc(BATCH * sizeof *kr->keys);
    kr->lens = malloc(BATCH * sizeof *kr->lens);
    kr->u = malloc(BATCH * sizeof *kr->u);
    if (!kr->buf || !kr->keys || !kr->lens || !kr->u)
        fail("out of memory");
}

static void kr_close(keyreader *kr)
{
    if (kr->fd != STDIN_FILENO)
        close(kr->fd);
    free(kr->buf);
    free(kr->keys);
    free(kr->lens);
    free(kr->u);
}

/* Refills: keeps the unconsumed tail, reads more. Returns 0 at end. */
static int kr_fill(keyreader *kr)
{
    if (kr->eof)
        return 0;
    if (kr->start > 0) {
        memmove(kr->buf, kr->buf + kr->start, kr->end - kr->start);
        kr->end -= kr->start;
        kr->start = 0;
    }
    if (kr->end == kr->cap) { /* one line longer than the buffer */
        kr->cap *= 2;
        unsigned char *nb = realloc(kr->buf, kr->cap);
        if (nb == NULL)
            fail("%s: line %llu: out of memory", kr->name, (unsigned long long)kr->line + 1);
        kr->buf = nb;
    }
    for (;;) {
        const ssize_t r = read(kr->fd, kr->buf + kr->end, kr->cap - kr->end);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            fail("%s: %s", kr->name, strerror(errno));
        if (r == 0) {
            kr->eof = 1;
            return kr->end > kr->start;
        }
        kr->end += (size_t)r;
        kr->bytes_in += (uint64_t)r;
        return 1;
    }
}

/*
 * Up to BATCH complete lines (a last line without newline counts at end of
 * input) as pointers into the buffer, valid until the next call.
 * Returns the count; 0 at end of input.
 */
static size_t kr_lines(keyreader *kr)
{
    const void **keys = kr->keys;
    size_t *lens = kr->lens;
    const size_t max = BATCH;
    size_t n = 0;
    for (;;) {
        while (n < max && kr->start < kr->end) {
            const unsigned char *p = kr->buf + kr->start;
            const unsigned char *nl = memchr(p, '\n', kr->end - kr->start);
            if (nl == NULL) {
                if (!kr->eof)
                    break;
                nl = kr->buf + kr->end; /* last line, no newline */
            }
            keys[n] = p;
            lens[n] = (size_t)(nl - p);
            n++;
            kr->line++;
            kr->start = (size_t)(nl - kr->buf) + (nl < kr->buf + kr->end);
        }
        if (n > 0 || !kr_fill(kr))
            return n;
    }
}

/* 1 when the 8 bytes of x (little-endian load) are all ASCII digits: high
 * nibble 3, and adding 6 to each byte does not carry into the high nibble
 * (0x3a..0x3f would); no byte can carry into the next. */
static int digits8(uint64_t x)
{
    const uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0), three = UINT64_C(0x3030303030303030);
    return (x & hi) == three && ((x + UINT64_C(0x0606060606060606)) & hi) == three;
}

/* The value of 8 ASCII digits (first digit in the low byte), with three
 * multiply-add steps that combine neighbours: pairs, then fours, then
 * eights. */
static uint64_t value8(uint64_t x)
{
    x -= UINT64_C(0x3030303030303030);           /* bytes d0..d7 */
    x = x * 10 + (x >> 8);                       /* byte 2i: 10*d2i + d2i+1 */
    x = ((x & UINT64_C(0x000000ff000000ff)) * (100 + (UINT64_C(1000000) << 32)) +
         ((x >> 16) & UINT64_C(0x000000ff000000ff)) * (1 + (UINT64_C(10000) << 32))) >> 32;
    return x;
}

/* A decimal 64-bit integer, the whole line. Up to 19 digits cannot
 * overflow (10^19 - 1 < 2^64), so only a 20th digit is checked. */
static int parse_u64(const unsigned char *p, size_t len, uint64_t *out)
{
    if (len == 0 || len > 20)
        return 0;
    const size_t head = len < 19 ? len : 19;
    uint64_t v = 0;
    size_t i = 0;
    for (; i + 8 <= head; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        if (!digits8(x))
            return 0;
        v = v * 100000000u + value8(x);
    }
    for (; i < head; i++) {
        const unsigned d = (unsigned)p[i] - '0';
        if (d > 9)
            return 0;
        v = v * 10 + d;
    }
    if (len == 20) {
        const unsigned d = (unsigned)p[19] - '0';
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

static void parse_batch_u64(keyreader *kr, size_t n)
{
    const void *const *keys = kr->keys;
    const size_t *lens = kr->lens;
    uint64_t *out = kr->u;
    for (size_t i = 0; i < n; i++)
        if (!parse_u64(keys[i], lens[i], &out[i]))
            fail("%s: line %llu: not a decimal 64-bit integer: '%.*s'", kr->name,
                 (unsigned long long)(kr->line - n + i + 1),
                 (int)(lens[i] < 40 ? lens[i] : 40), (const char *)keys[i]);
}

/* ------------------------------------------------------------- progress */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct progress {
    int tty;
    double t0, last;
    int shown;
} progress;

static void progress_start(progress *pg)
{
    pg->tty = isatty(STDERR_FILENO);
    pg->t0 = pg->last = now_s();
    pg->shown = 0;
}

/* A line on stderr when it is a terminal and the work took over a second. */
static void progress_tick(progress *pg, const keyreader *kr, const char *verb)
{
    if (!pg->tty)
        return;
    const double t = now_s();
    if (t - pg->t0 < 1.0 || t - pg->last < 0.25)
        return;
    pg->last = t;
    pg->shown = 1;
    if (kr->total)
        fprintf(stderr, "\r%s: %s %llu keys, %.0f%% of %s (%.1f M keys/s)  ", prog, verb,
                (unsigned long long)kr->line, 100.0 * (double)kr->bytes_in / (double)kr->total,
                kr->name, (double)kr->line / (t - pg->t0) / 1e6);
    else
        fprintf(stderr, "\r%s: %s %llu keys (%.1f M keys/s)  ", prog, verb,
                (unsigned long long)kr->line, (double)kr->line / (t - pg->t0) / 1e6);
}

static void progress_end(progress *pg)
{
    if (pg->shown)
        fputc('\n', stderr);
}

/* -------------------------------------------------------------- commands */

static int layout_from_name(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, layout_names[i]) == 0)
            return i;
    if (strcmp(s, "split_block") == 0 || strcmp(s, "splitblock") == 0)
        return SBF_SPLIT_BLOCK;
    usage_error("create: unknown layout '%s' (classic, blocked, split-block, counting)", s);
}

static int cmd_create(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --layout -n --fpp --bits --k --seed --force ", help_create, 1,
               1, &a);
    sbf_params p = { 0 };
    p.layout = a.layout ? layout_from_name(a.layout) : SBF_BLOCKED;
    p.expected_n = a.n ? parse_u64_arg("-n", a.n) : 1000000;
    p.fpp = 0.01;
    if (a.fpp) {
        char *end;
        p.fpp = strtod(a.fpp, &end);
        if (*end != '\0' || end == a.fpp)
            usage_error("--fpp: not a number: '%s'", a.fpp);
    }
    p.bits = a.bits ? parse_u64_arg("--bits", a.bits) : 0;
    if (a.bits && p.bits == 0)
        usage_error("--bits: must be positive");
    const uint64_t k = a.k ? parse_u64_arg("--k", a.k) : 0;
    const uint64_t seed = a.seed ? parse_u64_arg("--seed", a.seed) : 0;
    if (k > UINT32_MAX || (a.k && k == 0))
        usage_error("--k: out of range: '%s'", a.k);
    if (seed > UINT32_MAX)
        usage_error("--seed: out of range (0..4294967295): '%s'", a.seed);
    p.k = (uint32_t)k;
    p.seed = (uint32_t)seed;
    const char *path = a.pos[0];
    struct stat st;
    if (!a.force && stat(path, &st) == 0)
        fail("%s: exists (use --force to replace it)", path);
    sbf_filter *f;
    const int rc = sbf_create(&f, &p);
    if (rc != SBF_OK)
        fail("%s: cannot create: %s", path, sbf_strerror(rc));
    save(f, path);
    sbf_free(f);
    return 0;
}

/* add and remove: keys from a reader, in batches, then one save. */
static int cmd_modify(int argc, char **argv, int is_remove)
{
    args a;
    parse_args(argc, argv, " --u64 --parse-only ", is_remove ? help_remove : help_add, 1, 2,
               &a);
    const char *path = a.pos[0];
    sbf_filter *f = a.parse_only ? NULL : open_own(path);
    if (is_remove && f != NULL) {
        struct sbf_info in;
        sbf_info(f, &in);
        if (in.layout != SBF_COUNTING)
            fail("%s: remove needs a counting filter (this one is %s)", path,
                 layout_names[in.layout]);
    }
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL);
    const void **keys = kr.keys;
    const size_t *lens = kr.lens;
    const uint64_t *u = kr.u;
    progress pg;
    progress_start(&pg);
    uint64_t absent = 0, sum = 0;
    size_t n;
    while ((n = kr_lines(&kr)) > 0) {
        if (a.u64)
            parse_batch_u64(&kr, n);
        if (a.parse_only) { /* hidden: measures reading and parsing alone */
            for (size_t i = 0; i < n; i++)
                sum += a.u64 ? u[i] : lens[i];
        } else if (!is_remove) {
            const int rc = a.u64 ? sbf_add_u64(f, u, n) : sbf_add_batch(f, keys, lens, n);
            if (rc < 0)
                fail_code(path, rc);
        } else {
            for (size_t i = 0; i < n; i++) {
                const int rc = a.u64 ? sbf_remove(f, &u[i], 8) : sbf_remove(f, keys[i], lens[i]);
                if (rc == SBF_E_NOT_PRESENT)
                    absent++;
                else if (rc < 0)
                    fail_code(path, rc);
            }
        }
        progress_tick(&pg, &kr, is_remove ? "removed" : "added");
    }
    progress_end(&pg);
    if (a.parse_only) {
        fprintf(stderr, "%s: parsed %llu keys (checksum %llu)\n", prog,
                (unsigned long long)kr.line, (unsigned long long)sum);
    } else {
        save(f, path);
        if (absent)
            fprintf(stderr, "%s: %s: %llu of %llu keys were not in the filter (skipped)\n",
                    prog, path, (unsigned long long)absent, (unsigned long long)kr.line);
    }
    kr_close(&kr);
    sbf_free(f);
    return 0;
}

static int cmd_query(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --u64 --count ", help_query, 1, 2, &a);
    sbf_filter *f = open_filter(a.pos[0], 0, NULL);
    keyreader kr;
    kr_open(&kr, a.npos > 1 ? a.pos[1] : NULL);
    const void **keys = kr.keys;
    const size_t *lens = kr.lens;
    const uint64_t *u = kr.u;
    uint8_t *res = malloc(BATCH);
    char *out = malloc(2 * BATCH);
    if (!res || !out)
        fail("out of memory");
    progress pg;
    progress_start(&pg);
    uint64_t yes = 0;
    size_t n;
    while ((n = kr_lines(&kr)) > 0) {
        size_t c;
        if (a.u64) {
            parse_batch_u64(&kr, n);
            c = sbf_contains_u64(f, u, n, a.count ? NULL : res);
        } else {
            c = sbf_contains_batch(f, keys, lens, n, a.count ? NULL : res);
        }
        if (c == SIZE_MAX)
            fail("%s: query failed", a.pos[0]);
        yes += c;
        if (!a.count) {
            for (size_t i = 0; i < n; i++) {
                out[2 * i] = (char)('0' + res[i]);
                out[2 * i + 1] = '\n';
            }
            if (fwrite(out, 1, 2 * n, stdout) != 2 * n)
                fail("standard output: %s", strerror(errno));
        }
        progress_tick(&pg, &kr, "queried");
    }
    progress_end(&pg);
    if (a.count)
        printf("%llu\n", (unsigned long long)yes);
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    kr_close(&kr);
    free(res);
    free(out);
    sbf_free(f);
    return 0;
}

static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void json_double(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
    else
        printf("null");
}

static int cmd_info(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --json ", help_info, 1, 1, &a);
    int fmt;
    sbf_filter *f = open_filter(a.pos[0], 0, &fmt);
    struct sbf_info in;
    const int rc = sbf_info(f, &in);
    if (rc != SBF_OK)
        fail_code(a.pos[0], rc);
    static const char *const fmts[] = { "", "sbf-v1", "sbf-v2", "guava" };
    if (a.json) {
        printf("{\"file\": ");
        json_string(a.pos[0]);
        printf(", \"format\": \"%s\", \"layout\": \"%s\", \"bits\": %llu, \"bytes\": %zu, "
               "\"k\": %u, \"block_bits\": %u, \"seed\": %u, \"keys_added\": ",
               fmts[fmt], layout_names[in.layout], (unsigned long long)in.bits, in.bytes, in.k,
               in.block_bits, in.seed);
        if (in.keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
            printf("null, \"fill\": ");
        else
            printf("%llu, \"fill\": ", (unsigned long long)in.keys_added);
        json_double(in.fill_ratio);
        printf(", \"est_cardinality\": ");
        json_double(in.est_cardinality);
        printf(", \"fpp_now\": ");
        json_double(in.fpp_now);
        printf(", \"fpp_at_estimate\": ");
        json_double(sbf_fpp_theory(f, (uint64_t)fmin(in.est_cardinality, 1.8e19)));
        printf(", \"saturated\": %llu, \"isa\": \"%s\"}\n", (unsigned long long)in.saturated,
               sbf_isa_name(in.isa));
    } else {
        printf("file             %s\n", a.pos[0]);
        printf("format           %s\n", fmts[fmt]);
        printf("layout           %s\n", layout_names[in.layout]);
        printf("bits             %llu\n", (unsigned long long)in.bits);
        printf("bytes            %zu\n", in.bytes);
        printf("k                %u\n", in.k);
        printf("block bits       %u\n", in.block_bits);
        printf("seed             %u\n", in.seed);
        if (in.keys_added == SBF_KEYS_UNKNOWN) /* Guava import, union */
            printf("keys added       unknown\n");
        else
            printf("keys added       %llu\n", (unsigned long long)in.keys_added);
        printf("fill             %.6f\n", in.fill_ratio);
        printf("est. cardinality %.0f\n", in.est_cardinality);
        printf("fpp now          %.6g\n", in.fpp_now);
        printf("fpp at estimate  %.6g\n",
               sbf_fpp_theory(f, (uint64_t)fmin(in.est_cardinality, 1.8e19)));
        if (in.layout == SBF_COUNTING)
            printf("saturated        %llu\n", (unsigned long long)in.saturated);
        printf("isa              %s\n", sbf_isa_name(in.isa));
    }
    if (fflush(stdout) != 0)
        fail("standard output: %s", strerror(errno));
    sbf_free(f);
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " --to ", help_convert, 2, 2, &a);
    if (a.to == NULL)
        usage_error("convert: --to sbf|guava is required");
    const int to_guava = strcmp(a.to, "guava") == 0;
    if (!to_guava && strcmp(a.to, "sbf") != 0)
        usage_error("convert: --to must be sbf or guava, not '%s'", a.to);
    sbf_filter *f = open_filter(a.pos[0], 1, NULL);
    if (to_guava)
        save_guava(f, a.pos[1]);
    else
        save(f, a.pos[1]);
    sbf_free(f);
    return 0;
}

static int cmd_union(int argc, char **argv)
{
    args a;
    parse_args(argc, argv, " ", help_union, 3, 3, &a);
    sbf_filter *x = open_filter(a.pos[1], 1, NULL);
    sbf_filter *y = open_filter(a.pos[2], 0, NULL);
    const int rc = sbf_union(x, y);
    if (rc != SBF_OK)
        fail("%s, %s: %s", a.pos[1], a.pos[2], sbf_strerror(rc));
    save(x, a.pos[0]);
    sbf_free(x);
    sbf_free(y);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage_error("a command is needed");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(help_main, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("sbf (simdbloom) %s\n", sbf_version_string());
        return 0;
    }
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (strcmp(cmd, "create") == 0) return cmd_create(argc, argv);
    if (strcmp(cmd, "add") == 0) return cmd_modify(argc, argv, 0);
    if (strcmp(cmd, "remove") == 0) return cmd_modify(argc, argv, 1);
    if (strcmp(cmd, "query") == 0) return cmd_query(argc, argv);
    if (strcmp(cmd, "info") == 0) return cmd_info(argc, argv);
    if (strcmp(cmd, "convert") == 0) return cmd_convert(argc, argv);
    if (strcmp(cmd, "union") == 0) return cmd_union(argc, argv);
    usage_error("unknown command '%s'", cmd);
}
