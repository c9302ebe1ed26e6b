// Conformance audit: vector broadcasts (cl_khr_subgroup_extended_types:
// sub_group_broadcast of 2-, 3-, 4-, 8- and 16-component vectors of every
// type; cl_intel_subgroups_short / _char: intel_sub_group_broadcast of
// scalars; clang-14 adds short vectors up to 8, used here too).  Work-item
// g reads the vector a[N g .. N g + N - 1] and writes the broadcast to
// vector 3 g (Khronos), 3 g + 1 (Intel where it exists, else Khronos) and
// 3 g + 2 (sub_group_non_uniform_broadcast, cl_khr_subgroup_ballot: scalars
// and vectors of every type).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OVL __attribute__((overloadable))

// the _char spellings (clang-14's header has the _short ones)
char OVL intel_sub_group_broadcast(char x, uint id);
uchar OVL intel_sub_group_broadcast(uchar x, uint id);

#define BID ((get_group_id(0) * 7 + get_sub_group_id() * 3) % get_sub_group_size())
#define KHR(v) sub_group_broadcast(v, BID)
#define INTEL(v) intel_sub_group_broadcast(v, BID)

#define VK(T, N, SECOND) \
kernel void vb_##T##N(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##N v = vload##N(g, a); \
    vstore##N(KHR(v), 3 * g, out); \
    vstore##N(SECOND(v), 3 * g + 1, out); \
    vstore##N(sub_group_non_uniform_broadcast(v, BID), 3 * g + 2, out); \
}
#define SK(T, SECOND) \
kernel void vb_##T##1(global const T *a, global T *out) \
{ \
    size_t g = get_global_id(0); \
    out[3 * g] = KHR(a[g]); \
    out[3 * g + 1] = SECOND(a[g]); \
    out[3 * g + 2] = sub_group_non_uniform_broadcast(a[g], BID); \
}
#define ALLN(T, SECOND, VSECOND) SK(T, SECOND) VK(T, 2, VSECOND) VK(T, 3, VSECOND) \
    VK(T, 4, VSECOND) VK(T, 8, VSECOND) VK(T, 16, KHR)
ALLN(char, INTEL, KHR) ALLN(uchar, INTEL, KHR) ALLN(short, INTEL, INTEL)
ALLN(ushort, INTEL, INTEL)
ALLN(int, KHR, KHR) ALLN(uint, KHR, KHR) ALLN(long, KHR, KHR) ALLN(ulong, KHR, KHR)
ALLN(float, KHR, KHR) ALLN(double, KHR, KHR) ALLN(half, KHR, KHR)

// Intel shuffles of vectors (cl_intel_subgroups: float/int/uint n = 2, 3,
// 4, 8, 16; _short: short/ushort n; _char: char/uchar n): x = vector g of
// a, y = vector g of b, i = idx[g] (< W), d = del[g] (<= W); outputs
// vectors 4 g .. 4 g + 3: shuffle(x, i), shuffle_down(x, y, d),
// shuffle_up(y, x, d), shuffle_xor(x, i).
#define CDECL(T) \
    T OVL intel_sub_group_shuffle(T x, uint c); \
    T OVL intel_sub_group_shuffle_down(T cur, T next, uint c); \
    T OVL intel_sub_group_shuffle_up(T prev, T cur, uint c); \
    T OVL intel_sub_group_shuffle_xor(T x, uint c);
CDECL(char2) CDECL(char16) CDECL(uchar4) CDECL(uchar16)
#define VS(T, N) \
kernel void vs_##T##N(global const T *a, global const T *b, global const uint *idx, \
                      global const uint *del, global T *out) \
{ \
    size_t g = get_global_id(0); \
    T##N x = vload##N(g, a), y = vload##N(g, b); \
    vstore##N(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore##N(intel_sub_group_shuffle_down(x, y, del[g]), 4 * g + 1, out); \
    vstore##N(intel_sub_group_shuffle_up(y, x, del[g]), 4 * g + 2, out); \
    vstore##N(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); \
}
VS(float, 2) VS(float, 3) VS(float, 16) VS(int, 4) VS(int, 8) VS(uint, 3) VS(uint, 16)
VS(short, 16) VS(ushort, 3) VS(char, 2) VS(char, 16) VS(uchar, 4) VS(uchar, 16)
