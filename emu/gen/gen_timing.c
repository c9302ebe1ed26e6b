/* gen_timing.c - what the timing model reads of a Gen program: one tm_op
 * per instruction (pipe from opcode and type, channels, the GRF, flag,
 * accumulator and a0 slots it reads and writes, a send's memory space and
 * bytes per address), and the records' addresses (gen_rec_addr, called by
 * gen_send.c and gen_image.c for every access) and micro-ops (gen_rec_uop:
 * a media block message).  docs/timing-model.md, "The Gen path". */
#include "gen_engine.h"

#include <stdlib.h>
#include <string.h>

/* Scoreboard slots after the GRFs: f0.0 f0.1 f1.0 f1.1, acc0..acc7, a0,
 * then Xe's software scoreboard tokens $0..$31: a token's result (ready
 * when the instruction that set it completes) and its sources read. */
enum { SLOT_FLAG = 0, SLOT_ACC = 4, SLOT_A0 = 12, NTOKENS = 32, SLOT_TOKEN_DST = 13,
       SLOT_TOKEN_SRC = SLOT_TOKEN_DST + NTOKENS, SLOT_EXTRA = SLOT_TOKEN_SRC + NTOKENS };

/* Binding-table indices of SLM and A32 stateless (gen_send.c). */
enum { BTI_SLM = 0xFE, BTI_A32 = 0xFF, BTI_A32_NC = 0xFD };

/* Scratch (A32 stateless) addresses in the model's flat space: each
 * work-group's arena apart from every buffer ((i + 1) << 40) and image. */
#define SCRATCH_FLAT ((uint64_t)0x3000 << 40)

uint32_t gen_timing_slots(const gen_program *p)
{
    return p->grf_count + SLOT_EXTRA;
}

static uint32_t bits(uint32_t v, int off, int len)
{
    return v >> off & ((1u << len) - 1);
}

static void add_src(tm_op *o, uint32_t first, uint32_t n)
{
    if (n && o->nsrc < TM_MAX_RANGES)
        o->src[o->nsrc++] = (tm_range){ (uint16_t)first, (uint16_t)n };
}

/* Slots of an operand over `esize` channels (n = 0: none).  A GRF region
 * covers the registers from its first byte to its last element's; an
 * indirect operand reads a0 (its registers are known only at run time). */
static tm_range opnd_slots(const gen_program *p, const gen_opnd *d, uint32_t esize, bool dst)
{
    const uint32_t G = p->grf_count;
    if (d->kind == GEN_OPND_INDIRECT)
        return (tm_range){ (uint16_t)(G + SLOT_A0), 1 };
    if (d->kind != GEN_OPND_DIRECT)
        return (tm_range){ 0, 0 };
    switch (d->file) {
    case GEN_FILE_GRF: {
        uint32_t tb = d->type < GEN_T_COUNT && gen_type_bytes[d->type] ? gen_type_bytes[d->type] : 4;
        uint32_t last = 0;
        for (uint32_t i = 0; i < esize; i++) {
            uint32_t e = dst ? i * d->hs
                       : (d->w && d->w != GEN_WI_NONE ? (i / d->w) * d->vs + (i % d->w) * d->hs
                                                      : i * d->hs);
            if (e > last)
                last = e;
        }
        uint32_t b0 = d->reg * p->grf_bytes + d->subreg * tb;
        uint32_t b1 = b0 + last * tb + tb - 1;
        uint32_t r0 = b0 / p->grf_bytes, r1 = b1 / p->grf_bytes;
        if (r0 >= G)
            return (tm_range){ 0, 0 };
        if (r1 >= G)
            r1 = G - 1;
        return (tm_range){ (uint16_t)r0, (uint16_t)(r1 - r0 + 1) };
    }
    case GEN_FILE_F:
        return (tm_range){ (uint16_t)(G + SLOT_FLAG + (d->reg & 1) * 2 + (d->subreg & 1)), 1 };
    case GEN_FILE_ACC:
        return (tm_range){ (uint16_t)(G + SLOT_ACC + (d->reg & 7)), 1 };
    case GEN_FILE_A:
        return (tm_range){ (uint16_t)(G + SLOT_A0), 1 };
    default:
        return (tm_range){ 0, 0 };
    }
}

