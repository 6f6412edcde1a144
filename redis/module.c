/*
 * sbf-redis: simdbloom as a Redis module.
 *
 * BF.* commands answer as RedisBloom 2.6 does (arguments, replies, error
 * texts); SBF.* commands reach what RedisBloom has not (layouts, counting
 * filters with deletion, Guava files, the filter's own numbers). A key holds
 * a chain of simdbloom filters ("sub-filters"): when the newest is full, a
 * new one `expansion` times larger is added with half the error rate of the
 * one before, and the first gets half the asked rate, so the chain's
 * false-positive rate stays below the asked rate however far it grows
 * (rate/2 + rate/4 + ... < rate). A NONSCALING key has one sub-filter with
 * the whole rate.
 *
 * Only the public simdbloom header is used; only redis/ sees Redis.
 */
#include "redismodule_min.h"
#include "simdbloom.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ the module API */

#define SBFR_API_DECLARE(ret, name, args) static ret(*RedisModule_##name) args;
SBFR_API_LIST(SBFR_API_DECLARE)
SBFR_API_OPTIONAL(SBFR_API_DECLARE)

static int (*RedisModule_GetApi)(const char *name, void *fnptr);

/* RedisModule_Init, as the ABI defines it: the server puts GetApi's address
 * in the first word of the context; every other function is looked up by
 * its name. A function the server does not have fails the load. */
static int sbfr_api_init(RedisModuleCtx *ctx, const char *name, int ver)
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
    if (RedisModule_IsModuleNameBusy(name))
        return REDISMODULE_ERR;
    RedisModule_SetModuleAttribs(ctx, name, ver, REDISMODULE_APIVER_1);
    return REDISMODULE_OK;
}

/* ------------------------------------------------------------- the data type */

#define SBFR_TYPE_NAME "simdbloom" /* 9 characters; RedisBloom's is MBbloom-- */
#define SBFR_ENCVER 1
#define SBFR_MAX_LINKS 256
#define SBFR_MAX_CAPACITY (UINT64_C(1) << 30)     /* per command, as RedisBloom 8 */
#define SBFR_MAX_LINK_CAPACITY (UINT64_C(1) << 40) /* a grown sub-filter */
#define SBFR_MAX_EXPANSION 32768
#define SBFR_CHUNK (16u << 20)                     /* SCANDUMP chunk, as RedisBloom */
#define SBFR_TIGHTENING 0.5

typedef struct sbfr_link {
    sbf_filter *f;     /* NULL while the chain is loading */
    uint64_t capacity; /* items before the next sub-filter is started */
    double error;      /* the rate this sub-filter was sized for */
    uint64_t items;    /* items counted into it */
    uint64_t nbytes;   /* loading only: its sbf_serialize length */
} sbfr_link;

typedef struct sbfr_chain {
    sbfr_link *links;
    uint32_t nlinks;
    int layout;
    uint32_t expansion; /* 0: NONSCALING */
    double error;       /* the rate asked for the whole chain */
    uint64_t items;
    /* BF.LOADCHUNK in progress: the serialized sub-filters so far. */
    int loading;
    unsigned char *stage;
    size_t stage_len, stage_total;
} sbfr_chain;

static RedisModuleType *sbfr_type;

/* Module arguments (RedisBloom's INITIAL_SIZE and ERROR_RATE, and ours). */
static uint64_t g_capacity = 100;
static double g_error = 0.01;
static uint32_t g_expansion = 2;
static int g_layout = SBF_BLOCKED;
static uint64_t g_max_bytes = UINT64_C(1) << 30; /* per sub-filter */

static const char ERR_WRONGTYPE[] =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
static const char ERR_NOT_FOUND[] = "ERR not found";
static const char ERR_EXISTS[] = "ERR item exists";
static const char ERR_FULL[] = "ERR non scaling filter is full";
static const char ERR_LOADING[] = "ERR filter is incomplete: BF.LOADCHUNK in progress";
static const char ERR_BAD_DATA[] = "ERR received bad data";

static const char *const layout_names[] = {"classic", "blocked", "split-block", "counting"};

static int layout_from_name(const char *s, size_t n)
{
    for (int i = 0; i < 4; i++)
        if (strlen(layout_names[i]) == n && strncasecmp(s, layout_names[i], n) == 0)
            return i;
    if (n == 5 && strncasecmp(s, "split", 5) == 0)
        return SBF_SPLIT_BLOCK;
    return -1;
}

static void chain_free(sbfr_chain *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; i < c->nlinks; i++)
        sbf_free(c->links[i].f);
    RedisModule_Free(c->links);
    RedisModule_Free(c->stage);
    RedisModule_Free(c);
}

static sbfr_chain *chain_alloc(uint32_t nlinks)
{
    sbfr_chain *c = RedisModule_Calloc(1, sizeof *c);
    c->links = RedisModule_Calloc(nlinks ? nlinks : 1, sizeof *c->links);
    return c;
}

/* Sizes and creates one sub-filter, refusing sizes above MAX_BYTES before
 * anything is allocated. Returns an SBF code; *why names a refusal. */
static int link_create(sbf_filter **out, int layout, uint64_t capacity, double error,
                       const char **why)
{
    uint64_t bits = 0;
    uint32_t k = 0;
    *out = NULL;
    int rc = sbf_size(layout, capacity, error, &bits, &k);
    if (rc != SBF_OK) {
        *why = sbf_strerror(rc);
        return rc;
    }
    if (bits / 8 > g_max_bytes) {
        *why = "the filter would exceed the module's MAX_BYTES";
        return SBF_E_TOO_LARGE;
    }
    sbf_params p = {0};
    p.layout = layout;
    p.expected_n = capacity;
    p.fpp = error;
    rc = sbf_create(out, &p);
    if (rc != SBF_OK)
        *why = sbf_strerror(rc);
    return rc;
}

/* The first sub-filter's rate: the whole rate when the chain cannot grow,
 * half of it when later ones may add theirs. */
static double first_error(double error, uint32_t expansion)
{
    return expansion == 0 ? error : error * SBFR_TIGHTENING;
}

