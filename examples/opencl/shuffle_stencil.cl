// shuffle_stencil: out[i] = in[i-1] + in[i] + in[i+1] (indices clamped to
// 0..n-1); the neighbours come from Intel two-source shuffles.
//   sgemu run examples/opencl/shuffle_stencil.cl --global 1024 --local 64 \
//     --arg in=float:random:1024:9 --arg out=float:zeros:1024 --arg n=1024 --out out
__kernel void shuffle_stencil(__global const float *in, __global float *out, uint n)
{
    uint i = get_global_id(0);
    uint m = get_max_sub_group_size();
    float cur = in[i];
    float prev = in[max((int)i - (int)m, 0)];
    float next = in[min(i + m, n - 1)];
    float left = intel_sub_group_shuffle_up(prev, cur, 1u);
    float right = intel_sub_group_shuffle_down(cur, next, 1u);
    out[i] = left + cur + right;
}
