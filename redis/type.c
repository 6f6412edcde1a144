/*
 * The data type `simdbloom`: RDB save and load, AOF rewrite, digest, copy,
 * free and memory usage.
 *
 * RDB, encoding 3: u64 layout, u64 expansion, f64 error, u64 items, u64
 * sub-filters, u64 rule (how growth sizes sub-filters, chain.h
 * sbfr_chain.rule: 0 the library's default, 1 the formula alone); per sub-filter u64 layout, u64 k, u64 seed, u64 bits, u64
 * capacity, f64 error, u64 items, a string of its bits / 8 data bytes,
 * saved from the filter itself (no copy), and u64 XXH3-64 of those bytes
 * (a RESTORE payload's CRC covers transport, not a forged body). Encoding 2
 * is 3 without the rule: its chains grow by the formula rule, as they were
 * made (an older module refuses encoding 3: Redis passes the version). Encoding 1 (sbf_serialize bytes per
 * sub-filter, and a LOADCHUNK state that no longer exists) still loads.
 *
 * Whatever a server accepted, it loads: no module limit (MAX_BYTES) applies
 * to loading, only what makes a chain well-formed.
 */
#include "module.h"

#include <string.h>

/* XXH3 from Debian's libxxhash-dev, compiled in (as the library's). */
#define XXH_INLINE_ALL
#include <xxhash.h>

static void rdb_save(RedisModuleIO *io, void *value)
{
    const sbfr_chain *c = value;
    RedisModule_SaveUnsigned(io, (uint64_t)c->layout);
    RedisModule_SaveUnsigned(io, c->expansion);
    RedisModule_SaveDouble(io, c->error);
    RedisModule_SaveUnsigned(io, c->items);
    RedisModule_SaveUnsigned(io, c->nlinks);
    RedisModule_SaveUnsigned(io, (uint64_t)c->rule);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link lv = sbfr_chain_link(c, i), *l = &lv;
        RedisModule_SaveUnsigned(io, (uint64_t)l->layout);
        RedisModule_SaveUnsigned(io, l->k);
        RedisModule_SaveUnsigned(io, l->seed);
        RedisModule_SaveUnsigned(io, l->bits);
        RedisModule_SaveUnsigned(io, l->capacity);
        RedisModule_SaveDouble(io, l->error);
        RedisModule_SaveUnsigned(io, l->items);
        const void *d = sbf_data(l->f, NULL);
        RedisModule_SaveStringBuffer(io, d, (size_t)sbfr_link_bytes(l));
        RedisModule_SaveUnsigned(io, XXH3_64bits(d, (size_t)sbfr_link_bytes(l)));
    }
}

/* Refused stored values. While the server loads its own files each one is
 * worth a warning (the load fails); a RESTORE or MIGRATE any client may send
 * gets one warning a minute, the rest at verbose level, all counted (INFO),
 * so that refusals cannot flood the log. */
static long long g_refused, g_last_warning = -60000;

long long sbfr_refused_loads(void)
{
    return g_refused;
}

static void *load_fail(RedisModuleIO *io, sbfr_chain *c, const char *what)
{
    sbfr_chain_free(c);
    g_refused++;
    const long long now = RedisModule_Milliseconds();
    if ((RedisModule_GetContextFlags(NULL) & REDISMODULE_CTX_FLAGS_LOADING) ||
        now - g_last_warning >= 60000) {
        RedisModule_LogIOError(io, "warning",
                               "simdbloom: refusing a stored filter: %s (%lld refused so far; "
                               "more within a minute are logged at verbose level)",
                               what, g_refused);
        g_last_warning = now;
    } else {
        RedisModule_LogIOError(io, "verbose", "simdbloom: refusing a stored filter: %s", what);
    }
    return NULL;
}

