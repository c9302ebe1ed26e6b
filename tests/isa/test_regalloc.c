/* test_regalloc.c - the register allocator (isa/regalloc.c) on small
 * .regalloc kernels whose live sets are worked out by hand in the comments:
 * the demand is the largest live set, values that are never live together
 * share registers, vector operands keep consecutive registers, cross-lane
 * sources under divergence keep a register of their own, and spilling to a
 * budget inserts the stores and fills derived below; scheduling for
 * pressure (isa/presched.c) lowers a live set as derived below and keeps
 * barriers and memory order.  Every allocated kernel gives the same bytes
 * as the unallocated one at every width. */
#include "sgemu.h"
#include "test_args.h"
#include "ra_kernels.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static emu_config cfg;

static void assemble(const char *src, isa_kernel *k)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("t.sgasm", src, strlen(src), k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
}

/* Allocate k with the options o. */
static void allocate_with(const isa_kernel *k, const isa_ra_opts *o, isa_kernel *out,
                          isa_ra_stats *st)
{
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_regalloc(k, o, out, st, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    assert_int_equal(out->regalloc, ISA_RA_DONE);
    assert_int_equal(out->grf_bytes_per_lane, st->live_bytes);
}

/* Allocate k to `budget` bytes per lane; remat: recompute cheap values
 * instead of spilling them (the derivations below say which). */
static void allocate_rm(const isa_kernel *k, uint32_t budget, bool remat, isa_kernel *out,
                        isa_ra_stats *st)
{
    isa_ra_opts o = { .budget_bytes = budget, .no_remat = !remat };
    allocate_with(k, &o, out, st);
}

static void allocate(const isa_kernel *k, uint32_t budget, isa_kernel *out, isa_ra_stats *st)
{
    allocate_rm(k, budget, false, out, st);
}

enum { G = 96, L = 48 };   /* two work-groups, partial sub-groups at 32 and 64 */

/* out (G words) after running k at `width` with in = i * 7 + 3. */
static void run(const isa_kernel *k, uint32_t width, uint32_t *out)
{
    static uint32_t in[G];
    for (uint32_t i = 0; i < G; i++)
        in[i] = i * 7u + 3u;
    memset(out, 0, G * 4);
    sgemu_argval a[2];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = G * 4;
    a[1].data = (uint8_t *)in;
    a[1].bytes = sizeof in;
    sgemu_launch la = launch_1d(G, L, width);
    la.threads = 1;
    sgemu_stats st;
    sgemu_fault f;
    setenv("SGEMU_REGALLOC", "0", 1);   /* run k as given */
    int rc = sgemu_run(k, &cfg, &la, a, &st, &f);
    unsetenv("SGEMU_REGALLOC");
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    sgemu_stats_free(&st);
}

/* Same bytes from k and its allocation a at every width of the config. */
static void same_results(const isa_kernel *k, const isa_kernel *a)
{
    static const uint32_t widths[] = { 1, 4, 8, 16, 32, 64 };
    for (unsigned w = 0; w < sizeof widths / sizeof *widths; w++) {
        uint32_t want[G], got[G];
        run(k, widths[w], want);
        run(a, widths[w], got);
        assert_memory_equal(want, got, sizeof want);
    }
}

static unsigned count_private(const isa_kernel *k, isa_opcode op)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < k->ninst; i++)
        n += k->inst[i].op == op && k->inst[i].space == ISA_SPACE_PRIVATE &&
             k->inst[i].o[op == ISA_OP_ST ? 0 : 1].addr.base_kind == ISA_OPND_NONE;
    return n;
}

/* live after each instruction (u32 = 4 bytes):
 *   r0            {r0}
 *   r1 = r0 + 1   {r0 r1}
 *   r2 = r0 * 5   {r0 r1 r2}     <- 12 bytes, the peak
 *   r3 = r1 * r2  {r0 r3}
 *   r4 = r3 ^ r0  {r0 r4}
 *   st            {}
 * five values, three registers. */
