/* 64-bit conversions, max, division and an unsigned compare: at SIMD32
 * IGC's Gen9 code compares into the register that holds the compare's
 * scalar operand (cmp (8|M24) (gt)f1.0 r36.0<1>:uq ... r36.0<0;1,0>:uq),
 * which the hardware reads before it writes */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void cmp_overlap(global const float *f, global const ulong *l, global ulong *o,
                        global uint *u)
{
    size_t g = get_global_id(0);
    float x = f[g] * 0x1p62f;
    o[4 * g] = convert_ulong(x);
    o[4 * g + 1] = convert_ulong_sat(x * 4.0f);
    ulong a = l[g] << 59 | l[g];
    o[4 * g + 2] = max(a, (ulong)l[g + 1] << 60) / (l[g] + 1) + (a > 0x8000000000000001ul);
    o[4 * g + 3] = abs_diff(a, 0x9000000000000000ul) + mul_hi(a, a);
    u[2 * g] = convert_uint_sat(a);
    u[2 * g + 1] = (uint)(a * 0x1p-40f);
}
