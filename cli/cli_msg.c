/*
 * sbf: messages. Every failure goes through fail (exit 1) or usage_error
 * (exit 2) with the program's name in front; JSON output helpers.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

const char *prog = "sbf";

void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_FAILURE);
}

void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see '%s --help')\n", prog);
    va_end(ap);
    exit(EXIT_USAGE);
}

/* What a path that is not a regular file is, for a message. */
static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

void fail_code(const char *file, int code)
{
    if (code == SBF_E_IO) { /* errno says more than "input/output failed" */
        const int e = errno;
        struct stat st;
        /* the library refuses a FIFO or a device with EINVAL: say what it is */
        if (e == EINVAL && stat(file, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            fail("%s: %s, not a regular file: filters are read from and saved to regular "
                 "files only", file, file_kind(st.st_mode));
        fail("%s: %s", file, strerror(e));
    }
    fail("%s: %s", file, sbf_strerror(code));
}

void print_help(const char *text)
{
    fputs(text, stdout);
    exit(EXIT_SUCCESS);
}

const char *show_text(const void *s, size_t len)
{
    static char ring[4][4 * SHOW_MAX + 8];
    static unsigned next;
    char *out = ring[next++ % 4], *o = out;
    const unsigned char *p = s;
    const size_t n = len < SHOW_MAX ? len : SHOW_MAX;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = p[i];
        const char *esc = c == '\\' ? "\\\\" : c == '\'' ? "\\'" : c == '\r' ? "\\r"
                        : c == '\n' ? "\\n" : c == '\t' ? "\\t" : NULL;
        if (esc != NULL)
            o += sprintf(o, "%s", esc);
        else if (c < 0x20 || c >= 0x7f)
            o += sprintf(o, "\\x%02x", c);
        else
            *o++ = (char)c;
    }
    if (len > n)
        o += sprintf(o, "...");
    *o = '\0';
    return out;
}

/* The length of the valid UTF-8 sequence at p (1..4), or 0 when the bytes
 * there are not one (stray continuation, overlong form, surrogate, above
 * U+10FFFF, cut short). p is NUL-terminated. */
static size_t utf8_len(const unsigned char *p)
{
    const unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80; /* overlong */
        hi = c == 0xed ? 0x9f : 0xbf; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80; /* overlong */
        hi = c == 0xf4 ? 0x8f : 0xbf; /* above U+10FFFF */
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

int json_string(const char *s)
{
    int lossy = 0;
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const size_t n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", stdout); /* not UTF-8: the replacement character */
            lossy = 1;
            p++;
        } else if (*p == '"' || *p == '\\') {
            printf("\\%c", *p++);
        } else if (*p < 0x20) {
            printf("\\u%04x", *p++);
        } else {
            fwrite(p, 1, n, stdout);
            p += n;
        }
    }
    putchar('"');
    return lossy;
}

void json_double(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
    else
        printf("null");
}
