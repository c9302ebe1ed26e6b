// barrier.cu - cost of __syncthreads() on the GPU as a function of the
// number of warps in the block (the H100 parameters of sgemu's work-group
// barrier model, docs/timing-model.md "Barriers").  One block on one SM.
//
// chain:   a loop of 128 dependent __syncthreads() per iteration, thread 0
//          times it with clock64; cycles per barrier = (t(2n) - t(n)) /
//          (128 n), which cancels the start-up cost.  Every warp arrives as
//          soon as the previous barrier let it go, so this is the
//          arrival + release round trip at each block size.
// stagger: the warps arrive one after another, `gap` cycles apart (each
//          spins on clock64 until its turn), then each warp reads clock64
//          right after the barrier.  With gaps far above the barrier cost no
//          two arrivals meet, so (a warp's release clock) - (the last
//          warp's arrival clock) is the release latency seen by that warp;
//          min and max over the warps show whether the release reaches the
//          warps at once or one after another.  The clock reads themselves
//          cost a few cycles: the one-warp row is the reference.
// Build: nvcc -O2 -arch=sm_90 barrier.cu -o barrier   (one BAR.SYNC per
// __syncthreads in the SASS: cuobjdump -sass barrier | grep -c BAR.SYNC)
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP128(x) REP16(x) REP16(x) REP16(x) REP16(x) REP16(x) REP16(x) REP16(x) REP16(x)

__global__ void chain(long long *cyc, int n)
{
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        REP128(__syncthreads();)
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cyc = t1 - t0;
}

__global__ void stagger(long long *arr, long long *rel, int gap, int reps)
{
    __shared__ int flag[32];
    unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
    if (lane == 0)
        flag[warp] = 0;
    for (int r = 0; r < reps; r++) {
        __syncthreads();
        long long t = clock64();
        long long a;
        do {
            a = clock64();
        } while (a < t + (long long)warp * gap);
        __syncthreads();
        // __syncthreads is BAR.SYNC.DEFER_BLOCKING: a warp goes on issuing
        // past it until an instruction that must wait (a shared-memory
        // access does), so a clock read right after it is not held.  The
        // branch on a shared load holds the clock read until the release.
        if (flag[warp] != 0)
            __trap();
        long long b = clock64();
        if (lane == 0) {
            arr[r * nw + warp] = a;
            rel[r * nw + warp] = b;
        }
    }
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        printf("CUDA error in %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

static double chain_per_barrier(long long *dcyc, int threads, int n)
{
    long long c1, c2;
    chain<<<1, threads>>>(dcyc, n);                  // warm-up
    chain<<<1, threads>>>(dcyc, n);
    check(cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost), "chain n");
    chain<<<1, threads>>>(dcyc, 2 * n);
    check(cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost), "chain 2n");
    return (double)(c2 - c1) / (128.0 * n);
}

int main()
{
    long long *dcyc, *darr, *drel;
    const int reps = 64, n = 256;
    check(cudaMalloc(&dcyc, sizeof(long long)), "malloc");
    check(cudaMalloc(&darr, reps * 32 * sizeof(long long)), "malloc");
    check(cudaMalloc(&drel, reps * 32 * sizeof(long long)), "malloc");
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    printf("device: %s, %d SMs\n", p.name, p.multiProcessorCount);
    const int warps[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 20, 24, 28, 32};
    printf("chain: warps threads cycles_per_barrier (two runs)\n");
    for (int w : warps) {
        double a = chain_per_barrier(dcyc, 32 * w, n);
        double b = chain_per_barrier(dcyc, 32 * w, n);
        printf("chain %2d %4d %8.2f %8.2f\n", w, 32 * w, a, b);
    }
    for (int gap : {400, 0}) {
    printf("stagger (gap %d): warps, over %d reps the median of: release - last arrival "
           "(min, max over warps), release spread (max - min release)\n", gap, reps);
    for (int w : warps) {
        std::vector<long long> arr(reps * w), rel(reps * w);
        stagger<<<1, 32 * w>>>(darr, drel, gap, reps);   // warm-up
        stagger<<<1, 32 * w>>>(darr, drel, gap, reps);
        check(cudaMemcpy(arr.data(), darr, arr.size() * sizeof(long long), cudaMemcpyDeviceToHost), "arr");
        check(cudaMemcpy(rel.data(), drel, rel.size() * sizeof(long long), cudaMemcpyDeviceToHost), "rel");
        std::vector<long long> lo, hi, spread, aspread;
        for (int r = 1; r < reps; r++) {               // rep 0 pays the instruction-cache misses
            long long last = 0, first = 1LL << 62, rmin = 1LL << 62, rmax = 0;
            for (int i = 0; i < w; i++) {
                last = std::max(last, arr[r * w + i]);
                first = std::min(first, arr[r * w + i]);
                rmin = std::min(rmin, rel[r * w + i]);
                rmax = std::max(rmax, rel[r * w + i]);
            }
            lo.push_back(rmin - last);
            hi.push_back(rmax - last);
            spread.push_back(rmax - rmin);
            aspread.push_back(last - first);
        }
        auto med = [](std::vector<long long> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        printf("stagger %3d %2d %6lld %6lld %6lld %6lld\n", gap, w, med(lo), med(hi), med(spread),
               med(aspread));
    }
    }
    check(cudaGetLastError(), "launch");
    return 0;
}
