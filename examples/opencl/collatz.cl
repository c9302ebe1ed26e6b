// collatz: steps[i] = number of Collatz steps from in[i] down to 1 (the
// OpenCL C form of examples/collatz.sgasm: a loop whose trip count differs
// per work-item, with a divergent branch inside).
//   sgemu run examples/opencl/collatz.cl --global 256 --local 64 \
//     --arg in=uint:iota:256 --arg steps=uint:zeros:256 --out steps
__kernel void collatz(__global const uint *in, __global uint *steps)
{
    uint i = get_global_id(0);
    uint x = in[i];
    uint n = 0;
    while (x > 1) {
        if (x & 1)
            x = 3 * x + 1;
        else
            x >>= 1;
        n++;
    }
    steps[i] = n;
}
