/*
 * timing_private.h - state shared by the files of the timing model:
 * per-instruction info (timing_inst.c), the memory hierarchy
 * (timing_mem.c), the issue loop (timing_core.c) and the Chrome trace
 * writer (timing_trace.c).
 */
#ifndef SGEMU_TIMING_PRIVATE_H
#define SGEMU_TIMING_PRIVATE_H

#include "sgemu.h"
#include "timing.h"

#define TM_NEVER UINT64_MAX
#define TM_MAX_RANGES 8
#define TM_MAX_FLAT 6
#define TM_FLAT_NONE 0xff

/* What an instruction does, for the issue loop. */
typedef enum tm_kind {
    TM_K_ALU, TM_K_MEM, TM_K_ATOMIC, TM_K_BRANCH, TM_K_BARRIER, TM_K_SG_BARRIER,
    TM_K_UOPS, TM_K_UOPS_WG
} tm_kind;

/* Register ranges: scoreboard slots [first, first + n). */
typedef struct tm_range {
    uint16_t first, n;
} tm_range;

/* Precomputed per pc: no decoding per record. */
typedef struct tm_inst {
    uint8_t kind;         /* tm_kind */
    uint8_t pipe;         /* tm_pipe */
    uint8_t space;        /* memory: isa_space */
    uint8_t nsrc;
    uint8_t has_pipe;     /* issue waits for a free unit of `pipe` */
    uint8_t fills, spills; /* spilled source / destination registers (GRF overflow) */
    uint16_t passes;      /* pipe passes at the run's width */
    uint16_t elem_bytes;  /* memory: bytes per lane */
    tm_range src[TM_MAX_RANGES];
    tm_range dst;         /* n = 0: none */
    /* The source scoreboard slots in range order, filtered to real slots,
     * for the per-issue dependency check (nflat = TM_FLAT_NONE: too many,
     * walk the ranges). */
    uint8_t nflat;
    uint16_t flat[TM_MAX_FLAT];
    /* Derived once per launch (timing_core.c) for the issue path: */
    uint8_t upipe;        /* pipe the issue waits for, TM_PIPE_COUNT: none */
    uint8_t shared;       /* may touch state shared between compute units */
    uint32_t unitset;     /* that pipe's units (offset | count << 16), UINT32_MAX: none */
    /* The ALU fast path (issue_alu): an ALU instruction without spills,
     * its pipe occupancy (passes x interval), its result time after the
     * start (latency + (passes - 1) x interval) and its destination slots
     * [dst.first, dst.first + ndst) (those below the slot count). */
    uint8_t alu_fast;
    uint16_t ndst;
    uint32_t occ, lat;
} tm_inst;

void tm_inst_build(const isa_kernel *k, const emu_config *cfg, uint32_t width,
                   tm_inst *out);
/* Pipe of a micro-op and its passes over `lanes`. */
tm_pipe tm_uop_pipe(const coll_uop *u);
uint32_t tm_passes(const emu_timing_cfg *tc, tm_pipe p, uint32_t lanes, uint32_t type_bytes);

/* Work-group barrier: the time the barrier unit counts the last of n
 * arrivals (times in arrival[], sorted here), counting one every `interval`
 * cycles in arrival order: c_1 = t_1, c_k = max(t_k, c_(k-1) + interval). */
uint64_t tm_barrier_counted(uint64_t *arrival, uint32_t n, uint32_t interval);

/* ---- memory hierarchy (timing_mem.c) ---- */
typedef struct tm_cache {
    uint32_t sets, ways, line_shift;
    uint64_t *tag;        /* sets * ways, line number + 1 (0: empty) */
    uint64_t *stamp;      /* LRU: last use */
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
    uint64_t *l1_free;    /* per CU port */
    uint64_t *slm_free;   /* per CU port */
    tm_slm_stats *slm;    /* per CU */
    tm_cache l2;
    uint64_t l2_free, dram_free;
    sgemu_timing *st;
} tm_mem;

int tm_mem_init(tm_mem *m, const emu_timing_cfg *tc, uint32_t ncu, sgemu_timing *st);
void tm_mem_free(tm_mem *m);
/* One global access of n lane addresses issued at t; returns completion. */
uint64_t tm_mem_global(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                       uint32_t n, uint32_t bytes, bool store, bool atomic);
/* Local bytes so far (all CUs), and the per-CU local statistics added
 * into the run's (once, at the end). */
uint64_t tm_mem_local_bytes(const tm_mem *m);
void tm_mem_fold(tm_mem *m);
/* Local memory: bank conflicts; returns completion. */
uint64_t tm_mem_local(tm_mem *m, uint32_t cu, uint64_t t, const uint64_t *addr,
                      uint32_t n, uint32_t bytes, bool store);
/* A contiguous block message [addr, addr + bytes) (block I/O). */
uint64_t tm_mem_block(tm_mem *m, uint32_t cu, uint64_t t, isa_space space,
                      uint64_t addr, uint32_t bytes, bool store);

/* Address of image `img`'s byte (x, y) in the model's flat space. */
static inline uint64_t tm_image_addr(uint32_t img, uint64_t x, uint64_t y, uint32_t pitch)
{
    return ((uint64_t)(0x1000 + img) << 40) + y * pitch + x;
}

/* ---- Chrome trace (timing_trace.c) ---- */
typedef struct tm_trace {
    FILE *f;
    char *tmp_path;
    const char *path;
    uint64_t limit, events;
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

#endif
