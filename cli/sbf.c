/*
 * sbf: simdbloom filters from a shell. A thin program over the public
 * header: every output filter goes through sbf_save (crash-safe), Guava
 * output through the same temporary-file-and-rename discipline.
 *
 *   sbf create FILE [--layout L] [-n N] [--fpp P] [--bits B] [--k K] [--seed S] [--force]
 *   sbf add FILE [KEYFILE|-] [--u64]
 *   sbf remove FILE [KEYFILE|-] [--u64]
 *   sbf query FILE [KEYFILE|-] [--u64] [--count]
 *   sbf info FILE [--json]
 *   sbf convert --to sbf|guava IN OUT
 *   sbf union OUT A B
 *
 * Exit status: 0 success, 1 failure (a message on stderr names the file and
 * the reason), 2 usage error.
 *
 * This file: main and the command table. The commands are listed in
 * cli/commands.def; cli/cli.h says how the other files divide the work and
 * how to add a command.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct command {
    const char *name, *synopsis, *summary;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
#define SBF_COMMAND(name, synopsis, summary) { #name, synopsis, summary, cmd_##name },
#include "commands.def"
#undef SBF_COMMAND
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_main_help(void)
{
    fputs("usage: sbf COMMAND [ARGS]   (sbf COMMAND --help for each)\n"
          "\n"
          "Bloom filters in simdbloom's file format (doc/format.md), and Guava's.\n"
          "\n",
          stdout);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const char *syn = commands[i].synopsis;
        if (strlen(syn) <= 30)
            printf("  %-30s %s\n", syn, commands[i].summary);
        else /* a long synopsis gets its own line */
            printf("  %s\n  %-30s %s\n", syn, "", commands[i].summary);
    }
    fputs("\n"
          "Keys are read one per line from KEYFILE or standard input (- or none):\n"
          "the line's bytes without its newline (and one trailing \\r unless\n"
          "--binary), what sbf_add(f, line, len) hashes; with --type T, the value's\n"
          "Parquet plain encoding; with --u64, decimal 64-bit integers hashed as\n"
          "sbf_add_u64 does; with --hex, the key's bytes in hex (any byte, a newline\n"
          "included).\n"
          "Output files are written crash-safely (temporary file, fsync, rename).\n"
          "Exit status: 0 success, 1 failure (message on stderr), 2 usage error.\n",
          stdout);
}

/* At exit: everything written to standard output reached it, or the
 * status says it did not (a full disk, a closed pipe, /dev/full). */
static void close_stdout(void)
{
    const int earlier = ferror(stdout);
    if (fclose(stdout) != 0 || earlier) {
        fprintf(stderr, "%s: standard output: %s\n", prog,
                earlier ? "write error" : strerror(errno));
        _exit(EXIT_FAILURE);
    }
}

/* SBF_ISA in the environment decides every filter's kernels: a name the
 * library refuses makes every command fail, so say so here, naming the
 * variable, rather than blaming a file later. */
static void check_isa_env(void)
{
    const int c = sbf_isa_active();
    if (c >= 0)
        return;
    char runs[128] = "";
    int isas[16];
    const size_t n = sbf_isa_list(isas, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (sbf_isa_available(isas[i])) {
            strncat(runs, sbf_isa_name(isas[i]), sizeof runs - strlen(runs) - 3);
            strncat(runs, ", ", sizeof runs - strlen(runs) - 1);
        }
    /* the library refuses a bad SBF_PROBE with the same code: name it */
    const char *probe = getenv("SBF_PROBE");
    if (c == SBF_E_ISA_UNKNOWN && probe != NULL && probe[0] != '\0' &&
        strcmp(probe, "auto") != 0 && strcmp(probe, "narrow") != 0 && strcmp(probe, "wide") != 0)
        fail("SBF_PROBE='%s': not a form of the batch queries (narrow, wide or auto)",
             show_text(probe, strlen(probe)));
    const char *env = getenv("SBF_ISA");
    fail("SBF_ISA='%s': %s (this machine runs: %sauto)",
         env ? show_text(env, strlen(env)) : "", sbf_strerror(c), runs);
}

/* A closed standard descriptor would be taken by the next open(): keys read
 * from a filter's own file (sbf add F <&-), output written into one. Each
 * closed one is held by /dev/null opened the other way round, so that using
 * it still fails with EBADF, as it would have closed. */
static void hold_closed_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        const int h = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
        if (h != fd) /* no /dev/null: refuse rather than open files into 0..2 */
            _exit(EXIT_FAILURE);
    }
}

int main(int argc, char **argv)
{
    hold_closed_std_fds();
    atexit(close_stdout);
    if (argc < 2)
        usage_error("a command is needed");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_main_help();
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("sbf (simdbloom) %s\n", sbf_version_string());
        return 0;
    }
    check_isa_env();
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc, argv);
    usage_error("unknown command '%s'", cmd);
}
