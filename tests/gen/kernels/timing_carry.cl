/* A 64-bit add at SIMD8, which tgllp's IGC splits into addc (the carry in
 * acc0) and an add of acc0 (test_gen_timing.c derives its cycles). */
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void carry(__global ulong *x, ulong k)
{
    size_t i = get_global_id(0);
    x[i] = x[i] + k;
}
