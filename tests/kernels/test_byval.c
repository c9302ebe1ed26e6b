/* test_byval.c - vectors and structs passed to kernels by value
 * (tests/kernels/byval.cl): `sgemu run byval.cl --kernel K` with the
 * argument's host-layout bytes given as a buffer, at SIMD8/16/32 over a
 * range that is no multiple of 16 or 32, against references computed here;
 * and the launch errors for too few bytes, a scalar or no value. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

enum { N = 40 };
static const unsigned widths[] = { 8, 16, 32 };
#define KERNEL "tests/kernels/byval.cl"

/* Run kernel k at width w with output buffer `o` (spec) and extra arguments,
 * then read n bytes of o into p. */
static void run_out(const char *k, unsigned w, const char *ospec, const char *args,
                    void *p, size_t n)
{
    cli_run_ok("run " KERNEL " --kernel %s --sg %u --global %d --arg o=%s %s "
               "--out o=%s/o.bin -q", k, w, N, ospec, args, cli_tmpdir);
    cli_get("o.bin", p, n);
}

static void test_float4(void **state)
{
    (void)state;
    const float s[4] = { 1.5f, -2.0f, 0.25f, 8.0f };
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N][4];
        run_out("vec_f4", widths[wi], "float:zeros:160", "--arg s=float:[1.5,-2,0.25,8]",
                o, sizeof o);
        for (int i = 0; i < N; i++) {
            assert_true(o[i][0] == s[0] + (float)i);
            assert_true(o[i][1] == s[1] * (float)i);
            assert_true(o[i][2] == s[2] - (float)i);
            assert_true(o[i][3] == (i & 1 ? -s[3] : s[3]));
        }
    }
}

static void test_int2(void **state)
{
    (void)state;
    for (unsigned wi = 0; wi < 3; wi++) {
        int32_t o[N][2];
        run_out("vec_i2", widths[wi], "int:zeros:80", "--arg q=int:[-7,100000]", o, sizeof o);
        for (int i = 0; i < N; i++) {
            assert_int_equal(o[i][0], -7 * i);
            assert_int_equal(o[i][1], 100000 - i);
        }
    }
}

static void test_uchar16(void **state)
{
    (void)state;
    uint8_t u[16];
    char list[128];
    size_t n = 0;
    for (int c = 0; c < 16; c++) {
        u[c] = (uint8_t)(c * 17 + 3);
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%u", c ? "," : "", u[c]);
    }
    char args[200];
    snprintf(args, sizeof args, "--arg u=uchar:[%s]", list);
    for (unsigned wi = 0; wi < 3; wi++) {
        uint8_t o[N][16];
        run_out("vec_uc16", widths[wi], "uchar:zeros:640", args, o, sizeof o);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 16; c++)
                assert_int_equal(o[i][c], (uint8_t)(u[c] + i));   /* wraps mod 256 */
    }
}

static void test_double2(void **state)
{
    (void)state;
    for (unsigned wi = 0; wi < 3; wi++) {
        double o[N][2];
        run_out("vec_d2", widths[wi], "double:zeros:80", "--arg d=double:[0.1,1e300]", o,
                sizeof o);
        for (int i = 0; i < N; i++) {
            assert_true(o[i][0] == 0.1 * i);
            assert_true(o[i][1] == 1e300 + i);
        }
    }
}

/* A float3 takes 16 bytes (its 4th component is padding, given as 0). */
static void test_float3(void **state)
{
    (void)state;
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N][3];
        run_out("vec_f3", widths[wi], "float:zeros:120",
                "--arg t=float:[3,-4.5,1024,0] --arg k=0.5", o, sizeof o);
        for (int i = 0; i < N; i++) {
            assert_true(o[i][0] == 3.0f + 0.5f * i);
            assert_true(o[i][1] == -4.5f + 0.5f * i);
            assert_true(o[i][2] == 1024.0f + 0.5f * i);
        }
    }
}

static void test_long8(void **state)
{
    (void)state;
    const int64_t l[8] = { 1, -2, 3000000000LL, -4, 5, 1LL << 40, 7, -8 };
    for (unsigned wi = 0; wi < 3; wi++) {
        int64_t o[N][8];
        run_out("vec_l8", widths[wi], "long:zeros:320",
                "--arg l=long:[1,-2,3000000000,-4,5,1099511627776,7,-8]", o, sizeof o);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 8; c++)
                assert_true(o[i][c] == l[c] * (i + 1));
    }
}

static void test_half4(void **state)
{
    (void)state;
    const float h[4] = { 1.5f, -2.0f, 0.25f, 65504.0f };   /* exact in half */
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N][4];
        run_out("vec_h4", widths[wi], "float:zeros:160", "--arg h=half:[1.5,-2,0.25,65504]",
                o, sizeof o);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 4; c++)
                assert_true(o[i][c] == h[c] * (float)i);
    }
}

