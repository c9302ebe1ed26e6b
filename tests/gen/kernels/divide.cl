/* 32-bit integer division: on Xe-HPC IGC divides through double precision,
 * with `mad ... :df` in the rounding modes its code sets in cr0 */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void divide(global const uint *a, global const uint *b, global uint *q,
                   global uint *r, global int *sq, global int *sr)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    q[i] = x / y;
    r[i] = x % y;
    sq[i] = (int)x / (int)y;
    sr[i] = (int)x % (int)y;
}
