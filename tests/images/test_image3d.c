/* test_image3d.c - image3d_t reads: read_imagev* with integer coordinates,
 * sample_imagev* with OpenCL C addressing and filtering on three axes,
 * get_image_depth, and the checks that keep 2D and 3D images apart.  The
 * expected values are written from the OpenCL C spec's formulas (texel
 * selection and trilinear weights), in double. */
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
    return test_assemble_diag("img3.sgasm", src, k, msg, cap);
}

static int run(const char *src, const uint32_t g[3], sgemu_argval *a, sgemu_fault *f)
{
    return run_grid(&cfg, src, 3, g, a, f);
}

static sgemu_argval image3d(sgemu_channel_order o, sgemu_channel_type t, uint32_t w, uint32_t h,
                            uint32_t d, uint64_t slice_pitch, void *data)
{
    sgemu_argval v = arg_image(o, t, w, h, data);
    v.image.dims = 3;
    v.image.depth = d;
    v.image.slice_pitch = slice_pitch;
    return v;
}

/* out[((z*H + y)*W + x)*4 + c] = read_imagevf(img, (int4)(x, y, z, 0)).c */
static const char read_src[] =
    ".kernel rd\n.arg img image3d read_only\n.arg out global f32\n"
    "  mov.u32 r4, %global_id.x\n  mov.u32 r5, %global_id.y\n  mov.u32 r6, %global_id.z\n"
    "  mov.u32 r7, 0\n"
    "  read_imagevf.f32x4 r8, %img, r4\n"
    "  mov.u32 r12, %global_size.y\n  mad.u32 r12, r6, r12, r5\n"
    "  mov.u32 r13, %global_size.x\n  mad.u32 r12, r12, r13, r4\n  shl.u32 r12, r12, 2\n"
    "  st.global.f32x4 [%out + r12*4], r8\n  ret\n";

static void test_read_integer_coords(void **state)
{
    (void)state;
    enum { W = 3, H = 2, D = 3, PITCH = W * 4, SLICE = PITCH * H + 8 };  /* padded slices */
    uint8_t px[SLICE * D];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 37 + 11);
    float out[W * H * D * 4];
    uint32_t g[3] = { W, H, D };
    sgemu_argval a[2] = { image3d(SGEMU_ORDER_BGRA, SGEMU_CHTYPE_UNORM_INT8, W, H, D, SLICE, px),
                          arg_buffer(out, sizeof out) };
    sgemu_fault f;
    assert_int_equal(run(read_src, g, a, &f), 0);
    static const int stored[4] = { 2, 1, 0, 3 };    /* BGRA: where r, g, b, a are */
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    uint8_t v = px[z * SLICE + y * PITCH + x * 4 + stored[c]];
                    assert_true(out[((z * H + y) * W + x) * 4 + c] == (float)(v / 255.0));
                }
    /* a coordinate outside, without a sampler: a fault naming all three */
    uint32_t g2[3] = { W, H, D + 1 };
    float big[W * H * (D + 1) * 4];
    a[1] = arg_buffer(big, sizeof big);
    assert_int_equal(run(read_src, g2, a, &f), SGEMU_EXIT_FAULT);
    assert_non_null(strstr(f.msg, ",3)"));
    assert_non_null(strstr(f.msg, "3x2x3"));
}

/* Spec reference, one axis: nearest texel, or linear i0, i1 and weight. */
static long ref_nearest(double u, long n, int addr)
{
    long i = (long)floor(u);
    if (addr == 2)   /* clamp to edge */
        return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    return i < -1 ? -1 : i > n ? n : i;    /* clamp: -1 / n read the border */
}

static void ref_linear(double u, long n, int addr, long i[2], double *a)
{
    i[0] = (long)floor(u - 0.5);
    i[1] = i[0] + 1;
    *a = (u - 0.5) - floor(u - 0.5);
    for (int k = 0; k < 2; k++)
        i[k] = addr == 2 ? (i[k] < 0 ? 0 : i[k] > n - 1 ? n - 1 : i[k])
                         : (i[k] < -1 ? -1 : i[k] > n ? n : i[k]);
}

enum { SW = 4, SH = 3, SD = 2 };
static float fimg[SD][SH][SW];

/* CL_R + CL_FLOAT texel; outside: the border (0, 0, 0, 1): r is 0 */
static double ref_texel(long i, long j, long k)
{
    if (i < 0 || j < 0 || k < 0 || i >= SW || j >= SH || k >= SD)
        return 0.0;
    return fimg[k][j][i];
}

/* sample_imagevf at coordinates read from a float4 buffer */
static const char smp_src[] =
    ".kernel sm\n.arg img image3d read_only\n.arg co global f32\n.arg out global f32\n"
    ".arg smp u32\n"
    "  mov.u32 r0, %global_id.x\n  shl.u32 r1, r0, 2\n"
    "  ld.global.f32x4 r4, [%co + r1*4]\n"
    "  sample_imagevf.f32x4 r8, %img, r4, %smp\n"
    "  st.global.f32x4 [%out + r1*4], r8\n  ret\n";

