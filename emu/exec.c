/* exec.c - the interpreter: runs one subgroup's instruction stream until it
 * blocks at a work-group barrier or collective, finishes, or faults.  One
 * dispatch per instruction; lane loops live in lanes/ and collectives/. */
#include "emu_private.h"

#include <stdio.h>

static void emit_uop(void *user, const coll_uop *u)
{
    emu_run *run = user;
    run->stats->uops++;
    if (run->launch->uop_listener)
        run->launch->uop_listener(run->launch->uop_user, run->cur_pc, u);
    if (run->wg->trace && emu_trace_uop(run->wg->trace, u) != 0)
        emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                  "out of host memory recording micro-ops");
}

static void *note_stream;

void sgemu_set_note_stream(void *stdio_file)
{
    note_stream = stdio_file;
}

typedef struct note_ctx {
    emu_run *run;
    coll_group *g;
    uint32_t pc;
} note_ctx;

static void print_note(void *user, const coll_report *r)
{
    note_ctx *nc = user;
    emu_run *run = nc->run;
    FILE *f = note_stream ? note_stream : stderr;
    run->stats->notes++;
    const emu_sg *sg = (const emu_sg *)nc->g->sg[r->sg < nc->g->nsg ? r->sg : 0];
    uint64_t gid[3], lid[3];
    emu_workitem_ids(run, sg, r->lane, gid, lid);
    const isa_inst *in = &run->k->inst[nc->pc];
    fprintf(f, "%s:%u: note: kernel '%s': %s (value %lld): undefined result, "
            "work-item global (%llu,%llu,%llu) sub-group %u lane %u\n",
            run->k->file, in->line, run->k->name, coll_status_text[r->status],
            (long long)r->value, (unsigned long long)gid[0],
            (unsigned long long)gid[1], (unsigned long long)gid[2], sg->id, r->lane);
}

/* Run a collective or block-I/O instruction over group g. */
int emu_exec_collective(emu_run *run, coll_group *g, const isa_inst *in, uint32_t pc)
{
    coll_sink sink = { run, emit_uop };
    note_ctx nc = { run, g, pc };
    coll_env env = {
        .lanes = &run->lenv, .opt = &run->copt, .mem = &run->cmem, .sink = &sink,
        .scratch_slm = run->coll_scratch, .scratch_slm_bytes = run->coll_scratch_bytes,
        .note = print_note, .note_user = &nc,
    };
    coll_report rep = { 0 };
    run->cur_pc = pc;
    coll_status st = coll_execute(&env, in, g, &rep);
    if (run->fault->code)
        return run->fault->code;
    if (st == COLL_OK)
        return 0;
    const emu_sg *sg = (const emu_sg *)g->sg[rep.sg < g->nsg ? rep.sg : 0];
    int code = st == COLL_NO_MEMORY ? SGEMU_EXIT_INTERNAL : SGEMU_EXIT_FAULT;
    if (st == COLL_OUT_OF_BOUNDS || st == COLL_MISALIGNED || st == COLL_NONUNIFORM_PTR) {
        char desc[256];
        emu_mem_describe(run, (isa_space)in->space, (uint64_t)rep.value, desc, sizeof desc);
        return emu_fault(run, code, sg, rep.lane, pc, "%s: %s",
                         coll_status_text[st], desc);
    }
    return emu_fault(run, code, sg, rep.lane, pc, "%s (value %lld)",
                     coll_status_text[st], (long long)rep.value);
}

static bool whole_subgroup(const emu_sg *sg, lanes_mask mask)
{
    return mask == sg->l.exists && !(sg->l.simt.exited & sg->l.exists);
}

static int first_missing_lane(const emu_sg *sg, lanes_mask mask)
{
    lanes_mask miss = sg->l.exists & ~mask;
    return miss ? __builtin_ctzll(miss) : 0;
}

/* Active-lane count for the statistics: without -mpopcnt the builtin is a
 * libgcc call, which showed up at 5% of an ALU-bound profile. */
static inline uint64_t lane_count(lanes_mask m)
{
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (m * 0x0101010101010101ull) >> 56;
}

/* The interpreter proper.  It runs in stints: a stint reads the top SIMT
 * entry once and keeps pc, mask and the reconvergence point in registers
 * while decoded instructions run (they never touch the SIMT stack); only a
 * divergent branch, reaching the reconvergence point or an instruction of
 * the generic path writes the pc back and starts a new stint.  Instruction
 * and lane counts stay in registers too (*ninst, *nlanes, flushed by the
 * caller): read-modify-writes of the statistics on every instruction were
 * a loop-carried store-load chain that cost more than a small instruction's
 * lane work. */
