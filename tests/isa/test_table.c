/* test_table.c - the opcode table itself: unique mnemonics, valid shapes,
 * pipes, families, type masks and flags, name lookups that invert the table, and
 * every mnemonic documented in docs/isa.md (argv[1]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"
#include "isa_priv.h"

static const char *doc_path;

static void test_rows(void **st)
{
    (void)st;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *oi = &isa_ops[op];
        assert_non_null(oi->mnemonic);
        assert_true(strlen(oi->mnemonic) > 0);
        for (const char *c = oi->mnemonic; *c; c++)   /* no '.', it splits modifiers */
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
        assert_true((unsigned)oi->shape < ISA_SHAPE_COUNT);
        assert_true((unsigned)oi->pipe < ISA_PIPE_COUNT);
        assert_true((unsigned)oi->family < ISA_FAM_COUNT);
        assert_true((unsigned)oi->binop < ISA_BINOP_COUNT);
        assert_true((unsigned)oi->scope < ISA_SCOPE_COUNT);
        assert_int_equal(oi->types & ~(uint32_t)(ISA_TM_ALL | ISA_TM_VEC), 0);
        if (oi->types & ISA_TM_VEC)                  /* VEC alone is no type */
            assert_true(oi->types & ISA_TM_ALL);
        assert_int_equal(isa_opcode_from_name(oi->mnemonic, strlen(oi->mnemonic)), op);
        for (int o2 = op + 1; o2 < ISA_OP_COUNT; o2++)
            assert_true(strcmp(oi->mnemonic, isa_ops[o2].mnemonic) != 0);
    }
    assert_int_equal(isa_opcode_from_name("frob", 4), ISA_OP_COUNT);
    assert_int_equal(isa_opcode_from_name("add", 2), ISA_OP_COUNT);
}

/* The FLAGS column against what each flag means: cross-lane rows are the
 * collectives and block I/O, work-group synchronising rows are the work-group
 * scoped ones among those and the barrier, a pure row computes lane by lane
 * and writes a register or predicate, the elementary functions are timed on
 * the transcendental pipe, the integer multiply and add flags mark the ALU
 * rows of those families.  A row given the wrong flag fails here. */
static void test_flags(void **st)
{
    (void)st;
    unsigned xlane = 0, sync = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *oi = &isa_ops[op];
        const bool coll = oi->pipe == ISA_PIPE_COLL || oi->pipe == ISA_PIPE_BLOCK;
        assert_int_equal(oi->flags & ~(uint32_t)(ISA_OPF_XLANE | ISA_OPF_PURE | ISA_OPF_WG_SYNC |
                                                 ISA_OPF_ARITH | ISA_OPF_MATH | ISA_OPF_IMUL |
                                                 ISA_OPF_IADD), 0);
        assert_int_equal(isa_op_cross_lane((unsigned)op), coll);
        assert_int_equal(isa_op_wg_sync((unsigned)op),
                         oi->scope == ISA_SCOPE_WG && (coll || oi->pipe == ISA_PIPE_SYNC));
        if (isa_op_pure((unsigned)op)) {
            assert_false(coll);
            assert_true(oi->pipe == ISA_PIPE_ALU || oi->pipe == ISA_PIPE_TRANS ||
                        oi->pipe == ISA_PIPE_MOV || oi->pipe == ISA_PIPE_CVT);
            assert_true(oi->shape != ISA_SHAPE_NONE);
            assert_true(oi->family != ISA_FAM_DIV && oi->family != ISA_FAM_REM);  /* may fault */
        }
        if (isa_op_arith((unsigned)op))
            assert_true(oi->pipe == ISA_PIPE_ALU || oi->pipe == ISA_PIPE_TRANS);
        if (isa_op_math((unsigned)op))
            assert_true(isa_op_arith((unsigned)op) && oi->pipe == ISA_PIPE_TRANS);
        /* the integer datapath flags: exactly the lane-wise multiplies
         * (mul, mul_hi, mad) and the adds (add, sub); fma is float only */
        const bool alu = oi->pipe == ISA_PIPE_ALU;
        assert_int_equal(isa_op_imul((unsigned)op),
                         alu && (oi->family == ISA_FAM_MUL || oi->family == ISA_FAM_MUL_HI ||
                                 oi->family == ISA_FAM_MAD));
        assert_int_equal(isa_op_iadd((unsigned)op),
                         alu && (oi->family == ISA_FAM_ADD || oi->family == ISA_FAM_SUB));
        xlane += coll;
        sync += isa_op_wg_sync((unsigned)op);
    }
    assert_true(xlane > 50 && sync > 10);
    assert_true(isa_op_pure(ISA_OP_ADD) && isa_op_arith(ISA_OP_ADD));
    assert_false(isa_op_pure(ISA_OP_ST) || isa_op_pure(ISA_OP_DIV) || isa_op_pure(ISA_OP_LD));
    assert_true(isa_op_wg_sync(ISA_OP_BARRIER) && !isa_op_wg_sync(ISA_OP_SG_BARRIER));
    assert_true(isa_op_block_io(ISA_OP_BLOCK_READ) && !isa_op_block_io(ISA_OP_SG_SHUFFLE));
}

