/* spirv_extra.c - OpenCL.std functions and relational instructions that have
 * a short exact lowering onto sgemu instructions (one table row each):
 * rounding (floor, ceil, trunc, rint, round), copysign, fdim, maxmag,
 * minmag, step, sign, mix, degrees, radians, select, bitselect, ctz,
 * rotate, add_sat, sub_sat, hadd, rhadd, abs_diff, mad_hi, upsample; the
 * geometric dot, cross, length, distance (+ fast_), OpDot; OpIsFinite,
 * OpIsNormal, OpSignBitSet, OpOrdered, OpUnordered, OpAny, OpAll. */
#include "spirv_private.h"

#include <math.h>
#include <stdio.h>

/* ---- type helpers ---- */

static unsigned bits_of(isa_type t) { return isa_types[t].bytes * 8u; }

static isa_type uint_of(isa_type t)
{
    switch (isa_types[t].bytes) {
    case 1: return ISA_T_U8;
    case 2: return ISA_T_U16;
    case 4: return ISA_T_U32;
    default: return ISA_T_U64;
    }
}

static isa_type sint_of(isa_type t) { return spv_signed(uint_of(t)); }

/* The bits of float constant v in type t. */
static isa_operand fconst(isa_type t, double v)
{
    if (t == ISA_T_F64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return spv_I(b);
    }
    if (t == ISA_T_F16)
        return spv_I(isa_f64_to_f16(v));
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return spv_I(b);
}

static uint64_t sign_bit(isa_type t) { return 1ull << (bits_of(t) - 1); }
static uint64_t all_ones(isa_type t) { return bits_of(t) >= 64 ? ~0ull : (1ull << bits_of(t)) - 1; }

/* copysign on bits: magnitude of a, sign of b */
static uint32_t copysign_bits(xctx *x, isa_type t, isa_operand a, isa_operand b)
{
    isa_type u = uint_of(t);
    uint32_t m = spv_op2(x, ISA_OP_AND, u, a, spv_I(all_ones(t) ^ sign_bit(t)));
    uint32_t s = spv_op2(x, ISA_OP_AND, u, b, spv_I(sign_bit(t)));
    return spv_op2(x, ISA_OP_OR, u, spv_R(m), spv_R(s));
}

/* ---- per-component lowerings: t result type, s sources ---- */

typedef uint32_t (*low_fn)(xctx *x, isa_type t, const isa_operand *s, int kind);

/* floor/ceil/trunc/rint through a rounding cvt to i64 when |x| < 2^52 (f64)
 * or 2^23 (f32): larger values, infinities and NaN are already integral;
 * the sign of x is kept (floor(-0) = -0, ceil(-0.5) = -0). */
static uint32_t low_round(xctx *x, isa_type t, const isa_operand *s, int rnd)
{
    uint32_t i = spv_cvt(x, ISA_T_I64, t, s[0]);
    x->code[x->ncode - 1].flags = (uint16_t)(rnd << ISA_F_RND_SHIFT);
    uint32_t f = spv_cvt(x, t, ISA_T_I64, spv_R(i));
    uint32_t a = spv_op1(x, ISA_OP_ABS, t, s[0]);
    isa_operand small = spv_cmp(x, ISA_BINOP_LT, t, spv_R(a),
                              fconst(t, t == ISA_T_F64 ? 4503599627370496.0 : 8388608.0));
    uint32_t r = spv_sel(x, t, small, spv_R(f), s[0]);
    return copysign_bits(x, t, spv_R(r), s[0]);
}

/* round: half way away from zero, from trunc and the exact x - trunc(x) */
static uint32_t low_round_away(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t tr = low_round(x, t, s, ISA_RND_RTZ);
    uint32_t d = spv_op2(x, ISA_OP_SUB, t, s[0], spv_R(tr));
    uint32_t da = spv_op1(x, ISA_OP_ABS, t, spv_R(d));
    uint32_t one = copysign_bits(x, t, fconst(t, 1.0), s[0]);
    uint32_t up = spv_op2(x, ISA_OP_ADD, t, spv_R(tr), spv_R(one));
    isa_operand half = spv_cmp(x, ISA_BINOP_GE, t, spv_R(da), fconst(t, 0.5));
    return spv_sel(x, t, half, spv_R(up), spv_R(tr));
}

static uint32_t low_copysign(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    return copysign_bits(x, t, s[0], s[1]);
}

/* fdim: x - y if x > y, +0 if x <= y, NaN if either is NaN */
static uint32_t low_fdim(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t d = spv_op2(x, ISA_OP_SUB, t, s[0], s[1]);
    return spv_sel(x, t, spv_cmp(x, ISA_BINOP_LE, t, s[0], s[1]), spv_I(0), spv_R(d));
}

/* maxmag (kind 0) / minmag (1): the larger/smaller magnitude, else fmax/fmin */
static uint32_t low_mag(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    uint32_t ax = spv_op1(x, ISA_OP_ABS, t, s[0]), ay = spv_op1(x, ISA_OP_ABS, t, s[1]);
    isa_binop c = kind ? ISA_BINOP_LT : ISA_BINOP_GT;
    uint32_t m = spv_op2(x, kind ? ISA_OP_MIN : ISA_OP_MAX, t, s[0], s[1]);
    uint32_t r = spv_sel(x, t, spv_cmp(x, c, t, spv_R(ay), spv_R(ax)), s[1], spv_R(m));
    return spv_sel(x, t, spv_cmp(x, c, t, spv_R(ax), spv_R(ay)), s[0], spv_R(r));
}

/* step(edge, x): x < edge ? 0 : 1 */
static uint32_t low_step(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    return spv_sel(x, t, spv_cmp(x, ISA_BINOP_LT, t, s[1], s[0]), fconst(t, 0.0), fconst(t, 1.0));
}

/* sign: 1 for x > 0, -1 for x < 0, x for zeros, 0 for NaN */
static uint32_t low_sign(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t r = spv_sel(x, t, spv_cmp(x, ISA_BINOP_EQ, t, s[0], s[0]), s[0], fconst(t, 0.0));
    r = spv_sel(x, t, spv_cmp(x, ISA_BINOP_GT, t, s[0], fconst(t, 0.0)), fconst(t, 1.0), spv_R(r));
    return spv_sel(x, t, spv_cmp(x, ISA_BINOP_LT, t, s[0], fconst(t, 0.0)), fconst(t, -1.0), spv_R(r));
}

/* mix(x, y, a) = x + (y - x) * a */
static uint32_t low_mix(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t d = spv_op2(x, ISA_OP_SUB, t, s[1], s[0]);
    uint32_t p = spv_op2(x, ISA_OP_MUL, t, spv_R(d), s[2]);
    return spv_op2(x, ISA_OP_ADD, t, s[0], spv_R(p));
}

/* degrees (kind 0) = 180/pi r, radians (1) = pi/180 d */
static uint32_t low_angle(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    return spv_op2(x, ISA_OP_MUL, t, s[0],
                 fconst(t, kind ? 0.017453292519943295769 : 57.295779513082320877));
}

