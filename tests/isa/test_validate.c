/* test_validate.c - isa_validate on kernels from "another front end":
 * each case takes an assembled kernel, breaks one field, and expects an
 * error; plus the register accounting (nreg, npred, reg_bytes, GRF). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"

static const char *src =
    ".kernel v\n.arg buf global f32\n.arg lb local i32\n.arg n i32\n.arg img image2d read_only\n"
    "    mov.u32 r0, %global_id.x\n"                /* 0 */
    "    cmp.lt.u32 p2, r0, %n\n"                   /* 1 */
    "    bra p2, end\n"                             /* 2 */
    "    ld.global.f32x4 r4, [%buf + r1:i64*16]\n"  /* 3 */
    "    add.i8 r9, r9, 1\n"                        /* 4 */
    "    mov.f64 r4, 1.0\n"                         /* 5 */
    "    st.local.i32 [r10 + 4], r2\n"              /* 6 */
    "end:\n    ret\n";                              /* 7 */

static isa_kernel load(void)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("v", src, strlen(src), &k, &d), 0);
    isa_diags_free(&d);
    return k;
}

static void test_accounting(void **st)
{
    (void)st;
    isa_kernel k = load();
    /* r0 u32:4  r1 i64 index:8  r2 i32:4  r3 unused:0  r4 f32 then f64:8
     * r5..r7 f32:4 each  r8 unused:0  r9 i8:1  r10 address:8 */
    static const uint8_t want[] = { 4, 8, 4, 0, 8, 4, 4, 4, 0, 1, 8 };
    assert_int_equal(k.nreg, 11);
    assert_int_equal(k.npred, 3);
    assert_memory_equal(k.reg_bytes, want, sizeof want);
    assert_int_equal(k.grf_bytes_per_lane, 4 + 8 + 4 + 8 + 12 + 1 + 8);
    assert_int_equal(k.inst[2].reconv, 7);
    isa_kernel_free(&k);
}

typedef void (*breaker)(isa_kernel *k);
static void b_opcode(isa_kernel *k) { k->inst[0].op = ISA_OP_COUNT; }
static void b_vec_range(isa_kernel *k) { k->inst[3].o[0].reg = ISA_MAX_REGS - 2; }
static void b_pred(isa_kernel *k) { k->inst[1].o[0].reg = ISA_MAX_PREDS; }
static void b_target(isa_kernel *k) { k->inst[2].target = k->ninst + 1; }
static void b_arg(isa_kernel *k) { k->inst[1].o[2].reg = 9; }
static void b_img_value(isa_kernel *k) { k->inst[1].o[2].reg = 3; }
static void b_kind(isa_kernel *k) { k->inst[0].o[0].kind = ISA_OPND_IMM; }
static void b_type(isa_kernel *k) { k->inst[4].op = ISA_OP_AND; k->inst[4].type = k->inst[4].src_type = ISA_T_F32; }
static void b_cond(isa_kernel *k) { k->inst[0].cond = ISA_BINOP_EQ; }
static void b_nocond(isa_kernel *k) { k->inst[1].cond = ISA_BINOP_ADD; }
static void b_index(isa_kernel *k) { k->inst[3].o[1].addr.index_type = ISA_T_I16; }
static void b_space(isa_kernel *k) { k->inst[3].space = ISA_SPACE_LOCAL; }
static void b_scalar_base(isa_kernel *k) { k->inst[3].o[1].addr.base = 2; }
static void b_vec_nomask(isa_kernel *k) { k->inst[4].vec = 4; }
static void b_nopnd(isa_kernel *k) { k->inst[4].nopnd = 2; }
static void b_imm_bits(isa_kernel *k) { k->inst[4].o[2].imm = 0x100; }
static void b_special(isa_kernel *k) { k->inst[0].o[1].dim = 3; }
static void b_srctype(isa_kernel *k) { k->inst[4].src_type = ISA_T_U8; }
static void b_rnd(isa_kernel *k) { k->inst[4].flags = ISA_RND_RTZ << ISA_F_RND_SHIFT; }
static void b_negdst(isa_kernel *k) { k->inst[1].o[0].negate = 1; }

static void test_breaks(void **st)
{
    (void)st;
    static const breaker bs[] = {
        b_opcode, b_vec_range, b_pred, b_target, b_arg, b_img_value, b_kind, b_type,
        b_cond, b_nocond, b_index, b_space, b_scalar_base, b_vec_nomask, b_nopnd,
        b_imm_bits, b_special, b_srctype, b_rnd, b_negdst,
    };
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++) {
        isa_kernel k = load();
        isa_diags d;
        memset(&d, 0, sizeof d);
        bs[i](&k);
        int e = isa_validate(&k, &d);
        if (e == 0)
            fprintf(stderr, "breaker %zu not detected\n", i);
        assert_true(e > 0);
        assert_int_equal(d.count, (uint32_t)e);
        assert_true(d.items[0].line >= 6);       /* points at the instruction */
        isa_diags_free(&d);
        isa_kernel_free(&k);
    }
}

static void test_format_inst(void **st)
{
    (void)st;
    isa_kernel k = load();
    char buf[128];
    int n = isa_format_inst(&k, &k.inst[3], buf, sizeof buf);
    assert_string_equal(buf, "ld.global.f32x4 r4, [%buf + r1:i64*16]");
    assert_int_equal(n, (int)strlen(buf));
    /* truncation is bounded and reports the full length */
    char small[8];
    assert_int_equal(isa_format_inst(&k, &k.inst[3], small, sizeof small), n);
    assert_string_equal(small, "ld.glob");
    isa_format_inst(&k, &k.inst[2], buf, sizeof buf);
    assert_string_equal(buf, "bra p2, L7");
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accounting),
        cmocka_unit_test(test_breaks),
        cmocka_unit_test(test_format_inst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
