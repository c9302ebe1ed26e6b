// kernels_probe.cu - targeted measurements behind the whole-kernel errors of
// kernels.cu (docs/timing-model.md, "Whole kernels on a real H200").  Raw
// output: kernels_probe_h200.txt.  Three probes, all timed with clock64 on
// the SM that runs the warp:
//  1. start-up: 132 blocks of 256 (one per SM) run vector_add's body four
//     times in a loop (#pragma unroll 1) on L2-resident data (the kernel ran
//     once before); lane 0 of each warp reads the clock at its first
//     instruction, before each iteration's loads and after their sum exists
//     (the clock read is predicated on the sum, so it waits for the loads).
//  2. block launch at kernel start: 132 x k blocks of T threads; each warp
//     stamps its first instruction (clock64, %smid) and then spins 40000
//     cycles, so that every block of the first fill is resident at once.  Per
//     SM the blocks are sorted by start: the offset of the r-th block from the
//     SM's first, median over the SMs; also which SM the first blocks go to.
//  3. L2 hit latency: lane 0 chases a random cyclic permutation of 128-B
//     lines over 16 MB (in L2, far beyond L1); the second pass is timed load
//     by load (clock before the load, clock predicated on its value after).
//     One block, then 132 blocks (one per SM) chasing at once.
//  4. barriers with several blocks per SM: 132 x k blocks of T threads run
//     __syncthreads() chains of n and 2n barriers; cycles per barrier =
//     (t(2n) - t(n)) / n per block (thread 0's clock), median over blocks.
//  5. gemm_us (the kernels.cu twin, N = 512, K = 64) with B replicated R
//     times, row-block y reading copy y mod R: R = 1 is the twin, where all
//     128 row-blocks read the same B line at about the same time; each warp's
//     time per inner iteration (its span / 64), median over warps.
//  6. the same gemm_us twin (B not replicated) varied one thing at a time:
//     the whole grid, 128 blocks (about one per SM), one block; B read with
//     ld.global.cg (L2 only) or ld.global.nc (the read-only path); the inner
//     loop unrolled by 2 (two B loads in flight).  Per inner iteration as in 5.
//   nvcc -O2 -arch=sm_90 kernels_probe.cu -o kernels_probe && ./kernels_probe
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

// probe 1: per warp: [0] first clock, then per iteration r: [1+2r] before, [2+2r] after
__global__ void startup(const float *a, const float *b, float *c, unsigned n, long long *st)
{
    long long c0 = clk();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    long long t[8];
#pragma unroll 1
    for (int r = 0; r < 4; r++) {
        long long tb = clk();
        float s = a[i + r * n] + b[i + r * n];
        long long te = 0;
        if (__float_as_uint(s) != 0xdeadbeefu)
            te = clk();
        c[i + r * n] = s;
        if (r == 0) { t[0] = tb; t[1] = te; }
        else if (r == 1) { t[2] = tb; t[3] = te; }
        else if (r == 2) { t[4] = tb; t[5] = te; }
        else { t[6] = tb; t[7] = te; }
    }
    long long ce = clk();
    if ((threadIdx.x & 31) == 0) {
        long long *p = st + (size_t)(i / 32) * 10;
        p[0] = c0;
        for (int k = 0; k < 8; k++)
            p[1 + k] = t[k];
        p[9] = ce;
    }
}

// probe 2
__global__ void resident(long long *st, unsigned *sm)
{
    long long c0 = clk();
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    unsigned w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if ((threadIdx.x & 31) == 0) {
        st[w] = c0;
        sm[w] = id;
    }
    while (clk() - c0 < 40000) {
    }
}

// probe 3
__global__ void chase(const unsigned *p, unsigned steps, unsigned *lat)
{
    if (threadIdx.x != 0)
        return;
    unsigned j = (blockIdx.x * 7919u) % (16u << 20 >> 7) * 32;
    for (unsigned s = 0; s < steps; s++)              // first pass: into L2
        j = p[j];
    unsigned acc = 0;
    for (unsigned s = 0; s < 1024; s++) {
        long long t0 = clk();
        j = p[j];
        long long t1 = 0;
        if (j != 0xffffffffu)
            t1 = clk();
        lat[blockIdx.x * 1024 + s] = (unsigned)(t1 - t0);
        acc += j;
    }
    if (acc == 0x12345678u)
        lat[0] = acc;
}

// probe 4
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

