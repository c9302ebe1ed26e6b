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

/* An image argument's field as the compute runtime patches it into the
 * cross-thread data: its size, and the CL_ channel data type and order
 * (the value get_image_channel_data_type / _order return). */
static uint32_t image_field(const emu_run *run, const gen_payload *e)
{
    const sgemu_image *im = &run->args[e->arg].image;
    switch ((gen_payload_kind)e->kind) {
    case GEN_PAY_IMAGE_WIDTH: return im->width;
    case GEN_PAY_IMAGE_HEIGHT: return im->height;
    case GEN_PAY_IMAGE_CHTYPE: return emu_image_query_value(im, false) + 0x10D0;
    case GEN_PAY_IMAGE_ORDER: return emu_image_query_value(im, true) + 0x10B0;
    default: return 1;   /* depth: 1 for a 2D image */
    }
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
        case GEN_PAY_BUFFER_ADDRESS:
        case GEN_PAY_PRINTF_BUFFER: {
            uint64_t a = emu_buffer_base(e->arg);
            memcpy(d, &a, e->size < 8 ? e->size : 8);
            break;
        }
        case GEN_PAY_BUFFER_OFFSET:
            break;
        case GEN_PAY_PRIVATE_BASE: {
            /* private memory in a global buffer (Xe-HPG); elsewhere this
             * IGC keeps private arrays in scratch and no code reads it */
            uint64_t a = p->global_private_bytes ? GEN_PRIVATE_A64 : 0;
            memcpy(d, &a, e->size < 8 ? e->size : 8);
            break;
        }
        case GEN_PAY_LOCAL_OFFSET: {
            uint64_t a = run->local_arg_offset[e->arg];
            memcpy(d, &a, e->size < 8 ? e->size : 8);
            break;
        }
        case GEN_PAY_BYVALUE: {
            /* a scalar, or a piece of a vector's or struct's bytes (their
             * buffer holds at least byval bytes: launch.c checks); IGC
             * passes the padding after a struct's last field as 4-byte
             * pieces at each of its bytes, which run past the end: those
             * get the bytes there are */
            const sgemu_argval *v = &run->args[e->arg];
            uint32_t nb = run->k->args[e->arg].byval;
            if (nb) {
                if (v->data && e->src_offset < nb)
                    memcpy(d, v->data + e->src_offset,
                           e->size < nb - e->src_offset ? e->size : nb - e->src_offset);
            } else {
                memcpy(d, &v->scalar, e->size < 8 ? e->size : 8);
            }
            break;
        }
        case GEN_PAY_IMAGE_WIDTH:
        case GEN_PAY_IMAGE_HEIGHT:
        case GEN_PAY_IMAGE_DEPTH:
        case GEN_PAY_IMAGE_CHTYPE:
        case GEN_PAY_IMAGE_ORDER:
            put32(d, image_field(run, e));
            break;
        case GEN_PAY_SAMPLER_SNAP_WA: {
            /* the compute runtime's value (Sampler::getSnapWaValue): true
             * (all ones) for nearest filtering with CLK_ADDRESS_CLAMP */
            uint32_t smp = (uint32_t)run->args[e->arg].scalar;
            put32(d, (smp & 0x30) == 0x10 && (smp & 0xe) == 0x4 ? UINT32_MAX : 0);
            break;
        }
        case GEN_PAY_SAMPLER_ADDRESS: {
            /* the compute runtime's patch values (GetAddrModeEnum): none 0,
             * clamp 1, clamp to edge 2, repeat 3, mirrored repeat 4; from the
             * OpenCL C bits 0x0, 0x4, 0x2, 0x6, 0x8 */
            static const uint8_t mode[5] = { 0, 2, 1, 3, 4 };
            uint32_t am = (uint32_t)run->args[e->arg].scalar >> 1 & 7;
            put32(d, am < 5 ? mode[am] : 0);
            break;
        }
        case GEN_PAY_SAMPLER_NORMALIZED:
            put32(d, run->args[e->arg].scalar & 1 ? 8 : 0);
            break;
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

/* The per-thread payload's bytes from r1: the local IDs in whole GRFs, and
 * at least one GRF: with no local IDs IGC's code still reads its
 * cross-thread data from r2 (its dump's .inputs, every width, skl and
 * tgllp). */
static uint32_t per_thread_bytes(const gen_program *p)
{
    const uint32_t gb = p->grf_bytes;
    const uint32_t grfs = (p->local_id_offset + p->local_id_bytes + gb - 1) / gb;
    return (grfs ? grfs : 1) * gb;
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
    /* sr0.2 the dispatch mask, sr0.3 the vector mask (the same in compute
     * threads): IGC's ballot masks its flags with sr0.2 in a partial or
     * possibly partial sub-group (EmitVISAPass, HasFullDispatchMask) */
    put32(t->sr + 8, (uint32_t)t->dispatch);
    put32(t->sr + 12, (uint32_t)t->dispatch);
    t->ip = 0;
    t->exec = t->dispatch;
    t->conv = true;
    memset(t->depth, 0, sizeof t->depth);
    t->in_call = false;
    t->done = false;
    t->blocked = false;
    t->slm_access = false;
    t->bar_signaled = t->bar_passed = false;
    /* R0: thread group ID X in r0.1, Y in r0.6, Z in r0.7 */
    put32(t->grf + 4, (uint32_t)wg->group_id[0]);
    put32(t->grf + 24, (uint32_t)wg->group_id[1]);
    put32(t->grf + 28, (uint32_t)wg->group_id[2]);
    /* r0.5[31:10]: the thread's scratch space, an offset in the A32
     * stateless space of the work-group's scratch arena */
    put32(t->grf + 20, sgi * gen_scratch_stride(p));
    /* sr0.0[13:0]: the hardware thread, as IGC's code for Xe-HPG reads it
     * to index private memory in a global buffer: it keeps bits [2:0],
     * [5:4] and [13:7] (dropping 3 and 6) as the thread's slot.  sgemu's
     * slot is the thread's index in its work-group (work-groups run one at
     * a time), spread over those bits; 0 on the other platforms, whose
     * layouts differ (docs/gen.md) */
    if (p->platform == GEN_IGA_XE_HPG)
        put32(t->sr, (sgi & 7u) | (sgi >> 3 & 3u) << 4 | (sgi >> 5) << 7);
    if (p->loads_payload) {
        /* Xe-HPG+: the code loads its payload from the indirect data (r0.0
         * [31:6], in the A32 stateless space), its own part at the thread's
         * index in the work-group, r0.4:uw[7:0] (byte 8 of r0), times the
         * per-thread size; r1 holds the inline data */
        put32(t->grf, t->indirect);
        t->grf[8] = (uint8_t)sgi;
        memcpy(t->grf + gb, cross, p->inline_bytes);
        local_ids(run, wg, sgi, size, t->scratch + t->indirect + p->cross_used -
                  p->inline_bytes + sgi * p->local_id_bytes);
        return;
    }
    /* per-thread payload from r1: local IDs, then the cross-thread data */
    local_ids(run, wg, sgi, size, t->grf + gb + p->local_id_offset);
    memcpy(t->grf + gb + per_thread_bytes(p), cross, p->cross_bytes);
}

/* The record of instruction `in` (executed channels ch, over its own
 * channels) in the thread's stream; a send's addresses follow through
 * gen_rec_addr while it executes. */
static int record(emu_run *run, gen_thread *t, const gen_inst *in, uint64_t ch)
{
    emu_rec *r = emu_trace_push(t->tr, t->sg->id, t->ip);
    if (!r)
        return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                         "out of host memory for the timing records");
    r->mask = ch << in->choff;
    t->rec_open = gen_ops[in->op].cls == GEN_CLASS_SEND;
    t->rec_lane = UINT32_MAX;
    return 0;
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
        /* a turn ends after a quantum, so that a thread spinning on a store
         * of another thread of its work-group lets that one run (independent
         * forward progress, as sgemu's own sub-groups: docs/architecture.md) */
        if (n >= EMU_SG_QUANTUM)
            break;
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
        const gen_class cls = (gen_class)gen_ops[in->op].cls;
        /* the barrier wait: sync.bar, or Gen9's wait on n0 */
        if ((in->op == GEN_OP_SYNC && in->subfunc == GEN_SYNC_BAR) || in->op == GEN_OP_WAIT) {
            if (t->bar_signaled && !t->bar_passed) {   /* until the scheduler resumes it */
                t->blocked = true;   /* not executed yet: it runs again when resumed */
                break;
            }
            t->bar_signaled = t->bar_passed = false;
        }
        const uint64_t ch = gen_channels(t, in, true);
        n++;
        lanes += (uint64_t)__builtin_popcountll(ch);
        slots += in->esize;
        if (t->tr && (rc = record(run, t, in, ch)))
            break;
        if (cls == GEN_CLASS_FLOW) {
            rc = gen_exec_flow(run, t, in);
            if (rc)
                break;
            continue;
        }
        rc = cls == GEN_CLASS_SEND ? gen_exec_send(run, t, in) : gen_exec_alu(run, t, in);
        t->rec_open = false;
        if (!rc && t->rec_oom)
            rc = emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                           "out of host memory for the timing records");
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
        /* a turn also ends after each message that reached SLM, so that
         * the threads of a work-group reach their shared memory in step, as
         * the hardware's run at once: IGC's code for consecutive
         * work-group functions reads a result from SLM after a barrier
         * that another thread's next collective overwrites without one
         * (docs/gen.md, "Execution model") */
        if (t->slm_access) {
            t->slm_access = false;
            break;
        }
    }
    run->instructions += n;
    run->stats->instructions += n;
    run->stats->lane_ops += lanes;
    run->stats->lane_slots += slots;
    return rc;
}