/* The pipe of an ALU instruction: extended math on the transcendental
 * pipe; otherwise by the destination's type (a null destination: the
 * first source's): float, half, double, or the integer ALU; a move of
 * one type to the same type on the move pipe. */
static tm_pipe alu_pipe(const gen_inst *in, uint32_t *tb)
{
    const gen_opnd *t = in->has_dst && in->dst.file == GEN_FILE_GRF ? &in->dst : &in->src[0];
    uint32_t ty = t->type;
    *tb = ty < GEN_T_COUNT && gen_type_bytes[ty] ? gen_type_bytes[ty] : 4;
    if (in->op == GEN_OP_MATH)
        return TM_PIPE_TRANS;
    bool f = ty == GEN_T_F || ty == GEN_T_HF || ty == GEN_T_DF || ty == GEN_T_BF;
    if (in->op == GEN_OP_MOV && in->src[0].kind != GEN_OPND_IMM &&
        in->src[0].type == in->dst.type && !in->sat && in->src[0].mod == GEN_MOD_NONE)
        return TM_PIPE_MOV;
    if (!f)
        return TM_PIPE_INT;
    return ty == GEN_T_DF ? TM_PIPE_FP64 : ty == GEN_T_HF ? TM_PIPE_FP16 : TM_PIPE_FP32;
}

/* The memory space of an A32 message's binding-table index: SLM, scratch
 * (flat addresses of the model: global), or a buffer. */
static isa_space bti_space(uint32_t desc)
{
    return bits(desc, 0, 8) == BTI_SLM ? ISA_SPACE_LOCAL : ISA_SPACE_GLOBAL;
}

/* An LSC message (Xe-HPG+, gen_send.c lsc()): SLM by its shared function;
 * bytes at each lane's address: its elements (vec x size; a transposed
 * message: one address, the block) or a quad's channels. */
static void lsc_op(const gen_inst *in, tm_op *o)
{
    const gen_lsc *l = &in->lsc;
    if (l->op == GEN_LSC_FENCE) {
        o->kind = TM_K_FENCE;
        return;
    }
    if (l->op == GEN_LSC_OTHER)
        return;
    o->space = in->sfid == GEN_SFID_SLM || (l->model == GEN_LSC_BTI && l->bti == BTI_SLM)
             ? ISA_SPACE_LOCAL : ISA_SPACE_GLOBAL;
    uint32_t bytes = (uint32_t)(l->vec ? l->vec : 1) * l->mem_bytes;
    if (l->op == GEN_LSC_LOAD_QUAD || l->op == GEN_LSC_STORE_QUAD)
        bytes = (uint32_t)__builtin_popcount(l->chmask & 15u) * l->mem_bytes;
    o->kind = l->op == GEN_LSC_ATOMIC ? TM_K_ATOMIC : TM_K_MEM;
    o->store = l->op == GEN_LSC_STORE || l->op == GEN_LSC_STORE_QUAD;
    o->elem_bytes = (uint16_t)(l->op == GEN_LSC_ATOMIC ? l->mem_bytes : bytes);
}

/* An image message's texels (the sampler, typed surface reads and writes:
 * each lane's texel, gen_image.c) as sgemu's own image element accesses
 * are timed: global memory in the model's image space, one byte an
 * address (a texel lies in one line). */
static void texel_op(tm_op *o, bool store)
{
    o->kind = TM_K_MEM;
    o->store = store;
    o->elem_bytes = 1;
}

/* A send: its kind, space and bytes at each recorded address (the lane's
 * first access: gen_rec_addr), from the descriptor fields gen_send.c reads
 * (docs/gen.md, "Supported messages"), or of an LSC message (lsc_op); a
 * media block message: its 2D micro-op (gen_rec_uop), as sgemu's image
 * block I/O.  Messages without memory (end of thread, the barrier
 * gateway, those not described here) are a send of the send pipe's
 * latency; a fence's response waits for the thread's earlier accesses
 * (TM_K_FENCE). */
