/* test_math_ops.c - the elementary-function rows of opcodes.def (atan ..
 * log10, atan2, hypot, pow, rootn): their table entries, assembler / disassembler round
 * trip and rejections, and their per-lane results through lanes_exec_alu
 * against the C library's float functions (OpenCL C ulp limits), long
 * double references (f32 within 1 ulp, f64 within the OpenCL limits) and
 * the C99 Annex F special values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa.h"
#include "lanes.h"

enum { W = 16 };

/* mnemonic, float reference, long double reference, OpenCL C limit in ulp
 * for float and double (OpenCL C 3.0, "Relative error as ULPs"), operand
 * range for random tests */
typedef struct fn_row {
    const char *mn;
    float (*ff)(float);
    long double (*fl)(long double);
    double ulp_f, ulp_d;
    double lo, hi;
} fn_row;

static float lgf(float v) { int s; return lgammaf_r(v, &s); }
static float exp10f_(float v) { return powf(10.0f, v); }
static long double exp10l_(long double v) { return powl(10.0L, v); }
static long double lgl(long double v) { int s; return lgammal_r(v, &s); }

static const fn_row rows[] = {
    { "atan", atanf, atanl, 5, 5, -20, 20 },
    { "asin", asinf, asinl, 4, 4, -1, 1 },
    { "acos", acosf, acosl, 4, 4, -1, 1 },
    { "sinh", sinhf, sinhl, 4, 4, -80, 80 },
    { "cosh", coshf, coshl, 4, 4, -80, 80 },
    { "tanh", tanhf, tanhl, 5, 5, -12, 12 },
    { "asinh", asinhf, asinhl, 4, 4, -1e4, 1e4 },
    { "acosh", acoshf, acoshl, 4, 4, 1, 1e4 },
    { "atanh", atanhf, atanhl, 5, 5, -1, 1 },
    { "expm1", expm1f, expm1l, 3, 3, -20, 80 },
    { "log1p", log1pf, log1pl, 2, 2, -0.99, 1e5 },
    { "erf", erff, erfl, 16, 16, -5, 5 },
    { "erfc", erfcf, erfcl, 16, 16, -3, 9 },
    { "tgamma", tgammaf, tgammal, 16, 16, 0.01, 34 },
    /* lgamma has no OpenCL limit; away from its zeros libm keeps a few */
    { "lgamma", lgf, lgl, 16, 16, 3, 1e4 },
    { "cbrt", cbrtf, cbrtl, 2, 2, -1e6, 1e6 },
    { "exp", expf, expl, 3, 3, -100, 90 },
    { "exp10", exp10f_, exp10l_, 3, 3, -45, 39 },
    { "log", logf, logl, 3, 3, 1e-3, 1e6 },
    { "log10", log10f, log10l, 3, 3, 1e-3, 1e6 },
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double unit(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double bitsd(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }

/* distance in representable floats (sign-magnitude order) */
static double ulps_f(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : 1e30;
    int64_t x = fbits(a), y = fbits(b);
    x = x & 0x80000000 ? -(x & 0x7fffffff) : x;
    y = y & 0x80000000 ? -(y & 0x7fffffff) : y;
    return (double)llabs(x - y);
}

/* |got - ref| in units of the last place of ref rounded to the type
 * (mant bits, min exponent emin of the smallest normal) */
static double ulps_ref(long double ref, double got, int mant, int emin)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got) ? 0 : 1e30;
    if (isinf(ref) || isinf(got))
        return (long double)got == ref ? 0 : 1e30;
    int e;
    frexpl(ref, &e);
    if (e - 1 < emin)
        e = emin + 1;
    return (double)(fabsl(ref - (long double)got) / ldexpl(1.0L, e - mant));
}

/* ------------------------------------------------------------ assembly */

static isa_kernel kern;

static void assemble(const char *src, isa_kernel *k)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int e = isa_assemble("math.sgasm", src, strlen(src), k, &d);
    if (e)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(e, 0);
}

