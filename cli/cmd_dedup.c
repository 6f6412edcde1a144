/*
 * sbf dedup: each line the first time it is seen, in input order.
 *
 * The input is cut into chunks of whole lines (a regular file is mapped,
 * a pipe read). Each chunk passes three stages, each a task any of the
 * --threads threads may take:
 *   prepare  lines split, keys found, keys (or n-grams) hashed in SIMD
 *            lanes, and each hash routed to the part of the filter that
 *            holds its block: the filter's blocks are cut into P ranges
 *            (parts), and a key's block is sbf_block_index(h1, nblocks);
 *   decide   part p of chunk c: the keys of c whose block is in part p,
 *            in input order, added (new when the add changed the filter);
 *            part p of chunk c only after part p of chunk c - 1, and one
 *            thread at a time per part;
 *   format   the chunk's output bytes, once all its parts are decided.
 * Reading the next chunk and writing the oldest (in input order) are tasks
 * too, each taken by one thread at a time, first. A key and its
 * earlier copies have the same block, so they meet in one part, in input
 * order: every verdict is the one a single thread adding the keys one by
 * one gives, and the output is the same for every --threads, byte for byte.
 * A part's blocks are written by one thread at a time; its adds are
 * counted in its own counter, summed into the filter's at the end.
 * A growing filter's new key goes into the newest sub-filter, which one
 * depends on how many came before: a chunk is decided by parts (of the
 * newest's blocks) only when all its keys fit in the newest's room, else
 * as one task after every earlier chunk (grow_* below). When the keys
 * cannot be routed (the classic layout, whose bits spread over the whole
 * filter; two threads, where routing costs more than it gives) P is 1:
 * deciding is one task per chunk, in order, and the other stages run
 * beside it.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_dedup_pass.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* portable inline probes, not the library's one-key kernels: an inline add
 * counts into the view's counter, which each part points at its own (the
 * kernels count into the filter's, which the parts' threads would race on) */
#define SBF_INLINE_NO_KERNELS 1
#include "simdbloom_inline.h"

static const char *const help_dedup =
    "usage: sbf dedup [FILE...] [--expected N [--fpp P] | --fpp P] [--filter F]\n"
    "                 [--invert] [--count] [--tsv-field K | --json-field NAME]\n"
    "                 [--threads T] [--shard I/N] [--layout L] [--binary] [--quiet]\n"
    "                 [--ngrams N [--threshold T] [--paragraphs] [--annotate]\n"
    "                 [--remove-type document|paragraph|both]]\n"
    "                 [--initial N] [--growth G]\n"
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
    "                 (a scalable filter: sub-filters x2 each (--growth), so the\n"
    "                 rate stays under P at any size; the first for --initial\n"
    "                 keys, default a quarter of the input's lines when its\n"
    "                 files are regular (estimated from their size), at least 1M)\n"
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
    "  --threads T    threads (default: the CPUs this process may run on, at\n"
    "                 most 64); the output is the same for every T, byte for byte\n"
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
    "  --paragraphs   with --ngrams: decide each paragraph of the text (split\n"
    "                 at its \\n escapes) instead of the document; a document\n"
    "                 is written without its duplicate paragraphs (--invert:\n"
    "                 with only those), and not at all when none is left\n"
    "  --remove-type document|paragraph|both  bff's names: document (the\n"
    "                 default), paragraph (--paragraphs), both: paragraphs as\n"
    "                 --paragraphs, and a document left out whole when a\n"
    "                 fraction >= T of all its n-grams were seen\n"
    "  --annotate     with --ngrams (JSON): write every document, with the\n"
    "                 members \"sbf_duplicate_fraction\" (its n-grams seen before)\n"
    "                 and \"sbf_duplicate_spans\" ([start, end) in characters of\n"
    "                 the text: the duplicate document or paragraphs) added\n"
    "  --no-add       probe --filter F without adding to it or writing it:\n"
    "                 lines (documents) not in F (decontamination)\n"
    "  --binary       keep a trailing \\r in keys (default: a CRLF line's key\n"
    "                 is its LF twin's); lines are written as read\n"
    "A last line without a newline is written with one.\n";

#define CHUNK_BYTES (1u << 19)
#define MAPPED_CHUNK_BYTES (1u << 23) /* a mapped probe's batch: more keys a page */
#define RELEASE_BYTES ((size_t)1 << 25) /* an input map's pages given back at a time */
#define MAX_THREADS 64
#define MAX_PARTS 256
#define SHOW_MISSING 5
/* a growing filter's first sub-filter when --initial is not given: a quarter
 * of the input's lines, within these bounds */
#define INITIAL_MIN 1000000
#define INITIAL_MAX ((uint64_t)1 << 28) /* 268M keys, ~430 MB at 1% */
/* the decision prefetches the block of the key this many places ahead: a
 * filter larger than the caches costs a memory latency a key, and 32 keys
 * in flight hide it (50M keys, a 62 MB filter, one thread, the 2-vCPU Zen 5
 * VM at load 2-3: 8 ahead 1.12-1.14 s of deciding, 16 0.79-1.07 s, 32
 * 0.67-0.72 s, 48 no better) */
#define AHEAD 32
/* a growing filter's passes (decide_part_grow) go over this many keys at a
 * time (0: all of a part's) */
#define PASS_GROUP 1024
#define SPLIT_AHEAD 2048
/* a range read in parallel is read this far past its end, where its last
 * line most often ends (else it reads on) */
#define READ_PAST 8192
/* the lines copied out are read again from memory (the chunk was read a
 * while before, on either thread): the bytes this far on are asked for
 * (2 threads, 50M lines, fixed filter, loaded VM: formatting 0.31-0.34 s
 * against 0.40-0.42 s; one thread 0.28-0.29 s either way) */
#define FORMAT_AHEAD 4096

enum { D_NEW = 1, D_SEEN = 0, D_NOKEY = 2, D_OTHER = 3 };
/* a chunk's stage */
enum { S_FREE, S_READING, S_READ, S_PREP, S_READY, S_DECIDED, S_FMT, S_DONE };
enum { T_NONE, T_PREPARE, T_DECIDE, T_FORMAT, T_READ, T_WRITE, T_PWRITE, T_WHOLE };

typedef struct chunk {
    const unsigned char *buf; /* its bytes: own, or in a file's mapping */
    unsigned char *own;       /* what read() fills (pipes) */
    size_t len, cap;          /* len: without the newline of the last line */
    const char *name;         /* the file, for messages */
    int first;                /* the first chunk of its file */
    unsigned char *map;       /* mapped: the mapping, its length, the offset */
    size_t map_len, map_done; /* past this chunk, and whether it is the */
    int map_last;             /* mapping's last chunk */
    /* read in parallel (pread): its file and byte range [roff, rend); empty:
     * no line starts in it (it passes through the stages doing nothing) */
    struct rfile *rf;
    uint64_t roff, rend;
    int empty;
    /* 0, or 1 + the index of its first line longer than line_max: the run
     * stops there when the chunk is written (reading stopped inside it) */
    size_t toolong;
    /* lines */
    size_t n, ncap;
    size_t *start, *end;   /* line bytes [start, end) without the newline */
    unsigned char *why;    /* D_NOKEY: 1 too few fields, 2 not a JSON object, 3 no such
                              field, 4 not a string */
    uint8_t *dec;          /* D_* per line */
    /* keys of the lines that have one (compacted) */
    const void **kp;
    size_t *kl, *idx;
    size_t m;
    /* hashes: of the keys, or (--ngrams) of the n-grams */
    uint64_t *h1, *h2;
    size_t nh, hcap;
    uint8_t *added;        /* per key: new */
    uint16_t *pp;          /* per hash: its part */
    size_t *pidx;          /* hashes by part, in input order within a part */
    size_t *miss;          /* a growing filter's part: its keys not in the newest */
    struct keyref { uint64_t h1, h2; size_t j; } *sorted, *sorted2; /* a mapped probe's order */
    size_t poff[MAX_PARTS + 1];
    /* --ngrams: words, and units (documents, or --paragraphs paragraphs):
     * unit u is line u_line[u]'s bytes [u_s, u_e), n-grams u_g0.. (u_gn of
     * them), u_seen of which were in the filter; line i's units l_u0.. */
    const void **wp;
    size_t *wl, wcap;
    uint64_t *wa, *wb;
    size_t nu, ucap;
    size_t *u_line, *u_s, *u_e, *u_g0, *u_gn;
    uint64_t *u_seen;
    size_t *l_u0, *l_un;
    size_t *gunit;         /* per n-gram: its unit */
    uint64_t text_bytes;
    /* output */
    unsigned char *obuf;
    size_t olen, ocap;
    size_t *turn, tcap;    /* where the verdict turns (format_keyed) */
    uint64_t fresh, seen, nokey, other, written, units, unit_dups;
    int state, parts_done;
    /* a growing filter decided by parts: the newest sub-filter's blocks the
     * chunk was routed for; gated (its way chosen), whole (one task, in
     * order, after every earlier chunk: it may start a sub-filter) */
    uint64_t route_nb;
    int gated, whole;
    /* output to a regular file (pwrite_out): the chunk's bytes go to off,
     * known once every earlier chunk is formatted (the chunk is placed when
     * its number is below seq_place), written by any thread (pw: 1 being
     * written, 2 written) */
    uint64_t off;
    int pw;
} chunk;

/* a part's view: the filter's, with its own add counter */
typedef struct part_view {
    sbf_view v;
    uint64_t added;
    char pad[64];
} part_view;

typedef struct dedup {
    int tsv_field;               /* 0: none */
    const char *json_field;
    size_t json_len;
    int binary;
    int invert, count_only;
    uint64_t shard_i, shard_n;   /* shard_n 0: no sharding */
    uint32_t ngrams;             /* --ngrams N (0: keys are whole) */
    double threshold;            /* --threshold T */
    int paragraphs, annotate;
    int both;                    /* --remove-type both: paragraphs, then documents */
    int no_add;                  /* --no-add: probe only (decontamination) */
    int mapped;                  /* --no-add on a fixed filter: its file mapped, probed
                                    in block order, its pages asked for ahead */
    int prep_fetch;              /* preparing asks for the keys' blocks (PF_*) */
    size_t page;
    uint32_t seed;
    sbf_filter *f;               /* fixed size, or */
    sbf_scalable *s;             /* growing */
    const sbf_filter *hash_f;    /* growing: what hashes its keys (its first sub-filter, or
                                    own_hash_f, a filter of its layout and seed: the same
                                    hashes), not the sub-filters' list, which an add moves */
    sbf_filter *own_hash_f;
    sbf_view v;
    uint32_t block_words;
    size_t parts;                /* P */
    part_view *pv;               /* P > 1: each part's view */
    /* the stages (under mu) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    chunk *slots;
    size_t nslots;
    /* chunk seq is ring[seq % nslots], taken when it is read from pool, a
     * stack of the free chunks (the last written on top: its arrays still
     * in the caches); reading runs ahead of preparing by at most
     * read_ahead chunks (unprepared: read, not yet prepared) unless no
     * other task is there */
    chunk **ring, **pool;
    size_t npool, unprepared, read_ahead;
    /* read in parallel (input_par): chunks claimed whose decision is not
     * done (each is read and prepared by the thread that claimed it, in
     * one task); reading is taken first while fewer than read_ahead */
    size_t pending;
    uint64_t seq_read, seq_write; /* chunks read; chunks written */
    uint64_t *pnext;             /* per part: the next chunk to decide */
    unsigned char *pbusy;        /* per part: a thread decides it now */
    int stop;
    /* a growing filter decided by parts (grow_parts): chunks are gated in
     * order (g_next): one whose keys all fit in the newest sub-filter's
     * room (g_room, less the keys of the chunks let through since it was
     * asked) is decided by parts of its blocks (g_nb; a chunk routed for
     * an older newest is routed again) through views (g_old: the older
     * sub-filters'; pv: the newest's); any other as one task in order,
     * after which they are asked again */
    int grow_parts;
    uint64_t g_next, g_room, g_nb;
    sbf_view *g_old;
    uint32_t g_nold;
    /* SBF_DEDUP_PWRITE=1, standard output a regular file (not O_APPEND)
     * and threads > 1: chunks are written with pwrite at their offsets, by any thread, as
     * soon as every earlier chunk is formatted (out_off: where the next
     * placed chunk goes; seq_place: the next chunk to place) */
    int pwrite_out;
    uint64_t out_off, seq_place;
    struct input *in;            /* read by one thread at a time (reading), */
    int reading, writing, in_done; /* written by one at a time (writing) */
    /* what the written chunks add up to (the writing thread's) */
    uint64_t file_lines, lines, fresh, seen, nokey, other, written, units, unit_dups;
    uint64_t total_ngrams, text_bytes;
    const unsigned char *released_map; /* pages of it given back up to */
    size_t released;
    int tty, quiet, shown;       /* the progress line */
    double t0, last;
    /* SBF_DEDUP_TIMES (times: set): CPU seconds and count per task kind
     * (T_*, and T_WHOLE: a growing filter's chunk decided in order), and
     * the threads' wall seconds spent waiting for a task (under mu); the
     * clocks are read only when it is set */
    int times;
    const dedup_pass *pass;      /* the deciding loops, of the library's ISA */
    double task_cpu[T_WHOLE + 1], wait_s;
    uint64_t task_n[T_WHOLE + 1];
} dedup;

