// byval.cl - vectors and structs passed to kernels by value (test_byval.c).
// sgemu binds each as a `constant` buffer of its host-layout bytes.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef struct { int a; float b[3]; short c; } S1;   // 20 bytes: c at 16
typedef struct { char x; float4 v; } S2;             // 32 bytes: v at 16

kernel void vec_f4(global float *o, float4 s)
{
    int i = get_global_id(0);
    float4 r = (float4)(s.x + i, s.y * i, s.z - i, s.w);
    if (i & 1)
        r.w = -s.w;
    vstore4(r, i, o);
}

kernel void vec_i2(global int *o, int2 q)
{
    int i = get_global_id(0);
    o[2 * i] = q.x * i;
    o[2 * i + 1] = q.y - i;
}

kernel void vec_uc16(global uchar *o, uchar16 u)
{
    int i = get_global_id(0);
    vstore16(u + (uchar)i, i, o);
}

kernel void vec_d2(global double *o, double2 d)
{
    int i = get_global_id(0);
    o[2 * i] = d.x * i;
    o[2 * i + 1] = d.y + i;
}

kernel void vec_f3(global float *o, float3 t, float k)
{
    int i = get_global_id(0);
    vstore3(t + k * i, i, o);
}

kernel void vec_l8(global long *o, long8 l)
{
    int i = get_global_id(0);
    vstore8(l * (long)(i + 1), i, o);
}

kernel void vec_h4(global float *o, half4 h)
{
    int i = get_global_id(0);
    vstore4(convert_float4(h) * (float)i, i, o);
}

kernel void st_s1(global float *o, S1 p)
{
    int i = get_global_id(0);
    o[i] = p.a * i + p.b[i % 3] + p.c;
}

kernel void st_s2(global float *o, S2 p)
{
    int i = get_global_id(0);
    vstore4(p.v + (float)(p.x * i), i, o);
}

// The kernel changes its copy (through a call that is not inlined by
// clang), so the argument is copied to private memory first.
__attribute__((noinline)) static void bump(S1 *q, int i)
{
    q->a += i;
    q->b[i % 3] *= 2.0f;
}

kernel void st_mut(global float *o, S1 p)
{
    int i = get_global_id(0);
    bump(&p, i);
    o[i] = p.a + p.b[0] + p.b[1] + p.b[2] + p.c;
}

// Several by-value vectors in one kernel; signed small components widen
// with their sign.
kernel void vec_mix(global int *o, char4 c, short8 s, uint2 u)
{
    int i = get_global_id(0);
    o[2 * i] = c.w * i + s.s7 + (int)u.y;
    o[2 * i + 1] = c.x + s.s0 * i - (int)u.x;
}
