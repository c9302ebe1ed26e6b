/* test_gen_cli.c - `sgemu run K.cl --compiler igc` (docs/gen.md): outputs,
 * IGC's summary line per width, the widths IGC is asked for, and the
 * errors.  Skips (77) when ocloc or libiga64.so.1 is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../cli/cli_harness.h"
#include "gen_skip.h"
#include "../test_file.h"

#define XE_LP "--config configs/intel-xe-lp.yaml"

static void vadd_outputs(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/gen/kernels/vadd.cl --compiler igc " XE_LP
                           " -DWIDTH=16 --global 50 --local 25 --arg a=float:iota:50"
                           " --arg b=float:iota:50 --arg c=float:zeros:50 --out c");
    assert_int_equal(r.status, 0);
    double v[64];
    assert_int_equal(cli_numbers(r.out, v, 64), 50);
    for (int i = 0; i < 50; i++)
        assert_true(v[i] == 2.0 * i);
    assert_non_null(strstr(r.err, "SIMD16"));
    assert_non_null(strstr(r.err, "IGC code     SIMD16,"));
    cli_result_free(&r);
}

/* --sg asks IGC for each width; the kernel sees it as its sub-group size */
static void widths(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/gen/kernels/scale.cl --compiler igc " XE_LP
                           " --sg 8,16,32 --global 40 --local 40 --arg x=int:iota:40"
                           " --arg k=3 --out x --json");
    assert_int_equal(r.status, 0);
    const unsigned w[3] = { 8, 16, 32 };
    const char *p = r.out;
    for (int i = 0; i < 3; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"igc\": {\"simd\": %u,", w[i]);
        p = strstr(p, want);
        assert_non_null(p);
        /* the run's outputs follow its summary: x[j] = 3j + width */
        const char *o = strstr(p, "\"x\": [");
        assert_non_null(o);
        double v[40];
        assert_int_equal(cli_numbers(o + 6, v, 40), 40);
        for (int j = 0; j < 40; j++)
            assert_true(v[j] == 3.0 * j + w[i]);
    }
    cli_result_free(&r);
}

/* A width study on the Gen path: each width timed, IGC's row labels, and
 * the width IGC refuses as a row with IGC's reason (not an error). */
static void study_rows(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/gen/kernels/block_refused.cl --compiler igc " XE_LP
                           " --sg 16,32 --global 64 --local 32 --arg in=uint:iota:64"
                           " --arg out=uint:zeros:64 --out out");
    assert_int_equal(r.status, 0);
    double v[64];                    /* SIMD16 ran: out[i] = 3i; SIMD32 printed nothing */
    const char *o16 = strstr(r.out, "# out sg=16\n");
    assert_non_null(o16);
    assert_int_equal(cli_numbers(o16 + 12, v, 64), 64);
    for (int i = 0; i < 64; i++)
        assert_true(v[i] == 3.0 * i);
    assert_non_null(strstr(r.err, "timing (Intel Xe-LP"));
    assert_non_null(strstr(r.err, "widths compared"));
    assert_non_null(strstr(r.err, "IGC SIMD16 ("));
    const char *row = strstr(r.err, "IGC SIMD32 ");
    assert_non_null(row);
    assert_non_null(strstr(row, "failed: IGC refused: "));
    assert_non_null(strstr(row, "SIMD32"));
    cli_result_free(&r);
    r = cli_run("run tests/gen/kernels/block_refused.cl --compiler igc " XE_LP
                " --sg 16,32 --global 64 --local 32 --arg in=uint:iota:64"
                " --arg out=uint:zeros:64 --json");
    assert_int_equal(r.status, 0);
    const char *t = strstr(r.out, "\"timing\": {\"cycles\": ");
    assert_non_null(t);
    assert_true(strtoll(t + 21, NULL, 10) > 0);
    const char *ref = strstr(r.out, "{\"sg_width\": 32, \"igc_refused\": \"");
    assert_non_null(ref);
    assert_non_null(strstr(ref, "SIMD32"));
    cli_result_free(&r);
}

