// printf through IGC (tests/gen/test_gen_cli.c computes the expected lines
// with the host C library on the same values): scalars with flags, widths,
// '*' arguments and strings, then vectors.
#pragma clang diagnostic ignored "-Wformat"
kernel void pf(global const int *iv, global const float *fv, global const long *lv)
{
    int i = get_global_id(0);
    int x = iv[i];
    float f = fv[i];
    long l = lv[i];
    printf("i=%d [%5x] %+.3f %e l=%ld %lx %c %s [%*d]\n", x, x, f, f, l, l, 'A' + i, "str",
           4, x);
    int4 a = (int4)(x, x + 1, -x, 7);
    uchar3 c = convert_uchar3(a.xyz);
    printf("%v4d|%v2hlf|%v3hhu|%%\n", a, (float2)(f, -f), c);
}
