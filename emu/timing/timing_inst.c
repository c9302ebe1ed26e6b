/* timing_inst.c - per-instruction timing info computed once per run: which
 * pipe, how many passes at the run's width, which scoreboard slots it reads
 * and writes.  Registers are slots 0..nreg-1, predicates nreg.. */
#include "timing_private.h"

#include <string.h>

/* Micro-op kind -> pipe, the pipe column of include/sgemu/uops.def; ALU
 * rows are resolved by type in tm_uop_pipe. */
static const uint8_t uop_pipe[COLL_UOP_COUNT] = {
#define COLL_UOP(E, name, pipe, start) [COLL_UOP_##E] = TM_PIPE_##pipe,
#include "uops.def"
#undef COLL_UOP
};

/* Micro-op kind -> whether a run of that kind starts together (the start
 * column of uops.def: BATCH) or each waits for the one before (CHAIN). */
enum { UOP_START_CHAIN, UOP_START_BATCH };
static const uint8_t uop_start[COLL_UOP_COUNT] = {
#define COLL_UOP(E, name, pipe, start) [COLL_UOP_##E] = UOP_START_##start,
#include "uops.def"
#undef COLL_UOP
};

bool tm_uop_batch_kind(int kind)
{
    return kind >= 0 && kind < COLL_UOP_COUNT && uop_start[kind] == UOP_START_BATCH;
}

static tm_pipe alu_pipe(uint32_t type)
{
    switch (type) {
    case ISA_T_F32: return TM_PIPE_FP32;
    case ISA_T_F64: return TM_PIPE_FP64;
    case ISA_T_F16: return TM_PIPE_FP16;
    default: return TM_PIPE_INT;
    }
}

tm_pipe tm_int_alternate_pipe(const emu_timing_cfg *tc)
{
    switch ((tm_int_alternate)tc->int_alternate) {
    case TM_INT_ALT_INT_MAD: return TM_PIPE_INT_MAD;
    default: return TM_PIPE_COUNT;
    }
}

tm_pipe tm_uop_pipe(const coll_uop *u)
{
    if (u->kind >= COLL_UOP_COUNT)
        return TM_PIPE_MOV;
    if (u->kind == COLL_UOP_ALU)
        /* an ALU micro-op without an operator is a copy (index copy) */
        return u->binop == ISA_BINOP_NONE ? TM_PIPE_MOV : alu_pipe(u->type);
    return (tm_pipe)uop_pipe[u->kind];
}

/* ceil(lanes / width) passes; 64-bit integer (either integer pipe) and 64-bit transcendental take
 * two passes each (docs/timing-model.md). */
uint32_t tm_passes(const emu_timing_cfg *tc, tm_pipe p, uint32_t lanes, uint32_t type_bytes)
{
    uint32_t w = tc->pipe[p].width ? tc->pipe[p].width : 1;
    uint32_t n = (lanes + w - 1) / w;
    if (n == 0)
        n = 1;
    if (type_bytes == 8 && (p == TM_PIPE_INT || p == TM_PIPE_INT_MAD || p == TM_PIPE_TRANS))
        n *= 2;
    return n;
}

/* The shuffles whose source lane one SHFL mode computes from one operand:
 * IDX (the lane), BFLY (lane ^ mask), UP (lane - delta), DOWN (lane +
 * delta).  Two-source shuffles and rotates have index arithmetic of their
 * own (docs/timing-model.md, "Micro-ops"). */
static bool one_source_shuffle(isa_family f)
{
    return f == ISA_FAM_SHUFFLE || f == ISA_FAM_SHUFFLE_XOR || f == ISA_FAM_SHUFFLE_UP ||
           f == ISA_FAM_SHUFFLE_DOWN;
}

static void add_range(tm_inst *ti, uint32_t first, uint32_t n)
{
    if (ti->nsrc < TM_MAX_RANGES && n)
        ti->src[ti->nsrc++] = (tm_range){ (uint16_t)first, (uint16_t)n };
}

static void add_source(tm_inst *ti, const isa_kernel *k, const isa_operand *o, uint32_t vec)
{
    switch (o->kind) {
    case ISA_OPND_REG: add_range(ti, o->reg, vec); break;
    case ISA_OPND_PRED: add_range(ti, k->nreg + o->reg, 1); break;
    case ISA_OPND_ADDR:
        if (o->addr.base_kind == ISA_OPND_REG)
            add_range(ti, o->addr.base, 1);
        if (o->addr.has_index)
            add_range(ti, o->addr.index, 1);
        break;
    default: break;
    }
}

