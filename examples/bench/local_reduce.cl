// local_reduce: OpenCL C twin of local_reduce.sgasm (tree reduction in local
// memory; the local size must be a power of two)
kernel void local_reduce(global const int *in, global int *out, local int *scratch)
{
    uint lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] = (int)((uint)scratch[lid] + (uint)scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
