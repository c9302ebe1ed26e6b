/* Samplers: read_image{f,ui} with a sampler argument, a program-scope
 * sampler and a literal one (OpConstantSampler, OpSampledImage,
 * OpImageSampleExplicitLod -> sample_image*). */
__constant sampler_t s_rep = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;

__kernel void sampf(__read_only image2d_t fim, sampler_t s, __global const float2 *co,
                    __global float4 *of, __global float4 *orep)
{
    size_t i = get_global_id(0);
    float2 c = co[i];
    of[i] = read_imagef(fim, s, c);
    orep[i] = read_imagef(fim, s_rep, c);
}

__kernel void sampu(__read_only image2d_t uim, sampler_t s, __global const float2 *co,
                    __global uint4 *ou, __global uint4 *oint)
{
    size_t i = get_global_id(0);
    ou[i] = read_imageui(uim, s, co[i]);
    int g = (int)i;
    int2 ic = (int2)((g & 15) - 3, (g >> 4) - 2);
    oint[i] = read_imageui(uim, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                                CLK_FILTER_NEAREST, ic);
}
