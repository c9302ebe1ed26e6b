/* test_detect.c - `sgemu run --races --uninitialized` on the known-buggy
 * kernels of buggy.cl (each with the exact report expected, written here
 * from the kernel's source: which work-item touches which element), on
 * the correct kernels of correct.cl (no report), and the same launches
 * with the detectors off and on (outputs, statistics and cycles equal). */
#include "../cli/cli_harness.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* 16 work-items in one work-group, two sub-groups of 8 */
#define LAUNCH1 "--global 16 --local 16 --sg 8 --arg out=int:zeros:16"
#define LAUNCH LAUNCH1 " -g -q"
/* two such work-groups, out twice their size */
#define LAUNCH2 "--global 32 --local 16 --sg 8 --arg out=int:zeros:64"

/* stderr with the source root (the path clang writes into the line
 * table) cut from the front of each file name */
static char *reports(const cli_result *r)
{
    const char *root = cli_src();
    const size_t rl = strlen(root);
    char *s = strdup(r->err);
    assert_non_null(s);
    char *w = s;
    for (const char *p = r->err; *p;) {
        if ((p == r->err || p[-1] == '\n') && !strncmp(p, root, rl) && p[rl] == '/')
            p += rl + 1;
        *w++ = *p++;
    }
    *w = 0;
    return s;
}

/* The reports of `kernel` under `launch` (the NDRange and out) */
static void expect_reports_at(const char *file, const char *kernel, const char *launch,
                              const char *local_arg, const char *want)
{
    cli_result r = cli_run("run tests/detect/%s --kernel %s %s -g -q --no-timing "
                           "--races --uninitialized --arg %s=local:64",
                           file, kernel, launch, local_arg);
    assert_int_equal(r.status, 0);
    char *got = reports(&r);
    if (strcmp(got, want))
        fprintf(stderr, "kernel %s: got\n%s\nwanted\n%s\n", kernel, got, want);
    assert_string_equal(got, want);
    free(got);
    cli_result_free(&r);
}

static void expect_reports(const char *file, const char *kernel, const char *local_arg,
                           const char *want)
{
    expect_reports_at(file, kernel, LAUNCH1, local_arg, want);
}

static char *without_detectors(const char *json);

#define ITEM(x, sg, lane) "work-item local (" #x ",0,0) global (" #x ",0,0) sub-group " \
    #sg " lane " #lane

static void test_missing_barrier(void **state)
{
    (void)state;
    /* lane 0 loads tile[1], which lane 1 stored: same sub-group; lane 7
     * loads tile[8] before sub-group 1 ran (unwritten), which sub-group
     * 1's lane 0 then stores; item 15 loads tile[0], item 0's store */
    expect_reports("buggy.cl", "missing_barrier", "tile",
        "tests/detect/buggy.cl:13: error: kernel 'missing_barrier': lockstep assumption on "
        "local memory: load at local address 0x4 (argument 'tile', offset 4) by " ITEM(0, 0, 0) "\n"
        "tests/detect/buggy.cl:11: note: conflicts with the store by " ITEM(1, 0, 1)
        ", in the same sub-group, no sub_group_barrier between\n"
        "tests/detect/buggy.cl:13: error: kernel 'missing_barrier': uninitialised local memory: "
        "load at local address 0x20 (argument 'tile', offset 32) by " ITEM(7, 0, 7)
        " reads a byte no work-item of its work-group wrote\n"
        "tests/detect/buggy.cl:11: error: kernel 'missing_barrier': data race on local memory: "
        "store at local address 0x20 (argument 'tile', offset 32) by " ITEM(8, 1, 0) "\n"
        "tests/detect/buggy.cl:13: note: conflicts with the load by " ITEM(7, 0, 7)
        ", in another sub-group, no work-group barrier between\n"
        "tests/detect/buggy.cl:13: error: kernel 'missing_barrier': data race on local memory: "
        "load at local address 0x0 (argument 'tile', offset 0) by " ITEM(15, 1, 7) "\n"
        "tests/detect/buggy.cl:11: note: conflicts with the store by " ITEM(0, 0, 0)
        ", in another sub-group, no work-group barrier between\n");
}

