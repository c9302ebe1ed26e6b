/* test_decode.c - the decoded execution form (emu/decode.c, the fast
 * paths of emu/exec.c) against its definition: a kernel with divergent
 * loops and branches (partial masks on fast ALU, mov and compare
 * instructions), immediates, a scalar argument, integer and float rows and
 * a partial trailing sub-group gives the values computed here directly in
 * C, and the same bytes, statistics and timing-model cycles as the generic
 * path (SGEMU_DECODE=0). */
#include "decode.h"
#include "sgemu.h"
#include "test_args.h"
#include "timing_model.h"

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
enum { NQ = 21 };
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
    "    mov.u32 r3, %sub_group_local_id\n"
    "    st.global.u64 [%out + r1:i64*8 + 35840], r3\n"
    "    mov.u64 r3, %local_linear_id\n"
    "    st.global.u64 [%out + r1:i64*8 + 38400], r3\n"
    "    mov.u32 r3, %sub_group_size\n"
    "    st.global.u64 [%out + r1:i64*8 + 40960], r3\n"
    "    mov.u32 r3, %max_sub_group_size\n"
    "    st.global.u64 [%out + r1:i64*8 + 43520], r3\n"
    "    mov.u32 r3, %num_sub_groups\n"
    "    st.global.u64 [%out + r1:i64*8 + 46080], r3\n"
    "    mov.u32 r3, %sub_group_id\n"
    "    st.global.u64 [%out + r1:i64*8 + 48640], r3\n"
    "    mov.u32 r3, %work_dim\n"
    "    st.global.u64 [%out + r1:i64*8 + 51200], r3\n"
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
        bool given = i < q->dims && i < 2;   /* qlaunch holds 2 dimensions */
        L.global[i] = given ? q->global[i] : 1;
        L.local[i] = given ? q->local[i] : 1;
        L.offset[i] = given ? q->offset[i] : 0;
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
            /* sub-groups: consecutive local linear ids of the work-group */
            const uint64_t llin = (y % ly) * lx + x % lx, S = q->width;
            const uint64_t sgid = llin / S, wgitems = lx * ly;
            const uint64_t want[NQ] = {
                x + ox, y + oy, x % lx, y % ly, y / ly, lx, gy, gx / lx, oy, lx,
                (uint64_t)(int64_t)(int32_t)qsrc(lin + 1),
                (uint32_t)(lin * 13), (uint64_t)(int64_t)(int32_t)qsrc(lin), qsrc(2 * lin),
                llin % S, llin, wgitems - sgid * S < S ? wgitems - sgid * S : S, S,
                (wgitems + S - 1) / S, sgid, q->dims,
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
static void run_spin(uint64_t limit, bool decoded, bool latch, sgemu_fault *f,
                     uint64_t *ninst)
{
    static const char spin[] =
        ".kernel spin\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "loop:\n"
        "    add.u32 r1, r1, r0\n"
        "    st.global.u32 [%out + r0*4], r1\n"
        "    bra loop\n";
    /* a compare and the branch on it (one dispatch when decoded) */
    static const char spin_latch[] =
        ".kernel spin\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "loop:\n"
        "    add.u32 r1, r1, r0\n"
        "    cmp.ne.u32 p0, r0, 0xffffffff\n"
        "    bra p0, loop\n";
    const char *src = latch ? spin_latch : spin;
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
    static const uint64_t limits[] = { 1, 2, 3, 1000, 1023, 1024, 1025, 1026, 2047, 2048,
                                       2500, 4097 };
    for (int latch = 0; latch < 2; latch++)
        for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
            sgemu_fault ff, fs;
            uint64_t nf, ns;
            run_spin(limits[i], true, latch, &ff, &nf);
            run_spin(limits[i], false, latch, &fs, &ns);
            assert_non_null(strstr(ff.msg, "instruction limit"));
            assert_string_equal(ff.msg, fs.msg);
            assert_int_equal(nf, ns);
            assert_int_equal(nf, limits[i]);
        }
}

/* ------------------------------------------------------------ lane ramps */

/* A register only id queries write is a lane ramp after mov %global_id.x
 * or %local_id.x (decode.h ramp_regs): loads and stores indexed by it skip
 * the per-lane address test and compares of it against a constant count
 * lanes.  Each scenario runs decoded and with SGEMU_DECODE=0: the same
 * exit code, fault message (lane, address), output bytes and statistics;
 * the values are also checked against their definition here. */
typedef struct rr_run {
    int rc;
    char msg[sizeof ((sgemu_fault *)0)->msg];
    uint64_t inst, lanes;
} rr_run;

static void run_ramp_src(const char *src, sgemu_argval *a, const sgemu_launch *L,
                         bool decoded, rr_run *r)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    int errs = isa_assemble("ramp.sgasm", src, strlen(src), &k, &d);
    if (errs)
        isa_diags_print(&d, stderr);
    isa_diags_free(&d);
    assert_int_equal(errs, 0);
    if (!decoded)
        setenv("SGEMU_DECODE", "0", 1);
    sgemu_stats st;
    sgemu_fault f;
    memset(&f, 0, sizeof f);
    r->rc = sgemu_run(&k, &cfg, L, a, &st, &f);
    unsetenv("SGEMU_DECODE");
    snprintf(r->msg, sizeof r->msg, "%s", r->rc ? f.msg : "");
    r->inst = st.instructions;
    r->lanes = st.lane_ops;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
}

enum { RN = 256 };

typedef struct ramp_case {
    const char *what;
    const char *body;          /* after the .arg lines */
    uint64_t global, local, offset;
    uint32_t width;
    size_t in_elems, out_elems;
    bool faults;
} ramp_case;

/* in[i] = f(i); out has out_elems u32; scalar n = global */
static uint32_t rin(uint64_t i) { return 0x9e3779b9u * (uint32_t)i + 17u; }

static void ramp_case_run(const ramp_case *c, bool decoded, uint32_t *out, rr_run *r)
{
    static uint32_t in[RN];
    for (uint32_t i = 0; i < RN; i++)
        in[i] = rin(i);
    char src[2048];
    snprintf(src, sizeof src,
             ".kernel ramp\n.arg in global u32\n.arg out global u32\n.arg n u32\n"
             ".arg scratch local u32\n%s", c->body);
    memset(out, 0, RN * 4);
    sgemu_argval a[4];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)in;
    a[0].bytes = c->in_elems * 4;
    a[1].data = (uint8_t *)out;
    a[1].bytes = c->out_elems * 4;
    a[2].kind = SGEMU_VAL_SCALAR;
    a[2].scalar = c->global;
    a[3].kind = SGEMU_VAL_LOCAL;
    a[3].bytes = (size_t)c->local * 4;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = c->global;
    L.local[0] = c->local;
    L.offset[0] = c->offset;
    L.local_given = true;
    L.sg_width = c->width;
    L.threads = 1;
    run_ramp_src(src, a, &L, decoded, r);
}