static void send_op(const gen_inst *in, tm_op *o)
{
    o->kind = TM_K_ALU;
    o->space = ISA_SPACE_GLOBAL;
    if (in->lsc.op != GEN_LSC_NONE && !in->eot) {
        lsc_op(in, o);
        return;
    }
    if (in->msg_type >= 0 && in->msg_type < GEN_MSG_COUNT &&
        gen_msg_handlers[in->msg_type] == GEN_H_FENCE) {
        o->kind = TM_K_FENCE;
        return;
    }
    if (!in->eot && in->sfid == GEN_SFID_SMPL) {
        texel_op(o, false);
        return;
    }
    if (in->eot || in->sfid == GEN_SFID_GTWY || in->msg_type < 0 ||
        in->msg_type >= GEN_MSG_COUNT)
        return;
    const uint32_t d = in->desc;
    uint32_t bytes = 0;
    bool store = false, atomic = false;
    switch ((gen_msg_handler)gen_msg_handlers[in->msg_type]) {
    case GEN_H_A64_SCATTERED_WRITE:
        store = true;
        /* fall through */
    case GEN_H_A64_SCATTERED_READ: {
        uint32_t sub = bits(d, 8, 2), ds = bits(d, 10, 2);
        bytes = sub == 0 ? 1u << ds : (1u << ds) * (sub == 1 ? 4 : 8);
        break;
    }
    case GEN_H_UNTYPED_WRITE:
        store = true;
        /* fall through */
    case GEN_H_UNTYPED_READ:
        bytes = 4 * (4 - (uint32_t)__builtin_popcount(bits(d, 8, 4)));
        if (in->msg_type != GEN_MSG_MT1R_A64_US && in->msg_type != GEN_MSG_MT1W_A64_US)
            o->space = (uint8_t)bti_space(d);
        break;
    case GEN_H_BYTE_SCATTERED_WRITE:
        store = true;
        /* fall through */
    case GEN_H_BYTE_SCATTERED_READ:
        bytes = 1u << bits(d, 10, 2);
        o->space = (uint8_t)bti_space(d);
        break;
    case GEN_H_UNTYPED_ATOMIC:
        atomic = true;
        bytes = 4;
        o->space = (uint8_t)bti_space(d);
        break;
    case GEN_H_A64_ATOMIC:
        atomic = true;
        bytes = bits(d, 12, 1) ? 8 : 4;
        break;
    case GEN_H_UNTYPED_FLOAT_ATOMIC:
        o->space = (uint8_t)bti_space(d);
        /* fall through */
    case GEN_H_A64_FLOAT_ATOMIC:
        atomic = true;
        bytes = 4;
        break;
    case GEN_H_BLOCK_WRITE:
        store = true;
        /* fall through */
    case GEN_H_BLOCK_READ: {
        bool a64 = in->msg_type == GEN_MSG_MT1R_A64_B || in->msg_type == GEN_MSG_MT1W_A64_B;
        uint32_t code = bits(d, 8, 3);
        bytes = a64 && bits(d, 11, 2) == 3 ? 32u << code : code <= 1 ? 16 : 16u << (code - 1);
        if (!a64)
            o->space = (uint8_t)bti_space(d);
        break;
    }
    case GEN_H_SCRATCH_WRITE:
        store = true;
        /* fall through */
    case GEN_H_SCRATCH_READ:
        bytes = 32u << bits(d, 12, 2);
        break;
    case GEN_H_TYPED_READ:
    case GEN_H_TYPED_WRITE:
        texel_op(o, gen_msg_handlers[in->msg_type] == GEN_H_TYPED_WRITE);
        return;
    case GEN_H_MEDIA_READ:
    case GEN_H_MEDIA_WRITE:
        o->kind = TM_K_UOPS;
        return;
    default:
        return;
    }
    o->kind = atomic ? TM_K_ATOMIC : TM_K_MEM;
    o->store = store;
    o->elem_bytes = (uint16_t)bytes;
}

/* The token slots of a sync.allrd / sync.allwr (first: SLOT_TOKEN_SRC or
 * _DST): every token, or those of src0's immediate mask; a mask of many
 * runs waits for the runs' hull when the ranges run out. */
