/* test_sweep.c - `sgemu sweep`: run-set expansion with zip/exclude/include,
 * identical results for -j 1 and -j 2, shards + merge equal to an unsharded
 * run, resume after an interruption, file:line:col errors (the compiler
 * axis's among them), plot files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/kernel_harness.h"
#include "../test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

static void write_text(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s/%s", tmpdir, dir, name);
    return file_read_all(p, NULL);
}

/* Two tiny kernels, width x L2 size x zip(l2 latency, dram latency). */
static void write_sweep(void)
{
    char text[4096];
    snprintf(text, sizeof text,
             "base: default\n"
             "kernels:\n"
             "  - file: %s/examples/vector_add.sgasm\n"
             "    global: 256\n    local: 64\n"
             "    args: {a: 'float:iota:256', b: 'float:iota:256', c: 'float:zeros:256', n: 256}\n"
             "  - name: reduce\n"
             "    file: %s/examples/local_reduce.sgasm\n"
             "    global: 512\n    local: 128\n"
             "    args: {in: 'int:iota:512', out: 'int:zeros:4', scratch: 'local:512'}\n"
             "axes:\n"
             "  width: [8, 16]\n"
             "  memory.l2.size: [16384, 65536]\n"
             "  memory.l2.latency: [20, 200]\n"
             "  memory.dram.latency: [100, 400]\n"
             "zip:\n  - [memory.l2.latency, memory.dram.latency]\n"
             "exclude:\n  - {kernel: reduce, width: 16, memory.l2.size: 65536}\n"
             "include:\n  - {kernel: reduce, width: 16, memory.l2.size: 65536, "
             "memory.l2.latency: 200, memory.dram.latency: 400}\n",
             cli_src(), cli_src());
    write_text("s.yaml", text);
}

static void run_ok(const char *fmt, const char *a, const char *b)
{
    cli_result r = cli_run(fmt, a, b);
    if (r.status)
        fprintf(stderr, "%s\n", r.err);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
}

/* The expected run set, written out by hand in run-set order. */
static const char *const expected_points[] = {
    "kernel=vector_add;width=8;memory.l2.size=16384;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=vector_add;width=8;memory.l2.size=16384;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=vector_add;width=8;memory.l2.size=65536;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=vector_add;width=8;memory.l2.size=65536;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=vector_add;width=16;memory.l2.size=16384;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=vector_add;width=16;memory.l2.size=16384;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=vector_add;width=16;memory.l2.size=65536;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=vector_add;width=16;memory.l2.size=65536;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=reduce;width=8;memory.l2.size=16384;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=reduce;width=8;memory.l2.size=16384;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=reduce;width=8;memory.l2.size=65536;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=reduce;width=8;memory.l2.size=65536;memory.l2.latency=200;memory.dram.latency=400",
    "kernel=reduce;width=16;memory.l2.size=16384;memory.l2.latency=20;memory.dram.latency=100",
    "kernel=reduce;width=16;memory.l2.size=16384;memory.l2.latency=200;memory.dram.latency=400",
    /* excluded two, included one back */
    "kernel=reduce;width=16;memory.l2.size=65536;memory.l2.latency=200;memory.dram.latency=400",
};

