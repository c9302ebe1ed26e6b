/* ballot.c - cl_khr_subgroup_ballot: ballot, inverse ballot, bit queries
 * on a uint4 ballot value and the get_sub_group_*_mask lane masks. */
#include "coll_private.h"

#include <string.h>

coll_status coll_do_ballot(const coll_env *env, const isa_inst *in,
                           coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    lanes_sg *sg = g->sg[0];
    uint32_t w = sg->width, vec = in->vec ? in->vec : 1u;
    lanes_mask act = g->active[0] & sg->exists;
    coll_x x = { env, ISA_T_U32, 0 };
    uint64_t scratch[LANES_MAX], wd[4][LANES_MAX], out[LANES_MAX], idx[LANES_MAX];
    uint64_t *rows[4] = { wd[0], wd[1], wd[2], wd[3] };
    (void)rep;
    memset(wd, 0, sizeof wd);
    if (vec > 4)
        vec = 4;

    if (oi->family == ISA_FAM_BALLOT || oi->family == ISA_FAM_LANE_MASK) {
        if (oi->family == ISA_FAM_BALLOT) {
            const uint64_t *p = lanes_src(env->lanes, sg, &in->o[1], 0, ISA_T_I32, scratch);
            coll_u_ballot(&x, rows, vec, p, w, act);
        } else {
            coll_u_lane_mask(&x, oi->binop, rows, vec, w, w, act);
        }
        for (uint32_t c = 0; c < vec; c++)
            coll_write(sg, in->o[0].reg + c, g->active[0], wd[c]);
        return COLL_OK;
    }

    /* the uint4 source: as many components as the instruction names */
    uint32_t nsrc = in->o[1].kind == ISA_OPND_REG ? vec : 1;
    for (uint32_t c = 0; c < nsrc; c++)
        memcpy(wd[c], lanes_src(env->lanes, sg, &in->o[1], c, ISA_T_U32, scratch),
               w * sizeof **wd);
    coll_bform form = COLL_B_BIT;
    for (uint32_t l = 0; l < w; l++)
        idx[l] = l;
    switch (oi->family) {
    case ISA_FAM_INVERSE_BALLOT:
        break;
    case ISA_FAM_BALLOT_BIT_EXTRACT:
        memcpy(idx, lanes_src(env->lanes, sg, &in->o[2], 0, ISA_T_U32, scratch),
               w * sizeof *idx);
        break;
    case ISA_FAM_BALLOT_BIT_COUNT: form = COLL_B_COUNT; break;
    case ISA_FAM_BALLOT_INC_SCAN:  form = COLL_B_COUNT_LE; break;
    case ISA_FAM_BALLOT_EXC_SCAN:  form = COLL_B_COUNT_LT; break;
    case ISA_FAM_BALLOT_FIND_LSB:  form = COLL_B_LSB; break;
    case ISA_FAM_BALLOT_FIND_MSB:  form = COLL_B_MSB; break;
    default:
        return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, in->op);
    }
    coll_u_ballot_bits(&x, form, out, (const uint64_t *const *)rows, idx, w, w, act);
    coll_write(sg, in->o[0].reg, g->active[0], out);
    return COLL_OK;
}
