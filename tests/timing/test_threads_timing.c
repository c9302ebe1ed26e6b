/* test_threads_timing.c - the timing model on several host threads gives the
 * cycles and every statistic of one thread (docs/timing-model.md, "Host
 * threads").  Kernels mix what orders steps between compute units (global
 * loads and stores, sub-group collectives as micro-ops, local memory and
 * barriers, work-groups ending and starting) with long ALU stretches that
 * threads run independently; configs with 1 to 132 compute units and both
 * scheduler policies.  A fault stops the run at the same work-group with the
 * same message, although the functional engine runs ahead on its own
 * thread. */
#include "sgemu.h"
#include "timing_model.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_kernel.h"
#include "test_args.h"

static const uint32_t thread_counts[] = { 2, 3, 7 };
#define NTC (sizeof thread_counts / sizeof thread_counts[0])

/* per item: a loop of dependent ALU work, a sub-group reduce, a local
 * exchange through a barrier, then a store; item 0 of each group loops
 * longer (divergence, uneven work-group lengths) */
static const char mix_src[] =
    ".kernel mix\n"
    ".arg in global u32\n"
    ".arg out global u32\n"
    ".arg scratch local u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r1, %local_id.x\n"
    "    ld.global.u32 r3, [%in + r0*4]\n"
    "    mov.u32 r5, 12\n"
    "    cmp.ne.u32 p0, r1, 0\n"
    "    bra p0, loop\n"
    "    mov.u32 r5, 30\n"
    "loop:\n"
    "    mad.u32 r3, r3, 1664525, 1013904223\n"
    "    shr.u32 r4, r3, 13\n"
    "    xor.u32 r3, r3, r4\n"
    "    sub.u32 r5, r5, 1\n"
    "    cmp.ne.u32 p1, r5, 0\n"
    "    bra p1, loop\n"
    "    sub_group_reduce_add.u32 r6, r3\n"
    "    st.local.u32 [%scratch + r1*4], r6\n"
    "    barrier.local\n"
    "    xor.u32 r7, r1, 1\n"
    "    ld.local.u32 r8, [%scratch + r7*4]\n"
    "    add.u32 r8, r8, r3\n"
    "    st.global.u32 [%out + r0*4], r8\n"
    "    ret\n";

static void assemble(const char *src, isa_kernel *k)
{
    test_assemble("threads_timing.sgasm", src, k);
}

/* run with the Chrome trace written to trace (NULL: none) */
static int run_traced(const isa_kernel *k, const emu_config *cfg, uint32_t n, uint32_t local,
                      uint32_t width, uint32_t threads, const char *trace, uint32_t *out,
                      sgemu_stats *st)
{
    uint32_t *in = malloc(n * 4);
    assert_non_null(in);
    for (uint32_t i = 0; i < n; i++)
        in[i] = i * 2654435761u + 7;
    sgemu_argval a[3];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)in;
    a[0].bytes = n * 4;
    a[1].data = (uint8_t *)out;
    a[1].bytes = n * 4;
    a[2].kind = SGEMU_VAL_LOCAL;
    a[2].bytes = local * 4;
    sgemu_launch L = launch_1d(n, local, width);
    L.threads = threads;
    L.timing = true;
    L.trace_path = trace;
    L.max_instructions = 100000000;
    sgemu_fault f;
    int rc = sgemu_run(k, cfg, &L, a, st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    free(in);
    return rc;
}

static int run(const isa_kernel *k, const emu_config *cfg, uint32_t n, uint32_t local,
               uint32_t width, uint32_t threads, uint32_t *out, sgemu_stats *st)
{
    return run_traced(k, cfg, n, local, width, threads, NULL, out, st);
}

static void same_timing(const sgemu_timing *a, const sgemu_timing *b)
{
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->instructions, b->instructions);
    assert_int_equal(a->uops, b->uops);
    assert_int_equal(a->lane_ops, b->lane_ops);
    for (int i = 0; i < TM_STALL_COUNT; i++)
        assert_int_equal(a->stall[i], b->stall[i]);
    for (int l = 0; l < TM_LEVEL_COUNT; l++) {
        assert_int_equal(a->hits[l], b->hits[l]);
        assert_int_equal(a->misses[l], b->misses[l]);
        assert_int_equal(a->bytes[l], b->bytes[l]);
        assert_int_equal(a->requests[l], b->requests[l]);
    }
    assert_int_equal(a->bank_conflict_cycles, b->bank_conflict_cycles);
    /* the same additions in the same order: bit-equal */
    assert_memory_equal(&a->achieved_occupancy, &b->achieved_occupancy, sizeof(double));
    assert_int_equal(a->ncu, b->ncu);
    for (uint32_t c = 0; c < a->ncu; c++) {
        assert_int_equal(a->cu_busy_cycles[c], b->cu_busy_cycles[c]);
        assert_int_equal(a->cu_issued[c], b->cu_issued[c]);
    }
    assert_int_equal(a->ninst, b->ninst);
    for (uint32_t i = 0; i < a->ninst; i++) {
        assert_int_equal(a->per_inst[i].count, b->per_inst[i].count);
        assert_int_equal(a->per_inst[i].lanes, b->per_inst[i].lanes);
        assert_int_equal(a->per_inst[i].cycles, b->per_inst[i].cycles);
        assert_int_equal(a->per_inst[i].stalls, b->per_inst[i].stalls);
    }
}

