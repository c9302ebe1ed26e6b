/* 32- and 64-bit integer ALU: add, mul/mach, logic, shifts, min/max
 * (sel), compare + select, bit counts, rotates (rol by a register and by
 * an immediate); a by-value argument */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void alu_int(global const int *a, global const int *b, global int *out,
                    global long *lout, int s)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    global int *o = out + i * 14;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = mul_hi(x, y);
    o[4] = (x & y) | (x ^ s);
    o[5] = x << (y & 31);
    o[6] = x >> (y & 31);
    o[7] = (int)((uint)x >> (y & 31));
    o[8] = min(x, y);
    o[9] = max(x, y);
    o[10] = x < y ? s : -s;
    o[11] = popcount(x) + clz(y);
    o[12] = rotate(x, y);
    o[13] = rotate(x, 27);
    lout[i] = (long)x * y + ((long)s << 33);
}