static int chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                     uint32_t expansion, const char **why)
{
    if (layout == SBF_COUNTING)
        expansion = 0; /* see README: deletion needs to know the sub-filter */
    sbf_filter *f;
    int rc = link_create(&f, layout, capacity, first_error(error, expansion), why);
    if (rc != SBF_OK)
        return rc;
    sbfr_chain *c = chain_alloc(1);
    c->nlinks = 1;
    c->links[0].f = f;
    c->links[0].capacity = capacity;
    c->links[0].error = first_error(error, expansion);
    c->layout = layout;
    c->expansion = expansion;
    c->error = error;
    *out = c;
    return SBF_OK;
}

static int chain_grow(sbfr_chain *c, const char **why)
{
    const sbfr_link *last = &c->links[c->nlinks - 1];
    if (c->nlinks >= SBFR_MAX_LINKS ||
        last->capacity > SBFR_MAX_LINK_CAPACITY / c->expansion) {
        *why = "the filter has reached its largest size";
        return SBF_E_TOO_LARGE;
    }
    const uint64_t cap = last->capacity * c->expansion;
    const double err = last->error * SBFR_TIGHTENING;
    sbf_filter *f;
    int rc = link_create(&f, c->layout, cap, err, why);
    if (rc != SBF_OK)
        return rc;
    c->links = RedisModule_Realloc(c->links, (c->nlinks + 1) * sizeof *c->links);
    sbfr_link *l = &c->links[c->nlinks++];
    memset(l, 0, sizeof *l);
    l->f = f;
    l->capacity = cap;
    l->error = err;
    return SBF_OK;
}

#define ADD_NEW 1
#define ADD_PRESENT 0
#define ADD_FULL -1
#define ADD_FAILED -2

/* One item, exactly as RedisBloom orders it: present anywhere -> 0; else a
 * full newest sub-filter makes room (or the NONSCALING key is full), then
 * the item goes into the newest. Counting keys add every time (a multiset,
 * so that a later SBF.DEL cannot remove another item's counts). */
static int chain_add1(sbfr_chain *c, const char *s, size_t n, const char **why)
{
    sbfr_link *last = &c->links[c->nlinks - 1];
    int present = 0;
    for (uint32_t i = 0; i + 1 < c->nlinks && !present; i++)
        present = sbf_contains(c->links[i].f, s, n) == 1;
    if (c->layout == SBF_COUNTING) {
        present = present || sbf_contains(last->f, s, n) == 1;
        if (!present && last->items >= last->capacity)
            return ADD_FULL;
        if (sbf_add(last->f, s, n) < 0)
            return ADD_FAILED;
        last->items++;
        c->items++;
        return present ? ADD_PRESENT : ADD_NEW;
    }
    if (present)
        return ADD_PRESENT;
    if (last->items >= last->capacity) {
        if (sbf_contains(last->f, s, n) == 1)
            return ADD_PRESENT;
        if (c->expansion == 0)
            return ADD_FULL;
        if (chain_grow(c, why) != SBF_OK)
            return ADD_FAILED;
        last = &c->links[c->nlinks - 1];
    }
    if (sbf_add(last->f, s, n) != 1)
        return ADD_PRESENT;
    last->items++;
    c->items++;
    return ADD_NEW;
}

/* ---------------------------------------------------------------- helpers */

enum { KEY_OK, KEY_EMPTY, KEY_WRONGTYPE };

static int open_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                      RedisModuleKey **key, sbfr_chain **out)
{
    *out = NULL;
    *key = RedisModule_OpenKey(ctx, name, mode);
    int t = RedisModule_KeyType(*key);
    if (t == REDISMODULE_KEYTYPE_EMPTY)
        return KEY_EMPTY;
    if (t != REDISMODULE_KEYTYPE_MODULE || RedisModule_ModuleTypeGetType(*key) != sbfr_type)
        return KEY_WRONGTYPE;
    *out = RedisModule_ModuleTypeGetValue(*key);
    return KEY_OK;
}

static int reply_status(RedisModuleCtx *ctx, int st)
{
    return RedisModule_ReplyWithError(ctx, st == KEY_WRONGTYPE ? ERR_WRONGTYPE
                                           : st == KEY_EMPTY   ? ERR_NOT_FOUND
                                                               : ERR_EXISTS);
}

/* The key's chain for a command that needs a complete one; otherwise the
 * error is replied and NULL returned. */
static sbfr_chain *ready_chain(RedisModuleCtx *ctx, RedisModuleString *name, int mode)
{
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, name, mode, &key, &c);
    RedisModule_CloseKey(key);
    if (st != KEY_OK) {
        reply_status(ctx, st);
        return NULL;
    }
    if (c->loading) {
        RedisModule_ReplyWithError(ctx, ERR_LOADING);
        return NULL;
    }
    return c;
}

/* Opens a key that must not exist yet, for a command that creates it;
 * otherwise the error is replied and NULL returned. */
static RedisModuleKey *open_empty(RedisModuleCtx *ctx, RedisModuleString *name)
{
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, name, REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    if (st == KEY_EMPTY)
        return key;
    RedisModule_CloseKey(key);
    reply_status(ctx, st == KEY_OK ? -1 : st);
    return NULL;
}

static int arg_is(RedisModuleString *a, const char *word)
{
    size_t n;
    const char *s = RedisModule_StringPtrLen(a, &n);
    return n == strlen(word) && strncasecmp(s, word, n) == 0;
}

static int is_resp3(RedisModuleCtx *ctx)
{
    return (RedisModule_GetContextFlags(ctx) & REDISMODULE_CTX_FLAGS_RESP3) != 0;
}

static uint64_t chain_capacity(const sbfr_chain *c)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < c->nlinks; i++)
        s += c->links[i].capacity;
    return s;
}

static size_t chain_mem(const void *value)
{
    const sbfr_chain *c = value;
    size_t s = sizeof *c + c->nlinks * sizeof *c->links + c->stage_len;
    for (uint32_t i = 0; i < c->nlinks; i++) {
        size_t n = 0;
        if (c->links[i].f != NULL && sbf_data(c->links[i].f, &n) != NULL)
            s += n;
    }
    return s;
}

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

/* out[i] = 1 when one of the sub-filters [0, upto) may hold item i: one
 * batched, pipelined pass per sub-filter, newest (largest) first. */
