/* test_compile.c - the OpenCL C compile of `sgemu run K.cl` / `spv2asm`:
 * one call of each built-in docs/opencl.md lists as supported compiles and
 * translates with no declaration in the kernel (builtins.cl, OpenCL C 2.0
 * and 3.0: sgemu's header supplies what clang-14's lacks); -include FILE,
 * clBuildProgram options on the command line and in --build-options, and
 * --clang-arg reach clang (seen through the macros they define); unknown
 * options are clear errors; the required-width message speaks OpenCL C to
 * an OpenCL C kernel; positions are source lines or labelled as SPIR-V
 * instructions; a cluster size that is no constant power of two is a
 * translation error; __OPENCL_VERSION__ is the device's; half needs no
 * pragma; a call of a
 * function declared but not defined names it; a plain inline function is
 * defined; a loop summing its index compiles; the device's
 * extensions define their macros; a <64 x float> of the SLP vectoriser
 * compiles; a list of kernels too
 * long for a message names whole kernels. */
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

/* the value NAME.cl stores in o[0], compiled with OPTS */
static int stored_value(const char *name, const char *opts)
{
    cli_run_ok("run %s/%s.cl --global 1 --local 1 --arg o=int:zeros:1 --out o=%s/o.bin "
               "--no-timing -q %s", cli_tmpdir, name, cli_tmpdir, opts);
    int32_t v;
    cli_get("o.bin", &v, sizeof v);
    return v;
}

/* the value opt.cl stores: a bit per macro it sees */
static int opt_value(const char *opts)
{
    return stored_value("opt", opts);
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

/* Positions: by default (line tables) faults, diagnostics and --per-line
 * name lines of the kernel's file; with -g0 they name the SPIR-V
 * instruction, labelled as such, never a number that looks like a line. */
static void test_positions(void **state)
{
    (void)state;
    static const char src[] =                                   /* 12 lines */
        "kernel void pos(global int *a, global int *b, int n)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    int v = a[i];\n"
        "    for (int j = 0; j < 3; j++)\n"
        "        v = v * 3 + j;\n"
        "    v += sub_group_reduce_add(v) > 10;\n"
        "    v += 1;\n"
        "    b[i + n] = v;\n"
        "    if (n > 100)\n"
        "        b[i] = printf(\"%n\", v);\n"
        "}\n";
    cli_put("pos.cl", src, sizeof src - 1);
    cli_result r = cli_run("run %s/pos.cl --global 16 --local 16 --arg a=int:iota:16 "
                           "--arg b=int:zeros:16 --arg n=100000", cli_tmpdir);
    /* a printf format OpenCL C lacks (%n): a translation error at its line */
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "pos.cl:11:1: error: kernel 'pos'"));
    cli_result_free(&r);
    r = cli_run("run %s/pos.cl -g0 --global 16 --local 16 --arg a=int:iota:16 "
                "--arg b=int:zeros:16 --arg n=100000", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "pos.cl: error: kernel 'pos': SPIR-V instruction "));
    assert_non_null(strstr(r.err, "(no source line)"));
    cli_result_free(&r);
    /* without the printf: a kernel fault at line 9 */
    char *nop = strdup(src);
    assert_non_null(nop);
    memcpy(strstr(nop, "printf(\"%n\", v)"), "        v + 0  ", 15);
    cli_put("pos.cl", nop, strlen(nop));
    free(nop);
    r = cli_run("run %s/pos.cl --global 16 --local 16 --arg a=int:iota:16 "
                "--arg b=int:zeros:16 --arg n=100000", cli_tmpdir);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "pos.cl:9: st.global"));
    cli_result_free(&r);
    r = cli_run("run %s/pos.cl -g0 --global 16 --local 16 --arg a=int:iota:16 "
                "--arg b=int:zeros:16 --arg n=100000", cli_tmpdir);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "pos.cl, SPIR-V instruction "));
    assert_non_null(strstr(r.err, " (no source line): st.global"));
    cli_result_free(&r);
    /* --per-line: every line is one of the file's 12, or '-' */
    for (int g0 = 0; g0 < 2; g0++) {
        r = cli_run_checked("run %s/pos.cl %s --global 16 --local 16 --arg a=int:iota:16 "
                            "--arg b=int:zeros:16 --arg n=0 --per-line", cli_tmpdir,
                            g0 ? "-g0" : "");
        const char *t = strstr(r.err, "per instruction:");
        if (!t)
            t = strstr(r.out, "per instruction:");
        assert_non_null(t);
        int rows = 0, dashes = 0;
        for (t = strchr(t, '\n'); t && !strncmp(t + 1, "                    ", 20);
             t = strchr(t + 1, '\n')) {
            const char *c = t + 1;
            while (*c == ' ')
                c++;
            if (*c == '-') {
                dashes++;
            } else {
                const long line = strtol(c, NULL, 10);
                assert_true(line >= 1 && line <= 12);
            }
            rows++;
        }
        assert_true(rows > 5);
        if (g0)
            assert_int_equal(dashes, rows);
        cli_result_free(&r);
    }
}

