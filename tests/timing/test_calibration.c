/* test_calibration.c - configs/nvidia-h100.yaml against the H100 SXM
 * primitive microbenchmarks (cycles at 1980 MHz), through the kernels in
 * examples/calibration/.  Method (docs/timing-model.md, "Calibration"):
 * each kernel runs %n loop iterations of 32 dependent operations; per-op
 * cycles = (cycles(n) - cycles(0)) / (32 n), which cancels launch, loop entry
 * and the final store.  Throughputs: T warps each run the chain; ops per
 * cycle per SM = 32 n T / (cycles(n) - cycles(0)).  Each must be within 2%.
 * The composite kernels (software reductions and scans) are not fitted:
 * their cycles follow from the primitives; the test prints them. */
#include "sgemu.h"
#include "timing_model.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_file.h"

static char *slurp(const char *name)
{
    const char *src = getenv("SGEMU_SRC");
    assert_non_null(src);
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/calibration/%s.sgasm", src, name);
    return test_slurp(path, NULL);
}

/* Run example `name` on the H100 config: n iterations, `groups` work-groups
 * of `items` work-items of width w; `chain` (u32 indices) for the pointer
 * chase.  Every other buffer is one table of a word per work-item (at least
 * 1024), which all groups share. */
static uint64_t run_text(const char *name, const char *src, uint32_t n, uint32_t items,
                         uint32_t groups, uint32_t w, uint32_t *chain, size_t chain_n)
{
    isa_kernel k;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble(name, src, strlen(src), &k, &d), 0);
    emu_config cfg;
    assert_int_equal(emu_config_load_bundled("nvidia-h100", &cfg, &d), 0);
    static uint32_t out[128 * 1024];
    const size_t out_bytes = 4 * (items * groups > 1024 ? items * groups : 1024);
    assert_true(out_bytes <= sizeof out);
    uint32_t zeros[1024] = { 0 };
    sgemu_argval args[ISA_MAX_ARGS];
    memset(args, 0, sizeof args);
    for (uint32_t i = 0; i < k.narg; i++) {
        const isa_arg *a = &k.args[i];
        if (a->kind == ISA_ARG_SCALAR) {
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_SCALAR, .scalar = n };
        } else if (a->kind == ISA_ARG_LOCAL) {
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_LOCAL, .bytes = 8192 };
        } else if (!strcmp(a->name, "chain")) {
            args[i] = chain ? (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)chain,
                                              .bytes = chain_n * 4 }
                            : (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)zeros,
                                              .bytes = sizeof zeros };
        } else {
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)out,
                                      .bytes = out_bytes };
        }
    }
    sgemu_launch L = { .dims = 1, .global = { items * groups }, .local = { items },
                       .local_given = true, .sg_width = w, .timing = true };
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, args, &st, &f);
    if (rc)
        fprintf(stderr, "%s: %s\n", name, f.msg);
    assert_int_equal(rc, 0);
    uint64_t c = st.timing->cycles;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    isa_diags_free(&d);
    return c;
}

static uint64_t run_groups(const char *name, uint32_t n, uint32_t items, uint32_t groups,
                           uint32_t w, uint32_t *chain, size_t chain_n)
{
    char *src = slurp(name);
    uint64_t c = run_text(name, src, n, items, groups, w, chain, chain_n);
    free(src);
    return c;
}

static uint64_t run(const char *name, uint32_t n, uint32_t items, uint32_t w,
                    uint32_t *chain, size_t chain_n)
{
    return run_groups(name, n, items, 1, w, chain, chain_n);
}

/* per-op cycles of a chain of 32 n operations */
static double per_op(const char *name, uint32_t n, uint32_t w)
{
    uint64_t c0 = run(name, 0, w, w, NULL, 0), c1 = run(name, n, w, w, NULL, 0);
    return (double)(c1 - c0) / (32.0 * n);
}

static void within(const char *what, double got, double want)
{
    printf("%-40s model %8.3f  measured %8.3f\n", what, got, want);
    assert_true(got >= want * 0.98 && got <= want * 1.02);
}

/* per-op cycles of a chain kernel with its text's `from` replaced by `to` */
static double per_op_edit(const char *name, const char *from, const char *to, uint32_t n)
{
    char *src = slurp(name);
    size_t fl = strlen(from), tl = strlen(to), cap = strlen(src) * 2 + 1, o = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (const char *p = src; *p;) {
        if (!strncmp(p, from, fl)) {
            assert_true(o + tl < cap);
            memcpy(out + o, to, tl);
            o += tl;
            p += fl;
        } else {
            assert_true(o + 1 < cap);
            out[o++] = *p++;
        }
    }
    out[o] = 0;
    assert_non_null(strstr(out, to));
    uint64_t c0 = run_text(name, out, 0, 32, 1, 32, NULL, 0);
    uint64_t c1 = run_text(name, out, n, 32, 1, 32, NULL, 0);
    free(out);
    free(src);
    return (double)(c1 - c0) / (32.0 * n);
}

