// shfl_issue.cu - what a shuffle costs beside other work, and how its lane
// operand is given.  Part 1 (mixes): 32 warps of one block (8 per SMSP) each
// run 1 to 5 independent dependent chains, interleaved, 128 steps per loop
// iteration; cycles per step per SMSP = (t(2n) - t(n)) / (128 n x 8) from
// the slowest warp (as int_pipes.cu).  SHFL is shfl.sync.bfly with the
// immediate mask 1, SHFLR the same with the mask in a register, SHFLI
// shfl.sync.idx with the lane in a register; SEL runs on the integer ALU,
// IMAD on the FMA side's integer path, FFMA on the FP32 pipe (a warp every
// 1.03).  If a shuffle only held its crossbar (a warp every 4 per SMSP), a
// step of SHFL and k single-pipe chains would cost 4 whenever their pipes
// fit.  Part 2 (latency): one warp, a chain of 256 dependent shuffles an
// iteration, each mode with its operand immediate or in a register.
// The SASS of every kernel follows (cuobjdump -sass, SHFL lines counted).
// Build: nvcc -O2 -arch=sm_90 shfl_issue.cu -o shfl_issue
#include <cstdio>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP128(x) REP16(REP4(x x))
#define REP256(x) REP128(x x)

#define SEL(v) asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; selp.u32 %0, %0, %2, p; }" : "+r"(v) : "r"(k), "r"(w));
#define IMAD(v) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(w));
#define SHFL(v) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));
#define SHFLR(v) asm volatile("shfl.sync.bfly.b32 %0, %0, %1, 31, -1;" : "+r"(v) : "r"(m));
#define SHFLI(v) asm volatile("shfl.sync.idx.b32 %0, %0, %1, 31, -1;" : "+r"(v) : "r"(m));
#define FFMA(f) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(f) : "f"(g));

enum {
    M_SHFL, M_SHFL_SEL, M_SHFL_IMAD, M_SHFL_SEL_IMAD, M_SHFLR, M_SHFLR_SEL_IMAD, M_SHFLI,
    M_SHFLI_SEL_IMAD, M_SHFL_F, M_SHFL_FF, M_SHFL_FFF, M_SHFL_SEL_IMAD_F, M_SHFL_SHFL,
    M_SHFL_SHFL_SEL_IMAD, M_FFFF, M_SHFL_SEL_SEL, NM
};
static const char *mnames[NM] = {
    "SHFL", "SHFL + SEL", "SHFL + IMAD", "SHFL + SEL + IMAD", "SHFLR", "SHFLR + SEL + IMAD",
    "SHFLI", "SHFLI + SEL + IMAD", "SHFL + FFMA", "SHFL + 2 FFMA", "SHFL + 3 FFMA",
    "SHFL + SEL + IMAD + FFMA", "SHFL + SHFL", "SHFL + SHFL + SEL + IMAD", "4 FFMA",
    "SHFL + SEL + SEL",
};

template <int K>
__global__ void mix(unsigned *out, long long *cyc, int n, unsigned k)
{
    unsigned a = threadIdx.x, b = a ^ 5, c = a ^ 9, d = a ^ 3, w = k ^ threadIdx.x, m = k - 2;
    float f1 = a, f2 = b, f3 = c, f4 = d, g = 0.5f + (float)k;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (K == M_SHFL) { REP128(SHFL(a)) }
        if (K == M_SHFL_SEL) { REP128(SHFL(a) SEL(b)) }
        if (K == M_SHFL_IMAD) { REP128(SHFL(a) IMAD(b)) }
        if (K == M_SHFL_SEL_IMAD) { REP128(SHFL(a) SEL(b) IMAD(c)) }
        if (K == M_SHFLR) { REP128(SHFLR(a)) }
        if (K == M_SHFLR_SEL_IMAD) { REP128(SHFLR(a) SEL(b) IMAD(c)) }
        if (K == M_SHFLI) { REP128(SHFLI(a)) }
        if (K == M_SHFLI_SEL_IMAD) { REP128(SHFLI(a) SEL(b) IMAD(c)) }
        if (K == M_SHFL_F) { REP128(SHFL(a) FFMA(f1)) }
        if (K == M_SHFL_FF) { REP128(SHFL(a) FFMA(f1) FFMA(f2)) }
        if (K == M_SHFL_FFF) { REP128(SHFL(a) FFMA(f1) FFMA(f2) FFMA(f3)) }
        if (K == M_SHFL_SEL_IMAD_F) { REP128(SHFL(a) SEL(b) IMAD(c) FFMA(f1)) }
        if (K == M_SHFL_SHFL) { REP128(SHFL(a) SHFL(d)) }
        if (K == M_SHFL_SHFL_SEL_IMAD) { REP128(SHFL(a) SHFL(d) SEL(b) IMAD(c)) }
        if (K == M_FFFF) { REP128(FFMA(f1) FFMA(f2) FFMA(f3) FFMA(f4)) }
        if (K == M_SHFL_SEL_SEL) { REP128(SHFL(a) SEL(b) SEL(c)) }
    }
    long long t1 = clock64();
    cyc[threadIdx.x / 32] = t1 - t0;
    if ((a ^ b ^ c ^ d) == 0xdeadbeef || f1 + f2 + f3 + f4 == 1.25f)
        out[threadIdx.x] = a;
}