/* Shapes whose first operand is written. */
static bool writes_first(isa_shape s)
{
    switch (s) {
    case ISA_SHAPE_NONE: case ISA_SHAPE_ST: case ISA_SHAPE_BRA:
    case ISA_SHAPE_BLK_ST: case ISA_SHAPE_IMG_ST: case ISA_SHAPE_IMGV_ST:
    case ISA_SHAPE_MB_ST:
        return false;
    default:
        return true;
    }
}

void tm_inst_build(const isa_kernel *k, const emu_config *cfg, uint32_t width,
                   tm_inst *out)
{
    const emu_timing_cfg *tc = &cfg->timing;
    for (uint32_t pc = 0; pc < k->ninst; pc++) {
        const isa_inst *in = &k->inst[pc];
        const isa_op_info *oi = &isa_ops[in->op];
        tm_inst *ti = &out[pc];
        memset(ti, 0, sizeof *ti);
        uint32_t vec = in->vec ? in->vec : 1;
        uint32_t tb = in->type < ISA_T_COUNT ? isa_types[in->type].bytes : 4;
        ti->elem_bytes = (uint16_t)(tb * vec);
        ti->space = in->space;
        ti->store = oi->family == ISA_FAM_ST;
        switch (oi->pipe) {
        case ISA_PIPE_ALU:
            ti->kind = TM_K_ALU;
            ti->pipe = alu_pipe(in->type);
            /* where int has an alternate (docs/timing-model.md, "Integer
             * pipes"): multiplies there, adds on either, the rest (logic,
             * shifts, compares, selects, min/max, bit counts) on int */
            if (ti->pipe == TM_PIPE_INT && tm_int_alternate_pipe(tc) != TM_PIPE_COUNT) {
                if (isa_op_imul(in->op))
                    ti->pipe = tm_int_alternate_pipe(tc);
                ti->int_either = isa_op_iadd(in->op);
            }
            break;
        case ISA_PIPE_TRANS: ti->kind = TM_K_ALU; ti->pipe = TM_PIPE_TRANS; break;
        case ISA_PIPE_MOV:
        case ISA_PIPE_CVT: ti->kind = TM_K_ALU; ti->pipe = TM_PIPE_MOV; break;
        case ISA_PIPE_MEM: ti->kind = TM_K_MEM; ti->pipe = TM_PIPE_SEND; break;
        case ISA_PIPE_ATOMIC: ti->kind = TM_K_ATOMIC; ti->pipe = TM_PIPE_SEND; break;
        case ISA_PIPE_BRANCH: ti->kind = TM_K_BRANCH; ti->pipe = TM_PIPE_BRANCH; break;
        case ISA_PIPE_SYNC:
            ti->kind = oi->scope == ISA_SCOPE_WG ? TM_K_BARRIER : TM_K_SG_BARRIER;
            ti->pipe = TM_PIPE_SYNC;
            break;
        default:
            ti->kind = oi->scope == ISA_SCOPE_WG ? TM_K_UOPS_WG : TM_K_UOPS;
            ti->pipe = TM_PIPE_SEND;
            break;
        }
        /* image element reads and writes and sampled reads are memory
         * messages at each lane's texel (a sampled read: the first texel
         * of its footprint), one byte an address: a texel lies in one
         * line.  Image block I/O (pipe BLOCK) keeps its 2D-message
         * micro-ops; an image query and printf (a message to the printf
         * buffer) are a message of the send pipe's latency
         * (docs/timing-model.md) */
        bool img_rw = oi->family == ISA_FAM_IMG_READ || oi->family == ISA_FAM_IMG_WRITE;
        if (!isa_op_block_io(in->op) && img_rw) {
            ti->kind = TM_K_MEM;
            ti->pipe = TM_PIPE_SEND;
            ti->space = ISA_SPACE_GLOBAL;
            ti->store = oi->family == ISA_FAM_IMG_WRITE;
            ti->elem_bytes = 1;
        } else if (oi->family == ISA_FAM_IMG_QUERY || oi->family == ISA_FAM_PRINTF) {
            ti->kind = TM_K_ALU;
            ti->pipe = TM_PIPE_SEND;
        }
        /* a register's width in the scoreboard: vector operands take vec slots */
        uint32_t first = 0;
        if (in->nopnd && writes_first(oi->shape)) {
            const isa_operand *d = &in->o[0];
            if (d->kind == ISA_OPND_REG)
                ti->dst = (tm_range){ d->reg, (uint16_t)vec };
            else if (d->kind == ISA_OPND_PRED)
                ti->dst = (tm_range){ (uint16_t)(k->nreg + d->reg), 1 };
            first = 1;
        }
        const bool media = oi->shape == ISA_SHAPE_MB_LD || oi->shape == ISA_SHAPE_MB_ST;
        for (uint32_t i = first; i < in->nopnd && i < ISA_MAX_OPNDS; i++)
            add_source(ti, k, &in->o[i], in->o[i].kind != ISA_OPND_REG ? 1
                                         : media ? isa_media_block_regs(oi->shape, i, vec)
                                                 : vec);
        ti->has_pipe = ti->kind == TM_K_ALU || ti->kind == TM_K_MEM ||
                       ti->kind == TM_K_ATOMIC || ti->kind == TM_K_BRANCH;
        if (ti->kind == TM_K_UOPS && tc->shuffle_lane_index == TM_SHUFFLE_LANE_OPERAND &&
            one_source_shuffle(oi->family)) {
            /* compute_index's one index micro-op (collectives/shuffle.c) is
             * the unit's own; operand 2 is the lane, mask or delta */
            ti->lane_uops = 1;
            if (in->nopnd > 2 && in->o[2].kind == ISA_OPND_REG)
                ti->lane_lat = (uint16_t)tc->shuffle_reg_lane_latency;
        }
        ti->passes = (uint16_t)tm_passes(tc, (tm_pipe)ti->pipe, width, tb);
        if (oi->pipe == ISA_PIPE_MOV && vec > 1)
            ti->passes = (uint16_t)(ti->passes * vec);
    }
}

