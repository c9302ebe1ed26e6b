/* test_asm.c - the .sgasm assembler: directives, shapes, operand forms,
 * immediates (bit-exact, expected bits written out by hand), vectors,
 * specials, diagnostics with positions, and garbage input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"

static isa_kernel K;
static isa_diags D;

static int as(const char *src)
{
    isa_kernel_free(&K);
    isa_diags_free(&D);
    memset(&D, 0, sizeof D);
    return isa_assemble("t.sgasm", src, strlen(src), &K, &D);
}

/* Assemble one instruction line inside a kernel with a few arguments. */
static const isa_inst *one(const char *line)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             ".kernel k\n.arg buf global f32\n.arg lbuf local i32\n.arg cbuf constant u8\n"
             ".arg n i32\n.arg img image2d read_only\n%s\n", line);
    int e = as(buf);
    if (e) {
        isa_diags_print(&D, stderr);
        fprintf(stderr, "while assembling: %s\n", line);
    }
    assert_int_equal(e, 0);
    assert_int_equal(K.ninst, 1);
    return &K.inst[0];
}

/* Expect failure; return the first diagnostic. */
static const isa_diag *bad(const char *line)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, ".kernel k\n.arg buf global f32\n.arg n i32\n%s\n", line);
    int e = as(buf);
    if (e == 0)
        fprintf(stderr, "unexpectedly assembled: %s\n", line);
    assert_true(e > 0);
    assert_true(D.count > 0);
    assert_null(K.inst);
    return &D.items[0];
}

static void teardown_all(void)
{
    isa_kernel_free(&K);
    isa_diags_free(&D);
}

/* ------------------------------------------------------------ directives */

static void test_directives(void **st)
{
    (void)st;
    const char *src =
        "; leading comment\n"
        ".kernel my_kernel // trailing comment\n"
        ".arg a global f32\n"
        ".arg b constant int\n"
        ".arg c local u16\n"
        ".arg d double\n"
        ".arg e image2d\n"
        ".arg f image2d write_only\n"
        ".arg g image2d read_write\n"
        ".arg h image2d read_only\n"
        ".arg i uchar\n"
        ".reqd_sub_group_size 16\n"
        ".local_mem 1024\n"
        ".private_mem 0x40\n"
        "ret\n";
    assert_int_equal(as(src), 0);
    assert_string_equal(K.name, "my_kernel");
    assert_int_equal(K.narg, 9);
    assert_string_equal(K.args[0].name, "a");
    assert_int_equal(K.args[0].kind, ISA_ARG_GLOBAL);
    assert_int_equal(K.args[0].type, ISA_T_F32);
    assert_int_equal(K.args[1].kind, ISA_ARG_CONSTANT);
    assert_int_equal(K.args[1].type, ISA_T_I32);
    assert_int_equal(K.args[2].kind, ISA_ARG_LOCAL);
    assert_int_equal(K.args[2].type, ISA_T_U16);
    assert_int_equal(K.args[3].kind, ISA_ARG_SCALAR);
    assert_int_equal(K.args[3].type, ISA_T_F64);
    assert_int_equal(K.args[4].kind, ISA_ARG_IMAGE2D);
    assert_int_equal(K.args[4].access, 1);      /* read_only by default */
    assert_int_equal(K.args[5].access, 2);
    assert_int_equal(K.args[6].access, 0);
    assert_int_equal(K.args[7].access, 1);
    assert_int_equal(K.args[8].type, ISA_T_U8);
    assert_int_equal(K.args[3].line, 6);
    assert_int_equal(K.reqd_sg_size, 16);
    assert_int_equal(K.local_mem, 1024);
    assert_int_equal(K.private_mem, 64);
    assert_int_equal(K.ninst, 1);
    assert_int_equal(K.inst[0].op, ISA_OP_RET);
    assert_int_equal(K.inst[0].line, 15);
    assert_int_equal(K.inst[0].col, 1);
}

