/* test_coll.c - collectives against references written here from the spec
 * (sequential loops over work-items; no code shared with collectives/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "coll.h"
#include "test_values.h"
#include "test_wg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ fixture */

#define NREG 12

typedef test_wg wg;

static uint32_t counts[COLL_UOP_COUNT];
static uint32_t last_lanes[COLL_UOP_COUNT];
static void count_uop(void *u, const coll_uop *op)
{
    (void)u;
    counts[op->kind]++;
    last_lanes[op->kind] = op->lanes;
}
static coll_report notes[64];
static uint32_t nnotes;
static void take_note(void *u, const coll_report *r)
{
    (void)u;
    if (nnotes < 64)
        notes[nnotes] = *r;
    nnotes++;
}

static coll_options opt;
static const lanes_env lenv = { NULL, NULL, NULL };
static const coll_sink sink = { NULL, count_uop, NULL };
static uint8_t slm[65536];
static coll_env env = { &lenv, &opt, NULL, &sink, slm, sizeof slm, take_note, NULL, NULL };

static void wg_init(wg *x, uint32_t w, uint32_t n, uint32_t lx, uint32_t ly)
{
    const uint32_t local[3] = { lx, ly, n / (lx * ly) };
    test_wg_init(x, w, n, NREG, local);
}

/* work-item k (linear local id) register r */
static uint64_t *item(wg *x, uint32_t r, uint32_t k)
{
    return &lanes_reg(&x->sg[k / x->w], r)[k % x->w];
}

static isa_inst mk(isa_opcode op, isa_type t, uint32_t nopnd)
{
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.vec = 1;
    in.nopnd = (uint8_t)nopnd;
    for (uint32_t k = 0; k < nopnd; k++) {
        in.o[k].kind = ISA_OPND_REG;
        in.o[k].reg = (uint16_t)(k == 0 ? 0 : 1 + 2 * (k - 1)); /* r0, r1, r3, r5, r7 */
    }
    return in;
}

/* run over the whole work-group (WG) or subgroup j alone */
static coll_status run(wg *x, const isa_inst *in, int j, coll_report *rep)
{
    memset(counts, 0, sizeof counts);
    if (j < 0)
        return coll_execute(&env, in, &x->g, rep);
    coll_group g = x->g;
    g.nsg = 1;
    g.sg = &x->p[j];
    g.active = &x->act[j];
    g.first_sg = (uint32_t)j;
    return coll_execute(&env, in, &g, rep);
}

/* ------------------------------------------------------------ values */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    return test_xorshift64(&rng);
}

/* a small-integer value of type t (exact in every float type) */
static uint64_t small(isa_type t, int64_t v)
{
    if (isa_types[t].is_float)
        return from_d(t, (double)v);
    return (uint64_t)v & mask_of(t);
}

/* ------------------------------------------------ reference from the spec */

/* op(a, b) for the reference: integer wrap, float fmin/fmax; returns the
 * value as a double for floats (combined in double: exact for small ints) */
typedef struct rv { uint64_t i; double f; } rv;

static rv ref_id(isa_binop op, isa_type t)
{
    rv r = { 0, 0 };
    bool s = isa_types[t].is_signed;
    uint64_t m = mask_of(t);
    if (isa_types[t].is_float) {
        r.f = op == ISA_BINOP_MUL ? 1 : op == ISA_BINOP_MIN ? INFINITY :
              op == ISA_BINOP_MAX ? -INFINITY : 0;
        return r;
    }
    switch (op) {
    case ISA_BINOP_MUL: case ISA_BINOP_LAND: r.i = 1; break;
    case ISA_BINOP_AND: r.i = m; break;
    case ISA_BINOP_MIN: r.i = s ? m >> 1 : m; break;
    case ISA_BINOP_MAX: r.i = s ? (m >> 1) + 1 : 0; break;
    default: r.i = 0;
    }
    return r;
}

static rv ref_op(isa_binop op, isa_type t, rv a, uint64_t bits)
{
    rv r = a;
    if (isa_types[t].is_float) {
        double b = as_d(t, bits);
        switch (op) {
        case ISA_BINOP_ADD: r.f = a.f + b; break;
        case ISA_BINOP_MUL: r.f = a.f * b; break;
        case ISA_BINOP_MIN: r.f = fmin(a.f, b); break;
        case ISA_BINOP_MAX: r.f = fmax(a.f, b); break;
        default: break;
        }
        return r;
    }
    int64_t x = sx(t, a.i), y = sx(t, bits);
    bool s = isa_types[t].is_signed;
    switch (op) {
    case ISA_BINOP_ADD: r.i = a.i + bits; break;
    case ISA_BINOP_MUL: r.i = a.i * bits; break;
    case ISA_BINOP_MIN: r.i = (s ? x < y : a.i < bits) ? a.i : bits; break;
    case ISA_BINOP_MAX: r.i = (s ? x > y : a.i > bits) ? a.i : bits; break;
    case ISA_BINOP_AND: r.i = a.i & bits; break;
    case ISA_BINOP_OR:  r.i = a.i | bits; break;
    case ISA_BINOP_XOR: r.i = a.i ^ bits; break;
    case ISA_BINOP_LAND: r.i = a.i && bits; break;
    case ISA_BINOP_LOR:  r.i = a.i || bits; break;
    case ISA_BINOP_LXOR: r.i = !a.i != !bits; break;
    default: break;
    }
    r.i &= mask_of(t);
    return r;
}

/* got matches the reference: ints exactly; floats exactly (tol = 0) or
 * within tol; NaN equals NaN */
static bool match(isa_type t, rv e, uint64_t got, double tol)
{
    if (!isa_types[t].is_float)
        return got == e.i;
    double g = as_d(t, got);
    if (isnan(e.f) || isnan(g))
        return isnan(e.f) && isnan(g);
    if (tol == 0 || isinf(e.f))
        return g == e.f || (t == ISA_T_F16 && g == as_d(t, from_d(t, e.f)));
    return fabs(g - e.f) <= tol;
}

