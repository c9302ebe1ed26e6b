// cl_intel_subgroups shuffles (and the _short / _char / long types).
kernel void intel_shuffle(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint l = get_sub_group_local_id(), S = get_max_sub_group_size();
    uint v = in[g], w = in[g] ^ 0xffffu;
    global uint *o = out + g * 10;
    o[0] = intel_sub_group_shuffle(v, (l + 3) % S);
    o[1] = intel_sub_group_shuffle_down(v, w, 3);
    o[2] = intel_sub_group_shuffle_up(w, v, 5);
    o[3] = intel_sub_group_shuffle_xor(v, 6);
    o[4] = as_uint(intel_sub_group_shuffle(as_float(v), S - 1 - l));
    ulong d = intel_sub_group_shuffle_down(((ulong)v << 32) | w, (ulong)w, 1);
    o[5] = (uint)(d >> 32);
    o[6] = (uint)d;
    o[7] = intel_sub_group_shuffle((ushort)v, l ^ 1);
    o[8] = intel_sub_group_shuffle_up((uchar)w, (uchar)v, 1);
    uint2 p = intel_sub_group_shuffle_xor((uint2)(v, w), 1);
    o[9] = p.x + p.y;
}
