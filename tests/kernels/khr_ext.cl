// Extended sub-group functions (-cl-std=CL3.0): non-uniform vote and
// arithmetic, ballot, shuffle, shuffle_relative, clustered reduce, rotate.
kernel void khr_ext(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    uint l = get_sub_group_local_id();
    int v = in[g];
    global int *o = out + g * 24;
    o[0] = sub_group_elect();
    o[1] = sub_group_non_uniform_all(v > -900);
    o[2] = sub_group_non_uniform_any(v == 5);
    o[3] = sub_group_non_uniform_all_equal(v / 4096);
    if (l % 3 != 0) {   // divergent: only two lanes of three take part
        o[4] = sub_group_non_uniform_reduce_add(v);
        o[5] = sub_group_non_uniform_reduce_min(v);
        o[6] = sub_group_non_uniform_scan_inclusive_add(v);
        o[7] = sub_group_non_uniform_scan_exclusive_xor(v);
        o[8] = sub_group_elect();
    } else {
        for (int k = 4; k <= 8; k++)   // (a plain -1 fill becomes a memcpy from constant data)
            o[k] = -k;
    }
    uint4 b = sub_group_ballot(v & 1);
    o[9] = b.x;
    o[10] = sub_group_ballot_bit_count(b);
    o[11] = sub_group_ballot_inclusive_scan(b);
    o[12] = sub_group_ballot_exclusive_scan(b);
    o[13] = sub_group_ballot_find_lsb(b);
    o[14] = sub_group_ballot_find_msb(b);
    o[15] = sub_group_ballot_bit_extract(b, l ^ 1);
    o[16] = sub_group_inverse_ballot((uint4)(0x5a5a5a5au, 0, 0, 0));
    o[17] = sub_group_shuffle(v, (l * 5 + 1) % get_sub_group_size());
    o[18] = sub_group_shuffle_xor(v, 3);
    o[19] = l >= 2 ? sub_group_shuffle_up(v, 2) : sub_group_shuffle_up(v, 0);
    o[20] = sub_group_shuffle_down(v, 1);
    o[21] = sub_group_clustered_reduce_add(v, 4);
    o[22] = sub_group_rotate(v, 3);
    o[23] = sub_group_clustered_rotate(v, 1, 4);
}
