/* test_trace.c - kernel traces through the sgemu binary: a replay gives
 * exactly the timing a full run gives (several kernels and configs, and a
 * config the trace was not recorded on); width mismatch and corrupt or
 * truncated traces are clear errors, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../cli/kernel_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

/* The "timing" object of a --json output (balanced braces). */
static char *timing_json(const char *out)
{
    const char *p = strstr(out, "\"timing\": {");
    assert_non_null(p);
    p += strlen("\"timing\": ");
    int depth = 0;
    const char *q = p;
    do {
        if (*q == '{') depth++;
        if (*q == '}') depth--;
        q++;
    } while (depth && *q);
    assert_int_equal(depth, 0);
    return strndup(p, (size_t)(q - p));
}

typedef struct kcase {
    const char *file, *nd, *args;
} kcase;

static const kcase kernels[] = {
    { "examples/vector_add.sgasm", "--global 1024 --local 64",
      "--arg a=float:iota:1024 --arg b=float:iota:1024 --arg c=float:zeros:1024 --arg n=1000" },
    { "examples/local_reduce.sgasm", "--global 1024 --local 128",
      "--arg in=int:iota:1024 --arg out=int:zeros:8 --arg scratch=local:512" },
    { "examples/stream_compaction.sgasm", "--global 512 --local 64",
      "--arg in=int:random:512:5 --arg out=int:zeros:512 --arg count=uint:zeros:1" },
    { "examples/histogram.sgasm", "--global 512 --local 64",
      "--arg data=uint:random:512:7 --arg bins=uint:zeros:16 --arg nbins=16" },
    { "examples/transpose2d.sgasm", "--global 32,16 --local 16,4",
      "--arg in=float:iota:512 --arg out=float:zeros:512" },
    { "examples/shuffle_stencil.sgasm", "--global 512 --local 64",
      "--arg in=float:iota:512 --arg out=float:zeros:512 --arg n=500" },
    /* work-group collectives: their BARRIER micro-ops carry no element type */
    { "examples/wg_scan.sgasm", "--global 256 --local 32",
      "--arg in=int:random:256:4 --arg inc=int:zeros:256 --arg exc=int:zeros:256 "
      "--arg total=int:zeros:8" },
};

static void check_same(const char *cfg_rec, const char *cfg_play, const kcase *k, unsigned w)
{
    char trace[512];
    snprintf(trace, sizeof trace, "%s/t.sgt", tmpdir);
    cli_result rec = cli_run("run %s %s %s --sg %u --config %s --record %s --json -q", k->file,
                             k->nd, k->args, w, cfg_rec, trace);
    if (rec.status)
        fprintf(stderr, "record on %s at SIMD%u failed: %s\n", cfg_rec, w, rec.err);
    assert_int_equal(rec.status, 0);
    cli_result full = cli_run("run %s %s %s --sg %u --config %s --json -q", k->file, k->nd,
                              k->args, w, cfg_play);
    assert_int_equal(full.status, 0);
    cli_result rep = cli_run("replay %s --config %s --json", trace, cfg_play);
    if (rep.status)
        fprintf(stderr, "replay failed: %s\n", rep.err);
    assert_int_equal(rep.status, 0);
    char *a = timing_json(full.out), *b = timing_json(rep.out);
    assert_string_equal(a, b);               /* cycles, stalls, bytes, per-pc: all equal */
    assert_non_null(strstr(a, "\"cycles\": "));
    free(a);
    free(b);
    cli_result_free(&rec);
    cli_result_free(&full);
    cli_result_free(&rep);
}

static void test_round_trip_same_config(void **state)
{
    (void)state;
    static const char *const cfgs[] = { "configs/test-simple.yaml", "configs/default.yaml",
                                        "configs/nvidia-h100.yaml" };
    for (size_t c = 0; c < 3; c++)
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
            check_same(cfgs[c], cfgs[c], &kernels[k], c != 1 ? 32 : (k % 2 ? 8 : 16));
}

/* Recorded on default, re-timed on configs with other memory and pipes. */
static void test_round_trip_other_config(void **state)
{
    (void)state;
    char cfg[512];
    snprintf(cfg, sizeof cfg, "%s/small-l2.yaml", tmpdir);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "extends: default\ndevice:\n  compute_units: 3\nmemory:\n  l2:\n"
               "    size: 16384\n    latency: 300\n");
    fclose(f);
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        check_same("configs/default.yaml", cfg, &kernels[k], 16);
        check_same("configs/default.yaml", "configs/intel-xe-hpg.yaml", &kernels[k], 32);
    }
}

