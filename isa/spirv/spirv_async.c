/* spirv_async.c - async_work_group_copy, async_work_group_strided_copy and
 * wait_group_events (OpGroupAsyncCopy, OpGroupWaitEvents).
 *
 * The work-group's work-items share the copy: work-item k (local linear
 * id) copies elements k, k + L, k + 2L, ... (L = work-group size), as
 * plain loads and stores, so the timing model sees the memory traffic the
 * copy makes.  Every work-item must reach the copy with the same
 * arguments (OpenCL C), so the elements are covered exactly once.  The
 * event is a u64 that stays 0; waiting is a work-group barrier with both
 * fences, after which every copied element is visible to every work-item,
 * as wait_group_events promises. */
#include "spirv_private.h"

#include <string.h>

/* [r + 0] */
static isa_operand reg_addr(uint32_t r)
{
    isa_operand a;
    memset(&a, 0, sizeof a);
    a.kind = ISA_OPND_ADDR;
    a.addr.base_kind = ISA_OPND_REG;
    a.addr.base = (uint16_t)r;
    return a;
}

static isa_operand special(isa_special sp, uint8_t dim)
{
    isa_operand o;
    memset(&o, 0, sizeof o);
    o.kind = ISA_OPND_SPECIAL;
    o.reg = (uint16_t)sp;
    o.dim = dim;
    return o;
}

/* OpGroupAsyncCopy: Result Type, Result, Execution, Destination, Source,
 * Num Elements, Stride (in elements, on the global side), Event. */
static void async_copy(xctx *x, xfn *f, const spv_inst *in)
{
    spv_module *m = x->m;
    if (in->nw < 9) {
        spv_error(x, "OpGroupAsyncCopy has too few operands");
        return;
    }
    xval *es = spv_val(x, f, spv_word(m, in, 3));
    xval *dv = spv_val(x, f, spv_word(m, in, 4)), *sv = spv_val(x, f, spv_word(m, in, 5));
    xval *nv = spv_val(x, f, spv_word(m, in, 6)), *stv = spv_val(x, f, spv_word(m, in, 7));
    if (!es || !dv || !sv || !nv || !stv || !es->n || !dv->n || !sv->n || !nv->n || !stv->n)
        return;
    if (es->c[0].o.kind != ISA_OPND_IMM || es->c[0].o.imm != SpvScopeWorkgroup) {
        spv_error(x, "OpGroupAsyncCopy: only work-group scope copies exist in OpenCL C");
        return;
    }
    const spv_type *pt = spv_value_type(x, spv_word(m, in, 4));
    const spv_type *et = pt && pt->kind == SPV_TY_PTR ? spv_type_lookup(x, pt->elem) : NULL;
    if (!et || !et->size) {
        spv_error(x, "OpGroupAsyncCopy: the element type has no size");
        return;
    }
    isa_space ds = (isa_space)dv->c[0].space, ss = (isa_space)sv->c[0].space;
    if (!((ds == ISA_SPACE_LOCAL && ss == ISA_SPACE_GLOBAL) ||
          (ds == ISA_SPACE_GLOBAL && ss == ISA_SPACE_LOCAL) ||
          (ds == ISA_SPACE_LOCAL && ss == ISA_SPACE_CONSTANT))) {
        spv_error(x, "OpGroupAsyncCopy: copies go between __local and __global memory");
        return;
    }
    const uint64_t esize = et->size;
    /* element stride in bytes on each side: the stride applies to the
     * global (or constant) side only */
    const xc *stride = &stv->c[0];
    isa_operand gscale = stride->o.kind == ISA_OPND_IMM
        ? spv_I(stride->o.imm * esize)
        : spv_R(spv_op2(x, ISA_OP_MUL, ISA_T_U64, spv_src(x, stride), spv_I(esize)));
    isa_operand dscale = ds == ISA_SPACE_LOCAL ? spv_I(esize) : gscale;
    isa_operand sscale = ss == ISA_SPACE_LOCAL ? spv_I(esize) : gscale;
    isa_operand dst = spv_src(x, &dv->c[0]), src = spv_src(x, &sv->c[0]);
    isa_operand num = spv_src(x, &nv->c[0]);
    /* L = local size x * y * z of this work-group */
    uint32_t L = spv_op2(x, ISA_OP_MUL, ISA_T_U64, special(ISA_SP_LOCAL_SIZE, 0),
                       special(ISA_SP_LOCAL_SIZE, 1));
    L = spv_op2(x, ISA_OP_MUL, ISA_T_U64, spv_R(L), special(ISA_SP_LOCAL_SIZE, 2));
    uint32_t k = spv_op1(x, ISA_OP_MOV, ISA_T_U64, special(ISA_SP_LOCAL_LINEAR_ID, 0));
    const uint32_t top = spv_new_label(x), done = spv_new_label(x);
    spv_place_label(x, top);
    isa_operand more = spv_cmp(x, ISA_BINOP_LT, ISA_T_U64, spv_R(k), num);
    more.negate = 1;
    spv_emit_bra(x, &more, done);
    uint32_t da = spv_reg(x, 1), sa = spv_reg(x, 1);
    isa_inst *mad = spv_emit(x, ISA_OP_MAD, ISA_T_U64);
    mad->o[0] = spv_R(da);
    mad->o[1] = spv_R(k);
    mad->o[2] = dscale;
    mad->o[3] = dst;
    mad->nopnd = 4;
    mad = spv_emit(x, ISA_OP_MAD, ISA_T_U64);
    mad->o[0] = spv_R(sa);
    mad->o[1] = spv_R(k);
    mad->o[2] = sscale;
    mad->o[3] = src;
    mad->nopnd = 4;
    spv_copy_bytes(x, reg_addr(da), ds, reg_addr(sa), ss, esize, et->align ? et->align : 1);
    isa_inst *inc = spv_emit(x, ISA_OP_ADD, ISA_T_U64);
    inc->o[0] = spv_R(k);
    inc->o[1] = spv_R(k);
    inc->o[2] = spv_R(L);
    inc->nopnd = 3;
    spv_emit_bra(x, NULL, top);
    spv_place_label(x, done);
    xval *ev = spv_def(x, f, spv_word(m, in, 2), 1);
    if (ev) {
        ev->c[0].o = spv_I(0);
        ev->c[0].space = X_SPACE_NONE;
    }
}

bool spv_op_async(xctx *x, xfn *f, const spv_inst *in)
{
    if (in->op == SpvOpGroupAsyncCopy) {
        async_copy(x, f, in);
        return true;
    }
    if (in->op != SpvOpGroupWaitEvents)
        return false;
    xval *es = in->nw > 1 ? spv_val(x, f, spv_word(x->m, in, 1)) : NULL;
    if (!es || !es->n)
        return true;
    if (es->c[0].o.kind != ISA_OPND_IMM || es->c[0].o.imm != SpvScopeWorkgroup) {
        spv_error(x, "OpGroupWaitEvents: only work-group scope waits exist in OpenCL C");
        return true;
    }
    isa_inst *b = spv_emit(x, ISA_OP_BARRIER, ISA_T_NONE);
    b->flags |= ISA_F_FENCE_LOCAL | ISA_F_FENCE_GLOBAL;
    return true;
}
