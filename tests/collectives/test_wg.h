/* test_wg.h - the fixture shared by the collectives tests: one work-group's
 * sub-groups as a coll_group, and the inputs' random generator.  Include
 * after <cmocka.h>. */
#ifndef SGEMU_TEST_WG_H
#define SGEMU_TEST_WG_H

#include "coll.h"

#include <stdint.h>
#include <string.h>

#define TEST_WG_MAXSG 256

typedef struct test_wg {
    uint32_t w, n, nsg;
    lanes_sg sg[TEST_WG_MAXSG];
    lanes_sg *p[TEST_WG_MAXSG];
    lanes_mask act[TEST_WG_MAXSG];
    coll_group g;
} test_wg;

/* n work-items at width w: ceil(n / w) sub-groups (the last one partial) of
 * nreg registers, all existing lanes active; work-group shape `local`. */
static inline void test_wg_init(test_wg *x, uint32_t w, uint32_t n, uint32_t nreg,
                                const uint32_t local[3])
{
    x->w = w;
    x->n = n;
    x->nsg = (n + w - 1) / w;
    assert_true(x->nsg <= TEST_WG_MAXSG);
    for (uint32_t j = 0; j < x->nsg; j++) {
        uint32_t size = n - j * w < w ? n - j * w : w;
        assert_int_equal(lanes_sg_init(&x->sg[j], w, size, nreg, 1), 0);
        x->p[j] = &x->sg[j];
        x->act[j] = x->sg[j].exists;
    }
    memset(&x->g, 0, sizeof x->g);
    x->g.nsg = x->nsg;
    x->g.sg = x->p;
    x->g.active = x->act;
    for (int d = 0; d < 3; d++)
        x->g.local_size[d] = local[d];
    x->g.wg_items = n;
}

static inline void test_wg_free(test_wg *x)
{
    for (uint32_t j = 0; j < x->nsg; j++)
        lanes_sg_free(&x->sg[j]);
}

/* xorshift64: the next value of *state (the tests' own input generator). */
static inline uint64_t test_xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

#endif