static void links_contains_batch(const sbfr_chain *c, uint32_t upto, item_vec *v)
{
    memset(v->out, 0, v->n);
    for (uint32_t l = upto; l-- > 0;) {
        sbf_contains_batch(c->links[l].f, (const void *const *)v->ptr, v->len, v->n,
                           l + 1 == upto ? v->out : v->tmp);
        if (l + 1 != upto)
            for (size_t i = 0; i < v->n; i++)
                v->out[i] |= v->tmp[i];
    }
}

static void chain_contains_batch(const sbfr_chain *c, item_vec *v)
{
    links_contains_batch(c, c->nlinks, v);
}

/* --------------------------------------------------------------- BF.RESERVE */

static int reply_create_error(RedisModuleCtx *ctx, const char *why)
{
    char msg[160];
    snprintf(msg, sizeof msg, "ERR could not create filter: %s", why);
    return RedisModule_ReplyWithError(ctx, msg);
}

/* BF.RESERVE key error_rate capacity [EXPANSION e] [NONSCALING] and
 * SBF.RESERVE with LAYOUT too. */
static int reserve_common(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int own)
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

    int nonscaling = 0, ex_at = -1, layout = g_layout;
    long long expansion = g_expansion;
    for (int i = 4; i < argc; i++) {
        if (arg_is(argv[i], "NONSCALING")) {
            nonscaling = 1;
        } else if (arg_is(argv[i], "EXPANSION")) {
            if (i + 1 == argc)
                return RedisModule_ReplyWithError(ctx, "ERR no expansion");
            ex_at = ++i;
        } else if (own && arg_is(argv[i], "LAYOUT")) {
            if (i + 1 == argc)
                return RedisModule_ReplyWithError(ctx, "ERR no layout");
            size_t n;
            const char *s = RedisModule_StringPtrLen(argv[++i], &n);
            if ((layout = layout_from_name(s, n)) < 0)
                return RedisModule_ReplyWithError(
                    ctx, "ERR layout must be classic, blocked, split-block or counting");
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

    RedisModuleKey *key = open_empty(ctx, argv[1]);
    if (key == NULL)
        return REDISMODULE_OK;
    sbfr_chain *c;
    const char *why = "";
    if (chain_new(&c, layout, (uint64_t)capacity, error, nonscaling ? 0 : (uint32_t)expansion,
                  &why) != SBF_OK) {
        RedisModule_CloseKey(key);
        return reply_create_error(ctx, why);
    }
    RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    RedisModule_CloseKey(key);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

static int cmd_bf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return reserve_common(ctx, argv, argc, 0);
}

static int cmd_sbf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return reserve_common(ctx, argv, argc, 1);
}

/* ------------------------------------------------ BF.ADD, BF.MADD, BF.INSERT */

typedef struct insert_opts {
    long long capacity;
    double error;
    long long expansion;
    int nonscaling, autocreate, multi;
} insert_opts;

static void reply_add_error(RedisModuleCtx *ctx, int rv, const char *why)
{
    if (rv == ADD_FULL) {
        RedisModule_ReplyWithError(ctx, ERR_FULL);
    } else {
        char msg[160];
        snprintf(msg, sizeof msg, "ERR could not grow the filter: %s", why);
        RedisModule_ReplyWithError(ctx, msg);
    }
}

static int insert_common(RedisModuleCtx *ctx, RedisModuleString *keyname,
                         RedisModuleString **items, size_t n, const insert_opts *o)
{
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    const char *why = "";
    if (st == KEY_EMPTY && o->autocreate) {
        if (chain_new(&c, g_layout, (uint64_t)o->capacity, o->error,
                      o->nonscaling ? 0 : (uint32_t)o->expansion, &why) != SBF_OK) {
            RedisModule_CloseKey(key);
            return reply_create_error(ctx, why);
        }
        RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    } else if (st != KEY_OK) {
        RedisModule_CloseKey(key);
        return reply_status(ctx, st);
    }
    if (c->loading) {
        RedisModule_CloseKey(key);
        return RedisModule_ReplyWithError(ctx, ERR_LOADING);
    }


    item_vec v;
    items_load(&v, items, n);
    sbfr_link *last = &c->links[c->nlinks - 1];
    int fast = 0;
    if (o->multi && c->layout != SBF_COUNTING && n > 1) {
        /* Batched: which items the key holds already, one pipelined pass
         * per sub-filter. When the others all fit in the newest sub-filter,
         * each is added there; its add reports whether it set a bit, so an
         * item that an earlier one of the same command made present answers
         * 0, exactly as one by one. The pass also brings the newest
         * sub-filter's lines into cache for those adds: asking only the
         * older sub-filters (one hash per item instead of two) measured
         * 0.45 of the protocol floor for BF.MADD x100 against 0.75 this way,
         * as the lone adds then wait for their cache misses one by one. */
        chain_contains_batch(c, &v);
        size_t absent = 0;
        for (size_t i = 0; i < n; i++)
            absent += !v.out[i];
        fast = last->items <= last->capacity && absent <= last->capacity - last->items;
    }
    if (fast) {
        RedisModule_ReplyWithArray(ctx, (long)n);
        for (size_t i = 0; i < n; i++) {
            int added = !v.out[i] && sbf_add(last->f, v.ptr[i], v.len[i]) == 1;
            if (added) {
                last->items++;
                c->items++;
            }
            RedisModule_ReplyWithBool(ctx, added);
        }
    } else {
        size_t replied = 0;
        if (o->multi)
            RedisModule_ReplyWithArray(ctx, REDISMODULE_POSTPONED_ARRAY_LEN);
        for (size_t i = 0; i < n; i++) {
            int rv = chain_add1(c, v.ptr[i], v.len[i], &why);
            replied++;
            if (rv < 0) { /* the array ends at the first error, as RedisBloom's */
                reply_add_error(ctx, rv, why);
                break;
            }
            RedisModule_ReplyWithBool(ctx, rv == ADD_NEW);
        }
        if (o->multi)
            RedisModule_ReplySetArrayLength(ctx, (long)replied);
    }
    items_free(&v);
    RedisModule_CloseKey(key);
    RedisModule_ReplicateVerbatim(ctx);
    return REDISMODULE_OK;
}

