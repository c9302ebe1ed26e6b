/* uniform.c - which registers of an instruction stream hold the same value
 * in every lane of a sub-group.
 *
 * A device compiler keeps such a value once per thread (IGC: a scalar
 * sub-register read through a <0;1,0> region; nvcc: a uniform register),
 * not once per lane, so the register allocator counts it that way
 * (docs/regalloc.md, "Uniform values").  The analysis is the usual
 * optimistic fixed point: every register starts uniform, and one loses it
 * when an instruction writes it a value that may differ between lanes.
 *
 * Uniform values: immediates, kernel arguments, the work-item queries whose
 * `sg_uniform` column is set (include/sgemu/specials.def), the results of
 * sub-group and work-group reductions, lane-wise
 * arithmetic, moves and conversions of uniform operands, and loads of
 * global, constant or local memory from a uniform address.  A register
 * written by more than one instruction also needs every write to run with
 * the whole sub-group (not after a divergent branch before its
 * reconvergence point): otherwise lanes that took different paths hold
 * different values.  A register written once keeps its meaning where it is
 * read, whatever the mask of its write.
 */
#include "isa_priv.h"

#include <stdlib.h>
#include <string.h>

static bool uniform_reg(const uint8_t *uni, uint32_t nvreg, uint32_t reg)
{
    return reg >= nvreg || uni[reg];
}

/* Is source operand op the same in every lane? */
static bool uniform_src(const isa_operand *op, const uint8_t *uni, uint32_t nvreg)
{
    switch (op->kind) {
    case ISA_OPND_IMM: case ISA_OPND_ARG:
        return true;
    case ISA_OPND_SPECIAL:
        return op->reg < ISA_SP_COUNT && isa_specials[op->reg].sg_uniform;
    case ISA_OPND_REG:
        return uniform_reg(uni, nvreg, op->reg);
    case ISA_OPND_ADDR:
        return (op->addr.base_kind != ISA_OPND_REG ||
                uniform_reg(uni, nvreg, op->addr.base)) &&
               (!op->addr.has_index || uniform_reg(uni, nvreg, op->addr.index));
    default:
        return false;
    }
}

/* Does the collective leave its result as one scalar for the sub-group?
 * A reduction's tree ends in one (IGC reads it back through a <0;1,0>
 * region; a clustered one has a value per cluster).  A broadcast's result
 * is the same in every lane too; IGC for Gen9 and Xe-LP builds it as a
 * per-lane register (an indirect mov with a per-lane address), so it counts
 * per lane, but where scalar_broadcast is set (IGC for DG2 and PVC: one
 * SIMD1 indirect mov) a sub-group broadcast from a uniform lane
 * index is one scalar (docs/regalloc.md, Uniform values). */
static bool uniform_result(const isa_inst *in, const uint8_t *uni, uint32_t nvreg,
                           bool scalar_broadcast)
{
    const isa_op_info *oi = &isa_ops[in->op];
    if (oi->family == ISA_FAM_REDUCE)
        return oi->scope != ISA_SCOPE_CL;
    return scalar_broadcast && oi->family == ISA_FAM_BCAST && oi->scope != ISA_SCOPE_WG &&
           in->nopnd == 3 && in->vec <= 1 && uniform_src(&in->o[2], uni, nvreg);
}

/* Does `in` write every lane the same value, given the uniform registers? */
static bool uniform_value(const isa_inst *in, const uint8_t *uni, uint32_t nvreg,
                          bool scalar_broadcast)
{
    const isa_op_info *oi = &isa_ops[in->op];
    if (oi->pipe == ISA_PIPE_COLL)
        return uniform_result(in, uni, nvreg, scalar_broadcast);
    const bool lanewise = isa_op_lanewise(in->op);
    const bool shared_load = in->op == ISA_OP_LD && (in->space == ISA_SPACE_GLOBAL ||
                                                     in->space == ISA_SPACE_CONSTANT ||
                                                     in->space == ISA_SPACE_LOCAL);
    if (!lanewise && !shared_load)
        return false;
    const isa_shape sh = oi->shape;
    for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
        const char l = isa_shape_letter(sh, in->nopnd, o);
        if (l == 'd')
            continue;
        if (l == 'q' || l == 'P' || !uniform_src(&in->o[o], uni, nvreg))
            return false;
    }
    return true;
}

bool isa_uniform_regs(const isa_inst *code, uint32_t n, uint32_t nvreg, const uint8_t *partial,
                      bool scalar_broadcast, uint8_t *uni)
{
    uint32_t *writes = calloc((size_t)nvreg + 1, sizeof *writes);
    if (!writes)
        return false;
    memset(uni, 1, nvreg);
    isa_reg_writes(code, n, nvreg, writes, NULL);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = 0; pc < n; pc++) {
            const isa_inst *in = &code[pc];
            const isa_shape sh = isa_ops[in->op].shape;
            bool value = true, checked = false;
            for (unsigned o = 0; o < in->nopnd && o < ISA_MAX_OPNDS; o++) {
                const isa_operand *op = &in->o[o];
                if (isa_shape_letter(sh, in->nopnd, o) != 'd' || op->kind != ISA_OPND_REG)
                    continue;
                unsigned vec;
                isa_opnd_type(in, o, &vec);
                if (!checked) {
                    value = uniform_value(in, uni, nvreg, scalar_broadcast);
                    checked = true;
                }
                for (uint32_t c = 0; c < (vec ? vec : 1) && op->reg + c < nvreg; c++) {
                    const uint32_t v = op->reg + c;
                    if (uni[v] && (!value || (writes[v] > 1 && partial[pc]))) {
                        uni[v] = 0;
                        changed = true;
                    }
                }
            }
        }
    }
    free(writes);
    return true;
}
