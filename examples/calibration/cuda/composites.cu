// composites.cu - the composite operations of examples/calibration/*.sgasm
// written in CUDA, timed with clock64 on a real GPU.  Used only to VALIDATE
// the nvidia-h100 config's predictions (docs/timing-model.md); nothing in the
// model is fitted to these numbers.  Each kernel runs one block; every
// iteration depends on the previous one; cycles per composite =
// (t(2n) - t(n)) / n, which cancels the fixed start-up cost.
#include <cstdio>
#include <cstdint>

#define FULL 0xffffffffu

__device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int k = 1; k < 32; k <<= 1)
        v += __shfl_xor_sync(FULL, v, k);
    return v;
}

__device__ __forceinline__ unsigned warp_scan(unsigned v, unsigned lane)
{
    for (int k = 1; k < 32; k <<= 1) {
        unsigned t = __shfl_up_sync(FULL, v, k);
        if (lane >= (unsigned)k)
            v += t;
    }
    return v;
}

template <int KIND, int THREADS>
__global__ void composite(unsigned *out, long long *cycles, int n)
{
    __shared__ unsigned s[32];
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nw = THREADS / 32;
    unsigned v = lane;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (KIND == 0) {                       // warp sum
            v = warp_sum(v);
        } else if (KIND == 1) {                // warp inclusive scan
            v = warp_scan(v, lane);
        } else if (KIND == 2) {                // block sum
            v = warp_sum(v);
            s[warp] = v;
            __syncthreads();
            v = s[lane & (nw - 1)];
            for (int k = 1; k < nw; k <<= 1)
                v += __shfl_xor_sync(FULL, v, k);
            __syncthreads();
        } else {                               // block inclusive scan
            v = warp_scan(v, lane);
            unsigned total = __shfl_sync(FULL, v, 31);
            s[warp] = total;
            __syncthreads();
            unsigned p = s[lane & (nw - 1)];
            for (int k = 1; k < nw; k <<= 1) {
                unsigned t = __shfl_up_sync(FULL, p, k);
                if (lane >= (unsigned)k)
                    p += t;
            }
            unsigned prev = __shfl_sync(FULL, p, (warp + 31) & 31);
            v += warp == 0 ? 0 : prev;
            __syncthreads();
        }
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cycles = t1 - t0;
    if (v == 0xdeadbeef)
        out[threadIdx.x] = v;                  // keeps v alive
}

template <int KIND, int THREADS>
static double per_op(unsigned *out, long long *dcyc, int n)
{
    long long c1, c2;
    composite<KIND, THREADS><<<1, THREADS>>>(out, dcyc, n);          // warm-up
    composite<KIND, THREADS><<<1, THREADS>>>(out, dcyc, n);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    composite<KIND, THREADS><<<1, THREADS>>>(out, dcyc, 2 * n);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    return (double)(c2 - c1) / n;
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 1024 * sizeof(unsigned));
    cudaMalloc(&dcyc, sizeof(long long));
    const int n = 4096;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    printf("warp sum, 5 xor-shuffle + add steps        %8.1f cycles\n", per_op<0, 32>(out, dcyc, n));
    printf("warp inclusive scan, 5 shuffle-up steps    %8.1f cycles\n", per_op<1, 32>(out, dcyc, n));
    printf("block sum, 256 threads                     %8.1f cycles\n", per_op<2, 256>(out, dcyc, n));
    printf("block sum, 1024 threads                    %8.1f cycles\n", per_op<2, 1024>(out, dcyc, n));
    printf("block inclusive scan, 256 threads          %8.1f cycles\n", per_op<3, 256>(out, dcyc, n));
    printf("block inclusive scan, 1024 threads         %8.1f cycles\n", per_op<3, 1024>(out, dcyc, n));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
