/* Tests of lanes/simt.c: tiny programs stepped by hand; the sequence of
 * (pc, active mask) visited must equal the sequence written out below. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lanes.h"

enum { OP, INC, BR, BRLOOP, RET };

typedef struct tinst {
    int kind;
    lanes_mask taken;       /* BR: lanes that take it */
    uint32_t target, reconv;
} tinst;

typedef struct visit { uint32_t pc; lanes_mask mask; } visit;

#define MAXV 512

/* Run prog on `lanes`; BRLOOP is taken by lanes whose counter is below
 * limit[lane].  Returns the number of visits. */
static int run(const tinst *prog, lanes_mask lanes, const int *limit,
               visit *out, uint32_t *max_depth)
{
    lanes_simt s;
    int cnt[LANES_MAX] = { 0 };
    int n = 0;
    lanes_simt_init(&s, lanes, 0);
    *max_depth = s.depth;
    while (!lanes_simt_done(&s) && n < MAXV) {
        uint32_t pc = lanes_simt_pc(&s);
        lanes_mask m = lanes_simt_active(&s);
        assert_true(m != 0);
        out[n++] = (visit){ pc, m };
        const tinst *in = &prog[pc];
        lanes_mask t = 0;
        switch (in->kind) {
        case OP:
            lanes_simt_goto(&s, pc + 1);
            break;
        case INC:
            for (int l = 0; l < LANES_MAX; l++)
                if ((m >> l) & 1)
                    cnt[l]++;
            lanes_simt_goto(&s, pc + 1);
            break;
        case BR:
            lanes_simt_branch(&s, in->taken, in->target, pc + 1, in->reconv);
            break;
        case BRLOOP:
            for (int l = 0; l < LANES_MAX; l++)
                if (((m >> l) & 1) && cnt[l] < limit[l])
                    t |= (lanes_mask)1 << l;
            lanes_simt_branch(&s, t, in->target, pc + 1, in->reconv);
            break;
        case RET:
            lanes_simt_ret(&s);
            break;
        }
        if (s.depth > *max_depth)
            *max_depth = s.depth;
    }
    assert_true(lanes_simt_done(&s));
    assert_int_equal(lanes_simt_active(&s), 0);
    assert_int_equal(lanes_simt_pc(&s), ISA_PC_EXIT);
    lanes_simt_free(&s);
    return n;
}

static void expect(const tinst *prog, lanes_mask lanes, const int *limit,
                   const visit *want, int nwant)
{
    visit got[MAXV];
    uint32_t depth;
    int n = run(prog, lanes, limit, got, &depth);
    for (int i = 0; i < n && i < nwant; i++) {
        if (got[i].pc != want[i].pc || got[i].mask != want[i].mask)
            fail_msg("visit %d: got (%u, 0x%llx), want (%u, 0x%llx)", i,
                     got[i].pc, (unsigned long long)got[i].mask,
                     want[i].pc, (unsigned long long)want[i].mask);
    }
    assert_int_equal(n, nwant);
}

#define ALL ISA_PC_EXIT
#define NV(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void test_if_else(void **st)
{
    (void)st;
    static const tinst p[] = {
        { BR, 0x0f, 3, 5 },         /* 0: lanes 0-3 -> then at 3 */
        { OP, 0, 0, 0 },            /* 1: else */
        { BR, ~0ull, 5, 5 },        /* 2: jump to join */
        { OP, 0, 0, 0 },            /* 3: then */
        { OP, 0, 0, 0 },            /* 4 */
        { OP, 0, 0, 0 },            /* 5: join */
        { RET, 0, 0, 0 },           /* 6 */
    };
    static const visit w[] = {
        { 0, 0xff }, { 3, 0x0f }, { 4, 0x0f }, { 1, 0xf0 }, { 2, 0xf0 },
        { 5, 0xff }, { 6, 0xff },
    };
    expect(p, 0xff, NULL, w, NV(w));
}

