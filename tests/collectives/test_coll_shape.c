/* test_coll_shape.c - sub-group scans, reductions and shuffles through the
 * shape cache (collectives/shape.c: the values computed directly, the
 * micro-ops replayed) against the same instructions run micro-op by
 * micro-op (no cache): identical destination values, statuses and
 * micro-op records, in order, for every scan and reduction opcode of
 * sub-group and non-uniform scope and every shuffle and rotate, every
 * type, several widths, sizes, active lanes, indices and every reduce,
 * scan and shuffle algorithm; the first call of a shape records it, the
 * second replays it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "coll_private.h"   /* the algorithm indices */
#include "test_uops.h"
#include "test_wg.h"

#include <stdlib.h>
#include <string.h>

#define NREG 8
static const lanes_env lenv = { NULL, NULL, NULL };
static uint64_t rng = 0x243f6a8885a308d3ull;

/* Run `in` on sub-group 0 of x (registers reset to `seed` first); the
 * result register and the records come back in *dst and *l. */
static coll_status run(const coll_options *opt, coll_shapes *shapes, test_wg *x,
                       const isa_inst *in, const uint64_t *src, uint64_t *dst, test_uops *l)
{
    const coll_sink sink = { l, test_uops_keep, NULL };
    coll_env env = { &lenv, opt, NULL, &sink, NULL, 0, NULL, NULL, shapes };
    const uint32_t w = x->w;
    /* r0..r1 destination, r2..r3 and r4..r5 sources (x2), r6 index or delta */
    for (uint32_t r = 0; r < 7; r++)
        for (uint32_t l2 = 0; l2 < w; l2++)
            lanes_reg(&x->sg[0], r)[l2] = r < 2 ? 0x5a5a5a5a5a5a5a5aull : src[(r - 2) * w + l2];
    l->n = 0;
    coll_group g = x->g;
    g.nsg = 1;
    coll_report rep;
    coll_status st = coll_execute(&env, in, &g, &rep);
    for (uint32_t c = 0; c < 2; c++)
        memcpy(dst + c * w, lanes_reg(&x->sg[0], c), w * sizeof *dst);
    return st;
}

static bool is_shuffle(isa_family f)
{
    return f == ISA_FAM_SHUFFLE || f == ISA_FAM_SHUFFLE_XOR || f == ISA_FAM_SHUFFLE_UP ||
           f == ISA_FAM_SHUFFLE_DOWN || f == ISA_FAM_SHUFFLE_DOWN2 ||
           f == ISA_FAM_SHUFFLE_UP2 || f == ISA_FAM_ROTATE;
}

