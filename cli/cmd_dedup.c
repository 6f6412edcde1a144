/*
 * sbf dedup: each line the first time it is seen, in input order.
 *
 * The input is cut into chunks of whole lines. A chunk is prepared (lines
 * split, keys found, keys hashed in SIMD lanes by the library's batched
 * calls, shard kept) by any thread, then decided by the main thread alone,
 * chunk after chunk in input order: each key, in order, is added to the
 * filter from its hash and is new when the add changed the filter. The
 * decisions are therefore those of one thread whatever --threads is, and so
 * is the output, byte for byte; threads take the preparing (reading stays
 * with the main thread, as do writing and the filter).
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "simdbloom_inline.h"

static const char *const help_dedup =
    "usage: sbf dedup [FILE...] [--expected N [--fpp P] | --fpp P] [--filter F]\n"
    "                 [--invert] [--count] [--tsv-field K | --json-field NAME]\n"
    "                 [--threads T] [--shard I/N] [--layout L] [--binary] [--quiet]\n"
    "                 [--ngrams N [--threshold T]] [--initial N] [--growth G]\n"
    "\n"
    "Writes each line of the FILEs (standard input when none, or -) the first\n"
    "time its key is seen, in input order, to standard output. Seen keys are\n"
    "kept in a Bloom filter: a new line is dropped as seen with the filter's\n"
    "false-positive rate P (default 0.01); a line seen before is never written\n"
    "twice. A summary goes to standard error (--quiet: none), and a progress\n"
    "line while it runs when standard error is a terminal.\n"
    "\n"
    "  --expected N   a filter sized for N distinct keys at rate P (fixed size;\n"
    "                 past N keys its rate rises). Without it the filter grows\n"
    "                 (a scalable filter: sub-filters of 1M keys (--initial),\n"
    "                 x2 each (--growth), so the rate stays under P at any size)\n"
    "  --filter F     the seen set across runs: F is loaded when it exists\n"
    "                 (its kind, size and rate are F's), and written at the end\n"
    "                 (crash-safe: a killed run leaves F as it was)\n"
    "  --invert       write the lines seen before instead (the duplicates)\n"
    "  --count        write only the number of lines that would be written\n"
    "  --tsv-field K  the key is the K-th tab-separated field (from 1)\n"
    "  --json-field NAME  the key is the string field NAME of a JSON Lines\n"
    "                 object (top level; the string as written, escapes kept).\n"
    "                 A line without the key is written as is (never a\n"
    "                 duplicate; not with --invert), counted and named on\n"
    "                 standard error (the first 5)\n"
    "  --threads T    threads that split and hash (default: 1); the output\n"
    "                 is the same for every T, byte for byte\n"
    "  --shard I/N    keep only the lines whose key falls in shard I of N\n"
    "                 (0 <= I < N, by the key's hash; needs --expected): N runs\n"
    "                 with --filter build parts that 'sbf union' joins into the\n"
    "                 filter one run over all the input makes\n"
    "  --layout L     blocked (default), split-block, classic or parquet\n"
    "  --ngrams N     documents, not lines (JSON Lines, the \"text\" field unless\n"
    "                 --json-field or --tsv-field): a document is a duplicate\n"
    "                 when a fraction >= T (--threshold, default 0.8) of its\n"
    "                 N-word n-grams were seen in earlier documents; every\n"
    "                 document's n-grams are then added (doc/dedup.md, bff)\n"
    "  --no-add       probe --filter F without adding to it or writing it:\n"
    "                 lines (documents) not in F (decontamination)\n"
    "  --binary       keep a trailing \\r in keys (default: a CRLF line's key\n"
    "                 is its LF twin's); lines are written as read\n"
    "A last line without a newline is written with one.\n";

#define CHUNK_BYTES (1u << 19)
#define MAX_THREADS 64
#define SHOW_MISSING 5

enum { D_NEW = 1, D_SEEN = 0, D_NOKEY = 2, D_OTHER = 3 };

typedef struct chunk {
    unsigned char *buf;
    size_t len, cap;
    const char *name;      /* the file, for messages */
    int first;             /* the first chunk of its file */
    /* prepared */
    size_t n, ncap;        /* lines */
    size_t *start, *end;   /* line bytes [start, end) without the newline */
    unsigned char *why;    /* D_NOKEY: 1 too few fields, 2 not a JSON object, 3 no such
                              field, 4 not a string */
    uint8_t *dec;          /* D_* per line */
    const void **kp;       /* keys of the lines that have one (compacted) */
    size_t *kl, *idx;      /* their lengths and lines */
    uint64_t *h1, *h2;
    uint8_t *added;
    size_t m;              /* keys */
    /* --ngrams: the words of every document, their hashes, and per line the
     * n-grams' place in h1/h2 (g0[i], gn[i] of them) */
    const void **wp;
    size_t *wl, wcap, hcap;
    uint64_t *wa, *wb;
    size_t *g0, *gn;
    uint64_t text_bytes, ngrams;
    int state;             /* 0 free, 1 read, 2 prepared */
} chunk;

