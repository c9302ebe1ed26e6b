/* test_gen_exec.c - IGC's Gen ISA executed by sgemu (docs/gen.md): small
 * OpenCL C kernels compiled with ocloc for tgllp at SIMD8, 16 and 32, with
 * buffers reached through the binding table (ocloc's default) and through
 * A64 stateless pointers, run on the Xe-LP config and checked against
 * references computed here directly from the OpenCL C definitions.
 * Skips (77) when ocloc or libiga64 is missing. */
#include "sgemu.h"
#include "gen/gen.h"

#include <fenv.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_args.h"

static emu_config cfg;
static char kdir[1024];

static const uint32_t widths[] = { 8, 16, 32 };
/* ocloc's default (binding table) and A64 stateless addressing */
static const char *const modes[] = { "", "-cl-intel-greater-than-4GB-buffer-required" };

static void load_for(const char *device, const char *file, uint32_t width, const char *mode,
                     isa_kernel *k)
{
    char path[1200], opts[256], err[2048];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    snprintf(opts, sizeof opts, "-DWIDTH=%u %s", width, mode);
    int rc = sgemu_load_igc(path, device, opts, 0, NULL, k, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(k->gen);
    assert_int_equal(k->gen->simd, width);
}

static void load(const char *file, uint32_t width, const char *mode, isa_kernel *k)
{
    load_for("tgllp", file, width, mode, k);
}

static sgemu_argval buffer(size_t bytes)
{
    sgemu_argval v;
    memset(&v, 0, sizeof v);
    v.kind = SGEMU_VAL_BUFFER;
    v.data = calloc(1, bytes ? bytes : 1);
    v.bytes = bytes;
    return v;
}

static int run(const isa_kernel *k, uint64_t global, uint64_t local, sgemu_argval *args,
               sgemu_fault *f)
{
    sgemu_launch L = launch_1d(global, local, k->gen->simd);
    L.max_instructions = 100000000;
    sgemu_stats st;
    int rc = sgemu_run(k, &cfg, &L, args, &st, f);
    if (rc)
        fprintf(stderr, "%s\n", f->msg);
    sgemu_stats_free(&st);
    return rc;
}

/* Run k on config c over `global` items in groups of `local`; it must
 * succeed. */
static void run_ok_on(const isa_kernel *k, const emu_config *c, uint64_t global,
                      uint64_t local, sgemu_argval *args)
{
    sgemu_launch L = launch_1d(global, local, k->gen->simd);
    L.max_instructions = 100000000;
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, c, &L, args, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    sgemu_stats_free(&st);
    assert_int_equal(rc, 0);
}

/* Deterministic test data: a small LCG. */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* ---------------------------------------------------------------- vadd */

static void vadd(void **state)
{
    (void)state;
    /* 1000 items in groups of 40: partial sub-groups at every width and a
     * trailing partial work-group */
    const uint32_t n = 1000;
    for (size_t m = 0; m < 2; m++)
        for (size_t w = 0; w < 3; w++) {
            isa_kernel k;
            load("vadd.cl", widths[w], modes[m], &k);
            sgemu_argval args[3] = { buffer(n * 4), buffer(n * 4), buffer(n * 4) };
            float *a = (float *)args[0].data, *b = (float *)args[1].data;
            float *c = (float *)args[2].data;
            for (uint32_t i = 0; i < n; i++) {
                a[i] = (float)i * 0.5f - 7.25f;
                b[i] = 1000.0f / (float)(i + 1);
                c[i] = -1.0f;
            }
            sgemu_fault f;
            assert_int_equal(run(&k, 990, 40, args, &f), 0);
            for (uint32_t i = 0; i < n; i++) {
                assert_true(i < 990 ? c[i] == a[i] + b[i] : c[i] == -1.0f);
            }
            for (int i = 0; i < 3; i++)
                free(args[i].data);
            isa_kernel_free(&k);
        }
}

/* An out-of-bounds store faults with emu/'s message: buffer, offset and the
 * instruction as IGA prints it. */
static void vadd_fault(void **state)
{
    (void)state;
    for (size_t m = 0; m < 2; m++) {
        isa_kernel k;
        load("vadd.cl", 16, modes[m], &k);
        sgemu_argval args[3] = { buffer(64 * 4), buffer(64 * 4), buffer(40 * 4) };
        sgemu_fault f;
        assert_int_equal(run(&k, 64, 64, args, &f), SGEMU_EXIT_FAULT);
        assert_non_null(strstr(f.msg, "out-of-bounds global store of 4 bytes"));
        assert_non_null(strstr(f.msg, "buffer 'c', offset 160, size 160 bytes"));
        assert_non_null(strstr(f.msg, "send"));
        assert_non_null(strstr(f.msg, "lane 8"));   /* work-item 40: sub-group 2, lane 8 */
        for (int i = 0; i < 3; i++)
            free(args[i].data);
        isa_kernel_free(&k);
    }
}

/* ------------------------------------------------------------ payload */

/* global (10,6,3), local (4,3,2), offset (1,2,3): partial work-groups in x
 * and z; every work-item function against its OpenCL definition */
static void ids(void **state)
{
    (void)state;
    const uint64_t G[3] = { 10, 6, 3 }, L[3] = { 4, 3, 2 }, O[3] = { 1, 2, 3 };
    const uint32_t n = 10 * 6 * 3;
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        load("ids.cl", widths[w], "", &k);
        sgemu_argval out = buffer(n * 48);
        sgemu_launch la;
        memset(&la, 0, sizeof la);
        la.dims = 3;
        la.local_given = true;
        la.sg_width = widths[w];
        la.max_instructions = 10000000;
        for (int d = 0; d < 3; d++) {
            la.global[d] = G[d];
            la.local[d] = L[d];
            la.offset[d] = O[d];
        }
        sgemu_stats st;
        sgemu_fault f;
        int rc = sgemu_run(&k, &cfg, &la, &out, &st, &f);
        if (rc)
            fprintf(stderr, "%s\n", f.msg);
        assert_int_equal(rc, 0);
        sgemu_stats_free(&st);
        const uint32_t *o = (const uint32_t *)out.data;
        for (uint32_t z = 0; z < G[2]; z++)
            for (uint32_t y = 0; y < G[1]; y++)
                for (uint32_t x = 0; x < G[0]; x++) {
                    const uint32_t *r = o + ((z * G[1] + y) * G[0] + x) * 12;
                    uint32_t g[3] = { x / (uint32_t)L[0], y / (uint32_t)L[1], z / (uint32_t)L[2] };
                    uint32_t l[3] = { x % (uint32_t)L[0], y % (uint32_t)L[1], z % (uint32_t)L[2] };
                    uint32_t ls[3];
                    for (int d = 0; d < 3; d++) {
                        uint64_t left = G[d] - g[d] * L[d];
                        ls[d] = (uint32_t)(left < L[d] ? left : L[d]);
                    }
                    assert_int_equal(r[0], x + O[0]);
                    assert_int_equal(r[1], y + O[1]);
                    assert_int_equal(r[2], z + O[2]);
                    assert_int_equal(r[3], l[0] * 100 + l[1] * 10 + l[2]);
                    assert_int_equal(r[4], g[0]);
                    assert_int_equal(r[5], g[1]);
                    assert_int_equal(r[6], g[2]);
                    assert_int_equal(r[7], ls[0] * 100 + ls[1] * 10 + ls[2]);
                    assert_int_equal(r[8], 4 * 100 + 3 * 10 + 2);
                    assert_int_equal(r[9], 3 * 100 + 2 * 10 + 2);
                    assert_int_equal(r[10], 3);
                    /* sub-groups: consecutive linear local IDs of the group */
                    uint32_t lin = (l[2] * ls[1] + l[1]) * ls[0] + l[0];
                    assert_int_equal(r[11], lin % widths[w] + 1000 * (lin / widths[w]));
                }
        free(out.data);
        isa_kernel_free(&k);
    }
}

/* ------------------------------------------------------------- integers */

static int32_t mul_hi32(int32_t x, int32_t y)
{
    return (int32_t)(((int64_t)x * y) >> 32);
}

static void alu_int(void **state)
{
    (void)state;
    const uint32_t n = 200;
    const int32_t s = -123457;
    for (size_t m = 0; m < 2; m++)
        for (size_t w = 0; w < 3; w++) {
            isa_kernel k;
            load("alu_int.cl", widths[w], modes[m], &k);
            sgemu_argval args[5] = { buffer(n * 4), buffer(n * 4), buffer(n * 56),
                                     buffer(n * 8), { 0 } };
            args[4].kind = SGEMU_VAL_SCALAR;
            args[4].scalar = (uint32_t)s;
            int32_t *a = (int32_t *)args[0].data, *b = (int32_t *)args[1].data;
            uint32_t seed = 7;
            for (uint32_t i = 0; i < n; i++) {
                a[i] = (int32_t)(lcg(&seed) * 2654435761u);
                b[i] = (int32_t)(lcg(&seed) * 40503u);
            }
            a[0] = INT32_MIN;
            b[0] = -1;
            a[1] = 0;
            b[1] = 0;
            sgemu_fault f;
            assert_int_equal(run(&k, n, 40, args, &f), 0);
            const int32_t *o = (const int32_t *)args[2].data;
            const int64_t *lo = (const int64_t *)args[3].data;
            for (uint32_t i = 0; i < n; i++) {
                int32_t x = a[i], y = b[i];
                uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
                const int32_t *r = o + i * 14;
                assert_int_equal(r[0], (int32_t)(ux + uy));
                assert_int_equal(r[1], (int32_t)(ux - uy));
                assert_int_equal(r[2], (int32_t)(ux * uy));
                assert_int_equal(r[3], mul_hi32(x, y));
                assert_int_equal(r[4], (x & y) | (x ^ s));
                assert_int_equal(r[5], (int32_t)(ux << (y & 31)));
                assert_int_equal(r[6], x >> (y & 31));
                assert_int_equal(r[7], (int32_t)(ux >> (y & 31)));
                assert_int_equal(r[8], x < y ? x : y);
                assert_int_equal(r[9], x > y ? x : y);
                assert_int_equal(r[10], x < y ? s : -s);
                assert_int_equal(r[11], __builtin_popcount(ux) + (uy ? __builtin_clz(uy) : 32));
                /* rotate: bits shifted out at the top come back at the bottom */
                uint32_t ry = uy & 31;
                assert_int_equal(r[12], (int32_t)(ry ? ux << ry | ux >> (32 - ry) : ux));
                assert_int_equal(r[13], (int32_t)(ux << 27 | ux >> 5));
                assert_true(lo[i] == (int64_t)((uint64_t)((int64_t)x * y) +
                                               ((uint64_t)(int64_t)s << 33)));
            }
            for (int i = 0; i < 4; i++)
                free(args[i].data);
            isa_kernel_free(&k);
        }
}

