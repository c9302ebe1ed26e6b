/* timing_issue.c - issuing one record of a thread: the stall it waited
 * for, its pipe, memory or micro-op timing, the scoreboard update; barriers
 * (arrival, release), a thread's end, and each slot's scan entry and
 * shared-state flag kept in step with its state; the units' busy stretches
 * held ahead (unit reservation). */
#include "timing_private.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- unit reservation (docs/timing-model.md, "Unit reservation") ----
 * A unit's free time F (pfree) is the first cycle after what it was given
 * from the issue cycle on; what micro-ops took further ahead is held as
 * busy stretches (tm_ures), so that other work fills the gaps between. */

/* Unit u of CU c holds stretches (h->n) or none: keep the CU's list. */
static void ures_listed(tm_cu *c, uint32_t u, tm_ureshead *h, bool had)
{
    if (h->n && !had) {
        h->pos = c->nres;
        c->resu[c->nres++] = u;
    } else if (!h->n && had) {
        uint32_t last = c->resu[--c->nres];
        c->resu[h->pos] = last;
        c->resh[last].pos = h->pos;
    }
}

/* The stretches that begin by max(F, upto) join F (a stretch that began
 * is the unit's present; one that ended is past). */
static void ures_absorb(uint64_t *f, tm_ureshead *h, tm_ures *rs, uint64_t upto)
{
    uint32_t k = 0;
    uint64_t lim = max64(*f, upto);
    while (k < h->n && rs->a[k] <= lim) {
        *f = max64(*f, rs->b[k]);
        lim = max64(lim, *f);
        k++;
    }
    if (!k)
        return;
    h->n -= k;
    for (uint32_t j = 0; j < h->n; j++) {   /* a few: no call to memmove */
        rs->a[j] = rs->a[j + k];
        rs->b[j] = rs->b[j + k];
    }
}

uint64_t tm_unit_hold(tm_cu *c, uint64_t *f, uint64_t t0, uint64_t occ, uint64_t now)
{
    uint32_t u = (uint32_t)(f - c->pfree);
    tm_ureshead *h = &c->resh[u];
    tm_ures *rs = &c->ures[u];
    const bool had = h->n != 0;
    if (had) {
        ures_absorb(f, h, rs, now);
        if (h->n == TM_URES_MAX) {
            /* full: the last gap is taken as busy */
            rs->b[h->n - 2] = rs->b[h->n - 1];
            h->n--;
        }
    }
    /* the first gap of occ cycles at or after max(t0, F) */
    uint64_t s = max64(t0, *f);
    uint32_t i = 0;
    for (; i < h->n; i++) {
        if (s + occ <= rs->a[i])
            break;
        if (s < rs->b[i])
            s = rs->b[i];
    }
    const uint64_t e = s + occ;
    if (s <= max64(*f, now)) {
        /* from the unit's present on: its free time moves */
        *f = e;
        ures_absorb(f, h, rs, 0);
    } else if (i > 0 && rs->b[i - 1] == s) {
        rs->b[i - 1] = e;
        if (i < h->n && rs->a[i] == e) {   /* closes the gap: join the two */
            rs->b[i - 1] = rs->b[i];
            h->n--;
            for (uint32_t j = i; j < h->n; j++) {
                rs->a[j] = rs->a[j + 1];
                rs->b[j] = rs->b[j + 1];
            }
        }
    } else {
        if (i < h->n && rs->a[i] == e) {
            rs->a[i] = s;
        } else {
            for (uint32_t j = h->n; j > i; j--) {
                rs->a[j] = rs->a[j - 1];
                rs->b[j] = rs->b[j - 1];
            }
            rs->a[i] = s;
            rs->b[i] = e;
            h->n++;
        }
        if (s < c->res_min)
            c->res_min = s;
    }
    ures_listed(c, u, h, had);
    return s;
}

void tm_units_settle(tm_cu *c, uint64_t T)
{
    if (T < c->res_min)
        return;    /* no stretch has begun */
    uint64_t lo = TM_NEVER;
    for (uint32_t k = c->nres; k-- > 0;) {
        uint32_t u = c->resu[k];
        tm_ureshead *h = &c->resh[u];
        ures_absorb(&c->pfree[u], h, &c->ures[u], T);
        ures_listed(c, u, h, true);
        if (h->n && c->ures[u].a[0] < lo)
            lo = c->ures[u].a[0];
    }
    c->res_min = lo;
}

