// Conformance audit: the work-group functions (CTS workgroups/ shapes):
// work_group_reduce_/scan_inclusive_/scan_exclusive_{add,min,max} of the
// spec types (int uint long ulong half float double), work_group_broadcast
// in 1, 2 and 3 dimensions, work_group_all/any.
// Work-item with global linear id g reads a[g], predicate p[g], and the
// broadcast ids of its work-group from ids[3 * group linear id ..]; writes
// 12 slots at out[12 g].
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define KERNEL(T) \
kernel void wg_##T(global const T *a, global const int *p, global const uint *ids, \
                   global T *out) \
{ \
    size_t g = get_global_linear_id(); \
    size_t grp = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + \
                 get_num_groups(1) * get_group_id(2)); \
    global const uint *id = ids + 3 * grp; \
    global T *o = out + 12 * g; \
    T x = a[g]; \
    o[0] = work_group_reduce_add(x); \
    o[1] = work_group_reduce_min(x); \
    o[2] = work_group_reduce_max(x); \
    o[3] = work_group_scan_inclusive_add(x); \
    o[4] = work_group_scan_inclusive_min(x); \
    o[5] = work_group_scan_inclusive_max(x); \
    o[6] = work_group_scan_exclusive_add(x); \
    o[7] = work_group_scan_exclusive_min(x); \
    o[8] = work_group_scan_exclusive_max(x); \
    uint d = get_work_dim(); \
    if (d == 1) \
        o[9] = work_group_broadcast(x, (size_t)id[0]); \
    else if (d == 2) \
        o[9] = work_group_broadcast(x, (size_t)id[0], (size_t)id[1]); \
    else \
        o[9] = work_group_broadcast(x, (size_t)id[0], (size_t)id[1], (size_t)id[2]); \
    o[10] = work_group_all(p[g]) ? (T)1 : (T)0; \
    o[11] = work_group_any(p[g]) ? (T)1 : (T)0; \
}
KERNEL(int) KERNEL(uint)
KERNEL(long) KERNEL(ulong) KERNEL(float) KERNEL(double) KERNEL(half)
