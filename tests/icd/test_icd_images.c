/* test_icd_images.c - the image types besides image2d_t and image3d_t
 * through the OpenCL platform: image1d_t, image1d_buffer_t (a view of a
 * buffer), image1d_array_t and image2d_array_t.  Every expected value is
 * written here from the OpenCL 3.0 API and OpenCL C specs: the device
 * limits, the origin / region rules per type, the host pitches of arrays,
 * the layer a sampled read of an array uses (clamp(rint(layer), 0,
 * layers - 1)), linear filtering along x, the aliasing of an image
 * buffer with its buffer, and 3D writes (cl_khr_3d_image_writes). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_cl.h"
#include "icd_session.h"

static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

static int setup(void **state)
{
    (void)state;
    cl_platform_id platform;
    return icd_open(&platform, &device, &ctx, &queue, NULL) ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    icd_close(ctx, queue);
    return 0;
}

static cl_kernel build(const char *src, const char *name, cl_program *prog)
{
    cl_int err;
    *prog = icd_build(ctx, device, src, "-cl-std=CL3.0");
    cl_kernel k = clCreateKernel(*prog, name, &err);
    CL_OK(err);
    return k;
}

static size_t image_info(cl_mem m, cl_image_info what)
{
    size_t v = 12345;
    CL_OK(clGetImageInfo(m, what, sizeof v, &v, NULL));
    return v;
}

/* The API spec's minimums for a device with images, and the minimum
 * format list for each of the new types. */
