/*
 * SBF_CONCURRENT: threads adding disjoint keys (single, u64-batched and
 * variable-length-batched calls mixed) while other threads query keys whose
 * add has completed; counting adds racing removes; unions racing adds. Every
 * layout, every ISA this CPU runs. Checked: no false negative ever, the final
 * bytes equal a sequential build by the scalar reference, keys_added exactly
 * the sum of what the threads' adds returned (the keys each changed) once
 * they are joined. Also run under ThreadSanitizer
 * (`make test-tsan`), which checks the queries and adds are free of races.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "testutil.h"

#define ADDERS 3
#define QUERIERS 2
#define PER 3000      /* keys per adder */
#define CHUNK 40      /* keys per call / per publication */

static const geometry geos[] = {
    { SBF_CLASSIC, 7, UINT64_C(1) << 17, 0 },
    { SBF_BLOCKED, 7, UINT64_C(1) << 17, 3 },
    { SBF_BLOCKED, 16, UINT64_C(1) << 17, 0 },
    { SBF_SPLIT_BLOCK, 8, UINT64_C(1) << 17, 0 },
    { SBF_SPLIT_BLOCK, 16, UINT64_C(1) << 17, 9 },
    { SBF_COUNTING, 7, UINT64_C(1) << 20, 0 },
};
#define NGEOS (sizeof geos / sizeof geos[0])

typedef struct shared {
    sbf_filter *f;
    const uint64_t *keys;           /* ADDERS * PER */
    atomic_size_t pub[ADDERS];      /* keys of adder t added so far */
    atomic_int adders_left;
    atomic_long false_neg;
    atomic_long queries;
    atomic_size_t changed;          /* what the adds returned, summed */
} shared;

typedef struct worker {
    shared *s;
    int id;
} worker;

/* Adder t: chunks of its keys through sbf_add_u64, sbf_add and
 * sbf_add_batch in turn, publishing each finished chunk (release). */
static void *adder(void *arg)
{
    const worker *w = arg;
    shared *s = w->s;
    const uint64_t *mine = s->keys + (size_t)w->id * PER;
    const void *ptrs[CHUNK];
    size_t lens[CHUNK], changed = 0;
    for (size_t base = 0, c = 0; base < PER; base += CHUNK, c++) {
        const size_t n = PER - base < CHUNK ? PER - base : CHUNK;
        sbf_keys k = { 0 };
        k.n = n;
        switch ((c + (size_t)w->id) % 3) {
        case 0:
            k.u64 = mine + base;
            changed += sbf_add_keys(s->f, &k, NULL);
            break;
        case 1:
            for (size_t i = 0; i < n; i++) {
                const int r = sbf_add(s->f, &mine[base + i], 8);
                cr_assert_geq(r, 0);
                changed += (size_t)r;
            }
            break;
        default:
            for (size_t i = 0; i < n; i++) {
                ptrs[i] = &mine[base + i];
                lens[i] = 8;
            }
            k.ptrs = ptrs;
            k.lens = lens;
            changed += sbf_add_keys(s->f, &k, NULL);
            break;
        }
        cr_assert_leq(changed, base + n, "an add counts at most its keys");
        atomic_store_explicit(&s->pub[w->id], base + n, memory_order_release);
    }
    atomic_fetch_add(&s->changed, changed);
    atomic_fetch_sub(&s->adders_left, 1);
    return NULL;
}

/* Queries published keys (acquire) one at a time and in small batches
 * until every adder is done: each must be found. */
static void *querier(void *arg)
{
    const worker *w = arg;
    shared *s = w->s;
    uint64_t rng = 0x1234u + (uint64_t)w->id;
    long fn = 0, q = 0;
    uint8_t out[16];
    while (atomic_load(&s->adders_left) > 0) {
        const int t = (int)(equiv_splitmix(&rng) % ADDERS);
        const size_t n = atomic_load_explicit(&s->pub[t], memory_order_acquire);
        if (n == 0)
            continue;
        const size_t i = (size_t)(equiv_splitmix(&rng) % n);
        const uint64_t *key = s->keys + (size_t)t * PER + i;
        fn += sbf_contains(s->f, key, 8) != 1;
        const size_t m = n - i < 16 ? n - i : 16;
        fn += (long)(m - sbf_contains_u64(s->f, key, m, out));
        const void *p = key;
        const size_t len = 8;
        fn += sbf_contains_batch(s->f, &p, &len, 1, NULL) != 1;
        q += 3;
    }
    atomic_fetch_add(&s->false_neg, fn);
    atomic_fetch_add(&s->queries, q);
    return NULL;
}