static int assemble_errors(const char *src)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int e = isa_assemble("bad.sgasm", src, strlen(src), &k, &d);
    isa_diags_free(&d);
    if (e == 0)
        isa_kernel_free(&k);
    return e;
}

/* One instruction `mn.T r0, r1[, r2]` per op and type. */
static char *every_math_op(void)
{
    static const char *const ty[] = { "f16", "f32", "f64" };
    size_t cap = 8192, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, ".kernel math\n");
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        if (!isa_op_math((unsigned)op))
            continue;
        for (int t = 0; t < 3; t++)
            n += (size_t)snprintf(s + n, cap - n, "    %s.%s r0, r1%s\n", isa_ops[op].mnemonic,
                                  ty[t], isa_ops[op].shape == ISA_SHAPE_D_S_S ? ", r2" : "");
    }
    snprintf(s + n, cap - n, "    ret\n");
    return s;
}

static void test_table_rows(void **st)
{
    (void)st;
    static const char *const names[] = {
        "atan", "asin", "acos", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
        "expm1", "log1p", "erf", "erfc", "tgamma", "lgamma", "cbrt", "exp", "exp10", "log",
        "log10", "atan2", "hypot", "pow", "rootn",
    };
    unsigned seen = 0;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        isa_opcode op = isa_opcode_from_name(names[i], strlen(names[i]));
        assert_true(op < ISA_OP_COUNT);
        const isa_op_info *oi = &isa_ops[op];
        assert_true(isa_op_math(op));
        assert_int_equal(strcasecmp(isa_family_names[oi->family], names[i]), 0);   /* names itself */
        assert_int_equal(oi->pipe, ISA_PIPE_TRANS);
        bool two = !strcmp(names[i], "atan2") || !strcmp(names[i], "hypot") ||
                   !strcmp(names[i], "pow") || !strcmp(names[i], "rootn");
        assert_int_equal(oi->shape, two ? ISA_SHAPE_D_S_S : ISA_SHAPE_D_S);
        assert_int_equal(oi->types, ISA_TM_FLOAT);
    }
    for (int op = 0; op < ISA_OP_COUNT; op++)
        seen += isa_op_math((unsigned)op);
    assert_int_equal(seen, sizeof names / sizeof names[0]);
    /* the old elementary functions are instructions of their own */
    assert_false(isa_op_math(ISA_OP_SIN));
    assert_false(isa_op_math(ISA_OP_COS));
    assert_false(isa_op_math(ISA_OP_GET_IMAGE_WIDTH));
}

static void test_roundtrip(void **st)
{
    (void)st;
    char *src = every_math_op();
    isa_kernel k2;
    assemble(src, &kern);
    assert_int_equal(kern.ninst, 24 * 3 + 1);
    char *text = isa_disassemble(&kern);
    assert_non_null(text);
    assert_non_null(strstr(text, "atan2.f64 r0, r1, r2"));
    assert_non_null(strstr(text, "lgamma.f16 r0, r1"));
    assemble(text, &k2);
    assert_int_equal(k2.ninst, kern.ninst);
    for (uint32_t i = 0; i < kern.ninst; i++) {
        isa_inst a = kern.inst[i], b = k2.inst[i];
        a.line = a.col = b.line = b.col = 0;
        assert_memory_equal(&a, &b, sizeof a);
    }
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_validate(&k2, &d), 0);
    isa_diags_free(&d);
    free(text);
    free(src);
    isa_kernel_free(&k2);
    isa_kernel_free(&kern);
}