static insert_opts default_opts(int multi)
{
    insert_opts o = {(long long)g_capacity, g_error, g_expansion, 0, 1, multi};
    return o;
}

static int cmd_bf_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(0);
    return insert_common(ctx, argv[1], argv + 2, 1, &o);
}

static int cmd_bf_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(1);
    return insert_common(ctx, argv[1], argv + 2, (size_t)argc - 2, &o);
}

/* BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING]
 * ITEMS item... (RedisBloom matches options by their first letters; we
 * take the whole words.) */
static int cmd_bf_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 4)
        return RedisModule_WrongArity(ctx);
    insert_opts o = default_opts(1);
    int at = 2, items = -1;
    while (at < argc && items < 0) {
        RedisModuleString *a = argv[at];
        if (arg_is(a, "ITEMS")) {
            items = ++at;
        } else if (arg_is(a, "ERROR")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToDouble(argv[at++], &o.error) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad error rate");
        } else if (arg_is(a, "EXPANSION")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToLongLong(argv[at++], &o.expansion) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad expansion");
        } else if (arg_is(a, "CAPACITY")) {
            if (++at == argc)
                return RedisModule_WrongArity(ctx);
            if (RedisModule_StringToLongLong(argv[at++], &o.capacity) != REDISMODULE_OK)
                return RedisModule_ReplyWithError(ctx, "Bad capacity");
        } else if (arg_is(a, "NOCREATE")) {
            o.autocreate = 0;
            at++;
        } else if (arg_is(a, "NONSCALING")) {
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
    int st = open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    const int usable = st == KEY_OK && !c->loading; /* else every answer is 0 */
    const size_t n = (size_t)argc - 2;
    if (!multi) {
        int found = 0;
        if (usable) {
            size_t len;
            const char *s = RedisModule_StringPtrLen(argv[2], &len);
            for (uint32_t l = c->nlinks; l-- > 0 && !found;)
                found = sbf_contains(c->links[l].f, s, len) == 1;
        }
        RedisModule_CloseKey(key);
        return RedisModule_ReplyWithBool(ctx, found);
    }
    item_vec v;
    items_load(&v, argv + 2, n);
    if (usable)
        chain_contains_batch(c, &v);
    else
        memset(v.out, 0, n);
    RedisModule_ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++)
        RedisModule_ReplyWithBool(ctx, v.out[i]);
    items_free(&v);
    RedisModule_CloseKey(key);
    return REDISMODULE_OK;
}

static int cmd_bf_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return exists_common(ctx, argv, argc, 0);
}

static int cmd_bf_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return exists_common(ctx, argv, argc, 1);
}

/* ------------------------------------------------------ BF.CARD, BF.INFO */

static int cmd_bf_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key);
    if (st == KEY_WRONGTYPE)
        return reply_status(ctx, st);
    return RedisModule_ReplyWithLongLong(ctx, st == KEY_OK ? (long long)c->items : 0);
}

enum { F_CAPACITY, F_SIZE, F_FILTERS, F_ITEMS, F_EXPANSION, F_COUNT };
static const char *const info_names[F_COUNT] = {
    "Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate"};
static const char *const info_args[F_COUNT] = {"capacity", "size", "filters", "items",
                                               "expansion"};

static void reply_info_value(RedisModuleCtx *ctx, const sbfr_chain *c, int field)
{
    switch (field) {
    case F_CAPACITY: RedisModule_ReplyWithLongLong(ctx, (long long)chain_capacity(c)); break;
    case F_SIZE: RedisModule_ReplyWithLongLong(ctx, (long long)chain_mem(c)); break;
    case F_FILTERS: RedisModule_ReplyWithLongLong(ctx, c->nlinks); break;
    case F_ITEMS: RedisModule_ReplyWithLongLong(ctx, (long long)c->items); break;
    default:
        if (c->expansion == 0)
            RedisModule_ReplyWithNull(ctx);
        else
            RedisModule_ReplyWithLongLong(ctx, c->expansion);
    }
}

static int cmd_bf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2 && argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key); /* c stays valid: nothing runs in between */
    if (st != KEY_OK)
        return reply_status(ctx, st);
    if (argc == 3) {
        int field = -1;
        for (int i = 0; i < F_COUNT && field < 0; i++)
            if (arg_is(argv[2], info_args[i]))
                field = i;
        if (field < 0)
            return RedisModule_ReplyWithError(ctx, "Invalid information value");
        if (is_resp3(ctx)) {
            RedisModule_ReplyWithMap(ctx, 1);
            RedisModule_ReplyWithSimpleString(ctx, info_names[field]);
        } else {
            RedisModule_ReplyWithArray(ctx, 1);
        }
        reply_info_value(ctx, c, field);
        return REDISMODULE_OK;
    }
    RedisModule_ReplyWithMap(ctx, F_COUNT);
    for (int i = 0; i < F_COUNT; i++) {
        RedisModule_ReplyWithSimpleString(ctx, info_names[i]);
        reply_info_value(ctx, c, i);
    }
    return REDISMODULE_OK;
}

/* ---------------------------------------------- BF.SCANDUMP, BF.LOADCHUNK
 * A dump is a header, then each sub-filter's sbf_serialize bytes in chunks
 * of up to 16 MiB. The iterator that comes with a chunk is
 * (sub-filter << 40) + (offset of the chunk's end in its bytes) + 1, so
 * BF.LOADCHUNK knows where each chunk belongs and takes them in order only.
 * Header (little-endian): "SBFRCHN1", u32 version 1, u32 sub-filters,
 * u32 layout, u32 expansion, f64 error, u64 items; then per sub-filter
 * u64 capacity, f64 error, u64 items, u64 serialized length; then a u64
 * check (MurmurHash3 of the bytes before it, h1 with seed 0x5bf).
 */
