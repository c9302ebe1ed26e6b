/* test_timing.c - exact cycle counts of the timing model on
 * configs/test-simple.yaml, each derived by hand from docs/timing-model.md:
 * an ALU op of width S on a pipe of width A takes P = ceil(S/A) passes,
 * issues when its sources are ready, and completes at
 * issue + latency + (P - 1) * interval. */
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

/* Assemble src into k and load configs/test-simple.yaml into cfg. */
static void load(const char *src, isa_kernel *k, emu_config *cfg)
{
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble("t.sgasm", src, strlen(src), k, &d), 0);
    assert_int_equal(emu_config_load_bundled("test-simple", cfg, &d), 0);
    isa_diags_free(&d);
}

/* Run k with timing; the cycle count.  *out (if given) receives the scalar
 * timing statistics (its pointers cleared). */
static uint64_t timed_run(const isa_kernel *k, const emu_config *cfg, const sgemu_launch *L,
                          sgemu_argval *args, sgemu_timing *out)
{
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, cfg, L, args, &st, &f);
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    assert_non_null(st.timing);
    uint64_t c = st.timing->cycles;
    if (out) {
        *out = *st.timing;
        out->cu_busy_cycles = out->cu_issued = NULL;
        out->per_inst = NULL;
    }
    sgemu_stats_free(&st);
    return c;
}

/* test-simple with scheduler.cross_unit_latency set to xlat and
 * scheduler.policy to policy */
static uint64_t run_cycles_xp(const char *src, uint32_t width, uint64_t global, uint64_t local,
                              const char *trace, uint32_t xlat, tm_policy policy)
{
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    cfg.timing.cross_unit_latency = xlat;
    cfg.timing.policy = (uint8_t)policy;
    uint32_t buf[1024] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { global }, .local = { local },
                       .local_given = true, .sg_width = width, .timing = true,
                       .trace_path = trace };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* test-simple's own policy: round_robin */
static uint64_t run_cycles_x(const char *src, uint32_t width, uint64_t global, uint64_t local,
                             const char *trace, uint32_t xlat)
{
    return run_cycles_xp(src, width, global, local, trace, xlat, TM_POLICY_RR);
}

static uint64_t run_cycles(const char *src, uint32_t width, uint64_t global, uint64_t local,
                           const char *trace)
{
    return run_cycles_x(src, width, global, local, trace, 0);
}

/* scheduler.cross_unit_latency 1 on the chain below: the first add reads
 * the mov's result, made by another unit: ready at 2 + 1 = 3 -> 7; the
 * other adds read the int pipe's own results: 7 -> 11, 11 -> 15; ret at
 * 12 -> 16.  Total 16 (15 without the hand-over). */
static void test_cross_unit_latency(void **state)
{
    (void)state;
    const char *src = ".kernel chain\n.arg out global u32\n"
                      "mov.u32 r0, 1\nadd.u32 r0, r0, r0\nadd.u32 r0, r0, r0\n"
                      "add.u32 r0, r0, r0\nret\n";
    assert_int_equal(run_cycles_x(src, 8, 8, 8, NULL, 1), 16);
    assert_int_equal(run_cycles_x(src, 8, 8, 8, NULL, 0), 15);
}

/* mov (mov pipe, latency 2) at 0 -> 2; three dependent adds (int, latency
 * 4): 2 -> 6, 6 -> 10, 10 -> 14; ret (branch, latency 4) at 11 -> 15. */
static void test_dependent_chain(void **state)
{
    (void)state;
    const char *src = ".kernel chain\n.arg out global u32\n"
                      "mov.u32 r0, 1\nadd.u32 r0, r0, r0\nadd.u32 r0, r0, r0\n"
                      "add.u32 r0, r0, r0\nret\n";
    assert_int_equal(run_cycles(src, 8, 8, 8, NULL), 15);
}

/* One subgroup of 8 (one pass) on test-simple with pipes.int and
 * pipes.int_mad at latency 4, interval 2, one unit each, int_mad the
 * alternate of int when `alt` (docs/timing-model.md, "Integer pipes"). */