static void test_directive_errors(void **st)
{
    (void)st;
    assert_int_equal(as(".kernel a\n.kernel b\n"), 1);
    assert_int_equal(D.items[0].line, 2);
    assert_true(as(".kernel a\n.reqd_sub_group_size 65\n") == 1);
    assert_int_equal(D.items[0].col, 22);
    assert_true(as(".kernel a\n.arg x global q32\n") == 1);
    assert_int_equal(D.items[0].col, 15);
    assert_true(as(".kernel a\n.arg x f32\n.arg x f32\n") == 1);
    assert_true(strstr(D.items[0].msg, "duplicate argument") != NULL);
    assert_true(as(".kernel a\n.arg global_id i32\n") == 1);
    assert_true(as(".kernel a\n.frob 3\n") == 1);
    assert_true(strstr(D.items[0].msg, "unknown directive") != NULL);
    assert_true(as(".kernel a\n.local_mem 99999999999999999999\n") == 1);
    assert_true(as(".kernel a\n.arg e image2d sideways\n") == 1);
    assert_true(as(".kernel a extra\n") == 1);
    /* missing .kernel */
    assert_int_equal(as("ret\n"), 1);
    assert_int_equal(D.items[0].line, 1);
    assert_int_equal(D.items[0].col, 1);
    assert_true(strstr(D.items[0].msg, ".kernel") != NULL);
    assert_int_equal(as(""), 1);
}

/* ---------------------------------------------------------------- shapes */

static void test_shapes(void **st)
{
    (void)st;
    const isa_inst *in;
    in = one("nop");
    assert_int_equal(in->op, ISA_OP_NOP);
    assert_int_equal(in->nopnd, 0);
    assert_int_equal(in->type, ISA_T_NONE);

    in = one("sub_group_elect.i32 r3");                       /* D */
    assert_int_equal(in->nopnd, 1);
    assert_int_equal(in->o[0].kind, ISA_OPND_REG);
    assert_int_equal(in->o[0].reg, 3);

    in = one("neg.f32 r1, r2");                              /* D_S */
    assert_int_equal(in->op, ISA_OP_NEG);
    assert_int_equal(in->o[1].kind, ISA_OPND_REG);
    assert_int_equal(in->o[1].reg, 2);

    in = one("add.i32 r1, r2, 7");                           /* D_S_S */
    assert_int_equal(in->nopnd, 3);
    assert_int_equal(in->o[2].kind, ISA_OPND_IMM);
    assert_int_equal(in->o[2].imm, 7);

    in = one("mad.u16 r1, r2, r3, r4");                      /* D_S_S_S */
    assert_int_equal(in->nopnd, 4);
    assert_int_equal(in->o[3].reg, 4);

    in = one("work_group_broadcast.f32 r1, r2, 3");          /* D_S_ID, 1 id */
    assert_int_equal(in->nopnd, 3);
    assert_int_equal(in->o[2].imm, 3);
    in = one("work_group_broadcast.f32 r1, r2, 3, r4, 5");   /* 3 ids */
    assert_int_equal(in->nopnd, 5);
    assert_int_equal(in->o[3].kind, ISA_OPND_REG);
    assert_int_equal(in->o[4].imm, 5);

    in = one("cmp.ge.f64 p5, r2, 0.5");                      /* P_S_S */
    assert_int_equal(in->cond, ISA_BINOP_GE);
    assert_int_equal(in->o[0].kind, ISA_OPND_PRED);
    assert_int_equal(in->o[0].reg, 5);
    assert_int_equal(in->o[2].imm, 0x3fe0000000000000ull);

    in = one("sel.i64 r1, !p63, r2, -1");                    /* D_P_S_S */
    assert_int_equal(in->o[1].kind, ISA_OPND_PRED);
    assert_int_equal(in->o[1].negate, 1);
    assert_int_equal(in->o[1].reg, 63);
    assert_int_equal(in->o[3].imm, UINT64_MAX);

    in = one("pand p1, !p2, p3");                            /* P_P_P */
    assert_int_equal(in->o[1].negate, 1);
    assert_int_equal(in->o[2].negate, 0);
    assert_int_equal(in->o[2].reg, 3);

    in = one("pnot p1, p2");                                 /* P_P */
    assert_int_equal(in->nopnd, 2);

    in = one("ld.global.f32 r1, [%buf]");                    /* LD */
    assert_int_equal(in->space, ISA_SPACE_GLOBAL);
    assert_int_equal(in->o[1].kind, ISA_OPND_ADDR);
    assert_int_equal(in->o[1].addr.base_kind, ISA_OPND_ARG);
    assert_int_equal(in->o[1].addr.base, 0);

    in = one("st.local.i32 [%lbuf + 4], r9");                /* ST */
    assert_int_equal(in->space, ISA_SPACE_LOCAL);
    assert_int_equal(in->o[0].addr.disp, 4);
    assert_int_equal(in->o[1].reg, 9);

    in = one("atom_add.global.u32 r1, [r2], 1");             /* ATOM */
    assert_int_equal(in->o[1].addr.base_kind, ISA_OPND_REG);
    assert_int_equal(in->o[2].imm, 1);

    in = one("atom_cmpxchg.local.i32 r1, [%lbuf], r2, r3");  /* ATOM2 */
    assert_int_equal(in->nopnd, 4);

    in = one("ld.constant.u8 r1, [%cbuf]");
    assert_int_equal(in->space, ISA_SPACE_CONSTANT);
    in = one("ld.private.f32 r1, [r2 + 8]");
    assert_int_equal(in->space, ISA_SPACE_PRIVATE);
    /* atomic loads and stores: a flag, nothing else changes */
    in = one("ld.global.atomic.i32 r1, [r2]");
    assert_int_equal(in->op, ISA_OP_LD);
    assert_int_equal(in->flags, ISA_F_ATOMIC);
    in = one("st.local.i32.atomic [r2], r1");
    assert_int_equal(in->op, ISA_OP_ST);
    assert_int_equal(in->flags, ISA_F_ATOMIC);
    /* memory order and scope: atomics and fences (a nop) */
    in = one("st.global.i32.atomic.release.wgscope [r2], r1");
    assert_int_equal(in->flags, ISA_F_ATOMIC | ISA_F_RELEASE | ISA_F_SCOPE_WG);
    in = one("atom_add.local.u32.acquire.release.sgscope r0, [r2], 1");
    assert_int_equal(in->flags, ISA_F_ACQUIRE | ISA_F_RELEASE | ISA_F_SCOPE_SG);
    in = one("nop.global.acquire");
    assert_int_equal(in->op, ISA_OP_NOP);
    assert_int_equal(in->flags, ISA_F_FENCE_GLOBAL | ISA_F_ACQUIRE);
}

