/* test_byval_args.c - by-value vector and struct arguments in the program
 * form: `.arg NAME byval TYPE N [CLTYPE]` and `.arg NAME byval struct BYTES
 * [CLTYPE]` through the assembler (sizes, defaults, errors with positions),
 * the disassembler round trip, the validator, and sgemu_run's binding (the
 * kernel reads the components; too few bytes or a scalar is a user error
 * naming the argument, its OpenCL type and its size). */
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

/* out[i] = s.x * i + s.w + p.b (the i32 at byte 8 of the struct) + t.z */
static const char src[] =
    ".kernel bv\n"
    ".arg out global i32\n"
    ".arg s byval i32 4\n"
    ".arg p byval struct 12 struct pair  // the rest of the line is the OpenCL type\n"
    ".arg t byval u16 3 ushort3\n"
    ".arg h byval f64 16\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.constant.i32x4 r1, [%s]\n"
    "    mul.i32 r5, r1, r0\n"
    "    add.i32 r5, r5, r4\n"
    "    ld.constant.i32 r6, [%p + 8]\n"
    "    add.i32 r5, r5, r6\n"
    "    ld.constant.u16x3 r7, [%t]\n"
    "    cvt.i32.u16 r10, r9\n"
    "    add.i32 r5, r5, r10\n"
    "    st.global.i32 [%out + r0:u32*4], r5\n"
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
    assert_int_equal(k.narg, 5);
    assert_int_equal(k.args[0].byval, 0);
    const isa_arg *s = &k.args[1], *p = &k.args[2], *t = &k.args[3], *h = &k.args[4];
    assert_int_equal(s->kind, ISA_ARG_CONSTANT);
    assert_int_equal(s->type, ISA_T_I32);
    assert_int_equal(s->byval, 16);
    assert_int_equal(s->byval_vec, 4);
    assert_string_equal(s->cl_type, "");
    assert_int_equal(p->kind, ISA_ARG_CONSTANT);
    assert_int_equal(p->type, ISA_T_U8);
    assert_int_equal(p->byval, 12);
    assert_int_equal(p->byval_vec, 0);
    assert_string_equal(p->cl_type, "struct pair");
    assert_int_equal(t->byval, 8);          /* a 3-vector takes 4 components */
    assert_int_equal(t->byval_vec, 3);
    assert_string_equal(t->cl_type, "ushort3");
    assert_int_equal(h->byval, 128);
    isa_kernel_free(&k);
}

static void test_roundtrip(void **state)
{
    (void)state;
    isa_kernel k1, k2;
    assert_int_equal(assemble(src, &k1, NULL), 0);
    char *text = isa_disassemble(&k1);
    assert_non_null(text);
    assert_non_null(strstr(text, ".arg s byval i32 4\n"));
    assert_non_null(strstr(text, ".arg p byval struct 12 struct pair\n"));
    assert_non_null(strstr(text, ".arg t byval u16 3 ushort3\n"));
    assert_non_null(strstr(text, ".arg h byval f64 16\n"));
    assert_int_equal(assemble(text, &k2, NULL), 0);
    assert_int_equal(k1.narg, k2.narg);
    for (uint32_t i = 0; i < k1.narg; i++) {
        assert_string_equal(k1.args[i].name, k2.args[i].name);
        assert_int_equal(k1.args[i].kind, k2.args[i].kind);
        assert_int_equal(k1.args[i].type, k2.args[i].type);
        assert_int_equal(k1.args[i].byval, k2.args[i].byval);
        assert_int_equal(k1.args[i].byval_vec, k2.args[i].byval_vec);
        assert_string_equal(k1.args[i].cl_type, k2.args[i].cl_type);
    }
    assert_int_equal(k1.ninst, k2.ninst);
    free(text);
    isa_kernel_free(&k1);
    isa_kernel_free(&k2);
}

/* Each bad line: the message and its column. */
static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *line, *msg; uint32_t col; } cases[] = {
        { ".arg s byval f32 5", "a by-value vector has 2, 3, 4, 8 or 16 components, not 5", 18 },
        { ".arg s byval f32 1", "a by-value vector has 2, 3, 4, 8 or 16 components, not 1", 18 },
        { ".arg s byval f33 4", "unknown type 'f33'", 14 },
        { ".arg s byval f32", "expected byval TYPE COMPONENTS or byval struct BYTES", 17 },
        { ".arg s byval struct 0", "a by-value struct has 1..65536 bytes, not 0", 21 },
        { ".arg s byval struct x", "'x' is not a number", 21 },
        { ".arg s byval struct 70000 S", "a by-value struct has 1..65536 bytes, not 70000",
          21 },
        { ".arg s byval struct 8 "
          "a_name_that_is_much_too_long_for_the_opencl_type_field",
          "OpenCL type name too long (at most 46 characters)", 23 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, ".kernel e\n%s\n    ret\n", cases[i].line);
        isa_kernel k;
        isa_diag d;
        int errs = assemble(text, &k, &d);
        if (errs != 1 || strcmp(d.msg, cases[i].msg) || d.col != cases[i].col)
            fprintf(stderr, "%s: %d errors, first %u:%u %s\n", cases[i].line, errs, d.line,
                    d.col, d.msg);
        assert_int_equal(errs, 1);
        assert_string_equal(d.msg, cases[i].msg);
        assert_int_equal(d.line, 2);
        assert_int_equal(d.col, cases[i].col);
    }
}

