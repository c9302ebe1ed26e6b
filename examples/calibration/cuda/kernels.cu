// kernels.cu - whole multi-block kernels on a real GPU, to VALIDATE the
// nvidia-h100 config's predictions of entire NDRanges (docs/timing-model.md,
// "Whole kernels on a real H200").  Nothing in the model is fitted to these
// numbers.  Raw output: kernels_h200.txt.
//
// Each kernel is the CUDA twin of an sgemu bench/example kernel, with the same
// work per work-item, the same work-group size and the same NDRange (a warp is
// the sub-group of 32):
//   vector_add      examples/bench/vector_add.cl      c[i] = a[i] + b[i], local 256
//   alu_loop        examples/bench/alu_loop.cl        32 rounds of 16 int ops, local 256
//   local_reduce    examples/bench/local_reduce.cl    shared-memory tree + barriers, local 256
//   sg_reduce_scan  examples/bench/sg_reduce_scan.sgasm  redux.sync + 5 shuffle-up steps, local 256
//   shuffle_stencil examples/opencl/shuffle_stencil.cl   3 loads + two-source shuffles, local 256
//   gemm_us         examples/bench/gemm_us.sgasm      u16 GEMM, lane = column, K = 64, local 64x1
// Loops that sgemu runs as loops are loops here too (#pragma unroll 1).
//
// What is measured: every warp's lane 0 reads %clock64 and %globaltimer at
// its first instruction and again after its last store, with %smid.  Per
// launch: span_sm = max over SMs of (last warp end - first warp start on that
// SM), in SM cycles; span_g = (last end - first start over the whole grid) in
// globaltimer ns x the SM clock (measured here from clock64 / globaltimer over
// a 2 ms spin; nvidia-smi read 1980 MHz after each run).  Each kernel and size
// runs R = 15 times with the L2 flushed (a 256 MB write) before each launch
// ("cold": sgemu starts with empty caches) and 15 times back to back ("warm":
// the inputs already in L2); the median of each is printed.  docs/timing-model.md
// compares span_sm with sgemu's cycles.  The event time per launch
// (cudaEvents around 50 launches) of the uninstrumented kernel, the
// instrumented one and an empty kernel of the same grid shows what the stamps
// cost and what a launch costs.
//   nvcc -O2 -arch=sm_90 kernels.cu -o kernels && ./kernels
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <climits>

#define FULL 0xffffffffu
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ long long clk()
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
    return c;
}

__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long g;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory");
    return g;
}

// one stamp per warp: clock at start / end, globaltimer at start / end, smid
struct Stamp { long long c0, c1; unsigned long long g0, g1; unsigned sm, pad; };

#define T_BEGIN long long c0_ = 0; unsigned long long g0_ = 0; \
    if (TIMED) { c0_ = clk(); g0_ = gtime(); }
#define T_END(st) if (TIMED && (threadIdx.x & 31) == 0) { \
    long long c1_ = clk(); unsigned long long g1_ = gtime(); unsigned sm_; \
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm_)); \
    unsigned blk_ = blockIdx.y * gridDim.x + blockIdx.x; \
    unsigned w_ = blk_ * ((blockDim.x * blockDim.y + 31) / 32) \
        + (threadIdx.y * blockDim.x + threadIdx.x) / 32; \
    Stamp s_ = { c0_, c1_, g0_, g1_, sm_, 0 }; st[w_] = s_; }

template <bool TIMED>
__global__ void vector_add(const float *a, const float *b, float *c, unsigned n, Stamp *st)
{
    T_BEGIN
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
    T_END(st)
}

template <bool TIMED>
__global__ void alu_loop(unsigned *out, Stamp *st)
{
    T_BEGIN
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = i, y = 0x9e3779b9u;
#pragma unroll 1
    for (int k = 0; k < 32; k++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 13;
        y += y << 7;
        x ^= y;
        x = x * 22695477u + 1u;
        y ^= x >> 11;
        y -= y << 3;
        x ^= y;
        y += 0x7f4a7c15u;
        y |= x & 0xffffu;
        x ^= y;
    }
    out[i] = x;
    T_END(st)
}

