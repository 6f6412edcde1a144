/*
 * simdbloom's own serialized form: the regressions of issue 13 (padding
 * accepted, allocation before validation), and the promise that no
 * operation ever sets a padding bit.
 */
#define _GNU_SOURCE 1
#include "testutil.h"
#include "vectors/sbf_files.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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

/* ------------------------------------------------------ format 2: pinned */

static uint64_t rd64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)rd64((const unsigned char[8]){ p[0], p[1], p[2], p[3], 0, 0, 0, 0 });
}

/* XXH3-64 of the data and of header bytes 0..63, as written by the
 * generator (cross-checked with `xxhsum -H3` of the same byte ranges). */
static const uint64_t v2_sums[SBF_FILES_N][2] = {
    { UINT64_C(0x5c209ffb8b5f5e63), UINT64_C(0xbb673b6820cc5374) },
    { UINT64_C(0x322d0c1d156bb75d), UINT64_C(0x51f6e5ba7ddbef05) },
    { UINT64_C(0xe9a0ac452801d660), UINT64_C(0x4d603d8605e295a6) },
    { UINT64_C(0x508934c73b0af4a9), UINT64_C(0x719cbcba7660afc3) },
};

/* The keys of sbf_files_make(i) that changed its filter, one by one from
 * scratch: keys_added's definition, replayed with sbf_contains. */
static uint64_t files_count(int i)
{
    sbf_params p = { 0 };
    p.layout = sbf_files[i].layout;
    p.bits = sbf_files[i].bits;
    p.k = sbf_files[i].k;
    p.seed = sbf_files[i].seed;
    sbf_filter *f;
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    uint64_t count = 0;
    for (uint64_t j = 0; j < 100; j++) {
        count += sbf_contains(f, &j, 8) == 0;
        (void)sbf_add(f, &j, 8);
    }
    for (int j = 0; j < 50; j++) {
        char key[16];
        const int n = snprintf(key, sizeof key, "key-%d", j);
        count += sbf_contains(f, key, (size_t)n) == 0;
        (void)sbf_add(f, key, (size_t)n);
    }
    sbf_free(f);
    cr_assert(count > 50 && count <= 150);
    return count;
}

Test(persist, v2_known_answer_files,
     .description = "sbf_serialize writes tests/vectors/sbf_v2_*.bin byte for byte; every field pinned")
{
    for (int i = 0; i < SBF_FILES_N; i++) {
        char name[64];
        snprintf(name, sizeof name, "sbf_v2_%s.bin", sbf_files[i].name);
        size_t flen;
        unsigned char *file = tu_read_vector(name, &flen);
        cr_assert_eq(flen, 4096 + 128, "%s", name);
        cr_assert_eq(memcmp(file, "SBF1", 4), 0);
        cr_assert_eq(rd32(file + 4), 2);
        cr_assert_eq(rd32(file + 8), (uint32_t)sbf_files[i].layout);
        cr_assert_eq(rd32(file + 12), sbf_files[i].k);
        cr_assert_eq(rd32(file + 16), sbf_files[i].seed);
        cr_assert_eq(rd32(file + 20), 0);
        cr_assert_eq(rd64(file + 24), sbf_files[i].bits);
        cr_assert_eq(rd64(file + 32), 150);
        cr_assert_eq(rd64(file + 40), 128);
        cr_assert_eq(rd64(file + 48), 4096);
        cr_assert_eq(rd64(file + 56), v2_sums[i][0], "%s data checksum", name);
        cr_assert_eq(rd64(file + 64), v2_sums[i][1], "%s header checksum", name);
        cr_assert_eq(XXH3_64bits(file + 4096, 128), v2_sums[i][0]);
        cr_assert_eq(XXH3_64bits(file, 64), v2_sums[i][1]);
        for (size_t j = 72; j < 4096; j++)
            cr_assert_eq(file[j], 0, "%s header byte %zu", name, j);
        sbf_filter *f, *g;
        cr_assert_eq(sbf_files_make(i, &f), SBF_OK);
        void *buf;
        size_t len;
        cr_assert_eq(sbf_serialize(f, &buf, &len), SBF_OK);
        cr_assert_eq(len, flen);
        /* The file's count (150) is the add calls, as writers counted when it
         * was made; today's writer counts the adds that changed the filter
         * (sbf_info), so only that field and the header checksum over it
         * differ, and both are pinned here. */
        unsigned char *out = buf;
        cr_assert_eq(rd64(out + 32), files_count(i), "%s: keys added", name);
        cr_assert_eq(rd64(out + 64), XXH3_64bits(out, 64));
        memcpy(out + 32, file + 32, 8);
        memcpy(out + 64, file + 64, 8);
        cr_assert_eq(memcmp(buf, file, len), 0, "%s: sbf_serialize output changed", name);
        cr_assert_eq(((uintptr_t)buf + 4096) % 64, 0, "data cache-line aligned in the buffer");
        cr_assert_eq(sbf_deserialize(&g, file, flen), SBF_OK);
        cr_assert(equiv_same_bytes(f, g));
        for (uint64_t key = 0; key < 100; key++)
            cr_assert_eq(sbf_contains(g, &key, 8), 1);
        sbf_buffer_free(buf);
        sbf_free(f);
        sbf_free(g);
        free(file);
    }
}

