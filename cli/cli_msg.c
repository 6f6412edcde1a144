/*
 * sbf: messages. Every failure goes through fail (exit 1) or usage_error
 * (exit 2) with the program's name in front; JSON output helpers.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void fail_code(const char *file, int code)
{
    if (code == SBF_E_IO)
        fail("%s: %s: %s", file, sbf_strerror(code), strerror(errno));
    fail("%s: %s", file, sbf_strerror(code));
}

void print_help(const char *text)
{
    fputs(text, stdout);
    exit(EXIT_SUCCESS);
}

void json_string(const char *s)
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

void json_double(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
    else
        printf("null");
}
