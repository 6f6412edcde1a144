/*
 * The scalable chain behind a key: the library's scalable filter
 * (sbf_scalable, include/simdbloom_scalable.h), one structure for the
 * library, `sbf dedup` and this module. This file is the glue: the key's
 * parameters as RedisBloom names them, the module's limits and memory
 * checks (asked by the library before each sub-filter it makes), the
 * module's totals (INFO); the RDB, AOF, SCANDUMP and INFO code reads the
 * sub-filters as the library reports them (sbfr_chain_link), with no copy
 * of its own.
 *
 * The chain's settings in the library: the shared rate schedule
 * (SBF_SCHEDULE_SHARED: sub-filter i gets rate / ((i + 1)(i + 2)), 1/2,
 * 1/6, 1/12, ..., so the rate stays below the asked one at every depth
 * without asking deep sub-filters for rates no filter gives, as
 * RedisBloom's halving would: its 60th would ask 1e-20; a chain written
 * with halving rates continues within the budget it left), growth =
 * EXPANSION (1..32768), NONSCALING (one sub-filter with the whole rate;
 * counting keys are always so), at most 256 sub-filters of at most 2^40
 * items each, Redis's memory (new sub-filters lazily zeroed, SBF_ZEROED),
 * and the chain's sizing rule (sbfr_chain.rule: the library's default for
 * new chains, the formula for chains stored before the rule was).
 *
 * Each sub-filter has the key's layout. Until issue 33 a block layout's
 * sub-filter went classic ("past the floor") where it needed more than
 * 1.5x classic's memory, but Guava's double hashing repeats positions, so
 * small classic filters give far more false positives than the formula;
 * chains written with classic sub-filters load and keep them
 * (SBFR_FLOOR_LAYOUT: it hashes as the MurmurHash3 block layouts do).
 *
 * No Redis here: the host supplies sbfr_alloc & co. (the module Redis's
 * allocator, the unit test libc's), so redis/tests/test_chain.c runs it
 * without a server.
 */
#ifndef SBFR_CHAIN_H_8C41E2B7
#define SBFR_CHAIN_H_8C41E2B7

#include "simdbloom.h"

#include <stddef.h>
#include <stdint.h>

#define SBFR_MAX_LINKS 256
#define SBFR_MAX_CAPACITY (UINT64_C(1) << 30)     /* per command, as RedisBloom 8 */
#define SBFR_MAX_LINK_CAPACITY (UINT64_C(1) << 40) /* a grown sub-filter */
#define SBFR_MAX_EXPANSION 32768
#define SBFR_MAX_KEY_BYTES (SBF_MAX_BITS / 8)      /* the largest filter the library makes */
#define SBFR_TIGHTENING 0.5

/* The host's allocator for the chain's own structures (never NULL in Redis:
 * RedisModule_Alloc stops the server when out of memory, as for any key). */
void *sbfr_alloc(size_t n);
void *sbfr_calloc(size_t n, size_t size);
void *sbfr_realloc(void *p, size_t n);
void sbfr_free(void *p);

/* Module-wide settings (module arguments and CONFIG SET). */
typedef struct sbfr_settings {
    uint64_t capacity;  /* of a key an add creates (RedisBloom's INITIAL_SIZE) */
    double error;       /* ERROR_RATE */
    uint32_t expansion;
    int layout;
    uint64_t max_bytes; /* per key: its sub-filters' bits / 8, for clients' commands */
    const sbf_allocator *alloc; /* the filters' memory: Redis's in the module; NULL the
                                 * library's own */
    const sbf_allocator *alloc_zeroed; /* the same memory, returned reading as zero
                                        * (SBF_ZEROED) for new sub-filters; NULL: alloc */
    /* Whether `bytes` more may be allocated now (the module: used memory
     * against maxmemory); NULL: always. Asked before a sub-filter is made. */
    int (*room)(uint64_t bytes);
} sbfr_settings;
extern sbfr_settings sbfr_cfg;

/* No cap: what a replicated or loading command passes (the primary, or the
 * server that wrote the file, already accepted it). */
#define SBFR_NO_CAP UINT64_MAX

/* Sub-filter i as the library reports it (sbf_scalable_sub_info): read only. */
typedef struct sbfr_link {
    const sbf_filter *f;
    int layout;        /* the key's, or classic past the floor */
    uint32_t k, seed;
    uint64_t bits;
    uint64_t capacity; /* items before the next sub-filter is started */
    double error;      /* the rate this sub-filter was sized for */
    uint64_t items;    /* items counted into it */
} sbfr_link;

typedef struct sbfr_chain {
    sbf_scalable *s;    /* the chain; NULL until the first sub-filter (loading) */
    int layout;         /* the key's */
    uint32_t expansion; /* 0: NONSCALING */
    double error;       /* the rate asked for the whole chain */
    /* How its sub-filters are sized (the library's rule, kept as it grows):
     * 0 the library's default (the formula plus three of its spread,
     * a per-filter rate guarantee), what new chains take;
     * SBFR_RULE_FORMULA the formula alone (SBF_SCALABLE_FORMULA), the rule
     * of every chain stored before RDB encoding 3 / dump header 3. */
    int rule;
    /* what the library reports, refreshed after every change (chain.c sync) */
    uint32_t nlinks;    /* sub-filters */
    uint64_t items;
    uint64_t bytes;     /* sum of the sub-filters' bits / 8: what caps count */
    size_t memory;      /* sum of the sub-filters' sbf_memory_usage */
} sbfr_chain;

/* The module's totals (INFO), kept as chains change: O(1) to report. */
typedef struct sbfr_stats {
    long long keys, filters, items, bytes, memory;
} sbfr_stats;
void sbfr_stats_get(sbfr_stats *out);

