// Image element access and queries: read_imageui/f, write_imageui/f,
// get_image_width/height (integer coordinates, no sampler).
kernel void images(read_only image2d_t src, read_only image2d_t fsrc,
                   write_only image2d_t dst, write_only image2d_t fdst, global int *dims)
{
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_image_width(src), h = get_image_height(src);
    uint4 p = read_imageui(src, (int2)(w - 1 - x, y));           // mirror
    write_imageui(dst, (int2)(x, y), (uint4)(p.w, p.z + 1, p.y * 2, p.x));
    float4 f = read_imagef(fsrc, (int2)(x, h - 1 - y));          // flip
    write_imagef(fdst, (int2)(x, y), (float4)(1.0f - f.x, f.y * 0.5f, f.z, 1.0f));
    if (x == 0 && y == 0) {
        dims[0] = w;
        dims[1] = h;
        dims[2] = get_image_width(fdst);
        dims[3] = get_image_height(fdst);
    }
}