/* A front end's kernel with an inconsistent by-value argument. */
static void test_validate(void **state)
{
    (void)state;
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL), 0);
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_validate(&k, &d), 0);
    k.args[1].byval = 12;              /* an i32x4 has 16 bytes */
    assert_int_equal(isa_validate(&k, &d), 1);
    assert_non_null(strstr(d.items[0].msg, "by-value argument 's'"));
    k.args[1].byval = 16;
    k.args[1].kind = ISA_ARG_GLOBAL;   /* by value is read-only */
    assert_int_equal(isa_validate(&k, &d), 1);
    k.args[1].kind = ISA_ARG_CONSTANT;
    k.args[2].byval = 0;               /* a struct needs its size */
    k.args[2].byval_vec = 0;
    assert_int_equal(isa_validate(&k, &d), 0);
    k.args[3].byval_vec = 5;
    assert_int_equal(isa_validate(&k, &d), 1);
    isa_diags_free(&d);
    isa_kernel_free(&k);
}

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

enum { G = 40 };

static int run(isa_kernel *k, sgemu_argval *v, unsigned width, sgemu_fault *f)
{
    sgemu_launch la = launch_1d(G, 8, width);
    sgemu_stats st;
    int rc = sgemu_run(k, &cfg, &la, v, &st, f);
    if (!rc)
        sgemu_stats_free(&st);
    return rc;
}

static void test_engine(void **state)
{
    (void)state;
    isa_kernel k;
    assert_int_equal(assemble(src, &k, NULL), 0);
    int32_t s[4] = { 3, -100, 7, 1000 }, out[G];
    uint8_t p[12] = { 0 };
    int32_t pb = -55;
    memcpy(p + 8, &pb, 4);
    uint16_t t[4] = { 1, 2, 300, 0xffff };
    double h[16] = { 0 };
    static const unsigned widths[] = { 8, 16, 32 };
    for (unsigned w = 0; w < 3; w++) {
        memset(out, 0, sizeof out);
        sgemu_argval v[5] = { arg_buffer(out, sizeof out), arg_buffer(s, sizeof s),
                              arg_buffer(p, sizeof p), arg_buffer(t, sizeof t),
                              arg_buffer(h, sizeof h) };
        sgemu_fault f;
        assert_int_equal(run(&k, v, widths[w], &f), 0);
        for (int i = 0; i < G; i++)
            assert_int_equal(out[i], 3 * i + 1000 - 55 + 300);
    }
    /* too few bytes, a scalar, nothing: the message names the type and size */
    static const struct { int which; size_t bytes; const char *msg; } bad[] = {
        { 1, 12, "argument 's' is a int4 passed by value: give its 16 bytes, e.g. "
                 "--arg s=int:[x,y,z,w] (got 12 bytes)" },
        { 2, 11, "argument 'p' is a struct pair passed by value: give its 12 bytes, as clang "
                 "lays it out for spir64, e.g. --arg p=u8:@FILE (got 11 bytes)" },
        { 3, 6, "argument 't' is a ushort3 passed by value: give its 8 bytes, e.g. "
                "--arg t=ushort:[x,y,z,0] (got 6 bytes)" },
        { 4, 0, "argument 'h' is a double16 passed by value: give its 128 bytes, e.g. "
                "--arg h=double:[s0,s1,s2,s3,s4,s5,s6,s7,s8,s9,sa,sb,sc,sd,se,sf] "
                "(got a scalar)" },
        { 1, 0, "argument 's' is a int4 passed by value: give its 16 bytes, e.g. "
                "--arg s=int:[x,y,z,w] (got no value)" },
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        sgemu_argval v[5] = { arg_buffer(out, sizeof out), arg_buffer(s, sizeof s),
                              arg_buffer(p, sizeof p), arg_buffer(t, sizeof t),
                              arg_buffer(h, sizeof h) };
        if (bad[b].bytes)
            v[bad[b].which].bytes = bad[b].bytes;
        else if (bad[b].which == 4)
            v[4] = arg_scalar(1);
        else
            memset(&v[bad[b].which], 0, sizeof v[0]);
        sgemu_fault f;
        assert_int_equal(run(&k, v, 16, &f), SGEMU_EXIT_USER);
        assert_string_equal(f.msg, bad[b].msg);
    }
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assemble),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_engine),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
