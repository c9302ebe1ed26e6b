/*
 * math.c - per-lane semantics of the elementary-function rows of
 * opcodes.def (the rows flagged ISA_OPF_MATH: atan .. log10, and the binary
 * atan2, hypot, pow and rootn).
 *
 * Each op is the C library's double function.  f16 and f32 operands widen
 * exactly to double and the result is rounded once to the type, so those
 * results are within 0.5 ulp plus libm's (tiny, relative 2^-52-ish) double
 * error; f64 results are libm's own (glibc: within a few ulp, inside the
 * OpenCL C bounds; docs/isa.md), except where the double function is not
 * (glibc's cbrt is 3 ulp off at times, OpenCL allows 2): those take the
 * long double function, rounded once to double.  Special values (NaN, infinities, signed
 * zeros, poles, domain errors) are libm's, i.e. C99 Annex F, which is what
 * the OpenCL C specification asks for.
 */
#include "lanes_priv.h"

typedef double (*math1_fn)(double);
typedef double (*math2_fn)(double, double);
typedef long double (*math1l_fn)(long double);

/* lgamma through lgamma_r: the plain one writes the global signgam, and
 * host threads run sub-groups concurrently */
static double lgamma_nosign(double v)
{
    int sign;
    return lgamma_r(v, &sign);
}

/* 10^v: pow is exact in its base and within 1 ulp (exp10 is a GNU extension) */
static double exp10_pow(double v)
{
    return pow(10.0, v);
}

/* rootn(v, n), n an integer value: |v|^(1/n) in long double (1/n and the
 * exponent keep 64 bits there, so the double result is within 1 ulp, where
 * a double pow(v, 1/n) is off by up to |ln v / n| 2^-53 relative), v's sign
 * for odd n; NaN for n = 0 or not an integer and for v < 0 with even n.  pow
 * supplies the zeros and infinities: rootn(+-0, n < 0) = +-inf (odd n) or
 * +inf (even n), rootn(+-0, n > 0) = +-0 or +0. */
static double rootn_ld(double v, double n)
{
    if (isnan(v) || !isfinite(n) || n != nearbyint(n) || n == 0)
        return NAN;
    const bool odd = fmod(n, 2.0) != 0;
    if (v < 0 && !odd)
        return NAN;
    const double r = (double)powl(fabsl((long double)v), 1.0L / (long double)n);
    return odd ? copysign(r, v) : r;
}

/* unary and binary rows, indexed by family; a missing row is a bad
 * instruction, not a silent result */
#define M1(F, fn) [ISA_FAM_##F] = fn,
static const math1_fn math1[ISA_FAM_COUNT] = {
    M1(ATAN, atan) M1(ASIN, asin) M1(ACOS, acos)
    M1(SINH, sinh) M1(COSH, cosh) M1(TANH, tanh)
    M1(ASINH, asinh) M1(ACOSH, acosh) M1(ATANH, atanh)
    M1(EXPM1, expm1) M1(LOG1P, log1p)
    M1(ERF, erf) M1(ERFC, erfc)
    M1(TGAMMA, tgamma) M1(LGAMMA, lgamma_nosign) M1(CBRT, cbrt)
    M1(EXP, exp) M1(EXP10, exp10_pow) M1(LOG, log) M1(LOG10, log10)
};
/* f64 through long double where the double function misses OpenCL's bound */
static const math1l_fn math1l[ISA_FAM_COUNT] = {
    M1(CBRT, cbrtl)
};
#undef M1
#define M2(F, fn) [ISA_FAM_##F] = fn,
static const math2_fn math2[ISA_FAM_COUNT] = {
    M2(ATAN2, atan2) M2(HYPOT, hypot) M2(POW, pow) M2(ROOTN, rootn_ld)
};
#undef M2

int lanes_math_row(isa_family f, isa_type t, uint32_t w, const uint64_t *a,
                   const uint64_t *b, uint64_t *r)
{
    if ((unsigned)f >= ISA_FAM_COUNT || (!math1[f] && !math2[f]) || !lp_valid_type(t) ||
        !isa_types[t].is_float)
        return LANES_FAULT_BAD_INST;
    if (math2[f]) {
        const math2_fn fn = math2[f];
        if (!b)
            return LANES_FAULT_BAD_INST;
        for (uint32_t l = 0; l < w; l++)
            r[l] = lp_fstore(t, fn(lp_fload(t, a[l]), lp_fload(t, b[l])));
        return LANES_OK;
    }
    const math1_fn fn = math1[f];
    const math1l_fn fnl = math1l[f];
    if (!fn)
        return LANES_FAULT_BAD_INST;
    if (t == ISA_T_F64 && fnl) {
        for (uint32_t l = 0; l < w; l++)
            r[l] = lp_f64_bits((double)fnl((long double)lp_f64(a[l])));
        return LANES_OK;
    }
    for (uint32_t l = 0; l < w; l++)
        r[l] = lp_fstore(t, fn(lp_fload(t, a[l])));
    return LANES_OK;
}
