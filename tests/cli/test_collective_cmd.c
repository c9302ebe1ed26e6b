/* test_collective_cmd.c - `sgemu collective` from outside: the specification's
 * scan example, a divergent work-group function, and check-mode notes. */
#include "cli_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* the results column of the human table: last number of each data row */
static size_t results(const char *out, double *v, size_t n)
{
    size_t k = 0;
    const char *line = strstr(out, "result\n");
    if (!line)
        return 0;
    line += 7;
    while (k < n && *line >= '0' && *line <= '9') {
        const char *end = strchr(line, '\n');
        const char *last = end;
        while (last > line && last[-1] != ' ')
            last--;
        double x;
        if (sscanf(last, "%lf", &x) == 1)
            v[k++] = x;
        line = end + 1;
    }
    return k;
}

static void test_spec_scan_example(void **state)
{
    (void)state;
    /* the OpenCL C work_group_scan example; the arithmetic gives 15, not 14 */
    static const double inc[8] = { 3, 4, 11, 11, 15, 16, 22, 25 };
    static const double exc[8] = { 0, 3, 4, 11, 11, 15, 16, 22 };
    const unsigned widths[] = { 1, 4, 8, 16 };
    for (size_t w = 0; w < 4; w++) {
        double v[8];
        cli_result r = cli_run("collective work_group_scan_inclusive_add --type int --sg %u "
                               "--wg 8 --input 3,1,7,0,4,1,6,3 --check", widths[w]);
        assert_int_equal(r.status, 0);
        assert_int_equal(results(r.out, v, 8), 8);
        assert_memory_equal(v, inc, sizeof inc);
        assert_non_null(strstr(r.out, "micro-ops: "));
        cli_result_free(&r);
        r = cli_run("collective work_group_scan_exclusive_add --type int --sg %u --wg 8 "
                    "--input 3,1,7,0,4,1,6,3 --check", widths[w]);
        assert_int_equal(r.status, 0);
        assert_int_equal(results(r.out, v, 8), 8);
        assert_memory_equal(v, exc, sizeof exc);
        cli_result_free(&r);
    }
    /* and as a sub-group scan in one SIMD8 sub-group */
    double v[8];
    cli_result r = cli_run("collective sub_group_scan_inclusive_add --type short --sg 8 "
                           "--input 3,1,7,0,4,1,6,3");
    assert_int_equal(r.status, 0);
    assert_int_equal(results(r.out, v, 8), 8);
    assert_memory_equal(v, inc, sizeof inc);
    cli_result_free(&r);
}

static void test_divergent_work_group_function(void **state)
{
    (void)state;
    cli_result r = cli_run("collective work_group_reduce_add --type int --sg 4 --wg 8 "
                           "--input 1,2,3,4,5,6,7,8 --mask 0x7");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "reached by only some work-items"));
    cli_result_free(&r);
}

static void test_out_of_range_shuffle_note(void **state)
{
    (void)state;
    cli_result r = cli_run("collective intel_sub_group_shuffle --type uint --sg 8 "
                           "--input 10,11,12,13,14,15,16,17 --index 1,2,3,4,5,6,7,9 --check");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "note:"));
    assert_non_null(strstr(r.err, "shuffle index out of range"));
    assert_non_null(strstr(r.err, "lane 7"));
    double v[8];
    assert_int_equal(results(r.out, v, 8), 8);
    for (int i = 0; i < 7; i++)
        assert_true(v[i] == 11 + i);
    cli_result_free(&r);
    /* without --check the same shuffle is silent */
    r = cli_run("collective intel_sub_group_shuffle --type uint --sg 8 "
                "--input 10,11,12,13,14,15,16,17 --index 1,2,3,4,5,6,7,9");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "note:"));
    cli_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_scan_example),
        cmocka_unit_test(test_divergent_work_group_function),
        cmocka_unit_test(test_out_of_range_shuffle_note),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