static void test_width_mismatch(void **state)
{
    (void)state;
    cli_result rec = cli_run("run %s %s %s --sg 16 --record %s/w.sgt -q", kernels[0].file,
                             kernels[0].nd, kernels[0].args, tmpdir);
    assert_int_equal(rec.status, 0);
    cli_result r = cli_run("replay %s/w.sgt --sg 8", tmpdir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "recorded at sub-group width 16"));
    assert_non_null(strstr(r.err, "cannot be replayed at width 8"));
    cli_result i = cli_run("trace info %s/w.sgt", tmpdir);
    assert_int_equal(i.status, 0);
    assert_non_null(strstr(i.out, "vector_add, SIMD16"));
    assert_non_null(strstr(i.out, "verified"));
    cli_result_free(&rec);
    cli_result_free(&r);
    cli_result_free(&i);
}

static long file_size(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Copy src to dst, keeping `keep` bytes and xoring byte `flip` (if >= 0). */
static void damage(const char *src, const char *dst, long keep, long flip)
{
    FILE *a = fopen(src, "rb"), *b = fopen(dst, "wb");
    assert_non_null(a);
    assert_non_null(b);
    for (long i = 0; i < keep; i++) {
        int c = fgetc(a);
        if (c == EOF)
            break;
        fputc(i == flip ? c ^ 0x5a : c, b);
    }
    fclose(a);
    fclose(b);
}

/* Record kernels[1] at SIMD8 as tmpdir/NAME (its path in path). */
static void record_good(const char *name, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", tmpdir, name);
    cli_result rec = cli_run("run %s %s %s --sg 8 --record %s -q", kernels[1].file,
                             kernels[1].nd, kernels[1].args, path);
    assert_int_equal(rec.status, 0);
    cli_result_free(&rec);
}

static void test_corrupt_traces(void **state)
{
    (void)state;
    char good[512], bad[512];
    record_good("good.sgt", good, sizeof good);
    snprintf(bad, sizeof bad, "%s/bad.sgt", tmpdir);
    long n = file_size(good);
    assert_true(n > 600);
    struct { long keep, flip; const char *want; } cases[] = {
        { 0, -1, "not an sgemu trace" },            /* empty */
        { 4, -1, "not an sgemu trace" },
        { 100, -1, "truncated" },                   /* inside the header */
        { 512, -1, "truncated" },                   /* header only */
        { n / 2, -1, "trace" },                     /* half the payload */
        { n - 1, -1, "trace" },                     /* last byte missing */
        { n, 0, "bad magic" },
        { n, 40, "header checksum" },               /* the kernel name */
        { n, 600, "corrupt trace" },                /* inside the zstd frame */
        { n, n - 3, "corrupt trace" },              /* zstd's content checksum */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        damage(good, bad, cases[i].keep, cases[i].flip);
        cli_result r = cli_run("replay %s", bad);
        cli_result t = cli_run("trace info %s", bad);
        if (r.status != 1 || !strstr(r.err, cases[i].want))
            fprintf(stderr, "case %zu: status %d: %s\n", i, r.status, r.err);
        assert_int_equal(r.status, 1);              /* an error, never a signal */
        assert_int_equal(t.status, 1);
        assert_non_null(strstr(r.err, cases[i].want));
        cli_result_free(&r);
        cli_result_free(&t);
    }
}

/* Flip one byte of a header field and re-seal the header with its FNV-1a 64
 * (docs/trace-format.md: offset 504 covers bytes 0..503), so only the
 * payload checks can notice. */
static void forge_header(const char *src, const char *dst, long at)
{
    FILE *a = fopen(src, "rb");
    assert_non_null(a);
    fseek(a, 0, SEEK_END);
    long n = ftell(a);
    rewind(a);
    unsigned char *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, a), (size_t)n);
    fclose(a);
    buf[at] ^= 0x01;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 504; i++) {
        h ^= buf[i];
        h *= 0x100000001b3ull;
    }
    for (int i = 0; i < 8; i++)
        buf[504 + i] = (unsigned char)(h >> (8 * i));
    FILE *b = fopen(dst, "wb");
    assert_non_null(b);
    assert_int_equal(fwrite(buf, 1, (size_t)n, b), (size_t)n);
    fclose(b);
    free(buf);
}

/* Header offsets: 300 payload bytes, 308 payload checksum (u64 each). */
static void test_forged_payload_fields(void **state)
{
    (void)state;
    char good[512], bad[512];
    record_good("good2.sgt", good, sizeof good);
    snprintf(bad, sizeof bad, "%s/forged.sgt", tmpdir);
    forge_header(good, bad, 300);              /* payload length: replay and info */
    cli_result r = cli_run("replay %s", bad);
    cli_result t = cli_run("trace info %s", bad);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "payload bytes"));
    assert_int_equal(t.status, 1);
    cli_result_free(&r);
    cli_result_free(&t);
    forge_header(good, bad, 308);              /* FNV checksum: trace info checks it */
    t = cli_run("trace info %s", bad);
    assert_int_equal(t.status, 1);
    assert_non_null(strstr(t.err, "checksum mismatch"));
    cli_result_free(&t);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("trace");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_same_config),
        cmocka_unit_test(test_round_trip_other_config),
        cmocka_unit_test(test_width_mismatch),
        cmocka_unit_test(test_corrupt_traces),
        cmocka_unit_test(test_forged_payload_fields),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
