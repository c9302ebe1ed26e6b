/* gen_flow.c - SIMD control flow with per-channel instruction pointers.
 * Every channel of a thread has its own instruction index (pcip); the
 * channels enabled at an instruction are those whose pcip is the thread's
 * ip, and the thread runs next the lowest pcip of its channels, so
 * channels that branch apart wait where they branched to until the others
 * reach the same instruction (an endif, a join, the instruction after a
 * loop).  IGC's structured (if/else/endif, while/break/cont) and
 * unstructured (goto/join) forms both come down to which channels go to
 * the JIP or UIP target (docs/gen.md, "SIMD control flow"). */
#include "gen_engine.h"

#include <string.h>

/* Move the channels of mask m (the instruction's channels 0..esize-1) to
 * instruction index `to`. */
static void move(gen_thread *t, const gen_inst *in, uint64_t m, uint32_t to)
{
    for (uint32_t i = 0; i < in->esize; i++)
        if (m >> i & 1)
            t->pcip[in->choff + i] = to;
}

static int need(emu_run *run, gen_thread *t, uint32_t target)
{
    if (target != UINT32_MAX)
        return 0;
    return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                     "branch without a decoded target is not supported by sgemu");
}

/* A channel that did not take a predicated call: disabled until the
 * call's ret restores the channels the call saved (docs/gen.md). */
#define GEN_PCIP_PARKED (UINT32_MAX - 1)

/* The two dwords of a call's link register (dst.0: the return address,
 * the byte offset of the instruction after the call; dst.1: the channels
 * enabled at the call), bounds-checked against the GRF. */
static uint8_t *link_reg(emu_run *run, gen_thread *t, const gen_opnd *o)
{
    const uint32_t gb = run->k->gen->grf_bytes;
    const uint32_t at = (uint32_t)o->reg * gb + (uint32_t)o->subreg * 4;
    if (o->file != GEN_FILE_GRF || o->kind != GEN_OPND_DIRECT || at + 8 > t->grf_size)
        return NULL;
    return t->grf + at;
}

static int do_call(emu_run *run, gen_thread *t, const gen_inst *in, uint64_t e, uint64_t p)
{
    const gen_program *prog = run->k->gen;
    if (need(run, t, in->jip))
        return run->fault->code;
    uint8_t *l = link_reg(run, t, &in->dst);
    if (!l || t->ip + 1 >= prog->ninst)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                         "call whose link is not a GRF dword pair is not supported by sgemu");
    uint32_t ret = prog->inst[t->ip + 1].offset;
    uint32_t saved = (uint32_t)((e << in->choff) & t->dispatch);
    memcpy(l, &ret, 4);
    memcpy(l + 4, &saved, 4);
    for (uint32_t i = 0; i < in->esize; i++)
        if (p >> i & 1) {
            if (t->depth[in->choff + i] == UINT8_MAX)
                return gen_fault(run, t, in->choff + i, SGEMU_EXIT_FAULT,
                                 "calls nested deeper than %d", UINT8_MAX);
            t->depth[in->choff + i]++;
            t->in_call = true;
        }
    move(t, in, p, in->jip);
    move(t, in, e & ~p, GEN_PCIP_PARKED);
    return 0;
}

static int do_ret(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const uint8_t *l = link_reg(run, t, &in->src[0]);
    uint32_t off = 0, saved = 0;
    if (l) {
        memcpy(&off, l, 4);
        memcpy(&saved, l + 4, 4);
    }
    const uint32_t to = l ? gen_inst_at(run->k->gen, off) : UINT32_MAX;
    if (to == UINT32_MAX)
        return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                         "ret to 0x%x, which is not the start of an instruction", off);
    bool any = false;
    for (uint32_t c = 0; c < 32; c++) {
        if (saved >> c & 1 && t->dispatch >> c & 1 &&
            (t->exec >> c & 1 || t->pcip[c] == GEN_PCIP_PARKED)) {
            if (t->exec >> c & 1 && t->depth[c])
                t->depth[c]--;
            t->pcip[c] = to;
        }
        any |= t->depth[c] != 0;
    }
    t->in_call = any;
    return 0;
}

/* Does this goto move the channels whose predicate fails?  On Gen9 a
 * forward goto does (docs/gen.md, "SIMD control flow"); a backward one
 * (goto.b, a loop's back edge) moves those whose predicate holds. */
