/* test_sweep_igc.c - the sweep's compiler axis (docs/sweeps.md, "sgemu and
 * IGC side by side"): per width a row of sgemu's code and one of IGC's,
 * IGC's facts in the results, a width IGC refuses as a row with its reason
 * while the other points run, and the axis ignored by kernels that are not
 * OpenCL C (its errors: test_sweep.c).  Skips (77) when ocloc or
 * libiga64.so.1 is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/kernel_harness.h"
#include "../gen/gen_skip.h"
#include "../test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_text_file(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return test_slurp(p, NULL);
}

static void write_text(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", cli_tmpdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Cell `col` (a header name) of the results.csv line whose point is `key`;
 * the cells before `error` hold no commas.  NULL when absent. */
static const char *cell(const char *csv, const char *key, const char *col, char *out, size_t n)
{
    const char *h = csv, *he = strchr(csv, '\n');
    int idx = 0;
    for (const char *p = h; p < he; p++) {
        if (!strncmp(p, col, strlen(col)) && (p == h || p[-1] == ',') &&
            (p[strlen(col)] == ',' || p + strlen(col) == he))
            break;
        idx += *p == ',';
        if (p + 1 == he)
            return NULL;
    }
    char want[256];
    snprintf(want, sizeof want, ",%s,", key);
    const char *line = strstr(csv, want);
    if (!line)
        return NULL;
    while (line > csv && line[-1] != '\n')
        line--;
    for (int i = 0; i < idx; i++) {
        line = strchr(line, ',');
        if (!line)
            return NULL;
        line++;
    }
    size_t len = strcspn(line, ",\n");
    snprintf(out, n, "%.*s", (int)len, line);
    return out;
}

static unsigned long long num(const char *csv, const char *key, const char *col)
{
    char v[256];
    if (!cell(csv, key, col, v, sizeof v))
        fail_msg("no cell %s of %s", col, key);
    return strtoull(v, NULL, 10);
}

/* The number after `"KEY": ` in text from p on. */
static long long json_num(const char *p, const char *key)
{
    char want[64];
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *q = strstr(p, want);
    assert_non_null(q);
    return strtoll(q + strlen(want), NULL, 10);
}

