/*
 * SBF.INFO, SBF.DEL (counting keys), SBF.EXPORTGUAVA and SBF.IMPORTGUAVA:
 * what RedisBloom has not. SBF.RESERVE lives with BF.RESERVE (cmd_bf.c).
 */
#include "module.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void reply_pair_ll(RedisModuleCtx *ctx, const char *name, long long v)
{
    RedisModule_ReplyWithSimpleString(ctx, name);
    RedisModule_ReplyWithLongLong(ctx, v);
}

static void reply_pair_dbl(RedisModuleCtx *ctx, const char *name, double v)
{
    RedisModule_ReplyWithSimpleString(ctx, name);
    RedisModule_ReplyWithDouble(ctx, v);
}

/* The block a key's bits lie in (0: anywhere), as the library says. */
static uint32_t block_bits(const sbfr_link *l)
{
    struct sbf_layout_info li;
    return sbf_layout_info(l->layout, l->k, &li) == SBF_OK ? li.block_bits : 0;
}

static void reply_link(RedisModuleCtx *ctx, const sbfr_link *l, int fill)
{
    struct sbf_info inf;
    if (fill)
        sbf_info(l->f, &inf);
    size_t bytes;
    sbf_data(l->f, &bytes);
    RedisModule_ReplyWithMap(ctx, 9 + 2 * fill);
    RedisModule_ReplyWithSimpleString(ctx, "Layout");
    RedisModule_ReplyWithSimpleString(ctx, sbf_layout_name(l->layout));
    reply_pair_ll(ctx, "Capacity", (long long)l->capacity);
    reply_pair_ll(ctx, "Items", (long long)l->items);
    reply_pair_dbl(ctx, "Error rate", l->error);
    reply_pair_ll(ctx, "Bits", (long long)l->bits);
    reply_pair_ll(ctx, "Bytes", (long long)bytes);
    reply_pair_ll(ctx, "Hashes", l->k);
    reply_pair_ll(ctx, "Block bits", block_bits(l));
    reply_pair_dbl(ctx, "False positive rate now", sbf_fpp_theory(l->f, l->items));
    if (fill) {
        reply_pair_dbl(ctx, "Fill ratio", inf.fill_ratio);
        reply_pair_ll(ctx, "Saturated counters", (long long)inf.saturated);
    }
}

/* SBF.INFO key [FILL]: everything BF.INFO says, then the layout, the
 * kernels' ISA, the asked rate, the false-positive rate the exact formulas
 * give now, the sizing rule its growth follows, and per sub-filter its layout, geometry and numbers. O(number
 * of sub-filters); FILL adds each one's fill ratio and saturated counters,
 * a pass over its data. */
int sbfr_cmd_sbf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2 && argc != 3)
        return RedisModule_WrongArity(ctx);
    if (argc == 3 && !sbfr_arg_is(argv[2], "FILL"))
        return RedisModule_ReplyWithError(ctx, "Unknown argument received");
    sbfr_chain *c = sbfr_ready_chain(ctx, argv[1], REDISMODULE_READ);
    if (c == NULL)
        return REDISMODULE_OK;
    double log_pass = 0; /* log of the chance an absent item passes no sub-filter */
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link l = sbfr_chain_link(c, i);
        log_pass += log1p(-sbf_fpp_theory(l.f, l.items));
    }
    RedisModule_ReplyWithMap(ctx, SBFR_F_COUNT + 6);
    for (int i = 0; i < SBFR_F_COUNT; i++) {
        RedisModule_ReplyWithSimpleString(ctx, sbfr_info_names[i]);
        sbfr_reply_info_value(ctx, c, i);
    }
    RedisModule_ReplyWithSimpleString(ctx, "Layout");
    RedisModule_ReplyWithSimpleString(ctx, sbf_layout_name(c->layout));
    RedisModule_ReplyWithSimpleString(ctx, "ISA");
    RedisModule_ReplyWithSimpleString(ctx, sbf_isa_name(sbf_isa_active()));
    reply_pair_dbl(ctx, "Error rate", c->error);
    /* + 0.0: an empty key's -expm1(0) is -0, shown "-0" */
    reply_pair_dbl(ctx, "False positive rate now", -expm1(log_pass) + 0.0);
    RedisModule_ReplyWithSimpleString(ctx, "Sizing rule");
    RedisModule_ReplyWithSimpleString(ctx, sbfr_rule_name(c->rule));
    RedisModule_ReplyWithSimpleString(ctx, "Filters");
    RedisModule_ReplyWithArray(ctx, c->nlinks);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link l = sbfr_chain_link(c, i);
        reply_link(ctx, &l, argc == 3);
    }
    return REDISMODULE_OK;
}

/* ------------------------------------------------------- SBF.DEL (counting) */

