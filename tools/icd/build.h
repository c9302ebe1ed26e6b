/* build.h - OpenCL C source to SPIR-V for clBuildProgram. */
#ifndef SGEMU_ICD_BUILD_H
#define SGEMU_ICD_BUILD_H

#include <stddef.h>
#include <stdint.h>

/* Compile `source` with clang options opts[0..nopts).  Returns 0 with the
 * module in *spv (malloc'd), 1 when it does not compile, -1 when no log
 * file could be made; *log (malloc'd, may be NULL) holds the compilers'
 * messages. */
int icd_build_spirv(const char *source, const char *const *opts, int nopts, uint8_t **spv,
                    size_t *spv_len, char **log);

#endif
