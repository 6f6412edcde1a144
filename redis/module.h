/*
 * What the Redis-facing files of sbf-redis share: the module API pointers
 * (defined in module.c, resolved at load), the data type, key helpers,
 * reply texts, and each file's entry points.
 *
 *   chain.c     the scalable chain (no Redis; unit-tested without a server)
 *   dump.c      the SCANDUMP / LOADCHUNK form of a chain (no Redis)
 *   module.c    loading: API, arguments, command table, key helpers
 *   config.c    CONFIG SET/GET parameters, the INFO section, ACL categories
 *   cmd_bf.c    BF.RESERVE, ADD, MADD, INSERT, EXISTS, MEXISTS, CARD, INFO
 *   cmd_dump.c  BF.SCANDUMP, BF.LOADCHUNK, BF.DEBUG
 *   cmd_sbf.c   SBF.* (layouts, counting deletes, Guava, the filter's numbers)
 *   type.c      the data type: RDB, AOF rewrite, digest, copy, memory
 */
#ifndef SBFR_MODULE_H_6B2D90E4
#define SBFR_MODULE_H_6B2D90E4

#include "chain.h"
#include "dump.h"
#include "redismodule_min.h"

#define SBFR_API_EXTERN(ret, name, args) extern ret(*RedisModule_##name) args;
SBFR_API_LIST(SBFR_API_EXTERN)
SBFR_API_OPTIONAL(SBFR_API_EXTERN)
#undef SBFR_API_EXTERN

#define SBFR_TYPE_NAME "simdbloom" /* 9 characters; RedisBloom's is MBbloom-- */
#define SBFR_ENCVER 3

extern RedisModuleType *sbfr_type;
/* The module's name: "simdbloom", or "bf" (module argument NAME bf). */
extern const char *sbfr_module_name;

#define SBFR_ERR_WRONGTYPE "WRONGTYPE Operation against a key holding the wrong kind of value"
#define SBFR_ERR_NOT_FOUND "ERR not found"
#define SBFR_ERR_FULL "ERR non scaling filter is full"
#define SBFR_ERR_NOMEM "ERR Insufficient memory to create filter"

/* ------------------------------------------------ key helpers (module.c) */

enum { SBFR_KEY_OK, SBFR_KEY_EMPTY, SBFR_KEY_WRONGTYPE };

int sbfr_open_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode, RedisModuleKey **key,
                    sbfr_chain **out);
/* The error for a key status (an existing key: "item exists"). */
int sbfr_reply_status(RedisModuleCtx *ctx, int st);
/* The key's chain; otherwise the error is replied and NULL returned. */
sbfr_chain *sbfr_ready_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode);
/* Opens a key that must not exist yet, for a command that creates it;
 * otherwise the error is replied and NULL returned. */
RedisModuleKey *sbfr_open_empty(RedisModuleCtx *ctx, RedisModuleString *name);
int sbfr_arg_is(RedisModuleString *a, const char *word);
int sbfr_is_resp3(RedisModuleCtx *ctx);
/* The memory cap of a command's allocations: MAX_BYTES for a client's,
 * none for one the primary replicated or an AOF replays (it was accepted
 * once; refusing it now would lose or fork the data). */
uint64_t sbfr_cap(RedisModuleCtx *ctx);
/* The reply for a chain that could not be made (rc an SBF code). */
int sbfr_reply_create_error(RedisModuleCtx *ctx, int rc, const char *why);
/* Replicates a new chain's creation with every parameter (SBF.RESERVE), so
 * that a replica makes it the same whatever its own module arguments. */
void sbfr_replicate_create(RedisModuleCtx *ctx, RedisModuleString *key, const sbfr_chain *c);

/* ---------------------------------------------------------------- commands */

int sbfr_reserve_common(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int own);

int sbfr_cmd_bf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_bf_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_sbf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_sbf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_sbf_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_sbf_exportguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
int sbfr_cmd_sbf_importguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);

/* BF.INFO's fields, which SBF.INFO repeats. */
enum { SBFR_F_CAPACITY, SBFR_F_SIZE, SBFR_F_FILTERS, SBFR_F_ITEMS, SBFR_F_EXPANSION,
       SBFR_F_COUNT };
extern const char *const sbfr_info_names[SBFR_F_COUNT];
void sbfr_reply_info_value(RedisModuleCtx *ctx, const sbfr_chain *c, int field);

/* ----------------------------------------------- the data type (type.c) */

void sbfr_type_methods(RedisModuleTypeMethods *tm);
/* Stored values refused so far (RESTORE, MIGRATE, loading). */
long long sbfr_refused_loads(void);

/* ------------------------------------------------------------ config.c */

/* Module arguments: NAME VALUE pairs into sbfr_cfg (and the module name). */
int sbfr_parse_args(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);
/* CONFIG SET/GET parameters, the INFO section; REDISMODULE_ERR on failure. */
int sbfr_register_configs(RedisModuleCtx *ctx);
/* ACL categories where the server has them; says in the log where not. */
void sbfr_acl_categories(RedisModuleCtx *ctx);
/* The i-th command of the table (module.c), NULL past the end, and its ACL
 * categories ("read fast", "read", "write"). */
const char *sbfr_command_name(size_t i);
const char *sbfr_command_categories(size_t i);

#endif /* SBFR_MODULE_H_6B2D90E4 */
