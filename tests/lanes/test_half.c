/* Tests of lanes/half.c against values from the IEEE 754 binary16 format
 * and a brute-force nearest-value search. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lanes.h"

/* value of a half from its fields, by ldexp (independent of half.c) */
static double ref_half(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp((double)(m + 1024), e - 25);
    return s ? -v : v;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void test_known(void **st)
{
    (void)st;
    assert_int_equal(lanes_f32_to_f16(1.0f), 0x3c00);
    assert_int_equal(lanes_f32_to_f16(-2.0f), 0xc000);
    assert_int_equal(lanes_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(lanes_f32_to_f16(65520.0f), 0x7c00);
    assert_int_equal(lanes_f32_to_f16(65519.0f), 0x7bff);
    assert_int_equal(lanes_f32_to_f16(-1e10f), 0xfc00);
    assert_int_equal(lanes_f32_to_f16(0x1p-24f), 0x0001);
    assert_int_equal(lanes_f32_to_f16(0x1p-25f), 0x0000);      /* tie -> even 0 */
    assert_int_equal(lanes_f32_to_f16(0x1.8p-24f), 0x0002);    /* tie -> even 2 */
    assert_int_equal(lanes_f32_to_f16(0x1.0p-25f + 0x1p-40f), 0x0001);
    assert_int_equal(lanes_f32_to_f16(0x1p-14f), 0x0400);
    assert_int_equal(lanes_f32_to_f16(-0.0f), 0x8000);
    assert_int_equal(lanes_f32_to_f16(INFINITY), 0x7c00);
    /* 1 + 2^-11 is halfway between 1 and 1+2^-10: even is 1 */
    assert_int_equal(lanes_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
    /* 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9: even up */
    assert_int_equal(lanes_f32_to_f16(1.0f + 0x3p-11f), 0x3c02);
    assert_int_equal(lanes_f64_to_f16(0.1), 0x2e66);
    assert_int_equal(lanes_f64_to_f16(1e-300), 0);
    assert_true(lanes_f32_to_f16(0.333333f) == 0x3555);
    uint16_t n = lanes_f32_to_f16(NAN);
    assert_int_equal(n & 0x7c00, 0x7c00);
    assert_true((n & 0x3ff) != 0);
    assert_int_equal(fbits(lanes_f16_to_f32(0x3c00)), fbits(1.0f));
    assert_int_equal(fbits(lanes_f16_to_f32(0x0001)), fbits(0x1p-24f));
    assert_int_equal(fbits(lanes_f16_to_f32(0x8000)), 0x80000000u);
    assert_true(isnan(lanes_f16_to_f32(0x7c01)));
    assert_true(isnan(lanes_f16_to_f32(0xfe00)));
    /* signalling half NaN comes back quiet */
    assert_int_equal(lanes_f32_to_f16(lanes_f16_to_f32(0x7c01)) & 0x0200, 0x0200);
}

static void test_all_halves(void **st)
{
    (void)st;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = lanes_f16_to_f32((uint16_t)h);
        double r = ref_half((uint16_t)h);
        if (isnan(r)) {
            assert_true(isnan(f));
            uint16_t back = lanes_f32_to_f16(f);
            assert_true((back & 0x7c00) == 0x7c00 && (back & 0x3ff));
            assert_int_equal(back & 0x8000, h & 0x8000);
            continue;
        }
        assert_true((double)f == r);
        assert_int_equal(!!signbit(f), h >> 15);
        assert_int_equal(lanes_f32_to_f16(f), h);
        assert_int_equal(lanes_f64_to_f16(r), h);
    }
}

/* nearest half by search over the ordered positive halves */
static uint16_t ref_round(double x)
{
    uint16_t s = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65520.0)
        return s | 0x7c00;
    uint16_t lo = 0, hi = 0x7bff;       /* ref_half is monotone here */
    if (a >= ref_half(hi))
        return s | hi;
    while (hi - lo > 1) {               /* ref_half(lo) <= a < ref_half(hi) */
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (ref_half(mid) <= a)
            lo = mid;
        else
            hi = mid;
    }
    double dl = a - ref_half(lo), dh = ref_half(hi) - a;
    if (dl < dh)
        return s | lo;
    if (dh < dl)
        return s | hi;
    return s | ((lo & 1) ? hi : lo);
}

static void test_random_rounding(void **st)
{
    (void)st;
    srand(12345);
    for (int i = 0; i < 200000; i++) {
        /* random doubles spread over the half range, plus exact midpoints */
        double m = (double)rand() / RAND_MAX;
        int e = rand() % 46 - 30;
        double x = ldexp(m, e);
        if (rand() & 1)
            x = -x;
        if (i % 4 == 0) {
            uint16_t h = (uint16_t)(rand() & 0x7bfe);
            x = (ref_half(h) + ref_half((uint16_t)(h + 1))) / 2;
        }
        assert_int_equal(lanes_f64_to_f16(x), ref_round(x));
        float xf = (float)x;
        assert_int_equal(lanes_f32_to_f16(xf), ref_round((double)xf));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_all_halves),
        cmocka_unit_test(test_random_rounding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
