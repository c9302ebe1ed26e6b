/* test_coll_lowering.c - the shuffle lowering (collectives/lowering.def)
 * changes the micro-ops, never the values: every sub-group and non-uniform
 * reduce, scan, clustered reduce, broadcast and all_equal, every type,
 * widths 1-64, random active lanes and values (NaN, -0.0, infinities and
 * wrapping integers among them) give bit-identical destinations under the
 * region and the shuffle lowering with the same algorithms (logstep scan,
 * tree and hw reduce); and the shuffle plans' records are the micro-ops
 * nvcc emits for sm_90 (examples/calibration/cuda/coll_plans_sass.txt),
 * written out here per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "coll_private.h"   /* the algorithm and lowering indices */
#include "test_uops.h"
#include "test_wg.h"

#include <string.h>

#define NREG 8
static const lanes_env lenv = { NULL, NULL, NULL };
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static coll_options options(uint8_t lowering, uint8_t reduce)
{
    coll_options o;
    coll_options_default(&o);
    o.lowering = lowering;
    o.reduce_algo = reduce;
    o.scan_algo = COLL_SCAN_LOGSTEP;
    o.shuffle_algo = COLL_SHUF_CROSSBAR;
    o.indirect_lanes = 32;
    o.hw_reduce_width = 32;
    return o;
}

/* Run `in` (destination r0, source r2, broadcast id r6) on sub-group 0 of
 * x; r0 comes back in dst, the records in l. */
static coll_status run(const coll_options *opt, test_wg *x, const isa_inst *in,
                       const uint64_t *src, uint64_t *dst, test_uops *l)
{
    const coll_sink sink = { l, test_uops_keep, NULL };
    coll_env env = { &lenv, opt, NULL, &sink, NULL, 0, NULL, NULL, NULL };
    const uint32_t w = x->w;
    for (uint32_t r = 0; r < 7; r++)
        for (uint32_t k = 0; k < w; k++)
            lanes_reg(&x->sg[0], r)[k] = r < 2 ? 0x5a5a5a5a5a5a5a5aull : src[k];
    l->n = 0;
    coll_group g = x->g;
    g.nsg = 1;
    coll_report rep;
    coll_status st = coll_execute(&env, in, &g, &rep);
    memcpy(dst, lanes_reg(&x->sg[0], 0), w * sizeof *dst);
    return st;
}

static isa_inst inst(uint32_t op, isa_type t, uint32_t cluster)
{
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.nopnd = 2;
    in.o[0].kind = in.o[1].kind = ISA_OPND_REG;
    in.o[0].reg = 0;
    in.o[1].reg = 2;
    const isa_op_info *oi = &isa_ops[op];
    if (oi->family == ISA_FAM_BCAST) {
        in.nopnd = 3;
        in.o[2].kind = ISA_OPND_IMM;
        in.o[2].imm = 0;
    }
    if (oi->scope == ISA_SCOPE_CL) {
        in.nopnd = 3;
        in.o[2].kind = ISA_OPND_IMM;
        in.o[2].imm = cluster;
    }
    return in;
}

/* A random value of type t, often a special one. */
static uint64_t value(isa_type t)
{
    const uint64_t r = test_xorshift64(&rng);
    const uint32_t pick = (uint32_t)(r >> 58);
    if (t == ISA_T_F32) {
        static const uint32_t sp[] = { 0x7fc00000u, 0xffc00001u, 0x80000000u, 0, 0x7f800000u,
                                       0xff800000u, 0x7f7fffffu, 1 };
        if (pick < 8)
            return sp[pick];
    } else if (t == ISA_T_F64) {
        static const uint64_t sp[] = { 0x7ff8000000000000ull, 0xfff8000000000001ull,
                                       0x8000000000000000ull, 0, 0x7ff0000000000000ull,
                                       0xfff0000000000000ull, 1 };
        if (pick < 7)
            return sp[pick];
    } else if (t == ISA_T_F16) {
        static const uint16_t sp[] = { 0x7e00, 0xfe01, 0x8000, 0, 0x7c00, 0xfc00, 0x7bff };
        if (pick < 7)
            return sp[pick];
    }
    const uint32_t bits = 8 * isa_types[t].bytes;
    const uint64_t v = (r & 3) == 0 ? r >> 61 : r;
    /* integers: sometimes with junk above the type's width, as registers hold */
    return bits == 64 || (r & 12) == 0 ? v : v & ((1ull << bits) - 1);
}

static bool tested_family(isa_family f)
{
    return f == ISA_FAM_REDUCE || f == ISA_FAM_SCAN_INC || f == ISA_FAM_SCAN_EXC ||
           f == ISA_FAM_BCAST || f == ISA_FAM_BCAST_FIRST || f == ISA_FAM_ALL_EQUAL ||
           f == ISA_FAM_ALL || f == ISA_FAM_ANY;
}

