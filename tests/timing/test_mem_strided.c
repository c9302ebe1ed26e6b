/* test_mem_strided.c - the memory path's strided form (emu_rec.strided):
 * tm_mem_global told that its addresses step by one stride must give the
 * completion times and statistics it gives when it finds the lines from
 * every lane; and a 2D block message's rows (tm_mem_rows) those of one
 * single-address access a row, all at the message's start.  Two memories of one config take the same pseudo-random
 * accesses (strides of 0, the lane's bytes, under and over it, a line and
 * beyond, descending, wrapping at the top of the address space; 1-64
 * lanes; loads and stores; atomics), one with the form and one without;
 * the caches are small, so lines are evicted and the ports queue. */
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* line 64 B whole, or 128 B in 32-B sectors; with or without an L1 */
static void config(emu_timing_cfg *tc, bool sectors, bool l1)
{
    memset(tc, 0, sizeof *tc);
    tc->line_bytes = sectors ? 128 : 64;
    tc->sector_bytes = sectors ? 32 : 0;
    if (l1)
        tc->l1 = (tm_cache_cfg){ .size = 4096, .assoc = 4, .latency = 20, .bw = 64 };
    tc->l2 = (tm_cache_cfg){ .size = 32768, .assoc = 8, .latency = 100, .bw = 48 };
    tc->dram_latency = 300;
    tc->dram_bw = 24;
    tc->atomic_latency = 400;
    tc->atomic_ii = 2;
}

static uint64_t stride(uint32_t bytes)
{
    switch (next() % 9) {
    case 0: return 0;
    case 1: return bytes;
    case 2: return bytes > 1 ? bytes / 2 : 1;
    case 3: return bytes + 4;
    case 4: return 64;
    case 5: return 100;
    case 6: return 4096;
    case 7: return (uint64_t)0 - bytes;        /* descending */
    default: return next() % 300;
    }
}

/* Two memories of one config (the memories point into the pair). */
typedef struct pair {
    emu_timing_cfg tc;
    sgemu_timing st[2];
    tm_mem m[2];
} pair;

static void open_pair(pair *p, bool sectors, bool l1)
{
    config(&p->tc, sectors, l1);
    for (int k = 0; k < 2; k++) {
        memset(&p->st[k], 0, sizeof p->st[k]);
        assert_int_equal(tm_mem_init(&p->m[k], &p->tc, 2, &p->st[k]), 0);
    }
}

/* Both memories' statistics alike (and some traffic), then freed. */
static void close_pair(pair *p)
{
    const sgemu_timing *a = &p->st[0], *b = &p->st[1];
    assert_memory_equal(a->hits, b->hits, sizeof a->hits);
    assert_memory_equal(a->misses, b->misses, sizeof a->misses);
    assert_memory_equal(a->bytes, b->bytes, sizeof a->bytes);
    assert_memory_equal(a->requests, b->requests, sizeof a->requests);
    assert_true(a->requests[TM_LEVEL_L2] > 0);
    tm_mem_free(&p->m[0]);
    tm_mem_free(&p->m[1]);
}

static void run(bool sectors, bool l1)
{
    pair p;
    open_pair(&p, sectors, l1);
    tm_mem *m = p.m;
    static const uint32_t sizes[] = { 1, 2, 4, 8, 16, 64, 128 };
    uint64_t t = 0;
    for (uint32_t i = 0; i < 4000; i++) {
        uint32_t n = 1 + (uint32_t)(next() % 64), bytes = sizes[next() % 7];
        uint64_t d = stride(bytes), a[64];
        /* mostly a 64 KB window (reuse), sometimes the top (wrapping) */
        a[0] = next() % 8 == 0 ? UINT64_MAX - next() % 4096 : next() % 65536;
        for (uint32_t l = 1; l < n; l++)
            a[l] = a[l - 1] + d;
        bool store = next() % 3 == 0, atomic = next() % 16 == 0;
        uint32_t cu = (uint32_t)(next() % 2);
        t += next() % 8;
        uint64_t lanes = tm_mem_global(&m[0], cu, t, a, n, bytes, store, atomic, false);
        uint64_t form = tm_mem_global(&m[1], cu, t, a, n, bytes, store, atomic, true);
        assert_int_equal(form, lanes);
    }
    close_pair(&p);
}

/* rows of pitch bytes apart (whole lines apart or not), inside a line or
 * across lines, near the top of the address space too */
static void run_rows(bool sectors, bool l1)
{
    pair p;
    open_pair(&p, sectors, l1);
    tm_mem *m = p.m;
    static const uint32_t sizes[] = { 1, 8, 16, 32, 64, 100, 128 };
    static const uint32_t pitches[] = { 0, 64, 128, 256, 4096, 96, 1000 };
    uint64_t t = 0;
    for (uint32_t i = 0; i < 4000; i++) {
        uint32_t rows = 1 + (uint32_t)(next() % 16), bytes = sizes[next() % 7];
        uint32_t pitch = pitches[next() % 7];
        uint64_t addr = next() % 8 == 0 ? UINT64_MAX - next() % 8192 : next() % 65536;
        if (next() % 2)
            addr &= ~(uint64_t)31;
        bool store = next() % 3 == 0;
        uint32_t cu = (uint32_t)(next() % 2);
        t += next() % 8;
        uint64_t rows_done = tm_mem_rows(&m[1], cu, t, addr, pitch, rows, bytes, store);
        uint64_t done = t;
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t a = addr + (uint64_t)r * pitch, got;
            got = tm_mem_global(&m[0], cu, t, &a, 1, bytes, store, false, false);
            done = got > done ? got : done;
        }
        assert_int_equal(rows_done, done);
    }
    close_pair(&p);
}

static void test_rows(void **state)
{
    (void)state;
    run_rows(false, true);
    run_rows(false, false);
    run_rows(true, true);
}

static void test_whole_lines(void **state)
{
    (void)state;
    run(false, true);
    run(false, false);
}

static void test_sectors(void **state)
{
    (void)state;
    run(true, true);
    run(true, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_lines),
        cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