/* bitselect(a, b, c) = (a & ~c) | (b & c), on the bits */
static uint32_t low_bitselect(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t nc = spv_op1(x, ISA_OP_NOT, u, s[2]);
    uint32_t a = spv_op2(x, ISA_OP_AND, u, s[0], spv_R(nc));
    uint32_t b = spv_op2(x, ISA_OP_AND, u, s[1], s[2]);
    return spv_op2(x, ISA_OP_OR, u, spv_R(a), spv_R(b));
}

/* ctz: popcount((x & -x) - 1); ctz(0) = the width */
static uint32_t low_ctz(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t n = spv_op1(x, ISA_OP_NEG, spv_signed(u), s[0]);
    uint32_t lo = spv_op2(x, ISA_OP_AND, u, s[0], spv_R(n));
    uint32_t m = spv_op2(x, ISA_OP_SUB, u, spv_R(lo), spv_I(1));
    return spv_op1(x, ISA_OP_POPCOUNT, u, spv_R(m));
}

/* rotate(v, i) = v << r | v >> ((w - r) mod w), r = i mod w */
static uint32_t low_rotate(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint64_t w = bits_of(t);
    uint32_t r = spv_op2(x, ISA_OP_AND, u, s[1], spv_I(w - 1));
    uint32_t l = spv_op2(x, ISA_OP_SHL, u, s[0], spv_R(r));
    uint32_t nr = spv_op2(x, ISA_OP_SUB, u, spv_I(w), spv_R(r));
    uint32_t nm = spv_op2(x, ISA_OP_AND, u, spv_R(nr), spv_I(w - 1));
    uint32_t h = spv_op2(x, ISA_OP_SHR, u, s[0], spv_R(nm));
    return spv_op2(x, ISA_OP_OR, u, spv_R(l), spv_R(h));
}

/* add_sat (kind 0) / sub_sat (1), signedness from t */
static uint32_t low_sat(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    isa_opcode op = kind ? ISA_OP_SUB : ISA_OP_ADD;
    bool sg = isa_types[t].is_signed;
    if (bits_of(t) < 64) {   /* exact in 64 bits, then clamp */
        isa_type w = sg ? ISA_T_I64 : ISA_T_U64;
        uint32_t a = spv_cvt(x, w, t, s[0]), b = spv_cvt(x, w, t, s[1]);
        uint32_t r = spv_op2(x, op, ISA_T_I64, spv_R(a), spv_R(b));
        uint64_t hi = sg ? all_ones(t) >> 1 : all_ones(t);
        uint64_t lo = sg ? (uint64_t)-(int64_t)(sign_bit(t)) : 0;
        uint32_t c = spv_op2(x, ISA_OP_MIN, ISA_T_I64, spv_R(r), spv_I(hi));
        c = spv_op2(x, ISA_OP_MAX, ISA_T_I64, spv_R(c), spv_I(lo));
        return spv_cvt(x, t, ISA_T_I64, spv_R(c));
    }
    uint32_t r = spv_op2(x, op, t, s[0], s[1]);
    if (!sg) {   /* wrapped: the sum is below a / the difference above a */
        isa_operand ov = spv_cmp(x, kind ? ISA_BINOP_GT : ISA_BINOP_LT, t, spv_R(r), s[0]);
        return spv_sel(x, t, ov, spv_I(kind ? 0 : ~0ull), spv_R(r));
    }
    /* signed overflow: the result's sign differs from a's where b's sign
     * agrees with a's (add) or differs from it (sub) */
    uint32_t ar = spv_op2(x, ISA_OP_XOR, t, s[0], spv_R(r));
    uint32_t ab = spv_op2(x, ISA_OP_XOR, t, s[0], s[1]);
    uint32_t q = kind ? spv_op2(x, ISA_OP_AND, t, spv_R(ar), spv_R(ab))
                      : spv_op2(x, ISA_OP_AND, t, spv_R(ar), spv_R(spv_op1(x, ISA_OP_NOT, t, spv_R(ab))));
    isa_operand ov = spv_cmp(x, ISA_BINOP_LT, ISA_T_I64, spv_R(q), spv_I(0));
    isa_operand neg = spv_cmp(x, ISA_BINOP_LT, ISA_T_I64, s[0], spv_I(0));
    uint32_t lim = spv_sel(x, t, neg, spv_I(sign_bit(t)), spv_I(sign_bit(t) - 1));
    return spv_sel(x, t, ov, spv_R(lim), spv_R(r));
}

/* hadd (kind 0) = (x >> 1) + (y >> 1) + (x & y & 1); rhadd (1) with x | y */
static uint32_t low_hadd(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    uint32_t a = spv_op2(x, ISA_OP_SHR, t, s[0], spv_I(1));
    uint32_t b = spv_op2(x, ISA_OP_SHR, t, s[1], spv_I(1));
    uint32_t c = spv_op2(x, kind ? ISA_OP_OR : ISA_OP_AND, t, s[0], s[1]);
    uint32_t c1 = spv_op2(x, ISA_OP_AND, t, spv_R(c), spv_I(1));
    uint32_t ab = spv_op2(x, ISA_OP_ADD, t, spv_R(a), spv_R(b));
    return spv_op2(x, ISA_OP_ADD, t, spv_R(ab), spv_R(c1));
}

/* abs_diff: |x - y| as the unsigned type, no overflow */
static uint32_t low_absdiff(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t d1 = spv_op2(x, ISA_OP_SUB, u, s[0], s[1]), d2 = spv_op2(x, ISA_OP_SUB, u, s[1], s[0]);
    return spv_sel(x, u, spv_cmp(x, ISA_BINOP_GT, t, s[0], s[1]), spv_R(d1), spv_R(d2));
}

/* mad_hi(a, b, c) = mul_hi(a, b) + c */
static uint32_t low_madhi(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t h = spv_op2(x, ISA_OP_MUL_HI, t, s[0], s[1]);
    return spv_op2(x, ISA_OP_ADD, t, spv_R(h), s[2]);
}

/* tan = sin / cos, computed in double (libm's sin and cos): float results
 * within 1 ulp; double within a few ulp */
static uint32_t low_tan(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_operand d = t == ISA_T_F64 ? s[0] : spv_R(spv_cvt(x, ISA_T_F64, t, s[0]));
    uint32_t sn = spv_op1(x, ISA_OP_SIN, ISA_T_F64, d), cs = spv_op1(x, ISA_OP_COS, ISA_T_F64, d);
    uint32_t q = spv_op2(x, ISA_OP_DIV, ISA_T_F64, spv_R(sn), spv_R(cs));
    return t == ISA_T_F64 ? q : spv_cvt(x, t, ISA_T_F64, spv_R(q));
}

static uint32_t ldexp_f64(xctx *x, const isa_operand *s);

/* ldexp(x, n) for float: x * 2^n in double (exact for |n| <= 400, which
 * covers every finite float result), rounded once to float; double:
 * ldexp_f64 */