static uint64_t int_pipes_cycles(const char *body, bool alt)
{
    isa_kernel k;
    emu_config cfg;
    char src[512];
    snprintf(src, sizeof src, ".kernel i\n.arg out global u32\n%sret\n", body);
    load(src, &k, &cfg);
    char err[256];
    static const char *const keys[][2] = {
        { "pipes.int.interval", "2" }, { "pipes.int_mad.interval", "2" },
        { "pipes.int_mad.latency", "4" }, { "pipes.int_mad.width", "8" },
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(emu_config_set(&cfg, keys[i][0], keys[i][1], err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "pipes.int_mad.alternate_of", alt ? "int" : "none",
                                    err, sizeof err), 0);
    uint32_t buf[8] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 8 }, .local = { 8 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* Integer ALU and FMA-side pipes, independent instructions of one thread
 * (sources never written: ready at 0; ret: branch pipe, latency 4).
 * xor, xor, xor: int alone: 0 (int to 2, -> 4), 2 (-> 6), 4 (-> 8); ret
 *   5 -> 9, with or without the alternate.
 * xor, mul, xor, mul: int_mad takes the muls: 0 (int to 2), 1 (int_mad to
 *   3), 2 (int to 4), 3 (int_mad to 5, -> 7); ret 4 -> 8.  Without the
 *   alternate all four on int: 0, 2, 4, 6 (-> 10); ret 7 -> 11.
 * add, add, add, xor: an add takes the first unit free at its issue,
 *   int_mad before int: 0 (int_mad to 2), 1 (int to 3), 2 (int_mad to 4),
 *   xor 3 (int free at 3, to 5, -> 7); ret 4 -> 8.  (With int first: the
 *   xor would wait for int to 4, ret 5 -> 9.)
 * xor, mul, add (reads the mul), xor: xor 0 (int to 2), mul 1 (int_mad to
 *   3, -> 5), add 5: both free; int_mad first (to 7, -> 9), so the xor
 *   issues at 6 on int (-> 10); ret 7 -> 11.  (The earliest-freed unit,
 *   int, would have made the xor wait to 7: ret 8 -> 12.) */
static void test_int_alternate_pipe(void **state)
{
    (void)state;
    const char *xors = "xor.u32 r1, r0, 1\nxor.u32 r2, r0, 2\nxor.u32 r3, r0, 3\n";
    const char *xor_mul = "xor.u32 r1, r0, 1\nmul.u32 r2, r0, 3\n"
                          "xor.u32 r3, r0, 3\nmul.u32 r4, r0, 5\n";
    const char *adds = "add.u32 r1, r0, 1\nadd.u32 r2, r0, 2\n"
                       "add.u32 r3, r0, 3\nxor.u32 r4, r0, 4\n";
    const char *after = "xor.u32 r1, r0, 1\nmul.u32 r2, r0, 3\n"
                        "add.u32 r3, r2, 1\nxor.u32 r4, r0, 4\n";
    assert_int_equal(int_pipes_cycles(xors, true), 9);
    assert_int_equal(int_pipes_cycles(xors, false), 9);
    assert_int_equal(int_pipes_cycles(xor_mul, true), 8);
    assert_int_equal(int_pipes_cycles(xor_mul, false), 11);
    assert_int_equal(int_pipes_cycles(adds, true), 8);
    assert_int_equal(int_pipes_cycles(after, true), 11);
}

/* One subgroup of 8 on test-simple (int latency 4, mov latency 2, shuffle
 * latency 6, interval 2, width 16; ret on branch, latency 4) with
 * pipes.shuffle_lane.index `lane`, register_latency `reg` and
 * pipes.int.interval `int_ii` (docs/timing-model.md, "Micro-ops"). */
static uint64_t shuffle_lane_cycles(const char *body, const char *lane, const char *reg,
                                    const char *int_ii)
{
    isa_kernel k;
    emu_config cfg;
    char src[512];
    snprintf(src, sizeof src, ".kernel s\n.arg out global u32\n%sret\n", body);
    load(src, &k, &cfg);
    char err[256];
    assert_int_equal(emu_config_set(&cfg, "pipes.shuffle_lane.index", lane, err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "pipes.shuffle_lane.register_latency", reg, err,
                                    sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "pipes.int.interval", int_ii, err, sizeof err), 0);
    uint32_t buf[8] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 8 }, .local = { 8 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* Who computes a shuffle's source lane (sources never written: ready at 0).
 * shuffle_xor by register r2, then ret:
 *   alu: the index xor on int 0 -> 4, the indirect move (8 lanes, one pass)
 *   4 -> 10; ret 1 -> 5: 10.  operand: the move 0 -> 6; ret 1 -> 5: 6.
 *   operand with register_latency 3: the move 3 -> 9: 9.
 *   operand, latency 3, the mask an immediate: 0 -> 6: 6.
 * shuffle by register lane r2: alu: the index copy on mov 0 -> 2, the move
 *   2 -> 8: 8; operand: 6.
 * shuffle_xor, then xor and an add reading it, int interval 4:
 *   alu: the index holds int 0-4 (-> 4), the move 4 -> 10; the xor waits
 *   for int to 4 (-> 8), the add 8 -> 12, ret 9 -> 13: 13.
 *   operand: the move 0 -> 6; xor 1 -> 5, add 5 -> 9, ret 6 -> 10: 10.
 * A two-source shuffle_down keeps its index (an add on int) with operand:
 *   the same cycles as alu. */
static void test_shuffle_lane_index(void **state)
{
    (void)state;
    const char *xr = "sub_group_shuffle_xor.u32 r1, r0, r2\n";
    const char *xi = "sub_group_shuffle_xor.u32 r1, r0, 1\n";
    const char *ir = "sub_group_shuffle.u32 r1, r0, r2\n";
    const char *mix = "sub_group_shuffle_xor.u32 r1, r0, r2\nxor.u32 r3, r0, 1\n"
                      "add.u32 r4, r3, 1\n";
    const char *two = "intel_sub_group_shuffle_down.u32 r1, r0, r5, r2\n";
    assert_int_equal(shuffle_lane_cycles(xr, "alu", "0", "1"), 10);
    assert_int_equal(shuffle_lane_cycles(xr, "operand", "0", "1"), 6);
    assert_int_equal(shuffle_lane_cycles(xr, "operand", "3", "1"), 9);
    assert_int_equal(shuffle_lane_cycles(xi, "operand", "3", "1"), 6);
    assert_int_equal(shuffle_lane_cycles(xi, "alu", "3", "1"), 10);
    assert_int_equal(shuffle_lane_cycles(ir, "alu", "0", "1"), 8);
    assert_int_equal(shuffle_lane_cycles(ir, "operand", "0", "1"), 6);
    assert_int_equal(shuffle_lane_cycles(mix, "alu", "0", "4"), 13);
    assert_int_equal(shuffle_lane_cycles(mix, "operand", "0", "4"), 10);
    assert_int_equal(shuffle_lane_cycles(two, "operand", "3", "1"),
                     shuffle_lane_cycles(two, "alu", "3", "1"));
}

/* One subgroup of 8 on test-simple with collectives.lowering `lowering`
 * and the logstep scan; body, then ret. */
static uint64_t lowering_cycles(const char *body, const char *lowering)
{
    isa_kernel k;
    emu_config cfg;
    char src[512];
    snprintf(src, sizeof src, ".kernel s\n.arg out global u32\n%sret\n", body);
    load(src, &k, &cfg);
    char err[256];
    assert_int_equal(emu_config_set(&cfg, "collectives.lowering", lowering, err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "collectives.scan", "logstep", err, sizeof err), 0);
    uint32_t buf[8] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 8 }, .local = { 8 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* The micro-op plans of collectives.lowering (collectives/lowering.def,
 * docs/timing-model.md "Micro-ops"), test-simple at SIMD8: int and fp32
 * latency 4, interval 1, width 8 (64-bit int: 2 passes); mov latency 2;
 * shuffle latency 6, interval 2; the source r0 ready at 0; ret 1 -> 5.
 * Inclusive u32 add scan, every lane active (no select of the pad):
 *   shuffle: per step s = 1, 2, 4 SHFL.UP, SEL, IADD: 0 -> 6 -> 10 -> 14,
 *   14 -> 20 -> 24 -> 28, 28 -> 34 -> 38 -> 42: 42.
 *   region: fill 0 -> 2, copy 2 -> 4, three ALU 4 -> 8 -> 12 -> 16: 16.
 * f32 add reduction: shuffle: per s = 4, 2, 1 SHFL.BFLY, FADD: 0 -> 6 -> 10,
 *   10 -> 16 -> 20, 20 -> 26 -> 30, no broadcast: 30.  region: fill, copy
 *   0 -> 4, three ALU -> 16, BCAST 16 -> 18: 18.
 * u64 add scan: shuffle: two SHFL a step (their halves: a run starting
 *   together, the second when the unit frees 2 later), SEL and add of two
 *   passes (latency 4 + 1): 0 -> 6 and 2 -> 8, 8 -> 13 -> 18; 18 -> 24 and
 *   20 -> 26, 26 -> 31 -> 36; 36 -> 42 and 38 -> 44, 44 -> 49 -> 54: 54.
 * broadcast of lane 3: shuffle one SHFL.IDX 0 -> 6: 6; region BCAST
 *   0 -> 2, the ret's 5.
 * sub_group_all (vote latency 6): shuffle ISETP 0 -> 4, VOTE 4 -> 10, SEL
 *   10 -> 14: 14; region: fill 0 -> 2, compare 2 -> 6, copy 6 -> 8, three
 *   ALU -> 20, BCAST 20 -> 22: 22. */
static void test_lowering_plans(void **state)
{
    (void)state;
    const char *scan = "sub_group_scan_inclusive_add.u32 r1, r0\n";
    const char *red = "sub_group_reduce_add.f32 r1, r0\n";
    const char *scan64 = "sub_group_scan_inclusive_add.u64 r2, r0\n";
    const char *bc = "sub_group_broadcast.u32 r1, r0, 3\n";
    assert_int_equal(lowering_cycles(scan, "shuffle"), 42);
    assert_int_equal(lowering_cycles(scan, "region"), 16);
    assert_int_equal(lowering_cycles(red, "shuffle"), 30);
    assert_int_equal(lowering_cycles(red, "region"), 18);
    assert_int_equal(lowering_cycles(scan64, "shuffle"), 54);
    assert_int_equal(lowering_cycles(bc, "shuffle"), 6);
    assert_int_equal(lowering_cycles(bc, "region"), 5);
    assert_int_equal(lowering_cycles("sub_group_all.i32 r1, r0\n", "shuffle"), 14);
    assert_int_equal(lowering_cycles("sub_group_all.i32 r1, r0\n", "region"), 22);
}

/* Two sub-groups of 8 (one work-group, one scheduler, round robin) each
 * run the shuffle lowering's inclusive u32 add scan of r0 (ready at 0),
 * then ret; int's interval int_ii. */
static uint64_t interleaved_scans(const char *int_ii)
{
    isa_kernel k;
    emu_config cfg;
    const char *src = ".kernel s\n.arg out global u32\n"
                      "sub_group_scan_inclusive_add.u32 r1, r0\nret\n";
    load(src, &k, &cfg);
    char err[256];
    assert_int_equal(emu_config_set(&cfg, "collectives.lowering", "shuffle", err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "collectives.scan", "logstep", err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "pipes.int.interval", int_ii, err, sizeof err), 0);
    uint32_t buf[16] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 16 }, .local = { 16 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* Unit reservation (docs/timing-model.md, "Unit reservation"): a micro-op
 * takes the first gap of its occupancy on its unit at or after its input,
 * so two sub-groups' chains fill each other's gaps.  test-simple: shuffle
 * latency 6, interval 2 (SHFL.UP holds the unit 2); int latency 4, interval
 * ii (SEL and IADD hold it ii, result at start + 4).
 * Sub-group 0 issues its scan at 0: SHFL [0,2) -> 6, SEL [6,6+ii) -> 10,
 *   IADD [10,10+ii) -> 14; SHFL [14,16) -> 20, SEL -> 24, IADD -> 28;
 *   SHFL [28,30) -> 34, SEL -> 38, IADD [38,38+ii) -> 42.  The shuffle
 *   unit's free time moves to 2 (taken from the issue on); the rest are
 *   stretches held ahead: shuffle [14,16), [28,30); int from 6 on.
 * Sub-group 1 issues its scan at 1 (its pipe is none; rets at 2 and 3 on
 *   `branch`, done by 7).
 * ii = 1: int holds [6,7), [10,11), [20,21), [24,25), [34,35), [38,39).
 *   SHFL at max(1, free 2) = 2 -> 8; SEL 8 (gap 7-10) -> 12; IADD 12 ->
 *   16; SHFL 16 (right after [14,16)) -> 22; SEL 22 -> 26; IADD 26 -> 30;
 *   SHFL 30 -> 36; SEL 36 -> 40; IADD 40 -> 44.  Total 44.
 * ii = 4: int holds [6,14), [20,28), [34,42).  SHFL 2 -> 8; SEL ready at 8
 *   but [8,12) meets [6,14): 14 -> 18 (int [6,18)); IADD ready 18, [18,22)
 *   meets [20,28): 28 -> 32; SHFL 32 -> 38; SEL ready 38, [38,42) meets
 *   [34,42): 42 -> 46; IADD 46 -> 50; SHFL 50 -> 56, SEL 56 -> 60, IADD
 *   60 -> 64.  Total 64.
 * (One free-at time per unit, as before the reservation, put sub-group 1's
 * chain behind the whole of sub-group 0's: shuffle free 30, int 39 or 42,
 * so SHFL 30 -> 36, SEL 39 -> 43 ... 75 at ii = 1, 78 at ii = 4.) */
static void test_unit_reservation_interleave(void **state)
{
    (void)state;
    assert_int_equal(interleaved_scans("1"), 44);
    assert_int_equal(interleaved_scans("4"), 64);
}

/* SIMD32 on 8-wide pipes: 4 passes.  mov at 0 -> 0 + 2 + 3 = 5; add waits
 * for r0: 5 -> 5 + 4 + 3 = 12; ret at 6 -> 10.  Total 12. */
static void test_simd32_on_simd8(void **state)
{
    (void)state;
    const char *src = ".kernel w\n.arg out global u32\n"
                      "mov.u32 r0, 1\nadd.u32 r1, r0, r0\nret\n";
    assert_int_equal(run_cycles(src, 32, 32, 32, NULL), 12);
}

/* Two independent threads on one scheduler (issue width 1): sg0 issues its
 * mov at 0, sg1 at 1; adds at 2 and 3 (-> 6, 7); rets at 4 and 5 (-> 8, 9).
 * Total 9. */
static void test_independent_threads(void **state)
{
    (void)state;
    const char *src = ".kernel w\n.arg out global u32\n"
                      "mov.u32 r0, 1\nadd.u32 r1, r0, r0\nret\n";
    assert_int_equal(run_cycles(src, 8, 16, 16, NULL), 9);
}

/* scheduler.policy on two threads of one scheduler (A dispatched first),
 * each: three movs (latency 2), a chain of three adds (latency 4) whose
 * first reads the first two movs, ret (latency 4).
 * round_robin alternates: movs 0-5, adds at 6/7, 10/11, 14/15, rets 16
 * and 17 -> 21.
 * oldest_first: A's movs 0-2, its first add 3 (-> 7); B's movs 4-6; at 7
 * A's second add (-> 11) before B's first (8 -> 12); A's third add 11,
 * ret 12; B's second add 13 (12 was A's ret) -> 17, third 17, ret 18 -> 22.
 * greedy_oldest: as oldest_first to 6, but at 7 B, the last issued, keeps
 * the slot: B's first add 7 (-> 11), A's second add 8 (-> 12), B's second
 * 11 (-> 15), A's third 12 and ret 13, B's third 15, ret 16 -> 20. */
static uint64_t run_policy(const char *src, tm_policy policy)
{
    return run_cycles_xp(src, 8, 16, 16, NULL, 0, policy);
}

static void test_scheduler_policies(void **state)
{
    (void)state;
    const char *src = ".kernel p\n.arg out global u32\n"
                      "mov.u32 r0, 1\nmov.u32 r1, 2\nmov.u32 r4, 3\n"
                      "add.u32 r2, r0, r1\nadd.u32 r3, r2, r2\nadd.u32 r6, r3, r3\nret\n";
    assert_int_equal(run_policy(src, TM_POLICY_RR), 21);
    assert_int_equal(run_policy(src, TM_POLICY_OLDEST), 22);
    assert_int_equal(run_policy(src, TM_POLICY_GTO), 20);
}

/* printf is one send message (docs/timing-model.md): with
 * pipes.send.latency 10, at SIMD8 (P = 1) `printf` 0 -> 10, the add that
 * reads its result 10 -> 14, ret 11 -> 15; at SIMD32 (P = 4) printf
 * 0 -> 10 + 3 = 13, add 13 -> 13 + 4 + 3 = 20, ret 14 -> 18.  The output
 * is one line per work-item. */
static void test_printf_cost(void **state)
{
    (void)state;
    const char *src = ".kernel p\n.arg out global u32\n.printf \"x\\n\"\n"
                      "printf.i32 r0, 0, 0\nadd.i32 r1, r0, r0\nret\n";
    static const struct { uint32_t w; uint64_t cycles; } cases[] = { { 8, 15 }, { 32, 20 } };
    for (int i = 0; i < 2; i++) {
        isa_kernel k;
        emu_config cfg;
        load(src, &k, &cfg);
        cfg.timing.pipe[TM_PIPE_SEND].latency = 10;
        uint32_t buf[4] = { 0 };
        sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                                   .bytes = sizeof buf } };
        sgemu_launch L = { .dims = 1, .global = { cases[i].w }, .local = { cases[i].w },
                           .local_given = true, .sg_width = cases[i].w, .timing = true };
        sgemu_stats st;
        sgemu_fault f;
        assert_int_equal(sgemu_run(&k, &cfg, &L, args, &st, &f), 0);
        assert_int_equal(st.timing->cycles, cases[i].cycles);
        assert_int_equal(st.printf_len, 2 * cases[i].w);
        assert_int_equal(st.printf_calls, cases[i].w);
        sgemu_stats_free(&st);
        isa_kernel_free(&k);
    }
}

/* Barrier across two subgroups: arrivals at 0 and 1, release at 1 + 20 =
 * 21; rets at 21 and 22 (-> 25, 26).  Total 26. */
static void test_barrier(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\nbarrier\nret\n";
    assert_int_equal(run_cycles(src, 8, 16, 16, NULL), 26);
}

/* `barrier; ret` in n subgroups of width 8 on test-simple with 32 thread
 * slots and the barrier unit's intervals set (docs/timing-model.md,
 * "Barriers"). */
static uint64_t barrier_cycles(uint32_t n, const char *arrival, const char *release)
{
    const char *src = ".kernel b\n.arg out global u32\nbarrier\nret\n";
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    char err[256];
    assert_int_equal(emu_config_set(&cfg, "device.threads_per_compute_unit", "32", err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "scheduler.barrier_arrival_interval", arrival, err,
                                    sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "scheduler.barrier_release_interval", release, err,
                                    sizeof err), 0);
    uint32_t buf[64] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 8 * n }, .local = { 8 * n },
                       .local_given = true, .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* Arrival interval 3, release interval 1: subgroup i issues its barrier at
 * i, the unit counts the arrivals at 0, 3, ..., 3 (n - 1); subgroup i is
 * released at 3 (n - 1) + 20 + i and its ret completes 4 cycles later:
 * 4 (n - 1) + 24 in all. */
static void test_barrier_arrival_queue(void **state)
{
    (void)state;
    assert_int_equal(barrier_cycles(1, "3", "1"), 24);
    assert_int_equal(barrier_cycles(2, "3", "1"), 28);
    assert_int_equal(barrier_cycles(8, "3", "1"), 52);
    assert_int_equal(barrier_cycles(32, "3", "1"), 148);
}

/* Arrival interval 1, no release interval: arrivals one per cycle never
 * queue; the last (7) + 20 releases all eight at 27; the rets issue one
 * per cycle, 27..34, the last completing at 38.  32 subgroups: 31 + 20 =
 * 51, rets 51..82 -> 86. */
static void test_barrier_no_queue(void **state)
{
    (void)state;
    assert_int_equal(barrier_cycles(8, "1", "0"), 38);
    assert_int_equal(barrier_cycles(32, "1", "0"), 86);
}

/* Work-groups of `local` items (subgroups of width 8) on the one CU of
 * test-simple set to 32 thread slots, the barrier unit's arrival interval
 * `arrival`, release interval 0, barrier latency `latency` (the unit is
 * shared by the CU's work-groups: docs/timing-model.md, "Barriers"). */
static uint64_t shared_barrier_cycles(const char *src, uint32_t global, uint32_t local,
                                      const char *arrival, const char *latency)
{
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    char err[256];
    static const char *const keys[][2] = {
        { "device.compute_units", "1" },
        { "device.threads_per_compute_unit", "32" },
        { "scheduler.barrier_release_interval", "0" },
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(emu_config_set(&cfg, keys[i][0], keys[i][1], err, sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "scheduler.barrier_arrival_interval", arrival, err,
                                    sizeof err), 0);
    assert_int_equal(emu_config_set(&cfg, "scheduler.barrier_latency", latency, err, sizeof err),
                     0);
    uint32_t buf[64] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { global }, .local = { local },
                       .local_given = true, .sg_width = 8, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, NULL);
    isa_kernel_free(&k);
    return c;
}

/* Two work-groups of two subgroups (slots 0, 1: group 0; 2, 3: group 1)
 * run `barrier; ret`, A = 3, L = 20.  Round robin issues the barriers at
 * 0, 1, 2, 3; the one unit counts them at 0, 3, 6, 9, so group 0 is counted
 * at 3 and released at 23, group 1 (whose first arrival, at 2, waits for
 * group 0's second) at 9 + 20 = 29; the rets issue at 23, 24, 29, 30 and the
 * last completes at 34.  (Counted per group, group 1 would have been
 * counted at max(3, 2 + 3) = 5 and the run would end at 30.)  One group of
 * one subgroup per slot, four groups: arrivals 0..3 counted at 0, 3, 6, 9,
 * each group released alone at its count + 20, the rets at 20, 23, 26, 29,
 * the last done at 33. */
static void test_barrier_shared_unit(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\nbarrier\nret\n";
    assert_int_equal(shared_barrier_cycles(src, 32, 16, "3", "20"), 34);
    assert_int_equal(shared_barrier_cycles(src, 32, 8, "3", "20"), 33);
}

/* Arrivals of two work-groups interleaved at the unit (A = 3, L = 20; the
 * groups as above).  Subgroup 0 of each group runs one mov more before its
 * barrier.  Round robin: the movs of %sub_group_id at 0..3 (mov pipe,
 * latency 2), the cmps at 4..7 (slot 0's r0 ready at 2, but slots 1..3 come
 * first in turn), the bras at 8..11 (p0 ready 4 after each cmp), each
 * thread's next issue at its branch's completion, 12..15.  Slot 0 issues
 * its mov at 12, slot 1 its barrier at 13, slot 2 its mov at 14, slot 3
 * its barrier at 15, then slot 0's barrier at 16 and slot 2's at 17: the
 * unit sees groups 0, 1, 0, 1 and counts them at 13, 16, 19, 22.  Group 0
 * is released at 19 + 20 = 39, group 1 at 22 + 20 = 42; rets at 39, 40,
 * 42, 43, the last done at 47.  (Counted per group: 16 + 20 = 36 and
 * max(17, 15 + 3) + 20 = 38, 42 in all.) */
static void test_barrier_shared_interleaved(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_id\ncmp.ne.u32 p0, r0, 0\nbra p0, skip\n"
                      "mov.u32 r1, 1\nskip:\nbarrier\nret\n";
    assert_int_equal(shared_barrier_cycles(src, 32, 16, "3", "20"), 47);
}

/* The unit stays busy A cycles after a count, also for the next barrier of
 * the same work-group: one subgroup, `barrier; barrier; ret`, A = 3,
 * L = 0.  The first barrier issues at 0, is counted at 0 and released at
 * 0; the second issues at 1 (one issue a cycle) and is counted when the
 * unit is free again, at 3, released at 3; ret 3 -> 7.  (With a count per
 * barrier on its own: counted at 1, ret 1 -> 5.) */
static void test_barrier_unit_busy(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\nbarrier\nbarrier\nret\n";
    assert_int_equal(shared_barrier_cycles(src, 8, 8, "3", "0"), 7);
}

/* ---- collectives, block I/O and memory (docs/timing-model.md) ----
 * run_any binds every argument by kind: global buffers to 4 KiB of zeros,
 * local pointers to 1 KiB, images to a 16x16 CL_R CL_UNSIGNED_INT32 image
 * (pitch 64 B).  Buffers live at (argument index + 1) << 40, so they start
 * on a line; *out receives the run's scalar statistics. */
static uint64_t run_edited(const char *src, uint32_t width, sgemu_timing *out,
                           void (*edit)(emu_config *))
{
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    if (edit)
        edit(&cfg);
    static uint32_t bufs[ISA_MAX_ARGS][1024];
    static uint32_t pix[16 * 16];
    memset(bufs, 0, sizeof bufs);
    sgemu_argval args[ISA_MAX_ARGS];
    memset(args, 0, sizeof args);
    for (uint32_t i = 0; i < k.narg; i++) {
        switch (k.args[i].kind) {
        case ISA_ARG_LOCAL:
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_LOCAL, .bytes = 1024 };
            break;
        case ISA_ARG_IMAGE2D:
            args[i].kind = SGEMU_VAL_IMAGE;
            args[i].image = (sgemu_image){ .width = 16, .height = 16, .pitch = 64,
                                           .order = SGEMU_ORDER_R,
                                           .chtype = SGEMU_CHTYPE_UNSIGNED_INT32,
                                           .elem_bytes = 4, .data = (uint8_t *)pix };
            break;
        case ISA_ARG_SCALAR:
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_SCALAR, .scalar = 0 };
            break;
        default:
            args[i] = (sgemu_argval){ .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)bufs[i],
                                      .bytes = sizeof bufs[i] };
            break;
        }
    }
    sgemu_launch L = { .dims = 1, .global = { width }, .local = { width },
                       .local_given = true, .sg_width = width, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, out);
    isa_kernel_free(&k);
    return c;
}

