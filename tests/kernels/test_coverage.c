/* test_coverage.c - OpenCL C kernels for the front-end coverage added after
 * the first corpus (tests/kernels/math.cl, aggregates.cl, ...): compiled with
 * clang-14 + llvm-spirv-14, checked with spirv-val, run through
 * `sgemu run K.spv` and compared with C references written here from the
 * OpenCL C definitions (libm for pow). */
#include "kernel_harness.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const unsigned widths[] = { 8, 16, 32 };
/* the harness's folder, under the short name the commands below use */
static const char *const tmpdir = cli_tmpdir;

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(void)
{
    return (uint32_t)(cli_rand(&rng) >> 32);
}

/* uniform in [lo, hi) */
static double urand(double lo, double hi)
{
    return lo + (hi - lo) * (rnd() / 4294967296.0);
}

/* ------------------------------------------------------------ pow family */

/* Same value: NaN matches any NaN, zeros and infinities match with their
 * sign, finite values within `ulps` (float bit patterns are ordered). */
static void check_f32(float got, double want, int ulps, const char *what, double a, double b)
{
    float w = (float)want;
    bool ok;
    if (isnan(w))
        ok = isnan(got);
    else if (isinf(w) || w == 0.0f)
        ok = memcmp(&got, &w, 4) == 0;
    else {
        int32_t g, r;
        memcpy(&g, &got, 4);
        memcpy(&r, &w, 4);
        ok = (g ^ r) >= 0 && llabs((long long)g - r) <= ulps;
    }
    if (!ok)
        fail_msg("%s(%a, %a) = %a, want %a", what, a, b, (double)got, (double)w);
}

/* OpenCL C rootn from its definition: x^(1/n); odd n keeps x's sign; NaN
 * for n = 0 and for x < 0 with even n. */
static double ref_rootn(double x, int n)
{
    if (n == 0 || (x < 0 && n % 2 == 0))
        return NAN;
    double r = pow(fabs(x), 1.0 / n);
    return signbit(x) && n % 2 ? -r : r;
}

static void test_pow(void **state)
{
    (void)state;
    static const float sx[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 2.0f,
                                -2.0f, 0.5f, -0.5f, -3.75f, 10.0f, 1e-30f };
    static const float sy[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3.0f, -3.0f, 2.0f,
                                -2.0f, 0.5f, -0.5f, 2.5f, 1e10f, 16777216.0f, -7.0f, 1.0f };
    enum { NS = sizeof sx / sizeof sx[0] * (sizeof sy / sizeof sy[0]), G = 512 };
    static float x[G], y[G], out[G * 4];
    static int32_t n[G];
    static double dx[G], dy[G], dout[G];
    static const int sn[] = { 0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 1 << 30, -(1 << 30) - 1 };
    int i = 0;
    for (size_t a = 0; a < sizeof sx / sizeof sx[0]; a++)
        for (size_t b = 0; b < sizeof sy / sizeof sy[0]; b++, i++) {
            x[i] = sx[a];
            y[i] = sy[b];
            n[i] = sn[i % (sizeof sn / sizeof sn[0])];
        }
    for (; i < G; i++) {
        x[i] = (float)urand(-12.0, 12.0);
        if (i % 3 == 0)
            y[i] = (float)(int)urand(-30.0, 30.0);
        else
            y[i] = (float)urand(-25.0, 25.0);
        n[i] = (int)urand(-12.0, 12.0);
        if (i % 5 == 0)
            x[i] = (float)urand(0.0, 1e6);
    }
    for (i = 0; i < G; i++) {
        dx[i] = i < NS ? x[i] : urand(-40.0, 40.0);
        dy[i] = i < NS ? y[i] : (i % 2 ? (double)(int)urand(-150.0, 150.0) : urand(-150, 150));
    }
    cli_put("x.bin", x, sizeof x);
    cli_put("y.bin", y, sizeof y);
    cli_put("n.bin", n, sizeof n);
    cli_put("dx.bin", dx, sizeof dx);
    cli_put("dy.bin", dy, sizeof dy);
    cli_compile("math", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/math.spv --kernel powk --sg %u --global %d --local 64 "
                   "--arg x=float:@%s/x.bin --arg y=float:@%s/y.bin --arg n=int:@%s/n.bin "
                   "--arg out=float:zeros:%d --out out=%s/out.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, tmpdir, G * 4, tmpdir);
        cli_get("out.bin", out, sizeof out);
        for (i = 0; i < G; i++) {
            check_f32(out[4 * i], pow(x[i], y[i]), 1, "pow", x[i], y[i]);
            check_f32(out[4 * i + 1], pow(x[i], n[i]), 1, "pown", x[i], n[i]);
            check_f32(out[4 * i + 2], ref_rootn(x[i], n[i]), 1, "rootn", x[i], n[i]);
            check_f32(out[4 * i + 3], pow(x[i], y[i ^ 1]), 1, "pow.y", x[i], y[i ^ 1]);
        }
        cli_run_ok("run %s/math.spv --kernel powd --sg %u --global %d --local 64 "
                   "--arg x=double:@%s/dx.bin --arg y=double:@%s/dy.bin "
                   "--arg out=double:zeros:%d --out out=%s/dout.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, G, tmpdir);
        cli_get("dout.bin", dout, sizeof dout);
        for (i = 0; i < G; i++) {
            double want = pow(dx[i], dy[i]), got = dout[i];
            bool ok;
            if (isnan(want))
                ok = isnan(got);
            else if (isinf(want) || want == 0.0)
                ok = memcmp(&got, &want, 8) == 0;
            else {  /* docs/opencl.md: relative error below 2^-52 (2 + |y log2|x||) */
                double e = fabs(dy[i] * log2(fabs(dx[i])));
                ok = fabs(got - want) <= fabs(want) * ldexp(1.0, -52) * (2.0 + (isfinite(e) ? e : 0));
            }
            if (!ok)
                fail_msg("pow(double %a, %a) = %a, want %a", dx[i], dy[i], got, want);
        }
    }
}

/* ------------------------------------------------------------ aggregates */

typedef struct { int32_t a; float b; int16_t c[3]; int64_t d; } agg_s;   /* OpenCL layout */
typedef struct { _Alignas(16) float v[4]; int32_t k[5]; } agg_t;

static void test_aggregates(void **state)
{
    (void)state;
    enum { G = 256, L = 64, SH = 5 };
    static agg_s in[G], out[G];
    static agg_t tio[G], tout[G];
    static uint8_t bin[G * 13], bout[G * 13];
    assert_int_equal(sizeof(agg_s), 24);
    assert_int_equal(sizeof(agg_t), 48);
    for (int i = 0; i < G; i++) {
        in[i].a = (int32_t)rnd();
        in[i].b = (float)urand(-100, 100);
        for (int k = 0; k < 3; k++)
            in[i].c[k] = (int16_t)rnd();
        in[i].d = (int64_t)(((uint64_t)rnd() << 32) | rnd());
        for (int k = 0; k < 4; k++)
            tio[i].v[k] = (float)urand(-10, 10);
        for (int k = 0; k < 5; k++)
            tio[i].k[k] = (int32_t)(rnd() % 100000);
    }
    for (int i = 0; i < G * 13; i++)
        bin[i] = (uint8_t)rnd();
    cli_put("in.bin", in, sizeof in);
    cli_put("tio.bin", tio, sizeof tio);
    cli_put("bin.bin", bin, sizeof bin);
    cli_compile("aggregates", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/aggregates.spv --kernel structs --sg %u --global %d --local %d "
                   "--arg in=uchar:@%s/in.bin --arg out=uchar:zeros:%zu "
                   "--arg tio=uchar:@%s/tio.bin "
                   "--arg ls=local:%zu --out out=%s/out.bin --out tio=%s/tout.bin -q", tmpdir,
                   widths[w], G, L, tmpdir, sizeof out, tmpdir, L * sizeof(agg_s), tmpdir, tmpdir);
        cli_get("out.bin", out, sizeof out);
        cli_get("tout.bin", tout, sizeof tout);
        for (int i = 0; i < G; i++) {
            /* out[i] = the modified copy of the next work-item's struct */
            agg_s want = in[i / L * L + (i % L + 1) % L];
            want.a += 1;
            want.c[1] = (int16_t)(want.c[1] * 3);
            assert_int_equal(out[i].a, want.a);
            assert_memory_equal(&out[i].b, &want.b, 4);
            for (int k = 0; k < 3; k++)
                assert_int_equal(out[i].c[k], want.c[k]);
            assert_int_equal(out[i].d, want.d);
            agg_t t = tio[i];
            t.k[i % 5] += 7;
            t.v[1] *= 2.0f;
            assert_memory_equal(&tout[i], &t, sizeof t);
        }
        cli_run_ok("run %s/aggregates.spv --kernel bytes --sg %u --global %d --local %d "
                   "--arg in=uchar:@%s/bin.bin --arg out=uchar:zeros:%d --arg sh=%d "
                   "--out out=%s/bout.bin -q", tmpdir, widths[w], G, L, tmpdir, G * 13, SH, tmpdir);
        cli_get("bout.bin", bout, sizeof bout);
        /* packed: 11-byte records, int at 1, short at 5, float at 7 */
        static uint8_t pk[G * 11], pko[G * 11];
        static int32_t po[G];
        for (int i = 0; i < G * 11; i++)
            pk[i] = (uint8_t)rnd();
        for (int i = 0; i < G; i++) {   /* a finite float at offset 7 */
            float fv = (float)urand(-50, 50);
            memcpy(&pk[i * 11 + 7], &fv, 4);
        }
        cli_put("pk.bin", pk, sizeof pk);
        cli_run_ok("run %s/aggregates.spv --kernel packed --sg %u --global %d --local %d "
                   "--arg p=uchar:@%s/pk.bin --arg o=int:zeros:%d --out p=%s/pko.bin "
                   "--out o=%s/po.bin -q", tmpdir, widths[w], G, L, tmpdir, G, tmpdir, tmpdir);
        cli_get("pko.bin", pko, sizeof pko);
        cli_get("po.bin", po, sizeof po);
        for (int i = 0; i < G; i++) {
            const uint8_t *r = &pk[i * 11], *q = &pko[i * 11];
            int32_t iv;
            int16_t sv;
            float fv;
            memcpy(&iv, r + 1, 4);
            memcpy(&sv, r + 5, 2);
            memcpy(&fv, r + 7, 4);
            assert_int_equal(po[i], (int32_t)((uint32_t)iv + (uint32_t)(int32_t)sv));
            int32_t iw = (int32_t)((uint32_t)iv * 3u);
            int16_t sw = (int16_t)(sv - 2);
            float fw = fv + 1.0f;
            assert_int_equal(q[0], r[0]);
            assert_memory_equal(q + 1, &iw, 4);
            assert_memory_equal(q + 5, &sw, 2);
            assert_memory_equal(q + 7, &fw, 4);
        }
        for (int i = 0; i < G; i++)
            for (int k = 0; k < 13; k++)
                assert_int_equal(bout[i * 13 + k],
                                 bin[i * 13 + k] ^ (k == (i + SH) % 13 ? 0x5a : 0));
    }
}

