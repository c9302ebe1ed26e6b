/* test_spirv_cli.c - the OpenCL C examples (examples/opencl/) through the
 * sgemu CLI, both from their committed .spv modules and compiled from .cl
 * with clang-14/llvm-spirv-14, at widths 8, 16 and 32; compared with C
 * references computed here and with the hand-written .sgasm examples. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const unsigned widths[] = { 8, 16, 32 };
static const char *const exts[] = { "spv", "cl" };
/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    return cli_rand(&rng_state);
}

static bool have_compiler(void)
{
    return system("command -v clang-14 >/dev/null 2>&1 && command -v llvm-spirv-14 "
                  ">/dev/null 2>&1") == 0;
}

/* Run one command; a .cl run without the compiler fails with a message. */
static void run_ok(const char *ext, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run_ok(const char *ext, const char *fmt, ...)
{
    if (!strcmp(ext, "cl") && !have_compiler())
        fail_msg("clang-14 and llvm-spirv-14 are needed for the .cl tests "
                 "(bash tools/dev.sh installs them)");
    va_list ap;
    va_start(ap, fmt);
    cli_result r = cli_vrun_logged(fmt, ap);
    va_end(ap);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
}

static void test_vector_add(void **state)
{
    (void)state;
    enum { G = 1024, N = 1000 };
    float a[G], b[G], c[G], s[G];
    for (int i = 0; i < G; i++) {
        a[i] = (float)(int32_t)(rnd() >> 44) / 64.0f;
        b[i] = (float)(int32_t)(rnd() >> 44) / 32.0f;
    }
    cli_put("a.bin", a, sizeof a);
    cli_put("b.bin", b, sizeof b);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/vector_add.%s --sg %u --global %d --local 64 "
                   "--arg a=float:@%s/a.bin --arg b=float:@%s/b.bin --arg c=float:zeros:%d "
                   "--arg n=%d --out c=%s/c.bin -q", exts[e], widths[w], G, tmpdir, tmpdir, G,
                   N, tmpdir);
            cli_get("c.bin", c, sizeof c);
            for (int i = 0; i < G; i++)
                assert_true(c[i] == (i < N ? a[i] + b[i] : 0.0f));
            run_ok("spv", "run examples/vector_add.sgasm --sg %u --global %d --local 64 "
                   "--arg a=float:@%s/a.bin --arg b=float:@%s/b.bin --arg c=float:zeros:%d "
                   "--arg n=%d --out c=%s/s.bin -q", widths[w], G, tmpdir, tmpdir, G, N, tmpdir);
            cli_get("s.bin", s, sizeof s);
            assert_memory_equal(c, s, sizeof c);
        }
}

static void test_local_reduce(void **state)
{
    (void)state;
    enum { G = 4096, L = 256 };
    int32_t in[G], out[G / L], ref[G / L] = { 0 };
    for (int i = 0; i < G; i++) {
        in[i] = (int32_t)(rnd() >> 40) - (1 << 23);
        ref[i / L] += in[i];
    }
    cli_put("in.bin", in, sizeof in);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/local_reduce.%s --sg %u --global %d --local %d "
                   "--arg in=int:@%s/in.bin --arg out=int:zeros:%d --arg scratch=local:%d "
                   "--out out=%s/out.bin -q", exts[e], widths[w], G, L, tmpdir, G / L, L * 4,
                   tmpdir);
            cli_get("out.bin", out, sizeof out);
            assert_memory_equal(out, ref, sizeof out);
        }
}

/* reduce_atomic.cl: an N x C x SP tensor reduced per channel through local
 * and global float atomics.  The inputs are small integers, so every order
 * of the additions gives the exact sum the C reference adds up. */
static void test_reduce_atomic(void **state)
{
    (void)state;
    enum { N = 3, C = 5, SP = 128, L = 32, G = N * C * SP };
    float src[G], sum[C], amax[C], rsum[C] = { 0 }, rmax[C];
    for (int c = 0; c < C; c++)
        rmax[c] = -1000.0f;
    for (int i = 0; i < G; i++) {
        src[i] = (float)((int)(rnd() >> 56) - 128);
        int c = (i / SP) % C;
        rsum[c] += src[i];
        rmax[c] = src[i] > rmax[c] ? src[i] : rmax[c];
    }
    cli_put("src.bin", src, sizeof src);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/reduce_atomic.%s --sg %u --global %d --local %d "
                   "--arg src=float:@%s/src.bin --arg sum=float:zeros:%d "
                   "--arg amax=float:[-1000,-1000,-1000,-1000,-1000] --arg C=%d --arg SP=%d "
                   "--arg part=local:8 --out sum=%s/sum.bin --out amax=%s/amax.bin -q",
                   exts[e], widths[w], G, L, tmpdir, C, C, SP, tmpdir, tmpdir);
            cli_get("sum.bin", sum, sizeof sum);
            cli_get("amax.bin", amax, sizeof amax);
            assert_memory_equal(sum, rsum, sizeof sum);
            assert_memory_equal(amax, rmax, sizeof amax);
        }
}

