/*
 * BF.SCANDUMP and BF.LOADCHUNK (a key moved in chunks, dump.h), and
 * BF.DEBUG (RedisBloom's per-sub-filter view).
 */
#include "module.h"

#include <stdio.h>

/* BF.SCANDUMP key iter: [1, header] for 0, then [next, chunk] ... [0, ""].
 * A chunk is a pointer into the filter: the work is its length. */
int sbfr_cmd_bf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key); /* c stays valid: nothing runs in between */
    if (st != SBFR_KEY_OK)
        return sbfr_reply_status(ctx, st);
    long long iter;
    if (RedisModule_StringToLongLong(argv[2], &iter) != REDISMODULE_OK)
        return RedisModule_ReplyWithError(ctx, "Second argument must be numeric");
    RedisModule_ReplyWithArray(ctx, 2);
    if (iter == 0) {
        size_t hl;
        unsigned char *h = sbfr_dump_header(c, &hl);
        RedisModule_ReplyWithLongLong(ctx, 1);
        RedisModule_ReplyWithStringBuffer(ctx, (const char *)h, hl);
        sbfr_free(h);
        return REDISMODULE_OK;
    }
    const char *data;
    size_t n;
    RedisModule_ReplyWithLongLong(ctx, sbfr_dump_chunk(c, iter, &data, &n));
    return RedisModule_ReplyWithStringBuffer(ctx, data, n);
}

/* BF.LOADCHUNK key iter data: iter 1 on an empty key is a header (the key is
 * made, empty); any other chunk is written at its offset into the key, as
 * RedisBloom does. Every accepted chunk is replicated. */
int sbfr_cmd_bf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 4)
        return RedisModule_WrongArity(ctx);
    long long iter;
    if (RedisModule_StringToLongLong(argv[2], &iter) != REDISMODULE_OK)
        return RedisModule_ReplyWithError(ctx, "ERR Second argument must be numeric");
    size_t len;
    const char *buf = RedisModule_StringPtrLen(argv[3], &len);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    const char *err = NULL;
    if (st == SBFR_KEY_EMPTY && iter == 1) {
        c = sbfr_chain_from_header((const unsigned char *)buf, len, sbfr_cap(ctx), &err);
        if (c != NULL)
            RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    } else if (st != SBFR_KEY_OK) {
        RedisModule_CloseKey(key);
        return sbfr_reply_status(ctx, st);
    } else {
        err = sbfr_load_chunk(c, iter, buf, len);
    }
    RedisModule_CloseKey(key);
    if (err != NULL)
        return RedisModule_ReplyWithError(ctx, err);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

/* BF.DEBUG key: RedisBloom's reply shape, "size:<items>" then per
 * sub-filter "bytes:B bits:b hashes:k hashwidth:128 capacity:C size:S
 * ratio:R" (our hash is 128-bit MurmurHash3; bytes are the bits / 8 the
 * sub-filter uses). */
int sbfr_cmd_bf_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = sbfr_ready_chain(ctx, argv[1], REDISMODULE_READ);
    if (c == NULL)
        return REDISMODULE_OK;
    char line[200];
    RedisModule_ReplyWithArray(ctx, 1 + (long)c->nlinks);
    int n = snprintf(line, sizeof line, "size:%llu", (unsigned long long)c->items);
    RedisModule_ReplyWithStringBuffer(ctx, line, (size_t)n);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link lv = sbfr_chain_link(c, i), *l = &lv;
        n = snprintf(line, sizeof line,
                     "bytes:%llu bits:%llu hashes:%u hashwidth:128 capacity:%llu size:%llu "
                     "ratio:%g",
                     (unsigned long long)sbfr_link_bytes(l), (unsigned long long)l->bits, l->k,
                     (unsigned long long)l->capacity, (unsigned long long)l->items, l->error);
        RedisModule_ReplyWithStringBuffer(ctx, line, (size_t)n);
    }
    return REDISMODULE_OK;
}
