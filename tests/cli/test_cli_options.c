/* test_cli_options.c - how sgemu's commands take their options: bundled
 * config names wherever a config is taken, the attached -jN form, and
 * --help texts that list what the commands accept. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test_file.h"

static const char *const dir = cli_tmpdir;

#define VADD "examples/vector_add.sgasm --global 64 --arg a=float:iota:64 " \
             "--arg b=float:iota:64 --arg c=float:zeros:64 --arg n=64"

static void expect(cli_result *r, int status, const char *in_err)
{
    if (r->status != status || (in_err && !strstr(r->err, in_err)))
        fprintf(stderr, "status %d, stderr:\n%s\n(wanted %d and '%s')\n", r->status, r->err,
                status, in_err ? in_err : "");
    assert_int_equal(r->status, status);
    if (in_err)
        assert_non_null(strstr(r->err, in_err));
    cli_result_free(r);
}

/* docs/config.md: `--config nvidia-h100` names a bundled config. */
static void test_bundled_config_names(void **state)
{
    (void)state;
    cli_result r = cli_run("run " VADD " --config nvidia-h100");
    expect(&r, 0, "on NVIDIA H100");
    r = cli_run("run " VADD " --config nvidia-h100 --record %s/va.sgt", dir);
    expect(&r, 0, NULL);
    r = cli_run("replay %s/va.sgt --config nvidia-h100", dir);
    expect(&r, 0, "on NVIDIA H100");
    r = cli_run("collective sub_group_reduce_add --type int --sg 4 --input 1,2,3,4 "
                "--config nvidia-h100");
    expect(&r, 0, NULL);
    /* an unknown name: what it could have been, and the bundled list */
    r = cli_run("run " VADD " --config nvidia-h10");
    expect(&r, 1, "no config file or bundled config named 'nvidia-h10' (did you mean "
                  "'nvidia-h100'?)");
    r = cli_run("replay %s/va.sgt --config intel-xe-hpcc", dir);
    expect(&r, 1, "did you mean 'intel-xe-hpc'?");
    r = cli_run("run " VADD " --config nosuch-device");
    expect(&r, 1, "bundled configs: default");
    /* a missing file says so (it said "Input/output error") */
    r = cli_run("run " VADD " --config %s/none.yaml", dir);
    expect(&r, 1, "none.yaml': No such file or directory");
}

/* getopt users write -j1 as well as -j 1. */
static void test_attached_jobs(void **state)
{
    (void)state;
    cli_result r = cli_run("run " VADD " -j1 --no-timing");
    expect(&r, 0, "lane util.");
    r = cli_run("run " VADD " -j2 --no-timing --quiet");
    expect(&r, 0, NULL);
    r = cli_run("run " VADD " -jx --no-timing");
    expect(&r, 1, "expected a count");
    r = cli_run("run " VADD " --record %s/j.sgt", dir);
    expect(&r, 0, NULL);
    r = cli_run("replay %s/j.sgt -j1", dir);
    expect(&r, 0, "replay of kernel vector_add");
    r = cli_run("replay %s/j.sgt -j 2", dir);
    expect(&r, 0, "replay of kernel vector_add");
}

/* `sgemu --help` lists every top-level option it takes. */
static void test_help_lists_version(void **state)
{
    (void)state;
    cli_result r = cli_run("--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--version"));
    assert_non_null(strstr(r.out, "--help"));
    cli_result_free(&r);
    r = cli_run("--version");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "sgemu "));
    cli_result_free(&r);
}

/* A buffer given in another element type than the kernel's pointer type
 * (float data for a uint*) is worth a warning: its bytes are reinterpreted. */
static void test_buffer_type_mismatch_warns(void **state)
{
    (void)state;
    const char *k = "run examples/opencl/histogram.spv --global 64 --arg nbins=16 --quiet "
                    "--no-timing";
    cli_result r = cli_run("%s --arg data=float:iota:64 --arg bins=uint:zeros:16", k);
    expect(&r, 0, "warning: argument 'data' is a uint buffer but the value is float data");
    r = cli_run("%s --arg data=uint:iota:64 --arg bins=uint:zeros:16", k);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "warning"));
    cli_result_free(&r);
    /* int for uint: the same bits, no warning; short for uint: a warning */
    r = cli_run("%s --arg data=int:iota:64 --arg bins=short:zeros:32", k);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "'data'"));
    assert_non_null(strstr(r.err, "warning: argument 'bins' is a uint buffer but the value "
                                  "is short data (2-byte elements)"));
    cli_result_free(&r);
}

