/* spirv_ops.c - SPIR-V value instructions -> sgemu ALU, compare, convert,
 * select and OpenCL.std instructions (group instructions: spirv_group.c).
 * Vectors are split into one scalar instruction per component. */
#include "spirv_private.h"

#include <stdio.h>
#include <string.h>

/* SPIR-V arithmetic -> sgemu opcode (operand count from the row's shape). */
#define SPV_ALU_OPS(X) \
    X(IAdd, ADD, T) X(ISub, SUB, T) X(IMul, MUL, T) X(UDiv, DIV, U) X(SDiv, DIV, S) \
    X(UMod, REM, U) X(SRem, REM, S) X(FAdd, ADD, T) X(FSub, SUB, T) X(FMul, MUL, T) \
    X(FDiv, DIV, T) X(FRem, REM, T) X(FNegate, NEG, T) X(SNegate, NEG, S) X(Not, NOT, T) \
    X(BitwiseAnd, AND, T) X(BitwiseOr, OR, T) X(BitwiseXor, XOR, T) \
    X(ShiftLeftLogical, SHL, T) X(ShiftRightLogical, SHR, U) \
    X(ShiftRightArithmetic, SHR, S) X(BitCount, POPCOUNT, T)

/* SPIR-V compares -> condition; NEG: the negated ordered compare. */
#define SPV_CMP_OPS(X) \
    X(IEqual, EQ, T, 0) X(INotEqual, NE, T, 0) X(UGreaterThan, GT, U, 0) \
    X(SGreaterThan, GT, S, 0) X(UGreaterThanEqual, GE, U, 0) X(SGreaterThanEqual, GE, S, 0) \
    X(ULessThan, LT, U, 0) X(SLessThan, LT, S, 0) X(ULessThanEqual, LE, U, 0) \
    X(SLessThanEqual, LE, S, 0) X(FOrdEqual, EQ, T, 0) X(FUnordNotEqual, NE, T, 0) \
    X(FOrdLessThan, LT, T, 0) X(FOrdGreaterThan, GT, T, 0) X(FOrdLessThanEqual, LE, T, 0) \
    X(FOrdGreaterThanEqual, GE, T, 0) X(FUnordLessThan, GE, T, 1) \
    X(FUnordGreaterThan, LE, T, 1) X(FUnordLessThanEqual, GT, T, 1) \
    X(FUnordGreaterThanEqual, LT, T, 1)

isa_type spv_with_sign(isa_type t, int sg)
{
    if (sg == SG_S)
        return spv_signed(t);
    if (sg == SG_U && t < ISA_T_COUNT && !isa_types[t].is_float) {
        switch (t) {
        case ISA_T_I8: return ISA_T_U8;
        case ISA_T_I16: return ISA_T_U16;
        case ISA_T_I32: return ISA_T_U32;
        case ISA_T_I64: return ISA_T_U64;
        default: return t;
        }
    }
    return t;
}

/* Result type of `in` (word 1) and its value in f (word 2), with fresh
 * registers; NULL after an error. */
xval *spv_result(xctx *x, xfn *f, const spv_inst *in, const spv_type **tp)
{
    const spv_type *t = spv_type_lookup(x, spv_word(x->m, in, 1));
    *tp = t;
    if (!t)
        return NULL;
    if (t->kind != SPV_TY_INT && t->kind != SPV_TY_FLOAT && t->kind != SPV_TY_VEC &&
        t->kind != SPV_TY_BOOL) {
        spv_error(x, "unsupported result type");
        return NULL;
    }
    return spv_def(x, f, spv_word(x->m, in, 2), t->ncomp);
}

isa_type spv_ctype(const spv_type *t)
{
    return t->isa_t != ISA_T_NONE ? (isa_type)t->isa_t : ISA_T_U32;
}

/* Operand values at words first.. (n of them). */
bool spv_operands(xctx *x, xfn *f, const spv_inst *in, unsigned first, unsigned n,
                  xval **v)
{
    for (unsigned i = 0; i < n; i++) {
        v[i] = spv_val(x, f, spv_word(x->m, in, first + i));
        if (!v[i] || !v[i]->n)
            return false;
    }
    return true;
}

/* Component c of v (scalars splat). */
const xc *spv_comp(const xval *v, unsigned c)
{
    return &v->c[v->n == 1 ? 0 : (c < v->n ? c : 0)];
}

/* Per component: rD = op(src...) */
void spv_emit_map(xctx *x, xval *r, const spv_type *t, isa_opcode op, isa_type ty,
                  xval **src, unsigned n)
{
    uint32_t base = spv_reg(x, t->ncomp);
    r->n = t->ncomp;
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand s[4];
        for (unsigned i = 0; i < n; i++)
            s[i] = spv_src(x, spv_comp(src[i], c));
        isa_inst *in = spv_emit(x, op, ty);
        in->o[0] = spv_R(base + c);
        for (unsigned i = 0; i < n; i++)
            in->o[1 + i] = s[i];
        in->nopnd = (uint8_t)(1 + n);
        memset(&r->c[c], 0, sizeof r->c[c]);
        r->c[c].o = spv_R(base + c);
        r->c[c].space = X_SPACE_NONE;
    }
}

