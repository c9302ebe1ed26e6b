// Conformance audit: sub-group reductions and scans, CTS-shaped.  One kernel
// per type: the cl_khr_subgroups / extended-types forms over the whole
// sub-group, then the non-uniform forms (cl_khr_subgroup_non_uniform_
// arithmetic) and the clustered reductions (cl_khr_subgroup_clustered_reduce)
// in the work-items that the CTS work-item mask of this work-group selects
// (mask = masks[4 * (group id % 13) .. + 3], bit l % 32 of word l / 32).
// Every work-item writes NOUT slots; slots it does not compute keep the
// host's fill.  Inputs: a (general values), m (values for mul).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define NOUT 112

#define OVL __attribute__((overloadable))
// cl_intel_subgroups_char (clang-14's header has the _short ones only)
char OVL intel_sub_group_reduce_add(char x);
char OVL intel_sub_group_reduce_min(char x);
char OVL intel_sub_group_reduce_max(char x);
char OVL intel_sub_group_scan_inclusive_add(char x);
char OVL intel_sub_group_scan_inclusive_min(char x);
char OVL intel_sub_group_scan_inclusive_max(char x);
char OVL intel_sub_group_scan_exclusive_add(char x);
char OVL intel_sub_group_scan_exclusive_min(char x);
char OVL intel_sub_group_scan_exclusive_max(char x);
uchar OVL intel_sub_group_reduce_add(uchar x);
uchar OVL intel_sub_group_reduce_min(uchar x);
uchar OVL intel_sub_group_reduce_max(uchar x);
uchar OVL intel_sub_group_scan_inclusive_add(uchar x);
uchar OVL intel_sub_group_scan_inclusive_min(uchar x);
uchar OVL intel_sub_group_scan_inclusive_max(uchar x);
uchar OVL intel_sub_group_scan_exclusive_add(uchar x);
uchar OVL intel_sub_group_scan_exclusive_min(uchar x);
uchar OVL intel_sub_group_scan_exclusive_max(uchar x);

#define ACTIVE(masks) \
    ((((masks)[4 * (get_group_id(0) % 13) + get_sub_group_local_id() / 32] >> \
       (get_sub_group_local_id() % 32)) & 1u) != 0)

// slots 0..8: reduce, inclusive, exclusive of add, min, max (uniform)
#define UNIFORM(P, x) \
    o[0] = P##reduce_add(x); o[1] = P##reduce_min(x); o[2] = P##reduce_max(x); \
    o[3] = P##scan_inclusive_add(x); o[4] = P##scan_inclusive_min(x); \
    o[5] = P##scan_inclusive_max(x); o[6] = P##scan_exclusive_add(x); \
    o[7] = P##scan_exclusive_min(x); o[8] = P##scan_exclusive_max(x);
#define NU3(k, op, v) \
    o[k] = sub_group_non_uniform_reduce_##op(v); \
    o[k + 1] = sub_group_non_uniform_scan_inclusive_##op(v); \
    o[k + 2] = sub_group_non_uniform_scan_exclusive_##op(v);
// clustered: slot k + j for cluster size 2^j, j = 0..5 (up to the max size)
#define CLU(k, op, v) \
    o[k] = sub_group_clustered_reduce_##op(v, 1); \
    o[k + 1] = sub_group_clustered_reduce_##op(v, 2); \
    o[k + 2] = sub_group_clustered_reduce_##op(v, 4); \
    o[k + 3] = sub_group_clustered_reduce_##op(v, 8); \
    if (W >= 16) o[k + 4] = sub_group_clustered_reduce_##op(v, 16); \
    if (W >= 32) o[k + 5] = sub_group_clustered_reduce_##op(v, 32);

// slots 9..20: non-uniform add(a), mul(m), min(a), max(a) x (reduce, inc, exc)
// slots 21..29: and, or, xor (integers); 30..38: logical and, or, xor of a & 0x100 (int)
// slots 40..63: clustered add, mul, min, max; 64..81: and, or, xor; 82..99: logical (int)
// slots 100..108: intel_sub_group_* reduce/scan (char, uchar, short, ushort)
#define KERNEL(T, EXTRA) \
kernel void arith_##T(global const T *a, global const T *m, global T *out, \
                      global const uint *masks) \
{ \
    size_t g = get_global_id(0); \
    uint W = get_max_sub_group_size(); \
    global T *o = out + g * NOUT; \
    T x = a[g], y = m[g]; \
    UNIFORM(sub_group_, x) \
    if (ACTIVE(masks)) { \
        NU3(9, add, x) NU3(12, mul, y) NU3(15, min, x) NU3(18, max, x) \
        CLU(40, add, x) CLU(46, mul, y) CLU(52, min, x) CLU(58, max, x) \
        EXTRA \
    } \
}
#define BITS \
    NU3(21, and, x) NU3(24, or, x) NU3(27, xor, x) \
    CLU(64, and, x) CLU(70, or, x) CLU(76, xor, x)
#define LOGIC \
    { int p = x & 0x100; \
      NU3(30, logical_and, p) NU3(33, logical_or, p) NU3(36, logical_xor, p) \
      CLU(82, logical_and, p) CLU(88, logical_or, p) CLU(94, logical_xor, p) }

KERNEL(char, BITS)
KERNEL(uchar, BITS)
KERNEL(short, BITS)
KERNEL(ushort, BITS)
KERNEL(int, BITS LOGIC)
KERNEL(uint, BITS)
KERNEL(long, BITS)
KERNEL(ulong, BITS)
KERNEL(float, )
KERNEL(double, )
KERNEL(half, )

// the cl_intel_subgroups_short / _char spellings, over the whole sub-group
#define INTEL(T) \
kernel void intel_##T(global const T *a, global T *out) \
{ \
    global T *o = out + get_global_id(0) * 9; \
    T x = a[get_global_id(0)]; \
    UNIFORM(intel_sub_group_, x) \
}
INTEL(char)
INTEL(uchar)
INTEL(short)
INTEL(ushort)
