// vshuffle.cl: the vector built-ins shuffle and shuffle2 (OpenCL C 6.13.12)
// with constant and run-time masks, over 4-, 8- and 16-way choices.
kernel void vshuffle(global const uint *in, global const uint *mk, global uint *out)
{
    uint i = get_global_id(0);
    uint4 x = vload4(2 * i, in), y = vload4(2 * i + 1, in);
    uint8 m = vload8(i, mk);
    global uint *o = out + 20 * i;
    vstore8(shuffle(x, m), 0, o);                           /* run-time, 4 choices */
    vstore4(shuffle2(x, y, m.lo), 2, o);                    /* run-time, 8 choices */
    vstore4(shuffle(x, (uint4)(3, 6, 1, 4)), 3, o);         /* constant, mod 4 */
    ushort8 h = shuffle2(as_ushort8(x), as_ushort8(y), convert_ushort8(m));
    vstore4(as_uint4(h), 4, o);                             /* run-time, 16 choices */
}