static void set_rounding(xctx *x, uint32_t id, isa_inst *in)
{
    if (x->m->saturate[id])
        in->flags |= ISA_F_SAT;
    if (x->m->rounding[id]) {
        static const uint8_t map[] = { ISA_RND_RTE, ISA_RND_RTZ, ISA_RND_RTP, ISA_RND_RTN };
        unsigned r = x->m->rounding[id] - 1u;
        if (r < 4)
            in->flags |= (uint16_t)(map[r] << ISA_F_RND_SHIFT);
    }
}

/* The isa type of the value operand at word w (from its defining type). */
const spv_type *spv_type_of_id(xctx *x, uint32_t id)
{
    spv_module *m = x->m;
    if (!id || id >= m->bound || !m->def[id]) {
        spv_error(x, "id %u has no definition", id);
        return NULL;
    }
    const spv_inst *d = &m->ins[m->def[id] - 1];
    const spv_op_info *oi = spv_op_find(d->op);
    if (!oi || !oi->has_type) {
        spv_error(x, "id %u has no type", id);
        return NULL;
    }
    return spv_type_lookup(x, spv_word(m, d, 1));
}

/* The common head of conversions, compares and class tests: n operands from
 * word 3 into s, the type of the first (*ot) and the result (its type *t);
 * NULL if any of them is missing. */
static xval *typed_operands(xctx *x, xfn *f, const spv_inst *in, unsigned n, xval **s,
                            const spv_type **ot, const spv_type **t)
{
    if (!spv_operands(x, f, in, 3, n, s))
        return NULL;
    *ot = spv_type_of_id(x, spv_word(x->m, in, 3));
    xval *r = spv_result(x, f, in, t);
    return *ot ? r : NULL;
}

static void do_convert(xctx *x, xfn *f, const spv_inst *in)
{
    const spv_type *t, *st;
    xval *src;
    xval *r = typed_operands(x, f, in, 1, &src, &st, &t);
    if (!r)
        return;
    isa_type dt = spv_ctype(t), sty = spv_ctype(st);
    switch (in->op) {
    case SpvOpConvertFToS: dt = spv_signed(dt); break;
    case SpvOpConvertSToF: case SpvOpSConvert: sty = spv_signed(sty);
        if (in->op == SpvOpSConvert) dt = spv_signed(dt);
        break;
    default: break;
    }
    uint32_t id = spv_word(x->m, in, 2);
    bool plain = !x->m->saturate[id] && !x->m->rounding[id];
    /* registers hold values zero-extended: widening unsigned is free */
    if (plain && in->op == SpvOpUConvert && isa_types[dt].bytes >= isa_types[sty].bytes) {
        for (unsigned c = 0; c < t->ncomp; c++) {
            r->c[c] = *spv_comp(src, c);
            r->c[c].has_pred = 0;
        }
        r->n = t->ncomp;
        return;
    }
    uint32_t base = spv_reg(x, t->ncomp);
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand s = spv_src(x, spv_comp(src, c));
        isa_inst *ci = spv_emit(x, ISA_OP_CVT, dt);
        ci->src_type = (uint8_t)sty;
        ci->o[0] = spv_R(base + c);
        ci->o[1] = s;
        ci->nopnd = 2;
        set_rounding(x, id, ci);
        memset(&r->c[c], 0, sizeof r->c[c]);
        r->c[c].o = spv_R(base + c);
    }
}

static void do_compare(xctx *x, xfn *f, const spv_inst *in, isa_binop cond, int sg, bool neg)
{
    const spv_type *t, *ot;
    xval *s[2];
    xval *r = typed_operands(x, f, in, 2, s, &ot, &t);
    if (!r)
        return;
    isa_type ty = spv_with_sign(ot->kind == SPV_TY_PTR ? ISA_T_U64 : spv_ctype(ot), sg);
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand a = spv_src(x, spv_comp(s[0], c)), b = spv_src(x, spv_comp(s[1], c));
        uint32_t gen, p = spv_pred(x, &gen);
        isa_inst *ci = spv_emit(x, ISA_OP_CMP, ty);
        ci->cond = (uint8_t)cond;
        ci->o[0] = spv_P(p, false);
        ci->o[1] = a;
        ci->o[2] = b;
        ci->nopnd = 3;
        spv_set_bool(x, &r->c[c], p, gen, neg);
    }
}

