/*
 * sbf: the command line. Each command names the options it accepts in a
 * spec string (" --layout= -n= --force ": '=' marks an option that takes a
 * value) and reads them back by name, so a new command needs no change
 * here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The index of option `name` (nl bytes) in spec, or -1; *takes_value set
 * when the spec entry ends in '='. */
static int spec_find(const char *spec, const char *name, size_t nl, int *takes_value)
{
    int idx = 0;
    for (const char *p = spec; *p;) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        const int valued = e[-1] == '=';
        const size_t len = (size_t)(e - p) - (size_t)valued;
        if (len == nl && memcmp(p, name, nl) == 0) {
            *takes_value = valued;
            return idx;
        }
        idx++;
        p = e;
    }
    return -1;
}

void parse_args(int argc, char **argv, const char *spec, const char *help, int nmin,
                int nmax, args *a)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    int only_pos = 0;
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (only_pos || s[0] != '-' || strcmp(s, "-") == 0) {
            if (a->npos == nmax)
                usage_error("%s: too many arguments ('%s')", argv[1], s);
            if (s[0] == '\0') /* no command takes one: the library would blame the filter */
                usage_error("%s: an empty argument: a file name cannot be empty", argv[1]);
            a->pos[a->npos++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
            print_help(help);
        /* --name=value or --name value */
        const char *eq = strchr(s, '=');
        const size_t nl = eq ? (size_t)(eq - s) : strlen(s);
        int valued = 0;
        int idx = nl < 32 ? spec_find(spec, s, nl, &valued) : -1;
        if (idx < 0 && s[1] != '-' && s[1] != '\0') {
            /* a short option with its value attached: -n5000 */
            idx = spec_find(spec, s, 2, &valued);
            if (idx >= 0 && idx < ARGS_MAX_OPT && valued) {
                a->val[idx] = s + 2;
                continue;
            }
            idx = -1;
        }
        if (idx < 0 || idx >= ARGS_MAX_OPT)
            usage_error("%s: unknown option '%s'", argv[1], show_text(s, strlen(s)));
        if (!valued) {
            if (eq)
                usage_error("%s: option '%.*s' takes no value", argv[1], (int)nl, s);
            a->val[idx] = "";
            continue;
        }
        if (eq) {
            a->val[idx] = eq + 1;
        } else {
            if (i + 1 >= argc)
                usage_error("%s: option '%s' needs a value", argv[1], s);
            a->val[idx] = argv[++i];
        }
    }
    if (a->npos < nmin)
        usage_error("%s: missing argument", argv[1]);
}

const char *opt_val(const args *a, const char *name)
{
    int valued;
    const int idx = spec_find(a->spec, name, strlen(name), &valued);
    if (idx < 0 || idx >= ARGS_MAX_OPT) {
        fprintf(stderr, "%s: internal error: option %s is not in the spec\n", prog, name);
        abort();
    }
    return a->val[idx];
}

int opt_flag(const args *a, const char *name)
{
    return opt_val(a, name) != NULL;
}
