// l2_host_write.cu - is data the host has just written to the device in the
// L2 when the next kernel starts?  (docs/timing-model.md, "Host-written
// data and the L2".)  Raw output: l2_host_write_h200.txt.
//
// Part 1, vector_add (the kernels.cu twin, c[i] = a[i] + b[i], 256 threads a
// block) at 132 blocks (one per SM, 135 KB an input) and 4224 blocks (four
// waves, 4.3 MB an input), in these states, each after a 256 MB flush write
// (the flushed state of kernels.cu) unless said otherwise:
//   flushed        nothing more: the inputs come from DRAM
//   copied         cudaMemcpy H2D of a and b from pageable host memory
//   copied-pinned  the same from page-locked host memory
//   memset         cudaMemset of a and b
//   kernel-written a kernel on the SMs writes a and b
//   warm           no flush: back-to-back launches (the inputs in L2)
// and no launch between the last write and the timed kernel.  Lane 0 of each
// warp reads %clock64 at its first instruction, before its two loads, after
// their sum is ready and after its store.  Per launch: span_sm (max over SMs
// of last warp end - first warp start, as kernels.cu) and the median over
// warps of load-to-use (both loads in flight).  Median of R launches.
//
// Part 2, residency map: a buffer of f x L2 (f = 1/4, 1/2, 1, 2) written by
// the host (pageable cudaMemcpy; at 2 x L2 also pinned, device-to-device
// cudaMemcpy, cudaMemset and a kernel), then 132 one-warp blocks each read a
// contiguous slice of it, one 4-byte word every 16 KB, one load at a time
// (each load's address depends on the one before), timing each load.
// Printed per 1/16 of the buffer (in address order, which is the order
// cudaMemcpy writes it): the median latency and the share of loads under
// 420 cycles, with a histogram.  Calibration on the 1/4 buffer: flushed (all
// misses), read twice (the second pass hits) and kernel-written.
// Part 3: the same for every 128-byte line of 256 KB, 1 MB and 4 MB, in each
// state, and copied then 400000 cycles (about 200 us) of a one-warp spin
// kernel before the probe.
//   ./l2hw runs all parts, ./l2hw 1 part 1, ./l2hw 2 parts 2 and 3.
//   nvcc -O2 -arch=sm_90 l2_host_write.cu -o l2hw && ./l2hw
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <climits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ long long clk()
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    return c;
}

struct Stamp { long long c0, l0, l1, c1; unsigned sm, pad; };

__global__ void vadd(const float *a, const float *b, float *c, unsigned n, Stamp *st)
{
    long long c0 = clk();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    long long l0 = clk();
    float x = a[i], y = b[i];
    float s = x + y;
    long long l1 = 0;
    if (s != -12345.5f)
        l1 = clk();
    c[i] = s;
    long long c1 = clk();
    if ((threadIdx.x & 31) == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        Stamp t = { c0, l0, l1, c1, sm, 0 };
        st[i / 32] = t;
    }
}

__global__ void fill(uint4 *p, size_t n, unsigned v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_uint4(v, v, v, v);
}

// one warp per block, lane 0 reads its slice's samples one after another
__global__ void probe(const unsigned *p, unsigned samples, unsigned stride_words, unsigned *lat)
{
    if (threadIdx.x != 0)
        return;
    unsigned s0 = (unsigned)((unsigned long long)samples * blockIdx.x / gridDim.x);
    unsigned s1 = (unsigned)((unsigned long long)samples * (blockIdx.x + 1) / gridDim.x);
    size_t idx = (size_t)s0 * stride_words;
    for (unsigned s = s0; s < s1; s++) {
        long long t0 = clk();
        unsigned v = p[idx];
        long long t1 = 0;
        if (v != 0u)
            t1 = clk();
        lat[s] = (unsigned)(t1 - t0);
        idx += stride_words + (v == 0u);
    }
}

static uint4 *g_flush;
static const size_t FLUSH_N = (256u << 20) / 16;
static unsigned g_v;
static size_t g_L2;

static void flush()
{
    fill<<<528, 512>>>(g_flush, FLUSH_N, ++g_v);
}

template <typename T>
static T pct(std::vector<T> v, double q)
{
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(q * v.size()))];
}


__global__ void spin(long long dur)
{
    long long c0 = clk();
    while (clk() - c0 < dur) {
    }
}

// ---- parts 2 and 3: which lines of a host-written buffer are in L2
enum How { PAGEABLE, PINNED, MEMSET_, KERNEL, FLUSHED_, READ_TWICE, D2D, NHOW };
static const char *HNAME[NHOW] = { "copied", "copied-pinned", "memset", "kernel-written", "flushed",
                                   "read-twice", "copied-d2d" };
static const unsigned THR = 420;
static std::vector<unsigned> g_hbig;
static unsigned *g_pbig, *g_big, *g_src, *g_lat;