typedef struct input input;
static int read_chunk(input *in, chunk *c);
static int claim_range(input *in, chunk *c);
static void pread_chunk(chunk *c);
static void range_done(input *in, chunk *c);
static int input_par(const input *in);
static double now_s(void);
static void pwrite_all(const unsigned char *p, size_t n, uint64_t off);
static void write_chunk(dedup *d, chunk *w);

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

/* A JSON string's \n \t \r escapes count as white space. */
static int esc_space(const unsigned char *p, const unsigned char *e)
{
    return *p == '\\' && p + 1 < e && (p[1] == 'n' || p[1] == 't' || p[1] == 'r');
}

static void unit_add(chunk *c, size_t line, const unsigned char *s, const unsigned char *e,
                     size_t w0, size_t nw)
{
    if (c->nu == c->ucap) {
        c->ucap = c->ucap ? 2 * c->ucap : 4096;
        c->u_line = xrealloc(c->u_line, c->ucap * sizeof *c->u_line);
        c->u_s = xrealloc(c->u_s, c->ucap * sizeof *c->u_s);
        c->u_e = xrealloc(c->u_e, c->ucap * sizeof *c->u_e);
        c->u_g0 = xrealloc(c->u_g0, c->ucap * sizeof *c->u_g0);
        c->u_gn = xrealloc(c->u_gn, c->ucap * sizeof *c->u_gn);
        c->u_seen = xrealloc(c->u_seen, c->ucap * sizeof *c->u_seen);
    }
    const size_t u = c->nu++;
    c->u_line[u] = line;
    c->u_s[u] = (size_t)(s - c->buf);
    c->u_e[u] = (size_t)(e - c->buf);
    c->u_g0[u] = w0; /* the first word, for now */
    c->u_gn[u] = nw - w0; /* words, for now */
}

static void hashes_cap(chunk *c, size_t n)
{
    if (n <= c->hcap)
        return;
    c->hcap = n;
    c->h1 = xrealloc(c->h1, n * sizeof *c->h1);
    c->h2 = xrealloc(c->h2, n * sizeof *c->h2);
    c->pp = xrealloc(c->pp, n * sizeof *c->pp);
    c->pidx = xrealloc(c->pidx, n * sizeof *c->pidx);
    c->miss = xrealloc(c->miss, n * sizeof *c->miss);
    c->sorted = xrealloc(c->sorted, n * sizeof *c->sorted);
    c->sorted2 = xrealloc(c->sorted2, n * sizeof *c->sorted2);
    c->gunit = xrealloc(c->gunit, n * sizeof *c->gunit);
    c->added = xrealloc(c->added, n);
}

/* --ngrams: each document's words (between white space, a JSON string's
 * \n \t \r escapes counting as white space), hashed in SIMD lanes by the
 * library's batched MurmurHash3, then each run of N words of a unit (the
 * document; --paragraphs: each paragraph, the text between \n escapes)
 * combined into one n-gram hash pair (order matters; the spacing between
 * words does not). A unit of fewer than N words is one n-gram of all of
 * them. */
static void ngram_hashes(const dedup *d, chunk *c)
{
    size_t nw = 0;
    const size_t N = d->ngrams;
    c->text_bytes = 0;
    c->nu = 0;
    for (size_t j = 0; j < c->m; j++) {
        const unsigned char *p = c->kp[j], *e = p + c->kl[j];
        const size_t i = c->idx[j];
        c->l_u0[i] = c->nu;
        c->text_bytes += c->kl[j];
        const unsigned char *us = p;
        size_t uw = nw;
        while (p < e) {
            if (d->paragraphs && *p == '\\' && p + 1 < e && p[1] == 'n') {
                unit_add(c, i, us, p, uw, nw);
                p += 2;
                us = p;
                uw = nw;
                continue;
            }
            if (is_space(*p)) {
                p++;
                continue;
            }
            if (esc_space(p, e)) {
                p += 2;
                continue;
            }
            const unsigned char *w = p;
            while (p < e && !is_space(*p) && !esc_space(p, e))
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
        unit_add(c, i, us, e, uw, nw);
        c->l_un[i] = c->nu - c->l_u0[i];
    }
    if (sbf_murmur3_x64_128_batch(c->wp, c->wl, nw, d->seed, c->wa, c->wb) != SBF_OK)
        fail("hashing: out of range");
    hashes_cap(c, nw); /* at most one n-gram per word */
    size_t ng = 0;
    for (size_t u = 0; u < c->nu; u++) {
        const size_t w0 = c->u_g0[u], words = c->u_gn[u];
        const size_t grams = words == 0 ? 0 : words < N ? 1 : words - N + 1;
        const size_t span = words < N ? words : N;
        c->u_g0[u] = ng;
        c->u_seen[u] = 0;
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
            c->gunit[ng] = u;
            ng++;
        }
        c->u_gn[u] = grams;
    }
    c->nh = ng;
}

/* Each hash's part (the range of blocks its block is in), and the hashes
 * listed part by part, in input order within each. The part of block b is
 * (b 2^s P) >> 64 with 2^s the power of two that puts nblocks - 1 in the
 * top bit (no division; a part spans 2^(64-s) / P blocks, up to twice
 * nblocks / P). */
static void route(const dedup *d, chunk *c)
{
    const size_t P = d->parts, n = c->nh;
    const uint64_t nb = d->s != NULL ? c->route_nb : d->v.nblocks;
    const int shift = nb > 1 ? __builtin_clzll(nb - 1) : 0;
    size_t at[MAX_PARTS + 1];
    memset(at, 0, sizeof at);
    for (size_t j = 0; j < n; j++) {
        const uint16_t p = (uint16_t)sbf_block_index(sbf_block_index(c->h1[j], nb) << shift, P);
        c->pp[j] = p;
        at[p + 1]++;
    }
    c->poff[0] = 0;
    for (size_t p = 0; p < P; p++) {
        c->poff[p + 1] = c->poff[p] + at[p + 1];
        at[p] = c->poff[p];
    }
    for (size_t j = 0; j < n; j++)
        c->pidx[at[c->pp[j]]++] = j;
}

/* Room for line c->n and more. */
static void lines_grow(chunk *c)
{
    c->ncap = c->ncap ? 2 * c->ncap : 4096;
    c->start = xrealloc(c->start, c->ncap * sizeof *c->start);
    c->end = xrealloc(c->end, c->ncap * sizeof *c->end);
    c->why = xrealloc(c->why, c->ncap);
    c->dec = xrealloc(c->dec, c->ncap);
    c->kp = xrealloc(c->kp, c->ncap * sizeof *c->kp);
    c->kl = xrealloc(c->kl, c->ncap * sizeof *c->kl);
    c->idx = xrealloc(c->idx, c->ncap * sizeof *c->idx);
    c->l_u0 = xrealloc(c->l_u0, c->ncap * sizeof *c->l_u0);
    c->l_un = xrealloc(c->l_un, c->ncap * sizeof *c->l_un);
}

/* The chunk's lines [start, end): split at each newline in [0, len), and
 * the segment after the last one (the chunk ends a line). 64 bytes at a
 * time where SSE2 is (a memchr per line cost more: lines of ~68 bytes),
 * never reading past len. */
/* the longest line taken (KEY_LINE_MAX, as the other commands; the test
 * hook SBF_KEY_LINE_MAX lowers it): input without newlines (/dev/zero, a
 * binary file) is refused, not held as one endless line */
static size_t line_max = KEY_LINE_MAX;

static void split_lines(chunk *c)
{
    const unsigned char *b = c->buf;
    const size_t len = c->len;
    size_t n = 0, at = 0, q = 0;
#if defined(__SSE2__)
    const __m128i nlv = _mm_set1_epi8('\n');
    for (; q + 64 <= len; q += 64) {
        /* the input is read here first, from memory: the bytes SPLIT_AHEAD on
         * asked for now (the hardware's prefetch stops at each 4 KB page) */
        if (q + SPLIT_AHEAD < len)
            __builtin_prefetch(b + q + SPLIT_AHEAD, 0, 3);
        const __m128i *v = (const __m128i *)(const void *)(b + q);
        uint64_t mask =
            (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), nlv)) |
            (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nlv))
                << 16 |
            (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nlv))
                << 32 |
            (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nlv))
                << 48;
        while (mask != 0) {
            const size_t e = q + (size_t)__builtin_ctzll(mask);
            mask &= mask - 1;
            if (n == c->ncap)
                lines_grow(c);
            c->start[n] = at;
            c->end[n] = e;
            n++;
            at = e + 1;
        }
    }
#endif
    for (;;) {
        const unsigned char *nl = q < len ? memchr(b + q, '\n', len - q) : NULL;
        const size_t e = nl ? (size_t)(nl - b) : len;
        if (n == c->ncap)
            lines_grow(c);
        c->start[n] = at;
        c->end[n] = e;
        n++;
        if (nl == NULL)
            break;
        at = q = e + 1;
    }
    c->n = n;
    c->toolong = 0;
    if (len > line_max) /* (no line of a shorter chunk can be too long) */
        for (size_t i = 0; i < n; i++)
            if (c->end[i] - c->start[i] > line_max) {
                c->toolong = i + 1;
                break;
            }
}

/* The blocks of the keys [a, b) asked for while they are hashed (PF_FIXED:
 * the fixed filter's; PF_GROW: every sub-filter's, one thread only, as the
 * views are the deciding thread's), so that the misses of a random block a
 * key overlap the hashing of the next keys rather than stall the decision
 * (a chunk's ~8K keys' blocks, 0.5 MB, wait in the caches for it). */
enum { PF_NONE, PF_FIXED, PF_GROW };
static void prep_prefetch(const dedup *d, const uint64_t *h1, size_t a, size_t b)
{
    const uint32_t bw = d->block_words;
    if (d->prep_fetch == PF_FIXED) {
        for (size_t q = a; q < b; q++)
            __builtin_prefetch(d->v.words + sbf_block_index(h1[q], d->v.nblocks) * bw, 1, 3);
        return;
    }
    for (size_t q = a; q < b; q++) {
        if (d->g_nb != 0)
            __builtin_prefetch(d->pv[0].v.words + sbf_block_index(h1[q], d->g_nb) * bw, 1, 3);
        for (uint32_t o = 0; o < d->g_nold; o++)
            __builtin_prefetch(d->g_old[o].words + sbf_block_index(h1[q], d->g_old[o].nblocks) *
                                                       bw, 0, 3);
    }
}

/* keys hashed this many at a time when preparing asks for their blocks */
#define HASH_STEP 32

/* Splits, finds keys, hashes, keeps the shard, routes: any thread. */
static void prepare(const dedup *d, chunk *c)
{
    const unsigned char *b = c->buf;
    split_lines(c);
    const size_t n = c->n;
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
    } else {
        /* the keys' hashes, in SIMD lanes */
        hashes_cap(c, m);
        /* the filter's layout hashes: MurmurHash3, XXH64 or XXH3 */
        const sbf_filter *hf = d->s != NULL ? d->hash_f : d->f;
        const size_t step = d->prep_fetch ? HASH_STEP : m;
        for (size_t a = 0; a < m; a += step) {
            const size_t k = m - a < step ? m - a : step;
            const int rc = sbf_hash_pairs(hf, (const void *const *)c->kp + a, c->kl + a, NULL, k,
                                          c->h1 + a, c->h2 + a);
            if (rc != SBF_OK)
                fail("hashing: %s", sbf_strerror(rc));
            if (d->prep_fetch)
                prep_prefetch(d, c->h1, a, a + k);
        }
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
        c->nh = m;
    }
    if (d->parts > 1)
        route(d, c);
}

/* ------------------------------------------------------------ decide */

/* o[0..n) in the order of the top 33 bits of h1 (a block's index grows
 * with h1: blocks in order for filters of up to 2^33 blocks), three stable
 * passes of 11 bits through t. */
static void sort_by_h1(struct keyref *o, struct keyref *t, size_t n)
{
    for (int shift = 31; shift <= 53; shift += 11) {
        size_t at[2049];
        memset(at, 0, sizeof at);
        for (size_t q = 0; q < n; q++)
            at[((o[q].h1 >> shift) & 2047) + 1]++;
        for (size_t b = 1; b <= 2048; b++)
            at[b] += at[b - 1];
        for (size_t q = 0; q < n; q++)
            t[at[(o[q].h1 >> shift) & 2047]++] = o[q];
        struct keyref *x = o;
        o = t;
        t = x;
    }
    memcpy(t, o, n * sizeof *o); /* three passes: the result is in t, the caller's o */
}