static void test_branches_and_labels(void **st)
{
    (void)st;
    const char *src =
        ".kernel k\n"
        "top: cmp.lt.i32 p0, r0, 10\n"   /* 0 */
        "  bra.uni p0, skip\n"           /* 1 */
        "  bra top\n"                    /* 2 */
        "skip:\n"
        "  bra !p1, end\n"               /* 3 */
        "  nop\n"                        /* 4 */
        "end:\n";
    assert_int_equal(as(src), 0);
    assert_int_equal(K.ninst, 5);
    assert_int_equal(K.inst[1].target, 3);
    assert_int_equal(K.inst[1].flags & ISA_F_UNIFORM, ISA_F_UNIFORM);
    assert_int_equal(K.inst[1].nopnd, 2);
    assert_int_equal(K.inst[1].o[1].kind, ISA_OPND_LABEL);
    assert_int_equal(K.inst[2].nopnd, 1);
    assert_int_equal(K.inst[2].target, 0);
    assert_int_equal(K.inst[3].target, 5);          /* label at the end */
    assert_int_equal(K.inst[3].o[0].negate, 1);
    /* reconvergence: 1 -> {3, 2}; 2 -> 0 -> 1 ...; all paths reach 3 */
    assert_int_equal(K.inst[1].reconv, 3);
    /* 3 -> {end(exit), 4 -> exit}: meet only at exit */
    assert_int_equal(K.inst[3].reconv, ISA_PC_EXIT);
    assert_int_equal(K.npred, 2);
}