static void test_sg_neighbour(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "sg_neighbour", "tile",
        "tests/detect/buggy.cl:23: error: kernel 'sg_neighbour': lockstep assumption on "
        "local memory: load at local address 0x4 (argument 'tile', offset 4) by " ITEM(0, 0, 0) "\n"
        "tests/detect/buggy.cl:22: note: conflicts with the store by " ITEM(1, 0, 1)
        ", in the same sub-group, no sub_group_barrier between\n");
}

static void test_uninit_read(void **state)
{
    (void)state;
    /* items 0..7 wrote tile[0..7]; item 8 is the first to read tile[8] */
    expect_reports("buggy.cl", "uninit_read", "tile",
        "tests/detect/buggy.cl:34: error: kernel 'uninit_read': uninitialised local memory: "
        "load at local address 0x20 (argument 'tile', offset 32) by " ITEM(8, 1, 0)
        " reads a byte no work-item of its work-group wrote\n");
}

static void test_flag_no_barrier(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "flag_no_barrier", "flag",
        "tests/detect/buggy.cl:42: error: kernel 'flag_no_barrier': lockstep assumption on "
        "local memory: load at local address 0x0 (argument 'flag', offset 0) by " ITEM(1, 0, 1) "\n"
        "tests/detect/buggy.cl:41: note: conflicts with the store by " ITEM(0, 0, 0)
        ", in the same sub-group, no sub_group_barrier between\n"
        "tests/detect/buggy.cl:42: error: kernel 'flag_no_barrier': data race on local memory: "
        "load at local address 0x0 (argument 'flag', offset 0) by " ITEM(8, 1, 0) "\n"
        "tests/detect/buggy.cl:41: note: conflicts with the store by " ITEM(0, 0, 0)
        ", in another sub-group, no work-group barrier between\n");
}

/* Global memory within a work-group: the barrier between out[g]'s store
 * and the neighbour's load fences local memory only. */
static void test_missing_fence(void **state)
{
    (void)state;
    /* item 0 loads out[1] (offset 4), stored by item 1 before the
     * barrier; every other pair is the same two lines */
    expect_reports_at("buggy.cl", "missing_fence",
        "--global 16 --local 16 --sg 8 --arg out=int:zeros:32", "tile",
        "tests/detect/buggy.cl:53: error: kernel 'missing_fence': data race on global "
        "memory: load at address 0x10000000004 (buffer 'out', offset 4) by " ITEM(0, 0, 0) "\n"
        "tests/detect/buggy.cl:51: note: conflicts with the store by " ITEM(1, 0, 1)
        ", in the same sub-group; missing fence flag: the barrier between has no "
        "CLK_GLOBAL_MEM_FENCE\n");
}

/* "work-item local (l,0,0) global (g,0,0) sub-group s lane l" */
#define ITEM2(l, g, sg, lane) "work-item local (" #l ",0,0) global (" #g ",0,0) sub-group " \
    #sg " lane " #lane

/* Global memory between work-groups: work-group 0 runs first and loads
 * out[16..31] (unwritten yet); work-group 1 then stores them, and loads
 * out[0..15], which work-group 0 stored.  Buffer 'out' is argument 0, at
 * 1 << 40. */
static void test_wg_neighbour(void **state)
{
    (void)state;
    expect_reports_at("buggy.cl", "wg_neighbour", LAUNCH2, "tile",
        "tests/detect/buggy.cl:61: error: kernel 'wg_neighbour': data race on global "
        "memory: store at address 0x10000000040 (buffer 'out', offset 64) by "
        ITEM2(0, 16, 0, 0) "\n"
        "tests/detect/buggy.cl:63: note: conflicts with the load by " ITEM2(0, 0, 0, 0)
        ", in another work-group (0,0,0): only atomics order work-groups\n"
        "tests/detect/buggy.cl:63: error: kernel 'wg_neighbour': data race on global "
        "memory: load at address 0x10000000000 (buffer 'out', offset 0) by "
        ITEM2(0, 16, 0, 0) "\n"
        "tests/detect/buggy.cl:61: note: conflicts with the store by " ITEM2(0, 0, 0, 0)
        ", in another work-group (0,0,0): only atomics order work-groups\n");
}