template <bool TIMED>
__global__ void local_reduce(const int *in, int *out, Stamp *st)
{
    extern __shared__ int scratch[];           // the OpenCL local argument
    T_BEGIN
    unsigned lid = threadIdx.x;
    scratch[lid] = in[blockIdx.x * blockDim.x + lid];
    __syncthreads();
#pragma unroll 1
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] = (int)((unsigned)scratch[lid] + (unsigned)scratch[lid + s]);
        __syncthreads();
    }
    if (lid == 0)
        out[blockIdx.x] = scratch[0];
    T_END(st)
}

template <bool TIMED>
__global__ void sg_reduce_scan(const unsigned *in, unsigned *out, Stamp *st)
{
    T_BEGIN
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned v = in[i];
    unsigned r = __reduce_add_sync(FULL, v);   // redux.sync (collectives.reduce: hw)
    unsigned s = v;                            // logstep scan (collectives.scan)
#pragma unroll
    for (unsigned k = 1; k < 32; k <<= 1) {
        unsigned t = __shfl_up_sync(FULL, s, k);
        if (lane >= k)
            s += t;
    }
    out[i] = r + s;
    T_END(st)
}

template <bool TIMED>
__global__ void shuffle_stencil(const float *in, float *out, unsigned n, Stamp *st)
{
    T_BEGIN
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned m = 32;                           // get_max_sub_group_size()
    float cur = in[i];
    float prev = in[max((int)i - (int)m, 0)];
    float next = in[min(i + m, n - 1)];
    // intel_sub_group_shuffle_up(prev, cur, 1): lane l takes cur[l - 1], lane 0 prev[31]
    unsigned up = (lane + 31) & 31;
    float a = __shfl_sync(FULL, cur, up), b = __shfl_sync(FULL, prev, up);
    float left = lane >= 1 ? a : b;
    // intel_sub_group_shuffle_down(cur, next, 1): lane l takes cur[l + 1], lane 31 next[0]
    unsigned dn = (lane + 1) & 31;
    float c = __shfl_sync(FULL, cur, dn), d = __shfl_sync(FULL, next, dn);
    float right = lane < 31 ? c : d;
    out[i] = left + cur + right;
    T_END(st)
}

template <bool TIMED>
__global__ void gemm_us(const uint16_t *a, const uint16_t *b, unsigned *c, unsigned k,
                        unsigned n, Stamp *st)
{
    T_BEGIN
    unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned col0 = gx - lane;
    unsigned row0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
    unsigned c0 = 0, c1 = 0, c2 = 0, c3 = 0;
#pragma unroll 1
    for (unsigned k0 = 0; k0 < k; k0 += 32) {
        const uint16_t *ap = a + row0 * k + k0;    // block reads: lane l takes element l
        unsigned a0 = ap[lane], a1 = ap[k + lane], a2 = ap[2 * k + lane], a3 = ap[3 * k + lane];
        const uint16_t *bp = b + k0 * n + col0;
#pragma unroll 1
        for (unsigned kk = 0; kk < 32; kk++) {
            unsigned bv = bp[lane];
            c0 += __shfl_sync(FULL, a0, kk) * bv;
            c1 += __shfl_sync(FULL, a1, kk) * bv;
            c2 += __shfl_sync(FULL, a2, kk) * bv;
            c3 += __shfl_sync(FULL, a3, kk) * bv;
            bp += n;
        }
    }
    unsigned o = row0 * n + gx;
    c[o] = c0;
    c[o + n] = c1;
    c[o + 2 * n] = c2;
    c[o + 3 * n] = c3;
    T_END(st)
}

template <bool TIMED>
__global__ void empty(Stamp *st)
{
    T_BEGIN
    T_END(st)
}

__global__ void flush(uint4 *p, size_t n, unsigned v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = make_uint4(v, v, v, v);
}

