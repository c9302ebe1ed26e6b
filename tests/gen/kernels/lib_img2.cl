/* More image idioms: float writes to a normalised format, mirrored-repeat
 * linear sampling, a sampler argument with unnormalised float
 * coordinates, and an image that a kernel reads and writes. */
constant sampler_t mir = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |
                         CLK_FILTER_LINEAR;

kernel void img_tone(read_only image2d_t tsrc, write_only image2d_t tdst, sampler_t s)
{
    int x = get_global_id(0), y = x & 7;
    float4 p = read_imagef(tsrc, s, (float2)(x + 0.5f, y + 0.5f));
    float4 q = p / (p + (float4)(1.0f));
    write_imagef(tdst, (int2)(x, y), q * 1.5f);
}

kernel void img_mirror(read_only image2d_t msrc, global float4 *out)
{
    int g = get_global_id(0);
    float2 uv = (float2)((g & 15) * 0.125f - 1.0f, (g >> 4) * 0.375f - 0.25f);   /* exact */
    out[g] = read_imagef(msrc, mir, uv);
}

kernel void img_rw(read_write image2d_t rw, global uint *o)
{
    int x = get_global_id(0);
    uint4 p = read_imageui(rw, (int2)(x, 1));
    write_imageui(rw, (int2)(x, 2), p + (uint4)(x));
    o[x] = p.x + p.y;
}
