/* test_globals.c - program-scope __global variables (tests/kernels/globals.cl)
 * compiled as OpenCL C 2.0 and 3.0 with clang-14 + llvm-spirv-14, checked
 * with spirv-val and run through `sgemu run` at SIMD8/16/32 over several
 * work-groups.  The expected values are written here from the initialisers
 * in globals.cl and the OpenCL C rules (zero where there is no initialiser,
 * one atomic increment per work-item, every launch starting from the
 * initial values); variables are read back after the run with --out NAME. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

static const char *const tmpdir = cli_tmpdir;
static const unsigned widths[] = { 8, 16, 32 };
static const char *const stds[] = { "CL2.0", "CL3.0" };

enum { G = 40, L = 8 };   /* five work-groups; 40 is not a multiple of 16 or 32 */

/* globals.cl's initialisers, written out again */
static const int32_t arr[6] = { 1, -2, 3, -4, 5, -6 };
static const int32_t scal = 42, st_a = 7, st_c[3] = { 10, 20, 30 };
static const float st_b = 2.5f;
static const int64_t st_d = -(INT64_C(1) << 40);
static const int32_t ctab[4] = { 100, 200, 300, 400 };
static const int32_t link_tag[2] = { 1, 2 };

static size_t file_size(const char *name)
{
    char path[256];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    assert_int_equal(stat(path, &sb), 0);
    return (size_t)sb.st_size;
}

/* Read variable file NAME that must hold exactly n bytes. */
static void get_exact(const char *name, void *p, size_t n)
{
    assert_int_equal(file_size(name), n);
    cli_get(name, p, n);
}

static void check_globals_out(const int32_t *out)
{
    for (int i = 0; i < G; i++) {
        const int32_t *o = out + i * 6;
        assert_int_equal(o[0], scal + arr[i % 6]);
        assert_int_equal(o[1], st_a * 1000 + st_c[i % 3] + (int32_t)(st_b * 2.0f));
        /* zf and zarr are zero */
        assert_int_equal(o[2], (int32_t)(st_d >> 32));
        /* ptr_arr = &arr[3], ptr_scal = &scal, ptr_member = &st.c[2] */
        assert_int_equal(o[3], arr[3] + scal * 10 + st_c[2] * 100);
        /* ptr_const = &ctab[2]; links[0].p = &arr[0], links[1].p = &zarr[5] */
        int32_t through = (i & 1) ? 0 : arr[0];
        assert_int_equal(o[4], ctab[2] + link_tag[i & 1] * 10000 + through);
        /* sizeof(rec): int, float, short[3] (+2 padding), long = 24 */
        assert_int_equal(o[5], 24 + ctab[i % 4]);
    }
}

static void run_globals(const char *spv, unsigned w)
{
    static int32_t out[G * 6];
    /* a .sgasm file holds the one kernel: --kernel only for the module */
    cli_run_ok("run %s/%s %s --sg %u --global %d --local %d "
               "--arg out=int:zeros:%d --out out=%s/out.bin --out counter=%s/counter.bin "
               "--out maxid=%s/maxid.bin --out marker=%s/marker.bin "
               "--out globals.calls=%s/calls.bin --out scal=%s/scal.bin --out st=%s/st.bin "
               "--out ptr_arr=%s/ptr.bin --out __spirv_globals=%s/block.bin -q",
               tmpdir, spv, strstr(spv, ".spv") ? "--kernel globals" : "", w, G, L, G * 6, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir,
               tmpdir, tmpdir, tmpdir);
    get_exact("out.bin", out, sizeof out);
    check_globals_out(out);
    uint32_t counter;
    int32_t maxid, calls, s;
    int64_t marker;
    get_exact("counter.bin", &counter, 4);
    assert_int_equal(counter, G);                  /* one atomic_inc per work-item */
    get_exact("maxid.bin", &maxid, 4);
    assert_int_equal(maxid, G - 1);
    get_exact("calls.bin", &calls, 4);
    assert_int_equal(calls, 5 + 2 * G);            /* static global: 5, +2 each */
    get_exact("marker.bin", &marker, 8);           /* work-group 0, local id 3 */
    assert_int_equal(marker, INT64_C(0x1234567890abcdef) ^ 3);
    get_exact("scal.bin", &s, 4);
    assert_int_equal(s, scal);                     /* not written: as initialised */
    /* the struct's bytes as OpenCL C lays them out */
    uint8_t stb[24], want[24];
    memset(want, 0, sizeof want);
    memcpy(want, &st_a, 4);
    memcpy(want + 4, &st_b, 4);
    for (int c = 0; c < 3; c++) {
        int16_t h = (int16_t)st_c[c];
        memcpy(want + 8 + 2 * c, &h, 2);
    }
    memcpy(want + 16, &st_d, 8);
    get_exact("st.bin", stb, sizeof stb);
    assert_memory_equal(stb, want, sizeof want);
    /* a pointer variable holds an address (8 bytes), not zero */
    uint64_t p;
    get_exact("ptr.bin", &p, 8);
    assert_int_not_equal(p, 0);
    /* the whole block by its argument name: at least every variable */
    assert_true(file_size("block.bin") >= 4 * 6 + 24 + 8 * 4);
}

