/* test_decode.c - the decoded execution form (emu/decode.c, the fast
 * paths of emu/exec.c) against its definition: a kernel with divergent
 * loops and branches (partial masks on fast ALU, mov and compare
 * instructions), immediates, a scalar argument, integer and float rows and
 * a partial trailing sub-group gives the values computed here directly in
 * C, and the same bytes, statistics and timing-model cycles as the generic
 * path (SGEMU_DECODE=0). */
#include "sgemu.h"
#include "timing.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static emu_config cfg;

static const char mix_src[] =
    ".kernel mix\n"
    ".arg out global u32\n"
    ".arg fout global f32\n"
    ".arg k u32\n"
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r1, r0\n"
    "    and.u32 r2, r0, 7\n"
    "    mov.u32 r3, 0\n"
    "    mov.u32 r5, 0\n"
    "    cmp.ge.u32 p0, r3, r2\n"
    "    bra p0, done\n"
    "loop:\n"
    "    mad.u32 r5, r5, 31, r1\n"
    "    xor.u32 r5, r5, %k\n"
    "    shr.i32 r6, r5, 3\n"
    "    min.i32 r5, r5, r6\n"
    "    add.u32 r3, r3, 1\n"
    "    cmp.lt.u32 p0, r3, r2\n"
    "    bra p0, loop\n"
    "done:\n"
    "    and.u32 r7, r0, 1\n"
    "    cmp.eq.u32 p1, r7, 0\n"
    "    bra p1, even\n"
    "    sub.u32 r5, r5, 1000\n"
    "    mov.u32 r9, r5\n"
    "    max.u64 r9, r9, 77\n"
    "    add.u32 r5, r9, 0\n"
    "even:\n"
    "    st.global.u32 [%out + r0*4], r5\n"
    "    cvt.f32.u32 r8, r0\n"
    "    mad.f32 r8, r8, r8, r8\n"
    "    neg.f32 r8, r8\n"
    "    st.global.f32 [%fout + r0*4], r8\n"
    "    ret\n";

static uint32_t ref_mix(uint32_t x, uint32_t k)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < (x & 7); i++) {
        acc = acc * 31u + x;
        acc ^= k;
        int32_t s = (int32_t)acc >> 3;
        acc = (int32_t)acc < s ? acc : (uint32_t)s;
    }
    if (x & 1) {
        acc -= 1000u;
        /* max.u64 of a zero-extended u32 and 77 */
        acc = acc > 77u ? acc : 77u;
    }
    return acc;
}

typedef struct result {
    uint32_t out[300];
    float fout[300];
    sgemu_stats st;
    uint64_t cycles;
} result;

static void run_mix(uint32_t width, uint64_t n, bool timing, bool decoded, result *r)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("mix.sgasm", mix_src, strlen(mix_src), &k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    memset(r, 0, sizeof *r);
    sgemu_argval a[3];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)r->out;
    a[0].bytes = sizeof r->out;
    a[1].data = (uint8_t *)r->fout;
    a[1].bytes = sizeof r->fout;
    a[2].kind = SGEMU_VAL_SCALAR;
    a[2].scalar = 0x5bd1e995u;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = n;
    L.local[0] = timing ? 50 : 100;   /* not a multiple of the width */
    L.local_given = true;
    L.sg_width = width;
    L.timing = timing;
    L.threads = 1;
    if (decoded)
        unsetenv("SGEMU_DECODE");
    else
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, a, &r->st, &f);
    unsetenv("SGEMU_DECODE");
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    if (timing) {
        assert_non_null(r->st.timing);
        r->cycles = r->st.timing->cycles;
    }
    sgemu_stats_free(&r->st);
    r->st.timing = NULL;
    isa_kernel_free(&k);
}

