/* vote.c - all / any (and/or reductions over 0/1, or a vote: lowering.def),
 * all_equal, elect. */
#include "coll_private.h"

#include <string.h>

coll_status coll_do_vote(const coll_env *env, const isa_inst *in,
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
    coll_x x = { env, (isa_type)in->type, 0 };
    uint64_t scratch[LANES_MAX], v[LANES_MAX], t[COLL_TMP_LANES], out[COLL_TMP_LANES];
    if (oi->family == ISA_FAM_ELECT) {
        /* ballot of the active lanes, find its lowest bit, compare with
         * the lane id */
        uint64_t ones[LANES_MAX], wd[4][LANES_MAX], lid[LANES_MAX];
        uint64_t *rows[4] = { wd[0], wd[1], wd[2], wd[3] };
        for (uint32_t l = 0; l < w; l++) {
            ones[l] = 1;
            lid[l] = l;
        }
        x.type = ISA_T_U32;
        coll_u_ballot(&x, rows, 4, ones, w, act);
        coll_u_ballot_bits(&x, COLL_B_LSB, t, (const uint64_t *const *)rows, NULL,
                           w, w, act);
        coll_u_cmp(&x, ISA_BINOP_EQ, out, t, lid, w, act);
        coll_write(sg, in->o[0].reg, g->active[0], out);
        return COLL_OK;
    }
    memcpy(v, lanes_src(env->lanes, sg, &in->o[1], 0, x.type, scratch), w * sizeof *v);
    if (oi->family == ISA_FAM_ALL_EQUAL) {
        if (!act)
            return COLL_OK;
        uint64_t b[LANES_MAX];
        const uint32_t first = (uint32_t)__builtin_ctzll(act);
        coll_step c = { .t = v, .u = b, .out = b, .w = w, .n = w, .lane = first,
                        .mode = COLL_SHFL_IDX, .dist = first };
        coll_plan_step(&x, COLL_STEP_BCAST, &c);
        coll_u_cmp(&x, ISA_BINOP_EQ, t, v, b, w, act);
    } else {
        /* the reduce's masked copy compares with 0 for logical operators */
        memcpy(t, v, w * sizeof *t);
    }
    x.type = ISA_T_I32;
    uint64_t u[COLL_TMP_LANES], p[COLL_TMP_LANES];
    coll_step c = { .op = oi->family == ISA_FAM_ANY ? ISA_BINOP_LOR : ISA_BINOP_LAND,
                    .t = t, .u = u, .p = p, .out = out, .v = t, .en = act, .w = w,
                    .tested = oi->family == ISA_FAM_ALL_EQUAL };
    coll_plan_step(&x, COLL_STEP_VOTE, &c);
    coll_write(sg, in->o[0].reg, g->active[0], out);
    return COLL_OK;
}
