/* SLM write, fence, barrier and SLM read at SIMD8 (test_gen_timing.c). */
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void slm_reverse(__global int *x)
{
    __local int t[8];
    int l = get_local_id(0);
    t[l] = x[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[l] = t[7 - l];
}
