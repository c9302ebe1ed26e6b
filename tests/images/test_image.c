/* test_image.c - image element access (read_image*, write_image*, queries)
 * through sgemu_run, with expected values written from the OpenCL
 * conversion rules (UNORM8 v -> v/255, missing channels (0,0,0,1),
 * saturating integer writes, round-to-nearest normalised writes). */
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

static int run(const char *src, uint32_t gx, uint32_t gy, sgemu_argval *a, sgemu_fault *f)
{
    return run_grid(&cfg, src, 2, (const uint32_t[3]){ gx, gy, 1 }, a, f);
}

/* out[(y*W + x)*4 + c] = channel c of read_image<kind>(img, x+dx, y+dy) */
static const char *read_kernel(char *b, size_t n, const char *fn, const char *t,
                               const char *clamp, int dx, int dy)
{
    snprintf(b, n,
        ".kernel rd\n.arg img image2d read_only\n.arg out global %s\n"
        "  mov.u32 r0, %%global_id.x\n  mov.u32 r1, %%global_id.y\n"
        "  add.i32 r2, r0, %d\n  add.i32 r3, r1, %d\n"
        "  %s%s.%sx4 r4, %%img, r2, r3\n"
        "  mov.u32 r8, %%global_size.x\n  mad.u32 r8, r1, r8, r0\n  shl.u32 r8, r8, 2\n"
        "  st.global.%sx4 [%%out + r8*4], r4\n  ret\n", t, dx, dy, fn, clamp, t, t);
    return b;
}

static void test_read_unorm_and_float(void **state)
{
    (void)state;
    char src[1024];
    uint8_t px[4 * 2 * 1] = { 0, 51, 255, 128, 1, 2, 3, 4 };
    float out[2 * 4];
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNORM_INT8, 2, 1, px),
                          arg_buffer(out, sizeof out) };
    sgemu_fault f;
    assert_int_equal(run(read_kernel(src, sizeof src, "read_imagef", "f32", "", 0, 0), 2, 1, a, &f), 0);
    for (int i = 0; i < 8; i++)
        assert_true(out[i] == (float)px[i] / 255.0f);
    /* CL_R + UNORM16: (v/65535, 0, 0, 1) */
    uint16_t r16[2] = { 65535, 32768 };
    a[0] = arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNORM_INT16, 2, 1, r16);
    assert_int_equal(run(src, 2, 1, a, &f), 0);
    assert_true(out[0] == 1.0f && out[1] == 0.0f && out[2] == 0.0f && out[3] == 1.0f);
    assert_true(out[4] == 32768.0f / 65535.0f && out[7] == 1.0f);
    /* CL_RG + HALF: 1.5 = 0x3e00, -2 = 0xc000 */
    uint16_t hf[2 * 2] = { 0x3e00, 0xc000, 0x3c00, 0x0000 };
    a[0] = arg_image(SGEMU_ORDER_RG, SGEMU_CHTYPE_HALF_FLOAT, 2, 1, hf);
    assert_int_equal(run(src, 2, 1, a, &f), 0);
    assert_true(out[0] == 1.5f && out[1] == -2.0f && out[2] == 0.0f && out[3] == 1.0f);
    assert_true(out[4] == 1.0f && out[5] == 0.0f);
}

static void test_read_int_clamp_and_faults(void **state)
{
    (void)state;
    char src[1024];
    int8_t px[3 * 2] = { -1, 5, -128, 127, 0, -7 };
    int32_t out[3 * 2 * 4];
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_SIGNED_INT8, 3, 2, px),
                          arg_buffer(out, sizeof out) };
    sgemu_fault f;
    /* read at (x+1, y-1) with clamp-to-edge */
    assert_int_equal(run(read_kernel(src, sizeof src, "read_imagei", "i32", ".clamp", 1, -1),
                         3, 2, a, &f), 0);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            int xx = x + 1 > 2 ? 2 : x + 1, yy = y - 1 < 0 ? 0 : y - 1;
            int32_t *o = out + (y * 3 + x) * 4;
            assert_int_equal(o[0], px[yy * 3 + xx]);
            assert_int_equal(o[1], 0);
            assert_int_equal(o[3], 1);
        }
    /* without .clamp: a fault naming the image and the coordinate */
    assert_int_equal(run(read_kernel(src, sizeof src, "read_imagei", "i32", "", 1, -1),
                         3, 2, a, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "'img'"));
    assert_non_null(strstr(f.msg, "(1,-1)"));
    /* read_imageui on a signed image is undefined in OpenCL: reported */
    assert_int_equal(run(read_kernel(src, sizeof src, "read_imageui", "u32", "", 0, 0),
                         3, 2, a, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "CL_SIGNED_INT8"));
}

