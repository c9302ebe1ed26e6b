/* test_sweep_outputs.c - what a sweep tells its user: verdicts that leave
 * failed runs out, plot labels drawn as written, merges that do not pass off
 * missing shards as complete, output folders without an older sweep's plots,
 * and the Slurm array script's shard numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/kernel_harness.h"
#include "../test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const tmpdir = cli_tmpdir;

static void write_text(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool exists(const char *dir, const char *name)
{
    char p[600];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s/%s", tmpdir, dir, name);
    return stat(p, &st) == 0;
}

/* vector_add at the given widths on the default config (SIMD8/16/32). */
static void write_width_sweep(const char *name, const char *widths)
{
    char text[1024];
    snprintf(text, sizeof text,
             "kernels:\n"
             "  - file: %s/examples/vector_add.sgasm\n"
             "    global: 256\n"
             "    args: {a: 'float:iota:256', b: 'float:iota:256', c: 'float:zeros:256', "
             "n: 256}\n"
             "axes:\n  width: [%s]\n", cli_src(), widths);
    write_text(name, text);
}

/* A width the device lacks fails; the verdict must not compare against it
 * ("0.00x faster than SIMD64 ... (100% vs 0%)"). */
static void test_verdict_leaves_out_failed_runs(void **state)
{
    (void)state;
    write_width_sweep("fail.yaml", "16, 64");
    cli_result r = cli_run("sweep %s/fail.yaml -j1 -o %s/fail", tmpdir, tmpdir);
    assert_int_equal(r.status, 1);                 /* a run failed */
    assert_non_null(strstr(r.out, "SIMD64   failed: "));
    assert_null(strstr(r.out, "faster than SIMD64"));
    assert_null(strstr(r.out, "0.00x"));
    assert_non_null(strstr(r.out, "verdict: SIMD16 (the only point that ran; 1 failed)"));
    cli_result_free(&r);
    /* with two that ran, the comparison is between those two */
    write_width_sweep("fail2.yaml", "8, 16, 64");
    r = cli_run("sweep %s/fail2.yaml -j1 -o %s/fail2", tmpdir, tmpdir);
    assert_int_equal(r.status, 1);
    const char *v = strstr(r.out, "verdict: ");
    assert_non_null(v);
    assert_null(strstr(v, "SIMD64"));
    assert_non_null(strstr(v, "faster than SIMD"));
    cli_result_free(&r);
}

/* gnuplot's enhanced text mode draws vector_add as vector with a subscript
 * 'a'; the labels must come out as written. */
static void test_plot_labels_verbatim(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();                         /* reported as skipped: gnuplot-nox not installed */
    write_width_sweep("plot.yaml", "8, 16");
    cli_result r = cli_run("sweep %s/plot.yaml -q --plot -o %s/plot", tmpdir, tmpdir);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    char p[600];
    snprintf(p, sizeof p, "%s/plot/width-vector_add.svg", tmpdir);
    char *svg = test_slurp(p, NULL);
    assert_non_null(strstr(svg, ">vector_add: cycles vs sub-group width<"));
    free(svg);
}

/* A new sweep into an old folder: the old sweep's plots go; --resume keeps
 * them (the same sweep). */
static void test_old_plots_removed(void **state)
{
    (void)state;
    char o[400];
    snprintf(o, sizeof o, "%s/reuse", tmpdir);
    mkdir(o, 0777);
    write_text("reuse/width-old_kernel.png", "old");
    write_text("reuse/axis-memory_l2_size.svg", "old");
    write_text("reuse/plot.gp", "old");
    write_text("reuse/notes.txt", "mine");
    write_width_sweep("reuse.yaml", "8, 16");
    cli_result r = cli_run("sweep %s/reuse.yaml -q --resume -o %s", tmpdir, o);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    assert_true(exists("reuse", "width-old_kernel.png"));
    r = cli_run("sweep %s/reuse.yaml -q -o %s", tmpdir, o);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    assert_false(exists("reuse", "width-old_kernel.png"));
    assert_false(exists("reuse", "axis-memory_l2_size.svg"));
    assert_false(exists("reuse", "plot.gp"));
    assert_true(exists("reuse", "notes.txt"));     /* not sgemu's: kept */
    assert_true(exists("reuse", "results.csv"));
}

