// reduce_atomic: a reference reduction written as GPU library kernels write
// it (oneDNN's OpenCL reduction and normalisation statistics take this shape):
// src is an N x C x SP float tensor (NCHW, SP = H x W); per channel c,
// sum[c] = the sum of src[n][c][sp] over n and sp and amax[c] its maximum.
// Each work-group covers `local size` consecutive sp of one (n, c) row
// (SP a multiple of the local size): its work-items fold their element into
// two local atomic_float partials, and work-item 0 adds the partials into
// the channel's global results with float atomics (cl_ext_float_atomics,
// OpAtomicFAddEXT / OpAtomicFMaxEXT).
//   sgemu run examples/opencl/reduce_atomic.cl --global 8192 --local 64 \
//     --arg src=float:iota:8192 --arg sum=float:zeros:8 --arg amax=float:zeros:8 \
//     --arg C=8 --arg SP=256 --arg part=local:8 --out sum --out amax
__kernel void reduce_atomic(__global const float *src, __global atomic_float *sum,
                            __global atomic_float *amax, int C, int SP,
                            __local atomic_float *part)
{
    size_t i = get_global_id(0);
    int c = (int)((i / (size_t)SP) % (size_t)C);
    if (get_local_id(0) == 0) {
        atomic_store_explicit(&part[0], 0.0f, memory_order_relaxed, memory_scope_work_group);
        atomic_store_explicit(&part[1], -INFINITY, memory_order_relaxed,
                              memory_scope_work_group);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float x = src[i];
    atomic_fetch_add_explicit(&part[0], x, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&part[1], x, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        float s = atomic_load_explicit(&part[0], memory_order_relaxed, memory_scope_work_group);
        float m = atomic_load_explicit(&part[1], memory_order_relaxed, memory_scope_work_group);
        atomic_fetch_add_explicit(&sum[c], s, memory_order_relaxed, memory_scope_device);
        atomic_fetch_max_explicit(&amax[c], m, memory_order_relaxed, memory_scope_device);
    }
}
