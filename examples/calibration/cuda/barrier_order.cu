// barrier_order.cu - which blocks the SM's barrier unit serves first when
// several share it (docs/timing-model.md, "Whole kernels on a real H200",
// barrier bullet).  132 x K blocks of T threads run a chain of 1024
// __syncthreads(); thread 0 of each block records %smid, %warpid, its start
// and end clock.  Per SM the blocks are ranked by start (rank 0: the first
// to start); per rank, over the SMs and 3 launches, the median of
// (end - start) / 1024 and of the start offset from the SM's first block.
//   nvcc -O2 -arch=sm_90 barrier_order.cu -o barrier_order && ./barrier_order
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
    if (threadIdx.x == 0) {
        unsigned sm, wid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
        out[blockIdx.x * 4 + 0] = t0;
        out[blockIdx.x * 4 + 1] = t1;
        out[blockIdx.x * 4 + 2] = sm;
        out[blockIdx.x * 4 + 3] = wid;
    }
}

static double med(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t h = v.size() / 2;
    return v.empty() ? 0 : v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const int sms = p.multiProcessorCount;
    const int T[] = { 256, 256, 1024, 64, 128 };
    const int K[] = { 4, 8, 2, 16, 16 };
    long long *out;
    CK(cudaMalloc(&out, (size_t)sms * 32 * 4 * 8));
    bar_chain<<<sms, 256>>>(1024, out);
    CK(cudaDeviceSynchronize());
    for (size_t v = 0; v < sizeof T / sizeof T[0]; v++) {
        unsigned blocks = sms * K[v];
        std::vector<std::vector<double>> per(K[v]), off(K[v]), wid(K[v]);
        for (int run = 0; run < 3; run++) {
            bar_chain<<<blocks, T[v]>>>(1024, out);
            CK(cudaDeviceSynchronize());
            std::vector<long long> h(blocks * 4);
            CK(cudaMemcpy(h.data(), out, blocks * 32, cudaMemcpyDeviceToHost));
            std::vector<std::vector<unsigned>> bysm(sms);
            for (unsigned b = 0; b < blocks; b++)
                bysm[h[b * 4 + 2]].push_back(b);
            for (auto &l : bysm) {
                if ((int)l.size() != K[v])
                    continue;
                std::sort(l.begin(), l.end(), [&](unsigned a, unsigned b) { return h[a * 4] < h[b * 4]; });
                for (int r = 0; r < K[v]; r++) {
                    unsigned b = l[r];
                    per[r].push_back((double)(h[b * 4 + 1] - h[b * 4]) / 1024);
                    off[r].push_back((double)(h[b * 4] - h[l[0] * 4]));
                    wid[r].push_back((double)h[b * 4 + 3]);
                }
            }
        }
        printf("T=%4d K=%2d: per start rank: span/1024 (start offset, warpid of warp 0), medians\n ", T[v], K[v]);
        for (int r = 0; r < K[v]; r++)
            printf(" %.1f (%.0f, %.0f)", med(per[r]), med(off[r]), med(wid[r]));
        printf("\n");
    }
    CK(cudaFree(out));
    return 0;
}
