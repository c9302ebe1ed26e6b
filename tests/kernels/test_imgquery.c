/* test_imgquery.c - get_image_channel_data_type / get_image_channel_order
 * from OpenCL C (tests/kernels/imgquery.cl) through clang-14 + llvm-spirv-14
 * and `sgemu run`, for every channel order and type an image argument can
 * have, read-only / write-only / read-write images, at SIMD8/16/32, with a
 * divergent query.  The expected values are the CLK_* constants of OpenCL C,
 * written out here. */
#include "kernel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

static const char *const tmpdir = cli_tmpdir;

/* The channel data types sgemu's images accept and their CLK_* values. */
static const struct { const char *name; int32_t clk; } types[] = {
    { "CL_UNSIGNED_INT8", 0x10DA },  { "CL_UNSIGNED_INT16", 0x10DB },
    { "CL_UNSIGNED_INT32", 0x10DC }, { "CL_SIGNED_INT8", 0x10D7 },
    { "CL_SIGNED_INT16", 0x10D8 },   { "CL_SIGNED_INT32", 0x10D9 },
    { "CL_UNORM_INT8", 0x10D2 },     { "CL_UNORM_INT16", 0x10D3 },
    { "CL_HALF_FLOAT", 0x10DD },     { "CL_FLOAT", 0x10DE },
};
enum { NT = sizeof types / sizeof types[0] };

/* The channel orders and their CLK_* values. */
static const struct { const char *name; int32_t clk; } orders[] = {
    { "CL_R", 0x10B0 }, { "CL_RG", 0x10B2 }, { "CL_RGBA", 0x10B5 },
};
enum { NO = sizeof orders / sizeof orders[0] };

enum { N = 40 };   /* work-items: not a multiple of 16 or 32 */

static void one_run(unsigned sg, unsigned ta, unsigned oa, unsigned tb, unsigned ob,
                    unsigned tc, unsigned oc, unsigned td, unsigned od)
{
    static int32_t out[N][8];
    cli_run_ok("run %s/imgquery.spv --sg %u --global %d "
               "--arg a=image2d:3x2:%s:%s:zeros --arg b=image2d:5x1:%s:%s:zeros "
               "--arg c=image2d:2x2:%s:%s:zeros --arg d=image2d:1x3:%s:%s:zeros "
               "--arg out=int:iota:%d --out out=%s/out.bin -q",
               tmpdir, sg, N, orders[oa].name, types[ta].name, orders[ob].name,
               types[tb].name, orders[oc].name, types[tc].name, orders[od].name,
               types[td].name, N * 8, tmpdir);
    cli_get("out.bin", out, sizeof out);
    for (int i = 0; i < N; i++) {
        assert_int_equal(out[i][0], types[ta].clk);
        assert_int_equal(out[i][1], orders[oa].clk);
        assert_int_equal(out[i][2], types[tb].clk);
        assert_int_equal(out[i][3], orders[ob].clk);
        assert_int_equal(out[i][4], types[tc].clk);
        assert_int_equal(out[i][5], orders[oc].clk);
        if (i & 1)
            assert_int_equal(out[i][6], orders[od].clk * 0x10000 + types[td].clk);
        else
            assert_int_equal(out[i][6], 8 * i + 6);   /* not written */
        int32_t flags = (types[tb].clk == 0x10DE) | (types[tb].clk == 0x10D2) << 1 |
                        (orders[ob].clk == 0x10B5) << 2;
        assert_int_equal(out[i][7], flags);
    }
}

/* Image a goes through every type and order; b, c and d through others. */
static void test_channel_queries(void **state)
{
    (void)state;
    static const unsigned widths[] = { 8, 16, 32 };
    cli_compile("imgquery", "CL2.0");
    for (unsigned r = 0; r < NT; r++)
        one_run(widths[r % 3], r, r % NO, (r + 3) % NT, (r + 1) % NO, (r + 6) % NT,
                (r + 2) % NO, (r + 9) % NT, (r / 3) % NO);
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("imgquery");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_channel_queries),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