/* FOrdNotEqual (lt or gt) and FUnordEqual (its negation). */
static void do_ord_ne(xctx *x, xfn *f, const spv_inst *in, bool neg)
{
    const spv_type *t, *ot;
    xval *s[2];
    xval *r = typed_operands(x, f, in, 2, s, &ot, &t);
    if (!r)
        return;
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand a = spv_src(x, spv_comp(s[0], c)), b = spv_src(x, spv_comp(s[1], c));
        uint32_t g1, g2, g3, p1 = spv_pred(x, &g1), p2 = spv_pred(x, &g2), p3 = spv_pred(x, &g3);
        static const isa_binop conds[2] = { ISA_BINOP_LT, ISA_BINOP_GT };
        uint32_t ps[2] = { p1, p2 };
        for (int k = 0; k < 2; k++) {
            isa_inst *ci = spv_emit(x, ISA_OP_CMP, spv_ctype(ot));
            ci->cond = (uint8_t)conds[k];
            ci->o[0] = spv_P(ps[k], false);
            ci->o[1] = a;
            ci->o[2] = b;
            ci->nopnd = 3;
        }
        isa_inst *po = spv_emit(x, ISA_OP_POR, ISA_T_NONE);
        po->o[0] = spv_P(p3, false);
        po->o[1] = spv_P(p1, false);
        po->o[2] = spv_P(p2, false);
        po->nopnd = 3;
        spv_set_bool(x, &r->c[c], p3, g3, neg);
    }
}

/* isnan / isinf / isfinite-like tests: a single compare per component. */
static void do_class(xctx *x, xfn *f, const spv_inst *in)
{
    const spv_type *t, *ot;
    xval *s;
    xval *r = typed_operands(x, f, in, 1, &s, &ot, &t);
    if (!r)
        return;
    isa_type ft = spv_ctype(ot);
    uint64_t inf = ft == ISA_T_F16 ? 0x7c00 : ft == ISA_T_F64 ? 0x7ff0000000000000ull : 0x7f800000;
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand a = spv_src(x, spv_comp(s, c));
        uint32_t gen, p = spv_pred(x, &gen);
        isa_inst *ci;
        if (in->op == SpvOpIsNan) {
            ci = spv_emit(x, ISA_OP_CMP, ft);
            ci->cond = ISA_BINOP_NE;
            ci->o[1] = a;
            ci->o[2] = a;
        } else {
            uint32_t ab = spv_reg(x, 1);
            isa_inst *ai = spv_emit(x, ISA_OP_ABS, ft);
            ai->o[0] = spv_R(ab);
            ai->o[1] = a;
            ai->nopnd = 2;
            ci = spv_emit(x, ISA_OP_CMP, ft);
            ci->cond = ISA_BINOP_EQ;
            ci->o[1] = spv_R(ab);
            ci->o[2] = spv_I(inf);
        }
        ci->o[0] = spv_P(p, false);
        ci->nopnd = 3;
        spv_set_bool(x, &r->c[c], p, gen, false);
    }
}

static void do_logical(xctx *x, xfn *f, const spv_inst *in)
{
    const spv_type *t;
    unsigned n = in->op == SpvOpLogicalNot ? 1 : 2;
    xval *s[2];
    if (!spv_operands(x, f, in, 3, n, s))
        return;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return;
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand a = spv_predof(x, spv_comp(s[0], c));
        isa_operand b = n > 1 ? spv_predof(x, spv_comp(s[1], c)) : a;
        uint32_t gen, p = spv_pred(x, &gen);
        isa_opcode op = ISA_OP_PAND;
        bool neg = false;
        switch (in->op) {
        case SpvOpLogicalAnd: op = ISA_OP_PAND; break;
        case SpvOpLogicalOr: op = ISA_OP_POR; break;
        case SpvOpLogicalNotEqual: op = ISA_OP_PXOR; break;
        case SpvOpLogicalEqual: op = ISA_OP_PXOR; neg = true; break;
        default: op = ISA_OP_PNOT; break;
        }
        isa_inst *pi = spv_emit(x, op, ISA_T_NONE);
        pi->o[0] = spv_P(p, false);
        pi->o[1] = a;
        pi->o[2] = b;
        pi->nopnd = op == ISA_OP_PNOT ? 2 : 3;
        spv_set_bool(x, &r->c[c], p, gen, neg);
    }
}

