/* Pairs for tools/igc_fit.py: a two-source shuffle (two_T) and a
 * single-source one (one_T) of the same operands, both live across it (x + y
 * is stored after it); the difference of their smallest register files is
 * what the two-source form costs IGC.  docs/regalloc.md, Two-source shuffles. */
#define HEAD(name, T) kernel void name(global const T *a, global const T *b, \
    global const uint *del, global T *out)
#define P(T, N, LD, ST) \
HEAD(two_##T##N, T) { size_t g = get_global_id(0); T##N x = LD(g, a), y = LD(g, b); \
    ST(intel_sub_group_shuffle_down(x, y, del[g]), 2 * g, out); ST(x + y, 2 * g + 1, out); } \
HEAD(one_##T##N, T) { size_t g = get_global_id(0); T##N x = LD(g, a), y = LD(g, b); \
    ST(intel_sub_group_shuffle(x, del[g]), 2 * g, out); ST(x + y, 2 * g + 1, out); }
#define V(T, N) P(T, N, vload##N, vstore##N)
#define S1(g, p) p[g]
#define S1ST(v, i, p) p[i] = v
P(float, , S1, S1ST) P(short, , S1, S1ST) P(char, , S1, S1ST)
V(float, 2) V(float, 4) V(float, 8) V(float, 16)
V(short, 4) V(short, 8) V(short, 16) V(char, 16) V(uchar, 4) V(ushort, 3) V(float, 3)
