/*
 * lanes.h - per-subgroup state and per-lane semantics.
 *
 * A subgroup of width S owns a register file of nreg x S 64-bit slots and
 * npred predicate masks.  A slot holds the bit pattern of its element type,
 * zero-extended to 64 bits (an i8 -1 is 0xff; an f32 holds its IEEE bits in
 * the low 32 bits).  Register r of lane l is regs[r * S + l], so one register
 * of all lanes is contiguous and lane loops vectorise.  A vector register of
 * n components is n consecutive registers.
 *
 * lanes/ knows isa/ only.  Nothing here computes a cost.
 */
#ifndef SGEMU_LANES_H
#define SGEMU_LANES_H

#include "isa.h"

#include <stdint.h>

#define LANES_MAX 64

typedef uint64_t lanes_mask;

static inline lanes_mask lanes_mask_first(uint32_t n)
{
    return n >= 64 ? ~(lanes_mask)0 : (((lanes_mask)1 << n) - 1);
}

/* ------------------------------------------------------ SIMT stack */

/* Reconvergence stack (immediate post-dominator rule): each entry runs
 * `mask` from `pc` until it reaches `rpc`, where it is popped and the
 * entry below (which waits at rpc) resumes with its own, wider mask. */
typedef struct lanes_simt_entry {
    uint32_t pc;
    uint32_t rpc;          /* ISA_PC_EXIT for the bottom entry */
    lanes_mask mask;
} lanes_simt_entry;

typedef struct lanes_simt {
    lanes_simt_entry *e;   /* owned, grows */
    uint32_t depth, cap;
    lanes_mask exited;     /* lanes that executed ret */
    bool oom;              /* a branch could not grow the stack: it was
                              emptied (the sub-group stops); the engine
                              reports out of host memory */
} lanes_simt;

void lanes_simt_init(lanes_simt *s, lanes_mask lanes, uint32_t entry_pc);
void lanes_simt_free(lanes_simt *s);
/* true when every lane has returned */
bool lanes_simt_done(const lanes_simt *s);
uint32_t lanes_simt_pc(const lanes_simt *s);
/* lanes that execute the instruction at lanes_simt_pc() */
lanes_mask lanes_simt_active(const lanes_simt *s);
/* Continue at next_pc with the current mask (after a non-branch, or a
 * branch all active lanes agree on), popping entries that reached their
 * reconvergence point. */
void lanes_simt_goto(lanes_simt *s, uint32_t next_pc);
/* A conditional branch at the current pc: `taken` lanes go to target, the
 * others to fallthrough; both paths run (taken first) until reconv. */
void lanes_simt_branch(lanes_simt *s, lanes_mask taken, uint32_t target,
                       uint32_t fallthrough, uint32_t reconv);
/* ret: the active lanes finish; execution continues at next_pc for none of
 * them, so the stack pops to whatever path still has live lanes. */
void lanes_simt_ret(lanes_simt *s);

/* ------------------------------------------------------ register state */

typedef struct lanes_sg {
    uint32_t width;        /* S = max sub-group size */
    uint32_t size;         /* lanes that exist (< S only in a partial subgroup) */
    lanes_mask exists;     /* lanes_mask_first(size) */
    uint32_t nreg, npred;
    uint64_t *regs;        /* nreg * width */
    lanes_mask *preds;     /* npred */
    lanes_simt simt;
    uint32_t fault_lane;   /* lane of the last fault lanes_exec_alu reported */
} lanes_sg;

/* Allocate zeroed registers; returns 0 or -1 on allocation failure. */
int lanes_sg_init(lanes_sg *sg, uint32_t width, uint32_t size,
                  uint32_t nreg, uint32_t npred);
void lanes_sg_free(lanes_sg *sg);

static inline uint64_t *lanes_reg(lanes_sg *sg, uint32_t r)
{
    return sg->regs + (size_t)r * sg->width;
}

/* How operands that are not registers get their per-lane values: the
 * engine supplies argument values and work-item queries. */
typedef struct lanes_env {
    void *user;
    const uint64_t *arg_values;        /* per kernel argument: value / address */
    /* fill out[0..width) with the special's value per lane */
    void (*special)(void *user, const lanes_sg *sg, isa_special sp,
                    uint32_t dim, uint64_t *out);
} lanes_env;

/* Values of source operand `o` for component `comp`, as type `t`:
 * returns a pointer to width slots (the register row itself, or `scratch`
 * filled with a broadcast immediate / argument / special). */
const uint64_t *lanes_src(const lanes_env *env, lanes_sg *sg,
                          const isa_operand *o, uint32_t comp,
                          isa_type t, uint64_t *scratch);

/* Normalise bits to type t (truncate and zero-extend). */
uint64_t lanes_trunc(isa_type t, uint64_t bits);
/* Sign- or zero-extend bits of type t to 64 bits (integers only). */
int64_t lanes_sext(isa_type t, uint64_t bits);

/* IEEE binary16 <-> binary32/64, round to nearest even. */
uint16_t lanes_f32_to_f16(float f);
uint16_t lanes_f64_to_f16(double d);
float lanes_f16_to_f32(uint16_t h);

/* Scalar helpers shared with collectives/: apply a combining operator to
 * two values of type t (wrapping integers, fmin/fmax for floats, binary16
 * rounded after the step) and the operator's identity. */
uint64_t lanes_binop(isa_binop op, isa_type t, uint64_t a, uint64_t b);
/* r[i] = lanes_binop(op, t, a[i], b[i]) for i < n, the op and type chosen
 * once for the row (r may be a or b). */
void lanes_binop_row(isa_binop op, isa_type t, uint64_t *r, const uint64_t *a,
                     const uint64_t *b, uint32_t n);
/* r[i] = lanes_binop(op, t, r[i - 1], r[i]) for i = 1 .. n-1 in turn: an
 * inclusive scan in lane order, r[0] as it is. */
void lanes_scan_row(isa_binop op, isa_type t, uint64_t *r, uint32_t n);
/* What lanes_scan_row would leave in r[n - 1] (n >= 1), r unchanged. */
uint64_t lanes_fold_row(isa_binop op, isa_type t, const uint64_t *r, uint32_t n);
uint64_t lanes_identity(isa_binop op, isa_type t);

/* Execute an ALU / MOV / CMP / SEL / CVT / predicate instruction over the
 * lanes in `mask`; inactive lanes keep their values.  Returns 0, or a
 * non-zero lanes_fault code (integer division by zero is not a fault in
 * OpenCL: the result is documented in docs/isa.md). */
int lanes_exec_alu(const lanes_env *env, lanes_sg *sg, const isa_inst *in,
                   lanes_mask mask);

/* Codes lanes_exec_alu returns.  A fault still writes deterministic
 * results (integer x/0 = all ones, x%0 = x); the engine decides whether to
 * stop, and sg->fault_lane names the lowest offending active lane. */
enum {
    LANES_OK = 0,
    LANES_FAULT_DIV_ZERO = 1,   /* integer div/rem by zero in an active lane */
    LANES_FAULT_BAD_INST = 2    /* opcode/type/operand form lanes/ cannot run */
};

/* lanes_simt_init that keeps s's storage (s initialised before, or zeroed)
 * and reports allocation failure instead of aborting: 0, or -1 with the
 * stack empty. */
int lanes_simt_reset(lanes_simt *s, lanes_mask lanes, uint32_t entry_pc);

#endif