static void test_several(void **state)
{
    (void)state;
    for (unsigned wi = 0; wi < 3; wi++) {
        int32_t o[N][2];
        run_out("vec_mix", widths[wi], "int:zeros:80",
                "--arg c=char:[-128,2,3,-5] --arg s=short:[-300,1,2,3,4,5,6,32767] "
                "--arg u=uint:[7,9]", o, sizeof o);
        for (int i = 0; i < N; i++) {
            assert_int_equal(o[i][0], -5 * i + 32767 + 9);
            assert_int_equal(o[i][1], -128 - 300 * i - 7);
        }
    }
}

/* struct { int a; float b[3]; short c; }: a at 0, b at 4, c at 16, 20 bytes. */
static void put_s1(int32_t a, const float b[3], int16_t c)
{
    uint8_t s[20];
    memset(s, 0xee, sizeof s);
    memcpy(s, &a, 4);
    memcpy(s + 4, b, 12);
    memcpy(s + 16, &c, 2);
    cli_put("s1.bin", s, sizeof s);
}

static void test_struct(void **state)
{
    (void)state;
    const float b[3] = { 0.5f, -1.25f, 64.0f };
    put_s1(-3, b, 1000);
    char args[128];
    snprintf(args, sizeof args, "--arg p=u8:@%s/s1.bin", cli_tmpdir);
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N];
        run_out("st_s1", widths[wi], "float:zeros:40", args, o, sizeof o);
        for (int i = 0; i < N; i++)
            assert_true(o[i] == (float)(-3 * i) + b[i % 3] + 1000.0f);
    }
}

/* struct { char x; float4 v; }: v aligned to 16, so 15 bytes of padding. */
static void test_struct_padding(void **state)
{
    (void)state;
    const float v[4] = { 10.0f, -20.0f, 30.5f, 0.125f };
    uint8_t s[32];
    memset(s, 0x7f, sizeof s);
    s[0] = (uint8_t)(int8_t)-2;
    memcpy(s + 16, v, 16);
    cli_put("s2.bin", s, sizeof s);
    char args[128];
    snprintf(args, sizeof args, "--arg p=u8:@%s/s2.bin", cli_tmpdir);
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N][4];
        run_out("st_s2", widths[wi], "float:zeros:160", args, o, sizeof o);
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 4; c++)
                assert_true(o[i][c] == v[c] + (float)(-2 * i));
    }
}

/* The kernel writes its copy: every work-item starts from the given bytes. */
static void test_struct_written(void **state)
{
    (void)state;
    const float b[3] = { 1.0f, 2.0f, 4.0f };
    put_s1(5, b, -6);
    char args[128];
    snprintf(args, sizeof args, "--arg p=u8:@%s/s1.bin", cli_tmpdir);
    for (unsigned wi = 0; wi < 3; wi++) {
        float o[N];
        run_out("st_mut", widths[wi], "float:zeros:40", args, o, sizeof o);
        for (int i = 0; i < N; i++) {
            float bb[3] = { b[0], b[1], b[2] };
            bb[i % 3] *= 2.0f;
            assert_true(o[i] == (float)(5 + i) + bb[0] + bb[1] + bb[2] - 6.0f);
        }
    }
}

/* `sgemu spv2asm` prints the by-value arguments as .sgasm that runs the
 * same: the struct kernel's text, written out and run as a .sgasm file. */
static void test_spv2asm_roundtrip(void **state)
{
    (void)state;
    cli_result r = cli_run("spv2asm " KERNEL " --kernel st_s2");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n.arg p byval struct 32 S2\n"));
    cli_put("st_s2.sgasm", r.out, strlen(r.out));
    cli_result_free(&r);
    r = cli_run("spv2asm " KERNEL " --kernel vec_f3");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n.arg t byval f32 3 float3\n"));
    cli_result_free(&r);
    const float v[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    uint8_t s[32] = { 3 };
    memcpy(s + 16, v, 16);
    cli_put("s2.bin", s, sizeof s);
    float o[8][4];
    cli_run_ok("run %s/st_s2.sgasm --global 8 --sg 8 --arg o=float:zeros:32 "
               "--arg p=u8:@%s/s2.bin --out o=%s/o.bin -q", cli_tmpdir, cli_tmpdir, cli_tmpdir);
    cli_get("o.bin", o, sizeof o);
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            assert_true(o[i][c] == v[c] + 3.0f * (float)i);
}

/* A module without parameter names: the by-value parameters are listed by
 * position with their type (from the struct's OpName) and size. */
static void test_unnamed_listing(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -include "
             "opencl-c.h -O2 %s/" KERNEL " -o %s/nb.bc && llvm-spirv-14 %s/nb.bc -o %s/nb.spv",
             cli_src(), cli_tmpdir, cli_tmpdir, cli_tmpdir);
    assert_int_equal(system(cmd), 0);
    cli_result r = cli_run("run %s/nb.spv --kernel st_s2 --global 8 --arg p=1", cli_tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "\n  --arg 0=...   global float *\n"
                                  "  --arg 1=...   struct S2 (by value, 32 bytes)\n"));
    cli_result_free(&r);
}

/* Parameters that stay errors, from hand-written SPIR-V: a bool vector, a
 * Function pointer without ByVal, a ByVal struct over 64 KiB. */
