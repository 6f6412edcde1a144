/*
 * The dump form of a chain (dump.h). Header, little-endian:
 *   "SBFRCHN2", u32 version 2, u32 sub-filters, u32 layout, u32 expansion,
 *   f64 error, u64 items; per sub-filter u32 layout, u32 k, u32 seed,
 *   u32 0, u64 bits, u64 capacity, f64 error, u64 items; then a u64 check
 *   (MurmurHash3_x64_128 h1, seed 0x5bf, of the bytes before it).
 * Version 3 (a chain of the library's default rule): the same, with u32
 * rule (chain.h sbfr_chain.rule), u32 0 after the items (a 48-byte
 * header before the sub-filters). A chain of the formula rule is written
 * as version 2, its rule implied, so an older module loads it and grows it
 * as this one does; an older module refuses version 3 ("received bad
 * data", nothing made), where it would have grown the chain by the formula.
 * Version 1 dumps (sbf_serialize bytes per sub-filter, in order only) are
 * refused: their iterators meant something else.
 */
#include "dump.h"

#include <string.h>

#define DUMP_MAGIC "SBFRCHN2"
#define DUMP_VERSION 2 /* the formula rule */
#define DUMP_VERSION_RULE 3
#define DUMP_HDR 40
#define DUMP_HDR3 48
#define DUMP_LINK 48
#define DUMP_SEED 0x5bfu

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
uint64_t sbfr_dbl_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
double sbfr_bits_dbl(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The header's size before the sub-filters: by its version. */
static size_t hdr_size(uint32_t version)
{
    return version == DUMP_VERSION_RULE ? DUMP_HDR3 : DUMP_HDR;
}

unsigned char *sbfr_dump_header(const sbfr_chain *c, size_t *len)
{
    const uint32_t version = c->rule == SBFR_RULE_FORMULA ? DUMP_VERSION : DUMP_VERSION_RULE;
    const size_t hdr = hdr_size(version);
    const size_t body = hdr + (size_t)c->nlinks * DUMP_LINK;
    *len = body + 8;
    unsigned char *h = sbfr_calloc(1, *len);
    memcpy(h, DUMP_MAGIC, 8);
    put32(h + 8, version);
    put32(h + 12, c->nlinks);
    put32(h + 16, (uint32_t)c->layout);
    put32(h + 20, c->expansion);
    put64(h + 24, sbfr_dbl_bits(c->error));
    put64(h + 32, c->items);
    if (version == DUMP_VERSION_RULE)
        put32(h + 40, (uint32_t)c->rule);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link lv = sbfr_chain_link(c, i), *l = &lv;
        unsigned char *p = h + hdr + (size_t)i * DUMP_LINK;
        put32(p, (uint32_t)l->layout);
        put32(p + 4, l->k);
        put32(p + 8, l->seed);
        put64(p + 16, l->bits);
        put64(p + 24, l->capacity);
        put64(p + 32, sbfr_dbl_bits(l->error));
        put64(p + 40, l->items);
    }
    uint64_t sum[2];
    sbf_murmur3_x64_128(h, body, DUMP_SEED, sum);
    put64(h + body, sum[0]);
    return h;
}

/* The header's own consistency, before anything is allocated: version,
 * counts, rates, layouts, the rule, the sum of items, and the used bytes
 * against cap. Sets *hdr (the size before the sub-filters) and *rule. */
static const char *check_header(const unsigned char *h, size_t len, uint64_t cap, size_t *hdr,
                                int *rule)
{
    if (len < DUMP_HDR + 8 || memcmp(h, DUMP_MAGIC, 8) != 0 ||
        (get32(h + 8) != DUMP_VERSION && get32(h + 8) != DUMP_VERSION_RULE))
        return SBFR_ERR_BAD_DATA;
    const uint32_t version = get32(h + 8);
    *hdr = hdr_size(version);
    const uint32_t nlinks = get32(h + 12), layout = get32(h + 16);
    if (nlinks == 0 || nlinks > SBFR_MAX_LINKS || len < *hdr + 8 ||
        (len - *hdr - 8) / DUMP_LINK != nlinks || (len - *hdr - 8) % DUMP_LINK != 0)
        return SBFR_ERR_BAD_DATA;
    uint64_t sum[2];
    sbf_murmur3_x64_128(h, len - 8, DUMP_SEED, sum);
    if (sum[0] != get64(h + len - 8) ||
        !sbfr_valid_chain(layout, get32(h + 20), sbfr_bits_dbl(get64(h + 24)), nlinks))
        return SBFR_ERR_BAD_DATA;
    *rule = SBFR_RULE_FORMULA;
    if (version == DUMP_VERSION_RULE) { /* the formula rule is written as version 2 */
        if (get32(h + 40) != SBFR_RULE_DEFAULT || get32(h + 44) != 0)
            return SBFR_ERR_BAD_DATA;
        *rule = SBFR_RULE_DEFAULT;
    }
    uint64_t items = 0, bytes = 0;
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + *hdr + (size_t)i * DUMP_LINK;
        const uint32_t ll = get32(p);
        const uint64_t bits = get64(p + 16), it = get64(p + 40);
        if (!sbfr_link_layout_ok((int)layout, ll) || get32(p + 12) ||
            bits == 0 || bits > SBF_MAX_BITS ||
            !sbfr_valid_link(get64(p + 24), sbfr_bits_dbl(get64(p + 32))) ||
            it > (uint64_t)INT64_MAX - items)
            return SBFR_ERR_BAD_DATA;
        items += it;
        bytes += bits / 8;
    }
    if (items != get64(h + 32))
        return SBFR_ERR_BAD_DATA;
    if (bytes > cap)
        return "ERR the filter would exceed the module's MAX_BYTES";
    return NULL;
}

