/*
 * Operating the module: its arguments at load, the same parameters as
 * CONFIG SET/GET <module>.<name> (Redis 7 module configurations), an INFO
 * section of totals, and ACL categories.
 *
 *   argument       config                  meaning
 *   INITIAL_SIZE   <module>.initial-size   capacity of a key an add creates
 *   ERROR_RATE     <module>.error-rate     its error rate
 *   EXPANSION      <module>.expansion      its growth factor
 *   LAYOUT         <module>.layout         classic|blocked|split-block|counting|
 *                                         blocked-xxh3|split-block-xxh3|counting-xxh3|
 *                                         blocked-fmix|split-block-fmix
 *   MAX_BYTES      <module>.max-bytes      one key's sub-filters, bits / 8
 *   NAME           -                       simdbloom (default) or bf
 */
#include "module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arguments */

static int parse_one(RedisModuleString *name, RedisModuleString *value)
{
    long long ll = 0;
    double d = 0;
    size_t n;
    const char *val = RedisModule_StringPtrLen(value, &n);
    if (sbfr_arg_is(name, "INITIAL_SIZE") || sbfr_arg_is(name, "CAPACITY"))
        return RedisModule_StringToLongLong(value, &ll) == REDISMODULE_OK && ll >= 1 &&
               (uint64_t)ll <= SBFR_MAX_CAPACITY && (sbfr_cfg.capacity = (uint64_t)ll, 1);
    if (sbfr_arg_is(name, "ERROR_RATE"))
        return RedisModule_StringToDouble(value, &d) == REDISMODULE_OK && sbfr_valid_rate(d) &&
               (sbfr_cfg.error = d, 1);
    if (sbfr_arg_is(name, "EXPANSION"))
        return RedisModule_StringToLongLong(value, &ll) == REDISMODULE_OK && ll >= 1 &&
               ll <= SBFR_MAX_EXPANSION && (sbfr_cfg.expansion = (uint32_t)ll, 1);
    if (sbfr_arg_is(name, "LAYOUT"))
        return (sbfr_cfg.layout = sbfr_layout_from_name(val, n)) >= 0;
    if (sbfr_arg_is(name, "MAX_BYTES"))
        return RedisModule_StringToLongLong(value, &ll) == REDISMODULE_OK && ll >= 64 &&
               (sbfr_cfg.max_bytes = (uint64_t)ll, 1);
    if (sbfr_arg_is(name, "NAME")) {
        sbfr_module_name = sbfr_arg_is(value, "bf") ? "bf" : "simdbloom";
        return sbfr_arg_is(value, "bf") || sbfr_arg_is(value, "simdbloom");
    }
    return -1;
}

int sbfr_parse_args(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc % 2 != 0) {
        RedisModule_Log(ctx, "warning", "simdbloom: arguments come in NAME VALUE pairs");
        return REDISMODULE_ERR;
    }
    for (int i = 0; i < argc; i += 2) {
        const int ok = parse_one(argv[i], argv[i + 1]);
        const char *name = RedisModule_StringPtrLen(argv[i], NULL);
        if (ok < 0)
            RedisModule_Log(ctx, "warning", "simdbloom: unknown argument %s", name);
        else if (ok == 0)
            RedisModule_Log(ctx, "warning", "simdbloom: bad value %s for %s",
                            RedisModule_StringPtrLen(argv[i + 1], NULL), name);
        if (ok <= 0)
            return REDISMODULE_ERR;
    }
    return REDISMODULE_OK;
}

/* ------------------------------------------------------------------ configs */

static int config_error(RedisModuleString **err, const char *msg)
{
    *err = RedisModule_CreateString(NULL, msg, strlen(msg));
    return REDISMODULE_ERR;
}

static long long get_numeric(const char *name, void *privdata)
{
    (void)privdata;
    if (strcmp(name, "initial-size") == 0)
        return (long long)sbfr_cfg.capacity;
    if (strcmp(name, "expansion") == 0)
        return sbfr_cfg.expansion;
    return (long long)sbfr_cfg.max_bytes;
}

static int set_numeric(const char *name, long long val, void *privdata, RedisModuleString **err)
{
    (void)privdata;
    (void)err; /* the server checks the range it was given */
    if (strcmp(name, "initial-size") == 0)
        sbfr_cfg.capacity = (uint64_t)val;
    else if (strcmp(name, "expansion") == 0)
        sbfr_cfg.expansion = (uint32_t)val;
    else
        sbfr_cfg.max_bytes = (uint64_t)val;
    return REDISMODULE_OK;
}

static RedisModuleString *g_error_str;

static RedisModuleString *get_error_rate(const char *name, void *privdata)
{
    (void)name;
    (void)privdata;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%.17g", sbfr_cfg.error);
    if (g_error_str != NULL)
        RedisModule_FreeString(NULL, g_error_str);
    g_error_str = RedisModule_CreateString(NULL, buf, (size_t)n);
    return g_error_str;
}

