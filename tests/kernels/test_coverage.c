/* test_coverage.c - OpenCL C kernels for the front-end coverage added after
 * the first corpus (tests/kernels/math.cl, aggregates.cl, ...): compiled with
 * clang-14 + llvm-spirv-14, checked with spirv-val, run through
 * `sgemu run K.spv` and compared with C references written here from the
 * OpenCL C definitions (libm for pow). */
#include "cli_harness.h"

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
static char tmpdir[64];

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

/* uniform in [lo, hi) */
static double urand(double lo, double hi)
{
    return lo + (hi - lo) * (rnd() / 4294967296.0);
}

static void put(const char *name, const void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void get(const char *name, void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(p, 1, n, f), n);
    fclose(f);
}

/* Compile tests/kernels/NAME.cl to TMP/NAME.spv and validate it. */
static void compile(const char *name, const char *std)
{
    if (system("command -v clang-14 >/dev/null && command -v llvm-spirv-14 >/dev/null && "
               "command -v spirv-val >/dev/null") != 0)
        fail_msg("clang-14, llvm-spirv-14 and spirv-val (spirv-tools) are needed for the "
                 "kernel corpus (bash tools/dev.sh installs them)");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "clang-14 -cl-std=%s -target spir64 -emit-llvm -c -include opencl-c.h "
             "-cl-kernel-arg-info -O2 -I %s/tests/kernels %s/tests/kernels/%s.cl -o %s/%s.bc && "
             "llvm-spirv-14 --spirv-ext=+SPV_INTEL_subgroups "
             "--preserve-ocl-kernel-arg-type-metadata-through-string %s/%s.bc -o %s/%s.spv && "
             "spirv-val %s/%s.spv", std, cli_src(), cli_src(), name, tmpdir, name, tmpdir, name,
             tmpdir, name, tmpdir, name);
    if (system(cmd) != 0)
        fail_msg("compiling or validating %s.cl failed: %s", name, cmd);
}

static void run_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run_ok(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    cli_result r = cli_run("%s", cmd);
    if (r.status != 0)
        fprintf(stderr, "sgemu %s failed (%d): %s\n", cmd, r.status, r.err);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);
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
    put("x.bin", x, sizeof x);
    put("y.bin", y, sizeof y);
    put("n.bin", n, sizeof n);
    put("dx.bin", dx, sizeof dx);
    put("dy.bin", dy, sizeof dy);
    compile("math", "CL2.0");
    for (int w = 0; w < 3; w++) {
        run_ok("run %s/math.spv --kernel powk --sg %u --global %d --local 64 "
               "--arg x=float:@%s/x.bin --arg y=float:@%s/y.bin --arg n=int:@%s/n.bin "
               "--arg out=float:zeros:%d --out out=%s/out.bin -q", tmpdir, widths[w], G,
               tmpdir, tmpdir, tmpdir, G * 4, tmpdir);
        get("out.bin", out, sizeof out);
        for (i = 0; i < G; i++) {
            check_f32(out[4 * i], pow(x[i], y[i]), 1, "pow", x[i], y[i]);
            check_f32(out[4 * i + 1], pow(x[i], n[i]), 1, "pown", x[i], n[i]);
            check_f32(out[4 * i + 2], ref_rootn(x[i], n[i]), 1, "rootn", x[i], n[i]);
            check_f32(out[4 * i + 3], pow(x[i], y[i ^ 1]), 1, "pow.y", x[i], y[i ^ 1]);
        }
        run_ok("run %s/math.spv --kernel powd --sg %u --global %d --local 64 "
               "--arg x=double:@%s/dx.bin --arg y=double:@%s/dy.bin "
               "--arg out=double:zeros:%d --out out=%s/dout.bin -q", tmpdir, widths[w], G,
               tmpdir, tmpdir, G, tmpdir);
        get("dout.bin", dout, sizeof dout);
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
    put("in.bin", in, sizeof in);
    put("tio.bin", tio, sizeof tio);
    put("bin.bin", bin, sizeof bin);
    compile("aggregates", "CL2.0");
    for (int w = 0; w < 3; w++) {
        run_ok("run %s/aggregates.spv --kernel structs --sg %u --global %d --local %d "
               "--arg in=uchar:@%s/in.bin --arg out=uchar:zeros:%zu --arg tio=uchar:@%s/tio.bin "
               "--arg ls=local:%zu --out out=%s/out.bin --out tio=%s/tout.bin -q", tmpdir,
               widths[w], G, L, tmpdir, sizeof out, tmpdir, L * sizeof(agg_s), tmpdir, tmpdir);
        get("out.bin", out, sizeof out);
        get("tout.bin", tout, sizeof tout);
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
        run_ok("run %s/aggregates.spv --kernel bytes --sg %u --global %d --local %d "
               "--arg in=uchar:@%s/bin.bin --arg out=uchar:zeros:%d --arg sh=%d "
               "--out out=%s/bout.bin -q", tmpdir, widths[w], G, L, tmpdir, G * 13, SH, tmpdir);
        get("bout.bin", bout, sizeof bout);
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
    put("in.bin", in, sizeof in);
    put("out.bin", out, sizeof out);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "spirv-as %s/tests/spirv/aggregate_values.spvasm -o %s/av.spv && "
             "spirv-val %s/av.spv", cli_src(), tmpdir, tmpdir);
    if (system(cmd) != 0)
        fail_msg("assembling or validating aggregate_values.spvasm failed: %s", cmd);
    assert_int_equal(sizeof(agg_v), 32);
    for (int w = 0; w < 3; w++) {
        run_ok("run %s/av.spv --sg %u --global %d --local 16 --arg in=uchar:@%s/in.bin "
               "--arg out=uchar:@%s/out.bin --out out=%s/res.bin -q", tmpdir, widths[w], G,
               tmpdir, tmpdir, tmpdir);
        static agg_v res[G * 4];
        get("res.bin", res, sizeof res);
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
    put("a.bin", a, sizeof a);
    put("h.bin", h, sizeof h);
    put("ia.bin", ia, sizeof ia);
    compile("vecmem", "CL2.0");
    for (int w = 0; w < 3; w++) {
        run_ok("run %s/vecmem.spv --sg %u --global %d --local 32 --arg a=float:@%s/a.bin "
               "--arg o=float:zeros:%d --arg h=ushort:@%s/h.bin --arg oh=ushort:zeros:%d "
               "--arg ia=int:@%s/ia.bin --arg io=int:zeros:%d --out o=%s/o.bin "
               "--out oh=%s/oh.bin --out io=%s/io.bin -q", tmpdir, widths[w], G, tmpdir, 7 * G,
               tmpdir, 9 * G, tmpdir, 2 * G, tmpdir, tmpdir, tmpdir);
        get("o.bin", o, sizeof o);
        get("oh.bin", oh, sizeof oh);
        get("io.bin", io, sizeof io);
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

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sgemu-cover-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pow),
        cmocka_unit_test(test_aggregates),
        cmocka_unit_test(test_aggregate_values),
        cmocka_unit_test(test_vecmem),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
