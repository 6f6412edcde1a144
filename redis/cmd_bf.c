/*
 * BF.RESERVE, BF.ADD, BF.MADD, BF.INSERT, BF.EXISTS, BF.MEXISTS, BF.CARD and
 * BF.INFO, answering as RedisBloom 2.6 does (arguments, replies, error
 * texts); SBF.RESERVE shares BF.RESERVE's parser.
 */
#include "module.h"

#include <stdio.h>
#include <string.h>

/* The item arguments as arrays for the batched kernels. */
typedef struct item_vec {
    const void *ptr_local[128];
    size_t len_local[128];
    uint8_t out_local[128], tmp_local[128];
    const void **ptr;
    size_t *len;
    uint8_t *out, *tmp;
    size_t n;
} item_vec;

static void items_load(item_vec *v, RedisModuleString **argv, size_t n)
{
    v->n = n;
    if (n <= 128) {
        v->ptr = v->ptr_local;
        v->len = v->len_local;
        v->out = v->out_local;
        v->tmp = v->tmp_local;
    } else {
        v->ptr = RedisModule_Alloc(n * sizeof *v->ptr);
        v->len = RedisModule_Alloc(n * sizeof *v->len);
        v->out = RedisModule_Alloc(2 * n);
        v->tmp = v->out + n;
    }
    for (size_t i = 0; i < n; i++)
        v->ptr[i] = RedisModule_StringPtrLen(argv[i], &v->len[i]);
}

static void items_free(item_vec *v)
{
    if (v->ptr != v->ptr_local) {
        RedisModule_Free((void *)v->ptr);
        RedisModule_Free(v->len);
        RedisModule_Free(v->out);
    }
}

/* --------------------------------------------------------------- BF.RESERVE */

/* BF.RESERVE key error_rate capacity [EXPANSION e] [NONSCALING] and
 * SBF.RESERVE with LAYOUT too. */
int sbfr_reserve_common(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int own)
{
    if (argc < 4 || (!own && argc > 7))
        return RedisModule_WrongArity(ctx);
    double error;
    long long capacity;
    if (RedisModule_StringToDouble(argv[2], &error) != REDISMODULE_OK)
        return RedisModule_ReplyWithError(ctx, "ERR bad error rate");
    if (!(error > 0 && error < 1))
        return RedisModule_ReplyWithError(ctx, "ERR (0 < error rate range < 1) ");
    if (RedisModule_StringToLongLong(argv[3], &capacity) != REDISMODULE_OK)
        return RedisModule_ReplyWithError(ctx, "ERR bad capacity");
    if (capacity <= 0)
        return RedisModule_ReplyWithError(ctx, "ERR (capacity should be larger than 0)");
    if ((uint64_t)capacity > SBFR_MAX_CAPACITY)
        return RedisModule_ReplyWithError(ctx, "ERR capacity must be in the range [1, 1073741824]");

    int nonscaling = 0, ex_at = -1, layout = sbfr_cfg.layout;
    long long expansion = sbfr_cfg.expansion;
    for (int i = 4; i < argc; i++) {
        if (sbfr_arg_is(argv[i], "NONSCALING")) {
            nonscaling = 1;
        } else if (sbfr_arg_is(argv[i], "EXPANSION")) {
            if (i + 1 == argc)
                return RedisModule_ReplyWithError(ctx, "ERR no expansion");
            ex_at = ++i;
        } else if (own && sbfr_arg_is(argv[i], "LAYOUT")) {
            if (i + 1 == argc)
                return RedisModule_ReplyWithError(ctx, "ERR no layout");
            size_t n;
            const char *s = RedisModule_StringPtrLen(argv[++i], &n);
            if ((layout = sbfr_layout_from_name(s, n)) < 0)
                return RedisModule_ReplyWithError(
                    ctx, "ERR layout must be classic, blocked, split-block, counting, "
                    "blocked-xxh3, split-block-xxh3, counting-xxh3, blocked-fmix or "
                    "split-block-fmix");
        } else if (own) {
            return RedisModule_ReplyWithError(ctx, "Unknown argument received");
        } /* BF.RESERVE ignores other words, as RedisBloom does */
    }
    if (ex_at >= 0) {
        if (nonscaling)
            return RedisModule_ReplyWithError(ctx, "Nonscaling filters cannot expand");
        if (RedisModule_StringToLongLong(argv[ex_at], &expansion) != REDISMODULE_OK)
            return RedisModule_ReplyWithError(ctx, "ERR bad expansion");
        if (expansion < 1)
            return RedisModule_ReplyWithError(ctx, "ERR expansion should be greater or equal to 1");
        if (expansion > SBFR_MAX_EXPANSION)
            return RedisModule_ReplyWithError(ctx, "ERR expansion must be in the range [0, 32768]");
    }

    RedisModuleKey *key = sbfr_open_empty(ctx, argv[1]);
    if (key == NULL)
        return REDISMODULE_OK;
    sbfr_chain *c;
    const char *why = "";
    int rc = sbfr_chain_new(&c, layout, (uint64_t)capacity, error,
                            nonscaling ? 0 : (uint32_t)expansion, sbfr_cap(ctx), &why);
    if (rc != SBF_OK) {
        RedisModule_CloseKey(key);
        return sbfr_reply_create_error(ctx, rc, why);
    }
    RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    RedisModule_CloseKey(key);
    sbfr_replicate_create(ctx, argv[1], c);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

int sbfr_cmd_bf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return sbfr_reserve_common(ctx, argv, argc, 0);
}

