/* spirv_extra.c - OpenCL.std functions and relational instructions that have
 * a short exact lowering onto sgemu instructions (one table row each):
 * rounding (floor, ceil, trunc, rint, round), copysign, fdim, maxmag,
 * minmag, step, sign, mix, degrees, radians, select, bitselect, ctz,
 * rotate, add_sat, sub_sat, hadd, rhadd, abs_diff, mad_hi, upsample; the
 * geometric dot, cross, length, distance (+ fast_), OpDot; OpIsFinite,
 * OpIsNormal, OpSignBitSet, OpOrdered, OpUnordered, OpAny, OpAll. */
#include "spirv_xlate.h"

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

static isa_type sint_of(isa_type t) { return x_signed(uint_of(t)); }

/* The bits of float constant v in type t. */
static isa_operand fconst(isa_type t, double v)
{
    if (t == ISA_T_F64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return x_I(b);
    }
    if (t == ISA_T_F16)
        return x_I(isa_f64_to_f16(v));
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return x_I(b);
}

static uint64_t sign_bit(isa_type t) { return 1ull << (bits_of(t) - 1); }
static uint64_t all_ones(isa_type t) { return bits_of(t) >= 64 ? ~0ull : (1ull << bits_of(t)) - 1; }

/* copysign on bits: magnitude of a, sign of b */
static uint32_t copysign_bits(xctx *x, isa_type t, isa_operand a, isa_operand b)
{
    isa_type u = uint_of(t);
    uint32_t m = x_op2(x, ISA_OP_AND, u, a, x_I(all_ones(t) ^ sign_bit(t)));
    uint32_t s = x_op2(x, ISA_OP_AND, u, b, x_I(sign_bit(t)));
    return x_op2(x, ISA_OP_OR, u, x_R(m), x_R(s));
}

/* ---- per-component lowerings: t result type, s sources ---- */

typedef uint32_t (*low_fn)(xctx *x, isa_type t, const isa_operand *s, int kind);

/* floor/ceil/trunc/rint through a rounding cvt to i64 when |x| < 2^52 (f64)
 * or 2^23 (f32): larger values, infinities and NaN are already integral;
 * the sign of x is kept (floor(-0) = -0, ceil(-0.5) = -0). */
static uint32_t low_round(xctx *x, isa_type t, const isa_operand *s, int rnd)
{
    uint32_t i = x_cvt(x, ISA_T_I64, t, s[0]);
    x->code[x->ncode - 1].flags = (uint16_t)(rnd << ISA_F_RND_SHIFT);
    uint32_t f = x_cvt(x, t, ISA_T_I64, x_R(i));
    uint32_t a = x_op1(x, ISA_OP_ABS, t, s[0]);
    isa_operand small = x_cmp(x, ISA_BINOP_LT, t, x_R(a),
                              fconst(t, t == ISA_T_F64 ? 4503599627370496.0 : 8388608.0));
    uint32_t r = x_sel(x, t, small, x_R(f), s[0]);
    return copysign_bits(x, t, x_R(r), s[0]);
}

/* round: half way away from zero, from trunc and the exact x - trunc(x) */
static uint32_t low_round_away(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t tr = low_round(x, t, s, ISA_RND_RTZ);
    uint32_t d = x_op2(x, ISA_OP_SUB, t, s[0], x_R(tr));
    uint32_t da = x_op1(x, ISA_OP_ABS, t, x_R(d));
    uint32_t one = copysign_bits(x, t, fconst(t, 1.0), s[0]);
    uint32_t up = x_op2(x, ISA_OP_ADD, t, x_R(tr), x_R(one));
    isa_operand half = x_cmp(x, ISA_BINOP_GE, t, x_R(da), fconst(t, 0.5));
    return x_sel(x, t, half, x_R(up), x_R(tr));
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
    uint32_t d = x_op2(x, ISA_OP_SUB, t, s[0], s[1]);
    return x_sel(x, t, x_cmp(x, ISA_BINOP_LE, t, s[0], s[1]), x_I(0), x_R(d));
}

/* maxmag (kind 0) / minmag (1): the larger/smaller magnitude, else fmax/fmin */
static uint32_t low_mag(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    uint32_t ax = x_op1(x, ISA_OP_ABS, t, s[0]), ay = x_op1(x, ISA_OP_ABS, t, s[1]);
    isa_binop c = kind ? ISA_BINOP_LT : ISA_BINOP_GT;
    uint32_t m = x_op2(x, kind ? ISA_OP_MIN : ISA_OP_MAX, t, s[0], s[1]);
    uint32_t r = x_sel(x, t, x_cmp(x, c, t, x_R(ay), x_R(ax)), s[1], x_R(m));
    return x_sel(x, t, x_cmp(x, c, t, x_R(ax), x_R(ay)), s[0], x_R(r));
}

/* step(edge, x): x < edge ? 0 : 1 */
static uint32_t low_step(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    return x_sel(x, t, x_cmp(x, ISA_BINOP_LT, t, s[1], s[0]), fconst(t, 0.0), fconst(t, 1.0));
}

/* sign: 1 for x > 0, -1 for x < 0, x for zeros, 0 for NaN */
static uint32_t low_sign(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t r = x_sel(x, t, x_cmp(x, ISA_BINOP_EQ, t, s[0], s[0]), s[0], fconst(t, 0.0));
    r = x_sel(x, t, x_cmp(x, ISA_BINOP_GT, t, s[0], fconst(t, 0.0)), fconst(t, 1.0), x_R(r));
    return x_sel(x, t, x_cmp(x, ISA_BINOP_LT, t, s[0], fconst(t, 0.0)), fconst(t, -1.0), x_R(r));
}

