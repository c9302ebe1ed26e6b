/* float_atomics.cl - cl_ext_float_atomics as kernel authors write it:
 * atomic_fetch_add / _sub / _min / _max (plain and _explicit) on
 * atomic_float, atomic_double and atomic_half in global and local memory,
 * atomic_exchange / load / store on double and half (the test is
 * test_float_atomics.c).  clang-14 + llvm-spirv-14 turn add, min and max into
 * OpAtomicFAddEXT / FMinEXT / FMaxEXT and leave the float sub as a call. */

/* Every work-item folds its v[i] into four global counters. */
kernel void fa_global(global atomic_float *g, global const float *v)
{
    size_t i = get_global_id(0);
    atomic_fetch_add(&g[0], v[i]);
    atomic_fetch_sub_explicit(&g[1], v[i], memory_order_relaxed);
    atomic_fetch_min(&g[2], v[i]);
    atomic_fetch_max_explicit(&g[3], v[i], memory_order_relaxed, memory_scope_device);
}

/* The same four in local memory, per work-group; work-item 0 of each group
 * writes the group's results to out[4 * group ..]. */
kernel void fa_local(global float *out, global const float *v, local atomic_float *acc)
{
    size_t l = get_local_id(0);
    if (l == 0) {
        atomic_store_explicit(&acc[0], 0.0f, memory_order_relaxed, memory_scope_work_group);
        atomic_store_explicit(&acc[1], 0.0f, memory_order_relaxed, memory_scope_work_group);
        atomic_store_explicit(&acc[2], INFINITY, memory_order_relaxed, memory_scope_work_group);
        atomic_store_explicit(&acc[3], -INFINITY, memory_order_relaxed, memory_scope_work_group);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    float x = v[get_global_id(0)];
    atomic_fetch_add_explicit(&acc[0], x, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_sub(&acc[1], x);
    atomic_fetch_min_explicit(&acc[2], x, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max(&acc[3], x);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        for (int k = 0; k < 4; k++)
            out[4 * get_group_id(0) + k] =
                atomic_load_explicit(&acc[k], memory_order_relaxed, memory_scope_work_group);
}

/* Work-item i alone touches g[i] with b[i], the operation op[i]: 0 add,
 * 1 sub, 2 min, 3 max; so the value returned is the initial one and the
 * result is one operation's, special values included. */
kernel void fa_pairs(global atomic_float *g, global const float *b, global const int *op,
                     global float *old)
{
    size_t i = get_global_id(0);
    if (op[i] == 0)
        old[i] = atomic_fetch_add(&g[i], b[i]);
    else if (op[i] == 1)
        old[i] = atomic_fetch_sub(&g[i], b[i]);
    else if (op[i] == 2)
        old[i] = atomic_fetch_min(&g[i], b[i]);
    else
        old[i] = atomic_fetch_max(&g[i], b[i]);
}

/* double: a sum, a maximum and, on one work-item, the old values. */
kernel void fa_double(global atomic_double *d, global const double *v, global double *old)
{
    size_t i = get_global_id(0);
    atomic_fetch_add(&d[0], v[i]);
    atomic_fetch_max_explicit(&d[1], v[i], memory_order_relaxed);
    atomic_fetch_min(&d[2], v[i]);
    if (i == 0) {
        old[0] = atomic_fetch_add(&d[3], 0.5);
        old[1] = atomic_fetch_sub(&d[3], 2.0);
        old[2] = atomic_exchange(&d[3], -4.0);
        old[3] = atomic_load(&d[3]);
    }
}

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
/* half: min and max over every work-item (clang-14's header has no half
 * add); on one work-item exchange, store and load. */
kernel void fa_half(global atomic_half *h, global const half *v, global half *old)
{
    size_t i = get_global_id(0);
    atomic_fetch_min(&h[0], v[i]);
    atomic_fetch_max_explicit(&h[1], v[i], memory_order_relaxed, memory_scope_device);
    if (i == 0) {
        old[0] = atomic_exchange(&h[2], (half)2.5f);
        old[1] = atomic_fetch_max(&h[2], (half)-1.0f);
        atomic_store(&h[3], (half)-0.5f);
        old[2] = atomic_load(&h[3]);
    }
}