static void test_writes_and_queries(void **state)
{
    (void)state;
    char src[1024];
    /* write_imageui saturates to the channel: value = x*100 */
    snprintf(src, sizeof src,
        ".kernel wr\n.arg img image2d write_only\n"
        "  mov.u32 r0, %%global_id.x\n  mov.u32 r1, %%global_id.y\n"
        "  mul.u32 r4, r0, 100\n  mov.u32 r5, 7\n  mov.u32 r6, 0\n  mov.u32 r7, 0\n"
        "  write_imageui.u32x4 %%img, r0, r1, r4\n  ret\n");
    uint8_t px[4 * 2 * 2];
    memset(px, 0xee, sizeof px);
    sgemu_argval a[2] = { arg_image(SGEMU_ORDER_RG, SGEMU_CHTYPE_UNSIGNED_INT8, 4, 2, px) };
    sgemu_fault f;
    assert_int_equal(run(src, 4, 2, a, &f), 0);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++) {
            assert_int_equal(px[(y * 4 + x) * 2], x * 100 > 255 ? 255 : x * 100);
            assert_int_equal(px[(y * 4 + x) * 2 + 1], 7);
        }
    /* write_imagef to UNORM8: clamp to [0,1], *255, round to nearest even */
    snprintf(src, sizeof src,
        ".kernel wf\n.arg img image2d write_only\n.arg v global f32\n"
        "  mov.u32 r0, %%global_id.x\n  mov.u32 r1, 0\n"
        "  ld.global.f32 r4, [%%v + r0*4]\n"
        "  write_imagef.f32x4 %%img, r0, r1, r4\n  ret\n");
    float v[8] = { -0.5f, 0.0f, 0.5f, 1.0f, 2.0f, 0.1f, 254.5f / 255.0f, 1.5f / 255.0f };
    uint8_t u8[8];
    a[0] = arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNORM_INT8, 8, 1, u8);
    a[1] = arg_buffer(v, sizeof v);
    assert_int_equal(run(src, 8, 1, a, &f), 0);
    for (int i = 0; i < 8; i++) {
        float c = v[i] < 0 ? 0 : v[i] > 1 ? 1 : v[i];
        assert_int_equal(u8[i], (int)nearbyintf(c * 255.0f));
    }
    /* writing outside the image is a fault naming it */
    snprintf(src, sizeof src,
        ".kernel wo\n.arg img image2d write_only\n.arg v global f32\n"
        "  mov.u32 r0, %%global_id.x\n  mov.u32 r1, 3\n"
        "  write_imagef.f32x4 %%img, r0, r1, r4\n  ret\n");
    assert_int_equal(run(src, 8, 1, a, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "(0,3)"));
    /* queries */
    snprintf(src, sizeof src,
        ".kernel q\n.arg img image2d read_only\n.arg out global u32\n"
        "  get_image_width.u32 r0, %%img\n  get_image_height.u32 r1, %%img\n"
        "  st.global.u32 [%%out], r0\n  st.global.u32 [%%out + 4], r1\n  ret\n");
    uint32_t wh[2] = { 0, 0 };
    uint8_t tiny[5 * 3];
    a[0] = arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 5, 3, tiny);
    a[1] = arg_buffer(wh, sizeof wh);
    assert_int_equal(run(src, 1, 1, a, &f), 0);
    assert_int_equal(wh[0], 5);
    assert_int_equal(wh[1], 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_unorm_and_float),
        cmocka_unit_test(test_read_int_clamp_and_faults),
        cmocka_unit_test(test_writes_and_queries),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
