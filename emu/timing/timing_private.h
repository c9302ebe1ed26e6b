/*
 * timing_private.h - state shared by the files of the timing model
 * (emu/timing/): per-instruction info (timing_inst.c), the barrier unit
 * (timing_barrier.c), the memory hierarchy (timing_mem.c), the issue loop
 * (timing_core.c and the files named in its section below) and the Chrome
 * trace writer (timing_trace.c).
 */
#ifndef SGEMU_TIMING_PRIVATE_H
#define SGEMU_TIMING_PRIVATE_H

#include "sgemu.h"
#include "timing_model.h"

#define TM_NEVER UINT64_MAX

#include "timing_wheel.h"
#define TM_MAX_FLAT 6
#define TM_FLAT_NONE 0xff

/* Precomputed per pc: no decoding per record. */
typedef struct tm_inst {
    uint8_t kind;         /* tm_kind */
    uint8_t pipe;         /* tm_pipe */
    uint8_t space;        /* memory: isa_space */
    uint8_t nsrc;
    uint8_t has_pipe;     /* issue waits for a free unit of `pipe` */
    uint8_t int_either;   /* an integer add: `int` or its alternate (pipes.int_mad.alternate_of),
                           * whichever frees first */
    uint8_t fills, spills; /* spilled source / destination registers (GRF overflow) */
    uint8_t store;        /* memory: writes */
    uint16_t passes;      /* pipe passes at the run's width */
    uint16_t elem_bytes;  /* memory: bytes per lane */
    tm_range src[TM_MAX_RANGES];
    tm_range dst;         /* n = 0: none */
    tm_range xdst;        /* a second destination (tm_op.xdst), n = 0: none */
    tm_range srcrd;       /* ready once the sources are read (tm_op.srcrd) */
    /* The source scoreboard slots in range order, filtered to real slots,
     * for the per-issue dependency check (nflat = TM_FLAT_NONE: too many,
     * walk the ranges). */
    uint8_t nflat;
    uint16_t flat[TM_MAX_FLAT];
    /* the unit its results come from and its sources go to, for
     * scheduler.cross_unit_latency: pipe + 1 (ALU), send's + 1 (memory),
     * TM_PIPE_COUNT + 1 (a collective's micro-ops); 0: none (branches,
     * barriers: no hand-over measured) */
    uint8_t xtag;
    /* A one-source shuffle where the shuffle unit computes the source lane
     * (pipes.shuffle_lane.index: operand): its first lane_uops micro-ops
     * (the index) take no time, and the moves start lane_lat after the
     * issue (a register lane operand's read). */
    uint8_t lane_uops;
    uint16_t lane_lat;
    /* Derived once per launch (timing_core.c) for the issue path: */
    uint8_t upipe;        /* pipe the issue waits for, TM_PIPE_COUNT: none */
    uint8_t shared;       /* may touch state shared between compute units */
    uint32_t unitset;     /* that pipe's units (offset | count << 16), UINT32_MAX: none */
    /* The ALU fast path (issue_alu): an ALU instruction without spills
     * (or a branch on the branch pipe, without results), its pipe occupancy (passes x interval), its result time after the
     * start (latency + (passes - 1) x interval) and its destination slots
     * [dst.first, dst.first + ndst) (those below the slot count; the same
     * for xdst and srcrd). */
    uint8_t alu_fast;
    uint16_t ndst, nxdst, nsrcrd;
    uint32_t occ, lat;
} tm_inst;

void tm_inst_build(const isa_kernel *k, const emu_config *cfg, uint32_t width,
                   tm_inst *out);
/* The same from another program form's descriptions (tm_launch.ops). */
void tm_inst_from_ops(const tm_op *ops, uint32_t n, const emu_config *cfg, tm_inst *out);
/* Instruction count, mnemonic and source line of pc (line 0: none). */
uint32_t tm_ninst(const tm_launch *L);
const char *tm_inst_name(const tm_launch *L, uint32_t pc);
uint32_t tm_inst_line(const tm_launch *L, uint32_t pc);
/* Pipe of a micro-op and its passes over `lanes`. */
tm_pipe tm_uop_pipe(const coll_uop *u);
/* int's alternate pipe, pipes.int_mad.alternate_of (TM_PIPE_COUNT: none). */
tm_pipe tm_int_alternate_pipe(const emu_timing_cfg *tc);
/* Whether a micro-op of `kind` after one of the same kind starts with it
 * (uops.def's start column: BATCH) rather than after its result. */
