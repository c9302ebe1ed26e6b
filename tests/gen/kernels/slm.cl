/* shared local memory (a static array, a local argument and bytes),
 * barriers across the hardware threads of a work-group, and atomics on
 * local and global memory (with and without their old value) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void slm(global const int *a, global int *c, global uint *cnt, local int *tmp)
{
    local int st[64];
    local uchar bytes[64];
    size_t l = get_local_id(0), i = get_global_id(0), L = get_local_size(0);
    st[l] = a[i];
    tmp[l] = a[i] * 2;
    bytes[l] = (uchar)a[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    c[4 * i] = st[(l + 1) % L] + tmp[L - 1 - l];
    c[4 * i + 1] = bytes[L - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&st[0], (int)l);
    atomic_max(&st[1], a[i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    c[4 * i + 2] = st[0] + st[1];
    c[4 * i + 3] = (int)atomic_inc(&cnt[0]);
    atomic_min((global int *)&cnt[1], a[i]);
    atomic_cmpxchg(&cnt[2], 0u, 77u);
    atomic_xor(&cnt[3], (uint)a[i]);
}
