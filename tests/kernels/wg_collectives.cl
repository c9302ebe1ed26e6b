// Work-group collectives (OpenCL C 2.0): reduce, scans, broadcast, all/any.
kernel void wg_collectives(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int v = in[g];
    global int *o = out + g * 8;
    o[0] = work_group_reduce_add(v);
    o[1] = work_group_reduce_min(v);
    o[2] = work_group_reduce_max(v);
    o[3] = work_group_scan_inclusive_add(v);
    o[4] = work_group_scan_exclusive_max(v);
    o[5] = work_group_broadcast(v, 3);
    o[6] = work_group_all(v > -900);
    o[7] = work_group_any(v == 7);
}
