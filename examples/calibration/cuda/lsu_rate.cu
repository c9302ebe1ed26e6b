// lsu_rate.cu - load/store-unit issue rate on the H100 (raw output:
// lsu_rate_h200.txt; docs/timing-model.md, Calibration): shared loads and
// L1-hit global loads of 1, 4, 8 and 16 bytes per lane, and __syncwarp.
// One block of W warps (W = 4, 8, 16, 32) runs n iterations of 8
// independent loads; lane l of load j reads bytes B x (l + 32 j) + off
// (shared: conflict-free; global: lines read once before, L1 hits), each
// result added into its own accumulator (one IADD per load, 8 independent
// chains).  off moves by a run-time step of 0, so that ptxas neither
// hoists the loads out of the loop nor merges two iterations' loads (the
// SASS: 8 LDS or LDG.E per iteration).  Cycles per warp load per SM =
// (t(2n) - t(n)) / (8 n x W), from the slowest warp's clock64.
// __syncwarp: one and four warps, n iterations of 8 and of 16
// bar.warp.sync (ptxas emits a NOP for each, with a full and with a
// run-time mask); the slope per barrier cancels the loop's own cost.
//   nvcc -O2 -arch=sm_90 lsu_rate.cu -o lsu_rate
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

template <int B> struct lanes_t;
template <> struct lanes_t<1> { typedef unsigned char t; };
template <> struct lanes_t<4> { typedef unsigned t; };
template <> struct lanes_t<8> { typedef uint2 t; };
template <> struct lanes_t<16> { typedef uint4 t; };

__device__ __forceinline__ unsigned lds(unsigned a, lanes_t<1>::t *) {
    unsigned short r; asm volatile("ld.shared.u8 %0, [%1];" : "=h"(r) : "r"(a) : "memory"); return r; }
__device__ __forceinline__ unsigned lds(unsigned a, lanes_t<4>::t *) {
    unsigned r; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r) : "r"(a) : "memory"); return r; }
__device__ __forceinline__ unsigned lds(unsigned a, lanes_t<8>::t *) {
    unsigned x, y; asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory"); return x + y; }
__device__ __forceinline__ unsigned lds(unsigned a, lanes_t<16>::t *) {
    unsigned x, y, z, w; asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
    return (x + y) ^ (z + w); }
__device__ __forceinline__ unsigned ldg(const char *a, lanes_t<1>::t *) {
    unsigned short r; asm volatile("ld.global.ca.u8 %0, [%1];" : "=h"(r) : "l"(a) : "memory"); return r; }
__device__ __forceinline__ unsigned ldg(const char *a, lanes_t<4>::t *) {
    unsigned r; asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); return r; }
__device__ __forceinline__ unsigned ldg(const char *a, lanes_t<8>::t *) {
    unsigned x, y; asm volatile("ld.global.ca.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(a) : "memory"); return x + y; }
__device__ __forceinline__ unsigned ldg(const char *a, lanes_t<16>::t *) {
    unsigned x, y, z, w; asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(a) : "memory");
    return (x + y) ^ (z + w); }

template <int B, bool SHARED>
__global__ void rate(unsigned *out, long long *cyc, int n, const char *g, unsigned step)
{
    __shared__ __align__(16) char s[2 * 16 * 256];
    for (int i = threadIdx.x; i < 2 * 16 * 256 / 4; i += blockDim.x)
        ((unsigned *)s)[i] = i;
    __syncthreads();
    unsigned l = threadIdx.x & 31, acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned sbase = (unsigned)__cvta_generic_to_shared(s);
    typename lanes_t<B>::t *tag = 0;
    /* warm the L1 with the lines the loop reads */
    if (!SHARED)
        for (int j = 0; j < 8; j++)
            acc[j] += ldg(g + B * (l + 32 * j), tag);
    __syncthreads();
    /* off moves by step (0 at run time) each iteration, so that ptxas can
     * neither hoist the loads nor merge those of two iterations */
    unsigned off = 0;
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[j] += SHARED ? lds(sbase + off + B * (l + 32 * j), tag) : ldg(g + off + B * (l + 32 * j), tag);
        off = (off + step) & 4095;
    }
    long long t1 = clock64();
    if (l == 0)
        cyc[threadIdx.x / 32] = t1 - t0;
    unsigned sum = 0;
    for (int j = 0; j < 8; j++)
        sum += acc[j];
    out[threadIdx.x] = sum;
}

