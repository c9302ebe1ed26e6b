/* spirv_math.c - OpenCL.std pow, pown and rootn lowered around
 * exp2(y * log2|x|), with the special cases of the OpenCL C spec (C99 Annex
 * F) selected afterwards.  float is computed in double (sgemu's exp2/log2 are
 * libm's double functions), so float results are within 1 ulp; double
 * results carry the error of y * log2|x| through exp2 (see docs/opencl.md). */
#include "spirv_xlate.h"

#define F64_ONE  0x3ff0000000000000ull
#define F64_TWO  0x4000000000000000ull
#define F64_INF  0x7ff0000000000000ull
#define F64_NINF 0xfff0000000000000ull
#define F64_NAN  0x7ff8000000000000ull

enum { K_POW, K_POWN, K_ROOTN };

uint32_t x_op1(xctx *x, isa_opcode op, isa_type t, isa_operand a)
{
    uint32_t r = x_reg(x, 1);
    isa_inst *in = x_emit(x, op, t);
    in->o[0] = x_R(r);
    in->o[1] = a;
    in->nopnd = 2;
    return r;
}

uint32_t x_op2(xctx *x, isa_opcode op, isa_type t, isa_operand a, isa_operand b)
{
    uint32_t r = x_reg(x, 1);
    isa_inst *in = x_emit(x, op, t);
    in->o[0] = x_R(r);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = 3;
    return r;
}

uint32_t x_cvt(xctx *x, isa_type to, isa_type from, isa_operand a)
{
    uint32_t r = x_op1(x, ISA_OP_CVT, to, a);
    x->code[x->ncode - 1].src_type = (uint8_t)from;
    return r;
}

/* A fresh predicate: a `cond` b. */
isa_operand x_cmp(xctx *x, isa_binop cond, isa_type t, isa_operand a, isa_operand b)
{
    uint32_t gen, p = x_pred(x, &gen);
    isa_inst *in = x_emit(x, ISA_OP_CMP, t);
    in->cond = (uint8_t)cond;
    in->o[0] = x_P(p, false);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = 3;
    return x_P(p, false);
}

isa_operand x_pop(xctx *x, isa_opcode op, isa_operand a, isa_operand b)
{
    uint32_t gen, p = x_pred(x, &gen);
    isa_inst *in = x_emit(x, op, ISA_T_NONE);
    in->o[0] = x_P(p, false);
    in->o[1] = a;
    in->o[2] = b;
    in->nopnd = op == ISA_OP_PNOT ? 2 : 3;
    return x_P(p, false);
}

/* r = p ? a : r (in place, f64). */
static void sel_into(xctx *x, uint32_t r, isa_operand p, isa_operand a)
{
    isa_inst *in = x_emit(x, ISA_OP_SEL, ISA_T_F64);
    in->o[0] = x_R(r);
    in->o[1] = p;
    in->o[2] = a;
    in->o[3] = x_R(r);
    in->nopnd = 4;
}

