/* a ballot and its bit count: IGC masks the ballot's flags with the
 * dispatch mask in sr0.2 */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void ballot_mask(global const int *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint4 b = sub_group_ballot(in[g] > 3);
    out[2 * g] = b.x;
    out[2 * g + 1] = sub_group_ballot_bit_count(b);
}