void tm_inst_from_ops(const tm_op *ops, uint32_t n, const emu_config *cfg, tm_inst *out)
{
    const emu_timing_cfg *tc = &cfg->timing;
    for (uint32_t pc = 0; pc < n; pc++) {
        const tm_op *o = &ops[pc];
        tm_inst *ti = &out[pc];
        memset(ti, 0, sizeof *ti);
        ti->kind = o->kind;
        ti->pipe = o->pipe < TM_PIPE_COUNT ? o->pipe : TM_PIPE_MOV;
        ti->space = o->space;
        ti->store = o->store;
        ti->elem_bytes = o->elem_bytes;
        ti->dst = o->dst;
        ti->xdst = o->xdst;
        ti->srcrd = o->srcrd;
        ti->nsrc = o->nsrc < TM_MAX_RANGES ? o->nsrc : TM_MAX_RANGES;
        memcpy(ti->src, o->src, ti->nsrc * sizeof ti->src[0]);
        ti->has_pipe = ti->kind == TM_K_ALU || ti->kind == TM_K_MEM ||
                       ti->kind == TM_K_ATOMIC || ti->kind == TM_K_BRANCH ||
                       ti->kind == TM_K_FENCE;
        ti->passes = (uint16_t)tm_passes(tc, (tm_pipe)ti->pipe, o->lanes ? o->lanes : 1,
                                         o->type_bytes);
    }
}

uint8_t tm_inst_xtag(const tm_inst *ti)
{
    switch ((tm_kind)ti->kind) {
    case TM_K_ALU:
    case TM_K_MEM:
    case TM_K_ATOMIC:
        return (uint8_t)(ti->pipe + 1);
    case TM_K_UOPS:
    case TM_K_UOPS_WG:
        return TM_PIPE_COUNT + 1;
    default:
        return 0;
    }
}

uint32_t tm_ninst(const tm_launch *L)
{
    return L->ops ? L->nops : L->k->ninst;
}

const char *tm_inst_name(const tm_launch *L, uint32_t pc)
{
    if (L->ops)
        return L->ops[pc].text ? L->ops[pc].text : "?";
    return isa_ops[L->k->inst[pc].op].mnemonic;
}

uint32_t tm_inst_line(const tm_launch *L, uint32_t pc)
{
    return L->ops ? 0 : L->k->inst[pc].line;
}
