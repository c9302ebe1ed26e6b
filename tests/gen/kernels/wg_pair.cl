/* two work-group functions in a row: IGC's code reads the first one's
 * result from SLM after a barrier, and the second one's partial results
 * overwrite that SLM without another barrier (on the hardware the threads
 * read before any of them gets there) */
__attribute__((intel_reqd_sub_group_size(WIDTH)))
kernel void wg_pair(global const int *in, global int *all, global float *mn)
{
    size_t g = get_global_id(0);
    all[g] = work_group_all(in[g] < 19);
    mn[g] = work_group_scan_inclusive_min((float)in[g]);
}
