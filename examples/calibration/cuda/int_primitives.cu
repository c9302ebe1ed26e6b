// int_primitives.cu - latency of dependent integer instructions on the GPU
// (the H100 primitives sgemu's nvidia-h100.yaml reads for its `int` pipe):
// a chain of 256 dependent operations per loop iteration, one warp, clock64
// around the loop; cycles per op = (t(2n) - t(n)) / (256 n).  Inline PTX
// selp and mad.lo stay one SASS instruction each (SEL, IMAD; checked with
// cuobjdump -sass); chains of add or xor are not used because ptxas merges
// them (IADD3, or cancels an xor pair).  Measured on an H100 80GB HBM3:
// SEL 4.04, IMAD 4.03 cycles.  Build:
//   nvcc -O2 -arch=sm_90 int_primitives.cu -o int_primitives
#include <cstdio>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP256(x) REP16(REP16(x))

template <int KIND>
__global__ void chain(unsigned *out, long long *cyc, int n, unsigned k)
{
    unsigned v = threadIdx.x, w = k ^ threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (KIND == 0) {
            REP256(asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; selp.u32 %0, %0, %1, p; }"
                                : "+r"(v) : "r"(w), "r"(k));)
        } else {
            REP256(asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(w));)
        }
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cyc = t1 - t0;
    if (v == 0xdeadbeef)
        out[threadIdx.x] = v;
}

template <int KIND>
static double per_op(unsigned *out, long long *dcyc, int n)
{
    long long c1, c2;
    chain<KIND><<<1, 32>>>(out, dcyc, n, 3);
    chain<KIND><<<1, 32>>>(out, dcyc, n, 3);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    chain<KIND><<<1, 32>>>(out, dcyc, 2 * n, 3);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    return (double)(c2 - c1) / (256.0 * n);
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 32 * sizeof(unsigned));
    cudaMalloc(&dcyc, sizeof(long long));
    const int n = 256;
    printf("selp.u32 (SEL, dependent)    %6.2f cycles\n", per_op<0>(out, dcyc, n));
    printf("mad.lo.u32 (IMAD, dependent) %6.2f cycles\n", per_op<1>(out, dcyc, n));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
