/* spirv_cfg.c - control flow: blocks in reverse post-order, branches and
 * switches with the phi copies on their edges, and the per-instruction
 * dispatch of a block. */
#include "spirv_private.h"

#include <stdlib.h>

/* ------------------------------------------------------------ control flow */

static unsigned edge_copies(xctx *x, xfn *f, uint32_t from, uint32_t to, xcopy *cp, unsigned max)
{
    spv_module *m = x->m;
    if (!to || to >= m->bound || !m->def[to])
        return 0;
    unsigned n = 0;
    for (uint32_t i = m->def[to]; i < m->nins; i++) {
        const spv_inst *in = &m->ins[i];
        if (in->op == SpvOpLine || in->op == SpvOpNoLine || spv_is_debug_inst(m, in))
            continue;
        if (in->op != SpvOpPhi)
            break;
        uint32_t id = spv_word(m, in, 2);
        const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
        xval *dst = id < m->bound ? f->v[id] : NULL;
        if (!t || !dst)
            continue;
        for (unsigned w = 3; w + 1 < in->nw; w += 2) {
            if (m->w[in->off + w + 1] != from)
                continue;
            uint32_t vid = m->w[in->off + w];
            if (vid < m->bound && m->def[vid] && m->ins[m->def[vid] - 1].op == SpvOpUndef)
                break;
            const spv_inst *save = x->cur;
            x->cur = in;
            xval *src = spv_val(x, f, vid);
            x->cur = save;
            if (!src)
                break;
            for (unsigned c = 0; c < dst->n && c < src->n && n < max; c++) {
                cp[n].dst = dst->c[c].o;
                cp[n].src = spv_src(x, &src->c[c]);
                cp[n].t = t->kind == SPV_TY_BOOL ? ISA_T_U32 : spv_comp_type(t);
                n++;
            }
            break;
        }
    }
    return n;
}

