/* Tests of the specialised lane kernels (lanes/fast.c).  Spot values come
 * from C typed arithmetic on the operand types (int32_t, uint64_t, float,
 * fmaf...); a differential sweep checks every kernel, at constant and odd
 * widths, bit for bit against lanes_exec_alu on random slot bits (garbage
 * above the type included) and float edge values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lanes.h"
#include "lanes_fast.h"

static uint64_t rng_state;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static uint64_t f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf32(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }

/* one lane's result of fast kernel f, t at width w (lane 3 of a row) */
static uint64_t one(isa_family f, isa_type t, uint64_t a, uint64_t b, uint64_t c)
{
    enum { W = 8 };
    uint64_t ra[W] = { 0 }, rb[W] = { 0 }, rc[W] = { 0 }, r[W];
    ra[3] = a;
    rb[3] = b;
    rc[3] = c;
    lanes_fast_fn fn = lanes_fast_alu(f, t, W);
    assert_non_null(fn);
    fn(r, ra, rb, rc, W);
    return r[3];
}

static void test_int_values(void **state)
{
    (void)state;
    assert_int_equal(one(ISA_FAM_ADD, ISA_T_U32, 0xffffffffu, 1, 0), 0);
    assert_int_equal(one(ISA_FAM_SUB, ISA_T_U64, 0, 1, 0), UINT64_MAX);
    assert_int_equal(one(ISA_FAM_MAD, ISA_T_U32, 1664525, 7, 1013904223),
                     (uint32_t)(1664525u * 7u + 1013904223u));
    assert_int_equal(one(ISA_FAM_SHR, ISA_T_I32, 0x80000000u, 4, 0), 0xf8000000u);
    assert_int_equal(one(ISA_FAM_SHR, ISA_T_U32, 0x80000000u, 4, 0), 0x08000000u);
    /* shift counts wrap at the type's width */
    assert_int_equal(one(ISA_FAM_SHL, ISA_T_U32, 1, 33, 0), 2);
    assert_int_equal(one(ISA_FAM_MIN, ISA_T_I32, (uint32_t)-1, 1, 0), 0xffffffffu);
    assert_int_equal(one(ISA_FAM_MIN, ISA_T_U32, (uint32_t)-1, 1, 0), 1);
    assert_int_equal(one(ISA_FAM_MAX, ISA_T_I64, (uint64_t)-5, 3, 0), 3);
    assert_int_equal(one(ISA_FAM_ABS, ISA_T_I32, 0x80000000u, 0, 0), 0x80000000u);
    assert_int_equal(one(ISA_FAM_ABS, ISA_T_I32, (uint32_t)-7, 0, 0), 7);
    assert_int_equal(one(ISA_FAM_NEG, ISA_T_I32, 1, 0, 0), 0xffffffffu);
    assert_int_equal(one(ISA_FAM_NOT, ISA_T_U32, 0, 0, 0), 0xffffffffu);
    /* bits above a 32-bit type are ignored */
    assert_int_equal(one(ISA_FAM_MIN, ISA_T_U32, UINT64_C(0x100000005), 6, 0), 5);
    assert_int_equal(one(ISA_FAM_XOR, ISA_T_U32, UINT64_C(0xf00000001), 3, 0), 2);
}

static void test_float_values(void **state)
{
    (void)state;
    assert_int_equal(one(ISA_FAM_ADD, ISA_T_F32, f32b(1.5f), f32b(2.25f), 0), f32b(3.75f));
    /* a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 (tie to
     * even), so mad (two roundings) gives 0 and fma gives 2^-24 */
    const float a = 1.0f + ldexpf(1.0f, -12), c = -(1.0f + ldexpf(1.0f, -11));
    assert_int_equal(one(ISA_FAM_MAD, ISA_T_F32, f32b(a), f32b(a), f32b(c)), f32b(0.0f));
    assert_int_equal(one(ISA_FAM_FMA, ISA_T_F32, f32b(a), f32b(a), f32b(c)),
                     f32b(ldexpf(1.0f, -24)));
    assert_true(bf32(one(ISA_FAM_MIN, ISA_T_F32, f32b(NAN), f32b(2.0f), 0)) == 2.0f);
    assert_int_equal(one(ISA_FAM_MIN, ISA_T_F32, f32b(0.0f), f32b(-0.0f), 0), f32b(-0.0f));
    assert_int_equal(one(ISA_FAM_NEG, ISA_T_F32, f32b(2.0f), 0, 0), f32b(-2.0f));
    assert_int_equal(one(ISA_FAM_ABS, ISA_T_F32, f32b(-2.0f), 0, 0), f32b(2.0f));
}

