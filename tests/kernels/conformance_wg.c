/* conformance_wg.c - conformance audit of the work-group functions, shaped
 * like the Khronos CTS workgroups/ tests: tests/kernels/conformance_wg.cl
 * at SIMD8/16/32 over 1-, 2- and 3-D NDRanges with partial sub-groups and
 * non-uniform (remainder) work-groups, integer inputs over the full range
 * (sums wrap), float inputs whose sums are exact in any order (plus NaN,
 * infinities and -0.0), references written from
 * opencl-c-work-group-functions.txt: the fold over the work-items in
 * increasing linear local id order ("The scan order is defined by
 * increasing 1D linear global ID within the work-group"). */
#include "conformance_common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

static uint64_t rng = 0xD1B54A32D192ED03ULL;
static uint64_t rnd64(void) { return cli_rand(&rng); }
static uint32_t rnd(void) { return (uint32_t)(rnd64() >> 32); }

static const char *const tmp = cli_tmpdir;

enum { WG_NOUT = 12, WG_MAXG = 4000 };

typedef struct {
    unsigned dims, G[3], L[3];
} wg_shape;

static const wg_shape shapes[] = {
    { 1, { 2600, 1, 1 }, { 200, 1, 1 } },   /* CTS-like: partial last sub-group */
    { 1, { 2150, 1, 1 }, { 200, 1, 1 } },   /* non-uniform: last work-group 150 */
    { 2, { 40, 15, 1 }, { 10, 7, 1 } },     /* 70 items; last row of groups 1 high */
    { 3, { 12, 6, 5 }, { 5, 3, 2 } },       /* 30 items; remainders in x and z */
    { 1, { 21, 1, 1 }, { 7, 1, 1 } },       /* work-groups smaller than a sub-group */
    { 1, { 5, 1, 1 }, { 1, 1, 1 } },        /* one work-item per work-group */
    { 2, { 64, 2, 1 }, { 64, 2, 1 } },      /* 128 items: 16, 8, 4 full sub-groups */
    { 3, { 7, 5, 9 }, { 4, 4, 4 } },        /* 64 items, remainders in every dimension */
};

static uint64_t wg_value(const cf_type *t)
{
    if (t->k == CK_INT)
        return rnd64() & cf_mask(t);   /* full range: the sums wrap */
    uint32_t r = rnd() % 200;
    double v;
    if (r == 0)
        v = NAN;
    else if (r < 4)
        v = -0.0;
    else if (r == 4)
        v = (rnd() & 1) ? INFINITY : -INFINITY;
    else   /* |sum| <= 200 * range stays exact (half: 800 < 2048) */
        v = (double)((int)(rnd() % (t->k == CK_F16 ? 9 : 257)) - (t->k == CK_F16 ? 4 : 128));
    return cf_fromfl(t, v);
}

/* the real size of the work-group holding coordinate c along dimension d */
static unsigned real_size(const wg_shape *s, unsigned d, unsigned c)
{
    unsigned grp = c / s->L[d];
    return (grp + 1) * s->L[d] <= s->G[d] ? s->L[d] : s->G[d] - grp * s->L[d];
}