/* 1024 dependent shuffles (cuda/shfl_issue.cu, shfl_issue_h200.txt): the
 * mask, delta or lane in a register (the twins' r1) 26.00 for BFLY, UP and
 * DOWN, and 26 for IDX (the microbenchmarks given with the config); the
 * mask immediate (SHFL.BFLY ..., 0x1) 24.00 */
static void test_shuffles(void **state)
{
    (void)state;
    within("shfl_xor latency, mask register", per_op("shfl_xor", 32, 32), 26);
    within("shfl_up latency, delta register", per_op("shfl_up", 32, 32), 26);
    within("shfl_down latency, delta register", per_op("shfl_down", 32, 32), 26);
    within("shfl_idx latency, lane register", per_op("shfl_idx", 32, 32), 26);
    within("shfl_xor latency, mask immediate",
           per_op_edit("shfl_xor", "sub_group_shuffle_xor.u32 r0, r0, r1",
                       "sub_group_shuffle_xor.u32 r0, r0, 1", 32), 24);
}

/* widths 8, 16 and 32 cost the same */
static void test_widths(void **state)
{
    (void)state;
    double w32 = per_op("shfl_xor", 32, 32);
    within("shfl_xor latency, width 8", per_op("shfl_xor", 32, 8), w32);
    within("shfl_xor latency, width 16", per_op("shfl_xor", 32, 16), w32);
    within("reduce latency, width 8", per_op("reduce_hw", 32, 8), per_op("reduce_hw", 32, 32));
}

/* 512 dependent shared-memory loads: 23 */
static void test_shared_load(void **state)
{
    (void)state;
    within("shared load latency", per_op("smem_chase", 16, 32), 23);
}

/* hardware warp reduce 44; ballot 17; __syncthreads with one warp 14 */
static void test_reduce_ballot_barrier(void **state)
{
    (void)state;
    within("redux latency", per_op("reduce_hw", 16, 32), 44);
    within("ballot latency", per_op("ballot", 16, 32), 17);
    /* 128 barriers per iteration (examples/calibration/barrier.sgasm) */
    within("syncthreads (one warp)", per_op("barrier", 16, 32) * 32 / 128, 14);
}

/* __syncthreads chains at 1, 2, 8 and 32 warps in one block: measured
 * 14.08, 16.08, 28.08, 76.08 cycles per barrier
 * (examples/calibration/cuda/barrier_h100.txt) */
static double barrier_per_op(uint32_t warps)
{
    uint64_t c0 = run("barrier", 0, 32 * warps, 32, NULL, 0);
    uint64_t c1 = run("barrier", 16, 32 * warps, 32, NULL, 0);
    return (double)(c1 - c0) / (128.0 * 16);
}

static void test_barrier_block_sizes(void **state)
{
    (void)state;
    within("syncthreads, 1 warp", barrier_per_op(1), 14.08);
    within("syncthreads, 2 warps", barrier_per_op(2), 16.08);
    within("syncthreads, 8 warps", barrier_per_op(8), 28.08);
    within("syncthreads, 32 warps", barrier_per_op(32), 76.08);
}

/* throughput: 32 warps of one block (8 per SMSP) each run the chain */
static double per_sm_rate(const char *name, uint32_t n)
{
    uint64_t c0 = run(name, 0, 1024, 32, NULL, 0), c1 = run(name, n, 1024, 32, NULL, 0);
    return 32.0 * n * 32 / (double)(c1 - c0);
}

static void test_throughputs(void **state)
{
    (void)state;
    within("redux throughput (/clk/SM)", per_sm_rate("reduce_hw", 8), 0.5);
    double s32 = per_sm_rate("shfl_xor", 8), s64 = per_sm_rate("shfl_xor64", 8);
    within("64-bit shuffle = half the 32-bit rate", s64, s32 / 2);
}

/* Pointer chases.  L1 hit: chain of zeros (always index 0) -> 34.  L2 and
 * DRAM: a cyclic chain of P entries one 128-B line apart over 2 MB (> the
 * 256 KB L1, < the 50 MB L2): pass 1 misses everywhere (DRAM, ~720), pass 2
 * misses L1 (LRU over a cyclic walk 8x its size) and hits L2 (279). */
static void test_pointer_chase(void **state)
{
    (void)state;
    /* cycles(2n) - cycles(n): both pay the one cold miss of index 0 */
    within("L1-hit chase", (double)(run("chase", 32, 32, 32, NULL, 0) -
                                    run("chase", 16, 32, 32, NULL, 0)) / (32.0 * 16), 34);
    enum { STRIDE = 32, P = 16384, N = P * STRIDE };   /* 2 MB of u32 */
    uint32_t *chain = calloc(N, sizeof *chain);
    assert_non_null(chain);
    for (uint32_t i = 0; i < P; i++)
        chain[i * STRIDE] = ((i + 1) % P) * STRIDE;
    uint32_t per_pass = P / 32;   /* iterations covering the chain once */
    uint64_t c0 = run("chase", 0, 32, 32, chain, N);
    uint64_t c1 = run("chase", per_pass, 32, 32, chain, N);
    uint64_t c2 = run("chase", 2 * per_pass, 32, 32, chain, N);
    within("DRAM chase", (double)(c1 - c0) / P, 720);
    within("L2-hit chase", (double)(c2 - c1) / P, 279);
    free(chain);
}

