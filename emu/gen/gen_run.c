/* gen_run.c - the NDRange for a Gen program: work-groups in linear order,
 * one hardware thread per sub-group, each started with the payload the
 * hardware and the compute runtime give it (R0 header, per-thread local
 * IDs, cross-thread data; docs/gen.md) and run to its end-of-thread send. */
#include "gen_engine.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gen_fault(emu_run *run, gen_thread *t, uint32_t lane, int code, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const gen_program *p = run->k->gen;
    uint32_t ip = t->ip < p->ninst ? t->ip : 0;
    return emu_fault(run, code, t->sg, lane, UINT32_MAX, "%.400s\n  at %s+0x%x: %.200s", what,
                     run->k->file[0] ? run->k->file : run->k->name, p->inst[ip].offset,
                     p->text[ip]);
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The cross-thread data of work-group wg (the same for its threads). */
static void cross_thread(const emu_run *run, const emu_wg *wg, uint8_t *out)
{
    const gen_program *p = run->k->gen;
    memset(out, 0, p->cross_bytes);
    for (uint32_t i = 0; i < p->npay; i++) {
        const gen_payload *e = &p->pay[i];
        uint8_t *d = out + e->offset;
        uint32_t nd = e->size / 4 < 3 ? e->size / 4 : 3;
        switch ((gen_payload_kind)e->kind) {
        case GEN_PAY_GLOBAL_ID_OFFSET:
            for (uint32_t k = 0; k < nd; k++)
                put32(d + 4 * k, (uint32_t)run->offset[k]);
            break;
        case GEN_PAY_LOCAL_SIZE:
            for (uint32_t k = 0; k < nd; k++)
                put32(d + 4 * k, (uint32_t)wg->local_size[k]);
            break;
        case GEN_PAY_ENQUEUED_LOCAL_SIZE:
            for (uint32_t k = 0; k < nd; k++)
                put32(d + 4 * k, (uint32_t)run->local[k]);
            break;
        case GEN_PAY_GLOBAL_SIZE:
            for (uint32_t k = 0; k < nd; k++)
                put32(d + 4 * k, (uint32_t)run->global[k]);
            break;
        case GEN_PAY_GROUP_COUNT:
            for (uint32_t k = 0; k < nd; k++)
                put32(d + 4 * k, (uint32_t)run->num_groups[k]);
            break;
        case GEN_PAY_WORK_DIMENSIONS:
            put32(d, run->dims);
            break;
        case GEN_PAY_BUFFER_ADDRESS: {
            uint64_t a = emu_buffer_base(e->arg);
            memcpy(d, &a, e->size < 8 ? e->size : 8);
            break;
        }
        case GEN_PAY_BUFFER_OFFSET:
            break;
        case GEN_PAY_PRIVATE_BASE:   /* not used by this IGC on tgllp (private
                                      * arrays live in scratch): no buffer */
            break;
        case GEN_PAY_LOCAL_OFFSET: {
            uint64_t a = run->local_arg_offset[e->arg];
            memcpy(d, &a, e->size < 8 ? e->size : 8);
            break;
        }
        case GEN_PAY_BYVALUE: {
            uint64_t v = run->args[e->arg].scalar;
            memcpy(d, &v, e->size < 8 ? e->size : 8);
            break;
        }
        }
    }
}

/* The local IDs of the `size` items of thread sgi at out: x, y, z as
 * 16-bit lanes, each dimension padded to whole GRFs. */
static void local_ids(const emu_run *run, const emu_wg *wg, uint32_t sgi, uint32_t size,
                      uint8_t *out)
{
    const gen_program *p = run->k->gen;
    const uint32_t gb = p->grf_bytes, S = run->width;
    const uint32_t dim_bytes = (S * 2 + gb - 1) / gb * gb;
    for (uint32_t l = 0; l < size && p->local_id_bytes; l++) {
        uint64_t lin = (uint64_t)sgi * S + l;
        uint16_t id[3] = { (uint16_t)(lin % wg->local_size[0]),
                           (uint16_t)(lin / wg->local_size[0] % wg->local_size[1]),
                           (uint16_t)(lin / (wg->local_size[0] * wg->local_size[1])) };
        for (uint32_t d = 0; d < 3; d++)
            if ((d + 1) * dim_bytes <= p->local_id_bytes)
                memcpy(out + d * dim_bytes + 2 * l, &id[d], 2);
    }
}

