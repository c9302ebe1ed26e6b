/* Further idioms: stream compaction with atomic_inc slots, C11 atomics
 * with scopes, static local arrays, vector shuffle built-ins, integer
 * division by data, half conversions with saturation and rounding, and a
 * loop with break and continue. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void compact(global const int *in, global int *out, global int *count)
{
    size_t g = get_global_id(0);
    int v = in[g];
    if (v % 3 == 0) {
        int slot = atomic_inc(count);
        out[slot + 8] = v * 100 + (int)g;
    }
}

kernel void c11_atomics(global const int *in, global atomic_int *acc, global int *out)
{
    size_t g = get_global_id(0);
    local atomic_int lcount;
    if (get_local_id(0) == 0)
        atomic_init(&lcount, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&lcount, in[g], memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&acc[1], in[g] * 7, memory_order_relaxed, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_fetch_add(&acc[0], atomic_load(&lcount));
    out[g] = atomic_load_explicit(&lcount, memory_order_relaxed, memory_scope_work_group);
}

kernel void static_local(global const float *in, global float *out)
{
    local float buf[64];
    local int hits[4];
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    if (lid < 4)
        hits[lid] = 0;
    buf[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = buf[(lid * 7 + 3) % lsz];
    atomic_add(&hits[(int)v & 3], 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v + (float)hits[lid & 3];
}

kernel void vshuf(global const uint8 *in, global uint8 *out, global int *q)
{
    size_t g = get_global_id(0);
    uint8 a = in[g], b = in[g + 64];
    uint8 mask = (uint8)(7, 0, 6, 1, 5, 2, 4, 3) + (a & 8u);
    out[2 * g] = shuffle(a, mask);
    out[2 * g + 1] = shuffle2(a, b, (uint8)(15, 0, 14, 1, 13, 2, 12, 3) ^ (b & 4u));
    int num = (int)(a.s0 * 1000u + a.s1) - 9000, den = (int)(b.s2 + 1) * (g & 1 ? -1 : 1);
    int quo = num / den;
    q[3 * g] = quo;
    q[3 * g + 1] = num - quo * den;   /* not %: clang-14 freezes a div/rem pair for llvm-spirv */
    q[3 * g + 2] = (int)((ulong)(a.s3 + 1) * 0x123456789ul / (ulong)(b.s4 + 3));
}

kernel void half_conv(global const float *f, global half *h, global uchar4 *u, global short *s)
{
    size_t g = get_global_id(0);
    float4 v = vload4(g, f) * (float4)(300.0f, -2.0f, 70000.0f, 0.001f) - 1.0f;
    half4 hv = convert_half4_rtz(v);
    vstore4(hv, g, h);
    vstore_half4_rtn(v, g, h + 512);
    u[g] = convert_uchar4_sat(hv);
    s[g] = convert_short_sat_rte(v.z * 2.0f) + convert_short_sat(hv.x);
}

kernel void loop_ctl(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int acc = 0;
    for (int i = 0; i < 40; i++) {
        int v = in[g * 3 + i];
        if (v == 0)
            continue;
        if (v > 17)
            break;
        switch (v & 3) {
        case 0: acc += v; break;
        case 1: acc ^= v << 3; break;
        case 2: acc -= 2 * v; break;
        default: acc = acc * 3 + 1;
        }
    }
    out[g] = acc;
}
