// local_reduce: tree reduction in local memory with work-group barriers;
// out[g] = sum of in[] over work-group g (local size a power of two).
//   sgemu run examples/opencl/local_reduce.cl --global 4096 --local 256 \
//     --arg in=int:random:4096:7 --arg out=int:zeros:16 --arg scratch=local:1024 --out out
__kernel void local_reduce(__global const int *in, __global int *out,
                           __local int *scratch)
{
    uint lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
