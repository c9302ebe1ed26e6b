/* double precision: refused by IGC for tgllp (Xe-LP has no FP64) */
kernel void fp64(global double *x)
{
    size_t i = get_global_id(0);
    x[i] = x[i] * 2.5 + 1.0;
}