/* tests/spirv/aggregate_values.spvasm: whole-value struct operations. */
typedef struct { uint32_t x; float b; uint32_t arr[3]; uint64_t d; } agg_v;

static void test_aggregate_values(void **state)
{
    (void)state;
    enum { G = 64 };
    static agg_v in[G], out[G * 4];
    for (int i = 0; i < G; i++) {
        in[i].x = rnd();
        in[i].b = (float)urand(-5, 5);
        for (int k = 0; k < 3; k++)
            in[i].arr[k] = rnd();
        in[i].d = ((uint64_t)rnd() << 32) | rnd();
    }
    memset(out, 0xa5, sizeof out);
    cli_put("in.bin", in, sizeof in);
    cli_put("out.bin", out, sizeof out);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "spirv-as %s/tests/spirv/aggregate_values.spvasm -o %s/av.spv && "
             "spirv-val %s/av.spv", cli_src(), tmpdir, tmpdir);
    if (system(cmd) != 0)
        fail_msg("assembling or validating aggregate_values.spvasm failed: %s", cmd);
    assert_int_equal(sizeof(agg_v), 32);
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/av.spv --sg %u --global %d --local 16 --arg in=uchar:@%s/in.bin "
                   "--arg out=uchar:@%s/out.bin --out out=%s/res.bin -q", tmpdir, widths[w], G,
                   tmpdir, tmpdir, tmpdir);
        static agg_v res[G * 4];
        cli_get("res.bin", res, sizeof res);
        for (int i = 0; i < G; i++) {
            const agg_v *r = &res[4 * i], *s = &in[i];
            assert_int_equal(r[0].x, s->x + s->arr[1]);
            assert_memory_equal(&r[0].b, &s->b, 4);
            assert_int_equal(r[0].arr[0], s->arr[0]);
            assert_int_equal(r[0].arr[1], s->arr[1]);
            assert_int_equal(r[0].arr[2], s->x);
            assert_int_equal(r[0].d, s->d);
            assert_int_equal(r[1].x, 7);
            assert_true(r[1].b == 2.5f);
            for (int k = 0; k < 3; k++) {
                assert_int_equal(r[1].arr[k], k + 1);
                assert_int_equal(r[2].arr[k], k + 1);
            }
            assert_int_equal(r[1].d, 0x123456789abcdef0ull);
            assert_int_equal(r[2].x, s->x + s->arr[1]);
            assert_memory_equal(&r[2].b, &s->b, 4);
            assert_int_equal(r[2].d, s->d);
            static const uint8_t zero[32];
            assert_memory_equal(&r[3], zero, 32);
        }
    }
}

/* ------------------------------------------------------------ vload/vstore */

/* binary16 -> double, from the IEEE 754 layout */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(1024 + f, e - 25);
    return h & 0x8000 ? -v : v;
}

/* double -> binary16 by searching the ordered finite halves: rounding 'z'
 * (toward zero), 'e' (nearest, ties to even) or 'p' (toward +inf). */
static uint16_t half_of(double x, char mode)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    uint16_t lo = 0;                        /* largest half magnitude <= a */
    for (uint16_t b = 0; b <= 0x7bff; b++)
        if (half_value(b) <= a)
            lo = b;
    double dl = a - half_value(lo);
    uint16_t hi = lo < 0x7bff ? lo + 1 : 0x7c00;
    double dh = half_value(hi) - a;
    uint16_t m = lo;
    if (dl != 0) {
        if (mode == 'e')
            m = dl < dh || (dl == dh && !(lo & 1)) ? lo : hi;
        else if (mode == 'p')
            m = sign ? lo : hi;
    }
    if (mode == 'e' && a >= 65520.0)
        m = 0x7c00;
    return (uint16_t)(sign | m);
}

/* ------------------------------------------------------------ half built-ins */

/* half bits as an ordered integer (for ulp distances) */
static int32_t half_order(uint16_t h)
{
    return h & 0x8000 ? -(int32_t)(h & 0x7fff) : (int32_t)h;
}

/* got == want: NaN matches any NaN, else the bits within `ulps` (zeros and
 * infinities exactly) */