static void test_histogram(void **state)
{
    (void)state;
    enum { G = 4096, B = 16 };
    uint32_t data[G], bins[B], ref[B] = { 0 };
    for (int i = 0; i < G; i++) {
        data[i] = (uint32_t)(rnd() >> 32);
        ref[data[i] % B]++;
    }
    cli_put("d.bin", data, sizeof data);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/histogram.%s --sg %u --global %d --local 128 "
                   "--arg data=uint:@%s/d.bin --arg bins=uint:zeros:%d --arg nbins=%d "
                   "--out bins=%s/bins.bin -q", exts[e], widths[w], G, tmpdir, B, B, tmpdir);
            cli_get("bins.bin", bins, sizeof bins);
            assert_memory_equal(bins, ref, sizeof bins);
        }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void test_stream_compaction(void **state)
{
    (void)state;
    enum { G = 1024 };
    int32_t in[G], out[G], ref[G], twin[G];
    uint32_t count, nref = 0;
    for (int i = 0; i < G; i++) {
        in[i] = (int32_t)(rnd() >> 48) - 32768;
        if (in[i] > 0)
            ref[nref++] = in[i];
    }
    qsort(ref, nref, 4, cmp_i32);
    cli_put("in.bin", in, sizeof in);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/stream_compaction.%s --check --sg %u --global %d "
                   "--local 128 --arg in=int:@%s/in.bin --arg out=int:zeros:%d "
                   "--arg count=uint:zeros:1 --out out=%s/out.bin --out count=%s/n.bin -q",
                   exts[e], widths[w], G, tmpdir, G, tmpdir, tmpdir);
            cli_get("n.bin", &count, 4);
            cli_get("out.bin", out, sizeof out);
            assert_int_equal(count, nref);
            /* the hand-written twin: same elements in the same order (sgemu
             * runs the sub-groups' atomics in one deterministic order) */
            run_ok("spv", "run examples/stream_compaction.sgasm --check --sg %u --global %d "
                   "--local 128 --arg in=int:@%s/in.bin --arg out=int:zeros:%d "
                   "--arg count=uint:zeros:1 --out out=%s/tw.bin --out count=%s/tn.bin -q",
                   widths[w], G, tmpdir, G, tmpdir, tmpdir);
            uint32_t tcount;
            cli_get("tn.bin", &tcount, 4);
            cli_get("tw.bin", twin, sizeof twin);
            assert_int_equal(tcount, count);
            assert_memory_equal(twin, out, sizeof out);
            qsort(out, count, 4, cmp_i32);
            assert_memory_equal(out, ref, nref * 4);
        }
}

static void test_shuffle_stencil(void **state)
{
    (void)state;
    enum { G = 1024 };
    float in[G], out[G], s[G];
    for (int i = 0; i < G; i++)
        in[i] = (float)(int32_t)(rnd() >> 44) / 128.0f;
    cli_put("in.bin", in, sizeof in);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/shuffle_stencil.%s --check --sg %u --global %d "
                   "--local 64 --arg in=float:@%s/in.bin --arg out=float:zeros:%d --arg n=%d "
                   "--out out=%s/out.bin -q", exts[e], widths[w], G, tmpdir, G, G, tmpdir);
            cli_get("out.bin", out, sizeof out);
            for (int i = 0; i < G; i++) {
                float l = in[i > 0 ? i - 1 : 0], r = in[i < G - 1 ? i + 1 : G - 1];
                float ref = (in[i] + l) + r;
                assert_true(out[i] == ref);
            }
            run_ok("spv", "run examples/shuffle_stencil.sgasm --check --sg %u --global %d --local 64 "
                   "--arg in=float:@%s/in.bin --arg out=float:zeros:%d --arg n=%d "
                   "--out out=%s/s.bin -q", widths[w], G, tmpdir, G, G, tmpdir);
            cli_get("s.bin", s, sizeof s);
            assert_memory_equal(out, s, sizeof out);
        }
}

