// Image channel queries: get_image_channel_data_type / get_image_channel_order
// of read-only, write-only and read-write images (clang emits
// OpImageQueryFormat / OpImageQueryOrder plus an add of 0x10D0 / 0x10B0).
kernel void imgquery(read_only image2d_t a, write_only image2d_t b, read_write image2d_t c,
                     read_only image2d_t d, global int *out)
{
    size_t i = get_global_id(0);
    global int *o = out + 8 * i;
    o[0] = get_image_channel_data_type(a);
    o[1] = get_image_channel_order(a);
    o[2] = get_image_channel_data_type(b);
    o[3] = get_image_channel_order(b);
    o[4] = get_image_channel_data_type(c);
    o[5] = get_image_channel_order(c);
    // divergent: only odd work-items ask d (even ones keep the buffer's value)
    if (i & 1)
        o[6] = get_image_channel_order(d) * 0x10000 + get_image_channel_data_type(d);
    // a comparison with the header's constants, as kernels use them
    int t = get_image_channel_data_type(b);
    o[7] = (t == CLK_FLOAT) | (t == CLK_UNORM_INT8) << 1 | (get_image_channel_order(b) == CLK_RGBA) << 2;
}
