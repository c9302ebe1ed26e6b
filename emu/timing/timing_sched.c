/* timing_sched.c - the two thread schedulers of an EU (round_robin and
 * oldest_first) choosing what issues each cycle, the fast path for ALU
 * records they issue inline, and one cycle of a compute unit (tm_step).
 * Event-driven: each thread caches a lower bound of its next issue time
 * and each scheduler the minimum over its threads, so a cycle only looks at
 * schedulers that may issue. */
#include "timing_private.h"

/* tm_issue() and then tm_sync_thread() of the picked slot t, for the common case:
 * an ALU instruction without spills (alu_fast), with two more records after
 * it (so the thread neither ends nor reaches its last record: its shared
 * flag depends on the next instruction alone), without the Chrome trace.
 * Same arithmetic and statistics as the general pair, with what they
 * re-derive taken from the instruction's precomputed fields. */
static inline bool can_issue_alu(const tm_model *m, const tm_thread *th)
{
    return th->ti->alu_fast && th->cur + 2 < th->nrec && !m->tracing;
}

static inline __attribute__((always_inline)) void
issue_alu(tm_model *m, tm_cu *c, uint32_t t, uint64_t T)
{
    tm_thread *th = &c->th[t];
    const tm_inst *ti = th->ti;
    if (!th->dep_ok)
        compute_dep(m, th);
    uint64_t *f = th->eu_units + (ti->unitset & 0xffff);
    uint32_t b = 0;
    for (uint32_t u = 1; u < ti->unitset >> 16; u++)
        if (f[u] < f[b])
            b = u;
    uint64_t pipe = f[b], dep = th->dep;
    uint64_t gap = T - th->next_issue;
    tm_stall why = TM_STALL_ISSUE;
    if (dep > th->next_issue && dep >= pipe)
        why = th->dmem ? TM_STALL_MEM : TM_STALL_DEP;
    else if (pipe > th->next_issue)
        why = TM_STALL_PIPE;
    c->stall[why] += gap;
    tm_line_stats *ls = &c->per_inst[th->pcs[th->cur]];
    ls->stalls += gap;
    th->cur++;
    set_ti(m, c, th);
    th->next_issue = T + 1;
    uint64_t s = max64(T, pipe);
    f[b] = s + ti->occ;
    uint64_t done = s + ti->lat;
    write_dst(th, ti, done, false);
    ls->cycles += done - T;
    th->last_done = max64(th->last_done, done);
    /* sync_thread: runnable before and after, not at its last record (two
     * records were left, so th->ti is set; the general update otherwise) */
    const tm_inst *nx = th->ti;
    if (__builtin_expect(!nx, 0)) {
        c->picked = t;
        tm_sync_thread(m, c, t);
        c->picked = UINT32_MAX;
        return;
    }
    uint8_t sh = nx->shared || th->in_uops;
    c->nshared += (uint32_t)sh - c->shared[t];
    c->shared[t] = sh;
    compute_dep(m, th);
    uint32_t pos = m->t_pos[t];
    c->own[pos] = c->ecache[pos] = c->oe[c->rank[pos]] = max64(th->next_issue, th->dep);
    uint32_t p = nx->upipe;
    if (c->upipe[pos] != p) {
        uint32_t *cnt = c->ucnt + (size_t)m->t_sched[t] * TM_UCNT_STRIDE;
        cnt[c->upipe[pos]]--;
        cnt[p]++;
        c->upipe[pos] = (uint8_t)p;
    }
    c->unit[pos] = nx->unitset;
}

/* Issue the picked slot's next instruction at T and refresh its scan entry;
 * 1 when that woke another slot (barrier release, new work-group), -1 on
 * an error (m->err), else 0. */
static inline __attribute__((always_inline)) int
issue_picked(tm_model *m, uint32_t ci, tm_cu *c, uint32_t pick, uint64_t T)
{
    if (can_issue_alu(m, &c->th[pick])) {
        issue_alu(m, c, pick, T);
        return 0;
    }
    c->woke = false;
    c->picked = pick;
    tm_issue(m, ci, pick, T);
    if (m->err)
        return -1;
    tm_sync_thread(m, c, pick);
    c->picked = UINT32_MAX;
    return c->woke;
}

/* Earliest issue of the thread at scan position pos (TM_NEVER: none). */
/* Earliest free unit of a unit set (offset | count << 16) of an EU. */
static inline uint64_t units_free(const uint64_t *eu, uint32_t u)
{
    const uint64_t *f = eu + (u & 0xffff);
    uint64_t pf = f[0];
    for (uint32_t i = 1; i < u >> 16; i++)
        if (f[i] < pf)
            pf = f[i];
    return pf;
}

static inline uint64_t scan_time(const tm_cu *c, const uint64_t *eu, uint32_t pos)
{
    uint64_t e = c->own[pos];
    uint32_t u = c->unit[pos];
    if (e == TM_NEVER || u == UINT32_MAX)
        return e;
    uint64_t pf = units_free(eu, u);
    return pf > e ? pf : e;
}

