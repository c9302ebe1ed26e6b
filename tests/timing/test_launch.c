/* test_launch.c - the compute unit's launcher and the kernel-argument fetch
 * (docs/timing-model.md, Launch), exact cycles on configs/test-simple.yaml
 * derived by hand.  test-simple: 2 CUs of 4 thread slots, one scheduler of
 * issue width 1, dispatch_latency 0; `ret` alone is a branch (latency 4):
 * a subgroup that issues it at s is done at s + 4.  SIMD8 with 16-item
 * work-groups: 2 subgroups a work-group, 2 work-groups resident per CU;
 * work-group w goes to CU w mod 2 in the first wave, so both CUs run the
 * same times and the cycles are those of CU 0. */
#include "sgemu.h"
#include "timing_model.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *const ret_only = ".kernel r\n.arg out global u32\nret\n";

/* cycles of ret_only over `wgs` work-groups of 16 items at SIMD8, with the
 * launcher's intervals (wi, si), kernel_args_latency args and
 * dispatch_latency disp; *busy0 (if given): CU 0's busy cycles */
static uint64_t run_launch(uint32_t wgs, uint32_t wi, uint32_t si, uint32_t args, uint32_t disp,
                           uint64_t *busy0)
{
    isa_kernel k;
    emu_config cfg;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble("t.sgasm", ret_only, strlen(ret_only), &k, &d), 0);
    assert_int_equal(emu_config_load_bundled("test-simple", &cfg, &d), 0);
    isa_diags_free(&d);
    assert_int_equal(cfg.timing.launch_wg_interval, 0);     /* absent in test-simple */
    assert_int_equal(cfg.timing.launch_sg_interval, 0);
    assert_int_equal(cfg.timing.kernel_args_latency, 0);
    cfg.timing.launch_wg_interval = wi;
    cfg.timing.launch_sg_interval = si;
    cfg.timing.kernel_args_latency = args;
    cfg.timing.dispatch_latency = disp;
    uint32_t buf[16] = { 0 };
    sgemu_argval a[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf, .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 16u * wgs }, .local = { 16 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(st.timing->wg_per_cu, 2);
    uint64_t c = st.timing->cycles;
    if (busy0)
        *busy0 = st.timing->cu_busy_cycles[0];
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return c;
}

/* Keys absent: every subgroup of the first wave is there at 0; the one
 * scheduler issues the four rets of CU 0 at 0, 1, 2, 3 -> done 7.  Six
 * work-groups: CU 0's work-group 0 is done at 5 (its rets at 0, 1), so
 * work-group 4 starts at 5: rets at 5, 6 -> 10. */
static void test_no_launcher(void **state)
{
    (void)state;
    assert_int_equal(run_launch(4, 0, 0, 0, 0, NULL), 7);
    assert_int_equal(run_launch(6, 0, 0, 0, 0, NULL), 10);
}

/* Work-group interval 10, subgroup interval 3 (2 x 3 = 6 < 10: the
 * launcher takes 10 a work-group).  CU 0: work-group 0 at 0, its subgroups
 * at 0 and 3 (-> 4, 7); work-group 2 when the launcher is free, at 10:
 * subgroups at 10, 13 (-> 14, 17).  Total 17.
 * With a third work-group on CU 0 (six in all): work-group 0 ends at 7 and
 * frees its slot, but the launcher is busy until 10 + 10 = 20: work-group 4
 * starts at 20, subgroups at 20 and 23 -> 27. */
static void test_fill_work_group_interval(void **state)
{
    (void)state;
    uint64_t busy = 0;
    assert_int_equal(run_launch(4, 10, 3, 0, 0, &busy), 17);
    assert_int_equal(busy, 17);     /* first start 0, last done 17 */
    assert_int_equal(run_launch(6, 10, 3, 0, 0, NULL), 27);
    /* the launcher is free again by a later start: dispatch_latency 30 puts
     * work-group 4 at 7 + 30 = 37 > 20: subgroups at 37, 40 -> 44 */
    assert_int_equal(run_launch(6, 10, 3, 0, 30, NULL), 44);
}

/* Subgroup interval 7 over work-group interval 10: 2 x 7 = 14 a
 * work-group.  Work-group 0's subgroups at 0, 7; work-group 2 at 14: 14,
 * 21 -> 25.  Subgroup interval alone (work-group interval 0) is the same. */