/* mix(x, y, a) = x + (y - x) * a */
static uint32_t low_mix(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t d = x_op2(x, ISA_OP_SUB, t, s[1], s[0]);
    uint32_t p = x_op2(x, ISA_OP_MUL, t, x_R(d), s[2]);
    return x_op2(x, ISA_OP_ADD, t, s[0], x_R(p));
}

/* degrees (kind 0) = 180/pi r, radians (1) = pi/180 d */
static uint32_t low_angle(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    return x_op2(x, ISA_OP_MUL, t, s[0],
                 fconst(t, kind ? 0.017453292519943295769 : 57.295779513082320877));
}

/* bitselect(a, b, c) = (a & ~c) | (b & c), on the bits */
static uint32_t low_bitselect(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t nc = x_op1(x, ISA_OP_NOT, u, s[2]);
    uint32_t a = x_op2(x, ISA_OP_AND, u, s[0], x_R(nc));
    uint32_t b = x_op2(x, ISA_OP_AND, u, s[1], s[2]);
    return x_op2(x, ISA_OP_OR, u, x_R(a), x_R(b));
}

/* ctz: popcount((x & -x) - 1); ctz(0) = the width */
static uint32_t low_ctz(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t n = x_op1(x, ISA_OP_NEG, x_signed(u), s[0]);
    uint32_t lo = x_op2(x, ISA_OP_AND, u, s[0], x_R(n));
    uint32_t m = x_op2(x, ISA_OP_SUB, u, x_R(lo), x_I(1));
    return x_op1(x, ISA_OP_POPCOUNT, u, x_R(m));
}

/* rotate(v, i) = v << r | v >> ((w - r) mod w), r = i mod w */
static uint32_t low_rotate(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint64_t w = bits_of(t);
    uint32_t r = x_op2(x, ISA_OP_AND, u, s[1], x_I(w - 1));
    uint32_t l = x_op2(x, ISA_OP_SHL, u, s[0], x_R(r));
    uint32_t nr = x_op2(x, ISA_OP_SUB, u, x_I(w), x_R(r));
    uint32_t nm = x_op2(x, ISA_OP_AND, u, x_R(nr), x_I(w - 1));
    uint32_t h = x_op2(x, ISA_OP_SHR, u, s[0], x_R(nm));
    return x_op2(x, ISA_OP_OR, u, x_R(l), x_R(h));
}

/* add_sat (kind 0) / sub_sat (1), signedness from t */
static uint32_t low_sat(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    isa_opcode op = kind ? ISA_OP_SUB : ISA_OP_ADD;
    bool sg = isa_types[t].is_signed;
    if (bits_of(t) < 64) {   /* exact in 64 bits, then clamp */
        isa_type w = sg ? ISA_T_I64 : ISA_T_U64;
        uint32_t a = x_cvt(x, w, t, s[0]), b = x_cvt(x, w, t, s[1]);
        uint32_t r = x_op2(x, op, ISA_T_I64, x_R(a), x_R(b));
        uint64_t hi = sg ? all_ones(t) >> 1 : all_ones(t);
        uint64_t lo = sg ? (uint64_t)-(int64_t)(sign_bit(t)) : 0;
        uint32_t c = x_op2(x, ISA_OP_MIN, ISA_T_I64, x_R(r), x_I(hi));
        c = x_op2(x, ISA_OP_MAX, ISA_T_I64, x_R(c), x_I(lo));
        return x_cvt(x, t, ISA_T_I64, x_R(c));
    }
    uint32_t r = x_op2(x, op, t, s[0], s[1]);
    if (!sg) {   /* wrapped: the sum is below a / the difference above a */
        isa_operand ov = x_cmp(x, kind ? ISA_BINOP_GT : ISA_BINOP_LT, t, x_R(r), s[0]);
        return x_sel(x, t, ov, x_I(kind ? 0 : ~0ull), x_R(r));
    }
    /* signed overflow: the result's sign differs from a's where b's sign
     * agrees with a's (add) or differs from it (sub) */
    uint32_t ar = x_op2(x, ISA_OP_XOR, t, s[0], x_R(r));
    uint32_t ab = x_op2(x, ISA_OP_XOR, t, s[0], s[1]);
    uint32_t q = kind ? x_op2(x, ISA_OP_AND, t, x_R(ar), x_R(ab))
                      : x_op2(x, ISA_OP_AND, t, x_R(ar), x_R(x_op1(x, ISA_OP_NOT, t, x_R(ab))));
    isa_operand ov = x_cmp(x, ISA_BINOP_LT, ISA_T_I64, x_R(q), x_I(0));
    isa_operand neg = x_cmp(x, ISA_BINOP_LT, ISA_T_I64, s[0], x_I(0));
    uint32_t lim = x_sel(x, t, neg, x_I(sign_bit(t)), x_I(sign_bit(t) - 1));
    return x_sel(x, t, ov, x_R(lim), x_R(r));
}

/* hadd (kind 0) = (x >> 1) + (y >> 1) + (x & y & 1); rhadd (1) with x | y */
static uint32_t low_hadd(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    uint32_t a = x_op2(x, ISA_OP_SHR, t, s[0], x_I(1));
    uint32_t b = x_op2(x, ISA_OP_SHR, t, s[1], x_I(1));
    uint32_t c = x_op2(x, kind ? ISA_OP_OR : ISA_OP_AND, t, s[0], s[1]);
    uint32_t c1 = x_op2(x, ISA_OP_AND, t, x_R(c), x_I(1));
    uint32_t ab = x_op2(x, ISA_OP_ADD, t, x_R(a), x_R(b));
    return x_op2(x, ISA_OP_ADD, t, x_R(ab), x_R(c1));
}

/* abs_diff: |x - y| as the unsigned type, no overflow */
static uint32_t low_absdiff(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t d1 = x_op2(x, ISA_OP_SUB, u, s[0], s[1]), d2 = x_op2(x, ISA_OP_SUB, u, s[1], s[0]);
    return x_sel(x, u, x_cmp(x, ISA_BINOP_GT, t, s[0], s[1]), x_R(d1), x_R(d2));
}

