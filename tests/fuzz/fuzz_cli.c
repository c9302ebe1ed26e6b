/* fuzz_cli.c - tools/sgemu.c's cli_error for the harnesses that link
 * tools/ sources: silent (the harnesses check that errors are clean, not
 * their wording) unless FUZZ_VERBOSE is set. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int cli_error(const char *fmt, ...)
{
    if (getenv("FUZZ_VERBOSE")) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    return SGEMU_EXIT_USER;
}
