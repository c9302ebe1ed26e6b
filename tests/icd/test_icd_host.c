/* test_icd_host.c - an ordinary OpenCL host program run against sgemu's
 * ICD (OCL_ICD_VENDORS names exactly its .icd file): several launches with
 * host logic between them, buffer reuse, sub-buffers, rectangles, maps,
 * user events and callbacks, an image pipeline, profiling events (modelled
 * time = cycles at the config's clock, checked against libsgemu's own run
 * of the same kernel), printf output on stdout by clFinish, and the error
 * paths. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "sgemu.h"
#include "timing.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_cl.h"
#include "icd_session.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;
static emu_config cfg;     /* the device's config, loaded independently */

static const char *source =
    "typedef struct { float scale; int bias; } params;\n"
    "kernel void axpb(global float *x, params p, global float *y) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = x[i] * p.scale + (float)p.bias;\n"
    "}\n"
    "kernel void add(global const int *a, global const int *b, global int *c, int k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i] * k;\n"
    "}\n"
    "kernel void local_sum(global const int *in, global int *out, local int *tmp) {\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) tmp[l] += tmp[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    "kernel void ids(global int *out) {\n"
    "    size_t i = get_global_id(0) - get_global_offset(0);\n"
    "    out[i] = (int)(get_global_id(0) * 1000 + get_sub_group_size() * 10\n"
    "                   + (get_local_size(0) == get_enqueued_local_size(0)));\n"
    "}\n"
    "kernel void sg_sum(global const int *in, global int *out) {\n"
    "    out[get_global_id(0)] = sub_group_reduce_add(in[get_global_id(0)]);\n"
    "}\n"
    "kernel void divergent(global const int *in, global int *out, uint cs) {\n"
    "    int gid = get_global_id(0), r, c;\n"
    "    if (get_sub_group_local_id() < get_sub_group_size() / 2)\n"
    "        r = sub_group_non_uniform_broadcast(in[gid], 1);\n"
    "    else\n"
    "        r = sub_group_non_uniform_broadcast(in[gid], get_sub_group_size() - 1);\n"
    "    switch (cs) {\n"
    "    case 2: c = sub_group_clustered_reduce_add(in[gid], 2); break;\n"
    "    case 4: c = sub_group_clustered_reduce_add(in[gid], 4); break;\n"
    "    default: c = -1;\n"
    "    }\n"
    "    out[2 * gid] = r;\n"
    "    out[2 * gid + 1] = c;\n"
    "}\n"
    "kernel void hello(global int *ret) {\n"
    "    int i = get_global_id(0);\n"
    "    ret[i] = printf(\"item %d of %d: %v2hlf\\n\", i, (int)get_global_size(0),\n"
    "                    (float2)((float)i, 0.5f));\n"
    "}\n"
    "kernel void oob(global int *out, int n) {\n"
    "    out[get_global_id(0) + n] = 1;\n"
    "}\n"
    "kernel void fatom(global atomic_float *acc, global const float *v) {\n"
    "    float x = v[get_global_id(0)];\n"
    "    atomic_fetch_add(&acc[0], x);\n"
    "    atomic_fetch_sub_explicit(&acc[1], x, memory_order_relaxed);\n"
    "    atomic_fetch_min(&acc[2], x);\n"
    "    atomic_fetch_max(&acc[3], x);\n"
    "}\n"
    "kernel void invert(read_only image2d_t src, write_only image2d_t dst) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    uint4 v = read_imageui(src, p);\n"
    "    write_imageui(dst, p, (uint4)(255 - v.x, v.y, 0, 0));\n"
    "}\n"
    "kernel void long_arg(global long *out, long v) {\n"
    "    out[get_global_id(0)] = v + (long)get_global_id(0);\n"
    "}\n"
    "kernel void vol(read_only image3d_t src, sampler_t s, global float4 *out) {\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    int i = (z * get_image_height(src) + y) * get_image_width(src) + x;\n"
    "    float4 d = (float4)(0, 0, 0, get_image_depth(src));\n"
    "    out[2 * i] = read_imagef(src, s, (int4)(x, y, z, 0));\n"
    "    out[2 * i + 1] = read_imagef(src, (int4)(x, y, z, 0)) + d;\n"
    "}\n"
    "kernel void samp(read_only image2d_t src, sampler_t s, global uint *out) {\n"
    "    int x = (int)get_global_id(0);\n"
    "    out[x] = read_imageui(src, s, (int2)(x - 1, 0)).x;\n"
    "}\n";

static cl_program program;

static int setup(void **state)
{
    (void)state;
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (emu_config_load_default(&cfg, &d))
        return -1;
    isa_diags_free(&d);
    cl_queue_properties qp[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    cl_int err;
    if (icd_open(&platform, &device, &ctx, &queue, qp))
        return -1;
    program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    if (err)
        return -1;
    err = clBuildProgram(program, 1, &device, "-cl-std=CL3.0", NULL, NULL);
    if (err) {
        char log[8192] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseProgram(program);
    icd_close(ctx, queue);
    return 0;
}

static void test_platform_info(void **state)
{
    (void)state;
    char name[128];
    CL_OK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    assert_string_equal(name, "sgemu");
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
    assert_string_equal(name, cfg.name);
    cl_uint cu;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    assert_int_equal(cu, cfg.compute_units);
    cl_ulong lm;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    assert_int_equal(lm, cfg.local_mem_per_cu);
    size_t sizes[8], n;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &n));
    assert_int_equal(n / sizeof(size_t), cfg.nwidths);
    for (uint32_t i = 0; i < cfg.nwidths; i++)
        assert_int_equal(sizes[i], cfg.widths[i]);
    char ext[4096];
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    assert_non_null(strstr(ext, "cl_khr_subgroup_ballot"));
    cl_uint nsg = 0;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof nsg, &nsg, NULL));
    assert_true(nsg > 0);
    assert_non_null(strstr(ext, "cl_intel_required_subgroup_size"));
    /* cl_khr_subgroups needs independent forward progress */
    assert_non_null(strstr(ext, "cl_khr_subgroups "));
    cl_bool ifp = CL_FALSE;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                          sizeof ifp, &ifp, NULL));
    assert_int_equal(ifp, CL_TRUE);
    /* a too-small buffer is an error, not a truncation */
    assert_int_equal(clGetDeviceInfo(device, CL_DEVICE_NAME, 2, name, NULL), CL_INVALID_VALUE);
}