/* The shape table: a shape with value sources is a destination followed by
 * exactly that many sources, all required; no other shape claims sources. */
static void test_shapes(void **st)
{
    (void)st;
    for (int s = 0; s < ISA_SHAPE_COUNT; s++) {
        const isa_shape_pat *p = &isa_shape_pats[s];
        const unsigned n = isa_shape_sources((isa_shape)s);
        assert_true(p->min <= strlen(p->pat));
        if (!n)
            continue;
        assert_int_equal(strlen(p->pat), 1 + n);
        assert_int_equal(p->min, 1 + n);
        assert_int_equal(p->pat[0], 'd');
        for (unsigned i = 1; i <= n; i++)
            assert_int_equal(p->pat[i], 's');
    }
    assert_int_equal(isa_shape_sources(ISA_SHAPE_D_S_S_S), 3);
    assert_int_equal(isa_shape_sources(ISA_SHAPE_D_S_ID), 0);   /* broadcast ids: not lane-wise */
    assert_int_equal(isa_shape_sources(ISA_SHAPE_LD), 0);
}

static void test_types_and_specials(void **st)
{
    (void)st;
    for (int t = 0; t < ISA_T_COUNT; t++) {
        const isa_type_info *ti = &isa_types[t];
        assert_int_equal(isa_type_from_name(ti->asm_name, strlen(ti->asm_name)), t);
        assert_int_equal(isa_type_from_name(ti->cl_name, strlen(ti->cl_name)), t);
        assert_true(ti->bytes == 1 || ti->bytes == 2 || ti->bytes == 4 || ti->bytes == 8);
    }
    for (int s = 0; s < ISA_SP_COUNT; s++)
        for (int s2 = s + 1; s2 < ISA_SP_COUNT; s2++)
            assert_true(strcmp(isa_specials[s].name, isa_specials[s2].name) != 0);
}

static void test_documented(void **st)
{
    (void)st;
    assert_non_null(doc_path);
    FILE *f = fopen(doc_path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *doc = malloc((size_t)n + 1);
    assert_int_equal(fread(doc, 1, (size_t)n, f), (size_t)n);
    doc[n] = 0;
    fclose(f);
    int missing = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        char key[128];
        snprintf(key, sizeof key, "`%s`", isa_ops[op].mnemonic);   /* a table cell */
        if (!strstr(doc, key)) {
            fprintf(stderr, "not documented in docs/isa.md: %s\n", isa_ops[op].mnemonic);
            missing++;
        }
    }
    for (int s = 0; s < ISA_SP_COUNT; s++) {
        char key[128];
        snprintf(key, sizeof key, "`%%%s", isa_specials[s].name);
        if (!strstr(doc, key)) {
            fprintf(stderr, "special not documented: %%%s\n", isa_specials[s].name);
            missing++;
        }
    }
    free(doc);
    assert_int_equal(missing, 0);
}

int main(int argc, char **argv)
{
    doc_path = argc > 1 ? argv[1] : getenv("SGEMU_ISA_DOC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_types_and_specials),
        cmocka_unit_test(test_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
