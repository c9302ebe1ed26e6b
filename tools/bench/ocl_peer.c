/* ocl_peer.c - runs one bench workload's OpenCL C twin on the first OpenCL
 * platform (PoCL when run plainly, Oclgrind when started as
 * `oclgrind sgemu-ocl-peer ...`), with the inputs the bench gives sgemu.
 *   sgemu-ocl-peer SRC_ROOT WORKLOAD N REPS
 * prints: "<platform>\t<seconds per run>\t<fnv1a of the output>" */
#define CL_TARGET_OPENCL_VERSION 120
#include "bench.h"
#include "ocl_host.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const char *what, cl_int e)
{
    fprintf(stderr, "sgemu-ocl-peer: %s failed (%d)\n", what, (int)e);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sgemu-ocl-peer SRC_ROOT WORKLOAD N REPS\n");
        return 1;
    }
    const bench_work *w = NULL;
    for (uint32_t i = 0; i < bench_nworks; i++)
        if (!strcmp(bench_works[i].name, argv[2]))
            w = &bench_works[i];
    if (!w || !w->cl_file)
        return fail("finding an OpenCL C twin of the workload", 0);
    uint64_t n = strtoull(argv[3], NULL, 0);
    int reps = atoi(argv[4]);
    bench_inst b;
    memset(&b, 0, sizeof b);
    b.n = n;
    b.width = 16;
    if (w->setup(&b, n, 16))
        return fail("allocating inputs", 0);

    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], w->cl_file);
    size_t len;
    char *src = file_read_all(path, &len);
    if (!src)
        return fail("reading the kernel source", 0);

    cl_int e;
    cl_platform_id plat;
    cl_device_id dev;
    char pname[256] = "";
    if ((e = clGetPlatformIDs(1, &plat, NULL)) != CL_SUCCESS)
        return fail("clGetPlatformIDs", e);
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    if ((e = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) != CL_SUCCESS)
        return fail("clGetDeviceIDs", e);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!ctx)
        return fail("clCreateContext", e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    if (!q)
        return fail("clCreateCommandQueue", e);
    char log[8192];
    const char *step;
    cl_program prog = ocl_build(ctx, dev, src, len, &e, &step, log, sizeof log);
    if (!prog) {
        if (log[0])
            fprintf(stderr, "%s\n", log);
        return fail(step, e);
    }
    cl_kernel kern = clCreateKernel(prog, w->name, &e);
    if (!kern)
        return fail("clCreateKernel", e);
    cl_mem mems[BENCH_MAX_ARGS] = { 0 };
    for (uint32_t i = 0; i < b.nargs; i++) {
        sgemu_argval *v = &b.args[i];
        if (v->kind == SGEMU_VAL_BUFFER) {
            mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     v->bytes, v->data, &e);
            if (!mems[i])
                return fail("clCreateBuffer", e);
            e = clSetKernelArg(kern, i, sizeof mems[i], &mems[i]);   // NOLINT(bugprone-sizeof-expression): OpenCL takes the cl_mem handle's size
        } else if (v->kind == SGEMU_VAL_LOCAL) {
            e = clSetKernelArg(kern, i, v->bytes, NULL);
        } else {
            cl_uint s = (cl_uint)v->scalar;     /* the twins take uint scalars */
            e = clSetKernelArg(kern, i, sizeof s, &s);
        }
        if (e != CL_SUCCESS)
            return fail("clSetKernelArg", e);
    }
    size_t gs[3], ls[3];
    for (int d = 0; d < 3; d++) {
        gs[d] = b.global[d];
        ls[d] = b.local[d];
    }
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        e = clEnqueueNDRangeKernel(q, kern, b.dims, NULL, gs, ls, 0, NULL, NULL);
        if (e != CL_SUCCESS)
            return fail("clEnqueueNDRangeKernel", e);
        clFinish(q);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    uint8_t *out = bench_out_data(&b);
    e = clEnqueueReadBuffer(q, mems[b.out_arg], CL_TRUE, 0, bench_out_bytes(&b), out, 0,
                            NULL, NULL);
    if (e != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", e);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bench_out_bytes(&b); i++)
        h = (h ^ out[i]) * 0x100000001b3ull;
    printf("%s\t%.9f\t%016llx\n", pname, best, (unsigned long long)h);
    for (uint32_t i = 0; i < b.nargs; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    clReleaseKernel(kern);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    bench_inst_free(&b);
    return 0;
}