static void test_expansion_and_jobs(void **state)
{
    (void)state;
    write_sweep();
    char s[400], o1[400], o2[400];
    snprintf(s, sizeof s, "%s/s.yaml", tmpdir);
    snprintf(o1, sizeof o1, "%s/j1", tmpdir);
    snprintf(o2, sizeof o2, "%s/j2", tmpdir);
    run_ok("sweep %s -j 1 -q -o %s", s, o1);
    run_ok("sweep %s -j 2 -q -o %s", s, o2);
    char *c1 = read_text("j1", "results.csv"), *c2 = read_text("j2", "results.csv");
    char *j1 = read_text("j1", "results.json"), *j2 = read_text("j2", "results.json");
    assert_non_null(c1);
    assert_non_null(j1);
    assert_string_equal(c1, c2);
    assert_string_equal(j1, j2);
    /* row i: run index i and the expected point, every row ok */
    const char *line = strchr(c1, '\n') + 1;
    size_t n = 0;
    for (; *line; n++) {
        char want[300];
        snprintf(want, sizeof want, "%zu,%s,", n, expected_points[n]);
        assert_true(n < sizeof expected_points / sizeof expected_points[0]);
        assert_memory_equal(line, want, strlen(want));
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        assert_int_equal(nl[-1], ',');         /* empty error column: the run succeeded */
        line = nl + 1;
    }
    assert_int_equal(n, sizeof expected_points / sizeof expected_points[0]);
    assert_non_null(strstr(j1, "\"cycles\": "));
    free(c1);
    free(c2);
    free(j1);
    free(j2);
}

static void test_shard_merge_resume(void **state)
{
    (void)state;
    write_sweep();
    char s[400], d[4][400];
    snprintf(s, sizeof s, "%s/s.yaml", tmpdir);
    const char *names[] = { "full", "sh1", "sh2", "merged" };
    for (int i = 0; i < 4; i++)
        snprintf(d[i], sizeof d[i], "%s/%s", tmpdir, names[i]);
    run_ok("sweep %s -q -o %s", s, d[0]);
    run_ok("sweep %s -q --shard 1/2 -o %s", s, d[1]);
    run_ok("sweep %s -q --shard 2/2 -o %s", s, d[2]);
    cli_result m = cli_run("sweep merge %s %s -o %s", d[1], d[2], d[3]);
    assert_int_equal(m.status, 0);
    cli_result_free(&m);
    char *a = read_text("full", "results.csv"), *b = read_text("merged", "results.csv");
    char *ja = read_text("full", "results.json"), *jb = read_text("merged", "results.json");
    assert_non_null(b);
    assert_string_equal(a, b);
    assert_string_equal(ja, jb);
    /* resume: shard 1's folder holds half the rows, as after an interruption */
    cli_result r = cli_run("sweep %s -q --resume -o %s", s, d[1]);
    assert_int_equal(r.status, 0);
    char *c = read_text("sh1", "results.csv"), *jc = read_text("sh1", "results.json");
    assert_string_equal(a, c);
    assert_string_equal(ja, jc);
    cli_result_free(&r);
    /* resume with everything present runs nothing */
    r = cli_run("sweep %s --resume -o %s", s, d[1]);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, ", 0 to do"));
    cli_result_free(&r);
    free(a); free(b); free(c); free(ja); free(jb); free(jc);
}

/* Row i's cells from the kernel column on (run index and point key dropped),
 * up to its newline. */
static char row_buf[2][4096];
static const char *row_tail(const char *csv, int i, int buf)
{
    const char *l = strchr(csv, '\n');          /* skip the header */
    for (int k = 0; l && k < i; k++)
        l = strchr(l + 1, '\n');
    assert_non_null(l);
    l = strchr(l + 1, ',');
    assert_non_null(l);
    l = strchr(l + 1, ',');
    assert_non_null(l);
    size_t n = strcspn(l + 1, "\n");
    assert_true(n < sizeof row_buf[0]);
    memcpy(row_buf[buf], l + 1, n);
    row_buf[buf][n] = 0;
    return row_buf[buf];
}

/* A group of points sharing one functional run (recorded once, every point
 * replayed) gives the rows that separate full runs of each point give. */
