/*
 * sbf: key readers. Keys are lines of a file or of standard input, read in
 * 4 MiB chunks and handed out in batches of pointers into the buffer. A
 * line's key is its bytes without the newline and, unless --binary, without
 * one trailing \r (a CRLF file means what its LF twin means). --u64 and
 * --type turn each line into the bytes a value's type hashes: Parquet's
 * PLAIN encoding, little-endian (cli/cli.h, key types).
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

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "typed keys are stored as their little-endian bytes by plain copies"
#endif

static const char *const type_names[] = { "string", "u64", "int32", "int64", "float", "double" };

int key_options(const args *a, int *binary)
{
    const char *t = opt_val(a, "--type");
    *binary = (opt_flag(a, "--binary") ? KEY_BINARY : 0) | (opt_flag(a, "--hex") ? KEY_HEX : 0);
    if (t != NULL && opt_flag(a, "--u64"))
        usage_error("--u64 and --type are exclusive (--u64 is unsigned; --type int64 signed)");
    if ((*binary & KEY_HEX) && (opt_flag(a, "--u64") || (t != NULL && strcmp(t, "string") != 0)))
        usage_error("--hex gives a key's bytes: it goes with string keys, not --u64 or --type %s",
                    t != NULL ? show_text(t, strlen(t)) : "u64");
    if (t == NULL)
        return opt_flag(a, "--u64") ? KEY_U64 : KEY_STRING;
    for (int i = 0; i < (int)(sizeof type_names / sizeof type_names[0]); i++)
        if (i != KEY_U64 && strcmp(t, type_names[i]) == 0)
            return i;
    usage_error("--type: unknown type '%s' (string, int32, int64, float, double)",
                show_text(t, strlen(t)));
}

size_t key_line_max(void)
{
    const char *lim = getenv("SBF_KEY_LINE_MAX"); /* test hook: a smaller limit */
    const unsigned long long v = lim != NULL ? strtoull(lim, NULL, 10) : 0;
    return v > 0 && v < KEY_LINE_MAX ? (size_t)v : KEY_LINE_MAX;
}

void kr_open(keyreader *kr, const char *path, int type, int binary)
{
    memset(kr, 0, sizeof *kr);
    kr->type = type;
    kr->binary = (binary & KEY_BINARY) != 0;
    kr->hex = (binary & KEY_HEX) != 0;
    kr->words = type == KEY_U64 || type == KEY_INT64 || type == KEY_DOUBLE;
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
    kr->max_line = key_line_max();
    kr->cap = READ_CHUNK;
    kr->buf = malloc(kr->cap);
    kr->keys = malloc(BATCH * sizeof *kr->keys);
    kr->lens = malloc(BATCH * sizeof *kr->lens);
    kr->u = malloc(BATCH * sizeof *kr->u);
    kr->w32 = malloc(BATCH * sizeof *kr->w32);
    if (!kr->buf || !kr->keys || !kr->lens || !kr->u || !kr->w32)
        fail("out of memory");
}

