/* kernel_harness.h - what the tests that run kernels through the sgemu binary
 * share: a temporary folder for their buffers, writing and reading buffers
 * there, compiling a tests/kernels corpus file, and runs that fail the test
 * unless sgemu exits 0.  Failures are cmocka failures (link with cmocka). */
#ifndef SGEMU_TEST_KERNEL_HARNESS_H
#define SGEMU_TEST_KERNEL_HARNESS_H

#include "cli_harness.h"

#include <stdarg.h>
#include <stddef.h>

/* The folder, made by cli_tmpdir_make as /tmp/sgemu-TAG-XXXXXX. */
extern char cli_tmpdir[64];
int cli_tmpdir_make(const char *tag);   /* 0 if made */
int cli_tmpdir_remove(void);            /* 0 if removed */

/* Write / read exactly n bytes of file NAME in cli_tmpdir. */
void cli_put(const char *name, const void *p, size_t n);
void cli_get(const char *name, void *p, size_t n);

/* Compile tests/kernels/NAME.cl (OpenCL C version std) with clang-14 +
 * llvm-spirv-14 to cli_tmpdir/NAME.spv and check it with spirv-val. */
void cli_compile(const char *name, const char *std);

/* `sgemu ARGS`; the test fails (with sgemu's stderr) unless it exits 0. */
cli_result cli_run_checked(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_run_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* `sgemu ARGS` from a va_list; prints sgemu's stderr if it did not exit 0
 * (the caller asserts). */
cli_result cli_vrun_logged(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
