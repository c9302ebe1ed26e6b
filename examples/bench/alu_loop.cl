// alu_loop: OpenCL C twin of alu_loop.sgasm (32 rounds of 16 integer ops)
kernel void alu_loop(global uint *out)
{
    uint i = get_global_id(0);
    uint x = i, y = 0x9e3779b9u;
    for (int k = 0; k < 32; k++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 13;
        y += y << 7;
        x ^= y;
        x = x * 22695477u + 1u;
        y ^= x >> 11;
        y -= y << 3;
        x ^= y;
        y += 0x7f4a7c15u;
        y |= x & 0xffffu;
        x ^= y;
    }
    out[i] = x;
}
