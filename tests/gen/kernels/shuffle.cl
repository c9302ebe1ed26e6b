/* sub-group shuffles with a per-channel index: IGC reads them through
 * indirect registers, r[a0.0]<1,0> (one address per channel) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void shuffle(global const uint *in, global const uint *idx, global uint *out)
{
    size_t g = get_global_id(0);
    uint v = in[g], j = idx[g];
    global uint *o = out + g * 4;
    o[0] = intel_sub_group_shuffle(v, j);
    o[1] = intel_sub_group_shuffle((ushort)v, j);
    ulong d = intel_sub_group_shuffle(((ulong)v << 32) | (v ^ 0xabcdu), j);
    o[2] = (uint)(d >> 32);
    o[3] = (uint)d;
}
