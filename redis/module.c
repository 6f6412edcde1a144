/*
 * sbf-redis: simdbloom as a Redis module. This file loads it: the module
 * API, the module arguments, the command table and the key helpers every
 * command uses (module.h lists the other files).
 *
 * BF.* commands answer as RedisBloom 2.6 does (arguments, replies, error
 * texts); SBF.* commands reach what RedisBloom has not (layouts, counting
 * filters with deletion, Guava files, the filter's own numbers).
 *
 * Only the public simdbloom header is used; only redis/ sees Redis.
 */
#define _GNU_SOURCE 1 /* madvise */
#include "module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ the module API */

#define SBFR_API_DECLARE(ret, name, args) ret(*RedisModule_##name) args;
SBFR_API_LIST(SBFR_API_DECLARE)
SBFR_API_OPTIONAL(SBFR_API_DECLARE)

static int (*RedisModule_GetApi)(const char *name, void *fnptr);

/* RedisModule_Init, as the ABI defines it: the server puts GetApi's address
 * in the first word of the context; every other function is looked up by
 * its name. A function the server does not have fails the load. The name
 * is given later (SetModuleAttribs), once the arguments are read. */
static int sbfr_api_init(RedisModuleCtx *ctx)
{
    void *getapi = ((void **)ctx)[0];
    memcpy(&RedisModule_GetApi, &getapi, sizeof getapi);
#define SBFR_API_RESOLVE(ret, fn, args) \
    if (RedisModule_GetApi("RedisModule_" #fn, (void *)&RedisModule_##fn) != REDISMODULE_OK) \
        return REDISMODULE_ERR;
    SBFR_API_LIST(SBFR_API_RESOLVE)
#undef SBFR_API_RESOLVE
#define SBFR_API_TRY(ret, fn, args) \
    if (RedisModule_GetApi("RedisModule_" #fn, (void *)&RedisModule_##fn) != REDISMODULE_OK) \
        RedisModule_##fn = NULL;
    SBFR_API_OPTIONAL(SBFR_API_TRY)
#undef SBFR_API_TRY
    return REDISMODULE_OK;
}

RedisModuleType *sbfr_type;
const char *sbfr_module_name = "simdbloom";

/* The chain's structures live in Redis's memory. */
void *sbfr_alloc(size_t n)
{
    return RedisModule_Alloc(n);
}

void *sbfr_calloc(size_t n, size_t size)
{
    return RedisModule_Calloc(n, size);
}

void *sbfr_realloc(void *p, size_t n)
{
    return RedisModule_Realloc(p, n);
}

void sbfr_free(void *p)
{
    RedisModule_Free(p);
}

/* The filters' memory is Redis's too, so that used_memory, maxmemory
 * (OOM errors, eviction), MEMORY USAGE and INFO see it. TryAlloc: a filter
 * too large for the machine is an error, not the end of the server. */
static void *filter_alloc(void *opaque, size_t size)
{
    (void)opaque;
    return RedisModule_TryAlloc(size);
}

static void filter_free(void *opaque, void *ptr)
{
    (void)opaque;
    RedisModule_Free(ptr);
}

static const sbf_allocator redis_allocator = {filter_alloc, filter_free, NULL};

/* A new sub-filter's memory, reading as zero (the library is told so with
 * SBF_ZEROED and does not clear it). From 1 MiB the whole pages inside are
 * given back to the kernel with MADV_DONTNEED, which makes them read as zero
 * and zeroes each when first touched, so BF.RESERVE of 1 GB costs no pass
 * over 1 GB while the server waits. Redis's allocator (jemalloc) takes its
 * memory from private anonymous mappings, where this holds; should the
 * advice be refused the memory is cleared. Only the edges are written. */
#define LAZY_ZERO_MIN (UINT64_C(1) << 20)
static void *filter_alloc_zeroed(void *opaque, size_t size)
{
    (void)opaque;
    unsigned char *p = RedisModule_TryAlloc(size);
    if (p == NULL)
        return NULL;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t b = (uintptr_t)p, e = b + size;
    const uintptr_t lo = (b + page - 1) & ~(page - 1), hi = e & ~(page - 1);
    if (size < LAZY_ZERO_MIN || hi <= lo ||
        madvise((void *)lo, hi - lo, MADV_DONTNEED) != 0) {
        memset(p, 0, size);
        return p;
    }
    memset(p, 0, lo - b);
    memset((void *)hi, 0, e - hi);
    return p;
}

static const sbf_allocator redis_allocator_zeroed = {filter_alloc_zeroed, filter_free, NULL};

/* Whether `bytes` more fit under maxmemory (chain.h's room): with the
 * noeviction policy used memory plus the new filter must stay within it
 * (else one BF.RESERVE could overshoot it by the whole filter, and every
 * later write be refused); under an evicting policy Redis makes room by
 * evicting, as valkey-bloom's tests expect. Below 1 MiB Redis's own check
 * before each write command is close enough and nothing is asked. */
#define ROOM_CHECK_MIN (UINT64_C(1) << 20)
static int module_room(uint64_t bytes)
{
    if (bytes < ROOM_CHECK_MIN)
        return 1;
    RedisModuleServerInfoData *inf = RedisModule_GetServerInfo(NULL, "memory");
    if (inf == NULL)
        return 1;
    int e1 = 0, e2 = 0;
    const unsigned long long maxm = RedisModule_ServerInfoGetFieldUnsigned(inf, "maxmemory", &e1);
    const unsigned long long used = RedisModule_ServerInfoGetFieldUnsigned(inf, "used_memory", &e2);
    const char *pol = RedisModule_ServerInfoGetFieldC(inf, "maxmemory_policy");
    const int noevict = pol != NULL && strcmp(pol, "noeviction") == 0;
    int ok = 1;
    if (e1 == 0 && e2 == 0 && maxm != 0 && noevict)
        ok = bytes <= maxm && used <= maxm - bytes;
    RedisModule_FreeServerInfo(NULL, inf);
    return ok;
}

/* ------------------------------------------------------------ key helpers */

/* ---------------------------------------------------------------- helpers */

int sbfr_open_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode, RedisModuleKey **key,
                    sbfr_chain **out)
{
    *out = NULL;
    *key = RedisModule_OpenKey(ctx, name, mode);
    int t = RedisModule_KeyType(*key);
    if (t == REDISMODULE_KEYTYPE_EMPTY)
        return SBFR_KEY_EMPTY;
    if (t != REDISMODULE_KEYTYPE_MODULE || RedisModule_ModuleTypeGetType(*key) != sbfr_type)
        return SBFR_KEY_WRONGTYPE;
    *out = RedisModule_ModuleTypeGetValue(*key);
    return SBFR_KEY_OK;
}

int sbfr_reply_status(RedisModuleCtx *ctx, int st)
{
    return RedisModule_ReplyWithError(ctx, st == SBFR_KEY_WRONGTYPE ? SBFR_ERR_WRONGTYPE
                                           : st == SBFR_KEY_EMPTY   ? SBFR_ERR_NOT_FOUND
                                                                    : SBFR_ERR_EXISTS);
}

sbfr_chain *sbfr_ready_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode)
{
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, name, mode, &key, &c);
    RedisModule_CloseKey(key);
    if (st != SBFR_KEY_OK) {
        sbfr_reply_status(ctx, st);
        return NULL;
    }
    return c;
}

RedisModuleKey *sbfr_open_empty(RedisModuleCtx *ctx, RedisModuleString *name)
{
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = sbfr_open_chain(ctx, name, REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    if (st == SBFR_KEY_EMPTY)
        return key;
    RedisModule_CloseKey(key);
    sbfr_reply_status(ctx, st == SBFR_KEY_OK ? -1 : st);
    return NULL;
}

int sbfr_arg_is(RedisModuleString *a, const char *word)
{
    size_t n;
    const char *s = RedisModule_StringPtrLen(a, &n);
    return n == strlen(word) && strncasecmp(s, word, n) == 0;
}

int sbfr_is_resp3(RedisModuleCtx *ctx)
{
    return (RedisModule_GetContextFlags(ctx) & REDISMODULE_CTX_FLAGS_RESP3) != 0;
}

uint64_t sbfr_cap(RedisModuleCtx *ctx)
{
    const int trusted = REDISMODULE_CTX_FLAGS_REPLICATED | REDISMODULE_CTX_FLAGS_LOADING;
    return (RedisModule_GetContextFlags(ctx) & trusted) ? SBFR_NO_CAP : sbfr_cfg.max_bytes;
}

int sbfr_reply_create_error(RedisModuleCtx *ctx, int rc, const char *why)
{
    if (rc == SBF_E_NOMEM)
        return RedisModule_ReplyWithError(ctx, SBFR_ERR_NOMEM);
    char msg[160];
    snprintf(msg, sizeof msg, "ERR could not create filter: %s", why);
    return RedisModule_ReplyWithError(ctx, msg);
}

void sbfr_replicate_create(RedisModuleCtx *ctx, RedisModuleString *key, const sbfr_chain *c)
{
    char rate[32], cap[24], exp[16];
    snprintf(rate, sizeof rate, "%.17g", c->error);
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)sbfr_chain_link(c, 0).capacity);
    snprintf(exp, sizeof exp, "%u", c->expansion);
    const char *layout = sbf_layout_name(c->layout);
    if (c->expansion == 0)
        RedisModule_Replicate(ctx, "SBF.RESERVE", "sccccc", key, rate, cap, "LAYOUT", layout,
                              "NONSCALING");
    else
        RedisModule_Replicate(ctx, "SBF.RESERVE", "scccccc", key, rate, cap, "LAYOUT", layout,
                              "EXPANSION", exp);
}

