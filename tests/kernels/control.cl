// Divergent control flow: loops with break and continue, a switch, nested
// ifs and a data-dependent while loop.
kernel void control(global const int *in, global int *out)
{
    int g = get_global_id(0);
    int v = in[g], acc = 0;
    for (int k = 0; k < 48; k++) {
        if ((v + k) % 5 == 0)
            continue;
        if (acc > 600 + g)
            break;
        if (v & 1)
            acc += k * (v & 7);
        else
            acc -= k;
        switch (k ^ v) {   // (a switch on a value with known zero bits, such as k & 3,
                           // becomes an i2 switch, which llvm-spirv-14 rejects)
        case 0: case 30: acc ^= 3; break;
        case 10: case 45: case 46: acc += 7; break;
        case 7: case 23: if (acc < 0) acc = -acc; break;
        default: acc -= 1; break;
        }
    }
    int steps = 0;
    while (v > 1 && steps < 200) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        steps++;
    }
    out[2 * g] = acc;
    out[2 * g + 1] = steps;
}
