/* a private array indexed by data: IGC keeps it in scratch (A32 stateless
 * messages at the thread's r0.5) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void priv(global const int *a, global int *c)
{
    size_t i = get_global_id(0);
    int buf[64];
    for (int k = 0; k < 64; k++)
        buf[k] = a[i] * k + (int)i;
    int j = a[i] & 63;
    buf[j] += 100;
    buf[(j * 7) & 63] ^= 0x55;
    c[i] = buf[(j + 3) & 63] + buf[j] - buf[a[i] >> 6 & 63];
}

/* the same across a barrier: every thread of the work-group holds its
 * private array at once (on dg2-g10 in a global buffer, a slot for each
 * hardware thread that the code reads from sr0.0) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void priv_barrier(global const int *a, global int *c)
{
    size_t i = get_global_id(0);
    int buf[64];
    for (int k = 0; k < 64; k++)
        buf[k] = a[i] * k + (int)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    int j = a[i] & 63;
    c[i] = buf[j] + buf[(j * 5) & 63];
}
