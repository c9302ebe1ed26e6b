// async.cl: async_work_group_copy / async_work_group_strided_copy both ways
// and wait_group_events, on 2-D work-groups, with element counts below,
// equal to and above the work-group size, scalar and float4 elements
kernel void async(global const uint *in, global const float4 *v4, global uint *out,
                  global float4 *o4, uint n)
{
    local uint a[300];
    local float4 b[40];
    const uint g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    const uint l = get_local_id(0) + get_local_size(0) * get_local_id(1);
    const uint L = get_local_size(0) * get_local_size(1);
    /* n elements from in + 7 g (n may exceed the work-group size) */
    event_t e = async_work_group_copy(a, in + 7 * g, n, 0);
    /* every third float4 of v4 into b */
    event_t e2 = async_work_group_strided_copy(b, v4 + g, 40, 3, 0);
    wait_group_events(1, &e);
    wait_group_events(1, &e2);
    for (uint i = l; i < n; i += L)
        a[i] = a[i] * 2u + i;
    for (uint i = l; i < 40; i += L)
        b[i] = b[i] * 0.5f + (float4)(i, 0, 0, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* a back to out (stride 2, interleaved with zeros) and b contiguously */
    event_t e3 = async_work_group_strided_copy(out + 2 * 300 * g, a, n, 2, 0);
    event_t e4 = async_work_group_copy(o4 + 40 * g, b, 40, e3);
    wait_group_events(1, &e4);
}
