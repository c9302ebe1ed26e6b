// Variants of tests/kernels/halffn.cl for tools/igc_fit.py
// (docs/regalloc.md, Functions of the same operands): which of pown, rootn
// and powr(fabs(x)) raise IGC's register demand?
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define HALFFN(name, R16, R17, R18) \
kernel void name(global const half *a, global const half *b, global const int *n, \
                 global half *o, global int *io, global const half *c) \
{ \
    uint i = get_global_id(0); \
    half x = a[i], y = b[i]; \
    global half *r = o + 19 * i; \
    r[0] = floor(x); r[1] = ceil(x); r[2] = trunc(x); r[3] = rint(x); r[4] = round(x); \
    r[5] = copysign(x, y); r[6] = fdim(x, y); r[7] = maxmag(x, y); r[8] = minmag(x, y); \
    r[9] = step(y, x); r[10] = sign(x); r[11] = ldexp(x, n[i]); r[12] = logb(x); \
    r[13] = degrees(x); r[14] = mix(x, y, (half)0.25f); r[15] = radians(y); \
    r[16] = R16; r[17] = R17; r[18] = R18; \
    io[i] = ilogb(x); \
}
HALFFN(halffn, pown(x, n[i] % 5), rootn(x, 3), powr(fabs(x), y))
HALFFN(powr_of_c, pown(x, n[i] % 5), rootn(x, 3), powr(fabs(c[i]), y))
HALFFN(no_powr, pown(x, n[i] % 5), rootn(x, 3), y)
HALFFN(no_pown, x, rootn(x, 3), powr(fabs(x), y))
HALFFN(no_rootn, pown(x, n[i] % 5), x, powr(fabs(x), y))
HALFFN(neither, x, x, powr(fabs(x), y))