static void test_values_and_generic_path(void **state)
{
    (void)state;
    static const uint32_t widths[] = { 8, 16, 32 };
    static result fast, slow;
    for (int wi = 0; wi < 3; wi++) {
        run_mix(widths[wi], 300, false, true, &fast);
        for (uint32_t x = 0; x < 300; x++) {
            assert_int_equal(fast.out[x], ref_mix(x, 0x5bd1e995u));
            const float fx = (float)x, p = fx * fx;
            assert_true(fast.fout[x] == -(p + fx));
        }
        run_mix(widths[wi], 300, false, false, &slow);
        assert_memory_equal(fast.out, slow.out, sizeof fast.out);
        assert_memory_equal(fast.fout, slow.fout, sizeof fast.fout);
        assert_int_equal(fast.st.instructions, slow.st.instructions);
        assert_int_equal(fast.st.lane_ops, slow.st.lane_ops);
        assert_int_equal(fast.st.lane_slots, slow.st.lane_slots);
    }
}

static void test_timing_same_records(void **state)
{
    (void)state;
    static result fast, slow;
    run_mix(16, 200, true, true, &fast);
    run_mix(16, 200, true, false, &slow);
    assert_true(fast.cycles > 0);
    assert_int_equal(fast.cycles, slow.cycles);
    assert_memory_equal(fast.out, slow.out, sizeof fast.out);
}

/* Contiguous loads and stores (memory.c's coalesced path): u8, u32 and
 * u64 rows copy exactly, a partial sub-group and a strided access take the
 * per-lane path, and a block that runs off the buffer faults at the first
 * lane outside it, as the per-lane path reports. */
static const char copy_src[] =
    ".kernel copy\n"
    ".arg in8 global u8\n.arg out8 global u8\n"
    ".arg in32 global u32\n.arg out32 global u32\n"
    ".arg in64 global u64\n.arg out64 global u64\n"
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u8 r1, [%in8 + r0*1]\n"
    "    st.global.u8 [%out8 + r0*1], r1\n"
    "    ld.global.u32 r2, [%in32 + r0*4]\n"
    "    add.u32 r2, r2, 1\n"
    "    st.global.u32 [%out32 + r0*4], r2\n"
    "    ld.global.u64 r3, [%in64 + r0*8]\n"
    "    st.global.u64 [%out64 + r0*8], r3\n"
    "    ret\n";

static int run_copy(uint64_t n, uint32_t width, size_t elems, bool decoded,
                    sgemu_fault *f, uint8_t *o8, uint32_t *o32, uint64_t *o64)
{
    static uint8_t i8[256];
    static uint32_t i32[256];
    static uint64_t i64[256];
    for (int i = 0; i < 256; i++) {
        i8[i] = (uint8_t)(i * 7 + 3);
        i32[i] = 0x01000193u * (uint32_t)i;
        i64[i] = UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(i + 1);
    }
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("copy.sgasm", copy_src, strlen(copy_src), &k, &d), 0);
    isa_diags_free(&d);
    sgemu_argval a[6];
    memset(a, 0, sizeof a);
    void *data[6] = { i8, o8, i32, o32, i64, o64 };
    const size_t es[6] = { 1, 1, 4, 4, 8, 8 };
    for (int i = 0; i < 6; i++) {
        a[i].kind = SGEMU_VAL_BUFFER;
        a[i].data = data[i];
        a[i].bytes = elems * es[i];
    }
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = n;
    L.local[0] = n < 64 ? n : 64;
    L.local_given = true;
    L.sg_width = width;
    L.threads = 1;
    if (!decoded)
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_stats st;
    int rc = sgemu_run(&k, &cfg, &L, a, &st, f);
    unsetenv("SGEMU_DECODE");
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return rc;
}

