// vector_add: c[i] = a[i] + b[i] for i < n (the OpenCL C form of
// examples/vector_add.sgasm).
//   sgemu run examples/opencl/vector_add.cl --global 1024 --local 64 \
//     --arg a=float:iota:1024 --arg b=float:random:1024:1 --arg c=float:zeros:1024 \
//     --arg n=1024 --out c
__kernel void vector_add(__global const float *a, __global const float *b,
                         __global float *c, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
