/* named barriers (Xe-HPC): sub-groups 0 and 1 exchange data through local
 * memory twice at barrier a, sub-groups 2 and 3 once at barrier b; one
 * barrier for all four would never complete the second round */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void named_barrier(global const int *in, global int *o)
{
    local NamedBarrier_t *a = named_barrier_init(2);
    local NamedBarrier_t *b = named_barrier_init(2);
    local int s[64];
    int l = get_local_id(0), g = get_global_id(0);
    s[l] = in[g] * 3;
    if (get_sub_group_id() < 2) {
        work_group_named_barrier(a, CLK_LOCAL_MEM_FENCE);
        int v = s[l ^ 16];
        work_group_named_barrier(a, CLK_LOCAL_MEM_FENCE);
        s[l] = v + 1;
        work_group_named_barrier(a, CLK_LOCAL_MEM_FENCE);
        o[g] = s[l ^ 16];
    } else {
        work_group_named_barrier(b, CLK_LOCAL_MEM_FENCE);
        o[g] = s[l ^ 16];
    }
}