/* One component: X (f64 register) and the exponent operand e of type et. */
static uint32_t lower_one(xctx *x, int kind, uint32_t X, isa_operand e, isa_type et)
{
    isa_operand Y;
    if (kind == K_POW)
        Y = et == ISA_T_F64 ? e : x_R(x_cvt(x, ISA_T_F64, et, e));
    else if (kind == K_POWN)
        Y = x_R(x_cvt(x, ISA_T_F64, ISA_T_I32, e));
    else
        Y = x_R(x_op2(x, ISA_OP_DIV, ISA_T_F64, x_I(F64_ONE),
                    x_R(x_cvt(x, ISA_T_F64, ISA_T_I32, e))));
    uint32_t A = x_op1(x, ISA_OP_ABS, ISA_T_F64, x_R(X));
    uint32_t L = x_op1(x, ISA_OP_LOG2, ISA_T_F64, x_R(A));
    uint32_t M = x_op2(x, ISA_OP_MUL, ISA_T_F64, Y, x_R(L));
    uint32_t R = x_op1(x, ISA_OP_EXP2, ISA_T_F64, x_R(M));

    /* odd integer exponent: the sign of x carries over (x = -0 included) */
    isa_operand odd;
    if (kind == K_ROOTN) {
        uint32_t b = x_op2(x, ISA_OP_AND, ISA_T_I32, e, x_I(1));
        odd = x_cmp(x, ISA_BINOP_NE, ISA_T_I32, x_R(b), x_I(0));
    } else {
        uint32_t h = x_op2(x, ISA_OP_REM, ISA_T_F64, Y, x_I(F64_TWO));
        uint32_t ha = x_op1(x, ISA_OP_ABS, ISA_T_F64, x_R(h));
        odd = x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, x_R(ha), x_I(F64_ONE));
    }
    isa_operand sign = x_cmp(x, ISA_BINOP_LT, ISA_T_I64, x_R(X), x_I(0));
    uint32_t N = x_op1(x, ISA_OP_NEG, ISA_T_F64, x_R(R));
    sel_into(x, R, x_pop(x, ISA_OP_PAND, sign, odd), x_R(N));

    isa_operand xneg = x_cmp(x, ISA_BINOP_LT, ISA_T_F64, x_R(X), x_I(0));
    if (kind == K_POW) {
        /* finite x < 0 with a finite non-integer y: NaN */
        uint32_t fr = x_op2(x, ISA_OP_REM, ISA_T_F64, Y, x_I(F64_ONE));
        uint32_t fa = x_op1(x, ISA_OP_ABS, ISA_T_F64, x_R(fr));
        isa_operand nonint = x_cmp(x, ISA_BINOP_GT, ISA_T_F64, x_R(fa), x_I(0));
        isa_operand fin = x_cmp(x, ISA_BINOP_GT, ISA_T_F64, x_R(X), x_I(F64_NINF));
        sel_into(x, R, x_pop(x, ISA_OP_PAND, x_pop(x, ISA_OP_PAND, xneg, fin), nonint),
                 x_I(F64_NAN));
        /* pow(+1, y) = 1, pow(-1, +-inf) = 1 */
        sel_into(x, R, x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, x_R(X), x_I(F64_ONE)), x_I(F64_ONE));
        uint32_t ya = x_op1(x, ISA_OP_ABS, ISA_T_F64, Y);
        isa_operand m1 = x_pop(x, ISA_OP_PAND,
                             x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, x_R(A), x_I(F64_ONE)),
                             x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, x_R(ya), x_I(F64_INF)));
        sel_into(x, R, m1, x_I(F64_ONE));
    }
    if (kind == K_ROOTN) {
        /* x < 0 with even n, and n = 0: NaN */
        isa_operand even = x_pop(x, ISA_OP_PNOT, odd, odd);
        sel_into(x, R, x_pop(x, ISA_OP_PAND, xneg, even), x_I(F64_NAN));
        sel_into(x, R, x_cmp(x, ISA_BINOP_EQ, ISA_T_I32, e, x_I(0)), x_I(F64_NAN));
    } else {
        /* x^0 = 1 for every x, NaN included */
        sel_into(x, R, x_cmp(x, ISA_BINOP_EQ, ISA_T_F64, Y, x_I(0)), x_I(F64_ONE));
    }
    return R;
}

bool x_lower_pow(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    int kind;
    if (!strcmp(name, "pow"))
        kind = K_POW;
    else if (!strcmp(name, "pown"))
        kind = K_POWN;
    else if (!strcmp(name, "rootn"))
        kind = K_ROOTN;
    else
        return false;
    spv_module *m = x->m;
    if (in->nw < 7) {
        x_error(x, "'%s' has too few operands", name);
        return true;
    }
    const spv_type *t = x_type(x, spv_word(m, in, 1));
    xval *a = x_val(x, f, spv_word(m, in, 5)), *b = x_val(x, f, spv_word(m, in, 6));
    if (!t || !a || !b || !a->n || !b->n)
        return true;
    isa_type ty = x_comp_type(t);
    if (ty != ISA_T_F32 && ty != ISA_T_F64) {
        x_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    isa_type et = kind == K_POW ? ty : ISA_T_I32;
    xval r;
    memset(&r, 0, sizeof r);
    r.n = t->ncomp;
    for (unsigned c = 0; c < t->ncomp && c < XV_MAX; c++) {
        isa_operand xs = x_src(x, &a->c[a->n == 1 ? 0 : c]);
        isa_operand es = x_src(x, &b->c[b->n == 1 ? 0 : c]);
        uint32_t X = ty == ISA_T_F64 ? x_op1(x, ISA_OP_MOV, ISA_T_F64, xs)
                                     : x_cvt(x, ISA_T_F64, ISA_T_F32, xs);
        uint32_t R = lower_one(x, kind, X, es, et);
        if (ty == ISA_T_F32)
            R = x_cvt(x, ISA_T_F32, ISA_T_F64, x_R(R));
        r.c[c].o = x_R(R);
        r.c[c].space = X_SPACE_NONE;
    }
    xval *v = x_def(x, f, spv_word(m, in, 2), r.n);
    if (v)
        *v = r;
    return true;
}
