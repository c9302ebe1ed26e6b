// l1_across_launches.cu - does an SM's L1 keep global data from one kernel
// launch to the next?  (docs/timing-model.md, "Cache state across
// launches".)  Raw output: l1_across_launches_h200.txt.
//
// X: 16 KB, 128 lines of 128 bytes, word i*32 of line i holding the index of
// the next line (a chase through all 128 lines in a shuffled order).  The
// probe kernel runs 132 one-warp blocks (one per SM); lane 0 chases X twice
// with ld.global.ca (cached in L1), each address depending on the load
// before, reading %clock64 around every load.  Pass 1 is the first touch in
// the launch, pass 2 the same lines again (L1 hits: the calibration of what
// an L1 hit costs here).  Before the probe, one of:
//   flushed   a 256 MB write: X comes from DRAM
//   l2        a kernel on every SM reads X with ld.global.cg (L2 only)
//   l1        a kernel on every SM reads X with ld.global.ca (L2 and each
//             SM's L1)
//   again     the probe itself, just launched (its pass 2 left X in L1)
// Printed per state: the median over blocks of each pass's median load
// latency, p10 and p90 over blocks, and how many blocks ran on an SM that
// also ran a block of the kernel before (all do at one block per SM).
// If the L1 kept X, pass 1 in 'l1' and 'again' would load at pass 2's
// latency; if it is invalidated at the launch, at the 'l2' latency.
//   nvcc -O2 -arch=sm_90 l1_across_launches.cu -o l1al && ./l1al
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>

#define LINES 128
#define WORDS_PER_LINE 32
#define BLOCKS 132
#define REPS 7

__device__ __forceinline__ unsigned smid()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

__global__ void flush(int *f, size_t n)
{
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        f[i] = (int)i;
}

// every lane reads its words of every line (the whole of X), with .ca or .cg
template <bool CA>
__global__ void touch(const int *x, int *sink, unsigned *sm)
{
    int s = 0;
    for (int i = threadIdx.x; i < LINES * WORDS_PER_LINE; i += 32) {
        int v;
        if (CA)
            asm volatile("ld.global.ca.s32 %0, [%1];" : "=r"(v) : "l"(x + i));
        else
            asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(x + i));
        s += v;
    }
    if (threadIdx.x == 0) {
        sink[blockIdx.x] = s;
        sm[blockIdx.x] = smid();
    }
}

__global__ void probe(const int *x, unsigned *lat, unsigned *sm, int *sink)
{
    if (threadIdx.x != 0)
        return;
    int j = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < LINES; k++) {
            long long t0 = clock64();
            int v;
            asm volatile("ld.global.ca.s32 %0, [%1];" : "=r"(v) : "l"(x + j * WORDS_PER_LINE) : "memory");
            // in-order issue: the clock read waits behind the use of v
            asm volatile("mov.u32 %0, %1;" : "=r"(j) : "r"(v) : "memory");
            long long t1 = clock64();
            lat[(blockIdx.x * 2 + pass) * LINES + k] = (unsigned)(t1 - t0);
        }
    sink[blockIdx.x] = j;
    sm[blockIdx.x] = smid();
}

static unsigned med(std::vector<unsigned> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    int *x, *f, *sink;
    unsigned *lat, *sm0, *sm1;
    size_t fn = (256u << 20) / 4;
    cudaMalloc(&x, LINES * WORDS_PER_LINE * 4);
    cudaMalloc(&f, fn * 4);
    cudaMalloc(&sink, BLOCKS * 4 * 4);
    cudaMalloc(&lat, BLOCKS * 2 * LINES * 4);
    cudaMalloc(&sm0, BLOCKS * 4 * 4);
    cudaMalloc(&sm1, BLOCKS * 4);
    std::vector<int> h(LINES * WORDS_PER_LINE, 0), order(LINES);
    for (int i = 0; i < LINES; i++)
        order[i] = i;
    unsigned seed = 12345;
    for (int i = LINES - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        std::swap(order[i], order[(seed >> 8) % (i + 1)]);
    }
    for (int i = 0; i < LINES; i++)
        h[order[i] * WORDS_PER_LINE] = order[(i + 1) % LINES];
    cudaMemcpy(x, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device: %s, %d SMs, L2 %d B\n", p.name, p.multiProcessorCount, p.l2CacheSize);
    const char *names[4] = { "flushed", "l2", "l1", "again" };
    for (int st = 0; st < 4; st++) {
        std::vector<unsigned> p1, p2, p1min;
        int same = 0, total = 0;
        for (int r = 0; r < REPS; r++) {
            cudaMemset(sm0, 0xff, BLOCKS * 4 * 4);
            flush<<<1024, 256>>>(f, fn);
            if (st == 1)
                touch<false><<<BLOCKS * 4, 32>>>(x, sink, sm0);
            if (st == 2)
                touch<true><<<BLOCKS * 4, 32>>>(x, sink, sm0);
            if (st == 3)
                probe<<<BLOCKS, 32>>>(x, lat, sm0, sink);
            probe<<<BLOCKS, 32>>>(x, lat, sm1, sink);
            cudaDeviceSynchronize();
            std::vector<unsigned> l(BLOCKS * 2 * LINES), a(BLOCKS * 4), b(BLOCKS);
            cudaMemcpy(l.data(), lat, l.size() * 4, cudaMemcpyDeviceToHost);
            cudaMemcpy(a.data(), sm0, BLOCKS * 4 * 4, cudaMemcpyDeviceToHost);
            cudaMemcpy(b.data(), sm1, BLOCKS * 4, cudaMemcpyDeviceToHost);
            for (int bl = 0; bl < BLOCKS; bl++) {
                std::vector<unsigned> q1(l.begin() + (bl * 2) * LINES, l.begin() + (bl * 2 + 1) * LINES);
                std::vector<unsigned> q2(l.begin() + (bl * 2 + 1) * LINES, l.begin() + (bl * 2 + 2) * LINES);
                p1.push_back(med(q1));
                p2.push_back(med(q2));
                if (st >= 1) {
                    total++;
                    same += std::find(a.begin(), a.end(), b[bl]) != a.end();
                }
            }
        }
        std::vector<unsigned> s1 = p1, s2 = p2;
        std::sort(s1.begin(), s1.end());
        std::sort(s2.begin(), s2.end());
        size_t n = s1.size();
        printf("%-8s pass1 median %4u (p10 %4u p90 %4u)  pass2 median %4u (p10 %4u p90 %4u)  "
               "blocks on an SM the kernel before used: %d/%d\n",
               names[st], s1[n / 2], s1[n / 10], s1[n * 9 / 10], s2[n / 2], s2[n / 10],
               s2[n * 9 / 10], same, total);
    }
    cudaError_t e = cudaGetLastError();
    printf("cuda: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
