/* Histograms, float atomic add by compare-exchange, 64-bit atomics and a
 * BFS relaxation step, in the style of graph and histogram libraries. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void hist_local(global const uint *in, global uint *bins, local uint *lb)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    for (size_t i = lid; i < 16; i += lsz)
        lb[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; k++)
        atomic_inc(&lb[in[get_global_id(0) * 4 + k] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = lid; i < 16; i += lsz)
        atomic_add(&bins[i], lb[i]);
}

static void atomic_add_float(volatile global float *p, float v)
{
    union { uint u; float f; } old, nw;
    do {
        old.f = *p;
        nw.f = old.f + v;
    } while (atomic_cmpxchg((volatile global uint *)p, old.u, nw.u) != old.u);
}

kernel void float_atomic(global const int *in, global float *sum)
{
    size_t g = get_global_id(0);
    atomic_add_float(&sum[g % 4], (float)in[g]);   /* small integers: exact in any order */
}

kernel void atom64(global const long *in, global long *acc)
{
    size_t g = get_global_id(0);
    long v = in[g] * 0x100000001L;
    atom_add(&acc[0], v);
    atom_max(&acc[1], v - 0x300000000L);
    atom_min(&acc[2], -v);
    atom_or(&acc[3], (long)1 << (in[g] + 30));
    atom_xor(&acc[4], v << 7);
    atom_cmpxchg(&acc[5 + g % 3], acc[5 + g % 3], 0);   /* all converge to 0 */
}

kernel void bfs_relax(global const int *edges, global int *cost, global int *changed)
{
    size_t g = get_global_id(0);
    int c = g % 5;
    for (int e = 0; e < 3; e++) {
        int dst = edges[g * 3 + e] + 64;
        int old = atomic_min(&cost[dst], c + 1);
        if (old > c + 1)
            atomic_or(changed, 1 << e);
    }
}
