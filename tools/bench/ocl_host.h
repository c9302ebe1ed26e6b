/* ocl_host.h - OpenCL host code shared by the bench's OpenCL peer
 * (ocl_peer.c) and the PoCL cross-check (tests/pocl/test_pocl.c): building
 * an OpenCL C program with its log (and file_read.h).  Header-only
 * (static inline) as both are single-file programs, built only where the
 * OpenCL headers and ICD loader are found (define CL_TARGET_OPENCL_VERSION
 * before including it). */
#ifndef SGEMU_OCL_HOST_H
#define SGEMU_OCL_HOST_H

#include "file_read.h"

#include <CL/cl.h>

/* The OpenCL C source src (len bytes) built for dev, or NULL with *err the
 * OpenCL error and *step the call that failed; a failed build leaves its
 * log in log (logn > 0 bytes, NUL-terminated). */
static inline cl_program ocl_build(cl_context ctx, cl_device_id dev, const char *src,
                                   size_t len, cl_int *err, const char **step, char *log,
                                   size_t logn)
{
    const char *srcs[1] = { src };
    log[0] = 0;
    *step = "clCreateProgramWithSource";
    cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, &len, err);
    if (!prog || *err != CL_SUCCESS)
        return NULL;
    *step = "clBuildProgram";
    *err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (*err != CL_SUCCESS) {
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, logn - 1, log, NULL);
        log[logn - 1] = 0;
        clReleaseProgram(prog);
        return NULL;
    }
    return prog;
}

#endif