bool tm_uop_batch_kind(int kind);
uint32_t tm_passes(const emu_timing_cfg *tc, tm_pipe p, uint32_t lanes, uint32_t type_bytes);

/* The CU's barrier unit, shared by its work-groups (timing_barrier.c):
 * send queues work-group slot wg's arrival at t; count counts every queued
 * message of time <= upto, one every `interval` cycles in arrival-time
 * order, raising each one's work-group's bar_counted to its count time. */
typedef struct tm_cu tm_cu;
typedef struct tm_barmsg {
    uint64_t t;            /* arrival time */
    uint32_t wg;           /* work-group slot */
} tm_barmsg;
void tm_barrier_send(tm_cu *c, uint32_t wg, uint64_t t);
void tm_barrier_count(tm_cu *c, uint64_t upto, uint32_t interval);

/* ---- memory hierarchy (timing_mem.c) ---- */
typedef struct tm_way {
    uint64_t tag;         /* line number + 1 (0: empty) */
    uint64_t stamp;       /* LRU: last use */
    uint64_t sectors;     /* valid sectors (bit 0 alone without sectors) */
    /* the cycle its latest fill's data arrives, end to end as a request's
     * done time: a request that finds the line waits for it (a fill in
     * flight is merged into, not hit; per line, not per sector) */
    uint64_t ready;
} tm_way;

typedef struct tm_cache {
    uint32_t sets, ways, line_shift;
    bool pow2;            /* sets is a power of two: the set is ln & set_mask */
    uint64_t set_mask;
    tm_way *way;          /* sets * ways */
    uint16_t *used;       /* per set: ways holding a line (the first ones;
                           * at most 1024 ways, config_keys.def): 2 bytes
                           * halve what set-up clears */
    uint64_t clock;
} tm_cache;

/* Local-memory traffic of one CU: counted apart (local memory is the CU's
 * own, so its accesses run outside the shared order: timing_core.c) and
 * folded into the statistics at the end. */
typedef struct tm_slm_stats {
    uint64_t bytes, requests, conflict_cycles;
} tm_slm_stats;

typedef struct tm_mem {
    const emu_timing_cfg *tc;
    uint32_t ncu;
    tm_cache *l1;         /* per CU */
    uint64_t *l1_free;    /* per CU port (fixed point: timing_mem.c) */
    uint64_t *slm_free;   /* per CU port */
    uint64_t *atom_free;  /* per CU global-atomic path */
    uint64_t *link_free;  /* per CU link to the L2 (memory.l2.cu_bytes_per_cycle; NULL: none) */
    /* the L2's atomic state of a line (memory.atomic.l2_contended_interval):
     * direct mapped by line number, a colliding line takes the entry */
    struct tm_atom_line {
        uint64_t tag;     /* line number + 1; 0: empty */
        uint64_t free;    /* fixed point: its last queued lane is done */
        uint32_t cu;      /* the CU whose atomic used it last */
    } *atom_line;
    uint64_t atom_switch_fx, atom_word_fx;
    tm_slm_stats *slm;    /* per CU */
    tm_cache l2;
    uint64_t l2_free, dram_free;   /* fixed point, as l1_free */
    /* cycles a line holds the L1 port, fixed point (fixed per run: no
     * division per request) */
    uint64_t l1_occ;
    /* sectors: log2 of their bytes (the line's without sectors), and the
     * L2 and DRAM port time of one sector, fixed point */
    uint32_t sector_shift;
    uint64_t l2_sector_occ, dram_sector_occ;
    /* the CU link's time for one sector, fixed point */
    uint64_t link_sector_occ;
    sgemu_timing *st;
} tm_mem;