/* cl_ext_float_atomics: claimed with its capability queries, and a kernel
 * written to it runs through clBuildProgram; the reference sums small
 * integers (exact in any order) and takes min/max in C. */
static void test_float_atomics(void **state)
{
    (void)state;
    char ext[4096];
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    assert_non_null(strstr(ext, "cl_ext_float_atomics"));
    const cl_bitfield all = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 16) | (1 << 17) | (1 << 18);
    const cl_uint queries[3] = { 0x4231, 0x4232, 0x4233 };   /* single, double, half */
    const cl_bitfield want[3] = { all, all, all & ~(cl_bitfield)((1 << 1) | (1 << 17)) };
    for (int q = 0; q < 3; q++) {
        cl_bitfield caps = 0;
        CL_OK(clGetDeviceInfo(device, queries[q], sizeof caps, &caps, NULL));
        assert_int_equal(caps, want[q]);
    }
    enum { N = 300 };
    float v[N], acc[4] = { 0.0f, 0.0f, 1e9f, -1e9f }, ref[4] = { 0.0f, 0.0f, 1e9f, -1e9f };
    for (int i = 0; i < N; i++) {
        v[i] = (float)((i * 13) % 41 - 20);
        ref[0] += v[i];
        ref[1] -= v[i];
        ref[2] = v[i] < ref[2] ? v[i] : ref[2];
        ref[3] = v[i] > ref[3] ? v[i] : ref[3];
    }
    cl_int err;
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof acc, acc, &err);
    CL_OK(err);
    cl_mem bv = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "fatom", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_OK(clSetKernelArg(k, 1, sizeof bv, &bv));
    size_t g = N, l = 60;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, ba, CL_TRUE, 0, sizeof acc, acc, 0, NULL, NULL));
    assert_memory_equal(acc, ref, sizeof ref);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bv);
}

/* Several launches with host logic between them, reusing the buffers: the
 * host decides each step's factor from the previous result. */
/* clCompileProgram with embedded headers (one in a folder of its include
 * name), then clLinkProgram; compiling a program that calls a function it
 * does not define succeeds (linking would resolve it). */
static void test_compile_with_headers(void **state)
{
    (void)state;
    static const char *hdr_src[] = { "#define TRIPLE(x) ((x) * 3)\n",
                                     "int twice(int x) { return 2 * x; }\n" };
    static const char *names[] = { "triple.h", "sub/twice.h" };
    static const char *main_src = "#include \"triple.h\"\n#include \"sub/twice.h\"\n"
                                  "kernel void hk(global int *out) {\n"
                                  "    int i = (int)get_global_id(0);\n"
                                  "    out[i] = TRIPLE(i) + twice(i + 1);\n"
                                  "}\n";
    cl_int err;
    cl_program hdr[2];
    for (int i = 0; i < 2; i++) {
        hdr[i] = clCreateProgramWithSource(ctx, 1, &hdr_src[i], NULL, &err);
        CL_OK(err);
    }
    cl_program m = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
    CL_OK(err);
    assert_int_equal(clCompileProgram(m, 1, &device, "", 1, hdr, NULL, NULL, NULL),
                     CL_INVALID_VALUE);
    err = clCompileProgram(m, 1, &device, "", 2, hdr, names, NULL, NULL);
    if (err) {
        char log[8192] = "";
        clGetProgramBuildInfo(m, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("compile failed (%d):\n%s", err, log);
    }
    cl_program_binary_type bt;
    CL_OK(clGetProgramBuildInfo(m, device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program linked = clLinkProgram(ctx, 1, &device, "", 1, &m, NULL, NULL, &err);
    CL_OK(err);
    enum { N = 64 };
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(linked, "hk", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof out, &out));
    size_t global = N;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int got[N];
    CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], 3 * i + 2 * (i + 1));
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(linked);
    clReleaseProgram(m);

    static const char *ext_src = "int sink(int x);\n"
                                 "kernel void uses_ext(global int *o) { o[0] = sink(1); }\n";
    cl_program e = clCreateProgramWithSource(ctx, 1, &ext_src, NULL, &err);
    CL_OK(err);
    CL_OK(clCompileProgram(e, 1, &device, "", 0, NULL, NULL, NULL, NULL));
    clReleaseProgram(e);
    for (int i = 0; i < 2; i++)
        clReleaseProgram(hdr[i]);
}

static cl_program compiled(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clCompileProgram(p, 1, &device, "", 0, NULL, NULL, NULL, NULL));
    return p;
}

/* clLinkProgram of several compiled programs: a kernel calls a function
 * another program defines; an unresolved function fails the link with
 * the linker's message in the build log. */
