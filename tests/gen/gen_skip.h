/* gen_skip.h - whether the Gen tests can run: ocloc (intel-opencl-icd) on
 * the path and libiga64.so.1 loadable; false after printing why (the test
 * then exits 77, skipped). */
#ifndef SGEMU_TESTS_GEN_SKIP_H
#define SGEMU_TESTS_GEN_SKIP_H

#include "gen/gen_iga.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static inline bool gen_tests_can_run(void)
{
    char err[256];
    if (system("command -v ocloc >/dev/null 2>&1") != 0) {
        printf("skipped: ocloc (Debian package intel-opencl-icd) is not installed\n");
        return false;
    }
    if (!gen_iga_open(err, sizeof err)) {
        printf("skipped: %s\n", err);
        return false;
    }
    return true;
}

#endif
