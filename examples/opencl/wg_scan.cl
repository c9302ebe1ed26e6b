// wg_scan: inclusive and exclusive prefix sums over each work-group
// (work_group_scan_*), plus the work-group total in every element's slot.
//   sgemu run examples/opencl/wg_scan.cl --global 1024 --local 128 \
//     --arg in=int:random:1024:4 --arg inc=int:zeros:1024 --arg exc=int:zeros:1024 \
//     --arg total=int:zeros:8 --out inc
__kernel void wg_scan(__global const int *in, __global int *inc, __global int *exc,
                      __global int *total)
{
    uint i = get_global_id(0);
    int v = in[i];
    inc[i] = work_group_scan_inclusive_add(v);
    exc[i] = work_group_scan_exclusive_add(v);
    int t = work_group_reduce_add(v);
    if (get_local_id(0) == 0)
        total[get_group_id(0)] = t;
}
