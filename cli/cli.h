/*
 * sbf, the command: what its files share. cli/ sees only the public header.
 *
 *   sbf.c          main and the command table (from commands.def)
 *   cli_args.c     argv: options, positionals, numbers
 *   cli_msg.c      errors, usage errors, escaping of keys and JSON strings
 *   cli_keys.c     key readers: lines in batches, typed keys (--u64, --type)
 *   cli_numbers.c  text to numbers (key lines, option values), decimal only
 *   cli_files.c    opening and saving filters of any format
 *   cli_progress.c the progress line on a terminal
 *   cmd_*.c        one file per command (or family of commands)
 *
 * Adding a command: write cli/cmd_NAME.c with
 *     int cmd_NAME(int argc, char **argv)
 * (argv[1] is the command's name; parse_args reads argv[2..]), and add one
 * line to cli/commands.def. The Makefile builds every .c file in cli/.
 */
#ifndef SBF_CLI_H_1c8e53
#define SBF_CLI_H_1c8e53

#include <stddef.h>
#include <stdint.h>

#include "simdbloom.h"

#define EXIT_USAGE 2
#define BATCH 8192             /* keys per batched call */
#define READ_CHUNK (4u << 20)  /* bytes per read() of the key file */
#define KEY_LINE_MAX (1u << 30) /* a longer line is refused: input without newlines
                                  (/dev/zero, a binary file) must not take all memory */
/* KEY_LINE_MAX, or less when the test hook SBF_KEY_LINE_MAX says so (cli_keys.c;
 * the key readers and sbf dedup's) */
size_t key_line_max(void);

/* One prototype per command, from the table. */
#define SBF_COMMAND(name, synopsis, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef SBF_COMMAND

/* ------------------------------------------------------------ cli_msg.c */

extern const char *prog;

__attribute__((format(printf, 1, 2), noreturn))
void fail(const char *fmt, ...);
__attribute__((format(printf, 1, 2), noreturn))
void usage_error(const char *fmt, ...);
/* An sbf_* error about a file: SBF_E_IO carries errno's reason. */
__attribute__((noreturn))
void fail_code(const char *file, int code);
/* The help text on standard output, then exit 0. */
__attribute__((noreturn))
void print_help(const char *text);
/* len bytes of s for a message: printable ASCII as is, C escapes (\\r,
 * \\n, \\t, \\\\, \\', \\xHH) for the rest, at most SHOW_MAX bytes then
 * "...". The result lives until four more calls. */
#define SHOW_MAX 40
const char *show_text(const void *s, size_t len);
/* s as a JSON string: UTF-8 as is, bytes that are not UTF-8 as U+FFFD.
 * Returns 1 when a byte was replaced. */
int json_string(const char *s);
void json_double(double v);

/* ----------------------------------------------------------- cli_args.c */

#define ARGS_MAX_POS 4
#define ARGS_MAX_OPT 24

/*
 * A command's arguments. The option spec is a string of names between
 * spaces; a name ending in '=' takes a value (" --layout= --force ").
 */
typedef struct args {
    const char *pos[ARGS_MAX_POS];
    int npos;
    const char *spec;
    const char *val[ARGS_MAX_OPT]; /* per spec entry: value, "" for a flag, NULL unset */
} args;

/* Parses argv[2..] against spec; `help` is shown by --help; nmin..nmax
 * positionals. Usage errors exit. */
void parse_args(int argc, char **argv, const char *spec, const char *help, int nmin,
                int nmax, args *a);
/* An option's value (NULL when not given); name must be in the spec. */
const char *opt_val(const args *a, const char *name);
/* 1 when a flag (or valued option) was given. */
int opt_flag(const args *a, const char *name);

/* -------------------------------------------------------- cli_numbers.c */

/* A decimal 64-bit unsigned integer, the whole of p[0..len): 1, else 0. */
int num_u64(const unsigned char *p, size_t len, uint64_t *out);
/* [+|-] and decimal digits, within int64. */
int num_i64(const unsigned char *p, size_t len, int64_t *out);
/* strtod's / strtof's syntax, no leading white space, no trailing bytes; a
 * finite number too large for the type is refused (underflow rounds). */
