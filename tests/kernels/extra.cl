/* OpenCL C built-ins with short exact lowerings (isa/spirv_extra.c). */
__kernel void fext(__global const float *a, __global const float *b, __global float *o,
                   __global int *r)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    __global float *p = o + i * 37;
    p[0] = floor(x);
    p[1] = ceil(x);
    p[2] = trunc(x);
    p[3] = rint(x);
    p[4] = round(x);
    p[5] = copysign(x, y);
    p[6] = fdim(x, y);
    p[7] = maxmag(x, y);
    p[8] = minmag(x, y);
    p[9] = step(y, x);
    p[10] = sign(x);
    p[11] = mix(x, y, 0.25f);
    p[12] = degrees(x);
    p[13] = radians(x);
    p[14] = select(x, y, (int)(i & 1));
    p[15] = bitselect(x, y, as_float(0x80ff00ffu));
    float4 u = (float4)(x, y, 1.5f, -2.0f), v = (float4)(y, 0.25f, x, 3.0f);
    p[16] = dot(u, v);
    p[17] = length(u.xyz);
    p[18] = distance(u, v);
    p[19] = cross(u, v).y;
    p[20] = tan(x);
    int g = (int)i;
    p[21] = ldexp(x, (g * 37 & 511) - 256);
    float fl, ip, cv;
    p[22] = fract(x, &fl);
    p[23] = fl;
    p[24] = modf(x, &ip);
    p[25] = ip;
    p[26] = smoothstep(-1.0f, 2.0f, x);
    p[27] = hypot(x, y);
    p[28] = sincos(x, &cv);
    p[29] = cv;
    p[30] = normalize(u).z;
    p[31] = logb(x);
    p[32] = nan((uint)i);
    int ex;
    p[33] = frexp(x, &ex);
    p[34] = cbrt(x);
    p[35] = nextafter(x, y);
    p[36] = remainder(x, y);
    __global int *q = r + i * 10;
    q[0] = isfinite(x);
    q[1] = isnormal(x);
    q[2] = signbit(x);
    q[3] = isordered(x, y);
    q[4] = isunordered(x, y);
    int4 m = isless((float4)(x, y, x, y), (float4)(y, x, 0.0f, 0.0f));
    q[5] = any(m);
    q[6] = all(m);
    q[7] = select((int4)(11), (int4)(22), m).z;
    q[8] = ilogb(x);
    q[9] = ex;
}

__kernel void iext(__global const int *a, __global const int *b, __global int *o,
                   __global const uchar *c, __global uchar *oc, __global long *ol)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    __global int *p = o + i * 14;
    p[0] = ctz(x);
    p[1] = rotate(x, y);
    p[2] = add_sat(x, y);
    p[3] = sub_sat(x, y);
    p[4] = (int)add_sat(ux, uy);
    p[5] = (int)sub_sat(ux, uy);
    p[6] = hadd(x, y);
    p[7] = rhadd(x, y);
    p[8] = (int)hadd(ux, uy);
    p[9] = (int)abs_diff(x, y);
    p[10] = (int)abs_diff(ux, uy);
    p[11] = mad_hi(x, y, 7);
    p[12] = (int)mad_hi(ux, uy, 7u);
    p[13] = (int)rotate(ux, (uint)y);
    uchar cx = c[2 * i], cy = c[2 * i + 1];
    oc[4 * i] = add_sat(cx, cy);
    oc[4 * i + 1] = (uchar)add_sat((char)cx, (char)cy);
    oc[4 * i + 2] = rotate(cx, cy);
    oc[4 * i + 3] = ctz(cx);
    ol[2 * i] = upsample(x, ux);
    ol[2 * i + 1] = (long)add_sat((long)x << 33, (long)y << 33);
}

/* as_type between vectors of different component sizes, saturating
 * conversions between signednesses */
__kernel void casts(__global const uint *a, __global ulong *ol, __global uint *ou,
                    __global uchar *oc, __global int *oi)
{
    size_t i = get_global_id(0);
    uint x = a[2 * i], y = a[2 * i + 1];
    uint2 v = (uint2)(x, y);
    ulong l = as_ulong(v) ^ 0x0123456789abcdefUL;
    ol[i] = l;
    uint2 w = as_uint2(l + (ulong)i);
    ou[2 * i] = w.x;
    ou[2 * i + 1] = w.y;
    uchar4 c = as_uchar4(x + y);
    oc[4 * i] = c.w;
    oc[4 * i + 1] = c.z;
    oc[4 * i + 2] = c.y;
    oc[4 * i + 3] = c.x;
    oi[4 * i] = (int)convert_uint_sat((int)x);
    oi[4 * i + 1] = convert_int_sat(y);
    oi[4 * i + 2] = convert_uchar_sat((int)x);
    oi[4 * i + 3] = convert_char_sat(y);
}