typedef struct dedup {
    int tsv_field;               /* 0: none */
    const char *json_field;
    size_t json_len;
    int binary;
    uint64_t shard_i, shard_n;   /* shard_n 0: no sharding */
    uint32_t ngrams;             /* --ngrams N (0: keys are whole) */
    double threshold;            /* --threshold T */
    int no_add;                  /* --no-add: probe only (decontamination) */
    uint32_t seed;
    sbf_filter *f;               /* fixed size, or */
    sbf_scalable *s;             /* growing */
    sbf_view v;
    uint32_t block_words;
    /* threads */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    chunk *slots;
    size_t nslots;
    size_t *queue, qhead, qtail; /* slots to prepare */
    int stop;
} dedup;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL)
        fail("out of memory");
    return q;
}

/* ------------------------------------------------------------ keys */

/* The end of the JSON value at p (string, number, literal, object, array),
 * or NULL when it is not one. */
static const unsigned char *json_skip_string(const unsigned char *p, const unsigned char *e)
{
    for (p++; p < e; p++) {
        if (*p == '\\') {
            p++;
            continue;
        }
        if (*p == '"')
            return p + 1;
    }
    return NULL;
}

static const unsigned char *json_skip_value(const unsigned char *p, const unsigned char *e)
{
    if (p >= e)
        return NULL;
    if (*p == '"')
        return json_skip_string(p, e);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < e) {
            if (*p == '"') {
                p = json_skip_string(p, e);
                if (p == NULL)
                    return NULL;
                continue;
            }
            if (*p == '{' || *p == '[')
                depth++;
            else if (*p == '}' || *p == ']') {
                if (--depth == 0)
                    return p + 1;
            }
            p++;
        }
        return NULL;
    }
    const unsigned char *q = p;
    while (q < e && *q != ',' && *q != '}' && *q != ']' && *q != ' ' && *q != '\t' &&
           *q != '\r' && *q != '\n')
        q++;
    return q > p ? q : NULL;
}

static const unsigned char *json_ws(const unsigned char *p, const unsigned char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    return p;
}

/* The string field `name` of the top-level object in [p, e): its bytes
 * between the quotes. 0 found, else the D_NOKEY reason. */
static int json_field(const unsigned char *p, const unsigned char *e, const char *name,
                      size_t nl, const unsigned char **kp, size_t *kl)
{
    p = json_ws(p, e);
    if (p >= e || *p != '{')
        return 2;
    p = json_ws(p + 1, e);
    if (p < e && *p == '}')
        return 3;
    while (p < e) {
        if (*p != '"')
            return 2;
        const unsigned char *ke = json_skip_string(p, e);
        if (ke == NULL)
            return 2;
        const int match = (size_t)(ke - p - 2) == nl && memcmp(p + 1, name, nl) == 0;
        p = json_ws(ke, e);
        if (p >= e || *p != ':')
            return 2;
        p = json_ws(p + 1, e);
        const unsigned char *ve = json_skip_value(p, e);
        if (ve == NULL)
            return 2;
        if (match) {
            if (*p != '"')
                return 4;
            *kp = p + 1;
            *kl = (size_t)(ve - p - 2);
            return 0;
        }
        p = json_ws(ve, e);
        if (p < e && *p == ',') {
            p = json_ws(p + 1, e);
            continue;
        }
        return p < e && *p == '}' ? 3 : 2;
    }
    return 2;
}

static int is_space(unsigned char x)
{
    return x == ' ' || x == '\t' || x == '\r' || x == '\n' || x == '\f' || x == '\v';
}

static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

/* --ngrams: each document's words (between white space, a JSON string's
 * \n \t \r escapes counting as white space), hashed in SIMD lanes by the
 * library's batched MurmurHash3, then each run of N words combined into one
 * n-gram hash pair (order matters; the spacing between words does not). A
 * document of fewer than N words is one n-gram of all of them. */
