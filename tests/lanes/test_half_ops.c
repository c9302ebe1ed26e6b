/* The binary16 lane kernels of lanes/fast.c (add sub mul div mad fma min
 * max abs neg sqrt, compares, cvt f16 <-> f32/f64) against a reference
 * written from the IEEE 754 definition: a finite half is sig 2^(E-25)
 * with integer fields, results are found by exact integer comparisons of
 * the exact value with the halves and the midpoints between them (__int128,
 * no floating point), ties to even, 65520 and above to infinity.  Special
 * operands and zero signs follow the standard's rules, spelled out below.
 * Unary ops run over all 65536 halves, the others over edge-value crosses
 * and large random sets (cancellations and near-ties included).  A NaN
 * result must be a quiet NaN; the exact payload is checked against
 * lanes_exec_alu by test_fast.c's differential test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lanes.h"
#include "lanes_fast.h"
#include "ref_half.h"

__extension__ typedef __int128 i128;

enum { W = 16 };

static uint64_t rng_state;
static uint64_t rnd64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

/* ------------------------------------------------ the reference */

static bool h_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }
static bool h_inf(uint16_t h) { return (h & 0x7fff) == 0x7c00; }
static bool h_zero(uint16_t h) { return (h & 0x7fff) == 0; }
static int h_neg(uint16_t h) { return h >> 15; }

/* significand and exponent of |h| (finite): |h| = sig 2^(e - 25); also
 * for the magnitude 0x7c00, read as 2^16, the first value past 65504 were
 * the exponent unbounded */
static void h_fields(uint16_t h, int64_t *sig, int *e)
{
    const int ef = (h >> 10) & 31;
    *sig = (h & 1023) | (ef ? 1024 : 0);
    *e = ef ? ef : 1;
}

/* |h| in units of 2^-48 (every half and every midpoint of two is one) */
static i128 q48(uint16_t mag)
{
    int64_t sig;
    int e;
    h_fields(mag, &sig, &e);
    return (i128)sig << (e + 23);
}

/* sign(v - X) for v >= 0 in units of 2^-48 and the exact |X| of an op */
typedef int (*cmp_fn)(const void *ctx, i128 v);

/* the half magnitude nearest to |X| (ties to even): binary search for the
 * largest k <= 0x7c00 with q48(k) <= |X|, then the midpoint decides */
static uint16_t round_mag(cmp_fn cmp, const void *ctx)
{
    uint16_t lo = 0, hi = 0x7c00;
    if (cmp(ctx, q48(hi)) <= 0)
        return 0x7c00;
    while (hi - lo > 1) {
        const uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (cmp(ctx, q48(mid)) <= 0)
            lo = mid;
        else
            hi = mid;
    }
    const int at = cmp(ctx, q48(lo));
    if (at == 0)
        return lo;
    const int m = cmp(ctx, (q48(lo) + q48(hi)) / 2);
    if (m > 0)
        return lo;
    if (m < 0)
        return hi;
    return (lo & 1) ? hi : lo;
}

/* |X| = |a b| + s |c| (s = +1 or -1; c may be 0), in units of 2^-48 */
typedef struct lin { i128 x; } lin;
static int cmp_lin(const void *ctx, i128 v)
{
    const i128 x = ((const lin *)ctx)->x;
    return v < x ? -1 : v > x;
}

/* a b in units of 2^-48, signed */
static i128 prod48(uint16_t a, uint16_t b)
{
    int64_t sa, sb;
    int ea, eb;
    h_fields(a & 0x7fff, &sa, &ea);
    h_fields(b & 0x7fff, &sb, &eb);
    const i128 p = (i128)(sa * sb) << (ea + eb - 2);
    return h_neg(a) != h_neg(b) ? -p : p;
}

static i128 val48(uint16_t a)
{
    const i128 v = q48(a & 0x7fff);
    return h_neg(a) ? -v : v;
}

/* the rounded half of an exact value X (units of 2^-48); a zero X gets
 * the sign zero_neg */
static uint16_t round_exact(i128 x, int zero_neg)
{
    if (x == 0)
        return zero_neg ? 0x8000 : 0;
    lin c = { x < 0 ? -x : x };
    return (uint16_t)((x < 0 ? 0x8000 : 0) | round_mag(cmp_lin, &c));
}