static void test_rejected_forms(void **st)
{
    (void)st;
    /* integer types, a missing or extra source, a vector form */
    assert_true(assemble_errors(".kernel k\n tanh.u32 r0, r1\n ret\n") > 0);
    assert_true(assemble_errors(".kernel k\n tanh.i64 r0, r1\n ret\n") > 0);
    assert_true(assemble_errors(".kernel k\n atan2.f32 r0, r1\n ret\n") > 0);
    assert_true(assemble_errors(".kernel k\n erf.f32 r0, r1, r2\n ret\n") > 0);
    assert_true(assemble_errors(".kernel k\n erf.f32x4 r0, r4\n ret\n") > 0);
    /* a rounding-mode modifier is accepted as for sin (floats only) */
    assert_int_equal(assemble_errors(".kernel k\n erf.f32 r0, r1\n ret\n"), 0);
}

/* ------------------------------------------------------------ semantics */

static lanes_sg sg;

/* Run `mn.T r0, r1, r2` over the lanes of mask with r1 = a, r2 = b. */
static void run_op(const char *mn, const char *ty, const uint64_t *a, const uint64_t *b,
                   lanes_mask mask)
{
    char src[128];
    isa_kernel k;
    isa_opcode op = isa_opcode_from_name(mn, strlen(mn));
    assert_true(op < ISA_OP_COUNT);
    snprintf(src, sizeof src, ".kernel k\n %s.%s r0, r1%s\n ret\n", mn, ty,
             isa_ops[op].shape == ISA_SHAPE_D_S_S ? ", r2" : "");
    assemble(src, &k);
    for (int l = 0; l < W; l++) {
        lanes_reg(&sg, 1)[l] = a[l];
        lanes_reg(&sg, 2)[l] = b ? b[l] : 0;
        lanes_reg(&sg, 0)[l] = 0xdeadbeefull;
    }
    assert_int_equal(lanes_exec_alu(NULL, &sg, &k.inst[0], mask), 0);
    for (int l = 0; l < W; l++)
        if (!((mask >> l) & 1))
            assert_int_equal(lanes_reg(&sg, 0)[l], 0xdeadbeefull);   /* inactive: kept */
    isa_kernel_free(&k);
}

static int setup(void **st)
{
    (void)st;
    return lanes_sg_init(&sg, W, W, 4, 1);
}

static int teardown(void **st)
{
    (void)st;
    lanes_sg_free(&sg);
    return 0;
}

static void test_f32_random(void **st)
{
    (void)st;
    uint64_t a[W];
    for (unsigned r = 0; r < NROWS; r++) {
        double worst_lib = 0, worst_ref = 0;
        for (int it = 0; it < 400; it++) {
            for (int l = 0; l < W; l++)
                a[l] = fbits((float)(rows[r].lo + (rows[r].hi - rows[r].lo) * unit()));
            run_op(rows[r].mn, "f32", a, NULL, ~(lanes_mask)0);
            for (int l = 0; l < W; l++) {
                float x = bitsf(a[l]), got = bitsf(lanes_reg(&sg, 0)[l]);
                double e1 = ulps_f(got, rows[r].ff(x));
                const long double ref = rows[r].fl(x);
                /* past FLT_MAX: the reference's rounding (inf) must match */
                double e2 = fbits((float)ref) == fbits(got) ? 0 : ulps_ref(ref, got, 24, -126);
                worst_lib = e1 > worst_lib ? e1 : worst_lib;
                worst_ref = e2 > worst_ref ? e2 : worst_ref;
                if (e1 > rows[r].ulp_f || e2 > 1.0)
                    fprintf(stderr, "%s(%a) = %a: %g ulp from libm's float, %g from long double\n",
                            rows[r].mn, (double)x, (double)got, e1, e2);
                assert_true(e1 <= rows[r].ulp_f);
                assert_true(e2 <= 1.0);
            }
        }
        printf("%-7s f32: %.2f ulp from the float function, %.3f from long double\n",
               rows[r].mn, worst_lib, worst_ref);
    }
}

