/* icd_session.h - the OpenCL objects an ICD test works with: the one
 * platform its OCL_ICD_VENDORS names, that platform's GPU device, a
 * context and a queue; and a program build that fails the test with the
 * build log.  Include after <CL/cl.h>, <cmocka.h> and test_cl.h. */
#ifndef SGEMU_ICD_SESSION_H
#define SGEMU_ICD_SESSION_H

#include <stdio.h>

/* CL_SUCCESS, or the error of the first call that failed (the objects
 * made before it stay for icd_close).  qp: the queue's properties, or
 * NULL. */
static inline cl_int icd_open(cl_platform_id *platform, cl_device_id *device, cl_context *ctx,
                              cl_command_queue *queue, const cl_queue_properties *qp)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(1, platform, &n);
    if (err || n != 1)
        return err ? err : CL_INVALID_PLATFORM;
    if ((err = clGetDeviceIDs(*platform, CL_DEVICE_TYPE_GPU, 1, device, NULL)))
        return err;
    *ctx = clCreateContext(NULL, 1, device, NULL, NULL, &err);
    if (err)
        return err;
    *queue = clCreateCommandQueueWithProperties(*ctx, *device, qp, &err);
    return err;
}

static inline void icd_close(cl_context ctx, cl_command_queue queue)
{
    if (queue)
        clReleaseCommandQueue(queue);
    if (ctx)
        clReleaseContext(ctx);
}

/* src built for device with options; a failed build fails the test and
 * prints the build log. */
static inline cl_program icd_build(cl_context ctx, cl_device_id device, const char *src,
                                   const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CL_OK(err);
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    if (err) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("build failed (%d):\n%s", (int)err, log);
    }
    return p;
}

#endif