static inline int exec_loop(emu_run *run, emu_sg *sg, uint64_t *ninst,
                            uint64_t *nlanes)
{
    const isa_kernel *k = run->k;
    const uint32_t kinst = k->ninst;
    const uint64_t icount0 = run->instructions;
    lanes_simt *s = &sg->l.simt;
    emu_wg_trace *tr = run->wg->trace;
    const uint64_t limit = run->launch->max_instructions;
    /* instructions this call may run before the limit: the check is one
     * compare of the local count */
    const uint64_t budget = !limit ? UINT64_MAX
                          : limit > icount0 ? limit - icount0 : 0;
    uint64_t n = 0, lanes = 0;
    const uint32_t w = sg->l.width;
    const lanes_mask full = lanes_mask_first(w);
    const emu_dinst *dec = run->dp.d;
    uint64_t *const regs = sg->l.regs;
    /* operand rows: a source's sel picks the register file or the
     * pre-broadcast constants */
    const uint64_t *const base[2] = { regs, run->dp.consts };

    while (s->depth) {
        lanes_simt_entry *top = &s->e[s->depth - 1];
        uint32_t pc = top->pc;
        const uint32_t rpc = top->rpc;
        const lanes_mask mask = top->mask & ~s->exited;
        const uint64_t nl = lane_count(mask);
        const emu_dinst *d;
        emu_rec *rec;

        for (;;) {
            if (pc >= kinst) {         /* falling off the end returns */
                top->pc = pc;
                lanes_simt_ret(s);
                goto next_stint;
            }
            if (n >= budget) {
                top->pc = pc;
                return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, pc,
                                 "instruction limit of %llu subgroup instructions reached "
                                 "(runaway kernel? raise --max-instructions)",
                                 (unsigned long long)limit);
            }
            /* a signal handler's stop request: checked every 1024
             * instructions, so a long work-group stops too, at little cost */
            if (((icount0 + n) & 1023) == 0 && sgemu_stop_requested()) {
                top->pc = pc;
                return emu_fault(run, SGEMU_EXIT_INTERRUPTED, sg, UINT32_MAX, pc,
                                 "interrupted (stop requested by a signal)");
            }
            n++;
            lanes += nl;
            *ninst = n;
            *nlanes = lanes;
            rec = NULL;
            if (tr) {
                rec = emu_trace_push(tr, sg->id);
                if (!rec) {
                    top->pc = pc;
                    return emu_fault(run, SGEMU_EXIT_INTERNAL, sg, UINT32_MAX, pc,
                                     "out of host memory recording the run");
                }
                rec->pc = pc;
                rec->mask = mask;
                rec->uop_first = tr->nuops;
            }

            d = &dec[pc];
            /* the common case first, as a plain test: a jump table's single
             * indirect jump mispredicted on most instructions */
            if (__builtin_expect(d->kind == EMU_D_ALU, 1)) {
                const uint64_t *a = base[d->sel[0]] + d->src[0];
                const uint64_t *b = base[d->sel[1]] + d->src[1];
                const uint64_t *c = base[d->sel[2]] + d->src[2];
                if (mask == full) {
                    d->fn(regs + d->dst, a, b, c, w);
                } else {
                    uint64_t tmp[LANES_MAX];
                    d->fn(tmp, a, b, c, w);
                    lanes_fast_blend(regs + d->dst, tmp, mask, w);
                }
                pc++;
            } else if (d->kind == EMU_D_CMP) {
                const lanes_mask v = d->cmp(base[d->sel[0]] + d->src[0],
                                            base[d->sel[1]] + d->src[1], w);
                lanes_mask *p = &sg->l.preds[d->pred];
                *p = (*p & ~mask) | (v & mask);
                pc++;
            } else switch ((emu_dkind)d->kind) {
            case EMU_D_ALU:
            case EMU_D_CMP:
                break;
            case EMU_D_MOV: {
                const uint64_t *a = base[d->sel[0]] + d->src[0];
                uint64_t *r = regs + d->dst;
                const uint64_t m = d->m;
                if (mask == full) {
                    for (uint32_t l = 0; l < w; l++)
                        r[l] = a[l] & m;
                } else {
                    for (uint32_t l = 0; l < w; l++) {
                        const uint64_t lm = (uint64_t)0 - ((mask >> l) & 1);
                        r[l] = (a[l] & m & lm) | (r[l] & ~lm);
                    }
                }
                pc++;
                break;
            }
            case EMU_D_NOP:
                pc++;
                break;
            case EMU_D_BRA: {
                const isa_inst *in = &k->inst[pc];
                if (!d->has_pred) {
                    pc = in->target;
                    goto moved;
                }
                lanes_mask p = sg->l.preds[d->pred];
                if (d->negate)
                    p = ~p;
                p &= mask;
                /* a uniform branch stays in the stint */
                if (p == mask) {
                    pc = in->target;
                    goto moved;
                }
                if (p == 0) {
                    pc++;
                    goto moved;
                }
                top->pc = pc;
                lanes_simt_branch(s, p, in->target, pc + 1, in->reconv);
                goto next_stint;
            }
            case EMU_D_GENERIC:
            default:
                top->pc = pc;
                goto generic;
            }
            /* the decoded non-branch instructions record no micro-ops */
            if (rec)
                rec->nuops = tr->nuops - rec->uop_first;
        moved:
            /* only reaching the reconvergence point pops the stack (these
             * instructions never empty the active mask) */
            if (pc == rpc) {
                lanes_simt_goto(s, pc);
                goto next_stint;
            }
        }

    generic: ;
        const isa_inst *in = &k->inst[pc];
        const isa_op_info *oi = &isa_ops[in->op];
        switch (oi->family) {
        case ISA_FAM_LD:
        case ISA_FAM_ST:
        case ISA_FAM_ATOM:
            if (emu_mem_exec(run, sg, in, mask, pc, rec))
                return run->fault->code;
            lanes_simt_goto(s, pc + 1);
            break;
        case ISA_FAM_BRA:
            if (in->o[0].kind == ISA_OPND_PRED) {
                lanes_mask p = sg->l.preds[in->o[0].reg];
                if (in->o[0].negate)
                    p = ~p;
                lanes_simt_branch(s, p & mask, in->target, pc + 1, in->reconv);
            } else {
                lanes_simt_goto(s, in->target);
            }
            break;
        case ISA_FAM_RET:
            lanes_simt_ret(s);
            break;
        case ISA_FAM_BARRIER:
            if (!whole_subgroup(sg, mask))
                return emu_fault(run, SGEMU_EXIT_FAULT, sg, (uint32_t)first_missing_lane(sg, mask), pc,
                                 "divergent barrier: %s reached by only some work-items "
                                 "(the work-item below did not reach it)", oi->mnemonic);
            if (oi->scope == ISA_SCOPE_WG) {
                sg->state = EMU_SG_BLOCKED;
                sg->block_pc = pc;
                return 0;
            }
            lanes_simt_goto(s, pc + 1);
            break;
        case ISA_FAM_IMG_READ:
        case ISA_FAM_IMG_WRITE:
        case ISA_FAM_IMG_QUERY:
            if (emu_image_exec(run, sg, in, mask, pc))
                return run->fault->code;
            lanes_simt_goto(s, pc + 1);
            break;
        default:
            if (oi->pipe == ISA_PIPE_COLL || oi->pipe == ISA_PIPE_BLOCK) {
                if (oi->scope == ISA_SCOPE_WG) {
                    sg->state = EMU_SG_BLOCKED;
                    sg->block_pc = pc;
                    return 0;
                }
                lanes_sg *one = &sg->l;
                coll_group g = { .nsg = 1, .sg = &one, .active = &mask,
                                 .wg_items = run->wg->items, .first_sg = sg->id };
                for (int dim = 0; dim < 3; dim++)
                    g.local_size[dim] = (uint32_t)run->wg->local_size[dim];
                if (emu_exec_collective(run, &g, in, pc))
                    return run->fault->code;
            } else {
                if (lanes_exec_alu(&run->lenv, &sg->l, in, mask) != 0)
                    return emu_fault(run, SGEMU_EXIT_FAULT, sg, sg->l.fault_lane, pc,
                                     "integer division by zero");
            }
            if (rec)
                rec->nuops = tr->nuops - rec->uop_first;
            lanes_simt_goto(s, pc + 1);
            break;
        }
    next_stint: ;
    }
    sg->state = EMU_SG_DONE;
    return 0;
}

int emu_exec_subgroup(emu_run *run, emu_sg *sg)
{
    uint64_t ninst = 0, nlanes = 0;
    const int rc = exec_loop(run, sg, &ninst, &nlanes);
    sgemu_stats *st = run->stats;
    run->instructions += ninst;
    st->instructions += ninst;
    st->lane_ops += nlanes;
    st->lane_slots += ninst * sg->l.width;
    return rc;
}
