/* Floating-point workloads: n-body with rsqrt, Mandelbrot, and half
 * precision. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void nbody(global const float4 *pos, global float4 *acc, local float4 *tile)
{
    size_t g = get_global_id(0), lid = get_local_id(0), lsz = get_local_size(0);
    float4 p = pos[g];
    float4 a = (float4)(0.0f);
    for (size_t t = 0; t < get_global_size(0); t += lsz) {
        tile[lid] = pos[t + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t j = 0; j < lsz; j++) {
            float4 d = tile[j] - p;
            float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
            float inv = rsqrt(r2);
            a += fabs(d) * (tile[j].w * inv * inv * inv);   /* positive terms: no cancellation */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[g] = a;
}

kernel void mandel(global const float *c, global int *iters)
{
    size_t g = get_global_id(0);
    float cr = c[g] - 2.0f, ci = c[g + 64] - 1.5f;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < 24 && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    iters[g] = n;
}

kernel void halfmath(global const half *h, global half *o, global float *f)
{
    size_t g = get_global_id(0);
    half4 a = vload4(g, h), b = vload4(g + 64, h);
    half4 r = a * b + (half4)(0.5h) - fmax(a, b) / (b + (half)1.0h);
    vstore4(r, g, o);
    float4 wide = vload_half4(g, (global const half *)h);
    vstore_half4_rte(wide * 3.1f, g, o + 512);
    f[g] = (float)(a.x * b.y) + vload_half(g, h + 1024);
    o[1024 + g] = convert_half(sqrt((float)a.y)) + (half)g;
}