/* A refused width first in --sg is a row too: the widths after it run. */
static void refused_first(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/gen/kernels/block_refused.cl --compiler igc " XE_LP
                           " --sg 32,16 --global 64 --local 32 --arg in=uint:iota:64"
                           " --arg out=uint:zeros:64 --out out --json");
    assert_int_equal(r.status, 0);
    const char *ref = strstr(r.out, "\"runs\": [{\"sg_width\": 32, \"igc_refused\": \"");
    assert_non_null(ref);
    const char *run = strstr(ref, "}, {");
    assert_non_null(run);
    assert_non_null(strstr(run, "\"igc\": {\"simd\": 16,"));
    const char *o = strstr(run, "\"out\": [");
    assert_non_null(o);
    double v[64];
    assert_int_equal(cli_numbers(o + 8, v, 64), 64);
    for (int i = 0; i < 64; i++)
        assert_true(v[i] == 3.0 * i);
    cli_result_free(&r);
}

/* --per-line and --trace name each instruction as IGA prints it: the
 * per-line table's op column and the trace's instruction events hold the
 * same text, Gen mnemonics with their execution size and channel offset. */
static void per_line_and_trace(void **state)
{
    (void)state;
    char trace[128];
    snprintf(trace, sizeof trace, "/tmp/sgemu-gen-cli-trace-%d.json", (int)getpid());
    cli_result r = cli_run("run tests/gen/kernels/scale.cl --compiler igc " XE_LP
                           " --sg 16 --global 32 --local 32 --arg x=int:iota:32 --arg k=3"
                           " --per-line --trace %s", trace);
    assert_int_equal(r.status, 0);
    const char *t = strstr(r.err, "per instruction:");
    assert_non_null(t);
    size_t len = 0;
    char *json = file_read_all(trace, &len);
    remove(trace);
    assert_non_null(json);
    /* each send row of the table: its op text (after line, pc, count, lanes,
     * cycles and stalls) is the name of a trace event */
    int sends = 0;
    for (const char *l = strchr(t, '\n'); l && l[1] == ' '; l = strchr(l + 1, '\n')) {
        const char *p = l + 1;
        for (int f = 0; f < 6; f++) {
            p += strspn(p, " ");
            p += strcspn(p, " \n");
        }
        p += strspn(p, " ");
        size_t n = strcspn(p, "\n");
        const char *send = strstr(p, "send.");
        if (!send || send > p + n)
            continue;
        assert_true(p == send || !strncmp(p, "(W) send.", 9));
        assert_non_null(strstr(send, "|M0) "));
        char name[512];
        snprintf(name, sizeof name, "\"name\": \"%.*s\"", (int)n, p);
        assert_non_null(strstr(json, name));
        sends++;
    }
    assert_true(sends >= 3);       /* load, store, end of thread */
    assert_non_null(strstr(t, "{EOT"));
    free(json);
    cli_result_free(&r);
}

static void errors(void **state)
{
    (void)state;
    cli_result r = cli_run("run tests/gen/kernels/scale.cl --compiler igc --global 8"
                           " --config configs/nvidia-h100.yaml --arg x=int:iota:8 --arg k=1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "names no Intel target (device.ocloc_target)"));
    cli_result_free(&r);
    r = cli_run("run tests/gen/kernels/scale.cl --compiler nvcc " XE_LP " --global 8");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--compiler: expected sgemu or igc"));
    cli_result_free(&r);
    r = cli_run("run tests/gen/kernels/scale.cl --compiler igc --record /dev/null " XE_LP
                " --global 8");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--record is not available"));
    cli_result_free(&r);
    /* the check and the detectors follow sgemu's own ISA: refused, never
     * silently off (before, --races reported 0 accesses checked) */
    const char *const detectors[] = { "--check", "--races", "--uninitialized", "--check-all" };
    for (int i = 0; i < 4; i++) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "run tests/gen/kernels/scale.cl --compiler igc %s " XE_LP
                 " --global 8 --arg x=int:iota:8 --arg k=1", detectors[i]);
        r = cli_run(cmd);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "not available for IGC's code"));
        cli_result_free(&r);
    }
    /* IGC's reason when it refuses: double on Xe-LP */
    r = cli_run("run tests/gen/kernels/fp64.cl --compiler igc " XE_LP
                " --global 8 --arg x=double:zeros:8");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "ocloc refused"));
    assert_non_null(strstr(r.err, "double"));
    cli_result_free(&r);
}

