/* test_timing.c - exact cycle counts of the timing model on
 * configs/test-simple.yaml, each derived by hand from docs/timing-model.md:
 * an ALU op of width S on a pipe of width A takes P = ceil(S/A) passes,
 * issues when its sources are ready, and completes at
 * issue + latency + (P - 1) * interval. */
#include "sgemu.h"
#include "timing.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static uint64_t run_cycles(const char *src, uint32_t width, uint64_t global, uint64_t local,
                           const char *trace)
{
    isa_kernel k;
    isa_diags d = { 0 };
    assert_int_equal(isa_assemble("t.sgasm", src, strlen(src), &k, &d), 0);
    emu_config cfg;
    assert_int_equal(emu_config_load_bundled("test-simple", &cfg, &d), 0);
    uint32_t buf[1024] = { 0 };
    sgemu_argval args[1] = { { .kind = SGEMU_VAL_BUFFER, .data = (uint8_t *)buf,
                               .bytes = sizeof buf } };
    sgemu_launch L = { .dims = 1, .global = { global }, .local = { local },
                       .local_given = true, .sg_width = width, .timing = true,
                       .trace_path = trace };
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &L, args, &st, &f), 0);
    assert_non_null(st.timing);
    uint64_t c = st.timing->cycles;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    isa_diags_free(&d);
    return c;
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

/* Barrier across two subgroups: arrivals at 0 and 1, release at 1 + 20 =
 * 21; rets at 21 and 22 (-> 25, 26).  Total 26. */
static void test_barrier(void **state)
{
    (void)state;
    const char *src = ".kernel b\n.arg out global u32\nbarrier\nret\n";
    assert_int_equal(run_cycles(src, 8, 16, 16, NULL), 26);
}

/* Same run twice: identical cycles and identical trace files. */
static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
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
    char *s1 = slurp("t1.json"), *s2 = slurp("t2.json");
    assert_string_equal(s1, s2);
    check_json(s1);
    free(s1);
    free(s2);
    remove("t1.json");
    remove("t2.json");
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
        cmocka_unit_test(test_simd32_on_simd8),
        cmocka_unit_test(test_independent_threads),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_determinism_and_trace),
        cmocka_unit_test(test_occupancy_grf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