static void test_wg_scan(void **state)
{
    (void)state;
    enum { G = 1024, L = 128 };
    int32_t in[G], inc[G], exc[G], tot[G / L];
    for (int i = 0; i < G; i++)
        in[i] = (int32_t)(rnd() >> 54) - 512;
    cli_put("in.bin", in, sizeof in);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/wg_scan.%s --check --sg %u --global %d --local %d "
                   "--arg in=int:@%s/in.bin --arg inc=int:zeros:%d --arg exc=int:zeros:%d "
                   "--arg total=int:zeros:%d --out inc=%s/i.bin --out exc=%s/e.bin "
                   "--out total=%s/t.bin -q", exts[e], widths[w], G, L, tmpdir, G, G, G / L,
                   tmpdir, tmpdir, tmpdir);
            cli_get("i.bin", inc, sizeof inc);
            cli_get("e.bin", exc, sizeof exc);
            cli_get("t.bin", tot, sizeof tot);
            for (int g = 0; g < G / L; g++) {
                int32_t run = 0;
                for (int i = g * L; i < (g + 1) * L; i++) {
                    assert_int_equal(exc[i], run);
                    run += in[i];
                    assert_int_equal(inc[i], run);
                }
                assert_int_equal(tot[g], run);
            }
            int32_t ti[G], te[G], tt[G / L];
            run_ok("spv", "run examples/wg_scan.sgasm --check --sg %u --global %d --local %d "
                   "--arg in=int:@%s/in.bin --arg inc=int:zeros:%d --arg exc=int:zeros:%d "
                   "--arg total=int:zeros:%d --out inc=%s/ti.bin --out exc=%s/te.bin "
                   "--out total=%s/tt.bin -q", widths[w], G, L, tmpdir, G, G, G / L, tmpdir,
                   tmpdir, tmpdir);
            cli_get("ti.bin", ti, sizeof ti);
            cli_get("te.bin", te, sizeof te);
            cli_get("tt.bin", tt, sizeof tt);
            assert_memory_equal(ti, inc, sizeof inc);
            assert_memory_equal(te, exc, sizeof exc);
            assert_memory_equal(tt, tot, sizeof tot);
        }
}

static void test_collatz(void **state)
{
    (void)state;
    enum { G = 256 };
    uint32_t start[G], steps[G], s[G];
    for (int i = 0; i < G; i++)
        start[i] = (uint32_t)(rnd() >> 52) + (uint32_t)i;
    cli_put("in.bin", start, sizeof start);
    for (int e = 0; e < 2; e++)
        for (int w = 0; w < 3; w++) {
            run_ok(exts[e], "run examples/opencl/collatz.%s --sg %u --global %d --local 64 "
                   "--arg in=uint:@%s/in.bin --arg steps=uint:zeros:%d --out steps=%s/o.bin -q",
                   exts[e], widths[w], G, tmpdir, G, tmpdir);
            cli_get("o.bin", steps, sizeof steps);
            for (int i = 0; i < G; i++) {
                uint32_t x = start[i], n = 0;
                while (x > 1) {
                    x = (x & 1) ? 3 * x + 1 : x / 2;
                    n++;
                }
                assert_int_equal(steps[i], n);
            }
            run_ok("spv", "run examples/collatz.sgasm --sg %u --global %d --local 64 "
                   "--arg in=uint:@%s/in.bin --arg steps=uint:zeros:%d --out steps=%s/s.bin -q",
                   widths[w], G, tmpdir, G, tmpdir);
            cli_get("s.bin", s, sizeof s);
            assert_memory_equal(steps, s, sizeof s);
        }
}

/* The committed .spv modules were built with the arg-type string
 * (examples/opencl/rebuild.sh), so `int` buffers print signed. */
static void test_committed_spv_signed(void **state)
{
    (void)state;
    cli_result r = cli_run("run examples/opencl/wg_scan.spv --global 4 --local 4 "
                           "--arg in=int:[-1,-2,3,-4] --arg inc=int:zeros:4 "
                           "--arg exc=int:zeros:4 --arg total=int:zeros:1 --out inc -q");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "-1\n-3\n0\n-4\n");
    cli_result_free(&r);
    r = cli_run("run examples/opencl/local_reduce.spv --global 4 --local 4 "
                "--arg in=int:[-7,1,1,1] --arg out=int:zeros:1 --arg scratch=local:16 "
                "--out out -q");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "-4\n");
    cli_result_free(&r);
}