/* One sub-filter of encoding 2. */
static const char *load_link2(RedisModuleIO *io, sbfr_chain *c, uint64_t *items)
{
    const uint64_t layout = RedisModule_LoadUnsigned(io), k = RedisModule_LoadUnsigned(io);
    const uint64_t seed = RedisModule_LoadUnsigned(io), bits = RedisModule_LoadUnsigned(io);
    const uint64_t capacity = RedisModule_LoadUnsigned(io);
    const double error = RedisModule_LoadDouble(io);
    const uint64_t it = RedisModule_LoadUnsigned(io);
    if (RedisModule_IsIOError(io))
        return "short read";
    if (!sbfr_link_layout_ok(c->layout, layout) ||
        k > UINT32_MAX || seed > UINT32_MAX || bits == 0 || bits > SBF_MAX_BITS ||
        !sbfr_valid_link(capacity, error) || it > (uint64_t)INT64_MAX - *items)
        return "bad sub-filter header";
    sbf_filter *f;
    const char *why = "";
    if (sbfr_link_make(&f, (int)layout, bits, (uint32_t)k, (uint32_t)seed, &why) != SBF_OK)
        return why;
    size_t n = 0;
    char *b = RedisModule_LoadStringBuffer(io, &n);
    const uint64_t sum = RedisModule_LoadUnsigned(io);
    if (RedisModule_IsIOError(io) || b == NULL || n != bits / 8 || XXH3_64bits(b, n) != sum ||
        sbf_write_data(f, 0, b, n) != SBF_OK) {
        RedisModule_Free(b);
        sbf_free(f);
        return "bad sub-filter data";
    }
    RedisModule_Free(b);
    if (sbfr_chain_attach(c, f, capacity, error, it, &why) != SBF_OK) {
        sbf_free(f);
        return why;
    }
    *items += it;
    return NULL;
}

/* Encoding 1: a chain whose sub-filters are sbf_serialize buffers. A key
 * that was in the middle of BF.LOADCHUNK comes back with its missing
 * sub-filters empty (their chunks meant another form); a loaded one whole. */
static const char *load_link1(RedisModuleIO *io, sbfr_chain *c, uint64_t capacity, double error,
                              uint64_t items, int present)
{
    sbf_filter *f = NULL;
    const char *why = "";
    if (present) {
        size_t n = 0;
        char *b = RedisModule_LoadStringBuffer(io, &n);
        if (RedisModule_IsIOError(io) || b == NULL) {
            RedisModule_Free(b);
            return "short read";
        }
        struct sbf_info inf;
        int rc = sbf_deserialize_ex(&f, b, n, sbfr_cfg.alloc);
        RedisModule_Free(b);
        if (rc != SBF_OK || sbf_info(f, &inf) != SBF_OK || inf.layout != c->layout) {
            sbf_free(f);
            return rc != SBF_OK ? sbf_strerror(rc) : "layout differs";
        }
    } else {
        uint64_t bits = 0;
        uint32_t k = 0;
        if (sbf_size(c->layout, capacity, error, &bits, &k) != SBF_OK ||
            sbfr_link_make(&f, c->layout, bits, k, 0, &why) != SBF_OK)
            return "cannot make a missing sub-filter";
    }
    if (sbfr_chain_attach(c, f, capacity, error, items, &why) != SBF_OK) {
        sbf_free(f);
        return why;
    }
    return NULL;
}

static void *rdb_load1(RedisModuleIO *io, sbfr_chain *c, uint64_t nlinks)
{
    const uint64_t loading = RedisModule_LoadUnsigned(io);
    uint64_t cap[SBFR_MAX_LINKS], it[SBFR_MAX_LINKS], nb[SBFR_MAX_LINKS], sum = 0;
    double err[SBFR_MAX_LINKS];
    for (uint64_t i = 0; i < nlinks; i++) {
        cap[i] = RedisModule_LoadUnsigned(io);
        err[i] = RedisModule_LoadDouble(io);
        it[i] = RedisModule_LoadUnsigned(io);
        nb[i] = RedisModule_LoadUnsigned(io);
        if (RedisModule_IsIOError(io) || loading > 1 || !sbfr_valid_link(cap[i], err[i]) ||
            it[i] > (uint64_t)INT64_MAX - sum || (!loading && nb[i]))
            return load_fail(io, c, "bad sub-filter header");
        sum += it[i];
    }
    int present = 1;
    for (uint64_t i = 0; i < nlinks; i++) {
        present = present && (!loading || nb[i] == 0);
        const char *why = load_link1(io, c, cap[i], err[i], it[i], present);
        if (why != NULL)
            return load_fail(io, c, why);
    }
    if (loading) { /* the staged bytes of the next sub-filter: dropped */
        size_t n = 0;
        RedisModule_Free(RedisModule_LoadStringBuffer(io, &n));
        if (RedisModule_IsIOError(io))
            return load_fail(io, c, "short read");
    }
    return c;
}