static void check_half(uint16_t got, double want, int ulps, const char *what, double x, double y)
{
    uint16_t w = isnan(want) ? 0x7e00 : half_of(want, 'e');
    bool ok;
    if (isnan(want))
        ok = (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
    else if (ulps == 0 || (w & 0x7fff) == 0 || (w & 0x7fff) == 0x7c00)
        ok = got == w;
    else
        ok = abs(half_order(got) - half_order(w)) <= ulps;
    if (!ok)
        fail_msg("half %s(%a, %a) = 0x%04x, want 0x%04x", what, x, y, got, w);
}

static uint16_t rnd_half(void)
{
    static const uint16_t special[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff,
                                        0x3c00, 0xbc00, 0x3800, 0x3e00, 0xc100, 0x7bff };
    uint32_t r = rnd();
    if (r % 8 == 0)
        return special[(r >> 3) % (sizeof special / sizeof special[0])];
    /* exponents 0..30 weighted to moderate values, either sign */
    uint16_t e = (uint16_t)(r >> 16) % 8 == 0 ? (uint16_t)((r >> 20) % 31) : (uint16_t)(10 + (r >> 20) % 12);
    return (uint16_t)((r & 0x8000) | (e << 10) | (rnd() & 1023));
}

static void test_half_builtins(void **state)
{
    (void)state;
    enum { G = 96 };
    static uint16_t a[G], b[G], o[19 * G];
    static int32_t n[G], io[G];
    for (int i = 0; i < G; i++) {
        a[i] = rnd_half();
        b[i] = rnd_half();
        n[i] = (int32_t)(rnd() % 61) - 30;
    }
    cli_put("ha.bin", a, sizeof a);
    cli_put("hb.bin", b, sizeof b);
    cli_put("hn.bin", n, sizeof n);
    cli_compile("halffn", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/halffn.spv --sg %u --global %d --local 32 --arg a=half:@%s/ha.bin "
                   "--arg b=half:@%s/hb.bin --arg n=int:@%s/hn.bin --arg o=half:zeros:%d "
                   "--arg io=int:zeros:%d --out o=%s/ho.bin --out io=%s/hio.bin -q", tmpdir,
                   widths[w], G, tmpdir, tmpdir, tmpdir, 19 * G, G, tmpdir, tmpdir);
        cli_get("ho.bin", o, sizeof o);
        cli_get("hio.bin", io, sizeof io);
        for (int i = 0; i < G; i++) {
            const double x = half_value(a[i]), y = half_value(b[i]);
            const uint16_t *r = &o[19 * i];
            check_half(r[0], floor(x), 0, "floor", x, 0);
            check_half(r[1], ceil(x), 0, "ceil", x, 0);
            check_half(r[2], trunc(x), 0, "trunc", x, 0);
            check_half(r[3], nearbyint(x), 0, "rint", x, 0);   /* ties to even */
            check_half(r[4], round(x), 0, "round", x, 0);      /* ties away */
            if (!isnan(x))
                assert_int_equal(r[5], (a[i] & 0x7fff) | (b[i] & 0x8000));
            check_half(r[6], isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0, 0, "fdim", x, y);
            if (fabs(x) != fabs(y) && !isnan(x) && !isnan(y)) {
                check_half(r[7], fabs(x) > fabs(y) ? x : y, 0, "maxmag", x, y);
                check_half(r[8], fabs(x) < fabs(y) ? x : y, 0, "minmag", x, y);
            }
            if (!isnan(x) && !isnan(y))
                check_half(r[9], x < y ? 0.0 : 1.0, 0, "step", y, x);
            check_half(r[10], isnan(x) ? 0.0 : x > 0 ? 1.0 : x < 0 ? -1.0 : x, 0, "sign", x, 0);
            check_half(r[11], ldexp(x, n[i]), 0, "ldexp", x, n[i]);
            check_half(r[12], x == 0 ? -INFINITY : isinf(x) ? INFINITY : logb(x), 0, "logb", x, 0);
            if (isfinite(x)) {
                check_half(r[13], x * (180.0 / M_PI), 1, "degrees", x, 0);
                if (isfinite(y))
                    check_half(r[14], x + (y - x) * 0.25, 1, "mix", x, y);
            }
            if (isfinite(y))
                check_half(r[15], y * (M_PI / 180.0), 1, "radians", y, 0);
            /* pown, rootn, powr: the exact value rounded once (1 ulp of slack
             * for the double pow under it) */
            check_half(r[16], pow(x, n[i] % 5), 1, "pown", x, n[i] % 5);
            check_half(r[17], ref_rootn(x, 3), 1, "rootn", x, 3);
            if (x != 0 && y != 0 && isfinite(x) && isfinite(y))
                check_half(r[18], pow(fabs(x), y), 1, "powr", fabs(x), y);
            assert_int_equal(io[i], x == 0 ? INT32_MIN : !isfinite(x) ? INT32_MAX : ilogb(x));
        }
    }
}

static void test_vecmem(void **state)
{
    (void)state;
    enum { G = 64 };
    static float a[4 * G + 4], o[7 * G];
    static uint16_t h[4 * G + 4], oh[9 * G];
    static int32_t ia[2 * G], io[2 * G];
    for (int i = 0; i < 4 * G + 4; i++) {
        a[i] = (float)urand(-100, 100);
        h[i] = (uint16_t)(((rnd() % 20 + 5) << 10) | (rnd() & 1023) | (rnd() & 1 ? 0x8000 : 0));
    }
    for (int i = 0; i < 2 * G; i++)
        ia[i] = (int32_t)rnd();
    cli_put("a.bin", a, sizeof a);
    cli_put("h.bin", h, sizeof h);
    cli_put("ia.bin", ia, sizeof ia);
    cli_compile("vecmem", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/vecmem.spv --sg %u --global %d --local 32 --arg a=float:@%s/a.bin "
                   "--arg o=float:zeros:%d --arg h=ushort:@%s/h.bin --arg oh=ushort:zeros:%d "
                   "--arg ia=int:@%s/ia.bin --arg io=int:zeros:%d --out o=%s/o.bin "
                   "--out oh=%s/oh.bin --out io=%s/io.bin -q", tmpdir, widths[w], G, tmpdir, 7 * G,
                   tmpdir, 9 * G, tmpdir, 2 * G, tmpdir, tmpdir, tmpdir);
        cli_get("o.bin", o, sizeof o);
        cli_get("oh.bin", oh, sizeof oh);
        cli_get("io.bin", io, sizeof io);
        for (int i = 0; i < G; i++) {
            for (int k = 0; k < 4; k++)
                assert_true(o[4 * i + k] == a[4 * i + k] * 2.0f);
            for (int k = 0; k < 3; k++)
                assert_true(o[4 * G + 3 * i + k] == a[1 + 3 * i + k] + 1.0f);
            for (int k = 0; k < 4; k++) {
                float hv = (float)half_value(h[4 * i + k]);
                assert_int_equal(oh[4 * i + k], half_of(hv * 3.0f, 'z'));
            }
            float hs = (float)half_value(h[1 + i]);
            assert_int_equal(oh[4 * G + i], half_of(hs / 3.0f, 'e'));
            for (int k = 0; k < 3; k++) {   /* vloada_half3: 4-element stride */
                float ha = (float)half_value(h[4 * i + k]);
                assert_int_equal(oh[5 * G + 4 * i + k], half_of(ha * 0.3f, 'p'));
            }
            assert_int_equal(io[2 * i], ia[2 * i + 1]);
            assert_int_equal(io[2 * i + 1], ia[2 * i]);
        }
    }
}

/* ------------------------------------------------------------ shuffle, shuffle2 */

/* OpenCL C: result component i is component (mask[i] mod n) of x (shuffle)
 * or of the 2n components x0..x(n-1) y0..y(n-1) (shuffle2). */
