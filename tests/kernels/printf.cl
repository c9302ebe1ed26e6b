/* printf.cl - OpenCL C printf through sgemu (tests/kernels/test_printf.c
 * computes every expected line with the host C library's snprintf on the
 * same values). */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma clang diagnostic ignored "-Wformat"

/* Every scalar conversion with flags, widths and precisions; the return
 * value of each call goes to ret. */
kernel void conversions(global const int *iv, global const float *fv,
                        global const long *lv, global int *ret)
{
    int i = get_global_id(0);
    int x = iv[i];
    float f = fv[i];
    long l = lv[i];
    int r = 0;
    r |= printf("d=%d i=%i o=%o u=%u x=%x X=%X\n", x, x, x, x, x, x);
    r |= printf("[%-8d][%+d][% d][%08d][%.5d][%#o][%#x][%#X][%8.3x][%-+6i]\n",
                x, x, x, x, x, x, x, x, x, x);
    r |= printf("hh=%hhd %hhu %hhx h=%hd %hu %hX %#ho\n", x, x, x, x, x, x, x);
    r |= printf("l=%ld %li %lu %lx %lX %lo [%+20ld][%-22lu]\n", l, l, l, l, l, l, l, l);
    r |= printf("f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", f, f, f, f, f, f, f, f);
    r |= printf("[%10.3f][%-12.4e][%+.2g][%#.0f][%010.2f][%.3a][% .1E][%#g][%lf]\n",
                f, f, f, f, f, f, f, f, f);
    r |= printf("c=%c[%-3c][%3c] s=%s[%10s][%-10s][%.2s] p=%p %%\n",
                'A' + i, 'a' + i, '0' + i, "hello", "hi", "left", "precision", iv);
    r |= printf("[%*d][%-*d][%.*f][%*.*e][%*d][%.*f][%.*s]\n", 6, x, 6, x, 3, f, 12, 2, f,
                -5, x, -1, f, i, "abcdefgh");
    ret[i] = r;
}

/* Vector specifiers: every length modifier, with flags and precisions. */
kernel void vectors(global const int *iv, global const float *fv, global const long *lv,
                    global const half *hv, global const double *dv, global int *ret)
{
    int i = get_global_id(0);
    int4 a = vload4(i, iv);
    float4 f = vload4(i, fv);
    long2 l = vload2(i, lv);
    half2 h = vload2(i, hv);
    double2 d = vload2(i, dv);
    uchar3 c = convert_uchar3(a.xyz);
    ushort8 s = convert_ushort8((int8)(a, a * 3));
    char16 q = convert_char16((int16)(a, a + 1, a * 7, -a));
    short4 t = convert_short4(a);
    int r = 0;
    r |= printf("%v4d|%v4hld|%v4hli|%+v4hld|%v4hlx|%#v4hlX|%v4hlo|%v4u\n", a, a, a, a, a, a, a, a);
    r |= printf("%v2hlf|%v4hlf|%.2v4hlf|%10.3v4hle|%v4hlg|%v4hlA|%-8.1v3hlf|\n",
                f.xy, f, f, f, f, f, f.xyz);
    r |= printf("%v2ld|%v2lu|%#v2lx|%v2lo|%+v2li\n", l, l, l, l, l);
    r |= printf("%v2hf|%.3v2he|%v2ha|%v2hg\n", h, h, h, h);
    r |= printf("%v2lf|%v2f|%.10v2lg|%v2la\n", d, d, d, d);
    r |= printf("%v3hhu|%#v3hhx|%v8hu|%08v8hx|%v16hhd|%v4hd|%+v4hi\n", c, c, s, s, q, t, t);
    r |= printf("%*.*v2hlf|%-*v2hld|\n", 8, 1, f.xy, 5, a.xy);
    ret[i] = r;
}

/* Output order: work-group, then sub-group, then lane, then program order,
 * whatever order the work-items run in (barriers, divergent branches). */
kernel void order(global int *ret)
{
    int l = get_local_linear_id();
    int g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    int sg = get_sub_group_id(), lane = get_sub_group_local_id();
    int r = 0;
    if (lane & 1)
        r |= printf("g%d sg%d lane%d l%d odd\n", g, sg, lane, l);
    else
        r |= printf("g%d sg%d lane%d l%d even\n", g, sg, lane, l);
    barrier(CLK_LOCAL_MEM_FENCE);
    r |= printf("g%d sg%d lane%d l%d after\n", g, sg, lane, l);
    ret[get_global_linear_id()] = r;
}

/* A fixed record per call: the buffer holds a known number of calls. */
kernel void flood(global int *ret)
{
    int i = get_global_id(0);
    int a = printf("%d\n", i);
    int b = printf("%d %d\n", i, -i);
    ret[2 * i] = a;
    ret[2 * i + 1] = b;
}