__global__ void spin(long long *cyc, unsigned long long *ns, long long dur)
{
    long long c0 = clk();
    unsigned long long g0 = gtime();
    while (clk() - c0 < dur) {
    }
    long long c1 = clk();
    unsigned long long g1 = gtime();
    *cyc = c1 - c0;
    *ns = g1 - g0;
}

// ---------------------------------------------------------------- host
static uint4 *g_flush;
static const size_t FLUSH_N = (256u << 20) / 16;
static unsigned g_flush_v;
static double g_mhz;

struct Launch {
    const char *name;
    dim3 grid, block;
    size_t smem;
    void (*run)(const Launch &, Stamp *, bool timed);
    void *p[4];
    unsigned u[2];
};

static void run_vadd(const Launch &l, Stamp *st, bool t)
{
    if (t) vector_add<true><<<l.grid, l.block>>>((float *)l.p[0], (float *)l.p[1], (float *)l.p[2], l.u[0], st);
    else vector_add<false><<<l.grid, l.block>>>((float *)l.p[0], (float *)l.p[1], (float *)l.p[2], l.u[0], st);
}
static void run_alu(const Launch &l, Stamp *st, bool t)
{
    if (t) alu_loop<true><<<l.grid, l.block>>>((unsigned *)l.p[0], st);
    else alu_loop<false><<<l.grid, l.block>>>((unsigned *)l.p[0], st);
}
static void run_lred(const Launch &l, Stamp *st, bool t)
{
    if (t) local_reduce<true><<<l.grid, l.block, l.smem>>>((int *)l.p[0], (int *)l.p[1], st);
    else local_reduce<false><<<l.grid, l.block, l.smem>>>((int *)l.p[0], (int *)l.p[1], st);
}
static void run_sgrs(const Launch &l, Stamp *st, bool t)
{
    if (t) sg_reduce_scan<true><<<l.grid, l.block>>>((unsigned *)l.p[0], (unsigned *)l.p[1], st);
    else sg_reduce_scan<false><<<l.grid, l.block>>>((unsigned *)l.p[0], (unsigned *)l.p[1], st);
}
static void run_sten(const Launch &l, Stamp *st, bool t)
{
    if (t) shuffle_stencil<true><<<l.grid, l.block>>>((float *)l.p[0], (float *)l.p[1], l.u[0], st);
    else shuffle_stencil<false><<<l.grid, l.block>>>((float *)l.p[0], (float *)l.p[1], l.u[0], st);
}
static void run_gemm(const Launch &l, Stamp *st, bool t)
{
    if (t) gemm_us<true><<<l.grid, l.block>>>((uint16_t *)l.p[0], (uint16_t *)l.p[1], (unsigned *)l.p[2], l.u[0], l.u[1], st);
    else gemm_us<false><<<l.grid, l.block>>>((uint16_t *)l.p[0], (uint16_t *)l.p[1], (unsigned *)l.p[2], l.u[0], l.u[1], st);
}
static void run_empty(const Launch &l, Stamp *st, bool t)
{
    if (t) empty<true><<<l.grid, l.block>>>(st);
    else empty<false><<<l.grid, l.block>>>(st);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// per-launch spans from the stamps
static void spans(const std::vector<Stamp> &s, double *span_sm, double *span_g, double *skew)
{
    std::vector<long long> lo(1024, LLONG_MAX), hi(1024, LLONG_MIN);
    std::vector<unsigned long long> glo(1024, ULLONG_MAX);
    unsigned long long gmin = ULLONG_MAX, gmax = 0;
    for (const Stamp &x : s) {
        lo[x.sm] = std::min(lo[x.sm], x.c0);
        hi[x.sm] = std::max(hi[x.sm], x.c1);
        glo[x.sm] = std::min(glo[x.sm], x.g0);
        gmin = std::min(gmin, x.g0);
        gmax = std::max(gmax, x.g1);
    }
    long long m = 0;
    unsigned long long sk = 0;
    for (int i = 0; i < 1024; i++)
        if (hi[i] != LLONG_MIN) {
            m = std::max(m, hi[i] - lo[i]);
            sk = std::max(sk, glo[i] - gmin);
        }
    *span_sm = (double)m;
    *span_g = (double)(gmax - gmin) * g_mhz / 1000.0;
    *skew = (double)sk * g_mhz / 1000.0;
}

static void measure(const Launch &l, const char *size)
{
    const int R = 15;
    size_t warps = (size_t)l.grid.x * l.grid.y * ((l.block.x * l.block.y + 31) / 32);
    Stamp *dst;
    CK(cudaMalloc(&dst, warps * sizeof(Stamp)));
    std::vector<Stamp> h(warps);
    Launch e = l;
    e.run = run_empty;
    // event time per launch: plain, instrumented, empty grid
    cudaEvent_t ev0, ev1;
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    double ev[3];
    for (int v = 0; v < 3; v++) {
        const Launch &L = v == 2 ? e : l;
        bool t = v == 1;
        for (int i = 0; i < 5; i++)
            L.run(L, dst, t);
        std::vector<double> ms;
        for (int r = 0; r < 7; r++) {
            CK(cudaEventRecord(ev0));
            for (int i = 0; i < 50; i++)
                L.run(L, dst, t);
            CK(cudaEventRecord(ev1));
            CK(cudaEventSynchronize(ev1));
            float f;
            CK(cudaEventElapsedTime(&f, ev0, ev1));
            ms.push_back(f * 1000.0 / 50);
        }
        ev[v] = median(ms);
    }
    CK(cudaGetLastError());
    printf("%-16s %-22s grid %5ux%-3u block %3ux%u  event us/launch: plain %.3f timed %.3f empty %.3f\n",
           l.name, size, l.grid.x, l.grid.y, l.block.x, l.block.y, ev[0], ev[1], ev[2]);
    for (int cold = 1; cold >= 0; cold--) {
        std::vector<double> a, b, c;
        for (int r = 0; r < R; r++) {
            if (cold)
                flush<<<528, 512>>>(g_flush, FLUSH_N, ++g_flush_v);
            l.run(l, dst, true);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
            double s1, s2, s3;
            spans(h, &s1, &s2, &s3);
            a.push_back(s1);
            b.push_back(s2);
            c.push_back(s3);
        }
        printf("  %s raw span_sm:", cold ? "cold" : "warm");
        for (double x : a)
            printf(" %.0f", x);
        printf("\n  %s raw span_g :", cold ? "cold" : "warm");
        for (double x : b)
            printf(" %.0f", x);
        printf("\n  %s median span_sm %.0f  span_g %.0f  start skew %.0f cycles\n",
               cold ? "cold" : "warm", median(a), median(b), median(c));
        printf("RESULT %s %s %s span_sm %.0f span_g %.0f\n", l.name, size, cold ? "cold" : "warm",
               median(a), median(b));
    }
    CK(cudaFree(dst));
}

template <typename T>
static T *dev_rand(size_t n, unsigned seed, std::vector<T> *keep)
{
    std::vector<T> h(n);
    unsigned s = seed;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        h[i] = (T)(s >> 8);
    }
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    if (keep)
        *keep = h;
    return d;
}

