/* test_cfg.c - reconvergence points (immediate post-dominators) on
 * hand-built CFGs.  Each kernel is built directly as instructions, not
 * through the assembler; the expected ipdom of every conditional branch is
 * derived by hand in the comment next to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"

enum { N_ = 0, R_ = 1, B_ = 2, C_ = 3 };   /* nop, ret, bra, conditional bra */

typedef struct step {
    int kind;
    uint32_t target;
} step;

static isa_kernel build(const step *s, uint32_t n)
{
    isa_kernel k;
    memset(&k, 0, sizeof k);
    k.ninst = n;
    k.inst = calloc(n, sizeof *k.inst);
    for (uint32_t i = 0; i < n; i++) {
        isa_inst *in = &k.inst[i];
        in->type = in->src_type = ISA_T_NONE;
        in->vec = 1;
        in->reconv = 12345;   /* must be overwritten for every bra */
        switch (s[i].kind) {
        case N_: in->op = ISA_OP_NOP; break;
        case R_: in->op = ISA_OP_RET; break;
        case B_:
            in->op = ISA_OP_BRA;
            in->nopnd = 1;
            in->o[0].kind = ISA_OPND_LABEL;
            in->target = s[i].target;
            break;
        case C_:
            in->op = ISA_OP_BRA;
            in->nopnd = 2;
            in->o[0].kind = ISA_OPND_PRED;
            in->o[1].kind = ISA_OPND_LABEL;
            in->target = s[i].target;
            break;
        }
    }
    return k;
}

#define X ISA_PC_EXIT

/* expect[i]: reconv of instruction i if it is a conditional bra */
static void check(const step *s, uint32_t n, const uint32_t *expect)
{
    isa_kernel k = build(s, n);
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_validate(&k, &d), 0);   /* also computes reconvergence */
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].kind == C_)
            assert_int_equal(k.inst[i].reconv, expect[i]);
        else if (s[i].kind == B_)
            assert_int_equal(k.inst[i].reconv, X);   /* uniform jump: none */
    }
    isa_kernel_free(&k);
    isa_diags_free(&d);
}

static void test_if_else(void **st)
{
    (void)st;
    /* 0: if (p) goto 3 | 1: then | 2: goto 4 | 3: else | 4: join | 5: ret
     * 0 -> {3, 1}; 1 -> 2 -> 4; 3 -> 4: both arms meet at 4. */
    static const step s[] = { { C_, 3 }, { N_, 0 }, { B_, 4 }, { N_, 0 }, { N_, 0 }, { R_, 0 } };
    static const uint32_t e[] = { 4 };
    check(s, 6, e);
}

static void test_nested_if(void **st)
{
    (void)st;
    /* 0: if (p0) goto 5      outer; arms 1..4 and nothing: meet at 5
     * 1: if (p1) goto 3      inner; arms 2 and nothing: meet at 3
     * 2: nop | 3: nop | 4: nop | 5: ret */
    static const step s[] = { { C_, 5 }, { C_, 3 }, { N_, 0 }, { N_, 0 }, { N_, 0 }, { R_, 0 } };
    static const uint32_t e[] = { 5, 3 };
    check(s, 6, e);
}

static void test_loop_break(void **st)
{
    (void)st;
    /* 0: nop | 1: if (p) goto 4 (break) | 2: body | 3: if (q) goto 1 (loop) | 4: ret
     * 1 -> {4, 2}; 2 -> 3 -> {1, 4}: every path from 1 and from 3 leaves
     * through 4, so both reconverge at 4. */
    static const step s[] = { { N_, 0 }, { C_, 4 }, { N_, 0 }, { C_, 1 }, { R_, 0 } };
    static const uint32_t e[] = { 0, 4, 0, 4 };
    check(s, 5, e);
}

static void test_loop_continue(void **st)
{
    (void)st;
    /* 0: header | 1: if (p) goto 3 (continue) | 2: body | 3: if (q) goto 0 | 4: ret
     * 1 -> {3, 2 -> 3}: meet at the latch 3; 3 -> {0, 4}: 0 leads back to 3,
     * so the loop is left only through 4. */
    static const step s[] = { { N_, 0 }, { C_, 3 }, { N_, 0 }, { C_, 0 }, { R_, 0 } };
    static const uint32_t e[] = { 0, 3, 0, 4 };
    check(s, 5, e);
}