static void do_select(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s[3];
    if (!spv_operands(x, f, in, 3, 3, s))
        return;
    const spv_type *t = spv_type_lookup(x, spv_word(x->m, in, 1));
    if (!t)
        return;
    if (t->kind != SPV_TY_INT && t->kind != SPV_TY_FLOAT && t->kind != SPV_TY_VEC &&
        t->kind != SPV_TY_BOOL && t->kind != SPV_TY_PTR) {
        spv_error(x, "select of aggregates is not supported");
        return;
    }
    xval *r = spv_def(x, f, spv_word(x->m, in, 2), t->ncomp);
    if (!r)
        return;
    isa_type ty = t->kind == SPV_TY_PTR ? ISA_T_U64 : spv_ctype(t);
    uint32_t base = spv_reg(x, t->ncomp);
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand p = spv_predof(x, spv_comp(s[0], c));
        isa_operand a = spv_src(x, spv_comp(s[1], c)), b = spv_src(x, spv_comp(s[2], c));
        isa_inst *si = spv_emit(x, ISA_OP_SEL, ty);
        si->o[0] = spv_R(base + c);
        si->o[1] = p;
        si->o[2] = a;
        si->o[3] = b;
        si->nopnd = 4;
        memset(&r->c[c], 0, sizeof r->c[c]);
        r->c[c].o = spv_R(base + c);
        r->c[c].space = spv_comp(s[1], c)->space;
        if (t->kind == SPV_TY_PTR && spv_comp(s[1], c)->space != spv_comp(s[2], c)->space)
            spv_error(x, "select between pointers of different address spaces");
    }
}

static void do_bitcast(xctx *x, xfn *f, const spv_inst *in)
{
    xval *s;
    if (!spv_operands(x, f, in, 3, 1, &s))
        return;
    const spv_type *t = spv_type_lookup(x, spv_word(x->m, in, 1));
    const spv_type *st = spv_type_of_id(x, spv_word(x->m, in, 3));
    if (!t || !st)
        return;
    if (t->kind == SPV_TY_PTR) {
        xval *r = spv_def(x, f, spv_word(x->m, in, 2), 1);
        if (r) {
            r->c[0] = s->c[0];
            if (st->kind != SPV_TY_PTR) {
                r->c[0].o = spv_src(x, &s->c[0]);
                r->c[0].space = X_SPACE_NONE;
            }
        }
        return;
    }
    if (t->ncomp != st->ncomp || (t->isa_t < ISA_T_COUNT && st->isa_t < ISA_T_COUNT &&
                                  isa_types[t->isa_t].bytes != isa_types[st->isa_t].bytes)) {
        spv_bitcast_regroup(x, f, in, s, t, st);
        return;
    }
    xval *r = spv_def(x, f, spv_word(x->m, in, 2), t->ncomp);
    if (!r)
        return;
    for (unsigned c = 0; c < t->ncomp; c++) {
        r->c[c] = s->c[c];
        if (r->c[c].o.kind == ISA_OPND_ADDR)
            r->c[c].o = spv_src(x, &s->c[c]);
        r->c[c].space = X_SPACE_NONE;
    }
}

/* native_ and half_ exp, exp10, log, log10 and powr through exp2/log2 and a
 * constant factor in the type (their accuracy is the implementation's; the
 * rounding of x * log2 e costs up to |x log2 e| 2^-24 relative, so
 * exp(88.7f) is about 100 ulp off).  The plain functions are instructions
 * (exp, log, ...) or spirv_math.c's powr. */
static bool lowered_exp_log(xctx *x, xfn *f, const spv_inst *in, const char *name)
{
    static const struct { const char *name; int kind; double k; } rows[] = {
        /* kind 0: exp2(x * k); 1: log2(x) * k; 2: exp2(y * log2(x)) */
        { "native_exp", 0, 1.4426950408889634074 }, { "half_exp", 0, 1.4426950408889634074 },
        { "native_exp10", 0, 3.3219280948873623479 }, { "half_exp10", 0, 3.3219280948873623479 },
        { "native_log", 1, 0.69314718055994530942 }, { "half_log", 1, 0.69314718055994530942 },
        { "native_log10", 1, 0.30102999566398119521 }, { "half_log10", 1, 0.30102999566398119521 },
        { "native_powr", 2, 0 }, { "half_powr", 2, 0 },
    };
    unsigned i = 0;
    while (i < sizeof rows / sizeof rows[0] && strcmp(rows[i].name, name))
        i++;
    if (i == sizeof rows / sizeof rows[0])
        return false;
    const spv_type *t;
    xval *s[2];
    unsigned n = rows[i].kind == 2 ? 2 : 1;
    if (in->nw < 5 + n || !spv_operands(x, f, in, 5, n, s))
        return true;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return true;
    isa_type ty = spv_ctype(t);
    if (!isa_types[ty].is_float || (ty != ISA_T_F32 && ty != ISA_T_F64)) {
        spv_error(x, "OpenCL.std '%s' is lowered for float and double only", name);
        return true;
    }
    xval k, tmp, tmp2;
    memset(&k, 0, sizeof k);
    k.n = 1;
    k.c[0].space = X_SPACE_NONE;
    if (ty == ISA_T_F32) {
        float kf = (float)rows[i].k;
        uint32_t b;
        memcpy(&b, &kf, 4);
        k.c[0].o = spv_I(b);
    } else {
        uint64_t b;
        memcpy(&b, &rows[i].k, 8);
        k.c[0].o = spv_I(b);
    }
    xval *a[2];
    switch (rows[i].kind) {
    case 0:
        a[0] = s[0]; a[1] = &k;
        spv_emit_map(x, &tmp, t, ISA_OP_MUL, ty, a, 2);
        a[0] = &tmp;
        spv_emit_map(x, r, t, ISA_OP_EXP2, ty, a, 1);
        break;
    case 1:
        spv_emit_map(x, &tmp, t, ISA_OP_LOG2, ty, s, 1);
        a[0] = &tmp; a[1] = &k;
        spv_emit_map(x, r, t, ISA_OP_MUL, ty, a, 2);
        break;
    default:
        spv_emit_map(x, &tmp, t, ISA_OP_LOG2, ty, s, 1);
        a[0] = s[1]; a[1] = &tmp;
        spv_emit_map(x, &tmp2, t, ISA_OP_MUL, ty, a, 2);
        a[0] = &tmp2;
        spv_emit_map(x, r, t, ISA_OP_EXP2, ty, a, 1);
        break;
    }
    return true;
}

