/* decode.c - builds the decoded execution form (decode.h).  Everything that
 * does not depend on lane values is resolved here once per launch, so the
 * interpreter's per-instruction work is a switch, a few loads and one call
 * of a straight-line lane kernel. */
#include "decode.h"
#include "emu_private.h"   /* EMU_BUF_SHIFT */

#include <stdlib.h>
#include <string.h>

/* four instructions a cache line */
_Static_assert(sizeof(emu_dinst) == 32, "emu_dinst grew");

static uint64_t type_bits_mask(isa_type t)
{
    const unsigned bits = isa_types[t].bytes * 8u;
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* A source that is a register row or a constant (immediate, argument) is
 * resolved to a row; specials and predicates vary per sub-group: -1. */
static int count_const(const isa_operand *o)
{
    return o->kind == ISA_OPND_IMM || o->kind == ISA_OPND_ARG;
}

static bool plain_source(const isa_kernel *k, const isa_operand *o)
{
    return (o->kind == ISA_OPND_REG && o->reg < k->nreg) || count_const(o);
}

static bool int_type(isa_type t)
{
    return t == ISA_T_U32 || t == ISA_T_I32 || t == ISA_T_U64 || t == ISA_T_I64;
}

typedef struct dctx {
    emu_dprog *p;
    const isa_kernel *k;
    uint32_t w;
    const uint64_t *args;
} dctx;

/* Resolve source o (read as type t) into sel/offset; constants get a row
 * of their own, filled with the value lanes_src would broadcast. */
static void bind_source(dctx *c, const isa_operand *o, isa_type t,
                        uint8_t *sel, uint32_t *off)
{
    if (o->kind == ISA_OPND_REG) {
        *sel = 0;
        *off = (uint32_t)o->reg * c->w;
        return;
    }
    const uint64_t v = (o->kind == ISA_OPND_IMM ? o->imm
                        : c->args ? c->args[o->reg] : 0) & type_bits_mask(t);
    uint64_t *row = c->p->consts + (size_t)c->p->nconst * c->w;
    for (uint32_t l = 0; l < c->w; l++)
        row[l] = v;
    *sel = 1;
    *off = c->p->nconst++ * c->w;
}

static bool sources_ok(const isa_kernel *k, const isa_inst *in, unsigned first,
                       unsigned n)
{
    for (unsigned i = first; i < first + n; i++)
        if (!plain_source(k, &in->o[i]))
            return false;
    return true;
}

/* A scalar load/store of the global, constant or local space with a
 * register or argument base becomes EMU_D_LDST; others stay EMU_D_MEM. */
static void decode_mem(dctx *c, const isa_inst *in, bool store, emu_dinst *d)
{
    const isa_kernel *k = c->k;
    const isa_operand *ao = &in->o[store ? 0 : 1], *vo = &in->o[store ? 1 : 0];
    const isa_addr *a = &ao->addr;
    if ((in->vec && in->vec != 1) || in->type >= ISA_T_COUNT ||
        isa_types[in->type].bytes == 0 || ao->kind != ISA_OPND_ADDR ||
        (in->space != ISA_SPACE_GLOBAL && in->space != ISA_SPACE_CONSTANT &&
         in->space != ISA_SPACE_LOCAL) ||
        (a->base_kind != ISA_OPND_REG && a->base_kind != ISA_OPND_ARG) ||
        (a->base_kind == ISA_OPND_REG && a->base >= k->nreg) ||
        (a->base_kind == ISA_OPND_ARG && a->base >= ISA_MAX_ARGS) ||
        (a->has_index && a->index >= k->nreg))
        return;
    if (store ? !plain_source(k, vo)
              : vo->kind != ISA_OPND_REG || vo->reg >= k->nreg)
        return;
    emu_dmem *m = &c->p->mem[c->p->nmem];
    memset(m, 0, sizeof *m);
    m->base_reg = a->base_kind == ISA_OPND_REG;
    m->base_row = m->base_reg ? (uint32_t)a->base * c->w : 0;
    m->base = !m->base_reg && c->args ? c->args[a->base] : 0;
    m->idx = !a->has_index ? EMU_IDX_NONE
           : a->index_type == ISA_T_U32 ? EMU_IDX_U32
           : a->index_type == ISA_T_I64 || a->index_type == ISA_T_U64 ? EMU_IDX_64
           : EMU_IDX_S32;
    m->idx_row = a->has_index ? (uint32_t)a->index * c->w : 0;
    m->scale = (uint64_t)(int64_t)a->scale;
    m->disp = (uint64_t)a->disp;
    m->store = store;
    m->esize = (uint8_t)isa_types[in->type].bytes;
    m->space = in->space;
    /* the argument's own buffer: what exec.c's bounds check expects to
     * find at these addresses (the argument kinds are fixed for the run) */
    const uint64_t hi = m->base >> EMU_BUF_SHIFT;
    if (!m->base_reg && in->space != ISA_SPACE_LOCAL && hi >= 1 && hi <= k->narg &&
        (k->args[hi - 1].kind == ISA_ARG_GLOBAL ||
         (k->args[hi - 1].kind == ISA_ARG_CONSTANT && !store)))
        m->buf = (uint16_t)hi;
    if (store) {
        uint32_t off;
        bind_source(c, vo, (isa_type)in->type, &m->val_sel, &off);
        m->val_row = off;
    } else {
        m->val_row = (uint32_t)vo->reg * c->w;
    }
    d->src[0] = c->p->nmem++;
    d->kind = EMU_D_LDST;
}

static void decode_one(dctx *c, const isa_inst *in, emu_dinst *d)
{
    const isa_kernel *k = c->k;
    memset(d, 0, sizeof *d);
    if (in->op >= ISA_OP_COUNT)
        return;
    const isa_op_info *oi = &isa_ops[in->op];

    if (oi->family == ISA_FAM_BRA) {
        /* a target past the end (an unvalidated kernel) stays generic,
         * which exec.c's stint start clamps to the end */
        if (in->target > k->ninst)
            return;
        if (in->o[0].kind == ISA_OPND_PRED) {
            if (in->o[0].reg >= k->npred)
                return;
            d->has_pred = 1;
            d->pred = in->o[0].reg;
            d->negate = in->o[0].negate != 0;
        }
        d->src[0] = in->target;
        d->src[1] = in->reconv;
        d->kind = EMU_D_BRA;
        return;
    }
    if (oi->family == ISA_FAM_RET) {
        d->kind = EMU_D_RET;
        return;
    }
    if (oi->family == ISA_FAM_NOP && !isa_op_cross_lane(in->op)) {
        d->kind = EMU_D_NOP;
        return;
    }
    if (isa_op_cross_lane(in->op))
        return;
    /* memory and the remaining ALU ops run their generic code, but inside
     * the dispatch loop's stint: they never touch the SIMT stack */
    if (oi->family == ISA_FAM_LD || oi->family == ISA_FAM_ST ||
        oi->family == ISA_FAM_ATOM) {
        d->kind = EMU_D_MEM;
        if (oi->family != ISA_FAM_ATOM)
            decode_mem(c, in, oi->family == ISA_FAM_ST, d);
        return;
    }
    const bool alu_family = oi->family != ISA_FAM_RET &&
        oi->family != ISA_FAM_BARRIER && oi->family != ISA_FAM_IMG_READ &&
        oi->family != ISA_FAM_IMG_WRITE && oi->family != ISA_FAM_IMG_QUERY &&
        oi->family != ISA_FAM_PRINTF;
    if (alu_family)
        d->kind = EMU_D_XALU;
    if (in->type >= ISA_T_COUNT || (in->vec && in->vec != 1))
        return;
    const isa_type t = (isa_type)in->type;

    if (oi->family == ISA_FAM_CMP) {
        if (in->o[0].kind != ISA_OPND_PRED || in->o[0].reg >= k->npred ||
            !sources_ok(k, in, 1, 2) ||
            !(d->cmp = lanes_fast_cmp((isa_binop)in->cond, t, c->w)))
            return;
        d->pred = in->o[0].reg;
        bind_source(c, &in->o[1], t, &d->sel[0], &d->src[0]);
        bind_source(c, &in->o[2], t, &d->sel[1], &d->src[1]);
        d->kind = EMU_D_CMP;
        return;
    }
    if (in->o[0].kind != ISA_OPND_REG || in->o[0].reg >= k->nreg)
        return;
    d->dst = (uint32_t)in->o[0].reg * c->w;
    if (oi->family == ISA_FAM_MOV && in->o[1].kind == ISA_OPND_SPECIAL &&
        int_type(t) && in->o[1].dim < 3) {
        d->src[0] = in->o[1].reg;
        d->src[1] = in->o[1].dim;
        d->m = type_bits_mask(t);
        /* exec.c's shortcut for the x ids */
        d->sel[0] = in->o[1].dim == 0 && (in->o[1].reg == ISA_SP_GLOBAL_ID ||
                                          in->o[1].reg == ISA_SP_LOCAL_ID);
        d->sel[1] = in->o[1].reg == ISA_SP_GLOBAL_ID;
        d->kind = EMU_D_SPECIAL;
        return;
    }
    if (oi->family == ISA_FAM_CVT) {
        const isa_type s = (isa_type)in->src_type;
        /* the kernels round a float result to nearest even only */
        const unsigned rnd = (in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT;
        const bool directed = isa_types[t].is_float && rnd != ISA_RND_DEFAULT &&
                              rnd != ISA_RND_RTE;
        if (in->src_type >= ISA_T_COUNT || (in->flags & ISA_F_SAT) || directed ||
            !sources_ok(k, in, 1, 1) || !(d->fn = lanes_fast_cvt(t, s, c->w)))
            return;
        bind_source(c, &in->o[1], s, &d->sel[0], &d->src[0]);
        d->src[1] = d->src[2] = d->dst;
        d->sel[1] = d->sel[2] = 0;
        d->kind = EMU_D_ALU;
        return;
    }
    if (oi->family == ISA_FAM_MOV) {
        if (!sources_ok(k, in, 1, 1))
            return;
        bind_source(c, &in->o[1], t, &d->sel[0], &d->src[0]);
        d->m = type_bits_mask(t);
        d->kind = EMU_D_MOV;
        return;
    }
    const unsigned ns = isa_shape_sources(oi->shape);
    if (ns == 0 || !sources_ok(k, in, 1, ns) ||
        !(d->fn = lanes_fast_alu(oi->family, t, c->w)))
        return;
    for (unsigned i = 0; i < ns; i++)
        bind_source(c, &in->o[1 + i], t, &d->sel[i], &d->src[i]);
    /* a constant second source is uniform: some ops have a kernel for it */
    lanes_fast_fn uf;
    if (ns >= 2 && d->sel[1] == 1 &&
        (uf = lanes_fast_alu_uniform_b(oi->family, t, c->w)) != NULL)
        d->fn = uf;
    /* unused sources point at the destination row: always valid memory */
    for (unsigned i = ns; i < 3; i++)
        d->src[i] = d->dst;
    d->kind = EMU_D_ALU;
}

static uint64_t reg_bit(uint32_t r)
{
    return r < 64 ? UINT64_C(1) << r : 0;
}

/* Registers r < 64 that only work-item id queries write (emu_dprog's
 * ramp_regs), then the instructions that use them: the queries that set
 * the bit, argument-based loads/stores indexed by such a register with
 * scale = element size, and integer compares of one against a constant. */
static void find_ramps(dctx *c)
{
    emu_dprog *p = c->p;
    const isa_kernel *k = c->k;
    const uint32_t w = c->w;
    uint64_t ids = 0, other = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const emu_dinst *d = &p->d[i];
        const isa_inst *in = &k->inst[i];
        switch ((emu_dkind)d->kind) {
        case EMU_D_SPECIAL:
            if (d->src[0] == ISA_SP_GLOBAL_ID || d->src[0] == ISA_SP_LOCAL_ID)
                ids |= reg_bit(d->dst / w);
            else
                other |= reg_bit(d->dst / w);
            break;
        case EMU_D_ALU:
        case EMU_D_MOV:
            other |= reg_bit(d->dst / w);
            break;
        case EMU_D_LDST:
        case EMU_D_LDST_RAMP:
        case EMU_D_LD_RAMP4:
        case EMU_D_ST_RAMP4:
            if (!p->mem[d->src[0]].store)
                other |= reg_bit(p->mem[d->src[0]].val_row / w);
            break;
        case EMU_D_CMP:
        case EMU_D_BRA:
        case EMU_D_NOP:
        case EMU_D_RET:
            break;
        case EMU_D_GENERIC:
        case EMU_D_MEM:
        case EMU_D_XALU:
        default:
            /* the generic code may write any register it names, and the
             * ones after it (vectors, block reads): all of them count */
            for (unsigned j = 0; j < ISA_MAX_OPNDS; j++)
                if (in->o[j].kind == ISA_OPND_REG && in->o[j].reg < 64)
                    other |= ~UINT64_C(0) << in->o[j].reg;
            break;
        }
    }
    p->ramp_regs = ids & ~other;
    if (!p->ramp_regs)
        return;
    for (uint32_t i = 0; i < p->n; i++) {
        emu_dinst *d = &p->d[i];
        const isa_inst *in = &k->inst[i];
        if (d->kind == EMU_D_SPECIAL && (p->ramp_regs & reg_bit(d->dst / w))) {
            d->ramp = 1;
            d->pred = (uint16_t)(d->dst / w);
        } else if (d->kind == EMU_D_LDST) {
            emu_dmem *m = &p->mem[d->src[0]];
            const uint32_t r = m->idx_row / w;
            if (!m->base_reg && m->idx != EMU_IDX_NONE && m->scale == m->esize &&
                (p->ramp_regs & reg_bit(r))) {
                m->ramp_idx = 1;
                m->idx_reg = (uint16_t)r;
                if (m->buf) {
                    d->kind = EMU_D_LDST_RAMP;
                    d->src[1] = m->idx_row;
                    d->sel[1] = m->idx;
                    d->sel[2] = m->esize;
                    d->m = m->base + m->disp;
                    d->src[2] = m->buf;
                    d->dst = m->val_row;
                    d->sel[0] = m->store ? m->val_sel : 0;
                    d->has_pred = m->store;
                    d->pred = (uint16_t)r;
                    if (m->esize == 4)
                        d->kind = m->store ? EMU_D_ST_RAMP4 : EMU_D_LD_RAMP4;
                }
            }
        } else if (d->kind == EMU_D_CMP && d->sel[0] == 0 && d->sel[1] == 1 &&
                   int_type((isa_type)in->type) &&
                   (p->ramp_regs & reg_bit(d->src[0] / w))) {
            d->ramp = 1;
            d->src[2] = d->src[0] / w;
            d->dst = (uint32_t)in->cond | (uint32_t)in->type << 8;
        }
    }
}

/* Bits r..r+n-1 of the registers below 64 (the rest are always zeroed). */
static uint64_t reg_span(uint32_t r, uint32_t n)
{
    if (r >= 64 || n == 0)
        return 0;
    return (n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << r;
}

/* Whether lane l of everything instruction `in` does depends only on
 * values lane l wrote itself (and uniform values): ALU-like ops, memory,
 * branches, barriers.  The collectives, shuffles and images may read
 * other lanes.  Block reads and writes (buffer and image) count as
 * lane-wise here: they run only with every lane of the sub-group active
 * (coll_block_io faults otherwise), so each register value they read
 * (a lane's data, the first lane's address) belongs to an active lane
 * that wrote it on its own path, and they write active lanes only. */
static bool lane_wise(const isa_inst *in)
{
    const isa_op_info *oi = &isa_ops[in->op];
    if (isa_op_block_io(in->op))
        return true;
    if (isa_op_cross_lane(in->op))
        return false;
    switch (oi->family) {
    case ISA_FAM_IMG_READ:
    case ISA_FAM_IMG_WRITE:
    case ISA_FAM_IMG_QUERY:
        return false;
    default:
        return true;
    }
}

/* The operand that holds a block read's or write's data (a vector of
 * in->vec registers); its address and coordinates are scalars. */
static unsigned block_data_opnd(const isa_inst *in)
{
    switch (isa_ops[in->op].shape) {
    case ISA_SHAPE_BLK_ST: return 1;
    case ISA_SHAPE_IMG_ST: return 3;
    case ISA_SHAPE_MB_ST: return 4;
    default: return 0;         /* BLK_LD, IMG_LD, MB_LD: the destination */
    }
}

/* The registers operand j of block I/O `in` names: the data's vec, the
 * rest 1 (a media block's coordinate pair 2). */
static uint32_t block_opnd_regs(const isa_inst *in, unsigned j, uint32_t vec)
{
    const isa_shape sh = isa_ops[in->op].shape;
    if (sh == ISA_SHAPE_MB_LD || sh == ISA_SHAPE_MB_ST)
        return isa_media_block_regs(sh, j, vec);
    return j == block_data_opnd(in) ? vec : 1;
}

/* Registers (kind ISA_OPND_REG) or predicates (ISA_OPND_PRED) an
 * instruction may read: every one it names (a vector's components too),
 * the destination of a pure write excepted.  More than it reads is safe:
 * it only keeps more zeroing. */
static uint64_t inst_uses(const isa_inst *in, uint8_t kind, bool dst_written)
{
    const uint32_t vec = in->vec > 1 && kind == ISA_OPND_REG ? in->vec : 1;
    uint64_t u = 0;
    for (unsigned j = 0; j < ISA_MAX_OPNDS; j++) {
        const isa_operand *o = &in->o[j];
        if (o->kind == kind && !(j == 0 && dst_written))
            u |= reg_span(o->reg, !isa_op_block_io(in->op) ? vec : block_opnd_regs(in, j, vec));
        else if (o->kind == ISA_OPND_ADDR && kind == ISA_OPND_REG) {
            if (o->addr.base_kind == ISA_OPND_REG)
                u |= reg_span(o->addr.base, 1);
            if (o->addr.has_index)
                u |= reg_span(o->addr.index, 1);
        }
    }
    return u;
}

/* The register or predicate (by kind) an instruction writes in every
 * lane it runs for: its scalar destination, as the decoded kernels,
 * emu_mem_exec and lanes_exec_alu write it. */
static uint64_t inst_defs(const isa_inst *in, uint8_t kind)
{
    const isa_op_info *oi = &isa_ops[in->op];
    const bool alu = isa_op_lanewise(in->op);
    /* a block read writes every component of its destination in every
     * lane (coll_block_io's scatter; all lanes are active) */
    if (kind == ISA_OPND_REG && in->o[0].kind == ISA_OPND_REG &&
        (oi->family == ISA_FAM_BLOCK_READ || oi->family == ISA_FAM_IMG_READ) &&
        isa_op_block_io(in->op))
        return reg_span(in->o[0].reg, in->vec ? in->vec : 1);
    if (in->o[0].kind != kind || (in->vec && in->vec != 1))
        return 0;
    if (kind == ISA_OPND_PRED) {
        const bool pdef = oi->shape == ISA_SHAPE_P_S_S || oi->shape == ISA_SHAPE_P_P_P ||
                          oi->shape == ISA_SHAPE_P_P;
        return alu && pdef ? reg_span(in->o[0].reg, 1) : 0;
    }
    if (oi->family == ISA_FAM_LD)
        return reg_span(in->o[0].reg, 1);
    switch (oi->shape) {
    case ISA_SHAPE_D_S:
    case ISA_SHAPE_D_S_S:
    case ISA_SHAPE_D_S_S_S:
    case ISA_SHAPE_D_P_S_S:
        return alu ? reg_span(in->o[0].reg, 1) : 0;
    default:
        return 0;
    }
}

/* The registers or predicates (by kind) that must start zeroed, for
 * emu_dprog.zero_regs / zero_preds.  A lane runs exactly the
 * instructions its own scalar work-item would (the SIMT stack only orders
 * the paths), and a lane-wise instruction writes only its active lanes and
 * reads a lane's values only for that lane.  So a register that only
 * lane-wise instructions read, written on every path from the entry
 * before each read of it ("definitely assigned": a forward must-analysis
 * over the branches), never shows a lane a value it did not write itself;
 * whatever an earlier work-group left there is unobservable and zeroing
 * it is dead work.  A register that a cross-lane instruction names may be
 * read in a lane that left before writing it: find_dead_zeroing zeroes
 * those always.  in and reached: scratch of ninst + 1 entries. */
static uint64_t must_zero(const isa_kernel *k, uint8_t kind, uint64_t *in, uint8_t *reached)
{
    const uint32_t n = k->ninst;
    for (uint32_t i = 0; i <= n; i++) {
        in[i] = ~UINT64_C(0);    /* assigned on every path to i; ~0 until reached */
        reached[i] = 0;
    }
    in[0] = 0;
    reached[0] = 1;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < n; i++) {
            if (!reached[i])
                continue;
            const isa_inst *ins = &k->inst[i];
            const isa_op_info *oi = &isa_ops[ins->op];
            const uint64_t out = in[i] | inst_defs(ins, kind);
            uint32_t succ[2], ns = 0;
            if (oi->family == ISA_FAM_BRA) {
                succ[ns++] = ins->target < n ? ins->target : n;
                if (ins->o[0].kind == ISA_OPND_PRED)
                    succ[ns++] = i + 1;
            } else if (oi->family != ISA_FAM_RET) {
                succ[ns++] = i + 1;
            }
            for (uint32_t j = 0; j < ns; j++) {
                const uint32_t t = succ[j];
                const uint64_t v = in[t] & out;
                if (!reached[t] || v != in[t]) {
                    reached[t] = 1;
                    in[t] = v;
                    changed = true;
                }
            }
        }
    }
    uint64_t z = 0;
    for (uint32_t i = 0; i < n; i++)
        if (reached[i])
            z |= inst_uses(&k->inst[i], kind, inst_defs(&k->inst[i], kind) != 0) & ~in[i];
    return z;
}

