/*
 * The data type `simdbloom`: RDB save and load, AOF rewrite, digest, copy,
 * free and memory usage.
 *
 * RDB, encoding 1: u64 layout, u64 expansion, f64 error, u64 items,
 * u64 sub-filters, u64 loading; per sub-filter u64 capacity, f64 error,
 * u64 items, u64 serialized length while loading (else 0); then the
 * serialized bytes of every loaded sub-filter (sbf_serialize) and, while
 * loading, the staged bytes of the next one.
 */
#include "module.h"

#include <string.h>

static void rdb_save(RedisModuleIO *io, void *value)
{
    const sbfr_chain *c = value;
    RedisModule_SaveUnsigned(io, (uint64_t)c->layout);
    RedisModule_SaveUnsigned(io, c->expansion);
    RedisModule_SaveDouble(io, c->error);
    RedisModule_SaveUnsigned(io, c->items);
    RedisModule_SaveUnsigned(io, c->nlinks);
    RedisModule_SaveUnsigned(io, (uint64_t)c->loading);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        RedisModule_SaveUnsigned(io, c->links[i].capacity);
        RedisModule_SaveDouble(io, c->links[i].error);
        RedisModule_SaveUnsigned(io, c->links[i].items);
        RedisModule_SaveUnsigned(io, c->links[i].f != NULL ? 0 : c->links[i].nbytes);
    }
    for (uint32_t i = 0; i < c->nlinks && c->links[i].f != NULL; i++) {
        void *b = NULL;
        size_t n = 0;
        /* Out of memory here leaves an empty record, which load refuses. */
        if (sbf_serialize(c->links[i].f, &b, &n) != SBF_OK)
            n = 0;
        RedisModule_SaveStringBuffer(io, b != NULL ? b : "", n);
        sbf_buffer_free(b);
    }
    if (c->loading)
        RedisModule_SaveStringBuffer(io, c->stage != NULL ? (const char *)c->stage : "",
                                     c->stage_len);
}

static void *rdb_load_fail(RedisModuleIO *io, sbfr_chain *c, const char *what)
{
    RedisModule_LogIOError(io, "warning", "simdbloom: refusing a stored filter: %s", what);
    sbfr_chain_free(c);
    return NULL;
}

static void *rdb_load(RedisModuleIO *io, int encver)
{
    if (encver != SBFR_ENCVER) {
        RedisModule_LogIOError(io, "warning", "simdbloom: unknown encoding version %d", encver);
        return NULL;
    }
    const uint64_t layout = RedisModule_LoadUnsigned(io);
    const uint64_t expansion = RedisModule_LoadUnsigned(io);
    const double error = RedisModule_LoadDouble(io);
    const uint64_t items = RedisModule_LoadUnsigned(io);
    const uint64_t nlinks = RedisModule_LoadUnsigned(io);
    const uint64_t loading = RedisModule_LoadUnsigned(io);
    if (RedisModule_IsIOError(io))
        return rdb_load_fail(io, NULL, "short read");
    if (!sbfr_valid_chain(layout, expansion, error, nlinks) || loading > 1)
        return rdb_load_fail(io, NULL, "bad header");
    sbfr_chain *c = sbfr_chain_alloc((uint32_t)nlinks);
    c->nlinks = (uint32_t)nlinks;
    c->layout = (int)layout;
    c->expansion = (uint32_t)expansion;
    c->error = error;
    c->items = items;
    c->loading = (int)loading;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < c->nlinks; i++) {
        sbfr_link *l = &c->links[i];
        l->capacity = RedisModule_LoadUnsigned(io);
        l->error = RedisModule_LoadDouble(io);
        l->items = RedisModule_LoadUnsigned(io);
        l->nbytes = RedisModule_LoadUnsigned(io);
        if (RedisModule_IsIOError(io))
            return rdb_load_fail(io, c, "short read");
        if (!sbfr_valid_link(l->capacity, l->error, l->nbytes) || l->items > UINT64_MAX - sum)
            return rdb_load_fail(io, c, "bad sub-filter header");
        sum += l->items;
    }
    if (sum != items)
        return rdb_load_fail(io, c, "item counts disagree");
    for (uint32_t i = 0; i < c->nlinks && (!loading || c->links[i].nbytes == 0); i++) {
        size_t n = 0;
        char *b = RedisModule_LoadStringBuffer(io, &n);
        if (RedisModule_IsIOError(io) || b == NULL) {
            RedisModule_Free(b);
            return rdb_load_fail(io, c, "short read");
        }
        sbf_filter *f = NULL;
        struct sbf_info inf;
        int rc = sbf_deserialize(&f, b, n);
        RedisModule_Free(b);
        if (rc != SBF_OK || sbf_info(f, &inf) != SBF_OK || inf.layout != c->layout) {
            sbf_free(f);
            return rdb_load_fail(io, c, rc != SBF_OK ? sbf_strerror(rc) : "layout differs");
        }
        c->links[i].f = f;
    }
    if (loading) {
        size_t n = 0;
        char *b = RedisModule_LoadStringBuffer(io, &n);
        const uint32_t l = sbfr_loading_link(c);
        if (RedisModule_IsIOError(io) || b == NULL) {
            RedisModule_Free(b);
            return rdb_load_fail(io, c, "short read");
        }
        if (l >= c->nlinks || n >= c->links[l].nbytes) {
            RedisModule_Free(b);
            return rdb_load_fail(io, c, "bad staged bytes");
        }
        c->stage = (unsigned char *)b;
        c->stage_len = n;
    } else if (sbfr_loading_link(c) != c->nlinks) {
        return rdb_load_fail(io, c, "missing sub-filter");
    }
    return c;
}

