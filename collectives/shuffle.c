/* shuffle.c - Intel and Khronos shuffles and rotates: index arithmetic
 * (ALU micro-ops on u32 lane indices) followed by register-indirect moves
 * from the source (for two-source forms, a 2W-lane join of both). */
#include "coll_private.h"

#include <string.h>

/* Index computation; returns the number of source slots (w or 2w) and the
 * exclusive upper bound of valid indices. */
/* 0, 1, ..., 63: the lane ids as a row */
#define LID4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define LID16(b) LID4(b), LID4((b) + 4), LID4((b) + 8), LID4((b) + 12)
static const uint64_t lane_ids[LANES_MAX] = { LID16(0), LID16(16), LID16(32), LID16(48) };
#undef LID4
#undef LID16

/* OR mask m (bits below w) into the 128-bit set wd at bit off (0 or w). */
static void put_bits(uint64_t *wd, uint32_t off, lanes_mask m)
{
    if (off >= 64) {
        wd[1] |= m << (off - 64);
        return;
    }
    wd[0] |= m << off;
    if (off)
        wd[1] |= m >> (64 - off);
}

static void compute_index(coll_x *x, isa_family fam, bool khr, lanes_sg *sg,
                          const uint64_t *arg, uint32_t cluster, uint64_t *idx,
                          uint32_t *bound)
{
    uint32_t w = sg->width;
    const uint64_t *lid = lane_ids;
    uint64_t k[LANES_MAX];
    *bound = khr ? sg->size : w;
    switch (fam) {
    case ISA_FAM_SHUFFLE:
        coll_u_index(x, COLL_IX_COPY, idx, arg, arg, w);
        break;
    case ISA_FAM_SHUFFLE_XOR:
        coll_u_index(x, COLL_IX_XOR, idx, lid, arg, w);
        break;
    case ISA_FAM_SHUFFLE_UP:
        coll_u_index(x, COLL_IX_SUB, idx, lid, arg, w);
        break;
    case ISA_FAM_SHUFFLE_DOWN:
        coll_u_index(x, COLL_IX_ADD, idx, lid, arg, w);
        break;
    case ISA_FAM_SHUFFLE_DOWN2:
        /* index into current|next */
        coll_u_index(x, COLL_IX_ADD, idx, lid, arg, w);
        *bound = 2 * w;
        break;
    case ISA_FAM_SHUFFLE_UP2:
        /* index into previous|current: w + id - delta */
        for (uint32_t l = 0; l < w; l++)
            k[l] = w + l;
        coll_u_index(x, COLL_IX_SUB, idx, k, arg, w);
        *bound = 2 * w;
        break;
    case ISA_FAM_ROTATE:
        if (!cluster) {
            /* (id + delta) mod the maximum sub-group size, delta an int
             * (cl_khr_subgroup_rotate); a missing lane reads 0 */
            for (uint32_t l = 0; l < w; l++)
                k[l] = w;
            coll_u_index(x, COLL_IX_ADDS, idx, lid, arg, w);
            coll_u_index(x, COLL_IX_REM, idx, idx, k, w);
        } else {
            /* cluster base + (id + delta) % cluster */
            uint64_t base[LANES_MAX];
            for (uint32_t l = 0; l < w; l++) {
                k[l] = cluster - 1;
                base[l] = l & ~(cluster - 1);
            }
            coll_u_index(x, COLL_IX_ADD, idx, lid, arg, w);
            coll_u_index(x, COLL_IX_AND, idx, idx, k, w);
            coll_u_index(x, COLL_IX_ADD, idx, idx, base, w);
        }
        *bound = w;
        break;
    default:
        break;
    }
}