/* ---------------------------------------------------------- operand forms */

static void test_operand_forms(void **st)
{
    (void)st;
    const isa_inst *in;
    in = one("add.i32 r1, %n, %global_id.y");
    assert_int_equal(in->o[1].kind, ISA_OPND_ARG);
    assert_int_equal(in->o[1].reg, 3);
    assert_int_equal(in->o[2].kind, ISA_OPND_SPECIAL);
    assert_int_equal(in->o[2].reg, ISA_SP_GLOBAL_ID);
    assert_int_equal(in->o[2].dim, 1);
    in = one("mov.u32 r1, %local_size.2");
    assert_int_equal(in->o[1].reg, ISA_SP_LOCAL_SIZE);
    assert_int_equal(in->o[1].dim, 2);
    in = one("mov.u32 r1, %sub_group_local_id");
    assert_int_equal(in->o[1].reg, ISA_SP_SUB_GROUP_LOCAL_ID);
    assert_int_equal(in->o[1].dim, 0);
    in = one("mov.u64 r1, %buf");                 /* pointer arg as a value */
    assert_int_equal(in->o[1].kind, ISA_OPND_ARG);

    /* addresses */
    in = one("ld.global.f32 r1, [r2]");
    assert_int_equal(in->o[1].addr.base_kind, ISA_OPND_REG);
    assert_int_equal(in->o[1].addr.base, 2);
    assert_int_equal(in->o[1].addr.has_index, 0);
    assert_int_equal(in->o[1].addr.disp, 0);
    in = one("ld.global.f32 r1, [ r2 - 0x10 ]");
    assert_int_equal(in->o[1].addr.disp, -16);
    in = one("ld.global.f32 r1, [%buf + r3]");
    assert_int_equal(in->o[1].addr.has_index, 1);
    assert_int_equal(in->o[1].addr.index, 3);
    assert_int_equal(in->o[1].addr.scale, 1);
    assert_int_equal(in->o[1].addr.index_type, ISA_T_I32);
    in = one("ld.global.f32 r1, [%buf + r3*4]");
    assert_int_equal(in->o[1].addr.scale, 4);
    in = one("ld.global.f32 r1, [%buf + r3:u64*4 + 12]");
    assert_int_equal(in->o[1].addr.index_type, ISA_T_U64);
    assert_int_equal(in->o[1].addr.scale, 4);
    assert_int_equal(in->o[1].addr.disp, 12);
    in = one("ld.global.f32 r1, [r5+r6:u32*8-9223372036854775808]");
    assert_int_equal(in->o[1].addr.index_type, ISA_T_U32);
    assert_true(in->o[1].addr.disp == INT64_MIN);
    in = one("ld.global.f32 r1, [r5 + r6:i64]");
    assert_int_equal(in->o[1].addr.index_type, ISA_T_I64);
}

/* ---------------------------------------------------------- immediates */

typedef struct imm_case {
    const char *type, *lit;
    uint64_t bits;
} imm_case;