static void test_link_several(void **state)
{
    (void)state;
    cl_program lib = compiled("int scale(int x) { return 5 * x + 1; }\n");
    cl_program use = compiled("int scale(int x);\n"
                              "kernel void lk(global int *o) {\n"
                              "    o[get_global_id(0)] = scale((int)get_global_id(0));\n"
                              "}\n");
    cl_program both[2] = { use, lib };
    cl_int err;
    cl_program linked = clLinkProgram(ctx, 1, &device, "", 2, both, NULL, NULL, &err);
    if (err) {
        char log[8192] = "";
        if (linked)
            clGetProgramBuildInfo(linked, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("link failed (%d):\n%s", err, log);
    }
    enum { N = 48 };
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(int), NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(linked, "lk", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof out, &out));
    size_t global = N;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    int got[N];
    CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], 5 * i + 1);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(linked);

    cl_program miss = compiled("int missing(int x);\n"
                               "kernel void mk(global int *o) { o[0] = missing(2); }\n");
    cl_program bad[2] = { miss, lib };
    cl_program failed = clLinkProgram(ctx, 1, &device, "", 2, bad, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_non_null(failed);
    char log[4096] = "";
    CL_OK(clGetProgramBuildInfo(failed, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    assert_non_null(strstr(log, "missing"));
    clReleaseProgram(failed);
    clReleaseProgram(miss);
    clReleaseProgram(use);
    clReleaseProgram(lib);
}

static void test_several_launches(void **state)
{
    (void)state;
    enum { N = 1000 };
    int a[N], b[N], c[N], ref[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 3 * i - 7;
        ref[i] = a[i];
    }
    cl_int err;
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CL_OK(err);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    CL_OK(err);
    cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "add", &err);
    CL_OK(err);
    int factor = 1;
    for (int step = 0; step < 4; step++) {
        CL_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
        CL_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
        CL_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
        CL_OK(clSetKernelArg(k, 3, sizeof factor, &factor));
        size_t global = N;        /* no local size: sgemu picks one */
        CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CL_OK(clEnqueueReadBuffer(queue, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
        for (int i = 0; i < N; i++)
            ref[i] = ref[i] + b[i] * factor;
        assert_memory_equal(c, ref, sizeof c);
        /* host logic: the next factor depends on this result */
        factor = (c[N - 1] & 3) + 1;
        CL_OK(clEnqueueCopyBuffer(queue, bc, ba, 0, 0, sizeof c, 0, NULL, NULL));
    }
    CL_OK(clFinish(queue));
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
}

static void test_struct_and_local_args(void **state)
{
    (void)state;
    enum { N = 256, L = 64 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.5f;
    struct { cl_float scale; cl_int bias; } p = { 3.0f, -2 };
    cl_int err;
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof x, x, &err);
    CL_OK(err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, sizeof y, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "axpb", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof bx, &bx));
    CL_OK(clSetKernelArg(k, 1, sizeof p, &p));
    CL_OK(clSetKernelArg(k, 2, sizeof by, &by));
    size_t g = N, l = L;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
    float *m = clEnqueueMapBuffer(queue, by, CL_TRUE, CL_MAP_READ, 0, sizeof y, 0, NULL, NULL,
                                  &err);
    CL_OK(err);
    for (int i = 0; i < N; i++)
        assert_true(m[i] == x[i] * 3.0f - 2.0f);
    CL_OK(clEnqueueUnmapMemObject(queue, by, m, 0, NULL, NULL));
    clReleaseKernel(k);

    int in[N], out[N / L];
    for (int i = 0; i < N; i++)
        in[i] = i * i % 97;
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CL_OK(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    k = clCreateKernel(program, "local_sum", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CL_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    assert_int_equal(clSetKernelArg(k, 2, L * sizeof(int), &bi), CL_INVALID_ARG_VALUE);
    CL_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int gi = 0; gi < N / L; gi++) {
        int s = 0;
        for (int i = 0; i < L; i++)
            s += in[gi * L + i];
        assert_int_equal(out[gi], s);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

/* One int of a kernel that writes out[0..n): launched as a single work-item. */
static void run_one(cl_program p, const char *name, cl_mem out)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof out, &out));
    size_t g = 1;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    clReleaseKernel(k);
}

static int read_int(cl_mem out)
{
    int v = 0;
    CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    return v;
}

/* Program-scope variables (OpenCL C 2.0 and later) keep their values from
 * one launch to the next and are shared by the program's kernels; a
 * pointer variable set by one kernel is followed by another; building the
 * program again starts from the initialisers. */
static void test_program_globals(void **state)
{
    (void)state;
    static const char *src =
        "global int counter = 5;\n"
        "global int arr[2] = { 10, 20 };\n"
        "global int *p = &arr[0];\n"
        "kernel void bump(global int *out) { static int calls; out[0] = counter++ + 100 * calls++; }\n"
        "kernel void peek(global int *out) { out[0] = counter; }\n"
        "kernel void aim(global int *out) { p = &arr[1]; out[0] = 0; }\n"
        "kernel void deref(global int *out) { out[0] = *p; }\n";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &device, "-cl-std=CL2.0", NULL, NULL));
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    CL_OK(err);
    run_one(prog, "bump", out);
    assert_int_equal(read_int(out), 5);
    run_one(prog, "bump", out);
    assert_int_equal(read_int(out), 106);
    run_one(prog, "peek", out);
    assert_int_equal(read_int(out), 7);
    run_one(prog, "deref", out);
    assert_int_equal(read_int(out), 10);
    run_one(prog, "aim", out);
    run_one(prog, "deref", out);
    assert_int_equal(read_int(out), 20);
    CL_OK(clBuildProgram(prog, 1, &device, "-cl-std=CL2.0", NULL, NULL));
    run_one(prog, "bump", out);
    assert_int_equal(read_int(out), 5);
    run_one(prog, "deref", out);
    assert_int_equal(read_int(out), 10);
    clReleaseMemObject(out);
    clReleaseProgram(prog);
}

/* A local pointer argument is aligned as its element type, long16's 128
 * bytes included, whatever comes before it. */
static void test_local_arg_alignment(void **state)
{
    (void)state;
    static const char *src =
        "kernel void where(global ulong *out, local char *a, local long16 *b, local int *c) {\n"
        "    out[0] = (ulong)a; out[1] = (ulong)b; out[2] = (ulong)c;\n"
        "}\n";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &device, "", NULL, NULL));
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong), NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(prog, "where", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof out, &out));
    CL_OK(clSetKernelArg(k, 1, 1, NULL));
    CL_OK(clSetKernelArg(k, 2, 128, NULL));
    CL_OK(clSetKernelArg(k, 3, 4, NULL));
    size_t g = 1;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_ulong got[3];
    CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    assert_int_equal(got[1] % 128, 0);
    assert_true(got[1] >= got[0] + 1);          /* the blocks do not overlap */
    assert_true(got[2] >= got[1] + 128);
    assert_int_equal(got[2] % 4, 0);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(prog);
}

/* CL_BGRA (required with CL_UNORM_INT8): an element's bytes are blue,
 * green, red, alpha; read_imagef returns red first, write_imagef stores
 * blue first, and get_image_channel_order says CLK_BGRA. */