/* Case c on the decoded path (into fast) and on the generic one (into slow):
 * the same exit code, message, outputs and counts.  The decoded run. */
static rr_run ramp_case_both(const ramp_case *c, uint32_t *fast, uint32_t *slow)
{
    rr_run rf, rs;
    ramp_case_run(c, true, fast, &rf);
    ramp_case_run(c, false, slow, &rs);
    if (rf.rc != rs.rc || strcmp(rf.msg, rs.msg) || memcmp(fast, slow, RN * sizeof *fast))
        fail_msg("%s: decoded rc %d '%s', generic rc %d '%s'", c->what, rf.rc, rf.msg,
                 rs.rc, rs.msg);
    assert_int_equal(rf.inst, rs.inst);
    assert_int_equal(rf.lanes, rs.lanes);
    return rf;
}

static const char body_copy[] =     /* out[gid] = in[gid] + 1, u32 index */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    add.u32 r1, r1, 1\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    ret\n";
static const char body_i64_disp[] = /* out[gid] = in[gid + 1] (i64 index) */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:i64*4 + 4]\n"
    "    st.global.u32 [%out + r0:u64*4], r1\n"
    "    ret\n";
static const char body_neg[] =      /* out[gid] = in[gid - 2]: lanes 0, 1 below */
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:i32*4 - 8]\n"
    "    st.global.u32 [%out + r0:i32*4], r1\n"
    "    ret\n";
static const char body_i32_view[] = /* ids past 2^32 - 8: continuous as i32 */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:i32*4 + 32]\n"
    "    st.global.u32 [%out + r0:i32*4 + 32], r1\n"
    "    ret\n";
static const char body_u32_view[] = /* the same ids wrap as u32 */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:u32*4 + 32]\n"
    "    st.global.u32 [%out + r0:u32*4 + 32], r1\n"
    "    ret\n";
static const char body_masked[] =   /* if (gid < n): partial last sub-group */
    "    mov.u32 r0, %global_id.x\n"
    "    cmp.lt.u32 p0, r0, %n\n"
    "    bra !p0, done\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "done:\n"
    "    ret\n";
static const char body_barrier[] =  /* through local memory, read after a barrier */
    "    mov.u32 r1, %local_id.x\n"
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r2, [%in + r0:u32*4]\n"
    "    st.local.u32 [%scratch + r1:u32*4], r2\n"
    "    barrier.local\n"
    "    ld.local.u32 r3, [%scratch + r1:u32*4]\n"
    "    add.u32 r3, r3, r1\n"
    "    st.global.u32 [%out + r0:u32*4], r3\n"
    "    ret\n";
static const char body_rewritten[] = /* r0 also written by add: no ramp bit */
    "    mov.u64 r0, %global_id.x\n"
    "    add.u64 r0, r0, 1\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    sub.u64 r0, r0, 1\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    ret\n";
static const char body_hole[] =    /* lane 5 of each 16 reads in[0]: first and last as a ramp */
    "    mov.u64 r0, %global_id.x\n"
    "    and.u64 r3, r0, 15\n"
    "    cmp.eq.u64 p1, r3, 5\n"
    "    sel.u64 r0, p1, 0, r0\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    mov.u64 r0, %global_id.x\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    ret\n";
static const char body_u32_wrap_in[] = /* as u32 the ids wrap at lane 8; a block from lane 0 would fit */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:u32*4 - 17179869152]\n"
    "    st.global.u32 [%out + r0:u32*4 - 17179869152], r1\n"
    "    ret\n";
static const char body_i32_wrap_in[] = /* as i32 the ids wrap at lane 8 (2^31) */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:i32*4 - 8589934560]\n"
    "    st.global.u32 [%out + r0:i32*4 - 8589934560], r1\n"
    "    ret\n";
static const char body_requery[] =  /* r0 re-set by a uniform id query */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    mov.u64 r0, %group_id.x\n"
    "    mov.u64 r0, %local_id.y\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    mov.u64 r0, %local_id.x\n"
    "    st.global.u32 [%out + r0:u32*4 + 512], r1\n"
    "    ret\n";
static const char body_vec[] =      /* a vector load writes r0 too: no ramp bit */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u32 r2, [%in + r0:u32*4]\n"
    "    st.global.u32 [%out + r0:u32*4], r2\n"
    "    cmp.eq.u32 p0, r2, 12345\n"
    "    bra !p0, done\n"
    "    ld.global.u32x2 r0, [%in]\n"
    "done:\n"
    "    ret\n";

static const char body_copy64[] =   /* 8-byte elements (EMU_D_LDST_RAMP, not _RAMP4) */
    "    mov.u64 r0, %global_id.x\n"
    "    ld.global.u64 r1, [%in + r0:u32*8]\n"
    "    st.global.u64 [%out + r0:u32*8], r1\n"
    "    ret\n";
static const char body_copy16[] =   /* 2-byte elements */
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u16 r1, [%in + r0:i32*2 + 2]\n"
    "    st.global.u16 [%out + r0:u32*2], r1\n"
    "    ret\n";