int sbfr_cmd_sbf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return sbfr_reserve_common(ctx, argv, argc, 1);
}

/* ------------------------------------------------ BF.ADD, BF.MADD, BF.INSERT */

typedef struct insert_opts {
    long long capacity;
    double error;
    long long expansion;
    int nonscaling, autocreate, multi;
} insert_opts;

static int reply_add_error(RedisModuleCtx *ctx, int rv, const char *why)
{
    if (rv == SBFR_ADD_FULL)
        return RedisModule_ReplyWithError(ctx, SBFR_ERR_FULL);
    char msg[160];
    snprintf(msg, sizeof msg, "ERR could not grow the filter: %s", why);
    return RedisModule_ReplyWithError(ctx, msg);
}

/* The key for an add: the existing chain, or (autocreate) a new one whose
 * creation is replicated with every parameter. NULL after an error reply. */
static sbfr_chain *chain_for_add(RedisModuleCtx *ctx, RedisModuleString *keyname,
                                 const insert_opts *o, RedisModuleKey **key)
{
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE, key, &c);
    if (st == SBFR_KEY_EMPTY && o->autocreate) {
        const char *why = "";
        int rc = sbfr_chain_new(&c, sbfr_cfg.layout, (uint64_t)o->capacity, o->error,
                                o->nonscaling ? 0 : (uint32_t)o->expansion, sbfr_cap(ctx), &why);
        if (rc != SBF_OK) {
            sbfr_reply_create_error(ctx, rc, why);
            return NULL;
        }
        RedisModule_ModuleTypeSetValue(*key, sbfr_type, c);
        sbfr_replicate_create(ctx, keyname, c);
        return c;
    }
    if (st != SBFR_KEY_OK) {
        sbfr_reply_status(ctx, st);
        return NULL;
    }
    return c;
}

/* BF.ADD (one item) and BF.MADD / BF.INSERT (all items or none, one
 * batched pass over the sub-filters first). The command is replicated when
 * it changed the key: a replica then does exactly what the primary did. */
static int insert_common(RedisModuleCtx *ctx, RedisModuleString *keyname,
                         RedisModuleString **items, size_t n, const insert_opts *o)
{
    RedisModuleKey *key;
    sbfr_chain *c = chain_for_add(ctx, keyname, o, &key);
    if (c == NULL) {
        RedisModule_CloseKey(key);
        return REDISMODULE_OK;
    }
    const char *why = "";
    long long added;
    if (!o->multi) {
        size_t len;
        const char *s = RedisModule_StringPtrLen(items[0], &len);
        int rv = sbfr_chain_add1(c, s, len, sbfr_cap(ctx), &why);
        added = rv < 0 ? rv : rv == SBFR_ADD_NEW || sbfr_counts(c->layout);
        if (rv >= 0)
            RedisModule_ReplyWithBool(ctx, rv == SBFR_ADD_NEW);
    } else {
        item_vec v;
        items_load(&v, items, n);
        added = sbfr_chain_add_all(c, (const void *const *)v.ptr, v.len, n, v.out,
                                   sbfr_cap(ctx), &why);
        if (added >= 0) {
            RedisModule_ReplyWithArray(ctx, (long)n);
            for (size_t i = 0; i < n; i++)
                RedisModule_ReplyWithBool(ctx, v.out[i]);
            if (sbfr_counts(c->layout))
                added = (long long)n; /* present items count too */
        }
        items_free(&v);
    }
    RedisModule_CloseKey(key);
    if (added < 0)
        return reply_add_error(ctx, (int)added, why);
    if (added > 0)
        RedisModule_ReplicateVerbatim(ctx);
    return REDISMODULE_OK;
}

static insert_opts default_opts(int multi)
{
    insert_opts o = {(long long)sbfr_cfg.capacity, sbfr_cfg.error, sbfr_cfg.expansion, 0, 1, multi};
    return o;
}

int sbfr_cmd_bf_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(0);
    return insert_common(ctx, argv[1], argv + 2, 1, &o);
}

int sbfr_cmd_bf_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(1);
    return insert_common(ctx, argv[1], argv + 2, (size_t)argc - 2, &o);
}

/* BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING]
 * ITEMS item... (RedisBloom matches options by their first letters; we
 * take the whole words.) */