/* --------------------------------------------------------------- floats */

static void alu_float(void **state)
{
    (void)state;
    const uint32_t n = 100;
    for (size_t m = 0; m < 2; m++)
        for (size_t w = 0; w < 3; w++) {
            isa_kernel k;
            load("alu_float.cl", widths[w], modes[m], &k);
            sgemu_argval args[4] = { buffer(n * 4), buffer(n * 4), buffer(n * 24),
                                     buffer(n * 4) };
            float *a = (float *)args[0].data, *b = (float *)args[1].data;
            for (uint32_t i = 0; i < n; i++) {
                a[i] = ((float)i - 50.0f) * 0.37f;
                b[i] = 3.0f - (float)(i % 7) * 1.15f;
            }
            sgemu_fault f;
            assert_int_equal(run(&k, n, 20, args, &f), 0);
            const float *o = (const float *)args[2].data;
            const int32_t *io = (const int32_t *)args[3].data;
            for (uint32_t i = 0; i < n; i++) {
                float x = a[i], y = b[i];
                const float *r = o + i * 6;
                assert_true(r[0] == x * y);
                assert_true(r[1] == fmaf(x, y, 1.5f));
                assert_true(r[2] == fminf(x, y));
                assert_true(r[3] == fabsf(x) - y);
                assert_true(r[4] == floorf(x));
                assert_true(r[5] == (float)(int32_t)y);
                assert_int_equal(io[i], (int32_t)(x * 100.0f));
            }
            for (int i = 0; i < 4; i++)
                free(args[i].data);
            isa_kernel_free(&k);
        }
}

/* --------------------------------------------------------------- flow */

/* flow.cl's definition, written out for one work-item */
static void flow_ref(int x0, int *s_out, int *n_out)
{
    int x = x0, s;
    if (x > 10)
        s = x * 3;
    else if (x > 4)
        s = x - 7;
    else
        s = -x;
    for (int k = 0; k < x; k++) {
        if (k == 5)
            continue;
        if (s > 300)
            break;
        s += k * k;
    }
    int n = 0;
    while (x > 1 && n < 50) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
    }
    int r = x0 % 4;
    if (r == 0)
        s += 1000;
    else if (r == 1)
        s -= 1000;
    else if (r == 3)
        s ^= 0x55;
    *s_out = s;
    *n_out = n;
}

/* The bundled config `name` into *c. */
static void bundled_config(const char *name, emu_config *c)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int rc = emu_config_load_bundled(name, c, &d);
    isa_diags_free(&d);
    assert_int_equal(rc, 0);
}

/* flow.cl at SIMD width w for `device`, run on config c and checked
 * against flow_ref (100 items, groups of 50: partial sub-groups) */
static void flow_on(const char *device, const emu_config *c, uint32_t w, isa_kernel *k)
{
    const uint32_t n = 100;
    load_for(device, "flow.cl", w, "", k);
    sgemu_argval args[2] = { buffer(n * 4), buffer(2 * n * 4) };
    int32_t *a = (int32_t *)args[0].data, *out = (int32_t *)args[1].data;
    uint32_t seed = 9;
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (int32_t)(lcg(&seed) % 40) - 3;
        out[2 * i] = out[2 * i + 1] = -12345;
    }
    a[3] = 7;
    sgemu_launch L = launch_1d(n, 50, w);
    L.max_instructions = 100000000;
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(k, c, &L, args, &st, &f);
    sgemu_stats_free(&st);
    assert_int_equal(rc, 0);
    for (uint32_t i = 0; i < n; i++) {
        int s, m;
        flow_ref(a[i], &s, &m);
        assert_int_equal(out[2 * i], s);
        assert_int_equal(out[2 * i + 1], a[i] == 7 ? -12345 : m);
    }
    free(args[0].data);
    free(args[1].data);
}

/* Gen9's forward goto moves the channels whose predicate fails: IGC builds
 * flow.cl's `break` on skl as `(~f0.1) goto` with f0.1 the break condition
 * (the code must hold such a goto, or the test checks nothing) */
static void flow_gen9(void **state)
{
    (void)state;
    emu_config c9;
    bundled_config("intel-gen9-gt2", &c9);
    isa_kernel k;
    flow_on("skl", &c9, 8, &k);
    bool forward_goto = false;
    for (uint32_t i = 0; i < k.gen->ninst; i++)
        forward_goto |= k.gen->inst[i].op == GEN_OP_GOTO && k.gen->inst[i].uip > i;
    assert_true(forward_goto);
    isa_kernel_free(&k);
}

/* Divergent if/else, loops with break/continue, a switch and an early
 * return, with partial sub-groups, at every width on Xe-LP */
static void flow(void **state)
{
    (void)state;
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        flow_on("tgllp", &cfg, widths[w], &k);
        isa_kernel_free(&k);
    }
}

/* Kernel `name` of gen9.cl for skl at width w with build options opts, run
 * over n items in groups of 32 on the Gen9 config. */
static void gen9_run_file(const char *file, const char *name, uint32_t w, const char *opts,
                          sgemu_argval *args, uint32_t n)
{
    char path[1200], o[256], err[2048];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    snprintf(o, sizeof o, "-DWIDTH=%u %s", w, opts);
    isa_kernel k;
    int rc = sgemu_load_igc(path, "skl", o, 0, name, &k, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    emu_config c9;
    bundled_config("intel-gen9-gt2", &c9);
    run_ok_on(&k, &c9, n, 32, args);
    isa_kernel_free(&k);
}

static void gen9_run(const char *name, uint32_t w, const char *opts, sgemu_argval *args,
                     uint32_t n)
{
    gen9_run_file("gen9.cl", name, w, opts, args, n);
}

/* Gen9's lrp (mix): src1 * src0 + src2 * (1 - src0).  Integer x, y and
 * weights of a few bits keep every product and sum exact, so the result
 * depends only on which operand is the weight. */
static void gen9_lrp(void **state)
{
    (void)state;
    const uint32_t n = 48;
    sgemu_argval args[3] = { buffer(n * 4), buffer(n * 4), buffer(3 * n * 4) };
    float *x = (float *)args[0].data, *y = (float *)args[1].data;
    uint32_t seed = 3;
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (float)(lcg(&seed) % 128);
        y[i] = (float)(lcg(&seed) % 2000) - 1000.0f;
    }
    gen9_run("lrp", 16, "", args, n);
    const float *o = (const float *)args[2].data;
    for (uint32_t i = 0; i < n; i++) {
        float w = x[i] / 128.0f;
        assert_true(o[3 * i] == x[i] * 0.75f + y[i] * 0.25f);
        assert_true(o[3 * i + 1] == x[i] * 0.25f + y[i] * 0.75f);
        assert_true(o[3 * i + 2] == x[i] * (1.0f - w) + y[i] * w);
    }
    for (int b = 0; b < 3; b++)
        free(args[b].data);
}

/* Gen9's float atomic messages (fatomic in gen9.cl): a subtraction, a
 * minimum and a maximum over integer values, so every order gives the same
 * exact result; a NaN operand (subtracted as 0) leaves min and max
 * unchanged (a number wins over NaN).  The returned old values are each the
 * maximum of the initial value and some of the operands: never above the
 * final maximum, never below the initial value. */
