/* test_l2_carry.c - the L2's lines carried from one launch to the next
 * (memory.l2.keep_across_launches, memory.l2.device_writes_fill;
 * docs/timing-model.md, "Cache state across launches").  Exact cycles
 * derived by hand.
 *
 * At the memory's interface (tm_mem, as test_mem_inflight.c): 64-B lines;
 * L1 4 KiB 4-way, latency 20; L2 32 KiB 8-way (64 sets, 512 lines), latency
 * 100; DRAM latency 300.  One load of 8 lanes on bytes 0..31 of a line,
 * alone: an L1 hit 20, an L2 hit 100, a miss 300.  Buffer argument i of a
 * launch is at (i + 1) << 40.
 *
 * Whole launches (sgemu_run) on configs/test-simple.yaml (the same
 * latencies but L1 30): one sub-group loads a[gid] and stores it to c[gid];
 * only the load's time differs between two launches, so a launch whose
 * load hits the L2 takes dram - l2 = 200 cycles less than one whose load
 * goes to DRAM, and 270 less if its L1 kept the line. */
#include "sgemu.h"
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

typedef struct mem {
    emu_config cfg;
    sgemu_timing st;
    tm_mem m;
    tm_carry c;
    uint64_t *unbound;
    uint32_t nunbound;
} mem;

#define ARG(i) ((uint64_t)((i) + 1) << 40)

static void tiny_cfg(emu_config *cfg, bool keep, bool dma)
{
    memset(cfg, 0, sizeof *cfg);
    emu_timing_cfg *tc = &cfg->timing;
    tc->line_bytes = 64;
    tc->l1 = (tm_cache_cfg){ .size = 4096, .assoc = 4, .latency = 20, .bw = 64 };
    tc->l2 = (tm_cache_cfg){ .size = 32768, .assoc = 8, .latency = 100, .bw = 64 };
    tc->dram_latency = 300;
    tc->dram_bw = 32;
    tc->l2_keep = keep;
    tc->l2_device_writes = dma;
}

/* A launch binding buffer ids[i] (0: none) of `bytes` as argument i. */
static void launch_start(mem *x, const emu_config *cfg, sgemu_cache_state *s,
                         const uint64_t *ids, uint32_t n, uint64_t bytes)
{
    memset(&x->st, 0, sizeof x->st);
    x->cfg = *cfg;
    assert_int_equal(tm_mem_init(&x->m, &x->cfg.timing, 1, &x->st), 0);
    memset(&x->c, 0, sizeof x->c);
    x->c.state = s;
    x->c.narg = n;
    for (uint32_t i = 0; i < n; i++) {
        x->c.buffer[i] = ids[i];
        x->c.bytes[i] = bytes;
    }
    assert_int_equal(tm_carry_install(&x->m, &x->c, &x->unbound, &x->nunbound), 0);
}

static void launch_end(mem *x)
{
    assert_int_equal(tm_carry_save(&x->m, &x->c, x->unbound, x->nunbound), 0);
    free(x->unbound);
    tm_mem_free(&x->m);
}

/* one load of 8 lanes at a, issued at t: issue to done */
static uint64_t load(mem *x, uint64_t t, uint64_t a)
{
    uint64_t addr[8];
    for (uint32_t i = 0; i < 8; i++)
        addr[i] = a + 4 * i;
    return tm_mem_global(&x->m, 0, t, addr, 8, 4, false, false, false) - t;
}

/* Launch 1 loads line 0 of buffer 7 (argument 0): 300.  Launch 2, the same
 * binding: its L1 starts empty, its L2 holds the line: 100 with the key on,
 * 300 with it off.  A load of line 1 in launch 2 (never touched): 300. */
static void test_second_launch_hits_l2(void **state)
{
    (void)state;
    for (int keep = 0; keep <= 1; keep++) {
        emu_config cfg;
        tiny_cfg(&cfg, keep, false);
        sgemu_cache_state *s = sgemu_cache_state_new();
        uint64_t ids[1] = { 7 };
        mem x;
        launch_start(&x, &cfg, s, ids, 1, 4096);
        assert_int_equal(load(&x, 0, ARG(0)), 300);
        launch_end(&x);
        assert_int_equal(sgemu_cache_state_lines(s), keep ? 1 : 0);
        launch_start(&x, &cfg, s, ids, 1, 4096);
        assert_int_equal(load(&x, 0, ARG(0)), keep ? 100 : 300);
        assert_int_equal(load(&x, 1000, ARG(0) + 64), 300);
        assert_int_equal(x.st.hits[TM_LEVEL_L1], 0);
        launch_end(&x);
        sgemu_cache_state_free(s);
    }
}

