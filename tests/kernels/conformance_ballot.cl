// Conformance audit: cl_khr_subgroup_ballot, cl_khr_subgroup_non_uniform_
// vote, sub_group_all/any, and the sub-group work-item queries (CTS
// test_workitem.cpp shapes: partial sub-groups, non-uniform work-groups,
// 2-D and 3-D work-groups).  u: one uint4 per sub-group (uniform, as the
// ballot queries need); p: the per-work-item predicate; i: bit index.
#define ACTIVE(masks) \
    ((((masks)[4 * (get_group_id(0) % 13) + get_sub_group_local_id() / 32] >> \
       (get_sub_group_local_id() % 32)) & 1u) != 0)

#define PUT4(k, v) o[k] = (v).x; o[k + 1] = (v).y; o[k + 2] = (v).z; o[k + 3] = (v).w;

// slots: 0..3 ballot(p) (masked); 4 inverse_ballot(u); 5 bit_extract(u, i);
// 6 bit_count(u); 7 inclusive_scan(u); 8 exclusive_scan(u); 9 find_lsb(u);
// 10 find_msb(u); 31 sub_group_all(p);
// 32 sub_group_any(p); masked: 33 elect; 34 non_uniform_all(p);
// 35 non_uniform_any(p); 36 inverse_ballot(u); 37 bit_count(ballot(p))
kernel void ballot(global const int *a, global const uint *uv, global const uint *idx,
                   global uint *out, global const uint *masks)
{
    size_t g = get_global_id(0);
    global uint *o = out + g * 40;
    uint s = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    uint4 u = vload4(s, uv);
    int p = a[g];
    uint i = idx[g];
    o[4] = sub_group_inverse_ballot(u);
    o[5] = sub_group_ballot_bit_extract(u, i);
    o[6] = sub_group_ballot_bit_count(u);
    o[7] = sub_group_ballot_inclusive_scan(u);
    o[8] = sub_group_ballot_exclusive_scan(u);
    o[9] = sub_group_ballot_find_lsb(u);
    o[10] = sub_group_ballot_find_msb(u);
    o[31] = sub_group_all(p);
    o[32] = sub_group_any(p);
    if (ACTIVE(masks)) {
        uint4 b = sub_group_ballot(p);
        PUT4(0, b)
        o[33] = sub_group_elect();
        o[34] = sub_group_non_uniform_all(p);
        o[35] = sub_group_non_uniform_any(p);
        o[36] = sub_group_inverse_ballot(u);
        o[37] = sub_group_ballot_bit_count(sub_group_ballot(p));
    }
}

// slots 11..30 of the same layout: the eq, ge, gt, le, lt masks (a kernel
// of their own: llvm-spirv-14 turns them into BuiltIn variables)
kernel void masks(global uint *out)
{
    global uint *o = out + get_global_id(0) * 40;
    PUT4(11, get_sub_group_eq_mask())
    PUT4(15, get_sub_group_ge_mask())
    PUT4(19, get_sub_group_gt_mask())
    PUT4(23, get_sub_group_le_mask())
    PUT4(27, get_sub_group_lt_mask())
}

// the work-item queries: 0 size, 1 max size, 2 num, 3 enqueued num, 4 id,
// 5 local id, 6 linear local id
kernel void query(global uint *out)
{
    global uint *o = out + get_global_linear_id() * 8;
    o[0] = get_sub_group_size();
    o[1] = get_max_sub_group_size();
    o[2] = get_num_sub_groups();
    o[3] = get_enqueued_num_sub_groups();
    o[4] = get_sub_group_id();
    o[5] = get_sub_group_local_id();
    o[6] = get_local_linear_id();
}
