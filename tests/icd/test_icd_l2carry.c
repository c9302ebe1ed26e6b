/* test_icd_l2carry.c - a queue's kernels and transfers share the device's
 * L2 state (memory.l2.keep_across_launches, device_writes_fill; on in
 * nvidia-h100, the device SGEMU_DEVICES names here): each launch's
 * modelled time is that of libsgemu's own run of the same kernel from the
 * cache state the commands before it leave, built here with the public
 * calls (docs/opencl-platform.md, Cache state across launches). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "sgemu.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_cl.h"
#include "icd_session.h"

static const char *source =
    "kernel void add(global const int *a, global const int *b, global int *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n";

enum { N = 8192, LOCAL = 256 };

typedef struct ref {
    emu_config cfg;
    isa_kernel k;
    sgemu_cache_state *s;
    int a[N], b[N], c[N];
} ref;

/* libsgemu's run of add on the state: the modelled ns as the ICD rounds them */
static double ref_ns(ref *r)
{
    sgemu_argval v[3] = { sgemu_arg_buffer(r->a, sizeof r->a), sgemu_arg_buffer(r->b, sizeof r->b),
                          sgemu_arg_buffer(r->c, sizeof r->c) };
    sgemu_launch L = { .dims = 1, .global = { N, 1, 1 }, .local = { LOCAL, 1, 1 },
                       .local_given = true, .timing = true, .caches = r->s };
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(r->k.narg, 3);
    assert_int_equal(sgemu_run(&r->k, &r->cfg, &L, v, &st, &f), 0);
    double ns = (double)st.timing->cycles * 1000.0 / r->cfg.clock_mhz;
    sgemu_stats_free(&st);
    return ns;
}

static double event_ns(cl_event e)
{
    cl_ulong t0, t1;
    CL_OK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_OK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    clReleaseEvent(e);
    return (double)(t1 - t0);
}

static void test_queue_carries_l2(void **state)
{
    (void)state;
    static ref r;
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_named("nvidia-h100", &r.cfg, &d), 0);
    assert_int_equal(r.cfg.timing.l2_keep, 1);
    assert_int_equal(r.cfg.timing.l2_device_writes, 1);
    for (int i = 0; i < N; i++) {
        r.a[i] = i;
        r.b[i] = 3 * i;
    }
    cl_platform_id p;
    cl_device_id dev;
    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    cl_int err;
    cl_queue_properties qp[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    CL_OK(icd_open(&p, &dev, &ctx, &q, qp));
    cl_program prog = icd_build(ctx, dev, source, "");
    size_t il_len = 0;
    CL_OK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof il_len, &il_len, NULL));
    unsigned char *il = malloc(il_len);
    assert_non_null(il);
    CL_OK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof il, &il, NULL));
    sgemu_load_opts lo = { .entry = "add" };
    sgemu_fault lf;
    assert_int_equal(sgemu_kernel_from_memory("add", SGEMU_SOURCE_SPIRV, il, il_len, &lo, &r.k,
                                              NULL, &d, &lf), 0);
    free(il);
    isa_diags_free(&d);

    cl_mem m[3];
    for (int i = 0; i < 3; i++) {
        m[i] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof r.a, i == 1 ? r.b : r.a, &err);
        CL_OK(err);
    }
    cl_kernel k = clCreateKernel(prog, "add", &err);
    CL_OK(err);
    for (int i = 0; i < 3; i++)
        CL_OK(clSetKernelArg(k, (cl_uint)i, sizeof m[i], &m[i]));
    size_t g = N, l = LOCAL;
    cl_event e;
    double got[5], want[5];
    r.s = sgemu_cache_state_new();
    /* 1: cold (host-written inputs); 2: back to back, the L2 warm */
    for (int i = 0; i < 2; i++) {
        CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e));
        CL_OK(clWaitForEvents(1, &e));
        got[i] = event_ns(e);
        want[i] = ref_ns(&r);
    }
    assert_true(want[1] < want[0]);
    /* 3: the host rewrote a: its lines are gone, b's and c's stay */
    CL_OK(clEnqueueWriteBuffer(q, m[0], CL_TRUE, 0, sizeof r.a, r.a, 0, NULL, NULL));
    sgemu_cache_host_write(r.s, &r.cfg, 1, 0, sizeof r.a);
    CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e));
    CL_OK(clWaitForEvents(1, &e));
    got[2] = event_ns(e);
    want[2] = ref_ns(&r);
    assert_true(want[2] > want[1]);
    /* 4: fresh buffers, a and b filled on the device, then the kernel */
    cl_mem f[3];
    for (int i = 0; i < 3; i++) {
        f[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof r.a, NULL, &err);
        CL_OK(err);
        CL_OK(clSetKernelArg(k, (cl_uint)i, sizeof f[i], &f[i]));
    }
    int one = 1;
    CL_OK(clEnqueueFillBuffer(q, f[0], &one, sizeof one, 0, sizeof r.a, 0, NULL, NULL));
    CL_OK(clEnqueueCopyBuffer(q, f[0], f[1], 0, 0, sizeof r.a, 0, NULL, NULL));
    CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e));
    CL_OK(clWaitForEvents(1, &e));
    got[3] = event_ns(e);
    /* the reference: buffers 4, 5, 6 (1-3 stay in the state, unbound) */
    uint64_t ids[3] = { 4, 5, 6 };
    sgemu_cache_state *s2 = r.s;
    assert_int_equal(sgemu_cache_device_write(s2, &r.cfg, ids[0], 0, sizeof r.a), 0);
    assert_int_equal(sgemu_cache_device_write(s2, &r.cfg, ids[1], 0, sizeof r.a), 0);
    {
        sgemu_argval v[3] = { sgemu_arg_buffer(r.a, sizeof r.a), sgemu_arg_buffer(r.b, sizeof r.b),
                              sgemu_arg_buffer(r.c, sizeof r.c) };
        sgemu_launch L = { .dims = 1, .global = { N, 1, 1 }, .local = { LOCAL, 1, 1 },
                           .local_given = true, .timing = true, .caches = s2,
                           .cache_buffer = ids };
        sgemu_stats st;
        sgemu_fault fl;
        assert_int_equal(sgemu_run(&r.k, &r.cfg, &L, v, &st, &fl), 0);
        want[3] = (double)st.timing->cycles * 1000.0 / r.cfg.clock_mhz;
        sgemu_stats_free(&st);
    }
    /* the same kernel on never-written buffers: slower than after the fill */
    {
        sgemu_cache_state *cold = sgemu_cache_state_new();
        sgemu_cache_state *keep = r.s;
        r.s = cold;
        want[4] = ref_ns(&r);
        r.s = keep;
        sgemu_cache_state_free(cold);
    }
    assert_true(want[3] < want[4]);
    for (int i = 0; i < 4; i++)
        assert_true(got[i] > want[i] - 1.0 && got[i] < want[i] + 1.0);
    for (int i = 0; i < 3; i++) {
        clReleaseMemObject(m[i]);
        clReleaseMemObject(f[i]);
    }
    clReleaseKernel(k);
    clReleaseProgram(prog);
    icd_close(ctx, q);
    sgemu_cache_state_free(r.s);
    isa_kernel_free(&r.k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue_carries_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
