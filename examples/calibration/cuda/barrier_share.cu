// barrier_share.cu - how the SM's barrier unit shares its arrivals among
// resident blocks (docs/timing-model.md, "Barriers").  132 x K blocks of T
// threads (K per SM, all resident) each run a chain of n __syncthreads();
// thread 0 of each block reads clock64 before and after.  Cycles per
// barrier per block = (span(2n) - span(n)) / n, median over blocks (as
// kernels_probe.cu's probe 4), with the fastest and slowest block's
// (span / 2n) to show whether the blocks progress evenly.  One-warp blocks
// have no same-block arrivals to count one after another, so they show
// the SM-wide rate alone; equal warp totals with other block sizes show
// whether only the total matters.
//   nvcc -O2 -arch=sm_90 barrier_share.cu -o barrier_share && ./barrier_share
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ long long clk()
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    return c;
}

__global__ void bar_chain(int n, long long *out)
{
    long long t0 = clk();
#pragma unroll 1
    for (int i = 0; i < n; i += 16) {
#pragma unroll
        for (int k = 0; k < 16; k++)
            __syncthreads();
    }
    long long t1 = clk();
    if (threadIdx.x == 0)
        out[blockIdx.x] = t1 - t0;
}

static double med(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const int sms = p.multiProcessorCount;
    const int T[] = { 32, 32, 32, 32, 32, 32, 64, 64, 128, 128, 256, 256, 256, 512, 512, 1024, 1024 };
    const int K[] = { 1, 2, 4, 8, 16, 32, 16, 32, 8, 16, 2, 4, 8, 2, 4, 1, 2 };
    long long *out;
    CK(cudaMalloc(&out, (size_t)sms * 32 * 8));
    bar_chain<<<sms, 256>>>(512, out);
    CK(cudaDeviceSynchronize());
    printf("T K warps/SM: cycles per barrier per block (span(1024) - span(512)) / 512, median of 5 launches of the median block;"
           " fastest, slowest block span(1024) / 1024\n");
    for (size_t v = 0; v < sizeof T / sizeof T[0]; v++) {
        unsigned blocks = sms * K[v];
        std::vector<double> per[2], lo, hi;
        for (int run = 0; run < 5; run++)
            for (int h = 0; h < 2; h++) {
                bar_chain<<<blocks, T[v]>>>(h ? 1024 : 512, out);
                CK(cudaDeviceSynchronize());
                std::vector<long long> ho(blocks);
                CK(cudaMemcpy(ho.data(), out, blocks * 8, cudaMemcpyDeviceToHost));
                std::vector<double> x(ho.begin(), ho.end());
                per[h].push_back(med(x));
                if (h) {
                    lo.push_back(*std::min_element(x.begin(), x.end()) / 1024);
                    hi.push_back(*std::max_element(x.begin(), x.end()) / 1024);
                }
            }
        printf("T=%4d K=%2d warps/SM=%2d: %.2f  fastest %.2f slowest %.2f\n", T[v], K[v], T[v] / 32 * K[v],
               (med(per[1]) - med(per[0])) / 512, med(lo), med(hi));
    }
    CK(cudaFree(out));
    return 0;
}
