/* test_global_data.c - program-scope global data in the program form:
 * .global_data, .data_reloc and .global_var through the assembler, the
 * disassembler round trip, the validator, their error positions, and the
 * engine's binding (a fresh copy of the bytes per launch, relocations
 * written as block address + addend, the caller's buffer seeing the final
 * bytes). */
#include "isa.h"
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

/* Work-item i adds 1 to the u32 at offset 0 of the block (atomically),
 * stores the u64 at offset 8 (a pointer to the block's byte 4) to out[2i]
 * and the u32 that the pointer at offset 16 (constant block + 4) points to
 * to out[2i+1]; work-item 0 also writes 77 through the first pointer. */
static const char src[] =
    ".kernel g\n"
    ".arg out global u64\n"
    ".const_data ctab 0a000000 14000000\n"
    ".global_data gd 05000000 2a000000\n"
    ".global_data gd 00000000 00000000 00000000 00000000\n"
    ".data_reloc gd 8 gd 4\n"
    ".data_reloc gd 16 ctab 4\n"
    ".global_var count 0 4 i32\n"
    ".global_var answer 4 4 i32\n"
    ".global_var p 8 8 u64\n"
    ".global_var k.cp 16 8 u64\n"
    "    mov.u64 r0, %global_id.x\n"
    "    atom_add.global.u32 r1, [%gd], 1\n"
    "    ld.global.u64 r2, [%gd + 8]\n"
    "    st.global.u64 [%out + r0:i64*16], r2\n"
    "    ld.global.u64 r3, [%gd + 16]\n"
    "    ld.constant.u32 r4, [r3]\n"
    "    cvt.u64.u32 r5, r4\n"
    "    st.global.u64 [%out + r0:i64*16 + 8], r5\n"
    "    cmp.eq.u64 p0, r0, 0\n"
    "    bra !p0, done\n"
    "    st.global.u32 [r2], 77\n"
    "done:\n"
    "    ret\n";

static int assemble(const char *text, isa_kernel *k, isa_diag *first)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("t.sgasm", text, strlen(text), k, &d);
    if (first) {
        memset(first, 0, sizeof *first);
        if (d.count)
            *first = d.items[0];
    }
    isa_diags_free(&d);
    return errs;
}

static void test_assemble(void **state)
{
    (void)state;
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL), 0);
    assert_int_equal(k.narg, 3);
    assert_int_equal(k.const_arg, 2);
    assert_int_equal(k.global_arg, 3);
    assert_string_equal(k.args[2].name, "gd");
    assert_int_equal(k.args[2].kind, ISA_ARG_GLOBAL);
    assert_int_equal(k.args[2].type, ISA_T_U8);
    static const uint8_t want[24] = { 5, 0, 0, 0, 42 };
    assert_int_equal(k.global_bytes, sizeof want);
    assert_memory_equal(k.global_data, want, sizeof want);
    assert_int_equal(k.nreloc, 2);
    assert_int_equal(k.relocs[0].arg, 2);
    assert_int_equal(k.relocs[0].offset, 8);
    assert_int_equal(k.relocs[0].target, 2);
    assert_int_equal(k.relocs[0].addend, 4);
    assert_int_equal(k.relocs[1].target, 1);
    assert_int_equal(k.ngvar, 4);
    assert_string_equal(k.gvars[3].name, "k.cp");
    assert_int_equal(k.gvars[1].offset, 4);
    assert_int_equal(k.gvars[1].bytes, 4);
    assert_int_equal(k.gvars[1].type, ISA_T_I32);
    isa_kernel_free(&k);
    assert_null(k.global_data);
    assert_null(k.relocs);
    assert_null(k.gvars);
    assert_int_equal(k.global_arg, 0);
}

