/*
 * The part of the Redis module ABI that sbf-redis uses, declared by us.
 *
 * Debian's redis-server ships no redismodule.h. The module API is a stable
 * ABI: a module keeps one function pointer per API function and resolves each
 * by name through RedisModule_GetApi, whose address the server stores in the
 * first word of the context it passes to RedisModule_OnLoad. The constants
 * and the type-methods layout below are those of the public API (version 4
 * of RedisModuleTypeMethods, Redis 7.0); only what this module calls is here.
 */
#ifndef SBF_REDISMODULE_MIN_H_5D1E73A9
#define SBF_REDISMODULE_MIN_H_5D1E73A9

#include <stddef.h>
#include <stdint.h>

#define REDISMODULE_OK 0
#define REDISMODULE_ERR 1
#define REDISMODULE_APIVER_1 1

#define REDISMODULE_READ (1 << 0)
#define REDISMODULE_WRITE (1 << 1)

#define REDISMODULE_KEYTYPE_EMPTY 0
#define REDISMODULE_KEYTYPE_MODULE 6

#define REDISMODULE_POSTPONED_ARRAY_LEN -1

/* RedisModule_GetContextFlags: the command came over the replication
 * link; the server is loading (an AOF replays through commands); the client
 * speaks RESP3. */
#define REDISMODULE_CTX_FLAGS_REPLICATED (1 << 12)
#define REDISMODULE_CTX_FLAGS_LOADING (1 << 13)
#define REDISMODULE_CTX_FLAGS_RESP3 (1 << 22)
/* RedisModule_SetModuleOptions: rdb_load sees short reads through
 * RedisModule_IsIOError instead of the server exiting. */
#define REDISMODULE_OPTIONS_HANDLE_IO_ERRORS (1 << 0)

#define REDISMODULE_TYPE_METHOD_VERSION 4

typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleString RedisModuleString;
typedef struct RedisModuleIO RedisModuleIO;
typedef struct RedisModuleType RedisModuleType;
typedef struct RedisModuleDigest RedisModuleDigest;
typedef struct RedisModuleInfoCtx RedisModuleInfoCtx;
typedef struct RedisModuleServerInfoData RedisModuleServerInfoData;