/* spv2asm prints text that the assembler accepts. */
static void test_spv2asm_reassembles(void **state)
{
    (void)state;
    static const char *const names[] = { "vector_add", "local_reduce", "histogram",
                                         "stream_compaction", "shuffle_stencil", "wg_scan",
                                         "collatz" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cli_result r = cli_run("spv2asm examples/opencl/%s.spv", names[i]);
        assert_int_equal(r.status, 0);
        cli_put("k.sgasm", r.out, strlen(r.out));
        run_ok("spv", "asm %s/k.sgasm", tmpdir);
        char want[96];
        snprintf(want, sizeof want, ".kernel %s\n", names[i]);
        assert_non_null(strstr(r.out, want));
        cli_result_free(&r);
    }
}

/* A module compiled without -cl-kernel-arg-info has no parameter names. */
static void test_unnamed_parameters(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/spirv/vector_add_unnamed.spv --global 16 "
                           "--arg a=float:iota:16 --arg b=float:iota:16 --arg c=float:zeros:16 "
                           "--arg n=16 --out c");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no parameter names"));
    assert_non_null(strstr(r.err, "--arg 0=...   global float *"));
    assert_non_null(strstr(r.err, "--arg 3=...   uint"));
    cli_result_free(&r);
    r = cli_run("run tests/spirv/vector_add_unnamed.spv --global 16 --sg 8 "
                "--arg 0=float:iota:16 --arg 1=float:iota:16 --arg 2=float:zeros:16 "
                "--arg 3=10 --out 2 -q");
    assert_int_equal(r.status, 0);
    double v[16];
    assert_int_equal(cli_numbers(r.out, v, 16), 16);
    for (int i = 0; i < 16; i++)
        assert_true(v[i] == (i < 10 ? 2.0 * i : 0.0));
    cli_result_free(&r);
}

/* tests/spirv/builtin_uniform_constant.spvasm: built-in variables declared
 * UniformConstant (pyopencl's add-vectors modules) are read like Input ones. */
static void test_builtin_uniform_constant(void **state)
{
    (void)state;
    enum { G = 64, L = 16 };
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "spirv-as --target-env spv1.0 %s/tests/spirv/builtin_uniform_constant.spvasm "
             "-o %s/buc.spv && spirv-val --target-env opencl2.0 %s/buc.spv", cli_src(), tmpdir, tmpdir);
    if (system(cmd) != 0)
        fail_msg("assembling or validating builtin_uniform_constant.spvasm failed: %s", cmd);
    for (int w = 0; w < 3; w++) {
        cli_result r = cli_run("run %s/buc.spv --sg %u --global %d --local %d "
                               "--arg out=u32:zeros:%d --out out -q", tmpdir, widths[w], G, L, G);
        assert_int_equal(r.status, 0);
        double v[G];
        assert_int_equal(cli_numbers(r.out, v, G), G);
        for (int i = 0; i < G; i++)
            assert_true(v[i] == i + 1000.0 * (i % L));
        cli_result_free(&r);
    }
}

/* Files of folder `dir` whose names match the regular expression `suffix`$. */
static int count_files(const char *dir, const char *suffix)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s 2>/dev/null | grep -c '%s$'", dir, suffix);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

/* Occurrences of w in s. */
static int occurrences(const char *s, const char *w)
{
    int n = 0;
    for (const char *at = s; (at = strstr(at, w)); at += strlen(w))
        n++;
    return n;
}

/* The precompiled header (load/opencl_pch.c, docs/spirv.md): one per set
 * of options, the same module as the header as text, a stale one replaced
 * by the text compile, and a failing kernel's messages shown once. */