/* Earliest free unit of the pipe the current record issues to (0: none). */
static inline uint64_t pipe_free_at(const tm_model *m, const tm_thread *th, const tm_inst *ti)
{
    (void)m;
    if (!ti->has_pipe)
        return 0;
    const uint64_t *f = th->eu_units + (ti->unitset & 0xffff);
    uint64_t best = f[0];
    for (uint32_t u = 1; u < ti->unitset >> 16; u++)
        if (f[u] < best)
            best = f[u];
    return best;
}

/* Earliest cycle the thread's next instruction can issue; *dep and *pipe
 * report the binding constraints for stall classification. */
static uint64_t earliest(tm_model *m, tm_cu *c, uint32_t t, uint64_t *dep,
                         uint64_t *pipe, bool *mem)
{
    tm_thread *th = &c->th[t];
    const tm_inst *ti = th->ti;
    if (!th->dep_ok)
        compute_dep(m, th);
    uint64_t p = pipe_free_at(m, th, ti);
    if (dep) {
        *dep = th->dep;
        *pipe = p;
        *mem = th->dmem;
    }
    return max64(th->next_issue, max64(th->dep, p));
}

/* Publish slot t's scan entry from its state (after anything changed it). */
/* Whether slot t's next step may touch shared state: its instruction may
 * (inst_shared), it resumes micro-ops, it waits past its last record, or
 * every thread of its work-group still running is at its last record (one
 * step may then end the work-group, which starts the next one; a thread
 * not yet at its last record cannot finish within the step). */
static bool thread_shared(const tm_cu *c, const tm_thread *th)
{
    if (th->state != TH_RUN && th->state != TH_BLOCKED)
        return false;
    const tm_wgslot *w = &c->wg[th->wg];
    return !th->ti || th->ti->shared || th->in_uops ||
           (th->atlast && w->atlast == w->left);
}

/* Slot t's flag and the count from its state. */
static inline void set_shared(tm_cu *c, uint32_t t)
{
    uint8_t sh = thread_shared(c, &c->th[t]);
    c->nshared += (uint32_t)sh - c->shared[t];
    c->shared[t] = sh;
}

/* The flags of work-group slot wg's threads after its counts changed:
 * only a thread at its last record (and slot t, whose own state changed)
 * reads them, the others' flags stay as they are. */
static void set_shared_atlast(const tm_model *m, tm_cu *c, uint32_t wg, uint32_t t)
{
    uint32_t base = wg * m->sgs, nsg = c->wg[wg].nsg;
    if (m->sgs <= 64) {
        /* the threads at their last record from the group's mask */
        uint64_t w = c->wg[wg].atmask;
        if (t - base < nsg)
            w |= 1ull << (t - base);
        for (; w; w &= w - 1)
            set_shared(c, base + (uint32_t)__builtin_ctzll(w));
        return;
    }
    for (uint32_t i = 0; i < nsg; i++)
        if (c->th[base + i].atlast || base + i == t)
            set_shared(c, base + i);
}

/* Slot t's flag, after its state changed; when that changes its
 * work-group's count of threads at their last record, all of the group's. */
static void update_shared(const tm_model *m, tm_cu *c, uint32_t t)
{
    tm_thread *th = &c->th[t];
    bool al = (th->state == TH_RUN || th->state == TH_BLOCKED) && th->ti &&
              th->cur + 1 >= th->nrec;
    if (al == th->atlast) {
        set_shared(c, t);
        return;
    }
    th->atlast = al;
    tm_wgslot *w = &c->wg[th->wg];
    bool was_all = w->atlast == w->left;
    w->atlast = al ? w->atlast + 1 : w->atlast - 1;
    /* a thread ends with atlast false, so a group's mask is empty when
     * its slot takes the next group */
    if (m->sgs <= 64)
        w->atmask ^= 1ull << (t - th->wg * m->sgs);
    /* the others' flags read atlast == left alone: while that holds or
     * fails as before, only slot t's changes (all of a group's threads
     * reaching their last records one by one made this loop quadratic) */
    if ((w->atlast == w->left) == was_all)
        set_shared(c, t);
    else
        set_shared_atlast(m, c, th->wg, t);
}

