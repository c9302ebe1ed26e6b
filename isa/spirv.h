/*
 * spirv.h - the SPIR-V front end: translate one kernel entry point of an
 * OpenCL SPIR-V module (Physical32/Physical64 addressing) into an
 * isa_kernel, the same form the .sgasm assembler builds.
 */
#ifndef SGEMU_SPIRV_H
#define SGEMU_SPIRV_H

#include "isa.h"

#include <stdbool.h>
#include <stddef.h>

/* Does the buffer start with the SPIR-V magic number (either byte order)? */
bool spv_is_module(const void *data, size_t len);

/* Translate entry point `entry` (NULL: the module's only kernel) of the
 * module in data[0..len) into *k, then validate it.  `file` names the module
 * in diagnostics.  Parameters without an OpName are named arg0, arg1, ...
 * and *args_unnamed (if non-NULL) is set.  Returns 0 or the number of
 * errors, all recorded in *diags. */
int spv_translate(const char *file, const void *data, size_t len, const char *entry,
                  isa_kernel *k, bool *args_unnamed, isa_diags *diags);

#endif