/* run->wg points here: it must outlive the run (callers read it after) */
static _Thread_local emu_wg gen_wg;

/* The host state of one work-group's threads, reused from one work-group
 * to the next. */
typedef struct gen_state {
    gen_thread *th;
    uint8_t *grf, *cross, *scratch;
    uint32_t maxt, scratch_size;
    uint32_t indirect;     /* Xe-HPG+: the indirect data's offset in scratch */
    uint32_t gprivate;     /* private memory in a global buffer: its offset */
    gen_barrier bar[GEN_MAX_BARRIERS];
    uint32_t bar_done;     /* barrier completions in the work-group */
} gen_state;

static void state_free(gen_state *s)
{
    free(s->th);
    free(s->grf);
    free(s->cross);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

static int state_init(emu_run *run, gen_state *s)
{
    const gen_program *p = run->k->gen;
    memset(s, 0, sizeof *s);
    /* every hardware thread of a work-group at once: they take turns,
     * each running until it ends, waits at a barrier or has run a quantum */
    s->maxt = (uint32_t)((run->local[0] * run->local[1] * run->local[2] + run->width - 1) /
                         run->width);
    const uint32_t grf_size = p->grf_count * p->grf_bytes;
    s->th = calloc(s->maxt, sizeof *s->th);
    s->grf = calloc(s->maxt, grf_size);
    s->cross = calloc(1, p->cross_bytes + 1);
    /* the A32 stateless space of a work-group: each thread's scratch, then
     * (Xe-HPG+) the indirect data: the cross-thread data after the inline
     * part, then each thread's local IDs */
    s->indirect = (s->maxt * gen_scratch_stride(p) + 63) / 64 * 64;
    s->scratch_size = s->indirect + (p->loads_payload ? p->cross_used - p->inline_bytes +
                                     s->maxt * p->local_id_bytes : 0);
    /* then the private memory in a global buffer: each thread's slot of
     * global_private_bytes a work-item (or a thread) */
    s->gprivate = (s->scratch_size + 63) / 64 * 64;
    if (p->global_private_bytes)
        s->scratch_size = s->gprivate + s->maxt * p->global_private_bytes *
                                        (p->global_private_per_item ? run->width : 1);
    s->scratch = calloc(1, s->scratch_size + 1);
    if (!s->th || !s->grf || !s->cross || !s->scratch) {
        state_free(s);
        emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX, "out of host memory");
        return SGEMU_EXIT_INTERNAL;
    }
    for (uint32_t i = 0; i < s->maxt; i++) {
        s->th[i].grf = s->grf + (size_t)i * grf_size;
        s->th[i].grf_size = grf_size;
        s->th[i].bar = &s->bar[0];
        s->th[i].bars = s->bar;
        s->th[i].bar_done = &s->bar_done;
        s->th[i].scratch = s->scratch;
        s->th[i].scratch_size = s->scratch_size;
        s->th[i].indirect = s->indirect;
        s->th[i].gprivate = s->gprivate;
    }
    uint32_t per_thread = per_thread_bytes(p);
    if (!p->loads_payload && p->grf_bytes + per_thread + p->cross_bytes > grf_size) {
        state_free(s);
        emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                  "the payload (%u bytes) does not fit the %u GRFs",
                  p->grf_bytes + per_thread + p->cross_bytes, p->grf_count);
        return SGEMU_EXIT_USER;
    }
    return 0;
}

