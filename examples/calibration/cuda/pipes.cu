// pipes.cu - latency and issue interval of the H100 pipes that
// configs/nvidia-h100.yaml marked as estimates (fp32, fp64, fp16,
// transcendental), and the latency of global and shared atomics with 1 and
// with 32 lanes on one address.  Raw output: pipes_h200.txt (an H200: the
// H100's GH100 SM at the same clock, with other memory chips).
//
// Latency: one warp runs n loop iterations of 256 dependent operations,
// clock64 around the loop; cycles per op = (t(2n) - t(n)) / (256 n).
// Interval: 32 warps of one block (8 per SMSP, enough to hide each pipe's
// latency) run the same chains; cycles per warp instruction per SMSP =
// (t(2n) - t(n)) / (256 n x 8), from the slowest warp's clock.
// Atomics: one warp, a chain of dependent atomics (atom_chain below);
// cycles per atomic = (t(2n) - t(n)) / (16 n).
// Build and run:
//   nvcc -O2 -arch=sm_90 pipes.cu -o pipes && ./pipes
//   cuobjdump -sass pipes   (each chain's body is one SASS opcode, except the
//   atom.add.u32 v, [p], v chains, which ptxas aggregates per warp)
#include <cstdio>
#include <cstdint>

#define REP4(x) x x x x
#define REP16(x) REP4(REP4(x))
#define REP256(x) REP16(REP16(x))

enum { FFMA, DFMA, HFMA2, EX2, RSQ, IMAD, SHFL, SHFL_ADD, NKIND };
static const char *kind_name[NKIND] = {
    "fma.rn.f32 (FFMA)", "fma.rn.f64 (DFMA)", "fma.rn.f16x2 (HFMA2)",
    "ex2.approx.ftz.f32 (MUFU.EX2)", "rsqrt.approx.ftz.f32 (MUFU.RSQ)",
    "mad.lo.u32 (IMAD)", "shfl.sync.bfly (SHFL)", "shfl.sync.bfly + add.u32",
};

template <int KIND>
__global__ void chain(unsigned *out, long long *cyc, int n, unsigned k)
{
    unsigned v = threadIdx.x | 0x3f800000u, w = k ^ threadIdx.x;
    double d = (double)threadIdx.x, e = (double)k;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        if (KIND == FFMA) {
            REP256(asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(*(float *)&v) : "f"(*(float *)&w));)
        }
        if (KIND == DFMA) {
            REP256(asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d) : "d"(e));)
        }
        if (KIND == HFMA2) {
            REP256(asm volatile("fma.rn.f16x2 %0, %0, %1, %1;" : "+r"(v) : "r"(w));)
        }
        if (KIND == EX2) {
            REP256(asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(*(float *)&v));)
        }
        if (KIND == RSQ) {
            REP256(asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(*(float *)&v));)
        }
        if (KIND == IMAD) {
            REP256(asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(k), "r"(w));)
        }
        if (KIND == SHFL) {
            REP256(asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v));)
        }
        if (KIND == SHFL_ADD) {
            REP256(asm volatile("{ .reg .b32 t; shfl.sync.bfly.b32 t, %0, 1, 31, -1; add.u32 %0, t, %1; }"
                                : "+r"(v) : "r"(w));)
        }
    }
    long long t1 = clock64();
    cyc[threadIdx.x / 32] = t1 - t0;
    if (v == 0xdeadbeef || d == 1.5)
        out[threadIdx.x] = v;
}

template <int KIND>
static double per_op(unsigned *out, long long *dcyc, int warps, int n)
{
    long long c1[32], c2[32];
    chain<KIND><<<1, 32 * warps>>>(out, dcyc, n, 3);
    chain<KIND><<<1, 32 * warps>>>(out, dcyc, n, 3);
    cudaMemcpy(c1, dcyc, warps * sizeof *c1, cudaMemcpyDeviceToHost);
    chain<KIND><<<1, 32 * warps>>>(out, dcyc, 2 * n, 3);
    cudaMemcpy(c2, dcyc, warps * sizeof *c2, cudaMemcpyDeviceToHost);
    long long m1 = 0, m2 = 0;
    for (int i = 0; i < warps; i++) {
        m1 = c1[i] > m1 ? c1[i] : m1;
        m2 = c2[i] > m2 ? c2[i] : m2;
    }
    return (double)(m2 - m1) / (256.0 * n);
}

template <int KIND>
static void measure(unsigned *out, long long *dcyc)
{
    const int n = 64;
    double lat = per_op<KIND>(out, dcyc, 1, n);
    double thr = per_op<KIND>(out, dcyc, 32, n) / 8.0;
    printf("%-34s latency %6.2f  interval/SMSP %6.2f cycles\n", kind_name[KIND], lat, thr);
}

