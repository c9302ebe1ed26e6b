/* spirv_math.c - OpenCL.std functions lowered around the elementary-function
 * instructions: pown and rootn (pow and rootn of the exact double n), powr
 * (pow with powr's NaN cases); the *pi forms,
 * lgamma_r, remquo, remainder and mad_sat at the end of the file.  Special
 * cases are the OpenCL C spec's (C99 Annex F); float is computed in double
 * and rounded once (docs/opencl.md gives the bounds). */
#include "spirv_private.h"

#define F64_ONE  0x3ff0000000000000ull
#define F64_INF  0x7ff0000000000000ull
#define F64_NAN  0x7ff8000000000000ull

enum { K_POWN, K_ROOTN, K_POWR };

uint32_t spv_op1(xctx *x, isa_opcode op, isa_type t, isa_operand a)
{
    uint32_t r = spv_reg(x, 1);
    isa_inst *in = spv_emit(x, op, t);
    in->o[0] = spv_R(r);
    in->o[1] = a;
    in->nopnd = 2;
    return r;
}

uint32_t spv_op2(xctx *x, isa_opcode op, isa_type t, isa_operand a, isa_operand b)
{
    uint32_t r = spv_reg(x, 1);
    isa_inst *in = spv_emit(x, op, t);
    in->o[0] = spv_R(r);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = 3;
    return r;
}

/* rD = p ? a : b, fresh register */
uint32_t spv_sel(xctx *x, isa_type t, isa_operand p, isa_operand a, isa_operand b)
{
    uint32_t r = spv_reg(x, 1);
    isa_inst *in = spv_emit(x, ISA_OP_SEL, t);
    in->o[0] = spv_R(r);
    in->o[1] = p;
    in->o[2] = a;
    in->o[3] = b;
    in->nopnd = 4;
    return r;
}

uint32_t spv_cvt(xctx *x, isa_type to, isa_type from, isa_operand a)
{
    uint32_t r = spv_op1(x, ISA_OP_CVT, to, a);
    x->code[x->ncode - 1].src_type = (uint8_t)from;
    return r;
}

/* A fresh predicate: a `cond` b. */
isa_operand spv_cmp(xctx *x, isa_binop cond, isa_type t, isa_operand a, isa_operand b)
{
    uint32_t gen, p = spv_pred(x, &gen);
    isa_inst *in = spv_emit(x, ISA_OP_CMP, t);
    in->cond = (uint8_t)cond;
    in->o[0] = spv_P(p, false);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = 3;
    return spv_P(p, false);
}

isa_operand spv_pop(xctx *x, isa_opcode op, isa_operand a, isa_operand b)
{
    uint32_t gen, p = spv_pred(x, &gen);
    isa_inst *in = spv_emit(x, op, ISA_T_NONE);
    in->o[0] = spv_P(p, false);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = op == ISA_OP_PNOT ? 2 : 3;
    return spv_P(p, false);
}

/* powr(x, y) in type t: pow(x + 0, y) (libm's, which -0 would send to -inf
 * for odd y < 0), NaN where powr's domain ends: x < 0, x or y NaN, 0^0,
 * inf^0, 1^inf. */