/* The lines follow the buffer, not the argument: launch 2 binds buffer 9
 * as argument 0 and buffer 7 as argument 2.  Buffer 7's line 0 is at
 * ARG(2): 100; ARG(0) is buffer 9's line 0: 300. */
static void test_lines_follow_the_buffer(void **state)
{
    (void)state;
    emu_config cfg;
    tiny_cfg(&cfg, true, false);
    sgemu_cache_state *s = sgemu_cache_state_new();
    uint64_t ids1[1] = { 7 }, ids2[3] = { 9, 0, 7 };
    mem x;
    launch_start(&x, &cfg, s, ids1, 1, 4096);
    assert_int_equal(load(&x, 0, ARG(0)), 300);
    launch_end(&x);
    launch_start(&x, &cfg, s, ids2, 3, 4096);
    assert_int_equal(load(&x, 0, ARG(2)), 100);
    assert_int_equal(load(&x, 1000, ARG(0)), 300);
    launch_end(&x);
    sgemu_cache_state_free(s);
}

/* Buffer 7 bound twice (arguments 0 and 1): its line 0 loaded through
 * both is two lines of the launch's L2 (300 each) but one line of the
 * state; the next launch, binding it once, hits it (100). */
static void test_buffer_bound_twice(void **state)
{
    (void)state;
    emu_config cfg;
    tiny_cfg(&cfg, true, false);
    sgemu_cache_state *s = sgemu_cache_state_new();
    uint64_t ids2[2] = { 7, 7 }, ids1[1] = { 7 };
    mem x;
    launch_start(&x, &cfg, s, ids2, 2, 4096);
    assert_int_equal(load(&x, 0, ARG(0)), 300);
    assert_int_equal(load(&x, 1000, ARG(1)), 300);
    launch_end(&x);
    assert_int_equal(sgemu_cache_state_lines(s), 1);
    launch_start(&x, &cfg, s, ids1, 1, 4096);
    assert_int_equal(load(&x, 0, ARG(0)), 100);
    launch_end(&x);
    sgemu_cache_state_free(s);
}

/* A fill of bytes [0, 256) of buffer 7 before launch 1 (clEnqueueFillBuffer):
 * with device_writes_fill its 4 lines are in the L2: lines 0 and 3 hit
 * (100), line 4 misses (300); without, all miss.  A host write of bytes
 * [0, 64) after it drops line 0 again (300) but not line 1 (100). */
static void test_fill_then_kernel(void **state)
{
    (void)state;
    for (int dma = 0; dma <= 1; dma++) {
        emu_config cfg;
        tiny_cfg(&cfg, true, dma);
        sgemu_cache_state *s = sgemu_cache_state_new();
        assert_int_equal(sgemu_cache_device_write(s, &cfg, 7, 0, 256), 0);
        assert_int_equal(sgemu_cache_state_lines(s), dma ? 4 : 0);
        uint64_t ids[1] = { 7 };
        mem x;
        launch_start(&x, &cfg, s, ids, 1, 4096);
        assert_int_equal(load(&x, 0, ARG(0)), dma ? 100 : 300);
        assert_int_equal(load(&x, 1000, ARG(0) + 192), dma ? 100 : 300);
        assert_int_equal(load(&x, 2000, ARG(0) + 256), 300);
        launch_end(&x);
        sgemu_cache_host_write(s, &cfg, 7, 0, 64);
        launch_start(&x, &cfg, s, ids, 1, 4096);
        assert_int_equal(load(&x, 0, ARG(0)), 300);
        assert_int_equal(load(&x, 1000, ARG(0) + 64), dma ? 100 : 300);
        launch_end(&x);
        sgemu_cache_state_free(s);
    }
}

/* A fill larger than the L2 (1024 lines, the L2 holds 512) leaves the last
 * 512 lines written: line 511 misses (300), line 512 and 1023 hit (100). */