static void test_nested3(void **st)
{
    (void)st;
    static const tinst p[] = {
        { BR, 0xf0, 11, 14 },       /* 0: level 1 */
        { BR, 0x0c, 6, 9 },         /* 1: level 2 (0x0f) */
        { BR, 0x01, 4, 4 },         /* 2: level 3 (0x03), if without else */
        { OP, 0, 0, 0 },            /* 3: lane 1 */
        { OP, 0, 0, 0 },            /* 4: level 3 join */
        { BR, ~0ull, 9, 9 },        /* 5: jump to level 2 join */
        { OP, 0, 0, 0 },            /* 6: lanes 2,3 */
        { OP, 0, 0, 0 },            /* 7 */
        { OP, 0, 0, 0 },            /* 8 */
        { OP, 0, 0, 0 },            /* 9: level 2 join */
        { BR, ~0ull, 14, 14 },      /* 10 */
        { OP, 0, 0, 0 },            /* 11: lanes 4-7 */
        { OP, 0, 0, 0 },            /* 12 */
        { OP, 0, 0, 0 },            /* 13 */
        { OP, 0, 0, 0 },            /* 14: level 1 join */
        { RET, 0, 0, 0 },           /* 15 */
    };
    static const visit w[] = {
        { 0, 0xff },
        { 11, 0xf0 }, { 12, 0xf0 }, { 13, 0xf0 },
        { 1, 0x0f },
        { 6, 0x0c }, { 7, 0x0c }, { 8, 0x0c },
        { 2, 0x03 }, { 3, 0x02 }, { 4, 0x03 }, { 5, 0x03 },
        { 9, 0x0f }, { 10, 0x0f },
        { 14, 0xff }, { 15, 0xff },
    };
    expect(p, 0xff, NULL, w, NV(w));
}

static void test_loop(void **st)
{
    (void)st;
    static const tinst p[] = {
        { OP, 0, 0, 0 },            /* 0 */
        { INC, 0, 0, 0 },           /* 1: loop body */
        { BRLOOP, 0, 1, 3 },        /* 2: back edge while cnt < limit */
        { OP, 0, 0, 0 },            /* 3: after the loop */
        { RET, 0, 0, 0 },           /* 4 */
    };
    static const int limit[LANES_MAX] = { 1, 3, 2, 3 };
    static const visit w[] = {
        { 0, 0xf }, { 1, 0xf }, { 2, 0xf },
        { 1, 0xe }, { 2, 0xe },
        { 1, 0xa }, { 2, 0xa },
        { 3, 0xf }, { 4, 0xf },
    };
    expect(p, 0xf, limit, w, NV(w));
}

static void test_loop_64_lanes_depth(void **st)
{
    (void)st;
    static const tinst p[] = {
        { INC, 0, 0, 0 }, { BRLOOP, 0, 0, 2 }, { RET, 0, 0, 0 },
    };
    int limit[LANES_MAX];
    for (int l = 0; l < LANES_MAX; l++)
        limit[l] = 1 + (l * 37) % 64;       /* every count 1..64 once */
    visit got[MAXV];
    uint32_t depth;
    int n = run(p, ~0ull, limit, got, &depth);
    /* 64 iterations of (inc, bra), then ret */
    assert_int_equal(n, 64 * 2 + 1);
    lanes_mask expect_m = ~0ull;
    for (int it = 0; it < 64; it++) {
        assert_int_equal(got[2 * it].pc, 0);
        assert_int_equal(got[2 * it].mask, expect_m);
        for (int l = 0; l < LANES_MAX; l++)
            if (limit[l] == it + 1)
                expect_m &= ~((lanes_mask)1 << l);
    }
    assert_int_equal(got[128].pc, 2);
    assert_int_equal(got[128].mask, ~0ull);
    assert_true(depth <= 3);
}

static void test_ret_in_branch(void **st)
{
    (void)st;
    static const tinst p[] = {
        { BR, 0x3, 3, 4 },          /* 0 */
        { OP, 0, 0, 0 },            /* 1 */
        { BR, ~0ull, 4, 4 },        /* 2 */
        { RET, 0, 0, 0 },           /* 3: lanes 0,1 return early */
        { OP, 0, 0, 0 },            /* 4: join, only lanes 2,3 remain */
        { RET, 0, 0, 0 },           /* 5 */
    };
    static const visit w[] = {
        { 0, 0xf }, { 3, 0x3 }, { 1, 0xc }, { 2, 0xc }, { 4, 0xc }, { 5, 0xc },
    };
    expect(p, 0xf, NULL, w, NV(w));
}