/* A cluster size must be an integer constant expression and a power of two:
 * otherwise translating fails, naming the line and the rule (it used to
 * translate and fault at run time). */
static void test_cluster_constant(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void cs(global int *o, uint n)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "#if K == 0\n"
        "    o[i] = sub_group_clustered_reduce_add(o[i], n);\n"
        "#elif K == 1\n"
        "    o[i] = sub_group_clustered_rotate(o[i], 1, n);\n"
        "#elif K == 2\n"
        "    o[i] = sub_group_clustered_reduce_max(o[i], 3);\n"
        "#else\n"
        "    o[i] = sub_group_clustered_reduce_max(o[i], 4) + sub_group_clustered_rotate(o[i], 1, 8);\n"
        "#endif\n"
        "}\n";
    cli_put("cs.cl", src, sizeof src - 1);
    static const char *const expect[] = {
        "cs.cl:5:1: error: kernel 'cs': OpGroupNonUniformIAdd: the cluster size of "
        "sub_group_clustered_reduce_add is not a compile-time constant "
        "(cl_khr_subgroup_clustered_reduce: an integer constant expression)",
        "cs.cl:7:1: error: kernel 'cs': OpFunctionCall: the cluster size of "
        "sub_group_clustered_rotate is not a compile-time constant (cl_khr_subgroup_rotate: "
        "an integer constant expression)",
        "cs.cl:9:1: error: kernel 'cs': OpGroupNonUniformSMax: the cluster size of "
        "sub_group_clustered_reduce_max is 3, not a power of two "
        "(cl_khr_subgroup_clustered_reduce)",
    };
    for (int k = 0; k < 3; k++) {
        cli_result r = cli_run("spv2asm %s/cs.cl -cl-std=CL3.0 -DK=%d", cli_tmpdir, k);
        assert_int_equal(r.status, 1);
        if (!strstr(r.err, expect[k]))
            fail_msg("K=%d: expected '%s' in: %s", k, expect[k], r.err);
        cli_result_free(&r);
    }
    cli_result r = cli_run_checked("spv2asm %s/cs.cl -cl-std=CL3.0 -DK=3", cli_tmpdir);
    assert_non_null(strstr(r.out, "sub_group_clustered_reduce_max.i32"));
    cli_result_free(&r);
}

/* __OPENCL_VERSION__ is the device's version, OpenCL 3.0 (the ICD's
 * CL_DEVICE_VERSION), whatever -cl-std says; a -D of it in the options
 * stays.  Code shared with the host tests it (#ifndef __OPENCL_VERSION__
 * hides host-only members of a struct). */
