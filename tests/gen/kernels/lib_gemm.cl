/* GEMM in the style of tuned BLAS kernels: a tile of B staged in local
 * memory, barriers inside the k loop, and float4/float8 vector loads. */
#define K 16
#define TS 8

kernel void gemm_tiled(global const float *a, global const float *b, global float *c,
                       local float *tile)
{
    size_t gid = get_global_id(0), lid = get_local_id(0), lsz = get_local_size(0);
    size_t row = gid / 4, col = gid % 4;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        for (size_t i = lid; i < TS * 4; i += lsz)
            tile[i] = b[(t + i / 4) * 4 + i % 4];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc = fma(a[row * K + t + k], tile[k * 4 + col], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[gid] = acc;
}

kernel void gemv_vec(global const float *a, global const float *x, global float *y)
{
    size_t gid = get_global_id(0);
    float8 acc8 = (float8)(0.0f);
    float4 acc4 = (float4)(0.0f);
    for (int k = 0; k < 4; k++) {
        acc8 += vload8(gid * 4 + k, a) * vload8(k, x);
        acc4 = mad(vload4(gid * 8 + k, a + 512), vload4(k, x + 64), acc4);
    }
    float s = acc8.s0 + acc8.s1 + acc8.s2 + acc8.s3 + acc8.s4 + acc8.s5 + acc8.s6 + acc8.s7;
    y[gid] = s + dot(acc4, (float4)(1.0f, 0.5f, 0.25f, 2.0f));
    vstore4(acc4 * 2.0f, gid, y + 256);
    vstore8(acc8, gid, y + 1024);
}
