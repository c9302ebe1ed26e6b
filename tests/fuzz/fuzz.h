/* fuzz.h - what every harness in tests/fuzz/ provides: the libFuzzer entry
 * point.  The same file builds into a libFuzzer binary (-Dfuzz=true, clang)
 * and into a plain replay test (replay.c supplies main) in every build. */
#ifndef SGEMU_FUZZ_H
#define SGEMU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A harness found a real bug (not a clean error): print and abort so
 * libFuzzer and the replay test both report it. */
void fuzz_fail(const char *what, const uint8_t *data, size_t size);

/* Write the input to NAME inside a private scratch directory (made once per
 * process, removed at exit) for the loaders that only read files; returns
 * its path (static storage) or NULL.  NAME may contain one '/' level. */
const char *fuzz_temp_file(const char *name, const uint8_t *data, size_t size);
/* The scratch directory itself. */
const char *fuzz_temp_dir(void);

#endif