/* mad_hi(a, b, c) = mul_hi(a, b) + c */
static uint32_t low_madhi(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t h = x_op2(x, ISA_OP_MUL_HI, t, s[0], s[1]);
    return x_op2(x, ISA_OP_ADD, t, x_R(h), s[2]);
}

/* tan = sin / cos, computed in double (libm's sin and cos): float results
 * within 1 ulp; double within a few ulp */
static uint32_t low_tan(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_operand d = t == ISA_T_F64 ? s[0] : x_R(x_cvt(x, ISA_T_F64, t, s[0]));
    uint32_t sn = x_op1(x, ISA_OP_SIN, ISA_T_F64, d), cs = x_op1(x, ISA_OP_COS, ISA_T_F64, d);
    uint32_t q = x_op2(x, ISA_OP_DIV, ISA_T_F64, x_R(sn), x_R(cs));
    return t == ISA_T_F64 ? q : x_cvt(x, t, ISA_T_F64, x_R(q));
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
    uint32_t n = x_op2(x, ISA_OP_MIN, ISA_T_I32, s[1], x_I(400));
    n = x_op2(x, ISA_OP_MAX, ISA_T_I32, x_R(n), x_I((uint32_t)-400));
    uint32_t e = x_cvt(x, ISA_T_I64, ISA_T_I32, x_R(n));
    e = x_op2(x, ISA_OP_ADD, ISA_T_I64, x_R(e), x_I(1023));
    e = x_op2(x, ISA_OP_SHL, ISA_T_U64, x_R(e), x_I(52));
    uint32_t d = x_cvt(x, ISA_T_F64, t, s[0]);
    uint32_t p = x_op2(x, ISA_OP_MUL, ISA_T_F64, x_R(d), x_R(e));
    return x_cvt(x, t, ISA_T_F64, x_R(p));
}

/* smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1), t t (3 - 2 t) */
static uint32_t low_smooth(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    uint32_t n = x_op2(x, ISA_OP_SUB, t, s[2], s[0]), d = x_op2(x, ISA_OP_SUB, t, s[1], s[0]);
    uint32_t q = x_op2(x, ISA_OP_DIV, t, x_R(n), x_R(d));
    q = x_op2(x, ISA_OP_MAX, t, x_R(q), fconst(t, 0.0));
    q = x_op2(x, ISA_OP_MIN, t, x_R(q), fconst(t, 1.0));
    uint32_t q2 = x_op2(x, ISA_OP_MUL, t, x_R(q), x_R(q));
    uint32_t tq = x_op2(x, ISA_OP_MUL, t, fconst(t, 2.0), x_R(q));
    uint32_t w = x_op2(x, ISA_OP_SUB, t, fconst(t, 3.0), x_R(tq));
    return x_op2(x, ISA_OP_MUL, t, x_R(q2), x_R(w));
}

/* The unbiased exponent of float or double x as an i32 register, from the
 * double bits (float subnormals are normal there, double ones are scaled by
 * 2^64 first); *fin: x finite and non-zero. */
static uint32_t exponent_of(xctx *x, isa_type t, isa_operand v, isa_operand *fin)
{
    uint32_t d = x_cvt(x, ISA_T_F64, t, v);
    isa_operand sub = x_I(0);
    if (t == ISA_T_F64) {
        uint32_t ad = x_op1(x, ISA_OP_ABS, t, x_R(d));
        sub = x_cmp(x, ISA_BINOP_LT, t, x_R(ad), fconst(t, 0x1p-1022));
        d = x_sel(x, t, sub, x_R(x_op2(x, ISA_OP_MUL, t, x_R(d), fconst(t, 0x1p64))), x_R(d));
    }
    uint32_t e = x_op2(x, ISA_OP_SHR, ISA_T_U64, x_R(d), x_I(52));
    e = x_op2(x, ISA_OP_AND, ISA_T_U64, x_R(e), x_I(0x7ff));
    e = x_op2(x, ISA_OP_SUB, ISA_T_I32, x_R(e), x_I(1023));
    if (t == ISA_T_F64)
        e = x_sel(x, ISA_T_I32, sub, x_R(x_op2(x, ISA_OP_SUB, ISA_T_I32, x_R(e), x_I(64))), x_R(e));
    uint32_t a = x_op1(x, ISA_OP_ABS, t, v);
    *fin = x_pop(x, ISA_OP_PAND, x_cmp(x, ISA_BINOP_LT, t, x_R(a), fconst(t, INFINITY)),
                 x_cmp(x, ISA_BINOP_GT, t, x_R(a), fconst(t, 0.0)));
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
    isa_operand zero = x_cmp(x, ISA_BINOP_EQ, t, s[0], fconst(t, 0.0));
    uint32_t r = x_sel(x, ISA_T_I32, zero, x_I(0x80000000u), x_I(0x7fffffff));
    return x_sel(x, ISA_T_I32, fin, x_R(e), x_R(r));
}