/* Whether an instruction's issue may touch shared state: a global memory
 * access, a micro-op sequence (block I/O), a spill; a work-group barrier
 * only when barriers are released at once (latency 0): then the release
 * may let the arriving thread issue its next record in the same step
 * (the general scan picks a woken thread again), whatever that record is.
 * With a latency every release comes after the step, and the release
 * itself writes only its CU, except through threads whose own flags
 * already mark the step shared (docs/timing-model.md, "Host threads"). */
bool tm_inst_shared(const tm_inst *ti, const emu_timing_cfg *tc)
{
    if (ti->fills || ti->spills)
        return true;
    switch ((tm_kind)ti->kind) {
    case TM_K_MEM:
        return ti->space != ISA_SPACE_LOCAL;
    case TM_K_ATOMIC:
    case TM_K_UOPS:
    case TM_K_UOPS_WG:
        return true;
    case TM_K_BARRIER:
        return tc->barrier_latency == 0;
    default:
        return false;
    }
}

void tm_sync_thread(tm_model *m, tm_cu *c, uint32_t t)
{
    tm_thread *th = &c->th[t];
    uint32_t pos = m->t_pos[t];
    update_shared(m, c, t);
    if (t != c->picked)
        c->woke = true;
    uint32_t sc = m->t_sched[t];
    /* the wait lists (c->sm) read own by rank (oe), the scan of step_sched
     * ecache, unit and qage: each mode writes only its own */
    if (th->state != TH_RUN || !th->ti) {
        if (c->sm) {
            if (c->own[pos] != TM_NEVER)
                sm_move(c, sc, pos, false, 0, TM_NEVER);
            c->oe[c->rank[pos]] = TM_NEVER;
        } else {
            c->ecache[pos] = TM_NEVER;
        }
        c->own[pos] = TM_NEVER;
        return;
    }
    if (!th->dep_ok)
        compute_dep(m, th);
    uint64_t own = max64(th->next_issue, th->dep);
    c->own[pos] = own;
    if (c->sm) {
        c->oe[c->rank[pos]] = own;
        sm_move(c, sc, pos, true, th->ti->upipe, own);
    } else {
        c->ecache[pos] = own;
        c->unit[pos] = th->ti->unitset;
        c->qage[pos] = th->age;
    }
}

void tm_finish_thread(tm_model *m, uint32_t ci, tm_thread *th)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    th->state = TH_DONE;
    tm_sync_thread(m, c, (uint32_t)(th - c->th));
    w->done = max64(w->done, th->last_done);
    if (--w->left) {
        /* the flags of the threads at their last record change only when
         * atlast == left does */
        if ((w->atlast == w->left) != (w->atlast == w->left + 1))
            set_shared_atlast(m, c, th->wg, UINT32_MAX);
        return;
    }
    /* the work-group is complete: free its slot, start the next one */
    uint64_t done = w->done;
    m->end = max64(m->end, done);
    c->last_done = max64(c->last_done, done);
    m->resident_integral += (double)w->nsg * (double)(done - w->start);
    c->resident -= w->nsg;
    if (m->tracing)
        tm_trace_counter(&m->trace, "resident threads", ci, done, "threads", c->resident);
    w->used = false;
    uint32_t slot = th->wg;
    if (m->wg_next < m->L->wg_total)
        tm_start_wg(m, ci, slot, done + m->tc->dispatch_latency);
}

static void release_barrier(tm_model *m, uint32_t ci, tm_wgslot *w, uint32_t slot);
static void run_uops(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t);

static void arrive(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    uint32_t slot = (uint32_t)(th - c->th);
    th->state = TH_BLOCKED;
    th->next_issue = t;    /* arrival, for the barrier stall */
    bool last = ++w->arrived == w->nsg;
    /* the picked thread's step syncs it right after its issue
     * (issue_picked), and nothing reads its entries before that unless
     * the barrier is released now */
    if (last || slot != c->picked)
        tm_sync_thread(m, c, slot);
    tm_barrier_send(c, th->wg, t);
    w->arrived_last = max64(w->arrived_last, t);
    if (last)
        release_barrier(m, ci, w, th->wg);
}