static const isa_type all_types[] = {
    ISA_T_I8, ISA_T_U8, ISA_T_I16, ISA_T_U16, ISA_T_I32, ISA_T_U32,
    ISA_T_I64, ISA_T_U64, ISA_T_F16, ISA_T_F32, ISA_T_F64 };
static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
static const uint32_t wg_sizes[] = { 1, 7, 8, 24, 33, 100, 256 };

/* ------------------------------------------------------------ tests */

static void test_spec_example(void **state)
{
    (void)state;
    static const int in8[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    static const int inc[8] = { 3, 4, 11, 11, 15, 16, 22, 25 };
    static const int exc[8] = { 0, 3, 4, 11, 11, 15, 16, 22 };
    for (uint32_t algo = 0; algo < 3; algo++) {
        for (uint32_t w = 2; w <= 8; w *= 2) {  /* w = 8: one subgroup; 2, 4: WG */
            coll_options_default(&opt);
            opt.scan_algo = (uint8_t)algo;
            wg x;
            wg_init(&x, w, 8, 8, 1);
            for (uint32_t k = 0; k < 8; k++)
                *item(&x, 1, k) = (uint64_t)in8[k];
            isa_inst a = mk(w == 8 ? ISA_OP_SG_SCAN_INC_ADD : ISA_OP_WG_SCAN_INC_ADD, ISA_T_I32, 2);
            assert_int_equal(run(&x, &a, w == 8 ? 0 : -1, NULL), COLL_OK);
            for (uint32_t k = 0; k < 8; k++)
                assert_int_equal(*item(&x, 0, k), inc[k]);
            isa_inst b = mk(w == 8 ? ISA_OP_SG_SCAN_EXC_ADD : ISA_OP_WG_SCAN_EXC_ADD, ISA_T_I32, 2);
            assert_int_equal(run(&x, &b, w == 8 ? 0 : -1, NULL), COLL_OK);
            for (uint32_t k = 0; k < 8; k++)
                assert_int_equal(*item(&x, 0, k), exc[k]);
            test_wg_free(&x);
        }
    }
}

/* reduce / inclusive / exclusive scan of op over items of a set:
 * `grp` = linear ids the collective covers (WG: all; SG: one subgroup) */
static void check_fold(wg *x, isa_family fam, isa_binop op, isa_type t,
                       uint32_t first, uint32_t count, lanes_mask act, bool exact)
{
    for (uint32_t k = first; k < first + count; k++) {
        if (!(act >> ((k - first) % 64) & 1) && count <= 64)
            continue;
        rv e = ref_id(op, t);
        double mag = 0;
        uint32_t n = 0;
        for (uint32_t q = first; q < first + count; q++) {
            if (count <= 64 && !(act >> (q - first) & 1))
                continue;
            if ((fam == ISA_FAM_SCAN_INC && q > k) || (fam == ISA_FAM_SCAN_EXC && q >= k))
                continue;
            uint64_t v = *item(x, 1, q);
            e = ref_op(op, t, e, v);
            if (isa_types[t].is_float)
                mag += fabs(as_d(t, v));
            n++;
        }
        double eps = t == ISA_T_F16 ? 0x1p-10 : t == ISA_T_F32 ? 0x1p-23 : 0x1p-52;
        double tol = exact ? 0 : (n ? n : 1) * eps * mag + eps * fabs(e.f);
        uint64_t got = *item(x, 0, k);
        if (!match(t, e, got, tol)) {
            print_error("fam %d op %d type %s w %u count %u item %u: got %llx (%g) want %llx (%g)\n",
                        fam, op, isa_types[t].asm_name, x->w, count, k,
                        (unsigned long long)got, as_d(t, got),
                        (unsigned long long)e.i, e.f);
            fail();
        }
    }
}

static isa_opcode wg_op(isa_family fam, isa_binop op)
{
    static const isa_opcode t[3][3] = {
        { ISA_OP_WG_REDUCE_ADD, ISA_OP_WG_REDUCE_MIN, ISA_OP_WG_REDUCE_MAX },
        { ISA_OP_WG_SCAN_INC_ADD, ISA_OP_WG_SCAN_INC_MIN, ISA_OP_WG_SCAN_INC_MAX },
        { ISA_OP_WG_SCAN_EXC_ADD, ISA_OP_WG_SCAN_EXC_MIN, ISA_OP_WG_SCAN_EXC_MAX } };
    return t[fam == ISA_FAM_REDUCE ? 0 : fam == ISA_FAM_SCAN_INC ? 1 : 2]
            [op == ISA_BINOP_ADD ? 0 : op == ISA_BINOP_MIN ? 1 : 2];
}

static isa_opcode sg_op(isa_family fam, isa_binop op)
{
    return (isa_opcode)(wg_op(fam, op) - ISA_OP_WG_REDUCE_ADD + ISA_OP_SG_REDUCE_ADD);
}

/* random small-integer data: exact float arithmetic, wrapping ints */
static void fill_small(wg *x, isa_type t, int64_t lo, int64_t hi)
{
    for (uint32_t k = 0; k < x->n; k++)
        *item(x, 1, k) = small(t, lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)));
}

