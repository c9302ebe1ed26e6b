/* tools/bench/callgrind_split.c on a hand-written callgrind file: file ids
 * first named in cfi= lines, inlined fi= code, calls= costs that are not
 * self cost, and the three kinds of compressed position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "callgrind_split.h"

static const char sample[] =
    "version: 1\n"
    "events: Ir\n"
    "fl=(1) /src/emu/timing/timing_sched.c\n"
    "fn=(1) tm_step\n"
    "10 100\n"
    "+2 20\n"
    "fi=(2) /src/emu/timing/timing_private.h\n"      /* inlined: still tm_step's */
    "* 7\n"
    "fe=(1)\n"
    "-1 3\n"
    "cfi=(3) /src/collectives/shuffle.c\n"            /* id 3 named in a call */
    "cfn=(2) coll_do_shuffle\n"
    "calls=4 20\n"
    "12 5000\n"                                     /* the call's inclusive cost */
    "fl=(3)\n"
    "fn=(2)\n"
    "20 400\n"
    "fl=(4) ./string/memset.S\n"
    "fn=(3) memset\n"
    "1 9\n"
    "totals: 539\n";

static void test_split_by_component(void **state)
{
    (void)state;
    char path[] = "/tmp/sgemu-cg-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(sample, f);
    fclose(f);
    uint64_t ir[BENCH_NCOMP] = { 0 }, total = 0;
    assert_int_equal(callgrind_split(path, ir, &total), 0);
    unlink(path);
    assert_int_equal(ir[BENCH_COMP_SCHED], 100 + 20 + 7 + 3);
    assert_int_equal(ir[BENCH_COMP_COLL], 400);
    assert_int_equal(ir[BENCH_COMP_OTHER], 9);
    assert_int_equal(ir[BENCH_COMP_ISSUE], 0);
    assert_int_equal(total, 539);
}

static void test_missing_file(void **state)
{
    (void)state;
    uint64_t ir[BENCH_NCOMP] = { 0 }, total = 0;
    assert_int_equal(callgrind_split("/nonexistent/callgrind.out", ir, &total), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_by_component),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
