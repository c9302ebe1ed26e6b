/*
 * decode.h - the decoded execution form of a kernel (internal to emu/).
 *
 * Built once per launch (read-only afterwards, so worker threads share it):
 * per instruction a kind the dispatch loop switches on, the register-row
 * offsets of its operands, immediates and arguments pre-broadcast into
 * constant rows, and the lane kernel chosen for its (op, type, width).
 * Instructions without a fast form are EMU_D_GENERIC and run as before.
 */
#ifndef SGEMU_EMU_DECODE_H
#define SGEMU_EMU_DECODE_H

#include "isa.h"
#include "lanes.h"
#include "lanes_fast.h"
#include "sgemu.h"

typedef enum emu_dkind {
    EMU_D_GENERIC = 0,   /* the isa_inst path (lanes_exec_alu, memory...) */
    EMU_D_ALU,           /* scalar ALU op with a lanes_fast kernel */
    EMU_D_MOV,           /* scalar mov of a register or constant row */
    EMU_D_CMP,           /* compare into a predicate; has_pred: the next
                            instruction is a BRA on that predicate */
    EMU_D_BRA,           /* branch, conditional or not: target src[0],
                            reconvergence point src[1] */
    EMU_D_NOP,
    EMU_D_SPECIAL,       /* mov of a work-item query (src[0] special, src[1] dim;
                            sel[0]: global or local id x, sel[1]: global) */
    EMU_D_MEM,           /* load/store/atomic: emu_mem_exec inside the stint */
    EMU_D_XALU,          /* other ALU op: lanes_exec_alu inside the stint */
    EMU_D_LDST,          /* scalar load/store with an emu_dmem (src[0]) */
    EMU_D_RET,           /* ret: the lanes leave */
    /* EMU_D_LDST of an argument's buffer indexed by a ramp register with
     * scale = element size, the coalesced case in the instruction itself:
     * index row src[1] read as sel[1] (emu_didx), element size sel[2],
     * base + displacement in m, buffer (argument + 1) src[2], register
     * row dst (sel[0]: a store's value is a constant row), store has_pred,
     * index register pred; src[0] is its emu_dmem for every other case */
    EMU_D_LDST_RAMP,
    EMU_D_END,           /* the sentinel after the last instruction: returns */
    /* EMU_D_LDST_RAMP of 4-byte elements, a load or a store (exec.c's
     * copy without the size and direction tests) */
    EMU_D_LD_RAMP4,
    EMU_D_ST_RAMP4,
    /* a memory access or sub_group_barrier while a detector is on
     * (detect.h): emu_detect_inst, then a load, store or atomic runs its
     * own decoded form (emu_detect_decoded) in the stint, the rest the
     * generic path */
    EMU_D_DETECT
} emu_dkind;

/* A scalar load or store resolved at decode time: lane l's address is
 * base (argument value, or register row base_row) + index(l) * scale +
 * disp, as memory.c's emu_mem_lane_addresses computes it. */
typedef enum emu_didx {
    EMU_IDX_NONE,        /* no index register */
    EMU_IDX_U32,         /* read as u32 (zero-extended) */
    EMU_IDX_64,          /* i64/u64: all 64 bits */
    EMU_IDX_S32          /* any other type: low 32 bits sign-extended */
} emu_didx;

typedef struct emu_dmem {
    uint64_t base;       /* argument base address (when !base_reg) */
    uint64_t disp;
    uint64_t scale;
    uint32_t base_row;   /* register row of a register base */
    uint32_t idx_row;    /* register row of the index */
    uint32_t val_row;    /* load: destination row; store: value row */
    uint8_t val_sel;     /* store: value in registers (0) or constants (1) */
    uint8_t base_reg, idx, store, esize, space;
    /* argument base, scale = esize, index register idx_reg in
     * emu_dprog.ramp_regs: coalesced whenever that register is a ramp */
    uint8_t ramp_idx;
    uint16_t idx_reg;
    /* argument base of a global/constant access that this access may use
     * (a global buffer, or a constant one for a load): its argument index
     * + 1, the high bits of its addresses; 0 when not resolved */
    uint16_t buf;
    /* EMU_D_LDST_RAMP (and _RAMP4), set by emu_decode_bind: lane 0's index value x0
     * (read as idx) takes the coalesced copy at ramp_ptr + x0 * esize
     * exactly when x0 - ramp_lo < ramp_n (ramp_n 0: never); the range
     * lies where reading the slot as idx is the slot itself (below 2^31
     * for i32, 2^32 for u32), so exec.c compares the slot unconverted */
    uint64_t ramp_lo, ramp_n;
    uintptr_t ramp_ptr;
} emu_dmem;

typedef struct emu_dinst {
    uint8_t kind;        /* emu_dkind */
    uint8_t sel[3];      /* per source: 0 register row, 1 constant row */
    union {
        uint8_t negate;  /* BRA: !pN */
        /* SPECIAL: the destination (register pred) is in ramp_regs;
         * CMP: source 0 is register src[2] of ramp_regs and source 1 a
         * constant (dst holds cond | type << 8) */
        uint8_t ramp;
    };
    uint8_t has_pred;    /* BRA: conditional */
    uint16_t pred;       /* CMP destination / BRA condition predicate */
    uint32_t dst;        /* destination row offset (register * S) */
    uint32_t src[3];     /* source row offsets (in registers or constants) */
    union {              /* by kind (one of them: 32 bytes an instruction) */
        uint64_t m;          /* MOV, SPECIAL: bits of the type */
        lanes_fast_fn fn;    /* ALU */
        lanes_fast_cmp_fn cmp;   /* CMP */
    };
} emu_dinst;

typedef struct emu_dprog {
    emu_dinst *d;        /* ninst, then the EMU_D_END sentinel */
    uint64_t *consts;    /* nconst rows of width S */
    emu_dmem *mem;       /* nmem resolved loads and stores */
    uint32_t n, nconst, nmem;
    bool fast;           /* fast paths on (memory.c's coalesced accesses too) */
    /* bit r (r < 64): every instruction that may write register r is a
     * decoded global/local id query, so exec.c can keep a per-sub-group
     * "r is a lane ramp" bit that only those queries change */
    uint64_t ramp_regs;
    /* registers r < 64 that a sub-group's entry must zero: the others are
     * written (lane-wise) on every path before any read, and no
     * cross-lane instruction names them, so none could see an inactive
     * lane's value (decode.c's find_dead_zeroing); registers >= 64 are
     * always zeroed.  zero_preds: the same for the predicates */
    uint64_t zero_regs, zero_preds;
    /* zero_regs as the rows [start, start + n) that a sub-group's entry
     * clears, the rows >= 64 included (emu_zero_regs): gaps of a few rows
     * between runs are filled, since clearing more is always correct and a
     * memset call costs more than a few rows' stores; runs past the last
     * slot are merged into it */
    uint16_t zero_run[4][2];
    uint32_t nzero_runs;
} emu_dprog;

/* Decode k for sub-group width w with the launch's argument values;
 * 0, or -1 when out of host memory.  The environment variable
 * SGEMU_DECODE=0 turns every fast path off (A/B measurements, bisecting). */
int emu_decode(emu_dprog *p, const isa_kernel *k, uint32_t w,
               const uint64_t *arg_values);
void emu_decode_free(emu_dprog *p);
/* Resolve what the fast paths can only know from the bound arguments
 * (buffer addresses and sizes: the ranges of EMU_D_LDST_RAMP); before any
 * work-group runs, as the arguments stay fixed for the run. */
void emu_decode_bind(emu_dprog *p, const isa_kernel *k, uint32_t w,
                     const sgemu_argval *args);

#endif