static void test_ramp_accesses(void **state)
{
    (void)state;
    static const ramp_case cs[] = {
        { "whole", body_copy, 256, 64, 0, 16, 256, 256, false },
        { "S=8", body_copy, 256, 64, 0, 8, 256, 256, false },
        { "S=32", body_copy, 256, 128, 0, 32, 256, 256, false },
        { "S=4", body_copy, 64, 16, 0, 4, 256, 256, false },
        { "partial sub-group", body_copy, 250, 50, 0, 16, 256, 256, false },
        /* the block of sub-group 15 overlaps the end of in (251 items):
         * lane 11 (item 251) is the first outside */
        { "past the end", body_copy, 256, 64, 0, 16, 251, 256, true },
        { "past the end of out", body_copy, 256, 64, 0, 16, 256, 247, true },
        { "offset past the end", body_copy, 64, 64, 200, 16, 256, 256, true },
        { "i64 index, disp", body_i64_disp, 255, 85, 0, 16, 256, 256, false },
        { "i64 index, disp, end", body_i64_disp, 256, 64, 0, 16, 256, 256, true },
        { "negative offset", body_neg, 64, 64, 0, 16, 256, 256, true },
        { "negative, offset 2", body_neg, 64, 64, 2, 16, 256, 256, false },
        { "i32 view across 2^32", body_i32_view, 16, 16, 0xfffffff8u, 16, 256, 256, false },
        { "u32 view across 2^32", body_u32_view, 16, 16, 0xfffffff8u, 16, 256, 256, true },
        { "i32 view across 2^31", body_i32_view, 16, 16, 0x7ffffff8u, 16, 256, 256, true },
        { "masked lanes", body_masked, 256, 64, 0, 16, 256, 256, false },
        { "masked lanes, n odd", body_masked, 201, 67, 0, 16, 256, 256, false },
        { "barrier", body_barrier, 256, 64, 0, 16, 256, 256, false },
        { "barrier S=32", body_barrier, 256, 128, 0, 32, 256, 256, false },
        { "rewritten", body_rewritten, 255, 51, 0, 16, 256, 256, false },
        { "re-queried", body_requery, 128, 64, 0, 16, 256, 256, false },
        { "vector write", body_vec, 256, 64, 0, 16, 256, 256, false },
        { "hole", body_hole, 256, 64, 0, 16, 256, 256, false },
        { "u32 wrap, block inside", body_u32_wrap_in, 16, 16, 0xfffffff8u, 16, 256, 256, true },
        { "i32 wrap, block inside", body_i32_wrap_in, 16, 16, 0x7ffffff8u, 16, 256, 256, true },
        { "u64 elements", body_copy64, 128, 64, 0, 16, 256, 256, false },
        { "u64 elements, end", body_copy64, 128, 64, 0, 16, 200, 256, true },
        { "u16 elements", body_copy16, 256, 64, 0, 16, 256, 256, false },
        { "u16 elements, end", body_copy16, 512, 128, 0, 32, 256, 256, true },
    };
    static uint32_t fast[RN], slow[RN];
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const ramp_case *c = &cs[i];
        const rr_run rf = ramp_case_both(c, fast, slow);
        assert_int_equal(rf.rc, c->faults ? SGEMU_EXIT_FAULT : 0);
        if (c->faults)
            assert_non_null(strstr(rf.msg, "out-of-bounds"));
    }
    /* the values, from their definitions */
    ramp_case_run(&cs[0], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], rin(i) + 1);
    ramp_case_run(&cs[4], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 250 ? rin(i) + 1 : 0);
    ramp_case_run(&cs[8], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 255 ? rin(i + 1) : 0);
    ramp_case_run(&cs[11], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i >= 2 && i < 66 ? rin(i - 2) : 0);
    ramp_case_run(&cs[12], true, fast, &(rr_run){ 0 });   /* ids -8..7 as i32 */
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 16 ? rin(i) : 0);
    ramp_case_run(&cs[16], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 201 ? rin(i) : 0);
    ramp_case_run(&cs[17], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], rin(i) + i % 64);
    ramp_case_run(&cs[19], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 255 ? rin(i + 1) : 0);
    ramp_case_run(&cs[22], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i % 16 == 5 ? rin(0) : rin(i));
    ramp_case_run(&cs[25], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], rin(i));
    ramp_case_run(&cs[27], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 128; i++) {   /* halves of in, shifted by one */
        const uint32_t lo = (uint16_t)(rin((2 * i + 1) / 2) >> (((2 * i + 1) % 2) * 16));
        const uint32_t hi = (uint16_t)(rin((2 * i + 2) / 2) >> (((2 * i + 2) % 2) * 16));
        assert_int_equal(fast[i], lo | hi << 16);
    }
    /* the faults name the first lane outside the buffer */
    rr_run rf;
    ramp_case_run(&cs[23], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(4294967296,0,0)"));
    ramp_case_run(&cs[24], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(2147483648,0,0)"));
    ramp_case_run(&cs[5], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(251,0,0)"));
    ramp_case_run(&cs[6], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(247,0,0)"));
    ramp_case_run(&cs[10], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(0,0,0)"));
    ramp_case_run(&cs[14], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(2147483640,0,0)"));
}

/* Compares of a ramp against a constant, every condition on the four
 * integer types, with ids placed so that the low 32 bits wrap, cross 2^31
 * or not: the predicate of each (written as 0/1 rows) against C's compare
 * of the values as the type reads them, and against the generic path. */
enum { NCMP = 24 };
static const char *const cmp_conds[6] = { "eq", "ne", "lt", "le", "gt", "ge" };
static const char *const cmp_types[4] = { "u32", "i32", "u64", "i64" };

static bool cmp_ref(int c, int t, uint64_t a, uint64_t b)
{
    int sgn;   /* -1, 0, 1 */
    switch (t) {
    case 0: { uint32_t x = (uint32_t)a, y = (uint32_t)b; sgn = x < y ? -1 : x > y; break; }
    case 1: { int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b; sgn = x < y ? -1 : x > y; break; }
    case 2: sgn = a < b ? -1 : a > b; break;
    default: { int64_t x = (int64_t)a, y = (int64_t)b; sgn = x < y ? -1 : x > y; break; }
    }
    switch (c) {
    case 0: return sgn == 0;
    case 1: return sgn != 0;
    case 2: return sgn < 0;
    case 3: return sgn <= 0;
    case 4: return sgn > 0;
    default: return sgn >= 0;
    }
}

static void run_cmp_kernel(uint64_t offset, uint64_t kval, bool imm, uint32_t width,
                           bool decoded, uint32_t *out, rr_run *r)
{
    char src[8192];
    int n = snprintf(src, sizeof src, ".kernel cmps\n.arg out global u32\n.arg k u64\n"
                     "    mov.u64 r0, %%global_id.x\n"
                     "    mov.u32 r2, %%local_id.x\n");
    for (int c = 0; c < 6; c++)
        for (int t = 0; t < 4; t++) {
            char kop[64];
            if (imm)
                snprintf(kop, sizeof kop, "%llu", (unsigned long long)(t < 2 ? kval & 0xffffffffu : kval));
            else
                snprintf(kop, sizeof kop, "%%k");
            n += snprintf(src + n, sizeof src - (size_t)n,
                          "    cmp.%s.%s p0, r0, %s\n"
                          "    sel.u32 r1, p0, 1, 0\n"
                          "    st.global.u32 [%%out + r2:u32*4 + %d], r1\n",
                          cmp_conds[c], cmp_types[t], kop, (c * 4 + t) * 64 * 4);
        }
    snprintf(src + n, sizeof src - (size_t)n, "    ret\n");
    memset(out, 0, NCMP * 64 * 4);
    sgemu_argval a[2];
    memset(a, 0, sizeof a);
    a[0].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = NCMP * 64 * 4;
    a[1].kind = SGEMU_VAL_SCALAR;
    a[1].scalar = kval;
    sgemu_launch L;
    memset(&L, 0, sizeof L);
    L.dims = 1;
    L.global[0] = 64;
    L.local[0] = 64;
    L.offset[0] = offset;
    L.local_given = true;
    L.sg_width = width;
    L.threads = 1;
    run_ramp_src(src, a, &L, decoded, r);
}

static void test_ramp_compares(void **state)
{
    (void)state;
    static const uint64_t offsets[] = {
        0, 5, 0x7ffffff0u, 0x7ffffff8u, 0xffffffe8u, 0xfffffff8u,
        UINT64_C(0x7ffffffffffffff0), UINT64_C(0xffffffffffffff00), UINT64_C(0x12345678ffffffe0),
    };
    static const int64_t deltas[] = { -100, -1, 0, 1, 7, 15, 16, 17, 31, 32, 40, 63, 64, 70 };
    static const uint32_t widths[] = { 8, 16, 32 };
    static uint32_t fast[NCMP * 64], slow[NCMP * 64];
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++)
        for (size_t di = 0; di < sizeof deltas / sizeof *deltas; di++)
            for (int imm = 0; imm < 2; imm++) {
                const uint32_t w = widths[(o + di + (size_t)imm) % 3];
                const uint64_t kv = offsets[o] + (uint64_t)deltas[di];
                rr_run rf, rs;
                run_cmp_kernel(offsets[o], kv, imm, w, true, fast, &rf);
                assert_int_equal(rf.rc, 0);
                for (int c = 0; c < 6; c++)
                    for (int t = 0; t < 4; t++)
                        for (uint64_t i = 0; i < 64; i++) {
                            /* immediates of u32/i32 compares are the low bits */
                            const uint64_t b = imm && t < 2 ? kv & 0xffffffffu : kv;
                            const bool want = cmp_ref(c, t, offsets[o] + i, b);
                            if (fast[(c * 4 + t) * 64 + i] != (uint32_t)want)
                                fail_msg("cmp.%s.%s offset %#llx k %#llx lane %llu S=%u: %u",
                                         cmp_conds[c], cmp_types[t],
                                         (unsigned long long)offsets[o],
                                         (unsigned long long)kv, (unsigned long long)i, w,
                                         fast[(c * 4 + t) * 64 + i]);
                        }
                run_cmp_kernel(offsets[o], kv, imm, w, false, slow, &rs);
                assert_memory_equal(fast, slow, sizeof fast);
                assert_int_equal(rf.inst, rs.inst);
                assert_int_equal(rf.lanes, rs.lanes);
            }
}

/* A kernel that ends by falling off its last instruction (no ret), or by
 * a branch to the label after it: decoded (the end sentinel) and generic
 * alike, and the end is not an instruction, so a limit of exactly the
 * executed count passes and one less stops at the same place. */
static int run_noret(const char *src, uint64_t limit, bool decoded, uint32_t *out,
                     uint64_t *ninst, char *msg, size_t msgn)
{
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("noret.sgasm", src, strlen(src), &k, &d), 0);
    isa_diags_free(&d);
    memset(out, 0, 64 * 4);
    sgemu_argval a[1];
    memset(a, 0, sizeof a);
    a[0].kind = SGEMU_VAL_BUFFER;
    a[0].data = (uint8_t *)out;
    a[0].bytes = 64 * 4;
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
    sgemu_fault f;
    int rc = sgemu_run(&k, &cfg, &L, a, &st, &f);
    unsetenv("SGEMU_DECODE");
    snprintf(msg, msgn, "%s", rc ? f.msg : "");
    *ninst = st.instructions;
    sgemu_stats_free(&st);
    isa_kernel_free(&k);
    return rc;
}

static void test_end_of_kernel(void **state)
{
    (void)state;
    static const char *const srcs[2] = {
        ".kernel noret\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "    add.u32 r1, r0, 5\n"
        "    st.global.u32 [%out + r0*4], r1\n",
        ".kernel tolabel\n.arg out global u32\n"
        "    mov.u32 r0, %global_id.x\n"
        "    add.u32 r1, r0, 5\n"
        "    st.global.u32 [%out + r0*4], r1\n"
        "    and.u32 r2, r0, 16\n"
        "    cmp.ne.u32 p0, r2, 0\n"
        "    bra p0, end\n"
        "    st.global.u32 [%out + r0*4], r2\n"
        "end:\n",
    };
    /* sub-groups of 16: 3 instructions each, or 6 (odd ones) and 7 */
    static const uint64_t total[2] = { 12, 26 };
    static uint32_t o1[64], o2[64];
    for (int i = 0; i < 2; i++) {
        for (int lim = 0; lim < 3; lim++) {
            const uint64_t limit = lim == 0 ? 0 : lim == 1 ? total[i] : total[i] - 1;
            char m1[1024], m2[1024];
            uint64_t n1, n2;
            int r1 = run_noret(srcs[i], limit, true, o1, &n1, m1, sizeof m1);
            int r2 = run_noret(srcs[i], limit, false, o2, &n2, m2, sizeof m2);
            assert_int_equal(r1, r2);
            assert_string_equal(m1, m2);
            assert_int_equal(n1, n2);
            assert_memory_equal(o1, o2, sizeof o1);
            assert_int_equal(r1, lim == 2 ? SGEMU_EXIT_FAULT : 0);
            if (lim < 2) {
                assert_int_equal(n1, total[i]);
                for (uint32_t x = 0; x < 64; x++)
                    assert_int_equal(o1[x], i == 1 && !(x & 16) ? 0 : x + 5);
            }
        }
    }
}

static int setup(void **state)
{
    (void)state;
    return load_test_config(&cfg) ? -1 : 0;
}

/* ------------------------------------- work-groups as one call (exec.c)
 *
 * Untraced work-groups set their sub-groups up and run them from one call
 * and skip zeroing registers and predicates that every path writes before
 * reading them (decode.h zero_regs / zero_preds).  Read-before-write
 * registers must still start at zero in every work-group, also when the
 * previous work-group on the same sub-group slot wrote them; faults and
 * limits in later sub-groups and work-groups name the same work-item and
 * count the same instructions as the generic path. */
static const char body_undef[] =   /* items with bit 6 clear load r1; the others store r1 unwritten */
    "    mov.u32 r0, %global_id.x\n"
    "    and.u32 r2, r0, 64\n"
    "    cmp.eq.u32 p0, r2, 0\n"
    "    bra !p0, skip\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "skip:\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    ret\n";
static const char body_undef_pred[] = /* p1 set only where bit 6 is clear, read by all */
    "    mov.u32 r0, %global_id.x\n"
    "    and.u32 r2, r0, 64\n"
    "    cmp.eq.u32 p0, r2, 0\n"
    "    bra !p0, skip\n"
    "    cmp.ne.u32 p1, r0, 0xffffffff\n"
    "skip:\n"
    "    mov.u32 r1, 7\n"
    "    bra !p1, out\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "out:\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "    ret\n";
static const char body_shuffle[] = /* r1 written before its read, but a shuffle reads other lanes */
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r4, %sub_group_local_id\n"
    "    add.u32 r4, r4, 1\n"
    "    and.u32 r4, r4, 15\n"
    "    and.u32 r2, r0, 64\n"
    "    cmp.eq.u32 p0, r2, 0\n"
    "    bra !p0, skip\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "skip:\n"
    "    cmp.lt.u32 p0, r0, 250\n"
    "    bra !p0, done\n"
    "    intel_sub_group_shuffle.u32 r3, r1, r4\n"
    "    st.global.u32 [%out + r0:u32*4], r3\n"
    "done:\n"
    "    ret\n";
static const char body_shuffle_left[] = /* odd items of odd 64-blocks leave before writing r6 */
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r4, %sub_group_local_id\n"
    "    add.u32 r4, r4, 1\n"
    "    and.u32 r4, r4, 15\n"
    "    and.u32 r2, r0, 65\n"
    "    cmp.eq.u32 p0, r2, 65\n"
    "    bra p0, done\n"
    "    ld.global.u32 r6, [%in + r0:u32*4]\n"
    "    intel_sub_group_shuffle.u32 r3, r6, r4\n"
    "    st.global.u32 [%out + r0:u32*4], r3\n"
    "done:\n"
    "    ret\n";
static const char body_block_undef[] = /* sub-groups of 64-blocks with bit 6 set block-write r1 unwritten */
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r5, %sub_group_local_id\n"
    "    sub.u32 r5, r0, r5\n"
    "    and.u32 r2, r0, 64\n"
    "    cmp.eq.u32 p0, r2, 0\n"
    "    bra !p0, skip\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "skip:\n"
    "    intel_sub_group_block_write_ui.u32 [%out + r5:u32*4], r1\n"
    "    ret\n";
static const char body_block_read[] = /* out[gid] = block (u32x2) at lane 0's gid: lanes l and l + S */
    "    mov.u32 r0, %global_id.x\n"
    "    mov.u32 r5, %sub_group_local_id\n"
    "    sub.u32 r5, r0, r5\n"
    "    intel_sub_group_block_read_ui.u32x2 r8, [%in + r5:u32*4]\n"
    "    sub.u32 r3, r9, r8\n"
    "    st.global.u32 [%out + r0:u32*4], r3\n"
    "    ret\n";
static const char body_fault_late[] = /* loads past in's end from work-group 1, sub-group 1 */
    "    mov.u32 r0, %global_id.x\n"
    "    cmp.ge.u32 p0, r0, %n\n"
    "    bra p0, done\n"
    "    ld.global.u32 r1, [%in + r0:u32*4]\n"
    "    st.global.u32 [%out + r0:u32*4], r1\n"
    "done:\n"
    "    ret\n";

static void test_group_zeroing_and_faults(void **state)
{
    (void)state;
    static const ramp_case cs[] = {
        { "unwritten register", body_undef, 256, 64, 0, 16, 256, 256, false },
        { "unwritten register S=8", body_undef, 256, 64, 0, 8, 256, 256, false },
        { "unwritten predicate", body_undef_pred, 256, 64, 0, 16, 256, 256, false },
        { "unwritten predicate S=32", body_undef_pred, 256, 128, 0, 32, 256, 256, false },
        { "shuffle of unwritten lanes", body_shuffle, 256, 64, 0, 16, 256, 256, false },
        { "shuffle from lanes that left", body_shuffle_left, 256, 64, 0, 16, 256, 256, false },
        { "block write of an unwritten register", body_block_undef, 256, 64, 0, 16, 256, 256,
          false },
        { "block read", body_block_read, 128, 64, 0, 32, 256, 256, false },
        { "fault in a later sub-group", body_fault_late, 256, 64, 0, 16, 84, 256, true },
        { "fault, partial work-groups", body_fault_late, 250, 60, 0, 16, 200, 256, true },
        { "no fault, partial work-groups", body_fault_late, 250, 60, 0, 16, 256, 256, false },
        { "fault S=4", body_fault_late, 256, 64, 0, 4, 130, 256, true },
    };
    static uint32_t fast[RN], slow[RN];
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const ramp_case *c = &cs[i];
        const rr_run rf = ramp_case_both(c, fast, slow);
        assert_int_equal(rf.rc, c->faults ? SGEMU_EXIT_FAULT : 0);
    }
    /* values: the unwritten ones read zero in every work-group */
    for (int j = 0; j < 2; j++) {
        ramp_case_run(&cs[j], true, fast, &(rr_run){ 0 });
        for (uint32_t i = 0; i < 256; i++)
            assert_int_equal(fast[i], (i & 64) ? 0 : rin(i));
    }
    for (int j = 2; j < 4; j++) {
        ramp_case_run(&cs[j], true, fast, &(rr_run){ 0 });
        for (uint32_t i = 0; i < 256; i++)
            assert_int_equal(fast[i], (i & 64) ? 7 : rin(i));
    }
    /* the shuffle reads lane (l + 1) % 16 of the sub-group: zero where
     * that item skipped the load */
    ramp_case_run(&cs[4], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++) {
        const uint32_t src = (i & ~15u) | ((i + 1) & 15u);
        assert_int_equal(fast[i], i >= 250 ? 0 : (src & 64) ? 0 : rin(src));
    }
    /* the shuffle reads r6 of lane (l + 1) % 16, also where that item
     * left before loading it (odd items of odd 64-blocks): zero there,
     * also after the previous work-group on that slot loaded it */
    ramp_case_run(&cs[5], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++) {
        const uint32_t src = (i & ~15u) | ((i + 1) & 15u);
        assert_int_equal(fast[i], (i & 65) == 65 ? 0 : (src & 65) == 65 ? 0 : rin(src));
    }
    /* a block write of r1 where the sub-group skipped its load: zero,
     * also after the previous work-group on that slot loaded it */
    ramp_case_run(&cs[6], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], (i & 64) ? 0 : rin(i));
    /* lane l of a sub-group at x0 reads in[x0 + l] and in[x0 + l + 32] */
    ramp_case_run(&cs[7], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], i < 128 ? rin(i + 32) - rin(i) : 0);
    rr_run rf;
    ramp_case_run(&cs[8], true, fast, &rf);   /* item 84: work-group 1, sub-group 1, lane 4 */
    assert_non_null(strstr(rf.msg, "(84,0,0)"));
    assert_non_null(strstr(rf.msg, "sub-group 1"));
    ramp_case_run(&cs[9], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(200,0,0)"));
    ramp_case_run(&cs[11], true, fast, &rf);
    assert_non_null(strstr(rf.msg, "(130,0,0)"));
}

/* exec.c's shortcut for x ids of a whole sub-group in the first row:
 * u32 ids that wrap at 2^32 inside a sub-group, i32 and u64 views, a
 * local size that puts later sub-groups in other rows (the general path). */
static const char body_ids[] =
    "    mov.u32 r1, %local_id.x\n"
    "    mov.u32 r0, %global_id.x\n"
    "    st.global.u32 [%out + r1:u32*4], r0\n"
    "    mov.i32 r2, %global_id.x\n"
    "    st.global.u32 [%out + r1:u32*4 + 256], r2\n"
    "    mov.u64 r3, %global_id.x\n"
    "    shr.u64 r3, r3, 32\n"
    "    st.global.u32 [%out + r1:u32*4 + 512], r3\n"
    "    mov.u32 r4, %local_id.x\n"
    "    st.global.u32 [%out + r1:u32*4 + 768], r4\n"
    "    ret\n";

static void test_id_shortcut(void **state)
{
    (void)state;
    static const ramp_case cs[] = {
        { "ids across 2^32", body_ids, 64, 64, 0xfffffff8u, 16, 256, 256, false },
        { "ids across 2^32 S=8", body_ids, 64, 64, 0xfffffffbu, 8, 256, 256, false },
        { "ids, two groups", body_ids, 64, 32, 0xffffffe8u, 32, 256, 256, false },
    };
    static uint32_t fast[RN], slow[RN];
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const ramp_case *c = &cs[i];
        assert_int_equal(ramp_case_both(c, fast, slow).rc, 0);
        /* each work-group writes its local ids' rows: the last one stays */
        const uint64_t g0 = c->offset + c->global - c->local;
        for (uint32_t l = 0; l < c->local; l++) {
            const uint64_t gid = g0 + l;
            assert_int_equal(fast[l], (uint32_t)gid);
            assert_int_equal(fast[64 + l], (uint32_t)gid);
            assert_int_equal(fast[128 + l], (uint32_t)(gid >> 32));
            assert_int_equal(fast[192 + l], l);
        }
    }
}