static uint32_t low_ldexp(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    if (t == ISA_T_F64)
        return ldexp_f64(x, s);
    uint32_t n = spv_op2(x, ISA_OP_MIN, ISA_T_I32, s[1], spv_I(400));
    n = spv_op2(x, ISA_OP_MAX, ISA_T_I32, spv_R(n), spv_I((uint32_t)-400));
    uint32_t e = spv_cvt(x, ISA_T_I64, ISA_T_I32, spv_R(n));
    e = spv_op2(x, ISA_OP_ADD, ISA_T_I64, spv_R(e), spv_I(1023));
    e = spv_op2(x, ISA_OP_SHL, ISA_T_U64, spv_R(e), spv_I(52));
    uint32_t d = spv_cvt(x, ISA_T_F64, t, s[0]);
    uint32_t p = spv_op2(x, ISA_OP_MUL, ISA_T_F64, spv_R(d), spv_R(e));
    return spv_cvt(x, t, ISA_T_F64, spv_R(p));
}

/* smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1), t t (3 - 2 t) */
static uint32_t low_smooth(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t n = spv_op2(x, ISA_OP_SUB, t, s[2], s[0]), d = spv_op2(x, ISA_OP_SUB, t, s[1], s[0]);
    uint32_t q = spv_op2(x, ISA_OP_DIV, t, spv_R(n), spv_R(d));
    q = spv_op2(x, ISA_OP_MAX, t, spv_R(q), fconst(t, 0.0));
    q = spv_op2(x, ISA_OP_MIN, t, spv_R(q), fconst(t, 1.0));
    uint32_t q2 = spv_op2(x, ISA_OP_MUL, t, spv_R(q), spv_R(q));
    uint32_t tq = spv_op2(x, ISA_OP_MUL, t, fconst(t, 2.0), spv_R(q));
    uint32_t w = spv_op2(x, ISA_OP_SUB, t, fconst(t, 3.0), spv_R(tq));
    return spv_op2(x, ISA_OP_MUL, t, spv_R(q2), spv_R(w));
}

/* The unbiased exponent of float or double x as an i32 register, from the
 * double bits (float subnormals are normal there, double ones are scaled by
 * 2^64 first); *fin: x finite and non-zero. */
static uint32_t exponent_of(xctx *x, isa_type t, isa_operand v, isa_operand *fin)
{
    uint32_t d = spv_cvt(x, ISA_T_F64, t, v);
    isa_operand sub = spv_I(0);
    if (t == ISA_T_F64) {
        uint32_t ad = spv_op1(x, ISA_OP_ABS, t, spv_R(d));
        sub = spv_cmp(x, ISA_BINOP_LT, t, spv_R(ad), fconst(t, 0x1p-1022));
        d = spv_sel(x, t, sub, spv_R(spv_op2(x, ISA_OP_MUL, t, spv_R(d), fconst(t, 0x1p64))), spv_R(d));
    }
    uint32_t e = spv_op2(x, ISA_OP_SHR, ISA_T_U64, spv_R(d), spv_I(52));
    e = spv_op2(x, ISA_OP_AND, ISA_T_U64, spv_R(e), spv_I(0x7ff));
    e = spv_op2(x, ISA_OP_SUB, ISA_T_I32, spv_R(e), spv_I(1023));
    if (t == ISA_T_F64)
        e = spv_sel(x, ISA_T_I32, sub, spv_R(spv_op2(x, ISA_OP_SUB, ISA_T_I32, spv_R(e), spv_I(64))), spv_R(e));
    uint32_t a = spv_op1(x, ISA_OP_ABS, t, v);
    *fin = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_LT, t, spv_R(a), fconst(t, INFINITY)),
                 spv_cmp(x, ISA_BINOP_GT, t, spv_R(a), fconst(t, 0.0)));
    return e;
}

/* ilogb: the exponent; FP_ILOGB0 (INT_MIN) for 0, FP_ILOGBNAN (INT_MIN) for
 * NaN, INT_MAX for infinities (clang's opencl-c-base.h values) */
static uint32_t low_ilogb(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_operand fin;
    uint32_t e = exponent_of(x, t, s[0], &fin);
    /* FP_ILOGB0 = INT_MIN for zeros; infinities and NaN (FP_ILOGBNAN) give
     * INT_MAX: OpenCL C defines FP_ILOGBNAN as INT_MAX, unlike some libcs */
    isa_operand zero = spv_cmp(x, ISA_BINOP_EQ, t, s[0], fconst(t, 0.0));
    uint32_t r = spv_sel(x, ISA_T_I32, zero, spv_I(0x80000000u), spv_I(0x7fffffff));
    return spv_sel(x, ISA_T_I32, fin, spv_R(e), spv_R(r));
}

/* logb: the exponent as a float; -inf for 0, +inf for infinities, NaN */
static uint32_t low_logb(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_operand fin;
    uint32_t e = exponent_of(x, t, s[0], &fin);
    uint32_t ef = spv_cvt(x, t, ISA_T_I32, spv_R(e));
    uint32_t a = spv_op1(x, ISA_OP_ABS, t, s[0]);
    uint32_t r = spv_sel(x, t, spv_cmp(x, ISA_BINOP_EQ, t, spv_R(a), fconst(t, 0.0)),
                     fconst(t, -INFINITY), spv_R(a));      /* inf -> inf, NaN -> NaN */
    return spv_sel(x, t, fin, spv_R(ef), spv_R(r));
}

/* ldexp(x, n) for double, exact: x = m 2^e with m in [1, 2) taken from the
 * bits (subnormals scaled by 2^64 first); E = e + n (n clamped to +-4000).
 * Normal E: m 2^E, one exact multiply; E > 1023: +-inf; below: the
 * subnormal multiple rint(m 2^(E + 1074)) 2^-1074 (the one rounding, to
 * nearest even; E under -1134 gives 0); x's sign last.  0, infinities and
 * NaN give x. */