static void test_fill_subgroup_interval(void **state)
{
    (void)state;
    assert_int_equal(run_launch(4, 10, 7, 0, 0, NULL), 25);
    assert_int_equal(run_launch(4, 0, 7, 0, 0, NULL), 25);
    /* work-group interval alone: work-group 2 at 10, both its subgroups at
     * 10 (rets at 10, 11 -> 15); work-group 0's at 0, 1 */
    assert_int_equal(run_launch(4, 10, 0, 0, 0, NULL), 15);
}

/* Kernel arguments 50 cycles after the CU's first start, launcher 10/3:
 * the subgroups launched at 0, 3, 10, 13 all wait for 50; the scheduler
 * issues their rets at 50, 51, 52, 53 -> 57.  Six work-groups: work-group
 * 0 is done at 55 (ret at 51); work-group 4 starts then (launcher free
 * since 20), its subgroups at 55 and 58, and the arguments are there: no
 * second fetch -> 62.  Without the launcher: all four at 0 wait for 50,
 * rets at 50..53 -> 57; work-group 4 at 55, both subgroups at 55: 55, 56
 * -> 60. */
static void test_kernel_args(void **state)
{
    (void)state;
    uint64_t busy = 0;
    assert_int_equal(run_launch(4, 10, 3, 50, 0, &busy), 57);
    assert_int_equal(busy, 57);     /* the CU's first start is 0, not 50 */
    assert_int_equal(run_launch(6, 10, 3, 50, 0, NULL), 62);
    assert_int_equal(run_launch(4, 0, 0, 50, 0, NULL), 57);
    assert_int_equal(run_launch(6, 0, 0, 50, 0, NULL), 60);
    /* arguments back at 5, before the second work-group's launch at 10:
     * rets at 5, 6 (launched 0, 3), 10, 13 -> 17 */
    assert_int_equal(run_launch(4, 10, 3, 5, 0, NULL), 17);
}

/* nvidia-h100 on one SM (device.compute_units 1): WI 24, SI 10, A 277;
 * four SMSPs (slot t on EU t mod 4, one scheduler each, issue width 1), a
 * ret is a branch of latency 4 on one unit per SMSP.  `wgs` work-groups
 * of `items` at SIMD32. */
static uint64_t run_h100_sm(uint32_t wgs, uint32_t items)
{
    isa_kernel k;
    emu_config cfg;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble("t.sgasm", ret_only, strlen(ret_only), &k, &d), 0);
    assert_int_equal(emu_config_load_bundled("nvidia-h100", &cfg, &d), 0);
    isa_diags_free(&d);
    assert_int_equal(cfg.timing.launch_wg_interval, 24);
    assert_int_equal(cfg.timing.launch_sg_interval, 10);
    assert_int_equal(cfg.timing.kernel_args_latency, 277);
    assert_int_equal(cfg.timing.eus_per_cu, 4);
    cfg.compute_units = 1;
    uint32_t buf[16] = { 0 };
    sgemu_argval a[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf, .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { (uint64_t)items * wgs }, .local = { items },
                       .local_given = true, .sg_width = 32, .timing = true };
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    assert_true(st.timing->wg_per_cu >= wgs);     /* one wave */
    uint64_t c = st.timing->cycles;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return c;
}

/* One warp: it waits for the arguments, ret at 277 -> 281.
 * Ten one-warp blocks: block w starts at 24 w (1 x 10 = 10 < 24), on SMSP
 * w mod 4.  All ten (0..216) wait for 277: blocks 0, 4, 8 on SMSP 0 and
 * 1, 5, 9 on SMSP 1 issue their rets at 277, 278, 279 -> 283.
 * Three 256-thread blocks: block w at 80 w (8 x 10 over 24), warp i at
 * 80 w + 10 i, on SMSP i mod 4; all 24 (the last at 230) wait for 277,
 * six on each SMSP: rets at 277..282 -> 286.
 * Eight 256-thread blocks: at 277 the 28 warps launched by then (blocks
 * 0-2, block 3's warps 0-3 at 240-270) are waiting, 7 on each SMSP,
 * issued at 277..283; block 3's warp 4 (280, SMSP 0) at 284, every later
 * warp as it starts, the last (block 7, warp 7) at 560 + 70 = 630 -> 634. */
static void test_h100_fill(void **state)
{
    (void)state;
    assert_int_equal(run_h100_sm(1, 32), 281);
    assert_int_equal(run_h100_sm(10, 32), 283);
    assert_int_equal(run_h100_sm(3, 256), 286);
    assert_int_equal(run_h100_sm(8, 256), 634);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_launcher),
        cmocka_unit_test(test_fill_work_group_interval),
        cmocka_unit_test(test_fill_subgroup_interval),
        cmocka_unit_test(test_kernel_args),
        cmocka_unit_test(test_h100_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