static void one(const coll_options *opt, coll_shapes *shapes, uint32_t op, isa_type t,
                uint32_t w, uint32_t size, lanes_mask act, uint32_t vec)
{
    const isa_op_info *oi = &isa_ops[op];
    const bool two = oi->family == ISA_FAM_SHUFFLE_DOWN2 || oi->family == ISA_FAM_SHUFFLE_UP2;
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.vec = (uint8_t)vec;
    in.nopnd = 2;
    in.o[0].kind = ISA_OPND_REG;
    in.o[0].reg = 0;
    in.o[1].kind = ISA_OPND_REG;
    in.o[1].reg = 2;
    if (is_shuffle(oi->family)) {   /* sources r2 (r4), index or delta r6 */
        in.nopnd = two ? 4 : 3;
        in.o[2].kind = in.o[3].kind = ISA_OPND_REG;
        in.o[2].reg = two ? 4 : 6;
        in.o[3].reg = 6;
        if (oi->scope == ISA_SCOPE_CL) {   /* a cluster of 1 .. w lanes */
            in.nopnd = 4;
            in.o[3].kind = ISA_OPND_IMM;
            in.o[3].imm = 1u << (test_xorshift64(&rng) % (32 - __builtin_clz(w)));
        }
    }
    test_wg x;
    const uint32_t local[3] = { size, 1, 1 };
    test_wg_init(&x, w, size, NREG, local);
    x.act[0] = act & x.sg[0].exists;
    uint64_t src[5 * LANES_MAX], ref[2 * LANES_MAX], got[2 * LANES_MAX];
    for (uint32_t i = 0; i < 5 * w; i++) {
        uint64_t r = test_xorshift64(&rng);
        /* small values too, so that sums and products do not always wrap */
        src[i] = (r & 3) == 0 ? r >> 60 : r;
    }
    for (uint32_t l = 0; l < w; l++) {   /* indices and deltas: in range, past it, negative */
        uint64_t r = test_xorshift64(&rng);
        src[4 * w + l] = (r & 7) == 0 ? (uint32_t)-(int32_t)(r >> 59) : (r & 7) == 1 ? r >> 32 : (r >> 8) % (2 * w + 1);
    }
    static test_uops lr, lg;
    coll_status sr = run(opt, NULL, &x, &in, src, ref, &lr);
    for (int pass = 0; pass < 2; pass++) {   /* record, then replay */
        coll_status sg = run(opt, shapes, &x, &in, src, got, &lg);
        assert_int_equal(sg, sr);
        assert_memory_equal(got, ref, 2 * w * sizeof *ref);
        assert_int_equal(lg.n, lr.n);
        assert_memory_equal(lg.u, lr.u, (lr.n < TEST_UOPS_MAX ? lr.n : TEST_UOPS_MAX) * sizeof lr.u[0]);
    }
    test_wg_free(&x);
}

static void test_matches_micro_ops(void **state)
{
    (void)state;
    static const uint32_t widths[] = { 1, 3, 8, 13, 16, 32, 64 };
    static coll_shapes shapes;
    coll_options opt;
    uint32_t runs = 0;
    for (uint32_t ra = 0; ra < 3; ra++)
        for (uint32_t sa = 0; sa < 4; sa++) {
            coll_options_default(&opt);
            opt.reduce_algo = (uint8_t)ra;
            /* sa = 3: logstep under the shuffle lowering */
            opt.scan_algo = (uint8_t)(sa == 3 ? COLL_SCAN_LOGSTEP : sa);
            opt.lowering = (uint8_t)(sa == 3 ? COLL_LOWER_SHUFFLE : COLL_LOWER_REGION);
            opt.hw_reduce_width = 16;
            opt.shuffle_algo = (uint8_t)(sa == 1 || sa == 3 ? COLL_SHUF_CROSSBAR : COLL_SHUF_INDIRECT);
            opt.indirect_lanes = (uint16_t)(ra == 2 ? 8 : 16);
            memset(&shapes, 0, sizeof shapes);   /* a cache serves one run's options */
            for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
                const isa_op_info *oi = &isa_ops[op];
                const bool scan = oi->family == ISA_FAM_REDUCE || oi->family == ISA_FAM_SCAN_INC ||
                                  oi->family == ISA_FAM_SCAN_EXC;
                if (oi->pipe != ISA_PIPE_COLL || !(scan || is_shuffle(oi->family)) ||
                    (scan && oi->scope != ISA_SCOPE_SG && oi->scope != ISA_SCOPE_NU))
                    continue;
                for (uint32_t t = 0; t < ISA_T_COUNT; t++) {
                    if (!(oi->types >> t & 1))
                        continue;
                    for (uint32_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
                        const uint32_t w = widths[wi];
                        const lanes_mask all = lanes_mask_first(w);
                        const lanes_mask some = test_xorshift64(&rng) & all;
                        one(&opt, &shapes, op, (isa_type)t, w, w, all, 1);
                        one(&opt, &shapes, op, (isa_type)t, w, w, some, 1);
                        one(&opt, &shapes, op, (isa_type)t, w, w - w / 3, all, 2);
                        one(&opt, &shapes, op, (isa_type)t, w, w, some ^ all, 2);
                        runs += 4;
                    }
                }
            }
        }
    assert_true(runs > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_micro_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
