/* workgroup.c - one work-group: its subgroups, local and private memory,
 * and the points where all subgroups meet (barriers and work-group
 * collectives).  Subgroups run one at a time, in id order, each until it
 * blocks, finishes or has run EMU_SG_QUANTUM instructions in its turn;
 * passes repeat while any is running (so each makes progress: independent
 * forward progress), and a meeting point is released only when every
 * unfinished subgroup waits at the same one. */
#include "detect.h"
#include "emu_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void group_coords(const emu_run *run, uint64_t lin, uint64_t g[3])
{
    g[0] = lin % run->num_groups[0];
    g[1] = (lin / run->num_groups[0]) % run->num_groups[1];
    g[2] = lin / (run->num_groups[0] * run->num_groups[1]);
}

void emu_wg_place(const emu_run *run, uint64_t wg_linear, emu_wg *wg)
{
    group_coords(run, wg_linear, wg->group_id);
    wg->items = 1;
    for (int d = 0; d < 3; d++) {
        uint64_t left = run->global[d] - wg->group_id[d] * run->local[d];
        wg->local_size[d] = left < run->local[d] ? left : run->local[d];
        wg->items *= (uint32_t)wg->local_size[d];
        wg->gid_base[d] = wg->group_id[d] * run->local[d] + run->offset[d];
    }
    wg->nsg = (wg->items + run->width - 1) / run->width;
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
        if (sg->block_pc != first->block_pc) {
            char pos[320];
            isa_inst_where(run->k, &run->k->inst[first->block_pc], pos, sizeof pos);
            return emu_fault(run, SGEMU_EXIT_FAULT, sg, UINT32_MAX, sg->block_pc,
                             "divergent work-group synchronisation: sub-group %u waits "
                             "here while sub-group %u waits at %s", sg->id, first->id, pos);
        }
    }
    if (!first)     /* the caller runs meet only while some sub-group waits */
        return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                         "work-group stalled with no sub-group waiting");
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
    if (isa_op_cross_lane(in->op)) {
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
    if (run->det)
        emu_detect_wg_barrier(run, pc);
    for (uint32_t i = 0; i < wg->nsg; i++) {
        wg->sg[i].state = EMU_SG_RUNNING;
        lanes_simt_goto(&wg->sg[i].l.simt, pc + 1);
    }
    return 0;
}

/* One pass over the sub-groups: each that is running runs until it
 * blocks, finishes, faults or its turn ends; *ndone: how many have
 * finished. */
static int run_pass(emu_run *run, emu_wg *wg, emu_wg_trace *trace, uint32_t *ndone)
{
    uint32_t done = 0;
    for (uint32_t i = 0; i < wg->nsg; i++) {
        emu_sg *sg = &wg->sg[i];
        if (sg->state == EMU_SG_RUNNING && emu_exec_subgroup(run, sg))
            return run->fault->code;
        if (sg->l.simt.oom)
            return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                             "out of host memory growing the SIMT stack");
        if (sg->state == EMU_SG_BLOCKED && trace)
            sg->block_rec = trace->sg[i].n - 1;
        done += sg->state == EMU_SG_DONE;
    }
    *ndone = done;
    return 0;
}

static bool any_running(const emu_wg *wg)
{
    for (uint32_t i = 0; i < wg->nsg; i++)
        if (wg->sg[i].state == EMU_SG_RUNNING)
            return true;
    return false;
}

/* run->wg points here: callers read run->wg->nsg after the work-group
 * finished, so it must outlive this call (a local here was read after
 * return: valgrind, uninitialised values in the run summary) */
static _Thread_local emu_wg wg_state;

