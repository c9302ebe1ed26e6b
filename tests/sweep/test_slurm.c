/* test_slurm.c - a sweep as a Slurm array job (tests/sweep/slurm_check.sh):
 * merged shards must equal the unsharded run.  Where Slurm cannot start,
 * cmocka reports the test skipped with the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/cli_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int skipped;

static void test_slurm_array(void **state)
{
    (void)state;
    char tmp[] = "/tmp/sgemu-slurm-XXXXXX", cmd[2048], out[4096] = "";
    assert_non_null(mkdtemp(tmp));
    snprintf(cmd, sizeof cmd, "%s/s.yaml", tmp);
    FILE *f = fopen(cmd, "w");
    assert_non_null(f);
    fprintf(f, "base: test-simple\nkernels:\n  - file: %s/examples/vector_add.sgasm\n"
               "    global: 256\n    local: 32\n    args: {a: 'float:iota:256', "
               "b: 'float:iota:256', c: 'float:zeros:256', n: 256}\n"
               "axes:\n  width: [8, 16]\n  memory.l2.size: [16384, 65536]\n", cli_src());
    fclose(f);
    /* bounded: the script stops its daemons on SIGTERM (exit 124: timed out) */
    snprintf(cmd, sizeof cmd, "timeout -k 20 95 bash '%s/tests/sweep/slurm_check.sh' '%s' '%s' '%s' 2>&1",
             cli_src(), getenv("SGEMU"), cli_src(), tmp);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = 0, got;
    while ((got = fread(out + n, 1, sizeof out - 1 - n, p)) > 0)
        n += got;
    out[n] = 0;
    char rest[256];                      /* drain what did not fit */
    while (fread(rest, 1, sizeof rest, p) > 0) {}
    int st = pclose(p);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd)) {}
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (code == 77) {
        fprintf(stderr, "%s", out);      /* the reason, then cmocka's SKIPPED */
        skipped = 1;
        skip();
    }
    fprintf(stderr, "%s", out);          /* what ran (or why it failed) */
    assert_int_equal(code, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_slurm_array) };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    return rc ? rc : skipped ? 77 : 0;   /* 77: meson reports SKIP */
}
