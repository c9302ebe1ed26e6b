/* test_mem_inflight.c - a request that finds its line with the fill still
 * in flight gets the data when the fill does, not one hit latency after it
 * reaches the cache (docs/timing-model.md, Memory: a way's data time R, a
 * hit done at max(port start + hit latency, R)).  Exact cycles derived by
 * hand from these formulas, at the memory's interface (tm_mem_global), so
 * that no issue rule enters them.
 *
 * Config: 64-B lines; L1 4 KiB 4-way, latency 20, 64 B a cycle (a line
 * holds the port 1 cycle); L2 32 KiB 8-way, latency 100, 64 B a cycle;
 * DRAM latency 300, 32 B a cycle (a line: 2 cycles); atomics latency 400,
 * interval 2.  With sectors: 128-B lines in 32-B sectors (L1: 2 cycles a
 * line; L2 1/2 cycle a sector, DRAM 1). */
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "test_mem.h"

static void open_mem(mem *x, bool l1, bool sectors)
{
    emu_timing_cfg *tc = mem_base(x, sectors);
    if (l1)
        tc->l1 = (tm_cache_cfg){ .size = 4096, .assoc = 4, .latency = 20, .bw = 64 };
    tc->l2 = (tm_cache_cfg){ .size = 32768, .assoc = 8, .latency = 100, .bw = 64 };
    tc->dram_bw = 32;
    mem_open(x);
}

static uint64_t access(mem *x, uint32_t cu, uint64_t t, uint64_t a, uint64_t d, uint32_t n,
                       bool store, bool atomic)
{
    return mem_ramp(x, cu, t, a, d, n, 4, store, atomic);
}

/* One CU, one line (8 lanes on bytes 0..31: one line request).
 *   load at 0: L1 port 0, miss; L2 port 0, miss; DRAM 0 -> 0 + 300 = 300,
 *     the L1's and L2's way: data at 300.
 *   load at 1 (bytes 32..63 of the line): L1 port max(1, 1) = 1, hit:
 *     max(1 + 20, 300) = 300 (a hit latency after its port: 21).
 *   load at 400: L1 port 400, hit: max(420, 300) = 420.
 * Both later loads count as L1 hits; one request reaches the L2. */
static void test_l1_in_flight(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, false);
    assert_int_equal(access(&x, 0, 0, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 0, 1, 32, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 0, 400, 0, 4, 8, false, false), 420);
    assert_int_equal(x.st.hits[TM_LEVEL_L1], 2);
    assert_int_equal(x.st.misses[TM_LEVEL_L1], 1);
    assert_int_equal(x.st.requests[TM_LEVEL_L2], 1);
    assert_int_equal(x.st.requests[TM_LEVEL_DRAM], 1);
    tm_mem_free(&x.m);
}

/* Two CUs, one line: the second CU's L1 misses and finds the L2's fill in
 * flight.
 *   CU 0 at 0: 300 as above (L2 port free again at 1).
 *   CU 1 at 5: its L1 port 5, miss; L2 port max(5, 1) = 5, hit:
 *     max(5 + 100, 300) = 300; its L1 way's data time 300.
 *   CU 1 at 6: L1 port 6, hit: max(26, 300) = 300.
 *   CU 1 at 500: 520. */
static void test_l2_in_flight(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, false);
    assert_int_equal(access(&x, 0, 0, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 1, 5, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 1, 6, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 1, 500, 0, 4, 8, false, false), 520);
    assert_int_equal(x.st.hits[TM_LEVEL_L2], 1);
    assert_int_equal(x.st.misses[TM_LEVEL_L2], 1);
    assert_int_equal(x.st.hits[TM_LEVEL_L1], 2);
    tm_mem_free(&x.m);
}

/* Without an L1: load at 0 -> 300; load at 1: L2 port 1, hit:
 * max(101, 300) = 300; an atomic at 2 on the line: L2 port 2, its data at
 * max(102, 300) = 300, then the atomic unit: + (400 - 100) = 600. */
static void test_no_l1_and_atomic(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, false, false);
    assert_int_equal(access(&x, 0, 0, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 0, 1, 0, 4, 8, false, false), 300);
    assert_int_equal(access(&x, 0, 2, 0, 4, 1, false, true), 600);
    tm_mem_free(&x.m);
}

/* Eight lines (lane i at 64 i: the plain path of whole lines).
 *   load at 0: line j at the L1 and L2 ports at j, DRAM at max(j, 2j) =
 *     2j -> 300 + 2j; done 314.
 *   load at 1 of 64 i + 4: L1 port free at 8: line j at 8 + j, a hit:
 *     max(28 + j, 300 + 2j) = 300 + 2j; done 314.
 *   load at 1000: line j at 1000 + j -> 1020 + j; done 1027. */
static void test_plain_in_flight(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, false);
    assert_int_equal(access(&x, 0, 0, 0, 64, 8, false, false), 314);
    assert_int_equal(access(&x, 0, 1, 4, 64, 8, false, false), 314);
    assert_int_equal(access(&x, 0, 1000, 8, 64, 8, false, false), 1027);
    assert_int_equal(x.st.hits[TM_LEVEL_L1], 16);
    assert_int_equal(x.st.misses[TM_LEVEL_L1], 8);
    tm_mem_free(&x.m);
}

/* A store allocates its line in the L2 with its bytes there at its own
 * time (an L2 hit's: port start + 100), and does not fill the L1.
 *   store at 0: L1 port 0; L2 port 0, miss (DRAM port 0..2); data time
 *     100; done 0 + 20.
 *   load at 1: L1 port 1, miss; L2 port 1, hit: max(101, 100) = 101. */
static void test_store_allocates(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, false);
    assert_int_equal(access(&x, 0, 0, 0, 4, 8, true, false), 20);
    assert_int_equal(access(&x, 0, 1, 0, 4, 8, false, false), 101);
    tm_mem_free(&x.m);
}

/* Sectors: a way keeps one data time for the line, its latest fill's.
 *   load of sector 0 at 0: L1 port 0 (free at 2), L2 0, DRAM 0 -> 300.
 *   load of sector 1 at 1: L1 port 2, miss (sector 1); L2 port 2, miss;
 *     DRAM max(2, 1) = 2 -> 302: the line's data time 302 in both caches.
 *   load of sector 0 at 2: L1 port 4, hit: max(24, 302) = 302 (the line's
 *     time, though sector 0 came at 300). */
static void test_sectors_one_time(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, true);
    assert_int_equal(access(&x, 0, 0, 0, 4, 1, false, false), 300);
    assert_int_equal(access(&x, 0, 1, 32, 4, 1, false, false), 302);
    assert_int_equal(access(&x, 0, 2, 0, 4, 1, false, false), 302);
    tm_mem_free(&x.m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l1_in_flight),
        cmocka_unit_test(test_l2_in_flight),
        cmocka_unit_test(test_no_l1_and_atomic),
        cmocka_unit_test(test_plain_in_flight),
        cmocka_unit_test(test_store_allocates),
        cmocka_unit_test(test_sectors_one_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
