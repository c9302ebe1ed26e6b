/* test_printf.c - OpenCL C printf (tests/kernels/printf.cl) through
 * `sgemu run`: every line the kernels print is computed here with the host
 * C library's snprintf on the same values, by the OpenCL C rules (scalar
 * floats as double, vector components joined by ',', hh / h / hl / l as
 * char / short / int or float / long or double components), in the
 * documented order (work-group, sub-group, lane, program order); the return
 * values (0, or -1 once the buffer is full); the buffer bound and its
 * warning; the --json field; formats sgemu refuses at translation. */
#include "kernel_harness.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define SPV "printf.spv"

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void ap(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ap(sbuf *b, const char *fmt, ...)
{
    va_list a, c;
    va_start(a, fmt);
    va_copy(c, a);
    int n = vsnprintf(NULL, 0, fmt, c);
    va_end(c);
    assert_true(n >= 0);
    if (b->n + (size_t)n + 1 > b->cap) {
        b->cap = (b->n + (size_t)n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, a);
    va_end(a);
    b->n += (size_t)n;
}

/* The components of a vector conversion: spec applied to each, ','
 * between (OpenCL C 6.15.14.3). */
#define VEC(b, spec, n, expr) \
    for (int k_ = 0; k_ < (n); k_++) { \
        if (k_) \
            ap(b, ","); \
        ap(b, spec, expr); \
    }

/* binary16 -> double from the format's definition (1 sign, 5 exponent, 10
 * fraction bits, bias 15). */
static double half_value(uint16_t h)
{
    int e = h >> 10 & 31, f = h & 1023;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(1024 + f, e - 25);
    return h >> 15 ? -v : v;
}

static const int32_t iv[8] = { 0, -1, 123456789, INT_MIN, INT_MAX, 300, -129, 65542 };
static const int64_t lv[8] = { 0, -1, INT64_MIN, INT64_MAX, 1234567890123LL, -98765432109876LL,
                                255, 4294967296LL };
static float fv[8];
static const uint16_t hv[4] = { 0x3e00, 0x8000, 0x7bff, 0x0001 };   /* 1.5 -0 65504 2^-24 */
static const double dv[4] = { 0.1, -1e300, 4.9e-324, 2.0 / 3.0 };

static int setup(void **state)
{
    (void)state;
    const float f[8] = { 1.5f, -0.0f, 3.14159274f, 1e-40f, 1e30f, INFINITY, NAN, -2.5e-5f };
    memcpy(fv, f, sizeof fv);
    if (cli_tmpdir_make("printf"))
        return -1;
    cli_put("iv.bin", iv, sizeof iv);
    cli_put("lv.bin", lv, sizeof lv);
    cli_put("fv.bin", fv, sizeof fv);
    cli_put("hv.bin", hv, sizeof hv);
    cli_put("dv.bin", dv, sizeof dv);
    cli_compile("printf", "CL2.0");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

static void expect_text(const char *got, const sbuf *want)
{
    if (strcmp(got, want->p)) {
        /* the first differing line, for the log */
        size_t i = 0;
        while (got[i] && got[i] == want->p[i])
            i++;
        while (i && got[i - 1] != '\n')
            i--;
        fail_msg("printf output differs at byte %zu:\n got: %.200s\nwant: %.200s", i, got + i,
                 want->p + i);
    }
}

static void expect_ret(const char *name, size_t n, const int32_t *want)
{
    int32_t got[64];
    assert_true(n <= 64);
    cli_get(name, got, n * 4);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

static void test_conversions(void **state)
{
    (void)state;
    cli_result r = cli_run_checked(
        "run %s/" SPV " --kernel conversions --global 8 --local 4 --sg 8 --no-timing -q "
        "--arg iv=int:@%s/iv.bin --arg fv=float:@%s/fv.bin --arg lv=long:@%s/lv.bin "
        "--arg ret=int:zeros:8 --out ret=%s/ret.bin",
        cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir);
    sbuf e = { 0 };
    for (int i = 0; i < 8; i++) {
        const int x = iv[i];
        const unsigned u = (unsigned)x;
        const double f = fv[i];
        const long l = (long)lv[i];
        ap(&e, "d=%d i=%i o=%o u=%u x=%x X=%X\n", x, x, u, u, u, u);
        ap(&e, "[%-8d][%+d][% d][%08d][%.5d][%#o][%#x][%#X][%8.3x][%-+6i]\n",
           x, x, x, x, x, u, u, u, u, x);
        ap(&e, "hh=%hhd %hhu %hhx h=%hd %hu %hX %#ho\n", x, u, u, x, u, u, u);
        ap(&e, "l=%ld %li %lu %lx %lX %lo [%+20ld][%-22lu]\n", l, l, (unsigned long)l,
           (unsigned long)l, (unsigned long)l, (unsigned long)l, l, (unsigned long)l);
        ap(&e, "f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", f, f, f, f, f, f, f, f);
        ap(&e, "[%10.3f][%-12.4e][%+.2g][%#.0f][%010.2f][%.3a][% .1E][%#g][%lf]\n",
           f, f, f, f, f, f, f, f, f);
        /* %p: buffer iv is argument 0, at sgemu address 1 << 40 (architecture.md) */
        ap(&e, "c=%c[%-3c][%3c] s=%s[%10s][%-10s][%.2s] p=%p %%\n", 'A' + i, 'a' + i,
           '0' + i, "hello", "hi", "left", "precision", (void *)(uintptr_t)(UINT64_C(1) << 40));
        ap(&e, "[%*d][%-*d][%.*f][%*.*e][%*d][%.*f][%.*s]\n", 6, x, 6, x, 3, f, 12, 2, f,
           -5, x, -1, f, i, "abcdefgh");
    }
    expect_text(r.out, &e);
    /* the double a float argument is promoted to is no use of FP64 on the
     * default device (device.fp64 = 0) */
    assert_null(strstr(r.err, "double precision"));
    const int32_t zero[8] = { 0 };
    expect_ret("ret.bin", 8, zero);
    cli_result_free(&r);
    free(e.p);
}

static void test_vectors(void **state)
{
    (void)state;
    cli_result r = cli_run_checked(
        "run %s/" SPV " --kernel vectors --global 2 --sg 8 --no-timing -q "
        "--arg iv=int:@%s/iv.bin --arg fv=float:@%s/fv.bin --arg lv=long:@%s/lv.bin "
        "--arg hv=half:@%s/hv.bin --arg dv=double:@%s/dv.bin "
        "--arg ret=int:zeros:2 --out ret=%s/ret.bin",
        cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir, cli_tmpdir);
    sbuf e = { 0 };
    for (int i = 0; i < 2; i++) {
        const int32_t *a = iv + 4 * i;
        const float *f = fv + 4 * i;
        const int64_t *l = lv + 2 * i;
        const uint16_t *h = hv + 2 * i;
        const double *d = dv + 2 * i;
        unsigned char c[3];
        unsigned short s[8];
        signed char q[16];
        short t[4];
        for (int k = 0; k < 4; k++) {
            const unsigned ua = (unsigned)a[k];
            if (k < 3)
                c[k] = (unsigned char)ua;
            s[k] = (unsigned short)ua;
            s[k + 4] = (unsigned short)(ua * 3u);
            q[k] = (signed char)ua;
            q[k + 4] = (signed char)(ua + 1u);
            q[k + 8] = (signed char)(ua * 7u);
            q[k + 12] = (signed char)(0u - ua);
            t[k] = (short)ua;
        }
        VEC(&e, "%d", 4, a[k_]); ap(&e, "|");
        VEC(&e, "%d", 4, a[k_]); ap(&e, "|");
        VEC(&e, "%i", 4, a[k_]); ap(&e, "|");
        VEC(&e, "%+d", 4, a[k_]); ap(&e, "|");
        VEC(&e, "%x", 4, (unsigned)a[k_]); ap(&e, "|");
        VEC(&e, "%#X", 4, (unsigned)a[k_]); ap(&e, "|");
        VEC(&e, "%o", 4, (unsigned)a[k_]); ap(&e, "|");
        VEC(&e, "%u", 4, (unsigned)a[k_]); ap(&e, "\n");
        VEC(&e, "%f", 2, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%f", 4, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%.2f", 4, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%10.3e", 4, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%g", 4, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%A", 4, (double)f[k_]); ap(&e, "|");
        VEC(&e, "%-8.1f", 3, (double)f[k_]); ap(&e, "|\n");
        VEC(&e, "%ld", 2, (long)l[k_]); ap(&e, "|");
        VEC(&e, "%lu", 2, (unsigned long)l[k_]); ap(&e, "|");
        VEC(&e, "%#lx", 2, (unsigned long)l[k_]); ap(&e, "|");
        VEC(&e, "%lo", 2, (unsigned long)l[k_]); ap(&e, "|");
        VEC(&e, "%+li", 2, (long)l[k_]); ap(&e, "\n");
        VEC(&e, "%f", 2, half_value(h[k_])); ap(&e, "|");
        VEC(&e, "%.3e", 2, half_value(h[k_])); ap(&e, "|");
        VEC(&e, "%a", 2, half_value(h[k_])); ap(&e, "|");
        VEC(&e, "%g", 2, half_value(h[k_])); ap(&e, "\n");
        VEC(&e, "%f", 2, d[k_]); ap(&e, "|");
        VEC(&e, "%f", 2, d[k_]); ap(&e, "|");
        VEC(&e, "%.10g", 2, d[k_]); ap(&e, "|");
        VEC(&e, "%a", 2, d[k_]); ap(&e, "\n");
        VEC(&e, "%hhu", 3, c[k_]); ap(&e, "|");
        VEC(&e, "%#hhx", 3, c[k_]); ap(&e, "|");
        VEC(&e, "%hu", 8, s[k_]); ap(&e, "|");
        VEC(&e, "%08hx", 8, s[k_]); ap(&e, "|");
        VEC(&e, "%hhd", 16, q[k_]); ap(&e, "|");
        VEC(&e, "%hd", 4, t[k_]); ap(&e, "|");
        VEC(&e, "%+hi", 4, t[k_]); ap(&e, "\n");
        ap(&e, "%*.*f,%*.*f|", 8, 1, (double)f[0], 8, 1, (double)f[1]);
        ap(&e, "%-*d,%-*d|\n", 5, a[0], 5, a[1]);
    }
    expect_text(r.out, &e);
    assert_non_null(strstr(r.err, "double precision"));   /* it loads double2 values */
    const int32_t zero[2] = { 0 };
    expect_ret("ret.bin", 2, zero);
    cli_result_free(&r);
    free(e.p);
}

/* 2 x 2 work-groups of 12 work-items: at SIMD8 two sub-groups (8 + 4
 * lanes), at SIMD16 one; odd and even lanes print from the two arms of a
 * branch, then all after a barrier. */
static void test_order(void **state)
{
    (void)state;
    for (unsigned w = 8; w <= 16; w += 8) {
        cli_result r = cli_run_checked("run %s/" SPV " --kernel order --global 24,2 --local 12,1 "
                                       "--sg %u --arg ret=int:zeros:48 -q", cli_tmpdir, w);
        sbuf e = { 0 };
        for (int g = 0; g < 4; g++)
            for (int l = 0; l < 12; l++) {
                int sg = l / (int)w, lane = l % (int)w;
                ap(&e, "g%d sg%d lane%d l%d %s\n", g, sg, lane, l, lane & 1 ? "odd" : "even");
                ap(&e, "g%d sg%d lane%d l%d after\n", g, sg, lane, l);
            }
        expect_text(r.out, &e);
        cli_result_free(&r);
        free(e.p);
    }
}

/* A 200-byte buffer: each call takes 4 bytes + an 8-byte record, so 16
 * calls fit.  Work-group 0 (8 work-items, one sub-group) makes its 8 "%d"
 * calls, then its 8 "%d %d" calls: 192 bytes; work-group 1's first call
 * finds the buffer full, and every later call does too. */
static void test_buffer_full(void **state)
{
    (void)state;
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/small.yaml", cli_tmpdir);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs("device:\n  name: printf-test\n  printf_buffer_size: 200\n", f);
    fclose(f);
    cli_result r = cli_run_checked("run %s/" SPV " --kernel flood --config %s --global 16 "
                                   "--local 8 --sg 8 --arg ret=int:zeros:32 "
                                   "--out ret=%s/ret.bin -q", cli_tmpdir, cfg, cli_tmpdir);
    sbuf e = { 0 };
    int32_t want[32];
    const uint32_t cap = 200, take = 4 + 8;
    uint32_t used = 0;
    bool full = false;
    /* execution order: per work-group, the first call over the lanes, then
     * the second */
    for (int g = 0; g < 2; g++)
        for (int call = 0; call < 2; call++)
            for (int lane = 0; lane < 8; lane++) {
                int i = g * 8 + lane;
                full = full || used + take > cap;
                want[2 * i + call] = full ? -1 : 0;
                if (!full)
                    used += take;
            }
    for (int i = 0; i < 16; i++) {   /* output order: by work-item */
        if (!want[2 * i])
            ap(&e, "%d\n", i);
        if (!want[2 * i + 1])
            ap(&e, "%d %d\n", i, -i);
    }
    expect_text(r.out, &e);
    expect_ret("ret.bin", 32, want);
    assert_non_null(strstr(r.err, "sgemu: warning: kernel 'flood': the printf buffer "
                                  "(device.printf_buffer_size = 200 bytes) is full: 16 printf "
                                  "calls printed nothing and returned -1"));
    cli_result_free(&r);
    free(e.p);
    /* --json: the output as a string, the dropped calls counted */
    r = cli_run_checked("run %s/" SPV " --kernel flood --config %s --global 16 --local 8 "
                        "--sg 8 --arg ret=int:zeros:32 --json --no-timing", cli_tmpdir, cfg);
    assert_non_null(strstr(r.out, "\"printf\": \"0\\n0 0\\n1\\n1 -1\\n"));
    assert_non_null(strstr(r.out, "\"printf_dropped\": 16"));
    cli_result_free(&r);
}

/* What sgemu refuses when it translates, with the reason. */
static void test_refused(void **state)
{
    (void)state;
    static const struct { const char *src, *msg; } cases[] = {
        { "printf(\"%lld\\n\", 1L);", "the length modifier ll is not in OpenCL C" },
        { "printf(\"%n\\n\", 0);", "'%n' is not an OpenCL C printf conversion" },
        { "printf(\"%hlf\\n\", 1.0f);", "the hl length modifier needs a vector specifier" },
        { "printf(\"%v5hld\\n\", 1);", "the vector length must be 2, 3, 4, 8 or 16" },
        { "printf(\"%v2hhf\\n\", (float2)(1.0f, 2.0f));", "hh does not apply to a floating" },
        { "printf(\"%d %d\\n\", 1);", "the format takes 2 arguments, the call passes 1" },
        { "printf(\"%v4hld\\n\", (int2)(1, 2));", "argument 1 does not match '%d'" },
        { "printf(\"%*d\\n\", 3);", "the format takes 2 arguments, the call passes 1" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/bad.cl", cli_tmpdir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "#pragma clang diagnostic ignored \"-Wformat\"\n"
                   "kernel void k(global int *o) { %s }\n", cases[i].src);
        fclose(f);
        cli_result r = cli_run("spv2asm %s", path);
        assert_int_equal(r.status, 1);
        if (!strstr(r.err, cases[i].msg) || !strstr(r.err, "bad.cl:2:"))
            fail_msg("case %zu: expected '%s' at bad.cl:2, got: %s", i, cases[i].msg, r.err);
        cli_result_free(&r);
    }
}

/* The translated kernel reads back: spv2asm's .printf lines assemble to
 * the same kernel, which prints the same. */
static void test_roundtrip(void **state)
{
    (void)state;
    cli_result a = cli_run_checked("spv2asm %s/" SPV " --kernel conversions", cli_tmpdir);
    cli_put("conv.sgasm", a.out, strlen(a.out));
    cli_result b = cli_run_checked("disasm %s/conv.sgasm", cli_tmpdir);
    const char *body = a.out;
    while (*body == ';')        /* the register allocator's comment line */
        body = strchr(body, '\n') + 1;
    assert_non_null(strstr(body, ".printf \"d=%d i=%i o=%o u=%u x=%x X=%X\\n\"\n"));
    assert_string_equal(body, b.out);
    cli_result_free(&a);
    cli_result_free(&b);
    const char *args = "--global 3 --sg 8 --no-timing -q --arg iv=int:@%s/iv.bin "
                       "--arg fv=float:@%s/fv.bin --arg lv=long:@%s/lv.bin --arg ret=int:zeros:3";
    char fa[512], fb[512];
    snprintf(fa, sizeof fa, args, cli_tmpdir, cli_tmpdir, cli_tmpdir);
    snprintf(fb, sizeof fb, "%s", fa);
    cli_result x = cli_run_checked("run %s/" SPV " --kernel conversions %s", cli_tmpdir, fa);
    cli_result y = cli_run_checked("run %s/conv.sgasm %s", cli_tmpdir, fb);
    assert_true(strlen(x.out) > 100);
    assert_string_equal(x.out, y.out);
    cli_result_free(&x);
    cli_result_free(&y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_buffer_full),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_roundtrip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