/* logb: the exponent as a float; -inf for 0, +inf for infinities, NaN */
static uint32_t low_logb(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_operand fin;
    uint32_t e = exponent_of(x, t, s[0], &fin);
    uint32_t ef = x_cvt(x, t, ISA_T_I32, x_R(e));
    uint32_t a = x_op1(x, ISA_OP_ABS, t, s[0]);
    uint32_t r = x_sel(x, t, x_cmp(x, ISA_BINOP_EQ, t, x_R(a), fconst(t, 0.0)),
                     fconst(t, -INFINITY), x_R(a));      /* inf -> inf, NaN -> NaN */
    return x_sel(x, t, fin, x_R(ef), x_R(r));
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
    uint32_t a = x_op1(x, ISA_OP_ABS, d, s[0]);
    isa_operand sub = x_cmp(x, ISA_BINOP_LT, d, x_R(a), fconst(d, 0x1p-1022));
    uint32_t as = x_sel(x, d, sub, x_R(x_op2(x, ISA_OP_MUL, d, x_R(a), fconst(d, 0x1p64))), x_R(a));
    uint32_t m = x_op2(x, ISA_OP_AND, ISA_T_U64, x_R(as), x_I(0x000fffffffffffffull));
    m = x_op2(x, ISA_OP_OR, ISA_T_U64, x_R(m), x_I(0x3ff0000000000000ull));
    uint32_t n = x_op2(x, ISA_OP_MIN, ISA_T_I32, s[1], x_I(4000));
    n = x_op2(x, ISA_OP_MAX, ISA_T_I32, x_R(n), x_I((uint32_t)-4000));
    uint32_t E = x_op2(x, ISA_OP_ADD, ISA_T_I32, x_R(e), x_R(n));
    /* normal: 2^E from its exponent field (E clamped into range) */
    uint32_t En = x_op2(x, ISA_OP_MAX, ISA_T_I32, x_R(E), x_I((uint32_t)-1022));
    En = x_op2(x, ISA_OP_MIN, ISA_T_I32, x_R(En), x_I(1023));
    uint32_t pw = x_cvt(x, ISA_T_I64, ISA_T_I32, x_R(En));
    pw = x_op2(x, ISA_OP_ADD, ISA_T_I64, x_R(pw), x_I(1023));
    pw = x_op2(x, ISA_OP_SHL, ISA_T_U64, x_R(pw), x_I(52));
    uint32_t r = x_op2(x, ISA_OP_MUL, d, x_R(m), x_R(pw));
    /* subnormal: m 2^(E + 1074) < 2^53 rounded to an integer, times 2^-1074 */
    uint32_t Es = x_op2(x, ISA_OP_MAX, ISA_T_I32, x_R(E), x_I((uint32_t)-1134));
    uint32_t ps = x_cvt(x, ISA_T_I64, ISA_T_I32, x_R(Es));
    ps = x_op2(x, ISA_OP_ADD, ISA_T_I64, x_R(ps), x_I(1023 + 1074));
    ps = x_op2(x, ISA_OP_SHL, ISA_T_U64, x_R(ps), x_I(52));
    uint32_t q = x_op2(x, ISA_OP_MUL, d, x_R(m), x_R(ps));
    uint32_t qi = x_cvt(x, ISA_T_I64, d, x_R(q));
    x->code[x->ncode - 1].flags = (uint16_t)(ISA_RND_RTE << ISA_F_RND_SHIFT);
    uint32_t qs = x_op2(x, ISA_OP_MUL, d, x_R(x_cvt(x, d, ISA_T_I64, x_R(qi))), x_I(1));
    r = x_sel(x, d, x_cmp(x, ISA_BINOP_LT, ISA_T_I32, x_R(E), x_I((uint32_t)-1022)), x_R(qs), x_R(r));
    r = x_sel(x, d, x_cmp(x, ISA_BINOP_GT, ISA_T_I32, x_R(E), x_I(1023)), fconst(d, INFINITY), x_R(r));
    uint32_t sg = x_op2(x, ISA_OP_AND, ISA_T_U64, s[0], x_I(sign_bit(d)));
    r = x_op2(x, ISA_OP_OR, ISA_T_U64, x_R(r), x_R(sg));
    return x_sel(x, d, fin, x_R(r), s[0]);
}

/* nextafter(x, y): the neighbour of x toward y, on the bits (ordered like
 * sign-magnitude integers); x == y gives y, a NaN operand NaN, and from a
 * zero the smallest subnormal with y's sign */
static uint32_t low_nextafter(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    isa_type u = uint_of(t);
    uint32_t up = x_op2(x, ISA_OP_ADD, u, s[0], x_I(1));
    uint32_t dn = x_op2(x, ISA_OP_SUB, u, s[0], x_I(1));
    isa_operand xpos = x_cmp(x, ISA_BINOP_GT, t, s[0], fconst(t, 0.0));
    isa_operand ygt = x_cmp(x, ISA_BINOP_GT, t, s[1], s[0]);
    isa_operand toward0 = x_pop(x, ISA_OP_PXOR, xpos, ygt);   /* x>0 != y>x: toward 0 */
    uint32_t r = x_sel(x, u, toward0, x_R(dn), x_R(up));
    /* from +-0: the smallest subnormal with y's sign */
    uint32_t tiny = copysign_bits(x, t, x_I(1), s[1]);
    r = x_sel(x, u, x_cmp(x, ISA_BINOP_EQ, t, s[0], fconst(t, 0.0)), x_R(tiny), x_R(r));
    r = x_sel(x, u, x_cmp(x, ISA_BINOP_EQ, t, s[0], s[1]), s[1], x_R(r));
    uint32_t nan = x_op2(x, ISA_OP_ADD, t, s[0], s[1]);   /* NaN when either is */
    isa_operand ord = x_pop(x, ISA_OP_PAND, x_cmp(x, ISA_BINOP_EQ, t, s[0], s[0]),
                            x_cmp(x, ISA_BINOP_EQ, t, s[1], s[1]));
    return x_sel(x, u, ord, x_R(r), x_R(nan));
}

/* nan(code): a quiet NaN carrying the code in its payload */
static uint32_t low_nan(xctx *x, isa_type t, const isa_operand *s, int kind)
{
    (void)kind;
    bool d = t == ISA_T_F64;
    uint32_t p = x_op2(x, ISA_OP_AND, uint_of(t), s[0], x_I(d ? 0x7ffffffffffffull : 0x3fffff));
    return x_op2(x, ISA_OP_OR, uint_of(t), x_R(p),
                 x_I(d ? 0x7ff8000000000000ull : 0x7fc00000u));
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
    xval *v = x_def(x, f, id, n);
    for (unsigned c = 0; v && c < n; c++) {
        v->c[c].o = x_R(regs[c]);
        v->c[c].space = X_SPACE_NONE;
    }
}

