/*
 * timing_barrier.c - when the barrier unit of a compute unit has counted
 * every subgroup of a work-group (docs/timing-model.md, "Barriers").  Each
 * subgroup's arrival is one message to the unit (Intel: a gateway message;
 * NVIDIA: BAR.SYNC), and the unit counts one message every
 * `scheduler.barrier_arrival_interval` cycles, in arrival order.
 */
#include "timing_private.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t tm_barrier_counted(uint64_t *arrival, uint32_t n, uint32_t interval)
{
    if (n == 0)
        return 0;
    qsort(arrival, n, sizeof *arrival, cmp_u64);
    uint64_t c = arrival[0];
    for (uint32_t i = 1; i < n; i++) {
        uint64_t next = c + interval;
        c = arrival[i] > next ? arrival[i] : next;
    }
    return c;
}