static void resid(How how, size_t bytes, unsigned stride, long long spin_cycles, int bins)
{
    unsigned samples = (unsigned)(bytes / stride);
    flush();
    if (how == PAGEABLE)
        CK(cudaMemcpy(g_big, g_hbig.data(), bytes, cudaMemcpyHostToDevice));
    else if (how == PINNED)
        CK(cudaMemcpy(g_big, g_pbig, bytes, cudaMemcpyHostToDevice));
    else if (how == MEMSET_)
        CK(cudaMemset(g_big, 0x01, bytes));
    else if (how == KERNEL)
        fill<<<528, 512>>>((uint4 *)g_big, bytes / 16, 0x01010101u);
    else if (how == D2D)
        CK(cudaMemcpy(g_big, g_src, bytes, cudaMemcpyDeviceToDevice));
    else if (how == READ_TWICE)
        probe<<<132, 32>>>(g_big, samples, stride / 4, g_lat);
    if (spin_cycles)
        spin<<<1, 32>>>(spin_cycles);
    probe<<<132, 32>>>(g_big, samples, stride / 4, g_lat);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> hl(samples);
    CK(cudaMemcpy(hl.data(), g_lat, samples * 4, cudaMemcpyDeviceToHost));
    unsigned hit = 0, hist[17] = { 0 };
    for (unsigned x : hl) {
        hit += x < THR;
        hist[std::min(16u, x / 50)]++;
    }
    printf("residency %-14s %10zu B (%5.3f x L2), every %5u B, then %7lld cycles' wait: p10 %u p50 %u p90 %u, under %u: %.1f%%\n",
           HNAME[how], bytes, (double)bytes / g_L2, stride, spin_cycles, pct(hl, 0.1), pct(hl, 0.5),
           pct(hl, 0.9), THR, 100.0 * hit / samples);
    printf("  histogram, 50-cycle bins from 0 (last: 800 and more):");
    for (int b = 0; b < 17; b++)
        printf(" %u", hist[b]);
    printf("\n  per 1/%d of the buffer in address order, median / %% under %u:", bins, THR);
    for (int b = 0; b < bins; b++) {
        std::vector<unsigned> part(hl.begin() + (size_t)samples * b / bins,
                                   hl.begin() + (size_t)samples * (b + 1) / bins);
        unsigned k = 0;
        for (unsigned x : part)
            k += x < THR;
        printf(" %u/%.0f", pct(part, 0.5), 100.0 * k / part.size());
    }
    printf("\n");
}

static void part_2_3()
{
    const size_t BIG = 2 * g_L2;
    g_hbig.resize(BIG / 4);
    for (size_t i = 0; i < g_hbig.size(); i++)
        g_hbig[i] = (unsigned)i | 1u;             // never 0: the probe's chain adds (v == 0)
    CK(cudaMallocHost(&g_pbig, BIG));
    memcpy(g_pbig, g_hbig.data(), BIG);
    CK(cudaMalloc(&g_big, BIG));
    CK(cudaMalloc(&g_src, BIG));
    CK(cudaMemcpy(g_src, g_hbig.data(), BIG, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&g_lat, (BIG / 128 + 1) * 4));
    fill<<<528, 512>>>((uint4 *)g_big, BIG / 16, 0x01010101u);
    // part 2: a word every 16 KB of f x L2
    const size_t Q = g_L2 / 4;
    resid(FLUSHED_, Q, 16384, 0, 16);
    resid(READ_TWICE, Q, 16384, 0, 16);
    resid(KERNEL, Q, 16384, 0, 16);
    for (double f : { 0.25, 0.5, 1.0, 2.0 })
        resid(PAGEABLE, (size_t)(f * g_L2), 16384, 0, 16);
    resid(PINNED, BIG, 16384, 0, 16);
    resid(D2D, BIG, 16384, 0, 16);
    resid(MEMSET_, BIG, 16384, 0, 16);
    resid(KERNEL, BIG, 16384, 0, 16);
    // part 3: every line of small buffers
    for (size_t kb : { 256, 1024, 4096 }) {
        for (How h : { FLUSHED_, READ_TWICE, PAGEABLE, PINNED, D2D, MEMSET_, KERNEL })
            resid(h, kb << 10, 128, 0, 8);
        resid(PAGEABLE, kb << 10, 128, 400000, 8);
    }
}

enum State { FLUSHED, COPIED, COPIED_PINNED, MEMSET, KERNEL_WRITTEN, WARM, NSTATE };
static const char *SNAME[NSTATE] = { "flushed", "copied", "copied-pinned", "memset", "kernel-written", "warm" };