/* dot of n components in type t (sequential multiply-adds, no fusion) */
static uint32_t dot(xctx *x, isa_type t, const xval *a, const xval *b)
{
    uint32_t acc = x_op2(x, ISA_OP_MUL, t, x_src(x, &a->c[0]), x_src(x, &b->c[0]));
    for (unsigned c = 1; c < a->n; c++) {
        uint32_t p = x_op2(x, ISA_OP_MUL, t, x_src(x, &a->c[c]), x_src(x, &b->c[c]));
        acc = x_op2(x, ISA_OP_ADD, t, x_R(acc), x_R(p));
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
        if (in->nw <= first + i || !(s[i] = x_val(x, f, spv_word(m, in, first + i))) || !s[i]->n)
            return true;
    const spv_type *t = x_type(x, spv_word(m, in, 1));
    const spv_type *at = x_value_type(x, spv_word(m, in, first));
    if (!t || !at)
        return true;
    isa_type ct = x_comp_type(at);
    if (ct != ISA_T_F32 && ct != ISA_T_F64) {
        x_error(x, "'%s' is lowered for float and double only", name);
        return true;
    }
    uint32_t id = spv_word(m, in, 2);
    if (is_norm) {
        /* v / |v| in double; all-zero v is returned as is; with infinite
         * components, the vector of their signs (1 for each infinity, 0
         * elsewhere) is normalised instead */
        if (ct != ISA_T_F32) {
            x_error(x, "'%s' is lowered for float only", name);
            return true;
        }
        unsigned nc = s[0]->n;
        uint32_t d[XV_MAX] = { 0 }, inf[XV_MAX] = { 0 }, r[XV_MAX] = { 0 };
        if (nc < 1 || nc > 4) {
            x_error(x, "'%s' takes 1 to 4 components", name);
            return true;
        }
        isa_operand any = x_I(0);
        for (unsigned c = 0; c < nc; c++) {
            isa_operand v = x_src(x, &s[0]->c[c]);
            isa_operand pi = x_cmp(x, ISA_BINOP_EQ, ct, x_R(x_op1(x, ISA_OP_ABS, ct, v)),
                                   fconst(ct, INFINITY));
            inf[c] = x_sel(x, ISA_T_F64, pi, x_R(copysign_bits(x, ISA_T_F64, fconst(ISA_T_F64, 1.0),
                                                           x_R(x_cvt(x, ISA_T_F64, ct, v)))),
                         fconst(ISA_T_F64, 0.0));
            any = c ? x_pop(x, ISA_OP_POR, any, pi) : x_pop(x, ISA_OP_PAND, pi, pi);
            d[c] = x_cvt(x, ISA_T_F64, ct, v);
        }
        for (unsigned c = 0; c < nc; c++)
            d[c] = x_sel(x, ISA_T_F64, any, x_R(inf[c]), x_R(d[c]));
        uint32_t sum = x_op2(x, ISA_OP_MUL, ISA_T_F64, x_R(d[0]), x_R(d[0]));
        for (unsigned c = 1; c < nc; c++)
            sum = x_op2(x, ISA_OP_ADD, ISA_T_F64, x_R(sum),
                        x_R(x_op2(x, ISA_OP_MUL, ISA_T_F64, x_R(d[c]), x_R(d[c]))));
        uint32_t len = x_op1(x, ISA_OP_SQRT, ISA_T_F64, x_R(sum));
        isa_operand zero = x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, x_R(len), fconst(ISA_T_F64, 0.0));
        for (unsigned c = 0; c < nc; c++) {
            uint32_t q = x_op2(x, ISA_OP_DIV, ISA_T_F64, x_R(d[c]), x_R(len));
            uint32_t qf = x_cvt(x, ct, ISA_T_F64, x_R(q));
            r[c] = x_sel(x, ct, zero, x_src(x, &s[0]->c[c]), x_R(qf));
        }
        set_result(x, f, id, r, nc);
        return true;
    }
    if (is_cross) {
        if (!s[1] || s[0]->n < 3 || s[1]->n < 3) {
            x_error(x, "cross needs 3 or 4 components");
            return true;
        }
        uint32_t r[4];
        static const int ia[3] = { 1, 2, 0 }, ib[3] = { 2, 0, 1 };
        for (int c = 0; c < 3; c++) {
            uint32_t p = x_op2(x, ISA_OP_MUL, ct, x_src(x, &s[0]->c[ia[c]]),
                               x_src(x, &s[1]->c[ib[c]]));
            uint32_t q = x_op2(x, ISA_OP_MUL, ct, x_src(x, &s[0]->c[ib[c]]),
                               x_src(x, &s[1]->c[ia[c]]));
            r[c] = x_op2(x, ISA_OP_SUB, ct, x_R(p), x_R(q));
        }
        r[3] = x_op1(x, ISA_OP_MOV, ct, x_I(0));
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
                d.c[c].o = x_R(x_op2(x, ISA_OP_SUB, ct, x_src(x, &s[0]->c[c]),
                                     x_src(x, &s[1]->c[c])));
                d.c[c].has_pred = 0;
            }
        /* sqrt of the sum of squares, in double for float so that it
         * neither overflows nor underflows before the square root */
        xval w = d;
        isa_type wt = ct == ISA_T_F32 ? ISA_T_F64 : ct;
        if (wt != ct)
            for (unsigned c = 0; c < w.n; c++) {
                w.c[c].o = x_R(x_cvt(x, wt, ct, x_src(x, &d.c[c])));
                w.c[c].has_pred = 0;
            }
        r = x_op1(x, ISA_OP_SQRT, wt, x_R(dot(x, wt, &w, &w)));
        if (wt != ct)
            r = x_cvt(x, ct, wt, x_R(r));
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
    xval *hi = in->nw > 6 ? x_val(x, f, spv_word(m, in, 5)) : NULL;
    xval *lo = in->nw > 6 ? x_val(x, f, spv_word(m, in, 6)) : NULL;
    const spv_type *rt = x_type(x, spv_word(m, in, 1));
    const spv_type *lt = x_value_type(x, spv_word(m, in, 6));
    if (!hi || !lo || !rt || !lt || !hi->n || !lo->n)
        return true;
    isa_type wt = uint_of(x_comp_type(rt)), ht = x_comp_type(lt), lt2 = uint_of(ht);
    if (s)
        ht = sint_of(ht);
    uint32_t regs[XV_MAX];
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        uint32_t h = x_cvt(x, s ? x_signed(wt) : wt, s ? ht : lt2, x_src(x, &hi->c[hi->n == 1 ? 0 : c]));
        uint32_t sh = x_op2(x, ISA_OP_SHL, wt, x_R(h), x_I(bits_of(lt2)));
        uint32_t l = x_cvt(x, wt, lt2, x_src(x, &lo->c[lo->n == 1 ? 0 : c]));
        regs[c] = x_op2(x, ISA_OP_OR, wt, x_R(sh), x_R(l));
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
        x_error(x, "'%s' has too few operands", name);
        return true;
    }
    xc pool[2 * XV_MAX];
    unsigned total = 0;
    for (unsigned i = 0; i < nin; i++) {
        const xval *v = x_val(x, f, spv_word(m, in, 5 + i));
        if (!v || !v->n)
            return true;
        for (unsigned c = 0; c < v->n; c++)
            pool[total++] = v->c[c];
    }
    const xval *mask = x_val(x, f, spv_word(m, in, 5 + nin));
    const spv_type *rt = x_type(x, spv_word(m, in, 1));
    const spv_type *mt = x_value_type(x, spv_word(m, in, 5 + nin));
    if (!mask || !mask->n || !rt || !mt)
        return true;
    if (total & (total - 1)) {
        x_error(x, "'%s' of %u components (OpenCL C allows 2, 4, 8 or 16)", name, total / nin);
        return true;
    }
    const isa_type ct = x_comp_type(rt), mct = uint_of(x_comp_type(mt));
    xval res;
    memset(&res, 0, sizeof res);
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        const xc *k = &mask->c[mask->n == 1 ? 0 : c];
        if (k->o.kind == ISA_OPND_IMM) {
            res.c[c] = pool[k->o.imm & (total - 1)];
        } else {
            const uint32_t idx = x_op2(x, ISA_OP_AND, mct, x_src(x, k), x_I(total - 1));
            isa_operand cur = x_src(x, &pool[0]);
            for (unsigned j = 1; j < total; j++) {
                isa_operand hit = x_cmp(x, ISA_BINOP_EQ, mct, x_R(idx), x_I(j));
                cur = x_R(x_sel(x, ct, hit, x_src(x, &pool[j]), cur));
            }
            res.c[c].o = cur;
            res.c[c].space = X_SPACE_NONE;
        }
        res.n = (uint8_t)(c + 1);
    }
    xval *v = x_def(x, f, spv_word(m, in, 2), res.n);
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
    xval *a = in->nw > 6 ? x_val(x, f, spv_word(m, in, 5)) : NULL;
    xval *p = in->nw > 6 ? x_val(x, f, spv_word(m, in, 6)) : NULL;
    const spv_type *rt = x_type(x, spv_word(m, in, 1));
    if (!a || !p || !rt || !a->n || !p->n)
        return true;
    isa_type t = x_comp_type(rt);
    if (t != ISA_T_F32 && t != ISA_T_F64) {
        x_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    uint32_t res[XV_MAX], out[XV_MAX];
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_operand s = x_src(x, &a->c[a->n == 1 ? 0 : c]);
        if (k == 3) {          /* frexp: x = m 2^e, 0.5 <= |m| < 1; 0, inf, NaN: x and 0 */
            isa_operand fin;
            uint32_t e = exponent_of(x, t, s, &fin);
            e = x_op2(x, ISA_OP_ADD, ISA_T_I32, x_R(e), x_I(1));
            uint32_t ne = x_op1(x, ISA_OP_NEG, ISA_T_I32, x_R(e));
            isa_operand two[2] = { s, x_R(ne) };
            uint32_t mnt = low_ldexp(x, t, two, 0);
            res[c] = x_sel(x, t, fin, x_R(mnt), s);
            out[c] = x_sel(x, ISA_T_I32, fin, x_R(e), x_I(0));
            continue;
        }
        if (k == 2) {          /* sin, cos: the instructions themselves */
            res[c] = x_op1(x, ISA_OP_SIN, t, s);
            out[c] = x_op1(x, ISA_OP_COS, t, s);
            continue;
        }
        uint32_t i = low_round(x, t, &s, k == 0 ? ISA_RND_RTN : ISA_RND_RTZ);
        uint32_t d = x_op2(x, ISA_OP_SUB, t, s, x_R(i));
        uint32_t ab = x_op1(x, ISA_OP_ABS, t, s);
        isa_operand inf = x_cmp(x, ISA_BINOP_EQ, t, x_R(ab), fconst(t, INFINITY));
        if (k == 0) {          /* fract = fmin(x - floor(x), largest below 1) */
            double below1 = t == ISA_T_F64 ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1;
            uint32_t fr = x_op2(x, ISA_OP_MIN, t, x_R(d), fconst(t, below1));
            fr = x_sel(x, t, x_cmp(x, ISA_BINOP_EQ, t, s, s), x_R(fr), s);   /* NaN stays */
            res[c] = x_sel(x, t, inf, x_R(copysign_bits(x, t, fconst(t, 0.0), s)), x_R(fr));
        } else {               /* modf: x - trunc(x) with x's sign */
            uint32_t fr = copysign_bits(x, t, x_R(d), s);
            res[c] = x_sel(x, t, inf, x_R(copysign_bits(x, t, fconst(t, 0.0), s)), x_R(fr));
        }
        out[c] = i;            /* floor / trunc (x itself for inf and NaN) */
    }
    isa_space sp;
    isa_operand ad = x_addr_of(x, &p->c[0], &sp);
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_inst *st = x_emit(x, ISA_OP_ST, k == 3 ? ISA_T_I32 : t);
        st->space = (uint8_t)sp;
        st->o[0] = ad;
        st->o[0].addr.disp = (int64_t)((uint64_t)st->o[0].addr.disp + c * 4u * (k == 3 ? 1u : isa_types[t].bytes / 4u));
        st->o[1] = x_R(out[c]);
        st->nopnd = 2;
    }
    set_result(x, f, spv_word(m, in, 2), res, rt->ncomp);
    return true;
}