#define DUMP_MAGIC "SBFRCHN1"
#define DUMP_VERSION 1
#define DUMP_HDR 40
#define DUMP_LINK 32
#define DUMP_SEED 0x5bfu
#define ITER_SHIFT 40
#define ITER_MASK ((UINT64_C(1) << ITER_SHIFT) - 1)

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t dbl_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static double bits_dbl(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The serialized bytes of sub-filter l (a loaded one). */
static int link_bytes(const sbfr_chain *c, uint32_t l, void **buf, size_t *len)
{
    return sbf_serialize(c->links[l].f, buf, len);
}

/* The header; serialized lengths come from the sub-filters, or from the
 * header a loading key was created with. NULL when out of memory. */
static unsigned char *dump_header(const sbfr_chain *c, size_t *len)
{
    const size_t body = DUMP_HDR + (size_t)c->nlinks * DUMP_LINK;
    *len = body + 8;
    unsigned char *h = RedisModule_Alloc(*len);
    memcpy(h, DUMP_MAGIC, 8);
    put32(h + 8, DUMP_VERSION);
    put32(h + 12, c->nlinks);
    put32(h + 16, (uint32_t)c->layout);
    put32(h + 20, c->expansion);
    put64(h + 24, dbl_bits(c->error));
    put64(h + 32, c->items);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        uint64_t nbytes = c->links[i].nbytes;
        if (c->links[i].f != NULL) {
            void *b;
            size_t n;
            if (link_bytes(c, i, &b, &n) != SBF_OK) {
                RedisModule_Free(h);
                return NULL;
            }
            sbf_buffer_free(b);
            nbytes = n;
        }
        put64(p, c->links[i].capacity);
        put64(p + 8, dbl_bits(c->links[i].error));
        put64(p + 16, c->links[i].items);
        put64(p + 24, nbytes);
    }
    uint64_t sum[2];
    sbf_murmur3_x64_128(h, body, DUMP_SEED, sum);
    put64(h + body, sum[0]);
    return h;
}

static int valid_rate(double e)
{
    return e > 0 && e < 1;
}

/* What a stored or dumped chain must be, whoever wrote it. */
static int valid_chain(uint64_t layout, uint64_t expansion, double error, uint64_t nlinks)
{
    return layout <= SBF_COUNTING && expansion <= SBFR_MAX_EXPANSION && valid_rate(error) &&
           nlinks >= 1 && nlinks <= SBFR_MAX_LINKS &&
           !(layout == SBF_COUNTING && expansion != 0) && !(expansion == 0 && nlinks != 1);
}

static int valid_link(uint64_t capacity, double error, uint64_t nbytes)
{
    return capacity >= 1 && capacity <= SBFR_MAX_LINK_CAPACITY && valid_rate(error) &&
           nbytes <= ITER_MASK;
}

/* A loading chain from a header, or NULL with *why set. */
static sbfr_chain *chain_from_header(const unsigned char *h, size_t len, const char **why)
{
    *why = ERR_BAD_DATA;
    if (len < DUMP_HDR || memcmp(h, DUMP_MAGIC, 8) != 0)
        return NULL;
    if (get32(h + 8) != DUMP_VERSION) {
        *why = "ERR unknown dump version";
        return NULL;
    }
    const uint32_t nlinks = get32(h + 12), layout = get32(h + 16), expansion = get32(h + 20);
    const double error = bits_dbl(get64(h + 24));
    uint64_t sum[2];
    if (nlinks == 0 || nlinks > SBFR_MAX_LINKS || len != DUMP_HDR + (size_t)nlinks * DUMP_LINK + 8)
        return NULL;
    sbf_murmur3_x64_128(h, len - 8, DUMP_SEED, sum);
    if (sum[0] != get64(h + len - 8) || !valid_chain(layout, expansion, error, nlinks))
        return NULL;
    uint64_t items = 0;
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        const uint64_t cap = get64(p), nb = get64(p + 24), it = get64(p + 16);
        if (!valid_link(cap, bits_dbl(get64(p + 8)), nb) || nb == 0 || nb > g_max_bytes + 4096 ||
            it > UINT64_MAX - items)
            return NULL;
        items += it;
    }
    if (items != get64(h + 32))
        return NULL;
    sbfr_chain *c = chain_alloc(nlinks);
    c->nlinks = nlinks;
    c->layout = (int)layout;
    c->expansion = expansion;
    c->error = error;
    c->items = items;
    c->loading = 1;
    for (uint32_t i = 0; i < nlinks; i++) {
        const unsigned char *p = h + DUMP_HDR + (size_t)i * DUMP_LINK;
        c->links[i].capacity = get64(p);
        c->links[i].error = bits_dbl(get64(p + 8));
        c->links[i].items = get64(p + 16);
        c->links[i].nbytes = get64(p + 24);
    }
    return c;
}

/* The sub-filter being loaded: the first without a filter. */
static uint32_t loading_link(const sbfr_chain *c)
{
    uint32_t l = 0;
    while (l < c->nlinks && c->links[l].f != NULL)
        l++;
    return l;
}

/* Takes the chunk that ends at `end` in sub-filter l. On error nothing
 * changes and the reply text is returned. */
static const char *chain_load_chunk(sbfr_chain *c, uint32_t l, uint64_t end,
                                    const char *buf, size_t len)
{
    if (!c->loading)
        return ERR_EXISTS;
    const uint32_t cur = loading_link(c);
    if (l != cur || end < len || end - len != c->stage_len || end > c->links[l].nbytes)
        return "ERR invalid offset: chunks must come in BF.SCANDUMP order";
    if (len == 0)
        return ERR_BAD_DATA;
    c->stage = RedisModule_Realloc(c->stage, c->stage_len + len);
    memcpy(c->stage + c->stage_len, buf, len);
    if (end < c->links[l].nbytes) {
        c->stage_len += len;
        return NULL;
    }
    sbf_filter *f;
    struct sbf_info inf;
    if (sbf_deserialize(&f, c->stage, c->stage_len + len) != SBF_OK)
        return ERR_BAD_DATA; /* stage_len unchanged: the chunk is dropped */
    if (sbf_info(f, &inf) != SBF_OK || inf.layout != c->layout || inf.bytes > g_max_bytes) {
        sbf_free(f);
        return ERR_BAD_DATA;
    }
    c->links[l].f = f;
    c->links[l].nbytes = 0;
    RedisModule_Free(c->stage);
    c->stage = NULL;
    c->stage_len = 0;
    if (l + 1 == c->nlinks)
        c->loading = 0;
    return NULL;
}

