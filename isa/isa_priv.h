/*
 * isa_priv.h - helpers shared by the assembler, validator and disassembler
 * of isa/.  Not a contract header: other modules use isa.h only.
 */
#ifndef SGEMU_ISA_PRIV_H
#define SGEMU_ISA_PRIV_H

#include "isa.h"

/* Operand pattern of a shape, one letter per operand:
 *   d register destination      P predicate destination (no '!')
 *   q predicate source ([!]pN)  s source (reg, imm, %arg, %special)
 *   a address [..]              l label          i image argument %img
 * `min` operands are required; the rest of the pattern is optional.  BRA is
 * the one shape with two alternatives: "l" (1 operand) or "ql" (2). */
typedef struct isa_shape_pat {
    const char *pat;
    uint8_t min;
} isa_shape_pat;

extern const isa_shape_pat isa_shape_pats[ISA_SHAPE_COUNT];

/* The pattern letter of operand i of an instruction with n operands. */
char isa_shape_letter(isa_shape s, unsigned n, unsigned i);

/* Element type and component count of operand i of `in` (the type an
 * immediate is converted to and a register is read or written as). */
isa_type isa_opnd_type(const isa_inst *in, unsigned i, unsigned *vec);

/* Visit every register and predicate operand of `in` (address bases and
 * indices as reads): fn(ctx, reg, count, bytes per lane, letter), letter
 * 'd' (written), 's' (read), 'P' (predicate written), 'q' (read); a
 * predicate has 0 bytes.  The allocator and the pressure scheduler read
 * operands through it. */
typedef void (*isa_reg_visit_fn)(void *ctx, uint32_t reg, uint32_t n, uint32_t bytes, char l);
void isa_visit_regs(const isa_inst *in, isa_reg_visit_fn fn, void *ctx);

/* writes[r] = the instructions of code[0..n) that write register r < nreg
 * (a vector destination writes each of its registers); last[r], when last
 * is not NULL, the last of them. */
void isa_reg_writes(const isa_inst *code, uint32_t n, uint32_t nreg, uint32_t *writes,
                    uint32_t *last);

/* Does the opcode take an address space modifier (ld/st/atom/block)? */
bool isa_op_takes_space(const isa_op_info *oi);

/* Clean-up passes over a finished instruction stream (peephole.c; branch
 * targets are instruction indices, n the exit): drop branches to the next
 * instruction; then the whole tidy-up (branch inversion, mul+add -> mad,
 * narrowing folds, compare hoisting, copy coalescing, register
 * compaction).  They only remove work, never change a result. */
void isa_drop_fallthrough(isa_inst *code, uint32_t *n);
void isa_peephole(isa_inst *code, uint32_t *n);

/* Private variables accessed only at constant offsets become registers
 * (promote.c): every private load and store a move, *private_mem 0; the
 * stream is left as it is when any private access is not such.  *code may
 * be reallocated.  False: out of memory (the stream unchanged). */
bool isa_promote_private(isa_inst **code, uint32_t *n, uint32_t *private_mem);

/* uni[v] = 1 for each register v < nvreg that holds the same value in every
 * lane of a sub-group wherever it is read (uniform.c); partial[pc] says
 * that instruction pc may run with part of the lanes; scalar_broadcast: a
 * sub-group broadcast from a uniform lane is uniform (isa_ra_opts).  False:
 * no memory. */
bool isa_uniform_regs(const isa_inst *code, uint32_t n, uint32_t nvreg, const uint8_t *partial,
                      bool scalar_broadcast, uint8_t *uni);

/* vISA instructions Intel's compiler emits for `in` at sub-group width
 * `width` (an estimate per op class: regalloc_payload.c, docs/regalloc.md). */
uint32_t isa_visa_estimate(const isa_inst *in, uint32_t width);

/* A vector store's data as IGC's payload block (regalloc_payload.c): for
 * each run of component stores, a component a shuffle computed more than
 * max_dist estimated vISA instructions before its copy into the block (in
 * the same block of code) is held twice, from its definition, or from the
 * first component folded into the block if that is later, to the store:
 * extra[pc] += its bytes per lane (nbytes; uniform registers, uni, are
 * skipped).  max_dist 0: no distance limit.  From width copy_width (0:
 * never) every shuffle result is held twice so, and a block with nothing
 * folded into it is held at its own stores.  False: no memory. */
bool isa_payload_twice(const isa_inst *code, uint32_t n, uint32_t nvreg, const uint8_t *nbytes,
                       const uint8_t *uni, uint32_t width, uint32_t max_dist, uint32_t copy_width,
                       uint32_t *extra);

/* Parse an immediate literal `s[0..n)` for type t into zero-extended bits.
 * Returns NULL on success or a static error message. */
const char *isa_parse_imm(const char *s, size_t n, isa_type t, uint64_t *bits);

/* Print an immediate of type t so that isa_parse_imm gives the same bits. */
int isa_print_imm(char *buf, size_t n, isa_type t, uint64_t bits);

#endif
