/* timing_sched.c - the thread schedulers of an EU (round_robin,
 * oldest_first and greedy_oldest) choosing what issues each cycle, the fast
 * path for ALU records they issue inline, and one cycle of a compute unit
 * (tm_step).
 * Event-driven: each thread caches a lower bound of its next issue time
 * and each scheduler the minimum over its threads, so a cycle only looks at
 * schedulers that may issue (from a wheel of those bounds when few are due
 * per cycle). */
#include "timing_private.h"

#include <string.h>

/* tm_issue() and then tm_sync_thread() of the picked slot t, for the common case:
 * an ALU instruction without spills or a branch (alu_fast), with two more
 * records after it (so the thread neither ends nor reaches its last record:
 * its shared flag depends on the next instruction alone), without the
 * Chrome trace.
 * Same arithmetic and statistics as the general pair, with what they
 * re-derive taken from the instruction's precomputed fields. */
static inline bool can_issue_alu(const tm_thread *th)
{
    return th->ti->alu_fast && th->cur + 2 < th->nrec;   /* no alu_fast when tracing */
}

static inline __attribute__((always_inline)) void
issue_alu(tm_model *m, tm_cu *c, uint32_t t, uint32_t pos, tm_smask *q, uint64_t T, bool lists)
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
    ls->count++;
    ls->stalls += gap;
    /* two records were left: the next one exists */
    th->cur++;
    const tm_inst *nx = &m->inst[th->pcs[th->cur]];
    th->ti = nx;
    if (th->cur + 16 < th->nrec)
        __builtin_prefetch(&th->pcs[th->cur + 16]);   /* as set_ti */
    th->next_issue = T + 1;
    uint64_t s = max64(T, pipe);
    if (ti->int_either)
        b = either_unit(f, ti->unitset >> 16, b, s);
    s = unit_take_now(c, f + b, T, ti->occ);
    uint64_t done = s + ti->lat;
    if (ti->kind == TM_K_BRANCH && done > T + 1) {
        /* the fetch of a branch's next instruction waits for its result */
        c->stall[TM_STALL_FETCH] += done - T - 1;
        th->next_issue = done;
    }
    write_dst(th, ti, done, false);
    ls->cycles += done - T;
    th->last_done = max64(th->last_done, done);
    /* sync_thread: runnable before and after, not at its last record */
    uint8_t sh = nx->shared || th->in_uops;
    c->nshared += (uint32_t)sh - c->shared[t];
    c->shared[t] = sh;
    compute_dep(m, th);
    uint64_t own = max64(th->next_issue, th->dep);
    c->own[pos] = own;
    if (lists) {
        /* the wait lists read own by rank; ecache and unit are the scan's */
        uint32_t rk = c->rank[pos];
        c->oe[rk] = own;
        sm_move_rank(q, rk - q->first, true, nx->upipe, own);
    } else {
        c->ecache[pos] = own;
        c->unit[pos] = nx->unitset;
    }
}

/* tm_sync_thread of the picked slot t (at scan position pos, of wait
 * lists q) after tm_issue, when its thread runs on and neither is nor was
 * at its last record: update_shared then sets its own flag alone, from
 * its next instruction.  The same entries as the general call. */
static inline __attribute__((always_inline)) void
sync_running(tm_model *m, tm_cu *c, uint32_t t, uint32_t pos, tm_smask *q, bool lists)
{
    tm_thread *th = &c->th[t];
    const tm_inst *ti = th->ti;
    uint8_t sh = ti->shared || th->in_uops;
    c->nshared += (uint32_t)sh - c->shared[t];
    c->shared[t] = sh;
    if (!th->dep_ok)
        compute_dep(m, th);
    uint64_t own = max64(th->next_issue, th->dep);
    c->own[pos] = own;
    if (lists) {
        /* its rank is read again: a new thread in its slot moved it */
        uint32_t rk = c->rank[pos];
        c->oe[rk] = own;
        sm_move_rank(q, rk - q->first, true, ti->upipe, own);
    } else {
        c->ecache[pos] = own;
        c->unit[pos] = ti->unitset;
        c->qage[pos] = th->age;
    }
}

/* Issue the picked slot's next instruction at T and refresh its scan entry
 * (lists: c->sm's wait lists, else the scan's entries); 1 when that woke
 * another slot (barrier release, new work-group), -1 on an error (m->err),
 * else 0. */