static void test_vshuffle(void **state)
{
    (void)state;
    enum { G = 96 };
    static uint32_t in[8 * G], mk[8 * G], out[20 * G];
    for (int i = 0; i < 8 * G; i++) {
        in[i] = rnd();
        mk[i] = rnd();
    }
    cli_put("vin.bin", in, sizeof in);
    cli_put("vmk.bin", mk, sizeof mk);
    cli_compile("vshuffle", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/vshuffle.spv --sg %u --global %d --local 32 --arg in=uint:@%s/vin.bin "
                   "--arg mk=uint:@%s/vmk.bin --arg out=uint:zeros:%d --out out=%s/vout.bin -q",
                   tmpdir, widths[w], G, tmpdir, tmpdir, 20 * G, tmpdir);
        cli_get("vout.bin", out, sizeof out);
        for (int i = 0; i < G; i++) {
            const uint32_t *x = &in[8 * i], *y = &in[8 * i + 4], *m = &mk[8 * i];
            const uint32_t *o = &out[20 * i];
            uint16_t hx[16], got[8];
            for (int c = 0; c < 4; c++) {
                hx[2 * c] = (uint16_t)x[c];
                hx[2 * c + 1] = (uint16_t)(x[c] >> 16);
                hx[8 + 2 * c] = (uint16_t)y[c];
                hx[8 + 2 * c + 1] = (uint16_t)(y[c] >> 16);
            }
            for (int c = 0; c < 8; c++)
                assert_int_equal(o[c], x[m[c] % 4]);
            for (int c = 0; c < 4; c++) {
                uint32_t k = m[c] % 8;
                assert_int_equal(o[8 + c], k < 4 ? x[k] : y[k - 4]);
            }
            assert_int_equal(o[12], x[3]);
            assert_int_equal(o[13], x[2]);
            assert_int_equal(o[14], x[1]);
            assert_int_equal(o[15], x[0]);
            memcpy(got, &o[16], sizeof got);
            for (int c = 0; c < 8; c++)
                assert_int_equal(got[c], hx[(uint16_t)m[c] % 16]);
        }
    }
}

/* ------------------------------------------------------------ narrow switches */

/* switchn.cl through `sgemu run K.cl` (its own clang-14 + llvm-spirv-14
 * pipeline), against the two switches written out here */
static void test_switch_narrow(void **state)
{
    (void)state;
    enum { G = 96 };
    static uint32_t in[G], out[G];
    for (int i = 0; i < G; i++)
        in[i] = rnd();
    cli_put("swin.bin", in, sizeof in);
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run tests/kernels/switchn.cl --kernel switchn --sg %u --global %d --local 32 "
                   "--arg in=uint:@%s/swin.bin --arg out=uint:zeros:%d --out out=%s/swout.bin "
                   "--no-timing -q", widths[w], G, tmpdir, G, tmpdir);
        cli_get("swout.bin", out, sizeof out);
        for (uint32_t i = 0; i < G; i++) {
            const uint32_t x = in[i];
            uint32_t r = i % 4 == 0 ? x + 1 : i % 4 == 1 ? x * 3 : i % 4 == 2 ? (x ^ 5) : 7;
            if ((x & 7) == 0)
                r += 100;
            else if ((x & 7) == 3)
                r = (r ^ 0x70) * 5;
            else if ((x & 7) == 4)
                r *= 5;
            else if ((x & 7) == 6)
                r -= x;
            assert_int_equal(out[i], r);
        }
    }    /* sumloop: the sum of four words, the second plus 2 */
    static uint32_t in4[4 * G];
    for (int i = 0; i < 4 * G; i++)
        in4[i] = rnd();
    cli_put("swin4.bin", in4, sizeof in4);
    cli_run_ok("run tests/kernels/switchn.cl --kernel sumloop --sg 16 --global %d --local 32 "
               "--arg in=uint:@%s/swin4.bin --arg out=uint:zeros:%d --out out=%s/swout.bin "
               "--no-timing -q", G, tmpdir, G, tmpdir);
    cli_get("swout.bin", out, sizeof out);
    for (int i = 0; i < G; i++)
        assert_int_equal(out[i], in4[4 * i] + in4[4 * i + 1] + 2 + in4[4 * i + 2] + in4[4 * i + 3]);
    /* divrem: C's truncating / and % on signed values, divisor -7 */
    static int32_t din[G], dout[G];
    for (int i = 0; i < G; i++)
        din[i] = (int32_t)(rnd() % 20001) - 10000;
    cli_put("dvin.bin", din, sizeof din);
    cli_run_ok("run tests/kernels/switchn.cl --kernel divrem --sg 16 --global %d --local 32 "
               "--arg in=int:@%s/dvin.bin --arg out=int:zeros:%d --arg d=-7 "
               "--out out=%s/dvout.bin --no-timing -q", G, tmpdir, G, tmpdir);
    cli_get("dvout.bin", dout, sizeof dout);
    for (int i = 0; i < G; i++)
        assert_int_equal(dout[i], din[i] / -7 + 1000 * (din[i] % -7));
}

/* ------------------------------------------------------------ async copies */

/* async.cl on 2-D work-groups of 8x4 and 16x3 items over 6 groups, with
 * n = 20 (below the work-group size), 48 and 300 (above) */
static void test_async_copy(void **state)
{
    (void)state;
    enum { NG = 6, IN = 7 * NG + 300, V4 = 3 * 40 + NG };
    static uint32_t in[IN], out[2 * 300 * NG];
    static float v4[4 * V4], o4[4 * 40 * NG];
    for (int i = 0; i < IN; i++)
        in[i] = rnd();
    for (int i = 0; i < 4 * V4; i++)
        v4[i] = (float)(rnd() % 1000) - 500.0f;
    cli_put("ain.bin", in, sizeof in);
    cli_put("av4.bin", v4, sizeof v4);
    cli_compile("async", "CL2.0");
    static const unsigned ns[] = { 20, 48, 300 };
    static const unsigned shape[2][2] = { { 8, 4 }, { 16, 3 } };
    for (int w = 0; w < 3; w++) {
        const unsigned n = ns[w], lx = shape[w & 1][0], ly = shape[w & 1][1];
        cli_run_ok("run %s/async.spv --sg %u --global %u,%u --local %u,%u "
                   "--arg in=uint:@%s/ain.bin --arg v4=float:@%s/av4.bin "
                   "--arg out=uint:zeros:%d --arg o4=float:zeros:%d --arg n=%u "
                   "--out out=%s/aout.bin --out o4=%s/ao4.bin -q", tmpdir, widths[w],
                   lx * 3, ly * 2, lx, ly, tmpdir, tmpdir, 2 * 300 * NG, 4 * 40 * NG, n,
                   tmpdir, tmpdir);
        cli_get("aout.bin", out, sizeof out);
        cli_get("ao4.bin", o4, sizeof o4);
        for (unsigned g = 0; g < NG; g++) {
            for (unsigned i = 0; i < 300; i++) {
                uint32_t want = i < n ? in[7 * g + i] * 2u + i : 0;
                assert_int_equal(out[2 * 300 * g + 2 * i], want);
                assert_int_equal(out[2 * 300 * g + 2 * i + 1], 0);
            }
            for (unsigned i = 0; i < 40; i++)
                for (unsigned c = 0; c < 4; c++) {
                    float add = c == 0 ? (float)i : c == 3 ? 1.0f : 0.0f;
                    assert_true(o4[4 * (40 * g + i) + c] == v4[4 * (g + 3 * i) + c] * 0.5f + add);
                }
        }
    }
}

/* ------------------------------------------------------------ -g modules */

/* A module with debug information runs (its OpenCL.DebugInfo.100
 * instructions are skipped) and its fault names the source file and line. */