/* Scheduler s of CU c issues up to issue_width instructions at T.  A thread
 * may issue when max(own, its pipe's earliest free unit) <= T; round_robin
 * takes the first such thread after the last issued, oldest_first the one
 * dispatched first.  The first pass looks at every thread and keeps those
 * that may issue at T (candidates, in scan order).  Issuing only delays the
 * others (own is fixed, pipes get busier), so later passes of the same cycle
 * look at the remaining candidates only, unless the issue woke a thread
 * (barrier release, new work-group): then they scan again. */
/* oldest_first: each pass walks the threads by age and issues the first
 * that may issue at T, so it picks what step_sched's full scan would (the
 * oldest candidate) without looking at the younger ones.  A thread that
 * waits for the unit set the last issue left busy gets that unit's free
 * time as its bound without a look; one picked this cycle stays out of later
 * passes unless the issue woke a thread (as in step_sched). */
static void step_sched_oldest(tm_model *m, uint32_t ci, uint32_t s, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t iw = m->tc->issue_width ? m->tc->issue_width : 1;
    uint32_t first = m->s_first[s];
    uint32_t n = m->s_first[s + 1] - first;
    const uint64_t *eu = c->pfree + m->s_eu_off[s];
    const uint32_t *o = c->ord + first;
    uint64_t *oe = c->oe + first;   /* bounds in age order: a walk reads them in a row */
    uint32_t bu = UINT32_MAX;       /* unit set the last issue left busy past T */
    uint32_t bup = TM_PIPE_COUNT;   /* ... its pipe */
    uint64_t bpf = 0;               /* ... and when it frees */
    uint32_t ex[8], nex = 0;        /* ranks picked since the last wake (kept out) */
    uint64_t low = TM_NEVER;
    const uint32_t *cnt = c->ucnt + (size_t)s * TM_UCNT_STRIDE;
    for (uint32_t k = 0; k < iw; k++) {
        uint32_t pj = UINT32_MAX;
        low = TM_NEVER;
        if (bu != UINT32_MAX) {
            /* Every runnable thread outside ex waits for the unit set just
             * taken (free at bpf > T): none issues now, and the next issue
             * is no earlier than bpf or an ex thread's bound. */
            uint32_t other = c->nrun[s] - cnt[bup];
            uint64_t exlow = TM_NEVER;
            for (uint32_t q = 0; q < nex; q++) {
                uint32_t pos = o[ex[q]];
                if (c->own[pos] != TM_NEVER && c->upipe[pos] != bup)
                    other--;
                if (oe[ex[q]] < exlow)
                    exlow = oe[ex[q]];
            }
            if (other == 0) {
                uint64_t next = bpf < exlow ? bpf : exlow;
                c->snext[s] = next <= T ? T + 1 : next;
                return;
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            uint64_t e = oe[j];
            if (e <= T) {
                uint32_t pos = o[j];
                if (bu != UINT32_MAX && c->unit[pos] == bu)
                    e = oe[j] = bpf;
                else
                    e = oe[j] = scan_time(c, eu, pos);
            }
            if (e <= T) {
                uint32_t q = 0;
                while (q < nex && ex[q] != j)
                    q++;
                if (__builtin_expect(q == nex, 1)) {
                    pj = j;
                    break;
                }
            }
            if (e < low)
                low = e;
        }
        if (pj == UINT32_MAX) {
            c->snext[s] = low <= T ? T + 1 : low;
            return;
        }
        uint32_t pp = o[pj];        /* (rr: round_robin's alone) */
        uint32_t pick = m->s_list[pp];
        uint32_t pu = c->unit[pp], ppipe = c->upipe[pp];
        int ip = issue_picked(m, ci, c, pick, T);
        if (ip < 0)
            return;
        if (ip)
            nex = 0;
        /* a new work-group may have reordered the ranks (also in the picked
         * slot alone, which does not count as a wake): find pp again */
        pj = c->rank[pp] - first;
        if (nex < sizeof ex / sizeof ex[0])
            ex[nex++] = pj;
        bu = UINT32_MAX;
        if (pu != UINT32_MAX) {
            bpf = units_free(eu, pu);
            if (bpf > T) {
                bu = pu;
                bup = ppipe;
            }
        }
        /* next issue of the picked thread: >= T + 1, a bound for snext */
        oe[pj] = scan_time(c, eu, pp);
    }
    uint64_t next = TM_NEVER;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t e = oe[j];
        if (e <= T) {
            uint32_t pos = o[j];
            bool out = false;
            for (uint32_t q = 0; q < nex; q++)
                out |= ex[q] == j;
            if (out)
                ;           /* picked at T: its bound stays (as in step_sched) */
            else if (bu != UINT32_MAX && c->unit[pos] == bu)
                e = oe[j] = bpf;
            else
                e = oe[j] = scan_time(c, eu, pos);
        }
        if (e < next)
            next = e;
    }
    if (next <= T)
        next = T + 1;
    c->snext[s] = next;
}

/* The general scheduler (round_robin; oldest_first wider than 8, which
 * step_sched_oldest's pick list does not hold). */
