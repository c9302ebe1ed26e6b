/* reads of row 0 with integer coordinates and no sampler: IGC's ld_lz
 * leaves out v = 0 (one parameter; the sampler takes it as 0).  Outside
 * the image (dx = 1 at the last item) such a read is undefined in OpenCL.  IGC's ld_lz names sampler index 0, which names no
 * sampler in this kernel, so sgemu reports it (with a CLK_ADDRESS_CLAMP
 * sampler there it is the border colour: image.cl) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void ld_none(read_only image2d_t src, global uint4 *o, int dx)
{
    int x = get_global_id(0);
    o[x] = read_imageui(src, (int2)(x + dx, 0));
}
