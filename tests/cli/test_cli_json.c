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

/* The command exits with `status` and prints JSON holding both texts. */
static void expect_json(int status, const char *want1, const char *want2, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void expect_json(int status, const char *want1, const char *want2, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_result r = cli_vrun_logged(fmt, ap);
    va_end(ap);
    assert_int_equal(r.status, status);
    assert_valid_json(r.out);
    assert_non_null(strstr(r.out, want1));
    assert_non_null(strstr(r.out, want2));
    cli_result_free(&r);
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
    /* what the kernel printed before its fault: every lane's printf runs
     * before the store whose lane 1 is past out's 4 elements */
    static const char pf[] = "kernel void pf(global int *out)\n"
                             "{\n"
                             "    uint g = get_global_id(0);\n"
                             "    printf(\"item %u\\n\", g);\n"
                             "    out[g * 4] = 1;\n"
                             "}\n";
    cli_put("pf.cl", pf, sizeof pf - 1);
    expect_json(2, "\"kernel\": \"pf\", \"line\": 5,",
                "}, \"printf\": \"item 0\\nitem 1\\nitem 2\\nitem 3\\n\"}",
                "run %s/pf.cl --global 4 --local 4 --sg 8 --arg out=int:zeros:4 --json", dir);
    /* a collective's fault: no address */
    expect_json(2, "\"error\": {\"code\": 2, \"kind\": \"kernel fault\"", "\"address\": null}",
                "collective work_group_reduce_add --type int --sg 4 --wg 8 "
                "--input 1,2,3,4,5,6,7,8 --mask 0x3 --json");
    /* replay of no trace: bad input, no kernel */
    expect_json(1, "{\"error\": {\"code\": 1, \"kind\": \"bad input\"",
                "\"kernel\": null, \"line\": null, \"work_item\": null",
                "replay %s/none.sgt --json", dir);
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

/* ---- the schema in docs/cli.md against the output ----
 * Tables: 0 run, 1 replay, 2 collective, 3 timing object, 4 error object. */
enum { T_RUN, T_REPLAY, T_COLL, T_TIMING, T_ERROR, T_COUNT };
#define MAX_KEYS 256
typedef struct keyset {
    char key[MAX_KEYS][96];
    int n;
} keyset;

static void add_key(keyset *s, const char *k)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->key[i], k))
            return;
    assert_true(s->n < MAX_KEYS);
    snprintf(s->key[s->n++], sizeof s->key[0], "%s", k);
}

static bool has_key(const keyset *s, const char *k)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->key[i], k))
            return true;
    return false;
}

/* A path of the output into the table that documents it: the timing and
 * error objects have tables of their own. */
static void file_path(keyset *seen, int table, const char *path)
{
    if (!strncmp(path, "runs[].timing.", 14)) {
        char t[128];
        snprintf(t, sizeof t, "timing.%s", path + 14);
        add_key(&seen[T_TIMING], t);
    } else if (!strncmp(path, "timing.", 7) && table == T_REPLAY) {
        add_key(&seen[T_TIMING], path);
    } else if (!strncmp(path, "error.", 6)) {
        add_key(&seen[T_ERROR], path);
    } else {
        add_key(&seen[table], path);
    }
}

/* A minimal JSON walker: every object key's path, arrays as "[]", any key
 * under "outputs" as NAME, under "compare[].values" as W.  Returns the
 * position after the value. */
static const char *walk(const char *p, const char *path, keyset *seen, int table)
{
    while (*p == ' ' || *p == '\n')
        p++;
    if (*p == '{') {
        p++;
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == ',')
                p++;
            if (*p == '}')
                return p + 1;
            assert_true(*p == '"');
            const char *e = strchr(p + 1, '"');
            assert_non_null(e);
            char sub[128];
            size_t pl = strlen(path);
            bool dyn = pl >= 7 && !strcmp(path + pl - 7, "outputs");
            /* --compare's values by width */
            bool width = pl >= 16 && !strcmp(path + pl - 16, "compare[].values");
            snprintf(sub, sizeof sub, "%s%s%.*s", path, pl ? "." : "",
                     dyn ? 4 : width ? 1 : (int)(e - p - 1),
                     dyn ? "NAME" : width ? "W" : p + 1);
            file_path(seen, table, sub);
            p = e + 1;
            while (*p == ' ' || *p == ':')
                p++;
            p = walk(p, sub, seen, table);
        }
    }
    if (*p == '[') {
        char sub[128];
        snprintf(sub, sizeof sub, "%s[]", path);
        p++;
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == ',')
                p++;
            if (*p == ']')
                return p + 1;
            p = walk(p, sub, seen, table);
        }
    }
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\')
                p++;
        return p + 1;
    }
    while (*p && !strchr(",}] \n", *p))   /* number, true, false, null */
        p++;
    return p;
}