/* The layouts a key may have: the library's nine that hash with the key's
 * seed (MurmurHash3's four, the three *-xxh3, the two *-fmix; parquet, XXH64 with k = 8
 * only, is not offered), named as the library names them (sbf_layout_name).
 * What each is the library says (sbf_layout_info); the module compares no
 * layout ids. */
#define SBFR_NLAYOUTS 9
extern const int sbfr_layouts[SBFR_NLAYOUTS];
/* The layout a block-layout key's older sub-filters may have (made past the
 * floor before issue 33); new sub-filters never take it. */
#define SBFR_FLOOR_LAYOUT SBF_CLASSIC
/* One of sbfr_layouts, by its name in any case ("split" too), or -1. */
int sbfr_layout_from_name(const char *s, size_t n);
/* Whether layout is one of sbfr_layouts. */
int sbfr_layout_ok(uint64_t layout);
/* Whether a layout's cells are counters (sbf_layout_info): its keys are
 * multisets (every add counts), never grow (a removal must find its
 * sub-filter), and take SBF.DEL. */
int sbfr_counts(int layout);
/* Whether a key of key_layout may hold a sub-filter of link_layout: its
 * own, or the floor layout when the key's cells are not counters. */
int sbfr_link_layout_ok(int key_layout, uint64_t link_layout);

/* sbfr_chain.rule */
#define SBFR_RULE_DEFAULT 0
#define SBFR_RULE_FORMULA 1
/* A rule a stored chain may record. */
int sbfr_rule_ok(uint64_t rule);
/* Its name (SBF.INFO): "spread" or "formula". */
const char *sbfr_rule_name(int rule);

/* An empty chain (no sub-filter yet), counted as a key: a stored chain's
 * parameters, its sub-filters attached next. Its rule is the formula (what
 * a chain stored without one was made with): a loader that read another
 * sets c->rule before the first attach. */
sbfr_chain *sbfr_chain_alloc(int layout, uint32_t expansion, double error);
void sbfr_chain_free(sbfr_chain *c);

/* A new chain of one empty sub-filter, sized by the library's default rule.
 * Returns an SBF code; *why names a
 * refusal. cap: the largest sbfr_chain.bytes allowed, or SBFR_NO_CAP. */
int sbfr_chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                   uint32_t expansion, uint64_t cap, const char **why);

/* A sub-filter of exactly this geometry (a dump header, an RDB record),
 * all zero, to be filled and attached. Returns an SBF code; *why names a
 * refusal. */
int sbfr_link_make(sbf_filter **f, int layout, uint64_t bits, uint32_t k, uint32_t seed,
                   const char **why);
/* Appends f as the chain's next sub-filter (taken on success: SBF_OK; else
 * an SBF code, *why set, f still the caller's). */
int sbfr_chain_attach(sbfr_chain *c, sbf_filter *f, uint64_t capacity, double error,
                      uint64_t items, const char **why);
/* The used bytes of a sub-filter: bits / 8 (the rest of sbf_data is padding). */
uint64_t sbfr_link_bytes(const sbfr_link *l);
/* Sub-filter i, writable (a SCANDUMP chunk's destination). */
sbf_filter *sbfr_link_writable(sbfr_chain *c, uint32_t i);

/* sbfr_chain_add1 / sbfr_chain_add_all results */
#define SBFR_ADD_NEW 1
#define SBFR_ADD_PRESENT 0
#define SBFR_ADD_FULL -1
#define SBFR_ADD_FAILED -2

/* One item, exactly as RedisBloom orders it: present anywhere -> PRESENT;
 * else a full newest sub-filter makes room (or the NONSCALING key is
 * FULL), then the item goes into the newest. Counting keys add every time
 * (a multiset, so that a later SBF.DEL cannot remove another item's
 * counts). */
int sbfr_chain_add1(sbfr_chain *c, const void *s, size_t n, uint64_t cap, const char **why);

/* n items, all or none (sbf_scalable_add_all): when the distinct items the
 * key does not hold yet fit (a NONSCALING key's room, or the sub-filters
 * growth would add, all made before the first add), each is added as
 * sbfr_chain_add1 would and out[i] = 1 for a new item, 0 for a present one;
 * returns the count of new ones. Otherwise nothing changes and
 * SBFR_ADD_FULL or SBFR_ADD_FAILED (*why) is returned. */
long long sbfr_chain_add_all(sbfr_chain *c, const void *const *ptr, const size_t *len,
                             size_t n, uint8_t *out, uint64_t cap, const char **why);

/* out[i] = 1 when the chain may hold item i. */
void sbfr_chain_contains_batch(const sbfr_chain *c, const void *const *ptr, const size_t *len,
                               size_t n, uint8_t *out);

/* SBF.DEL: one add of a counting key's item taken out (sbf_scalable_remove). */
int sbfr_chain_remove(sbfr_chain *c, const void *s, size_t n);

uint64_t sbfr_chain_capacity(const sbfr_chain *c);
/* Memory held (the glue, the library's chain and its sub-filters): MEMORY USAGE. */
size_t sbfr_chain_mem(const sbfr_chain *c);
/* An independent copy (COPY); NULL when out of memory. */
sbfr_chain *sbfr_chain_copy(const sbfr_chain *src);

/* What a stored or dumped chain must be, whoever wrote it. */
int sbfr_valid_rate(double e);
/* Sub-filter i (< nlinks) as the library reports it: O(i). */
sbfr_link sbfr_chain_link(const sbfr_chain *c, uint32_t i);
int sbfr_valid_chain(uint64_t layout, uint64_t expansion, double error, uint64_t nlinks);
int sbfr_valid_link(uint64_t capacity, double error);

#endif /* SBFR_CHAIN_H_8C41E2B7 */
