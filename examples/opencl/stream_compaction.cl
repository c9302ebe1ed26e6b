// stream_compaction: keep the positive elements of in[]; sub-group scans give
// each kept element its slot, one atomic per sub-group reserves the space.
//   sgemu run examples/opencl/stream_compaction.cl --global 1024 --local 128 \
//     --arg in=int:random:1024:5 --arg out=int:zeros:1024 --arg count=uint:zeros:1 \
//     --out count
__kernel void stream_compaction(__global const int *in, __global int *out,
                                __global uint *count)
{
    int v = in[get_global_id(0)];
    uint keep = v > 0 ? 1u : 0u;
    uint slot = sub_group_scan_exclusive_add(keep);
    uint kept = sub_group_reduce_add(keep);
    uint base = 0;
    if (get_sub_group_local_id() == 0)
        base = atomic_add(count, kept);
    base = sub_group_broadcast(base, 0);
    if (keep)
        out[base + slot] = v;
}