/* A race report of buggy.cl: the later access at line L by work-item W,
 * the earlier one at line PL by PW, and why they race. */
#define RACE(L, kernel, what, acc, where, W, PL, pacc, PW, why) \
    "tests/detect/buggy.cl:" #L ": error: kernel '" kernel "': " what ": " acc " at " where \
    " by " W "\n" "tests/detect/buggy.cl:" #PL ": note: conflicts with the " pacc " by " PW \
    ", " why "\n"
#define SAME_SG "in the same sub-group, no sub_group_barrier between"
#define OTHER_SG "in another sub-group, no work-group barrier between"
#define OUT_AT(hex, off) "address 0x100000000" #hex " (buffer 'out', offset " #off ")"

/* Sub-group 0's coalesced store of out[0..7], then its lane 2 reads
 * out[3] (item 3's) and writes out[4] (item 4's): the same sub-group;
 * sub-group 1's lane 1 writes out[3]: another sub-group. */
static void test_run_then_lane(void **state)
{
    (void)state;
#define LOCKSTEP_G "lockstep assumption on global memory"
    expect_reports("buggy.cl", "run_then_lane", "tile",
        RACE(106, "run_then_lane", LOCKSTEP_G, "load", OUT_AT(0c, 12), ITEM(2, 0, 2), 104,
             "store", ITEM(3, 0, 3), SAME_SG)
        RACE(106, "run_then_lane", LOCKSTEP_G, "store", OUT_AT(10, 16), ITEM(2, 0, 2), 104,
             "store", ITEM(4, 0, 4), SAME_SG)
        RACE(108, "run_then_lane", "data race on global memory", "store", OUT_AT(0c, 12),
             ITEM(9, 1, 1), 104, "store", ITEM(3, 0, 3), OTHER_SG));
}

/* A work-group reduction between the stores and the loads orders no
 * memory: item 0 loads tile[8], sub-group 1's lane 0 stored it. */
static void test_wg_reduce_order(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "wg_reduce_order", "tile",
        RACE(118, "wg_reduce_order", "data race on local memory", "load",
             "local address 0x20 (argument 'tile', offset 32)", ITEM(0, 0, 0), 116, "store",
             ITEM(8, 1, 0), OTHER_SG));
}

/* Block I/O: sub-group 1 block-writes out[8..15], which sub-group 0
 * block-read (lane l reads element l: item 0 read out[8]), then reads
 * out[0..7], which sub-group 0 wrote. */
#define LAUNCH_BLOCK "--global 16 --local 16 --sg 8 --arg out=int:zeros:32"
static void test_block_neighbour(void **state)
{
    (void)state;
    expect_reports_at("buggy.cl", "block_neighbour", LAUNCH_BLOCK, "tile",
        RACE(126, "block_neighbour", "data race on global memory", "block write",
             OUT_AT(20, 32), ITEM(8, 1, 0), 127, "block read", ITEM(0, 0, 0), OTHER_SG)
        RACE(127, "block_neighbour", "data race on global memory", "block read",
             OUT_AT(00, 0), ITEM(8, 1, 0), 126, "block write", ITEM(0, 0, 0), OTHER_SG));
}

/* Message passing by a flag: a relaxed one orders nothing (item 8 loads
 * tile[1], item 0 stored it; item 16 loads out[1], item 0 of the other
 * work-group stored it), nor do release and acquire at work-group scope
 * between two work-groups. */
static void test_flag_relaxed(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "wg_flag_relaxed", "tile",
        RACE(144, "wg_flag_relaxed", "data race on local memory", "load",
             "local address 0x4 (argument 'tile', offset 4)", ITEM(8, 1, 0), 139, "store",
             ITEM(0, 0, 0), OTHER_SG));
