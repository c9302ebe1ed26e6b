/* read_imagef(...).xyz through a sampler: IGC shortens the sampler's
 * response to the three channels the kernel uses (test_gen_exec.c) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void sampler_xyz(read_only image2d_t img, sampler_t smp, global float *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * get_global_size(0) + x;
    float4 p = read_imagef(img, smp, (float2)(x + 0.5f, y + 0.5f));
    vstore3(p.xyz, i, out);
}