/* Pipes (examples/calibration/cuda/pipes.cu, pipes_h200.txt): dependent
 * FFMA 4.03, DFMA 8.01, half2 FMA 8.02, MUFU.EX2 17.00 cycles; 32 warps of
 * one block: a DFMA warp instruction every 2.01 cycles per SMSP (1.99 per
 * clk per SM), a MUFU one every 8.00 (0.5 per clk per SM).  The kernels run
 * 256 operations per iteration, as the CUDA twin does. */
static double per_op256(const char *name, uint32_t n, uint32_t items)
{
    uint64_t c0 = run(name, 0, items, 32, NULL, 0), c1 = run(name, n, items, 32, NULL, 0);
    return (double)(c1 - c0) / (256.0 * n);
}

static void test_pipes(void **state)
{
    (void)state;
    within("fp32 FMA latency", per_op256("fma_f32", 8, 32), 4.03);
    within("fp64 FMA latency", per_op256("fma_f64", 8, 32), 8.01);
    within("fp16 FMA latency", per_op256("fma_f16", 8, 32), 8.02);
    within("exp2 (MUFU) latency", per_op256("exp2_f32", 8, 32), 17.00);
    /* 32 warps: the slowest warp's time, as the CUDA twin reads it */
    within("fp64 FMA throughput (/clk/SM)", 32.0 / per_op256("fma_f64", 4, 1024), 4 / 2.01);
    within("exp2 throughput (/clk/SM)", 32.0 / per_op256("exp2_f32", 2, 1024), 4 / 8.00);
}

/* Which pipes integer work shares (cuda/int_pipes.cu, int_pipes_h200.txt):
 * 32 warps of one block, each 1 to 3 independent dependent chains, one
 * instruction of each a step, 128 steps a loop iteration; cycles a step
 * per SMSP = (t(8) - t(4)) / (128 x 4 x 8).  The twins: SEL a select on a
 * predicate set before the loop, IMAD a mad, LOP3 a xor, SHFL a
 * sub_group_shuffle_xor by 1. */
static double int_step(const char *mix)
{
    static const char *const ops[][2] = {
        { "SEL", "sel.u32 %s, p1, %s, r9" }, { "IMAD", "mad.u32 %s, %s, r8, r9" },
        { "LOP3", "xor.u32 %s, %s, r9" }, { "SHFL", "sub_group_shuffle_xor.u32 %s, %s, r7" },
    };
    static const char *const regs[] = { "r1", "r2", "r3" };
    const char *kinds[3];
    uint32_t nk = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", mix);
    for (char *t = strtok(buf, "+"); t && nk < 3; t = strtok(NULL, "+"))
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (!strcmp(t, ops[i][0]))
                kinds[nk++] = ops[i][1];
    assert_true(nk > 0);
    size_t cap = 128 * 3 * 64 + 1024, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    len += (size_t)snprintf(src + len, cap - len,
                            ".kernel int_pipes\n.arg out global u32\n.arg n u32\n"
                            "mov.u32 r0, %%global_id.x\nmov.u32 r1, r0\nxor.u32 r2, r0, 5\n"
                            "xor.u32 r3, r0, 9\nmov.u32 r7, 1\nmov.u32 r8, 3\n"
                            "xor.u32 r9, r0, 3\ncmp.ne.u32 p1, r8, 0\nmov.u32 r5, %%n\n"
                            "loop:\nsub.u32 r5, r5, 1\ncmp.ne.u32 p0, r5, 0\n");
    /* With a shuffle chain beside others, ptxas does not keep the PTX's
     * interleave (cuda/shfl_issue.sass): it puts 6 steps of the other
     * chains after each SHFL (5 after the first, beside the loop count)
     * until they run out, then the remaining SHFLs back to back.  The twin
     * keeps that order; without a shuffle, one instruction of each chain a
     * step (the SASS's order too). */
    bool shfl = nk > 1 && strstr(kinds[0], "shuffle");
    uint32_t left = shfl ? 128 : 0, others = shfl ? 128 : 0;
    for (int step = 0; step < 128; step++) {
        if (!shfl) {
            for (uint32_t i = 0; i < nk; i++) {
                len += (size_t)snprintf(src + len, cap - len, kinds[i], regs[i], regs[i]);
                len += (size_t)snprintf(src + len, cap - len, "\n");
            }
            continue;
        }
        len += (size_t)snprintf(src + len, cap - len, kinds[0], regs[0], regs[0]);
        len += (size_t)snprintf(src + len, cap - len, "\n");
        left--;
        for (uint32_t g = 0; g < (step ? 6u : 5u) && others; g++, others--)
            for (uint32_t i = 1; i < nk; i++) {
                len += (size_t)snprintf(src + len, cap - len, kinds[i], regs[i], regs[i]);
                len += (size_t)snprintf(src + len, cap - len, "\n");
            }
    }
    assert_int_equal(left, 0);
    assert_int_equal(others, 0);
    snprintf(src + len, cap - len, "bra p0, loop\nxor.u32 r1, r1, r2\nxor.u32 r1, r1, r3\n"
                                   "st.global.u32 [%%out + r0*4], r1\nret\n");
    uint64_t c1 = run_text(mix, src, 4, 1024, 1, 32, NULL, 0);
    uint64_t c2 = run_text(mix, src, 8, 1024, 1, 32, NULL, 0);
    free(src);
    return (double)(c2 - c1) / (128.0 * 4 * 8);
}