#define OTHER_WG0 "in another work-group (0,0,0): only atomics order work-groups"
    expect_reports_at("buggy.cl", "dev_flag_relaxed", LAUNCH2, "tile",
        RACE(161, "dev_flag_relaxed", "data race on global memory", "load", OUT_AT(04, 4),
             ITEM2(0, 16, 0, 0), 156, "store", ITEM2(0, 0, 0, 0), OTHER_WG0));
    expect_reports_at("buggy.cl", "dev_flag_wg_scope", LAUNCH2, "tile",
        RACE(177, "dev_flag_wg_scope", "data race on global memory", "load", OUT_AT(04, 4),
             ITEM2(0, 16, 0, 0), 172, "store", ITEM2(0, 0, 0, 0), OTHER_WG0));
}

/* Images: lane l writes element (l,0), then reads element (l+1,0): lane 0
 * reads lane 1's (same sub-group), item 8 writes what item 7 read and
 * item 15 reads item 0's (other sub-groups); with a barrier that fences
 * local memory only, the first pair remains (missing fence flag).  Block
 * I/O: as block_neighbour, on an image of 16 32-bit elements. */
#define LAUNCH_IMG LAUNCH1 " --arg img=image2d:16x1:R:uint32:zeros"
#define IMG_AT(x) "image 'img' element (" #x ",0)"
static void test_image_races(void **state)
{
    (void)state;
#define RACE_IMG "data race on image memory"
    expect_reports_at("buggy.cl", "img_neighbour", LAUNCH_IMG, "tile",
        RACE(187, "img_neighbour", "lockstep assumption on image memory", "image read",
             IMG_AT(1), ITEM(0, 0, 0), 186, "image write", ITEM(1, 0, 1), SAME_SG)
        RACE(186, "img_neighbour", RACE_IMG, "image write", IMG_AT(8), ITEM(8, 1, 0), 187,
             "image read", ITEM(7, 0, 7), OTHER_SG)
        RACE(187, "img_neighbour", RACE_IMG, "image read", IMG_AT(0), ITEM(15, 1, 7), 186,
             "image write", ITEM(0, 0, 0), OTHER_SG));
    expect_reports_at("buggy.cl", "img_missing_fence", LAUNCH_IMG, "tile",
        RACE(196, "img_missing_fence", RACE_IMG, "image read", IMG_AT(1), ITEM(0, 0, 0), 194,
             "image write", ITEM(1, 0, 1), "in the same sub-group; missing fence flag: the "
             "barrier between has no CLK_IMAGE_MEM_FENCE"));
    expect_reports_at("buggy.cl", "img_block_neighbour", LAUNCH_IMG, "tile",
        RACE(204, "img_block_neighbour", RACE_IMG, "image block write", IMG_AT(8),
             ITEM(8, 1, 0), 205, "image block read", ITEM(0, 0, 0), OTHER_SG)
        RACE(205, "img_block_neighbour", RACE_IMG, "image block read", IMG_AT(0),
             ITEM(8, 1, 0), 204, "image block write", ITEM(0, 0, 0), OTHER_SG));
}

/* Private memory: a[4..7] are never written; work-item l reads
 * a[(l + 2) % 8], so items 2..5 of each sub-group of 8 read unwritten
 * bytes, item 2 first (a[4]: private address 16). */
static void test_private_uninit(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "private_uninit", "tile",
        "tests/detect/buggy.cl:85: error: kernel 'private_uninit': uninitialised private "
        "memory: load at private address 0x10 by " ITEM(2, 0, 2) " reads a byte the "
        "work-item never wrote (a private variable or spill slot)\n");
    cli_result r = cli_run("run tests/detect/buggy.cl --kernel private_uninit " LAUNCH
                           " --no-timing --json --uninitialized --arg tile=local:64");
    assert_int_equal(r.status, 0);
    const char *u = strstr(r.out, "\"uninitialized\": {\"checked\": ");
    assert_non_null(u);
    unsigned long long checked, found, priv;
    assert_int_equal(sscanf(u, "\"uninitialized\": {\"checked\": %llu, \"found\": %llu, "
                            "\"private\": %llu}", &checked, &found, &priv), 3);
    assert_int_equal(checked, 16);     /* one private load per work-item */
    assert_int_equal(priv, 16);
    assert_int_equal(found, 2 * 4);    /* items 2..5 and 10..13 */
    cli_result_free(&r);
}

