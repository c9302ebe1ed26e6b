/* load_private.h - what the files of load/ share. */
#ifndef SGEMU_LOAD_PRIVATE_H
#define SGEMU_LOAD_PRIVATE_H

#include "sgemu.h"

#include <stdbool.h>
#include <stddef.h>

/* Set err to code and a formatted message; returns code. */
int load_fail(sgemu_fault *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* load/sgemu_opencl.h, compiled in (tools/embed_text.py) */
extern const char load_opencl_header[];
extern const size_t load_opencl_header_len;

/* Find prog in $PATH (its path to buf, n bytes, when buf is given). */
bool load_find_in_path(const char *prog, char *buf, size_t n);

/* Make a fresh folder $TMPDIR/PREFIX-XXXXXX (/tmp without TMPDIR), its
 * path in dir (n bytes); false (errno set) when it cannot. */
bool load_make_temp_dir(const char *prefix, char *dir, size_t n);

/* Run argv[0] (found in $PATH) and wait; its diagnostics go to the file
 * err_path when one is given, else to descriptor log_fd.  Returns its exit
 * status, or -1 when it could not be run. */
int load_run_tool(char *const argv[], const char *err_path, int log_fd);

/* The precompiled form of load/sgemu_opencl.h for a clang-14 compile with
 * the options opts[0..nopts) (everything before the input file), from the
 * cache folder (opencl_pch.c; built there on first use).  Its path goes to
 * pch (n bytes).  False when there is none to use: the caller then includes
 * the header as text. */
bool load_opencl_pch(const char *const *opts, int nopts, char *pch, size_t n);

/* Forget a precompiled header that clang-14 would not use (stale). */
void load_opencl_pch_drop(const char *pch);

#endif
