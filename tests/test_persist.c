/*
 * simdbloom's own serialized form: the regressions of issue 13 (padding
 * accepted, allocation before validation), and the promise that no
 * operation ever sets a padding bit.
 */
#define _GNU_SOURCE 1
#include "testutil.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------ version-1 buffers by hand */

static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* The version-1 checksum, rebuilt from the public MurmurHash3. */
static uint64_t v1_checksum(const unsigned char *hdr, const unsigned char *data, size_t len)
{
    uint64_t a[2], b[2];
    sbf_murmur3_x64_128(hdr, 48, 0, a);
    sbf_murmur3_x64_128(data, len, (uint32_t)a[0], b);
    return b[0] ^ a[1];
}

/* A version-1 buffer with a valid checksum; data may be NULL (zeros). */
static unsigned char *v1_buffer(uint32_t layout, uint32_t k, uint64_t bits, uint64_t dlen,
                                const unsigned char *data, size_t *len)
{
    unsigned char *p = calloc(1, 56 + dlen);
    cr_assert_not_null(p);
    memcpy(p, "SBF1", 4);
    le32(p + 4, 1);
    le32(p + 8, layout);
    le32(p + 12, k);
    le64(p + 24, bits);
    le64(p + 40, dlen);
    if (data)
        memcpy(p + 56, data, dlen);
    le64(p + 48, v1_checksum(p, p + 56, dlen));
    *len = 56 + dlen;
    return p;
}

Test(persist, issue13_v1_padding_refused,
     .description = "issue 13 finding 2: classic k=1 bits=64 with data byte 8 = 1 is SBF_E_FORMAT")
{
    unsigned char data[64] = { 0 };
    size_t len;
    unsigned char *p = v1_buffer(SBF_CLASSIC, 1, 64, 64, data, &len);
    sbf_filter *f = (sbf_filter *)1;
    cr_assert_eq(sbf_deserialize(&f, p, len), SBF_OK, "the control (all zero) loads");
    sbf_free(f);
    free(p);
    data[8] = 0x01;
    p = v1_buffer(SBF_CLASSIC, 1, 64, 64, data, &len);
    f = (sbf_filter *)1;
    cr_assert_eq(sbf_deserialize(&f, p, len), SBF_E_FORMAT);
    cr_assert_null(f);
    free(p);
    /* every padding byte, and the last one of a split-block k=8 filter of
     * three 256-bit blocks (96 bytes used of 128) */
    for (size_t i = 8; i < 64; i++) {
        memset(data, 0, sizeof data);
        data[i] = 0x80;
        p = v1_buffer(SBF_CLASSIC, 1, 64, 64, data, &len);
        cr_assert_eq(sbf_deserialize(&f, p, len), SBF_E_FORMAT, "padding byte %zu", i);
        free(p);
    }
    unsigned char sb[128] = { 0 };
    sb[95] = 0xff; /* last used byte: fine */
    p = v1_buffer(SBF_SPLIT_BLOCK, 8, 768, 128, sb, &len);
    cr_assert_eq(sbf_deserialize(&f, p, len), SBF_OK);
    sbf_free(f);
    free(p);
    sb[96] = 1;
    p = v1_buffer(SBF_SPLIT_BLOCK, 8, 768, 128, sb, &len);
    cr_assert_eq(sbf_deserialize(&f, p, len), SBF_E_FORMAT);
    free(p);
}

/* The exact 56 bytes of issue 13 finding 3. */
static const unsigned char issue13_header[56] = {
    0x53, 0x42, 0x46, 0x31, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x4d, 0xe8, 0x9e, 0xf7, 0x52, 0x80, 0xde, 0x5a,
};

Test(persist, issue13_header_checked_before_allocation,
     .description = "issue 13 finding 3: the 56-byte 2^37-bit header is SBF_E_FORMAT under a 256 MiB address-space limit")
{
    size_t len;
    unsigned char *p = v1_buffer(SBF_BLOCKED, 1, UINT64_C(1) << 37, 0, NULL, &len);
    cr_assert_eq(len, sizeof issue13_header);
    cr_assert_eq(memcmp(p, issue13_header, len), 0, "the issue's bytes, checksum included");
    free(p);
    sbf_filter *f = (sbf_filter *)1;
    cr_assert_eq(sbf_deserialize(&f, issue13_header, sizeof issue13_header), SBF_E_FORMAT);
    cr_assert_null(f);
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("AddressSanitizer reserves terabytes: no address-space limit here");
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
    cr_skip_test("AddressSanitizer reserves terabytes: no address-space limit here");
#  endif
#endif
    /* A child with a 256 MiB address space: a 16 GiB allocation before the
     * check would answer SBF_E_NOMEM. */
    const pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        struct rlimit r = { 256u << 20, 256u << 20 };
        if (setrlimit(RLIMIT_AS, &r) != 0)
            _exit(3);
        sbf_filter *g;
        const int rc = sbf_deserialize(&g, issue13_header, sizeof issue13_header);
        _exit(rc == SBF_E_FORMAT ? 0 : rc == SBF_E_NOMEM ? 1 : 2);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 0, "child exit %d (1: SBF_E_NOMEM, allocated first)",
                 WEXITSTATUS(st));
}

