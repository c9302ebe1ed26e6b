/* work-item functions in 3 dimensions: R0's group IDs, the per-thread
 * local IDs and the cross-thread data (offsets, sizes, counts) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void ids(global uint *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    global uint *o = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 12;
    o[0] = get_global_id(0);
    o[1] = get_global_id(1);
    o[2] = get_global_id(2);
    o[3] = get_local_id(0) * 100 + get_local_id(1) * 10 + get_local_id(2);
    o[4] = get_group_id(0);
    o[5] = get_group_id(1);
    o[6] = get_group_id(2);
    o[7] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2);
    o[8] = get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1) * 10 +
           get_enqueued_local_size(2);
    o[9] = get_num_groups(0) * 100 + get_num_groups(1) * 10 + get_num_groups(2);
    o[10] = get_work_dim();
    o[11] = get_sub_group_local_id() + 1000 * get_sub_group_id();
}