static void test_bgra_image(void **state)
{
    (void)state;
    static const char *src =
        "kernel void swap(read_only image2d_t src, write_only image2d_t dst, global float4 *f,\n"
        "                 global int *order) {\n"
        "    int2 p = (int2)(get_global_id(0), 0);\n"
        "    float4 v = read_imagef(src, p);\n"
        "    f[p.x] = v;\n"
        "    write_imagef(dst, p, (float4)(v.x, v.y, 1.0f, 0.0f));\n"
        "    order[0] = get_image_channel_order(src);\n"
        "}\n";
    cl_int err;
    cl_uint nfmt = 0;
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nfmt));
    cl_image_format fmts[64];
    assert_true(nfmt <= 64);
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, nfmt, fmts, NULL));
    bool listed = false;
    for (cl_uint i = 0; i < nfmt; i++)
        listed |= fmts[i].image_channel_order == CL_BGRA &&
                  fmts[i].image_channel_data_type == CL_UNORM_INT8;
    assert_true(listed);
    cl_image_format bad = { CL_BGRA, CL_UNORM_INT16 };
    cl_image_desc d1 = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 1 };
    cl_mem none = clCreateImage(ctx, CL_MEM_READ_ONLY, &bad, &d1, NULL, &err);
    assert_null(none);
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);

    cl_image_format fmt = { CL_BGRA, CL_UNORM_INT8 };
    uint8_t in[8] = { 10, 20, 30, 40, 255, 0, 51, 102 };       /* B G R A, two elements */
    cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d1, in, &err);
    CL_OK(err);
    cl_mem b = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &d1, NULL, &err);
    CL_OK(err);
    cl_mem f = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * 4 * sizeof(float), NULL, &err);
    CL_OK(err);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    CL_OK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "swap", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof a, &a));
    CL_OK(clSetKernelArg(k, 1, sizeof b, &b));
    CL_OK(clSetKernelArg(k, 2, sizeof f, &f));
    CL_OK(clSetKernelArg(k, 3, sizeof o, &o));
    size_t g = 2;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    float got[8];
    CL_OK(clEnqueueReadBuffer(queue, f, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int e = 0; e < 2; e++) {       /* red, green, blue, alpha = bytes 2, 1, 0, 3 */
        assert_true(got[4 * e + 0] == in[4 * e + 2] / 255.0f);
        assert_true(got[4 * e + 1] == in[4 * e + 1] / 255.0f);
        assert_true(got[4 * e + 2] == in[4 * e + 0] / 255.0f);
        assert_true(got[4 * e + 3] == in[4 * e + 3] / 255.0f);
    }
    uint8_t out[8];
    size_t origin[3] = { 0, 0, 0 }, region[3] = { 2, 1, 1 };
    CL_OK(clEnqueueReadImage(queue, b, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
    for (int e = 0; e < 2; e++) {       /* stored blue (1.0), green, red, alpha (0) */
        assert_int_equal(out[4 * e + 0], 255);
        assert_int_equal(out[4 * e + 1], in[4 * e + 1]);
        assert_int_equal(out[4 * e + 2], in[4 * e + 2]);
        assert_int_equal(out[4 * e + 3], 0);
    }
    int ord = 0;
    CL_OK(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof ord, &ord, 0, NULL, NULL));
    assert_int_equal(ord, CL_BGRA);
    float red[4] = { 1.0f, 0.0f, 0.0f, 1.0f };
    CL_OK(clEnqueueFillImage(queue, b, red, origin, region, 0, NULL, NULL));
    CL_OK(clEnqueueReadImage(queue, b, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
    assert_int_equal(out[0], 0);
    assert_int_equal(out[2], 255);
    assert_int_equal(out[3], 255);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(f);
    clReleaseMemObject(o);
}

/* A work-item function given a dimension outside 0..2 (a run-time value)
 * returns 1 for the sizes and counts and 0 for the ids and the offset;
 * one inside 0..2 but past get_work_dim() does the same. */
static void test_work_item_dim_out_of_range(void **state)
{
    (void)state;
    static const char *src =
        "kernel void wi(global uint *o, uint d) {\n"
        "    if (get_global_id(0) != 8) return;\n"
        "    o[0] = get_global_size(d); o[1] = get_local_size(d); o[2] = get_num_groups(d);\n"
        "    o[3] = get_enqueued_local_size(d); o[4] = get_global_id(d); o[5] = get_local_id(d);\n"
        "    o[6] = get_group_id(d); o[7] = get_global_offset(d);\n"
        "}\n";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &device, "-cl-std=CL3.0", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "wi", &err);
    CL_OK(err);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_uint), NULL, &err);
    CL_OK(err);
    static const cl_uint dims[] = { 1, 2, 3, 4, 1000 };
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
        CL_OK(clSetKernelArg(k, 1, sizeof dims[i], &dims[i]));
        size_t g = 64, l = 16, off = 8;
        CL_OK(clEnqueueNDRangeKernel(queue, k, 1, &off, &g, &l, 0, NULL, NULL));
        cl_uint got[8];
        CL_OK(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        static const cl_uint want[8] = { 1, 1, 1, 1, 0, 0, 0, 0 };
        assert_memory_equal(got, want, sizeof got);
    }
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* Offsets, non-uniform work-groups and the requested sub-group width. */
static void test_offsets(void **state)
{
    (void)state;
    enum { N = 100 };
    int out[N];
    cl_int err;
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "ids", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
    size_t off = 5, g = N, l = 32;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, &off, &g, &l, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const int w = (int)cfg.default_width, last = N / 32 * 32;
    for (int i = 0; i < N; i++) {
        /* the last work-group is partial, and so is its last sub-group */
        int full = i < last;
        int sg_first = full ? i / w * w : last + (i - last) / w * w;
        int sg = N - sg_first < w ? N - sg_first : w;
        assert_int_equal(out[i], (i + 5) * 1000 + sg * 10 + full);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bo);
}

static void test_subgroup_info(void **state)
{
    (void)state;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "sg_sum", &err);
    CL_OK(err);
    size_t local = 48, v = 0;
    CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                  sizeof local, &local, sizeof v, &v, NULL));
    assert_int_equal(v, cfg.default_width);
    CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                  sizeof local, &local, sizeof v, &v, NULL));
    assert_int_equal(v, (48 + cfg.default_width - 1) / cfg.default_width);
    size_t count = 2, ls[3];
    CL_OK(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                  sizeof count, &count, sizeof ls, ls, NULL));
    assert_int_equal(ls[0], 2 * cfg.default_width);
    /* the kernel agrees: each sub-group sums its own lanes */
    enum { N = 64 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i + 1;
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CL_OK(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
    CL_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
    size_t g = N, l = N;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const int w = (int)cfg.default_width;
    for (int i = 0; i < N; i++) {
        int s = 0, first = i / w * w;
        for (int j = first; j < first + w; j++)
            s += in[j];
        assert_int_equal(out[i], s);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

/* Group built-ins in divergent branches and switch cases stay where the
 * source puts them (clang-14 does not mark them convergent; the compile
 * recipe keeps SimplifyCFG from merging the calls). */
static void test_divergent_group_calls(void **state)
{
    (void)state;
    enum { N = 128 };
    int in[N], out[2 * N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7 % 31 - 9;
    cl_int err;
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CL_OK(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "divergent", &err);
    CL_OK(err);
    const int w = (int)cfg.default_width;
    for (cl_uint cs = 2; cs <= 4; cs += 2) {
        CL_OK(clSetKernelArg(k, 0, sizeof bi, &bi));
        CL_OK(clSetKernelArg(k, 1, sizeof bo, &bo));
        CL_OK(clSetKernelArg(k, 2, sizeof cs, &cs));
        size_t g = N, l = 64;
        CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CL_OK(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < N; i++) {
            int first = i / w * w, lane = i - first;
            assert_int_equal(out[2 * i], in[first + (lane < w / 2 ? 1 : w - 1)]);
            int c0 = i / (int)cs * (int)cs, sum = 0;
            for (int j = c0; j < c0 + (int)cs; j++)
                sum += in[j];
            assert_int_equal(out[2 * i + 1], sum);
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

/* Sub-buffers, fills, rectangles, copies. */
static void test_buffers(void **state)
{
    (void)state;
    enum { W = 16, H = 8 };
    uint8_t host[H][W], back[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            host[y][x] = (uint8_t)(y * W + x);
    cl_int err;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    CL_OK(err);
    uint32_t pat = 0xA5A5F00Du;
    CL_OK(clEnqueueFillBuffer(queue, b, &pat, sizeof pat, 0, 4096, 0, NULL, NULL));
    cl_buffer_region r = { 1024, 1024 };
    cl_mem sub = clCreateSubBuffer(b, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CL_OK(err);
    cl_buffer_region bad = { 100, 16 };
    assert_null(clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err));
    assert_int_equal(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    /* a 4x3 box of host[] at (2,1) into the sub-buffer with pitch 32 */
    size_t borg[3] = { 8, 2, 0 }, horg[3] = { 2, 1, 0 }, reg[3] = { 4, 3, 1 };
    CL_OK(clEnqueueWriteBufferRect(queue, sub, CL_TRUE, borg, horg, reg, 32, 0, W, 0, host, 0,
                                   NULL, NULL));
    uint8_t all[4096];
    CL_OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof all, all, 0, NULL, NULL));
    for (size_t i = 0; i < sizeof all; i++) {
        size_t o = i - 1024, row = o / 32, col = o % 32;
        bool in_box = i >= 1024 && row >= 2 && row < 5 && col >= 8 && col < 12;
        uint8_t want = in_box ? host[row - 2 + 1][col - 8 + 2] : (uint8_t)(pat >> (8 * (i % 4)));
        assert_int_equal(all[i], want);
    }
    /* rect copy into a packed buffer, then read a rectangle out */
    cl_mem b2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    CL_OK(err);
    size_t sorg[3] = { 1024 + 8, 2, 0 }, dorg[3] = { 0, 0, 0 };
    CL_OK(clEnqueueCopyBufferRect(queue, b, b2, sorg, dorg, reg, 32, 0, 4, 0, 0, NULL, NULL));
    /* the same buffer with other pitches on both sides is refused */
    assert_int_equal(clEnqueueCopyBufferRect(queue, b, b, sorg, dorg, reg, 32, 0, 4, 0, 0, NULL,
                                             NULL), CL_INVALID_VALUE);
    memset(back, 0, sizeof back);
    size_t z[3] = { 0, 0, 0 };
    CL_OK(clEnqueueReadBufferRect(queue, b2, CL_TRUE, z, z, reg, 4, 0, W, 0, back, 0, NULL, NULL));
    clReleaseMemObject(b2);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++)
            assert_int_equal(back[y][x], host[y + 1][x + 2]);
    assert_int_equal(clEnqueueCopyBuffer(queue, b, b, 0, 8, 16, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueReadBuffer(queue, sub, CL_TRUE, 1000, 100, all, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    clReleaseMemObject(sub);      /* the parent outlives its sub-buffer's handle */
    clReleaseMemObject(b);
}

static int callback_calls;
static cl_int callback_status;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *user)
{
    (void)e;
    callback_calls++;
    callback_status = status;
    *(int *)user += 1;
}

/* A command waiting for a user event runs only when it is set; later
 * commands of the same queue wait behind it. */
static void test_user_events(void **state)
{
    (void)state;
    cl_int err;
    cl_event user = clCreateUserEvent(ctx, &err);
    CL_OK(err);
    int src = 42, dst = 0, hits = 0;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof src, NULL, &err);
    CL_OK(err);
    cl_event w, r;
    CL_OK(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, sizeof src, &src, 1, &user, &w));
    CL_OK(clEnqueueReadBuffer(queue, b, CL_FALSE, 0, sizeof dst, &dst, 0, NULL, &r));
    CL_OK(clSetEventCallback(r, CL_COMPLETE, on_complete, &hits));
    cl_int st;
    CL_OK(clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    assert_true(st > CL_COMPLETE);
    assert_int_equal(dst, 0);
    assert_int_equal(hits, 0);
    CL_OK(clSetUserEventStatus(user, CL_COMPLETE));
    assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    CL_OK(clWaitForEvents(1, &r));
    assert_int_equal(dst, 42);
    assert_int_equal(hits, 1);
    assert_int_equal(callback_status, CL_COMPLETE);
    cl_event m;
    CL_OK(clEnqueueMarkerWithWaitList(queue, 1, &r, &m));
    CL_OK(clEnqueueBarrierWithWaitList(queue, 0, NULL, NULL));
    CL_OK(clFinish(queue));
    CL_OK(clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    assert_int_equal(st, CL_COMPLETE);
    /* a failed user event fails what waits for it */
    cl_event u2 = clCreateUserEvent(ctx, &err);
    CL_OK(err);
    cl_event w2;
    CL_OK(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, sizeof src, &src, 1, &u2, &w2));
    CL_OK(clSetUserEventStatus(u2, -1234));
    assert_int_equal(clWaitForEvents(1, &w2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CL_OK(clGetEventInfo(w2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    assert_int_equal(st, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_event evs[] = { user, w, r, m, u2, w2 };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        CL_OK(clReleaseEvent(evs[i]));
    clReleaseMemObject(b);
}

/* Profiling info is the modelled device time: the same cycles libsgemu's
 * own run of the kernel gives, at the config's clock. */
static void test_profiling(void **state)
{
    (void)state;
    enum { N = 4096 };
    static int a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = N - i;
    }
    cl_int err;
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CL_OK(err);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    CL_OK(err);
    cl_mem bc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "add", &err);
    CL_OK(err);
    int two = 2;
    CL_OK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_OK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CL_OK(clSetKernelArg(k, 2, sizeof bc, &bc));
    CL_OK(clSetKernelArg(k, 3, sizeof two, &two));
    size_t g = N, l = 128;
    cl_event e1, e2;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, &e1));
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, &e2));
    CL_OK(clWaitForEvents(1, &e2));
    cl_ulong t[2][4];
    const cl_profiling_info what[4] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END };
    for (int i = 0; i < 4; i++) {
        CL_OK(clGetEventProfilingInfo(e1, what[i], sizeof t[0][i], &t[0][i], NULL));
        CL_OK(clGetEventProfilingInfo(e2, what[i], sizeof t[1][i], &t[1][i], NULL));
    }
    assert_true(t[0][0] <= t[0][1] && t[0][1] <= t[0][2] && t[0][2] < t[0][3]);
    assert_true(t[0][3] <= t[1][2]);     /* in order: the second starts after the first */

    /* the same launch through libsgemu directly */
    size_t il_len = 0;
    CL_OK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof il_len, &il_len, NULL));
    unsigned char *il = malloc(il_len);
    assert_non_null(il);
    CL_OK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof il, &il, NULL));
    isa_kernel ik;
    isa_diags d;
    memset(&d, 0, sizeof d);
    sgemu_load_opts lo = { .entry = "add" };
    sgemu_fault lf;
    assert_int_equal(sgemu_kernel_from_memory("add", SGEMU_SOURCE_SPIRV, il, il_len, &lo, &ik,
                                              NULL, &d, &lf), 0);
    isa_diags_free(&d);
    free(il);
    /* one value per kernel argument, hidden ones (program-scope data) included */
    assert_true(ik.narg >= 4);
    sgemu_argval *v = calloc(ik.narg, sizeof *v);
    assert_non_null(v);
    int c2[N];
    v[0] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)a, .bytes = sizeof a };
    v[1] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)b, .bytes = sizeof b };
    v[2] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)c2, .bytes = sizeof c2 };
    v[3] = (sgemu_argval){ .kind = SGEMU_VAL_SCALAR, .scalar = 2 };
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = N;
    L.local[0] = 128;
    L.local_given = true;
    L.timing = true;
    L.max_instructions = 1000000000;
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&ik, &cfg, &L, v, &st, &f), 0);
    assert_non_null(st.timing);
    double want = (double)st.timing->cycles * 1000.0 / cfg.clock_mhz;
    double got = (double)(t[0][3] - t[0][2]);
    assert_true(got > want - 1.0 && got < want + 1.0);
    assert_int_equal(t[1][3] - t[1][2], t[0][3] - t[0][2]);
    sgemu_stats_free(&st);
    isa_kernel_free(&ik);
    free(v);

    /* no profiling on a queue without it */
    cl_command_queue plain = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CL_OK(err);
    cl_event e3;
    CL_OK(clEnqueueNDRangeKernel(plain, k, 1, NULL, &g, &l, 0, NULL, &e3));
    CL_OK(clFinish(plain));
    cl_ulong x;
    assert_int_equal(clGetEventProfilingInfo(e3, CL_PROFILING_COMMAND_END, sizeof x, &x, NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseEvent(e3);
    clReleaseCommandQueue(plain);
    clReleaseKernel(k);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
}

/* An image pipeline: write, a kernel per pixel, copy, read back. */
static void test_images(void **state)
{
    (void)state;
    enum { W = 37, H = 11 };
    uint8_t px[H][W][2], out[H][W][2];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            px[y][x][0] = (uint8_t)(x * 7 + y);
            px[y][x][1] = (uint8_t)(x ^ y);
        }
    cl_image_format fmt = { CL_RG, CL_UNSIGNED_INT8 };
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = W;
    desc.image_height = H;
    cl_int err;
    cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
    CL_OK(err);
    cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err);
    CL_OK(err);
    cl_mem copy = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CL_OK(err);
    size_t org[3] = { 0, 0, 0 }, reg[3] = { W, H, 1 };
    CL_OK(clEnqueueWriteImage(queue, src, CL_FALSE, org, reg, 0, 0, px, 0, NULL, NULL));
    cl_kernel k = clCreateKernel(program, "invert", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof src, &src));
    CL_OK(clSetKernelArg(k, 1, sizeof dst, &dst));
    size_t g[2] = { W, H };
    CL_OK(clEnqueueNDRangeKernel(queue, k, 2, NULL, g, NULL, 0, NULL, NULL));
    CL_OK(clEnqueueCopyImage(queue, dst, copy, org, org, reg, 0, NULL, NULL));
    CL_OK(clEnqueueReadImage(queue, copy, CL_TRUE, org, reg, 0, 0, out, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            assert_int_equal(out[y][x][0], 255 - px[y][x][0]);
            assert_int_equal(out[y][x][1], px[y][x][1]);
        }
    /* every listed format can be created (the list tells the truth) */
    cl_uint nf = 0;
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nf));
    cl_image_format fl[64];
    assert_true(nf > 0 && nf <= 64);
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, nf, fl, NULL));
    for (cl_uint i = 0; i < nf; i++) {
        cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE, &fl[i], &desc, NULL, &err);
        CL_OK(err);
        clReleaseMemObject(m);
    }
    cl_image_format other = { CL_ARGB, CL_UNORM_INT8 };
    assert_null(clCreateImage(ctx, CL_MEM_READ_ONLY, &other, &desc, NULL, &err));
    assert_int_equal(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    clReleaseKernel(k);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(copy);
}