static void test_fill_larger_than_l2(void **state)
{
    (void)state;
    emu_config cfg;
    tiny_cfg(&cfg, true, true);
    sgemu_cache_state *s = sgemu_cache_state_new();
    assert_int_equal(sgemu_cache_device_write(s, &cfg, 7, 0, 1024 * 64), 0);
    assert_int_equal(sgemu_cache_state_lines(s), 512);
    uint64_t ids[1] = { 7 };
    mem x;
    launch_start(&x, &cfg, s, ids, 1, 1024 * 64);
    assert_int_equal(load(&x, 0, ARG(0) + 511 * 64), 300);
    assert_int_equal(load(&x, 1000, ARG(0) + 512 * 64), 100);
    assert_int_equal(load(&x, 2000, ARG(0) + 1023 * 64), 100);
    launch_end(&x);
    sgemu_cache_state_free(s);
}

/* A buffer the launch does not bind keeps its ways and ages.  Buffer 7
 * fills the whole L2 (512 lines, set = line mod 64, each set's 8 ways
 * lines j, j + 64, ..., j + 448 in that age order).  Launch 2 binds only
 * buffer 9 and loads its line 0 (set 0): a miss (300) that evicts set 0's
 * least recently used way, buffer 7's line 0.  Launch 3 binds buffer 7:
 * line 0 misses (300), line 64 (set 0, the next oldest) and line 1 (set 1,
 * untouched) hit (100), loaded first (a miss in set 0 would evict line
 * 64, now its oldest). */
static void test_unbound_buffer_ages(void **state)
{
    (void)state;
    emu_config cfg;
    tiny_cfg(&cfg, true, true);
    sgemu_cache_state *s = sgemu_cache_state_new();
    assert_int_equal(sgemu_cache_device_write(s, &cfg, 7, 0, 512 * 64), 0);
    uint64_t ids7[1] = { 7 }, ids9[1] = { 9 };
    mem x;
    launch_start(&x, &cfg, s, ids9, 1, 4096);
    assert_int_equal(load(&x, 0, ARG(0)), 300);
    launch_end(&x);
    assert_int_equal(sgemu_cache_state_lines(s), 512);
    launch_start(&x, &cfg, s, ids7, 1, 512 * 64);
    assert_int_equal(load(&x, 0, ARG(0) + 64 * 64), 100);
    assert_int_equal(load(&x, 1000, ARG(0) + 64), 100);
    assert_int_equal(load(&x, 2000, ARG(0)), 300);
    launch_end(&x);
    sgemu_cache_state_free(s);
}

/* ---- whole launches ---- */

static const char *const copy_kernel =
    ".kernel copy\n.arg a global u32\n.arg c global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%a + r0*4]\n"
    "    st.global.u32 [%c + r0*4], r1\n"
    "    ret\n";

/* cycles[i]: launch i of `n` of the copy kernel (8 items, SIMD8) sharing
 * state s (NULL: none) */
static void run_copies(emu_config *cfg, sgemu_cache_state *s, uint32_t n, uint64_t *cycles)
{
    isa_kernel k;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble("t.sgasm", copy_kernel, strlen(copy_kernel), &k, &d), 0);
    isa_diags_free(&d);
    uint32_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, c[8] = { 0 };
    sgemu_argval args[2] = { sgemu_arg_buffer(a, sizeof a), sgemu_arg_buffer(c, sizeof c) };
    sgemu_launch l = { .dims = 1, .global = { 8, 1, 1 }, .local = { 8, 1, 1 },
                       .local_given = true, .sg_width = 8, .timing = true, .threads = 1,
                       .caches = s };
    for (uint32_t i = 0; i < n; i++) {
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, cfg, &l, args, &st, &f), 0);
        cycles[i] = st.timing->cycles;
        sgemu_stats_free(&st);
    }
    assert_int_equal(c[7], 8);
    isa_kernel_free(&k);
}

static void load_simple(emu_config *cfg, bool keep, bool dma)
{
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_bundled("test-simple", cfg, &d), 0);
    isa_diags_free(&d);
    assert_int_equal(cfg->timing.dram_latency - cfg->timing.l2.latency, 200);
    assert_int_equal(cfg->timing.l2_keep, 0);       /* absent in test-simple */
    cfg->timing.l2_keep = keep;
    cfg->timing.l2_device_writes = dma;
}

/* Launch 2 of the copy kernel: 200 cycles less than launch 1 with the key
 * on (the L2 hit, not the L1's 270), the same with it off or without a
 * state; launch 3 as launch 2. */
