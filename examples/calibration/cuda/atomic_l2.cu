// atomic_l2.cu - global atomics from many SMs on the same lines of the H100's
// L2: k lanes a word, 32 / k words of one line a step, 8 steps on 8 lines,
// B SMs (one block of W warps each) on their own lines or on the same ones.
// The kernel and its measurement are atomic_shape.cu's: cycles per warp
// atomic per SM = (t(2n) - t(n)) / (8 n W), from the slowest warp's clock64.
//   nvcc -O2 -arch=sm_90 atomic_l2.cu -o atomic_l2   (atomic_shape.cu beside it)
#define ATOMIC_SHAPE_KERNEL_ONLY
#include "atomic_shape.cu"   /* the kernel rate(), run() and shape() */

int main()
{
    cudaMalloc(&g_out, 132 * 1024 * sizeof(unsigned));
    cudaMalloc(&g_cyc, 132 * 32 * sizeof(long long));
    cudaMalloc(&g_word, 256 * sizeof(unsigned));
    cudaMalloc(&g_h, 132 * 16384 * sizeof(unsigned));
    unsigned off[256];
    static const int bs[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
    for (int k = 1; k <= 32; k *= 2) {
        char what[64];
        snprintf(what, sizeof what, "%d lanes/word, %d words/line", k, 32 / k);
        shape(off, k, 1, 32);
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < 8; i++)
                if (s || bs[i] > 1)
                    run(what, off, 32, 8, bs[i], s);
    }
    /* fewer warps: one SM's path not the limit */
    shape(off, 32, 0, 32);
    for (int i = 0; i < 8; i++)
        run("32 lanes/word, 1 word/line, W=2", off, 32, 2, bs[i], 1);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
