/* Yet more idioms: vector printf, async copies into local memory,
 * 3-component vectors with geometric built-ins, and linear IDs. */
kernel void printf_vec(global const float *in, global int *out)
{
    size_t g = get_global_id(0);
    float4 v = vload4(g, in);
    if (g == 5 || g == 40)
        printf("g%u v=%.2v4hlf c=%c e=%8.3e x=%#06x\n", (uint)g, v, 'A' + (int)g % 26,
               v.x * 1e5f, (uint)g * 257u);
    out[g] = (int)(v.y * 100.0f);
}

kernel void async_tile(global const float *in, global float *out, local float *tile)
{
    size_t lsz = get_local_size(0), base = get_group_id(0) * lsz;
    event_t e = async_work_group_copy(tile, in + base * 2, lsz * 2, 0);
    wait_group_events(1, &e);
    size_t lid = get_local_id(0);
    out[get_global_id(0)] = tile[2 * lid] * tile[2 * lid + 1] + tile[(lid * 5) % (2 * lsz)];
}

kernel void geom3(global const float *in, global float *out)
{
    size_t g = get_global_id(0);
    float3 a = vload3(g, in), b = vload3(g + 64, in);
    float3 s = a + b * 0.5f;
    vstore3(s * s, g, out);
    out[256 + g] = length(a) + distance(a, -b) + dot(a, b);
    out[512 + g] = fast_length(s) * 0.0f + native_sqrt(4.0f) + half_sqrt(9.0f) * 0.0f;
}

kernel void linear_ids(global uint *out)
{
    size_t g = get_global_id(0);
    out[4 * g] = (uint)get_global_linear_id();
    out[4 * g + 1] = (uint)get_local_linear_id();
    out[4 * g + 2] = (uint)get_enqueued_local_size(0) * 1000 + (uint)get_local_size(0);
    out[4 * g + 3] = (uint)get_num_groups(0) * 100 + (uint)get_work_dim();
}
