/* plan.c - one step of a collective as the micro-ops its lowering's row of
 * lowering.def names, each computed on real lane values. */
#include "coll_private.h"

#include <string.h>

enum {
#define F(name) COLL_F_##name,
    F(NONE) F(FILL) F(TEST) F(COPY) F(ACTIVE) F(ALU) F(BCAST) F(SPREAD) F(FIXID)
    F(SELID) F(UP) F(XOR) F(IDX) F(KEEP) F(OP) F(OPLANE) F(CMP) F(PICK) F(REDUX)
    F(FOLD) F(VOTE) F(SELV)
#undef F
};

#define COLL_PLAN_FORMS 3
static const uint8_t plans[COLL_LOWER_COUNT][COLL_STEP_COUNT][COLL_PLAN_FORMS] = {
#define COLL_PLAN(L, S, f1, f2, f3) \
    [COLL_LOWER_##L][COLL_STEP_##S] = { COLL_F_##f1, COLL_F_##f2, COLL_F_##f3 },
#include "lowering.def"
#undef COLL_PLAN
};

static const uint64_t zeros[COLL_TMP_LANES];

static bool logical(isa_binop op)
{
    return op == ISA_BINOP_LAND || op == ISA_BINOP_LOR || op == ISA_BINOP_LXOR;
}

coll_lower coll_lowering(const coll_x *x)
{
    return x->env->opt->lowering == COLL_LOWER_SHUFFLE ? COLL_LOWER_SHUFFLE : COLL_LOWER_REGION;
}

coll_step_kind coll_step_of(bool scan, isa_binop op, isa_type t)
{
    const bool mm = op == ISA_BINOP_MIN || op == ISA_BINOP_MAX;
    if (mm)
        return scan ? COLL_STEP_SCAN_MINMAX : COLL_STEP_REDUCE_MINMAX;
    if (isa_types[t].is_float)
        return scan ? COLL_STEP_SCAN_FLOAT : COLL_STEP_REDUCE_FLOAT;
    return scan ? COLL_STEP_SCAN_INT : COLL_STEP_REDUCE_INT;
}

bool coll_plan_has(coll_lower l, coll_step_kind s)
{
    return plans[l][s][0] != COLL_F_NONE;
}

/* Lanes [0, n) where the step applies: at or above the distance for an
 * up-shift (below it a lane keeps its value), every lane otherwise. */
static lanes_mask step_lanes(const coll_step *c, uint32_t n)
{
    lanes_mask all = lanes_mask_first(n);
    return c->mode == COLL_SHFL_UP ? all & ~lanes_mask_first(c->dist) : all;
}

/* One SHFL per 32-bit half of the element (two for 64-bit types). */
static void shfl(coll_x *x, const coll_step *c, uint32_t n)
{
    const bool wide = isa_types[x->type].bytes == 8;
    for (int part = wide ? 0 : -1; part < (wide ? 2 : 0); part++)
        coll_u_shfl(x, c->mode, c->dist, c->u, c->t, n, part);
}

static void run_form(coll_x *x, int f, coll_step *c)
{
    const uint32_t n = c->n;
    switch (f) {
    case COLL_F_NONE:
        break;
    case COLL_F_FILL:
        coll_u_fill(x, c->t, coll_rgn_stride(0, 1), coll_pad_value(c->op, x->type), n);
        break;
    case COLL_F_TEST:
        /* predicates become 0/1 first, so one lane alone reads as 1 */
        if (logical(c->op) && !c->tested) {
            coll_u_cmp(x, ISA_BINOP_NE, c->p, c->v, zeros, c->w, c->en);
            c->v = c->p;
        }
        break;
    case COLL_F_COPY:
        coll_u_mov(x, c->t, coll_rgn_stride(c->shift, 1), c->v, coll_rgn_stride(0, 1),
                   c->w - c->shift, c->en);
        break;
    case COLL_F_ACTIVE: {
        /* every lane of the step active: the values are the registers */
        const lanes_mask keep = c->en & lanes_mask_first(c->w);
        if (keep == lanes_mask_first(n)) {
            memcpy(c->t, c->v, n * sizeof *c->t);
            break;
        }
        coll_u_select(x, c->t, c->v, coll_pad_value(c->op, x->type), keep, n);
        break;
    }
    case COLL_F_ALU:
        if (c->rows)
            coll_u_alu_rows(x, c->op, c->t, c->rd, c->ra, c->alu_n);
        else
            coll_u_alu(x, c->op, c->t, c->rd, c->t, c->ra, c->t, c->rb, c->alu_n);
        break;
    case COLL_F_BCAST:
        coll_u_bcast(x, c->out, c->t, c->lane, c->w);
        break;
    case COLL_F_SPREAD: {
        /* each lane takes its cluster's first lane: region <c; c, 0> */
        coll_rgn first = { 0, (uint16_t)c->dist, (uint16_t)c->dist, 0 };
        coll_u_mov(x, c->out, coll_rgn_stride(0, 1), c->t, first, c->w, ~(lanes_mask)0);
        break;
    }
    case COLL_F_FIXID:
        coll_u_fill(x, c->t, coll_rgn_stride(0, 1), lanes_identity(c->op, x->type), c->lane + 1);
        break;
    case COLL_F_SELID:
        coll_u_select(x, c->t, c->t, lanes_identity(c->op, x->type),
                      lanes_mask_first(n) & ~lanes_mask_first(c->lane + 1), n);
        break;
    case COLL_F_UP:
    case COLL_F_XOR:
    case COLL_F_IDX:
        shfl(x, c, n);
        break;
    case COLL_F_KEEP:
        /* the shift's own lanes below the distance take the pad value; a
         * shift writes the result, a scan step its shuffled operand */
        coll_u_select(x, c->shifting ? c->t : c->u, c->u, coll_pad_value(c->op, x->type),
                      step_lanes(c, n), n);
        break;
    case COLL_F_OP:
        coll_u_combine(x, COLL_UOP_ALU, c->op, c->t, c->u, lanes_mask_first(n), c->first_own, n);
        break;
    case COLL_F_OPLANE:
        coll_u_combine(x, COLL_UOP_ALU, c->op, c->t, c->u, step_lanes(c, n), c->first_own, n);
        break;
    case COLL_F_CMP:
        coll_u_compare(x, c->op == ISA_BINOP_MIN ? ISA_BINOP_LT : ISA_BINOP_GT, c->p, c->u,
                       c->t, n, step_lanes(c, n));
        break;
    case COLL_F_PICK:
        coll_u_combine(x, COLL_UOP_PRED, c->op, c->t, c->u, step_lanes(c, n), c->first_own, n);
        break;
    case COLL_F_REDUX:
        coll_u_hw_reduce(x, c->op, c->out, c->v, c->w, c->en);
        break;
    case COLL_F_FOLD:
        coll_reduce_vec(x, c->op, c->v, c->w, c->en, c->out);
        break;
    case COLL_F_VOTE: {
        /* the mask's two 32-bit words into u and p (w <= 64) */
        uint64_t *const rows[2] = { c->u, c->p };
        coll_u_ballot(x, rows, 2, c->v, c->w, c->en);
        break;
    }
    case COLL_F_SELV: {
        static const uint64_t ones[COLL_TMP_LANES] = {
#define O4 1, 1, 1, 1
#define O16 O4, O4, O4, O4
            O16, O16, O16, O16, O16, O16, O16, O16
#undef O16
#undef O4
        };
        const lanes_mask m = c->w ? (c->u[0] & 0xffffffffu) | (c->p[0] & 0xffffffffu) << 32 : 0;
        const lanes_mask act = c->en & lanes_mask_first(c->w);
        const bool yes = c->op == ISA_BINOP_LAND ? m == act : m != 0;
        coll_u_select(x, c->out, ones, 0, yes ? lanes_mask_first(c->w) : 0, c->w);
        break;
    }
    }
}

void coll_plan_step(coll_x *x, coll_step_kind s, coll_step *c)
{
    const coll_lower l = coll_lowering(x);
    for (uint32_t i = 0; i < COLL_PLAN_FORMS; i++)
        run_form(x, plans[l][s][i], c);
}
