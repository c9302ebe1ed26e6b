/* dp4a, an instruction the Gen path does not execute (the error names the
 * instruction and its offset), reached through IGC's own built-in for it
 * (IGC declares it; OpenCL C 3.0's integer dot products need stack calls
 * in this IGC) */
int __builtin_IB_dp4a_uu(int c, int a, int b);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void unsupported(global const uint *a, global uint *c)
{
    size_t i = get_global_id(0);
    c[i] = (uint)__builtin_IB_dp4a_uu((int)c[i], (int)a[i], (int)a[i + 1]);
}