static void ngram_hashes(const dedup *d, chunk *c)
{
    size_t nw = 0;
    const size_t N = d->ngrams;
    c->text_bytes = c->ngrams = 0;
    for (size_t j = 0; j < c->m; j++) {
        const unsigned char *p = c->kp[j], *e = p + c->kl[j];
        const size_t i = c->idx[j];
        c->g0[i] = nw; /* the first word, for now */
        c->text_bytes += c->kl[j];
        while (p < e) {
            if (is_space(*p)) {
                p++;
                continue;
            }
            if (*p == '\\' && p + 1 < e && (p[1] == 'n' || p[1] == 't' || p[1] == 'r')) {
                p += 2;
                continue;
            }
            const unsigned char *w = p;
            while (p < e && !is_space(*p) &&
                   !(*p == '\\' && p + 1 < e && (p[1] == 'n' || p[1] == 't' || p[1] == 'r')))
                p += *p == '\\' && p + 1 < e ? 2 : 1;
            if (nw == c->wcap) {
                c->wcap = c->wcap ? 2 * c->wcap : 65536;
                c->wp = xrealloc(c->wp, c->wcap * sizeof *c->wp);
                c->wl = xrealloc(c->wl, c->wcap * sizeof *c->wl);
                c->wa = xrealloc(c->wa, c->wcap * sizeof *c->wa);
                c->wb = xrealloc(c->wb, c->wcap * sizeof *c->wb);
            }
            c->wp[nw] = w;
            c->wl[nw] = (size_t)(p - w);
            nw++;
        }
        c->gn[i] = nw - c->g0[i]; /* words, for now */
    }
    if (sbf_murmur3_x64_128_batch(c->wp, c->wl, nw, d->seed, c->wa, c->wb) != SBF_OK)
        fail("hashing: out of range");
    /* n-grams: at most one per word */
    if (nw > c->hcap) {
        c->hcap = nw;
        c->h1 = xrealloc(c->h1, c->hcap * sizeof *c->h1);
        c->h2 = xrealloc(c->h2, c->hcap * sizeof *c->h2);
    }
    size_t ng = 0;
    for (size_t j = 0; j < c->m; j++) {
        const size_t i = c->idx[j], w0 = c->g0[i], words = c->gn[i];
        const size_t grams = words == 0 ? 0 : words < N ? 1 : words - N + 1;
        const size_t span = words < N ? words : N;
        c->g0[i] = ng;
        for (size_t g = 0; g < grams; g++) {
            uint64_t a = 0x9e3779b97f4a7c15ull * span, b = ~a;
            for (size_t q = 0; q < span; q++) {
                a = (a << 23 | a >> 41) ^ c->wa[w0 + g + q];
                a *= 0x87c37b91114253d5ull;
                b = (b << 29 | b >> 35) ^ c->wb[w0 + g + q];
                b *= 0x4cf5ad432745937full;
            }
            c->h1[ng] = fmix64(a ^ b);
            c->h2[ng] = fmix64(b + a);
            ng++;
        }
        c->gn[i] = grams;
    }
    c->ngrams += ng;
}

/* Splits, finds keys, hashes, keeps the shard: any thread. */
static void prepare(const dedup *d, chunk *c)
{
    const unsigned char *b = c->buf;
    size_t n = 0;
    const unsigned char *nl;
    size_t at = 0;
    do { /* the chunk ends a line: the segment after its last newline is one */
        nl = memchr(b + at, '\n', c->len - at);
        const size_t e = nl ? (size_t)(nl - b) : c->len;
        if (n == c->ncap) {
            c->ncap = c->ncap ? 2 * c->ncap : 4096;
            c->start = xrealloc(c->start, c->ncap * sizeof *c->start);
            c->end = xrealloc(c->end, c->ncap * sizeof *c->end);
            c->why = xrealloc(c->why, c->ncap);
            c->dec = xrealloc(c->dec, c->ncap);
            c->kp = xrealloc(c->kp, c->ncap * sizeof *c->kp);
            c->kl = xrealloc(c->kl, c->ncap * sizeof *c->kl);
            c->idx = xrealloc(c->idx, c->ncap * sizeof *c->idx);
            if (c->hcap < c->ncap) {
                c->hcap = c->ncap;
                c->h1 = xrealloc(c->h1, c->hcap * sizeof *c->h1);
                c->h2 = xrealloc(c->h2, c->hcap * sizeof *c->h2);
            }
            c->added = xrealloc(c->added, c->ncap);
            c->g0 = xrealloc(c->g0, c->ncap * sizeof *c->g0);
            c->gn = xrealloc(c->gn, c->ncap * sizeof *c->gn);
        }
        c->start[n] = at;
        c->end[n] = e;
        n++;
        at = e + 1;
    } while (nl != NULL);
    c->n = n;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = b + c->start[i], *e = b + c->end[i];
        if (!d->binary && e > p && e[-1] == '\r')
            e--;
        const unsigned char *kp = p;
        size_t kl = (size_t)(e - p);
        int why = 0;
        if (d->tsv_field > 0) {
            int f = 1;
            const unsigned char *q = p;
            while (f < d->tsv_field) {
                const unsigned char *t = memchr(q, '\t', (size_t)(e - q));
                if (t == NULL)
                    break;
                q = t + 1;
                f++;
            }
            if (f < d->tsv_field) {
                why = 1;
            } else {
                const unsigned char *t = memchr(q, '\t', (size_t)(e - q));
                kp = q;
                kl = (size_t)((t ? t : e) - q);
            }
        } else if (d->json_field != NULL) {
            why = json_field(p, e, d->json_field, d->json_len, &kp, &kl);
        }
        c->why[i] = (unsigned char)why;
        if (why) {
            c->dec[i] = D_NOKEY;
            continue;
        }
        c->kp[m] = kp;
        c->kl[m] = kl;
        c->idx[m] = i;
        m++;
    }
    c->m = m;
    if (d->ngrams) {
        ngram_hashes(d, c);
        return;
    }
    /* the keys' hashes, in SIMD lanes */
    int rc;
    if (d->s != NULL)
        rc = sbf_scalable_hash(d->s, (const void *const *)c->kp, c->kl, NULL, m, c->h1, c->h2);
    else /* the filter's layout hashes: MurmurHash3, XXH64 or XXH3 */
        rc = sbf_hash_pairs(d->f, (const void *const *)c->kp, c->kl, NULL, m, c->h1, c->h2);
    if (rc != SBF_OK)
        fail("hashing: %s", sbf_strerror(rc));
    /* the shard: by the block index rule of the key's first hash, so the
     * shards of a fixed filter own disjoint ranges of its blocks */
    if (d->shard_n > 1) {
        size_t k = 0;
        for (size_t j = 0; j < m; j++) {
            if (sbf_block_index(c->h1[j], d->shard_n) != d->shard_i) {
                c->dec[c->idx[j]] = D_OTHER;
                continue;
            }
            c->kp[k] = c->kp[j];
            c->kl[k] = c->kl[j];
            c->idx[k] = c->idx[j];
            c->h1[k] = c->h1[j];
            c->h2[k] = c->h2[j];
            k++;
        }
        m = k;
    }
    c->m = m;
}