static const uint16_t QNAN = 0x7e00;

static uint16_t ref_add(uint16_t a, uint16_t b)
{
    if (h_nan(a) || h_nan(b))
        return QNAN;
    if (h_inf(a) || h_inf(b)) {
        if (h_inf(a) && h_inf(b) && h_neg(a) != h_neg(b))
            return QNAN;
        return h_inf(a) ? a : b;
    }
    /* an exact zero sum is +0, except -0 + -0 (round to nearest) */
    return round_exact(val48(a) + val48(b), h_neg(a) && h_neg(b));
}

static uint16_t ref_sub(uint16_t a, uint16_t b)
{
    return ref_add(a, b ^ 0x8000);
}

static uint16_t ref_mul(uint16_t a, uint16_t b)
{
    const uint16_t s = (uint16_t)((a ^ b) & 0x8000);
    if (h_nan(a) || h_nan(b))
        return QNAN;
    if (h_inf(a) || h_inf(b))
        return h_zero(a) || h_zero(b) ? QNAN : s | 0x7c00;
    const i128 p = prod48(a, b);
    if (p == 0)
        return s;
    lin c = { p < 0 ? -p : p };
    return s | round_mag(cmp_lin, &c);
}

/* fused: a b + c exact, rounded once */
static uint16_t ref_fma(uint16_t a, uint16_t b, uint16_t c)
{
    const uint16_t ps = (uint16_t)((a ^ b) & 0x8000);
    if (h_nan(a) || h_nan(b) || h_nan(c))
        return QNAN;
    if (h_inf(a) || h_inf(b)) {
        if (h_zero(a) || h_zero(b))
            return QNAN;
        if (h_inf(c) && (c & 0x8000) != ps)
            return QNAN;
        return ps | 0x7c00;
    }
    if (h_inf(c))
        return c;
    const i128 p = prod48(a, b);
    /* a zero product carries the sign ps; like signs keep it */
    const int zneg = p == 0 && ps && h_neg(c) && h_zero(c);
    return round_exact(p + val48(c), zneg);
}

/* mad: the product rounded to a half, then the sum rounded (docs/isa.md) */
static uint16_t ref_mad(uint16_t a, uint16_t b, uint16_t c)
{
    return ref_add(ref_mul(a, b), c);
}

/* |a| / |b| against v: v |b| vs |a|, both sides times 2^25 */
typedef struct quot { int64_t sa, sb; int ea, eb; } quot;
static int cmp_quot(const void *ctx, i128 v)
{
    const quot *q = ctx;
    const i128 lhs = v * q->sb << q->eb;
    const i128 rhs = (i128)q->sa << (q->ea + 48);
    return lhs < rhs ? -1 : lhs > rhs;
}

static uint16_t ref_div(uint16_t a, uint16_t b)
{
    const uint16_t s = (uint16_t)((a ^ b) & 0x8000);
    if (h_nan(a) || h_nan(b))
        return QNAN;
    if (h_inf(a))
        return h_inf(b) ? QNAN : s | 0x7c00;
    if (h_inf(b))
        return s;
    if (h_zero(b))
        return h_zero(a) ? QNAN : s | 0x7c00;
    if (h_zero(a))
        return s;
    quot q;
    h_fields(a & 0x7fff, &q.sa, &q.ea);
    h_fields(b & 0x7fff, &q.sb, &q.eb);
    return s | round_mag(cmp_quot, &q);
}

/* sqrt|a| against v: v^2 vs |a|, in units of 2^-96 */
typedef struct root { i128 a96; } root;
static int cmp_root(const void *ctx, i128 v)
{
    if (v > ((i128)1 << 58))        /* past 2^10 > sqrt(65504): above */
        return 1;
    const i128 sq = v * v, a = ((const root *)ctx)->a96;
    return sq < a ? -1 : sq > a;
}

static uint16_t ref_sqrt(uint16_t a)
{
    if (h_nan(a))
        return QNAN;
    if (h_zero(a))
        return a;
    if (h_neg(a))
        return QNAN;
    if (h_inf(a))
        return a;
    root r = { q48(a) << 48 };
    return round_mag(cmp_root, &r);
}

