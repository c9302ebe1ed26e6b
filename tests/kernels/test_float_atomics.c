/* test_float_atomics.c - cl_ext_float_atomics (tests/kernels/float_atomics.cl)
 * compiled as OpenCL C 2.0 and 3.0 with clang-14 + llvm-spirv-14, checked
 * with spirv-val and run through `sgemu run` at SIMD8/16/32 over several
 * work-groups, and the same operations written as .sgasm.  The references
 * are computed here in C: the addends are small integers, so every order of
 * the work-items' additions gives the same exact sum; min and max follow the
 * extension's rules (a NaN operand loses to a number, two NaNs give a NaN),
 * and sgemu's documented choice for zeros of both signs (min -0, max +0). */
#include "kernel_harness.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *const tmpdir = cli_tmpdir;
static const unsigned widths[] = { 8, 16, 32 };
static const char *const stds[] = { "CL2.0", "CL3.0" };

enum { G = 200, L = 40 };   /* five work-groups; 40 is not a multiple of 16 or 32 */

/* The addends: integers in [-11, 11], negative ones included. */
static float addend(int i)
{
    return (float)((i * 7) % 23 - 11);
}

/* The reference fold of G addends: sum, minus the sum, min, max. */
static void fold(const float *v, int n, float init_min, float init_max, float r[4])
{
    double sum = 0.0;
    r[2] = init_min;
    r[3] = init_max;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] < r[2]) r[2] = v[i];
        if (v[i] > r[3]) r[3] = v[i];
    }
    r[0] = (float)sum;
    r[1] = (float)-sum;
}

static void run_global(unsigned w)
{
    float v[G], g[4] = { 0.0f, 0.0f, 1000.0f, -1000.0f }, want[4], got[4];
    for (int i = 0; i < G; i++)
        v[i] = addend(i);
    cli_put("v.bin", v, sizeof v);
    cli_put("g.bin", g, sizeof g);
    fold(v, G, g[2], g[3], want);
    cli_run_ok("run %s/float_atomics.spv --kernel fa_global --sg %u --global %d --local %d "
               "--arg g=float:@%s/g.bin --arg v=float:@%s/v.bin --out g=%s/gout.bin -q",
               tmpdir, w, G, L, tmpdir, tmpdir, tmpdir);
    cli_get("gout.bin", got, sizeof got);
    assert_memory_equal(got, want, sizeof want);
}

static void run_local(unsigned w)
{
    float v[G], got[4 * (G / L)];
    for (int i = 0; i < G; i++)
        v[i] = addend(i + 3);
    cli_put("v.bin", v, sizeof v);
    cli_run_ok("run %s/float_atomics.spv --kernel fa_local --sg %u --global %d --local %d "
               "--arg out=float:zeros:%d --arg v=float:@%s/v.bin --arg acc=local:16 "
               "--out out=%s/lout.bin -q", tmpdir, w, G, L, 4 * (G / L), tmpdir, tmpdir);
    cli_get("lout.bin", got, sizeof got);
    for (int grp = 0; grp < G / L; grp++) {
        float want[4];
        fold(v + grp * L, L, INFINITY, -INFINITY, want);
        assert_memory_equal(got + 4 * grp, want, sizeof want);
    }
}

/* One work-item per (initial value, operand, operation): negative values,
 * both zeros, infinities and NaNs.  The old value returned is the initial
 * one; the reference result is written from the extension's rules. */
typedef struct pair {
    float a, b;
    int op;          /* 0 add, 1 sub, 2 min, 3 max */
    float want;
} pair;