static void step_sched(tm_model *m, uint32_t ci, uint32_t s, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t iw = m->tc->issue_width ? m->tc->issue_width : 1;
    uint32_t first = m->s_first[s];
    uint32_t n = m->s_first[s + 1] - first;
    /* all threads of a scheduler share one EU's pipes */
    const uint64_t *eu = c->pfree + m->s_eu_off[s];
    bool oldest = m->tc->policy != 0;
    uint32_t *cand = c->cand;       /* scan positions jj of candidates */
    uint32_t nc = 0;
    bool full = true;
    uint64_t low = TM_NEVER;        /* lower bound (> T) of the non-candidates */
    uint32_t bu = UINT32_MAX;       /* unit set the last issue left busy past T */
    uint64_t bpf = 0;               /* ... and when it frees */
    for (uint32_t k = 0; k < iw; k++) {
        uint32_t pi = UINT32_MAX;   /* picked: index into cand */
        uint64_t page = 0;
        if (full) {
            nc = 0;
            low = TM_NEVER;
            uint32_t jj = c->rr[s];
            for (uint32_t j = 0; j < n; j++, jj = jj + 1 < n ? jj + 1 : 0) {
                uint64_t e = c->ecache[first + jj];
                if (e <= T)
                    e = c->ecache[first + jj] = scan_time(c, eu, first + jj);
                if (e > T) {
                    if (e < low)
                        low = e;
                    continue;
                }
                cand[nc++] = jj;
            }
            full = false;
        } else {
            /* drop the candidates the last issue delayed */
            uint32_t keep = 0;
            for (uint32_t i = 0; i < nc; i++) {
                uint32_t pos = first + cand[i];
                if (bu != UINT32_MAX && c->unit[pos] == bu) {
                    /* waits for the unit set just taken: issue time >= bpf */
                    if (bpf < low)
                        low = bpf;
                    if (c->ecache[pos] < bpf)
                        c->ecache[pos] = bpf;
                    continue;
                }
                uint64_t e = c->ecache[pos] = scan_time(c, eu, pos);
                if (e > T) {
                    if (e < low)
                        low = e;
                    continue;
                }
                cand[keep++] = cand[i];
            }
            nc = keep;
        }
        for (uint32_t i = 0; i < nc; i++) {
            if (pi == UINT32_MAX || c->qage[first + cand[i]] < page) {
                pi = i;
                page = c->qage[first + cand[i]];
                if (!oldest)
                    break;
            }
        }
        if (pi == UINT32_MAX) {
            c->snext[s] = low <= T ? T + 1 : low;
            return;
        }
        uint32_t pj = cand[pi];
        /* the picked thread cannot issue again at T (next issue >= T + 1) */
        for (uint32_t i = pi; i + 1 < nc; i++)
            cand[i] = cand[i + 1];
        nc--;
        c->rr[s] = pj + 1 < n ? pj + 1 : 0;
        uint32_t pick = m->s_list[first + pj];
        uint32_t pu = c->unit[first + pj];
        int ip = issue_picked(m, ci, c, pick, T);
        if (ip < 0)
            return;
        if (ip)
            full = true;
        bu = UINT32_MAX;
        if (pu != UINT32_MAX) {
            bpf = units_free(eu, pu);
            if (bpf > T)
                bu = pu;
        }
        /* next issue of the picked thread: >= T + 1, a bound for snext */
        uint64_t pe = scan_time(c, eu, first + pj);
        if (pe < low)
            low = pe;
    }
    uint64_t next = low;
    if (full) {
        next = TM_NEVER;
        for (uint32_t j = 0; j < n; j++) {
            uint64_t e = c->ecache[first + j];
            if (e <= T)
                e = c->ecache[first + j] = scan_time(c, eu, first + j);
            if (e < next)
                next = e;
        }
    } else {
        for (uint32_t i = 0; i < nc; i++) {
            uint64_t e = c->ecache[first + cand[i]] = scan_time(c, eu, first + cand[i]);
            if (e < next)
                next = e;
        }
    }
    if (next <= T)
        next = T + 1;
    c->snext[s] = next;
}

/* One cycle of compute unit ci at time T: only schedulers that may issue. */
void tm_step(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    /* one pass: a scheduler already passed that an issue wakes (barrier
     * release, new work-group) lowers c->next_time along with its snext */
    c->next_time = TM_NEVER;
    uint64_t next = TM_NEVER;
    bool oldest = m->tc->policy != 0 && m->tc->issue_width <= 8;
    uint64_t *snext = c->snext;
    const uint32_t ns = m->nsched;
    for (uint32_t s = 0; s < ns; s++) {
        if (snext[s] <= T) {
            if (oldest)
                step_sched_oldest(m, ci, s, T);
            else
                step_sched(m, ci, s, T);
            if (m->err)         /* read after a step only: it sets it */
                break;
        }
        if (snext[s] < next)
            next = snext[s];
    }
    if (c->next_time < next)
        next = c->next_time;
    c->next_time = next;
}