static uint64_t run_any(const char *src, uint32_t width, sgemu_timing *out)
{
    return run_edited(src, width, out, NULL);
}

/* intel_sub_group_shuffle at SIMD32: an index copy (ALU without operator ->
 * mov pipe) and ceil(32 / indirect_lanes 16) = 2 MOV_INDIRECTs of 16 lanes
 * (shuffle pipe: width 16, latency 6, interval 2).
 *   mov r0 (mov, P = 32/8 = 4): 0 -> 0 + 2 + 3 = 5; mov unit free at 4.
 *   shuffle issues at 5 (r0): index copy P = 4, start max(5, 4) = 5 ->
 *     5 + 2 + 3 = 10; indirect 1: P = 1, start 10 -> 16 (unit free 12);
 *     indirect 2 starts with it (input 10) but waits for the unit: 12 -> 18;
 *     result at max(16, 18) = 18.
 *   add r2 waits for r1: 18 -> 18 + 4 + 3 = 25; ret at 19 -> 23.
 * Total 25. */
static void test_shuffle(void **state)
{
    (void)state;
    const char *src = ".kernel s\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_local_id\n"
                      "intel_sub_group_shuffle.u32 r1, r0, r0\n"
                      "add.u32 r2, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 32, &t), 25);
    assert_int_equal(t.uops, 3);
}

