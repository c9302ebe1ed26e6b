/* timing_core.c - the issue loop: work-group dispatch to compute units,
 * execution units (EUs) inside each compute unit with their own schedulers
 * and pipes, a scoreboard per thread, pipes as units with a "free at" time,
 * barriers as rendezvous.  Compute units are stepped in time order (lowest
 * next-issue time, then lowest index, kept in a heap), so shared L2/DRAM
 * ports see requests in time order and the result is deterministic.
 * Event-driven: each thread caches a lower bound of its next issue time and
 * each scheduler the minimum over its threads, so a cycle only looks at
 * schedulers that may issue. */
#include "timing_private.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

const char *const tm_stall_names[TM_STALL_COUNT] = {
#define X(E, n) n,
    TM_STALLS(X)
#undef X
};

enum { TH_FREE, TH_RUN, TH_BLOCKED, TH_DONE };

/* Per scheduler, runnable slots per pipe (and "none"): a power-of-two row. */
#define TM_UCNT_STRIDE 16
_Static_assert(TM_UCNT_STRIDE >= TM_PIPE_COUNT + 1, "ucnt row holds every pipe and none");

typedef struct tm_thread {
    /* first cache line: what every issue and scan refresh reads */
    _Alignas(64) const tm_inst *ti;     /* info of record cur (kept hot: no record load per check) */
    const uint32_t *pcs;   /* this thread's record pcs (tm_wgslot.pcs) */
    uint64_t *ready;       /* scoreboard: slot ready time */
    uint8_t *rmem;         /* slot written by a memory op */
    uint64_t *eu_units;    /* this slot's EU: unit "free at" times, all pipes */
    uint64_t next_issue;   /* earliest issue by program order / fetch / barrier */
    uint64_t dep;          /* cached: latest source ready time of record cur */
    uint64_t last_done;
    /* second line */
    uint32_t cur;          /* next record */
    uint32_t nrec;
    uint8_t state;
    bool dep_ok;           /* dep/dmem valid (cleared when cur or ready[] change) */
    bool dmem;             /* that source was written by a memory op */
    bool in_uops;          /* blocked inside a micro-op sequence */
    bool atlast;           /* counted in its work-group's atlast */
    uint32_t wg;           /* work-group slot on the CU */
    uint32_t sg;
    uint32_t urec, ucur;   /* record and micro-op to resume after a barrier */
    uint64_t age;
    uint64_t issue_t;      /* issue time of the record being resumed */
    const emu_rec *recs;   /* this thread's record stream (set at dispatch) */
} tm_thread;

typedef struct tm_wgslot {
    bool used;
    emu_wg_trace tr;
    /* The pcs of tr's records, subgroup after subgroup: the issue path
     * reads 4 bytes per record instead of a whole record. */
    uint32_t *pcs;
    size_t pcs_cap;
    uint64_t wg_linear;
    uint32_t nsg, left, arrived;
    uint32_t atlast;       /* threads not done whose next record is their last */
    uint64_t start, done;
} tm_wgslot;

typedef struct tm_cu {
    tm_thread *th;
    tm_wgslot *wg;
    uint64_t *pfree;       /* per EU: unit_total "free at" times */
    uint32_t *rr;          /* round-robin position per scheduler (list index) */
    uint64_t *snext;       /* per scheduler: lower bound of its next issue */
    /* Per slot, at its position in the scheduler lists (t_pos): what a
     * scheduler scan reads, packed so a scan touches a few cache lines and no
     * thread struct.  own = max(next issue, sources ready) of a runnable
     * thread (TM_NEVER otherwise), unit = pipe units of its next record
     * (offset | count << 16, or UINT32_MAX: none); the earliest issue is
     * max(own, earliest free of those units). */
    uint64_t *own;
    uint64_t *ecache;      /* lower bound of the issue time (last computed, or own) */
    uint32_t *unit;
    uint64_t *qage;
    /* Per scheduler, its positions by age (oldest first; slots not yet
     * dispatched in front: they never issue), for oldest_first. */
    uint32_t *ord;
    /* Per slot position: the pipe of its next record (TM_PIPE_COUNT: none);
     * per scheduler: its runnable slots (own != TM_NEVER), in all and per
     * pipe, so a pass can tell without a walk that every runnable thread
     * waits for the unit set just taken. */
    uint8_t *upipe;
    uint32_t *nrun, *ucnt;
    /* oldest_first: per position its index in ord (rank), and the issue
     * bound at each index of ord (the bound of ord[i] is oe[i]) */
    uint32_t *rank;
    uint64_t *oe;
    /* Per slot: its next step may touch state shared between compute units
     * (L2/DRAM ports and tags, the work-group dispatch order); nshared
     * counts those slots.  A step with nshared == 0 stays inside this CU,
     * so it may run ahead of the other CUs' steps (see tm_run). */
    uint8_t *shared;
    uint32_t nshared;
    /* Touched by this CU's steps only, so that with several host threads
     * (one owner per CU) they need no locks; summed into the statistics in
     * CU order at the end. */
    uint64_t stall[TM_STALL_COUNT];
    tm_line_stats *per_inst;
    uint32_t *cand;                 /* step_sched scratch: candidate positions */
    uint64_t *arrivals;             /* release_barrier scratch: arrival per subgroup */
    uint32_t picked;                /* slot issuing now (UINT32_MAX: none) */
    bool woke;                      /* another slot's scan entry changed meanwhile */
    uint64_t next_time;
    uint64_t first_start, last_done;
    uint32_t resident;
} tm_cu;