typedef int (*RedisModuleCmdFunc)(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
typedef void *(*RedisModuleTypeLoadFunc)(RedisModuleIO *rdb, int encver);
typedef void (*RedisModuleTypeSaveFunc)(RedisModuleIO *rdb, void *value);
typedef void (*RedisModuleTypeRewriteFunc)(RedisModuleIO *aof, RedisModuleString *key, void *value);
typedef size_t (*RedisModuleTypeMemUsageFunc)(const void *value);
typedef void (*RedisModuleTypeDigestFunc)(RedisModuleDigest *digest, void *value);
typedef void (*RedisModuleTypeFreeFunc)(void *value);
typedef void *(*RedisModuleTypeCopyFunc)(RedisModuleString *fromkey, RedisModuleString *tokey,
                                         const void *value);

/* INFO sections (RedisModule_RegisterInfoFunc). */
typedef void (*RedisModuleInfoFunc)(RedisModuleInfoCtx *ctx, int for_crash_report);

/* Module configurations (Redis 7.0): CONFIG SET/GET <module>.<name>. */
#define REDISMODULE_CONFIG_DEFAULT 0
#define REDISMODULE_CONFIG_MEMORY (1ULL << 7) /* numeric: accepts 1gb, 512mb, ... */
typedef RedisModuleString *(*RedisModuleConfigGetStringFunc)(const char *name, void *privdata);
typedef long long (*RedisModuleConfigGetNumericFunc)(const char *name, void *privdata);
typedef int (*RedisModuleConfigGetEnumFunc)(const char *name, void *privdata);
typedef int (*RedisModuleConfigSetStringFunc)(const char *name, RedisModuleString *val,
                                              void *privdata, RedisModuleString **err);
typedef int (*RedisModuleConfigSetNumericFunc)(const char *name, long long val, void *privdata,
                                               RedisModuleString **err);
typedef int (*RedisModuleConfigSetEnumFunc)(const char *name, int val, void *privdata,
                                            RedisModuleString **err);
typedef int (*RedisModuleConfigApplyFunc)(RedisModuleCtx *ctx, void *privdata,
                                          RedisModuleString **err);

/* Version 4 layout. Members we do not use are void pointers of the same
 * size as the function pointers they stand for, and stay NULL. */
typedef struct RedisModuleTypeMethods {
    uint64_t version;
    RedisModuleTypeLoadFunc rdb_load;
    RedisModuleTypeSaveFunc rdb_save;
    RedisModuleTypeRewriteFunc aof_rewrite;
    RedisModuleTypeMemUsageFunc mem_usage;
    RedisModuleTypeDigestFunc digest;
    RedisModuleTypeFreeFunc free;
    void (*aux_load)(void);
    void (*aux_save)(void);
    int aux_save_triggers;
    void (*free_effort)(void);
    void (*unlink)(void);
    RedisModuleTypeCopyFunc copy;
    void (*defrag)(void);
    void (*mem_usage2)(void);
    void (*free_effort2)(void);
    void (*unlink2)(void);
    void (*copy2)(void);
} RedisModuleTypeMethods;

/* Key specs (Redis 7.0, RedisModule_SetCommandInfo): where a command's
 * keys are and what it does to them; ACL key permissions (%R~, %W~) and
 * Cluster read them. Version 1 of the command-info structures. */
typedef struct RedisModuleCommand RedisModuleCommand;

#define REDISMODULE_CMD_KEY_RO (1ULL << 0)
#define REDISMODULE_CMD_KEY_RW (1ULL << 1)
#define REDISMODULE_CMD_KEY_ACCESS (1ULL << 4)
#define REDISMODULE_CMD_KEY_UPDATE (1ULL << 5)
#define REDISMODULE_CMD_KEY_INSERT (1ULL << 6)
#define REDISMODULE_CMD_KEY_DELETE (1ULL << 7)

#define REDISMODULE_KSPEC_BS_INDEX 2 /* enum: INVALID 0, UNKNOWN 1, INDEX 2 */
#define REDISMODULE_KSPEC_FK_RANGE 2 /* enum: OMITTED 0, UNKNOWN 1, RANGE 2 */

typedef struct RedisModuleCommandKeySpec {
    const char *notes;
    uint64_t flags;
    int begin_search_type;
    union {
        struct { int pos; } index;
        struct { const char *keyword; int startfrom; } keyword;
    } bs;
    int find_keys_type;
    union {
        struct { int lastkey; int keystep; int limit; } range;
        struct { int keynumidx; int firstkey; int keystep; } keynum;
    } fk;
} RedisModuleCommandKeySpec;

typedef struct RedisModuleCommandInfoVersion {
    int version; /* 1 */
    size_t sizeof_historyentry;
    size_t sizeof_keyspec;
    size_t sizeof_arg;
} RedisModuleCommandInfoVersion;

typedef struct RedisModuleCommandInfo {
    const RedisModuleCommandInfoVersion *version;
    const char *summary;
    const char *complexity;
    const char *since;
    void *history; /* we give none */
    const char *tips;
    int arity;     /* 0: the command checks its own arity */
    RedisModuleCommandKeySpec *key_specs; /* ends with a zeroed entry */
    void *args;    /* we give none */
} RedisModuleCommandInfo;

/* Functions a server may lack: resolved if present, else NULL. ACL
 * categories of module commands need Redis 7.2 (existing categories) and
 * 7.4 (a category of the module's own). */
#define SBFR_API_OPTIONAL(X) \
    X(RedisModuleCommand *, GetCommand, (RedisModuleCtx *ctx, const char *name)) \
    X(int, SetCommandInfo, (RedisModuleCommand *command, const RedisModuleCommandInfo *info)) \
    X(int, SetCommandACLCategories, (RedisModuleCommand *command, const char *categories)) \
    X(int, AddACLCategory, (RedisModuleCtx *ctx, const char *name))

/*
 * X-macro list of every API function we use: return type, name, arguments.
 * SBFR_API_DECLARE makes the pointers (defined once in the module, static),
 * SBFR_API_RESOLVE looks each up.
 */
#define SBFR_API_LIST(X) \
    X(void *, Alloc, (size_t bytes)) \
    X(void *, TryAlloc, (size_t bytes)) \
    X(void *, Calloc, (size_t nmemb, size_t size)) \
    X(void *, Realloc, (void *ptr, size_t bytes)) \
    X(void, Free, (void *ptr)) \
    X(int, CreateCommand, (RedisModuleCtx *ctx, const char *name, RedisModuleCmdFunc cmdfunc, \
                           const char *strflags, int firstkey, int lastkey, int keystep)) \
    X(void, SetModuleAttribs, (RedisModuleCtx *ctx, const char *name, int ver, int apiver)) \
    X(int, IsModuleNameBusy, (const char *name)) \
    X(void, SetModuleOptions, (RedisModuleCtx *ctx, int options)) \
    X(int, WrongArity, (RedisModuleCtx *ctx)) \
    X(int, GetContextFlags, (RedisModuleCtx *ctx)) \
    X(RedisModuleServerInfoData *, GetServerInfo, (RedisModuleCtx *ctx, const char *section)) \
    X(void, FreeServerInfo, (RedisModuleCtx *ctx, RedisModuleServerInfoData *data)) \
    X(unsigned long long, ServerInfoGetFieldUnsigned, (RedisModuleServerInfoData *data, \
                                                       const char *field, int *out_err)) \
    X(const char *, ServerInfoGetFieldC, (RedisModuleServerInfoData *data, const char *field)) \
    X(int, ReplyWithLongLong, (RedisModuleCtx *ctx, long long ll)) \
    X(int, ReplyWithError, (RedisModuleCtx *ctx, const char *err)) \
    X(int, ReplyWithSimpleString, (RedisModuleCtx *ctx, const char *msg)) \
    X(int, ReplyWithArray, (RedisModuleCtx *ctx, long len)) \
    X(void, ReplySetArrayLength, (RedisModuleCtx *ctx, long len)) \
    X(int, ReplyWithMap, (RedisModuleCtx *ctx, long len)) \
    X(int, ReplyWithStringBuffer, (RedisModuleCtx *ctx, const char *buf, size_t len)) \
    X(int, ReplyWithNull, (RedisModuleCtx *ctx)) \
    X(int, ReplyWithBool, (RedisModuleCtx *ctx, int b)) \
    X(int, ReplyWithDouble, (RedisModuleCtx *ctx, double d)) \
    X(const char *, StringPtrLen, (const RedisModuleString *str, size_t *len)) \
    X(int, StringToLongLong, (const RedisModuleString *str, long long *ll)) \
    X(int, StringToDouble, (const RedisModuleString *str, double *d)) \
    X(void *, OpenKey, (RedisModuleCtx *ctx, RedisModuleString *keyname, int mode)) \
    X(void, CloseKey, (RedisModuleKey *kp)) \
    X(int, KeyType, (RedisModuleKey *kp)) \
    X(RedisModuleType *, CreateDataType, (RedisModuleCtx *ctx, const char *name, int encver, \
                                          void *typemethods)) \
    X(int, ModuleTypeSetValue, (RedisModuleKey *key, RedisModuleType *mt, void *value)) \
    X(RedisModuleType *, ModuleTypeGetType, (RedisModuleKey *key)) \
    X(void *, ModuleTypeGetValue, (RedisModuleKey *key)) \
    X(int, ReplicateVerbatim, (RedisModuleCtx *ctx)) \
    X(int, Replicate, (RedisModuleCtx *ctx, const char *cmdname, const char *fmt, ...)) \
    X(long long, Milliseconds, (void)) \
    X(RedisModuleString *, CreateString, (RedisModuleCtx *ctx, const char *ptr, size_t len)) \
    X(void, FreeString, (RedisModuleCtx *ctx, RedisModuleString *str)) \
    X(int, RegisterNumericConfig, (RedisModuleCtx *ctx, const char *name, long long def, \
                                   unsigned int flags, long long min, long long max, \
                                   RedisModuleConfigGetNumericFunc getfn, \
                                   RedisModuleConfigSetNumericFunc setfn, \
                                   RedisModuleConfigApplyFunc applyfn, void *privdata)) \
    X(int, RegisterStringConfig, (RedisModuleCtx *ctx, const char *name, const char *def, \
                                  unsigned int flags, RedisModuleConfigGetStringFunc getfn, \
                                  RedisModuleConfigSetStringFunc setfn, \
                                  RedisModuleConfigApplyFunc applyfn, void *privdata)) \
    X(int, RegisterEnumConfig, (RedisModuleCtx *ctx, const char *name, int def, \
                                unsigned int flags, const char **names, const int *values, \
                                int n, RedisModuleConfigGetEnumFunc getfn, \
                                RedisModuleConfigSetEnumFunc setfn, \
                                RedisModuleConfigApplyFunc applyfn, void *privdata)) \
    X(int, LoadConfigs, (RedisModuleCtx *ctx)) \
    X(int, RegisterInfoFunc, (RedisModuleCtx *ctx, RedisModuleInfoFunc cb)) \
    X(int, InfoAddSection, (RedisModuleInfoCtx *ctx, const char *name)) \
    X(int, InfoAddFieldLongLong, (RedisModuleInfoCtx *ctx, const char *field, long long value)) \
    X(int, InfoAddFieldDouble, (RedisModuleInfoCtx *ctx, const char *field, double value)) \
    X(int, InfoAddFieldCString, (RedisModuleInfoCtx *ctx, const char *field, const char *value)) \
    X(void, SaveUnsigned, (RedisModuleIO *io, uint64_t value)) \
    X(uint64_t, LoadUnsigned, (RedisModuleIO *io)) \
    X(void, SaveDouble, (RedisModuleIO *io, double value)) \
    X(double, LoadDouble, (RedisModuleIO *io)) \
    X(void, SaveStringBuffer, (RedisModuleIO *io, const char *str, size_t len)) \
    X(char *, LoadStringBuffer, (RedisModuleIO *io, size_t *lenptr)) \
    X(int, IsIOError, (RedisModuleIO *io)) \
    X(void, EmitAOF, (RedisModuleIO *io, const char *cmdname, const char *fmt, ...)) \
    X(void, DigestAddStringBuffer, (RedisModuleDigest *md, const char *ele, size_t len)) \
    X(void, DigestAddLongLong, (RedisModuleDigest *md, long long ll)) \
    X(void, DigestEndSequence, (RedisModuleDigest *md)) \
    X(void, Log, (RedisModuleCtx *ctx, const char *level, const char *fmt, ...)) \
    X(void, LogIOError, (RedisModuleIO *io, const char *levelstr, const char *fmt, ...))

#endif /* SBF_REDISMODULE_MIN_H_5D1E73A9 */