static void test_cmp_values(void **state)
{
    (void)state;
    uint64_t a[16], b[16];
    for (int l = 0; l < 16; l++) {
        a[l] = (uint32_t)(l - 8);       /* -8 .. 7 as i32 bits */
        b[l] = 0;
    }
    lanes_mask lt_s = lanes_fast_cmp(ISA_BINOP_LT, ISA_T_I32, 16)(a, b, 16);
    lanes_mask lt_u = lanes_fast_cmp(ISA_BINOP_LT, ISA_T_U32, 16)(a, b, 16);
    assert_int_equal(lt_s, 0x00ff);
    assert_int_equal(lt_u, 0);
    for (int l = 0; l < 16; l++)
        a[l] = b[l] = f32b(l & 1 ? NAN : 1.0f);
    assert_int_equal(lanes_fast_cmp(ISA_BINOP_EQ, ISA_T_F32, 16)(a, b, 16), 0x5555);
    assert_int_equal(lanes_fast_cmp(ISA_BINOP_NE, ISA_T_F32, 16)(a, b, 16), 0xaaaa);
    assert_null(lanes_fast_cmp(ISA_BINOP_ADD, ISA_T_I32, 16));
}

static void test_no_kernel(void **state)
{
    (void)state;
    /* what stays on the generic path */
    assert_null(lanes_fast_alu(ISA_FAM_DIV, ISA_T_I32, 16));
    assert_null(lanes_fast_alu(ISA_FAM_ADD, ISA_T_U8, 16));
    assert_null(lanes_fast_alu(ISA_FAM_REM, ISA_T_F16, 16));
    assert_null(lanes_fast_alu(ISA_FAM_SIN, ISA_T_F16, 16));
    assert_null(lanes_fast_alu(ISA_FAM_SIN, ISA_T_F32, 16));
    assert_null(lanes_fast_alu(ISA_FAM_ADD, ISA_T_I32, 0));
    assert_null(lanes_fast_alu(ISA_FAM_ADD, ISA_T_I32, 65));
}

/* ------------------------------------------------------ differential */

static const isa_family fams[] = {
    ISA_FAM_ADD, ISA_FAM_SUB, ISA_FAM_MUL, ISA_FAM_MAD, ISA_FAM_FMA, ISA_FAM_DIV,
    ISA_FAM_AND, ISA_FAM_OR, ISA_FAM_XOR, ISA_FAM_NOT, ISA_FAM_NEG, ISA_FAM_SHL,
    ISA_FAM_SHR, ISA_FAM_MIN, ISA_FAM_MAX, ISA_FAM_ABS, ISA_FAM_SQRT,
};
static const isa_type types[] = { ISA_T_U32, ISA_T_I32, ISA_T_U64, ISA_T_I64,
                                  ISA_T_F32, ISA_T_F64, ISA_T_F16 };
static const uint32_t widths[] = { 1, 5, 8, 16, 32, 64 };

static isa_opcode op_of(isa_family f)
{
    for (int i = 0; i < ISA_OP_COUNT; i++)
        if (isa_ops[i].family == f && !isa_op_cross_lane((unsigned)i))
            return (isa_opcode)i;
    return ISA_OP_COUNT;
}

static uint64_t slot(isa_type t)
{
    static const uint64_t fedge[] = {
        0, 0x80000000u, 0x3f800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
        0x00000001u, 0x7f7fffffu };
    static const uint64_t dedge[] = {
        0, UINT64_C(0x8000000000000000), UINT64_C(0x3ff0000000000000),
        UINT64_C(0x7ff0000000000000), UINT64_C(0x7ff8000000000000), 1 };
    static const uint64_t hedge[] = {
        0, 0x8000, 0x3c00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x03ff,
        0x0400, 0x7bff, 0xfbff };
    uint64_t r = rnd64();
    if (t == ISA_T_F16)
        return (r & 3) == 0 ? hedge[(r >> 8) % 12] : (uint16_t)(r >> 16);
    if (t == ISA_T_F32)
        return (r & 3) == 0 ? fedge[(r >> 8) % 8] : (uint32_t)(r >> 16);
    if (t == ISA_T_F64)
        return (r & 3) == 0 ? dedge[(r >> 8) % 6] : r >> 2;
    return (r & 7) == 0 ? (r & 3) : r;   /* small shift counts now and then */
}