static void *rdb_load(RedisModuleIO *io, int encver)
{
    if (encver < 1 || encver > SBFR_ENCVER)
        return load_fail(io, NULL, "unknown encoding version");
    const uint64_t layout = RedisModule_LoadUnsigned(io);
    const uint64_t expansion = RedisModule_LoadUnsigned(io);
    const double error = RedisModule_LoadDouble(io);
    const uint64_t items = RedisModule_LoadUnsigned(io);
    const uint64_t nlinks = RedisModule_LoadUnsigned(io);
    const uint64_t rule = encver >= 3 ? RedisModule_LoadUnsigned(io) : SBFR_RULE_FORMULA;
    if (RedisModule_IsIOError(io))
        return load_fail(io, NULL, "short read");
    if (!sbfr_valid_chain(layout, expansion, error, nlinks) || !sbfr_rule_ok(rule))
        return load_fail(io, NULL, "bad header");
    sbfr_chain *c = sbfr_chain_alloc((int)layout, (uint32_t)expansion, error);
    c->rule = (int)rule; /* before the first sub-filter: the library takes it there */
    if (encver == 1) {
        if (rdb_load1(io, c, nlinks) == NULL)
            return NULL;
    } else {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < nlinks; i++) {
            const char *why = load_link2(io, c, &sum);
            if (why != NULL)
                return load_fail(io, c, why);
        }
    }
    if (c->items != items)
        return load_fail(io, c, "item counts disagree");
    return c;
}

/* The key rebuilt by BF.LOADCHUNK, exactly as BF.SCANDUMP would move it:
 * the header, then the data straight from the filters. */
static void aof_rewrite(RedisModuleIO *aof, RedisModuleString *key, void *value)
{
    const sbfr_chain *c = value;
    size_t hl;
    unsigned char *h = sbfr_dump_header(c, &hl);
    RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, 1LL, (const char *)h, hl);
    sbfr_free(h);
    const char *data;
    size_t n;
    for (long long it = 1, next; (next = sbfr_dump_chunk(c, it, &data, &n)) != 0; it = next)
        RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, next, data, n);
}

static void type_free(void *value)
{
    sbfr_chain_free(value);
}

static void digest(RedisModuleDigest *md, void *value)
{
    const sbfr_chain *c = value;
    RedisModule_DigestAddLongLong(md, c->layout);
    RedisModule_DigestAddLongLong(md, c->expansion);
    RedisModule_DigestAddLongLong(md, (long long)sbfr_dbl_bits(c->error));
    RedisModule_DigestAddLongLong(md, (long long)c->items);
    if (c->rule != SBFR_RULE_FORMULA) /* chains of the formula rule digest as before */
        RedisModule_DigestAddLongLong(md, -1 - c->rule);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link lv = sbfr_chain_link(c, i), *l = &lv;
        RedisModule_DigestAddLongLong(md, l->layout);
        RedisModule_DigestAddLongLong(md, l->k);
        RedisModule_DigestAddLongLong(md, l->seed);
        RedisModule_DigestAddLongLong(md, (long long)l->bits);
        RedisModule_DigestAddLongLong(md, (long long)l->capacity);
        RedisModule_DigestAddLongLong(md, (long long)sbfr_dbl_bits(l->error));
        RedisModule_DigestAddLongLong(md, (long long)l->items);
        RedisModule_DigestAddStringBuffer(md, sbf_data(l->f, NULL), (size_t)sbfr_link_bytes(l));
    }
    RedisModule_DigestEndSequence(md);
}

/* COPY: an independent chain. NULL (COPY fails) when out of memory. */
static void *type_copy(RedisModuleString *from, RedisModuleString *to, const void *value)
{
    (void)from;
    (void)to;
    return sbfr_chain_copy(value);
}

static size_t mem_usage(const void *value)
{
    return sbfr_chain_mem(value);
}

void sbfr_type_methods(RedisModuleTypeMethods *tm)
{
    memset(tm, 0, sizeof *tm);
    tm->version = REDISMODULE_TYPE_METHOD_VERSION;
    tm->rdb_load = rdb_load;
    tm->rdb_save = rdb_save;
    tm->aof_rewrite = aof_rewrite;
    tm->mem_usage = mem_usage;
    tm->digest = digest;
    tm->free = type_free;
    tm->copy = type_copy;
}
