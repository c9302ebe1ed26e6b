// Independent forward progress between sub-groups (cl_khr_subgroups): the
// first work-item of sub-group s waits until every later sub-group of its
// work-group has taken its turn, so sub-group 0, which the scheduler runs
// first, spins on the others' stores (docs/architecture.md).
kernel void forward_progress(global uint *out)
{
    local atomic_uint turn;
    if (get_local_id(0) == 0)
        atomic_init(&turn, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = get_sub_group_id(), n = get_num_sub_groups();
    uint mine = 0;
    if (get_sub_group_local_id() == 0) {
        while (atomic_load(&turn) != n - 1 - s)
            ;
        mine = atomic_fetch_add(&turn, 1u);
    }
    out[get_global_id(0)] = sub_group_broadcast(mine, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_global_size(0) + get_group_id(0)] = atomic_load(&turn);
}