static void race_adds(int isa, const geometry *g)
{
    uint64_t *keys = equiv_keys(ADDERS * PER, 77 + (uint64_t)g->layout);
    cr_assert_not_null(keys);
    sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, g, 0);
    cr_assert_eq(sbf_add_u64(ref, keys, ADDERS * PER), SBF_OK);

    shared s;
    memset(&s, 0, sizeof s);
    s.f = tu_make_on(isa, g, SBF_CONCURRENT);
    s.keys = keys;
    for (int t = 0; t < ADDERS; t++)
        atomic_init(&s.pub[t], 0);
    atomic_init(&s.adders_left, ADDERS);
    atomic_init(&s.false_neg, 0);
    atomic_init(&s.queries, 0);
    atomic_init(&s.changed, 0);

    pthread_t th[ADDERS + QUERIERS];
    worker w[ADDERS + QUERIERS];
    for (int i = 0; i < ADDERS + QUERIERS; i++) {
        w[i].s = &s;
        w[i].id = i < ADDERS ? i : i - ADDERS;
        cr_assert_eq(pthread_create(&th[i], NULL, i < ADDERS ? adder : querier, &w[i]), 0);
    }
    for (int i = 0; i < ADDERS + QUERIERS; i++)
        pthread_join(th[i], NULL);

    cr_assert_eq(atomic_load(&s.false_neg), 0, "%s layout %d k %u: %ld false negatives in %ld queries",
                 sbf_isa_name(isa), g->layout, g->k, atomic_load(&s.false_neg),
                 atomic_load(&s.queries));
    cr_assert(equiv_same_bytes(ref, s.f), "%s layout %d k %u: bytes differ from the sequential build",
              sbf_isa_name(isa), g->layout, g->k);
    cr_assert_eq(equiv_same_answers(ref, s.f, keys, ADDERS * PER + 8, 0), 1);
    struct sbf_info in;
    cr_assert_eq(sbf_info(s.f, &in), SBF_OK);
    cr_assert_eq(in.keys_added, atomic_load(&s.changed), "keys_added: the adds that changed it");
    cr_assert_leq(in.keys_added, (uint64_t)ADDERS * PER);
    sbf_free(s.f);
    sbf_free(ref);
    free(keys);
}

static void check_adds(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s not available here", sbf_isa_name(isa));
    for (size_t g = 0; g < NGEOS; g++)
        race_adds(isa, &geos[g]);
}

Test(concurrent, adds_scalar, .description = "scalar: racing adds (single/u64/batch) and queries: no false negative, sequential bytes") { check_adds(SBF_ISA_SCALAR); }
Test(concurrent, adds_simde, .description = "simde: racing adds and queries: no false negative, sequential bytes") { check_adds(SBF_ISA_SIMDE); }
Test(concurrent, adds_avx2, .description = "avx2: racing adds and queries: no false negative, sequential bytes") { check_adds(SBF_ISA_AVX2); }
Test(concurrent, adds_avx512, .description = "avx512: racing adds and queries: no false negative, sequential bytes") { check_adds(SBF_ISA_AVX512); }
Test(concurrent, adds_neon, .description = "neon: racing adds and queries: no false negative, sequential bytes") { check_adds(SBF_ISA_NEON); }

/* ------------------------------------------------ counting: add vs remove */

typedef struct cshared {
    sbf_filter *f;
    const uint64_t *add, *del, *keep;   /* PER each per thread */
    atomic_int left;
    atomic_long false_neg, errors;
    atomic_size_t changed;              /* what the racing adds returned */
} cshared;

typedef struct cworker {
    cshared *s;
    int id;
} cworker;