static bool ocl_unknown(xctx *x, const char *name)
{
    spv_error(x, "OpenCL.std instruction '%s' has no sgemu equivalent", name);
    return true;
}

/* How each OpenCL.std instruction is translated, indexed by its number:
 * one sgemu instruction (the opcode, and the signedness it gives the type),
 * a clamp (max then min), or the lowering in spirv_math.c (MATH: the *pi
 * forms, lgamma_r, remquo, ...; POW: pown, rootn, powr), spirv_extra.c,
 * spirv_vecmem.c, spirv_printf.c or below (EXP_LOG).  OCL_NONE: sgemu has no equivalent. */
enum { OCL_NONE, OCL_ONE, OCL_CLAMP, OCL_MATH, OCL_EXTRA, OCL_VECMEM, OCL_POW, OCL_EXP_LOG,
       OCL_PRINTF };
typedef struct ocl_row {
    uint8_t how, sign;
    uint16_t op;
} ocl_row;
static const ocl_row ocl_rows[] = {
    [OpenCLstd_Printf] = { OCL_PRINTF, SG_T, 0 },
    [OpenCLstd_Acos] = { OCL_ONE, SG_T, ISA_OP_ACOS },
    [OpenCLstd_Acosh] = { OCL_ONE, SG_T, ISA_OP_ACOSH },
    [OpenCLstd_Acospi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Asin] = { OCL_ONE, SG_T, ISA_OP_ASIN },
    [OpenCLstd_Asinh] = { OCL_ONE, SG_T, ISA_OP_ASINH },
    [OpenCLstd_Asinpi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Atan] = { OCL_ONE, SG_T, ISA_OP_ATAN },
    [OpenCLstd_Atan2] = { OCL_ONE, SG_T, ISA_OP_ATAN2 },
    [OpenCLstd_Atanh] = { OCL_ONE, SG_T, ISA_OP_ATANH },
    [OpenCLstd_Atanpi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Atan2pi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Cbrt] = { OCL_ONE, SG_T, ISA_OP_CBRT },
    [OpenCLstd_Ceil] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Copysign] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Cos] = { OCL_ONE, SG_T, ISA_OP_COS },
    [OpenCLstd_Cosh] = { OCL_ONE, SG_T, ISA_OP_COSH },
    [OpenCLstd_Cospi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Erfc] = { OCL_ONE, SG_T, ISA_OP_ERFC },
    [OpenCLstd_Erf] = { OCL_ONE, SG_T, ISA_OP_ERF },
    [OpenCLstd_Exp] = { OCL_ONE, SG_T, ISA_OP_EXP },
    [OpenCLstd_Exp2] = { OCL_ONE, SG_T, ISA_OP_EXP2 },
    [OpenCLstd_Exp10] = { OCL_ONE, SG_T, ISA_OP_EXP10 },
    [OpenCLstd_Expm1] = { OCL_ONE, SG_T, ISA_OP_EXPM1 },
    [OpenCLstd_Fabs] = { OCL_ONE, SG_T, ISA_OP_ABS },
    [OpenCLstd_Fdim] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Floor] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Fma] = { OCL_ONE, SG_T, ISA_OP_FMA },
    [OpenCLstd_Fmax] = { OCL_ONE, SG_T, ISA_OP_MAX },
    [OpenCLstd_Fmin] = { OCL_ONE, SG_T, ISA_OP_MIN },
    [OpenCLstd_Fmod] = { OCL_ONE, SG_T, ISA_OP_REM },
    [OpenCLstd_Fract] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Frexp] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Hypot] = { OCL_ONE, SG_T, ISA_OP_HYPOT },
    [OpenCLstd_Ilogb] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Ldexp] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Lgamma] = { OCL_ONE, SG_T, ISA_OP_LGAMMA },
    [OpenCLstd_Lgamma_r] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Log] = { OCL_ONE, SG_T, ISA_OP_LOG },
    [OpenCLstd_Log2] = { OCL_ONE, SG_T, ISA_OP_LOG2 },
    [OpenCLstd_Log10] = { OCL_ONE, SG_T, ISA_OP_LOG10 },
    [OpenCLstd_Log1p] = { OCL_ONE, SG_T, ISA_OP_LOG1P },
    [OpenCLstd_Logb] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Mad] = { OCL_ONE, SG_T, ISA_OP_MAD },
    [OpenCLstd_Maxmag] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Minmag] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Modf] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Nan] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Nextafter] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Pow] = { OCL_ONE, SG_T, ISA_OP_POW },
    [OpenCLstd_Pown] = { OCL_POW, SG_T, 0 },
    [OpenCLstd_Powr] = { OCL_POW, SG_T, 0 },
    [OpenCLstd_Remainder] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Remquo] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Rint] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Rootn] = { OCL_POW, SG_T, 0 },
    [OpenCLstd_Round] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Rsqrt] = { OCL_ONE, SG_T, ISA_OP_RSQRT },
    [OpenCLstd_Sin] = { OCL_ONE, SG_T, ISA_OP_SIN },
    [OpenCLstd_Sincos] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Sinh] = { OCL_ONE, SG_T, ISA_OP_SINH },
    [OpenCLstd_Sinpi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Sqrt] = { OCL_ONE, SG_T, ISA_OP_SQRT },
    [OpenCLstd_Tan] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Tanh] = { OCL_ONE, SG_T, ISA_OP_TANH },
    [OpenCLstd_Tanpi] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_Tgamma] = { OCL_ONE, SG_T, ISA_OP_TGAMMA },
    [OpenCLstd_Trunc] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Half_cos] = { OCL_ONE, SG_T, ISA_OP_COS },
    [OpenCLstd_Half_divide] = { OCL_ONE, SG_T, ISA_OP_DIV },
    [OpenCLstd_Half_exp] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Half_exp2] = { OCL_ONE, SG_T, ISA_OP_EXP2 },
    [OpenCLstd_Half_exp10] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Half_log] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Half_log2] = { OCL_ONE, SG_T, ISA_OP_LOG2 },
    [OpenCLstd_Half_log10] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Half_powr] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Half_recip] = { OCL_ONE, SG_T, ISA_OP_RCP },
    [OpenCLstd_Half_rsqrt] = { OCL_ONE, SG_T, ISA_OP_RSQRT },
    [OpenCLstd_Half_sin] = { OCL_ONE, SG_T, ISA_OP_SIN },
    [OpenCLstd_Half_sqrt] = { OCL_ONE, SG_T, ISA_OP_SQRT },
    [OpenCLstd_Half_tan] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Native_cos] = { OCL_ONE, SG_T, ISA_OP_COS },
    [OpenCLstd_Native_divide] = { OCL_ONE, SG_T, ISA_OP_DIV },
    [OpenCLstd_Native_exp] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Native_exp2] = { OCL_ONE, SG_T, ISA_OP_EXP2 },
    [OpenCLstd_Native_exp10] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Native_log] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Native_log2] = { OCL_ONE, SG_T, ISA_OP_LOG2 },
    [OpenCLstd_Native_log10] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Native_powr] = { OCL_EXP_LOG, SG_T, 0 },
    [OpenCLstd_Native_recip] = { OCL_ONE, SG_T, ISA_OP_RCP },
    [OpenCLstd_Native_rsqrt] = { OCL_ONE, SG_T, ISA_OP_RSQRT },
    [OpenCLstd_Native_sin] = { OCL_ONE, SG_T, ISA_OP_SIN },
    [OpenCLstd_Native_sqrt] = { OCL_ONE, SG_T, ISA_OP_SQRT },
    [OpenCLstd_Native_tan] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_FClamp] = { OCL_CLAMP, SG_T, 0 },
    [OpenCLstd_Degrees] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Mix] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Radians] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Step] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Smoothstep] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Sign] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Cross] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Distance] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Length] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Normalize] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Fast_distance] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Fast_length] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Fast_normalize] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SAbs] = { OCL_ONE, SG_S, ISA_OP_ABS },
    [OpenCLstd_SAbs_diff] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SAdd_sat] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_UAdd_sat] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SHadd] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_UHadd] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SRhadd] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_URhadd] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SClamp] = { OCL_CLAMP, SG_T, 0 },
    [OpenCLstd_UClamp] = { OCL_CLAMP, SG_T, 0 },
    [OpenCLstd_Clz] = { OCL_ONE, SG_T, ISA_OP_CLZ },
    [OpenCLstd_Ctz] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SMad_hi] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_UMad_sat] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_SMad_sat] = { OCL_MATH, SG_T, 0 },
    [OpenCLstd_SMax] = { OCL_ONE, SG_S, ISA_OP_MAX },
    [OpenCLstd_UMax] = { OCL_ONE, SG_U, ISA_OP_MAX },
    [OpenCLstd_SMin] = { OCL_ONE, SG_S, ISA_OP_MIN },
    [OpenCLstd_UMin] = { OCL_ONE, SG_U, ISA_OP_MIN },
    [OpenCLstd_SMul_hi] = { OCL_ONE, SG_S, ISA_OP_MUL_HI },
    [OpenCLstd_Rotate] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_SSub_sat] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_USub_sat] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_U_Upsample] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_S_Upsample] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Popcount] = { OCL_ONE, SG_T, ISA_OP_POPCOUNT },
    [OpenCLstd_SMad24] = { OCL_ONE, SG_S, ISA_OP_MAD },
    [OpenCLstd_UMad24] = { OCL_ONE, SG_U, ISA_OP_MAD },
    [OpenCLstd_SMul24] = { OCL_ONE, SG_S, ISA_OP_MUL },
    [OpenCLstd_UMul24] = { OCL_ONE, SG_U, ISA_OP_MUL },
    [OpenCLstd_Vloadn] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstoren] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vload_half] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vload_halfn] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstore_half] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstore_half_r] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstore_halfn] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstore_halfn_r] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vloada_halfn] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstorea_halfn] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Vstorea_halfn_r] = { OCL_VECMEM, SG_T, 0 },
    [OpenCLstd_Shuffle] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Shuffle2] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Prefetch] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Bitselect] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_Select] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_UAbs_diff] = { OCL_EXTRA, SG_T, 0 },
    [OpenCLstd_UMul_hi] = { OCL_ONE, SG_U, ISA_OP_MUL_HI },
    [OpenCLstd_UMad_hi] = { OCL_EXTRA, SG_T, 0 },
};