int sbfr_cmd_sbf_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = sbfr_ready_chain(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    if (c == NULL)
        return REDISMODULE_OK;
    size_t n;
    const char *s = RedisModule_StringPtrLen(argv[2], &n);
    int rc = sbfr_chain_remove(c, s, n); /* counting keys have one sub-filter */
    if (rc == SBF_E_UNSUPPORTED) /* the library's word: its cells are not counters */
        return RedisModule_ReplyWithError(ctx, "ERR SBF.DEL needs a counting filter");
    if (rc == SBF_E_NOT_PRESENT)
        return RedisModule_ReplyWithLongLong(ctx, 0);
    if (rc != SBF_OK)
        return RedisModule_ReplyWithError(ctx, sbf_strerror(rc));
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithLongLong(ctx, 1);
}

/* ------------------------------------------- SBF.EXPORTGUAVA, IMPORTGUAVA */

int sbfr_cmd_sbf_exportguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = sbfr_ready_chain(ctx, argv[1], REDISMODULE_READ);
    if (c == NULL)
        return REDISMODULE_OK;
    void *b;
    size_t n;
    int rc = c->nlinks != 1 ? SBF_E_UNSUPPORTED : sbf_export_guava(sbfr_chain_link(c, 0).f, &b, &n);
    if (rc == SBF_E_UNSUPPORTED) /* a chain, or the library's word: not classic */
        return RedisModule_ReplyWithError(
            ctx, "ERR only a classic filter with one sub-filter has a Guava form");
    if (rc != SBF_OK)
        return RedisModule_ReplyWithError(ctx, sbf_strerror(rc));
    RedisModule_ReplyWithStringBuffer(ctx, b, n);
    sbf_buffer_free(b);
    return REDISMODULE_OK;
}

/* Guava keeps no count: the filter's cardinality estimate, which is
 * infinite for a filter with every bit set; then the estimate with one bit
 * clear, m/k * ln m: a lower bound of what such a filter has seen. */
static uint64_t guava_items(const struct sbf_info *inf)
{
    double n = inf->est_cardinality;
    if (!(n < 9.2e18)) /* also NaN */
        n = (double)inf->bits / inf->k * log((double)inf->bits);
    return n < 0 ? 0 : n > 9.2e18 ? (uint64_t)9.2e18 : (uint64_t)llround(n);
}

/* SBF.IMPORTGUAVA key data [CAPACITY c]: a NONSCALING classic key. Guava
 * keeps no count: CAPACITY defaults to m*ln2/k (the n this k is optimal
 * for), the item count to the filter's cardinality estimate. */
int sbfr_cmd_sbf_importguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3 && argc != 5)
        return RedisModule_WrongArity(ctx);
    long long cap = 0;
    if (argc == 5) {
        if (!sbfr_arg_is(argv[3], "CAPACITY"))
            return RedisModule_ReplyWithError(ctx, "Unknown argument received");
        if (RedisModule_StringToLongLong(argv[4], &cap) != REDISMODULE_OK || cap < 1 ||
            (uint64_t)cap > SBFR_MAX_CAPACITY)
            return RedisModule_ReplyWithError(ctx, "Bad capacity");
    }
    size_t len;
    const char *buf = RedisModule_StringPtrLen(argv[2], &len);
    if (len > 6 && len - 6 > sbfr_cap(ctx)) /* the 6-byte header, then the data */
        return RedisModule_ReplyWithError(ctx,
                                          "ERR the filter would exceed the module's MAX_BYTES");
    RedisModuleKey *key = sbfr_open_empty(ctx, argv[1]);
    if (key == NULL)
        return REDISMODULE_OK;
    sbf_filter *f = NULL;
    int rc = sbf_import_guava_ex(&f, buf, len, sbfr_cfg.alloc);
    if (rc != SBF_OK) {
        RedisModule_CloseKey(key);
        char msg[128];
        snprintf(msg, sizeof msg, "ERR not a Guava filter: %s", sbf_strerror(rc));
        return RedisModule_ReplyWithError(ctx, msg);
    }
    struct sbf_info inf;
    sbf_info(f, &inf);
    if (cap == 0) {
        double n = floor((double)inf.bits * log(2.0) / inf.k);
        cap = n < 1                           ? 1
              : n > (double)SBFR_MAX_CAPACITY ? (long long)SBFR_MAX_CAPACITY
                                              : (long long)n;
    }
    double err = sbf_fpp_layout(SBF_CLASSIC, (uint64_t)cap, inf.bits, inf.k);
    if (!sbfr_valid_rate(err))
        err = 0.5;
    sbfr_chain *c = sbfr_chain_alloc(SBF_CLASSIC, 0, err);
    const char *why = "";
    rc = sbfr_chain_attach(c, f, (uint64_t)cap, err, guava_items(&inf), &why);
    if (rc != SBF_OK) {
        sbf_free(f);
        sbfr_chain_free(c);
        RedisModule_CloseKey(key);
        return RedisModule_ReplyWithError(ctx, sbf_strerror(rc));
    }
    RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    RedisModule_CloseKey(key);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}