static void release_barrier(tm_model *m, uint32_t ci, tm_wgslot *w, uint32_t slot)
{
    tm_cu *c = &m->cu[ci];
    uint32_t base = slot * m->sgs;
    /* the CU's unit counts every message up to this group's last arrival;
     * subgroup i is released at first + i x release interval */
    tm_barrier_count(c, w->arrived_last, m->tc->barrier_arrival_ii);
    uint64_t first = w->bar_counted + m->tc->barrier_latency;
    w->bar_counted = 0;
    w->arrived_last = 0;
    w->arrived = 0;
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[base + i];
        uint64_t rel = first + (uint64_t)i * m->tc->barrier_release_ii;
        c->stall[TM_STALL_BARRIER] += rel - th->next_issue;
        th->state = TH_RUN;
        th->next_issue = rel;
        th->last_done = max64(th->last_done, rel);
        tm_lower_snext(c, m->t_sched[base + i], rel);
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[base + i];
        if (th->in_uops && th->state == TH_RUN)
            run_uops(m, ci, th, th->next_issue);
        else if (th->state == TH_RUN && th->cur >= w->tr.sg[th->sg].n)
            tm_finish_thread(m, ci, th);
    }
    for (uint32_t i = 0; i < w->nsg; i++)
        tm_sync_thread(m, c, base + i);
    if (first < c->next_time)
        c->next_time = first;
}

/* Memory addresses of a record in the model's flat space: the record's
 * own (no copy), or for private memory each work-item's copy in out;
 * *strided: they step by one stride (emu_rec.strided). */
static const uint64_t *rec_addrs(tm_model *m, const tm_cu *c, const tm_thread *th,
                                 const emu_rec *r, isa_space sp, uint32_t eb, uint64_t *out,
                                 uint32_t *nout, bool *strided)
{
    const emu_wg_trace *tr = &c->wg[th->wg].tr;
    uint32_t n = r->naddr < 64 ? r->naddr : 64;
    const uint64_t *a = tr->addrs + r->addr_first;
    *nout = n;
    *strided = r->strided;
    if (sp != ISA_SPACE_PRIVATE)
        return a;
    /* private memory: each work-item has its own copy, interleaved across
     * the lanes of its sub-group at the access's size (as NVIDIA's local
     * memory and Intel's scratch space): offset o of lane l lies at
     * o x W + l x bytes in the sub-group's area, so the W lanes' copies of
     * one value are contiguous and objects apart stay apart */
    uint64_t priv = m->L->k->private_mem ? m->L->k->private_mem : 1;
    uint64_t w = m->L->width ? m->L->width : 1;
    uint64_t sgi = c->wg[th->wg].wg_linear * m->sgs + th->sg;
    uint64_t mask = r->mask;
    /* a stride d over adjacent lanes stays a stride, d x W + bytes */
    uint64_t run = mask >> (mask ? __builtin_ctzll(mask) : 0);
    *strided = r->strided && !(run & (run + 1));
    for (uint32_t i = 0; i < n && mask; i++) {
        uint32_t lane = (uint32_t)__builtin_ctzll(mask);
        mask &= mask - 1;
        out[i] = ((uint64_t)0x2000 << 40) + sgi * priv * w + a[i] * w + (uint64_t)lane * eb;
    }
    return out;
}

/* A micro-op's key, never 0: its first 8 bytes less the sub-group (kind,
 * type, binop, space, lanes), which hold all its description (tm_udesc)
 * depends on. */
_Static_assert(offsetof(coll_uop, lanes) == 4 && offsetof(coll_uop, sg) == 6,
               "uop_key reads kind..lanes as the first 6 bytes");
static inline uint64_t uop_key(const coll_uop *u)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t k;
    memcpy(&k, u, sizeof k);
    return (k & 0x0000ffffffffffffull) | 1ull << 63;
#else
    return (uint64_t)u->kind | (uint64_t)u->type << 8 | (uint64_t)u->binop << 16 |
           (uint64_t)u->space << 24 | (uint64_t)u->lanes << 32 | 1ull << 63;
#endif
}