static int cmd_bf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    RedisModuleKey *key;
    sbfr_chain *c;
    int st = open_chain(ctx, argv[1], REDISMODULE_READ, &key, &c);
    RedisModule_CloseKey(key);
    if (st != KEY_OK)
        return reply_status(ctx, st);
    long long iter;
    if (RedisModule_StringToLongLong(argv[2], &iter) != REDISMODULE_OK || iter < 0)
        return RedisModule_ReplyWithError(ctx, "Second argument must be numeric");
    if (c->loading)
        return RedisModule_ReplyWithError(ctx, ERR_LOADING);
    if (iter == 0) {
        size_t hl;
        unsigned char *h = dump_header(c, &hl);
        if (h == NULL)
            return RedisModule_ReplyWithError(ctx, "ERR out of memory");
        RedisModule_ReplyWithArray(ctx, 2);
        RedisModule_ReplyWithLongLong(ctx, 1);
        RedisModule_ReplyWithStringBuffer(ctx, (const char *)h, hl);
        RedisModule_Free(h);
        return REDISMODULE_OK;
    }
    uint64_t l = ((uint64_t)iter - 1) >> ITER_SHIFT, pos = ((uint64_t)iter - 1) & ITER_MASK;
    void *b = NULL;
    size_t n = 0;
    while (l < c->nlinks) {
        if (link_bytes(c, (uint32_t)l, &b, &n) != SBF_OK)
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
    RedisModule_ReplyWithLongLong(ctx, (long long)((l << ITER_SHIFT) + pos + chunk + 1));
    RedisModule_ReplyWithStringBuffer(ctx, (const char *)b + pos, chunk);
    sbf_buffer_free(b);
    return REDISMODULE_OK;
}

static int cmd_bf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
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
    int st = open_chain(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, &key, &c);
    const char *err = NULL;
    if (iter == 1) {
        if (st != KEY_EMPTY) {
            RedisModule_CloseKey(key);
            return reply_status(ctx, st == KEY_OK ? -1 : st);
        }
        c = chain_from_header((const unsigned char *)buf, len, &err);
        if (c != NULL) {
            RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
            err = NULL;
        }
    } else if (st != KEY_OK) {
        RedisModule_CloseKey(key);
        return reply_status(ctx, st);
    } else {
        const uint64_t it = (uint64_t)iter - 1;
        err = chain_load_chunk(c, (uint32_t)(it >> ITER_SHIFT), it & ITER_MASK, buf, len);
    }
    RedisModule_CloseKey(key);
    if (err != NULL)
        return RedisModule_ReplyWithError(ctx, err);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

/* -------------------------------------------------------------- SBF.INFO */

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

/* Everything BF.INFO says, then the layout, the kernels' ISA, the asked
 * rate, the false-positive rate the exact formulas give now, and per
 * sub-filter its geometry and numbers. O(size of the filter). */
static int cmd_sbf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = ready_chain(ctx, argv[1], REDISMODULE_READ);
    if (c == NULL)
        return REDISMODULE_OK;
    double log_pass = 0; /* log of the chance an absent item passes no sub-filter */
    for (uint32_t i = 0; i < c->nlinks; i++)
        log_pass += log1p(-sbf_fpp_theory(c->links[i].f, c->links[i].items));
    struct sbf_info inf;
    sbf_info(c->links[0].f, &inf);

    RedisModule_ReplyWithMap(ctx, F_COUNT + 5);
    for (int i = 0; i < F_COUNT; i++) {
        RedisModule_ReplyWithSimpleString(ctx, info_names[i]);
        reply_info_value(ctx, c, i);
    }
    RedisModule_ReplyWithSimpleString(ctx, "Layout");
    RedisModule_ReplyWithSimpleString(ctx, layout_names[c->layout]);
    RedisModule_ReplyWithSimpleString(ctx, "ISA");
    RedisModule_ReplyWithSimpleString(ctx, sbf_isa_name(inf.isa));
    reply_pair_dbl(ctx, "Error rate", c->error);
    reply_pair_dbl(ctx, "False positive rate now", -expm1(log_pass));
    RedisModule_ReplyWithSimpleString(ctx, "Filters");
    RedisModule_ReplyWithArray(ctx, c->nlinks);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link *l = &c->links[i];
        sbf_info(l->f, &inf);
        RedisModule_ReplyWithMap(ctx, 10);
        reply_pair_ll(ctx, "Capacity", (long long)l->capacity);
        reply_pair_ll(ctx, "Items", (long long)l->items);
        reply_pair_dbl(ctx, "Error rate", l->error);
        reply_pair_ll(ctx, "Bits", (long long)inf.bits);
        reply_pair_ll(ctx, "Bytes", (long long)inf.bytes);
        reply_pair_ll(ctx, "Hashes", inf.k);
        reply_pair_ll(ctx, "Block bits", inf.block_bits);
        reply_pair_dbl(ctx, "Fill ratio", inf.fill_ratio);
        reply_pair_dbl(ctx, "False positive rate now", sbf_fpp_theory(l->f, l->items));
        reply_pair_ll(ctx, "Saturated counters", (long long)inf.saturated);
    }
    return REDISMODULE_OK;
}

/* ------------------------------------------------------- SBF.DEL (counting) */

static int cmd_sbf_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = ready_chain(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    if (c == NULL)
        return REDISMODULE_OK;
    if (c->layout != SBF_COUNTING)
        return RedisModule_ReplyWithError(ctx, "ERR SBF.DEL needs a counting filter");
    size_t n;
    const char *s = RedisModule_StringPtrLen(argv[2], &n);
    sbfr_link *l = &c->links[0]; /* counting keys have one sub-filter */
    int rc = sbf_remove(l->f, s, n);
    if (rc == SBF_E_NOT_PRESENT)
        return RedisModule_ReplyWithLongLong(ctx, 0);
    if (rc != SBF_OK)
        return RedisModule_ReplyWithError(ctx, sbf_strerror(rc));
    if (l->items > 0) {
        l->items--;
        c->items--;
    }
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithLongLong(ctx, 1);
}