/* Thread `sgi` of work-group wg: registers cleared, then the payload. */
static void thread_start(emu_run *run, const emu_wg *wg, gen_thread *t, uint32_t sgi,
                         const uint8_t *cross)
{
    const gen_program *p = run->k->gen;
    const uint32_t gb = p->grf_bytes, S = run->width;
    emu_sg *sg = t->sg;
    uint32_t size = sgi + 1 < wg->nsg ? S : wg->items - sgi * S;
    sg->id = sgi;
    sg->state = EMU_SG_RUNNING;
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): emu_gen_run checked the GRF allocation */
    memset(t->grf, 0, t->grf_size);
    memset(t->acc, 0, sizeof t->acc);
    memset(t->flag, 0, sizeof t->flag);
    memset(t->a0, 0, sizeof t->a0);
    memset(t->cr, 0, sizeof t->cr);
    memset(t->sr, 0, sizeof t->sr);
    memset(t->ce, 0, sizeof t->ce);
    memset(t->tm, 0, sizeof t->tm);
    memset(t->nreg, 0, sizeof t->nreg);
    t->dispatch = size >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << size) - 1;
    put32(t->ce, (uint32_t)t->dispatch);
    t->ip = 0;
    t->exec = t->dispatch;
    t->conv = true;
    t->done = false;
    t->blocked = false;
    t->bar_signaled = t->bar_passed = false;
    /* R0: thread group ID X in r0.1, Y in r0.6, Z in r0.7 */
    put32(t->grf + 4, (uint32_t)wg->group_id[0]);
    put32(t->grf + 24, (uint32_t)wg->group_id[1]);
    put32(t->grf + 28, (uint32_t)wg->group_id[2]);
    /* r0.5[31:10]: the thread's scratch space, an offset in the A32
     * stateless space of the work-group's scratch arena */
    put32(t->grf + 20, sgi * gen_scratch_stride(p));
    if (p->loads_payload) {
        /* Xe-HPG+: the code loads its payload from the indirect data (r0.0
         * [31:6], in the A32 stateless space), its own part at r0.4[7:0]
         * times the per-thread size; r1 holds the inline data */
        put32(t->grf, t->indirect);
        put32(t->grf + 16, sgi);
        memcpy(t->grf + gb, cross, p->inline_bytes);
        local_ids(run, wg, sgi, size, t->scratch + t->indirect + p->cross_used -
                  p->inline_bytes + sgi * p->local_id_bytes);
        return;
    }
    /* per-thread payload from r1: local IDs, then the cross-thread data */
    local_ids(run, wg, sgi, size, t->grf + gb + p->local_id_offset);
    uint32_t per_thread = (p->local_id_offset + p->local_id_bytes + gb - 1) / gb * gb;
    memcpy(t->grf + gb + per_thread, cross, p->cross_bytes);
}