/* Runs on each of counts[] host threads give out1 and the timing ref. */
static void same_on_threads(const isa_kernel *k, const emu_config *cfg, uint32_t n,
                            uint32_t local, uint32_t width, const uint32_t *counts,
                            uint32_t ncounts, const uint32_t *out1, const sgemu_timing *ref)
{
    uint32_t *out = calloc(n, 4);
    assert_non_null(out);
    for (uint32_t t = 0; t < ncounts; t++) {
        sgemu_stats st;
        memset(out, 0, n * 4);
        assert_int_equal(run(k, cfg, n, local, width, counts[t], out, &st), 0);
        assert_memory_equal(out, out1, n * 4);
        same_timing(ref, st.timing);
        sgemu_stats_free(&st);
    }
    free(out);
}

static void check_config_policy(const char *name, uint32_t n, uint32_t local, uint32_t width,
                                const char *policy)
{
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled(name, &cfg, &d), 0);
    isa_diags_free(&d);
    if (policy) {
        char err[256];
        assert_int_equal(emu_config_set(&cfg, "scheduler.policy", policy, err, sizeof err), 0);
    }
    isa_kernel k;
    assemble(mix_src, &k);
    uint32_t *out1 = calloc(n, 4);
    assert_non_null(out1);
    sgemu_stats one;
    assert_int_equal(run(&k, &cfg, n, local, width, 1, out1, &one), 0);
    assert_non_null(one.timing);
    assert_true(one.timing->cycles > 0);
    same_on_threads(&k, &cfg, n, local, width, thread_counts, NTC, out1, one.timing);
    sgemu_stats_free(&one);
    free(out1);
    isa_kernel_free(&k);
}

static void check_config(const char *name, uint32_t n, uint32_t local, uint32_t width)
{
    check_config_policy(name, n, local, width, NULL);
}

static void default_config(void **state)
{
    (void)state;
    check_config("default", 64 * 40, 64, 16);
}

static void xe_hpg_sixteen_wide(void **state)
{
    (void)state;
    check_config("intel-xe-hpg", 128 * 40, 128, 8);
}

static void h100_many_units(void **state)
{
    (void)state;
    check_config("nvidia-h100", 64 * 140, 64, 32);
}

/* nvidia-h100's integer adds on int or int_mad through oldest_first's
 * wait lists (one list for the pair) */
static void h100_oldest_first(void **state)
{
    (void)state;
    check_config_policy("nvidia-h100", 64 * 140, 64, 32, "oldest_first");
}

static void round_robin_one_unit(void **state)
{
    (void)state;
    check_config("test-simple", 32 * 21, 32, 8);
}

/* The launcher and the kernel-argument fetch (docs/timing-model.md,
 * Launch) on test-simple: two work-groups of two sub-groups per CU, the
 * second of each CU's first wave and every later one waiting for the
 * launcher, the first wave for the arguments; the mix's uneven work-groups
 * end and start at different times on the two CUs. */
static void launcher_and_arguments(void **state)
{
    (void)state;
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled("test-simple", &cfg, &d), 0);
    isa_diags_free(&d);
    cfg.timing.launch_wg_interval = 10;
    cfg.timing.launch_sg_interval = 7;
    cfg.timing.kernel_args_latency = 50;
    isa_kernel k;
    assemble(mix_src, &k);
    const uint32_t n = 16 * 25;
    uint32_t *out1 = calloc(n, 4);
    assert_non_null(out1);
    sgemu_stats one;
    assert_int_equal(run(&k, &cfg, n, 16, 8, 1, out1, &one), 0);
    assert_non_null(one.timing);
    assert_int_equal(one.timing->wg_per_cu, 2);
    same_on_threads(&k, &cfg, n, 16, 8, thread_counts, NTC, out1, one.timing);
    sgemu_stats_free(&one);
    free(out1);
    isa_kernel_free(&k);
}

/* A global store right after a work-group barrier, sub-groups arriving
 * apart: with barriers released at once (latency 0) the release may let
 * the last arriving thread issue the store in the arrival's own step, so
 * that step must take its shared turn; with a latency it stays inside the
 * CU.  Both scheduler policies.
 * The Chrome trace keeps the strict (time, CU) order of every step (no
 * local step runs ahead), the reference the other runs must match. */