/* ------------------------------------------- SBF.EXPORTGUAVA, IMPORTGUAVA */

static int cmd_sbf_exportguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return RedisModule_WrongArity(ctx);
    sbfr_chain *c = ready_chain(ctx, argv[1], REDISMODULE_READ);
    if (c == NULL)
        return REDISMODULE_OK;
    if (c->layout != SBF_CLASSIC || c->nlinks != 1)
        return RedisModule_ReplyWithError(
            ctx, "ERR only a classic filter with one sub-filter has a Guava form");
    void *b;
    size_t n;
    int rc = sbf_export_guava(c->links[0].f, &b, &n);
    if (rc != SBF_OK)
        return RedisModule_ReplyWithError(ctx, sbf_strerror(rc));
    RedisModule_ReplyWithStringBuffer(ctx, b, n);
    sbf_buffer_free(b);
    return REDISMODULE_OK;
}

/* SBF.IMPORTGUAVA key data [CAPACITY c]: a NONSCALING classic key. Guava
 * keeps no count: CAPACITY defaults to m*ln2/k (the n this k is optimal
 * for), the item count to the filter's cardinality estimate. */
static int cmd_sbf_importguava(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3 && argc != 5)
        return RedisModule_WrongArity(ctx);
    long long cap = 0;
    if (argc == 5) {
        if (!arg_is(argv[3], "CAPACITY"))
            return RedisModule_ReplyWithError(ctx, "Unknown argument received");
        if (RedisModule_StringToLongLong(argv[4], &cap) != REDISMODULE_OK || cap < 1 ||
            (uint64_t)cap > SBFR_MAX_CAPACITY)
            return RedisModule_ReplyWithError(ctx, "Bad capacity");
    }
    size_t len;
    const char *buf = RedisModule_StringPtrLen(argv[2], &len);
    if (len > g_max_bytes + 6)
        return RedisModule_ReplyWithError(ctx, "ERR the filter would exceed the module's MAX_BYTES");
    RedisModuleKey *key = open_empty(ctx, argv[1]);
    if (key == NULL)
        return REDISMODULE_OK;
    sbfr_chain *c;
    sbf_filter *f;
    int rc = sbf_import_guava(&f, buf, len);
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
        cap = n < 1 ? 1 : n > (double)SBFR_MAX_CAPACITY ? (long long)SBFR_MAX_CAPACITY : (long long)n;
    }
    double err = sbf_fpp_classic((uint64_t)cap, inf.bits, inf.k);
    if (!valid_rate(err))
        err = 0.5;
    c = chain_alloc(1);
    c->nlinks = 1;
    c->layout = SBF_CLASSIC;
    c->expansion = 0;
    c->error = err;
    c->links[0].f = f;
    c->links[0].capacity = (uint64_t)cap;
    c->links[0].error = err;
    c->links[0].items = c->items = (uint64_t)llround(inf.est_cardinality);
    RedisModule_ModuleTypeSetValue(key, sbfr_type, c);
    RedisModule_CloseKey(key);
    RedisModule_ReplicateVerbatim(ctx);
    return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

/* ------------------------------------------------------------ type methods
 * RDB, encoding 1: u64 layout, u64 expansion, f64 error, u64 items,
 * u64 sub-filters, u64 loading; per sub-filter u64 capacity, f64 error,
 * u64 items, u64 serialized length while loading (else 0); then the
 * serialized bytes of every loaded sub-filter (sbf_serialize) and, while
 * loading, the staged bytes of the next one.
 */
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
    chain_free(c);
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
    if (!valid_chain(layout, expansion, error, nlinks) || loading > 1)
        return rdb_load_fail(io, NULL, "bad header");
    sbfr_chain *c = chain_alloc((uint32_t)nlinks);
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
        if (!valid_link(l->capacity, l->error, l->nbytes) || l->items > UINT64_MAX - sum)
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
        const uint32_t l = loading_link(c);
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
    } else if (loading_link(c) != c->nlinks) {
        return rdb_load_fail(io, c, "missing sub-filter");
    }
    return c;
}

static void emit_chunks(RedisModuleIO *aof, RedisModuleString *key, uint32_t l,
                        const unsigned char *b, size_t n)
{
    for (size_t pos = 0; pos < n;) {
        size_t chunk = n - pos < SBFR_CHUNK ? n - pos : SBFR_CHUNK;
        long long iter = (long long)(((uint64_t)l << ITER_SHIFT) + pos + chunk + 1);
        RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, iter, (const char *)b + pos, chunk);
        pos += chunk;
    }
}

/* The key rebuilt by BF.LOADCHUNK, exactly as BF.SCANDUMP would move it. */
static void aof_rewrite(RedisModuleIO *aof, RedisModuleString *key, void *value)
{
    const sbfr_chain *c = value;
    size_t hl;
    unsigned char *h = dump_header(c, &hl);
    if (h == NULL) {
        RedisModule_LogIOError(aof, "warning", "simdbloom: out of memory in AOF rewrite");
        return;
    }
    RedisModule_EmitAOF(aof, "BF.LOADCHUNK", "slb", key, 1LL, (const char *)h, hl);
    RedisModule_Free(h);
    for (uint32_t i = 0; i < c->nlinks && c->links[i].f != NULL; i++) {
        void *b;
        size_t n;
        if (link_bytes(c, i, &b, &n) != SBF_OK) {
            RedisModule_LogIOError(aof, "warning", "simdbloom: out of memory in AOF rewrite");
            return;
        }
        emit_chunks(aof, key, i, b, n);
        sbf_buffer_free(b);
    }
    if (c->loading && c->stage_len > 0)
        emit_chunks(aof, key, loading_link(c), c->stage, c->stage_len);
}

static void type_free(void *value)
{
    chain_free(value);
}

