// atomic_shape.cu - what a global atomic's cost depends on, on the H100:
// active lanes, lanes per word, words per line, lines per instruction,
// warps per SM and SMs.  One block per SM of W warps runs n iterations of 8
// independent atom.global.add.u32; lane l (< A, the others idle) of step j
// adds to word off[8 l + j] (the same table for every warp); each block its
// own 64 KB or all the same.  Cycles per warp atomic per SM =
// (t(2n) - t(n)) / (8 n W), from the slowest warp's clock64.
//   nvcc -O2 -arch=sm_90 atomic_shape.cu -o atomic_shape
#include <cstdio>
#include <cstring>

__global__ void rate(unsigned *out, long long *cyc, int n, const unsigned *word, unsigned *h,
                     int active, int share)
{
    h += share ? 0 : 16384 * blockIdx.x;
    unsigned l = threadIdx.x & 31, sum = 0, one = n > 0;
    unsigned *a[8];
    for (int j = 0; j < 8; j++)
        a[j] = h + word[8 * l + j];
    __syncthreads();
    long long t0 = clock64();
    if (l < active)
        for (int i = 0; i < n; i++) {
#pragma unroll
            for (int j = 0; j < 8; j++) {
                unsigned r;
                asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(a[j]), "r"(one) : "memory");
                sum += r;
            }
        }
    __syncwarp();
    long long t1 = clock64();
    if (l == 0)
        cyc[32 * blockIdx.x + threadIdx.x / 32] = t1 - t0;
    out[1024 * blockIdx.x + threadIdx.x] = sum;
}

static unsigned *g_out, *g_word, *g_h;
static long long *g_cyc;

static double run(const char *what, const unsigned *off, int active, int warps, int blocks,
                  int share)
{
    const int n = 64;
    long long c1[32 * 132], c2[32 * 132], m1 = 0, m2 = 0;
    cudaMemcpy(g_word, off, 256 * sizeof(unsigned), cudaMemcpyHostToDevice);
    cudaMemset(g_h, 0, 132 * 16384 * sizeof(unsigned));
    int nw = warps * blocks;   /* warp w of block b at 32 b + w */
    rate<<<blocks, 32 * warps>>>(g_out, g_cyc, n, g_word, g_h, active, share);
    rate<<<blocks, 32 * warps>>>(g_out, g_cyc, n, g_word, g_h, active, share);
    cudaMemcpy(c1, g_cyc, 32 * blocks * sizeof c1[0], cudaMemcpyDeviceToHost);
    rate<<<blocks, 32 * warps>>>(g_out, g_cyc, 2 * n, g_word, g_h, active, share);
    cudaMemcpy(c2, g_cyc, 32 * blocks * sizeof c2[0], cudaMemcpyDeviceToHost);
    for (int i = 0; i < nw; i++) {
        int w = i % warps, b = i / warps;
        long long x1 = c1[32 * b + w], x2 = c2[32 * b + w];
        m1 = x1 > m1 ? x1 : m1;
        m2 = x2 > m2 ? x2 : m2;
    }
    double r = (double)(m2 - m1) / (8.0 * n * warps);
    printf("%-44s A=%2d W=%2d B=%3d %s: %8.2f cycles per warp atomic per SM\n", what, active,
           warps, blocks, blocks == 1 ? "    " : share ? "same" : "own ", r);
    return r;
}

/* word of lane l, step j, for k lanes per word, words s words apart,
 * step j starting at word j x step */
static void shape(unsigned *off, int k, int stride, int step)
{
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 8; j++)
            off[8 * l + j] = (unsigned)(j * step + (l / k) * stride);
}