/* a line and a sector of the caches, in bytes (the config's, or their defaults) */
uint32_t tm_line_bytes(const emu_timing_cfg *tc);
uint32_t tm_sector_bytes(const emu_timing_cfg *tc);
int tm_mem_init(tm_mem *m, const emu_timing_cfg *tc, uint32_t ncu, sgemu_timing *st);
/* Put line ln (sectors `sectors`) into the L2 as most recently used. */
void tm_mem_carry_fill(tm_mem *m, uint64_t ln, uint64_t sectors, tm_way **wp);
/* timing_carry.c: install the carried lines at a launch's start (the
 * unbound buffers' identities in *unbound, free it), and make the L2's
 * lines the state at its end. */
int tm_carry_install(tm_mem *m, const tm_carry *c, uint64_t **unbound, uint32_t *nunbound);
int tm_carry_save(const tm_mem *m, const tm_carry *c, const uint64_t *unbound, uint32_t nunbound);
void tm_mem_free(tm_mem *m);
/* One global access of n lane addresses issued at t; returns completion.
 * strided: the addresses step by one stride (the record's form), so that
 * their lines follow without a test of every lane; the same result. */
uint64_t tm_mem_global(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                       uint32_t n, uint32_t bytes, bool store, bool atomic, bool strided);
/* Local bytes so far (all CUs), and the per-CU local statistics added
 * into the run's (once, at the end). */
uint64_t tm_mem_local_bytes(const tm_mem *m);
void tm_mem_fold(tm_mem *m);
/* Local memory: bank conflicts, and an atomic's lanes on one word in
 * turn; returns completion. */
uint64_t tm_mem_local(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                      uint32_t n, uint32_t bytes, bool store, bool atomic);
/* A contiguous block message [addr, addr + bytes) (block I/O). */
uint64_t tm_mem_block(tm_mem *m, uint32_t cu, uint64_t t, isa_space space,
                      uint64_t addr, uint32_t bytes, bool store);
/* A 2D block message of global memory: `rows` rows of `bytes` bytes from
 * addr, pitch bytes apart, all issued at t (an image block's rows, which
 * tm_image_addr places pitch apart). */
uint64_t tm_mem_rows(tm_mem *m, uint32_t cu, uint64_t t, uint64_t addr, uint32_t pitch,
                     uint32_t rows, uint32_t bytes, bool store);

/* ---- Chrome trace (timing_trace.c) ---- */
typedef struct tm_trace {
    FILE *f;
    char *tmp_path;
    const char *path;
    uint64_t limit, events;
    uint64_t dropped;         /* events past the limit, not written */
    bool first;
} tm_trace;

int tm_trace_open(tm_trace *tr, const char *path, uint64_t limit, uint32_t ncu,
                  uint32_t slots);
void tm_trace_slice(tm_trace *tr, const char *name, uint32_t cu, uint32_t slot,
                    uint64_t ts, uint64_t dur, uint32_t pc, uint32_t line,
                    uint64_t mask, const char *stall, uint64_t stall_cycles);
void tm_trace_counter(tm_trace *tr, const char *name, uint32_t cu, uint64_t ts,
                      const char *key, double v);
/* Memory traffic counter (pid = number of CUs: the "memory traffic"
 * track): bytes per level requested in the TM_TRACE_TRAFFIC_PERIOD cycles
 * from ts. */
#define TM_TRACE_TRAFFIC_PERIOD 256
void tm_trace_traffic(tm_trace *tr, uint32_t pid, uint64_t ts, const uint64_t *bytes);
int tm_trace_close(tm_trace *tr, bool keep);

/* ---- the issue loop's state (timing_core.c and the files it is split
 * into: timing_issue.c, timing_sched.c, timing_dispatch.c, timing_spill.c,
 * timing_threads.c).  The small helpers of the issue path are static
 * inline here so that they still inline into each of those files. ---- */

enum { TH_FREE, TH_RUN, TH_BLOCKED, TH_DONE };

/* Per scheduler wait lists: a mask per pipe and one for "none". */
#define TM_PIPE_SLOTS 16
/* The wait list of integer adds that take `int` or its alternate
 * (pipes.int_mad.alternate_of), after the one of no pipe (TM_PIPE_COUNT). */
