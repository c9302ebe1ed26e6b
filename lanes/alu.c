/*
 * alu.c - per-lane semantics of the ALU-like rows of opcodes.def.
 *
 * One switch per instruction picks a (family, type class) loop; each loop
 * runs over all `width` lanes into a scratch row and the result is blended
 * into the destination by the active mask, so loops carry no per-lane
 * branches on the mask and vectorise.  Integer rows work on the zero-
 * extended slot bits: wrapping ops compute in uint64_t and truncate, ops
 * that care about signedness sign-extend with a shift pair.
 */
#include "lanes_priv.h"

#define ALU_VEC_MAX 16

typedef struct alu_args {
    uint32_t w;
    const uint64_t *a, *b, *c;
    uint64_t *r;
    lanes_mask mask;
    uint32_t fault_lane;
} alu_args;

/* ------------------------------------------------------------ integers */

/* a loop over all lanes, then leave the switch (braced so that
 * `if (signed) LANE_LOOP(...)` guards the break too) */
#define LANE_LOOP(body) \
    { for (uint32_t l = 0; l < w; l++) { body; } break; }

#define SX(v) ((int64_t)((v) << sh) >> sh)

/* The row bodies take the width as a parameter and are inlined into one
 * copy per common width, where the lane loops have a constant trip count
 * the compiler unrolls and vectorises (no per-lane dispatch). */
#define ALU_INLINE static inline __attribute__((always_inline))

