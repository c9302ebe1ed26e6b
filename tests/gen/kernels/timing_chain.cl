/* A dependence chain through memory, a mad and extended math at SIMD16
 * (test_gen_timing.c derives its cycles by hand). */
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void chain(__global float *x, float k)
{
    size_t i = get_global_id(0);
    x[i] = native_sqrt(x[i] * k + 1.0f);
}