/* Vector loads and stores (emu_mem_exec: one bounds and alignment check
 * for the active lanes' span, then a fixed-size copy per element size):
 * element sizes 1, 2 and 8, lanes in reverse order, divergent lanes, the
 * first lane outside the buffer and a misaligned lane, each against the
 * generic path and, for the values, against their definition. */
static const char body_vec_rev[] =   /* items < 100: out[i] = in[99 - i] as u16x2 */
    "    mov.u32 r0, %global_id.x\n"
    "    cmp.ge.u32 p0, r0, 100\n"
    "    bra p0, done\n"
    "    sub.u32 r1, 99, r0\n"
    "    ld.global.u16x2 r4, [%in + r1:u32*4]\n"
    "    st.global.u16x2 [%out + r0:u32*4], r4\n"
    "done:\n"
    "    ret\n";
static const char body_vec_u8[] =    /* out[i] = in[i] as u8x4 */
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u8x4 r4, [%in + r0:u32*4]\n"
    "    st.global.u8x4 [%out + r0:u32*4], r4\n"
    "    ret\n";
static const char body_vec_u64[] =   /* out[4i..4i+3] = in[4i..4i+3] as u64x2 */
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u64x2 r4, [%in + r0:u32*16]\n"
    "    st.global.u64x2 [%out + r0:u32*16], r4\n"
    "    ret\n";