static void test_f64_random(void **st)
{
    (void)st;
    uint64_t a[W];
    for (unsigned r = 0; r < NROWS; r++) {
        double worst = 0;
        for (int it = 0; it < 400; it++) {
            for (int l = 0; l < W; l++)
                a[l] = dbits(rows[r].lo + (rows[r].hi - rows[r].lo) * unit());
            run_op(rows[r].mn, "f64", a, NULL, ~(lanes_mask)0);
            for (int l = 0; l < W; l++) {
                double x = bitsd(a[l]), got = bitsd(lanes_reg(&sg, 0)[l]);
                double e = ulps_ref(rows[r].fl(x), got, 53, -1022);
                worst = e > worst ? e : worst;
                assert_true(e <= rows[r].ulp_d);
            }
        }
        printf("%-7s f64: %.2f ulp from long double\n", rows[r].mn, worst);
    }
}

/* the binary rows: atan2 (OpenCL limit 6 ulp), hypot (4), pow and rootn (16;
 * rootn within 1 ulp of the long double root) */
static void test_binary_random(void **st)
{
    (void)st;
    uint64_t a[W], b[W], ad[W], bd[W];
    for (int it = 0; it < 400; it++) {
        for (int l = 0; l < W; l++) {
            /* spread over magnitudes and all four quadrants */
            double y = (unit() - 0.5) * ldexp(1.0, (int)(unit() * 40) - 20);
            double x = (unit() - 0.5) * ldexp(1.0, (int)(unit() * 40) - 20);
            a[l] = fbits((float)y);
            b[l] = fbits((float)x);
            ad[l] = dbits(y);
            bd[l] = dbits(x);
        }
        run_op("atan2", "f32", a, b, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            float y = bitsf(a[l]), x = bitsf(b[l]), got = bitsf(lanes_reg(&sg, 0)[l]);
            assert_true(ulps_f(got, atan2f(y, x)) <= 6);
            assert_true(ulps_ref(atan2l(y, x), got, 24, -126) <= 1.0);
        }
        run_op("atan2", "f64", ad, bd, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            double y = bitsd(ad[l]), x = bitsd(bd[l]), got = bitsd(lanes_reg(&sg, 0)[l]);
            assert_true(ulps_ref(atan2l(y, x), got, 53, -1022) <= 6);
        }
        run_op("hypot", "f32", a, b, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            float y = bitsf(a[l]), x = bitsf(b[l]), got = bitsf(lanes_reg(&sg, 0)[l]);
            assert_true(ulps_f(got, hypotf(y, x)) <= 4);
            assert_true(ulps_ref(sqrtl((long double)x * x + (long double)y * y), got, 24, -126) <= 1.0);
        }
        run_op("hypot", "f64", ad, bd, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            double y = bitsd(ad[l]), x = bitsd(bd[l]), got = bitsd(lanes_reg(&sg, 0)[l]);
            assert_true(ulps_ref(sqrtl((long double)x * x + (long double)y * y), got, 53, -1022) <= 4);
        }
        /* pow: |base| up to 2^20, so the results stay finite mostly */
        run_op("pow", "f32", b, a, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            float y = bitsf(a[l]), x = bitsf(b[l]), got = bitsf(lanes_reg(&sg, 0)[l]);
            long double ref = powl(x, y);
            float rf = (float)ref;
            assert_true(ulps_f(got, powf(x, y)) <= 16);
            assert_true(isnan(rf) ? isnan(got) != 0
                        : fbits(rf) == fbits(got) || ulps_ref(ref, got, 24, -126) <= 1.0);
        }
        run_op("pow", "f64", bd, ad, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            double y = bitsd(ad[l]), x = bitsd(bd[l]), got = bitsd(lanes_reg(&sg, 0)[l]);
            long double ref = powl(x, y);
            assert_true(isnan((double)ref) ? isnan(got) != 0
                        : (double)ref == got || ulps_ref(ref, got, 53, -1022) <= 16);
        }
        /* rootn: x over all magnitudes, n in [-20, 20] \ {0} */
        uint64_t n[W], xs[W];
        for (int l = 0; l < W; l++) {
            int k = (int)(unit() * 40) - 20;
            n[l] = dbits(k ? k : 3);
            xs[l] = dbits((unit() - 0.3) * ldexp(1.0, (int)(unit() * 2000) - 1000));
        }
        run_op("rootn", "f64", xs, n, ~(lanes_mask)0);
        for (int l = 0; l < W; l++) {
            double x = bitsd(xs[l]), k = bitsd(n[l]), got = bitsd(lanes_reg(&sg, 0)[l]);
            bool odd = fmod(k, 2.0) != 0;
            if (x < 0 && !odd) {
                assert_true(isnan(got));
                continue;
            }
            long double ref = expl(logl(fabsl((long double)x)) / k);
            ref = x < 0 ? -ref : ref;
            if (ulps_ref(ref, got, 53, -1022) > 1.0)
                fprintf(stderr, "rootn(%a, %g) = %a, want %La\n", x, k, got, ref);
            assert_true(ulps_ref(ref, got, 53, -1022) <= 1.0);
        }
    }
}