static void run_pairs(unsigned w)
{
    const float nan = NAN, inf = INFINITY;
    static const int n_rows = 24;
    const pair rows[] = {
        { 1.5f, 2.25f, 0, 3.75f },   { -3.0f, -4.0f, 0, -7.0f },  { -0.0f, -0.0f, 0, -0.0f },
        { -0.0f, 0.0f, 0, 0.0f },    { 1.0f, nan, 0, nan },       { inf, -inf, 0, nan },
        { 5.0f, 7.5f, 1, -2.5f },    { -0.0f, 0.0f, 1, -0.0f },   { 0.0f, 0.0f, 1, 0.0f },
        { -5.0f, -7.0f, 2, -7.0f },  { -5.0f, -7.0f, 3, -5.0f },  { 3.0f, -inf, 2, -inf },
        { 1.0f, nan, 2, 1.0f },      { nan, 1.0f, 2, 1.0f },      { nan, nan, 2, nan },
        { -2.0f, nan, 3, -2.0f },    { nan, -2.0f, 3, -2.0f },    { nan, nan, 3, nan },
        { -0.0f, 0.0f, 2, -0.0f },   { 0.0f, -0.0f, 2, -0.0f },   { -0.0f, 0.0f, 3, 0.0f },
        { 0.0f, -0.0f, 3, 0.0f },    { -1e30f, 1e30f, 3, 1e30f }, { 2.0f, 2.0f, 2, 2.0f },
    };
    assert_int_equal(sizeof rows / sizeof rows[0], n_rows);
    float a[24], b[24], got[24], old[24];
    int32_t op[24];
    for (int i = 0; i < n_rows; i++) {
        a[i] = rows[i].a;
        b[i] = rows[i].b;
        op[i] = rows[i].op;
    }
    cli_put("a.bin", a, sizeof a);
    cli_put("b.bin", b, sizeof b);
    cli_put("op.bin", op, sizeof op);
    cli_run_ok("run %s/float_atomics.spv --kernel fa_pairs --sg %u --global %d --local %d "
               "--arg g=float:@%s/a.bin --arg b=float:@%s/b.bin --arg op=int:@%s/op.bin "
               "--arg old=float:zeros:%d --out g=%s/pg.bin --out old=%s/pold.bin -q",
               tmpdir, w, n_rows, 8, tmpdir, tmpdir, tmpdir, n_rows, tmpdir, tmpdir);
    cli_get("pg.bin", got, sizeof got);
    cli_get("pold.bin", old, sizeof old);
    for (int i = 0; i < n_rows; i++) {
        assert_memory_equal(&old[i], &a[i], sizeof(float));   /* bit for bit, NaN too */
        if (isnan(rows[i].want)) {
            assert_true(isnan(got[i]));
            continue;
        }
        if (got[i] != rows[i].want || signbit(got[i]) != signbit(rows[i].want))
            fail_msg("row %d: %g op%d %g gave %g, want %g", i, (double)a[i], op[i],
                     (double)b[i], (double)got[i], (double)rows[i].want);
    }
}

/* Run KERNEL(counters, v, old) of element type TYPE: the counters (csize
 * bytes) and v go in, the counters come back in got and the nold values
 * of old in old. */
static void run_counters(const char *kernel, const char *type, unsigned w, const void *c,
                         const void *v, size_t vsize, void *got, void *old, int nold,
                         size_t csize)
{
    cli_put("c.bin", c, csize);
    cli_put("v.bin", v, vsize);
    cli_run_ok("run %s/float_atomics.spv --kernel %s --sg %u --global %d --local %d "
               "--arg 0=%s:@%s/c.bin --arg 1=%s:@%s/v.bin --arg 2=%s:zeros:%d "
               "--out 0=%s/cout.bin --out 2=%s/oout.bin -q", tmpdir, kernel, w, G, L, type,
               tmpdir, type, tmpdir, type, nold, tmpdir, tmpdir);
    cli_get("cout.bin", got, csize);
    cli_get("oout.bin", old, (size_t)nold * (strcmp(type, "half") ? 8 : 2));
}

static void run_double(unsigned w)
{
    double v[G], d[4] = { 0.25, -1e9, 1e9, 10.0 }, got[4], old[4];
    double sum = 0.25, mx = d[1], mn = d[2];
    for (int i = 0; i < G; i++) {
        v[i] = (double)addend(i) * 0.5;     /* halves: still exact sums */
        sum += v[i];
        mx = v[i] > mx ? v[i] : mx;
        mn = v[i] < mn ? v[i] : mn;
    }
    run_counters("fa_double", "double", w, d, v, sizeof v, got, old, 4, sizeof d);
    assert_true(got[0] == sum);
    assert_true(got[1] == mx);
    assert_true(got[2] == mn);
    assert_true(got[3] == -4.0);          /* exchanged last */
    assert_true(old[0] == 10.0);          /* one work-item: the order is fixed */
    assert_true(old[1] == 10.5);
    assert_true(old[2] == 10.5 - 2.0);
    assert_true(old[3] == -4.0);
}

/* binary16 bits of small integers and halves (exact): sign, exponent, the
 * ten fraction bits, written out here rather than converted by sgemu */
static uint16_t half_bits(double x)
{
    if (x == 0.0)
        return signbit(x) ? 0x8000 : 0;
    uint16_t sign = x < 0 ? 0x8000 : 0;
    x = fabs(x);
    int e = 0;
    while (x >= 2.0) { x /= 2.0; e++; }
    while (x < 1.0) { x *= 2.0; e--; }
    return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | (uint16_t)((x - 1.0) * 1024.0));
}

