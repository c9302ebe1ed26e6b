/* a data-dependent loop: SIMD control flow, which the Gen path does not
 * execute yet (the error names the instruction and its offset) */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void loop(global const int *a, global int *c)
{
    size_t i = get_global_id(0);
    int s = 0;
    for (int k = 0; k < a[i]; k++)
        s += k * k;
    c[i] = s;
}