static void sync_all_srcs(const gen_program *p, const gen_inst *in, tm_op *o, uint32_t first)
{
    const uint32_t base = p->grf_count + first;
    if (in->src[0].kind != GEN_OPND_IMM) {
        add_src(o, base, NTOKENS);
        return;
    }
    uint32_t mask = (uint32_t)in->src[0].imm;
    for (uint32_t t = 0; t < NTOKENS;) {
        if (!(mask >> t & 1)) {
            t++;
            continue;
        }
        uint32_t e = t;
        while (e < NTOKENS && mask >> e & 1)
            e++;
        if (o->nsrc == TM_MAX_RANGES - 1) {
            e = 32 - (uint32_t)__builtin_clz(mask);
            add_src(o, base + t, e - t);
            return;
        }
        add_src(o, base + t, e - t);
        t = e;
    }
}

/* Xe's software scoreboard: an out-of-order instruction (a send, math on
 * Xe-LP) that sets token $n waits for $n's previous holder to complete and
 * makes $n's result slot ready when it completes and its sources slot when
 * it has read its sources; an instruction with $n.dst / $n.src waits for
 * those; sync.allwr / allrd for every token's.  What RegDist (@n) says
 * the register slots already say. */
static void token_slots(const gen_program *p, const gen_inst *in, tm_op *o)
{
    const uint32_t G = p->grf_count;
    if (in->op == GEN_OP_SYNC && in->subfunc == GEN_SYNC_ALLWR)
        sync_all_srcs(p, in, o, SLOT_TOKEN_DST);
    else if (in->op == GEN_OP_SYNC && in->subfunc == GEN_SYNC_ALLRD)
        sync_all_srcs(p, in, o, SLOT_TOKEN_SRC);
    const uint32_t tok_dst = G + SLOT_TOKEN_DST + in->sbid % NTOKENS;
    const uint32_t tok_src = G + SLOT_TOKEN_SRC + in->sbid % NTOKENS;
    switch (in->sb_token) {
    case GEN_IGA_TOKEN_SET:
        add_src(o, tok_dst, 1);
        o->srcrd = (tm_range){ (uint16_t)tok_src, 1 };
        /* sends and math write no flag or accumulator besides their
         * register: the result slot takes the free destination */
        if (!o->xdst.n)
            o->xdst = (tm_range){ (uint16_t)tok_dst, 1 };
        else if (!o->dst.n)
            o->dst = (tm_range){ (uint16_t)tok_dst, 1 };
        break;
    case GEN_IGA_TOKEN_DST:
        add_src(o, tok_dst, 1);
        break;
    case GEN_IGA_TOKEN_SRC:
        add_src(o, tok_src, 1);
        break;
    default:
        break;
    }
}

/* mach, addc and subb read acc0 and write it besides their register (the
 * high half, the carry, the borrow). */
static bool acc_op(unsigned op)
{
    return op == GEN_OP_MACH || op == GEN_OP_ADDC || op == GEN_OP_SUBB;
}