bool x_lower_extra(xctx *x, xfn *f, const spv_inst *in, const char *name)
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
        x_error(x, "'%s' has too few operands", name);
        return true;
    }
    xval *s[3] = { NULL, NULL, NULL };
    const unsigned nsrc = row->nsrc < 3 ? row->nsrc : 3;
    for (unsigned i = 0; i < nsrc; i++)
        if (!(s[i] = x_val(x, f, spv_word(m, in, 5 + i))) || !s[i]->n)
            return true;
    const spv_type *rt = x_type(x, spv_word(m, in, 1));
    if (!rt)
        return true;
    isa_type t = x_comp_type(rt);
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
        x_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    bool src16[3] = { false, false, false };
    for (unsigned i = 0; i < nsrc; i++) {
        const spv_type *st = x_value_type(x, spv_word(m, in, 5 + i));
        src16[i] = st && x_comp_type(st) == ISA_T_F16;
    }
    if (row->fn == low_ilogb) {   /* the operand's type decides */
        const spv_type *at = x_value_type(x, spv_word(m, in, 5));
        t = at ? x_comp_type(at) : ISA_T_NONE;
        if (t == ISA_T_F16) {
            half = true;
            t = ISA_T_F32;
        }
        if (t != ISA_T_F32 && t != ISA_T_F64) {
            x_error(x, "OpenCL.std 'ilogb' is lowered for float and double only");
            return true;
        }
    }
    if (row->fn == low_nan && t != ISA_T_F32 && t != ISA_T_F64) {
        x_error(x, "OpenCL.std 'nan' is lowered for float and double only");
        return true;
    }
    if (!row->isfloat && row->sign)
        t = row->sign == 1 ? sint_of(t) : uint_of(t);
    if (row->fn == low_ctz || row->fn == low_rotate || row->fn == low_bitselect) {
        if (row->fn != low_bitselect && isa_types[t].is_float) {
            x_error(x, "'%s' needs an integer type", name);
            return true;
        }
    }
    uint32_t regs[XV_MAX] = { 0 };
    for (unsigned c = 0; c < rt->ncomp && c < XV_MAX; c++) {
        isa_operand o[3];
        memset(o, 0, sizeof o);
        for (unsigned i = 0; i < nsrc; i++) {
            o[i] = x_src(x, &s[i]->c[s[i]->n == 1 ? 0 : c]);
            if (half && src16[i])
                o[i] = x_R(x_cvt(x, ISA_T_F32, ISA_T_F16, o[i]));
        }
        if (!row->fn) {
            /* c ? b : a; vectors test the MSB of c (OpenCL select) */
            const spv_type *ct = x_value_type(x, spv_word(m, in, 7));
            isa_type cty = ct ? sint_of(x_comp_type(ct)) : ISA_T_I32;
            isa_operand p = rt->ncomp > 1 ? x_cmp(x, ISA_BINOP_LT, cty, o[2], x_I(0))
                                          : x_cmp(x, ISA_BINOP_NE, cty, o[2], x_I(0));
            regs[c] = x_sel(x, t, p, o[1], o[0]);
        } else {
            regs[c] = row->fn(x, t, o, row->kind);
            if (half && row->isfloat)
                regs[c] = x_cvt(x, ISA_T_F16, ISA_T_F32, x_R(regs[c]));
        }
    }
    set_result(x, f, spv_word(m, in, 2), regs, rt->ncomp);
    return true;
}