/* ----------------------------------------------------- padding stays zero */

static int padding_zero(const sbf_filter *f, uint64_t bits)
{
    size_t len;
    const unsigned char *d = sbf_data(f, &len);
    for (size_t i = (size_t)(bits / 8); i < len; i++)
        if (d[i] != 0)
            return 0;
    return 1;
}

Test(persist, no_operation_sets_padding,
     .description = "adds on every ISA, union, intersect, clear and Guava import leave the padding zero")
{
    static const struct { int layout; uint32_t k; uint64_t bits; } g[] = {
        { SBF_CLASSIC, 7, 64 * 9 },      /* 72 of 128 bytes used */
        { SBF_CLASSIC, 31, 64 },         /* 8 of 64 (k < 32: issue 13 finding 1 is not ours) */
        { SBF_SPLIT_BLOCK, 8, 256 * 3 }, /* 96 of 128 */
        { SBF_BLOCKED, 16, 512 * 3 },
        { SBF_COUNTING, 16, 512 * 3 },
    };
    static const int isas[] = { SBF_ISA_SCALAR, SBF_ISA_SIMDE, SBF_ISA_AVX2,
                                SBF_ISA_AVX512, SBF_ISA_NEON };
    uint64_t *keys = equiv_keys(5000, 7);
    cr_assert_not_null(keys);
    for (size_t gi = 0; gi < sizeof g / sizeof g[0]; gi++) {
        for (size_t ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
            if (!sbf_isa_available(isas[ii]))
                continue;
            cr_assert_eq(sbf_isa_set(isas[ii]), SBF_OK);
            sbf_filter *a = tu_make(g[gi].layout, 0, 0, g[gi].bits, g[gi].k, 3);
            sbf_filter *b = tu_make(g[gi].layout, 0, 0, g[gi].bits, g[gi].k, 3);
            cr_assert_eq(sbf_add_u64(a, keys, 5000), SBF_OK);
            for (int i = 0; i < 2000; i++)
                sbf_add(b, &keys[i], 8 - (size_t)(i % 8));
            const void *vk[64];
            size_t vl[64];
            for (int i = 0; i < 64; i++) {
                vk[i] = &keys[i];
                vl[i] = (size_t)i % 9;
            }
            sbf_add_batch(b, vk, vl, 64);
            cr_assert(padding_zero(a, g[gi].bits), "geometry %zu isa %d: add_u64", gi, isas[ii]);
            cr_assert(padding_zero(b, g[gi].bits), "geometry %zu isa %d: add", gi, isas[ii]);
            cr_assert_eq(sbf_union(a, b), SBF_OK);
            cr_assert(padding_zero(a, g[gi].bits));
            cr_assert_eq(sbf_intersect(b, a), SBF_OK);
            cr_assert(padding_zero(b, g[gi].bits));
            cr_assert_eq(sbf_clear(a), SBF_OK);
            cr_assert(padding_zero(a, g[gi].bits));
            if (g[gi].layout == SBF_COUNTING)
                for (int i = 0; i < 100; i++)
                    (void)sbf_remove(b, &keys[i], 8);
            cr_assert(padding_zero(b, g[gi].bits));
            void *buf;
            size_t len;
            cr_assert_eq(sbf_serialize(b, &buf, &len), SBF_OK);
            sbf_filter *c;
            cr_assert_eq(sbf_deserialize(&c, buf, len), SBF_OK, "a filter we made loads");
            sbf_buffer_free(buf);
            sbf_free(c);
            sbf_free(a);
            sbf_free(b);
        }
    }
    /* A Guava buffer of 9 words: every bit set, and the padding stays zero. */
    unsigned char gv[6 + 72];
    memset(gv, 0xff, sizeof gv);
    gv[0] = 1;
    gv[1] = 3;
    gv[2] = gv[3] = gv[4] = 0;
    gv[5] = 9;
    sbf_filter *f;
    cr_assert_eq(sbf_import_guava(&f, gv, sizeof gv), SBF_OK);
    cr_assert(padding_zero(f, 64 * 9));
    struct sbf_info in;
    cr_assert_eq(sbf_info(f, &in), SBF_OK);
    cr_assert_eq(in.fill_ratio, 1.0);
    sbf_free(f);
    free(keys);
}
