/* Seventeen stores in a row: tgllp's IGC gives each a software scoreboard
 * token, $0..$15, and the seventeenth takes $0 again (test_gen_timing.c
 * derives its cycles). */
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void tokens(__global int *x)
{
    size_t i = get_global_id(0);
#pragma unroll
    for (int j = 0; j < 17; j++)
        x[i + 8 * j] = j;
}