/* sub_group_reduce_add (tree, P = W): 2 MOV of W lanes, log2(W) ALU adds of
 * W/2, W/4, ..., 1 lanes, 1 BCAST of W lanes, a dependent chain on the mov
 * (lat 2) and int (lat 4) pipes, both 8 wide with interval 1.  Kernel:
 * mov r0; reduce r1, r0; add r2, r1, r1; ret.
 * W = 8 (every step one pass): mov 0 -> 2; reduce at 2: mov 2 -> 4, mov
 *   4 -> 6, adds 6 -> 10 -> 14 -> 18, bcast 18 -> 20; add 20 -> 24; ret
 *   21 -> 25.  Total 25.
 * W = 16: mov (P 2) 0 -> 3; reduce at 3: mov 3 -> 6, mov 6 -> 9, adds of
 *   8/4/2/1 lanes (P 1) 9 -> 13 -> 17 -> 21 -> 25, bcast (P 2) 25 -> 28;
 *   add (P 2) 28 -> 33; ret 29 -> 33.  Total 33.
 * W = 32: mov (P 4) 0 -> 5; reduce at 5: mov 5 -> 10, mov 10 -> 15, add of
 *   16 lanes (P 2) 15 -> 20, then 8/4/2/1 lanes 20 -> 24 -> 28 -> 32 -> 36,
 *   bcast (P 4) 36 -> 41; add (P 4) 41 -> 48; ret 42 -> 46.  Total 48. */
