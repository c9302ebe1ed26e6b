/* SIMD32: IGC issues each 32-bit operation and message as two SIMD16
 * halves (test_gen_timing.c). */
__attribute__((intel_reqd_sub_group_size(32)))
__kernel void exp32(__global float *x)
{
    size_t i = get_global_id(0);
    x[i] = native_exp2(x[i]);
}
