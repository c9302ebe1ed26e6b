// switchn.cl: switches on values of a few bits (x % 4, x & 7), which clang-14
// -O2 narrows to i2/i3 and llvm-spirv-14 rejects; `sgemu run K.cl` then
// compiles again with native integer widths (tools/common.c)
kernel void switchn(global const uint *in, global uint *out)
{
    uint i = get_global_id(0), x = in[i], r;
    switch (i % 4) {
    case 0: r = x + 1; break;
    case 1: r = x * 3; break;
    case 2: r = x ^ 5; break;
    default: r = 7;
    }
    switch (x & 7) {
    case 0: r += 100; break;
    case 3: r ^= 0x70;      /* falls through */
    case 4: r *= 5; break;
    case 6: r -= x; break;
    default: break;
    }
    out[i] = r;
}
