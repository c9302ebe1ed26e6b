/* A sub-group block read without a required width: ocloc -device tgllp
 * compiles it at SIMD16 and refuses it at SIMD32 (test_gen_cli.c). */
kernel void block_refused(global const uint *in, global uint *out)
{
    size_t base = get_group_id(0) * get_local_size(0) +
                  get_sub_group_id() * get_max_sub_group_size();
    out[get_global_id(0)] = intel_sub_group_block_read(in + base) * 3u;
}
