// atomic_rate.cu - global-memory atomic throughput on the H100, the twin of
// smem_atomic_rate.cu with the words in global memory (raw output:
// atomic_rate_h200.txt; docs/timing-model.md, Calibration).
// One block of 256 threads (8 warps, 2 per SMSP) runs n iterations of 8
// independent atom.global.add.u32; lane l of step j adds to word
//   K = 1:  (l + 32 j) mod 256        (32 words of 32 banks per warp step)
//   K = 8:  (l mod 4) + 4 j          (4 words, 8 lanes on each)
//   K = 32: j                        (one word, all 32 lanes)
// Cycles per warp atomic per SM = (t(2n) - t(n)) / (8 n x 8 warps), from
// the slowest warp's clock64.  The results are summed so that each atomic
// returns (ATOMG, not a reduction; checked with cuobjdump -sass), and the
// words are read from memory (below).
//   nvcc -O2 -arch=sm_90 atomic_rate.cu -o atomic_rate
#include <cstdio>

template <int K, int SHARE>
__global__ void rate(unsigned *out, long long *cyc, int n, const unsigned *word, unsigned *h)
{
    h += SHARE ? 0 : 256 * blockIdx.x;     /* each block its own words, or all the same */
    h[threadIdx.x] = 0;
    __syncthreads();
    unsigned l = threadIdx.x & 31, sum = 0, one = n > 0;
    unsigned *a[8];
    /* the words come from memory, as in the sgasm twin: with addresses it
     * can prove uniform (K = 32) ptxas aggregates the warp's atomics into
     * one (a vote, one atomic, a shuffle) */
    for (int j = 0; j < 8; j++)
        a[j] = h + word[8 * l + j];
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            unsigned r;
            asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(a[j]), "r"(one) : "memory");
            sum += r;
        }
    }
    long long t1 = clock64();
    if (l == 0)
        cyc[8 * blockIdx.x + threadIdx.x / 32] = t1 - t0;
    out[256 * blockIdx.x + threadIdx.x] = sum;
}

template <int K, int SHARE>
static void measure(unsigned *out, long long *dcyc, int blocks)
{
    const int n = 64, warps = 8 * blocks;
    long long c1[8 * 16], c2[8 * 16], m1 = 0, m2 = 0;
    unsigned host[256], *word, *h;
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 8; j++)
            host[8 * l + j] = K == 1 ? (l + 32 * j) % 256 : K == 8 ? l % 4 + 4 * j : j;
    cudaMalloc(&word, sizeof host);
    cudaMalloc(&h, 16 * sizeof host);
    cudaMemcpy(word, host, sizeof host, cudaMemcpyHostToDevice);
    rate<K, SHARE><<<blocks, 256>>>(out, dcyc, n, word, h);
    rate<K, SHARE><<<blocks, 256>>>(out, dcyc, n, word, h);
    cudaMemcpy(c1, dcyc, warps * sizeof c1[0], cudaMemcpyDeviceToHost);
    rate<K, SHARE><<<blocks, 256>>>(out, dcyc, 2 * n, word, h);
    cudaMemcpy(c2, dcyc, warps * sizeof c2[0], cudaMemcpyDeviceToHost);
    for (int i = 0; i < warps; i++) {
        m1 = c1[i] > m1 ? c1[i] : m1;
        m2 = c2[i] > m2 ? c2[i] : m2;
    }
    /* per SM: each block runs on its own SM (16 blocks, 132 SMs) */
    printf("%2d lanes per word, %2d blocks%s: %7.2f cycles per warp atomic per SM\n", K, blocks,
           blocks == 1 ? "" : SHARE ? " on the same words" : " on their own words",
           (double)(m2 - m1) / (8.0 * n * 8));
    cudaFree(word);
    cudaFree(h);
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 16 * 256 * sizeof(unsigned));
    cudaMalloc(&dcyc, 16 * 8 * sizeof(long long));
    measure<1, 0>(out, dcyc, 1);
    measure<8, 0>(out, dcyc, 1);
    measure<32, 0>(out, dcyc, 1);
    /* which side limits: more SMs on their own words (an SM-side limit
     * keeps the per-SM figure) or on the same words (an L2-side limit
     * multiplies it) */
    measure<1, 0>(out, dcyc, 16);
    measure<32, 0>(out, dcyc, 16);
    measure<1, 1>(out, dcyc, 16);
    measure<32, 1>(out, dcyc, 16);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