/* Every 40009th f32 bit pattern (all ranges: subnormals, huge values,
 * infinities, NaN): within 1 ulp of the long double function, or equal to
 * its rounding to float (overflow, zeros, NaN). */
static void test_f32_sweep(void **st)
{
    (void)st;
    for (unsigned r = 0; r < NROWS; r++) {
        char src[96];
        isa_kernel k;
        snprintf(src, sizeof src, ".kernel k\n %s.f32 r0, r1\n ret\n", rows[r].mn);
        assemble(src, &k);
        uint64_t u = 0;
        unsigned n = 0;
        while (u < UINT64_C(0x100000000)) {
            for (int l = 0; l < W; l++, u += 40009)
                lanes_reg(&sg, 1)[l] = u & 0xffffffffu;
            assert_int_equal(lanes_exec_alu(NULL, &sg, &k.inst[0], ~(lanes_mask)0), 0);
            for (int l = 0; l < W; l++, n++) {
                float x = bitsf(lanes_reg(&sg, 1)[l]), got = bitsf(lanes_reg(&sg, 0)[l]);
                long double ref = rows[r].fl(x);
                float rf = (float)ref;
                bool ok = isnan(rf) ? isnan(got) != 0 : fbits(rf) == fbits(got) ||
                          ulps_ref(ref, got, 24, -126) <= 1.0;
                if (!ok)
                    fprintf(stderr, "%s(%a) = %a, long double %La\n", rows[r].mn, (double)x,
                            (double)got, ref);
                assert_true(ok);
            }
        }
        assert_true(n > 100000);
        isa_kernel_free(&k);
    }
}

/* C99 Annex F special values, exact (f32 and f64 alike). */
typedef struct special { const char *mn; double a, b, r; } special;