void spv_emit_copies(xctx *x, xcopy *cp, unsigned n)
{
    bool clash = false;
    for (unsigned i = 0; i < n && !clash; i++)
        for (unsigned j = 0; j < n && !clash; j++)
            clash = i != j && cp[i].src.kind == ISA_OPND_REG && cp[i].src.reg == cp[j].dst.reg;
    if (clash) {   /* parallel copy: read every source before writing */
        uint32_t t = spv_reg(x, n);
        for (unsigned i = 0; i < n; i++) {
            isa_inst *in = spv_emit(x, ISA_OP_MOV, cp[i].t);
            in->o[0] = spv_R(t + i);
            in->o[1] = cp[i].src;
            in->nopnd = 2;
            cp[i].src = spv_R(t + i);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        if (cp[i].src.kind == ISA_OPND_REG && cp[i].src.reg == cp[i].dst.reg)
            continue;
        isa_inst *in = spv_emit(x, ISA_OP_MOV, cp[i].t);
        in->o[0] = cp[i].dst;
        in->o[1] = cp[i].src;
        in->nopnd = 2;
        x->pure[x->ncode - 1] = 0;    /* phi registers are read through edges */
    }
}

#define MAX_COPIES 256

static uint32_t block_label(xctx *x, xfn *f, uint32_t id)
{
    if (!id || id >= x->m->bound || !f->label[id]) {
        spv_error(x, "branch to %u, which is not a block of this function", id);
        return 0;
    }
    return f->label[id] - 1;
}

/* Branch to `to` from block `from`, with its phi copies. */
static void goto_block(xctx *x, xfn *f, uint32_t from, uint32_t to)
{
    xcopy cp[MAX_COPIES];
    unsigned n = edge_copies(x, f, from, to, cp, MAX_COPIES);
    spv_emit_copies(x, cp, n);
    spv_emit_bra(x, NULL, block_label(x, f, to));
}

/* Conditional branch on predicate p to `to` (with copies through a stub). */
typedef struct xstub { uint32_t label, to; } xstub;

static bool cond_branch(xctx *x, xfn *f, isa_operand p, uint32_t from, uint32_t to, xstub *stub)
{
    xcopy cp[MAX_COPIES];
    unsigned save = x->ncode;
    unsigned n = edge_copies(x, f, from, to, cp, MAX_COPIES);
    x->ncode = save;  /* only asked whether there are copies; sources re-made in the stub */
    if (n == 0) {
        spv_emit_bra(x, &p, block_label(x, f, to));
        return false;
    }
    stub->label = spv_new_label(x);
    stub->to = to;
    spv_emit_bra(x, &p, stub->label);
    return true;
}

static void place_stub(xctx *x, xfn *f, uint32_t from, const xstub *s)
{
    spv_place_label(x, s->label);
    goto_block(x, f, from, s->to);
}

static void translate_range(xctx *x, xfn *f, uint32_t start, uint32_t end);

/* Successor block ids of the terminator `in` (at most max). */
static unsigned successors(xctx *x, const spv_inst *in, uint32_t *succ, unsigned max)
{
    spv_module *m = x->m;
    unsigned n = 0;
    if (in->op == SpvOpBranch && in->nw >= 2)
        succ[n++] = m->w[in->off + 1];
    else if (in->op == SpvOpBranchConditional && in->nw >= 4) {
        succ[n++] = m->w[in->off + 2];
        succ[n++] = m->w[in->off + 3];
    } else if (in->op == SpvOpSwitch && in->nw >= 3) {
        uint32_t sid = m->w[in->off + 1];
        const spv_inst *sd = sid < m->bound && m->def[sid] ? &m->ins[m->def[sid] - 1] : NULL;
        const spv_op_info *soi = sd ? spv_op_find(sd->op) : NULL;
        uint32_t tid = soi && soi->has_type && sd->nw > 1 ? m->w[sd->off + 1] : 0;
        bool wide = tid < m->bound && m->types[tid].isa_t == ISA_T_U64;
        unsigned step = wide ? 3 : 2;
        succ[n++] = m->w[in->off + 2];
        for (unsigned w = 3; w + step - 1 < in->nw && n < max; w += step)
            succ[n++] = m->w[in->off + w + step - 1];
    }
    return n;
}

/* Blocks in reverse post-order from the entry block (so every block comes
 * after its dominators, which SPIR-V producers do not always guarantee:
 * llvm-spirv emits loop exits before loop bodies), then unreachable blocks in
 * module order.  first[] gets the instruction index of each block's OpLabel. */
void spv_translate_body(xctx *x, xfn *f, uint32_t start, uint32_t end)
{
    spv_module *m = x->m;
    uint32_t nb = 0, first_label = end;
    for (uint32_t i = start; i < end; i++)
        if (m->ins[i].op == SpvOpLabel) {
            if (first_label == end)
                first_label = i;
            nb++;
        }
    translate_range(x, f, start, first_label);
    if (!nb || x->failed)
        return;
    uint32_t *bstart = calloc(nb + 1, sizeof *bstart);
    uint32_t *order = calloc(nb, sizeof *order);
    uint32_t *stack = calloc(nb, sizeof *stack);
    uint32_t *next = calloc(nb, sizeof *next);
    uint8_t *seen = calloc(nb, 1);
    uint32_t *idx = calloc(m->bound, sizeof *idx);   /* label id -> block + 1 */
    if (!bstart || !order || !stack || !next || !seen || !idx) {
        spv_error(x, "out of memory");
        goto out;
    }
    uint32_t b = 0;
    for (uint32_t i = first_label; i < end; i++)
        if (m->ins[i].op == SpvOpLabel) {
            uint32_t id = spv_word(m, &m->ins[i], 1);
            if (id < m->bound && !idx[id])
                idx[id] = b + 1;
            bstart[b++] = i;
        }
    bstart[nb] = end;
    /* iterative DFS; post-order filled from the back gives RPO */
    uint32_t no = nb, sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        uint32_t cur = stack[sp - 1];
        uint32_t succ[1024];
        const spv_inst *term = &m->ins[bstart[cur + 1] - 1];
        unsigned ns = successors(x, term, succ, 1024);
        bool pushed = false;
        while (next[cur] < ns) {
            uint32_t s = succ[next[cur]++];
            uint32_t sb = s < m->bound ? idx[s] : 0;
            if (sb && !seen[sb - 1]) {
                seen[sb - 1] = 1;
                stack[sp++] = sb - 1;
                pushed = true;
                break;
            }
        }
        if (!pushed && next[cur] >= ns) {
            order[--no] = cur;
            sp--;
        }
    }
    /* reachable blocks are order[no..nb); unreachable ones follow */
    for (uint32_t i = no; i < nb && !x->failed; i++)
        translate_range(x, f, bstart[order[i]], bstart[order[i] + 1]);
    for (uint32_t i = 0; i < nb && !x->failed; i++)
        if (!seen[i])
            translate_range(x, f, bstart[i], bstart[i + 1]);
out:
    free(bstart);
    free(order);
    free(stack);
    free(next);
    free(seen);
    free(idx);
}