static const char straight[] =
    ".kernel straight\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    add.u32 r1, r0, 1\n"
    "    mul.u32 r2, r0, 5\n"
    "    mul.u32 r3, r1, r2\n"
    "    xor.u32 r4, r3, r0\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static void test_demand_is_the_live_set(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(straight, &k);
    assert_int_equal(k.regalloc, ISA_RA_VALUES);
    assert_int_equal(k.grf_bytes_per_lane, 20);     /* five u32 registers */
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.regs_before, 5);
    assert_int_equal(st.bytes_before, 20);
    assert_int_equal(st.live_bytes_before, 12);
    assert_int_equal(st.live_bytes, 12);
    assert_int_equal(st.regs_after, 3);
    assert_int_equal(a.nreg, 3);
    assert_int_equal(a.grf_bytes_per_lane, 12);
    assert_int_equal(st.spilled_values, 0);
    assert_int_equal(a.ninst, k.ninst);
    /* r0 is live throughout: r1..r4 never take its register */
    const uint16_t r0 = a.inst[0].o[0].reg;
    for (uint32_t i = 1; i < 5; i++)
        assert_int_not_equal(a.inst[i].o[0].reg, r0);
    /* r1 and r2 are live together at the mul */
    assert_int_not_equal(a.inst[1].o[0].reg, a.inst[2].o[0].reg);
    same_results(&k, &a);
    /* allocating an allocated program changes nothing */
    isa_kernel b;
    isa_ra_stats st2;
    a.regalloc = ISA_RA_VALUES;
    allocate(&a, 0, &b, &st2);
    assert_int_equal(st2.regs_after, 3);
    assert_memory_equal(a.inst, b.inst, a.ninst * sizeof *a.inst);
    isa_regalloc_free(&b);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* An elementary function holds temporaries while it runs (the device
 * compiler's inlined library), on top of what is live into or out of it:
 *   r0 = id            {r0}
 *   r1 = in[r0]        {r0 r1}
 *   r2 = r1 + 1        {r0 r1 r2}
 *   r3 = pow(r1, r2)   in {r0 r1 r2}, out {r0 r1 r3}: 12 bytes + temporaries
 *   r4 = r3 + r1       {r0 r4}
 *   st
 * Without temporaries the peak is 12 bytes; with pow.f32 holding 20 it is
 * 32, at the pow.  The f16 and f64 entries and other opcodes do not
 * count: an f32 pow reads the f32 column. */
static const char with_pow[] =
    ".kernel with_pow\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.f32 r1, [%in + r0*4]\n"
    "    add.f32 r2, r1, 1.0\n"
    "    pow.f32 r3, r1, r2\n"
    "    add.f32 r4, r3, r1\n"
    "    st.global.f32 [%out + r0*4], r4\n";

/* A double pow of operands just widened from float (how sgemu lowers
 * float pown, rootn and the *pi forms) holds the float function's
 * temporaries, and the float operand and result the device compiler's
 * float function takes: live around it {r0 r2} / {r0 r3}, each double
 * counted as the float it stands for (r1, dead after the conversion), 4 + 4
 * = 8 bytes, + 20.  When an operand is computed in double (the add) it is
 * the double function's, on doubles: 4 + 8 + 100. */
static const char narrowed_head[] =
    ".kernel narrowed_pow\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.f32 r1, [%in + r0*4]\n"
    "    cvt.f64.f32 r2, r1\n";
static const char narrowed_tail[] =
    "    cvt.f32.f64 r4, r3\n"
    "    st.global.f32 [%out + r0*4], r4\n";

static uint32_t live_with(const char *src, const isa_math_temps *mt)
{
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(src, &k);
    isa_ra_opts o = { .math_temps = mt };
    allocate_with(&k, &o, &a, &st);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
    return st.live_bytes;
}

static void test_math_temporaries(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(with_pow, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.live_bytes, 12);
    isa_regalloc_free(&a);
    static isa_math_temps mt;
    memset(&mt, 0, sizeof mt);
    mt.bytes[ISA_OP_POW][0] = 60;
    mt.bytes[ISA_OP_POW][1] = 20;
    mt.bytes[ISA_OP_POW][2] = 100;
    mt.bytes[ISA_OP_EXP][1] = 200;
    isa_ra_opts o = { .math_temps = &mt };
    allocate_with(&k, &o, &a, &st);
    assert_int_equal(st.live_bytes_before, 32);
    assert_int_equal(st.live_bytes, 32);
    assert_int_equal(a.grf_bytes_per_lane, 32);
    assert_int_equal(st.spilled_values, 0);
    /* the temporaries take no register of the program */
    assert_int_equal(st.regs_after, 3);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
    char src[1024];
    snprintf(src, sizeof src, "%s    pow.f64 r3, r2, r2\n%s", narrowed_head, narrowed_tail);
    assert_int_equal(live_with(src, &mt), 4 + 4 + 20);
    snprintf(src, sizeof src, "%s    add.f64 r5, r2, 1.0\n    pow.f64 r3, r5, r5\n%s",
             narrowed_head, narrowed_tail);
    assert_int_equal(live_with(src, &mt), 4 + 8 + 100);
}

/* pown(x, n) as sgemu lowers it: pow.f64 of x and n widened to double.
 * The device compiler runs the float pown on x and n themselves, so where
 * x and n stay live across it (read again after it) the widened copies
 * hold nothing more: at the pow, live into it {r0 r1 r2 r3 r4}: r0 4, x 4,
 * n 4, the copies 0 = 12; out of it {r0 r1 r2 r5}: 12 with the result as a
 * float = 16; + 20 temporaries = 36 (before the rule: 4+4+4+8+8 = 28 into
 * it, 48).  Derived by hand from the program below. */
static const char pown_live[] =
    ".kernel pown_live\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.f32 r1, [%in + r0*4]\n"
    "    ld.global.u32 r2, [%out + r0*4]\n"
    "    cvt.f64.f32 r3, r1\n"
    "    cvt.f64.i32 r4, r2\n"
    "    pow.f64 r5, r3, r4\n"
    "    cvt.f32.f64 r6, r5\n"
    "    cvt.f32.i32 r7, r2\n"
    "    add.f32 r6, r6, r1\n"
    "    add.f32 r6, r6, r7\n"
    "    st.global.f32 [%out + r0*4], r6\n";

static void test_math_widened_operands(void **state)
{
    (void)state;
    static isa_math_temps mt;
    memset(&mt, 0, sizeof mt);
    mt.bytes[ISA_OP_POW][1] = 20;
    mt.bytes[ISA_OP_POW][2] = 100;
    assert_int_equal(live_with(pown_live, &mt), 4 + 4 + 4 + 4 + 20);
    /* without temporaries (no Intel target) the rule is off: the doubles
     * count 8 each, 4 + 4 + 4 + 8 + 8 into the pow */
    assert_int_equal(live_with(pown_live, NULL), 28);
}

/* Two pows of one value (the second through an addition of zero, as sgemu
 * lowers powr): the device compiler computes their common terms once, in
 * the first, and holds them into the second, so the pair's shared bytes S
 * are live from the first pow up to the second.  At the first pow: live
 * out {r0 r1 r2} 12 bytes + its 20 temporaries + S.  With the second pow of
 * another value (a load) nothing is shared, and r1 dies at the first pow:
 * 8 + 20. */
static const char two_pows[] =
    ".kernel two_pows\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %%global_id.x\n"
    "    ld.global.f32 r1, [%%in + r0*4]\n"
    "    pow.f32 r2, r1, r1\n"
    "    st.global.f32 [%%out + r0*4], r2\n"
    "    %s\n"
    "    pow.f32 r4, r3, r3\n"
    "    st.global.f32 [%%in + r0*4], r4\n";

static void test_math_shared(void **state)
{
    (void)state;
    static isa_math_temps mt;
    memset(&mt, 0, sizeof mt);
    mt.bytes[ISA_OP_POW][1] = 20;
    char src[1024];
    snprintf(src, sizeof src, two_pows, "add.f32 r3, r1, 0.0");
    assert_int_equal(live_with(src, &mt), 12 + 20);
    /* two terms of the pair; a term of another type or pair is not */
    isa_math_shared sh[] = {
        { ISA_OP_POW, ISA_OP_POW, 0, 1, 16 }, { ISA_OP_POW, ISA_OP_POW, 1, 1, 4 },
        { ISA_OP_POW, ISA_OP_POW, 2, 2, 64 }, { ISA_OP_POW, ISA_OP_EXP, 3, 1, 64 },
    };
    mt.shared = sh;
    mt.nshared = 4;
    assert_int_equal(live_with(src, &mt), 12 + 20 + 16 + 4);
    snprintf(src, sizeof src, two_pows, "ld.global.f32 r3, [%out + r0*4]");
    assert_int_equal(live_with(src, &mt), 8 + 20);
    /* a copy is the same value; an addition of one is not */
    snprintf(src, sizeof src, two_pows, "mov.f32 r3, r1");
    assert_int_equal(live_with(src, &mt), 12 + 20 + 16 + 4);
    snprintf(src, sizeof src, two_pows, "add.f32 r3, r1, 1.0");
    assert_int_equal(live_with(src, &mt), 12 + 20);
    /* a third pow of the value: each term is live once, from the first pow
     * to the last (at the first: r0 r1 r2 live out, as above) */
    snprintf(src, sizeof src, two_pows,
             "pow.f32 r5, r1, r1\n    st.global.f32 [%out + r0*4], r5\n"
             "    mov.f32 r3, r1");
    assert_int_equal(live_with(src, &mt), 12 + 20 + 16 + 4);
    /* a block boundary (a branch target) between them: nothing shared */
    snprintf(src, sizeof src, two_pows, "bra L1\nL1:\n    mov.f32 r3, r1");
    assert_int_equal(live_with(src, &mt), 12 + 20);
}

/* pown is a function of its own for the shared terms: sgemu runs it as a
 * pow whose exponent was just converted from an integer, the device
 * compiler's library as another body than pow's (sharing other terms with
 * rootn).  At the pow: live in {r0 r1 r2} 4 + 8 + 8, live out {r0 r1 r3} 20,
 * + its 20 temporaries + the terms of the pair that matches; only the
 * first operands are compared (pown's and rootn's second are integers). */
static const char pow_rootn[] =
    ".kernel pow_rootn\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %%global_id.x\n"
    "    ld.global.u32 r6, [%%in + r0*4]\n"
    "    cvt.f64.u32 r1, r6\n"
    "    %s\n"
    "    pow.f64 r3, r1, r2\n"
    "    cvt.f32.f64 r7, r3\n"
    "    st.global.f32 [%%out + r0*4], r7\n"
    "    cvt.f64.i32 r4, 3\n"
    "    rootn.f64 r5, r1, r4\n"
    "    cvt.f32.f64 r8, r5\n"
    "    st.global.f32 [%%in + r0*4], r8\n";

static void test_math_shared_pown(void **state)
{
    (void)state;
    static isa_math_temps mt;
    memset(&mt, 0, sizeof mt);
    mt.bytes[ISA_OP_POW][2] = 20;
    isa_math_shared sh[] = {
        { ISA_OP_POW, ISA_OP_ROOTN, 0, 2, 16 }, { ISA_OP_ROOTN, ISA_MATH_POWN, 1, 2, 40 },
        { ISA_OP_ROOTN, ISA_MATH_POWN, 2, 1, 64 },
    };
    mt.shared = sh;
    mt.nshared = 3;
    char src[1024];
    /* pown: an exponent converted from an integer (signed or not) */
    snprintf(src, sizeof src, pow_rootn, "cvt.f64.i32 r2, r0");
    assert_int_equal(live_with(src, &mt), 20 + 20 + 40);
    snprintf(src, sizeof src, pow_rootn, "cvt.f64.u32 r2, r0");
    assert_int_equal(live_with(src, &mt), 20 + 20 + 40);
    /* pow: a float exponent */
    snprintf(src, sizeof src, pow_rootn, "add.f64 r2, r1, 1.0");
    assert_int_equal(live_with(src, &mt), 20 + 20 + 16);
    /* an exponent widened from float: every operand converted, one from
     * float, so it is float's pow (no f32 temporaries in mt), of another
     * type than rootn: nothing shared, the live set alone */
    snprintf(src, sizeof src, pow_rootn,
             "cvt.f32.u32 r9, r0\n    cvt.f64.f32 r2, r9");
    assert_int_equal(live_with(src, &mt), 20);
    /* an exponent converted more than four instructions before: pow */
    snprintf(src, sizeof src, pow_rootn,
             "cvt.f64.i32 r2, r0\n    mov.u32 r9, 0\n    mov.u32 r10, 0\n"
             "    mov.u32 r11, 0\n    mov.u32 r12, 0");
    assert_int_equal(live_with(src, &mt), 20 + 20 + 16);
}

/* Budget 8 bytes (two u32) for the kernel above.  Round 1: the first peak
 * is `mul r2` (12 bytes out); r0 is read there, r1 and r2 next at `mul r3`
 * (one step): the tie goes to the first, r1 -> slot 0.  Its fill before
 * `mul r3` is then live with r0 and r2: 12 bytes at the fill.  Round 2,
 * peak at that fill: r0 next read two steps on, r2 one step: r0 -> slot 4.
 * Stores: r1 once, r0 once; fills: r1 once, r0 at its four readers.  Every
 * instruction then holds at most two u32 values. */
static void test_spill_to_budget(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(straight, &k);
    allocate(&k, 8, &a, &st);
    assert_int_equal(st.spilled_values, 2);
    assert_int_equal(st.spill_stores, 2);
    assert_int_equal(st.spill_fills, 5);
    assert_int_equal(st.spill_bytes, 8);
    assert_int_equal(st.live_bytes_before, 12);
    assert_int_equal(st.live_bytes, 8);
    assert_int_equal(a.grf_bytes_per_lane, 8);
    assert_int_equal(a.private_mem, 8);
    assert_int_equal(count_private(&a, ISA_OP_ST), 2);
    assert_int_equal(count_private(&a, ISA_OP_LD), 5);
    assert_int_equal(a.ninst, k.ninst + 7);
    assert_true(a.nreg <= 2);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* The same budget with rematerialisation.  r0 (a work-item id), r1 and r2
 * (r0 plus or times a constant) can be recomputed; r3 and r4 cannot (their
 * chains would be 5 instructions).  Round 1, peak `mul r2` as above: r1
 * and r2 both read one step on, r1 (the first) goes: its add is dropped
 * and `mov t0, %global_id.x; add t1, t0, 1` go before `mul r3`.  The fill's
 * place now holds r0 r2 t0 (12 bytes, out of that mov).  Round 2, peak
 * there: r0 next read three steps on (the xor), r2 two: r0 goes, its mov
 * is dropped and a `mov %global_id.x` goes before each of its three
 * readers.  9 instructions (6 - 2 + 2 + 3), at most two u32 live, nothing
 * in private memory. */
static void test_remat_to_budget(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(straight, &k);
    allocate_rm(&k, 8, true, &a, &st);
    assert_int_equal(st.remat_values, 2);
    assert_int_equal(st.remat_insts, 5);
    assert_int_equal(st.spilled_values, 0);
    assert_int_equal(st.spill_bytes, 0);
    assert_int_equal(st.live_bytes, 8);
    assert_int_equal(a.private_mem, 0);
    assert_int_equal(a.ninst, 9);
    unsigned ids = 0;
    for (uint32_t i = 0; i < a.ninst; i++)
        ids += a.inst[i].op == ISA_OP_MOV && a.inst[i].o[1].kind == ISA_OPND_SPECIAL;
    assert_int_equal(ids, 4);
    assert_int_equal(count_private(&a, ISA_OP_ST) + count_private(&a, ISA_OP_LD), 0);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* Recomputable values go before farther-read ones that must be spilled.
 *   0 mov r0, id  1 ld r1  2 add r2, r0, 7  3 mul r3, r2, r0  4 add r4, r3, r1
 *   5 st [out + r0*4]
 * Budget 8.  Round 1, peak out of 2 (r0 r1 r2): r0 is read there; r1 (a
 * load, read two steps on) would be spilled, r2 (read one step on) can be
 * recomputed and goes first: `mov t0, id; add t1, t0, 7` before the mul.
 * Round 2, peak out of that mov (r0 r1 t0): r0 (read two steps on) is
 * recomputed before its three readers.  Round 3, peak out of the mov before
 * the mul (r1 t1 t3): r1 is spilled, a store after the load and a fill
 * before the add.  11 instructions: 6 - 2 + 5 recomputing + 2 spill. */
static const char remat_first[] =
    ".kernel rf\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    add.u32 r2, r0, 7\n"
    "    mul.u32 r3, r2, r0\n"
    "    add.u32 r4, r3, r1\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static void test_remat_before_spill(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(remat_first, &k);
    allocate_rm(&k, 8, true, &a, &st);
    assert_int_equal(st.remat_values, 2);
    assert_int_equal(st.remat_insts, 5);
    assert_int_equal(st.spilled_values, 1);
    assert_int_equal(st.spill_bytes, 4);
    assert_int_equal(st.spill_stores, 1);
    assert_int_equal(st.spill_fills, 1);
    assert_int_equal(st.live_bytes, 8);
    assert_int_equal(a.private_mem, 8);
    assert_int_equal(a.ninst, 11);
    assert_int_equal(a.inst[2].op, ISA_OP_ST);      /* the load's value, stored */
    assert_int_equal(a.inst[7].op, ISA_OP_LD);      /* and filled before the add */
    assert_int_equal(a.inst[8].op, ISA_OP_ADD);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* Narrow values count the bytes their readers use.
 *   0 mov r0, id  1 ld.u32 r1  2 shr.u32 r2, r1, 16  3 and.u32 r3, r1, 65535
 *   4 cvt.u16.u32 r4, r2  5 cvt.u16.u32 r5, r3  6 add.u16 r6, r4, r5
 *   7 cvt.u32.u16 r7, r6  8 st.u32 r7
 * r7 is stored (4 bytes); r6, r4, r5 are u16 (2); r2 and r3 are read only
 * by truncations to u16 (2, not their 4-byte type); r1 is read by the and
 * (2 bytes, the mask's) and by the right shift by 16 (2 + 2 = 4).  Into the
 * and: r0 4 + r1 4 + r2 2 = 10 bytes, the peak (12 with every value at its
 * type's width). */
static const char narrow_src[] =
    ".kernel nar\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    shr.u32 r2, r1, 16\n"
    "    and.u32 r3, r1, 65535\n"
    "    cvt.u16.u32 r4, r2\n"
    "    cvt.u16.u32 r5, r3\n"
    "    add.u16 r6, r4, r5\n"
    "    cvt.u32.u16 r7, r6\n"
    "    st.global.u32 [%out + r0*4], r7\n";

static void test_narrow_values(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(narrow_src, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.live_bytes, 10);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* A loop: r1 (the sum) and r2 (the counter) live around the back edge,
 * r3 only inside; r4 after the loop may take r3's register but not r0's
 * (read by the store). */
static const char loop[] =
    ".kernel loop\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r5, [%in + r0*4]\n"
    "    mov.u32 r1, 0\n"
    "    mov.u32 r2, 0\n"
    "top:\n"
    "    mul.u32 r3, r2, r5\n"
    "    add.u32 r1, r1, r3\n"
    "    add.u32 r2, r2, 1\n"
    "    cmp.lt.u32 p0, r2, 9\n"
    "    bra.uni p0, top\n"
    "    add.u32 r4, r1, r0\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static void test_loop(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(loop, &k);
    allocate(&k, 0, &a, &st);
    /* out of `mul r3`: r0 r5 r1 r2 r3, 20 bytes; out of the cmp: r0 r5 r1 r2
     * and p0, 16 + 1 (a bit per lane, rounded up to a byte) */
    assert_int_equal(st.live_bytes, 20);
    assert_int_equal(st.regs_after, 5);
    assert_int_equal(st.preds_after, 1);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* A vector load's four registers stay consecutive; the shuffle under a
 * lane-dependent branch reads the odd lanes, which are inactive there, so
 * its source keeps a register no other value uses.  Its result is written
 * in the active lanes and read per lane, so it is allocated as usual.
 *   0 mov r0  1 and r1  2 ld r10..r13  3 add r2  4 add r3  5 and r4  6 cmp
 *   7 mov r5  8 bra  9 mul r6  10 shuffle r5, r6  11 add r7  12 st */
static const char cross[] =
    ".kernel cross\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    and.u32 r1, r0, 12\n"
    "    ld.global.u32x4 r10, [%in + r1*4]\n"
    "    add.u32 r2, r10, r13\n"
    "    add.u32 r3, r11, r12\n"
    "    and.u32 r4, r0, 1\n"
    "    cmp.eq.u32 p0, r4, 0\n"
    "    mov.u32 r5, r2\n"
    "    bra p0, skip\n"
    "    mul.u32 r6, r3, 3\n"
    "    intel_sub_group_shuffle_xor.u32 r5, r6, 1\n"
    "skip:\n"
    "    add.u32 r7, r5, r3\n"
    "    st.global.u32 [%out + r0*4], r7\n";

static void test_vectors_and_cross_lane(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(cross, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.pinned, 1);      /* r6, the source the shuffle reads */
    const isa_inst *bc = &a.inst[10], *ld = &a.inst[2];
    assert_int_equal(bc->op, ISA_OP_INTEL_SHUFFLE_XOR);
    /* only r6's own instructions (9, 10) name its register */
    for (uint32_t i = 0; i < a.ninst; i++) {
        const isa_inst *in = &a.inst[i];
        for (unsigned o = 0; o < in->nopnd; o++)
            if (in->o[o].kind == ISA_OPND_REG && in->o[o].reg == bc->o[1].reg)
                assert_true(i == 9 || i == 10);
    }
    /* the adds read components 0..3 of the loaded vector */
    const uint16_t v = ld->o[0].reg;
    assert_int_equal(a.inst[3].o[1].reg, v);
    assert_int_equal(a.inst[3].o[2].reg, v + 3);
    assert_int_equal(a.inst[4].o[1].reg, v + 1);
    assert_int_equal(a.inst[4].o[2].reg, v + 2);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* A reduction under a lane-dependent branch reads the active lanes only,
 * so its registers are not pinned:
 *   0 mov r0  1 and r1  2 cmp p0  3 mov r2  4 bra  5 mul r3  6 reduce r2, r3
 *   7 add r4  8 st
 * live into the bra: r0 r2 p0 = 8 bytes + 1 for the predicate; out of the
 * mul: r0 r3; into the cmp: r0 r1.  The same code with a shuffle (which
 * reads lanes that are inactive there) pins its source r3, live
 * everywhere; its result r2 is not pinned: 12 bytes into the cmp (r0 r1
 * r3), 13 into the bra (r0 r2 r3 and p0). */
#define NU_KERNEL(coll) \
    ".kernel nured\n.regalloc\n.arg out global u32\n.arg in global u32\n" \
    "    mov.u32 r0, %global_id.x\n" \
    "    and.u32 r1, r0, 1\n" \
    "    cmp.eq.u32 p0, r1, 0\n" \
    "    mov.u32 r2, 0\n" \
    "    bra p0, skip\n" \
    "    mul.u32 r3, r0, 3\n" \
    "    " coll "\n" \
    "skip:\n" \
    "    add.u32 r4, r2, r0\n" \
    "    st.global.u32 [%out + r0*4], r4\n"
static const char nu_reduce[] = NU_KERNEL("sub_group_non_uniform_reduce_add.u32 r2, r3");
static const char nu_shuffle[] = NU_KERNEL("intel_sub_group_shuffle_xor.u32 r2, r3, 1");

static void test_active_lane_collectives_not_pinned(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(nu_reduce, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.pinned, 0);
    assert_int_equal(st.live_bytes, 9);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
    assemble(nu_shuffle, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.pinned, 1);
    assert_int_equal(st.live_bytes, 13);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* Shuffle results under divergence are read per lane, so they die at
 * their add like any value: a tiled GEMM's constant-index shuffles must not
 * all stay live at once.  Pinned is r2 alone; the most live is out of each
 * shuffle, r0 r2 r3 and the result, 16 bytes.  Pinning the four results
 * too would keep them all live everywhere (33 bytes into the bra). */
static const char shuffle_sum[] =
    ".kernel shufsum\n.regalloc\n.arg out global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    and.u32 r1, r0, 1\n"
    "    cmp.eq.u32 p0, r1, 0\n"
    "    mul.u32 r2, r0, 3\n"
    "    mov.u32 r3, 0\n"
    "    bra p0, skip\n"
    "    intel_sub_group_shuffle.u32 r4, r2, 0\n"
    "    add.u32 r3, r3, r4\n"
    "    intel_sub_group_shuffle.u32 r5, r2, 1\n"
    "    add.u32 r3, r3, r5\n"
    "    intel_sub_group_shuffle.u32 r6, r2, 2\n"
    "    add.u32 r3, r3, r6\n"
    "    intel_sub_group_shuffle.u32 r7, r2, 3\n"
    "    add.u32 r3, r3, r7\n"
    "skip:\n"
    "    add.u32 r8, r3, r0\n"
    "    st.global.u32 [%out + r0*4], r8\n";

static void test_shuffle_results_not_pinned(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(shuffle_sum, &k);
    allocate(&k, 0, &a, &st);
    assert_int_equal(st.pinned, 1);
    assert_int_equal(st.live_bytes, 16);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* Uniform values (the same in every lane) count once per thread, a
 * width-th of their bytes per lane, rounded up over their sum; u marks
 * them, each u32 (4 bytes):
 *    0 mov r0 = global id    live after: r0
 *    1 mov r1 = group id u   r0 r1u
 *    2 mul r2 = r1 * 3   u   r0 r2u
 *    3 ld  r3 = in[r0]       r0 r2u r3
 *    4 reduce r4 = sum r3 u  r0 r2u r3 r4u
 *    5 add r5 = r4 + r2  u   r0 r2u r3 r5u
 *    6 ld  r6 = in[r2]   u   r0 r2u r3 r5u r6u   <- 8 + 12 uniform bytes
 *    7 add r7 = r3 + r6      r0 r2u r5u r7
 *    8 add r8 = r7 + r5      r0 r2u r5u r8
 *    9 st  out[r0] = r8      in: r0 r2u r5u r8
 *   10 st  out[r2] = r5      in: r2u r5u; the store's payload spreads r5
 *                            into a per-lane temporary: + 4
 * Per lane (no width): 20 at 6.  W = 16: 8 + ceil(12 / 16) = 9 at 3, 4, 6
 * and 9 (the first peak, 3, is out of the load: r0 r2u r3); at 10 only
 * 1 + 4.  W = 4: 8 + 3 = 11 at 6.  In the non-uniform reduction kernel
 * above, r2 is written before the branch and by the reduction under it:
 * lanes that skipped it keep 0, so r2 is not uniform and the demand at
 * W = 16 stays 9.  A store of uniform data alone: into it r1u r2u, 8 bytes
 * per lane without a width; at W = 16, 1 + the payload's 4. */
/* uniform_values: ra_kernels.h */

static const char uniform_store[] =
    ".kernel unist\n.regalloc\n.arg out global u32\n"
    "    mov.u32 r0, %group_id.x\n"
    "    mul.u32 r1, r0, 3\n"
    "    add.u32 r2, r1, 5\n"
    "    st.global.u32 [%out + r1*4], r2\n";

static void test_uniform_values(void **state)
{
    (void)state;
    static const struct { const char *src; uint32_t width, live; } c[] = {
        { uniform_values, 0, 20 }, { uniform_values, 16, 9 }, { uniform_values, 4, 11 },
        { nu_reduce, 0, 9 }, { nu_reduce, 16, 9 }, { uniform_store, 0, 8 },
        { uniform_store, 16, 5 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(c[i].src, &k);
        isa_ra_opts o = { .width = c[i].width };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* Broadcasts from a uniform lane (W = 16): per lane, the peak is into the
 * second broadcast, {r0 r1 r2} = 12 bytes.  Where a broadcast leaves one
 * scalar (scalar_broadcast, IGC for DG2), r2, r3 and their sum r4 are
 * uniform: into the second broadcast {r0 r1} 8 + r2 4/16 -> 9; the store
 * spreads r4 into a per-lane payload, {r0} 4 + r4 1 + 4 = 9. */
static const char bcast_uniform[] =
    ".kernel bcast_uniform\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    sub_group_broadcast.u32 r2, r1, 0\n"
    "    sub_group_broadcast.u32 r3, r0, 0\n"
    "    add.u32 r4, r2, r3\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static void test_scalar_broadcast(void **state)
{
    (void)state;
    for (int scalar = 0; scalar < 2; scalar++) {
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(bcast_uniform, &k);
        isa_ra_opts o = { .width = 16, .scalar_broadcast = scalar };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, scalar ? 9 : 12);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* The allocator's options of bundled config `name` at `width` (emu_ra_opts). */
static void config_opts(const char *name, uint32_t width, isa_ra_opts *o, isa_math_temps *mt)
{
    emu_config target;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(emu_config_load_bundled(name, &target, &d), 0);
    isa_diags_free(&d);
    emu_ra_opts(&target, width, o, mt);
}

/* The same from a bundled config (emu_ra_opts), at W = 32: four u64
 * components loaded, broadcast from lane 0, the results stored, then the
 * components stored too (conformance_bcast.cl vb_T16's shape, four wide;
 * item i uses vector i & 3, so that the run stays in the test's buffers).
 * Per lane, out of the last broadcast and through the mad, r0 or r10 with
 * r2-r5 and r6-r9 hold 8 + 32 + 32 = 72 bytes (36 registers of 64 B).
 * Where a broadcast leaves a scalar, r6-r9 are 32 bytes per thread, 1 per
 * lane: the peak is the first store, r10 8 + r2-r5 32 + 1 + its spread
 * payload 8 = 49 (25 registers).  IGC builds a scalar for dg2-g10 and pvc
 * (its vISA: one SIMD1 move), per-lane registers for skl and tgllp.  With
 * 32-bit buffer offsets (skl, tgllp, dg2-g10) r1 and r10, buffers plus an
 * offset, and r0, read only as their offset, count 4: 68 and 45.  The
 * stores' payload blocks (4 u64 components of 32 bytes each) are live
 * whole from their first component: r6-r9's from r6's broadcast, where
 * r0 4 + r2-r5 32 + r6 8 + the slots of r7-r9 24 = 68, no more. */
static const char bcast_u64[] =
    ".kernel bcast_u64\n.regalloc\n.arg out global u64\n.arg in global u64\n"
    "    and.u64 r0, %global_id.x, 3\n"
    "    mad.u64 r1, r0, 32, %in\n"
    "    ld.global.u64 r2, [r1]\n"
    "    ld.global.u64 r3, [r1 + 8]\n"
    "    ld.global.u64 r4, [r1 + 16]\n"
    "    ld.global.u64 r5, [r1 + 24]\n"
    "    sub_group_broadcast.u64 r6, r2, 0\n"
    "    sub_group_broadcast.u64 r7, r3, 0\n"
    "    sub_group_broadcast.u64 r8, r4, 0\n"
    "    sub_group_broadcast.u64 r9, r5, 0\n"
    "    mad.u64 r10, r0, 64, %out\n"
    "    st.global.u64 [r10], r6\n"
    "    st.global.u64 [r10 + 8], r7\n"
    "    st.global.u64 [r10 + 16], r8\n"
    "    st.global.u64 [r10 + 24], r9\n"
    "    st.global.u64 [r10 + 32], r2\n"
    "    st.global.u64 [r10 + 40], r3\n"
    "    st.global.u64 [r10 + 48], r4\n"
    "    st.global.u64 [r10 + 56], r5\n";

static void test_scalar_broadcast_configs(void **state)
{
    (void)state;
    static const struct { const char *config; uint32_t live; } c[] = {
        { "intel-gen9-gt2", 68 }, { "intel-xe-lp", 68 },
        { "intel-xe-hpg", 45 }, { "intel-xe-hpc", 49 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_ra_opts o;
        isa_math_temps mt;
        config_opts(c[i].config, 32, &o, &mt);
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(bcast_u64, &k);
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        assert_int_equal(st.spilled_values, 0);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* A vector store's payload (regalloc_payload.c; docs/regalloc.md, Copies
 * into a store's payload that IGC does not fold).  Component 0 (r2) is a
 * shuffle (a vector IGC builds after its shuffles), then N one-source
 * shuffles (each writes r3; only the last is read), then components 1 and
 * 2 (r4, r5), two loads (r6, r7) read after the three component stores.
 * Per lane (u32 = 4 bytes) the live set is {r0 r1 r2 r3} through the
 * shuffles and the add, {r0 r2 r4 r5} at the mul, then + r6 + r7 (24) at
 * the second load and into the first store.  Estimated vISA instructions
 * from r2 to its copy into the payload at W = 32 (two SIMD16 halves): N
 * shuffles x 8, the add, the mul and the loads x 2, no copy of an earlier
 * component, 1 for the other half of r2's own copy: 8N + 9.  The payload
 * (3 x 4 bytes, one block) is live whole from its first folded component.
 * N = 20 (169) or 19 (161) > 160: r2 is not folded; the payload starts at
 * r4's add, r2 is held twice from there to the first store (+4) and r5's
 * slot until the mul (+4): 24 + 4 = 28 into the first store.  N = 18
 * (153): folded; the payload starts at r2's shuffle, with the slots of r4
 * and r5 through the shuffles: 16 + 8 = 24, as at the second load: 24.
 * At W = 16 (shuffle 3, the others 1, one copy per component) 3N + 4 = 64:
 * folded, 24.  Without the rule: 24. */
static void payload_src(char *buf, size_t cap, unsigned nshuf)
{
    size_t at = (size_t)snprintf(buf, cap,
        ".kernel payload\n.regalloc\n.arg out global u32\n.arg in global u32\n"
        "    and.u32 r0, %%global_id.x, 15\n"
        "    ld.global.u32 r1, [%%in + r0*4]\n"
        "    intel_sub_group_shuffle.u32 r2, r1, 2\n");
    for (unsigned i = 0; i < nshuf; i++)
        at += (size_t)snprintf(buf + at, cap - at, "    intel_sub_group_shuffle.u32 r3, r2, 1\n");
    snprintf(buf + at, cap - at,
        "    add.u32 r4, r3, r1\n"
        "    mul.u32 r5, r4, r1\n"
        "    ld.global.u32 r6, [%%in + r0*4 + 64]\n"
        "    ld.global.u32 r7, [%%in + r0*4 + 128]\n"
        "    st.global.u32 [%%out + r0*8], r2\n"
        "    st.global.u32 [%%out + r0*8 + 4], r4\n"
        "    st.global.u32 [%%out + r0*8 + 8], r5\n"
        "    add.u32 r8, r6, r7\n"
        "    st.global.u32 [%%out + r0*4 + 192], r8\n");
}

static void test_payload_twice(void **state)
{
    (void)state;
    static const struct { unsigned nshuf, width, dist, live; } c[] = {
        { 20, 32, 160, 28 }, { 19, 32, 160, 28 }, { 18, 32, 160, 24 }, { 20, 32, 0, 24 },
        { 20, 16, 160, 24 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char src[2048];
        payload_src(src, sizeof src, c[i].nshuf);
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(src, &k);
        isa_ra_opts o = { .width = c[i].width, .payload_fold_distance = c[i].dist };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* Shuffle results copied into the payload (device.payload_copy_width; IGC
 * for Xe-HPC at SIMD32 writes a shuffle result in two SIMD16 halves and
 * copies it into the store's block whatever the distance).  payload_src
 * with N = 0 (r2 is 9 estimated instructions from its copy): with copy
 * width 32 at W = 32, r2 is held twice from r4's add (the block's start)
 * to the first store and r5's slot until the mul: 28, as beyond the fold
 * distance; at W = 16, or with copy width 0, folded: 24. */
static void test_payload_copy(void **state)
{
    (void)state;
    static const struct { unsigned width, copy, live; } c[] = {
        { 32, 32, 28 }, { 16, 32, 24 }, { 32, 0, 24 }, { 32, 64, 24 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char src[2048];
        payload_src(src, sizeof src, 0);
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(src, &k);
        isa_ra_opts o = { .width = c[i].width, .payload_copy_width = c[i].copy };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* A block made of shuffle results only (nothing folded into it) with
 * copies: it is live from its first copy, next to its send, so its bytes
 * count at its stores.  Per lane (u32) the live set is r0 r1 r2 r3 r4 (20)
 * into the first store; the block (r2, r3: 8) adds to it there: 28 with
 * copy width 32 at W = 32.  Without copies, with the fold distance (both
 * shuffles fold: the block starts at r2, r3's slot before it is written)
 * or at W = 16: 20. */
static const char payload_shuffles[] =
    ".kernel payload2\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    and.u32 r0, %global_id.x, 15\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    intel_sub_group_shuffle.u32 r2, r1, 2\n"
    "    intel_sub_group_shuffle.u32 r3, r1, 3\n"
    "    ld.global.u32 r4, [%in + r0*4 + 64]\n"
    "    st.global.u32 [%out + r0*8], r2\n"
    "    st.global.u32 [%out + r0*8 + 4], r3\n"
    "    add.u32 r5, r4, r1\n"
    "    st.global.u32 [%out + r0*4 + 192], r5\n";

static void test_payload_copy_block(void **state)
{
    (void)state;
    static const struct { unsigned width, copy, dist, live; } c[] = {
        { 32, 32, 0, 28 }, { 32, 32, 160, 28 }, { 32, 0, 160, 20 }, { 16, 32, 0, 20 },
        { 32, 0, 0, 20 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(payload_shuffles, &k);
        isa_ra_opts o = { .width = c[i].width, .payload_copy_width = c[i].copy,
                          .payload_fold_distance = c[i].dist };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* The bundled configs: 160 (vISA's MAX_DEF_HOIST_DIST) on the Intel
 * targets whose copies were measured (skl, tgllp, dg2-g10), 0 elsewhere;
 * copies of every shuffle result from SIMD32 on Xe-HPC (pvc). */
static void test_payload_configs(void **state)
{
    (void)state;
    static const struct { const char *config; uint32_t dist, copy; } c[] = {
        { "intel-gen9-gt2", 160, 0 }, { "intel-xe-lp", 160, 0 }, { "intel-xe-hpg", 160, 0 },
        { "intel-xe-hpc", 0, 32 }, { "nvidia-h100", 0, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_ra_opts o;
        isa_math_temps mt;
        config_opts(c[i].config, 32, &o, &mt);
        assert_int_equal(o.payload_fold_distance, c[i].dist);
        assert_int_equal(o.payload_copy_width, c[i].copy);
    }
}

/* Buffer offsets (device.buffer_offset_bytes = 4): an index register of an
 * address whose base is a buffer argument counts at most 4 bytes, and so do
 * the values it is computed from by low-byte arithmetic (the xor):
 *   0 mov.u64 r0 = id           out r0
 *   1 ld  r1 = in[r0]           out r0 r1
 *   2 xor.u64 r2 = r0 ^ 1       out r0 r1 r2    <- the peak
 *   3 ld  r3 = in[r2]           out r0 r1 r3
 *   4 add r4 = r1 + r3          out r0 r4
 *   5 st  out[r0] = r4
 * At 2: 8 + 4 + 8 = 20 bytes with 64-bit indices, 4 + 4 + 4 = 12 with the
 * offsets.  A buffer plus an offset as the base (the second kernel: r5 =
 * in, a move; IGC's stateless-to-stateful promotion makes it the surface
 * and offset 0) counts 4 too: 4 + 4 + 4 + 4 = 16 at 2.  A pointer that is
 * not a buffer plus an offset (the third: r5 = in | 0) keeps its 8 bytes,
 * and so do the indices read with it: 8 + 8 + 4 + 8 = 28. */
static const char buffer_offsets_src[] =
    ".kernel bo\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    xor.u64 r2, r0, 1\n"
    "    ld.global.u32 r3, [%in + r2*4]\n"
    "    add.u32 r4, r1, r3\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static const char buffer_pointer_src[] =
    ".kernel bp\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u64 r5, %in\n"
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [r5 + r0*4]\n"
    "    xor.u64 r2, r0, 1\n"
    "    ld.global.u32 r3, [r5 + r2*4]\n"
    "    add.u32 r4, r1, r3\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static const char buffer_or_src[] =
    ".kernel bq\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    or.u64 r5, %in, 0\n"
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [r5 + r0*4]\n"
    "    xor.u64 r2, r0, 1\n"
    "    ld.global.u32 r3, [r5 + r2*4]\n"
    "    add.u32 r4, r1, r3\n"
    "    st.global.u32 [%out + r0*4], r4\n";

static void test_buffer_offsets(void **state)
{
    (void)state;
    static const struct { const char *src; uint32_t off, live; } c[] = {
        { buffer_offsets_src, 0, 20 }, { buffer_offsets_src, 4, 12 },
        { buffer_pointer_src, 4, 16 }, { buffer_pointer_src, 0, 28 },
        { buffer_or_src, 4, 28 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(c[i].src, &k);
        isa_ra_opts o = { .buffer_offset_bytes = c[i].off };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* vISA's rematerialisation (device.remat_live_sources): one instruction,
 * its register sources live at every read, never a work-item query.
 *   0 mov r0 = id          out r0
 *   1 xor r1 = r0 ^ 1      out r0 r1
 *   2 ld  r2 = in[r0]      out r0 r1 r2
 *   3 mul r3 = r2 * 3      out r0 r1 r2 r3   16, the peak
 *   4 add r6 = r3 + r2     out r0 r1 r6
 *   5 ld  r4 = in[r1]      out r0 r6 r4
 *   6 add r5 = r4 + r6     out r0 r5
 *   7 st  out[r0] = r5
 * Budget 12.  At 3 r2 is read; r0 (next read at 7) is the id, r1 (read at
 * 5) a xor of r0, which is live into 5, and r3 (read at 4) a mul of r2,
 * live into 4: r1 and r3 can be recomputed, r1's read is further, so the
 * xor moves to just before 5 and reads r0 there: 8 instructions, the peak
 * 12 (out of 2, of 4 and of the xor).  The chains rule instead recomputes
 * the id itself, the furthest read, before its three readers: 10
 * instructions, four reads of %global_id. */
static const char remat_live_src[] =
    ".kernel rl\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    xor.u32 r1, r0, 1\n"
    "    ld.global.u32 r2, [%in + r0*4]\n"
    "    mul.u32 r3, r2, 3\n"
    "    add.u32 r6, r3, r2\n"
    "    ld.global.u32 r4, [%in + r1*4]\n"
    "    add.u32 r5, r4, r6\n"
    "    st.global.u32 [%out + r0*4], r5\n";

static void test_remat_live_sources(void **state)
{
    (void)state;
    static const struct { bool live; uint32_t insts, ninst, ids; } c[] = {
        { true, 1, 8, 1 }, { false, 3, 10, 3 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(remat_live_src, &k);
        isa_ra_opts o = { .budget_bytes = 12, .remat_live_sources = c[i].live };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes_before, 16);
        assert_int_equal(st.live_bytes, 12);
        assert_int_equal(st.remat_values, 1);
        assert_int_equal(st.remat_insts, c[i].insts);
        assert_int_equal(st.spilled_values, 0);
        assert_int_equal(a.ninst, c[i].ninst);
        unsigned ids = 0;
        for (uint32_t j = 0; j < a.ninst; j++)
            ids += a.inst[j].op == ISA_OP_MOV && a.inst[j].o[1].kind == ISA_OPND_SPECIAL;
        assert_int_equal(ids, c[i].ids);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
}

/* A two-source shuffle's temporaries (device.shuffle2_temps): a copy of
 * the component of both sources, a dword lane index and 16 16-bit lane
 * numbers per thread (at W = 32 1 byte per lane, at W = 16 2), 2 x size +
 * 4 + 1 bytes per lane at W = 32, where the shuffle runs.
 *   0 mov r0 = id                 out r0              4
 *   1 ld  r1 = in[r0]             out r0 r1           4 + T
 *   2 add r2 = r1 + 5             out r0 r1 r2        4 + 2T
 *   3 shuffle_down r3 = (r1, r2)  in r0 r1 r2, out r0 r3
 *   4 (cvt) st out[r0]
 * u32 (T = 4): 12 into the shuffle, + 13 = 25 (+ 14 = 26 at W = 16);
 * u16 (T = 2): 8 + 9 = 17.  Without the rule 12 and 8; a single-source
 * shuffle holds none. */
static void shuffle2_src(char *buf, size_t n, const char *t, const char *op)
{
    const bool u16 = strcmp(t, "u16") == 0;
    snprintf(buf, n,
             ".kernel s2\n.regalloc\n.arg out global u32\n.arg in global u32\n"
             "    mov.u32 r0, %%global_id.x\n"
             "    ld.global.%s r1, [%%in + r0*4]\n"
             "    add.%s r2, r1, 5\n"
             "    %s.%s r3, r1, r2, 3\n"
             "%s"
             "    st.global.u32 [%%out + r0*4], r%d\n",
             t, t, op, t, u16 ? "    cvt.u32.u16 r4, r3\n" : "", u16 ? 4 : 3);
}

static void test_shuffle2_temps(void **state)
{
    (void)state;
    static const struct { const char *t, *op; uint32_t width; bool on; uint32_t live; } c[] = {
        { "u32", "intel_sub_group_shuffle_down", 32, true, 25 },
        { "u32", "intel_sub_group_shuffle_up", 32, true, 25 },
        { "u32", "intel_sub_group_shuffle_down", 16, true, 26 },
        { "u32", "intel_sub_group_shuffle_down", 32, false, 12 },
        { "u16", "intel_sub_group_shuffle_down", 32, true, 17 },
        { "u16", "intel_sub_group_shuffle_down", 32, false, 8 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char src[1024];
        shuffle2_src(src, sizeof src, c[i].t, c[i].op);
        isa_kernel k, a;
        isa_ra_stats st;
        assemble(src, &k);
        isa_ra_opts o = { .width = c[i].width, .shuffle2_temps = c[i].on };
        allocate_with(&k, &o, &a, &st);
        assert_int_equal(st.live_bytes, c[i].live);
        same_results(&k, &a);
        isa_regalloc_free(&a);
        isa_kernel_free(&k);
    }
    /* a single-source shuffle of r1 by r2: 12 into it, nothing more */
    static const char one[] =
        ".kernel s1\n.regalloc\n.arg out global u32\n.arg in global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "    ld.global.u32 r1, [%in + r0*4]\n"
        "    and.u32 r2, r1, 7\n"
        "    sub_group_shuffle.u32 r3, r1, r2\n"
        "    st.global.u32 [%out + r0*4], r3\n";
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(one, &k);
    isa_ra_opts o = { .width = 32, .shuffle2_temps = true };
    allocate_with(&k, &o, &a, &st);
    assert_int_equal(st.live_bytes, 12);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* The bundled configs: 32-bit buffer offsets on the Intel targets that
 * address buffers through binding-table surfaces (skl, tgllp, dg2-g10; pvc
 * sends 64-bit addresses), vISA's rematerialisation and the two-source
 * shuffle's temporaries on all four, none of them elsewhere. */
static void test_igc_rule_configs(void **state)
{
    (void)state;
    static const struct { const char *config; uint32_t off; bool live, s2; } c[] = {
        { "intel-gen9-gt2", 4, true, true }, { "intel-xe-lp", 4, true, true },
        { "intel-xe-hpg", 4, true, true }, { "intel-xe-hpc", 0, true, true },
        { "nvidia-h100", 0, false, false },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        isa_ra_opts o;
        isa_math_temps mt;
        config_opts(c[i].config, 32, &o, &mt);
        assert_int_equal(o.buffer_offset_bytes, c[i].off);
        assert_int_equal(o.remat_live_sources, c[i].live);
        assert_int_equal(o.shuffle2_temps, c[i].s2);
    }
}

/* A uniform value is never the one spilled: at W = 16 with 8 bytes the
 * peak (9, out of the load at 3) holds r0, r2u and r3; r0 is read there,
 * r2 is uniform, so r3 goes (stored after 3, filled before 4 and 7). */
static void test_uniform_not_spilled(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(uniform_values, &k);
    isa_ra_opts o = { .width = 16, .budget_bytes = 8, .no_remat = true };
    allocate_with(&k, &o, &a, &st);
    assert_int_equal(st.spilled_values, 1);
    assert_int_equal(st.spill_stores, 1);
    assert_int_equal(st.spill_fills, 2);
    /* the spilled value is the first load's result */
    const isa_inst *after = &a.inst[4];
    assert_int_equal(after->op, ISA_OP_ST);
    assert_int_equal(after->space, ISA_SPACE_PRIVATE);
    assert_int_equal(after->o[1].reg, a.inst[3].o[0].reg);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* The spill code round-trips through the assembler: [offset] in private
 * memory, .live_bytes (the demand) for an allocated kernel, .regalloc when
 * the registers are values. */
static void test_text_round_trip(void **state)
{
    (void)state;
    isa_kernel k, a, b;
    isa_ra_stats st;
    assemble(straight, &k);
    allocate(&k, 8, &a, &st);
    char *t = isa_disassemble(&a);
    assert_non_null(t);
    assert_non_null(strstr(t, "ld.private.u32 "));
    assert_non_null(strstr(t, ", [4]"));
    assert_null(strstr(t, ".regalloc"));
    assert_non_null(strstr(t, ".live_bytes 8\n"));
    assemble(t, &b);
    assert_int_equal(b.ninst, a.ninst);
    assert_int_equal(b.regalloc, ISA_RA_DONE);
    assert_int_equal(b.grf_bytes_per_lane, 8);
    isa_kernel c;
    memcpy(strstr(t, ".live_bytes 8") + 12, "6", 1);   /* the directive wins over the sum */
    assemble(t, &c);
    assert_int_equal(c.grf_bytes_per_lane, 6);
    isa_kernel_free(&c);
    for (uint32_t i = 0; i < a.ninst; i++) {
        a.inst[i].line = b.inst[i].line;
        a.inst[i].col = b.inst[i].col;
    }
    assert_memory_equal(a.inst, b.inst, a.ninst * sizeof *a.inst);
    free(t);
    t = isa_disassemble(&k);
    assert_non_null(strstr(t, ".regalloc\n"));
    free(t);
    isa_kernel_free(&b);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
    /* [offset] is private memory's alone */
    isa_diags d;
    memset(&d, 0, sizeof d);
    static const char bad[] = ".kernel b\n.arg out global u32\n    ld.global.u32 r0, [16]\n";
    assert_int_not_equal(isa_assemble("b.sgasm", bad, strlen(bad), &b, &d), 0);
    assert_non_null(strstr(d.items[0].msg, "private"));
    isa_diags_free(&d);
}

/* ---- scheduling for pressure (isa/presched.c) ----
 * A sum of terms computed first and added at the end is interleaved, term
 * by term, and its live set falls from the value worked out by hand to the
 * one after; nothing moves across a barrier or reorders a load and a
 * store; hand-written kernels are never reordered. */

/* Allocate k with no budget and no width (every value per lane), with
 * scheduling for pressure above 16 bytes per lane when its gain is 4. */
static void allocate_presched(const isa_kernel *k, isa_kernel *out, isa_ra_stats *st)
{
    const isa_ra_opts o = { .presched_bytes = 16, .presched_gain_bytes = 4 };
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_regalloc(k, &o, out, st, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
}

/* Assemble src as a kernel the front end translated (so it is reordered)
 * and allocate it as allocate_presched does. */
static void presched_compiled(const char *src, isa_kernel *k, isa_kernel *a, isa_ra_stats *st)
{
    assemble(src, k);
    k->compiled = 1;
    allocate_presched(k, a, st);
}

/* The opcodes of a, in order, are want[0..n). */
static void assert_ops(const isa_kernel *a, const isa_opcode *want, uint32_t n)
{
    assert_int_equal(a->ninst, n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(a->inst[i].op, want[i]);
}

/* Six terms of one load, then their sum (u32: 4 bytes each).  As written,
 * all six are live before the first add: after `mul r7` the live set is
 * {r0 r2 r3 r4 r5 r6 r7} (into it {r0 r1 r2..r6}), 28 bytes per lane.
 * Bottom up, the store goes last, then the last add; of the two ready
 * before it, `mul r7` (Sethi-Ullman number 12: mov 4, ld +4, mul +4) comes
 * before the rest of the sum (larger), so each term moves next to its add:
 *   mov r0; ld r1; mul r2; mul r3; add r8; mul r4; add r9; ... mul r7; add r12; st
 * where at most {r0 r1, the running sum, one term} are live: 16 bytes. */
static const char terms[] =
    ".kernel terms\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    mul.u32 r2, r1, 3\n"
    "    mul.u32 r3, r1, 5\n"
    "    mul.u32 r4, r1, 7\n"
    "    mul.u32 r5, r1, 9\n"
    "    mul.u32 r6, r1, 11\n"
    "    mul.u32 r7, r1, 13\n"
    "    add.u32 r8, r2, r3\n"
    "    add.u32 r9, r8, r4\n"
    "    add.u32 r10, r9, r5\n"
    "    add.u32 r11, r10, r6\n"
    "    add.u32 r12, r11, r7\n"
    "    st.global.u32 [%out + r0*4], r12\n";

static void test_presched_terms_interleaved(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    assemble(terms, &k);
    allocate_presched(&k, &a, &st);          /* hand-written: never reordered */
    assert_int_equal(st.presched_blocks, 0);
    assert_int_equal(st.live_bytes, 28);
    isa_regalloc_free(&a);

    k.compiled = 1;                 /* as the SPIR-V front end marks its output */
    allocate_presched(&k, &a, &st);
    assert_int_equal(st.presched_blocks, 1);
    assert_int_equal(st.live_bytes, 16);
    /* mul, mul, add, then mul and add alternating */
    static const isa_opcode want[] = { ISA_OP_MOV, ISA_OP_LD, ISA_OP_MUL, ISA_OP_MUL,
                                       ISA_OP_ADD, ISA_OP_MUL, ISA_OP_ADD, ISA_OP_MUL,
                                       ISA_OP_ADD, ISA_OP_MUL, ISA_OP_ADD, ISA_OP_MUL,
                                       ISA_OP_ADD, ISA_OP_ST };
    assert_ops(&a, want, sizeof want / sizeof *want);
    same_results(&k, &a);

    /* Not over the threshold: left as it is. */
    const isa_ra_opts o = { .presched_bytes = 28, .presched_gain_bytes = 4 };
    isa_kernel b;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_regalloc(&k, &o, &b, &st, &d), 0);
    assert_int_equal(st.presched_blocks, 0);
    assert_int_equal(st.live_bytes, 28);
    isa_regalloc_free(&b);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* The same terms with a barrier before the sum: the adds cannot move above
 * it nor the multiplies below it, so the 28 bytes stay. */
static const char fenced[] =
    ".kernel fenced\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    mul.u32 r2, r1, 3\n"
    "    mul.u32 r3, r1, 5\n"
    "    mul.u32 r4, r1, 7\n"
    "    mul.u32 r5, r1, 9\n"
    "    mul.u32 r6, r1, 11\n"
    "    mul.u32 r7, r1, 13\n"
    "    barrier\n"
    "    add.u32 r8, r2, r3\n"
    "    add.u32 r9, r8, r4\n"
    "    add.u32 r10, r9, r5\n"
    "    add.u32 r11, r10, r6\n"
    "    add.u32 r12, r11, r7\n"
    "    st.global.u32 [%out + r0*4], r12\n";

/* Terms whose sum starts from a value stored and loaded back: the load of
 * out must stay after the store to out (the same address).  The other
 * multiplies still move down to their adds; bottom up, `mul r3` (number 12)
 * goes before `add r9` and after the load (16: the store's 12 plus 4):
 *   mov r0; ld r1; mul r2; st; ld r8; mul r3; add r9; mul r4; add r10; ...
 * with at most {r0 r1, the loaded value or running sum, one term} live:
 * 28 -> 16 bytes per lane. */
static const char stored[] =
    ".kernel stored\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0*4]\n"
    "    mul.u32 r2, r1, 3\n"
    "    mul.u32 r3, r1, 5\n"
    "    mul.u32 r4, r1, 7\n"
    "    mul.u32 r5, r1, 9\n"
    "    mul.u32 r6, r1, 11\n"
    "    mul.u32 r7, r1, 13\n"
    "    st.global.u32 [%out + r0*4], r2\n"
    "    ld.global.u32 r8, [%out + r0*4]\n"
    "    add.u32 r9, r8, r3\n"
    "    add.u32 r10, r9, r4\n"
    "    add.u32 r11, r10, r5\n"
    "    add.u32 r12, r11, r6\n"
    "    add.u32 r13, r12, r7\n"
    "    st.global.u32 [%out + r0*4], r13\n";

static void test_presched_barrier_and_memory_kept(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    presched_compiled(fenced, &k, &a, &st);
    assert_int_equal(st.presched_blocks, 0);
    assert_int_equal(st.live_bytes, 28);
    for (uint32_t i = 0; i < a.ninst; i++)      /* the barrier splits the block */
        assert_int_equal(a.inst[i].op == ISA_OP_BARRIER, i == 8);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);

    presched_compiled(stored, &k, &a, &st);
    assert_int_equal(st.presched_blocks, 1);
    assert_int_equal(st.live_bytes, 16);
    /* the memory accesses keep their order: ld in, st out, ld out, st out */
    static const isa_opcode mem[] = { ISA_OP_LD, ISA_OP_ST, ISA_OP_LD, ISA_OP_ST };
    unsigned m = 0;
    for (uint32_t i = 0; i < a.ninst; i++)
        if (a.inst[i].op == ISA_OP_LD || a.inst[i].op == ISA_OP_ST) {
            assert_true(m < 4);
            assert_int_equal(a.inst[i].op, mem[m++]);
        }
    assert_int_equal(m, 4);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* An index overwritten after the addresses computed from it (a loop's
 * increment): `add r0` must stay after the three mads that read the old r0,
 * but that order is all it asks.  The Sethi-Ullman numbers follow only the
 * values an instruction reads or overwrites (vISA's G4_Sched counts RAW and
 * WAW edges), so `add r0` needs 8 (mov 4, its own 4), not the 32 the three
 * addresses would add (12 each: mov 4 + 8) if the reads it overwrites
 * counted.  Bottom up: st, mov r13, add r12; then add r0 (8) before add
 * r11 (32); each mad is ready once its load and add r0 are placed and goes
 * next to its load:
 *   mov r0; mad r1; ld r4; mul r7; mad r2; ld r5; mul r8; add r10;
 *   mad r3; ld r6; mul r9; add r11; add r0; add r12; mov r13; st
 * As written the three addresses (8 bytes each) and r0 are live together,
 * 32 bytes per lane; after, at most r0, one term or sum and one address:
 * 20 (r0 counts 8: the u64 mads read it whole).  (Counting the
 * overwritten reads, add r0 would tie add r11 at 32 and go above every
 * load, the mads with it: 32 again, and the block restored.) */
static const char war[] =
    ".kernel war\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mad.u64 r1, r0, 4, %in\n"
    "    mad.u64 r2, r0, 4, %in\n"
    "    mad.u64 r3, r0, 4, %in\n"
    "    add.u32 r0, r0, 7\n"
    "    ld.global.u32 r4, [r1]\n"
    "    ld.global.u32 r5, [r2]\n"
    "    ld.global.u32 r6, [r3]\n"
    "    mul.u32 r7, r4, 3\n"
    "    mul.u32 r8, r5, 5\n"
    "    mul.u32 r9, r6, 9\n"
    "    add.u32 r10, r7, r8\n"
    "    add.u32 r11, r10, r9\n"
    "    add.u32 r12, r11, r0\n"
    "    mov.u32 r13, %global_id.x\n"
    "    st.global.u32 [%out + r13*4], r12\n";

static void test_presched_overwritten_reads_not_counted(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    presched_compiled(war, &k, &a, &st);
    assert_int_equal(st.presched_blocks, 1);
    assert_int_equal(st.live_bytes, 20);
    static const isa_opcode want[] = { ISA_OP_MOV, ISA_OP_MAD, ISA_OP_LD,  ISA_OP_MUL,
                                       ISA_OP_MAD, ISA_OP_LD,  ISA_OP_MUL, ISA_OP_ADD,
                                       ISA_OP_MAD, ISA_OP_LD,  ISA_OP_MUL, ISA_OP_ADD,
                                       ISA_OP_ADD, ISA_OP_ADD, ISA_OP_MOV, ISA_OP_ST };
    assert_ops(&a, want, sizeof want / sizeof *want);
    /* add r0 (an immediate 7) sits between add r11 and add r12 */
    assert_int_equal(a.inst[12].o[2].kind, ISA_OPND_IMM);
    assert_int_equal(a.inst[12].o[2].imm, 7);
    same_results(&k, &a);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demand_is_the_live_set),
        cmocka_unit_test(test_math_temporaries),
        cmocka_unit_test(test_math_widened_operands),
        cmocka_unit_test(test_math_shared),
        cmocka_unit_test(test_math_shared_pown),
        cmocka_unit_test(test_spill_to_budget),
        cmocka_unit_test(test_remat_to_budget),
        cmocka_unit_test(test_remat_before_spill),
        cmocka_unit_test(test_narrow_values),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_vectors_and_cross_lane),
        cmocka_unit_test(test_active_lane_collectives_not_pinned),
        cmocka_unit_test(test_shuffle_results_not_pinned),
        cmocka_unit_test(test_uniform_values),
        cmocka_unit_test(test_uniform_not_spilled),
        cmocka_unit_test(test_scalar_broadcast),
        cmocka_unit_test(test_scalar_broadcast_configs),
        cmocka_unit_test(test_payload_twice),
        cmocka_unit_test(test_payload_copy),
        cmocka_unit_test(test_payload_copy_block),
        cmocka_unit_test(test_payload_configs),
        cmocka_unit_test(test_buffer_offsets),
        cmocka_unit_test(test_remat_live_sources),
        cmocka_unit_test(test_shuffle2_temps),
        cmocka_unit_test(test_igc_rule_configs),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_presched_terms_interleaved),
        cmocka_unit_test(test_presched_barrier_and_memory_kept),
        cmocka_unit_test(test_presched_overwritten_reads_not_counted),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