static void find_dead_zeroing(dctx *c)
{
    emu_dprog *p = c->p;
    const isa_kernel *k = c->k;
    /* every register or predicate a cross-lane instruction names (its
     * destination and address included) is zeroed */
    uint64_t xregs = 0, xpreds = 0;
    for (uint32_t i = 0; i < k->ninst; i++) {
        const isa_inst *in = &k->inst[i];
        if (in->op >= ISA_OP_COUNT)
            return;
        if (!lane_wise(in)) {
            xregs |= inst_uses(in, ISA_OPND_REG, false);
            xpreds |= inst_uses(in, ISA_OPND_PRED, false);
        }
    }
    uint64_t *in = malloc(((size_t)k->ninst + 1) * sizeof *in);
    uint8_t *reached = malloc((size_t)k->ninst + 1);
    if (in && reached) {
        p->zero_regs = must_zero(k, ISA_OPND_REG, in, reached) | xregs;
        p->zero_preds = must_zero(k, ISA_OPND_PRED, in, reached) | xpreds;
    }
    free(in);
    free(reached);
}

/* emu_dprog.zero_run from zero_regs for a kernel of nreg registers. */
static void set_zero_runs(emu_dprog *p, uint32_t nreg)
{
    const uint32_t low = nreg < 64 ? nreg : 64;
    const uint32_t cap = sizeof p->zero_run / sizeof *p->zero_run;
    uint64_t z = p->zero_regs & (low < 64 ? (UINT64_C(1) << low) - 1 : ~UINT64_C(0));
    z |= ((z << 1) | (z << 2) | (z << 3)) & ((z >> 1) | (z >> 2) | (z >> 3));
    p->nzero_runs = 0;
    uint32_t start = 0, end = 0;   /* the open run [start, end) */
    bool open = false;
    for (uint32_t r = 0; r <= nreg; r++) {
        const bool zero = r < nreg && (r >= 64 || (z >> r & 1));
        if (zero && !open) {
            open = true;
            start = r;
        }
        if (!zero && open) {
            open = false;
            end = r;
            if (p->nzero_runs == cap) {   /* extend the last slot */
                p->zero_run[cap - 1][1] = (uint16_t)(end - p->zero_run[cap - 1][0]);
                continue;
            }
            p->zero_run[p->nzero_runs][0] = (uint16_t)start;
            p->zero_run[p->nzero_runs][1] = (uint16_t)(end - start);
            p->nzero_runs++;
        }
    }
}