typedef struct tm_model {
    const tm_launch *L;
    const emu_timing_cfg *tc;
    sgemu_timing *st;
    tm_inst *inst;
    tm_cu *cu;
    uint32_t ncu, sgs, wgs_per_cu, slots, nslot_regs;
    uint32_t neu, spe, nsched;      /* EUs per CU, schedulers per EU, per CU */
    uint32_t *t_eu, *t_sched;       /* per thread slot: its EU and scheduler */
    uint32_t *s_first, *s_list;     /* per scheduler: its slots, ascending */
    uint32_t *t_pos;                /* per slot: its index in s_list */
    size_t *s_eu_off;               /* per scheduler: its EU's units in pfree */
    uint32_t spill_first;           /* first spilled register (UINT32_MAX: none) */
    uint32_t unit_off[TM_PIPE_COUNT], unit_n[TM_PIPE_COUNT], unit_total;
    uint32_t *heap, *hpos;          /* CUs by (next_time, index) */
    uint64_t wg_next, age, end;
    double resident_integral;
    tm_mem mem;
    tm_trace trace;
    bool tracing;
    bool oom;                       /* err: out of host memory here */
    _Atomic int err;                /* read by every host thread */
    /* Host threads (tm_run_threads): each CU's next_time as its owner last
     * published it (never above the real one: next_time only grows). */
    _Atomic uint64_t *pub;
    uint32_t nthreads;
} tm_model;

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Bit count without a libgcc call (the build targets baseline x86-64). */
static inline uint64_t popcount64(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (v * 0x0101010101010101ull) >> 56;
}

static uint32_t pick_unit(const tm_model *m, const uint64_t *f, tm_pipe p)
{
    uint32_t best = 0;
    for (uint32_t u = 1; u < m->unit_n[p]; u++)
        if (f[u] < f[best])
            best = u;
    return best;
}

/* Occupy pipe p of slot t's EU from max(t0, unit free) for `passes`;
 * returns the start. */
static uint64_t occupy(tm_model *m, tm_cu *c, uint32_t t, tm_pipe p, uint64_t t0,
                       uint32_t passes)
{
    uint64_t *f = c->th[t].eu_units + m->unit_off[p];   /* units of p on t's EU */
    if (m->unit_n[p] > 1)
        f += pick_unit(m, f, p);
    uint64_t s = max64(t0, *f);
    *f = s + (uint64_t)passes * (m->tc->pipe[p].ii ? m->tc->pipe[p].ii : 1);
    return s;
}

static uint64_t pipe_done(const tm_model *m, tm_pipe p, uint64_t start, uint32_t passes)
{
    const tm_pipe_cfg *pc = &m->tc->pipe[p];
    return start + pc->latency + (uint64_t)(passes - 1) * (pc->ii ? pc->ii : 1);
}


/* Earliest cycle the thread's next instruction can issue; *dep and *pipe
 * report the binding constraints for stall classification. */
/* Cache the info of the thread's current record (NULL past the end). */
static inline void set_ti(const tm_model *m, const tm_cu *c, tm_thread *th)
{
    (void)c;
    th->ti = th->cur < th->nrec ? &m->inst[th->pcs[th->cur]] : NULL;
    /* hundreds of pc streams advance in turn: too many for the hardware
     * prefetcher, so fetch the next line ahead */
    if (th->cur + 16 < th->nrec)
        __builtin_prefetch(&th->pcs[th->cur + 16]);
}

/* The scoreboard part: latest ready time of the current record's sources.
 * Cached per thread: it changes only when the thread moves to another record
 * or writes its own registers. */
static inline __attribute__((always_inline)) void compute_dep(const tm_model *m, tm_thread *th)
{
    const tm_inst *ti = th->ti;
    uint64_t d = 0;
    bool dm = false;
    if (ti->nflat != TM_FLAT_NONE) {
        for (uint32_t i = 0; i < ti->nflat; i++) {
            uint32_t s = ti->flat[i];
            if (th->ready[s] > d) {
                d = th->ready[s];
                dm = th->rmem[s];
            }
        }
        th->dep = d;
        th->dmem = dm;
        th->dep_ok = true;
        return;
    }
    for (uint32_t i = 0; i < ti->nsrc; i++)
        for (uint32_t j = 0; j < ti->src[i].n; j++) {
            uint32_t s = ti->src[i].first + j;
            if (s < m->nslot_regs && th->ready[s] > d) {
                d = th->ready[s];
                dm = th->rmem[s];
            }
        }
    th->dep = d;
    th->dmem = dm;
    th->dep_ok = true;
}

/* Earliest free unit of the pipe the current record issues to (0: none). */
static inline uint64_t pipe_free_at(const tm_model *m, const tm_thread *th, const tm_inst *ti)
{
    if (!ti->has_pipe)
        return 0;
    const uint64_t *f = th->eu_units + m->unit_off[ti->pipe];
    uint64_t best = f[0];
    for (uint32_t u = 1; u < m->unit_n[ti->pipe]; u++)
        if (f[u] < best)
            best = f[u];
    return best;
}

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

static void set_shared(tm_cu *c, uint32_t t)
{
    uint8_t sh = thread_shared(c, &c->th[t]);
    c->nshared += (uint32_t)sh - c->shared[t];
    c->shared[t] = sh;
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
    w->atlast = al ? w->atlast + 1 : w->atlast - 1;
    for (uint32_t i = 0; i < w->nsg; i++)
        set_shared(c, th->wg * m->sgs + i);
}

/* Whether an instruction's issue may touch shared state: a global memory
 * access, a micro-op sequence (block I/O), a spill; or a work-group barrier,
 * whose release may let the waiting threads issue at once, in the same
 * step, whatever they issue next. */
static bool inst_shared(const tm_inst *ti)
{
    if (ti->fills || ti->spills)
        return true;
    switch ((tm_kind)ti->kind) {
    case TM_K_MEM:
        return ti->space != ISA_SPACE_LOCAL;
    case TM_K_ATOMIC:
    case TM_K_UOPS:
    case TM_K_UOPS_WG:
    case TM_K_BARRIER:
        return true;
    default:
        return false;
    }
}

static void sync_thread(tm_model *m, tm_cu *c, uint32_t t)
{
    tm_thread *th = &c->th[t];
    uint32_t pos = m->t_pos[t];
    update_shared(m, c, t);
    if (t != c->picked)
        c->woke = true;
    uint32_t sc = m->t_sched[t];
    uint32_t *cnt = c->ucnt + (size_t)sc * TM_UCNT_STRIDE;
    bool was = c->own[pos] != TM_NEVER;
    if (th->state != TH_RUN || !th->ti) {
        if (was) {
            c->nrun[sc]--;
            cnt[c->upipe[pos]]--;
        }
        c->own[pos] = c->ecache[pos] = c->oe[c->rank[pos]] = TM_NEVER;
        return;
    }
    if (!th->dep_ok)
        compute_dep(m, th);
    c->own[pos] = c->ecache[pos] = c->oe[c->rank[pos]] = max64(th->next_issue, th->dep);
    uint32_t p = th->ti->upipe;
    if (!was) {
        c->nrun[sc]++;
        cnt[p]++;
    } else if (c->upipe[pos] != p) {    /* runnable before and after: one move */
        cnt[c->upipe[pos]]--;
        cnt[p]++;
    }
    c->unit[pos] = th->ti->unitset;
    c->upipe[pos] = (uint8_t)p;
    c->qage[pos] = th->age;
}

