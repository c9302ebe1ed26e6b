/* reduce.c - sub-group reductions (uniform, non-uniform, clustered) and
 * the reduce building block that work-group collectives reuse. */
#include "coll_private.h"

#include <string.h>

uint64_t coll_pad_value(isa_binop op, isa_type t)
{
    if (isa_types[t].is_float && (op == ISA_BINOP_MIN || op == ISA_BINOP_MAX))
        return t == ISA_T_F16 ? 0x7e00u : t == ISA_T_F32 ? 0x7fc00000u : 0x7ff8000000000000ull;
    /* float add: -0.0, the IEEE identity (-0 + x = x for every x, -0
     * included, where +0 + -0 = +0 would turn a fold of -0.0 into +0.0) */
    if (isa_types[t].is_float && op == ISA_BINOP_ADD)
        return t == ISA_T_F16 ? 0x8000u : t == ISA_T_F32 ? 0x80000000u : 0x8000000000000000ull;
    return lanes_identity(op, t);
}

bool coll_needs_exc_fixup(isa_binop op, isa_type t)
{
    return coll_pad_value(op, t) != lanes_identity(op, t);
}

void coll_prepare(coll_x *x, isa_binop op, uint64_t *t, const uint64_t *v,
                  uint32_t w, uint32_t n, lanes_mask en, uint32_t shift)
{
    uint64_t p[COLL_TMP_LANES], u[COLL_TMP_LANES];
    coll_step c = { .op = op, .t = t, .u = u, .p = p, .v = v, .en = en, .w = w, .n = n,
                    .shift = shift };
    coll_plan_step(x, COLL_STEP_PREP, &c);
    if (shift) {
        c.mode = COLL_SHFL_UP;
        c.dist = 1;
        c.shifting = true;
        coll_plan_step(x, COLL_STEP_SHIFT, &c);
    }
}

static void prepare(coll_x *x, isa_binop op, uint64_t *t, const uint64_t *v,
                    uint32_t w, uint32_t n, lanes_mask en)
{
    coll_prepare(x, op, t, v, w, n, en, 0);
}

/* The operators one REDUX serves (redux.sync: add, min, max, and, or,
 * xor of 32-bit values; logical operators after their compare with 0); on
 * regions a HW_REDUCE stands for every operator. */
static bool redux_op(isa_binop op)
{
    switch (op) {
    case ISA_BINOP_ADD: case ISA_BINOP_MIN: case ISA_BINOP_MAX: case ISA_BINOP_AND:
    case ISA_BINOP_OR: case ISA_BINOP_XOR: case ISA_BINOP_LAND: case ISA_BINOP_LOR:
    case ISA_BINOP_LXOR:
        return true;
    default:
        return false;
    }
}

static bool hw_reduce_fits(const coll_x *x, isa_binop op, uint32_t w)
{
    const coll_options *o = x->env->opt;
    return o->reduce_algo == COLL_RED_HW &&
           (x->type == ISA_T_I32 || x->type == ISA_T_U32) && w <= o->hw_reduce_width &&
           (coll_lowering(x) == COLL_LOWER_REGION || redux_op(op));
}

/* The reduction's value in t to every lane of out (w lanes): the region
 * broadcast, or nothing where every lane already holds it. */
static void reduce_out(coll_x *x, coll_step_kind s, coll_step *c)
{
    if (coll_plan_has(coll_lowering(x), s))
        coll_plan_step(x, s, c);
    else
        memcpy(c->out, c->t, c->w * sizeof *c->out);
}

void coll_reduce_vec(coll_x *x, isa_binop op, const uint64_t *v, uint32_t w,
                     lanes_mask en, uint64_t *out)
{
    uint64_t t[COLL_TMP_LANES], u[COLL_TMP_LANES], p[COLL_TMP_LANES];
    coll_step c = { .op = op, .t = t, .u = u, .p = p, .out = out, .v = v, .en = en, .w = w };
    if (hw_reduce_fits(x, op, w)) {
        coll_plan_step(x, COLL_STEP_HW, &c);
        return;
    }
    if (x->env->opt->reduce_algo == COLL_RED_SERIAL) {
        prepare(x, op, t, v, w, w, en);
        for (uint32_t i = 1; i < w; i++)
            coll_u_alu(x, op, t, coll_rgn_scalar(0), t, coll_rgn_scalar(0),
                       t, coll_rgn_scalar(i), 1);
        coll_u_bcast(x, out, t, 0, w);
        return;
    }
    /* the halving tree: on regions t[i] = t[i] op t[i + s] for i < s; as a
     * butterfly every lane combines with lane i ^ s, the lower lane's value
     * first, so each lane holds lane 0's value */
    const uint32_t n = coll_pow2_ceil(w);
    const coll_step_kind k = coll_step_of(false, op, x->type);
    prepare(x, op, t, v, w, n, en);
    c.n = n;
    c.mode = COLL_SHFL_XOR;
    for (uint32_t s = n / 2; s >= 1; s /= 2) {
        c.rd = c.ra = coll_rgn_stride(0, 1);
        c.rb = coll_rgn_stride(s, 1);
        c.alu_n = s;
        c.dist = s;
        c.first_own = lanes_mask_first(n) & ~lanes_mask_of_bit(n, s);
        coll_plan_step(x, k, &c);
    }
    c.lane = 0;
    reduce_out(x, COLL_STEP_REDUCE_OUT, &c);
}

