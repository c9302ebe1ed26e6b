/* the rounding modes of the conversions (IGC switches cr0.0's rounding
 * field around them) and denormals (cr0.0 keeps them unless
 * -cl-denorms-are-zero) */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__attribute__((intel_reqd_sub_group_size(16)))
kernel void rounding(global const int *a, global const long *l, global const float *f,
                     global const float *s, global float *o, global int *oi,
                     global ushort *oh, global float *dn)
{
    int i = get_global_id(0);
    o[6 * i] = convert_float_rtz(a[i]);
    o[6 * i + 1] = convert_float_rtp(a[i]);
    o[6 * i + 2] = convert_float_rtn(a[i]);
    o[6 * i + 3] = convert_float_rtz((uint)a[i]);
    o[6 * i + 4] = convert_float_rtz(l[i]);
    o[6 * i + 5] = convert_float_rtn(l[i]);
    oi[2 * i] = convert_int_rtp(f[i]);
    oi[2 * i + 1] = convert_int_rtn(f[i]);
    oh[2 * i] = as_ushort(convert_half_rtz(f[i]));
    oh[2 * i + 1] = as_ushort(convert_half_rtp(f[i]));
    /* products that are denormal or not, and sums of denormal inputs */
    dn[2 * i] = f[i] * s[i];
    dn[2 * i + 1] = s[i] + s[(i + 1) % 64];
}
