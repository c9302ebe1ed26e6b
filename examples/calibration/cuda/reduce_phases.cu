// reduce_phases.cu - where local_reduce's time goes at eight 256-thread
// blocks per SM.  The kernel is kernels.cu's local_reduce (the shared-memory
// tree of examples/bench/local_reduce.cl, 9 barriers); lane 0 of every warp
// stores %clock64 at its first instruction, before and after each
// __syncthreads and after its last store, with %smid and %warpid (each
// stamp stored as it is read: 16 registers, so eight blocks fit an SM; the
// stores make the kernel slower than kernels.cu's, so the times below are
// the instrumented kernel's).  Warm launches (back to back, inputs in L2)
// at 1056 blocks (one wave) and 4224 (four waves); 5 launches each.  Per
// SM the blocks are ranked by start (their first warp's first clock);
// printed, median over SMs and launches, times from the SM's first start:
//   start    the block's first warp's start
//   wstart   its last warp's start (warps of a block start over this span)
//   arr k    barrier k: the block's last warp's clock before it
//   rel k    its first warp's clock after it
//   end      the block's last warp's end
// and per rank the mean over barriers of rel - arr, the SM span (last end -
// first start), and each warp's clock after a barrier less the block's
// first, by sub-partition (%warpid mod 4).
// Build: nvcc -O2 -arch=sm_90 reduce_phases.cu -o reduce_phases
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <climits>

#define NB 9      // barriers of a 256-thread tree: 1 + log2(256)
#define NT (2 * NB + 2)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Stamp { long long t[NT]; unsigned sm, blk; };   // blk: the warp slot (%warpid)

__device__ __forceinline__ long long clk()
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    return c;
}

// Lane 0 stores each stamp as it reads it (no array of clocks in
// registers: eight blocks of 256 must fit an SM, as in kernels.cu).
#define STAMP(i) do { long long c_ = clk(); if ((lid & 31) == 0) s->t[i] = c_; } while (0)

__global__ void __launch_bounds__(256, 8) local_reduce(const int *in, int *out, Stamp *st)
{
    extern __shared__ int scratch[];
    unsigned lid = threadIdx.x;
    Stamp *s = &st[blockIdx.x * (blockDim.x / 32) + lid / 32];
    STAMP(0);
    scratch[lid] = in[blockIdx.x * blockDim.x + lid];
    STAMP(1);
    __syncthreads();
    STAMP(2);
#pragma unroll
    for (unsigned k = 1, h = 128; h > 0; h >>= 1, k++) {
        if (lid < h)
            scratch[lid] = (int)((unsigned)scratch[lid] + (unsigned)scratch[lid + h]);
        STAMP(1 + 2 * k);
        __syncthreads();
        STAMP(2 + 2 * k);
    }
    if (lid == 0)
        out[blockIdx.x] = scratch[0];
    STAMP(NT - 1);
    if ((lid & 31) == 0) {
        unsigned sm, wid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
        s->sm = sm;
        s->blk = wid;
    }
}

static double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Blk { long long start, wstart, end, arr[NB], rel[NB]; };

