/* test_pocl.c - cross-check: the OpenCL C kernels that use no sub-group
 * features run on the first OpenCL platform (PoCL: Debian's pocl-opencl-icd)
 * and through `sgemu run K.cl` with the same inputs; every output must agree
 * bit for bit at SIMD8/16/32. No platform (or no OpenCL headers at build time) is a skip
 * with the reason (exit 77), never a pass. */
#define CL_TARGET_OPENCL_VERSION 120
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_cl.h"

#ifdef SGEMU_HAVE_OPENCL
#include "ocl_host.h"

/* One kernel argument, described once for both runs. */
typedef enum { A_IN, A_OUT, A_U32, A_LOCAL, A_IMG_IN, A_IMG_OUT } arg_kind;

typedef struct {
    const char *name;
    arg_kind kind;
    const char *type;          /* OpenCL scalar type name (buffers) */
    size_t bytes;              /* buffer / local size; image: bytes of all rows */
    uint32_t value;            /* A_U32 */
    size_t cmp_bytes;          /* outputs: bytes compared (0: all) */
    float tol;                 /* float outputs: largest difference allowed (0: bit exact) */
    unsigned w, h;             /* images */
    cl_channel_order order;
    cl_channel_type chtype;
    const char *sg_order, *sg_type;
    void *data;                /* inputs: contents; outputs: the PoCL result */
} karg;

typedef struct {
    const char *file, *kernel;
    unsigned dims;
    size_t global[2], local[2];
    karg args[8];
    unsigned nargs;
} kcase;

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;
/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(void)
{
    return (uint32_t)(cli_rand(&rng) >> 32);
}

static void *random_bytes(size_t n)
{
    uint8_t *p = malloc(n);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
    return p;
}

/* Run the case on the OpenCL device; outputs land in args[].data. */
static void run_ocl(kcase *k)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", cli_src(), k->file);
    char *src = file_read_all(path, &len);
    assert_non_null(src);
    cl_int err;
    char log[8192];
    const char *step;
    cl_program prog = ocl_build(ctx, device, src, len, &err, &step, log, sizeof log);
    if (!prog)
        fail_msg("building %s on OpenCL failed: %s: OpenCL error %d\n%s", k->file, step,
                 (int)err, log);
    free(src);
    cl_kernel kern = clCreateKernel(prog, k->kernel, &err);
    CL_OK(err);
    cl_mem mem[8] = { 0 };
    for (unsigned i = 0; i < k->nargs; i++) {
        karg *a = &k->args[i];
        switch (a->kind) {
        case A_IN:
        case A_OUT:
            mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->bytes,
                                    a->data, &err);
            CL_OK(err);
            CL_OK(clSetKernelArg(kern, i, sizeof(cl_mem), &mem[i]));
            break;
        case A_U32:
            CL_OK(clSetKernelArg(kern, i, sizeof(cl_uint), &a->value));
            break;
        case A_LOCAL:
            CL_OK(clSetKernelArg(kern, i, a->bytes, NULL));
            break;
        case A_IMG_IN:
        case A_IMG_OUT: {
            cl_image_format fmt = { a->order, a->chtype };
            cl_mem_flags fl = a->kind == A_IMG_IN ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY;
            cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = a->w,
                                   .image_height = a->h };
            mem[i] = clCreateImage(ctx, fl | CL_MEM_COPY_HOST_PTR, &fmt, &desc, a->data, &err);
            CL_OK(err);
            CL_OK(clSetKernelArg(kern, i, sizeof(cl_mem), &mem[i]));
            break;
        }
        }
    }
    CL_OK(clEnqueueNDRangeKernel(queue, kern, k->dims, NULL, k->global, k->local, 0, NULL,
                                 NULL));
    for (unsigned i = 0; i < k->nargs; i++) {
        karg *a = &k->args[i];
        if (a->kind == A_OUT)
            CL_OK(clEnqueueReadBuffer(queue, mem[i], CL_TRUE, 0, a->bytes, a->data, 0, NULL,
                                      NULL));
        if (a->kind == A_IMG_OUT) {
            size_t origin[3] = { 0, 0, 0 }, region[3] = { a->w, a->h, 1 };
            CL_OK(clEnqueueReadImage(queue, mem[i], CL_TRUE, origin, region, 0, 0, a->data, 0,
                                     NULL, NULL));
        }
    }
    CL_OK(clFinish(queue));
    for (unsigned i = 0; i < k->nargs; i++)
        if (mem[i])
            clReleaseMemObject(mem[i]);
    clReleaseKernel(kern);
    clReleaseProgram(prog);
}

