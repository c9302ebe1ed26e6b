/* vector add: the payload (global id from R0, local IDs and the cross-thread
 * data) and 32-bit loads and stores */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void vadd(global const float *a, global const float *b, global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