static void test_round_trip(void **state)
{
    (void)state;
    isa_kernel k, k2;
    assert_int_equal(assemble(src, &k, NULL), 0);
    char *dis = isa_disassemble(&k);
    assert_non_null(dis);
    assert_non_null(strstr(dis, ".global_data gd 05000000 2a000000 00000000"));
    assert_non_null(strstr(dis, ".data_reloc gd 16 ctab 4\n"));
    assert_non_null(strstr(dis, ".global_var k.cp 16 8 u64\n"));
    assert_int_equal(assemble(dis, &k2, NULL), 0);
    assert_int_equal(k2.global_arg, k.global_arg);
    assert_int_equal(k2.global_bytes, k.global_bytes);
    assert_memory_equal(k2.global_data, k.global_data, k.global_bytes);
    assert_int_equal(k2.nreloc, k.nreloc);
    assert_memory_equal(k2.relocs, k.relocs, k.nreloc * sizeof *k.relocs);
    assert_int_equal(k2.ngvar, k.ngvar);
    for (uint32_t i = 0; i < k.ngvar; i++) {
        assert_string_equal(k2.gvars[i].name, k.gvars[i].name);
        assert_int_equal(k2.gvars[i].offset, k.gvars[i].offset);
        assert_int_equal(k2.gvars[i].bytes, k.gvars[i].bytes);
        assert_int_equal(k2.gvars[i].type, k.gvars[i].type);
    }
    char *dis2 = isa_disassemble(&k2);
    assert_string_equal(dis, dis2);
    free(dis);
    free(dis2);
    isa_kernel_free(&k);
    isa_kernel_free(&k2);
    /* an empty block keeps its argument */
    assert_int_equal(assemble(".kernel e\n.global_data z\n    ret\n", &k, NULL), 0);
    assert_int_equal(k.global_arg, 1);
    assert_int_equal(k.global_bytes, 0);
    dis = isa_disassemble(&k);
    assert_int_equal(assemble(dis, &k2, NULL), 0);
    assert_int_equal(k2.global_arg, 1);
    assert_int_equal(k2.args[0].kind, ISA_ARG_GLOBAL);
    free(dis);
    isa_kernel_free(&k);
    isa_kernel_free(&k2);
}