#ifndef ATOMIC_SHAPE_KERNEL_ONLY   /* atomic_l2.cu reuses the kernel and run() */
int main()
{
    cudaMalloc(&g_out, 132 * 1024 * sizeof(unsigned));
    cudaMalloc(&g_cyc, 132 * 32 * sizeof(long long));
    cudaMalloc(&g_word, 256 * sizeof(unsigned));
    cudaMalloc(&g_h, 132 * 16384 * sizeof(unsigned));
    unsigned off[256];
    /* lanes per word, in one line per step (words adjacent, lines apart) */
    for (int k = 1; k <= 32; k *= 2) {
        char what[64];
        snprintf(what, sizeof what, "%d lanes/word, 1 line/step", k);
        shape(off, k, 1, 32);
        run(what, off, 32, 8, 1, 0);
    }
    /* active lanes, one word each, one line per step */
    shape(off, 1, 1, 32);
    for (int a = 1; a <= 16; a *= 2)
        run("1 lane/word, 1 line/step", off, a, 8, 1, 0);
    /* lines per instruction: a word per lane, lanes 32 B / 128 B apart */
    shape(off, 1, 8, 1);
    run("1 lane/word, 8 words a sector apart", off, 32, 8, 1, 0);
    shape(off, 1, 32, 1);
    run("1 lane/word, 32 lines/step", off, 32, 8, 1, 0);
    /* one word per step, the 8 steps on 8 lines or in 1 line */
    shape(off, 32, 0, 32);
    run("32 lanes/word, steps on 8 lines", off, 32, 8, 1, 0);
    shape(off, 32, 0, 1);
    run("32 lanes/word, steps in 1 line", off, 32, 8, 1, 0);
    run("32 lanes/word, steps in 1 line", off, 1, 8, 1, 0);
    run("32 lanes/word, steps in 1 line", off, 8, 8, 1, 0);
    /* warps per SM */
    shape(off, 1, 1, 32);
    for (int w = 1; w <= 32; w *= 2)
        run("1 lane/word, 1 line/step", off, 32, w, 1, 0);
    shape(off, 32, 0, 32);
    for (int w = 1; w <= 32; w *= 4)
        run("32 lanes/word, steps on 8 lines", off, 32, w, 1, 0);
    /* SMs */
    shape(off, 1, 1, 32);
    for (int b = 2; b <= 128; b *= 4)
        run("1 lane/word, 1 line/step", off, 32, 8, b, 0);
    for (int b = 2; b <= 128; b *= 4)
        run("1 lane/word, 1 line/step", off, 32, 8, b, 1);
    shape(off, 32, 0, 32);
    for (int b = 2; b <= 128; b *= 4)
        run("32 lanes/word, steps on 8 lines", off, 32, 8, b, 0);
    for (int b = 2; b <= 128; b *= 4)
        run("32 lanes/word, steps on 8 lines", off, 32, 8, b, 1);
    /* first held-out part: the model's figures (the path held per line or
     * per lane of the busiest address) were recorded before it ran
     * (tests/timing/test_calibration.c, atom_round2) */
    printf("# held out\n");
    shape(off, 1, 16, 1);
    run("1 lane/word, 16 lines/step", off, 32, 8, 1, 0);
    shape(off, 2, 32, 1);
    run("2 lanes/word, 16 lines/step", off, 32, 8, 1, 0);
    shape(off, 4, 32, 1);
    run("4 lanes/word, 8 lines/step", off, 32, 8, 1, 0);
    shape(off, 8, 32, 1);
    run("8 lanes/word, 4 lines/step", off, 32, 8, 1, 0);
    shape(off, 1, 32, 1);
    run("1 lane/word, 32 lines/step", off, 32, 2, 1, 0);
    run("1 lane/word, 32 lines/step", off, 32, 16, 1, 0);
    shape(off, 32, 0, 32);
    run("32 lanes/word, steps on 8 lines", off, 32, 2, 1, 0);
    /* second held-out part: the packet rule's figures were recorded before
     * it ran (test_calibration.c, atom_held_out) */
    printf("# held out, second part\n");
    shape(off, 2, 16, 1);
    run("2 lanes/word, 2 words/line, 8 lines", off, 32, 8, 1, 0);
    shape(off, 4, 16, 1);
    run("4 lanes/word, 2 words/line, 4 lines", off, 32, 8, 1, 0);
    shape(off, 16, 32, 1);
    run("16 lanes/word, 2 lines/step", off, 32, 8, 1, 0);
    shape(off, 8, 16, 1);
    run("8 lanes/word, 2 words/line, 2 lines", off, 32, 8, 1, 0);
    shape(off, 2, 32, 1);
    run("2 lanes/word, 16 lines/step", off, 32, 16, 1, 0);
    shape(off, 32, 0, 1);
    run("32 lanes/word, 1 line", off, 32, 2, 1, 0);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
#endif