/* The destination slots (those below the slot count: ndst) ready at done. */
static inline void write_dst(tm_thread *th, const tm_inst *ti, uint64_t done, bool mem)
{
    th->dep_ok = false;
    for (uint32_t j = 0; j < ti->ndst; j++) {
        th->ready[ti->dst.first + j] = done;
        th->rmem[ti->dst.first + j] = mem;
    }
}

static void start_wg(tm_model *m, uint32_t ci, uint32_t slot, uint64_t t);

static void finish_thread(tm_model *m, uint32_t ci, tm_thread *th)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    th->state = TH_DONE;
    sync_thread(m, c, (uint32_t)(th - c->th));
    w->done = max64(w->done, th->last_done);
    if (--w->left) {
        for (uint32_t i = 0; i < w->nsg; i++)   /* atlast == left may hold now */
            set_shared(c, th->wg * m->sgs + i);
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
        start_wg(m, ci, slot, done + m->tc->dispatch_latency);
}

static void release_barrier(tm_model *m, uint32_t ci, tm_wgslot *w, uint32_t slot);
static void run_uops(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t);

static void arrive(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    th->state = TH_BLOCKED;
    th->next_issue = t;    /* arrival, for the barrier stall */
    sync_thread(m, c, (uint32_t)(th - c->th));
    if (++w->arrived == w->nsg)
        release_barrier(m, ci, w, th->wg);
}

static void release_barrier(tm_model *m, uint32_t ci, tm_wgslot *w, uint32_t slot)
{
    tm_cu *c = &m->cu[ci];
    uint32_t base = slot * m->sgs;
    for (uint32_t i = 0; i < w->nsg; i++)
        c->arrivals[i] = c->th[base + i].next_issue;
    /* subgroup i is released at first + i x release interval */
    uint64_t first = tm_barrier_counted(c->arrivals, w->nsg, m->tc->barrier_arrival_ii) +
                     m->tc->barrier_latency;
    w->arrived = 0;
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[base + i];
        uint64_t rel = first + (uint64_t)i * m->tc->barrier_release_ii;
        c->stall[TM_STALL_BARRIER] += rel - th->next_issue;
        th->state = TH_RUN;
        th->next_issue = rel;
        th->last_done = max64(th->last_done, rel);
        uint32_t sc = m->t_sched[base + i];
        if (rel < c->snext[sc])
            c->snext[sc] = rel;
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[base + i];
        if (th->in_uops && th->state == TH_RUN)
            run_uops(m, ci, th, th->next_issue);
        else if (th->state == TH_RUN && th->cur >= w->tr.sg[th->sg].n)
            finish_thread(m, ci, th);
    }
    for (uint32_t i = 0; i < w->nsg; i++)
        sync_thread(m, c, base + i);
    if (first < c->next_time)
        c->next_time = first;
}

/* Memory addresses of a record in the model's flat space. */
static uint32_t rec_addrs(tm_model *m, const tm_cu *c, const tm_thread *th,
                          const emu_rec *r, isa_space sp, uint64_t *out)
{
    const emu_wg_trace *tr = &c->wg[th->wg].tr;
    uint32_t n = r->naddr < 64 ? r->naddr : 64;
    const uint64_t *a = tr->addrs + r->addr_first;
    if (sp != ISA_SPACE_PRIVATE) {
        memcpy(out, a, n * sizeof *a);
        return n;
    }
    /* private memory: each work-item has its own copy */
    uint64_t priv = m->L->k->private_mem ? m->L->k->private_mem : 1;
    uint64_t mask = r->mask;
    for (uint32_t i = 0; i < n && mask; i++) {
        uint32_t lane = (uint32_t)__builtin_ctzll(mask);
        mask &= mask - 1;
        uint64_t item = (c->wg[th->wg].wg_linear * m->sgs + th->sg) * 64 + lane;
        out[i] = ((uint64_t)0x2000 << 40) + item * priv + a[i];
    }
    return n;
}

/* Run (or resume) the micro-ops of record th->urec from th->ucur at time t:
 * each waits for the previous one's result, except consecutive indirect
 * moves (disjoint lane chunks), which pipeline. */