#define TM_PIPE_INT_EITHER (TM_PIPE_COUNT + 1)
_Static_assert(TM_PIPE_SLOTS >= TM_PIPE_INT_EITHER + 1, "a wait list per pipe, none, int-either");

typedef struct tm_thread {
    /* first cache line: what every issue and scan refresh reads */
    _Alignas(64) const tm_inst *ti;     /* info of record cur (kept hot: no record load per check) */
    const uint32_t *pcs;   /* this thread's record pcs (emu_sg_stream.pcs) */
    uint64_t *ready;       /* scoreboard: slot ready time */
    uint8_t *rmem;         /* slot written by: bit 0 a memory op; above, its xtag */
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
    uint64_t wg_linear;
    uint32_t nsg, left, arrived;
    uint64_t arrived_last; /* latest arrival at the barrier now being counted */
    uint64_t bar_counted;  /* when the barrier unit counted its latest message */
    uint32_t atlast;       /* threads not done whose next record is their last */
    uint64_t atmask;       /* those threads (bit i: sub-group i), when sgs <= 64 */
    uint64_t start, done;
} tm_wgslot;

/* oldest_first wait lists of one scheduler (at most 64 threads): bit r
 * stands for the thread at age rank r (c->ord).  A step reads these masks
 * instead of walking the threads: it takes the lowest rank that is ready
 * and whose pipe is free. */
typedef struct tm_smask {
    /* first cache line: what a step reads (the masks, the bound and the
     * pipes of the first 20 ranks); the per-pipe masks, read when a pipe
     * is busy or a thread moves, after it */
    _Alignas(64) uint64_t run;  /* runnable threads (own != TM_NEVER) */
    uint64_t ready;        /* of those, own <= the time of the last refresh */
    uint64_t lmin;         /* lower bound of own over run & ~ready (TM_NEVER: none) */
    const uint64_t *eu;    /* the scheduler's EU: unit "free at" times */
    const uint64_t *oe;    /* own by age rank (c->oe of the scheduler) */
    uint32_t first;        /* the scheduler's first scan position */
    uint8_t rpipe[64];     /* per rank: the pipe of a runnable thread */
    uint64_t pm[TM_PIPE_SLOTS];    /* per pipe: runnable threads whose next record waits for it */
    /* the slots dispatched at least once hold ranks [0, ndisp): a slot's
     * first thread takes rank ndisp, where the first wave (slots filled
     * in position order) finds it already, so that nothing moves */
    uint32_t ndisp;
} tm_smask;

/* What issuing a micro-op needs that does not depend on time, from its
 * kind, type, operator and lanes (run_uops): the occupancy of its pipe's
 * unit (passes x interval), its result after the start (latency +
 * (passes - 1) x interval), its units, its kind, and flags: a BATCH kind
 * (a run of it starts together: tm_uop_batch_kind), a memory message or a
 * barrier (not the pipe's result), a pipe of several units (pick one). */
typedef struct tm_udesc {
    uint64_t occ, lat;
    uint32_t off;          /* its pipe's first unit (unit_off) */
    uint8_t pipe;
    uint8_t kind;          /* coll_uop_kind */
    uint8_t flags;         /* TM_UD_* */
} tm_udesc;

enum { TM_UD_BATCH = 1, TM_UD_MEM = 2, TM_UD_BARRIER = 4, TM_UD_MULTI = 8 };

/* The descriptions of one pc's micro-op sequence by position (the first
 * TM_USEQ_UOPS), each with the key it was made from (run_uops: uop_key);
 * the sequences of one shape are alike, so each is made once and then
 * only its key compared.  Direct mapped by pc. */
#define TM_USEQ_UOPS 16
#define TM_USEQS 4
typedef struct tm_useq {
    uint64_t key[TM_USEQ_UOPS];   /* 0: none */
    tm_udesc d[TM_USEQ_UOPS];
} tm_useq;

/* The busy stretches a unit holds ahead of its free time (unit
 * reservation, docs/timing-model.md "Unit reservation"): the cycles
 * [a[i], b[i]) that micro-ops (and bookings made ahead, as spill stores)
 * took past it, ascending, apart (b[i] < a[i + 1]) and after the free time
 * (a[0] > it).  The free time itself (pfree) is the first free cycle the
 * schedulers read; an issue at T takes the first gap of its occupancy at or
 * after max(T, free).  At most TM_URES_MAX stretches: a unit holding that
 * many joins its last two before it takes another. */
