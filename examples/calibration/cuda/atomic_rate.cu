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

template <int K>
__global__ void rate(unsigned *out, long long *cyc, int n, const unsigned *word, unsigned *h)
{
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
        cyc[threadIdx.x / 32] = t1 - t0;
    out[threadIdx.x] = sum;
}

template <int K>
static void measure(unsigned *out, long long *dcyc)
{
    const int n = 64, warps = 8;
    long long c1[8], c2[8], m1 = 0, m2 = 0;
    unsigned host[256], *word, *h;
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 8; j++)
            host[8 * l + j] = K == 1 ? (l + 32 * j) % 256 : K == 8 ? l % 4 + 4 * j : j;
    cudaMalloc(&word, sizeof host);
    cudaMalloc(&h, sizeof host);
    cudaMemcpy(word, host, sizeof host, cudaMemcpyHostToDevice);
    rate<K><<<1, 256>>>(out, dcyc, n, word, h);
    rate<K><<<1, 256>>>(out, dcyc, n, word, h);
    cudaMemcpy(c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    rate<K><<<1, 256>>>(out, dcyc, 2 * n, word, h);
    cudaMemcpy(c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    for (int i = 0; i < warps; i++) {
        m1 = c1[i] > m1 ? c1[i] : m1;
        m2 = c2[i] > m2 ? c2[i] : m2;
    }
    printf("%2d lanes per word: %7.2f cycles per warp atomic per SM\n", K,
           (double)(m2 - m1) / (8.0 * n * warps));
    cudaFree(word);
    cudaFree(h);
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 256 * sizeof(unsigned));
    cudaMalloc(&dcyc, 8 * sizeof(long long));
    measure<1>(out, dcyc);
    measure<8>(out, dcyc);
    measure<32>(out, dcyc);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