// probe 5: the kernels.cu gemm_us twin, B copy (row-block mod R)
__global__ void gemm_rep(const unsigned short *a, const unsigned short *b, unsigned *c, unsigned k,
                         unsigned n, unsigned rep, long long *span)
{
    long long t0 = clk();
    unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned col0 = gx - lane;
    unsigned row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    b += (size_t)(blockIdx.y % rep) * k * n;
    unsigned c0 = 0, c1 = 0, c2 = 0, c3 = 0;
#pragma unroll 1
    for (unsigned k0 = 0; k0 < k; k0 += 32) {
        const unsigned short *ap = a + row0 * k + k0;
        unsigned a0 = ap[lane], a1 = ap[k + lane], a2 = ap[2 * k + lane], a3 = ap[3 * k + lane];
        const unsigned short *bp = b + k0 * n + col0;
#pragma unroll 1
        for (unsigned kk = 0; kk < 32; kk++) {
            unsigned bv = bp[lane];
            c0 += __shfl_sync(0xffffffffu, a0, kk) * bv;
            c1 += __shfl_sync(0xffffffffu, a1, kk) * bv;
            c2 += __shfl_sync(0xffffffffu, a2, kk) * bv;
            c3 += __shfl_sync(0xffffffffu, a3, kk) * bv;
            bp += n;
        }
    }
    unsigned o = row0 * n + gx;
    c[o] = c0;
    c[o + n] = c1;
    c[o + 2 * n] = c2;
    c[o + 3 * n] = c3;
    long long t1 = clk();
    if (lane == 0)
        span[(blockIdx.y * gridDim.x + blockIdx.x) * 2 + threadIdx.x / 32] = t1 - t0;
}

