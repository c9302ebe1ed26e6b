// warm_start.cu - what a warm kernel's first loads pay beyond the L2 hit
// (docs/timing-model.md, "Warm launch").  Raw output: warm_start_h200.txt,
// SASS: warm_start_sass.txt.
//
// vector_add on back-to-back launches (the inputs in L2: the "warm" state
// of l2_host_write.cu) takes 431 cycles of load-to-use at one block per
// SM, where one warp's L2 hit takes 279-300.  Each mode below is the same
// kernel, 256 threads a block, with lane 0 of each warp reading %clock64
// at points that separate what the first loads of a launch could wait on:
//   ref       the l2_host_write.cu twin: c0, i = blockIdx*blockDim+tid,
//             l0, the loads a[i] and b[i], l1 (after their sum), store, c1
//   split     c0; i = blockIdx*256+tid (no blockDim), ts after i is ready
//             (the S2R reads); pa, pb from the parameters, ta after they
//             are ready (the first constant-bank reads); l0, loads, l1
//   bdim      split with blockDim.x in i (c[0x0][0x0] read for ts)
//   second    split, then a second pair of loads (other lines of the same
//             buffers, same pages, in L2): l2 before, l3 after their sum
//   loop      split with both pairs in a 2-trip loop (#pragma unroll 1):
//             the second trip runs the same instructions again
//   samepage  split, then an untimed load of a line of the same 2 MB page
//             as a[i] (waited for: tw), then l0, loads, l1
//   otherpage the same, the untimed load to another allocation's page
// All lines loaded are loaded by the launch before too (in L2), the lines
// of a launch are distinct (no merging between warps), and every launch
// is warm: 1 + R back-to-back launches per mode and grid, the first
// dropped.  Grids: 1 block of 32 threads (one warp on an idle GPU), 132
// blocks (one per SM), 1056 (eight per SM).  Per launch the median over
// warps of each interval; printed: the median over the R launches (and of
// the p10 and p90 over warps).
// Part 2 (./warm_start 2): split at G x T, c0 -> ta and l0 -> l1 (its G x 32
// rows with G > 1 were taken when the stamps' index assumed 256-thread
// blocks; superseded by part 4).  Part 3 (./warm_start 3): every warp's
// stamps of split and ref at 1056 x 256, raw.  Part 4 (./warm_start 4):
// split, the parameters' arrival against the warps fetching at once: per
// warp c0 -> ta, per SM its last warp's ta - its first warp's c0, at 1 to
// 264 blocks of 32 to 1024 threads; then every warp's stamps at 132 x 256.
//   nvcc -O2 -arch=sm_90 warm_start.cu -o warm_start && ./warm_start [part]
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

struct Stamp { long long c0, ts, ta, tw, l0, l1, l2, l3, c1; unsigned sm, pad; };

enum Mode { REF, SPLIT, BDIM, SECOND, LOOP, SAMEPAGE, OTHERPAGE, NMODE };
static const char *MNAME[NMODE] = { "ref", "split", "bdim", "second", "loop", "samepage", "otherpage" };