// Atomic chains, SPACE 0 global, 1 shared; SPREAD 0: every lane on one
// word, 1: lane i on word i, 2: lane 0 alone.  VALUE 0: the memory holds
// its own address and `atom.add.u64 p, [p], 0` returns it, so the next
// atomic's address is the last one's result; VALUE 1: `atom.add.u32 v,
// [p], v` on a fixed address, so the next atomic's operand is the last
// one's result.  Neither has an instruction between two atomics.
template <int SPACE, int SPREAD, int VALUE>
__global__ void atom_chain(uint64_t *mem, long long *cyc, int n, uint64_t zero)
{
    __shared__ unsigned smem[64];
    int lane = threadIdx.x;
    if (SPACE == 1) {
        for (int i = lane; i < 64; i += 32)
            smem[i] = (unsigned)__cvta_generic_to_shared(&smem[i]);
        __syncwarp();
    }
    bool on = SPREAD != 2 || lane == 0;
    int slot = SPREAD == 1 ? lane : 0;
    uint64_t p = (uint64_t)&mem[slot];
    unsigned s = (unsigned)__cvta_generic_to_shared(&smem[slot]);
    unsigned z = (unsigned)zero, v = lane + 1;
    unsigned *p32 = (unsigned *)&mem[32 + slot];
    long long t0 = clock64();
    if (on) {
        for (int i = 0; i < n; i++) {
            if (SPACE == 0 && VALUE == 0) {
                REP16(asm volatile("atom.global.add.u64 %0, [%0], %1;" : "+l"(p) : "l"(zero) : "memory");)
            } else if (SPACE == 0) {
                REP16(asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(v) : "l"(p32) : "memory");)
            } else if (VALUE == 0) {
                REP16(asm volatile("atom.shared.add.u32 %0, [%0], %1;" : "+r"(s) : "r"(z) : "memory");)
            } else {
                REP16(asm volatile("atom.shared.add.u32 %0, [%1], %0;" : "+r"(v) : "r"(s) : "memory");)
            }
        }
    }
    long long t1 = clock64();
    if (lane == 0)
        *cyc = t1 - t0;
    if (p == 1 || s == 1 || v == 1)
        mem[64] = p + s + v;
}

template <int SPACE, int SPREAD, int VALUE>
static void atom_per_op(const char *what, uint64_t *mem, long long *dcyc)
{
    const int n = 256;
    long long c1, c2;
    atom_chain<SPACE, SPREAD, VALUE><<<1, 32>>>(mem, dcyc, n, 0);
    atom_chain<SPACE, SPREAD, VALUE><<<1, 32>>>(mem, dcyc, n, 0);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    atom_chain<SPACE, SPREAD, VALUE><<<1, 32>>>(mem, dcyc, 2 * n, 0);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    static const char *spread[3] = { "32 lanes, 1 word", "32 lanes, 32 words", "1 lane" };
    printf("%-40s %-18s %7.2f cycles\n", what, spread[SPREAD], (double)(c2 - c1) / (16.0 * n));
}

int main()
{
    unsigned *out;
    long long *dcyc;
    uint64_t *mem;
    cudaMalloc(&out, 1024 * sizeof(unsigned));
    cudaMalloc(&dcyc, 32 * sizeof(long long));
    cudaMalloc(&mem, 65 * sizeof(uint64_t));
    uint64_t host[64];
    for (int i = 0; i < 64; i++)
        host[i] = (uint64_t)(mem + i);   // every word holds its own address
    cudaMemcpy(mem, host, sizeof host, cudaMemcpyHostToDevice);

    measure<FFMA>(out, dcyc);
    measure<DFMA>(out, dcyc);
    measure<HFMA2>(out, dcyc);
    measure<EX2>(out, dcyc);
    measure<RSQ>(out, dcyc);
    measure<IMAD>(out, dcyc);
    measure<SHFL>(out, dcyc);
    measure<SHFL_ADD>(out, dcyc);

    const char *g64 = "atom.global.add.u64 p, [p], 0", *g32 = "atom.global.add.u32 v, [p], v";
    const char *s32a = "atom.shared.add.u32 p, [p], 0", *s32 = "atom.shared.add.u32 v, [p], v";
    atom_per_op<0, 2, 0>(g64, mem, dcyc);
    atom_per_op<0, 0, 0>(g64, mem, dcyc);
    atom_per_op<0, 1, 0>(g64, mem, dcyc);
    atom_per_op<0, 2, 1>(g32, mem, dcyc);
    atom_per_op<0, 0, 1>(g32, mem, dcyc);
    atom_per_op<0, 1, 1>(g32, mem, dcyc);
    atom_per_op<1, 2, 0>(s32a, mem, dcyc);
    atom_per_op<1, 0, 0>(s32a, mem, dcyc);
    atom_per_op<1, 1, 0>(s32a, mem, dcyc);
    atom_per_op<1, 2, 1>(s32, mem, dcyc);
    atom_per_op<1, 0, 1>(s32, mem, dcyc);
    atom_per_op<1, 1, 1>(s32, mem, dcyc);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
