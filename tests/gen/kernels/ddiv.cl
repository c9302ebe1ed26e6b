/* double division and square root: IGC's IEEE macros, math.invm and
 * math.rsqtm followed by madm steps (test_gen_exec: ieee_macros).  A file
 * of its own: IGC refuses a file with doubles as a whole on Xe-LP and
 * Xe-HPG. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void ddiv(global const double *a, global const double *b, global double *o)
{
    size_t i = get_global_id(0);
    o[2 * i] = a[i] / b[i];
    o[2 * i + 1] = sqrt(a[i]);
}