static void walk_output(keyset *seen, int table, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void walk_output(keyset *seen, int table, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_result r = cli_vrun_logged(fmt, ap);
    va_end(ap);
    assert_valid_json(r.out);
    walk(r.out, "", seen, table);
    cli_result_free(&r);
}

/* The keys of docs/cli.md's "JSON output" tables, by table. */
static void doc_keys(keyset *doc)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/cli.md", cli_src());
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static const char *const heads[T_COUNT] = { "### run --json", "### replay --json",
        "### collective --json", "### The timing object", "### The error object" };
    char line[1024];
    int table = -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3))
            table = -1;
        for (int t = 0; t < T_COUNT; t++)
            if (!strncmp(line, heads[t], strlen(heads[t])))
                table = t;
        if (table < 0 || strncmp(line, "| `", 3))
            continue;
        const char *e = strchr(line + 3, '`');
        assert_non_null(e);
        char k[128];
        snprintf(k, sizeof k, "%.*s", (int)(e - line - 3), line + 3);
        add_key(&doc[table], k);
    }
    fclose(f);
}

/* docs/cli.md names every key the commands print, and every key it names is
 * printed by one of these runs. */
static void test_json_schema_documented(void **state)
{
    (void)state;
    static keyset seen[T_COUNT], doc[T_COUNT];
    memset(seen, 0, sizeof seen);
    memset(doc, 0, sizeof doc);
    walk_output(seen, T_RUN, "run " VADD(64) " --json --out c --record %s/s.sgt", dir);
    walk_output(seen, T_RUN, "run " VADD(128) " --json");                 /* a fault */
    walk_output(seen, T_RUN, "run " VADD(64) " --json --no-timing --check-all");
    walk_output(seen, T_RUN, "run tests/detect/buggy.cl --kernel assumes_simd16 --sg 8,16 "
                "--compare --global 32 --local 32 --arg out=int:zeros:4 "
                "--arg tile=local:4 --no-timing --json");          /* width-dependent */
    walk_output(seen, T_REPLAY, "replay %s/s.sgt --json", dir);
    walk_output(seen, T_REPLAY, "replay %s/none.sgt --json", dir);          /* an error */
    walk_output(seen, T_COLL, "collective sub_group_reduce_add --type int --sg 4 "
                "--input 1,2,3,4 --json");
    walk_output(seen, T_COLL, "collective work_group_reduce_add --type int --sg 4 --wg 8 "
                "--input 1,2,3,4,5,6,7,8 --mask 0x3 --json");                /* a fault */
    doc_keys(doc);
    static const char *const names[T_COUNT] = { "run", "replay", "collective", "timing",
                                                "error" };
    int missing = 0;
    for (int t = 0; t < T_COUNT; t++) {
        assert_true(doc[t].n > 0);
        for (int i = 0; i < seen[t].n; i++)
            if (!has_key(&doc[t], seen[t].key[i]) && ++missing)
                fprintf(stderr, "printed but not in docs/cli.md (%s table): %s\n", names[t],
                        seen[t].key[i]);
        for (int i = 0; i < doc[t].n; i++)
            if (!has_key(&seen[t], doc[t].key[i]) && ++missing)
                fprintf(stderr, "in docs/cli.md (%s table) but never printed: %s\n", names[t],
                        doc[t].key[i]);
    }
    assert_int_equal(missing, 0);
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
        cmocka_unit_test(test_json_schema_documented),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