static void test_compiler_axis(void **state)
{
    (void)state;
    char text[2048], s[300], d[300];
    snprintf(text, sizeof text,
             "base: intel-xe-lp\n"
             "kernels:\n"
             "  - file: %s/tests/gen/kernels/block_refused.cl\n"
             "    global: 64\n    local: 32\n"
             "    args: { in: 'uint:iota:64', out: 'uint:zeros:64' }\n"
             "  - file: %s/examples/vector_add.sgasm\n"
             "    global: 64\n    local: 32\n"
             "    args: { a: 'float:iota:64', b: 'float:iota:64', c: 'float:zeros:64', n: 64 }\n"
             "axes:\n  width: [16, 32]\n  compiler: [sgemu, igc]\n",
             cli_src(), cli_src());
    write_text("igc.yaml", text);
    snprintf(s, sizeof s, "%s/igc.yaml", cli_tmpdir);
    snprintf(d, sizeof d, "%s/igc", cli_tmpdir);
    cli_result r = cli_run("sweep %s -j 2 -o %s", s, d);
    if (r.status)
        fprintf(stderr, "%s\n", r.err);
    assert_int_equal(r.status, 0);            /* a refusal is a result, not a failure */
    char *csv = read_text_file(d, "results.csv");
    assert_non_null(csv);
    assert_non_null(strstr(csv, ",width,compiler,status,"));
    assert_non_null(strstr(csv, ",igc_simd,igc_instructions,igc_sends,igc_grf,"
                                "igc_scratch_bytes,igc_refused,error\n"));
    /* 4 points of the .cl kernel, 2 of the .sgasm one (the axis does not apply) */
    int lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 4 + 2);
    assert_non_null(strstr(csv, ",kernel=vector_add;width=16,vector_add,16,,0,"));
    assert_null(strstr(csv, "kernel=vector_add;width=16;compiler"));

    const char *s16 = "kernel=block_refused;width=16;compiler=sgemu";
    const char *i16 = "kernel=block_refused;width=16;compiler=igc";
    const char *s32 = "kernel=block_refused;width=32;compiler=sgemu";
    const char *i32 = "kernel=block_refused;width=32;compiler=igc";
    for (int i = 0; i < 3; i++) {
        const char *k = i == 0 ? s16 : i == 1 ? i16 : s32;
        assert_int_equal(num(csv, k, "status"), 0);
        assert_true(num(csv, k, "cycles") > 0);
        assert_int_equal(num(csv, k, "igc_refused"), 0);
    }
    /* sgemu's rows carry no IGC facts; IGC's carry the width it compiled */
    assert_int_equal(num(csv, s16, "igc_simd"), 0);
    assert_int_equal(num(csv, s32, "igc_instructions"), 0);
    assert_int_equal(num(csv, i16, "igc_simd"), 16);
    unsigned long long grf = num(csv, i16, "igc_grf");
    assert_true(grf == 128 || grf == 256);
    assert_int_equal(num(csv, i16, "large_grf"), grf == 256);
    /* the refusal: a row with IGC's reason and no statistics */
    assert_int_equal(num(csv, i32, "status"), 1);
    assert_int_equal(num(csv, i32, "igc_refused"), 1);
    assert_int_equal(num(csv, i32, "cycles"), 0);
    const char *ref = strstr(csv, i32);
    assert_non_null(ref);
    assert_non_null(strstr(ref, ",IGC refused SIMD32: error: "));

    /* IGC's facts and cycles are those of the same kernel and width run
     * alone (sgemu run --compiler igc --json) */
    cli_result one = cli_run("run tests/gen/kernels/block_refused.cl --compiler igc "
                             "--config configs/intel-xe-lp.yaml --sg 16 --global 64 --local 32 "
                             "--arg in=uint:iota:64 --arg out=uint:zeros:64 --json");
    assert_int_equal(one.status, 0);
    const char *ig = strstr(one.out, "\"igc\": {");
    assert_non_null(ig);
    assert_int_equal(json_num(ig, "instructions"), num(csv, i16, "igc_instructions"));
    assert_int_equal(json_num(ig, "sends"), num(csv, i16, "igc_sends"));
    assert_int_equal(json_num(ig, "grf_count"), grf);
    assert_int_equal(json_num(ig, "scratch_bytes"), num(csv, i16, "igc_scratch_bytes"));
    const char *tm = strstr(one.out, "\"timing\": {");
    assert_non_null(tm);
    assert_int_equal(json_num(tm, "cycles"), num(csv, i16, "cycles"));
    cli_result_free(&one);

    /* the table: per width sgemu's row then IGC's, the refusal as a row,
     * a verdict per compiler */
    const char *t = strstr(r.out, "== block_refused ==\n");
    assert_non_null(t);
    const char *a = strstr(t, "\n  SIMD16 sgemu "), *b = strstr(t, "\n  SIMD16 IGC "),
               *c = strstr(t, "\n  SIMD32 sgemu "), *e = strstr(t, "\n  SIMD32 IGC ");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(e);
    assert_true(a < b && b < c && c < e);
    assert_non_null(strstr(t, "  IGC code\n"));      /* the column of IGC's facts */
    char facts[96];
    snprintf(facts, sizeof facts, "  %llu inst, %llu sends, ", num(csv, i16, "igc_instructions"),
             num(csv, i16, "igc_sends"));
    const char *f = strstr(b, facts), *why = strstr(e, "IGC refused SIMD32: error: ");
    assert_non_null(f);
    assert_true(f < c);                                /* on IGC's SIMD16 row */
    char igc_cols[64];    /* no regs before/after on IGC's row: its register file */
    snprintf(igc_cols, sizeof igc_cols, " - %6llu ", num(csv, i16, "igc_grf"));
    const char *g = strstr(b, igc_cols);
    assert_true(g && g < f);
    assert_non_null(why);
    assert_true(why < e + 1 + strcspn(e + 1, "\n"));   /* on the refused row's line */
    assert_non_null(strstr(t, "verdict (sgemu): "));
    assert_non_null(
        strstr(t, "verdict (IGC): SIMD16 IGC (the only point that ran; 1 refused by IGC)\n"));
    assert_non_null(strstr(r.out, "== vector_add ==\n  width "));

    char *json = read_text_file(d, "results.json");
    assert_non_null(json);
    assert_non_null(strstr(json, "\"compiler\": \"igc\", \"status\": 1,"));
    assert_non_null(strstr(json, "\"igc_refused\": 1, \"error\": \"IGC refused SIMD32: "));
    free(json);
    free(csv);
    cli_result_free(&r);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("sweep-igc");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    if (!gen_tests_can_run())
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiler_axis),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