/* Where two NaNs meet (two NaN operands, or a NaN operand of mad or fma
 * and the NaN of an invalid product), IEEE 754 leaves open whose payload
 * the result carries, and C compilers order the operands of a commutative
 * add as they like: f16 results then need only both be quiet NaNs. */
static bool h_isnan(uint64_t v) { return (v & 0x7fff) > 0x7c00; }
static bool nan_choice(isa_type t, isa_family f, uint64_t a, uint64_t b, uint64_t c,
                       uint64_t x, uint64_t y)
{
    if (t != ISA_T_F16 || !h_isnan(x) || !h_isnan(y) || !(x & 0x200) || !(y & 0x200))
        return false;
    const bool fused = f == ISA_FAM_MAD || f == ISA_FAM_FMA;
    const int nans = h_isnan(a) + h_isnan(b) + (fused && h_isnan(c));
    return nans >= 2 || (fused && h_isnan(c));
}

static void test_differential(void **state)
{
    (void)state;
    rng_state = 0x9e3779b97f4a7c15u;
    int checked = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
        const uint32_t w = widths[wi];
        lanes_sg sg;
        assert_int_equal(lanes_sg_init(&sg, w, w, 4, 1), 0);
        for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
            for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
                lanes_fast_fn fn = lanes_fast_alu(fams[fi], types[ti], w);
                if (!fn)
                    continue;
                const isa_opcode op = op_of(fams[fi]);
                assert_true(op < ISA_OP_COUNT);
                isa_inst in;
                memset(&in, 0, sizeof in);
                in.op = (uint16_t)op;
                in.type = in.src_type = (uint8_t)types[ti];
                in.vec = 1;
                for (int o = 0; o < 4; o++) {
                    in.o[o].kind = ISA_OPND_REG;
                    in.o[o].reg = (uint16_t)o;
                }
                for (int rep = 0; rep < 8; rep++) {
                    uint64_t *a = lanes_reg(&sg, 1), *b = lanes_reg(&sg, 2),
                             *c = lanes_reg(&sg, 3);
                    for (uint32_t l = 0; l < w; l++) {
                        a[l] = slot(types[ti]);
                        b[l] = slot(types[ti]);
                        c[l] = slot(types[ti]);
                    }
                    uint64_t got[64];
                    fn(got, a, b, c, w);
                    assert_int_equal(lanes_exec_alu(NULL, &sg, &in,
                                                    lanes_mask_first(w)), 0);
                    for (uint32_t l = 0; l < w; l++) {
                        if (got[l] != lanes_reg(&sg, 0)[l] &&
                            !nan_choice(types[ti], fams[fi], a[l], b[l], c[l], got[l],
                                        lanes_reg(&sg, 0)[l]))
                            fail_msg("%s.%s w=%u lane %u: %#llx != %#llx",
                                     isa_ops[op].mnemonic,
                                     isa_types[types[ti]].asm_name, w, l,
                                     (unsigned long long)got[l],
                                     (unsigned long long)lanes_reg(&sg, 0)[l]);
                    }
                    /* in place: the destination row is a source row (fast.c
                     * tells the vectoriser lanes never depend on each other) */
                    for (int src = 0; src < 3; src++) {
                        uint64_t x[64];
                        const uint64_t *s0 = src == 0 ? x : a, *s1 = src == 1 ? x : b,
                                       *s2 = src == 2 ? x : c;
                        memcpy(x, src == 0 ? a : src == 1 ? b : c, w * sizeof *x);
                        fn(x, s0, s1, s2, w);
                        assert_memory_equal(x, got, w * sizeof *x);
                    }
                    checked++;
                }
            }
            /* compares against cmp into p0 */
            for (int cond = ISA_BINOP_EQ; cond <= ISA_BINOP_GE; cond++) {
                lanes_fast_cmp_fn cf = lanes_fast_cmp((isa_binop)cond, types[ti], w);
                assert_non_null(cf);
                isa_inst in;
                memset(&in, 0, sizeof in);
                in.op = ISA_OP_CMP;
                in.type = in.src_type = (uint8_t)types[ti];
                in.vec = 1;
                in.cond = (uint8_t)cond;
                in.o[0].kind = ISA_OPND_PRED;
                in.o[1].kind = in.o[2].kind = ISA_OPND_REG;
                in.o[1].reg = 1;
                in.o[2].reg = 2;
                uint64_t *a = lanes_reg(&sg, 1), *b = lanes_reg(&sg, 2);
                for (uint32_t l = 0; l < w; l++) {
                    a[l] = slot(types[ti]);
                    b[l] = (l & 3) == 0 ? a[l] : slot(types[ti]);
                }
                sg.preds[0] = 0;
                assert_int_equal(lanes_exec_alu(NULL, &sg, &in, lanes_mask_first(w)), 0);
                assert_int_equal(cf(a, b, w), sg.preds[0]);
                checked++;
            }
        }
        lanes_sg_free(&sg);
    }
    assert_true(checked > 1000);
}

