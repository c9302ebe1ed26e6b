/* test_cli_errors.c - what the sgemu command does with bad input: messages,
 * exit codes, and outputs that are never half-written or overwrite inputs. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

/* the harness's folder, under the short name the commands below use */
static const char *const dir = cli_tmpdir;

static void put(const char *name, const char *text)
{
    cli_put(name, text, strlen(text));
}

static bool exists(const char *name)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

static void test_help_everywhere(void **state)
{
    (void)state;
    const char *cmds[] = { "--help", "run --help", "asm --help", "disasm --help",
                           "collective --help" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        cli_result r = cli_run("%s", cmds[i]);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: sgemu"));
        cli_result_free(&r);
    }
    cli_result r = cli_run("frobnicate");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    cli_result_free(&r);
}

static void test_malformed_kernel(void **state)
{
    (void)state;
    put("bad.sgasm", ".kernel bad\n"
                     ".arg out global u32\n"
                     "    frob.u32 r0, r1\n"            /* unknown mnemonic, line 3 */
                     "    add.u32 r0, r1\n"             /* missing operand, line 4 */
                     "    bra nowhere\n");              /* undefined label, line 5 */
    cli_result r = cli_run("asm %s/bad.sgasm", dir);
    assert_int_equal(r.status, 1);
    char want[128];
    for (int line = 3; line <= 5; line++) {
        snprintf(want, sizeof want, "%s/bad.sgasm:%d:", dir, line);
        char *p = strstr(r.err, want);
        assert_non_null(p);
        assert_non_null(strstr(p, ": error: "));
    }
    cli_result_free(&r);
    /* run reports the same and never starts */
    r = cli_run("run %s/bad.sgasm --global 8 --arg out=uint:zeros:8", dir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "bad.sgasm:3:"));
    cli_result_free(&r);
}

static void test_malformed_config(void **state)
{
    (void)state;
    put("bad.yaml", "device:\n"
                    "  name: broken\n"
                    "  compute_unitz: 4\n");          /* line 3, col 3 */
    cli_result r = cli_run("run examples/vector_add.sgasm --config %s/bad.yaml --global 8 "
                           "--arg a=float:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8 "
                           "--arg n=8", dir);
    assert_int_equal(r.status, 1);
    char want[128];
    snprintf(want, sizeof want, "%s/bad.yaml:3:3: error:", dir);
    assert_non_null(strstr(r.err, want));
    cli_result_free(&r);
}

static void test_out_of_bounds_fault(void **state)
{
    (void)state;
    /* n = 100 but the buffers hold 64 floats: work-item 64 reads past 'a' */
    cli_result r = cli_run("run examples/vector_add.sgasm --global 128 --local 32 --sg 16 "
                           "--arg a=float:zeros:64 --arg b=float:zeros:64 "
                           "--arg c=float:zeros:64 --arg n=100 --out c=%s/c.bin", dir);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "kernel 'vector_add'"));
    assert_non_null(strstr(r.err, "out-of-bounds global load of 4 bytes"));
    assert_non_null(strstr(r.err, "buffer 'a', offset 256, size 256 bytes"));
    assert_non_null(strstr(r.err, "examples/vector_add.sgasm:14:"));
    assert_non_null(strstr(r.err, "work-item global (64,0,0) local (0,0,0)"));
    /* a failed run writes no output file */
    assert_false(exists("c.bin"));
    cli_result_free(&r);
}

