/* test_mathfn.c - tests/kernels/mathfn.cl: the OpenCL C elementary
 * functions (atan .. hypot, the *pi forms, lgamma_r, remquo, mad_sat and the
 * double ldexp, logb, ilogb, frexp, remainder) compiled with clang-14 +
 * llvm-spirv-14, run through `sgemu run K.spv` at SIMD8/16/32 and compared
 * with references written here: the C library's float functions (or long
 * double ones for double) within the OpenCL C ulp limits, the special values
 * the OpenCL C specification lists, and exact integer definitions for
 * remquo's quotient and mad_sat. */
#include "kernel_harness.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const unsigned widths[] = { 8, 16, 32 };
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;
static const char *const tmpdir = cli_tmpdir;

#define PI_L 3.14159265358979323846264338327950288L

static uint64_t rng = 0x243F6A8885A308D3ULL;
static double urand(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(cli_rand(&rng) >> 11) * 0x1p-53);
}

/* ------------------------------------------------------------ compare */

/* The error of got in units of the last place of want rounded to the type
 * (mant bits; emin: exponent of the smallest normal); 0 or HUGE_VAL for
 * the special values: NaN matches any NaN, infinities and zeros match with
 * their sign. */
static double ulp_err(long double want, double got, int mant, int emin)
{
    if (isnan(want))
        return isnan(got) ? 0 : HUGE_VAL;
    if (isinf(want) || want == 0)
        return (long double)got == want && !signbit(got) == !signbit(want) ? 0 : HUGE_VAL;
    if (isnan(got) || isinf(got))
        return HUGE_VAL;
    int e;
    frexpl(want, &e);
    if (e - 1 < emin)
        e = emin + 1;
    return (double)(fabsl((long double)got - want) / ldexpl(1.0L, e - mant));
}

static bool close_to(long double want, double got, double ulps, int mant, int emin)
{
    return ulp_err(want, got, mant, emin) <= ulps;
}

static bool close_f(long double want, float got, double ulps)
{
    /* the reference is first rounded to float, so that a float result at
     * the overflow threshold or a signed zero compares like the type */
    return close_to(isfinite(want) && fabsl(want) <= FLT_MAX ? want : (long double)(float)want,
                    got, ulps, 24, -126);
}

/* the same for double; beyond DBL_MAX the reference rounds to +-inf */
static bool close_d(long double want, double got, double ulps)
{
    return close_to(isfinite(want) && fabsl(want) > DBL_MAX ? (long double)(double)want : want,
                    got, ulps, 53, -1022);
}

/* ------------------------------------------------------------ references */

/* The OpenCL C definitions of the *pi forms (with the special values of the
 * specification), in long double. */
static long double ref_sinpi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    if (x == rintl(x))                      /* sinpi(+-n) = +-0 */
        return copysignl(0.0L, x);
    return sinl(PI_L * fmodl(x, 2.0L));
}

static long double ref_cospi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    long double a = fabsl(x);
    if (a == rintl(a))                      /* +-1 at the integers */
        return fmodl(a, 2.0L) == 0 ? 1.0L : -1.0L;
    if (a - 0.5L == rintl(a - 0.5L))        /* cospi(n + 0.5) = +0 */
        return 0.0L;
    return cosl(PI_L * fmodl(a, 2.0L));
}

static long double ref_tanpi(long double x)
{
    if (isinf(x) || isnan(x))
        return NAN;
    if (x == rintl(x)) {                    /* +-0: even n keeps n's sign */
        bool even = fmodl(x, 2.0L) == 0;
        return copysignl(0.0L, even ? x : -x);
    }
    long double n = floorl(x);
    if (x - n == 0.5L)                      /* +inf for even n, -inf for odd */
        return fmodl(n, 2.0L) == 0 ? INFINITY : -INFINITY;
    return tanl(PI_L * fmodl(x, 1.0L));
}

static long double ref_lgamma(long double x)
{
    int s;
    return lgammal_r(x, &s);
}

static int ref_lgamma_sign(long double x)
{
    int s;
    lgammal_r(x, &s);
    return s;
}

/* float column k of unary_f: the C library's float function (long double
 * where the float one is no reference: lgamma near its zeros, the *pi
 * forms, which libm lacks) and the OpenCL C limit in ulp */
typedef struct ucol {
    const char *name;
    float (*ff)(float);
    long double (*fl)(long double);
    double ulp_f, ulp_d;
} ucol;

static long double asinpil(long double x) { return asinl(x) / PI_L; }
static long double acospil(long double x) { return acosl(x) / PI_L; }
static long double atanpil(long double x) { return atanl(x) / PI_L; }