/* An out-of-range shuffle: lanes 4..7 of each sub-group of 8 ask for lane
 * l + 4 >= 8; their results are undefined and the add uses them. */
static void test_shuffle_range(void **state)
{
    (void)state;
    expect_reports("buggy.cl", "shuffle_range", "tile",
        "tests/detect/buggy.cl:94: error: kernel 'shuffle_range': undefined value used: "
        "an operand of add by " ITEM(4, 0, 4) "\n"
        "tests/detect/buggy.cl:93: note: it is the undefined result of sub_group_shuffle "
        "(lane 4: shuffle index out of range, value 8)\n");
    cli_result r = cli_run("run tests/detect/buggy.cl --kernel shuffle_range " LAUNCH
                           " --no-timing --json --uninitialized --arg tile=local:64");
    assert_int_equal(r.status, 0);
    const char *u = strstr(r.out, "\"undefined_uses\": ");
    assert_non_null(u);
    unsigned long long uses;
    assert_int_equal(sscanf(u, "\"undefined_uses\": %llu", &uses), 1);
    assert_int_equal(uses, 2 * 4);       /* lanes 4..7 of both sub-groups */
    cli_result_free(&r);
}

/* The same shuffle with its undefined lanes dropped by a select: nothing
 * to report, and the run (outputs, statistics, cycles) as without. */
static void test_shuffle_guarded(void **state)
{
    (void)state;
    cli_result off = cli_run("run tests/detect/correct.cl --kernel shuffle_guarded " LAUNCH
                             " --json --out out --arg tile=local:64");
    cli_result on = cli_run("run tests/detect/correct.cl --kernel shuffle_guarded " LAUNCH
                            " --json --out out --uninitialized --races --arg tile=local:64");
    assert_int_equal(off.status, 0);
    assert_int_equal(on.status, 0);
    assert_string_equal(on.err, "");
    char *plain = without_detectors(on.out), *ref = without_detectors(off.out);
    assert_string_equal(plain, ref);
    free(plain);
    free(ref);
    assert_non_null(strstr(on.out, "\"undefined_uses\": 0}"));
    cli_result_free(&off);
    cli_result_free(&on);
}

/* --compare: the sub-group sums of assumes_simd16 (out[g / 16] = the sum
 * of g over g's sub-group, written by its lane 0; sub-groups run in id
 * order, so the last one to write an element wins), computed here for
 * each width. */
static void test_width_dependence(void **state)
{
    (void)state;
    static const unsigned widths[3] = { 8, 16, 32 };
    long want[3][4] = { { 0 } };
    for (int w = 0; w < 3; w++)
        for (unsigned first = 0; first < 32; first += widths[w]) {
            long sum = 0;
            for (unsigned g = first; g < first + widths[w]; g++)
                sum += g;
            want[w][first / 16] = sum;
        }
    cli_result r = cli_run("run tests/detect/buggy.cl --kernel assumes_simd16 --sg 8,16,32 "
                           "--compare --global 32 --local 32 --arg out=int:zeros:4 "
                           "--arg tile=local:64 -q --no-timing");
    assert_int_equal(r.status, 4);
    char line[256];
    snprintf(line, sizeof line, "sgemu: compare: buffer 'out': element 0 differs: %ld at "
             "SIMD8; %ld at SIMD16; %ld at SIMD32\n", want[0][0], want[1][0], want[2][0]);
    assert_string_equal(r.err, line);
    cli_result_free(&r);
    /* one width alone is refused */
    r = cli_run("run tests/detect/buggy.cl --kernel assumes_simd16 --sg 16 --compare "
                "--global 32 --arg out=int:zeros:4 --arg tile=local:64 -q --no-timing");
    assert_int_equal(r.status, 1);
    cli_result_free(&r);
}

/* A float sum over a work-group: the widths group the additions
 * differently, so the results may differ in the last bits only; each must
 * be within the tolerance of the exact sum (computed here in double), and
 * the verdict "tolerance" with exit status 0. */