static void test_sampling(void **state)
{
    (void)state;
    for (int k = 0; k < SD; k++)
        for (int j = 0; j < SH; j++)
            for (int i = 0; i < SW; i++)
                fimg[k][j][i] = (float)(i * 1.5 - j * 4.0 + k * 10.25 + 0.125 * (i * j));
    enum { N = 16 };
    float co[N * 4], out[N * 4];
    for (int n = 0; n < N; n++) {   /* inside, at texel edges and outside */
        co[n * 4 + 0] = -0.3f + 0.09f * (float)n;
        co[n * 4 + 1] = 1.1f - 0.08f * (float)n;
        co[n * 4 + 2] = (float)(n % 5) * 0.3f - 0.2f;
        co[n * 4 + 3] = 0.0f;
    }
    co[0] = 0.5f / SW, co[1] = 0.5f / SH, co[2] = 0.5f / SD;   /* a texel centre */
    uint32_t g[3] = { N, 1, 1 };
    /* normalised (1) + clamp to edge (2) or clamp (4) + linear (0x20) or nearest (0x10) */
    static const uint32_t samplers[] = { 0x23, 0x25, 0x13, 0x15 };
    for (size_t s = 0; s < sizeof samplers / sizeof samplers[0]; s++) {
        uint32_t smp = samplers[s];
        int addr = (int)(smp & 0xe);
        sgemu_argval a[4] = {
            image3d(SGEMU_ORDER_R, SGEMU_CHTYPE_FLOAT, SW, SH, SD, SW * SH * 4, fimg),
            arg_buffer(co, sizeof co), arg_buffer(out, sizeof out), arg_scalar(smp) };
        sgemu_fault f;
        assert_int_equal(run(smp_src, g, a, &f), 0);
        for (int n = 0; n < N; n++) {
            double u = co[n * 4] * (double)SW, v = co[n * 4 + 1] * (double)SH,
                   w = co[n * 4 + 2] * (double)SD;
            double want;
            if (smp & 0x20) {
                long i[2], j[2], k[2];
                double A, B, C;
                ref_linear(u, SW, addr, i, &A);
                ref_linear(v, SH, addr, j, &B);
                ref_linear(w, SD, addr, k, &C);
                want = 0;
                for (int p = 0; p < 2; p++)
                    for (int q = 0; q < 2; q++)
                        for (int r = 0; r < 2; r++)
                            want += (p ? A : 1 - A) * (q ? B : 1 - B) * (r ? C : 1 - C) *
                                    ref_texel(i[p], j[q], k[r]);
            } else {
                want = ref_texel(ref_nearest(u, SW, addr), ref_nearest(v, SH, addr),
                                 ref_nearest(w, SD, addr));
            }
            if (fabs(out[n * 4] - want) > 1e-4 * (1 + fabs(want)))
                fail_msg("sampler 0x%x at (%g, %g, %g): %.9g, the spec gives %.9g", smp,
                         (double)co[n * 4], (double)co[n * 4 + 1], (double)co[n * 4 + 2],
                         (double)out[n * 4], want);
            assert_true(out[n * 4 + 1] == 0.0f && out[n * 4 + 2] == 0.0f);
            /* alpha is 1 in every texel and the border: the weights' sum */
            assert_true(fabsf(out[n * 4 + 3] - 1.0f) <= 1e-6f);
        }
    }
}

static void test_depth_and_checks(void **state)
{
    (void)state;
    static const char q_src[] =
        ".kernel q\n.arg img image3d read_only\n.arg out global u32\n"
        "  get_image_width.u32 r0, %img\n  get_image_height.u32 r1, %img\n"
        "  get_image_depth.u32 r2, %img\n"
        "  st.global.u32 [%out], r0\n  st.global.u32 [%out + 4], r1\n"
        "  st.global.u32 [%out + 8], r2\n  ret\n";
    uint32_t out[3];
    uint8_t px[5 * 3 * 7];
    uint32_t g[3] = { 1, 1, 1 };
    sgemu_argval a[2] = { image3d(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 5, 3, 7, 15, px),
                          arg_buffer(out, sizeof out) };
    sgemu_fault f;
    assert_int_equal(run(q_src, g, a, &f), 0);
    assert_int_equal(out[0], 5);
    assert_int_equal(out[1], 3);
    assert_int_equal(out[2], 7);
    /* a 2D image bound to an image3d argument: a clear error */
    a[0] = arg_image(SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT8, 5, 3, px);
    assert_int_not_equal(run(q_src, g, a, &f), 0);
    assert_non_null(strstr(f.msg, "image3d"));
    /* 2D instructions on a 3D image, and 3D ones on a 2D image, do not assemble */
    isa_kernel k;
    char msg[256];
    assert_int_not_equal(assemble(".kernel a\n.arg img image3d read_only\n"
                                  "  read_imagef.f32x4 r4, %img, r0, r1\n  ret\n",
                                  &k, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "image3d"));
    assert_int_not_equal(assemble(".kernel b\n.arg img image2d read_only\n"
                                  "  read_imagevf.f32x4 r4, %img, r0\n  ret\n",
                                  &k, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "any type but image2d"));
    assert_int_not_equal(assemble(".kernel c\n.arg img image3d write_only\n"
                                  "  write_imagef.f32x4 %img, r0, r1, r4\n  ret\n",
                                  &k, msg, sizeof msg), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_integer_coords),
        cmocka_unit_test(test_sampling),
        cmocka_unit_test(test_depth_and_checks),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