static const ucol ucols[] = {
    { "atan", atanf, atanl, 5, 5 },       { "asin", asinf, asinl, 4, 4 },
    { "acos", acosf, acosl, 4, 4 },       { "sinh", sinhf, sinhl, 4, 4 },
    { "cosh", coshf, coshl, 4, 4 },       { "tanh", tanhf, tanhl, 5, 5 },
    { "asinh", asinhf, asinhl, 4, 4 },    { "acosh", acoshf, acoshl, 4, 4 },
    { "atanh", atanhf, atanhl, 5, 5 },    { "expm1", expm1f, expm1l, 3, 3 },
    { "log1p", log1pf, log1pl, 2, 2 },    { "erf", erff, erfl, 16, 16 },
    { "erfc", erfcf, erfcl, 16, 16 },     { "tgamma", tgammaf, tgammal, 16, 16 },
    { "lgamma", NULL, ref_lgamma, 16, 16 }, { "cbrt", cbrtf, cbrtl, 2, 2 },
    { "sinpi", NULL, ref_sinpi, 4, 4 },   { "cospi", NULL, ref_cospi, 4, 4 },
    { "tanpi", NULL, ref_tanpi, 6, 6 },   { "asinpi", NULL, asinpil, 5, 5 },
    { "acospi", NULL, acospil, 5, 5 },    { "atanpi", NULL, atanpil, 5, 5 },
    { "lgamma_r", NULL, ref_lgamma, 16, 16 },
};
enum { NU = 25, NUC = sizeof ucols / sizeof ucols[0] };

/* operands: the special values, integers and halves (exact cases of the
 * *pi forms), then random values over several ranges */
static int fill_unary(double *v, int n)
{
    static const double sp[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 2.5, -2.5, 3.0, -3.0,
        7.5, -7.5, 1e6, -1e6, 16777216.0, -16777217.0, 1e30, -1e30, INFINITY, -INFINITY,
        NAN, 0.25, -0.75, 1e-3, -1e-7, 1e-40, -1e-40, 0.999, -0.999, 1.0001, 33.5,
        -0.25, 100.5, -101.0, 8388607.5, 0.125,
    };
    int k = 0;
    for (; k < (int)(sizeof sp / sizeof sp[0]) && k < n; k++)
        v[k] = sp[k];
    for (; k < n; k++) {
        switch (k % 5) {
        case 0: v[k] = urand(-1, 1); break;
        case 1: v[k] = urand(-6, 6); break;
        case 2: v[k] = urand(-40, 40); break;
        case 3: v[k] = urand(0, 35); break;
        default: v[k] = urand(-1000, 1000); break;
        }
    }
    return n;
}

/* Run unary_f on fx and unary_d on dx (g values each) at the widths ws and
 * check every column; print the largest errors when `report`. */
