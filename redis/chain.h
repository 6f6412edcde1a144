/*
 * The scalable chain behind a key: a list of simdbloom filters
 * ("sub-filters"). When the newest is full a new one `expansion` times
 * larger is added with half the error rate of the one before, and the first
 * gets half the asked rate, so the chain's false-positive rate stays below
 * the asked rate however far it grows (rate/2 + rate/4 + ... < rate). A
 * NONSCALING chain has one sub-filter with the whole rate.
 *
 * No Redis here: the chain allocates its own structures through the host's
 * functions below (the module gives Redis's allocator, the unit test
 * libc's), so redis/tests/test_chain.c runs it without a server.
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
#define SBFR_TIGHTENING 0.5
#define SBFR_MAX_LINK_BYTES ((UINT64_C(1) << 40) - 1) /* a serialized sub-filter */

/* The host's allocator for the chain's own structures (never NULL-returning
 * in Redis: RedisModule_Alloc aborts on out of memory). */
void *sbfr_alloc(size_t n);
void *sbfr_calloc(size_t n, size_t size);
void *sbfr_realloc(void *p, size_t n);
void sbfr_free(void *p);

/* Module-wide settings: module arguments (RedisBloom's INITIAL_SIZE and
 * ERROR_RATE, and ours). */
typedef struct sbfr_settings {
    uint64_t capacity;  /* of a key that an add creates */
    double error;
    uint32_t expansion;
    int layout;
    uint64_t max_bytes; /* per sub-filter */
} sbfr_settings;
extern sbfr_settings sbfr_cfg;

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

extern const char *const sbfr_layout_names[4];
int sbfr_layout_from_name(const char *s, size_t n);

sbfr_chain *sbfr_chain_alloc(uint32_t nlinks);
void sbfr_chain_free(sbfr_chain *c);

/* A new chain of one empty sub-filter. Returns an SBF code; *why names a
 * refusal. */
int sbfr_chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                   uint32_t expansion, const char **why);

/* sbfr_chain_add1 results */
#define SBFR_ADD_NEW 1
#define SBFR_ADD_PRESENT 0
#define SBFR_ADD_FULL -1
#define SBFR_ADD_FAILED -2

/* One item, exactly as RedisBloom orders it (see chain.c). */
int sbfr_chain_add1(sbfr_chain *c, const char *s, size_t n, const char **why);

/* out[i] = 1 when one of the sub-filters [0, upto) may hold item i; tmp is
 * scratch of n bytes. */
void sbfr_links_contains_batch(const sbfr_chain *c, uint32_t upto, const void *const *ptr,
                               const size_t *len, size_t n, uint8_t *out, uint8_t *tmp);

uint64_t sbfr_chain_capacity(const sbfr_chain *c);
size_t sbfr_chain_mem(const sbfr_chain *c);

/* What a stored or dumped chain must be, whoever wrote it. */
int sbfr_valid_rate(double e);
int sbfr_valid_chain(uint64_t layout, uint64_t expansion, double error, uint64_t nlinks);
int sbfr_valid_link(uint64_t capacity, double error, uint64_t nbytes);

#endif /* SBFR_CHAIN_H_8C41E2B7 */