static void test_precompiled_header(void **state)
{
    (void)state;
    if (!have_compiler())
        fail_msg("clang-14 and llvm-spirv-14 are needed for the .cl tests");
    char cache[128], text[256], pch[256];
    snprintf(cache, sizeof cache, "%s/pch", tmpdir);
    setenv("SGEMU_CACHE_DIR", cache, 1);
    const char *asm_cmd = "spv2asm examples/opencl/shuffle_stencil.cl";
    cli_result cold = cli_run("%s", asm_cmd);
    assert_int_equal(cold.status, 0);
    assert_int_equal(count_files(cache, "\\.pch"), 1);
    assert_int_equal(count_files(cache, "\\.h"), 1);
    cli_result warm = cli_run("%s", asm_cmd);
    assert_int_equal(warm.status, 0);
    assert_string_equal(cold.out, warm.out);
    setenv("SGEMU_CACHE_DIR", "off", 1);
    cli_result plain = cli_run("%s", asm_cmd);
    assert_int_equal(plain.status, 0);
    assert_string_equal(plain.out, warm.out);
    cli_result_free(&plain);
    cli_result_free(&warm);

    /* other options, another header; a macro reaches the kernel */
    setenv("SGEMU_CACHE_DIR", cache, 1);
    cli_result r = cli_run("spv2asm examples/opencl/shuffle_stencil.cl --build-options -D__SGEMU_T=1");
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    assert_int_equal(count_files(cache, "\\.pch"), 2);

    /* the program's own macros (not `_...` or `cl...`) share a header and
     * still reach the kernel */
    static const char mac[] = "kernel void k(global int *a) { a[0] = V * 1000 + 7; }\n";
    cli_put("mac.cl", mac, sizeof mac - 1);
    for (int v = 1; v <= 3; v++) {
        r = cli_run("spv2asm %s/mac.cl --build-options -DV=%d", tmpdir, v);
        assert_int_equal(r.status, 0);
        char want[16];
        snprintf(want, sizeof want, "%d", v * 1000 + 7);
        assert_non_null(strstr(r.out, want));
        cli_result_free(&r);
    }
    r = cli_run("spv2asm %s/mac.cl --build-options \"-D V=4\"", tmpdir);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "4007"));
    cli_result_free(&r);
    assert_int_equal(count_files(cache, "\\.pch"), 2);

    /* a stale file: the text compile gives the same program and the file goes */
    snprintf(text, sizeof text, "ls %s/*.pch | head -n 1", cache);
    FILE *p = popen(text, "r");
    assert_non_null(p);
    assert_non_null(fgets(pch, sizeof pch, p));
    pclose(p);
    pch[strcspn(pch, "\n")] = '\0';
    FILE *f = fopen(pch, "wb");
    assert_non_null(f);
    fputs("not a precompiled header", f);
    fclose(f);
    r = cli_run("%s", asm_cmd);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, cold.out);
    cli_result_free(&r);
    r = cli_run("spv2asm examples/opencl/shuffle_stencil.cl --build-options -D__SGEMU_T=1");
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
    assert_int_equal(count_files(cache, "\\.pch"), 1);
    cli_result_free(&cold);

    /* a kernel that does not compile: clang's message once, exit 1 */
    static const char bad[] = "kernel void k(global int *a) { a[0] = undeclared_y; }\n";
    cli_put("bad.cl", bad, sizeof bad - 1);
    r = cli_run("spv2asm %s/bad.cl", tmpdir);
    assert_int_equal(r.status, 1);
    assert_int_equal(occurrences(r.err, "use of undeclared identifier 'undeclared_y'"), 1);
    cli_result_free(&r);
    unsetenv("SGEMU_CACHE_DIR");
}

static void test_bad_usage(void **state)
{
    (void)state;
    cli_result r = cli_run("run examples/opencl/vector_add.spv --kernel nope --global 16");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no kernel 'nope' (kernels: vector_add)"));
    cli_result_free(&r);
    r = cli_run("run examples/vector_add.sgasm --kernel vector_add --global 16");
    assert_int_equal(r.status, 1);
    cli_result_free(&r);
}

int main(void)
{
    if (cli_tmpdir_make("spirv"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_local_reduce),
        cmocka_unit_test(test_reduce_atomic),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_stream_compaction),
        cmocka_unit_test(test_shuffle_stencil),
        cmocka_unit_test(test_wg_scan),
        cmocka_unit_test(test_collatz),
        cmocka_unit_test(test_committed_spv_signed),
        cmocka_unit_test(test_spv2asm_reassembles),
        cmocka_unit_test(test_unnamed_parameters),
        cmocka_unit_test(test_builtin_uniform_constant),
        cmocka_unit_test(test_precompiled_header),
        cmocka_unit_test(test_bad_usage),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_tmpdir_remove())
        rc = rc ? rc : 1;
    return rc;
}