/* --no-add on a mapped filter (which may be larger than memory and not in
 * the page cache): the hashes [a, b) of the list ix (NULL: a..b) probed in
 * block order (a block's index grows with h1), after asking the kernel for
 * every page they touch at once (MADV_WILLNEED: the reads are issued
 * together, not one page fault after another), so each page of the filter
 * is read once per batch and the reads overlap. */
static void probe_mapped(const dedup *d, chunk *c, const sbf_view *v, const size_t *ix,
                         size_t a, size_t b)
{
    struct keyref *o = c->sorted + a;
    const size_t n = b - a;
    for (size_t q = 0; q < n; q++) {
        const size_t j = ix ? ix[a + q] : a + q;
        o[q].h1 = c->h1[j];
        o[q].h2 = c->h2[j];
        o[q].j = j;
    }
    sort_by_h1(o, c->sorted2 + a, n);
    const uintptr_t mask = ~(uintptr_t)(d->page - 1), bytes = (uintptr_t)d->block_words * 8;
    uintptr_t lo = 0, hi = 0; /* a run of pages [lo, hi) */
    for (size_t q = 0; q <= n; q++) {
        uintptr_t pg = 0;
        if (q < n)
            pg = (uintptr_t)(v->words + sbf_block_index(o[q].h1, v->nblocks) * d->block_words) &
                 mask;
        if (q < n && hi != 0 && pg >= lo && pg <= hi) {
            const uintptr_t end = ((pg + bytes - 1) & mask) + d->page;
            hi = end > hi ? end : hi;
            continue;
        }
        if (hi != 0)
            (void)madvise((void *)lo, hi - lo, MADV_WILLNEED);
        if (q < n) {
            lo = pg;
            hi = ((pg + bytes - 1) & mask) + d->page;
        }
    }
    for (size_t q = 0; q < n; q++)
        c->added[o[q].j] = (uint8_t)!sbf_view_contains_hash(v, o[q].h1, o[q].h2);
}

/* P = 1: the whole chunk in input order, one thread. Lines: each key added
 * from its hash, new when the add changed the filter. --ngrams: each unit's
 * n-grams probed, counted, then added (all of them, as bff does). */
static void decide_all(dedup *d, chunk *c)
{
    const size_t m = c->nh;
    if (d->ngrams) {
        for (size_t u = 0; u < c->nu; u++) {
            const size_t g = c->u_g0[u], n = c->u_gn[u];
            size_t seen = 0;
            if (d->s != NULL) {
                const size_t r = sbf_scalable_contains_hashes(d->s, c->h1 + g, c->h2 + g, n,
                                                              NULL);
                const size_t a = d->no_add ? 0
                               : sbf_scalable_add_hashes(d->s, c->h1 + g, c->h2 + g, n, NULL);
                if (sbf_is_error(r) || sbf_is_error(a))
                    fail("the growing filter: %s",
                         sbf_strerror(-(int)(SIZE_MAX - (sbf_is_error(r) ? r : a)) - 1));
                seen = r;
            } else {
                const uint32_t bw = d->block_words;
                for (size_t q = 0; q < n; q++) {
                    if (bw && q + AHEAD < n)
                        __builtin_prefetch(d->v.words + sbf_block_index(c->h1[g + q + AHEAD],
                                                                        d->v.nblocks) * bw, 0, 3);
                    seen += (size_t)sbf_view_contains_hash(&d->v, c->h1[g + q], c->h2[g + q]);
                }
                for (size_t q = 0; q < n && !d->no_add; q++)
                    if (sbf_view_add_hash(&d->v, c->h1[g + q], c->h2[g + q]) < 0)
                        fail("the filter: cannot add");
            }
            c->u_seen[u] = seen;
        }
        return;
    }
    if (d->mapped) {
        probe_mapped(d, c, &d->v, NULL, 0, m);
    } else if (d->no_add && d->s != NULL) { /* new: absent, the filter unchanged */
        (void)sbf_scalable_contains_hashes(d->s, c->h1, c->h2, m, c->added);
        for (size_t j = 0; j < m; j++)
            c->added[j] ^= 1;
    } else if (d->s != NULL) {
        const size_t r = sbf_scalable_add_hashes(d->s, c->h1, c->h2, m, c->added);
        if (sbf_is_error(r))
            fail("the growing filter: %s", sbf_strerror(-(int)(SIZE_MAX - r) - 1));
    } else { /* new: added (--no-add: absent, the filter unchanged) */
        const int r = d->pass->add(&d->v, d->block_words, c->h1, c->h2, NULL, 0, m, c->added,
                                   d->no_add);
        if (r < 0)
            fail("the filter: %s", sbf_strerror(r));
    }
}

/* ------------------------------------- a growing filter decided by parts */

/* A view's block in words, for the prefetch (0: none, classic). */
static uint32_t view_block_words(const sbf_view *v)
{
    return v->query == SBF_VIEW_CALL ? 0
         : v->query == SBF_VIEW_SPLIT8 || v->query == SBF_VIEW_PARQUET ||
             v->query == SBF_VIEW_SPLIT8_XXH3 || v->query == SBF_VIEW_SPLIT8_FMIX ? 4 : 8;
}

/* The parts' adds to the newest sub-filter, counted into the growing
 * filter (no part is being decided). */
static void grow_fold(dedup *d)
{
    uint64_t sum = 0;
    for (size_t p = 0; p < d->parts; p++) {
        sum += d->pv[p].added;
        d->pv[p].added = 0;
    }
    const int rc = sbf_scalable_count_adds(d->s, sum);
    if (rc != SBF_OK)
        fail("the growing filter: %s", sbf_strerror(rc));
}

/* The newest sub-filter's room and blocks, and the views, asked again
 * (after a chunk decided in order, which may have started a sub-filter). */
static void grow_refresh(dedup *d)
{
    const uint32_t nf = sbf_scalable_filters(d->s);
    uint64_t room = 0;
    (void)sbf_scalable_room(d->s, &room);
    d->g_room = 0;
    d->g_nb = 0;
    d->g_nold = 0;
    if (nf == 0)
        return;
    d->g_old = xrealloc(d->g_old, nf * sizeof *d->g_old);
    for (uint32_t i = 0; i + 1 < nf; i++)
        if (sbf_view_get(sbf_scalable_filter(d->s, i), &d->g_old[i]) != SBF_OK)
            fail("the growing filter: no view of sub-filter %u", i);
    sbf_view nv;
    if (sbf_view_get_writable(sbf_scalable_filter_writable(d->s, nf - 1), &nv) != SBF_OK ||
        nv.query == SBF_VIEW_CALL || nv.add == SBF_VIEW_CALL)
        return; /* (not for this layout: every chunk in order) */
    for (size_t p = 0; p < d->parts; p++) {
        d->pv[p].v = nv;
        d->pv[p].v.added = &d->pv[p].added;
    }
    d->g_room = room;
    d->g_nb = nv.nblocks;
    d->g_nold = nf - 1;
}

/* Whether an older sub-filter holds the key (newest first, as the
 * library asks before it adds to the newest). */
static int old_has(const dedup *d, uint64_t h1, uint64_t h2)
{
    for (uint32_t o = d->g_nold; o-- > 0;)
        if (sbf_view_contains_hash(&d->g_old[o], h1, h2))
            return 1;
    return 0;
}

static void grow_prefetch(const dedup *d, const sbf_view *v, uint64_t h1)
{
    const uint32_t bw = d->block_words;
    __builtin_prefetch(v->words + sbf_block_index(h1, v->nblocks) * bw, 1, 3);
    for (uint32_t o = 0; o < d->g_nold; o++)
        __builtin_prefetch(d->g_old[o].words + sbf_block_index(h1, d->g_old[o].nblocks) * bw,
                           0, 3);
}

/* Part p of chunk c of a growing filter whose newest sub-filter has room
 * for every key of c: each key (in input order) is seen when an older
 * sub-filter holds it, else added to the newest, new when that changed it,
 * as sbf_scalable_add_hashes decides it when no sub-filter can start.
 * --ngrams: a unit's n-grams of this part probed in every sub-filter and
 * counted, then added so. */
static void decide_part_grow(dedup *d, chunk *c, size_t p)
{
    const sbf_view *v = &d->pv[p].v;
    /* one part (one thread): every hash, in input order (not routed) */
    const int all = d->parts == 1;
    const size_t a = all ? 0 : c->poff[p], b = all ? c->nh : c->poff[p + 1];
    const size_t *ix = c->pidx;
#define IX(q) (all ? (q) : ix[q])
    const uint64_t *h1 = c->h1, *h2 = c->h2;
    if (!d->ngrams) {
        /* a pass a sub-filter, each one block a key and its blocks asked
         * for ahead, over the keys not found yet: first the newest as it
         * was (a key it holds is seen, and adding it would change
         * nothing), then each older one (which no add changes; a key one
         * holds is seen), newest first; the keys left are added to the
         * newest in input order, new when that changed it (the newest
         * alone: each key added, new when that changed it). The verdicts
         * and the filter are what the keys one by one give; repeats are
         * mostly of recent keys, so fewer blocks are read than every
         * sub-filter's for every key (50M lines, one thread, loaded VM:
         * deciding 1.31-1.38 s against 1.58-1.59 with every sub-filter's
         * blocks asked for per key, portable probes) */
        const int r = d->pass->grow(v, d->g_old, d->g_nold, d->block_words, PASS_GROUP, h1, h2,
                                    all ? NULL : ix, a, b, c->miss, c->added);
        if (r < 0)
            fail("the growing filter: %s", sbf_strerror(r));
        return;
    }
    for (size_t q = a; q < b && q < a + AHEAD; q++) /* the first keys' blocks */
        grow_prefetch(d, v, h1[IX(q)]);
    for (size_t q = a; q < b;) {
        const size_t u = c->gunit[IX(q)];
        size_t r = q;
        uint64_t seen = 0;
        for (; r < b && c->gunit[IX(r)] == u; r++) {
            if (r + AHEAD < b)
                grow_prefetch(d, v, h1[IX(r + AHEAD)]);
            /* (n-grams have no verdict of their own: added[] keeps
             * whether an older sub-filter holds one, probed once) */
            const size_t j = IX(r);
            c->added[j] = (uint8_t)old_has(d, h1[j], h2[j]);
            seen += (uint64_t)(c->added[j] || sbf_view_contains_hash(v, h1[j], h2[j]));
        }
        for (size_t t = q; t < r; t++)
            if (!c->added[IX(t)] && sbf_view_add_hash(v, h1[IX(t)], h2[IX(t)]) < 0)
                fail("the growing filter: cannot add");
        if (seen)
            __atomic_fetch_add(&c->u_seen[u], seen, __ATOMIC_RELAXED);
        q = r;
    }
#undef IX
}

/* Part p of chunk c (P > 1, a filter probed inline): its hashes in input
 * order, through the part's view. The same verdicts as decide_all: every
 * earlier hash of the same block was decided before, in this part. p
 * WHOLE: a growing filter's chunk in order, every part's earlier adds
 * counted first. */
#define WHOLE SIZE_MAX
static void decide_part(dedup *d, chunk *c, size_t p)
{
    if (p == WHOLE) {
        grow_fold(d);
        decide_all(d, c);
        return;
    }
    if (d->grow_parts) {
        decide_part_grow(d, c, p);
        return;
    }
    if (d->parts == 1) {
        decide_all(d, c);
        return;
    }
    const sbf_view *v = &d->pv[p].v;
    const size_t a = c->poff[p], b = c->poff[p + 1];
    const size_t *ix = c->pidx;
    const uint64_t *h1 = c->h1, *h2 = c->h2;
    const uint32_t bw = d->block_words;
    if (!d->ngrams && d->mapped) {
        probe_mapped(d, c, v, ix, a, b);
        return;
    }
    if (!d->ngrams) {
        const int r = d->pass->add(v, bw, h1, h2, ix, a, b, c->added, d->no_add);
        if (r < 0)
            fail("the filter: %s", sbf_strerror(r));
        return;
    }
    /* n-grams: this part's n-grams of a unit are probed, then added */
    for (size_t q = a; q < b;) {
        const size_t u = c->gunit[ix[q]];
        size_t r = q;
        uint64_t seen = 0;
        for (; r < b && c->gunit[ix[r]] == u; r++) {
            if (r + AHEAD < b)
                __builtin_prefetch(v->words + sbf_block_index(h1[ix[r + AHEAD]], v->nblocks) * bw,
                                   1, 3);
            seen += (uint64_t)sbf_view_contains_hash(v, h1[ix[r]], h2[ix[r]]);
        }
        for (size_t s = q; s < r && !d->no_add; s++)
            if (sbf_view_add_hash(v, h1[ix[s]], h2[ix[s]]) < 0)
                fail("the filter: cannot add");
        if (seen)
            __atomic_fetch_add(&c->u_seen[u], seen, __ATOMIC_RELAXED);
        q = r;
    }
}