static const char body_vec_misaligned[] =   /* lane 1 at byte 2 of a u32x2 */
    "    mov.u32 r0, %global_id.x\n"
    "    ld.global.u32x2 r4, [%in + r0:u32*2]\n"
    "    st.global.u32 [%out + r0:u32*4], r4\n"
    "    ret\n";

static void test_vector_accesses(void **state)
{
    (void)state;
    static const ramp_case cs[] = {
        { "u16x2, reversed lanes", body_vec_rev, 128, 64, 0, 16, 256, 256, false },
        { "u16x2, reversed lanes S=32", body_vec_rev, 128, 64, 0, 32, 256, 256, false },
        { "u8x4", body_vec_u8, 256, 64, 0, 16, 256, 256, false },
        { "u64x2", body_vec_u64, 64, 64, 0, 8, 256, 256, false },
        { "u8x4 past the end", body_vec_u8, 128, 64, 0, 16, 90, 256, true },
        { "u32x2 misaligned", body_vec_misaligned, 64, 64, 0, 16, 256, 256, true },
    };
    static uint32_t fast[RN], slow[RN];
    rr_run rf[6];
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        rf[i] = ramp_case_both(&cs[i], fast, slow);
        assert_int_equal(rf[i].rc, cs[i].faults ? SGEMU_EXIT_FAULT : 0);
    }
    for (int j = 0; j < 2; j++) {
        ramp_case_run(&cs[j], true, fast, &(rr_run){ 0 });
        for (uint32_t i = 0; i < 256; i++)
            assert_int_equal(fast[i], i < 100 ? rin(99 - i) : 0);
    }
    ramp_case_run(&cs[2], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], rin(i));
    ramp_case_run(&cs[3], true, fast, &(rr_run){ 0 });
    for (uint32_t i = 0; i < 256; i++)
        assert_int_equal(fast[i], rin(i));
    assert_non_null(strstr(rf[4].msg, "(90,0,0)"));
    assert_non_null(strstr(rf[5].msg, "(1,0,0)"));
    assert_non_null(strstr(rf[5].msg, "misaligned"));
}

