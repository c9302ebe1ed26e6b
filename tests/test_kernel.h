/* test_kernel.h - assemble a test's kernel source: or fail the test with the
 * assembler's diagnostics, or return the error count and the first message
 * (for tests of what the assembler refuses).  Include after <cmocka.h>. */
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

/* The assembler's error count for src; msg (cap bytes, may be NULL) gets
 * the first diagnostic's text, or "" when there is none. */
static inline int test_assemble_diag(const char *name, const char *src, isa_kernel *k,
                                     char *msg, size_t cap)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble(name, src, strlen(src), k, &d);
    if (msg && cap)
        snprintf(msg, cap, "%s", errs && d.count ? d.items[0].msg : "");
    isa_diags_free(&d);
    return errs;
}

#endif
