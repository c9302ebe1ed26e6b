// vector_add: OpenCL C twin of vector_add.sgasm (the bench's OpenCL peers run it)
kernel void vector_add(global const float *a, global const float *b,
                       global float *c, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
