/* timing_dispatch.c - starting a work-group on a compute unit: its
 * threads' slots, ages and scan entries, and the lanes of its records. */
#include "timing_private.h"

/* Slot t got the newest age: move it to the end of its scheduler's
 * dispatched slots (tm_smask.ndisp; its index in the order is its rank).
 * Only the wait lists read the order. */
static void age_order_last(const tm_model *m, tm_cu *c, uint32_t t)
{
    if (!c->sm)
        return;
    uint32_t s = m->t_sched[t], pos = m->t_pos[t], f = m->s_first[s];
    tm_smask *q = &c->sm[s];
    uint32_t *o = c->ord + f;
    uint64_t *oe = c->oe + f;
    uint32_t i = c->rank[pos] - f;
    uint32_t end = i >= q->ndisp ? q->ndisp++ : q->ndisp - 1;
    if (i == end)
        return;
    uint64_t e = oe[i];
    if (i > end) {
        /* a slot's first thread: the ranks from end up to it are slots
         * never dispatched (no bit in any mask), which move up one */
        for (; i > end; i--) {
            o[i] = o[i - 1];
            oe[i] = oe[i - 1];
            c->rank[o[i]] = f + i;
        }
    } else {
        tm_sm_rank_to_end(q, i, end + 1);
        for (; i < end; i++) {
            o[i] = o[i + 1];
            oe[i] = oe[i + 1];
            c->rank[o[i]] = f + i;
        }
    }
    o[end] = pos;
    oe[end] = e;
    c->rank[pos] = f + end;
}

/* Every record of a started work-group issues once, so its pc's count is
 * added at issue (next to the stall and cycle sums it updates anyway) and
 * the lanes here, in one pass over its records.  Most records run every
 * lane: the merge adds count * width for all, so only the others are
 * looked at, each taking off the lanes it lacks (a per-pc sum may go below
 * zero until then: unsigned, it wraps, and the merge's addition brings it
 * back exactly). */
static void count_wg(tm_model *m, uint32_t ci, const tm_wgslot *w)
{
    const emu_wg_trace *tr = &w->tr;
    sgemu_timing *st = m->st;
    tm_line_stats *pi = m->cu[ci].per_inst;
    const uint64_t width = m->L->width;
    const uint64_t full = width >= 64 ? ~0ull : (1ull << width) - 1;
    uint64_t n = 0, lacking = 0;
    for (uint32_t i = 0; i < tr->nsg; i++) {
        const emu_rec *r = tr->sg[i].recs;
        n += tr->sg[i].n;
        for (uint32_t j = 0; j < tr->sg[i].n; j++)
            if (r[j].mask != full) {
                uint64_t d = width - popcount64(r[j].mask);
                pi[r[j].pc].lanes -= d;
                lacking += d;
            }
    }
    st->instructions += n;
    st->lane_ops += n * width - lacking;
    st->lane_slots += n * width;
    st->cu_issued[ci] += n;
}

/* The CU's launcher (docs/timing-model.md, Launch): a work-group whose
 * resources are free at t starts at t0 = max(t, when the launcher is free);
 * its subgroup i starts at t0 + i x launch_subgroup_interval, and the
 * launcher is busy until t0 + max(launch_work_group_interval, subgroups x
 * launch_subgroup_interval).  Both 0: t0 = t, every subgroup at t. */
static uint64_t launch_wg(const tm_model *m, tm_cu *c, uint32_t nsg, uint64_t t)
{
    const uint64_t wi = m->tc->launch_wg_interval, si = m->tc->launch_sg_interval;
    if (!wi && !si)
        return t;
    uint64_t t0 = max64(t, c->launch_free);
    c->launch_free = t0 + max64(wi, (uint64_t)nsg * si);
    return t0;
}

/* The first subgroup to start on the CU fetches the kernel arguments; none
 * issues before they are there (every later start is at or after it). */
static uint64_t args_ready(const tm_model *m, tm_cu *c, uint64_t t0)
{
    if (!m->tc->kernel_args_latency)
        return 0;
    if (!c->args_ready)
        c->args_ready = t0 + m->tc->kernel_args_latency;
    return c->args_ready;
}

void tm_start_wg(tm_model *m, uint32_t ci, uint32_t slot, uint64_t t)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[slot];
    uint64_t lin = m->wg_next++;
    if (m->err)
        return;
    int rc = m->L->next_wg(m->L->user, lin, &w->tr);
    if (rc) {
        m->err = rc;
        return;
    }
    t = launch_wg(m, c, w->tr.nsg, t);
    const uint64_t si = m->tc->launch_sg_interval, args = args_ready(m, c, t);
    count_wg(m, ci, w);
    w->used = true;
    w->wg_linear = lin;
    w->nsg = w->tr.nsg;
    w->left = w->nsg;
    w->atlast = 0;
    w->arrived = 0;
    w->start = t;
    w->done = t;
    if (c->resident == 0 && c->first_start == TM_NEVER)
        c->first_start = t;
    c->resident += w->nsg;
    if (m->tracing)
        tm_trace_counter(&m->trace, "resident threads", ci, t, "threads", c->resident);
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[slot * m->sgs + i];
        th->state = TH_RUN;
        th->in_uops = false;
        th->wg = slot;
        th->sg = i;
        th->cur = 0;
        th->recs = w->tr.sg[i].recs;
        th->pcs = w->tr.sg[i].pcs;
        th->nrec = w->tr.sg[i].n;
        th->dep_ok = false;
        set_ti(m, c, th);
        uint64_t ts = max64(t + i * si, args);   /* its first issue */
        th->next_issue = ts;
        th->age = m->age++;
        age_order_last(m, c, slot * m->sgs + i);
        th->last_done = ts;
        for (uint32_t s = 0; s < m->nslot_regs; s++) {
            th->ready[s] = t;
            th->rmem[s] = 0;
        }
        tm_sync_thread(m, c, slot * m->sgs + i);
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_lower_snext(c, m->t_sched[slot * m->sgs + i], c->th[slot * m->sgs + i].next_issue);
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[slot * m->sgs + i];
        if (w->tr.sg[i].n == 0)
            tm_finish_thread(m, ci, th);
    }
    if (max64(t, args) < c->next_time)
        c->next_time = max64(t, args);   /* subgroup 0's first issue */
}
