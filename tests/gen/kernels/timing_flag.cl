/* A select that tgllp's IGC builds from a cmp writing only f0.0 and a mov
 * predicated on it (test_gen_timing.c derives its cycles). */
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void flag(__global int *x, int k)
{
    size_t i = get_global_id(0);
    int v = x[i];
    x[i] = (v > k) ? v * 7 : 9;
}