static void test_coalesced_memory(void **state)
{
    (void)state;
    static uint8_t o8[256];
    static uint32_t o32[256];
    static uint64_t o64[256];
    sgemu_fault f;
    /* 200 items at S=16 and S=32: whole and partial sub-groups */
    for (uint32_t w = 16; w <= 32; w *= 2) {
        memset(o8, 0, sizeof o8);
        memset(o32, 0, sizeof o32);
        memset(o64, 0, sizeof o64);
        assert_int_equal(run_copy(200, w, 256, true, &f, o8, o32, o64), 0);
        for (uint32_t i = 0; i < 256; i++) {
            assert_int_equal(o8[i], i < 200 ? (uint8_t)(i * 7 + 3) : 0);
            assert_int_equal(o32[i], i < 200 ? 0x01000193u * i + 1 : 0);
            assert_int_equal(o64[i], i < 200 ? UINT64_C(0x9e3779b97f4a7c15) * (i + 1) : 0);
        }
    }
    /* buffers of 100 elements, 128 items: lane 4 of sub-group 6 (item 100)
     * is the first outside; both paths report the same fault */
    sgemu_fault f2;
    assert_int_equal(run_copy(128, 16, 100, true, &f, o8, o32, o64), SGEMU_EXIT_FAULT);
    assert_int_equal(run_copy(128, 16, 100, false, &f2, o8, o32, o64), SGEMU_EXIT_FAULT);
    assert_string_equal(f.msg, f2.msg);
    assert_non_null(strstr(f.msg, "(100,0,0)"));
}

/* Work-item queries (decoded from the launch, or the callback when a
 * sub-group's lanes wrap to the next row of the work-group), integer
 * conversions and loads/stores through argument and register bases with
 * i64, u64, u32 and i32 index registers: each slot against its value
 * computed here from the NDRange, and the bytes and statistics against the
 * generic path, on 2-D launches with offsets (rows of 10 wrap inside SIMD8
 * sub-groups, rows of 16 do not) and a 1-D one with partial sub-groups. */
enum { NQ = 14 };
static const char query_src[] =
    ".kernel query\n"
    ".arg out global u64\n"
    ".arg src global u32\n"
    ".arg n u32\n"
    "    mov.u32 r0, %global_linear_id\n"
    "    cvt.u64.u32 r1, r0\n"
    "    mov.u64 r3, %global_id.x\n"
    "    st.global.u64 [%out + r1:i64*8], r3\n"
    "    mov.u32 r3, %global_id.y\n"
    "    st.global.u64 [%out + r1:i64*8 + 2560], r3\n"
    "    mov.u64 r3, %local_id.x\n"
    "    st.global.u64 [%out + r1:u64*8 + 5120], r3\n"
    "    mov.u32 r3, %local_id.y\n"
    "    st.global.u64 [%out + r0:u32*8 + 7680], r3\n"
    "    mov.u64 r3, %group_id.y\n"
    "    st.global.u64 [%out + r1:i64*8 + 10240], r3\n"
    "    mov.u32 r3, %local_size.x\n"
    "    st.global.u64 [%out + r1:i64*8 + 12800], r3\n"
    "    mov.u64 r3, %global_size.y\n"
    "    st.global.u64 [%out + r1:i64*8 + 15360], r3\n"
    "    mov.u32 r3, %num_groups.x\n"
    "    st.global.u64 [%out + r1:i64*8 + 17920], r3\n"
    "    mov.u32 r3, %global_offset.y\n"
    "    st.global.u64 [%out + r1:i64*8 + 20480], r3\n"
    "    mov.u32 r3, %enqueued_local_size.x\n"
    "    st.global.u64 [%out + r1:i64*8 + 23040], r3\n"
    "    sub.u32 r4, r0, %n\n"                  /* lin - n: negative as i32 */
    "    cvt.u64.u32 r5, %n\n"
    "    mul.u64 r5, r5, 4\n"
    "    add.u64 r5, r5, %src\n"
    "    ld.global.u32 r6, [r5 + r4:i32*4 + 4]\n"   /* src[lin + 1] */
    "    cvt.i64.i32 r7, r6\n"
    "    st.global.u64 [%out + r1:i64*8 + 25600], r7\n"
    "    mul.u64 r2, r1, 13\n"
    "    xor.u64 r9, r2, 0xabcdef0000000000\n"
    "    cvt.u32.u64 r10, r9\n"
    "    mul.u64 r11, r1, 8\n"
    "    add.u64 r11, r11, %out\n"
    "    st.global.u32 [r11 + 28160], r10\n"
    "    ld.global.u32 r12, [%src + r0:u32*4]\n"
    "    cvt.u64.i32 r12, r12\n"
    "    st.global.u64 [r11 + r0:u32*0 + 30720], r12\n"
    "    mul.u64 r14, r1, 4\n"
    "    add.u64 r14, r14, %src\n"
    "    ld.global.u32 r13, [r14 + r0:u32*4]\n"   /* a varying base: src[2 lin] */
    "    st.global.u64 [%out + r1:i64*8 + 33280], r13\n"
    "    ret\n";

