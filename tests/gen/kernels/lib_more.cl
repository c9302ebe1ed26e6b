/* More library idioms: local compare-exchange loops, 64-bit local atomics,
 * work-group reductions of 64-bit and float values, Intel sub-group
 * shuffles of vectors, vector rotates and selects, and a local-memory
 * transpose with padding. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void local_cas_max(global const float *in, global float *out, local float *m)
{
    size_t lid = get_local_id(0);
    if (lid == 0)
        m[0] = -1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = in[get_global_id(0)] * 3.0f;
    volatile local uint *p = (volatile local uint *)m;
    uint old = *p;
    while (as_float(old) < v) {
        uint seen = atomic_cmpxchg(p, old, as_uint(v));
        if (seen == old)
            break;
        old = seen;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = m[0] - v;
}

kernel void local_atom64(global const long *in, global long *out, local long *acc)
{
    size_t lid = get_local_id(0);
    if (lid < 3)
        acc[lid] = lid == 2 ? 0x7fffffffffffffffL : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = in[get_global_id(0)] << 33 | in[get_global_id(0)];
    atom_add(&acc[0], v);
    atom_max(&acc[1], v ^ 0x55);
    atom_min(&acc[2], v + 5);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 3)
        out[get_group_id(0) * 3 + lid] = acc[lid];
}

kernel void wg_wide(global const long *in, global long *out, global float *fout)
{
    size_t g = get_global_id(0);
    long v = in[g] * 0x10000000001L - 77;
    out[3 * g] = work_group_reduce_add(v);
    out[3 * g + 1] = work_group_scan_inclusive_min(v);
    out[3 * g + 2] = work_group_reduce_max((long)g * in[g]);
    fout[g] = work_group_scan_exclusive_add((float)in[g] * 0.5f);
}

kernel void sg_vec_shuffle(global const float4 *in, global float4 *out, global uint *idx)
{
    size_t g = get_global_id(0);
    float4 v = in[g];
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    float4 a = intel_sub_group_shuffle(v, (lane + 3) % n);
    float4 b = intel_sub_group_shuffle_up(v, v * 2.0f, 2);
    out[2 * g] = a + b;
    out[2 * g + 1] = sub_group_broadcast(v.y, 0) + (float4)(sub_group_reduce_max(v.z));
    idx[g] = sub_group_scan_inclusive_max(as_uint(v.w) >> 20) + sub_group_any(v.x > 2.4f);
}

kernel void vec_bits(global const uint4 *in, global uint4 *out, global short8 *s8)
{
    size_t g = get_global_id(0);
    uint4 a = in[g] * 0x01000193u + (uint4)(1, 2, 3, 4);
    uint4 r = rotate(a, (uint4)(1, 7, 13, 31));
    int4 m = a > (uint4)(0x80000000u);
    out[2 * g] = select(r, ~a, m) ^ bitselect(a, r, (uint4)(0x0f0f0f0f));
    out[2 * g + 1] = popcount(a) + clz(r) + mul_hi(a, r);
    short8 s = convert_short8_sat(convert_int8((uint8)(a, r)) >> 9);
    s8[g] = as_short8(abs_diff(s, (short8)(-3000))) + rhadd(s, s.s76543210);
}

#define TILE 8
kernel void transpose_pad(global const float *in, global float *out, local float *t)
{
    /* a 8x8 tile of a 8-wide matrix, padded to 9 columns in local memory */
    size_t lid = get_local_id(0), lsz = get_local_size(0), base = get_group_id(0) * 64;
    for (size_t i = lid; i < 64; i += lsz)
        t[(i / TILE) * (TILE + 1) + i % TILE] = in[base + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = lid; i < 64; i += lsz)
        out[base + i] = t[(i % TILE) * (TILE + 1) + i / TILE];
}
