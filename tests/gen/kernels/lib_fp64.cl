/* Double precision as scientific libraries use it (on the targets with
 * doubles: IGC refuses it for the others): a dot product with a local
 * reduction, Horner polynomials, sqrt/fma/division, conversions to and
 * from 64-bit integers, and a double atomic add by compare-exchange. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

kernel void ddot(global const float *x, global const float *y, global double *out,
                 local double *sh)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0), g = get_global_id(0);
    double s = 0.0;
    for (int k = 0; k < 4; k++)
        s = fma((double)x[4 * g + k], (double)y[4 * g + k], s);
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t st = 1; st < lsz; st <<= 1) {
        if (lid % (2 * st) == 0 && lid + st < lsz)
            sh[lid] += sh[lid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = sh[0] + s;
}

kernel void dmath(global const float *x, global double *out, global long *l)
{
    size_t g = get_global_id(0);
    double v = (double)x[g] * 3.25 - 1.0;
    double p = ((0.125 * v - 0.5) * v + 2.0) * v - 7.0;
    out[4 * g] = p;
    out[4 * g + 1] = sqrt(fabs(p)) / (v + 10.0);
    out[4 * g + 2] = fma(v, p, -v) + floor(v * 7.5) - ceil(p);
    out[4 * g + 3] = (double)(long)(p * 1e12) + (double)(ulong)(v * 1e15);
    l[g] = convert_long_sat_rte(v * 1e17) ^ (long)(v * 4e9);   /* v is exact: no contraction */
}

kernel void datomic(global const int *in, global double *acc)
{
    size_t g = get_global_id(0);
    volatile global long *p = (volatile global long *)&acc[g & 3];
    double add = (double)in[g] * 0.25;   /* small binary fractions: exact in any order */
    long old = *p, seen;
    while ((seen = atom_cmpxchg(p, old, as_long(as_double(old) + add))) != old)
        old = seen;
}
