// halffn.cl: OpenCL C built-ins on half (cl_khr_fp16) that sgemu computes
// through float and rounds once to half (isa/spirv_extra.c)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void halffn(global const half *a, global const half *b, global const int *n,
                   global half *o, global int *io)
{
    uint i = get_global_id(0);
    half x = a[i], y = b[i];
    global half *r = o + 19 * i;
    r[0] = floor(x);
    r[1] = ceil(x);
    r[2] = trunc(x);
    r[3] = rint(x);
    r[4] = round(x);
    r[5] = copysign(x, y);
    r[6] = fdim(x, y);
    r[7] = maxmag(x, y);
    r[8] = minmag(x, y);
    r[9] = step(y, x);
    r[10] = sign(x);
    r[11] = ldexp(x, n[i]);
    r[12] = logb(x);
    r[13] = degrees(x);
    r[14] = mix(x, y, (half)0.25f);
    r[15] = radians(y);
    r[16] = pown(x, n[i] % 5);
    r[17] = rootn(x, 3);
    r[18] = powr(fabs(x), y);
    io[i] = ilogb(x);
}
