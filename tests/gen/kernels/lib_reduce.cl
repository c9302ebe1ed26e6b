/* Reductions and scans as libraries write them: tree reductions in local
 * memory with barriers in loops, a Hillis-Steele scan, the work-group and
 * sub-group collectives. */
kernel void tree_reduce(global const int *in, global int *out, local int *sh)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    sh[lid] = in[get_global_id(0)] * 3 - 7;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = 1; s < lsz; s <<= 1) {
        if (lid % (2 * s) == 0 && lid + s < lsz)
            sh[lid] += sh[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = sh[0];
}

kernel void hs_scan(global const float *in, global float *out, local float *buf)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    int p = 0;
    buf[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < lsz; off *= 2) {
        float v = buf[p * lsz + lid];
        if (lid >= off)
            v += buf[p * lsz + lid - off];
        p ^= 1;
        buf[p * lsz + lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[p * lsz + lid];
}

kernel void wg_funcs(global const int *in, global int *out, global float *fout)
{
    size_t g = get_global_id(0);
    int v = in[g];
    out[4 * g + 0] = work_group_reduce_add(v);
    out[4 * g + 1] = work_group_scan_exclusive_max(v - 5);
    out[4 * g + 2] = work_group_broadcast(v, 3);
    out[4 * g + 3] = work_group_any(v == 7) + 2 * work_group_all(v < 19);
    fout[g] = work_group_scan_inclusive_min((float)v * 0.5f - 3.0f);
}

kernel void sg_funcs(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint v = in[g];
    out[6 * g + 0] = sub_group_reduce_min(v + 3);
    out[6 * g + 1] = sub_group_scan_inclusive_add(v);
    out[6 * g + 2] = sub_group_broadcast(v, 1);
    out[6 * g + 3] = intel_sub_group_shuffle_down(v, v * 2, 1);
    out[6 * g + 4] = intel_sub_group_shuffle_xor(v, 1);
    out[6 * g + 5] = sub_group_scan_exclusive_max(v ^ 5);
}
