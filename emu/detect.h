/*
 * detect.h - the opt-in bug detectors of the functional engine
 * (docs/cli.md, "Detectors"): data races on local memory within a
 * work-group and on global memory and images within a launch (--races),
 * and loads
 * of local memory that no work-item wrote (--uninitialized).  Off, none of this runs: the decoder hands the
 * instructions to check to the interpreter as EMU_D_DETECT only when a
 * detector is on, and the other hooks test run->det.
 */
#ifndef SGEMU_EMU_DETECT_H
#define SGEMU_EMU_DETECT_H

#include "emu_private.h"

#include <stdio.h>

typedef struct emu_detect emu_detect;

/* Allocate the shadow of run->local_total bytes (and the page tables of
 * the global buffers' shadow) for the detectors in run->launch->detect
 * and mark the instructions they check in run->dp.
 * 0, or -1 when out of host memory. */
int emu_detect_init(emu_run *run);
void emu_detect_free(emu_run *run);

/* Work-group wg_linear starts: no local byte written, every earlier
 * access of the launch ordered before its own ones but in global memory. */
void emu_detect_wg_start(emu_run *run, uint64_t wg_linear);
/* Every sub-group left the work-group barrier (or collective) at pc. */
void emu_detect_wg_barrier(emu_run *run, uint32_t pc);

/* Before instruction `in` (an EMU_D_DETECT one) of sub-group sg runs on
 * the lanes of mask: check and record its local or global accesses, or
 * count its sub-group barrier. */
void emu_detect_inst(emu_run *run, emu_sg *sg, const isa_inst *in,
                     lanes_mask mask, uint32_t pc);

/* emu_detect_inst for a 32-bit global load or store of the whole
 * sub-group whose lane l is at addr0 + 4l inside one buffer (exec.c's
 * coalesced path); false, having done nothing, when it must take
 * emu_detect_inst. */
bool emu_detect_ramp4(emu_run *run, emu_sg *sg, const isa_inst *in, uint32_t pc,
                      uint64_t addr0);

/* The decoded form instruction pc had before emu_detect_init marked it
 * EMU_D_DETECT (the plain run's). */
const emu_dinst *emu_detect_decoded(const emu_run *run, uint32_t pc);

/* A collective at pc left lane `lane` of sub-group sg undefined (a
 * coll_note: status, value; active: the lanes it ran on). */
void emu_detect_undefined(emu_run *run, const emu_sg *sg, uint32_t lane, lanes_mask active,
                          uint32_t pc, uint32_t status, int64_t value);

/* Block I/O (collectives/) wrote n bytes of local memory at addr. */
void emu_detect_block_write(emu_run *run, uint64_t addr, uint32_t n);

/* exec.c: where notes and detector reports go (sgemu_set_note_stream). */
FILE *emu_note_file(void);

/* The counts for the statistics (called once the run ends). */
void emu_detect_stats(const emu_run *run, sgemu_stats *stats);

#endif
