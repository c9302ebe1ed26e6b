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
