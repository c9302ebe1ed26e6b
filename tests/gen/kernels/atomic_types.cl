/* arguments of OpenCL C's atomic types: IGC's type_name names them
 * (atomic_int*), and sgemu takes their value type, as its own path does */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void atomic_types(global atomic_int *a, global atomic_uint *b, global atomic_long *c)
{
    int i = get_global_id(0);
    atomic_fetch_add(a, i);
    atomic_fetch_max(b, (uint)i * 3u);
    atomic_fetch_sub(c, (long)i << 33);
}