static void test_int_pipes(void **state)
{
    (void)state;
    within("SEL alone (/step/SMSP)", int_step("SEL"), 2.03);
    within("IMAD alone (/step/SMSP)", int_step("IMAD"), 2.00);
    within("LOP3 alone (/step/SMSP)", int_step("LOP3"), 2.02);
    within("SEL + SEL (/step/SMSP)", int_step("SEL+SEL"), 4.03);
    within("SEL + IMAD (/step/SMSP)", int_step("SEL+IMAD"), 2.04);
    within("SHFL alone (/step/SMSP)", int_step("SHFL"), 4.00);
    /* the mixes in ptxas's order (cuda/shfl_issue.cu, shfl_issue_h200.txt,
     * whose SASS that order is); not fitted: printed with the measurement */
    double ss = int_step("SHFL+SEL"), si = int_step("SHFL+IMAD"), ssi = int_step("SHFL+SEL+IMAD");
    printf("%-40s model %8.3f  measured 4.47\n", "SHFL + SEL (/step/SMSP)", ss);
    printf("%-40s model %8.3f  measured 4.28\n", "SHFL + IMAD (/step/SMSP)", si);
    printf("%-40s model %8.3f  measured 4.52-4.62\n", "SHFL + SEL + IMAD (/step/SMSP)", ssi);
    assert_true(ss > 4.0 && si > 4.0 && ssi > 4.0);
}

/* Atomic chains (pipes.cu): each atomic's address is the value the last one
 * returned.  Global (ATOMG at the L2): one lane 479.5-484.6 cycles over two
 * machines (482 taken); 32 lanes on one word 555.0-559.7.  Shared (ATOMS):
 * one lane 26.16, 32 lanes on one word 88.00, on 32 words 26.16. */
static double atom_per_op(const char *name, uint32_t items, bool one_word)
{
    uint32_t chain[32];
    for (uint32_t i = 0; i < 32; i++)
        chain[i] = one_word ? 0 : i;
    uint64_t c0 = run(name, 0, items, 32, chain, 32), c1 = run(name, 16, items, 32, chain, 32);
    return (double)(c1 - c0) / (32.0 * 16);
}

static void test_atomics(void **state)
{
    (void)state;
    within("global atomic, 1 lane", atom_per_op("atom_chase", 1, true), 482);
    within("shared atomic, 1 lane", atom_per_op("smem_atom_chase", 1, true), 26.16);
    within("shared atomic, 32 lanes on 1 word", atom_per_op("smem_atom_chase", 32, true), 88.00);
    within("shared atomic, 32 lanes on 32 words", atom_per_op("smem_atom_chase", 32, false), 26.16);
    /* the L2's same-address interval is 2.44 cycles per lane on the H100,
     * the config's whole-cycle interval 2: the model is 2.3% under the
     * 557 measured (docs/timing-model.md, "Calibration") */
    double g32 = atom_per_op("atom_chase", 32, true);
    printf("%-40s model %8.3f  measured %8.3f (known gap)\n", "global atomic, 32 lanes on 1 word", g32, 557.0);
    assert_true(g32 >= 557.0 * 0.97 && g32 < 557.0);
}

/* Shared-atomic throughput (cuda/smem_atomic_rate.cu, smem_atomic_rate_h200.txt):
 * 8 warps, 8 independent atomics an iteration; lane l of step j on word
 * (l + 32 j) mod 256, (l mod 4) + 4 j or j: 1, 8 or 32 lanes per word.
 * Measured 1.03, 8.00 and 31.99 cycles per warp atomic per SM.  Predicted
 * before the run as 1.05, 15.00 and 63.00 (the port was held for the
 * lanes' return interval); the bank's one read-modify-write a cycle
 * followed from these figures, so they are fitted now. */
static double atom_rate(const char *name, uint32_t lanes_per_word)
{
    uint32_t chain[256];
    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t j = 0; j < 8; j++)
            chain[8 * l + j] = lanes_per_word == 1 ? (l + 32 * j) % 256
                             : lanes_per_word == 8 ? l % 4 + 4 * j : j;
    uint64_t c1 = run(name, 16, 256, 32, chain, 256);
    uint64_t c2 = run(name, 32, 256, 32, chain, 256);
    double per = (double)(c2 - c1) / (8.0 * 16 * 8);
    return per;
}

