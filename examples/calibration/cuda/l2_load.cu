// l2_load.cu - the H100's L2 hit latency under load (docs/timing-model.md,
// "L2 under load").  Raw output: l2_load_h200.txt.
//
// Part 1, bursts: G blocks (one per SM: the dynamic shared memory lets one
// block fit) of W warps wait for one %globaltimer instant, then each warp
// issues K independent 128-byte line loads (32 lanes x 4 B, ld.global.cg:
// L2, not L1) of lines in L2 (read by an earlier launch) and reads %clock64
// before the first load and after their sum is ready.  Per config: the
// median, p10, p90 and max over every warp of 5 launches, with the burst's
// sectors (G x W x K x 4).  Each warp first makes one untimed load of
// another line (TLB and the kernel's constants warm).
//
// Part 2, steady load: one block on SM 0 chases a random cyclic chain of
// 128-byte lines (one 4-byte load at a time, ld.global.cg, 4 MB: L2 hits)
// while the blocks on SMs 1..N each run S warps that stream an 8 MB
// L2-resident buffer with 16-byte ld.global.cg loads, U independent loads
// a warp in flight, until the chase ends.  Per config: the chase's cycles
// a hop (median of 3 launches) and the streams' bytes per SM clock for the
// whole device (sum over warps of bytes / that warp's cycles).
//
// Part 3, what else a kernel's first loads pay: part 1's K = 2 bursts with
// and without the untimed first load (no-warmup: the burst is the warp's
// first global access) and with and without the %globaltimer alignment
// (unaligned: warps run as they start, as a kernel's do; no kernel
// parameter is read before the timed loads then, other than the burst's).
//   nvcc -O2 -arch=sm_90 l2_load.cu -o l2_load && ./l2_load [part]
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>

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
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
    return t;
}

__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

struct Rec { long long dt; unsigned sm; float v; };

template <int K, int WARMUP, int ALIGN>
__global__ void burst(const float *buf, const float *warm, unsigned long long *target, Rec *out)
{
    __shared__ unsigned long long t_sh;
    unsigned W = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned gw = blockIdx.x * W + warp;
    float w = WARMUP ? __ldcg(warm + (size_t)gw * 32 + lane) : 0.f;
    const float *p = buf + (size_t)gw * K * 32 + lane;
    if (ALIGN) {
        if (threadIdx.x == 0) {
            unsigned long long g = gtime() + 20000;   // 20 us: every block has started
            unsigned long long old = atomicCAS(target, 0ull, g);
            t_sh = old ? old : g;
        }
        __syncthreads();
        unsigned long long T = t_sh;
        while (gtime() < T)
            ;
    }
    long long t0 = clk();
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < K; j++)
        s += __ldcg(p + j * 32);
    long long t1 = 0;
    if (s != -12345.5f)
        t1 = clk();
    if (lane == 0)
        out[gw] = Rec{ t1 - t0, smid(), s + w };
}

struct Chase { long long cyc; int hops; unsigned sm; unsigned j; };
struct Flow { long long cyc; unsigned long long bytes; };

