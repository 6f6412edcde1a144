/*
 * The CI regression gate (make bench-check) must catch a regression and must
 * not cry wolf. Measuring takes valgrind and tens of seconds, so these tests
 * give the checker a measurement made earlier: the committed
 * results/baseline.json, which `make bench-baseline` wrote from a real run.
 * Against itself it must pass; against a baseline 30% better than it (every
 * metric times 0.7, all metrics being lower-is-better) it must fail, naming
 * each kernel with both figures; within the tolerances it must pass.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SBF_SOURCE_DIR
#  define SBF_SOURCE_DIR "."
#endif

#define REALITY SBF_SOURCE_DIR "/results/baseline.json"
#define MAX_METRICS 512

typedef struct metric {
    char name[96];
    double value;
} metric;

/* The "metrics" object of a JSON file: a flat map of names to numbers. */
static int read_metrics(const char *path, metric *m, int cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    static char text[1 << 20];
    const size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    const char *p = strstr(text, "\"metrics\"");
    if (p == NULL || (p = strchr(p, '{')) == NULL)
        return -1;
    p++;
    int n = 0;
    while (n < cap) {
        const char *q = strchr(p, '"');
        const char *end = strchr(p, '}');
        if (q == NULL || (end && end < q))
            break;
        const char *e = strchr(q + 1, '"');
        if (e == NULL || (size_t)(e - q - 1) >= sizeof m[n].name)
            return -1;
        memcpy(m[n].name, q + 1, (size_t)(e - q - 1));
        m[n].name[e - q - 1] = '\0';
        const char *c = strchr(e, ':');
        if (c == NULL)
            return -1;
        char *after;
        m[n].value = strtod(c + 1, &after);
        if (after == c + 1)
            return -1;
        n++;
        p = after;
    }
    return n;
}

static void write_baseline(const char *path, const metric *m, int n, double scale)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fprintf(f, "{\n  \"schema\": \"simdbloom-bench-check/1\",\n  \"metrics\": {\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "    \"%s\": %.17g%s\n", m[i].name, m[i].value * scale, i + 1 < n ? "," : "");
    fprintf(f, "  }\n}\n");
    fclose(f);
}

/* Runs scripts/bench-check.sh on a precomputed measurement; returns its exit
 * status and its output in *out (malloc'd). */
static int run_check(const char *baseline, const char *measured, char **out)
{
    char dir[] = "/tmp/sbf-bench-check-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char log[256], cmd[2048];
    snprintf(log, sizeof log, "%s/out.txt", dir);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && BASELINE='%s' bash scripts/bench-check.sh --measured '%s' >'%s' 2>&1",
             SBF_SOURCE_DIR, baseline, measured, log);
    const int st = system(cmd);
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f);
    *out = calloc(1, 1 << 20);
    cr_assert_not_null(*out);
    const size_t len = fread(*out, 1, (1 << 20) - 1, f);
    (*out)[len] = '\0';
    fclose(f);
    unlink(log);
    rmdir(dir);
    cr_assert(st != -1 && WIFEXITED(st), "bench-check.sh did not run");
    return WEXITSTATUS(st);
}

static int load_reality(metric *m)
{
    const int n = read_metrics(REALITY, m, MAX_METRICS);
    cr_assert_gt(n, 0, "%s has no metrics (make bench-baseline writes it)", REALITY);
    return n;
}

/* Runs the checker with a baseline of every real metric times `factor`. */
static int check_scaled(const metric *m, int n, double factor, char **out)
{
    char path[] = "/tmp/sbf-baseline-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    write_baseline(path, m, n, factor);
    const int rc = run_check(path, REALITY, out);
    unlink(path);
    return rc;
}