static void test_debug_lines(void **state)
{
    (void)state;
    /* no spirv-val here: spirv-tools rejects llvm-spirv-14's DebugFunction
     * operands, which sgemu skips */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "clang-14 -cl-std=CL2.0 -target spir64 -emit-llvm -c -include opencl-c.h "
             "-cl-kernel-arg-info -O2 -gline-tables-only %s/tests/kernels/dbgline.cl "
             "-o %s/dbgline.bc && llvm-spirv-14 %s/dbgline.bc -o %s/dbgline.spv",
             cli_src(), tmpdir, tmpdir, tmpdir);
    assert_int_equal(system(cmd), 0);
    cli_run_ok("run %s/dbgline.spv --kernel dbgline --global 8 --arg in=uint:iota:8 --arg out=uint:zeros:11 "
               "--out out=%s/dbg.bin -q", tmpdir, tmpdir);
    uint32_t out[11];
    cli_get("dbg.bin", out, sizeof out);
    for (uint32_t i = 0; i < 11; i++)
        assert_int_equal(out[i], i < 3 ? 0 : 2 * (i - 3));
    cli_result r = cli_run("run %s/dbgline.spv --kernel dbgline --global 8 --arg in=uint:iota:8 "
                           "--arg out=uint:zeros:8 -q", tmpdir);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "dbgline.cl:6: st.global"));
    assert_non_null(strstr(r.err, "work-item global (5,0,0)"));
    cli_result_free(&r);
    /* the phi at the join of a -g module's branches */
    cli_run_ok("run %s/dbgline.spv --kernel dbgphi --global 12 --arg in=uint:iota:12 "
               "--arg out=uint:zeros:12 --out out=%s/dbg.bin -q", tmpdir, tmpdir);
    uint32_t phi[12];
    cli_get("dbg.bin", phi, sizeof phi);
    for (uint32_t i = 0; i < 12; i++)
        assert_int_equal(phi[i], i % 3 ? i / (i % 3) : 7);
    /* sgemu run K.cl -g: the same through sgemu's own compile */
    r = cli_run("run tests/kernels/dbgline.cl -g --kernel dbgline --global 8 --arg in=uint:iota:8 "
                "--arg out=uint:zeros:8 -q");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "dbgline.cl:6: st.global"));
    cli_result_free(&r);
}

/* ------------------------------------------------------------ __constant data */

typedef struct { float scale; int32_t off[3]; int16_t tag; } cd_p;

static void cd_ref(int32_t v, float o[4])
{
    static const int32_t table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
    static const cd_p params[2] = { { 1.5f, { 10, 20, 30 }, 7 }, { -2.0f, { -1, -2, -3 }, -9 } };
    static const float vtab[3][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 0, 0, 0, 0 } };
    static const char msg[] = "sgemu";
    static const int64_t big[2][3] = { { 1, -2, 3 }, { 1LL << 40, 5, -(1LL << 50) } };
    static const int32_t lut[5] = { 11, 22, 33, 44, 55 };
    const cd_p *p = &params[v & 1];
    const float *q = vtab[v % 3];
    o[0] = fmaf((float)table[v & 7], p->scale, (float)p->off[v % 3]) + (float)p->tag;
    o[1] = fmaf(q[3], 1000.0f, fmaf(q[2], 100.0f, fmaf(q[1], 10.0f, q[0])));
    o[2] = (float)msg[v % 6];
    o[3] = (float)(big[v & 1][v % 3] >> 20);
    o[0] += (float)lut[(v >> 3) % 5] * 1000.0f;
}

static void test_const_data(void **state)
{
    (void)state;
    enum { G = 128 };
    static int32_t in[G];
    static float out[G * 4], twin[G * 4];
    for (int i = 0; i < G; i++)
        in[i] = (int32_t)(rnd() % 100000);
    cli_put("in.bin", in, sizeof in);
    cli_compile("constdata", "CL2.0");
    /* the translated kernel as .sgasm: .const_data survives the round trip */
    cli_result a = cli_run("spv2asm %s/constdata.spv", tmpdir);
    assert_int_equal(a.status, 0);
    assert_non_null(strstr(a.out, ".const_data __spirv_constants 03000000 01000000 04000000"));
    cli_put("constdata.sgasm", a.out, strlen(a.out));
    cli_result_free(&a);
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/constdata.spv --sg %u --global %d --local 32 --arg in=int:@%s/in.bin "
                   "--arg out=float:zeros:%d --out out=%s/out.bin -q", tmpdir, widths[w], G, tmpdir,
                   G * 4, tmpdir);
        cli_get("out.bin", out, sizeof out);
        cli_run_ok("run %s/constdata.sgasm --sg %u --global %d --local 32 --arg in=int:@%s/in.bin "
                   "--arg out=float:zeros:%d --out out=%s/twin.bin -q", tmpdir, widths[w], G,
                   tmpdir, G * 4, tmpdir);
        cli_get("twin.bin", twin, sizeof twin);
        assert_memory_equal(out, twin, sizeof out);
        for (int i = 0; i < G; i++) {
            float want[4];
            cd_ref(in[i], want);
            for (int k = 0; k < 4; k++)
                if (out[4 * i + k] != want[k])
                    fail_msg("in %d, out[%d] = %a, want %a", in[i], k, (double)out[4 * i + k],
                             (double)want[k]);
        }
    }
}

/* ------------------------------------------------------------ samplers */

enum { S_NORM = 1, S_NONE = 0, S_EDGE = 2, S_CLAMP = 4, S_REPEAT = 6, S_MIRROR = 8,
       S_NEAREST = 0x10, S_LINEAR = 0x20 };
enum { SW = 7, SH = 5 };
static float s_f[SH][SW][4];          /* CL_RGBA CL_FLOAT */
static uint16_t s_u[SH][SW][2];       /* CL_RG CL_UNSIGNED_INT16 */

/* One axis of the OpenCL C image addressing rules (section "Image
 * Addressing and Filtering"): texel indices and, for linear filtering, the
 * weight of the second one. */
static int ref_axis(unsigned smp, float s, int n, int i[2], float *a)
{
    unsigned am = smp & 0xe;
    bool lin = (smp & 0x30) == S_LINEAR;
    float u;
    if (am == S_REPEAT)
        u = (s - floorf(s)) * (float)n;
    else if (am == S_MIRROR)
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
    else
        u = smp & S_NORM ? s * (float)n : s;
    if (!lin) {
        i[0] = (int)floorf(u);
        if (am == S_REPEAT && i[0] > n - 1)
            i[0] -= n;
        if (am == S_MIRROR && i[0] > n - 1)
            i[0] = n - 1;
        if (am == S_EDGE)
            i[0] = i[0] < 0 ? 0 : i[0] > n - 1 ? n - 1 : i[0];
        if (am == S_CLAMP)
            i[0] = i[0] < -1 ? -1 : i[0] > n ? n : i[0];
        return 1;
    }
    i[0] = (int)floorf(u - 0.5f);
    i[1] = i[0] + 1;
    *a = (u - 0.5f) - floorf(u - 0.5f);
    if (am == S_REPEAT) {
        if (i[0] < 0)
            i[0] += n;
        if (i[1] > n - 1)
            i[1] -= n;
    } else if (am == S_MIRROR) {
        i[0] = i[0] < 0 ? 0 : i[0];
        i[1] = i[1] > n - 1 ? n - 1 : i[1];
    } else {
        for (int k = 0; k < 2; k++) {
            if (am == S_EDGE)
                i[k] = i[k] < 0 ? 0 : i[k] > n - 1 ? n - 1 : i[k];
            else
                i[k] = i[k] < -1 ? -1 : i[k] > n ? n : i[k];
        }
    }
    return 2;
}