static void test_width_float_tolerance(void **state)
{
    (void)state;
    char arg[2048] = "in=float:[";
    double exact = 0;
    for (int i = 0; i < 64; i++) {
        const float v = (float)(i % 7) / 3.0f - 0.9f;
        exact += v;
        snprintf(arg + strlen(arg), sizeof arg - strlen(arg), "%s%.9g", i ? "," : "", v);
    }
    strcat(arg, "]");
    cli_result r = cli_run("run tests/detect/correct.cl --kernel float_sum --widths 8,16,32 "
                           "--compare --global 64 --local 64 --arg '%s' "
                           "--arg out=float:zeros:1 --arg tile=local:64 -q --no-timing --json",
                           arg);
    assert_int_equal(r.status, 0);
    const char *o = strstr(r.out, "{\"buffer\": \"out\", \"verdict\": \"");
    assert_non_null(o);
    double v[3];
    /* sgemu's work-group reduction adds the partial sums of 8, 4 and 2
     * sub-groups: these inputs round differently at SIMD32 */
    assert_non_null(strstr(o, "\"verdict\": \"tolerance\""));
    {
        assert_int_equal(sscanf(strstr(o, "\"values\": "), "\"values\": {\"8\": \"%lf\", "
                                "\"16\": \"%lf\", \"32\": \"%lf\"}", &v[0], &v[1], &v[2]), 3);
        double worst = 0, printed;
        for (int w = 0; w < 3; w++) {
            assert_true(fabs(v[w] - exact) <= 1e-5 * fabs(exact));
            const double m = fabs(v[0]) > fabs(v[w]) ? fabs(v[0]) : fabs(v[w]);
            if (fabs(v[w] - v[0]) / m > worst)
                worst = fabs(v[w] - v[0]) / m;
        }
        assert_int_equal(sscanf(strstr(o, "\"relative_difference\": "),
                                "\"relative_difference\": %lf", &printed), 1);
        assert_true(fabs(printed - worst) <= 1e-5 * worst);   /* printed with 6 digits */
    }
    assert_non_null(strstr(r.out, "{\"buffer\": \"in\", \"verdict\": \"equal\", "
                                  "\"element\": null, \"values\": null, "
                                  "\"relative_difference\": null}"));
    cli_result_free(&r);
}

/* The JSON of a run without its "detectors" member and the values of
 * its host clocks (which differ from run to run). */
static char *without_detectors(const char *json)
{
    char *s = strdup(json);
    assert_non_null(s);
    char *p = strstr(s, ", \"detectors\": {");
    if (p) {
        char *e = strstr(p + 3, "}}");
        assert_non_null(e);
        memmove(p, e + 2, strlen(e + 2) + 1);
    }
    static const char *const clocks[] = { "\"host_wall_s\": ", "\"host_cpu_s\": ",
                                          "\"sim_rate\": " };
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
        for (char *k = strstr(s, clocks[i]); k; k = strstr(k + 1, clocks[i])) {
            char *v = k + strlen(clocks[i]), *e = v;
            while (*e && strchr("0123456789.eE+-", *e))
                e++;
            memmove(v, e, strlen(e) + 1);
        }
    }
    return s;
}

/* `count` from "NAME": {"checked": C, "found": F} of the JSON */
static void detector_counts(const char *json, const char *name, unsigned long long *checked,
                            unsigned long long *found)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\": {\"checked\": ", name);
    const char *p = strstr(json, key);
    assert_non_null(p);
    assert_int_equal(sscanf(p + strlen(key), "%llu, \"found\": %llu", checked, found), 2);
}

/* The correct kernels: no report, something checked, and the JSON
 * (statistics, cycles, the output buffer) that of the run without the
 * detectors. */