Test(bench_check, passes_against_its_own_baseline,
     .description = "a measurement compared with itself passes")
{
    static metric m[MAX_METRICS];
    const int n = load_reality(m);
    char *out;
    const int rc = run_check(REALITY, REALITY, &out);
    cr_assert_eq(rc, 0, "bench-check failed against its own baseline:\n%s", out);
    char want[64];
    snprintf(want, sizeof want, "%d passed, 0 failed", n);
    cr_assert_not_null(strstr(out, want), "expected \"%s\" in:\n%s", want, out);
    free(out);
}

Test(bench_check, fails_against_a_baseline_30pct_better,
     .description = "every metric 30% better in the baseline: each fails, named, with both figures")
{
    static metric m[MAX_METRICS];
    const int n = load_reality(m);
    char *out;
    const int rc = check_scaled(m, n, 0.7, &out);
    cr_assert_neq(rc, 0, "bench-check passed against a baseline 30%% better:\n%s", out);
    for (int i = 0; i < n; i++) {
        char line[512];
        /* "FAIL <metric>: kernel <isa> <op>...: measured <x> ..., baseline <y>" */
        snprintf(line, sizeof line, "FAIL %.95s: kernel ", m[i].name);
        const char *at = strstr(out, line);
        cr_assert_not_null(at, "no failure line for %s in:\n%s", m[i].name, out);
        const char *eol = strchr(at, '\n');
        const size_t ll = eol ? (size_t)(eol - at) : strlen(at);
        char got[512];
        const size_t gl = ll < sizeof got - 1 ? ll : sizeof got - 1;
        memcpy(got, at, gl);
        got[gl] = '\0';
        char fig[64];
        snprintf(fig, sizeof fig, "measured %.6g ", m[i].value);
        cr_assert_not_null(strstr(got, fig), "\"%s\" lacks \"%s\"", got, fig);
        snprintf(fig, sizeof fig, "baseline %.6g ", m[i].value * 0.7);
        cr_assert_not_null(strstr(got, fig), "\"%s\" lacks \"%s\"", got, fig);
    }
    char want[64];
    snprintf(want, sizeof want, "0 passed, %d failed", n);
    cr_assert_not_null(strstr(out, want), "expected \"%s\" in:\n%s", want, out);
    free(out);
}

Test(bench_check, passes_within_tolerance,
     .description = "a baseline 2% better than the measurement is within every tolerance")
{
    static metric m[MAX_METRICS];
    const int n = load_reality(m);
    char *out;
    const int rc = check_scaled(m, n, 0.98, &out);
    cr_assert_eq(rc, 0, "bench-check failed within tolerance:\n%s", out);
    free(out);
}

Test(bench_check, ratios_only_against_the_same_cpu,
     .description = "a baseline from another CPU: instruction counts still compared, timing ratios not")
{
    static metric m[MAX_METRICS];
    const int n = load_reality(m);
    char path[] = "/tmp/sbf-baseline-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    /* a CPU that is not this one (REALITY's meta names the real one) */
    fprintf(f, "{\n  \"meta\": {\"cpu\": \"Some Other CPU\"},\n  \"metrics\": {\n");
    int ratios = 0;
    for (int i = 0; i < n; i++) {
        fprintf(f, "    \"%s\": %.17g%s\n", m[i].name, m[i].value * 0.7, i + 1 < n ? "," : "");
        ratios += strncmp(m[i].name, "ratio.", 6) == 0;
    }
    fprintf(f, "  }\n}\n");
    fclose(f);
    char *out;
    const int rc = run_check(path, REALITY, &out);
    unlink(path);
    cr_assert_neq(rc, 0, "30%% better instruction counts must still fail:\n%s", out);
    cr_assert_not_null(strstr(out, "measured on another CPU"), "%s", out);
    cr_assert_null(strstr(out, "FAIL ratio."), "ratios compared across CPUs:\n%s", out);
    cr_assert_not_null(strstr(out, "FAIL insn."), "%s", out);
    char want[64];
    snprintf(want, sizeof want, "0 passed, %d failed", n - ratios);
    cr_assert_not_null(strstr(out, want), "expected \"%s\" in:\n%s", want, out);
    free(out);
}