static bool do_ext(xctx *x, xfn *f, const spv_inst *in)
{
    if (spv_is_debug_inst(x->m, in))    /* -g: describes the source only */
        return true;
    if (spv_word(x->m, in, 3) != x->m->ocl_import || !x->m->ocl_import) {
        spv_error(x, "only the OpenCL.std extended instruction set is supported");
        return true;
    }
    uint32_t e = spv_word(x->m, in, 4);
    const char *name = e < spv_ocl_names_len && spv_ocl_names[e] ? spv_ocl_names[e] : "?";
    const ocl_row row = e < sizeof ocl_rows / sizeof ocl_rows[0] ? ocl_rows[e] : (ocl_row){ 0 };
    const spv_type *t;
    switch (row.how) {
    case OCL_ONE:
        break;
    case OCL_CLAMP: {
        xval *s[3];
        if (!spv_operands(x, f, in, 5, 3, s))
            return true;
        xval *r = spv_result(x, f, in, &t);
        if (!r)
            return true;
        int csg = e == OpenCLstd_SClamp ? SG_S : e == OpenCLstd_UClamp ? SG_U : SG_T;
        isa_type ty = spv_with_sign(spv_ctype(t), csg);
        xval tmp;
        xval *a[2] = { s[0], s[1] };
        spv_emit_map(x, &tmp, t, ISA_OP_MAX, ty, a, 2);
        xval *b[2] = { &tmp, s[2] };
        spv_emit_map(x, r, t, ISA_OP_MIN, ty, b, 2);
        return true;
    }
    case OCL_MATH:
        return spv_lower_math(x, f, in, name) || ocl_unknown(x, name);
    case OCL_EXTRA:
        return spv_lower_extra(x, f, in, name) || ocl_unknown(x, name);
    case OCL_VECMEM:
        return spv_op_vecmem(x, f, in, name) || ocl_unknown(x, name);
    case OCL_POW:
        return spv_lower_pow(x, f, in, name) || ocl_unknown(x, name);
    case OCL_EXP_LOG:
        return lowered_exp_log(x, f, in, name) || ocl_unknown(x, name);
    case OCL_PRINTF:
        return spv_lower_printf(x, f, in);
    default:
        return ocl_unknown(x, name);
    }
    const isa_opcode op = (isa_opcode)row.op;
    const int sg = row.sign;
    unsigned n = isa_shape_sources(isa_ops[op].shape);
    xval *s[3];
    if (in->nw < 5 + n) {
        spv_error(x, "'%s' has too few operands", name);
        return true;
    }
    if (!spv_operands(x, f, in, 5, n, s))
        return true;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return true;
    isa_type ty = spv_ctype(t);
    if (op == ISA_OP_ABS && sg == SG_S) {
        const spv_type *st = spv_type_of_id(x, spv_word(x->m, in, 5));
        ty = st ? spv_signed(spv_ctype(st)) : spv_signed(ty);
    } else {
        ty = spv_with_sign(ty, sg);
    }
    spv_emit_map(x, r, t, op, ty, s, n);
    return true;
}

