/* native.h - native C peers of the bench workloads (native.c, built -O2). */
#ifndef SGEMU_BENCH_NATIVE_H
#define SGEMU_BENCH_NATIVE_H

#include <stdint.h>

void native_vector_add(const float *a, const float *b, float *c, uint64_t n);
void native_local_reduce(const int32_t *in, int32_t *out, uint64_t n, uint32_t local);
void native_sg_reduce_scan(const uint32_t *in, uint32_t *out, uint64_t n, uint32_t w);
void native_stencil(const float *in, float *out, uint64_t n);
void native_alu_loop(uint32_t *out, uint64_t n);
void native_gemm_us(const uint16_t *a, const uint16_t *b, uint32_t *c,
                    uint32_t m, uint32_t k, uint32_t n);
void native_transpose(const uint16_t *in, uint16_t *out, uint32_t n);

#endif
