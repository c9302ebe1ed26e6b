/*
 * lanes_priv.h - helpers shared by the files of lanes/ (not a contract).
 */
#ifndef SGEMU_LANES_PRIV_H
#define SGEMU_LANES_PRIV_H

#include "lanes.h"

#include <math.h>
#include <string.h>

/* all bits of an integer type of `bits` width */
static inline uint64_t lp_bits_mask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << bits) - 1);
}

static inline unsigned lp_type_bits(isa_type t)
{
    return (unsigned)isa_types[t].bytes * 8u;
}

static inline bool lp_valid_type(unsigned t)
{
    return t < ISA_T_COUNT;
}

static inline float lp_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint64_t lp_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline double lp_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline uint64_t lp_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* binary16 <-> binary32 by bit operations and selects, which the
 * vectoriser turns into blends (no table, no libm, no branch per lane).
 * lp_h2f is exact; a NaN keeps its payload and comes back quiet, as
 * lanes_f16_to_f32.  Zero and subnormal halves are m 2^-24, exact as a
 * float product; the others only need their exponent rebiased. */
static inline float lp_h2f(uint64_t v)
{
    const uint32_t h = (uint32_t)v & 0xffffu;
    const uint32_t em = h & 0x7fffu;
    const uint32_t sb = (uint32_t)lp_f32_bits((float)(int32_t)em * 0x1p-24f);
    const uint32_t naninf = (em << 13) | 0x7f800000u |
                            (em > 0x7c00u ? 0x00400000u : 0);
    const uint32_t bits = em < 0x400u ? sb
                        : em >= 0x7c00u ? naninf
                        : (em << 13) + ((uint32_t)(127 - 15) << 23);
    return lp_f32(bits | ((h & 0x8000u) << 16));
}

/* A float rounded to nearest even into binary16 bits, the result
 * isa_f64_to_f16 gives for the same value.  Normal halves: add the
 * rounding increment below bit 13 (half an ulp, less one unless the kept
 * part is odd: ties go to even) and rebias; a carry out of the mantissa
 * bumps the exponent, up to infinity at 65520.  Below 2^-14 the float
 * sum |f| + 0.5 has an ulp of 2^-24, the subnormal half's quantum, so the
 * FPU's rounding (to nearest even: nothing in sgemu changes the mode)
 * leaves the half's bits in the low mantissa bits.  NaN: quiet, top
 * payload bits kept. */
static inline uint16_t lp_f2h(float f)
{
    const uint32_t u = (uint32_t)lp_f32_bits(f);
    const uint32_t a = u & 0x7fffffffu;
    const uint32_t sub = (uint32_t)lp_f32_bits(lp_f32(a) + 0.5f) - 0x3f000000u;
    const uint32_t norm = (a + 0xfffu + ((a >> 13) & 1u) -
                           ((uint32_t)(127 - 15) << 23)) >> 13;
    const uint32_t h = a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu)
                     : a >= 0x47800000u ? 0x7c00u
                     : a < 0x38800000u ? sub : norm;
    return (uint16_t)(h | ((u >> 16) & 0x8000u));
}

/* fma of three halves held as floats, rounded once to binary16 bits.  a b
 * is exact in binary32 (22 significant bits); the sum is rounded to odd
 * at 24 bits (TwoSum gives its exact error: truncate, then set the last
 * bit when inexact), and 24 >= 11 + 2 makes the final rounding to the
 * half correct.  Every term is a multiple of 2^-48, far above binary32's
 * subnormals, and below 2^33, so nothing underflows or overflows. */
static inline uint16_t lp_fma_h(float a, float b, float c)
{
    const float p = a * b;
    const float s = p + c;
    const float bb = s - p;
    const float err = (p - (s - bb)) + (c - bb);
    const uint32_t u = (uint32_t)lp_f32_bits(s);
    /* err is NaN for infinite or NaN s: those are left as they are */
    const bool inexact = err != 0 && err == err;
    const uint32_t away = (err < 0) != (s < 0);    /* s rounded up in magnitude */
    const uint32_t odd = (u - away) | 1u;
    return lp_f2h(lp_f32(inexact ? odd : u));
}

static inline double lp_f16(uint64_t v)
{
    return (double)lp_h2f(v);
}

static inline uint64_t lp_f16_bits(double d)
{
    return isa_f64_to_f16(d);
}

/* Any float slot as double (exact for all three widths). */
static inline double lp_fload(isa_type t, uint64_t v)
{
    return t == ISA_T_F16 ? lp_f16(v) : t == ISA_T_F32 ? (double)lp_f32(v)
                                                       : lp_f64(v);
}

/* A double rounded (to nearest even) into a float type's bits. */
static inline uint64_t lp_fstore(isa_type t, double d)
{
    return t == ISA_T_F16 ? lp_f16_bits(d)
         : t == ISA_T_F32 ? lp_f32_bits((float)d) : lp_f64_bits(d);
}

/* fmin/fmax with a fixed answer for signed zeros (-0 < +0) so results do
 * not depend on the C library: a NaN operand is ignored. */
static inline double lp_fmin(double x, double y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x < y)
        return x;
    if (y < x)
        return y;
    return signbit(x) ? x : y;
}

static inline double lp_fmax(double x, double y)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x > y)
        return x;
    if (y > x)
        return y;
    return signbit(x) ? y : x;
}

static inline float lp_fminf(float x, float y)
{
    return isnan(x) ? y : isnan(y) ? x : x < y ? x : y < x ? y
         : signbit(x) ? x : y;
}

static inline float lp_fmaxf(float x, float y)
{
    return isnan(x) ? y : isnan(y) ? x : x > y ? x : y > x ? y
         : signbit(x) ? y : x;
}

/* fused a*b+c for binary16 inputs, rounded once to binary16 */
uint16_t lanes_fma_f16(double a, double b, double c);

/* cvt.DST.SRC over the lanes of `mask` (cvt.c) */
int lanes_exec_cvt(const lanes_env *env, lanes_sg *sg, const isa_inst *in,
                   lanes_mask mask);

/* The elementary-function rows (ISA_OPF_MATH) over w lanes of type t:
 * r = f(a), or f(a, b) for atan2, hypot, pow, rootn (math.c); LANES_FAULT_BAD_INST
 * for other rows. */
int lanes_math_row(isa_family f, isa_type t, uint32_t w, const uint64_t *a,
                   const uint64_t *b, uint64_t *r);

/* Write rows tmp[c] of `vec` registers starting at dst into lanes of mask. */
void lanes_blend(lanes_sg *sg, uint32_t dst, uint32_t vec,
                 const uint64_t (*tmp)[LANES_MAX], lanes_mask mask);

#endif