/* ---- relational core instructions ---- */

bool x_op_relational(xctx *x, xfn *f, const spv_inst *in)
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
        xval *a = x_val(x, f, spv_word(m, in, 3)), *b = x_val(x, f, spv_word(m, in, 4));
        const spv_type *t = x_type(x, spv_word(m, in, 1));
        if (!a || !b || !t || !a->n || a->n != b->n)
            return true;
        uint32_t r = dot(x, x_comp_type(t), a, b);
        set_result(x, f, spv_word(m, in, 2), &r, 1);
        return true;
    }
    const spv_type *rt = x_type(x, spv_word(m, in, 1));
    bool two = in->op == SpvOpOrdered || in->op == SpvOpUnordered;
    xval *a = x_val(x, f, spv_word(m, in, 3));
    xval *b = two ? x_val(x, f, spv_word(m, in, 4)) : NULL;
    const spv_type *at = x_value_type(x, spv_word(m, in, 3));
    if (!rt || !a || !a->n || (two && (!b || !b->n)) || !at)
        return true;
    if (in->op == SpvOpAny || in->op == SpvOpAll) {
        isa_operand p = x_predof(x, &a->c[0]);
        for (unsigned c = 1; c < a->n; c++)
            p = x_pop(x, in->op == SpvOpAny ? ISA_OP_POR : ISA_OP_PAND, p,
                      x_predof(x, &a->c[c]));
        if (a->n == 1)
            p = x_pop(x, ISA_OP_PAND, p, p);
        xval *v = x_def(x, f, spv_word(m, in, 2), 1);
        if (v)
            x_set_bool(x, &v->c[0], p.reg, x->slot_gen[p.reg], false);
        return true;
    }
    isa_type t = x_comp_type(at);
    if (!isa_types[t].is_float) {
        x_error(x, "%s needs a floating-point operand", spv_op_name(in->op));
        return true;
    }
    xval *v = x_def(x, f, spv_word(m, in, 2), rt->ncomp);
    for (unsigned c = 0; v && c < rt->ncomp && c < a->n; c++) {
        isa_operand s = x_src(x, &a->c[c]), p;
        switch (in->op) {
        case SpvOpIsFinite:
            p = x_cmp(x, ISA_BINOP_LT, t, x_R(x_op1(x, ISA_OP_ABS, t, s)), fconst(t, INFINITY));
            break;
        case SpvOpIsNormal: {
            uint32_t ab = x_op1(x, ISA_OP_ABS, t, s);
            double mn = t == ISA_T_F64 ? 2.2250738585072014e-308 : t == ISA_T_F16 ? 6.103515625e-05
                                                                                : 1.17549435e-38;
            p = x_pop(x, ISA_OP_PAND, x_cmp(x, ISA_BINOP_GE, t, x_R(ab), fconst(t, mn)),
                      x_cmp(x, ISA_BINOP_LT, t, x_R(ab), fconst(t, INFINITY)));
            break;
        }
        case SpvOpSignBitSet:
            p = x_cmp(x, ISA_BINOP_LT, sint_of(t), s, x_I(0));
            break;
        default: {     /* ordered / unordered */
            isa_operand sb = x_src(x, &b->c[b->n == 1 ? 0 : c]);
            p = x_pop(x, ISA_OP_PAND, x_cmp(x, ISA_BINOP_EQ, t, s, s),
                      x_cmp(x, ISA_BINOP_EQ, t, sb, sb));
            if (in->op == SpvOpUnordered)
                p = x_pop(x, ISA_OP_PNOT, p, p);
            break;
        }
        }
        x_set_bool(x, &v->c[c], p.reg, x->slot_gen[p.reg], false);
    }
    return true;
}

