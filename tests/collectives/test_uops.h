/* test_uops.h - a coll_sink callback that keeps the micro-ops a collective
 * records, for tests that compare records: the first TEST_UOPS_MAX are
 * kept, n counts them all. */
#ifndef SGEMU_TEST_UOPS_H
#define SGEMU_TEST_UOPS_H

#include "collectives.h"

#include <stdint.h>

#define TEST_UOPS_MAX 256

typedef struct test_uops {
    uint32_t n;
    coll_uop u[TEST_UOPS_MAX];
} test_uops;

static inline void test_uops_keep(void *user, const coll_uop *u)
{
    test_uops *l = user;
    if (l->n < TEST_UOPS_MAX)
        l->u[l->n] = *u;
    l->n++;
}

#endif