static void udesc_make(const tm_model *m, const coll_uop *u, tm_udesc *d)
{
    tm_pipe p = tm_uop_pipe(u);
    uint32_t tb = u->type < ISA_T_COUNT ? isa_types[u->type].bytes : 4;
    uint32_t passes = tm_passes(m->tc, p, u->lanes, tb);
    d->occ = (uint64_t)passes * m->pipe_ii[p];
    d->lat = m->tc->pipe[p].latency + (uint64_t)(passes - 1) * m->pipe_ii[p];
    d->off = m->unit_off[p];
    d->pipe = (uint8_t)p;
    d->kind = u->kind;
    d->flags = (uint8_t)((m->unit_n[p] > 1 ? TM_UD_MULTI : 0) |
                         (tm_uop_batch_kind(u->kind) ? TM_UD_BATCH : 0));
    switch (u->kind) {
    case COLL_UOP_BARRIER:
        d->flags |= TM_UD_BARRIER;
        break;
    case COLL_UOP_SLM_LOAD:
    case COLL_UOP_SLM_STORE:
    case COLL_UOP_BLOCK_LOAD:
    case COLL_UOP_BLOCK_STORE:
    case COLL_UOP_MEDIA_LOAD:
    case COLL_UOP_MEDIA_STORE:
        d->flags |= TM_UD_MEM;
        break;
    default:
        break;
    }
}

/* The description of micro-op u at position i of a sequence of q's pc,
 * made and kept when q's is not for u's key (past the kept positions:
 * made each time). */
static tm_udesc udesc_get(const tm_model *m, tm_useq *q, uint32_t i, const coll_uop *u,
                          uint64_t k)
{
    tm_udesc d;
    udesc_make(m, u, &d);
    if (i < TM_USEQ_UOPS) {
        q->d[i] = d;
        q->key[i] = k;
    }
    return d;
}

/* The descriptions by pc that the host thread owning CU ci keeps (in
 * CU ci mod nthreads: its first CU), made empty at first use; NULL when
 * out of host memory (the caller then makes each description anew). */
static tm_useq *useq_of(tm_model *m, uint32_t ci)
{
    tm_cu *o = &m->cu[m->nthreads > 1 ? ci % m->nthreads : 0];
    if (__builtin_expect(!o->useq, 0)) {
        o->useq = malloc(TM_USEQS * sizeof *o->useq);
        for (uint32_t e = 0; o->useq && e < TM_USEQS; e++)
            memset(o->useq[e].key, 0, sizeof o->useq[e].key);
    }
    return o->useq;
}

/* Completion of a memory micro-op started at s. */
static uint64_t uop_mem(tm_model *m, uint32_t ci, const coll_uop *u, uint64_t s)
{
    switch (u->kind) {
    case COLL_UOP_SLM_LOAD:
    case COLL_UOP_SLM_STORE:
        return tm_mem_block(&m->mem, ci, s, ISA_SPACE_LOCAL, u->addr, u->bytes,
                            u->kind == COLL_UOP_SLM_STORE);
    case COLL_UOP_BLOCK_LOAD:
    case COLL_UOP_BLOCK_STORE:
        return tm_mem_block(&m->mem, ci, s, (isa_space)u->space, u->addr, u->bytes,
                            u->kind == COLL_UOP_BLOCK_STORE);
    default: {   /* MEDIA_LOAD, MEDIA_STORE */
        uint32_t rows = u->rows ? u->rows : 1, per = u->bytes / rows;
        uint64_t x = u->addr & 0xffffffffu, y = u->addr >> 32;
        return tm_mem_rows(&m->mem, ci, s, tm_image_addr(u->image, x, y, u->pitch),
                           u->pitch, rows, per, u->kind == COLL_UOP_MEDIA_STORE);
    }
    }
}

/* Run (or resume) the micro-ops of record th->urec from th->ucur at time t:
 * each waits for the previous one's result, except in a run of one kind
 * whose micro-ops are independent (indirect moves of disjoint lane chunks,
 * the messages of one block access: uops.def's BATCH), which all start
 * from the run's input time and pipeline on their unit.  Each micro-op's
 * pipe, passes and start rule come from its description in the host
 * thread's useq, made once per key. */