static void test_wg_matrix(void **state)
{
    (void)state;
    static const isa_family fams[] = { ISA_FAM_REDUCE, ISA_FAM_SCAN_INC, ISA_FAM_SCAN_EXC };
    static const isa_binop ops[] = { ISA_BINOP_ADD, ISA_BINOP_MIN, ISA_BINOP_MAX };
    coll_options_default(&opt);
    for (size_t ti = 0; ti < sizeof all_types / sizeof *all_types; ti++)
        for (size_t wi = 0; wi < 6; wi++)
            for (size_t ni = 0; ni < 7; ni++) {
                isa_type t = all_types[ti];
                uint32_t w = widths[wi], n = wg_sizes[ni];
                if (w == 1 && n > 100 && t != ISA_T_I32)
                    continue;  /* keep the run short: 256 subgroups of 1 */
                wg x;
                wg_init(&x, w, n, n, 1);
                /* full-range ints (wrap), small ints for floats */
                if (isa_types[t].is_float)
                    fill_small(&x, t, -8, 8);
                else
                    for (uint32_t k = 0; k < n; k++)
                        *item(&x, 1, k) = rnd() & mask_of(t);
                for (size_t fi = 0; fi < 3; fi++)
                    for (size_t oi = 0; oi < 3; oi++) {
                        isa_inst in = mk(wg_op(fams[fi], ops[oi]), t, 2);
                        assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
                        check_fold(&x, fams[fi], ops[oi], t, 0, n, ~0ull, true);
                        /* the same as sub-group functions, per subgroup */
                        isa_inst s = mk(sg_op(fams[fi], ops[oi]), t, 2);
                        for (uint32_t j = 0; j < x.nsg; j += 1 + x.nsg / 4) {
                            assert_int_equal(run(&x, &s, (int)j, NULL), COLL_OK);
                            check_fold(&x, fams[fi], ops[oi], t, j * w, x.sg[j].size,
                                       ~0ull, true);
                        }
                    }
                test_wg_free(&x);
            }
}

/* every algorithm, every non-uniform operator, random active masks */
static void test_nu_algorithms(void **state)
{
    (void)state;
    static const isa_binop ops[] = { ISA_BINOP_ADD, ISA_BINOP_MUL, ISA_BINOP_MIN,
        ISA_BINOP_MAX, ISA_BINOP_AND, ISA_BINOP_OR, ISA_BINOP_XOR, ISA_BINOP_LAND,
        ISA_BINOP_LOR, ISA_BINOP_LXOR };
    static const isa_family fams[] = { ISA_FAM_REDUCE, ISA_FAM_SCAN_INC, ISA_FAM_SCAN_EXC };
    for (uint32_t ra = 0; ra < 3; ra++) {
        coll_options_default(&opt);
        opt.reduce_algo = (uint8_t)ra;
        opt.scan_algo = (uint8_t)ra;
        for (size_t ti = 0; ti < 11; ti++)
            for (size_t wi = 0; wi < 6; wi++)
                for (size_t oi = 0; oi < 10; oi++) {
                    isa_type t = all_types[ti];
                    uint32_t w = widths[wi];
                    isa_binop op = ops[oi];
                    if (isa_types[t].is_float && op >= ISA_BINOP_AND)
                        continue;
                    if (op >= ISA_BINOP_LAND && t != ISA_T_I32)
                        continue;
                    uint32_t n = w > 3 ? w - (uint32_t)(rnd() % 3) : w; /* partial too */
                    wg x;
                    wg_init(&x, w, n, n, 1);
                    x.act[0] = rnd() & x.sg[0].exists;
                    if (op == ISA_BINOP_MUL && isa_types[t].is_float)
                        for (uint32_t k = 0; k < n; k++)
                            *item(&x, 1, k) = small(t, rnd() & 1 ? 1 : -1);
                    else if (op >= ISA_BINOP_LAND)
                        for (uint32_t k = 0; k < n; k++)
                            *item(&x, 1, k) = rnd() % 3;
                    else
                        fill_small(&x, t, isa_types[t].is_signed ? -100 : 0, 100);
                    for (size_t fi = 0; fi < 3; fi++) {
                        /* find the NU opcode by name */
                        char name[96];
                        static const char *fn[] = { "reduce", "scan_inclusive", "scan_exclusive" };
                        static const char *on[] = { "", "add", "", "mul", "min", "max", "and",
                            "or", "xor", "logical_and", "logical_or", "logical_xor" };
                        snprintf(name, sizeof name, "sub_group_non_uniform_%s_%s", fn[fi], on[op]);
                        isa_opcode opc = isa_opcode_from_name(name, strlen(name));
                        assert_int_not_equal(opc, ISA_OP_COUNT);
                        isa_inst in = mk(opc, t, 2);
                        memset(lanes_reg(&x.sg[0], 0), 0, w * 8);
                        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
                        check_fold(&x, fams[fi], op, t, 0, n, x.act[0], true);
                    }
                    test_wg_free(&x);
                }
    }
}

static void test_clustered_reduce(void **state)
{
    (void)state;
    coll_options_default(&opt);
    for (size_t wi = 1; wi < 6; wi++) {
        uint32_t w = widths[wi];
        for (uint32_t c = 1; c <= w; c *= 2) {
            wg x;
            wg_init(&x, w, w, w, 1);
            fill_small(&x, ISA_T_I32, -50, 50);
            isa_inst in = mk(ISA_OP_SG_CL_REDUCE_ADD, ISA_T_I32, 3);
            in.o[2].kind = ISA_OPND_IMM;
            in.o[2].imm = c;
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            for (uint32_t l = 0; l < w; l++) {
                int64_t s = 0;
                for (uint32_t q = l / c * c; q < l / c * c + c; q++)
                    s += sx(ISA_T_I32, *item(&x, 1, q));
                assert_int_equal(sx(ISA_T_I32, *item(&x, 0, l)), s);
            }
            /* counts: 2 MOV fill + log2 c ALU + 1 MOV */
            assert_int_equal(counts[COLL_UOP_ALU], __builtin_ctz(c));
            assert_int_equal(counts[COLL_UOP_MOV], 3);
            test_wg_free(&x);
        }
    }
    wg x;
    wg_init(&x, 8, 8, 8, 1);
    isa_inst in = mk(ISA_OP_SG_CL_REDUCE_ADD, ISA_T_I32, 3);
    in.o[2].kind = ISA_OPND_IMM;
    in.o[2].imm = 3;
    assert_int_equal(run(&x, &in, 0, NULL), COLL_ID_RANGE);
    in.o[2].imm = 16;
    assert_int_equal(run(&x, &in, 0, NULL), COLL_ID_RANGE);
    test_wg_free(&x);
}

