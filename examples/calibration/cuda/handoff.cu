// handoff.cu - the latency of a result passed between H100 pipes: one warp
// runs n loop iterations of 128 dependent pairs "X then Y" (each reads the
// other's result), clock64 around the loop; cycles per pair = (t(2n) -
// t(n)) / (128 n).  Against the chains of one kind (pipes.cu,
// int_primitives.cu), the pair costs lat(X) + lat(Y) plus whatever the
// hand-over between the two units adds.  Build:
//   nvcc -O2 -arch=sm_90 handoff.cu -o handoff && ./handoff
//   cuobjdump -sass handoff   (two SASS instructions per pair)
#include <cstdio>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP128(x) REP16(REP4(x x))

#define SHFL asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
#define SEL asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; selp.u32 %0, %0, %2, p; }" : "+r"(v) : "r"(k), "r"(w));
#define IMAD asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(w));
#define LOP asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(v) : "r"(k), "r"(w));
#define FFMA asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+r"(v) : "r"(w));
#define EX2 asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(v));
#define LDS asm volatile("ld.shared.u32 %0, [%0];" : "+r"(v) : : "memory");
#define LDS_OFF asm volatile("{ .reg .b32 t; ld.shared.u32 t, [%0]; xor.b32 %0, t, %1; }" : "+r"(v) : "r"(z) : "memory");

enum { P_SHFL_SEL, P_SHFL_IMAD, P_SHFL_LOP, P_SHFL_FFMA, P_EX2_FFMA, P_EX2_SEL, P_SEL_IMAD,
       P_SEL_FFMA, P_LDS_LOP, P_LDS, NP };
static const char *names[NP] = {
    "SHFL -> SEL", "SHFL -> IMAD", "SHFL -> LOP3", "SHFL -> FFMA", "MUFU.EX2 -> FFMA",
    "MUFU.EX2 -> SEL", "SEL -> IMAD", "SEL -> FFMA", "LDS -> LOP3 (xor 0)", "LDS alone (pairs of LDS)",
};

template <int P>
__global__ void pair(unsigned *out, long long *cyc, int n, unsigned k, unsigned z)
{
    __shared__ unsigned s[32];
    s[threadIdx.x] = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    __syncwarp();
    unsigned v = P >= P_LDS_LOP ? s[threadIdx.x] : threadIdx.x, w = k ^ threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (P == P_SHFL_SEL) { REP128(SHFL SEL) }
        if (P == P_SHFL_IMAD) { REP128(SHFL IMAD) }
        if (P == P_SHFL_LOP) { REP128(SHFL LOP) }
        if (P == P_SHFL_FFMA) { REP128(SHFL FFMA) }
        if (P == P_EX2_FFMA) { REP128(EX2 FFMA) }
        if (P == P_EX2_SEL) { REP128(EX2 SEL) }
        if (P == P_SEL_IMAD) { REP128(SEL IMAD) }
        if (P == P_SEL_FFMA) { REP128(SEL FFMA) }
        if (P == P_LDS_LOP) { REP128(LDS_OFF) }
        if (P == P_LDS) { REP128(LDS LDS) }
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cyc = t1 - t0;
    if (v == 0xdeadbeef)
        out[threadIdx.x] = v;
}

template <int P>
static void measure(unsigned *out, long long *dcyc)
{
    const int n = 64;
    long long c1, c2;
    pair<P><<<1, 32>>>(out, dcyc, n, 3, 0);
    pair<P><<<1, 32>>>(out, dcyc, n, 3, 0);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    pair<P><<<1, 32>>>(out, dcyc, 2 * n, 3, 0);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    printf("%-26s %7.2f cycles per pair\n", names[P], (double)(c2 - c1) / (128.0 * n));
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 32 * sizeof(unsigned));
    cudaMalloc(&dcyc, sizeof(long long));
    measure<P_SHFL_SEL>(out, dcyc);
    measure<P_SHFL_IMAD>(out, dcyc);
    measure<P_SHFL_LOP>(out, dcyc);
    measure<P_SHFL_FFMA>(out, dcyc);
    measure<P_EX2_FFMA>(out, dcyc);
    measure<P_EX2_SEL>(out, dcyc);
    measure<P_SEL_IMAD>(out, dcyc);
    measure<P_SEL_FFMA>(out, dcyc);
    measure<P_LDS_LOP>(out, dcyc);
    measure<P_LDS>(out, dcyc);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