ALU_INLINE int int_row_w(isa_family f, isa_type t, alu_args *x, const uint32_t w)
{
    const unsigned bits = lp_type_bits(t), sh = 64 - bits;
    const uint64_t m = lp_bits_mask(bits);
    const uint64_t *a = x->a, *b = x->b, *c = x->c;
    uint64_t *r = x->r;
    const bool sgn = isa_types[t].is_signed;
    int rc = LANES_OK;

    switch (f) {
    case ISA_FAM_ADD: LANE_LOOP(r[l] = (a[l] + b[l]) & m);
    case ISA_FAM_SUB: LANE_LOOP(r[l] = (a[l] - b[l]) & m);
    case ISA_FAM_MUL: LANE_LOOP(r[l] = (a[l] * b[l]) & m);
    case ISA_FAM_MAD: LANE_LOOP(r[l] = (a[l] * b[l] + c[l]) & m);
    case ISA_FAM_AND: LANE_LOOP(r[l] = (a[l] & b[l]) & m);
    case ISA_FAM_OR:  LANE_LOOP(r[l] = (a[l] | b[l]) & m);
    case ISA_FAM_XOR: LANE_LOOP(r[l] = (a[l] ^ b[l]) & m);
    case ISA_FAM_NOT: LANE_LOOP(r[l] = ~a[l] & m);
    case ISA_FAM_NEG: LANE_LOOP(r[l] = (0 - a[l]) & m);
    case ISA_FAM_SHL: LANE_LOOP(r[l] = (a[l] << (b[l] & (bits - 1))) & m);
    case ISA_FAM_SHR:
        if (sgn)
            LANE_LOOP(r[l] = (uint64_t)(SX(a[l]) >> (b[l] & (bits - 1))) & m);
        LANE_LOOP(r[l] = (a[l] & m) >> (b[l] & (bits - 1)));
    case ISA_FAM_MIN:
        if (sgn)
            LANE_LOOP(r[l] = (SX(a[l]) < SX(b[l]) ? a[l] : b[l]) & m);
        LANE_LOOP(r[l] = (a[l] & m) < (b[l] & m) ? a[l] & m : b[l] & m);
    case ISA_FAM_MAX:
        if (sgn)
            LANE_LOOP(r[l] = (SX(a[l]) > SX(b[l]) ? a[l] : b[l]) & m);
        LANE_LOOP(r[l] = (a[l] & m) > (b[l] & m) ? a[l] & m : b[l] & m);
    case ISA_FAM_ABS:
        /* OpenCL abs returns the unsigned magnitude: abs(INT_MIN) keeps
         * the bit pattern 0x80..0 */
        if (sgn)
            LANE_LOOP(r[l] = (SX(a[l]) < 0 ? 0 - a[l] : a[l]) & m);
        LANE_LOOP(r[l] = a[l] & m);
    case ISA_FAM_CLZ:
        LANE_LOOP(uint64_t v = a[l] & m;
                  r[l] = v ? (uint64_t)(__builtin_clzll(v) - (int)sh) : bits);
    case ISA_FAM_POPCOUNT:
        LANE_LOOP(r[l] = (uint64_t)__builtin_popcountll(a[l] & m));
    case ISA_FAM_MUL_HI:
        if (bits == 64) {
            __extension__ typedef __int128 i128;
            __extension__ typedef unsigned __int128 u128;
            if (sgn)
                LANE_LOOP(r[l] = (uint64_t)(((i128)(int64_t)a[l] *
                                             (int64_t)b[l]) >> 64));
            LANE_LOOP(r[l] = (uint64_t)(((u128)a[l] * b[l]) >> 64));
        }
        /* the double-width product fits in 64 bits */
        if (sgn)
            LANE_LOOP(r[l] = (uint64_t)((SX(a[l]) * SX(b[l])) >> bits) & m);
        LANE_LOOP(r[l] = (((a[l] & m) * (b[l] & m)) >> bits) & m);
    case ISA_FAM_DIV:
    case ISA_FAM_REM:
        for (uint32_t l = 0; l < w; l++) {
            if (((x->mask >> l) & 1) && (b[l] & m) == 0) {
                x->fault_lane = l;
                rc = LANES_FAULT_DIV_ZERO;
                break;
            }
        }
        /* x/0 = all ones and x%0 = x (documented, deterministic); the
         * quotient by -1 negates so INT_MIN/-1 wraps to INT_MIN */
        if (f == ISA_FAM_DIV && sgn)
            LANE_LOOP(const uint64_t y = b[l] & m;
                      r[l] = (y == 0 ? m
                              : SX(y) == -1 ? 0 - a[l]
                              : (uint64_t)(SX(a[l]) / SX(y))) & m);
        if (f == ISA_FAM_DIV)
            LANE_LOOP(const uint64_t y = b[l] & m;
                      r[l] = y == 0 ? m : (a[l] & m) / y);
        if (sgn)
            LANE_LOOP(const uint64_t y = b[l] & m;
                      r[l] = (y == 0 ? a[l]
                              : SX(y) == -1 ? 0
                              : (uint64_t)(SX(a[l]) % SX(y))) & m);
        LANE_LOOP(const uint64_t y = b[l] & m;
                  r[l] = y == 0 ? a[l] & m : (a[l] & m) % y);
    default:
        return LANES_FAULT_BAD_INST;
    }
    return rc;
}

static int int_row(isa_family f, isa_type t, alu_args *x)
{
    switch (x->w) {
    case 8:  return int_row_w(f, t, x, 8);
    case 16: return int_row_w(f, t, x, 16);
    case 32: return int_row_w(f, t, x, 32);
    default: return int_row_w(f, t, x, x->w);
    }
}

/* -------------------------------------------------------------- floats */

uint16_t lanes_fma_f16(double a, double b, double c)
{
    /* a*b is exact in double (22 significant bits).  The sum is rounded to
     * odd at 53 bits (truncate, then set the last bit when inexact), which
     * makes the final rounding to 11 bits correct. */
    const double p = a * b;
    double s = p + c;
    if (isfinite(s)) {
        const double bb = s - p;
        const double err = (p - (s - bb)) + (c - bb);   /* TwoSum */
        if (err != 0) {
            uint64_t u = lp_f64_bits(s);
            if ((err < 0) != (s < 0))   /* s rounded away from zero */
                u--;
            u |= 1;
            s = lp_f64(u);
        }
    }
    return isa_f64_to_f16(s);
}

/* One loop family per float type.  CT is the type the operation runs in,
 * LD loads a slot into CT, ST rounds a CT back to the slot's bits. */
