/*
 * sbf, the command: what its files share. cli/ sees only the public header.
 *
 *   sbf.c          main and the command table (from commands.def)
 *   cli_args.c     argv: options, positionals, numbers
 *   cli_msg.c      errors, usage errors, escaping of keys and JSON strings
 *   cli_keys.c     key readers: lines in batches, --u64 parsing
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
void json_string(const char *s);
void json_double(double v);

/* ----------------------------------------------------------- cli_args.c */

#define ARGS_MAX_POS 4
#define ARGS_MAX_OPT 16

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
/* A non-negative integer option (usage error otherwise). */
uint64_t parse_u64_arg(const char *opt, const char *s);

/* ---------------------------------------------------------- cli_files.c */

enum { FMT_SBF1 = 1, FMT_SBF2 = 2, FMT_GUAVA = 3 };
extern const char *const layout_names[4];
extern const char *const format_names[4];

/* Opens a filter of any format. writable: into our own memory (sbf_load),
 * else a verified read-only mapping when the file allows it. */
sbf_filter *open_filter(const char *path, int writable, int *fmt_out);
/* Our own format, writable (add, remove). */
sbf_filter *open_own(const char *path);
void save(const sbf_filter *f, const char *path);
void save_guava(const sbf_filter *f, const char *path);

/* ----------------------------------------------------------- cli_keys.c */

typedef struct keyreader {
    const char *name;   /* for messages */
    int fd;
    unsigned char *buf;
    size_t cap, start, end;
    int eof;
    uint64_t line;      /* lines consumed */
    uint64_t bytes_in, total; /* progress: bytes read, file size (0: unknown) */
    const void **keys;  /* one batch: line pointers, lengths, --u64 values */
    size_t *lens;
    uint64_t *u;
} keyreader;

/* path NULL or "-": standard input. */
void kr_open(keyreader *kr, const char *path);
void kr_close(keyreader *kr);
/* Up to BATCH complete lines (a last line without newline counts at end of
 * input) as pointers into the buffer, valid until the next call. Returns
 * the count; 0 at end of input. */
size_t kr_lines(keyreader *kr);
/* The n lines of the batch as decimal u64 into kr->u; a bad line exits. */
void parse_batch_u64(keyreader *kr, size_t n);

/* ------------------------------------------------------- cli_progress.c */

typedef struct progress {
    int tty;
    double t0, last;
    int shown;
} progress;

void progress_start(progress *pg);
/* A line on stderr when it is a terminal and the work took over a second. */
void progress_tick(progress *pg, const keyreader *kr, const char *verb);
void progress_end(progress *pg);

#endif