void coll_reduce_clustered(coll_x *x, isa_binop op, const uint64_t *v,
                           uint32_t w, lanes_mask en, uint32_t cl, uint64_t *out)
{
    uint64_t t[COLL_TMP_LANES], u[COLL_TMP_LANES], p[COLL_TMP_LANES];
    uint32_t n = coll_pow2_ceil(w);
    if (n < cl)
        n = cl;
    prepare(x, op, t, v, w, n, en);
    coll_step c = { .op = op, .t = t, .u = u, .p = p, .out = out, .v = v, .en = en, .w = w,
                    .n = n, .mode = COLL_SHFL_XOR };
    const coll_step_kind k = coll_step_of(false, op, x->type);
    /* halving tree inside every cluster: region <c; s, 1> (a butterfly of
     * distances below the cluster size stays inside its cluster) */
    for (uint32_t s = cl / 2; s >= 1; s /= 2) {
        c.rd = c.ra = (coll_rgn){ 0, (uint16_t)cl, (uint16_t)s, 1 };
        c.rb = (coll_rgn){ (uint16_t)s, (uint16_t)cl, (uint16_t)s, 1 };
        c.alu_n = (n / cl) * s;
        c.dist = s;
        c.first_own = lanes_mask_first(n) & ~lanes_mask_of_bit(n, s);
        coll_plan_step(x, k, &c);
    }
    c.dist = cl;
    reduce_out(x, COLL_STEP_CLUSTER_OUT, &c);
}

static void reduce_gen(coll_x *x, const uint64_t *v, uint32_t w, lanes_mask en,
                       uint64_t *out, const void *arg)
{
    coll_reduce_vec(x, *(const isa_binop *)arg, v, w, en, out);
}

coll_status coll_do_reduce(const coll_env *env, const isa_inst *in,
                           coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    lanes_sg *sg = g->sg[0];
    uint32_t w = sg->width;
    lanes_mask act = g->active[0] & sg->exists;
    if (oi->scope == ISA_SCOPE_SG) {
        coll_status st = coll_check_converged(g, rep);
        if (st)
            return st;
    }
    uint32_t c = 0;
    if (oi->scope == ISA_SCOPE_CL) {
        /* the cluster size must be a constant power of two <= max size */
        if (in->o[2].kind != ISA_OPND_IMM)
            return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, 0);
        uint64_t cs = in->o[2].imm;
        if (cs == 0 || cs > w || (cs & (cs - 1)))
            return coll_fail(rep, COLL_ID_RANGE, 0, 0, (int64_t)cs);
        c = (uint32_t)cs;
    }
    coll_x x = { env, (isa_type)in->type, 0 };
    const isa_binop op = oi->binop;
    /* a tree or serial reduction (the one-micro-op HW_REDUCE is cheap as it is) */
    const coll_shape *shape =
        !c && !hw_reduce_fits(&x, op, w) && coll_fold_ok(env, x.type, op)
            ? coll_shape_get(env, in->op, x.type, w, act, reduce_gen, &op) : NULL;
    uint64_t scratch[LANES_MAX], v[LANES_MAX], out[COLL_TMP_LANES];
    for (uint32_t comp = 0; comp < (in->vec ? in->vec : 1u); comp++) {
        const uint64_t *src = lanes_src(env->lanes, sg, &in->o[1], comp, x.type, scratch);
        if (shape) {
            /* the tree's value is the fold of every lane */
            const uint64_t f = coll_fold(op, x.type, src, w, act);
            for (uint32_t l = 0; l < w; l++)
                out[l] = f;
            coll_shape_emit(env, shape);
            coll_write(sg, in->o[0].reg + comp, g->active[0], out);
            continue;
        }
        memcpy(v, src, w * sizeof *v);
        if (c)
            coll_reduce_clustered(&x, oi->binop, v, w, act, c, out);
        else
            coll_reduce_vec(&x, oi->binop, v, w, act, out);
        coll_write(sg, in->o[0].reg + comp, g->active[0], out);
    }
    return COLL_OK;
}