/* 3D images: host transfers with pitches and sub-boxes, copies, and the
 * kernel's image3d_t reads (with and without a sampler). */
static void test_image3d(void **state)
{
    (void)state;
    enum { W = 5, H = 3, D = 4, RP = W * 4 + 4, SP = RP * H + 12 };
    static uint8_t host[SP * D];
    for (size_t i = 0; i < sizeof host; i++)
        host[i] = (uint8_t)(i * 29 + 3);
    cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = W;
    desc.image_height = H;
    desc.image_depth = D;
    cl_int err;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
    CL_OK(err);
    size_t org[3] = { 0, 0, 0 }, reg[3] = { W, H, D };
    CL_OK(clEnqueueWriteImage(queue, img, CL_FALSE, org, reg, RP, SP, host, 0, NULL, NULL));
    size_t v = 0;
    CL_OK(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
    assert_int_equal(v, D);
    CL_OK(clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL));
    assert_int_equal(v, W * 4 * H);
    /* a sub-box read back, packed */
    size_t o2[3] = { 1, 1, 1 }, r2[3] = { 3, 2, 2 };
    uint8_t box[2][2][3][4];
    CL_OK(clEnqueueReadImage(queue, img, CL_TRUE, o2, r2, 0, 0, box, 0, NULL, NULL));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                for (int c = 0; c < 4; c++)
                    assert_int_equal(box[z][y][x][c],
                                     host[(z + 1) * SP + (y + 1) * RP + (x + 1) * 4 + c]);
    /* image to image (a sub-box to the origin), then to a buffer */
    cl_mem img2 = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CL_OK(err);
    CL_OK(clEnqueueCopyImage(queue, img, img2, o2, org, r2, 0, NULL, NULL));
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof box, NULL, &err);
    CL_OK(err);
    CL_OK(clEnqueueCopyImageToBuffer(queue, img2, buf, org, r2, 0, 0, NULL, NULL));
    uint8_t box2[2][2][3][4];
    CL_OK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof box2, box2, 0, NULL, NULL));
    assert_memory_equal(box, box2, sizeof box);
    /* the kernel: each texel / 255 by both reads; get_image_depth */
    const cl_sampler_properties sp[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                         CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                         CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0 };
    cl_sampler smp = clCreateSamplerWithProperties(ctx, sp, &err);
    CL_OK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_float4) * 2 * W * H * D, NULL,
                                &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "vol", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CL_OK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CL_OK(clSetKernelArg(k, 2, sizeof out, &out));
    size_t g[3] = { W, H, D };
    CL_OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, g, NULL, 0, NULL, NULL));
    static float res[W * H * D * 2][4];
    CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    int i = (z * H + y) * W + x;
                    float want = (float)(host[z * SP + y * RP + x * 4 + c] / 255.0);
                    assert_true(res[2 * i][c] == want);
                    assert_true(res[2 * i + 1][c] == want + (c == 3 ? (float)D : 0.0f));
                }
    /* a 3D image for an image2d_t argument is refused */
    cl_kernel k2 = clCreateKernel(program, "samp", &err);
    CL_OK(err);
    assert_int_equal(clSetKernelArg(k2, 0, sizeof img, &img), CL_INVALID_MEM_OBJECT);
    /* formats: the same for reading and for kernel writes (cl_khr_3d_image_writes) */
    cl_uint nr = 0, nw = 1;
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, 0, NULL, &nr));
    CL_OK(clGetSupportedImageFormats(ctx, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE3D, 0, NULL, &nw));
    assert_true(nr > 0);
    assert_int_equal(nw, nr);
    clReleaseKernel(k);
    clReleaseKernel(k2);
    clReleaseSampler(smp);
    clReleaseMemObject(out);
    clReleaseMemObject(buf);
    clReleaseMemObject(img2);
    clReleaseMemObject(img);
}

