/* test_branches.c - group operations in both arms of branches and in switch
 * cases (tests/kernels/branch_collectives.cl), compiled by `sgemu run K.cl`
 * and run at SIMD8/16/32 with --check against references written here from
 * the definitions: each call combines exactly the work-items of its own arm
 * or case.  clang-14 -O2 used to merge the arms' calls into one (the
 * broadcasts then read per-lane lanes, the clustered reductions got a
 * run-time cluster size), so this failed before the compile recipe kept
 * SimplifyCFG from sinking and hoisting them. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

enum { G = 96, L = 32, N = 16 };
static const unsigned widths[] = { 8, 16, 32 };
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

/* arm A of the kernel's if/else: lane 1 always, lane 2 never, else odd v */
static int arm(unsigned lane, uint32_t v)
{
    return lane == 1 || (lane != 2 && (v & 1));
}

static const unsigned cluster8[4] = { 4, 8, 2, 1 };
/* the second switch: case 0 max over 4, case 1 or over 2, default max over 8 */
static int case9(uint32_t v)
{
    unsigned c = (v >> 6) & 3;
    return c > 2 ? 2 : (int)c;
}
static int case10(uint32_t v)
{
    unsigned c = (v >> 8) & 3;
    return c > 2 ? 2 : (int)c;
}

static void check_width(const uint32_t *in, unsigned S)
{
    int32_t out[G * N];
    cli_run_ok("run tests/kernels/branch_collectives.cl -cl-std=CL3.0 --check --sg %u "
               "--global %d --local %d --arg in=int:@%s/in.bin --arg out=int:zeros:%d "
               "--out out=%s/out.bin -q", S, G, L, cli_tmpdir, G * N, cli_tmpdir);
    cli_get("out.bin", out, sizeof out);
    for (unsigned g = 0; g < G; g++) {
        const unsigned b = g / S * S, l = g % S;
        const uint32_t *v = &in[b];
        const int32_t *o = &out[g * N];
        const int a = arm(l, v[l]);
        uint32_t sum = 0, exc = 0, first = S, c4 = 0, c8 = 0, all4 = 1;
        for (unsigned j = 0; j < S; j++) {
            if (arm(j, v[j]) != a)
                continue;
            first = j < first ? j : first;
            sum += v[j];
            exc += j < l ? v[j] : 0;
            c4 += (v[j] & 2) != 0;
            c8 += j <= l && (v[j] & 8);
            all4 &= (v[j] & 4) != 0;
        }
        assert_int_equal((uint32_t)o[0], a ? v[1] : v[2]);
        assert_int_equal((uint32_t)o[1], v[first]);
        assert_int_equal((uint32_t)o[2], sum);
        assert_int_equal((uint32_t)o[3], exc);
        assert_int_equal(o[4], c4);
        assert_int_equal(o[5] != 0, all4);
        assert_int_equal(o[6] != 0, l == first);
        assert_int_equal(o[7], c8);
        /* first switch: clustered add over this case's lanes of the cluster */
        const unsigned k8 = (v[l] >> 4) & 3, C8 = cluster8[k8];
        uint32_t csum = 0;
        for (unsigned j = l / C8 * C8; j < l / C8 * C8 + C8; j++)
            csum += ((v[j] >> 4) & 3) == k8 ? v[j] : 0;
        assert_int_equal((uint32_t)o[8], csum);
        /* second switch: max over 4, or over 2, max over 8 */
        const int k9 = case9(v[l]);
        const unsigned C9 = k9 == 0 ? 4 : k9 == 1 ? 2 : 8;
        uint32_t r9 = 0;
        for (unsigned j = l / C9 * C9; j < l / C9 * C9 + C9; j++)
            if (case9(v[j]) == k9)
                r9 = k9 == 1 ? r9 | v[j] : (v[j] > r9 ? v[j] : r9);
        assert_int_equal((uint32_t)o[9], r9);
        /* third switch: each case counts its own lanes */
        uint32_t n10 = 0, m11 = 0;
        for (unsigned j = 0; j < S; j++) {
            n10 += case10(v[j]) == case10(v[l]);
            if ((v[j] & 1024) == (v[l] & 1024))
                m11 = v[j] > m11 ? v[j] : m11;
        }
        assert_int_equal(o[10], n10);
        assert_int_equal((uint32_t)o[11], m11);
    }
}

static void test_branch_collectives(void **state)
{
    (void)state;
    uint32_t in[G];
    for (int i = 0; i < G; i++)
        in[i] = (uint32_t)(cli_rand(&rng) >> 40) & 0x7fff;   /* sums stay below 2^31 */
    cli_put("in.bin", in, sizeof in);
    for (unsigned w = 0; w < 3; w++)
        check_width(in, widths[w]);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("branches");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_branch_collectives),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