static void expect_clean_run(const char *args, unsigned long long min_loads)
{
    cli_result off = cli_run("run %s -q --json --out out", args);
    cli_result on = cli_run("run %s -q --json --out out --check-all", args);
    assert_int_equal(off.status, 0);
    assert_int_equal(on.status, 0);
    if (on.err[0])
        fprintf(stderr, "sgemu run %s: %s\n", args, on.err);
    assert_string_equal(on.err, "");
    assert_non_null(strstr(off.out, "\"cycles\""));
    char *plain = without_detectors(on.out), *ref = without_detectors(off.out);
    assert_string_equal(plain, ref);
    free(plain);
    free(ref);
    unsigned long long checked, found;
    detector_counts(on.out, "races", &checked, &found);
    assert_true(checked >= 16);
    assert_int_equal(found, 0);
    detector_counts(on.out, "uninitialized", &checked, &found);
    assert_true(checked >= min_loads);
    assert_int_equal(found, 0);
    cli_result_free(&off);
    cli_result_free(&on);
}

static void expect_clean_at(const char *file, const char *kernel, const char *launch,
                            const char *local_arg, unsigned long long min_loads)
{
    char args[512];
    snprintf(args, sizeof args, "tests/detect/%s --kernel %s %s -g --arg %s=local:64", file,
             kernel, launch, local_arg);
    expect_clean_run(args, min_loads);
}

static void expect_clean(const char *file, const char *kernel, const char *local_arg)
{
    expect_clean_at(file, kernel, LAUNCH1, local_arg, 16);
}

static void test_correct_kernels(void **state)
{
    (void)state;
    expect_clean("correct.cl", "with_barrier", "tile");
    expect_clean("correct.cl", "sg_with_barrier", "tile");
    expect_clean("correct.cl", "local_atomics", "count");
    expect_clean("correct.cl", "wg_reduce_barrier", "tile");
    expect_clean_at("correct.cl", "block_barrier", LAUNCH_BLOCK, "tile", 0);
    expect_clean_at("correct.cl", "global_with_fence", LAUNCH2, "tile", 0);
    expect_clean_at("correct.cl", "global_atomics", LAUNCH2, "tile", 32);
    expect_clean_at("correct.cl", "wg_flag_release", LAUNCH1, "tile", 2);
    expect_clean_at("correct.cl", "dev_flag_release", LAUNCH2, "tile", 0);
    expect_clean_at("correct.cl", "dev_flag_fences", LAUNCH2, "tile", 0);
    expect_clean_at("correct.cl", "flag_sequence",
                    "--global 48 --local 16 --sg 8 --arg out=int:zeros:64", "tile", 0);
    expect_clean_at("correct.cl", "img_with_fence", LAUNCH_IMG, "tile", 0);
    expect_clean_at("correct.cl", "img_block_fence", LAUNCH_IMG, "tile", 0);
}

/* The timing microbenchmarks of examples/calibration, at their documented
 * launches with two loop iterations: correct kernels too (each work-item
 * stores to its own slot, the chased local memory is written first, every
 * shuffle's source lane exists). */
static void test_calibration_kernels(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        unsigned items;              /* one work-group of this size (H100) */
        unsigned long long loads;    /* local loads checked at least */
        const char *more;
    } ks[] = {
        { "ballot", 32, 0, "" },
        { "barrier", 64, 0, "" },
        { "chase", 32, 0, "--arg chain=u32:zeros:1024" },
        { "reduce_hw", 32, 0, "" },
        { "shfl_down", 32, 0, "" },
        { "shfl_idx", 32, 0, "" },
        { "shfl_up", 32, 0, "" },
        { "shfl_xor", 32, 0, "" },
        { "shfl_xor64", 32, 0, "" },
        { "smem_chase", 32, 2 * 32 * 32, "--arg s=local:8192" },
        { "warp_reduce_shfl", 32, 0, "" },
        { "warp_scan_shfl", 32, 0, "" },
        { "block_reduce_256", 256, 2 * 256, "--arg s=local:8192" },
        { "block_reduce_1024", 1024, 2 * 1024, "--arg s=local:8192" },
        { "block_scan_256", 256, 2 * 256, "--arg s=local:8192" },
        { "block_scan_1024", 1024, 2 * 1024, "--arg s=local:8192" },
    };
    char args[512];
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        snprintf(args, sizeof args, "examples/calibration/%s.sgasm --config "
                 "configs/nvidia-h100.yaml --global %u --local %u --arg out=u32:zeros:%u "
                 "--arg n=2 %s", ks[i].name, ks[i].items, ks[i].items, ks[i].items,
                 ks[i].more);
        expect_clean_run(args, ks[i].loads);
    }
    /* the timing model's speed kernel, on the default config */
    expect_clean_run("examples/calibration/alu_bound.sgasm --global 256 --local 128 --sg 16 "
                     "--arg out=u32:zeros:256 --arg n=2", 0);
}