static void run_uops(tm_model *m, uint32_t ci, tm_thread *th, uint64_t t)
{
    tm_cu *c = &m->cu[ci];
    tm_wgslot *w = &c->wg[th->wg];
    const emu_rec *r = &w->tr.sg[th->sg].recs[th->urec];
    const tm_inst *ti = &m->inst[r->pc];
    bool wg = ti->kind == TM_K_UOPS_WG;
    uint64_t chain = t, prev_in = t;
    int prev_kind = -1;
    th->in_uops = false;
    for (uint32_t i = th->ucur; i < r->nuops; i++) {
        const coll_uop *u = &w->tr.uops[r->uop_first + i];
        if (wg && u->sg != th->sg)
            continue;
        if (u->kind == COLL_UOP_BARRIER) {
            m->st->uops++;
            th->in_uops = true;
            th->ucur = i + 1;
            arrive(m, ci, th, chain);
            return;
        }
        m->st->uops++;
        tm_pipe p = tm_uop_pipe(u);
        uint32_t tb = u->type < ISA_T_COUNT ? isa_types[u->type].bytes : 4;
        uint32_t passes = tm_passes(m->tc, p, u->lanes, tb);
        uint64_t in = (u->kind == COLL_UOP_MOV_INDIRECT && prev_kind == COLL_UOP_MOV_INDIRECT)
            ? prev_in : chain;
        uint64_t s = occupy(m, c, (uint32_t)(th - c->th), p, in, passes), done;
        switch (u->kind) {
        case COLL_UOP_SLM_LOAD:
        case COLL_UOP_SLM_STORE:
            done = tm_mem_block(&m->mem, ci, s, ISA_SPACE_LOCAL, u->addr, u->bytes,
                                u->kind == COLL_UOP_SLM_STORE);
            break;
        case COLL_UOP_BLOCK_LOAD:
        case COLL_UOP_BLOCK_STORE:
            done = tm_mem_block(&m->mem, ci, s, (isa_space)u->space, u->addr, u->bytes,
                                u->kind == COLL_UOP_BLOCK_STORE);
            break;
        case COLL_UOP_MEDIA_LOAD:
        case COLL_UOP_MEDIA_STORE: {
            uint32_t rows = u->rows ? u->rows : 1, per = u->bytes / rows;
            uint64_t x = u->addr & 0xffffffffu, y = u->addr >> 32;
            done = s;
            for (uint32_t row = 0; row < rows; row++)
                done = max64(done, tm_mem_block(&m->mem, ci, s, ISA_SPACE_GLOBAL,
                                                tm_image_addr(u->image, x, y + row, u->pitch),
                                                per, u->kind == COLL_UOP_MEDIA_STORE));
            break;
        }
        default:
            done = pipe_done(m, p, s, passes);
            break;
        }
        chain = in == prev_in && prev_kind == COLL_UOP_MOV_INDIRECT &&
                u->kind == COLL_UOP_MOV_INDIRECT ? max64(chain, done) : done;
        prev_in = in;
        prev_kind = u->kind;
    }
    write_dst(th, ti, chain, false);
    th->last_done = max64(th->last_done, chain);
    tm_line_stats *ls = &c->per_inst[r->pc];
    ls->cycles += chain - th->issue_t;
    if (th->cur >= w->tr.sg[th->sg].n && th->state == TH_RUN)
        finish_thread(m, ci, th);
}

/* ---- spilling: registers r >= spill_first live in per-thread scratch ----
 * Register r of slot t of CU ci sits at scratch(ci, t) + r x W x 4 (one
 * 32-bit value per lane).  Each distinct spilled source is a W x 4-byte block load
 * on the send pipe from the issue; the instruction starts when all are back.
 * Each spilled destination is a block store on the send pipe when the
 * result is ready (it does not delay the result). */
static uint64_t spill_addr(const tm_model *m, uint32_t ci, uint32_t t, uint32_t reg)
{
    uint64_t slot = (uint64_t)ci * m->slots + t;
    return ((uint64_t)0x3000 << 40) +
           (slot * m->L->k->nreg + reg) * (uint64_t)m->L->width * 4;
}

static uint64_t spill_fill(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    uint32_t bytes = m->L->width * 4, passes = tm_passes(m->tc, TM_PIPE_SEND, m->L->width, 4);
    uint64_t done = T;
    uint32_t seen[64], ns = 0;
    for (uint32_t i = 0; i < ti->nsrc; i++)
        for (uint32_t j = 0; j < ti->src[i].n; j++) {
            uint32_t r = ti->src[i].first + j;
            if (r < m->spill_first || r >= m->L->k->nreg)
                continue;
            uint32_t q = 0;
            while (q < ns && seen[q] != r)
                q++;
            if (q < ns)
                continue;           /* one fill per distinct register */
            if (ns < 64)
                seen[ns++] = r;
            uint64_t s = occupy(m, c, t, TM_PIPE_SEND, T, passes);
            done = max64(done, tm_mem_block(&m->mem, ci, s, ISA_SPACE_GLOBAL,
                                            spill_addr(m, ci, t, r), bytes, false));
            m->st->spill_fills++;
            m->st->spill_bytes_moved += bytes;
        }
    return done;
}

static void spill_store(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t at)
{
    tm_cu *c = &m->cu[ci];
    uint32_t bytes = m->L->width * 4, passes = tm_passes(m->tc, TM_PIPE_SEND, m->L->width, 4);
    for (uint32_t j = 0; j < ti->dst.n; j++) {
        uint32_t r = ti->dst.first + j;
        if (r < m->spill_first || r >= m->L->k->nreg)
            continue;
        uint64_t s = occupy(m, c, t, TM_PIPE_SEND, at, passes);
        tm_mem_block(&m->mem, ci, s, ISA_SPACE_GLOBAL, spill_addr(m, ci, t, r), bytes, true);
        m->st->spill_stores++;
        m->st->spill_bytes_moved += bytes;
    }
}

/* Which registers spill, and how many each instruction reads and writes.
 * The spilled share of the registers is the share of the GRF demand that
 * does not fit: nspill = ceil(nreg x spill_bytes / (need x bytes per
 * register)), the highest-numbered ones. */
static void spill_plan(tm_model *m)
{
    const isa_kernel *k = m->L->k;
    const emu_config *cfg = m->L->cfg;
    m->spill_first = UINT32_MAX;
    if (!m->st->grf_overflow || !m->tc->allow_spill || !k->nreg)
        return;
    uint64_t bpr = cfg->grf_bytes_per_reg ? cfg->grf_bytes_per_reg : 32;
    uint64_t demand = (uint64_t)m->st->grf_regs_needed * bpr;
    uint64_t ns = demand ? ((uint64_t)k->nreg * m->st->spill_bytes + demand - 1) / demand : 0;
    if (ns > k->nreg)
        ns = k->nreg;
    m->st->spilled_regs = (uint32_t)ns;
    m->spill_first = k->nreg - (uint32_t)ns;
    for (uint32_t pc = 0; pc < k->ninst; pc++) {
        tm_inst *ti = &m->inst[pc];
        if (ti->kind != TM_K_ALU && ti->kind != TM_K_MEM && ti->kind != TM_K_ATOMIC)
            continue;
        uint32_t f = 0, sp = 0;
        for (uint32_t i = 0; i < ti->nsrc; i++)
            for (uint32_t j = 0; j < ti->src[i].n; j++) {
                uint32_t r = ti->src[i].first + j;
                f += r >= m->spill_first && r < k->nreg;
            }
        for (uint32_t j = 0; j < ti->dst.n; j++) {
            uint32_t r = ti->dst.first + j;
            sp += r >= m->spill_first && r < k->nreg;
        }
        ti->fills = (uint8_t)(f < 255 ? f : 255);
        ti->spills = (uint8_t)(sp < 255 ? sp : 255);
    }
}