int emu_run_workgroup(emu_run *run, uint64_t wg_linear, emu_wg_trace *trace)
{
    emu_wg *wg = &wg_state;
    memset(wg, 0, sizeof *wg);
    emu_wg_place(run, wg_linear, wg);
    uint32_t S = run->width;
    wg->sg = run->sg_pool;
    wg->local_mem = run->local_pool;
    wg->local_bytes = run->local_total;
    wg->private_mem = run->private_pool;
    wg->trace = trace;
    run->wg = wg;
    if (trace) {
        emu_trace_reset(trace, wg->nsg, &run->trace_hint);
        trace->wg_linear = wg_linear;
    }

    memset(wg->local_mem, 0, run->local_total);
    if (run->k->private_mem)
        memset(wg->private_mem, 0, (size_t)wg->items * run->k->private_mem);
    if (run->det)
        emu_detect_wg_start(run, wg_linear);
    uint32_t done = 0;
    if (!trace) {
        /* untraced: exec.c sets up and runs the first pass of all the
         * sub-groups in one call */
        if (emu_exec_workgroup(run, wg, &done))
            return run->fault->code;
    } else {
        const uint64_t zp = emu_zero_preds_mask(run->dp.zero_preds, run->k->npred);
        for (uint32_t i = 0; i < wg->nsg; i++) {
            emu_sg *sg = &wg->sg[i];
            uint32_t size = i + 1 < wg->nsg ? S : wg->items - i * S;
            sg->id = i;
            sg->state = EMU_SG_RUNNING;
            sg->resume_ramp = 0;
            sg->l.size = size;
            sg->l.exists = lanes_mask_first(size);
            emu_zero_regs(sg->l.regs, &run->dp, S);
            emu_zero_preds(sg->l.preds, sg->l.npred, zp);
            /* keeps the stack's storage from the last work-group */
            if (lanes_simt_reset(&sg->l.simt, sg->l.exists, 0) != 0)
                return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                                 "out of host memory for the SIMT stack");
            if (i < 64)
                trace->sg_size[i] = size;
        }
        if (run_pass(run, wg, trace, &done))
            return run->fault->code;
    }
    while (done != wg->nsg) {
        /* a meeting point waits for the sub-groups whose turn ended */
        if ((!any_running(wg) && meet(run, wg)) || run_pass(run, wg, trace, &done))
            return run->fault->code;
    }
    if (trace)
        emu_trace_note(&run->trace_hint, trace);
    if (run->launch->progress)
        atomic_fetch_add_explicit(run->launch->progress, 1, memory_order_relaxed);
    return 0;
}

/* ------------------------------------------------- the NDRange, threaded
 *
 * Work-groups are independent except through global atomics (whose order
 * would decide the values) and racy global stores (undefined in OpenCL).
 * With more than one thread each worker has its own copy of the run (its
 * own subgroups, local, private and scratch memory, statistics and fault)
 * and takes work-groups in increasing order from a shared counter.  Race-
 * free kernels write the same bytes whatever the thread count; kernels with
 * global atomics, check mode (its notes print in order), printf and micro-op
 * listeners run on one thread.  A fault stops work-groups after the
 * faulting one from starting; the fault reported is the lowest work-group's,
 * the one a single thread reports. */

#define WG_CHUNK 4     /* work-groups taken at a time from the counter */

typedef struct wg_worker {
    emu_run run;
    sgemu_stats stats;
    sgemu_fault fault;
    uint64_t fault_wg;           /* UINT64_MAX: none */
    struct wg_pool *pool;
    pthread_t tid;
    bool started;
} wg_worker;

typedef struct wg_pool {
    const emu_run *main;
    atomic_uint_fast64_t next;
    atomic_uint_fast64_t stop_at;  /* no work-group >= this starts */
} wg_pool;

static bool needs_one_thread(const emu_run *run)
{
    /* printf: the buffer fills, and overflows, in one order */
    if (run->launch->check || run->launch->uop_listener || run->det || run->k->nprintf)
        return true;
    for (uint32_t i = 0; i < run->k->ninst; i++) {
        const isa_inst *in = &run->k->inst[i];
        if (isa_ops[in->op].family == ISA_FAM_ATOM && in->space != ISA_SPACE_LOCAL)
            return true;
    }
    return false;
}

uint32_t emu_host_threads(uint32_t asked)
{
    uint32_t t = asked;
    if (t == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        t = n > 0 ? (uint32_t)n : 1;
    }
    return t > 256 ? 256 : t;
}

static uint32_t pick_threads(const emu_run *run)
{
    uint32_t t = emu_host_threads(run->launch->threads);
    if ((uint64_t)t > run->wg_total / 2)
        t = run->wg_total >= 2 ? (uint32_t)(run->wg_total / 2) : 1;
    return needs_one_thread(run) ? 1 : t;
}

/* A worker's private copy of the per-run state (the same sizes the main
 * run allocated). */