static uint32_t ldexp_f64(xctx *x, const isa_operand *s)
{
    const isa_type d = ISA_T_F64;
    isa_operand fin;
    uint32_t e = exponent_of(x, d, s[0], &fin);
    uint32_t a = spv_op1(x, ISA_OP_ABS, d, s[0]);
    isa_operand sub = spv_cmp(x, ISA_BINOP_LT, d, spv_R(a), fconst(d, 0x1p-1022));
    uint32_t as = spv_sel(x, d, sub, spv_R(spv_op2(x, ISA_OP_MUL, d, spv_R(a), fconst(d, 0x1p64))), spv_R(a));
    uint32_t m = spv_op2(x, ISA_OP_AND, ISA_T_U64, spv_R(as), spv_I(0x000fffffffffffffull));
    m = spv_op2(x, ISA_OP_OR, ISA_T_U64, spv_R(m), spv_I(0x3ff0000000000000ull));
    uint32_t n = spv_op2(x, ISA_OP_MIN, ISA_T_I32, s[1], spv_I(4000));
    n = spv_op2(x, ISA_OP_MAX, ISA_T_I32, spv_R(n), spv_I((uint32_t)-4000));
    uint32_t E = spv_op2(x, ISA_OP_ADD, ISA_T_I32, spv_R(e), spv_R(n));
    /* normal: 2^E from its exponent field (E clamped into range) */
    uint32_t En = spv_op2(x, ISA_OP_MAX, ISA_T_I32, spv_R(E), spv_I((uint32_t)-1022));
    En = spv_op2(x, ISA_OP_MIN, ISA_T_I32, spv_R(En), spv_I(1023));
    uint32_t pw = spv_cvt(x, ISA_T_I64, ISA_T_I32, spv_R(En));
    pw = spv_op2(x, ISA_OP_ADD, ISA_T_I64, spv_R(pw), spv_I(1023));
    pw = spv_op2(x, ISA_OP_SHL, ISA_T_U64, spv_R(pw), spv_I(52));
    uint32_t r = spv_op2(x, ISA_OP_MUL, d, spv_R(m), spv_R(pw));
    /* subnormal: m 2^(E + 1074) < 2^53 rounded to an integer, times 2^-1074 */
    uint32_t Es = spv_op2(x, ISA_OP_MAX, ISA_T_I32, spv_R(E), spv_I((uint32_t)-1134));
    uint32_t ps = spv_cvt(x, ISA_T_I64, ISA_T_I32, spv_R(Es));
    ps = spv_op2(x, ISA_OP_ADD, ISA_T_I64, spv_R(ps), spv_I(1023 + 1074));
    ps = spv_op2(x, ISA_OP_SHL, ISA_T_U64, spv_R(ps), spv_I(52));
    uint32_t q = spv_op2(x, ISA_OP_MUL, d, spv_R(m), spv_R(ps));
    uint32_t qi = spv_cvt(x, ISA_T_I64, d, spv_R(q));
    x->code[x->ncode - 1].flags = (uint16_t)(ISA_RND_RTE << ISA_F_RND_SHIFT);
    uint32_t qs = spv_op2(x, ISA_OP_MUL, d, spv_R(spv_cvt(x, d, ISA_T_I64, spv_R(qi))), spv_I(1));
    r = spv_sel(x, d, spv_cmp(x, ISA_BINOP_LT, ISA_T_I32, spv_R(E), spv_I((uint32_t)-1022)), spv_R(qs), spv_R(r));
    r = spv_sel(x, d, spv_cmp(x, ISA_BINOP_GT, ISA_T_I32, spv_R(E), spv_I(1023)), fconst(d, INFINITY), spv_R(r));
    uint32_t sg = spv_op2(x, ISA_OP_AND, ISA_T_U64, s[0], spv_I(sign_bit(d)));
    r = spv_op2(x, ISA_OP_OR, ISA_T_U64, spv_R(r), spv_R(sg));
    return spv_sel(x, d, fin, spv_R(r), s[0]);
}

/* nextafter(x, y): the neighbour of x toward y, on the bits (ordered like
 * sign-magnitude integers); x == y gives y, a NaN operand NaN, and from a
 * zero the smallest subnormal with y's sign */
static uint32_t low_nextafter(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t up = spv_op2(x, ISA_OP_ADD, u, s[0], spv_I(1));
    uint32_t dn = spv_op2(x, ISA_OP_SUB, u, s[0], spv_I(1));
    isa_operand xpos = spv_cmp(x, ISA_BINOP_GT, t, s[0], fconst(t, 0.0));
    isa_operand ygt = spv_cmp(x, ISA_BINOP_GT, t, s[1], s[0]);
    isa_operand toward0 = spv_pop(x, ISA_OP_PXOR, xpos, ygt);   /* x>0 != y>x: toward 0 */
    uint32_t r = spv_sel(x, u, toward0, spv_R(dn), spv_R(up));
    /* from +-0: the smallest subnormal with y's sign */
    uint32_t tiny = copysign_bits(x, t, spv_I(1), s[1]);
    r = spv_sel(x, u, spv_cmp(x, ISA_BINOP_EQ, t, s[0], fconst(t, 0.0)), spv_R(tiny), spv_R(r));
    r = spv_sel(x, u, spv_cmp(x, ISA_BINOP_EQ, t, s[0], s[1]), s[1], spv_R(r));
    uint32_t nan = spv_op2(x, ISA_OP_ADD, t, s[0], s[1]);   /* NaN when either is */
    isa_operand ord = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_EQ, t, s[0], s[0]),
                            spv_cmp(x, ISA_BINOP_EQ, t, s[1], s[1]));
    return spv_sel(x, u, ord, spv_R(r), spv_R(nan));
}

/* nan(code): a quiet NaN carrying the code in its payload */
static uint32_t low_nan(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    bool d = t == ISA_T_F64;
    uint32_t p = spv_op2(x, ISA_OP_AND, uint_of(t), s[0], spv_I(d ? 0x7ffffffffffffull : 0x3fffff));
    return spv_op2(x, ISA_OP_OR, uint_of(t), spv_R(p),
                 spv_I(d ? 0x7ff8000000000000ull : 0x7fc00000u));
}

typedef struct ext_row {
    const char *name;
    uint8_t nsrc, sign;     /* sign: 0 from the type, 1 signed, 2 unsigned */
    bool isfloat;
    /* not computed for half through float: the result is a neighbour in
     * the type itself, which float's neighbours are not */
    bool no_f16;
    int kind;
    low_fn fn;
} ext_row;

static const ext_row ext_rows[] = {
    { "floor", 1, 0, true, false, ISA_RND_RTN, low_round }, { "ceil", 1, 0, true, false, ISA_RND_RTP, low_round },
    { "trunc", 1, 0, true, false, ISA_RND_RTZ, low_round }, { "rint", 1, 0, true, false, ISA_RND_RTE, low_round },
    { "round", 1, 0, true, false, 0, low_round_away }, { "copysign", 2, 0, true, false, 0, low_copysign },
    { "fdim", 2, 0, true, false, 0, low_fdim }, { "maxmag", 2, 0, true, false, 0, low_mag },
    { "minmag", 2, 0, true, false, 1, low_mag }, { "step", 2, 0, true, false, 0, low_step },
    { "sign", 1, 0, true, false, 0, low_sign }, { "mix", 3, 0, true, false, 0, low_mix },
    { "degrees", 1, 0, true, false, 0, low_angle }, { "radians", 1, 0, true, false, 1, low_angle },
    { "select", 3, 0, false, false, 0, NULL }, { "bitselect", 3, 0, false, false, 0, low_bitselect },
    { "ctz", 1, 0, false, false, 0, low_ctz }, { "rotate", 2, 2, false, false, 0, low_rotate },
    { "s_add_sat", 2, 1, false, false, 0, low_sat }, { "u_add_sat", 2, 2, false, false, 0, low_sat },
    { "s_sub_sat", 2, 1, false, false, 1, low_sat }, { "u_sub_sat", 2, 2, false, false, 1, low_sat },
    { "s_hadd", 2, 1, false, false, 0, low_hadd }, { "u_hadd", 2, 2, false, false, 0, low_hadd },
    { "s_rhadd", 2, 1, false, false, 1, low_hadd }, { "u_rhadd", 2, 2, false, false, 1, low_hadd },
    { "s_abs_diff", 2, 1, false, false, 0, low_absdiff }, { "u_abs_diff", 2, 2, false, false, 0, low_absdiff },
    { "s_mad_hi", 3, 1, false, false, 0, low_madhi }, { "u_mad_hi", 3, 2, false, false, 0, low_madhi },
    { "tan", 1, 0, true, false, 0, low_tan }, { "native_tan", 1, 0, true, false, 0, low_tan },
    { "half_tan", 1, 0, true, false, 0, low_tan }, { "ldexp", 2, 0, true, false, 0, low_ldexp },
    { "smoothstep", 3, 0, true, false, 0, low_smooth },
    { "ilogb", 1, 0, false, false, 0, low_ilogb }, { "logb", 1, 0, true, false, 0, low_logb },
    { "nan", 1, 0, false, false, 0, low_nan },
    { "nextafter", 2, 0, true, true, 0, low_nextafter },
};

