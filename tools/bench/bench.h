/*
 * bench.h - the benchmark's workloads: how each one builds its arguments,
 * what its native C peer computes, and which argument holds the result.
 */
#ifndef SGEMU_BENCH_H
#define SGEMU_BENCH_H

#include <sgemu/sgemu.h>

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_ARGS 6

/* One prepared instance of a workload at one size and sub-group width. */
typedef struct bench_inst {
    uint32_t width;
    uint64_t n;                       /* problem size (meaning per workload) */
    uint32_t dims;
    uint64_t global[3], local[3];
    uint32_t nargs;
    sgemu_argval args[BENCH_MAX_ARGS];
    uint32_t out_arg;                 /* argument compared with the peer */
    size_t buffer_bytes;              /* global buffers + images */
} bench_inst;

typedef struct bench_work {
    const char *name;
    const char *kernel;               /* .sgasm, relative to the source root */
    uint64_t size_full, size_quick;   /* n at full scale and in --quick */
    const char *size_text;            /* what n means, for the table */
    /* allocate and fill arguments for size n at width w; 0 or -1 */
    int (*setup)(bench_inst *b, uint64_t n, uint32_t w);
    /* native C peer: compute the output into out (same layout as the out
     * argument's buffer) from b's inputs */
    void (*native)(const bench_inst *b, uint8_t *out);
    /* OpenCL C peer: file (relative to the source root) and kernel, or NULL
     * when it needs sub-group or Intel extensions the peers do not run */
    const char *cl_file;
    const char *cl_why_not;
} bench_work;

extern const bench_work bench_works[];
extern const uint32_t bench_nworks;

void bench_inst_free(bench_inst *b);
/* bytes of the output argument */
size_t bench_out_bytes(const bench_inst *b);
uint8_t *bench_out_data(const bench_inst *b);

#endif
