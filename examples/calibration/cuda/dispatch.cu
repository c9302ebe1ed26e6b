// dispatch.cu - block dispatch on the H100: the time from one block's last
// instruction to the next block's first on the same SM (raw output:
// dispatch_h200.txt; docs/timing-model.md, Calibration).  Each block asks
// for 120 KB of shared memory, so that an SM holds one block at a time.
// Its first warp reads clock64 first (t0), then %smid, computes where it
// stores, reads clock64 again (t1) and stores t0, t1 and the SM id; the
// other warps exit.  Per SM the blocks are sorted by t0: a gap is
// t0(k + 1) - t1(k), a period t0(k + 1) - t0(k).  132 x 8 blocks of 32,
// 256 and 1024 threads.  The SASS (cuobjdump -sass) is CS2R (t0) as the
// second instruction, and CS2R (t1), three STG and EXIT at the end.
//   nvcc -O2 -arch=sm_90 dispatch.cu -o dispatch
#include <cstdio>
#include <vector>
#include <algorithm>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void block(long long *start, long long *end, unsigned *sm)
{
    long long t0 = clock64();
    if (threadIdx.x >= 32)
        return;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    long long *ps = start + blockIdx.x, *pe = end + blockIdx.x;
    unsigned *pm = sm + blockIdx.x;
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
    if (threadIdx.x == 0) {
        *ps = t0;
        *pe = t1;
        *pm = id;
    }
}

static long long median(std::vector<long long> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = sms * 8, smem = 120 * 1024;
    long long *ds, *de; unsigned *dsm;
    CHECK(cudaMalloc(&ds, 8 * blocks)); CHECK(cudaMalloc(&de, 8 * blocks));
    CHECK(cudaMalloc(&dsm, 4 * blocks));
    CHECK(cudaFuncSetAttribute(block, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    std::vector<long long> s(blocks), e(blocks); std::vector<unsigned> id(blocks);
    printf("SMs %d, %d blocks, %d B shared each\n", sms, blocks, smem);
    for (int threads = 32; threads <= 1024; threads *= threads == 32 ? 8 : 4)
        for (int rep = 0; rep < 3; rep++) {
            block<<<blocks, threads, smem>>>(ds, de, dsm);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(s.data(), ds, 8 * blocks, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(e.data(), de, 8 * blocks, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(id.data(), dsm, 4 * blocks, cudaMemcpyDeviceToHost));
            std::vector<long long> gaps, body, period;
            for (int q = 0; q < sms; q++) {
                std::vector<std::pair<long long, long long>> b;
                for (int k = 0; k < blocks; k++)
                    if ((int)id[k] == q)
                        b.push_back({s[k], e[k]});
                std::sort(b.begin(), b.end());
                for (size_t k = 0; k < b.size(); k++) {
                    body.push_back(b[k].second - b[k].first);
                    if (k + 1 < b.size()) {
                        gaps.push_back(b[k + 1].first - b[k].second);
                        period.push_back(b[k + 1].first - b[k].first);
                    }
                }
            }
            std::vector<long long> g = gaps;
            std::sort(g.begin(), g.end());
            printf("threads %4d run %d: body median %lld; gap min %lld median %lld p90 %lld max %lld (%zu gaps); period median %lld\n",
                   threads, rep, median(body), g.front(), median(gaps), g[g.size() * 9 / 10], g.back(),
                   g.size(), median(period));
        }
    return 0;
}