static uint32_t powr_one(xctx *x, isa_type t, isa_operand xs, isa_operand ys)
{
    const bool d = t == ISA_T_F64;
    const uint64_t one = d ? F64_ONE : 0x3f800000u, inf = d ? F64_INF : 0x7f800000u;
    const uint64_t nan = d ? F64_NAN : 0x7fc00000u;
    uint32_t x0 = spv_op2(x, ISA_OP_ADD, t, xs, spv_I(0));
    uint32_t r = spv_op2(x, ISA_OP_POW, t, spv_R(x0), ys);
    uint32_t ay = spv_op1(x, ISA_OP_ABS, t, ys);
    isa_operand bad = spv_pop(x, ISA_OP_POR, spv_cmp(x, ISA_BINOP_LT, t, xs, spv_I(0)),
                            spv_cmp(x, ISA_BINOP_NE, t, xs, xs));
    bad = spv_pop(x, ISA_OP_POR, bad, spv_cmp(x, ISA_BINOP_NE, t, ys, ys));
    isa_operand y0 = spv_cmp(x, ISA_BINOP_EQ, t, ys, spv_I(0));
    isa_operand x0inf = spv_pop(x, ISA_OP_POR, spv_cmp(x, ISA_BINOP_EQ, t, xs, spv_I(0)),
                              spv_cmp(x, ISA_BINOP_EQ, t, xs, spv_I(inf)));
    bad = spv_pop(x, ISA_OP_POR, bad, spv_pop(x, ISA_OP_PAND, y0, x0inf));
    isa_operand oneinf = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_EQ, t, xs, spv_I(one)),
                               spv_cmp(x, ISA_BINOP_EQ, t, spv_R(ay), spv_I(inf)));
    bad = spv_pop(x, ISA_OP_POR, bad, oneinf);
    return spv_sel(x, t, bad, spv_I(nan), spv_R(r));
}

bool spv_lower_pow(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    int kind;
    if (!strcmp(name, "pown"))
        kind = K_POWN;
    else if (!strcmp(name, "rootn"))
        kind = K_ROOTN;
    else if (!strcmp(name, "powr"))
        kind = K_POWR;
    else
        return false;
    spv_module *m = x->m;
    if (in->nw < 7) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
    xval *a = spv_val(x, f, spv_word(m, in, 5)), *b = spv_val(x, f, spv_word(m, in, 6));
    if (!t || !a || !b || !a->n || !b->n)
        return true;
    isa_type ty = spv_comp_type(t);
    if (ty != ISA_T_F32 && ty != ISA_T_F64 && ty != ISA_T_F16) {
        spv_error(x, "OpenCL.std '%s' is lowered for half, float and double only", name);
        return true;
    }
    xval r;
    memset(&r, 0, sizeof r);
    r.n = t->ncomp;
    for (unsigned c = 0; c < t->ncomp && c < XV_MAX; c++) {
        isa_operand xs = spv_src(x, &a->c[c < a->n ? c : 0]);
        isa_operand es = spv_src(x, &b->c[c < b->n ? c : 0]);
        uint32_t R;
        if (kind == K_POWR && ty == ISA_T_F16) {
            /* half: float's powr on the exactly widened operands, rounded
             * once (float's few ulps vanish in half's 11 bits) */
            R = powr_one(x, ISA_T_F32, spv_R(spv_cvt(x, ISA_T_F32, ISA_T_F16, xs)),
                         spv_R(spv_cvt(x, ISA_T_F32, ISA_T_F16, es)));
            R = spv_cvt(x, ISA_T_F16, ISA_T_F32, spv_R(R));
        } else if (kind == K_POWR) {
            R = powr_one(x, ty, xs, es);
        } else {
            uint32_t X = ty == ISA_T_F64 ? spv_op1(x, ISA_OP_MOV, ISA_T_F64, xs)
                                         : spv_cvt(x, ISA_T_F64, ty, xs);
            /* pow / rootn of the exact double n (pow's special cases are
             * pown's); in double for float too, so n keeps all its bits */
            R = spv_op2(x, kind == K_POWN ? ISA_OP_POW : ISA_OP_ROOTN, ISA_T_F64, spv_R(X),
                      spv_R(spv_cvt(x, ISA_T_F64, ISA_T_I32, es)));
            if (ty != ISA_T_F64)
                R = spv_cvt(x, ty, ISA_T_F64, spv_R(R));
        }
        r.c[c].o = spv_R(R);
        r.c[c].space = X_SPACE_NONE;
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), r.n);
    if (v)
        *v = r;
    return true;
}

/* ---- elementary-function lowerings: the *pi forms, lgamma_r's sign,
 * remquo / remainder and mad_sat.  Float operands are widened to double
 * (exactly) and the result rounded once; docs/opencl.md gives the error
 * bounds. ---- */

