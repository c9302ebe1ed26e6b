/* test_ra_pressure.c - the pressure report of the register allocator
 * (isa_regalloc_pressure, docs/regalloc.md, Demand) on small .regalloc
 * kernels whose figures per instruction are worked out by hand below from
 * the definition: at each instruction, the larger of the bytes per lane
 * live into it and live out of it plus what it writes, uniform values
 * once per thread (a width-th, rounded up over their sum), a live
 * predicate a bit per lane (rounded up to bytes), a block its live
 * registers only, plus a message's uniform payload.  The report's maximum
 * is the allocator's demand, its peaks name the values live there, and
 * asking for it changes nothing in the allocation. */
#include "sgemu.h"
#include "ra_kernels.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

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

/* Allocate k at width w with the report, and once without it: the same
 * program and statistics either way. */
static void report(const isa_kernel *k, uint32_t w, isa_kernel *a, isa_ra_stats *st,
                   isa_ra_pressure *pr)
{
    isa_ra_opts o = { .width = w };
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_regalloc_pressure(k, &o, a, st, &d, pr), 0);
    isa_kernel b;
    isa_ra_stats st2;
    assert_int_equal(isa_regalloc(k, &o, &b, &st2, &d), 0);
    isa_diags_free(&d);
    assert_int_equal(a->ninst, b.ninst);
    assert_memory_equal(a->inst, b.inst, a->ninst * sizeof *a->inst);
    assert_memory_equal(st, &st2, sizeof st2);
    isa_regalloc_free(&b);
    assert_int_equal(pr->ninst, a->ninst);
    uint32_t max = 0;
    for (uint32_t pc = 0; pc < pr->ninst; pc++)
        max = pr->bytes[pc] > max ? pr->bytes[pc] : max;
    assert_int_equal(max, st->live_bytes);
    assert_int_equal(pr->peak, st->live_bytes);
    assert_int_equal(a->grf_bytes_per_lane, st->live_bytes);
}

static void expect(const isa_ra_pressure *pr, const uint32_t *bytes, const uint32_t *temps,
                   uint32_t n)
{
    assert_int_equal(pr->ninst, n);
    for (uint32_t pc = 0; pc < n; pc++) {
        if (pr->bytes[pc] != bytes[pc] || pr->temps[pc] != temps[pc])
            fprintf(stderr, "instruction %u: %u bytes (%u temporaries), want %u (%u)\n", pc,
                    pr->bytes[pc], pr->temps[pc], bytes[pc], temps[pc]);
        assert_int_equal(pr->bytes[pc], bytes[pc]);
        assert_int_equal(pr->temps[pc], temps[pc]);
    }
    /* the peaks: every instruction at the maximum, in order */
    uint32_t np = 0;
    for (uint32_t pc = 0; pc < n; pc++)
        if (bytes[pc] == pr->peak) {
            assert_true(np < pr->npeak);
            assert_int_equal(pr->peak_pc[np++], pc);
        }
    assert_int_equal(np, pr->npeak);
}

/* The register the allocated program gives to what instruction pc writes. */
static uint32_t dst(const isa_kernel *a, uint32_t pc)
{
    return a->inst[pc].o[0].reg;
}

/* The live value of peak i whose register is reg (not a predicate). */
static const isa_ra_live_value *find(const isa_ra_pressure *pr, uint32_t i, uint32_t reg)
{
    for (uint32_t j = pr->peak_first[i]; j < pr->peak_first[i + 1]; j++)
        if (!pr->peak_live[j].pred && pr->peak_live[j].reg == reg)
            return &pr->peak_live[j];
    fail_msg("peak %u: r%u is not listed", i, reg);
    return NULL;
}

/* Each u32 4 bytes; u: uniform (group id, what is computed from it, a
 * sub-group reduction, a load from a uniform address).  Live in / out:
 *    0 mov r0 = global id   {} / r0
 *    1 mov r1 = group id    r0 / r0 r1u
 *    2 mul r2 = r1 * 3      r0 r1u / r0 r2u
 *    3 ld  r3 = in[r0]      r0 r2u / r0 r2u r3
 *    4 reduce r4 = sum r3   r0 r2u r3 / r0 r2u r3 r4u
 *    5 add r5 = r4 + r2     r0 r2u r3 r4u / r0 r2u r3 r5u
 *    6 ld  r6 = in[r2]      r0 r2u r3 r5u / r0 r2u r3 r5u r6u
 *    7 add r7 = r3 + r6     r0 r2u r3 r5u r6u / r0 r2u r5u r7
 *    8 add r8 = r7 + r5     r0 r2u r5u r7 / r0 r2u r5u r8
 *    9 st  out[r0] = r8     r0 r2u r5u r8 / r2u r5u
 *   10 st  out[r2] = r5     r2u r5u / {}; the store spreads uniform r5
 *                           into a per-lane payload: + 4 (with a width)
 * Without a width every value counts 4: 4 8 8 12 16 16 20 20 16 16 8, the
 * peak 20 at 6 (out: r0 r2 r3 r5 r6) and 7 (in: the same five).
 * At W = 16 the uniform bytes count ceil(sum / 16) = 1 wherever any is
 * live: 4, 4+1, 4+1, 8+1, 8+1, 8+1, 8+1, 8+1 (in), 8+1, 8+1 (in), 1+4. */
/* uniform_values: ra_kernels.h */