#define FLOAT_ROW(NAME, CT, LD, ST, SIGNBIT, FMA, SQRT, FMOD, FMIN, FMAX) \
ALU_INLINE int NAME##_w(isa_family f, alu_args *x, const uint32_t w) \
{ \
    const uint64_t *a = x->a, *b = x->b, *c = x->c; \
    uint64_t *r = x->r; \
    switch (f) { \
    case ISA_FAM_ADD: LANE_LOOP(r[l] = ST(LD(a[l]) + LD(b[l]))); \
    case ISA_FAM_SUB: LANE_LOOP(r[l] = ST(LD(a[l]) - LD(b[l]))); \
    case ISA_FAM_MUL: LANE_LOOP(r[l] = ST(LD(a[l]) * LD(b[l]))); \
    case ISA_FAM_DIV: LANE_LOOP(r[l] = ST(LD(a[l]) / LD(b[l]))); \
    case ISA_FAM_REM: LANE_LOOP(r[l] = ST(FMOD(LD(a[l]), LD(b[l])))); \
    case ISA_FAM_MAD: \
        LANE_LOOP(r[l] = ST(LD(ST(LD(a[l]) * LD(b[l]))) + LD(c[l]))); \
    case ISA_FAM_FMA: LANE_LOOP(r[l] = FMA(LD(a[l]), LD(b[l]), LD(c[l]))); \
    case ISA_FAM_MIN: LANE_LOOP(r[l] = ST(FMIN(LD(a[l]), LD(b[l])))); \
    case ISA_FAM_MAX: LANE_LOOP(r[l] = ST(FMAX(LD(a[l]), LD(b[l])))); \
    case ISA_FAM_ABS: LANE_LOOP(r[l] = a[l] & (SIGNBIT - 1)); \
    case ISA_FAM_NEG: LANE_LOOP(r[l] = (a[l] ^ SIGNBIT) & (2 * SIGNBIT - 1)); \
    case ISA_FAM_SQRT: LANE_LOOP(r[l] = ST(SQRT(LD(a[l])))); \
    case ISA_FAM_RCP: LANE_LOOP(r[l] = ST((CT)1 / LD(a[l]))); \
    case ISA_FAM_RSQRT: \
        LANE_LOOP(r[l] = ST((CT)(1.0 / sqrt((double)LD(a[l]))))); \
    case ISA_FAM_EXP2: LANE_LOOP(r[l] = ST((CT)exp2((double)LD(a[l])))); \
    case ISA_FAM_LOG2: LANE_LOOP(r[l] = ST((CT)log2((double)LD(a[l])))); \
    case ISA_FAM_SIN: LANE_LOOP(r[l] = ST((CT)sin((double)LD(a[l])))); \
    case ISA_FAM_COS: LANE_LOOP(r[l] = ST((CT)cos((double)LD(a[l])))); \
    default: return LANES_FAULT_BAD_INST; \
    } \
    return LANES_OK; \
} \
static int NAME(isa_family f, alu_args *x) \
{ \
    switch (x->w) { \
    case 8:  return NAME##_w(f, x, 8); \
    case 16: return NAME##_w(f, x, 16); \
    case 32: return NAME##_w(f, x, 32); \
    default: return NAME##_w(f, x, x->w); \
    } \
}

#define F32_FMA(p, q, s) lp_f32_bits(fmaf(p, q, s))
#define F64_FMA(p, q, s) lp_f64_bits(fma(p, q, s))
#define F16_FMA(p, q, s) ((uint64_t)lanes_fma_f16(p, q, s))

/* rsqrt/transcendentals of f64 go through double too: the (CT) casts are
 * no-ops there */
FLOAT_ROW(f32_row, float, lp_f32, lp_f32_bits, UINT64_C(0x80000000),
          F32_FMA, sqrtf, fmodf, lp_fminf, lp_fmaxf)
FLOAT_ROW(f64_row, double, lp_f64, lp_f64_bits, UINT64_C(0x8000000000000000),
          F64_FMA, sqrt, fmod, lp_fmin, lp_fmax)