/* edge values: type min/max, overflowing sums, -0.0, NaN, +-INF */
static void test_edge_values(void **state)
{
    (void)state;
    coll_options_default(&opt);
    wg x;
    /* int min/max */
    wg_init(&x, 8, 8, 8, 1);
    for (uint32_t k = 0; k < 8; k++)
        *item(&x, 1, k) = k & 1 ? 0x7fffffff : 0x80000000;
    isa_inst in = mk(ISA_OP_SG_REDUCE_ADD, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 0), 0xfffffffcu);  /* 4 * -1 wrapped */
    in = mk(ISA_OP_SG_REDUCE_MIN, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 3), 0x80000000u);
    in = mk(ISA_OP_SG_SCAN_EXC_MAX, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 0), 0x80000000u);  /* identity INT_MIN */
    in = mk(ISA_OP_SG_SCAN_EXC_MIN, ISA_T_U16, 2);
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 0), 0xffffu);
    /* short add wraps mod 2^16 */
    for (uint32_t k = 0; k < 8; k++)
        *item(&x, 1, k) = 0x7fff;
    in = mk(ISA_OP_SG_REDUCE_ADD, ISA_T_I16, 2);
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 5), (8u * 0x7fff) & 0xffff);
    test_wg_free(&x);

    /* floats: NaN ignored by min/max, INF, -0 */
    const isa_type ft[] = { ISA_T_F16, ISA_T_F32, ISA_T_F64 };
    for (int i = 0; i < 3; i++) {
        isa_type t = ft[i];
        wg_init(&x, 16, 16, 16, 1);
        for (uint32_t k = 0; k < 16; k++)
            *item(&x, 1, k) = from_d(t, k == 3 ? NAN : k == 5 ? -INFINITY : k == 9 ? -0.0 : (double)k);
        in = mk(ISA_OP_SG_REDUCE_MIN, t, 2);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        assert_true(as_d(t, *item(&x, 0, 0)) == -INFINITY);
        in = mk(ISA_OP_SG_REDUCE_MAX, t, 2);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        assert_true(as_d(t, *item(&x, 0, 7)) == 15.0);
        in = mk(ISA_OP_SG_SCAN_INC_ADD, t, 2);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        assert_true(as_d(t, *item(&x, 0, 2)) == 3.0);
        assert_true(isnan(as_d(t, *item(&x, 0, 4))));
        in = mk(ISA_OP_SG_SCAN_EXC_MIN, t, 2);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        assert_true(as_d(t, *item(&x, 0, 0)) == INFINITY);
        assert_true(as_d(t, *item(&x, 0, 4)) == 0.0);  /* NaN ignored */
        test_wg_free(&x);
        /* random floats against the tolerance */
        for (uint32_t wi = 1; wi < 6; wi++) {
            wg_init(&x, widths[wi], 100, 100, 1);
            for (uint32_t k = 0; k < 100; k++)
                *item(&x, 1, k) = from_d(t, (double)(rnd() % 20000) / 997.0 - 10.0);
            for (int f = 0; f < 3; f++) {
                isa_family fam = f == 0 ? ISA_FAM_REDUCE : f == 1 ? ISA_FAM_SCAN_INC : ISA_FAM_SCAN_EXC;
                in = mk(wg_op(fam, ISA_BINOP_ADD), t, 2);
                assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
                check_fold(&x, fam, ISA_BINOP_ADD, t, 0, 100, ~0ull, false);
            }
            test_wg_free(&x);
        }
    }
}

/* A float add over -0.0 values is -0.0 (IEEE: -0 + -0 = -0); only an
 * exclusive scan with no earlier contributing work-item returns the
 * identity 0.  Every algorithm, every float type, sub-group (uniform,
 * non-uniform with random masks, clustered) and work-group forms; the
 * padding of inactive and missing lanes must not turn -0.0 into +0.0. */
static void test_neg_zero_add(void **state)
{
    (void)state;
    static const isa_type ft[] = { ISA_T_F16, ISA_T_F32, ISA_T_F64 };
    for (uint32_t ra = 0; ra < 3; ra++)
        for (int i = 0; i < 3; i++)
            for (size_t wi = 0; wi < 6; wi++) {
                coll_options_default(&opt);
                opt.reduce_algo = (uint8_t)ra;
                opt.scan_algo = (uint8_t)ra;
                isa_type t = ft[i];
                uint32_t w = widths[wi], n = 3 * w + (w > 1 ? w / 2 : 0);
                uint64_t nz = from_d(t, -0.0), pz = from_d(t, 0.0);
                wg x;
                wg_init(&x, w, n, n, 1);
                for (uint32_t k = 0; k < n; k++)
                    *item(&x, 1, k) = nz;
                /* work-group forms: every work-item; exclusive item 0 is +0 */
                for (int f = 0; f < 3; f++) {
                    isa_family fam = f == 0 ? ISA_FAM_REDUCE : f == 1 ? ISA_FAM_SCAN_INC
                                                                       : ISA_FAM_SCAN_EXC;
                    isa_inst in = mk(wg_op(fam, ISA_BINOP_ADD), t, 2);
                    assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
                    for (uint32_t k = 0; k < n; k++)
                        assert_int_equal(*item(&x, 0, k), f == 2 && k == 0 ? pz : nz);
                    /* the same over sub-group 0 alone */
                    in = mk(sg_op(fam, ISA_BINOP_ADD), t, 2);
                    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
                    for (uint32_t l = 0; l < w; l++)
                        assert_int_equal(*item(&x, 0, l), f == 2 && l == 0 ? pz : nz);
                }
                /* non-uniform: a random active mask of the last (partial)
                 * sub-group; exclusive lanes up to the first active one: +0 */
                uint32_t j = (n - 1) / w, m = n - j * w;
                x.act[j] = rnd() & x.sg[j].exists;
                lanes_mask act = x.act[j];
                static const isa_opcode nu[3] = { ISA_OP_SG_NU_REDUCE_ADD,
                                                  ISA_OP_SG_NU_SCAN_INC_ADD,
                                                  ISA_OP_SG_NU_SCAN_EXC_ADD };
                for (int f = 0; f < 3; f++) {
                    isa_inst in = mk(nu[f], t, 2);
                    assert_int_equal(run(&x, &in, (int)j, NULL), COLL_OK);
                    bool seen = false;
                    for (uint32_t l = 0; l < m; l++) {
                        if (!(act >> l & 1))
                            continue;
                        assert_int_equal(*item(&x, 0, j * w + l), f == 2 && !seen ? pz : nz);
                        seen = true;
                    }
                }
                for (uint32_t c = 1; c <= w; c *= 2) {
                    isa_inst in = mk(ISA_OP_SG_CL_REDUCE_ADD, t, 3);
                    in.o[2].kind = ISA_OPND_IMM;
                    in.o[2].imm = c;
                    assert_int_equal(run(&x, &in, (int)j, NULL), COLL_OK);
                    for (uint32_t l = 0; l < m; l++)
                        if (act >> l & 1)
                            assert_int_equal(*item(&x, 0, j * w + l), nz);
                }
                test_wg_free(&x);
            }
}