/* The instruction limit falling anywhere in the later sub-groups and
 * work-groups: the same message and count on both paths. */
static void test_group_limits(void **state)
{
    (void)state;
    rr_run rf, rs;
    static uint32_t fast[RN], slow[RN];
    ramp_case c = { "limit", body_fault_late, 256, 64, 0, 16, 256, 256, false };
    ramp_case_run(&c, true, fast, &rf);
    const uint64_t total = rf.inst;
    assert_int_equal(total, 16 * 6);   /* 16 sub-groups of 6 instructions */
    for (uint64_t limit = 1; limit <= total + 1; limit++) {
        sgemu_argval a[4];
        static uint32_t in[RN];
        for (uint32_t i = 0; i < RN; i++)
            in[i] = rin(i);
        for (int dec = 0; dec < 2; dec++) {
            uint32_t *out = dec ? fast : slow;
            memset(out, 0, RN * 4);
            memset(a, 0, sizeof a);
            a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
            a[0].data = (uint8_t *)in;
            a[0].bytes = sizeof in;
            a[1].data = (uint8_t *)out;
            a[1].bytes = RN * 4;
            a[2].kind = SGEMU_VAL_SCALAR;
            a[2].scalar = 256;
            a[3].kind = SGEMU_VAL_LOCAL;
            a[3].bytes = 256;
            sgemu_launch L;
            memset(&L, 0, sizeof L);
            L.dims = 1;
            L.global[0] = 256;
            L.local[0] = 64;
            L.local_given = true;
            L.sg_width = 16;
            L.threads = 1;
            L.max_instructions = limit;
            char src[2048];
            snprintf(src, sizeof src,
                     ".kernel ramp\n.arg in global u32\n.arg out global u32\n.arg n u32\n"
                     ".arg scratch local u32\n%s", body_fault_late);
            run_ramp_src(src, a, &L, dec != 0, dec ? &rf : &rs);
        }
        if (rf.rc != rs.rc || strcmp(rf.msg, rs.msg) || memcmp(fast, slow, RN * 4))
            fail_msg("limit %llu: decoded rc %d '%s', generic rc %d '%s'",
                     (unsigned long long)limit, rf.rc, rf.msg, rs.rc, rs.msg);
        assert_int_equal(rf.inst, rs.inst);
        assert_int_equal(rf.lanes, rs.lanes);
        /* a limit of exactly the total lets the kernel finish */
        assert_int_equal(rf.rc, limit < total ? SGEMU_EXIT_FAULT : 0);
        assert_int_equal(rf.inst, limit < total ? limit : total);
    }
}

