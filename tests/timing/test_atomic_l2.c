/* test_atomic_l2.c - the L2's per-line atomic state
 * (memory.atomic.l2_contended_interval, docs/timing-model.md, Memory),
 * driven through tm_mem_global with hand-set arrival times: exact cycles
 * for an atomic that finds its line busy with another CU's lanes, and none
 * of it for one CU alone or without the key. */
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

/* No L1 or L2 port limits that matter here: L2 hits after the first touch,
 * L2 latency 100, atomic latency 400, interval 2, no CU path. */
static void config(emu_timing_cfg *tc, uint32_t contended, double word)
{
    memset(tc, 0, sizeof *tc);
    tc->line_bytes = 128;
    tc->l2 = (tm_cache_cfg){ .size = 1 << 20, .assoc = 16, .latency = 100, .bw = 1 << 16 };
    tc->dram_latency = 300;
    tc->dram_bw = 1 << 16;
    tc->atomic_latency = 400;
    tc->atomic_ii = 2;
    tc->atomic_l2_contended = contended;
    tc->atomic_l2_word = word;
}

/* 32 lanes on word 0 of line 0 (k = 32, w = 1), or one lane on each of
 * its 32 words (k = 1, w = 32) */
static void lanes(uint64_t *a, bool one_word)
{
    for (uint32_t i = 0; i < 32; i++)
        a[i] = one_word ? 0 : 4 * i;
}

/* Two CUs' memory on config tc (kept in *tc and *st, which it points
 * to), with line 0 touched once first (a DRAM miss) so that every access
 * after it hits the L2: done = t + 400 (+ the serialisation). */
static void open_mem(tm_mem *m, emu_timing_cfg *tc, sgemu_timing *st, uint32_t contended)
{
    config(tc, contended, 0.6);
    memset(st, 0, sizeof *st);
    assert_int_equal(tm_mem_init(m, tc, 2, st), 0);
    uint64_t a = 0;
    tm_mem_global(m, 0, 0, &a, 1, 4, false, true, false);
}

static void test_contended(void **state)
{
    (void)state;
    emu_timing_cfg tc;
    sgemu_timing st;
    tm_mem m;
    open_mem(&m, &tc, &st, 6);
    uint64_t a[32];
    lanes(a, true);
    /* CU 0 at 1000: uncontended (its own line), 31 x 2 after the first
     * lane: done 1000 + 400 + 62; the line is free at 1000 + 64 = 1064 */
    assert_int_equal(tm_mem_global(&m, 0, 1000, a, 32, 4, false, true, false), 1462);
    /* CU 1 at 1010: the line is busy until 1064 with CU 0's lanes: it
     * waits 54, then 31 x 6: 1010 + 400 + 54 + 186 = 1650; free at
     * 1064 + 32 x 6 = 1256 */
    assert_int_equal(tm_mem_global(&m, 1, 1010, a, 32, 4, false, true, false), 1650);
    /* CU 0 at 1200, 32 words of one lane each: contended (CU 1's until
     * 1256): op = max(6, 32 x 0.6 = 19.2), one lane a word: waits 56:
     * 1200 + 400 + 56 = 1656; free at 1256 + 19.2 */
    lanes(a, false);
    assert_int_equal(tm_mem_global(&m, 0, 1200, a, 32, 4, false, true, false), 1656);
    /* CU 1 at 1275: waits to 1275.2, rounded up a cycle: 1275 + 400 + 1 */
    assert_int_equal(tm_mem_global(&m, 1, 1275, a, 32, 4, false, true, false), 1676);
    /* CU 1 again at 1276: its own lanes last: uncontended */
    lanes(a, true);
    assert_int_equal(tm_mem_global(&m, 1, 1276, a, 32, 4, false, true, false), 1276 + 400 + 62);
    tm_mem_free(&m);
}

/* Without the key, or with one CU, nothing waits: each atomic is
 * t + 400 + (k - 1) x 2 whatever came before. */
static void test_uncontended(void **state)
{
    (void)state;
    for (int on = 0; on < 2; on++) {
        emu_timing_cfg tc;
        sgemu_timing st;
        tm_mem m;
        open_mem(&m, &tc, &st, on ? 6 : 0);
        uint64_t a[32];
        lanes(a, true);
        assert_int_equal(tm_mem_global(&m, 0, 1000, a, 32, 4, false, true, false), 1462);
        assert_int_equal(tm_mem_global(&m, on ? 0 : 1, 1010, a, 32, 4, false, true, false), 1472);
        tm_mem_free(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contended),
        cmocka_unit_test(test_uncontended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