static void test_reduce_widths(void **state)
{
    (void)state;
    const char *src = ".kernel r\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_local_id\n"
                      "sub_group_reduce_add.u32 r1, r0\n"
                      "add.u32 r2, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 8, &t), 25);
    assert_int_equal(t.uops, 6);
    assert_int_equal(run_any(src, 16, &t), 33);
    assert_int_equal(t.uops, 7);
    assert_int_equal(run_any(src, 32, &t), 48);
    assert_int_equal(t.uops, 8);
}

/* Buffer block read at SIMD32 of u32x2: 32 x 2 x 4 = 256 B = 2 messages of
 * block_message_bytes 128, each 2 lines of 64 B and 4 send passes (32 / 8).
 * Message 1 at 0: line a: L1 port 0 (busy 64/64 = 1), miss; L2 port 0, miss;
 *   DRAM port 0 (busy 64/32 = 2) -> 0 + 300 = 300; line b: L1 1, L2 1, DRAM
 *   max(1, 2) = 2 -> 302.  Message 2 does not wait for message 1's data
 *   (the two are independent sends): it starts when the send unit is free
 *   after message 1's 4 passes, at 4; line c: L1 4, L2 4, DRAM max(4, 4)
 *   -> 304; line d: L1 5, L2 5, DRAM max(5, 6) = 6 -> 306.
 * add (P 4) at 306 -> 306 + 4 + 3 = 313; ret at 307 -> 311.  Total 313
 * (611 if message 2 waited for message 1's data). */
static void test_block_read(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\n"
                      "intel_sub_group_block_read.u32x2 r1, [%out]\n"
                      "add.u32 r3, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 32, &t), 313);
    assert_int_equal(t.misses[TM_LEVEL_L2], 4);
    assert_int_equal(t.bytes[TM_LEVEL_DRAM], 256);
}

/* The same block read in two sub-groups of one work-group (one EU, one
 * send unit; round robin).  Sub-group 0 as above: its messages take the
 * send unit 0-4 and 4-8, its lines' data is back at 300, 302, 304, 306,
 * which is each L1 way's data time R.  Sub-group 1's read waits for the
 * send unit, issues at 8: message 1 at 8 (send 8-12), lines a, b find
 * their lines in L1 with sub-group 0's fills in flight: L1 ports 8, 9,
 * max(8 + 30, 300) = 300 and max(39, 302) = 302; message 2 at 12: c, d at
 * max(42, 304) = 304 and max(43, 306) = 306 (a hit latency after the
 * port, 38..43, were the data there).  Both sub-groups' adds wait for
 * 306: the first takes the int unit (P 4) 306-310 -> 313, the second starts
 * at 310 -> 317; the rets end earlier (at most 311 + 4).  Total 317.  (Had
 * message 2 waited for message 1's data, sub-group 0 alone would take 611,
 * and its message 2 would hold the send unit 302-306, so sub-group 1 could
 * issue only at 306.) */
static void test_block_read_two_subgroups(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\n"
                      "intel_sub_group_block_read.u32x2 r1, [%out]\n"
                      "add.u32 r3, r1, r1\nret\n";
    assert_int_equal(run_cycles(src, 32, 64, 64, NULL), 317);
}

/* Image block read at SIMD8 of u32x2 at (0, 0): rows = 2, row bytes 8 x 4 =
 * 32 <= media_block_width 32, so one 2D message; its rows are requested
 * together at y x pitch (64) + x: two lines.
 *   mov r2 (mov, P 1): 0 -> 2.  The read issues at 2: row 0: L1 2 (busy 1),
 *   miss, L2 2, miss, DRAM 2 (busy 2) -> 302; row 1: L1 3, L2 3, DRAM
 *   max(3, 4) = 4 -> 304.  Result 304.
 * add at 304 -> 308; ret at 305 -> 309.  Total 309. */
static void test_image_block_read(void **state)
{
    (void)state;
    const char *src = ".kernel i\n.arg img image2d read_only\n"
                      "mov.u32 r2, 0\n"
                      "intel_sub_group_block_read_image.u32x2 r4, %img, r2, r2\n"
                      "add.u32 r6, r4, r5\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 8, &t), 309);
    assert_int_equal(t.misses[TM_LEVEL_L2], 2);
}

/* Image element read and write at SIMD16: memory accesses at each lane's
 * texel in the image space, src's row 1 (bytes 64..127 at pitch 64, one
 * line) and dst's, one byte an address.
 *   mov r0 (mov, P 2): 0 -> 0 + 2 + 1 = 3, unit busy to 2; mov r1 at 2
 *   (the unit) -> 5.  read_imageui at 5 (r1): one line missing everywhere
 *   -> 305.  write_imageui at 305 (r4..r7): one line stored, L1 latency ->
 *   335.  ret at 306 -> 310.  Total 335 (a send of the send pipe's
 *   latency, 2, would end at 13). */
