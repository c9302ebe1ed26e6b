/* Image filters with samplers: normalised coordinates with linear
 * filtering, unnormalised nearest reads with a sampler argument, and
 * integer image writes. */
constant sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                         CLK_FILTER_LINEAR;
constant sampler_t rep = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |
                         CLK_FILTER_NEAREST;

kernel void img_lin(read_only image2d_t lsrc, global float4 *out)
{
    int g = get_global_id(0);
    float2 uv = (float2)((g & 15) * 0.0625f + 0.01f, (g >> 4) * 0.25f + 0.1f);
    out[g] = read_imagef(lsrc, lin, uv);
    out[64 + g] = read_imagef(lsrc, rep, uv * 3.0f - 0.5f);
}

kernel void img_box(read_only image2d_t bsrc, write_only image2d_t bdst, sampler_t s)
{
    int x = get_global_id(0), y = x % 8;
    uint4 acc = (uint4)(0);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            acc += read_imageui(bsrc, s, (int2)(x + dx, y + dy));
    write_imageui(bdst, (int2)(x, y), acc / 9);
}
