/* read_imagei / write_imagei on a signed-integer image through OpenCL C:
 * llvm-spirv-14 writes them as OpImageRead / OpImageWrite without
 * SignExtend, so their signedness is the image's (.anysign). */
kernel void signed_image(write_only image2d_t d, read_only image2d_t s)
{
    int2 p = (int2)(get_global_id(0), 0);
    int4 v = read_imagei(s, p);
    write_imagei(d, p, v * 9 - 100);
}