static void translate_range(xctx *x, xfn *f, uint32_t start, uint32_t end)
{
    spv_module *m = x->m;
    uint32_t block = 0;
    for (uint32_t i = start; i < end && !x->failed; i++) {
        const spv_inst *in = &m->ins[i];
        x->cur = in;
        switch (in->op) {
        case SpvOpFunction: case SpvOpFunctionParameter: case SpvOpPhi:
        case SpvOpLine: case SpvOpNoLine: case SpvOpNop: case SpvOpSelectionMerge:
        case SpvOpLoopMerge: case SpvOpLifetimeStart: case SpvOpLifetimeStop:
        case SpvOpDecorate: case SpvOpName:
            break;
        case SpvOpMemoryBarrier:
            spv_op_fence(x, f, in);
            break;
        case SpvOpLabel:
            block = spv_word(m, in, 1);
            spv_place_label(x, block_label(x, f, block));
            break;
        case SpvOpBranch: {
            uint32_t to = spv_word(m, in, 1);
            goto_block(x, f, block, to);
            break;
        }
        case SpvOpBranchConditional: {
            xval *c = spv_val(x, f, spv_word(m, in, 1));
            uint32_t t = spv_word(m, in, 2), e = spv_word(m, in, 3);
            if (!c || !c->n)
                break;
            if (t == e) {
                goto_block(x, f, block, t);
                break;
            }
            isa_operand p = spv_predof(x, &c->c[0]);
            xstub s;
            bool stub = cond_branch(x, f, p, block, t, &s);
            goto_block(x, f, block, e);
            if (stub)
                place_stub(x, f, block, &s);
            break;
        }
        case SpvOpSwitch: {
            xval *sel = spv_val(x, f, spv_word(m, in, 1));
            uint32_t sid = spv_word(m, in, 1);
            const spv_inst *sd = sid < m->bound && m->def[sid] ? &m->ins[m->def[sid] - 1] : NULL;
            const spv_op_info *soi = sd ? spv_op_find(sd->op) : NULL;
            const spv_type *st = soi && soi->has_type ? spv_type_lookup(x, spv_word(m, sd, 1)) : NULL;
            if (!sel || !st || !sel->n)
                break;
            bool wide = st->isa_t == ISA_T_U64;
            unsigned step = wide ? 3 : 2;
            xstub stubs[64];
            unsigned ns = 0;
            isa_operand sv = spv_src(x, &sel->c[0]);
            for (unsigned w = 3; w + step - 1 < in->nw && !x->failed; w += step) {
                uint64_t lit = m->w[in->off + w];
                if (wide)
                    lit |= (uint64_t)m->w[in->off + w + 1] << 32;
                uint32_t to = m->w[in->off + w + step - 1];
                uint32_t gen, p = spv_pred(x, &gen);
                isa_inst *c = spv_emit(x, ISA_OP_CMP, spv_comp_type(st));
                c->cond = ISA_BINOP_EQ;
                c->o[0] = spv_P(p, false);
                c->o[1] = sv;
                c->o[2] = spv_I(lit);
                c->nopnd = 3;
                if (ns == 64) {
                    spv_error(x, "more than 64 switch cases with phi copies");
                    break;
                }
                if (cond_branch(x, f, spv_P(p, false), block, to, &stubs[ns]))
                    ns++;
            }
            goto_block(x, f, block, spv_word(m, in, 2));
            for (unsigned s = 0; s < ns; s++)
                place_stub(x, f, block, &stubs[s]);
            break;
        }
        case SpvOpReturn:
        case SpvOpReturnValue:
            spv_op_return(x, f, in);
            break;
        case SpvOpUnreachable:
            spv_emit(x, ISA_OP_RET, ISA_T_NONE);
            break;
        case SpvOpFunctionCall:
            spv_op_call(x, f, in);
            break;
        case SpvOpLoad:
            spv_op_load(x, f, in);
            break;
        case SpvOpStore:
            spv_op_store(x, f, in);
            break;
        case SpvOpVariable:
            spv_op_variable(x, f, in);
            break;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
            spv_op_access_chain(x, f, in);
            break;
        case SpvOpControlBarrier:
            spv_op_barrier(x, f, in);
            break;
        case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
        case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak:
        case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd:
        case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
        case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
        case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
        case SpvOpAtomicFMinEXT: case SpvOpAtomicFMaxEXT:
            spv_op_atomic(x, f, in);
            break;
        case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
        case SpvOpGenericCastToPtrExplicit: {
            xval *s = spv_val(x, f, spv_word(m, in, 3));
            xval *v = s ? spv_def(x, f, spv_word(m, in, 2), s->n) : NULL;
            if (v)
                *v = *s;
            break;
        }
        case SpvOpConvertUToPtr: {
            xval *s = spv_val(x, f, spv_word(m, in, 3));
            const spv_type *t = spv_type_lookup(x, spv_word(m, in, 1));
            xval *v = s && t && s->n ? spv_def(x, f, spv_word(m, in, 2), 1) : NULL;
            if (v) {
                v->c[0].o = spv_src(x, &s->c[0]);
                v->c[0].space = (uint8_t)spv_space_of_sc(t->sc);
            }
            break;
        }
        case SpvOpConvertPtrToU: {
            xval *s = spv_val(x, f, spv_word(m, in, 3));
            xval *v = s && s->n ? spv_def(x, f, spv_word(m, in, 2), 1) : NULL;
            if (v)
                v->c[0].o = spv_src(x, &s->c[0]);
            break;
        }
        default:
            if (spv_op_composite(x, f, in) || spv_op_alu(x, f, in) || spv_op_image(x, f, in) ||
                spv_op_aggregate(x, f, in) || spv_op_async(x, f, in))
                break;
            spv_error(x, "instruction %s is not supported by sgemu's SPIR-V front end",
                    spv_op_name(in->op));
            break;
        }
    }
}