#define TM_URES_MAX 32
typedef struct tm_ures {
    uint64_t a[TM_URES_MAX], b[TM_URES_MAX];   /* [0, n) are held */
} tm_ures;
/* Apart from the stretches (which need no clearing: a set-up writes none
 * of their cache lines), per unit: */
typedef struct tm_ureshead {
    uint32_t n;            /* stretches held */
    uint32_t pos;          /* its index in the CU's list of units holding some */
} tm_ureshead;

typedef struct tm_cu {
    /* The first three cache lines hold what a step reads or writes in
     * every cycle (tm_step, the wait-list pick, the ALU issue), the wheel's
     * header the fourth; what set-up, dispatch and the end read comes
     * after the wheel's slots. */
    _Alignas(64) uint64_t *snext;  /* per scheduler: lower bound of its next issue */
    /* oldest_first, issue width <= 8, <= 64 threads per scheduler: the wait
     * lists per scheduler (NULL otherwise: the scan of step_sched) */
    tm_smask *sm;
    tm_thread *th;
    /* Per slot, at its position in the scheduler lists (t_pos): what a
     * scheduler scan reads, packed so a scan touches a few cache lines and no
     * thread struct.  own = max(next issue, sources ready) of a runnable
     * thread (TM_NEVER otherwise), unit = pipe units of its next record
     * (offset | count << 16, or UINT32_MAX: none); the earliest issue is
     * max(own, earliest free of those units). */
    uint64_t *own;
    uint64_t *ecache;      /* lower bound of the issue time (last computed, or own) */
    /* Per position its index in ord (rank), and own at each index of ord
     * (that of ord[i] is oe[i]) */
    uint64_t *oe;
    uint32_t *rank;
    uint32_t *unit;
    /* Per scheduler, its positions by age (oldest first; slots never
     * dispatched behind: they never issue), for the wait lists alone. */
    uint32_t *ord;
    /* Per slot: its next step may touch state shared between compute units
     * (L2/DRAM ports and tags, the work-group dispatch order); nshared
     * counts those slots.  A step with nshared == 0 stays inside this CU,
     * so it may run ahead of the other CUs' steps (see tm_run). */
    uint8_t *shared;
    uint32_t nshared;
    uint32_t picked;                /* slot issuing now (UINT32_MAX: none) */
    /* lanes here is less the lanes a record of every lane would have had
     * (mod 2^64): the merge adds count * width (see count_wg).  On one host
     * thread all CUs add into CU 0's (m->one_per_inst): sums mod 2^64 do
     * not depend on their order, and one array stays in the host's cache
     * where one per CU did not. */
    tm_line_stats *per_inst;
    uint64_t next_time;
    uint64_t woken;        /* schedulers whose snext was lowered (tm_lower_snext) */
    bool use_wheel;        /* the wheel is kept (tm_step) */
    bool woke;                      /* another slot's scan entry changed meanwhile */
    uint32_t nres;                  /* units holding busy stretches (ures) */
    /* Touched by this CU's steps only, so that with several host threads
     * (one owner per CU) they need no locks; summed into the statistics in
     * CU order at the end. */
    uint64_t stall[TM_STALL_COUNT];
    /* Up to 64 schedulers: snext kept by time in a wheel (base: the time
     * of the last step), so that a step finds the due schedulers and the
     * next time without looking at the others. */
    _Alignas(64) tm_wheel sw;
    tm_wgslot *wg;
    uint64_t *pfree;       /* per EU: unit_total "free at" times */
    uint32_t *rr;          /* round-robin position per scheduler (list index) */
    uint64_t *greedy;      /* greedy_oldest: per scheduler, the age of the thread last issued */
    uint64_t *qage;
    uint32_t *cand;                 /* step_sched scratch: candidate positions */
    tm_barmsg *barq;                /* barrier unit: messages not yet counted, by time */
    uint32_t nbarq;
    uint64_t bar_free;              /* barrier unit: earliest count of the next message */
    uint64_t first_start, last_done;
    uint32_t resident;
    /* the launcher (timing_dispatch.c): free from launch_free on; the
     * kernel arguments in the CU's constant cache from args_ready on
     * (0: not fetched yet; set only with kernel_args_latency >= 1) */
    uint64_t launch_free, args_ready;
    /* run_uops' descriptions (TM_USEQS, by pc) of host thread w's CUs, in
     * CU w (CU ci belongs to thread ci mod nthreads); made at first use */
    tm_useq *useq;
    /* Per unit (as pfree) its busy stretches ahead (NULL when no
     * instruction books ahead: no micro-ops, fills or spills); the units
     * holding some (resu, nres of them); the time of the issue running now. */
    tm_ures *ures;
    tm_ureshead *resh;
    uint32_t *resu;
    uint64_t now;
    uint64_t res_min;      /* at most the earliest stretch's start (settle) */
} tm_cu;

