/* sub-group block reads and writes (cl_intel_subgroups): IGC's OWord block
 * messages, A32 through the binding table or A64 */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void blockio(global const uint *in, global uint *out, global const ushort *hs,
                    global ushort *ho)
{
    size_t base = (get_group_id(0) * get_local_size(0) + get_sub_group_id() * WIDTH);
    uint v = intel_sub_group_block_read(in + base);
    uint2 w = intel_sub_group_block_read2(in + 4096 + 2 * base);
    uint4 x = intel_sub_group_block_read4(in + 8192 + 4 * base);
    intel_sub_group_block_write(out + base, v * 3u + w.x);
    intel_sub_group_block_write2(out + 4096 + 2 * base, (uint2)(w.y, x.x ^ x.w));
    intel_sub_group_block_write4(out + 8192 + 4 * base, x + (uint4)(1, 2, 3, v));
    ushort h = intel_sub_group_block_read_us(hs + base);
    intel_sub_group_block_write_us(ho + base, (ushort)(h * 5u + 1u));
}