/* What a program does wrong gets the spec's error codes. */
/* An 8-byte scalar whose value is no pointer (1 here) and a cl_sampler
 * for a sampler_t parameter: only the latter is read as an object. */
static void test_scalar_and_sampler_args(void **state)
{
    (void)state;
    enum { N = 16 };
    cl_int err;
    cl_long out[N];
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "long_arg", &err);
    CL_OK(err);
    cl_long v = 1;
    CL_OK(clSetKernelArg(k, 0, sizeof bo, &bo));
    CL_OK(clSetKernelArg(k, 1, sizeof v, &v));
    size_t g = N;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 1 + i);
    clReleaseKernel(k);
    clReleaseMemObject(bo);

    uint8_t px[N];
    for (int i = 0; i < N; i++)
        px[i] = (uint8_t)(200 - 3 * i);
    cl_image_format fmt = { CL_R, CL_UNSIGNED_INT8 };
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = N;
    desc.image_height = 1;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc, px, &err);
    CL_OK(err);
    cl_uint got[N];
    cl_mem ob = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof got, NULL, &err);
    CL_OK(err);
    cl_sampler_properties sp[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                   CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                   CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0 };
    cl_sampler smp = clCreateSamplerWithProperties(ctx, sp, &err);
    CL_OK(err);
    k = clCreateKernel(program, "samp", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof img, &img));
    CL_OK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CL_OK(clSetKernelArg(k, 2, sizeof ob, &ob));
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    /* x - 1 = -1 clamps to the edge texel */
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], px[i ? i - 1 : 0]);
    clReleaseKernel(k);
    clReleaseSampler(smp);
    clReleaseMemObject(ob);
    clReleaseMemObject(img);
}