/* Integer conversions: values from C's own conversions of the operand
 * types, then every (dst, src) pair of 32/64-bit integers at every width
 * bit for bit against lanes_exec_cvt (through lanes_exec_alu). */
static uint64_t cvt_one(isa_type d, isa_type s, uint64_t a)
{
    uint64_t ra[8] = { 0 }, r[8];
    ra[5] = a;
    lanes_fast_fn fn = lanes_fast_cvt(d, s, 8);
    assert_non_null(fn);
    fn(r, ra, NULL, NULL, 8);
    return r[5];
}

static void test_cvt_values(void **state)
{
    (void)state;
    /* i32 -> i64 / u64 sign-extends; u32 -> 64 bits zero-extends */
    assert_int_equal(cvt_one(ISA_T_I64, ISA_T_I32, 0xfffffff9u), (uint64_t)(int64_t)-7);
    assert_int_equal(cvt_one(ISA_T_U64, ISA_T_I32, 0x80000000u),
                     (uint64_t)(int64_t)(int32_t)INT32_MIN);
    assert_int_equal(cvt_one(ISA_T_U64, ISA_T_U32, 0xfffffff9u), UINT64_C(0xfffffff9));
    /* bits above a 32-bit source are not part of its value */
    assert_int_equal(cvt_one(ISA_T_U64, ISA_T_U32, UINT64_C(0x500000003)), 3);
    assert_int_equal(cvt_one(ISA_T_I64, ISA_T_I32, UINT64_C(0x7ffffffff)), UINT64_MAX);
    /* 64 -> 32 keeps the low half, 64 -> 64 every bit */
    assert_int_equal(cvt_one(ISA_T_U32, ISA_T_U64, UINT64_C(0x123456789)), 0x23456789u);
    assert_int_equal(cvt_one(ISA_T_I32, ISA_T_I64, (uint64_t)(int64_t)-2), 0xfffffffeu);
    assert_int_equal(cvt_one(ISA_T_I64, ISA_T_U64, UINT64_MAX), UINT64_MAX);
    assert_int_equal(cvt_one(ISA_T_U32, ISA_T_I32, UINT64_C(0xabcdef0012345678)), 0x12345678u);
    /* floats, narrow integers and odd widths have no kernel */
    assert_null(lanes_fast_cvt(ISA_T_F32, ISA_T_I32, 16));
    assert_null(lanes_fast_cvt(ISA_T_I32, ISA_T_F32, 16));
    assert_null(lanes_fast_cvt(ISA_T_U32, ISA_T_U8, 16));
    assert_null(lanes_fast_cvt(ISA_T_U32, ISA_T_U64, 0));
    assert_null(lanes_fast_cvt(ISA_T_U32, ISA_T_U64, 65));
}