/* binary16 runs in double: +,-,* of halves are exact there and / and sqrt
 * round innocently twice (53 >= 2*11+2), so each result is the correctly
 * rounded half */
FLOAT_ROW(f16_row, double, lp_f16, lp_f16_bits, UINT64_C(0x8000),
          F16_FMA, sqrt, fmod, lp_fmin, lp_fmax)

/* -------------------------------------------------------- compare / sel */

static lanes_mask cmp_row(isa_binop cond, isa_type t, uint32_t w,
                          const uint64_t *a, const uint64_t *b)
{
    lanes_mask res = 0;
    const unsigned bits = lp_type_bits(t), sh = 64 - bits;
    const uint64_t m = lp_bits_mask(bits);

#define CMP_LOOP(LD, OP) \
    for (uint32_t l = 0; l < w; l++) \
        res |= (lanes_mask)(LD(a[l]) OP LD(b[l])) << l; \
    break
#define CMP_ALL(LD) \
    switch (cond) { \
    case ISA_BINOP_EQ: CMP_LOOP(LD, ==); \
    case ISA_BINOP_NE: CMP_LOOP(LD, !=); \
    case ISA_BINOP_LT: CMP_LOOP(LD, <); \
    case ISA_BINOP_LE: CMP_LOOP(LD, <=); \
    case ISA_BINOP_GT: CMP_LOOP(LD, >); \
    case ISA_BINOP_GE: CMP_LOOP(LD, >=); \
    default: break; \
    }
#define LD_S(v) SX(v)
#define LD_U(v) ((v) & m)
#define LD_F(v) lp_fload(t, v)

    /* C's float comparisons already give false for NaN except != */
    if (isa_types[t].is_float) {
        CMP_ALL(LD_F)
    } else if (isa_types[t].is_signed) {
        CMP_ALL(LD_S)
    } else {
        CMP_ALL(LD_U)
    }
#undef LD_S
#undef LD_U
#undef LD_F
#undef CMP_ALL
#undef CMP_LOOP
    return res;
}

static lanes_mask pred_val(const lanes_sg *sg, const isa_operand *o)
{
    lanes_mask p = o->reg < sg->npred ? sg->preds[o->reg] : 0;
    return o->negate ? ~p : p;
}

static void pred_write(lanes_sg *sg, const isa_operand *o, lanes_mask v,
                       lanes_mask mask)
{
    if (o->reg < sg->npred)
        sg->preds[o->reg] = (sg->preds[o->reg] & ~mask) | (v & mask);
}

/* ---------------------------------------------------------------- entry */