/* Run the case through sgemu with the inputs it had before run_ocl (the
 * caller writes them first) and compare each output with PoCL's. */
static void run_sgemu_and_compare(const kcase *k)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "run %s --kernel %s --sg 8,16,32 --global %zu", k->file,
                     k->kernel, k->global[0]);
    if (k->dims == 2)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, ",%zu", k->global[1]);
    n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --local %zu", k->local[0]);
    if (k->dims == 2)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, ",%zu", k->local[1]);
    for (unsigned i = 0; i < k->nargs; i++) {
        const karg *a = &k->args[i];
        const char *t = a->type;
        switch (a->kind) {
        case A_IN:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --arg %s=%s:@%s/%s.in", a->name,
                          t, tmpdir, a->name);
            break;
        case A_OUT:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n,
                          " --arg %s=%s:@%s/%s.in --out %s=%s/%s.out", a->name, t, tmpdir,
                          a->name, a->name, tmpdir, a->name);
            break;
        case A_U32:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --arg %s=%u", a->name, a->value);
            break;
        case A_LOCAL:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --arg %s=local:%zu", a->name,
                          a->bytes);
            break;
        case A_IMG_IN:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --arg %s=image2d:%ux%u:%s:%s:@%s/%s.in",
                          a->name, a->w, a->h, a->sg_order, a->sg_type, tmpdir, a->name);
            break;
        case A_IMG_OUT:
            n += snprintf(cmd + n, sizeof cmd - (size_t)n,
                          " --arg %s=image2d:%ux%u:%s:%s:zeros --out %s=%s/%s.out", a->name,
                          a->w, a->h, a->sg_order, a->sg_type, a->name, tmpdir, a->name);
            break;
        }
    }
    snprintf(cmd + n, sizeof cmd - (size_t)n, " -q --no-timing");
    cli_result r = cli_run("%s", cmd);
    if (r.status != 0)
        fail_msg("sgemu %s failed (%d): %s", cmd, r.status, r.err);
    cli_result_free(&r);
    for (unsigned sg = 8; sg <= 32; sg *= 2) {
        for (unsigned i = 0; i < k->nargs; i++) {
            const karg *a = &k->args[i];
            if (a->kind != A_OUT && a->kind != A_IMG_OUT)
                continue;
            char path[256];
            size_t len;
            snprintf(path, sizeof path, "%s/%s.sg%u.out", tmpdir, a->name, sg);
            char *got = file_read_all(path, &len);
            assert_non_null(got);
            assert_int_equal(len, a->bytes);
            size_t m = a->cmp_bytes ? a->cmp_bytes : a->bytes;
            for (size_t b = 0; a->tol > 0 && b + 4 <= m; b += 4) {
                float x, y;
                memcpy(&x, got + b, 4);
                memcpy(&y, (const uint8_t *)a->data + b, 4);
                if (!(fabsf(x - y) <= a->tol))
                    fail_msg("%s SIMD%u: output %s float %zu: sgemu %.9g, OpenCL %.9g", k->kernel,
                             sg, a->name, b / 4, (double)x, (double)y);
            }
            for (size_t b = 0; a->tol == 0 && b < m; b++)
                if ((uint8_t)got[b] != ((const uint8_t *)a->data)[b])
                    fail_msg("%s SIMD%u: output %s differs at byte %zu: sgemu 0x%02x, OpenCL 0x%02x",
                             k->kernel, sg, a->name, b, (uint8_t)got[b],
                             ((const uint8_t *)a->data)[b]);
            free(got);
        }
    }
}

