/* Integer built-ins of hashing, compression and crypto kernels. */
kernel void bitops(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint a = in[g] * 0x9E3779B9u + 17, b = in[g + 64] * 0x85EBCA6Bu ^ 0xdeadbeefu;
    int sa = (int)a, sb = (int)b;
    uint *o = out + 16 * g;
    o[0] = popcount(a);
    o[1] = clz(b);
    o[2] = mul_hi(a, b);
    o[3] = (uint)mul_hi(sa, sb);
    o[4] = rotate(a, b & 31);
    o[5] = (uint)mad24(sa >> 8, sb >> 9, sa);
    o[6] = mad_sat(a >> 4, b >> 20, b);
    o[7] = (uint)mad_sat(sa, 3, sb);
    o[8] = add_sat(a, b);
    o[9] = (uint)sub_sat(sa, sb);
    o[10] = hadd(a, b) ^ rhadd(a, b);
    o[11] = abs_diff(sa, sb);
    o[12] = (uint)upsample((ushort)a, (ushort)b);
    o[13] = ctz(a | 0x80000000u);
    o[14] = mul24(a & 0xffffff, b & 0x7fff);
    o[15] = (uint)clamp(sa, -1000, (int)(b >> 8));
}

kernel void bitops64(global const ulong *in, global ulong *out)
{
    size_t g = get_global_id(0);
    ulong a = in[g] * 0x9E3779B97F4A7C15ul + 1, b = (in[g + 64] + 3) * 0xC2B2AE3D27D4EB4Ful;
    long sa = (long)a, sb = (long)b;
    ulong *o = out + 10 * g;
    o[0] = mul_hi(a, b);
    o[1] = (ulong)mul_hi(sa, sb);
    o[2] = a / (b >> 40 | 1);
    o[3] = (ulong)(sa % ((sb >> 45) | 1));
    o[4] = rotate(a, b);
    o[5] = popcount(a) + clz(b) * 100;
    o[6] = (ulong)(sa >> (b & 63));
    o[7] = add_sat(a, b);
    o[8] = (ulong)sub_sat(sa, sb);
    o[9] = a * b + (a >> 3);
}

kernel void smallvec(global const float *f, global char4 *c4, global uchar8 *u8,
                     global short4 *s4, global ushort2 *us2)
{
    size_t g = get_global_id(0);
    /* products by powers of two are exact: one rounding, contracted or not */
    float4 v = vload4(g, f) * (float4)(256.0f, -64.0f, 65536.0f, -1.0f) - 100.0f;
    c4[g] = convert_char4_sat(v);
    u8[g] = convert_uchar8_sat_rte((float8)(v, v * 0.5f));
    s4[g] = convert_short4_sat_rtz(v * 3.0f) + (short4)(1, 2, 3, 4);
    char4 a = convert_char4_sat(v), b = (char4)(100, -100, 27, -128);
    char4 s = add_sat(a, b);
    us2[g] = convert_ushort2_sat((int2)(s.x * s.y, s.z - s.w) * 300) ^ as_ushort2(s);
}