static void test_globals(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        cli_compile("globals", stds[s]);
        for (int w = 0; w < 3; w++)
            run_globals("globals.spv", widths[w]);
    }
}

/* Several widths in one command: each launch starts from the initial values
 * (the counter is G after each, not 2G), printed by name with headers. */
static void test_fresh_per_launch(void **state)
{
    (void)state;
    cli_compile("globals", "CL2.0");
    cli_result r = cli_run_checked("run %s/globals.spv --kernel globals --sg 8,16 --global %d "
                                   "--local %d --arg out=int:zeros:%d --out counter "
                                   "--out globals.calls -q", tmpdir, G, L, G * 6);
    char want[256];
    snprintf(want, sizeof want,
             "# counter sg=8\n%d\n# globals.calls sg=8\n%d\n"
             "# counter sg=16\n%d\n# globals.calls sg=16\n%d\n", G, 5 + 2 * G, G, 5 + 2 * G);
    assert_string_equal(r.out, want);
    cli_result_free(&r);
}

/* The OpenCL C source straight to `sgemu run` with -cl-std=CL3.0 (the
 * compile inside sgemu), and JSON output of a variable. */
static void test_run_cl(void **state)
{
    (void)state;
    cli_result r = cli_run_checked("run tests/kernels/globals.cl -cl-std=CL3.0 --kernel globals "
                                   "--global %d --local %d --arg out=int:zeros:%d "
                                   "--out zarr --out maxid --no-timing -q", G, L, G * 6);
    /* the width is the config's default: compare from the newline on */
    static const char zeros[] = "\n0\n0\n0\n0\n0\n0\n0\n0\n# maxid sg=";
    const char *z = strstr(r.out, "# zarr sg=");
    assert_non_null(z);
    z = strchr(z, '\n');
    assert_non_null(z);
    assert_memory_equal(z, zeros, strlen(zeros));
    const char *m = strstr(r.out, "# maxid sg=");
    assert_non_null(m);
    m = strchr(m, '\n');
    char want[32];
    snprintf(want, sizeof want, "\n%d\n", G - 1);
    assert_string_equal(m, want);
    cli_result_free(&r);
    r = cli_run_checked("run tests/kernels/globals.cl -cl-std=CL2.0 --kernel globals --sg 16 "
                        "--global %d --local %d --arg out=int:zeros:%d --out arr --json "
                        "--no-timing", G, L, G * 6);
    assert_non_null(strstr(r.out, "\"arr\": [1, -2, 3, -4, 5, -6]"));
    cli_result_free(&r);
}

/* A `static global` that clang keeps as a bool: read as 9 by work-item 0
 * (its initial value), one byte holding 1 after the run. */
static void test_static_bool(void **state)
{
    (void)state;
    cli_compile("globals", "CL2.0");
    for (int w = 0; w < 3; w++) {
        static int32_t out[G];
        cli_run_ok("run %s/globals.spv --kernel flag --sg %u --global %d --local %d "
                   "--arg out=int:zeros:%d --out out=%s/out.bin --out flag.state=%s/state.bin "
                   "-q", tmpdir, widths[w], G, L, G, tmpdir, tmpdir);
        uint8_t b;
        get_exact("state.bin", &b, 1);
        assert_int_equal(b, 1);
        get_exact("out.bin", out, sizeof out);
        assert_int_equal(out[0], 9);
        for (int i = 1; i < G; i++)
            assert_int_equal(out[i], i);
    }
}

/* Stores through a pointer loaded from a program-scope pointer variable
 * land in the variable it points to. */