static void set_result(xctx *x, xfn *f, uint32_t id, const uint32_t *regs, unsigned n)
{
    xval *v = spv_def(x, f, id, n);
    for (unsigned c = 0; v && c < n; c++) {
        v->c[c].o = spv_R(regs[c]);
        v->c[c].space = X_SPACE_NONE;
    }
}

/* dot of n components in type t (sequential multiply-adds, no fusion) */
static uint32_t dot(xctx *x, isa_type t, const xval *a, const xval *b)
{
    uint32_t acc = spv_op2(x, ISA_OP_MUL, t, spv_src(x, &a->c[0]), spv_src(x, &b->c[0]));
    for (unsigned c = 1; c < a->n; c++) {
        uint32_t p = spv_op2(x, ISA_OP_MUL, t, spv_src(x, &a->c[c]), spv_src(x, &b->c[c]));
        acc = spv_op2(x, ISA_OP_ADD, t, spv_R(acc), spv_R(p));
    }
    return acc;
}

static bool geometric(xctx *x, xfn *f, const spv_inst *in, const char *name, unsigned first)
{
    spv_module *m = x->m;
    bool is_dot = !strcmp(name, "dot"), is_cross = !strcmp(name, "cross");
    bool is_len = !strcmp(name, "length") || !strcmp(name, "fast_length");
    bool is_dist = !strcmp(name, "distance") || !strcmp(name, "fast_distance");
    bool is_norm = !strcmp(name, "normalize") || !strcmp(name, "fast_normalize");
    if (!is_dot && !is_cross && !is_len && !is_dist && !is_norm)
        return false;
    unsigned n = is_len || is_norm ? 1 : 2;
    xval *s[2] = { NULL, NULL };
    for (unsigned i = 0; i < n; i++)
        if (in->nw <= first + i || !(s[i] = spv_val(x, f, spv_word(m, in, first + i))) || !s[i]->n)
            return true;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    const spv_type *at = spv_value_type(x, spv_word(m, in, first));
    if (!t || !at)
        return true;
    isa_type ct = spv_comp_type(at);
    if (ct != ISA_T_F32 && ct != ISA_T_F64) {
        spv_error(x, "'%s' is lowered for float and double only", name);
        return true;
    }
    uint32_t id = spv_word(m, in, 2);
    if (is_norm) {
        /* v / |v| in double; all-zero v is returned as is; with infinite
         * components, the vector of their signs (1 for each infinity, 0
         * elsewhere) is normalised instead */
        if (ct != ISA_T_F32) {
            spv_error(x, "'%s' is lowered for float only", name);
            return true;
        }
        unsigned nc = s[0]->n;
        uint32_t d[XV_MAX] = { 0 }, inf[XV_MAX] = { 0 }, r[XV_MAX] = { 0 };
        if (nc < 1 || nc > 4) {
            spv_error(x, "'%s' takes 1 to 4 components", name);
            return true;
        }
        isa_operand any = spv_I(0);
        for (unsigned c = 0; c < nc; c++) {
            isa_operand v = spv_src(x, &s[0]->c[c]);
            isa_operand pi = spv_cmp(x, ISA_BINOP_EQ, ct, spv_R(spv_op1(x, ISA_OP_ABS, ct, v)),
                                   fconst(ct, INFINITY));
            inf[c] = spv_sel(x, ISA_T_F64, pi, spv_R(copysign_bits(x, ISA_T_F64, fconst(ISA_T_F64, 1.0),
                                                           spv_R(spv_cvt(x, ISA_T_F64, ct, v)))),
                         fconst(ISA_T_F64, 0.0));
            any = c ? spv_pop(x, ISA_OP_POR, any, pi) : spv_pop(x, ISA_OP_PAND, pi, pi);
            d[c] = spv_cvt(x, ISA_T_F64, ct, v);
        }
        for (unsigned c = 0; c < nc; c++)
            d[c] = spv_sel(x, ISA_T_F64, any, spv_R(inf[c]), spv_R(d[c]));
        uint32_t sum = spv_op2(x, ISA_OP_MUL, ISA_T_F64, spv_R(d[0]), spv_R(d[0]));
        for (unsigned c = 1; c < nc; c++)
            sum = spv_op2(x, ISA_OP_ADD, ISA_T_F64, spv_R(sum),
                        spv_R(spv_op2(x, ISA_OP_MUL, ISA_T_F64, spv_R(d[c]), spv_R(d[c]))));
        uint32_t len = spv_op1(x, ISA_OP_SQRT, ISA_T_F64, spv_R(sum));
        isa_operand zero = spv_cmp(x, ISA_BINOP_EQ, ISA_T_F64, spv_R(len), fconst(ISA_T_F64, 0.0));
        for (unsigned c = 0; c < nc; c++) {
            uint32_t q = spv_op2(x, ISA_OP_DIV, ISA_T_F64, spv_R(d[c]), spv_R(len));
            uint32_t qf = spv_cvt(x, ct, ISA_T_F64, spv_R(q));
            r[c] = spv_sel(x, ct, zero, spv_src(x, &s[0]->c[c]), spv_R(qf));
        }
        set_result(x, f, id, r, nc);
        return true;
    }
    if (is_cross) {
        if (!s[1] || s[0]->n < 3 || s[1]->n < 3) {
            spv_error(x, "cross needs 3 or 4 components");
            return true;
        }
        uint32_t r[4];
        static const int ia[3] = { 1, 2, 0 }, ib[3] = { 2, 0, 1 };
        for (int c = 0; c < 3; c++) {
            uint32_t p = spv_op2(x, ISA_OP_MUL, ct, spv_src(x, &s[0]->c[ia[c]]),
                               spv_src(x, &s[1]->c[ib[c]]));
            uint32_t q = spv_op2(x, ISA_OP_MUL, ct, spv_src(x, &s[0]->c[ib[c]]),
                               spv_src(x, &s[1]->c[ia[c]]));
            r[c] = spv_op2(x, ISA_OP_SUB, ct, spv_R(p), spv_R(q));
        }
        r[3] = spv_op1(x, ISA_OP_MOV, ct, spv_I(0));
        set_result(x, f, id, r, t->ncomp);
        return true;
    }
    uint32_t r;
    if (is_dot) {
        r = dot(x, ct, s[0], s[1]);
    } else {
        xval d = *s[0];
        if (is_dist)
            for (unsigned c = 0; c < d.n; c++) {
                d.c[c].o = spv_R(spv_op2(x, ISA_OP_SUB, ct, spv_src(x, &s[0]->c[c]),
                                     spv_src(x, &s[1]->c[c])));
                d.c[c].has_pred = 0;
            }
        /* sqrt of the sum of squares, in double for float so that it
         * neither overflows nor underflows before the square root */
        xval w = d;
        isa_type wt = ct == ISA_T_F32 ? ISA_T_F64 : ct;
        if (wt != ct)
            for (unsigned c = 0; c < w.n; c++) {
                w.c[c].o = spv_R(spv_cvt(x, wt, ct, spv_src(x, &d.c[c])));
                w.c[c].has_pred = 0;
            }
        r = spv_op1(x, ISA_OP_SQRT, wt, spv_R(dot(x, wt, &w, &w)));
        if (wt != ct)
            r = spv_cvt(x, ct, wt, spv_R(r));
    }
    set_result(x, f, id, &r, 1);
    return true;
}