/* fmin/fmax: a NaN operand is ignored, -0 < +0 */
static int ord(uint16_t a, uint16_t b)  /* sign(a - b), -0 < +0, not NaN */
{
    const i128 x = val48(a), y = val48(b);
    if (h_inf(a) || h_inf(b)) {
        const int ia = h_inf(a) ? (h_neg(a) ? -1 : 1) : 0;
        const int ib = h_inf(b) ? (h_neg(b) ? -1 : 1) : 0;
        return ia < ib ? -1 : ia > ib;
    }
    if (x != y)
        return x < y ? -1 : 1;
    return h_neg(b) - h_neg(a);
}

static uint16_t ref_min(uint16_t a, uint16_t b)
{
    if (h_nan(a))
        return h_nan(b) ? QNAN : b;
    if (h_nan(b))
        return a;
    return ord(a, b) <= 0 ? a : b;
}

static uint16_t ref_max(uint16_t a, uint16_t b)
{
    if (h_nan(a))
        return h_nan(b) ? QNAN : b;
    if (h_nan(b))
        return a;
    return ord(a, b) >= 0 ? a : b;
}

/* ordered compare; every one but ne is false with a NaN, -0 == +0 */
static bool ref_cmp(isa_binop c, uint16_t a, uint16_t b)
{
    if (h_nan(a) || h_nan(b))
        return c == ISA_BINOP_NE;
    int s = ord(a, b);
    if (h_zero(a) && h_zero(b))
        s = 0;
    switch (c) {
    case ISA_BINOP_EQ: return s == 0;
    case ISA_BINOP_NE: return s != 0;
    case ISA_BINOP_LT: return s < 0;
    case ISA_BINOP_LE: return s <= 0;
    case ISA_BINOP_GT: return s > 0;
    default:           return s >= 0;
    }
}

/* ------------------------------------------------ running the kernels */

static void expect(const char *what, uint16_t a, uint16_t b, uint16_t c,
                   uint64_t got, uint16_t ref)
{
    if (h_nan(ref)) {
        /* a quiet NaN, nothing above the half */
        if (got > 0xffff || !h_nan((uint16_t)got) || !(got & 0x200))
            fail_msg("%s(%#x, %#x, %#x) = %#llx, want a quiet NaN", what, a, b, c,
                     (unsigned long long)got);
        return;
    }
    if (got != ref)
        fail_msg("%s(%#x, %#x, %#x) = %#llx, want %#x", what, a, b, c,
                 (unsigned long long)got, ref);
}

typedef uint16_t (*ref3_fn)(uint16_t, uint16_t, uint16_t);
static uint16_t r_add(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_add(a, b); }
static uint16_t r_sub(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_sub(a, b); }
static uint16_t r_mul(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_mul(a, b); }
static uint16_t r_div(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_div(a, b); }
static uint16_t r_min(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_min(a, b); }
static uint16_t r_max(uint16_t a, uint16_t b, uint16_t c) { (void)c; return ref_max(a, b); }

static const struct { isa_family f; const char *name; ref3_fn ref; } ops3[] = {
    { ISA_FAM_ADD, "add", r_add }, { ISA_FAM_SUB, "sub", r_sub },
    { ISA_FAM_MUL, "mul", r_mul }, { ISA_FAM_DIV, "div", r_div },
    { ISA_FAM_MIN, "min", r_min }, { ISA_FAM_MAX, "max", r_max },
    { ISA_FAM_MAD, "mad", ref_mad }, { ISA_FAM_FMA, "fma", ref_fma },
};

/* run every binary/ternary kernel on n operand triples, in rows of w
 * lanes (16: the four-lane loop only; 7: one pass of it and three lanes
 * of the scalar loop) */