static void test_write_through(void **state)
{
    (void)state;
    cli_compile("globals", "CL3.0");
    for (int w = 0; w < 3; w++) {
        static int32_t out[G], z[64];
        cli_run_ok("run %s/globals.spv --kernel through --sg %u --global %d --local %d "
                   "--arg out=int:zeros:%d --out out=%s/out.bin --out zarr2=%s/z.bin -q",
                   tmpdir, widths[w], G, L, G, tmpdir, tmpdir);
        get_exact("out.bin", out, sizeof out);
        get_exact("z.bin", z, sizeof z);
        for (int i = 0; i < 64; i++)
            assert_int_equal(z[i], i < G ? 3 * i : 0);
        for (int i = 0; i < G; i++)
            assert_int_equal(out[i], i);
    }
}

/* OpenCL C 2.0 atomic types: every fetch_add saw at least the initial 5,
 * the final values count the work-items (hist[j]: those with i % 4 == j). */
static void test_c11_atomics(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        cli_compile("globals", stds[s]);
        for (int w = 0; w < 3; w++) {
            static int32_t out[G];
            int32_t ai;
            uint32_t hist[4];
            cli_run_ok("run %s/globals.spv --kernel c11atomics --sg %u --global %d --local %d "
                       "--arg out=int:zeros:%d --out out=%s/out.bin --out ai=%s/ai.bin "
                       "--out hist=%s/hist.bin -q", tmpdir, widths[w], G, L, G, tmpdir, tmpdir,
                       tmpdir);
            get_exact("out.bin", out, sizeof out);
            for (int i = 0; i < G; i++)
                assert_int_equal(out[i], 1);
            get_exact("ai.bin", &ai, 4);
            assert_int_equal(ai, 5 + G);
            get_exact("hist.bin", hist, sizeof hist);
            for (int j = 0; j < 4; j++)
                assert_int_equal(hist[j], G / 4);
        }
    }
}

/* The translated kernel as .sgasm: .global_data, .data_reloc and
 * .global_var survive the round trip and the .sgasm runs the same. */
static void test_sgasm_round_trip(void **state)
{
    (void)state;
    cli_compile("globals", "CL2.0");
    cli_result a = cli_run_checked("spv2asm %s/globals.spv --kernel globals", tmpdir);
    assert_non_null(strstr(a.out, ".global_data __spirv_globals 2a000000 01000000 feffffff"));
    assert_non_null(strstr(a.out, ".data_reloc __spirv_globals "));
    assert_non_null(strstr(a.out, " __spirv_constants 8\n"));   /* &ctab[2] */
    assert_non_null(strstr(a.out, ".global_var counter "));
    cli_put("globals.sgasm", a.out, strlen(a.out));
    cli_result_free(&a);
    for (int w = 0; w < 3; w++)
        run_globals("globals.sgasm", widths[w]);
}

static void test_cli_errors(void **state)
{
    (void)state;
    cli_compile("globals", "CL2.0");
    cli_result r = cli_run("run %s/globals.spv --kernel globals --global 8 "
                           "--arg out=int:zeros:48 --arg __spirv_globals=uchar:zeros:4 -q",
                           tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "program-scope global data"));
    cli_result_free(&r);
    r = cli_run("run %s/globals.spv --kernel globals --global 8 --arg out=int:zeros:48 "
                "--out nosuch -q", tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no argument or program-scope global variable 'nosuch'"));
    cli_result_free(&r);
    /* an address that is no program-scope variable's: refused, naming it */
    static const char bad[] = "global int *p = (global int *)0x1000;\n"
                              "kernel void k(global int *out) { out[0] = *p; }\n";
    cli_put("bad.cl", bad, sizeof bad - 1);
    r = cli_run("run %s/bad.cl --global 1 --arg out=int:zeros:1 -q", tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "the initialiser of 'p' holds a pointer that is not the "
                                  "address of a program-scope variable"));
    cli_result_free(&r);
}

/* A module without parameter names (no -cl-kernel-arg-info): parameters go
 * by position, variables still by name. */
static void test_unnamed_params(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -include opencl-c.h -O2 "
             "%s/tests/kernels/globals.cl -o %s/nn.bc && llvm-spirv-14 %s/nn.bc -o %s/nn.spv",
             cli_src(), tmpdir, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    cli_result r = cli_run_checked("run %s/nn.spv --kernel globals --global 24 --local 8 "
                                   "--arg 0=int:zeros:144 --out counter --no-timing -q", tmpdir);
    assert_string_equal(r.out, "24\n");
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("globals");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_globals),
        cmocka_unit_test(test_fresh_per_launch),
        cmocka_unit_test(test_run_cl),
        cmocka_unit_test(test_static_bool),
        cmocka_unit_test(test_write_through),
        cmocka_unit_test(test_c11_atomics),
        cmocka_unit_test(test_sgasm_round_trip),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_unnamed_params),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