static void test_image_element_rw(void **state)
{
    (void)state;
    const char *src = ".kernel e\n.arg src image2d read_only\n.arg dst image2d write_only\n"
                      "mov.u32 r0, %sub_group_local_id\nmov.u32 r1, 1\n"
                      "read_imageui.u32x4 r4, %src, r0, r1\n"
                      "write_imageui.u32x4 %dst, r0, r1, r4\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 16, &t), 335);
    assert_int_equal(t.requests[TM_LEVEL_L1], 2);   /* a line each */
    assert_int_equal(t.misses[TM_LEVEL_L1], 1);     /* the read's (a store is no miss) */
    assert_int_equal(t.misses[TM_LEVEL_L2], 2);     /* the write allocates in L2 */
}

/* The same line loaded twice, the second load dependent on the first
 * (buffer of zeros: the index is 0).  Load 1 at 0: L1 miss, L2 miss, DRAM
 * -> 0 + 300 = 300.  Load 2 at 300: L1 port free (at 1), hit -> 300 + 30 =
 * 330.  add 330 -> 334; ret 331 -> 335.  Total 335. */
static void test_cache_miss_then_hit(void **state)
{
    (void)state;
    const char *src = ".kernel c\n.arg out global u32\n"
                      "ld.global.u32 r1, [%out]\n"
                      "ld.global.u32 r2, [%out + r1*4]\n"
                      "add.u32 r3, r2, r2\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 8, &t), 335);
    assert_int_equal(t.hits[TM_LEVEL_L1], 1);
    assert_int_equal(t.misses[TM_LEVEL_L1], 1);
    assert_int_equal(t.misses[TM_LEVEL_L2], 1);
}

/* Local memory, 16 banks of 4 B, latency 20.  mov r0 (lane id): 0 -> 2.
 * Stride 16 words: the 8 lanes' words are all in one bank: degree d = 8,
 *   load at 2 -> 2 + 20 + (8 - 1) = 29; add 29 -> 33; ret 30 -> 34.  Total
 *   34, 7 bank-conflict cycles.
 * Stride 1 word: 8 banks, d = 1: 2 -> 22; add 22 -> 26; ret 23 -> 27.
 *   Total 27, no conflict. */
static void test_bank_conflict(void **state)
{
    (void)state;
    const char *strided = ".kernel l\n.arg tile local u32\n"
                          "mov.u32 r0, %sub_group_local_id\n"
                          "ld.local.u32 r1, [%tile + r0*64]\n"
                          "add.u32 r2, r1, r1\nret\n";
    const char *unit = ".kernel l\n.arg tile local u32\n"
                       "mov.u32 r0, %sub_group_local_id\n"
                       "ld.local.u32 r1, [%tile + r0*4]\n"
                       "add.u32 r2, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(strided, 8, &t), 34);
    assert_int_equal(t.bank_conflict_cycles, 7);
    assert_int_equal(run_any(unit, 8, &t), 27);
    assert_int_equal(t.bank_conflict_cycles, 0);
}

/* Local atomics (test-simple: atomic_latency 22, atomic.interval 2): a
 * read-modify-write at the bank, so the lanes on one word go in turn.
 * mov r0: 0 -> 2.  All 8 lanes on word 0 (r0 = 0): d = 1, k = 8: atomic at
 *   2 -> 2 + 22 + 0 + 7 x 2 = 38; add 38 -> 42; ret 39 -> 43.  Total 43,
 *   and no bank-conflict cycles (one word is no conflict).
 * Lane i on word i: d = 1, k = 1: 2 -> 24; add 24 -> 28; ret 25 -> 29.
 *   Total 29. */
static void test_local_atomics(void **state)
{
    (void)state;
    const char *one_word = ".kernel a\n.arg tile local u32\n"
                           "mov.u32 r0, 0\n"
                           "atom_add.local.u32 r1, [%tile + r0*4], 1\n"
                           "add.u32 r2, r1, r1\nret\n";
    const char *own_word = ".kernel a\n.arg tile local u32\n"
                           "mov.u32 r0, %sub_group_local_id\n"
                           "atom_add.local.u32 r1, [%tile + r0*4], 1\n"
                           "add.u32 r2, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(one_word, 8, &t), 43);
    assert_int_equal(t.bank_conflict_cycles, 0);
    assert_int_equal(run_any(own_word, 8, &t), 29);
}

/* The CU's global-atomic path (memory.atomic.cu_interval, 3 here): an
 * atomic holds it 3 cycles a packet, and its lines leave when it is free;
 * per line, a packet for each lane on the line's busiest address.
 * test-simple: L2 64 B a cycle (1 a line), latency 100, DRAM 300 and 2 a
 * line, atomic latency 120 (+20 over an L2 hit), atomic.interval 2.
 *   mov r0 (lane id) 0 -> 2; mov r5 = 256 at 1 -> 3; shr r7 = r0 / 2 at
 *     2 -> 6.
 *   atom 1 at 3, lanes on words 0..7 (line 0, a miss; 1 packet): L2 3,
 *     DRAM 3 -> 3 + 300 + 20 = 323.  Path free at 3, held 3 -> 6.
 *   atom 2 at 6, lanes 2i and 2i + 1 on one word of line i (4 lines, 2
 *     packets each): line 0 hits, lines 1..3 miss (L2 7..9, DRAM 7, 9,
 *     11) -> 11 + 320 + 1 x 2 = 333.  Path free at 6, held 3 x 8 -> 30.
 *   atom 3 at 7, all 8 lanes on word 256 (line 16, a miss): without the
 *     path L2 10, DRAM 13 -> 13 + 320 + 7 x 2 = 347; with it its line
 *     leaves at 30: DRAM 30 -> 364.
 *   add r3 waits for atom 2 (+4); add r4 for atom 3: 347 -> 351 (364 ->
 *     368); ret issues a cycle later -> 352 (369).  Holding the path per
 *     line or per lane of the busiest address, whichever is more (3 x 4
 *     for atom 2), would give 357. */
static void set_atomic_path(emu_config *cfg)
{
    cfg->timing.atomic_cu_ii = 3;
}

static void test_atomic_path(void **state)
{
    (void)state;
    const char *src = ".kernel a\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_local_id\n"
                      "mov.u32 r5, 256\n"
                      "shr.u32 r7, r0, 1\n"
                      "atom_add.global.u32 r1, [%out + r0*4], 1\n"
                      "atom_add.global.u32 r2, [%out + r7*64], 1\n"
                      "atom_add.global.u32 r6, [%out + r5*4], 1\n"
                      "add.u32 r3, r1, r2\n"
                      "add.u32 r4, r3, r6\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 8, &t), 352);
    assert_int_equal(run_edited(src, 8, &t, set_atomic_path), 369);
}

/* Ports faster than a line a cycle (docs/timing-model.md, Memory): no L1,
 * the L2 port 256 B a cycle (a 64-B line holds it 1/4 cycle), DRAM 128 (1/2
 * cycle).  mov r0 (lane id) 0 -> 2; the load at 2, lane i on line i, all
 * missing: line j takes the L2 port at 2 + j/4 (cycles 2, 2, 2, 2, 3, 3,
 * 3, 3) and DRAM at max(its L2 cycle, 2 + j/2): cycles 2, 2, 3, 3, 4, 4,
 * 5, 5; the last is back at 5 + 300 = 305.  add 305 -> 309; ret issues at
 * 306 -> 310.  A whole cycle a line at each port would put the last line
 * at DRAM at 9: 309, add 313, total 314. */
static void set_fast_ports(emu_config *cfg)
{
    cfg->timing.l1.size = 0;
    cfg->timing.l2.bw = 256;
    cfg->timing.dram_bw = 128;
}