/* texel of the float image, border colour (0,0,0,0) outside (CL_RGBA) */
static float ref_tf(int x, int y, int c)
{
    return x < 0 || y < 0 || x >= SW || y >= SH ? 0.0f : s_f[y][x][c];
}

/* texel of the CL_RG image: (r, g, 0, 1), border (0,0,0,1) */
static uint32_t ref_tu(int x, int y, int c)
{
    if (c >= 2)
        return c == 3;
    return x < 0 || y < 0 || x >= SW || y >= SH ? 0 : s_u[y][x][c];
}

static void ref_samplef(unsigned smp, float x, float y, float out[4])
{
    int i[2], j[2];
    float a = 0, b = 0;
    int n = ref_axis(smp, x, SW, i, &a);
    ref_axis(smp, y, SH, j, &b);
    for (int c = 0; c < 4; c++)
        out[c] = n == 1 ? ref_tf(i[0], j[0], c)
                        : (1 - a) * (1 - b) * ref_tf(i[0], j[0], c) + a * (1 - b) * ref_tf(i[1], j[0], c) +
                          (1 - a) * b * ref_tf(i[0], j[1], c) + a * b * ref_tf(i[1], j[1], c);
}

static void test_sampler(void **state)
{
    (void)state;
    enum { G = 195 };
    static float co[G][2], of[G][4], orep[G][4];
    static uint32_t ou[G][4], oint[G][4];
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            for (int c = 0; c < 4; c++)
                s_f[y][x][c] = (float)urand(-8, 8);
            s_u[y][x][0] = (uint16_t)rnd();
            s_u[y][x][1] = (uint16_t)rnd();
        }
    cli_put("fim.bin", s_f, sizeof s_f);
    cli_put("uim.bin", s_u, sizeof s_u);
    cli_compile("sampler", "CL2.0");
    static const unsigned modes[] = {
        S_EDGE | S_NEAREST, S_CLAMP | S_NEAREST, S_EDGE | S_LINEAR, S_CLAMP | S_LINEAR,
        S_NORM | S_EDGE | S_NEAREST, S_NORM | S_CLAMP | S_NEAREST, S_NORM | S_REPEAT | S_NEAREST,
        S_NORM | S_MIRROR | S_NEAREST, S_NORM | S_EDGE | S_LINEAR, S_NORM | S_CLAMP | S_LINEAR,
        S_NORM | S_REPEAT | S_LINEAR, S_NORM | S_MIRROR | S_LINEAR,
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        unsigned smp = modes[m];
        bool norm = smp & S_NORM;
        for (int i = 0; i < G; i++) {
            co[i][0] = norm ? (float)urand(-1.7, 2.7) : (float)urand(-3, SW + 3);
            co[i][1] = norm ? (float)urand(-1.7, 2.7) : (float)urand(-3, SH + 3);
        }
        /* hand-worked points (7x5 image) */
        co[0][0] = norm ? 1.25f : 2.75f;    /* norm repeat: u = 1.75 -> 1; unnorm: 2 */
        co[0][1] = norm ? -0.1f : 1.25f;    /* norm repeat: 0.9 * 5 = 4.5 -> 4; unnorm: 1 */
        co[1][0] = 1.3f;                    /* mirrored: |1.3 - 2| * 7 = 4.9 -> 4 */
        co[1][1] = -0.3f;                   /* mirrored: |-0.3 - 0| * 5 = 1.5 -> 1 */
        cli_put("co.bin", co, sizeof co);
        int w = (int)(m % 3);
        cli_run_ok("run %s/sampler.spv --kernel sampf --sg %u --global %d --local 65 "
                   "--arg fim=image2d:%dx%d:CL_RGBA:CL_FLOAT:@%s/fim.bin --arg s=%u "
                   "--arg co=float:@%s/co.bin --arg of=float:zeros:%d --arg orep=float:zeros:%d "
                   "--out of=%s/of.bin --out orep=%s/orep.bin -q", tmpdir, widths[w], G, SW, SH,
                   tmpdir, smp, tmpdir, G * 4, G * 4, tmpdir, tmpdir);
        cli_get("of.bin", of, sizeof of);
        cli_get("orep.bin", orep, sizeof orep);
        if (smp == (S_NORM | S_REPEAT | S_NEAREST))
            assert_memory_equal(of[0], s_f[4][1], 16);
        if (smp == (S_EDGE | S_NEAREST))
            assert_memory_equal(of[0], s_f[1][2], 16);
        if (smp == (S_NORM | S_MIRROR | S_NEAREST))
            assert_memory_equal(of[1], s_f[1][4], 16);
        if (norm)
            assert_memory_equal(orep[0], s_f[4][1], 16);   /* the program-scope sampler */
        for (int i = 0; i < G; i++) {
            float want[4], rep[4];
            ref_samplef(smp, co[i][0], co[i][1], want);
            ref_samplef(S_NORM | S_REPEAT | S_NEAREST, co[i][0], co[i][1], rep);
            assert_memory_equal(orep[i], rep, sizeof rep);
            for (int c = 0; c < 4; c++)
                if (fabsf(of[i][c] - want[c]) > ((smp & 0x30) == S_LINEAR ? 1e-5f : 0.0f))
                    fail_msg("sampler 0x%x at (%a, %a) channel %d: %a, want %a", smp,
                             (double)co[i][0], (double)co[i][1], c, (double)of[i][c],
                             (double)want[c]);
        }
        if ((smp & 0x30) == S_LINEAR)
            continue;
        cli_run_ok("run %s/sampler.spv --kernel sampu --sg %u --global %d --local 65 "
                   "--arg uim=image2d:%dx%d:CL_RG:CL_UNSIGNED_INT16:@%s/uim.bin --arg s=%u "
                   "--arg co=float:@%s/co.bin --arg ou=uint:zeros:%d --arg oint=uint:zeros:%d "
                   "--out ou=%s/ou.bin --out oint=%s/oint.bin -q", tmpdir, widths[w], G, SW, SH,
                   tmpdir, smp, tmpdir, G * 4, G * 4, tmpdir, tmpdir);
        cli_get("ou.bin", ou, sizeof ou);
        cli_get("oint.bin", oint, sizeof oint);
        for (int i = 0; i < G; i++) {
            int xi[2], yj[2];
            float a;
            ref_axis(smp, co[i][0], SW, xi, &a);
            ref_axis(smp, co[i][1], SH, yj, &a);
            int ex = (i & 15) - 3, ey = (i >> 4) - 2;   /* int2 coordinates, clamp to edge */
            ex = ex < 0 ? 0 : ex > SW - 1 ? SW - 1 : ex;
            ey = ey < 0 ? 0 : ey > SH - 1 ? SH - 1 : ey;
            for (int c = 0; c < 4; c++) {
                assert_int_equal(ou[i][c], ref_tu(xi[0], yj[0], c));
                assert_int_equal(oint[i][c], ref_tu(ex, ey, c));
            }
        }
    }
}

/* ------------------------------------------------------------ exact lowerings */

static void want_f(float got, float want, float tol, const char *what, int i)
{
    bool ok = isnan(want) ? isnan(got)
            : tol == 0 ? memcmp(&got, &want, 4) == 0
                       : fabsf(got - want) <= tol * fmaxf(1.0f, fabsf(want));
    if (!ok)
        fail_msg("%s (input %d): %a, want %a", what, i, (double)got, (double)want);
}

static float bits_to_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float ref_mag(float x, float y, bool max)
{
    float ax = fabsf(x), ay = fabsf(y);
    if (max ? ax > ay : ax < ay)
        return x;
    if (max ? ay > ax : ay < ax)
        return y;
    return max ? fmaxf(x, y) : fminf(x, y);
}

