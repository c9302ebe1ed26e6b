/* conformance_bcast.cl's vs_T16 shape for tools/igc_fit.py (full, and
 * single: the two-source shuffles replaced by single-source ones), and
 * split: each two-source shuffle done on the vector's two 8-component halves,
 * each half stored right after its own 8 component shuffles.  split holds the
 * same values live and runs the same instructions as full; only the distance
 * from each component's shuffle to its store is shorter.  docs/regalloc.md,
 * Two-source shuffles. */
#define HEAD(name, T) kernel void name(global const T *a, global const T *b, global const uint *idx, \
    global const uint *del, global T *out)
#define LOAD(T, N) size_t g = get_global_id(0); T##N x = vload##N(g, a), y = vload##N(g, b);
#define V(T) \
HEAD(full_##T##16, T) { LOAD(T, 16) \
    vstore16(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore16(intel_sub_group_shuffle_down(x, y, del[g]), 4 * g + 1, out); \
    vstore16(intel_sub_group_shuffle_up(y, x, del[g]), 4 * g + 2, out); \
    vstore16(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); } \
HEAD(split_##T##16, T) { LOAD(T, 16) \
    vstore16(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore8(intel_sub_group_shuffle_down(x.lo, y.lo, del[g]), 8 * g + 2, out); \
    vstore8(intel_sub_group_shuffle_down(x.hi, y.hi, del[g]), 8 * g + 3, out); \
    vstore8(intel_sub_group_shuffle_up(y.lo, x.lo, del[g]), 8 * g + 4, out); \
    vstore8(intel_sub_group_shuffle_up(y.hi, x.hi, del[g]), 8 * g + 5, out); \
    vstore16(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); } \
HEAD(single_##T##16, T) { LOAD(T, 16) \
    vstore16(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore16(intel_sub_group_shuffle(x, del[g]), 4 * g + 1, out); \
    vstore16(intel_sub_group_shuffle(y, del[g]), 4 * g + 2, out); \
    vstore16(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); }
V(short) V(float) V(uint)
