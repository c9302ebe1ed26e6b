/* Micro-kernels of conformance_bcast.cl's vb_T16 shape for tools/igc_fit.py:
 * a 16-component vector loaded and its broadcasts stored three times as in
 * the kernel (full), once (one), once beside a plain store of the vector
 * (two), and the vector stored twice with no broadcast (copy).
 * docs/regalloc.md, Uniform values. */
#define BID ((get_group_id(0) * 7 + get_sub_group_id() * 3) % get_sub_group_size())
#define V(T) \
kernel void full_##T##16(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##16 v = vload16(g, a); \
    vstore16(sub_group_broadcast(v, BID), 3 * g, out); \
    vstore16(sub_group_broadcast(v, BID), 3 * g + 1, out); \
    vstore16(sub_group_non_uniform_broadcast(v, BID), 3 * g + 2, out); \
} \
kernel void one_##T##16(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##16 v = vload16(g, a); \
    vstore16(sub_group_broadcast(v, BID), 3 * g, out); \
} \
kernel void two_##T##16(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##16 v = vload16(g, a); \
    vstore16(sub_group_broadcast(v, BID), 3 * g, out); \
    vstore16(v, 3 * g + 1, out); \
} \
kernel void copy_##T##16(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##16 v = vload16(g, a); \
    vstore16(v, 3 * g, out); \
    vstore16(v, 3 * g + 1, out); \
}
V(long) V(int)