static void test_early_return(void **st)
{
    (void)st;
    /* 0: if (p) goto 3 | 1: nop | 2: ret (early) | 3: nop | 4: ret
     * the two paths never meet before the exit. */
    static const step s[] = { { C_, 3 }, { N_, 0 }, { R_, 0 }, { N_, 0 }, { R_, 0 } };
    static const uint32_t e[] = { X };
    check(s, 5, e);
    /* inside an if: 0: if (p) goto 4 | 1: if (q) goto 3 | 2: ret | 3: nop | 4: nop | 5: ret
     * 1 -> {3 -> 4, 2 -> exit}: only exit; 0 -> {4, 1 -> ... exit}: only exit. */
    static const step s2[] = { { C_, 4 }, { C_, 3 }, { R_, 0 }, { N_, 0 }, { N_, 0 }, { R_, 0 } };
    static const uint32_t e2[] = { X, X };
    check(s2, 6, e2);
}

static void test_two_exit_loop(void **st)
{
    (void)st;
    /* 0: header | 1: if (p) goto 5 (exit A) | 2: nop | 3: if (q) goto 6 (exit B)
     * 4: goto 0 | 5: nop (exit A's block) | 6: join | 7: ret
     * 1 -> {5 -> 6, 2 -> 3 -> {6, 4 -> 0 -> 1}}: all paths pass 6.
     * 3 -> {6, 4 -> 0 -> 1 -> {5 -> 6, 2 -> 3}}: all paths pass 6. */
    static const step s[] = { { N_, 0 }, { C_, 5 }, { N_, 0 }, { C_, 6 },
                              { B_, 0 }, { N_, 0 }, { N_, 0 }, { R_, 0 } };
    static const uint32_t e[] = { 0, 6, 0, 6 };
    check(s, 8, e);
}

static void test_irreducible(void **st)
{
    (void)st;
    /* A goto into the middle of a cycle (two entries 1 and 3):
     * 0: if (p0) goto 3 | 1: nop | 2: if (p1) goto 4 | 3: nop
     * 4: if (p2) goto 1 | 5: ret
     * succ: 0 {3,1}; 1 {2}; 2 {4,3}; 3 {4}; 4 {1,5}; 5 {exit}
     * ipdom(4) = 5 (its other successor loops back to 4); ipdom(2) = 4
     * (3 -> 4); ipdom(0) = 4 (3 -> 4 and 1 -> 2 -> 4). */
    static const step s[] = { { C_, 3 }, { N_, 0 }, { C_, 4 }, { N_, 0 }, { C_, 1 }, { R_, 0 } };
    static const uint32_t e[] = { 4, 0, 4, 0, 5 };
    check(s, 6, e);
}

static void test_edge_cases(void **st)
{
    (void)st;
    /* branch to the end of the program (target == ninst is the exit):
     * 0: if (p) goto end | 1: nop  -> paths meet only at exit */
    static const step s[] = { { C_, 2 }, { N_, 0 } };
    static const uint32_t e[] = { X };
    check(s, 2, e);
    /* branch to the next instruction: both successors are 1 */
    static const step s2[] = { { C_, 1 }, { R_, 0 } };
    static const uint32_t e2[] = { 1 };
    check(s2, 2, e2);
    /* an endless loop that can never reach the exit; the branch before
     * it reconverges where its finite path goes (2), the loop has none:
     * 0: if (p) goto 2 | 1: goto 1 | 2: if (q) goto 2 ... | 3: ret */
    static const step s3[] = { { C_, 2 }, { B_, 1 }, { C_, 0 }, { R_, 0 } };
    isa_kernel k = build(s3, 4);
    isa_compute_reconvergence(&k);
    /* 2 -> {0, 3}; 0 -> {2, 1 (never exits)}: ipdom(2) = 3, ipdom(0) = 2 */
    assert_int_equal(k.inst[2].reconv, 3);
    assert_int_equal(k.inst[0].reconv, 2);
    isa_kernel_free(&k);
}

static void test_long_chain(void **st)
{
    (void)st;
    /* 20000 nested ifs: 'if (p) goto n-1-i' at i; ipdom of i is n-1-i.
     * Exercises the iterative (non-recursive) DFS. */
    enum { n = 40001 };
    step *s = calloc(n, sizeof *s);
    uint32_t *e = calloc(n, sizeof *e);
    for (uint32_t i = 0; i < n / 2; i++) {
        s[i] = (step){ C_, n - 1 - i };
        e[i] = n - 1 - i;
    }
    s[n - 1] = (step){ R_, 0 };
    check(s, n, e);
    free(s);
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_loop_break),
        cmocka_unit_test(test_loop_continue),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_two_exit_loop),
        cmocka_unit_test(test_irreducible),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_long_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
