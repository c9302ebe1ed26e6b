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
    case GEN_OP_ENDIF:   /* reconvergence points: the waiting channels are */
    case GEN_OP_JOIN:    /* enabled by reaching them */
    default:
        break;
    }
    gen_next_ip(t);
    return 0;
}

void gen_next_ip(gen_thread *t)
{
    uint32_t lo = UINT32_MAX;
    for (uint32_t c = 0; c < 32; c++)
        if (t->dispatch >> c & 1 && t->pcip[c] < lo)
            lo = t->pcip[c];
    uint64_t at = 0;
    for (uint32_t c = 0; c < 32; c++)
        if (t->dispatch >> c & 1 && t->pcip[c] == lo)
            at |= UINT64_C(1) << c;
    t->ip = lo;
    t->exec = at;
    t->conv = at == t->dispatch;
}