static uint32_t lg(uint32_t w)
{
    uint32_t k = 0;
    while ((1u << k) < w)
        k++;
    return k;
}

/* micro-op counts equal the formulas in docs/collectives.md */
static void test_uop_counts(void **state)
{
    (void)state;
    for (size_t wi = 0; wi < 6; wi++) {
        uint32_t w = widths[wi];
        wg x;
        wg_init(&x, w, w, w, 1);
        coll_options_default(&opt);
        isa_inst in = mk(ISA_OP_SG_REDUCE_ADD, ISA_T_F32, 2);
        run(&x, &in, 0, NULL);   /* tree: 2 MOV + log2 W ALU + 1 BCAST */
        assert_int_equal(counts[COLL_UOP_MOV], 2);
        assert_int_equal(counts[COLL_UOP_ALU], lg(w));
        assert_int_equal(counts[COLL_UOP_BCAST], 1);
        opt.reduce_algo = 2;     /* serial: W - 1 ALU */
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_ALU], w - 1);
        opt.reduce_algo = 1;     /* hw: i32 and W <= 32 -> 1 HW_REDUCE */
        in.type = ISA_T_I32;
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_HW_REDUCE], w <= 32 ? 1 : 0);
        assert_int_equal(counts[COLL_UOP_ALU], w <= 32 ? 0 : lg(w));
        for (uint32_t sa = 0; sa < 3; sa++) {
            opt.scan_algo = (uint8_t)sa;
            in = mk(ISA_OP_SG_SCAN_EXC_ADD, ISA_T_I32, 2);
            run(&x, &in, 0, NULL);
            assert_int_equal(counts[COLL_UOP_MOV], 2);
            assert_int_equal(counts[COLL_UOP_ALU], sa == 2 ? w - 1 : lg(w));
        }
        /* shuffles: index ALU + ceil(W/16) moves per 32-bit part */
        coll_options_default(&opt);
        uint32_t chunks = (w + 15) / 16;
        in = mk(ISA_OP_INTEL_SHUFFLE, ISA_T_I32, 3);
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_ALU], 1);
        assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], chunks);
        in.type = ISA_T_U64;
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], 2 * chunks);
        in = mk(ISA_OP_INTEL_SHUFFLE_DOWN, ISA_T_F32, 4);
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_MOV], 2);
        assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], chunks);
        opt.shuffle_algo = 1;   /* crossbar: 1 per 32-bit part */
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], 1);
        in = mk(ISA_OP_SG_ROTATE, ISA_T_F64, 3);
        run(&x, &in, 0, NULL);
        assert_int_equal(counts[COLL_UOP_ALU], 2);
        assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], 2);
        test_wg_free(&x);
    }
    /* work-group reduce, tree, W = 16, 100 items = 7 subgroups:
     * per subgroup level 1 (2 MOV, 4 ALU, 1 BCAST, 1 SLM_STORE), 1 BARRIER,
     * level 2 over ceil(7/16) = 1 chunk (1 SLM_LOAD, 2 MOV, 4 ALU, 1 BCAST) */
    coll_options_default(&opt);
    wg x;
    wg_init(&x, 16, 100, 100, 1);
    isa_inst in = mk(ISA_OP_WG_REDUCE_ADD, ISA_T_I32, 2);
    run(&x, &in, -1, NULL);
    assert_int_equal(counts[COLL_UOP_SLM_STORE], 7);
    assert_int_equal(counts[COLL_UOP_BARRIER], 7);
    assert_int_equal(counts[COLL_UOP_SLM_LOAD], 7);
    assert_int_equal(counts[COLL_UOP_ALU], 7 * 8);
    assert_int_equal(counts[COLL_UOP_MOV], 7 * 4);
    assert_int_equal(counts[COLL_UOP_BCAST], 7 * 2);
    /* scan: subgroup j loads ceil(j/16) chunks */
    in = mk(ISA_OP_WG_SCAN_INC_ADD, ISA_T_I32, 2);
    run(&x, &in, -1, NULL);
    assert_int_equal(counts[COLL_UOP_SLM_LOAD], 6);
    test_wg_free(&x);
}

