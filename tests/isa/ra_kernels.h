/*
 * ra_kernels.h - assembly kernels the allocator tests share: the demand
 * test (test_regalloc.c) and the per-instruction report (test_ra_pressure.c)
 * each derive their own figures for them in their comments.
 */
#ifndef SGEMU_TEST_RA_KERNELS_H
#define SGEMU_TEST_RA_KERNELS_H

/* Values uniform over the sub-group (from the group id, a reduction, a
 * load at a uniform address) beside per-lane ones; the last store spreads
 * uniform r5 into a per-lane payload. */
static const char uniform_values[] =
    ".kernel uni\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r1, %group_id.x\n"
    "    mul.u32 r2, r1, 3\n"
    "    ld.global.u32 r3, [%in + r0*4]\n"
    "    sub_group_reduce_add.u32 r4, r3\n"
    "    add.u32 r5, r4, r2\n"
    "    ld.global.u32 r6, [%in + r2*4]\n"
    "    add.u32 r7, r3, r6\n"
    "    add.u32 r8, r7, r5\n"
    "    st.global.u32 [%out + r0*4], r8\n"
    "    st.global.u32 [%out + r2*4], r5\n";

#endif