static void run_unary(const float *fx, const double *dx, int g, const unsigned *ws, int nw,
                      bool report)
{
    float *fout = malloc(sizeof *fout * (size_t)g * NU);
    double *dout = malloc(sizeof *dout * (size_t)g * NU);
    int32_t *sgn = malloc(sizeof *sgn * (size_t)g), *dsgn = malloc(sizeof *dsgn * (size_t)g);
    double worst_f[NUC] = { 0 }, worst_d[NUC] = { 0 };
    assert_true(fout && dout && sgn && dsgn);
    cli_put("fx.bin", fx, sizeof *fx * (size_t)g);
    cli_put("dx.bin", dx, sizeof *dx * (size_t)g);
    cli_compile("mathfn", "CL2.0");
    for (int w = 0; w < nw; w++) {
        cli_run_ok("run %s/mathfn.spv --kernel unary_f --sg %u --global %d --local 64 "
                   "--arg x=float:@%s/fx.bin --arg out=float:zeros:%d --arg sgn=int:zeros:%d "
                   "--out out=%s/fout.bin --out sgn=%s/sgn.bin -q", tmpdir, ws[w], g, tmpdir,
                   g * NU, g, tmpdir, tmpdir);
        cli_get("fout.bin", fout, sizeof *fout * (size_t)g * NU);
        cli_get("sgn.bin", sgn, sizeof *sgn * (size_t)g);
        cli_run_ok("run %s/mathfn.spv --kernel unary_d --sg %u --global %d --local 64 "
                   "--arg x=double:@%s/dx.bin --arg out=double:zeros:%d --arg sgn=int:zeros:%d "
                   "--out out=%s/dout.bin --out sgn=%s/dsgn.bin -q", tmpdir, ws[w], g, tmpdir,
                   g * NU, g, tmpdir, tmpdir);
        cli_get("dout.bin", dout, sizeof *dout * (size_t)g * NU);
        cli_get("dsgn.bin", dsgn, sizeof *dsgn * (size_t)g);
        for (int i = 0; i < g; i++) {
            float x = fx[i];
            double xd = dx[i];
            for (int c = 0; c < NUC; c++) {
                const ucol *u = &ucols[c];
                float got = fout[(size_t)i * NU + c];
                long double want = u->ff ? (long double)u->ff(x) : u->fl(x);
                double ef = ulp_err(isfinite(want) && fabsl(want) <= FLT_MAX ? want
                                    : (long double)(float)want, got, 24, -126);
                worst_f[c] = ef > worst_f[c] ? ef : worst_f[c];
                if (!close_f(want, got, u->ulp_f))
                    fail_msg("%s(float %a) = %a, want %a (SIMD%u)", u->name, (double)x,
                             (double)got, (double)want, ws[w]);
                double gd = dout[(size_t)i * NU + c];
                long double wd = u->fl(xd);
                double ed = ulp_err(isfinite(wd) && fabsl(wd) > DBL_MAX ? (long double)(double)wd
                                    : wd, gd, 53, -1022);
                worst_d[c] = ed > worst_d[c] ? ed : worst_d[c];
                if (!close_d(wd, gd, u->ulp_d))
                    fail_msg("%s(double %a) = %a, want %a (SIMD%u)", u->name, xd, gd,
                             (double)wd, ws[w]);
            }
            if (sgn[i] != ref_lgamma_sign(x))
                fail_msg("lgamma_r(float %a): sign %d, want %d", (double)x, sgn[i],
                         ref_lgamma_sign(x));
            if (dsgn[i] != ref_lgamma_sign(xd))
                fail_msg("lgamma_r(double %a): sign %d, want %d", xd, dsgn[i],
                         ref_lgamma_sign(xd));
            /* the vector forms: tanh(-x), erfc(x) */
            const float *fo = &fout[(size_t)i * NU];
            const double *d_o = &dout[(size_t)i * NU];
            if (!close_f(tanhf(-x), fo[23], 5) || !close_f(erfcf(x), fo[24], 16))
                fail_msg("float vector forms at %a: %a %a", (double)x, (double)fo[23],
                         (double)fo[24]);
            if (!close_d(tanhl(-xd), d_o[23], 5) || !close_d(erfcl(xd), d_o[24], 16))
                fail_msg("double vector forms at %a: %a %a", xd, d_o[23], d_o[24]);
        }
    }
    if (report)
        for (int c = 0; c < NUC; c++)
            printf("%-8s float %.2f ulp, double %.2f ulp (OpenCL: %g, %g)\n", ucols[c].name,
                   worst_f[c], worst_d[c], ucols[c].ulp_f, ucols[c].ulp_d);
    free(fout);
    free(dout);
    free(sgn);
    free(dsgn);
}

static void test_unary(void **state)
{
    (void)state;
    enum { G = 512 };
    static double dx[G];
    static float fx[G];
    fill_unary(dx, G);
    for (int i = 0; i < G; i++)
        fx[i] = (float)dx[i];
    /* the double run gets values that are not floats too */
    for (int i = 40; i < G; i += 2)
        dx[i] += urand(-1, 1) * 0x1p-30 * dx[i];
    run_unary(fx, dx, G, widths, 3, true);
}

/* 65536 float bit patterns 65521 apart and as many random double ones:
 * every range (subnormals, huge values, infinities, NaN) at SIMD16 */
static void test_unary_sweep(void **state)
{
    (void)state;
    enum { G = 65536 };
    float *fx = malloc(sizeof *fx * G);
    double *dx = malloc(sizeof *dx * G);
    assert_true(fx && dx);
    for (uint32_t i = 0; i < G; i++) {
        uint32_t u = i * 65521u;
        uint64_t v = cli_rand(&rng);
        memcpy(&fx[i], &u, 4);
        memcpy(&dx[i], &v, 8);
    }
    static const unsigned w16[] = { 16 };
    run_unary(fx, dx, G, w16, 1, true);
    free(fx);
    free(dx);
}

/* ------------------------------------------------------------ remquo */

/* The low 7 bits of n, the integer nearest x / y (ties to even), by exact
 * integer arithmetic on the significands: x = mx 2^ex, y = my 2^ey. */