/* Write the inputs, run both, compare at SIMD8/16/32, free the data. */
static void cross_check(kcase *k)
{
    for (unsigned i = 0; i < k->nargs; i++) {
        karg *a = &k->args[i];
        if (a->kind == A_IN || a->kind == A_OUT || a->kind == A_IMG_IN) {
            char name[64];
            snprintf(name, sizeof name, "%s.in", a->name);
            cli_put(name, a->data, a->bytes);
        }
        if (a->kind == A_IMG_OUT) {
            a->data = calloc(1, a->bytes);
            assert_non_null(a->data);
        }
    }
    run_ocl(k);
    run_sgemu_and_compare(k);
    for (unsigned i = 0; i < k->nargs; i++)
        free(k->args[i].data);
}

static karg buf_in(const char *name, const char *type, size_t bytes, void *data)
{
    return (karg){ .name = name, .kind = A_IN, .type = type, .bytes = bytes, .data = data };
}

static karg buf_out(const char *name, const char *type, size_t bytes, void *init)
{
    return (karg){ .name = name, .kind = A_OUT, .type = type, .bytes = bytes,
                   .data = init ? init : calloc(1, bytes) };
}

static karg scalar(const char *name, uint32_t v)
{
    return (karg){ .name = name, .kind = A_U32, .value = v };
}

static karg local_mem(const char *name, size_t bytes)
{
    return (karg){ .name = name, .kind = A_LOCAL, .bytes = bytes };
}

/* ---------------------------------------------------------------- tests */

static void test_vector_add(void **state)
{
    (void)state;
    enum { N = 1000 };
    float *a = malloc(N * 4), *b = malloc(N * 4);
    assert_non_null(a);
    assert_non_null(b);
    for (int i = 0; i < N; i++) {
        a[i] = (float)(int32_t)rnd() / 65536.0f;
        b[i] = (float)rnd() / 4294967296.0f - 0.5f;
    }
    kcase k = { "examples/opencl/vector_add.cl", "vector_add", 1, { 1024 }, { 64 },
                { buf_in("a", "float", N * 4, a), buf_in("b", "float", N * 4, b),
                  buf_out("c", "float", N * 4, NULL), scalar("n", N) }, 4 };
    cross_check(&k);
}

static void test_local_reduce(void **state)
{
    (void)state;
    enum { G = 4096, L = 256 };
    int32_t *in = random_bytes(G * 4);
    kcase k = { "examples/opencl/local_reduce.cl", "local_reduce", 1, { G }, { L },
                { buf_in("in", "int", G * 4, in), buf_out("out", "int", G / L * 4, NULL),
                  local_mem("scratch", L * 4) }, 3 };
    cross_check(&k);
}

static void test_histogram(void **state)
{
    (void)state;
    enum { G = 4096 };
    kcase k = { "examples/opencl/histogram.cl", "histogram", 1, { G }, { 128 },
                { buf_in("data", "uint", G * 4, random_bytes(G * 4)),
                  buf_out("bins", "uint", 19 * 4, NULL), scalar("nbins", 19) }, 3 };
    cross_check(&k);
}

static void test_collatz(void **state)
{
    (void)state;
    enum { G = 512 };
    uint32_t *in = malloc(G * 4);
    assert_non_null(in);
    for (int i = 0; i < G; i++)
        in[i] = rnd() % 100000;
    kcase k = { "examples/opencl/collatz.cl", "collatz", 1, { G }, { 64 },
                { buf_in("in", "uint", G * 4, in), buf_out("steps", "uint", G * 4, NULL) }, 2 };
    cross_check(&k);
}

static void test_control(void **state)
{
    (void)state;
    enum { G = 512 };
    int32_t *in = malloc(G * 4);
    assert_non_null(in);
    for (int i = 0; i < G; i++)
        in[i] = (int32_t)(rnd() % 3000);
    kcase k = { "tests/kernels/control.cl", "control", 1, { G }, { 64 },
                { buf_in("in", "int", G * 4, in), buf_out("out", "int", 2 * G * 4, NULL) }, 2 };
    cross_check(&k);
}