static long check_rows_w(const uint16_t *ta, const uint16_t *tb, const uint16_t *tc,
                         size_t n, uint32_t w)
{
    long checked = 0;
    for (size_t oi = 0; oi < sizeof ops3 / sizeof *ops3; oi++) {
        const lanes_fast_fn fn = lanes_fast_alu(ops3[oi].f, ISA_T_F16, w);
        assert_non_null(fn);
        for (size_t i = 0; i < n; i += w) {
            uint64_t a[W] = { 0 }, b[W] = { 0 }, c[W] = { 0 }, r[W];
            const size_t k = n - i < w ? n - i : w;
            for (size_t l = 0; l < k; l++) {
                a[l] = ta[i + l];
                b[l] = tb[i + l];
                c[l] = tc[i + l];
            }
            fn(r, a, b, c, w);
            for (size_t l = 0; l < k; l++) {
                expect(ops3[oi].name, ta[i + l], tb[i + l], tc[i + l], r[l],
                       ops3[oi].ref(ta[i + l], tb[i + l], tc[i + l]));
                checked++;
            }
        }
    }
    return checked;
}

static long check_rows(const uint16_t *ta, const uint16_t *tb, const uint16_t *tc,
                       size_t n)
{
    return check_rows_w(ta, tb, tc, n, W) + check_rows_w(ta, tb, tc, n, 7);
}

/* signed zeros, the smallest and largest subnormals and normals, one and
 * its neighbours, the largest finite, infinities, quiet and signalling
 * NaNs */
static const uint16_t edges[] = {
    0x0000, 0x0001, 0x0002, 0x03ff, 0x0400, 0x0401, 0x3bff, 0x3c00, 0x3c01,
    0x3e00, 0x4000, 0x5bff, 0x7bfe, 0x7bff, 0x7c00, 0x7e00, 0x7c01, 0x7d55,
};
enum { NEDGE = sizeof edges / sizeof *edges };

static void test_edge_cross(void **state)
{
    (void)state;
    enum { N = (2 * NEDGE) * (2 * NEDGE) * (2 * NEDGE) };
    static uint16_t a[N], b[N], c[N];
    size_t n = 0;
    for (int i = 0; i < 2 * NEDGE; i++)
        for (int j = 0; j < 2 * NEDGE; j++)
            for (int k = 0; k < 2 * NEDGE; k++) {
                a[n] = edges[i / 2] | (uint16_t)((i & 1) << 15);
                b[n] = edges[j / 2] | (uint16_t)((j & 1) << 15);
                c[n] = edges[k / 2] | (uint16_t)((k & 1) << 15);
                n++;
            }
    assert_int_equal(check_rows(a, b, c, n), (long)n * 16);
}

static uint16_t random_half(void)
{
    const uint64_t r = rnd64();
    switch (r & 7) {
    case 0:  return edges[(r >> 8) % NEDGE] | (uint16_t)((r >> 40) & 0x8000);
    case 1:  return (uint16_t)((r >> 16) & 0x83ff);           /* subnormal */
    default: return (uint16_t)(r >> 16);
    }
}

static void test_random(void **state)
{
    (void)state;
    enum { N = 1 << 18 };
    static uint16_t a[N], b[N], c[N];
    rng_state = 0x6a09e667f3bcc908u;
    for (size_t i = 0; i < N; i++) {
        a[i] = random_half();
        b[i] = random_half();
        c[i] = random_half();
        switch (i % 4) {
        case 1:
            /* close exponents: cancellation in add/sub, near-ties */
            b[i] = (uint16_t)((a[i] & 0xfc00) ^ 0x8000) | (b[i] & 0x3ff);
            break;
        case 2: {
            /* c near -a b: the fused sum cancels to a few bits, where the
             * product's low bits decide the rounding */
            const uint16_t p = ref_mul(a[i], b[i]);
            if (!h_nan(p) && !h_inf(p))
                c[i] = (uint16_t)((p ^ 0x8000) + (int)(rnd64() % 5) - 2);
            if (h_nan(c[i]))
                c[i] = p ^ 0x8000;
            break;
        }
        case 3:
            /* c tiny against a b: a sticky bit far below the half's ulp */
            c[i] = (uint16_t)((rnd64() & 0x8000) | (rnd64() % 0x0800));
            break;
        }
    }
    assert_int_equal(check_rows(a, b, c, N), (long)N * 16);
}

/* a b + c with a b in [1, 4) and c = -1 or -2: the sum cancels the
 * leading bits, so the product's low bits (below the half's ulp, often a
 * tie) decide the fused result, where mad has rounded them away */