static void test_shared_group_equals_full_runs(void **state)
{
    (void)state;
    static const char *const lat[] = { "20", "400" };
    char text[2048], s[400], d[400];
    const char *kern = "base: default\nkernels:\n  - file: %s/examples/vector_add.sgasm\n"
                       "    global: 4096\n    local: 128\n"
                       "    args: { a: 'float:iota:4096', b: 'float:random:4096:1', "
                       "c: 'float:zeros:4096', n: 4096 }\n"
                       "axes:\n  memory.l2.latency: [%s]\n";
    snprintf(text, sizeof text, kern, cli_src(), "20, 400");
    write_text("group.yaml", text);
    snprintf(s, sizeof s, "%s/group.yaml", tmpdir);
    snprintf(d, sizeof d, "%s/group", tmpdir);
    run_ok("sweep %s -q -o %s", s, d);
    char *g = read_text("group", "results.csv");
    assert_non_null(g);
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(text, sizeof text, kern, cli_src(), lat[i]);
        snprintf(name, sizeof name, "single%d.yaml", i);
        write_text(name, text);
        snprintf(s, sizeof s, "%s/%s", tmpdir, name);
        snprintf(d, sizeof d, "%s/single%d", tmpdir, i);
        run_ok("sweep %s -q -o %s", s, d);
        snprintf(name, sizeof name, "single%d", i);
        char *one = read_text(name, "results.csv");
        assert_non_null(one);
        assert_string_equal(row_tail(g, i, 0), row_tail(one, 0, 1));
        free(one);
    }
    /* the latency matters, so the two rows are not trivially equal */
    assert_true(strcmp(row_tail(g, 0, 0), row_tail(g, 1, 1)) != 0);
    free(g);
}

/* Without a width axis: one table per kernel over all its points, rows named
 * by their axis values, and a verdict line. */
static void test_table_without_width(void **state)
{
    (void)state;
    char text[1024], s[400], d[400];
    snprintf(text, sizeof text,
             "base: default\nkernels:\n  - file: %s/examples/vector_add.sgasm\n"
             "    global: 1024\n    local: 128\n"
             "    args: { a: 'float:iota:1024', b: 'float:iota:1024', c: 'float:zeros:1024', "
             "n: 1024 }\naxes:\n  memory.l2.latency: [20, 400]\n"
             "  memory.dram.latency: [100, 900]\n", cli_src());
    write_text("nowidth.yaml", text);
    snprintf(s, sizeof s, "%s/nowidth.yaml", tmpdir);
    snprintf(d, sizeof d, "%s/nowidth", tmpdir);
    cli_result r = cli_run("sweep %s -o %s", s, d);
    assert_int_equal(r.status, 0);
    const char *t = strstr(r.out, "== vector_add ==\n");
    assert_non_null(t);
    assert_null(strstr(t + 1, "== vector_add"));           /* one table */
    assert_non_null(strstr(t, "memory.l2.latency/memory.dram.latency"));
    static const char *const pts[] = { "\n  20/100 ", "\n  20/900 ", "\n  400/100 ",
                                       "\n  400/900 " };
    for (int i = 0; i < 4; i++)
        assert_non_null(strstr(t, pts[i]));
    assert_non_null(strstr(t, "verdict: "));
    cli_result_free(&r);
}

static void expect_error(const char *text, const char *where)
{
    write_text("bad.yaml", text);
    cli_result r = cli_run("sweep %s/bad.yaml -q -o %s/bad", tmpdir, tmpdir);
    if (r.status != 1 || !strstr(r.err, where))
        fprintf(stderr, "want '%s' in:\n%s\n", where, r.err);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, where));
    cli_result_free(&r);
}