/* region vs shuffle: the same destinations, bit for bit */
static void test_values_identical(void **state)
{
    (void)state;
    static const uint32_t widths[] = { 1, 2, 4, 8, 16, 32, 64 };
    uint32_t compared = 0, differ_uops = 0;
    for (uint8_t ra = 0; ra < 2; ra++) {
        const coll_options reg = options(COLL_LOWER_REGION, ra ? COLL_RED_HW : COLL_RED_TREE);
        const coll_options shf = options(COLL_LOWER_SHUFFLE, ra ? COLL_RED_HW : COLL_RED_TREE);
        for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
            const isa_op_info *oi = &isa_ops[op];
            if (oi->pipe != ISA_PIPE_COLL || !tested_family(oi->family) ||
                oi->scope == ISA_SCOPE_WG)
                continue;
            for (uint32_t t = 0; t < ISA_T_COUNT; t++) {
                if (!(oi->types >> t & 1))
                    continue;
                for (uint32_t wi = 0; wi < 7; wi++) {
                    const uint32_t w = widths[wi];
                    for (uint32_t rep = 0; rep < 6; rep++) {
                        const uint32_t cl = 1u << (test_xorshift64(&rng) % (coll_log2(w) + 1));
                        isa_inst in = inst(op, (isa_type)t, cl);
                        test_wg x;
                        const uint32_t local[3] = { w, 1, 1 };
                        test_wg_init(&x, w, w, NREG, local);
                        /* converged for SG scope; random lanes (never none) else */
                        if (oi->scope != ISA_SCOPE_SG && rep & 1) {
                            lanes_mask m = test_xorshift64(&rng) & x.sg[0].exists;
                            x.act[0] = m ? m : 1;
                        }
                        uint64_t src[LANES_MAX], a[LANES_MAX], b[LANES_MAX];
                        for (uint32_t k = 0; k < w; k++)
                            src[k] = rep == 5 ? value((isa_type)t) & 1 : value((isa_type)t);
                        static test_uops la, lb;
                        /* REDUX has no multiply: the shuffle lowering runs the
                         * tree for it, so the regions run the tree too */
                        coll_options rr = reg;
                        if (ra && oi->binop == ISA_BINOP_MUL)
                            rr.reduce_algo = COLL_RED_TREE;
                        coll_status sa = run(&rr, &x, &in, src, a, &la);
                        coll_status sb = run(&shf, &x, &in, src, b, &lb);
                        assert_int_equal(sa, sb);
                        for (uint32_t k = 0; k < w; k++)
                            if (x.act[0] >> k & 1)
                                assert_int_equal(a[k], b[k]);
                        compared++;
                        if (la.n != lb.n || memcmp(la.u, lb.u, la.n * sizeof la.u[0]))
                            differ_uops++;
                        test_wg_free(&x);
                    }
                }
            }
        }
    }
    assert_true(compared > 5000);
    assert_true(differ_uops > compared / 2);   /* the plans did change */
}

/* The kinds of a run's records, as a string: A alu, M mov, I shfl
 * (mov_indirect), B bcast, H hw_reduce, P pred. */
static void kinds(const test_uops *l, char *s)
{
    static const char c[COLL_UOP_COUNT] = {
        [COLL_UOP_ALU] = 'A', [COLL_UOP_MOV] = 'M', [COLL_UOP_MOV_INDIRECT] = 'I',
        [COLL_UOP_BCAST] = 'B', [COLL_UOP_HW_REDUCE] = 'H', [COLL_UOP_PRED] = 'P',
        [COLL_UOP_BALLOT] = 'V',
    };
    uint32_t i = 0;
    for (; i < l->n && i < 63; i++)
        s[i] = c[l->u[i].kind] ? c[l->u[i].kind] : '?';
    s[i] = 0;
}

static void plan(uint32_t op, isa_type t, uint32_t w, lanes_mask act, uint8_t reduce,
                 uint32_t cluster, const char *want)
{
    const coll_options o = options(COLL_LOWER_SHUFFLE, reduce);
    isa_inst in = inst(op, t, cluster);
    test_wg x;
    const uint32_t local[3] = { w, 1, 1 };
    test_wg_init(&x, w, w, NREG, local);
    if (act)
        x.act[0] = act;
    uint64_t src[LANES_MAX] = { 0 }, d[LANES_MAX];
    static test_uops l;
    assert_int_equal(run(&o, &x, &in, src, d, &l), COLL_OK);
    char got[64];
    kinds(&l, got);
    assert_string_equal(got, want);
    test_wg_free(&x);
}