sbfr_chain *sbfr_chain_from_header(const unsigned char *h, size_t len, uint64_t cap,
                                   const char **why)
{
    size_t hdr = 0;
    int rule = SBFR_RULE_FORMULA;
    *why = check_header(h, len, cap, &hdr, &rule);
    if (*why != NULL)
        return NULL;
    const uint32_t nlinks = get32(h + 12);
    sbfr_chain *c = sbfr_chain_alloc((int)get32(h + 16), get32(h + 20),
                                     sbfr_bits_dbl(get64(h + 24)));
    c->rule = rule; /* before the first sub-filter: the library takes it there */
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + hdr + (size_t)i * DUMP_LINK;
        sbf_filter *f;
        const char *err = "";
        int rc = sbfr_link_make(&f, (int)get32(p), get64(p + 16), get32(p + 4), get32(p + 8), &err);
        if (rc == SBF_OK) {
            rc = sbfr_chain_attach(c, f, get64(p + 24), sbfr_bits_dbl(get64(p + 32)),
                                   get64(p + 40), &err);
            if (rc != SBF_OK)
                sbf_free(f);
        }
        if (rc != SBF_OK) {
            *why = rc == SBF_E_NOMEM ? "ERR Insufficient memory to create filter" : SBFR_ERR_BAD_DATA;
            sbfr_chain_free(c);
            return NULL;
        }
    }
    return c;
}

/* The sub-filter holding byte `off` of the dump's data (its index), and
 * where in it; -1 past the end. */
static long locate(const sbfr_chain *c, uint64_t off, uint64_t *at)
{
    for (uint32_t l = 0; l < c->nlinks; l++) {
        const sbfr_link lv = sbfr_chain_link(c, l);
        const uint64_t used = sbfr_link_bytes(&lv);
        if (off < used) {
            *at = off;
            return (long)l;
        }
        off -= used;
    }
    return -1;
}

long long sbfr_dump_chunk(const sbfr_chain *c, long long iter, const char **data, size_t *len)
{
    uint64_t at = 0;
    const long i = iter >= 1 ? locate(c, (uint64_t)iter - 1, &at) : -1;
    *len = 0;
    *data = "";
    if (i < 0)
        return 0;
    const sbfr_link lv = sbfr_chain_link(c, (uint32_t)i), *l = &lv;
    const uint64_t left = sbfr_link_bytes(l) - at;
    *len = left < SBFR_CHUNK ? (size_t)left : SBFR_CHUNK;
    *data = (const char *)sbf_data(l->f, NULL) + at;
    return iter + (long long)*len;
}

const char *sbfr_load_chunk(sbfr_chain *c, long long iter, const char *buf, size_t len)
{
    if (buf == NULL || iter <= 0 || (uint64_t)iter < len)
        return SBFR_ERR_BAD_DATA;
    const uint64_t start = (uint64_t)iter - len; /* one past the chunk's first byte */
    uint64_t at = 0;
    const long i = start >= 1 ? locate(c, start - 1, &at) : -1;
    if (i < 0)
        return SBFR_ERR_NO_LINK;
    const sbfr_link l = sbfr_chain_link(c, (uint32_t)i);
    if (len > sbfr_link_bytes(&l) - at)
        return SBFR_ERR_TOO_BIG;
    return sbf_write_data(sbfr_link_writable(c, (uint32_t)i), at, buf, len) == SBF_OK
               ? NULL : SBFR_ERR_BAD_DATA;
}