template <bool RUNTIME_MASK, int K>
__global__ void syncwarp_chain(long long *cyc, int n, unsigned mask)
{
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int j = 0; j < K; j++)
            if (RUNTIME_MASK)
                asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");
            else
                asm volatile("bar.warp.sync -1;" ::: "memory");
    }
    long long t1 = clock64();
    if ((threadIdx.x & 31) == 0)
        cyc[threadIdx.x / 32] = t1 - t0;
}

static long long slowest(const long long *c, int warps)
{
    long long m = 0;
    for (int w = 0; w < warps; w++)
        m = c[w] > m ? c[w] : m;
    return m;
}

template <int B, bool SHARED>
static int measure(unsigned *out, long long *dcyc, const char *g)
{
    const int n = 256;
    for (int warps = 4; warps <= 32; warps *= 2) {
        long long c1[32], c2[32];
        rate<B, SHARED><<<1, 32 * warps>>>(out, dcyc, n, g, 0);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(c1, dcyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
        rate<B, SHARED><<<1, 32 * warps>>>(out, dcyc, 2 * n, g, 0);
        CHECK(cudaMemcpy(c2, dcyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
        double per = (double)(slowest(c2, warps) - slowest(c1, warps)) / (8.0 * n * warps);
        printf("%s B=%2d warps=%2d  t(n)=%lld t(2n)=%lld  cycles per warp load per SM %.3f\n",
               SHARED ? "lds" : "ldg", B, warps, slowest(c1, warps), slowest(c2, warps), per);
    }
    return 0;
}

int main()
{
    unsigned *out; long long *dcyc; char *g;
    CHECK(cudaMalloc(&out, 4 * 1024));
    CHECK(cudaMalloc(&dcyc, 8 * 32));
    CHECK(cudaMalloc(&g, 2 * 16 * 256));
    CHECK(cudaMemset(g, 1, 2 * 16 * 256));
    if (measure<1, true>(out, dcyc, g) || measure<4, true>(out, dcyc, g) || measure<8, true>(out, dcyc, g) || measure<16, true>(out, dcyc, g) ||
        measure<1, false>(out, dcyc, g) || measure<4, false>(out, dcyc, g) || measure<8, false>(out, dcyc, g) || measure<16, false>(out, dcyc, g))
        return 1;
    /* cycles per iteration with 8 and with 16 bar.warp.sync: the slope is
     * what one costs, whatever the loop's own instructions cost */
    for (int rt = 0; rt < 2; rt++)
        for (int warps = 1; warps <= 4; warps *= 4) {
            const int n = 1024;
            long long c8[4], c16[4];
            if (rt) syncwarp_chain<true, 8><<<1, 32 * warps>>>(dcyc, n, ~0u);
            else syncwarp_chain<false, 8><<<1, 32 * warps>>>(dcyc, n, ~0u);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(c8, dcyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
            if (rt) syncwarp_chain<true, 16><<<1, 32 * warps>>>(dcyc, n, ~0u);
            else syncwarp_chain<false, 16><<<1, 32 * warps>>>(dcyc, n, ~0u);
            CHECK(cudaMemcpy(c16, dcyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
            printf("syncwarp mask=%s warps=%d  t(8/iter)=%lld t(16/iter)=%lld  cycles per bar.warp.sync %.3f\n",
                   rt ? "run-time" : "-1", warps, slowest(c8, warps), slowest(c16, warps),
                   (double)(slowest(c16, warps) - slowest(c8, warps)) / (8.0 * n));
        }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
