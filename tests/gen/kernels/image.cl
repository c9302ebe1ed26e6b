/* images on the Gen path: sampler loads (read_imageui with integer
 * coordinates), typed surface writes, the image queries (payload), sampled
 * reads through a sampler argument and an inline sampler, and sub-group
 * block reads and writes on images (media block messages) */
constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                          CLK_FILTER_NEAREST;

__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void image(read_only image2d_t src, write_only image2d_t dst, read_only image2d_t fs,
                  sampler_t smp, read_only image2d_t blk, write_only image2d_t bo,
                  global uint *q, global float4 *fo, int dx, global float4 *ci)
{
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * get_global_size(0) + x;
    uint4 p = read_imageui(src, (int2)(x + dx, y));
    write_imageui(dst, (int2)(x, y), p * 3u + (uint4)(1, 2, 3, 4));
    q[4 * i] = get_image_width(src);
    q[4 * i + 1] = get_image_height(src);
    q[4 * i + 2] = get_image_channel_order(src);
    q[4 * i + 3] = get_image_channel_data_type(dst);
    fo[2 * i] = read_imagef(fs, smp, (float2)(x * 0.5f - 1.0f, y + 0.25f));
    fo[2 * i + 1] = read_imagef(fs, edge, (float2)(x + 2.0f, y * 1.5f));
    ci[i] = read_imagef(fs, smp, (int2)(x % 8, y));   /* integer coordinates */
    int bx = (x - (int)get_sub_group_local_id()) * 4;   /* lane 0's x, in bytes */
    uint v = intel_sub_group_block_read(blk, (int2)(bx - 8, y));
    intel_sub_group_block_write(bo, (int2)(bx, y), v * 3u + 1u);
}