/* upsample(hi, lo): (hi << bits(lo)) | lo in the double-width result */
static bool upsample(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    bool s = !strcmp(name, "s_upsample");
    if (!s && strcmp(name, "u_upsample"))
        return false;
    spv_module *m = x->m;
    xval *hi = in->nw > 6 ? spv_val(x, f, spv_word(m, in, 5)) : NULL;
    xval *lo = in->nw > 6 ? spv_val(x, f, spv_word(m, in, 6)) : NULL;
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    const spv_type *lt = spv_value_type(x, spv_word(m, in, 6));
    if (!hi || !lo || !rt || !lt || !hi->n || !lo->n)
        return true;
    isa_type wt = uint_of(spv_comp_type(rt)), ht = spv_comp_type(lt), lt2 = uint_of(ht);
    if (s)
        ht = sint_of(ht);
    uint32_t regs[XV_MAX];
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        uint32_t h = spv_cvt(x, s ? spv_signed(wt) : wt, s ? ht : lt2, spv_src(x, &hi->c[hi->n == 1 ? 0 : c]));
        uint32_t sh = spv_op2(x, ISA_OP_SHL, wt, spv_R(h), spv_I(bits_of(lt2)));
        uint32_t l = spv_cvt(x, wt, lt2, spv_src(x, &lo->c[lo->n == 1 ? 0 : c]));
        regs[c] = spv_op2(x, ISA_OP_OR, wt, spv_R(sh), spv_R(l));
    }
    set_result(x, f, spv_word(m, in, 2), regs, rt->ncomp);
    return true;
}

/* shuffle(x, mask) and shuffle2(x, y, mask): result component i is
 * component (mask[i] mod m) of x, or of x followed by y, where m is the
 * number of components to choose from (OpenCL C: only the low log2(m)
 * bits of each mask element count).  A constant mask element picks its
 * component at translation time; any other one selects at run time. */
static bool vec_shuffle(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    const bool two = !strcmp(name, "shuffle2");
    if (!two && strcmp(name, "shuffle"))
        return false;
    spv_module *m = x->m;
    const unsigned nin = two ? 2 : 1;
    if (in->nw < 6u + nin) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    xc pool[2 * XV_MAX];
    unsigned total = 0;
    for (unsigned i = 0; i < nin; i++) {
        const xval *v = spv_val(x, f, spv_word(m, in, 5 + i));
        if (!v || !v->n)
            return true;
        for (unsigned c = 0; c < v->n; c++)
            pool[total++] = v->c[c];
    }
    const xval *mask = spv_val(x, f, spv_word(m, in, 5 + nin));
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    const spv_type *mt = spv_value_type(x, spv_word(m, in, 5 + nin));
    if (!mask || !mask->n || !rt || !mt)
        return true;
    if (total & (total - 1)) {
        spv_error(x, "'%s' of %u components (OpenCL C allows 2, 4, 8 or 16)", name, total / nin);
        return true;
    }
    const isa_type ct = spv_comp_type(rt), mct = uint_of(spv_comp_type(mt));
    xval res;
    memset(&res, 0, sizeof res);
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        const xc *k = &mask->c[mask->n == 1 ? 0 : c];
        if (k->o.kind == ISA_OPND_IMM) {
            res.c[c] = pool[k->o.imm & (total - 1)];
        } else {
            const uint32_t idx = spv_op2(x, ISA_OP_AND, mct, spv_src(x, k), spv_I(total - 1));
            isa_operand cur = spv_src(x, &pool[0]);
            for (unsigned j = 1; j < total; j++) {
                isa_operand hit = spv_cmp(x, ISA_BINOP_EQ, mct, spv_R(idx), spv_I(j));
                cur = spv_R(spv_sel(x, ct, hit, spv_src(x, &pool[j]), cur));
            }
            res.c[c].o = cur;
            res.c[c].space = X_SPACE_NONE;
        }
        res.n = (uint8_t)(c + 1);
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), res.n);
    if (v)
        *v = res;
    return true;
}

/* fract, modf, sincos: a result and a second value stored through the
 * pointer operand (one scalar st per component). */
