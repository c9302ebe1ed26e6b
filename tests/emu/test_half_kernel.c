/* test_half_kernel.c - a half kernel end to end: a mad chain as clpeak's
 * half test runs it, then fma, div, min, sqrt, abs, a compare and select
 * under a divergent branch (partial masks), and cvt f32 <-> f16.  The
 * decoded path (lanes/fast.c's f16 kernels) must give the values computed
 * here from the binary16 definition (tests/lanes/ref_half.h: exact long
 * double arithmetic, one rounding each), and the same bytes as the generic
 * path (SGEMU_DECODE=0), at widths 8, 16 and 32. */
#include "sgemu.h"
#include "test_args.h"
#include "../lanes/ref_half.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static emu_config cfg;

enum { N = 300, ROUNDS = 24 };

static const char src[] =
    ".kernel halfk\n"
    ".arg out global f16\n"
    ".arg fout global f32\n"
    ".arg a f32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    cvt.f32.u32 r1, r0\n"
    "    mul.f32 r1, r1, 0.0078125\n"      /* gid / 128, exact */
    "    sub.f32 r1, r1, %a\n"
    "    cvt.f16.f32 r2, r1\n"             /* x */
    "    and.u32 r4, r0, 7\n"
    "    cvt.f32.u32 r4, r4\n"
    "    mul.f32 r4, r4, 0.1\n"
    "    sub.f32 r4, r4, 0.4\n"
    "    cvt.f16.f32 r3, r4\n"             /* y */
    "    mov.u32 r5, 0\n"
    "loop:\n"
    "    mad.f16 r2, r3, r2, r3\n"
    "    mad.f16 r3, r2, r3, r2\n"
    "    add.u32 r5, r5, 1\n"
    "    cmp.lt.u32 p0, r5, " "24" "\n"
    "    bra p0, loop\n"
    "    and.u32 r6, r0, 1\n"
    "    cmp.eq.u32 p1, r6, 0\n"
    "    bra p1, even\n"
    "    fma.f16 r7, r2, r3, 0.3\n"
    "    div.f16 r7, r7, r3\n"
    "    bra join\n"
    "even:\n"
    "    abs.f16 r8, r2\n"
    "    sqrt.f16 r7, r8\n"
    "    sub.f16 r7, r7, r3\n"
    "join:\n"
    "    min.f16 r9, r7, r2\n"
    "    cmp.lt.f16 p2, r9, r3\n"
    "    sel.f16 r9, p2, r9, r3\n"
    "    mul.f16 r9, r9, r9\n"
    "    st.global.f16 [%out + r0*2], r9\n"
    "    cvt.f32.f16 r10, r9\n"
    "    st.global.f32 [%fout + r0*4], r10\n"
    "    ret\n";

/* one binary16 rounding of an exact long double */
static uint16_t rnd16(long double x)
{
    return ref_round16(x, RM_NEAR);
}

static long double hv(uint16_t h)
{
    return (long double)ref_half(h);
}

/* fmin with a NaN operand ignored, -0 < +0 */
static uint16_t ref_min(uint16_t a, uint16_t b)
{
    if (ref_half_isnan(a))
        return b;
    if (ref_half_isnan(b))
        return a;
    if (hv(a) != hv(b))
        return hv(a) < hv(b) ? a : b;
    return (a & 0x8000) ? a : b;
}

/* the kernel for one work-item; halves as bits.  Products and sums of two
 * halves are exact in long double; fma(x, y, c) = x y + c is too (x y has
 * 22 bits, the sum spans at most 2^16 .. 2^-48: 64 bits); the quotient
 * and the root are found by ref_round16 of the long double value, whose one
 * rounding to 64 bits cannot move it across a binary16 midpoint (those
 * have 12 bits; a quotient or root of halves is not within 2^-64 relative
 * of one without being equal to it). */
static uint16_t ref_item(uint32_t gid, float a)
{
    uint16_t x = rnd16((long double)((float)gid * 0.0078125f - a));
    uint16_t y = rnd16((long double)((float)(gid & 7) * 0.1f - 0.4f));
    for (int i = 0; i < ROUNDS; i++) {
        x = rnd16(hv(rnd16(hv(y) * hv(x))) + hv(y));
        y = rnd16(hv(rnd16(hv(x) * hv(y))) + hv(x));
    }
    uint16_t r;
    if (gid & 1) {
        r = rnd16(hv(x) * hv(y) + hv(rnd16(0.3L)));
        r = rnd16(hv(r) / hv(y));
    } else {
        r = rnd16(sqrtl(hv(x & 0x7fff)));
        r = rnd16(hv(r) - hv(y));
    }
    uint16_t m = ref_min(r, x);
    if (!(hv(m) < hv(y)))
        m = y;
    return rnd16(hv(m) * hv(m));
}

typedef struct result {
    uint16_t out[N];
    float fout[N];
} result;

static void run(uint32_t width, bool decoded, float a, result *r)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("halfk.sgasm", src, strlen(src), &k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    memset(r, 0, sizeof *r);
    uint32_t abits;
    memcpy(&abits, &a, sizeof abits);
    sgemu_argval args[3] = { arg_buffer(r->out, sizeof r->out),
                             arg_buffer(r->fout, sizeof r->fout), arg_scalar(abits) };
    sgemu_launch L = launch_1d(N, 100, width);
    L.threads = 1;
    if (decoded)
        unsetenv("SGEMU_DECODE");
    else
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, args, &st, &f);
    unsetenv("SGEMU_DECODE");
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

static void test_half_kernel(void **state)
{
    (void)state;
    static const uint32_t widths[] = { 8, 16, 32 };
    static const float as[] = { 1.3f, 0.37f };
    static result fast, slow;
    int distinct = 0;
    for (int ai = 0; ai < 2; ai++)
        for (int wi = 0; wi < 3; wi++) {
            run(widths[wi], true, as[ai], &fast);
            run(widths[wi], false, as[ai], &slow);
            assert_memory_equal(fast.out, slow.out, sizeof fast.out);
            assert_memory_equal(fast.fout, slow.fout, sizeof fast.fout);
            for (uint32_t g = 0; g < N; g++) {
                const uint16_t want = ref_item(g, as[ai]);
                if (fast.out[g] != want && !(ref_half_isnan(want) &&
                                             ref_half_isnan(fast.out[g])))
                    fail_msg("a=%g sg=%u item %u: %#x, want %#x", (double)as[ai],
                             widths[wi], g, fast.out[g], want);
                const double fw = ref_half(want);
                assert_true(fast.fout[g] == fw || (isnan(fw) && isnan(fast.fout[g])));
                distinct += g > 0 && fast.out[g] != fast.out[g - 1];
            }
        }
    /* the chain does not collapse to one value */
    assert_true(distinct > 6 * N / 2);
}

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_kernel),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