/* Work-group w, its records into tr when timed (NULL: untimed). */
static int run_wg(emu_run *run, gen_state *s, uint64_t w, emu_wg_trace *tr)
{
    const gen_program *p = run->k->gen;
    emu_wg *wg = &gen_wg;
    memset(wg, 0, sizeof *wg);
    run->wg = wg;
    emu_wg_place(run, w, wg);
    run->stats->subgroups += wg->nsg;
    wg->sg = run->sg_pool;
    wg->local_mem = run->local_pool;
    wg->local_bytes = run->local_total;
    wg->private_mem = run->private_pool;
    memset(wg->local_mem, 0, run->local_total);
    memset(s->scratch, 0, s->scratch_size);
    cross_thread(run, wg, s->cross);
    if (p->loads_payload)
        memcpy(s->scratch + s->indirect, s->cross + p->inline_bytes,
               p->cross_used - p->inline_bytes);
    memset(s->bar, 0, sizeof s->bar);
    s->bar[0].threads = wg->nsg;
    s->bar_done = 0;
    if (tr) {
        emu_trace_reset(tr, wg->nsg, &run->trace_hint);
        tr->wg_linear = w;
    }
    for (uint32_t i = 0; i < wg->nsg; i++) {
        gen_thread *t = &s->th[i];
        t->sg = &run->sg_pool[i];
        t->tr = tr;
        t->rec_open = t->rec_oom = false;
        t->scratch_flat = w * s->scratch_size;
        thread_start(run, wg, t, i, s->cross);
        if (tr && i < 64)
            tr->sg_size[i] = i + 1 < wg->nsg ? run->width : wg->items - i * run->width;
    }
    int rc = 0;
    for (uint32_t left = wg->nsg; !rc && left;) {
        /* a pass in thread order; when a barrier completes, the next
         * pass resumes its threads from the first, so that after each
         * barrier the threads run in order, as sgemu's own sub-groups */
        bool ran = false;
        const uint32_t done0 = s->bar_done;
        for (uint32_t i = 0; !rc && i < wg->nsg && s->bar_done == done0; i++) {
            gen_thread *t = &s->th[i];
            if (t->done || (t->blocked && t->bar_gen == t->bar->gen))
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
            for (uint32_t i = 0; i < wg->nsg; i++)
                if (!s->th[i].done) {
                    rc = gen_fault(run, &s->th[i], UINT32_MAX, SGEMU_EXIT_FAULT,
                                   "barrier %u: %u of the %u hardware threads it waits for "
                                   "reached it, the others ended or wait elsewhere",
                                   (uint32_t)(s->th[i].bar - s->bar), s->th[i].bar->signaled,
                                   s->th[i].bar->threads);
                    break;
                }
        }
    }
    if (!rc && tr)
        emu_trace_note(&run->trace_hint, tr);
    if (!rc && run->launch->progress)
        atomic_fetch_add_explicit(run->launch->progress, 1, memory_order_relaxed);
    return rc;
}

