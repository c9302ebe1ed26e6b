/*
 * regs.c - register files of a subgroup, operand fetch, and the scalar
 * combining operators that collectives/ shares with the ALU.
 */
#include "lanes_priv.h"

#include <stdlib.h>

int lanes_sg_init(lanes_sg *sg, uint32_t width, uint32_t size,
                  uint32_t nreg, uint32_t npred)
{
    memset(sg, 0, sizeof *sg);
    if (width == 0 || width > LANES_MAX || size > width)
        return -1;
    sg->width = width;
    sg->size = size;
    sg->exists = lanes_mask_first(size);
    sg->nreg = nreg;
    sg->npred = npred;
    /* at least one slot so a kernel without registers still gets a
     * non-NULL, freeable pointer */
    sg->regs = calloc((size_t)(nreg ? nreg : 1) * width, sizeof *sg->regs);
    sg->preds = calloc(npred ? npred : 1, sizeof *sg->preds);
    if (!sg->regs || !sg->preds) {
        lanes_sg_free(sg);
        return -1;
    }
    /* the SIMT stack starts empty; the engine calls lanes_simt_init */
    return 0;
}

void lanes_sg_free(lanes_sg *sg)
{
    free(sg->regs);
    free(sg->preds);
    sg->regs = NULL;
    sg->preds = NULL;
    lanes_simt_free(&sg->simt);
}

uint64_t lanes_trunc(isa_type t, uint64_t bits)
{
    if (!lp_valid_type(t))
        return bits;
    return bits & lp_bits_mask(lp_type_bits(t));
}

int64_t lanes_sext(isa_type t, uint64_t bits)
{
    if (!lp_valid_type(t))
        return (int64_t)bits;
    const unsigned sh = 64 - lp_type_bits(t);
    if (!isa_types[t].is_signed || isa_types[t].is_float)
        return (int64_t)(bits & lp_bits_mask(64 - sh));
    return (int64_t)(bits << sh) >> sh;
}

static void fill(uint64_t *out, uint32_t w, uint64_t v)
{
    for (uint32_t l = 0; l < w; l++)
        out[l] = v;
}

const uint64_t *lanes_src(const lanes_env *env, lanes_sg *sg,
                          const isa_operand *o, uint32_t comp,
                          isa_type t, uint64_t *scratch)
{
    const uint32_t w = sg->width;

    switch ((isa_opnd_kind)o->kind) {
    case ISA_OPND_REG:
        return lanes_reg(sg, o->reg + comp);
    case ISA_OPND_IMM:
        fill(scratch, w, lanes_trunc(t, o->imm));
        return scratch;
    case ISA_OPND_ARG:
        fill(scratch, w, env && env->arg_values
                         ? lanes_trunc(t, env->arg_values[o->reg]) : 0);
        return scratch;
    case ISA_OPND_SPECIAL:
        if (env && env->special) {
            env->special(env->user, sg, (isa_special)o->reg, o->dim, scratch);
            for (uint32_t l = 0; l < w; l++)
                scratch[l] = lanes_trunc(t, scratch[l]);
        } else {
            fill(scratch, w, 0);
        }
        return scratch;
    case ISA_OPND_PRED: {
        lanes_mask p = o->reg < sg->npred ? sg->preds[o->reg] : 0;
        if (o->negate)
            p = ~p;
        for (uint32_t l = 0; l < w; l++)
            scratch[l] = (p >> l) & 1;
        return scratch;
    }
    default:
        fill(scratch, w, 0);
        return scratch;
    }
}

void lanes_blend(lanes_sg *sg, uint32_t dst, uint32_t vec,
                 const uint64_t (*tmp)[LANES_MAX], lanes_mask mask)
{
    const uint32_t w = sg->width;
    const bool full = mask == lanes_mask_first(w);

    for (uint32_t c = 0; c < vec; c++) {
        uint64_t *d = lanes_reg(sg, dst + c);
        if (full) {
            memcpy(d, tmp[c], w * sizeof *d);
            continue;
        }
        for (uint32_t l = 0; l < w; l++) {
            /* all-ones where the lane is active: a select the compiler
             * can vectorise */
            const uint64_t m = (uint64_t)0 - ((mask >> l) & 1);
            d[l] = (tmp[c][l] & m) | (d[l] & ~m);
        }
    }
}

/* --------------------------------------------------- combining operators */