static int ref_quo7(double x, double y)
{
    int ex, ey;
    double fx = frexp(fabs(x), &ex), fy = frexp(fabs(y), &ey);
    uint64_t mx = (uint64_t)ldexp(fx, 53), my = (uint64_t)ldexp(fy, 53);
    int d = ex - ey;
    u128 q, rem, den;
    if (d >= 0) {
        /* (mx 2^d) mod (128 my), one doubling at a time */
        u128 m = (u128)128 * my, r = mx % m;
        for (int k = 0; k < d; k++)
            r = (r * 2) % m;
        q = r / my;
        rem = r % my;
        den = my;
    } else if (d > -60) {
        den = (u128)my << -d;
        q = mx / den;
        rem = mx % den;
    } else {
        q = 0;
        rem = mx;
        den = (u128)my << 60;   /* any value above 2 rem */
    }
    if (2 * rem > den || (2 * rem == den && (q & 1)))
        q++;
    int n = (int)(q & 127);
    return (signbit(x) != signbit(y)) ? -n : n;
}

static void check_quo(int got, double x, double y, const char *ty)
{
    int want = ref_quo7(x, y);
    /* at least 7 bits, the sign of x / y (any sign for a zero quotient) */
    if ((abs(got) & 127) != abs(want) || (want != 0 && (got < 0) != (want < 0)))
        fail_msg("remquo(%s %a, %a): quotient %d, want %d (mod 128)", ty, x, y, got, want);
}

static void test_binary(void **state)
{
    (void)state;
    enum { G = 512, NB = 5 };
    static const double sp[][2] = {
        { 0.0, -0.0 }, { -0.0, -0.0 }, { 0.0, 0.0 }, { -0.0, 0.0 }, { INFINITY, -INFINITY },
        { -INFINITY, INFINITY }, { INFINITY, INFINITY }, { 1.0, 0.0 }, { -1.0, -0.0 },
        { 1.0, INFINITY }, { -1.0, -INFINITY }, { NAN, 1.0 }, { 1.0, NAN }, { INFINITY, NAN },
        { 7.0, 2.0 }, { 5.0, 2.0 }, { -5.0, 2.0 }, { 6.0, -4.0 }, { 1e30, 3.0 }, { 3.0, 1e30 },
        { 1e-40, 3e-41 }, { 1000.0, 0.001 }, { -1e38, 1.5 }, { 0.0, 5.0 }, { -0.0, 5.0 },
        { 3.0, 0.0 }, { INFINITY, 2.0 }, { 2.0, INFINITY }, { 300.0, 2.0 }, { 255.5, 1.0 },
    };
    enum { NSP = sizeof sp / sizeof sp[0] };
    static float fx[G], fy[G], fout[G * NB];
    static double dx[G], dy[G], dout[G * NB];
    static int32_t fq[G], dq[G];
    for (int i = 0; i < G; i++) {
        if (i < NSP) {
            dx[i] = sp[i][0];
            dy[i] = sp[i][1];
        } else {
            dx[i] = urand(-1, 1) * ldexp(1.0, (int)urand(-30, 30));
            dy[i] = urand(-1, 1) * ldexp(1.0, (int)urand(-30, 30));
            if (i % 7 == 0)
                dy[i] = (double)(int)urand(-9, 9) + 0.5;   /* ties of remainder */
            if (i % 7 == 1)
                dx[i] = (double)(int)urand(-300, 300) * fabs(dy[i]) * 0.5;
        }
        fx[i] = (float)dx[i];
        fy[i] = (float)dy[i];
        if (i >= NSP && i % 3 == 0) {   /* the double run: values that are not floats */
            dx[i] = dx[i] * (1 + 0x1p-40);
            dy[i] = dy[i] * (1 - 0x1p-45);
        } else {
            dx[i] = fx[i];
            dy[i] = fy[i];
        }
    }
    cli_put("bx.bin", fx, sizeof fx);
    cli_put("by.bin", fy, sizeof fy);
    cli_put("bdx.bin", dx, sizeof dx);
    cli_put("bdy.bin", dy, sizeof dy);
    cli_compile("mathfn", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/mathfn.spv --kernel binary_f --sg %u --global %d --local 64 "
                   "--arg x=float:@%s/bx.bin --arg y=float:@%s/by.bin --arg out=float:zeros:%d "
                   "--arg quo=int:zeros:%d --out out=%s/bout.bin --out quo=%s/bq.bin -q", tmpdir,
                   widths[w], G, tmpdir, tmpdir, G * NB, G, tmpdir, tmpdir);
        cli_get("bout.bin", fout, sizeof fout);
        cli_get("bq.bin", fq, sizeof fq);
        cli_run_ok("run %s/mathfn.spv --kernel binary_d --sg %u --global %d --local 64 "
                   "--arg x=double:@%s/bdx.bin --arg y=double:@%s/bdy.bin "
                   "--arg out=double:zeros:%d --arg quo=int:zeros:%d --out out=%s/bdout.bin "
                   "--out quo=%s/bdq.bin -q", tmpdir, widths[w], G, tmpdir, tmpdir, G * NB, G,
                   tmpdir, tmpdir);
        cli_get("bdout.bin", dout, sizeof dout);
        cli_get("bdq.bin", dq, sizeof dq);
        for (int i = 0; i < G; i++) {
            float a = fx[i], b = fy[i];
            const float *o = &fout[i * NB];
            if (!close_f(atan2f(a, b), o[0], 6))
                fail_msg("atan2(float %a, %a) = %a", (double)a, (double)b, (double)o[0]);
            long double a2p = atan2l(a, b) / PI_L;
            if (isinf(a) && isinf(b))   /* the specification's exact +-1/4, +-3/4 */
                a2p = copysignl(b > 0 ? 0.25L : 0.75L, a);
            if (!close_f(a2p, o[1], 6))
                fail_msg("atan2pi(float %a, %a) = %a", (double)a, (double)b, (double)o[1]);
            if (!close_f(hypotf(a, b), o[2], 4))
                fail_msg("hypot(float %a, %a) = %a", (double)a, (double)b, (double)o[2]);
            /* remquo: the remainder exactly (C's remainder), 7 quotient bits */
            if (!close_f(remainderf(a, b), o[3], 0) || !close_f(remainderf(a, b), o[4], 0))
                fail_msg("remquo/remainder(float %a, %a) = %a / %a, want %a", (double)a,
                         (double)b, (double)o[3], (double)o[4], (double)remainderf(a, b));
            if (isfinite(a) && isfinite(b) && b != 0)
                check_quo(fq[i], a, b, "float");
            double ad = dx[i], bd = dy[i];
            const double *p = &dout[i * NB];
            if (!close_d(atan2l(ad, bd), p[0], 6))
                fail_msg("atan2(double %a, %a) = %a", ad, bd, p[0]);
            long double d2p = atan2l(ad, bd) / PI_L;
            if (isinf(ad) && isinf(bd))
                d2p = copysignl(bd > 0 ? 0.25L : 0.75L, ad);
            if (!close_d(d2p, p[1], 6))
                fail_msg("atan2pi(double %a, %a) = %a", ad, bd, p[1]);
            if (!close_d(hypotl(ad, bd), p[2], 4))
                fail_msg("hypot(double %a, %a) = %a", ad, bd, p[2]);
            if (!close_d(remainder(ad, bd), p[3], 0) ||
                !close_d(remainder(ad, bd), p[4], 0))
                fail_msg("remquo/remainder(double %a, %a) = %a / %a, want %a", ad, bd, p[3],
                         p[4], remainder(ad, bd));
            if (isfinite(ad) && isfinite(bd) && bd != 0)
                check_quo(dq[i], ad, bd, "double");
        }
    }
}