typedef struct gen_timed {
    emu_run *run;
    gen_state *s;
} gen_timed;

/* The timing model pulls the work-groups in order (tm_next_wg_fn). */
static int pull_wg(void *user, uint64_t w, emu_wg_trace *out)
{
    gen_timed *g = user;
    return run_wg(g->run, g->s, w, out);
}

/* A timed run: the timing model owns the loop (as emu_timing_run for
 * sgemu's ISA) and reads the program through one tm_op per instruction. */
static int timed_run(emu_run *run, gen_state *s)
{
    const gen_program *p = run->k->gen;
    sgemu_timing *t = calloc(1, sizeof *t);
    tm_op *ops = NULL;
    if (!t || gen_timing_ops(p, &ops)) {
        free(t);
        return emu_fault(run, SGEMU_EXIT_INTERNAL, NULL, UINT32_MAX, UINT32_MAX,
                         "out of host memory");
    }
    run->stats->timing = t;
    gen_timed g = { run, s };
    tm_launch L = {
        .k = run->k, .ops = ops, .nops = p->ninst, .nslots = gen_timing_slots(p),
        .cfg = run->cfg, .width = run->width,
        .wg_items = (uint32_t)(run->local[0] * run->local[1] * run->local[2]),
        .local_bytes = run->local_total, .wg_total = run->wg_total,
        .next_wg = pull_wg, .user = &g,
        .trace_path = run->launch->trace_path, .trace_limit = run->launch->trace_limit,
    };
    tm_carry carry;
    L.carry = emu_timing_carry(run, &carry);
    char msg[512] = "";
    int rc = tm_run(&L, t, msg, sizeof msg);
    t->inst_text = (const char *const *)p->text;
    free(ops);
    if (rc && !run->fault->code) {
        snprintf(run->fault->msg, sizeof run->fault->msg, "%s", msg);
        run->fault->code = rc;
    }
    return rc ? run->fault->code : 0;
}

uint32_t emu_gen_printf_arg(const isa_kernel *k)
{
    return k->gen ? k->gen->printf_arg : 0;
}

int emu_gen_run(emu_run *run)
{
    const gen_program *p = run->k->gen;
    if (run->launch->record_path)
        return emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                         "kernel traces (--record) of Gen kernels are not implemented");
    if (run->width != p->simd)
        return emu_fault(run, SGEMU_EXIT_USER, NULL, UINT32_MAX, UINT32_MAX,
                         "IGC compiled this kernel for SIMD%u, not %u", p->simd, run->width);
    gen_state s;
    int rc = state_init(run, &s);
    if (rc)
        return rc;
    if (run->launch->timing)
        rc = timed_run(run, &s);
    else
        for (uint64_t w = 0; !rc && w < run->wg_total; w++)
            rc = run_wg(run, &s, w, NULL);
    state_free(&s);
    return rc;
}
