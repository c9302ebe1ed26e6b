/* Sorting networks and radix sort pieces: a bitonic sort of 32 keys in
 * local memory (barriers in nested loops, any work-group size), and a
 * radix digit count with local atomics and a work-group scan. */
kernel void bitonic32(global const uint *in, global uint *out, local uint *k)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0), base = get_group_id(0) * 32;
    for (size_t i = lid; i < 32; i += lsz)
        k[i] = in[base + i] * 13 % 29;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= 32; size <<= 1)
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            for (size_t i = lid; i < 32; i += lsz) {
                uint j = i ^ stride;
                if (j > i) {
                    uint a = k[i], b = k[j];
                    bool up = (i & size) == 0;
                    if ((a > b) == up) {
                        k[i] = b;
                        k[j] = a;
                    }
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    for (size_t i = lid; i < 32; i += lsz)
        out[base + i] = k[i];
}

kernel void radix_digits(global const uint *in, global uint *counts, global uint *ranks,
                         local uint *cnt)
{
    size_t lid = get_local_id(0), g = get_global_id(0);
    if (lid < 4)
        cnt[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint key = in[g] * 7;
    uint d = (key >> 2) & 3;
    atomic_inc(&cnt[d]);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0;
    for (uint q = 0; q < d; q++)
        before += cnt[q];
    /* a stable rank: the items of digit d before this one */
    uint same = 0;
    for (uint q = 0; q < 4; q++)
        same += work_group_scan_exclusive_add((uint)(d == q)) * (d == q);
    ranks[g] = get_group_id(0) * 64 + before + same;
    if (lid < 4)
        counts[get_group_id(0) * 4 + lid] = cnt[lid];
}