static void test_translate_errors(void **state)
{
    (void)state;
    static const struct { const char *types, *param, *msg; } cases[] = {
        { "%t = OpTypeVector %bool 2\n", "",
          "OpFunctionParameter: parameter 0 ('p'): bool vectors cannot be kernel arguments" },
        { "%t = OpTypePointer Function %uint\n", "",
          "OpFunctionParameter: parameter 0 ('p'): pointers to storage class Function are "
          "not supported" },
        { "%big = OpTypeArray %uint %n\n%s = OpTypeStruct %big\n"
          "%t = OpTypePointer Function %s\n", "OpDecorate %p FuncParamAttr ByVal\n",
          "OpFunctionParameter: parameter 0 ('p'): a by-value argument of 80000 bytes is not "
          "supported" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
                 "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%k \"k\"\n"
                 "OpName %%p \"p\"\n%s"
                 "%%void = OpTypeVoid\n%%uint = OpTypeInt 32 0\n%%bool = OpTypeBool\n"
                 "%%n = OpConstant %%uint 20000\n%s"
                 "%%fn = OpTypeFunction %%void %%t\n%%k = OpFunction %%void None %%fn\n"
                 "%%p = OpFunctionParameter %%t\n%%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
                 cases[i].param, cases[i].types);
        cli_put("bad.spvasm", text, strlen(text));
        char cmd[512];
        snprintf(cmd, sizeof cmd, "spirv-as --target-env spv1.0 %s/bad.spvasm -o %s/bad.spv",
                 cli_tmpdir, cli_tmpdir);
        assert_int_equal(system(cmd), 0);
        cli_result r = cli_run("spv2asm %s/bad.spv", cli_tmpdir);
        if (!strstr(r.err, cases[i].msg))
            fprintf(stderr, "got: %s\nexpected: %s\n", r.err, cases[i].msg);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, cases[i].msg));
        cli_result_free(&r);
    }
}

/* sgemu exits 1 with exactly `msg` on stderr. */
static void run_fails(const char *args, const char *msg)
{
    cli_result r = cli_run("run " KERNEL " %s --global 8 -q", args);
    if (r.status != 1 || !strstr(r.err, msg))
        fprintf(stderr, "status %d, stderr: %s\nexpected: %s\n", r.status, r.err, msg);
    assert_int_equal(r.status, 1);
    char line[512];
    snprintf(line, sizeof line, "sgemu: error: %s\n", msg);
    assert_string_equal(r.err, line);
    cli_result_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    run_fails("--kernel vec_f4 --arg o=float:zeros:32 --arg s=float:[1,2,3]",
              "argument 's' is a float4 passed by value: give its 16 bytes, e.g. "
              "--arg s=float:[x,y,z,w] (got 12 bytes)");
    run_fails("--kernel vec_f4 --arg o=float:zeros:32 --arg s=1",
              "argument 's' is a float4 passed by value: give its 16 bytes, e.g. "
              "--arg s=float:[x,y,z,w] (got a scalar)");
    run_fails("--kernel vec_f4 --arg o=float:zeros:32",
              "argument 's' is a float4 passed by value: give its 16 bytes, e.g. "
              "--arg s=float:[x,y,z,w] (got no value)");
    run_fails("--kernel vec_f3 --arg o=float:zeros:24 --arg t=float:[1,2,3] --arg k=1",
              "argument 't' is a float3 passed by value: give its 16 bytes, e.g. "
              "--arg t=float:[x,y,z,0] (got 12 bytes)");
    run_fails("--kernel vec_uc16 --arg o=uchar:zeros:128 --arg u=7",
              "argument 'u' is a uchar16 passed by value: give its 16 bytes, e.g. "
              "--arg u=uchar:[s0,s1,s2,s3,s4,s5,s6,s7,s8,s9,sa,sb,sc,sd,se,sf] (got a scalar)");
    run_fails("--kernel vec_mix --arg o=int:zeros:16 --arg c=char:[1,2,3,4] "
              "--arg s=short:[1,2,3,4,5,6,7] --arg u=uint:[1,2]",
              "argument 's' is a short8 passed by value: give its 16 bytes, e.g. "
              "--arg s=short:[s0,s1,s2,s3,s4,s5,s6,s7] (got 14 bytes)");
    run_fails("--kernel st_s1 --arg o=float:zeros:8 --arg p=u8:[1,2,3,4,5,6,7,8,9,10,11,12,13,"
              "14,15,16,17,18,19]",
              "argument 'p' is a S1 passed by value: give its 20 bytes, as clang lays it out "
              "for spir64, e.g. --arg p=u8:@FILE (got 19 bytes)");
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("byval");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float4),
        cmocka_unit_test(test_int2),
        cmocka_unit_test(test_uchar16),
        cmocka_unit_test(test_double2),
        cmocka_unit_test(test_float3),
        cmocka_unit_test(test_long8),
        cmocka_unit_test(test_half4),
        cmocka_unit_test(test_several),
        cmocka_unit_test(test_struct),
        cmocka_unit_test(test_struct_padding),
        cmocka_unit_test(test_struct_written),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_spv2asm_roundtrip),
        cmocka_unit_test(test_unnamed_listing),
        cmocka_unit_test(test_translate_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