coll_status coll_do_shuffle(const coll_env *env, const isa_inst *in,
                            coll_group *g, coll_report *rep)
{
    const isa_op_info *oi = &isa_ops[in->op];
    isa_family fam = oi->family;
    lanes_sg *sg = g->sg[0];
    uint32_t w = sg->width;
    lanes_mask act = g->active[0] & sg->exists;
    bool two = fam == ISA_FAM_SHUFFLE_DOWN2 || fam == ISA_FAM_SHUFFLE_UP2;
    /* Intel rows are SG scope; Khronos shuffles are NU, rotate SG/CL */
    bool khr = oi->scope != ISA_SCOPE_SG || fam == ISA_FAM_ROTATE;
    uint32_t cluster = 0;
    if (oi->scope == ISA_SCOPE_CL) {
        if (in->o[3].kind != ISA_OPND_IMM)
            return coll_fail(rep, COLL_UNSUPPORTED, 0, 0, 0);
        uint64_t c = in->o[3].imm;
        if (c == 0 || c > w || (c & (c - 1)))
            return coll_fail(rep, COLL_ID_RANGE, 0, 0, (int64_t)c);
        cluster = (uint32_t)c;
    }
    /* The micro-ops depend on the instruction, its type and components, the
     * width and the active lanes, not on the values: an instruction of a
     * shape seen before computes its values directly (the index micro-ops
     * without records, then one move per lane) and replays the records. */
    const uint32_t nvec = in->vec ? in->vec : 1u, key = in->type | nvec << 8;
    const coll_shape *shape = NULL;
    coll_shape_tee rec;
    bool known = true;
    if (env->shapes && !coll_fault_hook)
        shape = coll_shape_find(env, in->op, key, w, act, &known);
    const coll_env *xenv = known ? env : coll_shape_tee_begin(&rec, env, in->op, key, w, act);
    coll_env quiet;
    if (shape) {
        quiet = *env;
        quiet.sink = NULL;
        xenv = &quiet;
    }
    coll_x x = { xenv, ISA_T_U32, 0 };
    uint64_t scratch[LANES_MAX], arg_scratch[LANES_MAX], idx[LANES_MAX];
    /* (the index operand is read only before any result is written) */
    const uint64_t *arg = lanes_src(env->lanes, sg, &in->o[two ? 3 : 2], 0, ISA_T_U32,
                                    arg_scratch);
    uint32_t bound;
    compute_index(&x, fam, khr, sg, arg, cluster, idx, &bound);

    /* source slots that exist / are active: lane j % w of the register(s),
     * slot j existing when that lane exists and j < bound */
    uint32_t slen = two ? 2 * w : w;
    uint64_t exist[2] = { 0, 0 }, live[2] = { 0, 0 };
    put_bits(exist, 0, lanes_mask_first(sg->size < bound ? sg->size : bound));
    put_bits(live, 0, act);
    if (two) {
        uint32_t hi = bound > w ? bound - w : 0;
        put_bits(exist, w, lanes_mask_first(sg->size < hi ? sg->size : hi));
        put_bits(live, w, act);
    }
    /* undefined results: note them (check mode); they read 0, or the
     * register's current content for an existing inactive lane */
    for (uint32_t l = 0; l < w && coll_notes_on(env); l++) {
        if (!(act >> l & 1))
            continue;
        uint64_t j = idx[l];   // NOLINT(clang-analyzer-core.uninitialized.Assign): compute_index fills idx[0..w)
        if (j >= bound)
            coll_note(env, COLL_SHUFFLE_RANGE, 0, l, (int64_t)(uint32_t)arg[l]);
        else if (!(exist[j / 64] >> (j % 64) & 1) || !(live[j / 64] >> (j % 64) & 1))
            coll_note(env, COLL_INACTIVE_SRC, 0, l, (int64_t)j);
    }

    x.type = (isa_type)in->type;
    bool wide = isa_types[x.type].bytes == 8;
    uint32_t per = env->opt->shuffle_algo == COLL_SHUF_CROSSBAR ? w : env->opt->indirect_lanes;
    if (per == 0)
        per = w;
    uint64_t join[COLL_TMP_LANES], out[LANES_MAX];
    if (shape) {
        /* every lane active and every slot below slen existing: a slot's
         * element or, past the end, 0 (coll_u_mov_indirect's rule) */
        const bool every = act == lanes_mask_first(w) &&
                           (slen <= 64 ? exist[0] == lanes_mask_first(slen)
                                       : exist[0] == ~0ull && exist[1] == lanes_mask_first(slen - 64));
        for (uint32_t comp = 0; comp < nvec; comp++) {
            const uint64_t *src = lanes_src(env->lanes, sg, &in->o[1], comp, x.type, scratch);
            if (two) {
                memcpy(join, src, w * sizeof *join);
                memcpy(join + w, lanes_src(env->lanes, sg, &in->o[2], comp, x.type, scratch),
                       w * sizeof *join);
                src = join;
            }
            if (every)
                for (uint32_t l = 0; l < w; l++)
                    out[l] = idx[l] < slen ? src[idx[l]] : 0;
            else
                for (uint32_t l = 0; l < w; l++) {
                    const uint64_t j = idx[l];
                    out[l] = (act >> l & 1) && j < slen && (exist[j / 64] >> (j % 64) & 1)
                                 ? src[j] : 0;
                }
            coll_write(sg, in->o[0].reg + comp, g->active[0], out);
        }
        coll_shape_emit(env, shape);
        return COLL_OK;
    }
    for (uint32_t comp = 0; comp < nvec; comp++) {
        const uint64_t *a = lanes_src(env->lanes, sg, &in->o[1], comp, x.type, scratch);
        const uint64_t *src = a;
        if (two) {
            /* join the two sources into one 2w-lane temporary */
            coll_u_mov(&x, join, coll_rgn_stride(0, 1), a, coll_rgn_stride(0, 1), w,
                       ~(lanes_mask)0);
            const uint64_t *b = lanes_src(env->lanes, sg, &in->o[2], comp, x.type, scratch);
            coll_u_mov(&x, join, coll_rgn_stride(w, 1), b, coll_rgn_stride(0, 1), w,
                       ~(lanes_mask)0);
            src = join;
        }
        memset(out, 0, w * sizeof *out);
        for (int part = wide ? 0 : -1; part < (wide ? 2 : 0); part++)
            for (uint32_t f = 0; f < w; f += per)
                coll_u_mov_indirect(&x, out, src, slen, exist, idx, f,
                                    w - f < per ? w - f : per, act, part);
        coll_write(sg, in->o[0].reg + comp, g->active[0], out);
    }
    if (!known)
        coll_shape_tee_end(&rec);
    return COLL_OK;
}