/* float4 remquo and lgamma_r: each component as the scalar functions */
static void test_vector_pointers(void **state)
{
    (void)state;
    enum { G = 128 };
    static float x[G], y[G], out[G * 8];
    static int32_t iout[G * 8];
    for (int i = 0; i < G; i++) {
        x[i] = (float)urand(-50, 50);
        y[i] = (float)urand(-8, 8);
    }
    x[0] = -0.0f;
    y[1] = 0.5f;
    x[1] = -2.5f;
    cli_put("vx.bin", x, sizeof x);
    cli_put("vy.bin", y, sizeof y);
    cli_compile("mathfn", "CL2.0");
    cli_run_ok("run %s/mathfn.spv --kernel vecptr --sg 16 --global %d --local 64 "
               "--arg x=float:@%s/vx.bin --arg y=float:@%s/vy.bin --arg out=float:zeros:%d "
               "--arg iout=int:zeros:%d --out out=%s/vout.bin --out iout=%s/viout.bin -q",
               tmpdir, G, tmpdir, tmpdir, G * 8, G * 8, tmpdir, tmpdir);
    cli_get("vout.bin", out, sizeof out);
    cli_get("viout.bin", iout, sizeof iout);
    for (int i = 0; i < G; i++) {
        const float a[4] = { x[i], y[i], -x[i], x[i] * 0.5f };
        const float b[4] = { y[i], x[i], 3.0f, -y[i] };
        for (int c = 0; c < 4; c++) {
            if (!close_f(remainderf(a[c], b[c]), out[8 * i + c], 0))
                fail_msg("remquo(float4) [%d] (%a, %a) = %a", c, (double)a[c], (double)b[c],
                         (double)out[8 * i + c]);
            if (b[c] != 0)
                check_quo(iout[8 * i + c], a[c], b[c], "float4");
            if (!close_f(ref_lgamma(a[c]), out[8 * i + 4 + c], 16) ||
                iout[8 * i + 4 + c] != ref_lgamma_sign(a[c]))
                fail_msg("lgamma_r(float4) [%d] (%a) = %a, sign %d", c, (double)a[c],
                         (double)out[8 * i + 4 + c], iout[8 * i + 4 + c]);
        }
    }
}