/* ------------------------------------------------------------ decide */

/* --ngrams, in input order: a document whose n-grams were seen before in
 * a fraction >= T of them is a duplicate; every document's n-grams are then
 * added (as bff does). A document without words is new and adds nothing. */
static void decide_ngrams(dedup *d, chunk *c)
{
    for (size_t j = 0; j < c->m; j++) {
        const size_t i = c->idx[j], g = c->g0[i], n = c->gn[i];
        size_t seen = 0;
        if (d->s != NULL) {
            const size_t r = sbf_scalable_contains_hashes(d->s, c->h1 + g, c->h2 + g, n, NULL);
            const size_t a = d->no_add ? 0
                           : sbf_scalable_add_hashes(d->s, c->h1 + g, c->h2 + g, n, NULL);
            if (sbf_is_error(r) || sbf_is_error(a))
                fail("the growing filter: %s",
                     sbf_strerror(-(int)(SIZE_MAX - (sbf_is_error(r) ? r : a)) - 1));
            seen = r;
        } else {
            const uint32_t bw = d->block_words;
            for (size_t q = 0; q < n; q++) {
                if (bw && q + 8 < n)
                    __builtin_prefetch(d->v.words + sbf_block_index(c->h1[g + q + 8],
                                                                    d->v.nblocks) * bw, 0, 3);
                seen += (size_t)sbf_view_contains_hash(&d->v, c->h1[g + q], c->h2[g + q]);
            }
            for (size_t q = 0; q < n && !d->no_add; q++)
                if (sbf_view_add_hash(&d->v, c->h1[g + q], c->h2[g + q]) < 0)
                    fail("the filter: cannot add");
        }
        c->dec[i] = n > 0 && (double)seen >= d->threshold * (double)n ? D_SEEN : D_NEW;
    }
}

/* In input order, one thread: adds from the hashes; new when it changed. */
static void decide(dedup *d, chunk *c)
{
    if (d->ngrams) {
        decide_ngrams(d, c);
        return;
    }
    const size_t m = c->m;
    if (d->no_add) { /* new: absent from the filter, which stays as it is */
        if (d->s != NULL)
            (void)sbf_scalable_contains_hashes(d->s, c->h1, c->h2, m, c->added);
        else
            for (size_t j = 0; j < m; j++)
                c->added[j] = (uint8_t)sbf_view_contains_hash(&d->v, c->h1[j], c->h2[j]);
        for (size_t j = 0; j < m; j++)
            c->added[j] ^= 1;
    } else if (d->s != NULL) {
        const size_t r = sbf_scalable_add_hashes(d->s, c->h1, c->h2, m, c->added);
        if (sbf_is_error(r))
            fail("the growing filter: %s", sbf_strerror(-(int)(SIZE_MAX - r) - 1));
    } else {
        const sbf_view *v = &d->v;
        const uint32_t bw = d->block_words;
        for (size_t j = 0; j < m; j++) {
            if (bw && j + 8 < m)
                __builtin_prefetch(v->words + sbf_block_index(c->h1[j + 8], v->nblocks) * bw,
                                   1, 3);
            const int r = sbf_view_add_hash(v, c->h1[j], c->h2[j]);
            if (r < 0)
                fail("the filter: %s", sbf_strerror(r));
            c->added[j] = (uint8_t)r;
        }
    }
    for (size_t j = 0; j < m; j++)
        c->dec[c->idx[j]] = c->added[j] ? D_NEW : D_SEEN;
}

/* ------------------------------------------------------------ threads */