/* ------------------------------------------------------------ format */

static void out_put(chunk *c, const void *p, size_t n)
{
    if (n == 0)
        return; /* (an empty line: obuf may not be allocated yet, and memcpy's
                 * pointers must not be NULL even for 0 bytes) */
    if (c->olen + n > c->ocap) {
        c->ocap = 2 * (c->olen + n) + 4096;
        c->obuf = xrealloc(c->obuf, c->ocap);
    }
    memcpy(c->obuf + c->olen, p, n);
    c->olen += n;
}

static int one_of(unsigned char x, const char *set)
{
    return x != 0 && strchr(set, x) != NULL;
}

/* Characters (code points) of a JSON string's bytes as written: an escape
 * is one, a surrogate pair of escapes one, UTF-8 continuation bytes none. */
static size_t json_chars(const unsigned char *p, const unsigned char *e)
{
    size_t n = 0;
    while (p < e) {
        if (*p == '\\' && p + 1 < e) {
            if (p[1] == 'u' && e - p >= 12 && (p[2] == 'd' || p[2] == 'D') &&
                one_of(p[3], "89abAB") && p[6] == '\\' && p[7] == 'u' &&
                (p[8] == 'd' || p[8] == 'D') && one_of(p[9], "cdefCDEF"))
                p += 12;
            else
                p += p[1] == 'u' && e - p >= 6 ? 6 : 2;
            n++;
            continue;
        }
        n += (*p & 0xC0) != 0x80;
        p++;
    }
    return n;
}

static int unit_dup(const dedup *d, const chunk *c, size_t u)
{
    return c->u_gn[u] > 0 && (double)c->u_seen[u] >= d->threshold * (double)c->u_gn[u];
}

/* Line i's n-grams seen before / all of them (its units together), and
 * whether --remove-type both drops it whole: a fraction >= T of them seen. */
static int doc_dup(const dedup *d, const chunk *c, size_t i, uint64_t *seen, uint64_t *grams)
{
    uint64_t s = 0, g = 0;
    const size_t u0 = c->l_u0[i], un = c->l_un[i];
    for (size_t u = u0; u < u0 + un; u++) {
        s += c->u_seen[u];
        g += c->u_gn[u];
    }
    *seen = s;
    *grams = g;
    return d->both && g > 0 && (double)s >= d->threshold * (double)g;
}

/* --annotate: the line with the fraction and spans added before its
 * closing brace. */
static void annotate_line(const dedup *d, chunk *c, size_t i, size_t j)
{
    const unsigned char *p = c->buf + c->start[i], *e = c->buf + c->end[i];
    const unsigned char *te = (const unsigned char *)c->kp[j] + c->kl[j]; /* its quote */
    const unsigned char *close = e;
    while (close > te && close[-1] != '}')
        close--;
    if (close == te) { /* an object cut short after the text: as read */
        out_put(c, p, (size_t)(e - p));
        out_put(c, "\n", 1);
        return;
    }
    close--; /* the object's '}' */
    uint64_t seen, grams;
    const int whole = doc_dup(d, c, i, &seen, &grams);
    const size_t u0 = c->l_u0[i], un = c->l_un[i];
    char num[96];
    out_put(c, p, (size_t)(close - p));
    int k = snprintf(num, sizeof num, ",\"sbf_duplicate_fraction\":%.6g,\"sbf_duplicate_spans\":[",
                     grams ? (double)seen / (double)grams : 0.0);
    out_put(c, num, (size_t)k);
    const unsigned char *text = c->kp[j], *at = text;
    size_t chars = 0, spans = 0;
    for (size_t u = u0; u < u0 + un; u++) {
        if (!whole && !unit_dup(d, c, u))
            continue;
        const unsigned char *s = c->buf + c->u_s[u], *t = c->buf + c->u_e[u];
        if (whole) { /* --remove-type both: the whole text */
            s = text;
            t = text + c->kl[j];
            u = u0 + un - 1;
        }
        chars += json_chars(at, s);
        const size_t a = chars;
        chars += json_chars(s, t);
        at = t;
        k = snprintf(num, sizeof num, "%s[%zu,%zu]", spans++ ? "," : "", a, chars);
        out_put(c, num, (size_t)k);
    }
    out_put(c, "]", 1);
    out_put(c, close, (size_t)(e - close));
    out_put(c, "\n", 1);
}

/* Every line of c has a key (its verdict added[i]): the runs of written
 * lines found without a branch a line, as the places where the verdict
 * turns (a run starts at a written line after one not written and ends
 * where the next line not written starts: lines follow each other,
 * end[i] + 1 = start[i + 1]), then copied; the counts. (A branch a line on
 * a verdict that is new half the time: 0.29 CPU s at 50M lines, against
 * 0.1 s so.) */
static void format_keyed(const dedup *d, chunk *c)
{
    const size_t len = c->len, n = c->n;
    const unsigned inv = d->invert ? 1u : 0u;
    const uint8_t *const added = c->added;
    const size_t *const start = c->start;
    size_t *const turn = c->turn;
    size_t t = 0;
    unsigned prev = 0;
    uint64_t fresh = 0, written = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned a = added[i], w = a ^ inv;
        fresh += a;
        written += w;
        turn[t] = start[i];
        t += w ^ prev;
        prev = w;
    }
    if (prev)
        turn[t++] = c->end[n - 1] + 1;
    unsigned char *const o = c->obuf;
    const unsigned char *const b = c->buf;
    size_t olen = 0;
    for (size_t r = 0; r < t; r += 2) {
        const size_t rs = turn[r], re = turn[r + 1] > len ? len : turn[r + 1];
        if (rs + FORMAT_AHEAD < len)
            __builtin_prefetch(b + rs + FORMAT_AHEAD, 0, 3);
        memcpy(o + olen, b + rs, re - rs);
        olen += re - rs;
    }
    if (t > 0 && turn[t - 1] > len) /* the chunk's last line: its newline is not in the input */
        o[olen++] = '\n';
    c->olen = olen;
    c->fresh = fresh;
    c->seen = n - fresh;
    c->nokey = c->other = 0;
    c->written = written;
    c->units = c->unit_dups = 0;
}

/* Lines (not --ngrams): the verdicts, counts and output bytes. A written
 * line is its bytes as read and a newline, which is the one after it in
 * the input but for the chunk's last line: runs of written lines that
 * follow each other in the input are copied at once (about two lines a
 * run when half are new), into a buffer sized for the whole chunk first
 * (the output is at most its bytes and a newline). */
static void format_lines(const dedup *d, chunk *c)
{
    const size_t len = c->len;
    if (!d->count_only && c->ocap < len + 1) {
        c->ocap = len + 1 + (len >> 3);
        free(c->obuf);
        c->obuf = xrealloc(NULL, c->ocap);
    }
    if (c->n > 0 && c->m == c->n && !d->count_only) {
        if (c->tcap < c->n + 1) {
            c->tcap = c->n + 1 + (c->n >> 3);
            free(c->turn);
            c->turn = xrealloc(NULL, c->tcap * sizeof *c->turn);
        }
        format_keyed(d, c);
        return;
    }
    unsigned char *const o = c->obuf;
    const unsigned char *const b = c->buf;
    size_t olen = 0, rs = 0, re = 0; /* the run of input bytes [rs, re) to copy */
    uint64_t fresh = 0, seen = 0, nokey = 0, other = 0, written = 0;
    const size_t n = c->n, m = c->m;
    const int invert = d->invert, copy = !d->count_only;
    size_t j = 0; /* the key of line i when it has one */
    for (size_t i = 0; i < n; i++) {
        int dec;
        if (j < m && c->idx[j] == i) {
            dec = c->added[j++] ? D_NEW : D_SEEN;
            c->dec[i] = (uint8_t)dec;
        } else {
            dec = c->dec[i];
        }
        int write_it;
        if (dec == D_NEW) {
            fresh++;
            write_it = !invert;
        } else if (dec == D_SEEN) {
            seen++;
            write_it = invert;
        } else if (dec == D_NOKEY) {
            nokey++;
            write_it = !invert;
        } else {
            other++;
            write_it = 0;
        }
        if (!write_it)
            continue;
        written++;
        if (copy) {
            const size_t s = c->start[i];
            if (s + FORMAT_AHEAD < len)
                __builtin_prefetch(b + s + FORMAT_AHEAD, 0, 3);
            if (s != re) {
                memcpy(o + olen, b + rs, re - rs);
                olen += re - rs;
                rs = s;
            }
            re = c->end[i] + 1; /* with its newline */
        }
    }
    if (re > rs) {
        if (re > len) { /* the chunk's last line: its newline is not in the input */
            memcpy(o + olen, b + rs, len - rs);
            olen += len - rs;
            o[olen++] = '\n';
        } else {
            memcpy(o + olen, b + rs, re - rs);
            olen += re - rs;
        }
    }
    c->olen = olen;
    c->fresh = fresh;
    c->seen = seen;
    c->nokey = nokey;
    c->other = other;
    c->written = written;
    c->units = c->unit_dups = 0;
}

/* The chunk's verdicts, counts and output bytes: any thread, once every
 * part of it is decided. */
static void format(const dedup *d, chunk *c)
{
    if (!d->ngrams) {
        format_lines(d, c);
        return;
    }
    c->olen = 0;
    c->fresh = c->seen = c->nokey = c->other = c->written = c->units = c->unit_dups = 0;
    size_t j = 0; /* the key of line i when it has one */
    for (size_t i = 0; i < c->n; i++) {
        const unsigned char *p = c->buf + c->start[i];
        const size_t n = c->end[i] - c->start[i];
        const int keyed = j < c->m && c->idx[j] == i;
        int write_it = 0;
        if (keyed && d->ngrams) {
            const size_t u0 = c->l_u0[i], un = c->l_un[i];
            size_t dups = 0;
            for (size_t u = u0; u < u0 + un; u++)
                dups += (size_t)unit_dup(d, c, u);
            c->units += un;
            c->unit_dups += dups;
            /* a document is seen when all its units are, or (--remove-type
             * both) when a fraction >= T of all its n-grams is */
            uint64_t dseen, dgrams;
            const int whole = doc_dup(d, c, i, &dseen, &dgrams);
            if (whole)
                dups = un;
            const int seen = un > 0 && dups == un;
            c->dec[i] = seen ? D_SEEN : D_NEW;
            if (seen)
                c->seen++;
            else
                c->fresh++;
            if (d->annotate) {
                c->written++;
                if (!d->count_only)
                    annotate_line(d, c, i, j);
            } else if (d->paragraphs) {
                const size_t keep = d->invert ? dups : un - dups;
                if (keep > 0) {
                    c->written++;
                    if (!d->count_only && keep == un) {
                        out_put(c, p, n);
                        out_put(c, "\n", 1);
                    } else if (!d->count_only) { /* the kept paragraphs, joined by \n */
                        const unsigned char *text = c->kp[j];
                        out_put(c, p, (size_t)(text - p));
                        size_t put = 0;
                        for (size_t u = u0; u < u0 + un; u++) {
                            if ((whole || unit_dup(d, c, u)) != d->invert)
                                continue;
                            if (put++)
                                out_put(c, "\\n", 2);
                            out_put(c, c->buf + c->u_s[u], c->u_e[u] - c->u_s[u]);
                        }
                        const unsigned char *te = text + c->kl[j];
                        out_put(c, te, (size_t)(p + n - te));
                        out_put(c, "\n", 1);
                    }
                }
            } else {
                write_it = seen == d->invert;
            }
            j++;
        } else {
            const int dec = c->dec[i];
            j += keyed;
            if (dec == D_NEW) {
                c->fresh++;
                write_it = !d->invert;
            } else if (dec == D_SEEN) {
                c->seen++;
                write_it = d->invert;
            } else if (dec == D_NOKEY) {
                c->nokey++;
                write_it = !d->invert;
            } else {
                c->other++;
            }
        }
        if (write_it) {
            c->written++;
            if (!d->count_only) {
                out_put(c, p, n);
                out_put(c, "\n", 1);
            }
        }
    }
}

/* ------------------------------------------------------------ the stages */

static chunk *slot(const dedup *d, uint64_t seq)
{
    return d->ring[seq % d->nslots];
}

/* A free chunk for the next one read (under mu; the caller checked
 * that one is free). */
static chunk *take_read(dedup *d)
{
    chunk *c = d->pool[--d->npool];
    d->ring[d->seq_read % d->nslots] = c;
    d->reading = 1;
    return c;
}

