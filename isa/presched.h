/*
 * presched.h - pre-allocation scheduling for register pressure (presched.c,
 * docs/regalloc.md, "Scheduling for pressure").  Used by the register
 * allocator on kernels the SPIR-V front end translated.
 */
#ifndef SGEMU_ISA_PRESCHED_H
#define SGEMU_ISA_PRESCHED_H

#include "isa.h"

/* The basic blocks of code[0..n): start[0..count) are their first
 * instructions, ascending, and start[count] = n.  A block starts at 0, at
 * every branch target and reconvergence point and after every branch or
 * return.  start needs room for n + 1 entries.  Returns count. */
uint32_t isa_presched_blocks(const isa_inst *code, uint32_t n, uint32_t *start);

/* Reorder block code[lo..hi) of code[0..n) so that values are computed
 * close to their readers: a bottom-up list schedule by Sethi-Ullman numbers
 * over the block's dependences (registers and predicates read and written,
 * loads against stores), each stretch between two fixed instructions
 * (anything but lane-wise arithmetic that cannot fault, moves, conversions,
 * loads and stores: division, remainder,
 * collectives, barriers, atomics, block I/O, images, printf, elementary
 * functions, branches) scheduled on its own.  nreg, npred: the register and
 * predicate numbers code names.  Returns true when the order changed;
 * false when it did not or memory ran out (code unchanged). */
bool isa_presched_block(isa_inst *code, uint32_t n, uint32_t lo, uint32_t hi, uint32_t nreg,
                        uint32_t npred);

#endif