static void digest(RedisModuleDigest *md, void *value)
{
    const sbfr_chain *c = value;
    RedisModule_DigestAddLongLong(md, c->layout);
    RedisModule_DigestAddLongLong(md, c->expansion);
    RedisModule_DigestAddLongLong(md, (long long)dbl_bits(c->error));
    RedisModule_DigestAddLongLong(md, (long long)c->items);
    RedisModule_DigestAddLongLong(md, c->loading);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        const sbfr_link *l = &c->links[i];
        RedisModule_DigestAddLongLong(md, (long long)l->capacity);
        RedisModule_DigestAddLongLong(md, (long long)dbl_bits(l->error));
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
    sbfr_chain *c = chain_alloc(src->nlinks);
    sbfr_link *links = c->links;
    *c = *src;
    c->links = links;
    c->stage = NULL;
    memcpy(c->links, src->links, src->nlinks * sizeof *links);
    for (uint32_t i = 0; i < c->nlinks; i++) {
        c->links[i].f = NULL;
        if (src->links[i].f != NULL && sbf_copy(&c->links[i].f, src->links[i].f) != SBF_OK) {
            chain_free(c);
            return NULL;
        }
    }
    if (src->stage_len > 0) {
        c->stage = RedisModule_Alloc(src->stage_len);
        memcpy(c->stage, src->stage, src->stage_len);
    }
    return c;
}

/* ------------------------------------------------------------------ loading */

static int parse_args(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc % 2 != 0) {
        RedisModule_Log(ctx, "warning", "simdbloom: arguments come in NAME VALUE pairs");
        return REDISMODULE_ERR;
    }
    for (int i = 0; i < argc; i += 2) {
        long long ll = 0;
        double d = 0;
        size_t n;
        const char *name = RedisModule_StringPtrLen(argv[i], &n);
        const char *val = RedisModule_StringPtrLen(argv[i + 1], &n);
        int ok;
        if (arg_is(argv[i], "INITIAL_SIZE") || arg_is(argv[i], "CAPACITY")) {
            ok = RedisModule_StringToLongLong(argv[i + 1], &ll) == REDISMODULE_OK && ll >= 1 &&
                 (uint64_t)ll <= SBFR_MAX_CAPACITY;
            g_capacity = (uint64_t)ll;
        } else if (arg_is(argv[i], "ERROR_RATE")) {
            ok = RedisModule_StringToDouble(argv[i + 1], &d) == REDISMODULE_OK && valid_rate(d);
            g_error = d;
        } else if (arg_is(argv[i], "EXPANSION")) {
            ok = RedisModule_StringToLongLong(argv[i + 1], &ll) == REDISMODULE_OK && ll >= 1 &&
                 ll <= SBFR_MAX_EXPANSION;
            g_expansion = (uint32_t)ll;
        } else if (arg_is(argv[i], "LAYOUT")) {
            g_layout = layout_from_name(val, n);
            ok = g_layout >= 0;
        } else if (arg_is(argv[i], "MAX_BYTES")) {
            ok = RedisModule_StringToLongLong(argv[i + 1], &ll) == REDISMODULE_OK && ll >= 64 &&
                 (uint64_t)ll <= SBF_MAX_BITS / 8;
            g_max_bytes = (uint64_t)ll;
        } else {
            RedisModule_Log(ctx, "warning", "simdbloom: unknown argument %s", name);
            return REDISMODULE_ERR;
        }
        if (!ok) {
            RedisModule_Log(ctx, "warning", "simdbloom: bad value %s for %s", val, name);
            return REDISMODULE_ERR;
        }
    }
    return REDISMODULE_OK;
}

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

static const command_def commands[] = {
    {"bf.reserve", cmd_bf_reserve, "write deny-oom", KEY_ADD},
    {"bf.add", cmd_bf_add, "write deny-oom", KEY_ADD},
    {"bf.madd", cmd_bf_madd, "write deny-oom", KEY_ADD},
    {"bf.insert", cmd_bf_insert, "write deny-oom", KEY_ADD},
    {"bf.exists", cmd_bf_exists, "readonly fast", KEY_READ},
    {"bf.mexists", cmd_bf_mexists, "readonly fast", KEY_READ},
    {"bf.info", cmd_bf_info, "readonly fast", KEY_READ},
    {"bf.card", cmd_bf_card, "readonly fast", KEY_READ},
    {"bf.scandump", cmd_bf_scandump, "readonly", KEY_READ},
    {"bf.loadchunk", cmd_bf_loadchunk, "write deny-oom", KEY_LOAD},
    {"sbf.reserve", cmd_sbf_reserve, "write deny-oom", KEY_ADD},
    {"sbf.info", cmd_sbf_info, "readonly", KEY_READ},
    {"sbf.del", cmd_sbf_del, "write", KEY_DEL},
    {"sbf.exportguava", cmd_sbf_exportguava, "readonly", KEY_READ},
    {"sbf.importguava", cmd_sbf_importguava, "write deny-oom", KEY_ADD},
};

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
    if (sbfr_api_init(ctx, "simdbloom", SBF_VERSION_NUMBER) != REDISMODULE_OK)
        return REDISMODULE_ERR;
    if (parse_args(ctx, argv, argc) != REDISMODULE_OK)
        return REDISMODULE_ERR;
    int isa = sbf_isa_active();
    if (isa < 0) {
        RedisModule_Log(ctx, "warning", "simdbloom: SBF_ISA: %s", sbf_strerror(isa));
        return REDISMODULE_ERR;
    }
    RedisModule_SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
    RedisModuleTypeMethods tm = {0};
    tm.version = REDISMODULE_TYPE_METHOD_VERSION;
    tm.rdb_load = rdb_load;
    tm.rdb_save = rdb_save;
    tm.aof_rewrite = aof_rewrite;
    tm.mem_usage = chain_mem;
    tm.digest = digest;
    tm.free = type_free;
    tm.copy = type_copy;
    sbfr_type = RedisModule_CreateDataType(ctx, SBFR_TYPE_NAME, SBFR_ENCVER, &tm);
    if (sbfr_type == NULL)
        return REDISMODULE_ERR;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (RedisModule_CreateCommand(ctx, commands[i].name, commands[i].fn, commands[i].flags,
                                      1, 1, 1) != REDISMODULE_OK ||
            set_key_spec(ctx, &commands[i]) != REDISMODULE_OK)
            return REDISMODULE_ERR;
    RedisModule_Log(ctx, "notice", "simdbloom %s: %s kernels, default layout %s",
                    sbf_version_string(), sbf_isa_name(isa), layout_names[g_layout]);
    return REDISMODULE_OK;
}