/* Regular files read in parallel (input_par): a free chunk claims the next
 * byte range (under mu; 0 at the end of the input) and takes its number
 * now; its bytes are read outside mu by the thread that claimed it. */
static int take_range(dedup *d, chunk **out)
{
    chunk *c = d->pool[d->npool - 1];
    if (!claim_range(d->in, c)) {
        d->in_done = 1;
        pthread_cond_broadcast(&d->cv);
        return 0;
    }
    d->npool--;
    d->ring[d->seq_read++ % d->nslots] = c;
    c->state = S_READING;
    c->route_nb = d->g_nb;
    c->gated = c->whole = 0;
    d->pending++;
    *out = c;
    return 1;
}

/* A task (under mu): the next chunk to write when it is formatted (this
 * frees its slot) or to read when a slot is free and fewer than read_ahead
 * chunks wait to be prepared, each by one thread at a time; else the oldest
 * there is: a chunk to prepare, a part to decide (its previous chunk
 * decided), a chunk to format; else a chunk to read while a slot is free.
 * Any thread reads and writes: a thread busy writing (or descheduled) does
 * not stop the others, which go on reading chunks until every slot is
 * taken. Reading on demand keeps few chunks in flight on a quiet machine,
 * so the free chunk taken (the last written) has its arrays in the caches:
 * with every slot read ahead, each chunk's 1.5 MB of arrays came back from
 * memory (2 threads, 32 slots: 48 MB, more than the L3). */
static int take_task(dedup *d, chunk **out, size_t *part)
{
    for (uint64_t s = d->seq_write; s < d->seq_place; s++) { /* pwrite_out */
        chunk *c = slot(d, s);
        if (c->pw == 0) {
            c->pw = 1;
            *out = c;
            return T_PWRITE;
        }
    }
    if (!d->writing && d->seq_write < d->seq_read && slot(d, d->seq_write)->state == S_DONE &&
        (!d->pwrite_out || slot(d, d->seq_write)->pw == 2)) {
        d->writing = 1;
        *out = slot(d, d->seq_write);
        return T_WRITE;
    }
    const int par = input_par(d->in);
    const int can_read = (par || !d->reading) && !d->in_done &&
                         d->seq_read - d->seq_write < d->nslots;
    if (can_read && (par ? d->pending : d->unprepared) < d->read_ahead) {
        if (!par) {
            *out = take_read(d);
            return T_READ;
        }
        if (take_range(d, out))
            return T_READ;
    }
    for (uint64_t s = d->seq_write; s < d->seq_read; s++) {
        chunk *c = slot(d, s);
        if (c->state == S_READ) {
            d->unprepared--;
            c->state = S_PREP;
            c->route_nb = d->g_nb;
            c->gated = c->whole = 0;
            *out = c;
            return T_PREPARE;
        }
        if (c->state == S_READY) {
            if (d->grow_parts && !c->gated) { /* its way, in order */
                if (s != d->g_next)
                    continue;
                c->gated = 1;
                if (d->g_nb != 0 && c->nh <= d->g_room) {
                    if (c->route_nb != d->g_nb) { /* prepared before the newest started */
                        c->route_nb = d->g_nb;
                        if (d->parts > 1)
                            route(d, c);
                    }
                    d->g_room -= c->nh;
                    d->g_next++;
                } else {
                    c->whole = 1;
                }
            }
            if (c->whole) { /* after every part of every earlier chunk */
                int ready = 1;
                for (size_t p = 0; p < d->parts; p++)
                    ready &= !d->pbusy[p] && d->pnext[p] == s;
                if (!ready)
                    continue;
                memset(d->pbusy, 1, d->parts);
                *out = c;
                *part = WHOLE;
                return T_DECIDE;
            }
            for (size_t p = 0; p < d->parts; p++) {
                if (!d->pbusy[p] && d->pnext[p] == s) {
                    d->pbusy[p] = 1;
                    *out = c;
                    *part = p;
                    return T_DECIDE;
                }
            }
        } else if (c->state == S_DECIDED) {
            c->state = S_FMT;
            *out = c;
            return T_FORMAT;
        }
    }
    if (can_read && !d->in_done) {
        if (!par) {
            *out = take_read(d);
            return T_READ;
        }
        if (take_range(d, out))
            return T_READ;
    }
    return T_NONE;
}

/* Runs a task outside mu, then records it under mu. */
static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_task(dedup *d, int t, chunk *c, size_t p)
{
    pthread_mutex_unlock(&d->mu);
    const double c0 = d->times ? thread_cpu_s() : 0;
    double cp = 0; /* read in parallel: where preparing began */
    int got = 0;
    if (t == T_READ && c->rf != NULL) {
        /* prepared at once, by this thread, while its bytes are in this
         * core's caches (prepared by the next free thread, on two threads
         * a chunk was read on one core and prepared on the other half the
         * time) */
        pread_chunk(c);
        cp = d->times ? thread_cpu_s() : 0;
        if (!c->empty)
            prepare(d, c);
    } else if (t == T_READ)
        got = read_chunk(d->in, c);
    else if (c->empty && (t == T_PREPARE || t == T_DECIDE || t == T_FORMAT))
        ; /* no line starts in its range (one line longer than it) */
    else if (t == T_PREPARE)
        prepare(d, c);
    else if (t == T_DECIDE)
        decide_part(d, c, p);
    else if (t == T_FORMAT)
        format(d, c);
    else if (t == T_PWRITE)
        pwrite_all(c->obuf, c->olen, c->off);
    else
        write_chunk(d, c);
    const double c1 = d->times ? thread_cpu_s() : 0;
    pthread_mutex_lock(&d->mu);
    const int kind = t == T_DECIDE && p == WHOLE ? T_WHOLE : t;
    if (t == T_READ && c->rf != NULL) {
        d->task_cpu[T_READ] += cp - c0;
        d->task_n[T_READ]++;
        d->task_cpu[T_PREPARE] += c1 - cp;
        d->task_n[T_PREPARE]++;
    } else {
        d->task_cpu[kind] += c1 - c0;
        d->task_n[kind]++;
    }
    if (t == T_READ && c->rf != NULL) {
        range_done(d->in, c);
        c->state = S_READY;
        c->parts_done = 0;
    } else if (t == T_READ) {
        d->reading = 0;
        if (got) {
            c->state = S_READ;
            c->parts_done = 0;
            d->seq_read++;
            d->unprepared++;
        } else {
            d->in_done = 1;
            d->pool[d->npool++] = c;
        }
    } else if (t == T_PWRITE) {
        c->pw = 2;
    } else if (t == T_WRITE) {
        c->state = S_FREE;
        c->pw = 0;
        d->pool[d->npool++] = c;
        d->seq_write++;
        d->writing = 0;
    } else if (t == T_PREPARE) {
        c->state = S_READY;
    } else if (t == T_DECIDE && p == WHOLE) {
        grow_refresh(d);
        memset(d->pbusy, 0, d->parts);
        for (size_t q = 0; q < d->parts; q++)
            d->pnext[q]++;
        c->parts_done = (int)d->parts;
        c->state = S_DECIDED;
        d->pending -= (size_t)input_par(d->in);
        d->g_next++;
    } else if (t == T_DECIDE) {
        d->pbusy[p] = 0;
        d->pnext[p]++;
        if (++c->parts_done == (int)d->parts) {
            c->state = S_DECIDED;
            d->pending -= (size_t)input_par(d->in);
        }
    } else {
        c->state = S_DONE;
        /* pwrite_out: the formatted chunks in order from seq_place get
         * their offsets */
        while (d->pwrite_out && d->seq_place < d->seq_read &&
               slot(d, d->seq_place)->state == S_DONE) {
            chunk *q = slot(d, d->seq_place++);
            q->off = d->out_off;
            d->out_off += q->olen;
        }
    }
    pthread_cond_broadcast(&d->cv);
}

/* The main thread's loop (is_main: until the input is read and written)
 * and every worker's (until told to stop): tasks, else a wait. */
static void work(dedup *d, int is_main)
{
    pthread_mutex_lock(&d->mu);
    while (!d->stop && !(is_main && d->in_done && d->seq_write == d->seq_read)) {
        chunk *c = NULL;
        size_t p = 0;
        const int t = take_task(d, &c, &p);
        if (t == T_NONE) {
            if (is_main && d->in_done && d->seq_write == d->seq_read)
                continue; /* (the input ended just now: claimed to its end) */
            const double w0 = d->times ? now_s() : 0;
            pthread_cond_wait(&d->cv, &d->mu);
            if (d->times)
                d->wait_s += now_s() - w0;
        } else
            run_task(d, t, c, p);
    }
    pthread_mutex_unlock(&d->mu);
}

static void *worker(void *arg)
{
    work(arg, 0);
    return NULL;
}

/* ------------------------------------------------------------ input cut short */

/* what a file cut short by another program while it is read or mapped
 * stops the run with (after "dedup: NAME"): read, cut_short; mapped, the
 * SIGBUS handler below */
#define CUT_SHORT ": the file was cut short while being read (truncated by another " \
                  "program?); stopped, nothing saved"

__attribute__((noreturn)) static void cut_short(const char *name)
{
    fail("dedup: %s" CUT_SHORT, name);
}

/* A mapped file truncated by another program while it is read: the next
 * touch of a page past its new end raises SIGBUS, in whichever thread
 * touched it. The mappings in use are listed here (by the threads that
 * read and write, which map and unmap them); a SIGBUS inside one ends the
 * run with a message and status 1 before anything is saved, so a --filter
 * file keeps what the last complete run wrote. Any other SIGBUS goes to
 * the handler there was before (a mapped --filter's guard, or the default:
 * a crash). */
#define GUARDS (4 * MAX_THREADS + 4 + 64) /* input files mapped at once (one per chunk in
                                          * flight, + 1), a growing filter's sub-filters */

static struct guard {
    const unsigned char *lo; /* NULL: a free entry */
    size_t len;
    const char *name;
} guards[GUARDS];
static struct sigaction guard_prev;
static int guard_on;

static void put_err(const char *s)
{
    const ssize_t w = write(STDERR_FILENO, s, strlen(s));
    (void)w;
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    const unsigned char *a = si->si_addr;
    for (size_t i = 0; i < GUARDS; i++) {
        const unsigned char *lo = __atomic_load_n(&guards[i].lo, __ATOMIC_ACQUIRE);
        if (lo != NULL && a >= lo && a < lo + guards[i].len) {
            put_err(prog);
            put_err(": dedup: ");
            put_err(guards[i].name);
            put_err(CUT_SHORT "\n");
            _exit(EXIT_FAILURE);
        }
    }
    if ((guard_prev.sa_flags & SA_SIGINFO) && guard_prev.sa_sigaction != NULL) {
        guard_prev.sa_sigaction(sig, si, uc);
    } else if (guard_prev.sa_handler != SIG_DFL && guard_prev.sa_handler != SIG_IGN &&
               guard_prev.sa_handler != NULL) {
        guard_prev.sa_handler(sig);
    } else {
        signal(sig, SIG_DFL); /* not ours: the default action when the touch repeats */
    }
}

static void guard_add(const void *lo, size_t len, const char *name)
{
    if (!guard_on) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &guard_prev);
        guard_on = 1;
    }
    for (size_t i = 0; i < GUARDS; i++) { /* (one thread adds; another may drop) */
        if (__atomic_load_n(&guards[i].lo, __ATOMIC_ACQUIRE) == NULL) {
            guards[i].len = len;
            guards[i].name = name;
            __atomic_store_n(&guards[i].lo, (const unsigned char *)lo, __ATOMIC_RELEASE);
            return;
        }
    }
    fail("too many files mapped at once"); /* not reached: GUARDS covers them */
}