/* An entry of the CU heap: a CU and its next_time as of its last sift
 * (the sift reads no tm_cu). */
typedef struct tm_hent {
    uint64_t t;
    uint32_t ci;
} tm_hent;

typedef struct tm_model {
    const tm_launch *L;
    const emu_timing_cfg *tc;
    sgemu_timing *st;
    tm_inst *inst;
    tm_cu *cu;
    uint32_t ncu, sgs, wgs_per_cu, slots, nslot_regs;
    uint32_t xlat;                  /* scheduler.cross_unit_latency */
    uint32_t neu, spe, nsched;      /* EUs per CU, schedulers per EU, per CU */
    uint32_t *t_eu, *t_sched;       /* per thread slot: its EU and scheduler */
    uint32_t *s_first, *s_list;     /* per scheduler: its slots, ascending */
    uint32_t *t_pos;                /* per slot: its index in s_list */
    uint32_t sched_most;            /* threads of the largest scheduler */
    uint32_t iw;                    /* issue width (at least 1) */
    size_t *s_eu_off;               /* per scheduler: its EU's units in pfree */
    uint32_t spill_first;           /* first spilled register (UINT32_MAX: none) */
    uint32_t unit_off[TM_PIPE_COUNT], unit_n[TM_PIPE_COUNT], unit_total;
    /* per pipe: unit_off | unit_n << 16; at TM_PIPE_INT_EITHER the units
     * of int and its alternate, laid out next to each other */
    uint32_t unitset[TM_PIPE_INT_EITHER + 1];
    uint32_t pipe_ii[TM_PIPE_COUNT];   /* per pipe: its issue interval (0 given: 1) */
    tm_hent *heap;                  /* CUs by (next_time, index) */
    uint64_t wg_next, age, end;
    double resident_integral;
    tm_mem mem;
    tm_trace trace;
    bool tracing;
    bool oom;                       /* err: out of host memory here */
    bool one_per_inst;              /* the CUs share CU 0's per_inst (tm_cu) */
    _Atomic int err;                /* read by every host thread */
    /* Host threads (tm_run_threads): each CU's next_time as its owner last
     * published it (never above the real one: next_time only grows). */
    _Atomic uint64_t *pub;
    uint32_t nthreads;
} tm_model;

static inline uint64_t max64(uint64_t a, uint64_t b)
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

static inline uint32_t pick_unit(const tm_model *m, const uint64_t *f, tm_pipe p)
{
    uint32_t best = 0;
    for (uint32_t u = 1; u < m->unit_n[p]; u++)
        if (f[u] < f[best])
            best = u;
    return best;
}

/* The unit an integer add of an int-either set (f: its units, n of them,
 * the alternate's first) takes when it issues at t: the first free at t in
 * that order, else b (the earliest free, the first of a tie).  Any unit
 * free at t serves it alike; the order leaves int to what only int runs. */
static inline uint32_t either_unit(const uint64_t *f, uint32_t n, uint32_t b, uint64_t t)
{
    for (uint32_t u = 0; u < n; u++)
        if (f[u] <= t)
            return u;
    return b;
}

/* When pipe p, started at s for `passes`, takes its next instruction. */
static inline uint64_t pipe_free_after(const tm_model *m, tm_pipe p, uint64_t s, uint32_t passes)
{
    return s + (uint64_t)passes * m->pipe_ii[p];
}