static void test_errors(void **state)
{
    (void)state;
    /* each: text, line and column of the first message, part of it */
    static const struct { const char *text; uint32_t line, col; const char *msg; } bad[] = {
        { ".kernel k\n.global_data t 012\n    ret\n", 2, 16, "two digits" },
        { ".kernel k\n.global_data t 00 zz\n    ret\n", 2, 19, "not hex" },
        { ".kernel k\n.global_data\n    ret\n", 2, 13, "missing global data name" },
        { ".kernel k\n.arg t global u8\n.global_data t 00\n    ret\n", 3, 14,
          "duplicate argument" },
        { ".kernel k\n.global_data t 00\n.global_data u 00\n    ret\n", 3, 14,
          "one .global_data" },
        { ".kernel k\n.const_data t 00\n.global_data t 00\n    ret\n", 3, 14,
          "duplicate argument" },
        { ".kernel k\n.global_data t 00\n.data_reloc u 0 t 0\n    ret\n", 3, 13,
          "not a .const_data or .global_data block" },
        { ".kernel k\n.global_data t 00\n.data_reloc t x t 0\n    ret\n", 3, 15, "bad offset" },
        { ".kernel k\n.global_data t 00\n.data_reloc t 0 t\n    ret\n", 3, 18, "missing addend" },
        { ".kernel k\n.global_data t 00\n.data_reloc t 0 t 1q\n    ret\n", 3, 19, "bad addend" },
        { ".kernel k\n.global_data t 00\n.data_reloc t 0 t 0 9\n    ret\n", 3, 21, "" },
        { ".kernel k\n.global_var v 0 4 i32\n    ret\n", 2, 13, "needs a .global_data" },
        { ".kernel k\n.global_data t 00\n.global_var 9v 0 1 u8\n    ret\n", 3, 13,
          "invalid variable name" },
        { ".kernel k\n.global_data t 00\n.global_var v 0 1 q8\n    ret\n", 3, 19,
          "unknown type" },
        { ".kernel k\n.global_data t 00\n.global_var v 0 1 u8\n.global_var v 0 1 u8\n    ret\n",
          4, 13, "duplicate variable" },
        /* the validator: ranges (its messages sit at 1:1) */
        { ".kernel k\n.global_data t 00\n.data_reloc t 0 t 0\n    ret\n", 1, 1,
          "must lie in a data block" },
        { ".kernel k\n.global_data t 0000000000000000\n.data_reloc t 0 t 9\n    ret\n", 1, 1,
          "addend 9" },
        { ".kernel k\n.global_data t 00\n.global_var v 0 2 u8\n    ret\n", 1, 1,
          "inside the .global_data block" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        isa_kernel k;
        isa_diag d;
        int errs = assemble(bad[i].text, &k, &d);
        if (errs == 0) {
            isa_kernel_free(&k);
            fail_msg("accepted: %s", bad[i].text);
        }
        if (!strstr(d.msg, bad[i].msg) || d.line != bad[i].line || d.col != bad[i].col)
            fail_msg("'%s': got %u:%u '%s', want %u:%u '%s'", bad[i].text, d.line, d.col,
                     d.msg, bad[i].line, bad[i].col, bad[i].msg);
    }
    /* the validator checks a hand-built kernel's block argument */
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL), 0);
    isa_diags dg;
    memset(&dg, 0, sizeof dg);
    k.global_arg = 2;                   /* the constant block's argument */
    assert_true(isa_validate(&k, &dg) > 0);
    isa_diags_free(&dg);
    isa_kernel_free(&k);
}

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void test_engine(void **state)
{
    (void)state;
    enum { G = 40 };
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL), 0);
    uint8_t before[24];
    memcpy(before, k.global_data, sizeof before);
    uint64_t out[2 * G];
    /* twice with the block unbound: the engine's own copy each time */
    for (int run = 0; run < 2; run++) {
        sgemu_argval v[3];
        memset(v, 0, sizeof v);
        memset(out, 0, sizeof out);
        v[0] = arg_buffer(out, sizeof out);
        sgemu_launch la = launch_1d(G, 8, 8);
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &la, v, &st, &f), 0);
        sgemu_stats_free(&st);
        assert_int_equal(v[2].kind, SGEMU_VAL_UNSET);   /* the caller's list is as given */
        assert_memory_equal(k.global_data, before, sizeof before);
        for (int i = 0; i < G; i++) {
            assert_int_equal(out[2 * i], out[0]);
            assert_int_equal(out[2 * i + 1], 20);      /* ctab's second u32 */
        }
    }
    /* the pointer's value is the block's address + 4: the address work-item 0
     * wrote 77 through, seen in the caller's buffer of the block */
    uint8_t blk[24];
    memset(blk, 0xee, sizeof blk);
    sgemu_argval v[3];
    memset(v, 0, sizeof v);
    v[0] = arg_buffer(out, sizeof out);
    v[2] = arg_buffer(blk, sizeof blk);
    sgemu_launch la = launch_1d(G, 8, 16);
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &la, v, &st, &f), 0);
    sgemu_stats_free(&st);
    uint32_t count, answer;
    memcpy(&count, blk, 4);
    memcpy(&answer, blk + 4, 4);
    assert_int_equal(count, 5 + G);     /* initial 5, one atomic add per work-item */
    assert_int_equal(answer, 77);
    assert_int_equal(le64(blk + 8), out[0]);
    /* the pointers as the engine wrote them: the one work-items loaded, and
     * the constant one (its target read 20 above) */
    assert_int_not_equal(le64(blk + 16), 0);
    assert_int_not_equal(le64(blk + 16), le64(blk + 8));
    for (int i = 0; i < G; i++)
        assert_int_equal(out[2 * i + 1], 20);
    assert_memory_equal(k.global_data, before, sizeof before);
    isa_kernel_free(&k);
}

/* A kernel whose only argument is its global block runs without an
 * argument list. */
static void test_no_user_args(void **state)
{
    (void)state;
    isa_kernel k;
    assert_int_equal(assemble(".kernel z\n.global_data gd 07000000\n"
                              "    atom_add.global.u32 r0, [%gd], 1\n    ret\n", &k, NULL), 0);
    sgemu_launch la = launch_1d(16, 8, 8);
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &la, NULL, &st, &f), 0);
    sgemu_stats_free(&st);
    assert_int_equal(k.global_data[0], 7);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assemble),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_engine),
        cmocka_unit_test(test_no_user_args),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
