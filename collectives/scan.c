/* scan.c - sub-group inclusive and exclusive scans (uniform and
 * non-uniform) and the scan building block of work-group scans. */
#include "coll_private.h"

#include <string.h>

void coll_scan_vec(coll_x *x, isa_binop op, const uint64_t *v, uint32_t w,
                   lanes_mask en, bool exclusive, uint64_t *out)
{
    const coll_options *o = x->env->opt;
    bool serial = o->scan_algo == COLL_SCAN_SERIAL;
    uint32_t p = coll_pow2_ceil(w), n = serial ? w : p;
    uint64_t t[COLL_TMP_LANES];
    /* identity fill, then the masked copy; an exclusive scan copies lane i
     * to lane i + 1 (the shift), so lane 0 keeps the identity */
    coll_prepare(x, op, t, v, w, n, en, exclusive ? 1 : 0);

    if (serial) {
        for (uint32_t i = 1; i < w; i++)
            coll_u_alu(x, op, t, coll_rgn_scalar(i), t, coll_rgn_scalar(i - 1),
                       t, coll_rgn_scalar(i), 1);
    } else if (o->scan_algo == COLL_SCAN_LOGSTEP) {
        /* Hillis-Steele: x[i] = x[i - s] op x[i] for i >= s (on regions,
         * or a shuffle up by s) */
        uint64_t u[COLL_TMP_LANES], pr[COLL_TMP_LANES];
        coll_step c = { .op = op, .t = t, .u = u, .p = pr, .v = v, .en = en, .w = w, .n = p,
                        .mode = COLL_SHFL_UP };
        const coll_step_kind k = coll_step_of(true, op, x->type);
        for (uint32_t s = 1; s < p; s *= 2) {
            c.rd = c.rb = coll_rgn_stride(s, 1);
            c.ra = coll_rgn_stride(0, 1);
            c.alu_n = p - s;
            c.dist = s;
            coll_plan_step(x, k, &c);
        }
    } else {
        /* blocked (Sklansky): for blocks of b = 2, 4, ..., p the upper half
         * of each block adds the last lane of its lower half:
         * dst <b; b/2, 1> at b/2, src0 <b; b/2, 0> at b/2 - 1 */
        for (uint32_t b = 2; b <= p; b *= 2) {
            uint16_t h = (uint16_t)(b / 2);
            coll_rgn up = { h, (uint16_t)b, h, 1 };
            coll_rgn last = { (uint16_t)(h - 1), (uint16_t)b, h, 0 };
            if (h >= 4 && p / 2 > h)   /* several runs long enough for a row each */
                coll_u_alu_rows(x, op, t, up, last, p / 2);
            else
                coll_u_alu(x, op, t, up, t, last, t, up, p / 2);
        }
    }
    if (exclusive && en && coll_needs_exc_fixup(op, x->type)) {
        coll_step c = { .op = op, .t = t, .n = n, .lane = (uint32_t)__builtin_ctzll(en) };
        coll_plan_step(x, COLL_STEP_EXC_FIX, &c);
    }
    memcpy(out, t, w * sizeof *out);
}

typedef struct scan_arg {
    isa_binop op;
    bool exclusive;
} scan_arg;

static void scan_gen(coll_x *x, const uint64_t *v, uint32_t w, lanes_mask en,
                     uint64_t *out, const void *arg)
{
    const scan_arg *a = arg;
    coll_scan_vec(x, a->op, v, w, en, a->exclusive, out);
}

coll_status coll_do_scan(const coll_env *env, const isa_inst *in,
                         coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    lanes_sg *sg = g->sg[0];
    uint32_t w = sg->width;
    if (oi->scope == ISA_SCOPE_SG) {
        coll_status st = coll_check_converged(g, rep);
        if (st)
            return st;
    }
    coll_x x = { env, (isa_type)in->type, 0 };
    const lanes_mask en = g->active[0] & sg->exists;
    const scan_arg sa = { oi->binop, oi->family == ISA_FAM_SCAN_EXC };
    const coll_shape *shape =
        coll_fold_ok(env, x.type, oi->binop)
            ? coll_shape_get(env, in->op, x.type, w, en, scan_gen, &sa) : NULL;
    uint64_t scratch[LANES_MAX], v[LANES_MAX], out[COLL_TMP_LANES];
    for (uint32_t comp = 0; comp < (in->vec ? in->vec : 1u); comp++) {
        const uint64_t *src = lanes_src(env->lanes, sg, &in->o[1], comp, x.type, scratch);
        if (shape) {
            coll_fold_scan(sa.op, x.type, src, w, en, sa.exclusive, out);
            coll_shape_emit(env, shape);
        } else {
            memcpy(v, src, w * sizeof *v);
            coll_scan_vec(&x, sa.op, v, w, en, sa.exclusive, out);
        }
        coll_write(sg, in->o[0].reg + comp, g->active[0], out);
    }
    return COLL_OK;
}