static void test_smem_atomic_rate(void **state)
{
    (void)state;
    within("shared atomics, 1 lane per word (/SM)", atom_rate("smem_atom_rate", 1), 1.03);
    within("shared atomics, 8 lanes per word (/SM)", atom_rate("smem_atom_rate", 8), 8.00);
    within("shared atomics, 32 lanes per word (/SM)", atom_rate("smem_atom_rate", 32), 31.99);
}

/* Global atomics (atom_rate.sgasm; cuda/atomic_shape.cu, raw output
 * atomic_shape_h200.txt, an H200 at 1980 MHz, mean of two runs): W warps
 * of 32 lanes, lane l of step j on word j x step + (l / k) x stride, so k
 * lanes on each word.  Cycles per warp atomic per SM. */
typedef struct atom_shape {
    const char *what;
    uint32_t k, stride, step, warps;
    double measured;
    bool path_bound;     /* limited by the CU's atomic path, not latency */
} atom_shape;

static const atom_shape atom_shapes[] = {
    { "1 lane/word, 1 line/step", 1, 1, 32, 8, 33.5, false },
    { "8 lanes/word, 1 line/step", 8, 1, 32, 8, 35.1, false },
    { "16 lanes/word, 1 line/step", 16, 1, 32, 8, 47.6, false },
    { "32 lanes/word, 1 line/step", 32, 1, 32, 8, 64.0, true },
    { "1 lane/word, 8 lines/step", 1, 8, 1, 8, 40.0, false },
    { "1 lane/word, 32 lines/step", 1, 32, 1, 8, 64.0, true },
    { "32 lanes/word, steps on 8 lines", 32, 0, 32, 8, 64.0, true },
    { "32 lanes/word, steps in 1 line", 32, 0, 1, 8, 64.0, true },
    { "1 lane/word, 1 line/step, 1 warp", 1, 1, 32, 1, 263.0, false },
    { "1 lane/word, 1 line/step, 4 warps", 1, 1, 32, 4, 66.5, false },
    { "1 lane/word, 1 line/step, 32 warps", 1, 1, 32, 32, 8.34, false },
    { "32 lanes/word, 8 lines, 1 warp", 32, 0, 32, 1, 317.0, false },
    { "32 lanes/word, 8 lines, 4 warps", 32, 0, 32, 4, 82.1, false },
    { "32 lanes/word, 8 lines, 16 warps", 32, 0, 32, 16, 64.0, true },
};

/* Recorded before they ran, with the path held per line or per lane of
 * the busiest address, whichever is more: 33.3, 33.5, 32.2, 32.5, 145.3,
 * 64.0 and 153.1; measured 48.0, 64.0, 64.0, 64.0, 163.5, 64.0 and 158.4.
 * Three of seven failed by half (k lanes on each of 32 / k lines take 64,
 * not 32): a line's lanes on one word leave one a packet, on every line.
 * The packet rule came from these, so they are fitted now. */
static const atom_shape atom_round2[] = {
    { "1 lane/word, 16 lines/step", 1, 16, 1, 8, 48.0, false },
    { "2 lanes/word, 16 lines/step", 2, 32, 1, 8, 64.0, true },
    { "4 lanes/word, 8 lines/step", 4, 32, 1, 8, 64.0, true },
    { "8 lanes/word, 4 lines/step", 8, 32, 1, 8, 64.0, true },
    { "1 lane/word, 32 lines/step, 2 warps", 1, 32, 1, 2, 163.5, false },
    { "1 lane/word, 32 lines/step, 16 warps", 1, 32, 1, 16, 64.0, true },
    { "32 lanes/word, 8 lines, 2 warps", 32, 0, 32, 2, 158.4, false },
};

/* Recorded before they ran with the packet rule: 32.95, 32.95, 64.00,
 * 33.33, 64.00 and 153.06; measured 48.0, 48.0, 64.0, 55.6, 64.0 and
 * 158.5.  Lines with two words or more take about 1.5 x the packet's 2
 * cycles, which the rule does not have (docs/timing-model.md). */
static const atom_shape atom_round3[] = {
    { "2 lanes/word, 2 words/line, 8 lines", 2, 16, 1, 8, 48.0, false },
    { "4 lanes/word, 2 words/line, 4 lines", 4, 16, 1, 8, 48.0, false },
    { "16 lanes/word, 2 lines/step", 16, 32, 1, 8, 64.0, true },
    { "8 lanes/word, 2 words/line, 2 lines", 8, 16, 1, 8, 55.6, false },
    { "2 lanes/word, 16 lines/step, 16 warps", 2, 32, 1, 16, 64.0, true },
    { "32 lanes/word, 1 line, 2 warps", 32, 0, 1, 2, 158.5, false },
};