#define TD        ISA_T_F64
#define F64_HALF  0x3fe0000000000000ull
#define F64_PI    0x400921fb54442d18ull   /* pi rounded to double */
#define F64_2P52  0x4330000000000000ull
#define F64_128   0x4060000000000000ull
#define F64_SIGN  0x8000000000000000ull

/* cvt with a rounding mode */
static uint32_t cvt_rnd(xctx *x, isa_type to, isa_type from, isa_operand a, unsigned rnd)
{
    uint32_t r = spv_cvt(x, to, from, a);
    x->code[x->ncode - 1].flags = (uint16_t)(rnd << ISA_F_RND_SHIFT);
    return r;
}

/* rint of an f64: a round-to-nearest-even cvt through i64 below 2^52; from
 * there on v is integral already (infinities and NaN included) */
static uint32_t rint_d(xctx *x, isa_operand v)
{
    uint32_t i = cvt_rnd(x, ISA_T_I64, TD, v, ISA_RND_RTE);
    uint32_t f = spv_cvt(x, TD, ISA_T_I64, spv_R(i));
    uint32_t a = spv_op1(x, ISA_OP_ABS, TD, v);
    return spv_sel(x, TD, spv_cmp(x, ISA_BINOP_LT, TD, spv_R(a), spv_I(F64_2P52)), spv_R(f), v);
}

/* sin(pi v) for |v| <= 1/2: pi v and the sine each round once (relative) */
static uint32_t sin_pi(xctx *x, isa_operand v)
{
    uint32_t a = spv_op2(x, ISA_OP_MUL, TD, v, spv_I(F64_PI));
    return spv_op1(x, ISA_OP_SIN, TD, spv_R(a));
}

enum { PI_SIN, PI_COS, PI_TAN };

/* sinpi / cospi / tanpi of the f64 X.  r = X - 2 rint(X / 2) in [-1, 1] is
 * exact; sin(pi r) is folded onto |v| <= 1/2 (v = min(|r|, 1 - |r|)), cos(pi
 * r) onto sin(pi | |r| - 1/2 |) with the sign of 1/2 - |r|: those steps are
 * exact too, so the only errors are pi v's rounding and the sine's.  The
 * special values: sinpi(+-n) = +-0, cospi(n + 1/2) = +0, tanpi = sinpi /
 * cospi (+-0 and +-inf as the OpenCL C specification lists), NaN for
 * infinities and NaN. */
static uint32_t pi_trig(xctx *x, int kind, isa_operand X)
{
    uint32_t h = spv_op2(x, ISA_OP_MUL, TD, X, spv_I(F64_HALF));
    uint32_t n = rint_d(x, spv_R(h));
    uint32_t n2 = spv_op2(x, ISA_OP_ADD, TD, spv_R(n), spv_R(n));
    uint32_t r = spv_op2(x, ISA_OP_SUB, TD, X, spv_R(n2));
    uint32_t a = spv_op1(x, ISA_OP_ABS, TD, spv_R(r));
    uint32_t sn = 0, cs = 0;
    if (kind != PI_COS) {
        uint32_t b = spv_op2(x, ISA_OP_SUB, TD, spv_I(F64_ONE), spv_R(a));
        uint32_t v = spv_op2(x, ISA_OP_MIN, TD, spv_R(a), spv_R(b));
        uint32_t s = sin_pi(x, spv_R(v));
        uint32_t ns = spv_op1(x, ISA_OP_NEG, TD, spv_R(s));
        sn = spv_sel(x, TD, spv_cmp(x, ISA_BINOP_LT, TD, spv_R(r), spv_I(0)), spv_R(ns), spv_R(s));
        /* a zero takes X's sign: sinpi(-2) = -0, sinpi(1) = +0 */
        uint32_t z = spv_op2(x, ISA_OP_AND, ISA_T_U64, X, spv_I(F64_SIGN));
        sn = spv_sel(x, TD, spv_cmp(x, ISA_BINOP_EQ, TD, spv_R(s), spv_I(0)), spv_R(z), spv_R(sn));
    }
    if (kind != PI_SIN) {
        uint32_t d = spv_op2(x, ISA_OP_SUB, TD, spv_R(a), spv_I(F64_HALF));
        uint32_t u = spv_op1(x, ISA_OP_ABS, TD, spv_R(d));
        uint32_t s = sin_pi(x, spv_R(u));
        uint32_t ns = spv_op1(x, ISA_OP_NEG, TD, spv_R(s));
        cs = spv_sel(x, TD, spv_cmp(x, ISA_BINOP_GT, TD, spv_R(a), spv_I(F64_HALF)), spv_R(ns), spv_R(s));
    }
    return kind == PI_SIN ? sn : kind == PI_COS ? cs
         : spv_op2(x, ISA_OP_DIV, TD, spv_R(sn), spv_R(cs));
}

