/* SIMD control flow as IGC builds it: if/else/endif, loops with break and
 * continue (while/break/cont or goto/join), a switch and an early return,
 * every branch divergent within a sub-group */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void flow(global const int *a, global int *c)
{
    size_t i = get_global_id(0);
    int x = a[i], s = 0;
    if (x > 10) {
        s = x * 3;
    } else if (x > 4) {
        s = x - 7;
    } else {
        s = -x;
    }
    for (int k = 0; k < x; k++) {
        if (k == 5)
            continue;
        if (s > 300)
            break;
        s += k * k;
    }
    int n = 0;
    while (x > 1 && n < 50) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
    }
    switch (a[i] % 4) {
    case 0: s += 1000; break;
    case 1: s -= 1000; break;
    case 3: s ^= 0x55; break;
    default: break;
    }
    c[2 * i] = s;
    if (a[i] == 7)
        return;
    c[2 * i + 1] = n;
}