/* --trace-limit that cuts the trace short says so (the trace had silently
 * no instruction slices); replay takes the option too. */
static void test_trace_limit_warns(void **state)
{
    (void)state;
    cli_result r = cli_run("run " VADD " --trace %s/t.json --trace-limit 10 --record %s/t.sgt",
                           dir, dir);
    expect(&r, 0, "warning: trace '");
    r = cli_run("run " VADD " --trace %s/t.json --trace-limit 10", dir);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "holds only the first 10 events; "));
    assert_non_null(strstr(r.err, "more were dropped (raise --trace-limit)"));
    cli_result_free(&r);
    r = cli_run("run " VADD " --trace %s/t.json", dir);       /* within the default */
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "warning"));
    cli_result_free(&r);
    r = cli_run("replay %s/t.sgt --trace %s/r.json --trace-limit 10", dir, dir);
    expect(&r, 0, "holds only the first 10 events");
    r = cli_run("replay %s/t.sgt --trace %s/r.json --trace-limit 0", dir, dir);
    expect(&r, 1, "--trace-limit: expected a positive count");
}

/* An output path that is a FIFO (or a device such as /dev/null) is written
 * in place: it is still a FIFO afterwards, and its reader got the whole
 * trace.  A temporary renamed over it would leave a regular file there (as
 * root, over /dev/null too). */
static void test_output_to_fifo(void **state)
{
    (void)state;
    char fifo[600], got[600];
    snprintf(fifo, sizeof fifo, "%s/out.fifo", dir);
    snprintf(got, sizeof got, "%s/fifo.json", dir);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {           /* the reader: copies the FIFO into a file */
        FILE *in = fopen(fifo, "r"), *out = fopen(got, "w");
        int c;
        while (in && out && (c = getc(in)) != EOF)
            putc(c, out);
        _exit(in && out && fclose(out) == 0 ? 0 : 1);
    }
    cli_result r = cli_run("run " VADD " --trace %s", fifo);
    /* a reader still waiting for a writer (sgemu never opened the FIFO)
     * gets its end of file here */
    int wfd = open(fifo, O_WRONLY | O_NONBLOCK);
    if (wfd >= 0)
        close(wfd);
    int st = 0;
    assert_int_equal(waitpid(child, &st, 0), child);
    expect(&r, 0, NULL);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat sb;
    assert_int_equal(stat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    char *text = test_slurp(got, NULL);
    assert_non_null(strstr(text, "\"traceEvents\""));
    assert_non_null(strstr(text, "]}"));
    free(text);
    unlink(fifo);
    unlink(got);
}

/* One work-group per compute unit is "1 work-group/CU", not "work-groups". */
static void test_singular_work_group(void **state)
{
    (void)state;
    cli_result r = cli_run("run " VADD);
    expect(&r, 0, "(1 work-group/CU, ");
}

/* The output of a shell command line (run by bash), or fail. */
static char *shell_out(const char *cmd)
{
    char line[4096], path[256];
    snprintf(path, sizeof path, "%s/shell.out", dir);
    snprintf(line, sizeof line, "bash -c '%s' >%s 2>&1", cmd, path);
    assert_int_equal(system(line), 0);
    return test_slurp(path, NULL);
}

/* sgemu(1), built from the --help texts: every command has its section and
 * its options, and man renders it without warnings. */
static void test_man_page(void **state)
{
    (void)state;
    const char *bin = getenv("SGEMU");
    assert_non_null(bin);
    char page[1024], cmd[2048];
    snprintf(page, sizeof page, "%s.1", bin);          /* build/tools/sgemu.1 */
    char *text = test_slurp(page, NULL);
    assert_non_null(strstr(text, ".TH SGEMU 1"));
    const char *cmds[] = { "run", "asm", "disasm", "collective", "replay", "trace", "sweep",
                           "spv2asm" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char ss[64];
        snprintf(ss, sizeof ss, "\n.SS %s\n", cmds[i]);
        assert_non_null(strstr(text, ss));
    }
    const char *opts[] = { "--trace-limit", "--max-memory", "--partial", "--version" };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        assert_non_null(strstr(text, opts[i]));
    free(text);
    if (system("command -v man >/dev/null 2>&1") != 0)
        return;                                       /* the text checks above still ran */
    snprintf(cmd, sizeof cmd, "MANWIDTH=80 man --warnings -l %s 2>&1 >/dev/null", page);
    char *warn = shell_out(cmd);
    assert_string_equal(warn, "");
    free(warn);
}

/* Bash completion: subcommands, a command's options, bundled config names. */
static void test_bash_completion(void **state)
{
    (void)state;
    const char *bin = getenv("SGEMU");
    char cmd[3000];
    snprintf(cmd, sizeof cmd,
             "PATH=$(dirname %s):$PATH; source %s/tools/sgemu-completion.bash; "
             "c() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sgemu; "
             "echo \"${COMPREPLY[*]}\"; }; "
             "c sgemu sw; c sgemu run --trace; c sgemu replay x --config nvidia; "
             "c sgemu sweep merge --par", bin, cli_src());
    char *out = shell_out(cmd);
    assert_non_null(strstr(out, "sweep\n--trace --trace-limit\nnvidia-h100\n--partial\n"));
    free(out);
}

/* --sg 8,16,32 ends with the widths side by side and a verdict, as a sweep
 * prints them; each row's cycles are those of that width's own summary. */
static void test_widths_compared(void **state)
{
    (void)state;
    const char *k = "run examples/collatz.sgasm --global 256 --local 64 "
                    "--arg in=uint:iota:256 --arg steps=uint:zeros:256";
    cli_result r = cli_run("%s --sg 8,16,32", k);
    assert_int_equal(r.status, 0);
    const char *t = strstr(r.err, "widths compared\n");
    assert_non_null(t);
    const char *sum = r.err;
    for (int w = 8; w <= 32; w *= 2) {
        unsigned long long cyc = 0;
        sum = strstr(sum, "  cycles            ");     /* this width's summary */
        assert_non_null(sum);
        assert_true(sum < t);
        cyc = strtoull(sum + 20, NULL, 10);
        sum += 20;
        char row[64];
        snprintf(row, sizeof row, "\n  SIMD%-4d %10llu ", w, cyc);
        assert_non_null(strstr(t, row));
    }
    assert_non_null(strstr(t, "  verdict: SIMD"));
    assert_non_null(strstr(t, "x faster than SIMD"));
    cli_result_free(&r);
    r = cli_run("%s --sg 16", k);                        /* one width: no table */
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "widths compared"));
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("options");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

