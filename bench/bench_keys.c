/*
 * The "keys" section: the false-positive rate on structured keys, beside the
 * layout's exact formula (the "fpr" section feeds random keys only).
 *
 * Each selected layout, at 10 bits per key (counting: counters per key; its
 * sizing's k for 1%, split-block and parquet k = 8), takes n = --fpr-n keys
 * of a pattern, key i for i < n, and is asked about the next 2^22 keys of
 * the same pattern (2^21 in a quick run), absent by construction:
 * counters, strides, aligned addresses and "user:<i>" strings, the keys
 * real services have. One filter per row: the keys are fixed, so a row is
 * one deterministic number (tests/test_key_patterns.c asserts the same
 * check). The interval is the 99.9% Wilson interval of the probes widened
 * by 3.29 times sbf_fpp_spread (the spread between filters: which keys went
 * in), as the test's; '*' marks an exact formula outside it.
 *
 * The control rows ("one multiply") run the same patterns through
 * sbf_add_hash / sbf_contains_hash of a split-block filter with a hash of
 * one 64x64 -> 128-bit multiply folded (hi ^ lo, Boost.Bloom's mix of an
 * integer), mapped to (h1, h2) as the parquet layout maps XXH64: what the
 * rows would show if a layout's hash were that cheap.
 */
#define _GNU_SOURCE 1
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdbloom_inline.h" /* sbf_parquet_pair */

#define KP_BPK 10
#define KP_Z 3.2905 /* two-sided 99.9% */
#define KP_CHUNK ((size_t)1 << 16)
#define KP_WIDTH 32 /* bytes per string key slot */

enum { KP_SEQ, KP_SHL32, KP_STRIDE, KP_SHL12, KP_HIGH, KP_USER, KP_NPAT };
static const char *const kp_name[KP_NPAT] = {
    "i", "i << 32", "i * 1000003", "i << 12", "2^63 + (i << 40)", "\"user:<i>\"",
};

typedef struct keys_row {
    int layout;            /* sbf_layout; -1: the one-multiply control (split-block) */
    int pattern;           /* KP_* */
    uint32_t k;
    uint64_t n, probes, fp;
    double measured, lo, hi, exact;
    int outside;
} keys_row;

/* Keys of pattern p stay distinct for i below this (a shift drops high bits). */
static uint64_t kp_limit(int p)
{
    switch (p) {
    case KP_SHL32: return UINT64_C(1) << 32;
    case KP_SHL12: return UINT64_C(1) << 52;
    case KP_HIGH: return UINT64_C(1) << 23;
    default: return UINT64_MAX; /* i; i * 1000003 (odd: a bijection mod 2^64); strings */
    }
}

static uint64_t kp_u64(int p, uint64_t i)
{
    switch (p) {
    case KP_SEQ: return i;
    case KP_SHL32: return i << 32;
    case KP_STRIDE: return i * 1000003u;
    case KP_SHL12: return i << 12;
    default: return UINT64_C(0x8000000000000000) | i << 40;
    }
}

static uint64_t kp_one_multiply(uint64_t key)
{
    __extension__ typedef unsigned __int128 u128;
    const u128 m = (u128)key * UINT64_C(0x9E3779B97F4A7C15);
    return (uint64_t)m ^ (uint64_t)(m >> 64);
}

/* Keys [first, first + len) of pattern p through the filter: added, or
 * counted as hits; control: through the one-multiply pair. */
typedef struct kp_buf {
    uint64_t u[KP_CHUNK];
    const void *ptr[KP_CHUNK];
    size_t len[KP_CHUNK];
    char text[KP_CHUNK * KP_WIDTH];
} kp_buf;

static uint64_t kp_chunk(sbf_filter *f, int p, int control, int add, uint64_t first,
                         size_t len, kp_buf *b)
{
    if (p == KP_USER) {
        for (size_t i = 0; i < len; i++) {
            char *at = b->text + i * KP_WIDTH;
            const int w = snprintf(at, KP_WIDTH, "user:%llu", (unsigned long long)(first + i));
            b->ptr[i] = at;
            b->len[i] = w > 0 ? (size_t)w : 0;
        }
        if (add)
            return (uint64_t)sbf_add_batch(f, b->ptr, b->len, len);
        return sbf_contains_batch(f, b->ptr, b->len, len, NULL);
    }
    for (size_t i = 0; i < len; i++)
        b->u[i] = kp_u64(p, first + i);
    if (!control) {
        if (add)
            return (uint64_t)sbf_add_u64(f, b->u, len);
        return sbf_contains_u64(f, b->u, len, NULL);
    }
    uint64_t hits = 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t h1, h2;
        sbf_parquet_pair(kp_one_multiply(b->u[i]), &h1, &h2);
        if (add)
            (void)sbf_add_hash(f, h1, h2);
        else
            hits += (uint64_t)(sbf_contains_hash(f, h1, h2) == 1);
    }
    return hits;
}