static void *worker(void *arg)
{
    dedup *d = arg;
    pthread_mutex_lock(&d->mu);
    for (;;) {
        while (!d->stop && d->qhead == d->qtail)
            pthread_cond_wait(&d->cv, &d->mu);
        if (d->qhead == d->qtail)
            break;
        chunk *c = &d->slots[d->queue[d->qhead++ % d->nslots]];
        pthread_mutex_unlock(&d->mu);
        prepare(d, c);
        pthread_mutex_lock(&d->mu);
        c->state = 2;
        pthread_cond_broadcast(&d->cv);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* ------------------------------------------------------------ input */

typedef struct input {
    const char *const *paths;
    int npaths, at;          /* the file being read */
    int fd;
    const char *name;
    unsigned char *carry;    /* a partial line from the last read */
    size_t clen, ccap;
    int fresh;               /* no chunk of this file handed out yet */
    int done;
} input;

static int next_file(input *in)
{
    if (in->fd >= 0 && in->fd != STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
    if (in->at >= in->npaths)
        return 0;
    const char *p = in->paths[in->at++];
    in->fresh = 1;
    if (strcmp(p, "-") == 0) {
        in->fd = STDIN_FILENO;
        in->name = "standard input";
        return 1;
    }
    in->name = p;
    in->fd = open(p, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0)
        fail("%s: %s", p, strerror(errno));
    struct stat st;
    if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode))
        fail("%s: is a directory", p);
    return 1;
}

/* Fills c with whole lines (at least one unless the input is done): the
 * carried partial line, then reads until a newline. 0 at the end. */
static int read_chunk(input *in, chunk *c)
{
    c->len = 0;
    for (;;) {
        if (in->done)
            return 0;
        if (in->fd < 0 && !next_file(in)) {
            in->done = 1;
            return 0;
        }
        if (c->cap < in->clen + CHUNK_BYTES) {
            c->cap = in->clen + CHUNK_BYTES;
            c->buf = xrealloc(c->buf, c->cap);
        }
        if (in->clen > 0)
            memcpy(c->buf, in->carry, in->clen);
        size_t len = in->clen;
        ssize_t r;
        do
            r = read(in->fd, c->buf + len, c->cap - len);
        while (r < 0 && errno == EINTR);
        if (r < 0)
            fail("%s: %s", in->name, strerror(errno));
        len += (size_t)r;
        c->name = in->name;
        c->first = in->fresh;
        if (r == 0) { /* end of this file: its last line ends here */
            in->clen = 0;
            if (in->fd != STDIN_FILENO)
                close(in->fd);
            in->fd = -1;
            if (len == 0)
                continue;
            c->len = len;
            in->fresh = 0;
            return 1;
        }
        /* keep whole lines; carry the rest */
        const unsigned char *nl = memrchr(c->buf, '\n', len);
        const size_t whole = nl ? (size_t)(nl - c->buf) + 1 : 0;
        in->clen = len - whole;
        if (in->clen > in->ccap) {
            in->ccap = in->clen * 2;
            in->carry = xrealloc(in->carry, in->ccap);
        }
        if (in->clen > 0)
            memcpy(in->carry, c->buf + whole, in->clen);
        if (whole == 0)
            continue; /* one line longer than the buffer: read more */
        c->len = whole - 1; /* the final newline is the last line's end */
        in->fresh = 0;
        return 1;
    }
}

/* ------------------------------------------------------------ output */

typedef struct output {
    unsigned char *buf;
    size_t len, cap;
} output;

static void out_flush(output *o)
{
    size_t at = 0;
    while (at < o->len) {
        const ssize_t w = write(STDOUT_FILENO, o->buf + at, o->len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            fail("standard output: %s", strerror(errno));
        at += (size_t)w;
    }
    o->len = 0;
}

static void out_line(output *o, const unsigned char *p, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        out_flush(o);
        if (n + 1 > o->cap) {
            o->cap = n + 1;
            o->buf = xrealloc(o->buf, o->cap);
        }
    }
    memcpy(o->buf + o->len, p, n);
    o->buf[o->len + n] = '\n';
    o->len += n + 1;
}

/* ------------------------------------------------------------ the filter */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t parse_count(const char *opt, const char *s)
{
    uint64_t v;
    const int rc = num_count(s, &v);
    if (rc != 1 || v == 0)
        usage_error("%s: not a positive count (5000, 1e6, 10M): '%s'", opt,
                    show_text(s, strlen(s)));
    return v;
}

static void fill_fpp(const dedup *d, double *fill, double *fpp, uint64_t *keys, size_t *bytes)
{
    struct sbf_info in;
    if (d->s != NULL) {
        struct sbf_scalable_info si;
        sbf_scalable_info(d->s, &si);
        sbf_info_ex(sbf_scalable_filter(d->s, si.filters - 1), &in, SBF_INFO_SAMPLE);
        *fill = in.fill_ratio;
        *fpp = si.fpp_bound;
        *keys = si.keys;
        *bytes = si.bytes;
        return;
    }
    sbf_info_ex(d->f, &in, SBF_INFO_SAMPLE);
    *fill = in.fill_ratio;
    *fpp = in.keys_added == SBF_KEYS_UNKNOWN ? in.fpp_estimated : in.fpp_now;
    *keys = in.keys_added == SBF_KEYS_UNKNOWN ? (uint64_t)in.est_cardinality : in.keys_added;
    *bytes = in.bytes;
}

int cmd_dedup(int argc, char **argv)
{
    args a;
    parse_args(argc, argv,
               " --expected= --fpp= --filter= --invert --count --tsv-field= --json-field="
               " --threads= --shard= --layout= --binary --quiet --initial= --growth= --seed="
               " --ngrams= --threshold= --no-add ",
               help_dedup, 0, ARGS_MAX_POS, &a);
    dedup d;
    memset(&d, 0, sizeof d);
    const int invert = opt_flag(&a, "--invert"), count_only = opt_flag(&a, "--count");
    const int quiet = opt_flag(&a, "--quiet");
    d.binary = opt_flag(&a, "--binary");
    const char *s;
    if ((s = opt_val(&a, "--tsv-field")) != NULL) {
        const uint64_t k = parse_u64_arg("--tsv-field", s);
        if (k == 0 || k > 1000000)
            usage_error("--tsv-field: a field number from 1: '%s'", s);
        d.tsv_field = (int)k;
    }
    if ((d.json_field = opt_val(&a, "--json-field")) != NULL) {
        if (d.tsv_field)
            usage_error("--tsv-field and --json-field are exclusive");
        d.json_len = strlen(d.json_field);
    }
    if ((s = opt_val(&a, "--ngrams")) != NULL) {
        const uint64_t n = parse_u64_arg("--ngrams", s);
        if (n == 0 || n > 1000)
            usage_error("--ngrams: 1..1000 words: '%s'", s);
        d.ngrams = (uint32_t)n;
        if (d.json_field == NULL && d.tsv_field == 0) {
            d.json_field = "text";
            d.json_len = 4;
        }
    }
    d.no_add = opt_flag(&a, "--no-add");
    if (d.no_add && opt_val(&a, "--filter") == NULL)
        usage_error("--no-add needs --filter (the filter to probe)");
    d.threshold = 0.8;
    if ((s = opt_val(&a, "--threshold")) != NULL) {
        if (!d.ngrams)
            usage_error("--threshold is for --ngrams");
        if (!num_decimal(s, &d.threshold) || !(d.threshold > 0 && d.threshold <= 1))
            usage_error("--threshold: a fraction in (0, 1]: '%s'", show_text(s, strlen(s)));
    }
    uint64_t threads = 1;
    if ((s = opt_val(&a, "--threads")) != NULL) {
        threads = parse_u64_arg("--threads", s);
        if (threads == 0 || threads > MAX_THREADS)
            usage_error("--threads: 1..%d: '%s'", MAX_THREADS, s);
    }
    if ((s = opt_val(&a, "--shard")) != NULL) {
        const char *slash = strchr(s, '/');
        if (slash == NULL || !num_u64((const unsigned char *)s, (size_t)(slash - s), &d.shard_i) ||
            !num_u64((const unsigned char *)slash + 1, strlen(slash + 1), &d.shard_n) ||
            d.shard_n == 0 || d.shard_i >= d.shard_n)
            usage_error("--shard: I/N with 0 <= I < N: '%s'", show_text(s, strlen(s)));
    }
    double fpp = 0.01;
    const char *fpps = opt_val(&a, "--fpp");
    if (fpps && (!num_decimal(fpps, &fpp) || !(fpp > 0 && fpp < 1)))
        usage_error("--fpp: a rate between 0 and 1: '%s'", show_text(fpps, strlen(fpps)));
    int layout = SBF_BLOCKED;
    if ((s = opt_val(&a, "--layout")) != NULL) {
        layout = sbf_layout_from_name(s);
        struct sbf_layout_info li;
        if (layout < 0 || sbf_layout_info(layout, 0, &li) != SBF_OK || li.cell_bits != 1)
            usage_error("--layout: blocked, split-block, classic or parquet: '%s'",
                        show_text(s, strlen(s)));
    }
    const char *exp = opt_val(&a, "--expected");
    const uint64_t seed = opt_val(&a, "--seed") ? parse_u64_arg("--seed", opt_val(&a, "--seed"))
                                                : 0;
    if (seed > UINT32_MAX)
        usage_error("--seed: 0..4294967295");
    const uint64_t initial = opt_val(&a, "--initial")
                                 ? parse_count("--initial", opt_val(&a, "--initial")) : 1000000;
    const uint64_t growth = opt_val(&a, "--growth")
                                ? parse_u64_arg("--growth", opt_val(&a, "--growth")) : 2;
    if (growth < 2 || growth > 1024)
        usage_error("--growth: 2..1024");
    if (d.shard_n > 1 && d.ngrams)
        usage_error("--shard and --ngrams: a document's n-grams fall in every shard");
    if (d.shard_n > 1 && !exp && opt_val(&a, "--filter") == NULL)
        usage_error("--shard needs --expected: the shards of a fixed filter union into the "
                    "filter one run would make; a growing filter's shards would each fill "
                    "its sub-filters with a part of the keys");
    if (exp && (opt_val(&a, "--initial") || opt_val(&a, "--growth")))
        usage_error("--initial and --growth are for a growing filter (no --expected)");

    /* every input readable before any line is written or the filter touched */
    for (int i = 0; i < a.npos; i++) {
        if (strcmp(a.pos[i], "-") == 0)
            continue;
        const int fd = open(a.pos[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            fail("%s: %s", a.pos[i], strerror(errno));
        close(fd);
    }
    /* the filter: the file's, or a new one */
    const char *fpath = opt_val(&a, "--filter");
    struct stat st;
    const int have_file = fpath != NULL && stat(fpath, &st) == 0;
    sbf_file_lock *lock = NULL;
    if (have_file) {
        lock = lock_path(fpath);
        if (is_scalable_file(fpath)) {
            d.s = open_scalable(fpath);
        } else {
            d.f = open_own(fpath);
        }
    } else if (exp) {
        sbf_params p = { 0 };
        p.layout = layout;
        p.expected_n = parse_count("--expected", exp);
        p.fpp = fpp;
        p.seed = (uint32_t)seed;
        const int rc = sbf_create(&d.f, &p);
        if (rc != SBF_OK)
            fail("cannot make the filter: %s", sbf_strerror(rc));
    } else {
        sbf_scalable_params p = { 0 };
        p.layout = layout;
        p.initial_n = initial;
        p.fpp = fpp;
        p.growth = (uint32_t)growth;
        p.seed = (uint32_t)seed;
        const int rc = sbf_scalable_create(&d.s, &p);
        if (rc != SBF_OK)
            fail("cannot make the filter: %s", sbf_strerror(rc));
    }
    if (d.f != NULL) {
        struct sbf_info in;
        sbf_info_ex(d.f, &in, SBF_INFO_SAMPLE);
        struct sbf_layout_info li;
        if (sbf_layout_info(in.layout, in.k, &li) != SBF_OK || li.cell_bits != 1)
            fail("%s: a %s filter; dedup needs one of bits (blocked, split-block, classic, "
                 "parquet)", fpath, sbf_layout_name(in.layout));
        d.seed = in.seed;
        if (sbf_view_get_writable(d.f, &d.v) != SBF_OK)
            fail("the filter is read-only");
        d.block_words = d.v.add == SBF_VIEW_CALL ? 0
                      : d.v.add == SBF_VIEW_SPLIT8 || d.v.add == SBF_VIEW_PARQUET ||
                          d.v.add == SBF_VIEW_SPLIT8_XXH3 ? 4 : 8;
    }

    /* threads: T - 1 workers prepare; the main thread reads and decides */
    const size_t workers = (size_t)threads - 1;
    d.nslots = workers ? 2 * (size_t)threads : 1;
    d.slots = calloc(d.nslots, sizeof *d.slots);
    d.queue = calloc(d.nslots, sizeof *d.queue);
    if (d.slots == NULL || d.queue == NULL)
        fail("out of memory");
    pthread_t tid[MAX_THREADS];
    pthread_mutex_init(&d.mu, NULL);
    pthread_cond_init(&d.cv, NULL);
    for (size_t t = 0; t < workers; t++)
        if (pthread_create(&tid[t], NULL, worker, &d) != 0)
            fail("cannot start a thread");

    static const char *const stdin_only[1] = { "-" };
    input in = { a.npos ? a.pos : stdin_only, a.npos ? a.npos : 1, 0, -1, NULL, NULL, 0, 0, 0,
                 0 };
    (void)in.fresh;
    output o = { NULL, 0, 1u << 20 };
    o.buf = xrealloc(NULL, o.cap);
    uint64_t total_ngrams = 0, text_bytes = 0;
    uint64_t file_lines = 0, lines = 0, fresh = 0, seen = 0, nokey = 0, other = 0, written = 0;
    const double t0 = now_s();
    double last = t0;
    const int tty = isatty(STDERR_FILENO);
    int shown = 0;
    size_t next_read = 0, next_done = 0;
    for (;;) {
        /* read ahead while a slot is free */
        while (!in.done && next_read - next_done < d.nslots) {
            chunk *c = &d.slots[next_read % d.nslots];
            if (!read_chunk(&in, c))
                break;
            if (workers) {
                pthread_mutex_lock(&d.mu);
                c->state = 1;
                d.queue[d.qtail++ % d.nslots] = next_read % d.nslots;
                pthread_cond_broadcast(&d.cv);
                pthread_mutex_unlock(&d.mu);
            } else {
                prepare(&d, c);
                c->state = 2;
            }
            next_read++;
        }
        if (next_done == next_read)
            break;
        chunk *c = &d.slots[next_done % d.nslots];
        if (workers) {
            pthread_mutex_lock(&d.mu);
            while (c->state != 2)
                pthread_cond_wait(&d.cv, &d.mu);
            pthread_mutex_unlock(&d.mu);
        }
        decide(&d, c);
        if (c->first)
            file_lines = 0;
        for (size_t i = 0; i < c->n; i++) {
            const unsigned char *p = c->buf + c->start[i];
            const size_t n = c->end[i] - c->start[i];
            const int dec = c->dec[i];
            int write_it = 0;
            if (dec == D_NEW) {
                fresh++;
                write_it = !invert;
            } else if (dec == D_SEEN) {
                seen++;
                write_it = invert;
            } else if (dec == D_NOKEY) {
                nokey++;
                write_it = !invert;
                if (nokey <= SHOW_MISSING) {
                    static const char *const why[] = { "", "fewer fields than --tsv-field",
                                                       "not a JSON object", "no such field",
                                                       "the field is not a string" };
                    const uint64_t ln = file_lines + i + 1;
                    fprintf(stderr, "%s: %s: line %llu has no key (%s%s%s): %s\n", prog,
                            c->name, (unsigned long long)ln, why[c->why[i]],
                            c->why[i] >= 3 ? ": " : "", c->why[i] >= 3 ? d.json_field : "",
                            show_text(p, n));
                }
            } else {
                other++;
            }
            if (write_it) {
                written++;
                if (!count_only)
                    out_line(&o, p, n);
            }
        }
        lines += c->n;
        file_lines += c->n;
        total_ngrams += c->ngrams;
        text_bytes += c->text_bytes;
        c->state = 0;
        next_done++;
        if (tty && !quiet) {
            const double t = now_s();
            if (t - t0 >= 1.0 && t - last >= 0.25) {
                last = t;
                shown = 1;
                double fill, efpp;
                uint64_t keys;
                size_t bytes;
                fill_fpp(&d, &fill, &efpp, &keys, &bytes);
                fprintf(stderr, "\r%s: dedup: %llu lines, %llu new (%.2f M lines/s), "
                        "filter %.0f%% full, fpp %.3g  ", prog, (unsigned long long)lines,
                        (unsigned long long)fresh, (double)lines / (t - t0) / 1e6,
                        100 * fill, efpp);
            }
        }
    }
    if (workers) {
        pthread_mutex_lock(&d.mu);
        d.stop = 1;
        pthread_cond_broadcast(&d.cv);
        pthread_mutex_unlock(&d.mu);
        for (size_t t = 0; t < workers; t++)
            pthread_join(tid[t], NULL);
    }
    if (shown)
        fputc('\n', stderr);
    if (count_only) {
        char num[32];
        const int k = snprintf(num, sizeof num, "%llu", (unsigned long long)written);
        out_line(&o, (const unsigned char *)num, (size_t)k);
    }
    out_flush(&o);
    if (fpath != NULL && !d.no_add) {
        if (d.s != NULL) {
            const int rc = sbf_scalable_save(d.s, fpath);
            if (rc != SBF_OK)
                fail_code(fpath, rc);
        } else {
            save(d.f, fpath);
        }
    }
    if (!quiet) {
        const double t = now_s() - t0;
        double fill, efpp;
        uint64_t keys;
        size_t bytes;
        fill_fpp(&d, &fill, &efpp, &keys, &bytes);
        fprintf(stderr, "%s: dedup: %llu lines: %llu new, %llu seen before", prog,
                (unsigned long long)lines, (unsigned long long)fresh, (unsigned long long)seen);
        if (nokey)
            fprintf(stderr, ", %llu without a key (written as is)", (unsigned long long)nokey);
        if (other)
            fprintf(stderr, ", %llu in other shards", (unsigned long long)other);
        if (d.ngrams)
            fprintf(stderr, "; %llu %u-grams of %.1f MB of text (%.2f M n-grams/s, %.1f MB/s)",
                    (unsigned long long)total_ngrams, d.ngrams, (double)text_bytes / 1e6,
                    t > 0 ? (double)total_ngrams / t / 1e6 : 0.0,
                    t > 0 ? (double)text_bytes / t / 1e6 : 0.0);
        fprintf(stderr, "; filter %s, %llu keys, %.1f MB, %s%.0f%% full, fpp %.3g; "
                "%.2f s (%.2f M lines/s)\n", d.s ? "growing" : "fixed", (unsigned long long)keys,
                (double)bytes / 1e6, d.s ? "newest " : "", 100 * fill, efpp, t,
                t > 0 ? (double)lines / t / 1e6 : 0.0);
    }
    for (size_t i = 0; i < d.nslots; i++) {
        chunk *c = &d.slots[i];
        free(c->buf);
        free(c->start);
        free(c->end);
        free(c->why);
        free(c->dec);
        free(c->kp);
        free(c->kl);
        free(c->idx);
        free(c->h1);
        free(c->h2);
        free(c->added);
        free(c->g0);
        free(c->gn);
        free(c->wp);
        free(c->wl);
        free(c->wa);
        free(c->wb);
    }
    free(d.slots);
    free(d.queue);
    free(in.carry);
    free(o.buf);
    pthread_mutex_destroy(&d.mu);
    pthread_cond_destroy(&d.cv);
    sbf_free(d.f);
    sbf_scalable_free(d.s);
    sbf_unlock_file(lock);
    return 0;
}