enum { L_BFLY, L_BFLYR, L_IDX, L_IDXR, L_UPR, L_DOWNR, NL };
static const char *lnames[NL] = {
    "shfl.bfly, mask immediate", "shfl.bfly, mask register", "shfl.idx, lane immediate",
    "shfl.idx, lane register", "shfl.up, delta register", "shfl.down, delta register",
};

template <int K>
__global__ void lat(unsigned *out, long long *cyc, int n, unsigned k)
{
    unsigned a = threadIdx.x, m = k - 2;   // m = 1 at run time
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (K == L_BFLY) { REP256(asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(a));) }
        if (K == L_BFLYR) { REP256(asm volatile("shfl.sync.bfly.b32 %0, %0, %1, 31, -1;" : "+r"(a) : "r"(m));) }
        if (K == L_IDX) { REP256(asm volatile("shfl.sync.idx.b32 %0, %0, 3, 31, -1;" : "+r"(a));) }
        if (K == L_IDXR) { REP256(asm volatile("shfl.sync.idx.b32 %0, %0, %1, 31, -1;" : "+r"(a) : "r"(m));) }
        if (K == L_UPR) { REP256(asm volatile("shfl.sync.up.b32 %0, %0, %1, 0, -1;" : "+r"(a) : "r"(m));) }
        if (K == L_DOWNR) { REP256(asm volatile("shfl.sync.down.b32 %0, %0, %1, 31, -1;" : "+r"(a) : "r"(m));) }
    }
    long long t1 = clock64();
    cyc[threadIdx.x / 32] = t1 - t0;
    if (a == 0xdeadbeef)
        out[threadIdx.x] = a;
}

template <int K>
static void measure_mix(unsigned *out, long long *dcyc)
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
    printf("%-28s %6.2f cycles per step per SMSP\n", mnames[K], (double)(m2 - m1) / (128.0 * n * 8));
}

template <int K>
static void measure_lat(unsigned *out, long long *dcyc)
{
    const int n = 16;
    long long c1, c2;
    lat<K><<<1, 32>>>(out, dcyc, n, 3);
    lat<K><<<1, 32>>>(out, dcyc, n, 3);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    lat<K><<<1, 32>>>(out, dcyc, 2 * n, 3);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    printf("%-28s %6.2f cycles latency\n", lnames[K], (double)(c2 - c1) / (256.0 * n));
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 1024 * sizeof(unsigned));
    cudaMalloc(&dcyc, 32 * sizeof(long long));
    measure_mix<M_SHFL>(out, dcyc);
    measure_mix<M_SHFL_SEL>(out, dcyc);
    measure_mix<M_SHFL_IMAD>(out, dcyc);
    measure_mix<M_SHFL_SEL_IMAD>(out, dcyc);
    measure_mix<M_SHFLR>(out, dcyc);
    measure_mix<M_SHFLR_SEL_IMAD>(out, dcyc);
    measure_mix<M_SHFLI>(out, dcyc);
    measure_mix<M_SHFLI_SEL_IMAD>(out, dcyc);
    measure_mix<M_SHFL_F>(out, dcyc);
    measure_mix<M_SHFL_FF>(out, dcyc);
    measure_mix<M_SHFL_FFF>(out, dcyc);
    measure_mix<M_SHFL_SEL_IMAD_F>(out, dcyc);
    measure_mix<M_SHFL_SHFL>(out, dcyc);
    measure_mix<M_SHFL_SHFL_SEL_IMAD>(out, dcyc);
    measure_mix<M_FFFF>(out, dcyc);
    measure_mix<M_SHFL_SEL_SEL>(out, dcyc);
    measure_lat<L_BFLY>(out, dcyc);
    measure_lat<L_BFLYR>(out, dcyc);
    measure_lat<L_IDX>(out, dcyc);
    measure_lat<L_IDXR>(out, dcyc);
    measure_lat<L_UPR>(out, dcyc);
    measure_lat<L_DOWNR>(out, dcyc);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
