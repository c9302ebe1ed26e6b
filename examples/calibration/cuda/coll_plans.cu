// coll_plans.cu - what one warp collective costs on the GPU, written as
// kernel authors write them (__shfl_*_sync loops, __reduce_*_sync, the
// cooperative_groups reduce / inclusive_scan / exclusive_scan of a 32-thread
// tile, __all_sync / __any_sync / __ballot_sync), to check the micro-op plans
// of configs/nvidia-h100.yaml's `collectives.lowering: shuffle`
// (collectives/lowering.def, docs/timing-model.md "Micro-ops").
//
// Latency: one warp runs a chain of R = 8 dependent collectives per loop
// iteration (each collective's result is the next one's input); cycles per
// collective = (t(2n) - t(n)) / (R n) from clock64 around the loop, so the
// loop's own instructions cancel.  A chain of broadcasts or votes needs one
// instruction between links (ptxas folds a chain of shfl.idx on one lane
// into one SHFL, and a vote's result is a predicate): those rows include
// it, as the SASS (coll_plans_sass.txt) shows.  (A first version stored v only
// when it equalled 12345, which a vote's result never can: ptxas removed
// those chains.)
// The kept result is (unsigned)v, so ptxas runs the u64 chains on their low
// words only: their 64-bit figures come from a first version that kept v
// only when it equalled 12345 (coll_plans_h200.txt, program 1), which in
// turn let ptxas remove the vote chains.
// Build: nvcc -O2 -arch=sm_90 coll_plans.cu -o coll_plans
//        cuobjdump -sass coll_plans > coll_plans_sass.txt
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>

namespace cg = cooperative_groups;
#define FULL 0xffffffffu

enum {
    K_SCAN_U32_ADD, K_SCAN_U32_ADD_CG, K_EXSCAN_U32_ADD_CG, K_EXSCAN_U32_ADD_SHIFT,
    K_EXSCAN_U32_MAX_CG, K_SCAN_I32_MIN, K_SCAN_F32_ADD, K_SCAN_F32_MAX, K_SCAN_U64_ADD,
    K_SCAN_F64_ADD, K_RED_U32_ADD, K_RED_U32_ADD_CG, K_RED_I32_MAX, K_RED_U32_MUL,
    K_RED_F32_ADD, K_RED_F32_ADD_CG, K_RED_F32_MAX, K_RED_U64_ADD_CG, K_RED_F64_ADD,
    K_BCAST_U32, K_ALL, K_ANY, K_BALLOT, NK
};
static const char *names[NK] = {
    "scan_inc u32 add (shfl_up loop)", "scan_inc u32 add (cg::inclusive_scan)",
    "scan_exc u32 add (cg::exclusive_scan)", "scan_exc u32 add (shift, shfl_up loop)",
    "scan_exc u32 max (cg::exclusive_scan)", "scan_inc i32 min (shfl_up loop)",
    "scan_inc f32 add (shfl_up loop)", "scan_inc f32 max (shfl_up loop)",
    "scan_inc u64 add (shfl_up loop)", "scan_inc f64 add (shfl_up loop)",
    "reduce u32 add (__reduce_add_sync)", "reduce u32 add (cg::reduce)",
    "reduce i32 max (__reduce_max_sync)", "reduce u32 mul (shfl_xor loop)",
    "reduce f32 add (shfl_xor loop)", "reduce f32 add (cg::reduce)",
    "reduce f32 max (shfl_xor loop)", "reduce u64 add (cg::reduce)",
    "reduce f64 add (shfl_xor loop)", "broadcast u32 lane 0 (+ xor lane)",
    "all (__all_sync, + xor lane)", "any (__any_sync, + xor lane)",
    "ballot (__ballot_sync, + and 1)",
};

template <class T> __device__ T scan_up(T v, unsigned lane, int op)
{
#pragma unroll
    for (unsigned k = 1; k < 32; k <<= 1) {
        T t = __shfl_up_sync(FULL, v, k);
        if (lane >= k)
            v = op == 0 ? v + t : op == 1 ? (t < v ? t : v) : (t > v ? t : v);
    }
    return v;
}

template <class T> __device__ T red_xor(T v, int op)
{
#pragma unroll
    for (unsigned k = 16; k; k >>= 1) {
        T t = __shfl_xor_sync(FULL, v, k);
        v = op == 0 ? v + t : op == 1 ? v * t : (t > v ? t : v);
    }
    return v;
}

template <int K> struct Val { typedef unsigned T; };
template <> struct Val<K_SCAN_F32_ADD> { typedef float T; };
template <> struct Val<K_SCAN_F32_MAX> { typedef float T; };
template <> struct Val<K_RED_F32_ADD> { typedef float T; };
template <> struct Val<K_RED_F32_ADD_CG> { typedef float T; };
template <> struct Val<K_RED_F32_MAX> { typedef float T; };
template <> struct Val<K_SCAN_U64_ADD> { typedef unsigned long long T; };
template <> struct Val<K_RED_U64_ADD_CG> { typedef unsigned long long T; };
template <> struct Val<K_SCAN_F64_ADD> { typedef double T; };
template <> struct Val<K_RED_F64_ADD> { typedef double T; };
template <> struct Val<K_SCAN_I32_MIN> { typedef int T; };
template <> struct Val<K_RED_I32_MAX> { typedef int T; };