static void test_cvt_differential(void **state)
{
    (void)state;
    static const isa_type it[] = { ISA_T_U32, ISA_T_I32, ISA_T_U64, ISA_T_I64 };
    rng_state = 0x243f6a8885a308d3u;
    int checked = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
        const uint32_t w = widths[wi];
        lanes_sg sg;
        assert_int_equal(lanes_sg_init(&sg, w, w, 2, 1), 0);
        for (int di = 0; di < 4; di++)
            for (int si = 0; si < 4; si++) {
                lanes_fast_fn fn = lanes_fast_cvt(it[di], it[si], w);
                assert_non_null(fn);
                isa_inst in;
                memset(&in, 0, sizeof in);
                in.op = ISA_OP_CVT;
                in.type = (uint8_t)it[di];
                in.src_type = (uint8_t)it[si];
                in.vec = 1;
                in.nopnd = 2;
                in.o[0].kind = in.o[1].kind = ISA_OPND_REG;
                in.o[1].reg = 1;
                for (int rep = 0; rep < 8; rep++) {
                    uint64_t *a = lanes_reg(&sg, 1), got[64];
                    for (uint32_t l = 0; l < w; l++)
                        a[l] = slot(ISA_T_U64) ^ ((l & 1) ? UINT64_C(0x80000000) : 0);
                    fn(got, a, NULL, NULL, w);
                    assert_int_equal(lanes_exec_alu(NULL, &sg, &in, lanes_mask_first(w)), 0);
                    for (uint32_t l = 0; l < w; l++)
                        if (got[l] != lanes_reg(&sg, 0)[l])
                            fail_msg("cvt.%s.%s w=%u lane %u: %#llx != %#llx",
                                     isa_types[it[di]].asm_name, isa_types[it[si]].asm_name,
                                     w, l, (unsigned long long)got[l],
                                     (unsigned long long)lanes_reg(&sg, 0)[l]);
                    checked++;
                }
            }
        lanes_sg_free(&sg);
    }
    assert_int_equal(checked, 6 * 16 * 8);
}

/* Shifts by a uniform count (lanes_fast_alu_uniform_b): the count comes
 * from lane 0 only and wraps at the type's width as in alu.c; every
 * type and width bit for bit against lanes_exec_alu on rows whose count is
 * the same in each lane, garbage above the type and counts past the width
 * included. */
static void test_uniform_shift(void **state)
{
    (void)state;
    uint64_t a[8], b[8], r[8];
    for (int l = 0; l < 8; l++) {
        a[l] = UINT64_C(0xf0000000) + (uint64_t)l;
        b[l] = l == 0 ? 4 : 99;   /* only lane 0's count is read */
    }
    lanes_fast_fn sr = lanes_fast_alu_uniform_b(ISA_FAM_SHR, ISA_T_I32, 8);
    assert_non_null(sr);
    sr(r, a, b, NULL, 8);
    assert_int_equal(r[3], (uint32_t)((int32_t)0xf0000003u >> 4));
    lanes_fast_fn sl = lanes_fast_alu_uniform_b(ISA_FAM_SHL, ISA_T_U32, 8);
    b[0] = 33;                    /* wraps to 1 */
    sl(r, a, b, NULL, 8);
    assert_int_equal(r[5], (uint32_t)(0xf0000005u << 1));
    assert_null(lanes_fast_alu_uniform_b(ISA_FAM_ADD, ISA_T_U32, 8));
    assert_null(lanes_fast_alu_uniform_b(ISA_FAM_SHL, ISA_T_F32, 8));
    assert_null(lanes_fast_alu_uniform_b(ISA_FAM_SHL, ISA_T_U8, 8));

    static const isa_type it[] = { ISA_T_U32, ISA_T_I32, ISA_T_U64, ISA_T_I64 };
    static const isa_family sf[] = { ISA_FAM_SHL, ISA_FAM_SHR };
    rng_state = 0x13198a2e03707344u;
    int checked = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
        const uint32_t w = widths[wi];
        lanes_sg sg;
        assert_int_equal(lanes_sg_init(&sg, w, w, 3, 1), 0);
        for (int ti = 0; ti < 4; ti++)
            for (int fi = 0; fi < 2; fi++) {
                lanes_fast_fn fn = lanes_fast_alu_uniform_b(sf[fi], it[ti], w);
                assert_non_null(fn);
                isa_inst in;
                memset(&in, 0, sizeof in);
                in.op = (uint16_t)op_of(sf[fi]);
                in.type = in.src_type = (uint8_t)it[ti];
                in.vec = 1;
                in.nopnd = 3;
                for (int o = 0; o < 3; o++) {
                    in.o[o].kind = ISA_OPND_REG;
                    in.o[o].reg = (uint16_t)o;
                }
                for (int rep = 0; rep < 12; rep++) {
                    uint64_t *ra = lanes_reg(&sg, 1), *rb = lanes_reg(&sg, 2), got[64];
                    const uint64_t cnt = rep < 4 ? (uint64_t)rep * 31 : rnd64() % 200;
                    for (uint32_t l = 0; l < w; l++) {
                        ra[l] = rnd64();
                        rb[l] = cnt;
                    }
                    fn(got, ra, rb, NULL, w);
                    assert_int_equal(lanes_exec_alu(NULL, &sg, &in, lanes_mask_first(w)), 0);
                    for (uint32_t l = 0; l < w; l++)
                        if (got[l] != lanes_reg(&sg, 0)[l])
                            fail_msg("%s.%s by %llu w=%u lane %u: %#llx != %#llx",
                                     isa_ops[in.op].mnemonic, isa_types[it[ti]].asm_name,
                                     (unsigned long long)cnt, w, l,
                                     (unsigned long long)got[l],
                                     (unsigned long long)lanes_reg(&sg, 0)[l]);
                    checked++;
                }
            }
        lanes_sg_free(&sg);
    }
    assert_int_equal(checked, 6 * 4 * 2 * 12);
}

