// switchn.cl: switches on values of a few bits (x % 4, x & 7), which clang-14
// -O2 narrows to i2/i3 and llvm-spirv-14 rejects; `sgemu run K.cl` then
// compiles again with native integer widths (load/opencl_c.c)
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

// a short fixed-count loop over a private array: clang-14 -O2 turns it into
// llvm.vector.reduce.add, which llvm-spirv-14 cannot translate; the second
// compile (no vectorisers) keeps it scalar
static uint sum4(const uint *p)
{
    uint s = 0;
    for (int i = 0; i < 4; i++)
        s += p[i];
    return s;
}

kernel void sumloop(global const uint *in, global uint *out)
{
    uint i = get_global_id(0);
    uint priv[4] = { in[4 * i], in[4 * i + 1] + 2, in[4 * i + 2], in[4 * i + 3] };
    out[i] = sum4(priv);
}

// a quotient and a remainder by the same run-time divisor: clang-14 -O2
// rewrites x % d as x - (x / d) * d behind a freeze of x, which
// llvm-spirv-14 cannot translate; the second compile drops the freeze
kernel void divrem(global const int *in, global int *out, int d)
{
    int i = get_global_id(0), x = in[i];
    out[i] = x / d + 1000 * (x % d);
}