#define MAGIC (-12345.5f)
// off2: floats from a pair's first lines to its second lines; pageoff: to
// the untimed load's line in the same page
template <int MODE>
__global__ void probe(const float *a, const float *b, float *c, const float *far, unsigned off2,
                      unsigned pageoff, Stamp *st)
{
    long long c0 = clk(), ts = 0, ta = 0, tw = 0, l0 = 0, l1 = 0, l2 = 0, l3 = 0;
    float s;
    unsigned i;
    if (MODE == REF) {
        i = blockIdx.x * blockDim.x + threadIdx.x;
        l0 = clk();
        float x = a[i], y = b[i];
        s = x + y;
        if (s != MAGIC)
            l1 = clk();
    } else {
        if (MODE == BDIM)
            i = blockIdx.x * blockDim.x + threadIdx.x;
        else
            i = blockIdx.x * 256u + threadIdx.x;
        if (i != 0xffffffffu)
            ts = clk();
        const float *pa = a + i, *pb = b + i;
        if (((uintptr_t)pa ^ (uintptr_t)pb) != 1u)
            ta = clk();
        float w = 0.f;
        if (MODE == SAMEPAGE || MODE == OTHERPAGE) {
            w = MODE == SAMEPAGE ? pa[pageoff] : far[i];
            if (w != MAGIC)
                tw = clk();
        }
        if (MODE == LOOP) {
            s = 0.f;
            long long t[4];
#pragma unroll 1
            for (int k = 0; k < 2; k++) {
                long long u0 = clk(), u1 = 0;
                float x = pa[k * off2], y = pb[k * off2];
                float r = x + y;
                if (r != MAGIC)
                    u1 = clk();
                t[2 * k] = u0;
                t[2 * k + 1] = u1;
                s += r;
            }
            l0 = t[0]; l1 = t[1]; l2 = t[2]; l3 = t[3];
        } else {
            l0 = clk();
            float x = pa[0], y = pb[0];
            s = x + y;
            if (s != MAGIC)
                l1 = clk();
            if (MODE == SECOND) {
                l2 = clk();
                float x2 = pa[off2], y2 = pb[off2];
                float s2 = x2 + y2;
                if (s2 != MAGIC)
                    l3 = clk();
                s += s2;
            }
        }
        s += w;
    }
    c[i] = s;
    long long c1 = clk();
    if ((threadIdx.x & 31) == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        st[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = Stamp{ c0, ts, ta, tw, l0, l1, l2, l3, c1, sm, 0 };
    }
}

typedef void (*Kern)(const float *, const float *, float *, const float *, unsigned, unsigned, Stamp *);
static const Kern KERN[NMODE] = { probe<REF>, probe<SPLIT>, probe<BDIM>, probe<SECOND>, probe<LOOP>,
                                  probe<SAMEPAGE>, probe<OTHERPAGE> };

static double pct(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(q * v.size()))];
}