int num_f64(const unsigned char *p, size_t len, double *out);
int num_f32(const unsigned char *p, size_t len, float *out);
/* A decimal integer option (usage error otherwise: sign, hex, space). */
uint64_t parse_u64_arg(const char *opt, const char *s);
/* A count: 5000, 1e6, 2.5e3, 10M (suffixes k/K 10^3, M 10^6, G 10^9,
 * T 10^12); a whole number. 1 ok, 0 syntax, -1 above 2^64-1, -2 not whole. */
int num_count(const char *s, uint64_t *out);
/* A size: num_count's forms, or a whole number with a binary suffix Ki,
 * Mi, Gi, Ti (powers of 1024: 128Mi is 134217728). Returns as num_count. */
int num_size(const char *s, uint64_t *out);
/* num_size for an option's value (usage errors exit). */
uint64_t parse_size_arg(const char *opt, const char *s);
/* A decimal real (digits, point, exponent; no sign, hex, inf or nan). */
int num_decimal(const char *s, double *out);
/* A rate option (--fpp) for every command: num_decimal's form, in (0, 1);
 * usage errors exit. Hex floats, inf and nan are refused everywhere. */
double parse_rate_arg(const char *opt, const char *s);

/* ---------------------------------------------------------- cli_files.c */

/* What info and verify call a file's form (ours by version). */
enum { FMT_SBF1 = 1, FMT_SBF2 = 2, FMT_GUAVA = 3, FMT_PARQUET = 4 };
extern const char *const format_names[5];
/* "simdbloom", "Guava", "Parquet": an SBF_FORMAT_* in a sentence. */
const char *form_title(int format);

/* How open_filter reads a file of our format (Guava's is always parsed
 * whole; version 1 is always loaded, every checksum checked). */
enum {
    OPEN_QUERY,    /* a read-only mapping, header checked, data read on demand */
    OPEN_VERIFY,   /* a read-only mapping, every checksum checked first */
    OPEN_WRITABLE  /* the library's own memory (sbf_load), every checksum checked */
};
/* Opens a filter of any format (errors exit). A mapping is guarded: if
 * another program truncates the file, touching a lost page ends sbf with a
 * message and status 1 rather than SIGBUS. */
sbf_filter *open_filter(const char *path, int mode, int *fmt_out);
/* The same guard for each sub-filter of a mapped growing filter. */
void guard_scalable(const sbf_scalable *s, const char *path);
/* An exclusive lock on the file path names for a read-modify-write
 * (sbf_lock_file): waits while another holds it, saying so on a terminal;
 * errors exit. sbf_unlock_file (or exit) releases it. */
sbf_file_lock *lock_path(const char *path);
/* Our own format, writable (add, remove). */
sbf_filter *open_own(const char *path);
/* sbf_save_as (crash-safe, the file's mode, owner and links kept); save is
 * our form. Errors exit. */
void save_as(const sbf_filter *f, const char *path, int format);
/* The message for sbf_save_as's error rc (a directory that refuses the
 * temporary file named as the cause), then exit 1. */
__attribute__((noreturn))
void fail_save(const sbf_filter *f, const char *path, int format, int rc);
void save(const sbf_filter *f, const char *path);
/* 1 when path holds a growing (scalable, format version 3) filter. */
int is_scalable_file(const char *path);
/* A growing filter's format version (3 or 4), 0 for any other file. */
int scalable_file_version(const char *path);
/* sbf_scalable_load, errors exit. */
sbf_scalable *open_scalable(const char *path);

/* ----------------------------------------------------------- cli_keys.c */

/* What a key line is hashed as (--u64, --type): the value's Parquet PLAIN
 * encoding. string: the line's bytes; u64 (--u64): decimal 0..2^64-1, 8
 * bytes LE (sbf_add_u64); int64: signed decimal, 8 bytes LE; int32: 4
 * bytes LE; float / double: strtod's syntax (-0, inf, nan included), the
 * IEEE bytes LE. */
