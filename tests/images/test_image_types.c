/* test_image_types.c - the image types besides image2d and image3d in the
 * engine: image2d_array sampled reads (the layer is clamp(rint(layer), 0,
 * layers - 1), nearest and bilinear filtering on x and y, the border of
 * CLK_ADDRESS_CLAMP), image1d_array writes, get_image_array_size, and the
 * checks that keep the types apart.  The expected values are written from
 * the OpenCL C spec's formulas in double. */
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

static int assemble(const char *src, isa_kernel *k, char *msg, size_t cap)
{
    return test_assemble_diag("types.sgasm", src, k, msg, cap);
}

static int run(const char *src, uint32_t g0, uint32_t g1, sgemu_argval *a, sgemu_fault *f)
{
    return run_grid(&cfg, src, 2, (const uint32_t[3]){ g0, g1, 1 }, a, f);
}

enum { W = 3, H = 2, L = 3 };

/* texel (x, y, layer) of the test's 2D array */
static float value(int x, int y, int l)
{
    return (float)(x + 10 * y + 100 * l);
}

/* The OpenCL C reference, unnormalised coordinates: the layer, then a
 * nearest texel (clamp: -1 and n read the border, 0 for CL_R's red) or the
 * bilinear mix with clamp-to-edge. */
static long layer_of(double s)
{
    double r = nearbyint(s);          /* rint: half to even */
    return r < 0 ? 0 : r > L - 1 ? L - 1 : (long)r;
}

static double ref_nearest_clamp(double u, double v, double s)
{
    long i = (long)floor(u), j = (long)floor(v), l = layer_of(s);
    i = i < -1 ? -1 : i > W ? W : i;
    j = j < -1 ? -1 : j > H ? H : j;
    if (i < 0 || i >= W || j < 0 || j >= H)
        return 0.0;                   /* the border colour's red */
    return value((int)i, (int)j, (int)l);
}

static double ref_linear_edge(double u, double v, double s)
{
    long i0 = (long)floor(u - 0.5), j0 = (long)floor(v - 0.5), l = layer_of(s);
    double a = (u - 0.5) - floor(u - 0.5), b = (v - 0.5) - floor(v - 0.5);
    long i1 = i0 + 1, j1 = j0 + 1;
#define EDGE(k, n) ((k) < 0 ? 0 : (k) > (n) - 1 ? (n) - 1 : (k))
    i0 = EDGE(i0, W), i1 = EDGE(i1, W), j0 = EDGE(j0, H), j1 = EDGE(j1, H);
#undef EDGE
    return (1 - a) * (1 - b) * value((int)i0, (int)j0, (int)l) +
           a * (1 - b) * value((int)i1, (int)j0, (int)l) +
           (1 - a) * b * value((int)i0, (int)j1, (int)l) + a * b * value((int)i1, (int)j1, (int)l);
}

/* out[2n] = sampled (clamp, nearest), out[2n+1] = (clamp to edge, linear)
 * at the float4 coordinate co[n] = (x, y, layer, -) */
static const char smp_src[] =
    ".kernel sm\n.arg img image2d_array read_only\n.arg co global f32\n.arg out global f32\n"
    ".arg q global u32\n"
    "  mov.u32 r0, %global_id.x\n  shl.u32 r1, r0, 2\n  shl.u32 r2, r0, 3\n"
    "  add.u32 r3, r2, 4\n"
    "  ld.global.f32x4 r4, [%co + r1*4]\n"
    "  sample_imagevf.f32x4 r8, %img, r4, 0x14\n"
    "  sample_imagevf.f32x4 r12, %img, r4, 0x22\n"
    "  st.global.f32x4 [%out + r2*4], r8\n"
    "  st.global.f32x4 [%out + r3*4], r12\n"
    "  get_image_array_size.u32 r16, %img\n  get_image_width.u32 r17, %img\n"
    "  get_image_height.u32 r18, %img\n  get_image_depth.u32 r19, %img\n"
    "  st.global.u32x4 [%q + 0], r16\n  ret\n";