static void test_fma_ties(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint16_t a[N], b[N], c[N];
    rng_state = 0xbb67ae8584caa73bu;
    size_t n = 0;
    while (n < N) {
        /* 1 + 2^-10 k times 1 + 2^-10 j, against -1 or -2 */
        const uint16_t x = (uint16_t)(0x3c00 | (rnd64() & 0x3ff));
        const uint16_t y = (uint16_t)(0x3c00 | (rnd64() & 0x3ff));
        a[n] = x;
        b[n] = y;
        c[n] = (rnd64() & 1) ? 0xbc00 : 0xc000;
        n++;
    }
    assert_int_equal(check_rows(a, b, c, n), (long)n * 16);
    /* spot values: (1 + 2^-10)(1 + 3 2^-10) - 1 = 2^-8 + 3 2^-20; the
     * 3 2^-20 is 3/4 of the result's ulp (2^-18), so fma rounds up to
     * 2^-8 + 2^-18, while mad loses it with the product's rounding (half
     * an ulp of 1 is 2^-11) and gives 2^-8 */
    const lanes_fast_fn fma = lanes_fast_alu(ISA_FAM_FMA, ISA_T_F16, W);
    const lanes_fast_fn mad = lanes_fast_alu(ISA_FAM_MAD, ISA_T_F16, W);
    uint64_t ra[W], rb[W], rc[W], r[W];
    for (int l = 0; l < W; l++) {
        ra[l] = 0x3c01;
        rb[l] = 0x3c03;
        rc[l] = 0xbc00;             /* -1 */
    }
    fma(r, ra, rb, rc, W);
    assert_int_equal(r[0], 0x1c01);
    mad(r, ra, rb, rc, W);
    assert_int_equal(r[0], 0x1c00);
}

static void unary_exhaustive(uint32_t w);

static void test_unary_exhaustive(void **state)
{
    (void)state;
    /* rows of 16 (the four-lane loop) and of 7 (three scalar lanes too) */
    unary_exhaustive(W);
    unary_exhaustive(7);
}

static void unary_exhaustive(uint32_t w)
{
    const lanes_fast_fn sq = lanes_fast_alu(ISA_FAM_SQRT, ISA_T_F16, w);
    const lanes_fast_fn ab = lanes_fast_alu(ISA_FAM_ABS, ISA_T_F16, w);
    const lanes_fast_fn ng = lanes_fast_alu(ISA_FAM_NEG, ISA_T_F16, w);
    const lanes_fast_fn h2f = lanes_fast_cvt(ISA_T_F32, ISA_T_F16, w);
    const lanes_fast_fn h2d = lanes_fast_cvt(ISA_T_F64, ISA_T_F16, w);
    const lanes_fast_fn f2h = lanes_fast_cvt(ISA_T_F16, ISA_T_F32, w);
    assert_non_null(sq);
    assert_non_null(ab);
    assert_non_null(ng);
    assert_non_null(h2f);
    assert_non_null(h2d);
    assert_non_null(f2h);
    for (uint32_t h0 = 0; h0 < 65536; h0 += w) {
        const int k = h0 + w <= 65536 ? (int)w : (int)(65536 - h0);
        uint64_t a[W] = { 0 }, r[W], f[W], d[W], back[W];
        for (int l = 0; l < k; l++)
            a[l] = h0 + (uint32_t)l;
        h2f(f, a, NULL, NULL, w);
        h2d(d, a, NULL, NULL, w);
        f2h(back, f, NULL, NULL, w);
        for (int l = 0; l < k; l++) {
            const uint16_t h = (uint16_t)a[l];
            float fv;
            double dv;
            const uint32_t fb = (uint32_t)f[l];
            memcpy(&fv, &fb, sizeof fv);
            memcpy(&dv, &d[l], sizeof dv);
            assert_true(f[l] <= 0xffffffffu);
            if (h_nan(h)) {
                /* quiet, payload in the top mantissa bits, sign kept */
                assert_int_equal(fb, ((uint32_t)(h & 0x8000) << 16) | 0x7fc00000u |
                                     ((uint32_t)(h & 0x3ff) << 13));
                assert_true(isnan(dv) && !!signbit(dv) == h_neg(h));
                assert_int_equal(back[l], h | 0x200);
                continue;
            }
            assert_true((double)fv == ref_half(h));
            assert_true(dv == ref_half(h));
            assert_int_equal(!!signbit(fv), h_neg(h));
            assert_int_equal(!!signbit(dv), h_neg(h));
            assert_int_equal(back[l], h);
        }
        sq(r, a, NULL, NULL, w);
        for (int l = 0; l < k; l++)
            expect("sqrt", (uint16_t)a[l], 0, 0, r[l], ref_sqrt((uint16_t)a[l]));
        ab(r, a, NULL, NULL, w);
        for (int l = 0; l < k; l++)
            assert_int_equal(r[l], a[l] & 0x7fff);
        ng(r, a, NULL, NULL, w);
        for (int l = 0; l < k; l++)
            assert_int_equal(r[l], a[l] ^ 0x8000);
    }
}