enum { KEY_STRING, KEY_U64, KEY_INT32, KEY_INT64, KEY_FLOAT, KEY_DOUBLE };
/* The options a command that reads keys puts in its spec, and their help. */
#define KEY_OPTS " --u64 --type= --binary --hex "
#define KEY_SYNOPSIS "[--type T | --u64] [--binary] [--hex]"
/* key_options' *binary: flags */
#define KEY_BINARY 1
#define KEY_HEX 2
#define KEY_HELP \
    "A line's key is its bytes without the newline and without one trailing\n" \
    "\\r (a CRLF file means what its LF twin means); --binary keeps every byte.\n" \
    "--type string|int32|int64|float|double hashes each line's value as its\n" \
    "Parquet PLAIN encoding: int32 4 bytes, int64 8 bytes, little-endian\n" \
    "(signed decimal); float, double: the IEEE bytes little-endian (strtod's\n" \
    "syntax: 1.5, -0, 1e-3, inf, nan); string: the line's bytes (the default).\n" \
    "--u64: a decimal 0..2^64-1 as its 8 little-endian bytes (sbf_add_u64).\n" \
    "--hex: each line is the key's bytes in hex (an even count of 0-9a-fA-F,\n" \
    "e.g. 610a62 for a, newline, b): any key, a newline or a \\r included.\n"

typedef struct keyreader {
    const char *name;   /* for messages */
    int fd;
    int type, binary;   /* KEY_*; --binary: keep a trailing \r */
    int hex;            /* --hex: lines are hex digits, decoded */
    int words;          /* the batch's keys are in u (8-byte types) */
    unsigned char *buf;
    size_t cap, start, end;
    size_t scanned;     /* bytes of the line at start searched for '\n' already */
    size_t max_line;    /* longest line taken (KEY_LINE_MAX) */
    int eof;
    uint64_t line;      /* lines consumed */
    uint64_t bytes_in, total; /* progress: bytes read, file size (0: unknown) */
    const void **keys;  /* one batch: pointers and lengths (byte keys) */
    size_t *lens;
    uint64_t *u;        /* 8-byte values (words) */
    uint32_t *w32;      /* 4-byte values, keys[] point at them */
} keyreader;

/* The key type from --u64 / --type (usage errors exit); *binary the flags
 * KEY_BINARY (--binary) and KEY_HEX (--hex, string keys only), for kr_open. */
int key_options(const args *a, int *binary);
/* path NULL or "-": standard input. */
void kr_open(keyreader *kr, const char *path, int type, int binary);
void kr_close(keyreader *kr);
/* Up to BATCH complete lines (a last line without newline counts at end of
 * input) as pointers into the buffer, valid until the next call. Returns
 * the count; 0 at end of input. Lines only: no parsing. */
size_t kr_lines(keyreader *kr);
/* The next batch as keys of kr->type (a bad line exits naming it). */
size_t kr_next(keyreader *kr);
/* The batch's n keys on a filter (the sbf_* return). */
int keys_add(sbf_filter *f, const keyreader *kr, size_t n);
size_t keys_contains(const sbf_filter *f, const keyreader *kr, size_t n, uint8_t *out);
int key_remove(sbf_filter *f, const keyreader *kr, size_t i);
/* A number from key i, for --parse-only's checksum. */
uint64_t key_sum(const keyreader *kr, size_t i);

/* ------------------------------------------------------- cli_progress.c */

typedef struct progress {
    int tty;
    double t0, last;
    int shown;
} progress;

void progress_start(progress *pg);
/* A line on stderr when it is a terminal and the work took over a second. */
void progress_tick(progress *pg, const keyreader *kr, const char *verb);
/* The same for bytes of a file: "verifying 42% of F (1.2 GB/s)". */
void progress_bytes(progress *pg, uint64_t done, uint64_t total, const char *verb,
                    const char *name);
void progress_end(progress *pg);

#endif