static void test_device_version_macro(void **state)
{
    (void)state;
    static const char src[] =
        "typedef struct {\n    int n;\n"
        "#ifndef __OPENCL_VERSION__\n    int host_only() { return n; }\n#endif\n"
        "} shared_t;\n"
        "kernel void ver(global int *o)\n{\n    shared_t s = { __OPENCL_VERSION__ };\n"
        "    o[get_global_id(0)] = s.n;\n}\n";
    cli_put("ver.cl", src, sizeof src - 1);
    assert_int_equal(stored_value("ver", ""), 300);
    assert_int_equal(stored_value("ver", "-cl-std=CL1.2"), 300);
    assert_int_equal(stored_value("ver", "-cl-std=CL3.0"), 300);
    assert_int_equal(stored_value("ver", "-D__OPENCL_VERSION__=120"), 120);
}

/* half needs no pragma in the kernel, as with Intel's compiler: a
 * __constant half declared before any pragma compiles and reads back. */
static void test_half_without_pragma(void **state)
{
    (void)state;
    static const char src[] =
        "__constant half three = 3.0h;\n"
        "kernel void hf(global int *o)\n{\n"
        "    half x = three * (half)2.5f;\n"
        "    o[get_global_id(0)] = (int)((float)x * 4.0f);\n}\n";
    cli_put("hf.cl", src, sizeof src - 1);
    assert_int_equal(stored_value("hf", ""), 30);
    assert_int_equal(stored_value("hf", "-cl-std=CL1.2"), 30);
}

/* A function declared in the file and defined in none (in a library's
 * other source file): an error at the call that names the function. */
static void test_undefined_function(void **state)
{
    (void)state;
    static const char src[] =
        "float scale_of(global const float *p, int n);\n"
        "kernel void uses(global float *o, int n)\n{\n"
        "    o[get_global_id(0)] = scale_of(o, n);\n}\n";
    cli_put("undef.cl", src, sizeof src - 1);
    cli_result r = cli_run("spv2asm %s/undef.cl", cli_tmpdir);
    assert_int_equal(r.status, 1);
    const char *want = "undef.cl:4:1: error: kernel 'uses': OpFunctionCall: call of 'scale_of', "
                       "which is declared but not defined";
    if (!strstr(r.err, want))
        fail_msg("expected '%s' in: %s", want, r.err);
    cli_result_free(&r);
}

/* A plain (not static) `inline` function is defined by the program, as
 * Intel's and PoCL's compilers take it: called where clang does not
 * inline it (-cl-opt-disable), the kernel runs instead of failing with
 * "declared but not defined". */
static void test_plain_inline(void **state)
{
    (void)state;
    static const char src[] =
        "inline int tri(int n)\n{\n    int s = 0;\n"
        "    for (int i = 1; i <= n; i++)\n        s += i;\n    return s;\n}\n"
        "kernel void inl(global int *o)\n{\n    o[get_global_id(0)] = tri(20) + 1;\n}\n";
    cli_put("inl.cl", src, sizeof src - 1);
    assert_int_equal(stored_value("inl", "-cl-opt-disable"), 211);
    assert_int_equal(stored_value("inl", "-cl-opt-disable -cl-std=CL1.2"), 211);
    assert_int_equal(stored_value("inl", ""), 211);
}

/* A loop summing its own index (`s += i`, n from the buffer): -O2
 * replaces its exit value by the closed form n(n-1)/2 computed in 33 bits,
 * which llvm-spirv-14 rejects; the second compile keeps the loop. */
static void test_sum_of_index(void **state)
{
    (void)state;
    static const char src[] =
        "int tri(int n)\n{\n    int s = 0;\n"
        "    for (int i = 1; i <= n; i++)\n        s += i;\n    return s;\n}\n"
        "kernel void sum_index(global int *o)\n{\n    o[0] = tri(o[0] + 20);\n}\n";
    cli_put("sum_index.cl", src, sizeof src - 1);
    assert_int_equal(stored_value("sum_index", ""), 210);
}

/* 64 accumulators of a fully unrolled tile (CLBlast's GEMM has them): the
 * SLP vectoriser makes them one <64 x float>, a vector width SPIR-V lacks,
 * on which llvm-spirv-14 asserts; the second compile, without vectorisers,
 * runs it.  a[i] = i, so c[i] is a sum of products of small integers. */
