/* test_promote.c - private variables to registers (isa/promote.c): a
 * kernel whose private accesses all have constant addresses loses its
 * private memory, each load and store becoming element moves, and computes
 * the same bytes; a run-time index, an escaping private address or elements
 * of two sizes at one place leave the stream as it was. */
#include "isa_priv.h"
#include "sgemu.h"
#include "test_args.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static emu_config cfg;

static void assemble(const char *src, isa_kernel *k)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("t.sgasm", src, strlen(src), k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
}

enum { G = 64, L = 32 };

static void run(const isa_kernel *k, uint32_t *out)
{
    memset(out, 0, G * 4);
    sgemu_argval a[1] = { arg_buffer(out, G * 4) };
    sgemu_launch la = launch_1d(G, L, 16);
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, &cfg, &la, a, &st, &f);
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    sgemu_stats_free(&st);
}

static uint32_t count_private(const isa_kernel *k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->ninst; i++)
        n += (k->inst[i].op == ISA_OP_LD || k->inst[i].op == ISA_OP_ST) &&
             k->inst[i].space == ISA_SPACE_PRIVATE;
    return n;
}

/* A 16-byte variable at private offset 0 (its base register written once
 * by a constant move, as the SPIR-V front end emits it), written element
 * by element and read back as one u32x4: out[i] = (i+1) + i + 3i + 7. */
#define HEAD ".kernel pv\n.private_mem 16\n.arg out global u32\n" \
             "    mov.u32 r0, %global_id.x\n    mov.u64 r1, 0\n"
static const char constant_offsets[] =
    HEAD
    "    add.u32 r2, r0, 1\n"
    "    st.private.u32 [r1], r2\n"
    "    st.private.u32 [r1 + 4], r0\n"
    "    mul.u32 r3, r0, 3\n"
    "    st.private.u32 [r1 + 8], r3\n"
    "    st.private.u32 [r1 + 12], 7\n"
    "    ld.private.u32x4 r4, [r1]\n"
    "    add.u32 r8, r4, r5\n"
    "    add.u32 r8, r8, r6\n"
    "    add.u32 r8, r8, r7\n"
    "    st.global.u32 [%out + r0*4], r8\n"
    "    ret\n";

/* 14 instructions: the base move goes, the four stores stay four moves,
 * the vector load becomes four: 14 - 1 + 3 = 16, no private access. */
static void test_constant_offsets_promoted(void **state)
{
    (void)state;
    isa_kernel k, p;
    assemble(constant_offsets, &k);
    assemble(constant_offsets, &p);
    assert_int_equal(k.ninst, 14);
    assert_true(isa_promote_private(&p.inst, &p.ninst, &p.private_mem));
    assert_int_equal(p.private_mem, 0);
    assert_int_equal(p.ninst, 16);
    assert_int_equal(count_private(&p), 0);
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_validate(&p, &d), 0);
    isa_diags_free(&d);
    uint32_t want[G], got[G];
    run(&k, want);
    run(&p, got);
    for (uint32_t i = 0; i < G; i++)
        assert_int_equal(want[i], 5 * i + 8);
    assert_memory_equal(want, got, sizeof want);
    isa_kernel_free(&p);
    isa_kernel_free(&k);
}

/* Each of these keeps its private memory: a run-time index, the base
 * address stored to memory, a u64 element with a u32 read inside it. */
static const char *const kept[] = {
    HEAD "    and.u32 r2, r0, 3\n"
         "    st.private.u32 [r1 + r2:u32*4], r0\n"
         "    ld.private.u32 r3, [r1]\n"
         "    st.global.u32 [%out + r0*4], r3\n    ret\n",
    HEAD "    st.private.u32 [r1], r0\n"
         "    st.global.u64 [%out], r1\n    ret\n",
    HEAD "    cvt.u64.u32 r2, r0\n"
         "    st.private.u64 [r1], r2\n"
         "    ld.private.u32 r3, [r1 + 4]\n"
         "    st.global.u32 [%out + r0*4], r3\n    ret\n",
};

static void test_other_private_kept(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        isa_kernel k;
        assemble(kept[i], &k);
        const uint32_t n = k.ninst, priv = count_private(&k);
        isa_inst *before = malloc(n * sizeof *before);
        assert_non_null(before);
        memcpy(before, k.inst, n * sizeof *before);
        assert_true(isa_promote_private(&k.inst, &k.ninst, &k.private_mem));
        assert_int_equal(k.private_mem, 16);
        assert_int_equal(k.ninst, n);
        assert_int_equal(count_private(&k), priv);
        assert_memory_equal(before, k.inst, n * sizeof *before);
        free(before);
        isa_kernel_free(&k);
    }
}

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_offsets_promoted),
        cmocka_unit_test(test_other_private_kept),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