static void issue(tm_model *m, uint32_t ci, uint32_t ti_idx, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    tm_thread *th = &c->th[ti_idx];
    const emu_rec *r = &th->recs[th->cur];    /* loaded only where used */
    const uint32_t pc = th->pcs[th->cur];
    const tm_inst *ti = th->ti;
    const emu_timing_cfg *tc = m->tc;
    uint64_t dep, pipe;
    bool dmem;
    earliest(m, c, ti_idx, &dep, &pipe, &dmem);
    uint64_t gap = T - th->next_issue;
    tm_stall why = TM_STALL_ISSUE;
    if (dep > th->next_issue && dep >= pipe)
        why = dmem ? TM_STALL_MEM : TM_STALL_DEP;
    else if (pipe > th->next_issue)
        why = TM_STALL_PIPE;
    c->stall[why] += gap;
    /* counts and lanes were added when the work-group started (count_wg) */
    tm_line_stats *ls = &c->per_inst[pc];
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
        uint64_t t0 = ti->fills ? spill_fill(m, ci, ti_idx, ti, T) : T;
        uint64_t s = occupy(m, c, ti_idx, (tm_pipe)ti->pipe, t0, ti->passes);
        done = pipe_done(m, (tm_pipe)ti->pipe, s, ti->passes);
        write_dst(th, ti, done, false);
        if (ti->spills)
            spill_store(m, ci, ti_idx, ti, done);
        break;
    }
    case TM_K_MEM:
    case TM_K_ATOMIC: {
        uint64_t t0 = ti->fills ? spill_fill(m, ci, ti_idx, ti, T) : T;
        uint64_t s = occupy(m, c, ti_idx, TM_PIPE_SEND, t0, ti->passes);
        uint64_t a[64];
        isa_space sp = (isa_space)ti->space;
        uint32_t n = rec_addrs(m, c, th, r, sp, a);
        bool store = isa_ops[m->L->k->inst[pc].op].family == ISA_FAM_ST;
        bool atomic = ti->kind == TM_K_ATOMIC;
        if (sp == ISA_SPACE_LOCAL)
            done = tm_mem_local(&m->mem, ci, s, a, n, ti->elem_bytes, store);
        else
            done = tm_mem_global(&m->mem, ci, s, a, n, ti->elem_bytes, store, atomic);
        if (atomic && sp == ISA_SPACE_LOCAL)
            done += tc->atomic_ii;
        write_dst(th, ti, done, true);
        if (ti->spills)
            spill_store(m, ci, ti_idx, ti, done);
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
                           m->L->k->inst[pc].line, r->mask, tm_stall_names[why], gap);
        arrive(m, ci, th, T);
        return;
    case TM_K_UOPS:
    case TM_K_UOPS_WG:
        th->urec = idx;
        th->ucur = 0;
        th->issue_t = T;
        if (m->tracing)
            tm_trace_slice(&m->trace, isa_ops[m->L->k->inst[pc].op].mnemonic, ci,
                           ti_idx, T, 1, pc, m->L->k->inst[pc].line, r->mask,
                           tm_stall_names[why], gap);
        run_uops(m, ci, th, T);
        return;
    }
    ls->cycles += done - T;
    th->last_done = max64(th->last_done, done);
    if (m->tracing)
        tm_trace_slice(&m->trace, isa_ops[m->L->k->inst[pc].op].mnemonic, ci, ti_idx,
                       T, done - T, pc, m->L->k->inst[pc].line, r->mask,
                       tm_stall_names[why], gap);
    if (th->cur >= th->nrec)
        finish_thread(m, ci, th);
}

/* issue() and then sync_thread() of the picked slot t, for the common case:
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
        sync_thread(m, c, t);
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
    issue(m, ci, pick, T);
    if (m->err)
        return -1;
    sync_thread(m, c, pick);
    c->picked = UINT32_MAX;
    return c->woke;
}

/* Slot t got the newest age: move it to the end of its scheduler's order. */
static void age_order_last(const tm_model *m, tm_cu *c, uint32_t t)
{
    uint32_t s = m->t_sched[t], pos = m->t_pos[t];
    uint32_t *o = c->ord + m->s_first[s], n = m->s_first[s + 1] - m->s_first[s];
    uint64_t *oe = c->oe + m->s_first[s];
    uint32_t i = 0;
    while (o[i] != pos)
        i++;
    uint64_t e = oe[i];
    for (; i + 1 < n; i++) {
        o[i] = o[i + 1];
        oe[i] = oe[i + 1];
        c->rank[o[i]] = m->s_first[s] + i;
    }
    o[n - 1] = pos;
    oe[n - 1] = e;
    c->rank[pos] = m->s_first[s] + n - 1;
}

/* Every record of a started work-group issues once, so the per-pc counts
 * and lanes are added here, in one pass over its records, rather than by
 * read-modify-writes on the issue path. */
static int count_wg(tm_model *m, uint32_t ci, tm_wgslot *w)
{
    const emu_wg_trace *tr = &w->tr;
    sgemu_timing *st = m->st;
    uint64_t n = 0, lanes_all = 0;
    for (uint32_t i = 0; i < tr->nsg; i++)
        n += tr->sg[i].n;
    if (n > w->pcs_cap) {
        uint32_t *p = realloc(w->pcs, n * sizeof *p);
        if (!p)
            return -1;
        w->pcs = p;
        w->pcs_cap = n;
    }
    uint32_t *pcs = w->pcs;
    for (uint32_t i = 0; i < tr->nsg; i++) {
        const emu_rec *r = tr->sg[i].recs;
        for (uint32_t j = 0; j < tr->sg[i].n; j++) {
            uint64_t lanes = popcount64(r[j].mask);
            tm_line_stats *ls = &m->cu[ci].per_inst[r[j].pc];
            ls->count++;
            ls->lanes += lanes;
            lanes_all += lanes;
            *pcs++ = r[j].pc;
        }
    }
    st->instructions += n;
    st->lane_ops += lanes_all;
    st->lane_slots += n * m->L->width;
    st->cu_issued[ci] += n;
    return 0;
}

