/*
 * gen_engine.h - executing a Gen program (isa/gen/gen.h): one hardware
 * thread per sub-group with a byte-addressed GRF file and the architecture
 * registers IGC's code uses.  Shared by the files of emu/gen/.
 */
#ifndef SGEMU_GEN_ENGINE_H
#define SGEMU_GEN_ENGINE_H

#include "../emu_private.h"
#include "gen/gen.h"
#include "../timing/timing_model.h"

#define GEN_ACC_BYTES 512    /* acc0.. as a byte file (8 registers of 64 bytes) */
#define GEN_FLAG_BYTES 16    /* f0, f1 (32 bits each) and room for f2, f3 */
#define GEN_A0_BYTES 64      /* a0.0-a0.15 (16-bit) */
#define GEN_CTRL_BYTES 64    /* cr0, sr0, ce0, n0, tm0 */

/* A work-group's barrier: threads that signaled it in this generation.
 * Barrier 0 is the work-group's; named barriers (1 ...) take their count
 * of producer threads from the signal's header. */
typedef struct gen_barrier {
    uint32_t threads;        /* threads that complete it */
    uint32_t signaled;
    uint32_t gen;            /* completed barriers so far */
} gen_barrier;

enum { GEN_ADDR_SNAP = 32 * 8 };

/* The A64 address sgemu gives private_base_stateless: a range of emu/'s
 * address space no argument uses (argument i is at (i+1) << 40), which
 * the messages map to the work-group's private memory in the arena. */
#define GEN_PRIVATE_A64 (UINT64_C(0xFF) << 40)

typedef struct gen_thread {
    emu_sg *sg;              /* its sub-group (id, size) for faults */
    uint8_t *grf;            /* grf_count x grf_bytes */
    uint32_t grf_size;
    uint8_t acc[GEN_ACC_BYTES];
    uint8_t flag[GEN_FLAG_BYTES];
    uint8_t a0[GEN_A0_BYTES];
    uint8_t cr[GEN_CTRL_BYTES], sr[GEN_CTRL_BYTES], ce[GEN_CTRL_BYTES];
    uint8_t tm[GEN_CTRL_BYTES], nreg[GEN_CTRL_BYTES];
    uint64_t dispatch;       /* channels that exist (the dispatch mask) */
    uint64_t exec;           /* channels enabled at ip: those whose pcip is ip */
    uint32_t ip;             /* instruction index */
    bool conv;               /* every channel at ip (pcip not kept up to date) */
    bool done;
    bool blocked;            /* waiting at sync.bar for the other threads */
    bool bar_signaled;       /* signaled the barrier of generation bar_gen */
    bool bar_passed;         /* resumed after that barrier completed */
    uint32_t bar_gen;
    gen_barrier *bar;        /* the barrier it signaled last */
    gen_barrier *bars;       /* its work-group's, GEN_MAX_BARRIERS of them */
    uint32_t *bar_done;      /* barriers its work-group completed (any of them) */
    uint8_t *scratch;        /* the work-group's scratch arena (A32 stateless) */
    uint32_t scratch_size;   /* its bytes: scratch_stride x the work-group's threads,
                              * then (Xe-HPG+) the indirect data */
    uint32_t indirect;       /* offset of the indirect data in the arena (r0.0) */
    uint32_t gprivate;       /* offset of the private memory that the code
                              * reaches through private_base_stateless (A64
                              * GEN_PRIVATE_A64) in the arena */
    bool unaligned_ok;       /* the message in flight takes any byte address */
    bool slm_access;         /* the message just executed reached SLM: the turn ends */
    /* the address payload of the message in flight (src0's first bytes, up
     * to 32 lanes of 8), copied before its response may overwrite it */
    uint8_t addr_snap[GEN_ADDR_SNAP];
    uint32_t pcip[32];       /* per-channel instruction index (SIMD control flow) */
    uint8_t depth[32];       /* per-channel call depth: calls taken, not returned */
    bool in_call;            /* some channel's depth is not 0 */
    /* Timed runs: the work-group's records (NULL: untimed); the record of
     * the instruction executing takes each lane's first address
     * (gen_rec_addr); scratch_flat places the work-group's scratch in the
     * model's address space. */
    emu_wg_trace *tr;
    bool rec_open, rec_oom;
    uint32_t rec_lane;
    uint64_t scratch_flat;
} gen_thread;

/* gen_run.c: a fault that names the instruction (as IGA prints it) and its
 * offset; lane UINT32_MAX: the whole thread. */
/* Scratch space of a thread: the kernel's per-thread bytes rounded up to
 * the 1 KiB granularity of the scratch pointer in r0.5[31:10]. */
static inline uint32_t gen_scratch_stride(const gen_program *p)
{
    return (p->scratch_bytes + 1023) / 1024 * 1024;
}

int gen_fault(emu_run *run, gen_thread *t, uint32_t lane, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* gen_alu.c: one non-send instruction; 0 or the fault code. */
int gen_exec_alu(emu_run *run, gen_thread *t, const gen_inst *in);
/* Channels of `in` that execute (execution mask, predication), as a mask
 * over the instruction's own channels 0..esize-1. */
uint64_t gen_channels(const gen_thread *t, const gen_inst *in, bool use_pred);

/* Predicate bits of `in` (sequential or group form) over its channels
 * 0..esize-1; all ones when unpredicated. */
uint64_t gen_pred_bits(const gen_thread *t, const gen_inst *in);

/* gen_flow.c: one control-flow instruction (moves channels' pcip), and the
 * choice of the next instruction once pcip changed; 0 or the fault code. */
int gen_exec_flow(emu_run *run, gen_thread *t, const gen_inst *in);
void gen_next_ip(gen_thread *t);

/* gen_send.c: one send; 0 or the fault code. */
int gen_exec_send(emu_run *run, gen_thread *t, const gen_inst *in);

/* gen_timing.c: the timing model's view of the program (one tm_op per
 * instruction, malloc'd into *out; -1: out of memory) over
 * gen_timing_slots(p) scoreboard slots, the hook of every memory access
 * of a send (the lane's address into the instruction's record) and of a
 * media block message (its 2D micro-op into the record). */
int gen_timing_ops(const gen_program *p, tm_op **out);
uint32_t gen_timing_slots(const gen_program *p);
void gen_rec_addr(emu_run *run, gen_thread *t, uint32_t lane, isa_space sp, bool scratch,
                  uint64_t addr);
void gen_rec_uop(gen_thread *t, const coll_uop *u);

/* emu/gen entry (called by sgemu_run for kernels with k->gen). */
int emu_gen_run(emu_run *run);

#endif
