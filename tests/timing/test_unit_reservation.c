/* test_unit_reservation.c - the busy stretches a unit holds ahead of its
 * free time (docs/timing-model.md, "Unit reservation"), on tm_unit_hold and
 * tm_units_settle directly: each expected start and stretch derived by hand
 * from the rule (the first gap of the occupancy at or after max(t0, free);
 * a booking from the unit's present moves its free time, one ahead is held
 * as a stretch; stretches that begin by the step's time join the free
 * time; a unit holding TM_URES_MAX joins its last two first). */
#include "timing_private.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

typedef struct units {
    tm_cu c;
    uint64_t free[2];
    tm_ures res[2];
    tm_ureshead head[2];
    uint32_t list[2];
} units;

static void units_init(units *u)
{
    memset(u, 0, sizeof *u);
    u->c.pfree = u->free;
    u->c.ures = u->res;
    u->c.resh = u->head;
    u->c.resu = u->list;
}

/* unit k holds exactly the stretches [a[i], b[i]) of pairs ab */
static void assert_stretches(const units *u, uint32_t k, const uint64_t *ab, uint32_t n)
{
    assert_int_equal(u->head[k].n, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(u->res[k].a[i], ab[2 * i]);
        assert_int_equal(u->res[k].b[i], ab[2 * i + 1]);
    }
}

/* One unit, each booking after the last:
 *  from the present (t0 = now = 5, free 0): starts 5, free 7, no stretch;
 *  ahead (t0 20, occ 3, now 5): 20 > max(7, 5): stretch [20,23);
 *  t0 10, occ 4: [10,14) ends by 20: a stretch before it;
 *  t0 15, occ 6: [15,21) meets [20,23) -> 23, [23,29) joins it: [20,29);
 *  t0 14, occ 6: [14,20) fills the gap exactly: [10,29);
 *  t0 7 = free, occ 3, now 7: from the present, free 10, which the
 *    stretch [10,29) begins at: free 29, none held. */
static void test_fit_and_join(void **state)
{
    (void)state;
    units u;
    units_init(&u);
    uint64_t *f = &u.free[0];
    assert_int_equal(tm_unit_hold(&u.c, f, 5, 2, 5), 5);
    assert_int_equal(*f, 7);
    assert_int_equal(u.c.nres, 0);
    assert_int_equal(tm_unit_hold(&u.c, f, 20, 3, 5), 20);
    assert_int_equal(*f, 7);
    assert_int_equal(u.c.nres, 1);
    assert_stretches(&u, 0, (const uint64_t[]){ 20, 23 }, 1);
    assert_int_equal(tm_unit_hold(&u.c, f, 10, 4, 6), 10);
    assert_stretches(&u, 0, (const uint64_t[]){ 10, 14, 20, 23 }, 2);
    assert_int_equal(tm_unit_hold(&u.c, f, 15, 6, 6), 23);
    assert_stretches(&u, 0, (const uint64_t[]){ 10, 14, 20, 29 }, 2);
    assert_int_equal(tm_unit_hold(&u.c, f, 14, 6, 6), 14);
    assert_stretches(&u, 0, (const uint64_t[]){ 10, 29 }, 1);
    assert_int_equal(tm_unit_hold(&u.c, f, 7, 3, 7), 7);
    assert_int_equal(*f, 29);
    assert_int_equal(u.head[0].n, 0);
    assert_int_equal(u.c.nres, 0);
}

/* The step's settle: free 0, stretch [40,45) (t0 40, now 29), a step at 41
 * finds it begun: free 45 (the schedulers read it busy to 45).  A stretch
 * [60,62) that a step at 100 finds over: free 62 (<= 100: free). */
static void test_settle(void **state)
{
    (void)state;
    units u;
    units_init(&u);
    uint64_t *f = &u.free[0];
    assert_int_equal(tm_unit_hold(&u.c, f, 40, 5, 29), 40);
    tm_units_settle(&u.c, 39);
    assert_int_equal(*f, 0);
    assert_int_equal(u.c.nres, 1);
    tm_units_settle(&u.c, 41);
    assert_int_equal(*f, 45);
    assert_int_equal(u.c.nres, 0);
    assert_int_equal(tm_unit_hold(&u.c, f, 60, 2, 45), 60);
    tm_units_settle(&u.c, 100);
    assert_int_equal(*f, 62);
    assert_int_equal(u.c.nres, 0);
}

/* The CU's list of units holding stretches: units 0 and 1 each take one
 * ahead (list 0, 1); unit 0's is settled: the list holds unit 1 alone, at
 * index 0. */
static void test_unit_list(void **state)
{
    (void)state;
    units u;
    units_init(&u);
    tm_unit_hold(&u.c, &u.free[0], 10, 1, 0);
    tm_unit_hold(&u.c, &u.free[1], 30, 1, 0);
    assert_int_equal(u.c.nres, 2);
    assert_int_equal(u.list[0], 0);
    assert_int_equal(u.list[1], 1);
    tm_units_settle(&u.c, 20);
    assert_int_equal(u.free[0], 11);
    assert_int_equal(u.free[1], 0);
    assert_int_equal(u.c.nres, 1);
    assert_int_equal(u.list[0], 1);
    assert_int_equal(u.head[1].pos, 0);
}

/* The window: TM_URES_MAX stretches [200 + 10k, 202 + 10k) (now 100); one
 * more at 1000 first joins the last two, [200 + 10 (MAX - 2),
 * 202 + 10 (MAX - 1)), then takes its own: MAX held again.  A booking of
 * 2 at lo + 2 (in the gap the join took) then joins the last two again,
 * [lo, 1002), and waits for its end: 1002, held as [lo, 1004). */
static void test_window_full(void **state)
{
    (void)state;
    units u;
    units_init(&u);
    uint64_t *f = &u.free[0];
    for (uint32_t k = 0; k < TM_URES_MAX; k++)
        assert_int_equal(tm_unit_hold(&u.c, f, 200 + 10 * k, 2, 100), 200 + 10 * k);
    assert_int_equal(u.head[0].n, TM_URES_MAX);
    assert_int_equal(tm_unit_hold(&u.c, f, 1000, 2, 100), 1000);
    assert_int_equal(u.head[0].n, TM_URES_MAX);
    const uint64_t lo = 200 + 10 * (TM_URES_MAX - 2), hi = 202 + 10 * (TM_URES_MAX - 1);
    assert_int_equal(u.res[0].a[TM_URES_MAX - 2], lo);
    assert_int_equal(u.res[0].b[TM_URES_MAX - 2], hi);
    assert_int_equal(u.res[0].a[TM_URES_MAX - 1], 1000);
    assert_int_equal(tm_unit_hold(&u.c, f, lo + 2, 2, 100), 1002);
    assert_int_equal(u.head[0].n, TM_URES_MAX - 1);
    assert_int_equal(u.res[0].a[TM_URES_MAX - 2], lo);
    assert_int_equal(u.res[0].b[TM_URES_MAX - 2], 1004);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_and_join),
        cmocka_unit_test(test_settle),
        cmocka_unit_test(test_unit_list),
        cmocka_unit_test(test_window_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