static uint64_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* f32 -> f16 rounding: every half, the midpoints around it and the floats
 * next to those, then random floats over the half's range, against
 * ref_round16 (a float and each half are exact in long double) */
static void test_f32_to_f16(void **state)
{
    (void)state;
    const lanes_fast_fn f2h = lanes_fast_cvt(ISA_T_F16, ISA_T_F32, W);
    assert_non_null(f2h);
    enum { N = 1 << 20 };
    static float v[N];
    size_t n = 0;
    for (uint32_t h = 0; h < 0x7c00; h++) {
        const float x = (float)ref_half((uint16_t)h);
        const float mid = (float)((ref_half((uint16_t)h) +
                                   (h == 0x7bff ? 65536.0 : ref_half((uint16_t)(h + 1)))) / 2);
        const float c[] = { x, nextafterf(x, 0), nextafterf(x, INFINITY), mid,
                            nextafterf(mid, 0), nextafterf(mid, INFINITY) };
        for (int k = 0; k < 6 && n + 2 <= N; k++) {
            v[n++] = c[k];
            v[n++] = -c[k];
        }
    }
    rng_state = 0x3c6ef372fe94f82bu;
    while (n < N) {
        /* exponents from far below the subnormals to past the overflow */
        const uint64_t r = rnd64();
        const uint32_t e = 90 + (uint32_t)(r % 60);
        const uint32_t u = (uint32_t)((r >> 32) & 0x807fffffu) | (e << 23);
        memcpy(&v[n++], &u, sizeof(float));
    }
    const lanes_fast_fn f2h7 = lanes_fast_cvt(ISA_T_F16, ISA_T_F32, 7);
    assert_non_null(f2h7);
    for (size_t i = 0; i < N; i += W) {
        uint64_t a[W], r[W];
        for (int l = 0; l < W; l++)
            a[l] = fbits(v[i + (size_t)l]);
        /* rows of 16, and of 7 (three lanes in the scalar loop) */
        if ((i / W) & 1) {
            f2h7(r, a, NULL, NULL, 7);
            f2h7(r + 7, a + 7, NULL, NULL, 7);
            f2h7(r + 14, a + 14, NULL, NULL, 2);
        } else {
            f2h(r, a, NULL, NULL, W);
        }
        for (int l = 0; l < W; l++) {
            const uint16_t want = ref_round16((long double)v[i + (size_t)l], RM_NEAR);
            if (r[l] != want)
                fail_msg("cvt.f16.f32(%a) = %#llx, want %#x", (double)v[i + (size_t)l],
                         (unsigned long long)r[l], want);
        }
    }
    /* infinities and NaNs */
    uint64_t a[W] = { fbits(INFINITY), fbits(-INFINITY), 0x7f800001u, 0xffc12345u,
                      fbits(1e30f), fbits(-65520.0f), fbits(65519.99f) }, r[W];
    f2h(r, a, NULL, NULL, W);
    assert_int_equal(r[0], 0x7c00);
    assert_int_equal(r[1], 0xfc00);
    assert_int_equal(r[2], 0x7e00);                          /* quieted */
    assert_int_equal(r[3], 0xfe00 | ((0xffc12345u >> 13) & 0x3ff));
    assert_int_equal(r[4], 0x7c00);
    assert_int_equal(r[5], 0xfc00);
    assert_int_equal(r[6], 0x7bff);
}

