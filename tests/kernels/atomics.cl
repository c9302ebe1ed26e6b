// Local memory, barriers and atomics: a per-work-group histogram in local
// memory merged into global bins, and global min/max/xchg/cmpxchg/and/or.
kernel void atomics(global const uint *data, global uint *bins, global int *stats,
                    local uint *lbins)
{
    uint l = get_local_id(0), L = get_local_size(0);
    for (uint i = l; i < 16; i += L)
        lbins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint d = data[get_global_id(0)];
    atomic_inc(&lbins[d % 16]);
    atomic_add(&lbins[(d >> 4) % 16], 2u);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = l; i < 16; i += L)
        atomic_add(&bins[i], lbins[i]);
    int s = (int)(d % 2001) - 1000;
    atomic_min(&stats[0], s);
    atomic_max(&stats[1], s);
    atomic_sub(&stats[2], s);
    atomic_or(&stats[3], 1 << (d % 31));
    atomic_and(&stats[4], ~(1 << (d % 29)));
    atomic_xor(&stats[5], (int)d);
    if (d % 7 == 0)
        atomic_xchg(&stats[6], 1);
    atomic_cmpxchg(&stats[7], 0, (int)get_global_id(0) + 1);   // first one wins
}