static void test_limits_and_formats(void **state)
{
    (void)state;
    cl_bool images = CL_FALSE;
    size_t buf_max = 0, array_max = 0;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    assert_true(images);
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof buf_max, &buf_max,
                          NULL));
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof array_max,
                          &array_max, NULL));
    assert_true(buf_max >= 65536);
    assert_true(array_max >= 2048);
    const cl_mem_object_type types[] = { CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                         CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                         CL_MEM_OBJECT_IMAGE2D_ARRAY };
    const cl_mem_flags flags[] = { CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
                                   CL_MEM_KERNEL_READ_AND_WRITE };
    for (size_t t = 0; t < 4; t++)
        for (size_t f = 0; f < 3; f++) {
            cl_image_format fmts[128];
            cl_uint n = 0;
            CL_OK(clGetSupportedImageFormats(ctx, flags[f], types[t], 128, fmts, &n));
            bool rgba8 = false, rgbaf = false, rf = false;
            for (cl_uint i = 0; i < n && i < 128; i++) {
                rgba8 |= fmts[i].image_channel_order == CL_RGBA &&
                         fmts[i].image_channel_data_type == CL_UNORM_INT8;
                rgbaf |= fmts[i].image_channel_order == CL_RGBA &&
                         fmts[i].image_channel_data_type == CL_FLOAT;
                rf |= fmts[i].image_channel_order == CL_R &&
                      fmts[i].image_channel_data_type == CL_FLOAT;
            }
            assert_true(rgba8 && rgbaf && rf);
        }
    /* sizes past the limits */
    cl_image_format fmt = { CL_R, CL_FLOAT };
    cl_int err;
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 4,
                        .image_array_size = array_max + 1 };
    assert_null(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    d.image_array_size = 0;
    assert_null(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
}

/* image1d_buffer_t: the image is the buffer's bytes.  A kernel reads what
 * the host wrote to the buffer, the buffer holds what a kernel wrote to
 * the image, and a host write to the image is read from the buffer. */
static void test_image_buffer_aliasing(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(read_only image1d_buffer_t in, write_only image1d_buffer_t out,\n"
        "              global uint4 *seen, global int *w) {\n"
        "    int x = get_global_id(0);\n"
        "    uint4 v = read_imageui(in, x);\n"
        "    seen[x] = v;\n"
        "    write_imageui(out, x, v * 2u + (uint4)(0, 1, 2, 3));\n"
        "    if (x == 0) w[0] = get_image_width(in);\n"
        "}\n";
    enum { N = 16 };
    cl_int err;
    cl_image_format fmt = { CL_RGBA, CL_UNSIGNED_INT32 };
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 16, NULL, &err);
    CL_OK(err);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 16 + 64, NULL, &err);
    CL_OK(err);
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = N,
                        .mem_object = bin };
    cl_mem iin = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err);
    CL_OK(err);
    d.mem_object = bout;
    cl_mem iout = clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CL_OK(err);
    /* what the image says about itself and its buffer */
    cl_mem got_buf = NULL, assoc = NULL;
    CL_OK(clGetImageInfo(iin, CL_IMAGE_BUFFER, sizeof got_buf, &got_buf, NULL));
    CL_OK(clGetMemObjectInfo(iin, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    assert_ptr_equal(got_buf, bin);
    assert_ptr_equal(assoc, bin);
    assert_int_equal(image_info(iin, CL_IMAGE_WIDTH), N);
    assert_int_equal(image_info(iin, CL_IMAGE_HEIGHT), 0);
    assert_int_equal(image_info(iin, CL_IMAGE_ARRAY_SIZE), 0);
    cl_mem_object_type mt = 0;
    cl_mem_flags mf = 0;
    CL_OK(clGetMemObjectInfo(iin, CL_MEM_TYPE, sizeof mt, &mt, NULL));
    CL_OK(clGetMemObjectInfo(iout, CL_MEM_FLAGS, sizeof mf, &mf, NULL));
    assert_int_equal(mt, CL_MEM_OBJECT_IMAGE1D_BUFFER);
    assert_true(mf & CL_MEM_READ_WRITE);          /* flags 0: the buffer's */

    uint32_t host[N * 4];
    for (int i = 0; i < N * 4; i++)
        host[i] = (uint32_t)(i * 7 + 3);
    CL_OK(clEnqueueWriteBuffer(queue, bin, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    cl_mem seen = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 16, NULL, &err);
    CL_OK(err);
    cl_mem w = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
    CL_OK(err);
    cl_program prog;
    cl_kernel k = build(src, "k", &prog);
    CL_OK(clSetKernelArg(k, 0, sizeof iin, &iin));
    CL_OK(clSetKernelArg(k, 1, sizeof iout, &iout));
    CL_OK(clSetKernelArg(k, 2, sizeof seen, &seen));
    CL_OK(clSetKernelArg(k, 3, sizeof w, &w));
    /* an image1d_t is not an image1d_buffer_t */
    cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = N };
    cl_mem plain = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &d1, NULL, &err);
    CL_OK(err);
    assert_int_equal(clSetKernelArg(k, 0, sizeof plain, &plain), CL_INVALID_MEM_OBJECT);
    size_t g = N;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    uint32_t got[N * 4], out[N * 4 + 16];
    int width = 0;
    CL_OK(clEnqueueReadBuffer(queue, seen, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, w, CL_TRUE, 0, 4, &width, 0, NULL, NULL));
    assert_int_equal(width, N);
    for (int i = 0; i < N * 4; i++) {
        assert_int_equal(got[i], host[i]);                       /* buffer -> image */
        assert_int_equal(out[i], host[i] * 2 + (uint32_t)(i % 4));   /* image -> buffer */
    }
    for (int i = N * 4; i < N * 4 + 16; i++)
        assert_int_equal(out[i], 0);                             /* past the image */
    /* a host write to the image lands in the buffer */
    uint32_t texel[4] = { 9, 8, 7, 6 };
    size_t origin[3] = { 5, 0, 0 }, region[3] = { 1, 1, 1 };
    CL_OK(clEnqueueWriteImage(queue, iin, CL_TRUE, origin, region, 0, 0, texel, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bin, CL_TRUE, 5 * 16, 16, got, 0, NULL, NULL));
    assert_memory_equal(got, texel, 16);
    /* errors: wider than the buffer, a host pointer, widened access */
    d.image_width = N + 5;
    assert_null(clCreateImage(ctx, 0, &fmt, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    d.image_width = N;
    assert_null(clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &fmt, &d, host, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY, N * 16, NULL, &err);
    CL_OK(err);
    d.mem_object = ro;
    assert_null(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* the buffer outlives a release while the image holds it */
    clReleaseMemObject(bin);
    CL_OK(clEnqueueReadImage(queue, iin, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
    assert_memory_equal(got, texel, 16);
    clReleaseMemObject(ro);
    clReleaseMemObject(plain);
    clReleaseMemObject(iin);
    clReleaseMemObject(iout);
    clReleaseMemObject(bout);
    clReleaseMemObject(seen);
    clReleaseMemObject(w);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* image1d_array_t: sampled reads take layer clamp(rint(y), 0, layers - 1);
 * linear filtering mixes texels along x only; integer reads and the
 * queries; a host write with a slice pitch (the host's layer spacing). */
static void test_image1d_array(void **state)
{
    (void)state;
    static const char *src =
        "constant sampler_t sn = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
        "                        CLK_FILTER_NEAREST;\n"
        "constant sampler_t sl = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
        "                        CLK_FILTER_LINEAR;\n"
        "kernel void k(read_only image1d_array_t a, global const float2 *c, global float *o,\n"
        "              global int *q) {\n"
        "    int i = get_global_id(0);\n"
        "    o[3 * i] = read_imagef(a, sn, c[i]).x;\n"
        "    o[3 * i + 1] = read_imagef(a, sl, c[i]).x;\n"
        "    o[3 * i + 2] = read_imagef(a, (int2)(i % 4, i % 3)).x;\n"
        "    if (i == 0) { q[0] = get_image_width(a); q[1] = get_image_array_size(a); }\n"
        "}\n";
    enum { W = 4, L = 3, NC = 8 };
    cl_int err;
    cl_image_format fmt = { CL_R, CL_FLOAT };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = W,
                        .image_array_size = L };
    cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err);
    CL_OK(err);
    assert_int_equal(image_info(a, CL_IMAGE_ARRAY_SIZE), L);
    assert_int_equal(image_info(a, CL_IMAGE_ROW_PITCH), W * 4);
    assert_int_equal(image_info(a, CL_IMAGE_SLICE_PITCH), W * 4);
    assert_int_equal(image_info(a, CL_IMAGE_HEIGHT), 0);
    assert_int_equal(image_info(a, CL_IMAGE_DEPTH), 0);
    /* texel (x, layer) = x + 10 layer, written from a host array whose
     * layers are 6 floats apart (slice pitch 24 bytes) */
    float host[L * 6];
    for (int l = 0; l < L; l++)
        for (int x = 0; x < 6; x++)
            host[l * 6 + x] = x < W ? (float)(x + 10 * l) : -99.0f;
    size_t origin[3] = { 0, 0, 0 }, region[3] = { W, L, 1 };
    CL_OK(clEnqueueWriteImage(queue, a, CL_TRUE, origin, region, 0, 24, host, 0, NULL, NULL));
    /* origin / region rules: region[2] must be 1, origin[2] 0 */
    size_t bad_region[3] = { W, L, 2 }, bad_origin[3] = { 0, 0, 1 };
    assert_int_equal(clEnqueueWriteImage(queue, a, CL_TRUE, origin, bad_region, 0, 0, host, 0,
                                         NULL, NULL), CL_INVALID_VALUE);
    region[1] = 1;
    assert_int_equal(clEnqueueWriteImage(queue, a, CL_TRUE, bad_origin, region, 0, 0, host, 0,
                                         NULL, NULL), CL_INVALID_VALUE);
    /* a slice pitch below the row pitch */
    region[1] = L;
    assert_int_equal(clEnqueueWriteImage(queue, a, CL_TRUE, origin, region, 0, 8, host, 0,
                                         NULL, NULL), CL_INVALID_VALUE);

    const float coords[NC][2] = { { 0.5f, -1.7f }, { 1.5f, 0.4f }, { 2.5f, 0.5f },
                                  { 3.5f, 1.5f }, { 1.0f, 2.5f }, { 2.0f, 7.0f },
                                  { 0.25f, 1.49f }, { 3.9f, 0.51f } };
    cl_mem cb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof coords,
                               (void *)coords, &err);
    CL_OK(err);
    cl_mem ob = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NC * 3 * sizeof(float), NULL, &err);
    CL_OK(err);
    cl_mem qb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, &err);
    CL_OK(err);
    cl_program prog;
    cl_kernel k = build(src, "k", &prog);
    CL_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CL_OK(clSetKernelArg(k, 1, sizeof cb, &cb));
    CL_OK(clSetKernelArg(k, 2, sizeof ob, &ob));
    CL_OK(clSetKernelArg(k, 3, sizeof qb, &qb));
    size_t g = NC;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    float o[NC * 3];
    int q[2];
    CL_OK(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, qb, CL_TRUE, 0, sizeof q, q, 0, NULL, NULL));
    assert_int_equal(q[0], W);
    assert_int_equal(q[1], L);
    /* the layers rint() rounds to (half to even), clamped to [0, 2] */
    const int layer[NC] = { 0, 0, 0, 2, 2, 2, 1, 1 };
    for (int i = 0; i < NC; i++) {
        float u = coords[i][0];
        int xn = (int)floorf(u);
        xn = xn < 0 ? 0 : xn > W - 1 ? W - 1 : xn;
        /* linear: i0 = floor(u - 0.5), a = frac(u - 0.5), both clamped */
        int i0 = (int)floorf(u - 0.5f), i1 = i0 + 1;
        float frac = (u - 0.5f) - floorf(u - 0.5f);
        i0 = i0 < 0 ? 0 : i0 > W - 1 ? W - 1 : i0;
        i1 = i1 < 0 ? 0 : i1 > W - 1 ? W - 1 : i1;
        float lin = (1 - frac) * (float)(i0 + 10 * layer[i]) + frac * (float)(i1 + 10 * layer[i]);
        assert_true(o[3 * i] == (float)(xn + 10 * layer[i]));
        assert_true(fabsf(o[3 * i + 1] - lin) <= 1e-5f);
        assert_true(o[3 * i + 2] == (float)(i % 4 + 10 * (i % 3)));
    }
    /* read back packed: the host gap is gone */
    float back[W * L];
    CL_OK(clEnqueueReadImage(queue, a, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    for (int l = 0; l < L; l++)
        for (int x = 0; x < W; x++)
            assert_true(back[l * W + x] == (float)(x + 10 * l));
    /* a 1D array's layers copy to a 2D image's rows */
    cl_image_desc d2 = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W,
                         .image_height = L };
    cl_mem two = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d2, NULL, &err);
    CL_OK(err);
    size_t so[3] = { 1, 1, 0 }, dst[3] = { 0, 0, 0 }, cr[3] = { 3, 2, 1 };
    CL_OK(clEnqueueCopyImage(queue, a, two, so, dst, cr, 0, NULL, NULL));
    float two_back[W * L];
    size_t r2[3] = { W, L, 1 };
    CL_OK(clEnqueueReadImage(queue, two, CL_TRUE, origin, r2, 0, 0, two_back, 0, NULL, NULL));
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            assert_true(two_back[y * W + x] == (float)(x + 1 + 10 * (y + 1)));
    clReleaseMemObject(two);
    clReleaseMemObject(a);
    clReleaseMemObject(cb);
    clReleaseMemObject(ob);
    clReleaseMemObject(qb);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* image2d_array_t: kernel writes at (x, y, layer), the host reads a box,
 * fills one layer and maps another; image1d_t reads and writes. */
static void test_image2d_array_and_1d(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(write_only image2d_array_t a, read_only image1d_t r,\n"
        "              write_only image1d_t w, global int *q) {\n"
        "    int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);\n"
        "    write_imageui(a, (int4)(x, y, l, 0), (uint4)(100 + x + 3 * y + 6 * l, 0, 0, 0));\n"
        "    if (y == 0 && l == 0) write_imagei(w, x, read_imagei(r, x) * -2);\n"
        "    if (x + y + l == 0) {\n"
        "        int2 dim = get_image_dim(a);\n"
        "        q[0] = dim.x; q[1] = dim.y; q[2] = get_image_array_size(a);\n"
        "        q[3] = get_image_width(r);\n"
        "    }\n"
        "}\n";
    enum { W = 3, H = 2, L = 4 };
    cl_int err;
    cl_image_format fmt = { CL_R, CL_UNSIGNED_INT16 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W,
                        .image_height = H, .image_array_size = L };
    cl_mem a = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
    CL_OK(err);
    assert_int_equal(image_info(a, CL_IMAGE_ARRAY_SIZE), L);
    assert_int_equal(image_info(a, CL_IMAGE_SLICE_PITCH), W * H * 2);
    assert_int_equal(image_info(a, CL_IMAGE_DEPTH), 0);
    cl_image_format ifmt = { CL_RGBA, CL_SIGNED_INT8 };
    cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = W };
    int8_t init[W * 4];
    for (int i = 0; i < W * 4; i++)
        init[i] = (int8_t)(i * 9 - 40);
    cl_mem r = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &ifmt, &d1, init,
                             &err);
    CL_OK(err);
    cl_mem w = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &ifmt, &d1, NULL, &err);
    CL_OK(err);
    cl_mem qb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), NULL, &err);
    CL_OK(err);
    cl_program prog;
    cl_kernel k = build(src, "k", &prog);
    CL_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CL_OK(clSetKernelArg(k, 1, sizeof r, &r));
    CL_OK(clSetKernelArg(k, 2, sizeof w, &w));
    CL_OK(clSetKernelArg(k, 3, sizeof qb, &qb));
    size_t g[3] = { W, H, L };
    CL_OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, g, NULL, 0, NULL, NULL));
    int q[4];
    CL_OK(clEnqueueReadBuffer(queue, qb, CL_TRUE, 0, sizeof q, q, 0, NULL, NULL));
    assert_int_equal(q[0], W);
    assert_int_equal(q[1], H);
    assert_int_equal(q[2], L);
    assert_int_equal(q[3], W);
    /* a box: x 1..2, y 1, layers 2..3 */
    uint16_t box[2 * 2];
    size_t origin[3] = { 1, 1, 2 }, region[3] = { 2, 1, 2 };
    CL_OK(clEnqueueReadImage(queue, a, CL_TRUE, origin, region, 0, 0, box, 0, NULL, NULL));
    for (int l = 0; l < 2; l++)
        for (int x = 0; x < 2; x++)
            assert_int_equal(box[l * 2 + x], 100 + (x + 1) + 3 * 1 + 6 * (l + 2));
    size_t past[3] = { 0, 0, 3 };
    assert_int_equal(clEnqueueReadImage(queue, a, CL_TRUE, past, region, 0, 0, box, 0, NULL,
                                        NULL), CL_INVALID_VALUE);
    /* fill layer 1, then map it */
    cl_uint4 colour = { { 77, 1, 2, 3 } };
    size_t lo[3] = { 0, 0, 1 }, lr[3] = { W, H, 1 };
    CL_OK(clEnqueueFillImage(queue, a, &colour, lo, lr, 0, NULL, NULL));
    size_t rp = 0, sp = 0;
    uint16_t *p = clEnqueueMapImage(queue, a, CL_TRUE, CL_MAP_READ, lo, lr, &rp, &sp, 0, NULL,
                                    NULL, &err);
    CL_OK(err);
    assert_int_equal(rp, W * 2);
    assert_int_equal(sp, W * H * 2);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(p[y * (rp / 2) + x], 77);
    assert_int_equal(p[sp / 2], 100 + 6 * 2);   /* layer 2 follows, untouched */
    CL_OK(clEnqueueUnmapMemObject(queue, a, p, 0, NULL, NULL));
    /* the array slice pitch is required of a map */
    assert_null(clEnqueueMapImage(queue, a, CL_TRUE, CL_MAP_READ, lo, lr, &rp, NULL, 0, NULL,
                                  NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* image1d_t: written -2 x the texel, saturated to int8; a 1D image
     * takes no slice pitch and region[1] 1 only */
    int8_t out[W * 4];
    size_t o1[3] = { 0, 0, 0 }, r1[3] = { W, 1, 1 }, r1bad[3] = { W, 2, 1 };
    CL_OK(clEnqueueReadImage(queue, w, CL_TRUE, o1, r1, 0, 0, out, 0, NULL, NULL));
    for (int i = 0; i < W * 4; i++) {
        int v = -2 * init[i];
        assert_int_equal(out[i], v < -128 ? -128 : v > 127 ? 127 : v);
    }
    assert_int_equal(clEnqueueReadImage(queue, w, CL_TRUE, o1, r1bad, 0, 0, out, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(queue, w, CL_TRUE, o1, r1, 0, 64, out, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    sp = 99;
    int8_t *m = clEnqueueMapImage(queue, w, CL_TRUE, CL_MAP_READ, o1, r1, &rp, &sp, 0, NULL,
                                  NULL, &err);
    CL_OK(err);
    assert_int_equal(sp, 0);
    assert_memory_equal(m, out, sizeof out);
    CL_OK(clEnqueueUnmapMemObject(queue, w, m, 0, NULL, NULL));
    clFinish(queue);
    clReleaseMemObject(a);
    clReleaseMemObject(r);
    clReleaseMemObject(w);
    clReleaseMemObject(qb);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* cl_khr_3d_image_writes: claimed, 3D formats listed for kernel writes,
 * and write_imagef to an image3d_t stores convert_uchar_sat_rte(f * 255)
 * at (x, y, z). */
static void test_image3d_writes(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(write_only image3d_t v) {\n"
        "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
        "    write_imagef(v, (int4)(x, y, z, 0), (float4)(x, y, z, 4) / 3.0f);\n"
        "}\n";
    char ext[4096] = "";
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    assert_non_null(strstr(ext, "cl_khr_3d_image_writes"));
    cl_image_format fmts[128];
    cl_uint n = 0;
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE3D, 128, fmts,
                                     &n));
    bool rgba8 = false;
    for (cl_uint i = 0; i < n && i < 128; i++)
        rgba8 |= fmts[i].image_channel_order == CL_RGBA &&
                 fmts[i].image_channel_data_type == CL_UNORM_INT8;
    assert_true(rgba8);
    enum { S = 3 };
    cl_int err;
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = S,
                        .image_height = S, .image_depth = S };
    cl_mem v = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &d, NULL, &err);
    CL_OK(err);
    cl_program prog;
    cl_kernel k = build(src, "k", &prog);
    CL_OK(clSetKernelArg(k, 0, sizeof v, &v));
    size_t g[3] = { S, S, S };
    CL_OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, g, NULL, 0, NULL, NULL));
    uint8_t out[S * S * S * 4];
    size_t origin[3] = { 0, 0, 0 };
    CL_OK(clEnqueueReadImage(queue, v, CL_TRUE, origin, g, 0, 0, out, 0, NULL, NULL));
    for (int z = 0; z < S; z++)
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) {
                const int c[4] = { x, y, z, 4 };
                for (int ch = 0; ch < 4; ch++) {
                    float f = (float)c[ch] / 3.0f * 255.0f;
                    float r = nearbyintf(f);
                    int want = r > 255.0f ? 255 : (int)r;
                    assert_int_equal(out[((z * S + y) * S + x) * 4 + ch], want);
                }
            }
    clReleaseMemObject(v);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limits_and_formats),
        cmocka_unit_test(test_image_buffer_aliasing),
        cmocka_unit_test(test_image1d_array),
        cmocka_unit_test(test_image2d_array_and_1d),
        cmocka_unit_test(test_image3d_writes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
