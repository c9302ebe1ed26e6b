/*
 * timing_config.h - the device numbers the cycle-level timing model reads.
 * Embedded in emu_config (field `timing`); every field is a row of
 * emu/config_keys.def and a line of docs/config.md.  Formulas using them:
 * docs/timing-model.md.
 */
#ifndef SGEMU_TIMING_CONFIG_H
#define SGEMU_TIMING_CONFIG_H

#include <stdint.h>

/* Execution pipes the model charges (after resolving ALU rows by type and
 * micro-ops by kind), the one list: each row is the enum, the YAML name
 * under `pipes.` and the defaults of its four keys (latency, interval,
 * width, units: emu/config_keys.def expands them into keys).
 * X(ENUM, yaml name, latency, interval, width, units) */
#define TM_PIPES(X) \
    X(INT,     "int",            "4",  "1", "8",  "1") \
    X(FP32,    "fp32",           "4",  "1", "8",  "1") \
    X(FP64,    "fp64",           "8",  "4", "8",  "1") \
    X(FP16,    "fp16",           "4",  "1", "16", "1") \
    X(TRANS,   "transcendental", "16", "4", "8",  "1") \
    X(MOV,     "mov",            "2",  "1", "8",  "1") \
    X(SHUFFLE, "shuffle",        "6",  "2", "16", "1") \
    X(REDUCE,  "hw_reduce",      "12", "2", "32", "1") \
    X(VOTE,    "vote",           "6",  "1", "16", "1") \
    X(SEND,    "send",           "2",  "1", "16", "1") \
    X(BRANCH,  "branch",         "4",  "1", "64", "1") \
    X(SYNC,    "sync",           "2",  "1", "64", "1") \
    X(INT_MAD, "int_mad",        "4",  "1", "8",  "1")

typedef enum tm_pipe {
#define X(E, n, lat, ii, width, units) TM_PIPE_##E,
    TM_PIPES(X)
#undef X
    TM_PIPE_COUNT
} tm_pipe;

/* Whether `int_mad` is the alternate of `int` (key pipes.int_mad.alternate_of):
 * integer multiply and multiply-add issue to int_mad, an integer add or
 * subtract to int or int_mad; none: all of them on `int`, int_mad unused.
 * docs/timing-model.md, "Integer pipes". */
#define TM_INT_ALTERNATES(X) X(NONE, "none") X(INT_MAD, "int")

typedef enum tm_int_alternate {
#define X(E, n) TM_INT_ALT_##E,
    TM_INT_ALTERNATES(X)
#undef X
} tm_int_alternate;

/* Who computes a one-source shuffle's source lane (key
 * pipes.shuffle_lane.index): alu, micro-ops on the ALU pipes before the
 * indirect moves (Intel: the address register, then mov r[a0]); operand,
 * the shuffle unit from the lane, mask or delta operand (NVIDIA SHFL.IDX,
 * .BFLY, .UP, .DOWN).  docs/timing-model.md, "Micro-ops". */
#define TM_SHUFFLE_LANE_INDEXES(X) X(ALU, "alu") X(OPERAND, "operand")

typedef enum tm_shuffle_lane_index {
#define X(E, n) TM_SHUFFLE_LANE_##E,
    TM_SHUFFLE_LANE_INDEXES(X)
#undef X
} tm_shuffle_lane_index;

/* Warp / thread scheduler policies (ENUM key scheduler.policy). */
#define TM_POLICIES(X) X(RR, "round_robin") X(OLDEST, "oldest_first") X(GTO, "greedy_oldest")

typedef enum tm_policy {
#define X(E, n) TM_POLICY_##E,
    TM_POLICIES(X)
#undef X
} tm_policy;

typedef struct tm_pipe_cfg {
    uint32_t latency;   /* cycles from issue to result */
    uint32_t ii;        /* cycles one pass occupies a unit */
    uint32_t width;     /* lanes per pass */
    uint32_t units;     /* parallel units per compute unit */
} tm_pipe_cfg;

typedef struct tm_cache_cfg {
    uint32_t size;      /* bytes (0: no such cache) */
    uint32_t assoc;     /* ways */
    uint32_t latency;   /* cycles for a hit */
    uint32_t bw;        /* bytes per cycle */
} tm_cache_cfg;

typedef struct emu_timing_cfg {
    tm_pipe_cfg pipe[TM_PIPE_COUNT];
    uint8_t int_alternate;      /* TM_INT_ALTERNATES index: int_mad beside int */
    uint8_t shuffle_lane_index; /* TM_SHUFFLE_LANE_INDEXES index */
    uint32_t shuffle_reg_lane_latency; /* operand: a register lane operand's read */
    uint32_t eus_per_cu;        /* execution units (EU / XVE / SMSP) per compute unit */
    /* scheduler */
    uint8_t policy;             /* TM_POLICIES index */
    uint32_t schedulers;        /* per compute unit */
    uint32_t issue_width;       /* instructions per scheduler per cycle */
    uint32_t barrier_latency;   /* cycles from the last arrival counted to release */
    uint32_t barrier_arrival_ii; /* cycles between two arrivals the barrier unit counts */
    uint32_t barrier_release_ii; /* cycles between the releases of two subgroups */
    uint32_t sg_barrier_latency;
    uint32_t dispatch_latency;  /* cycles to launch a work-group on a free CU */
    uint32_t launch_wg_interval; /* CU launcher: cycles it takes at least per work-group */
    uint32_t launch_sg_interval; /* CU launcher: cycles between two subgroups it starts */
    uint32_t kernel_args_latency; /* a CU's first fetch of the kernel arguments */
    uint32_t cross_unit_latency; /* a result read by another unit's instruction */
    uint32_t max_wg_per_cu;     /* resident work-groups per CU (0: no limit) */
    uint32_t grf_bytes_per_cu;  /* shared register file per CU (0: per thread) */
    uint32_t allow_spill;       /* 1: a kernel over the GRF spills */
    /* memory */
    uint32_t line_bytes;
    uint32_t sector_bytes;       /* 0: whole lines */
    tm_cache_cfg l1, l2;
    uint32_t l2_cu_bw;          /* bytes per cycle of one CU's loads from the L2 (0: no limit) */
    uint32_t l2_keep;           /* 1: the L2's lines carry from launch to launch */
    uint32_t l2_device_writes;  /* 1: device fills and copies leave lines in the L2 */
    uint32_t dram_latency;
    uint32_t dram_bw;           /* bytes per cycle, whole device */
    uint32_t slm_banks;
    uint32_t slm_bank_bytes;
    uint32_t slm_latency;
    uint32_t slm_atomic_latency;
    uint32_t slm_bw;            /* bytes per cycle per CU */
    uint32_t atomic_latency;    /* at L2 */
    uint32_t atomic_ii;         /* per extra lane on one address */
    uint32_t atomic_cu_ii;      /* CU atomic path: per line or same-address lane */
    uint32_t atomic_l2_contended;   /* L2: an atomic after another CU's on its line */
    double atomic_l2_word;      /* L2: cycles a contended packet holds its line a word */
} emu_timing_cfg;

#endif
