/*
 * timing.h - the results of the cycle-level timing model
 * (sgemu_launch.timing; docs/timing-model.md): cycles, time, occupancy,
 * stalls, memory traffic, per compute unit and per instruction.
 */
#ifndef SGEMU_TIMING_H
#define SGEMU_TIMING_H

#include "config.h"
#include "isa.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Stall reasons: cycles a thread waited before an issue. X(ENUM, name) */
#define TM_STALLS(X) \
    X(DEP, "dependency") X(PIPE, "pipe_busy") X(MEM, "memory") \
    X(BARRIER, "barrier") X(FETCH, "fetch") X(ISSUE, "issue")

typedef enum tm_stall {
#define X(E, n) TM_STALL_##E,
    TM_STALLS(X)
#undef X
    TM_STALL_COUNT
} tm_stall;
extern const char *const tm_stall_names[TM_STALL_COUNT];

/* What limited residency. */
#define TM_LIMITERS(X) \
    X(NONE, "none") X(THREADS, "threads") X(GRF, "grf") X(LOCAL, "local_memory") \
    X(WG_SLOTS, "work_group_slots") X(WORK, "work_groups")
typedef enum tm_limiter {
#define X(E, n) TM_LIMIT_##E,
    TM_LIMITERS(X)
#undef X
    TM_LIMIT_COUNT
} tm_limiter;
extern const char *const tm_limiter_names[TM_LIMIT_COUNT];

/* Memory levels for traffic statistics. */
#define TM_LEVELS(X) X(L1, "l1") X(L2, "l2") X(DRAM, "dram") X(LOCAL, "local")
typedef enum tm_level {
#define X(E, n) TM_LEVEL_##E,
    TM_LEVELS(X)
#undef X
    TM_LEVEL_COUNT
} tm_level;
extern const char *const tm_level_names[TM_LEVEL_COUNT];

typedef struct tm_line_stats {    /* per instruction (pc) */
    uint64_t count;               /* subgroup instructions issued */
    uint64_t lanes;               /* active lanes summed */
    uint64_t cycles;              /* issue-to-completion cycles summed */
    uint64_t stalls;              /* cycles waited before issue, summed */
} tm_line_stats;

typedef struct sgemu_timing {
    uint64_t cycles;              /* first dispatch to last completion */
    double time_us;               /* cycles at the config clock */
    double ipc;                   /* subgroup instructions per cycle, device */
    uint64_t instructions, uops, lane_ops, lane_slots;
    double simd_efficiency;       /* lane_ops / lane_slots */
    /* occupancy */
    uint32_t width;
    uint32_t threads_per_cu;      /* thread slots in the mode used */
    uint32_t grf_regs_needed;     /* registers one thread needs */
    bool large_grf;               /* large-GRF mode selected */
    bool grf_overflow;            /* kernel does not fit the GRF at this width */
    uint64_t spill_bytes;         /* per thread when grf_overflow */
    uint32_t wg_per_cu;           /* resident work-groups per CU (theoretical) */
    double theoretical_occupancy; /* resident threads / slots */
    double achieved_occupancy;    /* time-averaged resident threads / slots */
    tm_limiter limiter;
    tm_limiter unfit;             /* NONE, or why one work-group cannot launch */
    uint32_t grf_threads_per_cu;  /* threads the shared register file holds */
    /* stalls, in thread-cycles */
    uint64_t stall[TM_STALL_COUNT];
    /* memory */
    uint64_t hits[TM_LEVEL_COUNT], misses[TM_LEVEL_COUNT];
    uint64_t bytes[TM_LEVEL_COUNT];
    uint64_t bank_conflict_cycles;
    /* per compute unit */
    uint32_t ncu;
    uint64_t *cu_busy_cycles;     /* cycles with a resident work-group */
    uint64_t *cu_issued;          /* instructions issued */
    /* per pc */
    uint32_t ninst;
    tm_line_stats *per_inst;
    /* per pc: the instruction as its program form prints it (the Gen path:
     * IGA's text, borrowed from the kernel), or NULL: sgemu's ISA, named
     * and placed by the kernel's instructions */
    const char *const *inst_text;
    uint64_t trace_events;        /* events written to the trace file */
    uint64_t trace_dropped;       /* events past the trace limit, not written */
    /* spilling (grf_overflow with scheduler.allow_spill = 1) */
    uint32_t spilled_regs;        /* registers r >= nreg - spilled_regs live in memory */
    uint64_t spill_fills, spill_stores;  /* register-sized scratch loads / stores */
    uint64_t spill_bytes_moved;   /* (fills + stores) x width x 4 */
    /* line requests per level (L1/L2: lookups, DRAM: lines fetched or
     * written, local: accesses of a subgroup or block message) */
    uint64_t requests[TM_LEVEL_COUNT];
} sgemu_timing;

/* The report as `sgemu run --timing` prints it: a table (per_line: also
 * per instruction), or JSON (docs/timing-model.md). */
void tm_print(FILE *f, const sgemu_timing *t, const isa_kernel *k,
              const emu_config *cfg, bool per_line);
void tm_print_json(FILE *f, const sgemu_timing *t, const isa_kernel *k);

/* GRF bytes per lane a thread of `width` lanes can hold: registers per
 * thread (the large-GRF mode's where the config has one) x bytes per
 * register / width.  The register allocator's spill budget. */
uint32_t tm_grf_budget_bytes(const emu_config *cfg, uint32_t width);

/* The register allocator's options for a launch at `width` on cfg (NULL:
 * no config, no limit): the spill budget tm_grf_budget_bytes gives where
 * the config allows spills, the temporaries of elementary functions on its
 * Intel target (kept in *mt, which o->math_temps may point to), the width
 * (uniform values count once per thread), SGEMU_REMAT=0 (spill what
 * rematerialisation would recompute) and SGEMU_UNIFORM=0 (count uniform
 * values per lane), the last two for A/B comparisons. */
void emu_ra_opts(const emu_config *cfg, uint32_t width, isa_ra_opts *o, isa_math_temps *mt);

#endif