static void *c_adder(void *arg)
{
    const cworker *w = arg;
    const uint64_t *mine = w->s->add + (size_t)w->id * PER;
    size_t changed = 0;
    for (size_t i = 0; i < PER; i += CHUNK) {
        if ((i / CHUNK) & 1) {
            sbf_keys k = { 0 };
            k.n = PER - i < CHUNK ? PER - i : CHUNK;
            k.u64 = mine + i;
            changed += sbf_add_keys(w->s->f, &k, NULL);
        } else {
            for (size_t j = i; j < i + CHUNK && j < PER; j++) {
                const int r = sbf_add(w->s->f, &mine[j], 8);
                cr_assert_geq(r, 0);
                changed += (size_t)r;
            }
        }
    }
    atomic_fetch_add(&w->s->changed, changed);
    atomic_fetch_sub(&w->s->left, 1);
    return NULL;
}

static void *c_remover(void *arg)
{
    const cworker *w = arg;
    const uint64_t *mine = w->s->del + (size_t)w->id * PER;
    long err = 0;
    for (size_t i = 0; i < PER; i++)
        err += sbf_remove(w->s->f, &mine[i], 8) != SBF_OK;
    atomic_fetch_add(&w->s->errors, err);
    atomic_fetch_sub(&w->s->left, 1);
    return NULL;
}

/* Keys added before the race and never removed stay present throughout. */
static void *c_querier(void *arg)
{
    const cworker *w = arg;
    uint64_t rng = 99;
    long fn = 0;
    while (atomic_load(&w->s->left) > 0) {
        const size_t i = (size_t)(equiv_splitmix(&rng) % (2 * PER));
        fn += sbf_contains(w->s->f, &w->s->keep[i], 8) != 1;
        fn += sbf_contains_u64(w->s->f, &w->s->keep[i], 1, NULL) != 1;
    }
    atomic_fetch_add(&w->s->false_neg, fn);
    return NULL;
}

static void check_counting(int isa)
{
    if (!sbf_isa_available(isa))
        cr_skip_test("%s not available here", sbf_isa_name(isa));
    const geometry g = { SBF_COUNTING, 7, UINT64_C(1) << 19, 5 };
    uint64_t *keys = equiv_keys(6 * PER, 4242);
    cr_assert_not_null(keys);
    const uint64_t *add = keys, *del = keys + 2 * PER, *keep = keys + 4 * PER;

    /* No counter may reach 15 in any order, or add/remove would not
     * commute: every add at once leaves none saturated. */
    sbf_filter *all = tu_make_on(SBF_ISA_SCALAR, &g, 0);
    cr_assert_eq(sbf_add_u64(all, keys, 6 * PER), SBF_OK);
    struct sbf_info in;
    cr_assert_eq(sbf_info(all, &in), SBF_OK);
    cr_assert_eq(in.saturated, 0, "test geometry too small: %llu saturated",
                 (unsigned long long)in.saturated);
    sbf_free(all);

    sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, &g, 0);
    cr_assert_eq(sbf_add_u64(ref, del, 2 * PER), SBF_OK);
    cr_assert_eq(sbf_add_u64(ref, keep, 2 * PER), SBF_OK);
    cr_assert_eq(sbf_add_u64(ref, add, 2 * PER), SBF_OK);
    for (size_t i = 0; i < 2 * PER; i++)
        cr_assert_eq(sbf_remove(ref, &del[i], 8), SBF_OK);

    cshared s;
    memset(&s, 0, sizeof s);
    s.f = tu_make_on(isa, &g, SBF_CONCURRENT);
    s.add = add;
    s.del = del;
    s.keep = keep;
    sbf_keys pre = { 0 };
    pre.n = 2 * PER;
    pre.u64 = del;
    size_t before = sbf_add_keys(s.f, &pre, NULL);
    pre.u64 = keep;
    before += sbf_add_keys(s.f, &pre, NULL);
    atomic_init(&s.changed, 0);
    atomic_init(&s.left, 4);
    atomic_init(&s.false_neg, 0);
    atomic_init(&s.errors, 0);
    pthread_t th[5];
    cworker w[5];
    for (int i = 0; i < 5; i++) {
        w[i].s = &s;
        w[i].id = i % 2;
        void *(*fn)(void *) = i < 2 ? c_adder : i < 4 ? c_remover : c_querier;
        cr_assert_eq(pthread_create(&th[i], NULL, fn, &w[i]), 0);
    }
    for (int i = 0; i < 5; i++)
        pthread_join(th[i], NULL);
    cr_assert_eq(atomic_load(&s.errors), 0, "a remove of an added key failed");
    cr_assert_eq(atomic_load(&s.false_neg), 0, "%s: kept keys reported absent", sbf_isa_name(isa));
    cr_assert(equiv_same_bytes(ref, s.f), "%s: counters differ from the sequential run",
              sbf_isa_name(isa));
    cr_assert_eq(sbf_info(s.f, &in), SBF_OK);
    /* every add counted what it changed; each of the 2 * PER removals took
     * one off if its key then tested absent (which a racing add may undo) */
    const uint64_t added = before + atomic_load(&s.changed);
    cr_assert(in.keys_added <= added && in.keys_added + 2 * PER >= added,
              "keys_added %llu, adds counted %llu, removals %d",
              (unsigned long long)in.keys_added, (unsigned long long)added, 2 * PER);
    sbf_free(s.f);
    sbf_free(ref);
    free(keys);
}