/* The options Intel's compiler takes that hosts for Intel GPUs pass
 * (oneDNN adds -cl-intel-256-GRF-per-thread to its layer normalisation and
 * -cl-intel-greater-than-4GB-buffer-required for large buffers) build and
 * run; an option of that family sgemu does not know still fails. */
static void test_intel_build_options(void **state)
{
    (void)state;
    static const char *src =
        "kernel void sq(global int *out) { int i = get_global_id(0); out[i] = i * i; }\n";
    static const char *opts[] = {
        "-cl-intel-greater-than-4GB-buffer-required",
        "-cl-intel-256-GRF-per-thread -cl-std=CL2.0",
        "-cl-intel-128-GRF-per-thread", "-cl-intel-512-GRF-per-thread",
        "-cl-intel-enable-auto-large-GRF-mode -cl-intel-no-prera-scheduling -cl-no-subgroup-ifp",
    };
    cl_int err;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * sizeof(int), NULL, &err);
    CL_OK(err);
    for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
        cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        CL_OK(err);
        CL_OK(clBuildProgram(prog, 1, &device, opts[o], NULL, NULL));
        cl_kernel k = clCreateKernel(prog, "sq", &err);
        CL_OK(err);
        CL_OK(clSetKernelArg(k, 0, sizeof out, &out));
        size_t g = 8;
        CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        int v[8];
        CL_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
        for (int i = 0; i < 8; i++)
            assert_int_equal(v[i], i * i);
        clReleaseKernel(k);
        clReleaseProgram(prog);
    }
    cl_program bp = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    assert_int_not_equal(clBuildProgram(bp, 1, &device, "-cl-intel-no-such-option", NULL, NULL),
                         CL_SUCCESS);
    clReleaseProgram(bp);
    clReleaseMemObject(out);
}