static void test_specials(void **st)
{
    (void)st;
    const double inf = INFINITY, nan = NAN, pi = 3.14159265358979323846;
    const special sp[] = {
        { "atan", 0.0, 0, 0.0 }, { "atan", -0.0, 0, -0.0 }, { "atan", inf, 0, pi / 2 },
        { "atan", -inf, 0, -pi / 2 }, { "asin", -0.0, 0, -0.0 }, { "asin", 1.5, 0, nan },
        { "asin", 1.0, 0, pi / 2 }, { "acos", 1.0, 0, 0.0 }, { "acos", -1.0, 0, pi },
        { "acos", -1.0000001, 0, nan }, { "sinh", -0.0, 0, -0.0 }, { "sinh", -inf, 0, -inf },
        { "sinh", 1000, 0, inf }, { "cosh", -0.0, 0, 1.0 }, { "cosh", -inf, 0, inf },
        { "tanh", -0.0, 0, -0.0 }, { "tanh", inf, 0, 1.0 }, { "tanh", -inf, 0, -1.0 },
        { "tanh", 40, 0, 1.0 }, { "asinh", -0.0, 0, -0.0 }, { "asinh", -inf, 0, -inf },
        { "acosh", 1.0, 0, 0.0 }, { "acosh", 0.5, 0, nan }, { "acosh", inf, 0, inf },
        { "atanh", 1.0, 0, inf }, { "atanh", -1.0, 0, -inf }, { "atanh", -0.0, 0, -0.0 },
        { "atanh", 2.0, 0, nan }, { "expm1", -0.0, 0, -0.0 }, { "expm1", -inf, 0, -1.0 },
        { "expm1", inf, 0, inf }, { "log1p", -1.0, 0, -inf }, { "log1p", -0.0, 0, -0.0 },
        { "log1p", -2.0, 0, nan }, { "log1p", inf, 0, inf }, { "erf", -0.0, 0, -0.0 },
        { "erf", inf, 0, 1.0 }, { "erf", -inf, 0, -1.0 }, { "erfc", inf, 0, 0.0 },
        { "erfc", -inf, 0, 2.0 }, { "erfc", 0.0, 0, 1.0 }, { "tgamma", 0.0, 0, inf },
        { "tgamma", -0.0, 0, -inf }, { "tgamma", -1.0, 0, nan }, { "tgamma", -inf, 0, nan },
        { "tgamma", inf, 0, inf }, { "tgamma", 5.0, 0, 24.0 }, { "lgamma", 1.0, 0, 0.0 },
        { "lgamma", 2.0, 0, 0.0 }, { "lgamma", 0.0, 0, inf }, { "lgamma", -3.0, 0, inf },
        { "lgamma", -inf, 0, inf }, { "atan2", 0.0, -0.0, pi }, { "atan2", -0.0, -0.0, -pi },
        { "atan2", 0.0, 0.0, 0.0 }, { "atan2", -0.0, 0.0, -0.0 }, { "atan2", 1.0, inf, 0.0 },
        { "atan2", -1.0, inf, -0.0 }, { "atan2", inf, -inf, 3 * pi / 4 },
        { "atan2", -inf, inf, -pi / 4 }, { "atan2", 1.0, 0.0, pi / 2 },
        { "atan2", nan, 1.0, nan }, { "atan2", 1.0, nan, nan },
        { "cbrt", -8.0, 0, -2.0 }, { "cbrt", -0.0, 0, -0.0 }, { "cbrt", -inf, 0, -inf },
        { "cbrt", 27.0, 0, 3.0 }, { "cbrt", nan, 0, nan }, { "hypot", 3.0, -4.0, 5.0 },
        { "hypot", -0.0, -0.0, 0.0 }, { "hypot", inf, nan, inf }, { "hypot", nan, -inf, inf },
        { "hypot", nan, 1.0, nan }, { "hypot", 1e30, 1e30, 1.4142135623730951e30 },
        { "exp", -inf, 0, 0.0 }, { "exp", inf, 0, inf }, { "exp", -0.0, 0, 1.0 },
        { "exp", 1000, 0, inf }, { "exp", -1000, 0, 0.0 }, { "exp10", 2.0, 0, 100.0 },
        { "exp10", -inf, 0, 0.0 }, { "exp10", -0.0, 0, 1.0 }, { "log", 1.0, 0, 0.0 },
        { "log", 0.0, 0, -inf }, { "log", -0.0, 0, -inf }, { "log", -1.0, 0, nan },
        { "log", inf, 0, inf }, { "log10", 1000.0, 0, 3.0 }, { "log10", -0.0, 0, -inf },
        { "log10", -2.0, 0, nan }, { "pow", -2.0, 3.0, -8.0 }, { "pow", nan, 0.0, 1.0 },
        { "pow", 1.0, nan, 1.0 }, { "pow", -0.0, -3.0, -inf }, { "pow", -0.0, -2.0, inf },
        { "pow", -1.0, inf, 1.0 }, { "pow", -2.0, 0.5, nan }, { "pow", 0.5, -inf, inf },
        { "pow", -inf, 3.0, -inf }, { "pow", -inf, -3.0, -0.0 },
        { "rootn", -8.0, 3.0, -2.0 }, { "rootn", 27.0, 3.0, 3.0 }, { "rootn", 16.0, -4.0, 0.5 },
        { "rootn", -0.0, -3.0, -inf }, { "rootn", -0.0, -2.0, inf }, { "rootn", -0.0, 3.0, -0.0 },
        { "rootn", -0.0, 2.0, 0.0 }, { "rootn", -4.0, 2.0, nan }, { "rootn", 5.0, 0.0, nan },
        { "rootn", 5.0, 1.5, nan }, { "rootn", -inf, 3.0, -inf }, { "rootn", -inf, -3.0, -0.0 },
        { "rootn", inf, -2.0, 0.0 }, { "rootn", nan, 3.0, nan }, { "rootn", 2.0, nan, nan },
    };
    for (unsigned i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        uint64_t a[W], b[W], ad[W], bd[W];
        for (int l = 0; l < W; l++) {
            a[l] = fbits((float)sp[i].a);
            b[l] = fbits((float)sp[i].b);
            ad[l] = dbits(sp[i].a);
            bd[l] = dbits(sp[i].b);
        }
        /* every other lane, so inactive lanes are checked too */
        run_op(sp[i].mn, "f32", a, b, 0x5555);
        float gf = bitsf(lanes_reg(&sg, 0)[2]), wf = (float)sp[i].r;
        if (isnan(wf) ? !isnan(gf) : fbits(gf) != fbits(wf))
            fprintf(stderr, "%s.f32(%g, %g) = %a, expected %a\n", sp[i].mn, sp[i].a, sp[i].b,
                    (double)gf, (double)wf);
        assert_true(isnan(wf) ? isnan(gf) != 0 : fbits(gf) == fbits(wf));
        run_op(sp[i].mn, "f64", ad, bd, 0x5555);
        double gd = bitsd(lanes_reg(&sg, 0)[4]), wd = sp[i].r;
        if (isnan(wd) ? !isnan(gd) : dbits(gd) != dbits(wd))
            fprintf(stderr, "%s.f64(%g, %g) = %a, expected %a\n", sp[i].mn, sp[i].a, sp[i].b,
                    gd, wd);
        assert_true(isnan(wd) ? isnan(gd) != 0 : dbits(gd) == dbits(wd));
    }
}