static double med(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// probe 6: MODE 0 plain, 1 B via __ldcg, 2 B via __ldg, 3 inner loop unrolled by 2
template <int MODE>
__global__ void gemm_v(const unsigned short *a, const unsigned short *b, unsigned *c, unsigned k,
                       unsigned n, long long *span)
{
    long long t0 = clk();
    unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned col0 = gx - lane;
    unsigned row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    unsigned c0 = 0, c1 = 0, c2 = 0, c3 = 0;
#pragma unroll 1
    for (unsigned k0 = 0; k0 < k; k0 += 32) {
        const unsigned short *ap = a + row0 * k + k0;
        unsigned a0 = ap[lane], a1 = ap[k + lane], a2 = ap[2 * k + lane], a3 = ap[3 * k + lane];
        const unsigned short *bp = b + k0 * n + col0;
#pragma unroll (MODE == 3 ? 2 : 1)
        for (unsigned kk = 0; kk < 32; kk++) {
            unsigned bv = MODE == 1 ? __ldcg(bp + lane) : MODE == 2 ? __ldg(bp + lane) : bp[lane];
            c0 += __shfl_sync(0xffffffffu, a0, kk) * bv;
            c1 += __shfl_sync(0xffffffffu, a1, kk) * bv;
            c2 += __shfl_sync(0xffffffffu, a2, kk) * bv;
            c3 += __shfl_sync(0xffffffffu, a3, kk) * bv;
            bp += n;
        }
    }
    unsigned o = row0 * n + gx;
    c[o] = c0;
    c[o + n] = c1;
    c[o + 2 * n] = c2;
    c[o + 3 * n] = c3;
    long long t1 = clk();
    if (lane == 0)
        span[(blockIdx.y * gridDim.x + blockIdx.x) * 2 + threadIdx.x / 32] = t1 - t0;
}

template <int MODE>
static void gemm_case(const char *what, dim3 grid, const unsigned short *a, const unsigned short *b,
                      unsigned *c, long long *sp)
{
    unsigned warps = grid.x * grid.y * 2;
    std::vector<double> m;
    for (int run = 0; run < 5; run++) {
        gemm_v<MODE><<<grid, dim3(64, 1)>>>(a, b, c, 64, 512, sp);
        CK(cudaDeviceSynchronize());
        std::vector<long long> hs(warps);
        CK(cudaMemcpy(hs.data(), sp, warps * 8, cudaMemcpyDeviceToHost));
        std::vector<double> x(hs.begin(), hs.end());
        if (run > 0)
            m.push_back(med(x));
    }
    printf("gemm_us N=512 %-34s grid %ux%u: warp span median %.0f, per inner iteration %.1f cycles\n",
           what, grid.x, grid.y, med(m), med(m) / 64);
}


int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    // warm the clock up
    unsigned *junk;
    CK(cudaMalloc(&junk, 64u << 20));
    for (int i = 0; i < 100; i++)
        CK(cudaMemset(junk, i, 64u << 20));

    // ---- probe 1
    {
        const unsigned n = 132 * 256;
        float *a, *b, *c;
        long long *st;
        CK(cudaMalloc(&a, 4 * n * 4));
        CK(cudaMalloc(&b, 4 * n * 4));
        CK(cudaMalloc(&c, 4 * n * 4));
        CK(cudaMemset(a, 0, 4 * n * 4));
        CK(cudaMemset(b, 0, 4 * n * 4));
        CK(cudaMalloc(&st, n / 32 * 10 * 8));
        std::vector<long long> h(n / 32 * 10);
        for (int run = 0; run < 5; run++) {
            startup<<<132, 256>>>(a, b, c, n, st);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), st, h.size() * 8, cudaMemcpyDeviceToHost));
            std::vector<double> pre, it[4], gap[3], post;
            for (unsigned w = 0; w < n / 32; w++) {
                long long *p = &h[w * 10];
                pre.push_back(p[1] - p[0]);
                for (int r = 0; r < 4; r++)
                    it[r].push_back(p[2 + 2 * r] - p[1 + 2 * r]);
                for (int r = 0; r < 3; r++)
                    gap[r].push_back(p[3 + 2 * r] - p[2 + 2 * r]);
                post.push_back(p[9] - p[8]);
            }
            printf("startup run %d (medians over %u warps): first clock -> loop %.0f; load+add iteration 0 %.0f, 1 %.0f, 2 %.0f, 3 %.0f; "
                   "between iterations %.0f %.0f %.0f; last -> end %.0f\n",
                   run, n / 32, med(pre), med(it[0]), med(it[1]), med(it[2]), med(it[3]), med(gap[0]),
                   med(gap[1]), med(gap[2]), med(post));
        }
    }

    // ---- probe 2
    {
        const int T[5] = { 256, 128, 64, 1024, 32 }, K[5] = { 8, 16, 32, 2, 32 };
        for (int v = 0; v < 5; v++) {
            unsigned blocks = 132 * K[v], wpb = T[v] / 32, warps = blocks * wpb;
            long long *st;
            unsigned *sm;
            CK(cudaMalloc(&st, warps * 8));
            CK(cudaMalloc(&sm, warps * 4));
            for (int run = 0; run < 3; run++) {
                resident<<<blocks, T[v]>>>(st, sm);
                CK(cudaDeviceSynchronize());
                std::vector<long long> hs(warps);
                std::vector<unsigned> hm(warps);
                CK(cudaMemcpy(hs.data(), st, warps * 8, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(hm.data(), sm, warps * 4, cudaMemcpyDeviceToHost));
                std::vector<std::vector<long long>> per(256);
                std::vector<double> spread;
                for (unsigned bl = 0; bl < blocks; bl++) {
                    long long lo = hs[bl * wpb], hi = lo;
                    for (unsigned w = 1; w < wpb; w++) {
                        lo = std::min(lo, hs[bl * wpb + w]);
                        hi = std::max(hi, hs[bl * wpb + w]);
                    }
                    spread.push_back(hi - lo);
                    per[hm[bl * wpb]].push_back(lo);
                }
                std::vector<std::vector<double>> rank(64);
                size_t most = 0;
                for (auto &s : per) {
                    if (s.empty())
                        continue;
                    std::sort(s.begin(), s.end());
                    most = std::max(most, s.size());
                    for (size_t r = 0; r < s.size() && r < 64; r++)
                        rank[r].push_back(s[r] - s[0]);
                }
                printf("resident T=%4d blocks=%5u run %d: blocks per SM up to %zu; warp start spread in a block median %.0f; "
                       "block r start - first, median over SMs:", T[v], blocks, run, most, med(spread));
                for (size_t r = 0; r < most && r < 64; r++)
                    printf(" %.0f", med(rank[r]));
                printf("\n");
                if (run == 0 && v == 0) {
                    printf("  SM of blocks 0..39:");
                    for (unsigned bl = 0; bl < 40; bl++)
                        printf(" %u", hm[bl * wpb]);
                    printf("\n  SM of blocks 132..171:");
                    for (unsigned bl = 132; bl < 172; bl++)
                        printf(" %u", hm[bl * wpb]);
                    printf("\n");
                }
            }
            CK(cudaFree(st));
            CK(cudaFree(sm));
        }
    }

    // ---- probe 3
    {
        const unsigned lines = (16u << 20) >> 7;
        std::vector<unsigned> perm(lines), h((size_t)lines * 32, 0);
        for (unsigned i = 0; i < lines; i++)
            perm[i] = i;
        srand(12345);
        for (unsigned i = lines - 1; i > 0; i--) {
            unsigned j = (unsigned)(((unsigned long long)rand() * 7 + rand()) % (i + 1));
            std::swap(perm[i], perm[j]);
        }
        for (unsigned i = 0; i < lines; i++)
            h[(size_t)perm[i] * 32] = perm[(i + 1) % lines] * 32;
        unsigned *p, *lat;
        CK(cudaMalloc(&p, h.size() * 4));
        CK(cudaMemcpy(p, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMalloc(&lat, 132 * 1024 * 4));
        for (int g = 0; g < 2; g++) {
            unsigned blocks = g ? 132 : 1;
            for (int run = 0; run < 2; run++) {
                chase<<<blocks, 32>>>(p, 4096, lat);
                CK(cudaDeviceSynchronize());
                std::vector<unsigned> hl(blocks * 1024);
                CK(cudaMemcpy(hl.data(), lat, hl.size() * 4, cudaMemcpyDeviceToHost));
                std::sort(hl.begin(), hl.end());
                size_t m = hl.size();
                double sum = 0;
                for (unsigned x : hl)
                    sum += x;
                printf("chase %3u block(s) run %d: load-to-use clocks p1 %u p10 %u p25 %u p50 %u p75 %u p90 %u p99 %u mean %.1f\n",
                       blocks, run, hl[m / 100], hl[m / 10], hl[m / 4], hl[m / 2], hl[3 * m / 4], hl[9 * m / 10],
                       hl[99 * m / 100], sum / m);
                if (run == 0) {
                    unsigned bins[16] = { 0 };
                    for (unsigned x : hl)
                        bins[std::min(15u, x / 50)]++;
                    printf("  histogram, 50-clock bins from 0:");
                    for (int k = 0; k < 16; k++)
                        printf(" %u", bins[k]);
                    printf("\n");
                }
            }
        }
    }
    // ---- probe 4
    {
        const int T[6] = { 256, 256, 256, 256, 64, 64 }, K[6] = { 1, 2, 4, 8, 1, 32 };
        long long *out;
        CK(cudaMalloc(&out, 132 * 32 * 8));
        for (int v = 0; v < 6; v++) {
            unsigned blocks = 132 * K[v];
            std::vector<double> per[2];
            for (int run = 0; run < 3; run++)
                for (int h = 0; h < 2; h++) {
                    bar_chain<<<blocks, T[v]>>>(h ? 1024 : 512, out);
                    CK(cudaDeviceSynchronize());
                    std::vector<long long> ho(blocks);
                    CK(cudaMemcpy(ho.data(), out, blocks * 8, cudaMemcpyDeviceToHost));
                    std::vector<double> x(ho.begin(), ho.end());
                    per[h].push_back(med(x));
                }
            printf("barrier T=%4d, %2d blocks/SM: cycles per barrier per block (t(1024) - t(512)) / 512 = %.2f (median block spans %.0f, %.0f)\n",
                   T[v], K[v], (med(per[1]) - med(per[0])) / 512, med(per[0]), med(per[1]));
        }
        CK(cudaFree(out));
    }

    // ---- probe 5
    {
        const unsigned GK = 64, N = 512, R = 128;
        unsigned short *a, *b;
        unsigned *c;
        long long *sp;
        CK(cudaMalloc(&a, N * GK * 2));
        CK(cudaMalloc(&b, (size_t)R * GK * N * 2));
        CK(cudaMalloc(&c, N * N * 4));
        CK(cudaMemset(a, 1, N * GK * 2));
        CK(cudaMemset(b, 1, (size_t)R * GK * N * 2));
        unsigned warps = (N / 64) * (N / 4) * 2;
        CK(cudaMalloc(&sp, warps * 8));
        const unsigned reps[4] = { 1, 8, 32, 128 };
        for (int v = 0; v < 4; v++) {
            std::vector<double> m;
            for (int run = 0; run < 5; run++) {
                gemm_rep<<<dim3(N / 64, N / 4), dim3(64, 1)>>>(a, b, c, GK, N, reps[v], sp);
                CK(cudaDeviceSynchronize());
                std::vector<long long> hs(warps);
                CK(cudaMemcpy(hs.data(), sp, warps * 8, cudaMemcpyDeviceToHost));
                std::vector<double> x(hs.begin(), hs.end());
                if (run > 0)
                    m.push_back(med(x));
            }
            printf("gemm_us N=512, B copies %3u (warm): warp span median %.0f, per inner iteration %.1f cycles\n",
                   reps[v], med(m), med(m) / 64);
        }
        // ---- probe 6
        gemm_case<0>("plain", dim3(8, 128), a, b, c, sp);
        gemm_case<0>("plain", dim3(8, 16), a, b, c, sp);
        gemm_case<0>("plain", dim3(1, 1), a, b, c, sp);
        gemm_case<1>("B with __ldcg (L2 only)", dim3(8, 128), a, b, c, sp);
        gemm_case<2>("B with __ldg (read-only path)", dim3(8, 128), a, b, c, sp);
        gemm_case<3>("inner loop unrolled by 2", dim3(8, 128), a, b, c, sp);
        gemm_case<3>("inner loop unrolled by 2", dim3(1, 1), a, b, c, sp);
    }
    CK(cudaGetLastError());
    return 0;
}
