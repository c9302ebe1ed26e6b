// l2_bandwidth.cu - the H100's L2 read bandwidth, in bytes per SM clock for
// the whole device: every SM streams an 8 MB buffer (L2-resident: 50 MB
// L2) with 16-byte loads that skip L1 (ld.global.cg), reps times.  Cycles
// are the longest block's clock64 span (all blocks resident at once).
//   nvcc -O2 -arch=sm_90 l2_bandwidth.cu -o l2_bandwidth
#include <cstdio>

__global__ void stream(const float4 *a, int n4, int reps, float *out, long long *cyc)
{
    float s = 0.f;
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; r++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
            float4 v = __ldcg(&a[i]);
            s += v.x + v.y + v.z + v.w;
        }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0)
        cyc[blockIdx.x] = t1 - t0;
    if (s == 12345.f)
        out[0] = s;
}

int main()
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int n4 = 8 << 20 >> 4;
    float4 *a;
    float *out;
    long long *cyc, host[4096];
    cudaMalloc(&a, (size_t)n4 * 16);
    cudaMemset(a, 0, (size_t)n4 * 16);
    cudaMalloc(&out, 4);
    cudaMalloc(&cyc, sizeof host);
    for (int per_sm = 1; per_sm <= 8; per_sm *= 2)
        for (int threads = 256; threads <= 1024; threads *= 2) {
            if (per_sm * threads > 2048)
                continue;
            int blocks = sms * per_sm, reps = 20;
            stream<<<blocks, threads>>>(a, n4, 2, out, cyc);
            stream<<<blocks, threads>>>(a, n4, reps, out, cyc);
            cudaMemcpy(host, cyc, blocks * sizeof host[0], cudaMemcpyDeviceToHost);
            long long m = 0;
            for (int b = 0; b < blocks; b++)
                m = host[b] > m ? host[b] : m;
            double bytes = (double)n4 * 16 * reps;
            printf("%3d SMs, %d blocks of %4d per SM: %8.1f bytes per clock (%.1f per SM)\n", sms,
                   per_sm, threads, bytes / m, bytes / m / sms);
        }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
