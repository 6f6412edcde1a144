/*
 * The dump form of a chain (dump.h). Header (little-endian): "SBFRCHN1",
 * u32 version 1, u32 sub-filters, u32 layout, u32 expansion, f64 error,
 * u64 items; then per sub-filter u64 capacity, f64 error, u64 items, u64
 * serialized length; then a u64 check (MurmurHash3 of the bytes before it,
 * h1 with seed 0x5bf).
 */
#include "dump.h"

#include <string.h>

#define DUMP_MAGIC "SBFRCHN1"
#define DUMP_VERSION 1
#define DUMP_HDR 40
#define DUMP_LINK 32
#define DUMP_SEED 0x5bfu

_Static_assert(SBFR_ITER_MASK == SBFR_MAX_LINK_BYTES,
               "an iterator must address every byte of a sub-filter");

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
static double bits_dbl(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

int sbfr_link_bytes(const sbfr_chain *c, uint32_t l, void **buf, size_t *len)
{
    return sbf_serialize(c->links[l].f, buf, len);
}

/* Serialized lengths come from the sub-filters, or from the header a
 * loading key was created with. */
unsigned char *sbfr_dump_header(const sbfr_chain *c, size_t *len)
{
    const size_t body = DUMP_HDR + (size_t)c->nlinks * DUMP_LINK;
    *len = body + 8;
    unsigned char *h = sbfr_alloc(*len);
    memcpy(h, DUMP_MAGIC, 8);
    put32(h + 8, DUMP_VERSION);
    put32(h + 12, c->nlinks);
    put32(h + 16, (uint32_t)c->layout);
    put32(h + 20, c->expansion);
    put64(h + 24, sbfr_dbl_bits(c->error));
    put64(h + 32, c->items);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        uint64_t nbytes = c->links[i].nbytes;
        if (c->links[i].f != NULL) {
            void *b;
            size_t n;
            if (sbfr_link_bytes(c, i, &b, &n) != SBF_OK) {
                sbfr_free(h);
                return NULL;
            }
            sbf_buffer_free(b);
            nbytes = n;
        }
        put64(p, c->links[i].capacity);
        put64(p + 8, sbfr_dbl_bits(c->links[i].error));
        put64(p + 16, c->links[i].items);
        put64(p + 24, nbytes);
    }
    uint64_t sum[2];
    sbf_murmur3_x64_128(h, body, DUMP_SEED, sum);
    put64(h + body, sum[0]);
    return h;
}

sbfr_chain *sbfr_chain_from_header(const unsigned char *h, size_t len, const char **why)
{
    *why = SBFR_ERR_BAD_DATA;
    if (len < DUMP_HDR || memcmp(h, DUMP_MAGIC, 8) != 0)
        return NULL;
    if (get32(h + 8) != DUMP_VERSION) {
        *why = "ERR unknown dump version";
        return NULL;
    }
    const uint32_t nlinks = get32(h + 12), layout = get32(h + 16), expansion = get32(h + 20);
    const double error = bits_dbl(get64(h + 24));
    uint64_t sum[2];
    if (nlinks == 0 || nlinks > SBFR_MAX_LINKS || len != DUMP_HDR + (size_t)nlinks * DUMP_LINK + 8)
        return NULL;
    sbf_murmur3_x64_128(h, len - 8, DUMP_SEED, sum);
    if (sum[0] != get64(h + len - 8) || !sbfr_valid_chain(layout, expansion, error, nlinks))
        return NULL;
    uint64_t items = 0;
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        const uint64_t cap = get64(p), nb = get64(p + 24), it = get64(p + 16);
        if (!sbfr_valid_link(cap, bits_dbl(get64(p + 8)), nb) || nb == 0 ||
            nb > sbfr_cfg.max_bytes + 4096 || it > UINT64_MAX - items)
            return NULL;
        items += it;
    }
    if (items != get64(h + 32))
        return NULL;
    sbfr_chain *c = sbfr_chain_alloc(nlinks);
    c->nlinks = nlinks;
    c->layout = (int)layout;
    c->expansion = expansion;
    c->error = error;
    c->items = items;
    c->loading = 1;
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        c->links[i].capacity = get64(p);
        c->links[i].error = bits_dbl(get64(p + 8));
        c->links[i].items = get64(p + 16);
        c->links[i].nbytes = get64(p + 24);
    }
    return c;
}

uint32_t sbfr_loading_link(const sbfr_chain *c)
{
    uint32_t l = 0;
    while (l < c->nlinks && c->links[l].f != NULL)
        l++;
    return l;
}

const char *sbfr_chain_load_chunk(sbfr_chain *c, uint32_t l, uint64_t end, const char *buf,
                                  size_t len)
{
    if (!c->loading)
        return SBFR_ERR_EXISTS;
    const uint32_t cur = sbfr_loading_link(c);
    if (l != cur || end < len || end - len != c->stage_len || end > c->links[l].nbytes)
        return "ERR invalid offset: chunks must come in BF.SCANDUMP order";
    if (len == 0)
        return SBFR_ERR_BAD_DATA;
    c->stage = sbfr_realloc(c->stage, c->stage_len + len);
    memcpy(c->stage + c->stage_len, buf, len);
    if (end < c->links[l].nbytes) {
        c->stage_len += len;
        return NULL;
    }
    sbf_filter *f;
    struct sbf_info inf;
    if (sbf_deserialize(&f, c->stage, c->stage_len + len) != SBF_OK)
        return SBFR_ERR_BAD_DATA; /* stage_len unchanged: the chunk is dropped */
    if (sbf_info(f, &inf) != SBF_OK || inf.layout != c->layout || inf.bytes > sbfr_cfg.max_bytes) {
        sbf_free(f);
        return SBFR_ERR_BAD_DATA;
    }
    c->links[l].f = f;
    c->links[l].nbytes = 0;
    sbfr_free(c->stage);
    c->stage = NULL;
    c->stage_len = 0;
    if (l + 1 == c->nlinks)
        c->loading = 0;
    return NULL;
}