static void gen9_float_atomics(void **state)
{
    (void)state;
    for (uint32_t w = 8; w <= 32; w *= 2) {
        const uint32_t n = 96;
        sgemu_argval args[3] = { buffer(4 * 4), buffer(n * 4), buffer(n * 4) };
        float *g = (float *)args[0].data, *v = (float *)args[1].data;
        const float *old = (const float *)args[2].data;
        g[0] = 1000.0f;
        g[1] = 50.0f;
        g[2] = -50.0f;
        g[3] = -7.0f;
        uint32_t seed = 17 + w;
        float sum = 0, lo = 50.0f, hi = -50.0f;
        for (uint32_t i = 0; i < n; i++) {
            v[i] = i == 5 ? NAN : (float)(lcg(&seed) % 201) - 100.0f;
            if (i == 5)
                continue;
            sum += v[i];
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        gen9_run("fatomic", w, "-cl-std=CL2.0", args, n);
        assert_true(g[0] == 1000.0f - sum);
        assert_true(g[1] == lo);
        assert_true(g[2] == hi);
        assert_true(g[3] == (hi > -7.0f ? hi : -7.0f));
        for (uint32_t i = 0; i < n; i++)
            assert_true(old[i] >= -7.0f && old[i] <= g[3]);
        for (int b = 0; b < 3; b++)
            free(args[b].data);
    }
}

/* IGC's IEEE double division and square root on Gen9: math.invm / rsqtm
 * and madm, which sgemu emulates (docs/gen.md, "The IEEE macros").  Over
 * operands of every magnitude, special values included, the results must
 * be the correctly rounded quotient and root the host computes. */
static void ieee_macros(void **state)
{
    (void)state;
    const uint32_t n = 4096;
    sgemu_argval args[3] = { buffer(n * 8), buffer(n * 8), buffer(2 * n * 8) };
    double *a = (double *)args[0].data, *b = (double *)args[1].data;
    uint32_t seed = 9;
    const double special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, DBL_MIN, DBL_MAX,
                               DBL_TRUE_MIN, -1.0, 1.0, 3.0, 0x1p-1070, 0x1.fffffffffffffp1023 };
    const uint32_t ns = sizeof special / sizeof *special;
    for (uint32_t i = 0; i < n; i++) {
        if (i < ns * ns) {
            a[i] = special[i / ns];
            b[i] = special[i % ns];
            continue;
        }
        for (int k = 0; k < 2; k++) {   /* random bits: any exponent, any sign */
            uint64_t u = (uint64_t)lcg(&seed) << 40 ^ (uint64_t)lcg(&seed) << 16 ^ lcg(&seed);
            double *d = k ? &b[i] : &a[i];
            memcpy(d, &u, 8);
            if (isnan(*d))
                *d = 1.5;
        }
        if (i % 3 == 0)   /* and operands close in magnitude */
            b[i] = a[i] * (1.0 + (double)(lcg(&seed) % 1000) / 7.0);
        if (i % 5 == 1)   /* and the ends of the exponent range */
            a[i] = ldexp(1.0 + (double)lcg(&seed) / 0x1p24, i % 2 ? 1000 + (int)(i % 24)
                                                                   : -1000 - (int)(i % 74));
    }
    gen9_run_file("ddiv.cl", "ddiv", 8, "", args, n);
    const double *o = (const double *)args[2].data;
    for (uint32_t i = 0; i < n; i++) {
        double q = a[i] / b[i], r = sqrt(a[i]);
        if (isnan(q))
            assert_true(isnan(o[2 * i]));
        else if (memcmp(&o[2 * i], &q, 8) != 0)
            fail_msg("%a / %a: %a, expected %a", a[i], b[i], o[2 * i], q);
        if (isnan(r))
            assert_true(isnan(o[2 * i + 1]));
        else if (memcmp(&o[2 * i + 1], &r, 8) != 0)
            fail_msg("sqrt(%a): %a, expected %a", a[i], o[2 * i + 1], r);
    }
    for (int k = 0; k < 3; k++)
        free(args[k].data);
}

/* call/ret: callret's subroutine, called under divergence (the code must
 * hold a call and a ret, or the test checks nothing), at SIMD8 and 16 (at
 * 32 this IGC builds it at SIMD16; byval.cl's st_mut has a SIMD32 call in
 * the differential) */
static void gen9_callret(void **state)
{
    (void)state;
    const uint32_t n = 48;
    for (uint32_t w = 8; w <= 16; w *= 2) {
        char path[1200], o[64], err[2048];
        snprintf(path, sizeof path, "%s/gen9.cl", kdir);
        snprintf(o, sizeof o, "-DWIDTH=%u", w);
        isa_kernel k;
        int rc = sgemu_load_igc(path, "skl", o, 0, "callret", &k, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        assert_int_equal(rc, 0);
        assert_int_equal(k.gen->simd, w);
        uint32_t calls = 0, rets = 0;
        for (uint32_t i = 0; i < k.gen->ninst; i++) {
            calls += k.gen->inst[i].op == GEN_OP_CALL;
            rets += k.gen->inst[i].op == GEN_OP_RET;
        }
        assert_true(calls > 0 && rets > 0);
        sgemu_argval args[1] = { buffer(n * 4) };
        emu_config c9;
        bundled_config("intel-gen9-gt2", &c9);
        run_ok_on(&k, &c9, n, 32, args);
        const int32_t *out = (const int32_t *)args[0].data;
        for (int32_t i = 0; i < (int32_t)n; i++) {
            int32_t q[4] = { i, 2 * i, 3, 4 }, r = -1;
            if (i % 3) {
                q[i & 3] += i;
                r = q[(i + 1) & 3] * 3 + i;
            }
            assert_int_equal(out[i], r + q[0] + 5 * q[1] + 7 * q[2] + 11 * q[3]);
        }
        free(args[0].data);
        isa_kernel_free(&k);
    }
}

/* A two-dword A64 gathering read whose response overwrites its own address
 * registers (gen9.cl `gather` at SIMD32: IGC's `send (16|M16) r80 r80`):
 * every lane reads the address it was given. */
static void gen9_gather(void **state)
{
    (void)state;
    const uint32_t n = 64, nt = 500;
    sgemu_argval args[3] = { buffer(12 * n * 4), buffer(nt * 8), buffer(n * 8) };
    uint32_t *idx = (uint32_t *)args[0].data, *tab = (uint32_t *)args[1].data;
    uint32_t seed = 8;
    for (uint32_t i = 0; i < 12 * n; i++)
        idx[i] = lcg(&seed) % nt;
    for (uint32_t i = 0; i < 2 * nt; i++)
        tab[i] = lcg(&seed);
    gen9_run("gather", 32, "-cl-intel-greater-than-4GB-buffer-required", args, n);
    const uint32_t *g = (const uint32_t *)args[2].data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s0 = 0, s1 = 0;
        for (uint32_t k = 0; k < 12; k++) {
            s0 = s0 * 3u + tab[2 * idx[12 * i + k]];
            s1 = s1 * 3u + tab[2 * idx[12 * i + k] + 1];
        }
        assert_int_equal(g[2 * i], s0);
        assert_int_equal(g[2 * i + 1], s1);
    }
    for (int b = 0; b < 3; b++)
        free(args[b].data);
}

/* Gen9's smov: IGC stores to a small private array held in GRFs with one
 * smov per channel (the address in a0.i, channel i enabled by bit i of
 * the immediate, also in the (16|M16) half of a SIMD32 thread): every
 * work-item's array must get its own stores only. */
static void gen9_smov(void **state)
{
    (void)state;
    const uint32_t n = 64, ws[] = { 8, 32 };
    for (size_t w = 0; w < 2; w++) {
        char path[1200], o[64], err[2048];
        snprintf(path, sizeof path, "%s/private_grf.cl", kdir);
        snprintf(o, sizeof o, "-DWIDTH=%u", ws[w]);
        isa_kernel k;
        int rc = sgemu_load_igc(path, "skl", o, 0, NULL, &k, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        assert_int_equal(rc, 0);
        bool smov = false;
        for (uint32_t i = 0; i < k.gen->ninst; i++)
            smov |= strstr(k.gen->text[i], ws[w] == 8 ? "smov (8|M0)" : "smov (16|M16)") != NULL;
        assert_true(smov);
        sgemu_argval args[2] = { buffer(n * 4), buffer(n * 4) };
        int32_t *a = (int32_t *)args[0].data, *c = (int32_t *)args[1].data;
        uint32_t seed = 17;
        for (uint32_t i = 0; i < n; i++)
            a[i] = (int32_t)(lcg(&seed) % 4096);
        emu_config c9;
        bundled_config("intel-gen9-gt2", &c9);
        run_ok_on(&k, &c9, n, 32, args);
        for (uint32_t i = 0; i < n; i++) {
            int32_t buf[8];
            for (int32_t q = 0; q < 8; q++)
                buf[q] = a[i] * q + (int32_t)i;
            buf[a[i] & 7] = -(int32_t)i;
            buf[(a[i] >> 4) & 7] += 7;
            assert_int_equal(c[i], buf[(a[i] >> 8) & 7] + buf[a[i] & 7] * 3);
        }
        free(args[0].data);
        free(args[1].data);
        isa_kernel_free(&k);
    }
}

/* Gen9's mov :f from :uq converts the unsigned value (2^63 and above
 * positive), rounded to nearest even as the host's conversion does */
static void gen9_u64_float(void **state)
{
    (void)state;
    const uint32_t n = 64;
    sgemu_argval args[2] = { buffer(n * 8), buffer(n * 4) };
    uint64_t *a = (uint64_t *)args[0].data;
    uint32_t seed = 12;
    for (uint32_t i = 0; i < n; i++)
        a[i] = (uint64_t)lcg(&seed) << 40 ^ (uint64_t)lcg(&seed) << 16 ^ lcg(&seed);
    gen9_run("u64_float", 16, "", args, n);
    const float *f = (const float *)args[1].data;
    for (uint32_t i = 0; i < n; i++)
        assert_true(f[i] == (float)a[i]);
    assert_true(a[0] >> 63 || a[1] >> 63 || a[2] >> 63);   /* the unsigned range is reached */
    free(args[0].data);
    free(args[1].data);
}

/* Gen9's mov :uq from :f of values in [2^63, 2^64) and mov.sat :ud from
 * :uq of values at and above 2^63: the unsigned range, as the host's
 * conversions (OpenCL's convert_ulong, convert_uint_sat) */
static void gen9_float_u64(void **state)
{
    (void)state;
    const uint32_t n = 64;
    sgemu_argval args[4] = { buffer(n * 4), buffer(n * 8), buffer(n * 8), buffer(n * 4) };
    float *f = (float *)args[0].data;
    uint64_t *a = (uint64_t *)args[1].data;
    uint32_t seed = 14;
    for (uint32_t i = 0; i < n; i++) {
        f[i] = ldexpf(1.0f + (float)(lcg(&seed) % 1000) / 1000.0f, 40 + (int)(i % 24));
        a[i] = (uint64_t)lcg(&seed) << 40 ^ lcg(&seed);
    }
    gen9_run("float_u64", 16, "", args, n);
    const uint64_t *o = (const uint64_t *)args[2].data;
    const uint32_t *u = (const uint32_t *)args[3].data;
    for (uint32_t i = 0; i < n; i++) {
        assert_true(o[i] == (uint64_t)f[i]);
        assert_int_equal(u[i], a[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)a[i]);
    }
    for (int b = 0; b < 4; b++)
        free(args[b].data);
}

/* cmp_overlap.cl at SIMD32 on skl: o[4i + 2], whose unsigned compare
 * writes the register of its own scalar operand */
static void gen9_cmp_overlap(void **state)
{
    (void)state;
    const uint32_t n = 64;
    sgemu_argval args[4] = { buffer(n * 4), buffer((n + 1) * 8), buffer(n * 32),
                             buffer(n * 8) };
    float *f = (float *)args[0].data;
    uint64_t *l = (uint64_t *)args[1].data;
    uint32_t seed = 6;
    for (uint32_t i = 0; i <= n; i++) {
        l[i] = lcg(&seed) % 20;
        if (i < n)
            f[i] = 1.0f;
    }
    gen9_run_file("cmp_overlap.cl", "cmp_overlap", 32, "", args, n);
    const uint64_t *o = (const uint64_t *)args[2].data;
    bool high = false;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t a = l[i] << 59 | l[i], b = l[i + 1] << 60;
        high |= a > 0x8000000000000001u;
        assert_true(o[4 * i + 2] == (a > b ? a : b) / (l[i] + 1) + (a > 0x8000000000000001u));
    }
    assert_true(high);
    for (int b = 0; b < 4; b++)
        free(args[b].data);
}