static void test_shuffles(void **state)
{
    (void)state;
    static const isa_opcode ops[] = { ISA_OP_INTEL_SHUFFLE, ISA_OP_INTEL_SHUFFLE_XOR,
        ISA_OP_INTEL_SHUFFLE_UP, ISA_OP_INTEL_SHUFFLE_DOWN, ISA_OP_SG_SHUFFLE,
        ISA_OP_SG_SHUFFLE_XOR, ISA_OP_SG_SHUFFLE_UP, ISA_OP_SG_SHUFFLE_DOWN,
        ISA_OP_SG_ROTATE, ISA_OP_SG_CLUSTERED_ROTATE };
    for (uint32_t algo = 0; algo < 2; algo++)
        for (size_t oi = 0; oi < 10; oi++)
            for (size_t ti = 0; ti < 11; ti++)
                for (size_t wi = 0; wi < 6; wi++) {
                    coll_options_default(&opt);
                    opt.shuffle_algo = (uint8_t)algo;
                    isa_opcode op = ops[oi];
                    isa_type t = all_types[ti];
                    uint32_t w = widths[wi], n = (rnd() & 1) && w > 2 ? w - 2 : w;
                    bool two = op == ISA_OP_INTEL_SHUFFLE_UP || op == ISA_OP_INTEL_SHUFFLE_DOWN;
                    bool khr = oi >= 4;      /* the Khronos rows of ops[] */
                    bool rot = op == ISA_OP_SG_ROTATE || op == ISA_OP_SG_CLUSTERED_ROTATE;
                    uint32_t c = op == ISA_OP_SG_CLUSTERED_ROTATE ? 1u << (rnd() % (lg(w) + 1)) : 0;
                    wg x;
                    wg_init(&x, w, n, n, 1);
                    if (khr && !rot)
                        x.act[0] = rnd() & x.sg[0].exists;
                    uint32_t delta = (uint32_t)(rnd() % (2 * w + 1));
                    for (uint32_t l = 0; l < w; l++) {
                        lanes_reg(&x.sg[0], 1)[l] = rnd() & mask_of(t);
                        lanes_reg(&x.sg[0], 3)[l] = rnd() & mask_of(t);
                        /* per-lane index in [-1, 2w] as uint; rotate: uniform delta */
                        uint32_t ix = (uint32_t)(rnd() % (2 * w + 2)) - 1;
                        lanes_reg(&x.sg[0], two ? 5 : 3)[l] = rot ? delta : ix;
                    }
                    isa_inst in = mk(op, t, two || c ? 4 : 3);
                    if (c) {
                        in.o[3].kind = ISA_OPND_IMM;
                        in.o[3].imm = c;
                    }
                    uint64_t before[LANES_MAX];
                    memcpy(before, lanes_reg(&x.sg[0], 1), sizeof before[0] * w);
                    uint64_t other[LANES_MAX];
                    memcpy(other, lanes_reg(&x.sg[0], 3), sizeof other[0] * w);
                    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
                    for (uint32_t l = 0; l < n; l++) {
                        if (!(x.act[0] >> l & 1))
                            continue;
                        uint32_t a = (uint32_t)lanes_reg(&x.sg[0], two ? 5 : 3)[l];
                        if (!two && !rot)
                            a = (uint32_t)other[l];
                        int64_t s;
                        const uint64_t *src = before;
                        bool defined = true;
                        switch (op) {
                        case ISA_OP_INTEL_SHUFFLE: case ISA_OP_SG_SHUFFLE: s = a; break;
                        case ISA_OP_INTEL_SHUFFLE_XOR: case ISA_OP_SG_SHUFFLE_XOR: s = l ^ a; break;
                        case ISA_OP_SG_SHUFFLE_UP: s = (int64_t)l - a; break;
                        case ISA_OP_SG_SHUFFLE_DOWN: s = (int64_t)l + a; break;
                        case ISA_OP_INTEL_SHUFFLE_DOWN:
                            s = (int64_t)l + a;
                            if (s >= w) { s -= w; src = other; }
                            if (s >= w) defined = false;
                            break;
                        case ISA_OP_INTEL_SHUFFLE_UP:
                            s = (int64_t)l - a;
                            if (s < 0) { s += w; } else { src = other; }
                            if (s < 0) defined = false;
                            break;
                        /* remainder by the max sub-group size (spec) */
                        case ISA_OP_SG_ROTATE: s = (int64_t)(((uint64_t)l + a) % w); break;
                        default: s = (l / c * c) + (l + a) % c; break;
                        }
                        uint64_t got = lanes_reg(&x.sg[0], 0)[l];
                        if (defined && s >= 0 && s < (int64_t)n && (x.act[0] >> s & 1)) {
                            assert_int_equal(got, src[s]);
                        } else if (!defined || s < 0 || s >= (int64_t)w || s >= (int64_t)n) {
                            if (got != 0)
                                print_error("op %s w %u n %u l %u a %u s %lld\n", isa_ops[op].mnemonic,
                                            w, n, l, a, (long long)s);
                            assert_int_equal(got, 0);   /* documented value */
                        } else {
                            assert_int_equal(got, src[s]);  /* inactive: register content */
                        }
                    }
                    test_wg_free(&x);
                }
}

static void test_vector_shuffle_and_broadcast(void **state)
{
    (void)state;
    coll_options_default(&opt);
    wg x;
    wg_init(&x, 16, 16, 16, 1);
    for (uint32_t l = 0; l < 16; l++) {
        for (uint32_t c = 0; c < 4; c++)
            lanes_reg(&x.sg[0], 1 + c)[l] = l * 10 + c;
        lanes_reg(&x.sg[0], 7)[l] = 15 - l;  /* index */
    }
    isa_inst in = mk(ISA_OP_INTEL_SHUFFLE, ISA_T_U16, 3);
    in.vec = 4;
    in.o[2].reg = 7;
    in.o[0].reg = 8;
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    for (uint32_t l = 0; l < 16; l++)
        for (uint32_t c = 0; c < 4; c++)
            assert_int_equal(lanes_reg(&x.sg[0], 8 + c)[l], (15 - l) * 10 + c);
    assert_int_equal(counts[COLL_UOP_MOV_INDIRECT], 4);
    for (uint32_t l = 0; l < 16; l++)
        lanes_reg(&x.sg[0], 7)[l] = 9;
    in = mk(ISA_OP_SG_BROADCAST, ISA_T_U16, 3);
    in.vec = 4;
    in.o[2].reg = 7;
    assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
    for (uint32_t l = 0; l < 16; l++)
        for (uint32_t c = 0; c < 4; c++)
            assert_int_equal(lanes_reg(&x.sg[0], c)[l], 90 + c);
    test_wg_free(&x);
}