static void test_atomics(void **state)
{
    (void)state;
    enum { G = 1024 };
    int32_t init[8] = { INT32_MAX, INT32_MIN, 0, 0, -1, 0, 0, 0 };
    int32_t *st = malloc(sizeof init);
    assert_non_null(st);
    memcpy(st, init, sizeof init);
    kcase k = { "tests/kernels/atomics.cl", "atomics", 1, { G }, { 128 },
                { buf_in("data", "uint", G * 4, random_bytes(G * 4)),
                  buf_out("bins", "uint", 16 * 4, NULL), buf_out("stats", "int", 8 * 4, st),
                  local_mem("lbins", 64) }, 4 };
    /* stats[7] is an atomic_cmpxchg race: which work-item wins differs */
    k.args[2].cmp_bytes = 7 * 4;
    cross_check(&k);
}

static void test_images(void **state)
{
    (void)state;
    enum { W = 48, H = 20 };
    kcase k = { "tests/kernels/images.cl", "images", 2, { W, H }, { 16, 2 }, { { 0 } }, 5 };
    k.args[0] = (karg){ .name = "src", .kind = A_IMG_IN, .bytes = W * H * 4, .w = W, .h = H,
                        .order = CL_RGBA, .chtype = CL_UNSIGNED_INT8, .sg_order = "CL_RGBA",
                        .sg_type = "CL_UNSIGNED_INT8", .data = random_bytes(W * H * 4) };
    k.args[1] = (karg){ .name = "fsrc", .kind = A_IMG_IN, .bytes = W * H * 4, .w = W, .h = H,
                        .order = CL_RGBA, .chtype = CL_UNORM_INT8, .sg_order = "CL_RGBA",
                        .sg_type = "CL_UNORM_INT8", .data = random_bytes(W * H * 4) };
    k.args[2] = (karg){ .name = "dst", .kind = A_IMG_OUT, .bytes = W * H * 8, .w = W, .h = H,
                        .order = CL_RGBA, .chtype = CL_UNSIGNED_INT16, .sg_order = "CL_RGBA",
                        .sg_type = "CL_UNSIGNED_INT16" };
    k.args[3] = (karg){ .name = "fdst", .kind = A_IMG_OUT, .bytes = W * H * 16, .w = W, .h = H,
                        .order = CL_RGBA, .chtype = CL_FLOAT, .sg_order = "CL_RGBA",
                        .sg_type = "CL_FLOAT" };
    /* OpenCL allows read_imagef of CL_UNORM_INT8 1.5 ulp (PoCL multiplies by
     * 1/255; sgemu divides, correctly rounded): values in [0, 1], so 2^-23 */
    k.args[3].tol = 0x1p-23f;
    k.args[4] = buf_out("dims", "int", 4 * 4, NULL);
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    if (!img) {
        fprintf(stderr, "SKIP images: the OpenCL device has no image support\n");
        for (unsigned i = 0; i < k.nargs; i++)
            free(k.args[i].data);
        skip();
    }
    cross_check(&k);
}

static int setup(void **state)
{
    (void)state;
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    if (err != CL_SUCCESS)
        return -1;
    return cli_tmpdir_make("pocl");
}

static int teardown(void **state)
{
    (void)state;
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cli_tmpdir_remove();
}

int main(void)
{
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &platform, &np) != CL_SUCCESS || np == 0 ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("SKIP: no OpenCL platform with a device found "
               "(apt-get install pocl-opencl-icd; bash tools/dev.sh test installs it)\n");
        return 77;
    }
    char pname[256] = "", dname[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    printf("OpenCL platform: %s, device: %s\n", pname, dname);
    if (!strstr(pname, "Portable Computing Language")) {
        printf("FAIL: the platform is not PoCL (OCL_ICD_VENDORS must name pocl.icd)\n");
        return 1;
    }
    if (system("command -v clang-14 >/dev/null && command -v llvm-spirv-14 >/dev/null") != 0) {
        printf("SKIP: clang-14 and llvm-spirv-14 are needed for `sgemu run K.cl`\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_local_reduce),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_collatz),
        cmocka_unit_test(test_control),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_images),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

#else /* no OpenCL headers / ICD loader at build time */

int main(void)
{
    printf("SKIP: built without the OpenCL headers and ICD loader "
           "(apt-get install ocl-icd-opencl-dev opencl-headers, then reconfigure)\n");
    return 77;
}

#endif
