/* cli_harness.h - run the sgemu binary from a test and capture its output. */
#ifndef SGEMU_TEST_CLI_HARNESS_H
#define SGEMU_TEST_CLI_HARNESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_result {
    int status;          /* exit status */
    char *out;           /* stdout, NUL-terminated */
    char *err;           /* stderr */
} cli_result;

/* Run `sgemu ARGS` (ARGS is shell text, paths relative to the source root);
 * the binary comes from $SGEMU and the source root from $SGEMU_SRC. */
cli_result cli_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_result_free(cli_result *r);
/* Parse whitespace-separated numbers of stdout into v (up to n); returns the count. */
size_t cli_numbers(const char *text, double *v, size_t n);
const char *cli_src(void);

/* xorshift64*: the next pseudo-random value of *state (test inputs; each test
 * keeps its own state so its inputs stay the same). */
static inline uint64_t cli_rand(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

#endif
