/* test_const_data.c - the .const_data directive (program-scope constant
 * bytes): assembler, disassembler round trip, validator and its errors. */
#include "isa.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char src[] =
    ".kernel k\n"
    ".arg out global u32\n"
    ".const_data tab 01020304 0506\n"
    ".const_data tab 0708 ff\n"
    ".arg n u32\n"
    "    mov.u64 r0, %global_id.x\n"
    "    ld.constant.u32 r1, [%tab + r0:i64*4]\n"
    "    ld.constant.u8 r2, [%tab + 8]\n"
    "    add.u32 r1, r1, r2\n"
    "    st.global.u32 [%out + r0:i64*4], r1\n"
    "    ret\n";

static int assemble(const char *text, isa_kernel *k, char *msg, size_t n)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("t.sgasm", text, strlen(text), k, &d);
    if (msg)
        snprintf(msg, n, "%s", d.count ? d.items[0].msg : "");
    isa_diags_free(&d);
    return errs;
}

static void test_assemble(void **state)
{
    (void)state;
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL, 0), 0);
    assert_int_equal(k.narg, 3);
    assert_int_equal(k.const_arg, 2);           /* the block's argument, in order */
    assert_string_equal(k.args[1].name, "tab");
    assert_int_equal(k.args[1].kind, ISA_ARG_CONSTANT);
    assert_int_equal(k.args[1].type, ISA_T_U8);
    assert_string_equal(k.args[2].name, "n");
    static const uint8_t want[] = { 1, 2, 3, 4, 5, 6, 7, 8, 0xff };
    assert_int_equal(k.const_bytes, sizeof want);
    assert_memory_equal(k.const_data, want, sizeof want);
    isa_kernel_free(&k);
    assert_null(k.const_data);
}

static void test_round_trip(void **state)
{
    (void)state;
    /* 100 bytes: more than one line of disassembly */
    char text[4096];
    int n = snprintf(text, sizeof text, ".kernel big\n.const_data c");
    for (int i = 0; i < 100; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, " %02x", (i * 37 + 5) & 255);
    snprintf(text + n, sizeof text - (size_t)n, "\n.arg o global u8\n    ret\n");
    isa_kernel k, k2;
    assert_int_equal(assemble(text, &k, NULL, 0), 0);
    assert_int_equal(k.const_bytes, 100);
    char *dis = isa_disassemble(&k);
    assert_non_null(strstr(dis, ".const_data c 05"));
    assert_int_equal(assemble(dis, &k2, NULL, 0), 0);
    assert_int_equal(k2.const_arg, k.const_arg);
    assert_int_equal(k2.const_bytes, 100);
    assert_memory_equal(k2.const_data, k.const_data, 100);
    for (int i = 0; i < 100; i++)
        assert_int_equal(k2.const_data[i], (i * 37 + 5) & 255);
    char *dis2 = isa_disassemble(&k2);
    assert_string_equal(dis, dis2);
    free(dis);
    free(dis2);
    isa_kernel_free(&k);
    isa_kernel_free(&k2);
    /* an empty block keeps its argument */
    assert_int_equal(assemble(".kernel e\n.const_data z\n    ret\n", &k, NULL, 0), 0);
    assert_int_equal(k.const_arg, 1);
    assert_int_equal(k.const_bytes, 0);
    dis = isa_disassemble(&k);
    assert_int_equal(assemble(dis, &k2, NULL, 0), 0);
    assert_int_equal(k2.const_arg, 1);
    free(dis);
    isa_kernel_free(&k);
    isa_kernel_free(&k2);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } bad[] = {
        { ".kernel k\n.const_data t 012\n    ret\n", "two digits" },
        { ".kernel k\n.const_data t 0g\n    ret\n", "not hex" },
        { ".kernel k\n.arg t global u8\n.const_data t 00\n    ret\n", "duplicate argument" },
        { ".kernel k\n.const_data t 00\n.const_data u 00\n    ret\n", "one .const_data" },
        { ".kernel k\n.const_data t 00\n.arg t global u8\n    ret\n", "duplicate argument" },
        { ".kernel k\n.const_data t 00\n    st.constant.u8 [%t], 1\n    ret\n", "" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        isa_kernel k;
        char msg[240];
        int errs = assemble(bad[i].text, &k, msg, sizeof msg);
        if (errs == 0) {
            isa_kernel_free(&k);
            fail_msg("accepted: %s", bad[i].text);
        }
        if (!strstr(msg, bad[i].msg))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, msg, bad[i].msg);
    }
    /* the validator checks a hand-built kernel's block */
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL, 0), 0);
    isa_diags d;
    memset(&d, 0, sizeof d);
    k.const_arg = 1;                   /* 'out' is a global argument */
    assert_true(isa_validate(&k, &d) > 0);
    isa_diags_free(&d);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assemble),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