/* emu_dmem's ramp range for the argument buffer v (decode.h). */
static void bind_ramp(emu_dmem *m, uint32_t w, const sgemu_argval *v)
{
    m->ramp_lo = m->ramp_n = 0;
    m->ramp_ptr = 0;
    const uint64_t es = m->esize, nb = (uint64_t)w * es;
    const int64_t disp = (int64_t)m->disp;
    if (v->kind != SGEMU_VAL_BUFFER || es == 0 || (es & (es - 1)) || v->bytes < nb ||
        ((uint64_t)disp & (es - 1)) || disp == INT64_MIN)
        return;
    /* the block's offset in the buffer, disp + x0 * es, in [0, last]
     * (and below 2^40, inside the buffer's address range) */
    uint64_t last = v->bytes - nb;
    if (last > EMU_BUF_OFFSET_MASK)
        last = EMU_BUF_OFFSET_MASK;
    const int64_t nq = -(disp / (int64_t)es);          /* exact: disp % es == 0 */
    const int64_t span = (int64_t)(last / es);
    int64_t lo = nq, hi = nq > INT64_MAX - span ? INT64_MAX : nq + span;
    /* lanes 0..w-1 one row apart in the index type: no lane crosses 2^32
     * (u32) or 2^31 (i32); the ramp itself never wraps a 64-bit slot */
    if (m->idx == EMU_IDX_U32) {
        lo = lo < 0 ? 0 : lo;
        hi = hi > (INT64_C(1) << 32) - w ? (INT64_C(1) << 32) - w : hi;
    } else if (m->idx == EMU_IDX_S32) {
        lo = lo < -(INT64_C(1) << 31) ? -(INT64_C(1) << 31) : lo;
        hi = hi > (INT64_C(1) << 31) - w ? (INT64_C(1) << 31) - w : hi;
    } else if (m->idx != EMU_IDX_64) {
        return;
    }
    if (lo > hi)
        return;
    m->ramp_lo = (uint64_t)lo;
    m->ramp_n = (uint64_t)hi - (uint64_t)lo + 1;
    m->ramp_ptr = (uintptr_t)v->data + (uintptr_t)(uint64_t)disp;
}