/* ------------------------------------------------------------- byval */

/* byval.cl's struct P in the OpenCL host layout (clang's for spir64) */
typedef struct {
    int8_t c;
    float v[4] __attribute__((aligned(16)));
    int32_t i;
    int16_t s;
} byval_p;

/* A struct, a uchar16 and a float3 passed by value (byval.cl), which IGC
 * passes in pieces of the cross-thread data (the struct's float4 at
 * source_offset 16, its padding a byte at a time), given as their bytes;
 * on skl (pushed payload) and pvc (loaded by the code) */
static void byval_pieces(void **state)
{
    (void)state;
    static const char *const dev[] = { "skl", "pvc" }, *const conf[] = { "intel-gen9-gt2",
                                                                          "intel-xe-hpc" };
    assert_int_equal(sizeof(byval_p), 48);
    const uint32_t n = 40;
    for (int d = 0; d < 2; d++) {
        isa_kernel k;
        load_for(dev[d], "byval.cl", 16, "", &k);
        assert_int_equal(k.args[1].kind, ISA_ARG_CONSTANT);
        assert_int_equal(k.args[1].byval, 48);
        assert_int_equal(k.args[2].byval, 16);
        assert_int_equal(k.args[2].byval_vec, 16);
        assert_int_equal(k.args[3].byval, 16);
        assert_int_equal(k.args[3].byval_vec, 3);
        byval_p p;
        memset(&p, 0x5A, sizeof p);   /* padding: any bytes */
        p.c = -7;
        p.v[0] = 1.5f;
        p.v[1] = -2.25f;
        p.v[2] = 9.0f;
        p.v[3] = 1000.5f;
        p.i = 123457;
        p.s = -300;
        uint8_t u[16];
        for (int q = 0; q < 16; q++)
            u[q] = (uint8_t)(17 * q + 3);
        const float t[4] = { 4.5f, -0.75f, 3.25f, 0.0f };
        sgemu_argval args[4] = { buffer(4 * n * 4), buffer(sizeof p), buffer(16), buffer(16) };
        memcpy(args[1].data, &p, sizeof p);
        memcpy(args[2].data, u, 16);
        memcpy(args[3].data, t, 16);
        emu_config c;
        bundled_config(conf[d], &c);
        run_ok_on(&k, &c, n, 40, args);
        const int32_t *o = (const int32_t *)args[0].data;
        for (int32_t i = 0; i < (int32_t)n; i++) {
            assert_int_equal(o[4 * i], p.c + p.i * i + p.s);
            assert_int_equal(o[4 * i + 1], (int32_t)(p.v[1] * (float)i + p.v[3]));
            assert_int_equal(o[4 * i + 2], u[0] + u[15] * 3 + u[7] * i + u[9]);
            assert_int_equal(o[4 * i + 3], (int32_t)(t[2] * (float)i + t[0] - t[1]));
        }
        for (int b = 0; b < 4; b++)
            free(args[b].data);
        isa_kernel_free(&k);
    }
}

/* ---------------------------------------------------------------- slm */

/* SLM through a static array, a local argument and bytes; barriers
 * between the hardware threads of a work-group (48 items: SIMD32 has a
 * full and a partial thread); local and global atomics */
static void slm(void **state)
{
    (void)state;
    const uint32_t n = 96, L = 48;
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        load("slm.cl", widths[w], "", &k);
        sgemu_argval args[4] = { buffer(n * 4), buffer(4 * n * 4), buffer(4 * 4) };
        memset(&args[3], 0, sizeof args[3]);
        args[3].kind = SGEMU_VAL_LOCAL;
        args[3].bytes = L * 4;
        int32_t *a = (int32_t *)args[0].data, *c = (int32_t *)args[1].data;
        uint32_t *cnt = (uint32_t *)args[2].data, seed = 3;
        for (uint32_t i = 0; i < n; i++)
            a[i] = (int32_t)(lcg(&seed) % 1000) - 300;
        cnt[1] = INT32_MAX;
        sgemu_fault f;
        assert_int_equal(run(&k, n, L, args, &f), 0);
        uint32_t xor_all = 0;
        int32_t min_all = INT32_MAX;
        uint8_t seen[96] = { 0 };
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = i / L * L, l = i % L;
            int32_t mx = INT32_MIN, sum_l = (int32_t)(L * (L - 1) / 2);
            for (uint32_t j = 0; j < L; j++)
                mx = a[g + j] > mx ? a[g + j] : mx;
            /* st[0] = a[g] + sum of l; st[1] = max(a[g + 1], every a) */
            assert_int_equal(c[4 * i], a[g + (l + 1) % L] + 2 * a[g + L - 1 - l]);
            assert_int_equal(c[4 * i + 1], (uint8_t)a[g + L - 1 - l]);
            assert_int_equal(c[4 * i + 2], a[g] + sum_l + mx);
            uint32_t old = (uint32_t)c[4 * i + 3];
            assert_true(old < n && !seen[old]);   /* atomic_inc's old values: 0..n-1 */
            seen[old] = 1;
            xor_all ^= (uint32_t)a[i];
            min_all = a[i] < min_all ? a[i] : min_all;
        }
        assert_int_equal(cnt[0], n);
        assert_int_equal((int32_t)cnt[1], min_all);
        assert_int_equal(cnt[2], 77);
        assert_int_equal(cnt[3], xor_all);
        for (int i = 0; i < 3; i++)
            free(args[i].data);
        isa_kernel_free(&k);
    }
}

/* A packed vector immediate (:uv) into a dword destination: each channel
 * takes the element at its destination's word position, so IGC's 0x400:uv
 * for a (2) :ud move gives the offsets 0 and 4.  wg_bcast64.cl's
 * broadcast of a long reads its two dwords with them. */
static void packed_vector_dword(void **state)
{
    (void)state;
    const uint32_t n = 96, L = 32;
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        load("wg_bcast64.cl", widths[w], "", &k);
        bool seen = false;   /* the instruction this test is about */
        for (uint32_t i = 0; i < k.gen->ninst && !seen; i++) {
            const gen_inst *in = &k.gen->inst[i];
            for (int s = 0; s < 2; s++)
                if (in->src[s].kind == GEN_OPND_IMM && in->src[s].type == GEN_T_UV &&
                    (in->dst.type == GEN_T_UD || in->dst.type == GEN_T_D))
                    seen = true;
        }
        assert_true(seen);
        sgemu_argval args[3] = { buffer(n * 8), buffer(n / L * 4), buffer(n * 8) };
        int64_t *a = (int64_t *)args[0].data, *out = (int64_t *)args[2].data;
        uint32_t *ids = (uint32_t *)args[1].data, seed = 5;
        for (uint32_t i = 0; i < n; i++)   /* both halves differ from item to item */
            a[i] = (int64_t)((uint64_t)(lcg(&seed) | 1) << 32 | lcg(&seed));
        for (uint32_t g = 0; g < n / L; g++)
            ids[g] = lcg(&seed) % L;
        sgemu_fault f;
        assert_int_equal(run(&k, n, L, args, &f), 0);
        for (uint32_t i = 0; i < n; i++)
            assert_true(out[i] == a[i / L * L + ids[i / L]]);
        for (int i = 0; i < 3; i++)
            free(args[i].data);
        isa_kernel_free(&k);
    }
}

/* IGC's printf buffer filled up: the records that fit are printed, in
 * order, and the launch says that calls were dropped, naming IGC's
 * buffer (its count of dropped calls is not in the buffer). */