static int set_error_rate(const char *name, RedisModuleString *val, void *privdata,
                          RedisModuleString **err)
{
    (void)name;
    (void)privdata;
    double d;
    if (RedisModule_StringToDouble(val, &d) != REDISMODULE_OK || !sbfr_valid_rate(d))
        return config_error(err, "error-rate must be a number in (0, 1)");
    sbfr_cfg.error = d;
    return REDISMODULE_OK;
}

static int get_layout(const char *name, void *privdata)
{
    (void)name;
    (void)privdata;
    return sbfr_cfg.layout;
}

static int set_layout(const char *name, int val, void *privdata, RedisModuleString **err)
{
    (void)name;
    (void)privdata;
    (void)err;
    sbfr_cfg.layout = val;
    return REDISMODULE_OK;
}

/* ---------------------------------------------------------------- INFO */

/* INFO <module>_stats: the module's totals, kept as they change (O(1)). */
static void info_func(RedisModuleInfoCtx *ctx, int for_crash_report)
{
    (void)for_crash_report;
    sbfr_stats s;
    sbfr_stats_get(&s);
    RedisModule_InfoAddSection(ctx, "stats");
    RedisModule_InfoAddFieldLongLong(ctx, "keys", s.keys);
    RedisModule_InfoAddFieldLongLong(ctx, "filters", s.filters);
    RedisModule_InfoAddFieldLongLong(ctx, "items", s.items);
    RedisModule_InfoAddFieldLongLong(ctx, "filter_bytes", s.bytes);
    RedisModule_InfoAddFieldLongLong(ctx, "memory", s.memory);
    RedisModule_InfoAddFieldLongLong(ctx, "refused_loads", sbfr_refused_loads());
    RedisModule_InfoAddFieldCString(ctx, "isa", sbf_isa_name(sbf_isa_active()));
    RedisModule_InfoAddFieldCString(ctx, "default_layout", sbf_layout_name(sbfr_cfg.layout));
}

int sbfr_register_configs(RedisModuleCtx *ctx)
{
    static const char *layouts[SBFR_NLAYOUTS]; /* the library's names */
    for (int i = 0; i < SBFR_NLAYOUTS; i++)
        layouts[i] = sbf_layout_name(sbfr_layouts[i]);
    char rate[32];
    snprintf(rate, sizeof rate, "%.17g", sbfr_cfg.error);
    if (RedisModule_RegisterNumericConfig(ctx, "initial-size", (long long)sbfr_cfg.capacity,
                                          REDISMODULE_CONFIG_DEFAULT, 1,
                                          (long long)SBFR_MAX_CAPACITY, get_numeric, set_numeric,
                                          NULL, NULL) != REDISMODULE_OK ||
        RedisModule_RegisterNumericConfig(ctx, "expansion", sbfr_cfg.expansion,
                                          REDISMODULE_CONFIG_DEFAULT, 1, SBFR_MAX_EXPANSION,
                                          get_numeric, set_numeric, NULL, NULL) != REDISMODULE_OK ||
        RedisModule_RegisterNumericConfig(ctx, "max-bytes", (long long)sbfr_cfg.max_bytes,
                                          REDISMODULE_CONFIG_MEMORY, 64, INT64_MAX, get_numeric,
                                          set_numeric, NULL, NULL) != REDISMODULE_OK ||
        RedisModule_RegisterStringConfig(ctx, "error-rate", rate, REDISMODULE_CONFIG_DEFAULT,
                                         get_error_rate, set_error_rate, NULL,
                                         NULL) != REDISMODULE_OK ||
        RedisModule_RegisterEnumConfig(ctx, "layout", sbfr_cfg.layout, REDISMODULE_CONFIG_DEFAULT,
                                       layouts, sbfr_layouts, SBFR_NLAYOUTS, get_layout,
                                       set_layout, NULL,
                                       NULL) != REDISMODULE_OK ||
        RedisModule_LoadConfigs(ctx) != REDISMODULE_OK) {
        RedisModule_Log(ctx, "warning", "simdbloom: module configurations refused");
        return REDISMODULE_ERR;
    }
    return RedisModule_RegisterInfoFunc(ctx, info_func);
}

/* -------------------------------------------------------------------- ACL */

void sbfr_acl_categories(RedisModuleCtx *ctx)
{
    if (RedisModule_SetCommandACLCategories == NULL || RedisModule_GetCommand == NULL) {
        RedisModule_Log(ctx, "notice",
                        "%s: this server puts module commands in no ACL category (Redis 7.0); "
                        "give users commands by name (README: Redis module, ACL)",
                        sbfr_module_name);
        return;
    }
    const int bloom = RedisModule_AddACLCategory != NULL &&
                      RedisModule_AddACLCategory(ctx, "bloom") == REDISMODULE_OK;
    for (size_t i = 0; sbfr_command_name(i) != NULL; i++) {
        char cats[32];
        snprintf(cats, sizeof cats, "%s%s", bloom ? "bloom " : "", sbfr_command_categories(i));
        RedisModuleCommand *cmd = RedisModule_GetCommand(ctx, sbfr_command_name(i));
        if (cmd != NULL)
            RedisModule_SetCommandACLCategories(cmd, cats);
    }
}