static void test_broadcasts(void **state)
{
    (void)state;
    coll_options_default(&opt);
    /* work_group_broadcast 1-D, 2-D and 3-D */
    static const uint32_t shapes[][3] = { { 256, 1, 1 }, { 33, 1, 1 }, { 8, 3, 1 },
        { 4, 5, 5 }, { 7, 1, 1 }, { 2, 2, 2 } };
    for (size_t si = 0; si < 6; si++)
        for (size_t wi = 0; wi < 6; wi++) {
            uint32_t lx = shapes[si][0], ly = shapes[si][1], lz = shapes[si][2];
            uint32_t n = lx * ly * lz, w = widths[wi];
            if (w == 1 && n > 100)
                continue;
            wg x;
            wg_init(&x, w, n, lx, ly);
            x.g.local_size[2] = lz;
            uint32_t ix = (uint32_t)(rnd() % lx), iy = (uint32_t)(rnd() % ly),
                     iz = (uint32_t)(rnd() % lz);
            uint32_t dims = lz > 1 ? 3 : ly > 1 ? 2 : 1;
            for (uint32_t k = 0; k < n; k++) {
                *item(&x, 1, k) = rnd();
                *item(&x, 3, k) = ix;
                *item(&x, 5, k) = iy;
                *item(&x, 7, k) = iz;
            }
            isa_inst in = mk(ISA_OP_WG_BROADCAST, ISA_T_F64, 2 + dims);
            assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
            uint64_t want = *item(&x, 1, ix + iy * lx + iz * lx * ly);
            for (uint32_t k = 0; k < n; k++)
                assert_int_equal(*item(&x, 0, k), want);
            /* out of the shape */
            for (uint32_t k = 0; k < n; k++)
                *item(&x, 3, k) = lx;
            coll_report rep;
            assert_int_equal(run(&x, &in, -1, &rep), COLL_ID_RANGE);
            assert_true(rep.fatal);
            /* non-uniform id */
            if (n > 1) {
                for (uint32_t k = 0; k < n; k++)
                    *item(&x, 3, k) = k == n - 1 ? (ix + 1) % lx : ix;
                if (lx > 1) {
                    assert_int_equal(run(&x, &in, -1, &rep), COLL_NONUNIFORM_ID);
                    assert_int_equal(rep.sg * w + rep.lane, n - 1);
                }
            }
            test_wg_free(&x);
        }
    /* sub-group broadcast, non-uniform broadcast, broadcast_first */
    for (size_t wi = 0; wi < 6; wi++) {
        uint32_t w = widths[wi];
        wg x;
        wg_init(&x, w, w, w, 1);
        for (uint32_t l = 0; l < w; l++) {
            lanes_reg(&x.sg[0], 1)[l] = 1000 + l;
            lanes_reg(&x.sg[0], 3)[l] = w - 1;
        }
        isa_inst in = mk(ISA_OP_SG_BROADCAST, ISA_T_I32, 3);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        for (uint32_t l = 0; l < w; l++)
            assert_int_equal(lanes_reg(&x.sg[0], 0)[l], 1000 + w - 1);
        assert_int_equal(counts[COLL_UOP_BCAST], 1);
        lanes_reg(&x.sg[0], 3)[0] = w;
        coll_report rep;
        assert_int_equal(run(&x, &in, 0, &rep), w > 1 ? COLL_NONUNIFORM_ID : COLL_ID_RANGE);
        for (uint32_t l = 0; l < w; l++)
            lanes_reg(&x.sg[0], 3)[l] = w;
        assert_int_equal(run(&x, &in, 0, &rep), COLL_ID_RANGE);
        assert_int_equal(rep.value, w);
        x.act[0] = w > 2 ? 0x6 : 1;
        in = mk(ISA_OP_SG_BROADCAST_FIRST, ISA_T_I32, 2);
        assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
        assert_int_equal(lanes_reg(&x.sg[0], 0)[w > 2 ? 2 : 0], w > 2 ? 1001 : 1000);
        test_wg_free(&x);
    }
}

static void test_vote_ballot(void **state)
{
    (void)state;
    coll_options_default(&opt);
    for (uint32_t ra = 0; ra < 3; ra++)
        for (size_t wi = 0; wi < 6; wi++) {
            opt.reduce_algo = (uint8_t)ra;
            uint32_t w = widths[wi];
            wg x;
            wg_init(&x, w, w, w, 1);
            lanes_mask act = (rnd() & x.sg[0].exists) | 1;
            x.act[0] = act;
            uint32_t pat = (uint32_t)(rnd() % 3);
            lanes_mask bits = 0;
            for (uint32_t l = 0; l < w; l++) {
                uint64_t v = pat == 0 ? 0 : pat == 1 ? 7 : rnd() % 2 * 41;
                lanes_reg(&x.sg[0], 1)[l] = v;
                if (v && (act >> l & 1))
                    bits |= 1ull << l;
            }
            isa_inst in = mk(ISA_OP_SG_NU_ALL, ISA_T_I32, 2);
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            assert_int_equal(lanes_reg(&x.sg[0], 0)[0] != 0, bits == act);
            in = mk(ISA_OP_SG_NU_ANY, ISA_T_I32, 2);
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            assert_int_equal(lanes_reg(&x.sg[0], 0)[0] != 0, bits != 0);
            in = mk(ISA_OP_SG_NU_ALL_EQUAL, ISA_T_I32, 2);
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            assert_int_equal(lanes_reg(&x.sg[0], 0)[0] != 0, bits == 0 || bits == act);
            in = mk(ISA_OP_SG_ELECT, ISA_T_I32, 1);
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            for (uint32_t l = 0; l < w; l++)
                if (act >> l & 1)
                    assert_int_equal(lanes_reg(&x.sg[0], 0)[l], l == 0);
            /* ballot into a uint4 and the bit queries */
            in = mk(ISA_OP_SG_BALLOT, ISA_T_U32, 2);
            in.vec = 4;
            in.o[0].reg = 4;
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            assert_int_equal(lanes_reg(&x.sg[0], 4)[0], (uint32_t)bits);
            assert_int_equal(lanes_reg(&x.sg[0], 5)[0], (uint32_t)(bits >> 32));
            assert_int_equal(lanes_reg(&x.sg[0], 6)[0], 0);
            static const isa_opcode q[] = { ISA_OP_SG_BALLOT_BIT_COUNT,
                ISA_OP_SG_BALLOT_INC_SCAN, ISA_OP_SG_BALLOT_EXC_SCAN,
                ISA_OP_SG_BALLOT_FIND_LSB, ISA_OP_SG_BALLOT_FIND_MSB,
                ISA_OP_SG_INVERSE_BALLOT };
            for (size_t qi = 0; qi < 6; qi++) {
                in = mk(q[qi], ISA_T_U32, 2);
                in.vec = 4;
                in.o[1].reg = 4;
                assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
                for (uint32_t l = 0; l < w; l++) {
                    if (!(act >> l & 1))
                        continue;
                    uint64_t want = 0, got = lanes_reg(&x.sg[0], 0)[l];
                    switch (qi) {
                    case 0: want = (uint64_t)__builtin_popcountll(bits); break;
                    case 1: want = (uint64_t)__builtin_popcountll(bits & (l == 63 ? ~0ull : (2ull << l) - 1)); break;
                    case 2: want = (uint64_t)__builtin_popcountll(bits & ((1ull << l) - 1)); break;
                    case 3: want = bits ? (uint64_t)__builtin_ctzll(bits) : 0xffffffffu; break;
                    case 4: want = bits ? 63u - (uint64_t)__builtin_clzll(bits) : 0xffffffffu; break;
                    case 5: want = bits >> l & 1; break;
                    }
                    assert_int_equal(got, want);
                }
            }
            in = mk(ISA_OP_SG_LT_MASK, ISA_T_U32, 1);
            in.vec = 4;
            assert_int_equal(run(&x, &in, 0, NULL), COLL_OK);
            for (uint32_t l = 0; l < w && l < 32; l++)
                if (act >> l & 1)
                    assert_int_equal(lanes_reg(&x.sg[0], 0)[l], (1u << l) - 1);
            test_wg_free(&x);
        }
    /* work_group_all / any over 100 items, W = 8 */
    wg x;
    wg_init(&x, 8, 100, 100, 1);
    for (uint32_t k = 0; k < 100; k++)
        *item(&x, 1, k) = k == 77 ? 0 : 5;
    isa_inst in = mk(ISA_OP_WG_ALL, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 3), 0);
    in = mk(ISA_OP_WG_ANY, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, -1, NULL), COLL_OK);
    assert_int_equal(*item(&x, 0, 99) != 0, 1);
    test_wg_free(&x);
}