/* A buggy kernel too: the detectors change nothing but stderr. */
static void test_buggy_unchanged(void **state)
{
    (void)state;
    cli_result off = cli_run("run tests/detect/buggy.cl --kernel missing_barrier " LAUNCH
                             " --json --out out --arg tile=local:64");
    cli_result on = cli_run("run tests/detect/buggy.cl --kernel missing_barrier " LAUNCH
                            " --json --out out --check-all --arg tile=local:64");
    assert_int_equal(off.status, 0);
    assert_int_equal(on.status, 0);
    char *plain = without_detectors(on.out), *ref = without_detectors(off.out);
    assert_string_equal(plain, ref);
    free(plain);
    free(ref);
    unsigned long long checked, found;
    detector_counts(on.out, "races", &checked, &found);
    assert_int_equal(checked, 32 + 16);    /* 16 local stores + 16 loads, 16 of out */
    /* per sub-group, lanes 0..6 load the element lane + 1 stored (7 + 7);
     * sub-group 1's store to tile[8] after item 7's load, item 15's load
     * of tile[0] */
    assert_int_equal(found, 7 + 7 + 1 + 1);
    cli_result_free(&off);
    cli_result_free(&on);
}

/* The same for the global, private and undefined-result kernels (without
 * --check, whose notes count in the statistics). */
static void expect_unchanged(const char *kernel, const char *launch)
{
    cli_result off = cli_run("run tests/detect/buggy.cl --kernel %s %s -g -q --json --out out "
                             "--arg tile=local:64", kernel, launch);
    cli_result on = cli_run("run tests/detect/buggy.cl --kernel %s %s -g -q --json --out out "
                            "--races --uninitialized --arg tile=local:64", kernel, launch);
    assert_int_equal(off.status, 0);
    assert_int_equal(on.status, 0);
    assert_true(on.err[0] != 0);          /* it did report */
    assert_non_null(strstr(off.out, "\"cycles\""));
    char *plain = without_detectors(on.out), *ref = without_detectors(off.out);
    assert_string_equal(plain, ref);
    free(plain);
    free(ref);
    cli_result_free(&off);
    cli_result_free(&on);
}

static void test_buggy_unchanged_more(void **state)
{
    (void)state;
    expect_unchanged("missing_fence", "--global 16 --local 16 --sg 8 --arg out=int:zeros:32");
    expect_unchanged("wg_neighbour", LAUNCH2);
    expect_unchanged("private_uninit", LAUNCH1);
    expect_unchanged("shuffle_range", LAUNCH1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_barrier),
        cmocka_unit_test(test_sg_neighbour),
        cmocka_unit_test(test_uninit_read),
        cmocka_unit_test(test_flag_no_barrier),
        cmocka_unit_test(test_missing_fence),
        cmocka_unit_test(test_wg_neighbour),
        cmocka_unit_test(test_run_then_lane),
        cmocka_unit_test(test_wg_reduce_order),
        cmocka_unit_test(test_block_neighbour),
        cmocka_unit_test(test_flag_relaxed),
        cmocka_unit_test(test_image_races),
        cmocka_unit_test(test_private_uninit),
        cmocka_unit_test(test_shuffle_range),
        cmocka_unit_test(test_shuffle_guarded),
        cmocka_unit_test(test_width_dependence),
        cmocka_unit_test(test_width_float_tolerance),
        cmocka_unit_test(test_correct_kernels),
        cmocka_unit_test(test_calibration_kernels),
        cmocka_unit_test(test_buggy_unchanged),
        cmocka_unit_test(test_buggy_unchanged_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