static void printf_full(void **state)
{
    (void)state;
    isa_kernel k;
    load("printf_full.cl", 16, "", &k);
    const uint32_t items = 256, n = 2048;   /* 524288 calls of 16 bytes */
    sgemu_argval args[ISA_MAX_ARGS];   /* the hidden ones too: constant data, printf buffer */
    memset(args, 0, sizeof args);
    args[0].kind = SGEMU_VAL_SCALAR;
    args[0].scalar = n;
    sgemu_launch L = launch_1d(items, 64, 16);
    L.max_instructions = 100000000;
    sgemu_stats st;
    sgemu_fault f;
    assert_int_equal(sgemu_run(&k, &cfg, &L, args, &st, &f), 0);
    const uint64_t fit = ((4u << 20) - 4) / 16;
    assert_true(st.printf_igc);
    assert_int_equal(st.printf_calls, fit);
    assert_int_equal(st.printf_dropped, 1);
    uint64_t lines = 0;
    for (size_t i = 0; i < st.printf_len; i++)
        lines += st.printf_text[i] == '\n';
    assert_int_equal(lines, fit);
    assert_true(strncmp(st.printf_text, "0\n0\n", 4) == 0);   /* lanes in order, i = 0 */
    char *warn = NULL;
    size_t wlen = 0;
    FILE *w = open_memstream(&warn, &wlen);
    assert_non_null(w);
    sgemu_printf_flush(&st, "printf_full", NULL, w);
    fclose(w);
    assert_non_null(strstr(warn, "IGC's printf buffer (4194304 bytes"));
    free(warn);
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

/* ------------------------------------------------------- atomic types */

/* atomic_types.cl: arguments of type atomic_int*, atomic_uint* and
 * atomic_long* have their value types (the element types of --out and
 * of the differential test's generated inputs), and the atomics on them
 * add up over 40 items */
static void atomic_types(void **state)
{
    (void)state;
    isa_kernel k;
    load("atomic_types.cl", 16, "", &k);
    assert_int_equal(k.args[0].type, ISA_T_I32);
    assert_int_equal(k.args[1].type, ISA_T_U32);
    assert_int_equal(k.args[2].type, ISA_T_I64);
    sgemu_argval args[3] = { buffer(4), buffer(4), buffer(8) };
    run_ok_on(&k, &cfg, 40, 40, args);
    int64_t c;
    memcpy(&c, args[2].data, 8);
    assert_int_equal(*(int32_t *)args[0].data, 39 * 40 / 2);
    assert_int_equal(*(uint32_t *)args[1].data, 39 * 3);
    assert_true(c == -((int64_t)(39 * 40 / 2) << 33));
    for (int b = 0; b < 3; b++)
        free(args[b].data);
    isa_kernel_free(&k);
}

/* --------------------------------------------------------- ballot_mask */

/* ballot_mask.cl at SIMD8 in work-groups of 20 (8 + 8 + 4 lanes): each
 * sub-group's ballot of in > 3 over its existing lanes, and its count */
static void ballot_mask(void **state)
{
    (void)state;
    const uint32_t n = 40;
    isa_kernel k;
    load("ballot_mask.cl", 8, "", &k);
    sgemu_argval args[2] = { buffer(n * 4), buffer(n * 8) };
    int32_t *in = (int32_t *)args[0].data;
    const uint32_t *out = (const uint32_t *)args[1].data;
    uint32_t seed = 9;
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(lcg(&seed) % 8);
    run_ok_on(&k, &cfg, n, 20, args);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t first = i / 20 * 20 + i % 20 / 8 * 8, last = first + 8;
        if (last > i / 20 * 20 + 20)
            last = i / 20 * 20 + 20;
        uint32_t bits = 0;
        for (uint32_t j = first; j < last; j++)
            bits |= (uint32_t)(in[j] > 3) << (j - first);
        assert_int_equal(out[2 * i], bits);
        assert_int_equal(out[2 * i + 1], (uint32_t)__builtin_popcount(bits));
    }
    free(args[0].data);
    free(args[1].data);
    isa_kernel_free(&k);
}

/* ------------------------------------------------------------ wg_pair */

/* wg_pair.cl: work_group_all, then a work-group scan, in groups of 32 at
 * SIMD8 (4 threads).  Group 0 holds a 19 in its second thread, group 1
 * none: every item's all() is its group's, also where the scan's SLM
 * stores follow the read of all()'s result. */
static void wg_pair(void **state)
{
    (void)state;
    const uint32_t n = 64;
    isa_kernel k;
    load("wg_pair.cl", 8, "", &k);
    sgemu_argval args[3] = { buffer(n * 4), buffer(n * 4), buffer(n * 4) };
    int32_t *in = (int32_t *)args[0].data, *all = (int32_t *)args[1].data;
    const float *mn = (const float *)args[2].data;
    uint32_t seed = 5;
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(lcg(&seed) % 19);
    in[13] = 19;
    run_ok_on(&k, &cfg, n, 32, args);
    for (uint32_t g = 0; g < 2; g++) {
        int32_t want = 1;
        float m = INFINITY;
        for (uint32_t i = 32 * g; i < 32 * g + 32; i++)
            want &= in[i] < 19;
        for (uint32_t i = 32 * g; i < 32 * g + 32; i++) {
            m = fminf(m, (float)in[i]);
            assert_int_equal(all[i], want);
            assert_true(mn[i] == m);
        }
    }
    for (int b = 0; b < 3; b++)
        free(args[b].data);
    isa_kernel_free(&k);
}

/* ------------------------------------------------------------ private */

/* private.cl (a private array with data-dependent indices, in the
 * threads' scratch) at width w for `device` on config c (80 items, groups
 * of 40) */
static void private_on(const char *device, const emu_config *c, uint32_t w, isa_kernel *k)
{
    const uint32_t n = 80;
    load_for(device, "private.cl", w, "", k);
    assert_true(k->gen->scratch_bytes > 0);
    sgemu_argval args[2] = { buffer(n * 4), buffer(n * 4) };
    int32_t *a = (int32_t *)args[0].data, *out = (int32_t *)args[1].data;
    uint32_t seed = 21;
    for (uint32_t i = 0; i < n; i++)
        a[i] = (int32_t)(lcg(&seed) % 5000);
    run_ok_on(k, c, n, 40, args);
    for (uint32_t i = 0; i < n; i++) {
        int32_t buf[64];
        for (int32_t q = 0; q < 64; q++)
            buf[q] = a[i] * q + (int32_t)i;
        int32_t j = a[i] & 63;
        buf[j] += 100;
        buf[(j * 7) & 63] ^= 0x55;
        assert_int_equal(out[i], buf[(j + 3) & 63] + buf[j] - buf[a[i] >> 6 & 63]);
    }
    free(args[0].data);
    free(args[1].data);
}

static void private_mem(void **state)
{
    (void)state;
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        private_on("tgllp", &cfg, widths[w], &k);
        isa_kernel_free(&k);
    }
}

/* On Xe-HPG IGC keeps private arrays in a global buffer
 * (per_thread_memory_buffers type global) at private_base_stateless, a slot
 * for each hardware thread that its code reads from sr0.0.  priv_barrier
 * holds every thread's array across a barrier in work-groups of 256 items
 * (32 threads at SIMD8: slots that use every field of sr0.0 IGC reads): a
 * slot shared by two threads would mix their arrays. */
static void private_hpg(void **state)
{
    (void)state;
    emu_config hpg;
    bundled_config("intel-xe-hpg", &hpg);
    const uint32_t n = 512;
    char path[1200], err[2048];
    snprintf(path, sizeof path, "%s/private.cl", kdir);
    isa_kernel k;
    int rc = sgemu_load_igc(path, "dg2-g10", "-DWIDTH=8", 0, "priv_barrier", &k, err,
                            sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_true(k.gen->global_private_bytes >= 256);
    bool reads_sr0 = false;
    for (uint32_t i = 0; i < k.gen->ninst; i++)
        reads_sr0 |= strstr(k.gen->text[i], "sr0.0") != NULL;
    assert_true(reads_sr0);
    sgemu_argval args[2] = { buffer(n * 4), buffer(n * 4) };
    int32_t *a = (int32_t *)args[0].data, *out = (int32_t *)args[1].data;
    uint32_t seed = 4;
    for (uint32_t i = 0; i < n; i++)
        a[i] = (int32_t)(lcg(&seed) % 5000);
    run_ok_on(&k, &hpg, n, 256, args);
    for (uint32_t i = 0; i < n; i++) {
        int32_t j = a[i] & 63;
        assert_int_equal(out[i], a[i] * j + (int32_t)i + a[i] * ((j * 5) & 63) + (int32_t)i);
    }
    free(args[0].data);
    free(args[1].data);
    isa_kernel_free(&k);
}

/* On Xe-HPC IGC reaches scratch through its surface state (`send.ugm ...
 * ss[a0.2]`, a0.2 = r0.5 >> 4): the code must hold such a message */
static void private_pvc(void **state)
{
    (void)state;
    emu_config hpc;
    bundled_config("intel-xe-hpc", &hpc);
    isa_kernel k;
    private_on("pvc", &hpc, 16, &k);
    bool ss = false;
    for (uint32_t i = 0; i < k.gen->ninst; i++)
        ss |= k.gen->inst[i].lsc.model == GEN_LSC_SS;
    assert_true(ss);
    isa_kernel_free(&k);
}

/* ------------------------------------------------------------ block I/O */

/* Sub-group block reads and writes (IGC refuses them at SIMD32 on tgllp):
 * component k of lane l of sub-group s at element base + k * S + l of a
 * block of S x N elements at base = the sub-group's first item x N */
static void block_io(void **state)
{
    (void)state;
    const uint32_t n = 128;
    for (size_t m = 0; m < 2; m++)
        for (size_t w = 0; w < 2; w++) {
            const uint32_t S = widths[w];
            isa_kernel k;
            load("blockio.cl", S, modes[m], &k);
            sgemu_argval args[4] = { buffer(12288 * 4), buffer(12288 * 4), buffer(n * 2),
                                     buffer(n * 2) };
            uint32_t *in = (uint32_t *)args[0].data, *out = (uint32_t *)args[1].data;
            uint16_t *hs = (uint16_t *)args[2].data, *ho = (uint16_t *)args[3].data;
            uint32_t seed = 17;
            for (uint32_t i = 0; i < 12288; i++)
                in[i] = lcg(&seed);
            for (uint32_t i = 0; i < n; i++)
                hs[i] = (uint16_t)lcg(&seed);
            sgemu_fault f;
            assert_int_equal(run(&k, n, 64, args, &f), 0);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t b = i / S * S, l = i % S;
                uint32_t v = in[b + l];
                uint32_t w0 = in[4096 + 2 * b + l], w1 = in[4096 + 2 * b + S + l];
                uint32_t x[4];
                for (uint32_t q = 0; q < 4; q++)
                    x[q] = in[8192 + 4 * b + q * S + l];
                assert_int_equal(out[b + l], v * 3u + w0);
                assert_int_equal(out[4096 + 2 * b + l], w1);
                assert_int_equal(out[4096 + 2 * b + S + l], x[0] ^ x[3]);
                const uint32_t add[4] = { 1, 2, 3, v };
                for (uint32_t q = 0; q < 4; q++)
                    assert_int_equal(out[8192 + 4 * b + q * S + l], x[q] + add[q]);
                assert_int_equal(ho[i], (uint16_t)(hs[i] * 5u + 1u));
            }
            for (int i = 0; i < 4; i++)
                free(args[i].data);
            isa_kernel_free(&k);
        }
}

/* ------------------------------------------------------------ shuffle */

