/* Image messages at SIMD8 (test_gen_timing.c derives their cycles): a
 * sub-group block read of an image (a media block read), a read without
 * a sampler (the sampler's ld_lz) and a write (a typed surface write). */
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void timing_image(read_only image2d_t blk, read_only image2d_t src,
                           write_only image2d_t dst)
{
    int x = get_global_id(0);
    uint v = intel_sub_group_block_read(blk, (int2)(0, 0));
    uint4 p = read_imageui(src, (int2)(x, 1));
    write_imageui(dst, (int2)(x, 0), p + v);
}