int main(int argc, char **argv)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_L2 = p.l2CacheSize;
    printf("device: %s, %d SMs, L2 %zu B, persisting L2 max %d B, cc %d.%d\n", p.name,
           p.multiProcessorCount, g_L2, p.persistingL2CacheMaxSize, p.major, p.minor);
    CK(cudaMalloc(&g_flush, FLUSH_N * 16));
    for (int i = 0; i < 200; i++)                 // bring the clock up
        flush();
    CK(cudaDeviceSynchronize());

    bool part1 = argc < 2 || atoi(argv[1]) == 1, part2 = argc < 2 || atoi(argv[1]) == 2;
    if (!part1)
        goto rest;
    {
    // ---- part 1
    const unsigned NMAX = 4224 * 256;
    std::vector<float> ha(NMAX), hb(NMAX);
    for (unsigned i = 0; i < NMAX; i++) {
        ha[i] = (float)(i % 1000) / 8.0f;
        hb[i] = (float)(i % 777) / 4.0f;
    }
    float *pa, *pb;
    CK(cudaMallocHost(&pa, NMAX * 4));
    CK(cudaMallocHost(&pb, NMAX * 4));
    memcpy(pa, ha.data(), NMAX * 4);
    memcpy(pb, hb.data(), NMAX * 4);
    float *A, *B, *C;
    CK(cudaMalloc(&A, NMAX * 4));
    CK(cudaMalloc(&B, NMAX * 4));
    CK(cudaMalloc(&C, NMAX * 4));
    Stamp *dst;
    CK(cudaMalloc(&dst, NMAX / 32 * sizeof(Stamp)));
    const unsigned GRIDS[2] = { 132, 4224 };
    const int R = 9;
    for (int g = 0; g < 2; g++) {
        unsigned n = GRIDS[g] * 256, warps = n / 32;
        std::vector<Stamp> h(warps);
        for (int s = 0; s < NSTATE; s++) {
            std::vector<double> span, lmed, lp10, lp90;
            for (int r = 0; r < R + (s == WARM); r++) {
                if (s != WARM)
                    flush();
                if (s == COPIED) {
                    CK(cudaMemcpy(A, ha.data(), n * 4, cudaMemcpyHostToDevice));
                    CK(cudaMemcpy(B, hb.data(), n * 4, cudaMemcpyHostToDevice));
                } else if (s == COPIED_PINNED) {
                    CK(cudaMemcpy(A, pa, n * 4, cudaMemcpyHostToDevice));
                    CK(cudaMemcpy(B, pb, n * 4, cudaMemcpyHostToDevice));
                } else if (s == MEMSET) {
                    CK(cudaMemset(A, 0x3f, n * 4));
                    CK(cudaMemset(B, 0x3e, n * 4));
                } else if (s == KERNEL_WRITTEN) {
                    fill<<<132, 256>>>((uint4 *)A, n / 4, 0x3f000000u);
                    fill<<<132, 256>>>((uint4 *)B, n / 4, 0x3e000000u);
                }
                vadd<<<GRIDS[g], 256>>>(A, B, C, n, dst);
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
                if (s == WARM && r == 0)
                    continue;                    // the first launch of the warm series warms
                std::vector<long long> lo(1024, LLONG_MAX), hi(1024, LLONG_MIN);
                std::vector<double> lat;
                for (const Stamp &x : h) {
                    lo[x.sm] = std::min(lo[x.sm], x.c0);
                    hi[x.sm] = std::max(hi[x.sm], x.c1);
                    lat.push_back((double)(x.l1 - x.l0));
                }
                long long m = 0;
                for (int k = 0; k < 1024; k++)
                    if (hi[k] != LLONG_MIN)
                        m = std::max(m, hi[k] - lo[k]);
                span.push_back((double)m);
                lmed.push_back(pct(lat, 0.5));
                lp10.push_back(pct(lat, 0.1));
                lp90.push_back(pct(lat, 0.9));
            }
            printf("vadd %4u blocks %-14s span_sm median %6.0f (min %6.0f max %6.0f)  load-to-use over warps: p10 %4.0f p50 %4.0f p90 %4.0f\n",
                   GRIDS[g], SNAME[s], pct(span, 0.5), pct(span, 0.0), pct(span, 1.0), pct(lp10, 0.5),
                   pct(lmed, 0.5), pct(lp90, 0.5));
            printf("  raw span_sm:");
            for (double x : span)
                printf(" %.0f", x);
            printf("\n");
        }
    }
    {
        std::vector<float> hc(NMAX);
        CK(cudaMemcpy(A, ha.data(), NMAX * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(B, hb.data(), NMAX * 4, cudaMemcpyHostToDevice));
        vadd<<<4224, 256>>>(A, B, C, NMAX, dst);
        CK(cudaMemcpy(hc.data(), C, NMAX * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (unsigned i = 0; i < NMAX; i++)
            ok &= hc[i] == ha[i] + hb[i];
        printf("check vadd %s\n", ok ? "ok" : "WRONG");
    }
    }
rest:

    if (part2)
        part_2_3();
    CK(cudaGetLastError());
    return 0;
}
