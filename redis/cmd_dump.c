/*
 * BF.SCANDUMP and BF.LOADCHUNK: a key moved in chunks (dump.h has the form).
 */
#include "module.h"

int sbfr_cmd_bf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key);
    if (st != SBFR_KEY_OK)
        return sbfr_reply_status(ctx, st);
    long long iter;
    if (RedisModule_StringToLongLong(argv[2], &iter) != REDISMODULE_OK || iter < 0)
        return RedisModule_ReplyWithError(ctx, "Second argument must be numeric");
    if (c->loading)
        return RedisModule_ReplyWithError(ctx, SBFR_ERR_LOADING);
    if (iter == 0) {
        size_t hl;
        unsigned char *h = sbfr_dump_header(c, &hl);
        if (h == NULL)
            return RedisModule_ReplyWithError(ctx, "ERR out of memory");
        RedisModule_ReplyWithArray(ctx, 2);
        RedisModule_ReplyWithLongLong(ctx, 1);
        RedisModule_ReplyWithStringBuffer(ctx, (const char *)h, hl);
        RedisModule_Free(h);
        return REDISMODULE_OK;
    }
    uint64_t l = ((uint64_t)iter - 1) >> SBFR_ITER_SHIFT;
    uint64_t pos = ((uint64_t)iter - 1) & SBFR_ITER_MASK;
    void *b = NULL;
    size_t n = 0;
    while (l < c->nlinks) {
        if (sbfr_link_bytes(c, (uint32_t)l, &b, &n) != SBF_OK)
            return RedisModule_ReplyWithError(ctx, "ERR out of memory");
        if (pos < n)
            break;
        sbf_buffer_free(b);
        b = NULL;
        l++;
        pos = 0;
    }
    RedisModule_ReplyWithArray(ctx, 2);
    if (b == NULL) { /* past the end */
        RedisModule_ReplyWithLongLong(ctx, 0);
        return RedisModule_ReplyWithStringBuffer(ctx, "", 0);
    }
    size_t chunk = n - pos < SBFR_CHUNK ? n - pos : SBFR_CHUNK;
    RedisModule_ReplyWithLongLong(ctx, (long long)((l << SBFR_ITER_SHIFT) + pos + chunk + 1));
    RedisModule_ReplyWithStringBuffer(ctx, (const char *)b + pos, chunk);
    sbf_buffer_free(b);
    return REDISMODULE_OK;
}

int sbfr_cmd_bf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 4)
        return RedisModule_WrongArity(ctx);
    long long iter;
    if (RedisModule_StringToLongLong(argv[2], &iter) != REDISMODULE_OK)
        return RedisModule_ReplyWithError(ctx, "ERR Second argument must be numeric");
    if (iter <= 0)
        return RedisModule_ReplyWithError(ctx, "ERR invalid offset");
    size_t len;
    const char *buf = RedisModule_StringPtrLen(argv[3], &len);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    const char *err = NULL;
    if (iter == 1) {
        if (st != SBFR_KEY_EMPTY) {
            RedisModule_CloseKey(key);
            return sbfr_reply_status(ctx, st == SBFR_KEY_OK ? -1 : st);
        }
        c = sbfr_chain_from_header((const unsigned char *)buf, len, &err);
        if (c != NULL) {
            RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
            err = NULL;
        }
    } else if (st != SBFR_KEY_OK) {
        RedisModule_CloseKey(key);
        return sbfr_reply_status(ctx, st);
    } else {
        const uint64_t it = (uint64_t)iter - 1;
        err = sbfr_chain_load_chunk(c, (uint32_t)(it >> SBFR_ITER_SHIFT), it & SBFR_ITER_MASK, buf,
                                    len);
    }
    RedisModule_CloseKey(key);
    if (err != NULL)
        return RedisModule_ReplyWithError(ctx, err);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}