Test(concurrent, counting_scalar, .description = "scalar: counting adds racing removes equal the sequential counters") { check_counting(SBF_ISA_SCALAR); }
Test(concurrent, counting_simde, .description = "simde: counting adds racing removes equal the sequential counters") { check_counting(SBF_ISA_SIMDE); }
Test(concurrent, counting_avx2, .description = "avx2: counting adds racing removes equal the sequential counters") { check_counting(SBF_ISA_AVX2); }
Test(concurrent, counting_avx512, .description = "avx512: counting adds racing removes equal the sequential counters") { check_counting(SBF_ISA_AVX512); }
Test(concurrent, counting_neon, .description = "neon: counting adds racing removes equal the sequential counters") { check_counting(SBF_ISA_NEON); }

/* ------------------------------------------------------ unions racing adds */

typedef struct ushared {
    sbf_filter *dst;
    sbf_filter *src[ADDERS];
    const uint64_t *keys;
} ushared;

typedef struct uworker {
    ushared *s;
    int id;
} uworker;

static void *u_worker(void *arg)
{
    const uworker *w = arg;
    const uint64_t *mine = w->s->keys + (size_t)w->id * PER;
    for (size_t i = 0; i < PER; i++) {
        cr_assert_geq(sbf_add(w->s->dst, &mine[i], 8), 0);
        if (i == PER / 2)
            cr_assert_eq(sbf_union(w->s->dst, w->s->src[w->id]), SBF_OK);
    }
    return NULL;
}

Test(concurrent, unions, .description = "sbf_union into a concurrent filter racing adds: every layout, sequential bytes") {
    for (size_t gi = 0; gi < NGEOS; gi++) {
        const geometry *g = &geos[gi];
        uint64_t *keys = equiv_keys(2 * ADDERS * PER, 31 + gi);
        cr_assert_not_null(keys);
        sbf_filter *ref = tu_make_on(SBF_ISA_SCALAR, g, 0);
        cr_assert_eq(sbf_add_u64(ref, keys, 2 * ADDERS * PER), SBF_OK);
        ushared s;
        s.keys = keys;
        s.dst = tu_make_on(SBF_ISA_AUTO, g, SBF_CONCURRENT);
        for (int t = 0; t < ADDERS; t++) {
            s.src[t] = tu_make_on(SBF_ISA_AUTO, g, t == 0 ? SBF_CONCURRENT : 0);
            cr_assert_eq(sbf_add_u64(s.src[t], keys + (size_t)(ADDERS + t) * PER, PER), SBF_OK);
        }
        pthread_t th[ADDERS];
        uworker w[ADDERS];
        for (int t = 0; t < ADDERS; t++) {
            w[t].s = &s;
            w[t].id = t;
            cr_assert_eq(pthread_create(&th[t], NULL, u_worker, &w[t]), 0);
        }
        for (int t = 0; t < ADDERS; t++)
            pthread_join(th[t], NULL);
        cr_assert(equiv_same_bytes(ref, s.dst), "layout %d k %u: union bytes differ", g->layout, g->k);
        struct sbf_info in;
        cr_assert_eq(sbf_info(s.dst, &in), SBF_OK);
        /* a union's count is not the sum (keys may be in both): unknown */
        cr_assert_eq(in.keys_added, SBF_KEYS_UNKNOWN);
        for (int t = 0; t < ADDERS; t++)
            sbf_free(s.src[t]);
        sbf_free(s.dst);
        sbf_free(ref);
        free(keys);
    }
}