static bool ptr_out(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    int k = !strcmp(name, "fract") ? 0 : !strcmp(name, "modf") ? 1 : !strcmp(name, "sincos") ? 2
          : !strcmp(name, "frexp") ? 3 : -1;
    if (k < 0)
        return false;
    spv_module *m = x->m;
    xval *a = in->nw > 6 ? spv_val(x, f, spv_word(m, in, 5)) : NULL;
    xval *p = in->nw > 6 ? spv_val(x, f, spv_word(m, in, 6)) : NULL;
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    if (!a || !p || !rt || !a->n || !p->n)
        return true;
    isa_type t = spv_comp_type(rt);
    if (t != ISA_T_F32 && t != ISA_T_F64) {
        spv_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    uint32_t res[XV_MAX], out[XV_MAX];
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_operand s = spv_src(x, &a->c[a->n == 1 ? 0 : c]);
        if (k == 3) {          /* frexp: x = m 2^e, 0.5 <= |m| < 1; 0, inf, NaN: x and 0 */
            isa_operand fin;
            uint32_t e = exponent_of(x, t, s, &fin);
            e = spv_op2(x, ISA_OP_ADD, ISA_T_I32, spv_R(e), spv_I(1));
            uint32_t ne = spv_op1(x, ISA_OP_NEG, ISA_T_I32, spv_R(e));
            isa_operand two[2] = { s, spv_R(ne) };
            uint32_t mnt = low_ldexp(x, t, two, 0);
            res[c] = spv_sel(x, t, fin, spv_R(mnt), s);
            out[c] = spv_sel(x, ISA_T_I32, fin, spv_R(e), spv_I(0));
            continue;
        }
        if (k == 2) {          /* sin, cos: the instructions themselves */
            res[c] = spv_op1(x, ISA_OP_SIN, t, s);
            out[c] = spv_op1(x, ISA_OP_COS, t, s);
            continue;
        }
        uint32_t i = low_round(x, t, &s, k == 0 ? ISA_RND_RTN : ISA_RND_RTZ);
        uint32_t d = spv_op2(x, ISA_OP_SUB, t, s, spv_R(i));
        uint32_t ab = spv_op1(x, ISA_OP_ABS, t, s);
        isa_operand inf = spv_cmp(x, ISA_BINOP_EQ, t, spv_R(ab), fconst(t, INFINITY));
        if (k == 0) {          /* fract = fmin(x - floor(x), largest below 1) */
            double below1 = t == ISA_T_F64 ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1;
            uint32_t fr = spv_op2(x, ISA_OP_MIN, t, spv_R(d), fconst(t, below1));
            fr = spv_sel(x, t, spv_cmp(x, ISA_BINOP_EQ, t, s, s), spv_R(fr), s);   /* NaN stays */
            res[c] = spv_sel(x, t, inf, spv_R(copysign_bits(x, t, fconst(t, 0.0), s)), spv_R(fr));
        } else {               /* modf: x - trunc(x) with x's sign */
            uint32_t fr = copysign_bits(x, t, spv_R(d), s);
            res[c] = spv_sel(x, t, inf, spv_R(copysign_bits(x, t, fconst(t, 0.0), s)), spv_R(fr));
        }
        out[c] = i;            /* floor / trunc (x itself for inf and NaN) */
    }
    isa_space sp;
    isa_operand ad = spv_addr_of(x, &p->c[0], &sp);
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_inst *st = spv_emit(x, ISA_OP_ST, k == 3 ? ISA_T_I32 : t);
        st->space = (uint8_t)sp;
        st->o[0] = ad;
        st->o[0].addr.disp = (int64_t)((uint64_t)st->o[0].addr.disp + c * 4u * (k == 3 ? 1u : isa_types[t].bytes / 4u));
        st->o[1] = spv_R(out[c]);
        st->nopnd = 2;
    }
    set_result(x, f, spv_word(m, in, 2), res, rt->ncomp);
    return true;
}

bool spv_lower_extra(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    /* prefetch(p, n): a hint that may do nothing; sgemu's caches need none */
    if (!strcmp(name, "prefetch"))
        return true;
    if (ptr_out(x, f, in, name))
        return true;
    if (geometric(x, f, in, name, 5) || upsample(x, f, in, name) || vec_shuffle(x, f, in, name))
        return true;
    const ext_row *row = NULL;
    for (unsigned i = 0; i < sizeof ext_rows / sizeof ext_rows[0] && !row; i++)
        if (!strcmp(ext_rows[i].name, name))
            row = &ext_rows[i];
    if (!row)
        return false;
    spv_module *m = x->m;
    if (in->nw < 5u + row->nsrc) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    xval *s[3] = { NULL, NULL, NULL };
    const unsigned nsrc = row->nsrc < 3 ? row->nsrc : 3;
    for (unsigned i = 0; i < nsrc; i++)
        if (!(s[i] = spv_val(x, f, spv_word(m, in, 5 + i))) || !s[i]->n)
            return true;
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    if (!rt)
        return true;
    isa_type t = spv_comp_type(rt);
    /* half (cl_khr_fp16): the float lowering on the operands widened
     * exactly, its result rounded once to half.  Every row but no_f16 is
     * exact in float (rounding, sign and magnitude picks, ldexp, logb,
     * ilogb) or a few float ulps from exact, which the one rounding to
     * half's 11 bits keeps within half's bounds */
    bool half = false;
    if (row->isfloat && t == ISA_T_F16 && !row->no_f16) {
        half = true;
        t = ISA_T_F32;
    }
    if (row->isfloat && t != ISA_T_F32 && t != ISA_T_F64) {
        spv_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    bool src16[3] = { false, false, false };
    for (unsigned i = 0; i < nsrc; i++) {
        const spv_type *st = spv_value_type(x, spv_word(m, in, 5 + i));
        src16[i] = st && spv_comp_type(st) == ISA_T_F16;
    }
    if (row->fn == low_ilogb) {   /* the operand's type decides */
        const spv_type *at = spv_value_type(x, spv_word(m, in, 5));
        t = at ? spv_comp_type(at) : ISA_T_NONE;
        if (t == ISA_T_F16) {
            half = true;
            t = ISA_T_F32;
        }
        if (t != ISA_T_F32 && t != ISA_T_F64) {
            spv_error(x, "OpenCL.std 'ilogb' is lowered for float and double only");
            return true;
        }
    }
    if (row->fn == low_nan && t != ISA_T_F32 && t != ISA_T_F64) {
        spv_error(x, "OpenCL.std 'nan' is lowered for float and double only");
        return true;
    }
    if (!row->isfloat && row->sign)
        t = row->sign == 1 ? sint_of(t) : uint_of(t);
    if (row->fn == low_ctz || row->fn == low_rotate || row->fn == low_bitselect) {
        if (row->fn != low_bitselect && isa_types[t].is_float) {
            spv_error(x, "'%s' needs an integer type", name);
            return true;
        }
    }
    uint32_t regs[XV_MAX] = { 0 };
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_operand o[3];
        memset(o, 0, sizeof o);
        for (unsigned i = 0; i < nsrc; i++) {
            o[i] = spv_src(x, &s[i]->c[s[i]->n == 1 ? 0 : c]);
            if (half && src16[i])
                o[i] = spv_R(spv_cvt(x, ISA_T_F32, ISA_T_F16, o[i]));
        }
        if (!row->fn) {
            /* c ? b : a; vectors test the MSB of c (OpenCL select) */
            const spv_type *ct = spv_value_type(x, spv_word(m, in, 7));
            isa_type cty = ct ? sint_of(spv_comp_type(ct)) : ISA_T_I32;
            isa_operand p = rt->ncomp > 1 ? spv_cmp(x, ISA_BINOP_LT, cty, o[2], spv_I(0))
                                          : spv_cmp(x, ISA_BINOP_NE, cty, o[2], spv_I(0));
            regs[c] = spv_sel(x, t, p, o[1], o[0]);
        } else {
            regs[c] = row->fn(x, t, o, row->kind);
            if (half && row->isfloat)
                regs[c] = spv_cvt(x, ISA_T_F16, ISA_T_F32, spv_R(regs[c]));
        }
    }
    set_result(x, f, spv_word(m, in, 2), regs, rt->ncomp);
    return true;
}

/* ---- relational core instructions ---- */