/* timing_issue.c: unit f (an entry of c->pfree) taken for occ cycles from
 * the first gap at or after max(t0, its free time), now the current issue's
 * time; returns the start (docs/timing-model.md, "Unit reservation"). */
uint64_t tm_unit_hold(tm_cu *c, uint64_t *f, uint64_t t0, uint64_t occ, uint64_t now);
/* The stretches of CU c's units that began by T join their free times
 * (before a step at T: the schedulers then read a unit busy at T as busy). */
void tm_units_settle(tm_cu *c, uint64_t T);

/* Unit f taken from max(now, f) for occ: with no stretches held in the CU
 * the free time moves on, as tm_unit_hold would. */
static inline uint64_t unit_take_now(tm_cu *c, uint64_t *f, uint64_t now, uint64_t occ)
{
    if (__builtin_expect(c->nres != 0, 0))
        return tm_unit_hold(c, f, now, occ, now);
    uint64_t s = max64(now, *f);
    *f = s + occ;
    return s;
}

/* Occupy pipe p of slot t's EU from the first gap at or after max(t0, unit
 * free) for `passes`; returns the start. */
static inline uint64_t occupy(tm_model *m, tm_cu *c, uint32_t t, tm_pipe p, uint64_t t0,
                       uint32_t passes)
{
    uint64_t *f = c->th[t].eu_units + m->unit_off[p];   /* units of p on t's EU */
    if (m->unit_n[p] > 1)
        f += pick_unit(m, f, p);
    uint64_t occ = pipe_free_after(m, p, 0, passes);
    if (t0 <= c->now)
        return unit_take_now(c, f, c->now, occ);
    return tm_unit_hold(c, f, t0, occ, c->now);
}

static inline uint64_t pipe_done(const tm_model *m, tm_pipe p, uint64_t start, uint32_t passes)
{
    return start + m->tc->pipe[p].latency + (uint64_t)(passes - 1) * m->pipe_ii[p];
}


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

/* Slot s's ready time for the current record: a result made by another
 * unit (tags differ, neither 0) arrives cross_unit_latency later. */
static inline uint64_t ready_for(const tm_model *m, const tm_thread *th, uint32_t s)
{
    if (!m->xlat)
        return th->ready[s];
    uint32_t from = th->rmem[s] >> 1, x = th->ti->xtag;
    return th->ready[s] + (x && from && from != x ? m->xlat : 0);
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
            uint64_t r = ready_for(m, th, s);
            if (r > d) {
                d = r;
                dm = th->rmem[s] & 1;
            }
        }
    } else {
        for (uint32_t i = 0; i < ti->nsrc; i++)
            for (uint32_t j = 0; j < ti->src[i].n; j++) {
                uint32_t s = ti->src[i].first + j;
                if (s >= m->nslot_regs)
                    continue;
                uint64_t r = ready_for(m, th, s);
                if (r > d) {
                    d = r;
                    dm = th->rmem[s] & 1;
                }
            }
    }
    th->dep = d;
    th->dmem = dm;
    th->dep_ok = true;
}

/* The destination slots (those below the slot count: ndst, nxdst) ready
 * at done. */
static inline void write_dst(tm_thread *th, const tm_inst *ti, uint64_t done, bool mem)
{
    th->dep_ok = false;
    uint8_t by = (uint8_t)(mem | ti->xtag << 1);
    for (uint32_t j = 0; j < ti->ndst; j++) {
        th->ready[ti->dst.first + j] = done;
        th->rmem[ti->dst.first + j] = by;
    }
    for (uint32_t j = 0; j < ti->nxdst; j++) {
        th->ready[ti->xdst.first + j] = done;
        th->rmem[ti->xdst.first + j] = by;
    }
}

/* The slots ready once the sources are read (srcrd), at t: the start of
 * the instruction's pipe + its occupancy. */
static inline void write_srcrd(tm_thread *th, const tm_inst *ti, uint64_t t)
{
    if (!ti->nsrcrd)
        return;
    th->dep_ok = false;
    for (uint32_t j = 0; j < ti->nsrcrd; j++) {
        th->ready[ti->srcrd.first + j] = t;
        th->rmem[ti->srcrd.first + j] = false;
    }
}