void emu_decode_bind(emu_dprog *p, const isa_kernel *k, uint32_t w,
                     const sgemu_argval *args)
{
    /* the accesses of the EMU_D_LDST_RAMP kinds: a ramp index and a
     * resolved buffer (by their entries, whatever kind the detectors
     * gave their instructions since: detect.c keeps the decoded form) */
    for (uint32_t i = 0; i < p->nmem; i++) {
        emu_dmem *m = &p->mem[i];
        if (m->ramp_idx && m->buf >= 1 && m->buf <= k->narg)
            bind_ramp(m, w, &args[m->buf - 1]);
    }
}

int emu_decode(emu_dprog *p, const isa_kernel *k, uint32_t w,
               const uint64_t *arg_values)
{
    memset(p, 0, sizeof *p);
    size_t nconst = 0;
    for (uint32_t i = 0; i < k->ninst; i++)
        for (unsigned j = 1; j < ISA_MAX_OPNDS; j++)
            nconst += count_const(&k->inst[i].o[j]) ? 1u : 0u;
    /* one more: the end sentinel (EMU_D_END), on every path */
    p->d = calloc((size_t)k->ninst + 1, sizeof *p->d);
    p->consts = calloc((nconst ? nconst : 1) * w, sizeof *p->consts);
    p->mem = calloc(k->ninst ? k->ninst : 1, sizeof *p->mem);
    if (!p->d || !p->consts || !p->mem) {
        emu_decode_free(p);
        return -1;
    }
    p->n = k->ninst;
    p->d[k->ninst].kind = EMU_D_END;
    p->zero_regs = p->zero_preds = ~UINT64_C(0);
    /* SGEMU_DECODE=0 leaves every instruction on the generic path: the
     * reference for A/B measurements and for bisecting a fast kernel */
    const char *env = getenv("SGEMU_DECODE");
    if (env && strcmp(env, "0") == 0) {
        set_zero_runs(p, k->nreg);
        return 0;
    }
    p->fast = true;
    dctx c = { p, k, w, arg_values };
    for (uint32_t i = 0; i < k->ninst; i++)
        decode_one(&c, &k->inst[i], &p->d[i]);
    /* a compare followed by a branch on its predicate (a loop latch, an
     * if): exec.c runs the branch without a dispatch of its own */
    for (uint32_t i = 0; i + 1 < k->ninst; i++)
        if (p->d[i].kind == EMU_D_CMP && p->d[i + 1].kind == EMU_D_BRA &&
            p->d[i + 1].has_pred && p->d[i + 1].pred == p->d[i].pred)
            p->d[i].has_pred = 1;
    find_ramps(&c);
    find_dead_zeroing(&c);
    set_zero_runs(p, k->nreg);
    return 0;
}

void emu_decode_free(emu_dprog *p)
{
    free(p->d);
    free(p->consts);
    free(p->mem);
    memset(p, 0, sizeof *p);
}
