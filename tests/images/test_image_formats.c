/* test_image_formats.c - the CL_BGRA order and the CL_SNORM_INT8/16 types
 * through read_imagef / write_imagef / sampled reads / queries.  Expected
 * values come from the OpenCL C conversion rules written out here:
 *   read  SNORM: max(-1, c / 127) and max(-1, c / 32767), as float;
 *   write UNORM / SNORM: convert_<type>_sat_rte(f * max): the float product
 *         rounded half to even, saturated to the type, NaN to 0;
 *   BGRA: the kernel's (r, g, b, a) are stored as b, g, r, a. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sgemu.h"
#include "test_args.h"
#include "test_image_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static emu_config cfg;

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg);
}

static int run(const char *src, uint32_t gx, sgemu_argval *a, sgemu_fault *f)
{
    return run_grid(&cfg, src, 1, (const uint32_t[3]){ gx, 1, 1 }, a, f);
}

/* out[x*4 + c] = channel c of read_imagef(img, (x, 0)) */
static const char read_src[] =
    ".kernel rd\n.arg img image2d read_only\n.arg out global f32\n"
    "  mov.u32 r0, %global_id.x\n  mov.u32 r1, 0\n"
    "  read_imagef.f32x4 r4, %img, r0, r1\n"
    "  shl.u32 r8, r0, 2\n  st.global.f32x4 [%out + r8*4], r4\n  ret\n";

/* write_imagef(img, (x, 0), (v[4x], v[4x+1], v[4x+2], v[4x+3])) */
static const char write_src[] =
    ".kernel wr\n.arg img image2d write_only\n.arg v global f32\n"
    "  mov.u32 r0, %global_id.x\n  mov.u32 r1, 0\n  shl.u32 r8, r0, 2\n"
    "  ld.global.f32x4 r4, [%v + r8*4]\n"
    "  write_imagef.f32x4 %img, r0, r1, r4\n  ret\n";

/* Round half to even, by hand (the reference does not call the library's
 * rounding functions that the code under test uses). */
static double rte(double v)
{
    double fl = floor(v), fr = v - fl;
    if (fr > 0.5)
        return fl + 1;
    if (fr < 0.5)
        return fl;
    return fmod(fl, 2.0) == 0 ? fl : fl + 1;
}

/* convert_<type>_sat_rte(f * max) for a type of range [lo, hi] */
static long norm_ref(float f, float max, long lo, long hi)
{
    float p = f * max;                 /* the product, in float */
    if (p != p)
        return 0;
    if (p <= (float)lo)
        return lo;
    if (p >= (float)hi)
        return hi;
    return (long)rte((double)p);
}

/* Values that probe the rules: out of range, halfway cases, NaN, inf. */
static float probe(int i, float max)
{
    static const float fixed[] = { -2.0f, -1.0f, -0.0f, 0.0f, 1.0f, 2.0f, 0.5f, -0.5f,
                                   INFINITY, -INFINITY, NAN, 0.1f, -0.3f, 0.999f };
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    if (i < nf)
        return fixed[i];
    /* (k + 1/2) / max: the product is (close to) a halfway point */
    int k = (i - nf) % 9 - 4;
    return ((float)k * 31.0f + 0.5f) / max;
}

static void test_snorm_read(void **state)
{
    (void)state;
    sgemu_fault f;
    int8_t s8[4 * 4] = { -128, -127, -1, 0, 1, 64, 126, 127, -64, 100, -100, 5, 0, 0, 0, 0 };
    float out[4 * 4];
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_SNORM_INT8, 4, 1, s8),
                          arg_buffer(out, sizeof out) };
    assert_int_equal(run(read_src, 4, a, &f), 0);
    for (int i = 0; i < 16; i++) {
        double q = (double)s8[i] / 127.0;
        assert_true(out[i] == (float)(q < -1.0 ? -1.0 : q));
    }
    /* CL_RG + SNORM16: (r, g, 0, 1) */
    int16_t s16[2 * 4] = { -32768, -32767, 32767, 1, -2, 12345, 0, -16384 };
    a[0] = arg_image(SGEMU_ORDER_RG, SGEMU_CHTYPE_SNORM_INT16, 4, 1, s16);
    assert_int_equal(run(read_src, 4, a, &f), 0);
    for (int x = 0; x < 4; x++) {
        for (int c = 0; c < 2; c++) {
            double q = (double)s16[x * 2 + c] / 32767.0;
            assert_true(out[x * 4 + c] == (float)(q < -1.0 ? -1.0 : q));
        }
        assert_true(out[x * 4 + 2] == 0.0f && out[x * 4 + 3] == 1.0f);
    }
}

static void check_writes(sgemu_channel_order o, sgemu_channel_type t, float max, long lo,
                         long hi, int cb)
{
    enum { W = 16 };
    float v[W * 4];
    uint8_t img[W * 4 * 2];
    int nch = o == SGEMU_ORDER_R ? 1 : o == SGEMU_ORDER_RG ? 2 : 4;
    for (int i = 0; i < W * 4; i++)
        v[i] = probe(i, max);
    memset(img, 0xa5, sizeof img);
    sgemu_argval a[2] = { arg_image(o, t, W, 1, img), arg_buffer(v, sizeof v) };
    sgemu_fault f;
    assert_int_equal(run(write_src, W, a, &f), 0);
    for (int x = 0; x < W; x++)
        for (int c = 0; c < nch; c++) {
            const uint8_t *p = img + (x * nch + c) * cb;
            long got = cb == 1 ? (t == SGEMU_CHTYPE_UNORM_INT8 ? (long)p[0] : (long)(int8_t)p[0])
                               : (t == SGEMU_CHTYPE_UNORM_INT16
                                      ? (long)(uint16_t)(p[0] | p[1] << 8)
                                      : (long)(int16_t)(uint16_t)(p[0] | p[1] << 8));
            long want = norm_ref(v[x * 4 + c], max, lo, hi);
            if (got != want)
                fail_msg("channel type %d, order %d: write_imagef(%a) stored %ld, the rule "
                         "gives %ld", (int)t, (int)o, (double)v[x * 4 + c], got, want);
        }
}