static void test_outputs_never_overwrite_inputs(void **state)
{
    (void)state;
    float in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    char p[256];
    snprintf(p, sizeof p, "%s/in.bin", dir);
    FILE *f = fopen(p, "wb");
    fwrite(in, 4, 8, f);
    fclose(f);
    cli_result r = cli_run("run examples/vector_add.sgasm --global 8 --arg a=float:@%s "
                           "--arg b=float:zeros:8 --arg c=float:zeros:8 --arg n=8 --out c=%s",
                           p, p);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "refusing to overwrite input file"));
    cli_result_free(&r);
    float back[8];
    f = fopen(p, "rb");
    assert_int_equal(fread(back, 4, 8, f), 8);
    fclose(f);
    assert_memory_equal(back, in, sizeof in);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct { const char *args, *msg; } cases[] = {
        { "--global 8 --arg a=float:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8",
          "argument 'n' of kernel 'vector_add' has no value" },
        { "--global 8 --arg a=float:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8 "
          "--arg n=abc", "'abc' is not a valid uint value" },
        { "--global 8 --arg a=float:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8 "
          "--arg n=8 --arg q=1", "has no argument 'q'" },
        { "--global 8 --arg a=floaty:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8 "
          "--arg n=8", "unknown type 'floaty'" },
        { "--global 8 --sg 7 --arg a=float:zeros:8 --arg b=float:zeros:8 "
          "--arg c=float:zeros:8 --arg n=8", "does not support sub-group width 7" },
        { "--global 0 --arg a=float:zeros:8 --arg b=float:zeros:8 --arg c=float:zeros:8 "
          "--arg n=8", "global size in dimension 0 is 0" },
        { "--global 8 --local 4096 --arg a=float:zeros:8 --arg b=float:zeros:8 "
          "--arg c=float:zeros:8 --arg n=8", "exceeds the device limit" },
        { "--arg n=8", "--global is required" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = cli_run("run examples/vector_add.sgasm %s", cases[i].args);
        if (r.status != 1 || !strstr(r.err, cases[i].msg))
            fprintf(stderr, "case %zu: status %d, stderr: %s\n", i, r.status, r.err);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, cases[i].msg));
        cli_result_free(&r);
    }
}

/* A launch is valid or not whether it is timed or not: on test-simple (4
 * thread slots) a work-group of 200 work-items at width 4 needs 50
 * sub-groups; both modes refuse it with exit status 1, both run 16. */
static void test_fit_same_with_and_without_timing(void **state)
{
    (void)state;
    static const char *const modes[] = { "", " --no-timing" };
    for (int m = 0; m < 2; m++) {
        cli_result r = cli_run("run examples/vector_add.sgasm --config configs/test-simple.yaml "
                               "--sg 4 --global 200 --local 200 --arg a=float:zeros:200 "
                               "--arg b=float:zeros:200 --arg c=float:zeros:200 --arg n=200%s",
                               modes[m]);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "CL_INVALID_WORK_GROUP_SIZE"));
        cli_result_free(&r);
        r = cli_run("run examples/vector_add.sgasm --config configs/test-simple.yaml --sg 4 "
                    "--global 200 --local 8 --arg a=float:zeros:200 --arg b=float:zeros:200 "
                    "--arg c=float:zeros:200 --arg n=200%s", modes[m]);
        assert_int_equal(r.status, 0);
        cli_result_free(&r);
    }
}

static void test_runaway_kernel(void **state)
{
    (void)state;
    put("spin.sgasm", ".kernel spin\n"
                      "top:\n"
                      "    bra top\n");
    cli_result r = cli_run("run %s/spin.sgasm --global 8 --max-instructions 1000", dir);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "instruction limit of 1000"));
    assert_non_null(strstr(r.err, "spin.sgasm:3:"));
    cli_result_free(&r);
}

static void test_json_summary(void **state)
{
    (void)state;
    cli_result r = cli_run("run examples/vector_add.sgasm --global 32 --local 32 --sg 8,16 "
                           "--arg a=float:iota:32 --arg b=float:iota:32 --arg c=float:zeros:32 "
                           "--arg n=32 --out c --json");
    assert_int_equal(r.status, 0);
    assert_true(r.out[0] == '{');
    assert_non_null(strstr(r.out, "\"kernel\": \"vector_add\""));
    assert_non_null(strstr(r.out, "\"sg_width\": 8"));
    assert_non_null(strstr(r.out, "\"sg_width\": 16"));
    assert_non_null(strstr(r.out, "\"c\": [0, 2, 4, 6"));
    /* 32 work-items: SIMD8 runs 4 sub-groups x 8 instructions, SIMD16 2 x 8 */
    assert_non_null(strstr(r.out, "\"subgroups\": 4"));
    assert_non_null(strstr(r.out, "\"instructions\": 32"));
    assert_non_null(strstr(r.out, "\"instructions\": 16"));
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("cli");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_everywhere),
        cmocka_unit_test(test_malformed_kernel),
        cmocka_unit_test(test_malformed_config),
        cmocka_unit_test(test_out_of_bounds_fault),
        cmocka_unit_test(test_outputs_never_overwrite_inputs),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_fit_same_with_and_without_timing),
        cmocka_unit_test(test_runaway_kernel),
        cmocka_unit_test(test_json_summary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