static uint64_t binop_int(isa_binop op, isa_type t, uint64_t a, uint64_t b)
{
    const unsigned bits = lp_type_bits(t);
    const uint64_t m = lp_bits_mask(bits);
    const bool sgn = isa_types[t].is_signed;
    const int64_t sa = lanes_sext(t, a), sb = lanes_sext(t, b);

    a &= m;
    b &= m;
    switch (op) {
    case ISA_BINOP_ADD:  return (a + b) & m;
    case ISA_BINOP_SUB:  return (a - b) & m;
    case ISA_BINOP_MUL:  return (a * b) & m;
    case ISA_BINOP_MIN:  return (sgn ? sa < sb : a < b) ? a : b;
    case ISA_BINOP_MAX:  return (sgn ? sa > sb : a > b) ? a : b;
    case ISA_BINOP_AND:  return a & b;
    case ISA_BINOP_OR:   return a | b;
    case ISA_BINOP_XOR:  return a ^ b;
    case ISA_BINOP_LAND: return (a != 0) && (b != 0);
    case ISA_BINOP_LOR:  return (a != 0) || (b != 0);
    case ISA_BINOP_LXOR: return (a != 0) != (b != 0);
    case ISA_BINOP_XCHG: return b;
    case ISA_BINOP_EQ:   return a == b;
    case ISA_BINOP_NE:   return a != b;
    case ISA_BINOP_LT:   return sgn ? sa < sb : a < b;
    case ISA_BINOP_LE:   return sgn ? sa <= sb : a <= b;
    case ISA_BINOP_GT:   return sgn ? sa > sb : a > b;
    case ISA_BINOP_GE:   return sgn ? sa >= sb : a >= b;
    default:             return a;
    }
}

static uint64_t binop_float(isa_binop op, isa_type t, uint64_t a, uint64_t b)
{
    const double x = lp_fload(t, a), y = lp_fload(t, b);
    const uint64_t one = lp_fstore(t, 1.0), zero = 0;

    /* f32/f64 arithmetic happens in the type itself; f16 in double, where
     * a sum or product of two halves is exact, then one rounding */
    if (t == ISA_T_F32) {
        const float xf = (float)x, yf = (float)y;
        switch (op) {
        case ISA_BINOP_ADD: return lp_f32_bits(xf + yf);
        case ISA_BINOP_SUB: return lp_f32_bits(xf - yf);
        case ISA_BINOP_MUL: return lp_f32_bits(xf * yf);
        default: break;
        }
    }
    switch (op) {
    case ISA_BINOP_ADD:  return lp_fstore(t, x + y);
    case ISA_BINOP_SUB:  return lp_fstore(t, x - y);
    case ISA_BINOP_MUL:  return lp_fstore(t, x * y);
    case ISA_BINOP_MIN:  return lp_fstore(t, lp_fmin(x, y));
    case ISA_BINOP_MAX:  return lp_fstore(t, lp_fmax(x, y));
    case ISA_BINOP_AND:  return a & b;
    case ISA_BINOP_OR:   return a | b;
    case ISA_BINOP_XOR:  return a ^ b;
    case ISA_BINOP_LAND: return (x != 0 && y != 0) ? one : zero;
    case ISA_BINOP_LOR:  return (x != 0 || y != 0) ? one : zero;
    case ISA_BINOP_LXOR: return ((x != 0) != (y != 0)) ? one : zero;
    case ISA_BINOP_XCHG: return b;
    case ISA_BINOP_EQ:   return x == y;
    case ISA_BINOP_NE:   return !(x == y);
    case ISA_BINOP_LT:   return x < y;
    case ISA_BINOP_LE:   return x <= y;
    case ISA_BINOP_GT:   return x > y;
    case ISA_BINOP_GE:   return x >= y;
    default:             return a;
    }
}

uint64_t lanes_binop(isa_binop op, isa_type t, uint64_t a, uint64_t b)
{
    if (!lp_valid_type(t))
        return a;
    if (isa_types[t].is_float) {
        /* min/max of NaN payloads: lp_fstore re-quiets, as hardware does */
        return binop_float(op, t, a, b);
    }
    return binop_int(op, t, a, b);
}

/* binop_int's wrapping and bitwise ops, which the row, scan and fold loops
 * below run one loop per op: both operands masked to the type's bits, the
 * result too.  The others go through lanes_binop lane by lane. */
