/* test_record.c - the record streams of a work-group trace (emu/record.c):
 * streams sized from a hint take slices of one block that do not overlap,
 * a stream that outgrows its slice keeps its records and pcs, a larger
 * hint gives every stream room again, and a smaller work-group after a
 * larger one leaves no stream pointing into a block that is gone; the
 * engine's stride test of addresses agrees with its definition. */
#include "record.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* pc of record j of stream i: distinct per stream and record */
static uint32_t pc_of(uint32_t i, uint32_t j)
{
    return i * 100000u + j;
}

static void fill(emu_wg_trace *t, uint32_t i, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        emu_rec *r = emu_trace_push(t, i, pc_of(i, j));
        assert_non_null(r);
        r->mask = (lanes_mask)j * 7 + i;
    }
}

static void check(const emu_wg_trace *t, uint32_t i, uint32_t n)
{
    const emu_sg_stream *s = &t->sg[i];
    assert_int_equal(s->n, n);
    for (uint32_t j = 0; j < n; j++) {
        assert_int_equal(s->recs[j].pc, pc_of(i, j));
        assert_int_equal(s->pcs[j], pc_of(i, j));
        assert_true(s->recs[j].mask == (lanes_mask)j * 7 + i);
    }
}

/* [a, a + an) and [b, b + bn) bytes do not meet */
static int disjoint(const void *a, size_t an, const void *b, size_t bn)
{
    const char *x = a, *y = b;
    return x + an <= y || y + bn <= x;
}

static size_t stream_span(const emu_sg_stream *s)
{
    return (size_t)s->cap * (sizeof *s->recs + sizeof *s->pcs);
}

static void test_hint_slices(void **state)
{
    (void)state;
    emu_wg_trace t;
    assert_int_equal(emu_trace_init(&t, 4), 0);
    emu_trace_hint h = { .recs = 5, .addrs = 0, .uops = 0 };
    emu_trace_reset(&t, 4, &h);
    for (uint32_t i = 0; i < 4; i++) {
        assert_true(t.sg[i].cap >= 5);
        assert_true(t.sg[i].in_block);
        assert_int_equal((uintptr_t)t.sg[i].recs % _Alignof(emu_rec), 0);
        for (uint32_t k = 0; k < i; k++)
            assert_true(disjoint(t.sg[i].recs, stream_span(&t.sg[i]), t.sg[k].recs,
                                 stream_span(&t.sg[k])));
    }
    for (uint32_t i = 0; i < 4; i++)
        fill(&t, i, 5);
    for (uint32_t i = 0; i < 4; i++)
        check(&t, i, 5);
    emu_trace_free(&t);
    assert_null(t.sg);
}

static void test_outgrow_slice(void **state)
{
    (void)state;
    emu_wg_trace t;
    assert_int_equal(emu_trace_init(&t, 3), 0);
    emu_trace_hint h = { .recs = 4, .addrs = 0, .uops = 0 };
    emu_trace_reset(&t, 3, &h);
    fill(&t, 0, 4);
    fill(&t, 1, 300);     /* past its slice: storage of its own */
    fill(&t, 2, 4);
    assert_false(t.sg[1].in_block);
    assert_true(t.sg[0].in_block && t.sg[2].in_block);
    check(&t, 0, 4);
    check(&t, 1, 300);
    check(&t, 2, 4);
    /* the same hint again: stream 1 has room, the others keep theirs */
    emu_trace_reset(&t, 3, &h);
    assert_false(t.sg[1].in_block);
    fill(&t, 1, 4);
    fill(&t, 0, 4);
    check(&t, 1, 4);
    check(&t, 0, 4);
    /* a larger hint: a new block for the streams without room */
    h.recs = 40;
    emu_trace_reset(&t, 3, &h);
    for (uint32_t i = 0; i < 3; i++)
        assert_true(t.sg[i].cap >= 40);
    assert_false(t.sg[1].in_block);     /* 512 records of its own */
    assert_true(t.sg[0].in_block && t.sg[2].in_block);
    for (uint32_t i = 0; i < 3; i++)
        fill(&t, i, 40);
    for (uint32_t i = 0; i < 3; i++)
        check(&t, i, 40);
    emu_trace_free(&t);
}

static void test_fewer_streams(void **state)
{
    (void)state;
    emu_wg_trace t;
    assert_int_equal(emu_trace_init(&t, 4), 0);
    emu_trace_hint h = { .recs = 6, .addrs = 0, .uops = 0 };
    emu_trace_reset(&t, 4, &h);
    for (uint32_t i = 0; i < 4; i++)
        fill(&t, i, 6);
    /* a work-group of two sub-groups wanting more: the old block goes, and
     * the streams past nsg that were in it are left without room */
    h.recs = 9;
    emu_trace_reset(&t, 2, &h);
    assert_int_equal(t.nsg, 2);
    for (uint32_t i = 2; i < 4; i++) {
        assert_null(t.sg[i].recs);
        assert_int_equal(t.sg[i].cap, 0);
    }
    fill(&t, 0, 9);
    fill(&t, 1, 9);
    check(&t, 0, 9);
    check(&t, 1, 9);
    /* all four again: the two without room get a block of their own */
    emu_trace_reset(&t, 4, &h);
    for (uint32_t i = 0; i < 4; i++)
        fill(&t, i, 9);
    for (uint32_t i = 0; i < 4; i++)
        check(&t, i, 9);
    emu_trace_free(&t);
}

static void test_no_hint_grows(void **state)
{
    (void)state;
    emu_wg_trace t;
    assert_int_equal(emu_trace_init(&t, 2), 0);
    emu_trace_reset(&t, 2, NULL);
    fill(&t, 0, 600);
    fill(&t, 1, 1);
    assert_false(t.sg[0].in_block);
    check(&t, 0, 600);
    check(&t, 1, 1);
    emu_trace_free(&t);
}

/* Definition: every lane i at a[0] + i x (a[1] - a[0]), modulo 2^64. */
static bool strided_by_definition(const uint64_t *a, uint32_t n)
{
    for (uint32_t i = 2; i < n; i++)
        if (a[i] != a[0] + (uint64_t)i * (a[1] - a[0]))
            return false;
    return true;
}

/* Every length 0-64, strides that wrap and not, and a break in each lane
 * in turn (the vector steps and the lanes after them both see it). */
static void test_addrs_strided(void **state)
{
    (void)state;
    const uint64_t starts[] = { 0, 0x1000, UINT64_MAX - 100 };
    const uint64_t strides[] = { 0, 4, 16, 4096, UINT64_MAX - 3 };
    uint64_t a[64];
    for (uint32_t n = 0; n <= 64; n++)
        for (size_t si = 0; si < sizeof starts / sizeof *starts; si++)
            for (size_t di = 0; di < sizeof strides / sizeof *strides; di++) {
                for (uint32_t i = 0; i < n; i++)
                    a[i] = starts[si] + (uint64_t)i * strides[di];
                assert_true(emu_addrs_strided(a, n));
                for (uint32_t k = 0; k < n; k++) {
                    a[k] ^= 1ull << (k % 64);
                    assert_int_equal(emu_addrs_strided(a, n), strided_by_definition(a, n));
                    assert_true(n < 3 || !strided_by_definition(a, n));
                    a[k] ^= 1ull << (k % 64);
                }
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_slices),
        cmocka_unit_test(test_outgrow_slice),
        cmocka_unit_test(test_fewer_streams),
        cmocka_unit_test(test_no_hint_grows),
        cmocka_unit_test(test_addrs_strided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
