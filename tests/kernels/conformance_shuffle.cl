// Conformance audit: data movement between the work-items of a sub-group,
// CTS-shaped (subgroup_common_templates.h SHF/BC): broadcasts, the Khronos
// shuffles (cl_khr_subgroup_shuffle, _relative), rotates
// (cl_khr_subgroup_rotate), the Intel shuffles with their two sources
// (cl_intel_subgroups, _char, _short, _long), non-uniform broadcast,
// broadcast_first and all_equal.  Per work-item: x = a[g], y = b[g],
// index / delta i = idx[g]; rotate delta `delta` (uniform); the masked
// functions run in the work-items of the work-group's CTS mask.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define NOUT 24
#define OVL __attribute__((overloadable))

#define ACTIVE(masks) \
    ((((masks)[4 * (get_group_id(0) % 13) + get_sub_group_local_id() / 32] >> \
       (get_sub_group_local_id() % 32)) & 1u) != 0)

// declarations clang-14's opencl-c.h lacks: cl_khr_subgroup_rotate, the
// cl_intel_subgroups_char shuffles
#define DECL(T) \
    T OVL sub_group_rotate(T v, int d); \
    T OVL sub_group_clustered_rotate(T v, int d, uint c);
#define DECL_CHAR(T) \
    T OVL intel_sub_group_shuffle(T x, uint c); \
    T OVL intel_sub_group_shuffle_down(T cur, T next, uint c); \
    T OVL intel_sub_group_shuffle_up(T prev, T cur, uint c); \
    T OVL intel_sub_group_shuffle_xor(T x, uint c);
DECL(char) DECL(uchar) DECL(short) DECL(ushort) DECL(int) DECL(uint) DECL(long) DECL(ulong)
DECL(float) DECL(double) DECL(half)
DECL_CHAR(char) DECL_CHAR(uchar)

// slots: 0 sub_group_broadcast(x, bid); 1 intel shuffle; 2 intel down(x, y);
// 3 intel up(y, x); 4 intel xor; 5 rotate; 6..11 clustered rotate 1..32;
// masked: 12 shuffle, 13 xor, 14 up, 15 down, 16 non_uniform_broadcast,
// 17 broadcast_first, 18 all_equal(e)
#define KERNEL(T) \
kernel void shf_##T(global const T *a, global const T *b, global const T *e, \
                    global const uint *idx, global T *out, global const uint *masks, \
                    int delta) \
{ \
    size_t g = get_global_id(0); \
    uint W = get_max_sub_group_size(), n = get_sub_group_size(); \
    uint bid = (get_group_id(0) * 7 + get_sub_group_id() * 3) % n; \
    global T *o = out + g * NOUT; \
    T x = a[g], y = b[g]; \
    uint i = idx[g]; \
    o[0] = sub_group_broadcast(x, bid); \
    o[1] = intel_sub_group_shuffle(x, i); \
    o[2] = intel_sub_group_shuffle_down(x, y, i); \
    o[3] = intel_sub_group_shuffle_up(y, x, i); \
    o[4] = intel_sub_group_shuffle_xor(x, i); \
    o[5] = sub_group_rotate(x, delta); \
    o[6] = sub_group_clustered_rotate(x, delta, 1); \
    o[7] = sub_group_clustered_rotate(x, delta, 2); \
    o[8] = sub_group_clustered_rotate(x, delta, 4); \
    o[9] = sub_group_clustered_rotate(x, delta, 8); \
    if (W >= 16) o[10] = sub_group_clustered_rotate(x, delta, 16); \
    if (W >= 32) o[11] = sub_group_clustered_rotate(x, delta, 32); \
    if (ACTIVE(masks)) { \
        o[12] = sub_group_shuffle(x, i); \
        o[13] = sub_group_shuffle_xor(x, i); \
        o[14] = sub_group_shuffle_up(x, i); \
        o[15] = sub_group_shuffle_down(x, i); \
        o[16] = sub_group_non_uniform_broadcast(x, bid); \
        o[17] = sub_group_broadcast_first(x); \
        o[18] = sub_group_non_uniform_all_equal(e[g]) ? (T)1 : (T)0; \
    } \
}
KERNEL(char) KERNEL(uchar) KERNEL(short) KERNEL(ushort) KERNEL(int) KERNEL(uint)
KERNEL(long) KERNEL(ulong) KERNEL(float) KERNEL(double) KERNEL(half)