static void test_fast_ports(void **state)
{
    (void)state;
    const char *src = ".kernel p\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_local_id\n"
                      "ld.global.u32 r1, [%out + r0*64]\n"
                      "add.u32 r2, r1, r1\nret\n";
    sgemu_timing t;
    assert_int_equal(run_edited(src, 8, &t, set_fast_ports), 310);
    assert_int_equal(t.misses[TM_LEVEL_L2], 8);
    assert_int_equal(t.requests[TM_LEVEL_DRAM], 8);
}

/* Sectors (memory.sector_bytes 16 here: four to a 64-B line).  Lane i
 * loads 4 bytes at 64 i (sector 0 of line i), then at 64 i + 16 (sector
 * 1), then at 64 i + 4 (sector 0 again).  test-simple: L1 a line a cycle,
 * latency 30; L2 64 B a cycle (a sector 1/4), DRAM 32 (a sector 1/2),
 * latency 300.
 *   Whole lines: load 1 at 2, L1 2..9, L2 2..9, DRAM a line each 2
 *     cycles: 2, 4, .., 16: line j's data at R = 302 + 2j, the last 316.
 *     Loads 2 and 3 hit L1 (ports 10..17 and 18..25) with the fills in
 *     flight: max(40 + j, 302 + 2j) and max(48 + j, 302 + 2j), both 316.
 *     add r4 316 -> 320; add r5 324; ret issues at 321 -> 325.  L2 and
 *     DRAM move 8 lines, 512 bytes.
 *   Sectors: load 1 moves sector 0 only: DRAM 2 + j (a sector holds it
 *     1/2 cycle) -> 302 + j, the last 309.  Load 2's sector 1 is in
 *     neither cache: L1 10..17, L2 and DRAM 10 + j -> 310 + j, the last
 *     317; the lines' R (one a line) 310 + j.  Load 3 hits sector 0 in
 *     L1 (ports 18..25) and waits for R: 317 (48 + j were the data there).
 *     add r4 317 -> 321, add r5 325, ret 326.  L2 and DRAM move 16
 *     sectors, 256 bytes; L1 hits only load 3's 8 lines. */
static void set_sectors(emu_config *cfg)
{
    cfg->timing.sector_bytes = 16;
}

static void test_sectors(void **state)
{
    (void)state;
    const char *src = ".kernel s\n.arg out global u32\n"
                      "mov.u32 r0, %sub_group_local_id\n"
                      "ld.global.u32 r1, [%out + r0*64]\n"
                      "ld.global.u32 r2, [%out + r0*64 + 16]\n"
                      "ld.global.u32 r3, [%out + r0*64 + 4]\n"
                      "add.u32 r4, r1, r2\n"
                      "add.u32 r5, r4, r3\nret\n";
    sgemu_timing t;
    assert_int_equal(run_any(src, 8, &t), 325);
    assert_int_equal(t.hits[TM_LEVEL_L1], 16);
    assert_int_equal(t.bytes[TM_LEVEL_L2], 512);
    assert_int_equal(t.bytes[TM_LEVEL_DRAM], 512);
    assert_int_equal(run_edited(src, 8, &t, set_sectors), 326);
    assert_int_equal(t.hits[TM_LEVEL_L1], 8);
    assert_int_equal(t.bytes[TM_LEVEL_L2], 256);
    assert_int_equal(t.bytes[TM_LEVEL_DRAM], 256);
}

/* Spilling (scheduler.allow_spill = 1).  The kernel uses r0..r39 (40
 * registers); its GRF demand is set to 160 B per lane: at SIMD32 need =
 * 160 x 32 / 32 = 160 registers > 128, spill = (160 - 128) x 32 = 1024 B, so
 * ceil(40 x 1024 / (160 x 32)) = 8 registers spill: r32..r39.
 *   mov r39 (mov, P 4): 0 -> 5; r39 spilled: a 128-B block store on send
 *     (P 4) at 5 (send busy to 9), write-through: L1/L2 ports 5 and 6, L2
 *     allocates both lines.
 *   add r0, r39, r39 issues at 5 (r39 ready); one fill of r39: send at
 *     max(5, 9) = 9; line 1: L1 9, miss (stores do not fill L1), L2 9 hit
 *     -> 109; line 2: L1 10, L2 max(10, 10) hit -> 110.  The add starts at
 *     110: 110 + 4 + 3 = 117.
 *   ret issues at 6 -> 10.  Total 117 (12 without spilling). */
static uint64_t run_spill(uint32_t allow, sgemu_timing *out)
{
    const char *src = ".kernel sp\n.arg out global u32\n"
                      "mov.u32 r39, 1\nadd.u32 r0, r39, r39\nret\n";
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    assert_int_equal(k.nreg, 40);
    k.grf_bytes_per_lane = 160;
    cfg.timing.allow_spill = allow;
    uint32_t buf[32] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 32 }, .local = { 32 }, .local_given = true,
                       .sg_width = 32, .timing = true };
    uint64_t c = timed_run(&k, &cfg, &L, args, out);
    isa_kernel_free(&k);
    return c;
}

static void test_spill(void **state)
{
    (void)state;
    sgemu_timing t;
    assert_int_equal(run_spill(1, &t), 117);
    assert_true(t.grf_overflow);
    assert_int_equal(t.spilled_regs, 8);
    assert_int_equal(t.spill_fills, 1);
    assert_int_equal(t.spill_stores, 1);
    assert_int_equal(t.spill_bytes_moved, 256);
    assert_int_equal(t.hits[TM_LEVEL_L2], 2);
    /* reported, not charged */
    assert_int_equal(run_spill(0, &t), 12);
    assert_true(t.grf_overflow);
    assert_int_equal(t.spilled_regs, 0);
    assert_int_equal(t.spill_bytes_moved, 0);
}

/* The allocator's spill code (docs/regalloc.md) is timed as the private
 * accesses it is (docs/timing-model.md, Memory, Private memory), with no
 * flat charge.  SIMD8 on test-simple with 2 GRF registers of 32 B: the
 * budget is 2 x 32 / 8 = 8 B per lane, two u32 values.  Three values live
 * after `mov r2` (12 B): r2's next read is the furthest (two steps), so it
 * goes to slot 0; its store temporary is then live with r0 and r1 (12 B):
 * r0 and r1 are both next read at `add r3`, the tie goes to r0 -> slot 4.
 * private_mem 8 B, W = 8: slot o of lane l at o x 8 + 4 l, both slots in
 * the sub-group's first 64-byte line.  Every pipe has one pass:
 *    0 mov t0, 1            mov 0 -> 2
 *    1 st.private [4], t0   waits t0: send at 2; L1 port 2-3, L2 allocates
 *    2 mov r1, 2            3 -> 5
 *    3 mov t2, 3            4 -> 6
 *    4 st.private [0], t2   waits t2: 6; L1 and L2 ports 6-7 (an L2 hit)
 *    5 ld.private t3, [4]   7: L1 misses (stores do not fill it), L2 hits
 *                           at max(7, 7) -> 107; L1 filled
 *    6 add r3, t3, r1       107 -> 111
 *    7 ld.private t4, [0]   108: L1 hit -> 138
 *    8 add r4, r3, t4       138 -> 142
 *    9 st.global [%out], r4 142: completes at 142 + 30 = 172
 *   10 ret                  143 -> 147.  Total 172. */