/* ---- OpBitcast between vectors of different component sizes ---- */

void x_bitcast_regroup(xctx *x, xfn *f, const spv_inst *in, const xval *s,
                       const spv_type *t, const spv_type *st)
{
    isa_type ta = x_comp_type(st), tb = x_comp_type(t);
    unsigned a = isa_types[ta].bytes, b = isa_types[tb].bytes, na = st->ncomp, nb = t->ncomp;
    if (na * a != nb * b || na == 3 || nb == 3 || na > XV_MAX || nb > XV_MAX || s->n < na) {
        x_error(x, "OpBitcast between these types (3-component vectors or different sizes) "
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
                uint32_t p = x_op2(x, ISA_OP_AND, ISA_T_U64, x_src(x, &s->c[j * r + k]), x_I(ma));
                if (k)
                    p = x_op2(x, ISA_OP_SHL, ISA_T_U64, x_R(p), x_I(k * a * 8));
                acc = k ? x_op2(x, ISA_OP_OR, ISA_T_U64, x_R(acc), x_R(p)) : p;
            }
            regs[j] = acc;
        }
    } else {
        unsigned r = a / b;
        for (unsigned i = 0; i < na; i++)
            for (unsigned k = 0; k < r; k++) {
                isa_operand v = x_src(x, &s->c[i]);
                uint32_t d = k ? x_op2(x, ISA_OP_SHR, ISA_T_U64, v, x_I(k * b * 8))
                               : x_op1(x, ISA_OP_MOV, ISA_T_U64, v);
                regs[i * r + k] = x_op2(x, ISA_OP_AND, ISA_T_U64, x_R(d), x_I(mb));
            }
    }
    set_result(x, f, spv_word(x->m, in, 2), regs, nb);
}

/* ---- OpSatConvertSToU / OpSatConvertUToS: clamp in 64 bits ---- */

void x_sat_convert(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    const spv_type *t = x_type(x, spv_word(m, in, 1));
    const spv_type *st = x_value_type(x, spv_word(m, in, 3));
    xval *s = x_val(x, f, spv_word(m, in, 3));
    if (!t || !st || !s || !s->n)
        return;
    bool s2u = in->op == SpvOpSatConvertSToU;
    isa_type dt = uint_of(x_comp_type(t)), srt = uint_of(x_comp_type(st));
    if (isa_types[x_comp_type(t)].is_float || isa_types[x_comp_type(st)].is_float) {
        x_error(x, "saturating conversions are between integer types");
        return;
    }
    if (s2u)
        srt = x_signed(srt);
    else
        dt = x_signed(dt);
    uint64_t hi = s2u ? all_ones(dt) : all_ones(dt) >> 1;
    uint32_t regs[XV_MAX];
    for (unsigned c = 0; c < t->ncomp && c < XV_MAX; c++) {
        isa_type wt = s2u ? ISA_T_I64 : ISA_T_U64;
        uint32_t w = x_cvt(x, wt, srt, x_src(x, &s->c[s->n == 1 ? 0 : c]));
        if (s2u)
            w = x_op2(x, ISA_OP_MAX, ISA_T_I64, x_R(w), x_I(0));
        if (!(s2u && bits_of(dt) == 64))
            w = x_op2(x, ISA_OP_MIN, s2u ? ISA_T_I64 : ISA_T_U64, x_R(w), x_I(hi));
        regs[c] = x_cvt(x, dt, wt, x_R(w));
    }
    set_result(x, f, spv_word(m, in, 2), regs, t->ncomp);
}