/* OpSMod: the remainder takes the sign of the divisor.  r = a rem b (sign of
 * a); when r != 0 and r, b differ in sign, r + b. */
static void do_smod(xctx *x, xfn *f, const spv_inst *in)
{
    const spv_type *t;
    xval *s[2];
    if (!spv_operands(x, f, in, 3, 2, s))
        return;
    xval *r = spv_result(x, f, in, &t);
    if (!r)
        return;
    isa_type ty = spv_signed(spv_ctype(t));
    spv_emit_map(x, r, t, ISA_OP_REM, ty, s, 2);
    for (unsigned c = 0; c < t->ncomp; c++) {
        isa_operand rem = r->c[c].o, b = spv_src(x, spv_comp(s[1], c));
        uint32_t t1 = spv_reg(x, 2);
        isa_inst *i = spv_emit(x, ISA_OP_XOR, ty);       /* sign of rem ^ b */
        i->o[0] = spv_R(t1);
        i->o[1] = rem;
        i->o[2] = b;
        i->nopnd = 3;
        uint32_t g1, p1 = spv_pred(x, &g1);
        i = spv_emit(x, ISA_OP_CMP, ty);
        i->cond = ISA_BINOP_LT;
        i->o[0] = spv_P(p1, false);
        i->o[1] = spv_R(t1);
        i->o[2] = spv_I(0);
        i->nopnd = 3;
        uint32_t g2, p2 = spv_pred(x, &g2);
        i = spv_emit(x, ISA_OP_CMP, ty);
        i->cond = ISA_BINOP_NE;
        i->o[0] = spv_P(p2, false);
        i->o[1] = rem;
        i->o[2] = spv_I(0);
        i->nopnd = 3;
        i = spv_emit(x, ISA_OP_PAND, ISA_T_NONE);
        i->o[0] = spv_P(p1, false);
        i->o[1] = spv_P(p1, false);
        i->o[2] = spv_P(p2, false);
        i->nopnd = 3;
        i = spv_emit(x, ISA_OP_ADD, ty);
        i->o[0] = spv_R(t1 + 1);
        i->o[1] = rem;
        i->o[2] = b;
        i->nopnd = 3;
        r->c[c].o = spv_R(spv_sel(x, ty, spv_P(p1, false), spv_R(t1 + 1), rem));
    }
}

