/* test_l2_link.c - a compute unit's link to the L2
 * (memory.l2.cu_bytes_per_cycle; docs/timing-model.md, "L2 under load"):
 * a load's sectors from the L2 hold its CU's link n x S / X cycles, a port
 * between the L1 port and the L2 port, so one CU's burst of lines reaches
 * the L2 no faster than its link carries them; stores, atomics and other
 * CUs do not take it.  Exact cycles derived by hand from the port formula,
 * at the memory's interface (tm_mem_global), so that no issue rule enters.
 *
 * Config (sectors): 128-B lines of 32-B sectors; L1 4 KiB 4-way, latency
 * 20, 128 B a cycle (a line holds the L1 port 1 cycle); L2 64 KiB 8-way,
 * latency 100, 1024 B a cycle (1/32 cycle a sector); DRAM latency 300,
 * 1024 B a cycle; the link 64 B a cycle (a sector 1/2 cycle, a whole line
 * 2).  Without sectors: 64-B lines, L1 64 B a cycle (a line 1 cycle), the
 * link 32 B a cycle (a line 2). */
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "test_mem.h"

static void open_mem(mem *x, bool sectors, uint32_t link)
{
    emu_timing_cfg *tc = mem_base(x, sectors);
    tc->l1 = (tm_cache_cfg){ .size = 4096, .assoc = 4, .latency = 20, .bw = sectors ? 128 : 64 };
    tc->l2 = (tm_cache_cfg){ .size = 65536, .assoc = 8, .latency = 100, .bw = 1024 };
    tc->l2_cu_bw = link;
    tc->dram_bw = 1024;
    mem_open(x);
}

static uint64_t access(mem *x, uint32_t cu, uint64_t t, uint64_t a, uint64_t d, uint32_t n,
                       uint32_t b, bool store)
{
    return mem_ramp(x, cu, t, a, d, n, b, store, false);
}

/* CU 1 loads lines 0..7 at 0 (all sectors: misses to DRAM), so that the
 * L2 holds them with data long before 1000. */
static void warm_l2(mem *x)
{
    assert_true(access(x, 1, 0, 0, 16, 64, 16, false) < 1000);
}

/* CU 0 at 1000: 32 lanes of 16 B = lines 0..3, every sector, L2 hits.
 *   no link:  L1 port starts 1000..1003, L2 port at once: last line
 *             1003 + 100 = 1103.
 *   link 64:  4 sectors = 2 cycles a line: link starts 1000, 1002, 1004,
 *             1006 (each after its L1 start 1000..1003): 1106.
 * With the link, CU 1 at 1007 then loads line 8 (all sectors, from DRAM):
 * its own link is free (CU 0's is busy until 1008), L1 1007, link 1007,
 * L2 1007 (the port free at 1006 + 1/8), DRAM: 1307.
 * Then CU 0 at 1001: lines 4..7, which its L1 does not hold (CU 1 loaded
 * them): L1 starts 1004..1007 (the port free at 1004);
 *   no link:  1007 + 100 = 1107;
 *   link:     free at 1008: 1008, 1010, 1012, 1014: 1114. */
static void test_link_spaces_lines(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, 0);
    warm_l2(&x);
    assert_int_equal(access(&x, 0, 1000, 0, 16, 32, 16, false), 1103);
    assert_int_equal(access(&x, 0, 1001, 512, 16, 32, 16, false), 1107);
    tm_mem_free(&x.m);

    open_mem(&x, true, 64);
    warm_l2(&x);
    assert_int_equal(access(&x, 0, 1000, 0, 16, 32, 16, false), 1106);
    assert_int_equal(access(&x, 1, 1007, 1024, 4, 32, 4, false), 1307);
    assert_int_equal(access(&x, 0, 1001, 512, 16, 32, 16, false), 1114);
    tm_mem_free(&x.m);
}

/* The link carries the sectors asked for: 8 lanes of 4 B at 128 i (lines
 * 0..7, sector 0 each) hold it 1/2 cycle a line, less than the L1 port's
 * 1 cycle, so the link adds nothing: starts 1000..1007, 1107. */
static void test_link_counts_sectors(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, 64);
    warm_l2(&x);
    assert_int_equal(access(&x, 0, 1000, 0, 128, 8, 4, false), 1107);
    tm_mem_free(&x.m);
}

/* A store does not take the link (it carries no data back): CU 0 stores
 * lines 0..3 at 2000 (L1 port 2000..2003, done 2003 + 20 = 2023); a load
 * of lines 4..7 at 2004 finds the L1 port and the link free: L1 starts
 * 2004..2007, link 2004, 2006, 2008, 2010: 2110 (2114 if the store had
 * held the link until 2008). */
static void test_store_skips_link(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, true, 64);
    warm_l2(&x);
    assert_int_equal(access(&x, 0, 2000, 0, 16, 32, 16, true), 2023);
    assert_int_equal(access(&x, 0, 2004, 512, 16, 32, 16, false), 2110);
    tm_mem_free(&x.m);
}

/* Without sectors (whole lines, the plain path from 4 lines on): 8 lanes
 * of 64 B at 64 i = lines 0..7, L2 hits after CU 1's loads.
 *   no link:  L1 starts 1000..1007: 1107.
 *   link 32:  2 cycles a line: 1000, 1002, ..., 1014: 1114.
 * A two-line access (line by line, not the plain path) at 1001 after it:
 * L1 starts 1008, 1009, link 1016, 1018: 1118. */
static void test_link_whole_lines(void **state)
{
    (void)state;
    mem x;
    open_mem(&x, false, 0);
    assert_true(access(&x, 1, 0, 0, 64, 16, 64, false) < 1000);
    assert_int_equal(access(&x, 0, 1000, 0, 64, 8, 64, false), 1107);
    tm_mem_free(&x.m);

    open_mem(&x, false, 32);
    assert_true(access(&x, 1, 0, 0, 64, 16, 64, false) < 1000);
    assert_int_equal(access(&x, 0, 1000, 0, 64, 8, 64, false), 1114);
    assert_int_equal(access(&x, 0, 1001, 512, 64, 2, 64, false), 1118);
    tm_mem_free(&x.m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_spaces_lines),
        cmocka_unit_test(test_link_counts_sectors),
        cmocka_unit_test(test_store_skips_link),
        cmocka_unit_test(test_link_whole_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