static void run(unsigned grid, int ranks_shown)
{
    const unsigned T = 256, W = T / 32;
    size_t warps = (size_t)grid * W;
    int *in, *out;
    Stamp *dst;
    CK(cudaMalloc(&in, grid * T * sizeof(int)));
    CK(cudaMalloc(&out, grid * sizeof(int)));
    CK(cudaMalloc(&dst, warps * sizeof(Stamp)));
    CK(cudaMemset(in, 1, grid * T * sizeof(int)));
    std::vector<Stamp> h(warps);
    const int R = 5;
    // per rank: start, wstart, arr[NB], rel[NB], end, service; and span
    std::vector<std::vector<double>> col(64 * (2 * NB + 4));
    std::vector<double> span, lag[4];
    for (int i = 0; i < 3; i++)
        local_reduce<<<grid, T, T * sizeof(int)>>>(in, out, dst);
    for (int r = 0; r < R; r++) {
        local_reduce<<<grid, T, T * sizeof(int)>>>(in, out, dst);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
        std::vector<std::vector<Blk>> sm(1024);
        for (unsigned bk = 0; bk < grid; bk++) {
            Blk b;
            b.start = LLONG_MAX; b.wstart = LLONG_MIN; b.end = LLONG_MIN;
            for (int k = 0; k < NB; k++) { b.arr[k] = LLONG_MIN; b.rel[k] = LLONG_MAX; }
            unsigned s = h[bk * W].sm;
            for (unsigned w = 0; w < W; w++) {
                const Stamp &x = h[bk * W + w];
                b.start = std::min(b.start, x.t[0]);
                b.wstart = std::max(b.wstart, x.t[0]);
                b.end = std::max(b.end, x.t[NT - 1]);
                for (int k = 0; k < NB; k++) {
                    b.arr[k] = std::max(b.arr[k], x.t[1 + 2 * k]);
                    b.rel[k] = std::min(b.rel[k], x.t[2 + 2 * k]);
                }
            }
            sm[s].push_back(b);
            // each warp's resume after each barrier, from the block's first,
            // by the warp slot's sub-partition (%warpid mod 4)
            for (unsigned w = 0; w < W; w++)
                for (int k = 0; k < NB; k++)
                    lag[h[bk * W + w].blk % 4].push_back((double)(h[bk * W + w].t[2 + 2 * k] - b.rel[k]));
        }
        for (auto &v : sm) {
            if (v.empty())
                continue;
            std::sort(v.begin(), v.end(), [](const Blk &a, const Blk &b) { return a.start < b.start; });
            long long z = v[0].start, e = LLONG_MIN;
            for (size_t i = 0; i < v.size() && i < 64; i++) {
                const Blk &b = v[i];
                size_t o = i * (2 * NB + 4);
                col[o + 0].push_back(b.start - z);
                col[o + 1].push_back(b.wstart - z);
                for (int k = 0; k < NB; k++) {
                    col[o + 2 + k].push_back(b.arr[k] - z);
                    col[o + 2 + NB + k].push_back(b.rel[k] - z);
                }
                col[o + 2 + 2 * NB].push_back(b.end - z);
                double sv = 0;
                for (int k = 0; k < NB; k++)
                    sv += b.rel[k] - b.arr[k];
                col[o + 3 + 2 * NB].push_back(sv / NB);
                e = std::max(e, b.end);
            }
            for (const Blk &b : v)
                e = std::max(e, b.end);
            span.push_back((double)(e - z));
        }
    }
    printf("## grid %u blocks of %u, warm, %d launches; SM span median %.0f, max %.0f\n", grid, T, R,
           median(span), *std::max_element(span.begin(), span.end()));
    printf("rank  start wstart");
    for (int k = 0; k < NB; k++)
        printf("  arr%d  rel%d", k, k);
    printf("    end  service\n");
    for (int i = 0; i < ranks_shown; i++) {
        size_t o = i * (2 * NB + 4);
        if (col[o].empty())
            break;
        printf("%4d %6.0f %6.0f", i, median(col[o]), median(col[o + 1]));
        for (int k = 0; k < NB; k++)
            printf(" %5.0f %5.0f", median(col[o + 2 + k]), median(col[o + 2 + NB + k]));
        printf(" %6.0f %8.1f\n", median(col[o + 2 + 2 * NB]), median(col[o + 3 + 2 * NB]));
    }
    printf("resume after a barrier, from the block's first warp, by %%warpid mod 4 (median, max):");
    for (int q = 0; q < 4; q++)
        printf("  %d: %.0f, %.0f", q, median(lag[q]), lag[q].empty() ? 0.0 : *std::max_element(lag[q].begin(), lag[q].end()));
    printf("\n");
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(dst));
}

int main()
{
    run(1056, 8);
    run(4224, 32);
    return 0;
}
