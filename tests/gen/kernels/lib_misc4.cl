/* Small-type and pointer-output idioms: char and long sub-group
 * shuffles, char/short vector mul_hi/mad_hi/upsample, 64-bit bit counts
 * and conversions, float atomic exchange, and math built-ins that write
 * through private pointers. */
kernel void sg_small(global const char *c, global const long *l, global char *oc,
                     global long *ol)
{
    size_t g = get_global_id(0);
    uint n = get_sub_group_size(), lane = get_sub_group_local_id();
    char x = (char)(c[g] * 7 - 50);
    long y = l[g] * -0x100000007L;
    oc[g] = sub_group_shuffle(x, (lane + 1) % n) + intel_sub_group_shuffle_xor(x, 2);
    ol[2 * g] = sub_group_shuffle(y, n - 1 - lane);
    ol[2 * g + 1] = sub_group_reduce_add(y) + sub_group_scan_exclusive_min(y);
}

kernel void narrow_ops(global const uchar8 *in, global short8 *o, global uint8 *u)
{
    size_t g = get_global_id(0);
    uchar8 a = in[g] * (uchar)37 + (uchar)11, b = in[g + 64] * (uchar)91 + (uchar)3;
    char8 sa = as_char8(a), sb = as_char8(b);
    o[2 * g] = upsample(sa, b) + convert_short8(mul_hi(sa, sb));
    o[2 * g + 1] = convert_short8(mad_hi(a, b, (uchar8)(200))) - convert_short8(hadd(sa, sb));
    u[g] = convert_uint8(upsample(convert_ushort8(a) * (ushort)300, convert_ushort8(b))) ^
           convert_uint8(rotate(a, b));
}

kernel void wide_ops(global const ulong *in, global ulong *o, global float *f)
{
    size_t g = get_global_id(0);
    ulong a = in[g] * 0xD1B54A32D192ED03ul + 0x1234, b = in[g + 64] << 40 | in[g];
    o[5 * g] = popcount(a) | (ulong)clz(b) << 8 | (ulong)ctz(a) << 16;
    o[5 * g + 1] = convert_ulong_sat((float)in[g] * 0x1p60f - 0x1p61f);   /* exact product: one rounding */
    o[5 * g + 2] = (ulong)convert_long_sat_rtp((float)(long)a * 0.75f);
    o[5 * g + 3] = hadd(a, b) + abs((long)a) + select(a, b, (ulong)((long)a < 0));
    o[5 * g + 4] = mad_hi(a, b, a) ^ upsample((uint)(a >> 7), (uint)b);
    f[g] = convert_float(a) + convert_float((long)b) * 0.5f;
}

kernel void fxchg(global const float *in, global float *slot, global float *got)
{
    size_t g = get_global_id(0);
    float v = in[g] * 4.0f;
    float old = atomic_xchg(&slot[g & 7], v);
    got[g] = old > 0.0f ? 1.0f : 0.0f;   /* every slot starts positive */
}

kernel void ptr_math(global const float *in, global float *o, global int *q)
{
    size_t g = get_global_id(0);
    float x = in[g] * 4.0f - 4.0f;   /* exact product: IGC's mad rounds the same */
    float ip, s, c, fr;
    int quo, ex;
    o[6 * g] = modf(x, &ip) + ip * 10.0f;
    o[6 * g + 1] = fract(x * 1.75f, &fr) + fr;
    o[6 * g + 2] = remquo(x * 7.0f, 1.5f, &quo);
    s = sincos(x * 0.125f, &c);
    o[6 * g + 3] = s + 2.0f * c;
    o[6 * g + 4] = frexp(x * 100.0f, &ex);
    o[6 * g + 5] = ldexp(x, (int)g % 9 - 4);
    q[2 * g] = quo;
    q[2 * g + 1] = ex + ilogb(x * 1000.0f);
}