/* intel_sub_group_shuffle with an index per channel (indirect register
 * access, one address per channel): channel l gets channel idx[l]'s value
 * of its own sub-group, in 32, 16 and 64 bits */
static void shuffle(void **state)
{
    (void)state;
    const uint32_t n = 64;
    for (size_t w = 0; w < 3; w++) {
        const uint32_t S = widths[w];
        isa_kernel k;
        load("shuffle.cl", S, "", &k);
        sgemu_argval args[3] = { buffer(n * 4), buffer(n * 4), buffer(n * 16) };
        uint32_t *in = (uint32_t *)args[0].data, *idx = (uint32_t *)args[1].data;
        uint32_t *out = (uint32_t *)args[2].data, seed = 5;
        for (uint32_t i = 0; i < n; i++) {
            in[i] = lcg(&seed);
            idx[i] = lcg(&seed) % S;
        }
        sgemu_fault f;
        assert_int_equal(run(&k, n, 32, args, &f), 0);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t src = i / S * S + idx[i], v = in[src];
            assert_int_equal(out[4 * i], v);
            assert_int_equal(out[4 * i + 1], v & 0xffffu);
            assert_int_equal(out[4 * i + 2], v);
            assert_int_equal(out[4 * i + 3], v ^ 0xabcdu);
        }
        for (int i = 0; i < 3; i++)
            free(args[i].data);
        isa_kernel_free(&k);
    }
}

/* ---------------------------------------------------------- unsupported */

/* An instruction sgemu does not execute is an error naming it as IGA
 * prints it, with its offset. */
static void unsupported(void **state)
{
    (void)state;
    isa_kernel k;
    load("unsupported.cl", 16, "", &k);
    sgemu_argval args[2] = { buffer(17 * 4), buffer(16 * 4) };
    sgemu_fault f;
    sgemu_launch L = launch_1d(16, 16, 16);
    sgemu_stats st;
    assert_int_equal(sgemu_run(&k, &cfg, &L, args, &st, &f), SGEMU_EXIT_USER);
    sgemu_stats_free(&st);
    assert_non_null(strstr(f.msg, "sgemu does not execute this Gen instruction"));
    const char *at = strstr(f.msg, "unsupported.cl+0x");
    assert_non_null(at);
    /* the offset names an instruction whose IGA text follows */
    unsigned off = (unsigned)strtoul(at + strlen("unsupported.cl+0x"), NULL, 16);
    uint32_t ip = gen_inst_at(k.gen, off);
    assert_int_not_equal(ip, UINT32_MAX);
    assert_int_equal(k.gen->inst[ip].op, GEN_OP_UNKNOWN);
    assert_non_null(strstr(f.msg, k.gen->text[ip]));
    free(args[0].data);
    free(args[1].data);
    isa_kernel_free(&k);
}

/* LSC global loads and stores at byte addresses: IGC reads a packed
 * struct's int at offset 11 * i + 1 with load.ugm.d32 on dg2-g10 */