int sbfr_cmd_bf_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 4)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(1);
    int at = 2, items = -1;
    while (at < argc && items < 0) {
        RedisModuleString *a = argv[at];
        if (sbfr_arg_is(a, "ITEMS")) {
            items = ++at;
        } else if (sbfr_arg_is(a, "ERROR")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToDouble(argv[at++], &o.error) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad error rate");
        } else if (sbfr_arg_is(a, "EXPANSION")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToLongLong(argv[at++], &o.expansion) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad expansion");
        } else if (sbfr_arg_is(a, "CAPACITY")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToLongLong(argv[at++], &o.capacity) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad capacity");
        } else if (sbfr_arg_is(a, "NOCREATE")) {
            o.autocreate = 0;
            at++;
        } else if (sbfr_arg_is(a, "NONSCALING")) {
            o.nonscaling = 1;
            at++;
        } else {
            return RedisModule_ReplyWithError(ctx, "Unknown argument received");
        }
    }
    if (items < 0 || items == argc)
        return RedisModule_WrongArity(ctx);
    if (!(o.error > 0 && o.error < 1) || o.capacity < 1 || o.expansion < 1)
        return RedisModule_ReplyWithError(ctx, "Bad argument received");
    if ((uint64_t)o.capacity > SBFR_MAX_CAPACITY)
        return RedisModule_ReplyWithError(ctx, "Bad capacity");
    if (o.expansion > SBFR_MAX_EXPANSION)
        return RedisModule_ReplyWithError(ctx, "Bad expansion");
    return insert_common(ctx, argv[1], argv + items, (size_t)(argc - items), &o);
}

/* -------------------------------------------------- BF.EXISTS, BF.MEXISTS */

static int exists_common(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int multi)
{
    if (multi ? argc < 3 : argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    const int usable = st == SBFR_KEY_OK; /* else every answer is 0 */
    const size_t n = (size_t)argc - 2;
    if (!multi) {
        int found = 0;
        if (usable) {
            size_t len;
            const char *s = RedisModule_StringPtrLen(argv[2], &len);
            found = sbf_scalable_contains(c->s, s, len) == 1;
        }
        RedisModule_CloseKey(key);
        return RedisModule_ReplyWithBool(ctx, found);
    }
    item_vec v;
    items_load(&v, argv + 2, n);
    if (usable)
        sbfr_chain_contains_batch(c, (const void *const *)v.ptr, v.len, n, v.out);
    else
        memset(v.out, 0, n);
    RedisModule_ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++)
        RedisModule_ReplyWithBool(ctx, v.out[i]);
    items_free(&v);
    RedisModule_CloseKey(key);
    return REDISMODULE_OK;
}

int sbfr_cmd_bf_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return exists_common(ctx, argv, argc, 0);
}

int sbfr_cmd_bf_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return exists_common(ctx, argv, argc, 1);
}

/* ------------------------------------------------------ BF.CARD, BF.INFO */

int sbfr_cmd_bf_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key);
    if (st == SBFR_KEY_WRONGTYPE)
        return sbfr_reply_status(ctx, st);
    return RedisModule_ReplyWithLongLong(ctx, st == SBFR_KEY_OK ? (long long)c->items : 0);
}

const char *const sbfr_info_names[SBFR_F_COUNT] = {
    "Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate"};
static const char *const info_args[SBFR_F_COUNT] = {"capacity", "size", "filters", "items",
                                               "expansion"};

void sbfr_reply_info_value(RedisModuleCtx *ctx, const sbfr_chain *c, int field)
{
    switch (field) {
    case SBFR_F_CAPACITY:
        RedisModule_ReplyWithLongLong(ctx, (long long)sbfr_chain_capacity(c));
        break;
    case SBFR_F_SIZE: RedisModule_ReplyWithLongLong(ctx, (long long)sbfr_chain_mem(c)); break;
    case SBFR_F_FILTERS: RedisModule_ReplyWithLongLong(ctx, c->nlinks); break;
    case SBFR_F_ITEMS: RedisModule_ReplyWithLongLong(ctx, (long long)c->items); break;
    default:
        if (c->expansion == 0)
            RedisModule_ReplyWithNull(ctx);
        else
            RedisModule_ReplyWithLongLong(ctx, c->expansion);
    }
}

int sbfr_cmd_bf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2 && argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key); /* c stays valid: nothing runs in between */
    if (st != SBFR_KEY_OK)
        return sbfr_reply_status(ctx, st);
    if (argc == 3) {
        int field = -1;
        for (int i = 0; i < SBFR_F_COUNT && field < 0; i++)
            if (sbfr_arg_is(argv[2], info_args[i]))
                field = i;
        if (field < 0)
            return RedisModule_ReplyWithError(ctx, "Invalid information value");
        if (sbfr_is_resp3(ctx)) {
            RedisModule_ReplyWithMap(ctx, 1);
            RedisModule_ReplyWithSimpleString(ctx, sbfr_info_names[field]);
        } else {
            RedisModule_ReplyWithArray(ctx, 1);
        }
        sbfr_reply_info_value(ctx, c, field);
        return REDISMODULE_OK;
    }
    RedisModule_ReplyWithMap(ctx, SBFR_F_COUNT);
    for (int i = 0; i < SBFR_F_COUNT; i++) {
        RedisModule_ReplyWithSimpleString(ctx, sbfr_info_names[i]);
        sbfr_reply_info_value(ctx, c, i);
    }
    return REDISMODULE_OK;
}