static void emit_chunks(RedisModuleIO *aof, RedisModuleString *key, uint32_t l,
                        const unsigned char *b, size_t n)
{
    for (size_t pos = 0; pos < n;) {
        size_t chunk = n - pos < SBFR_CHUNK ? n - pos : SBFR_CHUNK;
        long long iter = (long long)(((uint64_t)l << SBFR_ITER_SHIFT) + pos + chunk + 1);
        RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, iter, (const char *)b + pos, chunk);
        pos += chunk;
    }
}

/* The key rebuilt by BF.LOADCHUNK, exactly as BF.SCANDUMP would move it. */
static void aof_rewrite(RedisModuleIO *aof, RedisModuleString *key, void *value)
{
    const sbfr_chain *c = value;
    size_t hl;
    unsigned char *h = sbfr_dump_header(c, &hl);
    if (h == NULL) {
        RedisModule_LogIOError(aof, "warning", "simdbloom: out of memory in AOF rewrite");
        return;
    }
    RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, 1LL, (const char *)h, hl);
    RedisModule_Free(h);
    for (uint32_t i = 0; i < c->nlinks && c->links[i].f != NULL; i++) {
        void *b;
        size_t n;
        if (sbfr_link_bytes(c, i, &b, &n) != SBF_OK) {
            RedisModule_LogIOError(aof, "warning", "simdbloom: out of memory in AOF rewrite");
            return;
        }
        emit_chunks(aof, key, i, b, n);
        sbf_buffer_free(b);
    }
    if (c->loading && c->stage_len > 0)
        emit_chunks(aof, key, sbfr_loading_link(c), c->stage, c->stage_len);
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
    RedisModule_DigestAddLongLong(md, c->loading);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link *l = &c->links[i];
        RedisModule_DigestAddLongLong(md, (long long)l->capacity);
        RedisModule_DigestAddLongLong(md, (long long)sbfr_dbl_bits(l->error));
        RedisModule_DigestAddLongLong(md, (long long)l->items);
        if (l->f != NULL) {
            size_t n;
            const void *d = sbf_data(l->f, &n);
            RedisModule_DigestAddStringBuffer(md, d, n);
        }
    }
    if (c->stage_len > 0)
        RedisModule_DigestAddStringBuffer(md, (const char *)c->stage, c->stage_len);
    RedisModule_DigestEndSequence(md);
}

/* COPY: an independent chain. NULL (COPY fails) when out of memory. */
static void *type_copy(RedisModuleString *from, RedisModuleString *to, const void *value)
{
    (void)from;
    (void)to;
    const sbfr_chain *src = value;
    sbfr_chain *c = sbfr_chain_alloc(src->nlinks);
    sbfr_link *links = c->links;
    *c = *src;
    c->links = links;
    c->stage = NULL;
    memcpy(c->links, src->links, src->nlinks * sizeof *links);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        c->links[i].f = NULL;
        if (src->links[i].f != NULL && sbf_copy(&c->links[i].f, src->links[i].f) != SBF_OK) {
            sbfr_chain_free(c);
            return NULL;
        }
    }
    if (src->stage_len > 0) {
        c->stage = RedisModule_Alloc(src->stage_len);
        memcpy(c->stage, src->stage, src->stage_len);
    }
    return c;
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