/* The sign of gamma(X) as lgamma_r reports it (glibc's convention): -1 for
 * -0 and for negative non-integers whose floor is odd, else +1 (poles,
 * infinities and NaN included). */
static uint32_t gamma_sign(xctx *x, isa_operand X)
{
    uint32_t i = cvt_rnd(x, ISA_T_I64, TD, X, ISA_RND_RTN);
    uint32_t fl = spv_cvt(x, TD, ISA_T_I64, spv_R(i));
    uint32_t a = spv_op1(x, ISA_OP_ABS, TD, X);
    uint32_t odd = spv_op2(x, ISA_OP_AND, ISA_T_U64, spv_R(i), spv_I(1));
    isa_operand p = spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_LT, TD, spv_R(a), spv_I(F64_2P52)),
                          spv_cmp(x, ISA_BINOP_LT, TD, X, spv_I(0)));
    p = spv_pop(x, ISA_OP_PAND, p, spv_cmp(x, ISA_BINOP_NE, TD, spv_R(fl), X));
    p = spv_pop(x, ISA_OP_PAND, p, spv_cmp(x, ISA_BINOP_NE, ISA_T_U64, spv_R(odd), spv_I(0)));
    p = spv_pop(x, ISA_OP_POR, p, spv_cmp(x, ISA_BINOP_EQ, ISA_T_U64, X, spv_I(F64_SIGN)));
    return spv_sel(x, ISA_T_I32, p, spv_I(0xffffffffu), spv_I(1));
}

/* remainder(X, Y) of two f64 and, in *quo, the low 7 bits of the quotient
 * with the sign of X / Y (remquo).  r = fmod(|X|, |Y|) is exact; so is
 * fmod(|X|, 128 |Y|) = k |Y| + r with k the truncated quotient mod 128
 * (128 |Y| overflowing to inf leaves |X|, k = 0, as it should), so k is
 * (r128 - r) / |Y| rounded to the nearest integer.  Past |Y| / 2, or at it
 * with an odd k, r - |Y| and k + 1; X's sign last.  fmod gives NaN for Y = 0
 * and infinite X, and X for infinite Y. */
