/* a small private array indexed by data: IGC keeps it in GRFs and stores
 * to it through the address register, on Gen9 with smov (one channel's
 * element each, its mask in the immediate) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void priv_grf(global const int *a, global int *c)
{
    size_t i = get_global_id(0);
    int buf[8];
    for (int k = 0; k < 8; k++)
        buf[k] = a[i] * k + (int)i;
    buf[a[i] & 7] = -(int)i;
    buf[(a[i] >> 4) & 7] += 7;
    c[i] = buf[(a[i] >> 8) & 7] + buf[a[i] & 7] * 3;
}