static double atom_shape_rate(const atom_shape *a)
{
    uint32_t chain[256];
    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t j = 0; j < 8; j++)
            chain[8 * l + j] = j * a->step + (l / a->k) * a->stride;
    uint64_t c1 = run("atom_rate", 16, 32 * a->warps, 32, chain, 256);
    uint64_t c2 = run("atom_rate", 32, 32 * a->warps, 32, chain, 256);
    return (double)(c2 - c1) / (8.0 * 16 * a->warps);
}

/* Where one packet in turn is the limit (path_bound) the model must give
 * the chip's figure; elsewhere it may be fast (latency of the far L2,
 * lines with several words) but never slow. */
static void check_atom_shapes(const atom_shape *a, size_t n)
{
    for (size_t i = 0; i < n; i++, a++) {
        double r = atom_shape_rate(a);
        printf("%-40s model %8.2f  measured %8.2f  (%+.1f%%)\n", a->what, r, a->measured,
               100.0 * (r - a->measured) / a->measured);
        if (a->path_bound)
            assert_true(r >= a->measured * 0.98 && r <= a->measured * 1.02);
        else
            assert_true(r <= a->measured * 1.02);
    }
}

static void test_global_atomic_rate(void **state)
{
    (void)state;
    check_atom_shapes(atom_shapes, sizeof atom_shapes / sizeof atom_shapes[0]);
    check_atom_shapes(atom_round2, sizeof atom_round2 / sizeof atom_round2[0]);
    check_atom_shapes(atom_round3, sizeof atom_round3 / sizeof atom_round3[0]);
}

/* Global atomics from many SMs on the same words (atom_rate.sgasm in B
 * work-groups of 8 sub-groups, one a CU; cuda/atomic_l2.cu, raw output
 * atomic_l2_h200.txt, the two runs' range): every group's lane l of step j
 * on word 32 j + l / k of one shared table.  Once the L2 limits, a word
 * takes about 6 cycles per operation and a packet of 16 or 32 words about
 * 0.6 cycles a word; below that (2 SMs, k = 32) the path's 64 holds.
 * Cycles per warp atomic per SM. */
typedef struct atom_l2_shape {
    uint32_t k, blocks;
    double lo, hi;
} atom_l2_shape;

static const atom_l2_shape atom_l2_shapes[] = {
    { 32, 2, 64.0, 64.0 },      { 32, 16, 390.0, 394.1 },    { 32, 32, 781.8, 783.8 },
    { 32, 128, 3162.0, 3181.4 }, { 16, 128, 1525.3, 1529.0 }, { 8, 32, 204.0, 211.5 },
    { 4, 128, 342.0, 345.7 },   { 2, 128, 302.0, 303.3 },    { 1, 32, 84.0, 84.5 },
    { 1, 128, 295.0, 297.1 },
};

static double atom_l2_rate(const atom_l2_shape *a)
{
    uint32_t chain[256];
    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t j = 0; j < 8; j++)
            chain[8 * l + j] = 32 * j + l / a->k;
    uint64_t c1 = run_groups("atom_rate", 16, 256, a->blocks, 32, chain, 256);
    uint64_t c2 = run_groups("atom_rate", 32, 256, a->blocks, 32, chain, 256);
    return (double)(c2 - c1) / (8.0 * 16 * 8);
}

static void test_global_atomics_many_sms(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof atom_l2_shapes / sizeof *atom_l2_shapes; i++) {
        const atom_l2_shape *a = &atom_l2_shapes[i];
        double r = atom_l2_rate(a);
        printf("%2u lanes/word, %3u SMs on the same lines: model %8.2f  measured %7.1f-%7.1f\n",
               a->k, a->blocks, r, a->lo, a->hi);
        /* two parameters for ten shapes spanning 2.4-50x: within 12% */
        assert_true(r >= a->lo * 0.88 && r <= a->hi * 1.12);
    }
}

/* Composites: predictions printed for comparison with held-out
 * measurements.  The warp reduction must be exactly 5 x (shuffle + add +
 * two hand-overs) (24 + 4 + 1 + 1: the add waits for the shuffle's result,
 * which comes from another unit, the next shuffle for the add's); the
 * loop's branch, issued after the last add, completes 4 cycles later,
 * before the next shuffle could start;
 * the others must at least cost their dependent primitives. */
static double composite(const char *name, uint32_t items)
{
    uint64_t c0 = run(name, 0, items, 32, NULL, 0), c1 = run(name, 8, items, 32, NULL, 0);
    double per = (double)(c1 - c0) / 8;
    printf("%-40s predicted %8.1f cycles (%.3f us at 1980 MHz)\n", name, per, per / 1980.0);
    return per;
}

