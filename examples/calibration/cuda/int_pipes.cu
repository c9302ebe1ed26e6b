// int_pipes.cu - which H100 pipes integer work and shuffles share: 32 warps
// of one block (8 per SMSP) each run 1 to 3 independent dependent chains,
// interleaved, 128 steps per loop iteration; cycles per step (one
// instruction of each chain) per SMSP = (t(2n) - t(n)) / (128 n x 8) from
// the slowest warp.  A step of two kinds that share a pipe costs the sum of
// their intervals; of two kinds on separate pipes, the larger.  SEL runs on
// the integer ALU, IMAD on the FMA pipes, SHFL on the crossbar (checked with
// cuobjdump -sass).  Build: nvcc -O2 -arch=sm_90 int_pipes.cu -o int_pipes
#include <cstdio>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP128(x) REP16(REP4(x x))

#define SEL(v) asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; selp.u32 %0, %0, %2, p; }" : "+r"(v) : "r"(k), "r"(w));
#define IMAD(v) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(w));
#define SHFL(v) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
#define LOP(v) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(v) : "r"(k), "r"(w));

enum { K_SEL, K_IMAD, K_LOP, K_SEL_SEL, K_SEL_IMAD, K_SHFL, K_SHFL_SEL, K_SHFL_IMAD, K_SHFL_SEL_IMAD, NK };
static const char *names[NK] = {
    "SEL", "IMAD", "LOP3", "SEL + SEL", "SEL + IMAD", "SHFL", "SHFL + SEL", "SHFL + IMAD",
    "SHFL + SEL + IMAD",
};

template <int K>
__global__ void mix(unsigned *out, long long *cyc, int n, unsigned k)
{
    unsigned a = threadIdx.x, b = a ^ 5, c = a ^ 9, w = k ^ threadIdx.x;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (K == K_SEL) { REP128(SEL(a)) }
        if (K == K_IMAD) { REP128(IMAD(a)) }
        if (K == K_LOP) { REP128(LOP(a)) }
        if (K == K_SEL_SEL) { REP128(SEL(a) SEL(b)) }
        if (K == K_SEL_IMAD) { REP128(SEL(a) IMAD(b)) }
        if (K == K_SHFL) { REP128(SHFL(a)) }
        if (K == K_SHFL_SEL) { REP128(SHFL(a) SEL(b)) }
        if (K == K_SHFL_IMAD) { REP128(SHFL(a) IMAD(b)) }
        if (K == K_SHFL_SEL_IMAD) { REP128(SHFL(a) SEL(b) IMAD(c)) }
    }
    long long t1 = clock64();
    cyc[threadIdx.x / 32] = t1 - t0;
    if ((a ^ b ^ c) == 0xdeadbeef)
        out[threadIdx.x] = a;
}

template <int K>
static void measure(unsigned *out, long long *dcyc)
{
    const int n = 32, warps = 32;
    long long c1[32], c2[32], m1 = 0, m2 = 0;
    mix<K><<<1, 32 * warps>>>(out, dcyc, n, 3);
    mix<K><<<1, 32 * warps>>>(out, dcyc, n, 3);
    cudaMemcpy(c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    mix<K><<<1, 32 * warps>>>(out, dcyc, 2 * n, 3);
    cudaMemcpy(c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    for (int i = 0; i < warps; i++) {
        m1 = c1[i] > m1 ? c1[i] : m1;
        m2 = c2[i] > m2 ? c2[i] : m2;
    }
    printf("%-20s %6.2f cycles per step per SMSP\n", names[K], (double)(m2 - m1) / (128.0 * n * 8));
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 1024 * sizeof(unsigned));
    cudaMalloc(&dcyc, 32 * sizeof(long long));
    measure<K_SEL>(out, dcyc);
    measure<K_IMAD>(out, dcyc);
    measure<K_LOP>(out, dcyc);
    measure<K_SEL_SEL>(out, dcyc);
    measure<K_SEL_IMAD>(out, dcyc);
    measure<K_SHFL>(out, dcyc);
    measure<K_SHFL_SEL>(out, dcyc);
    measure<K_SHFL_IMAD>(out, dcyc);
    measure<K_SHFL_SEL_IMAD>(out, dcyc);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