static void test_run_twice(void **state)
{
    (void)state;
    emu_config cfg;
    uint64_t cy[3], off[3], none[1];
    load_simple(&cfg, false, false);
    sgemu_cache_state *s = sgemu_cache_state_new();
    run_copies(&cfg, s, 3, off);
    run_copies(&cfg, NULL, 1, none);
    load_simple(&cfg, true, false);
    run_copies(&cfg, s, 3, cy);
    assert_int_equal(off[1], off[0]);
    assert_int_equal(none[0], off[0]);
    assert_int_equal(cy[0], off[0]);
    assert_int_equal(cy[1], cy[0] - 200);
    assert_int_equal(cy[2], cy[1]);
    sgemu_cache_state_free(s);
}

/* A fill of a (buffer 1: argument 0, sgemu_launch.cache_buffer NULL) before
 * the first launch: it is 200 cycles faster than a cold one with
 * device_writes_fill, as fast as a cold one without. */
static void test_run_after_fill(void **state)
{
    (void)state;
    uint64_t cold[1], after[1];
    for (int dma = 0; dma <= 1; dma++) {
        emu_config cfg;
        load_simple(&cfg, true, dma);
        run_copies(&cfg, NULL, 1, cold);
        sgemu_cache_state *s = sgemu_cache_state_new();
        assert_int_equal(sgemu_cache_device_write(s, &cfg, 1, 0, 32), 0);
        run_copies(&cfg, s, 1, after);
        assert_int_equal(after[0], dma ? cold[0] - 200 : cold[0]);
        sgemu_cache_state_free(s);
    }
}

/* nvidia-h100 (keep_across_launches 1): vector_add over 264 work-groups of
 * 256, launched twice; the second launch's cycles and the lines carried
 * are the same at -j 1, 2 and 3, and the second launch is faster. */
static void test_threads_same(void **state)
{
    (void)state;
    emu_config cfg;
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_bundled("nvidia-h100", &cfg, &d), 0);
    assert_int_equal(cfg.timing.l2_keep, 1);
    static const char *const vadd =
        ".kernel vadd\n.arg a global f32\n.arg b global f32\n.arg c global f32\n"
        "    mov.u32 r0, %global_id.x\n"
        "    ld.global.f32 r1, [%a + r0*4]\n"
        "    ld.global.f32 r2, [%b + r0*4]\n"
        "    add.f32 r3, r1, r2\n"
        "    st.global.f32 [%c + r0*4], r3\n"
        "    ret\n";
    isa_kernel k;
    assert_int_equal(isa_assemble("v.sgasm", vadd, strlen(vadd), &k, &d), 0);
    isa_diags_free(&d);
    enum { N = 264 * 256 };
    float *a = calloc(N, 4), *b = calloc(N, 4), *c = calloc(N, 4);
    assert_non_null(a && b && c);
    uint64_t first = 0, second[3], lines[3];
    for (uint32_t j = 1; j <= 3; j++) {
        sgemu_cache_state *s = sgemu_cache_state_new();
        sgemu_argval args[3] = { sgemu_arg_buffer(a, N * 4), sgemu_arg_buffer(b, N * 4),
                                 sgemu_arg_buffer(c, N * 4) };
        sgemu_launch l = { .dims = 1, .global = { N, 1, 1 }, .local = { 256, 1, 1 },
                           .local_given = true, .sg_width = 32, .timing = true,
                           .threads = j, .caches = s };
        for (int i = 0; i < 2; i++) {
            sgemu_stats st;
            sgemu_fault f;
            assert_int_equal(sgemu_run(&k, &cfg, &l, args, &st, &f), 0);
            if (i == 0 && j == 1)
                first = st.timing->cycles;
            if (i == 1)
                second[j - 1] = st.timing->cycles;
            sgemu_stats_free(&st);
        }
        lines[j - 1] = sgemu_cache_state_lines(s);
        sgemu_cache_state_free(s);
    }
    assert_int_equal(second[1], second[0]);
    assert_int_equal(second[2], second[0]);
    assert_int_equal(lines[1], lines[0]);
    assert_int_equal(lines[2], lines[0]);
    assert_int_equal(lines[0], 3 * N * 4 / 128);      /* a, b and c, 128-B lines */
    assert_true(second[0] < first);
    free(a);
    free(b);
    free(c);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_launch_hits_l2),
        cmocka_unit_test(test_lines_follow_the_buffer),
        cmocka_unit_test(test_buffer_bound_twice),
        cmocka_unit_test(test_fill_then_kernel),
        cmocka_unit_test(test_fill_larger_than_l2),
        cmocka_unit_test(test_unbound_buffer_ages),
        cmocka_unit_test(test_run_twice),
        cmocka_unit_test(test_run_after_fill),
        cmocka_unit_test(test_threads_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