static void kp_row(const sbfb_opts *o, sbfb_results *r, int layout, int p, kp_buf *b)
{
    const int control = layout < 0;
    const int lay = control ? SBF_SPLIT_BLOCK : layout;
    const uint64_t n = o->fpr_n, probes = (uint64_t)1 << (o->quick ? 21 : 22);
    if (n > kp_limit(p) - probes) { /* the probes would repeat inserted keys */
        sbfb_note("keys %s: --fpr-n %llu keys and %llu probes need more than its %llu "
                  "distinct keys; row skipped", kp_name[p], (unsigned long long)n,
                  (unsigned long long)probes, (unsigned long long)kp_limit(p));
        return;
    }
    sbf_params prm = { 0 };
    prm.layout = lay;
    prm.expected_n = n;
    prm.fpp = 0.01;
    prm.bits = (uint64_t)KP_BPK * n * sbfb_cell_bits(lay);
    sbf_filter *f;
    const int rc = sbf_create(&f, &prm);
    if (rc != SBF_OK) {
        sbfb_note("keys %s %s: %s", sbfb_layout_name(lay), kp_name[p], sbf_strerror(rc));
        return;
    }
    sbfb_progress("keys %s%s, keys %s", sbfb_layout_name(lay), control ? " (one multiply)" : "",
                  kp_name[p]);
    for (uint64_t i = 0; i < n; i += KP_CHUNK)
        (void)kp_chunk(f, p, control, 1, i, n - i < KP_CHUNK ? (size_t)(n - i) : KP_CHUNK, b);
    uint64_t fp = 0;
    for (uint64_t i = 0; i < probes; i += KP_CHUNK)
        fp += kp_chunk(f, p, control, 0, n + i,
                       probes - i < KP_CHUNK ? (size_t)(probes - i) : KP_CHUNK, b);
    struct sbf_info in;
    sbf_info(f, &in);
    keys_row *e = sbfb_ext_add(r, &sbfb_sec_keys, sizeof *e);
    e->layout = layout;
    e->pattern = p;
    e->k = in.k;
    e->n = n;
    e->probes = probes;
    e->fp = fp;
    e->measured = (double)fp / (double)probes;
    e->exact = sbf_fpp_theory(f, n);
    /* Wilson at 99.9%, widened by the spread between filters */
    const double spread = sbf_fpp_spread(lay, n, in.bits, in.k);
    sbfb_wilson(fp, probes, KP_Z, &e->lo, &e->hi);
    e->lo -= KP_Z * spread;
    e->hi += KP_Z * spread;
    e->outside = !(e->exact >= e->lo && e->exact <= e->hi);
    sbf_free(f);
}

static void keys_run(const sbfb_opts *o, sbfb_results *r)
{
    (void)sbf_isa_set(SBF_ISA_AUTO);
    kp_buf *b = sbfb_xmalloc(sizeof *b);
    for (int l = 0; l < sbfb_nlayouts(); l++) {
        if (!(o->layouts & (1u << l)))
            continue;
        for (int p = 0; p < KP_NPAT; p++)
            kp_row(o, r, l, p, b);
    }
    for (int p = 0; p < KP_USER; p++) /* the control hashes u64 keys */
        kp_row(o, r, -1, p, b);
    free(b);
}

static void keys_table(FILE *out, const sbfb_results *r, int md)
{
    size_t n;
    const keys_row *rows = sbfb_ext_rows(r, &sbfb_sec_keys, &n);
    enum { NC = 8 };
    sbfb_tbl *t = sbfb_tbl_new(NC);
    const char *h[NC] = { "layout", "keys", "k", "probes", "measured", "99.9% interval",
                          "exact", "" };
    for (int c = 0; c < NC; c++) {
        sbfb_tbl_set(t, 0, c, "%s", h[c]);
        t->right[c] = c == 2 || c == 3 || c == 4 || c == 6;
    }
    sbfb_tbl_set(t, 0, NC - 1, md ? "mark" : "");
    for (size_t i = 0; i < n && i + 1 < SBFB_TBL_ROWS; i++) {
        const keys_row *e = &rows[i];
        const int row = (int)i + 1;
        if (e->layout < 0)
            sbfb_tbl_set(t, row, 0, "split-block, one multiply");
        else
            sbfb_tbl_set(t, row, 0, "%s", sbfb_layout_name(e->layout));
        sbfb_tbl_set(t, row, 1, "%s", kp_name[e->pattern]);
        sbfb_tbl_set(t, row, 2, "%u", e->k);
        sbfb_tbl_set(t, row, 3, "%.3g", (double)e->probes);
        sbfb_tbl_set(t, row, 4, "%.4f%%", 100 * e->measured);
        sbfb_tbl_set(t, row, 5, "[%.4f%%, %.4f%%]", 100 * e->lo, 100 * e->hi);
        sbfb_tbl_set(t, row, 6, "%.4f%%", 100 * e->exact);
        sbfb_tbl_set(t, row, 7, "%s", e->outside ? "*" : "");
    }
    sbfb_tbl_print(t, out, md);
    free(t);
}

