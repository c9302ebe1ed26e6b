// Group operations in both arms of branches and in the cases of a switch
// (-cl-std=CL3.0).  clang-14 -O2 merged such calls into one call after the
// branch (SimplifyCFG sinking, with a phi of the operands) or before it
// (hoisting); each call must see only the work-items of its own arm.
// Lane 1 always takes arm A and lane 2 arm B, so each broadcast's source
// lane is active.  test_branches.c holds the references.
#define N 16
kernel void branch_collectives(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    uint l = get_sub_group_local_id();
    int v = in[g];
    global int *o = out + g * N;
    const int a = (l == 1) | ((l != 2) & v & 1);   // no && or ||: one branch
    if (a) {
        o[0] = sub_group_non_uniform_broadcast(v, 1);
        o[1] = sub_group_broadcast_first(v);
        o[2] = sub_group_non_uniform_reduce_add(v);
        o[3] = sub_group_non_uniform_scan_exclusive_add(v);
        o[4] = sub_group_ballot_bit_count(sub_group_ballot(v & 2));
        o[5] = sub_group_non_uniform_all((v & 4) != 0);
        o[6] = sub_group_elect();
        o[7] = sub_group_ballot_inclusive_scan(sub_group_ballot(v & 8));
    } else {
        o[0] = sub_group_non_uniform_broadcast(v, 2);
        o[1] = sub_group_broadcast_first(v);
        o[2] = sub_group_non_uniform_reduce_add(v);
        o[3] = sub_group_non_uniform_scan_exclusive_add(v);
        o[4] = sub_group_ballot_bit_count(sub_group_ballot(v & 2));
        o[5] = sub_group_non_uniform_all((v & 4) != 0);
        o[6] = sub_group_elect();
        o[7] = sub_group_ballot_inclusive_scan(sub_group_ballot(v & 8));
    }
    int r;
    switch ((v >> 4) & 3) {
    case 0: r = sub_group_clustered_reduce_add(v, 4); break;
    case 1: r = sub_group_clustered_reduce_add(v, 8); break;
    case 2: r = sub_group_clustered_reduce_add(v, 2); break;
    default: r = sub_group_clustered_reduce_add(v, 1); break;
    }
    o[8] = r;
    switch ((v >> 6) & 3) {
    case 0: r = sub_group_clustered_reduce_max(v, 4); break;
    case 1: r = sub_group_clustered_reduce_or(v, 2); break;
    default: r = sub_group_clustered_reduce_max(v, 8); break;
    }
    o[9] = r;
    switch ((v >> 8) & 3) {
    case 0: r = sub_group_ballot_bit_count(sub_group_ballot(1)); break;
    case 1: r = sub_group_ballot_bit_count(sub_group_ballot(1)); break;
    default: r = sub_group_ballot_bit_count(sub_group_ballot(1)); break;
    }
    o[10] = r;
    if (v & 1024)
        r = sub_group_non_uniform_reduce_max(v);
    else
        r = sub_group_non_uniform_reduce_max(v);
    o[11] = r;
}