static void test_uniform_branch(void **st)
{
    (void)st;
    static const tinst p[] = {
        { BR, 0xf, 2, 3 },          /* 0: everybody takes it */
        { OP, 0, 0, 0 },            /* 1: skipped */
        { BR, 0x0, 5, 3 },          /* 2: nobody takes it */
        { OP, 0, 0, 0 },            /* 3 */
        { RET, 0, 0, 0 },           /* 4 */
        { RET, 0, 0, 0 },           /* 5 */
    };
    static const visit w[] = { { 0, 0xf }, { 2, 0xf }, { 3, 0xf }, { 4, 0xf } };
    expect(p, 0xf, NULL, w, NV(w));

    lanes_simt s;
    lanes_simt_init(&s, 0xf, 0);
    lanes_simt_branch(&s, 0xf, 2, 1, 3);
    assert_int_equal(s.depth, 1);           /* no push */
    assert_int_equal(lanes_simt_pc(&s), 2);
    lanes_simt_free(&s);
}

static void test_reconv_at_exit(void **st)
{
    (void)st;
    static const tinst p[] = {
        { BR, 0x3, 3, ALL },        /* 0: paths never meet */
        { OP, 0, 0, 0 },            /* 1 */
        { RET, 0, 0, 0 },           /* 2 */
        { OP, 0, 0, 0 },            /* 3 */
        { BR, 0x1, 6, ALL },        /* 4: nested, also exit-only */
        { RET, 0, 0, 0 },           /* 5 */
        { RET, 0, 0, 0 },           /* 6 */
    };
    static const visit w[] = {
        { 0, 0xf }, { 3, 0x3 }, { 4, 0x3 }, { 6, 0x1 }, { 5, 0x2 },
        { 1, 0xc }, { 2, 0xc },
    };
    expect(p, 0xf, NULL, w, NV(w));
}

static void test_exit_inside_if(void **st)
{
    (void)st;
    /* an outer if/else (reconv 7) whose then-part holds a branch whose
     * paths only meet at exit: lanes that pass the join run it apart */
    static const tinst p[] = {
        { BR, 0xc, 4, 7 },          /* 0: lanes 2,3 -> 4 */
        { OP, 0, 0, 0 },            /* 1: lanes 0,1 */
        { BR, ~0ull, 7, 7 },        /* 2 */
        { OP, 0, 0, 0 },            /* 3: unused */
        { BR, 0x4, 6, ALL },        /* 4: lane 2 -> ret at 6 */
        { BR, ~0ull, 7, 7 },        /* 5: lane 3 -> join */
        { RET, 0, 0, 0 },           /* 6 */
        { OP, 0, 0, 0 },            /* 7: join */
        { RET, 0, 0, 0 },           /* 8 */
    };
    static const visit w[] = {
        { 0, 0xf }, { 4, 0xc }, { 6, 0x4 }, { 5, 0x8 }, { 7, 0x8 },
        { 8, 0x8 }, { 1, 0x3 }, { 2, 0x3 }, { 7, 0x3 }, { 8, 0x3 },
    };
    expect(p, 0xf, NULL, w, NV(w));
}

static void test_partial_and_empty(void **st)
{
    (void)st;
    static const tinst p[] = { { OP, 0, 0, 0 }, { RET, 0, 0, 0 } };
    static const visit w[] = { { 0, 0x7 }, { 1, 0x7 } };
    expect(p, 0x7, NULL, w, NV(w));
    lanes_simt s;
    lanes_simt_init(&s, 0, 0);
    assert_true(lanes_simt_done(&s));
    lanes_simt_free(&s);
}

static void test_sg_init(void **st)
{
    (void)st;
    lanes_sg sg;
    assert_int_equal(lanes_sg_init(&sg, 16, 12, 8, 2), 0);
    assert_int_equal(sg.exists, 0xfff);
    for (uint32_t i = 0; i < 8 * 16; i++)
        assert_int_equal(sg.regs[i], 0);
    assert_int_equal(sg.preds[0] | sg.preds[1], 0);
    assert_int_equal(lanes_reg(&sg, 3) - sg.regs, 48);
    lanes_sg_free(&sg);
    assert_int_equal(lanes_sg_init(&sg, 65, 1, 1, 1), -1);
    assert_int_equal(lanes_sg_init(&sg, 8, 9, 1, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested3),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_loop_64_lanes_depth),
        cmocka_unit_test(test_ret_in_branch),
        cmocka_unit_test(test_uniform_branch),
        cmocka_unit_test(test_reconv_at_exit),
        cmocka_unit_test(test_exit_inside_if),
        cmocka_unit_test(test_partial_and_empty),
        cmocka_unit_test(test_sg_init),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