static void test_composites(void **state)
{
    (void)state;
    assert_true(composite("warp_reduce_shfl", 32) == 5 * (24 + 4 + 1 + 1));
    /* scan step: shuffle 24 + select 4 + add 4, and two hand-overs */
    assert_true(composite("warp_scan_shfl", 32) >= 5 * (24 + 4 + 4 + 2));
    double r256 = composite("block_reduce_256", 256), r1024 = composite("block_reduce_1024", 1024);
    /* the partial's store is off the path (nothing waits for it) */
    assert_true(r256 >= 5 * 28 + 14 + 23 + 3 * 28 + 14);
    assert_true(r1024 > r256);
    double s256 = composite("block_scan_256", 256), s1024 = composite("block_scan_1024", 1024);
    assert_true(s256 > r256);
    assert_true(s1024 > s256);
}

/* Load issue rate (cuda/lsu_rate.cu, lsu_rate_h200.txt): W warps of one
 * block run 16 independent loads an iteration; cycles per warp load per SM
 * = (cycles(2n) - cycles(n)) / (16 n W).  An SM issues one load a clock:
 * 1.00 for 4-byte lanes, shared at 8-32 warps, L1 hits at 16 and 32 (at
 * 8 warps the L1 path's latency under load bounds them: 1.55, a known
 * gap).  16-byte lanes move 512 B a warp: the local and L1 ports' 128 B a
 * cycle give 4 (4.02-4.06 measured at 8 and 16 warps; the twin's 16
 * vectors in flight need more registers than 32 warps may have). */
static double load_rate(const char *name, uint32_t warps)
{
    uint64_t c1 = run(name, 32, 32 * warps, 32, NULL, 0);
    uint64_t c2 = run(name, 64, 32 * warps, 32, NULL, 0);
    return (double)(c2 - c1) / (16.0 * 32 * warps);
}

static void test_load_rates(void **state)
{
    (void)state;
    within("shared loads, 4 B a lane, 8 warps (/SM)", load_rate("lds_rate", 8), 1.00);
    within("shared loads, 4 B a lane, 16 warps (/SM)", load_rate("lds_rate", 16), 1.00);
    within("shared loads, 4 B a lane, 32 warps (/SM)", load_rate("lds_rate", 32), 1.00);
    within("L1-hit loads, 4 B a lane, 16 warps (/SM)", load_rate("ldg_rate", 16), 1.00);
    within("L1-hit loads, 4 B a lane, 32 warps (/SM)", load_rate("ldg_rate", 32), 1.00);
    within("shared loads, 16 B a lane, 8 warps (/SM)", load_rate("lds_rate128", 8), 4.03);
    within("shared loads, 16 B a lane, 16 warps (/SM)", load_rate("lds_rate128", 16), 4.02);
    within("L1-hit loads, 16 B a lane, 8 warps (/SM)", load_rate("ldg_rate128", 8), 4.04);
    within("L1-hit loads, 16 B a lane, 16 warps (/SM)", load_rate("ldg_rate128", 16), 4.06);
}

/* The same shared loads in ptxas's loop (lds_rate_sass: 32 loads an
 * iteration between the adds that use them).  With one warp per SMSP the
 * loop's own order decides the rate: the CUDA program's 1- and 4-byte
 * loops measured 1.28 and 1.39 cycles per load per SM at 4 warps, where
 * the twin in the source's order (lds_rate) gives 1.72.  At 8 and 16
 * warps this twin gives 1.14-1.15 against 1.00 measured: printed, a known
 * gap (docs/timing-model.md, Load issue rate; greedy_oldest gives 1.12
 * there but 1.15-1.21 on lds_rate). */
static double sass_load_rate(uint32_t warps)
{
    uint64_t c1 = run("lds_rate_sass", 32, 32 * warps, 32, NULL, 0);
    uint64_t c2 = run("lds_rate_sass", 64, 32 * warps, 32, NULL, 0);
    return (double)(c2 - c1) / (32.0 * 32 * warps);
}

static void test_load_rate_ptxas_loop(void **state)
{
    (void)state;
    double r4 = sass_load_rate(4);
    printf("%-40s model %8.3f  measured 1.280-1.389\n", "shared loads, ptxas's loop, 4 warps", r4);
    assert_true(r4 >= 1.28 && r4 <= 1.39);
    printf("%-40s model %8.3f  measured 1.002 (known gap)\n", "shared loads, ptxas's loop, 8 warps",
           sass_load_rate(8));
}

/* __syncwarp is a NOP in converged code: 1.00 cycle a barrier, the slope
 * of 16 against 8 barriers an iteration (cuda/lsu_rate.cu). */
static void test_syncwarp(void **state)
{
    (void)state;
    uint64_t c8 = run("syncwarp8", 256, 32, 32, NULL, 0), c16 = run("syncwarp16", 256, 32, 32, NULL, 0);
    within("__syncwarp (slope)", (double)(c16 - c8) / (8.0 * 256), 1.00);
}

/* Run twin `name` on nvidia-h100 with launch L, timing on and its trace
 * written to `trace` (then removed): one work-group per CU.  Returns the
 * trace's JSON (free it). */