/* The thread at rank r of wait lists q changed: runnable or not, the pipe of
 * its next record (TM_PIPE_COUNT: none) and own.  Its ready bit is cleared
 * (the next refresh sets it again); own lowers the bound of the waiting. */
static inline void sm_move_rank(tm_smask *q, uint32_t r, bool run, uint32_t p, uint64_t own)
{
    uint64_t b = 1ull << r;
    q->ready &= ~b;
    if (q->run & b) {
        uint32_t op = q->rpipe[r];
        if (run && op == p)
            goto keep;
        q->pm[op] &= ~b;
    }
    if (!run) {
        q->run &= ~b;
        return;
    }
    q->pm[p] |= b;
    q->rpipe[r] = (uint8_t)p;
    q->run |= b;
keep:
    if (own < q->lmin)
        q->lmin = own;
}

static inline void sm_move(tm_cu *c, uint32_t s, uint32_t pos, bool run, uint32_t p,
                           uint64_t own)
{
    tm_smask *q = &c->sm[s];
    sm_move_rank(q, c->rank[pos] - q->first, run, p, own);
}

/* A thread of scheduler s may issue from t on (released from a barrier,
 * dispatched): lower its bound, and tell the running step (tm_step) so
 * that it steps s in this cycle when t has come. */
static inline void tm_lower_snext(tm_cu *c, uint32_t s, uint64_t t)
{
    if (t < c->snext[s]) {
        if (c->use_wheel) {
            tm_wheel_take(&c->sw, s, c->snext[s]);
            tm_wheel_put(&c->sw, s, t);
            c->woken |= 1ull << s;
        }
        c->snext[s] = t;
    }
}

/* The thread at rank i of a scheduler with n dispatched slots became the youngest:
 * ranks above i move down one, i goes to n - 1. */
void tm_sm_rank_to_end(tm_smask *q, uint32_t i, uint32_t n);

/* timing_issue.c */
/* Issue thread slot ti's next record at T (stall, pipe or memory timing,
 * scoreboard), ending the thread or arriving at a barrier when it does. */
void tm_issue(tm_model *m, uint32_t ci, uint32_t ti, uint64_t T);
/* Slot t's scan entry and shared flag from its state (after it changed). */
void tm_sync_thread(tm_model *m, tm_cu *c, uint32_t t);
/* Whether an instruction's issue may touch state shared between CUs. */
bool tm_inst_shared(const tm_inst *ti, const emu_timing_cfg *tc);
/* tm_inst.xtag from its kind and pipe */
uint8_t tm_inst_xtag(const tm_inst *ti);
void tm_finish_thread(tm_model *m, uint32_t ci, tm_thread *th);
/* timing_sched.c: one cycle of compute unit ci at time T. */
void tm_step(tm_model *m, uint32_t ci, uint64_t T);
/* timing_dispatch.c: start the next work-group in slot `slot` of CU ci at
 * t (m->err on failure). */
void tm_start_wg(tm_model *m, uint32_t ci, uint32_t slot, uint64_t t);
/* timing_spill.c */
void tm_spill_plan(tm_model *m);
uint64_t tm_spill_fill(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t T);
void tm_spill_store(tm_model *m, uint32_t ci, uint32_t t, const tm_inst *ti, uint64_t at);
/* timing_threads.c: the issue loop on m->nthreads host threads. */
int tm_run_threads(tm_model *m);
/* timing_ahead.c: a host thread that runs L's next_wg for work-groups 0, 1,
 * ... in order into a ring of depth traces of nsg streams; L->next_wg and
 * L->user then take them from the ring.  wave: the work-groups the model
 * takes before its first step.  NULL: out of host memory or no thread (L
 * unchanged).  tm_ahead_end stops and joins it. */
typedef struct tm_ahead tm_ahead;
tm_ahead *tm_ahead_start(tm_launch *L, uint32_t depth, uint64_t wave, uint32_t nsg);
void tm_ahead_end(tm_ahead *a);

#endif