/* Run thread t to its end of thread (or a fault). */
static int thread_run(emu_run *run, gen_thread *t)
{
    const gen_program *p = run->k->gen;
    uint64_t n = 0, lanes = 0, slots = 0;
    const uint64_t limit = run->launch->max_instructions;
    int rc = 0;
    t->blocked = false;
    while (!t->done) {
        if (t->ip >= p->ninst) {
            rc = emu_fault(run, SGEMU_EXIT_FAULT, t->sg, UINT32_MAX, UINT32_MAX,
                           "thread ran past the end of the code without an end of thread");
            break;
        }
        if (limit && run->instructions + n >= limit) {
            rc = gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_FAULT,
                           "instruction limit (%" PRIu64 ") reached", limit);
            break;
        }
        if ((n & 4095) == 0 && sgemu_stop_requested()) {
            rc = emu_fault(run, SGEMU_EXIT_INTERRUPTED, t->sg, UINT32_MAX, UINT32_MAX,
                           "interrupted");
            break;
        }
        const gen_inst *in = &p->inst[t->ip];
        if (in->op == GEN_OP_UNKNOWN) {
            rc = gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                           "sgemu does not execute this Gen instruction (docs/gen.md lists "
                           "the supported ones)");
            break;
        }
        if (in->pred == GEN_IGA_PRED_ANYV || in->pred == GEN_IGA_PRED_ALLV ||
            in->pred > GEN_IGA_PRED_ALL32H) {
            rc = gen_fault(run, t, UINT32_MAX, SGEMU_EXIT_USER,
                           "this predicate form is not supported by sgemu");
            break;
        }
        n++;
        lanes += (uint64_t)__builtin_popcountll(gen_channels(t, in, true));
        slots += in->esize;
        const gen_class cls = (gen_class)gen_ops[in->op].cls;
        if (in->op == GEN_OP_SYNC && in->subfunc == GEN_SYNC_BAR) {
            if (t->bar_signaled && !t->bar_passed) {   /* until the scheduler resumes it */
                n--;   /* not executed yet: it runs again when resumed */
                lanes -= (uint64_t)__builtin_popcountll(gen_channels(t, in, true));
                slots -= in->esize;
                t->blocked = true;
                break;
            }
            t->bar_signaled = t->bar_passed = false;
        }
        if (cls == GEN_CLASS_FLOW) {
            rc = gen_exec_flow(run, t, in);
            if (rc)
                break;
            continue;
        }
        rc = cls == GEN_CLASS_SEND ? gen_exec_send(run, t, in) : gen_exec_alu(run, t, in);
        if (rc)
            break;
        if (t->conv) {
            t->ip++;
        } else {
            for (uint32_t c = 0; c < 32; c++)
                if (t->exec >> c & 1)
                    t->pcip[c] = t->ip + 1;
            gen_next_ip(t);
        }
    }
    run->instructions += n;
    run->stats->instructions += n;
    run->stats->lane_ops += lanes;
    run->stats->lane_slots += slots;
    return rc;
}

static void group_of(const emu_run *run, uint64_t lin, uint64_t g[3])
{
    g[0] = lin % run->num_groups[0];
    g[1] = lin / run->num_groups[0] % run->num_groups[1];
    g[2] = lin / (run->num_groups[0] * run->num_groups[1]);
}

/* run->wg points here: it must outlive the run (callers read it after) */
static _Thread_local emu_wg gen_wg;

int emu_gen_run(emu_run *run)
{
    const gen_program *p = run->k->gen;
    if (run->launch->timing || run->launch->record_path)
        return emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                         "timing and kernel traces of Gen kernels are not implemented yet");
    if (run->width != p->simd)
        return emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                         "IGC compiled this kernel for SIMD%u, not %u", p->simd, run->width);
    /* every hardware thread of a work-group at once: they take turns,
     * each running until it ends or waits at a barrier */
    const uint32_t maxt = (uint32_t)((run->local[0] * run->local[1] * run->local[2] +
                                      run->width - 1) / run->width);
    const uint32_t grf_size = p->grf_count * p->grf_bytes;
    gen_thread *th = calloc(maxt, sizeof *th);
    uint8_t *grf = calloc(maxt, grf_size);
    uint8_t *cross = calloc(1, p->cross_bytes + 1);
    /* the A32 stateless space of a work-group: each thread's scratch, then
     * (Xe-HPG+) the indirect data: the cross-thread data after the inline
     * part, then each thread's local IDs */
    const uint32_t indirect = (maxt * gen_scratch_stride(p) + 63) / 64 * 64;
    const uint32_t scratch_size = indirect + (p->loads_payload ? p->cross_used -
                                  p->inline_bytes + maxt * p->local_id_bytes : 0);
    uint8_t *scratch = calloc(1, scratch_size + 1);
    uint32_t per_thread = (p->local_id_offset + p->local_id_bytes + p->grf_bytes - 1) /
                          p->grf_bytes * p->grf_bytes;
    int rc = 0;
    if (!th || !grf || !cross || !scratch) {
        free(th);
        free(grf);
        free(cross);
        free(scratch);
        return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                         "out of host memory");
    }
    gen_barrier bar;
    for (uint32_t i = 0; i < maxt; i++) {
        th[i].grf = grf + (size_t)i * grf_size;
        th[i].grf_size = grf_size;
        th[i].bar = &bar;
        th[i].scratch = scratch;
        th[i].scratch_size = scratch_size;
        th[i].indirect = indirect;
    }
    if (!p->loads_payload && p->grf_bytes + per_thread + p->cross_bytes > grf_size)
        rc = emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                       "the payload (%u bytes) does not fit the %u GRFs",
                       p->grf_bytes + per_thread + p->cross_bytes, p->grf_count);
    emu_wg *wgp = &gen_wg;
    memset(wgp, 0, sizeof *wgp);
    run->wg = wgp;