/* decode.c's zero masks: what must start zeroed, from the definition
 * (read on some path before every path wrote it, or any cross-lane
 * instruction in the kernel). */
static uint64_t zero_mask(const char *body, bool preds)
{
    char src[2048];
    snprintf(src, sizeof src,
             ".kernel ramp\n.arg in global u32\n.arg out global u32\n.arg n u32\n"
             ".arg scratch local u32\n%s", body);
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("z.sgasm", src, strlen(src), &k, &d), 0);
    isa_diags_free(&d);
    static const uint64_t args[4] = { 1ull << 40, 2ull << 40, 256, 0 };
    emu_dprog p;
    assert_int_equal(emu_decode(&p, &k, 16, args), 0);
    const uint64_t z = preds ? p.zero_preds : p.zero_regs;
    emu_decode_free(&p);
    isa_kernel_free(&k);
    return z;
}

/* decode.h's zero_run for body: the runs lie inside the kernel's
 * registers and cover every register of zero_regs and every one >= 64
 * (clearing more is allowed).  Returns the number of runs. */
static uint32_t zero_runs_cover(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src,
             ".kernel ramp\n.arg in global u32\n.arg out global u32\n.arg n u32\n"
             ".arg scratch local u32\n%s", body);
    isa_kernel k;
    isa_diags d;
    memset(&d, 0, sizeof d);
    assert_int_equal(isa_assemble("z.sgasm", src, strlen(src), &k, &d), 0);
    isa_diags_free(&d);
    static const uint64_t args[4] = { 1ull << 40, 2ull << 40, 256, 0 };
    emu_dprog p;
    assert_int_equal(emu_decode(&p, &k, 16, args), 0);
    for (uint32_t i = 0; i < p.nzero_runs; i++)
        assert_true(p.zero_run[i][1] > 0 && p.zero_run[i][0] + p.zero_run[i][1] <= k.nreg);
    for (uint32_t r = 0; r < k.nreg; r++) {
        if (r < 64 && !(p.zero_regs >> r & 1))
            continue;
        bool covered = false;
        for (uint32_t i = 0; i < p.nzero_runs; i++)
            covered |= r >= p.zero_run[i][0] && r < p.zero_run[i][0] + p.zero_run[i][1];
        if (!covered)
            fail_msg("register %u not cleared", r);
    }
    const uint32_t n = p.nzero_runs;
    emu_decode_free(&p);
    isa_kernel_free(&k);
    return n;
}

static void test_zero_masks(void **state)
{
    (void)state;
    /* the runs a sub-group's entry clears */
    assert_int_equal(zero_runs_cover(body_fault_late), 0);
    assert_int_equal(zero_runs_cover(body_undef), 1);
    assert_int_equal(zero_runs_cover(body_shuffle), 1);     /* r1..r4, r2 filled in */
    zero_runs_cover(body_shuffle_left);
    static const char spread[] =   /* r0, r10, r20, ..., r70 read unwritten: 8 runs, 4 slots */
        "    add.u32 r80, r0, r10\n"
        "    add.u32 r80, r80, r20\n"
        "    add.u32 r80, r80, r30\n"
        "    add.u32 r80, r80, r40\n"
        "    add.u32 r80, r80, r50\n"
        "    add.u32 r80, r80, r60\n"
        "    add.u32 r80, r80, r70\n"
        "    mov.u32 r81, %global_id.x\n"
        "    st.global.u32 [%out + r81:u32*4], r80\n"
        "    ret\n";
    assert_int_equal(zero_runs_cover(spread), 4);
    setenv("SGEMU_DECODE", "0", 1);
    assert_int_equal(zero_runs_cover(body_fault_late), 1);
    unsetenv("SGEMU_DECODE");
    /* vector_add's shape: every register written before it is read */
    assert_int_equal(zero_mask(body_fault_late, false), 0);
    assert_int_equal(zero_mask(body_fault_late, true), 0);
    /* r1 read where the load was skipped; p1 likewise */
    assert_int_equal(zero_mask(body_undef, false), 1u << 1);
    assert_int_equal(zero_mask(body_undef_pred, true), 1u << 1);
    assert_int_equal(zero_mask(body_undef_pred, false), 0);
    /* block I/O runs with every lane active: its data and address are
     * reads of the lanes' own values, a block read's destination (every
     * component) a write */
    assert_int_equal(zero_mask(body_block_undef, false), 1u << 1);
    assert_int_equal(zero_mask(body_block_undef, true), 0);
    assert_int_equal(zero_mask(body_block_read, false), 0);
    static const char block_read_late[] =   /* r9 read before the block read writes it */
        "    mov.u32 r5, %sub_group_local_id\n"
        "    st.global.u32 [%out + r5:u32*4], r9\n"
        "    intel_sub_group_block_read_ui.u32x2 r8, [%in + r5:u32*4]\n"
        "    st.global.u32 [%out + r5:u32*4], r9\n"
        "    ret\n";
    assert_int_equal(zero_mask(block_read_late, false), 1u << 9);
    static const char block_write_vec[] =   /* r7 written, r8 (the second component) not */
        "    mov.u32 r5, %sub_group_local_id\n"
        "    mov.u32 r7, r5\n"
        "    intel_sub_group_block_write_ui.u32x2 [%out + r5:u32*4], r7\n"
        "    ret\n";
    assert_int_equal(zero_mask(block_write_vec, false), 1u << 8);
    /* a shuffle: the registers it names (r1, which it reads in other
     * lanes, its index r4 and its destination r3), not the ones only
     * lane-wise instructions read after writing them */
    assert_int_equal(zero_mask(body_shuffle, false), (1u << 1) | (1u << 3) | (1u << 4));
    assert_int_equal(zero_mask(body_shuffle, true), 0);
    assert_int_equal(zero_mask(body_shuffle_left, false), (1u << 3) | (1u << 4) | (1u << 6));
    /* a loop-carried register (mix's r5 is set before the loop; here the
     * accumulator is read on the first trip before any write) */
    static const char loop[] =
        "    mov.u32 r0, %global_id.x\n"
        "    mov.u32 r3, 0\n"
        "top:\n"
        "    add.u32 r5, r5, r0\n"
        "    add.u32 r3, r3, 1\n"
        "    cmp.lt.u32 p0, r3, 4\n"
        "    bra p0, top\n"
        "    st.global.u32 [%out + r0:u32*4], r5\n"
        "    ret\n";
    assert_int_equal(zero_mask(loop, false), 1u << 5);
    assert_int_equal(zero_mask(loop, true), 0);
    /* SGEMU_DECODE=0: all zeroed */
    setenv("SGEMU_DECODE", "0", 1);
    assert_true(zero_mask(body_fault_late, false) == ~UINT64_C(0));
    unsetenv("SGEMU_DECODE");
}