static int worker_init(wg_worker *w, const emu_run *main)
{
    emu_run *r = &w->run;
    *r = *main;
    r->stats = &w->stats;
    r->fault = &w->fault;
    r->instructions = 0;
    r->lenv.user = r;
    r->lenv.arg_values = r->arg_values;
    r->cmem.user = r;
    r->sg_pool = calloc(main->sg_pool_n, sizeof *r->sg_pool);
    r->local_pool = calloc(1, main->local_total ? main->local_total : 1);
    uint64_t items = main->local[0] * main->local[1] * main->local[2];
    r->private_pool = calloc(1, items * main->k->private_mem + 1);
    r->coll_scratch = calloc(1, main->coll_scratch_bytes ? main->coll_scratch_bytes : 1);
    r->coll_shapes = calloc(1, sizeof *r->coll_shapes);
    r->sg_pool_n = 0;
    if (!r->sg_pool || !r->local_pool || !r->private_pool || !r->coll_scratch ||
        !r->coll_shapes)
        return -1;
    for (uint32_t i = 0; i < main->sg_pool_n; i++) {
        if (lanes_sg_init(&r->sg_pool[i].l, main->width, main->width,
                          main->k->nreg, main->k->npred) != 0)
            return -1;
        r->sg_pool_n = i + 1;
    }
    return 0;
}

static void worker_free(wg_worker *w)
{
    emu_run *r = &w->run;
    for (uint32_t i = 0; i < r->sg_pool_n; i++)
        lanes_sg_free(&r->sg_pool[i].l);
    free(r->sg_pool);
    free(r->local_pool);
    free(r->private_pool);
    free(r->coll_scratch);
    free(r->coll_shapes);
}

static void *worker_main(void *arg)
{
    wg_worker *w = arg;
    wg_pool *p = w->pool;
    const uint64_t total = p->main->wg_total;
    for (;;) {
        uint64_t first = atomic_fetch_add(&p->next, WG_CHUNK);
        if (first >= total)
            break;
        uint64_t end = first + WG_CHUNK < total ? first + WG_CHUNK : total;
        for (uint64_t wg = first; wg < end; wg++) {
            if (wg >= atomic_load(&p->stop_at))
                return NULL;
            if (emu_run_workgroup(&w->run, wg, NULL)) {
                w->fault_wg = wg;
                uint64_t cur = atomic_load(&p->stop_at);
                while (wg < cur && !atomic_compare_exchange_weak(&p->stop_at, &cur, wg))
                    ;
                return NULL;
            }
            w->stats.subgroups += w->run.wg->nsg;
        }
    }
    return NULL;
}

int emu_run_workgroups(emu_run *run)
{
    emu_decode_bind(&run->dp, run->k, run->width, run->args);
    uint32_t T = pick_threads(run);
    if (T <= 1) {
        for (uint64_t wg = 0; wg < run->wg_total; wg++) {
            if (emu_run_workgroup(run, wg, NULL))
                return run->fault->code;
            run->stats->subgroups += run->wg->nsg;
        }
        return 0;
    }
    wg_pool pool = { .main = run };
    atomic_init(&pool.next, 0);
    atomic_init(&pool.stop_at, UINT64_MAX);
    wg_worker *ws = calloc(T, sizeof *ws);
    if (!ws)
        return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                         "out of host memory starting %u threads", T);
    int rc = 0;
    for (uint32_t i = 0; i < T && !rc; i++) {
        ws[i].pool = &pool;
        ws[i].fault_wg = UINT64_MAX;
        if (worker_init(&ws[i], run) != 0)
            rc = -1;
    }
    for (uint32_t i = 0; i < T && !rc; i++) {
        if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
            atomic_store(&pool.stop_at, 0);
            rc = -1;
            break;
        }
        ws[i].started = true;
    }
    const wg_worker *bad = NULL;
    for (uint32_t i = 0; i < T; i++) {
        if (ws[i].started)
            pthread_join(ws[i].tid, NULL);
        sgemu_stats *s = run->stats;
        s->instructions += ws[i].stats.instructions;
        s->lane_ops += ws[i].stats.lane_ops;
        s->lane_slots += ws[i].stats.lane_slots;
        s->uops += ws[i].stats.uops;
        s->notes += ws[i].stats.notes;
        s->subgroups += ws[i].stats.subgroups;
        run->instructions += ws[i].run.instructions;
        if (ws[i].fault_wg != UINT64_MAX && (!bad || ws[i].fault_wg < bad->fault_wg))
            bad = &ws[i];
    }
    if (bad) {
        *run->fault = bad->fault;
        rc = bad->fault.code;
    } else if (rc) {
        rc = emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                       "out of host memory or threads starting %u threads", T);
    }
    for (uint32_t i = 0; i < T; i++)
        worker_free(&ws[i]);
    free(ws);
    return rc;
}