static void test_errors_with_positions(void **state)
{
    (void)state;
    char k[1024];
    snprintf(k, sizeof k, "kernels:\n  - file: %s/examples/vector_add.sgasm\n"
             "    global: 64\n    args: {a: 'float:zeros:64', b: 'float:zeros:64', "
             "c: 'float:zeros:64', n: 64}\n", cli_src());
    char t[2048];
    snprintf(t, sizeof t, "%saxes:\n  memory.l2.sise: [1, 2]\n", k);
    expect_error(t, "bad.yaml:6:3: error: unknown axis 'memory.l2.sise'");
    snprintf(t, sizeof t, "%saxes:\n  width: [8, 99]\n", k);
    expect_error(t, "bad.yaml:6:14: error: width: expected 1..64");
    snprintf(t, sizeof t, "%saxes:\n  memory.l2.size: [1024, big]\n", k);
    expect_error(t, "bad.yaml:6:26: error: memory.l2.size");
    snprintf(t, sizeof t, "%saxes:\n  width: [8]\n  global: [64, 128, 256]\nzip:\n  - [width, global]\n", k);
    expect_error(t, "bad.yaml:9:13: error: zip: axis 'global' has 3 values");
    snprintf(t, sizeof t, "%saxes:\n  width: [8]\nexclude:\n  - {width: 16}\n", k);
    expect_error(t, "bad.yaml:8:13: error: exclude: '16' is not a value of axis 'width'");
    snprintf(t, sizeof t, "%saxes: [\n", k);
    expect_error(t, "bad.yaml:6:");
    expect_error("kernels:\n  - file: nowhere.sgasm\n    global: 64\n", "bad.yaml:2:11: error: cannot load");
    expect_error("base: no-such-config\nkernels: []\n", "bad.yaml:1:7:");
    expect_error("base: nvidia-h10\nkernels: []\n",
                 "bad.yaml:1:7: error: cannot load base config 'nvidia-h10' (did you mean "
                 "the bundled 'nvidia-h100'?)");
    snprintf(t, sizeof t, "%sfoo: 1\n", k);
    expect_error(t, "bad.yaml:5:1: error: unknown key 'foo'");
    /* the compiler axis (clang compiles the .cl file; ocloc is not needed) */
    char cl[512];
    snprintf(cl, sizeof cl, "kernels:\n  - file: %s/tests/gen/kernels/block_refused.cl\n"
             "    global: 64\n", cli_src());
    snprintf(t, sizeof t, "%saxes:\n  compiler: [sgemu, gcc]\n", cl);
    expect_error(t, "bad.yaml:5:21: error: compiler: expected sgemu or igc, got 'gcc'");
    snprintf(t, sizeof t, "%saxes:\n  compiler: [igc]\n", k);
    expect_error(t, "bad.yaml:6:3: error: axis 'compiler': no kernel is OpenCL C");
    snprintf(t, sizeof t, "base: nvidia-h100\n%saxes:\n  compiler: [sgemu, igc]\n", cl);
    expect_error(t, "bad.yaml:6:21: error: compiler: igc needs an Intel config; base "
                    "'nvidia-h100' names no device.ocloc_target");
}

static void test_plots(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        skip();                         /* reported as skipped: gnuplot-nox not installed */
    write_sweep();
    char s[400], o[400];
    snprintf(s, sizeof s, "%s/s.yaml", tmpdir);
    snprintf(o, sizeof o, "%s/plot", tmpdir);
    run_ok("sweep %s -q --plot -o %s", s, o);
    const char *files[] = { "plot.gp", "width-vector_add.dat", "width-vector_add.png",
                            "width-vector_add.svg", "width-reduce.png", "width-reduce.svg",
                            "axis-memory_l2_size.png", "axis-memory_l2_size.svg",
                            "axis-memory_l2_latency.svg" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[600];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", o, files[i]);
        if (stat(p, &st) != 0)
            fprintf(stderr, "missing %s\n", p);
        assert_int_equal(stat(p, &st), 0);
        assert_true(st.st_size > 100);
    }
    char *png = read_text("plot", "width-reduce.png");
    assert_memory_equal(png, "\x89PNG", 4);
    free(png);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("sweep");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expansion_and_jobs),
        cmocka_unit_test(test_shard_merge_resume),
        cmocka_unit_test(test_shared_group_equals_full_runs),
        cmocka_unit_test(test_table_without_width),
        cmocka_unit_test(test_errors_with_positions),
        cmocka_unit_test(test_plots),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
