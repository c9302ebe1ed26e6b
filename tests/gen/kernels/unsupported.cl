/* rotate(): IGC's rol, an instruction the Gen path does not execute yet
 * (the error names the instruction and its offset) */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void unsupported(global const uint *a, global uint *c)
{
    size_t i = get_global_id(0);
    c[i] = rotate(a[i], a[i + 1]);
}