Test(persist, v1_files_still_read,
     .description = "tests/vectors/sbf_v1_*.bin (written by 6f0bfd5) load to the same bytes as today's filters")
{
    for (int i = 0; i < SBF_FILES_N; i++) {
        char name[64];
        snprintf(name, sizeof name, "sbf_v1_%s.bin", sbf_files[i].name);
        size_t flen;
        unsigned char *file = tu_read_vector(name, &flen);
        cr_assert_eq(flen, 56 + 128);
        cr_assert_eq(rd32(file + 4), 1);
        sbf_filter *f, *g;
        cr_assert_eq(sbf_files_make(i, &f), SBF_OK);
        cr_assert_eq(sbf_deserialize(&g, file, flen), SBF_OK, "%s", name);
        cr_assert(equiv_same_bytes(f, g), "%s", name);
        struct sbf_info a, b;
        sbf_info(f, &a);
        sbf_info(g, &b);
        cr_assert_eq(b.keys_added, 150);
        cr_assert_eq(a.k, b.k);
        cr_assert_eq(a.seed, b.seed);
        cr_assert_eq(a.bits, b.bits);
        sbf_free(f);
        sbf_free(g);
        free(file);
    }
}

Test(persist, v2_unknown_count_file,
     .description = "tests/vectors/sbf_v2_unknown_count.bin: keys added 2^64-1 means not known (doc/format.md); pinned byte for byte")
{
    size_t flen;
    unsigned char *file = tu_read_vector("sbf_v2_unknown_count.bin", &flen);
    cr_assert_eq(flen, 4096 + 128);
    cr_assert_eq(rd64(file + 32), UINT64_MAX, "the field of an unknown count");
    cr_assert_eq(rd64(file + 56), v2_sums[0][0], "the classic vector's data");
    cr_assert_eq(rd64(file + 64), UINT64_C(0x472c1fc80553cf82), "header checksum");
    cr_assert_eq(XXH3_64bits(file, 64), rd64(file + 64));
    /* the same filter through Guava's form, which carries no count */
    sbf_filter *f, *g, *h;
    cr_assert_eq(sbf_files_make(0, &f), SBF_OK);
    void *buf;
    size_t len;
    cr_assert_eq(sbf_export_guava(f, &buf, &len), SBF_OK);
    cr_assert_eq(sbf_import_guava(&g, buf, len), SBF_OK);
    sbf_buffer_free(buf);
    cr_assert_eq(sbf_serialize(g, &buf, &len), SBF_OK);
    cr_assert_eq(len, flen);
    cr_assert_eq(memcmp(buf, file, len), 0, "sbf_serialize output changed");
    cr_assert_eq(sbf_deserialize(&h, file, flen), SBF_OK);
    struct sbf_info in;
    cr_assert_eq(sbf_info(h, &in), SBF_OK);
    cr_assert_eq(in.keys_added, SBF_KEYS_UNKNOWN);
    cr_assert(equiv_same_bytes(f, h));
    /* only the count differs from the classic vector's file */
    size_t clen;
    unsigned char *classic = tu_read_vector("sbf_v2_classic.bin", &clen);
    cr_assert_eq(clen, flen);
    for (size_t i = 0; i < flen; i++)
        if (!(i >= 32 && i < 40) && !(i >= 64 && i < 72))
            cr_assert_eq(classic[i], file[i], "byte %zu", i);
    free(classic);
    sbf_buffer_free(buf);
    sbf_free(f);
    sbf_free(g);
    sbf_free(h);
    free(file);
}