static void run_wg(const cf_type *t, unsigned W, const wg_shape *s, bool negzero)
{
    unsigned total = s->G[0] * s->G[1] * s->G[2];
    unsigned ng[3], ngroups = 1;
    for (unsigned d = 0; d < 3; d++) {
        ng[d] = (s->G[d] + s->L[d] - 1) / s->L[d];
        ngroups *= ng[d];
    }
    static uint8_t a[WG_MAXG * 8], out[WG_MAXG * WG_NOUT * 8];
    static int32_t p[WG_MAXG];
    static uint32_t ids[3 * 64];
    assert_true(total <= WG_MAXG && ngroups <= 64);
    for (unsigned i = 0; i < total; i++) {
        cf_st(t, a, i, negzero ? cf_fromfl(t, -0.0) : wg_value(t));
        p[i] = 0;
    }
    /* broadcast ids: inside each work-group's real shape */
    for (unsigned gz = 0; gz < ng[2]; gz++)
        for (unsigned gy = 0; gy < ng[1]; gy++)
            for (unsigned gx = 0; gx < ng[0]; gx++) {
                unsigned gl = gx + ng[0] * (gy + ng[1] * gz), c[3] = { gx, gy, gz };
                for (unsigned d = 0; d < 3; d++)
                    ids[3 * gl + d] = d < s->dims ? rnd() % real_size(s, d, c[d] * s->L[d]) : 0;
            }
    /* predicates per work-group: all non-zero; all zero; all non-zero but
     * one; all zero but one (41) */
    for (unsigned z = 0; z < s->G[2]; z++)
        for (unsigned y = 0; y < s->G[1]; y++)
            for (unsigned x = 0; x < s->G[0]; x++) {
                unsigned gl = x / s->L[0] + ng[0] * (y / s->L[1] + ng[1] * (z / s->L[2]));
                unsigned i = x + s->G[0] * (y + s->G[1] * z);
                bool first = x % s->L[0] == 0 && y % s->L[1] == 0 && z % s->L[2] == 0;
                switch (gl % 4) {
                case 0: p[i] = (int32_t)(rnd() | 1); break;
                case 1: p[i] = 0; break;
                case 2: p[i] = first ? 0 : -1; break;
                default: p[i] = first ? 41 : 0; break;
                }
            }
    char gs[48], ls[48];
    snprintf(gs, sizeof gs, "%u,%u,%u", s->G[0], s->G[1], s->G[2]);
    snprintf(ls, sizeof ls, "%u,%u,%u", s->L[0], s->L[1], s->L[2]);
    if (s->dims < 3) {   /* as many values as dimensions */
        *strrchr(gs, ',') = 0;
        *strrchr(ls, ',') = 0;
    }
    if (s->dims < 2) {
        *strrchr(gs, ',') = 0;
        *strrchr(ls, ',') = 0;
    }
    cli_put("a.bin", a, (size_t)total * t->size);
    cli_put("p.bin", p, total * sizeof *p);
    cli_put("ids.bin", ids, 3 * ngroups * sizeof *ids);
    cli_run_ok("run %s/conformance_wg.spv --kernel wg_%s --sg %u --global %s --local %s "
               "--no-timing --arg a=%s:@%s/a.bin --arg p=int:@%s/p.bin --arg ids=uint:@%s/ids.bin "
               "--arg out=%s:zeros:%u --out out=%s/r.bin -q", tmp, t->name, W, gs, ls, t->name,
               tmp, tmp, tmp, t->name, total * WG_NOUT, tmp);
    cli_get("r.bin", out, (size_t)total * WG_NOUT * t->size);

    /* reference: per work-group, its work-items in linear local order */
    static const cf_op ops[3] = { OP_ADD, OP_MIN, OP_MAX };
    for (unsigned gz = 0; gz < ng[2]; gz++)
        for (unsigned gy = 0; gy < ng[1]; gy++)
            for (unsigned gx = 0; gx < ng[0]; gx++) {
                unsigned o3[3] = { gx * s->L[0], gy * s->L[1], gz * s->L[2] }, R[3];
                for (unsigned d = 0; d < 3; d++)
                    R[d] = real_size(s, d, o3[d]);
                unsigned n = R[0] * R[1] * R[2], gl = gx + ng[0] * (gy + ng[1] * gz);
                static uint64_t v[WG_MAXG];
                static unsigned gid[WG_MAXG], ord[WG_MAXG];
                bool all = true, any = false;
                for (unsigned k = 0; k < n; k++) {   /* k = linear local id */
                    unsigned lx = k % R[0], ly = k / R[0] % R[1], lz = k / (R[0] * R[1]);
                    gid[k] = (o3[0] + lx) + s->G[0] * ((o3[1] + ly) + s->G[1] * (o3[2] + lz));
                    v[k] = cf_ld(t, a, gid[k]);
                    ord[k] = k;
                    all = all && p[gid[k]] != 0;
                    any = any || p[gid[k]] != 0;
                }
                const uint32_t *id = &ids[3 * gl];
                unsigned src = id[0] + R[0] * (id[1] + R[1] * id[2]);
                uint64_t one = t->k == CK_INT ? 1 : cf_fromfl(t, 1.0);
                for (unsigned k = 0; k < n; k++) {
                    const uint8_t *o = out + (size_t)gid[k] * WG_NOUT * t->size;
                    for (unsigned q = 0; q < 3; q++) {
                        uint64_t e[3] = { fold(t, ops[q], v, ord, n),
                                          fold(t, ops[q], v, ord, k + 1),
                                          fold(t, ops[q], v, ord, k) };
                        for (unsigned f = 0; f < 3; f++) {
                            uint64_t got = cf_ld(t, o, f * 3 + q);
                            if (!cf_same(t, got, e[f], ops[q] == OP_ADD))
                                cf_report("wg", t, W, gid[k], f * 3 + q, got, e[f]);
                        }
                    }
                    uint64_t got = cf_ld(t, o, 9);
                    if (got != v[src])
                        cf_report("wg-broadcast", t, W, gid[k], 9, got, v[src]);
                    if (cf_ld(t, o, 10) != (all ? one : 0))
                        cf_report("wg-all", t, W, gid[k], 10, cf_ld(t, o, 10), all);
                    if (cf_ld(t, o, 11) != (any ? one : 0))
                        cf_report("wg-any", t, W, gid[k], 11, cf_ld(t, o, 11), any);
                }
            }
}