template <int U>
__global__ void loaded(const unsigned *chain, int hops, const uint4 *stream, unsigned n4,
                       unsigned nstream, unsigned swarps, volatile int *stop, Chase *ch,
                       Flow *fl, float *sink)
{
    unsigned sm = smid(), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (sm == 0) {
        if (threadIdx.x)
            return;
        unsigned j = 0;
        for (int i = 0; i < 64; i++)
            j = __ldcg(chain + j);
        long long t0 = clk();
        for (int i = 0; i < hops; i++)
            j = __ldcg(chain + j);
        long long t1 = clk();
        ch->cyc = t1 - t0;
        ch->hops = hops;
        ch->sm = sm;
        ch->j = j;
        __threadfence();
        *stop = 1;
        return;
    }
    if (sm > nstream || warp >= swarps)
        return;
    unsigned gw = (sm - 1) * swarps + warp;
    unsigned i = (gw * 4099u * 32u + lane) % n4;
    unsigned step = 32u * U;
    uint4 acc = make_uint4(0, 0, 0, 0);
    unsigned long long n = 0;
    long long t0 = clk();
    while (!*stop) {
        for (int r = 0; r < 16; r++) {
            uint4 v[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                v[u] = __ldcg(stream + (i + 32u * u) % n4);
#pragma unroll
            for (int u = 0; u < U; u++) {
                acc.x ^= v[u].x; acc.y += v[u].y; acc.z ^= v[u].z; acc.w += v[u].w;
            }
            i = (i + step) % n4;
            n += U;
        }
    }
    long long t1 = clk();
    if (lane == 0)
        fl[gw] = Flow{ t1 - t0, n * 32 * 16 };
    if (acc.x + acc.y + acc.z + acc.w == 0x12345u)
        sink[0] = 1.f;
}

static double pct(std::vector<long long> &v, double q)
{
    size_t k = (size_t)(q * (v.size() - 1) + 0.5);
    return (double)v[k];
}

template <int K, int WARMUP = 1, int ALIGN = 1>
static void run_burst(int G, int W, const float *buf, const float *warm, unsigned long long *tgt,
                      Rec *out, size_t smem)
{
    auto k = burst<K, WARMUP, ALIGN>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    std::vector<long long> all;
    std::vector<Rec> h(G * W);
    for (int l = 0; l < 6; l++) {
        CK(cudaMemset(tgt, 0, 8));
        k<<<G, W * 32, smem>>>(buf, warm, tgt, out);
        CK(cudaDeviceSynchronize());
        if (l == 0)
            continue;   // the first launch puts the lines in L2
        CK(cudaMemcpy(h.data(), out, h.size() * sizeof(Rec), cudaMemcpyDeviceToHost));
        for (auto &r : h)
            all.push_back(r.dt);
    }
    std::sort(all.begin(), all.end());
    printf("burst%s%s G %3d W %2d K %d sectors %6d : median %6.0f p10 %6.0f p90 %6.0f max %6.0f\n",
           WARMUP ? "" : " no-warmup", ALIGN ? "" : " unaligned", G, W, K, G * W * K * 4, pct(all, 0.5), pct(all, 0.1), pct(all, 0.9), pct(all, 1.0));
}

template <int U>
static void run_loaded(int nstream, int swarps, const unsigned *chain, const uint4 *stream,
                       unsigned n4, int *stop, Chase *ch, Flow *fl, float *sink, int nsm,
                       size_t smem)
{
    auto k = loaded<U>;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    std::vector<double> hop, bw;
    std::vector<Flow> h(nsm * 32);
    for (int l = 0; l < 4; l++) {
        CK(cudaMemset(stop, 0, 4));
        CK(cudaMemset(fl, 0, h.size() * sizeof(Flow)));
        k<<<nsm, 1024, smem>>>(chain, 1024, stream, n4, nstream, swarps, stop, ch, fl, sink);
        CK(cudaDeviceSynchronize());
        if (l == 0)
            continue;
        Chase c;
        CK(cudaMemcpy(&c, ch, sizeof c, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h.data(), fl, h.size() * sizeof(Flow), cudaMemcpyDeviceToHost));
        double b = 0;
        for (auto &f : h)
            if (f.cyc)
                b += (double)f.bytes / (double)f.cyc;
        hop.push_back((double)c.cyc / c.hops);
        bw.push_back(b);
    }
    std::sort(hop.begin(), hop.end());
    std::sort(bw.begin(), bw.end());
    printf("loaded SMs %3d warps %2d in-flight %d : chase %6.1f clk/hop (%.1f-%.1f) streams %7.1f B/clk\n",
           nstream, swarps, U, hop[1], hop[0], hop[2], bw[1]);
}

int main(int argc, char **argv)
{
    int part = argc > 1 ? atoi(argv[1]) : 0;
    int nsm = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    printf("# %s, %d SMs, L2 %d B\n", pr.name, nsm, pr.l2CacheSize);
    size_t smem = 160 * 1024;   // one block per SM
    float *buf, *warm, *sink;
    unsigned long long *tgt;
    Rec *out;
    CK(cudaMalloc(&buf, (size_t)nsm * 32 * 8 * 128));
    CK(cudaMemset(buf, 0, (size_t)nsm * 32 * 8 * 128));
    CK(cudaMalloc(&warm, (size_t)nsm * 32 * 128));
    CK(cudaMemset(warm, 0, (size_t)nsm * 32 * 128));
    CK(cudaMalloc(&tgt, 8));
    CK(cudaMalloc(&out, nsm * 32 * sizeof(Rec)));
    CK(cudaMalloc(&sink, 4));
    if (part == 0 || part == 1) {
        int Gs[] = { 1, 33, 66, nsm };
        int Ws[] = { 1, 2, 4, 8, 16, 32 };
        for (int G : Gs)
            for (int W : Ws) {
                run_burst<1>(G, W, buf, warm, tgt, out, smem);
                run_burst<2>(G, W, buf, warm, tgt, out, smem);
                run_burst<8>(G, W, buf, warm, tgt, out, smem);
            }
    }
    if (part == 0 || part == 3) {
        int Gs[] = { 1, nsm };
        for (int G : Gs)
            for (int W = 8; W <= 32; W *= 4) {
                run_burst<2, 1, 1>(G, W, buf, warm, tgt, out, smem);
                run_burst<2, 0, 1>(G, W, buf, warm, tgt, out, smem);
                run_burst<2, 1, 0>(G, W, buf, warm, tgt, out, smem);
                run_burst<2, 0, 0>(G, W, buf, warm, tgt, out, smem);
            }
    }
    if (part == 0 || part == 2) {
        const unsigned lines = (4u << 20) / 128;   // 4 MB chain
        std::vector<unsigned> perm(lines), chain_h(lines * 32, 0);
        for (unsigned i = 0; i < lines; i++)
            perm[i] = i;
        srand(12345);
        for (unsigned i = lines - 1; i > 0; i--)
            std::swap(perm[i], perm[rand() % (i + 1)]);
        for (unsigned i = 0; i < lines; i++)
            chain_h[perm[i] * 32] = perm[(i + 1) % lines] * 32;
        // the chain starts at word 0: make line 0 the first of the cycle
        unsigned *chain;
        CK(cudaMalloc(&chain, chain_h.size() * 4));
        CK(cudaMemcpy(chain, chain_h.data(), chain_h.size() * 4, cudaMemcpyHostToDevice));
        const unsigned n4 = (8u << 20) / 16;
        uint4 *stream;
        CK(cudaMalloc(&stream, (size_t)n4 * 16));
        CK(cudaMemset(stream, 1, (size_t)n4 * 16));
        int *stop;
        Chase *ch;
        Flow *fl;
        CK(cudaMalloc(&stop, 4));
        CK(cudaMalloc(&ch, sizeof(Chase)));
        CK(cudaMalloc(&fl, nsm * 32 * sizeof(Flow)));
        int Ns[] = { 0, 8, 16, 33, 66, 99, nsm - 1 };
        int Ss[] = { 1, 4, 8, 16, 32 };
        for (int N : Ns)
            for (int S : Ss) {
                if (N == 0 && S > 1)
                    continue;
                run_loaded<4>(N, S, chain, stream, n4, stop, ch, fl, sink, nsm, smem);
            }
        for (int N : Ns)
            if (N)
                run_loaded<1>(N, 32, chain, stream, n4, stop, ch, fl, sink, nsm, smem);
    }
    return 0;
}
