/* test_examples.c - every example kernel through the sgemu CLI at widths 8,
 * 16 and 32, compared with plain C references computed here from inputs the
 * test generates itself. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const unsigned widths[] = { 8, 16, 32 };

/* xorshift64*: the test's own input generator (independent of sgemu's). */
static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
    return cli_rand(&rng_state);
}

/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

static void expect_ok(cli_result *r)
{
    if (r->status != 0)
        fprintf(stderr, "sgemu failed (%d): %s\n", r->status, r->err);
    assert_int_equal(r->status, 0);
}

static void test_vector_add(void **state)
{
    (void)state;
    enum { N = 1000, G = 1024 };
    float a[G], b[G], c[G];
    for (int i = 0; i < G; i++) {
        a[i] = (float)(int32_t)(rnd() >> 40) / 1024.0f;
        b[i] = (float)(int32_t)(rnd() >> 40) / 512.0f;
    }
    cli_put("a.bin", a, sizeof a);
    cli_put("b.bin", b, sizeof b);
    for (size_t w = 0; w < 3; w++) {
        cli_result r = cli_run("run examples/vector_add.sgasm --sg %u --global %d --local 64 "
                               "--arg a=float:@%s/a.bin --arg b=float:@%s/b.bin "
                               "--arg c=float:zeros:%d --arg n=%d --out c=%s/c.bin",
                               widths[w], G, tmpdir, tmpdir, G, N, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("c.bin", c, sizeof c);
        for (int i = 0; i < G; i++) {
            float want = i < N ? a[i] + b[i] : 0.0f;
            assert_memory_equal(&c[i], &want, 4);
        }
    }
}

static void test_transpose2d(void **state)
{
    (void)state;
    enum { W = 48, H = 20 };
    float in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)(rnd() % 100000);
    cli_put("in.bin", in, sizeof in);
    const char *locals[] = { "16,4", "16,3" };   /* 20 % 3 != 0: a trailing partial group */
    for (size_t w = 0; w < 3; w++) {
        for (int l = 0; l < 2; l++) {
            cli_result r = cli_run("run examples/transpose2d.sgasm --sg %u --global %d,%d "
                                   "--local %s --arg in=float:@%s/in.bin "
                                   "--arg out=float:zeros:%d --out out=%s/out.bin",
                                   widths[w], W, H, locals[l], tmpdir, W * H, tmpdir);
            expect_ok(&r);
            cli_result_free(&r);
            cli_get("out.bin", out, sizeof out);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    assert_true(out[x * H + y] == in[y * W + x]);
        }
    }
}

