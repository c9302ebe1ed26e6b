// Variants of tests/kernels/mathfn.cl `vecptr` for tools/igc_fit.py
// (docs/regalloc.md, Functions of the same operands): does IGC's register
// demand depend on lgamma_r of x and of -x reading one value?
#define HEAD(name) __kernel void name(__global const float *x, __global const float *y, \
    __global const float *z, __global float *out, __global int *iout) \
{ size_t i = get_global_id(0);

// vecptr as in the corpus, and with -x replaced by -z (another load)
#define VECPTR(name, neg) HEAD(name) \
    float4 a = (float4)(x[i], y[i], neg, x[i] * 0.5f); \
    float4 b = (float4)(y[i], x[i], 3.0f, -y[i]); \
    int4 q, s; \
    float4 r = remquo(a, b, &q); \
    float4 l = lgamma_r(a, &s); \
    vstore4(r, 2 * i, out); vstore4(l, 2 * i + 1, out); \
    vstore4(q, 2 * i, iout); vstore4(s, 2 * i + 1, iout); }
VECPTR(vecptr_neg_x, -x[i])
VECPTR(vecptr_neg_z, -z[i])

// remquo's quotients stored before lgamma_r (not live across it)
HEAD(vecptr_q_first)
    float4 a = (float4)(x[i], y[i], -x[i], x[i] * 0.5f);
    float4 b = (float4)(y[i], x[i], 3.0f, -y[i]);
    int4 q, s;
    float4 r = remquo(a, b, &q);
    vstore4(q, 2 * i, iout);
    float4 l = lgamma_r(a, &s);
    vstore4(r, 2 * i, out); vstore4(l, 2 * i + 1, out);
    vstore4(s, 2 * i + 1, iout); }

// two scalar lgamma_r: of x and -x, of x and -z
#define LG2(name, neg) HEAD(name) \
    int s, t; \
    out[2 * i] = lgamma_r(x[i], &s); \
    out[2 * i + 1] = lgamma_r(neg, &t); \
    iout[i] = s + t; }
LG2(lgamma_neg_x, -x[i])
LG2(lgamma_neg_z, -z[i])
