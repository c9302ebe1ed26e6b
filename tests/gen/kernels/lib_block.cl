/* Intel sub-group block reads and writes as GEMM libraries use them (IGC
 * refuses them at SIMD32 on these targets). */
kernel void sg_block(global const uint *in, global uint *out)
{
    size_t base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
    uint2 v = intel_sub_group_block_read2(in + 2 * base);
    uint s = sub_group_reduce_add(v.x * v.y);
    intel_sub_group_block_write(out + base, v.x + v.y + s);
}

#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable

kernel void sg_short_block(global const ushort *in, global ushort *out)
{
    size_t base = get_group_id(0) * get_local_size(0) +
                  get_sub_group_id() * get_max_sub_group_size();
    ushort2 v = intel_sub_group_block_read_us2(in + 2 * base);
    ushort s = (ushort)sub_group_reduce_add((uint)v.x);
    intel_sub_group_block_write_us(out + base, (ushort)(v.x * 3 + v.y) ^ s);
}
