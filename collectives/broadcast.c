/* broadcast.c - sub-group broadcast (uniform and non-uniform),
 * broadcast_first and work_group_broadcast through local memory. */
#include "coll_private.h"

#include <stdlib.h>
#include <string.h>

static const uint64_t zeros[COLL_TMP_LANES];

static coll_status sg_bcast(const coll_env *env, const isa_inst *in,
                            coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    lanes_sg *sg = g->sg[0];
    uint32_t w = sg->width;
    lanes_mask act = g->active[0] & sg->exists;
    bool uniform = oi->scope == ISA_SCOPE_SG;
    uint64_t scratch[LANES_MAX], out[LANES_MAX];
    if (uniform) {
        coll_status st = coll_check_converged(g, rep);
        if (st)
            return st;
    }
    if (!act)
        return COLL_OK;
    uint32_t first = (uint32_t)__builtin_ctzll(act), src = first;
    if (oi->family == ISA_FAM_BCAST) {
        const uint64_t *id = lanes_src(env->lanes, sg, &in->o[2], 0, ISA_T_U32, scratch);
        uint64_t want = id[first];
        for (uint32_t l = first; l < w; l++) {
            if (!(act >> l & 1) || id[l] == want)
                continue;
            if (uniform)
                return coll_fail(rep, COLL_NONUNIFORM_ID, 0, l, (int64_t)id[l]);
            coll_note(env, COLL_NONUNIFORM_ID, 0, l, (int64_t)id[l]);
            break;
        }
        if (want >= sg->size) {
            if (uniform)
                return coll_fail(rep, COLL_ID_RANGE, 0, first, (int64_t)want);
            coll_note(env, COLL_ID_RANGE, 0, first, (int64_t)want);
        } else if (!(act >> want & 1)) {
            coll_note(env, COLL_INACTIVE_SRC, 0, first, (int64_t)want);
        }
        src = (uint32_t)(want < LANES_MAX ? want : LANES_MAX);
    }
    coll_x x = { env, (isa_type)in->type, 0 };
    for (uint32_t comp = 0; comp < (in->vec ? in->vec : 1u); comp++) {
        const uint64_t *v = lanes_src(env->lanes, sg, &in->o[1], comp, x.type, scratch);
        /* a missing or out-of-range lane reads as 0 */
        const bool have = src < sg->size;
        coll_step c = { .t = (uint64_t *)(have ? v : zeros), .u = out, .out = out, .w = w,
                        .n = w, .lane = have ? src : 0, .mode = COLL_SHFL_IDX,
                        .dist = have ? src : 0 };
        coll_plan_step(&x, COLL_STEP_BCAST, &c);
        coll_write(sg, in->o[0].reg + comp, g->active[0], out);
    }
    return COLL_OK;
}

/* work_group_broadcast(value, x[, y[, z]]): the owner stores its value to
 * local memory, every subgroup waits at the barrier, loads and broadcasts. */
static coll_status wg_bcast(const coll_env *env, const isa_inst *in,
                            coll_group *g, coll_report *rep)
{
    coll_status st = coll_check_converged(g, rep);
    if (st)
        return st;
    uint32_t ndim = in->nopnd > 2 ? in->nopnd - 2u : 1u, w = g->sg[0]->width;
    if (ndim > 3)
        ndim = 3;
    uint64_t id[3] = { 0, 0, 0 }, scratch[LANES_MAX];
    bool have = false;
    for (uint32_t j = 0; j < g->nsg; j++) {
        for (uint32_t d = 0; d < ndim; d++) {
            const uint64_t *r = lanes_src(env->lanes, g->sg[j], &in->o[2 + d], 0,
                                          ISA_T_U32, scratch);
            for (uint32_t l = 0; l < w; l++) {
                if (!(g->active[j] >> l & 1))
                    continue;
                if (!have && j == 0 && l == (uint32_t)__builtin_ctzll(g->active[0]))
                    id[d] = r[l];
                else if (r[l] != id[d])
                    return coll_fail(rep, COLL_NONUNIFORM_ID, j, l, (int64_t)r[l]);
            }
        }
        have = true;
    }
    uint32_t L[3];
    for (uint32_t d = 0; d < 3; d++)
        L[d] = g->local_size[d] ? g->local_size[d] : 1;
    for (uint32_t d = 0; d < 3; d++)
        if (id[d] >= L[d])
            return coll_fail(rep, COLL_ID_RANGE, 0, 0, (int64_t)id[d]);
    uint64_t lin = id[0] + id[1] * L[0] + id[2] * L[0] * L[1];
    uint32_t items = g->wg_items ? g->wg_items : g->nsg * w;
    if (lin >= items)
        return coll_fail(rep, COLL_ID_RANGE, 0, 0, (int64_t)lin);
    uint32_t owner = (uint32_t)(lin / w), lane = (uint32_t)(lin % w);   // NOLINT(clang-analyzer-core.DivideZero): w is the sub-group width, 1..64
    if (owner >= g->nsg)
        return coll_fail(rep, COLL_ID_RANGE, 0, 0, (int64_t)lin);

    coll_x x = { env, (isa_type)in->type, (uint16_t)owner };
    uint32_t esz = isa_types[x.type].bytes, vec = in->vec ? in->vec : 1u;
    uint64_t t[LANES_MAX], out[LANES_MAX];
    for (uint32_t comp = 0; comp < vec; comp++) {
        const uint64_t *v = lanes_src(env->lanes, g->sg[owner], &in->o[1], comp,
                                      x.type, scratch);
        if ((st = coll_u_slm_store(&x, comp * esz, v, lane)))
            return coll_fail(rep, st, owner, lane, 0);
    }
    for (uint32_t j = 0; j < g->nsg; j++) {
        x.sg = (uint16_t)j;
        coll_u_barrier(&x);
    }
    for (uint32_t j = 0; j < g->nsg; j++) {
        x.sg = (uint16_t)j;
        for (uint32_t comp = 0; comp < vec; comp++) {
            if ((st = coll_u_slm_load(&x, t, comp * esz, 1)))
                return coll_fail(rep, st, j, 0, 0);
            coll_u_bcast(&x, out, t, 0, w);
            coll_write(g->sg[j], in->o[0].reg + comp, g->active[j], out);
        }
    }
    return COLL_OK;
}

coll_status coll_do_bcast(const coll_env *env, const isa_inst *in,
                          coll_group *g, coll_report *rep)
{
    if (isa_ops[in->op].scope == ISA_SCOPE_WG)
        return wg_bcast(env, in, g, rep);
    return sg_bcast(env, in, g, rep);
}
