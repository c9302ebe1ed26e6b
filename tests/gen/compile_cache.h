/* compile_cache.h - the differential test's compile cache (docs/gen.md,
 * "Differential test"): ocloc's zebins and clang's SPIR-V, refusals
 * included, kept in a folder of the build directory (meson's
 * $SGEMU_GEN_CACHE_BUILD, or $SGEMU_GEN_CACHE when set) under a hash of everything the result depends on, so that a second run
 * of the whole corpus, and the other configs of one run, compile nothing
 * twice. */
#ifndef SGEMU_TESTS_GEN_COMPILE_CACHE_H
#define SGEMU_TESTS_GEN_COMPILE_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* A compile's outcome: rc 0 with the output bytes, or the compiler's
 * non-zero code with its message. */
typedef struct cc_result {
    int rc;
    uint8_t *data;      /* malloc'd; NULL when rc != 0 */
    size_t len;
    char msg[2048];
} cc_result;

/* Hits and misses of this process (for the test's summary line). */
typedef struct cc_counts {
    uint32_t hits, misses;
} cc_counts;
extern cc_counts cc_stats;

/* The zebin of OpenCL C file `path` for ocloc -device `device` with
 * `options` at SIMD `simd` (0: IGC's choice), through gen_compile_cl. */
void cc_ocloc(const char *path, const char *device, const char *options, uint32_t simd,
              cc_result *r);

/* The SPIR-V of OpenCL C file `path` with clang options opts[0..n), through
 * sgemu_compile_opencl_c_file; `src_root` finds the recipe's sources
 * (load/opencl_c.c, load/sgemu_opencl.h), which are part of the key. */
void cc_spirv(const char *path, const char *const *opts, uint32_t n, const char *src_root,
              cc_result *r);

#endif
