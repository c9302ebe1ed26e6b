/* Sub-group idioms of tuned kernels: clustered and non-uniform
 * reductions, ballots and masks, and a sub-group-level prefix sum that
 * feeds a local one. */

kernel void sg_cluster(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int v = in[g] - 9;
    out[5 * g] = sub_group_clustered_reduce_add(v, 4);
    out[5 * g + 1] = sub_group_clustered_reduce_max(v, 2);
    out[5 * g + 2] = v > 0 ? sub_group_non_uniform_reduce_add(v) : -1;
    uint4 b = sub_group_ballot(v > 3);
    out[5 * g + 3] = (int)sub_group_ballot_bit_count(b) * 100 +
                     (int)sub_group_ballot_inclusive_scan(b);
    out[5 * g + 4] = sub_group_non_uniform_all(v < 10) + 2 * sub_group_elect();
}

kernel void two_level_scan(global const uint *in, global uint *out, local uint *sums)
{
    size_t lid = get_local_id(0), g = get_global_id(0);
    uint sg = get_sub_group_id(), nsg = get_num_sub_groups();
    uint v = in[g];
    uint incl = sub_group_scan_inclusive_add(v);
    if (get_sub_group_local_id() == get_sub_group_size() - 1)
        sums[sg] = incl;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0;
    for (uint s = 0; s < sg; s++)
        before += sums[s];
    out[g] = before + incl;
    if (lid == 0) {
        uint t = 0;
        for (uint s = 0; s < nsg; s++)
            t += sums[s];
        out[64 + get_group_id(0)] = t;
    }
}
