// Sub-group collectives of cl_khr_subgroups (OpenCL C 2.0 built-ins).
kernel void sg_collectives(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int v = in[g];
    global int *o = out + g * 10;
    o[0] = sub_group_reduce_add(v);
    o[1] = sub_group_reduce_min(v);
    o[2] = sub_group_reduce_max(v);
    o[3] = sub_group_scan_inclusive_add(v);
    o[4] = sub_group_scan_exclusive_min(v);
    o[5] = sub_group_broadcast(v, 1);
    o[6] = sub_group_all(v > -900);
    o[7] = sub_group_any(v == 7);
    o[8] = get_sub_group_id() * 1000 + get_sub_group_local_id();
    o[9] = get_sub_group_size() * 1000 + get_num_sub_groups();
}
