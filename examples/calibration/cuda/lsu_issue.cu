// lsu_issue.cu - issue interval of independent loads on the H100 (raw
// output: lsu_issue_h200.txt; docs/timing-model.md, Load issue rate).  Each
// warp of one block of W warps (W = 1, 2, 4, 8, 16) reads the clock, issues
// K independent loads (shared u32, L1-hit global u32, shared u8; K = 8, 16,
// 32, 48) and reads the clock again before it uses any of them: a clock
// read does not wait for loads in flight, so t(K) is the loads' issue time.
// The slope of t over K is one warp's interval between loads; best of 8
// repetitions, slowest warp.
//   nvcc -O2 -arch=sm_90 lsu_issue.cu -o lsu_issue
#include <cstdio>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

template <int K, int MODE>
__global__ void issue(unsigned *out, long long *cyc, const unsigned *g, int reps)
{
    __shared__ __align__(16) unsigned s[32 * 64];
    for (int i = threadIdx.x; i < 32 * 64; i += blockDim.x) s[i] = i;
    unsigned l = threadIdx.x & 31;
    unsigned sbase = (unsigned)__cvta_generic_to_shared(s);
    unsigned acc = 0;
    // warm L1
    for (int j = 0; j < K; j++) acc += g[l + 32 * (j & 63)];
    __syncthreads();
    long long best = 1LL << 60;
    for (int r = 0; r < reps; r++) {
        unsigned v[K];
        long long t0 = clock64();
#pragma unroll
        for (int j = 0; j < K; j++) {
            if (MODE == 0)
                asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v[j]) : "r"(sbase + 4 * (l + 32 * (j & 63))) : "memory");
            else if (MODE == 1)
                asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v[j]) : "l"(g + l + 32 * (j & 63)) : "memory");
            else
                asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v[j]) : "r"(sbase + (l + 32 * (j & 63))) : "memory");
        }
        long long t1 = clock64();
        __syncwarp();
#pragma unroll
        for (int j = 0; j < K; j++) acc ^= v[j] + j;
        long long d = t1 - t0;
        best = d < best ? d : best;
        __syncthreads();
    }
    if (l == 0) cyc[threadIdx.x / 32] = best;
    out[threadIdx.x] = acc;
}

template <int K, int MODE>
static int one(unsigned *out, long long *dc, const unsigned *g, int warps, double *res)
{
    long long c[32];
    issue<K, MODE><<<1, 32 * warps>>>(out, dc, g, 8);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c, dc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    long long m = 0;
    for (int w = 0; w < warps; w++) m = c[w] > m ? c[w] : m;
    *res = (double)m;
    return 0;
}

template <int MODE>
static int series(unsigned *out, long long *dc, const unsigned *g)
{
    static const char *name[] = {"lds.u32", "ldg.u32 L1 hit", "lds.u8"};
    int ws[] = {1, 2, 4, 8, 16};
    for (int wi = 0; wi < 5; wi++) {
        double t8, t16, t32, t48;
        if (one<8, MODE>(out, dc, g, ws[wi], &t8) || one<16, MODE>(out, dc, g, ws[wi], &t16) ||
            one<32, MODE>(out, dc, g, ws[wi], &t32) || one<48, MODE>(out, dc, g, ws[wi], &t48))
            return 1;
        printf("%-15s warps=%2d  t(K=8)=%.0f t(16)=%.0f t(32)=%.0f t(48)=%.0f  slope 8->16 %.3f 16->32 %.3f 32->48 %.3f per load per warp\n",
               name[MODE], ws[wi], t8, t16, t32, t48, (t16 - t8) / 8, (t32 - t16) / 16, (t48 - t32) / 16);
    }
    return 0;
}

int main()
{
    unsigned *out, *g; long long *dc;
    CHECK(cudaMalloc(&out, 4 * 1024));
    CHECK(cudaMalloc(&dc, 8 * 32));
    CHECK(cudaMalloc(&g, 4 * 32 * 64));
    CHECK(cudaMemset(g, 1, 4 * 32 * 64));
    if (series<0>(out, dc, g) || series<1>(out, dc, g) || series<2>(out, dc, g)) return 1;
    CHECK(cudaDeviceSynchronize());
    return 0;
}