static void start_wg(tm_model *m, uint32_t ci, uint32_t slot, uint64_t t)
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
    if (count_wg(m, ci, w)) {
        m->err = SGEMU_EXIT_INTERNAL;
        m->oom = true;
        return;
    }
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
    size_t pcs_at = 0;
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[slot * m->sgs + i];
        th->state = TH_RUN;
        th->in_uops = false;
        th->wg = slot;
        th->sg = i;
        th->cur = 0;
        th->recs = w->tr.sg[i].recs;
        /* a work-group without records (a kernel of no instructions) never
         * allocated pcs: NULL + 0 is undefined, and no record is read */
        static const uint32_t no_pcs[1];
        th->pcs = w->pcs ? w->pcs + pcs_at : no_pcs;
        pcs_at += w->tr.sg[i].n;
        th->nrec = w->tr.sg[i].n;
        th->dep_ok = false;
        set_ti(m, c, th);
        th->next_issue = t;
        th->age = m->age++;
        age_order_last(m, c, slot * m->sgs + i);
        th->last_done = t;
        for (uint32_t s = 0; s < m->nslot_regs; s++) {
            th->ready[s] = t;
            th->rmem[s] = 0;
        }
        sync_thread(m, c, slot * m->sgs + i);
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        uint32_t sc = m->t_sched[slot * m->sgs + i];
        if (t < c->snext[sc])
            c->snext[sc] = t;
    }
    for (uint32_t i = 0; i < w->nsg; i++) {
        tm_thread *th = &c->th[slot * m->sgs + i];
        if (w->tr.sg[i].n == 0)
            finish_thread(m, ci, th);
    }
    if (t < c->next_time)
        c->next_time = t;
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
                if (c->unit[pos] == bu)
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
            c->snext[s] = low;
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
            else if (c->unit[pos] == bu)
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
                if (c->unit[pos] == bu) {
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
            c->snext[s] = low;
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
static void step(tm_model *m, uint32_t ci, uint64_t T)
{
    tm_cu *c = &m->cu[ci];
    /* one pass: a scheduler already passed that an issue wakes (barrier
     * release, new work-group) lowers c->next_time along with its snext */
    c->next_time = TM_NEVER;
    uint64_t next = TM_NEVER;
    bool oldest = m->tc->policy != 0 && m->tc->issue_width <= 8;
    for (uint32_t s = 0; s < m->nsched && !m->err; s++) {
        if (c->snext[s] <= T) {
            if (oldest)
                step_sched_oldest(m, ci, s, T);
            else
                step_sched(m, ci, s, T);
        }
        if (c->snext[s] < next)
            next = c->snext[s];
    }
    if (c->next_time < next)
        next = c->next_time;
    c->next_time = next;
}

/* ---- the CU heap: ordered by (next_time, index) ---- */
static bool heap_less(const tm_model *m, uint32_t a, uint32_t b)
{
    uint64_t ta = m->cu[a].next_time, tb = m->cu[b].next_time;
    return ta < tb || (ta == tb && a < b);
}

static void heap_swap(tm_model *m, uint32_t i, uint32_t j)
{
    uint32_t a = m->heap[i], b = m->heap[j];
    m->heap[i] = b;
    m->heap[j] = a;
    m->hpos[b] = i;
    m->hpos[a] = j;
}

static void heap_down(tm_model *m, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < m->ncu && heap_less(m, m->heap[l], m->heap[best]))
            best = l;
        if (r < m->ncu && heap_less(m, m->heap[r], m->heap[best]))
            best = r;
        if (best == i)
            return;
        heap_swap(m, i, best);
        i = best;
    }
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
    for (uint32_t s = 0; s < m->nsched; s++)
        m->s_first[s + 1] += m->s_first[s];
    uint32_t *fill = calloc(m->nsched, sizeof *fill);
    if (!fill)
        return -1;
    for (uint32_t t = 0; t < m->slots; t++) {
        uint32_t s = m->t_sched[t];
        m->t_pos[t] = m->s_first[s] + fill[s];
        m->s_list[m->s_first[s] + fill[s]++] = t;
    }
    free(fill);
    m->unit_total = 0;
    for (uint32_t p = 0; p < TM_PIPE_COUNT; p++) {
        uint32_t u = m->tc->pipe[p].units ? m->tc->pipe[p].units : 1;
        m->unit_off[p] = m->unit_total;
        m->unit_n[p] = u;
        m->unit_total += u;
    }
    for (uint32_t s = 0; s < m->nsched; s++)
        m->s_eu_off[s] = (size_t)(s / m->spe) * m->unit_total;
    return 0;
}

/* Per instruction, what the issue path reads instead of recomputing: the
 * flat source list compute_dep walks (same slots, same order), its pipe's
 * unit set, whether it may touch shared state.  After spill_plan and
 * placement_alloc. */
static void prepare_insts(tm_model *m)
{
    for (uint32_t pc = 0; pc < m->L->k->ninst; pc++) {
        tm_inst *ti = &m->inst[pc];
        ti->upipe = ti->has_pipe ? ti->pipe : TM_PIPE_COUNT;
        ti->unitset = ti->has_pipe ? m->unit_off[ti->pipe] | m->unit_n[ti->pipe] << 16
                                   : UINT32_MAX;
        ti->shared = inst_shared(ti);
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
        uint32_t ii = m->tc->pipe[ti->pipe].ii ? m->tc->pipe[ti->pipe].ii : 1;
        ti->alu_fast = ti->kind == TM_K_ALU && !ti->fills && !ti->spills && ti->has_pipe &&
                       ti->passes >= 1;
        ti->occ = (uint32_t)ti->passes * ii;
        ti->lat = m->tc->pipe[ti->pipe].latency + (uint32_t)(ti->passes ? ti->passes - 1 : 0) * ii;
        uint32_t dend = (uint32_t)ti->dst.first + ti->dst.n;
        if (dend > m->nslot_regs)
            dend = m->nslot_regs;
        ti->ndst = (uint16_t)(dend > ti->dst.first ? dend - ti->dst.first : 0);
    }
}

