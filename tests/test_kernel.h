/* test_kernel.h - assemble a test's kernel source or fail the test with the
 * assembler's diagnostics.  Include after <cmocka.h>. */
#ifndef SGEMU_TEST_KERNEL_H
#define SGEMU_TEST_KERNEL_H

#include "isa.h"

#include <stdio.h>
#include <string.h>

static inline void test_assemble(const char *name, const char *src, isa_kernel *k)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble(name, src, strlen(src), k, &d);
    if (errs) {
        isa_diags_print(&d, stderr);
        fprintf(stderr, "%s\n", src);
    }
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
}

#endif
