/* OpenCL C elementary functions: the sgemu instructions atan .. hypot
 * (OpenCL.std one to one) and the lowerings of isa/spirv_math.c (the *pi
 * forms, lgamma_r, remquo, mad_sat, the double forms of ldexp, logb, ilogb,
 * frexp and remainder).  Checked by test_mathfn.c. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define NU 25

/* o[0..21]: the one-argument functions of both kernels */
#define UNARY_ROW(o, v) \
    o[0] = atan(v); \
    o[1] = asin(v); \
    o[2] = acos(v); \
    o[3] = sinh(v); \
    o[4] = cosh(v); \
    o[5] = tanh(v); \
    o[6] = asinh(v); \
    o[7] = acosh(v); \
    o[8] = atanh(v); \
    o[9] = expm1(v); \
    o[10] = log1p(v); \
    o[11] = erf(v); \
    o[12] = erfc(v); \
    o[13] = tgamma(v); \
    o[14] = lgamma(v); \
    o[15] = cbrt(v); \
    o[16] = sinpi(v); \
    o[17] = cospi(v); \
    o[18] = tanpi(v); \
    o[19] = asinpi(v); \
    o[20] = acospi(v); \
    o[21] = atanpi(v)

/* one row of NU results per work-item; lgamma_r's sign through a private
 * pointer; a float4 tanh and a float2 erfc for the vector forms */
__kernel void unary_f(__global const float *x, __global float *out, __global int *sgn)
{
    size_t i = get_global_id(0);
    float v = x[i];
    __global float *o = out + i * NU;
    UNARY_ROW(o, v);
    int s;
    o[22] = lgamma_r(v, &s);
    sgn[i] = s;
    float4 t = tanh((float4)(v, -v, 0.5f * v, 2.0f));
    o[23] = t.y;
    float2 e = erfc((float2)(1.0f, v));
    o[24] = e.y;
}

__kernel void unary_d(__global const double *x, __global double *out, __global int *sgn)
{
    size_t i = get_global_id(0);
    double v = x[i];
    __global double *o = out + i * NU;
    UNARY_ROW(o, v);
    o[22] = lgamma_r(v, sgn + i);   /* a global pointer this time */
    double4 t = tanh((double4)(v, -v, 0.5 * v, 2.0));
    o[23] = t.y;
    double2 e = erfc((double2)(1.0, v));
    o[24] = e.y;
}

#define NB 5

/* atan2, atan2pi, hypot, remquo (quotient bits through the pointer) and
 * remainder of x[i] and y[i] */
__kernel void binary_f(__global const float *x, __global const float *y, __global float *out,
                       __global int *quo)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    __global float *o = out + i * NB;
    o[0] = atan2(a, b);
    o[1] = atan2pi(a, b);
    o[2] = hypot(a, b);
    int q;
    o[3] = remquo(a, b, &q);
    quo[i] = q;
    o[4] = remainder(a, b);
}

__kernel void binary_d(__global const double *x, __global const double *y, __global double *out,
                       __global int *quo)
{
    size_t i = get_global_id(0);
    double a = x[i], b = y[i];
    __global double *o = out + i * NB;
    o[0] = atan2(a, b);
    o[1] = atan2pi(a, b);
    o[2] = hypot(a, b);
    int q;
    o[3] = remquo(a, b, &q);
    quo[i] = q;
    o[4] = remainder(a, b);
}

/* mad_sat of every integer type, the operands truncated from longs; the
 * results widened back (ulong as its bits) */
__kernel void madsat(__global const long *a, __global const long *b, __global const long *c,
                     __global long *out)
{
    size_t i = get_global_id(0);
    long x = a[i], y = b[i], z = c[i];
    __global long *o = out + i * 8;
    o[0] = mad_sat((char)x, (char)y, (char)z);
    o[1] = mad_sat((uchar)x, (uchar)y, (uchar)z);
    o[2] = mad_sat((short)x, (short)y, (short)z);
    o[3] = mad_sat((ushort)x, (ushort)y, (ushort)z);
    o[4] = mad_sat((int)x, (int)y, (int)z);
    o[5] = mad_sat((uint)x, (uint)y, (uint)z);
    o[6] = mad_sat(x, y, z);
    o[7] = (long)mad_sat((ulong)x, (ulong)y, (ulong)z);
}

/* the double forms of ldexp, logb, ilogb and frexp */
__kernel void dexp(__global const double *x, __global const int *n, __global double *out,
                   __global int *iout)
{
    size_t i = get_global_id(0);
    double v = x[i];
    out[3 * i] = ldexp(v, n[i]);
    out[3 * i + 1] = logb(v);
    int e;
    out[3 * i + 2] = frexp(v, &e);
    iout[2 * i] = ilogb(v);
    iout[2 * i + 1] = e;
}

/* vector forms of the pointer functions: one int per component, in order */
__kernel void vecptr(__global const float *x, __global const float *y, __global float *out,
                     __global int *iout)
{
    size_t i = get_global_id(0);
    float4 a = (float4)(x[i], y[i], -x[i], x[i] * 0.5f);
    float4 b = (float4)(y[i], x[i], 3.0f, -y[i]);
    int4 q, s;
    float4 r = remquo(a, b, &q);
    float4 l = lgamma_r(a, &s);
    vstore4(r, 2 * i, out);
    vstore4(l, 2 * i + 1, out);
    vstore4(q, 2 * i, iout);
    vstore4(s, 2 * i + 1, iout);
}

/* exp, exp10, log, log10 (instructions), pow, pown, rootn (pow / rootn of
 * the double n), powr (pow with powr's NaN cases) */
#define NE 8
__kernel void explog_f(__global const float *x, __global const float *y, __global const int *n,
                       __global float *out)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    __global float *o = out + i * NE;
    o[0] = exp(a);
    o[1] = exp10(a);
    o[2] = log(a);
    o[3] = log10(a);
    o[4] = pow(a, b);
    o[5] = powr(a, b);
    o[6] = pown(a, n[i]);
    o[7] = rootn(a, n[i]);
}

__kernel void explog_d(__global const double *x, __global const double *y, __global const int *n,
                       __global double *out)
{
    size_t i = get_global_id(0);
    double a = x[i], b = y[i];
    __global double *o = out + i * NE;
    o[0] = exp(a);
    o[1] = exp10(a);
    o[2] = log(a);
    o[3] = log10(a);
    o[4] = pow(a, b);
    o[5] = powr(a, b);
    o[6] = pown(a, n[i]);
    o[7] = rootn(a, n[i]);
}