static void test_local_reduce(void **state)
{
    (void)state;
    enum { G = 4096, L = 256 };
    int32_t in[G], out[G / L];
    for (int i = 0; i < G; i++)
        in[i] = (int32_t)rnd();            /* full range: sums wrap */
    cli_put("rin.bin", in, sizeof in);
    for (size_t w = 0; w < 3; w++) {
        cli_result r = cli_run("run examples/local_reduce.sgasm --sg %u --global %d --local %d "
                               "--arg in=int:@%s/rin.bin --arg out=int:zeros:%d "
                               "--arg scratch=local:%d --out out=%s/rout.bin",
                               widths[w], G, L, tmpdir, G / L, L * 4, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("rout.bin", out, sizeof out);
        for (int g = 0; g < G / L; g++) {
            uint32_t sum = 0;
            for (int i = 0; i < L; i++)
                sum += (uint32_t)in[g * L + i];
            assert_int_equal((uint32_t)out[g], sum);
        }
    }
}

static void test_collatz(void **state)
{
    (void)state;
    enum { G = 300 };
    uint32_t in[G], steps[G];
    for (int i = 0; i < G; i++)
        in[i] = (uint32_t)(rnd() % 5000);
    cli_put("cin.bin", in, sizeof in);
    for (size_t w = 0; w < 3; w++) {
        cli_result r = cli_run("run examples/collatz.sgasm --sg %u --global %d --local 100 "
                               "--arg in=uint:@%s/cin.bin --arg steps=uint:zeros:%d "
                               "--out steps=%s/cout.bin",
                               widths[w], G, tmpdir, G, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("cout.bin", steps, sizeof steps);
        for (int i = 0; i < G; i++) {
            uint32_t n = in[i], k = 0;
            while (n > 1) {
                n = (n % 2) ? 3 * n + 1 : n / 2;
                k++;
            }
            assert_int_equal(steps[i], k);
        }
    }
}

static void test_histogram(void **state)
{
    (void)state;
    enum { G = 4096, B = 16 };
    uint32_t data[G], bins[B];
    for (int i = 0; i < G; i++)
        data[i] = (uint32_t)rnd();
    cli_put("hin.bin", data, sizeof data);
    for (size_t w = 0; w < 3; w++) {
        cli_result r = cli_run("run examples/histogram.sgasm --sg %u --global %d --local 128 "
                               "--arg data=uint:@%s/hin.bin --arg bins=uint:zeros:%d "
                               "--arg nbins=%d --out bins=%s/hout.bin",
                               widths[w], G, tmpdir, B, B, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("hout.bin", bins, sizeof bins);
        uint32_t want[B] = { 0 };
        for (int i = 0; i < G; i++)
            want[data[i] % B]++;
        assert_memory_equal(bins, want, sizeof want);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void test_stream_compaction(void **state)
{
    (void)state;
    enum { G = 1000 };
    int32_t in[G], out[G], want[G];
    uint32_t count;
    int nwant = 0;
    for (int i = 0; i < G; i++) {
        in[i] = (int32_t)(rnd() % 2001) - 1000;
        if (in[i] > 0)
            want[nwant++] = in[i];
    }
    cli_put("sin.bin", in, sizeof in);
    qsort(want, (size_t)nwant, sizeof want[0], cmp_int);
    for (size_t w = 0; w < 3; w++) {
        /* local 100: the last sub-group of every work-group is partial */
        cli_result r = cli_run("run examples/stream_compaction.sgasm --sg %u --global %d "
                               "--local 100 --arg in=int:@%s/sin.bin --arg out=int:zeros:%d "
                               "--arg count=uint:zeros:1 --out out=%s/sout.bin "
                               "--out count=%s/scount.bin",
                               widths[w], G, tmpdir, G, tmpdir, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("scount.bin", &count, 4);
        cli_get("sout.bin", out, sizeof out);
        assert_int_equal(count, (uint32_t)nwant);
        qsort(out, count, sizeof out[0], cmp_int);
        assert_memory_equal(out, want, (size_t)nwant * 4);
    }
}

static void test_shuffle_stencil(void **state)
{
    (void)state;
    enum { G = 1024 };
    float in[G], out[G];
    for (int i = 0; i < G; i++)
        in[i] = (float)(int32_t)(rnd() >> 44) * 0.25f;
    cli_put("tin.bin", in, sizeof in);
    for (size_t w = 0; w < 3; w++) {
        cli_result r = cli_run("run examples/shuffle_stencil.sgasm --sg %u --global %d "
                               "--local 64 --arg in=float:@%s/tin.bin --arg out=float:zeros:%d "
                               "--arg n=%d --out out=%s/tout.bin",
                               widths[w], G, tmpdir, G, G, tmpdir);
        expect_ok(&r);
        cli_result_free(&r);
        cli_get("tout.bin", out, sizeof out);
        for (int i = 0; i < G; i++) {
            int l = i > 0 ? i - 1 : 0, rr = i < G - 1 ? i + 1 : G - 1;
            float want = (in[l] + in[i]) + in[rr];
            assert_memory_equal(&out[i], &want, 4);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("ex");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_transpose2d),
        cmocka_unit_test(test_local_reduce),
        cmocka_unit_test(test_collatz),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_stream_compaction),
        cmocka_unit_test(test_shuffle_stencil),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