/* ------------------------------------------------------- single thread */

Test(concurrent, flags, .description = "unknown flag bits are SBF_E_FLAGS; copies stay concurrent; serialization round-trips") {
    sbf_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.expected_n = 1000;
    p.fpp = 0.01;
    sbf_filter *f = (sbf_filter *)&p; /* must be overwritten with NULL */
    p.flags = 4; /* 1: SBF_CONCURRENT, 2: SBF_ZEROED */
    cr_assert_eq(sbf_create(&f, &p), SBF_E_FLAGS);
    cr_assert_null(f);
    p.flags = SBF_CONCURRENT | (UINT32_C(1) << 31);
    cr_assert_eq(sbf_create(&f, &p), SBF_E_FLAGS);
    cr_assert_str_neq(sbf_strerror(SBF_E_FLAGS), sbf_strerror(-9999));
    p.flags = SBF_CONCURRENT;
    cr_assert_eq(sbf_create(&f, &p), SBF_OK);
    uint64_t keys[100];
    for (int i = 0; i < 100; i++)
        keys[i] = (uint64_t)i * 977;
    sbf_keys first = { 0 };
    first.n = 50;
    first.u64 = keys;
    const size_t changed = sbf_add_keys(f, &first, NULL);
    cr_assert(changed >= 49 && changed <= 50, "%zu", changed);
    for (int i = 50; i < 100; i++)
        cr_assert_eq(sbf_add(f, &keys[i], 8), 1, "a new key changes the answer");
    cr_assert_eq(sbf_add(f, &keys[7], 8), 0, "a present key changes nothing");
    sbf_filter *c = NULL;
    cr_assert_eq(sbf_copy(&c, f), SBF_OK);
    cr_assert_eq(sbf_add(c, &keys[0], 8), 0);
    struct sbf_info a, b;
    cr_assert_eq(sbf_info(f, &a), SBF_OK);
    cr_assert_eq(sbf_info(c, &b), SBF_OK);
    cr_assert_eq(a.keys_added, changed + 50, "adds that changed it; not the present key");
    cr_assert_eq(b.keys_added, changed + 50);
    void *buf = NULL;
    size_t len = 0;
    cr_assert_eq(sbf_serialize(f, &buf, &len), SBF_OK);
    sbf_filter *d = NULL;
    cr_assert_eq(sbf_deserialize(&d, buf, len), SBF_OK);
    cr_assert(equiv_same_bytes(f, d));
    cr_assert_eq(sbf_info(d, &b), SBF_OK);
    cr_assert_eq(b.keys_added, changed + 50);
    cr_assert_eq(sbf_clear(f), SBF_OK);
    cr_assert_eq(sbf_info(f, &a), SBF_OK);
    cr_assert_eq(a.keys_added, 0);
    cr_assert_eq(sbf_contains_u64(f, keys, 100, NULL), 0);
    sbf_buffer_free(buf);
    sbf_free(d);
    sbf_free(c);
    sbf_free(f);
}

Test(concurrent, guava_export, .description = "a concurrent classic filter exports Guava bytes equal to a plain one's") {
    const geometry g = { SBF_CLASSIC, 5, 64 * 100, 0 };
    sbf_filter *a = tu_make_on(SBF_ISA_AUTO, &g, SBF_CONCURRENT);
    sbf_filter *b = tu_make_on(SBF_ISA_AUTO, &g, 0);
    for (uint64_t i = 0; i < 300; i++) {
        cr_assert_geq(sbf_add(a, &i, 8), 0);
        cr_assert_geq(sbf_add(b, &i, 8), 0);
    }
    void *ba = NULL, *bb = NULL;
    size_t la = 0, lb = 0;
    cr_assert_eq(sbf_export_guava(a, &ba, &la), SBF_OK);
    cr_assert_eq(sbf_export_guava(b, &bb, &lb), SBF_OK);
    cr_assert(la == lb && memcmp(ba, bb, la) == 0);
    sbf_buffer_free(ba);
    sbf_buffer_free(bb);
    sbf_free(a);
    sbf_free(b);
}
