/* timing_core.c - the timing model of a launch: work-group dispatch to
 * compute units, execution units (EUs) inside each compute unit with their
 * own schedulers (timing_sched.c) and pipes, a scoreboard per thread, pipes
 * as units with a "free at" time, barriers as rendezvous (timing_issue.c).
 * This file builds the model and runs its loop: compute units are stepped
 * in time order (lowest next-issue time, then lowest index, kept in a
 * heap, or up to 64 CUs in a wheel of bit masks), so shared L2/DRAM ports see requests in time order and the result
 * is deterministic (on several host threads too: timing_threads.c). */
#include "timing_private.h"

#include <stdlib.h>
#include <string.h>

const char *const tm_stall_names[TM_STALL_COUNT] = {
#define X(E, n) n,
    TM_STALLS(X)
#undef X
};

/* ---- the CU heap: ordered by (next_time, index) ---- */
static inline bool hent_less(tm_hent a, tm_hent b)
{
    return a.t < b.t || (a.t == b.t && a.ci < b.ci);
}

/* Sift entry i down (its key may have grown): the hole moves down to where
 * the entry belongs, one copy per level instead of a swap. */
static void heap_down(tm_model *m, uint32_t i)
{
    tm_hent *h = m->heap, x = h[i];
    const uint32_t n = m->ncu;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && hent_less(h[c + 1], h[c]))
            c++;
        if (!hent_less(h[c], x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* ---- up to 64 CUs: a wheel (timing_wheel.h) instead of the heap ----
 * base is the time of the last CU taken, so no CU waits below it; the
 * lowest slot from base and its lowest CU give the lowest (next_time,
 * index), as the heap does, in a few mask operations instead of a sift
 * over log2(CUs) levels.  A CU's next_time changes only in its own step,
 * between its take and its put. */
static tm_wheel_keys cu_keys(const tm_model *m)
{
    _Static_assert(sizeof(tm_cu) % sizeof(uint64_t) == 0, "tm_cu is a whole number of uint64_t");
    return (tm_wheel_keys){ &m->cu[0].next_time, sizeof(tm_cu) / sizeof(uint64_t) };
}

static void cu_wheel_put(tm_wheel *w, const tm_model *m, uint32_t ci)
{
    uint64_t t = m->cu[ci].next_time;
    if (__builtin_expect(t < w->base, 0))
        tm_wheel_refile(w, cu_keys(m), 1ull << ci, t);
    else
        tm_wheel_put(w, ci, t);
}

/* Static placement: slot t runs on EU t mod E (EUs fill round-robin) and on
 * that EU's scheduler (t / E) mod schedulers-per-EU. */
static int placement_alloc(tm_model *m)
{
    m->t_eu = calloc(m->slots, sizeof *m->t_eu);
    m->t_sched = calloc(m->slots, sizeof *m->t_sched);
    m->s_first = calloc(m->nsched + 1, sizeof *m->s_first);
    m->s_list = calloc(m->slots, sizeof *m->s_list);
    m->t_pos = calloc(m->slots, sizeof *m->t_pos);
    m->s_eu_off = calloc(m->nsched, sizeof *m->s_eu_off);
    if (!m->s_eu_off)
        return -1;
    if (!m->t_eu || !m->t_sched || !m->s_first || !m->s_list || !m->t_pos)
        return -1;
    for (uint32_t t = 0; t < m->slots; t++) {
        m->t_eu[t] = t % m->neu;
        m->t_sched[t] = m->t_eu[t] * m->spe + (t / m->neu) % m->spe;
        m->s_first[m->t_sched[t] + 1]++;
    }
    for (uint32_t s = 0; s < m->nsched; s++) {
        if (m->s_first[s + 1] > m->sched_most)
            m->sched_most = m->s_first[s + 1];
        m->s_first[s + 1] += m->s_first[s];
    }
    uint32_t *fill = calloc(m->nsched, sizeof *fill);
    if (!fill)
        return -1;
    for (uint32_t t = 0; t < m->slots; t++) {
        uint32_t s = m->t_sched[t];
        m->t_pos[t] = m->s_first[s] + fill[s];
        m->s_list[m->s_first[s] + fill[s]++] = t;
    }
    free(fill);
    /* units in pipe order, but int's alternate right before int: an
     * integer add's unit set spans both, the alternate's first (a tie
     * goes to the alternate, leaving int to what only int runs) */
    tm_pipe alt = tm_int_alternate_pipe(m->tc);
    m->unit_total = 0;
    uint32_t order[TM_PIPE_COUNT], n = 0;
    for (uint32_t p = 0; p < TM_PIPE_COUNT; p++) {
        if (p == TM_PIPE_INT && alt != TM_PIPE_COUNT)
            order[n++] = alt;
        if (p != alt)
            order[n++] = p;
    }
    for (uint32_t i = 0; i < TM_PIPE_COUNT; i++) {
        uint32_t p = order[i];
        uint32_t u = m->tc->pipe[p].units ? m->tc->pipe[p].units : 1;
        m->unit_off[p] = m->unit_total;
        m->unit_n[p] = u;
        m->unitset[p] = m->unit_total | u << 16;
        m->pipe_ii[p] = m->tc->pipe[p].ii ? m->tc->pipe[p].ii : 1;
        m->unit_total += u;
    }
    m->unitset[TM_PIPE_INT_EITHER] = alt == TM_PIPE_COUNT ? m->unitset[TM_PIPE_INT]
        : m->unit_off[alt] | (m->unit_n[alt] + m->unit_n[TM_PIPE_INT]) << 16;
    for (uint32_t s = 0; s < m->nsched; s++)
        m->s_eu_off[s] = (size_t)(s / m->spe) * m->unit_total;
    return 0;
}

/* How many slots of r lie below the slot count. */
static uint16_t slots_below(tm_range r, uint32_t nslots)
{
    uint32_t end = (uint32_t)r.first + r.n;
    if (end > nslots)
        end = nslots;
    return (uint16_t)(end > r.first ? end - r.first : 0);
}

/* Per instruction, what the issue path reads instead of recomputing: the
 * flat source list compute_dep walks (same slots, same order), its pipe's
 * unit set, whether it may touch shared state.  After spill_plan and
 * placement_alloc. */
static void prepare_insts(tm_model *m)
{
    m->xlat = m->tc->cross_unit_latency;
    for (uint32_t pc = 0; pc < tm_ninst(m->L); pc++) {
        tm_inst *ti = &m->inst[pc];
        ti->upipe = !ti->has_pipe ? TM_PIPE_COUNT : ti->int_either ? TM_PIPE_INT_EITHER : ti->pipe;
        ti->xtag = tm_inst_xtag(ti);
        ti->unitset = ti->has_pipe ? m->unitset[ti->upipe] : UINT32_MAX;
        ti->shared = tm_inst_shared(ti, m->tc);
        uint32_t n = 0;
        for (uint32_t i = 0; i < ti->nsrc && n != TM_FLAT_NONE; i++)
            for (uint32_t j = 0; j < ti->src[i].n; j++) {
                uint32_t s = ti->src[i].first + j;
                if (s >= m->nslot_regs)
                    continue;
                if (n == TM_MAX_FLAT) {
                    n = TM_FLAT_NONE;
                    break;
                }
                ti->flat[n++] = (uint16_t)s;
            }
        ti->nflat = (uint8_t)n;
        uint32_t ii = m->pipe_ii[ti->pipe];
        /* a branch on the branch pipe issues as an ALU instruction does,
         * less the results and plus the fetch (issue_alu) */
        bool branch = ti->kind == TM_K_BRANCH && ti->pipe == TM_PIPE_BRANCH;
        ti->alu_fast = (ti->kind == TM_K_ALU || branch) && !ti->fills && !ti->spills &&
                       ti->has_pipe && ti->passes >= 1;
        ti->occ = (uint32_t)ti->passes * ii;
        ti->lat = m->tc->pipe[ti->pipe].latency + (uint32_t)(ti->passes ? ti->passes - 1 : 0) * ii;
        ti->ndst = slots_below(ti->dst, m->nslot_regs);
        ti->nxdst = slots_below(ti->xdst, m->nslot_regs);
        ti->nsrcrd = slots_below(ti->srcrd, m->nslot_regs);
        if (ti->nsrcrd)
            ti->alu_fast = false;   /* issue_alu writes no srcrd */
        if (branch && (ti->ndst || ti->nxdst))
            ti->alu_fast = false;   /* tm_issue writes no branch result */
    }
}

static int model_alloc(tm_model *m)
{
    const isa_kernel *k = m->L->k;
    const uint32_t ninst = tm_ninst(m->L);
    m->nslot_regs = m->L->ops ? m->L->nslots : k->nreg + k->npred;
    m->inst = calloc(ninst ? ninst : 1, sizeof *m->inst);
    /* whole cache lines per CU: a step reads the first few of one */
    m->cu = aligned_alloc(64, (size_t)m->ncu * sizeof *m->cu);
    if (m->cu)
        memset(m->cu, 0, (size_t)m->ncu * sizeof *m->cu);
    m->st->per_inst = calloc(ninst ? ninst : 1, sizeof *m->st->per_inst);
    m->st->cu_busy_cycles = calloc(m->ncu, sizeof *m->st->cu_busy_cycles);
    m->st->cu_issued = calloc(m->ncu, sizeof *m->st->cu_issued);
    if (!m->inst || !m->cu || !m->st->per_inst || !m->st->cu_busy_cycles || !m->st->cu_issued)
        return -1;
    if (m->L->ops)
        tm_inst_from_ops(m->L->ops, ninst, m->L->cfg, m->inst);
    else
        tm_inst_build(k, m->L->cfg, m->L->width, m->inst);
    tm_spill_plan(m);
    if (placement_alloc(m))
        return -1;
    prepare_insts(m);
    /* only micro-ops and spill traffic book a unit ahead of the issue
     * (tm_unit_hold): without them no unit holds a stretch */
    bool ahead = false;
    for (uint32_t pc = 0; pc < ninst && !ahead; pc++)
        ahead = m->inst[pc].kind == TM_K_UOPS || m->inst[pc].kind == TM_K_UOPS_WG ||
                m->inst[pc].fills || m->inst[pc].spills;
    m->heap = calloc(m->ncu, sizeof *m->heap);
    if (!m->heap)
        return -1;
    uint32_t regs = m->nslot_regs ? m->nslot_regs : 1;
    bool wait_lists = m->tc->policy == TM_POLICY_OLDEST && m->tc->issue_width <= 8 && m->sched_most <= 64;
    for (uint32_t i = 0; i < m->ncu; i++) {
        tm_cu *c = &m->cu[i];
        /* whole cache lines per thread: a thread's hot fields share one */
        c->th = aligned_alloc(64, ((size_t)m->slots * sizeof *c->th + 63) / 64 * 64);
        if (c->th)
            memset(c->th, 0, (size_t)m->slots * sizeof *c->th);
        c->wg = calloc(m->wgs_per_cu, sizeof *c->wg);
        c->pfree = calloc((size_t)m->neu * m->unit_total, sizeof *c->pfree);
        if (ahead) {
            c->ures = malloc((size_t)m->neu * m->unit_total * sizeof *c->ures);
            c->resh = calloc((size_t)m->neu * m->unit_total, sizeof *c->resh);
            c->resu = calloc((size_t)m->neu * m->unit_total, sizeof *c->resu);
        }
        c->rr = calloc(m->nsched, sizeof *c->rr);
        c->greedy = malloc(m->nsched * sizeof *c->greedy);
        if (c->greedy)
            for (uint32_t s = 0; s < m->nsched; s++)
                c->greedy[s] = UINT64_MAX;     /* none issued yet */
        c->snext = calloc(m->nsched, sizeof *c->snext);
        c->own = calloc(m->slots, sizeof *c->own);
        c->ecache = calloc(m->slots, sizeof *c->ecache);
        c->unit = calloc(m->slots, sizeof *c->unit);
        c->qage = calloc(m->slots, sizeof *c->qage);
        c->ord = calloc(m->slots, sizeof *c->ord);
        c->rank = calloc(m->slots, sizeof *c->rank);
        c->oe = calloc(m->slots, sizeof *c->oe);
        c->shared = calloc(m->slots, sizeof *c->shared);
        c->cand = calloc(m->slots, sizeof *c->cand);
        if (wait_lists) {
            /* not cleared whole: the loop below sets every field but
             * rpipe, which is read only for ranks in run */
            c->sm = aligned_alloc(64, (size_t)m->nsched * sizeof *c->sm);
            if (!c->sm)
                return -1;
        }
        c->barq = calloc(m->slots, sizeof *c->barq);
        c->per_inst = calloc(ninst ? ninst : 1, sizeof *c->per_inst);
        c->picked = UINT32_MAX;
        c->next_time = TM_NEVER;
        tm_wheel_reset(&c->sw, 0);
        c->first_start = TM_NEVER;
        if (!c->th || !c->wg || !c->pfree || (ahead && (!c->ures || !c->resh || !c->resu)) || !c->rr || !c->snext || !c->own || !c->ecache || !c->unit ||
            !c->greedy || !c->qage || !c->ord ||
            !c->rank || !c->oe || !c->shared || !c->cand || !c->barq || !c->per_inst)
            return -1;
        for (uint32_t s = 0; c->sm && s < m->nsched; s++) {
            c->sm[s].run = c->sm[s].ready = 0;
            for (uint32_t p = 0; p < TM_PIPE_SLOTS; p++)
                c->sm[s].pm[p] = 0;
            c->sm[s].ndisp = 0;
            c->sm[s].lmin = TM_NEVER;
            c->sm[s].first = m->s_first[s];
            c->sm[s].eu = c->pfree + m->s_eu_off[s];
            c->sm[s].oe = c->oe + m->s_first[s];
        }
        for (uint32_t t = 0; t < m->slots; t++) {
            c->own[t] = c->ecache[t] = c->oe[t] = TM_NEVER;
            c->ord[t] = t;
            c->rank[t] = t;
        }
        for (uint32_t s = 0; s < m->nsched; s++)
            c->snext[s] = TM_NEVER;
        /* one block per CU: two allocations per slot were most of the
         * set-up's calls to the allocator.  Not cleared: a slot's
         * scoreboard is written whole when a thread starts in it
         * (tm_start_wg), before anything reads it */
        uint64_t *ready = m->slots ? malloc((size_t)m->slots * regs * sizeof *ready) : NULL;
        uint8_t *rmem = m->slots ? malloc((size_t)m->slots * regs) : NULL;
        if (m->slots) {
            c->th[0].ready = ready;     /* slot 0 holds the blocks (model_free) */
            c->th[0].rmem = rmem;
            if (!ready || !rmem)
                return -1;
        }
        for (uint32_t t = 0; t < m->slots; t++) {
            c->th[t].ready = ready + (size_t)t * regs;
            c->th[t].rmem = rmem + (size_t)t * regs;
            c->th[t].eu_units = c->pfree + (size_t)m->t_eu[t] * m->unit_total;
        }
        for (uint32_t w = 0; w < m->wgs_per_cu; w++)
            if (emu_trace_init(&c->wg[w].tr, m->sgs))
                return -1;
    }
    return tm_mem_init(&m->mem, m->tc, m->ncu, m->st);
}

static void model_free(tm_model *m)
{
    if (m->cu)
        for (uint32_t i = 0; i < m->ncu; i++) {
            tm_cu *c = &m->cu[i];
            if (c->th && m->slots) {
                free(c->th[0].ready);
                free(c->th[0].rmem);
            }
            if (c->wg)
                for (uint32_t w = 0; w < m->wgs_per_cu; w++)
                    emu_trace_free(&c->wg[w].tr);
            free(c->th);
            free(c->wg);
            free(c->pfree);
            free(c->ures);
            free(c->resh);
            free(c->resu);
            free(c->rr);
            free(c->greedy);
            free(c->snext);
            free(c->own);
            free(c->ecache);
            free(c->unit);
            free(c->qage);
            free(c->ord);
            free(c->rank);
            free(c->oe);
            free(c->shared);
            free(c->cand);
            free(c->sm);
            free(c->barq);
            free(c->useq);
            if (i == 0 || !m->one_per_inst)
                free(c->per_inst);
        }
    free(m->cu);
    free(m->inst);
    free(m->t_eu);
    free(m->t_sched);
    free(m->s_first);
    free(m->s_list);
    free(m->t_pos);
    free(m->s_eu_off);
    free(m->heap);
    free(m->pub);
    tm_mem_free(&m->mem);
}

void tm_timing_free(sgemu_timing *t)
{
    free(t->cu_busy_cycles);
    free(t->cu_issued);
    free(t->per_inst);
    t->cu_busy_cycles = t->cu_issued = NULL;
    t->per_inst = NULL;
}

/* Memory traffic in the Chrome trace: the bytes requested per level since
 * the window starting at *win, emitted at *win when time reaches now; an
 * idle gap gets a zero sample so the counter drops. */
static void traffic_sample(tm_model *m, uint64_t *win, uint64_t *sent, uint64_t now)
{
    uint64_t d[TM_LEVEL_COUNT];
    for (int l = 0; l < TM_LEVEL_COUNT; l++) {
        uint64_t b = l == TM_LEVEL_LOCAL ? tm_mem_local_bytes(&m->mem) : m->st->bytes[l];
        d[l] = b - sent[l];
        sent[l] = b;
    }
    tm_trace_traffic(&m->trace, m->ncu, *win, d);
    uint64_t next = *win + TM_TRACE_TRAFFIC_PERIOD;
    if (now == TM_NEVER) {
        *win = next;
        return;
    }
    if (now >= next + TM_TRACE_TRAFFIC_PERIOD) {
        uint64_t z[TM_LEVEL_COUNT] = { 0 };
        tm_trace_traffic(&m->trace, m->ncu, next, z);
    }
    *win = now / TM_TRACE_TRAFFIC_PERIOD * TM_TRACE_TRAFFIC_PERIOD;
}

/* The per-CU statistics into the run's, in CU order. */
static void merge_cu_stats(tm_model *m)
{
    sgemu_timing *st = m->st;
    tm_mem_fold(&m->mem);
    for (uint32_t ci = 0; m->cu && ci < m->ncu; ci++) {
        const tm_cu *c = &m->cu[ci];
        for (int i = 0; i < TM_STALL_COUNT; i++)
            st->stall[i] += c->stall[i];
        bool merged = m->one_per_inst && ci > 0;   /* added with CU 0's */
        for (uint32_t pc = 0; !merged && c->per_inst && st->per_inst && pc < tm_ninst(m->L);
             pc++) {
            st->per_inst[pc].count += c->per_inst[pc].count;
            st->per_inst[pc].lanes += c->per_inst[pc].lanes + c->per_inst[pc].count * m->L->width;
            st->per_inst[pc].cycles += c->per_inst[pc].cycles;
            st->per_inst[pc].stalls += c->per_inst[pc].stalls;
        }
    }
}

int tm_run(const tm_launch *L0, sgemu_timing *out, char *msg, size_t msgn)
{
    memset(out, 0, sizeof *out);
    tm_model m;
    memset(&m, 0, sizeof m);
    tm_launch La = *L0;         /* next_wg is replaced when it runs ahead */
    const tm_launch *L = &La;
    m.L = L;
    m.tc = &L->cfg->timing;
    m.st = out;
    m.ncu = L->cfg->compute_units ? L->cfg->compute_units : 1;
    tm_occupancy(L->cfg, L->k, L->width, L->wg_items, L->local_bytes, L->wg_total, out);
    m.sgs = (L->wg_items + L->width - 1) / L->width;
    if (m.sgs == 0)
        m.sgs = 1;
    m.wgs_per_cu = out->wg_per_cu;
    m.slots = m.wgs_per_cu * m.sgs;
    m.neu = m.tc->eus_per_cu ? m.tc->eus_per_cu : 1;
    m.spe = m.tc->schedulers > m.neu ? m.tc->schedulers / m.neu : 1;
    m.nsched = m.neu * m.spe;
    m.iw = m.tc->issue_width ? m.tc->issue_width : 1;
    out->ncu = m.ncu;
    out->ninst = tm_ninst(L);
    int rc = 0;
    if (tm_check_fit(L->cfg, out, L->width, L->wg_items, msg, msgn))
        return SGEMU_EXIT_USER;
    if (model_alloc(&m)) {
        snprintf(msg, msgn, "out of host memory in the timing model");
        rc = SGEMU_EXIT_INTERNAL;
    }
    if (!rc && L->trace_path) {
        if (tm_trace_open(&m.trace, L->trace_path, L->trace_limit, m.ncu, m.slots)) {
            snprintf(msg, msgn, "cannot write trace file '%s'", L->trace_path);
            rc = SGEMU_EXIT_USER;
        } else {
            /* the trace's slices are written by tm_issue: no fast path
             * (issue_alu), which then needs no check of its own */
            m.tracing = true;
            for (uint32_t pc = 0; pc < tm_ninst(L); pc++)
                m.inst[pc].alu_fast = false;
        }
    }
    /* the L2 as the launches before left it (timing_carry.c) */
    uint64_t *unbound = NULL;
    uint32_t nunbound = 0;
    if (!rc && L->carry && tm_carry_install(&m.mem, L->carry, &unbound, &nunbound)) {
        snprintf(msg, msgn, "out of host memory in the timing model");
        rc = SGEMU_EXIT_INTERNAL;
    }
    /* `-j N` (N > 1): one of the N host threads runs the functional engine
     * ahead of the model (timing_ahead.c), the other N - 1 the issue loop.
     * Its ring holds a wave of work-groups (one per CU), as CUs that end
     * their work-groups together ask for the next ones together. */
    tm_ahead *ahead = NULL;
    if (!rc && L->threads > 1 && L->wg_total > 1) {
        uint64_t depth = m.ncu < 2 ? 2 : m.ncu > 64 ? 64 : m.ncu;
        uint64_t wave = (uint64_t)m.ncu * m.wgs_per_cu;
        ahead = tm_ahead_start(&La, (uint32_t)(depth < L->wg_total ? depth : L->wg_total),
                               wave < L->wg_total ? wave : L->wg_total, m.sgs);
        if (!ahead) {
            snprintf(msg, msgn, "out of host memory in the timing model");
            rc = SGEMU_EXIT_INTERNAL;
        }
    }
    /* several host threads: not with the Chrome trace (its events keep
     * the strict time order of the one-thread loop) */
    uint32_t loop_threads = ahead ? L->threads - 1 : L->threads;
    m.nthreads = loop_threads < m.ncu ? loop_threads : m.ncu;
    bool threaded = m.nthreads > 1 && !m.tracing;
    if (!rc && !threaded)
        for (uint32_t ci = 1; ci < m.ncu; ci++) {
            free(m.cu[ci].per_inst);
            m.cu[ci].per_inst = m.cu[0].per_inst;
            m.one_per_inst = true;
        }
    /* first wave: spread work-groups over the CUs, then fill their slots */
    for (uint32_t s = 0; !rc && s < m.wgs_per_cu; s++)
        for (uint32_t ci = 0; ci < m.ncu && m.wg_next < L->wg_total && !m.err; ci++)
            tm_start_wg(&m, ci, s, 0);
    bool use_cuw = m.ncu <= 64;
    tm_wheel cuw;
    tm_wheel_reset(&cuw, 0);
    if (!rc && use_cuw) {
        for (uint32_t ci = 0; ci < m.ncu; ci++)
            cu_wheel_put(&cuw, &m, ci);
    } else if (!rc) {
        for (uint32_t ci = 0; ci < m.ncu; ci++)
            m.heap[ci] = (tm_hent){ m.cu[ci].next_time, ci };
        for (uint32_t i = m.ncu / 2; i-- > 0;)
            heap_down(&m, i);
    }
    uint64_t win = 0, sent[TM_LEVEL_COUNT] = { 0 };
    if (!rc && !m.err && threaded && tm_run_threads(&m)) {
        snprintf(msg, msgn, "out of host memory in the timing model");
        rc = SGEMU_EXIT_INTERNAL;
    }
    while (!rc && !m.err && !threaded) {
        uint32_t best;
        uint64_t bt;
        if (use_cuw) {
            best = tm_wheel_pop(&cuw, cu_keys(&m), &bt);
        } else {
            best = m.heap[0].ci;
            bt = m.heap[0].t;
        }
        if (m.tracing && bt >= win + TM_TRACE_TRAFFIC_PERIOD)
            traffic_sample(&m, &win, sent, bt);
        if (bt == TM_NEVER)
            break;
        tm_step(&m, best, bt);    /* only this CU's next_time changes */
        /* Steps that stay inside the CU commute with the other CUs' steps:
         * run them now, while this CU's state is in the host's caches.
         * Every step that may touch shared state still happens in (time,
         * CU) order.  The Chrome trace keeps the strict order. */
        while (!m.tracing && !m.err && m.cu[best].nshared == 0 &&
               m.cu[best].next_time != TM_NEVER)
            tm_step(&m, best, m.cu[best].next_time);
        if (use_cuw) {
            cu_wheel_put(&cuw, &m, best);
        } else {
            m.heap[0].t = m.cu[best].next_time;
            heap_down(&m, 0);
        }
    }
    tm_ahead_end(ahead);        /* before m.err is read: the producer's fault is set */
    if (!rc && m.err) {
        rc = m.err;
        snprintf(msg, msgn, "%s", m.oom ? "out of host memory in the timing model"
                                        : "work-group failed in the functional engine");
    }
    if (!rc && L->carry && tm_carry_save(&m.mem, L->carry, unbound, nunbound)) {
        snprintf(msg, msgn, "out of host memory in the timing model");
        rc = SGEMU_EXIT_INTERNAL;
    }
    free(unbound);
    merge_cu_stats(&m);
    out->cycles = m.end;
    out->time_us = L->cfg->clock_mhz > 0 ? (double)m.end / L->cfg->clock_mhz : 0;
    out->ipc = m.end ? (double)out->instructions / (double)m.end : 0;
    out->simd_efficiency = out->lane_slots ? (double)out->lane_ops / (double)out->lane_slots : 0;
    for (uint32_t ci = 0; m.cu && out->cu_busy_cycles && ci < m.ncu; ci++)   /* NULL: alloc failed */
        if (m.cu[ci].first_start != TM_NEVER)
            out->cu_busy_cycles[ci] = m.cu[ci].last_done - m.cu[ci].first_start;
    double denom = (double)m.end * m.ncu * out->threads_per_cu;
    out->achieved_occupancy = denom > 0 ? m.resident_integral / denom : 0;
    if (m.tracing) {
        out->trace_events = m.trace.events;
        out->trace_dropped = m.trace.dropped;
        if (tm_trace_close(&m.trace, rc == 0) && !rc) {
            snprintf(msg, msgn, "cannot write trace file '%s'", L->trace_path);
            rc = SGEMU_EXIT_USER;
        }
    }
    model_free(&m);
    return rc;
}
