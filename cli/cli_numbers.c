/*
 * sbf: text to numbers, strictly. Key lines (--u64, --type) and option
 * values go through here: decimal only (no hex, octal, whitespace or
 * trailing bytes), overflow refused, never a silent wrap.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#  error "the --u64 parser reads 8 digits as a little-endian word"
#endif

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
int num_u64(const unsigned char *p, size_t len, uint64_t *out)
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

int num_i64(const unsigned char *p, size_t len, int64_t *out)
{
    const int neg = len > 0 && p[0] == '-';
    const size_t s = len > 0 && (p[0] == '-' || p[0] == '+');
    uint64_t m;
    if (!num_u64(p + s, len - s, &m))
        return 0;
    if (m > (uint64_t)INT64_MAX + (uint64_t)neg)
        return 0;
    /* -2^63 has no positive counterpart: negate in unsigned arithmetic */
    *out = neg ? (int64_t)(0 - m) : (int64_t)m;
    return 1;
}

/* The line as a C string in buf (cap bytes), or 0 when it does not fit or
 * starts with white space (strtod would skip it). */
static int as_cstring(const unsigned char *p, size_t len, char *buf, size_t cap)
{
    if (len == 0 || len >= cap || memchr(p, '\0', len) != NULL ||
        strchr(" \t\n\v\f\r", p[0]) != NULL)
        return 0;
    memcpy(buf, p, len);
    buf[len] = '\0';
    return 1;
}

int num_f64(const unsigned char *p, size_t len, double *out)
{
    char buf[512], *end;
    if (!as_cstring(p, len, buf, sizeof buf))
        return 0;
    errno = 0;
    const double v = strtod(buf, &end);
    if (*end != '\0' || (errno == ERANGE && isinf(v)))
        return 0; /* trailing bytes, or a finite number too large */
    *out = v;
    return 1;
}

int num_f32(const unsigned char *p, size_t len, float *out)
{
    char buf[512], *end;
    if (!as_cstring(p, len, buf, sizeof buf))
        return 0;
    errno = 0;
    const float v = strtof(buf, &end); /* rounded once, to float */
    if (*end != '\0' || (errno == ERANGE && isinf(v)))
        return 0;
    *out = v;
    return 1;
}

/* ------------------------------------------------------------ options */

uint64_t parse_u64_arg(const char *opt, const char *s)
{
    const size_t len = strlen(s);
    const size_t digits = strspn(s, "0123456789");
    size_t z = 0;
    while (z + 1 < len && s[z] == '0') /* leading zeros are decimal too */
        z++;
    uint64_t v;
    if (num_u64((const unsigned char *)s + z, len - z, &v))
        return v;
    if (len > 0 && digits == len)
        usage_error("%s: out of range (0..18446744073709551615): '%s'", opt, s);
    usage_error("%s: not a decimal integer: '%s'", opt, show_text(s, len));
}

/* digits [. digits] [e|E [+|-] digits], at least one digit before the
 * exponent. Returns the length matched, 0 when s does not start so. */
static size_t decimal_syntax(const char *s)
{
    size_t i = strspn(s, "0123456789");
    size_t nd = i;
    if (s[i] == '.') {
        const size_t f = strspn(s + i + 1, "0123456789");
        nd += f;
        i += 1 + f;
    }
    if (nd == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        const size_t sg = s[i + 1] == '+' || s[i + 1] == '-';
        const size_t e = strspn(s + i + 1 + sg, "0123456789");
        if (e == 0)
            return 0;
        i += 1 + sg + e;
    }
    return i;
}

int num_count(const char *s, uint64_t *out)
{
    const size_t n = decimal_syntax(s);
    if (n == 0)
        return 0;
    int scale = 0;
    const char *suf = strchr("kKMGT", s[n]);
    if (s[n] != '\0' && suf != NULL) {
        scale = (int)(suf - "kKMGT") < 2 ? 3 : 3 * (int)(suf - "kKMGT");
        if (s[n + 1] != '\0')
            return 0;
    } else if (s[n] != '\0') {
        return 0;
    }
    /* the mantissa's digits without the point and without trailing zeros
     * of the fraction; the exponent folded into scale */
    uint64_t m = 0;
    int overflow = 0;
    const char *e = s + strcspn(s, "eEkKMGT"); /* the mantissa ends here */
    const char *dot = memchr(s, '.', (size_t)(e - s));
    const char *last = e;
    if (dot != NULL)
        while (last > dot + 1 && last[-1] == '0')
            last--;
    for (const char *p = s; p < last; p++) {
        if (*p == '.')
            continue;
        if (dot != NULL && p > dot)
            scale--;
        const unsigned d = (unsigned)(*p - '0');
        if (m > (UINT64_MAX - d) / 10)
            overflow = 1;
        m = m * 10 + d;
    }
    if (*e == 'e' || *e == 'E') {
        const long x = strtol(e + 1, NULL, 10); /* syntax checked above */
        scale += x > 100 ? 101 : x < -100 ? -101 : (int)x;
    }
    if (overflow)
        return -1;
    for (; scale < 0 && m != 0; scale++) {
        if (m % 10 != 0)
            return -2; /* not a whole number */
        m /= 10;
    }
    for (; scale > 0 && m != 0; scale--) {
        if (m > UINT64_MAX / 10)
            return -1;
        m *= 10;
    }
    *out = m;
    return 1;
}

int num_decimal(const char *s, double *out)
{
    const size_t n = decimal_syntax(s);
    if (n == 0 || s[n] != '\0')
        return 0;
    *out = strtod(s, NULL);
    return 1;
}

double parse_rate_arg(const char *opt, const char *s)
{
    double v;
    if (!num_decimal(s, &v))
        usage_error("%s: not a decimal number (a rate is written 0.01 or 1e-3): '%s'", opt,
                    show_text(s, strlen(s)));
    if (!(v > 0 && v < 1))
        usage_error("%s: a false-positive rate must be above 0 and below 1: '%s'", opt, s);
    return v;
}

int num_size(const char *s, uint64_t *out)
{
    const size_t len = strlen(s);
    static const char bin[] = "KMGT";
    if (len >= 3 && s[len - 1] == 'i' && strchr(bin, s[len - 2]) != NULL && s[len - 2] != '\0') {
        char head[64];
        if (len - 2 >= sizeof head)
            return 0;
        memcpy(head, s, len - 2);
        head[len - 2] = '\0';
        uint64_t m;
        const int rc = num_count(head, &m);
        if (rc != 1)
            return rc;
        const int shift = 10 * (int)(strchr(bin, s[len - 2]) - bin + 1);
        if (m > UINT64_MAX >> shift)
            return -1;
        *out = m << shift;
        return 1;
    }
    return num_count(s, out);
}

uint64_t parse_size_arg(const char *opt, const char *s)
{
    uint64_t v;
    const int rc = num_size(s, &v);
    if (rc == -1)
        usage_error("%s: out of range (above 18446744073709551615): '%s'", opt,
                    show_text(s, strlen(s)));
    if (rc == -2)
        usage_error("%s: not a whole number: '%s'", opt, show_text(s, strlen(s)));
    if (rc != 1)
        usage_error("%s: not a size (4096, 1e6, 1M = 10^6, 128Mi = 2^27): '%s'", opt,
                    show_text(s, strlen(s)));
    return v;
}