template <int K, class T>
__device__ T step(T v, unsigned lane, const cg::thread_block_tile<32> &tile)
{
    if constexpr (K == K_SCAN_U32_ADD) return scan_up(v, lane, 0);
    if constexpr (K == K_SCAN_U32_ADD_CG) return cg::inclusive_scan(tile, v);
    if constexpr (K == K_EXSCAN_U32_ADD_CG) return cg::exclusive_scan(tile, v);
    if constexpr (K == K_EXSCAN_U32_ADD_SHIFT) {
        T s = __shfl_up_sync(FULL, v, 1);
        return scan_up(lane >= 1 ? s : 0u, lane, 0);
    }
    if constexpr (K == K_EXSCAN_U32_MAX_CG) return cg::exclusive_scan(tile, v, cg::greater<unsigned>());
    if constexpr (K == K_SCAN_I32_MIN) return scan_up(v, lane, 1);
    if constexpr (K == K_SCAN_F32_ADD || K == K_SCAN_U64_ADD || K == K_SCAN_F64_ADD)
        return scan_up(v, lane, 0);
    if constexpr (K == K_SCAN_F32_MAX) return scan_up(v, lane, 2);
    if constexpr (K == K_RED_U32_ADD) return __reduce_add_sync(FULL, v);
    if constexpr (K == K_RED_U32_ADD_CG) return cg::reduce(tile, v, cg::plus<unsigned>());
    if constexpr (K == K_RED_I32_MAX) return __reduce_max_sync(FULL, v);
    if constexpr (K == K_RED_U32_MUL) return red_xor(v, 1);
    if constexpr (K == K_RED_F32_ADD || K == K_RED_F64_ADD) return red_xor(v, 0);
    if constexpr (K == K_RED_F32_ADD_CG) return cg::reduce(tile, v, cg::plus<float>());
    if constexpr (K == K_RED_F32_MAX) return red_xor(v, 2);
    if constexpr (K == K_RED_U64_ADD_CG) return cg::reduce(tile, v, cg::plus<unsigned long long>());
    if constexpr (K == K_BCAST_U32) return __shfl_sync(FULL, v, 0) ^ lane;
    if constexpr (K == K_ALL) return (unsigned)__all_sync(FULL, v) ^ lane;
    if constexpr (K == K_ANY) return (unsigned)__any_sync(FULL, v) ^ lane;
    if constexpr (K == K_BALLOT) return __ballot_sync(FULL, v) & 1u;
    return v;
}

template <int K>
__global__ void chain(unsigned *out, long long *cyc, int n)
{
    typedef typename Val<K>::T T;
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned lane = threadIdx.x & 31;
    T v = (T)(lane + 1);
    if constexpr (sizeof(T) == 4 && (T)0.5 != 0)
        v = (T)lane * (T)0.001;
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int r = 0; r < 8; r++)
            v = step<K>(v, lane, tile);
    }
    long long t1 = clock64();
    if (lane == 0)
        *cyc = t1 - t0;
    out[threadIdx.x] = (unsigned)v;   // kept, so ptxas keeps every chain
}

template <int K> static void measure(unsigned *out, long long *dcyc)
{
    const int n = 32;
    long long c1, c2;
    chain<K><<<1, 32>>>(out, dcyc, n);
    chain<K><<<1, 32>>>(out, dcyc, n);
    cudaMemcpy(&c1, dcyc, sizeof c1, cudaMemcpyDeviceToHost);
    chain<K><<<1, 32>>>(out, dcyc, 2 * n);
    cudaMemcpy(&c2, dcyc, sizeof c2, cudaMemcpyDeviceToHost);
    printf("%-42s %7.2f cycles per collective\n", names[K], (double)(c2 - c1) / (8.0 * n));
}

template <int... Ks> static void measure_all(unsigned *out, long long *dcyc)
{
    (measure<Ks>(out, dcyc), ...);
}

int main()
{
    unsigned *out;
    long long *dcyc;
    cudaMalloc(&out, 32 * sizeof(unsigned));
    cudaMalloc(&dcyc, sizeof(long long));
    for (int run = 1; run <= 2; run++) {
        printf("## run %d\n", run);
        measure_all<K_SCAN_U32_ADD, K_SCAN_U32_ADD_CG, K_EXSCAN_U32_ADD_CG, K_EXSCAN_U32_ADD_SHIFT,
                    K_EXSCAN_U32_MAX_CG, K_SCAN_I32_MIN, K_SCAN_F32_ADD, K_SCAN_F32_MAX,
                    K_SCAN_U64_ADD, K_SCAN_F64_ADD, K_RED_U32_ADD, K_RED_U32_ADD_CG, K_RED_I32_MAX,
                    K_RED_U32_MUL, K_RED_F32_ADD, K_RED_F32_ADD_CG, K_RED_F32_MAX,
                    K_RED_U64_ADD_CG, K_RED_F64_ADD, K_BCAST_U32, K_ALL, K_ANY, K_BALLOT>(out,
                                                                                       dcyc);
    }
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
