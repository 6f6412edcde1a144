/*
 * sbf: key readers. Keys are lines of a file or of standard input, read in
 * 4 MiB chunks and handed out in batches of pointers into the buffer; the
 * --u64 form parses each line as a decimal 64-bit integer, eight digits at
 * a time.
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
#  error "the --u64 parser reads 8 digits as a little-endian word"
#endif

void kr_open(keyreader *kr, const char *path)
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

void kr_close(keyreader *kr)
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
size_t kr_lines(keyreader *kr)
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

void parse_batch_u64(keyreader *kr, size_t n)
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