static void guard_drop(const void *lo)
{
    for (size_t i = 0; i < GUARDS; i++)
        if (guards[i].lo == lo)
            __atomic_store_n(&guards[i].lo, NULL, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ input */

struct input {
    const char *const *paths;
    int npaths, at;          /* the file being read */
    int fd;
    const char *name;
    unsigned char *carry;    /* a partial line from the last read */
    size_t clen, ccap;
    int fresh;               /* no chunk of this file handed out yet */
    int done;
    unsigned char *map;       /* a regular file, mapped: its bytes, length, */
    size_t map_len, pos;      /* the next byte */
    size_t chunk_bytes;
    int use_map;              /* regular files mapped, not read */
    int is_reg;               /* a regular file read: its bytes from where its */
    uint64_t want, got;       /* descriptor was at the start, and those read */
    /* par: every input a regular file, read by any thread at once, each a
     * byte range with pread (no carry, no map): cur, the file ranges are
     * claimed from (under mu), off its next range's start */
    int par;
    struct rfile *cur;
    uint64_t off;
};

/* a file read in parallel: open while the input or a chunk's range holds it */
struct rfile {
    int fd, refs;
    const char *name;
    uint64_t start, size;     /* from where its descriptor was (standard input may have
                                 been read) to its size when opened: fewer read is a
                                 file cut short */
};

static int input_par(const input *in)
{
    return in->par;
}

static void rfile_put(struct rfile *rf)
{
    if (--rf->refs == 0) {
        if (rf->fd != STDIN_FILENO)
            close(rf->fd);
        free(rf);
    }
}

/* (par, under mu) The next range [off, off + chunk_bytes) of the input
 * for c, opening the next file when one is done; 0 at the end. */
static int claim_range(input *in, chunk *c)
{
    for (;;) {
        if (in->cur == NULL) {
            if (in->at >= in->npaths)
                return 0;
            const char *p = in->paths[in->at++];
            const int is_stdin = strcmp(p, "-") == 0;
            const int fd = is_stdin ? STDIN_FILENO : open(p, O_RDONLY | O_CLOEXEC);
            if (is_stdin)
                p = "standard input";
            if (fd < 0)
                fail("%s: %s", p, strerror(errno));
            struct stat st;
            if (fstat(fd, &st) != 0)
                fail("%s: %s", p, strerror(errno));
            if (S_ISDIR(st.st_mode))
                fail("%s: is a directory", p);
            const off_t at = lseek(fd, 0, SEEK_CUR);
            if (!S_ISREG(st.st_mode) || at < 0)
                fail("%s: no longer a regular file", p);
            if (at >= st.st_size) {
                if (!is_stdin)
                    close(fd);
                continue;
            }
            struct rfile *rf = xrealloc(NULL, sizeof *rf);
            rf->fd = fd;
            rf->refs = 1;
            rf->name = p;
            rf->start = (uint64_t)at;
            rf->size = (uint64_t)st.st_size;
            in->cur = rf;
            in->off = rf->start;
        }
        struct rfile *rf = in->cur;
        if (in->off >= rf->size) {
            if (rf->fd == STDIN_FILENO) /* read to its end, as read(2) leaves it */
                (void)lseek(rf->fd, (off_t)rf->size, SEEK_SET);
            in->cur = NULL;
            rfile_put(rf);
            continue;
        }
        rf->refs++;
        c->rf = rf;
        c->roff = in->off;
        c->rend = rf->size - in->off > in->chunk_bytes ? in->off + in->chunk_bytes : rf->size;
        in->off = c->rend;
        c->name = rf->name;
        c->first = c->roff == rf->start;
        return 1;
    }
}

/* (par, under mu) c's range is read: its file let go */
static void range_done(input *in, chunk *c)
{
    (void)in;
    rfile_put(c->rf);
    c->rf = NULL;
}

/* n bytes of rf at off into p, all of them: fewer is a file cut short */
static void pread_full(const struct rfile *rf, unsigned char *p, size_t n, uint64_t off)
{
    size_t at = 0;
    while (at < n) {
        const ssize_t r = pread(rf->fd, p + at, n - at, (off_t)(off + at));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            fail("%s: %s", rf->name, strerror(errno));
        if (r == 0)
            cut_short(rf->name);
        at += (size_t)r;
    }
}

/* (par, outside mu) The lines of c's range [s, e): those whose first byte
 * lies in it, so each line is one range's. Reads from s - 1 (the byte
 * before tells whether a line starts at s) to READ_PAST bytes past e in one
 * pread, drops the bytes up to and including the first newline in
 * [s - 1, e - 1) (none: no line starts in the range, c is empty), and ends
 * at the newline at or after e - 1 that ends its last line (or the file's
 * end), reading on when it lies further. The bytes land where the buffer's
 * address is the file offset's modulo 64, so the kernel's copy moves whole
 * cache lines. */
static void pread_chunk(chunk *c)
{
    const struct rfile *rf = c->rf;
    const uint64_t s = c->roff, e = c->rend, p0 = s > rf->start ? s - 1 : s;
    const size_t rlen = (size_t)(e - p0);
    size_t have = (size_t)((rf->size - e > READ_PAST ? e + READ_PAST : rf->size) - p0);
    if (c->cap < have + 64) {
        c->cap = have + 64;
        c->own = xrealloc(c->own, c->cap);
    }
    const size_t lead = (size_t)((p0 - (uintptr_t)c->own) & 63);
    pread_full(rf, c->own + lead, have, p0);
    c->map = NULL;
    c->empty = 0;
    size_t b = 0;
    if (s > rf->start) {
        const unsigned char *q = memchr(c->own + lead, '\n', rlen - 1);
        if (q == NULL) { /* inside one line longer than the range */
            c->empty = 1;
            c->toolong = 0;
            c->buf = c->own;
            c->len = c->n = c->m = c->nh = c->olen = 0;
            c->fresh = c->seen = c->nokey = c->other = c->written = c->units = c->unit_dups = 0;
            c->text_bytes = 0;
            return;
        }
        b = (size_t)(q - (c->own + lead)) + 1;
    }
    size_t at = rlen - 1, end, ls = SIZE_MAX;
    for (;;) {
        const unsigned char *nl = memchr(c->own + lead + at, '\n', have - at);
        if (nl != NULL) {
            end = (size_t)(nl - (c->own + lead));
            break;
        }
        if (p0 + have >= rf->size) { /* the last line, without a newline */
            end = have;
            break;
        }
        if (ls == SIZE_MAX) { /* where the line read on starts */
            const unsigned char *q = rlen - 1 > b ? memrchr(c->own + lead + b, '\n',
                                                            rlen - 1 - b) : NULL;
            ls = q != NULL ? (size_t)(q - (c->own + lead)) + 1 : b;
        }
        if (have - ls > line_max) { /* too long: it ends here, prepare flags it */
            end = have;
            break;
        }
        at = have;
        size_t more = have < 65536 ? 65536 : have;
        if (more > rf->size - (p0 + have))
            more = (size_t)(rf->size - (p0 + have));
        if (c->cap < lead + have + more) {
            c->cap = lead + have + more;
            c->own = xrealloc(c->own, c->cap);
        }
        pread_full(rf, c->own + lead + have, more, p0 + have);
        have += more;
    }
    c->buf = c->own + lead + b;
    c->len = end - b;
}

static void close_file(input *in)
{
    if (in->fd >= 0 && in->fd != STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}

static int next_file(input *in)
{
    close_file(in);
    if (in->at >= in->npaths)
        return 0;
    const char *p = in->paths[in->at++];
    in->fresh = 1;
    if (strcmp(p, "-") == 0) {
        in->fd = STDIN_FILENO;
        in->name = "standard input";
    } else {
        in->name = p;
        in->fd = open(p, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            fail("%s: %s", p, strerror(errno));
    }
    struct stat st;
    if (fstat(in->fd, &st) != 0)
        fail("%s: %s", in->name, strerror(errno));
    if (S_ISDIR(st.st_mode))
        fail("%s: is a directory", in->name);
    /* a regular file is read into the chunks' buffers, which stay in the
     * caches: mapped, each page's first touch faulted (0.2 CPU s at 50M
     * lines, 3.4 GB) and giving the pages back cost as much again, against
     * 0.3 s for read(2)'s copy (doc/dedup.md). Read, it must give the bytes
     * it had when opened, from where its descriptor is (standard input may
     * have been read): fewer is a file cut short by another program. With
     * threads (or SBF_DEDUP_MMAP=1) it is mapped (no copy; any thread
     * touches its pages). */
    in->is_reg = 0;
    if (S_ISREG(st.st_mode) && !in->use_map) {
        const off_t off = lseek(in->fd, 0, SEEK_CUR);
        in->is_reg = off >= 0;
        in->want = off >= 0 && off < st.st_size ? (uint64_t)(st.st_size - off) : 0;
        in->got = 0;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0 && in->use_map) {
        const off_t off = lseek(in->fd, 0, SEEK_CUR);
        if (off >= 0 && off < st.st_size) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0);
            if (m != MAP_FAILED) {
                in->map = m;
                in->map_len = (size_t)st.st_size;
                guard_add(m, in->map_len, in->name);
                in->pos = (size_t)off;
                (void)lseek(in->fd, st.st_size, SEEK_SET);
                close_file(in);
            }
        }
    }
    return 1;
}

/* A chunk of a mapped file: whole lines from pos, ending at the first
 * newline at or past chunk_bytes - 1 bytes (or the file's end). */
static void map_chunk(input *in, chunk *c)
{
    const unsigned char *s = in->map + in->pos;
    const size_t rest = in->map_len - in->pos;
    size_t len = rest, adv = rest;
    const size_t cb = in->chunk_bytes;
    if (rest > cb) {
        /* searched up to line_max + 1 bytes past cb - 1: none there, the
         * line through it is too long, and the chunk ends after those bytes
         * (prepare flags it; the run stops when it is written) */
        const size_t look = rest - (cb - 1) > line_max + 1 ? line_max + 1 : rest - (cb - 1);
        const unsigned char *nl = memchr(s + cb - 1, '\n', look);
        if (nl != NULL) {
            len = (size_t)(nl - s);
            adv = len + 1;
        } else if (look < rest - (cb - 1)) {
            len = cb - 1 + look;
            adv = rest; /* nothing more is read */
        }
    } else if (s[rest - 1] == '\n') {
        len = rest - 1;
    }
    c->buf = s;
    c->len = len;
    c->name = in->name;
    c->first = in->fresh;
    in->fresh = 0;
    in->pos += adv;
    c->map = in->map;
    c->map_len = in->map_len;
    c->map_done = in->pos;
    c->map_last = in->pos >= in->map_len;
    if (c->map_last)
        in->map = NULL; /* unmapped once its last chunk is written */
}

/* Fills c with whole lines (at least one unless the input is done): the
 * carried partial line, then reads until a newline, searching only the
 * bytes just read (a line longer than a read is not searched or copied
 * again per read), the buffer doubled when full. 0 at the end. A line
 * past line_max bytes stops the reading: c holds its first bytes (prepare
 * flags it; the run stops when c is written). */
static int read_chunk(input *in, chunk *c)
{
    c->len = 0;
    c->map = NULL;
    c->rf = NULL;
    c->empty = 0;
    for (;;) {
        if (in->done)
            return 0;
        if (in->map != NULL) {
            map_chunk(in, c);
            return 1;
        }
        if (in->fd < 0 && !next_file(in)) {
            in->done = 1;
            return 0;
        }
        if (in->map != NULL)
            continue;
        if (c->cap < in->clen + in->chunk_bytes) {
            c->cap = in->clen + in->chunk_bytes;
            c->own = xrealloc(c->own, c->cap);
        }
        if (in->clen > 0)
            memcpy(c->own, in->carry, in->clen);
        size_t len = in->clen, scanned = in->clen; /* the carry holds no newline */
        in->clen = 0;
        c->buf = c->own;
        c->name = in->name;
        c->first = in->fresh;
        const unsigned char *nl = NULL;
        for (;;) {
            ssize_t r;
            do
                r = read(in->fd, c->own + len, c->cap - len);
            while (r < 0 && errno == EINTR);
            if (r < 0)
                fail("%s: %s", in->name, strerror(errno));
            if (r == 0 && in->is_reg && in->got < in->want)
                cut_short(in->name);
            in->got += (uint64_t)r;
            if (r == 0)
                break;
            len += (size_t)r;
            nl = memrchr(c->own + scanned, '\n', len - scanned);
            if (nl != NULL)
                break;
            scanned = len;
            if (len > line_max) { /* too long: c ends here, nothing more is read */
                in->done = 1;
                close_file(in);
                c->len = len;
                in->fresh = 0;
                return 1;
            }
            if (len == c->cap) { /* one line longer than the buffer: read more */
                size_t cap = 2 * c->cap;
                if (cap > line_max + 1 + in->chunk_bytes)
                    cap = line_max + 1 + in->chunk_bytes;
                c->cap = cap;
                c->own = xrealloc(c->own, c->cap);
                c->buf = c->own;
            }
        }
        if (nl == NULL) { /* end of this file: its last line ends here */
            close_file(in);
            if (len == 0)
                continue;
            c->len = len;
            in->fresh = 0;
            return 1;
        }
        /* keep whole lines; carry the rest */
        const size_t whole = (size_t)(nl - c->own) + 1;
        in->clen = len - whole;
        if (in->clen > in->ccap) {
            in->ccap = in->clen * 2;
            in->carry = xrealloc(in->carry, in->ccap);
        }
        if (in->clen > 0)
            memcpy(in->carry, c->own + whole, in->clen);
        c->len = whole - 1; /* the final newline is the last line's end */
        in->fresh = 0;
        return 1;
    }
}

/* ------------------------------------------------------------ output */

static void write_all(const unsigned char *p, size_t n)
{
    size_t at = 0;
    while (at < n) {
        const ssize_t w = write(STDOUT_FILENO, p + at, n - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            fail("standard output: %s", strerror(errno));
        at += (size_t)w;
    }
}

/* pwrite_out: n bytes at offset off of standard output (a regular file) */
static void pwrite_all(const unsigned char *p, size_t n, uint64_t off)
{
    size_t at = 0;
    while (at < n) {
        const ssize_t w = pwrite(STDOUT_FILENO, p + at, n - at, (off_t)(off + at));
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            fail("standard output: %s", strerror(errno));
        at += (size_t)w;
    }
}

/* ------------------------------------------------------------ the filter */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The lines of the inputs, estimated when every one is a regular file (from
 * where its descriptor is): their bytes times the newlines per byte of 8
 * samples of 8 KiB spread evenly over them (a sample without one: one
 * line). 0 when an input is not a regular file or cannot be opened (which
 * reading it will say). The same for every --threads. */
#define EST_SAMPLES 8
#define EST_BYTES 8192
static uint64_t lines_estimate(const char *const *paths, int n)
{
    uint64_t total = 0, sampled = 0, nl = 0, at_file = 0;
    for (int pass = 0; pass < 2; pass++) {
        at_file = 0;
        for (int i = 0; i < n; i++) {
            const int is_stdin = strcmp(paths[i], "-") == 0;
            struct stat st;
            if (!is_stdin && (stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode)))
                return 0; /* (a FIFO is not opened: that would wait for its writer) */
            const int fd = is_stdin ? STDIN_FILENO : open(paths[i], O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                return 0;
            off_t at = -1;
            if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
                at = lseek(fd, 0, SEEK_CUR);
            const uint64_t rest = at >= 0 && at < st.st_size ? (uint64_t)(st.st_size - at) : 0;
            /* pass 1: the samples whose start falls in this file */
            for (int k = 0; pass == 1 && k < EST_SAMPLES; k++) {
                const uint64_t o = total / EST_SAMPLES * (uint64_t)k;
                if (o < at_file || o >= at_file + rest)
                    continue;
                unsigned char buf[EST_BYTES];
                const uint64_t left = at_file + rest - o;
                const ssize_t r = pread(fd, buf, left < sizeof buf ? (size_t)left : sizeof buf,
                                        at + (off_t)(o - at_file));
                size_t c = 0;
                for (ssize_t q = 0; q < r; q++)
                    c += buf[q] == '\n';
                if (r > 0) {
                    sampled += (uint64_t)r;
                    nl += c > 0 ? c : 1;
                }
            }
            if (!is_stdin)
                close(fd);
            if (at < 0)
                return 0;
            at_file += rest;
        }
        total = at_file;
    }
    return sampled ? (uint64_t)((double)total * (double)nl / (double)sampled) : 0;
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

/* The oldest chunk, formatted: its bytes written, in input order, its
 * lines without a key named (the first few), its counts added, its pages
 * of a mapped file given back, the progress line (one thread at a time). */
static void write_chunk(dedup *d, chunk *w)
{
    if (w->first)
        d->file_lines = 0;
    if (w->toolong) /* (its lines are not written: the output ends before them) */
        fail("dedup: %s: line %llu is longer than %zu bytes, the most a line may hold "
             "(is it a file of lines?); stopped, nothing saved", w->name,
             (unsigned long long)(d->file_lines + w->toolong), line_max);
    if (w->olen && !d->pwrite_out)
        write_all(w->obuf, w->olen);
    if (w->nokey && d->nokey < SHOW_MISSING) {
        uint64_t k = d->nokey;
        for (size_t i = 0; i < w->n && k < SHOW_MISSING; i++) {
            if (w->dec[i] != D_NOKEY)
                continue;
            k++;
            static const char *const why[] = { "", "fewer fields than --tsv-field",
                                               "not a JSON object", "no such field",
                                               "the field is not a string" };
            const uint64_t ln = d->file_lines + i + 1;
            fprintf(stderr, "%s: %s: line %llu has no key (%s%s%s): %s\n", prog, w->name,
                    (unsigned long long)ln, why[w->why[i]], w->why[i] >= 3 ? ": " : "",
                    w->why[i] >= 3 ? d->json_field : "",
                    show_text(w->buf + w->start[i], w->end[i] - w->start[i]));
        }
    }
    d->fresh += w->fresh;
    d->seen += w->seen;
    d->nokey += w->nokey;
    d->other += w->other;
    d->written += w->written;
    d->units += w->units;
    d->unit_dups += w->unit_dups;
    d->lines += w->n;
    d->file_lines += w->n;
    if (d->ngrams) {
        d->total_ngrams += w->nh;
        d->text_bytes += w->text_bytes;
    }
    if (w->map != NULL) { /* its pages: out of this process's memory */
        if (d->released_map != w->map) {
            d->released_map = w->map;
            d->released = 0;
        }
        if (w->map_last) {
            guard_drop(w->map);
            munmap(w->map, w->map_len);
        } else {
            /* in 32 MB steps, not per chunk: each madvise flushes the
             * TLB of every CPU running a thread of the process (IPIs: 5%
             * of two threads' CPU when done per 512 KB chunk) */
            const size_t to = w->map_done / d->page * d->page;
            if (to >= d->released + RELEASE_BYTES) {
                madvise(w->map + d->released, to - d->released, MADV_DONTNEED);
                d->released = to;
            }
        }
    }
    if (d->tty && !d->quiet) {
        const double t = now_s();
        if (t - d->t0 >= 1.0 && t - d->last >= 0.25) {
            d->last = t;
            d->shown = 1;
            double fill, efpp;
            uint64_t keys;
            size_t bytes;
            fill_fpp(d, &fill, &efpp, &keys, &bytes);
            fprintf(stderr, "\r%s: dedup: %llu lines, %llu new (%.2f M lines/s), "
                    "filter %.0f%% full, fpp %.3g  ", prog, (unsigned long long)d->lines,
                    (unsigned long long)d->fresh, (double)d->lines / (t - d->t0) / 1e6,
                    100 * fill, efpp);
        }
    }
}

static void free_chunk(chunk *c)
{
    free(c->own);
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
    free(c->pp);
    free(c->pidx);
    free(c->miss);
    free(c->sorted);
    free(c->sorted2);
    free(c->wp);
    free(c->wl);
    free(c->wa);
    free(c->wb);
    free(c->u_line);
    free(c->u_s);
    free(c->u_e);
    free(c->u_g0);
    free(c->u_gn);
    free(c->u_seen);
    free(c->l_u0);
    free(c->l_un);
    free(c->gunit);
    free(c->obuf);
    free(c->turn);
}

int cmd_dedup(int argc, char **argv)
{
    args a;
    parse_args(argc, argv,
               " --expected= --fpp= --filter= --invert --count --tsv-field= --json-field="
               " --threads= --shard= --layout= --binary --quiet --initial= --growth= --seed="
               " --ngrams= --threshold= --no-add --verify --paragraphs --annotate"
               " --remove-type= ",
               help_dedup, 0, ARGS_MAX_POS, &a);
    dedup d;
    memset(&d, 0, sizeof d);
    d.invert = opt_flag(&a, "--invert");
    d.count_only = opt_flag(&a, "--count");
    const int invert = d.invert, count_only = d.count_only;
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
    d.paragraphs = opt_flag(&a, "--paragraphs");
    if ((s = opt_val(&a, "--remove-type")) != NULL) { /* bff's names */
        if (!d.ngrams)
            usage_error("--remove-type is for --ngrams");
        if (strcmp(s, "both") == 0)
            d.paragraphs = d.both = 1;
        else if (strcmp(s, "paragraph") == 0)
            d.paragraphs = 1;
        else if (strcmp(s, "document") != 0)
            usage_error("--remove-type: document, paragraph or both: '%s'",
                        show_text(s, strlen(s)));
        else if (d.paragraphs)
            usage_error("--remove-type document and --paragraphs are exclusive");
    }
    d.annotate = opt_flag(&a, "--annotate");
    if ((d.paragraphs || d.annotate) && !d.ngrams)
        usage_error("--paragraphs and --annotate are for --ngrams");
    if (d.annotate && d.tsv_field)
        usage_error("--annotate adds JSON members: not with --tsv-field");
    if (d.annotate && invert)
        usage_error("--annotate writes every document: not with --invert");
    d.no_add = opt_flag(&a, "--no-add");
    if (d.no_add && opt_val(&a, "--filter") == NULL)
        usage_error("--no-add needs --filter (the filter to probe)");
    const int verify = opt_flag(&a, "--verify");
    if (verify && !d.no_add)
        usage_error("--verify is for --no-add (a filter added to is loaded and checked)");
    d.threshold = 0.8;
    if ((s = opt_val(&a, "--threshold")) != NULL) {
        if (!d.ngrams)
            usage_error("--threshold is for --ngrams");
        if (!num_decimal(s, &d.threshold) || !(d.threshold > 0 && d.threshold <= 1))
            usage_error("--threshold: a fraction in (0, 1]: '%s'", show_text(s, strlen(s)));
    }
    uint64_t threads = 1;
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 1)
        threads = (uint64_t)CPU_COUNT(&cpus) < MAX_THREADS ? (uint64_t)CPU_COUNT(&cpus)
                                                           : MAX_THREADS;
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
    uint64_t initial = opt_val(&a, "--initial")
                           ? parse_count("--initial", opt_val(&a, "--initial")) : 0;
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
        struct stat fst; /* a FIFO opened and closed here would end its writer (SIGPIPE) */
        if (stat(a.pos[i], &fst) == 0 && S_ISFIFO(fst.st_mode)) {
            if (access(a.pos[i], R_OK) != 0)
                fail("%s: %s", a.pos[i], strerror(errno));
            continue;
        }
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
    if (have_file && d.no_add) {
        /* probed only: mapped (it may be larger than memory), its pages read
         * as probes need them; --verify checks every checksum first */
        if (is_scalable_file(fpath)) {
            const int rc = sbf_scalable_map(&d.s, fpath, verify ? 0 : SBF_MAP_NO_VERIFY);
            if (rc != SBF_OK)
                fail_code(fpath, rc);
            struct sbf_scalable_info si; /* its sub-filters' bytes, mapped: guarded too */
            sbf_scalable_info(d.s, &si);
            for (uint32_t i = 0; i < si.filters; i++) {
                size_t len;
                const void *data = sbf_data(sbf_scalable_filter(d.s, i), &len);
                if (data != NULL)
                    guard_add(data, len, fpath);
            }
        } else {
            d.f = open_filter(fpath, verify ? OPEN_VERIFY : OPEN_QUERY, NULL);
        }
    } else if (have_file) {
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
        if (initial == 0) {
            /* a quarter of the lines the input has (regular files: their
             * size over the mean line of the first 64 KiB), at least 1M
             * (pipes, n-grams: 1M). A quarter of the lines are new, at
             * most three sub-filters for every line new: a key probes
             * each (at 50M lines, half of them new, 2 against 5 from 1M;
             * doc/dedup.md) */
            const uint64_t est = d.ngrams ? 0
                               : lines_estimate(a.npos ? (const char *const *)a.pos
                                                       : (const char *const[]){ "-" },
                                                a.npos ? a.npos : 1) /
                                     (d.shard_n > 1 ? d.shard_n : 1);
            initial = est / 4 > INITIAL_MIN ? est / 4 : INITIAL_MIN;
            if (initial > INITIAL_MAX)
                initial = INITIAL_MAX;
        }
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
        if ((d.no_add ? sbf_view_get(d.f, &d.v) : sbf_view_get_writable(d.f, &d.v)) != SBF_OK)
            fail("the filter is read-only");
        d.block_words = d.v.query == SBF_VIEW_CALL ? 0
                      : d.v.query == SBF_VIEW_SPLIT8 || d.v.query == SBF_VIEW_PARQUET ||
                          d.v.query == SBF_VIEW_SPLIT8_XXH3 ||
                          d.v.query == SBF_VIEW_SPLIT8_FMIX ? 4 : 8;
    }

    if (d.s != NULL) { /* what sbf_scalable_hash hashes with, kept */
        if (sbf_scalable_filters(d.s) > 0) {
            d.hash_f = sbf_scalable_filter(d.s, 0);
        } else {
            sbf_scalable_params sp;
            sbf_params hp = { 0 };
            (void)sbf_scalable_params_of(d.s, &sp);
            hp.layout = sp.layout;
            hp.expected_n = 1;
            hp.fpp = 0.5;
            hp.seed = sp.seed;
            if (sbf_create(&d.own_hash_f, &hp) != SBF_OK)
                fail("cannot make the filter");
            d.hash_f = d.own_hash_f;
        }
    }
    d.page = (size_t)sysconf(_SC_PAGESIZE);
    size_t data_len = 0;
    const void *data = d.f != NULL && d.no_add ? sbf_data(d.f, &data_len) : NULL;
    /* from this size on (SBF_DEDUP_SORTED_BYTES: bytes, default 256 MiB)
     * a filter's pages may well not be in memory: block-sorted batches */
    uint64_t sorted_from = (uint64_t)256 << 20;
    const char *env = getenv("SBF_DEDUP_SORTED_BYTES");
    if (env != NULL && !num_u64((const unsigned char *)env, strlen(env), &sorted_from))
        fail("SBF_DEDUP_SORTED_BYTES: not a byte count: '%s'", show_text(env, strlen(env)));
    if (data != NULL && d.block_words && data_len >= sorted_from) {
        /* the kernel's read-around on a page fault reads 32 pages for the
         * one a probe needs: off; the batches ask for their pages instead */
        d.mapped = 1;
        const uintptr_t lo = (uintptr_t)data & ~(uintptr_t)(d.page - 1);
        (void)madvise((void *)lo, (uintptr_t)data + data_len - lo, MADV_RANDOM);
    }
    /* the parts: a fixed filter probed inline is cut into P ranges of
     * blocks (a few per thread, so that threads find one free). With two
     * threads the in-order decision is not what bounds a run (one thread
     * decides while the other prepares and formats) and routing keys to
     * parts costs CPU (doc/dedup.md has the figures). The output is the
     * same bytes either way. */
    d.parts = 1;
    if (d.s != NULL && !d.no_add && sbf_scalable_filters(d.s) > 0) {
        /* a growing filter: by parts while a chunk fits in the newest
         * sub-filter, of a layout probed inline, through views; from three
         * threads, as a fixed filter. One or two threads: one part, the
         * keys in input order through the same views: deciding (0.38-0.45
         * of 1.6-1.7 CPU s at 50M lines, with the vector probes and 2
         * sub-filters) does not bound two threads, and routing keys to
         * parts cost two threads 0.04-0.27 CPU s of preparing (load 5) */
        sbf_view gv;
        if (sbf_view_get_writable(sbf_scalable_filter_writable(d.s, 0), &gv) == SBF_OK &&
            gv.query != SBF_VIEW_CALL && gv.add != SBF_VIEW_CALL) {
            d.grow_parts = 1;
            d.block_words = view_block_words(&gv);
        }
    }
    if (d.grow_parts || (threads > 2 && d.f != NULL && d.v.query != SBF_VIEW_CALL &&
                         (d.no_add || (d.v.add != SBF_VIEW_CALL && d.v.added != NULL)))) {
        d.parts = threads <= 2 && d.grow_parts ? 1
                : (size_t)threads * 4 < MAX_PARTS ? (size_t)threads * 4 : MAX_PARTS;
        /* (C11: the size a multiple of the alignment; ASan checks it) */
        d.pv = aligned_alloc(64, (d.parts * sizeof *d.pv + 63) & ~(size_t)63);
        if (d.pv == NULL)
            fail("out of memory");
        for (size_t p = 0; p < d.parts; p++) {
            memset(&d.pv[p], 0, sizeof d.pv[p]);
            d.pv[p].v = d.v;
            d.pv[p].v.added = &d.pv[p].added;
        }
        if (d.grow_parts)
            grow_refresh(&d);
    }
    if (getenv("SBF_DEDUP_PF") != NULL && d.block_words && !d.mapped && d.shard_n <= 1)
        d.prep_fetch = d.f != NULL ? PF_FIXED : d.grow_parts && threads == 1 ? PF_GROW : PF_NONE;
    d.pnext = calloc(d.parts, sizeof *d.pnext);
    d.pbusy = calloc(d.parts, 1);
    /* threads: T - 1 workers and the main thread, alike; a few chunks
     * per thread in flight, and 24 more (12 MiB of input, ~1.5 MB each):
     * a thread the scheduler sets aside while it holds the oldest task
     * (the write, a part) stops the others once every slot waits for it,
     * and on a busy machine that is several ms (2 threads, 50M lines, load
     * 5: 8 slots waited 1.3-1.9 s in all, 32 0.03-0.36 s) */
    const size_t workers = (size_t)threads - 1;
    d.nslots = workers ? 4 * (size_t)threads + 24 : 1;
    d.slots = calloc(d.nslots, sizeof *d.slots);
    d.ring = calloc(d.nslots, sizeof *d.ring);
    d.pool = calloc(d.nslots, sizeof *d.pool);
    if (d.slots == NULL || d.ring == NULL || d.pool == NULL || d.pnext == NULL ||
        d.pbusy == NULL)
        fail("out of memory");
    for (size_t i = 0; i < d.nslots; i++) /* slots[0] on top */
        d.pool[d.npool++] = &d.slots[d.nslots - 1 - i];
    d.read_ahead = (size_t)threads;
    pthread_t tid[MAX_THREADS];
    pthread_mutex_init(&d.mu, NULL);
    pthread_cond_init(&d.cv, NULL);

    static const char *const stdin_only[1] = { "-" };
    input in;
    memset(&in, 0, sizeof in);
    in.paths = a.npos ? (const char *const *)a.pos : stdin_only;
    in.npaths = a.npos ? a.npos : 1;
    in.fd = -1;
    in.chunk_bytes = d.mapped ? MAPPED_CHUNK_BYTES : CHUNK_BYTES;
    /* one thread reads; more map, as reading is one thread's at a time
     * (0.5 s of 50M lines' 1.1 s with two threads: they waited for it,
     * 0.66-0.68 s against 0.29 mapped); SBF_DEDUP_MMAP=1 maps, =0 reads */
    {
        const char *mm = getenv("SBF_DEDUP_MMAP");
        in.use_map = mm != NULL && (strcmp(mm, "1") == 0 || strcmp(mm, "0") == 0)
                         ? strcmp(mm, "1") == 0
                         : threads > 1;
    }
    /* threads, every input a regular file (standard input too): ranges of
     * it read by each thread at once with pread, into the chunks' buffers
     * (no page faults, no serial carry); SBF_DEDUP_PREAD=1 also for one
     * thread, =0 never. A test hook: SBF_DEDUP_CHUNK_BYTES, the bytes a
     * chunk reads (the lines of a range, for pread) */
    {
        const char *pr = getenv("SBF_DEDUP_PREAD");
        const char *mm = getenv("SBF_DEDUP_MMAP");
        int par = pr != NULL && strcmp(pr, "1") == 0 ? 1
                : pr != NULL && strcmp(pr, "0") == 0 ? 0
                : threads > 1 && !(mm != NULL && strcmp(mm, "1") == 0);
        for (int i = 0; par && i < in.npaths; i++) { /* standard input: a file's */
            struct stat pst;
            const int is_stdin = strcmp(in.paths[i], "-") == 0;
            par = (is_stdin ? fstat(STDIN_FILENO, &pst) : stat(in.paths[i], &pst)) == 0 &&
                  S_ISREG(pst.st_mode) && (!is_stdin || lseek(STDIN_FILENO, 0, SEEK_CUR) >= 0);
        }
        in.par = par;
        if (par) /* (use_map: the serial path's) */
            in.use_map = 0;
        const char *cb = getenv("SBF_DEDUP_CHUNK_BYTES");
        if (cb != NULL) {
            char *endp;
            errno = 0;
            const unsigned long long v = strtoull(cb, &endp, 10);
            if (errno || endp == cb || *endp || v < 1 || v > (1ull << 30))
                fail("SBF_DEDUP_CHUNK_BYTES: not a byte count from 1 to 2^30: '%s'",
                     show_text(cb, strlen(cb)));
            in.chunk_bytes = (size_t)v;
        }
    }
    line_max = key_line_max();
    d.in = &in;
    d.t0 = d.last = now_s();
    d.tty = isatty(STDERR_FILENO);
    d.quiet = quiet;
    d.times = getenv("SBF_DEDUP_TIMES") != NULL;
    d.pass = dedup_pass_pick();
    /* SBF_DEDUP_PWRITE=1, standard output a regular file, threads: each
     * chunk written at its offset by the thread that has it. Not the
     * default: ext4 (and most file systems) take the file's lock for every
     * buffered write, so a second writer waits for the first instead of
     * working, and no faster run was measured (doc/dedup.md); a run
     * stopped part way may leave gaps of zero bytes */
    {
        struct stat os;
        const char *pw = getenv("SBF_DEDUP_PWRITE");
        const int flags = fcntl(STDOUT_FILENO, F_GETFL);
        const off_t at = lseek(STDOUT_FILENO, 0, SEEK_CUR);
        if (workers > 0 && !count_only && pw != NULL && strcmp(pw, "1") == 0 &&
            fstat(STDOUT_FILENO, &os) == 0 && S_ISREG(os.st_mode) && flags >= 0 &&
            !(flags & O_APPEND) && at >= 0) {
            d.pwrite_out = 1;
            d.out_off = (uint64_t)at;
        }
    }
    for (size_t t = 0; t < workers; t++)
        if (pthread_create(&tid[t], NULL, worker, &d) != 0)
            fail("cannot start a thread");
    work(&d, 1);
    pthread_mutex_lock(&d.mu);
    d.stop = 1;
    pthread_cond_broadcast(&d.cv);
    pthread_mutex_unlock(&d.mu);
    for (size_t t = 0; t < workers; t++)
        pthread_join(tid[t], NULL);
    if (d.grow_parts)
        grow_fold(&d);
    else if (d.pv != NULL && !d.no_add) /* the parts' adds, into the filter's count */
        for (size_t p = 0; p < d.parts; p++)
            *d.v.added += d.pv[p].added;
    if (d.shown)
        fputc('\n', stderr);
    if (d.pwrite_out && lseek(STDOUT_FILENO, (off_t)d.out_off, SEEK_SET) < 0)
        fail("standard output: %s", strerror(errno)); /* (after the bytes, as write leaves it) */
    if (count_only) {
        char num[32];
        const int k = snprintf(num, sizeof num, "%llu\n", (unsigned long long)d.written);
        write_all((const unsigned char *)num, (size_t)k);
    }
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
        const double t = now_s() - d.t0;
        double fill, efpp;
        uint64_t keys;
        size_t bytes;
        fill_fpp(&d, &fill, &efpp, &keys, &bytes);
        fprintf(stderr, "%s: dedup: %llu lines: %llu new, %llu seen before", prog,
                (unsigned long long)d.lines, (unsigned long long)d.fresh,
                (unsigned long long)d.seen);
        if (d.nokey)
            fprintf(stderr, ", %llu without a key (written as is)", (unsigned long long)d.nokey);
        if (d.other)
            fprintf(stderr, ", %llu in other shards", (unsigned long long)d.other);
        if (d.paragraphs)
            fprintf(stderr, "; %llu paragraphs, %llu duplicate", (unsigned long long)d.units,
                    (unsigned long long)d.unit_dups);
        if (d.ngrams)
            fprintf(stderr, "; %llu %u-grams of %.1f MB of text (%.2f M n-grams/s, %.1f MB/s)",
                    (unsigned long long)d.total_ngrams, d.ngrams, (double)d.text_bytes / 1e6,
                    t > 0 ? (double)d.total_ngrams / t / 1e6 : 0.0,
                    t > 0 ? (double)d.text_bytes / t / 1e6 : 0.0);
        fprintf(stderr, "; filter %s, %llu keys, %.1f MB, %s%.0f%% full, fpp %.3g; "
                "%.2f s (%.2f M lines/s)\n", d.s ? "growing" : "fixed", (unsigned long long)keys,
                (double)bytes / 1e6, d.s ? "newest " : "", 100 * fill, efpp, t,
                t > 0 ? (double)d.lines / t / 1e6 : 0.0);
    }
    if (d.times) {
        /* where the time went, per task kind (for bench/dedup.sh) */
        static const char *const kn[] = { "", "prepare", "decide", "format", "read", "write",
                                          "pwrite", "decide-in-order" };
        fprintf(stderr, "%s: dedup times: wall %.3f s, threads %llu, waiting %.3f s;", prog,
                now_s() - d.t0, (unsigned long long)threads, d.wait_s);
        for (int k = T_PREPARE; k <= T_WHOLE; k++)
            fprintf(stderr, " %s %.3f s cpu (%llu)", kn[k], d.task_cpu[k],
                    (unsigned long long)d.task_n[k]);
        fputc('\n', stderr);
    }
    for (size_t i = 0; i < d.nslots; i++)
        free_chunk(&d.slots[i]);
    free(d.slots);
    free(d.ring);
    free(d.pool);
    free(d.pnext);
    free(d.pbusy);
    free(d.pv);
    free(d.g_old);
    free(in.carry);
    pthread_mutex_destroy(&d.mu);
    pthread_cond_destroy(&d.cv);
    sbf_free(d.f);
    sbf_free(d.own_hash_f);
    sbf_scalable_free(d.s);
    sbf_unlock_file(lock);
    return 0;
}