static int bad = 0;
static void check(const char *what, bool ok)
{
    printf("check %-16s %s\n", what, ok ? "ok" : "WRONG");
    bad |= !ok;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs, L2 %d B, cc %d.%d\n", p.name, p.multiProcessorCount, p.l2CacheSize,
           p.major, p.minor);
    CK(cudaMalloc(&g_flush, FLUSH_N * 16));
    // bring the clock up, then measure it
    long long *dc;
    unsigned long long *dn;
    CK(cudaMalloc(&dc, 8));
    CK(cudaMalloc(&dn, 8));
    for (int i = 0; i < 200; i++)
        flush<<<528, 512>>>(g_flush, FLUSH_N, i);
    spin<<<1, 32>>>(dc, dn, 4000000);
    long long cyc;
    unsigned long long ns;
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&cyc, dc, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&ns, dn, 8, cudaMemcpyDeviceToHost));
    g_mhz = (double)cyc / (double)ns * 1000.0;
    printf("SM clock from clock64/globaltimer over %llu ns: %.1f MHz\n", ns, g_mhz);

    const unsigned WGS[3] = { 132, 1056, 4224 };      // 1 per SM, 8 per SM (one full wave), 4 waves
    const char *WGN[3] = { "132wg(1/SM)", "1056wg(8/SM)", "4224wg(4 waves)" };
    const size_t NMAX = 4224 * 256;
    std::vector<float> fa, fb;
    std::vector<unsigned> ua;
    std::vector<int> ia;
    float *A = dev_rand<float>(NMAX, 1, nullptr), *B = dev_rand<float>(NMAX, 2, nullptr), *C;
    unsigned *U = dev_rand<unsigned>(NMAX, 3, &ua), *UO;
    int *I = dev_rand<int>(NMAX, 4, &ia), *IO;
    CK(cudaMalloc(&C, NMAX * 4));
    CK(cudaMalloc(&UO, NMAX * 4));
    CK(cudaMalloc(&IO, NMAX * 4));
    // floats from random bits can be NaN: give the float inputs sane values
    {
        std::vector<float> h(NMAX);
        for (size_t i = 0; i < NMAX; i++)
            h[i] = (float)(ua[i] % 100000) / 64.0f;
        CK(cudaMemcpy(A, h.data(), NMAX * 4, cudaMemcpyHostToDevice));
        fa = h;
        for (size_t i = 0; i < NMAX; i++)
            h[i] = (float)(ia[i] % 1000) / 7.0f;
        CK(cudaMemcpy(B, h.data(), NMAX * 4, cudaMemcpyHostToDevice));
        fb = h;
    }

    // correctness, at the largest size
    {
        unsigned n = NMAX;
        std::vector<float> hc(n);
        std::vector<unsigned> hu(n);
        std::vector<int> hi(n);
        vector_add<false><<<n / 256, 256>>>(A, B, C, n, nullptr);
        CK(cudaMemcpy(hc.data(), C, n * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (unsigned i = 0; i < n; i++)
            ok &= hc[i] == fa[i] + fb[i];
        check("vector_add", ok);
        alu_loop<false><<<n / 256, 256>>>(UO, nullptr);
        CK(cudaMemcpy(hu.data(), UO, n * 4, cudaMemcpyDeviceToHost));
        ok = true;
        for (unsigned i = 0; i < n; i += 97) {
            unsigned x = i, y = 0x9e3779b9u;
            for (int k = 0; k < 32; k++) {
                x = x * 1664525u + 1013904223u; y ^= x >> 13; y += y << 7; x ^= y;
                x = x * 22695477u + 1u; y ^= x >> 11; y -= y << 3; x ^= y;
                y += 0x7f4a7c15u; y |= x & 0xffffu; x ^= y;
            }
            ok &= hu[i] == x;
        }
        check("alu_loop", ok);
        local_reduce<false><<<n / 256, 256, 1024>>>(I, IO, nullptr);
        CK(cudaMemcpy(hi.data(), IO, n / 256 * 4, cudaMemcpyDeviceToHost));
        ok = true;
        for (unsigned g = 0; g < n / 256; g++) {
            unsigned s = 0;
            for (unsigned j = 0; j < 256; j++)
                s += (unsigned)ia[g * 256 + j];
            ok &= (unsigned)hi[g] == s;
        }
        check("local_reduce", ok);
        sg_reduce_scan<false><<<n / 256, 256>>>(U, UO, nullptr);
        CK(cudaMemcpy(hu.data(), UO, n * 4, cudaMemcpyDeviceToHost));
        ok = true;
        for (unsigned w = 0; w < n / 32; w++) {
            unsigned r = 0, s = 0;
            for (unsigned j = 0; j < 32; j++)
                r += ua[w * 32 + j];
            for (unsigned j = 0; j < 32; j++) {
                s += ua[w * 32 + j];
                ok &= hu[w * 32 + j] == r + s;
            }
        }
        check("sg_reduce_scan", ok);
        shuffle_stencil<false><<<n / 256, 256>>>(A, C, n, nullptr);
        CK(cudaMemcpy(hc.data(), C, n * 4, cudaMemcpyDeviceToHost));
        ok = true;
        for (unsigned i = 0; i < n; i++) {
            float l = fa[i == 0 ? 0 : i - 1], r = fa[i + 1 < n ? i + 1 : n - 1];
            ok &= hc[i] == l + fa[i] + r;
        }
        check("shuffle_stencil", ok);
    }
    uint16_t *GA, *GB;
    unsigned *GC;
    const unsigned GK = 64, GN = 2048;
    std::vector<uint16_t> ga, gb;
    GA = dev_rand<uint16_t>((size_t)GN * GK, 5, &ga);
    GB = dev_rand<uint16_t>((size_t)GK * GN, 6, &gb);
    CK(cudaMalloc(&GC, (size_t)GN * GN * 4));
    {
        unsigned n = 256;
        gemm_us<false><<<dim3(n / 64, n / 4), dim3(64, 1)>>>(GA, GB, GC, GK, n, nullptr);
        std::vector<unsigned> hc((size_t)n * n);
        CK(cudaMemcpy(hc.data(), GC, hc.size() * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (unsigned r = 0; r < n; r++)
            for (unsigned c = 0; c < n; c++) {
                unsigned s = 0;
                for (unsigned k = 0; k < GK; k++)
                    s += (unsigned)ga[r * GK + k] * gb[k * n + c];
                ok &= hc[r * n + c] == s;
            }
        check("gemm_us", ok);
    }
    CK(cudaGetLastError());

    for (int s = 0; s < 3; s++) {
        unsigned n = WGS[s] * 256;
        Launch L;
        memset(&L, 0, sizeof L);
        L.grid = dim3(WGS[s]);
        L.block = dim3(256);
        L.u[0] = n;
        L.name = "vector_add"; L.run = run_vadd; L.p[0] = A; L.p[1] = B; L.p[2] = C;
        measure(L, WGN[s]);
        L.name = "alu_loop"; L.run = run_alu; L.p[0] = UO;
        measure(L, WGN[s]);
        L.name = "local_reduce"; L.run = run_lred; L.p[0] = I; L.p[1] = IO; L.smem = 1024;
        measure(L, WGN[s]);
        L.smem = 0;
        L.name = "sg_reduce_scan"; L.run = run_sgrs; L.p[0] = U; L.p[1] = UO;
        measure(L, WGN[s]);
        L.name = "shuffle_stencil"; L.run = run_sten; L.p[0] = A; L.p[1] = C;
        measure(L, WGN[s]);
    }
    const unsigned GNS[3] = { 512, 1024, 2048 };       // 1024, 4096, 16384 work-groups of 64
    for (int s = 0; s < 3; s++) {
        unsigned n = GNS[s];
        Launch L;
        memset(&L, 0, sizeof L);
        L.grid = dim3(n / 64, n / 4);
        L.block = dim3(64, 1);
        L.name = "gemm_us"; L.run = run_gemm; L.p[0] = GA; L.p[1] = GB; L.p[2] = GC;
        L.u[0] = GK; L.u[1] = n;
        char nm[32];
        snprintf(nm, sizeof nm, "N=%u(%uwg)", n, n / 64 * (n / 4));
        measure(L, nm);
    }
    spin<<<1, 32>>>(dc, dn, 4000000);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&cyc, dc, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&ns, dn, 8, cudaMemcpyDeviceToHost));
    printf("SM clock at the end: %.1f MHz\n", (double)cyc / (double)ns * 1000.0);
    CK(cudaGetLastError());
    return bad;
}
