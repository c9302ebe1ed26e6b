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

static inline double lp_f16(uint64_t v)
{
    return (double)lanes_f16_to_f32((uint16_t)v);
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
