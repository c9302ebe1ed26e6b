/* pow, pown and rootn (lowered by isa/spirv_math.c), scalar and vector. */
__kernel void powk(__global const float *x, __global const float *y, __global const int *n,
                   __global float *out)
{
    size_t i = get_global_id(0);
    out[4 * i + 0] = pow(x[i], y[i]);
    out[4 * i + 1] = pown(x[i], n[i]);
    out[4 * i + 2] = rootn(x[i], n[i]);
    /* a float2 pow: component 1 uses the neighbour's exponent */
    float2 b = (float2)(x[i], x[i]);
    float2 e = (float2)(y[i], y[i ^ 1]);
    float2 r = pow(b, e);
    out[4 * i + 3] = r.y;
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void powd(__global const double *x, __global const double *y, __global double *out)
{
    size_t i = get_global_id(0);
    out[i] = pow(x[i], y[i]);
}