static char *run_traced(const char *name, sgemu_launch L, sgemu_argval *args,
                        const char *trace)
{
    char *src = slurp(name);
    isa_kernel k;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble(name, src, strlen(src), &k, &d), 0);
    emu_config cfg;
    assert_int_equal(emu_config_load_bundled("nvidia-h100", &cfg, &d), 0);
    L.timing = true;
    L.trace_path = trace;
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &L, args, &st, &f), 0);
    assert_int_equal(st.timing->wg_per_cu, 1);
    sgemu_stats_free(&st);
    char *json = test_slurp(trace, NULL);
    remove(trace);
    isa_kernel_free(&k);
    isa_diags_free(&d);
    free(src);
    return json;
}

/* Block dispatch (cuda/dispatch.cu, dispatch_h200.txt): 132 x 8 blocks of
 * 32 threads, one resident per SM (120 KB of shared memory each).  On the
 * H100 the next block's first instruction comes 373 cycles after a
 * block's EXIT (380, the median from the clock read before the stores to
 * the next block's, less the 7 instructions around the two reads).  The
 * twin's largest gap between two issues on CU 0 is that of its ret and the
 * next work-group's first instruction. */
static void test_dispatch_gap(void **state)
{
    (void)state;
    enum { WGS = 132 * 8 };
    static uint32_t out[4 * WGS];
    sgemu_argval args[2] = {
        { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)out, .bytes = sizeof out },
        { .kind = SGEMU_VAL_LOCAL, .bytes = 120 * 1024 },
    };
    sgemu_launch L = { .dims = 1, .global = { 32 * WGS }, .local = { 32 }, .local_given = true,
                       .sg_width = 32 };
    char *json = run_traced("dispatch", L, args, "calibration_dispatch.json");
    /* issue times of CU 0's instruction slices, in the order written */
    uint64_t prev = 0, gap = 0, issues = 0;
    for (const char *p = json; (p = strstr(p, "\"ph\": \"X\", \"pid\": 0, ")) != NULL; p++) {
        const char *ts = strstr(p, "\"ts\": ");
        assert_non_null(ts);
        uint64_t t = strtoull(ts + 6, NULL, 10);
        if (issues++ && t - prev > gap)
            gap = t - prev;
        prev = t;
    }
    assert_int_equal(issues, 8 * 6);    /* 8 work-groups of 6 instructions */
    within("block dispatch gap (EXIT to next first)", (double)gap, 373);
    free(json);
}

/* Kernel start (cuda/warm_start.cu, warm_start_h200.txt): vector_add at
 * 132 blocks of 256 threads, warm.  The H200's median warp issues its first
 * load 285 cycles after its first instruction, which comes 7 after its
 * block's first (warps 2 apart).  The twin's first load (pc 3) on CU 0,
 * the median over its 8 subgroups, from the CU's first start at 0. */
static void test_kernel_start(void **state)
{
    (void)state;
    enum { N = 132 * 256 };
    static float a[N], b[N], c[N];
    sgemu_argval args[4] = {
        { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)a, .bytes = sizeof a },
        { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)b, .bytes = sizeof b },
        { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)c, .bytes = sizeof c },
        { .kind = SGEMU_VAL_SCALAR, .scalar = N },
    };
    sgemu_launch L = { .dims = 1, .global = { N }, .local = { 256 }, .local_given = true,
                       .sg_width = 32 };
    char *json = run_traced("warm_start", L, args, "calibration_warm_start.json");
    uint64_t t[8];
    unsigned n = 0;
    for (const char *p = json; (p = strstr(p, "\"ph\": \"X\", \"pid\": 0, ")) != NULL; p++) {
        const char *e = strchr(p, '}');
        const char *pc = strstr(p, "\"pc\": 3,");
        if (!e || !pc || pc > e)
            continue;
        const char *ts = strstr(p, "\"ts\": ");
        assert_non_null(ts);
        assert_true(n < 8);
        t[n++] = strtoull(ts + 6, NULL, 10);
    }
    assert_int_equal(n, 8);
    for (unsigned i = 1; i < n; i++)            /* insertion sort */
        for (unsigned j = i; j && t[j - 1] > t[j]; j--) {
            uint64_t x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    within("kernel start: first load, median warp", (double)(t[3] + t[4]) / 2.0, 285 + 7);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_shared_load),
        cmocka_unit_test(test_reduce_ballot_barrier),
        cmocka_unit_test(test_barrier_block_sizes),
        cmocka_unit_test(test_throughputs),
        cmocka_unit_test(test_pointer_chase),
        cmocka_unit_test(test_pipes),
        cmocka_unit_test(test_int_pipes),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_smem_atomic_rate),
        cmocka_unit_test(test_global_atomic_rate),
        cmocka_unit_test(test_global_atomics_many_sms),
        cmocka_unit_test(test_composites),
        cmocka_unit_test(test_load_rates),
        cmocka_unit_test(test_load_rate_ptxas_loop),
        cmocka_unit_test(test_syncwarp),
        cmocka_unit_test(test_dispatch_gap),
        cmocka_unit_test(test_kernel_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