/* printf: IGC's records decoded after the launch, in the order its code
 * wrote them: by sub-group (hardware thread), then call, then lane.  The
 * expected lines come from the host C library on the same values (a
 * float arrives as a double on devices with doubles, as a float on Xe-LP:
 * the values are exact in both). */
static void printf_records(const char *config, uint32_t items, uint32_t width)
{
    enum { N = 24 };
    int x[N];
    float fv[N];
    long long l[N];
    char iv_arg[512], fv_arg[512], lv_arg[1024];
    size_t ni = 0, nf = 0, nl = 0;
    for (uint32_t i = 0; i < items; i++) {
        x[i] = (int)i * 37 - 100;
        fv[i] = (float)i * 1.25f - 3.5f;
        l[i] = ((long long)i - 5) * 123456789012LL;
        ni += (size_t)snprintf(iv_arg + ni, sizeof iv_arg - ni, "%s%d", i ? "," : "", x[i]);
        nf += (size_t)snprintf(fv_arg + nf, sizeof fv_arg - nf, "%s%g", i ? "," : "",
                               (double)fv[i]);
        nl += (size_t)snprintf(lv_arg + nl, sizeof lv_arg - nl, "%s%lld", i ? "," : "", l[i]);
    }
    char want[8192];
    size_t n = 0;
    for (uint32_t t0 = 0; t0 < items; t0 += width) {
        const uint32_t t1 = t0 + width < items ? t0 + width : items;
        for (uint32_t i = t0; i < t1; i++)
            n += (size_t)snprintf(want + n, sizeof want - n,
                                  "i=%d [%5x] %+.3f %e l=%lld %llx %c %s [%*d]\n", x[i],
                                  (unsigned)x[i], (double)fv[i], (double)fv[i], l[i],
                                  (unsigned long long)l[i], 'A' + (int)i, "str", 4, x[i]);
        for (uint32_t i = t0; i < t1; i++)
            n += (size_t)snprintf(want + n, sizeof want - n,
                                  "%d,%d,%d,%d|%f,%f|%u,%u,%u|%%\n", x[i], x[i] + 1, -x[i], 7,
                                  (double)fv[i], -(double)fv[i], (unsigned char)x[i],
                                  (unsigned char)(x[i] + 1), (unsigned char)-x[i]);
    }
    assert_true(items <= N && n < sizeof want);
    cli_result r = cli_run("run tests/gen/kernels/printf.cl --compiler igc %s --sg %u "
                           "--global %u --local %u --arg iv=int:[%s] --arg fv=float:[%s] "
                           "--arg lv=long:[%s] -q", config, width, items, items, iv_arg,
                           fv_arg, lv_arg);
    assert_int_equal(r.status, 0);
    if (strcmp(r.out, want))
        fprintf(stderr, "got\n%s\nwanted\n%s\n", r.out, want);
    assert_string_equal(r.out, want);
    cli_result_free(&r);
}

static void printf_xe_lp(void **state)
{
    (void)state;
    printf_records(XE_LP, 20, 16);
}

static void printf_gen9(void **state)
{
    (void)state;
    printf_records("--config configs/intel-gen9-gt2.yaml", 12, 8);
}

int main(void)
{
    if (!gen_tests_can_run())
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vadd_outputs),
        cmocka_unit_test(widths),
        cmocka_unit_test(study_rows),
        cmocka_unit_test(refused_first),
        cmocka_unit_test(per_line_and_trace),
        cmocka_unit_test(errors),
        cmocka_unit_test(printf_xe_lp),
        cmocka_unit_test(printf_gen9),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
