/* workloads.c - the bench workloads: sizes, arguments and native peers.
 * Inputs come from a fixed xorshift so every run sees the same data. */
#include "bench.h"
#include "native.h"

#include <stdlib.h>
#include <string.h>

#define GEMM_K 64      /* inner dimension of the GEMM tile workload */
#define RED_LOCAL 256

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint8_t *add_buf(bench_inst *b, size_t bytes)
{
    sgemu_argval *v = &b->args[b->nargs++];
    v->kind = SGEMU_VAL_BUFFER;
    v->bytes = bytes;
    v->data = calloc(1, bytes ? bytes : 1);
    b->buffer_bytes += bytes;
    return v->data;
}

static void add_scalar(bench_inst *b, uint64_t bits)
{
    sgemu_argval *v = &b->args[b->nargs++];
    v->kind = SGEMU_VAL_SCALAR;
    v->scalar = bits;
}

static void add_local(bench_inst *b, size_t bytes)
{
    sgemu_argval *v = &b->args[b->nargs++];
    v->kind = SGEMU_VAL_LOCAL;
    v->bytes = bytes;
}

static int check_bufs(const bench_inst *b)
{
    for (uint32_t i = 0; i < b->nargs; i++)
        if (b->args[i].kind == SGEMU_VAL_BUFFER && !b->args[i].data)
            return -1;
    return 0;
}

static void grid1(bench_inst *b, uint64_t g, uint64_t l)
{
    b->dims = 1;
    b->global[0] = g;
    b->local[0] = l;
    b->global[1] = b->global[2] = b->local[1] = b->local[2] = 1;
}

/* ------------------------------------------------------------ workloads */

static int vadd_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x1234567;
    float *a = (float *)add_buf(b, n * 4), *bb = (float *)add_buf(b, n * 4);
    add_buf(b, n * 4);
    add_scalar(b, n);
    if (check_bufs(b))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        a[i] = (float)i;
        bb[i] = (float)(rnd() % 1000) / 7.0f;
    }
    grid1(b, n, 256);
    b->out_arg = 2;
    return 0;
}

static void vadd_native(const bench_inst *b, uint8_t *out)
{
    native_vector_add((const float *)b->args[0].data, (const float *)b->args[1].data,
                      (float *)out, b->n);
}

static int lred_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x2345678;
    int32_t *in = (int32_t *)add_buf(b, n * 4);
    add_buf(b, n / RED_LOCAL * 4);
    add_local(b, RED_LOCAL * 4);
    if (check_bufs(b))
        return -1;
    for (uint64_t i = 0; i < n; i++)
        in[i] = (int32_t)(rnd() % 2001) - 1000;
    grid1(b, n, RED_LOCAL);
    b->out_arg = 1;
    return 0;
}

static void lred_native(const bench_inst *b, uint8_t *out)
{
    native_local_reduce((const int32_t *)b->args[0].data, (int32_t *)out, b->n, RED_LOCAL);
}

static int sgrs_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x3456789;
    uint32_t *in = (uint32_t *)add_buf(b, n * 4);
    add_buf(b, n * 4);
    if (check_bufs(b))
        return -1;
    for (uint64_t i = 0; i < n; i++)
        in[i] = rnd();
    grid1(b, n, 256);
    b->out_arg = 1;
    return 0;
}

static void sgrs_native(const bench_inst *b, uint8_t *out)
{
    native_sg_reduce_scan((const uint32_t *)b->args[0].data, (uint32_t *)out, b->n, b->width);
}

static int sten_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x456789a;
    float *in = (float *)add_buf(b, n * 4);
    add_buf(b, n * 4);
    add_scalar(b, n);
    if (check_bufs(b))
        return -1;
    for (uint64_t i = 0; i < n; i++)
        in[i] = (float)(rnd() % 100000) / 64.0f;
    grid1(b, n, 256);
    b->out_arg = 1;
    return 0;
}

static void sten_native(const bench_inst *b, uint8_t *out)
{
    native_stencil((const float *)b->args[0].data, (float *)out, b->n);
}

static int alu_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    add_buf(b, n * 4);
    if (check_bufs(b))
        return -1;
    grid1(b, n, 256);
    b->out_arg = 0;
    return 0;
}

static void alu_native(const bench_inst *b, uint8_t *out)
{
    native_alu_loop((uint32_t *)out, b->n);
}