static void test_wide_slp_vector(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void acc_tile(global const float *a, global float *c, int K)\n{\n"
        "    float acc[64];\n#pragma unroll\n    for (int i = 0; i < 64; i++)\n"
        "        acc[i] = 0.0f;\n    for (int k = 0; k < K; k++)\n#pragma unroll\n"
        "        for (int i = 0; i < 64; i++)\n"
        "            acc[i] += a[k * 8 + i % 8] * a[k * 8 + i / 8];\n"
        "#pragma unroll\n    for (int i = 0; i < 64; i++)\n        c[i] = acc[i];\n}\n";
    cli_put("acc_tile.cl", src, sizeof src - 1);
    cli_run_ok("run %s/acc_tile.cl --global 1 --local 1 --arg a=float:iota:16 "
               "--arg c=float:zeros:64 --arg K=2 --out c=%s/c.bin --no-timing -q",
               cli_tmpdir, cli_tmpdir);
    float c[64];
    cli_get("c.bin", c, sizeof c);
    for (int i = 0; i < 64; i++) {
        float want = 0.0f;
        for (int k = 0; k < 2; k++)
            want += (float)(k * 8 + i % 8) * (float)(k * 8 + i / 8);
        assert_true(c[i] == want);
    }
}

/* Every extension of the device's list that adds built-ins defines its
 * macro in the kernel (the extension specification, 1.3), at OpenCL C 1.2,
 * 2.0 and 3.0: kernels choose their sub-group paths by them. */
static void test_extension_macros(void **state)
{
    (void)state;
    static const char *const ext[] = {
        "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_khr_subgroup_extended_types",
        "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
        "cl_khr_subgroup_rotate", "cl_intel_subgroups", "cl_intel_subgroups_short",
        "cl_intel_subgroups_char", "cl_intel_subgroups_long",
        "cl_intel_required_subgroup_size", "cl_intel_subgroup_local_block_io",
        "cl_intel_media_block_io",
    };
    const int n = (int)(sizeof ext / sizeof ext[0]);
    char src[4096];
    int at = snprintf(src, sizeof src, "kernel void exts(global int *o)\n{\n    int v = 0;\n");
    for (int i = 0; i < n; i++)
        at += snprintf(src + at, sizeof src - (size_t)at, "#ifdef %s\n    v |= 1 << %d;\n#endif\n",
                       ext[i], i);
    at += snprintf(src + at, sizeof src - (size_t)at, "    o[0] = v;\n}\n");
    cli_put("exts.cl", src, (size_t)at);
    static const char *const stds[] = { "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0" };
    for (int s = 0; s < 3; s++) {
        const int v = stored_value("exts", stds[s]);
        for (int i = 0; i < n; i++)
            if (!(v & (1 << i)))
                fail_msg("%s: %s is not defined", stds[s], ext[i]);
    }
}

/* The integer dot products, which the device does not list: their macros
 * are unset, and a kernel that picks its own code when they are (as
 * SimpleOpenCLSamples' matrix_helpers_i8.cl does for dot_4x8packed_ss_int)
 * builds and runs it, at every OpenCL C version. */
static void test_integer_dot_macros(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void idot(global int *o)\n{\n    int v = 0;\n"
        "#ifdef cl_khr_integer_dot_product\n    v |= 1;\n#endif\n"
        "#ifdef __opencl_c_integer_dot_product_input_4x8bit\n    v |= 2;\n#endif\n"
        "#ifdef __opencl_c_integer_dot_product_input_4x8bit_packed\n    v |= 4;\n#endif\n"
        "#ifdef cl_arm_integer_dot_product_int8\n    v |= 8;\n#endif\n"
        "    uint a = as_uint((char4)(1, -2, 3, -4)) + (uint)get_global_id(0);\n"
        "    uint b = as_uint((char4)(5, 6, -7, 8));\n"
        "#if defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
        "    int d = dot_4x8packed_ss_int(a, b);\n"
        "#else\n"
        "    char4 x = as_char4(a), y = as_char4(b);\n"
        "    int d = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;\n"
        "#endif\n"
        "    o[0] = v + 16 * d;\n}\n";
    cli_put("idot.cl", src, sizeof src - 1);
    static const char *const stds[] = { "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0" };
    for (int s = 0; s < 3; s++)   /* 1*5 - 2*6 - 3*7 - 4*8 = -60; no macro bit */
        assert_int_equal(stored_value("idot", stds[s]), 16 * -60);
}

/* reqd_work_group_size: `sgemu run` without --local runs the kernel's
 * size, and another --local is an error naming it. */
static void test_reqd_work_group_size(void **state)
{
    (void)state;
    static const char src[] =
        "__attribute__((reqd_work_group_size(8, 1, 1)))\n"
        "kernel void rwg(global int *o)\n{\n"
        "    if (get_global_id(0) == 0) o[0] = (int)get_local_size(0);\n}\n";
    cli_put("rwg.cl", src, sizeof src - 1);
    cli_run_ok("run %s/rwg.cl --global 32 --arg o=int:zeros:1 --out o=%s/o.bin --no-timing -q",
               cli_tmpdir, cli_tmpdir);
    int32_t v;
    cli_get("o.bin", &v, sizeof v);
    assert_int_equal(v, 8);
    cli_result r = cli_run("run %s/rwg.cl --global 32 --local 16 --arg o=int:zeros:1 --no-timing -q",
                           cli_tmpdir);
    assert_int_not_equal(r.status, 0);
    if (!strstr(r.err, "requires work-group size 8,1,1 (reqd_work_group_size) but 16,1,1"))
        fail_msg("unexpected message: %s", r.err);
    cli_result_free(&r);
}

/* A kernel that requires SIMD32 and reads a sub-group block (oneDNN's
 * xe_eltwise_fwd with -DSIMD=32): ocloc -device tgllp refuses it ("Block
 * reads not supported in SIMD32"), and `sgemu run` says so without --sg
 * too, judging the width the launch takes, not the option's 0. */
static void test_refusal_at_required_width(void **state)
{
    (void)state;
    static const char src[] =
        "__attribute__((intel_reqd_sub_group_size(32)))\n"
        "kernel void blk32(global const uint *in, global uint *out)\n{\n"
        "    out[get_global_id(0)] = intel_sub_group_block_read(in) + 1u;\n}\n";
    cli_put("blk32.cl", src, sizeof src - 1);
    static const char *const sg[] = { "", "--sg 32" };
    for (int i = 0; i < 2; i++) {
        cli_result r = cli_run("run %s/blk32.cl --config intel-xe-lp --global 32 %s "
                               "--arg in=uint:iota:32 --arg out=uint:zeros:32 --no-timing -q",
                               cli_tmpdir, sg[i]);
        assert_int_equal(r.status, 0);
        if (!strstr(r.err, "kernel 'blk32' at SIMD32 on Intel Xe-LP (Tiger Lake GT2): it uses "
                           "sub-group block reads/writes wider than the device takes"))
            fail_msg("'%s': no refusal warning: %s", sg[i], r.err);
        cli_result_free(&r);
    }
}

/* Function-scope __local arrays are module-scope variables in SPIR-V; a
 * kernel's local memory is its own arrays, not every kernel's (CLBlast's
 * four XgemmDirect kernels, 32 KiB each, needed 128 KiB each). Two kernels
 * of 40 KiB each: each runs on the default device's 64 KiB. */
static void test_local_memory_per_kernel(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void lm_a(global int *o)\n{\n    local int t[10240];\n"
        "    t[get_local_id(0)] = (int)get_local_id(0);\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (get_global_id(0) == 0) o[0] = t[get_local_size(0) - 1] + 1000;\n}\n"
        "kernel void lm_b(global int *o)\n{\n    local int u[10240];\n"
        "    u[get_local_id(0)] = 7;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    o[get_global_id(0)] = u[0];\n}\n";
    cli_put("lm.cl", src, sizeof src - 1);
    cli_run_ok("run %s/lm.cl --kernel lm_a --global 64 --local 64 --arg o=int:zeros:1 "
               "--out o=%s/o.bin --no-timing -q", cli_tmpdir, cli_tmpdir);
    int32_t v;
    cli_get("o.bin", &v, sizeof v);
    assert_int_equal(v, 1063);
    static const char *const kn[] = { "lm_a", "lm_b" };
    for (int i = 0; i < 2; i++) {
        cli_result r = cli_run_checked("spv2asm %s/lm.cl --kernel %s", cli_tmpdir, kn[i]);
        if (!strstr(r.out, ".local_mem 40960\n"))
            fail_msg("%s: not 40960 bytes of local memory", kn[i]);
        cli_result_free(&r);
    }
}

/* An unrolled loop of 1500 steps, four values each: more value registers
 * than a kernel may run with (ISA_MAX_REGS), which allocation brings
 * down; the result is the host's own loop. */
static void test_many_values(void **state)
{
    (void)state;
    static const char src[] =
        "kernel void mv(global int *o)\n{\n"
        "    uint acc = (uint)get_global_id(0) + 1u;\n"
        "    #pragma unroll\n"
        "    for (uint k = 0; k < 1500u; k++)\n"
        "        acc = (acc ^ (acc >> 7)) * 2654435761u + k;\n"
        "    o[0] = (int)acc;\n}\n";
    cli_put("mv.cl", src, sizeof src - 1);
    uint32_t want = 1;
    for (uint32_t k = 0; k < 1500; k++)
        want = (want ^ (want >> 7)) * 2654435761u + k;
    assert_int_equal((uint32_t)stored_value("mv", ""), want);
    cli_result r = cli_run_checked("spv2asm %s/mv.cl --no-regalloc", cli_tmpdir);
    assert_non_null(strstr(r.out, "r4096"));   /* value registers past the limit */
    cli_result_free(&r);
    /* unallocated, it cannot run: a clear error, not a register file of
     * tens of thousands of registers */
    setenv("SGEMU_REGALLOC", "0", 1);
    r = cli_run("run %s/mv.cl --global 1 --local 1 --arg o=int:zeros:1 --no-timing -q",
                cli_tmpdir);
    unsetenv("SGEMU_REGALLOC");
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "value registers; unallocated (SGEMU_REGALLOC=0)"))
        fail_msg("unexpected message: %s", r.err);
    cli_result_free(&r);
}

/* A file of more kernels than a message holds: the message lists whole
 * names and says how many it leaves out. */
static void test_many_kernels_named(void **state)
{
    (void)state;
    char src[2048] = "";
    enum { NK = 9 };
    for (int i = 0; i < NK; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src),
                 "kernel void kernel_with_a_rather_long_name_%d(global int *o) { o[0] = %d; }\n",
                 i, i);
    cli_put("many.cl", src, strlen(src));
    cli_result r = cli_run("spv2asm %s/many.cl", cli_tmpdir);
    assert_int_equal(r.status, 1);
    int listed = 0;
    for (const char *p = r.err; (p = strstr(p, "long_name_")); p++)
        listed++;
    assert_in_range(listed, 2, NK - 1);
    char want[200];
    snprintf(want, sizeof want, "kernel_with_a_rather_long_name_%d, and %d more): choose one",
             listed - 1, NK - listed);
    if (!strstr(r.err, want))
        fail_msg("expected '%s' in: %s", want, r.err);
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
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_cluster_constant),
        cmocka_unit_test(test_device_version_macro),
        cmocka_unit_test(test_half_without_pragma),
        cmocka_unit_test(test_undefined_function),
        cmocka_unit_test(test_plain_inline),
        cmocka_unit_test(test_sum_of_index),
        cmocka_unit_test(test_extension_macros),
        cmocka_unit_test(test_integer_dot_macros),
        cmocka_unit_test(test_reqd_work_group_size),
        cmocka_unit_test(test_refusal_at_required_width),
        cmocka_unit_test(test_local_memory_per_kernel),
        cmocka_unit_test(test_wide_slp_vector),
        cmocka_unit_test(test_many_kernels_named),
        cmocka_unit_test(test_many_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