/* lanes_fast_cmp_ramp: a ramp row a0 + l against one value, every
 * condition on u32/i32/u64/i64, near the places where a type's view of the
 * ramp wraps (2^31, 2^32, 2^63, 2^64): whenever it answers, each lane's bit
 * is C's compare of that lane's value as the type reads it, and the
 * compare kernel on the materialised row agrees; it declines exactly when
 * the ramp wraps in the type.  Then the row copies next to it. */
static bool cmp_c(isa_binop c, isa_type t, uint64_t a, uint64_t b)
{
    int s;
    switch (t) {
    case ISA_T_U32: s = (uint32_t)a < (uint32_t)b ? -1 : (uint32_t)a > (uint32_t)b; break;
    case ISA_T_I32: s = (int32_t)(uint32_t)a < (int32_t)(uint32_t)b ? -1
                      : (int32_t)(uint32_t)a > (int32_t)(uint32_t)b; break;
    case ISA_T_U64: s = a < b ? -1 : a > b; break;
    default:        s = (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b; break;
    }
    switch (c) {
    case ISA_BINOP_EQ: return s == 0;
    case ISA_BINOP_NE: return s != 0;
    case ISA_BINOP_LT: return s < 0;
    case ISA_BINOP_LE: return s <= 0;
    case ISA_BINOP_GT: return s > 0;
    default:           return s >= 0;
    }
}

/* does lane w - 1 of the ramp read as lane 0's value + w - 1 in t? */
static bool ramp_fits(isa_type t, uint64_t a0, uint32_t w)
{
    const uint64_t last = a0 + (w - 1);
    switch (t) {
    case ISA_T_U32: return (uint64_t)(uint32_t)a0 + (w - 1) == (uint32_t)last;
    case ISA_T_I32: return (int64_t)(int32_t)(uint32_t)a0 + (w - 1) ==
                           (int64_t)(int32_t)(uint32_t)last;
    case ISA_T_U64: return a0 <= last;
    default:        return (int64_t)a0 <= (int64_t)last;
    }
}

static void test_cmp_ramp(void **state)
{
    (void)state;
    static const isa_type ts[4] = { ISA_T_U32, ISA_T_I32, ISA_T_U64, ISA_T_I64 };
    static const uint64_t starts[] = {
        0, 1, 100, 0x7fffffe0u, 0x7ffffff8u, 0x80000000u, 0xffffffe0u, 0xfffffff9u,
        UINT64_C(0x100000000), UINT64_C(0x7ffffffffffffff0), UINT64_C(0x8000000000000000),
        UINT64_C(0xfffffffffffffff0), UINT64_C(0xffffffffffffffc0),
    };
    static const uint32_t ws[] = { 1, 8, 16, 32, 64 };
    rng_state = 0x243f6a8885a308d3u;
    uint64_t row[64], brow[64];
    int answered = 0, declined = 0;
    for (size_t si = 0; si < sizeof starts / sizeof *starts; si++)
        for (size_t wi = 0; wi < sizeof ws / sizeof *ws; wi++) {
            const uint32_t w = ws[wi];
            const uint64_t a0 = starts[si];
            for (uint32_t l = 0; l < w; l++)
                row[l] = a0 + l;
            for (int k = 0; k < 24; k++) {
                /* b around the ramp's ends, and random */
                const uint64_t b = k < 20 ? a0 + (uint64_t)(int64_t)(k - 3) +
                                            (k >= 10 ? w - 8 : 0)
                                          : rnd64();
                for (uint32_t l = 0; l < w; l++)
                    brow[l] = b;
                for (int ti = 0; ti < 4; ti++)
                    for (isa_binop c = ISA_BINOP_EQ; c <= ISA_BINOP_GE; c++) {
                        lanes_mask got = 0x5a5a;
                        const bool ok = lanes_fast_cmp_ramp(c, ts[ti], a0, a0 + (w - 1), b, w,
                                                            &got);
                        assert_int_equal(ok, ramp_fits(ts[ti], a0, w));
                        if (!ok) {
                            assert_int_equal(got, 0x5a5a);
                            declined++;
                            continue;
                        }
                        answered++;
                        for (uint32_t l = 0; l < w; l++)
                            if (((got >> l) & 1) != cmp_c(c, ts[ti], a0 + l, b))
                                fail_msg("cond %d type %d a0 %#llx b %#llx w %u lane %u", (int)c,
                                         (int)ts[ti], (unsigned long long)a0,
                                         (unsigned long long)b, w, l);
                        if (w < 64)
                            assert_int_equal(got >> w, 0);
                        lanes_fast_cmp_fn f = lanes_fast_cmp(c, ts[ti], w);
                        assert_non_null(f);
                        assert_int_equal(f(row, brow, w), got);
                    }
            }
        }
    assert_true(answered > 1000);
    assert_true(declined > 100);
    lanes_mask m = 0;
    assert_false(lanes_fast_cmp_ramp(ISA_BINOP_LT, ISA_T_F32, 0, 15, 3, 16, &m));
    assert_false(lanes_fast_cmp_ramp(ISA_BINOP_ADD, ISA_T_U32, 0, 15, 3, 16, &m));
}

static void test_row_copies(void **state)
{
    (void)state;
    static const uint32_t ws[] = { 1, 3, 4, 7, 8, 16, 32, 64 };
    rng_state = 0x13198a2e03707344u;
    for (size_t wi = 0; wi < sizeof ws / sizeof *ws; wi++) {
        const uint32_t w = ws[wi];
        uint8_t mem[64 * 4 + 8];
        uint64_t row[64 + 1], src[64];
        for (size_t i = 0; i < sizeof mem; i++)
            mem[i] = (uint8_t)rnd64();
        /* widen from an odd address: element l is bytes 1 + 4l .. 4 + 4l */
        row[w] = 0xdeadbeef;
        lanes_fast_widen32(row, mem + 1, w);
        for (uint32_t l = 0; l < w; l++) {
            const uint64_t want = (uint64_t)mem[1 + 4 * l] | (uint64_t)mem[2 + 4 * l] << 8 |
                                  (uint64_t)mem[3 + 4 * l] << 16 | (uint64_t)mem[4 + 4 * l] << 24;
            assert_int_equal(row[l], want);
        }
        assert_int_equal(row[w], 0xdeadbeef);
        /* narrow: the low 32 bits of each slot, nothing past the block */
        for (uint32_t l = 0; l < w; l++)
            src[l] = rnd64();
        memset(mem, 0xee, sizeof mem);
        lanes_fast_narrow32(mem + 3, src, w);
        for (uint32_t l = 0; l < w; l++)
            for (int b = 0; b < 4; b++)
                assert_int_equal(mem[3 + 4 * l + (uint32_t)b], (uint8_t)(src[l] >> (8 * b)));
        assert_int_equal(mem[2], 0xee);
        assert_int_equal(mem[3 + 4 * w], 0xee);
        /* a ramp row, also across 2^64 */
        const uint64_t v = wi & 1 ? UINT64_C(0xfffffffffffffffc) : rnd64();
        lanes_fast_ramp(row, v, w);
        for (uint32_t l = 0; l < w; l++)
            assert_int_equal(row[l], v + l);
        assert_int_equal(row[w], 0xdeadbeef);
    }
}

/* lanes_fast_simt_enter / lanes_fast_simt_ret against lanes_simt_reset /
 * lanes_simt_ret: after random divergent branches (stacks of several
 * entries, lanes already exited), the same depth, entries and exited
 * lanes; a fresh stack (no storage yet) and an empty entry mask take the
 * calls' own path. */
static void simt_same(const lanes_simt *a, const lanes_simt *b)
{
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->exited, b->exited);
    assert_int_equal(a->oom, b->oom);
    for (uint32_t i = 0; i < a->depth; i++) {
        assert_int_equal(a->e[i].pc, b->e[i].pc);
        assert_int_equal(a->e[i].rpc, b->e[i].rpc);
        assert_int_equal(a->e[i].mask, b->e[i].mask);
    }
}