static uint32_t rem_quo(xctx *x, isa_operand X, isa_operand Y, uint32_t *quo)
{
    uint32_t ax = spv_op1(x, ISA_OP_ABS, TD, X), ay = spv_op1(x, ISA_OP_ABS, TD, Y);
    uint32_t r = spv_op2(x, ISA_OP_REM, TD, spv_R(ax), spv_R(ay));
    uint32_t y128 = spv_op2(x, ISA_OP_MUL, TD, spv_R(ay), spv_I(F64_128));
    uint32_t r128 = spv_op2(x, ISA_OP_REM, TD, spv_R(ax), spv_R(y128));
    uint32_t kd = spv_op2(x, ISA_OP_DIV, TD, spv_R(spv_op2(x, ISA_OP_SUB, TD, spv_R(r128), spv_R(r))),
                        spv_R(ay));
    uint32_t k = cvt_rnd(x, ISA_T_I32, TD, spv_R(kd), ISA_RND_RTE);
    uint32_t odd = spv_op2(x, ISA_OP_AND, ISA_T_U32, spv_R(k), spv_I(1));
    uint32_t r2 = spv_op2(x, ISA_OP_ADD, TD, spv_R(r), spv_R(r));
    isa_operand up = spv_pop(x, ISA_OP_POR, spv_cmp(x, ISA_BINOP_GT, TD, spv_R(r2), spv_R(ay)),
                           spv_pop(x, ISA_OP_PAND, spv_cmp(x, ISA_BINOP_EQ, TD, spv_R(r2), spv_R(ay)),
                                 spv_cmp(x, ISA_BINOP_NE, ISA_T_U32, spv_R(odd), spv_I(0))));
    uint32_t rd = spv_op2(x, ISA_OP_SUB, TD, spv_R(r), spv_R(ay));
    r = spv_sel(x, TD, up, spv_R(rd), spv_R(r));
    isa_operand xneg = spv_cmp(x, ISA_BINOP_LT, ISA_T_I64, X, spv_I(0));
    r = spv_sel(x, TD, xneg, spv_R(spv_op1(x, ISA_OP_NEG, TD, spv_R(r))), spv_R(r));
    if (quo) {
        uint32_t k1 = spv_op2(x, ISA_OP_ADD, ISA_T_U32, spv_R(k), spv_I(1));
        k = spv_sel(x, ISA_T_U32, up, spv_R(k1), spv_R(k));
        k = spv_op2(x, ISA_OP_AND, ISA_T_U32, spv_R(k), spv_I(127));
        isa_operand qneg = spv_pop(x, ISA_OP_PXOR, xneg,
                                 spv_cmp(x, ISA_BINOP_LT, ISA_T_I64, Y, spv_I(0)));
        uint32_t nk = spv_op1(x, ISA_OP_NEG, ISA_T_I32, spv_R(k));
        *quo = spv_sel(x, ISA_T_I32, qneg, spv_R(nk), spv_R(k));
    }
    return r;
}

static isa_type uint_type(isa_type t)
{
    switch (isa_types[t].bytes) {
    case 1: return ISA_T_U8;
    case 2: return ISA_T_U16;
    case 4: return ISA_T_U32;
    default: return ISA_T_U64;
    }
}

/* mad_sat(a, b, c) of integer type t: below 64 bits a b + c is exact in 64
 * bits and clamped; 64-bit: the 128-bit sum (mul_hi : mul) + c, saturated
 * when it does not fit (unsigned: a high word or a carry; signed: the high
 * word is not the sign extension of the low one). */