static void test_uniform_per_lane(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    isa_ra_pressure pr;
    assemble(uniform_values, &k);
    report(&k, 0, &a, &st, &pr);
    static const uint32_t bytes[] = { 4, 8, 8, 12, 16, 16, 20, 20, 16, 16, 8 };
    static const uint32_t temps[11] = { 0 };
    expect(&pr, bytes, temps, 11);
    assert_int_equal(st.live_bytes, 20);
    /* both peaks hold r0 r2 r3 r5 r6, 4 bytes each, none uniform (no width) */
    const uint32_t regs[] = { dst(&a, 0), dst(&a, 2), dst(&a, 3), dst(&a, 5), dst(&a, 6) };
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(pr.peak_first[i + 1] - pr.peak_first[i], 5);
        for (uint32_t j = 0; j < 5; j++) {
            const isa_ra_live_value *v = find(&pr, i, regs[j]);
            assert_int_equal(v->bytes, 4);
            assert_int_equal(v->nregs, 1);
            assert_false(v->uniform);
            assert_false(v->dead);
        }
    }
    /* source lines: the instruction that writes each (line 5 is the first) */
    assert_int_equal(find(&pr, 0, dst(&a, 0))->line, 5);
    assert_int_equal(find(&pr, 0, dst(&a, 6))->line, 11);
    isa_ra_pressure_free(&pr);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

static void test_uniform_at_16(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    isa_ra_pressure pr;
    assemble(uniform_values, &k);
    report(&k, 16, &a, &st, &pr);
    static const uint32_t bytes[] = { 4, 5, 5, 9, 9, 9, 9, 9, 9, 9, 5 };
    static const uint32_t temps[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4 };
    expect(&pr, bytes, temps, 11);
    assert_int_equal(st.live_bytes, 9);
    /* peak 4 (instruction 6, out): r0 r3 per lane, r2 r5 r6 uniform */
    assert_int_equal(pr.peak_pc[3], 6);
    assert_int_equal(pr.peak_first[4] - pr.peak_first[3], 5);
    assert_false(find(&pr, 3, dst(&a, 0))->uniform);
    assert_false(find(&pr, 3, dst(&a, 3))->uniform);
    assert_true(find(&pr, 3, dst(&a, 2))->uniform);
    assert_true(find(&pr, 3, dst(&a, 5))->uniform);
    assert_true(find(&pr, 3, dst(&a, 6))->uniform);
    isa_ra_pressure_free(&pr);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* A u32x4 block r1..r4, a predicate and a result nothing reads:
 *    0 mov r0 = global id       {} / r0                       4
 *    1 ld r1..r4 = in[r0]       r0 / r0 block(4 live)         4 + 16
 *    2 cmp p0 = r1 < r2         r0 block(4) / r0 block(r3 r4) p0
 *                               in 20; out 4 + 8 + 1 = 13     20
 *    3 sel r5 = p0 ? r3 : r4    13 / r0 r5 = 8                13
 *    4 add r6 = r5 + 1          r0 r5 / r0 r5 + r6 written    12
 *    5 st out[r0] = r5          r0 r5 / {}                    8
 * Peaks at 1 (out: r0, the block 16) and 2 (in: the same). */
static const char block_pred[] =
    ".kernel blk\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32x4 r1, [%in + r0*4]\n"
    "    cmp.lt.u32 p0, r1, r2\n"
    "    sel.u32 r5, p0, r3, r4\n"
    "    add.u32 r6, r5, 1\n"
    "    st.global.u32 [%out + r0*4], r5\n";

static void test_block_predicate_dead(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    isa_ra_pressure pr;
    assemble(block_pred, &k);
    report(&k, 16, &a, &st, &pr);
    static const uint32_t bytes[] = { 4, 20, 20, 13, 12, 8 };
    static const uint32_t temps[6] = { 0 };
    expect(&pr, bytes, temps, 6);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(pr.peak_first[i + 1] - pr.peak_first[i], 2);
        const isa_ra_live_value *blk = find(&pr, i, dst(&a, 1));
        assert_int_equal(blk->nregs, 4);
        assert_int_equal(blk->bytes, 16);
        assert_int_equal(find(&pr, i, dst(&a, 0))->bytes, 4);
    }
    isa_ra_pressure_free(&pr);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

/* The same kernel with the dead add moved to where the block is written:
 * at the add the block (16) and r0 are live, r6 (4) is written and never
 * read, so the peak is there (24) and lists r6 as dead. */
static const char dead_at_peak[] =
    ".kernel blk\n.regalloc\n.arg out global u32\n.arg in global u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32x4 r1, [%in + r0*4]\n"
    "    add.u32 r6, r0, 1\n"
    "    cmp.lt.u32 p0, r1, r2\n"
    "    sel.u32 r5, p0, r3, r4\n"
    "    st.global.u32 [%out + r0*4], r5\n";

static void test_dead_result_at_peak(void **state)
{
    (void)state;
    isa_kernel k, a;
    isa_ra_stats st;
    isa_ra_pressure pr;
    assemble(dead_at_peak, &k);
    report(&k, 16, &a, &st, &pr);
    static const uint32_t bytes[] = { 4, 20, 24, 20, 13, 8 };
    static const uint32_t temps[6] = { 0 };
    expect(&pr, bytes, temps, 6);
    assert_int_equal(pr.npeak, 1);
    assert_int_equal(pr.peak_first[1], 3);
    const isa_ra_live_value *v = find(&pr, 0, dst(&a, 2));
    assert_true(v->dead);
    assert_int_equal(v->bytes, 4);
    assert_int_equal(v->line, 7);
    assert_false(find(&pr, 0, dst(&a, 1))->dead);
    isa_ra_pressure_free(&pr);
    isa_regalloc_free(&a);
    isa_kernel_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_per_lane),
        cmocka_unit_test(test_uniform_at_16),
        cmocka_unit_test(test_block_predicate_dead),
        cmocka_unit_test(test_dead_result_at_peak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