void kr_close(keyreader *kr)
{
    if (kr->fd != STDIN_FILENO)
        close(kr->fd);
    free(kr->buf);
    free(kr->keys);
    free(kr->lens);
    free(kr->u);
    free(kr->w32);
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
        /* past max_line by a read at most: the line is then refused */
        kr->cap = kr->cap < kr->max_line ? kr->cap * 2 : kr->cap + READ_CHUNK;
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

__attribute__((noreturn))
static void line_too_long(const keyreader *kr)
{
    fail("%s: line %llu is longer than %zu bytes, the most a key's line may hold: is it a "
         "file of one key per line? (a key that holds a newline: --hex)", kr->name,
         (unsigned long long)kr->line + 1, kr->max_line);
}

size_t kr_lines(keyreader *kr)
{
    const void **keys = kr->keys;
    size_t *lens = kr->lens;
    const size_t max = BATCH;
    const size_t strip_cr = !kr->binary;
    size_t n = 0;
    for (;;) {
        while (n < max && kr->start < kr->end) {
            const unsigned char *p = kr->buf + kr->start;
            /* a line longer than one read is searched once, not from its start again */
            const unsigned char *nl = memchr(p + kr->scanned, '\n',
                                             kr->end - kr->start - kr->scanned);
            if (nl == NULL) {
                kr->scanned = kr->end - kr->start;
                if (kr->scanned > kr->max_line)
                    line_too_long(kr);
                if (!kr->eof)
                    break;
                nl = kr->buf + kr->end; /* last line, no newline */
            }
            kr->scanned = 0;
            size_t len = (size_t)(nl - p);
            if (len > kr->max_line)
                line_too_long(kr);
            len -= strip_cr & (len > 0 && p[len - 1] == '\r');
            keys[n] = p;
            lens[n] = len;
            n++;
            kr->line++;
            kr->start = (size_t)(nl - kr->buf) + (nl < kr->buf + kr->end);
        }
        if (n > 0 || !kr_fill(kr))
            return n;
    }
}

__attribute__((noreturn))
static void bad_line(const keyreader *kr, size_t n, size_t i, const char *what)
{
    fail("%s: line %llu: not %s: '%s'", kr->name, (unsigned long long)(kr->line - n + i + 1),
         what, show_text(kr->keys[i], kr->lens[i]));
}

/* The batch's lines as values of kr->type, in u (8-byte types) or in w32
 * with keys/lens pointing at them (4-byte types). */
static void parse_batch(keyreader *kr, size_t n)
{
    const unsigned char *const *k = (const unsigned char *const *)kr->keys;
    const size_t *lens = kr->lens;
    for (size_t i = 0; i < n; i++) {
        int64_t s;
        double d;
        float x;
        switch (kr->type) {
        case KEY_U64:
            if (!num_u64(k[i], lens[i], &kr->u[i]))
                bad_line(kr, n, i, "a decimal 64-bit integer");
            break;
        case KEY_INT64:
            if (!num_i64(k[i], lens[i], &s))
                bad_line(kr, n, i, "a decimal int64 (-9223372036854775808..9223372036854775807)");
            kr->u[i] = (uint64_t)s;
            break;
        case KEY_INT32:
            if (!num_i64(k[i], lens[i], &s) || s < INT32_MIN || s > INT32_MAX)
                bad_line(kr, n, i, "a decimal int32 (-2147483648..2147483647)");
            kr->w32[i] = (uint32_t)(int32_t)s;
            break;
        case KEY_DOUBLE:
            if (!num_f64(k[i], lens[i], &d))
                bad_line(kr, n, i, "a double (strtod's syntax, within its range)");
            memcpy(&kr->u[i], &d, 8);
            break;
        default: /* KEY_FLOAT */
            if (!num_f32(k[i], lens[i], &x))
                bad_line(kr, n, i, "a float (strtod's syntax, within its range)");
            memcpy(&kr->w32[i], &x, 4);
            break;
        }
    }
    if (kr->type == KEY_INT32 || kr->type == KEY_FLOAT)
        for (size_t i = 0; i < n; i++) {
            kr->keys[i] = &kr->w32[i];
            kr->lens[i] = 4;
        }
}

static int hex_digit(unsigned char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* --hex: each line's digits decoded in place (the bytes are half as many). */
static void decode_hex(keyreader *kr, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)(uintptr_t)kr->keys[i];
        const size_t len = kr->lens[i];
        size_t j = 0;
        while (j < len && hex_digit(p[j]) >= 0)
            j++;
        if (j < len || len % 2 != 0) /* checked whole before it is changed */
            bad_line(kr, n, i, "hex digits (an even count of 0-9a-fA-F)");
        for (j = 0; j < len / 2; j++)
            p[j] = (unsigned char)(hex_digit(p[2 * j]) << 4 | hex_digit(p[2 * j + 1]));
        kr->lens[i] = len / 2;
    }
}

size_t kr_next(keyreader *kr)
{
    const size_t n = kr_lines(kr);
    if (n > 0 && kr->hex)
        decode_hex(kr, n);
    if (n > 0 && kr->type != KEY_STRING)
        parse_batch(kr, n);
    return n;
}

/* ------------------------------------------------- the batch on a filter */

int keys_add(sbf_filter *f, const keyreader *kr, size_t n)
{
    return kr->words ? sbf_add_u64(f, kr->u, n) : sbf_add_batch(f, kr->keys, kr->lens, n);
}

size_t keys_contains(const sbf_filter *f, const keyreader *kr, size_t n, uint8_t *out)
{
    return kr->words ? sbf_contains_u64(f, kr->u, n, out)
                     : sbf_contains_batch(f, kr->keys, kr->lens, n, out);
}

int key_remove(sbf_filter *f, const keyreader *kr, size_t i)
{
    return kr->words ? sbf_remove(f, &kr->u[i], 8) : sbf_remove(f, kr->keys[i], kr->lens[i]);
}

uint64_t key_sum(const keyreader *kr, size_t i)
{
    if (kr->words)
        return kr->u[i];
    if (kr->type == KEY_STRING)
        return kr->lens[i];
    return kr->w32[i];
}