bool spv_op_relational(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    switch (in->op) {
    case SpvOpIsFinite: case SpvOpIsNormal: case SpvOpSignBitSet:
    case SpvOpOrdered: case SpvOpUnordered: case SpvOpAny: case SpvOpAll:
    case SpvOpDot:
        break;
    default:
        return false;
    }
    if (in->op == SpvOpDot) {
        xval *a = spv_val(x, f, spv_word(m, in, 3)), *b = spv_val(x, f, spv_word(m, in, 4));
        const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
        if (!a || !b || !t || !a->n || a->n != b->n)
            return true;
        uint32_t r = dot(x, spv_comp_type(t), a, b);
        set_result(x, f, spv_word(m, in, 2), &r, 1);
        return true;
    }
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    bool two = in->op == SpvOpOrdered || in->op == SpvOpUnordered;
    xval *a = spv_val(x, f, spv_word(m, in, 3));
    xval *b = two ? spv_val(x, f, spv_word(m, in, 4)) : NULL;
    const spv_type *at = spv_value_type(x, spv_word(m, in, 3));
    if (!rt || !a || !a->n || (two && (!b || !b->n)) || !at)
        return true;
    if (in->op == SpvOpAny || in->op == SpvOpAll) {
        isa_operand p = spv_predof(x, &a->c[0]);
        for (unsigned c = 1; c < a->n; c++)
            p = spv_pop(x, in->op == SpvOpAny ? ISA_OP_POR : ISA_OP_PAND, p,
                      spv_predof(x, &a->c[c]));
        if (a->n == 1)
            p = spv_pop(x, ISA_OP_PAND, p, p);
        xval *v = spv_def(x, f, spv_word(m, in, 2), 1);
        if (v)
            spv_set_bool(x, &v->c[0], p.reg, x->slot_gen[p.reg], false);
        return true;
    }
    isa_type t = spv_comp_type(at);
    if (!isa_types[t].is_float) {
        spv_error(x, "%s needs a floating-point operand", spv_op_name(in->op));
        return true;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), rt->ncomp);
    for (unsigned c = 0; v && c < rt->ncomp && c < a->n; c++) {
        isa_operand s = spv_src(x, &a->c[c]), p;
        switch (in->op) {
        case SpvOpIsFinite:
            p = spv_cmp(x, ISA_BINOP_LT, t, spv_R(spv_op1(x, ISA_OP_ABS, t, s)), fconst(t, INFINITY));
            break;
        case SpvOpIsNormal: {
            uint32_t ab = spv_op1(x, ISA_OP_ABS, t, s);
            double mn = t == ISA_T_F64 ? 2.2250738585072014e-308 : t == ISA_T_F16 ? 6.103515625e-05
                                                                                : 1.17549435e-38;
            p = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_GE, t, spv_R(ab), fconst(t, mn)),
                      spv_cmp(x, ISA_BINOP_LT, t, spv_R(ab), fconst(t, INFINITY)));
            break;
        }
        case SpvOpSignBitSet:
            p = spv_cmp(x, ISA_BINOP_LT, sint_of(t), s, spv_I(0));
            break;
        default: {     /* ordered / unordered */
            isa_operand sb = spv_src(x, &b->c[b->n == 1 ? 0 : c]);
            p = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_EQ, t, s, s),
                      spv_cmp(x, ISA_BINOP_EQ, t, sb, sb));
            if (in->op == SpvOpUnordered)
                p = spv_pop(x, ISA_OP_PNOT, p, p);
            break;
        }
        }
        spv_set_bool(x, &v->c[c], p.reg, x->slot_gen[p.reg], false);
    }
    return true;
}

/* ---- OpBitcast between vectors of different component sizes ---- */

void spv_bitcast_regroup(xctx *x, xfn *f, const spv_inst *in, const xval *s,
                       const spv_type *t, const spv_type *st)
{
    isa_type ta = spv_comp_type(st), tb = spv_comp_type(t);
    unsigned a = isa_types[ta].bytes, b = isa_types[tb].bytes, na = st->ncomp, nb = t->ncomp;
    if (na * a != nb * b || na == 3 || nb == 3 || na > XV_MAX || nb > XV_MAX || s->n < na) {
        spv_error(x, "OpBitcast between these types (3-component vectors or different sizes) "
                   "is not supported");
        return;
    }
    uint32_t regs[XV_MAX] = { 0 };
    uint64_t ma = a >= 8 ? ~0ull : (1ull << (8 * a)) - 1, mb = b >= 8 ? ~0ull : (1ull << (8 * b)) - 1;
    if (a < b) {          /* little-endian: component k of a group is bits k*a*8.. */
        unsigned r = b / a;
        for (unsigned j = 0; j < nb; j++) {
            uint32_t acc = 0;
            for (unsigned k = 0; k < r; k++) {
                uint32_t p = spv_op2(x, ISA_OP_AND, ISA_T_U64, spv_src(x, &s->c[j * r + k]), spv_I(ma));
                if (k)
                    p = spv_op2(x, ISA_OP_SHL, ISA_T_U64, spv_R(p), spv_I(k * a * 8));
                acc = k ? spv_op2(x, ISA_OP_OR, ISA_T_U64, spv_R(acc), spv_R(p)) : p;
            }
            regs[j] = acc;
        }
    } else {
        unsigned r = a / b;
        for (unsigned i = 0; i < na; i++)
            for (unsigned k = 0; k < r; k++) {
                isa_operand v = spv_src(x, &s->c[i]);
                uint32_t d = k ? spv_op2(x, ISA_OP_SHR, ISA_T_U64, v, spv_I(k * b * 8))
                               : spv_op1(x, ISA_OP_MOV, ISA_T_U64, v);
                regs[i * r + k] = spv_op2(x, ISA_OP_AND, ISA_T_U64, spv_R(d), spv_I(mb));
            }
    }
    set_result(x, f, spv_word(x->m, in, 2), regs, nb);
}

/* ---- OpSatConvertSToU / OpSatConvertUToS: clamp in 64 bits ---- */

void spv_sat_convert(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    const spv_type *st = spv_value_type(x, spv_word(m, in, 3));
    xval *s = spv_val(x, f, spv_word(m, in, 3));
    if (!t || !st || !s || !s->n)
        return;
    bool s2u = in->op == SpvOpSatConvertSToU;
    isa_type dt = uint_of(spv_comp_type(t)), srt = uint_of(spv_comp_type(st));
    if (isa_types[spv_comp_type(t)].is_float || isa_types[spv_comp_type(st)].is_float) {
        spv_error(x, "saturating conversions are between integer types");
        return;
    }
    if (s2u)
        srt = spv_signed(srt);
    else
        dt = spv_signed(dt);
    uint64_t hi = s2u ? all_ones(dt) : all_ones(dt) >> 1;
    uint32_t regs[XV_MAX];
    for (unsigned c = 0; c < t->ncomp && c < XV_MAX; c++) {
        isa_type wt = s2u ? ISA_T_I64 : ISA_T_U64;
        uint32_t w = spv_cvt(x, wt, srt, spv_src(x, &s->c[s->n == 1 ? 0 : c]));
        if (s2u)
            w = spv_op2(x, ISA_OP_MAX, ISA_T_I64, spv_R(w), spv_I(0));
        if (!(s2u && bits_of(dt) == 64))
            w = spv_op2(x, ISA_OP_MIN, s2u ? ISA_T_I64 : ISA_T_U64, spv_R(w), spv_I(hi));
        regs[c] = spv_cvt(x, dt, wt, spv_R(w));
    }
    set_result(x, f, spv_word(m, in, 2), regs, t->ncomp);
}
