/* test_cli_json.c - the --json outputs of run, replay and collective: the
 * failed run as data, host time and simulation rate, and the key-by-key
 * schema in docs/cli.md checked against what the commands print. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *const dir = cli_tmpdir;

#define VADD(n) "examples/vector_add.sgasm --arg a=float:iota:64 --arg b=float:iota:64 " \
                "--arg c=float:zeros:64 --global " #n " --arg n=" #n

/* Python's json module as an independent check that the text is JSON. */
static void assert_valid_json(const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/check.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s", p);
    assert_int_equal(system(cmd), 0);
}

/* A kernel fault under --json: the error as an object with its parts (it
 * printed "runs": [] and nothing else). */
static void test_fault_in_json(void **state)
{
    (void)state;
    cli_result r = cli_run("run " VADD(128) " --json");
    assert_int_equal(r.status, 2);
    assert_valid_json(r.out);
    assert_non_null(strstr(r.out, "\"runs\": [], \"error\": {\"code\": 2, \"kind\": "
                                  "\"kernel fault\", \"message\": \"out-of-bounds global load "
                                  "of 4 bytes at address 0x10000000100 (buffer 'a'"));
    /* one work-group of 128 (the default local size), SIMD16: work-item 64
     * is sub-group 4's lane 0 */
    assert_non_null(strstr(r.out, "\"kernel\": \"vector_add\", \"line\": 14, \"work_item\": "
                                  "{\"group\": [0, 0, 0], \"subgroup\": 4, \"lane\": 0, "
                                  "\"global\": [64, 0, 0], \"local\": [64, 0, 0]}, "
                                  "\"address\": \"0x10000000100\"}"));
    cli_result_free(&r);
    /* a collective's fault: no address */
    r = cli_run("collective work_group_reduce_add --type int --sg 4 --wg 8 "
                "--input 1,2,3,4,5,6,7,8 --mask 0x3 --json");
    assert_int_equal(r.status, 2);
    assert_valid_json(r.out);
    assert_non_null(strstr(r.out, "\"error\": {\"code\": 2, \"kind\": \"kernel fault\""));
    assert_non_null(strstr(r.out, "\"address\": null}"));
    cli_result_free(&r);
    /* replay of no trace: bad input, no kernel */
    r = cli_run("replay %s/none.sgt --json", dir);
    assert_int_equal(r.status, 1);
    assert_valid_json(r.out);
    assert_non_null(strstr(r.out, "{\"error\": {\"code\": 1, \"kind\": \"bad input\""));
    assert_non_null(strstr(r.out, "\"kernel\": null, \"line\": null, \"work_item\": null"));
    cli_result_free(&r);
}

/* The number after "KEY": in text (the first occurrence), or -1. */
static double json_number(const char *text, const char *key)
{
    char k[80];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = strstr(text, k);
    return p ? strtod(p + strlen(k), NULL) : -1;
}

/* Host time of the run: wall and CPU seconds and the simulation rate, in
 * the summary and in --json, for run and replay (GPGPU-Sim prints its own). */
static void test_host_time(void **state)
{
    (void)state;
    cli_result r = cli_run("run examples/vector_add.sgasm --global 65536 "
                           "--arg a=float:iota:65536 --arg b=float:iota:65536 "
                           "--arg c=float:zeros:65536 --arg n=65536 --json --record %s/h.sgt",
                           dir);
    assert_int_equal(r.status, 0);
    assert_valid_json(r.out);
    const double wall = json_number(r.out, "host_wall_s"), cpu = json_number(r.out, "host_cpu_s");
    const double rate = json_number(r.out, "sim_rate");
    const double insts = json_number(r.out, "instructions");
    assert_true(wall > 0 && wall < 60);
    assert_true(cpu > 0 && cpu < 60);
    assert_true(insts == 32768);            /* 65536 items / 16 lanes x 8 instructions */
    /* the rate is instructions per wall second (printed to 6 decimals) */
    assert_true(rate > 0);
    assert_true(rate * wall > insts * 0.99 && rate * wall < insts * 1.01);
    cli_result_free(&r);
    r = cli_run("replay %s/h.sgt --json", dir);
    assert_int_equal(r.status, 0);
    assert_valid_json(r.out);
    assert_true(json_number(r.out, "host_wall_s") > 0);
    assert_true(json_number(r.out, "host_cpu_s") >= 0);
    assert_true(json_number(r.out, "sim_rate") > 0);
    cli_result_free(&r);
    r = cli_run("run " VADD(64));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "  host time    "));
    assert_non_null(strstr(r.err, " s wall, "));
    assert_non_null(strstr(r.err, "subgroup instructions/s (simulation rate)"));
    cli_result_free(&r);
    r = cli_run("replay %s/h.sgt", dir);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "  host time    "));
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("json");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_in_json),
        cmocka_unit_test(test_host_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