static void run_uops(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    const emu_rec *r = &w->tr.sg[th->sg].recs[th->urec];
    const tm_inst *ti = &m->inst[r->pc];
    const coll_uop *uops = w->tr.uops + r->uop_first;
    const uint32_t n = r->nuops, first = th->ucur;
    tm_useq *qs = useq_of(m, ci), scratch;
    if (!qs)
        memset(scratch.key, 0, sizeof scratch.key);
    tm_useq *q = qs ? &qs[r->pc % TM_USEQS] : &scratch;
    uint64_t *eu = th->eu_units;
    const bool wg = ti->kind == TM_K_UOPS_WG;
    /* a shuffle unit that computes the source lane: the index micro-ops
     * [0, lead) are its own, its moves start once the lane operand is read */
    const uint32_t lead = ti->lane_uops < n ? ti->lane_uops : 0;
    if (lead && first == 0)
        t += ti->lane_lat;
    uint64_t chain = t, prev_in = t;
    uint32_t skipped = 0;      /* another sub-group's (work-group collectives) */
    int prev_kind = -1;
    th->in_uops = false;
    uint32_t i = first < lead ? lead : first;
    for (; i < n; i++) {
        const coll_uop *u = &uops[i];
        if (wg && u->sg != th->sg) {
            skipped++;
            continue;
        }
        const uint64_t k = uop_key(u);
        const tm_udesc d = __builtin_expect(i < TM_USEQ_UOPS && q->key[i] == k, 1)
                               ? q->d[i] : udesc_get(m, q, i, u, k);
        /* a run of one BATCH kind starts together */
        const bool batched = (d.flags & TM_UD_BATCH) && d.kind == prev_kind;
        const uint64_t in = batched ? prev_in : chain;
        uint64_t done;
        if (__builtin_expect((d.flags & ~TM_UD_BATCH) == 0 && i != lead, 1)) {
            /* the pipe's one unit in its first gap; the result at the
             * pipe's latency */
            uint64_t s = tm_unit_hold(c, eu + d.off, in, d.occ, c->now);
            done = s + d.lat;
        } else {
            if (d.flags & TM_UD_BARRIER) {
                m->st->uops += i + 1 - first - skipped;
                th->in_uops = true;
                th->ucur = i + 1;
                arrive(m, ci, th, chain);
                return;
            }
            uint64_t *f = eu + d.off;
            if (d.flags & TM_UD_MULTI)
                f += pick_unit(m, f, (tm_pipe)d.pipe);
            uint64_t s = tm_unit_hold(c, f, in, d.occ, c->now);
            if (i == lead)   /* the payload read (a Gen media block message's token) */
                write_srcrd(th, ti, s + d.occ);
            done = d.flags & TM_UD_MEM ? uop_mem(m, ci, u, s) : s + d.lat;
        }
        chain = batched ? max64(chain, done) : done;
        prev_in = in;
        prev_kind = d.kind;
    }
    m->st->uops += i - first - skipped;
    write_dst(th, ti, chain, false);
    th->last_done = max64(th->last_done, chain);
    tm_line_stats *ls = &c->per_inst[r->pc];
    ls->cycles += chain - th->issue_t;
    if (th->cur >= w->tr.sg[th->sg].n && th->state == TH_RUN)
        tm_finish_thread(m, ci, th);
}