static void test_extra(void **state)
{
    (void)state;
    enum { G = 256 };
    static const float sp[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 1e30f,
                                -1e30f, INFINITY, -INFINITY, NAN, 8388607.5f, -8388607.5f,
                                0.49999997f, -0.49999997f, 1e-40f, 3.0f, -7.25f };
    static float a[G], b[G], o[G * 37];
    static int32_t r[G * 10], ia[G], ib[G], io[G * 14];
    static uint8_t c[G * 2], oc[G * 4];
    static int64_t ol[G * 2];
    enum { NSP = sizeof sp / sizeof sp[0] };
    for (int i = 0; i < G; i++) {
        a[i] = i < NSP * 4 ? sp[i % NSP] : (float)urand(-100, 100);
        b[i] = i < NSP * 4 ? sp[(i / NSP + i) % NSP] : (float)urand(-100, 100);
        ia[i] = (int32_t)rnd();
        ib[i] = (int32_t)rnd();
        if (i % 7 == 0) ia[i] = i % 2 ? INT32_MAX : INT32_MIN;
        if (i % 11 == 0) ib[i] = i % 3 ? 0 : -1;
        if (i % 13 == 0) ia[i] = 0;
        c[2 * i] = (uint8_t)rnd();
        c[2 * i + 1] = (uint8_t)rnd();
        if (i % 5 == 0) c[2 * i] = 0;
    }
    static const float ties[][2] = { { 2.5f, 1.0f }, { 3.5f, 1.0f }, { -2.5f, 1.0f },
                                     { 5.0f, 2.0f }, { 7.0f, -2.0f }, { 1e30f, 3.0f } };
    for (size_t k = 0; k < sizeof ties / sizeof ties[0]; k++) {   /* remainder ties */
        a[NSP * 4 + k] = ties[k][0];
        b[NSP * 4 + k] = ties[k][1];
    }
    cli_put("a.bin", a, sizeof a);
    cli_put("b.bin", b, sizeof b);
    cli_put("ia.bin", ia, sizeof ia);
    cli_put("ib.bin", ib, sizeof ib);
    cli_put("c.bin", c, sizeof c);
    cli_compile("extra", "CL2.0");
    for (int w = 0; w < 3; w++) {
        cli_run_ok("run %s/extra.spv --kernel fext --sg %u --global %d --local 64 "
                   "--arg a=float:@%s/a.bin --arg b=float:@%s/b.bin --arg o=float:zeros:%d "
                   "--arg r=int:zeros:%d --out o=%s/o.bin --out r=%s/r.bin -q", tmpdir, widths[w],
                   G, tmpdir, tmpdir, G * 37, G * 10, tmpdir, tmpdir);
        cli_get("o.bin", o, sizeof o);
        cli_get("r.bin", r, sizeof r);
        for (int i = 0; i < G; i++) {
            float x = a[i], y = b[i];
            const float *p = &o[i * 37];
            check_f32(p[36], remainderf(x, y), 0, "remainder", x, y);
            check_f32(p[35], nextafterf(x, y), 0, "nextafter", x, y);
            int fe = 0;
            float fm = isfinite(x) ? frexpf(x, &fe) : x;
            check_f32(p[33], fm, 0, "frexp", x, 0);
            assert_int_equal(r[i * 10 + 9], fe);
            check_f32(p[34], cbrt((double)x), 1, "cbrt", x, 0);
            {   /* normalize((x, y, 1.5, -2)).z, infinities as their signs */
                double vx = x, vy = y, vz = 1.5, vw = -2.0;
                if (isinf(x) || isinf(y)) {
                    vx = isinf(x) ? copysign(1.0, x) : 0.0;
                    vy = isinf(y) ? copysign(1.0, y) : 0.0;
                    vz = vw = 0.0;
                }
                check_f32(p[30], vz / sqrt(vx * vx + vy * vy + vz * vz + vw * vw), 1,
                          "normalize", x, y);
            }
            check_f32(p[31], logbf(x), 0, "logb", x, 0);
            uint32_t nb = f_to_bits(p[32]);
            assert_int_equal(nb, 0x7fc00000u | (uint32_t)i);
            assert_int_equal(r[i * 10 + 8], x == 0 ? INT32_MIN : !isfinite(x) ? INT32_MAX : ilogbf(x));
            float ipart;
            want_f(p[22], isnan(x) ? NAN : isinf(x) ? copysignf(0.0f, x)
                                                    : fminf(x - floorf(x), 0x1.fffffep-1f),
                   0, "fract", i);
            want_f(p[23], floorf(x), 0, "fract iptr", i);
            want_f(p[24], modff(x, &ipart), 0, "modf", i);
            want_f(p[25], ipart, 0, "modf iptr", i);
            if (isfinite(x)) {
                float st = fminf(fmaxf((x + 1.0f) / 3.0f, 0.0f), 1.0f);
                want_f(p[26], st * st * (3.0f - 2.0f * st), 1e-6f, "smoothstep", i);
            }
            check_f32(p[27], hypot((double)x, (double)y), 1, "hypot", x, y);
            check_f32(p[28], sin((double)x), 1, "sincos sin", x, 0);
            check_f32(p[29], cos((double)x), 1, "sincos cos", x, 0);
            check_f32(p[20], tan((double)x), 1, "tan", x, 0);
            check_f32(p[21], ldexp((double)x, (i * 37 & 511) - 256), 0, "ldexp", x,
                      (i * 37 & 511) - 256);
            want_f(p[0], floorf(x), 0, "floor", i);
            want_f(p[1], ceilf(x), 0, "ceil", i);
            want_f(p[2], truncf(x), 0, "trunc", i);
            want_f(p[3], rintf(x), 0, "rint", i);
            want_f(p[4], roundf(x), 0, "round", i);
            want_f(p[5], copysignf(x, y), 0, "copysign", i);
            want_f(p[6], isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0f, 0, "fdim", i);
            if (x == 0 && y == 0) {   /* fmax/fmin of +-0: either zero (C99 F.9.9.2) */
                assert_true(p[7] == 0 && p[8] == 0);
            } else {
                want_f(p[7], ref_mag(x, y, true), 0, "maxmag", i);
                want_f(p[8], ref_mag(x, y, false), 0, "minmag", i);
            }
            want_f(p[9], x < y ? 0.0f : 1.0f, 0, "step", i);
            want_f(p[10], isnan(x) ? 0.0f : x > 0 ? 1.0f : x < 0 ? -1.0f : x, 0, "sign", i);
            if (isfinite(x) && isfinite(y) && fabsf(x) < 1e20f && fabsf(y) < 1e20f) {
                want_f(p[11], x + (y - x) * 0.25f, 1e-6f, "mix", i);
                want_f(p[12], x * 57.29577951308232f, 1e-6f, "degrees", i);
                want_f(p[13], x * 0.017453292519943295f, 1e-6f, "radians", i);
                double d = (double)x * y + (double)y * 0.25 + 1.5 * x - 6.0;
                double mag = fabs((double)x * y) + fabs(y * 0.25) + fabs(1.5 * x) + 6.0;
                if (fabs(p[16] - d) > 1e-6 * mag + 1e-30)
                    fail_msg("dot (input %d): %a, want %a", i, (double)p[16], d);
                want_f(p[17], (float)sqrt((double)x * x + (double)y * y + 2.25), 1e-6f,
                       "length", i);
                double d0 = (double)(x - y), d1 = (double)(y - 0.25f), d2 = (double)(1.5f - x);
                want_f(p[18], (float)sqrt(d0 * d0 + d1 * d1 + d2 * d2 + 25.0), 1e-6f,
                       "distance", i);
                want_f(p[19], 1.5f * y - x * x, 1e-6f, "cross", i);
            }
            want_f(p[14], i & 1 ? y : x, 0, "select", i);
            uint32_t m = 0x80ff00ffu;
            want_f(p[15], bits_to_f((f_to_bits(x) & ~m) | (f_to_bits(y) & m)), 0, "bitselect", i);
            const int32_t *q = &r[i * 10];
            assert_int_equal(q[0], isfinite(x) ? 1 : 0);
            assert_int_equal(q[1], isnormal(x) ? 1 : 0);
            assert_int_equal(q[2], signbit(x) ? 1 : 0);
            assert_int_equal(q[3], !isnan(x) && !isnan(y));
            assert_int_equal(q[4], isnan(x) || isnan(y));
            bool m0 = x < y, m1 = y < x, m2 = x < 0, m3 = y < 0;
            assert_int_equal(q[5], m0 || m1 || m2 || m3);
            assert_int_equal(q[6], m0 && m1 && m2 && m3);
            assert_int_equal(q[7], m2 ? 22 : 11);
        }
        cli_run_ok("run %s/extra.spv --kernel iext --sg %u --global %d --local 64 "
                   "--arg a=int:@%s/ia.bin --arg b=int:@%s/ib.bin --arg o=int:zeros:%d "
                   "--arg c=uchar:@%s/c.bin --arg oc=uchar:zeros:%d --arg ol=long:zeros:%d "
                   "--out o=%s/io.bin --out oc=%s/oc.bin --out ol=%s/ol.bin -q", tmpdir, widths[w],
                   G, tmpdir, tmpdir, G * 14, tmpdir, G * 4, G * 2, tmpdir, tmpdir, tmpdir);
        cli_get("io.bin", io, sizeof io);
        cli_get("oc.bin", oc, sizeof oc);
        cli_get("ol.bin", ol, sizeof ol);
        for (int i = 0; i < G; i++) {
            int32_t x = ia[i], y = ib[i];
            uint32_t ux = (uint32_t)x, uy = (uint32_t)y, rr = uy & 31;
            const int32_t *p = &io[i * 14];
            int64_t sum = (int64_t)x + y, dif = (int64_t)x - y;
            uint32_t rot = rr ? (ux << rr) | (ux >> (32 - rr)) : ux;
            assert_int_equal(p[0], x ? __builtin_ctz(ux) : 32);
            assert_int_equal((uint32_t)p[1], rot);
            assert_int_equal(p[2], sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum);
            assert_int_equal(p[3], dif > INT32_MAX ? INT32_MAX : dif < INT32_MIN ? INT32_MIN : dif);
            uint64_t us = (uint64_t)ux + uy;
            assert_int_equal((uint32_t)p[4], us > UINT32_MAX ? UINT32_MAX : (uint32_t)us);
            assert_int_equal((uint32_t)p[5], ux > uy ? ux - uy : 0);
            assert_int_equal(p[6], (int32_t)(sum >> 1));
            assert_int_equal(p[7], (int32_t)((sum + 1) >> 1));
            assert_int_equal((uint32_t)p[8], (uint32_t)(us >> 1));
            assert_int_equal((uint32_t)p[9], (uint32_t)(dif < 0 ? -dif : dif));
            assert_int_equal((uint32_t)p[10], ux > uy ? ux - uy : uy - ux);
            assert_int_equal((uint32_t)p[11], (uint32_t)(((int64_t)x * y) >> 32) + 7u);
            assert_int_equal((uint32_t)p[12], (uint32_t)(((uint64_t)ux * uy) >> 32) + 7u);
            assert_int_equal((uint32_t)p[13], rot);
            uint8_t cx = c[2 * i], cy = c[2 * i + 1], cr = cy & 7;
            int sc = (int8_t)cx + (int8_t)cy;
            assert_int_equal(oc[4 * i], cx + cy > 255 ? 255 : cx + cy);
            assert_int_equal(oc[4 * i + 1], (uint8_t)(sc > 127 ? 127 : sc < -128 ? -128 : sc));
            assert_int_equal(oc[4 * i + 2], (uint8_t)(cr ? (cx << cr) | (cx >> (8 - cr)) : cx));
            assert_int_equal(oc[4 * i + 3], cx ? __builtin_ctz(cx) : 8);
            assert_int_equal(ol[2 * i], (int64_t)(((uint64_t)(uint32_t)x << 32) | ux));
            int64_t l1 = (int64_t)((uint64_t)(int64_t)x << 33), l2 = (int64_t)((uint64_t)(int64_t)y << 33), ls;
            if (__builtin_add_overflow(l1, l2, &ls))
                ls = l1 < 0 ? INT64_MIN : INT64_MAX;
            assert_int_equal(ol[2 * i + 1], ls);
        }
        /* casts: as_type regrouping and saturating conversions */
        static uint32_t ca[G * 2], cu[G * 2];
        static uint64_t cl[G];
        static uint8_t cc[G * 4];
        static int32_t ci[G * 4];
        for (int i = 0; i < G * 2; i++)
            ca[i] = (uint32_t)ia[i / 2] ^ (i & 1 ? (uint32_t)ib[i / 2] : 0u);
        cli_put("ca.bin", ca, sizeof ca);
        cli_run_ok("run %s/extra.spv --kernel casts --sg %u --global %d --local 64 "
                   "--arg a=uint:@%s/ca.bin --arg ol=ulong:zeros:%d --arg ou=uint:zeros:%d "
                   "--arg oc=uchar:zeros:%d --arg oi=int:zeros:%d --out ol=%s/cl.bin "
                   "--out ou=%s/cu.bin --out oc=%s/cc.bin --out oi=%s/ci.bin -q", tmpdir,
                   widths[w], G, tmpdir, G, G * 2, G * 4, G * 4, tmpdir, tmpdir, tmpdir, tmpdir);
        cli_get("cl.bin", cl, sizeof cl);
        cli_get("cu.bin", cu, sizeof cu);
        cli_get("cc.bin", cc, sizeof cc);
        cli_get("ci.bin", ci, sizeof ci);
        for (int i = 0; i < G; i++) {
            uint32_t x = ca[2 * i], y = ca[2 * i + 1];
            uint64_t l = (((uint64_t)y << 32) | x) ^ 0x0123456789abcdefull;
            assert_int_equal(cl[i], l);
            assert_int_equal(cu[2 * i], (uint32_t)(l + (uint64_t)i));
            assert_int_equal(cu[2 * i + 1], (uint32_t)((l + (uint64_t)i) >> 32));
            uint32_t s = x + y;
            for (int k = 0; k < 4; k++)
                assert_int_equal(cc[4 * i + k], (s >> (8 * (3 - k))) & 255);
            int32_t sx = (int32_t)x;
            assert_int_equal((uint32_t)ci[4 * i], sx < 0 ? 0u : (uint32_t)sx);
            assert_int_equal(ci[4 * i + 1], y > INT32_MAX ? INT32_MAX : (int32_t)y);
            assert_int_equal(ci[4 * i + 2], sx < 0 ? 0 : sx > 255 ? 255 : sx);
            assert_int_equal(ci[4 * i + 3], y > 127 ? 127 : (int32_t)y);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("cover");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_aggregates),
        cmocka_unit_test(test_aggregate_values),
        cmocka_unit_test(test_vecmem),
        cmocka_unit_test(test_vshuffle),
        cmocka_unit_test(test_half_builtins),
        cmocka_unit_test(test_switch_narrow),
        cmocka_unit_test(test_async_copy),
        cmocka_unit_test(test_debug_lines),
        cmocka_unit_test(test_const_data),
        cmocka_unit_test(test_sampler),
        cmocka_unit_test(test_extra),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