/* the shuffle rows as the SASS of coll_plans.cu has them */
static void test_shuffle_plans(void **state)
{
    (void)state;
    const uint8_t TREE = COLL_RED_TREE, HW = COLL_RED_HW;
    /* scan step: SHFL.UP, SEL, IMAD.IADD; five steps at 32 lanes */
    plan(ISA_OP_SG_SCAN_INC_ADD, ISA_T_U32, 32, 0, TREE, 0, "IPAIPAIPAIPAIPA");
    /* exclusive: SHFL.UP 1 and SEL of the pad first (the shifted input) */
    plan(ISA_OP_SG_SCAN_EXC_ADD, ISA_T_U32, 32, 0, TREE, 0, "IPIPAIPAIPAIPAIPA");
    /* min: SHFL.UP, ISETP.LT.AND (with the lane predicate), SEL */
    plan(ISA_OP_SG_SCAN_INC_MIN, ISA_T_I32, 32, 0, TREE, 0, "IPPIPPIPPIPPIPP");
    /* float add: SHFL.UP, @P FADD */
    plan(ISA_OP_SG_SCAN_INC_ADD, ISA_T_F32, 16, 0, TREE, 0, "IAIAIAIA");
    /* exclusive float add: + the identity into lane 0 (a select) */
    plan(ISA_OP_SG_SCAN_EXC_ADD, ISA_T_F32, 8, 0, TREE, 0, "IPIAIAIAP");
    /* 64-bit: each half its SHFL */
    plan(ISA_OP_SG_SCAN_INC_ADD, ISA_T_U64, 4, 0, TREE, 0, "IIPAIIPA");
    /* a partial mask: the inactive lanes take the pad value first */
    plan(ISA_OP_SG_NU_SCAN_INC_ADD, ISA_T_U32, 8, 0x5b, TREE, 0, "PIPAIPAIPA");
    /* reduction: SHFL.BFLY and the operator, every lane ends with the value */
    plan(ISA_OP_SG_REDUCE_ADD, ISA_T_F32, 32, 0, TREE, 0, "IAIAIAIAIA");
    plan(ISA_OP_SG_REDUCE_MAX, ISA_T_F32, 32, 0, TREE, 0, "IPPIPPIPPIPPIPP");
    /* REDUX: 32-bit add, min, max, and, or, xor; mul has none */
    plan(ISA_OP_SG_REDUCE_ADD, ISA_T_U32, 32, 0, HW, 0, "H");
    plan(ISA_OP_SG_NU_REDUCE_MUL, ISA_T_I32, 32, 0, HW, 0, "IAIAIAIAIA");
    /* logical operators: the compare with 0, then REDUX */
    plan(ISA_OP_SG_NU_REDUCE_LAND, ISA_T_I32, 32, 0, HW, 0, "AH");
    /* 64-bit reduction: two SHFL.BFLY a step */
    plan(ISA_OP_SG_REDUCE_ADD, ISA_T_I64, 8, 0, HW, 0, "IIAIIAIIA");
    /* clustered: the butterfly inside clusters of 4 */
    plan(ISA_OP_SG_CL_REDUCE_ADD, ISA_T_U32, 16, 0, TREE, 4, "IAIA");
    /* broadcast: one SHFL.IDX */
    plan(ISA_OP_SG_BROADCAST, ISA_T_U32, 32, 0, TREE, 0, "I");
    plan(ISA_OP_SG_BROADCAST, ISA_T_F64, 32, 0, TREE, 0, "II");
    /* all / any: ISETP, VOTE.ALL, SEL; all_equal: SHFL.IDX, ISETP.EQ, VOTE, SEL */
    plan(ISA_OP_SG_ALL, ISA_T_I32, 32, 0, TREE, 0, "AVP");
    plan(ISA_OP_SG_NU_ANY, ISA_T_I32, 16, 0x0ff0, HW, 0, "AVP");
    plan(ISA_OP_SG_NU_ALL_EQUAL, ISA_T_F32, 32, 0, TREE, 0, "IAVP");
}

/* the region rows: the micro-ops as before the table (docs/collectives.md) */
static void test_region_plans(void **state)
{
    (void)state;
    const coll_options o = options(COLL_LOWER_REGION, COLL_RED_TREE);
    static const struct { uint32_t op; isa_type t; const char *want; } c[] = {
        { ISA_OP_SG_SCAN_INC_ADD, ISA_T_U32, "MMAAAAA" },
        { ISA_OP_SG_SCAN_EXC_ADD, ISA_T_F32, "MMAAAAAM" },
        { ISA_OP_SG_REDUCE_ADD, ISA_T_F32, "MMAAAAAB" },
        { ISA_OP_SG_BROADCAST, ISA_T_U32, "B" },
        { ISA_OP_SG_ALL, ISA_T_I32, "MAMAAAAAB" },
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        isa_inst in = inst(c[i].op, c[i].t, 0);
        test_wg x;
        const uint32_t local[3] = { 32, 1, 1 };
        test_wg_init(&x, 32, 32, NREG, local);
        uint64_t src[LANES_MAX] = { 0 }, d[LANES_MAX];
        static test_uops l;
        assert_int_equal(run(&o, &x, &in, src, d, &l), COLL_OK);
        char got[64];
        kinds(&l, got);
        assert_string_equal(got, c[i].want);
        test_wg_free(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_identical),
        cmocka_unit_test(test_shuffle_plans),
        cmocka_unit_test(test_region_plans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