/* ---------------------------------------------------------------- loading */

#define KEY_READ (REDISMODULE_CMD_KEY_RO | REDISMODULE_CMD_KEY_ACCESS)
#define KEY_ADD (REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_INSERT)
#define KEY_LOAD (REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_UPDATE)
#define KEY_DEL (REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_DELETE)

typedef struct command_def {
    const char *name;
    RedisModuleCmdFunc fn;
    const char *flags;
    uint64_t key_flags; /* the key spec of argument 1 */
} command_def;

/* ACL categories (config.c): @read or @write (and @fast) by the flags'
 * first word, from Redis 7.2; @bloom too from 7.4. Redis 7.0 puts module
 * commands in no category. */
static const command_def commands[] = {
    {"bf.reserve", sbfr_cmd_bf_reserve, "write deny-oom", KEY_ADD},
    {"bf.add", sbfr_cmd_bf_add, "write deny-oom", KEY_ADD},
    {"bf.madd", sbfr_cmd_bf_madd, "write deny-oom", KEY_ADD},
    {"bf.insert", sbfr_cmd_bf_insert, "write deny-oom", KEY_ADD},
    {"bf.exists", sbfr_cmd_bf_exists, "readonly fast", KEY_READ},
    {"bf.mexists", sbfr_cmd_bf_mexists, "readonly fast", KEY_READ},
    {"bf.info", sbfr_cmd_bf_info, "readonly fast", KEY_READ},
    {"bf.card", sbfr_cmd_bf_card, "readonly fast", KEY_READ},
    {"bf.debug", sbfr_cmd_bf_debug, "readonly", KEY_READ},
    {"bf.scandump", sbfr_cmd_bf_scandump, "readonly", KEY_READ},
    {"bf.loadchunk", sbfr_cmd_bf_loadchunk, "write deny-oom", KEY_LOAD},
    {"sbf.reserve", sbfr_cmd_sbf_reserve, "write deny-oom", KEY_ADD},
    {"sbf.info", sbfr_cmd_sbf_info, "readonly", KEY_READ},
    {"sbf.del", sbfr_cmd_sbf_del, "write", KEY_DEL},
    {"sbf.exportguava", sbfr_cmd_sbf_exportguava, "readonly", KEY_READ},
    {"sbf.importguava", sbfr_cmd_sbf_importguava, "write deny-oom", KEY_ADD},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const char *sbfr_command_name(size_t i)
{
    return i < NCOMMANDS ? commands[i].name : NULL;
}

const char *sbfr_command_categories(size_t i)
{
    const char *f = commands[i].flags;
    return strncmp(f, "readonly fast", 13) == 0 ? "read fast"
           : strncmp(f, "readonly", 8) == 0     ? "read"
                                                : "write";
}
/* Declares the key spec of one command where the server has the API
 * (Redis 7.0): without it Redis derives one from first/last/step that says
 * read-write for every command, which a read-only ACL user (%R~) fails. */
static int set_key_spec(RedisModuleCtx *ctx, const command_def *d)
{
    if (RedisModule_GetCommand == NULL || RedisModule_SetCommandInfo == NULL)
        return REDISMODULE_OK;
    static const RedisModuleCommandInfoVersion version = {1, 2 * sizeof(char *),
                                                          sizeof(RedisModuleCommandKeySpec), 0};
    RedisModuleCommandKeySpec specs[2];
    memset(specs, 0, sizeof specs);
    specs[0].flags = d->key_flags;
    specs[0].begin_search_type = REDISMODULE_KSPEC_BS_INDEX;
    specs[0].bs.index.pos = 1;
    specs[0].find_keys_type = REDISMODULE_KSPEC_FK_RANGE;
    specs[0].fk.range.lastkey = 0;
    specs[0].fk.range.keystep = 1;
    specs[0].fk.range.limit = 0;
    RedisModuleCommandInfo info;
    memset(&info, 0, sizeof info);
    info.version = &version;
    info.key_specs = specs;
    RedisModuleCommand *cmd = RedisModule_GetCommand(ctx, d->name);
    return cmd != NULL ? RedisModule_SetCommandInfo(cmd, &info) : REDISMODULE_ERR;
}

__attribute__((visibility("default"))) int RedisModule_OnLoad(RedisModuleCtx *ctx,
                                                              RedisModuleString **argv, int argc);

int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (sbfr_api_init(ctx) != REDISMODULE_OK || sbfr_parse_args(ctx, argv, argc) != REDISMODULE_OK)
        return REDISMODULE_ERR;
    if (RedisModule_IsModuleNameBusy(sbfr_module_name))
        return REDISMODULE_ERR;
    /* As "bf", the version of the RedisBloom whose BF.* commands we answer
     * (2.6.28): tools that look for RedisBloom check both. */
    const int bf = strcmp(sbfr_module_name, "bf") == 0;
    RedisModule_SetModuleAttribs(ctx, sbfr_module_name, bf ? 20628 : SBF_VERSION_NUMBER,
                                 REDISMODULE_APIVER_1);
    int isa = sbf_isa_active();
    if (isa < 0) {
        RedisModule_Log(ctx, "warning", "simdbloom: SBF_ISA: %s", sbf_strerror(isa));
        return REDISMODULE_ERR;
    }
    RedisModule_SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
    sbfr_cfg.alloc = &redis_allocator;
    sbfr_cfg.alloc_zeroed = &redis_allocator_zeroed;
    sbfr_cfg.room = module_room;
    RedisModuleTypeMethods tm;
    sbfr_type_methods(&tm);
    sbfr_type = RedisModule_CreateDataType(ctx, SBFR_TYPE_NAME, SBFR_ENCVER, &tm);
    if (sbfr_type == NULL)
        return REDISMODULE_ERR;
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (RedisModule_CreateCommand(ctx, commands[i].name, commands[i].fn, commands[i].flags,
                                      1, 1, 1) != REDISMODULE_OK ||
            set_key_spec(ctx, &commands[i]) != REDISMODULE_OK)
            return REDISMODULE_ERR;
    sbfr_acl_categories(ctx);
    if (sbfr_register_configs(ctx) != REDISMODULE_OK)
        return REDISMODULE_ERR;
    RedisModule_Log(ctx, "notice", "%s %s: %s kernels, default layout %s", sbfr_module_name,
                    sbf_version_string(), sbf_isa_name(isa), sbf_layout_name(sbfr_cfg.layout));
    return REDISMODULE_OK;
}
