/*
 * The scalable chain (chain.h): creation, growth, adds and batched queries
 * over simdbloom filters. No Redis: the host supplies sbfr_alloc & co.
 */
#include "chain.h"

#include <string.h>
#include <strings.h>

sbfr_settings sbfr_cfg = {
    .capacity = 100,
    .error = 0.01,
    .expansion = 2,
    .layout = SBF_BLOCKED,
    .max_bytes = UINT64_C(1) << 30,
};

const char *const sbfr_layout_names[4] = {"classic", "blocked", "split-block", "counting"};

int sbfr_layout_from_name(const char *s, size_t n)
{
    for (int i = 0; i < 4; i++)
        if (strlen(sbfr_layout_names[i]) == n && strncasecmp(s, sbfr_layout_names[i], n) == 0)
            return i;
    if (n == 5 && strncasecmp(s, "split", 5) == 0)
        return SBF_SPLIT_BLOCK;
    return -1;
}

void sbfr_chain_free(sbfr_chain *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; i < c->nlinks; i++)
        sbf_free(c->links[i].f);
    sbfr_free(c->links);
    sbfr_free(c->stage);
    sbfr_free(c);
}

sbfr_chain *sbfr_chain_alloc(uint32_t nlinks)
{
    sbfr_chain *c = sbfr_calloc(1, sizeof *c);
    c->links = sbfr_calloc(nlinks ? nlinks : 1, sizeof *c->links);
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
    if (bits / 8 > sbfr_cfg.max_bytes) {
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

int sbfr_chain_new(sbfr_chain **out, int layout, uint64_t capacity, double error,
                   uint32_t expansion, const char **why)
{
    if (layout == SBF_COUNTING)
        expansion = 0; /* see README: deletion needs to know the sub-filter */
    sbf_filter *f;
    int rc = link_create(&f, layout, capacity, first_error(error, expansion), why);
    if (rc != SBF_OK)
        return rc;
    sbfr_chain *c = sbfr_chain_alloc(1);
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
    c->links = sbfr_realloc(c->links, (c->nlinks + 1) * sizeof *c->links);
    sbfr_link *l = &c->links[c->nlinks++];
    memset(l, 0, sizeof *l);
    l->f = f;
    l->capacity = cap;
    l->error = err;
    return SBF_OK;
}

/* One item, exactly as RedisBloom orders it: present anywhere -> 0; else a
 * full newest sub-filter makes room (or the NONSCALING key is full), then
 * the item goes into the newest. Counting keys add every time (a multiset,
 * so that a later SBF.DEL cannot remove another item's counts). */
int sbfr_chain_add1(sbfr_chain *c, const char *s, size_t n, const char **why)
{
    sbfr_link *last = &c->links[c->nlinks - 1];
    int present = 0;
    for (uint32_t i = 0; i + 1 < c->nlinks && !present; i++)
        present = sbf_contains(c->links[i].f, s, n) == 1;
    if (c->layout == SBF_COUNTING) {
        present = present || sbf_contains(last->f, s, n) == 1;
        if (!present && last->items >= last->capacity)
            return SBFR_ADD_FULL;
        if (sbf_add(last->f, s, n) < 0)
            return SBFR_ADD_FAILED;
        last->items++;
        c->items++;
        return present ? SBFR_ADD_PRESENT : SBFR_ADD_NEW;
    }
    if (present)
        return SBFR_ADD_PRESENT;
    if (last->items >= last->capacity) {
        if (sbf_contains(last->f, s, n) == 1)
            return SBFR_ADD_PRESENT;
        if (c->expansion == 0)
            return SBFR_ADD_FULL;
        if (chain_grow(c, why) != SBF_OK)
            return SBFR_ADD_FAILED;
        last = &c->links[c->nlinks - 1];
    }
    if (sbf_add(last->f, s, n) != 1)
        return SBFR_ADD_PRESENT;
    last->items++;
    c->items++;
    return SBFR_ADD_NEW;
}

/* One batched, pipelined pass per sub-filter, newest (largest) first. */
void sbfr_links_contains_batch(const sbfr_chain *c, uint32_t upto, const void *const *ptr,
                               const size_t *len, size_t n, uint8_t *out, uint8_t *tmp)
{
    memset(out, 0, n);
    for (uint32_t l = upto; l-- > 0;) {
        sbf_contains_batch(c->links[l].f, ptr, len, n, l + 1 == upto ? out : tmp);
        if (l + 1 != upto)
            for (size_t i = 0; i < n; i++)
                out[i] |= tmp[i];
    }
}

uint64_t sbfr_chain_capacity(const sbfr_chain *c)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < c->nlinks; i++)
        s += c->links[i].capacity;
    return s;
}

size_t sbfr_chain_mem(const sbfr_chain *c)
{
    size_t s = sizeof *c + c->nlinks * sizeof *c->links + c->stage_len;
    for (uint32_t i = 0; i < c->nlinks; i++) {
        size_t n = 0;
        if (c->links[i].f != NULL && sbf_data(c->links[i].f, &n) != NULL)
            s += n;
    }
    return s;
}

int sbfr_valid_rate(double e)
{
    return e > 0 && e < 1;
}

int sbfr_valid_chain(uint64_t layout, uint64_t expansion, double error, uint64_t nlinks)
{
    return layout <= SBF_COUNTING && expansion <= SBFR_MAX_EXPANSION && sbfr_valid_rate(error) &&
           nlinks >= 1 && nlinks <= SBFR_MAX_LINKS &&
           !(layout == SBF_COUNTING && expansion != 0) && !(expansion == 0 && nlinks != 1);
}

int sbfr_valid_link(uint64_t capacity, double error, uint64_t nbytes)
{
    return capacity >= 1 && capacity <= SBFR_MAX_LINK_CAPACITY && sbfr_valid_rate(error) &&
           nbytes <= SBFR_MAX_LINK_BYTES;
}
