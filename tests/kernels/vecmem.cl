/* vloadn / vstoren / vload_half / vstore_half (OpenCL.std, lowered by
 * isa/spirv_vecmem.c to one scalar access per component). */
__kernel void vls(__global const float *a, __global float *o, __global const half *h,
                  __global half *oh, __global const int *ia, __global int *io)
{
    size_t i = get_global_id(0), G = get_global_size(0);
    float4 v = vload4(i, a);
    float3 t = vload3(i, a + 1);
    vstore4(v * 2.0f, i, o);
    vstore3(t + 1.0f, i, o + 4 * G);
    float4 hv = vload_half4(i, h);
    vstore_half4_rtz(hv * 3.0f, i, oh);
    float hs = vload_half(i, h + 1);
    vstore_half(hs / 3.0f, i, oh + 4 * G);
    float3 ha = vloada_half3(i, h);
    vstorea_half3_rtp(ha * 0.3f, i, oh + 5 * G);
    int2 iv = vload2(i, ia);
    vstore2(iv.yx, i, io);
}