/* The description of one instruction but its tokens. */
static void inst_op(const gen_program *p, const gen_inst *in, tm_op *o)
{
    const uint32_t G = p->grf_count;
    o->text = p->text ? p->text[in - p->inst] : NULL;
    o->lanes = in->esize ? in->esize : 1;
    o->type_bytes = 4;
    if (in->pred != GEN_PRED_NONE)
        add_src(o, G + SLOT_FLAG + (in->flag_reg & 1) * 2 + (in->flag_sub & 1), 1);
    const gen_class cls = in->op < GEN_OP_COUNT ? (gen_class)gen_ops[in->op].cls
                                                : GEN_CLASS_NOP;
    switch (cls) {
    case GEN_CLASS_FLOW:
        o->kind = TM_K_BRANCH;
        o->pipe = TM_PIPE_BRANCH;
        return;
    case GEN_CLASS_NOP:
        /* sync.bar waits for the work-group's barrier; other syncs wait
         * on the software scoreboard (token_slots) */
        o->kind = in->op == GEN_OP_SYNC && in->subfunc == GEN_SYNC_BAR ? TM_K_BARRIER
                                                                     : TM_K_NONE;
        /* a named barrier's wait (sync.bar N, N > 0: Xe-HPC) is not
         * modelled: the model's barriers are the work-group's */
        if (o->kind == TM_K_BARRIER && in->src[0].kind == GEN_OPND_IMM && in->src[0].imm)
            o->kind = TM_K_NONE;
        o->pipe = TM_PIPE_SYNC;
        return;
    case GEN_CLASS_SEND: {
        o->pipe = TM_PIPE_SEND;
        send_op(in, o);
        /* payload (mlen GRFs from src0), extended payload (emlen from
         * src1), response (rlen from dst) */
        if (in->src[0].kind == GEN_OPND_DIRECT && in->src[0].file == GEN_FILE_GRF)
            add_src(o, in->src[0].reg, in->mlen);
        if (in->nsrc > 1 && in->src[1].kind == GEN_OPND_DIRECT &&
            in->src[1].file == GEN_FILE_GRF)
            add_src(o, in->src[1].reg, in->emlen);
        if (in->rlen && in->dst.file == GEN_FILE_GRF && in->dst.reg < G)
            o->dst = (tm_range){ in->dst.reg,
                                 (uint16_t)(in->dst.reg + in->rlen <= G ? in->rlen
                                                                        : G - in->dst.reg) };
        return;
    }
    case GEN_CLASS_ALU:
    case GEN_CLASS_CMP: {
        uint32_t tb;
        o->kind = TM_K_ALU;
        o->pipe = (uint8_t)alu_pipe(in, &tb);
        o->type_bytes = (uint8_t)tb;
        for (uint32_t s = 0; s < in->nsrc && s < 3; s++) {
            tm_range r = opnd_slots(p, &in->src[s], in->esize, false);
            add_src(o, r.first, r.n);
        }
        if (acc_op(in->op))
            add_src(o, G + SLOT_ACC, 1);     /* the accumulator they read */
        /* the destinations: the register written and the conditional
         * modifier's flag (alone when the destination is null); mach,
         * addc and subb write acc0 besides their register */
        tm_range d = in->has_dst ? opnd_slots(p, &in->dst, in->esize, true)
                                 : (tm_range){ 0, 0 };
        tm_range x = { 0, 0 };
        if (in->cond != GEN_COND_NONE)
            x = (tm_range){ (uint16_t)(G + SLOT_FLAG + (in->flag_reg & 1) * 2 +
                                       (in->flag_sub & 1)), 1 };
        else if (acc_op(in->op) && d.first != G + SLOT_ACC)
            x = (tm_range){ (uint16_t)(G + SLOT_ACC), 1 };
        if (!d.n) {
            d = x;
            x = (tm_range){ 0, 0 };
        }
        o->dst = d;
        o->xdst = x;
        return;
    }
    }
}

int gen_timing_ops(const gen_program *p, tm_op **out)
{
    tm_op *ops = calloc(p->ninst ? p->ninst : 1, sizeof *ops);
    if (!ops)
        return -1;
    for (uint32_t pc = 0; pc < p->ninst; pc++) {
        inst_op(p, &p->inst[pc], &ops[pc]);
        token_slots(p, &p->inst[pc], &ops[pc]);
    }
    *out = ops;
    return 0;
}

void gen_rec_addr(emu_run *run, gen_thread *t, uint32_t lane, isa_space sp, bool scratch,
                  uint64_t addr)
{
    (void)run;
    emu_wg_trace *tr = t->tr;
    if (!tr || !t->rec_open || lane == t->rec_lane)
        return;
    t->rec_lane = lane;
    uint64_t i = emu_trace_addrs(tr, 1);
    if (i == UINT64_MAX) {
        t->rec_oom = true;
        return;
    }
    emu_rec *r = &tr->sg[t->sg->id].recs[tr->sg[t->sg->id].n - 1];
    if (!r->naddr)
        r->addr_first = i;
    r->naddr++;
    (void)sp;
    tr->addrs[i] = scratch ? SCRATCH_FLAT + t->scratch_flat + addr : addr;
}

void gen_rec_uop(gen_thread *t, const coll_uop *u)
{
    emu_wg_trace *tr = t->tr;
    if (!tr || !t->rec_open)
        return;
    emu_rec *r = &tr->sg[t->sg->id].recs[tr->sg[t->sg->id].n - 1];
    if (!r->nuops)
        r->uop_first = tr->nuops;
    if (emu_trace_uop(tr, u)) {
        t->rec_oom = true;
        return;
    }
    r->nuops++;
}
