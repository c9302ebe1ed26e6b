/* test_sigint.c - Ctrl-C during a sweep's replay: the sweep stops within a
 * small part of one run (replays check between work-groups), exits 130,
 * keeps every finished row (status 0) and drops the one cut short; --resume
 * then completes the run set without touching the kept rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/kernel_harness.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Data lines of DIR/results.csv (NULL-terminated array, caller frees). */
static char **data_lines(const char *dir, size_t *n)
{
    char p[512], line[8192];
    snprintf(p, sizeof p, "%s/results.csv", dir);
    *n = 0;
    char **v = calloc(64, sizeof *v);
    FILE *f = fopen(p, "r");
    if (!f)
        return v;
    bool header = true;
    while (fgets(line, sizeof line, f) && *n < 63) {
        if (!strchr(line, '\n'))
            break;                       /* a row being written */
        if (header) {
            header = false;
            continue;
        }
        v[(*n)++] = strdup(line);
    }
    fclose(f);
    return v;
}

static void free_lines(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The status column: the 5th cell here (run, point, kernel, one axis, status). */
static int status_of(const char *line)
{
    const char *c = line;
    for (int i = 0; i < 4 && c; i++) {
        c = strchr(c, ',');
        if (c)
            c++;
    }
    return c ? atoi(c) : -1;
}

static void test_sigint_mid_replay(void **state)
{
    (void)state;
    char yaml[512], out[512];
    snprintf(yaml, sizeof yaml, "%s/s.yaml", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    FILE *f = fopen(yaml, "w");
    assert_non_null(f);
    /* one record, three replays of 64 work-groups each */
    fprintf(f, "base: default\nkernels:\n  - file: %s/examples/collatz.sgasm\n"
               "    global: 8192\n    local: 128\n"
               "    args: { in: 'uint:random:8192:3', steps: 'uint:zeros:8192' }\n"
               "axes:\n  memory.l2.latency: [40, 80, 160, 320]\n", cli_src());
    fclose(f);
    double t0 = now_s();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(getenv("SGEMU"), "sgemu", "sweep", yaml, "-j", "1", "-q", "-o", out, (char *)NULL);
        _exit(127);
    }
    /* the first row is the record; the worker then starts a replay */
    size_t n = 0;
    char **rows;
    for (int i = 0; i < 120000; i++) {        /* at most a minute */
        rows = data_lines(out, &n);
        free_lines(rows, n);
        if (n)
            break;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("sgemu sweep ended before its first row (status %d)", st);
        usleep(500);
    }
    assert_true(n >= 1);
    double t_first = now_s() - t0;
    double t_sig = now_s();
    kill(pid, SIGINT);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    double latency = now_s() - t_sig;
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    /* a replay costs about as much as the record (its timing model): the
     * stop must come well within one */
    fprintf(stderr, "first row after %.3f s, stopped %.3f s after SIGINT\n", t_first, latency);
    assert_true(latency < 0.5 * t_first + 0.05);
    rows = data_lines(out, &n);
    assert_true(n >= 1 && n < 4);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(status_of(rows[i]), 0);
    /* resume completes and keeps the finished rows as they were */
    cli_result r = cli_run("sweep %s -q --resume -o %s", yaml, out);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    size_t m = 0;
    char **all = data_lines(out, &m);
    assert_int_equal(m, 4);
    for (size_t i = 0; i < m; i++)
        assert_int_equal(status_of(all[i]), 0);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t j = 0; j < m; j++)
            found |= !strcmp(rows[i], all[j]);
        assert_true(found);
    }
    free_lines(rows, n);
    free_lines(all, m);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("sigint");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_sigint_mid_replay) };
    return cmocka_run_group_tests(tests, setup, teardown);
}