static void lsc_unaligned(void **state)
{
    (void)state;
    emu_config hpg;
    bundled_config("intel-xe-hpg", &hpg);
    isa_kernel k;
    load_for("dg2-g10", "packed.cl", 16, "", &k);
    enum { N = 32, PK = 11 };
    sgemu_argval args[2] = { buffer(N * PK), buffer(N * 4) };
    uint32_t seed = 5;
    for (uint32_t b = 0; b < N * PK; b++)
        args[0].data[b] = (uint8_t)(lcg(&seed) & 0x3f);   /* small: exact floats */
    uint8_t before[N * PK];
    memcpy(before, args[0].data, sizeof before);
    sgemu_launch L = launch_1d(N, N, 16);
    sgemu_stats st;
    sgemu_fault f;
    int rc = sgemu_run(&k, &hpg, &L, args, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    sgemu_stats_free(&st);
    assert_int_equal(rc, 0);
    for (uint32_t i = 0; i < N; i++) {
        const uint8_t *e = before + i * PK, *a = args[0].data + i * PK;
        int32_t x, got;
        int16_t sh;
        float fl, fgot;
        memcpy(&x, e + 1, 4);
        memcpy(&sh, e + 5, 2);
        memcpy(&fl, e + 7, 4);
        memcpy(&got, args[1].data + 4 * i, 4);
        assert_int_equal(got, x + sh);
        memcpy(&got, a + 1, 4);
        assert_int_equal(got, (int32_t)((uint32_t)x * 3u));
        memcpy(&fgot, a + 7, 4);
        assert_true(fgot == fl + 1.0f || (isnan(fgot) && isnan(fl)));
        assert_int_equal(a[0], e[0]);   /* c and s untouched */
        assert_memory_equal(a + 5, e + 5, 2);
    }
    free(args[0].data);
    free(args[1].data);
    isa_kernel_free(&k);
}

/* A call to a function IGC left undefined is refused at load, naming the
 * function (the relocation against an undefined symbol) */
static void undefined_call(void **state)
{
    (void)state;
    char path[1200], err[2048];
    snprintf(path, sizeof path, "%s/undef_call.cl", kdir);
    isa_kernel k;
    assert_int_not_equal(sgemu_load_igc(path, "tgllp", "", 16, NULL, &k, err, sizeof err), 0);
    assert_non_null(strstr(err, "calls 'sgemu_not_defined', which IGC left undefined"));
}

/* The decoded fields agree with IGA's own text for the instructions of
 * vadd (a check of gen_iga.h's mirrored enum values and iga::SWSB). */
static void decode_fields(void **state)
{
    (void)state;
    isa_kernel k;
    load("vadd.cl", 16, "", &k);
    uint32_t adds = 0, sends = 0, tokens = 0;
    for (uint32_t i = 0; i < k.gen->ninst; i++) {
        const gen_inst *in = &k.gen->inst[i];
        const char *t = k.gen->text[i];
        if (in->op == GEN_OP_ADD && in->dst.type == GEN_T_F) {
            assert_non_null(strstr(t, "add (16|M0)"));
            assert_non_null(strstr(t, "<8;8,1>:f"));
            assert_int_equal(in->src[0].vs, 8);
            assert_int_equal(in->src[0].w, 8);
            assert_int_equal(in->src[0].hs, 1);
            assert_int_equal(in->dst.file, GEN_FILE_GRF);
            adds++;
        }
        if (in->op == GEN_OP_SEND && !in->eot && in->sfid == GEN_SFID_DC1) {
            char d[16];
            snprintf(d, sizeof d, "0x%08X", in->desc);
            assert_non_null(strstr(t, d));
            sends++;
        }
        if (in->op == GEN_OP_SEND && in->eot)
            assert_non_null(strstr(t, "EOT"));
        if (strncmp(t, "(W)", 3) == 0)
            assert_true(in->nomask);
        /* the software scoreboard token as IGA prints it: {...,$N} sets
         * it, $N.dst / $N.src wait for it */
        const char *tok = strchr(t, '$');
        if (tok) {
            char *end;
            unsigned long n = strtoul(tok + 1, &end, 10);
            uint8_t want = strncmp(end, ".dst", 4) == 0   ? GEN_IGA_TOKEN_DST
                           : strncmp(end, ".src", 4) == 0 ? GEN_IGA_TOKEN_SRC
                                                          : GEN_IGA_TOKEN_SET;
            assert_int_equal(in->sb_token, want);
            assert_int_equal(in->sbid, n);
            tokens++;
        } else {
            assert_int_equal(in->sb_token, GEN_IGA_TOKEN_NONE);
        }
    }
    assert_int_equal(adds, 1);
    assert_int_equal(sends, 3);
    assert_true(tokens >= 6);   /* three sends, each set and waited for */
    isa_kernel_free(&k);
}

static bool have_ocloc(void)
{
    const char *path = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin");
    for (char *d = strtok(buf, ":"); d; d = strtok(NULL, ":")) {
        char p[4200];
        snprintf(p, sizeof p, "%s/ocloc", d);
        if (access(p, X_OK) == 0)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------- images */

enum { IW = 32, IH = 4, FW = 8 };

static sgemu_argval image_arg(uint32_t w, uint32_t h, sgemu_channel_order o,
                              sgemu_channel_type t, uint32_t *seed)
{
    uint32_t bytes = w * h * sgemu_image_elem_bytes(o, t);
    uint8_t *d = calloc(1, bytes);
    for (uint32_t b = 0; seed && b < bytes; b++)
        d[b] = (uint8_t)lcg(seed);
    return arg_image(o, t, w, h, d);
}

/* Texel (i, j) of the float image for a nearest sampler: OpenCL's
 * CLK_ADDRESS_CLAMP gives the border colour (0, 0, 0, 0) for CL_RGBA
 * outside the image. */
static void texel4(const sgemu_image *im, int64_t i, int64_t j, float out[4])
{
    for (int c = 0; c < 4; c++)
        out[c] = 0.0f;
    if (i >= 0 && j >= 0 && i < im->width && j < im->height)
        memcpy(out, im->data + (size_t)j * im->pitch + (size_t)i * 16, 16);
}

static void images(void **state)
{
    (void)state;
    const uint32_t gx = IW, gy = IH, n = gx * gy;
    for (size_t w = 0; w < 2; w++) {
        isa_kernel k;
        load("image.cl", widths[w], "", &k);
        for (int dx = 0; dx < 2; dx++) {
            uint32_t seed = 7;
            sgemu_argval args[10];
            args[0] = image_arg(IW, IH, SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8, &seed);
            args[1] = image_arg(IW, IH, SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8, NULL);
            args[2] = image_arg(FW, IH, SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT, NULL);
            float *fp = (float *)args[2].image.data;
            for (uint32_t e = 0; e < FW * IH * 4; e++)
                fp[e] = (float)e * 0.25f - 3.0f;
            memset(&args[3], 0, sizeof args[3]);
            args[3].kind = SGEMU_VAL_SCALAR;
            args[3].scalar = 0x10 | 0x4;   /* CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP */
            args[4] = image_arg(IW, IH, SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT32, &seed);
            args[5] = image_arg(IW, IH, SGEMU_ORDER_R, SGEMU_CHTYPE_UNSIGNED_INT32, NULL);
            args[6] = buffer(n * 16);
            args[7] = buffer(n * 32);
            memset(&args[8], 0, sizeof args[8]);
            args[8].kind = SGEMU_VAL_SCALAR;
            args[8].scalar = (uint64_t)dx;
            args[9] = buffer(n * 16);
            sgemu_launch la;
            memset(&la, 0, sizeof la);
            la.dims = 2;
            la.global[0] = gx;
            la.global[1] = gy;
            la.local[0] = 16;
            la.local[1] = 2;
            la.local_given = true;
            la.sg_width = widths[w];
            la.max_instructions = 10000000;
            sgemu_stats st;
            sgemu_fault f;
            int rc = sgemu_run(&k, &cfg, &la, args, &st, &f);
            sgemu_stats_free(&st);
            {
                /* with dx = 1, x + 1 leaves the image at x = 31: IGC's ld_lz
                 * names sampler index 0, smp (CLK_ADDRESS_CLAMP), and reads
                 * the border colour (0,0,0,0) there */
                if (rc)
                    fprintf(stderr, "%s\n", f.msg);
                assert_int_equal(rc, 0);
                const uint8_t *src = args[0].image.data, *dst = args[1].image.data;
                const uint32_t *q = (const uint32_t *)args[6].data;
                const float *fo = (const float *)args[7].data;
                const uint32_t *blk = (const uint32_t *)args[4].image.data;
                const uint32_t *bo = (const uint32_t *)args[5].image.data;
                for (uint32_t y = 0; y < gy; y++)
                    for (uint32_t x = 0; x < gx; x++) {
                        uint32_t i = y * gx + x;
                        for (uint32_t c = 0; c < 4; c++) {
                            /* write_imageui to CL_UNSIGNED_INT8 saturates */
                            uint32_t sx = x + (uint32_t)dx;
                            uint32_t v = (sx < IW ? src[(y * gx + sx) * 4 + c] : 0u) * 3u + c + 1;
                            assert_int_equal(dst[i * 4 + c], v > 255 ? 255 : v);
                        }
                        assert_int_equal(q[4 * i], IW);
                        assert_int_equal(q[4 * i + 1], IH);
                        assert_int_equal(q[4 * i + 2], 0x10B5);   /* CLK_RGBA */
                        assert_int_equal(q[4 * i + 3], 0x10DA);   /* CLK_UNSIGNED_INT8 */
                        float t[4], e[4];
                        texel4(&args[2].image, (int64_t)floorf((float)x * 0.5f - 1.0f),
                               (int64_t)floorf((float)y + 0.25f), t);
                        int64_t ei = (int64_t)x + 2, ej = (int64_t)floorf((float)y * 1.5f);
                        texel4(&args[2].image, ei > FW - 1 ? FW - 1 : ei,
                               ej > IH - 1 ? IH - 1 : ej, e);
                        for (int c = 0; c < 4; c++) {
                            assert_true(fo[8 * i + c] == t[c]);
                            assert_true(fo[8 * i + 4 + c] == e[c]);
                        }
                        texel4(&args[2].image, x % 8, y, t);
                        for (int c = 0; c < 4; c++)
                            assert_true(((const float *)args[9].data)[4 * i + c] == t[c]);
                        /* block read 2 elements left: clamped to element 0 */
                        int64_t bx = (int64_t)x - 2;
                        assert_int_equal(bo[i], blk[y * IW + (bx < 0 ? 0 : bx)] * 3u + 1u);
                    }
            }
            for (int a = 0; a < 10; a++)
                free(a == 3 || a == 8 ? NULL : a < 6 ? (void *)args[a].image.data
                                                     : (void *)args[a].data);
        }
        isa_kernel_free(&k);
    }
}

/* read_imagef(...).xyz (sampler_xyz.cl): IGC asks the sampler for the
 * three channels the kernel uses only, a response of 3 GRF blocks (one
 * GRF each at SIMD8, two in a SIMD16 message; SIMD32 is two of those),
 * and the message writes those back alone.  Each item reads its own texel (nearest, unnormalised, x + 0.5):
 * out[3i..3i+2] = the texel's R, G, B; the float after the last item's
 * stays as it was. */
static void sampler_short_response(void **state)
{
    (void)state;
    enum { SW = 32, SH = 2 };
    for (size_t w = 0; w < 3; w++) {
        isa_kernel k;
        load("sampler_xyz.cl", widths[w], "", &k);
        uint32_t smpl = 0;
        for (uint32_t i = 0; i < k.gen->ninst; i++) {
            const gen_inst *in = &k.gen->inst[i];
            if (in->op == GEN_OP_SEND && in->sfid == GEN_SFID_SMPL) {
                /* a channel: one 32-byte GRF per 8 lanes of the message */
                assert_int_equal(in->rlen, 3 * (in->esize / 8u));   /* R, G, B: no A */
                smpl++;
            }
        }
        assert_true(smpl >= 1);
        uint32_t seed = 11;
        sgemu_argval args[3];
        args[0] = image_arg(SW, SH, SGEMU_ORDER_RGBA, SGEMU_CHTYPE_FLOAT, NULL);
        float *px = (float *)args[0].image.data;
        for (uint32_t e = 0; e < SW * SH * 4; e++)
            px[e] = (float)(lcg(&seed) % 4096) * 0.125f - 100.0f;
        memset(&args[1], 0, sizeof args[1]);
        args[1].kind = SGEMU_VAL_SCALAR;
        args[1].scalar = 0x10 | 0x4;   /* CLK_FILTER_NEAREST | CLK_ADDRESS_CLAMP */
        args[2] = buffer((SW * SH * 3 + 1) * 4);
        float *out = (float *)args[2].data;
        for (uint32_t e = 0; e < SW * SH * 3 + 1; e++)
            out[e] = -1.0f;
        sgemu_launch la;
        memset(&la, 0, sizeof la);
        la.dims = 2;
        la.global[0] = SW;
        la.global[1] = SH;
        la.local[0] = SW;
        la.local[1] = 1;
        la.local_given = true;
        la.sg_width = widths[w];
        la.max_instructions = 10000000;
        sgemu_stats st;
        sgemu_fault f;
        int rc = sgemu_run(&k, &cfg, &la, args, &st, &f);
        sgemu_stats_free(&st);
        if (rc)
            fprintf(stderr, "%s\n", f.msg);
        assert_int_equal(rc, 0);
        for (uint32_t i = 0; i < SW * SH; i++)
            for (uint32_t c = 0; c < 3; c++)
                assert_true(out[3 * i + c] == px[4 * i + c]);
        assert_true(out[SW * SH * 3] == -1.0f);
        free(args[0].image.data);
        free(args[2].data);
        isa_kernel_free(&k);
    }
}

/* image_ld.cl: sampler loads of row 0, whose message leaves out v; with
 * dx = 1 the last one is outside the image with no sampler at its index
 * and faults with emu/'s image fault text */
static void image_ld(void **state)
{
    (void)state;
    isa_kernel k;
    load("image_ld.cl", 16, "", &k);
    for (int dx = 0; dx < 2; dx++) {
        uint32_t seed = 3;
        sgemu_argval args[3];
        args[0] = image_arg(IW, IH, SGEMU_ORDER_RGBA, SGEMU_CHTYPE_UNSIGNED_INT8, &seed);
        args[1] = buffer(IW * 16);
        memset(&args[2], 0, sizeof args[2]);
        args[2].kind = SGEMU_VAL_SCALAR;
        args[2].scalar = (uint64_t)dx;
        sgemu_fault f;
        int rc = run(&k, IW, IW, args, &f);
        if (dx) {
            assert_int_equal(rc, SGEMU_EXIT_FAULT);
            assert_non_null(strstr(f.msg, "coordinate (32,0) is outside image 'src' (32x4)"));
            assert_non_null(strstr(f.msg, "send.smpl"));
        } else {
            assert_int_equal(rc, 0);
            const uint32_t *o = (const uint32_t *)args[1].data;
            for (uint32_t e = 0; e < IW * 4; e++)
                assert_int_equal(o[e], args[0].image.data[e]);
        }
        free(args[0].image.data);
        free(args[1].data);
    }
    isa_kernel_free(&k);
}

/* ------------------------------------------------------------ rounding */

/* The host's conversion of v to float in rounding mode `mode` (the x86
 * conversion instructions honour the rounding mode; volatile keeps the
 * compiler from folding them in its own mode). */
static float host_int_to_float(int64_t v, int mode)
{
    volatile int64_t x = v;
    fesetround(mode);
    volatile float r = (float)x;
    fesetround(FE_TONEAREST);
    return r;
}

static int32_t host_float_to_int(float v, int mode)
{
    volatile float x = v;
    fesetround(mode);
    volatile float r = nearbyintf(x);
    fesetround(FE_TONEAREST);
    return (int32_t)r;
}

/* The value of half bits h (IEEE binary16). */
static double half_value(uint16_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h >> 15 ? -v : v;
}

/* x rounded to half toward zero (up: toward +inf), by search over every
 * finite half: the nearest one on the required side. */
static uint16_t half_directed(float x, bool up)
{
    uint16_t best = 0;
    double bv = 0;
    bool have = false;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h >> 10 & 31) == 31)
            continue;
        double v = half_value((uint16_t)h);
        bool ok = up ? v >= x : (x >= 0 ? v <= x && v >= 0 : v >= x && v <= 0);
        if (ok && (!have || fabs(v - x) < fabs(bv - x) ||
                   (fabs(v - x) == fabs(bv - x) && signbit(v) == signbit(x)))) {
            best = (uint16_t)h;
            bv = v;
            have = true;
        }
    }
    return best;
}

/* Denormal single values flushed to zero, sign kept. */
static float ftz(float x)
{
    return fabsf(x) < FLT_MIN ? copysignf(0.0f, x) : x;
}

