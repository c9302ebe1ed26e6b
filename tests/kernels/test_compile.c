/* test_compile.c - the OpenCL C compile of `sgemu run K.cl` / `spv2asm`:
 * one call of each built-in docs/opencl.md lists as supported compiles and
 * translates with no declaration in the kernel (builtins.cl, OpenCL C 2.0
 * and 3.0: sgemu's header supplies what clang-14's lacks); -include FILE,
 * clBuildProgram options on the command line and in --build-options, and
 * --clang-arg reach clang (seen through the macros they define); unknown
 * options are clear errors; the required-width message speaks OpenCL C to
 * an OpenCL C kernel. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_builtins(void **state)
{
    (void)state;
    static const char *const kernels[] = { "math_fns", "int_fns", "work_items",
                                           "sync_atomics", "groups", "images" };
    static const char *const stds[] = { "CL2.0", "CL3.0" };
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            cli_result r = cli_run_checked("spv2asm tests/kernels/builtins.cl --kernel %s "
                                           "-cl-std=%s", kernels[k], stds[s]);
            assert_non_null(strstr(r.out, ".kernel "));
            assert_null(strstr(r.err, "implicit declaration"));
            cli_result_free(&r);
        }
}

/* the value opt.cl stores: a bit per macro it sees */
static int opt_value(const char *opts)
{
    cli_run_ok("run %s/opt.cl --global 1 --local 1 --arg o=int:zeros:1 --out o=%s/o.bin "
               "--no-timing -q %s", cli_tmpdir, cli_tmpdir, opts);
    int32_t v;
    cli_get("o.bin", &v, sizeof v);
    return v;
}

static void test_options(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void opt(global int *o)\n{\n    int v = 0;\n"
        "#ifdef __FAST_RELAXED_MATH__\n    v |= 1;\n#endif\n"
        "#ifdef __OPTIMIZE__\n    v |= 2;\n#endif\n"
        "#ifdef __FINITE_MATH_ONLY__\n    v |= __FINITE_MATH_ONLY__ ? 64 : 0;\n#endif\n"
        "#ifdef FROM_INCLUDE\n    v |= FROM_INCLUDE;\n#endif\n"
        "#ifdef SEP\n    v |= SEP;\n#endif\n"
        "    o[get_global_id(0)] = v;\n}\n";
    cli_put("opt.cl", src, sizeof src - 1);
    static const char inc[] = "#define FROM_INCLUDE 4\n";
    cli_put("inc.h", inc, sizeof inc - 1);
    char opts[512];
    assert_int_equal(opt_value(""), 2);
    assert_int_equal(opt_value("-cl-fast-relaxed-math"), 1 | 2 | 64);
    assert_int_equal(opt_value("-cl-finite-math-only -cl-mad-enable -w"), 2 | 64);
    snprintf(opts, sizeof opts, "-include %s/inc.h", cli_tmpdir);
    assert_int_equal(opt_value(opts), 2 | 4);
    assert_int_equal(opt_value("--build-options '-cl-opt-disable  -D SEP=8 -cl-mad-enable'"), 8);
    assert_int_equal(opt_value("--build-options=-DSEP=16"), 2 | 16);
    assert_int_equal(opt_value("--clang-arg -DSEP=32 --clang-arg=-ffp-contract=off"), 2 | 32);
    /* errors: an unknown -cl- option, an unknown word in --build-options,
     * a missing value, and what clang-14 itself refuses */
    cli_result r = cli_run("run %s/opt.cl -cl-fast-relaxd-math --global 1 --arg o=int:zeros:1",
                           cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "unknown OpenCL build option '-cl-fast-relaxd-math'"));
    assert_non_null(strstr(r.err, "--clang-arg"));
    cli_result_free(&r);
    r = cli_run("spv2asm %s/opt.cl --build-options '-cl-mad-enable -fno-bar'", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--build-options: unknown OpenCL build option '-fno-bar'"));
    cli_result_free(&r);
    r = cli_run("spv2asm %s/opt.cl --build-options '-D'", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "'-D' needs a value"));
    cli_result_free(&r);
    r = cli_run("spv2asm %s/opt.cl -include", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "-include needs a value"));
    cli_result_free(&r);
    r = cli_run("spv2asm %s/opt.cl --clang-arg -fno-such-clang-option", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "-fno-such-clang-option"));
    cli_result_free(&r);
}

static void test_reqd_width_message(void **state)
{
    (void)state;
    static const char src[] =
        "__attribute__((intel_reqd_sub_group_size(16)))\n"
        "kernel void req(global int *o) { o[get_global_id(0)] = 1; }\n";
    cli_put("req.cl", src, sizeof src - 1);
    cli_result r = cli_run("run %s/req.cl --sg 8 --global 16 --arg o=int:zeros:16", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "requires sub-group size 16"));
    assert_non_null(strstr(r.err, "intel_reqd_sub_group_size"));
    assert_null(strstr(r.err, ".reqd_sub_group_size"));
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("compile");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_reqd_width_message),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