static void run_half(unsigned w)
{
    uint16_t v[G], h[4], got[4], old[3];
    double mn = 100.0, mx = -100.0;
    for (int i = 0; i < G; i++) {
        double x = (double)addend(i + 5) * 0.5;
        v[i] = half_bits(x);
        mn = x < mn ? x : mn;
        mx = x > mx ? x : mx;
    }
    h[0] = half_bits(100.0);
    h[1] = half_bits(-100.0);
    h[2] = half_bits(-3.0);
    h[3] = 0;
    run_counters("fa_half", "half", w, h, v, sizeof v, got, old, 3, sizeof h);
    assert_int_equal(got[0], half_bits(mn));
    assert_int_equal(got[1], half_bits(mx));
    assert_int_equal(old[0], half_bits(-3.0));     /* exchange returns the old value */
    assert_int_equal(old[1], half_bits(2.5));      /* then max(2.5, -1) keeps 2.5 */
    assert_int_equal(got[2], half_bits(2.5));
    assert_int_equal(old[2], half_bits(-0.5));     /* stored, loaded back */
    assert_int_equal(got[3], half_bits(-0.5));
}

static void test_float_atomics_cl(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        cli_compile("float_atomics", stds[s]);
        for (int w = 0; w < 3; w++) {
            run_global(widths[w]);
            run_local(widths[w]);
            run_pairs(widths[w]);
            run_double(widths[w]);
            run_half(widths[w]);
        }
    }
}

/* The same instructions written by hand: atom_add / atom_sub / atom_min /
 * atom_max with .f32, .f64 and .f16, immediates and registers; one lane
 * returns the old value of a chain whose order is its program order. */
static const char sgasm[] =
    ".kernel fa\n"
    ".arg g global f32\n"
    ".arg d global f64\n"
    ".arg h global f16\n"
    ".arg old global f32\n"
    "    mov.u64 r0, %global_id.x\n"
    "    cvt.f32.u64 r1, r0\n"
    "    atom_add.global.f32 r2, [%g], r1\n"
    "    atom_sub.global.f32 r2, [%g + 4], 0.5\n"
    "    atom_min.global.f32 r2, [%g + 8], r1\n"
    "    atom_max.global.f32 r2, [%g + 12], r1\n"
    "    atom_add.global.f64 r3, [%d], 0.25\n"
    "    atom_max.global.f16 r3, [%h], -3.0\n"
    "    atom_min.global.f16 r3, [%h + 2], -3.0\n"
    "    cmp.eq.u64 p0, r0, 0\n"
    "    bra !p0, done\n"
    "    atom_add.global.f32 r2, [%g + 16], 2.5\n"
    "    st.global.f32 [%old], r2\n"
    "    atom_max.global.f32 r2, [%g + 16], -1.0\n"
    "    st.global.f32 [%old + 4], r2\n"
    "done:\n"
    "    ret\n";