static void test_regalloc_spill(void **state)
{
    (void)state;
    const char *src = ".kernel rs\n.regalloc\n.arg out global u32\n"
                      "mov.u32 r0, 1\nmov.u32 r1, 2\nmov.u32 r2, 3\n"
                      "add.u32 r3, r0, r1\nadd.u32 r4, r3, r2\n"
                      "st.global.u32 [%out], r4\nret\n";
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    cfg.grf_regs_per_thread = 2;
    cfg.timing.allow_spill = 1;
    uint32_t buf[8] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 8 }, .local = { 8 }, .local_given = true,
                       .sg_width = 8, .timing = true };
    sgemu_stats st;
    sgemu_fault f;
    /* spill the constants, recompute none, and count them per lane (they
     * are uniform: once per thread they would fit) */
    setenv("SGEMU_REMAT", "0", 1);
    setenv("SGEMU_UNIFORM", "0", 1);
    int rc = sgemu_run(&k, &cfg, &L, args, &st, &f);
    unsetenv("SGEMU_REMAT");
    unsetenv("SGEMU_UNIFORM");
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    assert_true(st.regalloc_done);
    assert_int_equal(st.regalloc.spilled_values, 2);
    assert_int_equal(st.regalloc.spill_stores, 2);
    assert_int_equal(st.regalloc.spill_fills, 2);
    assert_int_equal(st.regalloc.spill_bytes, 8);
    assert_int_equal(st.regalloc.live_bytes, 8);
    assert_int_equal(st.timing->cycles, 172);
    assert_false(st.timing->grf_overflow);          /* it fits: no flat charge */
    assert_int_equal(st.timing->spill_bytes_moved, 0);
    /* L2: the second spill store finds the line the first allocated, the
     * first fill; L1: the second fill */
    assert_int_equal(st.timing->hits[TM_LEVEL_L2], 2);
    assert_int_equal(st.timing->hits[TM_LEVEL_L1], 1);
    assert_int_equal(buf[0], 6);
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

/* Structural JSON check: balanced brackets outside strings, the keys
 * Perfetto reads present. */
static void check_json(const char *s)
{
    int depth = 0;
    bool str = false;
    for (const char *p = s; *p; p++) {
        if (str) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                str = false;
            continue;
        }
        if (*p == '"')
            str = true;
        else if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            assert_true(--depth >= 0);
    }
    assert_int_equal(depth, 0);
    assert_false(str);
    assert_non_null(strstr(s, "\"traceEvents\""));
    assert_non_null(strstr(s, "\"ph\": \"X\""));
    assert_non_null(strstr(s, "\"ph\": \"M\""));
    assert_non_null(strstr(s, "\"pid\""));
    assert_non_null(strstr(s, "\"tid\""));
    assert_non_null(strstr(s, "\"ts\""));
}

/* Same run twice: identical cycles and identical trace files. */
static void test_determinism_and_trace(void **state)
{
    (void)state;
    const char *src = ".kernel d\n.arg out global u32\n"
                      "mov.u32 r0, %global_id.x\nld.global.u32 r1, [%out + r0*4]\n"
                      "add.u32 r1, r1, r0\nbarrier\nst.global.u32 [%out + r0*4], r1\nret\n";
    uint64_t a = run_cycles(src, 8, 256, 32, "t1.json");
    uint64_t b = run_cycles(src, 8, 256, 32, "t2.json");
    assert_int_equal(a, b);
    assert_true(a > 0);
    char *s1 = test_slurp("t1.json", NULL), *s2 = test_slurp("t2.json", NULL);
    assert_string_equal(s1, s2);
    check_json(s1);
    /* memory traffic counters (bytes per level per window) on their own track */
    assert_non_null(strstr(s1, "\"memory bytes\", \"ph\": \"C\""));
    assert_non_null(strstr(s1, "\"dram\": "));
    free(s1);
    free(s2);
    remove("t1.json");
    remove("t2.json");
}

/* --trace-limit bounds slices and counters together (track names are not
 * events): a limit of 3 keeps exactly 3. */
static void test_trace_limit(void **state)
{
    (void)state;
    const char *src = ".kernel d\n.arg out global u32\n"
                      "mov.u32 r0, %global_id.x\nld.global.u32 r1, [%out + r0*4]\n"
                      "add.u32 r1, r1, r0\nst.global.u32 [%out + r0*4], r1\nret\n";
    isa_kernel k;
    emu_config cfg;
    load(src, &k, &cfg);
    uint32_t buf[256] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { 256 }, .local = { 32 }, .local_given = true,
                       .sg_width = 8, .timing = true, .trace_path = "t3.json",
                       .trace_limit = 3 };
    sgemu_timing t;
    timed_run(&k, &cfg, &L, args, &t);
    assert_int_equal(t.trace_events, 3);
    char *s = test_slurp("t3.json", NULL);
    check_json(s);
    uint32_t n = 0;
    for (const char *p = s; (p = strstr(p, "\"ph\": \"")) != NULL; p++)
        n += p[7] == 'X' || p[7] == 'C';
    assert_int_equal(n, 3);
    free(s);
    remove("t3.json");
    isa_kernel_free(&k);
}

/* Occupancy: 100 registers per thread (400 B/lane x 8 lanes / 32 B) in a
 * shared 8 KiB register file -> 8192 / 3200 = 2 threads: 2 one-subgroup
 * work-groups per CU, limited by the GRF (4 slots would allow 4). */
static void test_occupancy_grf(void **state)
{
    (void)state;
    emu_config cfg;
    isa_diags d = { 0 };
    assert_int_equal(emu_config_load_bundled("test-simple", &cfg, &d), 0);
    cfg.timing.grf_bytes_per_cu = 8192;
    isa_kernel k;
    memset(&k, 0, sizeof k);
    k.grf_bytes_per_lane = 400;
    sgemu_timing t;
    memset(&t, 0, sizeof t);
    tm_occupancy(&cfg, &k, 8, 8, 0, 100, &t);
    assert_int_equal(t.grf_regs_needed, 100);
    assert_int_equal(t.wg_per_cu, 2);
    assert_int_equal(t.limiter, TM_LIMIT_GRF);
    /* per-thread GRF of 128 registers: SIMD32 needs 400 -> overflow */
    cfg.timing.grf_bytes_per_cu = 0;
    tm_occupancy(&cfg, &k, 32, 32, 0, 100, &t);
    assert_true(t.grf_overflow);
    /* large-GRF mode of 512 registers fits it with half the threads */
    cfg.large_grf_regs = 512;
    cfg.large_grf_threads = 2;
    tm_occupancy(&cfg, &k, 32, 32, 0, 100, &t);
    assert_false(t.grf_overflow);
    assert_true(t.large_grf);
    assert_int_equal(t.threads_per_cu, 2);
    isa_diags_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_chain),
        cmocka_unit_test(test_int_alternate_pipe),
        cmocka_unit_test(test_shuffle_lane_index),
        cmocka_unit_test(test_lowering_plans),
        cmocka_unit_test(test_unit_reservation_interleave),
        cmocka_unit_test(test_simd32_on_simd8),
        cmocka_unit_test(test_independent_threads),
        cmocka_unit_test(test_scheduler_policies),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_printf_cost),
        cmocka_unit_test(test_barrier_arrival_queue),
        cmocka_unit_test(test_barrier_no_queue),
        cmocka_unit_test(test_barrier_shared_unit),
        cmocka_unit_test(test_barrier_shared_interleaved),
        cmocka_unit_test(test_barrier_unit_busy),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_reduce_widths),
        cmocka_unit_test(test_block_read),
        cmocka_unit_test(test_block_read_two_subgroups),
        cmocka_unit_test(test_image_block_read),
        cmocka_unit_test(test_image_element_rw),
        cmocka_unit_test(test_cache_miss_then_hit),
        cmocka_unit_test(test_bank_conflict),
        cmocka_unit_test(test_local_atomics),
        cmocka_unit_test(test_atomic_path),
        cmocka_unit_test(test_fast_ports),
        cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_cross_unit_latency),
        cmocka_unit_test(test_spill),
        cmocka_unit_test(test_regalloc_spill),
        cmocka_unit_test(test_determinism_and_trace),
        cmocka_unit_test(test_trace_limit),
        cmocka_unit_test(test_occupancy_grf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