/* n x n output, K = GEMM_K */
static int gemm_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x56789ab;
    uint16_t *a = (uint16_t *)add_buf(b, n * GEMM_K * 2);
    uint16_t *bb = (uint16_t *)add_buf(b, GEMM_K * n * 2);
    add_buf(b, n * n * 4);
    add_scalar(b, GEMM_K);
    add_scalar(b, n);
    if (check_bufs(b))
        return -1;
    for (uint64_t i = 0; i < n * GEMM_K; i++) {
        a[i] = (uint16_t)rnd();
        bb[i] = (uint16_t)rnd();
    }
    b->dims = 2;
    b->global[0] = n;
    b->global[1] = n / 4;
    b->global[2] = 1;
    b->local[0] = 64;
    b->local[1] = 1;
    b->local[2] = 1;
    b->out_arg = 2;
    return 0;
}

static void gemm_native(const bench_inst *b, uint8_t *out)
{
    native_gemm_us((const uint16_t *)b->args[0].data, (const uint16_t *)b->args[1].data,
                   (uint32_t *)out, (uint32_t)b->n, GEMM_K, (uint32_t)b->n);
}

static int tr_setup(bench_inst *b, uint64_t n, uint32_t w)
{
    rng_state = 0x6789abc;
    sgemu_argval *v = &b->args[b->nargs++];
    v->kind = SGEMU_VAL_IMAGE;
    v->image.width = (uint32_t)n;
    v->image.height = (uint32_t)n;
    v->image.pitch = (uint32_t)n * 2;
    v->image.order = SGEMU_ORDER_R;
    v->image.chtype = SGEMU_CHTYPE_UNSIGNED_INT16;
    v->image.data = malloc(n * n * 2);
    b->buffer_bytes += n * n * 2;
    add_buf(b, n * n * 2);
    add_scalar(b, n);
    if (!v->image.data || check_bufs(b))
        return -1;
    uint16_t *p = (uint16_t *)v->image.data;
    for (uint64_t i = 0; i < n * n; i++)
        p[i] = (uint16_t)rnd();
    b->dims = 2;
    b->global[0] = n;
    b->global[1] = n / 8;
    b->global[2] = 1;
    b->local[0] = 64;
    b->local[1] = 1;
    b->local[2] = 1;
    b->out_arg = 1;
    return 0;
}

static void tr_native(const bench_inst *b, uint8_t *out)
{
    native_transpose((const uint16_t *)b->args[0].image.data, (uint16_t *)out,
                     (uint32_t)b->n);
}

const bench_work bench_works[] = {
    { "vector_add", "examples/bench/vector_add.sgasm", 1u << 20, 1u << 16, "items",
      vadd_setup, vadd_native, "examples/bench/vector_add.cl", NULL },
    { "local_reduce", "examples/bench/local_reduce.sgasm", 1u << 20, 1u << 16, "ints",
      lred_setup, lred_native, "examples/bench/local_reduce.cl", NULL },
    { "sg_reduce_scan", "examples/bench/sg_reduce_scan.sgasm", 1u << 24, 1u << 16, "items",
      sgrs_setup, sgrs_native, NULL, "sub-group collectives" },
    { "shuffle_stencil", "examples/bench/shuffle_stencil.sgasm", 1u << 20, 1u << 16, "items",
      sten_setup, sten_native, NULL, "cl_intel_subgroups shuffles" },
    { "gemm_us", "examples/bench/gemm_us.sgasm", 1024, 128, "NxN (K=64)",
      gemm_setup, gemm_native, NULL, "cl_intel_subgroups block reads" },
    { "transpose_img", "examples/bench/transpose_img.sgasm", 2048, 256, "NxN",
      tr_setup, tr_native, NULL, "cl_intel_subgroups image block reads" },
    { "alu_loop", "examples/bench/alu_loop.sgasm", 1u << 18, 1u << 14, "items",
      alu_setup, alu_native, "examples/bench/alu_loop.cl", NULL },
};
const uint32_t bench_nworks = sizeof bench_works / sizeof bench_works[0];

void bench_inst_free(bench_inst *b)
{
    for (uint32_t i = 0; i < b->nargs; i++) {
        if (b->args[i].kind == SGEMU_VAL_BUFFER)
            free(b->args[i].data);
        if (b->args[i].kind == SGEMU_VAL_IMAGE)
            free(b->args[i].image.data);
    }
    memset(b, 0, sizeof *b);
}

size_t bench_out_bytes(const bench_inst *b)
{
    return b->args[b->out_arg].bytes;
}

uint8_t *bench_out_data(const bench_inst *b)
{
    return b->args[b->out_arg].data;
}
