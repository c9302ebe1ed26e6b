// The OpenCL C twins of examples/calibration's composites: ROUNDS rounds of
// one composite, each depending on the previous result, fully unrolled (the
// .sgasm twins loop over %n instead).  Compiled with -cl-std=CL3.0 and
// -DROUNDS=R; tests/timing/test_composite_twins.c compares the cycles per
// composite, (cycles(R) - cycles(0)) / R, with the .sgasm twins' on
// nvidia-h100.  Every value of a round dies in the next one, so the live set
// stays a handful of registers however many rounds are unrolled.
#ifndef ROUNDS
#define ROUNDS 16
#endif

// 5 xor-shuffle + add steps (examples/calibration/warp_reduce_shfl.sgasm)
kernel void warp_reduce_shfl(global uint *out)
{
    uint x = get_sub_group_local_id();
#pragma unroll
    for (int r = 0; r < ROUNDS; r++)
        for (uint k = 1; k < 32; k <<= 1)
            x += sub_group_shuffle_xor(x, k);
    out[get_global_id(0)] = x;
}

// 5 shuffle-up + select + add steps (warp_scan_shfl.sgasm)
kernel void warp_scan_shfl(global uint *out)
{
    uint l = get_sub_group_local_id(), x = l;
#pragma unroll
    for (int r = 0; r < ROUNDS; r++)
        for (uint k = 1; k < 32; k <<= 1) {
            uint t = sub_group_shuffle_up(x, min(l, k));
            x += l >= k ? t : 0u;
        }
    out[get_global_id(0)] = x;
}

// warp sum, one partial per warp in local memory, barrier, every warp sums
// the WARPS partials (block_reduce_256.sgasm, block_reduce_1024.sgasm)
#define BLOCK_REDUCE(NAME, WARPS)                                         \
kernel void NAME(global uint *out, local uint *s)                        \
{                                                                         \
    uint l = get_sub_group_local_id(), w = get_sub_group_id(), x = l;     \
    _Pragma("unroll")                                                     \
    for (int r = 0; r < ROUNDS; r++) {                                    \
        for (uint k = 1; k < 32; k <<= 1)                                 \
            x += sub_group_shuffle_xor(x, k);                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                     \
        s[33 * l + w] = x;                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                     \
        x = s[l & (WARPS - 1)];                                           \
        for (uint k = 1; k < WARPS; k <<= 1)                              \
            x += sub_group_shuffle_xor(x, k);                             \
    }                                                                     \
    out[get_global_id(0)] = x;                                            \
}
BLOCK_REDUCE(block_reduce_256, 8)
BLOCK_REDUCE(block_reduce_1024, 32)

// warp scan, each warp's total in local memory, barrier, a scan of the
// totals, the previous warps' prefix added (block_scan_256.sgasm,
// block_scan_1024.sgasm)
#define BLOCK_SCAN(NAME, WARPS)                                           \
kernel void NAME(global uint *out, local uint *s)                        \
{                                                                         \
    uint l = get_sub_group_local_id(), w = get_sub_group_id(), x = l;     \
    uint prev = (w - 1u) & 31u;                                           \
    _Pragma("unroll")                                                     \
    for (int r = 0; r < ROUNDS; r++) {                                    \
        for (uint k = 1; k < 8; k <<= 1) {                                \
            uint t = sub_group_shuffle_up(x, min(l, k));                  \
            x += l >= k ? t : 0u;                                         \
        }                                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                     \
        for (uint k = 8; k < 32; k <<= 1) {                               \
            uint t = sub_group_shuffle_up(x, min(l, k));                  \
            x += l >= k ? t : 0u;                                         \
        }                                                                 \
        s[33 * l + w] = sub_group_shuffle(x, 31u);                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                     \
        uint y = s[l & (WARPS - 1)];                                      \
        for (uint k = 1; k < WARPS; k <<= 1) {                            \
            uint t = sub_group_shuffle_up(y, min(l, k));                  \
            y += l >= k ? t : 0u;                                         \
        }                                                                 \
        uint p = sub_group_shuffle(y, prev);                              \
        x += w != 0 ? p : 0u;                                             \
    }                                                                     \
    out[get_global_id(0)] = x;                                            \
}
BLOCK_SCAN(block_scan_256, 8)
BLOCK_SCAN(block_scan_1024, 32)