static void test_norm_writes(void **state)
{
    (void)state;
    check_writes(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_SNORM_INT8, 127.0f, -128, 127, 1);
    check_writes(SGEMU_ORDER_R, SGEMU_CHTYPE_SNORM_INT16, 32767.0f, -32768, 32767, 2);
    check_writes(SGEMU_ORDER_RG, SGEMU_CHTYPE_SNORM_INT8, 127.0f, -128, 127, 1);
    check_writes(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8, 255.0f, 0, 255, 1);
    check_writes(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT16, 65535.0f, 0, 65535, 2);
}

static void test_bgra(void **state)
{
    (void)state;
    sgemu_fault f;
    /* stored b, g, r, a */
    uint8_t px[2 * 4] = { 10, 20, 30, 40, 255, 0, 128, 7 };
    float out[2 * 4];
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_BGRA, SGEMU_CHTYPE_UNORM_INT8, 2, 1, px),
                          arg_buffer(out, sizeof out) };
    assert_int_equal(run(read_src, 2, a, &f), 0);
    for (int x = 0; x < 2; x++) {
        const uint8_t *p = px + x * 4;
        assert_true(out[x * 4 + 0] == (float)((double)p[2] / 255.0));   /* r */
        assert_true(out[x * 4 + 1] == (float)((double)p[1] / 255.0));   /* g */
        assert_true(out[x * 4 + 2] == (float)((double)p[0] / 255.0));   /* b */
        assert_true(out[x * 4 + 3] == (float)((double)p[3] / 255.0));   /* a */
    }
    /* write (r, g, b, a) = (1, 0.5, 0, 0.2): stored b, g, r, a */
    float v[2 * 4] = { 1.0f, 0.5f, 0.0f, 0.2f, 0.0f, 0.25f, 0.75f, 1.0f };
    a[1] = arg_buffer(v, sizeof v);
    assert_int_equal(run(write_src, 2, a, &f), 0);
    for (int x = 0; x < 2; x++) {
        const float *c = v + x * 4;
        assert_int_equal(px[x * 4 + 0], norm_ref(c[2], 255.0f, 0, 255));
        assert_int_equal(px[x * 4 + 1], norm_ref(c[1], 255.0f, 0, 255));
        assert_int_equal(px[x * 4 + 2], norm_ref(c[0], 255.0f, 0, 255));
        assert_int_equal(px[x * 4 + 3], norm_ref(c[3], 255.0f, 0, 255));
    }
    /* a sampled read (nearest, unnormalised, clamp to edge: 0x12) swizzles alike */
    static const char smp_src[] =
        ".kernel sm\n.arg img image2d read_only\n.arg out global f32\n"
        "  mov.u32 r0, %global_id.x\n  cvt.f32.u32 r1, r0\n  add.f32 r1, r1, 0.5\n"
        "  mov.f32 r2, 0.5\n"
        "  sample_imagef.f32x4 r4, %img, r1, r2, 0x12\n"
        "  shl.u32 r8, r0, 2\n  st.global.f32x4 [%out + r8*4], r4\n  ret\n";
    a[1] = arg_buffer(out, sizeof out);
    assert_int_equal(run(smp_src, 2, a, &f), 0);
    for (int x = 0; x < 2; x++)
        assert_true(out[x * 4] == (float)((double)px[x * 4 + 2] / 255.0) &&
                    out[x * 4 + 2] == (float)((double)px[x * 4] / 255.0));
}

/* get_image_channel_order / _data_type: the SPIR-V enums (CLK_* - 0x10B0 /
 * 0x10D0): BGRA 6, SNORM_INT8 0, SNORM_INT16 1. */
static void test_queries(void **state)
{
    (void)state;
    static const char q_src[] =
        ".kernel q\n.arg img image2d read_only\n.arg out global u32\n"
        "  get_image_channel_order.u32 r0, %img\n  get_image_channel_data_type.u32 r1, %img\n"
        "  st.global.u32 [%out], r0\n  st.global.u32 [%out + 4], r1\n  ret\n";
    uint32_t out[2];
    uint8_t px[4];
    sgemu_fault f;
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_BGRA, SGEMU_CHTYPE_SNORM_INT8, 1, 1, px),
                          arg_buffer(out, sizeof out) };
    assert_int_equal(run(q_src, 1, a, &f), 0);
    assert_int_equal(out[0] + 0x10B0, 0x10B6);   /* CLK_BGRA */
    assert_int_equal(out[1] + 0x10D0, 0x10D0);   /* CLK_SNORM_INT8 */
    uint16_t p16[1];
    a[0] = arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_SNORM_INT16, 1, 1, p16);
    assert_int_equal(run(q_src, 1, a, &f), 0);
    assert_int_equal(out[0] + 0x10B0, 0x10B0);   /* CLK_R */
    assert_int_equal(out[1] + 0x10D0, 0x10D1);   /* CLK_SNORM_INT16 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snorm_read),
        cmocka_unit_test(test_norm_writes),
        cmocka_unit_test(test_bgra),
        cmocka_unit_test(test_queries),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
