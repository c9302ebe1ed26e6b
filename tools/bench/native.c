/* native.c - the native C peers: each workload written the obvious way in
 * C and compiled with -O2.  Their time is the physical limit the emulator
 * is measured against (same inputs, same outputs, checked bit for bit). */
#include "native.h"

#include <string.h>

void native_vector_add(const float *a, const float *b, float *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void native_local_reduce(const int32_t *in, int32_t *out, uint64_t n, uint32_t local)
{
    for (uint64_t g = 0; g < n / local; g++) {
        uint32_t s = 0;
        for (uint32_t i = 0; i < local; i++)
            s += (uint32_t)in[g * local + i];
        out[g] = (int32_t)s;
    }
}

void native_sg_reduce_scan(const uint32_t *in, uint32_t *out, uint64_t n, uint32_t w)
{
    for (uint64_t base = 0; base < n; base += w) {
        uint32_t sum = 0;
        for (uint32_t l = 0; l < w && base + l < n; l++)
            sum += in[base + l];
        uint32_t run = 0;
        for (uint32_t l = 0; l < w && base + l < n; l++) {
            run += in[base + l];
            out[base + l] = run + sum;
        }
    }
}

void native_stencil(const float *in, float *out, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        float l = in[i ? i - 1 : 0], r = in[i + 1 < n ? i + 1 : n - 1];
        out[i] = (l + in[i]) + r;
    }
}

void native_alu_loop(uint32_t *out, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)i, y = 0x9e3779b9u;
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
    }
}

void native_gemm_us(const uint16_t *a, const uint16_t *b, uint32_t *c,
                    uint32_t m, uint32_t k, uint32_t n)
{
    memset(c, 0, (size_t)m * n * sizeof *c);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t kk = 0; kk < k; kk++) {
            uint32_t av = a[(size_t)i * k + kk];
            for (uint32_t j = 0; j < n; j++)
                c[(size_t)i * n + j] += av * b[(size_t)kk * n + j];
        }
}

void native_transpose(const uint16_t *in, uint16_t *out, uint32_t n)
{
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++)
            out[(size_t)x * n + y] = in[(size_t)y * n + x];
}
