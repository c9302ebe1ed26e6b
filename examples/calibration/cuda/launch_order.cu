// launch_order.cu - the order in which an SM starts the warps of its first
// fill (docs/timing-model.md, Launch).  Each warp's lane 0 reads %clock64 as
// its first instruction, then %smid and %warpid (the warp's slot on the SM;
// slot mod 4 is its SMSP), stores them and waits until 40000 cycles after
// its start so that every block of the fill stays resident: mode "spin"
// reads the clock in a loop (as kernels_probe.cu probe 2 does), mode
// "sleep" sleeps 2 us (__nanosleep) between clock reads, so that the
// resident warps take almost no issue slots.  132 x k blocks of T threads (the fill of
// kernels_probe.cu probe 2).  For SMs 0, 1 and 64, every warp sorted by
// start: offset from the SM's first warp, block (rank of the block on that
// SM by its first warp), warp in block, %warpid.  Then, over all SMs, the
// median gap between consecutive warp starts on an SM and between a warp and
// the next warp of the same block, and the share of consecutive starts that
// stay in one block; the median over SMs of the last warp's start and of
// the r-th block's start (its first warp).  Raw output: launch_order_h200.txt.
//   nvcc -O2 -arch=sm_90 launch_order.cu -o launch_order && ./launch_order
#include <cstdio>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill(long long *st, unsigned *sm, unsigned *wid, int sleep)
{
    long long c0;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0) :: "memory");
    unsigned id, w;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    unsigned g = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if ((threadIdx.x & 31) == 0) {
        st[g] = c0;
        sm[g] = id;
        wid[g] = w;
    }
    long long c;
    do {
        if (sleep)
            __nanosleep(2000);
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    } while (c - c0 < 40000);
}

static double med(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int main()
{
    const int T[5] = { 32, 64, 128, 256, 1024 }, K[5] = { 32, 32, 16, 8, 2 };
    for (int mode = 0; mode < 2; mode++)
    for (int v = 0; v < 5; v++) {
        unsigned wpb = T[v] / 32, blocks = 132 * K[v], warps = blocks * wpb;
        long long *st; unsigned *sm, *wid;
        CK(cudaMalloc(&st, warps * 8)); CK(cudaMalloc(&sm, warps * 4)); CK(cudaMalloc(&wid, warps * 4));
        for (int run = 0; run < 2; run++) {
            fill<<<blocks, T[v]>>>(st, sm, wid, mode);
            CK(cudaDeviceSynchronize());
            std::vector<long long> hs(warps); std::vector<unsigned> hm(warps), hw(warps);
            CK(cudaMemcpy(hs.data(), st, warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hm.data(), sm, warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hw.data(), wid, warps * 4, cudaMemcpyDeviceToHost));
            std::vector<double> gap_sm, gap_blk, last; unsigned same = 0, pairs = 0;
            std::vector<std::vector<double>> rank(64);
            for (unsigned q = 0; q < 132; q++) {
                std::vector<unsigned> ws;      // warps on SM q
                for (unsigned g = 0; g < warps; g++)
                    if (hm[g] == q)
                        ws.push_back(g);
                if (ws.empty())
                    continue;
                std::sort(ws.begin(), ws.end(), [&](unsigned a, unsigned b) {
                    return hs[a] != hs[b] ? hs[a] < hs[b] : a < b; });
                std::vector<unsigned> bl;     // blocks by first start
                for (unsigned g : ws)
                    if (std::find(bl.begin(), bl.end(), g / wpb) == bl.end())
                        bl.push_back(g / wpb);
                last.push_back(hs[ws.back()] - hs[ws[0]]);
                for (size_t r = 0; r < bl.size() && r < 64; r++) {
                    long long lo = -1;
                    for (unsigned w = 0; w < wpb; w++)
                        if (lo < 0 || hs[bl[r] * wpb + w] < lo)
                            lo = hs[bl[r] * wpb + w];
                    rank[r].push_back(lo - hs[ws[0]]);
                }
                for (size_t i = 1; i < ws.size(); i++) {
                    gap_sm.push_back(hs[ws[i]] - hs[ws[i - 1]]);
                    pairs++;
                    same += ws[i] / wpb == ws[i - 1] / wpb;
                }
                for (unsigned g = 0; g < warps; g++)
                    if (hm[g] == q && g % wpb)
                        gap_blk.push_back(hs[g] - hs[g - 1]);
                if (run == 1 && (q == 0 || q == 1 || q == 64)) {
                    printf("%s T=%4d SM %3u (offset/block/warp/warpid):", mode ? "sleep" : "spin", T[v], q);
                    for (unsigned g : ws)
                        printf(" %lld/%zu/%u/%u", hs[g] - hs[ws[0]],
                               std::find(bl.begin(), bl.end(), g / wpb) - bl.begin(), g % wpb, hw[g]);
                    printf("\n");
                }
            }
            printf("%s T=%4d run %d: median gap between consecutive warp starts on an SM %.0f; "
                   "warp w-1 -> w of one block %.0f; consecutive starts in one block %.2f\n",
                   mode ? "sleep" : "spin", T[v], run, med(gap_sm), med(gap_blk), pairs ? (double)same / pairs : 0.0);
            printf("  last warp start %.0f; block r start (median over SMs):", med(last));
            for (size_t r = 0; r < 64 && !rank[r].empty(); r++)
                printf(" %.0f", med(rank[r]));
            printf("\n");
        }
        cudaFree(st); cudaFree(sm); cudaFree(wid);
    }
    return 0;
}