static uint32_t mad_sat(xctx *x, isa_type t, isa_operand a, isa_operand b, isa_operand c)
{
    const bool sg = isa_types[t].is_signed;
    const unsigned bits = isa_types[t].bytes * 8u;
    const isa_type i64 = ISA_T_I64, u64 = ISA_T_U64;
    if (bits < 64) {
        isa_type w = sg ? i64 : u64;
        uint32_t A = spv_cvt(x, w, t, a), B = spv_cvt(x, w, t, b), C = spv_cvt(x, w, t, c);
        uint32_t s = spv_op2(x, ISA_OP_ADD, w, spv_R(spv_op2(x, ISA_OP_MUL, w, spv_R(A), spv_R(B))), spv_R(C));
        uint64_t hi = sg ? (1ull << (bits - 1)) - 1 : (1ull << bits) - 1;
        s = spv_op2(x, ISA_OP_MIN, w, spv_R(s), spv_I(hi));
        if (sg)
            s = spv_op2(x, ISA_OP_MAX, w, spv_R(s), spv_I((uint64_t)-(int64_t)(1ull << (bits - 1))));
        return spv_cvt(x, t, w, spv_R(s));
    }
    uint32_t hi = spv_op2(x, ISA_OP_MUL_HI, sg ? i64 : u64, a, b);
    uint32_t lo = spv_op2(x, ISA_OP_MUL, u64, a, b);
    uint32_t s = spv_op2(x, ISA_OP_ADD, u64, spv_R(lo), c);
    isa_operand carry = spv_cmp(x, ISA_BINOP_LT, u64, spv_R(s), spv_R(lo));
    if (!sg)
        return spv_sel(x, u64, spv_pop(x, ISA_OP_POR, carry,
                                  spv_cmp(x, ISA_BINOP_NE, u64, spv_R(hi), spv_I(0))),
                    spv_I(~0ull), spv_R(s));
    /* high word of the sum: hi + (c < 0 ? -1 : 0) + carry (never wraps) */
    uint32_t cs = spv_op2(x, ISA_OP_SHR, i64, c, spv_I(63));
    uint32_t cy = spv_sel(x, i64, carry, spv_I(1), spv_I(0));
    uint32_t sh = spv_op2(x, ISA_OP_ADD, i64, spv_R(spv_op2(x, ISA_OP_ADD, i64, spv_R(hi), spv_R(cs))),
                        spv_R(cy));
    uint32_t ss = spv_op2(x, ISA_OP_SHR, i64, spv_R(s), spv_I(63));
    uint32_t lim = spv_sel(x, i64, spv_cmp(x, ISA_BINOP_LT, i64, spv_R(sh), spv_I(0)),
                        spv_I(0x8000000000000000ull), spv_I(0x7fffffffffffffffull));
    return spv_sel(x, i64, spv_cmp(x, ISA_BINOP_EQ, i64, spv_R(sh), spv_R(ss)), spv_R(s), spv_R(lim));
}

enum { M_SINPI, M_COSPI, M_TANPI, M_ASINPI, M_ACOSPI, M_ATANPI, M_ATAN2PI, M_LGAMMA_R,
       M_REMQUO, M_REMAINDER, M_SMADSAT, M_UMADSAT };

/* name, kind, value operands, an int pointer operand after them */
static const struct math_row {
    const char *name;
    uint8_t kind, nsrc;
    bool ptr;
} math_rows[] = {
    { "sinpi", M_SINPI, 1, false },       { "cospi", M_COSPI, 1, false },
    { "tanpi", M_TANPI, 1, false },       { "asinpi", M_ASINPI, 1, false },
    { "acospi", M_ACOSPI, 1, false },     { "atanpi", M_ATANPI, 1, false },
    { "atan2pi", M_ATAN2PI, 2, false },   { "lgamma_r", M_LGAMMA_R, 1, true },
    { "remquo", M_REMQUO, 2, true },      { "remainder", M_REMAINDER, 2, false },
    { "s_mad_sat", M_SMADSAT, 3, false }, { "u_mad_sat", M_UMADSAT, 3, false },
};

/* One component: result register, *out the value stored through the
 * pointer (lgamma_r, remquo). */