static void test_float_atomics_sgasm(void **state)
{
    (void)state;
    enum { N = 48 };
    char path[128];
    snprintf(path, sizeof path, "%s/fa.sgasm", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(sgasm, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    const float g0[5] = { 0.0f, 100.0f, 7.5f, -7.5f, 1.0f };
    cli_put("g.bin", g0, sizeof g0);
    for (int w = 0; w < 3; w++) {
        float g[5], old[2];
        double d;
        uint16_t h[2];
        cli_run_ok("run %s/fa.sgasm --sg %u --global %d --local 16 --arg g=float:@%s/g.bin "
                   "--arg d=double:[1.0] --arg h=half:[-4.0,-2.0] --arg old=float:zeros:2 "
                   "--out g=%s/g5.bin --out d=%s/d1.bin --out h=%s/h2.bin --out old=%s/o2.bin -q",
                   tmpdir, widths[w], N, tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
        cli_get("g5.bin", g, sizeof g);
        cli_get("d1.bin", &d, sizeof d);
        cli_get("h2.bin", h, sizeof h);
        cli_get("o2.bin", old, sizeof old);
        assert_true(g[0] == (float)(N * (N - 1) / 2));   /* 0 + 1 + ... + 47 */
        assert_true(g[1] == 100.0f - 0.5f * N);
        assert_true(g[2] == 0.0f);                      /* min(7.5, 0..47) */
        assert_true(g[3] == (float)(N - 1));            /* max(-7.5, 0..47) */
        assert_true(g[4] == 3.5f);                      /* 1 + 2.5, then max with -1 */
        assert_true(old[0] == 1.0f);
        assert_true(old[1] == 3.5f);
        assert_true(d == 1.0 + 0.25 * N);
        assert_int_equal(h[0], 0xc200);                 /* max(-4, -3) = -3 in half */
        assert_int_equal(h[1], 0xc200);                 /* min(-2, -3) = -3 */
    }
}

/* Timing: a float atomic takes the integer atomic's path and parameters
 * (docs/timing-model.md), so the same kernel with .u32 and .f32 atomics,
 * global and local, four lanes on each word, runs the same cycles. */
static long cycles_of(const char *type, const char *one, const char *config)
{
    char path[128];
    snprintf(path, sizeof path, "%s/t_%s.sgasm", tmpdir, type);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fprintf(f,
                        ".kernel k\n.arg g global %s\n.arg l local %s\n"
                        "    mov.u64 r0, %%local_id.x\n    st.local.%s [%%l + r0:i64*4], 0\n"
                        "    barrier.local\n    and.u64 r0, r0, 3\n"
                        "    atom_add.global.%s r1, [%%g + r0:i64*4], %s\n"
                        "    atom_max.local.%s r1, [%%l + r0:i64*4], %s\n    ret\n",
                        type, type, type, type, one, type, one) > 0);
    assert_int_equal(fclose(f), 0);
    cli_result r = cli_run_checked("run %s --config %s --global 256 --local 64 "
                                   "--arg g=%s:zeros:4 --arg l=local:256", path, config, type);
    const char *c = strstr(r.err, "cycles");
    assert_non_null(c);
    long n = strtol(c + strlen("cycles"), NULL, 10);
    cli_result_free(&r);
    assert_true(n > 0);
    return n;
}

static void test_float_atomics_timing(void **state)
{
    (void)state;
    static const char *const configs[] = { "default", "nvidia-h100" };
    for (int c = 0; c < 2; c++)
        assert_int_equal(cycles_of("f32", "1.0", configs[c]), cycles_of("u32", "1", configs[c]));
}

/* A float atomic on a type it does not take is bad input: a clear error
 * and a non-zero exit, not a run.  Two hand-assembled modules: the float
 * add on a uint, an integer add on a float. */
static const char bad_module[] =
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpCapability Int64\n"
    "%s"
    "OpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %%k \"k\"\n"
    "OpName %%p \"p\"\n"
    "%%void = OpTypeVoid\n"
    "%%uint = OpTypeInt 32 0\n"
    "%%float = OpTypeFloat 32\n"
    "%%ptr = OpTypePointer CrossWorkgroup %%%s\n"
    "%%fn = OpTypeFunction %%void %%ptr\n"
    "%%one = OpConstant %%uint 1\n"
    "%%zero = OpConstant %%uint 0\n"
    "%%fone = OpConstant %%float 1\n"
    "%%k = OpFunction %%void None %%fn\n"
    "%%p = OpFunctionParameter %%ptr\n"
    "%%e = OpLabel\n"
    "%%r = %s %%%s %%p %%one %%zero %%%s\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static void expect_refused(const char *name, const char *ext, const char *elem, const char *op,
                           const char *val, const char *arg, const char *msg)
{
    char path[160], cmd[512];
    snprintf(path, sizeof path, "%s/%s.spvasm", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fprintf(f, bad_module, ext, elem, op, elem, val) > 0);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "spirv-as %s -o %s/%s.spv", path, tmpdir, name);
    assert_int_equal(system(cmd), 0);   // NOLINT(cert-env33-c): the test's own files
    cli_result r = cli_run("run %s/%s.spv --global 8 --arg p=%s", tmpdir, name, arg);
    assert_int_not_equal(r.status, 0);
    if (!strstr(r.err, msg))
        fail_msg("expected '%s' in: %s", msg, r.err);
    cli_result_free(&r);
}

static void test_float_atomics_bad_type(void **state)
{
    (void)state;
    expect_refused("fadd_uint",
                   "OpCapability AtomicFloat32AddEXT\n"
                   "OpExtension \"SPV_EXT_shader_atomic_float_add\"\n",
                   "uint", "OpAtomicFAddEXT", "one", "int:zeros:1",
                   "OpAtomicFAddEXT: a floating-point atomic needs a scalar half, float or "
                   "double result type, not uint");
    expect_refused("iadd_float", "", "float", "OpAtomicIAdd", "fone", "float:zeros:1",
                   "OpAtomicIAdd: an integer atomic on float");
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("fatom");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_atomics_cl),
        cmocka_unit_test(test_float_atomics_sgasm),
        cmocka_unit_test(test_float_atomics_bad_type),
        cmocka_unit_test(test_float_atomics_timing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