#define wg (*wgp)
    for (uint64_t w = 0; !rc && w < run->wg_total; w++) {
        group_of(run, w, wg.group_id);
        wg.items = 1;
        for (int d = 0; d < 3; d++) {
            uint64_t left = run->global[d] - wg.group_id[d] * run->local[d];
            wg.local_size[d] = left < run->local[d] ? left : run->local[d];
            wg.items *= (uint32_t)wg.local_size[d];
            wg.gid_base[d] = wg.group_id[d] * run->local[d] + run->offset[d];
        }
        wg.nsg = (wg.items + run->width - 1) / run->width;
        run->stats->subgroups += wg.nsg;
        wg.sg = run->sg_pool;
        wg.local_mem = run->local_pool;
        wg.local_bytes = run->local_total;
        wg.private_mem = run->private_pool;
        memset(wg.local_mem, 0, run->local_total);
        memset(scratch, 0, scratch_size);
        cross_thread(run, &wg, cross);
        if (p->loads_payload)
            memcpy(scratch + indirect, cross + p->inline_bytes, p->cross_used - p->inline_bytes);
        bar = (gen_barrier){ .threads = wg.nsg };
        for (uint32_t i = 0; i < wg.nsg; i++) {
            th[i].sg = &run->sg_pool[i];
            thread_start(run, &wg, &th[i], i, cross);
        }
        for (uint32_t left = wg.nsg; !rc && left;) {
            /* a pass in thread order; when a barrier completes, the next
             * pass resumes its threads from the first, so that after each
             * barrier the threads run in order, as sgemu's own sub-groups */
            bool ran = false;
            const uint32_t gen0 = bar.gen;
            for (uint32_t i = 0; !rc && i < wg.nsg && bar.gen == gen0; i++) {
                gen_thread *t = &th[i];
                if (t->done || (t->blocked && t->bar_gen == bar.gen))
                    continue;
                t->bar_passed = t->blocked;
                ran = true;
                rc = thread_run(run, t);
                if (!rc && t->done) {
                    t->sg->state = EMU_SG_DONE;
                    left--;
                }
            }
            if (!rc && left && !ran) {   /* every thread left waits: some never signal */
                for (uint32_t i = 0; i < wg.nsg; i++)
                    if (!th[i].done) {
                        rc = gen_fault(run, &th[i], UINT32_MAX, SGEMU_EXIT_FAULT,
                                       "barrier: %u of %u hardware threads of the work-group "
                                       "reached it, the others ended", bar.signaled, wg.nsg);
                        break;
                    }
            }
        }
        if (!rc && run->launch->progress)
            atomic_fetch_add_explicit(run->launch->progress, 1, memory_order_relaxed);
    }
#undef wg
    free(th);
    free(grf);
    free(cross);
    free(scratch);
    return rc;
}