bool spv_op_alu(xctx *x, xfn *f, const spv_inst *in)
{
    const spv_type *t;
    xval *s[3];
    switch (in->op) {
#define X(N, OP, S) \
    case SpvOp##N: { \
        unsigned n = isa_shape_sources(isa_ops[ISA_OP_##OP].shape); \
        if (!spv_operands(x, f, in, 3, n, s)) return true; \
        xval *r = spv_result(x, f, in, &t); \
        if (r) spv_emit_map(x, r, t, ISA_OP_##OP, spv_with_sign(spv_ctype(t), SG_##S), s, n); \
        return true; \
    }
    SPV_ALU_OPS(X)
#undef X
#define X(N, C, S, NEG) case SpvOp##N: do_compare(x, f, in, ISA_BINOP_##C, SG_##S, NEG); return true;
    SPV_CMP_OPS(X)
#undef X
    case SpvOpFOrdNotEqual: do_ord_ne(x, f, in, false); return true;
    case SpvOpFUnordEqual: do_ord_ne(x, f, in, true); return true;
    case SpvOpIsNan: case SpvOpIsInf: do_class(x, f, in); return true;
    case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
    case SpvOpLogicalEqual: case SpvOpLogicalNotEqual:
        do_logical(x, f, in);
        return true;
    case SpvOpSelect: do_select(x, f, in); return true;
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF:
    case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
    case SpvOpSatConvertSToU: case SpvOpSatConvertUToS:
        if (in->op == SpvOpSatConvertSToU || in->op == SpvOpSatConvertUToS) {
            spv_sat_convert(x, f, in);
            return true;
        }
        do_convert(x, f, in);
        return true;
    case SpvOpBitcast: do_bitcast(x, f, in); return true;
    case SpvOpSMod: do_smod(x, f, in); return true;
    case SpvOpExtInst: return do_ext(x, f, in);
    case SpvOpGroupAll: case SpvOpGroupAny: case SpvOpGroupBroadcast: case SpvOpGroupIAdd:
    case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupUMin: case SpvOpGroupSMin:
    case SpvOpGroupFMax: case SpvOpGroupUMax: case SpvOpGroupSMax:
        spv_op_group(x, f, in);
        return true;
    case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleDownINTEL:
    case SpvOpSubgroupShuffleUpINTEL: case SpvOpSubgroupShuffleXorINTEL:
        spv_op_intel_group(x, f, in);
        return true;
    default:
        if ((in->op >= SpvOpGroupNonUniformElect && in->op <= SpvOpGroupNonUniformQuadSwap) ||
            in->op == SpvOpGroupNonUniformRotateKHR) {
            spv_op_group(x, f, in);
            return true;
        }
        return spv_op_relational(x, f, in);
    }
}