/* One shard of two: the merge fails unless --partial accepts it. */
static void test_partial_merge_fails(void **state)
{
    (void)state;
    write_width_sweep("sh.yaml", "8, 16, 32");
    cli_result r = cli_run("sweep %s/sh.yaml -q --shard 1/2 -o %s/sh1", tmpdir, tmpdir);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    r = cli_run("sweep merge %s/sh1 -o %s/merged", tmpdir, tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hold 2 of the sweep's 3 runs"));
    assert_non_null(strstr(r.err, "--partial"));
    cli_result_free(&r);
    assert_false(exists("merged", "results.csv"));
    r = cli_run("sweep merge %s/sh1 -o %s/merged --partial", tmpdir, tmpdir);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "merged 2 of 3 runs"));
    cli_result_free(&r);
    assert_true(exists("merged", "results.csv"));
}

/* tools/slurm/sweep-array.sbatch with Slurm's environment for each task of
 * an array, and a stand-in for sgemu that prints its arguments. */
static char *array_task(int id, int min, int max, int step, int count)
{
    char cmd[2048], out[600];
    snprintf(out, sizeof out, "%s/task.out", tmpdir);
    snprintf(cmd, sizeof cmd,
             "SWEEP=s.yaml OUT=o SGEMU=echo SLURM_ARRAY_TASK_ID=%d SLURM_ARRAY_TASK_MIN=%d "
             "SLURM_ARRAY_TASK_MAX=%d SLURM_ARRAY_TASK_STEP=%d SLURM_ARRAY_TASK_COUNT=%d "
             "bash %s/tools/slurm/sweep-array.sbatch >%s 2>&1; echo \"rc=$?\" >>%s",
             id, min, max, step, count, cli_src(), out, out);
    assert_int_equal(system(cmd), 0);
    return test_slurp(out, NULL);
}

static void test_slurm_stepped_array(void **state)
{
    (void)state;
    /* --array=1-3:2: tasks 1 and 3 are shards 1/2 and 2/2 (it gave 3/2) */
    char *t = array_task(3, 1, 3, 2, 2);
    assert_non_null(strstr(t, "--shard 2/2 "));
    assert_non_null(strstr(t, "-o o/shard-2"));
    assert_non_null(strstr(t, "rc=0"));
    free(t);
    t = array_task(1, 1, 3, 2, 2);
    assert_non_null(strstr(t, "--shard 1/2 "));
    free(t);
    /* --array=0-3: task 2 is shard 3/4 */
    t = array_task(2, 0, 3, 1, 4);
    assert_non_null(strstr(t, "--shard 3/4 "));
    free(t);
    /* --array=1,4,5: no even step, refused rather than misnumbered */
    t = array_task(4, 1, 5, 1, 3);
    assert_non_null(strstr(t, "not an evenly stepped range"));
    assert_null(strstr(t, "rc=0"));
    free(t);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* Bad argument values are errors of the sweep file, at their place, before
 * any run starts (they were found in every run, and the error column said
 * only "see stderr"); a mistyped axis is one message with a suggestion. */
static void test_values_checked_at_load(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text,
             "kernels:\n"
             "  - file: %s/examples/vector_add.sgasm\n"
             "    global: 256\n"
             "    args: {a: 'float:zero:256', b: 'float:iota:256', c: 'float:zeros:256', "
             "n: 256}\n"
             "axes:\n"
             "  width: [8, 16]\n"
             "  memory.l2.sise: [1024, 2048]\n"
             "  arg.n: [64, x]\n", cli_src());
    write_text("vals.yaml", text);
    cli_result r = cli_run("sweep %s/vals.yaml -q -o %s/vals", tmpdir, tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "vals.yaml:4:15: error: argument 'a': expected TYPE:[...]"));
    assert_non_null(strstr(r.err, "got 'float:zero:256'"));
    assert_non_null(strstr(r.err, "vals.yaml:7:3: error: unknown axis 'memory.l2.sise' "
                                  "(did you mean 'memory.l2.size'?)"));
    assert_int_equal(count(r.err, "memory.l2.sise"), 1);
    assert_non_null(strstr(r.err, "vals.yaml:8:15: error: argument 'n': 'x' is not a valid "
                                  "uint value"));
    assert_int_equal(count(r.err, "error:"), 3);
    cli_result_free(&r);
    assert_false(exists("vals", "results.csv"));   /* nothing ran */
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("sweepout");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict_leaves_out_failed_runs),
        cmocka_unit_test(test_plot_labels_verbatim),
        cmocka_unit_test(test_old_plots_removed),
        cmocka_unit_test(test_partial_merge_fails),
        cmocka_unit_test(test_slurm_stepped_array),
        cmocka_unit_test(test_values_checked_at_load),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
