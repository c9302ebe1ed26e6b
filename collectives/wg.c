/* wg.c - work-group reduce, scans, all and any: a sub-group collective per
 * subgroup, its total through local memory, a barrier, and a second-level
 * reduce over the totals of the subgroups (all of them for reduce/all/any,
 * those before the subgroup for scans), in chunks of W lanes. */
#include "coll_private.h"

#include <stdlib.h>
#include <string.h>

/* acc[0..w) = reduce of the first `count` totals stored at offset 0. */
static coll_status second_level(coll_x *x, isa_binop op, uint32_t count,
                                uint32_t w, uint64_t *acc)
{
    uint32_t esz = isa_types[x->type].bytes;
    uint64_t t[COLL_TMP_LANES], r[COLL_TMP_LANES];
    for (uint32_t c = 0; c * w < count; c++) {
        uint32_t n = count - c * w < w ? count - c * w : w;
        coll_status st = coll_u_slm_load(x, t, c * w * esz, n);
        if (st)
            return st;
        coll_reduce_vec(x, op, t, w, lanes_mask_first(n), c ? r : acc);
        if (c)
            coll_u_alu(x, op, acc, coll_rgn_stride(0, 1), acc, coll_rgn_stride(0, 1),
                       r, coll_rgn_stride(0, 1), w);
    }
    return COLL_OK;
}

coll_status coll_do_wg(const coll_env *env, const isa_inst *in,
                       coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    coll_status st = coll_check_converged(g, rep);
    if (st)
        return st;
    uint32_t w = g->sg[0]->width, nsg = g->nsg;
    bool vote = fam == ISA_FAM_ALL || fam == ISA_FAM_ANY;
    bool scan = fam == ISA_FAM_SCAN_INC || fam == ISA_FAM_SCAN_EXC;
    isa_binop op = fam == ISA_FAM_ALL ? ISA_BINOP_LAND :
                   fam == ISA_FAM_ANY ? ISA_BINOP_LOR : oi->binop;
    coll_x x = { env, vote ? ISA_T_I32 : (isa_type)in->type, 0 };
    uint32_t esz = isa_types[x.type].bytes;
    uint64_t *part = malloc((size_t)nsg * w * sizeof *part);
    if (!part)
        return coll_fail(rep, COLL_NO_MEMORY, 0, 0, 0);
    uint64_t scratch[LANES_MAX], v[LANES_MAX], t[COLL_TMP_LANES], acc[COLL_TMP_LANES];

    /* level 1: each subgroup's own collective; its total goes to slot j */
    for (uint32_t j = 0; j < nsg && !st; j++) {
        lanes_sg *sg = g->sg[j];
        lanes_mask act = g->active[j] & sg->exists;
        uint64_t *p = part + (size_t)j * w;
        x.sg = (uint16_t)j;
        memcpy(v, lanes_src(env->lanes, sg, &in->o[1], 0, (isa_type)in->type, scratch),
               w * sizeof *v);
        if (scan)
            coll_scan_vec(&x, op, v, w, act, false, p);
        else
            coll_reduce_vec(&x, op, v, w, act, p);
        /* the inclusive scan's last lane holds the total: lanes past the
         * real size are identity-padded */
        st = coll_u_slm_store(&x, j * esz, p, scan ? w - 1 : 0);
    }
    for (uint32_t j = 0; j < nsg && !st; j++) {
        x.sg = (uint16_t)j;
        coll_u_barrier(&x);
    }
    /* level 2 and the combine */
    for (uint32_t j = 0; j < nsg && !st; j++) {
        lanes_sg *sg = g->sg[j];
        uint64_t *p = part + (size_t)j * w;
        uint32_t count = scan ? j : nsg;
        x.sg = (uint16_t)j;
        if ((st = second_level(&x, op, count, w, acc)))
            break;
        if (!scan) {
            coll_write(sg, in->o[0].reg, g->active[j], acc);
            continue;
        }
        if (fam == ISA_FAM_SCAN_EXC) {
            /* exclusive = inclusive shifted one lane, identity in lane 0 */
            coll_u_fill(&x, t, coll_rgn_scalar(0), coll_pad_value(op, x.type), 1);
            coll_u_mov(&x, t, coll_rgn_stride(1, 1), p, coll_rgn_stride(0, 1), w - 1,
                       ~(lanes_mask)0);
            memcpy(p, t, w * sizeof *p);
        }
        if (count)
            coll_u_alu(&x, op, p, coll_rgn_stride(0, 1), acc, coll_rgn_stride(0, 1),
                       p, coll_rgn_stride(0, 1), w);
        if (fam == ISA_FAM_SCAN_EXC && j == 0 && coll_needs_exc_fixup(op, x.type))
            coll_u_fill(&x, p, coll_rgn_scalar(0), lanes_identity(op, x.type), 1);
        coll_write(sg, in->o[0].reg, g->active[j], p);
    }
    free(part);
    if (st)
        return coll_fail(rep, st, x.sg, 0, 0);
    return COLL_OK;
}