static void test_wg(void **state)
{
    (void)state;
    cli_compile("conformance_wg", "CL2.0");
    cf_bad = 0;
    for (unsigned ti = 4; ti < CF_NTYPES; ti++)
        for (unsigned w = 0; w < 3; w++)
            for (unsigned k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
                run_wg(&cf_types[ti], cf_widths[w], &shapes[k], false);
    assert_int_equal(cf_bad, 0);
}

/* a float add over -0.0 values is -0.0 at every level (sub-group totals,
 * the second level, the prefix of later sub-groups); only the exclusive
 * scan of work-item 0 is the identity 0 */
static void test_wg_neg_zero(void **state)
{
    (void)state;
    cli_compile("conformance_wg", "CL2.0");
    cf_bad = 0;
    for (unsigned ti = 8; ti < CF_NTYPES; ti++)
        for (unsigned w = 0; w < 3; w++)
            run_wg(&cf_types[ti], cf_widths[w], &shapes[(ti + w) % 8], true);
    assert_int_equal(cf_bad, 0);
}

/* the worked example of opencl-c-work-group-scan.txt with the arithmetic
 * of spec README decision 1: [3 1 7 0 4 1 6 3] -> inclusive
 * [3 4 11 11 15 16 22 25], exclusive [0 3 4 11 11 15 16 22] */
static void test_wg_spec_example(void **state)
{
    (void)state;
    cli_compile("conformance_wg", "CL2.0");
    static const int32_t in[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    static const int32_t inc[8] = { 3, 4, 11, 11, 15, 16, 22, 25 };
    static const int32_t exc[8] = { 0, 3, 4, 11, 11, 15, 16, 22 };
    int32_t out[8 * WG_NOUT];
    uint32_t ids[3] = { 5, 0, 0 };
    int32_t p[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    cli_put("a.bin", in, sizeof in);
    cli_put("p.bin", p, sizeof p);
    cli_put("ids.bin", ids, sizeof ids);
    for (unsigned w = 0; w < 3; w++) {
        cli_run_ok("run %s/conformance_wg.spv --kernel wg_int --sg %u --global 8 --local 8 "
                   "--no-timing --arg a=int:@%s/a.bin --arg p=int:@%s/p.bin "
                   "--arg ids=uint:@%s/ids.bin --arg out=int:zeros:%d --out out=%s/r.bin -q",
                   tmp, cf_widths[w], tmp, tmp, tmp, 8 * WG_NOUT, tmp);
        cli_get("r.bin", out, sizeof out);
        int32_t mn = INT32_MAX, mx = INT32_MIN;   /* the exclusive identities */
        for (unsigned i = 0; i < 8; i++) {
            assert_int_equal(out[i * WG_NOUT + 7], mn);
            assert_int_equal(out[i * WG_NOUT + 8], mx);
            mn = in[i] < mn ? in[i] : mn;
            mx = in[i] > mx ? in[i] : mx;
            assert_int_equal(out[i * WG_NOUT + 4], mn);
            assert_int_equal(out[i * WG_NOUT + 5], mx);
            assert_int_equal(out[i * WG_NOUT + 0], 25);
            assert_int_equal(out[i * WG_NOUT + 1], 0);
            assert_int_equal(out[i * WG_NOUT + 2], 7);
            assert_int_equal(out[i * WG_NOUT + 3], inc[i]);
            assert_int_equal(out[i * WG_NOUT + 6], exc[i]);
            assert_int_equal(out[i * WG_NOUT + 9], 1);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    return cli_tmpdir_make("conf-wg");
}

static int teardown(void **state)
{
    (void)state;
    return cli_tmpdir_remove();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wg_spec_example),
        cmocka_unit_test(test_wg),
        cmocka_unit_test(test_wg_neg_zero),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