static void test_simt_shortcuts(void **state)
{
    (void)state;
    rng_state = 0x5151;
    lanes_simt a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* no storage yet: both allocate */
    assert_int_equal(lanes_fast_simt_enter(&a, 0xffff), 0);
    assert_int_equal(lanes_simt_reset(&b, 0xffff, 0), 0);
    simt_same(&a, &b);
    assert_true(a.cap > 0);
    /* an empty mask: settled to an empty stack either way */
    assert_int_equal(lanes_fast_simt_enter(&a, 0), 0);
    assert_int_equal(lanes_simt_reset(&b, 0, 0), 0);
    simt_same(&a, &b);
    assert_int_equal(a.depth, 0);
    for (int it = 0; it < 2000; it++) {
        const uint32_t w = 1u + (uint32_t)(rnd64() % 64);
        const lanes_mask lanes = lanes_mask_first(w) & (rnd64() | 1);
        assert_int_equal(lanes_fast_simt_enter(&a, lanes), 0);
        assert_int_equal(lanes_simt_reset(&b, lanes, 0), 0);
        simt_same(&a, &b);
        assert_int_equal(a.depth, 1);
        assert_int_equal(a.e[0].mask, lanes);
        assert_int_equal(a.e[0].pc, 0);
        assert_int_equal(a.e[0].rpc, ISA_PC_EXIT);
        /* diverge a few times, then return until the stack empties */
        const int nb = (int)(rnd64() % 4);
        for (int k = 0; k < nb && a.depth; k++) {
            const lanes_mask t = rnd64();
            const uint32_t pc = lanes_simt_pc(&a);
            lanes_simt_branch(&a, t, pc + 10, pc + 1, pc + 20);
            lanes_simt_branch(&b, t, pc + 10, pc + 1, pc + 20);
            simt_same(&a, &b);
        }
        while (a.depth) {
            lanes_fast_simt_ret(&a);
            lanes_simt_ret(&b);
            simt_same(&a, &b);
        }
        /* a return on an empty stack changes nothing */
        lanes_fast_simt_ret(&a);
        lanes_simt_ret(&b);
        simt_same(&a, &b);
    }
    lanes_simt_free(&a);
    lanes_simt_free(&b);
}

/* the f16 kernels without F16C (lanes_fast_set_f16c), then back */
static int f16_sse2(void **state)
{
    (void)state;
    lanes_fast_set_f16c(false);
    return 0;
}

static int f16_default(void **state)
{
    (void)state;
    lanes_fast_set_f16c(true);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_values),
        cmocka_unit_test(test_float_values),
        cmocka_unit_test(test_cmp_values),
        cmocka_unit_test(test_no_kernel),
        cmocka_unit_test(test_differential),
        cmocka_unit_test_setup_teardown(test_differential, f16_sse2, f16_default),
        cmocka_unit_test(test_cvt_values),
        cmocka_unit_test(test_cvt_differential),
        cmocka_unit_test(test_uniform_shift),
        cmocka_unit_test(test_cmp_ramp),
        cmocka_unit_test(test_row_copies),
        cmocka_unit_test(test_simt_shortcuts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
