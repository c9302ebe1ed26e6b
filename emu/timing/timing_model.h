/*
 * timing_model.h - the cycle-level timing model's entry points for the
 * engine (docs/timing-model.md); its results are public
 * (include/sgemu/timing.h).
 *
 * The model owns the dispatch loop: it starts work-groups on compute units as
 * slots free up and pulls each one's record trace from the functional engine
 * through next_wg (executing work-groups in dispatch order is exact because
 * timing never changes values).  It reads records and micro-ops only.
 */
#ifndef SGEMU_TIMING_MODEL_H
#define SGEMU_TIMING_MODEL_H

#include "config.h"
#include "isa.h"
#include "record.h"
#include "timing.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an instruction does, for the issue loop.  NONE: one issue slot, no
 * pipe, no result (a scoreboard wait or nop that the records' registers
 * already order); FENCE: a message on the send pipe whose result waits
 * for every earlier instruction of the thread to complete (a memory
 * fence's response). */
typedef enum tm_kind {
    TM_K_ALU, TM_K_MEM, TM_K_ATOMIC, TM_K_BRANCH, TM_K_BARRIER, TM_K_SG_BARRIER,
    TM_K_UOPS, TM_K_UOPS_WG, TM_K_NONE, TM_K_FENCE
} tm_kind;

/* Register ranges: scoreboard slots [first, first + n). */
typedef struct tm_range {
    uint16_t first, n;
} tm_range;

#define TM_MAX_RANGES 8

/* Address of byte x of row y (rows pitch bytes apart) of image argument
 * `img` in the model's flat space, each image in a range of its own: the
 * engines record image accesses at it (emu_image_texel_addr) and the
 * model places image block messages' rows there. */
static inline uint64_t tm_image_addr(uint32_t img, uint64_t x, uint64_t y, uint32_t pitch)
{
    return ((uint64_t)(0x1000 + img) << 40) + y * pitch + x;
}

/* One instruction of a program form other than sgemu's ISA, as the timing
 * model reads it (the Gen path builds one per instruction: emu/gen/
 * gen_timing.c).  Records name it by pc, as they name sgemu's
 * instructions; what the model derives from isa_inst for its own ISA is
 * given here. */
typedef struct tm_op {
    uint8_t kind;          /* tm_kind */
    uint8_t pipe;          /* tm_pipe */
    uint8_t space;         /* memory: isa_space */
    uint8_t store;         /* memory: writes */
    uint8_t type_bytes;    /* 8: 64-bit integer / transcendental (two passes) */
    uint8_t lanes;         /* channels issued: ceil(lanes / pipe width) passes */
    uint16_t elem_bytes;   /* memory: bytes at each record address */
    uint8_t nsrc;
    tm_range src[TM_MAX_RANGES];
    tm_range dst;          /* n = 0: none */
    tm_range xdst;         /* a second destination written with dst (a
                            * flag, the accumulator), n = 0: none */
    tm_range srcrd;        /* slots ready once the instruction has read its
                            * sources (Xe's token $n.src): its pipe's start
                            * + its occupancy, n = 0: none */
    const char *text;      /* the instruction as printed (trace, per-line) */
} tm_op;

/* The cache state a launch starts from and leaves (sgemu_launch.caches;
 * timing_carry.c): per argument, the identity of the buffer it binds (0:
 * none), the offset of its first byte in that buffer and its bytes. */
typedef struct tm_carry {
    struct sgemu_cache_state *state;
    uint32_t narg;
    uint64_t buffer[ISA_MAX_ARGS], offset[ISA_MAX_ARGS], bytes[ISA_MAX_ARGS];
} tm_carry;

/* Pull work-group wg_linear's records into *out (0 ok, else an exit code). */
typedef int (*tm_next_wg_fn)(void *user, uint64_t wg_linear, emu_wg_trace *out);

typedef struct tm_launch {
    const isa_kernel *k;
    /* Another program form's instructions (NULL: k's own ISA): nops of
     * them, pcs 0..nops-1, over nslots scoreboard slots. */
    const tm_op *ops;
    uint32_t nops, nslots;
    const emu_config *cfg;
    uint32_t width;
    uint32_t wg_items;            /* work-items of a full work-group */
    uint32_t local_bytes;         /* local memory per work-group */
    uint64_t wg_total;
    tm_next_wg_fn next_wg;
    void *user;
    const char *trace_path;       /* Chrome trace JSON, or NULL */
    uint64_t trace_limit;         /* events (0: default 1000000) */
    /* Host threads (0 or 1: one).  N > 1: one runs next_wg ahead of the
     * model (timing_ahead.c; next_wg is then called from that thread, in
     * order), N - 1 the issue loop, whose threads wait for each other at
     * every step that touches shared state. */
    uint32_t threads;
    /* The L2's lines from the launches before, updated when this one ends
     * (NULL: it starts empty; memory.l2.keep_across_launches) */
    const tm_carry *carry;
} tm_launch;

/* Run the model; fills *out (free with tm_timing_free).  Returns 0, the
 * next_wg error, or SGEMU_EXIT_INTERNAL/USER (trace file) with msg set. */
int tm_run(const tm_launch *L, sgemu_timing *out, char *msg, size_t msgn);
void tm_timing_free(sgemu_timing *t);

/* Occupancy only (timing_occupancy.c): fills the occupancy fields. */
void tm_occupancy(const emu_config *cfg, const isa_kernel *k, uint32_t width,
                  uint32_t wg_items, uint32_t local_bytes, uint64_t wg_total,
                  sgemu_timing *t);

/* After tm_occupancy: a work-group that cannot be resident on one compute
 * unit (more subgroups than thread slots, or than the register file holds)
 * cannot launch.  Returns 0, or SGEMU_EXIT_USER with msg naming the limit. */
int tm_check_fit(const emu_config *cfg, const sgemu_timing *t, uint32_t width,
                 uint32_t wg_items, char *msg, size_t msgn);

/* timing_launch.c: sgemu_run's loop when launch->timing is set. */
struct emu_run;
int emu_timing_run(struct emu_run *run);
/* The launch's tm_carry in *c, or NULL when it carries no cache state. */
const tm_carry *emu_timing_carry(const struct emu_run *run, tm_carry *c);

#endif
