/*
 * trace_file.h - recorded kernel traces (docs/trace-format.md): the record
 * stream of every work-group in dispatch order, zstd-compressed, behind a
 * header naming the kernel, NDRange, width, sgemu version and a checksum.
 * The kernel travels inside (as canonical .sgasm plus source lines), so a
 * replay needs no kernel file.
 */
#ifndef SGEMU_TRACE_FILE_H
#define SGEMU_TRACE_FILE_H

#include "record.h"
#include "sgemu.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_TRACE_MAGIC "SGEMUTRC"
#define EMU_TRACE_VERSION 2u
#define EMU_TRACE_HEADER_BYTES 512u

typedef struct emu_trace_writer emu_trace_writer;
typedef struct emu_trace_reader emu_trace_reader;

/* Start a trace of kernel k; `info` gives the header fields known up front
 * (the stats and checksum are filled in by emu_tracew_close). */
int emu_tracew_open(emu_trace_writer **w, const char *path, const isa_kernel *k,
                    const sgemu_trace_info *info, char *msg, size_t msgn);
int emu_tracew_wg(emu_trace_writer *w, const emu_wg_trace *t);
/* Finish (keep: rename into place, else remove); returns 0 or an exit code. */
int emu_tracew_close(emu_trace_writer *w, const sgemu_stats *st, bool keep,
                     char *msg, size_t msgn);

/* Open a trace: header into *info, kernel into *k (free with isa_kernel_free;
 * k may be NULL).  verify: also compute the FNV payload checksum for
 * emu_tracer_finish (zstd's content checksum and the structure checks run
 * always).  Returns 0 or SGEMU_EXIT_USER with msg set. */
int emu_tracer_open(emu_trace_reader **r, const char *path, sgemu_trace_info *info,
                    isa_kernel *k, bool verify, char *msg, size_t msgn);
/* The next work-group (must be `expect` in dispatch order), validated. */
int emu_tracer_wg(emu_trace_reader *r, uint64_t expect, emu_wg_trace *out,
                  char *msg, size_t msgn);
/* Read to the end marker and check the checksum; fills the totals in info. */
int emu_tracer_finish(emu_trace_reader *r, sgemu_trace_info *info, char *msg, size_t msgn);
void emu_tracer_close(emu_trace_reader *r);

/* launch.c: sgemu_run's loop when launch->record_path is set. */
struct emu_run;
int emu_record_run(struct emu_run *run);

#endif