static inline __attribute__((always_inline)) int
issue_picked(tm_model *m, uint32_t ci, tm_cu *c, uint32_t pos, tm_smask *q, uint64_t T,
             bool lists)
{
    uint32_t pick = m->s_list[pos];
    if (can_issue_alu(&c->th[pick])) {
        issue_alu(m, c, pick, pos, q, T, lists);
        return 0;
    }
    c->woke = false;
    c->picked = pick;
    tm_issue(m, ci, pick, T);
    if (m->err)
        return -1;
    const tm_thread *th = &c->th[pick];
    if (th->state == TH_RUN && th->cur + 1 < th->nrec && !th->atlast)
        sync_running(m, c, pick, pos, q, lists);
    else
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
 * dispatched first, greedy_oldest the last issued again if it may, else the
 * one dispatched first.  A thread picked in this cycle stays out of the later
 * passes of the cycle unless a later issue woke a thread (barrier release,
 * new work-group). */

/* Set the ready bits of the waiting threads whose own is <= T and the
 * bound of those still waiting. */
static inline void sm_refresh(tm_smask *q, uint64_t T)
{
    uint64_t lo = TM_NEVER, ready = q->ready;
    const uint64_t *oe = q->oe;
    for (uint64_t w = q->run & ~ready; w; w &= w - 1) {
        uint32_t r = (uint32_t)__builtin_ctzll(w);
        uint64_t e = oe[r];
        if (e <= T)
            ready |= 1ull << r;
        else if (e < lo)
            lo = e;
    }
    q->ready = ready;
    q->lmin = lo;
}

/* Earliest free unit of pipe p (TM_PIPE_COUNT: none, free at 0;
 * TM_PIPE_INT_EITHER: int's or its alternate's). */
static inline uint64_t sm_pipe_free(const tm_model *m, const tm_smask *q, uint32_t p)
{
    return p == TM_PIPE_COUNT ? 0 : units_free(q->eu, m->unitset[p]);
}

/* oldest_first on the wait lists.  A pass takes the lowest ready rank; when
 * its pipe is busy at T, every ready thread of that pipe is dropped at once
 * and the next lowest is tried, so a pass looks at one thread per pipe at
 * most.  Only threads whose own passed T since the last step are looked at
 * one by one (sm_refresh).  An issue clears the ready bit of the thread it
 * moved, so a thread picked in this cycle is ready again only after a
 * refresh: then the picked ones are masked out. */
static inline __attribute__((always_inline)) bool
step_sched_oldest(tm_model *m, uint32_t ci, tm_cu *c, uint32_t s, uint64_t T)
{
    tm_smask *q = &c->sm[s];
    uint32_t iw = m->iw;
    /* the ranks picked since the last wake, kept out (their ready bits
     * are clear until a refresh; masking them always is the same) */
    uint64_t ex = 0;
    for (uint32_t k = 0;;) {
        if (q->lmin <= T)
            sm_refresh(q, T);
        uint64_t cand = q->ready & ~ex;
        uint32_t pos = UINT32_MAX, r = 0;
        while (cand) {
            r = (uint32_t)__builtin_ctzll(cand);
            uint32_t p = q->rpipe[r];
            if (sm_pipe_free(m, q, p) <= T) {
                pos = c->ord[q->first + r];
                break;
            }
            cand &= ~q->pm[p];
        }
        /* none: the bound is already refreshed (lmin > T) */
        if (pos == UINT32_MAX)
            goto bound;
        int ip = issue_picked(m, ci, c, pos, q, T, true);
        if (ip < 0)
            return false;
        uint32_t nr = c->rank[pos] - q->first;
        if (ip) {
            ex = 0;
        } else if (__builtin_expect(nr != r, 0)) {
            /* the slot took a new thread without waking another (a group
             * of one thread): it became the youngest, the ranks above r
             * moved down one (tm_sm_rank_to_end) */
            uint64_t low = (1ull << r) - 1;
            ex = (ex & low) | ((ex >> 1) & ~low);
        }
        ex |= 1ull << nr;
        if (++k == iw)
            break;
    }
    /* the next issue: a waiting thread's own, or a ready one's pipe */
    if (q->lmin <= T)
        sm_refresh(q, T);
bound:;
    uint64_t next = q->lmin;
    for (uint64_t cand = q->ready; cand && next > T + 1;) {
        uint32_t p = q->rpipe[__builtin_ctzll(cand)];
        uint64_t f = sm_pipe_free(m, q, p);
        if (f < next)
            next = f;
        cand &= ~q->pm[p];
    }
    c->snext[s] = next <= T ? T + 1 : next;
    return true;
}

void tm_sm_rank_to_end(tm_smask *q, uint32_t i, uint32_t n)
{
    uint64_t low = (1ull << i) - 1;
#define TO_END(v) ((v) & low) | (((v) >> 1) & ~low) | (((v) >> i & 1) << (n - 1))
    q->run = TO_END(q->run);
    q->ready = TO_END(q->ready);
    /* a mask without bits from rank i up stays as it is (most pipes'
     * lists are empty) */
    for (uint32_t p = 0; p <= TM_PIPE_INT_EITHER; p++)
        if (q->pm[p] & ~low)
            q->pm[p] = TO_END(q->pm[p]);
#undef TO_END
    uint8_t rp = q->rpipe[i];
    memmove(q->rpipe + i, q->rpipe + i + 1, n - 1 - i);
    q->rpipe[n - 1] = rp;
}

/* The general scheduler (round_robin, greedy_oldest; oldest_first wider
 * than 8 or with more than 64 threads per scheduler, which the wait lists
 * do not hold):
 * the first pass looks at every thread and keeps those that may issue at T
 * (candidates, in scan order).  Issuing only delays the others (own is
 * fixed, pipes get busier), so later passes of the same cycle look at the
 * remaining candidates only, unless the issue woke a thread: then they scan
 * again. */
static __attribute__((noinline)) void step_sched(tm_model *m, uint32_t ci, uint32_t s, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t iw = m->iw;
    uint32_t first = m->s_first[s];
    uint32_t n = m->s_first[s + 1] - first;
    /* all threads of a scheduler share one EU's pipes */
    const uint64_t *eu = c->pfree + m->s_eu_off[s];
    const tm_policy pol = (tm_policy)m->tc->policy;
    /* greedy_oldest: the age of the thread last issued (ages are unique: a
     * new thread in its slot is not it); the scan starts at its position
     * (rr), so when it may issue it is a full pass's first candidate */
    uint64_t greedy = pol == TM_POLICY_GTO ? c->greedy[s] : UINT64_MAX;
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
            uint64_t a = c->qage[first + cand[i]];
            if (a == greedy) {
                pi = i;
                break;
            }
            if (pi == UINT32_MAX || a < page) {
                pi = i;
                page = a;
                if (pol == TM_POLICY_RR)
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
        if (pol == TM_POLICY_GTO) {
            c->rr[s] = pj;
            greedy = c->greedy[s] = c->qage[first + pj];
        } else {
            c->rr[s] = pj + 1 < n ? pj + 1 : 0;
        }
        uint32_t pu = c->unit[first + pj];
        int ip = issue_picked(m, ci, c, first + pj, NULL, T, false);
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

/* Scheduler s steps at T (the wait lists of oldest_first, or the scan);
 * false on an error (m->err). */
static inline __attribute__((always_inline)) bool step_one(tm_model *m, uint32_t ci, tm_cu *c,
                                                           bool oldest,
                                                           uint32_t s, uint64_t T)
{
    if (oldest)
        return step_sched_oldest(m, ci, c, s, T);
    step_sched(m, ci, s, T);
    return !m->err;
}

/* tm_step looking at every scheduler (more than 64 schedulers, or most of
 * them due in the last step); returns how many it stepped. */
static __attribute__((noinline)) uint32_t step_all(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint64_t *snext = c->snext;
    const bool oldest = c->sm != NULL;
    uint64_t next = TM_NEVER;
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->nsched; s++) {
        if (snext[s] <= T) {
            n++;
            if (!step_one(m, ci, c, oldest, s, T))
                break;
        }
        if (snext[s] < next)
            next = snext[s];
    }
    if (c->next_time < next)
        next = c->next_time;
    c->next_time = next;
    return n;
}

/* The wheel from snext, relative to T (set-up, or a bound below the last
 * step's time). */
static void wheel_rebuild(const tm_model *m, tm_cu *c, uint64_t T)
{
    tm_wheel_refile(&c->sw, (tm_wheel_keys){ c->snext, 1 },
                    m->nsched >= 64 ? ~0ull : (1ull << m->nsched) - 1, T);
}

/* tm_step on the wheel (up to 64 schedulers). */
static __attribute__((noinline)) void step_wheel(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint64_t *snext = c->snext;
    tm_wheel *wh = &c->sw;
    const tm_wheel_keys keys = { snext, 1 };
    if (__builtin_expect(T < wh->base, 0))
        wheel_rebuild(m, c, T);
    wh->base = T;
    const uint32_t tb = (uint32_t)(T & 63);
    uint64_t due = wh->slot[tb];
    if (__builtin_expect(wh->far_min <= T, 0))
        for (uint64_t w = wh->far; w; w &= w - 1)
            if (snext[__builtin_ctzll(w)] <= T)
                due |= 1ull << __builtin_ctzll(w);
    /* at most two due (d2 & (d2 - 1) == 0) is never most of 3 or more:
     * no bit count then */
    uint64_t d2 = due & (due - 1);
    if ((d2 & (d2 - 1) || m->nsched < 3) && popcount64(due) * 4 > 3 * m->nsched) {
        /* most are due: drop the wheel, look at them all */
        c->use_wheel = false;
        step_all(m, ci, T);
        return;
    }
    wh->slot[tb] = 0;
    wh->occ &= ~(1ull << tb);
    if (__builtin_expect(wh->far_min <= T, 0)) {
        wh->far &= ~due;
        tm_wheel_far_refresh(wh, keys);
    }
    c->woken = 0;
    const bool oldest = c->sm != NULL;
    while (due) {
        uint32_t s = (uint32_t)__builtin_ctzll(due);
        due &= due - 1;
        if (!step_one(m, ci, c, oldest, s, T))
            break;
        if (__builtin_expect(c->woken == 0, 1)) {
            tm_wheel_put(wh, s, snext[s]);    /* a bound > T: the steps set none lower */
            continue;
        }
        if (c->woken >> s & 1) {
            /* its own bound was lowered below T meanwhile (not in the
             * wheel's range): place them all again */
            wheel_rebuild(m, c, T);
            for (uint64_t w = due; w; w &= w - 1) {
                uint32_t b = (uint32_t)__builtin_ctzll(w);
                tm_wheel_take(wh, b, snext[b]);
            }
        } else {
            tm_wheel_put(wh, s, snext[s]);
        }
        /* woken schedulers after s that may issue now join the walk */
        uint64_t w = s == 63 ? 0 : c->woken & ~((2ull << s) - 1);
        for (; w; w &= w - 1) {
            uint32_t b = (uint32_t)__builtin_ctzll(w);
            if (snext[b] <= T && !(due & (1ull << b))) {
                tm_wheel_take(wh, b, snext[b]);
                due |= 1ull << b;
            }
        }
        c->woken = 0;
    }
    if (wh->far_stale)
        tm_wheel_far_refresh(wh, keys);
    uint64_t next = wh->far_min;
    uint64_t wt = tm_wheel_first(wh, T);
    if (wt < next)
        next = wt;
    if (c->next_time < next)
        next = c->next_time;
    c->next_time = next;
}

/* tm_step on the loop over all schedulers, and onto the wheel when few
 * were due. */
static __attribute__((noinline)) void step_loop(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t n = step_all(m, ci, T);
    /* few due: the wheel from the next step on */
    if (n * 2 < m->nsched && m->nsched <= 64 && !m->err) {
        wheel_rebuild(m, c, T);
        c->use_wheel = true;
    }
}

/* tm_step after the stretches begun by T joined their units' free times. */
static __attribute__((noinline)) void step_settled(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    tm_units_settle(c, T);
    if (c->use_wheel)
        step_wheel(m, ci, T);
    else
        step_loop(m, ci, T);
}

/* One cycle of compute unit ci at time T: the schedulers that may issue
 * (snext <= T), in index order.  When most of them are due in each step,
 * a loop over all of them (step_all) costs least.  Otherwise (up to 64
 * schedulers) the wheel (tm_cu) gives the due ones and the next time
 * without looking at the others; a step that lowers a later scheduler's
 * bound to T (barrier release, new work-group: c->woken) adds it to the
 * walk, as the loop would reach it.  Both give the same steps in the same
 * order; which one runs changes no result. */
void tm_step(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    /* a scheduler already passed that an issue wakes lowers c->next_time
     * along with its snext */
    c->next_time = TM_NEVER;
    /* a unit busy at T in a stretch held ahead reads busy (unit
     * reservation); apart, so that this function keeps no frame */
    if (__builtin_expect(c->nres != 0, 0)) {
        step_settled(m, ci, T);
        return;
    }
    /* both walks are calls in tail position: this function keeps no frame */
    if (c->use_wheel)
        step_wheel(m, ci, T);
    else
        step_loop(m, ci, T);
}