static void test_compares(void **state)
{
    (void)state;
    enum { N = 1 << 16 };
    rng_state = 0x510e527fade682d1u;
    long checked = 0;
    for (int cond = ISA_BINOP_EQ; cond <= ISA_BINOP_GE; cond++) {
        const lanes_fast_cmp_fn cf = lanes_fast_cmp((isa_binop)cond, ISA_T_F16, W);
        const lanes_fast_cmp_fn cf7 = lanes_fast_cmp((isa_binop)cond, ISA_T_F16, 7);
        assert_non_null(cf);
        assert_non_null(cf7);
        for (int i = 0; i < N; i += W) {
            uint64_t a[W], b[W];
            for (int l = 0; l < W; l++) {
                a[l] = random_half();
                /* equal values, the other zero, or unrelated */
                b[l] = (l & 3) == 0 ? a[l] : (l & 3) == 1 ? a[l] ^ 0x8000 : random_half();
            }
            /* rows of 16, or 7 + 7 + 2 (scalar lanes at the ends) */
            const lanes_mask m = (i / W) & 1
                ? cf7(a, b, 7) | cf7(a + 7, b + 7, 7) << 7 | cf7(a + 14, b + 14, 2) << 14
                : cf(a, b, W);
            for (int l = 0; l < W; l++) {
                const bool want = ref_cmp((isa_binop)cond, (uint16_t)a[l], (uint16_t)b[l]);
                if (((m >> l) & 1) != want)
                    fail_msg("cmp %d (%#llx, %#llx) = %d", cond, (unsigned long long)a[l],
                             (unsigned long long)b[l], (int)((m >> l) & 1));
                checked++;
            }
        }
    }
    assert_int_equal(checked, 6L * N);
}

/* Each test runs twice: with the kernels lanes_fast hands out by default
 * (F16C conversions where the host has them) and with the SSE2 ones. */
static bool host_f16c;

static int use_f16c(void **state)
{
    (void)state;
    lanes_fast_set_f16c(true);
    return 0;
}

static int use_sse2(void **state)
{
    (void)state;
    lanes_fast_set_f16c(false);
    return 0;
}

/* the switch changes the kernels exactly when the host has F16C */
static void test_switch(void **state)
{
    (void)state;
    lanes_fast_set_f16c(false);
    const lanes_fast_fn s = lanes_fast_alu(ISA_FAM_MAD, ISA_T_F16, W);
    const lanes_fast_cmp_fn sc = lanes_fast_cmp(ISA_BINOP_LT, ISA_T_F16, W);
    const lanes_fast_fn sv = lanes_fast_cvt(ISA_T_F16, ISA_T_F32, W);
    assert_false(lanes_fast_set_f16c(true));
    host_f16c = lanes_fast_set_f16c(true);
    assert_true(host_f16c == (lanes_fast_alu(ISA_FAM_MAD, ISA_T_F16, W) != s));
    assert_true(host_f16c == (lanes_fast_cmp(ISA_BINOP_LT, ISA_T_F16, W) != sc));
    assert_true(host_f16c == (lanes_fast_cvt(ISA_T_F16, ISA_T_F32, W) != sv));
    /* abs and neg are bit operations with one kernel */
    lanes_fast_set_f16c(false);
    const lanes_fast_fn sa = lanes_fast_alu(ISA_FAM_ABS, ISA_T_F16, W);
    lanes_fast_set_f16c(true);
    assert_ptr_equal(lanes_fast_alu(ISA_FAM_ABS, ISA_T_F16, W), sa);
    fprintf(stderr, "F16C kernels: %s\n", host_f16c ? "yes" : "no (host lacks F16C)");
}

#define BOTH(t) cmocka_unit_test_setup(t, use_f16c), cmocka_unit_test_setup(t, use_sse2)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switch),
        BOTH(test_unary_exhaustive),
        BOTH(test_f32_to_f16),
        BOTH(test_edge_cross),
        BOTH(test_fma_ties),
        BOTH(test_random),
        BOTH(test_compares),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    lanes_fast_set_f16c(true);
    return rc;
}