#define WRAPPING_INT_BINOPS(X) \
    X(ADD, x + y)              \
    X(SUB, x - y)              \
    X(MUL, x * y)              \
    X(AND, x & y)              \
    X(OR, x | y)               \
    X(XOR, x ^ y)

#define ROW_INT(EXPR)                                  \
    for (uint32_t i = 0; i < n; i++) {                 \
        const uint64_t x = a[i] & m, y = b[i] & m;     \
        r[i] = (EXPR) & m;                             \
    }                                                  \
    return

void lanes_binop_row(isa_binop op, isa_type t, uint64_t *r, const uint64_t *a,
                     const uint64_t *b, uint32_t n)
{
    if (lp_valid_type(t) && !isa_types[t].is_float) {
        const uint64_t m = lp_bits_mask(lp_type_bits(t));
        switch (op) {
#define CASE(OP, EXPR) case ISA_BINOP_##OP: ROW_INT(EXPR);
        WRAPPING_INT_BINOPS(CASE)
#undef CASE
        default: break;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        r[i] = lanes_binop(op, t, a[i], b[i]);
}
#undef ROW_INT

/* the running value in a register: x is r[i - 1] & m, as binop_int reads it */
#define SCAN_INT(EXPR)                                 \
    for (uint64_t x = r[0] & m, i = 1; i < n; i++) {   \
        const uint64_t y = r[i] & m;                   \
        x = (EXPR) & m;                                \
        r[i] = x;                                      \
    }                                                  \
    return

void lanes_scan_row(isa_binop op, isa_type t, uint64_t *r, uint32_t n)
{
    if (lp_valid_type(t) && !isa_types[t].is_float) {
        const uint64_t m = lp_bits_mask(lp_type_bits(t));
        switch (op) {
#define CASE(OP, EXPR) case ISA_BINOP_##OP: SCAN_INT(EXPR);
        WRAPPING_INT_BINOPS(CASE)
#undef CASE
        default: break;
        }
    }
    for (uint32_t i = 1; i < n; i++)
        r[i] = lanes_binop(op, t, r[i - 1], r[i]);
}
#undef SCAN_INT

/* the scan's running value without the stores; one lane alone is r[0]
 * as it is, as the scan leaves it */
#define FOLD_INT(EXPR)                                 \
    {                                                  \
        uint64_t x = r[0] & m;                         \
        for (uint32_t i = 1; i < n; i++) {             \
            const uint64_t y = r[i] & m;               \
            x = (EXPR) & m;                            \
        }                                              \
        return n > 1 ? x : r[0];                       \
    }

uint64_t lanes_fold_row(isa_binop op, isa_type t, const uint64_t *r, uint32_t n)
{
    if (lp_valid_type(t) && !isa_types[t].is_float) {
        const uint64_t m = lp_bits_mask(lp_type_bits(t));
        switch (op) {
#define CASE(OP, EXPR) case ISA_BINOP_##OP: FOLD_INT(EXPR);
        WRAPPING_INT_BINOPS(CASE)
#undef CASE
        default: break;
        }
    }
    uint64_t x = r[0];
    for (uint32_t i = 1; i < n; i++)
        x = lanes_binop(op, t, x, r[i]);
    return x;
}
#undef FOLD_INT
#undef WRAPPING_INT_BINOPS

uint64_t lanes_identity(isa_binop op, isa_type t)
{
    if (!lp_valid_type(t))
        return 0;
    const unsigned bits = lp_type_bits(t);
    const uint64_t m = lp_bits_mask(bits);
    const bool fl = isa_types[t].is_float;
    const bool sgn = isa_types[t].is_signed;

    switch (op) {
    case ISA_BINOP_MUL:
        return fl ? lp_fstore(t, 1.0) : 1;
    case ISA_BINOP_AND:
        return m;
    case ISA_BINOP_LAND:
        return fl ? lp_fstore(t, 1.0) : 1;
    case ISA_BINOP_MIN:
        if (fl)
            return lp_fstore(t, INFINITY);
        return sgn ? m >> 1 : m;
    case ISA_BINOP_MAX:
        if (fl)
            return lp_fstore(t, -INFINITY);
        return sgn ? (UINT64_C(1) << (bits - 1)) : 0;
    default:    /* add, sub, or, xor, lor, lxor: zero (+0.0 for floats) */
        return 0;
    }
}
