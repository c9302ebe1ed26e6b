/* workgroup.c - one work-group: its subgroups, local and private memory,
 * and the points where all subgroups meet (barriers and work-group
 * collectives).  Subgroups run one at a time until each blocks; a meeting
 * point is released only when every subgroup waits at the same one. */
#include "emu_private.h"

#include <stdlib.h>
#include <string.h>

static void group_coords(const emu_run *run, uint64_t lin, uint64_t g[3])
{
    g[0] = lin % run->num_groups[0];
    g[1] = (lin / run->num_groups[0]) % run->num_groups[1];
    g[2] = lin / (run->num_groups[0] * run->num_groups[1]);
}

static int meet(emu_run *run, emu_wg *wg)
{
    emu_sg *first = NULL;
    for (uint32_t i = 0; i < wg->nsg; i++) {
        emu_sg *sg = &wg->sg[i];
        if (sg->state != EMU_SG_BLOCKED)
            continue;
        if (!first) {
            first = sg;
            continue;
        }
        if (sg->block_pc != first->block_pc)
            return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, sg->block_pc,
                             "divergent work-group synchronisation: sub-group %u waits "
                             "here while sub-group %u waits at line %u",
                             sg->id, first->id, run->k->inst[first->block_pc].line);
    }
    for (uint32_t i = 0; i < wg->nsg; i++) {
        emu_sg *sg = &wg->sg[i];
        if (sg->state == EMU_SG_DONE)
            return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, first->block_pc,
                             "divergent work-group synchronisation: sub-group %u finished "
                             "without reaching this %s", sg->id,
                             isa_ops[run->k->inst[first->block_pc].op].mnemonic);
    }

    uint32_t pc = first->block_pc;
    const isa_inst *in = &run->k->inst[pc];
    if (isa_ops[in->op].pipe == ISA_PIPE_COLL) {
        lanes_sg *lsg[wg->nsg];
        lanes_mask act[wg->nsg];
        for (uint32_t i = 0; i < wg->nsg; i++) {
            lsg[i] = &wg->sg[i].l;
            act[i] = lanes_simt_active(&wg->sg[i].l.simt);
        }
        coll_group g = { .nsg = wg->nsg, .sg = lsg, .active = act,
                         .wg_items = wg->items, .first_sg = 0 };
        for (int d = 0; d < 3; d++)
            g.local_size[d] = (uint32_t)wg->local_size[d];
        uint32_t uop_first = wg->trace ? wg->trace->nuops : 0;
        if (emu_exec_collective(run, &g, in, pc))
            return run->fault->code;
        if (wg->trace) {
            /* every subgroup's record points at the whole expansion; the
             * timing model takes the micro-ops whose .sg is that subgroup */
            for (uint32_t i = 0; i < wg->nsg; i++) {
                emu_rec *r = &wg->trace->sg[i].recs[wg->sg[i].block_rec];
                r->uop_first = uop_first;
                r->nuops = wg->trace->nuops - uop_first;
            }
        }
    }
    for (uint32_t i = 0; i < wg->nsg; i++) {
        wg->sg[i].state = EMU_SG_RUNNING;
        lanes_simt_goto(&wg->sg[i].l.simt, pc + 1);
    }
    return 0;
}

/* run->wg points here: callers read run->wg->nsg after the work-group
 * finished, so it must outlive this call (a local here was read after
 * return: valgrind, uninitialised values in the run summary) */
static _Thread_local emu_wg wg_state;

int emu_run_workgroup(emu_run *run, uint64_t wg_linear, emu_wg_trace *trace)
{
    emu_wg *wg = &wg_state;
    memset(wg, 0, sizeof *wg);
    group_coords(run, wg_linear, wg->group_id);
    wg->items = 1;
    for (int d = 0; d < 3; d++) {
        uint64_t left = run->global[d] - wg->group_id[d] * run->local[d];
        wg->local_size[d] = left < run->local[d] ? left : run->local[d];
        wg->items *= (uint32_t)wg->local_size[d];
    }
    uint32_t S = run->width;
    wg->nsg = (wg->items + S - 1) / S;
    wg->sg = run->sg_pool;
    wg->local_mem = run->local_pool;
    wg->local_bytes = run->local_total;
    wg->private_mem = run->private_pool;
    wg->trace = trace;
    run->wg = wg;
    if (trace) {
        emu_trace_reset(trace, wg->nsg);
        trace->wg_linear = wg_linear;
    }

    memset(wg->local_mem, 0, run->local_total);
    if (run->k->private_mem)
        memset(wg->private_mem, 0, (size_t)wg->items * run->k->private_mem);
    for (uint32_t i = 0; i < wg->nsg; i++) {
        emu_sg *sg = &wg->sg[i];
        uint32_t size = i + 1 < wg->nsg ? S : wg->items - i * S;
        sg->id = i;
        sg->state = EMU_SG_RUNNING;
        sg->l.size = size;
        sg->l.exists = lanes_mask_first(size);
        memset(sg->l.regs, 0, (size_t)sg->l.nreg * S * sizeof *sg->l.regs);
        memset(sg->l.preds, 0, (size_t)sg->l.npred * sizeof *sg->l.preds);
        /* keeps the stack's storage from the last work-group */
        if (lanes_simt_reset(&sg->l.simt, sg->l.exists, 0) != 0)
            return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                             "out of host memory for the SIMT stack");
        if (trace && i < 64)
            trace->sg_size[i] = size;
    }

    for (;;) {
        uint32_t done = 0;
        for (uint32_t i = 0; i < wg->nsg; i++) {
            emu_sg *sg = &wg->sg[i];
            if (sg->state == EMU_SG_RUNNING && emu_exec_subgroup(run, sg))
                return run->fault->code;
            if (sg->state == EMU_SG_BLOCKED && trace)
                sg->block_rec = trace->sg[i].n - 1;
            done += sg->state == EMU_SG_DONE;
        }
        if (done == wg->nsg)
            return 0;
        if (meet(run, wg))
            return run->fault->code;
    }
}