static void test_error_paths(void **state)
{
    (void)state;
    cl_int err;
    assert_null(clCreateKernel(program, "no_such_kernel", &err));
    assert_int_equal(err, CL_INVALID_KERNEL_NAME);
    cl_kernel k = clCreateKernel(program, "add", &err);
    CL_OK(err);
    char c = 0;
    assert_int_equal(clSetKernelArg(k, 3, sizeof c, &c), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 4, sizeof c, &c), CL_INVALID_ARG_INDEX);
    cl_mem notmem = (cl_mem)(void *)queue;
    assert_int_equal(clSetKernelArg(k, 0, sizeof notmem, &notmem), CL_INVALID_MEM_OBJECT);
    size_t g = 64, l = 4096;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                     CL_INVALID_KERNEL_ARGS);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
    CL_OK(err);
    for (cl_uint i = 0; i < 3; i++)
        CL_OK(clSetKernelArg(k, i, sizeof b, &b));
    CL_OK(clSetKernelArg(k, 3, sizeof(int), &(int){ 1 }));
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL),
                     CL_INVALID_WORK_ITEM_SIZE);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 4, NULL, &g, NULL, 0, NULL, NULL),
                     CL_INVALID_WORK_DIMENSION);
    clReleaseKernel(k);
    assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);

    /* a build failure keeps clang's message in the log */
    const char *broken = "kernel void f(global int *p) { p[0] = undefined_name; }\n";
    cl_program bp = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
    CL_OK(err);
    assert_int_equal(clBuildProgram(bp, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    CL_OK(clGetProgramBuildInfo(bp, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    assert_non_null(strstr(log, "undefined_name"));
    cl_build_status bs;
    CL_OK(clGetProgramBuildInfo(bp, device, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    assert_int_equal(bs, CL_BUILD_ERROR);
    assert_null(clCreateKernel(bp, "f", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    assert_int_equal(clBuildProgram(bp, 1, &device, "-bogus-option", NULL, NULL),
                     CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(bp);

    /* a kernel fault: sgemu run's message on stderr, an error on the event,
     * and the program goes on */
    k = clCreateKernel(program, "oob", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof b, &b));
    CL_OK(clSetKernelArg(k, 1, sizeof(int), &(int){ 60 }));
    char errpath[] = "/tmp/sgemu-icd-stderr-XXXXXX";
    int fd = mkstemp(errpath);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    cl_event e;
    CL_OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, &e));
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    cl_int st;
    CL_OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    assert_true(st < 0);
    char msg[2048] = "";
    ssize_t n = pread(fd, msg, sizeof msg - 1, 0);
    close(fd);
    unlink(errpath);
    assert_true(n > 0);
    assert_non_null(strstr(msg, "sgemu: kernel fault:"));
    assert_non_null(strstr(msg, "oob"));
    clReleaseEvent(e);
    /* the queue still works */
    int one = 7;
    CL_OK(clEnqueueWriteBuffer(queue, b, CL_TRUE, 0, sizeof one, &one, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(b);
}

/* printf: by clFinish the launch's output is on the program's stdout, in
 * work-item order, each call returned 0; the device reports the config's
 * buffer size. */
static void test_printf(void **state)
{
    (void)state;
    size_t bs = 0;
    CL_OK(clGetDeviceInfo(device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof bs, &bs, NULL));
    assert_int_equal(bs, cfg.printf_buffer_size);
    assert_true(bs >= 1024 * 1024);     /* the OpenCL full profile's minimum */
    enum { N = 20 };
    cl_int err;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CL_OK(err);
    cl_kernel k = clCreateKernel(program, "hello", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof b, &b));
    char path[] = "/tmp/sgemu-icd-printf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fd, STDOUT_FILENO) >= 0);
    size_t global = N, local = 10;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    cl_int fin = clFinish(queue);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    CL_OK(err);
    CL_OK(fin);
    char got[4096] = "", want[4096] = "";
    ssize_t n = pread(fd, got, sizeof got - 1, 0);
    close(fd);
    unlink(path);
    assert_true(n > 0);
    size_t w = 0;
    for (int i = 0; i < N; i++)
        w += (size_t)snprintf(want + w, sizeof want - w, "item %d of %d: %f,%f\n", i, N,
                              (double)(float)i, 0.5);
    assert_string_equal(got, want);
    int ret[N];
    CL_OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof ret, ret, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        assert_int_equal(ret[i], 0);
    clReleaseKernel(k);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_platform_info),   cmocka_unit_test(test_several_launches),
        cmocka_unit_test(test_struct_and_local_args), cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_subgroup_info),   cmocka_unit_test(test_divergent_group_calls),
        cmocka_unit_test(test_buffers),
        cmocka_unit_test(test_user_events),     cmocka_unit_test(test_profiling),
        cmocka_unit_test(test_images),          cmocka_unit_test(test_error_paths),
        cmocka_unit_test(test_intel_build_options),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_scalar_and_sampler_args),
        cmocka_unit_test(test_image3d),
        cmocka_unit_test(test_float_atomics),
        cmocka_unit_test(test_compile_with_headers),
        cmocka_unit_test(test_link_several),
        cmocka_unit_test(test_program_globals),
        cmocka_unit_test(test_local_arg_alignment),
        cmocka_unit_test(test_work_item_dim_out_of_range),
        cmocka_unit_test(test_bgra_image),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