/* ------------------------------------------------------------ exp, log, pow */

/* powr from its OpenCL C definition: pow for x >= 0 (x = -0 as +0) with NaN
 * for x < 0, NaN operands, 0^0, inf^0 and 1^inf */
static long double ref_powr(long double x, long double y)
{
    if (isnan(x) || isnan(y) || x < 0 || (y == 0 && (x == 0 || isinf(x))) ||
        (x == 1 && isinf(y)))
        return NAN;
    return powl(x == 0 ? 0.0L : x, y);
}

/* rootn from its OpenCL C definition: the n-th root, x's sign for odd n;
 * NaN for n = 0 and for x < 0 with even n; zeros and infinities as listed */
static long double ref_rootn(long double x, int n)
{
    bool odd = n % 2 != 0;
    if (isnan(x) || n == 0 || (x < 0 && !odd))
        return NAN;
    long double s = odd && signbit(x) ? -1.0L : 1.0L;
    if (x == 0)
        return s * (n < 0 ? (long double)INFINITY : 0.0L);
    if (isinf(x))
        return s * (n > 0 ? (long double)INFINITY : 0.0L);
    return s * expl(logl(fabsl(x)) / n);
}

static void test_explog(void **state)
{
    (void)state;
    enum { G = 512, NE = 8 };
    static const double sp[][2] = {
        { 0.0, 0.0 }, { -0.0, -3.0 }, { -0.0, -2.0 }, { 0.0, -1.0 }, { INFINITY, 0.0 },
        { INFINITY, -2.0 }, { -INFINITY, 3.0 }, { 1.0, INFINITY }, { 1.0, NAN }, { NAN, 0.0 },
        { -1.0, INFINITY }, { -2.0, 3.0 }, { -2.0, 0.5 }, { 0.5, -INFINITY }, { 2.0, 0.5 },
        { 88.7, 1.0 }, { -103.0, 2.0 }, { 38.5, 1.0 }, { -45.0, 1.0 }, { 1e-40, 2.0 },
        { 1.0, 1e10 }, { 10.0, 38.0 }, { 3.0, -150.0 }, { -1.0, 1e30 },
    };
    enum { NSP = sizeof sp / sizeof sp[0] };
    static float fx[G], fy[G], fout[G * NE];
    static double dx[G], dy[G], dout[G * NE];
    static int32_t n[G];
    static const int sn[] = { 0, 1, -1, 2, -3, 7, 40, -40, 1 << 30, -(1 << 30) - 1 };
    for (int i = 0; i < G; i++) {
        if (i < NSP) {
            dx[i] = sp[i][0];
            dy[i] = sp[i][1];
        } else if (i % 2) {
            dx[i] = urand(-90, 90);
            dy[i] = urand(-10, 10);
        } else {
            dx[i] = urand(0, 1) * ldexp(1.0, (int)urand(-30, 30));
            dy[i] = urand(-20, 20);
        }
        n[i] = i < 10 ? sn[i] : (int)urand(-30, 30);
        fx[i] = (float)dx[i];
        fy[i] = (float)dy[i];
        if (i >= NSP && i % 3 == 0) {   /* the double run reaches past float's range */
            dx[i] *= 7.5;
            dy[i] *= 1 + 0x1p-40;
        }
    }
    cli_put("lx.bin", fx, sizeof fx);
    cli_put("ly.bin", fy, sizeof fy);
    cli_put("ldx.bin", dx, sizeof dx);
    cli_put("ldy.bin", dy, sizeof dy);
    cli_put("ln.bin", n, sizeof n);
    cli_compile("mathfn", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/mathfn.spv --kernel explog_f --sg %u --global %d --local 64 "
                   "--arg x=float:@%s/lx.bin --arg y=float:@%s/ly.bin --arg n=int:@%s/ln.bin "
                   "--arg out=float:zeros:%d --out out=%s/lout.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, tmpdir, G * NE, tmpdir);
        cli_get("lout.bin", fout, sizeof fout);
        cli_run_ok("run %s/mathfn.spv --kernel explog_d --sg %u --global %d --local 64 "
                   "--arg x=double:@%s/ldx.bin --arg y=double:@%s/ldy.bin --arg n=int:@%s/ln.bin "
                   "--arg out=double:zeros:%d --out out=%s/ldout.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, tmpdir, G * NE, tmpdir);
        cli_get("ldout.bin", dout, sizeof dout);
        for (int i = 0; i < G; i++) {
            const float a = fx[i], b = fy[i];
            const float want_f[NE] = { expf(a), powf(10.0f, a), logf(a), log10f(a), powf(a, b),
                                       (float)ref_powr(a, b), (float)powl(a, n[i]),
                                       (float)ref_rootn(a, n[i]) };
            /* OpenCL C limits: exp, exp10, log, log10 3 ulp; pow, powr, pown, rootn 16 */
            static const double lim[NE] = { 3, 3, 3, 3, 16, 16, 16, 16 };
            static const char *const nm[NE] = { "exp", "exp10", "log", "log10", "pow", "powr",
                                                "pown", "rootn" };
            for (int c = 0; c < NE; c++)
                if (!close_f(want_f[c], fout[i * NE + c], lim[c]))
                    fail_msg("%s(float %a, %a, n %d) = %a, want %a", nm[c], (double)a, (double)b,
                             n[i], (double)fout[i * NE + c], (double)want_f[c]);
            const double ad = dx[i], bd = dy[i];
            const long double want_d[NE] = { expl(ad), powl(10.0L, ad), logl(ad), log10l(ad),
                                             powl(ad, bd), ref_powr(ad, bd), powl(ad, n[i]),
                                             ref_rootn(ad, n[i]) };
            for (int c = 0; c < NE; c++)
                if (!close_d(want_d[c], dout[i * NE + c], lim[c]))
                    fail_msg("%s(double %a, %a, n %d) = %a, want %a", nm[c], ad, bd, n[i],
                             dout[i * NE + c], (double)want_d[c]);
        }
    }
}

/* ------------------------------------------------------------ mad_sat */

static int64_t ref_madsat(i128 a, i128 b, i128 c, i128 lo, i128 hi)
{
    i128 r = a * b + c;
    return (int64_t)(r < lo ? lo : r > hi ? hi : r);
}

static void test_madsat(void **state)
{
    (void)state;
    enum { G = 256 };
    static int64_t a[G], b[G], c[G], out[G * 8];
    static const int64_t sp[] = { 0, 1, -1, 127, -128, 255, 32767, -32768, 65535, INT32_MAX,
                                  INT32_MIN, UINT32_MAX, INT64_MAX, INT64_MIN, -2, 3 };
    enum { NSP = sizeof sp / sizeof sp[0] };
    for (int i = 0; i < G; i++) {
        if (i < NSP * NSP) {
            a[i] = sp[i % NSP];
            b[i] = sp[i / NSP];
            c[i] = sp[(i * 7) % NSP];
        } else {
            a[i] = (int64_t)cli_rand(&rng) >> (cli_rand(&rng) % 64);
            b[i] = (int64_t)cli_rand(&rng) >> (cli_rand(&rng) % 64);
            c[i] = (int64_t)cli_rand(&rng) >> (cli_rand(&rng) % 64);
        }
    }
    cli_put("ma.bin", a, sizeof a);
    cli_put("mb.bin", b, sizeof b);
    cli_put("mc.bin", c, sizeof c);
    cli_compile("mathfn", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/mathfn.spv --kernel madsat --sg %u --global %d --local 64 "
                   "--arg a=long:@%s/ma.bin --arg b=long:@%s/mb.bin --arg c=long:@%s/mc.bin "
                   "--arg out=long:zeros:%d --out out=%s/mout.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, tmpdir, G * 8, tmpdir);
        cli_get("mout.bin", out, sizeof out);
        for (int i = 0; i < G; i++) {
            const int64_t x = a[i], y = b[i], z = c[i];
            const int64_t want[8] = {
                ref_madsat((int8_t)x, (int8_t)y, (int8_t)z, INT8_MIN, INT8_MAX),
                ref_madsat((uint8_t)x, (uint8_t)y, (uint8_t)z, 0, UINT8_MAX),
                ref_madsat((int16_t)x, (int16_t)y, (int16_t)z, INT16_MIN, INT16_MAX),
                ref_madsat((uint16_t)x, (uint16_t)y, (uint16_t)z, 0, UINT16_MAX),
                ref_madsat((int32_t)x, (int32_t)y, (int32_t)z, INT32_MIN, INT32_MAX),
                ref_madsat((uint32_t)x, (uint32_t)y, (uint32_t)z, 0, UINT32_MAX),
                ref_madsat(x, y, z, INT64_MIN, INT64_MAX),
                0,
            };
            /* ulong: clamp to 2^64 - 1, compared as bits */
            u128 u = (u128)(uint64_t)x * (uint64_t)y + (uint64_t)z;
            uint64_t wu = u > UINT64_MAX ? UINT64_MAX : (uint64_t)u;
            for (int k = 0; k < 7; k++)
                if (out[i * 8 + k] != want[k])
                    fail_msg("mad_sat type %d (%lld, %lld, %lld) = %lld, want %lld", k,
                             (long long)x, (long long)y, (long long)z,
                             (long long)out[i * 8 + k], (long long)want[k]);
            if ((uint64_t)out[i * 8 + 7] != wu)
                fail_msg("mad_sat ulong (%llu, %llu, %llu) = %llu, want %llu",
                         (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
                         (unsigned long long)out[i * 8 + 7], (unsigned long long)wu);
        }
    }
}

/* ------------------------------------------------------------ double ldexp .. frexp */

static void test_dexp(void **state)
{
    (void)state;
    enum { G = 256 };
    static const double sp[] = { 0.0, -0.0, 1.0, -1.5, INFINITY, -INFINITY, NAN, 0x1p-1074,
                                 -0x1.8p-1070, 0x1.fffffffffffffp-1023, 0x1p-1022,
                                 0x1.fffffffffffffp+1023, 3.0, -1e300, 1e-310, 0.75 };
    static const int spn[] = { 0, 1, -1, 1074, -1074, 2000, -2000, 1023, -1023, 60, -60,
                               INT32_MAX, INT32_MIN, 52, -53, 3 };
    enum { NS = sizeof sp / sizeof sp[0], NN = sizeof spn / sizeof spn[0] };
    static double x[G], out[G * 3];
    static int32_t n[G], iout[G * 2];
    for (int i = 0; i < G; i++) {
        if (i < NS * NN / 2) {
            x[i] = sp[i % NS];
            n[i] = spn[(i / NS + i) % NN];
        } else {
            x[i] = urand(-1, 1) * ldexp(1.0, (int)urand(-1080, 1030));
            n[i] = (int)urand(-2200, 2200);
        }
    }
    cli_put("ex.bin", x, sizeof x);
    cli_put("en.bin", n, sizeof n);
    cli_compile("mathfn", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/mathfn.spv --kernel dexp --sg %u --global %d --local 64 "
                   "--arg x=double:@%s/ex.bin --arg n=int:@%s/en.bin --arg out=double:zeros:%d "
                   "--arg iout=int:zeros:%d --out out=%s/eout.bin --out iout=%s/eiout.bin -q",
                   tmpdir, widths[w], G, tmpdir, tmpdir, G * 3, G * 2, tmpdir, tmpdir);
        cli_get("eout.bin", out, sizeof out);
        cli_get("eiout.bin", iout, sizeof iout);
        for (int i = 0; i < G; i++) {
            double v = x[i];
            /* C99: exact results; OpenCL C's FP_ILOGB0 is INT_MIN and its
             * FP_ILOGBNAN INT_MAX (clang's opencl-c-base.h), as ilogb(+-inf) */
            int want_e = 0;
            double want_m = frexp(v, &want_e);
            if (!isfinite(v))
                want_e = 0;
            int want_i = v == 0 ? INT32_MIN : !isfinite(v) ? INT32_MAX : ilogb(v);
            if (!close_d(ldexp(v, n[i]), out[3 * i], 0))
                fail_msg("ldexp(double %a, %d) = %a, want %a", v, n[i], out[3 * i],
                         ldexp(v, n[i]));
            if (!close_d(logb(v), out[3 * i + 1], 0))
                fail_msg("logb(double %a) = %a, want %a", v, out[3 * i + 1], logb(v));
            if (!close_d(want_m, out[3 * i + 2], 0) || iout[2 * i + 1] != want_e)
                fail_msg("frexp(double %a) = %a, %d; want %a, %d", v, out[3 * i + 2],
                         iout[2 * i + 1], want_m, want_e);
            if (iout[2 * i] != want_i)
                fail_msg("ilogb(double %a) = %d, want %d", v, iout[2 * i], want_i);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("mathfn");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unary),
        cmocka_unit_test(test_unary_sweep),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_vector_pointers),
        cmocka_unit_test(test_explog),
        cmocka_unit_test(test_madsat),
        cmocka_unit_test(test_dexp),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