static int model_alloc(tm_model *m)
{
    const isa_kernel *k = m->L->k;
    m->nslot_regs = k->nreg + k->npred;
    m->inst = calloc(k->ninst ? k->ninst : 1, sizeof *m->inst);
    m->cu = calloc(m->ncu, sizeof *m->cu);
    m->st->per_inst = calloc(k->ninst ? k->ninst : 1, sizeof *m->st->per_inst);
    m->st->cu_busy_cycles = calloc(m->ncu, sizeof *m->st->cu_busy_cycles);
    m->st->cu_issued = calloc(m->ncu, sizeof *m->st->cu_issued);
    if (!m->inst || !m->cu || !m->st->per_inst || !m->st->cu_busy_cycles || !m->st->cu_issued)
        return -1;
    tm_inst_build(k, m->L->cfg, m->L->width, m->inst);
    spill_plan(m);
    if (placement_alloc(m))
        return -1;
    prepare_insts(m);
    m->heap = calloc(m->ncu, sizeof *m->heap);
    m->hpos = calloc(m->ncu, sizeof *m->hpos);
    if (!m->heap || !m->hpos)
        return -1;
    uint32_t regs = m->nslot_regs ? m->nslot_regs : 1;
    for (uint32_t i = 0; i < m->ncu; i++) {
        tm_cu *c = &m->cu[i];
        /* whole cache lines per thread: a thread's hot fields share one */
        c->th = aligned_alloc(64, ((size_t)m->slots * sizeof *c->th + 63) / 64 * 64);
        if (c->th)
            memset(c->th, 0, (size_t)m->slots * sizeof *c->th);
        c->wg = calloc(m->wgs_per_cu, sizeof *c->wg);
        c->pfree = calloc((size_t)m->neu * m->unit_total, sizeof *c->pfree);
        c->rr = calloc(m->nsched, sizeof *c->rr);
        c->snext = calloc(m->nsched, sizeof *c->snext);
        c->own = calloc(m->slots, sizeof *c->own);
        c->ecache = calloc(m->slots, sizeof *c->ecache);
        c->unit = calloc(m->slots, sizeof *c->unit);
        c->qage = calloc(m->slots, sizeof *c->qage);
        c->ord = calloc(m->slots, sizeof *c->ord);
        c->upipe = calloc(m->slots, sizeof *c->upipe);
        c->nrun = calloc(m->nsched, sizeof *c->nrun);
        c->ucnt = calloc((size_t)m->nsched * TM_UCNT_STRIDE, sizeof *c->ucnt);
        c->rank = calloc(m->slots, sizeof *c->rank);
        c->oe = calloc(m->slots, sizeof *c->oe);
        c->shared = calloc(m->slots, sizeof *c->shared);
        c->cand = calloc(m->slots, sizeof *c->cand);
        c->arrivals = calloc(m->sgs, sizeof *c->arrivals);
        c->per_inst = calloc(k->ninst ? k->ninst : 1, sizeof *c->per_inst);
        c->picked = UINT32_MAX;
        c->next_time = TM_NEVER;
        c->first_start = TM_NEVER;
        if (!c->th || !c->wg || !c->pfree || !c->rr || !c->snext || !c->own || !c->ecache || !c->unit ||
            !c->qage || !c->ord || !c->upipe || !c->nrun || !c->ucnt ||
            !c->rank || !c->oe || !c->shared || !c->cand || !c->arrivals || !c->per_inst)
            return -1;
        for (uint32_t t = 0; t < m->slots; t++) {
            c->own[t] = c->ecache[t] = c->oe[t] = TM_NEVER;
            c->ord[t] = t;
            c->rank[t] = t;
        }
        for (uint32_t s = 0; s < m->nsched; s++)
            c->snext[s] = TM_NEVER;
        for (uint32_t t = 0; t < m->slots; t++) {
            c->th[t].ready = calloc(regs, sizeof *c->th[t].ready);
            c->th[t].rmem = calloc(regs, 1);
            c->th[t].eu_units = c->pfree + (size_t)m->t_eu[t] * m->unit_total;
            if (!c->th[t].ready || !c->th[t].rmem)
                return -1;
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
            if (c->th)
                for (uint32_t t = 0; t < m->slots; t++) {
                    free(c->th[t].ready);
                    free(c->th[t].rmem);
                }
            if (c->wg)
                for (uint32_t w = 0; w < m->wgs_per_cu; w++) {
                    emu_trace_free(&c->wg[w].tr);
                    free(c->wg[w].pcs);
                }
            free(c->th);
            free(c->wg);
            free(c->pfree);
            free(c->rr);
            free(c->snext);
            free(c->own);
            free(c->ecache);
            free(c->unit);
            free(c->qage);
            free(c->ord);
            free(c->upipe);
            free(c->nrun);
            free(c->ucnt);
            free(c->rank);
            free(c->oe);
            free(c->shared);
            free(c->cand);
            free(c->arrivals);
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
    free(m->hpos);
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

/* ---- several host threads ----
 * CU ci belongs to thread ci mod T.  A step that touches only its CU (no
 * global memory, micro-ops, barrier, last record: nshared == 0) commutes
 * with every other CU's steps, so owners run those freely.  A step that may
 * touch shared state (L2/DRAM, work-group dispatch and the functional
 * engine behind it, the shared statistics) runs only when its (time, CU)
 * is below every other thread's published (next_time, CU): exactly the
 * order the one-thread loop gives them, so cycles and statistics are the
 * same for any thread count.  The global minimum's owner can always go on,
 * so no thread waits forever. */
#define TM_PUB_STRIDE 8            /* one cache line per CU's published time */

static bool key_less(uint64_t ta, uint32_t a, uint64_t tb, uint32_t b)
{
    return ta < tb || (ta == tb && a < b);
}

typedef struct tm_worker {
    tm_model *m;
    uint32_t id;
    pthread_t tid;
    bool started;
} tm_worker;

/* May CU x (owned by thread w) take its shared step at t? */
static bool shared_turn(tm_model *m, uint32_t w, uint32_t x, uint64_t t)
{
    for (uint32_t y = 0; y < m->ncu; y++) {
        if (y % m->nthreads == w)
            continue;
        uint64_t ty = atomic_load_explicit(&m->pub[y * TM_PUB_STRIDE], memory_order_acquire);
        if (!key_less(t, x, ty, y))
            return false;
    }
    return true;
}

/* Step CU ci at its next time, then on through steps that stay inside it. */
static void run_cu(tm_model *m, uint32_t ci)
{
    tm_cu *c = &m->cu[ci];
    _Atomic uint64_t *pub = &m->pub[ci * TM_PUB_STRIDE];
    step(m, ci, c->next_time);
    atomic_store_explicit(pub, c->next_time, memory_order_release);
}

static void *worker_main(void *arg)
{
    tm_worker *w = arg;
    tm_model *m = w->m;
    uint32_t idle = 0;
    while (!m->err) {
        uint32_t best = UINT32_MAX, local = UINT32_MAX;
        uint64_t bt = TM_NEVER, lt = TM_NEVER;
        for (uint32_t ci = w->id; ci < m->ncu; ci += m->nthreads) {
            uint64_t t = m->cu[ci].next_time;
            if (t == TM_NEVER)
                continue;
            if (key_less(t, ci, bt, best)) {
                bt = t;
                best = ci;
            }
            if (m->cu[ci].nshared == 0 && key_less(t, ci, lt, local)) {
                lt = t;
                local = ci;
            }
        }
        if (best == UINT32_MAX)
            break;                  /* no CU of this thread gets work again */
        if (m->cu[best].nshared == 0 || shared_turn(m, w->id, best, bt)) {
            run_cu(m, best);
            idle = 0;
        } else if (local != UINT32_MAX) {
            run_cu(m, local);       /* while the shared step waits its turn */
            idle = 0;
        } else if (++idle > 4096) {
            sched_yield();          /* the other threads' CUs are behind */
        }
    }
    return NULL;
}

/* The issue loop on nthreads host threads (the caller is thread 0). */
static int run_threads(tm_model *m)
{
    m->pub = calloc((size_t)m->ncu * TM_PUB_STRIDE, sizeof *m->pub);
    tm_worker *ws = calloc(m->nthreads, sizeof *ws);
    if (!m->pub || !ws) {
        free(ws);
        return -1;
    }
    for (uint32_t ci = 0; ci < m->ncu; ci++)
        atomic_init(&m->pub[ci * TM_PUB_STRIDE], m->cu[ci].next_time);
    int rc = 0;
    for (uint32_t i = 0; i < m->nthreads; i++) {
        ws[i].m = m;
        ws[i].id = i;
    }
    for (uint32_t i = 1; i < m->nthreads; i++) {
        if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
            /* fewer threads than asked: no CU may be left without its owner */
            m->err = SGEMU_EXIT_INTERNAL;
            m->oom = true;
            rc = -1;
            break;
        }
        ws[i].started = true;
    }
    if (!rc)
        worker_main(&ws[0]);
    for (uint32_t i = 1; i < m->nthreads; i++)
        if (ws[i].started)
            pthread_join(ws[i].tid, NULL);
    free(ws);
    return 0;
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
        for (uint32_t pc = 0; c->per_inst && st->per_inst && pc < m->L->k->ninst; pc++) {
            st->per_inst[pc].count += c->per_inst[pc].count;
            st->per_inst[pc].lanes += c->per_inst[pc].lanes;
            st->per_inst[pc].cycles += c->per_inst[pc].cycles;
            st->per_inst[pc].stalls += c->per_inst[pc].stalls;
        }
    }
}

int tm_run(const tm_launch *L, sgemu_timing *out, char *msg, size_t msgn)
{
    memset(out, 0, sizeof *out);
    tm_model m;
    memset(&m, 0, sizeof m);
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
    out->ncu = m.ncu;
    out->ninst = L->k->ninst;
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
            m.tracing = true;
        }
    }
    /* first wave: spread work-groups over the CUs, then fill their slots */
    for (uint32_t s = 0; !rc && s < m.wgs_per_cu; s++)
        for (uint32_t ci = 0; ci < m.ncu && m.wg_next < L->wg_total && !m.err; ci++)
            start_wg(&m, ci, s, 0);
    if (!rc) {
        for (uint32_t ci = 0; ci < m.ncu; ci++) {
            m.heap[ci] = ci;
            m.hpos[ci] = ci;
        }
        for (uint32_t i = m.ncu / 2; i-- > 0;)
            heap_down(&m, i);
    }
    uint64_t win = 0, sent[TM_LEVEL_COUNT] = { 0 };
    /* several host threads: not with the Chrome trace (its events keep
     * the strict time order of the one-thread loop) */
    m.nthreads = L->threads < m.ncu ? L->threads : m.ncu;
    bool threaded = m.nthreads > 1 && !m.tracing;
    if (!rc && !m.err && threaded && run_threads(&m)) {
        snprintf(msg, msgn, "out of host memory in the timing model");
        rc = SGEMU_EXIT_INTERNAL;
    }
    while (!rc && !m.err && !threaded) {
        uint32_t best = m.heap[0];
        uint64_t bt = m.cu[best].next_time;
        if (m.tracing && bt >= win + TM_TRACE_TRAFFIC_PERIOD)
            traffic_sample(&m, &win, sent, bt);
        if (bt == TM_NEVER)
            break;
        step(&m, best, bt);    /* only this CU's next_time changes */
        /* Steps that stay inside the CU commute with the other CUs' steps:
         * run them now, while this CU's state is in the host's caches.
         * Every step that may touch shared state still happens in (time,
         * CU) order.  The Chrome trace keeps the strict order. */
        while (!m.tracing && !m.err && m.cu[best].nshared == 0 &&
               m.cu[best].next_time != TM_NEVER)
            step(&m, best, m.cu[best].next_time);
        heap_down(&m, 0);
    }
    if (!rc && m.err) {
        rc = m.err;
        snprintf(msg, msgn, "%s", m.oom ? "out of host memory in the timing model"
                                        : "work-group failed in the functional engine");
    }
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
        if (tm_trace_close(&m.trace, rc == 0) && !rc) {
            snprintf(msg, msgn, "cannot write trace file '%s'", L->trace_path);
            rc = SGEMU_EXIT_USER;
        }
    }
    model_free(&m);
    return rc;
}