int main(int argc, char **argv)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs, cc %d.%d\n", p.name, p.multiProcessorCount, p.major, p.minor);
    // one pool, 2 MB-aligned regions: a at 0, b at 4 MB, far at 8 MB, c at 12 MB
    char *pool;
    CK(cudaMalloc(&pool, 20u << 20));
    char *base = (char *)(((uintptr_t)pool + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
    float *A = (float *)base, *B = (float *)(base + (4u << 20)), *F = (float *)(base + (8u << 20));
    float *C = (float *)(base + (12u << 20));
    CK(cudaMemset(base, 0, 16u << 20));
    Stamp *dst;
    CK(cudaMalloc(&dst, 1056 * 8 * sizeof(Stamp)));
    for (int k = 0; k < 200; k++)                 // bring the clock up
        probe<REF><<<1056, 256>>>(A, B, C, F, 0, 0, dst);
    CK(cudaDeviceSynchronize());

    const int R = 9;
    if (argc > 1 && atoi(argv[1]) == 4) {
        // part 4: split, the parameters' arrival against the warps that
        // fetch them at once: per warp c0 -> ta; per SM, its last warp's ta
        // - its first warp's c0 (median and max over SMs); median of R
        const unsigned G4[] = { 1, 1, 1, 1, 1, 1, 33, 66, 132, 132, 132, 132, 132, 264 };
        const unsigned T4[] = { 32, 64, 128, 256, 512, 1024, 256, 256, 32, 64, 128, 256, 512, 32 };
        for (int g = 0; g < 14; g++) {
            unsigned warps = G4[g] * T4[g] / 32;
            std::vector<Stamp> h(warps);
            std::vector<double> q[7];
            for (int r = 0; r <= R; r++) {
                probe<SPLIT><<<G4[g], T4[g]>>>(A, B, C, F, 65536, 0, dst);
                CK(cudaDeviceSynchronize());
                if (r == 0)
                    continue;
                CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
                std::vector<double> v, smlast;
                std::vector<long long> lo(1024, INT64_MAX), hi(1024, INT64_MIN);
                for (const Stamp &x : h) {
                    v.push_back((double)(x.ta - x.c0));
                    lo[x.sm] = std::min(lo[x.sm], x.c0);
                    hi[x.sm] = std::max(hi[x.sm], x.ta);
                }
                for (int k = 0; k < 1024; k++)
                    if (hi[k] != INT64_MIN)
                        smlast.push_back((double)(hi[k] - lo[k]));
                q[0].push_back(pct(v, 0.0));
                q[1].push_back(pct(v, 0.1));
                q[2].push_back(pct(v, 0.5));
                q[3].push_back(pct(v, 0.9));
                q[4].push_back(pct(v, 1.0));
                q[5].push_back(pct(smlast, 0.5));
                q[6].push_back(pct(smlast, 1.0));
            }
            printf("split grid %4u x %4u: c0->ta min %.0f p10 %.0f p50 %.0f p90 %.0f max %.0f   per SM last ta - first c0: median %.0f max %.0f\n",
                   G4[g], T4[g], pct(q[0], 0.5), pct(q[1], 0.5), pct(q[2], 0.5), pct(q[3], 0.5), pct(q[4], 0.5),
                   pct(q[5], 0.5), pct(q[6], 0.5));
        }
        // the last of 1 + R launches at 132 x 256, every warp, raw
        for (int m : { SPLIT, REF }) {
            std::vector<Stamp> h(132 * 8);
            for (int r = 0; r <= R; r++)
                KERN[m]<<<132, 256>>>(A, B, C, F, 65536, 0, dst);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), dst, h.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
            printf("# %s 132 x 256: warp sm c0 ts ta l0 l1 c1\n", MNAME[m]);
            for (size_t w = 0; w < h.size(); w++)
                printf("%zu %u %lld %lld %lld %lld %lld %lld\n", w, h[w].sm, h[w].c0, h[w].ts, h[w].ta, h[w].l0,
                       h[w].l1, h[w].c1);
        }
        return 0;
    }
    if (argc > 1 && atoi(argv[1]) == 3) {
        // part 3: every warp's stamps of the last of 1 + R warm launches of
        // split and ref at 1056 x 256 (eight blocks per SM), raw
        for (int m : { SPLIT, REF }) {
            std::vector<Stamp> h(1056 * 8);
            for (int r = 0; r <= R; r++)
                KERN[m]<<<1056, 256>>>(A, B, C, F, 270336, 0, dst);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), dst, h.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
            printf("# %s 1056 x 256: warp sm c0 ts ta l0 l1 c1\n", MNAME[m]);
            for (size_t w = 0; w < h.size(); w++)
                printf("%zu %u %lld %lld %lld %lld %lld %lld\n", w, h[w].sm, h[w].c0, h[w].ts, h[w].ta, h[w].l0,
                       h[w].l1, h[w].c1);
        }
        return 0;
    }
    if (argc > 1 && atoi(argv[1]) == 2) {
        // part 2: split alone, c0 -> ta (the parameters' arrival) and the
        // loads, against how many SMs and warps start at once
        const unsigned G2[] = { 1, 2, 4, 8, 16, 33, 66, 132, 264, 1, 132, 1056 };
        const unsigned T2[] = { 32, 32, 32, 32, 32, 32, 32, 32, 32, 256, 256, 256 };
        for (int g = 0; g < 12; g++) {
            unsigned n = G2[g] * T2[g], warps = n / 32;
            std::vector<Stamp> h(warps);
            std::vector<double> q[5], lu[3];
            for (int r = 0; r <= R; r++) {
                probe<SPLIT><<<G2[g], T2[g]>>>(A, B, C, F, 65536, 0, dst);
                CK(cudaDeviceSynchronize());
                if (r == 0)
                    continue;
                CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
                std::vector<double> v, l;
                for (const Stamp &x : h) {
                    v.push_back((double)(x.ta - x.c0));
                    l.push_back((double)(x.l1 - x.l0));
                }
                q[0].push_back(pct(v, 0.0));
                q[1].push_back(pct(v, 0.1));
                q[2].push_back(pct(v, 0.5));
                q[3].push_back(pct(v, 0.9));
                q[4].push_back(pct(v, 1.0));
                lu[0].push_back(pct(l, 0.1));
                lu[1].push_back(pct(l, 0.5));
                lu[2].push_back(pct(l, 0.9));
            }
            printf("split grid %4u x %3u: c0->ta min %.0f p10 %.0f p50 %.0f p90 %.0f max %.0f   l0->l1 p10 %.0f p50 %.0f p90 %.0f\n",
                   G2[g], T2[g], pct(q[0], 0.5), pct(q[1], 0.5), pct(q[2], 0.5), pct(q[3], 0.5), pct(q[4], 0.5),
                   pct(lu[0], 0.5), pct(lu[1], 0.5), pct(lu[2], 0.5));
        }
        return 0;
    }
    const unsigned GRID[3] = { 1, 132, 1056 }, BLOCK[3] = { 32, 256, 256 };
    for (int g = 0; g < 3; g++) {
        unsigned n = GRID[g] * BLOCK[g], warps = n / 32;
        // second lines right after the first ones; the untimed line 1 MB on (same 2 MB page)
        unsigned off2 = n < 65536 ? 65536 : n, pageoff = 1u << 18;
        std::vector<Stamp> h(warps);
        for (int m = 0; m < NMODE; m++) {
            const char *IV[8] = { "c0->ts", "ts->ta", "ta->l0", "l0->l1", "l2->l3", "l1->c1", "c0->l0", "span_sm" };
            std::vector<double> med[8], p10[8], p90[8];
            for (int r = 0; r <= R; r++) {
                KERN[m]<<<GRID[g], BLOCK[g]>>>(A, B, C, F, off2, pageoff, dst);
                CK(cudaDeviceSynchronize());
                if (r == 0)
                    continue;
                CK(cudaMemcpy(h.data(), dst, warps * sizeof(Stamp), cudaMemcpyDeviceToHost));
                std::vector<double> v[8];
                std::vector<long long> lo(1024, INT64_MAX), hi(1024, INT64_MIN);
                for (const Stamp &x : h) {
                    if (x.ts) {
                        v[0].push_back((double)(x.ts - x.c0));
                        v[1].push_back((double)(x.ta - x.ts));
                        v[2].push_back((double)((x.tw ? x.tw : x.ta) - x.ta) + (double)(x.l0 - (x.tw ? x.tw : x.ta)));
                    }
                    v[3].push_back((double)(x.l1 - x.l0));
                    if (x.l3)
                        v[4].push_back((double)(x.l3 - x.l2));
                    v[5].push_back((double)(x.c1 - (x.l3 ? x.l3 : x.l1)));
                    v[6].push_back((double)(x.l0 - x.c0));
                    lo[x.sm] = std::min(lo[x.sm], x.c0);
                    hi[x.sm] = std::max(hi[x.sm], x.c1);
                }
                long long sp = 0;
                for (int k = 0; k < 1024; k++)
                    if (hi[k] != INT64_MIN)
                        sp = std::max(sp, hi[k] - lo[k]);
                v[7].push_back((double)sp);
                for (int k = 0; k < 8; k++) {
                    if (v[k].empty())
                        continue;
                    med[k].push_back(pct(v[k], 0.5));
                    p10[k].push_back(pct(v[k], 0.1));
                    p90[k].push_back(pct(v[k], 0.9));
                }
            }
            printf("%-9s grid %4u x %3u:", MNAME[m], GRID[g], BLOCK[g]);
            for (int k = 0; k < 8; k++)
                if (!med[k].empty())
                    printf("  %s %.0f (%.0f-%.0f)", IV[k], pct(med[k], 0.5), pct(p10[k], 0.5), pct(p90[k], 0.5));
            printf("\n");
        }
    }
    CK(cudaGetLastError());
    return 0;
}