static bool goto_inverted(const emu_run *run, const gen_thread *t, const gen_inst *in)
{
    return run->k->gen->platform < GEN_IGA_XE && in->uip > t->ip;
}

int gen_exec_flow(emu_run *run, gen_thread *t, const gen_inst *in)
{
    const uint32_t next = t->ip + 1;
    if (t->conv) {   /* make pcip explicit before channels part */
        for (uint32_t c = 0; c < 32; c++)
            t->pcip[c] = t->ip;
        t->conv = false;
    }
    /* every enabled channel goes on by default; a branch then moves some */
    for (uint32_t c = 0; c < 32; c++)
        if (t->exec >> c & 1)
            t->pcip[c] = next;
    uint64_t e = gen_channels(t, in, false), p = gen_channels(t, in, true);
    switch ((gen_op)in->op) {
    case GEN_OP_IF:      /* channels whose predicate fails: to the else part / endif */
        if (need(run, t, in->jip))
            return run->fault->code;
        move(t, in, e & ~p, in->jip);
        break;
    case GEN_OP_ELSE:    /* the channels of the then part: to the endif */
        if (need(run, t, in->jip))
            return run->fault->code;
        move(t, in, p, in->jip);
        break;
    case GEN_OP_WHILE:   /* channels whose predicate holds: back to the loop's start */
        if (need(run, t, in->jip))
            return run->fault->code;
        move(t, in, p, in->jip);
        break;
    case GEN_OP_BREAK:   /* UIP is the loop's while: wait after it, past the loop */
        if (need(run, t, in->uip))
            return run->fault->code;
        if (run->k->gen->inst[in->uip].op != GEN_OP_WHILE)
            return gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                             "break whose UIP is not a while is not supported by sgemu");
        move(t, in, p, in->uip + 1);
        break;
    case GEN_OP_GOTO:    /* to the target (a join, or a loop's start for goto.b) */
        if (need(run, t, in->uip))
            return run->fault->code;
        /* Gen9: a forward goto moves the channels whose predicate fails
         * (IGC's `(~f0.1) goto` leaves a loop for the lanes where f0.1, the
         * break condition, holds); Xe moves those where it holds */
        move(t, in, goto_inverted(run, t, in) ? e & ~p : p, in->uip);
        break;
    case GEN_OP_CONT:    /* UIP is the loop's while: wait there, to test its predicate */
    case GEN_OP_HALT:
        if (need(run, t, in->uip))
            return run->fault->code;
        move(t, in, p, in->uip);
        break;
    case GEN_OP_JMPI: {  /* a jump of the thread: the predicate of channel 0 */
        if (need(run, t, in->jip))
            return run->fault->code;
        uint64_t pr = gen_pred_bits(t, in);
        if (pr & 1)
            for (uint32_t c = 0; c < 32; c++)
                if (t->exec >> c & 1)
                    t->pcip[c] = in->jip;
        break;
    }
    case GEN_OP_CALL:    /* the channels whose predicate holds: to the callee */
        if (do_call(run, t, in, e, p))
            return run->fault->code;
        break;
    case GEN_OP_RET:     /* the channels the call saved: back after the call */
        if (do_ret(run, t, in))
            return run->fault->code;
        break;
    case GEN_OP_ENDIF:   /* reconvergence points: the waiting channels are */
    case GEN_OP_JOIN:    /* enabled by reaching them */
    default:
        break;
    }
    gen_next_ip(t);
    return 0;
}

/* The thread goes on with the deepest calls' channels (a callee runs
 * before its callers' other channels go on, wherever it is in the code),
 * then at the lowest pcip among them. */
void gen_next_ip(gen_thread *t)
{
    uint64_t live = t->dispatch;
    if (t->in_call) {
        uint8_t top = 0;
        for (uint32_t c = 0; c < 32; c++)
            if (t->dispatch >> c & 1 && t->depth[c] > top)
                top = t->depth[c];
        for (uint32_t c = 0; c < 32; c++)
            if (t->depth[c] != top)
                live &= ~(UINT64_C(1) << c);
    }
    uint32_t lo = UINT32_MAX;
    for (uint32_t c = 0; c < 32; c++)
        if (live >> c & 1 && t->pcip[c] < lo)
            lo = t->pcip[c];
    uint64_t at = 0;
    for (uint32_t c = 0; c < 32; c++)
        if (live >> c & 1 && t->pcip[c] == lo)
            at |= UINT64_C(1) << c;
    t->ip = lo;
    t->exec = at;
    t->conv = at == t->dispatch;
}