/* emu_decode_bind's range for a ramp load: lane 0's index x0 takes the
 * block copy exactly when, from the definition, every lane's address
 * (base + disp + (x0 + l) * 4 read as the index type) is aligned, inside
 * the buffer and the lanes do not wrap in the index type. */
static bool ramp_ok_ref(int idx, int64_t disp, uint64_t bytes, uint64_t x0raw, uint32_t w)
{
    for (uint32_t l = 0; l < w; l++) {
        const uint64_t raw = x0raw + l;
        int64_t x;
        if (idx == 0)
            x = (int64_t)(uint32_t)raw;
        else if (idx == 1)
            x = (int64_t)(int32_t)(uint32_t)raw;
        else
            x = (int64_t)raw;
        /* lanes one apart in the index type */
        int64_t x0 = idx == 0 ? (int64_t)(uint32_t)x0raw
                   : idx == 1 ? (int64_t)(int32_t)(uint32_t)x0raw : (int64_t)x0raw;
        if (x != x0 + (int64_t)l)
            return false;
        const __int128 off = (__int128)disp + (__int128)x * 4;
        if (off < 0 || off + 4 > (__int128)bytes || (off & 3))
            return false;
    }
    return true;
}

static void test_ramp_bind(void **state)
{
    (void)state;
    static const char *const ty[3] = { "u32", "i32", "u64" };
    static const int64_t disps[] = { 0, 8, -8, 6, 4096, -17179869152, 17179869184 };
    static uint8_t buf[1024];
    for (int t = 0; t < 3; t++)
        for (size_t di = 0; di < sizeof disps / sizeof *disps; di++) {
            char src[512];
            snprintf(src, sizeof src,
                     ".kernel rb\n.arg in global u32\n.arg out global u32\n"
                     "    mov.u64 r0, %%global_id.x\n"
                     "    ld.global.u32 r1, [%%in + r0:%s*4 %c %lld]\n"
                     "    st.global.u32 [%%out + r0:u32*4], r1\n"
                     "    ret\n", ty[t], disps[di] < 0 ? '-' : '+',
                     (long long)(disps[di] < 0 ? -disps[di] : disps[di]));
            isa_kernel k;
            isa_diags d;
            memset(&d, 0, sizeof d);
            assert_int_equal(isa_assemble("rb.sgasm", src, strlen(src), &k, &d), 0);
            isa_diags_free(&d);
            const uint64_t av[2] = { 1ull << 40, 2ull << 40 };
            emu_dprog p;
            assert_int_equal(emu_decode(&p, &k, 16, av), 0);
            sgemu_argval a[2];
            memset(a, 0, sizeof a);
            a[0].kind = a[1].kind = SGEMU_VAL_BUFFER;
            a[0].data = a[1].data = buf;
            a[0].bytes = a[1].bytes = sizeof buf;
            emu_decode_bind(&p, &k, 16, a);
            assert_int_equal(p.d[1].kind, EMU_D_LD_RAMP4);
            const emu_dmem *m = &p.mem[p.d[1].src[0]];
            uint32_t nfast = 0;
            /* x0 around the buffer's ends, 2^31 and 2^32, and the disp */
            static const uint64_t centres[] = { 0, 256, 2147483648ull, 4294967296ull,
                                                4294967296ull + 1024 };
            for (size_t ci = 0; ci < 5 + 1; ci++) {
                const uint64_t c0 = ci < 5 ? centres[ci] : (uint64_t)(-disps[di] / 4);
                for (int64_t dx = -300; dx <= 300; dx++) {
                    const uint64_t x0raw = c0 + (uint64_t)dx;
                    const uint64_t x0 = t == 0 ? (uint64_t)(uint32_t)x0raw
                                      : t == 1 ? (uint64_t)(int64_t)(int32_t)(uint32_t)x0raw
                                      : x0raw;
                    /* exec.c compares the slot itself: never more
                     * than the definition allows, and the same where
                     * reading it as the index type changes nothing */
                    const bool fast = x0raw - m->ramp_lo < m->ramp_n;
                    const bool ref = ramp_ok_ref(t, disps[di], sizeof buf, x0raw, 16);
                    if (fast ? !ref : (ref && x0 == x0raw))
                        fail_msg("%s disp %lld x0 %llu: fast %d", ty[t], (long long)disps[di],
                                 (unsigned long long)x0raw, fast);
                    if (fast) {
                        const int64_t xi = (int64_t)x0raw;
                        assert_ptr_equal((const uint8_t *)(m->ramp_ptr + x0raw * 4),
                                         buf + (disps[di] + xi * 4));
                        nfast++;
                    }
                }
            }
            /* the in-buffer blocks do take the copy */
            if (disps[di] == 0 || disps[di] == 8 || (t == 2 && disps[di] < -8))
                assert_true(nfast > 0);
            if (disps[di] == 6)
                assert_int_equal(nfast, 0);
            emu_decode_free(&p);
            isa_kernel_free(&k);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_generic_path),
        cmocka_unit_test(test_timing_same_records),
        cmocka_unit_test(test_coalesced_memory),
        cmocka_unit_test(test_queries_conversions_addresses),
        cmocka_unit_test(test_instruction_limit),
        cmocka_unit_test(test_ramp_accesses),
        cmocka_unit_test(test_ramp_compares),
        cmocka_unit_test(test_end_of_kernel),
        cmocka_unit_test(test_group_zeroing_and_faults),
        cmocka_unit_test(test_group_limits),
        cmocka_unit_test(test_vector_accesses),
        cmocka_unit_test(test_zero_masks),
        cmocka_unit_test(test_ramp_bind),
        cmocka_unit_test(test_id_shortcut),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