static void test_immediates(void **st)
{
    (void)st;
    static const imm_case cases[] = {
        { "i8", "-128", 0x80 }, { "i8", "127", 0x7f }, { "u8", "255", 0xff },
        { "u8", "-1", 0xff }, { "i16", "-1", 0xffff }, { "u16", "0xBEEF", 0xbeef },
        { "i32", "-3", 0xfffffffd }, { "u32", "0xffffffff", 0xffffffff },
        { "i32", "-2147483648", 0x80000000 }, { "i32", "+5", 5 },
        { "i64", "-9223372036854775808", 0x8000000000000000ull },
        { "u64", "18446744073709551615", 0xffffffffffffffffull },
        { "i64", "-0x10", 0xfffffffffffffff0ull },
        { "f32", "1.5", 0x3fc00000 }, { "f32", "-0.0", 0x80000000 },
        { "f32", "1", 0x3f800000 }, { "f32", "0x10", 0x41800000 },
        { "f32", "inf", 0x7f800000 }, { "f32", "-inf", 0xff800000 },
        { "f32", "nan", 0x7fc00000 }, { "f32", "1e-3", 0x3a83126f },
        { "f32", "0f7fc00001", 0x7fc00001 }, { "f32", "3.4028235e38", 0x7f7fffff },
        { "f64", "0.1", 0x3fb999999999999aull }, { "f64", "-2", 0xc000000000000000ull },
        { "f64", "0d7ff0000000000001", 0x7ff0000000000001ull },
        { "f16", "1.0", 0x3c00 }, { "f16", "-2", 0xc000 }, { "f16", "65504", 0x7bff },
        { "f16", "65519.99", 0x7bff }, { "f16", "65520", 0x7c00 }, { "f16", "0.1", 0x2e66 },
        { "f16", "5.9604644775390625e-8", 0x0001 },      /* smallest subnormal */
        { "f16", "2.98023223876953125e-8", 0x0000 },     /* half of it: tie to even */
        { "f16", "2.99e-8", 0x0001 },                    /* just above the tie */
        { "f16", "6.103515625e-05", 0x0400 },            /* smallest normal */
        { "f16", "1.00048828125", 0x3c00 },              /* 1 + 2^-11: tie to even */
        { "f16", "1.00146484375", 0x3c02 },              /* 1 + 3*2^-11: tie up */
        { "f16", "-inf", 0xfc00 }, { "f16", "0h7e01", 0x7e01 }, { "f16", "-0", 0x8000 },
        { "f16", "1e-30", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[128];
        snprintf(line, sizeof line, "mov.%s r0, %s", cases[i].type, cases[i].lit);
        const isa_inst *in = one(line);
        if (in->o[1].imm != cases[i].bits)
            fprintf(stderr, "%s: got 0x%llx want 0x%llx\n", line,
                    (unsigned long long)in->o[1].imm, (unsigned long long)cases[i].bits);
        assert_int_equal(in->o[1].kind, ISA_OPND_IMM);
        assert_true(in->o[1].imm == cases[i].bits);
    }
    /* operand types other than the instruction type */
    const isa_inst *in = one("sub_group_shuffle.f32 r1, r2, 3");
    assert_int_equal(in->o[2].imm, 3);                 /* u32 index, not 3.0f */
    in = one("sub_group_broadcast.f16 r1, 0.5, 7");
    assert_int_equal(in->o[1].imm, 0x3800);
    assert_int_equal(in->o[2].imm, 7);
    in = one("cvt.f32.i8 r1, -1");
    assert_int_equal(in->type, ISA_T_F32);
    assert_int_equal(in->src_type, ISA_T_I8);
    assert_int_equal(in->o[1].imm, 0xff);
    in = one("sub_group_clustered_reduce_add.f32 r1, r2, 4");
    assert_int_equal(in->o[2].imm, 4);
    in = one("intel_sub_group_shuffle_down.f64 r1, r2, 1.0, 5");
    assert_int_equal(in->o[2].imm, 0x3ff0000000000000ull);
    assert_int_equal(in->o[3].imm, 5);
    in = one("shl.u8 r1, r2, 7");
    assert_int_equal(in->o[2].imm, 7);

    const char *errs[] = {
        "mov.i8 r0, 256", "mov.i8 r0, -129", "mov.u16 r0, 65536", "mov.i32 r0, 1.5",
        "mov.i32 r0, 1e3", "mov.u64 r0, 18446744073709551616", "mov.i32 r0, 0f3f800000",
        "mov.f32 r0, 0d3ff0000000000000", "mov.f32 r0, 0f3f80", "mov.f32 r0, 1.5x",
        "mov.i32 r0, 99999999999999999999999999999999999999", "mov.i32 r0, nan",
        "sub_group_shuffle.f32 r1, r2, 1.5", "mov.i32 r0, 12abc", "mov.i32 r0, -",
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        const isa_diag *dg = bad(errs[i]);
        assert_int_equal(dg->line, 4);
        assert_true(dg->col > 10);
    }
}

static void test_vectors_and_modifiers(void **st)
{
    (void)st;
    const isa_inst *in = one("mov.f32x4 r8, r12");
    assert_int_equal(in->vec, 4);
    assert_int_equal(in->type, ISA_T_F32);
    in = one("ld.global.u16x16 r16, [%buf + r0*32]");
    assert_int_equal(in->vec, 16);
    in = one("sub_group_ballot.u32x4 r4, r1");
    assert_int_equal(in->vec, 4);
    in = one("intel_sub_group_shuffle.i32x8 r8, r0, 2");
    assert_int_equal(in->vec, 8);
    in = one("mov.f32x3 r0, 1.0");                  /* splat immediate */
    assert_int_equal(in->o[1].imm, 0x3f800000);
    in = one("mov.u8x2 r4094, r0");
    assert_int_equal(in->vec, 2);

    in = one("cvt.rtp.sat.i32.f64 r1, r2");       /* modifiers in any order */
    assert_int_equal(in->type, ISA_T_I32);
    assert_int_equal(in->src_type, ISA_T_F64);
    assert_int_equal(in->flags & ISA_F_SAT, ISA_F_SAT);
    assert_int_equal((in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT, ISA_RND_RTP);
    in = one("add.rte.f32 r1, r2, r3");
    assert_int_equal((in->flags & ISA_F_RND_MASK) >> ISA_F_RND_SHIFT, ISA_RND_RTE);
    in = one("cmp.f32.ne p0, r1, r2");
    assert_int_equal(in->cond, ISA_BINOP_NE);
    assert_int_equal(in->src_type, ISA_T_F32);
    in = one("barrier.local.global");
    assert_int_equal(in->flags, ISA_F_FENCE_LOCAL | ISA_F_FENCE_GLOBAL);
    in = one("sub_group_barrier.global");
    assert_int_equal(in->flags, ISA_F_FENCE_GLOBAL);
    in = one("barrier");
    assert_int_equal(in->flags, 0);
    in = one("mov.float r1, r2");                   /* OpenCL spelling */
    assert_int_equal(in->type, ISA_T_F32);
    in = one("i32_fake_label_free: mov.ulong r1, r2");
    assert_int_equal(in->type, ISA_T_U64);

    const char *errs[] = {
        "mov.f32x5 r0, r1", "add.f32x4 r0, r1, r2", "mov.f32x4 r4093, r0",
        "mov.f32.frob r0, r1", "mov r0, r1", "and.f16 r0, r1, r2", "mov.f32.i32 r0, r1",
        "cvt.f32 r0, r1", "cmp.i32 p0, r0, r1", "cmp.eq.lt.i32 p0, r0, r1",
        "ld.f32 r0, [r1]", "ld.global.local.f32 r0, [r1]", "add.i32.global r0, r1, r2",
        "add.rtz.i32 r0, r1, r2", "add.sat.f32 r0, r1, r2", "bra.uni.uni L",
        "barrier.local.local", "nop.i32", "add.eq.i32 r0, r1, r2", "st.constant.f32 [r0], r1",
        "atom_add.private.i32 r0, [r1], 1", "mov.i32. r0, r1", "ld.local.f32 r0, [%buf]",
        "mov.f32x4.f32 r0, r1", "cvt.f32x2.i32 r0, r1", "add.atomic.i32 r0, r1, r2",
        "ld.global.atomic.atomic.i32 r0, [r1]", "ld.global.acquire.i32 r0, [r1]",
        "add.release.i32 r0, r1, r2", "barrier.wgscope",
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        const isa_diag *dg = bad(errs[i]);
        assert_int_equal(dg->line, 4);
    }
    /* the message names the type and the mnemonic */
    const isa_diag *dg = bad("and.f16 r0, r1, r2");
    assert_string_equal(dg->msg, "type f16 is not allowed for 'and'");
    assert_int_equal(dg->col, 5);
}

/* cl_ext_float_atomics: add, sub, min and max take f16/f32/f64; the
 * bitwise and compare-exchange atomics stay integer-only. */
static void test_float_atomics(void **st)
{
    (void)st;
    static const struct { const char *line; isa_opcode op; isa_type t; } ok[] = {
        { "atom_add.global.f32 r0, [%buf], 1.5", ISA_OP_ATOM_ADD, ISA_T_F32 },
        { "atom_sub.local.f32 r0, [%lbuf + 4], r1", ISA_OP_ATOM_SUB, ISA_T_F32 },
        { "atom_min.global.f64 r0, [%buf], -0.0", ISA_OP_ATOM_MIN, ISA_T_F64 },
        { "atom_max.global.f16 r0, [%buf], r2", ISA_OP_ATOM_MAX, ISA_T_F16 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const isa_inst *in = one(ok[i].line);
        assert_int_equal(in->op, ok[i].op);
        assert_int_equal(in->type, ok[i].t);
    }
    static const struct { const char *line, *msg; } errs[] = {
        { "atom_and.global.f32 r0, [%buf], r1", "type f32 is not allowed for 'atom_and'" },
        { "atom_xor.global.f64 r0, [%buf], r1", "type f64 is not allowed for 'atom_xor'" },
        { "atom_cmpxchg.global.f32 r0, [%buf], r1, r2",
          "type f32 is not allowed for 'atom_cmpxchg'" },
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        assert_string_equal(bad(errs[i].line)->msg, errs[i].msg);
}

static void test_operand_errors(void **st)
{
    (void)st;
    const char *errs[] = {
        "add.i32 r0, r1", "add.i32 r0, r1, r2, r3", "add.i32 r0, , r2", "add.i32 r4096, r0, r1",
        "add.i32 r0, p1, r1", "add.i32 r0, %nothere, 1", "add.i32 r0, %global_id, 1",
        "add.i32 r0, %work_dim.x, 1", "add.i32 r0, %global_id.w, 1", "add.i32 p0, r1, r2",
        "cmp.eq.i32 !p0, r1, r2", "pand p64, p1, p2", "ld.global.f32 r0, r1",
        "ld.global.f32 r0, [r1 * 4]", "ld.global.f32 r0, [%n]", "ld.global.f32 r0, [r1 + 1 + 2]",
        "ld.global.f32 r0, [r1 + r2:i16]", "ld.global.f32 r0, [r1 + r2*q]", "ld.global.f32 r0, [r1",
        "bra 3", "bra p0, p1", "bra p0, L, M", "add.i32 r0, %n.x, 1", "sel.f32 r0, r1, r2, r3",
        "mov.i32 r0, q", "work_group_broadcast.i32 r0, r1", "add.i32 r0 r1 r2", "ret r0",
        "add.i32 r99999999999999999999999, r1, r2",
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        const isa_diag *dg = bad(errs[i]);
        assert_int_equal(dg->line, 4);
    }
}

/* Several errors in one file: all reported, each at its token. */
static void test_error_positions(void **st)
{
    (void)st;
    const char *src =
        ".kernel bad\n"                  /* 1 */
        "    frob.i32 r0, r1\n"          /* 2: col 5 unknown instruction */
        "    and.f16 r0, r1, r2\n"       /* 3: col 9 bad type */
        "    bra nowhere\n"              /* 4: col 9 undefined label */
        "x:  add.i32 r4096, r0, 1\n"     /* 5: col 13 bad register */
        "    add.i32 r0, r1\n"           /* 6: col 5 operand count */
        "x:  nop\n"                      /* 7: col 1 duplicate label */
        "    mov.i32 r0, 1.5 ; c\n";     /* 8: col 17 float for int */
    int e = as(src);
    assert_int_equal(e, 7);
    assert_int_equal(D.count, 7);
    static const struct { uint32_t line, col; const char *frag; } want[] = {
        { 2, 5, "unknown instruction 'frob'" },
        { 3, 9, "type f16 is not allowed for 'and'" },
        { 4, 9, "undefined label 'nowhere'" },
        { 5, 13, "out of range" },
        { 6, 5, "takes 3 operands, got 2" },
        { 7, 1, "duplicate label 'x'" },
        { 8, 17, "float literal" },
    };
    /* isa_diags_print sorts; check the sorted text */
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    isa_diags_print(&D, f);
    fclose(f);
    const char *p = buf;
    for (size_t i = 0; i < 7; i++) {
        char head[64];
        snprintf(head, sizeof head, "t.sgasm:%u:%u: error: ", want[i].line, want[i].col);
        const char *nl = strchr(p, '\n');
        assert_non_null(nl);
        if (strncmp(p, head, strlen(head)) != 0 || !strstr(p, want[i].frag) ||
            strstr(p, want[i].frag) > nl)
            fprintf(stderr, "want %s...%s\ngot  %.*s\n", head, want[i].frag, (int)(nl - p), p);
        assert_memory_equal(p, head, strlen(head));
        assert_true(strstr(p, want[i].frag) != NULL && strstr(p, want[i].frag) < nl);
        p = nl + 1;
    }
    assert_int_equal(*p, 0);
    free(buf);
    assert_null(K.inst);
    assert_int_equal(K.ninst, 0);
}

/* ---------------------------------------------------------- robustness */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static const char *good_src =
    ".kernel k\n.arg out global f32\n.arg n i32\n"
    "    mov.u32 r0, %global_id.x\n    cmp.lt.u32 p0, r0, %n\n    bra !p0, done\n"
    "    cvt.f32.u32 r1, r0\n    mul.f32 r1, r1, 0.5\n"
    "    st.global.f32 [%out + r0*4], r1\n"
    "    ld.global.f32x2 r2, [%out + r0:u32*8 - 16]\n"
    "    sub_group_reduce_add.f32 r4, r1\ndone:\n    ret\n";

static void test_garbage(void **st)
{
    (void)st;
    assert_int_equal(as(good_src), 0);
    char buf[4096];
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = rnd() % sizeof buf;
        if (iter < 1000) {
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)rnd();
        } else {
            /* mutate the good kernel: flips, inserted punctuation, cut */
            size_t gl = strlen(good_src);
            memcpy(buf, good_src, gl);
            n = gl;
            for (int m = 0, nm = 1 + (int)(rnd() % 4); m < nm; m++) {
                size_t at = rnd() % n;
                static const char pool[] = "[]+-*:,.%!;/r0p9x \n\0\xff";
                buf[at] = (rnd() & 1) ? pool[rnd() % (sizeof pool - 1)] : (char)rnd();
            }
            if (rnd() % 4 == 0)
                n = rnd() % n;
        }
        isa_kernel k;
        isa_diags d;
        memset(&d, 0, sizeof d);
        int e = isa_assemble("g", buf, n, &k, &d);
        if (e == 0) {
            char *s = isa_disassemble(&k);
            assert_non_null(s);
            free(s);
        } else {
            assert_null(k.inst);
            assert_true(d.count > 0);
        }
        FILE *dn = fopen("/dev/null", "w");
        isa_diags_print(&d, dn);
        fclose(dn);
        isa_kernel_free(&k);
        isa_diags_free(&d);
    }
    /* one very long line, huge numbers, NULs, NULL diags */
    size_t big = 1u << 20;
    char *s = malloc(big + 64);
    assert_non_null(s);
    strcpy(s, ".kernel k\nadd.i32 r0, r0, ");
    size_t l = strlen(s);
    memset(s + l, '9', big);
    assert_true(as(s) > 0);
    memset(s + l, 'a', big);
    s[l + big] = 0;
    assert_true(as(s) > 0);
    memset(s, 0, 100);
    isa_kernel k;
    assert_true(isa_assemble("z", s, 100, &k, NULL) > 0);
    assert_true(isa_assemble("z", NULL, 0, &k, NULL) > 0);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directives),
        cmocka_unit_test(test_directive_errors),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_branches_and_labels),
        cmocka_unit_test(test_operand_forms),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_vectors_and_modifiers),
        cmocka_unit_test(test_operand_errors),
        cmocka_unit_test(test_float_atomics),
        cmocka_unit_test(test_error_positions),
        cmocka_unit_test(test_garbage),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    teardown_all();
    return r;
}