static uint32_t math_one(xctx *x, int kind, isa_type t, const isa_operand *s, uint32_t *out)
{
    if (kind == M_SMADSAT || kind == M_UMADSAT)
        return mad_sat(x, t, s[0], s[1], s[2]);
    if (kind == M_LGAMMA_R) {
        isa_operand d = t == TD ? s[0] : spv_R(spv_cvt(x, TD, t, s[0]));
        *out = gamma_sign(x, d);
        return spv_op1(x, ISA_OP_LGAMMA, t, s[0]);
    }
    isa_operand a = t == TD ? s[0] : spv_R(spv_cvt(x, TD, t, s[0]));
    isa_operand b = a;
    if (kind == M_ATAN2PI || kind == M_REMQUO || kind == M_REMAINDER)
        b = t == TD ? s[1] : spv_R(spv_cvt(x, TD, t, s[1]));
    uint32_t r;
    switch (kind) {
    case M_SINPI: r = pi_trig(x, PI_SIN, a); break;
    case M_COSPI: r = pi_trig(x, PI_COS, a); break;
    case M_TANPI: r = pi_trig(x, PI_TAN, a); break;
    case M_REMQUO: r = rem_quo(x, a, b, out); break;
    case M_REMAINDER: r = rem_quo(x, a, b, NULL); break;
    default: {
        /* op(a) / pi: pi's rounding cancels where op gives pi_d exactly
         * (atan2pi(+0, -0) = 1, asinpi(1) = 1/2) */
        uint32_t v = kind == M_ATAN2PI ? spv_op2(x, ISA_OP_ATAN2, TD, a, b)
                   : spv_op1(x, kind == M_ASINPI ? ISA_OP_ASIN : kind == M_ACOSPI ? ISA_OP_ACOS
                              : ISA_OP_ATAN, TD, a);
        r = spv_op2(x, ISA_OP_DIV, TD, spv_R(v), spv_I(F64_PI));
        break;
    }
    }
    return t == TD ? r : spv_cvt(x, t, TD, spv_R(r));
}

bool spv_lower_math(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    const struct math_row *row = NULL;
    for (unsigned i = 0; i < sizeof math_rows / sizeof math_rows[0] && !row; i++)
        if (!strcmp(math_rows[i].name, name))
            row = &math_rows[i];
    if (!row)
        return false;
    spv_module *m = x->m;
    if (in->nw < 5u + row->nsrc + row->ptr) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    xval *s[3] = { NULL, NULL, NULL }, *p = NULL;
    const unsigned nsrc = row->nsrc < 3 ? row->nsrc : 3;
    for (unsigned i = 0; i < nsrc; i++)
        if (!(s[i] = spv_val(x, f, spv_word(m, in, 5 + i))) || !s[i]->n)
            return true;
    if (row->ptr && (!(p = spv_val(x, f, spv_word(m, in, 5 + nsrc))) || !p->n))
        return true;
    const spv_type *rt = spv_type_lookup(x, spv_word(m, in, 1));
    if (!rt)
        return true;
    isa_type t = spv_comp_type(rt);
    const bool ints = row->kind == M_SMADSAT || row->kind == M_UMADSAT;
    if (ints ? t >= ISA_T_COUNT || isa_types[t].is_float : t != ISA_T_F32 && t != TD) {
        spv_error(x, "OpenCL.std '%s' is lowered for %s only", name,
                ints ? "integer types" : "float and double");
        return true;
    }
    if (ints)
        t = row->kind == M_SMADSAT ? spv_signed(t) : uint_type(t);
    uint32_t res[XV_MAX], out[XV_MAX];
    const unsigned nc = rt->ncomp < XV_MAX ? rt->ncomp : XV_MAX;
    for (unsigned c = 0; c < nc; c++) {
        isa_operand o[3];
        memset(o, 0, sizeof o);
        for (unsigned i = 0; i < nsrc; i++)
            o[i] = spv_src(x, &s[i]->c[c < s[i]->n ? c : 0]);
        out[c] = 0;
        res[c] = math_one(x, row->kind, t, o, &out[c]);
    }
    if (row->ptr) {            /* one i32 per component, in order */
        isa_space sp;
        isa_operand ad = spv_addr_of(x, &p->c[0], &sp);
        for (unsigned c = 0; c < nc; c++) {
            isa_inst *st = spv_emit(x, ISA_OP_ST, ISA_T_I32);
            st->space = (uint8_t)sp;
            st->o[0] = ad;
            st->o[0].addr.disp = (int64_t)((uint64_t)st->o[0].addr.disp + c * 4u);
            st->o[1] = spv_R(out[c]);
            st->nopnd = 2;
        }
    }
    xval *v = spv_def(x, f, spv_word(m, in, 2), nc);
    for (unsigned c = 0; v && c < nc; c++) {
        v->c[c].o = spv_R(res[c]);
        v->c[c].space = X_SPACE_NONE;
    }
    return true;
}