typedef struct qlaunch {
    uint32_t dims, width;
    uint64_t global[2], local[2], offset[2];
} qlaunch;

enum { QMAX = 320 };   /* slot q of item i at out[q * QMAX + i] */

static uint32_t qsrc(uint64_t i) { return 0x80000000u + (uint32_t)i * 7919u; }

static void run_query(const qlaunch *q, bool decoded, bool timing, uint64_t *out,
                      sgemu_stats *st_out, uint64_t *cycles)
{
    static uint32_t src[2 * QMAX];
    for (uint64_t i = 0; i < 2 * QMAX; i++)
        src[i] = qsrc(i);
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("query.sgasm", query_src, strlen(query_src), &k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    const uint64_t items = q->global[0] * (q->dims > 1 ? q->global[1] : 1);
    assert_true(items <= QMAX);
    memset(out, 0, QMAX * NQ * 8);
    sgemu_argval a[3];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = QMAX * NQ * 8;
    a[1].data = (uint8_t *)src;
    a[1].bytes = sizeof src;
    a[2].kind = SGEMU_VAL_SCALAR;
    a[2].scalar = items;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = q->dims;
    for (uint32_t i = 0; i < 3; i++) {
        L.global[i] = i < q->dims ? q->global[i] : 1;
        L.local[i] = i < q->dims ? q->local[i] : 1;
        L.offset[i] = i < q->dims ? q->offset[i] : 0;
    }
    L.local_given = true;
    L.sg_width = q->width;
    L.timing = timing;
    L.threads = 1;
    if (!decoded)
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_fault f;
    sgemu_stats st;
    int rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
    unsetenv("SGEMU_DECODE");
    if (rc)
        fprintf(stderr, "run: %s\n", f.msg);
    assert_int_equal(rc, 0);
    *cycles = timing && st.timing ? st.timing->cycles : 0;
    *st_out = st;
    st_out->timing = NULL;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

static void check_query_values(const qlaunch *q, const uint64_t *out)
{
    const uint64_t gx = q->global[0], gy = q->dims > 1 ? q->global[1] : 1;
    const uint64_t lx = q->local[0], ly = q->dims > 1 ? q->local[1] : 1;
    const uint64_t ox = q->offset[0], oy = q->dims > 1 ? q->offset[1] : 0;
    for (uint64_t y = 0; y < gy; y++)
        for (uint64_t x = 0; x < gx; x++) {
            const uint64_t lin = y * gx + x;
            const uint64_t want[NQ] = {
                x + ox, y + oy, x % lx, y % ly, y / ly, lx, gy, gx / lx, oy, lx,
                (uint64_t)(int64_t)(int32_t)qsrc(lin + 1),
                (uint32_t)(lin * 13), (uint64_t)(int64_t)(int32_t)qsrc(lin), qsrc(2 * lin),
            };
            for (int i = 0; i < NQ; i++)
                if (out[(uint64_t)i * QMAX + lin] != want[i])
                    fail_msg("S=%u item (%llu,%llu) slot %d: %#llx, want %#llx", q->width,
                             (unsigned long long)x, (unsigned long long)y, i,
                             (unsigned long long)out[(uint64_t)i * QMAX + lin],
                             (unsigned long long)want[i]);
        }
}

static void test_queries_conversions_addresses(void **state)
{
    (void)state;
    static const qlaunch qs[] = {
        { 2, 8, { 40, 6 }, { 10, 3 }, { 5, 2 } },
        { 2, 8, { 64, 4 }, { 16, 2 }, { 3, 1 } },
        { 2, 16, { 64, 4 }, { 16, 2 }, { 0, 7 } },
        { 1, 16, { 300, 1 }, { 100, 1 }, { 11, 0 } },
        { 1, 32, { 256, 1 }, { 64, 1 }, { 0, 0 } },
        /* widths without a specialised copy of the dispatch loop */
        { 1, 4, { 120, 1 }, { 30, 1 }, { 2, 0 } },
        { 2, 64, { 64, 4 }, { 64, 2 }, { 0, 0 } },
    };
    static uint64_t fast[QMAX * NQ], slow[QMAX * NQ];
    for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
        sgemu_stats sf, ss;
        uint64_t cf, cs;
        run_query(&qs[i], true, false, fast, &sf, &cf);
        check_query_values(&qs[i], fast);
        run_query(&qs[i], false, false, slow, &ss, &cs);
        assert_memory_equal(fast, slow, sizeof fast);
        assert_int_equal(sf.instructions, ss.instructions);
        assert_int_equal(sf.lane_ops, ss.lane_ops);
    }
    /* timing mode: the same cycles either way */
    sgemu_stats sf, ss;
    uint64_t cf, cs;
    run_query(&qs[0], true, true, fast, &sf, &cf);
    run_query(&qs[0], false, true, slow, &ss, &cs);
    assert_true(cf > 0);
    assert_int_equal(cf, cs);
    assert_memory_equal(fast, slow, sizeof fast);
}

/* The instruction limit stops a runaway kernel at the same instruction,
 * with the same message and counts, on both paths (the decoded loop checks
 * it together with the stop requests at precomputed counts). */
static void run_spin(uint64_t limit, bool decoded, sgemu_fault *f, uint64_t *ninst)
{
    static const char src[] =
        ".kernel spin\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "loop:\n"
        "    add.u32 r1, r1, r0\n"
        "    st.global.u32 [%out + r0*4], r1\n"
        "    bra loop\n";
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("spin.sgasm", src, strlen(src), &k, &d), 0);
    isa_diags_free(&d);
    static uint32_t out[64];
    sgemu_argval a[1];
    memset(a, 0, sizeof a);
    a[0].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = sizeof out;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = 64;
    L.local[0] = 32;
    L.local_given = true;
    L.sg_width = 16;
    L.threads = 1;
    L.max_instructions = limit;
    if (!decoded)
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_stats st;
    assert_int_equal(sgemu_run(&k, &cfg, &L, a, &st, f), SGEMU_EXIT_FAULT);
    unsetenv("SGEMU_DECODE");
    *ninst = st.instructions;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

static void test_instruction_limit(void **state)
{
    (void)state;
    static const uint64_t limits[] = { 1, 1000, 1024, 1025, 2500, 4097 };
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        sgemu_fault ff, fs;
        uint64_t nf, ns;
        run_spin(limits[i], true, &ff, &nf);
        run_spin(limits[i], false, &fs, &ns);
        assert_non_null(strstr(ff.msg, "instruction limit"));
        assert_string_equal(ff.msg, fs.msg);
        assert_int_equal(nf, ns);
        assert_int_equal(nf, limits[i]);
    }
}

static int setup(void **state)
{
    (void)state;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = emu_config_load_bundled("test-simple", &cfg, &d);
    isa_diags_free(&d);
    return errs ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_generic_path),
        cmocka_unit_test(test_timing_same_records),
        cmocka_unit_test(test_coalesced_memory),
        cmocka_unit_test(test_queries_conversions_addresses),
        cmocka_unit_test(test_instruction_limit),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