/* binary16: widened exactly and rounded once (values worked out by hand) */
static void test_f16(void **st)
{
    (void)st;
    uint64_t a[W], b[W];
    for (int l = 0; l < W; l++) {
        a[l] = 0x3c00;   /* 1.0 */
        b[l] = 0xbc00;   /* -1.0 */
    }
    /* atan(1) = 0.785398..; 1608 * 2^-11 = 0.785156 is the nearest half */
    run_op("atan", "f16", a, NULL, ~(lanes_mask)0);
    assert_int_equal(lanes_reg(&sg, 0)[0], 0x3a48);
    /* tanh(1) = 0.761594..; 1559.75 * 2^-11 -> 1560 = 0x3a18 */
    run_op("tanh", "f16", a, NULL, ~(lanes_mask)0);
    assert_int_equal(lanes_reg(&sg, 0)[7], 0x3a18);
    /* atan2(1, -1) = 3 pi / 4 = 2.356194..; 1206.37 * 2^-9 -> 1206 = 0x40b6 */
    run_op("atan2", "f16", a, b, ~(lanes_mask)0);
    assert_int_equal(lanes_reg(&sg, 0)[15], 0x40b6);
    /* sinh(12) = 81377.4 overflows binary16: +inf */
    for (int l = 0; l < W; l++)
        a[l] = 0x4a00;   /* 12.0 */
    run_op("sinh", "f16", a, NULL, ~(lanes_mask)0);
    assert_int_equal(lanes_reg(&sg, 0)[3], 0x7c00);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_rows),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_rejected_forms),
        cmocka_unit_test_setup_teardown(test_f32_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_f64_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_binary_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_f32_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_specials, setup, teardown),
        cmocka_unit_test_setup_teardown(test_f16, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