/* --launches N: the summary names the first and last launches' cycles;
 * on nvidia-h100 (keep_across_launches 1) the second launch of vector_add
 * is faster than the first, which is a plain run's; on the default config
 * (0) every launch is the first; the outputs are a plain run's; refusals. */
static void test_launches(void **state)
{
    (void)state;
    unsigned long long first, last, plain;
    cli_result r = cli_run("run " VADD " --config nvidia-h100 --sg 32 --json");
    assert_int_equal(r.status, 0);
    const char *c = strstr(r.out, "\"cycles\": ");
    assert_non_null(c);
    plain = strtoull(c + 10, NULL, 10);
    cli_result_free(&r);
    r = cli_run("run " VADD " --config nvidia-h100 --sg 32 --launches 3 --out c");
    assert_int_equal(r.status, 0);
    c = strstr(r.err, "launches:     3, first ");
    assert_non_null(c);
    assert_int_equal(sscanf(c, "launches:     3, first %llu cycles, last %llu", &first, &last), 2);
    assert_int_equal(first, plain);
    assert_true(last < first);
    assert_non_null(strstr(r.out, "126\n"));        /* c[63] = 63 + 63 */
    cli_result_free(&r);
    r = cli_run("run " VADD " --launches 2");
    assert_int_equal(r.status, 0);
    c = strstr(r.err, "launches:     2, first ");
    assert_non_null(c);
    assert_int_equal(sscanf(c, "launches:     2, first %llu cycles, last %llu", &first, &last), 2);
    assert_int_equal(first, last);
    cli_result_free(&r);
    r = cli_run("run " VADD " --launches 0");
    expect(&r, 1, "--launches: expected a count 1..1000000, got '0'");
    r = cli_run("run " VADD " --launches 2 --no-timing");
    expect(&r, 1, "--launches needs the timing model");
    r = cli_run("run " VADD " --launches 2 --record %s/l.sgt", dir);
    expect(&r, 1, "--launches: not with --record");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_config_names),
        cmocka_unit_test(test_attached_jobs),
        cmocka_unit_test(test_help_lists_version),
        cmocka_unit_test(test_buffer_type_mismatch_warns),
        cmocka_unit_test(test_trace_limit_warns),
        cmocka_unit_test(test_output_to_fifo),
        cmocka_unit_test(test_singular_work_group),
        cmocka_unit_test(test_man_page),
        cmocka_unit_test(test_bash_completion),
        cmocka_unit_test(test_widths_compared),
        cmocka_unit_test(test_launches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
