/* build.h - OpenCL C source to SPIR-V for clBuildProgram. */
#ifndef SGEMU_ICD_BUILD_H
#define SGEMU_ICD_BUILD_H

#include <stddef.h>
#include <stdint.h>

/* Compile `source` with clang-14 (options opts[0..nopts)) and llvm-spirv-14.
 * Returns 0 with the module in *spv (malloc'd), 1 when the source does not
 * compile, -1 when the tools could not run; *log (malloc'd, may be NULL)
 * holds what the tools printed. */
int icd_build_spirv(const char *source, char *const *opts, int nopts, uint8_t **spv,
                    size_t *spv_len, char **log);

#endif
