/* Micro-kernels of conformance_bcast.cl's vs_T16 shape for tools/igc_fit.py:
 * the smallest register file IGC compiles each in without a spill, with the
 * two-source shuffles (full), with single-source ones reading the same
 * vectors for as long (single), with one of them (nodown), and the loads
 * alone (downonly, copy, add).  docs/regalloc.md, Two-source shuffles. */
#define HEAD(name, T) kernel void name(global const T *a, global const T *b, global const uint *idx, \
    global const uint *del, global T *out)
#define LOAD(T, N) size_t g = get_global_id(0); T##N x = vload##N(g, a), y = vload##N(g, b);
#define V(T, N) \
HEAD(full_##T##N, T) { LOAD(T, N) \
    vstore##N(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore##N(intel_sub_group_shuffle_down(x, y, del[g]), 4 * g + 1, out); \
    vstore##N(intel_sub_group_shuffle_up(y, x, del[g]), 4 * g + 2, out); \
    vstore##N(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); } \
HEAD(single_##T##N, T) { LOAD(T, N) \
    vstore##N(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore##N(intel_sub_group_shuffle(x, del[g]), 4 * g + 1, out); \
    vstore##N(intel_sub_group_shuffle(y, del[g]), 4 * g + 2, out); \
    vstore##N(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); } \
HEAD(nodown_##T##N, T) { LOAD(T, N) \
    vstore##N(intel_sub_group_shuffle(x, idx[g]), 4 * g, out); \
    vstore##N(intel_sub_group_shuffle_up(y, x, del[g]), 4 * g + 2, out); \
    vstore##N(intel_sub_group_shuffle_xor(x, idx[g]), 4 * g + 3, out); } \
HEAD(downonly_##T##N, T) { LOAD(T, N) \
    vstore##N(intel_sub_group_shuffle_down(x, y, del[g]), 4 * g + 1, out); } \
HEAD(copy_##T##N, T) { LOAD(T, N) \
    vstore##N(x, 4 * g, out); vstore##N(y, 4 * g + 1, out); } \
HEAD(add_##T##N, T) { LOAD(T, N) \
    vstore##N(x + y, 4 * g, out); }
V(float, 16) V(uint, 16) V(short, 16)