/* A format-2 buffer of the classic vector with a change, checksums redone. */
static unsigned char *v2_edit(size_t off, unsigned char val, size_t *len)
{
    unsigned char *b = tu_read_vector("sbf_v2_classic.bin", len);
    b[off] = val;
    uint64_t d = XXH3_64bits(b + 4096, *len - 4096), h;
    for (int i = 0; i < 8; i++)
        b[56 + i] = (unsigned char)(d >> (8 * i));
    h = XXH3_64bits(b, 64);
    for (int i = 0; i < 8; i++)
        b[64 + i] = (unsigned char)(h >> (8 * i));
    return b;
}

static int v2_edit_rc(size_t off, unsigned char val)
{
    size_t len;
    unsigned char *b = v2_edit(off, val, &len);
    sbf_filter *f = (sbf_filter *)1;
    const int rc = sbf_deserialize(&f, b, len);
    if (rc != SBF_OK)
        cr_assert_null(f);
    sbf_free(f);
    free(b);
    return rc;
}

Test(persist, v2_refusals,
     .description = "format 2 with valid checksums: padding, reserved bytes, flags, offset, geometry refused")
{
    cr_assert_eq(v2_edit_rc(4096, 0xb7), SBF_OK, "the control: an unchanged byte");
    cr_assert_eq(v2_edit_rc(4096 + 80, 1), SBF_E_FORMAT, "padding (classic 640 bits: bytes 80..127)");
    cr_assert_eq(v2_edit_rc(4096 + 127, 0x80), SBF_E_FORMAT, "last padding byte");
    cr_assert_eq(v2_edit_rc(4096 + 79, 0xff), SBF_OK, "last used byte");
    cr_assert_eq(v2_edit_rc(20, 1), SBF_E_FORMAT, "flags");
    cr_assert_eq(v2_edit_rc(72, 1), SBF_E_FORMAT, "reserved header byte 72");
    cr_assert_eq(v2_edit_rc(4095, 1), SBF_E_FORMAT, "reserved header byte 4095");
    cr_assert_eq(v2_edit_rc(49, 0x20), SBF_E_FORMAT, "data offset 8192");
    cr_assert_eq(v2_edit_rc(4, 3), SBF_E_VERSION);
    cr_assert_eq(v2_edit_rc(8, 10), SBF_E_LAYOUT);
    cr_assert_eq(v2_edit_rc(12, 0), SBF_E_K);
    cr_assert_eq(v2_edit_rc(24, 0x81), SBF_E_FORMAT, "bits not a multiple of 64");
    cr_assert_eq(v2_edit_rc(25, 0x06), SBF_E_FORMAT, "bits 1664: 256 data bytes, not 128");
    cr_assert_eq(v2_edit_rc(28, 0x20), SBF_E_TOO_LARGE, "bits 2^37 + 640: above Guava's maximum");
    cr_assert_eq(v2_edit_rc(28, 0x01), SBF_E_FORMAT, "bits 2^32 + 640 against 128 bytes");
}

Test(persist, file_error_codes_named,
     .description = "SBF_E_READONLY, SBF_E_IO, SBF_E_ENDIAN: fixed numbers, own messages")
{
    cr_assert_eq(SBF_E_READONLY, -19);
    cr_assert_eq(SBF_E_IO, -20);
    cr_assert_eq(SBF_E_ENDIAN, -21);
    const char *unknown = sbf_strerror(-999);
    for (int c = SBF_E_READONLY; c >= SBF_E_ENDIAN; c--) {
        cr_assert_str_neq(sbf_strerror(c), unknown, "code %d", c);
        for (int d = 0; d > c; d--)
            cr_assert_str_neq(sbf_strerror(c), sbf_strerror(d), "codes %d and %d", c, d);
    }
}