static void test_diagnostics(void **state)
{
    (void)state;
    coll_options_default(&opt);
    coll_report rep;
    wg x;
    wg_init(&x, 16, 40, 40, 1);
    /* divergent sub-group and work-group collectives */
    x.act[0] &= ~(1ull << 5);
    isa_inst in = mk(ISA_OP_SG_REDUCE_ADD, ISA_T_I32, 2);
    assert_int_equal(run(&x, &in, 0, &rep), COLL_DIVERGENT);
    assert_int_equal(rep.lane, 5);
    assert_true(rep.fatal);
    x.act[0] = x.sg[0].exists;
    x.act[2] &= ~(1ull << 3);
    in = mk(ISA_OP_WG_SCAN_INC_MAX, ISA_T_F32, 2);
    assert_int_equal(run(&x, &in, -1, &rep), COLL_DIVERGENT);
    assert_int_equal(rep.sg, 2);
    assert_int_equal(rep.lane, 3);
    /* a non-uniform shuffle with missing lanes is fine */
    in = mk(ISA_OP_SG_SHUFFLE, ISA_T_I32, 3);
    assert_int_equal(run(&x, &in, 2, &rep), COLL_OK);
    x.act[2] = x.sg[2].exists;
    /* out-of-range shuffle: a note in check mode only */
    for (uint32_t l = 0; l < 16; l++)
        lanes_reg(&x.sg[0], 3)[l] = l == 6 ? 40 : l;
    in = mk(ISA_OP_INTEL_SHUFFLE, ISA_T_I32, 3);
    nnotes = 0;
    assert_int_equal(run(&x, &in, 0, &rep), COLL_OK);
    assert_int_equal(nnotes, 0);
    opt.check = true;
    assert_int_equal(run(&x, &in, 0, &rep), COLL_OK);
    assert_int_equal(nnotes, 1);
    assert_int_equal(notes[0].status, COLL_SHUFFLE_RANGE);
    assert_int_equal(notes[0].lane, 6);
    assert_int_equal(notes[0].value, 40);
    assert_false(notes[0].fatal);
    assert_int_equal(lanes_reg(&x.sg[0], 0)[6], 0);
    /* the partial last subgroup (8 lanes): index 12 reads a missing lane */
    for (uint32_t l = 0; l < 8; l++)
        lanes_reg(&x.sg[2], 3)[l] = 12;
    nnotes = 0;
    assert_int_equal(run(&x, &in, 2, &rep), COLL_OK);
    assert_int_equal(nnotes, 8);
    assert_int_equal(notes[0].status, COLL_INACTIVE_SRC);
    /* check mode runs the reference on the whole matrix of functions */
    for (uint32_t k = 0; k < 40; k++)
        *item(&x, 1, k) = rnd() & 0xffff;
    static const isa_opcode ops[] = { ISA_OP_WG_REDUCE_ADD, ISA_OP_WG_SCAN_EXC_MIN,
        ISA_OP_SG_SCAN_INC_ADD, ISA_OP_SG_NU_REDUCE_XOR, ISA_OP_WG_ANY };
    for (size_t i = 0; i < 5; i++) {
        in = mk(ops[i], ISA_T_I32, 2);
        bool wgs = isa_ops[ops[i]].scope == ISA_SCOPE_WG;
        assert_int_equal(run(&x, &in, wgs ? -1 : 1, &rep), COLL_OK);
    }
    opt.check = false;
    test_wg_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_example),
        cmocka_unit_test(test_wg_matrix),
        cmocka_unit_test(test_nu_algorithms),
        cmocka_unit_test(test_clustered_reduce),
        cmocka_unit_test(test_edge_values),
        cmocka_unit_test(test_neg_zero_add),
        cmocka_unit_test(test_uop_counts),
        cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_vector_shuffle_and_broadcast),
        cmocka_unit_test(test_broadcasts),
        cmocka_unit_test(test_vote_ballot),
        cmocka_unit_test(test_diagnostics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