static void test_array2d_sampling(void **state)
{
    (void)state;
    float px[L][H][W];
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                px[l][y][x] = value(x, y, l);
    enum { N = 10 };
    const float co[N][4] = {
        { 0.5f, 0.5f, -0.6f, 0 }, { -0.5f, 1.5f, 1.5f, 0 }, { 2.5f, 1.2f, 2.5f, 0 },
        { 1.2f, 0.2f, 9.0f, 0 },  { 1.7f, 1.9f, 0.5f, 0 },  { 1.0f, 1.0f, 1.4f, 0 },
        { 2.9f, 0.7f, 1.5f, 0 },  { 0.1f, 2.4f, -3.0f, 0 }, { 3.2f, 0.6f, 0.49f, 0 },
        { 1.25f, 0.75f, 1.51f, 0 },
    };
    float out[N * 8];
    uint32_t q[4] = { 0, 0, 0, 0 };
    sgemu_argval a[4] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_FLOAT, W, H, px),
                          arg_buffer((void *)co, sizeof co), arg_buffer(out, sizeof out),
                          arg_buffer(q, sizeof q) };
    a[0].image.dims = 2;
    a[0].image.arrayed = 1;
    a[0].image.depth = L;
    a[0].image.slice_pitch = W * H * 4;
    sgemu_fault f;
    assert_int_equal(run(smp_src, N, 1, a, &f), 0);
    for (int n = 0; n < N; n++) {
        assert_true(out[8 * n] == (float)ref_nearest_clamp(co[n][0], co[n][1], co[n][2]));
        assert_true(out[8 * n + 3] == 1.0f);            /* CL_R: alpha 1 */
        double lin = ref_linear_edge(co[n][0], co[n][1], co[n][2]);
        assert_true(fabs(out[8 * n + 4] - lin) <= 1e-4 * (1 + fabs(lin)));
    }
    assert_int_equal(q[0], L);      /* get_image_array_size */
    assert_int_equal(q[1], W);
    assert_int_equal(q[2], H);
    assert_int_equal(q[3], 1);      /* no depth */
}

/* write_imagevui to an image1d_array at (x, layer) = (global id x, y) */
static const char wr_src[] =
    ".kernel wr\n.arg img image1d_array write_only\n"
    "  mov.u32 r4, %global_id.x\n  mov.u32 r5, %global_id.y\n  mov.u32 r6, 0\n"
    "  mov.u32 r7, 0\n"
    "  mad.u32 r8, r5, 16, r4\n  add.u32 r9, r8, 1\n  mov.u32 r10, 300\n  mov.u32 r11, 7\n"
    "  write_imagevui.u32x4 %img, r4, r8\n  ret\n";

static void test_array1d_writes(void **state)
{
    (void)state;
    enum { AW = 5, AL = 4, PITCH = AW * 4 + 4 };    /* layers padded by 4 bytes */
    uint8_t px[PITCH * AL];
    memset(px, 0xee, sizeof px);
    sgemu_argval a[1] = { arg_image(SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8, AW, AL, px) };
    a[0].image.dims = 1;
    a[0].image.arrayed = 1;
    a[0].image.pitch = PITCH;
    sgemu_fault f;
    assert_int_equal(run(wr_src, AW, AL, a, &f), 0);
    for (int l = 0; l < AL; l++) {
        for (int x = 0; x < AW; x++) {
            const uint8_t *t = px + l * PITCH + x * 4;
            assert_int_equal(t[0], l * 16 + x);
            assert_int_equal(t[1], l * 16 + x + 1);
            assert_int_equal(t[2], 255);          /* 300 saturates */
            assert_int_equal(t[3], 7);
        }
        for (int b = AW * 4; b < PITCH; b++)
            assert_int_equal(px[l * PITCH + b], 0xee);   /* the padding stays */
    }
    /* one layer past the array: a fault naming the type */
    assert_int_equal(run(wr_src, AW, AL + 1, a, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, "image1d_array"));
    assert_non_null(strstr(f.msg, ",4,0)"));
}

static void test_type_checks(void **state)
{
    (void)state;
    isa_kernel k;
    char msg[256];
    /* block I/O and the scalar-coordinate forms are image2d's */
    assert_int_not_equal(assemble(".kernel a\n.arg img image1d_array read_only\n"
                                  "  intel_sub_group_block_read_image.u32 r4, %img, r0, r1\n"
                                  "  ret\n", &k, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "image1d_array"));
    assert_int_not_equal(assemble(".kernel b\n.arg img image2d_array write_only\n"
                                  "  write_imagef.f32x4 %img, r0, r1, r4\n  ret\n",
                                  &k, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "image2d_array"));
    /* an image1d_buffer is not sampled */
    assert_int_not_equal(assemble(".kernel c\n.arg img image1d_buffer read_only\n"
                                  "  sample_imagevf.f32x4 r8, %img, r4, 0x10\n  ret\n",
                                  &k, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "image1d_buffer"));
    /* a 2D image bound to an image2d_array argument */
    float px[4] = { 0 }, co[4] = { 0 }, out[8];
    uint32_t q[4];
    sgemu_argval a[4] = { arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_FLOAT, 2, 2, px),
                          arg_buffer(co, sizeof co), arg_buffer(out, sizeof out),
                          arg_buffer(q, sizeof q) };
    sgemu_fault f;
    assert_int_not_equal(run(smp_src, 1, 1, a, &f), 0);
    assert_non_null(strstr(f.msg, "image2d_array"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array2d_sampling),
        cmocka_unit_test(test_array1d_writes),
        cmocka_unit_test(test_type_checks),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