static void keys_text(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    (void)o;
    const keys_row *rows = sbfb_ext_rows(r, &sbfb_sec_keys, &n);
    if (n == 0)
        return;
    fprintf(f, "\nFalse-positive rate on structured keys (n = %llu keys of each pattern, the "
               "next ones probed; * = exact formula outside the 99.9%% interval; \"one "
               "multiply\": a split-block filter fed a one-multiply hash, for contrast):\n",
            (unsigned long long)rows[0].n);
    keys_table(f, r, 0);
}

static void keys_md(FILE *f, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    (void)o;
    const keys_row *rows = sbfb_ext_rows(r, &sbfb_sec_keys, &n);
    if (n == 0)
        return;
    if (sbfb_md_part == SBFB_MD_SUMMARY) {
        int own = 0, own_out = 0, one = 0, one_out = 0;
        for (size_t i = 0; i < n; i++) {
            if (rows[i].layout < 0) {
                one++;
                one_out += rows[i].outside;
            } else {
                own++;
                own_out += rows[i].outside;
            }
        }
        fprintf(f, "\n### False-positive rate on structured keys\n\nEach layout with its own "
                   "hash: %d of %d rows outside the 99.9%% interval of the exact formula. A "
                   "split-block filter fed a one-multiply hash instead: %d of %d.\n",
                own_out, own, one_out, one);
        return;
    }
    if (sbfb_md_part == SBFB_MD_TABLES) {
        fprintf(f, "\n### False-positive rate on structured keys\n\n");
        keys_table(f, r, 1);
        return;
    }
    fprintf(f, "\n### False-positive rate on structured keys\n\nEach layout at %d bits per key "
               "(counting: counters) holds n = %llu keys of a pattern (key i for i < n) and is "
               "asked about the next %llu of the same pattern: counters, strides, aligned "
               "addresses, ids as text. One filter per row, so each row is a fixed number; the "
               "interval is the 99.9%% Wilson interval of the probes widened by 3.29 times "
               "the spread between filters (`sbf_fpp_spread`), as tests/test_key_patterns.c "
               "asserts; * marks an exact formula outside it. The last rows feed a "
               "split-block filter (`sbf_add_hash`) a hash of one 64x64 -> 128-bit multiply "
               "folded, the integer mix of the fastest one-key peers: what the table would "
               "show with a hash that cheap.\n",
            KP_BPK, (unsigned long long)rows[0].n, (unsigned long long)rows[0].probes);
}

static void keys_json(sbfb_jw *j, const sbfb_opts *o, const sbfb_results *r)
{
    size_t n;
    const keys_row *rows = sbfb_ext_rows(r, &sbfb_sec_keys, &n);
    (void)o;
    if (n == 0)
        return;
    sbfb_jw_open(j, "keys", '[', 0);
    for (size_t i = 0; i < n; i++) {
        const keys_row *e = &rows[i];
        sbfb_jw_open(j, NULL, '{', 1);
        sbfb_jw_str(j, "layout", e->layout < 0 ? "split-block" : sbfb_layout_name(e->layout));
        sbfb_jw_str(j, "hash", e->layout < 0 ? "one-multiply" : "layout");
        sbfb_jw_str(j, "keys", kp_name[e->pattern]);
        sbfb_jw_int(j, "k", e->k);
        sbfb_jw_u64(j, "n", e->n);
        sbfb_jw_u64(j, "probes", e->probes);
        sbfb_jw_u64(j, "false_positives", e->fp);
        sbfb_jw_num(j, "measured", e->measured);
        sbfb_jw_num(j, "lo", e->lo);
        sbfb_jw_num(j, "hi", e->hi);
        sbfb_jw_num(j, "exact", e->exact);
        sbfb_jw_bool(j, "outside", e->outside);
        sbfb_jw_close(j, '}');
    }
    sbfb_jw_close(j, ']');
}

const sbfb_section sbfb_sec_keys = {
    .name = "keys", .suite = SBFB_S_KEYS, .run = keys_run,
    .text = keys_text, .markdown = keys_md, .json = keys_json,
};
