/* work_group_broadcast of a 64-bit value: IGC reads the two dwords from
 * SLM with a two-channel gather whose offsets 0 and 4 it writes as a packed
 * vector immediate into a dword destination, `mov (2) :ud 0x400:uv`
 * (test_gen_exec: packed_vector_dword) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void wg_bcast64(global const long *a, global const uint *ids, global long *out)
{
    size_t g = get_global_id(0);
    out[g] = work_group_broadcast(a[g], (size_t)ids[get_group_id(0)]);
}