void tm_issue(tm_model *m, uint32_t ci, uint32_t ti_idx, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    tm_thread *th = &c->th[ti_idx];
    const emu_rec *r = &th->recs[th->cur];    /* loaded only where used */
    const uint32_t pc = th->pcs[th->cur];
    const tm_inst *ti = th->ti;
    const emu_timing_cfg *tc = m->tc;
    uint64_t dep, pipe;
    bool dmem;
    c->now = T;
    earliest(m, c, ti_idx, &dep, &pipe, &dmem);
    uint64_t gap = T - th->next_issue;
    tm_stall why = TM_STALL_ISSUE;
    if (dep > th->next_issue && dep >= pipe)
        why = dmem ? TM_STALL_MEM : TM_STALL_DEP;
    else if (pipe > th->next_issue)
        why = TM_STALL_PIPE;
    c->stall[why] += gap;
    /* lanes were added when the work-group started (count_wg) */
    tm_line_stats *ls = &c->per_inst[pc];
    ls->count++;
    ls->stalls += gap;

    uint32_t idx = th->cur++;
    th->dep_ok = false;
    set_ti(m, c, th);
    uint64_t done;
    th->next_issue = T + 1;
    switch ((tm_kind)ti->kind) {
    default:
        done = T + 1;
        break;
    case TM_K_ALU: {
        uint64_t t0 = ti->fills ? tm_spill_fill(m, ci, ti_idx, ti, T) : T;
        /* the earliest free unit of its set; an integer add: as
         * either_unit picks (issue_alu the same) */
        uint64_t *f = c->th[ti_idx].eu_units + (ti->unitset & 0xffff);
        uint32_t b = 0;
        for (uint32_t u = 1; u < ti->unitset >> 16; u++)
            if (f[u] < f[b])
                b = u;
        uint64_t s = max64(t0, f[b]);
        if (ti->int_either)
            b = either_unit(f, ti->unitset >> 16, b, s);
        s = t0 == T ? unit_take_now(c, f + b, T, ti->occ) : tm_unit_hold(c, f + b, t0, ti->occ, T);
        done = s + ti->lat;
        write_dst(th, ti, done, false);
        write_srcrd(th, ti, s + ti->occ);
        if (ti->spills)
            tm_spill_store(m, ci, ti_idx, ti, done);
        break;
    }
    case TM_K_MEM:
    case TM_K_ATOMIC: {
        uint64_t t0 = ti->fills ? tm_spill_fill(m, ci, ti_idx, ti, T) : T;
        uint64_t s = occupy(m, c, ti_idx, TM_PIPE_SEND, t0, ti->passes);
        uint64_t pa[64];
        isa_space sp = (isa_space)ti->space;
        uint32_t n;
        bool strided;
        const uint64_t *a = rec_addrs(m, c, th, r, sp, ti->elem_bytes, pa, &n, &strided);
        bool store = ti->store;
        bool atomic = ti->kind == TM_K_ATOMIC;
        if (sp == ISA_SPACE_LOCAL)
            done = tm_mem_local(&m->mem, ci, s, a, n, ti->elem_bytes, store, atomic);
        else
            done = tm_mem_global(&m->mem, ci, s, a, n, ti->elem_bytes, store, atomic,
                                     strided);
        write_dst(th, ti, done, true);
        write_srcrd(th, ti, s + ti->occ);
        if (ti->spills)
            tm_spill_store(m, ci, ti_idx, ti, done);
        break;
    }
    case TM_K_FENCE: {   /* the response once the thread's earlier work is done */
        uint64_t s = occupy(m, c, ti_idx, (tm_pipe)ti->pipe, T, ti->passes);
        done = max64(pipe_done(m, (tm_pipe)ti->pipe, s, ti->passes), th->last_done);
        write_dst(th, ti, done, true);
        write_srcrd(th, ti, s + ti->occ);
        break;
    }
    case TM_K_BRANCH: {
        uint64_t s = occupy(m, c, ti_idx, TM_PIPE_BRANCH, T, ti->passes);
        done = pipe_done(m, TM_PIPE_BRANCH, s, ti->passes);
        if (done > T + 1) {
            c->stall[TM_STALL_FETCH] += done - T - 1;
            th->next_issue = done;
        }
        break;
    }
    case TM_K_SG_BARRIER:
        done = T + (tc->sg_barrier_latency ? tc->sg_barrier_latency : 1);
        th->next_issue = done;
        break;
    case TM_K_BARRIER:
        th->last_done = max64(th->last_done, T + 1);
        if (m->tracing)
            tm_trace_slice(&m->trace, "barrier", ci, ti_idx, T, 1, pc,
                           tm_inst_line(m->L, pc), r->mask, tm_stall_names[why], gap);
        arrive(m, ci, th, T);
        return;
    case TM_K_UOPS:
    case TM_K_UOPS_WG:
        th->urec = idx;
        th->ucur = 0;
        th->issue_t = T;
        if (m->tracing)
            tm_trace_slice(&m->trace, tm_inst_name(m->L, pc), ci, ti_idx, T, 1, pc,
                           tm_inst_line(m->L, pc), r->mask, tm_stall_names[why], gap);
        run_uops(m, ci, th, T);
        return;
    }
    ls->cycles += done - T;
    th->last_done = max64(th->last_done, done);
    if (m->tracing)
        tm_trace_slice(&m->trace, tm_inst_name(m->L, pc), ci, ti_idx, T, done - T, pc,
                       tm_inst_line(m->L, pc), r->mask, tm_stall_names[why], gap);
    if (th->cur >= th->nrec)
        tm_finish_thread(m, ci, th);
}