static void rounding(void **state)
{
    (void)state;
    const uint32_t n = 64;
    for (int daz = 0; daz < 2; daz++) {
        isa_kernel k;
        char path[1200], err[2048];
        snprintf(path, sizeof path, "%s/rounding.cl", kdir);
        int rc = sgemu_load_igc(path, "tgllp", daz ? "-cl-denorms-are-zero" : "", 0, NULL,
                                &k, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        assert_int_equal(rc, 0);
        sgemu_argval args[8] = { buffer(n * 4), buffer(n * 8), buffer(n * 4), buffer(n * 4),
                                 buffer(n * 24), buffer(n * 8), buffer(n * 4),
                                 buffer(n * 8) };
        int32_t *a = (int32_t *)args[0].data;
        int64_t *l = (int64_t *)args[1].data;
        float *f = (float *)args[2].data, *sm = (float *)args[3].data;
        uint32_t seed = 11;
        for (uint32_t i = 0; i < n; i++) {
            a[i] = (int32_t)(lcg(&seed) << 8 | lcg(&seed) >> 16);   /* above 2^24 */
            l[i] = (int64_t)((uint64_t)lcg(&seed) << 40 ^ (uint64_t)lcg(&seed) << 16 ^ lcg(&seed));
            f[i] = ((float)(lcg(&seed) % 600001) - 300000.0f) / 97.0f;   /* |f| < 3100 */
            /* tiny normals, denormals at every fourth */
            sm[i] = ldexpf((float)(lcg(&seed) % 1000 + 1), i % 4 ? -135 : -146) *
                    (i % 3 ? 1.0f : -1.0f);
        }
        sgemu_fault fl;
        assert_int_equal(run(&k, n, 32, args, &fl), 0);
        const float *o = (const float *)args[4].data, *dn = (const float *)args[7].data;
        const int32_t *oi = (const int32_t *)args[5].data;
        const uint16_t *oh = (const uint16_t *)args[6].data;
        for (uint32_t i = 0; i < n; i++) {
            assert_true(o[6 * i] == host_int_to_float(a[i], FE_TOWARDZERO));
            assert_true(o[6 * i + 1] == host_int_to_float(a[i], FE_UPWARD));
            assert_true(o[6 * i + 2] == host_int_to_float(a[i], FE_DOWNWARD));
            assert_true(o[6 * i + 3] == host_int_to_float((uint32_t)a[i], FE_TOWARDZERO));
            assert_true(o[6 * i + 4] == host_int_to_float(l[i], FE_TOWARDZERO));
            assert_true(o[6 * i + 5] == host_int_to_float(l[i], FE_DOWNWARD));
            assert_int_equal(oi[2 * i], host_float_to_int(f[i], FE_UPWARD));
            assert_int_equal(oi[2 * i + 1], host_float_to_int(f[i], FE_DOWNWARD));
            assert_int_equal(oh[2 * i], half_directed(f[i], false));
            assert_int_equal(oh[2 * i + 1], half_directed(f[i], true));
            float s2 = sm[(i + 1) % n];
            if (daz) {   /* inputs and results flushed */
                assert_true(dn[2 * i] == ftz(f[i] * ftz(sm[i])));
                assert_true(dn[2 * i + 1] == ftz(ftz(sm[i]) + ftz(s2)));
            } else {
                assert_true(dn[2 * i] == f[i] * sm[i]);
                assert_true(dn[2 * i + 1] == sm[i] + s2);
            }
        }
        for (int b = 0; b < 8; b++)
            free(args[b].data);
        isa_kernel_free(&k);
    }
}

/* ------------------------------------------------------------- divide */

/* 32-bit integer division on pvc (divide.cl): IGC divides through double
 * precision, switching cr0 to round toward zero around `mad ... :df`; a
 * quotient one off shows a mad rounded in the wrong mode.  Against C's
 * division, with the quotients near every power of two and the largest
 * operands. */
static void divide(void **state)
{
    (void)state;
    const uint32_t n = 96;
    emu_config hpc;
    bundled_config("intel-xe-hpc", &hpc);
    static const uint32_t edge[] = { 0, 1, 2, 3, 7, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                                     0xFFFFFFFFu, 0xFFFFFFFEu, 0x55555555u, 0xAAAAAAABu };
    isa_kernel k;
    load_for("pvc", "divide.cl", 16, "", &k);
    sgemu_argval args[6];
    for (int b = 0; b < 6; b++)
        args[b] = buffer(n * 4);
    uint32_t *a = (uint32_t *)args[0].data, *d = (uint32_t *)args[1].data;
    uint32_t seed = 5;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ne = sizeof edge / sizeof *edge;
        a[i] = i < ne * 2 ? edge[i % ne] : lcg(&seed) << 8 ^ lcg(&seed);
        d[i] = i < ne * 2 ? edge[(i * 5 + 1) % ne] : lcg(&seed) >> (i % 24);
        if (i >= ne * 2 && i % 3 == 0)   /* an exact multiple, and its neighbours */
            a[i] = d[i] * (lcg(&seed) % 50000) + (i % 4) - 1;
        if (d[i] == 0 || ((int32_t)d[i] == -1 && (int32_t)a[i] == INT32_MIN))
            d[i] = 3;
    }
    run_ok_on(&k, &hpc, n, 32, args);
    const uint32_t *q = (const uint32_t *)args[2].data, *r = (const uint32_t *)args[3].data;
    const int32_t *sq = (const int32_t *)args[4].data, *sr = (const int32_t *)args[5].data;
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(q[i], a[i] / d[i]);
        assert_int_equal(r[i], a[i] % d[i]);
        assert_int_equal(sq[i], (int32_t)a[i] / (int32_t)d[i]);
        assert_int_equal(sr[i], (int32_t)a[i] % (int32_t)d[i]);
    }
    for (int b = 0; b < 6; b++)
        free(args[b].data);
    isa_kernel_free(&k);
}

/* --------------------------------------------------------- named barriers */

/* Xe-HPC: sub-groups 0 and 1 of each work-group of 64 exchange values
 * twice at named barrier a, sub-groups 2 and 3 once at b (a single barrier
 * for all four would never complete); each result is the OpenCL reading of
 * the local array after the barriers. */
static void named_barriers(void **state)
{
    (void)state;
    char path[1200], err[2048];
    snprintf(path, sizeof path, "%s/named_barrier.cl", kdir);
    isa_kernel k;
    int rc = sgemu_load_igc(path, "pvc", "", 0, NULL, &k, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_true(k.gen->barrier_count >= 3);   /* the work-group's, a and b */
    emu_config hpc;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled("intel-xe-hpc", &hpc, &d), 0);
    isa_diags_free(&d);
    const uint32_t n = 128;
    sgemu_argval args[2] = { buffer(n * 4), buffer(n * 4) };
    int32_t *in = (int32_t *)args[0].data, *o = (int32_t *)args[1].data;
    uint32_t seed = 5;
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(lcg(&seed) % 100000);
    sgemu_launch L = launch_1d(n, 64, 16);
    L.max_instructions = 1000000;
    sgemu_stats st;
    sgemu_fault f;
    rc = sgemu_run(&k, &hpc, &L, args, &st, &f);
    if (rc)
        fprintf(stderr, "%s\n", f.msg);
    assert_int_equal(rc, 0);
    sgemu_stats_free(&st);
    for (uint32_t g = 0; g < n; g++) {
        uint32_t base = g / 64 * 64, l = g % 64;
        int32_t want = l < 32 ? in[g] * 3 + 1 : in[base + (l ^ 16)] * 3;
        assert_int_equal(o[g], want);
    }
    free(args[0].data);
    free(args[1].data);
    isa_kernel_free(&k);
}

int main(void)
{
    char err[256];
    if (!have_ocloc()) {
        printf("skipped: ocloc (Debian package intel-opencl-icd) is not installed\n");
        return 77;
    }
    if (!gen_iga_open(err, sizeof err)) {
        printf("skipped: %s\n", err);
        return 77;
    }
    const char *src = getenv("SGEMU_SRC");
    snprintf(kdir, sizeof kdir, "%s/tests/gen/kernels", src ? src : ".");
    isa_diags d;
    memset(&d, 0, sizeof d);
    if (emu_config_load_bundled("intel-xe-lp", &cfg, &d) != 0) {
        isa_diags_print(&d, stderr);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_fields),
        cmocka_unit_test(vadd),
        cmocka_unit_test(vadd_fault),
        cmocka_unit_test(ids),
        cmocka_unit_test(alu_int),
        cmocka_unit_test(alu_float),
        cmocka_unit_test(flow),
        cmocka_unit_test(flow_gen9),
        cmocka_unit_test(gen9_lrp),
        cmocka_unit_test(ieee_macros),
        cmocka_unit_test(gen9_gather),
        cmocka_unit_test(gen9_smov),
        cmocka_unit_test(gen9_u64_float),
        cmocka_unit_test(gen9_float_u64),
        cmocka_unit_test(gen9_float_atomics),
        cmocka_unit_test(gen9_cmp_overlap),
        cmocka_unit_test(gen9_callret),
        cmocka_unit_test(byval_pieces),
        cmocka_unit_test(undefined_call),
        cmocka_unit_test(lsc_unaligned),
        cmocka_unit_test(slm),
        cmocka_unit_test(packed_vector_dword),
        cmocka_unit_test(printf_full),
        cmocka_unit_test(atomic_types),
        cmocka_unit_test(ballot_mask),
        cmocka_unit_test(wg_pair),
        cmocka_unit_test(private_mem),
        cmocka_unit_test(private_pvc),
        cmocka_unit_test(private_hpg),
        cmocka_unit_test(block_io),
        cmocka_unit_test(images),
        cmocka_unit_test(sampler_short_response),
        cmocka_unit_test(image_ld),
        cmocka_unit_test(rounding),
        cmocka_unit_test(divide),
        cmocka_unit_test(named_barriers),
        cmocka_unit_test(shuffle),
        cmocka_unit_test(unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