int lanes_exec_alu(const lanes_env *env, lanes_sg *sg, const isa_inst *in,
                   lanes_mask mask)
{
    if (in->op >= ISA_OP_COUNT)
        return LANES_FAULT_BAD_INST;
    const isa_op_info *oi = &isa_ops[in->op];
    const uint32_t w = sg->width;
    uint64_t scratch[3][LANES_MAX];

    mask &= lanes_mask_first(w);

    switch (oi->family) {
    case ISA_FAM_NOP:
        return LANES_OK;
    case ISA_FAM_PAND:
        pred_write(sg, &in->o[0], pred_val(sg, &in->o[1]) &
                   pred_val(sg, &in->o[2]), mask);
        return LANES_OK;
    case ISA_FAM_POR:
        pred_write(sg, &in->o[0], pred_val(sg, &in->o[1]) |
                   pred_val(sg, &in->o[2]), mask);
        return LANES_OK;
    case ISA_FAM_PXOR:
        pred_write(sg, &in->o[0], pred_val(sg, &in->o[1]) ^
                   pred_val(sg, &in->o[2]), mask);
        return LANES_OK;
    case ISA_FAM_PNOT:
        pred_write(sg, &in->o[0], ~pred_val(sg, &in->o[1]), mask);
        return LANES_OK;
    case ISA_FAM_CVT:
        return lanes_exec_cvt(env, sg, in, mask);
    default:
        break;
    }

    if (!lp_valid_type(in->type))
        return LANES_FAULT_BAD_INST;
    const isa_type t = (isa_type)in->type;

    if (oi->family == ISA_FAM_CMP) {
        if (in->cond < ISA_BINOP_EQ || in->cond > ISA_BINOP_GE)
            return LANES_FAULT_BAD_INST;
        const uint64_t *a = lanes_src(env, sg, &in->o[1], 0, t, scratch[0]);
        const uint64_t *b = lanes_src(env, sg, &in->o[2], 0, t, scratch[1]);
        pred_write(sg, &in->o[0], cmp_row((isa_binop)in->cond, t, w, a, b),
                   mask);
        return LANES_OK;
    }

    const uint32_t vec = in->vec ? in->vec : 1;
    if (vec > ALU_VEC_MAX || in->o[0].kind != ISA_OPND_REG)
        return LANES_FAULT_BAD_INST;
    /* every component is computed before any is written, so a vector
     * destination may overlap its sources */
    uint64_t tmp[ALU_VEC_MAX][LANES_MAX];
    const uint64_t m = lp_bits_mask(lp_type_bits(t));
    int rc = LANES_OK;
    bool faulted = false;
    const bool direct = vec == 1 && mask == lanes_mask_first(w);

    for (uint32_t comp = 0; comp < vec; comp++) {
        uint64_t *r = tmp[comp];
        if (oi->family == ISA_FAM_MOV) {
            const uint64_t *a = lanes_src(env, sg, &in->o[1], comp, t,
                                          scratch[0]);
            for (uint32_t l = 0; l < w; l++)
                r[l] = a[l] & m;
            continue;
        }
        if (oi->family == ISA_FAM_SEL) {
            const lanes_mask p = pred_val(sg, &in->o[1]);
            const uint64_t *a = lanes_src(env, sg, &in->o[2], comp, t,
                                          scratch[0]);
            const uint64_t *b = lanes_src(env, sg, &in->o[3], comp, t,
                                          scratch[1]);
            for (uint32_t l = 0; l < w; l++) {
                const uint64_t pm = (uint64_t)0 - ((p >> l) & 1);
                r[l] = ((a[l] & pm) | (b[l] & ~pm)) & m;
            }
            continue;
        }
        const unsigned ns = isa_shape_sources(oi->shape);
        if (ns == 0)
            return LANES_FAULT_BAD_INST;
        /* a scalar result for every lane goes straight to the register:
         * each lane reads its sources before writing its own slot */
        if (direct)
            r = lanes_reg(sg, in->o[0].reg);
        alu_args x = { .w = w, .r = r, .mask = mask, .fault_lane = 0 };
        const uint64_t **srcs[3] = { &x.a, &x.b, &x.c };
        for (unsigned i = 0; i < 3; i++)
            *srcs[i] = i >= ns ? NULL
                     : in->o[1 + i].kind == ISA_OPND_REG
                       ? lanes_reg(sg, in->o[1 + i].reg + comp)
                       : lanes_src(env, sg, &in->o[1 + i], comp, t,
                                   scratch[i]);
        int e;
        if (isa_op_math(in->op))
            e = lanes_math_row(oi->family, t, w, x.a, x.b, r);
        else switch (t) {
        case ISA_T_F16: e = f16_row(oi->family, &x); break;
        case ISA_T_F32: e = f32_row(oi->family, &x); break;
        case ISA_T_F64: e = f64_row(oi->family, &x); break;
        default:        e = int_row(oi->family, t, &x); break;
        }
        if (e == LANES_FAULT_BAD_INST)
            return e;
        if (e != LANES_OK && !faulted) {
            faulted = true;
            rc = e;
            sg->fault_lane = x.fault_lane;
        } else if (e != LANES_OK && x.fault_lane < sg->fault_lane) {
            sg->fault_lane = x.fault_lane;
        }
    }
    if (!direct || oi->family == ISA_FAM_MOV || oi->family == ISA_FAM_SEL)
        lanes_blend(sg, in->o[0].reg, vec,
                    (const uint64_t (*)[LANES_MAX])tmp, mask);
    return rc;
}
