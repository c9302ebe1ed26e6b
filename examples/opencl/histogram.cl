// histogram: global atomics; bins[data[i] % nbins] += 1.
//   sgemu run examples/opencl/histogram.cl --global 4096 --local 128 \
//     --arg data=uint:random:4096:3 --arg bins=uint:zeros:16 --arg nbins=16 --out bins
__kernel void histogram(__global const uint *data, __global uint *bins, uint nbins)
{
    uint i = get_global_id(0);
    atomic_add(&bins[data[i] % nbins], 1u);
}
