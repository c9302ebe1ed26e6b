/* test_mem.h - a memory model (tm_mem) for tests that drive it at its
 * interface, tm_mem_global, so that no issue rule enters their cycles.
 * Include after timing_private.h and <cmocka.h>. */
#ifndef SGEMU_TEST_MEM_H
#define SGEMU_TEST_MEM_H

#include <string.h>

typedef struct mem {
    emu_timing_cfg tc;
    sgemu_timing st;
    tm_mem m;
} mem;

/* x cleared, with the line geometry (sectors: 128-B lines of 32-B
 * sectors, else 64-B lines), DRAM latency 300 and atomics latency 400,
 * interval 2; the caller sets the caches and bandwidths, then opens. */
static inline emu_timing_cfg *mem_base(mem *x, bool sectors)
{
    memset(x, 0, sizeof *x);
    x->tc.line_bytes = sectors ? 128 : 64;
    x->tc.sector_bytes = sectors ? 32 : 0;
    x->tc.dram_latency = 300;
    x->tc.atomic_latency = 400;
    x->tc.atomic_ii = 2;
    return &x->tc;
}

/* two CUs */
static inline void mem_open(mem *x)
{
    assert_int_equal(tm_mem_init(&x->m, &x->tc, 2, &x->st), 0);
}

/* n lanes of b bytes at a + i x d: the cycle the last lane's data is there */
static inline uint64_t mem_ramp(mem *x, uint32_t cu, uint64_t t, uint64_t a, uint64_t d,
                                uint32_t n, uint32_t b, bool store, bool atomic)
{
    uint64_t addr[64];
    for (uint32_t i = 0; i < n; i++)
        addr[i] = a + i * d;
    return tm_mem_global(&x->m, cu, t, addr, n, b, store, atomic, false);
}

#endif
