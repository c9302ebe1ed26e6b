/* test_icd_reqd_wg.c - a kernel compiled with reqd_work_group_size through
 * sgemu's ICD: CL_KERNEL_COMPILE_WORK_GROUP_SIZE reports the size, a launch
 * without a local size runs with it, and a launch with another local size
 * fails with CL_INVALID_WORK_GROUP_SIZE (OpenCL 3.0 clEnqueueNDRangeKernel).
 * SimpleOpenCLSamples' matrix samples query the size and pass it back. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_cl.h"
#include "icd_session.h"

static const char *source =
    "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "kernel void sized(global int *o) {\n"
    "    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    o[i] = (int)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2));\n"
    "}\n"
    "kernel void free_size(global int *o) { o[get_global_id(0)] = 1; }\n";

static void test_reqd_work_group_size(void **state)
{
    (void)state;
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    cl_int err;
    CL_OK(icd_open(&platform, &device, &ctx, &q, NULL));
    cl_program p = icd_build(ctx, device, source, "");
    cl_kernel k = clCreateKernel(p, "sized", &err);
    CL_OK(err);
    cl_kernel kf = clCreateKernel(p, "free_size", &err);
    CL_OK(err);

    size_t wg[3];
    CL_OK(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
    assert_int_equal(wg[0], 8);
    assert_int_equal(wg[1], 2);
    assert_int_equal(wg[2], 1);
    CL_OK(clGetKernelWorkGroupInfo(kf, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
    assert_int_equal(wg[0] | wg[1] | wg[2], 0);

    enum { W = 16, H = 4 };
    cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, W * H * sizeof(int), NULL, &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof o, &o));
    const size_t global[2] = { W, H };
    CL_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
    int out[W * H];
    CL_OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < W * H; i++)
        assert_int_equal(out[i], 821);

    const size_t same[2] = { 8, 2 }, other[2] = { 16, 1 };
    CL_OK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, same, 0, NULL, NULL));
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 2, NULL, global, other, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    const size_t line[1] = { 8 };   /* one dimension: Y would be 1, not 2 */
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, line, line, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    CL_OK(clFinish(q));

    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseKernel(kf);
    clReleaseProgram(p);
    icd_close(ctx, q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reqd_work_group_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