static const char barrier_store_src[] =
    ".kernel bs\n"
    ".arg in global u32\n"
    ".arg out global u32\n"
    ".arg scratch local u32\n"
    "    mov.u32 r1, %local_id.x\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r3, [%in + r0*4]\n"
    "    shr.u32 r5, r1, 3\n"
    "    add.u32 r5, r5, 1\n"
    "loop:\n"
    "    mad.u32 r3, r3, 1664525, 1013904223\n"
    "    sub.u32 r5, r5, 1\n"
    "    cmp.ne.u32 p1, r5, 0\n"
    "    bra p1, loop\n"
    "    st.local.u32 [%scratch + r1*4], r3\n"
    "    barrier.local\n"
    "    st.global.u32 [%out + r0*4], r3\n"
    "    ret\n";

static void barrier_then_store(void **state)
{
    (void)state;
    isa_kernel k;
    assemble(barrier_store_src, &k);
    const uint32_t n = 64 * 48;
    static const uint32_t lat[] = { 0, 30 };
    for (uint32_t li = 0; li < 12; li++) {
        /* one sub-group per work-group: no other thread waits at the
         * barrier whose next record would mark the step shared */
        uint32_t local = li < 6 ? 8 : 64;
        emu_config cfg;
        isa_diags d;
        memset(&d, 0, sizeof d);
        assert_int_equal(emu_config_load_bundled("intel-xe-hpg", &cfg, &d), 0);
        isa_diags_free(&d);
        cfg.compute_units = 4;
        cfg.timing.barrier_latency = lat[li % 2];
        /* the general scan (round_robin, greedy_oldest) picks a released
         * thread again in the cycle it arrived in; issue width 2 lets it */
        cfg.timing.policy = (uint8_t)((li / 2) % 3);
        cfg.timing.issue_width = 2;
        cfg.timing.barrier_arrival_ii = 0;
        cfg.timing.barrier_release_ii = 0;
        uint32_t *out1 = calloc(n, 4);
        assert_non_null(out1);
        sgemu_stats strict;
        const char *tp = "threads_timing_barrier_trace.json";
        assert_int_equal(run_traced(&k, &cfg, n, local, 8, 1, tp, out1, &strict), 0);
        remove(tp);
        static const uint32_t counts[] = { 1, 2, 3 };
        same_on_threads(&k, &cfg, n, local, 8, counts, 3, out1, strict.timing);
        sgemu_stats_free(&strict);
        free(out1);
    }
    isa_kernel_free(&k);
}

/* work-item 1000 loads out of bounds: work-group 15 (local 64) faults */
static const char fault_src[] =
    ".kernel f\n"
    ".arg out global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    cmp.eq.u32 p0, r0, 1000\n"
    "    sel.u32 r1, p0, 100000, r0\n"
    "    ld.global.u32 r2, [%out + r1*4]\n"
    "    add.u32 r2, r2, r0\n"
    "    st.global.u32 [%out + r0*4], r2\n"
    "    ret\n";

static void fault_as_one_thread(void **state)
{
    (void)state;
    emu_config cfg;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled("default", &cfg, &d), 0);
    isa_diags_free(&d);
    isa_kernel k;
    assemble(fault_src, &k);
    const uint32_t n = 4096;
    char first[1024] = "";
    uint32_t *out1 = NULL;
    for (uint32_t t = 0; t <= NTC; t++) {
        uint32_t *out = calloc(n, 4);
        assert_non_null(out);
        sgemu_argval a[1];
        memset(a, 0, sizeof a);
        a[0].kind = SGEMU_VAL_BUFFER;
        a[0].data = (uint8_t *)out;
        a[0].bytes = n * 4;
        sgemu_launch L = launch_1d(n, 64, 8);
        L.threads = t ? thread_counts[t - 1] : 1;
        L.timing = true;
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &L, a, &st, &f), SGEMU_EXIT_FAULT);
        assert_non_null(strstr(f.msg, "(1000,0,0)"));
        /* the work-groups before the faulting one ran, none after it */
        for (uint32_t i = 0; i < 960; i++)
            assert_int_equal(out[i], i);
        for (uint32_t i = 1024; i < n; i++)
            assert_int_equal(out[i], 0);
        if (!t) {
            snprintf(first, sizeof first, "%s", f.msg);
            out1 = out;
        } else {
            assert_string_equal(f.msg, first);
            assert_memory_equal(out, out1, n * 4);
            free(out);
        }
        sgemu_stats_free(&st);
    }
    free(out1);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_config),
        cmocka_unit_test(xe_hpg_sixteen_wide),
        cmocka_unit_test(h100_many_units),
        cmocka_unit_test(h100_oldest_first),
        cmocka_unit_test(round_robin_one_unit),
        cmocka_unit_test(launcher_and_arguments),
        cmocka_unit_test(barrier_then_store),
        cmocka_unit_test(fault_as_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
